// Catalog warnings: figures that are probably wrong or out of date. Nothing here throws for a
// suspicious value; each check returns the warnings it finds, and `check_catalog` runs them all.
//
//   1. stale_price: a dated price older than `max_price_age_days` before `today` (default 365),
//      or dated after `today`. Street prices, given system prices and cloud offers are checked;
//      launch prices (MSRP) are historical facts and never go stale.
//   2. sparse_rate: a tensor rate that looks like a 2:4-sparsity figure. Two rules:
//      a. Ratio rule. On every architecture in the built-in catalog (Volta to Blackwell, CDNA 3)
//         dense fp16 and bf16 are 2 x dense tf32, and dense fp8 is 2 x dense fp16/bf16 (within
//         2 %). A vendor's sparse figure is 2 x its dense one, so a pair whose ratio is nearer 4
//         than 2 (> 2*sqrt(2)) has a sparse higher member, and a pair whose ratio is nearer 1
//         than 2 (< sqrt(2)) has a sparse lower member.
//         FP4 against FP8 is the exception: dense fp4 is 2 x dense fp8 on Blackwell and CDNA 4 but
//         3 x on Blackwell Ultra (B300 13,500 / 4,500; GB300 15,000 / 5,000 TFLOP/s: NVIDIA HGX
//         B300 and GB300 NVL72 datasheets), so the sparse figures are 4 x or 6 x and the pair is
//         judged by the nearest of 1, 1.5 (a sparse fp8), 2, 3 (dense) and 4, 6 (a sparse fp4) on a
//         log scale: above sqrt(12) the fp4 figure is sparse, below sqrt(3) the fp8 one. GeForce
//         parts whose FP32-accumulate rates are halved (`fp32_accumulate_half_rate`: the stored fp8
//         is half the FP16-accumulate figure, while FP4 accumulates in FP32 at full rate) keep a
//         dense 4 : 1 (RTX 5090: 1,676 / 419.2, RTX Blackwell whitepaper), so their ratio is halved first.
//         FP6 runs at the FP8 rate on NVIDIA's Blackwell parts (the HGX B200 and B300 tables print one
//         "FP8/FP6" row) and at the FP4 rate, 2 x FP8, on AMD's CDNA 4 (MI350X/MI355X "MXFP6/MXFP4"), so
//         the pairs are judged by vendor. NVIDIA: fp6 / fp8 = 1 (above sqrt(2) fp6 is sparse, below
//         1/sqrt(2) fp8 is) and fp4 / fp6 = 2 or 3 as fp4 / fp8 (the same sqrt(3)..sqrt(12) band, halved
//         first for FP32-accumulate GeForce rates). AMD: fp6 / fp8 = 2 (judged as the 2 x pairs) and fp4 /
//         fp6 = 1 (above sqrt(2) fp4 is sparse, below 1/sqrt(2) fp6 is). Other vendors: fp6 / fp8 of 1 or
//         2 and fp4 / fp6 of 1 to 3 pass. Where FP8 and FP4 agree with BF16/FP16 and each other, a
//         pair with FP6 that errs names FP6: sparse if it is too high, misstated if too low.
//      b. Reference rule. When the entry shares an id or name with an entry of the reference
//         catalog (the built-in one by default) and a rate is 2 x the reference's (within 2 %),
//         the rate is the sparse figure of that part.
//      A ratio to memory bandwidth is NOT used: within one architecture dense bf16 FLOP per byte
//      spans 3 x (Ada: RTX 4080 136, L40S 419), so it cannot tell a sparse figure from a dense one.
//   3. price_outlier: a cloud offer whose per-GPU-hour price (its headline price: on-demand,
//      else monthly / 730 h, else reserved, else spot) is more than `outlier_factor` (3) times,
//      or less than 1 / outlier_factor of, the median of the offers for the same GPU in the same
//      currency, when there are at least `min_siblings` (3) such offers. When the check is run
//      against a date (check_catalog always is), offers whose price is stale by rule 1 take no
//      part: they are not judged (rule 1 already flags them) and do not set the median, because
//      an old list price would make every current price look out of line (the 2023 AWS P5 list
//      price against 2026 neocloud prices, for instance).
#pragma once

#include "capplan/detail/enum_names.hpp"
#include "capplan/hardware/builtin_catalog.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/date.hpp"
#include "capplan/money/format.hpp"
#include "capplan/units/format.hpp"

#include <boost/describe/enum.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capplan {

enum class WarningKind { stale_price, sparse_rate, price_outlier };
BOOST_DESCRIBE_ENUM(WarningKind, stale_price, sparse_rate, price_outlier)

inline constexpr std::string_view name(WarningKind k) { return detail::enum_name(k); }

