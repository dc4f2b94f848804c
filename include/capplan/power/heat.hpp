// Heat a machine puts into the room: all electrical power drawn ends as heat, in W and BTU/h.
//   heat_output(1000_W).btu_per_hour == 3412.142
#pragma once

#include "capplan/error.hpp"
#include "capplan/power/explain.hpp"
#include "capplan/units/quantity.hpp"

#include <string>

namespace capplan {

// 1 W = 3.412142 BTU(IT)/h (NIST SP 811, Appendix B.8: 1 Btu_IT/h = 0.2930711 W).
inline constexpr double btu_per_hour_per_watt = 3.412142;

struct HeatOutput {
  Power power{};
  double btu_per_hour = 0;

  [[nodiscard]] std::string explain() const {
    return explain_text::number(power.value(), 6) + " W × 3.412142 = " + explain_text::number(btu_per_hour, 6) +
           " BTU/h";
  }
};

// Steady state: the heat released equals the electrical power drawn at the wall.
inline HeatOutput heat_output(Power wall) {
  require_nonnegative(wall.value(), "power");
  return HeatOutput{wall, wall.value() * btu_per_hour_per_watt};
}

}  // namespace capplan
