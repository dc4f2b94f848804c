// The unit symbols capplan prints and parses, per role: symbol -> factor to the canonical unit.
// One table serves both directions so printing and parsing cannot disagree.
#pragma once

#include "capplan/units/literals.hpp"

#include <span>
#include <string_view>

namespace capplan::units {

struct UnitSymbol {
  std::string_view symbol;
  double factor;       // canonical units per one of this unit
  bool printable;      // used when printing (false: accepted when parsing only)
};

// Decimal prefixes print by default; binary ones when asked. Order: ascending factor.
inline constexpr UnitSymbol data_size_symbols[] = {
    {"B", 1.0, true},           {"kB", scale::kilo, true},   {"MB", scale::mega, true},
    {"GB", scale::giga, true},  {"TB", scale::tera, true},   {"PB", scale::peta, true},
    {"EB", scale::exa, true},   {"KiB", scale::kibi, false}, {"MiB", scale::mebi, false},
    {"GiB", scale::gibi, false}, {"TiB", scale::tebi, false}, {"PiB", scale::pebi, false},
    {"KB", scale::kilo, false}, {"byte", 1.0, false},         {"bytes", 1.0, false},
    {"bit", scale::bit, false}, {"bits", scale::bit, false},
};
inline constexpr UnitSymbol data_size_binary_symbols[] = {
    {"B", 1.0, true},          {"KiB", scale::kibi, true}, {"MiB", scale::mebi, true},
    {"GiB", scale::gibi, true}, {"TiB", scale::tebi, true}, {"PiB", scale::pebi, true},
};
inline constexpr UnitSymbol bandwidth_symbols[] = {
    {"B/s", 1.0, true},
    {"kB/s", scale::kilo, true},
    {"MB/s", scale::mega, true},
    {"GB/s", scale::giga, true},
    {"TB/s", scale::tera, true},
    {"PB/s", scale::peta, true},
    {"Bps", 1.0, false},
    {"kBps", scale::kilo, false},
    {"MBps", scale::mega, false},
    {"GBps", scale::giga, false},
    {"TBps", scale::tera, false},
    {"KiB/s", scale::kibi, false},
    {"MiB/s", scale::mebi, false},
    {"GiB/s", scale::gibi, false},
    {"TiB/s", scale::tebi, false},
    {"bit/s", scale::bit, false},
    {"kbit/s", scale::kilo * scale::bit, false},
    {"Mbit/s", scale::mega * scale::bit, false},
    {"Gbit/s", scale::giga * scale::bit, false},
    {"Tbit/s", scale::tera * scale::bit, false},
    {"bps", scale::bit, false},
    {"Mbps", scale::mega * scale::bit, false},
    {"Gbps", scale::giga * scale::bit, false},
    {"Tbps", scale::tera * scale::bit, false},
    // NIC and switch datasheets write bits with a lower-case b: "400Gb/s" (IEEE 802.3, InfiniBand).
    {"Mb/s", scale::mega * scale::bit, false},
    {"Gb/s", scale::giga * scale::bit, false},
    {"Tb/s", scale::tera * scale::bit, false},
};
inline constexpr UnitSymbol bandwidth_binary_symbols[] = {
    {"B/s", 1.0, true},          {"KiB/s", scale::kibi, true}, {"MiB/s", scale::mebi, true},
    {"GiB/s", scale::gibi, true}, {"TiB/s", scale::tebi, true},
};
inline constexpr UnitSymbol bit_rate_symbols[] = {
    {"bit/s", scale::bit, true},
    {"kbit/s", scale::kilo * scale::bit, true},
    {"Mbit/s", scale::mega * scale::bit, true},
    {"Gbit/s", scale::giga * scale::bit, true},
    {"Tbit/s", scale::tera * scale::bit, true},
};
inline constexpr UnitSymbol duration_symbols[] = {
    {"ps", 1e-12, true},         {"ns", 1e-9, true},          {"µs", 1e-6, true},          {"ms", 1e-3, true},
    {"s", 1.0, true},            {"min", scale::minute, true}, {"h", scale::hour, true},
    {"days", scale::day, true},  {"years", scale::year, true}, {"us", 1e-6, false},
    {"sec", 1.0, false},         {"second", 1.0, false},       {"seconds", 1.0, false},
    {"minute", scale::minute, false}, {"minutes", scale::minute, false}, {"hr", scale::hour, false},
    {"hour", scale::hour, false}, {"hours", scale::hour, false}, {"d", scale::day, false},
    {"day", scale::day, false},  {"week", 7 * scale::day, false}, {"weeks", 7 * scale::day, false},
    {"month", scale::month, false}, {"months", scale::month, false}, {"year", scale::year, false},
    {"y", scale::year, false},   {"yr", scale::year, false},
};
inline constexpr UnitSymbol power_symbols[] = {
    {"mW", 1e-3, true}, {"W", 1.0, true}, {"kW", scale::kilo, true}, {"MW", scale::mega, true},
    {"GW", scale::giga, true},
};
inline constexpr UnitSymbol energy_symbols[] = {
    {"J", 1.0, true},
    {"Wh", scale::watt_hour, true},
    {"kWh", scale::kilo * scale::watt_hour, true},
    {"MWh", scale::mega * scale::watt_hour, true},
    {"GWh", scale::giga * scale::watt_hour, true},
    {"TWh", scale::tera * scale::watt_hour, true},
    {"kJ", scale::kilo, false},
    {"MJ", scale::mega, false},
    {"GJ", scale::giga, false},
};
inline constexpr UnitSymbol flop_count_symbols[] = {
    {"FLOP", 1.0, true},           {"kFLOP", scale::kilo, true},  {"MFLOP", scale::mega, true},
    {"GFLOP", scale::giga, true},  {"TFLOP", scale::tera, true},  {"PFLOP", scale::peta, true},
    {"EFLOP", scale::exa, true},   {"ZFLOP", scale::zetta, true}, {"YFLOP", 1e24, true},
    {"FLOPs", 1.0, false},         {"GFLOPs", scale::giga, false}, {"TFLOPs", scale::tera, false},
    {"PFLOPs", scale::peta, false}, {"EFLOPs", scale::exa, false}, {"ZFLOPs", scale::zetta, false},
    {"PF-days", scale::peta * scale::day, false}, {"PF-day", scale::peta * scale::day, false},
    {"PFLOP/s-days", scale::peta * scale::day, false},
};
inline constexpr UnitSymbol flop_rate_symbols[] = {
    {"FLOP/s", 1.0, true},
    {"kFLOP/s", scale::kilo, true},
    {"MFLOP/s", scale::mega, true},
    {"GFLOP/s", scale::giga, true},
    {"TFLOP/s", scale::tera, true},
    {"PFLOP/s", scale::peta, true},
    {"EFLOP/s", scale::exa, true},
    {"FLOPS", 1.0, false},
    {"GFLOPS", scale::giga, false},
    {"TFLOPS", scale::tera, false},
    {"PFLOPS", scale::peta, false},
    {"EFLOPS", scale::exa, false},
    {"TFLOPps", scale::tera, false},
    {"TF/s", scale::tera, false},
    {"TF", scale::tera, false},
};
inline constexpr UnitSymbol carbon_mass_symbols[] = {
    {"gCO2e", 1e-3, true},  {"kgCO2e", 1.0, true}, {"tCO2e", 1e3, true},  {"ktCO2e", 1e6, true},
    {"g", 1e-3, false},     {"kg", 1.0, false},    {"t", 1e3, false},     {"kgCO2", 1.0, false},
    {"tCO2", 1e3, false},
};
inline constexpr double per_kwh = 1.0 / (scale::kilo * scale::watt_hour);
inline constexpr UnitSymbol carbon_intensity_symbols[] = {
    {"gCO2e/kWh", 1e-3 * per_kwh, false},
    {"kgCO2e/kWh", per_kwh, true},
    {"g/kWh", 1e-3 * per_kwh, false},
    {"kg/kWh", per_kwh, false},
    {"kgCO2/kWh", per_kwh, false},
    {"gCO2/kWh", 1e-3 * per_kwh, false},
};
// Physical sizes (add-in cards, cases): printed in mm as vendors give them; inches accepted.
inline constexpr UnitSymbol length_symbols[] = {
    {"mm", 1e-3, true}, {"m", 1.0, true}, {"cm", 1e-2, false}, {"in", 0.0254, false}, {"inch", 0.0254, false},
    {"inches", 0.0254, false},
};
inline constexpr UnitSymbol arithmetic_intensity_symbols[] = {
    {"FLOP/B", 1.0, true},
    {"FLOPs/B", 1.0, false},
    {"FLOP/byte", 1.0, false},
};

// Role facts used by printing and parsing.
template <class Q>
struct role;

#define CAPPLAN_ROLE(Q, text, table)                                 \
  template <>                                                        \
  struct role<Q> {                                                   \
    static constexpr std::string_view name = text;                   \
    static constexpr std::span<const UnitSymbol> symbols{table};     \
  };
CAPPLAN_ROLE(DataSize, "data size", data_size_symbols)
CAPPLAN_ROLE(Bandwidth, "bandwidth", bandwidth_symbols)
CAPPLAN_ROLE(Duration, "duration", duration_symbols)
CAPPLAN_ROLE(Power, "power", power_symbols)
CAPPLAN_ROLE(Energy, "energy", energy_symbols)
CAPPLAN_ROLE(FlopCount, "FLOP count", flop_count_symbols)
CAPPLAN_ROLE(FlopRate, "FLOP rate", flop_rate_symbols)
CAPPLAN_ROLE(CarbonMass, "carbon mass", carbon_mass_symbols)
CAPPLAN_ROLE(CarbonIntensity, "carbon intensity", carbon_intensity_symbols)
CAPPLAN_ROLE(ArithmeticIntensity, "arithmetic intensity", arithmetic_intensity_symbols)
CAPPLAN_ROLE(Length, "length", length_symbols)
#undef CAPPLAN_ROLE

}  // namespace capplan::units
