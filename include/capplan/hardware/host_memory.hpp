// A machine's host memory (DRAM) bandwidth from its parts: the CPUs' memory channels that its DIMMs
// fill, at the slower of the CPU's rated speed and the DIMMs'. It is what NCCL's SHM transport shares
// among the GPUs that talk through host memory (perf/communication.hpp shm_host_share), and what a
// multi-GPU build without peer-to-peer must provide (plan/system_sizing.hpp).
//
//   const HostMemory h = host_memory(cat.find_system("ws-2x-rtx-4090"), cat);
//   h.bandwidth;  // 83.2 GB/s: 2 channels x 8 B x 5,200 MT/s (the Ryzen 9 7950X's rating; DDR5-5600 DIMMs)
//   h.basis;      // that arithmetic in words
//
// A DDR4 or DDR5 channel is 64 bits wide (JEDEC JESD79-4, JESD79-5), so a channel moves 8 B per
// transfer; DIMMs fill one channel each before a second DIMM shares a channel (which adds capacity,
// not bandwidth). This is the wire rate; what a program sustains is perf::host_memory_efficiency of it.
#pragma once

#include "capplan/hardware/catalog.hpp"
#include "capplan/units/format.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace capplan {

struct HostMemory {
  Bandwidth bandwidth{};  // the DRAM wire rate, all sockets; 0: the parts do not give it (no CPU or no DIMMs listed)
  int sockets = 0;
  int channels = 0;       // filled channels, all sockets
  int speed_mts = 0;      // the speed they run at
  std::string basis;      // "2 channels x 8 B x 5,200 MT/s (...) = 83.2 GB/s", or why there is none
};

// The host memory of one node of `s`, from its CPU and memory-module parts. Not known (0) where the
// system lists no CPU or no DIMMs, or DIMMs of another DDR generation than a CPU takes. More DIMMs
// than channels put two in a channel, where DDR5 runs slower: at the CPU's `memory_speed_2dpc`
// (DGX H100's 32 DIMMs on 16 channels of Xeon 8480+ at 4,400 MT/s), or at its one-DIMM rating where
// that is not recorded (and the basis says so).
inline HostMemory host_memory(const SystemSpec& s, const Catalog& c) {
  HostMemory h;
  int cpu_channels = 0, rated = 0, dimms = 0, dimm_speed = 0, rated_2dpc = 0;
  bool unrated = false, unrated_2dpc = false;
  std::string cpus, dimm_name, mismatch;
  std::vector<DramType> dimm_types;
  for (const SystemPart& p : s.parts) {
    if (p.kind != PartKind::memory) continue;
    const MemoryModule& m = c.find_memory_module(p.id);
    dimms += p.count;
    dimm_speed = dimm_speed > 0 ? std::min(dimm_speed, m.speed_mts) : m.speed_mts;
    if (dimm_name.empty()) dimm_name = std::string(name(m.type)) + "-" + std::to_string(m.speed_mts);
    dimm_types.push_back(m.type);
  }
  for (const SystemPart& p : s.parts) {
    if (p.kind != PartKind::cpu) continue;
    const CpuSpec& cpu = c.find_cpu(p.id);
    h.sockets += p.count;
    cpu_channels += p.count * cpu.memory_channels;
    const int r = ddr_speed_mts(cpu.memory_type);
    if (r > 0) rated = rated > 0 ? std::min(rated, r) : r;
    else unrated = true;
    if (cpu.memory_speed_2dpc > 0) rated_2dpc = rated_2dpc > 0 ? std::min(rated_2dpc, cpu.memory_speed_2dpc) : cpu.memory_speed_2dpc;
    else unrated_2dpc = true;
    cpus += (cpus.empty() ? "" : " + ") + (p.count == 1 ? std::string() : std::to_string(p.count) + " x ") + cpu.name;
    for (const DramType t : dimm_types) {
      const std::string kind(name(t));  // "DDR4", "DDR5"
      if (r > 0 && normalize_name(cpu.memory_type).rfind(normalize_name(kind), 0) != 0 && mismatch.empty())
        mismatch = kind + " DIMMs on " + cpu.name + ", which takes " + cpu.memory_type;
    }
  }
  if (h.sockets == 0 || dimms == 0 || !mismatch.empty()) {
    h.basis = s.id + (!mismatch.empty() ? " lists " + mismatch : std::string(" lists ") + (h.sockets == 0 ? "no CPU" : "no memory modules")) +
              ", so its host memory is not known from its parts";
    return h;
  }
  h.channels = std::min(cpu_channels, dimms);
  h.speed_mts = rated > 0 ? std::min(rated, dimm_speed) : dimm_speed;
  const bool two_a_channel = dimms > cpu_channels;
  const bool slowed = two_a_channel && !unrated_2dpc && rated_2dpc < h.speed_mts;
  const bool capped = !slowed && rated > 0 && rated < dimm_speed;
  if (slowed) h.speed_mts = rated_2dpc;
  h.bandwidth = Bandwidth::from_value(8.0 * h.channels * h.speed_mts * 1e6);
  h.basis = std::to_string(h.channels) + " channel" + (h.channels == 1 ? "" : "s") + " (" + std::to_string(dimms) + " x " + dimm_name + " on " + cpus +
            ", " + std::to_string(cpu_channels) + " channels) x 8 B x " + format_number(h.speed_mts, 5) + " MT/s" +
            (slowed   ? " (the CPU's rating with two DIMMs a channel)"
             : capped ? " (the CPU's rating)"
             : unrated ? " (the DIMMs'; a CPU's rated speed is not recorded)"
                       : "") +
            (two_a_channel && unrated_2dpc && std::find(dimm_types.begin(), dimm_types.end(), DramType::ddr5) != dimm_types.end()
                 ? " (two DIMMs a channel, counted at one's speed: the CPU's speed with two is not recorded)"
                 : "") +
            " = " + format(h.bandwidth, {.significant = 4});
  return h;
}

}  // namespace capplan
