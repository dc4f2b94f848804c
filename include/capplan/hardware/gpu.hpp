// GpuSpec: one accelerator model, every figure a typed quantity with its source and date.
// Peak tensor rates are DENSE (no 2:4 structured sparsity); a vendor "with sparsity" figure is
// twice the dense one and is never stored here (warnings.hpp flags rates that look sparse).
#pragma once

#include "capplan/hardware/detail/validate.hpp"
#include "capplan/hardware/precision.hpp"
#include "capplan/hardware/price_point.hpp"
#include "capplan/money/money.hpp"
#include "capplan/units/literals.hpp"
#include "capplan/units/quantity.hpp"

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace capplan {

// `cloud`: a rent-only accelerator, sold as a cloud service and never as hardware (Google's TPUs,
// AWS Trainium): it has cloud offers, no purchase price, and hosts of its provider's design.
enum class FormFactor { sxm, oam, pcie, consumer, soc, cloud };
BOOST_DESCRIBE_ENUM(FormFactor, sxm, oam, pcie, consumer, soc, cloud)
enum class Vendor { nvidia, amd, intel, apple, google, aws, other };
BOOST_DESCRIBE_ENUM(Vendor, nvidia, amd, intel, apple, google, aws, other)
// An add-in card's cooler: passive (fins only; a data-centre card the server's fans cool), blower
// (a radial fan that exhausts out of the back bracket, so cards can sit side by side) or open_air
// (axial fans that blow into the case; stacked cards starve each other of air).
enum class GpuCooling { unknown, passive, blower, open_air };
BOOST_DESCRIBE_ENUM(GpuCooling, unknown, passive, blower, open_air)

inline constexpr std::string_view name(FormFactor f) {
  switch (f) {
    case FormFactor::sxm: return "SXM";
    case FormFactor::oam: return "OAM";
    case FormFactor::pcie: return "PCIe card";
    case FormFactor::consumer: return "consumer card";
    case FormFactor::soc: return "SoC (unified memory)";
    case FormFactor::cloud: return "rent-only (cloud)";
  }
  return "?";
}

inline constexpr std::string_view name(Vendor v) {
  switch (v) {
    case Vendor::nvidia: return "NVIDIA";
    case Vendor::amd: return "AMD";
    case Vendor::intel: return "Intel";
    case Vendor::apple: return "Apple";
    case Vendor::google: return "Google";
    case Vendor::aws: return "AWS";
    case Vendor::other: return "other";
  }
  return "?";
}

// Peak rates indexed by Precision; absent where the part has no such math (or where the vendor
// publishes no figure: the entry's note says which).
struct PeakRates {
  std::array<std::optional<FlopRate>, all_precisions.size()> by_precision{};

  [[nodiscard]] std::optional<FlopRate> at(Precision p) const { return by_precision[static_cast<std::size_t>(p)]; }
  void set(Precision p, FlopRate r) { by_precision[static_cast<std::size_t>(p)] = r; }
  void clear(Precision p) { by_precision[static_cast<std::size_t>(p)].reset(); }
  [[nodiscard]] bool has(Precision p) const { return at(p).has_value(); }
};

// Dense peak rates in TFLOP/s (TOP/s for integers), 0 meaning "absent": the compact form the
// built-in catalog is written in.
struct DenseTeraRates {
  double fp64 = 0, fp32 = 0, tf32 = 0, bf16 = 0, fp16 = 0, fp8 = 0, int8 = 0, int4 = 0, fp4 = 0, fp6 = 0;
};

inline PeakRates dense_rates(const DenseTeraRates& t) {
  PeakRates r{};
  const double v[] = {t.fp64, t.fp32, t.tf32, t.bf16, t.fp16, t.fp8, t.int8, t.int4, t.fp4, t.fp6};
  static_assert(std::size(v) == all_precisions.size(), "one field per Precision");
  for (std::size_t i = 0; i < all_precisions.size(); ++i) {
    if (v[i] != 0) r.set(all_precisions[i], FlopRate::from_value(v[i] * scale::tera));
  }
  return r;
}

struct GpuSpec {
  std::string id{};                    // catalog id, lower case with dashes: "h100-sxm"
  std::string name{};                  // "NVIDIA H100 SXM5 80GB"
  std::vector<std::string> aliases{};  // other names lookup accepts: "H100 SXM", "h100"
  Vendor vendor = Vendor::nvidia;
  std::string architecture{};          // "Hopper"
  FormFactor form_factor = FormFactor::pcie;

  DataSize memory{};                 // device memory (decimal GB as the vendor states it)
  std::optional<DataSize> usable_memory{};  // total the CUDA/ROCm runtime reports (cudaMemGetInfo); absent: no source
  std::string memory_type{};           // "HBM3", "GDDR6X"
  Bandwidth memory_bandwidth{};      // peak device-memory bandwidth

  PeakRates dense{};                   // dense peak per precision (tensor cores where present)
  // The stored fp16/bf16 tensor rate is the one with FP32 accumulate, what training uses. On
  // GeForce cards it is half the FP16-accumulate rate vendors headline (RTX 4090: 165.2 vs
  // 330.3 TFLOP/s); data-centre and professional parts run FP32 accumulate at full rate.
  // true: the stored rate is the FP32-accumulate rate (always, in the built-in catalog).
  bool fp16_rate_assumes_fp32_accumulate = true;
  // true where FP32 accumulate runs at half the FP16-accumulate rate (GeForce).
  bool fp32_accumulate_half_rate = false;

  Power tdp{};                       // board power / TGP (0 only for a SoC without a published figure)
  Power idle_power{};                // 0 W: the vendor publishes no idle figure

  int nvlink_generation = 0;         // 0: none
  Bandwidth nvlink_bandwidth{};      // per direction, per GPU
  // GPUs one NVLink switch fabric joins when it spans more than a board: 72 in a GB200 / GB300 NVL72
  // rack (NVIDIA GB200 NVL72 specifications: "72 Blackwell GPUs" in "one NVLink domain"); 0: the
  // host's own GPUs (8 on an HGX/DGX board), perf::usual_gpus_per_node.
  int nvlink_domain = 0;
  // AMD Infinity Fabric (xGMI) GPU-to-GPU bandwidth, per direction, per GPU; 0: none.
  Bandwidth infinity_fabric_bandwidth{};
  int pcie_generation = 4;           // 0 for a SoC without PCIe
  int pcie_lanes = 16;
  // A chip-to-chip network of the vendor's own that joins chips across hosts without a switch: Google's
  // TPU inter-chip interconnect (ICI, a 2D or 3D torus) and AWS NeuronLink. `chip_link_bandwidth` is
  // what one chip reaches in an all-reduce, per direction: the vendor's all-reduce bandwidth of a pod
  // divided by its chips where it states one (TPU v5e: 51.2 TB/s / 256 = 200 GB/s), else half the
  // chip's bidirectional link figure; `chip_link_domain` the chips one such network joins (a TPU pod,
  // an instance or UltraServer of Trainium chips). 0: none. Perf (perf/communication.hpp) treats the
  // domain as one node whose collectives run at that bandwidth.
  Bandwidth chip_link_bandwidth{};
  int chip_link_domain = 0;
  // Per direction, between the GPU and its host's memory where that path is not the GPU's PCIe link:
  // its share of NVLink-C2C on a Grace superchip (GB200, GB300). 0: the PCIe link above.
  Bandwidth host_link_bandwidth{};
  bool ecc = false;
  bool peer_to_peer = true;          // GeForce 40-series: no P2P over PCIe

  // The add-in card's size and cooler, for fitting it in a board and a case (0 / unknown: not
  // recorded, or not an add-in card). `slot_width` is the expansion-slot positions it covers,
  // rounded up (a "2.5-slot" card blocks 3); a passive card needs a server's forced airflow.
  int slot_width = 0;
  Length length{};
  GpuCooling cooling = GpuCooling::unknown;
  // An SXM or OAM module is sold on a vendor baseboard, not alone: the GPUs of the smallest board it
  // ships on (NVIDIA HGX A100/H100/H200: 4 or 8; HGX B200, H800, H20 and AMD's MI300-series UBB: 8;
  // an NVL72 rack: 72), so a purchase of modules is whole boards (purchase_unit_gpus). 0: not recorded
  // (8 assumed for a module), or a card sold one at a time.
  int board_gpus = 0;

  std::optional<PricePoint> launch_price{};  // vendor list price (MSRP) at launch
  std::optional<PricePoint> street_price{};  // observed market price
  // Why neither price is recorded, where the catalog has looked for one and found none that is
  // public: "sold only inside GB200 NVL72 racks, at prices agreed with each buyer". Purchase tables
  // show it beside the row's "no price". Ignored once a price is given (a catalog file that prices
  // the part overrides the reason without having to clear it).
  std::string unpriced{};

  std::string source{};                // datasheet used for the figures above
  std::string as_of{};                 // date the figures were checked
  std::string note{};                  // caveats: figures not verified, derived values, absences

  // The memory programs can allocate from, before the runtime's own reserve (memory/budget.hpp
  // RuntimeReserve): the runtime-reported total where the catalog has a source for it, else the
  // marketed capacity. An "80 GB" H100 reports 81,559 MiB (85.5 GB), an RTX 4090 24,564 MiB: every
  // fit check uses this, so models that fit are not refused by the decimal-GB label.
  [[nodiscard]] DataSize capacity() const { return usable_memory.value_or(memory); }

  // Throws InputError naming the field and the value for a missing id/name/source, a bad date,
  // or a negative or absurd figure. Absurdity bounds: 64 MB <= memory <= 10 TB (usable memory at
  // most 1.1 x memory), 1 GB/s <= bandwidth <= 100 TB/s, 1 GFLOP/s <= any rate <= 100 PFLOP/s, link
  // bandwidths 0 or at least 1 GB/s, 0 < TDP <= 5 kW (0 allowed for a SoC and a rent-only part), idle <= TDP, PCIe
  // generation 0..7, lanes 0..32, NVLink generation 0..7, NVLink domain 0..1024 (with NVLink), chip-link domain
  // 0..100,000 (with its bandwidth, and not beside NVLink or Infinity Fabric).
  void validate() const {
    using namespace capplan::literals;
    detail::check_id(id, "gpu");
    const std::string label = detail::entry_label("gpu", id);
    detail::check_text(name, "name", label);
    detail::check_quantity(memory, 10_TB, "memory", label, true, 64_MB);
    // A capacity quoted in decimal GB (80 GB) is often binary in the part (80 GiB = 85.9 GB): the
    // usable total may exceed the quoted one by up to 1.1x, never more.
    if (usable_memory) detail::check_quantity(*usable_memory, DataSize(memory * 1.1), "usable_memory", label, true, 64_MB);
    detail::check_quantity(memory_bandwidth, 100_TBps, "memory_bandwidth", label, true, 1_GBps);
    for (Precision p : all_precisions) {
      if (auto r = dense.at(p)) {
        detail::check_quantity(*r, 100_PFLOPps, "dense." + std::string(capplan::name(p)), label, true, 1_GFLOPps);
      }
    }
    // A SoC's power is the whole computer's; Apple publishes none for the chip, so 0 is allowed, as it is
    // for a rent-only accelerator whose provider publishes none (Google's TPUs).
    detail::check_quantity(tdp, 5_kW, "tdp", label, form_factor != FormFactor::soc && form_factor != FormFactor::cloud);
    detail::check_quantity(idle_power, tdp.value() > 0 ? tdp : 5_kW, "idle_power", label);
    detail::check_count(nvlink_generation, 0, 7, "nvlink_generation", label);
    detail::check_quantity(nvlink_bandwidth, 10_TBps, "nvlink_bandwidth", label, false, 1_GBps);
    detail::check_count(nvlink_domain, 0, 1024, "nvlink_domain", label);
    if (nvlink_domain > 0 && nvlink_generation == 0) {
      detail::fail("nvlink_domain", std::to_string(nvlink_domain), "is set but nvlink_generation is 0 " + label);
    }
    if (nvlink_generation == 0 && nvlink_bandwidth.value() > 0) {
      detail::fail("nvlink_bandwidth", format(nvlink_bandwidth), "is set but nvlink_generation is 0 " + label);
    }
    detail::check_quantity(infinity_fabric_bandwidth, 10_TBps, "infinity_fabric_bandwidth", label, false, 1_GBps);
    detail::check_quantity(chip_link_bandwidth, 10_TBps, "chip_link_bandwidth", label, false, 1_GBps);
    detail::check_count(chip_link_domain, 0, 100000, "chip_link_domain", label);
    if ((chip_link_domain > 0) != (chip_link_bandwidth.value() > 0)) {
      detail::fail(chip_link_domain > 0 ? "chip_link_domain" : "chip_link_bandwidth",
                   chip_link_domain > 0 ? std::to_string(chip_link_domain) : format(chip_link_bandwidth),
                   "needs the other: a chip link has both a bandwidth and the chips it joins " + label);
    }
    if (chip_link_bandwidth.value() > 0 && (nvlink_generation > 0 || infinity_fabric_bandwidth.value() > 0)) {
      detail::fail("chip_link_bandwidth", format(chip_link_bandwidth), "is set beside NVLink or Infinity Fabric " + label);
    }
    detail::check_count(pcie_generation, 0, 7, "pcie_generation", label);
    detail::check_count(pcie_lanes, 0, 32, "pcie_lanes", label);
    detail::check_quantity(host_link_bandwidth, 10_TBps, "host_link_bandwidth", label, false, 1_GBps);
    detail::check_count(slot_width, 0, 5, "slot_width", label);
    detail::check_count(board_gpus, 0, 1024, "board_gpus", label);
    if (board_gpus > 0 && form_factor != FormFactor::sxm && form_factor != FormFactor::oam) {
      detail::fail("board_gpus", std::to_string(board_gpus), "is set on a " + std::string(capplan::name(form_factor)) + " part: only SXM and OAM modules ship on baseboards " + label);
    }
    detail::check_quantity(length, Length::from_value(1.0), "length", label);
    if (launch_price) launch_price->validate("launch_price");
    if (street_price) street_price->validate("street_price");
    detail::check_text(source, "source", label);
    detail::check_date(as_of, "as_of");
  }
};

BOOST_DESCRIBE_STRUCT(GpuSpec, (),
                      (id, name, aliases, vendor, architecture, form_factor, memory, usable_memory, memory_type,
                       memory_bandwidth, dense, fp16_rate_assumes_fp32_accumulate, fp32_accumulate_half_rate, tdp,
                       idle_power, nvlink_generation, nvlink_bandwidth, nvlink_domain, infinity_fabric_bandwidth, chip_link_bandwidth,
                       chip_link_domain, pcie_generation,
                       pcie_lanes, host_link_bandwidth, ecc, peer_to_peer, slot_width, length, cooling, board_gpus, launch_price, street_price, unpriced, source, as_of, note))
// What a new catalog entry must give; every other member may keep its default.
constexpr auto required_members(std::type_identity<GpuSpec>) {
  return std::tuple{&GpuSpec::id, &GpuSpec::name, &GpuSpec::vendor, &GpuSpec::form_factor, &GpuSpec::memory,
                    &GpuSpec::memory_bandwidth, &GpuSpec::tdp, &GpuSpec::source, &GpuSpec::as_of};
}

// The GPUs one purchase of `g` comes in: a module's whole baseboard (GpuSpec::board_gpus; 8 where the
// catalog does not record it, the HGX and UBB size), a card or a system-on-chip one at a time.
inline int purchase_unit_gpus(const GpuSpec& g) {
  if (g.form_factor != FormFactor::sxm && g.form_factor != FormFactor::oam) return 1;
  return g.board_gpus > 0 ? g.board_gpus : 8;
}

}  // namespace capplan
