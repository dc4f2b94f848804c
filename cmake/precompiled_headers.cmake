# Precompiled headers for capplan's own programs (tests, command-line tool, Python extension): the
# heavy third-party and standard headers the library includes, parsed once per target instead of
# once per translation unit. Consumers of the header-only library are not affected.
# Off with -DCAPPLAN_PCH=OFF (e.g. to check that every source includes what it uses).
option(CAPPLAN_PCH "Precompile the heavy dependency headers of capplan's own targets" ON)

# The Boost headers capplan's public headers include, then those of the standard library.
set(CAPPLAN_PCH_BOOST_HEADERS
  <boost/units/base_dimension.hpp>
  <boost/units/base_unit.hpp>
  <boost/units/derived_dimension.hpp>
  <boost/units/make_system.hpp>
  <boost/units/quantity.hpp>
  <boost/units/unit.hpp>
  <boost/units/systems/si/base.hpp>
  <boost/units/physical_dimensions/energy.hpp>
  <boost/units/physical_dimensions/length.hpp>
  <boost/units/physical_dimensions/mass.hpp>
  <boost/units/physical_dimensions/power.hpp>
  <boost/units/physical_dimensions/time.hpp>
  <boost/multiprecision/cpp_int.hpp>
  <boost/describe/class.hpp>
  <boost/describe/enum.hpp>
  <boost/describe/members.hpp>
  <boost/describe/modifiers.hpp>
  <boost/mp11/algorithm.hpp>)
set(CAPPLAN_PCH_HEADERS ${CAPPLAN_PCH_BOOST_HEADERS}
  <algorithm> <array> <cmath> <compare> <concepts> <cstdint> <functional> <limits> <map> <memory>
  <optional> <set> <span> <sstream> <stdexcept> <string> <string_view> <tuple> <type_traits>
  <utility> <variant> <vector>)

# capplan_precompile_headers(<target> [<header>...]): the list above plus the target's own heavy
# dependencies (e.g. <nlohmann/json.hpp>, <CLI/CLI.hpp>, <doctest/doctest.h>, <pybind11/pybind11.h>).
function(capplan_precompile_headers target)
  if(CAPPLAN_PCH)
    target_precompile_headers(${target} PRIVATE ${CAPPLAN_PCH_HEADERS} ${ARGN})
  endif()
endfunction()

# capplan_precompile_boost_headers(<target>): the Boost list alone. For the header self-containment
# check: a capplan header that forgets a standard or capplan header still fails to compile alone.
function(capplan_precompile_boost_headers target)
  if(CAPPLAN_PCH)
    target_precompile_headers(${target} PRIVATE ${CAPPLAN_PCH_BOOST_HEADERS})
  endif()
endfunction()
