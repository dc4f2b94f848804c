// Human output of quantities: a chosen number of significant digits and an automatic prefix,
// decimal (GB = 1e9 B) unless binary (GiB = 2^30 B) is asked for; the symbol always says which.
//   format(24_GB) == "24 GB"       format(24_GB, {.prefixes = Prefixes::binary}) == "22.35 GiB"
//   format(3.35_TBps) == "3.35 TB/s"   format(989_TFLOPps) == "989 TFLOP/s"
//   format(34_days, {.significant = 3, .trim_zeros = false}) == "34.0 days"
// Boost.Units' own operator<< and to_string print bytes with bit-style prefixes, so capplan has its
// own format().
#pragma once

#include "capplan/error.hpp"
#include "capplan/units/unit_tables.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace capplan {

enum class Prefixes { decimal, binary };

struct FormatOptions {
  int significant = 4;      // significant digits (1..17)
  bool trim_zeros = true;   // "24 GB" rather than "24.00 GB"
  Prefixes prefixes = Prefixes::decimal;
  bool bits = false;        // bandwidth in bit/s (network links)
};

// A number with `significant` digits, in plain (not scientific) notation between 1e-4 and 1e15.
inline std::string format_number(double v, int significant = 4, bool trim_zeros = true) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (significant < 1) significant = 1;
  if (significant > 17) significant = 17;
  char buf[64];
  if (v == 0.0) {
    std::snprintf(buf, sizeof buf, "%.*f", trim_zeros ? 0 : significant - 1, 0.0);
    return buf;
  }
  const double a = std::fabs(v);
  if (a < 1e-4 || a >= 1e15) {
    std::snprintf(buf, sizeof buf, "%.*e", significant - 1, v);
    std::string s = buf;
    if (trim_zeros) {
      auto e = s.find('e');
      std::string mant = s.substr(0, e), ex = s.substr(e);
      if (mant.find('.') != std::string::npos) {
        while (mant.back() == '0') mant.pop_back();
        if (mant.back() == '.') mant.pop_back();
      }
      s = mant + ex;
    }
    return s;
  }
  // Round to the significant digits first, so 999.96 with 4 digits becomes 1000 (1 more digit).
  std::snprintf(buf, sizeof buf, "%.*e", significant - 1, v);
  const double rounded = std::strtod(buf, nullptr);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(rounded))));
  int decimals = significant - 1 - magnitude;
  if (decimals < 0) decimals = 0;
  std::snprintf(buf, sizeof buf, "%.*f", decimals, rounded);
  std::string s = buf;
  if (trim_zeros && s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

namespace detail {

// Picks the largest printable unit whose value is >= 1 (after rounding), then formats.
inline std::string with_units(double canonical, std::span<const units::UnitSymbol> table, const FormatOptions& o) {
  const units::UnitSymbol* best = nullptr;
  const units::UnitSymbol* smallest = nullptr;
  const double a = std::fabs(canonical);
  for (const auto& u : table) {
    if (!u.printable) continue;
    if (smallest == nullptr || u.factor < smallest->factor) smallest = &u;
    // Compare after rounding to the requested digits: 999.96 GB prints as 1 TB.
    const std::string shown = format_number(a / u.factor, o.significant, true);
    if (std::strtod(shown.c_str(), nullptr) >= 1.0 && (best == nullptr || u.factor > best->factor)) best = &u;
  }
  if (best == nullptr) best = smallest;
  if (a == 0.0) {
    // Zero prints in the role's base unit ("0 B", "0 s").
    for (const auto& u : table) {
      if (u.printable && u.factor == 1.0) best = &u;
    }
  }
  const std::string number = format_number(canonical / best->factor, o.significant, o.trim_zeros);
  std::string_view symbol = best->symbol;
  // The word units read in the singular for exactly one ("1 day", "1 year", as the parser reads them
  // too); "1.5 days" and "1.00 years" keep the plural.
  if ((symbol == "days" || symbol == "years") && (number == "1" || number == "-1")) symbol.remove_suffix(1);
  return number + " " + std::string(symbol);
}

}  // namespace detail

inline std::string format(const DataSize& q, const FormatOptions& o = {}) {
  return detail::with_units(
      q.value(), o.prefixes == Prefixes::binary ? std::span<const units::UnitSymbol>(units::data_size_binary_symbols)
                                                : std::span<const units::UnitSymbol>(units::data_size_symbols),
      o);
}
inline std::string format(const Bandwidth& q, const FormatOptions& o = {}) {
  if (o.bits) return detail::with_units(q.value(), units::bit_rate_symbols, o);
  return detail::with_units(
      q.value(), o.prefixes == Prefixes::binary ? std::span<const units::UnitSymbol>(units::bandwidth_binary_symbols)
                                                : std::span<const units::UnitSymbol>(units::bandwidth_symbols),
      o);
}
template <class Q>
  requires requires { units::role<Q>::symbols; }
inline std::string format(const Q& q, const FormatOptions& o = {}) {
  return detail::with_units(q.value(), units::role<Q>::symbols, o);
}

// The value of a quantity in a named unit of its role: in(80_GB, "GiB") == 74.505...
template <class Q>
double in(const Q& q, std::string_view symbol) {
  for (const auto& u : units::role<Q>::symbols) {
    if (u.symbol == symbol) return q.value() / u.factor;
  }
  if constexpr (std::is_same_v<Q, DataSize> || std::is_same_v<Q, Bandwidth>) {
    for (const auto& u : units::bit_rate_symbols) {
      if (u.symbol == symbol && std::is_same_v<Q, Bandwidth>) return q.value() / u.factor;
    }
  }
  capplan::detail::fail("unit", "\"" + std::string(symbol) + "\"", std::string("is not a unit of ") +
                                                             std::string(units::role<Q>::name));
}

}  // namespace capplan
