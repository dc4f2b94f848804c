// CloudOffer: a rentable instance (or monthly rental) with its prices in its own currency.
// Prices are per INSTANCE; per_gpu_hour() divides by the GPUs in the instance, so the two are
// never confused. A monthly price is turned into an hourly one with 730 h per month (the
// convention of cloud price sheets, capplan::scale::month).
//
// What a run is billed (billed_time): an hourly price (on-demand, spot) bills the run's hours; a
// monthly rental is paid by the month, so whole months, ceil(run / 730 h), at least one and at least
// min_term (a "3-month minimum"); a reserved price is a commitment paid in full: with a term of a
// month or more, max(run, min_term) (Azure, GCP and DigitalOcean reservations for one or three years);
// with a 1-day term, whole days (reserved_billed below: AWS EC2 Capacity Blocks are booked for 1 to 14
// days and extended by whole days, DescribeCapacityBlockOfferings' CapacityDurationHours and the EC2
// User Guide's "Find and purchase Capacity Blocks" and "Extend Capacity Blocks").
#pragma once

#include "capplan/hardware/detail/validate.hpp"
#include "capplan/money/format.hpp"
#include "capplan/money/money.hpp"
#include "capplan/units/format.hpp"
#include "capplan/units/literals.hpp"

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace capplan {

enum class PriceKind { on_demand, spot, reserved, monthly };

// How an offer's instances reach each other for GPU collectives, as the provider names it: plain TCP
// sockets; Google's GPUDirect-TCPX(O) (TCP from GPU memory); AWS's Elastic Fabric Adapter; RDMA over
// Converged Ethernet; InfiniBand; or only an overlay (a marketplace's service network between pods, the
// internet), which carries no collectives: a run stays in one instance (perf/fabric.hpp offer_fabric).
enum class InstanceNetwork { tcp, gpudirect_tcpx, efa, roce, infiniband, overlay };
BOOST_DESCRIBE_ENUM(InstanceNetwork, tcp, gpudirect_tcpx, efa, roce, infiniband, overlay)

inline constexpr std::string_view name(InstanceNetwork k) {
  switch (k) {
    case InstanceNetwork::tcp: return "TCP";
    case InstanceNetwork::gpudirect_tcpx: return "GPUDirect-TCPX";
    case InstanceNetwork::efa: return "EFA";
    case InstanceNetwork::roce: return "RoCE";
    case InstanceNetwork::infiniband: return "InfiniBand";
    case InstanceNetwork::overlay: return "overlay";
  }
  return "?";
}

inline constexpr std::string_view name(PriceKind k) {
  switch (k) {
    case PriceKind::on_demand: return "on_demand";
    case PriceKind::spot: return "spot";
    case PriceKind::reserved: return "reserved";
    case PriceKind::monthly: return "monthly";
  }
  return "?";
}

// "1-year", "1-month", "1-day", "36 h": a reserved term as sellers name it.
inline std::string term_text(Duration term) {
  const double h = term.value() / scale::hour;
  for (auto [unit_h, unit] : {std::pair{8760.0, "year"}, std::pair{730.0, "month"}, std::pair{24.0, "day"}}) {
    const double n = h / unit_h;
    if (n >= 1 && std::fabs(n - std::round(n)) < 1e-9) return std::to_string(std::llround(n)) + "-" + unit;
  }
  return format_number(h, 6) + " h";
}

// What a reserved price with a term shorter than a month bills for `run`: with a 1-day term (an EC2
// Capacity Block), whole days, at least one: a block is booked for 1 to 14 days and extended by whole
// days any number of times ("Extend Capacity Blocks", EC2 User Guide: 1-day increments up to 14 days,
// no limit on extensions), so a run pays its hours rounded up to a day; with another term under a
// month, max(run, term), as a longer one (no increment is sourced for it). InputError naming run or
// term for a negative, NaN or infinite run or a term that is not a positive finite time.
// A term of one day: a reserved price booked in whole days (an EC2 Capacity Block).
inline bool books_whole_days(Duration term) { return std::fabs(term.value() - scale::day) < 1e-6 * scale::day; }

inline Duration reserved_billed(Duration run, Duration term) {
  const double r = run.value(), t = term.value();
  if (!(r >= 0) || !std::isfinite(r)) detail::fail("run", format_number(r, 6), "must be a finite time >= 0");
  if (!(t > 0) || !std::isfinite(t)) detail::fail("term", format_number(t, 6), "must be a positive finite time");
  if (!books_whole_days(term)) return r > t ? run : term;
  return Duration::from_value(std::max(1.0, std::ceil(r / t - 1e-9)) * t);
}

// The time a price of kind k with minimum term `min_term` bills for a run of `run` (see the top of
// this header): the run (on-demand, spot); whole months, at least one and at least the term's
// (monthly); max(run, min_term), or whole days for a 1-day term (reserved). `offer` names the offer in errors.
inline Duration billed_time(PriceKind k, const std::optional<Duration>& min_term, Duration run, std::string_view offer = "") {
  const double r = run.value();
  if (!(r >= 0) || !std::isfinite(r)) detail::fail("run", format_number(r, 6), "must be a finite time >= 0");
  switch (k) {
    case PriceKind::on_demand:
    case PriceKind::spot: return run;
    case PriceKind::monthly: {
      // Whole months, at least the minimum term's; the 1e-9 forgives a run computed as exactly n months.
      const double term = min_term ? min_term->value() : 0.0;
      const double months = std::max({1.0, std::ceil(r / scale::month - 1e-9), std::ceil(term / scale::month - 1e-9)});
      return Duration::from_value(months * scale::month);
    }
    case PriceKind::reserved:
      if (!min_term) {
        detail::fail("min_term", "none", "offer \"" + std::string(offer) + "\" has a reserved price without its minimum term: what a run is billed is unknown");
      }
      if (min_term->value() < scale::month) return reserved_billed(run, *min_term);
      return r > min_term->value() ? run : *min_term;
  }
  return run;
}

struct CloudOffer {
  std::string id{};                      // "aws-p5.48xlarge"
  std::string provider{};                // "AWS"
  std::string instance_type{};           // "p5.48xlarge"
  std::string region{};                  // "us-east-1"; "" where the price is not regional
  int gpu_count = 1;                   // GPUs per instance
  // Sold by the GPU (a marketplace pod: RunPod's --gpuCount, vast.ai's machines): one instance may
  // hold 1 to max_gpus GPUs of one host, each at the per-GPU price, so a run timed on an 8-GPU node
  // can rent one; needs gpu_count 1 (the price per GPU). 0: an instance is exactly gpu_count GPUs.
  int max_gpus = 0;
  std::string gpu_id{};                  // catalog id of the GPU model
  int vcpus = 0;                       // 0: not stated
  DataSize ram{};                      // 0: not stated
  // The network between instances as the provider publishes it: the NICs the GPUs' traffic uses
  // together (a host-only NIC left out where the provider lists it apart), per direction, sustained
  // (AWS g5.xlarge: 2.5 Gb/s, the baseline of its "up to 10"; p4d.24xlarge: 4 x 100 Gb/s EFA); 0: not
  // recorded. Each GPU of an instance gets its share (perf/fabric.hpp offer_fabric); without
  // network_kind the network counts as TCP. With network_kind overlay the instances have no network
  // for collectives, whatever the rate (RunPod's pods: 100 Mb/s between them).
  Bandwidth network{};
  InstanceNetwork network_kind = InstanceNetwork::tcp;
  Currency currency = Currency::USD;
  std::optional<MoneyRate> on_demand{};  // per instance-hour
  std::optional<MoneyRate> spot{};       // per instance-hour
  std::optional<MoneyRate> reserved{};   // per instance-hour (commitment / capacity block)
  std::optional<Money> monthly{};        // per instance-month
  // The shortest time the reserved or the monthly price is sold for (a Capacity Block's 1 day, a
  // 1-year reservation, a 3-month minimum rental); absent: not stated (a reserved price then prices no
  // run, a monthly one bills at least a month). An offer with both prices cannot say whose it is.
  std::optional<Duration> min_term{};
  std::string as_of{};
  std::string source{};
  std::string note{};

  [[nodiscard]] bool has(PriceKind k) const {
    switch (k) {
      case PriceKind::on_demand: return on_demand.has_value();
      case PriceKind::spot: return spot.has_value();
      case PriceKind::reserved: return reserved.has_value();
      case PriceKind::monthly: return monthly.has_value();
    }
    return false;
  }

  // The first price present in the order on-demand, monthly, reserved, spot: what the offer is
  // compared by (warnings.hpp) and listed with.
  [[nodiscard]] PriceKind headline() const {
    for (PriceKind k : {PriceKind::on_demand, PriceKind::monthly, PriceKind::reserved, PriceKind::spot}) {
      if (has(k)) return k;
    }
    detail::fail("on_demand", "none", "offer \"" + id + "\" has no price at all");
  }

  // Price per instance-hour of the given kind; a monthly price is divided by 730 h.
  // Throws InputError naming the kind if the offer has no such price.
  [[nodiscard]] MoneyRate per_instance_hour(PriceKind k) const {
    using namespace capplan::literals;
    switch (k) {
      case PriceKind::on_demand: if (on_demand) return *on_demand; break;
      case PriceKind::spot: if (spot) return *spot; break;
      case PriceKind::reserved: if (reserved) return *reserved; break;
      case PriceKind::monthly: if (monthly) return *monthly / 1_month; break;
    }
    detail::fail(std::string(name(k)), "none", "offer \"" + id + "\" has no " + std::string(name(k)) + " price");
  }
  [[nodiscard]] MoneyRate per_instance_hour() const { return per_instance_hour(headline()); }

  // The most GPUs one instance holds: max_gpus for an offer sold by the GPU, else gpu_count.
  [[nodiscard]] int instance_gpus() const { return max_gpus > 0 ? max_gpus : gpu_count; }

  // Price per GPU-hour: the instance price divided by gpu_count.
  [[nodiscard]] MoneyRate per_gpu_hour(PriceKind k) const { return per_instance_hour(k) / Decimal(gpu_count); }
  [[nodiscard]] MoneyRate per_gpu_hour() const { return per_gpu_hour(headline()); }

  // Whether a run of any length can be priced at kind k: every price but a reserved one whose
  // minimum term is not stated (what it commits to is unknown).
  [[nodiscard]] bool billable(PriceKind k) const { return has(k) && (k != PriceKind::reserved || min_term.has_value()); }

  // The time a price of kind k bills for a run of `run` (capplan::billed_time). Throws InputError
  // naming the kind where the offer has no such price, or min_term where a reserved one has no term.
  [[nodiscard]] Duration billed_time(PriceKind k, Duration run) const;

  // Bounds: GPUs 1..1,024, vCPUs 0..10,000, RAM <= 100 TB, network <= 100 Tb/s; prices >= 0, in `currency`, at most
  // 10,000 per GPU-hour; at least one price.
  void validate() const {
    using namespace capplan::literals;
    detail::check_id(id, "cloud offer");
    const std::string label = detail::entry_label("cloud offer", id);
    detail::check_text(provider, "provider", label);
    detail::check_text(instance_type, "instance_type", label);
    detail::check_count(gpu_count, 1, 1024, "gpu_count", label);
    if (max_gpus != 0) {
      detail::check_count(max_gpus, 1, 1024, "max_gpus", label);
      if (gpu_count != 1)
        detail::fail("max_gpus", std::to_string(max_gpus), "needs gpu_count 1 (an offer priced per GPU), not " + std::to_string(gpu_count) + " " + label);
    }
    detail::check_text(gpu_id, "gpu_id", label);
    detail::check_count(vcpus, 0, 10000, "vcpus", label);
    detail::check_quantity(ram, 100_TB, "ram", label);
    detail::check_quantity(network, Bandwidth::from_value(100e12 / 8), "network", label);
    bool any = false;
    for (PriceKind k : {PriceKind::on_demand, PriceKind::spot, PriceKind::reserved, PriceKind::monthly}) {
      if (!has(k)) continue;
      any = true;
      const std::string f(name(k));
      const MoneyRate r = per_instance_hour(k);
      const std::string shown = k == PriceKind::monthly ? format(*monthly) + "/month" : format(r);
      if (r.currency() != currency) {
        detail::fail(f, shown, "is not in the offer's currency " + std::string(code(currency)) + " " + label);
      }
      if (r.is_negative()) detail::fail(f, shown, "is negative " + label);
      if (r / Decimal(gpu_count) > MoneyRate(10000, currency)) {
        detail::fail(f, shown, "is absurd (more than 10,000 per GPU-hour) " + label);
      }
    }
    if (!any) detail::fail("on_demand", "none", "no price given (on_demand, spot, reserved or monthly) " + label);
    if (min_term) {
      detail::check_quantity(*min_term, Duration::from_value(10 * scale::year), "min_term", label, true);
      if (reserved && monthly)
        detail::fail("min_term", format(*min_term), "is ambiguous with both a reserved and a monthly price; give each its own offer " + label);
    }
    detail::check_date(as_of, "as_of");
    detail::check_text(source, "source", label);
  }
};

inline Duration CloudOffer::billed_time(PriceKind k, Duration run) const {
  if (!has(k)) detail::fail(std::string(name(k)), "none", "offer \"" + id + "\" has no " + std::string(name(k)) + " price");
  return capplan::billed_time(k, min_term, run, id);
}

BOOST_DESCRIBE_STRUCT(CloudOffer, (), (id, provider, instance_type, region, gpu_count, max_gpus, gpu_id, vcpus, ram, network, network_kind, currency,
                                       on_demand, spot, reserved, monthly, min_term, as_of, source, note))
// What a new catalog entry must give; every other member may keep its default.
constexpr auto required_members(std::type_identity<CloudOffer>) {
  return std::tuple{&CloudOffer::id, &CloudOffer::provider, &CloudOffer::instance_type, &CloudOffer::gpu_count,
                    &CloudOffer::gpu_id, &CloudOffer::currency, &CloudOffer::as_of, &CloudOffer::source};
}

}  // namespace capplan
