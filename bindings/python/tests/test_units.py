"""Quantities: construction, canonical storage, printing and parsing, and the mixes that compile in C++.

Golden values are the ones tests/units_test.cpp checks in C++ (parity).
"""

import math
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import capplan
from capplan import (
    ArithmeticIntensity,
    Bandwidth,
    CarbonIntensity,
    CarbonMass,
    DataSize,
    Duration,
    Energy,
    FlopCount,
    FlopRate,
    Length,
    Power,
    Prefixes,
)

QUANTITIES = [DataSize, Duration, FlopCount, FlopRate, Bandwidth, Power, Energy, ArithmeticIntensity, CarbonMass,
              CarbonIntensity, Length]


class TestCanonicalStorage:
    def test_decimal_and_binary_bytes_are_distinct_and_exact(self):
        assert DataSize(1, "GiB").value == 1073741824.0  # 2^30
        assert DataSize(1, "GB").value == 1e9
        assert DataSize(1, "TiB").value == 1099511627776.0
        assert DataSize(8, "bit").value == 1.0
        assert DataSize(80, "GB").to("GiB") == pytest.approx(74.50580596923828, rel=1e-15)

    def test_month_is_730_h_and_year_8760_h(self):
        assert Duration(1, "h").value == 3600.0
        assert Duration(1, "month").value == 730.0 * 3600.0
        assert Duration(1, "year").value == 8760.0 * 3600.0
        assert Duration(1, "day").value == 86400.0

    def test_from_value_is_canonical(self):
        assert DataSize.from_value(8e10) == DataSize(80, "GB")
        assert DataSize.canonical_unit == "B"
        assert Duration.canonical_unit == "s"
        assert "GiB" in DataSize.units()
        assert DataSize.role == "data size"


