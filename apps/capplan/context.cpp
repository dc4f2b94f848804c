#include "context.hpp"

#include <capplan/hardware/builtin_catalog.hpp>
#include <capplan/hardware/catalog.hpp>
#include <capplan/date.hpp>
#include <capplan/hardware/warnings.hpp>
#include <capplan/io/catalog_json.hpp>
#include <capplan/report/catalog_output.hpp>

#include "output.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>
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

std::string Context::today() const {
  if (parent_) return parent_->today();
  if (!today_text.empty()) {
    (void)parse_iso_date(today_text, "--today");
    return today_text;
  }
  if (const char* env = std::getenv("CAPPLAN_TODAY"); env != nullptr && *env != '\0') {
    const std::string text(env);
    if (text.size() > 10) detail::fail("CAPPLAN_TODAY", "\"" + text.substr(0, 32) + "\"", "is not a date YYYY-MM-DD");
    (void)parse_iso_date(text, "CAPPLAN_TODAY");
    return text;
  }
  const std::chrono::year_month_day d{std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())};
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(d.year()), static_cast<unsigned>(d.month()), static_cast<unsigned>(d.day()));
  return buf;
}

nlohmann::ordered_json entry_warnings(const Context& ctx, const std::vector<std::string>& entries, std::vector<std::string>& notes,
                                      bool purchase_prices) {
  std::vector<CatalogWarning> ws = warnings_for(ctx.catalog(), entries, {.today = ctx.today()});
  if (!purchase_prices) {
    std::erase_if(ws, [](const CatalogWarning& w) {
      return w.kind == WarningKind::stale_price && (w.entry.rfind("gpu ", 0) == 0 || w.entry.rfind("system ", 0) == 0);
    });
  }
  // Many stale prices (a purchase table's rows) read as one line naming them; the JSON keeps each
  // warning with its date and age. A few are each given in full.
  constexpr std::size_t fold_above = 3;
  const auto stale = [](const CatalogWarning& w) { return w.kind == WarningKind::stale_price; };
  const std::size_t n_stale = static_cast<std::size_t>(std::count_if(ws.begin(), ws.end(), stale));
  // Grouped by kind (GPUs, systems, cloud offers), each entry named once by its id.
  // An entry of another kind keeps its whole label, last.
  const std::array<std::pair<std::string_view, std::string_view>, 4> kinds{
      {{"gpu ", "GPUs"}, {"system ", "systems"}, {"cloud offer ", "cloud offers"}, {"", "and"}}};
  std::array<std::string, 4> folded;
  std::vector<std::string_view> named;
  for (const CatalogWarning& w : ws) {
    if (n_stale > fold_above && stale(w)) {
      if (std::find(named.begin(), named.end(), w.entry) != named.end()) continue;
      named.push_back(w.entry);
      for (std::size_t k = 0; k < kinds.size(); ++k) {
        if (w.entry.rfind(kinds[k].first, 0) != 0) continue;
        folded[k] += (folded[k].empty() ? "" : ", ") + w.entry.substr(kinds[k].first.size());
        break;
      }
      continue;
    }
    notes.push_back("Warning: " + w.message + ".");
  }
  std::string line;
  for (std::size_t k = 0; k < kinds.size(); ++k)
    if (!folded[k].empty()) line += (line.empty() ? "" : "; ") + std::string(kinds[k].second) + " " + folded[k];
  if (!line.empty()) {
    notes.push_back("Warning: prices more than a year old (or dated after " + ctx.today() + "), each with its date in the JSON's "
                    "\"warnings\" (--format json): " + line + ".");
  }
  return to_json(warnings_output(ws));
}

}  // namespace capplan::cli
