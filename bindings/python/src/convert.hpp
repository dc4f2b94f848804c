// Conversions between Python objects and capplan's exact types, shared by every binding area.
//
//   capplan::Decimal <-> decimal.Decimal   exact both ways; accepts str, int, decimal.Decimal,
//                                           fractions.Fraction; a float raises TypeError
//   capplan::Count   <-> int               exact both ways (arbitrary size)
//
// The two type_casters below make any bound function that takes or returns a Decimal or a Count
// do the right thing without per-function code.
#pragma once

#include <capplan/error.hpp>
#include <capplan/money/decimal.hpp>
#include <capplan/report/value.hpp>
#include <capplan/units/count.hpp>

#include <pybind11/pybind11.h>

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace capplan::python {

namespace py = pybind11;

// A class from the standard library, looked up on each call (a dict lookup in sys.modules).
inline py::object stdlib(const char* module, const char* name) { return py::module_::import(module).attr(name); }

inline std::string type_name(py::handle h) { return py::str(py::type::handle_of(h).attr("__name__")); }
inline std::string py_repr(py::handle h) { return py::repr(h); }

inline bool is_bool(py::handle h) { return PyBool_Check(h.ptr()) != 0; }
inline bool is_str(py::handle h) { return PyUnicode_Check(h.ptr()) != 0; }

// int, numpy integers (numbers.Integral); never bool.
inline bool is_integral(py::handle h) {
  if (is_bool(h)) return false;
  if (PyLong_Check(h.ptr())) return true;
  return py::isinstance(h, stdlib("numbers", "Integral"));
}

// An enum's constructor from an integer that refuses a value naming no member: pybind11 alone makes
// Precision(99) a "Precision.???" that every function then takes. ValueError with the enum's name, the
// value and the members'. A bool is refused with a TypeError (pybind11 alone takes True as 1). Both
// are added ahead of pybind11's own constructors (py::prepend; the bool one first, as a bool is an int).
template <class E>
void refuse_unknown_values(py::enum_<E>& e, const std::string& name) {
  using U = std::underlying_type_t<E>;
  const auto members = [] {
    std::vector<std::pair<std::string, E>> out;
    for (auto item : py::type::of<E>().attr("__members__").attr("items")()) {
      const auto pair = py::reinterpret_borrow<py::tuple>(item);
      out.emplace_back(py::str(pair[0]), py::cast<E>(pair[1]));
    }
    return out;
  };
  const auto known = [members] {
    std::string out;
    for (const auto& [n, m] : members()) out += (out.empty() ? "" : ", ") + n + " = " + std::to_string(static_cast<long long>(m));
    return out;
  };
  e.def(py::init([name, members, known](U v) {
          for (const auto& [n, m] : members())
            if (static_cast<U>(m) == v) return m;
          throw py::value_error(name + ": " + std::to_string(static_cast<long long>(v)) + " is not one of its values (" + known() + ")");
        }),
        py::arg("value"), py::prepend());
  e.def(py::init([name, known](const py::bool_& b) -> E {
          throw py::type_error(name + ": " + py_repr(b) + " is a bool, not one of its values (" + known() + ")");
        }),
        py::arg("value"), py::prepend());
}

// int, float, Fraction, numpy numbers (numbers.Real); never bool.
inline bool is_real(py::handle h) {
  if (is_bool(h)) return false;
  if (PyLong_Check(h.ptr()) || PyFloat_Check(h.ptr())) return true;
  return py::isinstance(h, stdlib("numbers", "Real"));
}

inline bool is_py_decimal(py::handle h) { return py::isinstance(h, stdlib("decimal", "Decimal")); }

// numbers.Rational that is not an integer: fractions.Fraction.
inline bool is_rational(py::handle h) {
  return !is_integral(h) && !is_bool(h) && py::isinstance(h, stdlib("numbers", "Rational"));
}

// Anything to_decimal accepts (a float is recognised too, to be refused with a clear message).
inline bool is_decimal_like(py::handle h) {
  return is_str(h) || is_integral(h) || is_py_decimal(h) || is_rational(h);
}

inline const char* float_refusal() {
  return " is a float; capplan money is exact and never comes from binary floating point "
         "(0.1 is really 0.1000000000000000055...). Pass a str ('0.10'), an int, a decimal.Decimal or a "
         "fractions.Fraction.";
}

// An exact Decimal from a Python value. ValueError (capplan.ParseError / InputError) on bad text, an
// inexact fraction or a non-finite decimal; TypeError on a float or any other type.
inline Decimal to_decimal(py::handle h, std::string_view field) {
  if (is_str(h)) return Decimal::parse(h.cast<std::string>(), field);
  if (is_integral(h)) return Decimal::parse(std::string(py::str(py::int_(py::reinterpret_borrow<py::object>(h)))), field);
  if (is_py_decimal(h)) {
    if (!h.attr("is_finite")().cast<bool>()) detail::fail(field, py_repr(h), "is not finite");
    return Decimal::parse(std::string(py::str(h)), field);
  }
  if (is_rational(h)) {
    using boost::multiprecision::cpp_int;
    const std::string num = py::str(h.attr("numerator"));
    const std::string den = py::str(h.attr("denominator"));
    auto parse_int = [](const std::string& s) {
      // cpp_int reads a leading 0 as octal; Python never writes one except for 0 itself.
      return s.empty() || s[0] != '-' ? cpp_int(s) : cpp_int(-cpp_int(s.substr(1)));
    };
    return Decimal::from_rational(boost::multiprecision::cpp_rational(parse_int(num), parse_int(den)), field);
  }
  if (is_bool(h)) throw py::type_error(std::string(field) + ": " + py_repr(h) + " is a bool, not an amount");
  if (is_real(h)) throw py::type_error(std::string(field) + ": " + py_repr(h) + float_refusal());
  throw py::type_error(std::string(field) + ": expected str, int, decimal.Decimal or fractions.Fraction, got " +
                       type_name(h) + " " + py_repr(h));
}

inline py::object to_py_decimal(const Decimal& d) { return stdlib("decimal", "Decimal")(d.to_string()); }

// A library result for programs (report/value.hpp) as plain Python: dicts (keys in order), lists,
// None, bool, int, float, str, and money as decimal.Decimal: the CLI's JSON, value for value.
inline py::object to_python(const Value& v) {
  return std::visit(
      [](const auto& x) -> py::object {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::nullptr_t>) {
          return py::none();
        } else if constexpr (std::is_same_v<T, Value::Exact>) {
          return stdlib("decimal", "Decimal")(x.decimal);
        } else if constexpr (std::is_same_v<T, Value::Array>) {
          py::list l;
          for (const Value& e : x) l.append(to_python(e));
          return l;
        } else if constexpr (std::is_same_v<T, Value::Object>) {
          py::dict d;
          for (const auto& [k, e] : x) d[py::str(k)] = to_python(e);
          return d;
        } else {
          return py::cast(x);
        }
      },
      v.data());
}

