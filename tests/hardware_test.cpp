// Hardware: records, the built-in catalog against datasheets, lookup, validation, warnings,
// per-GPU-hour prices and system prices.
#include <capplan/detail/enum_names.hpp>
#include <capplan/hardware/catalog.hpp>
#include <capplan/hardware/gpu_slots.hpp>
#include <capplan/hardware/warnings.hpp>

#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/mp11/algorithm.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
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

// Converts to any member type (unevaluated only), so Rec{AnyMember{}, ...} compiles for up to as
// many initializers as the aggregate Rec has members.
struct AnyMember {
  template <class T>
  operator T() const;  // NOLINT(google-explicit-constructor): that is the point
};

template <class Rec, class... A>
constexpr std::size_t aggregate_members(A... a) {
  if constexpr (requires { Rec{a..., AnyMember{}}; }) return aggregate_members<Rec>(a..., AnyMember{});
  else return sizeof...(A);
}

template <class Rec>
constexpr std::size_t described_members = boost::mp11::mp_size<boost::describe::describe_members<Rec, boost::describe::mod_public>>::value;

// A member left out of BOOST_DESCRIBE_STRUCT would be missing from catalog files and Python
// without any other sign: the description must name every member.
template <class Rec>
constexpr bool fully_described = aggregate_members<Rec>() == described_members<Rec>;
static_assert(fully_described<GpuSpec>);
static_assert(fully_described<CpuSpec>);
static_assert(fully_described<MemoryModule>);
static_assert(fully_described<StorageDevice>);
static_assert(fully_described<PowerSupply>);
static_assert(fully_described<Chassis>);
static_assert(fully_described<NetworkAdapter>);
static_assert(fully_described<SystemPart>);
static_assert(fully_described<SystemSpec>);
static_assert(fully_described<CloudOffer>);
static_assert(fully_described<PricePoint>);

}  // namespace

