// Helpers every test file may use, defined once (the test files are also compiled as one unity
// translation unit by the `test` preset, where two definitions of a helper would clash).
#pragma once

#include <capplan/error.hpp>

#include <cmath>
#include <string>

namespace capplan::test_support {

// |got - want| / want: the relative error against a published or derived figure.
inline double rel(double got, double want) { return std::abs(got - want) / want; }

// The field an InputError names when f() throws one; "(no error)" when it throws nothing.
template <class F>
std::string field_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.field();
  }
  return "(no error)";
}

}  // namespace capplan::test_support
