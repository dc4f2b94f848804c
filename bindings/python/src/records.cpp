// Hardware records, the catalog and workload shapes: capplan/hardware, capplan/io/catalog_json.hpp,
// capplan/workload.
//
//   cat = Catalog.builtin();  gpu = cat.find_gpu("H100 SXM");  gpu.memory, gpu.peak("bf16")
//   cat.load_file("my-catalog.json");  cat.warnings(today="2026-11-21")
//   shape = find_model("llama2-7b").transformer();  parameter_count(shape) -> int (exact)
#include "areas.hpp"
#include "convert.hpp"
#include "record.hpp"

#include <capplan/hardware/builtin_catalog.hpp>
#include <capplan/hardware/catalog.hpp>
#include <capplan/hardware/gpu_slots.hpp>
#include <capplan/hardware/host_memory.hpp>
#include <capplan/hardware/warnings.hpp>
#include <capplan/io/catalog_json.hpp>
#include <capplan/io/price_import.hpp>
#include <capplan/report/catalog_output.hpp>
#include <capplan/workload/generic.hpp>
#include <capplan/workload/params.hpp>
#include <capplan/workload/presets.hpp>
#include <capplan/workload/transformer.hpp>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

namespace capplan::python {

namespace {

// GpuSpec.dense as {precision name: FlopRate}.
py::dict rates_to_py(const PeakRates& r) {
  py::dict d;
  for (Precision p : all_precisions) {
    if (auto v = r.at(p)) d[py::str(std::string(name(p)))] = py::cast(*v);
  }
  return d;
}

PeakRates rates_from_py(const py::dict& d) {
  PeakRates r{};
  for (auto item : d) {
    Precision p = py::isinstance<Precision>(item.first) ? item.first.cast<Precision>()
                                                        : parse_precision(py::str(item.first).cast<std::string>(), "dense");
    if (!py::isinstance<FlopRate>(item.second)) {
      throw py::type_error("GpuSpec.dense['" + std::string(name(p)) + "']: expected a FlopRate, got " +
                           std::string(py::repr(item.second)));
    }
    r.set(p, item.second.cast<FlopRate>());
  }
  return r;
}

void bind_hardware_enums(py::module_& m) {
  text_enum<Precision>(m, "Precision", "Numeric precision of tensor math and stored values.");
  text_enum<FormFactor>(m, "FormFactor", "How an accelerator is packaged.");
  text_enum<GpuCooling>(m, "GpuCooling", "An add-in card's cooler: passive (needs a server's airflow), blower or open-air fans.");
  text_enum<BoardFormFactor>(m, "BoardFormFactor", "Motherboard size, smallest first (a case takes its largest and every smaller one).");
  text_enum<Vendor>(m, "Vendor", "Hardware vendor.");
  text_enum<DramType>(m, "DramType", "Host DRAM generation.");
  text_enum<StorageKind>(m, "StorageKind", "Kind of storage device.");
  text_enum<LinkProtocol>(m, "LinkProtocol", "Network adapter protocol.");
  text_enum<EightyPlusTier>(m, "EightyPlusTier", "80 PLUS certification level of a power supply.");
  text_enum<PsuInput>(m, "PsuInput", "80 PLUS test category (input voltage, redundancy).");
  text_enum<Topology>(m, "Topology", "How the GPUs inside one node talk to each other.");
  text_enum<PartKind>(m, "PartKind", "Kind of a system part.");
  text_enum<InstanceNetwork>(m, "InstanceNetwork", "How a cloud offer's instances reach each other: tcp, gpudirect_tcpx, efa, roce, infiniband, or overlay (no network for collectives).");
  text_enum<PriceKind>(m, "PriceKind", "Kind of a cloud price.")
      .value("on_demand", PriceKind::on_demand)
      .value("spot", PriceKind::spot)
      .value("reserved", PriceKind::reserved)
      .value("monthly", PriceKind::monthly);
  text_enum<WarningKind>(m, "WarningKind", "Kind of a catalog warning.");

  m.def("bytes_per_element", &bytes_per_element, py::arg("precision"), "Bytes per value stored at this precision (int4, fp4: 0.5; fp6: 0.75).");
  m.def("parse_precision", [](const std::string& t) { return parse_precision(t); }, py::arg("text"),
        "A Precision from its name; InputError otherwise.");
}

void bind_hardware_records(py::module_& m) {
  Record<PricePoint>(m, "PricePoint", "An amount of money with where and when it was observed.")
      .described_fields({{"amount", "Money (the low end of a range)"},
                         {"as_of", "ISO date"},
                         {"source", "URL or document"},
                         {"high", "upper end of a range, or None"}})
      .finish()
      .def("validate", [](const PricePoint& p, const std::string& f) { p.validate(f); }, py::arg("field") = "price");

  Record<GpuSpec> g(m, "GpuSpec", "One accelerator model. Peak tensor rates are dense (no 2:4 sparsity).");
  g.described_fields({{"usable_memory", "total the CUDA/ROCm runtime reports (cudaMemGetInfo), or None"},
                      {"memory_bandwidth", "peak device-memory bandwidth"},
                      {"nvlink_bandwidth", "per direction, per GPU"}},
                     {{"dense", [](Record<GpuSpec>& r) {
                         r.property(
                             "dense", [](const GpuSpec& s) { return rates_to_py(s.dense); },
                             [](GpuSpec& s, const py::dict& d) { s.dense = rates_from_py(d); },
                             [](const GpuSpec& s) {
                               py::dict d;
                               for (Precision p : all_precisions) {
                                 if (auto v = s.dense.at(p)) d[py::str(std::string(name(p)))] = v->value();
                               }
                               return py::object(d);
                             },
                             "dense_flop_per_s", "Dense peak rates: {precision name: FlopRate}.");
                       }}});
  g.finish()
      .def("validate", &GpuSpec::validate, "InputError naming the field for a missing or absurd figure.")
      .def("output", [](const GpuSpec& s) { return to_python(gpu_output(s)); },
           "What `capplan catalog show GPU --format json` prints, as a dict (the same keys).")
      .def(
          "peak", [](const GpuSpec& s, Precision p) { return s.dense.at(p); }, py::arg("precision"),
          "The dense peak rate at a precision, or None where the part has none.");

  Record<CpuSpec>(m, "CpuSpec", "A host processor model.")
      .described_fields()
      .finish()
      .def("validate", &CpuSpec::validate)
      .def("full_load_power", [](const CpuSpec& c) { return full_load_power(c); },
           "What it draws at full load: max_power (AMD PPT, Intel PL2) where recorded, else the TDP.")
      .def(
          "memory_bandwidth", [](const CpuSpec& c, int channels, int speed_mts) { return memory_bandwidth(c, channels, speed_mts); },
          py::arg("channels") = -1, py::arg("speed_mts") = 0,
          "One socket's DRAM wire rate: channels filled (-1: all) x 8 B x MT/s (0: the CPU's rated speed; faster DIMMs run at it).");
  m.def("ddr_speed_mts", [](const std::string& memory_type) { return ddr_speed_mts(memory_type); }, py::arg("memory_type"),
        "The transfer rate a DDR memory type names (\"DDR5-4800\" -> 4800); 0 where it names none.");
  Record<HostMemory>(m, "HostMemory", "A machine's host DRAM from its CPUs and DIMMs (hardware/host_memory.hpp).")
      .field("bandwidth", &HostMemory::bandwidth, "the DRAM wire rate, all sockets (0: the parts do not give it)")
      .field("sockets", &HostMemory::sockets)
      .field("channels", &HostMemory::channels, "filled channels, all sockets")
      .field("speed_mts", &HostMemory::speed_mts, "the speed they run at: the slower of the CPU's rating and the DIMMs'")
      .field("basis", &HostMemory::basis, "the arithmetic, or why there is none")
      .finish();
  Record<GpuSlots>(m, "GpuSlots", "The PCIe link each GPU of a machine runs at, from its CPUs' lanes or its board's slots (hardware/gpu_slots.hpp).")
      .field("lanes", &GpuSlots::lanes, "electrical lanes each GPU's link runs at")
      .field("generation", &GpuSlots::generation, "the PCIe generation it runs at: the older of the card's and the host's")
      .field("narrowed", &GpuSlots::narrowed, "below the card's own width or generation")
      .field("basis", &GpuSlots::basis, "the arithmetic, in words")
      .finish()
      .def("apply", &GpuSlots::apply, py::arg("gpu"), "The card as it runs in these slots: its PCIe link at lanes and generation.");
  m.def("lanes_per_card", &lanes_per_card, py::arg("card_lanes"), py::arg("gpus"), py::arg("free_lanes"),
        "The widest link each of `gpus` cards gets from `free_lanes`: its own where they all fit, else the widest power of two each gets (at least 1).");

  Record<MemoryModule>(m, "MemoryModule", "A host DRAM module (DDR4 / DDR5 DIMM).")
      .described_fields()
      .finish()
      .def("validate", &MemoryModule::validate);

  Record<StorageDevice>(m, "StorageDevice", "An NVMe SSD, SATA SSD or hard disk.")
      .described_fields()
      .finish()
      .def("validate", &StorageDevice::validate);

  Record<NetworkAdapter>(m, "NetworkAdapter", "A host channel adapter / NIC.")
      .described_fields({{"port_speed", "per port, per direction"}})
      .finish()
      .def("validate", &NetworkAdapter::validate);

  Record<Chassis>(m, "Chassis", "The enclosure of a node and how many GPUs it holds.")
      .described_fields({{"rack_units", "0: a tower"}})
      .finish()
      .def("validate", &Chassis::validate);

  Record<PcieSlot>(m, "PcieSlot", "A GPU slot of a board: its position from the top, electrical lanes and PCIe generation.")
      .described_fields({{"position", "slot position from the top (1: nearest the CPU)"},
                         {"lanes", "electrical lanes with the board's other GPU slots in use"}})
      .finish();

  Record<Motherboard>(m, "Motherboard", "A motherboard: socket, memory, size and where its GPU slots are.")
      .described_fields({{"slots", "the x16-length slots, top to bottom"}})
      .finish()
      .def("validate", &Motherboard::validate);
  m.def("place_cards", &place_cards, py::arg("board"), py::arg("cards"), py::arg("width"), py::arg("min_lanes") = 8, py::arg("case_positions") = 0,
        py::arg("gap") = 0,
        "The board's slots where `cards` cards of `width` slot positions go (the first free ones from the top with at least "
        "`min_lanes` lanes, the last card ending within `case_positions` when that is not 0, `gap` positions left free below each "
        "card but the last); [] when they do not all fit.");

  Record<PowerSupply>(m, "PowerSupply", "A power supply: rated output and 80 PLUS tier.")
      .described_fields({{"rated", "continuous DC output"}})
      .finish()
      .def("validate", &PowerSupply::validate)
      .def("efficiency_at", &PowerSupply::efficiency_at, py::arg("load"),
           "The tier's minimum efficiency at a load fraction (0, 1], linear between the 80 PLUS points.")
      .def("wall_power", &PowerSupply::wall_power, py::arg("output"),
           "AC power drawn from the wall to deliver `output` DC.");

  Record<SystemPart>(m, "SystemPart", "`count` of catalog entry `id` of kind `kind`, per node.")
      .described_fields()
      .finish();

  Record<SystemSpec>(m, "SystemSpec", "A build or server: nodes x parts, the GPU topology and a price.")
      .described_fields({{"parts", "per node"},
                         {"price", "the whole system's price when a source gives one"}})
      .finish()
      .def("validate", &SystemSpec::validate)
      .def("gpus_per_node", &SystemSpec::gpus_per_node)
      .def("total_gpus", &SystemSpec::total_gpus)
      .def("gpu_id", &SystemSpec::gpu_id, "The id of the (first) GPU model in the node, '' if none.");

  Record<CloudOffer>(m, "CloudOffer", "A rentable instance with its prices per INSTANCE in its own currency.")
      .described_fields({{"on_demand", "MoneyRate per instance-hour"},
                         {"min_term", "Duration: the shortest time the reserved or the monthly price is sold for; None: not stated"},
                         {"monthly", "Money per instance-month"},
                         {"network", "Bandwidth between instances: the NICs the GPUs' traffic uses, per direction, sustained; 0: not recorded"}})
      .finish()
      .def("validate", &CloudOffer::validate)
      .def("has", &CloudOffer::has, py::arg("kind"))
      .def("instance_gpus", &CloudOffer::instance_gpus, "The most GPUs one instance holds: max_gpus for an offer sold by the GPU, else gpu_count.")
      .def("headline", &CloudOffer::headline, "The first price present: on-demand, monthly, reserved, spot.")
      .def(
          "per_instance_hour",
          [](const CloudOffer& o, std::optional<PriceKind> k) { return k ? o.per_instance_hour(*k) : o.per_instance_hour(); },
          py::arg("kind") = py::none(), "Price per instance-hour (a monthly price / 730 h); the headline price by default.")
      .def(
          "per_gpu_hour",
          [](const CloudOffer& o, std::optional<PriceKind> k) { return k ? o.per_gpu_hour(*k) : o.per_gpu_hour(); },
          py::arg("kind") = py::none(), "Price per GPU-hour: the instance price / gpu_count.")
      .def("billable", &CloudOffer::billable, py::arg("kind"),
           "Whether a run can be priced at this kind: every price but a reserved one without its term.")
      .def("billed_time", &CloudOffer::billed_time, py::arg("kind"), py::arg("run"),
           "The time the price bills for a run: the run (on-demand, spot), whole months (monthly), max(run, min_term) (reserved), whole "
           "terms under a month (a Capacity Block: whole days, whole weeks past 14 days).");

  Record<SystemPrice>(m, "SystemPrice", "A system's price: given by its source or the sum of its parts.")
      .readonly("low", &SystemPrice::low)
      .readonly("high", &SystemPrice::high)
      .readonly("given", &SystemPrice::given)
      .readonly("missing", &SystemPrice::missing, "parts without a price")
      .readonly("as_of", &SystemPrice::as_of)
      .readonly("priced_parts_low", &SystemPrice::priced_parts_low,
                "derived prices: sum over the parts that have a price (a lower bound when parts are missing)")
      .readonly("priced_parts_high", &SystemPrice::priced_parts_high)
      .finish(false)
      .def("known", &SystemPrice::known);

  Record<CatalogWarning>(m, "CatalogWarning", "A stale price, a rate that looks sparse, or a price outlier.")
      .readonly("kind", &CatalogWarning::kind)
      .readonly("entry", &CatalogWarning::entry)
      .readonly("field", &CatalogWarning::field)
      .readonly("message", &CatalogWarning::message)
      .finish(false)
      .def("__str__", [](const CatalogWarning& w) { return w.message; });

  Record<io::CatalogLoadSummary>(m, "CatalogLoadSummary", "What a catalog load did: entries added and replaced per section.")
      .readonly("added", &io::CatalogLoadSummary::added)
      .readonly("replaced", &io::CatalogLoadSummary::replaced)
      .finish(false)
      .def("total_added", &io::CatalogLoadSummary::total_added)
      .def("total_replaced", &io::CatalogLoadSummary::total_replaced);
}

template <class T>
void def_add(py::class_<Catalog>& c) {
  c.def(
      "add_or_replace", [](Catalog& cat, const T& e) { return cat.add_or_replace(e); }, py::arg("entry"),
      "Adds an entry (validated first) or replaces the one with the same id; True when it replaced one.");
}

void bind_catalog(py::module_& m) {
  using RP = py::return_value_policy;
  py::class_<Catalog> c(m, "Catalog",
                        "Hardware records and cloud offers, looked up by id, name or alias. Catalog.builtin() is a "
                        "fresh copy of the built-in catalog; load_file() adds or overrides entries from a JSON file.");
  c.def(py::init<>(), "An empty catalog.");
  c.def_static("builtin", []() { return Catalog::make_builtin(); }, "A copy of the built-in catalog, to use or extend.");
  c.def_static(
      "from_json", [](std::string text, std::string file) { return io::read_catalog_json(std::move(text), std::move(file)); },
      py::arg("text"), py::arg("file") = "<string>", "A catalog of the JSON document's entries only.");
  c.def_static(
      "from_file",
      [](const std::string& path) {
        Catalog cat;
        io::load_catalog_file(cat, path);
        return cat;
      },
      py::arg("path"), "A catalog of the file's entries only (every entry complete).");
  c.def("load_file", [](Catalog& cat, const std::string& path) { return io::load_catalog_file(cat, path); }, py::arg("path"),
        "Adds the file's entries and overrides fields of the entries it names; all or nothing.");
  c.def(
      "load_json",
      [](Catalog& cat, std::string text, std::string file) { return io::apply_catalog_json(cat, std::move(text), std::move(file)); },
      py::arg("text"), py::arg("file") = "<string>", "load_file() for a JSON string.");
  c.def("to_json", [](const Catalog& cat, int indent) { return io::write_catalog_json(cat, indent); }, py::arg("indent") = 2,
        "The catalog as a capplan-catalog JSON document.");
  c.def("save_file", [](const Catalog& cat, const std::string& path) { io::save_catalog_file(cat, path); }, py::arg("path"));
  c.def(
      "import_prices",
      [](const Catalog& cat, const std::string& format, const std::string& path) {
        const io::PriceImport r = io::import_prices(capplan::detail::parse_enum<io::PriceFormat>(format, "format"),
                                                    io::JsonDocument::read_text_file(path), path, cat);
        return py::make_tuple(r.offers, r.skipped);
      },
      py::arg("format"), py::arg("path"),
      "(offers, skipped): a provider's price list ('aws' EC2 price list JSON, 'azure' Retail Prices API JSON, or 'csv') as dated "
      "CloudOffers checked against this catalog, and the products left out with why (capplan catalog import).");
  m.def("write_offers_json", [](const std::vector<CloudOffer>& offers) { return io::write_offers_json(offers); }, py::arg("offers"),
        "Cloud offers as a capplan-catalog file (null for the price kinds an offer lacks): Catalog.load_json() reads it.");

  c.def("gpus", &Catalog::gpus);
  c.def("cpus", &Catalog::cpus);
  c.def("memory_modules", &Catalog::memory_modules);
  c.def("storage_devices", &Catalog::storage_devices);
  c.def("power_supplies", &Catalog::power_supplies);
  c.def("chassis", &Catalog::chassis);
  c.def("network_adapters", &Catalog::network_adapters);
  c.def("motherboards", &Catalog::motherboards);
  c.def("systems", &Catalog::systems);
  c.def("cloud_offers", &Catalog::cloud_offers);

  const char* find_doc = "By id, name or alias (case, spaces and dashes ignored); capplan.LookupError with the closest "
                         "entries otherwise.";
  c.def("find_gpu", &Catalog::find_gpu, py::arg("name"), RP::copy, find_doc);
  c.def("find_cpu", &Catalog::find_cpu, py::arg("name"), RP::copy, find_doc);
  c.def("find_memory_module", &Catalog::find_memory_module, py::arg("name"), RP::copy, find_doc);
  c.def("find_storage", &Catalog::find_storage, py::arg("name"), RP::copy, find_doc);
  c.def("find_psu", &Catalog::find_psu, py::arg("name"), RP::copy, find_doc);
  c.def("find_chassis", &Catalog::find_chassis, py::arg("name"), RP::copy, find_doc);
  c.def("find_network_adapter", &Catalog::find_network_adapter, py::arg("name"), RP::copy, find_doc);
  c.def("find_motherboard", &Catalog::find_motherboard, py::arg("name"), RP::copy, find_doc);
  c.def("find_system", &Catalog::find_system, py::arg("name"), RP::copy, find_doc);
  c.def("find_offer", &Catalog::find_offer, py::arg("name"), RP::copy, find_doc);
  c.def(
      "offers_for_gpu",
      [](const Catalog& cat, const std::string& gpu) {
        std::vector<CloudOffer> out;
        for (const CloudOffer* o : cat.offers_for_gpu(gpu)) out.push_back(*o);
        return out;
      },
      py::arg("gpu"), "The cloud offers whose GPU is `gpu` (looked up by name).");
  def_add<GpuSpec>(c);
  def_add<CpuSpec>(c);
  def_add<MemoryModule>(c);
  def_add<StorageDevice>(c);
  def_add<PowerSupply>(c);
  def_add<Chassis>(c);
  def_add<NetworkAdapter>(c);
  def_add<Motherboard>(c);
  def_add<SystemSpec>(c);
  def_add<CloudOffer>(c);
  c.def("part_price", &Catalog::part_price, py::arg("kind"), py::arg("id"),
        "A part's street price, else its launch price; None when it has neither.");
  c.def("system_price", &Catalog::system_price, py::arg("system"),
        "The system's own price, or nodes x the sum of its parts' prices.");
  c.def("parts_price", &Catalog::parts_price, py::arg("system"),
        "nodes x the sum of the system's parts' prices, even when the system has its own price.");
  c.def("validate", &Catalog::validate, "Every entry valid, names unique, references resolved; InputError otherwise.");
  m.def("host_memory", &host_memory, py::arg("system"), py::arg("catalog"),
        "One node's host DRAM from the system's CPU and memory-module parts: what its GPUs share through host memory (NCCL's SHM).");
  m.def("gpu_slots", &gpu_slots, py::arg("system"), py::arg("catalog"),
        "The PCIe link each GPU of one node runs at: its CPUs' free lanes shared by the cards (x8/x8 on a desktop CPU) or its board's slots.");
  c.def(
      "warnings",
      [](const Catalog& cat, const std::string& today, long max_price_age_days, double outlier_factor, std::size_t min_siblings) {
        WarningOptions o;
        o.today = today;
        o.max_price_age_days = max_price_age_days;
        o.outlier_factor = outlier_factor;
        o.min_siblings = min_siblings;
        return check_catalog(cat, o);
      },
      py::kw_only(), py::arg("today"), py::arg("max_price_age_days") = 365, py::arg("outlier_factor") = 3.0,
      py::arg("min_siblings") = 3,
      "Stale prices (older than max_price_age_days on `today`), tensor rates that look sparse, price outliers.");
  c.def(
      "warnings_for",
      [](const Catalog& cat, const std::vector<std::string>& entries, const std::string& today, long max_price_age_days) {
        WarningOptions o;
        o.today = today;
        o.max_price_age_days = max_price_age_days;
        return warnings_for(cat, entries, o);
      },
      py::arg("entries"), py::kw_only(), py::arg("today"), py::arg("max_price_age_days") = 365,
      "The warnings about the entries one answer used (\"gpu h100-sxm\", \"cloud offer lambda-gpu-8x-h100-sxm5\"), "
      "in their order, each entry's once.");
  c.def("__repr__", [](const Catalog& cat) {
    return "<Catalog: " + std::to_string(cat.gpus().size()) + " GPUs, " + std::to_string(cat.systems().size()) +
           " systems, " + std::to_string(cat.cloud_offers().size()) + " cloud offers>";
  });
  c.def("__len__", [](const Catalog& cat) {
    return cat.gpus().size() + cat.cpus().size() + cat.memory_modules().size() + cat.storage_devices().size() +
           cat.power_supplies().size() + cat.chassis().size() + cat.network_adapters().size() + cat.motherboards().size() + cat.systems().size() +
           cat.cloud_offers().size();
  });

  m.def("normalize_name", &normalize_name, py::arg("name"), "Lower case without spaces, dashes and underscores.");
}

void bind_workload(py::module_& m) {
  text_enum<AttentionKind>(m, "AttentionKind", "Multi-head, grouped-query, multi-query or multi-head latent attention.");
  text_enum<NormKind>(m, "NormKind", "LayerNorm (scale and bias) or RMSNorm (scale only).");

  Record<MoeShape>(m, "MoeShape", "The mixture-of-experts part of a model.")
      .field("experts", &MoeShape::experts)
      .field("experts_per_token", &MoeShape::experts_per_token)
      .field("shared_experts", &MoeShape::shared_experts)
      .field("moe_ffn_hidden", &MoeShape::moe_ffn_hidden)
      .field("first_dense_layers", &MoeShape::first_dense_layers)
      .field("expert_groups", &MoeShape::expert_groups, "group-limited routing: expert groups (DeepSeek-V3 n_group 8); 0: none")
      .field("groups_per_token", &MoeShape::groups_per_token, "groups a token's experts come from at most (DeepSeek-V3 topk_group 4)")
      .finish();
  Record<MlaShape>(m, "MlaShape", "Multi-head latent attention dimensions (DeepSeek-V2/V3).")
      .field("q_lora_rank", &MlaShape::q_lora_rank)
      .field("kv_lora_rank", &MlaShape::kv_lora_rank)
      .field("qk_nope_head_dim", &MlaShape::qk_nope_head_dim)
      .field("qk_rope_head_dim", &MlaShape::qk_rope_head_dim)
      .field("v_head_dim", &MlaShape::v_head_dim)
      .finish();

  Record<SlidingWindow>(m, "SlidingWindow",
                        "Sliding-window attention: windowed layers attend to the last `tokens` keys; every "
                        "`global_every`-th layer (counted from 1) attends globally, 0: every layer windowed.")
      .field("tokens", &SlidingWindow::tokens)
      .field("global_every", &SlidingWindow::global_every)
      .finish();
  Record<TransformerShape>(m, "TransformerShape",
                           "The shape of a transformer. 0 in kv_heads, head_dim, ffn_hidden means the usual default "
                           "(heads, hidden / heads, 4 x hidden).")
      .field("name", &TransformerShape::name)
      .field("layers", &TransformerShape::layers)
      .field("hidden", &TransformerShape::hidden)
      .field("heads", &TransformerShape::heads)
      .field("kv_heads", &TransformerShape::kv_heads)
      .field("head_dim", &TransformerShape::head_dim)
      .field("ffn_hidden", &TransformerShape::ffn_hidden)
      .field("gated_mlp", &TransformerShape::gated_mlp)
      .field("vocab", &TransformerShape::vocab)
      .field("tied_embeddings", &TransformerShape::tied_embeddings)
      .field("encoder", &TransformerShape::encoder)
      .field("seq_len", &TransformerShape::seq_len)
      .field("moe", &TransformerShape::moe)
      .field("mla", &TransformerShape::mla)
      .field("window", &TransformerShape::window, "sliding-window attention (None: every layer attends globally)")
      .field("params_override", &TransformerShape::params_override, "a published parameter count that overrides the derived one")
      .field("norm", &TransformerShape::norm)
      .field("linear_bias", &TransformerShape::linear_bias)
      .field("qkv_bias", &TransformerShape::qkv_bias)
      .field("learned_positions", &TransformerShape::learned_positions)
      .field("token_types", &TransformerShape::token_types)
      .field("embedding_norm", &TransformerShape::embedding_norm)
      .field("final_norm", &TransformerShape::final_norm)
      .field("pooler", &TransformerShape::pooler)
      .finish()
      .def("validate", &TransformerShape::validate, "InputError naming the first bad field and its value.")
      .def("resolved", &TransformerShape::resolved, "A validated copy with kv_heads, head_dim and ffn_hidden filled in.")
      .def("effective_kv_heads", &TransformerShape::effective_kv_heads)
      .def("effective_head_dim", &TransformerShape::effective_head_dim)
      .def("effective_ffn_hidden", &TransformerShape::effective_ffn_hidden)
      .def("attention_kind", &TransformerShape::attention_kind)
      .def("moe_layers", &TransformerShape::moe_layers)
      .def("dense_layers", &TransformerShape::dense_layers)
      .def("windowed_layers", py::overload_cast<>(&TransformerShape::windowed_layers, py::const_),
           "Layers that attend through the sliding window (0 without one).")
      .def("windowed_layer", &TransformerShape::windowed_layer, py::arg("i"), "Whether layer i (0-based) is windowed.")
      .def("parameter_count", [](const TransformerShape& s) { return parameter_count(s); },
           "Total parameters (exact int): params_override if given, else derived.");

  Record<GenericModel>(m, "GenericModel", "A model given by its parameter count and forward multiply-adds per sample (CNNs).")
      .field("name", &GenericModel::name)
      .field("params", &GenericModel::params)
      .field("forward_macs_per_sample", &GenericModel::forward_macs_per_sample)
      .field("sample", &GenericModel::sample)
      .finish()
      .def("validate", &GenericModel::validate)
      .def("forward_flops_per_sample", &GenericModel::forward_flops_per_sample, "2 FLOP per multiply-add.")
      .def("training_flops_per_sample", &GenericModel::training_flops_per_sample, "3 x forward (Kaplan et al. 2020, §2.1).");

  Record<ModelPreset>(m, "ModelPreset", "A built-in model: a transformer shape or a generic model, with its source.")
      .readonly("id", &ModelPreset::id)
      .readonly("model", &ModelPreset::model)
      .readonly("published_params", &ModelPreset::published_params)
      .readonly("source", &ModelPreset::source)
      .readonly("pretrain_seq_len", &ModelPreset::pretrain_seq_len, "0: the shape's seq_len")
      .readonly("pretrain_source", &ModelPreset::pretrain_source)
      .readonly("released_weights", &ModelPreset::released_weights, "Released weight format where not bf16 (a WeightFormat name); '': bf16")
      .readonly("released_expert_weights", &ModelPreset::released_expert_weights, "Routed experts' released format where it differs ('mxfp4': gpt-oss)")
      .readonly("released_source", &ModelPreset::released_source)
      .finish(false)
      .def("training_seq_len", &ModelPreset::training_seq_len, "Default training sequence length: the pre-training one.")
      .def("is_transformer", &ModelPreset::is_transformer)
      .def("transformer", &ModelPreset::transformer, py::return_value_policy::copy,
           "The transformer shape; InputError for a generic model.")
      .def("generic", &ModelPreset::generic, py::return_value_policy::copy, "The generic model; InputError for a transformer.");

  Record<ParamBreakdown>(m, "ParamBreakdown", "Exact parameter counts by part of the model (Python ints).")
      .readonly("embedding", &ParamBreakdown::embedding)
      .readonly("attention", &ParamBreakdown::attention)
      .readonly("mlp", &ParamBreakdown::mlp)
      .readonly("norms", &ParamBreakdown::norms)
      .readonly("other", &ParamBreakdown::other)
      .readonly("active", &ParamBreakdown::active)
      .readonly("expert", &ParamBreakdown::expert)
      .finish(false)
      .def("total", &ParamBreakdown::total)
      .def("non_embedding", &ParamBreakdown::non_embedding, "Kaplan et al. 2020, §2.1: N without the embeddings.");

  m.def("model_presets", &model_presets, "Every built-in model preset, in a stable order.");
  m.def("find_model", &find_model, py::arg("id"), py::return_value_policy::copy,
        "The preset a model name means: its id (any case) or a Hugging Face repository name whose tune keeps "
        "the shape ('meta-llama/Llama-3.1-8B-Instruct' is llama3.1-8b; a quantized repository such as "
        "'Qwen/Qwen3-8B-FP8' is not taken); capplan.LookupError listing the closest ids otherwise.");
  m.def("closest_model_ids", &closest_model_ids, py::arg("id"), py::arg("n") = 3);
  m.def("parameter_breakdown", &parameter_breakdown, py::arg("shape"), "Exact parameter counts, part by part.");
  m.def("parameter_count", &parameter_count, py::arg("shape"), "Total parameters: params_override if given, else derived.");
  m.def("active_parameter_count", &active_parameter_count, py::arg("shape"), "Parameters one token passes through (MoE: top-k).");
  m.def("matmul_parameters_per_token", &matmul_parameters_per_token, py::arg("shape"),
        "Weights a token is multiplied by (2 FLOP each per forward pass), with the output head.");
}

}  // namespace

void bind_records(py::module_& m) {
  bind_hardware_enums(m);
  bind_hardware_records(m);
  bind_catalog(m);
  bind_workload(m);
}

}  // namespace capplan::python
