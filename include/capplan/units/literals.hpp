// Unit literals so that call sites show their units: 80_GB, 3.35_TBps, 989_TFLOPps, 700_W, 1_h.
//
//   using namespace capplan::literals;
//
// Decimal byte prefixes are powers of 1000 (1 GB = 1e9 B), binary ones powers of 1024
// (1 GiB = 2^30 B = 1,073,741,824 B); the two never share a symbol. A month is 730 h and a
// year 8,760 h (365 days), the conventions of cloud price sheets.
#pragma once

#include "capplan/units/guards.hpp"
#include "capplan/units/quantity.hpp"

namespace capplan {

// Scale factors to the canonical unit, shared by literals, parsing and printing.
namespace scale {
inline constexpr double kilo = 1e3, mega = 1e6, giga = 1e9, tera = 1e12, peta = 1e15, exa = 1e18, zetta = 1e21;
inline constexpr double kibi = 1024.0, mebi = kibi * 1024.0, gibi = mebi * 1024.0, tebi = gibi * 1024.0,
                        pebi = tebi * 1024.0;
inline constexpr double minute = 60.0, hour = 3600.0, day = 86400.0;
inline constexpr double month = 730.0 * hour;  // 730 h = 8,760 h / 12, as cloud price sheets use
inline constexpr double year = 8760.0 * hour;  // 365 days
inline constexpr double watt_hour = 3600.0;    // J
inline constexpr double bit = 1.0 / 8.0;       // B
}  // namespace scale

namespace literals {

#define CAPPLAN_DEFINE_LITERAL(Quantity, suffix, factor)                                       \
  constexpr Quantity operator""_##suffix(long double v) {                                      \
    return Quantity::from_value(static_cast<double>(v) * (factor));                            \
  }                                                                                            \
  constexpr Quantity operator""_##suffix(unsigned long long v) {                               \
    return Quantity::from_value(static_cast<double>(v) * (factor));                            \
  }

