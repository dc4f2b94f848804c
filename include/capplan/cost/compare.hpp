// Owning versus renting over time: the month-by-month cumulative cost of each side, the
// break-even month (with and without resale), and the break-even utilization.
//
//   CostComparison c = compare_costs(desk, RentedOption::on_demand("cloud", 2.14_USD / 1_h),
//                                    {.utilization = 0.15, .horizon_months = 24});
//   *c.break_even_month == 10;  in(*c.break_even_time, "days") ≈ 293;  c.explain(); c.table();
//
// Series (all in the owned option's currency; the rented side is converted with the given
// ExchangeRate, never implicitly):
//   owned cumulative  O_m = P + Σ_{k=1..m} run_k × d_k          (P at month 0, undiscounted)
//   rented cumulative R_m = Σ_{k=1..m} rent_k × d_k
//   owned net of resale N_m = O_m − V(m) × d_m   (V: resale value, depreciation.hpp; from month 1)
// with d_k = 1 without a discount rate (discount.hpp otherwise). The break-even month is the
// first m with O_m <= R_m (N_m <= R_m with resale); the break-even time interpolates linearly
// inside that month: t = (m − 1 + f) months, f = (O_{m−1} − R_{m−1}) / ((O_{m−1} − R_{m−1}) −
// (O_m − R_m)), exact for costs that are constant per month.
#pragma once

#include "capplan/cost/discount.hpp"
#include "capplan/cost/owned.hpp"
#include "capplan/cost/rented.hpp"
#include "capplan/error.hpp"
#include "capplan/power/explain.hpp"

#include <optional>
#include <string>
#include <vector>

namespace capplan {

struct CompareOptions {
  double utilization = 1.0;                // busy share of each month on the owned machine
  int horizon_months = 36;
  std::optional<DiscountRate> discount{};    // none: no discounting
  std::optional<ExchangeRate> fx{};          // converts the rented currency into the owned one
};

struct MonthRow {
  int month = 0;
  Decimal discount_factor{1};
  Money owned{};                  // this month, discounted
  Money rented{};                 // this month, discounted
  Money owned_cumulative{};
  Money rented_cumulative{};
  Money resale_value{};           // V(m) × d_m
  Money owned_net_cumulative{};   // owned_cumulative − resale_value
};

struct CostComparison {
  OwnedOption owned{};
  RentedOption rented{};
  CompareOptions options{};
  OwnedMonth owned_month_costs{};     // nominal, per month
  RentedMonth rented_month_costs{};   // nominal, per month, in the rental's currency
  Money rented_month_converted{};     // the same in the owned currency
  std::vector<MonthRow> months{};     // 0..horizon
  std::optional<int> break_even_month{};
  std::optional<int> break_even_month_with_resale{};
  std::optional<Duration> break_even_time{};
  std::optional<Duration> break_even_time_with_resale{};

  [[nodiscard]] const MonthRow& last() const { return months.back(); }

  [[nodiscard]] std::string explain() const {
    using namespace explain_text;
    std::string s = owned.name + ": " + money(owned.purchase) + " at month 0 + " + owned_month_costs.explain() + "\n";
    s += rented.name + ": " + rented_month_costs.explain();
    if (rented.currency() != owned.currency() && options.fx) {
      s += " → " + money(rented_month_converted) + " at " + options.fx->rate.to_string() + " " +
           std::string(code(options.fx->to)) + "/" + std::string(code(options.fx->from)) + " (" + options.fx->as_of + ")";
    }
    s += " per month\n";
    if (options.discount) s += "discounted at " + options.discount->annual().to_string() + " a year (effective)\n";
    auto when = [&](const std::optional<int>& m, const std::optional<Duration>& t) {
      if (!m) return std::string("not within ") + std::to_string(options.horizon_months) + " months";
      return "month " + std::to_string(*m) + " (" + number(t->value() / scale::month, 4) + " months = " +
             number(t->value() / scale::day, 4) + " days)";
    };
    s += "break-even: " + when(break_even_month, break_even_time);
    if (owned.resale.method != DepreciationMethod::none) {
      s += "; with resale: " + when(break_even_month_with_resale, break_even_time_with_resale);
    }
    s += "\nafter " + std::to_string(options.horizon_months) + " months: owned " + money(last().owned_cumulative);
    if (owned.resale.method != DepreciationMethod::none) s += " (net of resale " + money(last().owned_net_cumulative) + ")";
    s += ", rented " + money(last().rented_cumulative);
    return s;
  }

