// capplan catalog list|show|export|validate: what capplan knows about hardware and prices, with sources.
#include "commands.hpp"
#include "context.hpp"
#include "output.hpp"

#include <capplan/hardware/catalog.hpp>
#include <capplan/io/catalog_json.hpp>
#include <capplan/money/format.hpp>
#include <capplan/report/table.hpp>
#include <capplan/units/format.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace capplan::cli {

namespace {

Cell money_cell(const Money& m) { return Cell::of_money(format(m), to_json_string(m), m.amount().to_double()); }

Cell rate_cell(const std::optional<FlopRate>& r) {
  if (!r) return Cell::empty();
  return Cell::of_number(format_number(in(*r, "TFLOP/s"), 4), r->value());
}

std::optional<PricePoint> price_of(const GpuSpec& g) { return g.street_price ? g.street_price : g.launch_price; }

Table gpu_table(const Catalog& c) {
  Table t;
  t.title = "Accelerators (dense peak rates; prices: street, else launch)";
  t.columns = {{"id", "GPU", Align::left},
               {"memory_bytes", "Memory", Align::right},
               {"memory_bandwidth_bytes_per_s", "Bandwidth", Align::right},
               {"bf16_flop_per_s", "BF16 TF", Align::right},
               {"fp8_flop_per_s", "FP8 TF", Align::right},
               {"tdp_w", "TDP", Align::right},
               {"price", "Price", Align::right},
               {"price_per_bf16_tflop", "$/TF", Align::right},
               {"price_as_of", "Price date", Align::left}};
  for (const auto& g : c.gpus()) {
    const auto bf16 = g.dense.at(Precision::bf16) ? g.dense.at(Precision::bf16) : g.dense.at(Precision::fp16);
    const auto price = price_of(g);
    Cell per_tf = Cell::empty();
    if (price && bf16 && bf16->value() > 0) {
      const Money m = price->amount / Decimal::from_double(in(*bf16, "TFLOP/s"), 15, "bf16");
      per_tf = Cell::of_money(format(m, {.decimals = 0}), to_json_string(m.rounded_to(2)), m.amount().to_double());
    }
    t.add_row({Cell::of_text(g.id), Cell::of_number(format(g.memory, {.significant = 3}), g.memory.value()),
               Cell::of_number(format(g.memory_bandwidth, {.significant = 4}), g.memory_bandwidth.value()),
               rate_cell(bf16), rate_cell(g.dense.at(Precision::fp8)),
               g.tdp.value() > 0 ? Cell::of_number(format(g.tdp), g.tdp.value()) : Cell::empty(),  // Apple publishes none
               price ? money_cell(price->amount) : Cell::empty(), per_tf,
               price ? Cell::of_text(price->as_of) : Cell::empty()});
  }
  t.notes.push_back("Rates are dense (no 2:4 sparsity). BF16 falls back to FP16 where a part has no BF16.");
  t.notes.push_back("Sources and dates for every figure: capplan catalog show ID, or docs/catalog.md.");
  return t;
}

Table system_table(const Catalog& c) {
  Table t;
  t.title = "Systems and builds";
  t.columns = {{"id", "System", Align::left}, {"nodes", "Nodes", Align::right}, {"gpus", "GPUs", Align::right},
               {"gpu", "GPU", Align::left},    {"price_low", "Price", Align::right}, {"price_high", "to", Align::right},
               {"price_basis", "Basis", Align::left}};
  for (const auto& s : c.systems()) {
    const SystemPrice p = c.system_price(s);
    t.add_row({Cell::of_text(s.id), Cell::of_number(std::to_string(s.nodes), s.nodes),
               Cell::of_number(std::to_string(s.total_gpus()), s.total_gpus()), Cell::of_text(s.gpu_id()),
               p.low ? money_cell(*p.low) : Cell::empty(),
               p.high && p.low && *p.high != *p.low ? money_cell(*p.high) : Cell::empty(),
               Cell::of_text(!p.known() ? "unknown" : (p.given ? "given" : "sum of parts"))});
  }
  return t;
}

Table cloud_table(const Catalog& c) {
  Table t;
  t.title = "Cloud and rental offers (prices per instance; per GPU-hour derived)";
  t.columns = {{"id", "Offer", Align::left},         {"gpus", "GPUs", Align::right},
               {"gpu", "GPU", Align::left},          {"price_kind", "Kind", Align::left},
               {"price_per_instance_hour", "Per instance-h", Align::right},
               {"price_per_gpu_hour", "Per GPU-h", Align::right}, {"as_of", "As of", Align::left}};
  for (const auto& o : c.cloud_offers()) {
    const PriceKind k = o.headline();
    const MoneyRate inst = o.per_instance_hour(k), gpu = o.per_gpu_hour(k);
    t.add_row({Cell::of_text(o.id), Cell::of_number(std::to_string(o.gpu_count), o.gpu_count), Cell::of_text(o.gpu_id),
               Cell::of_text(std::string(name(k))),
               Cell::of_money(format(inst), to_json_string(inst), inst.amount().to_double()),
               Cell::of_money(format(gpu), to_json_string(gpu), gpu.amount().to_double()), Cell::of_text(o.as_of)});
  }
  t.notes.push_back("A monthly price is turned into an hourly one at 730 h a month.");
  return t;
}

Table gpu_detail(const GpuSpec& g) {
  Table t;
  t.title = g.name + " (" + g.id + ")";
  t.columns = {{"field", "Field", Align::left}, {"value", "Value", Align::left}};
  auto row = [&](std::string f, std::string v) { t.add_row({Cell::of_text(std::move(f)), Cell::of_text(std::move(v))}); };
  row("vendor", std::string(name(g.vendor)));
  row("architecture", g.architecture);
  row("form factor", std::string(name(g.form_factor)));
  row("memory", format(g.memory) + " " + g.memory_type + " (" + format(g.memory, {.prefixes = Prefixes::binary}) + ")");
  row("usable memory", g.usable_memory ? format(*g.usable_memory, {.prefixes = Prefixes::binary}) + " (" + format(*g.usable_memory) +
                                             "), as the runtime reports it; fit checks use it"
                                       : "no source: fit checks use the memory above");
  row("memory bandwidth", format(g.memory_bandwidth));
  for (Precision p : all_precisions) {
    if (auto r = g.dense.at(p)) row(std::string(name(p)) + " dense peak", format(*r));
  }
  row("TDP", g.tdp.value() > 0 ? format(g.tdp) : "not published (the vendor gives no TDP for this part)");
  if (g.idle_power.value() > 0) row("idle power", format(g.idle_power));
  row("NVLink", g.nvlink_generation ? "gen " + std::to_string(g.nvlink_generation) + ", " + format(g.nvlink_bandwidth) +
                                          " per direction"
                                    : std::string("none"));
  row("PCIe", "gen " + std::to_string(g.pcie_generation) + " x" + std::to_string(g.pcie_lanes));
  row("peer-to-peer", g.peer_to_peer ? "yes" : "no");
  row("ECC", g.ecc ? "yes" : "no");
  if (g.launch_price) row("launch price", format(g.launch_price->amount) + " (" + g.launch_price->as_of + ", " + g.launch_price->source + ")");
  if (g.street_price) row("street price", format(g.street_price->amount) + " (" + g.street_price->as_of + ", " + g.street_price->source + ")");
  row("source", g.source + " (" + g.as_of + ")");
  if (!g.note.empty()) row("note", g.note);
  return t;
}

}  // namespace

