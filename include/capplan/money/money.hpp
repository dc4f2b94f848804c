// Exact money: Money, MoneyRate (money per hour) and EnergyPrice (money per kWh).
//
// All three are BasicMoney<Dimension>, where Dimension is the Boost.Units dimension of the
// amount (currency; currency / time; currency / energy), so the kinds are distinct types and
// only meaningful mixes compile:
//   MoneyRate * Duration -> Money        EnergyPrice * Energy -> Money
//   Money / Duration     -> MoneyRate    Money / Energy       -> EnergyPrice
//   Money +/- Money (same currency)      Money * integer or Decimal
// The amount is a Decimal (exact fixed point), stored per hour for a MoneyRate and per kWh for
// an EnergyPrice, the units prices are quoted in, so "$2.14/h" is stored exactly.
//
// Rounding (documented in docs/money.md): a Duration or Energy is a measured double; it enters
// money arithmetic as its value in hours (or kWh) rounded to 15 significant digits, what a
// double guarantees (0.15 * 8,760 h -> exactly 1,314 h). The product is then exact; amounts
// are rounded to minor units (cents) only when asked, half-to-even by default.
#pragma once

#include "capplan/date.hpp"
#include "capplan/money/currency.hpp"
#include "capplan/money/decimal.hpp"
#include "capplan/units/literals.hpp"

#include <boost/units/derived_dimension.hpp>
#include <boost/units/physical_dimensions/length.hpp>
#include <boost/units/physical_dimensions/mass.hpp>

namespace capplan {

namespace detail {
namespace bu = boost::units;
using money_dimension = units::currency_dimension;
using money_rate_dimension =
    bu::derived_dimension<units::currency_base_dimension, 1, bu::time_base_dimension, -1>::type;
using energy_price_dimension =
    bu::derived_dimension<units::currency_base_dimension, 1, bu::length_base_dimension, -2, bu::mass_base_dimension, -1,
                          bu::time_base_dimension, 2>::type;

// Per-kind facts: the unit the amount is stored in, and its printed suffix.
template <class Dim>
struct kind;
template <>
struct kind<money_dimension> {
  static constexpr const char* name = "Money";
  static constexpr const char* suffix = "";
};
template <>
struct kind<money_rate_dimension> {
  static constexpr const char* name = "MoneyRate";
  static constexpr const char* suffix = "/h";
};
template <>
struct kind<energy_price_dimension> {
  static constexpr const char* name = "EnergyPrice";
  static constexpr const char* suffix = "/kWh";
};
}  // namespace detail

template <class Dim>
class BasicMoney {
 public:
  using dimension = Dim;

  BasicMoney() = default;
  BasicMoney(Decimal amount, Currency currency) : amount_(amount), currency_(currency) {}
  // From exact decimal text: Money("2.49", Currency::USD).
  BasicMoney(std::string_view amount, Currency currency) : amount_(Decimal::parse(amount, "amount")), currency_(currency) {}
  BasicMoney(const char* amount, Currency currency) : BasicMoney(std::string_view(amount), currency) {}
  template <class Int>
    requires std::is_integral_v<Int>
  BasicMoney(Int amount, Currency currency) : amount_(amount), currency_(currency) {}
  // Never from a double: see Decimal. The comment is on the line g++ quotes under "declared here".
  template <class F>
    requires std::is_floating_point_v<F>
  BasicMoney(F, Currency) = delete;  // capplan: money from a double would not be exact; write the amount as text (Money("2.49", Currency::USD)) or as a literal (2.49_USD).

  // From an integer count of minor units: from_minor(123456, USD) == $1,234.56.
  static BasicMoney from_minor(long long minor_units, Currency currency) {
    Decimal d(minor_units);
    for (int i = 0; i < info(currency).minor_digits; ++i) d = d / Decimal(10);
    return BasicMoney(d, currency);
  }

  [[nodiscard]] const Decimal& amount() const noexcept { return amount_; }
  [[nodiscard]] Currency currency() const noexcept { return currency_; }
  [[nodiscard]] bool is_negative() const noexcept { return amount_.is_negative(); }
  [[nodiscard]] bool is_zero() const noexcept { return amount_.is_zero(); }

  // Rounded to the currency's minor unit (cents), half-to-even unless told otherwise.
  [[nodiscard]] BasicMoney rounded(RoundingMode mode = RoundingMode::half_even) const {
    return BasicMoney(amount_.round(info(currency_).minor_digits, mode), currency_);
  }
  [[nodiscard]] BasicMoney rounded_to(int decimals, RoundingMode mode = RoundingMode::half_even) const {
    return BasicMoney(amount_.round(decimals, mode), currency_);
  }

