// capplan catalog list|show|export|validate: what capplan knows about hardware and prices, with sources.
#include "commands.hpp"
#include "context.hpp"
#include "output.hpp"
#include "workload_args.hpp"

#include <capplan/detail/text.hpp>
#include <capplan/hardware/catalog.hpp>
#include <capplan/hardware/warnings.hpp>
#include <capplan/io/catalog_json.hpp>
#include <capplan/io/image_model_json.hpp>
#include <capplan/io/model_json.hpp>
#include <capplan/io/price_import.hpp>
#include <capplan/io/record_json.hpp>
#include <capplan/money/format.hpp>
#include <capplan/perf/communication.hpp>
#include <capplan/report/catalog_output.hpp>
#include <capplan/report/table.hpp>
#include <capplan/units/format.hpp>
#include <capplan/workload/params.hpp>
#include <capplan/workload/image_model.hpp>
#include <capplan/workload/presets.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <type_traits>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace capplan::cli {

namespace {

Cell money_cell(const Money& m) { return Cell::of_money(format(m), to_json_string(m), m.amount().to_double()); }

// The currency of a row's money, for programs (CSV, JSON): the text shows it as the symbol.
Column currency_column() { return {"currency", "Currency", Align::left, true}; }
template <class M>
Cell currency_cell(const std::optional<M>& m) { return m ? Cell::of_text(std::string(code(m->currency()))) : Cell::empty(); }

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
               {"fp4_flop_per_s", "FP4 TF", Align::right},
               {"tdp_w", "TDP", Align::right},
               {"price", "Price", Align::right},
               {"price_high", "to", Align::right},
               {"price_per_bf16_tflop", "Per TF", Align::right},
               {"price_as_of", "Price date", Align::left},
               currency_column()};
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
               rate_cell(bf16), rate_cell(g.dense.at(Precision::fp8)), rate_cell(g.dense.at(Precision::fp4)),
               g.tdp.value() > 0 ? Cell::of_number(format(g.tdp), g.tdp.value()) : Cell::empty(),  // Apple publishes none
               price ? money_cell(price->amount) : Cell::empty(), price && price->high ? money_cell(*price->high) : Cell::empty(), per_tf,
               price ? Cell::of_text(price->as_of) : Cell::empty(),
               currency_cell(price ? std::optional<Money>(price->amount) : std::nullopt)});
  }
  t.notes.push_back("Rates are dense (no 2:4 sparsity). BF16 falls back to FP16 where a part has no BF16.");
  t.notes.push_back("Price: one figure, or the low end of a range its source gives (to: the high end). Per TF: the price per dense BF16 "
                    "TFLOP/s at the low end, in the price's currency.");
  t.notes.push_back("Sources and dates for every figure: capplan catalog show ID, or docs/catalog.md.");
  return t;
}

Table system_table(const Catalog& c) {
  Table t;
  t.title = "Systems and builds";
  t.columns = {{"id", "System", Align::left}, {"nodes", "Nodes", Align::right}, {"gpus", "GPUs", Align::right},
               {"gpu", "GPU", Align::left},    {"price_low", "Price", Align::right}, {"price_high", "to", Align::right},
               {"price_basis", "Basis", Align::left}, currency_column()};
  for (const auto& s : c.systems()) {
    const SystemPrice p = c.system_price(s);
    t.add_row({Cell::of_text(s.id), Cell::of_number(std::to_string(s.nodes), s.nodes),
               Cell::of_number(std::to_string(s.total_gpus()), s.total_gpus()), Cell::of_text(s.gpu_id()),
               p.low ? money_cell(*p.low) : Cell::empty(),
               p.high && p.low && *p.high != *p.low ? money_cell(*p.high) : Cell::empty(),
               Cell::of_text(!p.known() ? "unknown" : (p.given ? "given" : "sum of parts")), currency_cell(p.low)});
  }
  return t;
}

