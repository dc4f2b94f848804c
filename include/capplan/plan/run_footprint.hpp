// What a run of some hours on some GPUs draws, emits and costs: IT power (plan/it_power.hpp),
// energy = IT power x time x PUE, carbon = energy x grid intensity, and the cost = the GPU-hour price
// x GPU-hours billed, the price given or the cheapest bill among the GPU's cloud offers in a catalog
// (a monthly rental bills whole months, a reserved price at least its term, in whole terms under a month: CloudOffer::billed_time).
//
//   FootprintOptions o;  o.pue = 1.2;                                   // no price: the catalog's cheapest
//   RunFootprint f = run_footprint(c, c.find_gpu("h100-sxm"), 8, 3600_s, 8.0, o);
//   f.kwh;  f.co2_kg;  *f.cost;  f.price_from;                           // "lambda-... (on_demand, 2026-03-01)"
//
// capplan train reports these for a run (billed as sold, as compare's training rows); capplan infer
// with bill_as_sold off (the cheapest price per hour, as compare --serve), for a rate of work. Offers
// in another currency join where a rate into USD is given (fx).
#pragma once

#include "capplan/error.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/money/money.hpp"
#include "capplan/perf/fabric.hpp"
#include "capplan/plan/it_power.hpp"
#include "capplan/power/carbon.hpp"
#include "capplan/power/energy.hpp"
#include "capplan/power/explain.hpp"
#include "capplan/units/format.hpp"
#include "capplan/units/quantity.hpp"

#include <cmath>
#include <optional>
#include <utility>
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

// ", billed 730 h (whole months) for a 12.5 h run": where price `k` with minimum term `min_term`
// bills more than the run.
inline std::string billing_text(PriceKind k, const std::optional<Duration>& min_term, Duration run, Duration billed) {
  if (!(billed.value() > run.value() * (1 + 1e-12))) return {};
  const std::string term = min_term ? term_text(*min_term) : std::string("unstated");
  const bool minimum = k == PriceKind::monthly && min_term && min_term->value() > scale::month * (1 + 1e-12);
  // A 1-day reserved term is booked in whole days (reserved_billed): "whole days".
  const bool days = k == PriceKind::reserved && min_term && books_whole_days(*min_term);
  const std::string why = k == PriceKind::monthly ? "whole months" + (minimum ? ", its " + term + " minimum" : std::string())
                          : days                  ? "whole days"
                                                  : "its " + term + " term";
  return ", billed " + explain_text::hours(billed) + " (" + why + ") for a " + explain_text::hours(run) + " run";
}

// "offer-id (on_demand, 2026-03-01)", then `converted` (", converted at ..." where the offer is in
// another currency): where a price of an offer comes from, as every rent's source says it.
inline std::string offer_price_source(const CloudOffer& o, PriceKind k, const std::string& converted = {}) {
  return o.id + " (" + std::string(name(k)) + ", " + o.as_of + ")" + converted;
}

struct Rent {
  MoneyRate per_gpu_hour;  // in USD (converted at `converted` where the offer is in another currency)
  const CloudOffer* offer;
  PriceKind kind = PriceKind::on_demand;  // the offer's price this is
  std::optional<ExchangeRate> converted;  // the rate a non-USD offer was converted at
  Duration run{};     // the wall clock priced; 0: a rate compared per hour (no run)
  Duration billed{};  // what the price bills for `run` (CloudOffer::billed_time)
  // The GPUs a run on `gpus` GPUs rents: whole instances of the offer's gpu_count (20 Trainium2 chips
  // are two trn2.48xlarge of 16, 32 chips billed); 0 and 0 where no GPU count was priced. A serving
  // replica (`replicas_per_instance` > 0) shares its instance with as many others as fit: 2 replicas
  // of 3 GPUs to an instance of 8 bill its 8 GPUs between them, 2 idle (billed_gpus 8).
  int gpus = 0;
  int billed_gpus = 0;
  int replicas_per_instance = 0;

