// CpuSpec: a host processor model (cores, power, I/O and memory channels, price).
#pragma once

#include "capplan/hardware/detail/validate.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/hardware/price_point.hpp"

#include <boost/describe/class.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace capplan {

struct CpuSpec {
  std::string id{};                    // "epyc-7763"
  std::string name{};                  // "AMD EPYC 7763"
  std::vector<std::string> aliases{};
  Vendor vendor = Vendor::amd;
  std::string architecture{};          // "Zen 3 (Milan)"
  std::string socket{};                // "SP3": a board takes the CPU when its socket is the same; empty: not recorded
  int cores = 0;
  int threads = 0;
  Power tdp{};                       // default TDP (Intel: processor base power)
  // The most the package draws at stock settings under an all-core load, where it is above the TDP:
  // AMD's package power tracking limit (PPT, 1.35 x TDP on AM4/AM5), Intel's maximum turbo power
  // (PL2; Intel's 2024 "Extreme" default profile for K-series parts also makes it the sustained PL1,
  // and many boards ship with no limit at all). Empty: the TDP is the most it draws (EPYC and Xeon
  // Scalable run at their TDP).
  std::optional<Power> max_power{};
  int pcie_generation = 4;
  int pcie_lanes = 0;                // lanes per socket from the CPU
  int chipset_lanes = 0;             // of those, the lanes that link the chipset, not free for slots (AM5: 4 of 28)
  int socket_link_lanes = 0;         // of those, the lanes a socket gives to the link to a second one (EPYC 2P: 64 of 128)
  std::string memory_type{};           // "DDR4-3200"
  int memory_channels = 0;           // per socket
  // DDR5 runs slower with two DIMMs in a channel: the rated MT/s then (Ryzen 7000: 3,600; Xeon
  // Scalable 4th gen: 4,400); 0: not recorded, or no slowdown (DDR4 Ice Lake keeps 3,200).
  int memory_speed_2dpc = 0;
  DataSize max_memory{};             // per socket; 0: not published
  std::optional<PricePoint> launch_price{};
  std::optional<PricePoint> street_price{};
  std::string source{};
  std::string as_of{};
  std::string note{};

  // Bounds: cores 1..1024, threads cores..4*cores, TDP 1 W..2 kW (max_power TDP..2 kW), PCIe lanes 0..256 (chipset and
  // socket-link lanes 0..those), 2-DIMM-per-channel speed 0..20,000 MT/s,
  // memory channels 1..24, max memory <= 100 TB.
  void validate() const {
    using namespace capplan::literals;
    detail::check_id(id, "cpu");
    const std::string label = detail::entry_label("cpu", id);
    detail::check_text(name, "name", label);
    detail::check_count(cores, 1, 1024, "cores", label);
    detail::check_count(threads, cores, 4L * cores, "threads", label);
    detail::check_quantity(tdp, 2_kW, "tdp", label, true);
    if (max_power) {
      detail::check_quantity(*max_power, 2_kW, "max_power", label, true);
      if (*max_power < tdp)
        detail::fail("max_power", format(*max_power), "is below the TDP " + format(tdp) + " " + label);
    }
    detail::check_count(pcie_generation, 0, 7, "pcie_generation", label);
    detail::check_count(pcie_lanes, 0, 256, "pcie_lanes", label);
    detail::check_count(chipset_lanes, 0, pcie_lanes, "chipset_lanes", label);
    detail::check_count(socket_link_lanes, 0, pcie_lanes - chipset_lanes, "socket_link_lanes", label);
    detail::check_count(memory_channels, 1, 24, "memory_channels", label);
    detail::check_count(memory_speed_2dpc, 0, 20000, "memory_speed_2dpc", label);
    detail::check_quantity(max_memory, 100_TB, "max_memory", label);
    if (launch_price) launch_price->validate("launch_price");
    if (street_price) street_price->validate("street_price");
    detail::check_text(source, "source", label);
    detail::check_date(as_of, "as_of");
  }
};

BOOST_DESCRIBE_STRUCT(CpuSpec, (), (id, name, aliases, vendor, architecture, socket, cores, threads, tdp, max_power, pcie_generation,
                                    pcie_lanes, chipset_lanes, socket_link_lanes, memory_type, memory_channels, memory_speed_2dpc, max_memory, launch_price, street_price,
                                    source, as_of, note))
// What the CPU draws at full load: its max_power where recorded (PPT, PL2), else its TDP.
inline Power full_load_power(const CpuSpec& c) { return c.max_power ? *c.max_power : c.tdp; }

// The transfer rate a DDR memory type names: "DDR5-4800" (or "ddr5-4800") -> 4800 MT/s; 0 where it
// names none (an empty or unrecognised type).
inline int ddr_speed_mts(std::string_view memory_type) {
  const std::size_t dash = memory_type.rfind('-');
  const auto upper = [](char ch) { return ch >= 'a' && ch <= 'z' ? static_cast<char>(ch - 'a' + 'A') : ch; };
  if (dash == std::string_view::npos || memory_type.size() < 3 || upper(memory_type[0]) != 'D' || upper(memory_type[1]) != 'D' ||
      upper(memory_type[2]) != 'R')
    return 0;
  int mts = 0;
  for (const char ch : memory_type.substr(dash + 1)) {
    if (ch < '0' || ch > '9' || mts > 100000) return 0;
    mts = mts * 10 + (ch - '0');
  }
  return mts >= 1000 && mts <= 20000 ? mts : 0;
}

// One socket's DRAM wire rate with `channels` of its memory channels filled (-1: all of them) at
// `speed_mts` (0: the CPU's rated speed; a faster DIMM runs at the CPU's rating): channels x 8 B x
// MT/s, a DDR4 or DDR5 channel being 64 bits wide (JEDEC JESD79-4, JESD79-5: two 32-bit
// sub-channels a DIMM). 0 B/s where no speed is known.
inline Bandwidth memory_bandwidth(const CpuSpec& c, int channels = -1, int speed_mts = 0) {
  if (channels < -1 || channels > 24) detail::fail("channels", std::to_string(channels), "is outside 0 to 24 (-1: all of the CPU's)");
  if (speed_mts < 0 || speed_mts > 20000) detail::fail("speed_mts", std::to_string(speed_mts), "is outside 0 to 20,000 MT/s (0: the CPU's rating)");
  const int rated = ddr_speed_mts(c.memory_type);
  const int mts = rated > 0 && speed_mts > 0 ? std::min(rated, speed_mts) : rated > 0 ? rated : speed_mts;
  const int filled = channels < 0 ? c.memory_channels : std::min(channels, c.memory_channels);
  return Bandwidth::from_value(8.0 * static_cast<double>(std::max(filled, 0)) * static_cast<double>(std::max(mts, 0)) * 1e6);
}

// What a new catalog entry must give; every other member may keep its default.
constexpr auto required_members(std::type_identity<CpuSpec>) {
  return std::tuple{&CpuSpec::id, &CpuSpec::name, &CpuSpec::vendor, &CpuSpec::cores, &CpuSpec::threads, &CpuSpec::tdp,
                    &CpuSpec::memory_channels, &CpuSpec::source, &CpuSpec::as_of};
}

}  // namespace capplan