Table cloud_table(const Catalog& c) {
  Table t;
  t.title = "Cloud and rental offers (prices per instance; per GPU-hour derived)";
  t.columns = {{"id", "Offer", Align::left},         {"gpus", "GPUs", Align::right},
               {"gpu", "GPU", Align::left},          {"price_kind", "Kind", Align::left},
               {"price_per_instance_hour", "Per instance", Align::right},
               {"price_per_gpu_hour", "Per GPU-h", Align::right}, {"as_of", "As of", Align::left}, currency_column(),
               {"instance_gpus", "GPUs an instance", Align::right, true}};
  for (const auto& o : c.cloud_offers()) {
    const PriceKind k = o.headline();
    const MoneyRate inst = o.per_instance_hour(k), gpu = o.per_gpu_hour(k);
    // A monthly rent reads as quoted (¥2,000.00/month); its machine value stays per instance-hour.
    const std::string quoted = k == PriceKind::monthly && o.monthly ? format(*o.monthly) + "/month" : format(inst);
    // An offer sold by the GPU reads "1–8": one GPU priced, up to max_gpus of a host in an instance.
    const std::string gpus = o.max_gpus > 0 ? std::to_string(o.gpu_count) + "\u2013" + std::to_string(o.max_gpus) : std::to_string(o.gpu_count);
    t.add_row({Cell::of_text(o.id), Cell::of_number(gpus, o.gpu_count), Cell::of_text(o.gpu_id),
               Cell::of_text(std::string(name(k))),
               Cell::of_money(quoted, to_json_string(inst), inst.amount().to_double()),
               Cell::of_money(format(gpu), to_json_string(gpu), gpu.amount().to_double()), Cell::of_text(o.as_of),
               Cell::of_text(std::string(code(o.currency))), Cell::of_number(std::to_string(o.instance_gpus()), o.instance_gpus())});
  }
  t.notes.push_back("Per instance: the price as quoted (a monthly rent per month); per GPU-hour, a monthly price is divided by 730 h "
                    "first. In CSV and JSON, price_per_instance_hour is always per hour.");
  if (std::any_of(c.cloud_offers().begin(), c.cloud_offers().end(), [](const CloudOffer& o) { return o.max_gpus > 0; }))
    t.notes.push_back("GPUs 1\u2013N: sold by the GPU (a marketplace pod, a per-GPU price of a node): the price is per GPU, and an "
                      "instance may hold up to N of one host (max_gpus; CSV and JSON: instance_gpus, the most GPUs one instance holds).");
  return t;
}

// The built-in model presets (workload/presets.hpp): what --model accepts, with the shape's essentials.
Table model_table() {
  Table t;
  t.title = "Model presets (--model ID; or a JSON model file, docs/catalog-files.md)";
  t.columns = {{"id", "Model", Align::left},          {"kind", "Kind", Align::left}, {"params", "Params", Align::right},
               {"active_params", "Active", Align::right}, {"layers", "Layers", Align::right},
               {"hidden", "Hidden", Align::right},      {"attention", "Attention", Align::left},
               {"experts", "Experts", Align::left},     {"context", "Context", Align::right}};
  const auto count = [](double v) {
    return Cell::of_number(v >= 1e9 ? format_number(v / 1e9, 4) + "B" : format_number(v / 1e6, 4) + "M", v);
  };
  for (const ModelPreset& p : model_presets()) {
    if (!p.is_transformer()) {
      const GenericModel& g = p.generic();
      const double n = static_cast<double>(g.params);
      t.add_row({Cell::of_text(p.id), Cell::of_text("image"), count(n), Cell::empty(), Cell::empty(), Cell::empty(),
                 Cell::of_text("(not a transformer: " + g.sample + ")"), Cell::empty(), Cell::empty()});
      continue;
    }
    const TransformerShape& s = p.transformer();
    std::string attention = std::string(name(s.attention_kind()));
    attention = capplan::detail::upper_ascii(attention);
    if (!s.mla) attention += " " + std::to_string(s.heads) + "/" + std::to_string(s.effective_kv_heads());
    if (s.window) {
      attention += ", window " + std::to_string(s.window->tokens) + " in " +
                   (s.windowed_layers() == s.layers ? std::string("every layer") : std::to_string(s.windowed_layers()) + " of " + std::to_string(s.layers));
    }
    std::string experts;
    if (s.moe) experts = std::to_string(s.moe->experts) + ", top " + std::to_string(s.moe->experts_per_token) +
                         (s.moe->shared_experts > 0 ? " + " + std::to_string(s.moe->shared_experts) + " shared" : "");
    t.add_row({Cell::of_text(p.id), Cell::of_text("transformer"), count(static_cast<double>(parameter_count(s))), count(static_cast<double>(active_parameter_count(s))),
               Cell::of_number(std::to_string(s.layers), s.layers), Cell::of_number(std::to_string(s.hidden), static_cast<double>(s.hidden)),
               Cell::of_text(attention), experts.empty() ? Cell::empty() : Cell::of_text(experts),
               Cell::of_number(std::to_string(s.seq_len), static_cast<double>(s.seq_len))});
  }
  t.notes.push_back("Kind: image models (resnet50, vit-b16, vit-l16; the diffusion UNets sd15-unet and sdxl-unet, one sample a denoising step) train on --epochs of images and infer in images/s.");
  t.notes.push_back("Active: the parameters one token passes through (a mixture of experts: its top-k and shared experts; the input "
                    "embedding included). Context: the longest the model serves; training defaults to its pre-training length.");
  t.notes.push_back("Each preset cites its config.json or paper: capplan memory --model ID shows the source.");
  return t;
}

