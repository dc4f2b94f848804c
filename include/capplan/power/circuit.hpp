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
#include <string_view>
#include <utility>
#include <vector>

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
// Household sockets elsewhere. IEC installation rules set no 80% rule; capplan keeps the same 80%
// margin for a load that runs for hours (its assumption, stated in the name).
// CEE 7/3 ("Schuko") and CEE 7/5 sockets: 16 A at 230 V (IEC 60884-1; EN 50160 nominal 230 V).
inline Circuit eu_16a_230v() { return {"16 A × 230 V (EU socket, 80% margin)", 16, 230, 0.8}; }
// BS 1363 plug: 13 A fuse at 230 V.
inline Circuit uk_13a_230v() { return {"13 A × 230 V (BS 1363 plug fuse, 80% margin)", 13, 230, 0.8}; }
// GB 2099.1 / GB 1002 household sockets in China: 10 A ordinary, 16 A for large appliances, 220 V.
inline Circuit cn_10a_220v() { return {"10 A × 220 V (GB 2099 socket, 80% margin)", 10, 220, 0.8}; }
inline Circuit cn_16a_220v() { return {"16 A × 220 V (GB 2099 16 A socket, 80% margin)", 16, 220, 0.8}; }

// The presets by id ("us-15a-120v", "eu-16a-230v", "cn-10a-220v", ...), in a stable order.
inline const std::vector<std::pair<std::string, Circuit>>& presets() {
  static const std::vector<std::pair<std::string, Circuit>> all = {
      {"us-15a-120v", us_15a_120v()}, {"us-20a-120v", us_20a_120v()}, {"us-30a-240v", us_30a_240v()}, {"eu-16a-230v", eu_16a_230v()},
      {"uk-13a-230v", uk_13a_230v()}, {"cn-10a-220v", cn_10a_220v()}, {"cn-16a-220v", cn_16a_220v()}};
  return all;
}

// The preset with this id; InputError naming `field` and listing the ids otherwise.
inline Circuit find(std::string_view id, std::string_view field = "circuit") {
  std::string ids;
  for (const auto& [key, c] : presets()) {
    if (key == id) return c;
    ids += (ids.empty() ? "" : ", ") + key;
  }
  detail::fail(field, "\"" + std::string(id) + "\"", "is not a circuit (" + ids + ")");
}
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
