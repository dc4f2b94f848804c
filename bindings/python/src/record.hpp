// Records and results as Python classes: one helper, Record<T>, gives every bound struct
//
//   keyword construction   GpuSpec(id="x", name="X", memory=DataSize(80, "GB"), ...)
//   replace(**changes)     a copy with some fields changed (like dataclasses.replace)
//   __repr__               the fields that are set
//   _repr_html_            a small HTML table for Jupyter (and the explanation, when there is one)
//   to_dict()              plain Python values: quantities as floats in their canonical unit with the
//                          unit in the key ("memory_bytes", "tdp_w"), money as decimal.Decimal with
//                          the currency in the key ("purchase_usd"), enums by name, nested records
//                          as dicts: the conventions of the command line's JSON output
//   __eq__                 equal when to_dict() is equal
//
// Unknown keywords and values of the wrong type raise TypeError naming the class and the field.
#pragma once

#include "convert.hpp"

#include <capplan/detail/enum_names.hpp>
#include <capplan/detail/text.hpp>
#include <capplan/money/currency.hpp>
#include <capplan/money/money.hpp>
#include <capplan/units/quantity.hpp>

#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/mp11/algorithm.hpp>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace capplan::python {

namespace py = pybind11;

namespace record_detail {

template <class T>
inline constexpr bool is_optional_v = false;
template <class T>
inline constexpr bool is_optional_v<std::optional<T>> = true;
template <class T>
inline constexpr bool is_vector_v = false;
template <class T, class A>
inline constexpr bool is_vector_v<std::vector<T, A>> = true;
template <class T>
inline constexpr bool is_map_v = false;
template <class K, class V, class C, class A>
inline constexpr bool is_map_v<std::map<K, V, C, A>> = true;
template <class T>
inline constexpr bool is_variant_v = false;
template <class... Ts>
inline constexpr bool is_variant_v<std::variant<Ts...>> = true;
template <class T>
inline constexpr bool is_array_v = false;
template <class T, std::size_t N>
inline constexpr bool is_array_v<std::array<T, N>> = true;
template <class T>
inline constexpr bool is_basic_money_v = false;
template <class D>
inline constexpr bool is_basic_money_v<BasicMoney<D>> = true;

// The canonical unit of a quantity role as a key suffix; nullptr for anything else.
template <class Q>
constexpr const char* unit_suffix() {
  if constexpr (std::is_same_v<Q, DataSize>) return "_bytes";
  else if constexpr (std::is_same_v<Q, Duration>) return "_s";
  else if constexpr (std::is_same_v<Q, FlopCount>) return "_flop";
  else if constexpr (std::is_same_v<Q, FlopRate>) return "_flop_per_s";
  else if constexpr (std::is_same_v<Q, Bandwidth>) return "_bytes_per_s";
  else if constexpr (std::is_same_v<Q, Power>) return "_w";
  else if constexpr (std::is_same_v<Q, Energy>) return "_j";
  else if constexpr (std::is_same_v<Q, ArithmeticIntensity>) return "_flop_per_byte";
  else if constexpr (std::is_same_v<Q, CarbonMass>) return "_kg_co2e";
  else if constexpr (std::is_same_v<Q, CarbonIntensity>) return "_kg_co2e_per_j";
  else if constexpr (std::is_same_v<Q, Length>) return "_m";
  else return nullptr;
}
template <class Q>
inline constexpr bool is_quantity_v = unit_suffix<Q>() != nullptr;

// The element type inside optionals and vectors, for the key suffix.
template <class T>
struct inner {
  using type = T;
};
template <class T>
struct inner<std::optional<T>> : inner<T> {};
template <class T, class A>
struct inner<std::vector<T, A>> : inner<T> {};

template <class M>
std::string money_suffix(const M& m) {
  std::string s = "_" + capplan::detail::lower_ascii(code(m.currency()));
  if constexpr (std::is_same_v<M, MoneyRate>) s += "_per_h";
  else if constexpr (std::is_same_v<M, EnergyPrice>) s += "_per_kwh";
  return s;
}

// The money inside a value, if any (for the currency in the key).
template <class X>
const auto* first_money(const X& x) {
  if constexpr (is_basic_money_v<X>) return &x;
  else if constexpr (is_optional_v<X>) {
    using M = typename inner<X>::type;
    return x ? first_money(*x) : static_cast<const M*>(nullptr);
  } else {
    using M = typename inner<X>::type;
    return x.empty() ? static_cast<const M*>(nullptr) : first_money(x.front());
  }
}

// The to_dict() key of a field of type X named `name`.
template <class X>
std::string key_of(const std::string& name, const X& x) {
  using I = typename inner<X>::type;
  if constexpr (is_quantity_v<I>) {
    return name + unit_suffix<I>();
  } else if constexpr (is_basic_money_v<I>) {
    const auto* m = first_money(x);
    return m ? name + money_suffix(*m) : name;
  } else {
    return name;
  }
}

// A value as plain Python data (see the header comment).
template <class X>
py::object plain(const X& x) {
  if constexpr (std::is_same_v<X, bool> || std::is_arithmetic_v<X> || std::is_same_v<X, std::string>) {
    return py::cast(x);
  } else if constexpr (std::is_same_v<X, std::string_view>) {
    return py::str(std::string(x));
  } else if constexpr (is_quantity_v<X>) {
    return py::float_(x.value());
  } else if constexpr (is_basic_money_v<X>) {
    return to_py_decimal(x.amount());
  } else if constexpr (std::is_same_v<X, Decimal>) {
    return to_py_decimal(x);
  } else if constexpr (std::is_same_v<X, ExchangeRate>) {
    py::dict d;
    d["from"] = std::string(code(x.from));
    d["to"] = std::string(code(x.to));
    d["rate"] = to_py_decimal(x.rate);
    d["as_of"] = x.as_of;
    d["source"] = x.source;
    return d;
  } else if constexpr (std::is_same_v<X, Count>) {
    return to_py_int(x);
  } else if constexpr (std::is_enum_v<X>) {
    return py::cast(x).attr("name");
  } else if constexpr (is_optional_v<X>) {
    return x ? plain(*x) : py::none();
  } else if constexpr (is_vector_v<X> || is_array_v<X>) {
    py::list l;
    for (const auto& e : x) l.append(plain(e));
    return l;
  } else if constexpr (is_map_v<X>) {
    py::dict d;
    for (const auto& [k, v] : x) d[plain(k)] = plain(v);
    return d;
  } else if constexpr (is_variant_v<X>) {
    return std::visit([](const auto& v) { return plain(v); }, x);
  } else {
    return py::cast(x).attr("to_dict")();
  }
}

using capplan::detail::html_escape;

// True for values a repr leaves out: None, "", [].
inline bool is_unset(py::handle v) {
  if (v.is_none()) return true;
  if (PyUnicode_Check(v.ptr()) && PyUnicode_GetLength(v.ptr()) == 0) return true;
  if (PyList_Check(v.ptr()) && PyList_Size(v.ptr()) == 0) return true;
  return false;
}

}  // namespace record_detail

