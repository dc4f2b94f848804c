// The PCIe link each GPU of a machine runs at, from its parts: a desktop CPU's lanes run two cards
// at x8 each, and a card runs at the older PCIe generation of itself and its CPU (or its slot).
// Everything that crosses PCIe on such a machine is timed at that link: GeForce cards' collectives
// through host memory, peer-to-peer copies, activation offloading.
//
//   const GpuSlots s = gpu_slots(cat.find_system("ws-2x-rtx-4090"), cat);
//   s.lanes;       // 8: 2 cards on the Ryzen 9 7950X's 20 free lanes (28, 4 link the chipset, 4 the NVMe drive)
//   s.generation;  // 4: the RTX 4090's PCIe 4.0 on the CPU's 5.0
//   const GpuSpec timed = s.apply(cat.find_gpu("rtx-4090"));  // the card as it runs in that machine
//
// Where the GPUs sit: behind PCIe switches in a server whose topology says so (NVSwitch, HGX A100
// 4-GPU's direct NVLink, or `pcie_switch`), so they keep their own width; on the CPU's root ports
// otherwise (a workstation or desktop: `single_gpu`, `pcie_no_p2p`, `nvlink_bridge`), where they
// share the CPUs' free lanes (root_port_slots), or a listed motherboard's slots.
#pragma once

#include "capplan/hardware/catalog.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace capplan {

// The widest link each of `gpus` cards of `card_lanes` gets from `free_lanes`: its own where they all
// fit, else the widest power of two each gets (a desktop's 16 graphics lanes run two cards x8/x8,
// as AM5 and LGA 1700 boards bifurcate them), at least 1 (more cards than lanes need a PCIe switch,
// which the parts do not list).
inline int lanes_per_card(int card_lanes, int gpus, int free_lanes) {
  if (card_lanes <= 0 || gpus <= 0) return card_lanes;
  if (free_lanes >= static_cast<long long>(card_lanes) * gpus) return card_lanes;
  const int each = std::max(free_lanes, 0) / gpus;
  int w = 1;
  while (w * 2 <= each && w * 2 <= card_lanes) w *= 2;
  return w;
}

// CPUs with at most this many lanes are desktop parts (consumer platforms give 20-28): their first
// NVMe drive takes the M.2 slot wired to the CPU, further drives hang off the chipset. A server CPU's
// drives (U.2, M.2) each take 4 of its lanes.
inline constexpr int desktop_cpu_lanes = 28;

// The CPU lanes `nvme` NVMe drives take on a host whose CPUs are desktop parts (`desktop`) or not.
inline int nvme_cpu_lanes(int nvme, bool desktop) { return 4 * (desktop ? std::min(std::max(nvme, 0), 1) : std::max(nvme, 0)); }

// Lanes one socket of `cpu` leaves for GPU slots: its lanes less the chipset's link and the drives'
// (nvme_cpu_lanes); 0 where the CPU records no lanes.
inline int cpu_free_lanes(const CpuSpec& cpu, int nvme) {
  if (cpu.pcie_lanes <= 0) return 0;
  return std::max(0, cpu.pcie_lanes - std::min(cpu.chipset_lanes, cpu.pcie_lanes) - nvme_cpu_lanes(nvme, cpu.pcie_lanes <= desktop_cpu_lanes));
}

struct GpuSlots {
  int lanes = 0;        // electrical lanes each GPU's link runs at
  int generation = 0;   // the PCIe generation it runs at
  bool narrowed = false;  // below the card's own width or generation
  std::string basis;    // the arithmetic, in words

  // The card as it runs in these slots: its PCIe link at `lanes` and `generation`; a card without a
  // PCIe link (an SoC, a TPU) unchanged.
  [[nodiscard]] GpuSpec apply(const GpuSpec& g) const {
    GpuSpec out = g;
    if (g.pcie_lanes > 0 && g.pcie_generation > 0 && lanes > 0 && generation > 0) {
      out.pcie_lanes = lanes;
      out.pcie_generation = generation;
    }
    return out;
  }
};

