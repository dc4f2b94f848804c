// StorageDevice: an NVMe SSD (PCIe Gen4 / Gen5), SATA SSD or hard disk.
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

enum class StorageKind { nvme_gen4, nvme_gen5, sata_ssd, hdd };
BOOST_DESCRIBE_ENUM(StorageKind, nvme_gen4, nvme_gen5, sata_ssd, hdd)

inline constexpr std::string_view name(StorageKind k) {
  switch (k) {
    case StorageKind::nvme_gen4: return "NVMe PCIe 4.0 SSD";
    case StorageKind::nvme_gen5: return "NVMe PCIe 5.0 SSD";
    case StorageKind::sata_ssd: return "SATA SSD";
    case StorageKind::hdd: return "HDD";
  }
  return "?";
}

struct StorageDevice {
  std::string id{};                   // "samsung-990-pro-2tb"
  std::string name{};
  std::vector<std::string> aliases{};
  StorageKind kind = StorageKind::nvme_gen4;
  DataSize capacity{};
  Bandwidth sequential_read{};
  Bandwidth sequential_write{};
  std::optional<Power> active_power{};  // absent: no vendor figure
  std::optional<Power> idle_power{};
  std::optional<PricePoint> launch_price{};
  std::optional<PricePoint> street_price{};
  std::string source{};
  std::string as_of{};
  std::string note{};

  // Bounds: capacity <= 1 PB, throughput <= 100 GB/s, power <= 100 W.
  void validate() const {
    using namespace capplan::literals;
    detail::check_id(id, "storage");
    const std::string label = detail::entry_label("storage", id);
    detail::check_text(name, "name", label);
    detail::check_quantity(capacity, 1_PB, "capacity", label, true);
    detail::check_quantity(sequential_read, 100_GBps, "sequential_read", label, true);
    detail::check_quantity(sequential_write, 100_GBps, "sequential_write", label, true);
    if (active_power) detail::check_quantity(*active_power, 100_W, "active_power", label, true);
    if (idle_power) detail::check_quantity(*idle_power, 100_W, "idle_power", label);
    if (launch_price) launch_price->validate("launch_price");
    if (street_price) street_price->validate("street_price");
    detail::check_text(source, "source", label);
    detail::check_date(as_of, "as_of");
  }
};

BOOST_DESCRIBE_STRUCT(StorageDevice, (), (id, name, aliases, kind, capacity, sequential_read, sequential_write,
                                          active_power, idle_power, launch_price, street_price, source, as_of, note))
// What a new catalog entry must give; every other member may keep its default.
constexpr auto required_members(std::type_identity<StorageDevice>) {
  return std::tuple{&StorageDevice::id, &StorageDevice::name, &StorageDevice::kind, &StorageDevice::capacity,
                    &StorageDevice::sequential_read, &StorageDevice::sequential_write, &StorageDevice::source,
                    &StorageDevice::as_of};
}

}  // namespace capplan
