// What a run of some hours on some GPUs draws, emits and costs: IT power (plan/it_power.hpp),
// energy = IT power x time x PUE, carbon = energy x grid intensity, and the cost = the GPU-hour price
// x GPU-hours, the price given or the cheapest USD cloud offer for the GPU in a catalog.
//
//   FootprintOptions o;  o.pue = 1.2;                                   // no price: the catalog's cheapest
//   RunFootprint f = run_footprint(c, c.find_gpu("h100-sxm"), 8, 3600_s, 8.0, o);
//   f.kwh;  f.co2_kg;  *f.cost;  f.price_from;                           // "lambda-... (on_demand, 2026-03-01)"
//
// capplan train and capplan infer report these; the purchase table prices its rent column with
// the same cheapest offer. Offers in another currency join where a rate into USD is given (fx).
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
#include <string_view>
#include <vector>

namespace capplan {

// The rate that turns `currency` into USD among `fx` (ExchangeRate{from, USD, ...}); none for USD
// itself or a currency without a rate.
inline std::optional<ExchangeRate> usd_rate(const std::vector<ExchangeRate>& fx, Currency currency) {
  if (currency == Currency::USD) return std::nullopt;
  for (const auto& r : fx) {
    if (r.from == currency && r.to == Currency::USD) return r;
  }
  return std::nullopt;
}

// Checks exchange rates given for converting prices to USD: each into USD, one per currency.
inline void validate_usd_rates(const std::vector<ExchangeRate>& fx, std::string_view field = "fx") {
  for (std::size_t i = 0; i < fx.size(); ++i) {
    if (fx[i].to != Currency::USD)
      detail::fail(field, std::string(code(fx[i].from)) + "->" + std::string(code(fx[i].to)), "must convert into USD, the currency costs are reported in");
    for (std::size_t k = 0; k < i; ++k) {
      if (fx[k].from == fx[i].from) detail::fail(field, std::string(code(fx[i].from)), "has two rates; give one per currency");
    }
  }
}

// "1 USD = 7.2 CNY (2026-11-01)": how a converted price was converted.
inline std::string usd_rate_text(const ExchangeRate& r) {
  return "1 USD = " + (Decimal(1) / r.rate).round(6).to_string() + " " + std::string(code(r.from)) + " (" + r.as_of + ")";
}

struct Rent {
  MoneyRate per_gpu_hour;  // in USD (converted at `converted` where the offer is in another currency)
  const CloudOffer* offer;
  std::optional<ExchangeRate> converted;  // the rate a non-USD offer was converted at
  // "offer-id (on_demand, 2026-03-01)": where the price comes from, and the rate where converted.
  [[nodiscard]] std::string source() const {
    return offer->id + " (" + std::string(name(offer->headline())) + ", " + offer->as_of + ")" +
           (converted ? ", converted at " + usd_rate_text(*converted) : std::string());
  }
};

// The cheapest per-GPU-hour price of a GPU model among the offers, at each offer's headline price,
// in USD: offers in USD, and those in another currency for which `fx` has a rate into USD. Offers
// whose only prices are reserved (a 12-month term, a Capacity Block booked ahead for a day or more)
// are left out: a run of hours cannot be rented at them. They stay in the catalog and the cloud rows.
inline std::optional<Rent> cheapest_rent(const Catalog& c, const std::string& gpu, const std::vector<ExchangeRate>& fx = {}) {
  std::optional<Rent> best;
  for (const CloudOffer* o : c.offers_for_gpu(gpu)) {
    if (o->headline() == PriceKind::reserved) continue;
    MoneyRate r = o->per_gpu_hour(o->headline());
    std::optional<ExchangeRate> via;
    if (r.currency() != Currency::USD) {
      via = usd_rate(fx, r.currency());
      if (!via) continue;
      r = convert(r, *via);
    }
    if (!best || r.amount() < best->per_gpu_hour.amount()) best = Rent{r, o, via};
  }
  return best;
}

struct FootprintOptions {
  double pue = 1.0;
  double grid_g_per_kwh = 436;              // world 2022 (Ember, Global Electricity Review 2023)
  std::optional<MoneyRate> price_per_gpu_hour;  // absent: the cheapest USD cloud offer for the GPU
  std::string price_from = "given";         // where a given price comes from (a flag, a quote)
  std::vector<ExchangeRate> fx;             // rates into USD: offers in those currencies join the cheapest
  HostAllowance host{};
};

struct RunFootprint {
  ItPower power;
  double pue = 1.0;
  double grid_g_per_kwh = 0;
  std::optional<double> kwh;     // IT power x time x PUE; absent where the power is unknown (ItPower::known)
  std::optional<double> co2_kg;  // kWh x grid intensity; absent with kwh
  std::optional<MoneyRate> price;  // per GPU-hour; absent: none given and no USD offer
  std::string price_from;
  std::string price_offer;         // the cloud offer's id the price comes from; empty: a given price
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
  validate_usd_rates(o.fx);
  RunFootprint f;
  f.power = gpu_it_power(g, gpus, o.host);
  f.pue = o.pue;
  f.grid_g_per_kwh = o.grid_g_per_kwh;
  if (f.power.known) {
    const Energy energy = f.power.total * time * o.pue;
    f.kwh = energy.value() / 3.6e6;
    f.co2_kg = (energy * grid::g_per_kwh(o.grid_g_per_kwh)).value();
  }
  if (o.price_per_gpu_hour) {
    f.price = o.price_per_gpu_hour;
    f.price_from = o.price_from;
  } else if (const auto r = cheapest_rent(c, g.id, o.fx)) {
    f.price = r->per_gpu_hour;
    f.price_from = r->source();
    f.price_offer = r->offer->id;
  }
  if (f.price) f.cost = *f.price * Duration::from_value(gpu_hours * 3600.0);
  return f;
}

}  // namespace capplan
