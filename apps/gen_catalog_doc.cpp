// Prints docs/catalog.md: every entry of the built-in hardware catalog with its figures, source
// and date, and how to add or override entries. The page is generated so it cannot go stale:
//   gen_catalog_doc                  print the page
//   gen_catalog_doc --output FILE    write it to FILE
//   gen_catalog_doc --check FILE     exit 1 if FILE differs from what would be printed (CTest)
#include <capplan/detail/enum_names.hpp>
#include <capplan/hardware/catalog.hpp>
#include <capplan/perf/communication.hpp>
#include <capplan/hardware/warnings.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>

namespace {

using namespace capplan;

std::string upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
  return out;
}

std::string cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out.empty() ? "–" : out;
}

std::string tf(const PeakRates& r, Precision p) {
  const auto v = r.at(p);
  return v ? format_number(v->value() / 1e12, 5) : "–";
}

template <class Q>
std::string q_or_dash(const Q& q) {
  return q.value() > 0 ? format(q) : "–";
}

std::string price(const std::optional<PricePoint>& p) {
  if (!p) return "–";
  std::string s = format(p->amount, {.decimals = p->amount.amount() == p->amount.amount().round(0) ? 0 : 2});
  if (p->high) s += "–" + format(*p->high, {.decimals = 0});
  return s + " (" + p->as_of + ")";
}

std::string money(const Money& m) { return format(m); }

template <class T>
void sources(std::ostream& o, const std::vector<T>& v) {
  o << "\nSources and notes:\n\n";
  for (const T& e : v) {
    o << "- **" << e.id << "**: " << e.source << " (figures recorded " << e.as_of << ")";
    if (!e.note.empty()) o << ". " << e.note;
    o << "\n";
  }
}

void gpus(std::ostream& o, const Catalog& c) {
  o << "## Accelerators\n\n"
    << "Dense peak rates in TFLOP/s (TOP/s for INT8/INT4; FP4 is the NVFP4/MXFP4 tensor rate); – where the part has no such math or the vendor "
       "publishes no figure (the note says which). BF16/FP16 are FP32-accumulate rates. Link bandwidth is per "
       "direction per GPU.\n\n"
    << "| id | name | architecture | form | memory | bandwidth";
  for (Precision p : all_precisions) o << " | " << upper(name(p));
  o << " | TDP | GPU link | PCIe | card or board | launch price | street price |\n|---|---|---|---|---|---";
  for (std::size_t i = 0; i < all_precisions.size(); ++i) o << "|---";
  o << "|---|---|---|---|---|---|\n";
  for (const auto& g : c.gpus()) {
    std::string link = "–";
    if (g.nvlink_generation > 0)
      link = "NVLink " + std::to_string(g.nvlink_generation) + ", " + format(g.nvlink_bandwidth) +
             (g.nvlink_domain > 0 ? " (" + std::to_string(g.nvlink_domain) + "-GPU domain)" : std::string());
    else if (g.infinity_fabric_bandwidth.value() > 0) link = "Infinity Fabric, " + format(g.infinity_fabric_bandwidth);
    else if (g.chip_link_bandwidth.value() > 0)
      link = std::string(perf::name(perf::chip_link(g).kind)) + ", " + format(g.chip_link_bandwidth) + " (" +
             std::to_string(g.chip_link_domain) + "-chip domain)";
    if (!g.peer_to_peer && g.form_factor != FormFactor::soc) link += " (no P2P)";
    const std::string pcie = g.pcie_generation > 0 ? "Gen" + std::to_string(g.pcie_generation) + " x" + std::to_string(g.pcie_lanes) : "–";
    o << "| " << g.id << " | " << cell(g.name) << " | " << cell(g.architecture) << " | " << name(g.form_factor) << " | "
      << format(g.memory) << " " << cell(g.memory_type)
      << (g.usable_memory ? " (usable " + format(*g.usable_memory, {.prefixes = Prefixes::binary}) + ")" : std::string())
      << " | " << format(g.memory_bandwidth);
    for (Precision p : all_precisions) o << " | " << tf(g.dense, p);
    std::string card = "–";
    if (g.slot_width > 0 || g.length.value() > 0 || g.cooling != GpuCooling::unknown) {
      card = g.slot_width > 0 ? std::to_string(g.slot_width) + " slot" + (g.slot_width > 1 ? "s" : "") : std::string("? slots");
      if (g.length.value() > 0) card += ", " + format(g.length);
      if (g.cooling != GpuCooling::unknown) card += ", " + std::string(detail::enum_name(g.cooling));
    }
    // A module is sold on its baseboard (a purchase buys whole boards: hardware/gpu.hpp purchase_unit_gpus).
    if (const int board = purchase_unit_gpus(g); board > 1)
      card = (board == g.nvlink_domain ? "rack of " : "board of ") + std::to_string(board) + (g.board_gpus > 0 ? "" : " (assumed)");
    o << " | " << q_or_dash(g.tdp) << " | " << link << " | " << pcie << " | " << card << " | " << price(g.launch_price) << " | " << price(g.street_price) << " |\n";
  }
  o << "\nNo price, and why (a catalog file can give one):\n\n";
  for (const auto& g : c.gpus()) {
    if (!g.launch_price && !g.street_price && !g.unpriced.empty()) o << "- **" << g.id << "**: " << g.unpriced << ".\n";
  }
  sources(o, c.gpus());
}

