// The IT power of GPUs at work with their hosts (CPUs, memory, storage, board, fans, PSU losses):
// what energy, carbon and electricity figures in reports multiply by time and PUE.
//
//   ItPower p = system_it_power(c.find_system("dgx-a100"), c);   // a known system: its parts
//   ItPower q = gpu_it_power(c.find_gpu("h100-sxm"), 8);          // only the GPU known: an allowance
//
// A known system: power/system_power.hpp at full load (every part at its maximum draw, through the
// system's PSU curve, all nodes). Only a GPU known, capplan's allowance (HostAllowance):
//   data-centre GPUs (SXM, OAM, PCIe): TDP x 1.10 per GPU. Patterson et al. 2021 ("Carbon
//     Emissions and Large Neural Network Training"), Table 4, measured 330 W of system power per
//     V100 (TDP 300 W) for GPT-3, counting the accelerator's share of host CPU, memory, network and
//     fans: 330 / 300 = 1.10;
//   consumer cards and workstation cards (PCIe cards with their own fans, desktop_card): (N x TDP +
//     hosts x desktop host) / PSU efficiency, hosts = max(ceil(N / 2), the
//     nodes the run was timed on): up to HostAllowance::desktop_gpus (2) a desktop. A node the run
//     was timed on that holds more cards than a desktop is a 2-socket GPU server instead, the host the
//     performance model assumes under PCIe switches (perf::assumed_host_memory_bandwidth: 2 sockets of
//     8 channels): 2 CPUs (an EPYC 7763, 280 W, with PCIe 4 and earlier; a Xeon Platinum 8480+,
//     350 W, with PCIe 5, as in NVIDIA/nccl#1639's 8 x RTX 5090 box; both in the catalog), 16 DIMMs,
//     an NVMe drive, and SystemPowerAssumptions' rack board (100 W) and fans (10 % of the other
//     parts), through an 80 PLUS Platinum 230 V redundant supply at 80 % load (92.2 %), as
//     power/system_power.hpp treats a system of more than 2 GPUs without a chassis (its supply sized at
//     the draw x 1.25). Each card takes 1 / gpus_per_node of that host, so a replica of 4 cards on a
//     node of 8 takes half. A node on one CPU's root ports (PcieHost root_complex or switch_pairs:
//     `--pcie-host cpu` or `pairs`), which the performance model times on one socket, is powered as
//     one: 1 CPU and 8 DIMMs (HostAllowance::server_sockets; for_pcie_host). A simplification for
//     PCIe 5: the timing's one socket is an EPYC 9004 with 12 channels, the power one 350 W Xeon
//     socket's CPU and 8 DIMMs (a 360 W EPYC 9654 with 12 would add about 70 W at the wall). The desktop
//     host = a 125 W CPU (Intel Core i9-13900K processor base power, Intel ARK) + the board, 5 fans, 2 DIMMs and an NVMe drive of power/system_power.hpp's SystemPowerAssumptions
//     (50 + 25 + 10 + 8 W), through an 80 PLUS Gold 115 V supply at 50% load (90%). Two cards share
//     one host as in the catalog's ws-2x-rtx-4090, whose parts at full load (CPU at TDP) come to 1.287 kW at the
//     wall against this allowance's (2 x 450 + 218) / 0.9 = 1.242 kW (a host per card: 1.484 kW);
//   an SoC (DGX Spark, Ryzen AI Max), one box each: (TDP + SoC box) / PSU efficiency, where the
//     SoC's TDP already holds its CPU, so the box adds no CPU: SystemPowerAssumptions' small board,
//     2 fans, the soldered memory as 2 modules and an NVMe drive (20 + 10 + 10 + 8 W), through the
//     same supply curve.
#pragma once

#include "capplan/error.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/perf/communication.hpp"
#include "capplan/power/efficiency.hpp"
#include "capplan/power/explain.hpp"
#include "capplan/power/system_power.hpp"

#include <algorithm>
#include <string>

namespace capplan {

struct HostAllowance {
  double server_factor = 1.10;                 // IT power / GPU TDP, data-centre GPUs (Patterson et al. 2021, Table 4)
  Power desktop_cpu = Power::from_value(125);  // Intel Core i9-13900K processor base power (Intel ARK)
  double desktop_psu_load = 0.5;               // where on the 80 PLUS Gold 115 V curve the desktop PSU runs
  int desktop_gpus = 2;                        // consumer cards one desktop host serves (ws-2x-rtx-4090 holds 2)
  // A node of more desktop cards than that: a 2-socket GPU server (see the header comment).
  Power server_cpu_pcie4 = Power::from_value(280);  // AMD EPYC 7763 default TDP (catalog: AMD's product page), PCIe 4 and earlier
  Power server_cpu_pcie5 = Power::from_value(350);  // Intel Xeon Platinum 8480+ TDP (catalog: Intel ARK), PCIe 5
  int server_dimms = 16;                            // 2 sockets x 8 channels, one DIMM each (half of them, rounded down, for one socket)
  int server_sockets = 2;                           // 1 where the GPUs sit on one CPU's root ports (for_pcie_host)
  // Where on the 80 PLUS Platinum 230 V redundant curve the supplies run: 80 %, as capplan power sizes
  // an assumed supply (the draw x 1.25: PsuSizingOptions::headroom).
  double server_psu_load = 0.8;

