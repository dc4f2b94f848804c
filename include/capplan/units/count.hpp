// Exact counts: parameters, tokens and FLOPs as unbounded integers (Boost.Multiprecision
// cpp_int), so 6 * 405e9 * 15.6e12 = 37,908,000,000,000,000,000,000,000 is exact where a
// 64-bit integer overflows at 1.8e19 and a double rounds.
#pragma once

#include "capplan/error.hpp"
#include "capplan/units/quantity.hpp"

#include <boost/multiprecision/cpp_int.hpp>

#include <string>
#include <string_view>

namespace capplan {

using Count = boost::multiprecision::cpp_int;

// Parses an exact non-negative integer count written as digits or in scientific notation whose
// value is an integer: "175000000000", "174.6e9", "15.6e12", "1_000_000" (underscores and
// commas ignored). Throws ParseError naming `field` on anything else ("1.5", "1e400000", "-3").
inline Count parse_count(std::string_view text, std::string_view field = "count") {
  auto bad = [&](std::string_view why) -> Count {
    std::string msg = std::string(field) + ": \"" + std::string(text) + "\" " + std::string(why);
    throw ParseError(std::string(field), std::string(text), msg);
  };
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
  return FlopCount::from_value(static_cast<double>(flops));
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