  // Month-by-month cumulative costs as a plain-text table.
  [[nodiscard]] std::string table() const {
    std::string s = "month | owned cumulative | owned net of resale | rented cumulative\n";
    for (const auto& r : months) {
      s += std::to_string(r.month) + " | " + explain_text::money(r.owned_cumulative) + " | " +
           explain_text::money(r.owned_net_cumulative) + " | " + explain_text::money(r.rented_cumulative) + "\n";
    }
    return s;
  }
};

namespace detail {
// First month with a <= b, and the linearly interpolated crossing time (see header). The series
// net of resale starts at month 1: selling at month 0 is not owning.
inline void find_break_even(const std::vector<MonthRow>& rows, bool net, std::optional<int>& month,
                            std::optional<Duration>& time) {
  auto diff = [&](const MonthRow& r) { return (net ? r.owned_net_cumulative : r.owned_cumulative) - r.rented_cumulative; };
  for (std::size_t i = net ? 1 : 0; i < rows.size(); ++i) {
    const Money d = diff(rows[i]);
    if (d.is_negative() || d.is_zero()) {
      month = rows[i].month;
      if (i == 0) {
        time = Duration{};
        return;
      }
      const Money before = diff(rows[i - 1]);
      double f = 0.0;
      if (before.amount() > Decimal(0)) f = (before.amount() / (before.amount() - d.amount())).to_double();  // linear
      time = Duration::from_value((static_cast<double>(rows[i].month - 1) + f) * scale::month);
      return;
    }
  }
}
}  // namespace detail

// Twenty years: beyond any hardware's service life, and a bound on the month-by-month table.
inline constexpr int max_horizon_months = 240;

inline CostComparison compare_costs(const OwnedOption& owned, const RentedOption& rented, const CompareOptions& o = {}) {
  owned.validate();
  rented.validate();
  require_fraction(o.utilization, "utilization");
  if (o.horizon_months < 1 || o.horizon_months > max_horizon_months) {
    detail::fail("horizon_months", std::to_string(o.horizon_months), "is outside 1.." + std::to_string(max_horizon_months) + " (20 years)");
  }
  if (rented.currency() != owned.currency()) {
    const std::string v = std::string(code(rented.currency())) + " vs " + std::string(code(owned.currency()));
    if (!o.fx) {
      throw CurrencyError("rented.currency", v,
                          "rented.currency: " + v + " (owned); pass CompareOptions::fx, a dated ExchangeRate from " +
                              std::string(code(rented.currency())) + " to " + std::string(code(owned.currency())));
    }
    if (o.fx->from != rented.currency() || o.fx->to != owned.currency()) {
      const std::string fv = std::string(code(o.fx->from)) + "->" + std::string(code(o.fx->to));
      throw CurrencyError("fx", fv, "fx: " + fv + " does not convert " + v);
    }
  }
  CostComparison c{owned, rented, o, owned_month(owned, o.utilization), rented_month(rented, o.utilization), Money{}, {},
                   {}, {}, {}, {}};
  c.rented_month_converted = rented.currency() == owned.currency() ? c.rented_month_costs.cost
                                                                   : convert(c.rented_month_costs.cost, *o.fx);
  const Currency cur = owned.currency();
  std::vector<Decimal> d = o.discount ? o.discount->factors(o.horizon_months)
                                      : std::vector<Decimal>(static_cast<std::size_t>(o.horizon_months) + 1, Decimal(1));
  MonthRow r0;
  r0.month = 0;
  r0.owned = owned.purchase;
  r0.rented = Money(0, cur);
  r0.owned_cumulative = owned.purchase;
  r0.rented_cumulative = Money(0, cur);
  r0.resale_value = resale_value(owned.purchase, owned.resale, 0);
  r0.owned_net_cumulative = r0.owned_cumulative - r0.resale_value;
  c.months.push_back(r0);
  for (int m = 1; m <= o.horizon_months; ++m) {
    const auto& prev = c.months.back();
    MonthRow r;
    r.month = m;
    r.discount_factor = d[static_cast<std::size_t>(m)];
    r.owned = c.owned_month_costs.total * r.discount_factor;
    r.rented = c.rented_month_converted * r.discount_factor;
    r.owned_cumulative = prev.owned_cumulative + r.owned;
    r.rented_cumulative = prev.rented_cumulative + r.rented;
    r.resale_value = resale_value(owned.purchase, owned.resale, m) * r.discount_factor;
    r.owned_net_cumulative = r.owned_cumulative - r.resale_value;
    c.months.push_back(r);
  }
  detail::find_break_even(c.months, false, c.break_even_month, c.break_even_time);
  if (owned.resale.method != DepreciationMethod::none) {
    detail::find_break_even(c.months, true, c.break_even_month_with_resale, c.break_even_time_with_resale);
  }
  return c;
}

// The utilization at which owning and renting cost the same over the horizon.
struct BreakEvenUtilization {
  std::optional<double> utilization{};  // none: one side is cheaper at every utilization
  bool owning_cheaper_above = true;   // owning wins above the break-even (usage-priced rentals)
  Money difference_at_0{};              // owned − rented over the horizon at u = 0
  Money difference_at_1{};              // ... at u = 1
  bool with_resale = false;

