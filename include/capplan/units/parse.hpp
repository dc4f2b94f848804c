// Parsing text into typed quantities: "80GB", "80 GiB", "3.35 TB/s", "700 W", "34 days".
//   auto m = capplan::parse<capplan::DataSize>("80 GiB");
// Errors are capplan::ParseError whose message names the field and quotes the input:
// "eighty GB" (no number), "80 XB" (unknown unit, the known ones listed), "" (empty),
// "1e400 GB" (out of range), "nan GB"/"inf W" (not finite), "-5 GB" (negative).
#pragma once

#include "capplan/detail/text.hpp"
#include "capplan/error.hpp"
#include "capplan/units/unit_tables.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

namespace capplan {

namespace detail {

inline std::string known_symbols(std::span<const units::UnitSymbol> table) {
  std::string out;
  for (const auto& u : table) {
    if (!out.empty()) out += ", ";
    out += u.symbol;
  }
  return out;
}

// Splits "80 GB" into 80 and "GB"; validates the number.
inline double leading_number(std::string_view text, std::string_view field, std::string_view role_name,
                             std::string_view& rest) {
  std::string_view s = trim(text);
  if (s.empty()) fail_parse(field, text, "is empty; expected a " + std::string(role_name) + " such as \"80 GB\"");
  std::string buf(s);
  const char* begin = buf.c_str();
  // Decimal only: strtod would also read hexadecimal ("0x10 us", "0x1p-10").
  if (const std::size_t k = (buf[0] == '+' || buf[0] == '-') ? 1 : 0; buf.size() > k + 1 && buf[k] == '0' && (buf[k + 1] == 'x' || buf[k + 1] == 'X'))
    fail_parse(field, text, "is hexadecimal; write the number in decimal");
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(begin, &end);
  if (end == begin) {
    fail_parse(field, text, "is not a " + std::string(role_name) + ": expected a number followed by a unit");
  }
  // strtod accepts "nan" and "inf"; capplan does not.
  if (std::isnan(v) || std::isinf(v)) {
    if (errno == ERANGE) fail_parse(field, text, "is out of range");
    fail_parse(field, text, "is not finite");
  }
  if (errno == ERANGE && v != 0.0) fail_parse(field, text, "is out of range");
  rest = trim(s.substr(static_cast<std::size_t>(end - begin)));
  return v;
}

}  // namespace detail

// Parses a quantity of role Q. Negative values are refused: no capplan quantity that is read
// from text (sizes, rates, powers, durations) can be negative.
template <class Q>
Q parse(std::string_view text, std::string_view field = units::role<Q>::name) {
  using namespace detail;
  std::string_view unit;
  const double v = leading_number(text, field, units::role<Q>::name, unit);
  if (unit.empty()) {
    fail_parse(field, text,
         "has no unit; write one of: " + known_symbols(units::role<Q>::symbols));
  }
  for (const auto& u : units::role<Q>::symbols) {
    if (u.symbol == unit) {
      const double canonical = v * u.factor;
      if (std::isinf(canonical)) fail_parse(field, text, "is out of range");
      if (v < 0) fail_parse(field, text, "is negative; a " + std::string(units::role<Q>::name) + " must be >= 0");
      return Q::from_value(canonical);
    }
  }
  fail_parse(field, text,
       "has an unknown " + std::string(units::role<Q>::name) + " unit \"" + std::string(unit) +
           "\"; known units: " + known_symbols(units::role<Q>::symbols));
}

}  // namespace capplan
