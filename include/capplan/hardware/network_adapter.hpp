// NetworkAdapter: a host channel adapter / NIC (100, 200, 400 Gb/s InfiniBand or Ethernet).
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

enum class LinkProtocol { infiniband, ethernet, infiniband_or_ethernet };
BOOST_DESCRIBE_ENUM(LinkProtocol, infiniband, ethernet, infiniband_or_ethernet)

inline constexpr std::string_view name(LinkProtocol p) {
  switch (p) {
    case LinkProtocol::infiniband: return "InfiniBand";
    case LinkProtocol::ethernet: return "Ethernet";
    case LinkProtocol::infiniband_or_ethernet: return "InfiniBand or Ethernet";
  }
  return "?";
}

struct NetworkAdapter {
  std::string id{};              // "connectx-7-ndr-400g"
  std::string name{};
  std::vector<std::string> aliases{};
  LinkProtocol protocol = LinkProtocol::infiniband;
  Bandwidth port_speed{};      // per port, per direction (400 Gb/s = 50 GB/s)
  int ports = 1;
  int pcie_generation = 4;
  int pcie_lanes = 16;
  std::optional<Power> power{};  // absent: no vendor figure
  std::optional<PricePoint> street_price{};
  std::string source{};
  std::string as_of{};
  std::string note{};

  // Bounds: port speed <= 3.2 Tb/s, ports 1..8, PCIe generation 1..7, lanes 1..32, power <= 200 W.
  void validate() const {
    using namespace capplan::literals;
    detail::check_id(id, "network adapter");
    const std::string label = detail::entry_label("network adapter", id);
    detail::check_text(name, "name", label);
    detail::check_quantity(port_speed, 3.2_Tbps, "port_speed", label, true);
    detail::check_count(ports, 1, 8, "ports", label);
    detail::check_count(pcie_generation, 1, 7, "pcie_generation", label);
    detail::check_count(pcie_lanes, 1, 32, "pcie_lanes", label);
    if (power) detail::check_quantity(*power, 200_W, "power", label, true);
    if (street_price) street_price->validate("street_price");
    detail::check_text(source, "source", label);
    detail::check_date(as_of, "as_of");
  }
};

BOOST_DESCRIBE_STRUCT(NetworkAdapter, (), (id, name, aliases, protocol, port_speed, ports, pcie_generation,
                                           pcie_lanes, power, street_price, source, as_of, note))
// What a new catalog entry must give; every other member may keep its default.
constexpr auto required_members(std::type_identity<NetworkAdapter>) {
  return std::tuple{&NetworkAdapter::id, &NetworkAdapter::name, &NetworkAdapter::protocol,
                    &NetworkAdapter::port_speed, &NetworkAdapter::source, &NetworkAdapter::as_of};
}

}  // namespace capplan
