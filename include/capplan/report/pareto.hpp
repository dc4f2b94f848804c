// The Pareto frontier of a table: rows that no other row beats on every chosen objective
// (e.g. lower price, shorter time, more memory). Rows missing a value are never on it.
#pragma once

#include "capplan/report/table.hpp"

#include <vector>

namespace capplan {

struct Objective {
  std::string column;   // column key
  bool maximize = false;
};

// Indices of the rows on the frontier. Row a dominates b when it is at least as good on every
// objective and strictly better on one.
inline std::vector<std::size_t> pareto_frontier(const Table& t, const std::vector<Objective>& objectives) {
  std::vector<std::size_t> cols;
  for (const auto& o : objectives) cols.push_back(t.column_index(o.column));
  auto value = [&](std::size_t row, std::size_t k) -> std::optional<double> {
    const auto& n = t.rows[row][cols[k]].number;
    if (!n) return std::nullopt;
    return objectives[k].maximize ? -*n : *n;  // lower is better after the sign flip
  };
  std::vector<std::size_t> out;
  for (std::size_t a = 0; a < t.rows.size(); ++a) {
    bool complete = true;
    for (std::size_t k = 0; k < cols.size(); ++k) complete = complete && value(a, k).has_value();
    if (!complete) continue;
    bool dominated = false;
    for (std::size_t b = 0; b < t.rows.size() && !dominated; ++b) {
      if (b == a) continue;
      bool all_le = true, one_lt = false;
      for (std::size_t k = 0; k < cols.size(); ++k) {
        auto vb = value(b, k);
        if (!vb) {
          all_le = false;
          break;
        }
        const double va = *value(a, k);
        if (*vb > va) all_le = false;
        if (*vb < va) one_lt = true;
      }
      dominated = all_le && one_lt;
    }
    if (!dominated) out.push_back(a);
  }
  return out;
}

// Flags the first cell of every frontier row (rendered "name*" in text, bold elsewhere).
inline void mark_pareto(Table& t, const std::vector<Objective>& objectives) {
  for (std::size_t r : pareto_frontier(t, objectives)) t.rows[r][0].flag = true;
}

}  // namespace capplan
