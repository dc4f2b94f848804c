// Will the machine run on this wall circuit?
//
//   CircuitCheck c = check_circuit(1500_W, circuits::us_15a_120v());
//   c.ok == false; c.explain() == "1,500 W on 15 A × 120 V = 1,800 W; continuous limit 80% = 1,440 W: over by 60 W"
//
// A computer under a long training run is a continuous load (NEC Article 100: maximum current
// expected for 3 hours or more). NEC 210.19(A)(1) and 210.20(A) size branch-circuit conductors
// and breakers at 125% of the continuous load, i.e. a continuous load may use at most 80% of
// the circuit rating: 15 A × 120 V = 1,800 W, × 0.8 = 1,440 W. Apparent power is W / power
// factor; active-PFC PSUs reach >= 0.9 at full load (80 PLUS requirement), pass yours.
#pragma once

#include "capplan/error.hpp"
#include "capplan/power/explain.hpp"
#include "capplan/units/quantity.hpp"

#include <string>

namespace capplan {

struct Circuit {
  std::string name{};
  double amps = 15;
  double volts = 120;
  double continuous_fraction = 0.8;  // NEC 210.19(A)(1) / 210.20(A): 125% sizing ⇔ 80% loading

  void validate() const {
    require_positive(amps, "circuit.amps");
    require_positive(volts, "circuit.volts");
    require_fraction(continuous_fraction, "circuit.continuous_fraction");
    if (!(continuous_fraction > 0)) detail::fail("circuit.continuous_fraction", "0", "must be > 0");
  }
  [[nodiscard]] Power capacity() const { return Power::from_value(amps * volts); }  // P = I × V
};

namespace circuits {
// North American 120 V branch circuits under the NEC 80% continuous-load rule.
inline Circuit us_15a_120v() { return {"15 A × 120 V (NEC)", 15, 120, 0.8}; }
inline Circuit us_20a_120v() { return {"20 A × 120 V (NEC)", 20, 120, 0.8}; }
inline Circuit us_30a_240v() { return {"30 A × 240 V (NEC)", 30, 240, 0.8}; }
}  // namespace circuits

struct CircuitCheck {
  Circuit circuit{};
  Power load{};             // real power at the wall
  double power_factor = 1;
  Power apparent_load{};    // VA, shown in W units: load / power factor
  Power capacity{};         // A × V
  Power continuous_limit{}; // capacity × continuous fraction
  double fraction_of_limit = 0;
  bool ok = false;

  [[nodiscard]] std::string explain() const {
    using namespace explain_text;
    std::string s = number(load.value(), 5) + " W";
    if (power_factor != 1.0) s += " / PF " + number(power_factor, 3) + " = " + number(apparent_load.value(), 5) + " VA";
    s += " on " + number(circuit.amps, 4) + " A × " + number(circuit.volts, 4) + " V = " +
         number(capacity.value(), 6) + " W; continuous limit " + percent(circuit.continuous_fraction) + " = " +
         number(continuous_limit.value(), 6) + " W: ";
    if (ok) s += "fits (" + percent(fraction_of_limit) + " of the limit)";
    else s += "over by " + number((apparent_load - continuous_limit).value(), 5) + " W";
    return s;
  }
};

inline CircuitCheck check_circuit(Power wall_load, const Circuit& c, double power_factor = 1.0) {
  c.validate();
  require_nonnegative(wall_load.value(), "wall_load");
  require_fraction(power_factor, "power_factor");
  if (!(power_factor > 0)) detail::fail("power_factor", "0", "must be > 0");
  CircuitCheck r;
  r.circuit = c;
  r.load = wall_load;
  r.power_factor = power_factor;
  r.apparent_load = wall_load / power_factor;  // S = P / PF
  r.capacity = c.capacity();
  r.continuous_limit = r.capacity * c.continuous_fraction;  // NEC 80% continuous-load rule
  r.fraction_of_limit = r.apparent_load.value() / r.continuous_limit.value();
  r.ok = r.apparent_load <= r.continuous_limit;
  return r;
}

}  // namespace capplan
