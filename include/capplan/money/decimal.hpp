// Decimal: exact fixed-point numbers for money.
//
// Representation: a checked 128-bit integer counting 10^-12 of a unit (pico-units), from
// Boost.Multiprecision's checked_int128_t. Why fixed point rather than a rational:
//   * money is decimal; every price, tariff and exchange rate people write has at most a few
//     decimal places, so sums, differences and products of them are exact here;
//   * the size is fixed (16 bytes) and operations cost a few integer instructions, where a
//     rational's denominators grow under discounting and division;
//   * formatting as a decimal string (JSON, CSV) is exact and needs no choice of digits;
//   * overflow is checked: beyond +/-1.7e26 units an std::overflow_error is thrown, never a
//     silently wrapped amount.
// Where a result has more than 12 decimal places (a division, a product of two 12-place
// values, a discount factor) it is rounded half-to-even at the 12th place; that is the only
// rounding capplan does unless asked (Decimal::round).
#pragma once

#include "capplan/error.hpp"

#include <boost/multiprecision/cpp_int.hpp>

#include <cmath>
#include <compare>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>

namespace capplan {

enum class RoundingMode {
  half_even,  // banker's rounding: 2.345 -> 2.34, 2.355 -> 2.36 (the default)
  half_up,    // half away from zero: 2.345 -> 2.35
  down,       // toward zero (truncate)
  up,         // away from zero
  floor,      // toward -infinity
  ceiling,    // toward +infinity
};

class Decimal {
 public:
  using Raw = boost::multiprecision::checked_int128_t;
  using Wide = boost::multiprecision::checked_int256_t;
  static constexpr int places = 12;

  constexpr Decimal() = default;

  // Exact from an integer.
  template <class Int>
    requires std::is_integral_v<Int>
  Decimal(Int v) : raw_(Raw(v) * scale()) {}  // NOLINT(google-explicit-constructor): integers are exact

  // Exact from decimal text: "1234.56", "-0.001", "1e3", "2.5E-2". More than 12 decimal
  // places is an error, not a silent rounding. Throws ParseError naming the text.
  explicit Decimal(std::string_view text) : raw_(parse_raw(text, "decimal")) {}
  explicit Decimal(const char* text) : Decimal(std::string_view(text)) {}
  explicit Decimal(const std::string& text) : Decimal(std::string_view(text)) {}

  // A double is never turned into money implicitly: its binary value is rarely the decimal
  // the user wrote (0.1 is 0.1000000000000000055...). Use Decimal("0.1") or, for a measured
  // ratio, Decimal::from_double(x, significant_digits).
  template <class F>
    requires std::is_floating_point_v<F>
  Decimal(F) = delete;

  // The number of 10^-12 units, for serialization and bindings.
  static Decimal from_raw(Raw raw) {
    Decimal d;
    d.raw_ = raw;
    return d;
  }
  [[nodiscard]] const Raw& raw() const noexcept { return raw_; }

