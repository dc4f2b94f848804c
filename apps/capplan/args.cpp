#include "args.hpp"

#include <capplan/money/decimal.hpp>
#include <capplan/money/format.hpp>

#include <cctype>

namespace capplan::cli {

namespace {

void require_digits(const std::string& text, std::string_view flag, std::string_view example) {
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c))) return;
  }
  detail::fail(flag, "\"" + text + "\"", "is not an amount; write e.g. " + std::string(example));
}

// Money flags: never negative, and at most 1e15 (a quadrillion), so that a month-by-month table
// of a 20-year horizon stays far inside exact money's range (1.7e26) and no sum overflows.
template <class M>
M nonnegative(M m, const std::string& text, std::string_view flag) {
  if (m.amount().is_negative()) detail::fail(flag, "\"" + text + "\"", "is negative; prices, rents, tariffs and budgets are >= 0");
  if (m.amount() > Decimal("1e15")) detail::fail(flag, "\"" + text + "\"", "is absurd (more than 1e15)");
  return m;
}

}  // namespace

// A plain number's digits without the separators that group its thousands (refused where they do not).
static std::string plain_digits(const std::string& text, std::string_view flag) {
  if (const std::string why = detail::digit_grouping_error(text); !why.empty()) detail::fail(flag, "\"" + text + "\"", why);
  std::string digits;
  for (char c : text) {
    if (c != ',' && c != '_') digits += c;
  }
  return digits;
}

bool is_plain_number(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == ',' || c == '_' || c == '-' || c == '+' ||
          c == 'e' || c == 'E')) {
      return false;
    }
  }
  return true;
}

Money money_arg(const std::string& text, Currency currency, std::string_view flag) {
  require_digits(text, flag, "2200, '$2,200' or '2000 CNY'");
  if (is_plain_number(text)) return nonnegative(Money(Decimal::parse(plain_digits(text, flag), flag), currency), text, flag);
  return nonnegative(parse_money(text, flag), text, flag);
}

MoneyRate money_rate_arg(const std::string& text, Currency currency, std::string_view flag) {
  require_digits(text, flag, "2.14, '2.14 USD/h' or '2000 CNY/month'");
  if (is_plain_number(text)) return nonnegative(MoneyRate(Decimal::parse(plain_digits(text, flag), flag), currency), text, flag);
  return nonnegative(parse_money_rate(text, flag), text, flag);
}

EnergyPrice energy_price_arg(const std::string& text, Currency currency, std::string_view flag) {
  require_digits(text, flag, "0.12 or '0.12 USD/kWh'");
  const EnergyPrice p = is_plain_number(text) ? nonnegative(EnergyPrice(Decimal::parse(plain_digits(text, flag), flag), currency), text, flag)
                                              : nonnegative(parse_energy_price(text, flag), text, flag);
  // The dearest tariffs are under one USD a kWh; 10,000 units covers every currency's.
  if (p.amount() > Decimal(10000)) detail::fail(flag, "\"" + text + "\"", "is absurd (more than 10,000 a kWh)");
  return p;
}

std::vector<ExchangeRate> usd_rates_arg(const std::vector<std::string>& texts, std::string_view flag) {
  std::vector<ExchangeRate> out;
  for (const std::string& text : texts) {
    const auto eq = text.find('='), at = text.find('@');
    if (eq == std::string::npos || at == std::string::npos || at < eq)
      detail::fail(flag, "\"" + text + "\"", "is not CUR=RATE@DATE, e.g. CNY=7.2@2026-11-01 (one USD in CUR, on DATE)");
    const Currency cur = parse_currency(text.substr(0, eq), flag);
    if (cur == Currency::USD) detail::fail(flag, "\"" + text + "\"", "converts USD; costs are already in USD");
    const Decimal per_usd = Decimal::parse(text.substr(eq + 1, at - eq - 1), flag);
    if (!(per_usd > Decimal(0))) detail::fail(flag, "\"" + text + "\"", "has a rate that is not positive");
    const std::string date = text.substr(at + 1);
    parse_iso_date(date, flag);
    for (const auto& r : out) {
      if (r.from == cur) detail::fail(flag, "\"" + text + "\"", "gives " + std::string(code(cur)) + " a second rate; give one per currency");
    }
    out.emplace_back(cur, Currency::USD, Decimal(1) / per_usd, date, std::string(flag));
  }
  return out;
}

}  // namespace capplan::cli
