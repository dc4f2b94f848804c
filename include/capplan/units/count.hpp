// Exact counts: parameters, tokens and FLOPs as unbounded integers (Boost.Multiprecision
// cpp_int), so 6 * 405e9 * 15.6e12 = 37,908,000,000,000,000,000,000,000 is exact where a
// 64-bit integer overflows at 1.8e19 and a double rounds.
#pragma once

#include "capplan/detail/text.hpp"
#include "capplan/error.hpp"
#include "capplan/units/quantity.hpp"

#include <boost/multiprecision/cpp_int.hpp>

#include <compare>
#include <concepts>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace capplan {

// Expression templates off: the values are the same, and the many small expressions in inline
// code instantiate a fraction of the templates (bench/compile_time.sh).
using Count = boost::multiprecision::number<boost::multiprecision::cpp_int_backend<>, boost::multiprecision::et_off>;

// A fixed-width exact count for hot paths: a signed 128-bit integer in a register pair, every
// operation checked (GCC/Clang __builtin_*_overflow) and throwing std::overflow_error rather than
// wrapping. Every count of a real model fits with room to spare (6 N D for 405e9 parameters and
// 15.6e12 tokens is under 2^85, the limit is 2^127); exact_value() falls back to Count for the rare
// input that does not. Boost's checked_int128_t does the same work in out-of-line calls (slower here:
// docs/performance.md).
class Count128 {
 public:
  __extension__ typedef __int128 rep;
  __extension__ typedef unsigned __int128 urep;

  constexpr Count128() = default;
  template <std::integral T>
  constexpr Count128(T v) : v_(v) {}  // NOLINT(google-explicit-constructor): mixes with built-in integers

  friend Count128 operator+(Count128 a, Count128 b) { return checked(__builtin_add_overflow(a.v_, b.v_, &a.v_), a); }
  friend Count128 operator-(Count128 a, Count128 b) { return checked(__builtin_sub_overflow(a.v_, b.v_, &a.v_), a); }
  friend Count128 operator*(Count128 a, Count128 b) { return checked(__builtin_mul_overflow(a.v_, b.v_, &a.v_), a); }
  friend Count128 operator/(Count128 a, Count128 b) {
    if (b.v_ == 0) throw std::overflow_error("Count128: division by zero");
    if (b.v_ == -1 && a.v_ == min_rep()) overflowed();
    a.v_ /= b.v_;
    return a;
  }
  Count128& operator+=(Count128 b) { return *this = *this + b; }
  Count128& operator-=(Count128 b) { return *this = *this - b; }
  Count128& operator*=(Count128 b) { return *this = *this * b; }
  friend bool operator==(Count128 a, Count128 b) { return a.v_ == b.v_; }
  friend auto operator<=>(Count128 a, Count128 b) { return a.v_ <=> b.v_; }

  explicit operator double() const { return static_cast<double>(v_); }  // rounded to nearest
  explicit operator Count() const {
    const bool negative = v_ < 0;
    const urep u = negative ? urep(0) - static_cast<urep>(v_) : static_cast<urep>(v_);
    Count c = static_cast<std::uint64_t>(u >> 64);
    c <<= 64;
    c += static_cast<std::uint64_t>(u);
    return negative ? Count(-c) : c;
  }

 private:
  static constexpr rep min_rep() { return static_cast<rep>(urep(1) << 127); }
  static Count128 checked(bool overflow, Count128 r) {
    if (overflow) [[unlikely]] overflowed();
    return r;
  }
  [[noreturn, gnu::cold, gnu::noinline]] static void overflowed() {
    throw std::overflow_error("Count128: exact count exceeds 128 bits");
  }
  rep v_ = 0;
};

// The largest parameter or token count capplan reads from a user (flags, sweeps): 1e18, far above
// any real run (Llama 3 405B: 15.6e12 tokens), so that 6 N D and every time and cost derived from
// it stay finite in a double.
inline constexpr double max_input_count = 1e18;

