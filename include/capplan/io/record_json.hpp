// JSON form of each hardware record (GpuSpec, CpuSpec, MemoryModule, StorageDevice, PowerSupply,
// Chassis, NetworkAdapter, SystemSpec, CloudOffer), one field table per record used both to
// write and to read, so the two directions cannot disagree. The table is made from the record's
// description (BOOST_DESCRIBE_STRUCT and required_members beside the struct): a key per member in
// declaration order, its codec chosen by the member's type, so a new member needs no change here.
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

#include "capplan/detail/enum_names.hpp"
#include "capplan/hardware/chassis.hpp"
#include "capplan/hardware/cloud.hpp"
#include "capplan/hardware/cpu.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/hardware/memory_module.hpp"
#include "capplan/hardware/motherboard.hpp"
#include "capplan/hardware/network_adapter.hpp"
#include "capplan/hardware/price_point.hpp"
#include "capplan/hardware/psu.hpp"
#include "capplan/hardware/storage.hpp"
#include "capplan/hardware/system.hpp"
#include "capplan/io/json_document.hpp"
#include "capplan/money/format.hpp"

#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/mp11/algorithm.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace capplan::io {

// ---------------------------------------------------------------------------------------------
// Money: a decimal string with a currency; an integer JSON number is exact too. Text with its
// own currency ("$1,599", "2.49 USD/h") is accepted when it agrees with the currency given.

}  // namespace capplan::io

namespace capplan::detail {

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
std::optional<M> money_opt(io::ObjectReader& r, std::string_view key, std::optional<Currency> currency) {
  const io::Json* v = r.find(key);
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
  if (auto d = plain_decimal(s)) return M(*d, need_currency(detail::quote_text(s)));
  if (s.find_first_of("0123456789") == std::string::npos) {
    r.fail(key, detail::quote_text(s), "is not an amount of money; write a decimal string such as \"2.49\"");
  }
  M m;
  try {
    if constexpr (std::is_same_v<M, MoneyRate>) m = parse_money_rate(s, key);
    else m = parse_money(s, key);
  } catch (const InputError& e) {
    r.rethrow(e, key);
  }
  if (currency && m.currency() != *currency) {
    r.fail(key, detail::quote_text(s),
           "is in " + std::string(code(m.currency())) + " but the entry's currency is " + std::string(code(*currency)));
  }
  return m;
}

inline std::optional<Currency> currency_opt(io::ObjectReader& r, std::string_view key) {
  auto s = r.string_opt(key);
  if (!s) return std::nullopt;
  try {
    return parse_currency(*s, key);
  } catch (const InputError& e) {
    r.rethrow(e, key);
  }
}

}  // namespace capplan::detail

namespace capplan::io {

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
  auto currency = detail::currency_opt(r, "currency");
  auto amount = detail::money_opt<Money>(r, "amount", currency);
  if (!amount) r.missing("amount", "a decimal string such as \"1599.00\"");
  p.amount = *amount;
  if (auto high = detail::money_opt<Money>(r, "high", p.amount.currency())) p.high = *high;
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

}  // namespace capplan::io

