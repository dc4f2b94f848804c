// JSON form of each hardware record (GpuSpec, CpuSpec, MemoryModule, StorageDevice, PowerSupply,
// Chassis, NetworkAdapter, SystemSpec, CloudOffer), one field table per record used both to
// write and to read, so the two directions cannot disagree.
//
//   Json j = io::record_to_json(gpu);               // every field; quantities as "80 GB"
//   GpuSpec g = io::read_record<GpuSpec>(reader);    // checks types, units, then g.validate()
//   GpuSpec p = io::read_record(reader, &existing);  // a patch: absent keys keep existing values
//
// Conventions (docs/catalog-files.md): keys are the record's member names; quantities are text
// with a unit ("80 GB", "3.35 TB/s", "989 TFLOP/s", "700 W") or a number in the canonical unit
// (B, B/s, FLOP/s, W); money is a decimal string ("2.49") with a currency, never a binary
// floating-point number; enumerations are their C++ enumerator names ("sxm", "nvme_gen4");
// dates are "YYYY-MM-DD"; null removes an optional value.
#pragma once

#include "capplan/hardware/chassis.hpp"
#include "capplan/hardware/cloud.hpp"
#include "capplan/hardware/cpu.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/hardware/memory_module.hpp"
#include "capplan/hardware/network_adapter.hpp"
#include "capplan/hardware/price_point.hpp"
#include "capplan/hardware/psu.hpp"
#include "capplan/hardware/storage.hpp"
#include "capplan/hardware/system.hpp"
#include "capplan/io/json_document.hpp"
#include "capplan/money/format.hpp"

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capplan::io {

// ---------------------------------------------------------------------------------------------
// Enumerations by name.

// Each enumeration's JSON names, one switch per enumeration without a default: a new enumerator
// without a name here is a compile error (-Wswitch, part of -Wall, with -Werror).
inline constexpr std::string_view json_name(Vendor e) {
  switch (e) {
    case Vendor::nvidia: return "nvidia";
    case Vendor::amd: return "amd";
    case Vendor::intel: return "intel";
    case Vendor::apple: return "apple";
    case Vendor::google: return "google";
    case Vendor::other: return "other";
  }
  return {};
}
inline constexpr std::string_view json_name(FormFactor e) {
  switch (e) {
    case FormFactor::sxm: return "sxm";
    case FormFactor::oam: return "oam";
    case FormFactor::pcie: return "pcie";
    case FormFactor::consumer: return "consumer";
    case FormFactor::soc: return "soc";
  }
  return {};
}
inline constexpr std::string_view json_name(StorageKind e) {
  switch (e) {
    case StorageKind::nvme_gen4: return "nvme_gen4";
    case StorageKind::nvme_gen5: return "nvme_gen5";
    case StorageKind::sata_ssd: return "sata_ssd";
    case StorageKind::hdd: return "hdd";
  }
  return {};
}
inline constexpr std::string_view json_name(DramType e) {
  switch (e) {
    case DramType::ddr4: return "ddr4";
    case DramType::ddr5: return "ddr5";
  }
  return {};
}
inline constexpr std::string_view json_name(EightyPlusTier e) {
  switch (e) {
    case EightyPlusTier::none: return "none";
    case EightyPlusTier::standard: return "standard";
    case EightyPlusTier::bronze: return "bronze";
    case EightyPlusTier::silver: return "silver";
    case EightyPlusTier::gold: return "gold";
    case EightyPlusTier::platinum: return "platinum";
    case EightyPlusTier::titanium: return "titanium";
  }
  return {};
}
inline constexpr std::string_view json_name(PsuInput e) {
  switch (e) {
    case PsuInput::v115_internal: return "v115_internal";
    case PsuInput::v230_eu_internal: return "v230_eu_internal";
    case PsuInput::v230_internal_redundant: return "v230_internal_redundant";
  }
  return {};
}
inline constexpr std::string_view json_name(LinkProtocol e) {
  switch (e) {
    case LinkProtocol::infiniband: return "infiniband";
    case LinkProtocol::ethernet: return "ethernet";
    case LinkProtocol::infiniband_or_ethernet: return "infiniband_or_ethernet";
  }
  return {};
}
inline constexpr std::string_view json_name(Topology e) {
  switch (e) {
    case Topology::single_gpu: return "single_gpu";
    case Topology::nvswitch: return "nvswitch";
    case Topology::nvlink_direct: return "nvlink_direct";
    case Topology::nvlink_bridge: return "nvlink_bridge";
    case Topology::pcie_switch: return "pcie_switch";
    case Topology::pcie_no_p2p: return "pcie_no_p2p";
  }
  return {};
}
inline constexpr std::string_view json_name(PartKind e) {
  switch (e) {
    case PartKind::gpu: return "gpu";
    case PartKind::cpu: return "cpu";
    case PartKind::memory: return "memory";
    case PartKind::storage: return "storage";
    case PartKind::psu: return "psu";
    case PartKind::chassis: return "chassis";
    case PartKind::network: return "network";
  }
  return {};
}

// Every (name, enumerator) of E, in declaration order (the enumerators are 0, 1, 2, ...).
template <class E>
const std::vector<std::pair<std::string_view, E>>& enum_names() {
  static const std::vector<std::pair<std::string_view, E>> all = [] {
    std::vector<std::pair<std::string_view, E>> v;
    for (int i = 0; i < 64; ++i) {
      const auto e = static_cast<E>(i);
      if (auto n = json_name(e); !n.empty()) v.emplace_back(n, e);
    }
    return v;
  }();
  return all;
}

// The JSON name of an enumerator (throws std::logic_error for a value that is no enumerator).
template <class E>
std::string_view enum_name(E e) {
  const std::string_view n = json_name(e);
  if (n.empty()) throw std::logic_error("capplan::io: an enumeration value has no JSON name");
  return n;
}

// ---------------------------------------------------------------------------------------------
// Money: a decimal string with a currency; an integer JSON number is exact too. Text with its
// own currency ("$1,599", "2.49 USD/h") is accepted when it agrees with the currency given.

namespace record_detail {

inline std::optional<Decimal> plain_decimal(const std::string& s) {
  try {
    return Decimal::parse(s, "amount");
  } catch (const InputError&) {
    return std::nullopt;
  }
}

// Reads the amount at `key`: a plain decimal (in `currency`, which must be known), an integer,
// or money text (checked against `currency` when given). Rate: text may carry a period
// ("/h", "/month"), converted to per hour.
template <class M>
std::optional<M> money_opt(ObjectReader& r, std::string_view key, std::optional<Currency> currency) {
  const Json* v = r.find(key);
  if (!v) return std::nullopt;
  auto need_currency = [&](const std::string& shown) -> Currency {
    if (!currency) {
      r.fail(key, shown, "has no currency; add \"currency\": \"USD\" or write the amount as \"" +
                             (shown.size() > 2 ? shown.substr(1, shown.size() - 2) : shown) + " USD\"");
    }
    return *currency;
  };
  if (v->is_number_integer() || v->is_number_unsigned()) {
    if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
      r.fail(key, v->dump(), "is out of the range of exact money");
    }
    return M(Decimal(v->get<std::int64_t>()), need_currency(v->dump()));
  }
  if (v->is_number_float()) {
    r.fail(key, v->dump(),
           "is a JSON number with a fraction; write money as a decimal string such as \"2.49\" so that it stays exact");
  }
  if (!v->is_string()) r.type_error(key, *v, "an amount of money as a decimal string such as \"2.49\"");
  const std::string& s = v->get_ref<const std::string&>();
  if (auto d = plain_decimal(s)) return M(*d, need_currency(io_detail::quote_text(s)));
  if (s.find_first_of("0123456789") == std::string::npos) {
    r.fail(key, io_detail::quote_text(s), "is not an amount of money; write a decimal string such as \"2.49\"");
  }
  M m;
  try {
    if constexpr (std::is_same_v<M, MoneyRate>) m = parse_money_rate(s, key);
    else m = parse_money(s, key);
  } catch (const InputError& e) {
    r.rethrow(e, key);
  }
  if (currency && m.currency() != *currency) {
    r.fail(key, io_detail::quote_text(s),
           "is in " + std::string(code(m.currency())) + " but the entry's currency is " + std::string(code(*currency)));
  }
  return m;
}

inline std::optional<Currency> currency_opt(ObjectReader& r, std::string_view key) {
  auto s = r.string_opt(key);
  if (!s) return std::nullopt;
  try {
    return parse_currency(*s, key);
  } catch (const InputError& e) {
    r.rethrow(e, key);
  }
}

}  // namespace record_detail