// One model preset with the figures capplan computes from: its shape (a transformer) or its layers
// (an image model), the parameter count and its source. JSON: the model file that gives the same network
// (a diffusion preset's VAE decoder is not in it).
Result model_detail(const ModelPreset& p) {
  Result r;
  Table t;
  t.columns = {{"field", "Field", Align::left}, {"value", "Value", Align::right}, {"detail", "Detail", Align::left}};
  const auto row = [&](std::string field, std::string value, double number, std::string detail) {
    t.add_row({Cell::of_text(std::move(field)), Cell::of_number(std::move(value), number), Cell::of_text(std::move(detail))});
  };
  if (p.is_transformer()) {
    const TransformerShape& s = p.transformer();
    t.title = "Model preset " + p.id + " (" + s.name + "): transformer";
    row("parameters", count_text(static_cast<double>(parameter_count(s))), static_cast<double>(parameter_count(s)), p.source);
    row("active parameters", count_text(static_cast<double>(active_parameter_count(s))), static_cast<double>(active_parameter_count(s)),
        "one token's: a mixture of experts' top-k and shared experts");
    row("layers", std::to_string(s.layers), s.layers, "");
    row("hidden", std::to_string(s.hidden), static_cast<double>(s.hidden), "");
    row("attention heads", std::to_string(s.heads) + " / " + std::to_string(s.effective_kv_heads()), static_cast<double>(s.heads),
        "query / key-value heads, " + std::to_string(s.effective_head_dim()) + " per head");
    row("feed-forward", std::to_string(s.effective_ffn_hidden()), static_cast<double>(s.effective_ffn_hidden()), s.gated_mlp ? "gated (SwiGLU)" : "");
    row("vocabulary", std::to_string(s.vocab), static_cast<double>(s.vocab), "");
    row("context", std::to_string(s.seq_len), static_cast<double>(s.seq_len), "the longest it serves");
    row("training sequence", std::to_string(p.training_seq_len()), static_cast<double>(p.training_seq_len()),
        p.pretrain_source.empty() ? "the context" : p.pretrain_source);
    r.json = io::model_to_json(s);
  } else {
    const GenericModel& g = p.generic();
    const ImageModel* net = find_image_model(p.id);
    t.title = "Model preset " + p.id + " (" + g.name + "): " + (net ? net->kind() : std::string("image model"));
    row("parameters", count_text(static_cast<double>(g.params)), static_cast<double>(g.params), p.source);
    row("forward per sample", format_number(g.forward_macs_per_sample / 1e9, 5) + " GMAC", g.forward_macs_per_sample,
        "one " + g.sample + "; 2 FLOP per multiply-add");
    if (net) {
      if (net->companion_parameters > 0)
        row("loaded beside it", count_text(net->companion_parameters), net->companion_parameters,
            net->companions + (net->decoder.empty() && net->text_encoders.empty() ? " (not timed)"
                               : net->text_encoders.empty()                         ? " (the VAE decoder timed once per batch; the text encoders not)"
                               : net->decoder.empty()                               ? " (the text encoders timed once per batch; the VAE decoder not)"
                                                                                    : " (timed once per batch: the text encoders, then the VAE decoder)"));
      row("input", net->image, static_cast<double>(net->input_elements), std::to_string(net->input_elements) + " values per sample");
      const auto layers = [](const auto& v) {
        int n = 0;
        for (const auto& l : v) n += l.count;
        return n;
      };
      row("layers", std::to_string(layers(net->convs)) + " / " + std::to_string(layers(net->linears)) + " / " + std::to_string(layers(net->attentions)) +
                        " / " + std::to_string(layers(net->elementwise)),
          layers(net->convs) + layers(net->linears) + layers(net->attentions) + layers(net->elementwise),
          "convolutions / linear / attention / element-wise (workload/image_model.hpp)");
      r.json = io::image_model_to_json(*net);
    }
  }
  const ImageModel* image = p.is_transformer() ? nullptr : find_image_model(p.id);
  t.notes.push_back("--model " + p.id + (image && image->is_diffusion() ? " in infer and compare --serve" : " in train, memory, infer and compare") +
                    "; the JSON output is a model file that gives the same network (docs/catalog-files.md)" +
                    (image && !image->decoder.empty() ? ", without the VAE decoder the preset times and sizes once per image." : "."));
  r.tables.push_back(std::move(t));
  return r;
}

// "gen 4 x16, 31.5 GB/s per direction" (perf/communication.hpp pcie_bandwidth: after encoding);
// "none" for a part on no PCIe link (an SoC).
std::string pcie_text(int generation, int lanes) {
  if (generation <= 0 || lanes <= 0) return "none (not a PCIe card)";
  return "gen " + std::to_string(generation) + " x" + std::to_string(lanes) + ", " +
         format(perf::pcie_bandwidth(generation, lanes), {.significant = 3}) + " per direction";
}

// ---- Every other kind, from the record's one description (io/record_json.hpp) -----------------

// The catalog kinds `list --kind` and `show` know, with the record-JSON keys a listing shows.
struct KindColumns {
  std::string kind;                // the --kind value
  std::string_view section;        // io catalog section key
  std::string title;
  std::vector<std::pair<std::string, std::string>> columns;  // JSON key, header
};

