// Python classes for capplan's quantities (capplan/units): DataSize, Duration, FlopCount,
// FlopRate, Bandwidth, Power, Energy, ArithmeticIntensity, CarbonMass, CarbonIntensity, Length.
//
//   DataSize(80, "GB")   DataSize("80 GB")   DataSize.from_value(8e10)   (canonical unit: B)
//   q.to("GiB") -> float   q.value -> float (canonical)   str(q) -> "80 GB"   q.format(significant=3)
#pragma once

#include "arithmetic.hpp"
#include "convert.hpp"

#include <capplan/units/count.hpp>
#include <capplan/units/format.hpp>
#include <capplan/units/parse.hpp>
#include <capplan/units/unit_tables.hpp>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace capplan::python {

namespace py = pybind11;

namespace units_detail {

template <class Q>
std::string known_units() {
  std::string out;
  for (const auto& u : units::role<Q>::symbols) {
    if (!out.empty()) out += ", ";
    out += u.symbol;
  }
  return out;
}

// Q from a number and a unit symbol of Q's role ("GB", "GiB", "h", "kWh", ...).
template <class Q>
Q from_unit(double v, const std::string& unit) {
  require_finite(v, "value");
  for (const auto& u : units::role<Q>::symbols) {
    if (u.symbol == unit) {
      const double canonical = v * u.factor;
      if (std::isinf(canonical)) detail::fail("value", detail::format_double(v) + " " + unit, "is out of range");
      return Q::from_value(canonical);
    }
  }
  detail::fail("unit", "\"" + unit + "\"",
               "is not a unit of " + std::string(units::role<Q>::name) + "; known units: " + known_units<Q>());
}

// Q(value, unit) or Q(text).
template <class Q>
Q make(const py::object& value, const std::optional<std::string>& unit) {
  const std::string name = traits<Q>::name;
  if (is_str(value)) {
    if (unit) {
      throw py::type_error(name + "(" + py_repr(value) + ", '" + *unit +
                           "'): give either one string or a number and a unit, not both, e.g. " + traits<Q>::example);
    }
    return capplan::parse<Q>(value.cast<std::string>());
  }
  if (!is_real(value)) {
    throw py::type_error(name + ": expected a number and a unit, e.g. " + traits<Q>::example +
                         ", or the same as one string; got " + type_name(value) + " " + py_repr(value));
  }
  if (!unit) {
    throw py::type_error(name + "(" + py_repr(value) + ") needs a unit, e.g. " + traits<Q>::example + "; use " + name +
                         ".from_value(x) for a value in " + traits<Q>::canonical);
  }
  return from_unit<Q>(py::float_(value).cast<double>(), *unit);
}

}  // namespace units_detail

template <class Q>
void bind_quantity(py::module_& m, const char* doc) {
  py::class_<Q> c(m, traits<Q>::name, doc);
  c.def(py::init([](const py::object& value, const std::optional<std::string>& unit) {
          return units_detail::make<Q>(value, unit);
        }),
        py::arg("value"), py::arg("unit") = py::none(),
        "From a number and a unit symbol of this role, or from text such as '80 GB'.");
  c.def_static(
      "from_value",
      [](double v) {
        require_finite(v, "value");
        return Q::from_value(v);
      },
      py::arg("value"), "From a value already in the canonical unit.");
  c.def_static(
      "units",
      []() {
        std::vector<std::string> out;
        for (const auto& u : units::role<Q>::symbols) out.emplace_back(u.symbol);
        return out;
      },
      "The unit symbols this role accepts, for construction, parsing and to().");
  c.attr("canonical_unit") = traits<Q>::canonical;
  c.attr("role") = std::string(units::role<Q>::name);
  c.def_property_readonly(
      "value", [](const Q& q) { return q.value(); }, "The value in the canonical unit (canonical_unit).");
  c.def(
      "to", [](const Q& q, const std::string& unit) { return capplan::in(q, unit); }, py::arg("unit"),
      "The value in a named unit of this role: DataSize(80, 'GB').to('GiB') == 74.505...");
  c.def(
      "format",
      [](const Q& q, int significant, bool trim_zeros, Prefixes prefixes, bool bits) {
        return capplan::format(q, FormatOptions{significant, trim_zeros, prefixes, bits});
      },
      py::kw_only(), py::arg("significant") = 4, py::arg("trim_zeros") = true,
      py::arg("prefixes") = Prefixes::decimal, py::arg("bits") = false,
      "capplan::format: significant digits (1..17), an automatic prefix; binary prefixes for data sizes and "
      "bandwidths when asked, bit/s for bandwidths when bits=True.");
  c.def("__str__", [](const Q& q) { return capplan::format(q); });
  c.def("__repr__", [](const Q& q) {
    return std::string(traits<Q>::name) + "('" + capplan::format(q, FormatOptions{.significant = 17}) + "')";
  });
  c.def("__hash__", [](const Q& q) { return py::hash(py::make_tuple(traits<Q>::name, q.value())); });
  c.def("__abs__", [](const Q& q) { return Q::from_value(std::fabs(q.value())); });
  def_operators<Q>(c);
  c.def(py::pickle([](const Q& q) { return py::make_tuple(q.value()); },
                   [](const py::tuple& t) { return Q::from_value(t[0].cast<double>()); }));
}

inline void bind_units(py::module_& m) {
  py::enum_<Prefixes> prefixes(m, "Prefixes", "Decimal (GB = 1e9 B) or binary (GiB = 2^30 B) prefixes when printing.");
  refuse_unknown_values(prefixes, "Prefixes");
  prefixes
      .value("decimal", Prefixes::decimal)
      .value("binary", Prefixes::binary);

  bind_quantity<DataSize>(m, "An amount of data; canonical unit B. Decimal (GB = 1e9 B) and binary (GiB = 2^30 B) "
                             "prefixes are distinct.");
  bind_quantity<Duration>(m, "A length of time; canonical unit s. A month is 730 h and a year 8,760 h.");
  bind_quantity<FlopCount>(m, "An amount of computation; canonical unit FLOP.");
  bind_quantity<FlopRate>(m, "A rate of computation; canonical unit FLOP/s.");
  bind_quantity<Bandwidth>(m, "A data rate; canonical unit B/s (bit/s units are accepted).");
  bind_quantity<Power>(m, "Power; canonical unit W.");
  bind_quantity<Energy>(m, "Energy; canonical unit J (kWh = 3.6e6 J).");
  bind_quantity<ArithmeticIntensity>(m, "FLOP per byte of memory traffic; canonical unit FLOP/B.");
  bind_quantity<CarbonMass>(m, "Greenhouse-gas emissions; canonical unit kg CO2e.");
  bind_quantity<CarbonIntensity>(m, "Emissions per energy; canonical unit kg CO2e / J (printed per kWh).");
  bind_quantity<Length>(m, "A physical length (a card, a case's clearance); canonical unit m, printed in mm; inches accepted.");

  m.def("format_number", &capplan::format_number, py::arg("value"), py::arg("significant") = 4,
        py::arg("trim_zeros") = true, "A number with `significant` digits, as capplan prints quantities.");
  m.def(
      "parse_count", [](const std::string& text, const std::string& field) { return capplan::parse_count(text, field); },
      py::arg("text"), py::arg("field") = "count",
      "An exact non-negative integer from digits or integral scientific notation: '174.6e9' -> 174600000000.");
}

}  // namespace capplan::python
