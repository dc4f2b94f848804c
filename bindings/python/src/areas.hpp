// The bind_<area> functions defined in their own translation units (bindings/python/src/<area>.cpp),
// called in order by PYBIND11_MODULE in capplan_core.cpp. Types an area returns must be bound by
// an area called before any Python code can see them (all areas run at import time, so any order
// works for return types; default arguments of a bound type need that type bound first).
#pragma once

#include <pybind11/pybind11.h>

namespace capplan::python {

namespace py = pybind11;

// Hardware records, the catalog and workload shapes (records.cpp).
void bind_records(py::module_& m);
// FLOP counts, memory budgets and fit solvers (calculations.cpp).
void bind_calculations(py::module_& m);
// The performance model: training, plan search, inference, CNNs, roofline, collectives (perf.cpp).
void bind_perf(py::module_& m);
// Power, energy, carbon and cost over time (costs.cpp).
void bind_costs(py::module_& m);
// Report tables and their renderers (report.cpp).
void bind_report(py::module_& m);
// The purchase comparison and the training / serving runs it is built from (purchase.cpp).
void bind_purchase(py::module_& m);

// NumPy sweeps over grids of inputs (sweeps.cpp).
void bind_sweeps(py::module_& m);

}  // namespace capplan::python