const std::vector<KindColumns>& part_kinds() {
  static const std::vector<KindColumns> all = {
      {"cpus", "cpus", "CPUs (per socket)",
       {{"socket", "Socket"}, {"cores", "Cores"}, {"threads", "Threads"}, {"tdp", "TDP"}, {"max_power", "Max power"}, {"pcie", "PCIe"}, {"memory_type", "Memory"}, {"memory_channels", "Channels"},
        {"max_memory", "Max memory"}}},
      {"memory", "memory_modules", "Memory modules", {{"type", "Type"}, {"speed_mts", "MT/s"}, {"size", "Size"}, {"registered", "Registered"}, {"ecc", "ECC"}}},
      {"storage", "storage_devices", "Drives",
       {{"kind", "Kind"}, {"capacity", "Capacity"}, {"sequential_read", "Read"}, {"sequential_write", "Write"}}},
      {"psus", "power_supplies", "Power supplies", {{"rated", "Rated"}, {"tier", "80 PLUS"}, {"input", "Input"}}},
      {"chassis", "chassis", "Chassis",
       {{"rack_units", "Rack units"}, {"max_gpus", "Max GPUs"}, {"psu_bays", "PSU bays"}, {"max_board", "Board"}, {"expansion_slots", "Slots"},
        {"max_gpu_length", "Card length"}, {"passive_gpu_airflow", "Passive cards"}}},
      {"nics", "network_adapters", "Network adapters", {{"protocol", "Protocol"}, {"port_speed", "Port speed"}, {"ports", "Ports"}, {"pcie", "PCIe"}}},
      {"motherboards", "motherboards", "Motherboards",
       {{"socket", "Socket"}, {"form_factor", "Size"}, {"memory_type", "Memory"}, {"dimm_slots", "DIMMs"}, {"max_memory", "Max memory"}, {"gpu_slot_lanes", "GPU slots"}}},
  };
  return all;
}

// Fields whose 0 means "not recorded" (a case's slot positions and card length).
bool unrecorded(std::string_view key, const nlohmann::ordered_json& v) {
  if (key != "expansion_slots" && key != "max_gpu_length") return false;
  return (v.is_number() && v.get<double>() == 0) || (v.is_string() && v.get<std::string>().rfind("0 ", 0) == 0);
}

// A JSON value as table text: prices as "1,234.00 USD", lists joined, null as "–".
std::string json_text(const nlohmann::ordered_json& v) {
  if (v.is_null()) return "–";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return format_number(v.get<double>(), 6);
  if (v.is_array()) {
    std::string out;
    for (const auto& e : v) out += (out.empty() ? "" : ", ") + json_text(e);
    return out;
  }
  if (v.contains("amount")) {  // a price point
    std::string t = v["amount"].get<std::string>() + (v.contains("high") ? "-" + v["high"].get<std::string>() : "") + " " +
                    (v.contains("currency") ? v["currency"].get<std::string>() : "USD");
    if (v.contains("as_of")) t += " (" + v["as_of"].get<std::string>() + (v.contains("source") ? ", " + v["source"].get<std::string>() : "") + ")";
    return t;
  }
  std::string out;
  for (const auto& [k, e] : v.items()) out += (out.empty() ? "" : ", ") + k + " " + json_text(e);
  return out;
}

// The record of one catalog entry as JSON with a "pcie" member in GB/s where it has a link.
template <class Rec>
nlohmann::ordered_json entry_json(const Rec& e) {
  const io::Json j = io::record_to_json(e);
  nlohmann::ordered_json o = nlohmann::ordered_json::parse(j.dump());
  if (o.contains("pcie_generation") && o.contains("pcie_lanes") && o["pcie_lanes"].is_number_integer())
    o["pcie"] = pcie_text(o["pcie_generation"].get<int>(), o["pcie_lanes"].get<int>());
  if constexpr (std::is_same_v<Rec, Motherboard>) {
    // The GPU slots as a line, each at its position with its lanes and rate per direction
    // ("1: gen 4 x16, 31.5 GB/s; 2: gen 4 x8, 15.8 GB/s; ..."), in place of the raw slot objects;
    // and their count with the lanes for a listing.
    std::string t, lanes;
    for (const PcieSlot& s : e.slots) {
      t += (t.empty() ? "" : "; ") + std::to_string(s.position) + ": gen " + std::to_string(s.generation) + " x" + std::to_string(s.lanes) + ", " +
           format(perf::pcie_bandwidth(s.generation, s.lanes), {.significant = 3}) + (s.from_chipset ? " via the chipset" : "");
      lanes += (lanes.empty() ? "" : " ") + ("x" + std::to_string(s.lanes));
    }
    o["gpu_slots"] = t.empty() ? "none" : t + " per direction";
    o["gpu_slot_lanes"] = std::to_string(e.slots.size()) + (e.slots.empty() ? "" : " (" + lanes + ")");
  }
  return o;
}

