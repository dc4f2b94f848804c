// PricePoint: an amount of money with where and when it was observed.
#pragma once

#include "capplan/date.hpp"
#include "capplan/money/format.hpp"
#include "capplan/money/money.hpp"

#include <boost/describe/class.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace capplan {

struct PricePoint {
  Money amount{};
  std::string as_of{};   // ISO date, "2026-10-01"
  std::string source{};  // URL or document
  // Upper end when the source gives a range ("$20.4k-28.6k"); `amount` is then the lower end.
  std::optional<Money> high = std::nullopt;

  // Throws InputError naming `field` for a negative amount, a range whose high end is below its
  // low end or in another currency, a bad date or a missing source.
  void validate(std::string_view field) const {
    const std::string f(field);
    if (amount.is_negative()) detail::fail(f + ".amount", format(amount), "is negative");
    if (high) {
      if (high->currency() != amount.currency()) {
        detail::fail(f + ".high", format(*high), "is in another currency than the amount " + format(amount));
      }
      if (*high < amount) detail::fail(f + ".high", format(*high), "is below the low end " + format(amount));
    }
    parse_iso_date(as_of, f + ".as_of");
    if (source.empty()) detail::fail(f + ".source", "\"\"", "is empty; every price names where it came from");
  }
};

BOOST_DESCRIBE_STRUCT(PricePoint, (), (amount, as_of, source, high))

}  // namespace capplan
