// Rendering a Table: aligned terminal text (default), Markdown, CSV (RFC 4180), JSON, HTML.
// Machine formats (CSV, JSON) carry canonical numbers and exact money strings, not the text
// people read; keys carry their unit in the name (see docs/cli.md).
#pragma once

#include "capplan/detail/text.hpp"
#include "capplan/report/table.hpp"
#include "capplan/report/value.hpp"

#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>

namespace capplan {

// How text is laid out: the terminal width every text rendering wraps to (the command-line tool,
// Python's str(table)); 0 leaves lines as long as they are.
struct RenderOptions {
  std::size_t width = 100;
};

enum class OutputFormat { table, markdown, csv, json, html };

inline OutputFormat parse_output_format(std::string_view text, std::string_view field = "format") {
  if (text == "table" || text == "text") return OutputFormat::table;
  if (text == "markdown" || text == "md") return OutputFormat::markdown;
  if (text == "csv") return OutputFormat::csv;
  if (text == "json") return OutputFormat::json;
  if (text == "html") return OutputFormat::html;
  detail::fail(field, "\"" + std::string(text) + "\"", "is not a format (table, markdown, csv, json, html)");
}

namespace detail {

using capplan::detail::display_width;

inline std::string pad(const std::string& s, std::size_t w, Align a) {
  const std::size_t n = display_width(s);
  if (n >= w) return s;
  const std::string fill(w - n, ' ');
  return a == Align::left ? s + fill : fill + s;
}

inline std::string json_escape(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

inline std::string json_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

inline std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

using capplan::detail::html_escape;

// A cell's machine value (machine_value, report/table.hpp) as a CSV field's text: null is an empty field.
inline std::string csv_text(const Cell& c) {
  const Value v = machine_value(c);
  if (const auto* e = std::get_if<Value::Exact>(&v.data())) return e->decimal;
  if (const auto* d = std::get_if<double>(&v.data())) return json_number(*d);
  if (const auto* t = std::get_if<std::string>(&v.data())) return *t;
  return {};
}

// ... and as JSON: null, a number, or a string (an exact decimal too).
inline std::string json_text(const Cell& c) {
  const Value v = machine_value(c);
  if (const auto* e = std::get_if<Value::Exact>(&v.data())) return json_escape(e->decimal);
  if (const auto* d = std::get_if<double>(&v.data())) return json_number(*d);
  if (const auto* t = std::get_if<std::string>(&v.data())) return json_escape(*t);
  return "null";
}

}  // namespace detail

// Fits a table to `width` columns of terminal text (0: as it is): a left-aligned last column too
// wide for the rest continues on rows of its own under its cell; the notes and the title wrap at
// word boundaries, continuing indented by two spaces. Widths count display columns (UTF-8).
inline Table fit_to_width(Table t, std::size_t width) {
  using detail::display_width;
  using detail::wrap_words;
  if (width == 0) return t;
  // A left-aligned last column (the "How" of item tables) too wide for the terminal continues on
  // rows of its own under the cell.
  if (!t.columns.empty() && t.columns.back().align == Align::left) {
    const std::size_t last = t.columns.size() - 1;
    std::size_t used = 0;
    for (std::size_t i = 0; i < last; ++i) {
      std::size_t w = display_width(t.columns[i].header);
      for (const auto& r : t.rows) w = std::max(w, display_width(r[i].text) + (r[i].flag ? 1 : 0));
      used += w + 2;
    }
    if (used + 30 <= width) {
      const std::size_t avail = width - used;
      std::vector<std::vector<Cell>> rows;
      for (auto& r : t.rows) {
        if (display_width(r[last].text) <= avail) {
          rows.push_back(std::move(r));
          continue;
        }
        const std::vector<std::string> parts = wrap_words(r[last].text, avail, "");
        for (std::size_t k = 0; k < parts.size(); ++k) {
          if (k == 0) {
            r[last].text = parts[0];
            rows.push_back(r);
          } else {
            std::vector<Cell> more(r.size(), Cell::of_text(""));
            more[last] = Cell::of_text(parts[k]);
            rows.push_back(std::move(more));
          }
        }
      }
      t.rows = std::move(rows);
    }
  }
  std::vector<std::string> notes;
  for (const auto& n : t.notes) {
    for (auto& l : wrap_words(n, width, "  ")) notes.push_back(std::move(l));
  }
  t.notes = std::move(notes);
  std::string title;
  for (const auto& l : wrap_words(t.title, width, "  ")) title += (title.empty() ? "" : "\n") + l;
  t.title = title;
  return t;
}

// Text, Markdown and HTML show the table as people read it (human_table, report/table.hpp).
inline std::string render_text(const Table& table, const RenderOptions& options = {}) {
  using namespace detail;
  const Table t = fit_to_width(human_table(table), options.width);
  std::vector<std::size_t> w(t.columns.size());
  for (std::size_t i = 0; i < t.columns.size(); ++i) w[i] = display_width(t.columns[i].header);
  for (const auto& r : t.rows) {
    for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], display_width(r[i].text) + (r[i].flag ? 1 : 0));
  }
  std::ostringstream os;
  if (!t.title.empty()) os << t.title << "\n\n";
  std::string rule;
  // A left-aligned last column is not padded: no trailing spaces.
  auto cell = [&](const std::string& s, std::size_t i) {
    const bool last = i + 1 == t.columns.size();
    return last && t.columns[i].align == Align::left ? s : pad(s, w[i], t.columns[i].align);
  };
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    os << (i ? "  " : "") << cell(t.columns[i].header, i);
    rule += (i ? "  " : "") + std::string(w[i], '-');
  }
  os << "\n" << rule << "\n";
  for (const auto& r : t.rows) {
    for (std::size_t i = 0; i < r.size(); ++i) os << (i ? "  " : "") << cell(r[i].flag ? r[i].text + "*" : r[i].text, i);
    os << "\n";
  }
  if (!t.notes.empty()) {
    os << "\n";
    for (const auto& n : t.notes) os << n << "\n";
  }
  return os.str();
}