// Calls f(section key, kind, json of each entry) for every part section but GPUs, systems and offers.
template <class F>
void for_each_part_entry(const Catalog& c, F&& f) {
  capplan::detail::for_each_section([&](const auto& section) {
    using Rec = typename std::decay_t<decltype((c.*section.entries)())>::value_type;
    if constexpr (!std::is_same_v<Rec, GpuSpec> && !std::is_same_v<Rec, SystemSpec> && !std::is_same_v<Rec, CloudOffer>) {
      for (const Rec& e : (c.*section.entries)()) f(section.key, section.kind, entry_json(e));
    }
  });
}

Table part_table(const Catalog& c, const KindColumns& k) {
  Table t;
  t.title = k.title + " (prices: street, else launch)";
  t.columns = {{"id", "Id", Align::left}};
  for (const auto& [key, header] : k.columns) t.columns.push_back({key, header, Align::right});
  t.columns.push_back({"price", "Price", Align::right});
  t.columns.push_back({"price_high", "to", Align::right});
  t.columns.push_back(currency_column());
  for_each_part_entry(c, [&](std::string_view section, std::string_view, const nlohmann::ordered_json& e) {
    if (section != k.section) return;
    std::vector<Cell> row{Cell::of_text(e["id"].get<std::string>())};
    for (const auto& col : k.columns)
      row.push_back(Cell::of_text(e.contains(col.first) && !unrecorded(col.first, e[col.first]) ? json_text(e[col.first]) : "–"));
    // The price as the GPU listing gives it: the amount (the low end of a range), the high end, the currency.
    const auto* price = e.contains("street_price") ? &e["street_price"] : e.contains("launch_price") ? &e["launch_price"] : nullptr;
    const std::string cur = price && price->contains("currency") ? (*price)["currency"].get<std::string>() : std::string("USD");
    const auto money = [&](const char* key) {
      if (!price || !price->contains(key) || !(*price)[key].is_string()) return Cell::empty();
      return money_cell(Money((*price)[key].get<std::string>(), parse_currency(cur)));
    };
    row.push_back(money("amount"));
    row.push_back(money("high"));
    row.push_back(price ? Cell::of_text(cur) : Cell::empty());
    t.add_row(std::move(row));
  });
  t.notes.push_back("Every field with its source: capplan catalog show ID; all entries: capplan catalog export.");
  return t;
}

// Every field of one entry, from its JSON.
Table part_detail(std::string_view kind, const nlohmann::ordered_json& e) {
  Table t;
  t.title = e.value("name", e["id"].get<std::string>()) + " (" + std::string(kind) + " " + e["id"].get<std::string>() + ")";
  t.columns = {{"field", "Field", Align::left}, {"value", "Value", Align::left}};
  for (const auto& [key, v] : e.items()) {
    if (key == "id" || key == "name" || key == "pcie_generation" || key == "pcie_lanes") continue;
    if ((key == "slots" && e.contains("gpu_slots")) || key == "gpu_slot_lanes") continue;  // shown as gpu slots
    std::string label = key;
    std::replace(label.begin(), label.end(), '_', ' ');
    t.add_row({Cell::of_text(label), Cell::of_text(unrecorded(key, v) ? "not recorded" : json_text(v))});
  }
  return t;
}