class TestMixes:
    def test_dettmers_desktop_energy(self):
        # Dettmers' desktop: 450 W x 15% x 8,760 h = 591.3 kWh (tests/units_test.cpp).
        e = Power(450, "W") * 0.15 * Duration(1, "year")
        assert isinstance(e, Energy)
        assert e.to("kWh") == pytest.approx(591.3, rel=1e-12)

    def test_gpt3_training_time(self):
        t = FlopCount(3.14e23, "FLOP") / (1024.0 * FlopRate(140, "TFLOP/s"))
        assert isinstance(t, Duration)
        assert t.to("days") == pytest.approx(25.35, rel=1e-3)

    def test_load_time_bandwidth_and_carbon(self):
        load = DataSize(80, "GB") / Bandwidth(3.35, "TB/s")
        assert isinstance(load, Duration)
        assert load.value == pytest.approx(0.023880597)
        c = Energy(1287, "MWh") * CarbonIntensity(0.429, "kgCO2e/kWh")
        assert isinstance(c, CarbonMass)
        assert c.to("tCO2e") == pytest.approx(552.123)
        ridge = FlopRate(989, "TFLOP/s") / Bandwidth(3.35, "TB/s")
        assert isinstance(ridge, ArithmeticIntensity)
        assert ridge.value == pytest.approx(295.22, rel=1e-4)
        assert DataSize(10, "GB") / Duration(2, "s") == Bandwidth(5, "GB/s")

    def test_commuted_products(self):
        assert Duration(2, "h") * Power(1, "kW") == Power(1, "kW") * Duration(2, "h")
        assert CarbonIntensity(0.4, "kgCO2e/kWh") * Energy(1, "MWh") == Energy(1, "MWh") * CarbonIntensity(
            0.4, "kgCO2e/kWh")
        assert Energy(2, "kWh") / Power(1, "kW") == Duration(2, "h")
        assert Energy(2, "kWh") / Duration(2, "h") == Power(1, "kW")

    def test_like_quantities_add_and_ratios_are_floats(self):
        assert DataSize(1, "GB") + DataSize(500, "MB") == DataSize(1.5, "GB")
        assert DataSize(1, "GB") - DataSize(500, "MB") == DataSize(500, "MB")
        ratio = DataSize(1, "GB") / DataSize(1, "MB")
        assert type(ratio) is float and ratio == 1000.0
        assert 2 * Power(350, "W") == Power(700, "W")
        assert Power(700, "W") / 2 == Power(350, "W")
        assert -Power(1, "W") < Power(0, "W")
        assert abs(-Power(1, "W")) == Power(1, "W")

    def test_comparisons_and_hash(self):
        assert DataSize(1, "GiB") > DataSize(1, "GB")
        assert DataSize(1000, "MB") == DataSize(1, "GB")
        assert len({DataSize(1000, "MB"), DataSize(1, "GB")}) == 1
        assert DataSize(1, "GB") != "1 GB"
        assert DataSize(1, "GB") != None  # noqa: E711

    @pytest.mark.parametrize(
        "make, message",
        [
            (lambda: DataSize(1, "GB") + Duration(1, "s"), "DataSize + Duration: cannot add quantities of different"),
            (lambda: Energy(1, "J") - Power(1, "W"), "Energy - Power: cannot subtract quantities of different"),
            (lambda: DataSize(1, "GB") * DataSize(1, "GB"), "DataSize * DataSize: the result has a unit that is not"),
            (lambda: Power(1, "W") / Duration(1, "s"), "Power / Duration: the result has a unit"),
            (lambda: DataSize(1, "GB") + 1, "cannot add a plain number to a quantity"),
            (lambda: 1 + DataSize(1, "GB"), "int + DataSize: cannot add a plain number"),
            (lambda: 1 / Duration(1, "s"), "int / Duration: the result (per s) is not one of capplan's quantities"),
            (lambda: FlopRate(1, "TFLOP/s") < Bandwidth(1, "TB/s"), "cannot compare FlopRate with Bandwidth"),
            (lambda: FlopRate(1, "TFLOP/s") == Bandwidth(1, "TB/s"), "cannot compare FlopRate with Bandwidth"),
            (lambda: DataSize(1, "GB") < 5, "cannot compare DataSize with a plain number"),
            (lambda: DataSize(80), "DataSize(80) needs a unit, e.g. DataSize(80, 'GB')"),
            (lambda: DataSize("80", "GB"), "give either one string or a number and a unit, not both"),
            (lambda: DataSize([80], "GB"), "expected a number and a unit"),
        ],
    )
    def test_mixes_that_do_not_compile_in_cpp_raise_type_error(self, make, message):
        with pytest.raises(TypeError, match=None) as info:
            make()
        assert message in str(info.value)

    def test_sum_needs_a_start(self):
        sizes = [DataSize(1, "GB"), DataSize(2, "GB")]
        with pytest.raises(TypeError, match=r"give sum\(\) a start: sum\(values, DataSize.from_value\(0\)\)"):
            sum(sizes)
        assert sum(sizes, DataSize.from_value(0)) == DataSize(3, "GB")

    def test_type_error_lists_what_is_defined(self):
        with pytest.raises(TypeError) as info:
            DataSize(1, "GB") * DataSize(1, "GB")
        assert "DataSize / Bandwidth -> Duration" in str(info.value)


class TestFormatAndParse:
    @pytest.mark.parametrize(
        "q, text",
        [
            (DataSize(24, "GB"), "24 GB"),
            (Bandwidth(3.35, "TB/s"), "3.35 TB/s"),
            (FlopRate(989, "TFLOP/s"), "989 TFLOP/s"),
            (DataSize(999.96, "GB"), "1 TB"),
            (DataSize(0, "B"), "0 B"),
            (Power(700, "W"), "700 W"),
            (FlopCount(3.14e23, "FLOP"), "314 ZFLOP"),
            (CarbonIntensity(0.429, "kgCO2e/kWh"), "0.429 kgCO2e/kWh"),
            (CarbonMass(552123, "kgCO2e"), "552.1 tCO2e"),
            (Duration(90, "s"), "1.5 min"),
            (DataSize(80, "GB"), "80 GB"),
        ],
    )
    def test_str_is_capplan_format(self, q, text):
        assert str(q) == text

    def test_format_options(self):
        assert DataSize(24, "GB").format(prefixes=Prefixes.binary) == "22.35 GiB"
        assert Energy(1287, "MWh").format(significant=3) == "1.29 GWh"
        assert Duration(34, "days").format(significant=3, trim_zeros=False) == "34.0 days"
        assert Bandwidth(200, "Gbit/s").format(bits=True) == "200 Gbit/s"
        assert capplan.format_number(1234.5678, 6) == "1234.57"
        assert capplan.format_number(0.000012345, 3) == "1.23e-05"

    def test_parse(self):
        assert DataSize("80GB") == DataSize(80, "GB")
        assert DataSize("80 GiB") == DataSize(80, "GiB")
        assert Bandwidth("3.35 TB/s") == Bandwidth(3.35, "TB/s")
        assert Duration("34 days") == Duration(34, "days")
        assert Power("700 W") == Power(0.7, "kW")

    def test_repr_round_trips(self):
        for q in [DataSize(80, "GB"), DataSize(1, "GiB"), Duration(1, "year"), Energy(591.3, "kWh")]:
            back = eval(repr(q), vars(capplan))
            assert back == q

    def test_pickle(self):
        q = Energy(591.3, "kWh")
        assert pickle.loads(pickle.dumps(q)) == q

    @given(st.floats(min_value=0, max_value=1e20, allow_nan=False), st.sampled_from(["B", "kB", "MB", "GB", "GiB", "TB"]))
    def test_to_inverts_construction(self, v, unit):
        q = DataSize(v, unit)
        assert q.to(unit) == pytest.approx(v, rel=1e-12, abs=1e-300)

    @given(st.floats(min_value=1e-3, max_value=1e20, allow_nan=False))
    def test_format_parse_round_trip_at_17_digits(self, v):
        q = DataSize(v, "B")
        back = DataSize(q.format(significant=17))
        assert back.value == pytest.approx(q.value, rel=1e-15)

    @given(st.floats(min_value=0, max_value=1e12), st.floats(min_value=0, max_value=1e12))
    def test_addition_matches_canonical_doubles(self, a, b):
        assert (Power(a, "W") + Power(b, "W")).value == a + b