struct CatalogWarning {
  WarningKind kind = WarningKind::stale_price;
  std::string entry{};    // "gpu rtx-4090", "cloud offer lambda-gpu-8x-h100-sxm5"
  std::string field{};    // "street_price", "dense.bf16", "on_demand"
  std::string message{};  // one line, with the figures
};

struct WarningOptions {
  std::string today{};             // ISO date the prices are judged against (required)
  long max_price_age_days = 365;
  double outlier_factor = 3.0;
  std::size_t min_siblings = 3;
};

namespace detail {

inline void check_price(std::vector<CatalogWarning>& out, const std::string& entry, const std::string& field,
                        const std::string& as_of, const std::string& shown, std::string_view today, long max_age) {
  const long age = days_between(as_of, today);
  if (age < 0) {
    out.push_back({WarningKind::stale_price, entry, field,
                   entry + ": " + field + " " + shown + " is dated " + as_of + ", after today (" + std::string(today) + ")"});
  } else if (age > max_age) {
    out.push_back({WarningKind::stale_price, entry, field,
                   entry + ": " + field + " " + shown + " is from " + as_of + ", " + std::to_string(age) +
                       " days before " + std::string(today) + " (limit " + std::to_string(max_age) + " days)"});
  }
}

template <class T>
void check_street(std::vector<CatalogWarning>& out, const std::vector<T>& v, std::string_view kind,
                  std::string_view today, long max_age) {
  for (const T& e : v) {
    if (e.street_price) {
      check_price(out, std::string(kind) + " " + e.id, "street_price", e.street_price->as_of,
                  format(e.street_price->amount), today, max_age);
    }
  }
}

}  // namespace detail

// Rule 1: dated prices older than max_age_days before today (or after today).
inline std::vector<CatalogWarning> stale_prices(const Catalog& c, std::string_view today, long max_age_days = 365) {
  parse_iso_date(today, "today");
  if (max_age_days < 0) detail::fail("max_price_age_days", std::to_string(max_age_days), "is negative");
  std::vector<CatalogWarning> out;
  detail::check_street(out, c.gpus(), "gpu", today, max_age_days);
  detail::check_street(out, c.cpus(), "cpu", today, max_age_days);
  detail::check_street(out, c.memory_modules(), "memory", today, max_age_days);
  detail::check_street(out, c.storage_devices(), "storage", today, max_age_days);
  detail::check_street(out, c.power_supplies(), "psu", today, max_age_days);
  detail::check_street(out, c.chassis(), "chassis", today, max_age_days);
  detail::check_street(out, c.network_adapters(), "network", today, max_age_days);
  detail::check_street(out, c.motherboards(), "motherboard", today, max_age_days);
  for (const auto& s : c.systems()) {
    if (s.price) detail::check_price(out, "system " + s.id, "price", s.price->as_of, format(s.price->amount), today, max_age_days);
  }
  for (const auto& o : c.cloud_offers()) {
    const PriceKind k = o.headline();
    const std::string shown = k == PriceKind::monthly ? format(*o.monthly) + "/month" : format(o.per_instance_hour(k));
    detail::check_price(out, "cloud offer " + o.id, std::string(name(k)), o.as_of, shown, today, max_age_days);
  }
  return out;
}

