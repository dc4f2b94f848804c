// Reading flag values into typed quantities and exact money; errors name the flag.
#pragma once

#include <capplan/money/format.hpp>
#include <capplan/units/parse.hpp>

#include <cctype>
#include <string>
#include <string_view>

namespace capplan::cli {

inline bool is_plain_number(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == ',' || c == '_' || c == '-' || c == '+' ||
          c == 'e' || c == 'E')) {
      return false;
    }
  }
  return true;
}

inline void require_digits(const std::string& text, std::string_view flag, std::string_view example) {
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c))) return;
  }
  detail::fail(flag, "\"" + text + "\"", "is not an amount; write e.g. " + std::string(example));
}

// "2200" (in `currency`), "$2,200", "2000 CNY".
inline Money money_arg(const std::string& text, Currency currency, std::string_view flag) {
  require_digits(text, flag, "2200, '$2,200' or '2000 CNY'");
  if (is_plain_number(text)) {
    std::string digits;
    for (char c : text) {
      if (c != ',' && c != '_') digits += c;
    }
    return Money(Decimal::parse(digits, flag), currency);
  }
  return parse_money(text, flag);
}

// "2.14" (per hour, in `currency`), "2.14 USD/h", "2000 CNY/month".
inline MoneyRate money_rate_arg(const std::string& text, Currency currency, std::string_view flag) {
  require_digits(text, flag, "2.14, '2.14 USD/h' or '2000 CNY/month'");
  if (is_plain_number(text)) return MoneyRate(Decimal::parse(text, flag), currency);
  return parse_money_rate(text, flag);
}

// "0.12" (per kWh, in `currency`) or "0.12 USD/kWh".
inline EnergyPrice energy_price_arg(const std::string& text, Currency currency, std::string_view flag) {
  require_digits(text, flag, "0.12 or '0.12 USD/kWh'");
  if (is_plain_number(text)) return EnergyPrice(Decimal::parse(text, flag), currency);
  return parse_energy_price(text, flag);
}

// "450" (in the role's base unit) or "450 W", "1.2 kW".
template <class Q>
Q quantity_arg(const std::string& text, std::string_view base_unit, std::string_view flag) {
  if (is_plain_number(text)) return parse<Q>(text + " " + std::string(base_unit), flag);
  return parse<Q>(text, flag);
}

// A ratio that must lie in [0, 1].
inline double fraction_arg(double v, std::string_view flag) { return require_fraction(v, flag); }

}  // namespace capplan::cli