inline Json price_to_json(const PricePoint& p) {
  Json j = Json::object();
  j["amount"] = p.amount.amount().to_string();
  j["currency"] = std::string(code(p.amount.currency()));
  if (p.high) j["high"] = p.high->amount().to_string();
  j["as_of"] = p.as_of;
  j["source"] = p.source;
  return j;
}

// A price object {amount, currency, high?, as_of, source} at `key`; `prefix` names it in messages.
inline PricePoint read_price(const ObjectReader& parent, const Json& object, std::string_view key) {
  ObjectReader r(parent.document(), object, parent.key_pointer(key), parent.entry(), parent.field_name(key) + ".");
  PricePoint p;
  auto currency = record_detail::currency_opt(r, "currency");
  auto amount = record_detail::money_opt<Money>(r, "amount", currency);
  if (!amount) r.missing("amount", "a decimal string such as \"1599.00\"");
  p.amount = *amount;
  if (auto high = record_detail::money_opt<Money>(r, "high", p.amount.currency())) p.high = *high;
  p.as_of = r.string("as_of");
  p.source = r.string("source");
  r.finish();
  try {
    p.validate(parent.field_name(key));
  } catch (const InputError& e) {
    r.rethrow(e);
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Field tables.

template <class Rec>
struct FieldCodec {
  std::string_view key;
  bool required = false;
  std::string_view what;  // for "is missing (...)"
  std::function<void(Json&, const Rec&)> write;
  std::function<void(ObjectReader&, Rec&)> read;  // sets the member when the key is present
};

namespace record_detail {

inline constexpr IntRange count{0, std::numeric_limits<std::int32_t>::max()};

template <class Rec>
FieldCodec<Rec> text(std::string_view key, std::string Rec::*m, bool required = false) {
  return {key, required, "a string",
          [=](Json& j, const Rec& r) { j[std::string(key)] = r.*m; },
          [=](ObjectReader& r, Rec& rec) {
            if (auto s = r.string_opt(key, required)) rec.*m = *s;
            else if (r.is_null(key)) rec.*m = std::string();
          }};
}

template <class Rec>
FieldCodec<Rec> strings(std::string_view key, std::vector<std::string> Rec::*m) {
  return {key, false, "an array of strings",
          [=](Json& j, const Rec& r) { j[std::string(key)] = r.*m; },
          [=](ObjectReader& r, Rec& rec) {
            if (r.has(key) || r.is_null(key)) rec.*m = r.strings_or_empty(key);
          }};
}

template <class Rec>
FieldCodec<Rec> integer(std::string_view key, int Rec::*m, bool required = false) {
  return {key, required, "a whole number",
          [=](Json& j, const Rec& r) { j[std::string(key)] = r.*m; },
          [=](ObjectReader& r, Rec& rec) {
            if (auto n = r.integer_opt(key, count)) rec.*m = static_cast<int>(*n);
          }};
}

template <class Rec>
FieldCodec<Rec> boolean(std::string_view key, bool Rec::*m) {
  return {key, false, "true or false",
          [=](Json& j, const Rec& r) { j[std::string(key)] = r.*m; },
          [=](ObjectReader& r, Rec& rec) {
            if (auto b = r.boolean_opt(key)) rec.*m = *b;
          }};
}

template <class Rec, class E>
FieldCodec<Rec> enumeration(std::string_view key, E Rec::*m, bool required = false) {
  return {key, required, "a name",
          [=](Json& j, const Rec& r) { j[std::string(key)] = std::string(enum_name(r.*m)); },
          [=](ObjectReader& r, Rec& rec) {
            if (auto e = r.enumeration_opt<E>(key, enum_names<E>())) rec.*m = *e;
          }};
}

template <class Rec, class Q>
FieldCodec<Rec> quantity(std::string_view key, Q Rec::*m, bool required = false) {
  return {key, required, "a quantity with a unit",
          [=](Json& j, const Rec& r) { j[std::string(key)] = quantity_json(r.*m); },
          [=](ObjectReader& r, Rec& rec) {
            if (auto q = r.quantity_opt<Q>(key)) rec.*m = *q;
          }};
}

template <class Rec, class Q>
FieldCodec<Rec> optional_quantity(std::string_view key, std::optional<Q> Rec::*m) {
  return {key, false, "a quantity with a unit",
          [=](Json& j, const Rec& r) {
            if (r.*m) j[std::string(key)] = quantity_json(*(r.*m));
          },
          [=](ObjectReader& r, Rec& rec) {
            if (auto q = r.quantity_opt<Q>(key)) rec.*m = *q;
            else if (r.is_null(key)) (rec.*m).reset();
          }};
}

template <class Rec>
FieldCodec<Rec> price(std::string_view key, std::optional<PricePoint> Rec::*m) {
  return {key, false, "a price",
          [=](Json& j, const Rec& r) {
            if (r.*m) j[std::string(key)] = price_to_json(*(r.*m));
          },
          [=](ObjectReader& r, Rec& rec) {
            if (const Json* v = r.find(key)) rec.*m = read_price(r, *v, key);
            else if (r.is_null(key)) (rec.*m).reset();
          }};
}

template <class Rec, class M>
FieldCodec<Rec> offer_money(std::string_view key, std::optional<M> Rec::*m) {
  return {key, false, "a decimal string",
          [=](Json& j, const Rec& r) {
            if (r.*m) j[std::string(key)] = (r.*m)->amount().to_string();
          },
          [=](ObjectReader& r, Rec& rec) {
            if (auto v = money_opt<M>(r, key, rec.currency)) rec.*m = *v;
            else if (r.is_null(key)) (rec.*m).reset();
          }};
}

// The fields every record ends with.
template <class Rec>
void add_provenance(std::vector<FieldCodec<Rec>>& f) {
  f.push_back(text("source", &Rec::source, true));
  f.push_back(text("as_of", &Rec::as_of, true));
  f.push_back(text("note", &Rec::note));
}

inline FieldCodec<GpuSpec> dense_rates_field() {
  return {"dense", false, "dense peak rates",
          [](Json& j, const GpuSpec& g) {
            Json d = Json::object();
            for (Precision p : all_precisions) {
              if (auto rate = g.dense.at(p)) d[std::string(name(p))] = quantity_json(*rate);
            }
            j["dense"] = std::move(d);
          },
          [](ObjectReader& r, GpuSpec& g) {
            const Json* v = r.find("dense");
            if (!v) {
              if (r.is_null("dense")) g.dense = PeakRates{};
              return;
            }
            ObjectReader d(r.document(), *v, r.key_pointer("dense"), r.entry(), "dense.");
            for (Precision p : all_precisions) {
              const std::string_view k = name(p);
              if (auto q = d.quantity_opt<FlopRate>(k)) g.dense.set(p, *q);
              else if (d.is_null(k)) g.dense.clear(p);
            }
            d.finish();
          }};
}

inline FieldCodec<SystemSpec> parts_field() {
  return {"parts", true, "an array of {kind, id, count}",
          [](Json& j, const SystemSpec& s) {
            Json a = Json::array();
            for (const auto& p : s.parts) {
              Json o = Json::object();
              o["kind"] = std::string(enum_name(p.kind));
              o["id"] = p.id;
              o["count"] = p.count;
              a.push_back(std::move(o));
            }
            j["parts"] = std::move(a);
          },
          [](ObjectReader& r, SystemSpec& s) {
            const Json* v = r.find("parts");
            if (!v) return;
            if (!v->is_array()) r.type_error("parts", *v, "an array of {\"kind\", \"id\", \"count\"} objects");
            s.parts.clear();
            for (std::size_t i = 0; i < v->size(); ++i) {
              const std::string k = "parts[" + std::to_string(i) + "]";
              ObjectReader p(r.document(), (*v)[i], r.key_pointer("parts") + "/" + std::to_string(i), r.entry(), k + ".");
              SystemPart part;
              auto kind = p.enumeration_opt<PartKind>("kind", enum_names<PartKind>());
              if (!kind) p.missing("kind", "gpu, cpu, memory, storage, psu, chassis or network");
              part.kind = *kind;
              part.id = p.string("id");
              part.count = static_cast<int>(p.integer_or("count", count, 1));
              p.finish();
              s.parts.push_back(std::move(part));
            }
          }};
}

}  // namespace record_detail

// The field table of each record, in the order fields are written.
template <class Rec>
const std::vector<FieldCodec<Rec>>& fields();

template <>
inline const std::vector<FieldCodec<GpuSpec>>& fields<GpuSpec>() {
  namespace rd = record_detail;
  using R = GpuSpec;
  static const std::vector<FieldCodec<R>> f = [] {
    std::vector<FieldCodec<R>> v{
        rd::text("id", &R::id, true),
        rd::text("name", &R::name, true),
        rd::strings("aliases", &R::aliases),
        rd::enumeration("vendor", &R::vendor, true),
        rd::text("architecture", &R::architecture),
        rd::enumeration("form_factor", &R::form_factor, true),
        rd::quantity("memory", &R::memory, true),
        rd::text("memory_type", &R::memory_type),
        rd::quantity("memory_bandwidth", &R::memory_bandwidth, true),
        rd::dense_rates_field(),
        rd::boolean("fp16_rate_assumes_fp32_accumulate", &R::fp16_rate_assumes_fp32_accumulate),
        rd::boolean("fp32_accumulate_half_rate", &R::fp32_accumulate_half_rate),
        rd::quantity("tdp", &R::tdp, true),
        rd::quantity("idle_power", &R::idle_power),
        rd::integer("nvlink_generation", &R::nvlink_generation),
        rd::quantity("nvlink_bandwidth", &R::nvlink_bandwidth),
        rd::quantity("infinity_fabric_bandwidth", &R::infinity_fabric_bandwidth),
        rd::integer("pcie_generation", &R::pcie_generation),
        rd::integer("pcie_lanes", &R::pcie_lanes),
        rd::boolean("ecc", &R::ecc),
        rd::boolean("peer_to_peer", &R::peer_to_peer),
        rd::price("launch_price", &R::launch_price),
        rd::price("street_price", &R::street_price),
    };
    rd::add_provenance(v);
    return v;
  }();
  return f;
}

template <>
inline const std::vector<FieldCodec<CpuSpec>>& fields<CpuSpec>() {
  namespace rd = record_detail;
  using R = CpuSpec;
  static const std::vector<FieldCodec<R>> f = [] {
    std::vector<FieldCodec<R>> v{
        rd::text("id", &R::id, true),
        rd::text("name", &R::name, true),
        rd::strings("aliases", &R::aliases),
        rd::enumeration("vendor", &R::vendor, true),
        rd::text("architecture", &R::architecture),
        rd::integer("cores", &R::cores, true),
        rd::integer("threads", &R::threads, true),
        rd::quantity("tdp", &R::tdp, true),
        rd::integer("pcie_generation", &R::pcie_generation),
        rd::integer("pcie_lanes", &R::pcie_lanes),
        rd::text("memory_type", &R::memory_type),
        rd::integer("memory_channels", &R::memory_channels, true),
        rd::quantity("max_memory", &R::max_memory),
        rd::price("launch_price", &R::launch_price),
        rd::price("street_price", &R::street_price),
    };
    rd::add_provenance(v);
    return v;
  }();
  return f;
}

template <>
inline const std::vector<FieldCodec<MemoryModule>>& fields<MemoryModule>() {
  namespace rd = record_detail;
  using R = MemoryModule;
  static const std::vector<FieldCodec<R>> f = [] {
    std::vector<FieldCodec<R>> v{
        rd::text("id", &R::id, true),
        rd::text("name", &R::name, true),
        rd::strings("aliases", &R::aliases),
        rd::enumeration("type", &R::type, true),
        rd::integer("speed_mts", &R::speed_mts, true),
        rd::quantity("size", &R::size, true),
        rd::boolean("registered", &R::registered),
        rd::boolean("ecc", &R::ecc),
        rd::optional_quantity("power", &R::power),
        rd::price("street_price", &R::street_price),
    };
    rd::add_provenance(v);
    return v;
  }();
  return f;
}

template <>
inline const std::vector<FieldCodec<StorageDevice>>& fields<StorageDevice>() {
  namespace rd = record_detail;
  using R = StorageDevice;
  static const std::vector<FieldCodec<R>> f = [] {
    std::vector<FieldCodec<R>> v{
        rd::text("id", &R::id, true),
        rd::text("name", &R::name, true),
        rd::strings("aliases", &R::aliases),
        rd::enumeration("kind", &R::kind, true),
        rd::quantity("capacity", &R::capacity, true),
        rd::quantity("sequential_read", &R::sequential_read, true),
        rd::quantity("sequential_write", &R::sequential_write, true),
        rd::optional_quantity("active_power", &R::active_power),
        rd::optional_quantity("idle_power", &R::idle_power),
        rd::price("launch_price", &R::launch_price),
        rd::price("street_price", &R::street_price),
    };
    rd::add_provenance(v);
    return v;
  }();
  return f;
}

template <>
inline const std::vector<FieldCodec<PowerSupply>>& fields<PowerSupply>() {
  namespace rd = record_detail;
  using R = PowerSupply;
  static const std::vector<FieldCodec<R>> f = [] {
    std::vector<FieldCodec<R>> v{
        rd::text("id", &R::id, true),
        rd::text("name", &R::name, true),
        rd::strings("aliases", &R::aliases),
        rd::quantity("rated", &R::rated, true),
        rd::enumeration("tier", &R::tier, true),
        rd::enumeration("input", &R::input),
        rd::price("launch_price", &R::launch_price),
        rd::price("street_price", &R::street_price),
    };
    rd::add_provenance(v);
    return v;
  }();
  return f;
}

template <>
inline const std::vector<FieldCodec<Chassis>>& fields<Chassis>() {
  namespace rd = record_detail;
  using R = Chassis;
  static const std::vector<FieldCodec<R>> f = [] {
    std::vector<FieldCodec<R>> v{
        rd::text("id", &R::id, true),
        rd::text("name", &R::name, true),
        rd::strings("aliases", &R::aliases),
        rd::integer("rack_units", &R::rack_units),
        rd::integer("max_gpus", &R::max_gpus),
        rd::integer("psu_bays", &R::psu_bays),
        rd::price("street_price", &R::street_price),
    };
    rd::add_provenance(v);
    return v;
  }();
  return f;
}

template <>
inline const std::vector<FieldCodec<NetworkAdapter>>& fields<NetworkAdapter>() {
  namespace rd = record_detail;
  using R = NetworkAdapter;
  static const std::vector<FieldCodec<R>> f = [] {
    std::vector<FieldCodec<R>> v{
        rd::text("id", &R::id, true),
        rd::text("name", &R::name, true),
        rd::strings("aliases", &R::aliases),
        rd::enumeration("protocol", &R::protocol, true),
        rd::quantity("port_speed", &R::port_speed, true),
        rd::integer("ports", &R::ports),
        rd::integer("pcie_generation", &R::pcie_generation),
        rd::integer("pcie_lanes", &R::pcie_lanes),
        rd::optional_quantity("power", &R::power),
        rd::price("street_price", &R::street_price),
    };
    rd::add_provenance(v);
    return v;
  }();
  return f;
}

template <>
inline const std::vector<FieldCodec<SystemSpec>>& fields<SystemSpec>() {
  namespace rd = record_detail;
  using R = SystemSpec;
  static const std::vector<FieldCodec<R>> f = [] {
    std::vector<FieldCodec<R>> v{
        rd::text("id", &R::id, true),
        rd::text("name", &R::name, true),
        rd::strings("aliases", &R::aliases),
        rd::integer("nodes", &R::nodes),
        rd::parts_field(),
        rd::enumeration("topology", &R::topology, true),
        rd::price("price", &R::price),
    };
    rd::add_provenance(v);
    return v;
  }();
  return f;
}

template <>
inline const std::vector<FieldCodec<CloudOffer>>& fields<CloudOffer>() {
  namespace rd = record_detail;
  using R = CloudOffer;
  static const std::vector<FieldCodec<R>> f = [] {
    FieldCodec<R> currency{"currency", true, "USD, EUR, CNY, GBP or JPY",
                           [](Json& j, const R& o) { j["currency"] = std::string(code(o.currency)); },
                           [](ObjectReader& r, R& o) {
                             if (auto c = rd::currency_opt(r, "currency")) o.currency = *c;
                           }};
    std::vector<FieldCodec<R>> v{
        rd::text("id", &R::id, true),
        rd::text("provider", &R::provider, true),
        rd::text("instance_type", &R::instance_type, true),
        rd::text("region", &R::region),
        rd::integer("gpu_count", &R::gpu_count, true),
        rd::text("gpu_id", &R::gpu_id, true),
        rd::integer("vcpus", &R::vcpus),
        rd::quantity("ram", &R::ram),
        currency,
        rd::offer_money("on_demand", &R::on_demand),
        rd::offer_money("spot", &R::spot),
        rd::offer_money("reserved", &R::reserved),
        rd::offer_money("monthly", &R::monthly),
        rd::text("as_of", &R::as_of, true),
        rd::text("source", &R::source, true),
        rd::text("note", &R::note),
    };
    return v;
  }();
  return f;
}

// Every field of a record, optional ones only when present.
template <class Rec>
Json record_to_json(const Rec& rec) {
  Json j = Json::object();
  for (const auto& f : fields<Rec>()) f.write(j, rec);
  return j;
}

// Reads a record from the object `r` reads. With `base`, a patch: keys that are absent keep the
// base's values and no key is required. Checks every type and unit, rejects unknown keys, then
// calls the record's validate(); every error names the file, the entry and the field.
template <class Rec>
Rec read_record(ObjectReader& r, const Rec* base = nullptr) {
  Rec rec = base ? *base : Rec{};
  for (const auto& f : fields<Rec>()) {
    if (!base && f.required && !r.has(f.key)) r.missing(f.key, f.what);
    if (base && f.required && r.is_null(f.key)) {
      r.fail(f.key, "null", "cannot be removed: the field is required");
    }
    f.read(r, rec);
  }
  r.finish();
  try {
    rec.validate();
  } catch (const InputError& e) {
    r.rethrow(e);
  } catch (const std::overflow_error& e) {
    // Exact money arithmetic out of range while checking an amount near +/-1.7e26.
    r.fail_entry(std::string("an amount is out of the range of exact arithmetic (") + e.what() + ")");
  }
  return rec;
}

}  // namespace capplan::io
