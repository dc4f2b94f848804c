// GpuSpec: one accelerator model, every figure a typed quantity with its source and date.
// Peak tensor rates are DENSE (no 2:4 structured sparsity); a vendor "with sparsity" figure is
// twice the dense one and is never stored here.
#pragma once

#include "capplan/hardware/precision.hpp"
#include "capplan/money/money.hpp"
#include "capplan/units/quantity.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace capplan {

enum class FormFactor { sxm, oam, pcie, consumer, soc };
enum class Vendor { nvidia, amd, intel, apple, google, other };

// A price with where and when it was observed.
struct PricePoint {
  Money amount;
  std::string as_of;   // ISO date, "2026-10-01"
  std::string source;  // URL or document
};

// Peak rates indexed by Precision; absent where the part has no such math.
struct PeakRates {
  std::array<std::optional<FlopRate>, all_precisions.size()> by_precision{};

  [[nodiscard]] std::optional<FlopRate> at(Precision p) const { return by_precision[static_cast<std::size_t>(p)]; }
  void set(Precision p, FlopRate r) { by_precision[static_cast<std::size_t>(p)] = r; }
};

struct GpuSpec {
  std::string id;                    // catalog id, lower case with dashes: "h100-sxm"
  std::string name;                  // "NVIDIA H100 SXM5 80GB"
  std::vector<std::string> aliases;  // other names lookup accepts: "H100 SXM", "h100"
  Vendor vendor = Vendor::nvidia;
  std::string architecture;          // "Hopper"
  FormFactor form_factor = FormFactor::pcie;

  DataSize memory{};                 // device memory (decimal GB as the vendor states it)
  std::string memory_type;           // "HBM3", "GDDR6X"
  Bandwidth memory_bandwidth{};      // peak device-memory bandwidth

  PeakRates dense;                   // dense peak per precision (tensor cores where present)
  // GeForce cards: the fp16/bf16 tensor rate with FP32 accumulate is half the FP16-accumulate
  // rate; the stored rate is the FP32-accumulate one that training uses.
  bool fp16_rate_assumes_fp32_accumulate = true;

  Power tdp{};                       // board power / TGP
  Power idle_power{};

  int nvlink_generation = 0;         // 0: none
  Bandwidth nvlink_bandwidth{};      // per direction, per GPU
  int pcie_generation = 4;
  int pcie_lanes = 16;
  bool ecc = false;
  bool peer_to_peer = true;          // GeForce 40-series: no P2P over PCIe

  std::optional<PricePoint> launch_price;
  std::optional<PricePoint> street_price;

  std::string source;                // datasheet used for the figures above
  std::string as_of;                 // date the figures were checked
};

}  // namespace capplan