void add_catalog(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("catalog", "List or show the built-in hardware and price catalog");
  cmd->require_subcommand(1);

  auto kind = std::make_shared<std::string>("gpus");
  auto* list = cmd->add_subcommand("list", "List catalog entries of one kind");
  list->add_option("--kind", *kind, "gpus (default), systems, cloud")->check(CLI::IsMember({"gpus", "systems", "cloud"}));
  list->footer("Examples:\n  capplan catalog list\n  capplan catalog list --kind cloud --format csv");
  list->callback([kind, &ctx] {
    const Catalog& c = ctx.catalog();
    Result r;
    Table t = *kind == "gpus" ? gpu_table(c)
                              : (*kind == "systems" ? system_table(c) : cloud_table(c));
    r.json["kind"] = *kind;
    auto& rows = r.json["entries"] = nlohmann::ordered_json::array();
    for (const auto& row : t.rows) {
      nlohmann::ordered_json e;
      for (std::size_t i = 0; i < t.columns.size(); ++i) {
        const Cell& cell = row[i];
        if (cell.exact) e[t.columns[i].key] = *cell.exact;
        else if (cell.number) e[t.columns[i].key] = *cell.number;
        else if (cell.text == "–") e[t.columns[i].key] = nullptr;
        else e[t.columns[i].key] = cell.text;
      }
      rows.push_back(e);
    }
    r.tables.push_back(std::move(t));
    write(r, ctx);
  });

  auto* exp = cmd->add_subcommand("export", "Write the whole catalog (with any --catalog files applied) as JSON");
  exp->footer("Examples:\n  capplan catalog export > catalog.json\n  capplan --catalog prices.json catalog export");
  exp->callback([&ctx] {
    std::cout << io::write_catalog_json(ctx.catalog());
    check_written(std::cout);
  });

  auto file_arg = std::make_shared<std::string>();
  auto* val = cmd->add_subcommand("validate", "Check a catalog file against the built-in catalog (exit 2 on an error)");
  val->add_option("file", *file_arg, "A capplan-catalog JSON file")->required()->check(CLI::ExistingFile);
  val->footer("Examples:\n  capplan catalog validate prices.json");
  val->callback([file_arg, &ctx] {
    Catalog c = ctx.catalog();
    const io::CatalogLoadSummary s = io::load_catalog_file(c, *file_arg);
    Result r;
    Table t;
    t.title = *file_arg + ": valid";
    t.columns = {{"section", "Section", Align::left}, {"added", "Added", Align::right}, {"replaced", "Replaced", Align::right}};
    std::map<std::string, std::pair<int, int>> rows;
    for (const auto& [k, v] : s.added) rows[k].first = v;
    for (const auto& [k, v] : s.replaced) rows[k].second = v;
    for (const auto& [k, v] : rows) {
      t.add_row({Cell::of_text(k), Cell::of_number(std::to_string(v.first), v.first), Cell::of_number(std::to_string(v.second), v.second)});
    }
    r.json = {{"file", *file_arg}, {"valid", true}, {"added", s.total_added()}, {"replaced", s.total_replaced()}};
    r.tables.push_back(std::move(t));
    write(r, ctx);
  });

  auto name_arg = std::make_shared<std::string>();
  auto* show = cmd->add_subcommand("show", "Show one GPU with every figure, its source and date");
  show->add_option("name", *name_arg, "GPU id or name, e.g. 'H100 SXM', rtx4090")->required();
  show->footer("Examples:\n  capplan catalog show 'H100 SXM'\n  capplan catalog show rtx4090 --format json");
  show->callback([name_arg, &ctx] {
    const GpuSpec& g = ctx.catalog().find_gpu(*name_arg);
    Result r;
    Table t = gpu_detail(g);
    for (const auto& row : t.rows) r.json[row[0].text] = row[1].text;
    r.json = {{"id", g.id}, {"name", g.name}, {"memory_bytes", g.memory.value()}, {"usable_memory_bytes", g.usable_memory ? nlohmann::ordered_json(g.usable_memory->value()) : nlohmann::ordered_json(nullptr)},
              {"memory_bandwidth_bytes_per_s", g.memory_bandwidth.value()}, {"tdp_w", g.tdp.value() > 0 ? nlohmann::ordered_json(g.tdp.value()) : nlohmann::ordered_json(nullptr)},
              {"dense_flop_per_s", nlohmann::ordered_json::object()}, {"source", g.source}, {"as_of", g.as_of}};
    for (Precision p : all_precisions) {
      if (auto rate = g.dense.at(p)) r.json["dense_flop_per_s"][std::string(name(p))] = rate->value();
    }
    r.tables.push_back(std::move(t));
    write(r, ctx);
  });
}

}  // namespace capplan::cli
