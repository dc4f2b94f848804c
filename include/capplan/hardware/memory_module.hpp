// MemoryModule: a host DRAM module (DDR4 / DDR5 DIMM).
#pragma once

#include "capplan/hardware/detail/validate.hpp"
#include "capplan/hardware/price_point.hpp"

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace capplan {

enum class DramType { ddr4, ddr5 };
BOOST_DESCRIBE_ENUM(DramType, ddr4, ddr5)

inline constexpr std::string_view name(DramType t) { return t == DramType::ddr4 ? "DDR4" : "DDR5"; }

struct MemoryModule {
  std::string id{};                 // "ddr5-4800-rdimm-64gb"
  std::string name{};
  std::vector<std::string> aliases{};
  DramType type = DramType::ddr5;
  int speed_mts = 0;              // transfer rate in MT/s (a count per second, as JEDEC names it)
  DataSize size{};
  bool registered = false;        // RDIMM
  bool ecc = false;
  std::optional<Power> power{};     // typical operating power; absent: no vendor figure
  std::optional<PricePoint> street_price{};
  std::string source{};
  std::string as_of{};
  std::string note{};

  // Bounds: size 1 GB..1 TB, speed 1,000..20,000 MT/s, power <= 50 W.
  void validate() const {
    using namespace capplan::literals;
    detail::check_id(id, "memory module");
    const std::string label = detail::entry_label("memory module", id);
    detail::check_text(name, "name", label);
    detail::check_count(speed_mts, 1000, 20000, "speed_mts", label);
    detail::check_quantity(size, 1_TB, "size", label, true);
    if (size.value() < 1e9) detail::fail("size", format(size), "is below 1 GB " + label);
    if (power) detail::check_quantity(*power, 50_W, "power", label, true);
    if (street_price) street_price->validate("street_price");
    detail::check_text(source, "source", label);
    detail::check_date(as_of, "as_of");
  }
};

BOOST_DESCRIBE_STRUCT(MemoryModule, (), (id, name, aliases, type, speed_mts, size, registered, ecc, power,
                                         street_price, source, as_of, note))
// What a new catalog entry must give; every other member may keep its default.
constexpr auto required_members(std::type_identity<MemoryModule>) {
  return std::tuple{&MemoryModule::id, &MemoryModule::name, &MemoryModule::type, &MemoryModule::speed_mts,
                    &MemoryModule::size, &MemoryModule::source, &MemoryModule::as_of};
}

}  // namespace capplan
