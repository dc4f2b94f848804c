#include "output.hpp"

#include "context.hpp"

#include <capplan/detail/text.hpp>
#include <capplan/report/render.hpp>

#include <algorithm>
#include <iostream>
#include <string_view>
#include <utility>

namespace capplan::cli {

namespace {

// The terminal table reads at 100 columns.
constexpr std::size_t terminal_width = 100;

// Fits a text table to the terminal: the last column, the notes and the title wrapped (notes and
// title continue indented by two spaces).
Table wrapped(Table t) {
  using detail::display_width;
  using detail::wrap_words;
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
    if (used + 30 <= terminal_width) {
      const std::size_t avail = terminal_width - used;
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
    for (auto& l : wrap_words(n, terminal_width, "  ")) notes.push_back(std::move(l));
  }
  t.notes = std::move(notes);
  std::string title;
  for (const auto& l : wrap_words(t.title, terminal_width, "  ")) title += (title.empty() ? "" : "\n") + l;
  t.title = title;
  return t;
}

}  // namespace

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::string line;
  for (char ch : text) {
    if (ch == '\n') {
      out.push_back(line);
      line.clear();
    } else {
      line += ch;
    }
  }
  if (!line.empty()) out.push_back(line);
  return out;
}

void write(const Result& r, const Context& ctx) {
  std::ostream& out = std::cout;
  const OutputFormat f = ctx.format();
  if (f == OutputFormat::json) {
    nlohmann::ordered_json j = r.json;
    if (ctx.explain) j["explain"] = r.explanation;
    out << j.dump(2) << "\n";
    return;
  }
  for (std::size_t i = 0; i < r.tables.size(); ++i) {
    if (i) out << "\n";
    out << (f == OutputFormat::table ? render(wrapped(r.tables[i]), f) : render(r.tables[i], f));
  }
  if (ctx.explain && !r.explanation.empty() && f != OutputFormat::csv) {
    if (f == OutputFormat::markdown) out << "\n#### Arithmetic\n\n```\n";
    else if (f == OutputFormat::html) out << "<pre class=\"capplan-explain\">\n";
    else out << "\nArithmetic:\n";
    for (const auto& line : r.explanation) {
      if (f != OutputFormat::table) {
        out << line << "\n";
        continue;
      }
      // Wrapped at the terminal width after a two-space margin, keeping the line's own indentation.
      const std::size_t lead = std::min(line.find_first_not_of(' '), line.size());
      if (lead >= 60 || detail::display_width(line) + 2 <= terminal_width) {
        out << "  " << line << "\n";
        continue;
      }
      for (const auto& l : detail::wrap_words(std::string_view(line).substr(lead), terminal_width - 2 - lead, "  ")) {
        out << "  " << std::string(lead, ' ') << l << "\n";
      }
    }
    if (f == OutputFormat::markdown) out << "```\n";
    else if (f == OutputFormat::html) out << "</pre>\n";
  }
}

}  // namespace capplan::cli
