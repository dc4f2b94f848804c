// Cost per unit of work: per GPU-hour, per training run, per million tokens.
//
//   cost_per_gpu_hour(c.last().owned_cumulative, busy, 1).per_unit   → Money per GPU-hour
//   cost_of_run(2.14_USD / 1_h, 1000_h, 8).cost                      → $17,120.00
//   cost_per_million_tokens(total, 3.6e9).per_unit                   → Money per 1e6 tokens
// Units of work are measured doubles; they enter money as Decimal::from_double (15
// significant digits, as everywhere in capplan), and the division rounds half-even at 12 places.
#pragma once

#include "capplan/cost/compare.hpp"
#include "capplan/cost/rented.hpp"
#include "capplan/error.hpp"
#include "capplan/money/money.hpp"
#include "capplan/power/energy.hpp"
#include "capplan/power/explain.hpp"

#include <string>

namespace capplan {

struct UnitCost {
  Money total{};
  double units = 0;  // GPU-hours, millions of tokens, runs
  std::string unit{};  // "GPU-hour", "million tokens"
  Money per_unit{};

  // A cost per GPU-hour as a MoneyRate, to price a run with cost_of_run.
  [[nodiscard]] MoneyRate rate() const {
    if (unit != "GPU-hour") detail::fail("unit", "\"" + unit + "\"", "is not GPU-hour; only a cost per GPU-hour is a rate");
    return MoneyRate(per_unit.amount(), per_unit.currency());
  }

  [[nodiscard]] std::string explain() const {
    return explain_text::money(total) + " / " + explain_text::number(units, 6) + " " + unit + " = " +
           explain_text::price(per_unit) + " per " + unit;
  }
};

inline UnitCost unit_cost(const Money& total, double units, std::string unit, std::string_view field) {
  require_nonnegative(total, "total");
  require_positive(units, field);
  return UnitCost{total, units, std::move(unit), total / Decimal::from_double(units, 15, field)};
}

// Total cost / (busy time × GPUs).
inline UnitCost cost_per_gpu_hour(const Money& total, Duration busy_time, int gpus = 1) {
  require_positive_count(gpus, "gpus");
  require_positive(busy_time.value(), "busy_time");  // named and valued as given, before the hours are made
  return unit_cost(total, busy_time.value() / scale::hour * gpus, "GPU-hour", "gpu_hours");
}

// Total cost / (tokens / 1e6).
inline UnitCost cost_per_million_tokens(const Money& total, double tokens) {
  require_finite(tokens, "tokens");
  require_positive(tokens, "tokens");  // the count as given, not in millions
  return unit_cost(total, tokens / 1e6, "million tokens", "tokens");
}

// A training run priced by the GPU-hour: rate × run time × GPUs.
struct RunCost {
  MoneyRate per_gpu_hour{};
  Duration run_time{};
  int gpus = 1;
  Money cost{};

  [[nodiscard]] std::string explain() const {
    return explain_text::price(per_gpu_hour) + " × " + explain_text::hours(run_time) + " × " + std::to_string(gpus) +
           " GPUs = " + explain_text::money(cost);
  }
};

inline RunCost cost_of_run(const MoneyRate& per_gpu_hour, Duration run_time, int gpus = 1) {
  require_nonnegative(per_gpu_hour, "per_gpu_hour");
  require_nonnegative(run_time.value(), "run_time");
  require_positive_count(gpus, "gpus");
  return RunCost{per_gpu_hour, run_time, gpus, per_gpu_hour * run_time * gpus};
}

// A run that takes `run_time_on_owned` on `gpus` owned GPUs, done on an hourly rental instead:
// the same work needs run_time / throughput_vs_owned hours per GPU, × (1 + interruption
// overhead) on spot. Reserved and monthly rentals are priced per month: use compare_costs.
inline RunCost cost_of_run(const RentedOption& r, Duration run_time_on_owned, int gpus = 1) {
  r.validate();
  if (r.kind == PriceKind::reserved || r.kind == PriceKind::monthly) {
    detail::fail("rented.kind", std::string(name(r.kind)), "is priced per month; use compare_costs for it");
  }
  require_nonnegative(run_time_on_owned.value(), "run_time");
  double factor = 1.0 / r.throughput_vs_owned;                           // same work
  if (r.kind == PriceKind::spot) factor *= 1.0 + r.interruption_overhead;  // work redone after preemptions
  return cost_of_run(r.hourly, run_time_on_owned * factor, gpus);
}

// The owned machine's effective price per busy GPU-hour over the comparison's horizon
// (net of resale when asked): what to compare with a cloud hourly price.
inline UnitCost owned_cost_per_gpu_hour(const CostComparison& c, int gpus = 1, bool net_of_resale = false) {
  const Money total = net_of_resale ? c.last().owned_net_cumulative : c.last().owned_cumulative;
  const Duration busy = Duration::from_value(scale::month * c.options.utilization * c.options.horizon_months);
  return cost_per_gpu_hour(total, busy, gpus);
}

}  // namespace capplan
