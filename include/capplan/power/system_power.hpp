// The power of a catalog system: its parts as power components, PSU advice, wall power through
// the system's own PSU (its 80 PLUS tier curve), the wall circuit and the heat.
//
//   const Catalog& c = Catalog::builtin();
//   SystemPower p = system_power(c.find_system("ws-rtx-4090"), c);
//   p.draw.max_total;  p.psu.recommended_rating;  p.wall->wall;  p.circuit.ok;  p.heat.btu_per_hour
//
// Parts map to components as follows (per node; `nodes` multiplies the totals):
//   GPU      max = TDP, idle = the catalog's idle power (0 W where the vendor publishes none);
//   CPU      max = its package power limit where recorded (CpuSpec::max_power: AMD PPT, Intel PL2),
//            else TDP; no idle figure in the catalog, so idle = TDP (conservative);
//   memory   the module's typical power, else SystemPowerAssumptions::memory_module (idle = max);
//   storage  the drive's active/idle power, else the assumption for its kind;
//   network  the adapter's power, else SystemPowerAssumptions::network_adapter (idle = max);
//   board and fans: an allowance (see SystemPowerAssumptions; drawn whatever the load).
// The PSU parts are not loads: they set the wall-power curve. Chassis are not loads either; they
// tell a tower (rack_units == 0) from a rack server, which sets the board-and-fans allowance.
// Power sits above hardware in the layering (hardware -> ... -> power), so it may read the catalog.
#pragma once

#include "capplan/error.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/power/circuit.hpp"
#include "capplan/power/component.hpp"
#include "capplan/power/efficiency.hpp"
#include "capplan/power/heat.hpp"
#include "capplan/power/psu.hpp"
#include "capplan/units/literals.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace capplan {

// Figures used where the catalog has none. These are capplan's allowances, not measurements;
// every one used is listed in SystemPower::assumptions.
struct SystemPowerAssumptions {
  // A DDR4/DDR5 DIMM under load draws a few watts (Micron TN-40-07, "Calculating Memory Power for
  // DDR4 SDRAM", gives the method; RDIMMs with a register are at the upper end): 5 W per module.
  Power memory_module = Power::from_value(5);
  // NVMe SSD: datasheet maximum active power of PCIe 4.0 drives is 5–9 W; idle well under 1 W.
  Power nvme_active = Power::from_value(8);
  Power nvme_idle = Power::from_value(1);
  Power sata_ssd_active = Power::from_value(4);
  Power sata_ssd_idle = Power::from_value(0.5);
  // 3.5" enterprise HDD: about 10 W operating, 5 W idle (Seagate Exos X18 datasheet: 9.4 W typical
  // operating, 5.3 W idle).
  Power hdd_active = Power::from_value(10);
  Power hdd_idle = Power::from_value(5);
  // A 200-400 Gb/s adapter: 20 W (NVIDIA ConnectX-6/7 product briefs list roughly 15-25 W typical).
  Power network_adapter = Power::from_value(20);
  // Desktop board and fans: 50 W for the board (standard ATX boards draw about 20-50 W:
  // sourcecalculator.com "Motherboard Power Supply Calculator") plus 5 case fans at 5 W (0.5-5 W
  // per PC fan: watt-calculator.com "PC Build Power Consumption Calculator").
  Power tower_board = Power::from_value(50);
  int tower_fans = 5;
  Power tower_fan = Power::from_value(5);
  // A box built around an SoC (DGX Spark, a Ryzen AI Max mini-PC): the SoC's TDP covers its CPU and
  // GPU, so the box adds a small board at the low end of the ATX range above (20 W: no chipset, no
  // slots to feed), 2 fans and its soldered LPDDR5X at 2 modules' worth. An assumption, not a
  // measurement: with an NVMe drive a DGX Spark (140 W GB10) draws 188 W of DC, inside the 240 W its
  // adapter delivers (chargerlab's teardown: 48 V x 5 A), 209 W at the wall.
  Power soc_board = Power::from_value(20);
  int soc_fans = 2;
  // What an SoC's box adds to the SoC's TDP: board, fans, the soldered memory as 2 modules, an NVMe drive.
  [[nodiscard]] Power soc_box() const { return soc_board + tower_fan * static_cast<double>(soc_fans) + memory_module * 2.0 + nvme_active; }
  // Rack server: 100 W for a dual-socket board with its BMC, plus fans at 10% of the other parts'
  // maximum draw (fan power rises with the heat to move). An assumption, not a measurement.
  Power rack_board = Power::from_value(100);
  double rack_fan_fraction = 0.10;
  // A CPU at full load draws its package power limit (CpuSpec::max_power: AMD PPT, Intel PL2) where
  // recorded: what a PSU and a circuit must carry. false: at its TDP, the load a run that keeps the GPUs
  // busy puts on it (a few data-loader cores), which the energy of a run counts (system_it_power).
  bool cpu_at_package_limit = true;
  // Each GPU's board power limit (nvidia-smi --power-limit, MSI Afterburner's power slider): its
  // maximum draw, which the PSU's sustained load and its transients (psu.hpp: GPU max x the transient
  // factor) scale from; absent: the TDP. Above 0 and at most the GPU's TDP: raising a limit above
  // the TDP, as some boards allow, is not modelled. Idle draw does not change.
  std::optional<Power> gpu_power_limit;
  // The PSU curve used when the system lists no PSU: the recommended rating at 80 PLUS Gold
  // 115 V for a tower, 80 PLUS Platinum 230 V redundant for a rack server.
};

