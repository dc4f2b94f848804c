// Reading flag values into typed quantities and exact money; errors name the flag.
#pragma once

#include <capplan/cost/compare.hpp>
#include <capplan/error.hpp>
#include <capplan/money/currency.hpp>
#include <capplan/money/money.hpp>
#include <capplan/power/energy.hpp>
#include <capplan/units/parse.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace capplan::cli {

// A number written without a unit (digits, separators, sign, point, exponent), which a flag reads
// in its default unit or currency.
bool is_plain_number(std::string_view s);

// Money flags are prices, rents, tariffs and budgets: a negative one is refused, naming the flag.
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

// Money of a flag whose figures are reported in `currency` (a table ranked in USD, a JSON key
// ending in _usd): an amount in another currency is refused, naming both, never mislabelled.
template <class M>
M in_currency(M m, Currency currency, std::string_view flag, std::string_view why) {
  if (m.currency() != currency) {
    detail::fail(flag, std::string(code(m.currency())), "is not " + std::string(code(currency)) + ": " + std::string(why));
  }
  return m;
}

// --fx CUR=RATE@DATE, repeatable: one USD is RATE units of CUR on DATE ("CNY=7.2@2026-11-01"). The
// rates convert into USD (ExchangeRate{CUR, USD, 1 / RATE}); one per currency, none for USD.
std::vector<ExchangeRate> usd_rates_arg(const std::vector<std::string>& texts, std::string_view flag);

// A ratio that must lie in [0, 1].
inline double fraction_arg(double v, std::string_view flag) { return require_fraction(v, flag); }

// A horizon in months, 1..max_horizon_months (cost/compare.hpp's rule, named by the flag).
inline int months_arg(int v, std::string_view flag) {
  if (v < 1 || v > max_horizon_months) {
    detail::fail(flag, std::to_string(v), "is outside 1.." + std::to_string(max_horizon_months) + " (20 years)");
  }
  return v;
}

// A PUE in [1, 3] (power/energy.hpp's rule; NaN and infinities refused).
inline double pue_arg(double v, std::string_view flag) { return require_pue(v, flag); }

// A grid's carbon intensity in g CO2e/kWh, in [0, 2000] (the dirtiest grids are about 1,000).
inline double grid_arg(double v, std::string_view flag) {
  if (!(v >= 0 && v <= 2000)) detail::fail(flag, detail::format_double(v), "is outside [0, 2000] g/kWh");
  return v;
}

// A positive finite ratio (relative speed), at most `max`.
inline double ratio_arg(double v, double max, std::string_view flag) {
  if (!(v > 0 && v <= max)) detail::fail(flag, detail::format_double(v), "is outside (0, " + detail::format_double(max) + "]");
  return v;
}

}  // namespace capplan::cli
