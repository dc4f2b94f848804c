// What owned hardware is worth after m months: straight-line or declining-balance
// depreciation, taken as its resale value.
//
//   Depreciation sl = Depreciation::straight_line(36, 600_USD);      // to $600 over 3 years
//   book_value(2200_USD, sl, 18) == $1,400
//   Depreciation db = Depreciation::declining_balance(Decimal("0.4")); // 40% a year
//   book_value(2200_USD, db, 12) == $1,320
//
// Straight line: V(m) = P − (P − S) × min(m, L) / L.
// Declining balance: V at the end of year y is P × (1 − d)^y, linear between year ends, never
// below the salvage value S. (Both: IRS Publication 946, "How To Depreciate Property", ch. 4,
// and any accounting text; the within-year linear step is capplan's choice, so a month's value
// is exact in Decimal.)
#pragma once

#include "capplan/error.hpp"
#include "capplan/money/money.hpp"

#include <boost/describe/enum.hpp>

#include <optional>
#include <string>

namespace capplan {

enum class DepreciationMethod { none, straight_line, declining_balance };
BOOST_DESCRIBE_ENUM(DepreciationMethod, none, straight_line, declining_balance)

struct Depreciation {
  DepreciationMethod method = DepreciationMethod::none;  // none: no resale value is counted
  int life_months = 0;                                    // straight line
  std::optional<Money> salvage{};                           // value at end of life / floor
  Decimal annual_rate{};                                  // declining balance, (0, 1)
  Decimal resale_fraction{1};                             // share of book value a buyer pays, (0, 1]

  static Depreciation straight_line(int life_months, Money salvage) {
    return Depreciation{DepreciationMethod::straight_line, life_months, salvage, Decimal(0), Decimal(1)};
  }
  static Depreciation declining_balance(Decimal annual_rate, std::optional<Money> floor = std::nullopt) {
    return Depreciation{DepreciationMethod::declining_balance, 0, floor, annual_rate, Decimal(1)};
  }

  void validate(const Money& purchase) const {
    if (method == DepreciationMethod::straight_line) {
      if (life_months < 1) detail::fail("depreciation.life_months", std::to_string(life_months), "must be at least 1");
    }
    if (method == DepreciationMethod::declining_balance) {
      if (!(annual_rate > Decimal(0)) || !(annual_rate < Decimal(1))) {
        detail::fail("depreciation.annual_rate", annual_rate.to_string(), "is outside (0, 1); write 0.4 for 40% a year");
      }
    }
    if (!(resale_fraction > Decimal(0)) || resale_fraction > Decimal(1)) {
      detail::fail("depreciation.resale_fraction", resale_fraction.to_string(), "is outside (0, 1]");
    }
    if (salvage) {
      if (salvage->currency() != purchase.currency()) {
        std::string v = std::string(code(salvage->currency())) + " vs " + std::string(code(purchase.currency()));
        throw CurrencyError("depreciation.salvage", v, "depreciation.salvage: currency " + v + " differs from the purchase");
      }
      if (salvage->is_negative()) detail::fail("depreciation.salvage", salvage->amount().to_string(), "is negative");
      if (*salvage > purchase) {
        detail::fail("depreciation.salvage", salvage->amount().to_string(), "is above the purchase price");
      }
    }
  }
};

// What a buyer pays after `month` months: book value × resale_fraction (a used-market discount;
// 1 sells at book value).
inline Money resale_value(const Money& purchase, const Depreciation& d, int month);

// Book value after `month` months; zero for DepreciationMethod::none.
inline Money book_value(const Money& purchase, const Depreciation& d, int month) {
  if (month < 0) detail::fail("month", std::to_string(month), "must be >= 0");
  d.validate(purchase);
  const Money floor = d.salvage.value_or(Money(0, purchase.currency()));
  switch (d.method) {
    case DepreciationMethod::none: return Money(0, purchase.currency());
    case DepreciationMethod::straight_line: {
      const int m = month < d.life_months ? month : d.life_months;
      return purchase - (purchase - floor) * Decimal(m) / Decimal(d.life_months);  // P − (P − S) m / L
    }
    case DepreciationMethod::declining_balance: {
      const Decimal keep = Decimal(1) - d.annual_rate;
      Money start = purchase;
      for (int y = 0; y < month / 12; ++y) start = start * keep;  // P (1 − d)^y
      const Money end = start * keep;
      const int within = month % 12;
      Money v = start - (start - end) * Decimal(within) / Decimal(12);  // linear within the year
      return v < floor ? floor : v;
    }
  }
  return Money(0, purchase.currency());
}

inline Money resale_value(const Money& purchase, const Depreciation& d, int month) {
  return book_value(purchase, d, month) * d.resale_fraction;
}

}  // namespace capplan
