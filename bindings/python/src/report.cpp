// Report tables: capplan/report (Table, render in text, Markdown, CSV, JSON, HTML; Pareto frontier).
//
//   t.render("markdown");  t.to_pandas()  -> pandas.DataFrame (money as decimal.Decimal)
//   t._repr_html_() is the HTML renderer, so a Table shows as a table in Jupyter.
#include "areas.hpp"
#include "record.hpp"

#include <capplan/report/pareto.hpp>
#include <capplan/report/render.hpp>
#include <capplan/report/table.hpp>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

namespace capplan::python {

namespace {

// A cell as a pandas value: the exact decimal for money, the number where there is one, else the text.
py::object cell_value(const Cell& c) {
  if (c.exact) return stdlib("decimal", "Decimal")(*c.exact);
  if (c.number) return py::float_(*c.number);
  if (c.text == "–") return py::none();
  return py::str(c.text);
}

py::object table_frame(const Table& t, bool values) {
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

}  // namespace

void bind_report(py::module_& m) {
  text_enum<OutputFormat>(m, "OutputFormat", "How a table is rendered.")
      .value("table", OutputFormat::table)
      .value("markdown", OutputFormat::markdown)
      .value("csv", OutputFormat::csv)
      .value("json", OutputFormat::json)
      .value("html", OutputFormat::html);
  text_enum<Align>(m, "Align", "Column alignment in text output.");

  Record<Column>(m, "Column", "A table column: machine key (unit in the name), human header, alignment.")
      .field("key", &Column::key)
      .field("header", &Column::header)
      .field("align", &Column::align)
      .finish();
  Record<Cell>(m, "Cell", "A cell: the text people read, the canonical number, the exact decimal (money).")
      .field("text", &Cell::text)
      .field("number", &Cell::number)
      .field("exact", &Cell::exact)
      .field("flag", &Cell::flag)
      .finish()
      .def_static("of_text", &Cell::of_text, py::arg("text"))
      .def_static("of_number", &Cell::of_number, py::arg("text"), py::arg("value"))
      .def_static("of_money", &Cell::of_money, py::arg("text"), py::arg("exact_decimal"), py::arg("approx"))
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
           "empty cells as None; values=False: columns by header, the text people read. The title and notes "
           "are in DataFrame.attrs.")
      .def("pareto_frontier", &pareto_frontier, py::arg("objectives"),
           "Indices of the rows no other row beats on every objective.")
      .def("mark_pareto", &mark_pareto, py::arg("objectives"), "Flags the first cell of every frontier row.");
  m.def("render", [](const Table& t, OutputFormat f, std::size_t width) { return render(t, f, RenderOptions{.width = width}); },
        py::arg("table"), py::arg("format") = OutputFormat::table, py::arg("width") = RenderOptions{}.width,
        "The table in a format; text wraps at `width` columns (0: no wrapping), as the CLI's.");
  m.def("parse_output_format", [](const std::string& t) { return parse_output_format(t); }, py::arg("text"));
}

}  // namespace capplan::python