// A system with its line items: each part, its count, its unit price and the subtotal.
Table system_detail(const Catalog& c, const SystemSpec& s) {
  Table t;
  t.title = s.name + " (" + s.id + ")" + (s.nodes > 1 ? ", " + std::to_string(s.nodes) + " nodes" : "");
  t.columns = {{"kind", "Kind", Align::left}, {"part", "Part", Align::left}, {"count", "Count", Align::right},
               {"unit_price", "Each", Align::right}, {"subtotal", "Subtotal", Align::right}, currency_column()};
  for (const SystemPart& p : s.parts) {
    std::optional<PricePoint> price;
    std::string label = p.id;
    switch (p.kind) {
      case PartKind::gpu: { const GpuSpec& g = c.find_gpu(p.id); price = g.street_price ? g.street_price : g.launch_price; label = g.name; break; }
      case PartKind::cpu: { const CpuSpec& x = c.find_cpu(p.id); price = x.street_price ? x.street_price : x.launch_price; label = x.name; break; }
      case PartKind::memory: { const MemoryModule& x = c.find_memory_module(p.id); price = x.street_price; label = x.name; break; }
      case PartKind::storage: { const StorageDevice& x = c.find_storage(p.id); price = x.street_price ? x.street_price : x.launch_price; label = x.name; break; }
      case PartKind::psu: { const PowerSupply& x = c.find_psu(p.id); price = x.street_price; label = x.name; break; }
      case PartKind::chassis: { const Chassis& x = c.find_chassis(p.id); price = x.street_price; label = x.name; break; }
      case PartKind::network: { label = c.find_network_adapter(p.id).name; break; }
      case PartKind::motherboard: { const Motherboard& x = c.find_motherboard(p.id); price = x.street_price ? x.street_price : x.launch_price; label = x.name; break; }
    }
    price = c.part_price(p.kind, p.id);  // the price the total sums (a NIC's too)
    // A unit price of a multi-pack (a 2 x 32 GB kit at $139.99: $69.995 each) keeps its third decimal.
    // A range (a card's lowest-to-median listing) reads low-high; the JSON value is the low end, as the total's.
    const auto text = [](const Money& m) { return format(m, {.decimals = m == m.rounded_to(2) ? 2 : 3}); };
    const auto cell = [&](const Money& low, const std::optional<Money>& high) {
      return Cell::of_money(text(low) + (high ? "\u2013" + text(*high) : std::string()), to_json_string(low), low.amount().to_double());
    };
    const Cell each = !price ? Cell::empty() : cell(price->amount, price->high);
    const Cell sub = !price ? Cell::empty()
                            : cell(price->amount * p.count, price->high ? std::optional<Money>(*price->high * p.count) : std::nullopt);
    t.add_row({Cell::of_text(std::string(name(p.kind))), Cell::of_text(label + " (" + p.id + ")"), Cell::of_number(std::to_string(p.count), p.count), each, sub,
               currency_cell(price ? std::optional<Money>(price->amount) : std::nullopt)});
  }
  const SystemPrice sp = c.system_price(s);
  // A range (a part priced as a range) reads low-high; its JSON value is the low end, as the purchase tables rank.
  const Cell total = !sp.low ? Cell::empty()
                     : !sp.high ? money_cell(*sp.low)
                                : Cell::of_money(format(*sp.low, {.decimals = 2}) + "\u2013" + format(*sp.high, {.decimals = 2}),
                                                 to_json_string(*sp.low), sp.low->amount().to_double());
  t.add_row({Cell::of_text("total"), Cell::of_text(sp.given ? "as sold (given)" : "sum of the parts with a price"), Cell::of_text(""), Cell::of_text(""),
             total, currency_cell(sp.low)});
  t.notes.push_back("Topology: " + std::string(name(s.topology)) + "; source: " + s.source + " (" + s.as_of + ").");
  if (s.max_power)
    t.notes.push_back("Vendor's maximum power: " + format(*s.max_power, {.significant = 4}) +
                      " per node (capplan power plans the circuit and the heat by it where it exceeds the parts' estimate).");
  if (!s.note.empty()) t.notes.push_back(s.note);
  t.notes.push_back("Power, PSU and circuit of this system: capplan power --system " + s.id + ".");
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
  // A marketed "80 GB" is 80 GiB of chips, less the runtime's share: converting it to GiB says
  // nothing true; the usable row is what software sees.
  row("memory", format(g.memory) + " " + g.memory_type +
                    (g.usable_memory ? " as marketed" : " (" + format(g.memory, {.prefixes = Prefixes::binary}) + ")"));
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
                                          " per direction" +
                                          (g.nvlink_domain > 0 ? ", " + std::to_string(g.nvlink_domain) + "-GPU NVLink domain" : std::string())
                                    : std::string("none"));
  if (g.infinity_fabric_bandwidth.value() > 0) row("Infinity Fabric", format(g.infinity_fabric_bandwidth) + " per direction");
  if (g.chip_link_bandwidth.value() > 0)
    row(std::string(perf::name(perf::chip_link(g).kind)), format(g.chip_link_bandwidth) + " per direction in an all-reduce, " +
                                                             std::to_string(g.chip_link_domain) + " chips joined");
  row("PCIe", pcie_text(g.pcie_generation, g.pcie_lanes));
  row("peer-to-peer", g.peer_to_peer ? "yes" : "no");
  row("ECC", g.ecc ? "yes" : "no");
  {
    std::string card = g.slot_width > 0 ? std::to_string(g.slot_width) + " slot" + (g.slot_width > 1 ? "s" : "") : std::string("width not recorded");
    card += g.length.value() > 0 ? ", " + format(g.length) + " long" : std::string(", length not recorded");
    if (g.cooling == GpuCooling::passive) card += ", passive (needs a server's forced airflow)";
    else if (g.cooling == GpuCooling::blower) card += ", blower (exhausts out of the back)";
    else if (g.cooling == GpuCooling::open_air) card += ", open-air fans (exhaust into the case)";
    if (g.form_factor == FormFactor::pcie || g.form_factor == FormFactor::consumer) row("card", card);
  }
  if (const int board = purchase_unit_gpus(g); board > 1)
    row("sold", (board == g.nvlink_domain ? "in racks of " + std::to_string(board) + " (one NVLink domain)" : "on baseboards of " + std::to_string(board)) +
                    (g.board_gpus > 0 ? "" : " (assumed: not recorded)") + ", not one at a time: a purchase buys whole " +
                    (board == g.nvlink_domain ? "racks" : "boards"));
  // A range reads low-high, as in the purchase tables; where neither price is public, the reason.
  const auto price_text = [](const PricePoint& p) {
    return format(p.amount) + (p.high ? "\u2013" + format(*p.high) : std::string()) + " (" + p.as_of + ", " + p.source + ")";
  };
  if (g.launch_price) row("launch price", price_text(*g.launch_price));
  if (g.street_price) row("street price", price_text(*g.street_price));
  if (!g.launch_price && !g.street_price && !g.unpriced.empty()) row("price", "none: " + g.unpriced);
  row("source", g.source + " (" + g.as_of + ")");
  if (!g.note.empty()) row("note", g.note);
  return t;
}

}  // namespace

