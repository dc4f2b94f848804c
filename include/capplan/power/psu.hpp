// PSU sizing: how large a power supply a machine needs.
//
//   PsuSizing s = size_psu(parts, {.vendor_recommended = 850_W});
//   s.recommended_rating; s.explain();
//
// Three requirements, the largest wins, then it is rounded up to a standard rating:
//  1. sustained: sum of every part's maximum draw × (1 + headroom), headroom 20–30% (25% by
//     default), the rule of thumb of PSU sizing guides (e.g. Tom's Hardware and OuterVision PSU
//     calculator: keep sustained load at or below about 80% of the rating);
//  2. transients: GPUs draw spikes well above their TDP for tens to hundreds of microseconds.
//     Igor's Lab measured RTX 3090 spikes of about 2× board power (igorslab.de, "NVIDIA GeForce
//     RTX 3090 ... power consumption", 2020) and Intel's ATX 3.0 design guide (2022) requires an
//     ATX 3.0 PSU to carry a 200% power excursion for 100 µs. Peak = non-GPU max + GPU max ×
//     transient_factor (2.0 by default); an ATX 3.0 PSU must be rated >= peak / 2, an older PSU
//     >= peak;
//  3. the vendor's recommended system power when given (e.g. NVIDIA's "required system power"
//     of 850 W for the GeForce RTX 4090, nvidia.com RTX 4090 specifications).
#pragma once

#include "capplan/error.hpp"
#include "capplan/power/component.hpp"
#include "capplan/power/explain.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace capplan {

struct PsuSizingOptions {
  double headroom = 0.25;               // 20–30% rule of thumb (see header comment)
  double gpu_transient_factor = 2.0;    // Igor's Lab RTX 30 measurements; ATX 3.0 200% excursion
  bool atx3 = true;                     // ATX 3.0 PSU: tolerates 200% of rating for 100 µs
  std::optional<Power> vendor_recommended = std::nullopt;  // e.g. 850 W for an RTX 4090 system
  // Common retail ratings, ascending (W).
  std::vector<double> standard_ratings_w = {450, 550, 650, 750, 850, 1000, 1200, 1300, 1500, 1600, 2000};
};

struct PsuSizing {
  Power max_draw{};           // sum of every part at max_draw
  Power gpu_max_draw{};
  double headroom = 0;
  Power sustained_required{};  // max_draw × (1 + headroom)
  double gpu_transient_factor = 1;
  Power transient_peak{};      // non-GPU max + GPU max × factor
  bool atx3 = true;
  Power transient_required{};  // peak / 2 (ATX 3.0) or peak
  std::optional<Power> vendor_recommended{};
  Power required{};            // the largest of the three
  std::string deciding{};        // which requirement decided
  std::optional<Power> recommended_rating{};  // smallest standard rating >= required

  [[nodiscard]] std::string explain() const {
    using namespace explain_text;
    std::string s = "sustained: " + quantity(max_draw) + " × (1 + " + number(headroom, 4) + ") = " +
                    quantity(sustained_required) + "\n";
    s += "transients: " + quantity(max_draw - gpu_max_draw) + " + " + quantity(gpu_max_draw) + " × " +
         number(gpu_transient_factor, 4) + " = " + quantity(transient_peak) + " peak" +
         (atx3 ? " / 2 (ATX 3.0 carries 200% for 100 µs) = " : " (pre-ATX 3.0 PSU) = ") + quantity(transient_required) +
         "\n";
    if (vendor_recommended) s += "vendor recommended system power: " + quantity(*vendor_recommended) + "\n";
    s += "required: " + quantity(required) + " (" + deciding + ")";
    if (recommended_rating) s += " → buy a " + quantity(*recommended_rating) + " PSU";
    else s += " → larger than every standard rating; split the load over several PSUs";
    return s;
  }
};

inline PsuSizing size_psu(std::span<const PowerComponent> components, const PsuSizingOptions& o = {}) {
  if (components.empty()) detail::fail("components", "[]", "is empty; list at least one part");
  require_nonnegative(o.headroom, "headroom");
  if (o.headroom > 1.0) detail::fail("headroom", explain_text::input(o.headroom), "is above 1 (100%); write 0.25 for 25%");
  require_finite(o.gpu_transient_factor, "gpu_transient_factor");
  if (o.gpu_transient_factor < 1.0) {
    detail::fail("gpu_transient_factor", explain_text::input(o.gpu_transient_factor), "must be >= 1");
  }
  if (o.vendor_recommended) require_positive(o.vendor_recommended->value(), "vendor_recommended");
  PsuSizing s;
  for (const auto& c : components) {
    c.validate();
    s.max_draw += c.max_draw * static_cast<double>(c.count);
  }
  s.gpu_max_draw = max_draw_of(components, ComponentKind::gpu);
  s.headroom = o.headroom;
  s.sustained_required = s.max_draw * (1.0 + o.headroom);  // max draw + 20–30% headroom
  s.gpu_transient_factor = o.gpu_transient_factor;
  s.transient_peak = (s.max_draw - s.gpu_max_draw) + s.gpu_max_draw * o.gpu_transient_factor;
  s.atx3 = o.atx3;
  s.transient_required = o.atx3 ? s.transient_peak / 2.0 : s.transient_peak;  // ATX 3.0: 200% for 100 µs
  s.vendor_recommended = o.vendor_recommended;
  s.required = s.sustained_required;
  s.deciding = "sustained load + headroom";
  if (s.transient_required > s.required) {
    s.required = s.transient_required;
    s.deciding = "GPU transients";
  }
  if (o.vendor_recommended && *o.vendor_recommended > s.required) {
    s.required = *o.vendor_recommended;
    s.deciding = "vendor recommendation";
  }
  for (double w : o.standard_ratings_w) {
    if (w >= s.required.value()) {
      s.recommended_rating = Power::from_value(w);
      break;
    }
  }
  return s;
}

}  // namespace capplan
