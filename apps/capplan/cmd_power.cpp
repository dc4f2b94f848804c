// capplan power --system NAME, or --gpu G --gpus N [--cpu ...]: draw per part, PSU advice, wall
// power, the wall circuit and heat, from a catalog system's parts or from parts named on the command
// line (include/capplan/power/system_power.hpp).
#include "args.hpp"
#include "commands.hpp"
#include "context.hpp"
#include "output.hpp"
#include "workload_args.hpp"

#include <capplan/hardware/catalog.hpp>
#include <capplan/plan/it_power.hpp>
#include <capplan/power/system_power.hpp>
#include <capplan/report/power_output.hpp>
#include <capplan/report/table.hpp>
#include <capplan/units/format.hpp>

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capplan::cli {

namespace {

struct PowerArgs {
  std::string system;
  // A machine from parts instead of a catalog system.
  std::string gpu, cpu, memory, psu, nic, chassis;
  std::optional<int> gpus, cpus, dimms, psus, nics;
  std::vector<std::string> drives;  // ID or ID:COUNT, repeatable
  double psu_headroom = 0.25;
  std::string circuit = "us-15a-120v";
  std::string power_limit;  // --power-limit: each GPU's board power limit, e.g. "300W"
};

// A count flag of a part: 1..1024 (SystemSpec's bound), `fallback` when not given.
int part_count(std::optional<int> v, int fallback, std::string_view flag) {
  const int n = positive_flag(v, fallback, flag);
  if (n > 1024) detail::fail(flag, std::to_string(n), "is more than 1024 parts");
  return n;
}

// The machine of --gpu, --cpu, --memory, --drive, --nic, --psu, --chassis: each part looked up in
// the catalog (an unknown id names its kind and the closest ids), then checked as a system.
SystemSpec system_of_parts(const PowerArgs& a, const Catalog& cat, std::vector<std::string>& notes) {
  SystemSpec s;
  s.id = "custom";
  const GpuSpec& g = cat.find_gpu(a.gpu);
  if (g.form_factor == FormFactor::cloud)
    detail::fail("--gpu", g.id, "is rent-only (Google's TPUs, AWS Trainium): there is no machine of one's own to power, and no published power figure");
  const int gpus = part_count(a.gpus, 1, "--gpus");
  s.parts.push_back({PartKind::gpu, g.id, gpus});
  s.name = std::to_string(gpus) + " x " + g.name;
  s.topology = gpus == 1 ? Topology::single_gpu : Topology::pcie_switch;
  const auto needs = [&](const std::optional<int>& count, const std::string& part, std::string_view flag, std::string_view part_flag) {
    if (count && part.empty()) detail::fail(flag, std::to_string(*count), "needs " + std::string(part_flag));
  };
  if (g.form_factor == FormFactor::soc) {
    // An SoC box: its CPU is in the package and its memory soldered beside it; there is none to add.
    if (gpus > 1) detail::fail("--gpus", std::to_string(gpus), "puts several " + g.id + " in one machine, but a system-on-chip is a box of its own: power one");
    if (!a.cpu.empty()) detail::fail("--cpu", a.cpu, "adds a CPU to " + g.id + ", a system-on-chip whose CPU is inside it");
    if (!a.memory.empty()) detail::fail("--memory", a.memory, "adds DIMMs to " + g.id + ", a system-on-chip whose memory is soldered");
  }
  needs(a.cpus, a.cpu, "--cpus", "--cpu");
  needs(a.dimms, a.memory, "--dimms", "--memory");
  needs(a.psus, a.psu, "--psus", "--psu");
  needs(a.nics, a.nic, "--nics", "--nic");
  if (!a.cpu.empty()) {
    const CpuSpec& c = cat.find_cpu(a.cpu);
    const int n = part_count(a.cpus, 1, "--cpus");
    s.parts.push_back({PartKind::cpu, c.id, n});
    s.name += " + " + (n > 1 ? std::to_string(n) + " x " : "") + c.name;
  }
  if (!a.memory.empty()) s.parts.push_back({PartKind::memory, cat.find_memory_module(a.memory).id, part_count(a.dimms, 4, "--dimms")});
  for (const std::string& d : a.drives) {
    const auto colon = d.rfind(':');
    std::optional<int> count;
    std::string id = d;
    if (colon != std::string::npos) {
      id = d.substr(0, colon);
      const std::string n = d.substr(colon + 1);
      if (n.empty() || n.size() > 4 || n.find_first_not_of("0123456789") != std::string::npos)
        detail::fail("--drive", "\"" + d + "\"", "is not ID or ID:COUNT (e.g. samsung-990-pro:2)");
      count = std::stoi(n);
    }
    s.parts.push_back({PartKind::storage, cat.find_storage(id).id, part_count(count, 1, "--drive")});
  }
  // The host parts not given are those capplan's IT-power allowance assumes (plan/it_power.hpp,
  // HostAllowance): a desktop for up to 2 desktop cards (a Core i9-13900K), else a 2-socket GPU
  // server (EPYC 7763s with PCIe 4 cards, Xeon Platinum 8480+s with PCIe 5) in a rack chassis; one
  // DIMM a memory channel of the CPU's type (2 on a desktop) and one NVMe drive. A CPU given decides
  // desktop or server by its memory channels. A machine without its CPU would get too small a PSU.
  if (g.form_factor != FormFactor::soc && g.host_link_bandwidth.value() > 0) {
    notes.push_back(g.id + " is hosted by the Grace CPU of its superchip, which the catalog does not hold: no host part is assumed.");
  } else if (g.form_factor != FormFactor::soc) {
    const HostAllowance host;
    const CpuSpec* given = a.cpu.empty() ? nullptr : &cat.find_cpu(a.cpu);
    const bool desktop = given ? given->memory_channels <= 2 : desktop_card(g) && gpus <= host.desktop_gpus;
    std::vector<std::string> assumed;
    const CpuSpec& cpu = given ? *given : cat.find_cpu(desktop ? "core-i9-13900k" : g.pcie_generation >= 5 ? "xeon-platinum-8480plus" : "epyc-7763");
    const int sockets = given ? part_count(a.cpus, 1, "--cpus") : desktop ? 1 : host.server_sockets;
    if (!given) {
      s.parts.push_back({PartKind::cpu, cpu.id, sockets});
      assumed.push_back((sockets > 1 ? std::to_string(sockets) + " x " : "") + cpu.id + " (--cpu)");
    }
    if (a.memory.empty()) {
      const bool ddr4 = cpu.memory_type.rfind("DDR4", 0) == 0;
      const MemoryModule& m = cat.find_memory_module(ddr4 ? "ddr4-3200-rdimm-64gb" : desktop ? "ddr5-5600-udimm-32gb" : "ddr5-4800-rdimm-64gb");
      const int n = desktop ? 2 : cpu.memory_channels * sockets;
      s.parts.push_back({PartKind::memory, m.id, n});
      assumed.push_back(std::to_string(n) + " x " + m.id + " (--memory, --dimms)");
    }
    if (a.drives.empty()) {
      s.parts.push_back({PartKind::storage, cat.find_storage("samsung-990-pro-2tb").id, 1});
      assumed.push_back("samsung-990-pro-2tb (--drive)");
    }
    // A server of 1 or 2 cards is still a rack server (its board, fans and supply), not a tower.
    if (!desktop && a.chassis.empty() && gpus <= 2) {
      s.parts.push_back({PartKind::chassis, cat.find_chassis("generic-4u-gpu-chassis").id, 1});
      assumed.push_back("generic-4u-gpu-chassis (--chassis)");
    }
    if (!assumed.empty()) {
      std::string line = std::string("Not given, assumed for ") + (desktop && gpus <= 2 ? "a desktop" : "a GPU server") +
                         " (docs/power.md): ";
      for (std::size_t i = 0; i < assumed.size(); ++i) line += (i ? ", " : "") + assumed[i];
      notes.push_back(line + "; name yours with those flags.");
    }
  }
  if (!a.nic.empty()) s.parts.push_back({PartKind::network, cat.find_network_adapter(a.nic).id, part_count(a.nics, 1, "--nics")});
  if (!a.psu.empty()) s.parts.push_back({PartKind::psu, cat.find_psu(a.psu).id, part_count(a.psus, 1, "--psus")});
  if (!a.chassis.empty()) s.parts.push_back({PartKind::chassis, cat.find_chassis(a.chassis).id, 1});
  s.source = "your parts (--gpu ...)";
  s.as_of = g.as_of;  // the catalog figures the parts come from
  s.validate();
  return s;
}

Result run_power(const PowerArgs& a, const Context& ctx) {
  const Catalog& cat = ctx.catalog();
  if (a.system.empty() == a.gpu.empty())
    detail::fail(a.system.empty() ? "--system" : "--gpu", a.system.empty() ? "\"\"" : "\"" + a.gpu + "\"",
                 a.system.empty() ? "or --gpu is required: a catalog system, or a machine from parts"
                                  : "goes with parts, not with --system " + a.system + "; give one of them");
  if (!a.system.empty()) {
    for (const auto& [flag, given] : {std::pair{"--cpu", !a.cpu.empty()}, std::pair{"--memory", !a.memory.empty()},
                                      std::pair{"--drive", !a.drives.empty()}, std::pair{"--psu", !a.psu.empty()},
                                      std::pair{"--nic", !a.nic.empty()}, std::pair{"--chassis", !a.chassis.empty()},
                                      std::pair{"--gpus", a.gpus.has_value()}}) {
      if (given) detail::fail(flag, "given", "describes a machine from parts (--gpu ...), not --system " + a.system);
    }
  }
  if (!(a.psu_headroom >= 0 && a.psu_headroom <= 1))
    detail::fail("--psu-headroom", detail::format_double(a.psu_headroom), "is outside 0 to 1 (0.25: 25% above the maximum draw)");
  const Circuit circuit = circuits::find(a.circuit, "--circuit");
  PsuSizingOptions psu;
  psu.headroom = a.psu_headroom;
  std::vector<std::string> assumed;
  const SystemSpec custom = a.system.empty() ? system_of_parts(a, cat, assumed) : SystemSpec{};
  const SystemSpec& s = a.system.empty() ? custom : cat.find_system(a.system);
  SystemPowerAssumptions assume;
  if (!a.power_limit.empty()) assume.gpu_power_limit = quantity_arg<Power>(a.power_limit, "W", "--power-limit");
  SystemPower p = [&] {
    try {
      return system_power(s, cat, assume, circuit, psu);
    } catch (const InputError& e) {  // the library names the field; the user typed a flag
      if (e.field() != "gpu_power_limit") throw;
      fail_as_flag("--power-limit", e.value(), e);
    }
  }();
  p.assumptions.insert(p.assumptions.begin(), assumed.begin(), assumed.end());
  auto w = [](Power x) { return Cell::of_number(format(x, {.significant = 4}), x.value()); };

  Result r;
  Table parts;
  parts.title = "Power of " + s.name + " (" + s.id + ")" + (p.nodes > 1 ? ", per node" : "");
  parts.columns = {{"part", "Part", Align::left},       {"kind", "Kind", Align::left},
                   {"count", "Count", Align::right},    {"max_w_each", "Max each", Align::right},
                   {"idle_w_each", "Idle each", Align::right}, {"max_w", "Max", Align::right},
                   {"idle_w", "Idle", Align::right}};
  for (const auto& c : p.components) {
    parts.add_row({Cell::of_text(c.name), Cell::of_text(std::string(to_string(c.kind))),
                   Cell::of_number(std::to_string(c.count), c.count), w(c.max_draw), w(c.idle_draw),
                   w(c.max_draw * static_cast<double>(c.count)), w(c.idle_draw * static_cast<double>(c.count))});
  }
  parts.add_row({Cell::of_text("total (DC)"), Cell::of_text(""), Cell::of_text(""), Cell::of_text(""), Cell::of_text(""),
                 w(p.draw.max_total), w(p.draw.idle_total)});
  parts.notes = p.assumptions;
  r.tables.push_back(parts);

  Table sum;
  sum.title = "PSU, wall power, circuit and heat at full load";
  sum.columns = {{"item", "Item", Align::left}, {"value", "Value", Align::right}, {"detail", "How", Align::left}};
  sum.add_row({Cell::of_text("PSU recommended"),
               p.psu.recommended_rating ? w(*p.psu.recommended_rating) : Cell::of_text("split over several"),
               Cell::of_text(format(p.psu.required, {.significant = 4}) + " required (" + p.psu.deciding + ")")});
  if (p.installed_psu) {
    sum.add_row({Cell::of_text("PSU installed"), w(p.psu_capacity),
                 Cell::of_text(std::to_string(p.installed_psu_count) + " x " + p.installed_psu->name + ", " + p.psu_curve_name +
                               (p.psu_overloaded ? ": OVERLOADED" : ""))});
  }
  if (p.wall) {
    sum.add_row({Cell::of_text("wall power, full load"), w(p.wall->wall),
                 Cell::of_text(format_number(p.wall->load_fraction * 100, 3) + "% load, " + format_number(p.wall->efficiency * 100, 3) +
                               "% efficient (" + p.psu_curve_name + ")")});
    sum.add_row({Cell::of_text("wall power, idle"), w(p.wall_idle->wall), Cell::of_text("every part at its idle draw")});
  } else {
    sum.add_row({Cell::of_text("wall power, full load"), Cell::empty(), Cell::of_text("the installed PSU is overloaded")});
  }
  if (p.nodes > 1) sum.add_row({Cell::of_text("wall power, all nodes"), w(p.wall_total()), Cell::of_text(std::to_string(p.nodes) + " nodes")});
  if (p.vendor_max) {
    const bool above = p.planning_total() > p.wall_total();
    sum.add_row({Cell::of_text("vendor's maximum"), w(*p.vendor_max * static_cast<double>(p.nodes)),
                 Cell::of_text(std::string(above ? "above the parts' estimate: the circuit and the heat use it"
                                                 : "at or below the parts' estimate: the circuit and the heat use the estimate") +
                               " (" + s.source + ")")});
  }
  sum.add_row({Cell::of_text(p.circuit.circuit.name), Cell::of_text(p.circuit.ok ? "fits" : "over"),
               Cell::of_text(format_number(p.circuit.fraction_of_limit * 100, 3) + "% of the " +
                             format(p.circuit.continuous_limit, {.significant = 4}) + " continuous limit (" +
                             format_number(100 * p.circuit.circuit.continuous_fraction, 3) + "% of " + format(p.circuit.capacity, {.significant = 4}) +
                             ")")});
  sum.add_row({Cell::of_text("heat"), Cell::of_number(explain_text::number(p.heat.btu_per_hour, 4) + " BTU/h", p.heat.btu_per_hour),
               Cell::of_text(format(p.heat.power, {.significant = 4}) + " x 3.412142 BTU/h per W")});
  sum.notes.push_back(std::string(assume.gpu_power_limit ? "GPUs at their --power-limit (" + format(*assume.gpu_power_limit, {.significant = 4}) + ")" : "GPUs at TDP") +
                      ", CPUs at their package power limit (AMD PPT, Intel PL2) where recorded, else TDP; PSU sizing: max draw + " + format_number(100 * a.psu_headroom, 3) +
                      "% headroom (--psu-headroom), GPU transients 2x on ATX 3.0 (docs/power.md).");
  if (assume.gpu_power_limit)
    sum.notes.push_back("A power limit lowers the GPUs' clocks under load: capplan train and infer time a card at its TDP, and do not "
                        "model the speed it keeps at a lower limit.");
  sum.notes.push_back("System: " + s.source + " (" + s.as_of + ").");
  r.tables.push_back(sum);

  r.json = to_json(power_output(p, s.id));

  std::string e = p.draw.explain() + "\n" + p.psu.explain() + "\n";
  if (p.wall) e += p.wall->explain() + "\n";
  e += p.circuit.explain() + "\n" + p.heat.explain();
  r.explanation = lines_of(e);
  return r;
}

}  // namespace

void add_power(CLI::App& app, Context& ctx) {
  auto a = std::make_shared<PowerArgs>();
  auto* cmd = app.add_subcommand("power", "Draw per part, PSU advice, wall power, circuit and heat of a system");
  cmd->footer(
      "Examples:\n"
      "  capplan power --system ws-rtx-4090\n"
      "  capplan power --system '2 x RTX 4090' --explain\n"
      "  capplan power --system dgx-a100 --format json\n"
      "  capplan power --gpu rtx4090 --gpus 2 --cpu ryzen-9-7950x --psu-headroom 0.3 --circuit cn-10a-220v\n"
      "  capplan power --gpu rtx4090 --gpus 4 --cpu threadripper-pro-5975wx --power-limit 300W\n"
      "Systems: capplan catalog list --kind systems");
  cmd->add_option("--system", a->system, "A catalog system or build (id or name); or a machine from parts with --gpu");
  cmd->add_option("--gpu", a->gpu, "A machine from parts: the GPU (any name the catalog accepts)");
  cmd->add_option("--gpus", a->gpus, "GPUs in the machine (default 1)");
  cmd->add_option("--cpu", a->cpu, "CPU (catalog id, e.g. ryzen-9-7950x)");
  cmd->add_option("--cpus", a->cpus, "CPU sockets (default 1)");
  cmd->add_option("--memory", a->memory, "Memory module (catalog id)");
  cmd->add_option("--dimms", a->dimms, "Memory modules (default 4)");
  cmd->add_option("--drive", a->drives, "Drive: ID or ID:COUNT; repeat for several kinds");
  cmd->add_option("--nic", a->nic, "Network adapter (catalog id)");
  cmd->add_option("--nics", a->nics, "Network adapters (default 1)");
  cmd->add_option("--psu", a->psu, "Installed PSU (catalog id); default: the recommended rating, 80 PLUS Gold");
  cmd->add_option("--psus", a->psus, "Installed PSUs (default 1)");
  cmd->add_option("--chassis", a->chassis, "Chassis (catalog id): a tower or a rack server");
  cmd->add_option("--psu-headroom", a->psu_headroom, "PSU headroom above the maximum draw, 0..1 (default 0.25)");
  cmd->add_option("--power-limit", a->power_limit,
                  "Each GPU's board power limit, e.g. 300W (nvidia-smi --power-limit): its maximum draw and the transients the PSU "
                  "is sized for; at most its TDP (default: the TDP)");
  cmd->add_option("--circuit", a->circuit,
                  "Wall circuit: us-15a-120v (default), us-20a-120v, us-30a-240v, eu-16a-230v, uk-13a-230v, cn-10a-220v, cn-16a-220v");
  cmd->callback([a, &ctx] { write(run_power(*a, ctx), ctx); });
}

}  // namespace capplan::cli
