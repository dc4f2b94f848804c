// Money: exact decimal arithmetic, currencies, rates, rounding, printing and parsing.
#include <capplan/capplan.hpp>

#include <doctest/doctest.h>

using namespace capplan;
using namespace capplan::literals;

// The money rules as generic code sees them: every money case under tests/compile_fail/ (and its
// compiling twin) asked of `requires`. As in units_test.cpp, the checks sit in a template whose
// parameters are named after the types they stand for, because g++ makes an invalid requirement
// `false` only when it depends on a template parameter.
template <class Money, class MoneyRate, class EnergyPrice, class Decimal, class Duration, class Energy>
constexpr bool money_rules_are_visible_to_requires() {
  // money_times_double; its twin multiplies by a Decimal, and an integer is exact too.
  static_assert(!requires (Money m, double k) { m * k; });
  static_assert(!requires (Money m, double k) { k * m; });
  static_assert(!requires (Money m, float k) { m * k; });
  static_assert(requires (Money m, Decimal k) { { m * k } -> std::same_as<Money>; });
  static_assert(requires (Money m, int k) { { m * k } -> std::same_as<Money>; { k * m } -> std::same_as<Money>; });
  // money_plus_money_rate; its twin turns the rate into Money first.
  static_assert(!requires (Money m, MoneyRate r) { m + r; });
  static_assert(!requires (Money m, MoneyRate r) { m - r; });
  static_assert(requires (Money m, MoneyRate r, Duration t) { { m + r * t } -> std::same_as<Money>; });
  // money_rate_times_energy; its twin multiplies by a Duration. Each price takes only its quantity.
  static_assert(!requires (MoneyRate r, Energy e) { r * e; });
  static_assert(requires (MoneyRate r, Duration t) { { r * t } -> std::same_as<Money>; });
  static_assert(!requires (EnergyPrice p, Duration t) { p * t; });
  static_assert(requires (EnergyPrice p, Energy e) { { p * e } -> std::same_as<Money>; });
  static_assert(!requires (Money m, Duration t) { m * t; });
  // money_from_double and decimal_from_double; their twins read the digits from text.
  static_assert(!requires (double x) { Money(x, Currency::USD); });
  static_assert(requires { Money("2.49", Currency::USD); });
  static_assert(!requires (double x) { { x } -> std::convertible_to<Decimal>; });
  static_assert(!requires (double x) { Decimal(x); });
  static_assert(requires { Decimal("0.1"); });
  return true;
}
static_assert(money_rules_are_visible_to_requires<Money, MoneyRate, EnergyPrice, Decimal, Duration, Energy>());