namespace detail {
inline std::string pcie_link_text(int generation, int lanes) {
  return "PCIe " + std::to_string(generation) + ".0 x" + std::to_string(lanes);
}
}  // namespace detail

// The link each GPU of one node of `s` runs at when the GPUs sit on its CPUs' root ports: the CPUs'
// free lanes shared by the cards (lanes_per_card; each socket's lanes less its chipset link, less the
// lanes a socket gives to the link to its neighbour in a 2-socket EPYC, less 4 per NVMe drive on CPU
// lanes), at the older generation of the card and the CPUs; with a motherboard listed, also at most
// the width of its slots: `placed`, the slots the cards went in (capplan build's card_fit), else its
// widest ones. A CPU that records no lanes leaves the width to the slots (or the card's own).
inline GpuSlots root_port_slots(const SystemSpec& s, const Catalog& c, const std::vector<PcieSlot>* placed = nullptr) {
  const GpuSpec& g = c.find_gpu(s.gpu_id());
  const int n = s.gpus_per_node();
  GpuSlots out{g.pcie_lanes, g.pcie_generation, false, {}};
  if (g.pcie_lanes <= 0 || g.pcie_generation <= 0) {
    out.basis = g.id + " has no PCIe link";
    return out;
  }
  int cpu_generation = 0, lanes = 0, reserved = 0, sockets = 0, nvme = 0;
  bool lanes_known = true, desktop = false;
  std::string cpus;
  for (const SystemPart& p : s.parts) {
    if (p.kind != PartKind::cpu) continue;
    const CpuSpec& cpu = c.find_cpu(p.id);
    sockets += p.count;
    if (cpu.pcie_generation > 0) cpu_generation = cpu_generation > 0 ? std::min(cpu_generation, cpu.pcie_generation) : cpu.pcie_generation;
    if (cpu.pcie_lanes <= 0) lanes_known = false;
    desktop = desktop || (cpu.pcie_lanes > 0 && cpu.pcie_lanes <= desktop_cpu_lanes);
    lanes += p.count * cpu.pcie_lanes;
    reserved += p.count * std::min(cpu.chipset_lanes, cpu.pcie_lanes);
    cpus += (cpus.empty() ? "" : " + ") + (p.count == 1 ? std::string() : std::to_string(p.count) + " x ") + cpu.name;
  }
  // Two or more sockets: each gives socket_link_lanes to the links between them.
  int socket_links = 0;
  if (sockets > 1)
    for (const SystemPart& p : s.parts)
      if (p.kind == PartKind::cpu) socket_links += p.count * c.find_cpu(p.id).socket_link_lanes;
  for (const SystemPart& p : s.parts) {
    if (p.kind != PartKind::storage) continue;
    const StorageKind k = c.find_storage(p.id).kind;
    if (k == StorageKind::nvme_gen4 || k == StorageKind::nvme_gen5) nvme += p.count;
  }
  const int nvme_on_cpu = nvme_cpu_lanes(nvme, desktop) / 4;
  const int generation = std::min(g.pcie_generation, cpu_generation > 0 ? cpu_generation : g.pcie_generation);
  int w = g.pcie_lanes, gen = generation;
  std::vector<std::string> why;
  if (sockets > 0 && lanes_known) {
    const int free_lanes = std::max(0, lanes - reserved - socket_links - 4 * nvme_on_cpu);
    w = lanes_per_card(g.pcie_lanes, n, free_lanes);
    std::string t = std::to_string(n) + " GPU" + (n == 1 ? "" : "s") + " on " + std::to_string(free_lanes) + " free lanes of " + cpus + " (" +
                    std::to_string(lanes) + (reserved > 0 ? ", " + std::to_string(reserved) + " link the chipset" : std::string()) +
                    (socket_links > 0 ? ", " + std::to_string(socket_links) + " link the sockets" : std::string()) +
                    (nvme_on_cpu > 0 ? ", " + std::to_string(4 * nvme_on_cpu) + " the NVMe drive" + (nvme_on_cpu == 1 ? "" : "s") : std::string()) +
                    (nvme > nvme_on_cpu ? "; further drives on the chipset" : "") + ")";
    if (w < g.pcie_lanes) t += "; x" + std::to_string(g.pcie_lanes) + " each would need " + std::to_string(n * g.pcie_lanes) + " free lanes";
    why.push_back(std::move(t));
  } else if (sockets > 0) {
    why.push_back(cpus + " records no PCIe lanes, so the cards keep their own width");
  } else {
    why.push_back(s.id + " lists no CPU, so the cards keep their own width");
  }
  for (const SystemPart& p : s.parts) {
    if (p.kind != PartKind::motherboard) continue;
    const Motherboard& board = c.find_motherboard(p.id);
    // The slots the cards are in, else the board's GPU slots: the CPU's before the chipset's, the widest first.
    std::vector<PcieSlot> slots = placed ? *placed : board.slots;
    if (!placed)
      std::stable_sort(slots.begin(), slots.end(), [](const PcieSlot& a, const PcieSlot& b) {
        return a.from_chipset != b.from_chipset ? !a.from_chipset : a.lanes > b.lanes;
      });
    if (slots.empty()) break;  // no GPU slots recorded: the CPUs' lanes alone
    const std::size_t used = std::min(slots.size(), static_cast<std::size_t>(n));
    int narrowest = g.pcie_lanes;
    for (std::size_t i = 0; i < used; ++i) narrowest = std::min(narrowest, slots[i].lanes), gen = std::min(gen, slots[i].generation);
    w = std::min(w, narrowest);
    why.push_back(std::string(placed ? "the cards' slots" : n == 1 ? "the widest slot" : "the widest slots") + " of the " + board.name + ", x" +
                  std::to_string(narrowest) + " the narrowest" +
                  (used < static_cast<std::size_t>(n) ? " (it has " + std::to_string(slots.size()) + " GPU slots for " + std::to_string(n) + " GPUs)"
                                                      : std::string()));
    break;
  }
  out.lanes = w;
  out.generation = gen;
  out.narrowed = out.lanes < g.pcie_lanes || out.generation < g.pcie_generation;
  out.basis = detail::pcie_link_text(out.generation, out.lanes) + (n == 1 ? "" : " each") + ": ";
  for (std::size_t i = 0; i < why.size(); ++i) out.basis += (i ? "; " : "") + why[i];
  if (out.generation < g.pcie_generation)
    out.basis += "; PCIe " + std::to_string(out.generation) + ".0, the older of " + g.id + "'s " + std::to_string(g.pcie_generation) + ".0 and the host's";
  return out;
}

// The link each GPU of one node of a catalog system runs at: its own behind the PCIe switches of a
// server (topology nvswitch, nvlink_direct or pcie_switch), else root_port_slots.
inline GpuSlots gpu_slots(const SystemSpec& s, const Catalog& c) {
  if (s.topology == Topology::nvswitch || s.topology == Topology::nvlink_direct || s.topology == Topology::pcie_switch) {
    const GpuSpec& g = c.find_gpu(s.gpu_id());
    GpuSlots out{g.pcie_lanes, g.pcie_generation, false, {}};
    out.basis = g.pcie_lanes > 0 && g.pcie_generation > 0
                    ? detail::pcie_link_text(g.pcie_generation, g.pcie_lanes) + " each: a server's GPUs sit behind PCIe switches (" +
                          std::string(name(s.topology)) + ")"
                    : g.id + " has no PCIe link";
    return out;
  }
  return root_port_slots(s, c);
}

}  // namespace capplan
