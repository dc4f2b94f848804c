// Checks shared by the hardware records' validate(): every failure is an InputError naming the
// field, the value and the entry ("gpu \"h100-sxm\"").
#pragma once

#include "capplan/error.hpp"
#include "capplan/date.hpp"
#include "capplan/units/format.hpp"
#include "capplan/units/quantity.hpp"

#include <cmath>
#include <string>
#include <string_view>

namespace capplan::detail {

inline std::string entry_label(std::string_view kind, std::string_view id) {
  return "(" + std::string(kind) + " \"" + std::string(id) + "\")";
}

// A quantity that must be finite, >= 0 and at most `max` (an absurdity bound, stated in the
// record's documentation). `required`: it must also be > 0.
template <class Q>
void check_quantity(const Q& q, Q max, std::string_view field, std::string_view label, bool required = false,
                    Q min = Q::from_value(0)) {
  const double v = q.value();
  if (std::isnan(v)) detail::fail(field, "NaN", "is not a number " + std::string(label));
  if (std::isinf(v)) detail::fail(field, v > 0 ? "inf" : "-inf", "is not finite " + std::string(label));
  if (v < 0) detail::fail(field, format(q), "is negative " + std::string(label));
  if (required && v == 0) detail::fail(field, format(q), "must be > 0 " + std::string(label));
  if (v > max.value()) {
    detail::fail(field, format(q), "is absurd (more than " + format(max) + ") " + std::string(label));
  }
  // A figure far below any real part's (1e-300 B of memory) would print "inf %" and ages of years.
  if (v > 0 && v < min.value()) {
    detail::fail(field, format(q), "is absurdly small (less than " + format(min) + ") " + std::string(label));
  }
}

inline void check_count(long v, long lo, long hi, std::string_view field, std::string_view label) {
  if (v < lo || v > hi) {
    detail::fail(field, std::to_string(v),
                 "is outside " + std::to_string(lo) + ".." + std::to_string(hi) + " " + std::string(label));
  }
}

inline void check_id(std::string_view id, std::string_view kind) {
  if (id.empty()) detail::fail("id", "\"\"", "is empty (" + std::string(kind) + ")");
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
    if (!ok) {
      detail::fail("id", "\"" + std::string(id) + "\"",
                   "must use lower-case letters, digits, '-', '.' and '_' only (" + std::string(kind) + ")");
    }
  }
}

inline void check_text(std::string_view text, std::string_view field, std::string_view label) {
  if (text.empty()) detail::fail(field, "\"\"", "is empty " + std::string(label));
}

inline void check_date(std::string_view text, std::string_view field) { parse_iso_date(text, field); }

}  // namespace capplan::detail
