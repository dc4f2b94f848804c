// Calendar dates of catalog entries ("as_of"): ISO 8601 "YYYY-MM-DD" text, checked and compared
// as day numbers. Dates stay strings in records so that they serialize as written.
#pragma once

#include "capplan/error.hpp"

#include <string>
#include <string_view>

namespace capplan {

// A checked calendar date.
struct IsoDate {
  int year = 1970;
  int month = 1;
  int day = 1;

  // Days since 1970-01-01 (proleptic Gregorian calendar).
  // Algorithm: H. Hinnant, "chrono-Compatible Low-Level Date Algorithms", days_from_civil.
  [[nodiscard]] constexpr long days_since_epoch() const noexcept {
    const int y = year - (month <= 2 ? 1 : 0);
    const long era = (y >= 0 ? y : y - 399) / 400;
    const long yoe = y - era * 400;
    const long mp = (month + 9) % 12;
    const long doy = (153 * mp + 2) / 5 + day - 1;
    const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
  }
  friend constexpr bool operator==(const IsoDate&, const IsoDate&) = default;
};

inline constexpr bool is_leap_year(int y) noexcept { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

inline constexpr int days_in_month(int y, int m) noexcept {
  constexpr int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap_year(y) ? 29 : days[m - 1];
}

// Parses "YYYY-MM-DD"; throws InputError naming `field` and the text otherwise.
inline IsoDate parse_iso_date(std::string_view text, std::string_view field = "as_of") {
  const auto bad = [&](std::string_view why) {
    detail::fail(field, "\"" + std::string(text) + "\"", why);
  };
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') bad("is not a date in the form YYYY-MM-DD");
  int parts[3] = {0, 0, 0};
  const std::size_t starts[3] = {0, 5, 8};
  const std::size_t lens[3] = {4, 2, 2};
  for (int i = 0; i < 3; ++i) {
    for (std::size_t k = 0; k < lens[i]; ++k) {
      const char c = text[starts[i] + k];
      if (c < '0' || c > '9') bad("is not a date in the form YYYY-MM-DD");
      parts[i] = parts[i] * 10 + (c - '0');
    }
  }
  IsoDate d{parts[0], parts[1], parts[2]};
  if (d.year < 1990 || d.year > 2100) bad("has a year outside 1990..2100");
  if (d.month < 1 || d.month > 12) bad("has a month outside 1..12");
  if (d.day < 1 || d.day > days_in_month(d.year, d.month)) bad("has a day that is not in its month");
  return d;
}

// Whole days from `earlier` to `later` (negative when `later` is before `earlier`).
inline long days_between(std::string_view earlier, std::string_view later) {
  return parse_iso_date(later, "date").days_since_epoch() - parse_iso_date(earlier, "date").days_since_epoch();
}

}  // namespace capplan
