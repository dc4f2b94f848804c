// Catalog: every hardware record capplan knows, looked up by id or human name.
//
//   const auto& cat = capplan::Catalog::builtin();
//   cat.find_gpu("H100 SXM"); cat.find_gpu("rtx4090"); cat.find_gpu("A100 80GB PCIe");
//
// Names match when they are equal after normalization: lower case, with spaces, dashes and
// underscores removed ("RTX-4090" == "rtx 4090" == "rtx4090"). Each entry answers to its id,
// its name and its aliases. A name that matches no entry, or that is part of several entries'
// names without naming one ("H100"), throws LookupError listing the closest entries (by edit
// distance on the normalized names). A copy of the built-in catalog can be extended or
// overridden with add_or_replace (entries are validated; ids stay unique).
#pragma once

#include "capplan/detail/text.hpp"
#include "capplan/error.hpp"
#include "capplan/hardware/chassis.hpp"
#include "capplan/hardware/cloud.hpp"
#include "capplan/hardware/cpu.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/hardware/memory_module.hpp"
#include "capplan/hardware/motherboard.hpp"
#include "capplan/hardware/network_adapter.hpp"
#include "capplan/hardware/psu.hpp"
#include "capplan/hardware/storage.hpp"
#include "capplan/hardware/system.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capplan {

// Lower case, without spaces, dashes and underscores: the form names are compared in.
inline std::string normalize_name(std::string_view s) { return detail::name_key(s, " \t-_"); }

// Levenshtein distance (detail/text.hpp), for the closest-match suggestions.
using detail::edit_distance;

namespace detail {

template <class T>
std::vector<std::string> names_of(const T& e) {
  std::vector<std::string> k{e.id, e.name};
  k.insert(k.end(), e.aliases.begin(), e.aliases.end());
  return k;
}
inline std::vector<std::string> names_of(const CloudOffer& e) {
  return {e.id, e.instance_type, e.provider + " " + e.instance_type};
}

template <class T>
std::string display_name(const T& e) {
  return e.name;
}
inline std::string display_name(const CloudOffer& e) { return e.provider + " " + e.instance_type; }

// The lookup itself, written once for every record type (one copy of the code in every
// translation unit, not one per type): entry i is named by names(ctx, i) and shown as
// label(ctx, i). Returns the index of the one entry the query names, or throws LookupError.
struct FindEntries {
  std::size_t size;
  const void* ctx;
  std::vector<std::string> (*names)(const void*, std::size_t);
  std::string (*label)(const void*, std::size_t);
};
inline std::size_t find_index(const FindEntries& entries, std::string_view query, std::string_view kind) {
  const std::string q = normalize_name(query);
  const std::string shown = "\"" + std::string(query) + "\"";
  if (q.empty()) detail::fail(kind, shown, "is empty; name a catalog entry");
  std::vector<std::size_t> exact, partial;
  std::vector<std::pair<std::size_t, std::size_t>> ranked;
  for (std::size_t i = 0; i < entries.size; ++i) {
    bool is_exact = false, is_partial = false;
    std::size_t best = static_cast<std::size_t>(-1);
    for (const std::string& n : entries.names(entries.ctx, i)) {
      const std::string k = normalize_name(n);
      if (k.empty()) continue;
      if (k == q) is_exact = true;
      if (k.find(q) != std::string::npos) is_partial = true;
      best = std::min(best, edit_distance(q, k));
    }
    if (is_exact) exact.push_back(i);
    if (is_partial) partial.push_back(i);
    ranked.emplace_back(is_partial ? 0 : best, i);
  }
  if (exact.size() == 1) return exact.front();
  std::string list;
  const auto add = [&](std::size_t i) {
    if (!list.empty()) list += ", ";
    list += entries.label(entries.ctx, i);
  };
  if (exact.size() > 1) {
    for (std::size_t i : exact) add(i);
    throw LookupError(std::string(kind), shown,
                      std::string(kind) + ": " + shown + " is ambiguous; it names " + list + ". Use an id.");
  }
  if (partial.size() > 1) {
    for (std::size_t i : partial) add(i);
    throw LookupError(std::string(kind), shown,
                      std::string(kind) + ": " + shown + " is ambiguous; it is part of the names of " + list +
                          ". Name one of them.");
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < ranked.size() && i < 5; ++i) add(ranked[i].second);
  throw LookupError(std::string(kind), shown,
                    std::string(kind) + ": " + shown + " is not in the catalog; closest: " + list + ".");
}

template <class T>
const T& find(const std::vector<T>& entries, std::string_view query, std::string_view kind) {
  const FindEntries view{
      entries.size(), &entries,
      [](const void* c, std::size_t i) { return names_of((*static_cast<const std::vector<T>*>(c))[i]); },
      [](const void* c, std::size_t i) {
        const T& e = (*static_cast<const std::vector<T>*>(c))[i];
        return e.id + " (" + display_name(e) + ")";
      }};
  return entries[find_index(view, query, kind)];
}

template <class T>
bool add_or_replace(std::vector<T>& entries, T entry, std::string_view kind) {
  entry.validate();
  // The new entry's names must not name a different entry.
  for (const std::string& n : names_of(entry)) {
    const std::string k = normalize_name(n);
    if (k.empty()) continue;
    for (const T& other : entries) {
      if (other.id == entry.id) continue;
      for (const std::string& on : names_of(other)) {
        if (normalize_name(on) == k) {
          detail::fail("aliases", "\"" + n + "\"",
                       "already names " + std::string(kind) + " \"" + other.id + "\"; names must be unique (" +
                           std::string(kind) + " \"" + entry.id + "\")");
        }
      }
    }
  }
  for (T& e : entries) {
    if (e.id == entry.id) {
      e = std::move(entry);
      return true;
    }
  }
  entries.push_back(std::move(entry));
  return false;
}

}  // namespace detail