  // billed / run: what the run's GPU-hours are multiplied by (1 where the price bills the run's hours).
  [[nodiscard]] double billed_factor() const { return run.value() > 0 ? billed.value() / run.value() : 1.0; }
  // The GPUs billed over the GPUs used: what whole instances add (1 where the GPUs fill them, or no
  // count was priced); for replicas sharing an instance, its GPUs over theirs (8 / 6 for 2 of 3).
  [[nodiscard]] double instance_factor() const {
    if (gpus <= 0 || billed_gpus <= 0) return 1.0;
    return static_cast<double>(billed_gpus) / (static_cast<double>(gpus) * std::max(1, replicas_per_instance));
  }
  // The rent of the `gpus` asked for per hour: the price per GPU-hour x the GPUs billed, shared among
  // the replicas of an instance (exact where they divide it; else rounded at Decimal's 12th place).
  [[nodiscard]] MoneyRate rate() const {
    if (billed_gpus <= 0) return per_gpu_hour * Decimal(std::max(1, gpus));
    const MoneyRate all = per_gpu_hour * Decimal(billed_gpus);
    return replicas_per_instance > 1 ? MoneyRate(all.amount() / Decimal(replicas_per_instance), all.currency()) : all;
  }
  // What cheapest_rent ranks offers by: the bill for the run (rate() x billed), else an hour's rent.
  [[nodiscard]] Decimal bill() const { return (run.value() > 0 ? rate() * billed : rate() * Duration::from_value(3600)).amount(); }
  // "offer-id (on_demand, 2026-03-01)": where the price comes from, the rate where converted, the
  // time billed where longer than the run, and the whole instances where they hold more GPUs.
  [[nodiscard]] std::string source() const {
    std::string inst;
    const int per = std::max(1, offer->gpu_count);
    if (replicas_per_instance > 0 && gpus <= per) {
      if (billed_gpus > gpus * replicas_per_instance)
        inst = ", " + std::to_string(replicas_per_instance) + (replicas_per_instance > 1 ? " replicas" : " replica") + " of " + std::to_string(gpus) +
             (gpus > 1 ? " GPUs" : " GPU") + " to an instance of " + std::to_string(per) + " (" + std::to_string(per - gpus * replicas_per_instance) +
             " idle, billed)";
    } else if (billed_gpus > gpus) {
      inst = ", " + std::to_string(billed_gpus / per) + " whole instance" + (billed_gpus / per > 1 ? "s" : "") + " of " + std::to_string(per) +
             " GPUs (" + std::to_string(billed_gpus) + ") for " + std::to_string(gpus);
    }
    return offer_price_source(*offer, kind, converted ? ", converted at " + usd_rate_text(*converted) : std::string()) +
           billing_text(kind, offer->min_term, run, billed) + inst;
  }
};

// Whether an instance of offer `o` (of `gpu`) holds `node_gpus` GPUs that must share one node (a TP
// group, the node a run was timed on): its own GPUs (up to max_gpus of one host for an offer sold by
// the GPU), or a scale-up domain its instances share (an NVL72 rack's NVLink, a TPU pod's chip links).
inline bool instance_holds(const CloudOffer& o, const GpuSpec& gpu, int node_gpus) {
  return node_gpus <= o.instance_gpus() || gpu.nvlink_domain >= node_gpus || gpu.chip_link_domain >= node_gpus;
}

// The network between offer `o`'s instances as a fabric, each GPU its share: the one its provider
// publishes (perf::offer_fabric); none for a slice of a server that records none; for an instance of
// a whole server (or a scale-up domain) that records none, the GPU's usual network (perf::usual_fabric:
// an assumption, the one the GPU's rows are timed on when no --fabric is given).
inline perf::Fabric offer_network(const CloudOffer& o, const GpuSpec& gpu) {
  if (std::optional<perf::Fabric> f = perf::offer_fabric(o, gpu)) return *std::move(f);
  return perf::usual_fabric(gpu);
}

// The rate per GPU (link bandwidth x efficiency, perf::Link) at which offer `o`'s instances carry a
// run's traffic between them (offer_network, on a node of the instance's GPUs, at most the GPU's
// usual node); 0 where they have no network.
inline Bandwidth offer_network_rate(const CloudOffer& o, const GpuSpec& gpu) {
  const perf::Fabric f = offer_network(o, gpu);
  if (f.none()) return Bandwidth{};
  return f.per_gpu(std::max(1, std::min(o.instance_gpus(), perf::usual_gpus_per_node(gpu)))) * f.efficiency;
}

