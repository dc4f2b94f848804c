// Currencies known to capplan: ISO 4217 code, symbol and minor-unit digits.
#pragma once

#include "capplan/detail/text.hpp"
#include "capplan/error.hpp"

#include <array>
#include <string>
#include <string_view>

namespace capplan {

enum class Currency { USD, EUR, CNY, GBP, JPY };

struct CurrencyInfo {
  Currency currency;
  std::string_view code;    // ISO 4217
  std::string_view symbol;  // as printed before the amount
  int minor_digits;         // decimal places of the minor unit (cents: 2; yen: 0)
};

// "¥" is read as CNY (renminbi), the currency of capplan's monthly-rental sources; write
// "JPY" for yen.
inline constexpr std::array<CurrencyInfo, 5> currency_table{{
    {Currency::USD, "USD", "$", 2},
    {Currency::EUR, "EUR", "€", 2},
    {Currency::CNY, "CNY", "¥", 2},
    {Currency::GBP, "GBP", "£", 2},
    {Currency::JPY, "JPY", "JP¥", 0},
}};

inline const CurrencyInfo& info(Currency c) {
  for (const auto& i : currency_table) {
    if (i.currency == c) return i;
  }
  throw std::logic_error("capplan: unknown Currency enumerator");
}

inline std::string_view code(Currency c) { return info(c).code; }

// "usd", "USD", "Cny" -> Currency; throws InputError naming the field and the code.
inline Currency parse_currency(std::string_view text, std::string_view field = "currency") {
  std::string up = detail::upper_ascii(text);
  if (up == "RMB") up = "CNY";
  for (const auto& i : currency_table) {
    if (i.code == up) return i.currency;
  }
  detail::fail(field, "\"" + std::string(text) + "\"", "is not a known currency code (USD, EUR, CNY, GBP, JPY)");
}

}  // namespace capplan