// Rule 2: tensor rates of one GPU that look like sparse figures; `reference` (may be null) is
// the catalog whose same-named entry the rates are compared with.
inline std::vector<CatalogWarning> sparse_rate_suspects(const GpuSpec& g, const Catalog* reference = &Catalog::builtin()) {
  std::vector<CatalogWarning> out;
  const std::string entry = "gpu " + g.id;
  const auto tf = [](FlopRate r) { return format(r); };
  // a. Ratio rule: expected hi / lo == 2.
  const std::pair<Precision, Precision> pairs[] = {{Precision::bf16, Precision::tf32},
                                                   {Precision::fp16, Precision::tf32},
                                                   {Precision::fp8, Precision::bf16},
                                                   {Precision::fp8, Precision::fp16}};
  // `blame`: the member named whichever way the ratio errs (FP6 against rates the other pairs confirm).
  const auto judge = [&](Precision hi, Precision lo, double upper, double lower, std::string_view expected,
                         double normal = 1.0, std::optional<Precision> blame = std::nullopt) {
    const auto rh = g.dense.at(hi), rl = g.dense.at(lo);
    if (!rh || !rl) return;
    const double ratio = rh->value() / rl->value();
    const double judged = ratio / normal;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", ratio);
    const std::string what = std::string(name(hi)) + " " + tf(*rh) + " is " + buf + " x " + std::string(name(lo)) +
                             " " + tf(*rl) + "; dense " + std::string(name(hi)) + " is " + std::string(expected) +
                             " dense " + std::string(name(lo)) + " on every architecture in the catalog";
    if (judged > upper || judged < lower) {
      const Precision named = blame ? *blame : judged > upper ? hi : lo;
      const bool sparse = (named == hi) == (judged > upper);  // the named rate is the one too high
      out.push_back({WarningKind::sparse_rate, entry, "dense." + std::string(name(named)),
                     entry + ": " + what + ", so " + std::string(name(named)) +
                         (sparse ? " looks like a 2:4-sparse figure" : " looks misstated (too low against the rates its pairs confirm)")});
    }
  };
  for (const auto& [hi, lo] : pairs) judge(hi, lo, 2.0 * std::sqrt(2.0), std::sqrt(2.0), "2 x");
  if (g.fp32_accumulate_half_rate) {
    judge(Precision::fp4, Precision::fp8, std::sqrt(12.0), std::sqrt(3.0), "4 x (FP32 accumulate at half rate)", 2.0);
  } else {
    judge(Precision::fp4, Precision::fp8, std::sqrt(12.0), std::sqrt(3.0), "2 x or 3 x");
  }
  const double accumulate = g.fp32_accumulate_half_rate ? 2.0 : 1.0;
  // Where FP8 and FP4 agree with BF16/FP16 and with each other, a pair with FP6 that errs is FP6's
  // fault, whichever way it errs; otherwise the usual rule names the higher or the lower member.
  const bool others_agree = g.dense.has(Precision::fp8) && std::none_of(out.begin(), out.end(), [](const CatalogWarning& w) {
                              return w.field == "dense.fp8" || w.field == "dense.fp4";
                            });
  const std::optional<Precision> fp6 = others_agree ? std::optional<Precision>(Precision::fp6) : std::nullopt;
  if (g.vendor == Vendor::nvidia) {
    judge(Precision::fp6, Precision::fp8, std::sqrt(2.0), 1.0 / std::sqrt(2.0), "1 x", 1.0, fp6);
    judge(Precision::fp4, Precision::fp6, std::sqrt(12.0), std::sqrt(3.0),
          g.fp32_accumulate_half_rate ? "4 x (FP32 accumulate at half rate)" : "2 x or 3 x", accumulate, fp6);
  } else if (g.vendor == Vendor::amd) {
    judge(Precision::fp6, Precision::fp8, 2.0 * std::sqrt(2.0), std::sqrt(2.0), "2 x", 1.0, fp6);
    judge(Precision::fp4, Precision::fp6, std::sqrt(2.0), 1.0 / std::sqrt(2.0), "1 x", 1.0, fp6);
  } else {
    judge(Precision::fp6, Precision::fp8, 2.0 * std::sqrt(2.0), 1.0 / std::sqrt(2.0), "1 x or 2 x", 1.0, fp6);
    judge(Precision::fp4, Precision::fp6, std::sqrt(12.0), 1.0 / std::sqrt(2.0), "1 x, 2 x or 3 x", 1.0, fp6);
  }
  // b. Reference rule: a rate that is 2 x the reference entry's dense rate.
  if (reference != nullptr) {
    // The first reference entry that shares a name with this one; each name normalised once.
    std::vector<std::string> names;
    for (const std::string& n : detail::names_of(g)) names.push_back(normalize_name(n));
    const GpuSpec* ref = nullptr;
    for (const auto& r : reference->gpus()) {
      for (const std::string& rn : detail::names_of(r)) {
        if (std::find(names.begin(), names.end(), normalize_name(rn)) != names.end()) {
          ref = &r;
          break;
        }
      }
      if (ref != nullptr) break;
    }
    if (ref != nullptr) {
      for (Precision p : all_precisions) {
        const auto mine = g.dense.at(p), theirs = ref->dense.at(p);
        if (!mine || !theirs) continue;
        const double ratio = mine->value() / theirs->value();
        if (std::fabs(ratio - 2.0) <= 0.04) {
          out.push_back({WarningKind::sparse_rate, entry, "dense." + std::string(name(p)),
                         entry + ": " + std::string(name(p)) + " " + tf(*mine) + " is 2 x the dense " + tf(*theirs) +
                             " of catalog entry " + ref->id + ": it looks like the 2:4-sparse figure"});
        }
      }
    }
  }
  return out;
}

