// What every subcommand shares: the output format, --explain, user catalogs and the scenario file.
#pragma once

#include <capplan/report/render.hpp>

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

  // Out of line, where Catalog is a complete type.
  Context();
  ~Context();

  [[nodiscard]] OutputFormat format() const { return parse_output_format(format_text, "--format"); }

  // The built-in catalog plus the user's --catalog files (loaded on first use).
  [[nodiscard]] const Catalog& catalog() const;

  // A command run for another (capplan validate): the parent's catalog, and the result handed to
  // `sink` instead of written to standard output.
  void borrow_catalog(const Context& parent) { parent_ = &parent; }
  std::function<void(const Result&)> sink;

 private:
  mutable std::unique_ptr<Catalog> catalog_;
  const Context* parent_ = nullptr;
};

}  // namespace capplan::cli
