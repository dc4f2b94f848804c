// What the catalog knows for owning `gpus` of one GPU model against renting as many: the inputs of
// cost/compare.hpp's comparison (capplan tco --gpu), the same figures compare's GPU rows use.
//
//   CatalogTco t = catalog_tco(Catalog::builtin(), Catalog::builtin().find_gpu("RTX 4090"), 2);
//   t.purchase;      // 2 x its street price (else its launch price); t.purchase_high: a range's high end
//   t.power.total;   // IT power at the wall while busy (plan/it_power.hpp gpu_it_power: GPUs and host)
//   t.rent_per_gpu_hour, t.rent_billed_gpus;  // the cheapest USD rent for 2 GPUs, whole instances billed
//                                             // (run_footprint.hpp cheapest_rent)
//
// The purchase counts the GPUs only, as compare's GPU rows do: a host (CPU, board, memory, PSU) is priced by
// `capplan build` or given whole with --price.
#pragma once

#include "capplan/hardware/catalog.hpp"
#include "capplan/plan/it_power.hpp"
#include "capplan/plan/run_footprint.hpp"

#include <optional>
#include <string>
#include <vector>

namespace capplan {

struct CatalogTco {
  std::optional<Money> purchase;       // gpus x the GPU's street price, else its launch price; none without either
  std::optional<Money> purchase_high;  // the high end of a street-price range
  std::string price_source;            // "street price 2026-03-10 (source) x 2"
  ItPower power;                       // power.known false: no published figure
  // The cheapest rent in USD (offers in another currency through `fx` into USD), copied out of the
  // catalog (the result holds no pointer into it); absent, with rent_left_out saying why, where none.
  std::optional<MoneyRate> rent_per_gpu_hour;
  std::optional<PriceKind> rent_kind;  // on_demand, monthly (its hourly equivalent: price / 730 h) or spot
  int rent_billed_gpus = 0;            // whole instances: 16 for 12 GPUs on 8-GPU instances
  std::string rent_offer;              // the offer's id
  std::string rent_source;             // "runpod-rtx-4090 (on_demand, 2026-03-10)", and the instances where more
  std::vector<std::string> rent_left_out;  // offers for the GPU no rent came from, and why (offers_left_out)
};

// Throws InputError naming "gpus" unless 1 <= gpus <= 1,048,576.
inline CatalogTco catalog_tco(const Catalog& c, const GpuSpec& g, int gpus, const std::vector<ExchangeRate>& fx = {}) {
  require_positive_count(gpus, "gpus");
  if (gpus > (1 << 20)) detail::fail("gpus", std::to_string(gpus), "is more than 1,048,576 GPUs");
  CatalogTco t;
  const std::optional<PricePoint>& p = g.street_price ? g.street_price : g.launch_price;
  if (p) {
    const Decimal n(static_cast<long long>(gpus));
    t.purchase = p->amount * n;
    if (p->high && *p->high != p->amount) t.purchase_high = *p->high * n;
    t.price_source = std::string(g.street_price ? "street price " : "launch price ") + p->as_of + (p->source.empty() ? "" : " (" + p->source + ")") +
                     " x " + std::to_string(gpus);
  }
  t.power = gpu_it_power(g, gpus);
  if (const std::optional<Rent> r = cheapest_rent(c, g.id, fx, std::nullopt, gpus)) {
    t.rent_per_gpu_hour = r->per_gpu_hour;
    t.rent_kind = r->kind;
    t.rent_billed_gpus = r->billed_gpus;
    t.rent_offer = r->offer->id;
    t.rent_source = r->source();
  } else {
    t.rent_left_out = offers_left_out(c, g.id, fx, false);
  }
  return t;
}

}  // namespace capplan
