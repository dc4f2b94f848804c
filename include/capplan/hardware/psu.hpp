// PowerSupply: rated output, 80 PLUS tier and the efficiency the tier guarantees.
//
// Minimum efficiencies per 80 PLUS tier at 10 / 20 / 50 / 100 % of rated load, from the 80 PLUS
// program requirements (CLEAResult, https://www.clearesult.com/80plus/program-details; table as
// reproduced by Tom's Hardware, https://www.tomshardware.com/reviews/80-plus-psu-efficiency,4848-2.html,
// checked 2026-11-21). Only Titanium has a 10 % requirement.
#pragma once

#include "capplan/hardware/detail/validate.hpp"
#include "capplan/hardware/price_point.hpp"

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace capplan {

enum class EightyPlusTier { none, standard, bronze, silver, gold, platinum, titanium };
BOOST_DESCRIBE_ENUM(EightyPlusTier, none, standard, bronze, silver, gold, platinum, titanium)

// The 80 PLUS test categories that apply to computer PSUs.
enum class PsuInput {
  v115_internal,        // 115 V internal non-redundant (desktops, workstations)
  v230_eu_internal,     // 230 V EU internal non-redundant
  v230_internal_redundant,  // 230 V internal redundant (data-centre servers)
};
BOOST_DESCRIBE_ENUM(PsuInput, v115_internal, v230_eu_internal, v230_internal_redundant)

inline constexpr std::string_view name(EightyPlusTier t) {
  switch (t) {
    case EightyPlusTier::none: return "none";
    case EightyPlusTier::standard: return "80 PLUS";
    case EightyPlusTier::bronze: return "80 PLUS Bronze";
    case EightyPlusTier::silver: return "80 PLUS Silver";
    case EightyPlusTier::gold: return "80 PLUS Gold";
    case EightyPlusTier::platinum: return "80 PLUS Platinum";
    case EightyPlusTier::titanium: return "80 PLUS Titanium";
  }
  return "?";
}

inline constexpr std::string_view name(PsuInput i) {
  switch (i) {
    case PsuInput::v115_internal: return "115 V internal";
    case PsuInput::v230_eu_internal: return "230 V EU internal";
    case PsuInput::v230_internal_redundant: return "230 V internal redundant";
  }
  return "?";
}

// Minimum efficiency at 10, 20, 50 and 100 % load; absent where the tier sets no requirement.
struct EfficiencyCurve {
  static constexpr std::array<double, 4> loads{0.10, 0.20, 0.50, 1.00};
  std::array<std::optional<double>, 4> efficiency{};
};

// 80 PLUS minimum efficiencies (fractions). Source: see the header comment.
inline EfficiencyCurve eighty_plus_curve(EightyPlusTier tier, PsuInput input = PsuInput::v115_internal) {
  using O = std::optional<double>;
  const O n = std::nullopt;
  // rows: standard, bronze, silver, gold, platinum, titanium; columns: 10, 20, 50, 100 %.
  static const std::array<std::array<O, 4>, 6> v115{{
      {n, 0.80, 0.80, 0.80},  // 80 PLUS
      {n, 0.82, 0.85, 0.82},  // Bronze
      {n, 0.85, 0.88, 0.85},  // Silver
      {n, 0.87, 0.90, 0.87},  // Gold
      {n, 0.90, 0.92, 0.89},  // Platinum
      {0.90, 0.92, 0.94, 0.90},  // Titanium
  }};
  static const std::array<std::array<O, 4>, 6> v230eu{{
      {n, 0.82, 0.85, 0.82},
      {n, 0.85, 0.88, 0.85},
      {n, 0.87, 0.90, 0.87},
      {n, 0.90, 0.92, 0.89},
      {n, 0.92, 0.94, 0.90},
      {0.90, 0.94, 0.96, 0.94},
  }};
  static const std::array<std::array<O, 4>, 6> v230r{{
      {n, n, n, n},  // the standard tier has no 230 V redundant category
      {n, 0.81, 0.85, 0.81},
      {n, 0.85, 0.89, 0.85},
      {n, 0.88, 0.92, 0.88},
      {n, 0.90, 0.94, 0.91},
      {0.90, 0.94, 0.96, 0.91},
  }};
  EfficiencyCurve c{};
  if (tier == EightyPlusTier::none) return c;
  const auto row = static_cast<std::size_t>(tier) - 1;
  const auto& table = input == PsuInput::v115_internal ? v115 : input == PsuInput::v230_eu_internal ? v230eu : v230r;
  c.efficiency = table[row];
  return c;
}

struct PowerSupply {
  std::string id{};                  // "corsair-ax1600i"
  std::string name{};
  std::vector<std::string> aliases{};
  Power rated{};                   // continuous DC output
  EightyPlusTier tier = EightyPlusTier::gold;
  PsuInput input = PsuInput::v115_internal;
  std::optional<PricePoint> launch_price{};
  std::optional<PricePoint> street_price{};
  std::string source{};
  std::string as_of{};
  std::string note{};

  [[nodiscard]] EfficiencyCurve curve() const { return eighty_plus_curve(tier, input); }

  // The tier's minimum efficiency at `load` (fraction of rated output, 0 < load <= 1): linear
  // between the specified points; below the lowest specified point (20 %, or 10 % for
  // Titanium) the lowest point's value is held, an assumption (the program sets no minimum
  // there and real supplies are less efficient at very light load). Tier `none` throws.
  [[nodiscard]] double efficiency_at(double load) const {
    require_finite(load, "load");
    if (!(load > 0) || load > 1) detail::fail("load", detail::format_double(load), "is outside (0, 1]");
    const EfficiencyCurve c = curve();
    double prev_load = -1, prev_eff = 0;
    for (std::size_t i = 0; i < c.loads.size(); ++i) {
      if (!c.efficiency[i]) continue;
      const double l = c.loads[i], e = *c.efficiency[i];
      if (load <= l) {
        if (prev_load < 0) return e;
        return prev_eff + (e - prev_eff) * (load - prev_load) / (l - prev_load);
      }
      prev_load = l;
      prev_eff = e;
    }
    if (prev_load < 0) {
      detail::fail("tier", std::string(capplan::name(tier)), "has no efficiency requirement for " + std::string(capplan::name(input)));
    }
    return prev_eff;
  }

  // Power drawn from the wall to deliver `output` (DC): output / efficiency_at(output / rated).
  [[nodiscard]] Power wall_power(Power output) const {
    require_nonnegative(output.value(), "output");
    if (output.value() == 0) return output;
    if (output > rated) detail::fail("output", format(output), "exceeds the rated " + format(rated) + " of " + id);
    return output / efficiency_at(output.value() / rated.value());
  }

  // Bounds: rated 50 W..10 kW.
  void validate() const {
    using namespace capplan::literals;
    detail::check_id(id, "psu");
    const std::string label = detail::entry_label("psu", id);
    detail::check_text(name, "name", label);
    detail::check_quantity(rated, 10_kW, "rated", label, true);
    if (rated.value() < 50) detail::fail("rated", format(rated), "is below 50 W " + label);
    if (launch_price) launch_price->validate("launch_price");
    if (street_price) street_price->validate("street_price");
    detail::check_text(source, "source", label);
    detail::check_date(as_of, "as_of");
  }
};

BOOST_DESCRIBE_STRUCT(PowerSupply, (),
                      (id, name, aliases, rated, tier, input, launch_price, street_price, source, as_of, note))
// What a new catalog entry must give; every other member may keep its default.
constexpr auto required_members(std::type_identity<PowerSupply>) {
  return std::tuple{&PowerSupply::id, &PowerSupply::name, &PowerSupply::rated, &PowerSupply::tier, &PowerSupply::source,
                    &PowerSupply::as_of};
}

}  // namespace capplan
