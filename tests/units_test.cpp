// Units: literals, canonical storage, meaningful mixes, exact counts, printing and parsing.
#include <capplan/capplan.hpp>

#include <doctest/doctest.h>

using namespace capplan;
using namespace capplan::literals;

// The unit rules as generic code sees them: every case under tests/compile_fail/ (and its compiling
// twin) asked of `requires`, so a concept that asks "can I add these?" gets the answer the compiler
// gives. The checks are written in a template whose parameters are named after the types they
// stand for: g++ makes an invalid requirement `false` only when it depends on a template
// parameter, and a hard error elsewhere ([expr.prim.req.general] says the same).
template <class DataSize, class Duration, class Power, class Energy, class FlopRate, class Bandwidth>
constexpr bool unit_rules_are_visible_to_requires() {
  // bytes_plus_seconds, quantity_plus_number; their twins add like quantities.
  static_assert(!requires (DataSize a, Duration b) { a + b; });
  static_assert(!requires (DataSize a, double x) { a + x; });
  static_assert(!requires (DataSize a, double x) { x + a; });
  static_assert(requires (DataSize a, DataSize b) { { a + b } -> std::same_as<DataSize>; });
  // watts_plus_joules; its twin gets the Energy first.
  static_assert(!requires (Power p, Energy e) { p + e; });
  static_assert(requires (Power p, Duration t, Energy e) { { p * t + e } -> std::same_as<Energy>; });
  // The other refused mixes: unlike quantities do not subtract or compare for equality.
  static_assert(!requires (Energy e, Power p) { e - p; });
  static_assert(!requires (Power p, Energy e) { p == e; });
  static_assert(!requires (Power p, Energy e) { p != e; });
  // compare_flop_rate_with_bandwidth; its twin compares like quantities.
  static_assert(!requires (FlopRate r, Bandwidth b) { r < b; });
  static_assert(requires (FlopRate a, FlopRate b) { { a < b } -> std::same_as<bool>; });
  // flop_rate_into_bandwidth; its twin initialises from a bandwidth literal.
  static_assert(!requires (FlopRate r) { { r } -> std::convertible_to<Bandwidth>; });
  static_assert(requires { { 3.35_TBps } -> std::convertible_to<Bandwidth>; });
  // duration_into_energy and power_times_power_into_energy; their twins are Power * Duration.
  static_assert(!requires (Duration t) { { t } -> std::convertible_to<Energy>; });
  static_assert(!requires (Power p) { { p * p } -> std::convertible_to<Energy>; });
  static_assert(requires (Power p, Duration t) { { p * t } -> std::convertible_to<Energy>; });
  return true;
}
static_assert(unit_rules_are_visible_to_requires<DataSize, Duration, Power, Energy, FlopRate, Bandwidth>());

