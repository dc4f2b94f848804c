// What every subcommand shares: the output format, --explain, user catalogs and the scenario file.
#pragma once

#include <capplan/report/render.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace capplan {
class Catalog;
}

namespace capplan::cli {

struct Result;

struct Context {
  std::string format_text = "table";
  bool explain = false;
  std::vector<std::string> catalog_files;
  std::string scenario_file;
  std::string today_text;  // --today; empty: CAPPLAN_TODAY, else the system's UTC date

  // Out of line, where Catalog is a complete type.
  Context();
  ~Context();

  [[nodiscard]] OutputFormat format() const { return parse_output_format(format_text, "--format"); }

  // The built-in catalog plus the user's --catalog files (loaded on first use).
  [[nodiscard]] const Catalog& catalog() const;

  // The date prices are judged against ("YYYY-MM-DD"): --today, else the CAPPLAN_TODAY environment
  // variable (tests and the docs' transcripts pin it), else the system clock's UTC date. A bad date
  // is an InputError naming --today or CAPPLAN_TODAY.
  [[nodiscard]] std::string today() const;

  // A command run for another (capplan validate): the parent's catalog, and the result handed to
  // `sink` instead of written to standard output.
  void borrow_catalog(const Context& parent) { parent_ = &parent; }
  std::function<void(const Result&)> sink;

 private:
  mutable std::unique_ptr<Catalog> catalog_;
  const Context* parent_ = nullptr;
};

// The catalog's warnings about the entries an answer used (hardware/warnings.hpp warnings_for:
// labels such as "gpu h100-sxm", "cloud offer lambda-gpu-8x-h100-sxm5"), judged on ctx.today():
// each appended to `notes` as "Warning: ...", and all of them as JSON for the result's "warnings".
// Without `purchase_prices` a GPU's or system's own price is left out (train and infer price the
// run by its rent; a stale street price is not what their answer rests on).
nlohmann::ordered_json entry_warnings(const Context& ctx, const std::vector<std::string>& entries, std::vector<std::string>& notes,
                                      bool purchase_prices = true);

}  // namespace capplan::cli