  BasicMoney operator-() const { return BasicMoney(-amount_, currency_); }
  BasicMoney& operator+=(const BasicMoney& o) {
    check_same(o, "+");
    amount_ += o.amount_;
    return *this;
  }
  BasicMoney& operator-=(const BasicMoney& o) {
    check_same(o, "-");
    amount_ -= o.amount_;
    return *this;
  }
  friend BasicMoney operator+(BasicMoney a, const BasicMoney& b) { return a += b; }
  friend BasicMoney operator-(BasicMoney a, const BasicMoney& b) { return a -= b; }
  friend BasicMoney operator*(const BasicMoney& a, const Decimal& k) { return BasicMoney(a.amount_ * k, a.currency_); }
  friend BasicMoney operator*(const Decimal& k, const BasicMoney& a) { return a * k; }
  template <class Int>
    requires std::is_integral_v<Int>
  friend BasicMoney operator*(const BasicMoney& a, Int k) {
    return BasicMoney(a.amount_ * k, a.currency_);
  }
  template <class Int>
    requires std::is_integral_v<Int>
  friend BasicMoney operator*(Int k, const BasicMoney& a) {
    return a * k;
  }
  friend BasicMoney operator/(const BasicMoney& a, const Decimal& k) { return BasicMoney(a.amount_ / k, a.currency_); }
  // The ratio of two amounts of the same kind and currency.
  friend Decimal operator/(const BasicMoney& a, const BasicMoney& b) {
    a.check_same(b, "/");
    return a.amount_ / b.amount_;
  }

  friend bool operator==(const BasicMoney& a, const BasicMoney& b) {
    return a.currency_ == b.currency_ && a.amount_ == b.amount_;
  }
  friend std::strong_ordering operator<=>(const BasicMoney& a, const BasicMoney& b) {
    a.check_same(b, "<=>");
    return a.amount_ <=> b.amount_;
  }

 private:
  void check_same(const BasicMoney& o, const char* op) const {
    if (currency_ != o.currency_) {
      std::string v = std::string(code(currency_)) + " " + op + " " + std::string(code(o.currency_));
      throw CurrencyError("currency", v,
                          "currency: cannot combine " + v +
                              " without an exchange rate; convert one side with capplan::convert(amount, ExchangeRate)");
    }
  }