namespace detail {

// Rule 3 for the offers `judged` accepts; every offer still counts as a sibling.
template <class Judged>
std::vector<CatalogWarning> price_outliers_of(const Catalog& c, double factor, std::size_t min_siblings,
                                              std::string_view today, long max_age_days, const Judged& judged) {
  require_finite(factor, "outlier_factor");
  if (!(factor > 1)) detail::fail("outlier_factor", detail::format_double(factor), "must be > 1");
  if (!today.empty()) parse_iso_date(today, "today");
  if (max_age_days < 0) detail::fail("max_price_age_days", std::to_string(max_age_days), "is negative");
  const auto fresh = [&](const CloudOffer& o) {
    if (today.empty()) return true;
    const long age = days_between(o.as_of, today);
    return age >= 0 && age <= max_age_days;
  };
  std::vector<CatalogWarning> out;
  const Decimal k = Decimal::from_double(factor, 15, "outlier_factor");
  const auto& offers = c.cloud_offers();
  for (const auto& o : offers) {
    if (!fresh(o) || !judged(o)) continue;
    std::vector<MoneyRate> group;
    for (const auto& s : offers) {
      if (s.gpu_id == o.gpu_id && s.currency == o.currency && fresh(s)) group.push_back(s.per_gpu_hour());
    }
    if (group.size() < min_siblings) continue;
    std::sort(group.begin(), group.end());
    const std::size_t n = group.size();
    const MoneyRate median = n % 2 == 1 ? group[n / 2] : (group[n / 2 - 1] + group[n / 2]) / Decimal(2);
    const MoneyRate mine = o.per_gpu_hour();
    const std::string base = "cloud offer " + o.id;
    const std::string what = base + ": " + format(mine) + " per GPU-hour (" + std::string(name(o.headline())) +
                             ") against a median of " + format(median) + " over " + std::to_string(n) +
                             " offers for " + o.gpu_id;
    if (mine > median * k) {
      out.push_back({WarningKind::price_outlier, base, std::string(name(o.headline())),
                     what + " is more than " + detail::format_double(factor) + " x the median"});
    } else if (mine * k < median) {
      out.push_back({WarningKind::price_outlier, base, std::string(name(o.headline())),
                     what + " is less than 1/" + detail::format_double(factor) + " of the median"});
    }
  }
  return out;
}

// The three checks in check_catalog's order, rules 2 and 3 only for the GPUs and offers `wanted`
// accepts (by label): the rate check compares names with the whole reference catalog and the price
// check sorts each offer's siblings, so a planner that asks about a few entries skips the rest.
template <class Wanted>
std::vector<CatalogWarning> check_entries(const Catalog& c, const WarningOptions& opt, const Catalog* reference,
                                          const Wanted& wanted) {
  auto out = stale_prices(c, opt.today, opt.max_price_age_days);
  for (const auto& g : c.gpus()) {
    if (!wanted("gpu " + g.id)) continue;
    auto w = sparse_rate_suspects(g, reference);
    out.insert(out.end(), w.begin(), w.end());
  }
  auto p = price_outliers_of(c, opt.outlier_factor, opt.min_siblings, opt.today, opt.max_price_age_days,
                             [&](const CloudOffer& o) { return wanted("cloud offer " + o.id); });
  out.insert(out.end(), p.begin(), p.end());
  return out;
}

}  // namespace detail

// Rule 3: cloud offers whose per-GPU-hour price is out of line with their siblings'. With a
// `today` (ISO date), offers whose price is more than max_age_days old (or dated after today)
// are left out, as judged and as siblings; without one, every offer counts.
inline std::vector<CatalogWarning> price_outliers(const Catalog& c, double factor = 3.0, std::size_t min_siblings = 3,
                                                  std::string_view today = {}, long max_age_days = 365) {
  return detail::price_outliers_of(c, factor, min_siblings, today, max_age_days, [](const CloudOffer&) { return true; });
}

// All three checks over a whole catalog.
inline std::vector<CatalogWarning> check_catalog(const Catalog& c, const WarningOptions& opt,
                                                 const Catalog* reference = &Catalog::builtin()) {
  return detail::check_entries(c, opt, reference, [](const std::string&) { return true; });
}

// The warnings about the entries one answer used, judged on `opt.today`: `entries` are labels as
// CatalogWarning::entry gives them ("gpu h100-sxm", "system dgx-h100", "cloud offer
// lambda-gpu-8x-h100-sxm5"); the warnings come in the order of `entries`, each entry's once. What a
// planner's answer rests on is then in its notes and JSON, not only in check_catalog's.
inline std::vector<CatalogWarning> warnings_for(const Catalog& c, const std::vector<std::string>& entries, const WarningOptions& opt,
                                                const Catalog* reference = &Catalog::builtin()) {
  std::vector<CatalogWarning> out;
  if (entries.empty()) return out;
  // Only the entries asked about are checked by rules 2 and 3 (the same warnings, in the same order,
  // as filtering check_catalog's).
  const std::vector<CatalogWarning> all = detail::check_entries(c, opt, reference, [&](const std::string& label) {
    return std::find(entries.begin(), entries.end(), label) != entries.end();
  });
  std::vector<std::string> seen;
  for (const std::string& e : entries) {
    if (std::find(seen.begin(), seen.end(), e) != seen.end()) continue;
    seen.push_back(e);
    for (const CatalogWarning& w : all)
      if (w.entry == e) out.push_back(w);
  }
  return out;
}

}  // namespace capplan