// The rate per GPU a run on `cl` is timed at between its nodes (its inter-node link's bandwidth x
// efficiency, perf::Link::effective); 0 for a run within one node.
inline Bandwidth network_timed(const perf::Cluster& cl) {
  if (cl.nodes() <= 1) return Bandwidth{};
  return cl.inter.bandwidth * cl.inter.efficiency;
}

namespace detail {
// A `network` asked of an offer: a rate per GPU, finite and not negative (0: none asked).
inline void require_network(Bandwidth network, std::string_view field = "network") {
  require_finite(network.value(), field);
  require_nonnegative(network.value(), field);
}
}  // namespace detail

// Whether offer `o` (of `gpu`) runs `gpus` GPUs as fast between nodes as the run was timed: `network`
// is the rate per GPU (bandwidth x efficiency) its traffic between nodes was timed at (0: it stays in
// one node, or nothing is asked). A run within one instance (or the scale-up domain its instances
// share) needs no network; otherwise the offer's network (offer_network_rate: the published one, else
// the GPU's usual one assumed) must carry at least `network` (AWS p4d.24xlarge: 400 Gb/s EFA for 8
// A100s, 42.5 Gb/s a GPU at 85 %, does not run a plan timed on DGX A100's 200 Gb/s HDR InfiniBand a
// GPU, 170 Gb/s at 85 %). Latency is not compared: a slower network with a longer step time (TCP's 30
// us against InfiniBand's 5) holds where its rate does.
inline bool network_holds(const CloudOffer& o, const GpuSpec& gpu, int gpus, Bandwidth network) {
  detail::require_network(network);
  if (!(network.value() > 0) || gpus <= o.instance_gpus() || instance_holds(o, gpu, gpus)) return true;
  return offer_network_rate(o, gpu).value() >= network.value() * (1 - 1e-9);
}

// Why offer `o` does not hold a run timed at `network` a GPU between nodes (network_holds false):
// "its instances carry 5.31 GB/s a GPU between them (p4d.24xlarge's 400 Gb/s EFA for 8 GPUs at 85 %),
// less than the 21.2 GB/s a GPU the run is timed on".
// `subject` names the instances ("whose instances" after the offer's id).
inline std::string network_shortfall(const CloudOffer& o, const GpuSpec& gpu, Bandwidth network, std::string_view subject = "its instances") {
  const perf::Fabric f = offer_network(o, gpu);
  const std::string timed = ", less than the " + format(network, {.significant = 3}) + " a GPU the run is timed on";
  if (f.none())
    return std::string(subject) + (o.network_kind == InstanceNetwork::overlay ? " reach each other over an overlay only" +
                                                                                    (o.network.value() > 0 ? " of " + format_number(o.network.value() * 8 / 1e9, 4) + " Gb/s" : std::string()) +
                                                                                    ", no network for collectives"
                                                                              : std::string(" have no network between them recorded")) +
           "; the run is timed on " + format(network, {.significant = 3}) + " a GPU between nodes";
  const bool recorded = perf::offer_fabric(o, gpu).has_value();
  const std::string eff = format_number(f.efficiency * 100, 3) + " %";
  return std::string(subject) + " carry " + format(offer_network_rate(o, gpu), {.significant = 3}) + " a GPU between them (" +
         (recorded ? f.name + " for " + std::to_string(o.instance_gpus()) + (o.instance_gpus() == 1 ? " GPU" : " GPUs") + " at " + eff
                   : "none recorded: the GPU's usual " + f.name + " assumed, at " + eff) +
         ")" + timed;
}

// The price of `o` a run of `run` is billed least at, in the offer's currency: among its on-demand,
// monthly and reserved prices whose term is known (CloudOffer::billable), or its spot price where it
// has none of those. Without a run (or a run of 0), its headline price per hour, none where that is
// reserved (a run of hours cannot be rented at a commitment).
inline std::optional<PriceKind> cheapest_kind(const CloudOffer& o, std::optional<Duration> run = std::nullopt) {
  if (!run || !(run->value() > 0)) {
    const PriceKind k = o.headline();
    return k == PriceKind::reserved ? std::nullopt : std::optional<PriceKind>(k);
  }
  std::optional<PriceKind> best;
  std::optional<Decimal> least;
  for (PriceKind k : {PriceKind::on_demand, PriceKind::monthly, PriceKind::reserved}) {
    if (!o.billable(k)) continue;
    const Decimal bill = (o.per_instance_hour(k) * o.billed_time(k, *run)).amount();
    if (!least || bill < *least) {
      best = k;
      least = bill;
    }
  }
  if (!best && o.has(PriceKind::spot)) best = PriceKind::spot;
  return best;
}