// The price of a system: given by its source, or the sum of its parts (× nodes).
struct SystemPrice {
  std::optional<Money> low;           // absent when not derivable (see missing)
  std::optional<Money> high;          // upper end when the price or a part's price is a range
  bool given = false;                 // true: the system's own price; false: derived from parts
  std::vector<std::string> missing;   // parts without a price ("memory ddr5-5600-udimm-32gb")
  std::string as_of;                  // given: the price's date; derived: the oldest part price's date
  // Derived prices only: nodes × Σ count × price over the parts that HAVE a price, whether or
  // not some are missing. A lower bound when `missing` is not empty, never the system's price.
  std::optional<Money> priced_parts_low;
  std::optional<Money> priced_parts_high;
  [[nodiscard]] bool known() const { return low.has_value(); }
};

class Catalog {
 public:
  Catalog() = default;

  // The built-in catalog, built once, and a fresh copy of it to extend or override. Both are defined
  // in capplan/hardware/builtin_catalog.hpp with the built-in data, so that a user of Catalog who
  // loads its own entries does not compile that data: include builtin_catalog.hpp (or the umbrella
  // capplan/capplan.hpp) to call them.
  static const Catalog& builtin();
  static Catalog make_builtin();

  [[nodiscard]] const std::vector<GpuSpec>& gpus() const noexcept { return gpus_; }
  [[nodiscard]] const std::vector<CpuSpec>& cpus() const noexcept { return cpus_; }
  [[nodiscard]] const std::vector<MemoryModule>& memory_modules() const noexcept { return memory_; }
  [[nodiscard]] const std::vector<StorageDevice>& storage_devices() const noexcept { return storage_; }
  [[nodiscard]] const std::vector<PowerSupply>& power_supplies() const noexcept { return psus_; }
  [[nodiscard]] const std::vector<Chassis>& chassis() const noexcept { return chassis_; }
  [[nodiscard]] const std::vector<NetworkAdapter>& network_adapters() const noexcept { return network_; }
  [[nodiscard]] const std::vector<Motherboard>& motherboards() const noexcept { return boards_; }
  [[nodiscard]] const std::vector<SystemSpec>& systems() const noexcept { return systems_; }
  [[nodiscard]] const std::vector<CloudOffer>& cloud_offers() const noexcept { return offers_; }

  // Lookups by id, name or alias; LookupError (an InputError) when unknown or ambiguous.
  [[nodiscard]] const GpuSpec& find_gpu(std::string_view n) const { return detail::find(gpus_, n, "gpu"); }
  [[nodiscard]] const CpuSpec& find_cpu(std::string_view n) const { return detail::find(cpus_, n, "cpu"); }
  [[nodiscard]] const MemoryModule& find_memory_module(std::string_view n) const {
    return detail::find(memory_, n, "memory");
  }
  [[nodiscard]] const StorageDevice& find_storage(std::string_view n) const {
    return detail::find(storage_, n, "storage");
  }
  [[nodiscard]] const PowerSupply& find_psu(std::string_view n) const { return detail::find(psus_, n, "psu"); }
  [[nodiscard]] const Chassis& find_chassis(std::string_view n) const {
    return detail::find(chassis_, n, "chassis");
  }
  [[nodiscard]] const NetworkAdapter& find_network_adapter(std::string_view n) const {
    return detail::find(network_, n, "network");
  }
  [[nodiscard]] const Motherboard& find_motherboard(std::string_view n) const {
    return detail::find(boards_, n, "motherboard");
  }
  [[nodiscard]] const SystemSpec& find_system(std::string_view n) const {
    return detail::find(systems_, n, "system");
  }
  [[nodiscard]] const CloudOffer& find_offer(std::string_view n) const {
    return detail::find(offers_, n, "cloud offer");
  }

