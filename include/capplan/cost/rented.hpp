// Renting: on-demand, spot (with an interruption overhead), reserved (paid whether used or not)
// or a monthly rental, in any currency; the kind is the cloud catalog's PriceKind (hardware/cloud.hpp).
//
// The rented side does the same work as the owned machine: if the owned machine is busy for
// u × 730 h a month and the rented hardware does `throughput_vs_owned` times as much work per
// hour, the rental needs u × 730 h / throughput_vs_owned hours a month.
//   on-demand: rate × hours
//   spot:      rate × hours × (1 + interruption_overhead)   (work redone after preemptions)
//   reserved:  rate × 730 h × instances, instances = ceil(hours / 730 h), at least 1; with a term
//              shorter than a month: rate × reserved_billed(hours, term) (hardware/cloud.hpp): whole
//              days for a 1-day term (an EC2 Capacity Block), max(hours, term) for another
//   monthly:   price × instances, same instance count
#pragma once

#include "capplan/error.hpp"
#include "capplan/hardware/cloud.hpp"
#include "capplan/money/money.hpp"
#include "capplan/power/energy.hpp"
#include "capplan/power/explain.hpp"

#include <cmath>
#include <optional>
#include <string>

namespace capplan {

struct RentedOption {
  std::string name = "rented";
  PriceKind kind = PriceKind::on_demand;
  MoneyRate hourly{};                        // on-demand, spot, reserved
  std::optional<Money> monthly{};            // monthly rental
  double interruption_overhead = 0;        // spot: extra share of work redone, >= 0
  double throughput_vs_owned = 1.0;        // work per hour relative to the owned option, > 0
  Duration term{};                         // reserved: the commitment (0 or >= a month: held all month)

  static RentedOption on_demand(std::string name, MoneyRate rate, double throughput = 1.0) {
    return RentedOption{std::move(name), PriceKind::on_demand, rate, std::nullopt, 0, throughput};
  }
  static RentedOption spot(std::string name, MoneyRate rate, double interruption_overhead, double throughput = 1.0) {
    return RentedOption{std::move(name), PriceKind::spot, rate, std::nullopt, interruption_overhead, throughput};
  }
  static RentedOption reserved(std::string name, MoneyRate rate, double throughput = 1.0) {
    return RentedOption{std::move(name), PriceKind::reserved, rate, std::nullopt, 0, throughput};
  }
  static RentedOption monthly_rental(std::string name, Money per_month, double throughput = 1.0) {
    return RentedOption{std::move(name), PriceKind::monthly, MoneyRate(0, per_month.currency()), per_month, 0,
                        throughput};
  }
  // A catalog price as the offer sells it, from its hourly equivalent `rate` (CloudOffer::per_gpu_hour
  // times the GPUs rented): a monthly rental at rate x 730 h to the cent, a reserved price for its
  // `term` where one is known, anything else by the hour (spot too, as compare's rows count it).
  static RentedOption as_sold(std::string name, MoneyRate rate, PriceKind kind, const std::optional<Duration>& term = std::nullopt) {
    if (kind == PriceKind::monthly) return monthly_rental(std::move(name), (rate * Duration::from_value(scale::month)).rounded_to(2));
    if (kind == PriceKind::reserved && term) {
      RentedOption r = reserved(std::move(name), rate);
      r.term = *term;
      return r;
    }
    return on_demand(std::move(name), rate);
  }

  [[nodiscard]] Currency currency() const {
    return kind == PriceKind::monthly && monthly ? monthly->currency() : hourly.currency();
  }

  void validate() const {
    require_positive(throughput_vs_owned, "rented.throughput_vs_owned");
    require_nonnegative(interruption_overhead, "rented.interruption_overhead");
    require_finite(term.value(), "rented.term");
    require_nonnegative(term.value(), "rented.term");
    if (kind == PriceKind::monthly) {
      if (!monthly) detail::fail("rented.monthly", "none", "is required for a monthly rental");
      require_nonnegative(*monthly, "rented.monthly");
    } else {
      require_nonnegative(hourly, "rented.hourly");
    }
  }
};

// One month of renting, in the rental's own currency.
struct RentedMonth {
  PriceKind kind = PriceKind::on_demand;
  Duration hours_needed{};  // to match the owned machine's work
  Duration hours_billed{};
  int instances = 0;        // reserved / monthly
  Money cost{};
  std::string arithmetic{};

  [[nodiscard]] std::string explain() const { return arithmetic; }
};

inline RentedMonth rented_month(const RentedOption& r, double utilization) {
  r.validate();
  require_fraction(utilization, "utilization");
  using namespace explain_text;
  const Duration month = Duration::from_value(scale::month);
  RentedMonth m{};
  m.kind = r.kind;
  m.hours_needed = month * utilization / r.throughput_vs_owned;  // same work: u × 730 h / throughput
  const std::string need = number(utilization, 4) + " × 730 h" +
                           (r.throughput_vs_owned != 1.0 ? " / " + number(r.throughput_vs_owned, 4) : std::string()) +
                           " = " + hours(m.hours_needed);
  switch (r.kind) {
    case PriceKind::on_demand:
      m.hours_billed = m.hours_needed;
      m.cost = r.hourly * m.hours_billed;  // rate × hours
      m.arithmetic = "on-demand " + need + " × " + price(r.hourly) + " = " + money(m.cost);
      break;
    case PriceKind::spot:
      m.hours_billed = m.hours_needed * (1.0 + r.interruption_overhead);  // work redone after preemptions
      m.cost = r.hourly * m.hours_billed;
      m.arithmetic = "spot " + need + " × (1 + " + number(r.interruption_overhead, 4) + ") = " + hours(m.hours_billed) +
                     " × " + price(r.hourly) + " = " + money(m.cost);
      break;
    case PriceKind::reserved:
      if (r.term.value() > 0 && r.term.value() < month.value()) {
        // Booked for the hours needed: whole days for a Capacity Block, at least the term otherwise.
        m.hours_billed = reserved_billed(m.hours_needed, r.term);
        m.cost = r.hourly * m.hours_billed;
        m.arithmetic = "reserved " + hours(m.hours_needed) + " billed " + hours(m.hours_billed) + " (" +
                       (books_whole_days(r.term) ? std::string("whole days") : "at least its " + hours(r.term) + " term") + ") × " +
                       price(r.hourly) + " = " + money(m.cost);
        break;
      }
      [[fallthrough]];
    case PriceKind::monthly: {
      const double n = std::ceil(m.hours_needed.value() / month.value() - 1e-12);
      m.instances = n < 1.0 ? 1 : static_cast<int>(n);
      m.hours_billed = month * static_cast<double>(m.instances);
      if (r.kind == PriceKind::reserved) {
        m.cost = r.hourly * month * m.instances;  // paid for every hour, used or not
        m.arithmetic = "reserved " + std::to_string(m.instances) + " × 730 h × " + price(r.hourly) + " = " + money(m.cost);
      } else {
        m.cost = *r.monthly * m.instances;
        m.arithmetic = "monthly rental " + std::to_string(m.instances) + " × " + money(*r.monthly) + " = " + money(m.cost);
      }
      break;
    }
  }
  return m;
}

}  // namespace capplan
