// Reading flag values into typed quantities and exact money; errors name the flag.
#pragma once

#include <capplan/error.hpp>
#include <capplan/money/currency.hpp>
#include <capplan/money/money.hpp>
#include <capplan/units/parse.hpp>

#include <string>
#include <string_view>

namespace capplan::cli {

// A number written without a unit (digits, separators, sign, point, exponent), which a flag reads
// in its default unit or currency.
bool is_plain_number(std::string_view s);

// "2200" (in `currency`), "$2,200", "2000 CNY".
Money money_arg(const std::string& text, Currency currency, std::string_view flag);

// "2.14" (per hour, in `currency`), "2.14 USD/h", "2000 CNY/month".
MoneyRate money_rate_arg(const std::string& text, Currency currency, std::string_view flag);

// "0.12" (per kWh, in `currency`) or "0.12 USD/kWh".
EnergyPrice energy_price_arg(const std::string& text, Currency currency, std::string_view flag);

// "450" (in the role's base unit) or "450 W", "1.2 kW".
template <class Q>
Q quantity_arg(const std::string& text, std::string_view base_unit, std::string_view flag) {
  if (is_plain_number(text)) return parse<Q>(text + " " + std::string(base_unit), flag);
  return parse<Q>(text, flag);
}

// A ratio that must lie in [0, 1].
inline double fraction_arg(double v, std::string_view flag) { return require_fraction(v, flag); }

}  // namespace capplan::cli