  // The cloud offers whose GPU is `gpu` (a name lookup, so "H100 SXM" works).
  [[nodiscard]] std::vector<const CloudOffer*> offers_for_gpu(std::string_view gpu) const {
    const std::string id = find_gpu(gpu).id;
    std::vector<const CloudOffer*> out;
    for (const auto& o : offers_) {
      if (o.gpu_id == id) out.push_back(&o);
    }
    return out;
  }

  // Adds an entry, or replaces the entry with the same id; returns true when it replaced one.
  // The entry is validated first (InputError naming the field), and none of its names may
  // already name another entry. Systems and offers must refer to entries that exist.
  bool add_or_replace(GpuSpec e) { return detail::add_or_replace(gpus_, std::move(e), "gpu"); }
  bool add_or_replace(CpuSpec e) { return detail::add_or_replace(cpus_, std::move(e), "cpu"); }
  bool add_or_replace(MemoryModule e) { return detail::add_or_replace(memory_, std::move(e), "memory"); }
  bool add_or_replace(StorageDevice e) { return detail::add_or_replace(storage_, std::move(e), "storage"); }
  bool add_or_replace(PowerSupply e) { return detail::add_or_replace(psus_, std::move(e), "psu"); }
  bool add_or_replace(Chassis e) { return detail::add_or_replace(chassis_, std::move(e), "chassis"); }
  bool add_or_replace(NetworkAdapter e) { return detail::add_or_replace(network_, std::move(e), "network"); }
  bool add_or_replace(Motherboard e) { return detail::add_or_replace(boards_, std::move(e), "motherboard"); }
  bool add_or_replace(SystemSpec e) {
    check_references(e);
    return detail::add_or_replace(systems_, std::move(e), "system");
  }
  bool add_or_replace(CloudOffer e) {
    e.validate();
    require_id(gpus_, e.gpu_id, "gpu_id", "cloud offer \"" + e.id + "\"");
    return detail::add_or_replace(offers_, std::move(e), "cloud offer");
  }

  // The part a system refers to, by kind and id; LookupError if absent.
  [[nodiscard]] std::optional<PricePoint> part_price(PartKind kind, const std::string& id) const {
    switch (kind) {
      case PartKind::gpu: return best(get(gpus_, id, "gpu"));
      case PartKind::cpu: return best(get(cpus_, id, "cpu"));
      case PartKind::memory: return get(memory_, id, "memory").street_price;
      case PartKind::storage: return best(get(storage_, id, "storage"));
      case PartKind::psu: return best(get(psus_, id, "psu"));
      case PartKind::chassis: return get(chassis_, id, "chassis").street_price;
      case PartKind::network: return get(network_, id, "network").street_price;
      case PartKind::motherboard: return best(get(boards_, id, "motherboard"));
    }
    return std::nullopt;
  }

  // The system's price: its own when given; otherwise parts_price(s).
  [[nodiscard]] SystemPrice system_price(const SystemSpec& s) const {
    if (!s.price) return parts_price(s);
    SystemPrice p;
    p.low = s.price->amount;
    p.high = s.price->high;
    p.given = true;
    p.as_of = s.price->as_of;
    return p;
  }

  // The price derived from the parts, even when the system has a price of its own (to check one
  // against the other): nodes × Σ count × part price, where a part's price is its street price,
  // else its launch price. Unknown when any part has none (`missing` lists them; the
  // priced_parts_* fields still sum the parts that have one). A part with a price range adds its
  // range. Parts in different currencies throw CurrencyError.
  [[nodiscard]] SystemPrice parts_price(const SystemSpec& s) const {
    SystemPrice p;
    std::optional<Money> low, high;
    bool ranged = false;
    for (const auto& part : s.parts) {
      const auto pp = part_price(part.kind, part.id);
      if (!pp) {
        p.missing.push_back(std::string(name(part.kind)) + " " + part.id);
        continue;
      }
      const Money l = pp->amount * part.count;
      const Money h = pp->high.value_or(pp->amount) * part.count;
      ranged = ranged || pp->high.has_value();
      low = low ? *low + l : l;
      high = high ? *high + h : h;
      if (p.as_of.empty() || pp->as_of < p.as_of) p.as_of = pp->as_of;
    }
    if (low) {
      p.priced_parts_low = *low * s.nodes;
      p.priced_parts_high = *high * s.nodes;
    }
    if (!p.missing.empty() || !low) {
      p.as_of.clear();
      return p;
    }
    p.low = *low * s.nodes;
    if (ranged) p.high = *high * s.nodes;
    return p;
  }