TEST_SUITE("hardware") {
  TEST_CASE("enumerations: names from their descriptions, display names apart") {
    CHECK(detail::enum_name(FormFactor::pcie) == "pcie");
    CHECK(name(FormFactor::pcie) == "PCIe card");  // the display name stays its own text
    CHECK(detail::enum_name(Topology::pcie_no_p2p) == "pcie_no_p2p");
    CHECK(detail::enum_name(EightyPlusTier::platinum) == "platinum");
    CHECK(name(PartKind::network) == "network");
    CHECK(name(WarningKind::price_outlier) == "price_outlier");
    CHECK(detail::enum_name_list<DramType>() == "ddr4, ddr5");
    CHECK(detail::enum_name_list<PsuInput>(" or ") == "v115_internal, v230_eu_internal or v230_internal_redundant");
    static_assert(all_precisions.size() == 10 && all_precisions[3] == Precision::bf16 && all_precisions[8] == Precision::fp4 &&
                  all_precisions[9] == Precision::fp6);
    CHECK(parse_precision("fp4") == Precision::fp4);
    CHECK(bytes_per_element(Precision::fp4) == 0.5);
    CHECK(parse_precision("fp6") == Precision::fp6);
    CHECK(bytes_per_element(Precision::fp6) == 0.75);
    CHECK(name(Precision::int4) == "int4");
    CHECK(parse_precision("fp8") == Precision::fp8);
    CHECK(detail::parse_enum<Vendor>("other", "--vendor") == Vendor::other);
    const InputError e = input_error_of([] { (void)detail::parse_enum<Vendor>("nvida", "--vendor"); });
    CHECK(e.field() == "--vendor");
    CHECK(std::string(e.what()) == "--vendor: \"nvida\" is not one of: nvidia, amd, intel, apple, google, aws, other");
    CHECK_THROWS_AS((void)parse_precision("bf17"), InputError);
  }

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

  // RTX 4060 Ti and RTX 3060: NVIDIA prints no tensor TFLOPS for these cards; the catalog derives them the way
  // the whitepapers' appendix tables are computed: per-SM rate of the architecture x SMs x boost clock.
  //   Ada (whitepaper, RTX 4090: 330.3 TFLOPS FP16-acc = 128 SMs x 2,520 MHz x 1,024 FLOP/clk/SM) ->
  //     4060 Ti: 34 SMs x 2,535 MHz x 1,024 = 88.26 (FP16 acc.), 44.13 with FP32 accumulate (half rate on GeForce).
  //   GA10x (GA102 whitepaper, RTX 3090: 142 TFLOPS FP16-acc = 82 SMs x 1,695 MHz x 1,024) ->
  //     3060: 28 SMs x 1,777 MHz x 1,024 = 50.95 (FP16 acc.), 25.47 with FP32 accumulate.
  // Spec figures: reference-cases.md §6 (FP32 22 / 12.7 TF, 288 / 360 GB/s, 165 / 170 W, PCIe 4.0 x8 / x16).
  TEST_CASE("RTX 4060 Ti 16GB is PCIe x8 with derived Ada tensor rates; RTX 3060 12GB likewise from GA10x") {
    const auto per_sm = [](int sms, double mhz) { return sms * mhz * 1e6 * 1024 / 1e12; };  // FP16-acc dense TF
    CHECK(per_sm(128, 2520) == doctest::Approx(330.3).epsilon(1e-3));  // reproduces the Ada whitepaper's 4090 figure
    CHECK(per_sm(82, 1695) == doctest::Approx(142).epsilon(3e-3));     // and the GA102 whitepaper's 3090 figure
    // The whitepaper figures stored for the other GeForce cards follow the same rule (FP32 accumulate = half):
    // RTX 4080 16GB: 76 SMs x 2,505 MHz; RTX 3090: 82 SMs x 1,695 MHz (Ada / GA102 whitepaper appendices).
    CHECK(tflops(Catalog::builtin().find_gpu("RTX 4080"), Precision::bf16) == doctest::Approx(per_sm(76, 2505) / 2).epsilon(1e-3));
    CHECK(tflops(Catalog::builtin().find_gpu("RTX 3090"), Precision::bf16) == doctest::Approx(per_sm(82, 1695) / 2).epsilon(3e-3));
    const GpuSpec& ti = Catalog::builtin().find_gpu("RTX 4060 Ti 16GB");
    CHECK(tflops(ti, Precision::fp32) == doctest::Approx(22).epsilon(5e-3));
    CHECK(tflops(ti, Precision::bf16) == doctest::Approx(per_sm(34, 2535) / 2).epsilon(1e-3));  // 44.13
    CHECK(tflops(ti, Precision::fp16) == doctest::Approx(44.13).epsilon(1e-3));
    CHECK(tflops(ti, Precision::tf32) == doctest::Approx(22.06).epsilon(1e-3));
    CHECK(tflops(ti, Precision::fp8) == doctest::Approx(88.26).epsilon(1e-3));
    CHECK(tflops(ti, Precision::int4) == doctest::Approx(353).epsilon(1e-3));  // NVIDIA's "353 AI TOPS"
    CHECK(ti.fp32_accumulate_half_rate);
    CHECK(ti.memory == 16_GB);
    CHECK(ti.memory_bandwidth == 288_GBps);
    CHECK(ti.tdp == 165_W);
    CHECK(ti.pcie_generation == 4);
    CHECK(ti.pcie_lanes == 8);
    CHECK_FALSE(ti.peer_to_peer);
    const GpuSpec& ti8 = Catalog::builtin().find_gpu("RTX 4060 Ti 8GB");
    CHECK(ti8.memory == 8_GB);
    CHECK(ti8.tdp == 160_W);  // thefpsreview launch table: 160 W TGP
    CHECK(ti8.pcie_lanes == 8);
    CHECK(tflops(ti8, Precision::bf16) == doctest::Approx(44.13).epsilon(1e-3));
    const GpuSpec& g = Catalog::builtin().find_gpu("RTX 3060 12GB");
    CHECK(tflops(g, Precision::fp32) == doctest::Approx(12.7).epsilon(5e-3));
    CHECK(tflops(g, Precision::bf16) == doctest::Approx(per_sm(28, 1777) / 2).epsilon(1e-3));  // 25.47
    CHECK(tflops(g, Precision::tf32) == doctest::Approx(12.74).epsilon(1e-3));
    CHECK(tflops(g, Precision::int8) == doctest::Approx(101.9).epsilon(1e-3));
    CHECK_FALSE(g.dense.has(Precision::fp8));  // Ampere has no FP8
    CHECK(g.memory == 12_GB);
    CHECK(g.memory_bandwidth == 360_GBps);
    CHECK(g.tdp == 170_W);
    CHECK(g.pcie_lanes == 16);
  }

  // A100 variants the tests above do not cover: A100 datasheet (same GA100 rates: FP32 19.5, TF32 156, BF16/FP16
  // 312, INT8 624 dense), SXM4 40GB: 1,555 GB/s, 400 W; PCIe 80GB: 1,935 GB/s, 300 W, NVLink bridge.
  TEST_CASE("A100 SXM 40GB and PCIe 80GB match the A100 datasheet") {
    const auto& c = Catalog::builtin();
    for (const char* n : {"A100 SXM 40GB", "A100 80GB PCIe"}) {
      const GpuSpec& g = c.find_gpu(n);
      CHECK(tflops(g, Precision::fp32) == doctest::Approx(19.5));
      CHECK(tflops(g, Precision::tf32) == doctest::Approx(156));
      CHECK(tflops(g, Precision::bf16) == doctest::Approx(312));
      CHECK(tflops(g, Precision::int8) == doctest::Approx(624));
      CHECK(g.nvlink_generation == 3);
    }
    const GpuSpec& sxm40 = c.find_gpu("A100 SXM 40GB");
    CHECK(sxm40.memory == 40_GB);
    CHECK(sxm40.memory_bandwidth == 1555_GBps);
    CHECK(sxm40.tdp == 400_W);
    const GpuSpec& pcie80 = c.find_gpu("A100 80GB PCIe");
    CHECK(pcie80.memory == 80_GB);
    CHECK(pcie80.memory_bandwidth == 1935_GBps);
    CHECK(pcie80.tdp == 300_W);
    CHECK(pcie80.form_factor == FormFactor::pcie);
  }

  // RTX A6000 datasheet: FP32 38.7, tensor 309.7 TFLOPS with sparsity (dense FP16/BF16 154.8, TF32 77.4), 48 GB GDDR6,
  // 768 GB/s, 300 W, NVLink bridge 112.5 GB/s. RTX 6000 Ada datasheet: FP32 91.1, "1,457 TFLOPS" tensor (FP8 with
  // sparsity: dense FP8 728.5, FP16/BF16 364.2 at Ada's 4:2:1 FP8:FP16:TF32 ratios, full-rate FP32 accumulate on
  // professional cards), 48 GB, 960 GB/s, 300 W, no NVLink.
  TEST_CASE("RTX A6000 and RTX 6000 Ada match their datasheets") {
    const auto& c = Catalog::builtin();
    const GpuSpec& a6 = c.find_gpu("RTX A6000");
    CHECK(tflops(a6, Precision::fp32) == doctest::Approx(38.7));
    CHECK(tflops(a6, Precision::bf16) == doctest::Approx(309.7 / 2).epsilon(1e-3));
    CHECK(a6.memory == 48_GB);
    CHECK(a6.memory_bandwidth == 768_GBps);
    CHECK(a6.tdp == 300_W);
    CHECK(a6.nvlink_bandwidth == 56.25_GBps);  // 112.5 GB/s bridge, per direction
    const GpuSpec& ada = c.find_gpu("RTX 6000 Ada");
    CHECK(tflops(ada, Precision::fp32) == doctest::Approx(91.1));
    CHECK(tflops(ada, Precision::fp8) == doctest::Approx(1457.0 / 2).epsilon(1e-3));
    CHECK(tflops(ada, Precision::bf16) == doctest::Approx(1457.0 / 4).epsilon(1e-3));
    CHECK_FALSE(ada.fp32_accumulate_half_rate);  // professional card: FP32 accumulate at full rate
    CHECK(ada.memory == 48_GB);
    CHECK(ada.memory_bandwidth == 960_GBps);
    CHECK(ada.tdp == 300_W);
    CHECK(ada.nvlink_generation == 0);
  }

  // RTX 5090: NVIDIA spec page: FP32 104.8, 32 GB GDDR7, 1,792 GB/s, 575 W, PCIe 5.0 x16, "3,352 AI TOPS" (FP4 with
  // sparsity) -> dense FP16 with FP16 accumulate 3,352 / 2 / 2 / 2 = 419, with FP32 accumulate (GeForce half rate) 209.5
  // (codesota.com prints "FP16 dense 209.5", spheron.network "838.4 FP16 sparse").
  // B200 in HGX B200: NVIDIA HGX table (HGX B200 column): FP8 9 PF*, FP16/BF16 4.5 PF*, TF32 2.2 PF*, FP32 75 TF,
  // FP64 37 TF, 180 GB, 7.7 TB/s, 1,000 W, NVLink 5 1.8 TB/s (* with sparsity).
  TEST_CASE("RTX 5090 and B200 match NVIDIA's published figures, dense") {
    const auto& c = Catalog::builtin();
    const GpuSpec& g = c.find_gpu("RTX 5090");
    CHECK(tflops(g, Precision::bf16) == doctest::Approx(3352.0 / 16).epsilon(1e-3));
    CHECK(tflops(g, Precision::fp8) == doctest::Approx(3352.0 / 8).epsilon(1e-3));
    CHECK(tflops(g, Precision::fp32) == doctest::Approx(104.8));
    CHECK(g.fp32_accumulate_half_rate);
    CHECK(g.memory == 32_GB);
    CHECK(g.memory_bandwidth == 1792_GBps);
    CHECK(g.tdp == 575_W);
    CHECK(g.pcie_generation == 5);
    const GpuSpec& b = c.find_gpu("B200");
    CHECK(tflops(b, Precision::fp8) == doctest::Approx(9000.0 / 2));
    CHECK(tflops(b, Precision::bf16) == doctest::Approx(4500.0 / 2));
    CHECK(tflops(b, Precision::tf32) == doctest::Approx(2200.0 / 2));
    CHECK(tflops(b, Precision::fp32) == doctest::Approx(75));
    CHECK(tflops(b, Precision::fp64) == doctest::Approx(37));
    CHECK(b.memory == 180_GB);
    CHECK(b.memory_bandwidth == 7.7_TBps);
    CHECK(b.tdp == 1000_W);
    CHECK(b.nvlink_bandwidth == 900_GBps);  // 1.8 TB/s total
  }

  // AMD launch table (zexron.com copy of AMD's MI200 figures), per package: MI250X 95.7 FP64/FP32 matrix, 383
  // FP16/BF16, 383 INT8, 128 GB HBM2e, 3.2 TB/s, 500 W; MI250 90.5 matrix, 362.1 FP16/BF16. The package is two
  // GCDs the OS sees as two GPUs of 64 GB (Pawsey Setonix user guide), so each entry is one GCD: half of each.
  // MI200 series rates are dense (CDNA 2 has no structured sparsity). EPYC 7763 (AMD product page, AnandTech
  // review, techgage launch price list): 64 cores / 128 threads, 280 W, 128 PCIe 4.0 lanes, 8 channels of
  // DDR4-3200, up to 4 TB, $7,890 (1ku).
  TEST_CASE("MI250 / MI250X (one GCD each) and the EPYC 7763 match AMD's figures") {
    const auto& c = Catalog::builtin();
    const GpuSpec& x = c.find_gpu("MI250X");
    CHECK(2 * tflops(x, Precision::fp64) == doctest::Approx(95.7));
    CHECK(2 * tflops(x, Precision::bf16) == doctest::Approx(383));
    CHECK(2 * tflops(x, Precision::int8) == doctest::Approx(383));
    CHECK(x.memory == 64_GB);
    CHECK(x.capacity() == 65520_MiB);  // 64 GiB less 16 MiB, as a gfx90a GCD reports it
    CHECK(x.memory_bandwidth == 1638.4_GBps);
    CHECK(x.tdp == 250_W);
    CHECK(&c.find_gpu("AMD Instinct MI250X 128GB") == &x);  // the package's old name still finds it
    const GpuSpec& m = c.find_gpu("MI250");
    CHECK(2 * tflops(m, Precision::fp64) == doctest::Approx(90.5));
    CHECK(2 * tflops(m, Precision::fp16) == doctest::Approx(362.1));
    CHECK(m.memory == 64_GB);
    const CpuSpec& e = c.find_cpu("EPYC 7763");
    CHECK(e.cores == 64);
    CHECK(e.threads == 128);
    CHECK(e.tdp == 280_W);
    CHECK(e.pcie_lanes == 128);
    CHECK(e.pcie_generation == 4);
    CHECK(e.memory_channels == 8);
    CHECK(e.memory_type == "DDR4-3200");
    CHECK(e.max_memory == 4_TB);
    CHECK(e.launch_price->amount == 7890_USD);
  }

  // Parts NVIDIA or Apple publish no tensor figure for stay without one, and say why.
  TEST_CASE("A10G and Apple M-series Ultra have no invented rates") {
    const auto& c = Catalog::builtin();
    const GpuSpec& a = c.find_gpu("A10G");
    for (Precision p : all_precisions) CHECK_FALSE(a.dense.has(p));
    CHECK(a.memory == 24_GB);
    CHECK(a.tdp == 300_W);  // nvidia-smi power limit on g5 instances
    CHECK(a.note.find("neither NVIDIA nor AWS publishes") != std::string::npos);
    for (const char* n : {"M2 Ultra", "M3 Ultra"}) {
      const GpuSpec& m = c.find_gpu(n);
      for (Precision p : all_precisions) CHECK_FALSE(m.dense.has(p));
      CHECK(m.note.find("publishes no peak") != std::string::npos);
    }
    CHECK(c.find_gpu("M2 Ultra").memory_bandwidth == 800_GBps);  // Apple newsroom, 2023-06-05
  }

  TEST_CASE("RTX 3090 Ti: tensor rates derived from GA10x's per-SM rates, above the RTX 3090's by SMs x clock") {
    // 84 SMs x 1,860 MHz against the RTX 3090's 82 x 1,695 (GA102 whitepaper): 1.124 x its 71 TFLOPS
    // with FP32 accumulate; a card with Tensor Cores is never left timed at FP32.
    const auto& c = Catalog::builtin();
    const GpuSpec& ti = c.find_gpu("RTX 3090 Ti");
    const GpuSpec& base = c.find_gpu("RTX 3090");
    REQUIRE(ti.dense.at(Precision::bf16));
    CHECK(ti.dense.at(Precision::bf16)->value() == doctest::Approx(80e12));
    CHECK(ti.dense.at(Precision::fp16)->value() == doctest::Approx(80e12));
    CHECK(ti.dense.at(Precision::tf32)->value() == doctest::Approx(40e12));
    CHECK(ti.dense.at(Precision::int8)->value() == doctest::Approx(320e12));
    const double scale = 84.0 * 1860 / (82.0 * 1695);
    CHECK(ti.dense.at(Precision::bf16)->value() == doctest::Approx(base.dense.at(Precision::bf16)->value() * scale).epsilon(0.01));
    for (const GpuSpec& g : c.gpus())
      if (g.vendor == Vendor::nvidia && g.form_factor == FormFactor::consumer) CHECK_MESSAGE(g.dense.at(Precision::fp16), g.id);
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
                          "runpod-rtx-4090", "vast-rtx-4090", "vast-a100-80gb", "lambda-gpu-1x-h100-sxm5",
                          "cn-rental-rtx-4090-low", "cn-rental-a100-high", "cn-rental-4x-a100", "colab-pro",
                          "ecs.gn7-c12g1.3xlarge", "ecs.gn7-c13g1.13xlarge", "ecs.gn7-c13g1.26xlarge"}) {
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

  TEST_CASE("the accelerators a 2026 buyer weighs resolve by their common names; at least 60 of them") {
    const auto& c = Catalog::builtin();
    CHECK(c.gpus().size() >= 60);
    const std::pair<const char*, const char*> named[] = {
        {"B300", "b300"}, {"GB200", "gb200"}, {"GB300", "gb300"}, {"H100 NVL", "h100-nvl"}, {"H200 NVL", "h200-nvl"},
        {"H20", "h20"}, {"H800", "h800-sxm"}, {"A800", "a800-sxm4-80gb"}, {"L40", "l40"}, {"L20", "l20"}, {"A40", "a40"},
        {"RTX PRO 6000", "rtx-pro-6000"}, {"RTX PRO 6000 Server", "rtx-pro-6000-server"}, {"RTX 5080", "rtx-5080"},
        {"RTX 5070 Ti", "rtx-5070-ti"}, {"RTX 5060 Ti 16GB", "rtx-5060-ti-16gb"}, {"RTX 4080 SUPER", "rtx-4080-super"},
        {"RTX 3070", "rtx-3070"}, {"RTX 3080", "rtx-3080"}, {"RTX 4000 Ada", "rtx-4000-ada"}, {"RTX 5000 Ada", "rtx-5000-ada"},
        {"DGX Spark", "dgx-spark"}, {"MI325X", "mi325x"}, {"MI350X", "mi350x"}, {"MI355X", "mi355x"}, {"W7900", "radeon-pro-w7900"},
        {"RX 7900 XTX", "rx-7900-xtx"}, {"Ryzen AI Max+ 395", "ryzen-ai-max-395"}, {"Gaudi 3", "gaudi3"}, {"M4 Max", "apple-m4-max"},
        {"M3 Ultra", "apple-m3-ultra"}};
    for (const auto& [typed, id] : named) {
      CAPTURE(typed);
      CHECK(c.find_gpu(typed).id == id);
    }
    // Usable memory where the part's runtime caps it: Metal's default 75 % on an M4 Max (96 GiB of
    // 128), the BIOS's 96 GB graphics carve-out on Strix Halo, nvidia-smi's total on an RTX PRO 6000.
    CHECK(c.find_gpu("M4 Max").capacity().value() == doctest::Approx(96.0 * 1024 * 1024 * 1024));
    CHECK(c.find_gpu("Ryzen AI Max+ 395").capacity().value() == doctest::Approx(96e9));
    CHECK(c.find_gpu("RTX PRO 6000").capacity().value() == doctest::Approx(97887.0 * 1024 * 1024));
    // Dense, not sparse: the B300's BF16 is half NVIDIA's 36 PF sparse per 8 GPUs; the MI355X's FP8
    // is AMD's dense 5,033.2 (10.1 PF is with sparsity); the RTX 5080's BF16 (FP32 accumulate) is
    // 1,801 AI TOPS (FP4, sparse) / 16.
    CHECK(c.find_gpu("B300").dense.at(Precision::bf16)->value() == doctest::Approx(36e15 / 8 / 2));
    CHECK(c.find_gpu("MI355X").dense.at(Precision::fp8)->value() == doctest::Approx(5033.2e12));
    CHECK(c.find_gpu("RTX 5080").dense.at(Precision::bf16)->value() == doctest::Approx(1801e12 / 16).epsilon(0.001));
  }

  TEST_CASE("rent-only accelerators: Google's TPUs and AWS Trainium as their providers publish them (catalog item 2)") {
    const auto& c = Catalog::builtin();
    const std::pair<const char*, const char*> named[] = {{"TPU v5e", "tpu-v5e"}, {"v5litepod", "tpu-v5e"}, {"TPU v5p", "tpu-v5p"},
                                                         {"Trillium", "tpu-v6e"},  {"TPU v6e", "tpu-v6e"},   {"Ironwood", "tpu7x"},
                                                         {"Trainium2", "trainium2"}, {"trn2", "trainium2"}, {"Trn1", "trainium"}};
    for (const auto& [typed, id] : named) {
      CAPTURE(typed);
      CHECK(c.find_gpu(typed).id == id);
    }
    // Google Cloud's TPU pages: per chip, and the ICI's all-reduce bandwidth of a 256-chip pod per chip.
    const GpuSpec& v5e = c.find_gpu("tpu-v5e");
    CHECK(v5e.dense.at(Precision::bf16)->value() == doctest::Approx(197e12));
    CHECK(v5e.dense.at(Precision::int8)->value() == doctest::Approx(393e12));
    CHECK(v5e.memory.value() == doctest::Approx(16e9));
    CHECK(v5e.memory_bandwidth.value() == doctest::Approx(819e9));
    CHECK(v5e.chip_link_bandwidth.value() == doctest::Approx(51.2e12 / 256));
    CHECK(v5e.chip_link_domain == 256);
    const GpuSpec& v6e = c.find_gpu("tpu-v6e");
    CHECK(v6e.dense.at(Precision::bf16)->value() == doctest::Approx(918e12));
    CHECK(v6e.memory.value() == doctest::Approx(32e9));
    CHECK(v6e.memory_bandwidth.value() == doctest::Approx(1638e9));
    CHECK(v6e.chip_link_bandwidth.value() == doctest::Approx(102.4e12 / 256));
    const GpuSpec& v5p = c.find_gpu("tpu-v5p");
    CHECK(v5p.memory.value() == doctest::Approx(95.0 * 1024 * 1024 * 1024));  // "HBM capacity per chip (GiB) | 95"
    CHECK(v5p.chip_link_bandwidth.value() == doctest::Approx(1200e9 / 2));    // half the bidirectional figure
    CHECK(v5p.chip_link_domain == 6144);                                       // the largest slice
    CHECK_FALSE(v5p.dense.has(Precision::fp8));                               // FP8 = BF16 rate, not stored
    // AWS Neuron's Trainium pages.
    const GpuSpec& trn2 = c.find_gpu("trainium2");
    CHECK(trn2.dense.at(Precision::bf16)->value() == doctest::Approx(667e12));
    CHECK(trn2.dense.at(Precision::fp8)->value() == doctest::Approx(1299e12));
    CHECK(trn2.memory.value() == doctest::Approx(96.0 * 1024 * 1024 * 1024));
    CHECK(trn2.memory_bandwidth.value() == doctest::Approx(2.9e12));
    CHECK(trn2.chip_link_domain == 16);
    CHECK(c.find_gpu("trainium").memory_bandwidth.value() == doctest::Approx(820.0 * 1024 * 1024 * 1024));
    for (const std::string id : {"tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu7x", "trainium2", "trainium"}) {
      CAPTURE(id);
      const GpuSpec& g = c.find_gpu(id);
      CHECK(g.form_factor == FormFactor::cloud);
      CHECK(g.tdp.value() == 0);  // no vendor publishes a chip power: energy is not estimated
      CHECK_FALSE(g.launch_price.has_value());
      CHECK_FALSE(g.street_price.has_value());
      CHECK(sparse_rate_suspects(g).empty());
    }
    // Offers, per chip-hour: SkyPilot's catalog rows (us-central1), AWS trn1.32xlarge (us-east-1).
    CHECK(c.find_offer("gcp-tpu-v5e").per_gpu_hour(PriceKind::on_demand) == MoneyRate("1.20", Currency::USD));
    CHECK(c.find_offer("gcp-tpu-v5p-8").per_gpu_hour(PriceKind::on_demand) == MoneyRate("4.20", Currency::USD));
    CHECK(c.find_offer("gcp-tpu-v6e").per_gpu_hour(PriceKind::reserved) == MoneyRate("1.89", Currency::USD));
    CHECK(c.find_offer("aws-trn1.32xlarge").per_gpu_hour(PriceKind::on_demand) == MoneyRate("1.34375", Currency::USD));
    // A chip link needs its bandwidth and its domain, and is not NVLink's or Infinity Fabric's twin.
    GpuSpec odd = v6e;
    odd.chip_link_bandwidth = Bandwidth{};
    CHECK(input_error_of([&] { odd.validate(); }).field() == "chip_link_domain");
    odd = c.find_gpu("H100 SXM");
    odd.chip_link_bandwidth = 400_GBps;
    odd.chip_link_domain = 256;
    CHECK(input_error_of([&] { odd.validate(); }).field() == "chip_link_bandwidth");
    // A power figure may be absent only where the vendor publishes none (SoCs, rent-only parts).
    odd = c.find_gpu("L40S");
    odd.tdp = Power{};
    CHECK(input_error_of([&] { odd.validate(); }).field() == "tdp");
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
    // "L40" and "L40S" are different parts: each name resolves to its own entry, never to its sibling.
    CHECK(c.find_gpu("L40").id == "l40");
    CHECK(c.find_gpu("L40S").id == "l40s");
    // "A30" is a real part that is not in the catalog: it must not silently resolve to a near name.
    const auto e = input_error_of([&] { (void)c.find_gpu("A30"); });
    CHECK(std::string(e.what()).find("not in the catalog") != std::string::npos);
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
    CHECK(Catalog::builtin().find_gpu("rtx4090").street_price->amount == Money("1819.99", Currency::USD));  // the built-in one is untouched
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
      // A package power limit below the TDP is a typo (Intel: PL2 >= PL1; AMD: PPT = 1.35 x TDP).
      CpuSpec cpu = Catalog::builtin().find_cpu("13900K");
      CHECK(full_load_power(cpu) == 253_W);  // Intel ARK: maximum turbo power
      CHECK(full_load_power(Catalog::builtin().find_cpu("7950X")) == 230_W);  // AMD: PPT 170 x 1.35
      CHECK(full_load_power(Catalog::builtin().find_cpu("EPYC 7763")) == 280_W);  // no max_power: its TDP
      cpu.max_power = 100_W;
      const auto e = input_error_of([&] { cpu.validate(); });
      CHECK(e.field() == "max_power");
      CHECK(std::string(e.what()).find("below the TDP 125 W") != std::string::npos);
      cpu.max_power = 5_kW;
      CHECK(input_error_of([&] { cpu.validate(); }).field() == "max_power");
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

  TEST_CASE("what a run is billed: hourly prices its hours, a monthly rent whole months, a reserved price at least its term, a Capacity Block whole days") {
    const auto& c = Catalog::builtin();
    const CloudOffer& p5 = c.find_offer("p5.48xlarge");
    CHECK(p5.billed_time(PriceKind::on_demand, 12_h).value() == doctest::Approx(12 * 3600.0));
    // An EC2 Capacity Block is booked for 1 to 14 days and extended by whole days (DescribeCapacityBlockOfferings,
    // CapacityDurationHours; "Extend Capacity Blocks"): 12 h bills a day, 30 h two, 15 days 15, 200 days 200.
    REQUIRE(p5.min_term);
    CHECK(p5.min_term->value() == doctest::Approx(24 * 3600.0));
    CHECK(p5.billed_time(PriceKind::reserved, 12_h).value() == doctest::Approx(24 * 3600.0));
    CHECK(p5.billed_time(PriceKind::reserved, 24_h).value() == doctest::Approx(24 * 3600.0));
    CHECK(p5.billed_time(PriceKind::reserved, 30_h).value() == doctest::Approx(48 * 3600.0));
    CHECK(p5.billed_time(PriceKind::reserved, 15_days).value() == doctest::Approx(15 * 86400.0));
    CHECK(p5.billed_time(PriceKind::reserved, 200_days).value() == doctest::Approx(200 * 86400.0));
    // Another term under a month has no sourced increment: at least the term, then the hours.
    CHECK(reserved_billed(50_h, 36_h).value() == doctest::Approx(50 * 3600.0));
    CHECK(reserved_billed(20_h, 36_h).value() == doctest::Approx(36 * 3600.0));
    // Bad inputs are named, never a NaN or an infinite bill.
    CHECK(input_error_of([] { (void)reserved_billed(10_h, Duration::from_value(0)); }).field() == "term");
    CHECK(input_error_of([] { (void)reserved_billed(10_h, Duration::from_value(-3600)); }).field() == "term");
    CHECK(input_error_of([] { (void)reserved_billed(Duration::from_value(-1), 1_day); }).field() == "run");
    CHECK(input_error_of([] { (void)reserved_billed(Duration::from_value(std::nan("")), 1_day); }).field() == "run");
    // DigitalOcean's MI350X: 12 months reserved, so 10 h bills 8,760 h.
    const CloudOffer& mi = c.find_offer("do-mi350x");
    CHECK(mi.billed_time(PriceKind::reserved, 10_h).value() == doctest::Approx(8760 * 3600.0));
    // A monthly rental: whole months of 730 h, at least one.
    const CloudOffer& r = c.find_offer("cn-rental-rtx-4090-low");
    CHECK(r.billed_time(PriceKind::monthly, 12_h).value() == doctest::Approx(730 * 3600.0));
    CHECK(r.billed_time(PriceKind::monthly, 730_h).value() == doctest::Approx(730 * 3600.0));
    CHECK(r.billed_time(PriceKind::monthly, 731_h).value() == doctest::Approx(1460 * 3600.0));
    CHECK(r.billed_time(PriceKind::monthly, 0_h).value() == doctest::Approx(730 * 3600.0));
    // With a 3-month minimum: 12 h bills three months, 2,500 h four.
    CloudOffer three = r;
    three.min_term = 3_months;
    three.validate();
    CHECK(three.billed_time(PriceKind::monthly, 12_h).value() == doctest::Approx(3 * 730 * 3600.0));
    CHECK(three.billed_time(PriceKind::monthly, 2500_h).value() == doctest::Approx(4 * 730 * 3600.0));
    // A price the offer lacks, a reserved price without its term, and a bad run are named.
    CHECK(input_error_of([&] { (void)r.billed_time(PriceKind::on_demand, 1_h); }).field() == "on_demand");
    CloudOffer no_term = p5;
    no_term.min_term.reset();
    CHECK_FALSE(no_term.billable(PriceKind::reserved));
    CHECK(no_term.billable(PriceKind::on_demand));
    CHECK(input_error_of([&] { (void)no_term.billed_time(PriceKind::reserved, 1_h); }).field() == "min_term");
    CHECK(input_error_of([&] { (void)p5.billed_time(PriceKind::on_demand, Duration::from_value(-1)); }).field() == "run");
    CHECK(input_error_of([&] { (void)p5.billed_time(PriceKind::on_demand, Duration::from_value(std::nan(""))); }).field() == "run");
    // Every built-in reserved price states its term.
    for (const CloudOffer& o : c.cloud_offers()) {
      if (o.has(PriceKind::reserved)) CHECK_MESSAGE(o.min_term.has_value(), o.id);
    }
  }

  TEST_CASE("a minimum term is checked: never for both a reserved and a monthly price, never 0, negative or absurd") {
    CloudOffer o = Catalog::builtin().find_offer("p5.48xlarge");
    o.monthly = Money("30000", Currency::USD);
    CHECK(input_error_of([&] { o.validate(); }).field() == "min_term");
    // Without a reserved or monthly price a term binds nothing: an older price file that drops the reserved
    // price of an offer keeps loading over the built-in one (whose term it does not mention).
    o = Catalog::builtin().find_offer("p5.48xlarge");
    o.reserved.reset();
    o.validate();
    CHECK(o.billed_time(PriceKind::on_demand, 1_h).value() == doctest::Approx(3600));
    o = Catalog::builtin().find_offer("p5.48xlarge");
    o.min_term = Duration::from_value(0);
    CHECK(input_error_of([&] { o.validate(); }).field() == "min_term");
    o.min_term = Duration::from_value(-3600);
    CHECK(input_error_of([&] { o.validate(); }).field() == "min_term");
    o.min_term = Duration::from_value(20 * 8760 * 3600.0);
    CHECK(input_error_of([&] { o.validate(); }).field() == "min_term");
    o.min_term = Duration::from_value(std::nan(""));
    CHECK(input_error_of([&] { o.validate(); }).field() == "min_term");
  }

  TEST_CASE("per-GPU-hour is the instance price divided by its GPUs") {
    const auto& c = Catalog::builtin();
    const CloudOffer& p5 = c.find_offer("p5.48xlarge");
    CHECK(p5.gpu_count == 8);
    CHECK(p5.per_instance_hour(PriceKind::on_demand) == MoneyRate("55.04", Currency::USD));
    CHECK(p5.per_gpu_hour(PriceKind::on_demand) == MoneyRate("6.88", Currency::USD));  // 55.04 / 8, exact
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

  // Alibaba Cloud gn7 (A100 40GB, NVSwitch), cn-shanghai, list prices of June 2023 from Alibaba's price estimator as
  // published in "GPU Prices Quick Reference" (2023-06-17): 31.58 / 126.33 / 252.66 CNY per hour and 15,160 / 60,640 /
  // 121,280 CNY per month for 1 / 4 / 8 GPUs; 12 / 52 / 104 vCPUs and 94 / 378 / 756 GiB per Alibaba's
  // instance-family page. Exact: prices are stored as published.
  TEST_CASE("Alibaba Cloud gn7 offers match the published prices and instance types") {
    const auto& c = Catalog::builtin();
    struct Row { const char* type; int gpus; int vcpus; DataSize ram; const char* hourly; const char* monthly; };
    for (const Row& r : {Row{"ecs.gn7-c12g1.3xlarge", 1, 12, 94_GiB, "31.58", "15160"},
                         Row{"ecs.gn7-c13g1.13xlarge", 4, 52, 378_GiB, "126.33", "60640"},
                         Row{"ecs.gn7-c13g1.26xlarge", 8, 104, 756_GiB, "252.66", "121280"}}) {
      CAPTURE(r.type);
      const CloudOffer& o = c.find_offer(r.type);
      CHECK(o.provider == "Alibaba Cloud");
      CHECK(o.region == "cn-shanghai");
      CHECK(o.gpu_id == "a100-sxm-40gb");
      CHECK(o.gpu_count == r.gpus);
      CHECK(o.vcpus == r.vcpus);
      CHECK(o.ram == r.ram);
      CHECK(o.currency == Currency::CNY);
      CHECK(o.per_instance_hour(PriceKind::on_demand) == MoneyRate(r.hourly, Currency::CNY));
      CHECK(*o.monthly == Money(r.monthly, Currency::CNY));
      CHECK(o.as_of == "2023-06-17");
      CHECK(o.headline() == PriceKind::on_demand);
    }
    // Per GPU-hour: 126.33 / 4 = 31.5825 and 252.66 / 8 = 31.5825 CNY, within 0.01 % of the 1-GPU 31.58.
    CHECK(c.find_offer("ecs.gn7-c13g1.26xlarge").per_gpu_hour() == MoneyRate("31.5825", Currency::CNY));
    CHECK(c.find_offer("alibaba-gn7-c13g1.13xlarge").per_gpu_hour() == MoneyRate("31.5825", Currency::CNY));
    // The monthly subscription costs 480 hours of pay-as-you-go: 15,160 / 31.58 = 480.05.
    const CloudOffer& one = c.find_offer("ecs.gn7-c12g1.3xlarge");
    CHECK(one.monthly->amount().to_double() / one.on_demand->amount().to_double() == doctest::Approx(480.05).epsilon(1e-4));
    // Dated June 2023, so the stale-price check flags them on the catalog's recording date.
    CHECK(has_warning(stale_prices(c, "2026-11-21", 365), WarningKind::stale_price,
                      "cloud offer alibaba-gn7-c12g1.3xlarge", "on_demand"));
  }

  // AWS on-demand list prices, us-east-1, as of 2025-11-30 (instances.vantage.sh data as recorded in tsaol/aws-gpu):
  // p4d.24xlarge $21.957642 (was $32.7726 before the June 2025 cut), p5.48xlarge $55.04 (was $98.32), g5.12xlarge
  // $5.672 and g6.xlarge $0.8048 (unchanged). Exact.
  TEST_CASE("AWS (2025-11-30), Azure ND H100 v5 (2026-05-25) and GCP a2-highgpu-1g (2026-10-04) prices match the dated price data") {
    const auto& c = Catalog::builtin();
    struct Row { const char* type; const char* hourly; const char* per_gpu; };
    for (const Row& r : {Row{"p4d.24xlarge", "21.957642", "2.74470525"}, Row{"p5.48xlarge", "55.04", "6.88"},
                         Row{"g5.12xlarge", "5.672", "1.418"}, Row{"g6.xlarge", "0.8048", "0.8048"}}) {
      CAPTURE(r.type);
      const CloudOffer& o = c.find_offer(r.type);
      CHECK(o.region == "us-east-1");
      CHECK(o.as_of == "2025-11-30");
      CHECK(*o.on_demand == MoneyRate(r.hourly, Currency::USD));
      CHECK(o.per_gpu_hour(PriceKind::on_demand) == MoneyRate(r.per_gpu, Currency::USD));
      CHECK(o.source.find("Last updated: 2025-11-30") != std::string::npos);
    }
    // Lambda 1 x A100 40GB, lambda.ai/pricing as checked on 2026-10-07: $1.99/h (was $1.48 on 2026-05-07).
    const CloudOffer& la = c.find_offer("lambda-gpu-1x-a100-sxm4");
    CHECK(la.as_of == "2026-10-07");
    CHECK(la.per_gpu_hour() == MoneyRate("1.99", Currency::USD));
    // GCP a2-highgpu-1g (us-central1), gcloud-compute.com mirror updated 2026-10-04: $3.6734 on demand, $2.204 spot
    // (0.600 of on-demand; spot prices move up to once a month: a note of 2026-08-30 has $2.1208).
    const CloudOffer& a2 = c.find_offer("a2-highgpu-1g");
    CHECK(a2.as_of == "2026-10-04");
    CHECK(*a2.on_demand == MoneyRate("3.6734", Currency::USD));
    CHECK(*a2.spot == MoneyRate("2.204", Currency::USD));
    CHECK(a2.on_demand->amount().to_double() * 8 == doctest::Approx(29.38708).epsilon(1e-5));  // the 8g, 8 x as much
    // Azure ND96isr H100 v5 (East US), instances.vantage.sh as fetched on 2026-05-25: $98.32 pay-as-you-go, $63.40
    // with a 1-year reservation ($12.29 and $7.925 per GPU-hour).
    const CloudOffer& nd = c.find_offer("azure-nd96isr-h100-v5");
    CHECK(nd.as_of == "2026-05-25");
    CHECK(nd.per_gpu_hour(PriceKind::on_demand) == MoneyRate("12.29", Currency::USD));
    CHECK(nd.per_gpu_hour(PriceKind::reserved) == MoneyRate("7.925", Currency::USD));
    // The June 2025 cut: p5 55.04 / 98.32 = 0.560 (AWS: "up to 45%"), p4d 21.957642 / 32.7726 = 0.670.
    CHECK(c.find_offer("p5.48xlarge").on_demand->amount().to_double() / 98.32 == doctest::Approx(0.5598).epsilon(1e-3));
    CHECK(c.find_offer("p4d.24xlarge").on_demand->amount().to_double() / 32.7726 == doctest::Approx(0.670).epsilon(1e-3));
  }

  // Parts that price or power the A100 servers. DDR4-3200 64GB RDIMM: Samsung M393A8G40AB2-CWE, eBay active asks of
  // 2026-06-30 (n = 26), $500-668. ConnectX-7 MCX75310AAS-NEAT: NVIDIA ConnectX-7 user manual, Specifications,
  // "Typical power with passive cables in PCIe Gen 5.0 x16" 24.9 W. Exact.
  TEST_CASE("DDR4 RDIMM and 4U chassis street prices and ConnectX-7 typical power match their sources") {
    const auto& c = Catalog::builtin();
    const MemoryModule& m = c.find_memory_module("ddr4-3200-rdimm-64gb");
    REQUIRE(m.street_price.has_value());
    CHECK(m.street_price->amount == 500_USD);
    REQUIRE(m.street_price->high.has_value());
    CHECK(*m.street_price->high == 668_USD);
    CHECK(m.street_price->as_of == "2026-06-30");
    CHECK(m.street_price->source.find("M393A8G40AB2-CWE") != std::string::npos);
    CHECK_FALSE(m.power.has_value());  // no vendor figure per module
    // 4U chassis priced as the SilverStone RM44: $385 (tracker benchmark median, 2026-05-16).
    const Chassis& ch = c.find_chassis("generic-4u-gpu-chassis");
    REQUIRE(ch.street_price.has_value());
    CHECK(ch.street_price->amount == 385_USD);
    CHECK(ch.street_price->as_of == "2026-05-16");
    CHECK(ch.name.find("SilverStone RM44") != std::string::npos);
    const NetworkAdapter& cx7 = c.find_network_adapter("connectx-7-ndr-400g");
    REQUIRE(cx7.power.has_value());
    CHECK(*cx7.power == 24.9_W);
    CHECK(cx7.port_speed == 400_Gbps);
    CHECK(cx7.pcie_generation == 5);
    // The ConnectX-6 cards keep no power figure: none was found in a stored copy of NVIDIA's manuals.
    CHECK_FALSE(c.find_network_adapter("connectx-6-hdr-200g").power.has_value());
    CHECK_FALSE(c.find_network_adapter("connectx-6-dx-100gbe").power.has_value());
  }

  TEST_CASE("DGX enclosures: DGX A100 is 6U, DGX H100 8U (NVIDIA user guides)") {
    const Catalog& c = Catalog::builtin();
    CHECK(c.find_chassis("nvidia-dgx-a100-chassis").rack_units == 6);
    CHECK(c.find_chassis("nvidia-dgx-h100-chassis").rack_units == 8);
    const auto enclosure = [&](std::string_view system) {
      for (const auto& part : c.find_system(system).parts)
        if (part.kind == PartKind::chassis) return c.find_chassis(part.id).rack_units;
      return 0;
    };
    CHECK(enclosure("DGX A100") == 6);
    CHECK(enclosure("DGX H100") == 8);
  }

  TEST_CASE("card sizes: Founders Edition and data-centre cards as their makers give them") {
    const Catalog& c = Catalog::builtin();
    // Tom's Hardware / TechPowerUp: RTX 4090 FE 304 x 137 x 61 mm, three slots; NVIDIA H100 PCIe product
    // brief PB-11133: dual slot, 10.5 in, passive; T4 brief: single slot, 6.6 in, passive.
    CHECK(c.find_gpu("rtx-4090").slot_width == 3);
    CHECK(c.find_gpu("rtx-4090").length == 304_mm);
    CHECK(c.find_gpu("rtx-4090").cooling == GpuCooling::open_air);
    CHECK(c.find_gpu("h100-pcie").slot_width == 2);
    CHECK(c.find_gpu("h100-pcie").length.value() == doctest::Approx(0.2667));
    CHECK(c.find_gpu("h100-pcie").cooling == GpuCooling::passive);
    CHECK(c.find_gpu("t4").slot_width == 1);
    CHECK(c.find_gpu("rtx-5090").slot_width == 2);
    CHECK(c.find_gpu("rtx-6000-ada").cooling == GpuCooling::blower);
    // Not recorded stays 0, never a guess: the RTX 5070 Ti has no Founders Edition.
    CHECK(c.find_gpu("rtx-5070-ti").slot_width == 0);
    CHECK(c.find_gpu("rtx-5070-ti").length.value() == 0);
    // Every priced PCIe or consumer card a build may propose: the sizes, when recorded, are sane.
    for (const GpuSpec& g : c.gpus()) {
      if (g.slot_width > 0) CHECK(g.slot_width <= 4);
      if (g.length.value() > 0) CHECK((g.length > 150_mm && g.length < 400_mm));
    }
    GpuSpec bad = c.find_gpu("rtx-4090");
    bad.slot_width = 9;
    CHECK(std::string(input_error_of([&] { bad.validate(); }).what()).find("slot_width") != std::string::npos);
  }

  TEST_CASE("modules are bought on baseboards: the smallest board each ships on") {
    const Catalog& c = Catalog::builtin();
    // H100 / H200 datasheets: HGX with 4 or 8 GPUs; A100 datasheet: 4, 8 or 16; B200 only in 8-GPU HGX /
    // DGX; AMD's MI300X platform: 8 OAM on a UBB; GB200 in NVL72 racks.
    CHECK(purchase_unit_gpus(c.find_gpu("h100-sxm")) == 4);
    CHECK(purchase_unit_gpus(c.find_gpu("h200-sxm")) == 4);
    CHECK(purchase_unit_gpus(c.find_gpu("a100-sxm-80gb")) == 4);
    CHECK(purchase_unit_gpus(c.find_gpu("b200")) == 8);
    CHECK(purchase_unit_gpus(c.find_gpu("mi300x")) == 8);
    CHECK(purchase_unit_gpus(c.find_gpu("gb200")) == 72);
    // Cards and SoCs one at a time.
    CHECK(purchase_unit_gpus(c.find_gpu("h100-pcie")) == 1);
    CHECK(purchase_unit_gpus(c.find_gpu("rtx-4090")) == 1);
    // Every module records its board; a catalog file's module without one is taken as 8 (HGX, UBB).
    for (const GpuSpec& g : c.gpus()) {
      if (g.form_factor == FormFactor::sxm || g.form_factor == FormFactor::oam) CHECK_MESSAGE(g.board_gpus > 0, g.id);
    }
    GpuSpec module = c.find_gpu("h100-sxm");
    module.board_gpus = 0;
    CHECK(purchase_unit_gpus(module) == 8);
    // Only modules ship on boards: a card with a board size is refused, naming the field and the value.
    GpuSpec card = c.find_gpu("rtx-4090");
    card.board_gpus = 4;
    const std::string e = input_error_of([&] { card.validate(); }).what();
    CHECK(e.find("board_gpus") != std::string::npos);
    CHECK(e.find("4") != std::string::npos);
    module.board_gpus = 2000;
    CHECK(std::string(input_error_of([&] { module.validate(); }).what()).find("board_gpus") != std::string::npos);
  }

  TEST_CASE("motherboards: sockets, slot positions, and where N cards of a width go") {
    const Catalog& c = Catalog::builtin();
    const Motherboard& romed = c.find_motherboard("ROMED8-2T");
    // tomshw.it: seven PCIe 4.0 x16 slots on an ATX board, eight DDR4 RDIMM slots, SP3; slot 2 shared.
    CHECK(romed.socket == "SP3");
    CHECK(romed.slots.size() == 7);
    CHECK(romed.dimm_slots == 8);
    CHECK(romed.registered);
    CHECK(c.find_cpu("epyc-7763").socket == romed.socket);
    // Two-slot cards: slot 2 (x8) is skipped at x16 and covered anyway: slots 1, 3, 5, 7.
    std::vector<PcieSlot> four = place_cards(romed, 4, 2, 16, 0);
    REQUIRE(four.size() == 4);
    CHECK(four[0].position == 1);
    CHECK(four[3].position == 7);
    // Three-slot cards (an RTX 4090 FE): 1, 4, 7; a fourth does not fit; the third overhangs into
    // positions 8 and 9, so an 8-position case takes only two.
    CHECK(place_cards(romed, 3, 3, 8, 9).size() == 3);
    CHECK(place_cards(romed, 4, 3, 8, 0).empty());
    CHECK(place_cards(romed, 3, 3, 8, 8).empty());
    CHECK(place_cards(romed, 2, 3, 8, 8).size() == 2);
    // A free position below each card but the last (open-air cards): 2-slot cards at 1, 4, 7.
    const std::vector<PcieSlot> spaced = place_cards(romed, 3, 2, 8, 0, 1);
    REQUIRE(spaced.size() == 3);
    CHECK(spaced[1].position == 4);
    CHECK(spaced[2].position == 7);
    CHECK(place_cards(romed, 4, 2, 8, 0, 1).empty());
    CHECK_THROWS_AS(place_cards(romed, 2, 2, 8, 0, -1), InputError);
    // Bad slot lists name the field.
    Motherboard bad = romed;
    bad.slots[2].position = 2;
    CHECK(std::string(input_error_of([&] { bad.validate(); }).what()).find("slots[2].position") != std::string::npos);
    bad = romed;
    bad.slots[0].lanes = 32;
    CHECK(std::string(input_error_of([&] { bad.validate(); }).what()).find("slots[0].lanes") != std::string::npos);
    bad = romed;
    bad.slots[0].generation = 7;  // no PCIe 7.0 rate to print or time
    CHECK(std::string(input_error_of([&] { bad.validate(); }).what()).find("slots[0].generation") != std::string::npos);
    CHECK_THROWS_AS(place_cards(romed, 0, 2, 8, 0), InputError);
    CHECK_THROWS_AS(place_cards(romed, 2, 9, 8, 0), InputError);
    bad = romed;
    bad.socket.clear();
    CHECK(std::string(input_error_of([&] { bad.validate(); }).what()).find("socket") != std::string::npos);
    // A board in a system is a part like any other: priced when it has a price.
    Catalog mine = Catalog::make_builtin();
    Motherboard priced = romed;
    priced.street_price = PricePoint{Money("649", Currency::USD), "2026-11-01", "a test price"};
    mine.add_or_replace(priced);
    CHECK(mine.part_price(PartKind::motherboard, "asrock-rack-romed8-2t")->amount == Money("649", Currency::USD));
  }

  TEST_CASE("GPU slots: the link each GPU runs at from the machine's CPU lanes or its board's slots") {
    // The width arithmetic: all at their own width where the lanes suffice, else the widest power of two each gets.
    CHECK(lanes_per_card(16, 1, 20) == 16);
    CHECK(lanes_per_card(16, 2, 20) == 8);   // a desktop CPU's lanes: x8/x8
    CHECK(lanes_per_card(16, 2, 32) == 16);
    CHECK(lanes_per_card(16, 3, 20) == 4);
    CHECK(lanes_per_card(8, 2, 20) == 8);    // x8 cards (RTX 4060 Ti) keep x8
    CHECK(lanes_per_card(16, 4, 0) == 1);    // no free lanes: x1 (a switch would be needed)
    CHECK(lanes_per_card(0, 2, 20) == 0);    // no PCIe link
    const Catalog& c = Catalog::builtin();
    // AMD: the Ryzen 9 7950X has 28 lanes, 4 link the chipset; one NVMe drive takes 4 more: 20 free.
    CHECK(c.find_cpu("ryzen-9-7950x").chipset_lanes == 4);
    const GpuSlots two = gpu_slots(c.find_system("ws-2x-rtx-4090"), c);
    CHECK(two.lanes == 8);
    CHECK(two.generation == 4);  // the RTX 4090's PCIe 4.0 on a PCIe 5.0 CPU
    CHECK(two.narrowed);
    CHECK(two.basis.find("PCIe 4.0 x8 each") == 0);
    CHECK(two.basis.find("20 free lanes") != std::string::npos);
    CHECK(two.basis.find("4 link the chipset") != std::string::npos);
    const GpuSpec timed = two.apply(c.find_gpu("rtx-4090"));
    CHECK(timed.pcie_lanes == 8);
    CHECK(timed.id == "rtx-4090");
    const GpuSlots one = gpu_slots(c.find_system("ws-rtx-4090"), c);
    CHECK(one.lanes == 16);
    CHECK_FALSE(one.narrowed);
    // An NVLink baseboard's GPUs sit behind PCIe switches: their own width.
    const GpuSlots dgx = gpu_slots(c.find_system("dgx-h100"), c);
    CHECK(dgx.lanes == 16);
    CHECK(dgx.generation == 5);
    CHECK_FALSE(dgx.narrowed);
    // A board listed: its widest slots (the ROMED8-2T's seven, one of them x8) decide.
    SystemSpec s;
    s.id = "romed-box";
    s.topology = Topology::nvlink_bridge;  // 3090s on the CPU's root ports
    s.parts = {{PartKind::gpu, "rtx-3090", 4}, {PartKind::cpu, "epyc-7763", 1}, {PartKind::motherboard, "asrock-rack-romed8-2t", 1}};
    CHECK(gpu_slots(s, c).lanes == 16);
    CHECK_FALSE(gpu_slots(s, c).narrowed);
    s.parts[0].count = 7;
    CHECK(gpu_slots(s, c).lanes == 8);
    CHECK(gpu_slots(s, c).basis.find("ASRock Rack ROMED8-2T") != std::string::npos);
    // A PCIe 5.0 card on a PCIe 4.0 CPU runs at 4.0.
    s.parts = {{PartKind::gpu, "rtx-5090", 2}, {PartKind::cpu, "epyc-7763", 1}};
    const GpuSlots older = gpu_slots(s, c);
    CHECK(older.lanes == 16);
    CHECK(older.generation == 4);
    CHECK(older.narrowed);
    CHECK(older.basis.find("the older of rtx-5090's 5.0") != std::string::npos);
    // No CPU listed (a baseboard): the card's own link.
    CHECK_FALSE(gpu_slots(c.find_system("hgx-h100-8gpu"), c).narrowed);
    // A server whose GPUs sit behind PCIe switches keeps x16, however few the CPU's lanes.
    s.topology = Topology::pcie_switch;
    s.parts = {{PartKind::gpu, "l40s", 8}, {PartKind::cpu, "epyc-9654", 1}};
    CHECK(gpu_slots(s, c).lanes == 16);
    CHECK(gpu_slots(s, c).basis.find("behind PCIe switches") != std::string::npos);
    // Two EPYC sockets give 64 lanes each to the link between them: 128 left. 8 cards fit at x16 with no
    // drive; a server's drive takes 4 more, and the cards drop to x8.
    s.topology = Topology::pcie_no_p2p;
    s.parts = {{PartKind::gpu, "rtx-4090", 8}, {PartKind::cpu, "epyc-7763", 2}};
    CHECK(gpu_slots(s, c).lanes == 16);
    s.parts.push_back({PartKind::storage, "samsung-990-pro-2tb", 1});
    CHECK(gpu_slots(s, c).lanes == 8);
    CHECK(gpu_slots(s, c).basis.find("128 link the sockets") != std::string::npos);
    // A desktop's further drives hang off the chipset: three drives take 4 of the 7950X's lanes, not 12.
    SystemSpec ws = c.find_system("ws-2x-rtx-4090");
    for (SystemPart& p : ws.parts)
      if (p.kind == PartKind::storage) p.count = 3;
    CHECK(gpu_slots(ws, c).lanes == 8);
    CHECK(gpu_slots(ws, c).basis.find("further drives on the chipset") != std::string::npos);
    // Four cards on that CPU: x4 each; a board listed cannot widen them.
    for (SystemPart& p : ws.parts)
      if (p.kind == PartKind::gpu) p.count = 4;
    CHECK(gpu_slots(ws, c).lanes == 4);
    ws.parts.push_back({PartKind::motherboard, "asrock-rack-romed8-2t", 1});
    CHECK(gpu_slots(ws, c).lanes == 4);
    // A CPU that records no lanes leaves the cards their own width (a board's slots may still narrow them).
    Catalog mine = Catalog::make_builtin();
    CpuSpec unknown = c.find_cpu("ryzen-9-7950x");
    unknown.id = "no-lanes-cpu";
    unknown.name = "No-lanes CPU";
    unknown.aliases = {};
    unknown.pcie_lanes = 0;
    unknown.chipset_lanes = 0;
    mine.add_or_replace(unknown);
    SystemSpec bare = c.find_system("ws-2x-rtx-4090");
    for (SystemPart& p : bare.parts)
      if (p.kind == PartKind::cpu) p.id = "no-lanes-cpu";
    CHECK(gpu_slots(bare, mine).lanes == 16);
    CHECK(gpu_slots(bare, mine).basis.find("records no PCIe lanes") != std::string::npos);
    // The arithmetic the sizing uses: a desktop CPU's free lanes, one drive on the CPU.
    CHECK(cpu_free_lanes(c.find_cpu("ryzen-9-7950x"), 3) == 20);
    CHECK(cpu_free_lanes(c.find_cpu("epyc-7763"), 3) == 116);
    CHECK(cpu_free_lanes(unknown, 1) == 0);
    // A chipset link larger than the CPU's lanes names the field.
    CpuSpec bad = c.find_cpu("ryzen-9-7950x");
    bad.chipset_lanes = 40;
    CHECK(std::string(input_error_of([&] { bad.validate(); }).what()).find("chipset_lanes") != std::string::npos);
    bad = c.find_cpu("ryzen-9-7950x");
    bad.memory_speed_2dpc = -1;
    CHECK(std::string(input_error_of([&] { bad.validate(); }).what()).find("memory_speed_2dpc") != std::string::npos);
  }

  TEST_CASE("system price: given, derived from parts, or unknown with the missing parts") {
    Catalog c = Catalog::make_builtin();
    // DGX A100 launch price (NVIDIA newsroom, 2020-05-14); DGX H100: SemiAnalysis estimate, ~$270,000 (May 2023).
    CHECK(*c.system_price(c.find_system("DGX A100")).low == 199000_USD);
    CHECK(*c.system_price(c.find_system("DGX H100")).low == 270000_USD);
    // HGX H100: 8 x the H100's street price, $28,750-31,904.63 a GPU (Epoch AI's price data: an 8-GPU baseboard at
    // $230,000 and an HGX H100 at $255,237.04, 2025).
    const SystemPrice hgx = c.system_price(c.find_system("HGX H100"));
    REQUIRE(hgx.known());
    CHECK_FALSE(hgx.given);
    CHECK(*hgx.low == 230000_USD);
    CHECK(*hgx.high == Money("255237.04", Currency::USD));
    // DGX B200: a reseller's listing, 8 x $47,409.13 (Epoch AI's price data, 2024-12-17); its B200s have no price.
    const SystemPrice dgx_b200 = c.system_price(c.find_system("DGX B200"));
    REQUIRE(dgx_b200.known());
    CHECK(dgx_b200.given);
    CHECK(*dgx_b200.low == Money("379273.04", Currency::USD));
    CHECK(dgx_b200.as_of == "2024-12-17");
    // Single-GPU workstations are priced from their parts, every part at its street price in one PCPartPicker
    // snapshot (2025-07-23); the GPU's is a range, the lowest to the median listing. RTX 4090: 1,819.99-3,089 + 449.96
    // (7950X) + 2 x 69.995 (DDR5-5600 32GB) + 149.99 (990 PRO) + 209.95 (RM1000x) + 224.99 (full tower) = 2,994.87-4,263.88.
    const SystemPrice ws = c.system_price(c.find_system("ws-rtx-4090"));
    REQUIRE(ws.known());
    CHECK_FALSE(ws.given);
    CHECK(ws.missing.empty());
    CHECK(*ws.low == Money("2994.87", Currency::USD));
    REQUIRE(ws.high.has_value());
    CHECK(*ws.high == Money("4263.88", Currency::USD));
    CHECK(ws.as_of == "2025-07-23");  // one as-of date for the whole build
    // 3060: 256.98-429.95 + 449.96 + 139.99 + 149.99 + 198.98 (RM850x) + 224.99 = 1,420.89-1,593.86; 4060 Ti 16GB:
    // 449.99-681.515 + ... = 1,613.90-1,845.425; RTX 6000 Ada (one listing): 6,974 + 449.96 + 139.99 + 149.99 + 209.95 +
    // 224.99 = 8,148.88; 2 x 4090: 2 x 1,819.99-3,089 + 449.96 + 139.99 + 149.99 + 258.99 (HX1500i) + 224.99 = 4,863.90-7,401.92.
    CHECK(*c.system_price(c.find_system("ws-rtx-3060")).low == Money("1420.89", Currency::USD));
    CHECK(*c.system_price(c.find_system("ws-rtx-3060")).high == Money("1593.86", Currency::USD));
    CHECK(*c.system_price(c.find_system("ws-rtx-4060-ti-16gb")).low == Money("1613.9", Currency::USD));
    CHECK(*c.system_price(c.find_system("ws-rtx-4060-ti-16gb")).high == Money("1845.425", Currency::USD));
    CHECK(*c.system_price(c.find_system("ws-rtx-6000-ada")).low == Money("8148.88", Currency::USD));
    CHECK_FALSE(c.system_price(c.find_system("ws-rtx-6000-ada")).high.has_value());
    CHECK(*c.system_price(c.find_system("2 x RTX 4090")).low == Money("4863.9", Currency::USD));
    CHECK(*c.system_price(c.find_system("2 x RTX 4090")).high == Money("7401.92", Currency::USD));
    for (const char* id : {"ws-rtx-3060", "ws-rtx-4060-ti-16gb", "ws-rtx-6000-ada", "2 x RTX 4090"}) {
      CAPTURE(id);
      CHECK(c.system_price(c.find_system(id)).as_of == "2025-07-23");
    }
    // The 4 x A100 server has a part without a sourced price (the ConnectX-6 NICs): unknown, with the missing part and
    // the priced subtotal (4 x $8,000-15,000 + 2 x $7,890 + 16 x $500-668 (DDR4 RDIMM, eBay asks of 2026-06-30) +
    // 2 x $149.99 + $385 (4U chassis priced as a SilverStone RM44, 2026-05-16)).
    const SystemPrice four = c.system_price(c.find_system("server-4x-a100-80gb-nvlink"));
    CHECK_FALSE(four.known());
    CHECK(four.missing == std::vector<std::string>{"network connectx-6-hdr-200g"});
    CHECK(*four.priced_parts_low == Money("56464.98", Currency::USD));
    CHECK(*four.priced_parts_high == Money("87152.98", Currency::USD));
    // Price the missing parts (user entries, as a price file would) and the price is derived: count x price.
    MemoryModule m = c.find_memory_module("ddr4-3200-rdimm-64gb");
    m.street_price = PricePoint{.amount = Money("250", Currency::USD), .as_of = "2026-11-01", .source = "test"};
    c.add_or_replace(m);
    NetworkAdapter n = c.find_network_adapter("connectx-6-hdr-200g");
    n.street_price = PricePoint{.amount = Money("900", Currency::USD), .as_of = "2026-11-01", .source = "test"};
    c.add_or_replace(n);
    Chassis ch = c.find_chassis("generic-4u-gpu-chassis");
    ch.street_price = PricePoint{.amount = Money("2000", Currency::USD), .as_of = "2026-11-01", .source = "test"};
    c.add_or_replace(ch);
    const SystemPrice d = c.system_price(c.find_system("server-4x-a100-80gb-nvlink"));
    REQUIRE(d.known());
    // 48,079.98 + 16 x 250 + 4 x 900 + 2,000 = 57,679.98 (and 85,679.98 at the high end of the A100 range).
    CHECK(*d.low == Money("57679.98", Currency::USD));
    CHECK(*d.high == Money("85679.98", Currency::USD));
    CHECK(d.as_of == "2021-03-15");  // the EPYC 7763 launch price
    // Two nodes of the same: twice the price.
    SystemSpec two = c.find_system("ws-rtx-4090");
    two.id = "two-ws";
    two.name = "Two workstations";
    two.nodes = 2;
    c.add_or_replace(two);
    CHECK(*c.system_price(c.find_system("two-ws")).low == Money("5989.74", Currency::USD));
    CHECK(*c.system_price(c.find_system("two-ws")).high == Money("8527.76", Currency::USD));
    // A system naming a part the catalog lacks is refused.
    SystemSpec bad = two;
    bad.id = "bad";
    bad.name = "bad";
    bad.parts.push_back({PartKind::storage, "no-such-ssd", 1});
    CHECK_THROWS_AS(c.add_or_replace(bad), LookupError);
  }

  // Source material (issue 3): "A100 80GB + EPYC 7763 + 512 GB DDR5 + NVMe/HDD + 1600 W PSU + 4U chassis",
  // $20.4k-28.6k. The system keeps that range as its given price; parts_price derives one from sourced part prices:
  // A100 80GB PCIe $8,000-15,000 (aitooldiscovery.com, 2026-03-20), EPYC 7763 $7,890 (AMD 1ku launch price,
  // techgage), 8 x DDR4-3200 64GB RDIMM $500-668 (eBay asks, 2026-06-30), 990 PRO 2TB $149.99 and AX1600i $609.99
  // (PCPartPicker, 2025-07-23), Exos X18 18TB $369.99-529.99 (listings of 2026-09-22), 4U chassis $385 (priced as a
  // SilverStone RM44, tracker benchmark of 2026-05-16). Every part is priced, so the derived price is known:
  // $21,404.97-29,908.97. Its low end lies inside the source's range; its high end is above it, because the 2026
  // RDIMM asks are far above what the (undated) source material assumed for memory.
  TEST_CASE("the A100 + EPYC 7763 build: sourced parts against the source material's $20.4k-28.6k") {
    const auto& c = Catalog::builtin();
    const SystemSpec& s = c.find_system("build-a100-80gb-epyc-7763");
    const SystemPrice given = c.system_price(s);
    REQUIRE(given.given);
    CHECK(*given.low == 20400_USD);
    CHECK(*given.high == 28600_USD);
    const SystemPrice parts = c.parts_price(s);
    CHECK_FALSE(parts.given);
    REQUIRE(parts.known());
    CHECK(parts.missing.empty());
    CHECK(*parts.low == Money("21404.97", Currency::USD));
    CHECK(*parts.high == Money("29908.97", Currency::USD));
    CHECK(parts.as_of == "2021-03-15");  // the oldest part price: the EPYC 7763 launch price
    // Low end inside the range ($1,004.97 above its bottom); high end $1,308.97 above its top.
    CHECK(*parts.low - *given.low == Money("1004.97", Currency::USD));
    CHECK(*parts.low <= *given.high);
    CHECK(*parts.high - *given.high == Money("1308.97", Currency::USD));
    // With the memory and chassis priced by a user price file (here $300 per 64 GB RDIMM, replacing the built-in eBay
    // range, and $1,000 for the chassis), the whole derived range 20,419.97-27,579.97 lies inside the source material's.
    Catalog mine = Catalog::make_builtin();
    MemoryModule m = mine.find_memory_module("ddr4-3200-rdimm-64gb");
    m.street_price = PricePoint{.amount = 300_USD, .as_of = "2026-11-01", .source = "test"};
    mine.add_or_replace(m);
    Chassis ch = mine.find_chassis("generic-4u-gpu-chassis");
    ch.street_price = PricePoint{.amount = 1000_USD, .as_of = "2026-11-01", .source = "test"};
    mine.add_or_replace(ch);
    const SystemPrice all = mine.parts_price(mine.find_system("build-a100-80gb-epyc-7763"));
    REQUIRE(all.known());
    CHECK(*all.low == Money("20419.97", Currency::USD));
    CHECK(*all.high == Money("27579.97", Currency::USD));
    CHECK(*all.low >= 20400_USD);
    CHECK(*all.high <= 28600_USD);
  }

  TEST_CASE("prices from dated public snapshots: PCPartPicker listings, Epoch AI's price data; the reason where none is public") {
    const Catalog& c = Catalog::builtin();
    // PCPartPicker (docyx/pc-part-dataset, 2025-07-23): the lowest and the median of a chipset's priced listings,
    // e.g. the 19 RTX 4090 listings with a price run from $1,819.99 to $3,600, median $3,089.
    const GpuSpec& r4090 = c.find_gpu("rtx-4090");
    REQUIRE(r4090.street_price.has_value());
    CHECK(r4090.street_price->amount == Money("1819.99", Currency::USD));
    CHECK(*r4090.street_price->high == Money("3089", Currency::USD));
    CHECK(r4090.street_price->as_of == "2025-07-23");
    CHECK(r4090.street_price->source.find("docyx/pc-part-dataset") != std::string::npos);
    CHECK(r4090.street_price->source.find("19 listings with a price (of 63)") != std::string::npos);
    CHECK(c.find_gpu("rtx-5060-ti-16gb").street_price->source.find("with 16 GB") != std::string::npos);  // not the 8 GB card
    CHECK(*c.find_gpu("rtx-4060-ti-8gb").street_price->high == Money("544.325", Currency::USD));
    CHECK(c.find_gpu("rtx-6000-ada").street_price->amount == Money("6974", Currency::USD));  // one listing: no range
    CHECK_FALSE(c.find_gpu("rtx-6000-ada").street_price->high.has_value());
    // Epoch AI's hardware price data: an 8-GPU H200 baseboard and HGX (per GPU), an MI300X baseboard (per GPU), and
    // the MI250 package halved (the catalog's entry is one of its two GCDs).
    const GpuSpec& h200 = c.find_gpu("h200-sxm");
    CHECK(h200.street_price->amount == Money("33820.65", Currency::USD));
    CHECK(h200.street_price->as_of == "2024-03-27");  // a range is dated by its older end
    CHECK(*h200.street_price->high == Money("39083.38", Currency::USD));
    CHECK(h200.street_price->source.find("epoch-research/training-cost-trends") != std::string::npos);
    CHECK(c.find_gpu("mi300x").street_price->amount == Money("25733.71", Currency::USD));
    CHECK(c.find_gpu("mi250").street_price->amount == Money("7885.245", Currency::USD));
    // A part no longer made whose newest dated price is years old gets none (it would rank against 2026 prices), and
    // says so: the V100s' 2018 list prices, the MI250X's 2021 estimate.
    for (const char* id : {"v100-sxm2-16gb", "v100-sxm2-32gb", "v100-pcie-32gb", "mi250x", "a100-pcie-40gb", "a100-sxm-40gb"}) {
      CAPTURE(id);
      CHECK_FALSE(c.find_gpu(id).launch_price.has_value());
      CHECK_FALSE(c.find_gpu(id).street_price.has_value());
      CHECK(c.find_gpu(id).unpriced.find("too old to rank") != std::string::npos);
    }
    // Every accelerator one can buy or rent has a price or an offer; one that has neither says why, and so
    // does a part sold only inside servers or racks. Rent-only parts (TPUs, Trainium) need neither.
    for (const GpuSpec& g : c.gpus()) {
      CAPTURE(g.id);
      if (g.form_factor == FormFactor::cloud) continue;
      const bool priced = g.launch_price || g.street_price;
      const bool offered = std::any_of(c.cloud_offers().begin(), c.cloud_offers().end(), [&](const CloudOffer& o) { return o.gpu_id == g.id; });
      CHECK((priced || offered || !g.unpriced.empty()));
      if (priced) CHECK(g.unpriced.empty());
    }
    // ... while one with a dated 2025 listing is priced, however it compares with the used market.
    CHECK(c.find_gpu("v100-pcie-16gb").street_price->amount == Money("11993.46", Currency::USD));
    CHECK(c.find_gpu("v100-pcie-16gb").unpriced.empty());
    CHECK(c.find_gpu("h800-sxm").street_price->amount == 33800_USD);
    CHECK(c.find_gpu("gb300").unpriced.find("NVL72") != std::string::npos);
    // Cloud offers from the same data for cards that had none (per GPU-hour, dated as read).
    CHECK(c.find_offer("runpod-l40").per_gpu_hour(PriceKind::on_demand) == MoneyRate("0.99", Currency::USD));
    CHECK(c.find_offer("cudo-h100-nvl").gpu_id == "h100-nvl");
    CHECK(c.find_offer("lambda-gpu-1x-a100-pcie-40gb").as_of == "2025-02-28");
    CHECK(c.find_offer("oci-vm-gpu-a10-1").source.find("the-full-stack") != std::string::npos);
    CHECK(c.find_gpu("b200").unpriced.find("the dgx-b200 row") != std::string::npos);
    // A catalog file that prices an unpriced part needs not clear the reason: it is ignored once a price is given.
    Catalog mine = Catalog::make_builtin();
    GpuSpec g = mine.find_gpu("gb300");
    g.street_price = PricePoint{.amount = 60000_USD, .as_of = "2026-11-01", .source = "a quote"};
    CHECK_NOTHROW(g.validate());
    mine.add_or_replace(g);
    CHECK(mine.find_gpu("gb300").street_price->amount == 60000_USD);
  }

  TEST_CASE("warning: stale and future-dated prices") {
    Catalog c = Catalog::make_builtin();
    GpuSpec g = c.find_gpu("RTX 3090");
    g.street_price = PricePoint{.amount = 700_USD, .as_of = "2025-01-15", .source = "test"};
    c.add_or_replace(g);
    CHECK(has_warning(stale_prices(c, "2026-11-21", 365), WarningKind::stale_price, "gpu rtx-3090", "street_price"));
    CHECK_FALSE(has_warning(stale_prices(c, "2025-06-01", 365), WarningKind::stale_price, "gpu rtx-3090"));
    CHECK(has_warning(stale_prices(c, "2024-12-31", 365), WarningKind::stale_price, "gpu rtx-3090"));  // future-dated
    // Launch prices never go stale (Gaudi 3 has only one); street prices and cloud offers do.
    CHECK_FALSE(has_warning(stale_prices(c, "2030-01-01", 365), WarningKind::stale_price, "gpu gaudi3"));
    CHECK(has_warning(stale_prices(c, "2030-01-01", 365), WarningKind::stale_price, "gpu rtx-4090", "street_price"));
    CHECK(has_warning(stale_prices(c, "2030-01-01", 365), WarningKind::stale_price, "cloud offer aws-p5.48xlarge"));
    CHECK_THROWS_AS(stale_prices(c, "21/11/2026"), InputError);
  }

  TEST_CASE("warnings about what one answer used: only those entries, in their order, each once (catalog item 7)") {
    Catalog c = Catalog::make_builtin();
    GpuSpec g = c.find_gpu("H100 SXM");
    g.id = "my-h100";
    g.name = "My H100";
    g.aliases = {};
    g.dense.set(Precision::bf16, 1979_TFLOPps);  // the datasheet's sparse figure: 4 x TF32
    c.add_or_replace(g);
    const WarningOptions on{.today = "2026-11-26"};
    const auto w = warnings_for(c, {"cloud offer gcp-a3-highgpu-8g", "gpu my-h100", "gpu h100-sxm", "gpu my-h100"}, on);
    REQUIRE(w.size() >= 3);
    CHECK(w[0].entry == "cloud offer gcp-a3-highgpu-8g");  // 2024-06-01: stale on 2026-11-26
    CHECK(w[0].kind == WarningKind::stale_price);
    std::size_t mine = 0, h100 = 0;
    for (const auto& x : w) {
      mine += x.entry == "gpu my-h100";
      h100 += x.entry == "gpu h100-sxm";
      CHECK((x.entry == "cloud offer gcp-a3-highgpu-8g" || x.entry == "gpu my-h100" || x.entry == "gpu h100-sxm"));
    }
    CHECK(mine >= 1);  // the sparse-looking BF16 rate, once although named twice
    CHECK(h100 == 1);  // its 2023 street price
    CHECK(std::is_sorted(w.begin(), w.end(), [](const CatalogWarning& a, const CatalogWarning& b) {
      const auto rank = [](const std::string& e) { return e == "cloud offer gcp-a3-highgpu-8g" ? 0 : e == "gpu my-h100" ? 1 : 2; };
      return rank(a.entry) < rank(b.entry);
    }));
    // An entry nothing is wrong with has no warnings; an answer that used nothing, none.
    CHECK(warnings_for(c, {"gpu gaudi3"}, on).empty());
    CHECK(warnings_for(c, {}, on).empty());
    CHECK_THROWS_AS(warnings_for(c, {"gpu h100-sxm"}, {.today = "26/11/2026"}), InputError);
  }

  TEST_CASE("warnings_for checks only the entries asked for, and finds exactly what check_catalog finds about them") {
    // Every rule fires somewhere: a sparse-looking rate (ratio and reference rules), stale prices, and
    // Azure's H100 price out of line with its siblings (which stay siblings when only it is asked about).
    Catalog c = Catalog::make_builtin();
    GpuSpec g = c.find_gpu("H100 SXM");  // replaced under its id: the reference rule compares it with the built-in one
    g.dense.set(Precision::bf16, 1979_TFLOPps);
    c.add_or_replace(g);
    const WarningOptions on{.today = "2026-11-21"};
    const std::vector<CatalogWarning> all = check_catalog(c, on);
    const auto about = [&](const std::vector<std::string>& labels) {
      std::vector<std::string> seen;
      std::vector<std::string> got;
      for (const std::string& l : labels) {
        if (std::find(seen.begin(), seen.end(), l) != seen.end()) continue;
        seen.push_back(l);
        for (const CatalogWarning& w : all)
          if (w.entry == l) got.push_back(std::string(name(w.kind)) + " " + w.entry + " " + w.field + ": " + w.message);
      }
      return got;
    };
    const auto messages = [](const std::vector<CatalogWarning>& ws) {
      std::vector<std::string> m;
      for (const CatalogWarning& w : ws) m.push_back(std::string(name(w.kind)) + " " + w.entry + " " + w.field + ": " + w.message);
      return m;
    };
    std::vector<std::string> labels;
    for (const auto& x : c.gpus()) labels.push_back("gpu " + x.id);
    for (const auto& x : c.cloud_offers()) labels.push_back("cloud offer " + x.id);
    for (const auto& x : c.systems()) labels.push_back("system " + x.id);
    std::size_t warned = 0;
    for (const std::string& l : labels) {
      CAPTURE(l);
      const auto mine = messages(warnings_for(c, {l}, on));
      CHECK(mine == about({l}));
      warned += !mine.empty();
    }
    CHECK(warned > 10);
    for (const char* must : {"gpu h100-sxm", "cloud offer azure-nd96isr-h100-v5", "cloud offer gcp-a3-highgpu-8g"}) {
      CAPTURE(must);
      CHECK_FALSE(warnings_for(c, {must}, on).empty());
    }
    const auto h100 = messages(warnings_for(c, {"gpu h100-sxm"}, on));
    CHECK(std::any_of(h100.begin(), h100.end(), [](const std::string& m) { return m.find("is 2 x the dense") != std::string::npos; }));
    CHECK(std::any_of(h100.begin(), h100.end(), [](const std::string& m) { return m.find("on every architecture") != std::string::npos; }));
    CHECK(has_warning(warnings_for(c, {"cloud offer azure-nd96isr-h100-v5"}, on), WarningKind::price_outlier,
                      "cloud offer azure-nd96isr-h100-v5"));
    // The reference rule takes the first reference entry that shares a name: a GPU named like both
    // the H100 SXM (989.4 TFLOP/s BF16) and, by an alias, the H100 PCIe (756) is compared with the SXM,
    // which comes first in the built-in catalog; its 1,979 is 2 x the SXM's, 2.6 x the PCIe's.
    GpuSpec both = g;
    both.aliases.push_back("H100 PCIe");
    const auto twice = sparse_rate_suspects(both, &Catalog::builtin());
    CHECK(std::count_if(twice.begin(), twice.end(), [](const CatalogWarning& w) {
            return w.message.find("of catalog entry h100-sxm") != std::string::npos;
          }) == 1);
    CHECK(std::none_of(twice.begin(), twice.end(), [](const CatalogWarning& w) { return w.message.find("h100-pcie") != std::string::npos; }));
    const std::vector<std::string> several{"cloud offer azure-nd96isr-h100-v5", "gpu h100-sxm", "gpu rtx-4090",
                                           "cloud offer gcp-a3-highgpu-8g", "gpu h100-sxm"};
    CHECK(messages(warnings_for(c, several, on)) == about(several));
  }

  TEST_CASE("FP6: the FP8 rate on Blackwell, the FP4 rate on CDNA 4, where the vendor prints it") {
    // NVIDIA's HGX B200 and B300 tables print one "FP8/FP6" row (GB200 and GB300 take the same rule);
    // AMD's MI350X and MI355X "MXFP6/MXFP4" 9.2 and 10.1 PF dense.
    const Catalog& c = Catalog::builtin();
    for (const char* id : {"b200", "b300", "gb200", "gb300"}) {
      const GpuSpec& g = c.find_gpu(id);
      REQUIRE(g.dense.has(Precision::fp6));
      CHECK(g.dense.at(Precision::fp6)->value() == g.dense.at(Precision::fp8)->value());
    }
    CHECK(c.find_gpu("b200").dense.at(Precision::fp6)->value() == doctest::Approx(4.5e15));
    for (const char* id : {"mi350x", "mi355x"}) {
      const GpuSpec& g = c.find_gpu(id);
      REQUIRE(g.dense.has(Precision::fp6));
      CHECK(g.dense.at(Precision::fp6)->value() == g.dense.at(Precision::fp4)->value());
    }
    CHECK(c.find_gpu("mi355x").dense.at(Precision::fp6)->value() == doctest::Approx(10.066e15));
    // No FP6 figure is published for Hopper, the MI300X or the RTX Blackwell cards: none is stored.
    for (const char* id : {"h100-sxm", "mi300x", "rtx-5090"}) CHECK_FALSE(c.find_gpu(id).dense.has(Precision::fp6));
    // The ratio rule knows both: no built-in part is flagged, a sparse FP6 copied by a user is.
    for (const char* id : {"b200", "b300", "gb200", "gb300", "mi350x", "mi355x"}) CHECK(sparse_rate_suspects(c.find_gpu(id), nullptr).empty());
    GpuSpec u = c.find_gpu("b200");
    u.id = "b200-user";
    u.dense.set(Precision::fp6, 9000_TFLOPps);  // the HGX table's "FP8/FP6 9 PF*", with sparsity
    CHECK(has_warning(sparse_rate_suspects(u, nullptr), WarningKind::sparse_rate, "gpu b200-user", "dense.fp6"));
    // A GeForce Blackwell card whose FP8 is stored at FP32-accumulate half rate: an FP6 at that FP8 rate
    // is consistent with its dense 4 : 1 FP4, and nothing is flagged.
    GpuSpec r = c.find_gpu("rtx-5090");
    r.id = "rtx-5090-user";
    r.dense.set(Precision::fp6, *r.dense.at(Precision::fp8));
    CHECK(sparse_rate_suspects(r, nullptr).empty());
    GpuSpec a = c.find_gpu("mi355x");
    a.id = "mi355x-user";
    a.dense.set(Precision::fp6, 20100_TFLOPps);  // AMD's 20.1 PF headline, with sparsity
    CHECK(has_warning(sparse_rate_suspects(a, nullptr), WarningKind::sparse_rate, "gpu mi355x-user", "dense.fp6"));
    // FP6 entered at the FP8 rate on a CDNA 4 part (AMD runs it at the FP4 rate): FP8 and FP4 agree with
    // the rest, so the warnings name FP6, as misstated rather than sparse, and never FP8 or FP4.
    a.dense.set(Precision::fp6, *a.dense.at(Precision::fp8));
    const auto low = sparse_rate_suspects(a, nullptr);
    CHECK(has_warning(low, WarningKind::sparse_rate, "gpu mi355x-user", "dense.fp6"));
    CHECK_FALSE(has_warning(low, WarningKind::sparse_rate, "gpu mi355x-user", "dense.fp8"));
    CHECK_FALSE(has_warning(low, WarningKind::sparse_rate, "gpu mi355x-user", "dense.fp4"));
    CHECK(std::any_of(low.begin(), low.end(), [](const CatalogWarning& w) { return w.message.find("fp6 looks misstated") != std::string::npos; }));
  }

  TEST_CASE("training precisions: bf16, fp16, fp32, fp8 and fp4; the others are an error naming the field") {
    for (Precision p : training_precisions) CHECK_NOTHROW(validate_training_precision(p));
    for (Precision p : {Precision::int8, Precision::int4, Precision::fp6, Precision::tf32, Precision::fp64}) {
      const InputError e = input_error_of([&] { validate_training_precision(p); });
      CHECK(e.field() == "precision");
      CHECK(std::string(e.what()).find("is not a training precision (bf16, fp16, fp32, fp8, fp4)") != std::string::npos);
    }
    // A number cast from a file is named as a number.
    CHECK(std::string(input_error_of([] { validate_training_precision(static_cast<Precision>(42)); }).what()).find("42") !=
          std::string::npos);
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
    // FP4 against FP8: dense is 2 x (B200) or 3 x (B300); B200's sparse FP4 (18,000) is 4 x and is flagged,
    // B300's dense 3 x is not, and a sparse FP8 under a dense FP4 (1.5 x on B300) flags the FP8 figure.
    GpuSpec b = Catalog::builtin().find_gpu("B200");
    b.id = "b200-user";
    CHECK(sparse_rate_suspects(b, nullptr).empty());
    b.dense.set(Precision::fp4, 18000.0_TFLOPps);
    CHECK(has_warning(sparse_rate_suspects(b, nullptr), WarningKind::sparse_rate, "gpu b200-user", "dense.fp4"));
    GpuSpec u = Catalog::builtin().find_gpu("B300");
    u.id = "b300-user";
    CHECK(sparse_rate_suspects(u, nullptr).empty());
    u.dense.set(Precision::fp8, 9000.0_TFLOPps);
    u.dense.set(Precision::bf16, 4500.0_TFLOPps);
    u.dense.set(Precision::fp16, 4500.0_TFLOPps);
    u.dense.set(Precision::tf32, 2250.0_TFLOPps);
    CHECK(has_warning(sparse_rate_suspects(u, nullptr), WarningKind::sparse_rate, "gpu b300-user", "dense.fp8"));
    // GeForce halves FP32-accumulate rates: the RTX 5090's 1,676 FP4 over its 419.2 FP8 is dense (4 x);
    // its sparse 3,352 (8 x) is not.
    GpuSpec r5 = Catalog::builtin().find_gpu("RTX 5090");
    r5.id = "rtx-5090-user";
    CHECK(sparse_rate_suspects(r5, nullptr).empty());
    r5.dense.set(Precision::fp4, 3352.0_TFLOPps);
    CHECK(has_warning(sparse_rate_suspects(r5, nullptr), WarningKind::sparse_rate, "gpu rtx-5090-user", "dense.fp4"));
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
    // Built-in, every price counted: the twelve H100 offers (2.99, 3.20, 3.49, 3.78, 3.85, 3.90, 3.99, 6.155, 6.88,
    // 11.03, 11.62, 12.29 per GPU-hour) have a median of (3.90 + 3.99) / 2 = 3.945, printed $3.94, and Azure's
    // pay-as-you-go $12.29 is more than 3 x that.
    const auto every = price_outliers(Catalog::builtin());
    REQUIRE(every.size() == 1);
    CHECK(every.front().entry == "cloud offer azure-nd96isr-h100-v5");
    CAPTURE(every.front().message);
    CHECK(every.front().message.find("median of $3.94/h over 12 offers") != std::string::npos);
    // Judged on 2026-11-21 with the 365-day limit, stale list prices neither set the median nor are judged (they get
    // stale_price warnings instead: GCP a3-highgpu-8g of 2024-06-01, a3-megagpu-8g of 2025-03-06). The ten fresh
    // H100 offers have a median of (3.85 + 3.90) / 2 = 3.875, printed $3.88, and Azure's $12.29 per GPU-hour is the
    // one offer out of line.
    const auto current = price_outliers(Catalog::builtin(), 3.0, 3, "2026-11-21", 365);
    REQUIRE(current.size() == 1);
    CHECK(current.front().entry == "cloud offer azure-nd96isr-h100-v5");
    CAPTURE(current.front().message);
    CHECK(current.front().message.find("median of $3.88/h over 10 offers") != std::string::npos);
    const auto all = check_catalog(Catalog::builtin(), {.today = "2026-11-21"});
    CHECK(has_warning(all, WarningKind::stale_price, "cloud offer gcp-a3-highgpu-8g", "on_demand"));
    CHECK_FALSE(has_warning(all, WarningKind::stale_price, "cloud offer azure-nd96isr-h100-v5"));  // 2026-05-25
    CHECK_FALSE(has_warning(all, WarningKind::stale_price, "cloud offer aws-p5.48xlarge"));  // 2025-11-30: 356 days
    CHECK_FALSE(has_warning(all, WarningKind::price_outlier, "cloud offer lambda-gpu-8x-h100-sxm5"));
    // A current offer far from its current siblings is still flagged: three fresh L4 offers and one at 3.00.
    Catalog fresh = c;  // x-l4-1..3 and x-l4-8 dated 2026-11-01
    CHECK(has_warning(price_outliers(fresh, 3.0, 3, "2026-11-21", 365), WarningKind::price_outlier, "cloud offer x-l4-8"));
    CHECK_THROWS_AS(price_outliers(c, 0.5), InputError);
    CHECK_THROWS_AS(price_outliers(c, 3.0, 3, "yesterday"), InputError);
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
