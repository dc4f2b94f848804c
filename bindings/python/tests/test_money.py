"""Money: exact decimal amounts, currencies, rates, rounding, printing and parsing.

Golden values are the ones tests/money_test.cpp checks in C++ (parity).
"""

import pickle
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import capplan
from capplan import (
    Currency,
    Duration,
    Energy,
    EnergyPrice,
    ExchangeRate,
    Money,
    MoneyRate,
    MoneyStyle,
    Power,
    RoundingMode,
)


class TestGolden:
    def test_8760_times_ten_cents_is_exactly_876(self):
        # reference-cases.md §5: binary double gives 876.0000000001306.
        total = Money(0, "USD")
        for _ in range(8760):
            total += Money("0.10", "USD")
        assert total == Money(876, "USD")
        assert total.amount == Decimal("876")
        assert str(total) == "$876.00"
        assert MoneyRate("0.10", "USD") * Duration(1, "year") == Money(876, "USD")
        assert sum([0.10] * 8760) != 876.0  # what capplan avoids

    def test_dettmers_desktop_electricity(self):
        # Dettmers: 450 W x 0.15 x 8,760 h = 591.3 kWh x $0.12/kWh = $70.96.
        energy = Power(450, "W") * 0.15 * Duration(1, "year")
        cost = EnergyPrice("0.12", "USD") * energy
        assert isinstance(cost, Money)
        assert cost.amount == Decimal("70.956")  # exact before rounding
        assert cost.rounded() == Money("70.96", "USD")
        assert str(cost) == "$70.96"
        assert energy * EnergyPrice("0.12 USD/kWh") == cost

    def test_rate_times_duration(self):
        cloud = MoneyRate("2.14 USD/h")
        assert str(cloud) == "$2.14/h"
        m = cloud * (0.15 * Duration(1, "year"))  # 1,314 h
        assert m == Money("2811.96", "USD")
        assert m / cloud.amount == Money(1314, "USD")
        assert Money(876, "USD") / Duration(1, "year") == MoneyRate("0.1", "USD")
        assert Money("70.956", "USD") / Energy(591.3, "kWh") == EnergyPrice("0.12", "USD")


class TestConstruction:
    def test_from_text_int_decimal_fraction(self):
        assert Money("1234.56", "USD") == Money(Decimal("1234.56"), Currency.USD)
        assert Money("$1,234.56") == Money("1234.56", "USD")
        assert Money(Fraction(1, 8), "EUR") == Money("0.125", "EUR")
        assert Money(5) == Money("5", "USD")  # a number without a currency is USD
        assert Money.from_minor(123456, "USD") == Money("1234.56", "USD")
        assert Money(3500, "cny").currency == Currency.CNY
        assert Money(3500, "RMB").currency == Currency.CNY

    def test_amount_is_an_exact_decimal(self):
        m = Money("0.1", "USD") + Money("0.2", "USD")
        assert isinstance(m.amount, Decimal)
        assert m.amount == Decimal("0.3")
        assert Money("123456789012345.123456789012", "USD").amount == Decimal("123456789012345.123456789012")

    def test_float_is_refused(self):
        with pytest.raises(TypeError, match="is a float; capplan money is exact"):
            Money(0.1, "USD")
        with pytest.raises(TypeError, match="money times a float would not be exact"):
            Money(1, "USD") * 0.5
        with pytest.raises(TypeError, match="money times a float would not be exact"):
            0.5 * Money(1, "USD")
        with pytest.raises(TypeError, match="is a float"):
            ExchangeRate("USD", "EUR", 0.9, "2026-11-01")

    def test_repr_and_pickle_round_trip(self):
        for m in [Money("1234.56", "USD"), MoneyRate("2.49", "EUR"), EnergyPrice("0.12", "CNY"), -Money(3, "JPY")]:
            assert eval(repr(m), vars(capplan)) == m
            assert pickle.loads(pickle.dumps(m)) == m

    def test_currency_facts(self):
        assert Currency.USD.code == "USD"
        assert Currency.CNY.symbol == "¥"
        assert Currency.JPY.minor_digits == 0
        assert capplan.parse_currency("cny") == Currency.CNY


