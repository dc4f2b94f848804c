// Power drawn by the parts of a machine: GPUs (at TDP or a power limit), CPUs, memory modules,
// storage, board and fans, each scaled by utilization between its idle and its maximum draw.
//
//   PowerComponent gpu = gpu_component("RTX 4090", 450_W, 20_W);          // TDP, idle
//   PowerComponent capped = gpu_component("RTX 4090", 450_W, 20_W, 1, 300_W); // power limit
//   SystemDraw d = system_draw(std::vector{gpu, cpu, ram}, 0.5);
//   d.total; d.explain();
//
// The inputs are small records of their own; the hardware catalog is not needed here.
#pragma once

#include "capplan/detail/enum_names.hpp"
#include "capplan/error.hpp"
#include "capplan/power/explain.hpp"
#include "capplan/units/quantity.hpp"

#include <boost/describe/enum.hpp>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace capplan {

enum class ComponentKind { gpu, cpu, memory, storage, board, fans, other };
BOOST_DESCRIBE_ENUM(ComponentKind, gpu, cpu, memory, storage, board, fans, other)

inline std::string_view to_string(ComponentKind k) { return detail::enum_name(k); }

// One kind of part, `count` of them, each drawing between idle_draw and max_draw.
// max_draw is the sustained maximum: a GPU's TDP (board power) or its power limit, a CPU's
// maximum turbo power, a memory module's or drive's datasheet maximum.
struct PowerComponent {
  std::string name{};
  ComponentKind kind = ComponentKind::other;
  Power max_draw{};   // per unit
  Power idle_draw{};  // per unit
  int count = 1;

  // Throws InputError naming the field (e.g. "components[RTX 4090].max_draw") on negative or
  // non-finite power, idle above max, or a count below 1.
  void validate() const {
    const std::string f = "components[" + name + "]";
    require_nonnegative(max_draw.value(), f + ".max_draw");
    require_nonnegative(idle_draw.value(), f + ".idle_draw");
    if (idle_draw > max_draw) {
      detail::fail(f + ".idle_draw", explain_text::quantity(idle_draw), "is above max_draw " + explain_text::quantity(max_draw));
    }
    if (count < 1) detail::fail(f + ".count", std::to_string(count), "must be at least 1");
  }
};

// A GPU at its TDP, or at a power limit (nvidia-smi -pl) when one is given; the limit becomes
// its maximum sustained draw (NVIDIA nvidia-smi docs: "-pl ... specifies maximum power
// management limit in watts").
inline PowerComponent gpu_component(std::string name, Power tdp, Power idle, int count = 1,
                                    std::optional<Power> power_limit = std::nullopt) {
  require_nonnegative(tdp.value(), "gpu.tdp");
  Power max = tdp;
  if (power_limit) {
    require_positive(power_limit->value(), "gpu.power_limit");
    max = *power_limit;
  }
  PowerComponent c{std::move(name), ComponentKind::gpu, max, idle, count};
  c.validate();
  return c;
}

inline PowerComponent cpu_component(std::string name, Power max_power, Power idle, int count = 1) {
  PowerComponent c{std::move(name), ComponentKind::cpu, max_power, idle, count};
  c.validate();
  return c;
}

// Memory is counted per module (DIMM): pass the datasheet power of one module.
inline PowerComponent memory_modules(std::string name, Power per_module, Power idle_per_module, int modules) {
  PowerComponent c{std::move(name), ComponentKind::memory, per_module, idle_per_module, modules};
  c.validate();
  return c;
}

inline PowerComponent storage_devices(std::string name, Power active, Power idle, int count = 1) {
  PowerComponent c{std::move(name), ComponentKind::storage, active, idle, count};
  c.validate();
  return c;
}

// Motherboard, chipset, NICs and fans: drawn whatever the load, so idle == max by default.
inline PowerComponent board_and_fans(std::string name, Power draw) {
  PowerComponent c{std::move(name), ComponentKind::board, draw, draw, 1};
  c.validate();
  return c;
}

// The draw of one component at a utilization u in [0, 1]:
//   P(u) = P_idle + u × (P_max − P_idle)
// the linear utilization model of Fan, Weber & Barroso, "Power Provisioning for a
// Warehouse-sized Computer" (ISCA 2007), §4.1 (measured server power is close to linear in CPU
// utilization between idle and peak).
struct ComponentDraw {
  PowerComponent component{};
  double utilization = 0;
  Power per_unit{};
  Power total{};

  [[nodiscard]] std::string explain() const {
    using namespace explain_text;
    std::string s = component.name + ": ";
    if (component.idle_draw == component.max_draw) {
      s += quantity(component.max_draw);
    } else {
      s += quantity(component.idle_draw) + " + " + number(utilization, 4) + " × (" + quantity(component.max_draw) +
           " − " + quantity(component.idle_draw) + ") = " + quantity(per_unit);
    }
    if (component.count != 1) s += " × " + std::to_string(component.count) + " = " + quantity(total);
    return s;
  }
};

inline ComponentDraw component_draw(const PowerComponent& c, double utilization) {
  c.validate();
  require_fraction(utilization, "utilization");
  const Power per = c.idle_draw + utilization * (c.max_draw - c.idle_draw);  // Fan et al. 2007 §4.1
  return ComponentDraw{c, utilization, per, per * static_cast<double>(c.count)};
}

// The draw of a whole machine at one utilization, and its maximum (every part at max_draw).
struct SystemDraw {
  std::vector<ComponentDraw> parts{};
  double utilization = 0;
  Power total{};      // at `utilization`
  Power max_total{};  // every part at max_draw
  Power idle_total{}; // every part at idle_draw

  [[nodiscard]] std::string explain() const {
    std::string s{};
    for (const auto& p : parts) s += p.explain() + "\n";
    s += "total at utilization " + explain_text::number(utilization, 4) + " = " + explain_text::quantity(total) +
         " (max " + explain_text::quantity(max_total) + ", idle " + explain_text::quantity(idle_total) + ")";
    return s;
  }
};

inline SystemDraw system_draw(std::span<const PowerComponent> components, double utilization) {
  require_fraction(utilization, "utilization");
  if (components.empty()) detail::fail("components", "[]", "is empty; list at least one part");
  SystemDraw d;
  d.utilization = utilization;
  for (const auto& c : components) {
    d.parts.push_back(component_draw(c, utilization));
    d.total += d.parts.back().total;
    d.max_total += c.max_draw * static_cast<double>(c.count);
    d.idle_total += c.idle_draw * static_cast<double>(c.count);
  }
  return d;
}

// Sum of the maximum draw of the parts of one kind (e.g. every GPU).
inline Power max_draw_of(std::span<const PowerComponent> components, ComponentKind kind) {
  Power p{};
  for (const auto& c : components) {
    if (c.kind == kind) p += c.max_draw * static_cast<double>(c.count);
  }
  return p;
}

}  // namespace capplan