  void validate() const {
    require_finite(server_factor, "host.server_factor");
    if (server_factor < 1 || server_factor > 3) detail::fail("host.server_factor", explain_text::input(server_factor), "is outside [1, 3]");
    require_nonnegative(desktop_cpu.value(), "host.desktop_cpu");
    require_fraction(desktop_psu_load, "host.desktop_psu_load");
    if (!(desktop_psu_load > 0)) detail::fail("host.desktop_psu_load", explain_text::input(desktop_psu_load), "must be > 0");
    if (desktop_gpus < 1 || desktop_gpus > 16) detail::fail("host.desktop_gpus", std::to_string(desktop_gpus), "is outside [1, 16]");
    require_nonnegative(server_cpu_pcie4.value(), "host.server_cpu_pcie4");
    require_nonnegative(server_cpu_pcie5.value(), "host.server_cpu_pcie5");
    if (server_dimms < 0 || server_dimms > 64) detail::fail("host.server_dimms", std::to_string(server_dimms), "is outside [0, 64]");
    if (server_sockets < 1 || server_sockets > 2) detail::fail("host.server_sockets", std::to_string(server_sockets), "is not 1 or 2");
    require_fraction(server_psu_load, "host.server_psu_load");
    if (!(server_psu_load > 0)) detail::fail("host.server_psu_load", explain_text::input(server_psu_load), "must be > 0");
  }
};

// The allowance for a run timed on `host`: a GPU server of one socket where its GPUs sit on one CPU's
// root ports (root_complex, switch_pairs), as perf::assumed_host_memory_bandwidth times them, else two.
inline HostAllowance for_pcie_host(HostAllowance a, perf::PcieHost host) {
  a.server_sockets = host == perf::PcieHost::root_complex || host == perf::PcieHost::switch_pairs ? 1 : 2;
  return a;
}

struct ItPower {
  Power gpus{};      // GPU boards at TDP
  Power total{};     // IT power at the wall: GPUs, hosts and PSU losses
  // What to provision for: `total`, or a system vendor's stated maximum where it is higher
  // (SystemPower::planning_total); power caps (compare --max-power) compare against it, energy uses
  // `total`. 0 only where `known` is false.
  Power planning{};
  std::string basis; // the arithmetic, one short line ("8 x 700 W x 1.1 host = 6.16 kW")
  // false where the accelerator has no published power figure (Google's TPUs): the powers above are
  // 0 and mean "unknown", and energy and carbon are not estimated (never reported as 0).
  bool known = true;
};

// A card that goes in a desktop, with a desktop host: a consumer card, or a workstation card (a PCIe
// card with its own fans, blower or open-air: RTX 6000 Ada, RTX PRO 6000, RTX A6000, RTX 4000 Ada). A passively
// cooled PCIe card (A100 PCIe, L40S, L4) needs a server's airflow and takes the data-centre factor, as
// does one whose cooling the catalog does not record.
inline bool desktop_card(const GpuSpec& g) {
  return g.form_factor == FormFactor::consumer ||
         (g.form_factor == FormFactor::pcie && (g.cooling == GpuCooling::blower || g.cooling == GpuCooling::open_air));
}

namespace detail {
// A consumer card's desktop host: CPU, board, fans, 2 DIMMs and an NVMe drive.
inline Power desktop_host_power(const HostAllowance& a) {
  const SystemPowerAssumptions s;
  return a.desktop_cpu + s.tower_board + s.tower_fan * static_cast<double>(s.tower_fans) + s.memory_module * 2.0 + s.nvme_active;
}

// A GPU server's host for desktop cards (HostAllowance::server_sockets sockets), without its fans
// (gpu_it_power adds them at SystemPowerAssumptions::rack_fan_fraction of the cards and these loads,
// as power/system_power.hpp's rack servers): its CPUs, DIMMs (server_dimms for 2 sockets, half for
// one) and an NVMe drive (`loads`), and the rack board.
struct ServerHost {
  int sockets = 2;
  int dimms = 16;
  Power cpu{};    // each
  Power loads{};  // CPUs, DIMMs, drive
  Power parts{};  // loads + board
};
inline ServerHost gpu_server_host(const GpuSpec& g, const HostAllowance& a) {
  const SystemPowerAssumptions s;
  ServerHost h;
  h.sockets = a.server_sockets;
  h.dimms = a.server_dimms * a.server_sockets / 2;
  h.cpu = g.pcie_generation >= 5 ? a.server_cpu_pcie5 : a.server_cpu_pcie4;
  h.loads = h.cpu * static_cast<double>(h.sockets) + s.memory_module * static_cast<double>(h.dimms) + s.nvme_active;
  h.parts = h.loads + s.rack_board;
  return h;
}
inline double server_psu_efficiency(const HostAllowance& a) {
  return load_efficiency_curve(EightyPlusTier::platinum, PsuInput::v230_internal_redundant).at(a.server_psu_load);
}
}  // namespace detail

// Only the GPU known: `gpus` of `g` with capplan's host allowance. `gpus_per_node`: the node size the
// run was timed on (0: not known); consumer cards then get at least one desktop host per node, so a
// run timed on one card per host is never powered as fewer hosts.
inline ItPower gpu_it_power(const GpuSpec& g, int gpus, const HostAllowance& a = {}, int gpus_per_node = 0) {
  require_positive_count(gpus, "gpus");
  a.validate();
  if (gpus_per_node < 0) detail::fail("gpus_per_node", std::to_string(gpus_per_node), "must be 0 (not known) or a positive count");
  ItPower p;
  if (!(g.tdp.value() > 0)) {
    p.known = false;
    p.basis = g.id + " has no published power figure, so energy and carbon are not estimated";
    return p;
  }
  p.gpus = g.tdp * static_cast<double>(gpus);
  const bool desktop = desktop_card(g) || g.form_factor == FormFactor::soc;
  if (!desktop) {
    p.total = p.gpus * a.server_factor;  // Patterson et al. 2021, Table 4: 330 W per 300 W V100
    p.planning = p.total;
    p.basis = std::to_string(gpus) + " x " + explain_text::quantity(g.tdp) + " x " + explain_text::number(a.server_factor, 3) + " host = " +
              explain_text::quantity(p.total);
    return p;
  }
  const bool soc = g.form_factor == FormFactor::soc;
  const int node_cards = gpus_per_node > 0 ? std::min(gpus_per_node, gpus) : 0;
  if (!soc && node_cards > a.desktop_gpus) {
    // Nodes of more cards than a desktop holds: each card takes its share of a GPU server's (server_sockets)
    // host, 1 / gpus_per_node of it (a whole node's cards a whole host; a replica of 4 on a node of 8,
    // half), and fans at rack_fan_fraction of the cards and that share.
    const SystemPowerAssumptions sa;
    const double share = static_cast<double>(gpus) / gpus_per_node;
    const detail::ServerHost h = detail::gpu_server_host(g, a);
    const Power fixed = h.parts * share;                                     // CPUs, DIMMs, drive, board
    const Power fans = (p.gpus + h.loads * share) * sa.rack_fan_fraction;  // as system_power's rack servers
    const double eta = detail::server_psu_efficiency(a);
    p.total = (p.gpus + fixed + fans) / eta;  // P_wall = P_dc / efficiency (80 PLUS)
    p.planning = p.total;
    const std::string of = share == 1 ? std::string("a") : explain_text::number(share, 4) + " x a";
    p.basis = "(" + std::to_string(gpus) + " x " + explain_text::quantity(g.tdp) + " + " + of + " " + std::to_string(h.sockets) +
              "-socket GPU server host, one a node of " + std::to_string(gpus_per_node) + " (" + std::to_string(h.sockets) + " x " +
              explain_text::quantity(h.cpu) + (h.sockets == 1 ? " CPU + " : " CPUs + ") + std::to_string(h.dimms) + " DIMMs x " +
              explain_text::quantity(sa.memory_module) + " + " + explain_text::quantity(sa.nvme_active) + " drive + " +
              explain_text::quantity(sa.rack_board) + " board = " + explain_text::quantity(h.parts) + ") + fans " +
              explain_text::number(sa.rack_fan_fraction * 100, 3) + " % of the rest " + explain_text::quantity(fans) + ") / " +
              explain_text::number(eta, 3) + " PSU (80 PLUS Platinum, 230 V, at " + explain_text::percent(a.server_psu_load) + " load) = " +
              explain_text::quantity(p.total);
    return p;
  }
  const Power host = soc ? SystemPowerAssumptions{}.soc_box() : detail::desktop_host_power(a);
  // An SoC is a box; cards share a desktop, a host per desktop_gpus cards and at least one per node.
  const int desktops = (gpus - 1) / a.desktop_gpus + 1;
  const int nodes = gpus_per_node > 0 ? (gpus - 1) / gpus_per_node + 1 : 1;
  const int hosts = soc ? gpus : std::max(desktops, nodes);
  const double eta = load_efficiency_curve(EightyPlusTier::gold).at(a.desktop_psu_load);
  // P_wall = P_dc / efficiency (80 PLUS)
  p.total = (p.gpus + host * static_cast<double>(hosts)) / eta;
  p.planning = p.total;
  if (hosts == gpus) {
    p.basis = std::to_string(gpus) + " x (" + explain_text::quantity(g.tdp) + (soc ? " SoC, its CPU included, + " : " + ") +
              explain_text::quantity(host) + (soc ? " box" : " host") + ") / " + explain_text::number(eta, 3) + " PSU = " +
              explain_text::quantity(p.total);
  } else {
    p.basis = "(" + std::to_string(gpus) + " x " + explain_text::quantity(g.tdp) + " + " + std::to_string(hosts) + " x " +
              explain_text::quantity(host) + " host, one for every " + std::to_string(a.desktop_gpus) + " cards" +
              (nodes > desktops ? ", at least one per node of " + std::to_string(gpus_per_node) : std::string()) + ") / " +
              explain_text::number(eta, 3) + " PSU = " + explain_text::quantity(p.total);
  }
  return p;
}

// A known system, `units` of it: its parts at full load through its PSU (system_power), its CPUs at
// their TDP: a run that keeps the GPUs busy does not hold the CPU at its package power limit
// (SystemPowerAssumptions::cpu_at_package_limit), which capplan power sizes the PSU and circuit for.
inline ItPower system_it_power(const SystemSpec& s, const Catalog& c, int units = 1) {
  require_positive_count(units, "units");
  SystemPowerAssumptions at_tdp;
  at_tdp.cpu_at_package_limit = false;
  const SystemPower sp = system_power(s, c, at_tdp);
  // Power caps (compare --max-power) plan for the machine at full load, as capplan power does.
  const SystemPower full = system_power(s, c);
  ItPower p;
  p.gpus = max_draw_of(sp.components, ComponentKind::gpu) * static_cast<double>(sp.nodes * units);
  p.total = sp.wall_total() * static_cast<double>(units);
  p.planning = std::max(full.planning_total(), sp.planning_total()) * static_cast<double>(units);
  p.basis = std::to_string(units) + " x " + s.id + " at full load, " + explain_text::quantity(sp.wall_total()) + " at the wall" +
            (sp.psu_overloaded ? " (PSU overloaded: DC draw)" : "") + " = " + explain_text::quantity(p.total) +
            (p.planning > p.total ? std::string(full.planning_total() > full.wall_total() ? " (the vendor's maximum, " : " (its CPUs at their package power limit, ") +
                                        explain_text::quantity(p.planning) + ", for power caps)"
                                  : std::string());
  return p;
}

// The allowance as one line, for the assumptions under a table; `socs`: the table has SoC rows, whose
// box is stated too.
inline std::string host_allowance_note(const HostAllowance& a = {}, bool socs = false) {
  const Power host = detail::desktop_host_power(a);
  const double eta = load_efficiency_curve(EightyPlusTier::gold).at(a.desktop_psu_load);
  return "IT power: systems from their parts at full load through their PSU (capplan power); a GPU alone or a cloud instance: "
         "data-centre GPUs at TDP x " + explain_text::number(a.server_factor, 3) +
         " for their share of the host (Patterson et al. 2021, Table 4: 330 W per 300 W V100), consumer and workstation cards (each card's TDP + a " +
         explain_text::quantity(host) + " desktop host for every " + (a.desktop_gpus == 1 ? std::string("card") : std::to_string(a.desktop_gpus) + " cards") +
         ", rounded up) / " + explain_text::percent(eta) + " (80 PLUS Gold); a node timed with more than " + std::to_string(a.desktop_gpus) +
         " cards is a " + std::to_string(a.server_sockets) + "-socket GPU server (" + std::to_string(a.server_sockets) +
         (a.server_sockets == 1 ? " CPU, " : " CPUs, ") + std::to_string(a.server_dimms * a.server_sockets / 2) + " DIMMs, board, fans) / " +
         explain_text::percent(detail::server_psu_efficiency(a)) + " (80 PLUS Platinum, 230 V)" +
         (socs ? ", SoCs (TDP, their CPU included, + " + explain_text::quantity(SystemPowerAssumptions{}.soc_box()) + " for board, fans, memory and drive) / " +
                     explain_text::percent(eta)
               : std::string()) +
         ".";
}

}  // namespace capplan