struct SystemPower {
  const SystemSpec* system = nullptr;
  int nodes = 1;
  std::vector<PowerComponent> components;  // per node, loads only
  SystemDraw draw;                         // per node, every part at utilization 1
  PsuSizing psu;                           // advice per node
  std::optional<PowerSupply> installed_psu;  // the system's PSU part, when listed
  int installed_psu_count = 0;
  Power psu_capacity{};                    // installed (count x rated), else the recommended rating
  std::string psu_curve_name;
  std::optional<WallPower> wall;           // per node at full load; absent when the PSU is overloaded
  std::optional<WallPower> wall_idle;      // per node, every part idle
  bool psu_overloaded = false;
  std::optional<Power> vendor_max;          // per node: the vendor's stated maximum (SystemSpec::max_power)
  CircuitCheck circuit;                    // the whole system at planning_total() on the circuit given
  HeatOutput heat;                         // the whole system at planning_total()
  std::vector<std::string> assumptions;    // allowances used where the catalog has no figure

  [[nodiscard]] Power wall_total() const {
    const Power w = wall ? wall->wall : draw.max_total;
    return w * static_cast<double>(nodes);
  }
  // What to plan the wall circuit and the cooling for: the parts' estimate at the wall, or the
  // vendor's stated maximum where it is higher (it counts parts the estimate does not itemize).
  [[nodiscard]] Power planning_total() const {
    const Power w = wall_total();
    if (!vendor_max) return w;
    const Power v = *vendor_max * static_cast<double>(nodes);
    return v > w ? v : w;
  }
};

namespace detail {

// hardware/psu.hpp's 80 PLUS table as a power/efficiency.hpp curve (the points the tier sets).
inline LoadEfficiencyCurve curve_of(const PowerSupply& psu) {
  const EfficiencyCurve c = psu.curve();
  LoadEfficiencyCurve out;
  out.name = std::string(name(psu.tier)) + " (" + std::string(name(psu.input)) + ")";
  out.source = "80 PLUS program minimums (hardware/psu.hpp)";
  for (std::size_t i = 0; i < c.loads.size(); ++i) {
    if (c.efficiency[i]) out.points.push_back({c.loads[i], *c.efficiency[i]});
  }
  if (out.points.empty()) detail::fail("psu.tier", std::string(name(psu.tier)), "sets no efficiency curve for " + psu.id);
  return out;
}

inline std::string watts(Power p) { return explain_text::quantity(p); }

}  // namespace detail