  [[nodiscard]] std::string explain() const {
    using namespace explain_text;
    std::string s = "owned − rented over the horizon: " + money(difference_at_0) + " at utilization 0, " +
                    money(difference_at_1) + " at 1";
    if (!utilization) return s + "; no break-even: " + (difference_at_1.is_negative() ? "owning" : "renting") +
                             " is cheaper at every utilization";
    return s + "; break-even at utilization " + number(*utilization, 4) + " (owning is cheaper " +
           (owning_cheaper_above ? "above" : "below") + " it)";
  }
};

// Bisection on u in [0, 1] of D(u) = owned(u) − rented(u) at the horizon (to 1e-9). D is
// linear in u for on-demand and spot rentals and piecewise linear for reserved and monthly
// ones (whole instances), so bisection finds the crossing in both cases.
inline BreakEvenUtilization break_even_utilization(const OwnedOption& owned, const RentedOption& rented,
                                                   CompareOptions o, bool with_resale = false) {
  auto D = [&](double u) {
    o.utilization = u;
    const auto c = compare_costs(owned, rented, o);
    return (with_resale ? c.last().owned_net_cumulative : c.last().owned_cumulative) - c.last().rented_cumulative;
  };
  BreakEvenUtilization b;
  b.with_resale = with_resale;
  b.difference_at_0 = D(0.0);
  b.difference_at_1 = D(1.0);
  const int s0 = b.difference_at_0.amount().sign();
  const int s1 = b.difference_at_1.amount().sign();
  if (s0 == s1 && s0 != 0) return b;
  b.owning_cheaper_above = s0 > 0 || s1 < 0;
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 60 && hi - lo > 1e-9; ++i) {
    const double mid = 0.5 * (lo + hi);
    const int sm = D(mid).amount().sign();
    if (sm == 0) {
      lo = hi = mid;
      break;
    }
    if (sm == s0) lo = mid;
    else hi = mid;
  }
  b.utilization = 0.5 * (lo + hi);
  return b;
}

}  // namespace capplan