// One bound struct and what it knows about its fields.
template <class T, class... Extra>
class Record {
 public:
  struct Field {
    std::string name;
    std::function<py::object(const T&)> plain;        // to_dict value
    std::function<std::string(const T&)> key;         // to_dict key
  };

  Record(py::handle scope, const char* name, const char* doc) : cls(scope, name, doc) { class_name() = name; }

  static std::vector<Field>& fields() {
    static std::vector<Field> f;
    return f;
  }
  static std::string& class_name() {
    static std::string n;
    return n;
  }

  // A field the user may read and set.
  template <class M>
  Record& field(const char* name, M T::*member, const char* doc = "") {
    if constexpr (std::is_same_v<M, bool>) {
      // pybind11 would turn any object with a truth value into a bool (NaN -> True, None ->
      // False, 0.5 -> True): a flag takes True or False only.
      cls.def_property(
          name, [member](const T& r) { return r.*member; },
          // py::bool_ loads only True and False (its caster checks PyBool_Check), and the stubs
          // still say `bool`.
          [member](T& r, const py::bool_& v) { r.*member = v.ptr() == Py_True; },
          doc);
    } else {
      cls.def_readwrite(name, member, doc);
    }
    add_plain<M>(name, member);
    return *this;
  }
  // Every member described with BOOST_DESCRIBE_STRUCT, in declaration order, as a field the user
  // may read and set. `docs`: docstrings of the members whose name alone says too little;
  // `special`: members bound by hand (property()), each called in its member's place so that the
  // order of fields stays the struct's.
  using Special = std::map<std::string_view, std::function<void(Record&)>>;
  Record& described_fields(const std::map<std::string_view, const char*>& docs = {}, const Special& special = {}) {
    std::size_t used = 0;
    boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>([&](auto d) {
      const std::string_view n = d.name;
      const auto doc = docs.find(n);
      used += doc != docs.end();
      if (const auto s = special.find(n); s != special.end()) {
        ++used;
        s->second(*this);
      } else {
        field(d.name, d.pointer, doc == docs.end() ? "" : doc->second);
      }
    });
    // A docstring or special binding for a member the struct does not have is a typo.
    if (used != docs.size() + special.size()) {
      throw std::logic_error(class_name() + ": a docstring or special binding names no member of the struct");
    }
    return *this;
  }