// The parts of one node of `s` as power components, and the assumptions used.
inline std::vector<PowerComponent> system_components(const SystemSpec& s, const Catalog& c,
                                                     std::vector<std::string>* assumptions = nullptr,
                                                     const SystemPowerAssumptions& a = {}) {
  std::vector<PowerComponent> out;
  auto note = [&](const std::string& line) {
    if (assumptions) assumptions->push_back(line);
  };
  bool rack = false, has_memory = false;
  int socs = 0;  // SoC boxes: GPUs of form factor soc, one a box
  for (const auto& p : s.parts) {
    switch (p.kind) {
      case PartKind::gpu: {
        const GpuSpec& g = c.find_gpu(p.id);
        // A rent-only part (TPU, Trainium) is never in a machine of one's own, and its provider gives no power.
        if (g.form_factor == FormFactor::cloud)
          detail::fail("gpu", g.id, "is rent-only (" + std::string(name(g.form_factor)) + "): there is no machine of one's own to power");
        if (a.gpu_power_limit) {
          const Power limit = *a.gpu_power_limit;
          if (g.form_factor == FormFactor::soc)
            detail::fail("gpu_power_limit", detail::watts(limit), "applies to a GPU card; " + g.id + " is a system-on-chip whose TDP covers its CPU too");
          if (!(limit.value() > 0) || !std::isfinite(limit.value()))
            detail::fail("gpu_power_limit", detail::watts(limit), "must be a positive power");
          if (limit < g.idle_power)
            detail::fail("gpu_power_limit", detail::watts(limit), "is below " + g.id + "'s idle draw of " + detail::watts(g.idle_power));
          if (limit > g.tdp)
            detail::fail("gpu_power_limit", detail::watts(limit),
                         "is above " + g.id + "'s TDP of " + detail::watts(g.tdp) + ": a limit lowers the draw; raising it above the TDP is not modelled");
          out.push_back(gpu_component(g.id, g.tdp, g.idle_power, p.count, limit));
          note(g.id + ": power-limited to " + detail::watts(limit) + " a card (TDP " + detail::watts(g.tdp) + "): its maximum draw, and the transients the PSU is sized for scale from it");
        } else {
          out.push_back(gpu_component(g.id, g.tdp, g.idle_power, p.count));
        }
        if (g.idle_power.value() == 0) note(g.id + ": no idle figure in the catalog, idle counted as 0 W");
        if (g.form_factor == FormFactor::soc) {
          socs += p.count;
          note(g.id + ": a system-on-chip, its CPU inside its TDP (" + detail::watts(g.tdp) + "), one a box");
        }
        break;
      }
      case PartKind::cpu: {
        const CpuSpec& cpu = c.find_cpu(p.id);
        // At full load a CPU draws its package power limit (AMD PPT, Intel PL2) where the catalog
        // records one above its TDP; idle is counted at the TDP (no idle figure in the catalog).
        const Power full = a.cpu_at_package_limit ? full_load_power(cpu) : cpu.tdp;
        out.push_back(cpu_component(cpu.id, full, cpu.tdp, p.count));
        if (cpu.max_power && a.cpu_at_package_limit)
          note(cpu.id + ": at its maximum power " + detail::watts(full) + " at full load (" +
               (cpu.vendor == Vendor::intel ? "Intel maximum turbo power, PL2" : "AMD package power tracking, PPT") + "; TDP " +
               detail::watts(cpu.tdp) + "), at its TDP idle (no idle figure in the catalog)");
        else
          note(cpu.id + ": at its TDP " + detail::watts(cpu.tdp) + " whatever the load (no idle figure in the catalog)");
        break;
      }
      case PartKind::memory: {
        has_memory = true;
        const MemoryModule& m = c.find_memory_module(p.id);
        const Power w = m.power ? *m.power : a.memory_module;
        if (!m.power) note(m.id + ": no power figure in the catalog; " + detail::watts(w) + " per module assumed");
        out.push_back(memory_modules(m.id, w, w, p.count));
        break;
      }
      case PartKind::storage: {
        const StorageDevice& d = c.find_storage(p.id);
        Power act = a.nvme_active, idle = a.nvme_idle;
        if (d.kind == StorageKind::hdd) {
          act = a.hdd_active;
          idle = a.hdd_idle;
        } else if (d.kind == StorageKind::sata_ssd) {
          act = a.sata_ssd_active;
          idle = a.sata_ssd_idle;
        }
        if (!d.active_power) note(d.id + ": no power figure in the catalog; " + detail::watts(act) + " active, " + detail::watts(idle) + " idle assumed");
        if (d.active_power) act = *d.active_power;
        if (d.idle_power) idle = *d.idle_power;
        if (idle > act) idle = act;
        out.push_back(storage_devices(d.id, act, idle, p.count));
        break;
      }
      case PartKind::network: {
        const NetworkAdapter& n = c.find_network_adapter(p.id);
        const Power w = n.power ? *n.power : a.network_adapter;
        if (!n.power) note(n.id + ": no power figure in the catalog; " + detail::watts(w) + " assumed");
        PowerComponent comp{n.id, ComponentKind::other, w, w, p.count};
        comp.validate();
        out.push_back(comp);
        break;
      }
      case PartKind::chassis:
        rack = rack || c.find_chassis(p.id).rack_units > 0;
        break;
      case PartKind::psu: break;
      case PartKind::motherboard: break;  // in the board-and-fans allowance below
    }
  }
  // SoC boxes: a small board and 2 fans each, and the soldered memory (no DIMM to list) as 2 modules a
  // box, the box gpu_it_power counts (SystemPowerAssumptions::soc_box, with the drive where listed).
  if (socs > 0) {
    const Power w = (a.soc_board + a.tower_fan * static_cast<double>(a.soc_fans)) * static_cast<double>(socs);
    out.push_back(board_and_fans("board and fans", w));
    note("board and fans (SoC box): " + std::to_string(socs) + " x (" + detail::watts(a.soc_board) + " small board + " +
         std::to_string(a.soc_fans) + " fans x " + detail::watts(a.tower_fan) + ") = " + detail::watts(w) + " (capplan's allowance, not measured)");
    if (!has_memory) {
      out.push_back(memory_modules("soldered memory", a.memory_module, a.memory_module, 2 * socs));
      note("soldered memory: the unified LPDDR5X of " + std::to_string(socs) + " box(es) as 2 modules each at " + detail::watts(a.memory_module) +
           " (capplan's allowance)");
    }
    return out;
  }
  // Without a chassis part, several GPUs mean a server.
  bool has_chassis = false;
  for (const auto& p : s.parts) has_chassis = has_chassis || p.kind == PartKind::chassis;
  if (!has_chassis) rack = s.gpus_per_node() > 2;
  if (rack) {
    Power others{};
    for (const auto& comp : out) others += comp.max_draw * static_cast<double>(comp.count);
    const Power fans = others * a.rack_fan_fraction;
    out.push_back(board_and_fans("board and fans", a.rack_board + fans));
    note("board and fans (rack server): " + detail::watts(a.rack_board) + " board + " +
         explain_text::number(a.rack_fan_fraction * 100, 3) + "% of the other parts for fans = " + detail::watts(a.rack_board + fans) +
         " (capplan's allowance, not measured)");
  } else {
    const Power w = a.tower_board + a.tower_fan * static_cast<double>(a.tower_fans);
    out.push_back(board_and_fans("board and fans", w));
    note("board and fans (desktop): " + detail::watts(a.tower_board) + " board (20-50 W for ATX boards, sourcecalculator.com) + " +
         std::to_string(a.tower_fans) + " fans x " + detail::watts(a.tower_fan) + " (0.5-5 W per fan, watt-calculator.com) = " +
         detail::watts(w));
  }
  return out;
}

