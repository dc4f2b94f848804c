// Capacity as software sees it (issue "The catalog a 2026 buyer needs", item 1): fit checks use the
// memory the CUDA runtime reports, not the decimal-GB label. Golden figures: nvidia-smi totals
// collected in https://github.com/modal-labs/modal-client/pull/2797 (H100 81,559 MiB, A100 80GB
// 81,920 MiB, A100 40GB 40,960 MiB, A10 23,028 MiB, L4 23,034 MiB, L40S 46,068 MiB, T4 15,360 MiB),
// RTX 4090 24,564 MiB (https://github.com/RLinf/RLinf/issues/255), RTX 5090 32,607 MiB
// (https://github.com/noonghunna/club-3090/issues/1261), RTX 3090 24,576 MiB
// (https://github.com/noonghunna/club-3090/issues/1128).
#include <capplan/hardware/builtin_catalog.hpp>
#include <capplan/hardware/catalog.hpp>
#include <capplan/hardware/cloud.hpp>
#include <capplan/money/decimal.hpp>
#include <capplan/memory/budget.hpp>
#include <capplan/memory/solvers.hpp>
#include <capplan/units/literals.hpp>

#include <doctest/doctest.h>

#include <string>
#include <utility>

using namespace capplan;
using namespace capplan::literals;

TEST_SUITE("capacity") {
  TEST_CASE("Colab Pro is priced per T4-hour (100 units buy about 50 T4-hours), not $9.99 over 730 h") {
    const CloudOffer& colab = Catalog::builtin().find_offer("colab-pro");
    REQUIRE(colab.on_demand.has_value());
    CHECK(colab.on_demand->amount() == Decimal("0.1998"));
    CHECK_FALSE(colab.monthly.has_value());
  }

  TEST_CASE("golden: runtime-reported capacities of the catalog's GPUs") {
    const Catalog& c = Catalog::builtin();
    const std::pair<const char*, double> mib[] = {{"h100-sxm", 81559}, {"a100-sxm-80gb", 81920}, {"a100-sxm-40gb", 40960},
                                                  {"a10", 23028},      {"l4", 23034},            {"l40s", 46068},
                                                  {"t4", 15360},       {"rtx-4090", 24564},      {"rtx-5090", 32607},
                                                  {"rtx-3090", 24576},
                                                  // nvidia-smi's and rocm-smi's totals in public logs (the catalog notes cite them)
                                                  {"h100-pcie", 81559},  {"h100-nvl", 95830},       {"h200-nvl", 143771},
                                                  {"b200", 183359},      {"b300", 275040},          {"gb200", 189471},
                                                  {"gb300", 284208},     {"mi300x", 196608},        {"mi350x", 294896},
                                                  {"mi355x", 294896},    {"h800-sxm", 81559},       {"l40", 46068},
                                                  {"l20", 46068},        {"a40", 46068},            {"a100-pcie-80gb", 81920},
                                                  {"a10g", 23028},       {"rtx-6000-ada", 49140},   {"rtx-a6000", 49140},
                                                  {"rtx-4080", 16376},   {"rtx-4080-super", 16376}, {"rtx-4060-ti-16gb", 16380},
                                                  {"rtx-5080", 16303},   {"rtx-5070-ti", 16303},    {"rtx-3080", 10240},
                                                  {"rtx-3070", 8192},    {"rtx-3060-12gb", 12288},  {"rtx-3090-ti", 24564},
                                                  {"a100-pcie-40gb", 40960}, {"rtx-4000-ada", 20475}, {"rtx-5060-ti-16gb", 16311},
                                                  {"a800-sxm4-80gb", 81920}, {"h20", 97871},          {"rx-7900-xtx", 24560},
                                                  {"rtx-4060-ti-8gb", 8188}, {"mi250x", 65520},       {"mi250", 65520},
                                                  {"rtx-5000-ada", 32760},     {"rtx-pro-6000-server", 97887},
                                                  {"v100-sxm2-16gb", 16384}, {"v100-sxm2-32gb", 32768},   {"v100-pcie-16gb", 16384},
                                                  {"v100-pcie-32gb", 32768},   {"radeon-pro-w7900", 49136},
                                                  {"gaudi3", 131072},          {"mi325x", 262128},          {"dgx-spark", 124610},
                                                  {"apple-m3-ultra", 475136}};
    for (const auto& [id, m] : mib) {
      const GpuSpec& g = c.find_gpu(id);
      REQUIRE_MESSAGE(g.usable_memory.has_value(), id);
      CHECK_MESSAGE(g.capacity().value() == doctest::Approx(m * 1048576.0), id);
    }
    // Apple: Metal's default working-set limit, 75 % of a 192 GB M2 Ultra.
    CHECK(c.find_gpu("apple-m2-ultra").capacity().value() == doctest::Approx(144.0 * 1073741824.0));
    // Without a source the marketed figure stands (every built-in GPU has one now: a user's record).
    GpuSpec unsourced = c.find_gpu("mi325x");
    unsourced.usable_memory.reset();
    CHECK(unsourced.capacity().value() == unsourced.memory.value());
  }

  TEST_CASE("a plan needing 78 GiB fits an H100 80GB (81,559 MiB), which the 80 GB label would refuse") {
    const GpuSpec& h100 = Catalog::builtin().find_gpu("h100-sxm");
    MemoryBudget b;
    b.weights.size = 13_GiB;
    b.gradients.size = 13_GiB;
    b.optimizer_states.size = 40_GiB;
    b.activations.size = 10_GiB;
    b.runtime_reserve.size = 2_GiB;
    REQUIRE(b.total().value() == doctest::Approx(78.0 * 1073741824.0));
    CHECK(check_fit(b, h100.capacity()).fits);
    CHECK_FALSE(check_fit(b, h100.memory).fits);  // 80e9 B = 74.5 GiB
  }

  TEST_CASE("a B200 holds 183,359 MiB and an MI300X 192 GiB: plans their \"180 GB\" and \"192 GB\" labels would refuse fit") {
    const Catalog& c = Catalog::builtin();
    MemoryBudget b;
    b.weights.size = 185_GB;
    CHECK(check_fit(b, c.find_gpu("b200").capacity()).fits);
    CHECK_FALSE(check_fit(b, c.find_gpu("b200").memory).fits);
    b.weights.size = 200_GB;
    CHECK(check_fit(b, c.find_gpu("mi300x").capacity()).fits);
    CHECK_FALSE(check_fit(b, c.find_gpu("mi300x").memory).fits);
  }

  TEST_CASE("an RTX 4090 holds 24,564 MiB: 24 GB of decimal label is 22.4 GiB") {
    const GpuSpec& g = Catalog::builtin().find_gpu("rtx-4090");
    CHECK(g.capacity().value() > g.memory.value());
    CHECK(g.capacity().value() / g.memory.value() == doctest::Approx(24564.0 * 1048576.0 / 24e9));
  }
}
