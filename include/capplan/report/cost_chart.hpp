// The own-versus-rent comparison (cost/compare.hpp) as a picture: the cumulative cost of owning and of
// renting by month, with the break-even month marked. `capplan tco` draws one; `capplan compare`'s HTML
// report draws one per row it picks (the Pareto rows with both a purchase price and a rent).
//
//   std::string svg = render_svg(cost_chart(compare_costs(owned, rented, options)));
#pragma once

#include "capplan/cost/compare.hpp"
#include "capplan/money/format.hpp"
#include "capplan/report/chart.hpp"

#include <string>
#include <utility>

namespace capplan {

// Series "Owned", "Owned net of resale" (when the owned option has a resale value) and "Rented", in
// the owned option's currency; the marker at the break-even month, when there is one.
inline LineChart cost_chart(const CostComparison& c, std::string title = "Cumulative cost: own versus rent") {
  LineChart chart;
  chart.title = std::move(title);
  chart.x_label = "Month";
  chart.y_label = "Cumulative cost (" + std::string(code(c.owned.currency())) + ")";
  const bool resale = c.owned.resale.method != DepreciationMethod::none;
  ChartSeries owned{"Owned", {}, {}}, net{"Owned net of resale", {}, {}}, rented{"Rented", {}, {}};
  for (const MonthRow& m : c.months) {
    const auto x = static_cast<double>(m.month);
    owned.x.push_back(x);
    owned.y.push_back(m.owned_cumulative.amount().to_double());
    net.x.push_back(x);
    net.y.push_back(m.owned_net_cumulative.amount().to_double());
    rented.x.push_back(x);
    rented.y.push_back(m.rented_cumulative.amount().to_double());
  }
  chart.series.push_back(std::move(owned));
  if (resale) chart.series.push_back(std::move(net));
  chart.series.push_back(std::move(rented));
  if (c.break_even_month) {
    chart.marker_x = *c.break_even_month;
    chart.marker_label = "break-even: month " + std::to_string(*c.break_even_month);
  }
  return chart;
}

}  // namespace capplan
