// Chassis: the enclosure of a node (tower or rack units) and how many GPUs it holds.
#pragma once

#include "capplan/hardware/detail/validate.hpp"
#include "capplan/hardware/motherboard.hpp"
#include "capplan/hardware/price_point.hpp"

#include <boost/describe/class.hpp>

#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace capplan {

struct Chassis {
  std::string id{};              // "generic-4u-gpu-server"
  std::string name{};
  std::vector<std::string> aliases{};
  int rack_units = 0;          // 0: a tower (not rack-mounted)
  int max_gpus = 0;            // double-width GPUs it can hold
  int psu_bays = 1;
  BoardFormFactor max_board = BoardFormFactor::atx;  // the largest board it takes (and every smaller one)
  int expansion_slots = 0;     // slot positions at the back; 0: not recorded
  Length max_gpu_length{};     // the longest card it takes; 0: not recorded
  // Forced front-to-back airflow through the cards, which passively cooled data-centre GPUs need
  // (NVIDIA's qualified servers); a desktop case's fans do not cool them.
  bool passive_gpu_airflow = false;
  std::optional<PricePoint> street_price{};
  std::string source{};
  std::string as_of{};
  std::string note{};

  // Bounds: rack units 0..48, GPUs 0..64, PSU bays 1..16, expansion slots 0..20, GPU length <= 2 m.
  void validate() const {
    detail::check_id(id, "chassis");
    const std::string label = detail::entry_label("chassis", id);
    detail::check_text(name, "name", label);
    detail::check_count(rack_units, 0, 48, "rack_units", label);
    detail::check_count(max_gpus, 0, 64, "max_gpus", label);
    detail::check_count(psu_bays, 1, 16, "psu_bays", label);
    detail::check_count(expansion_slots, 0, 20, "expansion_slots", label);
    detail::check_quantity(max_gpu_length, Length::from_value(2.0), "max_gpu_length", label);
    if (street_price) street_price->validate("street_price");
    detail::check_text(source, "source", label);
    detail::check_date(as_of, "as_of");
  }
};

BOOST_DESCRIBE_STRUCT(Chassis, (), (id, name, aliases, rack_units, max_gpus, psu_bays, max_board, expansion_slots,
                                    max_gpu_length, passive_gpu_airflow, street_price, source, as_of, note))
// What a new catalog entry must give; every other member may keep its default.
constexpr auto required_members(std::type_identity<Chassis>) {
  return std::tuple{&Chassis::id, &Chassis::name, &Chassis::source, &Chassis::as_of};
}

}  // namespace capplan
