// Table: the neutral form of every capplan report (a purchase comparison, a memory breakdown, a
// cost series) before it is rendered as text, Markdown, CSV, JSON or HTML (report/render.hpp).
//
// A cell carries the text people read ("80 GB", "$2.49/h") and, for sorting and machine output,
// the value in the column's canonical unit (a double) or an exact decimal string for money.
#pragma once

#include "capplan/error.hpp"
#include "capplan/report/value.hpp"

#include <boost/describe/enum.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace capplan {

enum class Align { left, right };
BOOST_DESCRIBE_ENUM(Align, left, right)

struct Column {
  std::string key;      // machine name with its unit: "memory_bytes", "cost_usd", "time_s"
  std::string header;   // human header: "Memory", "Cost (USD)"
  Align align = Align::right;
};

struct Cell {
  std::string text;                  // what a person reads
  std::optional<double> number;      // canonical value for sorting, CSV and JSON
  std::optional<std::string> exact;  // exact decimal (money) for CSV and JSON, as a string
  bool flag = false;                 // a marker (e.g. on the Pareto frontier)

  static Cell of_text(std::string t) { return Cell{std::move(t), std::nullopt, std::nullopt, false}; }
  static Cell of_number(std::string t, double v) { return Cell{std::move(t), v, std::nullopt, false}; }
  static Cell of_money(std::string t, std::string exact_decimal, double approx) {
    return Cell{std::move(t), approx, std::move(exact_decimal), false};
  }
  static Cell empty() { return Cell{"–", std::nullopt, std::nullopt, false}; }
};

// A cell as programs read it: the one rule every machine form of a table follows (render_json's rows,
// render_csv's fields, catalog list's JSON entries, Python's Table.to_pandas() and rows_output()): money as
// its exact decimal, a number as the number, an empty cell ("–", or no text) as null, else the text.
inline Value machine_value(const Cell& c) {
  if (c.exact) return Value::Exact{*c.exact};
  if (c.number) return *c.number;
  if (c.text.empty() || c.text == Cell::empty().text) return Value();
  return c.text;
}

struct Table {
  std::string title;
  std::vector<Column> columns;
  std::vector<std::vector<Cell>> rows;
  std::vector<std::string> notes;    // assumptions and sources, printed under the table

  // Appends a row; throws InputError if it does not have one cell per column.
  void add_row(std::vector<Cell> row) {
    if (row.size() != columns.size()) {
      detail::fail("row", std::to_string(row.size()) + " cells",
                   "does not match the table's " + std::to_string(columns.size()) + " columns");
    }
    rows.push_back(std::move(row));
  }

  [[nodiscard]] std::size_t column_index(std::string_view key) const {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].key == key || columns[i].header == key) return i;
    }
    std::string known;
    for (const auto& c : columns) known += (known.empty() ? "" : ", ") + c.key;
    detail::fail("sort", "\"" + std::string(key) + "\"", "is not a column (" + known + ")");
  }

  // Stable sort by a column: numeric cells by value, others by text; cells without a value last.
  void sort_by(std::string_view key, bool descending = false) {
    const std::size_t c = column_index(key);
    std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
      const Cell& x = a[c];
      const Cell& y = b[c];
      if (x.number && y.number) return descending ? *x.number > *y.number : *x.number < *y.number;
      if (x.number != y.number) return x.number.has_value();  // valued cells first
      return descending ? x.text > y.text : x.text < y.text;
    });
  }
};

}  // namespace capplan
