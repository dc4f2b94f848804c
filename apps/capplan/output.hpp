// A command's result and how it is written: the tables for people in the chosen --format, or one
// JSON object for machines (the JSON contract in docs/cli.md), and the arithmetic with --explain.
#pragma once

#include <capplan/report/table.hpp>
#include <capplan/report/value.hpp>

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace capplan::cli {

struct Context;

struct Result {
  std::vector<Table> tables;
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  std::vector<std::string> explanation;  // lines of arithmetic
  std::vector<std::string> charts;       // SVG pictures (report/chart.hpp) the HTML page shows
  std::vector<std::string> more_charts;  // and folded after its tables (HtmlReport::more_charts)
  std::string more_title;
};

// A library result for programs (report/value.hpp) as JSON: integers stay integers, money stays an
// exact decimal string, keys keep their order.
nlohmann::ordered_json to_json(const Value& v);

// The lines of a multi-line explanation (explain() texts), for Result::explanation.
std::vector<std::string> lines_of(const std::string& text);

// Writes `r` to standard output in ctx's format: text formats render the tables, then the
// explanation when --explain; JSON writes r.json (with "explain" when --explain); HTML writes one
// self-contained page with the tables and the charts (report/html_page.hpp).
void write(const Result& r, const Context& ctx);

// Runs one command line (without the program name, e.g. {"train", "--model", ...}) for another
// command, with `parent`'s catalog, and returns its JSON result; an error is thrown as it would be
// reported (InputError for bad input).
nlohmann::ordered_json run_for_json(const std::vector<std::string>& args, const Context& parent);

// Flushes `out`; a failed write (a full disk, a closed pipe) throws "write error: ..." (exit 1).
void check_written(std::ostream& out);

}  // namespace capplan::cli
