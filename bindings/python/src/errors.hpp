// capplan's C++ exceptions as Python exceptions, with the message unchanged:
//
//   C++                      Python                                   attributes
//   capplan::InputError      capplan.InputError(ValueError)           field, value
//   capplan::ParseError      capplan.ParseError(InputError)           field, value
//   capplan::CurrencyError   capplan.CurrencyError(InputError)        field, value
//   capplan::LookupError     capplan.LookupError(InputError, builtins.LookupError)
//   std::overflow_error      OverflowError                            (pybind11's own translation)
#pragma once

#include <capplan/error.hpp>

#include <pybind11/pybind11.h>

namespace capplan::python {

namespace py = pybind11;

struct ErrorTypes {
  PyObject* input = nullptr;
  PyObject* parse = nullptr;
  PyObject* currency = nullptr;
  PyObject* lookup = nullptr;
};

// Created once per process by bind_errors; the module holds them, so they live for ever.
inline ErrorTypes& error_types() {
  static ErrorTypes types;
  return types;
}

namespace errors_detail {

inline PyObject* new_type(py::module_& m, const char* name, py::tuple bases, const char* doc) {
  const std::string qualified = std::string("capplan.") + name;
  PyObject* t = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (t == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(t));
  return t;
}

// Raises `type` with the C++ message and the field and value as attributes.
inline void raise(PyObject* type, const InputError& e) {
  try {
    py::object instance = py::reinterpret_borrow<py::object>(type)(e.what());
    instance.attr("field") = e.field();
    instance.attr("value") = e.value();
    PyErr_SetObject(type, instance.ptr());
  } catch (py::error_already_set& err) {
    err.restore();
  }
}

}  // namespace errors_detail

inline void bind_errors(py::module_& m) {
  using errors_detail::new_type;
  ErrorTypes& t = error_types();
  t.input = new_type(m, "InputError", py::make_tuple(py::handle(PyExc_ValueError)),
                     "A bad value for a named input. `field` names the input, `value` quotes it.");
  t.parse = new_type(m, "ParseError", py::make_tuple(py::handle(t.input)),
                     "Text that is not a quantity, an amount of money or a count.");
  t.currency = new_type(m, "CurrencyError", py::make_tuple(py::handle(t.input)),
                        "Two currencies mixed without an exchange rate.");
  t.lookup = new_type(m, "LookupError", py::make_tuple(py::handle(t.input), py::handle(PyExc_LookupError)),
                      "An unknown or ambiguous name; the message lists close matches.");

  py::register_exception_translator([](std::exception_ptr p) {
    const ErrorTypes& types = error_types();
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ParseError& e) {
      errors_detail::raise(types.parse, e);
    } catch (const CurrencyError& e) {
      errors_detail::raise(types.currency, e);
    } catch (const LookupError& e) {
      errors_detail::raise(types.lookup, e);
    } catch (const InputError& e) {
      errors_detail::raise(types.input, e);
    }
  });
}

}  // namespace capplan::python
