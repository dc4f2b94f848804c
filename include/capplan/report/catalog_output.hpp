// Catalog entries for programs: the rows of a listing (any report Table, one object per row keyed
// by its columns' machine keys), what `capplan catalog list --format json` prints under "entries";
// one accelerator's essentials, what `capplan catalog show GPU --format json` prints; and catalog
// warnings (catalog validate's "warnings"). Python's Table.rows_output() and GpuSpec.output() return
// the same.
#pragma once

#include "capplan/detail/enum_names.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/hardware/precision.hpp"
#include "capplan/hardware/warnings.hpp"
#include "capplan/report/table.hpp"
#include "capplan/report/value.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace capplan {

// One object per row of machine_table(table), each cell its machine_value (report/table.hpp).
inline Value table_rows_output(const Table& table) {
  const Table t = machine_table(table);
  Value rows = Value::Array{};
  for (const auto& row : t.rows) {
    Value e = Value::Object{};
    for (std::size_t i = 0; i < t.columns.size() && i < row.size(); ++i) e[t.columns[i].key] = machine_value(row[i]);
    rows.push_back(std::move(e));
  }
  return rows;
}

// A dated price: amount and high (the upper end of a range, else null) as exact decimals, currency,
// as_of, source; null without a price.
inline Value price_output(const std::optional<PricePoint>& p) {
  if (!p) return Value();
  Value v;
  v["amount"] = Value::Exact{to_json_string(p->amount)};
  v["high"] = p->high ? Value(Value::Exact{to_json_string(*p->high)}) : Value();
  v["currency"] = std::string(code(p->amount.currency()));
  v["as_of"] = p->as_of;
  v["source"] = p->source;
  return v;
}

// id, name, memory_bytes, usable_memory_bytes (null without a source), memory_bandwidth_bytes_per_s,
// tdp_w (null where the vendor publishes none), dense_flop_per_s (by precision, dense peak rates),
// slot_width (expansion-slot positions the card covers), length_m, cooling (passive, blower,
// open_air; the first two null and cooling "unknown" where not recorded), board_gpus (an SXM or OAM
// module's baseboard, the GPUs one purchase buys: hardware/gpu.hpp purchase_unit_gpus; null for a card), launch_price and
// street_price (price_output), unpriced (why neither price is public, else null), source, as_of.
inline Value gpu_output(const GpuSpec& g) {
  Value j;
  j["id"] = g.id;
  j["name"] = g.name;
  j["memory_bytes"] = g.memory.value();
  j["usable_memory_bytes"] = g.usable_memory ? Value(g.usable_memory->value()) : Value();
  j["memory_bandwidth_bytes_per_s"] = g.memory_bandwidth.value();
  j["tdp_w"] = g.tdp.value() > 0 ? Value(g.tdp.value()) : Value();
  Value rates = Value::Object{};
  for (Precision p : all_precisions) {
    if (auto rate = g.dense.at(p)) rates[detail::enum_name(p)] = rate->value();
  }
  j["dense_flop_per_s"] = std::move(rates);
  j["slot_width"] = g.slot_width > 0 ? Value(g.slot_width) : Value();
  j["length_m"] = g.length.value() > 0 ? Value(g.length.value()) : Value();
  j["cooling"] = detail::enum_name(g.cooling);
  j["board_gpus"] = purchase_unit_gpus(g) > 1 ? Value(purchase_unit_gpus(g)) : Value();
  j["launch_price"] = price_output(g.launch_price);
  j["street_price"] = price_output(g.street_price);
  j["unpriced"] = !g.launch_price && !g.street_price && !g.unpriced.empty() ? Value(g.unpriced) : Value();
  j["source"] = g.source;
  j["as_of"] = g.as_of;
  return j;
}

// kind (stale_price, sparse_rate, price_outlier), entry, field, message: one object per warning.
inline Value warnings_output(const std::vector<CatalogWarning>& warnings) {
  Value a = Value::Array{};
  for (const CatalogWarning& w : warnings) {
    Value j;
    j["kind"] = detail::enum_name(w.kind);
    j["entry"] = w.entry;
    j["field"] = w.field;
    j["message"] = w.message;
    a.push_back(std::move(j));
  }
  return a;
}

}  // namespace capplan
