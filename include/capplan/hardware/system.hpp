// SystemSpec: a build or server, nodes x parts, with its GPU interconnect topology and a price
// that is either given (a vendor's system price) or derived from its parts' prices
// (Catalog::system_price in catalog.hpp). Parts are referenced by catalog id, so a system
// serializes as ids and counts.
#pragma once

#include "capplan/detail/enum_names.hpp"
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

// How the GPUs inside one node talk to each other.
enum class Topology {
  single_gpu,     // one GPU: nothing to connect
  nvswitch,       // every GPU to every GPU over NVLink through NVSwitch (DGX / HGX 8-GPU)
  nvlink_direct,  // every GPU to every GPU over direct NVLink, no switch (HGX A100 4-GPU)
  nvlink_bridge,  // pairs of GPUs joined by an NVLink bridge, the rest over PCIe
  pcie_switch,    // peer-to-peer over PCIe (through a switch or the root complex)
  pcie_no_p2p,    // no peer-to-peer: GPU to GPU traffic goes through host memory (GeForce 40-series)
};
BOOST_DESCRIBE_ENUM(Topology, single_gpu, nvswitch, nvlink_direct, nvlink_bridge, pcie_switch, pcie_no_p2p)

inline constexpr std::string_view name(Topology t) {
  switch (t) {
    case Topology::single_gpu: return "single GPU";
    case Topology::nvswitch: return "NVLink + NVSwitch";
    case Topology::nvlink_direct: return "NVLink, direct all-to-all";
    case Topology::nvlink_bridge: return "NVLink bridge";
    case Topology::pcie_switch: return "PCIe peer-to-peer";
    case Topology::pcie_no_p2p: return "PCIe, no peer-to-peer";
  }
  return "?";
}

enum class PartKind { gpu, cpu, memory, storage, psu, chassis, network, motherboard };
BOOST_DESCRIBE_ENUM(PartKind, gpu, cpu, memory, storage, psu, chassis, network, motherboard)

inline constexpr std::string_view name(PartKind k) { return detail::enum_name(k); }

// `count` of catalog entry `id` of kind `kind`, per node.
struct SystemPart {
  PartKind kind = PartKind::gpu;
  std::string id{};
  int count = 1;
};

BOOST_DESCRIBE_STRUCT(SystemPart, (), (kind, id, count))

struct SystemSpec {
  std::string id{};                     // "dgx-a100"
  std::string name{};
  std::vector<std::string> aliases{};
  int nodes = 1;
  std::vector<SystemPart> parts{};      // per node
  Topology topology = Topology::single_gpu;
  // The vendor's stated maximum power of one node, where it states one (NVIDIA's DGX datasheets and
  // user guides: DGX A100 6.5 kW, DGX H100 about 10.2 kW, DGX B200 14.3 kW). It covers what the parts
  // list does not itemize (NVSwitches, DPUs, drives, fans), so power/system_power.hpp sizes the wall
  // circuit and the heat by it where it exceeds the parts' estimate; energy stays with the estimate.
  std::optional<Power> max_power{};
  // The price of the whole system (all nodes) when a source gives one; otherwise the price is
  // derived from the parts (Catalog::system_price).
  std::optional<PricePoint> price{};
  std::string source{};
  std::string as_of{};
  std::string note{};

  // GPUs per node (sum over GPU parts).
  [[nodiscard]] int gpus_per_node() const {
    int n = 0;
    for (const auto& p : parts) {
      if (p.kind == PartKind::gpu) n += p.count;
    }
    return n;
  }
  [[nodiscard]] int total_gpus() const { return nodes * gpus_per_node(); }
  // The id of the (first) GPU model in the node, empty if none.
  [[nodiscard]] std::string gpu_id() const {
    for (const auto& p : parts) {
      if (p.kind == PartKind::gpu) return p.id;
    }
    return {};
  }

  // Bounds: nodes 1..100,000; part counts 1..1,024; at least one GPU part, all of one GPU model;
  // one GPU needs topology single_gpu and several GPUs need another topology.
  void validate() const {
    detail::check_id(id, "system");
    const std::string label = detail::entry_label("system", id);
    detail::check_text(name, "name", label);
    detail::check_count(nodes, 1, 100000, "nodes", label);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::string f = "parts[" + std::to_string(i) + "]";
      detail::check_text(parts[i].id, f + ".id", label);
      detail::check_count(parts[i].count, 1, 1024, f + ".count", label);
    }
    // capplan times GPU work: a system without a GPU part has nothing to plan, and one that mixes
    // GPU models would be timed as if every GPU were the first.
    const std::string first = gpu_id();
    if (first.empty()) detail::fail("parts", "(no gpu part)", "must include a GPU part {\"kind\": \"gpu\", ...} " + label);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (parts[i].kind == PartKind::gpu && parts[i].id != first) {
        detail::fail("parts[" + std::to_string(i) + "].id", parts[i].id,
                     "is a second GPU model beside " + first + "; a system holds one GPU model (describe each as its own system) " + label);
      }
    }
    const int g = gpus_per_node();
    if (g <= 1 && topology != Topology::single_gpu && topology != Topology::pcie_no_p2p) {
      detail::fail("topology", std::string(capplan::name(topology)),
                   "needs more than one GPU per node (has " + std::to_string(g) + ") " + label);
    }
    if (g > 1 && topology == Topology::single_gpu) {
      detail::fail("topology", std::string(capplan::name(topology)),
                   "cannot describe " + std::to_string(g) + " GPUs per node " + label);
    }
    if (max_power) detail::check_quantity(*max_power, Power::from_value(200e3), "max_power", label, true, Power::from_value(10));
    if (price) price->validate("price");
    detail::check_text(source, "source", label);
    detail::check_date(as_of, "as_of");
  }
};

BOOST_DESCRIBE_STRUCT(SystemSpec, (), (id, name, aliases, nodes, parts, topology, max_power, price, source, as_of, note))
// What a new catalog entry must give; every other member may keep its default.
constexpr auto required_members(std::type_identity<SystemSpec>) {
  return std::tuple{&SystemSpec::id, &SystemSpec::name, &SystemSpec::parts, &SystemSpec::topology,
                    &SystemSpec::source, &SystemSpec::as_of};
}

}  // namespace capplan
