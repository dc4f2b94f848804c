#include "output.hpp"

#include "context.hpp"

#include <capplan/version.hpp>

#include <capplan/detail/text.hpp>
#include <capplan/report/html_page.hpp>
#include <capplan/report/render.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <iostream>
#include <string_view>
#include <type_traits>
#include <variant>
#include <utility>

namespace capplan::cli {

namespace {

// The terminal reads at RenderOptions' width (100 columns), as Python's str(table) does.
constexpr std::size_t terminal_width = RenderOptions{}.width;

}  // namespace

nlohmann::ordered_json to_json(const Value& v) {
  return std::visit(
      [](const auto& x) -> nlohmann::ordered_json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Value::Exact>) {
          return x.decimal;
        } else if constexpr (std::is_same_v<T, Value::Array>) {
          nlohmann::ordered_json a = nlohmann::ordered_json::array();
          for (const Value& e : x) a.push_back(to_json(e));
          return a;
        } else if constexpr (std::is_same_v<T, Value::Object>) {
          nlohmann::ordered_json o = nlohmann::ordered_json::object();
          for (const auto& [k, e] : x) o[k] = to_json(e);
          return o;
        } else {
          return x;  // null, bool, integer, double, string
        }
      },
      v.data());
}

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

void check_written(std::ostream& out) {
  errno = 0;
  out.flush();
  if (!out) {
    const int e = errno;
    throw std::runtime_error(std::string("write error: standard output: ") + (e != 0 ? std::strerror(e) : "the output was not written"));
  }
}

namespace {

void write_unchecked(const Result& r, const Context& ctx) {
  std::ostream& out = std::cout;
  const OutputFormat f = ctx.format();
  if (f == OutputFormat::json) {
    nlohmann::ordered_json j = r.json;
    if (ctx.explain) j["explain"] = r.explanation;
    out << j.dump(2) << "\n";
    return;
  }
  if (f == OutputFormat::html) {
    HtmlReport page;
    page.tables = r.tables;
    page.charts = r.charts;
    page.more_charts = r.more_charts;
    if (!r.more_title.empty()) page.more_title = r.more_title;
    if (ctx.explain) page.explanation = r.explanation;
    page.generator = "capplan " + std::string(capplan::version_string);
    out << render_html_page(page);
    return;
  }
  for (std::size_t i = 0; i < r.tables.size(); ++i) {
    if (i) out << "\n";
    out << render(r.tables[i], f);
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

}  // namespace

void write(const Result& r, const Context& ctx) {
  if (ctx.sink) {
    ctx.sink(r);
    return;
  }
  write_unchecked(r, ctx);
  check_written(std::cout);
}

}  // namespace capplan::cli
