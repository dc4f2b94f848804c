// Text helpers for the explain() strings of power and cost results: numbers with thousands
// separators ("8,760 h"), ratios ("0.15") and quantities in their usual units ("591.3 kWh").
// Every result in power/ and cost/ keeps its inputs and prints its arithmetic with these, e.g.
//   "450 W × 0.15 × 8,760 h = 591.3 kWh × $0.12/kWh = $70.96".
#pragma once

#include "capplan/money/format.hpp"
#include "capplan/units/format.hpp"
#include "capplan/units/literals.hpp"

#include <cstdio>
#include <string>

namespace capplan::explain_text {

// "8760" -> "8,760"; "-1234.5" -> "-1,234.5". Leaves exponent notation alone.
inline std::string group(const std::string& s) {
  if (s.find_first_of("eE") != std::string::npos) return s;
  std::string sign, ip = s, fp;
  if (!ip.empty() && ip[0] == '-') {
    sign = "-";
    ip.erase(0, 1);
  }
  if (auto dot = ip.find('.'); dot != std::string::npos) {
    fp = ip.substr(dot);
    ip.erase(dot);
  }
  std::string out{};
  for (std::size_t i = 0; i < ip.size(); ++i) {
    if (i > 0 && (ip.size() - i) % 3 == 0) out += ',';
    out += ip[i];
  }
  return sign + out + fp;
}

// A plain number with `significant` digits and thousands separators.
inline std::string number(double v, int significant = 6) { return group(format_number(v, significant)); }

// A number as an input value in an error message: the shortest form that reads back (15 digits).
inline std::string input(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

// A duration in hours: "8,760 h".
inline std::string hours(const Duration& d) { return number(d.value() / scale::hour, 6) + " h"; }

// A percentage: 0.9 -> "90%".
inline std::string percent(double fraction) { return number(fraction * 100.0, 4) + "%"; }

// Quantities with an automatic prefix (4 significant digits unless told).
template <class Q>
std::string quantity(const Q& q, int significant = 4) {
  return format(q, FormatOptions{.significant = significant});
}

// Money rounded to the minor unit ("$70.96"); prices with every stored digit ("$0.4883/kWh").
template <class D>
std::string money(const BasicMoney<D>& m) {
  return format(m);
}
template <class D>
std::string price(const BasicMoney<D>& m) {
  // At least the currency's minor digits, and every stored digit beyond them up to 6 places.
  const int minor = info(m.currency()).minor_digits;
  const std::string t = m.amount().to_string();
  const auto dot = t.find('.');
  const int places = dot == std::string::npos ? 0 : static_cast<int>(t.size() - dot - 1);
  if (places <= minor) return format(m);
  return format(m, MoneyFormat{.decimals = places < 6 ? places : 6});
}

}  // namespace capplan::explain_text