// Data size
CAPPLAN_DEFINE_LITERAL(DataSize, B, 1.0)
CAPPLAN_DEFINE_LITERAL(DataSize, kB, scale::kilo)
CAPPLAN_DEFINE_LITERAL(DataSize, MB, scale::mega)
CAPPLAN_DEFINE_LITERAL(DataSize, GB, scale::giga)
CAPPLAN_DEFINE_LITERAL(DataSize, TB, scale::tera)
CAPPLAN_DEFINE_LITERAL(DataSize, PB, scale::peta)
CAPPLAN_DEFINE_LITERAL(DataSize, KiB, scale::kibi)
CAPPLAN_DEFINE_LITERAL(DataSize, MiB, scale::mebi)
CAPPLAN_DEFINE_LITERAL(DataSize, GiB, scale::gibi)
CAPPLAN_DEFINE_LITERAL(DataSize, TiB, scale::tebi)
CAPPLAN_DEFINE_LITERAL(DataSize, bit, scale::bit)
// Bandwidth
CAPPLAN_DEFINE_LITERAL(Bandwidth, Bps, 1.0)
CAPPLAN_DEFINE_LITERAL(Bandwidth, kBps, scale::kilo)
CAPPLAN_DEFINE_LITERAL(Bandwidth, MBps, scale::mega)
CAPPLAN_DEFINE_LITERAL(Bandwidth, GBps, scale::giga)
CAPPLAN_DEFINE_LITERAL(Bandwidth, TBps, scale::tera)
CAPPLAN_DEFINE_LITERAL(Bandwidth, GiBps, scale::gibi)
CAPPLAN_DEFINE_LITERAL(Bandwidth, bps, scale::bit)
CAPPLAN_DEFINE_LITERAL(Bandwidth, Mbps, scale::mega* scale::bit)
CAPPLAN_DEFINE_LITERAL(Bandwidth, Gbps, scale::giga* scale::bit)
CAPPLAN_DEFINE_LITERAL(Bandwidth, Tbps, scale::tera* scale::bit)
// Time
CAPPLAN_DEFINE_LITERAL(Duration, s, 1.0)
CAPPLAN_DEFINE_LITERAL(Duration, ms, 1e-3)
CAPPLAN_DEFINE_LITERAL(Duration, us, 1e-6)
CAPPLAN_DEFINE_LITERAL(Duration, min, scale::minute)
CAPPLAN_DEFINE_LITERAL(Duration, h, scale::hour)
CAPPLAN_DEFINE_LITERAL(Duration, day, scale::day)
CAPPLAN_DEFINE_LITERAL(Duration, days, scale::day)
CAPPLAN_DEFINE_LITERAL(Duration, month, scale::month)
CAPPLAN_DEFINE_LITERAL(Duration, months, scale::month)
CAPPLAN_DEFINE_LITERAL(Duration, year, scale::year)
CAPPLAN_DEFINE_LITERAL(Duration, years, scale::year)
// Power
CAPPLAN_DEFINE_LITERAL(Power, W, 1.0)
CAPPLAN_DEFINE_LITERAL(Power, kW, scale::kilo)
CAPPLAN_DEFINE_LITERAL(Power, MW, scale::mega)
// Energy
CAPPLAN_DEFINE_LITERAL(Energy, J, 1.0)
CAPPLAN_DEFINE_LITERAL(Energy, kJ, scale::kilo)
CAPPLAN_DEFINE_LITERAL(Energy, MJ, scale::mega)
CAPPLAN_DEFINE_LITERAL(Energy, Wh, scale::watt_hour)
CAPPLAN_DEFINE_LITERAL(Energy, kWh, scale::kilo* scale::watt_hour)
CAPPLAN_DEFINE_LITERAL(Energy, MWh, scale::mega* scale::watt_hour)
CAPPLAN_DEFINE_LITERAL(Energy, GWh, scale::giga* scale::watt_hour)
// Computation
CAPPLAN_DEFINE_LITERAL(FlopCount, FLOP, 1.0)
CAPPLAN_DEFINE_LITERAL(FlopCount, GFLOP, scale::giga)
CAPPLAN_DEFINE_LITERAL(FlopCount, TFLOP, scale::tera)
CAPPLAN_DEFINE_LITERAL(FlopCount, PFLOP, scale::peta)
CAPPLAN_DEFINE_LITERAL(FlopCount, EFLOP, scale::exa)
CAPPLAN_DEFINE_LITERAL(FlopCount, ZFLOP, scale::zetta)
CAPPLAN_DEFINE_LITERAL(FlopRate, FLOPps, 1.0)
CAPPLAN_DEFINE_LITERAL(FlopRate, GFLOPps, scale::giga)
CAPPLAN_DEFINE_LITERAL(FlopRate, TFLOPps, scale::tera)
CAPPLAN_DEFINE_LITERAL(FlopRate, PFLOPps, scale::peta)
CAPPLAN_DEFINE_LITERAL(FlopRate, EFLOPps, scale::exa)
// Length
CAPPLAN_DEFINE_LITERAL(Length, mm, 1e-3)
CAPPLAN_DEFINE_LITERAL(Length, m, 1.0)
// Arithmetic intensity
CAPPLAN_DEFINE_LITERAL(ArithmeticIntensity, FLOP_per_B, 1.0)
// Carbon
CAPPLAN_DEFINE_LITERAL(CarbonMass, kgCO2e, 1.0)
CAPPLAN_DEFINE_LITERAL(CarbonMass, tCO2e, 1000.0)
CAPPLAN_DEFINE_LITERAL(CarbonIntensity, kgCO2e_per_kWh, 1.0 / (scale::kilo * scale::watt_hour))
CAPPLAN_DEFINE_LITERAL(CarbonIntensity, gCO2e_per_kWh, 1e-3 / (scale::kilo * scale::watt_hour))

#undef CAPPLAN_DEFINE_LITERAL

}  // namespace literals
}  // namespace capplan
