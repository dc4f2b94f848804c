// The hardware catalog as JSON: export the whole catalog, and load a user file that adds entries
// or overrides some fields of existing ones (a price file updates prices without recompiling).
//
//   capplan::Catalog cat = capplan::Catalog::make_builtin();
//   capplan::io::load_catalog_file(cat, "prices.json");        // adds / overrides, all or nothing
//   std::string json = capplan::io::write_catalog_json(cat);   // every entry, every field
//
// A file is an object with optional sections, each an array of entries (record_json.hpp gives
// the fields of each kind):
//   {"format": "capplan-catalog", "version": 1,
//    "gpus": [...], "cpus": [...], "memory_modules": [...], "storage_devices": [...],
//    "power_supplies": [...], "chassis": [...], "network_adapters": [...], "motherboards": [...],
//    "systems": [...],
//    "cloud_offers": [...]}
// An entry whose id is already in the catalog is a patch: the keys it gives replace those
// fields (null removes an optional one), the others stay. A new id must give every required
// field. Sections are applied parts first, then systems, then cloud offers, so a file can add a
// GPU and a cloud offer for it together. Loading is all or nothing: on any error the catalog is
// unchanged and the error (capplan::InputError; ParseError for bad JSON or bad value text;
// LookupError for a reference to an unknown id) names the file with line:column, the entry and
// the field: 'prices.json:7:9: gpu "h100-sxm": street_price.amount: "25k" is not ...'.
//
// Export then load then export gives the same text: quantities are written as text that reads
// back to the same double, money as exact decimal strings.
#pragma once

#include "capplan/hardware/catalog.hpp"
#include "capplan/io/json_document.hpp"
#include "capplan/io/record_json.hpp"

#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace capplan::io {

inline constexpr std::string_view catalog_format = "capplan-catalog";
inline constexpr int catalog_format_version = 1;

// What a load did: entries added and entries overridden, per section ("gpus": 2).
struct CatalogLoadSummary {
  std::map<std::string, int> added;
  std::map<std::string, int> replaced;
  [[nodiscard]] int total_added() const {
    int n = 0;
    for (const auto& [k, v] : added) n += v;
    return n;
  }
  [[nodiscard]] int total_replaced() const {
    int n = 0;
    for (const auto& [k, v] : replaced) n += v;
    return n;
  }
};

}  // namespace capplan::io

namespace capplan::detail {

// One section of the file: its key, the kind named in messages (as the record's validate()
// names it), and how to reach the catalog's entries.
template <class Rec>
struct Section {
  std::string_view key;
  std::string_view kind;
  const std::vector<Rec>& (Catalog::*entries)() const;
};

// The sections, in the order they are written and applied.
namespace catalog_sections {
inline constexpr Section<GpuSpec> gpus{"gpus", "gpu", &Catalog::gpus};
inline constexpr Section<CpuSpec> cpus{"cpus", "cpu", &Catalog::cpus};
inline constexpr Section<MemoryModule> memory{"memory_modules", "memory module", &Catalog::memory_modules};
inline constexpr Section<StorageDevice> storage{"storage_devices", "storage", &Catalog::storage_devices};
inline constexpr Section<PowerSupply> psus{"power_supplies", "psu", &Catalog::power_supplies};
inline constexpr Section<Chassis> chassis{"chassis", "chassis", &Catalog::chassis};
inline constexpr Section<NetworkAdapter> network{"network_adapters", "network adapter", &Catalog::network_adapters};
inline constexpr Section<Motherboard> motherboards{"motherboards", "motherboard", &Catalog::motherboards};
inline constexpr Section<SystemSpec> systems{"systems", "system", &Catalog::systems};
inline constexpr Section<CloudOffer> offers{"cloud_offers", "cloud offer", &Catalog::cloud_offers};
}  // namespace catalog_sections

// Calls f(section) for each section, in the order they are written and applied.
template <class F>
void for_each_section(F&& f) {
  using namespace catalog_sections;
  f(gpus);
  f(cpus);
  f(memory);
  f(storage);
  f(psus);
  f(chassis);
  f(network);
  f(motherboards);
  f(systems);
  f(offers);
}

template <class Rec>
void export_section(io::Json& out, const Catalog& c, const Section<Rec>& s) {
  io::Json a = io::Json::array();
  for (const Rec& e : (c.*s.entries)()) a.push_back(io::record_to_json(e));
  out[std::string(s.key)] = std::move(a);
}

template <class Rec>
void apply_section(Catalog& c, io::ObjectReader& root, const Section<Rec>& s, io::CatalogLoadSummary& summary) {
  const io::Json* arr = root.find(s.key);
  if (!arr) return;
  if (!arr->is_array()) root.type_error(s.key, *arr, "an array of entries [{...}, ...]");
  const io::JsonDocument& doc = root.document();
  std::map<std::string, std::size_t> seen;  // id -> index in this section
  for (std::size_t i = 0; i < arr->size(); ++i) {
    const std::string pointer = root.key_pointer(s.key) + "/" + std::to_string(i);
    io::ObjectReader r(doc, (*arr)[i], pointer, std::string(s.key) + "[" + std::to_string(i) + "]");
    const std::string id = r.string("id");
    r.set_entry(std::string(s.kind) + " " + detail::quote_text(id));
    if (auto [it, fresh] = seen.emplace(id, i); !fresh) {
      r.fail("id", detail::quote_text(id),
             "is a duplicate id: " + std::string(s.key) + "[" + std::to_string(it->second) +
                 "] in this file has the same id (" + doc.where(root.key_pointer(s.key) + "/" +
                                                                 std::to_string(it->second)) + ")");
    }
    const Rec* base = nullptr;
    for (const Rec& e : (c.*s.entries)()) {
      if (e.id == id) base = &e;
    }
    Rec rec = read_record<Rec>(r, base);
    bool replaced = false;
    try {
      replaced = c.add_or_replace(std::move(rec));
    } catch (const InputError& e) {
      r.rethrow(e);
    } catch (const std::overflow_error& e) {
      r.fail_entry(std::string("an amount is out of the range of exact arithmetic (") + e.what() + ")");
    }
    ++(replaced ? summary.replaced : summary.added)[std::string(s.key)];
  }
}

}  // namespace capplan::detail

