// The own-versus-rent comparison (cost/compare.hpp) for programs: what `capplan tco --format json`
// prints and Python's CostComparison.output() returns. Money is exact, in the owned option's currency,
// and each money key names that currency (`purchase_usd`, `owned_total_cny`, ...).
#pragma once

#include "capplan/cost/compare.hpp"
#include "capplan/detail/text.hpp"
#include "capplan/money/format.hpp"
#include "capplan/report/value.hpp"

#include <string>
#include <vector>

namespace capplan {

// `notes`: the assumptions the caller states under its tables (utilization, electricity, PUE, ...).
inline Value cost_output(const CostComparison& c, const std::vector<std::string>& notes = {}) {
  const std::string cc = detail::lower_ascii(code(c.owned.currency()));
  auto exact = [](const Money& m) { return Value::Exact{to_json_string(m)}; };
  Value j;
  j["currency"] = std::string(code(c.owned.currency()));
  j["purchase_" + cc] = exact(c.owned.purchase);
  j["owned_per_month_" + cc] = exact(c.owned_month_costs.total);
  j["rented_per_month_" + cc] = exact(c.rented_month_converted);
  j["break_even_month"] = Value::of(c.break_even_month);
  j["break_even_time_s"] = c.break_even_time ? Value(c.break_even_time->value()) : Value();
  j["break_even_month_with_resale"] = Value::of(c.break_even_month_with_resale);
  j["horizon_months"] = c.options.horizon_months;
  j["owned_total_" + cc] = exact(c.last().owned_cumulative);
  j["owned_net_total_" + cc] = exact(c.last().owned_net_cumulative);
  j["rented_total_" + cc] = exact(c.last().rented_cumulative);
  Value months = Value::Array{};
  for (const MonthRow& m : c.months) {
    Value row;
    row["month"] = m.month;
    row["owned_cumulative_" + cc] = exact(m.owned_cumulative);
    row["owned_net_cumulative_" + cc] = exact(m.owned_net_cumulative);
    row["rented_cumulative_" + cc] = exact(m.rented_cumulative);
    months.push_back(std::move(row));
  }
  j["months"] = std::move(months);
  Value n = Value::Array{};
  for (const auto& s : notes) n.push_back(s);
  j["assumptions"] = std::move(n);
  return j;
}

}  // namespace capplan