namespace capplan::detail {

inline constexpr io::IntRange count_range{0, std::numeric_limits<std::int32_t>::max()};

// One codec per member type, chosen by overload resolution on the member pointer: a member of a
// type without a codec here is a compile error naming `codec`.

template <class Rec>
io::FieldCodec<Rec> codec(std::string_view key, std::string Rec::*m, bool required) {
  return {key, required, "a string",
          [=](io::Json& j, const Rec& r) { j[std::string(key)] = r.*m; },
          [=](io::ObjectReader& r, Rec& rec) {
            if (auto s = r.string_opt(key, required)) rec.*m = *s;
            else if (r.is_null(key)) rec.*m = std::string();
          }};
}

template <class Rec>
io::FieldCodec<Rec> codec(std::string_view key, std::vector<std::string> Rec::*m, bool required) {
  return {key, required, "an array of strings",
          [=](io::Json& j, const Rec& r) { j[std::string(key)] = r.*m; },
          [=](io::ObjectReader& r, Rec& rec) {
            if (r.has(key) || r.is_null(key)) rec.*m = r.strings_or_empty(key);
          }};
}

template <class Rec>
io::FieldCodec<Rec> codec(std::string_view key, int Rec::*m, bool required) {
  return {key, required, "a whole number",
          [=](io::Json& j, const Rec& r) { j[std::string(key)] = r.*m; },
          [=](io::ObjectReader& r, Rec& rec) {
            if (auto n = r.integer_opt(key, count_range)) rec.*m = static_cast<int>(*n);
          }};
}

template <class Rec>
io::FieldCodec<Rec> codec(std::string_view key, bool Rec::*m, bool required) {
  return {key, required, "true or false",
          [=](io::Json& j, const Rec& r) { j[std::string(key)] = r.*m; },
          [=](io::ObjectReader& r, Rec& rec) {
            if (auto b = r.boolean_opt(key)) rec.*m = *b;
          }};
}

// An enumeration by its enumerator's name.
template <class Rec, detail::described_enum E>
io::FieldCodec<Rec> codec(std::string_view key, E Rec::*m, bool required) {
  return {key, required, "a name",
          [=](io::Json& j, const Rec& r) { j[std::string(key)] = std::string(detail::enum_name(r.*m)); },
          [=](io::ObjectReader& r, Rec& rec) {
            if (auto e = r.enumeration_opt<E>(key, detail::enum_entries<E>)) rec.*m = *e;
          }};
}

template <class Rec, class Q>
  requires is_quantity_v<Q>
io::FieldCodec<Rec> codec(std::string_view key, Q Rec::*m, bool required) {
  return {key, required, "a quantity with a unit",
          [=](io::Json& j, const Rec& r) { j[std::string(key)] = io::quantity_json(r.*m); },
          [=](io::ObjectReader& r, Rec& rec) {
            if (auto q = r.quantity_opt<Q>(key)) rec.*m = *q;
          }};
}

// An absent figure: no key on output; null on input removes it.
template <class Rec, class Q>
  requires is_quantity_v<Q>
io::FieldCodec<Rec> codec(std::string_view key, std::optional<Q> Rec::*m, bool required) {
  return {key, required, "a quantity with a unit",
          [=](io::Json& j, const Rec& r) {
            if (r.*m) j[std::string(key)] = io::quantity_json(*(r.*m));
          },
          [=](io::ObjectReader& r, Rec& rec) {
            if (auto q = r.quantity_opt<Q>(key)) rec.*m = *q;
            else if (r.is_null(key)) (rec.*m).reset();
          }};
}

template <class Rec>
io::FieldCodec<Rec> codec(std::string_view key, std::optional<PricePoint> Rec::*m, bool required) {
  return {key, required, "a price",
          [=](io::Json& j, const Rec& r) {
            if (r.*m) j[std::string(key)] = io::price_to_json(*(r.*m));
          },
          [=](io::ObjectReader& r, Rec& rec) {
            if (const io::Json* v = r.find(key)) rec.*m = read_price(r, *v, key);
            else if (r.is_null(key)) (rec.*m).reset();
          }};
}

// The currency of a record's other amounts (CloudOffer).
template <class Rec>
io::FieldCodec<Rec> codec(std::string_view key, Currency Rec::*m, bool required) {
  return {key, required, "USD, EUR, CNY, GBP or JPY",
          [=](io::Json& j, const Rec& r) { j[std::string(key)] = std::string(code(r.*m)); },
          [=](io::ObjectReader& r, Rec& rec) {
            if (auto c = currency_opt(r, key)) rec.*m = *c;
          }};
}

// An amount in the record's `currency` (read before, as it comes earlier in the record), written
// as a bare decimal string.
template <class Rec, class D>
  requires requires(const Rec& r) { Currency{r.currency}; }
io::FieldCodec<Rec> codec(std::string_view key, std::optional<BasicMoney<D>> Rec::*m, bool required) {
  using M = BasicMoney<D>;
  return {key, required, "a decimal string",
          [=](io::Json& j, const Rec& r) {
            if (r.*m) j[std::string(key)] = (r.*m)->amount().to_string();
          },
          [=](io::ObjectReader& r, Rec& rec) {
            if (auto v = money_opt<M>(r, key, rec.currency)) rec.*m = *v;
            else if (r.is_null(key)) (rec.*m).reset();
          }};
}

// GpuSpec::dense: an object {precision name: rate}, patched per precision.
template <class Rec>
io::FieldCodec<Rec> codec(std::string_view key, PeakRates Rec::*m, bool required) {
  return {key, required, "dense peak rates",
          [=](io::Json& j, const Rec& rec) {
            io::Json d = io::Json::object();
            for (Precision p : all_precisions) {
              if (auto rate = (rec.*m).at(p)) d[std::string(name(p))] = io::quantity_json(*rate);
            }
            j[std::string(key)] = std::move(d);
          },
          [=](io::ObjectReader& r, Rec& rec) {
            const io::Json* v = r.find(key);
            if (!v) {
              if (r.is_null(key)) rec.*m = PeakRates{};
              return;
            }
            io::ObjectReader d(r.document(), *v, r.key_pointer(key), r.entry(), std::string(key) + ".");
            for (Precision p : all_precisions) {
              const std::string_view k = name(p);
              if (auto q = d.quantity_opt<FlopRate>(k)) (rec.*m).set(p, *q);
              else if (d.is_null(k)) (rec.*m).clear(p);
            }
            d.finish();
          }};
}

// SystemSpec::parts: an array of {kind, id, count}; count defaults to 1.
template <class Rec>
io::FieldCodec<Rec> codec(std::string_view key, std::vector<SystemPart> Rec::*m, bool required) {
  return {key, required, "an array of {kind, id, count}",
          [=](io::Json& j, const Rec& rec) {
            io::Json a = io::Json::array();
            for (const auto& p : rec.*m) {
              io::Json o = io::Json::object();
              o["kind"] = std::string(detail::enum_name(p.kind));
              o["id"] = p.id;
              o["count"] = p.count;
              a.push_back(std::move(o));
            }
            j[std::string(key)] = std::move(a);
          },
          [=](io::ObjectReader& r, Rec& rec) {
            const io::Json* v = r.find(key);
            if (!v) return;
            if (!v->is_array()) r.type_error(key, *v, "an array of {\"kind\", \"id\", \"count\"} objects");
            (rec.*m).clear();
            for (std::size_t i = 0; i < v->size(); ++i) {
              const std::string k = std::string(key) + "[" + std::to_string(i) + "]";
              io::ObjectReader p(r.document(), (*v)[i], r.key_pointer(key) + "/" + std::to_string(i), r.entry(), k + ".");
              SystemPart part;
              auto kind = p.enumeration_opt<PartKind>("kind", detail::enum_entries<PartKind>);
              if (!kind) p.missing("kind", detail::enum_name_list<PartKind>(" or "));
              part.kind = *kind;
              part.id = p.string("id");
              part.count = static_cast<int>(p.integer_or("count", count_range, 1));
              p.finish();
              (rec.*m).push_back(std::move(part));
            }
          }};
}

// Motherboard::slots: an array of {position, lanes, generation, from_chipset}, each key optional
// (the defaults of PcieSlot), at most 16 entries (Motherboard::validate bounds the values).
template <class Rec>
io::FieldCodec<Rec> codec(std::string_view key, std::vector<PcieSlot> Rec::*m, bool required) {
  return {key, required, "an array of {position, lanes, generation, from_chipset}",
          [=](io::Json& j, const Rec& rec) {
            io::Json a = io::Json::array();
            for (const PcieSlot& s : rec.*m) {
              a.push_back(io::Json{{"position", s.position}, {"lanes", s.lanes}, {"generation", s.generation}, {"from_chipset", s.from_chipset}});
            }
            j[std::string(key)] = std::move(a);
          },
          [=](io::ObjectReader& r, Rec& rec) {
            const io::Json* v = r.find(key);
            if (!v) return;
            if (!v->is_array()) r.type_error(key, *v, "an array of {\"position\", \"lanes\", \"generation\"} objects");
            if (v->size() > 16) r.fail(key, "an array of " + std::to_string(v->size()), "has more than 16 slots");
            (rec.*m).clear();
            constexpr io::IntRange small{0, 1000};
            for (std::size_t i = 0; i < v->size(); ++i) {
              const std::string k = std::string(key) + "[" + std::to_string(i) + "]";
              io::ObjectReader p(r.document(), (*v)[i], r.key_pointer(key) + "/" + std::to_string(i), r.entry(), k + ".");
              PcieSlot s;
              s.position = static_cast<int>(p.integer_or("position", small, s.position));
              s.lanes = static_cast<int>(p.integer_or("lanes", small, s.lanes));
              s.generation = static_cast<int>(p.integer_or("generation", small, s.generation));
              if (auto b = p.boolean_opt("from_chipset")) s.from_chipset = *b;
              p.finish();
              (rec.*m).push_back(s);
            }
          }};
}

// Whether `m` is one of the record's required_members (declared beside its description).
template <class Rec, class M>
constexpr bool is_required(M Rec::*m) {
  return std::apply(
      [m](auto... r) {
        return ([m](auto p) {
          if constexpr (std::is_same_v<decltype(p), M Rec::*>) return p == m;
          else return false;
        }(r) || ...);
      },
      required_members(std::type_identity<Rec>{}));
}

}  // namespace capplan::detail

namespace capplan::io {

// The field table of a record: one codec per described member, in declaration order.
template <class Rec>
const std::vector<FieldCodec<Rec>>& fields() {
  static const std::vector<FieldCodec<Rec>> f = [] {
    namespace bd = boost::describe;
    std::vector<FieldCodec<Rec>> v;
    boost::mp11::mp_for_each<bd::describe_members<Rec, bd::mod_public>>([&v](auto d) {
      v.push_back(detail::codec(d.name, d.pointer, detail::is_required(d.pointer)));
    });
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