void cpus(std::ostream& o, const Catalog& c) {
  o << "\n## CPUs\n\n| id | name | architecture | socket | cores / threads | TDP | PCIe | memory | max memory | launch price | street price |\n"
    << "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& x : c.cpus()) {
    o << "| " << x.id << " | " << cell(x.name) << " | " << cell(x.architecture) << " | " << (x.socket.empty() ? "–" : x.socket) << " | "
      << x.cores << " / " << x.threads
      << " | " << format(x.tdp) << " | " << x.pcie_lanes << " x Gen" << x.pcie_generation << " | " << x.memory_channels
      << " ch " << cell(x.memory_type) << " | " << q_or_dash(x.max_memory) << " | " << price(x.launch_price) << " | "
      << price(x.street_price) << " |\n";
  }
  sources(o, c.cpus());
}

void parts(std::ostream& o, const Catalog& c) {
  o << "\n## Memory modules\n\n| id | name | type | speed | size | registered | ECC | power | street price |\n"
    << "|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& m : c.memory_modules()) {
    o << "| " << m.id << " | " << cell(m.name) << " | " << name(m.type) << " | " << m.speed_mts << " MT/s | " << format(m.size)
      << " | " << (m.registered ? "yes" : "no") << " | " << (m.ecc ? "yes" : "no") << " | "
      << (m.power ? format(*m.power) : "–") << " | " << price(m.street_price) << " |\n";
  }
  sources(o, c.memory_modules());
  o << "\n## Storage\n\n| id | name | kind | capacity | sequential read | sequential write | active power | launch price |\n"
    << "|---|---|---|---|---|---|---|---|\n";
  for (const auto& s : c.storage_devices()) {
    o << "| " << s.id << " | " << cell(s.name) << " | " << name(s.kind) << " | " << format(s.capacity) << " | "
      << format(s.sequential_read) << " | " << format(s.sequential_write) << " | "
      << (s.active_power ? format(*s.active_power) : "–") << " | " << price(s.launch_price) << " |\n";
  }
  sources(o, c.storage_devices());
  o << "\n## Power supplies\n\n| id | name | rated | 80 PLUS tier | tested at | efficiency at 10 / 20 / 50 / 100 % load | price |\n"
    << "|---|---|---|---|---|---|---|\n";
  for (const auto& p : c.power_supplies()) {
    std::string curve;
    const auto cv = p.curve();
    for (std::size_t i = 0; i < cv.efficiency.size(); ++i) {
      if (i > 0) curve += " / ";
      curve += cv.efficiency[i] ? format_number(*cv.efficiency[i] * 100, 3) + " %" : "–";
    }
    o << "| " << p.id << " | " << cell(p.name) << " | " << format(p.rated) << " | " << name(p.tier) << " | " << name(p.input)
      << " | " << curve << " | " << price(p.street_price ? p.street_price : p.launch_price) << " |\n";
  }
  sources(o, c.power_supplies());
  o << "\n80 PLUS minimum efficiencies (CLEAResult 80 PLUS program; table as reproduced by Tom's Hardware, "
       "https://www.tomshardware.com/reviews/80-plus-psu-efficiency,4848-2.html). Between the specified loads "
       "capplan interpolates linearly; below the lowest specified load it holds the lowest point's value.\n\n"
    << "| tier | 115 V internal (10/20/50/100 %) | 230 V EU internal | 230 V internal redundant |\n|---|---|---|---|\n";
  for (EightyPlusTier t : {EightyPlusTier::standard, EightyPlusTier::bronze, EightyPlusTier::silver, EightyPlusTier::gold,
                           EightyPlusTier::platinum, EightyPlusTier::titanium}) {
    o << "| " << name(t);
    for (PsuInput in : {PsuInput::v115_internal, PsuInput::v230_eu_internal, PsuInput::v230_internal_redundant}) {
      const auto cv = eighty_plus_curve(t, in);
      std::string s;
      for (std::size_t i = 0; i < cv.efficiency.size(); ++i) {
        if (i > 0) s += " / ";
        s += cv.efficiency[i] ? format_number(*cv.efficiency[i] * 100, 3) : "–";
      }
      o << " | " << s;
    }
    o << " |\n";
  }
  o << "\n## Chassis\n\n| id | name | rack units | GPUs | PSU bays | boards up to | slot positions | card length | passive cards | price |\n"
       "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& x : c.chassis()) {
    o << "| " << x.id << " | " << cell(x.name) << " | " << (x.rack_units > 0 ? std::to_string(x.rack_units) + "U" : "tower")
      << " | " << x.max_gpus << " | " << x.psu_bays << " | " << name(x.max_board) << " | "
      << (x.expansion_slots > 0 ? std::to_string(x.expansion_slots) : "–") << " | "
      << (x.max_gpu_length.value() > 0 ? format(x.max_gpu_length) : "–") << " | " << (x.passive_gpu_airflow ? "yes" : "no") << " | "
      << price(x.street_price) << " |\n";
  }
  sources(o, c.chassis());
  o << "\n## Network adapters\n\n| id | name | protocol | ports | per port | PCIe | price |\n|---|---|---|---|---|---|---|\n";
  for (const auto& n : c.network_adapters()) {
    o << "| " << n.id << " | " << cell(n.name) << " | " << name(n.protocol) << " | " << n.ports << " | "
      << format(n.port_speed, {.bits = true}) << " | Gen" << n.pcie_generation << " x" << n.pcie_lanes << " | "
      << price(n.street_price) << " |\n";
  }
  sources(o, c.network_adapters());
  o << "\n## Motherboards\n\nGPU slots: position from the top (1: nearest the CPU), electrical lanes with the other GPU slots in use, "
       "PCIe generation. A build places N cards of W slots on the first free slots, with a free position below each open-air card where the board has the slots (capplan build).\n\n"
       "| id | name | socket | size | memory | DIMMs | max memory | GPU slots | price |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& b : c.motherboards()) {
    std::string slots;
    for (const PcieSlot& s : b.slots)
      slots += (slots.empty() ? "" : ", ") + std::to_string(s.position) + ": x" + std::to_string(s.lanes) + " gen " + std::to_string(s.generation);
    o << "| " << b.id << " | " << cell(b.name) << " | " << b.socket << " | " << name(b.form_factor) << " | " << name(b.memory_type)
      << (b.registered ? " RDIMM" : " UDIMM") << " | " << b.dimm_slots << " | " << (b.max_memory.value() > 0 ? format(b.max_memory) : "–")
      << " | " << slots << " | " << price(b.street_price ? b.street_price : b.launch_price) << " |\n";
  }
  sources(o, c.motherboards());
}

