// Checked quantities on Boost.Units: capplan's base dimensions, its unit system and the
// role-named aliases every public function takes and returns.
//
// The system is SI (metre, kilogram, second) plus four base dimensions of our own:
// information (byte), computation (FLOP), carbon (kg CO2e) and currency. Every alias is a
// quantity stored in that system's coherent unit, so 80 GB is stored as 8e10 B and 1 h as
// 3600 s. Arithmetic on these aliases compiles to the same instructions as on double
// (bench/units_bench.cpp measures it); only physically meaningful mixes compile.
#pragma once

#include <boost/units/base_dimension.hpp>
#include <boost/units/base_unit.hpp>
#include <boost/units/derived_dimension.hpp>
#include <boost/units/make_system.hpp>
#include <boost/units/quantity.hpp>
#include <boost/units/unit.hpp>
#include <boost/units/physical_dimensions/energy.hpp>
#include <boost/units/physical_dimensions/length.hpp>
#include <boost/units/physical_dimensions/power.hpp>
#include <boost/units/physical_dimensions/time.hpp>
#include <boost/units/systems/si/base.hpp>

#include <type_traits>

namespace capplan::units {

namespace bu = boost::units;

// Boost.Units requires base-dimension ordinals to be unique and positive; SI uses -9..-3.
struct information_base_dimension : bu::base_dimension<information_base_dimension, 101> {};
struct computation_base_dimension : bu::base_dimension<computation_base_dimension, 102> {};
struct carbon_base_dimension : bu::base_dimension<carbon_base_dimension, 103> {};
struct currency_base_dimension : bu::base_dimension<currency_base_dimension, 104> {};

using information_dimension = information_base_dimension::dimension_type;
using computation_dimension = computation_base_dimension::dimension_type;
using carbon_dimension = carbon_base_dimension::dimension_type;
using currency_dimension = currency_base_dimension::dimension_type;
using time_dimension = bu::time_dimension;
using length_dimension = bu::length_dimension;
using energy_dimension = bu::energy_dimension;
using power_dimension = bu::power_dimension;

struct byte_base_unit : bu::base_unit<byte_base_unit, information_dimension, 101> {
  static const char* name() { return "byte"; }
  static const char* symbol() { return "B"; }
};
struct flop_base_unit : bu::base_unit<flop_base_unit, computation_dimension, 102> {
  static const char* name() { return "floating-point operation"; }
  static const char* symbol() { return "FLOP"; }
};
struct co2e_base_unit : bu::base_unit<co2e_base_unit, carbon_dimension, 103> {
  static const char* name() { return "kilogram CO2-equivalent"; }
  static const char* symbol() { return "kgCO2e"; }
};
struct currency_base_unit : bu::base_unit<currency_base_unit, currency_dimension, 104> {
  static const char* name() { return "currency unit"; }
  static const char* symbol() { return "¤"; }
};

using system = bu::make_system<bu::si::meter_base_unit, bu::si::kilogram_base_unit, bu::si::second_base_unit,
                               byte_base_unit, flop_base_unit, co2e_base_unit, currency_base_unit>::type;

// Coherent units of the system (the canonical storage unit of each role).
using byte_unit = bu::unit<information_dimension, system>;
using flop_unit = bu::unit<computation_dimension, system>;
using second_unit = bu::unit<time_dimension, system>;
using metre_unit = bu::unit<length_dimension, system>;
using watt_unit = bu::unit<power_dimension, system>;
using joule_unit = bu::unit<energy_dimension, system>;
using co2e_unit = bu::unit<carbon_dimension, system>;
using currency_unit = bu::unit<currency_dimension, system>;
using flop_per_second_unit = bu::divide_typeof_helper<flop_unit, second_unit>::type;
using byte_per_second_unit = bu::divide_typeof_helper<byte_unit, second_unit>::type;
using flop_per_byte_unit = bu::divide_typeof_helper<flop_unit, byte_unit>::type;
using co2e_per_joule_unit = bu::divide_typeof_helper<co2e_unit, joule_unit>::type;

inline constexpr byte_unit byte{};
inline constexpr flop_unit flop{};
inline constexpr second_unit second{};
inline constexpr metre_unit metre{};
inline constexpr watt_unit watt{};
inline constexpr joule_unit joule{};
inline constexpr co2e_unit kg_co2e{};

}  // namespace capplan::units

namespace capplan {

// Role-named quantities; each stores its value in the canonical unit named beside it.
using DataSize = boost::units::quantity<units::byte_unit>;                        // B
using Duration = boost::units::quantity<units::second_unit>;                      // s
using FlopCount = boost::units::quantity<units::flop_unit>;                       // FLOP
using FlopRate = boost::units::quantity<units::flop_per_second_unit>;             // FLOP/s
using Bandwidth = boost::units::quantity<units::byte_per_second_unit>;            // B/s
using Power = boost::units::quantity<units::watt_unit>;                           // W
using Energy = boost::units::quantity<units::joule_unit>;                         // J
using ArithmeticIntensity = boost::units::quantity<units::flop_per_byte_unit>;    // FLOP/B
using CarbonMass = boost::units::quantity<units::co2e_unit>;                      // kg CO2e
using CarbonIntensity = boost::units::quantity<units::co2e_per_joule_unit>;       // kg CO2e / J
using Length = boost::units::quantity<units::metre_unit>;                         // m (a card's length, a case's clearance)

// The value of a quantity in its canonical unit (bytes, seconds, FLOP, ...).
template <class Unit, class Y>
constexpr Y canonical_value(const boost::units::quantity<Unit, Y>& q) noexcept {
  return q.value();
}

// Builds a quantity from a value already in the canonical unit.
template <class Q>
constexpr Q from_canonical(double v) noexcept {
  return Q::from_value(v);
}

template <class T>
struct is_quantity : std::false_type {};
template <class Unit, class Y>
struct is_quantity<boost::units::quantity<Unit, Y>> : std::true_type {};
template <class T>
inline constexpr bool is_quantity_v = is_quantity<T>::value;

}  // namespace capplan