inline std::string render_markdown(const Table& table) {
  const Table t = human_table(table);
  std::ostringstream os;
  if (!t.title.empty()) os << "### " << t.title << "\n\n";
  os << "|";
  for (const auto& c : t.columns) os << " " << c.header << " |";
  os << "\n|";
  for (const auto& c : t.columns) os << (c.align == Align::right ? "---:|" : "---|");
  os << "\n";
  for (const auto& r : t.rows) {
    os << "|";
    for (const auto& c : r) {
      std::string s = c.flag ? "**" + c.text + "**" : c.text;
      std::string esc;
      for (char ch : s) esc += ch == '|' ? std::string("\\|") : std::string(1, ch);
      os << " " << esc << " |";
    }
    os << "\n";
  }
  if (!t.notes.empty()) {
    os << "\n";
    for (const auto& n : t.notes) os << "- " << n << "\n";
  }
  return os.str();
}

// CSV and JSON write the table as programs read it (machine_table, report/table.hpp).
inline std::string render_csv(const Table& table) {
  using namespace detail;
  const Table t = machine_table(table);
  std::ostringstream os;
  for (std::size_t i = 0; i < t.columns.size(); ++i) os << (i ? "," : "") << csv_field(t.columns[i].key);
  os << "\r\n";
  for (const auto& r : t.rows) {
    for (std::size_t i = 0; i < r.size(); ++i) os << (i ? "," : "") << csv_field(csv_text(r[i]));
    os << "\r\n";
  }
  return os.str();
}

inline std::string render_json(const Table& table) {
  using namespace detail;
  const Table t = machine_table(table);
  std::ostringstream os;
  os << "{\n  \"title\": " << json_escape(t.title) << ",\n  \"rows\": [";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    os << (r ? ",\n    {" : "\n    {");
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      os << (i ? ", " : "") << json_escape(t.columns[i].key) << ": " << json_text(t.rows[r][i]);
    }
    os << "}";
  }
  os << (t.rows.empty() ? "],\n" : "\n  ],\n") << "  \"notes\": [";
  for (std::size_t i = 0; i < t.notes.size(); ++i) os << (i ? ", " : "") << json_escape(t.notes[i]);
  os << "]\n}\n";
  return os.str();
}

inline std::string render_html(const Table& table) {
  using namespace detail;
  const Table t = human_table(table);
  std::ostringstream os;
  os << "<table class=\"capplan\">\n";
  if (!t.title.empty()) os << "<caption>" << html_escape(t.title) << "</caption>\n";
  os << "<thead><tr>";
  for (const auto& c : t.columns) os << "<th>" << html_escape(c.header) << "</th>";
  os << "</tr></thead>\n<tbody>\n";
  for (const auto& r : t.rows) {
    os << "<tr>";
    for (std::size_t i = 0; i < r.size(); ++i) {
      os << (t.columns[i].align == Align::right ? "<td style=\"text-align:right\">" : "<td>");
      os << (r[i].flag ? "<strong>" + html_escape(r[i].text) + "</strong>" : html_escape(r[i].text)) << "</td>";
    }
    os << "</tr>\n";
  }
  os << "</tbody>\n</table>\n";
  if (!t.notes.empty()) {
    os << "<ul class=\"capplan-notes\">\n";
    for (const auto& n : t.notes) os << "<li>" << html_escape(n) << "</li>\n";
    os << "</ul>\n";
  }
  return os.str();
}

inline std::string render(const Table& t, OutputFormat f, const RenderOptions& options = {}) {
  switch (f) {
    case OutputFormat::table: return render_text(t, options);
    case OutputFormat::markdown: return render_markdown(t);
    case OutputFormat::csv: return render_csv(t);
    case OutputFormat::json: return render_json(t);
    case OutputFormat::html: return render_html(t);
  }
  return render_text(t, options);
}

}  // namespace capplan
