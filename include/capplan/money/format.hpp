// Printing and parsing money.
//   format(Money)                    "$1,234.56"   (rounded half-even to cents; symbol style)
//   format(m, {.style = MoneyStyle::code})  "1234.56 USD"
//   format(2.49 USD/h)              "$2.49/h"
//   to_json_string(m)               "1234.5678" (exact, full precision, no rounding)
//   parse_money("$1,234.56"), parse_money("¥3,500"), parse_money("1234.56 USD"), parse_money("EUR 12")
//   parse_money_rate("2.49 USD/h"), parse_money_rate("$32.77/hour"), parse_money_rate("2000 CNY/month")
//   parse_energy_price("0.12 USD/kWh")
#pragma once

#include "capplan/detail/text.hpp"
#include "capplan/money/money.hpp"

#include <cctype>
#include <optional>
#include <string>
#include <string_view>

namespace capplan {

enum class MoneyStyle { symbol, code };

struct MoneyFormat {
  MoneyStyle style = MoneyStyle::symbol;
  std::optional<bool> thousands = std::nullopt;  // "1,234.56"; default: grouped in symbol style, not in code style
  int decimals = -1;      // -1: the currency's minor digits (2 for USD); rounding half-even
  bool exact = false;     // true: every stored digit, no rounding
};

namespace detail {

inline std::string group_thousands(const std::string& s) {
  std::string sign, ip = s, fp;
  if (!ip.empty() && ip[0] == '-') {
    sign = "-";
    ip.erase(0, 1);
  }
  if (auto dot = ip.find('.'); dot != std::string::npos) {
    fp = ip.substr(dot);
    ip.erase(dot);
  }
  std::string out;
  for (std::size_t i = 0; i < ip.size(); ++i) {
    if (i > 0 && (ip.size() - i) % 3 == 0) out += ',';
    out += ip[i];
  }
  return sign + out + fp;
}

inline std::string amount_text(const Decimal& amount, Currency c, const MoneyFormat& f) {
  const bool group = f.thousands.value_or(f.style == MoneyStyle::symbol);
  if (f.exact) return group ? group_thousands(amount.to_string()) : amount.to_string();
  const int d = f.decimals < 0 ? info(c).minor_digits : f.decimals;
  std::string s = amount.round(d).to_string(d);
  return group ? group_thousands(s) : s;
}

}  // namespace detail

template <class D>
std::string format(const BasicMoney<D>& m, const MoneyFormat& f = {}) {
  const auto& ci = info(m.currency());
  std::string num = detail::amount_text(m.amount(), m.currency(), f);
  std::string suffix = detail::kind<D>::suffix;
  if (f.style == MoneyStyle::code) return num + " " + std::string(ci.code) + suffix;
  if (!num.empty() && num[0] == '-') return "-" + std::string(ci.symbol) + num.substr(1) + suffix;
  return std::string(ci.symbol) + num + suffix;
}

// Exact decimal text for JSON and CSV: every stored digit, no grouping, no rounding.
template <class D>
std::string to_json_string(const BasicMoney<D>& m) {
  return m.amount().to_string();
}

namespace detail {

struct ParsedMoney {
  Decimal amount;
  Currency currency;
  std::string_view per;  // text after '/', trimmed ("h", "kWh", "month"), empty for an amount
};

inline Currency currency_in(std::string_view code_text, std::string_view text, std::string_view field) {
  try {
    return parse_currency(code_text, field);
  } catch (const InputError&) {
    fail_parse(field, text, "has an unknown currency \"" + std::string(code_text) + "\" (known: USD, EUR, CNY, GBP, JPY)");
  }
}

inline ParsedMoney parse_parts(std::string_view text, std::string_view field) {
  std::string_view s = trim(text);
  if (s.empty()) fail_parse(field, text, "is empty; expected an amount such as \"$1,234.56\" or \"1234.56 USD\"");
  std::string_view per;
  if (auto slash = s.find('/'); slash != std::string_view::npos) {
    per = trim(s.substr(slash + 1));
    s = trim(s.substr(0, slash));
    if (per.empty()) fail_parse(field, text, "has nothing after '/'");
  }
  bool negative = false;
  if (!s.empty() && s.front() == '-') {
    negative = true;
    s = trim(s.substr(1));
  }
  // Leading symbol or code.
  std::optional<Currency> cur;
  for (const auto& ci : currency_table) {
    if (s.starts_with(ci.symbol)) {
      cur = ci.currency;
      s = trim(s.substr(ci.symbol.size()));
      break;
    }
  }
  if (!cur && s.size() > 3 && std::isalpha(static_cast<unsigned char>(s[0]))) {
    cur = currency_in(s.substr(0, 3), text, field);
    s = trim(s.substr(3));
  }
  // Trailing code.
  if (!cur) {
    auto sp = s.find_last_of(' ');
    std::string_view tail = sp == std::string_view::npos ? std::string_view{} : s.substr(sp + 1);
    if (tail.empty()) {
      std::size_t k = s.size();
      while (k > 0 && std::isalpha(static_cast<unsigned char>(s[k - 1]))) --k;
      tail = s.substr(k);
      s = trim(s.substr(0, k));
    } else {
      s = trim(s.substr(0, sp));
    }
    if (tail.empty()) fail_parse(field, text, "has no currency; write \"$12.50\" or \"12.50 USD\"");
    cur = currency_in(tail, text, field);
  }
  // "2000_CNY", "CNY_2000": an underscore where a space would part the amount from its code.
  while (!s.empty() && s.back() == '_') s.remove_suffix(1);
  while (!s.empty() && s.front() == '_') s.remove_prefix(1);
  if (const std::string why = digit_grouping_error(s); !why.empty()) fail_parse(field, text, why);
  std::string digits;
  for (char c : s) {
    if (c == ',' || c == '_') continue;
    digits += c;
  }
  if (digits.empty()) fail_parse(field, text, "has no amount");
  if (negative) digits.insert(0, "-");
  Decimal amount;
  try {
    amount = Decimal::parse(digits, field);
  } catch (const ParseError&) {
    fail_parse(field, text, "is not an amount of money (expected digits such as 1,234.56)");
  }
  return {amount, *cur, per};
}

}  // namespace detail

inline Money parse_money(std::string_view text, std::string_view field = "money") {
  auto p = detail::parse_parts(text, field);
  if (!p.per.empty()) detail::fail_parse(field, text, "is a rate, not an amount; remove \"/" + std::string(p.per) + "\"");
  return Money(p.amount, p.currency);
}

// Per hour, or per day / week / month (730 h) / year (8,760 h), converted to per hour; a
// monthly figure that does not divide evenly is rounded half-even at the 12th decimal place.
inline MoneyRate parse_money_rate(std::string_view text, std::string_view field = "money_rate") {
  auto p = detail::parse_parts(text, field);
  const std::string_view per = p.per;
  Decimal hours;
  if (per == "h" || per == "hr" || per == "hour") hours = Decimal(1);
  else if (per == "day") hours = Decimal(24);
  else if (per == "week") hours = Decimal(168);
  else if (per == "month" || per == "mo") hours = Decimal(730);
  else if (per == "year" || per == "yr") hours = Decimal(8760);
  else if (per.empty()) detail::fail_parse(field, text, "is an amount, not a rate; write e.g. \"2.49 USD/h\"");
  else detail::fail_parse(field, text, "has an unknown period \"" + std::string(per) + "\" (h, day, week, month, year)");
  return MoneyRate(p.amount / hours, p.currency);
}

inline EnergyPrice parse_energy_price(std::string_view text, std::string_view field = "energy_price") {
  auto p = detail::parse_parts(text, field);
  if (p.per == "kWh") return EnergyPrice(p.amount, p.currency);
  if (p.per == "MWh") return EnergyPrice(p.amount / Decimal(1000), p.currency);
  if (p.per == "Wh") return EnergyPrice(p.amount * 1000, p.currency);
  detail::fail_parse(field, text, "is not a price per energy; write e.g. \"0.12 USD/kWh\"");
}

}  // namespace capplan