TEST_SUITE("units") {
  TEST_CASE("decimal and binary byte prefixes are distinct and exact") {
    CHECK((1_GiB).value() == 1073741824.0);  // 2^30
    CHECK((1_GB).value() == 1e9);
    CHECK((1_TiB).value() == 1099511627776.0);
    CHECK((8_bit).value() == 1.0);
    CHECK(in(80_GB, "GiB") == doctest::Approx(74.50580596923828));
  }

  TEST_CASE("time units: month is 730 h and year 8,760 h") {
    CHECK((1_h).value() == 3600.0);
    CHECK((1_month).value() == 730.0 * 3600.0);
    CHECK((1_year).value() == 8760.0 * 3600.0);
    CHECK((1_day).value() == 86400.0);
  }

  TEST_CASE("physically meaningful mixes give the right role") {
    // Dettmers' desktop: 450 W x 15% x 8,760 h = 591.3 kWh.
    Energy e = 450_W * 0.15 * 1_year;
    CHECK(in(e, "kWh") == doctest::Approx(591.3).epsilon(1e-12));
    Duration t = 3.14e23 * 1_FLOP / (1024.0 * 140_TFLOPps);
    CHECK(in(t, "days") == doctest::Approx(25.35).epsilon(1e-3));
    Duration load = 80_GB / 3.35_TBps;
    CHECK(load.value() == doctest::Approx(0.023880597));
    CarbonMass c = 1287_MWh * 0.429_kgCO2e_per_kWh;
    CHECK(in(c, "tCO2e") == doctest::Approx(552.123));
    ArithmeticIntensity ridge = 989_TFLOPps / 3.35_TBps;
    CHECK(ridge.value() == doctest::Approx(295.22).epsilon(1e-4));
    Bandwidth bw = 10_GB / 2_s;
    CHECK(bw == 5_GBps);
  }

  TEST_CASE("exact counts beyond 2^64") {
    // Llama 3.1 405B on 15.6T tokens: 6 N D = 3.7908e25 FLOP, exactly.
    Count f = 6 * parse_count("405e9") * parse_count("15.6e12");
    CHECK(f.str() == "37908000000000000000000000");
    CHECK(f > Count(std::numeric_limits<std::uint64_t>::max()));
    // GPT-3: 6 x 174.6e9 x 300e9 = 3.1428e23 FLOP (Brown et al. 2020, Table D.1 inputs).
    Count g = 6 * parse_count("174.6e9") * parse_count("300e9");
    CHECK(g.str() == "314280000000000000000000");
    CHECK(to_flop_count(g).value() == doctest::Approx(3.1428e23).epsilon(1e-15));
    CHECK(parse_count("1_000_000") == 1000000);
    CHECK(parse_count("1,000,000,000") == 1000000000);
    CHECK(parse_count("15,600e9") == parse_count("15.6e12"));
    // A comma that does not group thousands is refused, not dropped: "1,5e9" would read 15e9.
    for (const char* s : {"1,5e9", "12,5", "1.5,000", "1,0000", ",100", "100,", "1,000_000", "1,5 ", "1,50 "}) {
      CAPTURE(s);
      CHECK_THROWS_AS(parse_count(s), ParseError);
    }
    CHECK_THROWS_AS(parse_count("1.5"), ParseError);
    CHECK_THROWS_AS(parse_count("-3"), ParseError);
    CHECK_THROWS_AS(parse_count("abc"), ParseError);
    CHECK_THROWS_AS(to_count(1.5), InputError);
    CHECK_THROWS_AS(to_count(std::nan("")), InputError);
  }

  TEST_CASE("printing with significant digits and automatic prefixes") {
    CHECK(format(24_GB) == "24 GB");
    CHECK(format(24_GB, {.prefixes = Prefixes::binary}) == "22.35 GiB");
    CHECK(format(3.35_TBps) == "3.35 TB/s");
    CHECK(format(989_TFLOPps) == "989 TFLOP/s");
    CHECK(format(1287_MWh, {.significant = 3}) == "1.29 GWh");
    CHECK(format(34_days, {.significant = 3, .trim_zeros = false}) == "34.0 days");
    // The word units read in the singular for exactly one, and parse back so.
    CHECK(format(Duration::from_value(scale::year)) == "1 year");
    CHECK(format(Duration::from_value(scale::day)) == "1 day");
    CHECK(format(Duration::from_value(1.5 * scale::day)) == "1.5 days");
    CHECK(format(Duration::from_value(scale::year), {.significant = 3, .trim_zeros = false}) == "1.00 years");
    CHECK(parse<Duration>(format(Duration::from_value(scale::year))) == Duration::from_value(scale::year));
    CHECK(format(999.96_GB) == "1 TB");
    CHECK(format(0_B) == "0 B");
    CHECK(format(700_W) == "700 W");
    CHECK(format(3.14e23 * 1_FLOP) == "314 ZFLOP");
    CHECK(format(0.429_kgCO2e_per_kWh) == "0.429 kgCO2e/kWh");
    CHECK(format(552123_kgCO2e) == "552.1 tCO2e");
    CHECK(format(200_Gbps, {.bits = true}) == "200 Gbit/s");
    CHECK(format(90_s) == "1.5 min");
    CHECK(format_number(1234.5678, 6) == "1234.57");
    CHECK(format_number(0.000012345, 3) == "1.23e-05");
  }

  TEST_CASE("parsing text into typed quantities") {
    CHECK(parse<DataSize>("80GB") == 80_GB);
    CHECK(parse<DataSize>("80 GiB") == 80_GiB);
    CHECK(parse<Bandwidth>("3.35 TB/s") == 3.35_TBps);
    CHECK(parse<Bandwidth>("200 Gbit/s") == 25_GBps);
    CHECK(parse<Power>("700 W") == 700_W);
    CHECK(parse<Duration>("34 days") == 34_days);
    CHECK(parse<FlopRate>("989 TFLOP/s") == 989_TFLOPps);
    CHECK(parse<FlopCount>("3.64e3 PF-days").value() == doctest::Approx(3.14496e23));
    CHECK(parse<Energy>("1.287 GWh") == 1287_MWh);
    CHECK(parse<CarbonIntensity>("0.429 kgCO2e/kWh") == 0.429_kgCO2e_per_kWh);
    // Lengths print in mm, as card and case makers give them; inches are accepted (10.5 in = 266.7 mm).
    CHECK(parse<Length>("304 mm") == 304_mm);
    CHECK(parse<Length>("10.5 in").value() == doctest::Approx(0.2667));
    CHECK(format(266.7_mm) == "266.7 mm");
    CHECK(format(1.2_m) == "1.2 m");
    CHECK_THROWS_AS(parse<Length>("304"), InputError);
  }

  TEST_CASE("format and parse round-trip") {
    for (DataSize q : {1_B, 24_GB, 80_GiB, 1.5_TB, 12.55_GiB}) {
      CHECK(parse<DataSize>(format(q, {.significant = 17})).value() == doctest::Approx(q.value()).epsilon(1e-15));
      CHECK(parse<DataSize>(format(q, {.significant = 17, .prefixes = Prefixes::binary})).value() ==
            doctest::Approx(q.value()).epsilon(1e-15));
    }
    for (Duration q : {1_s, 90_min, 34_days, 3_years}) {
      CHECK(parse<Duration>(format(q, {.significant = 17})).value() == doctest::Approx(q.value()).epsilon(1e-15));
    }
  }

  TEST_CASE("bad input names the input and says what is wrong") {
    auto message = [](auto&& fn) {
      try {
        fn();
      } catch (const ParseError& e) {
        return std::string(e.what());
      }
      return std::string("no error");
    };
    CHECK(message([] { parse<DataSize>("eighty GB"); }) ==
          "data size: \"eighty GB\" is not a data size: expected a number followed by a unit");
    CHECK(message([] { parse<DataSize>("80 XB"); }).starts_with("data size: \"80 XB\" has an unknown data size unit \"XB\""));
    CHECK(message([] { parse<DataSize>(""); }).starts_with("data size: \"\" is empty"));
    CHECK(message([] { parse<DataSize>("1e400 GB"); }) == "data size: \"1e400 GB\" is out of range");
    CHECK(message([] { parse<DataSize>("nan GB"); }) == "data size: \"nan GB\" is not finite");
    CHECK(message([] { parse<Power>("inf W"); }) == "power: \"inf W\" is not finite");
    CHECK(message([] { parse<Power>("-700 W"); }) == "power: \"-700 W\" is negative; a power must be >= 0");
    CHECK(message([] { parse<DataSize>("80"); }).starts_with("data size: \"80\" has no unit"));
    CHECK(message([] { parse<Bandwidth>("3 TFLOP/s", "memory_bandwidth"); })
              .starts_with("memory_bandwidth: \"3 TFLOP/s\" has an unknown bandwidth unit"));
    try {
      parse<DataSize>("80 XB", "memory");
      FAIL("no exception");
    } catch (const InputError& e) {
      CHECK(e.field() == "memory");
      CHECK(e.value() == "80 XB");
    }
    CHECK_THROWS_AS(require_fraction(1.5, "utilization"), InputError);
    CHECK_THROWS_WITH(require_fraction(1.5, "utilization"), "utilization: 1.5 is outside [0, 1]");
    CHECK_THROWS_WITH(require_nonnegative(std::nan(""), "power"), "power: NaN is not a number");
    CHECK_THROWS_WITH(require_positive(-std::numeric_limits<double>::infinity(), "bandwidth"),
                      "bandwidth: -inf is not finite");
  }
}