  // A measured, inexact value (a utilization, a duration in hours) rounded to `significant`
  // decimal digits (at most 17), then exactly. 15 digits, the default, is what a double
  // guarantees, so 0.15 * 8760 = 1314.0000000000002 becomes exactly 1314.
  static Decimal from_double(double v, int significant = 15, std::string_view field = "value") {
    require_finite(v, field);
    if (significant < 1 || significant > 17) {
      detail::fail("significant", std::to_string(significant), "must be in [1, 17]");
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", significant - 1, v);
    return from_text_rounded(buf, field);
  }

  // Exact from a rational p/q; throws InputError if p/q has more than 12 decimal places
  // (use from_rational_rounded for that).
  static Decimal from_rational(const boost::multiprecision::cpp_rational& r, std::string_view field = "value") {
    Decimal d = from_rational_rounded(r, RoundingMode::half_even, field);
    if (boost::multiprecision::cpp_rational(d.to_rational()) != r) {
      detail::fail(field, r.str(), "has no exact decimal form with at most 12 places");
    }
    return d;
  }
  static Decimal from_rational_rounded(const boost::multiprecision::cpp_rational& r,
                                       RoundingMode mode = RoundingMode::half_even,
                                       std::string_view field = "value") {
    using boost::multiprecision::cpp_int;
    cpp_int num = boost::multiprecision::numerator(r) * cpp_int(scale_wide());
    cpp_int den = boost::multiprecision::denominator(r);
    cpp_int q = num / den;
    cpp_int rem = num % den;
    q = round_quotient(q, rem, den, mode);
    if (q > cpp_int(std::numeric_limits<Raw>::max()) || q < cpp_int(std::numeric_limits<Raw>::min())) {
      detail::fail(field, r.str(), "is out of the range of exact money (|x| < 1.7e26)");
    }
    return from_raw(Raw(q));
  }
  [[nodiscard]] boost::multiprecision::cpp_rational to_rational() const {
    return boost::multiprecision::cpp_rational(boost::multiprecision::cpp_int(raw_),
                                               boost::multiprecision::cpp_int(scale_wide()));
  }

  // For ratios and plots only: the nearest double.
  [[nodiscard]] double to_double() const { return static_cast<double>(to_rational()); }

  // Rounds to `decimals` places (0..12) with the given mode.
  [[nodiscard]] Decimal round(int decimals, RoundingMode mode = RoundingMode::half_even) const {
    if (decimals < 0 || decimals > places) {
      detail::fail("decimals", std::to_string(decimals), "must be in [0, 12]");
    }
    if (decimals == places) return *this;
    Raw unit = pow10(places - decimals);
    Raw q = raw_ / unit;
    Raw rem = raw_ % unit;
    return from_raw(round_quotient(q, rem, unit, mode) * unit);
  }

  [[nodiscard]] bool is_zero() const noexcept { return raw_ == 0; }
  [[nodiscard]] bool is_negative() const noexcept { return raw_ < 0; }
  [[nodiscard]] int sign() const noexcept { return raw_ < 0 ? -1 : (raw_ > 0 ? 1 : 0); }
  [[nodiscard]] Decimal abs() const { return raw_ < 0 ? -*this : *this; }

  // Exact decimal text without trailing zeros: "876", "70.956", "-0.5". At least
  // `min_decimals` places are shown ("876.00" for 2).
  [[nodiscard]] std::string to_string(int min_decimals = 0) const {
    Raw a = raw_ < 0 ? Raw(-raw_) : raw_;
    Raw ip = a / scale();
    Raw fp = a % scale();
    std::string frac = fp.str();
    frac.insert(0, static_cast<std::size_t>(places) - frac.size(), '0');
    while (static_cast<int>(frac.size()) > min_decimals && !frac.empty() && frac.back() == '0') frac.pop_back();
    std::string out = raw_ < 0 ? "-" : "";
    out += ip.str();
    if (!frac.empty()) out += "." + frac;
    return out;
  }

  // Arithmetic. +, - and integer * are exact; Decimal * Decimal and / round half-even at the
  // 12th place; every operation throws std::overflow_error rather than wrap.
  Decimal operator-() const { return from_raw(-raw_); }
  Decimal& operator+=(const Decimal& o) {
    raw_ += o.raw_;
    return *this;
  }
  Decimal& operator-=(const Decimal& o) {
    raw_ -= o.raw_;
    return *this;
  }
  Decimal& operator*=(const Decimal& o) { return *this = *this * o; }
  Decimal& operator/=(const Decimal& o) { return *this = *this / o; }

  friend Decimal operator+(Decimal a, const Decimal& b) { return a += b; }
  friend Decimal operator-(Decimal a, const Decimal& b) { return a -= b; }
  friend Decimal operator*(const Decimal& a, const Decimal& b) {
    Wide p = Wide(a.raw_) * Wide(b.raw_);
    Wide s = scale_wide();
    return from_wide(round_quotient(Wide(p / s), Wide(p % s), s, RoundingMode::half_even));
  }
  friend Decimal operator/(const Decimal& a, const Decimal& b) {
    if (b.raw_ == 0) detail::fail("divisor", "0", "division of a decimal amount by zero");
    Wide n = Wide(a.raw_) * scale_wide();
    Wide d = Wide(b.raw_);
    return from_wide(round_quotient(Wide(n / d), Wide(n % d), d, RoundingMode::half_even));
  }
  friend bool operator==(const Decimal& a, const Decimal& b) = default;
  friend std::strong_ordering operator<=>(const Decimal& a, const Decimal& b) {
    if (a.raw_ < b.raw_) return std::strong_ordering::less;
    if (a.raw_ > b.raw_) return std::strong_ordering::greater;
    return std::strong_ordering::equal;
  }

  // Parses decimal text; on more than 12 places rounds half-even (used for printed doubles).
  static Decimal from_text_rounded(std::string_view text, std::string_view field) {
    return from_raw(parse_raw(text, field, /*allow_rounding=*/true));
  }
  // Parses decimal text exactly (ParseError on more than 12 places).
  static Decimal parse(std::string_view text, std::string_view field = "decimal") {
    return from_raw(parse_raw(text, field));
  }

 private:
  static Raw scale() { return pow10(places); }
  static Wide scale_wide() { return Wide(pow10(places)); }
  static Raw pow10(int n) {
    Raw r = 1;
    for (int i = 0; i < n; ++i) r *= 10;
    return r;
  }

  static Decimal from_wide(const Wide& w) {
    if (w > Wide(std::numeric_limits<Raw>::max()) || w < Wide(std::numeric_limits<Raw>::min())) {
      throw std::overflow_error("capplan: decimal amount out of range (|x| < 1.7e26 units)");
    }
    return from_raw(Raw(w));
  }

  // Adjusts a truncated quotient q (with remainder rem of divisor den) for the rounding mode.
  template <class I>
  static I round_quotient(I q, I rem, I den, RoundingMode mode) {
    if (rem == 0) return q;
    const bool negative = (rem < 0) != (den < 0);
    I arem = rem < 0 ? I(-rem) : rem;
    I aden = den < 0 ? I(-den) : den;
    bool away = false;
    switch (mode) {
      case RoundingMode::down: away = false; break;
      case RoundingMode::up: away = true; break;
      case RoundingMode::floor: away = negative; break;
      case RoundingMode::ceiling: away = !negative; break;
      case RoundingMode::half_up: away = arem * 2 >= aden; break;
      case RoundingMode::half_even: {
        I twice = arem * 2;
        if (twice > aden) {
          away = true;
        } else if (twice == aden) {
          I aq = q < 0 ? I(-q) : q;
          away = (aq % 2) != 0;
        }
        break;
      }
    }
    if (!away) return q;
    return negative ? I(q - 1) : I(q + 1);
  }

  static Raw parse_raw(std::string_view text, std::string_view field, bool allow_rounding = false) {
    auto bad = [&](std::string_view why) -> Raw {
      std::string msg = std::string(field) + ": \"" + std::string(text) + "\" " + std::string(why);
      throw ParseError(std::string(field), std::string(text), msg);
    };
    std::size_t i = 0;
    const std::size_t n = text.size();
    if (n == 0) return bad("is empty; expected a decimal number such as 1234.56");
    bool neg = false;
    if (text[i] == '+' || text[i] == '-') neg = text[i++] == '-';
    std::string digits;
    int frac_digits = 0;
    bool seen_point = false, any_digit = false;
    for (; i < n; ++i) {
      char c = text[i];
      if (c >= '0' && c <= '9') {
        digits += c;
        any_digit = true;
        if (seen_point) ++frac_digits;
      } else if (c == '.' && !seen_point) {
        seen_point = true;
      } else {
        break;
      }
    }
    if (!any_digit) return bad("is not a decimal number");
    long exponent = 0;
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
      ++i;
      bool eneg = false;
      if (i < n && (text[i] == '+' || text[i] == '-')) eneg = text[i++] == '-';
      if (i >= n) return bad("has an empty exponent");
      long e = 0;
      for (; i < n; ++i) {
        if (text[i] < '0' || text[i] > '9') break;
        e = e * 10 + (text[i] - '0');
        if (e > 1000) return bad("has an exponent out of range");
      }
      exponent = eneg ? -e : e;
    }
    if (i != n) return bad("is not a decimal number (unexpected characters)");
    // value = digits * 10^(exponent - frac_digits); we want value * 10^places.
    long shift = exponent - frac_digits + places;
    using boost::multiprecision::cpp_int;
    // cpp_int reads a leading 0 as octal: strip leading zeros first.
    std::size_t nz = digits.find_first_not_of('0');
    cpp_int v(nz == std::string::npos ? std::string("0") : digits.substr(nz));
    if (shift >= 0) {
      if (shift > 60) {
        if (v != 0) return bad("is out of the range of exact money (|x| < 1.7e26)");
      } else {
        v *= boost::multiprecision::pow(cpp_int(10), static_cast<unsigned>(shift));
      }
    } else {
      if (-shift > 80) {
        if (!allow_rounding && v != 0) return bad("has more than 12 decimal places");
        v = 0;
      } else {
        cpp_int d = boost::multiprecision::pow(cpp_int(10), static_cast<unsigned>(-shift));
        cpp_int q = v / d, rem = v % d;
        if (rem != 0 && !allow_rounding) return bad("has more than 12 decimal places; capplan money is exact to 1e-12");
        v = round_quotient<cpp_int>(q, rem, d, RoundingMode::half_even);
      }
    }
    if (neg) v = -v;
    if (v > cpp_int(std::numeric_limits<Raw>::max()) || v < cpp_int(std::numeric_limits<Raw>::min())) {
      return bad("is out of the range of exact money (|x| < 1.7e26)");
    }
    return Raw(v);
  }

  Raw raw_ = 0;
};

// Integer * Decimal is exact.
template <class Int>
  requires std::is_integral_v<Int>
Decimal operator*(const Decimal& a, Int n) {
  return Decimal::from_raw(a.raw() * Decimal::Raw(n));
}
template <class Int>
  requires std::is_integral_v<Int>
Decimal operator*(Int n, const Decimal& a) {
  return a * n;
}

}  // namespace capplan