inline py::object to_py_int(const Count& c) {
  return py::reinterpret_steal<py::object>(PyLong_FromString(c.str().c_str(), nullptr, 10));
}

inline Count to_count(py::handle h) {
  const std::string s = py::str(py::int_(py::reinterpret_borrow<py::object>(h)));
  return s[0] == '-' ? Count(-Count(s.substr(1))) : Count(s);
}

}  // namespace capplan::python

namespace pybind11::detail {

// capplan::Decimal <-> decimal.Decimal. Loading accepts str, int, decimal.Decimal and
// fractions.Fraction; a float raises TypeError (money is exact), bad text raises ValueError.
template <>
struct type_caster<capplan::Decimal> {
  PYBIND11_TYPE_CASTER(capplan::Decimal, const_name("decimal.Decimal"));
  bool load(handle src, bool) {
    if (!capplan::python::is_decimal_like(src)) {
      if (capplan::python::is_real(src)) throw type_error("value: " + capplan::python::py_repr(src) + capplan::python::float_refusal());
      return false;
    }
    value = capplan::python::to_decimal(src, "value");
    return true;
  }
  static handle cast(const capplan::Decimal& d, return_value_policy, handle) {
    return capplan::python::to_py_decimal(d).release();
  }
};

// capplan::Count (boost::multiprecision::cpp_int) <-> int, exact at any size.
template <>
struct type_caster<capplan::Count> {
  PYBIND11_TYPE_CASTER(capplan::Count, const_name("int"));
  bool load(handle src, bool) {
    if (!capplan::python::is_integral(src)) return false;
    value = capplan::python::to_count(src);
    return true;
  }
  static handle cast(const capplan::Count& c, return_value_policy, handle) {
    return capplan::python::to_py_int(c).release();
  }
};

}  // namespace pybind11::detail
