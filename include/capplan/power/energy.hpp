// Energy of a run and what the electricity costs.
//
//   RunEnergy e = run_energy(450_W, 1_year, {.utilization = 0.15});
//   e.facility_energy == 591.3 kWh
//   ElectricityCost c = electricity_cost(e, 0.12_USD / 1_kWh);
//   c.cost == $70.956 (exact); c.explain() == "450 W × 0.15 × 8,760 h = 591.3 kWh × $0.12/kWh = $70.96"
//
// Model:
//   IT energy       E_IT = (P_active × u + P_idle × (1 − u)) × t   (u: the busy share of t)
//   facility energy E    = E_IT × PUE                               (The Green Grid, "PUE: a
//                          comprehensive examination of the metric", WP #49, 2012: PUE = total
//                          facility energy / IT equipment energy)
//   cost            C    = price per kWh × E                        (exact Money, see money.hpp)
#pragma once

#include "capplan/error.hpp"
#include "capplan/money/money.hpp"
#include "capplan/power/explain.hpp"
#include "capplan/units/quantity.hpp"

#include <string>
#include <string_view>

namespace capplan {

// Money inputs that must not be negative (prices, purchase prices, fees).
template <class D>
const BasicMoney<D>& require_nonnegative(const BasicMoney<D>& m, std::string_view field) {
  if (m.is_negative()) detail::fail(field, format(m, MoneyFormat{.exact = true}), "is negative; it must be >= 0");
  return m;
}

// PUE must be a finite number >= 1 (PUE = facility / IT energy, and the IT energy is part of it).
inline double require_pue(double pue, std::string_view field = "pue") {
  require_finite(pue, field);
  if (pue < 1.0) detail::fail(field, explain_text::input(pue), "is below 1; PUE = facility energy / IT energy >= 1");
  // The Uptime Institute's 2023 survey average is 1.58; no operating facility reports above ~2.5.
  if (pue > 3.0) detail::fail(field, explain_text::input(pue), "is above 3; real facilities run at 1.05 to 2.5");
  return pue;
}

// A power usage effectiveness figure with where it comes from.
struct PuePreset {
  std::string_view name;
  double pue;
  int year;
  std::string_view source;
};

namespace pue {
// No facility overhead: a machine under a desk (PUE = 1 by definition, The Green Grid WP #49).
inline constexpr PuePreset home{"home or office", 1.0, 0, "definition: no cooling or power-distribution overhead"};
// Google fleet-wide trailing-twelve-month PUE for 2023 (Google 2024 Environmental Report).
inline constexpr PuePreset hyperscale{"hyperscale (Google fleet, 2023)", 1.10, 2023, "Google 2024 Environmental Report"};
// Industry average annual PUE, Uptime Institute Global Data Center Survey 2024 (1.56 as given in
// issue 6; not re-read here, see docs/power.md; the 2023 survey's 1.58 is below).
inline constexpr PuePreset industry_average{"industry average (Uptime Institute survey, 2024)", 1.56, 2024,
                                            "Uptime Institute Global Data Center Survey 2024"};
// Industry average 2023, Uptime Institute Global Data Center Survey 2023 (1.58).
inline constexpr PuePreset industry_average_2023{"industry average (Uptime Institute survey, 2023)", 1.58, 2023,
                                                 "Uptime Institute Global Data Center Survey 2023"};
// The PUE Meta used for LLaMA and Llama 2 (Touvron et al. 2023, "LLaMA", §6: "a PUE of 1.1").
inline constexpr PuePreset meta_llama{"Meta (LLaMA papers)", 1.1, 2023, "Touvron et al. 2023, LLaMA, carbon footprint section"};
// Microsoft's data centre for GPT-3 training, Patterson et al. 2021, Table 4 (PUE 1.10).
inline constexpr PuePreset microsoft_gpt3{"Microsoft (GPT-3 training)", 1.10, 2020, "Patterson et al. 2021, Table 4"};
}  // namespace pue

struct EnergyOptions {
  double utilization = 1.0;  // share of the time the hardware is busy at active power, [0, 1]
  Power idle_power{};        // draw during the rest of the time (0: switched off)
  double pue = 1.0;          // facility overhead, >= 1
};

struct RunEnergy {
  Power active_power{};
  Duration duration{};
  EnergyOptions options{};
  Power average_it_power{};  // P_active × u + P_idle × (1 − u)
  Energy it_energy{};
  Energy facility_energy{};  // what the meter (and the grid) sees

  [[nodiscard]] std::string explain() const {
    using namespace explain_text;
    const double u = options.utilization;
    std::string s{};
    const bool idle = options.idle_power.value() > 0 && u < 1.0;
    if (idle) {
      s = "(" + quantity(active_power) + " × " + number(u, 4) + " + " + quantity(options.idle_power) + " × " +
          number(1.0 - u, 4) + ")";
    } else {
      s = quantity(active_power);
      if (u != 1.0) s += " × " + number(u, 4);
    }
    s += " × " + hours(duration) + " = " + quantity(it_energy);
    if (options.pue != 1.0) s += " × PUE " + number(options.pue, 4) + " = " + quantity(facility_energy);
    return s;
  }
};

inline RunEnergy run_energy(Power active_power, Duration duration, const EnergyOptions& o = {}) {
  require_nonnegative(active_power.value(), "active_power");
  require_nonnegative(duration.value(), "duration");
  require_fraction(o.utilization, "utilization");
  require_nonnegative(o.idle_power.value(), "idle_power");
  require_pue(o.pue);
  RunEnergy e{};
  e.active_power = active_power;
  e.duration = duration;
  e.options = o;
  e.average_it_power = active_power * o.utilization + o.idle_power * (1.0 - o.utilization);  // busy share + idle share
  e.it_energy = e.average_it_power * duration;                                                // E = P × t
  e.facility_energy = e.it_energy * o.pue;                                                    // E × PUE (Green Grid WP #49)
  return e;
}

// Energy from GPU-hours at a per-GPU power, the way model cards report it (e.g. Llama 2:
// GPU-hours × 400 W): each GPU-hour is one hour of one GPU at `per_gpu`.
inline RunEnergy gpu_hours_energy(double gpu_hours, Power per_gpu, double pue = 1.0) {
  require_nonnegative(gpu_hours, "gpu_hours");
  return run_energy(per_gpu, Duration::from_value(gpu_hours * scale::hour), EnergyOptions{.pue = pue});
}

struct ElectricityCost {
  RunEnergy energy{};
  EnergyPrice price{};
  Money cost{};  // exact: price × facility energy in kWh (15 significant digits, money.hpp)

  [[nodiscard]] std::string explain() const {
    return energy.explain() + " × " + explain_text::price(price) + " = " + explain_text::money(cost);
  }
};

inline ElectricityCost electricity_cost(const RunEnergy& e, const EnergyPrice& price) {
  require_nonnegative(price, "energy_price");
  return ElectricityCost{e, price, price * e.facility_energy};  // C = price × E
}

}  // namespace capplan
