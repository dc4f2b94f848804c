// Readable compile errors for the mixes that make no physical sense.
//
// Boost.Units already refuses them, but with a page of template names. These overloads are
// found by argument-dependent lookup (capplan's base units are part of every quantity type),
// are viable only when Boost's own operator is not, and stop the build with a sentence that
// says what to do instead. docs/units.md lists each message next to the code that triggers it.
#pragma once

#include "capplan/units/quantity.hpp"

namespace capplan::units {

namespace guard_detail {
template <class...>
inline constexpr bool always_false = false;
}  // namespace guard_detail

template <class D1, class D2, class Y>
  requires(!std::is_same_v<D1, D2>)
void operator+(const bu::quantity<bu::unit<D1, system>, Y>&, const bu::quantity<bu::unit<D2, system>, Y>&) {
  static_assert(guard_detail::always_false<D1, D2>,
                "capplan: cannot add quantities of different dimensions (e.g. DataSize + Duration, Power + Energy). "
                "Only like quantities add; multiply or divide to get the quantity you mean "
                "(Power * Duration -> Energy, DataSize / Bandwidth -> Duration).");
}

template <class D1, class D2, class Y>
  requires(!std::is_same_v<D1, D2>)
void operator-(const bu::quantity<bu::unit<D1, system>, Y>&, const bu::quantity<bu::unit<D2, system>, Y>&) {
  static_assert(guard_detail::always_false<D1, D2>,
                "capplan: cannot subtract quantities of different dimensions (e.g. Energy - Power). "
                "Only like quantities subtract.");
}

template <class D, class Y>
  requires(!std::is_same_v<D, bu::dimensionless_type>)
void operator+(const bu::quantity<bu::unit<D, system>, Y>&, double) {
  static_assert(guard_detail::always_false<D, Y>,
                "capplan: cannot add a plain number to a quantity. Give the number a unit "
                "(using namespace capplan::literals; 80_GB, 1_h, 700_W).");
}

template <class D, class Y>
  requires(!std::is_same_v<D, bu::dimensionless_type>)
void operator+(double, const bu::quantity<bu::unit<D, system>, Y>&) {
  static_assert(guard_detail::always_false<D, Y>,
                "capplan: cannot add a plain number to a quantity. Give the number a unit "
                "(using namespace capplan::literals; 80_GB, 1_h, 700_W).");
}

template <class D1, class D2, class Y>
  requires(!std::is_same_v<D1, D2>)
bool operator<(const bu::quantity<bu::unit<D1, system>, Y>&, const bu::quantity<bu::unit<D2, system>, Y>&) {
  static_assert(guard_detail::always_false<D1, D2>,
                "capplan: cannot compare quantities of different dimensions (e.g. FlopRate < Bandwidth). "
                "To compare compute with memory traffic, compare arithmetic intensities "
                "(FlopCount / DataSize) with the ridge point (FlopRate / Bandwidth).");
  return false;
}

template <class D1, class D2, class Y>
  requires(!std::is_same_v<D1, D2>)
bool operator==(const bu::quantity<bu::unit<D1, system>, Y>&, const bu::quantity<bu::unit<D2, system>, Y>&) {
  static_assert(guard_detail::always_false<D1, D2>,
                "capplan: cannot compare quantities of different dimensions for equality.");
  return false;
}

}  // namespace capplan::units