// cheapest_rent's answer with the offer its network rule passed over: `rent`, the cheapest among the
// offers whose instances carry the run's network; `passed_over`, the cheapest offer of all where it is
// another whose bill is strictly the lower (its network too slow), else absent. One pass over the offers.
struct RentChoice {
  std::optional<Rent> rent;
  std::optional<Rent> passed_over;
};
inline RentChoice cheapest_rent_choice(const Catalog& c, const std::string& gpu, const std::vector<ExchangeRate>& fx = {},
                                       std::optional<Duration> run = std::nullopt, int gpus = 0, int node_gpus = 1, bool replicas = false,
                                       Bandwidth network = Bandwidth{}) {
  require_nonnegative(gpus, "gpus");
  if (gpus > (1 << 20)) detail::fail("gpus", std::to_string(gpus), "is more than 1,048,576 GPUs");
  require_positive_count(node_gpus, "node_gpus");
  detail::require_network(network);
  const GpuSpec& spec = c.find_gpu(gpu);
  const bool for_run = run && run->value() > 0;
  std::optional<Rent> best, any;
  std::optional<Decimal> best_bill, any_bill;
  for (const CloudOffer* o : c.offers_for_gpu(gpu)) {
    if (!instance_holds(*o, spec, node_gpus)) continue;
    const std::optional<PriceKind> k = cheapest_kind(*o, run);
    if (!k) continue;
    MoneyRate r = o->per_gpu_hour(*k);
    std::optional<ExchangeRate> via;
    if (r.currency() != Currency::USD) {
      via = usd_rate(fx, r.currency());
      if (!via) continue;
      r = convert(r, *via);
    }
    Rent rent{r, o, *k, via};
    if (for_run) {
      rent.run = *run;
      rent.billed = o->billed_time(*k, *run);
    }
    if (gpus > 0) {  // whole instances: an offer of 16 GPUs bills 32 for a run on 20
      const int per = std::max(1, o->gpu_count);
      rent.gpus = gpus;
      if (replicas && gpus <= per) {
        rent.replicas_per_instance = per / gpus;
        rent.billed_gpus = per;
      } else {
        if (replicas) rent.replicas_per_instance = 1;
        rent.billed_gpus = static_cast<int>((static_cast<long long>(gpus) + per - 1) / per * per);
      }
    }
    const Decimal bill = rent.bill();
    if (!any || bill < *any_bill) {
      any = rent;
      any_bill = bill;
    }
    if (!network_holds(*o, spec, gpus, network)) continue;
    if (!best || bill < *best_bill) {
      best = rent;
      best_bill = bill;
    }
  }
  RentChoice out{best, std::nullopt};
  if (best && any && any->offer != best->offer && *any_bill < *best_bill) out.passed_over = any;
  return out;
}

// The cheapest way to rent a GPU model among the offers, in USD: offers in USD, and those in another
// currency for which `fx` has a rate into USD, each at its cheapest_kind, among the offers whose
// instances hold `node_gpus` GPUs in one node (instance_holds: a run timed on 8-GPU nodes, or a
// serving replica with TP 4, is not priced from 1-GPU instances it could not run on).
//   no run: the cheapest headline price per GPU-hour; offers whose only prices are reserved are left
//           out (they stay in the catalog and the cloud rows);
//   a run:  the cheapest bill for that wall clock, price x billed time: a monthly rental bills whole
//           months, a reserved price at least its term (CloudOffer::billed_time), so a 12-month
//           commitment wins only a run that long and a month's rent only a run near a month.
//   gpus:   billed in whole instances; with `replicas`, `gpus` is one serving replica, and as many
//           replicas as fit share an instance (Rent::replicas_per_instance), the rest of it idle.
//   network: the rate per GPU (bandwidth x efficiency) the run's traffic between nodes was timed at;
//           offers whose instances carry it slower are left out (network_holds), so that a plan timed
//           on InfiniBand is not priced from instances on a slower network; 0: none asked.
inline std::optional<Rent> cheapest_rent(const Catalog& c, const std::string& gpu, const std::vector<ExchangeRate>& fx = {},
                                         std::optional<Duration> run = std::nullopt, int gpus = 0, int node_gpus = 1, bool replicas = false,
                                         Bandwidth network = Bandwidth{}) {
  return cheapest_rent_choice(c, gpu, fx, run, gpus, node_gpus, replicas, network).rent;
}