void add_catalog(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("catalog", "List, show, export or validate the hardware and price catalog; import price lists");
  cmd->require_subcommand(1);

  auto kind = std::make_shared<std::string>("gpus");
  auto* list = cmd->add_subcommand("list", "List catalog entries of one kind");
  list->add_option("--kind", *kind, "gpus (default), cpus, memory, storage, psus, chassis, nics, motherboards, systems, cloud, models")
      ->check(CLI::IsMember({"gpus", "cpus", "memory", "storage", "psus", "chassis", "nics", "motherboards", "systems", "cloud", "models"}));
  list->footer("Examples:\n  capplan catalog list\n  capplan catalog list --kind cpus\n  capplan catalog list --kind cloud --format csv\n"
               "  capplan catalog list --kind models");
  list->callback([kind, &ctx] {
    const Catalog& c = ctx.catalog();
    Result r;
    Table t;
    if (*kind == "gpus") t = gpu_table(c);
    else if (*kind == "systems") t = system_table(c);
    else if (*kind == "cloud") t = cloud_table(c);
    else if (*kind == "models") t = model_table();
    else {
      for (const KindColumns& k : part_kinds()) {
        if (k.kind == *kind) t = part_table(c, k);
      }
    }
    r.json["kind"] = *kind;
    r.json["entries"] = to_json(table_rows_output(t));
    r.tables.push_back(std::move(t));
    write(r, ctx);
  });

  auto* exp = cmd->add_subcommand("export", "Write the whole catalog (with any --catalog files applied) as JSON");
  exp->footer("Examples:\n  capplan catalog export > catalog.json\n  capplan --catalog prices.json catalog export");
  exp->callback([&ctx] {
    std::cout << io::write_catalog_json(ctx.catalog());
    check_written(std::cout);
  });

  auto import_format = std::make_shared<std::string>();
  auto import_file = std::make_shared<std::string>();
  auto* imp = cmd->add_subcommand("import", "Turn a provider's price list (AWS, Azure, or a CSV) into a dated catalog file of cloud offers");
  imp->add_option("format", *import_format, "aws (EC2 price list JSON), azure (Retail Prices API JSON) or csv")
      ->required()
      ->check(CLI::IsMember({"aws", "azure", "csv"}));
  imp->add_option("file", *import_file, "The price list file")->required()->check(CLI::ExistingFile);
  imp->footer("Prints a capplan-catalog file with a cloud_offers section (docs/catalog-files.md); products of GPU families capplan\n"
              "does not know are skipped and listed on standard error (\"left out\"), with each price of a refreshed catalog offer the\n"
              "file does not give (AWS: on-demand prices only; Azure: a reserved price without a reservation of its term).\nExamples:\n"
              "  capplan catalog import aws index.json > aws-prices.json\n"
              "  capplan catalog import azure retail.json > azure-prices.json && capplan --catalog azure-prices.json compare ...\n"
              "  capplan catalog import csv quotes.csv > quotes.json");
  imp->callback([import_format, import_file, &ctx] {
    const io::PriceFormat f = capplan::detail::parse_enum<io::PriceFormat>(*import_format, "format");
    const io::PriceImport r = io::import_prices(f, io::JsonDocument::read_text_file(*import_file), *import_file, ctx.catalog());
    std::cout << io::write_offers_json(r.offers);
    check_written(std::cout);
    std::cerr << "capplan: catalog import " << *import_format << ": " << r.offers.size() << " offer" << (r.offers.size() == 1 ? "" : "s")
              << " from " << *import_file;
    if (!r.skipped.empty()) {
      std::cerr << "; left out " << r.skipped.size() << ":";
      for (const auto& why : r.skipped) std::cerr << "\n  " << why;
    }
    std::cerr << "\n";
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
    // The rates of every GPU the file adds or changes, against the catalog it was applied to: a
    // datasheet's "with sparsity" figure entered as dense is the commonest catalog mistake.
    const Catalog& before = ctx.catalog();
    std::vector<CatalogWarning> warnings;
    for (const GpuSpec& g : c.gpus()) {
      const GpuSpec* old = nullptr;
      for (const GpuSpec& b : before.gpus()) {
        if (b.id == g.id) old = &b;
      }
      if (old != nullptr && io::record_to_json(*old) == io::record_to_json(g)) continue;
      for (CatalogWarning& w : sparse_rate_suspects(g, &before)) warnings.push_back(std::move(w));
    }
    for (const CatalogWarning& w : warnings) t.notes.push_back("Warning: " + w.message + ".");
    if (warnings.empty()) t.notes.push_back("No GPU rate the file gives looks like a 2:4-sparse figure.");
    r.json = {{"file", *file_arg}, {"valid", true}, {"added", s.total_added()}, {"replaced", s.total_replaced()},
              {"warnings", to_json(warnings_output(warnings))}};
    r.tables.push_back(std::move(t));
    write(r, ctx);
  });

  auto name_arg = std::make_shared<std::string>();
  auto* show = cmd->add_subcommand("show", "Show one catalog entry (any kind) with every figure, its source and date");
  show->add_option("name", *name_arg, "An id or name of any kind: GPU ('H100 SXM', rtx4090), CPU, memory, drive, PSU, chassis, NIC, motherboard, system, model preset")
      ->required();
  show->footer("Examples:\n  capplan catalog show 'H100 SXM'\n  capplan catalog show epyc-7763\n  capplan catalog show ws-rtx-4090\n"
               "  capplan catalog show rtx4090 --format json\n  capplan catalog show llama3.1-8b\n  capplan catalog show sdxl-unet --format json > sdxl.json");
  show->callback([name_arg, &ctx] {
    const Catalog& c = ctx.catalog();
    // An exact id, name or alias of a part other than a GPU, or a system, first; then the GPU lookup
    // (which also takes unambiguous parts of names, and lists the closest ids when nothing matches).
    const std::string wanted = capplan::detail::lower_ascii(*name_arg);
    const auto same = [&](const std::string& x) { return capplan::detail::lower_ascii(x) == wanted; };
    const auto names_it = [&](const nlohmann::ordered_json& e) {
      if (same(e["id"].get<std::string>()) || (e.contains("name") && same(e["name"].get<std::string>()))) return true;
      if (e.contains("aliases")) {
        for (const auto& a : e["aliases"]) {
          if (same(a.get<std::string>())) return true;
        }
      }
      return false;
    };
    for (const SystemSpec& s : c.systems()) {
      if (names_it(entry_json(s))) {
        Result r;
        r.json = entry_json(s);
        r.json["price"] = nlohmann::ordered_json::object();
        const SystemPrice sp = c.system_price(s);
        r.json["price"]["low"] = sp.low ? nlohmann::ordered_json(to_json_string(*sp.low)) : nlohmann::ordered_json(nullptr);
        r.json["price"]["high"] = sp.high ? nlohmann::ordered_json(to_json_string(*sp.high)) : nlohmann::ordered_json(nullptr);
        r.json["price"]["given"] = sp.given;
        r.json["price"]["currency"] = sp.low ? nlohmann::ordered_json(std::string(code(sp.low->currency()))) : nlohmann::ordered_json(nullptr);
        r.tables.push_back(system_detail(c, s));
        write(r, ctx);
        return;
      }
    }
    std::optional<std::pair<std::string, nlohmann::ordered_json>> part;
    for_each_part_entry(c, [&](std::string_view, std::string_view part_kind, const nlohmann::ordered_json& e) {
      if (!part && names_it(e)) part.emplace(std::string(part_kind), e);
    });
    if (part) {
      Result r;
      r.json = part->second;
      r.json["catalog_kind"] = part->first;  // not "kind": a drive has a field of that name
      r.tables.push_back(part_detail(part->first, part->second));
      write(r, ctx);
      return;
    }
    // A model preset (catalog list --kind models).
    for (const ModelPreset& p : model_presets()) {
      if (same(p.id)) {
        write(model_detail(p), ctx);
        return;
      }
    }
    const GpuSpec& g = [&]() -> const GpuSpec& {
      try {
        return c.find_gpu(*name_arg);
      } catch (const LookupError& e) {
        // Not a GPU either: say that every kind was searched; keep the GPU lookup's closest names.
        const std::string what = e.what();
        const auto closest = what.find("closest: ");
        if (closest == std::string::npos) throw;  // ambiguous between GPUs: that message is the right one
        throw LookupError("name", *name_arg,
                          "name: \"" + *name_arg + "\" is no id, name or alias of a GPU, CPU, memory module, drive, PSU, chassis, "
                          "network adapter, motherboard, system or model preset (capplan catalog list --kind ...); closest GPUs: " + what.substr(closest + 9));
      }
    }();
    Result r;
    Table t = gpu_detail(g);
    r.json = to_json(gpu_output(g));
    r.tables.push_back(std::move(t));
    write(r, ctx);
  });
}

}  // namespace capplan::cli