TEST_SUITE("money") {
  TEST_CASE("golden: 8,760 x $0.10 is exactly $876.00") {
    // reference-cases.md §5: binary double gives 876.0000000001306.
    Money sum;
    for (int i = 0; i < 8760; ++i) sum += 0.10_USD;
    CHECK(sum == 876_USD);
    CHECK(format(sum) == "$876.00");
    CHECK((0.10_USD / 1_h) * 1_year == 876_USD);
    double d = 0;
    for (int i = 0; i < 8760; ++i) d += 0.10;
    CHECK(d != 876.0);  // what capplan avoids
  }

  TEST_CASE("golden: 1,000,000 x $0.01 is exactly $10,000.00") {
    Money sum;
    for (int i = 0; i < 1000000; ++i) sum += 0.01_USD;
    CHECK(sum == 10000_USD);
    CHECK(0.01_USD * 1000000 == 10000_USD);
    CHECK(format(sum) == "$10,000.00");
  }

  TEST_CASE("golden: 450 W x 0.15 x 8,760 h = 591.3 kWh x $0.12/kWh = $70.96") {
    // Dettmers, "Which GPU(s) to Get for Deep Learning": desktop electricity per year.
    Energy e = 450_W * 0.15 * 1_year;
    EnergyPrice price = 0.12_USD / 1_kWh;
    Money cost = price * e;
    CHECK(cost.amount() == Decimal("70.956"));  // exact before rounding
    CHECK(cost.rounded() == 70.96_USD);
    CHECK(format(cost) == "$70.96");
  }

  TEST_CASE("rate x duration is exact; the duration enters at 15 significant digits") {
    MoneyRate cloud = 2.14_USD / 1_h;
    CHECK(format(cloud) == "$2.14/h");
    Money m = cloud * (0.15 * 1_year);  // 1,314 h
    CHECK(m == Money("2811.96", Currency::USD));
    CHECK(m / cloud.amount() == Money("1314", Currency::USD));
  }

  TEST_CASE("half-even rounding by default, other modes when asked") {
    CHECK(Money("2.345", Currency::USD).rounded() == 2.34_USD);
    CHECK(Money("2.355", Currency::USD).rounded() == 2.36_USD);
    CHECK(Money("-2.345", Currency::USD).rounded() == -2.34_USD);
    CHECK(Money("2.345", Currency::USD).rounded(RoundingMode::half_up) == 2.35_USD);
    CHECK(Money("2.349", Currency::USD).rounded(RoundingMode::down) == 2.34_USD);
    CHECK(Money("-2.341", Currency::USD).rounded(RoundingMode::floor) == -2.35_USD);
    CHECK(Money("2.341", Currency::USD).rounded(RoundingMode::ceiling) == 2.35_USD);
    CHECK(Money("3500.4", Currency::JPY).rounded() == Money(3500, Currency::JPY));
    CHECK((Decimal(1) / Decimal(3)).to_string() == "0.333333333333");
  }

  TEST_CASE("construction: string, minor units, rational; never a double") {
    CHECK(Money::from_minor(123456, Currency::USD) == Money("1234.56", Currency::USD));
    CHECK(Money(Decimal::from_rational(boost::multiprecision::cpp_rational(1, 8)), Currency::EUR) ==
          Money("0.125", Currency::EUR));
    CHECK_THROWS_AS(Decimal::from_rational(boost::multiprecision::cpp_rational(1, 3)), InputError);
    CHECK(Decimal::from_rational_rounded(boost::multiprecision::cpp_rational(2, 3)).to_string() == "0.666666666667");
    CHECK_THROWS_AS(Decimal("1.0000000000001"), ParseError);
    CHECK(Decimal::from_double(0.15 * 8760) == Decimal(1314));
  }

  TEST_CASE("currencies do not mix without a dated exchange rate") {
    CHECK_THROWS_AS(1_USD + 1_CNY, CurrencyError);
    CHECK_THROWS_WITH(1_USD + 1_CNY,
                      "currency: cannot combine USD + CNY without an exchange rate; convert one side with "
                      "capplan::convert(amount, ExchangeRate)");
    ExchangeRate cny_usd(Currency::CNY, Currency::USD, Decimal("0.1405"), "2026-11-01", "example");
    CHECK(convert(2000_CNY, cny_usd) == 281_USD);
    CHECK(convert(281_USD, cny_usd.inverse()).rounded() == 2000_CNY);
    CHECK_THROWS_AS(convert(1_EUR, cny_usd), CurrencyError);
    CHECK_THROWS_AS(ExchangeRate(Currency::USD, Currency::EUR, Decimal(0), "2026-11-01"), InputError);
    CHECK_THROWS_AS(ExchangeRate(Currency::USD, Currency::EUR, Decimal(1), ""), InputError);
    CHECK(parse_currency("cny") == Currency::CNY);
    CHECK(parse_currency("RMB") == Currency::CNY);
    CHECK_THROWS_WITH(parse_currency("XYZ"), "currency: \"XYZ\" is not a known currency code (USD, EUR, CNY, GBP, JPY)");
  }

  TEST_CASE("parse and format round-trip") {
    CHECK(parse_money("$1,234.56") == Money("1234.56", Currency::USD));
    CHECK(parse_money("¥3,500") == 3500_CNY);
    CHECK(parse_money("1234.56 USD") == Money("1234.56", Currency::USD));
    CHECK(parse_money("EUR 12") == 12_EUR);
    CHECK(parse_money("-$5.10") == -5.10_USD);
    CHECK(format(Money("1234.56", Currency::USD)) == "$1,234.56");
    CHECK(format(Money("1234.56", Currency::USD), {.style = MoneyStyle::code}) == "1234.56 USD");
    CHECK(format(3500_CNY, {.decimals = 0}) == "¥3,500");
    CHECK(parse_money_rate("2.49 USD/h") == 2.49_USD / 1_h);
    CHECK(format(parse_money_rate("2.49 USD/h"), {.style = MoneyStyle::code}) == "2.49 USD/h");
    CHECK(parse_money_rate("$98.32/hour") == 98.32_USD / 1_h);
    CHECK(parse_money_rate("2000 CNY/month").amount() == Decimal("2.739726027397"));
    CHECK(parse_energy_price("0.12 USD/kWh") == 0.12_USD / 1_kWh);
    for (const char* s : {"$0.01", "$1,000,000.00", "-$3.25", "€7.50", "¥2,000.00"}) {
      CHECK(format(parse_money(s)) == s);
    }
    CHECK(to_json_string(Money("70.956", Currency::USD)) == "70.956");
  }

  TEST_CASE("a comma that does not group thousands is refused, not dropped (a decimal comma would read 100 x)") {
    CHECK(parse_money("€1,234,567.50") == Money("1234567.50", Currency::EUR));
    CHECK(parse_money("1_000 USD") == 1000_USD);
    for (const char* s : {"12,50 EUR", "$1,2", "1.234,56 EUR", "$1,,234", "$,123", "$1,234,", "$12,3456", "$1,000_000"}) {
      CAPTURE(s);
      const std::string head = std::string("price: \"") + s + "\"";
      CHECK_THROWS_WITH_AS(parse_money(s, "price"), doctest::Contains(head.c_str()), ParseError);
    }
    CHECK_THROWS_WITH(parse_money("12,50 EUR", "price"), doctest::Contains("does not separate thousands (write 1,234,567.5; a decimal comma is not read)"));
    CHECK_THROWS_WITH(parse_money("$1,000_000", "price"), doctest::Contains("mixes ',' and '_'"));
    CHECK_THROWS_AS(parse_money_rate("2,49 USD/h"), ParseError);
  }

  TEST_CASE("bad money input names the field and the value") {
    CHECK_THROWS_WITH(parse_money("", "price"), doctest::Contains("price: \"\" is empty"));
    CHECK_THROWS_WITH(parse_money("12"), doctest::Contains("has no currency"));
    CHECK_THROWS_WITH(parse_money("5 XYZ"), doctest::Contains("unknown currency \"XYZ\""));
    CHECK_THROWS_WITH(parse_money("1.2.3 USD"), doctest::Contains("is not an amount of money"));
    CHECK_THROWS_WITH(parse_money("$2/h"), doctest::Contains("is a rate, not an amount"));
    CHECK_THROWS_WITH(parse_money_rate("$2/fortnight"), doctest::Contains("unknown period \"fortnight\""));
    CHECK_THROWS_WITH(parse_energy_price("$2/h"), doctest::Contains("is not a price per energy"));
    CHECK_THROWS_AS(Decimal(1) / Decimal(0), InputError);
    CHECK_THROWS_AS(Money("1e26", Currency::USD) * 10, std::overflow_error);
    CHECK_THROWS_AS(Decimal("1e27"), ParseError);
    CHECK_THROWS_AS((2.14_USD / 1_h) * Duration::from_value(std::nan("")), InputError);
    CHECK_THROWS_AS((2.14_USD / 1_h) * Duration::from_value(-1.0), InputError);
  }
}