void systems(std::ostream& o, const Catalog& c) {
  o << "\n## Systems and builds\n\nParts are per node. The price is the system's own when its source gives one, "
       "otherwise the sum of its parts' prices (street, else launch), or unknown when a part has no price.\n\n"
    << "| id | name | nodes | GPUs per node | topology | parts | price |\n|---|---|---|---|---|---|---|\n";
  for (const auto& s : c.systems()) {
    std::string ps;
    for (const auto& p : s.parts) {
      if (!ps.empty()) ps += ", ";
      ps += std::to_string(p.count) + " × " + p.id;
    }
    const SystemPrice sp = c.system_price(s);
    std::string pr;
    if (sp.known()) {
      pr = money(*sp.low);
      if (sp.high) pr += "–" + money(*sp.high);
      pr += sp.given ? " (given, " + sp.as_of + ")" : " (from parts)";
    } else {
      pr = "unknown: no price for ";
      for (std::size_t i = 0; i < sp.missing.size(); ++i) pr += (i ? ", " : "") + sp.missing[i];
      if (sp.priced_parts_low) {
        pr += " (the priced parts come to " + money(*sp.priced_parts_low);
        if (sp.priced_parts_high && *sp.priced_parts_high != *sp.priced_parts_low) pr += "–" + money(*sp.priced_parts_high);
        pr += ")";
      }
    }
    if (sp.given && !s.parts.empty()) {
      const SystemPrice fp = c.parts_price(s);
      if (fp.known()) {
        pr += "; from parts " + money(*fp.low);
        if (fp.high) pr += "–" + money(*fp.high);
      } else if (fp.priced_parts_low && std::none_of(fp.missing.begin(), fp.missing.end(), [](const std::string& m) {
                   return m.rfind("gpu ", 0) == 0;
                 })) {
        // Only worth showing when the GPUs are priced: they dominate the cost.
        pr += "; the parts with a price come to " + money(*fp.priced_parts_low);
        if (fp.priced_parts_high && *fp.priced_parts_high != *fp.priced_parts_low) pr += "–" + money(*fp.priced_parts_high);
        pr += " (no price for ";
        for (std::size_t i = 0; i < fp.missing.size(); ++i) pr += (i ? ", " : "") + fp.missing[i];
        pr += ")";
      }
    }
    o << "| " << s.id << " | " << cell(s.name) << " | " << s.nodes << " | " << s.gpus_per_node() << " | " << name(s.topology)
      << " | " << ps << " | " << cell(pr) << " |\n";
  }
  sources(o, c.systems());
}

