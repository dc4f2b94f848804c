// PSU efficiency: the 80 PLUS curves and the wall (AC) power a DC load draws through a PSU.
//
//   WallPower w = wall_power(500_W, 1000_W, load_efficiency_curve(EightyPlusTier::gold));
//   w.efficiency == 0.90; w.wall == 555.6 W; w.explain()
//
// Curve points are the 80 PLUS minimums for "115V Internal Non-Redundant" power supplies
// (CLEAResult 80 PLUS program table, as reproduced by Tom's Hardware "80 PLUS PSU efficiency"
// and Wikipedia "80 Plus"): efficiency at 10/20/50/100% of rated load. Between points the
// efficiency is interpolated linearly; below the lowest certified point it is held at that
// point's value and above 100% load the PSU is overloaded (an error). Real PSUs are less
// efficient than this at very low load; pass a measured curve (e.g. from a review) for that.
#pragma once

#include "capplan/error.hpp"
#include "capplan/hardware/psu.hpp"
#include "capplan/power/explain.hpp"
#include "capplan/units/quantity.hpp"

#include <string>
#include <vector>

namespace capplan {

struct LoadEfficiencyPoint {
  double load;        // fraction of the rated output, (0, 1]
  double efficiency;  // DC out / AC in, (0, 1]
};

struct LoadEfficiencyCurve {
  std::string name{};
  std::vector<LoadEfficiencyPoint> points{};  // ascending load
  std::string source{};

  // Efficiency at a load fraction in [0, 1], linear between points, flat below the first.
  [[nodiscard]] double at(double load) const {
    require_fraction(load, "psu_load");
    if (points.empty()) detail::fail("efficiency_curve.points", "[]", "is empty");
    if (load <= points.front().load) return points.front().efficiency;
    for (std::size_t i = 1; i < points.size(); ++i) {
      if (load <= points[i].load) {
        const auto& a = points[i - 1];
        const auto& b = points[i];
        return a.efficiency + (b.efficiency - a.efficiency) * (load - a.load) / (b.load - a.load);
      }
    }
    return points.back().efficiency;
  }

  void validate() const {
    if (points.empty()) detail::fail("efficiency_curve.points", "[]", "is empty");
    double prev = 0;
    for (const auto& p : points) {
      require_fraction(p.load, "efficiency_curve.load");
      require_fraction(p.efficiency, "efficiency_curve.efficiency");
      if (!(p.load > prev)) detail::fail("efficiency_curve.load", explain_text::input(p.load), "must be ascending and > 0");
      if (!(p.efficiency > 0)) detail::fail("efficiency_curve.efficiency", explain_text::input(p.efficiency), "must be > 0");
      prev = p.load;
    }
  }
};

// The catalog's 80 PLUS minimums (hardware/psu.hpp: the one copy of the 80 PLUS table) as a
// curve to interpolate: the certified points of `tier` for the given test category.
inline LoadEfficiencyCurve load_efficiency_curve(EightyPlusTier tier, PsuInput input = PsuInput::v115_internal) {
  if (tier == EightyPlusTier::none) {
    detail::fail("eighty_plus", "\"none\"", "has no certified efficiency; pass a measured curve");
  }
  const EfficiencyCurve c = eighty_plus_curve(tier, input);
  LoadEfficiencyCurve out{std::string(name(tier)), {}, "80 PLUS program (CLEAResult), " + std::string(name(input)) + " minimums"};
  for (std::size_t i = 0; i < EfficiencyCurve::loads.size(); ++i) {
    if (c.efficiency[i]) out.points.push_back({EfficiencyCurve::loads[i], *c.efficiency[i]});
  }
  if (out.points.empty()) {
    detail::fail("eighty_plus", "\"" + std::string(name(tier)) + "\"", "has no requirements for " + std::string(name(input)));
  }
  return out;
}

// AC power drawn from the wall for a DC load: P_wall = P_dc / η(P_dc / P_rated)
// (efficiency is defined as DC output over AC input: 80 PLUS test protocol).
struct WallPower {
  Power dc_load{};
  Power psu_rating{};
  double load_fraction = 0;
  double efficiency = 1;
  std::string curve{};
  Power wall{};
  Power loss{};  // wall − dc_load, dissipated as heat in the PSU

  [[nodiscard]] std::string explain() const {
    using namespace explain_text;
    return quantity(dc_load) + " / " + quantity(psu_rating) + " = " + percent(load_fraction) + " load → " + curve +
           " efficiency " + percent(efficiency) + "; " + quantity(dc_load) + " / " + number(efficiency, 4) + " = " +
           quantity(wall) + " from the wall (" + quantity(loss) + " lost in the PSU)";
  }
};

inline WallPower wall_power(Power dc_load, Power psu_rating, const LoadEfficiencyCurve& curve) {
  require_nonnegative(dc_load.value(), "dc_load");
  require_positive(psu_rating.value(), "psu_rating");
  curve.validate();
  const double load = dc_load.value() / psu_rating.value();
  if (load > 1.0) {
    detail::fail("dc_load", explain_text::quantity(dc_load),
                 "exceeds the PSU rating " + explain_text::quantity(psu_rating) + " (overloaded)");
  }
  const double eta = curve.at(load);
  const Power wall = dc_load / eta;  // η = P_dc / P_ac
  return WallPower{dc_load, psu_rating, load, eta, curve.name, wall, wall - dc_load};
}

}  // namespace capplan
