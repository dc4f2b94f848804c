// Owning hardware: purchase, electricity at the modelled utilization, maintenance, space,
// and its resale value (see depreciation.hpp). Months are 730 h (8,760 h / 12), as cloud price
// sheets and capplan's units use.
//
//   OwnedOption desk{.name = "desktop", .purchase = 2200_USD, .active_power = 450_W,
//                    .electricity = 0.12_USD / 1_kWh};
//   OwnedMonth m = owned_month(desk, 0.15);   // m.electricity == $5.913 (exact)
#pragma once

#include "capplan/cost/depreciation.hpp"
#include "capplan/error.hpp"
#include "capplan/money/money.hpp"
#include "capplan/power/energy.hpp"
#include "capplan/power/explain.hpp"

#include <optional>
#include <string>

namespace capplan {

struct OwnedOption {
  std::string name = "owned";
  Money purchase{};                        // parts or the whole system, at month 0
  Power active_power{};                  // wall power while busy (PSU losses included)
  Power idle_power{};                    // wall power while not busy; 0 W when switched off
  double pue = 1.0;                      // 1.0 at home; see power/energy.hpp presets
  EnergyPrice electricity{};               // price per kWh, in the purchase currency
  std::optional<Money> maintenance_per_month{};
  std::optional<Money> space_per_month{};  // rack space, colocation, rent share
  Depreciation resale{};                   // resale value over time (none: not counted)

  [[nodiscard]] Currency currency() const { return purchase.currency(); }

  void validate() const {
    require_nonnegative(purchase, "owned.purchase");
    require_nonnegative(active_power.value(), "owned.active_power");
    require_nonnegative(idle_power.value(), "owned.idle_power");
    if (idle_power > active_power) {
      detail::fail("owned.idle_power", explain_text::quantity(idle_power),
                   "is above owned.active_power (" + explain_text::quantity(active_power) + "); idle draw cannot exceed busy draw");
    }
    require_pue(pue, "owned.pue");
    require_nonnegative(electricity, "owned.electricity");
    same_currency(electricity.currency(), "owned.electricity");
    if (maintenance_per_month) {
      require_nonnegative(*maintenance_per_month, "owned.maintenance_per_month");
      same_currency(maintenance_per_month->currency(), "owned.maintenance_per_month");
    }
    if (space_per_month) {
      require_nonnegative(*space_per_month, "owned.space_per_month");
      same_currency(space_per_month->currency(), "owned.space_per_month");
    }
    resale.validate(purchase);
  }

 private:
  void same_currency(Currency c, const std::string& field) const {
    if (c != purchase.currency()) {
      std::string v = std::string(code(c)) + " vs purchase in " + std::string(code(purchase.currency()));
      throw CurrencyError(field, v,
                          field + ": " + v + "; an owned option uses one currency (convert with capplan::convert)");
    }
  }
};

// One month (730 h) of running costs at a utilization u (busy share of the month).
struct OwnedMonth {
  ElectricityCost electricity{};
  Money maintenance{};
  Money space{};
  Money total{};  // electricity + maintenance + space

  [[nodiscard]] std::string explain() const {
    std::string s = "electricity " + electricity.explain();
    if (!maintenance.is_zero()) s += "; maintenance " + explain_text::money(maintenance);
    if (!space.is_zero()) s += "; space " + explain_text::money(space);
    s += "; per month " + explain_text::money(total);
    return s;
  }
};

inline OwnedMonth owned_month(const OwnedOption& o, double utilization) {
  o.validate();
  require_fraction(utilization, "utilization");
  const Money zero(0, o.currency());
  OwnedMonth m{electricity_cost(run_energy(o.active_power, Duration::from_value(scale::month),
                                           EnergyOptions{.utilization = utilization, .idle_power = o.idle_power, .pue = o.pue}),
                                o.electricity),
               o.maintenance_per_month.value_or(zero), o.space_per_month.value_or(zero), zero};
  m.total = m.electricity.cost + m.maintenance + m.space;
  return m;
}

}  // namespace capplan
