// capplan._core: the compiled half of the `capplan` Python package.
//
// One translation unit; each area of the C++ library is bound by one bind_<area>(module)
// function in its own header beside this file, so a new area adds a header and one call here.
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
}
