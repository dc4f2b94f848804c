// The bind_<area> functions defined in their own translation units (bindings/python/src/<area>.cpp),
// called in order by PYBIND11_MODULE in capplan_core.cpp. Types an area returns must be bound by
// an area called before any Python code can see them (all areas run at import time, so any order
// works for return types; default arguments of a bound type need that type bound first).
#pragma once

#include <pybind11/pybind11.h>

namespace capplan::python {

namespace py = pybind11;

// NumPy sweeps over grids of inputs (sweeps.cpp).
void bind_sweeps(py::module_& m);

}  // namespace capplan::python
