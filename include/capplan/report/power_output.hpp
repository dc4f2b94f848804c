// A system's power (power/system_power.hpp) for programs: what `capplan power --format json` prints
// and Python's SystemPower.output() returns. Watts as numbers; null where a figure does not exist
// (no PSU listed, an overloaded PSU has no wall power).
#pragma once

#include "capplan/power/system_power.hpp"
#include "capplan/report/value.hpp"

#include <string>
#include <string_view>

namespace capplan {

inline Value power_output(const SystemPower& p, std::string_view system_id) {
  Value j;
  j["system"] = system_id;
  j["nodes"] = p.nodes;
  Value parts = Value::Array{};
  for (const auto& c : p.components) {
    Value part;
    part["name"] = c.name;
    part["kind"] = std::string(to_string(c.kind));
    part["count"] = c.count;
    part["max_w_each"] = c.max_draw.value();
    part["idle_w_each"] = c.idle_draw.value();
    parts.push_back(std::move(part));
  }
  j["parts"] = std::move(parts);
  j["max_draw_w"] = p.draw.max_total.value();
  j["idle_draw_w"] = p.draw.idle_total.value();
  j["psu_required_w"] = p.psu.required.value();
  j["psu_recommended_w"] = p.psu.recommended_rating ? Value(p.psu.recommended_rating->value()) : Value();
  j["psu_installed_w"] = p.installed_psu ? Value(p.psu_capacity.value()) : Value();
  j["psu_overloaded"] = p.psu_overloaded;
  j["wall_power_w"] = p.wall_total().value();
  j["vendor_max_power_w"] = p.vendor_max ? Value(p.vendor_max->value() * p.nodes) : Value();
  j["planning_power_w"] = p.planning_total().value();
  j["wall_power_idle_w"] = p.wall_idle ? Value(p.wall_idle->wall.value() * p.nodes) : Value();
  j["psu_efficiency"] = p.wall ? Value(p.wall->efficiency) : Value();
  j["circuit_15a_120v_ok"] = p.circuit.ok;
  j["heat_w"] = p.heat.power.value();
  j["heat_btu_per_h"] = p.heat.btu_per_hour;
  Value notes = Value::Array{};
  for (const auto& s : p.assumptions) notes.push_back(s);
  j["assumptions"] = std::move(notes);
  return j;
}

}  // namespace capplan