void offers(std::ostream& o, const Catalog& c) {
  o << "\n## Cloud offers\n\nPrices per instance in the offer's currency; per GPU-hour = instance price / GPUs "
       "(a monthly price is divided by 730 h first). Reserved = a commitment or capacity-block rate, with the shortest term it is "
       "sold for; a run is billed at least that term, and a monthly rent whole months (docs/cost.md).\n\n"
    << "| id | provider | instance | region | GPUs | vCPUs | RAM | on-demand | spot | reserved | monthly | per GPU-hour | as of |\n"
    << "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  const auto rate = [](const std::optional<MoneyRate>& r) { return r ? format(*r, {.exact = true}) : std::string("–"); };
  for (const auto& x : c.cloud_offers()) {
    o << "| " << x.id << " | " << cell(x.provider) << " | " << cell(x.instance_type) << " | " << cell(x.region) << " | "
      << x.gpu_count << " × " << x.gpu_id << " | " << (x.vcpus > 0 ? std::to_string(x.vcpus) : "–") << " | "
      << (x.ram.value() > 0 ? format(x.ram, {.prefixes = Prefixes::binary}) : "–") << " | " << rate(x.on_demand) << " | "
      << rate(x.spot) << " | " << rate(x.reserved) << (x.reserved && x.min_term ? " (" + term_text(*x.min_term) + " term)" : std::string()) << " | "
      << (x.monthly ? money(*x.monthly) + "/month" + (x.min_term ? " (at least " + term_text(*x.min_term) + ")" : std::string()) : "–") << " | "
      << format(x.per_gpu_hour(), {.decimals = 3}) << " (" << name(x.headline()) << ") | " << x.as_of << " |\n";
  }
  o << "\nSources and notes:\n\n";
  for (const auto& x : c.cloud_offers()) {
    o << "- **" << x.id << "**: " << x.source;
    if (!x.note.empty()) o << ". " << x.note;
    o << "\n";
  }
}

void warnings(std::ostream& o, const Catalog& c) {
  const std::string today = builtin::recorded;
  o << "\n## Warnings on the built-in catalog (as of " << today << ")\n\n"
    << "From `capplan::check_catalog` (include/capplan/hardware/warnings.hpp): prices older than 365 days, tensor "
       "rates that look like 2:4-sparse figures, and cloud per-GPU-hour prices more than 3 × or less than 1/3 of the "
       "median of the same GPU's current offers (stale offers neither set the median nor are judged by it). Each "
       "warning below is real: the entry's note says why the price could not be refreshed (no newer stored copy of "
       "the vendor page, or a dated analyst estimate where no list price exists).\n\n";
  const auto ws = check_catalog(c, {.today = today});
  if (ws.empty()) o << "None.\n";
  for (const auto& w : ws) o << "- `" << name(w.kind) << "` " << w.message << "\n";
}

const char* how_to = R"(
## How to add or override entries

The built-in catalog is C++ code (`include/capplan/hardware/builtin_catalog.hpp`); nothing is read at
run time. `Catalog::builtin()` and `Catalog::make_builtin()` are defined there, beside the data, so a
program that calls them includes that header (or the umbrella `capplan/capplan.hpp`); one that only
loads its own entries includes `capplan/hardware/catalog.hpp` and does not compile the built-in data
(a call without the header is an undefined reference at link time). Without recompiling, put new entries or changed prices in a JSON file and load it
(`capplan --catalog FILE ...`, or `capplan::load_catalog_file`): the format, a price-file example
and the error messages are in [catalog-files.md](catalog-files.md). In C++, copy the catalog and add or
replace entries by id:

