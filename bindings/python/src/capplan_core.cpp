// capplan._core: the compiled half of the `capplan` Python package.
//
// This file defines the module. Each area of the C++ library is bound by one bind_<area>(module)
// function: small areas in a header beside this file, heavy ones in their own src/<area>.cpp
// translation unit (declared in areas.hpp), so they compile in parallel. A new area adds its
// function and one call here.
#include "areas.hpp"
#include "errors.hpp"
#include "money.hpp"
#include "units.hpp"

#include <capplan/version.hpp>

#include <pybind11/pybind11.h>

PYBIND11_MODULE(_core, m) {
  m.doc() = "capplan's C++ core: checked quantities and exact money (see the `capplan` package).";
  m.attr("__version__") = capplan::version_string;
  capplan::python::bind_errors(m);
  capplan::python::bind_units(m);
  capplan::python::bind_money(m);
  capplan::python::bind_records(m);
  capplan::python::bind_calculations(m);
  capplan::python::bind_perf(m);
  capplan::python::bind_costs(m);
  capplan::python::bind_report(m);
  capplan::python::bind_purchase(m);
  capplan::python::bind_sweeps(m);
}
