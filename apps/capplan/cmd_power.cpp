// capplan power --system NAME: draw per part, PSU advice, wall power, the 15 A / 120 V circuit and
// heat, from the catalog system's parts (include/capplan/power/system_power.hpp).
#include "commands.hpp"
#include "context.hpp"
#include "output.hpp"

#include <capplan/hardware/catalog.hpp>
#include <capplan/power/system_power.hpp>
#include <capplan/report/power_output.hpp>
#include <capplan/report/table.hpp>
#include <capplan/units/format.hpp>

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

namespace capplan::cli {

namespace {

struct PowerArgs {
  std::string system;
};

Result run_power(const PowerArgs& a, const Context& ctx) {
  const Catalog& cat = ctx.catalog();
  const SystemSpec& s = cat.find_system(a.system);
  const SystemPower p = system_power(s, cat);
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
  sum.add_row({Cell::of_text("15 A / 120 V circuit"), Cell::of_text(p.circuit.ok ? "fits" : "over"),
               Cell::of_text(format_number(p.circuit.fraction_of_limit * 100, 3) + "% of the 1,440 W continuous limit (NEC 80% rule)")});
  sum.add_row({Cell::of_text("heat"), Cell::of_number(explain_text::number(p.heat.btu_per_hour, 4) + " BTU/h", p.heat.btu_per_hour),
               Cell::of_text(format(p.heat.power, {.significant = 4}) + " x 3.412142 BTU/h per W")});
  sum.notes.push_back("GPUs at TDP, CPUs at TDP; PSU sizing: max draw + 25% headroom, GPU transients 2x on ATX 3.0 (docs/power.md).");
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
      "Systems: capplan catalog list --kind systems");
  cmd->add_option("--system", a->system, "A catalog system or build (id or name)")->required();
  cmd->callback([a, &ctx] { write(run_power(*a, ctx), ctx); });
}

}  // namespace capplan::cli
