// Report tables: capplan/report (Table, render in text, Markdown, CSV, JSON, HTML; Pareto frontier).
//
//   t.render("markdown");  t.to_pandas()  -> pandas.DataFrame (money as decimal.Decimal)
//   t._repr_html_() is the HTML renderer, so a Table shows as a table in Jupyter.
//   line_chart_svg(t, "month", ["owned_cumulative_usd", "rented_cumulative_usd"], marker_x=2) -> Svg
//   cost_chart_svg(compare_costs(owned, rented, options)) -> Svg (what tco draws)
//   (shows as a picture in Jupyter: _repr_svg_); html_page("title", [t], [svg]) -> the report page.
#include "areas.hpp"
#include "convert.hpp"
#include "record.hpp"

#include <capplan/report/catalog_output.hpp>
#include <capplan/report/chart.hpp>
#include <capplan/report/cost_chart.hpp>
#include <capplan/report/html_page.hpp>
#include <capplan/report/pareto.hpp>
#include <capplan/report/render.hpp>
#include <capplan/report/table.hpp>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace capplan::python {

namespace {

// A cell as a pandas value: its machine value (report/table.hpp), money as decimal.Decimal.
py::object cell_value(const Cell& c) { return to_python(machine_value(c)); }

// values: the table as programs read it (machine_table: money in another currency in columns of its own).
py::object table_frame(const Table& table, bool values) {
  const Table t = values ? machine_table(table) : human_table(table);
  py::dict cols;
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    py::list col;
    for (const auto& row : t.rows) col.append(values ? cell_value(row[i]) : py::object(py::str(row[i].text)));
    cols[py::str(values ? t.columns[i].key : t.columns[i].header)] = col;
  }
  py::object df = py::module_::import("pandas").attr("DataFrame")(cols);
  df.attr("attrs")["title"] = t.title;
  df.attr("attrs")["notes"] = t.notes;
  return df;
}

// An SVG picture: str() is the SVG text; Jupyter shows it (_repr_svg_).
struct Svg {
  std::string text;
};

}  // namespace

