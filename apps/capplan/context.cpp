#include "context.hpp"

#include <capplan/hardware/builtin_catalog.hpp>
#include <capplan/hardware/catalog.hpp>
#include <capplan/io/catalog_json.hpp>

#include <utility>

namespace capplan::cli {

Context::Context() = default;
Context::~Context() = default;

const Catalog& Context::catalog() const {
  if (parent_) return parent_->catalog();
  if (!catalog_) {
    auto c = std::make_unique<Catalog>(Catalog::make_builtin());
    for (const auto& f : catalog_files) io::load_catalog_file(*c, f);  // all or nothing per file
    catalog_ = std::move(c);
  }
  return *catalog_;
}

}  // namespace capplan::cli
