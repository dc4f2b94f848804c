// PSU efficiency: the 80 PLUS curves and the wall (AC) power a DC load draws through a PSU.
//
//   WallPower w = wall_power(500_W, 1000_W, eighty_plus_115v(EightyPlus::gold));
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
#include "capplan/power/explain.hpp"
#include "capplan/units/quantity.hpp"

#include <string>
#include <vector>

namespace capplan {

// The 80 PLUS levels. hardware/psu.hpp has the catalog's EightyPlusTier (same levels plus none);
// power/ does not include hardware/ (layering), so integration maps one to the other.
enum class EightyPlus { standard, bronze, silver, gold, platinum, titanium };

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

// 80 PLUS, 115 V internal non-redundant: minimum efficiency at 10% / 20% / 50% / 100% load
// (80 PLUS program table; Tom's Hardware "80 PLUS PSU efficiency" reproduces it).
inline LoadEfficiencyCurve eighty_plus_115v(EightyPlus level) {
  const std::string src = "80 PLUS program (CLEAResult), 115V internal non-redundant minimums";
  switch (level) {
    case EightyPlus::standard: return {"80 PLUS", {{0.20, 0.80}, {0.50, 0.80}, {1.00, 0.80}}, src};
    case EightyPlus::bronze: return {"80 PLUS Bronze", {{0.20, 0.82}, {0.50, 0.85}, {1.00, 0.82}}, src};
    case EightyPlus::silver: return {"80 PLUS Silver", {{0.20, 0.85}, {0.50, 0.88}, {1.00, 0.85}}, src};
    case EightyPlus::gold: return {"80 PLUS Gold", {{0.20, 0.87}, {0.50, 0.90}, {1.00, 0.87}}, src};
    case EightyPlus::platinum: return {"80 PLUS Platinum", {{0.20, 0.90}, {0.50, 0.92}, {1.00, 0.89}}, src};
    case EightyPlus::titanium:
      return {"80 PLUS Titanium", {{0.10, 0.90}, {0.20, 0.92}, {0.50, 0.94}, {1.00, 0.90}}, src};
  }
  detail::fail("eighty_plus", "?", "is not a known 80 PLUS level");
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