// Each offer for `gpu` that no rent can come from, and why: "autodl-a800 (in CNY: --fx CNY=RATE@DATE
// converts it)", "do-mi350x (reserved, without its term)", "lambda-gpu-1x-a100 (instances of 1 GPU;
// the plan needs 4 in one node)"; without a run (a rate per hour), "do-mi350x (reserved only: a
// commitment, not an hourly price)". Empty where a rent exists or the catalog has no offer for the GPU.
inline std::vector<std::string> offers_left_out(const Catalog& c, const std::string& gpu, const std::vector<ExchangeRate>& fx = {},
                                                bool for_run = true, int node_gpus = 1, int gpus = 0, Bandwidth network = Bandwidth{}) {
  require_positive_count(node_gpus, "node_gpus");
  require_nonnegative(gpus, "gpus");
  detail::require_network(network);
  const GpuSpec& spec = c.find_gpu(gpu);
  std::vector<std::string> out;
  // An offer priced in a currency without a rate into USD: how to convert it ("" where it needs none).
  const auto currency_reason = [&](const CloudOffer& o) -> std::string {
    if (o.currency == Currency::USD || usd_rate(fx, o.currency)) return {};
    const std::string cur(code(o.currency));
    return "in " + cur + ": --fx " + cur + "=RATE@DATE converts it";
  };
  for (const CloudOffer* o : c.offers_for_gpu(gpu)) {
    const std::optional<PriceKind> k = cheapest_kind(*o, for_run ? std::optional<Duration>(Duration::from_value(3600)) : std::nullopt);
    if (!instance_holds(*o, spec, node_gpus)) {
      const int per = o->instance_gpus();
      out.push_back(o->id + " (instances of " + std::to_string(per) + (per == 1 ? " GPU" : " GPUs") + "; the plan needs " + std::to_string(node_gpus) +
                    " in one node)");
    } else if (!network_holds(*o, spec, gpus, network)) {
      const std::string cur = currency_reason(*o);
      out.push_back(o->id + " (" + network_shortfall(*o, spec, network) + (cur.empty() ? "" : "; and " + cur) + ")");
    } else if (!k) {
      out.push_back(o->id + (for_run ? " (reserved, without its term: what a run is billed is unknown)"
                                     : " (reserved only: a commitment, not an hourly price)"));
    } else if (const std::string cur = currency_reason(*o); !cur.empty()) {
      out.push_back(o->id + " (" + cur + ")");
    }
  }
  return out;
}

struct FootprintOptions {
  double pue = 1.0;
  double grid_g_per_kwh = 436;              // world 2022 (Ember, Global Electricity Review 2023)
  std::optional<MoneyRate> price_per_gpu_hour;  // absent: the GPU's cheapest cloud offer (cheapest_rent)
  std::string price_from = "given";         // where a given price comes from (a flag, a quote)
  std::vector<ExchangeRate> fx;             // rates into USD: offers in those currencies join the cheapest
  // Bill the run as the offer sells it (a monthly rent whole months, a reserved price at least its
  // term): a run's cost. false: the cheapest price per hour, for a rate of work (serving, a unit cost).
  // false also makes the run's GPUs one serving replica, which shares an instance with as many
  // others as fit (cheapest_rent's `replicas`).
  bool bill_as_sold = true;
  HostAllowance host{};
  // GPUs that must share one rented instance (a serving replica's TP group); 0: the node the run was
  // timed on (run_footprint's gpus_per_node, at most the run's GPUs), any instance where that is 0.
  int node_gpus = 0;
  // The rate per GPU (bandwidth x efficiency) the run's traffic between nodes was timed at: offers
  // whose instances carry it slower are not its rent (cheapest_rent's `network`); 0: none asked. The
  // training reports set it from the cluster they time on, where it spans nodes.
  Bandwidth network{};
};