SAMPLE_UNITS = {DataSize: "GB", Duration: "h", FlopCount: "PFLOP", FlopRate: "TFLOP/s", Bandwidth: "GB/s",
                Power: "kW", Energy: "kWh", ArithmeticIntensity: "FLOP/B", CarbonMass: "tCO2e",
                CarbonIntensity: "kgCO2e/kWh", Length: "mm"}


@pytest.mark.parametrize("role", QUANTITIES, ids=lambda q: q.__name__)
@given(v=st.floats(min_value=1e-3, max_value=1e9, allow_nan=False))
def test_every_role_prints_and_parses_back(role, v):
    q = role(v, SAMPLE_UNITS[role])
    assert role(str(q)).value == pytest.approx(q.value, rel=5e-4)  # 4 significant digits
    assert role(q.format(significant=17)).value == pytest.approx(q.value, rel=1e-15)
    assert eval(repr(q), vars(capplan)).value == pytest.approx(q.value, rel=1e-15)
    assert q.to(SAMPLE_UNITS[role]) == pytest.approx(v, rel=1e-15)


class TestBadInput:
    def test_parse_errors_keep_the_cpp_message(self):
        with pytest.raises(capplan.ParseError) as info:
            DataSize("80 XB")
        assert str(info.value).startswith('data size: "80 XB" has an unknown data size unit "XB"; known units: B, kB')
        assert info.value.field == "data size"
        assert info.value.value == "80 XB"
        assert isinstance(info.value, ValueError)

    @pytest.mark.parametrize("text", ["eighty GB", "80", "", "1e400 GB", "nan GB", "-5 GB"])
    def test_bad_text_is_a_value_error(self, text):
        with pytest.raises(ValueError):
            DataSize(text)

    def test_unknown_unit_and_non_finite_values(self):
        with pytest.raises(ValueError, match='unit: "XB" is not a unit of data size'):
            DataSize(1, "XB")
        with pytest.raises(ValueError, match="is not a unit of data size"):
            DataSize(1, "GB").to("h")
        with pytest.raises(ValueError, match="value: NaN is not a number"):
            DataSize(math.nan, "GB")
        with pytest.raises(ValueError, match="is not finite"):
            Power(math.inf, "W")
        with pytest.raises(ValueError, match="out of range"):
            DataSize(1e308, "EB")

    def test_parse_count_is_exact(self):
        # Llama 3.1 405B on 15.6T tokens: 6 N D, exactly (tests/units_test.cpp).
        assert 6 * capplan.parse_count("405e9") * capplan.parse_count("15.6e12") == 37908000000000000000000000
        assert capplan.parse_count("1_000_000") == 1000000
        for bad in ["1.5", "-3", "abc"]:
            with pytest.raises(capplan.ParseError):
                capplan.parse_count(bad)
