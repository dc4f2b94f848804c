// Readable compile errors for the mixes that make no physical sense.
//
// Boost.Units already refuses them, but with a page of template names. These overloads are
// found by argument-dependent lookup (capplan's base units are part of every quantity type)
// and are viable only when Boost's own operator is not, so overload resolution picks them.
// They are deleted rather than defined with a failing static_assert: a deleted function makes
// the expression itself ill-formed, so `requires (DataSize a, Duration b) { a + b; }` and every
// concept built like it answer "no", where a static_assert in a body would fire only once the
// call is compiled and a `requires` would answer "yes".
//
// The message travels in the two places g++ prints for a deleted function: the return type
// (a tag type named after the mistake, first in "use of deleted function '...'") and the source
// line that names the operator, quoted under "note: declared here": that line carries the full
// sentence with the advice, so keep it there. docs/units.md shows the real output.
#pragma once

#include "capplan/units/quantity.hpp"

namespace capplan::units {

// Return types of the refusals: names for the compiler's message. Complete (empty), since clang
// rejects a deleted definition whose result type is incomplete; no value of them is ever made.
namespace guard {
struct cannot_add_quantities_of_different_dimensions {};
struct cannot_subtract_quantities_of_different_dimensions {};
struct cannot_add_a_plain_number_to_a_quantity {};
struct cannot_compare_quantities_of_different_dimensions {};
}  // namespace guard

template <class D1, class D2, class Y>
  requires(!std::is_same_v<D1, D2>)
guard::cannot_add_quantities_of_different_dimensions
operator+(  // capplan: cannot add quantities of different dimensions (e.g. DataSize + Duration, Power + Energy). Only like quantities add; multiply or divide to get the quantity you mean (Power * Duration -> Energy, DataSize / Bandwidth -> Duration).
    const bu::quantity<bu::unit<D1, system>, Y>&, const bu::quantity<bu::unit<D2, system>, Y>&) = delete;

template <class D1, class D2, class Y>
  requires(!std::is_same_v<D1, D2>)
guard::cannot_subtract_quantities_of_different_dimensions
operator-(  // capplan: cannot subtract quantities of different dimensions (e.g. Energy - Power). Only like quantities subtract.
    const bu::quantity<bu::unit<D1, system>, Y>&, const bu::quantity<bu::unit<D2, system>, Y>&) = delete;

template <class D, class Y>
  requires(!std::is_same_v<D, bu::dimensionless_type>)
guard::cannot_add_a_plain_number_to_a_quantity
operator+(  // capplan: cannot add a plain number to a quantity. Give the number a unit (using namespace capplan::literals; 80_GB, 1_h, 700_W).
    const bu::quantity<bu::unit<D, system>, Y>&, double) = delete;

template <class D, class Y>
  requires(!std::is_same_v<D, bu::dimensionless_type>)
guard::cannot_add_a_plain_number_to_a_quantity
operator+(  // capplan: cannot add a plain number to a quantity. Give the number a unit (using namespace capplan::literals; 80_GB, 1_h, 700_W).
    double, const bu::quantity<bu::unit<D, system>, Y>&) = delete;

template <class D1, class D2, class Y>
  requires(!std::is_same_v<D1, D2>)
guard::cannot_compare_quantities_of_different_dimensions
operator<(  // capplan: cannot compare quantities of different dimensions (e.g. FlopRate < Bandwidth). To compare compute with memory traffic, compare arithmetic intensities (FlopCount / DataSize) with the ridge point (FlopRate / Bandwidth).
    const bu::quantity<bu::unit<D1, system>, Y>&, const bu::quantity<bu::unit<D2, system>, Y>&) = delete;

template <class D1, class D2, class Y>
  requires(!std::is_same_v<D1, D2>)
bool  // not a tag: `a != b` is rewritten to `!(a == b)`, and a non-bool == adds a second, confusing error
operator==(  // capplan: cannot compare quantities of different dimensions for equality.
    const bu::quantity<bu::unit<D1, system>, Y>&, const bu::quantity<bu::unit<D2, system>, Y>&) = delete;

}  // namespace capplan::units