```cpp
#include <capplan/hardware/builtin_catalog.hpp>
using namespace capplan;
using namespace capplan::literals;

Catalog cat = Catalog::make_builtin();            // a copy you can change
GpuSpec g = cat.find_gpu("RTX 4090");             // start from an existing entry
g.street_price = PricePoint{.amount = Money("1799", Currency::USD),
                            .as_of = "2026-11-01",
                            .source = "https://example.com/price-list"};
cat.add_or_replace(g);                            // same id: replaces the entry (returns true)

GpuSpec mine{.id = "my-card", .name = "My accelerator", .aliases = {"MyCard 48G"},
             .architecture = "Ada Lovelace", .memory = 48_GB, .memory_type = "GDDR6",
             .memory_bandwidth = 864_GBps, .dense = dense_rates({.fp32 = 91.6, .bf16 = 362}),
             .tdp = 350_W, .source = "vendor datasheet URL", .as_of = "2026-11-01"};
cat.add_or_replace(mine);                         // new id: added (returns false)
```

Rules an entry must follow (`validate()` throws `capplan::InputError` naming the field and value):

- `id`: lower case letters, digits, `-`, `.`, `_`; unique within its kind. No name or alias may
  already name another entry (lookup compares names without case, spaces, dashes and underscores).
- Every figure is a typed quantity (`80_GB`, `3.35_TBps`, `700_W`); negative, NaN and absurd
  values are refused (the bounds are listed on each record's `validate()`).
- Tensor rates are **dense**. If a datasheet prints "with sparsity" (often marked `*`), store half.
  The stored FP16/BF16 rate is the FP32-accumulate one (GeForce: half the FP16-accumulate figure).
  `capplan::sparse_rate_suspects` warns about rates that look sparse.
- `source` names the datasheet or price page and `as_of` (ISO date) when the figures were taken;
  each price carries its own `as_of` and `source`. `capplan::stale_prices` warns when a price is
  older than a threshold. Write what could not be verified in `note`.
- Systems refer to parts by id (`{PartKind::gpu, "h100-sxm", 8}`) and cloud offers to a GPU id;
  `add_or_replace` refuses references to entries that do not exist.

To change the built-in catalog itself, edit `builtin_catalog.hpp` (one comment per figure citing
its source), then regenerate this page: `gen_catalog_doc --output docs/catalog.md`. The CTest test
`docs.catalog_md` fails while this page differs from the catalog. JSON files that add or override
entries are handled by the optional I/O layer (`include/capplan/io/`).
)";

std::string page() {
  const Catalog& c = Catalog::builtin();
  std::ostringstream o;
  o << "# Hardware catalog\n\n"
    << "<!-- Generated by apps/gen_catalog_doc.cpp from include/capplan/hardware/builtin_catalog.hpp. "
       "Do not edit; run `gen_catalog_doc --output docs/catalog.md`. -->\n\n"
    << "Every entry of `capplan::Catalog::builtin()` with its figures, source and date. Units are decimal "
       "(GB = 10^9 B, TB/s = 10^12 B/s) unless marked GiB. Look entries up by id or name: "
       "`Catalog::builtin().find_gpu(\"H100 SXM\")`; names ignore case, spaces, dashes and underscores.\n\n"
    << "Counts: " << c.gpus().size() << " accelerators, " << c.cpus().size() << " CPUs, " << c.memory_modules().size()
    << " memory modules, " << c.storage_devices().size() << " storage devices, " << c.power_supplies().size()
    << " power supplies, " << c.chassis().size() << " chassis, " << c.network_adapters().size() << " network adapters, "
    << c.motherboards().size() << " motherboards, "
    << c.systems().size() << " systems, " << c.cloud_offers().size() << " cloud offers.\n\n";
  gpus(o, c);
  cpus(o, c);
  parts(o, c);
  systems(o, c);
  offers(o, c);
  warnings(o, c);
  o << how_to;
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string text = page();
    if (argc == 1) {
      std::cout << text;
      return 0;
    }
    const std::string opt = argv[1];
    if (argc == 3 && opt == "--output") {
      std::ofstream f(argv[2], std::ios::binary);
      f << text;
      return f ? 0 : 2;
    }
    if (argc == 3 && opt == "--check") {
      std::ifstream f(argv[2], std::ios::binary);
      std::stringstream have;
      have << f.rdbuf();
      if (f && have.str() == text) return 0;
      std::cerr << argv[2] << " is out of date with the built-in catalog; regenerate it with\n"
                << "  gen_catalog_doc --output " << argv[2] << "\n";
      return 1;
    }
    std::cerr << "usage: gen_catalog_doc [--output FILE | --check FILE]\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "gen_catalog_doc: " << e.what() << "\n";
    return 2;
  }
}
