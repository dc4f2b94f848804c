// Hostile input to the library (issue "No crash, no hang, no silent wrong number"): every case
// here was once accepted quietly or crashed; each must now be an InputError naming the field and
// the value. The CLI's cases are golden tests in tests/cli (bad_*), Python's in
// bindings/python/tests/test_hostile_input.py.
#include <capplan/cost/compare.hpp>
#include <capplan/cost/owned.hpp>
#include <capplan/cost/rented.hpp>
#include <capplan/date.hpp>
#include <capplan/hardware/catalog.hpp>
#include <capplan/hardware/builtin_catalog.hpp>
#include <capplan/io/catalog_json.hpp>
#include <capplan/io/json_document.hpp>
#include <capplan/io/model_json.hpp>
#include <capplan/money/money.hpp>
#include <capplan/perf/communication.hpp>
#include <capplan/power/energy.hpp>
#include <capplan/units/count.hpp>
#include <capplan/units/literals.hpp>
#include <capplan/workload/parallel_plan.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

using namespace capplan;
using namespace capplan::literals;
using doctest::Contains;

TEST_SUITE("hostile_input") {
  TEST_CASE("parallel degrees multiply in 64 bits: no 32-bit wrap to negative or zero GPUs") {
    ParallelPlan p;
    p.tp = 2;
    p.dp = 1073741824;  // 2 x 2^30 = 2^31 wrapped to -2147483648 in 32 bits
    CHECK_THROWS_WITH_AS((void)p.gpus(), Contains("is more than 1048576 GPUs"), InputError);
    p.tp = 8;
    p.dp = 536870912;  // 8 x 2^29 = 2^32 wrapped to 0
    CHECK_THROWS_WITH_AS((void)p.gpus(), Contains("8 x 1 x 1 x 536870912"), InputError);
    p.tp = 8;
    p.pp = 16;
    p.dp = 64;
    CHECK(p.gpus() == 8192);
    CHECK(degree_product({2147483647, 2147483647, 2147483647, 2147483647}) == max_plan_gpus + 1);
    CHECK(degree_product({8, 16, 64}) == 8192);
  }

  TEST_CASE("an exact count beyond a double is an error, not Boost's abort or an infinity") {
    const Count huge = boost::multiprecision::pow(Count(10), 400);
    CHECK_THROWS_WITH_AS((void)count_to_double(huge, "flops"), Contains("flops: 1000000000"), InputError);
    CHECK_THROWS_AS((void)to_flop_count(huge), InputError);
    CHECK(count_to_double(Count(6) * Count(1000)) == 6000.0);
  }

  TEST_CASE("exchange rates: a real date, and a currency converts to itself only at 1") {
    CHECK_THROWS_WITH_AS(ExchangeRate(Currency::USD, Currency::EUR, Decimal("0.9"), "banana"), Contains("exchange_rate.as_of"),
                         InputError);
    CHECK_THROWS_AS(ExchangeRate(Currency::USD, Currency::EUR, Decimal("0.9"), "2026-13-45"), InputError);
    CHECK_THROWS_WITH_AS(ExchangeRate(Currency::USD, Currency::USD, Decimal(2), "2026-11-01"), Contains("to itself"), InputError);
    CHECK(ExchangeRate(Currency::USD, Currency::USD, Decimal(1), "2026-11-01").rate == Decimal(1));
  }

  TEST_CASE("PUE is capped at 3 everywhere, and NaN is refused") {
    CHECK_THROWS_WITH_AS((void)require_pue(100, "pue"), Contains("is above 3"), InputError);
    CHECK_THROWS_AS((void)require_pue(std::nan(""), "pue"), InputError);
    CHECK(require_pue(1.58) == 1.58);
  }

  TEST_CASE("owned hardware: idle above busy power is refused; the horizon is 1..240 months") {
    OwnedOption o{.name = "desk", .purchase = 2200_USD, .active_power = 450_W, .idle_power = 500_W, .electricity = 0.12_USD / 1_kWh};
    CHECK_THROWS_WITH_AS(o.validate(), Contains("owned.idle_power"), InputError);
    o.idle_power = 60_W;
    const RentedOption r = RentedOption::on_demand("cloud", 2.14_USD / 1_h);
    CHECK_THROWS_WITH_AS((void)compare_costs(o, r, {.horizon_months = 100000000}), Contains("horizon_months: 100000000 is outside 1..240"),
                         InputError);
    CHECK(compare_costs(o, r, {.horizon_months = 240}).months.size() == 241);
  }

  TEST_CASE("catalog GPUs: absurdly small memory, bandwidth and rates are refused") {
    GpuSpec g = Catalog::builtin().find_gpu("h100-sxm");
    g.memory = DataSize::from_value(1e-300);
    CHECK_THROWS_WITH_AS(g.validate(), Contains("memory: "), InputError);
    CHECK_THROWS_WITH_AS(g.validate(), Contains("is absurdly small"), InputError);
    g = Catalog::builtin().find_gpu("h100-sxm");
    g.memory_bandwidth = 1_Bps;
    CHECK_THROWS_WITH_AS(g.validate(), Contains("memory_bandwidth"), InputError);
    g = Catalog::builtin().find_gpu("h100-sxm");
    g.dense.set(Precision::bf16, FlopRate::from_value(1e-9));
    CHECK_THROWS_WITH_AS(g.validate(), Contains("dense.bf16"), InputError);
  }

  TEST_CASE("catalog systems: one GPU model, and at least one GPU") {
    const Catalog& c = Catalog::builtin();
    for (const auto& s : c.systems()) CHECK_NOTHROW(s.validate());
    SystemSpec s = c.systems().front();
    s.parts.push_back({PartKind::gpu, "rtx-4090", 4});
    CHECK_THROWS_WITH_AS(s.validate(), Contains("is a second GPU model"), InputError);
    s.parts.clear();
    s.parts.push_back({PartKind::cpu, "epyc-9654", 2});
    s.topology = Topology::single_gpu;
    CHECK_THROWS_WITH_AS(s.validate(), Contains("must include a GPU part"), InputError);
  }

  TEST_CASE("collectives on a caller's link of 0 B/s: an error naming the link, never an infinite time") {
    // Found by the Python API fuzz (bindings/python/tests/test_fuzz_api.py): point_to_point(Link(), 80 GB)
    // returned inf seconds.
    const perf::Link none{};
    CHECK_THROWS_WITH_AS((void)perf::point_to_point(none, 80_GB), Contains("link.bandwidth"), InputError);
    perf::Link l{};
    l.bandwidth = 50_GBps;
    CHECK(perf::point_to_point(l, 80_GB).value() == doctest::Approx(1.6));
    CHECK_THROWS_WITH_AS((void)perf::point_to_point(l, DataSize::from_value(-1)), Contains("bytes"), InputError);
    // A group that leaves its node needs a link between nodes; one that stays inside does not.
    perf::Cluster c;
    c.gpus = 8;
    c.gpus_per_node = 8;
    c.intra = l;
    CHECK(perf::all_reduce(c, 1_GB, perf::Group{8, 8, 1}).value() > 0);
    CHECK_THROWS_WITH_AS((void)perf::all_reduce(c, 1_GB, perf::Group{8, 4, 1}), Contains("link.bandwidth"), InputError);
    CHECK_THROWS_WITH_AS((void)perf::all_gather(c, 1_GB, perf::Group{0, 1, 1}), Contains("group.size"), InputError);
  }

  TEST_CASE("JSON text: a NUL byte is an error, not the end of the text") {
    const std::string text = std::string("{\"format\": \"capplan-catalog\", \"version\": 1, \"gpus\": []}") + '\0' + "{garbage";
    CHECK_THROWS_WITH_AS(io::JsonDocument::parse(text, "c.json"), Contains("c.json:1:56: bad JSON: a NUL byte"), ParseError);
  }

  TEST_CASE("files: devices and directories are refused before reading; the size limit applies while reading") {
    CHECK_THROWS_WITH_AS(io::JsonDocument::load("/dev/zero"), Contains("is not a regular file"), InputError);
    CHECK_THROWS_WITH_AS(io::JsonDocument::load("/tmp"), Contains("is a directory"), InputError);
    CHECK_THROWS_WITH_AS(io::load_model_file("/dev/zero"), Contains("not a regular file"), InputError);
    CHECK_THROWS_WITH_AS(io::JsonDocument::load("/nonexistent/capplan.json"), Contains("cannot open"), InputError);
  }
}
