// What a run of some hours on some GPUs draws, emits and costs: IT power (plan/it_power.hpp),
// energy = IT power x time x PUE, carbon = energy x grid intensity, and the cost = the GPU-hour price
// x GPU-hours, the price given or the cheapest USD cloud offer for the GPU in a catalog.
//
//   FootprintOptions o;  o.pue = 1.2;                                   // no price: the catalog's cheapest
//   RunFootprint f = run_footprint(c, c.find_gpu("h100-sxm"), 8, 3600_s, 8.0, o);
//   f.kwh;  f.co2_kg;  *f.cost;  f.price_from;                           // "lambda-... (on_demand, 2026-03-01)"
//
// capplan train and capplan infer report these; the purchase table prices its rent column with
// the same cheapest offer.
#pragma once

#include "capplan/error.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/money/money.hpp"
#include "capplan/plan/it_power.hpp"
#include "capplan/power/carbon.hpp"
#include "capplan/power/energy.hpp"
#include "capplan/units/quantity.hpp"

#include <optional>
#include <string>

namespace capplan {

struct Rent {
  MoneyRate per_gpu_hour;
  const CloudOffer* offer;
  // "offer-id (on_demand, 2026-03-01)": where the price comes from.
  [[nodiscard]] std::string source() const { return offer->id + " (" + std::string(name(offer->headline())) + ", " + offer->as_of + ")"; }
};

// The cheapest USD per-GPU-hour price of a GPU model among the offers, at each offer's headline price.
inline std::optional<Rent> cheapest_rent(const Catalog& c, const std::string& gpu) {
  std::optional<Rent> best;
  for (const CloudOffer* o : c.offers_for_gpu(gpu)) {
    if (o->currency != Currency::USD) continue;
    const MoneyRate r = o->per_gpu_hour(o->headline());
    if (r.currency() != Currency::USD) continue;
    if (!best || r.amount() < best->per_gpu_hour.amount()) best = Rent{r, o};
  }
  return best;
}

struct FootprintOptions {
  double pue = 1.0;
  double grid_g_per_kwh = 436;              // world 2022 (Ember, Global Electricity Review 2023)
  std::optional<MoneyRate> price_per_gpu_hour;  // absent: the cheapest USD cloud offer for the GPU
  std::string price_from = "given";         // where a given price comes from (a flag, a quote)
  HostAllowance host{};
};

struct RunFootprint {
  ItPower power;
  double pue = 1.0;
  double grid_g_per_kwh = 0;
  double kwh = 0;     // IT power x time x PUE
  double co2_kg = 0;  // kWh x grid intensity
  std::optional<MoneyRate> price;  // per GPU-hour; absent: none given and no USD offer
  std::string price_from;
  std::optional<Money> cost;       // price x GPU-hours
};

// `gpus` of `g` busy for `time` (the run's wall clock), `gpu_hours` GPU-hours priced.
inline RunFootprint run_footprint(const Catalog& c, const GpuSpec& g, int gpus, Duration time, double gpu_hours, const FootprintOptions& o = {}) {
  require_pue(o.pue, "pue");
  require_finite(o.grid_g_per_kwh, "grid_g_per_kwh");
  require_nonnegative(o.grid_g_per_kwh, "grid_g_per_kwh");
  require_finite(time.value(), "time");
  require_nonnegative(time.value(), "time");
  require_finite(gpu_hours, "gpu_hours");
  require_nonnegative(gpu_hours, "gpu_hours");
  RunFootprint f;
  f.power = gpu_it_power(g, gpus, o.host);
  f.pue = o.pue;
  f.grid_g_per_kwh = o.grid_g_per_kwh;
  const Energy energy = f.power.total * time * o.pue;
  f.kwh = energy.value() / 3.6e6;
  f.co2_kg = (energy * grid::g_per_kwh(o.grid_g_per_kwh)).value();
  if (o.price_per_gpu_hour) {
    f.price = o.price_per_gpu_hour;
    f.price_from = o.price_from;
  } else if (const auto r = cheapest_rent(c, g.id)) {
    f.price = r->per_gpu_hour;
    f.price_from = r->source();
  }
  if (f.price) f.cost = *f.price * Duration::from_value(gpu_hours * 3600.0);
  return f;
}

}  // namespace capplan