void bind_report(py::module_& m) {
  py::class_<Svg>(m, "Svg", "An SVG chart drawn by capplan (report/chart.hpp): str() is the SVG; notebooks show it.")
      .def("__str__", [](const Svg& s) { return s.text; })
      .def("__repr__", [](const Svg& s) { return "<capplan.Svg " + std::to_string(s.text.size()) + " bytes>"; })
      .def("_repr_svg_", [](const Svg& s) { return s.text; })
      .def_property_readonly("text", [](const Svg& s) { return s.text; });
  text_enum<OutputFormat>(m, "OutputFormat", "How a table is rendered.")
      .value("table", OutputFormat::table)
      .value("markdown", OutputFormat::markdown)
      .value("csv", OutputFormat::csv)
      .value("json", OutputFormat::json)
      .value("html", OutputFormat::html);
  text_enum<Align>(m, "Align", "Column alignment in text output.");

  Record<Column>(m, "Column", "A table column: machine key (unit in the name), human header, alignment; machine_only: for CSV, JSON and "
                          "to_pandas() only (text, Markdown and HTML leave it out).")
      .field("key", &Column::key)
      .field("header", &Column::header)
      .field("align", &Column::align)
      .field("machine_only", &Column::machine_only)
      .finish();
  Record<Cell>(m, "Cell", "A cell: the text people read, the canonical number, the exact decimal (money).")
      .field("text", &Cell::text)
      .field("number", &Cell::number)
      .field("exact", &Cell::exact)
      .field("flag", &Cell::flag)
      .field("currency", &Cell::currency)
      .finish()
      .def_static("of_text", &Cell::of_text, py::arg("text"))
      .def_static("of_number", &Cell::of_number, py::arg("text"), py::arg("value"))
      .def_static("of_money", &Cell::of_money, py::arg("text"), py::arg("exact_decimal"), py::arg("approx"))
      .def_static("of_other_currency", &Cell::of_other_currency, py::arg("text"), py::arg("exact_decimal"), py::arg("currency_code"),
                  "Money in another currency than the column's: no value under the column; CSV, JSON and to_pandas() "
                  "give it two columns of its own (the key without _usd, and that plus _currency).")
      .def_static("empty", &Cell::empty);
  Record<Objective>(m, "Objective", "A column to minimize (or maximize) on the Pareto frontier.")
      .field("column", &Objective::column)
      .field("maximize", &Objective::maximize)
      .finish();

  Record<Table> rt(m, "Table", "A report table; render() as text, Markdown, CSV, JSON or HTML; to_pandas().");
  rt.field("title", &Table::title).field("columns", &Table::columns).field("rows", &Table::rows).field("notes", &Table::notes);
  auto& table = rt.finish();
  py::delattr(table, "_repr_html_");  // the HTML renderer instead of the generic field table
  table.def("add_row", &Table::add_row, py::arg("row"), "Appends a row; InputError unless one cell per column.")
      .def("column_index", &Table::column_index, py::arg("key"))
      .def("sort_by", &Table::sort_by, py::arg("key"), py::arg("descending") = false,
           "Stable sort by a column: numbers by value, others by text, empty cells last.")
      .def("render", [](const Table& t, OutputFormat f, std::size_t width) { return render(t, f, RenderOptions{.width = width}); },
           py::arg("format") = OutputFormat::table, py::arg("width") = RenderOptions{}.width,
           "table, markdown, csv, json or html; text wraps at `width` columns (0: no wrapping), as the CLI's.")
      .def("__str__", [](const Table& t) { return render(t, OutputFormat::table); })
      .def("_repr_html_", [](const Table& t) { return render(t, OutputFormat::html); })
      .def("to_pandas", &table_frame, py::arg("values") = true,
           "A pandas.DataFrame. values=True: columns by key, money as decimal.Decimal, numbers as floats, "
           "empty cells as None, and after a column holding money in another currency (Cell.of_other_currency) "
           "two more: the key without _usd and that plus _currency; values=False: columns by header (no "
           "machine_only columns), the text people read. The title and notes are in DataFrame.attrs.")
      .def("rows_output", [](const Table& t) { return to_python(table_rows_output(t)); },
           "One dict per row keyed by the columns' keys (money as decimal.Decimal, empty cells as None; money in "
           "another currency under its own two keys, as to_pandas()): what "
           "`capplan catalog list --format json` prints under \"entries\".")
      .def("pareto_frontier", &pareto_frontier, py::arg("objectives"),
           "Indices of the rows no other row beats on every objective.")
      .def("mark_pareto", &mark_pareto, py::arg("objectives"), "Flags the first cell of every frontier row.");
  m.def("render", [](const Table& t, OutputFormat f, std::size_t width) { return render(t, f, RenderOptions{.width = width}); },
        py::arg("table"), py::arg("format") = OutputFormat::table, py::arg("width") = RenderOptions{}.width,
        "The table in a format; text wraps at `width` columns (0: no wrapping), as the CLI's.");
  m.def(
      "line_chart_svg",
      [](const Table& t, const std::string& x, const std::vector<std::string>& ys, std::optional<double> marker_x, const std::string& marker_label,
         std::optional<std::string> title, std::optional<std::string> y_label) {
        LineChart c = line_chart(t, x, ys);
        c.marker_x = marker_x;
        c.marker_label = marker_label;
        if (title) c.title = *title;
        if (y_label) c.y_label = *y_label;
        return Svg{render_svg(c)};
      },
      py::arg("table"), py::arg("x"), py::arg("ys"), py::arg("marker_x") = py::none(), py::arg("marker_label") = "", py::arg("title") = py::none(),
      py::arg("y_label") = py::none(),
      "Lines of the columns `ys` over the column `x` (keys), with an optional vertical marker (the break-even month).");
  m.def(
      "cost_chart_svg",
      [](const CostComparison& c, const std::string& title) { return Svg{render_svg(cost_chart(c, title))}; },
      py::arg("comparison"), py::arg("title") = "Cumulative cost: own versus rent",
      "Owning against renting by month (compare_costs, or row_cost_comparison for a purchase-table row): the "
      "cumulative lines, resale as its own line, the break-even month marked; what `capplan tco` and `capplan "
      "compare --format html` draw.");
  m.def(
      "scatter_svg",
      [](const Table& t, const std::string& x, const std::vector<std::string>& ys, const std::string& label, bool log_x, bool log_y,
         std::optional<std::string> title) {
        ScatterChart c = scatter_chart(t, x, ys, label);
        c.log_x = log_x;
        c.log_y = log_y;
        if (title) c.title = *title;
        return Svg{render_svg(c)};
      },
      py::arg("table"), py::arg("x"), py::arg("ys"), py::arg("label"), py::arg("log_x") = false, py::arg("log_y") = false, py::arg("title") = py::none(),
      "One point per row: x from column `x`, y from the first of `ys` the row has; flagged rows (the Pareto frontier) "
      "highlighted and joined.");
  m.def(
      "bar_svg",
      [](const std::vector<std::pair<std::string, double>>& segments, std::optional<double> capacity, const std::string& label,
         const std::string& title, const std::string& unit, double unit_scale) {
        BarChart c;
        c.title = title;
        c.unit = unit;
        c.unit_scale = unit_scale;
        StackedBar b;
        b.label = label;
        for (const auto& [name, v] : segments) b.segments.push_back({name, v});
        b.capacity = capacity;
        c.bars.push_back(std::move(b));
        return Svg{render_svg(c)};
      },
      py::arg("segments"), py::arg("capacity") = py::none(), py::arg("label") = "", py::arg("title") = "", py::arg("unit") = "GB",
      py::arg("unit_scale") = 1e9, "One stacked bar of (label, value) segments against an optional capacity (memory against a GPU's).");
  m.def(
      "html_page",
      [](const std::string& title, const std::vector<Table>& tables, const std::vector<Svg>& charts, const std::vector<std::string>& explanation,
         const std::vector<Svg>& more_charts, const std::string& more_title) {
        HtmlReport r;
        r.title = title;
        r.tables = tables;
        for (const auto& c : charts) r.charts.push_back(c.text);
        r.explanation = explanation;
        for (const auto& c : more_charts) r.more_charts.push_back(c.text);
        if (!more_title.empty()) r.more_title = more_title;
        return render_html_page(r);
      },
      py::arg("title"), py::arg("tables"), py::arg("charts") = std::vector<Svg>{}, py::arg("explanation") = std::vector<std::string>{},
      py::arg("more_charts") = std::vector<Svg>{}, py::arg("more_title") = "More charts",
      "One self-contained HTML page (no network): sortable, filterable tables, the charts, the arithmetic; more_charts are folded "
      "under more_title after the tables (as compare's per-row cost charts).");
  m.def("parse_output_format", [](const std::string& t) { return parse_output_format(t); }, py::arg("text"));
}

}  // namespace capplan::python
