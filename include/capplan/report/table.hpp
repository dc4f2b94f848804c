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
  // For programs only (CSV, JSON, to_pandas()): what the text already shows another way (the
  // currency of a price that reads "¥2,000.00"). Text, Markdown and HTML leave it out (human_table).
  bool machine_only = false;
};

struct Cell {
  std::string text;                  // what a person reads
  std::optional<double> number;      // canonical value for sorting, CSV and JSON
  std::optional<std::string> exact;  // exact decimal (money) for CSV and JSON, as a string
  bool flag = false;                 // a marker (e.g. on the Pareto frontier)
  // Money in another currency than the column's (a CNY rent under "rent_cost_usd"): its ISO code.
  // Such a cell has no value under its column; machine_table() gives it columns of its own.
  std::optional<std::string> currency;

  static Cell of_text(std::string t) { return Cell{std::move(t), std::nullopt, std::nullopt, false, std::nullopt}; }
  static Cell of_number(std::string t, double v) { return Cell{std::move(t), v, std::nullopt, false, std::nullopt}; }
  static Cell of_money(std::string t, std::string exact_decimal, double approx) {
    return Cell{std::move(t), approx, std::move(exact_decimal), false, std::nullopt};
  }
  // Money in `currency_code`, not the column's currency: shown as `t`, no number (it neither sorts
  // nor ranks with the column's figures), its exact digits kept for machine_table().
  // Throws InputError naming "currency" unless the code is three capital letters (ISO 4217's form).
  static Cell of_other_currency(std::string t, std::string exact_decimal, std::string currency_code) {
    if (currency_code.size() != 3 || !std::all_of(currency_code.begin(), currency_code.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
      detail::fail("currency", "\"" + currency_code + "\"", "is not a currency code of three capital letters (ISO 4217: \"CNY\", \"EUR\")");
    return Cell{std::move(t), std::nullopt, std::move(exact_decimal), false, std::move(currency_code)};
  }
  static Cell empty() { return Cell{"–", std::nullopt, std::nullopt, false, std::nullopt}; }
};

// A cell as programs read it: the one rule every machine form of a table follows (render_json's rows,
// render_csv's fields, catalog list's JSON entries, Python's Table.to_pandas() and rows_output()): money as
// its exact decimal, a number as the number, an empty cell ("–", or no text) as null, else the text;
// money in another currency than the column's as null (machine_table() puts it in columns of its own).
inline Value machine_value(const Cell& c) {
  if (c.currency) return Value();
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

// A table as programs read it (render_csv, render_json, table_rows_output, Python's to_pandas): every
// column, and after a column that holds money in another currency (Cell::currency) two more, keyed by
// other_currency_keys(): the figure's exact digits and its ISO code in the rows that hold one, null in
// the rest. So a key that names USD ("rent_cost_usd") never holds another currency, and at most one of
// "rent_cost_usd" and "rent_cost" holds a row's figure.
// Throws InputError naming "row" for a row without one cell per column (a Table built field by field).
inline void check_row_sizes(const Table& t) {
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (t.rows[r].size() != t.columns.size()) {
      detail::fail("row", std::to_string(r) + " (" + std::to_string(t.rows[r].size()) + " cells)",
                   "does not match the table's " + std::to_string(t.columns.size()) + " columns");
    }
  }
}

inline Table machine_table(const Table& t) {
  check_row_sizes(t);
  std::vector<bool> other(t.columns.size(), false);
  for (const auto& row : t.rows) {
    for (std::size_t i = 0; i < row.size() && i < other.size(); ++i) other[i] = other[i] || row[i].currency.has_value();
  }
  if (std::find(other.begin(), other.end(), true) == other.end()) return t;
  Table out;
  out.title = t.title;
  out.notes = t.notes;
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    out.columns.push_back(t.columns[i]);
    if (!other[i]) continue;
    const auto [amount, currency] = other_currency_keys(t.columns[i].key);
    // Neither key may be a column already, or one another column's figures in another currency took.
    std::vector<Column> taken = t.columns;
    taken.insert(taken.end(), out.columns.begin(), out.columns.end());
    for (const auto& c : taken) {
      if (c.key == amount || c.key == currency) {
        detail::fail("columns", "\"" + c.key + "\"", "is a column already, and the figures in another currency under \"" + t.columns[i].key +
                                                    "\" need that key; rename the column");
      }
    }
    out.columns.push_back({amount, t.columns[i].header + " (amount)", t.columns[i].align, t.columns[i].machine_only});
    out.columns.push_back({currency, t.columns[i].header + " (currency)", Align::left, t.columns[i].machine_only});
  }
  for (const auto& row : t.rows) {
    std::vector<Cell> r;
    r.reserve(out.columns.size());
    for (std::size_t i = 0; i < row.size(); ++i) {
      r.push_back(row[i]);
      if (i >= other.size() || !other[i]) continue;
      if (row[i].currency) {
        // The exact digits only (a cell without them has no figure for programs: null).
        r.push_back(row[i].exact ? Cell{row[i].text, std::nullopt, row[i].exact, false, std::nullopt} : Cell::empty());
        r.push_back(Cell::of_text(*row[i].currency));
      } else {
        r.push_back(Cell::empty());
        r.push_back(Cell::empty());
      }
    }
    out.rows.push_back(std::move(r));
  }
  return out;
}

// A table as people read it (render_text, render_markdown, render_html, to_pandas(values=False)):
// without the columns for programs only (Column::machine_only).
inline Table human_table(const Table& t) {
  check_row_sizes(t);
  if (std::none_of(t.columns.begin(), t.columns.end(), [](const Column& c) { return c.machine_only; })) return t;
  Table out;
  out.title = t.title;
  out.notes = t.notes;
  for (const auto& c : t.columns)
    if (!c.machine_only) out.columns.push_back(c);
  for (const auto& row : t.rows) {
    std::vector<Cell> r;
    for (std::size_t i = 0; i < row.size() && i < t.columns.size(); ++i)
      if (!t.columns[i].machine_only) r.push_back(row[i]);
    out.rows.push_back(std::move(r));
  }
  return out;
}

}  // namespace capplan