  // Validates every entry, that ids and names are unique within each kind, and that systems
  // and offers refer to entries that exist. Throws InputError / LookupError.
  void validate() const {
    check_all(gpus_, "gpu");
    check_all(cpus_, "cpu");
    check_all(memory_, "memory");
    check_all(storage_, "storage");
    check_all(psus_, "psu");
    check_all(chassis_, "chassis");
    check_all(network_, "network");
    check_all(boards_, "motherboard");
    check_all(systems_, "system");
    check_all(offers_, "cloud offer");
    for (const auto& s : systems_) check_references(s);
    for (const auto& o : offers_) require_id(gpus_, o.gpu_id, "gpu_id", "cloud offer \"" + o.id + "\"");
  }

 private:
  template <class T>
  static const T& get(const std::vector<T>& v, const std::string& id, std::string_view kind) {
    for (const T& e : v) {
      if (e.id == id) return e;
    }
    return detail::find(v, id, kind);  // throws LookupError with suggestions
  }
  template <class T>
  static std::optional<PricePoint> best(const T& e) {
    return e.street_price ? e.street_price : e.launch_price;
  }
  template <class T>
  static void require_id(const std::vector<T>& v, const std::string& id, std::string_view field, const std::string& who) {
    for (const T& e : v) {
      if (e.id == id) return;
    }
    throw LookupError(std::string(field), "\"" + id + "\"",
                      std::string(field) + ": \"" + id + "\" (" + who + ") is not a catalog id");
  }
  void check_references(const SystemSpec& s) const {
    s.validate();
    for (const auto& part : s.parts) {
      const std::string who = "system \"" + s.id + "\"";
      switch (part.kind) {
        case PartKind::gpu: {
          require_id(gpus_, part.id, "parts.id", who);
          // A system-on-chip is a box of its own (no PCIe or GPU link to a second one): one a node.
          for (const GpuSpec& g : gpus_) {
            if (g.id == part.id && g.form_factor == FormFactor::soc && part.count > 1)
              throw InputError("parts.count", std::to_string(part.count),
                               "parts.count: " + std::to_string(part.count) + " x \"" + g.id + "\" in one node of " + who +
                                   ": a system-on-chip is a box of its own; give nodes instead");
          }
          break;
        }
        case PartKind::cpu: require_id(cpus_, part.id, "parts.id", who); break;
        case PartKind::memory: require_id(memory_, part.id, "parts.id", who); break;
        case PartKind::storage: require_id(storage_, part.id, "parts.id", who); break;
        case PartKind::psu: require_id(psus_, part.id, "parts.id", who); break;
        case PartKind::chassis: require_id(chassis_, part.id, "parts.id", who); break;
        case PartKind::network: require_id(network_, part.id, "parts.id", who); break;
        case PartKind::motherboard: require_id(boards_, part.id, "parts.id", who); break;
      }
    }
  }
  template <class T>
  static void check_all(const std::vector<T>& v, std::string_view kind) {
    std::vector<std::pair<std::string, std::string>> seen;  // normalized name, id
    for (const T& e : v) {
      e.validate();
      for (const std::string& n : detail::names_of(e)) {
        const std::string k = normalize_name(n);
        if (k.empty()) continue;
        for (const auto& [sk, sid] : seen) {
          if (sk == k && sid != e.id) {
            detail::fail("id", "\"" + n + "\"",
                         "names both " + std::string(kind) + " \"" + sid + "\" and \"" + e.id + "\"");
          }
          if (sk == k && sid == e.id && n == e.id) {
            detail::fail("id", "\"" + e.id + "\"", "is used by two " + std::string(kind) + " entries");
          }
        }
      }
      for (const std::string& n : detail::names_of(e)) seen.emplace_back(normalize_name(n), e.id);
    }
  }

  std::vector<GpuSpec> gpus_;
  std::vector<CpuSpec> cpus_;
  std::vector<MemoryModule> memory_;
  std::vector<StorageDevice> storage_;
  std::vector<PowerSupply> psus_;
  std::vector<Chassis> chassis_;
  std::vector<NetworkAdapter> network_;
  std::vector<Motherboard> boards_;
  std::vector<SystemSpec> systems_;
  std::vector<CloudOffer> offers_;
};

}  // namespace capplan
