// What every subcommand shares: the output format, --explain, user catalogs and the scenario file.
#pragma once

#include <capplan/report/render.hpp>

#include <memory>
#include <string>
#include <vector>

namespace capplan {
class Catalog;
}

namespace capplan::cli {

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

 private:
  mutable std::unique_ptr<Catalog> catalog_;
};

}  // namespace capplan::cli