namespace capplan::io {

// The whole catalog: {"format", "version", "gpus": [...], ...}, every field of every entry.
inline Json catalog_to_json(const Catalog& c) {
  Json j = Json::object();
  j["format"] = std::string(catalog_format);
  j["version"] = catalog_format_version;
  detail::for_each_section([&](const auto& s) { detail::export_section(j, c, s); });
  return j;
}

inline std::string write_catalog_json(const Catalog& c, int indent = 2) { return catalog_to_json(c).dump(indent) + "\n"; }

inline void save_catalog_file(const Catalog& c, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  out << write_catalog_json(c);
  if (!out) throw InputError("file", path, path + ": cannot write the file");
}

// Adds the document's entries to `catalog` and overrides fields of the entries it names; all or
// nothing (on error `catalog` is unchanged).
inline CatalogLoadSummary apply_catalog_json(Catalog& catalog, const JsonDocument& doc) {
  ObjectReader root(doc, doc.root(), "", "catalog");
  if (auto f = root.string_opt("format"); f && *f != catalog_format) {
    root.fail("format", detail::quote_text(*f), "is not \"capplan-catalog\"");
  }
  if (auto v = root.integer_opt("version", {0, 1'000'000}); v && *v != catalog_format_version) {
    root.fail("version", std::to_string(*v), "is not a version this capplan reads (1)");
  }
  detail::for_each_section([&](const auto& s) { root.allow(s.key); });
  root.finish();  // an unknown section is an error before anything is applied
  Catalog work = catalog;
  CatalogLoadSummary summary;
  detail::for_each_section(
      [&](const auto& s) { detail::apply_section(work, root, s, summary); });
  catalog = std::move(work);
  return summary;
}

inline CatalogLoadSummary apply_catalog_json(Catalog& catalog, std::string text, std::string file = "<string>") {
  return apply_catalog_json(catalog, JsonDocument::parse(std::move(text), std::move(file)));
}

inline CatalogLoadSummary load_catalog_file(Catalog& catalog, const std::string& path) {
  return apply_catalog_json(catalog, JsonDocument::load(path));
}

// A catalog made of the file's entries only (every entry must be complete).
inline Catalog read_catalog_json(std::string text, std::string file = "<string>") {
  Catalog c;
  apply_catalog_json(c, std::move(text), std::move(file));
  return c;
}

}  // namespace capplan::io