// Draw, PSU advice, wall power, circuit check and heat of a catalog system at full load.
// `psu_options` sets the PSU sizing rules (headroom, transient factor).
inline SystemPower system_power(const SystemSpec& s, const Catalog& c, const SystemPowerAssumptions& a = {},
                                const Circuit& circuit = circuits::us_15a_120v(), const PsuSizingOptions& psu_options = {}) {
  SystemPower r;
  r.system = &s;
  r.nodes = s.nodes;
  r.components = system_components(s, c, &r.assumptions, a);
  r.draw = system_draw(r.components, 1.0);
  r.psu = size_psu(r.components, psu_options);
  bool rack = s.gpus_per_node() > 2;
  for (const auto& p : s.parts) {
    if (p.kind == PartKind::psu && !r.installed_psu) {
      r.installed_psu = c.find_psu(p.id);
      r.installed_psu_count = p.count;
    }
    if (p.kind == PartKind::chassis) rack = c.find_chassis(p.id).rack_units > 0;
  }
  LoadEfficiencyCurve curve;
  if (r.installed_psu) {
    r.psu_capacity = r.installed_psu->rated * static_cast<double>(r.installed_psu_count);
    curve = detail::curve_of(*r.installed_psu);
  } else {
    PowerSupply assumed;
    assumed.id = "assumed";
    assumed.tier = rack ? EightyPlusTier::platinum : EightyPlusTier::gold;
    // The supply's curve at the circuit's voltage: 230 V ratings on a 220-240 V circuit.
    assumed.input = rack ? PsuInput::v230_internal_redundant : circuit.volts >= 200 ? PsuInput::v230_eu_internal : PsuInput::v115_internal;
    curve = detail::curve_of(assumed);
    r.psu_capacity = r.psu.recommended_rating ? *r.psu.recommended_rating : r.psu.required;
    r.assumptions.push_back("no PSU listed: wall power through an " + curve.name + " supply of the recommended " +
                            detail::watts(r.psu_capacity));
  }
  r.psu_curve_name = curve.name;
  if (r.draw.max_total > r.psu_capacity) {
    r.psu_overloaded = true;  // reported, not thrown: the advice says which PSU to buy instead
  } else {
    r.wall = wall_power(r.draw.max_total, r.psu_capacity, curve);
    r.wall_idle = wall_power(r.draw.idle_total, r.psu_capacity, curve);
  }
  r.vendor_max = s.max_power;
  if (r.vendor_max) {
    const Power per_node = r.wall_total() / static_cast<double>(r.nodes);
    r.assumptions.push_back(*r.vendor_max > per_node
                                ? "the vendor states " + detail::watts(*r.vendor_max) + " max per node, above the parts' " + detail::watts(per_node) +
                                      " at the wall: the circuit and the heat use the stated maximum, which counts what the parts list does not "
                                      "itemize (switches, DPUs, drives, fans)"
                                : "the vendor states " + detail::watts(*r.vendor_max) + " max per node, at or below the parts' " +
                                      detail::watts(per_node) + " at the wall: the circuit and the heat use the parts' estimate");
  }
  r.circuit = check_circuit(r.planning_total(), circuit);
  r.heat = heat_output(r.planning_total());
  return r;
}

}  // namespace capplan