  // A field the user may read only (a result).
  template <class M>
  Record& readonly(const char* name, M T::*member, const char* doc = "") {
    cls.def_readonly(name, member, doc);
    add_plain<M>(name, member);
    return *this;
  }
  // A computed or converted field: get (and optionally set) through functions.
  template <class Get, class Set>
  Record& property(const char* name, Get get, Set set, std::function<py::object(const T&)> to_plain,
                   std::string key = {}, const char* doc = "") {
    if constexpr (std::is_null_pointer_v<Set>) cls.def_property_readonly(name, get, doc);
    else cls.def_property(name, get, set, doc);
    const std::string k = key.empty() ? std::string(name) : key;
    fields().push_back({name, std::move(to_plain), [k](const T&) { return k; }});
    return *this;
  }

  // Adds __init__(**fields), replace, __repr__, _repr_html_, to_dict and __eq__.
  py::class_<T, Extra...>& finish(bool keyword_init = true) {
    if (keyword_init) {
      cls.def(py::init([](const py::kwargs& kw) { return build(T{}, kw); }),
              "Keyword construction: every field may be given by name; the others keep their defaults.");
      cls.def("replace", [](const T& self, const py::kwargs& kw) { return build(self, kw); },
              "A copy with the given fields changed.");
    }
    cls.def("to_dict", &to_dict,
            "Plain Python values: quantities in their canonical unit (unit in the key), money as decimal.Decimal "
            "(currency in the key), enums by name, nested records as dicts.");
    cls.def("__repr__", &repr);
    cls.def("_repr_html_", &repr_html);
    cls.def("__eq__", [](const T& a, const py::object& b) -> py::object {
      if (!py::isinstance<T>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
      return py::bool_(to_dict(a).equal(to_dict(b.cast<const T&>())));
    });
    cls.attr("__hash__") = py::none();
    py::list names;
    for (const auto& f : fields()) names.append(f.name);
    cls.attr("__capplan_fields__") = py::tuple(names);
    return cls;
  }

  static py::dict to_dict(const T& t) {
    py::dict d;
    for (const auto& f : fields()) d[py::str(f.key(t))] = f.plain(t);
    return d;
  }

  py::class_<T, Extra...> cls;

 private:
  template <class M>
  void add_plain(const char* name, M T::*member) {
    const std::string n = name;
    fields().push_back({n, [member](const T& t) { return record_detail::plain(t.*member); },
                        [n, member](const T& t) { return record_detail::key_of(n, t.*member); }});
  }

  static bool known(const std::string& k) {
    for (const auto& f : fields()) {
      if (f.name == k) return true;
    }
    return false;
  }

  static std::string field_list() {
    std::string s;
    for (const auto& f : fields()) s += (s.empty() ? "" : ", ") + f.name;
    return s;
  }

  static T build(T start, const py::kwargs& kw) {
    // A new Python object owning a copy (casting a reference would find the caller's object).
    py::object o = py::cast(std::move(start), py::return_value_policy::move);
    for (auto item : kw) {
      const std::string k = py::str(item.first);
      if (!known(k)) {
        throw py::type_error(class_name() + ": unknown field '" + k + "'; fields: " + field_list());
      }
      try {
        py::setattr(o, k.c_str(), item.second);
      } catch (py::error_already_set& e) {
        if (!e.matches(PyExc_TypeError)) throw;
        throw py::type_error(class_name() + "." + k + ": " + py::repr(item.second).cast<std::string>() + " (" +
                             std::string(py::str(py::type::handle_of(item.second).attr("__name__"))) +
                             ") is not accepted; expected " + expected_type(o, k));
      }
    }
    return o.cast<T>();
  }

  // The type of the field's current value, or what its setter's signature names.
  static std::string expected_type(const py::object& o, const std::string& k) {
    py::object v = o.attr(k.c_str());
    if (!v.is_none()) return py::str(py::type::handle_of(v).attr("__name__"));
    py::object prop = py::type::handle_of(o).attr(k.c_str());
    try {
      std::string doc = py::str(prop.attr("fset").attr("__doc__"));
      const auto a = doc.find("arg0: ");
      if (a != std::string::npos) {
        const auto e = doc.find(") ->", a);
        std::string t = doc.substr(a + 6, e == std::string::npos ? std::string::npos : e - a - 6);
        for (std::string p = "capplan._core."; t.find(p) != std::string::npos;) t.erase(t.find(p), p.size());
        return t;
      }
    } catch (py::error_already_set&) {
    }
    return "a value of the field's type";
  }

  static std::string repr(const py::object& self) {
    std::string s = class_name() + "(";
    bool first = true;
    for (const auto& f : fields()) {
      py::object v = self.attr(f.name.c_str());
      if (record_detail::is_unset(v)) continue;
      s += (first ? "" : ", ") + f.name + "=" + std::string(py::repr(v));
      first = false;
    }
    return s + ")";
  }

  static std::string repr_html(const py::object& self) {
    using capplan::detail::html_escape;
    std::string s = "<table class=\"capplan\"><caption style=\"text-align:left\"><b>" + class_name() +
                    "</b></caption>";
    for (const auto& f : fields()) {
      py::object v = self.attr(f.name.c_str());
      if (record_detail::is_unset(v)) continue;
      std::string text;
      if (py::hasattr(v, "__capplan_fields__")) text = py::repr(v);
      else text = py::str(v);
      s += "<tr><th style=\"text-align:left\">" + html_escape(f.name) + "</th><td style=\"text-align:left\">" +
           html_escape(text) + "</td></tr>";
    }
    s += "</table>";
    if (py::hasattr(self, "explain")) {
      try {
        s += "<pre>" + html_escape(std::string(py::str(self.attr("explain")()))) + "</pre>";
      } catch (py::error_already_set&) {
        // an explanation that needs arguments is left out
      }
    }
    return s;
  }
};

// A Python enum that also accepts its member names as text: Precision("bf16"), and wherever a
// Precision is expected, "bf16" works too. Unknown text raises ValueError listing the names. The
// members are the enumerators of E's BOOST_DESCRIBE_ENUM, in declaration order (an enumeration
// without a description gets its members from the caller's .value() calls).
template <class E>
py::enum_<E> text_enum(py::handle scope, const char* name, const char* doc) {
  py::enum_<E> e(scope, name, doc);
  if constexpr (detail::described_enum<E>) {
    for (const auto& [n, v] : detail::enum_entries<E>) e.value(n.data(), v);  // the description's names are literals
  }
  const std::string n = name;
  e.def(py::init([n](const std::string& text) {
          py::object members = py::type::of<E>().attr("__members__");
          if (members.contains(text)) return members[py::str(text)].cast<E>();
          std::string known;
          for (auto k : members) known += (known.empty() ? "" : ", ") + std::string(py::str(k));
          throw py::value_error(n + ": '" + text + "' is not one of " + known);
        }),
        py::arg("name"));
  refuse_unknown_values(e, n);
  py::implicitly_convertible<py::str, E>();
  return e;
}

}  // namespace capplan::python
