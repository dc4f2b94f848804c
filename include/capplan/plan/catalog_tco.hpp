// What the catalog knows for owning `gpus` of one GPU model against renting as many: the inputs of
// cost/compare.hpp's comparison (capplan tco --gpu), from the catalog figures compare's GPU rows start
// from (street price, IT power, cloud offers).
//
//   CatalogTco t = catalog_tco(Catalog::builtin(), Catalog::builtin().find_gpu("RTX 4090"), 2, 0.3);
//   t.purchase;                 // 2 x its street price (else its launch price); t.purchase_high: a range's high end;
//                               // an SXM or OAM module's whole baseboards (t.bought_gpus: 4 for 2 H100 SXM)
//   t.power.total;              // IT power at the wall while busy (plan/it_power.hpp gpu_it_power: GPUs and host)
//   rented_option(t);           // the cheapest rent of 2 GPUs for a month used 30 % of the time, as cost/rented.hpp
//                               // RentedOption (whole instances billed; a monthly rental or a reserved term as sold)
//
// The purchase counts the GPUs only, as compare's GPU rows do: a host (CPU, board, memory, PSU) is priced by
// `capplan build` or given whole with --price. An SoC's price is its entry's (the built-in DGX Spark's is its box).
#pragma once

#include "capplan/cost/rented.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/perf/fabric.hpp"
#include "capplan/plan/it_power.hpp"
#include "capplan/plan/run_footprint.hpp"
#include "capplan/units/literals.hpp"

#include <optional>
#include <string>
#include <vector>

namespace capplan {

struct CatalogTco {
  std::optional<Money> purchase;       // gpus x the GPU's street price, else its launch price; none without either
  std::optional<Money> purchase_high;  // the high end of a street-price range
  bool launch_price = false;           // the price is the launch price (MSRP): no street price is dated
  std::string price_source;            // "street price 2026-03-10 (source) x 2"
  // SXM and OAM modules are sold on baseboards (hardware/gpu.hpp purchase_unit_gpus): the GPUs the
  // purchase buys, whole boards, where that is more than `gpus` (2 H100 SXM buy a board of 4); 0: gpus.
  // Power and rent stay those of `gpus`; the spare modules idle.
  int bought_gpus = 0;
  ItPower power;                       // power.known false: no published figure (the powers are then 0, not a figure)
  // The cheapest rent in USD (offers in another currency through `fx` into USD) for a month in which the
  // GPUs are busy `utilization` of the time: an hourly price bills the busy hours, a monthly rental the
  // month, a reserved price at least its term (run_footprint.hpp cheapest_rent with that run). Copied out
  // of the catalog (the result holds no pointer into it); absent, with rent_left_out saying why, where none.
  std::optional<MoneyRate> rent_per_gpu_hour;
  std::optional<PriceKind> rent_kind;  // on_demand, spot, monthly (its hourly equivalent: price / 730 h) or reserved
  std::optional<Duration> rent_min_term;  // a reserved price's commitment
  int rent_billed_gpus = 0;            // whole instances: 16 for 12 GPUs on 8-GPU instances
  std::string rent_offer;              // the offer's id
  std::string rent_source;             // "runpod-rtx-4090 (on_demand, 2026-03-10)", and the instances where more
  std::vector<std::string> rent_left_out;  // offers for the GPU no rent came from, and why (offers_left_out)
};

// Throws InputError naming "gpus" unless 1 <= gpus <= 1,048,576, "utilization" outside (0, 1].
inline CatalogTco catalog_tco(const Catalog& c, const GpuSpec& g, int gpus, double utilization = 1.0,
                              const std::vector<ExchangeRate>& fx = {}) {
  require_positive_count(gpus, "gpus");
  if (gpus > (1 << 20)) detail::fail("gpus", std::to_string(gpus), "is more than 1,048,576 GPUs");
  require_fraction(utilization, "utilization");
  if (!(utilization > 0)) detail::fail("utilization", std::to_string(utilization), "must be > 0 (the rent is chosen for the hours used)");
  CatalogTco t;
  const std::optional<PricePoint>& p = g.street_price ? g.street_price : g.launch_price;
  if (p) {
    const int board = purchase_unit_gpus(g);
    const int bought = (gpus + board - 1) / board * board;
    if (bought > gpus) t.bought_gpus = bought;
    const Decimal n(static_cast<long long>(bought));
    t.purchase = p->amount * n;
    if (p->high && *p->high != p->amount) t.purchase_high = *p->high * n;
    t.launch_price = !g.street_price;
    t.price_source = std::string(g.street_price ? "street price " : "launch price (MSRP) ") + p->as_of +
                     (p->source.empty() ? "" : " (" + p->source + ")") + " x " + std::to_string(bought) +
                     (bought > gpus ? " (" + g.id + " modules are sold on baseboards of " + std::to_string(board) + ", not one at a time: " +
                                          std::to_string(bought) + " bought for the " + std::to_string(gpus) + " used, " + std::to_string(bought - gpus) + " idle)"
                                    : std::string());
  }
  // On the node train and compare time these GPUs on (perf::usual_gpus_per_node: 8 cards to a server).
  t.power = gpu_it_power(g, gpus, {}, perf::usual_gpus_per_node(g));
  // One month's busy hours: the bill each offer would send for them (cost/rented.hpp bills the same way).
  // The GPUs are compared as GPUs, not as a plan: any instance size rents them (1-GPU instances too),
  // where compare and train rent only instances that hold the node a run was timed on.
  const Duration month_used = Duration::from_value(scale::month * utilization);
  if (const std::optional<Rent> r = cheapest_rent(c, g.id, fx, month_used, gpus)) {
    t.rent_per_gpu_hour = r->per_gpu_hour;
    t.rent_kind = r->kind;
    if (r->kind == PriceKind::reserved) t.rent_min_term = r->offer->min_term;
    t.rent_billed_gpus = r->billed_gpus;
    t.rent_offer = r->offer->id;
    // The offer, its kind and date, and the instances where more GPUs are billed than used.
    Rent shown = *r;
    shown.run = Duration{};
    shown.billed = Duration{};
    t.rent_source = shown.source();
  } else {
    t.rent_left_out = offers_left_out(c, g.id, fx, true);
  }
  return t;
}

// The rent of `t` as cost/rented.hpp compares it, for all the GPUs it bills: by the hour (on-demand or
// spot, as compare's rows count spot), by the month (a monthly rental, its price back from the hourly
// rate to the cent), or reserved for its term; none without a rent.
inline std::optional<RentedOption> rented_option(const CatalogTco& t) {
  if (!t.rent_per_gpu_hour || !t.rent_kind) return std::nullopt;
  return RentedOption::as_sold(t.rent_offer, *t.rent_per_gpu_hour * Decimal(static_cast<long long>(t.rent_billed_gpus)), *t.rent_kind,
                               t.rent_min_term);
}

}  // namespace capplan
