// What every subcommand shares: the output format, --explain, user catalogs and the scenario file,
// and how results are written.
#pragma once

#include <capplan/hardware/catalog.hpp>
#include <capplan/io/catalog_json.hpp>
#include <capplan/report/render.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace capplan::cli {

struct Context {
  std::string format_text = "table";
  bool explain = false;
  std::vector<std::string> catalog_files;
  std::string scenario_file;

  [[nodiscard]] OutputFormat format() const { return parse_output_format(format_text, "--format"); }

  // The built-in catalog plus the user's --catalog files (loaded on first use).
  [[nodiscard]] const Catalog& catalog() const {
    if (!catalog_) {
      auto c = std::make_unique<Catalog>(Catalog::make_builtin());
      for (const auto& f : catalog_files) io::load_catalog_file(*c, f);  // all or nothing per file
      catalog_ = std::move(c);
    }
    return *catalog_;
  }

 private:
  mutable std::unique_ptr<Catalog> catalog_;
};

// A command's result: tables for people and one JSON object for machines (the JSON contract
// in docs/cli.md). Text formats render the tables, then the explanation when --explain.
struct Result {
  std::vector<Table> tables;
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  std::vector<std::string> explanation;  // lines of arithmetic
};

// Splits `text` at spaces into lines of at most `width` characters (a longer word stays whole);
// lines after the first start with `indent`. The terminal table reads at 100 columns.
inline std::vector<std::string> wrap(const std::string& text, std::size_t width = 100, const std::string& indent = "  ") {
  std::vector<std::string> lines;
  std::string line, word;
  auto display = [](const std::string& s) {  // UTF-8 code points, not bytes
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
  };
  auto flush_word = [&] {
    if (word.empty()) return;
    const std::string candidate = line.empty() ? (lines.empty() ? "" : indent) + word : line + " " + word;
    if (!line.empty() && display(candidate) > width) {
      lines.push_back(line);
      line = indent + word;
    } else {
      line = candidate;
    }
    word.clear();
  };
  for (char c : text) {
    if (c == ' ') flush_word();
    else word += c;
  }
  flush_word();
  if (!line.empty()) lines.push_back(line);
  return lines;
}

// Display width of UTF-8 text (code points).
inline std::size_t display_width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

inline Table wrapped(Table t) {
  // A left-aligned last column (the "How" of item tables) too wide for 100 columns continues on
  // rows of its own under the cell.
  if (!t.columns.empty() && t.columns.back().align == Align::left) {
    const std::size_t last = t.columns.size() - 1;
    std::size_t used = 0;
    for (std::size_t i = 0; i < last; ++i) {
      std::size_t w = display_width(t.columns[i].header);
      for (const auto& r : t.rows) w = std::max(w, display_width(r[i].text) + (r[i].flag ? 1 : 0));
      used += w + 2;
    }
    if (used + 30 <= 100) {
      const std::size_t avail = 100 - used;
      std::vector<std::vector<Cell>> rows;
      for (auto& r : t.rows) {
        if (display_width(r[last].text) <= avail) {
          rows.push_back(std::move(r));
          continue;
        }
        const std::vector<std::string> parts = wrap(r[last].text, avail, "");
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
    for (auto& l : wrap(n)) notes.push_back(std::move(l));
  }
  t.notes = std::move(notes);
  std::string title;
  for (const auto& l : wrap(t.title)) title += (title.empty() ? "" : "\n") + l;
  t.title = title;
  return t;
}

// The lines of a multi-line explanation (explain() texts), for Result::explanation.
inline std::vector<std::string> lines_of(const std::string& text) {
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

inline void write(const Result& r, const Context& ctx, std::ostream& out = std::cout) {
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
      // Wrapped at 100 columns, keeping the line's own indentation.
      const std::size_t lead = std::min(line.find_first_not_of(' '), line.size());
      if (lead >= 60 || display_width(line) + 2 <= 100) {
        out << "  " << line << "\n";
        continue;
      }
      for (const auto& l : wrap(line.substr(lead), 98 - lead, "  ")) out << "  " << std::string(lead, ' ') << l << "\n";
    }
    if (f == OutputFormat::markdown) out << "```\n";
    else if (f == OutputFormat::html) out << "</pre>\n";
  }
}

}  // namespace capplan::cli