struct RunFootprint {
  ItPower power;
  double pue = 1.0;
  double grid_g_per_kwh = 0;
  std::optional<double> kwh;     // IT power x time x PUE; absent where the power is unknown (ItPower::known)
  std::optional<double> co2_kg;  // kWh x grid intensity; absent with kwh
  std::optional<MoneyRate> price;  // per GPU-hour; absent: none given and no offer in USD (or converted with fx)
  std::string price_from;
  std::string price_offer;         // the cloud offer's id the price comes from; empty: a given price
  std::optional<PriceKind> price_kind;  // the offer's price it is; absent for a given price
  double billed_gpu_hours = 0;     // the GPU-hours paid for: the run's, or more where the price bills whole months, a term or whole instances
  double instance_factor = 1;      // GPUs billed over GPUs used: whole instances (Rent::instance_factor); 1 for a given price
  std::optional<Money> cost;       // price x billed GPU-hours
  std::string no_price_why;        // without a price: the GPU's offers left out and why (offers_left_out)
  // The offer whose bill would have been cheaper but whose network between instances is slower than
  // the run is timed on (FootprintOptions::network), and why: "aws-p4d.24xlarge, whose instances carry
  // ..." (network_shortfall); empty where the cheapest offer was taken.
  std::string passed_over;
};

// `gpus` of `g` busy for `time` (the run's wall clock), `gpu_hours` GPU-hours priced; `gpus_per_node`:
// the node size the run was timed on (0: not known), for the hosts' power (gpu_it_power).
inline RunFootprint run_footprint(const Catalog& c, const GpuSpec& g, int gpus, Duration time, double gpu_hours, const FootprintOptions& o = {},
                                  int gpus_per_node = 0) {
  require_pue(o.pue, "pue");
  require_finite(o.grid_g_per_kwh, "grid_g_per_kwh");
  require_nonnegative(o.grid_g_per_kwh, "grid_g_per_kwh");
  require_finite(time.value(), "time");
  require_nonnegative(time.value(), "time");
  require_finite(gpu_hours, "gpu_hours");
  require_nonnegative(gpu_hours, "gpu_hours");
  validate_usd_rates(o.fx);
  require_nonnegative(o.node_gpus, "node_gpus");
  detail::require_network(o.network);
  if (o.node_gpus > gpus && gpus > 0)
    detail::fail("node_gpus", std::to_string(o.node_gpus), "is more than the run's " + std::to_string(gpus) + " GPUs: a node holds at most the GPUs it runs");
  const int node = o.node_gpus > 0 ? o.node_gpus : gpus_per_node > 0 ? std::min(gpus_per_node, gpus) : 1;
  RunFootprint f;
  f.power = gpu_it_power(g, gpus, o.host, gpus_per_node);
  f.pue = o.pue;
  f.grid_g_per_kwh = o.grid_g_per_kwh;
  f.billed_gpu_hours = gpu_hours;
  if (f.power.known) {
    const Energy energy = f.power.total * time * o.pue;
    f.kwh = energy.value() / 3.6e6;
    f.co2_kg = (energy * grid::g_per_kwh(o.grid_g_per_kwh)).value();
  }
  if (o.price_per_gpu_hour) {
    f.price = o.price_per_gpu_hour;
    f.price_from = o.price_from;
  } else if (const RentChoice choice = cheapest_rent_choice(c, g.id, o.fx, o.bill_as_sold ? std::optional<Duration>(time) : std::nullopt, gpus, node,
                                                            !o.bill_as_sold, o.network);
             choice.rent) {
    const std::optional<Rent>& r = choice.rent;
    f.price = r->per_gpu_hour;
    f.price_from = r->source();
    f.price_offer = r->offer->id;
    f.price_kind = r->kind;
    f.instance_factor = r->instance_factor();
    f.billed_gpu_hours = gpu_hours * r->billed_factor() * f.instance_factor;
    // The offer the network rule passed over, where its bill is strictly the lower.
    if (choice.passed_over) f.passed_over = choice.passed_over->offer->id + ", " + network_shortfall(*choice.passed_over->offer, g, o.network, "whose instances");
  }
  if (f.price) f.cost = *f.price * Duration::from_value(f.billed_gpu_hours * 3600.0);  // price x billed GPU-hours
  if (!f.price) {
    for (const std::string& w : offers_left_out(c, g.id, o.fx, o.bill_as_sold, node, gpus, o.network)) f.no_price_why += (f.no_price_why.empty() ? "" : "; ") + w;
  }
  return f;
}

}  // namespace capplan