class TestArithmetic:
    def test_exact_scalars(self):
        assert Money("0.01", "USD") * 1000000 == Money(10000, "USD")
        assert Money(10, "USD") * Decimal("0.15") == Money("1.5", "USD")
        assert Fraction(3, 20) * Money(10, "USD") == Money("1.5", "USD")
        assert Money(10, "USD") / 4 == Money("2.5", "USD")
        assert Money(1, "USD") / Money(3, "USD") == Decimal("0.333333333333")

    def test_measured_floats_enter_through_decimal_from_double(self):
        # capplan::Decimal::from_double: 15 significant digits, what a double guarantees.
        assert capplan.decimal_from_double(0.15 * 8760) == Decimal(1314)
        assert Money(10, "USD") * capplan.decimal_from_double(0.1 + 0.2) == Money(3, "USD")
        assert capplan.decimal_from_double(2 / 3, 4) == Decimal("0.6667")
        with pytest.raises(ValueError, match="utilization: NaN is not a number"):
            capplan.decimal_from_double(float("nan"), field="utilization")
        with pytest.raises(ValueError, match="significant: 18 must be in"):
            capplan.decimal_from_double(1.0, 18)

    def test_rounding(self):
        assert Money("2.345", "USD").rounded() == Money("2.34", "USD")
        assert Money("2.355", "USD").rounded() == Money("2.36", "USD")
        assert Money("-2.345", "USD").rounded() == Money("-2.34", "USD")
        assert Money("2.345", "USD").rounded(RoundingMode.half_up) == Money("2.35", "USD")
        assert Money("2.349", "USD").rounded(RoundingMode.down) == Money("2.34", "USD")
        assert Money("-2.341", "USD").rounded(RoundingMode.floor) == Money("-2.35", "USD")
        assert Money("2.341", "USD").rounded(RoundingMode.ceiling) == Money("2.35", "USD")
        assert Money("3500.4", "JPY").rounded() == Money(3500, "JPY")
        assert Money("2.3456", "USD").rounded_to(3) == Money("2.346", "USD")

    def test_comparisons(self):
        assert Money(1, "USD") < Money(2, "USD")
        assert Money(1, "USD") != Money(1, "EUR")  # equality across currencies is False, as in C++
        assert len({Money("1.50", "USD"), Money("1.5", "USD")}) == 1

    @pytest.mark.parametrize(
        "make, message",
        [
            (lambda: Money(1, "USD") + MoneyRate(1, "USD"), "Money + MoneyRate: cannot add different kinds of money"),
            (lambda: MoneyRate(1, "USD") * Power(1, "W"), "a MoneyRate is money per hour; multiply it by a Duration"),
            (lambda: EnergyPrice(1, "USD") * Duration(1, "h"), "an EnergyPrice is money per kWh"),
            (lambda: Money(1, "USD") * Duration(1, "h"), "Money times a physical quantity has no meaning here"),
            (lambda: Money(1, "USD") + 1, "cannot add a plain number to money"),
            (lambda: Money(1, "USD") + Duration(1, "h"), "cannot add money and a physical quantity"),
            (lambda: 1 / Money(1, "USD"), "a number divided by money has no meaning"),
            (lambda: Money(1, "USD") < MoneyRate(1, "USD"), "cannot compare Money with MoneyRate"),
            (lambda: Money(1, "USD") < 1, "cannot compare Money with a plain number"),
        ],
    )
    def test_mixes_that_do_not_compile_in_cpp(self, make, message):
        with pytest.raises(TypeError) as info:
            make()
        assert message in str(info.value)

    def test_sum_needs_a_start(self):
        amounts = [Money("0.10", "USD")] * 3
        with pytest.raises(TypeError, match=r"sum\(amounts, Money\(0, 'USD'\)\)"):
            sum(amounts)
        assert sum(amounts, Money(0, "USD")) == Money("0.30", "USD")

    def test_currencies_do_not_mix(self):
        with pytest.raises(capplan.CurrencyError) as info:
            Money(1, "USD") + Money(1, "CNY")
        assert str(info.value) == ("currency: cannot combine USD + CNY without an exchange rate; convert one side "
                                   "with capplan::convert(amount, ExchangeRate)")
        assert isinstance(info.value, ValueError)
        assert info.value.field == "currency"
        assert info.value.value == "USD + CNY"
        with pytest.raises(ValueError, match="cannot combine USD <=> EUR"):
            Money(1, "USD") < Money(1, "EUR")

    def test_exchange_rates(self):
        cny_usd = ExchangeRate("CNY", "USD", "0.1405", "2026-11-01", "example")
        assert capplan.convert(Money(2000, "CNY"), cny_usd) == Money(281, "USD")
        assert capplan.convert(Money(281, "USD"), cny_usd.inverse()).rounded() == Money(2000, "CNY")
        assert cny_usd.rate == Decimal("0.1405")
        assert cny_usd.from_ == Currency.CNY and cny_usd.to == Currency.USD
        with pytest.raises(capplan.CurrencyError):
            capplan.convert(Money(1, "EUR"), cny_usd)
        with pytest.raises(ValueError, match="exchange_rate: 0 must be > 0"):
            ExchangeRate("USD", "EUR", 0, "2026-11-01")
        with pytest.raises(ValueError, match="must name the date"):
            ExchangeRate("USD", "EUR", 1, "")