  Decimal amount_{};
  Currency currency_ = Currency::USD;
};

using Money = BasicMoney<detail::money_dimension>;              // an amount
using MoneyRate = BasicMoney<detail::money_rate_dimension>;     // an amount per hour
using EnergyPrice = BasicMoney<detail::energy_price_dimension>; // an amount per kWh

// A measured quantity's value in the unit money is quoted per (h, kWh), as an exact decimal.
inline Decimal hours_of(const Duration& d) {
  require_nonnegative(d.value(), "duration");
  return Decimal::from_double(d.value() / scale::hour, 15, "duration");
}
inline Decimal kwh_of(const Energy& e) {
  require_nonnegative(e.value(), "energy");
  return Decimal::from_double(e.value() / (scale::kilo * scale::watt_hour), 15, "energy");
}

// The meaningful mixes.
inline Money operator*(const MoneyRate& r, const Duration& d) { return Money(r.amount() * hours_of(d), r.currency()); }
inline Money operator*(const Duration& d, const MoneyRate& r) { return r * d; }
inline Money operator*(const EnergyPrice& p, const Energy& e) { return Money(p.amount() * kwh_of(e), p.currency()); }
inline Money operator*(const Energy& e, const EnergyPrice& p) { return p * e; }
inline MoneyRate operator/(const Money& m, const Duration& d) {
  return MoneyRate(m.amount() / hours_of(d), m.currency());
}
inline EnergyPrice operator/(const Money& m, const Energy& e) {
  return EnergyPrice(m.amount() / kwh_of(e), m.currency());
}

// Readable refusals for the mixes that make no sense. As in capplan/units/guards.hpp (which says
// why), each is a deleted overload, so `requires` and concepts see the refusal; its return type
// names the mistake and the line naming the operator, quoted under "note: declared here", says
// what to do instead.
namespace money_guard {
struct cannot_add_different_kinds_of_money {};
struct cannot_subtract_different_kinds_of_money {};
struct money_times_a_double_would_not_be_exact {};
struct a_money_rate_multiplies_only_a_duration {};
struct an_energy_price_multiplies_only_an_energy {};
struct money_times_a_physical_quantity_has_no_meaning {};
}  // namespace money_guard

template <class D1, class D2>
  requires(!std::is_same_v<D1, D2>)
money_guard::cannot_add_different_kinds_of_money
operator+(  // capplan: cannot add different kinds of money (e.g. Money + MoneyRate). Multiply a MoneyRate by a Duration (or an EnergyPrice by an Energy) to get Money first.
    const BasicMoney<D1>&, const BasicMoney<D2>&) = delete;
template <class D1, class D2>
  requires(!std::is_same_v<D1, D2>)
money_guard::cannot_subtract_different_kinds_of_money
operator-(  // capplan: cannot subtract different kinds of money (e.g. Money - MoneyRate).
    const BasicMoney<D1>&, const BasicMoney<D2>&) = delete;
template <class D, class F>
  requires std::is_floating_point_v<F>
money_guard::money_times_a_double_would_not_be_exact
operator*(  // capplan: money times a double would not be exact. Multiply by an integer or a capplan::Decimal (Decimal("0.15"), or Decimal::from_double(x) for a measured ratio).
    const BasicMoney<D>&, F) = delete;
template <class D, class F>
  requires std::is_floating_point_v<F>
money_guard::money_times_a_double_would_not_be_exact
operator*(  // capplan: money times a double would not be exact. Multiply by an integer or a capplan::Decimal (Decimal("0.15"), or Decimal::from_double(x) for a measured ratio).
    F, const BasicMoney<D>&) = delete;
template <class Unit>
money_guard::a_money_rate_multiplies_only_a_duration
operator*(  // capplan: a MoneyRate is money per hour; multiply it by a Duration (e.g. 2.49_USD / 1_h * 30_days).
    const MoneyRate&, const boost::units::quantity<Unit>&) = delete;
template <class Unit>
money_guard::an_energy_price_multiplies_only_an_energy
operator*(  // capplan: an EnergyPrice is money per kWh; multiply it by an Energy (e.g. Power * Duration).
    const EnergyPrice&, const boost::units::quantity<Unit>&) = delete;
template <class Unit>
money_guard::money_times_a_physical_quantity_has_no_meaning
operator*(  // capplan: Money times a physical quantity has no meaning here; divide Money by a Duration to get a MoneyRate, or by an Energy to get an EnergyPrice.
    const Money&, const boost::units::quantity<Unit>&) = delete;

// A dated exchange rate: 1 `from` = `rate` `to`. The only way money changes currency.
struct ExchangeRate {
  Currency from;
  Currency to;
  Decimal rate;        // units of `to` per unit of `from`
  std::string as_of;   // date the rate was observed, e.g. "2026-11-01"
  std::string source;  // where it came from

  ExchangeRate(Currency f, Currency t, Decimal r, std::string date, std::string src = {})
      : from(f), to(t), rate(r), as_of(std::move(date)), source(std::move(src)) {
    if (!(rate > Decimal(0))) detail::fail("exchange_rate", rate.to_string(), "must be > 0");
    if (from == to && rate != Decimal(1)) {
      detail::fail("exchange_rate", rate.to_string(), "converts " + std::string(code(from)) + " to itself; the rate can only be 1");
    }
    if (as_of.empty()) detail::fail("exchange_rate.as_of", "\"\"", "must name the date the rate was observed");
    parse_iso_date(as_of, "exchange_rate.as_of");
  }
  [[nodiscard]] ExchangeRate inverse() const { return ExchangeRate(to, from, Decimal(1) / rate, as_of, source); }
};

template <class D>
BasicMoney<D> convert(const BasicMoney<D>& m, const ExchangeRate& fx) {
  if (m.currency() == fx.to) return m;
  if (m.currency() != fx.from) {
    std::string v = std::string(code(m.currency())) + " with a " + std::string(code(fx.from)) + "->" +
                    std::string(code(fx.to)) + " rate";
    throw CurrencyError("currency", v, "currency: cannot convert " + v);
  }
  return BasicMoney<D>(m.amount() * fx.rate, fx.to);
}

namespace literals {
// Money literals read the digits as written, never through a double: 2.49_USD is exactly 2.49.
inline Money operator""_USD(const char* digits) { return Money(Decimal::parse(digits, "literal"), Currency::USD); }
inline Money operator""_EUR(const char* digits) { return Money(Decimal::parse(digits, "literal"), Currency::EUR); }
inline Money operator""_CNY(const char* digits) { return Money(Decimal::parse(digits, "literal"), Currency::CNY); }
inline Money operator""_GBP(const char* digits) { return Money(Decimal::parse(digits, "literal"), Currency::GBP); }
}  // namespace literals

}  // namespace capplan