// An exact count as the nearest double. A count beyond the range of a double (about 1.8e308) is an
// InputError naming `field`, never an infinity (and never Boost's domain_error, which its
// conversion raises from a noexcept path and so terminates the program).
inline double count_to_double(const Count& c, std::string_view field = "count") {
  if (c != 0 && boost::multiprecision::msb(c < 0 ? Count(-c) : c) >= 1023) {
    detail::fail(field, c.str().substr(0, 12) + "... (" + std::to_string(c.str().size()) + " digits)", "is beyond the range of a double (1.8e308)");
  }
  return static_cast<double>(c);
}

// The value of an exact integer computation as a double, rounded once at the end: `f` is a generic
// callable, `f.template operator()<I>()` computing in the integer type I. Runs in Count128 and,
// should any intermediate overflow 128 bits, again in unbounded Count; the result is the same either way.
template <class F>
double exact_value(F&& f) {
  try {
    return static_cast<double>(f.template operator()<Count128>());
  } catch (const std::overflow_error&) {
    return count_to_double(f.template operator()<Count>());
  }
}

// Parses an exact non-negative integer count written as digits or in scientific notation whose
// value is an integer: "175000000000", "174.6e9", "15.6e12", "1_000_000" (underscores and
// commas ignored). Throws ParseError naming `field` on anything else ("1.5", "1e400000", "-3").
inline Count parse_count(std::string_view text, std::string_view field = "count") {
  auto bad = [&](std::string_view why) -> Count {
    std::string msg = std::string(field) + ": \"" + std::string(text) + "\" " + std::string(why);
    throw ParseError(std::string(field), std::string(text), msg);
  };
  if (const std::string why = detail::digit_grouping_error(text); !why.empty()) return bad(why);
  std::string digits;
  int frac = 0;
  bool point = false;
  std::size_t i = 0;
  while (i < text.size() && text[i] == ' ') ++i;
  if (i < text.size() && text[i] == '-') return bad("is negative; a count must be >= 0");
  if (i < text.size() && text[i] == '+') ++i;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c >= '0' && c <= '9') {
      digits += c;
      if (point) ++frac;
    } else if (c == '.' && !point) {
      point = true;
    } else if (c == '_' || c == ',') {
      continue;
    } else {
      break;
    }
  }
  if (digits.empty()) return bad("is not a count (expected digits such as 175000000000 or 174.6e9)");
  long exp10 = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool neg = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) neg = text[i++] == '-';
    std::size_t start = i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      exp10 = exp10 * 10 + (text[i] - '0');
      if (exp10 > 400) return bad("has an exponent out of range (at most e400)");
    }
    if (i == start) return bad("has an empty exponent");
    if (neg) exp10 = -exp10;
  }
  while (i < text.size() && text[i] == ' ') ++i;
  if (i != text.size()) return bad("is not a count (unexpected characters)");
  std::size_t nz = digits.find_first_not_of('0');
  Count v(nz == std::string::npos ? std::string("0") : digits.substr(nz));
  long shift = exp10 - frac;
  if (shift >= 0) return v * boost::multiprecision::pow(Count(10), static_cast<unsigned>(shift));
  Count d = boost::multiprecision::pow(Count(10), static_cast<unsigned>(-shift));
  if (v % d != 0) return bad("is not a whole number");
  return v / d;
}

// An exact count as a FlopCount for estimates (rounded to the nearest double: 53 bits).
inline FlopCount to_flop_count(const Count& flops) {
  if (flops < 0) detail::fail("flops", flops.str(), "is negative");
  return FlopCount::from_value(count_to_double(flops, "flops"));
}

// A double count (e.g. 174.6e9 parameters read from a preset) as an exact integer, after
// checking it is finite, non-negative and whole.
inline Count to_count(double v, std::string_view field = "count") {
  require_nonnegative(v, field);
  if (v != static_cast<double>(static_cast<long double>(v)) || std::floor(v) != v) {
    detail::fail(field, detail::format_double(v), "is not a whole number");
  }
  return Count(v);
}

}  // namespace capplan