class TestFormatAndParse:
    def test_parse_and_format(self):
        assert capplan.parse_money("$1,234.56") == Money("1234.56", "USD")
        assert capplan.parse_money("¥3,500") == Money(3500, "CNY")
        assert capplan.parse_money("1234.56 USD") == Money("1234.56", "USD")
        assert capplan.parse_money("EUR 12") == Money(12, "EUR")
        assert capplan.parse_money("-$5.10") == -Money("5.10", "USD")
        assert str(Money("1234.56", "USD")) == "$1,234.56"
        assert Money("1234.56", "USD").format(style=MoneyStyle.code) == "1234.56 USD"
        assert Money(3500, "CNY").format(decimals=0) == "¥3,500"
        assert Money("70.956", "USD").format(exact=True) == "$70.956"
        assert MoneyRate("2.49 USD/h") == MoneyRate("2.49", "USD")
        assert MoneyRate("2.49 USD/h").format(style=MoneyStyle.code) == "2.49 USD/h"
        assert MoneyRate("$98.32/hour") == MoneyRate("98.32", "USD")
        assert MoneyRate("2000 CNY/month").amount == Decimal("2.739726027397")
        assert EnergyPrice("0.12 USD/kWh") == EnergyPrice("0.12", "USD")
        assert str(EnergyPrice("0.12 USD/kWh")) == "$0.12/kWh"
        assert Money("70.956", "USD").to_json_string() == "70.956"

    @pytest.mark.parametrize("text", ["$0.01", "$1,000,000.00", "-$3.25", "€7.50", "¥2,000.00"])
    def test_format_round_trips(self, text):
        assert str(capplan.parse_money(text)) == text

    @pytest.mark.parametrize(
        "call, message",
        [
            (lambda: capplan.parse_money("", "price"), 'price: "" is empty'),
            (lambda: Money("12"), "has no currency"),
            (lambda: Money("5 XYZ"), 'unknown currency "XYZ"'),
            (lambda: Money("1.2.3 USD"), "is not an amount of money"),
            (lambda: Money("$2/h"), "is a rate, not an amount"),
            (lambda: MoneyRate("$2/fortnight"), 'unknown period "fortnight"'),
            (lambda: EnergyPrice("$2/h"), "is not a price per energy"),
            (lambda: Money("1.0000000000001", "USD"), "has more than 12 decimal places"),
            (lambda: Money(Fraction(1, 3), "USD"), "amount: 1/3 has no exact decimal form with at most 12 places"),
            (lambda: Money(Decimal("NaN"), "USD"), "is not finite"),
            (lambda: Money(1, "XYZ"), 'currency: "XYZ" is not a known currency code'),
            (lambda: Money(1, "USD") / 0, "division of a decimal amount by zero"),
            (lambda: MoneyRate("2.14", "USD") * Duration(-1, "h"), "duration: -3600 is negative; it must be >= 0"),
        ],
    )
    def test_bad_input_is_a_value_error_naming_field_and_value(self, call, message):
        with pytest.raises(ValueError) as info:
            call()
        assert message in str(info.value)

    def test_overflow_is_an_overflow_error(self):
        with pytest.raises(OverflowError):
            Money("1e26", "USD") * 10
        with pytest.raises(ValueError, match="out of the range of exact money"):
            Money("1e27", "USD")


# Amounts with up to 12 decimal places and |x| < 1e13, so that sums of up to 50 stay in range.
exact_amounts = st.decimals(min_value=Decimal("-1e13"), max_value=Decimal("1e13"), places=12,
                            allow_nan=False, allow_infinity=False)


class TestProperties:
    @given(st.lists(exact_amounts, max_size=50))
    def test_sums_are_exact(self, amounts):
        total = Money(0, "USD")
        for a in amounts:
            total += Money(a, "USD")
        assert Fraction(total.amount) == sum((Fraction(a) for a in amounts), Fraction(0))

    @given(exact_amounts, st.integers(min_value=-10**6, max_value=10**6))
    def test_integer_multiples_are_exact(self, a, k):
        assert Fraction((Money(a, "EUR") * k).amount) == Fraction(a) * k

    @given(st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**6))
    def test_fractions_are_exact_or_refused(self, f):
        try:
            m = Money(f, "USD")
        except ValueError as e:
            assert "has no exact decimal form" in str(e)
            assert (f * 10**12).denominator != 1
        else:
            assert Fraction(m.amount) == f

    @given(exact_amounts)
    def test_text_round_trip(self, a):
        m = Money(a, "USD")
        assert Money(m.to_json_string(), "USD") == m
        assert Money(m.amount, "USD") == m

    @given(exact_amounts, exact_amounts)
    def test_rounded_is_within_half_a_cent(self, a, b):
        m = Money(a, "USD") + Money(b, "USD")
        assert abs(Fraction(m.rounded().amount) - Fraction(m.amount)) <= Fraction(1, 200)
