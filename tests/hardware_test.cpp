// Hardware: records, the built-in catalog against datasheets, lookup, validation, warnings,
// per-GPU-hour prices and system prices.
#include <capplan/hardware/catalog.hpp>
#include <capplan/hardware/warnings.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

using namespace capplan;
using namespace capplan::literals;

namespace {

double tflops(const GpuSpec& g, Precision p) {
  const auto r = g.dense.at(p);
  REQUIRE_MESSAGE(r.has_value(), g.id << " has no " << name(p) << " rate");
  return r->value() / 1e12;
}

template <class F>
InputError input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError thrown");
  return InputError("", "", "");
}

bool has_warning(const std::vector<CatalogWarning>& ws, WarningKind k, const std::string& entry, const std::string& field = "") {
  return std::any_of(ws.begin(), ws.end(), [&](const CatalogWarning& w) {
    return w.kind == k && w.entry == entry && (field.empty() || w.field == field);
  });
}

}  // namespace

TEST_SUITE("hardware") {
  // Golden figures: reference-cases.md §6 (dense, no 2:4 sparsity), which reproduces the NVIDIA
  // datasheets; each entry's own source is in builtin_catalog.hpp. Tolerance 0.1 % on rates
  // (the datasheets print sparse figures; dense = half, e.g. 1,979 / 2 = 989.5 vs "989"), exact
  // on memory, bandwidth, power and links.
  TEST_CASE("H100 SXM and PCIe match the H100 datasheet") {
    const auto& c = Catalog::builtin();
    const GpuSpec& sxm = c.find_gpu("H100 SXM");
    CHECK(tflops(sxm, Precision::bf16) == doctest::Approx(989).epsilon(1e-3));   // 1,979 sparse / 2
    CHECK(tflops(sxm, Precision::fp16) == doctest::Approx(989).epsilon(1e-3));
    CHECK(tflops(sxm, Precision::fp8) == doctest::Approx(1979).epsilon(1e-3));   // 3,958 sparse / 2
    CHECK(tflops(sxm, Precision::fp32) == doctest::Approx(67).epsilon(1e-3));
    CHECK(sxm.memory == 80_GB);
    CHECK(sxm.memory_type == "HBM3");
    CHECK(sxm.memory_bandwidth == 3.35_TBps);
    CHECK(sxm.tdp == 700_W);
    CHECK(sxm.nvlink_generation == 4);
    CHECK(sxm.nvlink_bandwidth == 450_GBps);  // 900 GB/s total = 450 per direction
    const GpuSpec& pcie = c.find_gpu("H100 PCIe");
    CHECK(tflops(pcie, Precision::bf16) == doctest::Approx(756).epsilon(1e-3));  // 1,513 sparse / 2
    CHECK(tflops(pcie, Precision::fp8) == doctest::Approx(1513).epsilon(1e-3));
    CHECK(tflops(pcie, Precision::fp32) == doctest::Approx(51).epsilon(1e-3));
    CHECK(pcie.memory == 80_GB);
    CHECK(pcie.memory_type == "HBM2e");
    CHECK(pcie.memory_bandwidth == 2.0_TBps);
    CHECK(pcie.tdp == 350_W);
    CHECK(pcie.pcie_generation == 5);
  }

  TEST_CASE("H200 SXM matches the H200 datasheet") {
    const GpuSpec& g = Catalog::builtin().find_gpu("H200");
    CHECK(tflops(g, Precision::bf16) == doctest::Approx(989).epsilon(1e-3));
    CHECK(tflops(g, Precision::fp8) == doctest::Approx(1979).epsilon(1e-3));
    CHECK(tflops(g, Precision::fp32) == doctest::Approx(67).epsilon(1e-3));
    CHECK(g.memory == 141_GB);
    CHECK(g.memory_type == "HBM3e");
    CHECK(g.memory_bandwidth == 4.8_TBps);
    CHECK(g.tdp == 700_W);
    CHECK(g.nvlink_generation == 4);
  }

  TEST_CASE("A100 SXM 80GB and PCIe 40GB match the A100 datasheet") {
    const auto& c = Catalog::builtin();
    const GpuSpec& sxm = c.find_gpu("A100 SXM 80GB");
    CHECK(tflops(sxm, Precision::bf16) == doctest::Approx(312));
    CHECK(tflops(sxm, Precision::fp32) == doctest::Approx(19.5));
    CHECK_FALSE(sxm.dense.has(Precision::fp8));  // Ampere has no FP8
    CHECK(sxm.memory == 80_GB);
    CHECK(sxm.memory_type == "HBM2e");
    CHECK(sxm.memory_bandwidth == 2039_GBps);
    CHECK(sxm.tdp == 400_W);
    CHECK(sxm.nvlink_generation == 3);
    CHECK(sxm.nvlink_bandwidth == 300_GBps);  // 600 GB/s total
    const GpuSpec& pcie = c.find_gpu("A100 PCIe 40GB");
    CHECK(tflops(pcie, Precision::bf16) == doctest::Approx(312));
    CHECK(tflops(pcie, Precision::fp32) == doctest::Approx(19.5));
    CHECK_FALSE(pcie.dense.has(Precision::fp8));
    CHECK(pcie.memory == 40_GB);
    CHECK(pcie.memory_bandwidth == 1555_GBps);
    CHECK(pcie.tdp == 250_W);
    CHECK(pcie.pcie_generation == 4);
  }

  TEST_CASE("V100 SXM2 matches the V100 datasheet, 16 and 32 GB") {
    for (const char* n : {"V100 SXM2 16GB", "V100 SXM2 32GB"}) {
      const GpuSpec& g = Catalog::builtin().find_gpu(n);
      CHECK(tflops(g, Precision::fp16) == doctest::Approx(125));
      CHECK_FALSE(g.dense.has(Precision::bf16));  // Volta has no BF16
      CHECK(tflops(g, Precision::fp32) == doctest::Approx(15.7));
      CHECK(g.memory_bandwidth == 900_GBps);
      CHECK(g.tdp == 300_W);
      CHECK(g.nvlink_generation == 2);
    }
    CHECK(Catalog::builtin().find_gpu("V100 SXM2 16GB").memory == 16_GB);
    CHECK(Catalog::builtin().find_gpu("V100 SXM2 32GB").memory == 32_GB);
  }

  TEST_CASE("RTX 4090 matches the Ada whitepaper: FP32-accumulate rate, no NVLink, no P2P") {
    const GpuSpec& g = Catalog::builtin().find_gpu("rtx4090");
    CHECK(tflops(g, Precision::bf16) == doctest::Approx(165.2));  // 330.3 with FP16 accumulate
    CHECK(tflops(g, Precision::fp8) == doctest::Approx(330).epsilon(1e-3));
    CHECK(tflops(g, Precision::fp32) == doctest::Approx(82.6));
    CHECK(g.fp16_rate_assumes_fp32_accumulate);
    CHECK(g.fp32_accumulate_half_rate);
    CHECK(g.memory == 24_GB);
    CHECK(g.memory_type == "GDDR6X");
    CHECK(g.memory_bandwidth == 1008_GBps);
    CHECK(g.tdp == 450_W);
    CHECK(g.pcie_generation == 4);
    CHECK(g.pcie_lanes == 16);
    CHECK(g.nvlink_generation == 0);
    CHECK_FALSE(g.peer_to_peer);
  }

  TEST_CASE("RTX 4060 Ti 16GB is PCIe x8; RTX 3060 12GB matches its spec page") {
    const GpuSpec& ti = Catalog::builtin().find_gpu("RTX 4060 Ti 16GB");
    CHECK(tflops(ti, Precision::fp32) == doctest::Approx(22).epsilon(5e-3));
    CHECK_FALSE(ti.dense.has(Precision::bf16));  // reference-cases.md §6: no published tensor figure
    CHECK(ti.memory == 16_GB);
    CHECK(ti.memory_bandwidth == 288_GBps);
    CHECK(ti.tdp == 165_W);
    CHECK(ti.pcie_generation == 4);
    CHECK(ti.pcie_lanes == 8);
    const GpuSpec& g = Catalog::builtin().find_gpu("RTX 3060 12GB");
    CHECK(tflops(g, Precision::fp32) == doctest::Approx(12.7).epsilon(5e-3));
    CHECK(g.memory == 12_GB);
    CHECK(g.memory_bandwidth == 360_GBps);
    CHECK(g.tdp == 170_W);
    CHECK(g.pcie_lanes == 16);
  }

  TEST_CASE("the built-in catalog is complete, valid and dated") {
    const auto& c = Catalog::builtin();
    CHECK_NOTHROW(c.validate());
    CHECK(c.gpus().size() >= 30);
    // Every part the issue names (and the EPYC 7763) resolves by a human name.
    for (const char* n : {"RTX 3060 12GB", "RTX 4060 Ti 16GB", "RTX 4060 Ti 8GB", "RTX 4090", "RTX A6000", "RTX 6000 Ada",
                          "A100 40GB PCIe", "A100 80GB PCIe", "A100 SXM 40GB", "A100 SXM 80GB", "H100 PCIe", "H100 SXM",
                          "MI250", "MI250X", "RTX 3090", "RTX 3090 Ti", "RTX 4080", "RTX 5090", "L4", "L40S", "A10", "A10G",
                          "T4", "V100 SXM2 16GB", "V100 SXM2 32GB", "V100 PCIe 32GB", "H200", "B200", "MI300X", "M2 Ultra",
                          "M3 Ultra"}) {
      CHECK_NOTHROW((void)c.find_gpu(n));
    }
    CHECK_NOTHROW((void)c.find_cpu("EPYC 7763"));
    for (const char* n : {"ws-rtx-3060", "ws-rtx-4060-ti-16gb", "ws-rtx-4090", "ws-rtx-6000-ada", "2 x RTX 4090",
                          "server-4x-a100-80gb-nvlink", "build-a100-80gb-epyc-7763", "DGX A100", "DGX H100", "HGX H100"}) {
      CHECK_NOTHROW((void)c.find_system(n));
    }
    for (const char* n : {"p4d.24xlarge", "p5.48xlarge", "p5e.48xlarge", "g5.xlarge", "g6.xlarge", "a2-highgpu-1g",
                          "a3-highgpu-8g", "azure-nd96asr-v4", "azure-nd96isr-h100-v5", "lambda-gpu-8x-h100-sxm5",
                          "runpod-rtx-4090", "cn-rental-rtx-4090-low", "cn-rental-a100-high", "cn-rental-4x-a100", "colab-pro"}) {
      CHECK_NOTHROW((void)c.find_offer(n));
    }
    for (const auto& g : c.gpus()) {
      CHECK_MESSAGE(!g.source.empty(), g.id);
      CHECK_MESSAGE(!g.as_of.empty(), g.id);
    }
    for (const auto& o : c.cloud_offers()) CHECK_MESSAGE(!o.source.empty(), o.id);
  }

  TEST_CASE("no built-in GPU stores a sparse rate") {
    for (const auto& g : Catalog::builtin().gpus()) {
      const auto w = sparse_rate_suspects(g);
      CHECK_MESSAGE(w.empty(), g.id << ": " << (w.empty() ? "" : w.front().message));
    }
  }

  TEST_CASE("lookup ignores case, spaces, dashes and underscores") {
    const auto& c = Catalog::builtin();
    CHECK(c.find_gpu("H100 SXM").id == "h100-sxm");
    CHECK(c.find_gpu("h100sxm").id == "h100-sxm");
    CHECK(c.find_gpu("H100_SXM").id == "h100-sxm");
    CHECK(c.find_gpu("rtx4090").id == "rtx-4090");
    CHECK(c.find_gpu("RTX-4090").id == "rtx-4090");
    CHECK(c.find_gpu("GeForce RTX 4090").id == "rtx-4090");
    CHECK(c.find_gpu("A100 80GB PCIe").id == "a100-pcie-80gb");
    CHECK(c.find_gpu("a100-pcie-80gb").id == "a100-pcie-80gb");
    CHECK(c.find_offer("AWS p5.48xlarge").id == "aws-p5.48xlarge");
    CHECK(c.find_cpu("epyc7763").id == "epyc-7763");
  }

  TEST_CASE("an ambiguous name lists the entries it could mean") {
    const auto& c = Catalog::builtin();
    try {
      (void)c.find_gpu("H100");
      FAIL("H100 is ambiguous");
    } catch (const LookupError& e) {
      const std::string m = e.what();
      CHECK(m.find("ambiguous") != std::string::npos);
      CHECK(m.find("h100-sxm") != std::string::npos);
      CHECK(m.find("h100-pcie") != std::string::npos);
      CHECK(e.field() == "gpu");
      CHECK(e.value() == "\"H100\"");
    }
    CHECK_THROWS_AS((void)c.find_gpu("A100 80GB"), LookupError);
  }

  TEST_CASE("an unknown name suggests the closest entries, nearest first") {
    const auto& c = Catalog::builtin();
    try {
      (void)c.find_gpu("RTX 4099");
      FAIL("RTX 4099 is not in the catalog");
    } catch (const LookupError& e) {
      const std::string m = e.what();
      CHECK(m.find("not in the catalog") != std::string::npos);
      CHECK(m.find("closest: rtx-4090") != std::string::npos);
    }
    // "L40" is a real part that is not in the catalog: it must not silently resolve to L40S.
    const auto e = input_error_of([&] { (void)c.find_gpu("L40"); });
    CHECK(std::string(e.what()).find("l40s") != std::string::npos);
    CHECK_THROWS_AS((void)c.find_gpu(""), InputError);
  }

  TEST_CASE("add_or_replace adds, overrides and refuses duplicate names") {
    Catalog c = Catalog::make_builtin();
    GpuSpec mine = c.find_gpu("RTX 4090");
    mine.id = "rtx-4090-oc";
    mine.name = "Overclocked RTX 4090";
    mine.aliases = {"4090 OC"};
    mine.tdp = 600_W;
    CHECK_FALSE(c.add_or_replace(mine));
    CHECK(c.find_gpu("4090 oc").tdp == 600_W);
    // Replace a built-in entry by id: a newer street price.
    GpuSpec g = c.find_gpu("rtx-4090");
    g.street_price = PricePoint{.amount = 1799_USD, .as_of = "2026-10-01", .source = "https://example.com/prices"};
    CHECK(c.add_or_replace(g));
    CHECK(c.find_gpu("rtx4090").street_price->amount == 1799_USD);
    CHECK(Catalog::builtin().find_gpu("rtx4090").street_price == std::nullopt);  // the built-in one is untouched
    // A name already used by another entry is refused.
    GpuSpec clash = mine;
    clash.id = "another";
    clash.name = "Another card";
    clash.aliases = {"RTX 4090"};
    const auto e = input_error_of([&] { c.add_or_replace(clash); });
    CHECK(e.field() == "aliases");
    CHECK(e.value() == "\"RTX 4090\"");
    // A cloud offer must name a GPU the catalog has.
    CloudOffer o = c.find_offer("g6.xlarge");
    o.id = "my-offer";
    o.instance_type = "custom";
    o.gpu_id = "no-such-gpu";
    CHECK_THROWS_AS(c.add_or_replace(o), LookupError);
    CHECK_NOTHROW(c.validate());
  }

  TEST_CASE("validation names the field and the value") {
    GpuSpec g = Catalog::builtin().find_gpu("H100 SXM");
    {
      GpuSpec b = g;
      b.memory_bandwidth = Bandwidth::from_value(-1e12);
      const auto e = input_error_of([&] { b.validate(); });
      CHECK(e.field() == "memory_bandwidth");
      CHECK(e.value() == "-1 TB/s");
      CHECK(std::string(e.what()).find("h100-sxm") != std::string::npos);
    }
    {
      GpuSpec b = g;
      b.memory = 20_TB;
      CHECK(input_error_of([&] { b.validate(); }).field() == "memory");
    }
    {
      GpuSpec b = g;
      b.tdp = Power::from_value(std::nan(""));
      const auto e = input_error_of([&] { b.validate(); });
      CHECK(e.field() == "tdp");
      CHECK(e.value() == "NaN");
    }
    {
      GpuSpec b = g;
      b.dense.set(Precision::bf16, FlopRate::from_value(-5e12));
      CHECK(input_error_of([&] { b.validate(); }).field() == "dense.bf16");
    }
    {
      GpuSpec b = g;
      b.as_of = "2026-13-01";
      const auto e = input_error_of([&] { b.validate(); });
      CHECK(e.field() == "as_of");
      CHECK(e.value() == "\"2026-13-01\"");
    }
    {
      GpuSpec b = g;
      b.source.clear();
      CHECK(input_error_of([&] { b.validate(); }).field() == "source");
    }
    {
      GpuSpec b = g;
      b.id = "H100 SXM";
      CHECK(input_error_of([&] { b.validate(); }).field() == "id");
    }
    {
      GpuSpec b = g;
      b.pcie_lanes = 64;
      CHECK(input_error_of([&] { b.validate(); }).field() == "pcie_lanes");
    }
    {
      GpuSpec b = g;
      b.street_price = PricePoint{.amount = -(1_USD), .as_of = "2026-01-01", .source = "x"};
      CHECK(input_error_of([&] { b.validate(); }).field() == "street_price.amount");
    }
    {
      CpuSpec cpu = Catalog::builtin().find_cpu("EPYC 7763");
      cpu.threads = 32;
      const auto e = input_error_of([&] { cpu.validate(); });
      CHECK(e.field() == "threads");
      CHECK(e.value() == "32");
    }
    {
      PowerSupply p = Catalog::builtin().find_psu("AX1600i");
      p.rated = 20_W;
      CHECK(input_error_of([&] { p.validate(); }).field() == "rated");
    }
    {
      PricePoint p{.amount = 100_USD, .as_of = "2026-01-01", .source = "x", .high = 50_USD};
      CHECK(input_error_of([&] { p.validate("price"); }).field() == "price.high");
    }
    {
      SystemSpec s = Catalog::builtin().find_system("DGX A100");
      s.topology = Topology::single_gpu;
      CHECK(input_error_of([&] { s.validate(); }).field() == "topology");
      s = Catalog::builtin().find_system("DGX A100");
      s.nodes = 0;
      CHECK(input_error_of([&] { s.validate(); }).field() == "nodes");
    }
    {
      CloudOffer o = Catalog::builtin().find_offer("p5.48xlarge");
      o.gpu_count = 0;
      CHECK(input_error_of([&] { o.validate(); }).field() == "gpu_count");
      o = Catalog::builtin().find_offer("p5.48xlarge");
      o.on_demand = MoneyRate("98.32", Currency::EUR);
      CHECK(input_error_of([&] { o.validate(); }).field() == "on_demand");
      o = Catalog::builtin().find_offer("p5.48xlarge");
      o.on_demand.reset();
      o.reserved.reset();
      CHECK(input_error_of([&] { o.validate(); }).field() == "on_demand");
      o = Catalog::builtin().find_offer("p5.48xlarge");
      o.spot = MoneyRate("-1", Currency::USD);
      CHECK(input_error_of([&] { o.validate(); }).field() == "spot");
    }
  }

  TEST_CASE("per-GPU-hour is the instance price divided by its GPUs") {
    const auto& c = Catalog::builtin();
    const CloudOffer& p5 = c.find_offer("p5.48xlarge");
    CHECK(p5.gpu_count == 8);
    CHECK(p5.per_instance_hour(PriceKind::on_demand) == MoneyRate("98.32", Currency::USD));
    CHECK(p5.per_gpu_hour(PriceKind::on_demand) == MoneyRate("12.29", Currency::USD));  // 98.32 / 8, exact
    CHECK(p5.per_gpu_hour(PriceKind::reserved) == MoneyRate("4.91625", Currency::USD));  // 39.33 / 8
    CHECK(p5.headline() == PriceKind::on_demand);
    CHECK_THROWS_AS((void)p5.per_gpu_hour(PriceKind::spot), InputError);
    // A monthly price: 730 h per month. 2,000 CNY / 730 h = 2.739726027397 CNY/h (12 places).
    const CloudOffer& r = c.find_offer("cn-rental-rtx-4090-low");
    CHECK(r.headline() == PriceKind::monthly);
    CHECK(r.per_gpu_hour() == MoneyRate("2.739726027397", Currency::CNY));
    CHECK(format(r.per_gpu_hour()) == "¥2.74/h");
    // 50,000 CNY per month for 4 GPUs: 50,000 / 730 / 4 = 17.123... CNY per GPU-hour.
    const CloudOffer& four = c.find_offer("cn-rental-4x-a100");
    CHECK(four.per_gpu_hour().amount().to_double() == doctest::Approx(50000.0 / 730 / 4).epsilon(1e-12));
    CHECK(four.per_instance_hour().amount().to_double() == doctest::Approx(50000.0 / 730).epsilon(1e-12));
  }

  TEST_CASE("system price: given, derived from parts, or unknown with the missing parts") {
    Catalog c = Catalog::make_builtin();
    // Given by the source material as a range.
    const SystemPrice b = c.system_price(c.find_system("build-a100-80gb-epyc-7763"));
    CHECK(b.given);
    CHECK(*b.low == 20400_USD);
    CHECK(*b.high == 28600_USD);
    // DGX A100 launch price.
    CHECK(*c.system_price(c.find_system("DGX A100")).low == 199000_USD);
    // The RTX 4090 workstation has unpriced parts: the price is unknown and says which.
    const SystemPrice ws = c.system_price(c.find_system("ws-rtx-4090"));
    CHECK_FALSE(ws.known());
    CHECK(ws.missing.size() == 3);
    CHECK(std::find(ws.missing.begin(), ws.missing.end(), "memory ddr5-5600-udimm-32gb") != ws.missing.end());
    // Price the missing parts (user entries) and the price is derived: sum of count x price.
    MemoryModule m = c.find_memory_module("ddr5-5600-udimm-32gb");
    m.street_price = PricePoint{.amount = Money("89.99", Currency::USD), .as_of = "2026-11-01", .source = "test"};
    c.add_or_replace(m);
    PowerSupply psu = c.find_psu("RM1000x");
    psu.street_price = PricePoint{.amount = Money("179.99", Currency::USD), .as_of = "2026-11-01", .source = "test"};
    c.add_or_replace(psu);
    Chassis ch = c.find_chassis("generic-atx-tower");
    ch.street_price = PricePoint{.amount = 150_USD, .as_of = "2026-11-01", .source = "test"};
    c.add_or_replace(ch);
    const SystemPrice d = c.system_price(c.find_system("ws-rtx-4090"));
    REQUIRE(d.known());
    CHECK_FALSE(d.given);
    // 1,599 (RTX 4090) + 699 (7950X) + 2 x 89.99 + 309.99 (990 PRO) + 179.99 + 150 = 3,117.96
    CHECK(*d.low == Money("3117.96", Currency::USD));
    CHECK(d.as_of == "2022-09-27");  // the oldest part price (the 7950X launch price)
    // Two nodes of the same: twice the price.
    SystemSpec two = c.find_system("ws-rtx-4090");
    two.id = "two-ws";
    two.name = "Two workstations";
    two.nodes = 2;
    c.add_or_replace(two);
    CHECK(*c.system_price(c.find_system("two-ws")).low == Money("6235.92", Currency::USD));
    // A system naming a part the catalog lacks is refused.
    SystemSpec bad = two;
    bad.id = "bad";
    bad.name = "bad";
    bad.parts.push_back({PartKind::storage, "no-such-ssd", 1});
    CHECK_THROWS_AS(c.add_or_replace(bad), LookupError);
  }

  TEST_CASE("warning: stale and future-dated prices") {
    Catalog c = Catalog::make_builtin();
    GpuSpec g = c.find_gpu("RTX 3090");
    g.street_price = PricePoint{.amount = 700_USD, .as_of = "2025-01-15", .source = "test"};
    c.add_or_replace(g);
    CHECK(has_warning(stale_prices(c, "2026-11-21", 365), WarningKind::stale_price, "gpu rtx-3090", "street_price"));
    CHECK_FALSE(has_warning(stale_prices(c, "2025-06-01", 365), WarningKind::stale_price, "gpu rtx-3090"));
    CHECK(has_warning(stale_prices(c, "2024-12-31", 365), WarningKind::stale_price, "gpu rtx-3090"));  // future-dated
    // Launch prices never go stale; cloud offers do.
    CHECK_FALSE(has_warning(stale_prices(c, "2030-01-01", 365), WarningKind::stale_price, "gpu rtx-4090"));
    CHECK(has_warning(stale_prices(c, "2030-01-01", 365), WarningKind::stale_price, "cloud offer aws-p5.48xlarge"));
    CHECK_THROWS_AS(stale_prices(c, "21/11/2026"), InputError);
  }

  TEST_CASE("warning: a tensor rate that looks sparse") {
    // A user copies the H100 datasheet's "with sparsity" BF16 figure.
    GpuSpec g = Catalog::builtin().find_gpu("H100 SXM");
    g.id = "my-h100";
    g.name = "My H100";
    g.aliases = {"H100 SXM5"};
    g.dense.set(Precision::bf16, 1979_TFLOPps);
    const auto w = sparse_rate_suspects(g);
    CHECK(has_warning(w, WarningKind::sparse_rate, "gpu my-h100", "dense.bf16"));
    // Ratio rule alone (no reference): bf16 / tf32 = 4.
    CHECK(has_warning(sparse_rate_suspects(g, nullptr), WarningKind::sparse_rate, "gpu my-h100", "dense.bf16"));
    // Reference rule alone: only bf16 is given, 2 x the built-in dense RTX 4090 figure (330.4 "with sparsity").
    GpuSpec r{.id = "rtx-4090-user", .name = "RTX 4090", .source = "user", .as_of = "2026-11-21"};
    r.dense.set(Precision::bf16, 330.4_TFLOPps);
    CHECK(has_warning(sparse_rate_suspects(r), WarningKind::sparse_rate, "gpu rtx-4090-user", "dense.bf16"));
    CHECK(sparse_rate_suspects(r, nullptr).empty());
    // The lower member of a pair can be the sparse one: tf32 given with sparsity.
    GpuSpec t = Catalog::builtin().find_gpu("A100 SXM 80GB");
    t.id = "a100-user";
    t.name = "A100 user";
    t.aliases.clear();
    t.dense.set(Precision::tf32, 312_TFLOPps);
    CHECK(has_warning(sparse_rate_suspects(t, nullptr), WarningKind::sparse_rate, "gpu a100-user", "dense.tf32"));
  }

  TEST_CASE("warning: a cloud per-GPU-hour price out of line with its siblings") {
    Catalog c = Catalog::make_builtin();
    CloudOffer base{.id = "x-l4-1", .provider = "X", .instance_type = "l4-1", .gpu_count = 1, .gpu_id = "l4",
                    .on_demand = MoneyRate("0.80", Currency::USD), .as_of = "2026-11-01", .source = "test"};
    CloudOffer o2 = base, o3 = base, hi = base;
    o2.id = "x-l4-2", o2.instance_type = "l4-2", o2.on_demand = MoneyRate("0.70", Currency::USD);
    o3.id = "x-l4-3", o3.instance_type = "l4-3", o3.on_demand = MoneyRate("0.90", Currency::USD);
    hi.id = "x-l4-8", hi.instance_type = "l4-8", hi.gpu_count = 8, hi.on_demand = MoneyRate("24.00", Currency::USD);  // 3.00 per GPU
    for (const auto& o : {base, o2, o3}) c.add_or_replace(o);
    // L4 offers at 0.8048 (g6.xlarge), 0.80, 0.70 and 0.90 per GPU-hour: none out of line.
    for (const char* id : {"aws-g6.xlarge", "x-l4-1", "x-l4-2", "x-l4-3"}) {
      CHECK_FALSE(has_warning(price_outliers(c), WarningKind::price_outlier, std::string("cloud offer ") + id));
    }
    c.add_or_replace(hi);
    // Median of 0.70, 0.80, 0.8048, 0.90, 3.00 is 0.8048, and 3.00 > 3 x 0.8048 = 2.4144.
    CHECK(has_warning(price_outliers(c), WarningKind::price_outlier, "cloud offer x-l4-8"));
    CHECK_FALSE(has_warning(price_outliers(c, 4.0), WarningKind::price_outlier, "cloud offer x-l4-8"));
    // Built-in: Lambda's $2.99 per H100-hour is under a third of the hyperscalers' median ($11.66).
    CHECK(has_warning(price_outliers(Catalog::builtin()), WarningKind::price_outlier,
                      "cloud offer lambda-gpu-8x-h100-sxm5"));
    CHECK_THROWS_AS(price_outliers(c, 0.5), InputError);
  }

  TEST_CASE("80 PLUS efficiency curves (CLEAResult 80 PLUS program requirements, 115 V internal)") {
    PowerSupply gold{.id = "gold-1000", .name = "Gold 1000 W", .rated = 1000_W, .tier = EightyPlusTier::gold,
                     .source = "test", .as_of = "2026-11-21"};
    CHECK(gold.efficiency_at(0.5) == doctest::Approx(0.90));
    CHECK(gold.efficiency_at(0.2) == doctest::Approx(0.87));
    CHECK(gold.efficiency_at(1.0) == doctest::Approx(0.87));
    CHECK(gold.efficiency_at(0.35) == doctest::Approx(0.885));  // linear between 20 % and 50 %
    CHECK(gold.efficiency_at(0.1) == doctest::Approx(0.87));    // held below the lowest specified load
    CHECK_FALSE(gold.curve().efficiency[0].has_value());       // no 10 % requirement below Titanium
    CHECK(in(gold.wall_power(500_W), "W") == doctest::Approx(500.0 / 0.90));
    CHECK_THROWS_AS((void)gold.wall_power(1200_W), InputError);
    CHECK_THROWS_AS((void)gold.efficiency_at(0), InputError);
    PowerSupply ti = gold;
    ti.tier = EightyPlusTier::titanium;
    CHECK(ti.efficiency_at(0.1) == doctest::Approx(0.90));
    CHECK(ti.efficiency_at(0.5) == doctest::Approx(0.94));
    ti.input = PsuInput::v230_eu_internal;
    CHECK(ti.efficiency_at(0.5) == doctest::Approx(0.96));
    PowerSupply none = gold;
    none.tier = EightyPlusTier::none;
    CHECK_THROWS_AS((void)none.efficiency_at(0.5), InputError);
  }

  TEST_CASE("ISO dates: checked, and compared as day counts") {
    CHECK(days_between("2024-02-28", "2024-03-01") == 2);  // 2024 is a leap year
    CHECK(days_between("2023-02-28", "2023-03-01") == 1);
    CHECK(days_between("2025-11-21", "2026-11-21") == 365);
    CHECK_THROWS_AS(parse_iso_date("2023-02-29"), InputError);
    CHECK_THROWS_AS(parse_iso_date("2023-2-1"), InputError);
    CHECK_THROWS_AS(parse_iso_date("today"), InputError);
  }
}
