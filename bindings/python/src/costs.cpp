// Power, energy, carbon and cost: capplan/power and capplan/cost.
//
//   e = run_energy(Power(450, "W"), Duration(1, "year"), EnergyOptions(utilization=0.15))
//   electricity_cost(e, EnergyPrice("0.12 USD/kWh")).cost -> Money (exact)
//   c = compare_costs(OwnedOption(...), RentedOption.on_demand("cloud", MoneyRate("2.14 USD/h")),
//                     CompareOptions(utilization=0.15, horizon_months=24))
//   c.break_even_month, c.to_pandas()
#include "areas.hpp"
#include "convert.hpp"
#include "record.hpp"

#include <capplan/cost/compare.hpp>
#include <capplan/cost/depreciation.hpp>
#include <capplan/cost/discount.hpp>
#include <capplan/cost/owned.hpp>
#include <capplan/cost/rented.hpp>
#include <capplan/cost/unit_cost.hpp>
#include <capplan/power/carbon.hpp>
#include <capplan/power/circuit.hpp>
#include <capplan/power/component.hpp>
#include <capplan/power/efficiency.hpp>
#include <capplan/power/energy.hpp>
#include <capplan/power/heat.hpp>
#include <capplan/power/psu.hpp>
#include <capplan/power/system_power.hpp>
#include <capplan/report/cost_output.hpp>
#include <capplan/report/power_output.hpp>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

namespace capplan::python {

namespace {

void bind_energy_and_carbon(py::module_& m) {
  Record<EnergyOptions>(m, "EnergyOptions", "Busy share, idle draw and PUE of a run.")
      .field("utilization", &EnergyOptions::utilization, "share of the time at active power, [0, 1]")
      .field("idle_power", &EnergyOptions::idle_power, "draw the rest of the time (0: switched off)")
      .field("pue", &EnergyOptions::pue, "facility overhead, >= 1")
      .finish();
  Record<RunEnergy>(m, "RunEnergy", "The energy of a run: (P_active u + P_idle (1 - u)) t x PUE.")
      .readonly("active_power", &RunEnergy::active_power)
      .readonly("duration", &RunEnergy::duration)
      .readonly("options", &RunEnergy::options)
      .readonly("average_it_power", &RunEnergy::average_it_power)
      .readonly("it_energy", &RunEnergy::it_energy)
      .readonly("facility_energy", &RunEnergy::facility_energy)
      .finish(false)
      .def("explain", &RunEnergy::explain);
  Record<ElectricityCost>(m, "ElectricityCost", "price per kWh x facility energy, exact.")
      .readonly("energy", &ElectricityCost::energy)
      .readonly("price", &ElectricityCost::price)
      .readonly("cost", &ElectricityCost::cost)
      .finish(false)
      .def("explain", &ElectricityCost::explain);
  m.def("run_energy", &run_energy, py::arg("active_power"), py::arg("duration"), py::arg("options") = EnergyOptions{},
        "IT energy (P_active u + P_idle (1 - u)) t and facility energy x PUE (The Green Grid WP #49).");
  m.def("gpu_hours_energy", &gpu_hours_energy, py::arg("gpu_hours"), py::arg("per_gpu"), py::arg("pue") = 1.0,
        "Energy from GPU-hours at a per-GPU power, as model cards report it.");
  m.def("electricity_cost", &electricity_cost, py::arg("energy"), py::arg("price"));

  Record<PuePreset>(m, "PuePreset", "A published PUE figure with its source.")
      .property("name", [](const PuePreset& p) { return std::string(p.name); }, nullptr,
                [](const PuePreset& p) { return py::object(py::str(std::string(p.name))); })
      .readonly("pue", &PuePreset::pue)
      .readonly("year", &PuePreset::year)
      .property("source", [](const PuePreset& p) { return std::string(p.source); }, nullptr,
                [](const PuePreset& p) { return py::object(py::str(std::string(p.source))); })
      .finish(false);
  m.def("pue_presets", []() {
    py::dict d;
    d["home"] = pue::home;
    d["hyperscale"] = pue::hyperscale;
    d["industry_average"] = pue::industry_average;
    d["industry_average_2023"] = pue::industry_average_2023;
    d["meta_llama"] = pue::meta_llama;
    d["microsoft_gpt3"] = pue::microsoft_gpt3;
    return d;
  }, "The published PUE figures capplan knows, by name.");

  Record<GridIntensity>(m, "GridIntensity", "An average grid carbon intensity with region, year and source.")
      .property("region", [](const GridIntensity& g) { return std::string(g.region); }, nullptr,
                [](const GridIntensity& g) { return py::object(py::str(std::string(g.region))); })
      .readonly("intensity", &GridIntensity::intensity)
      .readonly("year", &GridIntensity::year)
      .property("source", [](const GridIntensity& g) { return std::string(g.source); }, nullptr,
                [](const GridIntensity& g) { return py::object(py::str(std::string(g.source))); })
      .finish(false);
  m.def("grid_intensities", []() {
    py::dict d;
    d["world_2022"] = grid::world_2022;
    d["us_2023"] = grid::us_2023;
    d["us_2022"] = grid::us_2022;
    d["eu_2020"] = grid::eu_2020;
    d["germany_2020"] = grid::germany_2020;
    d["poland_2020"] = grid::poland_2020;
    d["france_2023"] = grid::france_2023;
    d["china_2022"] = grid::china_2022;
    d["us_average_llama"] = grid::us_average_llama;
    d["gpt3_patterson"] = grid::gpt3_patterson;
    return d;
  }, "The published grid carbon intensities capplan knows, by name.");

  Record<EmbodiedCarbon>(m, "EmbodiedCarbon", "Manufacturing carbon of hardware and the life it is spread over.")
      .field("total", &EmbodiedCarbon::total)
      .field("lifetime", &EmbodiedCarbon::lifetime)
      .field("source", &EmbodiedCarbon::source)
      .finish();
  Record<CarbonFootprint>(m, "CarbonFootprint", "Operational (E x CI) plus amortized embodied carbon (Gupta et al. 2022, eq. 1).")
      .readonly("energy", &CarbonFootprint::energy)
      .readonly("intensity", &CarbonFootprint::intensity)
      .readonly("operational", &CarbonFootprint::operational)
      .readonly("embodied", &CarbonFootprint::embodied)
      .readonly("use_time", &CarbonFootprint::use_time)
      .readonly("embodied_share", &CarbonFootprint::embodied_share)
      .readonly("total", &CarbonFootprint::total)
      .finish(false)
      .def("explain", &CarbonFootprint::explain);
  m.def("carbon_footprint",
        py::overload_cast<const RunEnergy&, CarbonIntensity, std::optional<EmbodiedCarbon>>(&carbon_footprint),
        py::arg("energy"), py::arg("intensity"), py::arg("embodied") = py::none(),
        "Carbon of a run: its facility energy x grid intensity, plus the embodied share over the run's duration.");
  m.def("carbon_footprint",
        py::overload_cast<Energy, CarbonIntensity, std::optional<EmbodiedCarbon>, Duration>(&carbon_footprint),
        py::arg("energy"), py::arg("intensity"), py::arg("embodied") = py::none(), py::arg("use_time") = Duration{});
}

void bind_power(py::module_& m) {
  text_enum<ComponentKind>(m, "ComponentKind", "Kind of a power-drawing part.");
  Record<PowerComponent>(m, "PowerComponent", "`count` parts each drawing between idle_draw and max_draw.")
      .field("name", &PowerComponent::name)
      .field("kind", &PowerComponent::kind)
      .field("max_draw", &PowerComponent::max_draw)
      .field("idle_draw", &PowerComponent::idle_draw)
      .field("count", &PowerComponent::count)
      .finish()
      .def("validate", &PowerComponent::validate);
  m.def("gpu_component", &gpu_component, py::arg("name"), py::arg("tdp"), py::arg("idle"), py::arg("count") = 1,
        py::arg("power_limit") = py::none(), "A GPU at its TDP, or at a power limit.");
  m.def("cpu_component", &cpu_component, py::arg("name"), py::arg("max_power"), py::arg("idle"), py::arg("count") = 1);
  m.def("memory_modules", &memory_modules, py::arg("name"), py::arg("per_module"), py::arg("idle_per_module"),
        py::arg("modules"));
  m.def("storage_devices", &storage_devices, py::arg("name"), py::arg("active"), py::arg("idle"), py::arg("count") = 1);
  m.def("board_and_fans", &board_and_fans, py::arg("name"), py::arg("draw"));
  Record<ComponentDraw>(m, "ComponentDraw", "One component at a utilization: P_idle + u (P_max - P_idle) (Fan et al. 2007).")
      .readonly("component", &ComponentDraw::component)
      .readonly("utilization", &ComponentDraw::utilization)
      .readonly("per_unit", &ComponentDraw::per_unit)
      .readonly("total", &ComponentDraw::total)
      .finish(false)
      .def("explain", &ComponentDraw::explain);
  Record<SystemDraw>(m, "SystemDraw", "A machine's draw at a utilization, its maximum and its idle draw.")
      .readonly("parts", &SystemDraw::parts)
      .readonly("utilization", &SystemDraw::utilization)
      .readonly("total", &SystemDraw::total)
      .readonly("max_total", &SystemDraw::max_total)
      .readonly("idle_total", &SystemDraw::idle_total)
      .finish(false)
      .def("explain", &SystemDraw::explain);
  m.def("component_draw", &component_draw, py::arg("component"), py::arg("utilization"));
  m.def(
      "system_draw", [](const std::vector<PowerComponent>& c, double u) { return system_draw(c, u); }, py::arg("components"),
      py::arg("utilization"));

  Record<PsuSizingOptions>(m, "PsuSizingOptions", "Headroom, GPU transient factor, ATX 3.0 and a vendor recommendation.")
      .field("headroom", &PsuSizingOptions::headroom)
      .field("gpu_transient_factor", &PsuSizingOptions::gpu_transient_factor)
      .field("atx3", &PsuSizingOptions::atx3)
      .field("vendor_recommended", &PsuSizingOptions::vendor_recommended)
      .field("standard_ratings_w", &PsuSizingOptions::standard_ratings_w)
      .finish();
  Record<PsuSizing>(m, "PsuSizing", "The PSU a machine needs: sustained, transient and vendor requirements.")
      .readonly("max_draw", &PsuSizing::max_draw)
      .readonly("gpu_max_draw", &PsuSizing::gpu_max_draw)
      .readonly("headroom", &PsuSizing::headroom)
      .readonly("sustained_required", &PsuSizing::sustained_required)
      .readonly("gpu_transient_factor", &PsuSizing::gpu_transient_factor)
      .readonly("transient_peak", &PsuSizing::transient_peak)
      .readonly("atx3", &PsuSizing::atx3)
      .readonly("transient_required", &PsuSizing::transient_required)
      .readonly("vendor_recommended", &PsuSizing::vendor_recommended)
      .readonly("required", &PsuSizing::required)
      .readonly("deciding", &PsuSizing::deciding)
      .readonly("recommended_rating", &PsuSizing::recommended_rating)
      .finish(false)
      .def("explain", &PsuSizing::explain);
  m.def(
      "size_psu", [](const std::vector<PowerComponent>& c, const PsuSizingOptions& o) { return size_psu(c, o); },
      py::arg("components"), py::arg("options") = PsuSizingOptions{}, "PSU sizing: the largest requirement, rounded up.");

  Record<LoadEfficiencyPoint>(m, "LoadEfficiencyPoint", "Efficiency at a load fraction.")
      .field("load", &LoadEfficiencyPoint::load)
      .field("efficiency", &LoadEfficiencyPoint::efficiency)
      .finish();
  Record<LoadEfficiencyCurve>(m, "LoadEfficiencyCurve", "PSU efficiency against load, interpolated linearly.")
      .field("name", &LoadEfficiencyCurve::name)
      .field("points", &LoadEfficiencyCurve::points)
      .field("source", &LoadEfficiencyCurve::source)
      .finish()
      .def("at", &LoadEfficiencyCurve::at, py::arg("load"))
      .def("validate", &LoadEfficiencyCurve::validate);
  m.def("load_efficiency_curve", &load_efficiency_curve, py::arg("tier"), py::arg("input") = PsuInput::v115_internal,
        "The 80 PLUS minimums of a tier and test category.");
  Record<WallPower>(m, "WallPower", "AC power from the wall for a DC load: P_dc / efficiency.")
      .readonly("dc_load", &WallPower::dc_load)
      .readonly("psu_rating", &WallPower::psu_rating)
      .readonly("load_fraction", &WallPower::load_fraction)
      .readonly("efficiency", &WallPower::efficiency)
      .readonly("curve", &WallPower::curve)
      .readonly("wall", &WallPower::wall)
      .readonly("loss", &WallPower::loss)
      .finish(false)
      .def("explain", &WallPower::explain);
  m.def("wall_power", &wall_power, py::arg("dc_load"), py::arg("psu_rating"), py::arg("curve"));

  Record<Circuit>(m, "Circuit", "A wall circuit: amps, volts and the continuous-load share (NEC 80%).")
      .field("name", &Circuit::name)
      .field("amps", &Circuit::amps)
      .field("volts", &Circuit::volts)
      .field("continuous_fraction", &Circuit::continuous_fraction)
      .finish()
      .def("validate", &Circuit::validate)
      .def_static("us_15a_120v", &circuits::us_15a_120v)
      .def_static("us_20a_120v", &circuits::us_20a_120v)
      .def_static("us_30a_240v", &circuits::us_30a_240v);
  Record<CircuitCheck>(m, "CircuitCheck", "Whether a wall load fits a circuit's continuous limit.")
      .readonly("circuit", &CircuitCheck::circuit)
      .readonly("load", &CircuitCheck::load)
      .readonly("power_factor", &CircuitCheck::power_factor)
      .readonly("apparent_load", &CircuitCheck::apparent_load)
      .readonly("capacity", &CircuitCheck::capacity)
      .readonly("continuous_limit", &CircuitCheck::continuous_limit)
      .readonly("fraction_of_limit", &CircuitCheck::fraction_of_limit)
      .readonly("ok", &CircuitCheck::ok)
      .finish(false)
      .def("explain", &CircuitCheck::explain);
  m.def("check_circuit", &check_circuit, py::arg("wall_load"), py::arg("circuit") = circuits::us_15a_120v(),
        py::arg("power_factor") = 1.0);
  Record<HeatOutput>(m, "HeatOutput", "Heat into the room: all wall power, in W and BTU/h.")
      .readonly("power", &HeatOutput::power)
      .readonly("btu_per_hour", &HeatOutput::btu_per_hour)
      .finish(false)
      .def("explain", &HeatOutput::explain);
  m.def("heat_output", &heat_output, py::arg("wall"));

  Record<SystemPowerAssumptions>(m, "SystemPowerAssumptions", "Allowances used where the catalog has no power figure.")
      .field("memory_module", &SystemPowerAssumptions::memory_module)
      .field("nvme_active", &SystemPowerAssumptions::nvme_active)
      .field("nvme_idle", &SystemPowerAssumptions::nvme_idle)
      .field("sata_ssd_active", &SystemPowerAssumptions::sata_ssd_active)
      .field("sata_ssd_idle", &SystemPowerAssumptions::sata_ssd_idle)
      .field("hdd_active", &SystemPowerAssumptions::hdd_active)
      .field("hdd_idle", &SystemPowerAssumptions::hdd_idle)
      .field("network_adapter", &SystemPowerAssumptions::network_adapter)
      .field("tower_board", &SystemPowerAssumptions::tower_board)
      .field("tower_fans", &SystemPowerAssumptions::tower_fans)
      .field("tower_fan", &SystemPowerAssumptions::tower_fan)
      .field("soc_board", &SystemPowerAssumptions::soc_board)
      .field("soc_fans", &SystemPowerAssumptions::soc_fans)
      .field("rack_board", &SystemPowerAssumptions::rack_board)
      .field("rack_fan_fraction", &SystemPowerAssumptions::rack_fan_fraction)
      .field("cpu_at_package_limit", &SystemPowerAssumptions::cpu_at_package_limit,
             "CPUs at full load draw their max_power (PPT, PL2) where recorded; False: their TDP (a run's energy)")
      .finish()
      .def("soc_box", &SystemPowerAssumptions::soc_box, "What an SoC's box adds to its TDP: board, fans, memory, drive.");
  Record<SystemPower>(m, "SystemPower", "A catalog system's draw, PSU advice, wall power, circuit check and heat.")
      .readonly("nodes", &SystemPower::nodes)
      .readonly("components", &SystemPower::components)
      .readonly("draw", &SystemPower::draw)
      .readonly("psu", &SystemPower::psu)
      .readonly("installed_psu", &SystemPower::installed_psu)
      .readonly("installed_psu_count", &SystemPower::installed_psu_count)
      .readonly("psu_capacity", &SystemPower::psu_capacity)
      .readonly("psu_curve_name", &SystemPower::psu_curve_name)
      .readonly("wall", &SystemPower::wall)
      .readonly("wall_idle", &SystemPower::wall_idle)
      .readonly("psu_overloaded", &SystemPower::psu_overloaded)
      .readonly("vendor_max", &SystemPower::vendor_max)
      .readonly("circuit", &SystemPower::circuit)
      .readonly("heat", &SystemPower::heat)
      .readonly("assumptions", &SystemPower::assumptions)
      .finish(false)
      .def("wall_total", &SystemPower::wall_total, "Wall power of all nodes at full load.")
      .def("planning_total", &SystemPower::planning_total,
           "What the circuit and the heat are planned for: wall_total(), or the vendor's stated maximum where it is higher.")
      .def("output", [](const SystemPower& p, const std::string& system_id) { return to_python(power_output(p, system_id)); },
           py::arg("system_id"), "What `capplan power --format json` prints, as dicts and lists (the same keys).");
  m.def(
      "system_power",
      [](const SystemSpec& s, const Catalog& c, const SystemPowerAssumptions& a, const Circuit& circuit) {
        SystemPower p = system_power(s, c, a, circuit);
        p.system = nullptr;  // points at the argument, which does not outlive the call
        return p;
      },
      py::arg("system"), py::arg("catalog"), py::arg("assumptions") = SystemPowerAssumptions{},
      py::arg("circuit") = circuits::us_15a_120v(), "Draw, PSU advice, wall power, circuit check and heat of a system.");
}

py::object months_frame(const CostComparison& c) {
  py::list rows;
  for (const MonthRow& r : c.months) rows.append(py::cast(r).attr("to_dict")());
  return py::module_::import("pandas").attr("DataFrame")(rows);
}

void bind_cost(py::module_& m) {
  text_enum<DepreciationMethod>(m, "DepreciationMethod", "No resale value, straight line or declining balance.");
  Record<Depreciation>(m, "Depreciation", "Resale value over time (IRS Publication 946, ch. 4).")
      .field("method", &Depreciation::method)
      .field("life_months", &Depreciation::life_months)
      .field("salvage", &Depreciation::salvage)
      .field("annual_rate", &Depreciation::annual_rate)
      .field("resale_fraction", &Depreciation::resale_fraction)
      .finish()
      .def_static("straight_line", &Depreciation::straight_line, py::arg("life_months"), py::arg("salvage"))
      .def_static("declining_balance", &Depreciation::declining_balance, py::arg("annual_rate"),
                  py::arg("floor") = py::none())
      .def("validate", &Depreciation::validate, py::arg("purchase"));
  m.def("book_value", &book_value, py::arg("purchase"), py::arg("depreciation"), py::arg("month"));
  m.def("resale_value", &resale_value, py::arg("purchase"), py::arg("depreciation"), py::arg("month"));

  py::class_<DiscountRate>(m, "DiscountRate", "An effective annual cost of capital, exact monthly factors.")
      .def(py::init<Decimal>(), py::arg("annual"), "DiscountRate('0.08') for 8% a year.")
      .def_property_readonly("annual", &DiscountRate::annual)
      .def("monthly_growth", &DiscountRate::monthly_growth)
      .def("factor", &DiscountRate::factor, py::arg("month"))
      .def("factors", &DiscountRate::factors, py::arg("months"))
      .def("present_value", &DiscountRate::present_value, py::arg("amount"), py::arg("month"))
      .def("__repr__", [](const DiscountRate& r) { return "DiscountRate('" + r.annual().to_string() + "')"; })
      .def("to_dict", [](const DiscountRate& r) {
        py::dict d;
        d["annual"] = to_py_decimal(r.annual());
        return d;
      });
  m.def("npv", &npv, py::arg("cash_flows"), py::arg("rate"), "Net present value of month-end cash flows.");

  Record<OwnedOption>(m, "OwnedOption", "Owning: purchase, power, PUE, electricity price, upkeep and resale.")
      .field("name", &OwnedOption::name)
      .field("purchase", &OwnedOption::purchase)
      .field("active_power", &OwnedOption::active_power)
      .field("idle_power", &OwnedOption::idle_power)
      .field("pue", &OwnedOption::pue)
      .field("electricity", &OwnedOption::electricity)
      .field("maintenance_per_month", &OwnedOption::maintenance_per_month)
      .field("space_per_month", &OwnedOption::space_per_month)
      .field("resale", &OwnedOption::resale)
      .finish()
      .def("currency", &OwnedOption::currency)
      .def("validate", &OwnedOption::validate);
  Record<OwnedMonth>(m, "OwnedMonth", "One month (730 h) of owning: electricity, maintenance, space.")
      .readonly("electricity", &OwnedMonth::electricity)
      .readonly("maintenance", &OwnedMonth::maintenance)
      .readonly("space", &OwnedMonth::space)
      .readonly("total", &OwnedMonth::total)
      .finish(false)
      .def("explain", &OwnedMonth::explain);
  m.def("owned_month", &owned_month, py::arg("owned"), py::arg("utilization"));

  Record<RentedOption>(m, "RentedOption", "Renting, in any currency; throughput_vs_owned scales the hours needed.")
      .field("name", &RentedOption::name)
      .field("kind", &RentedOption::kind)
      .field("hourly", &RentedOption::hourly)
      .field("monthly", &RentedOption::monthly)
      .field("interruption_overhead", &RentedOption::interruption_overhead)
      .field("throughput_vs_owned", &RentedOption::throughput_vs_owned)
      .field("term", &RentedOption::term,
             "reserved: the commitment (0 or at least a month: held all month; 1 day: whole days, an EC2 Capacity Block; another "
             "shorter term: at least the term)")
      .finish()
      .def_static("on_demand", &RentedOption::on_demand, py::arg("name"), py::arg("rate"), py::arg("throughput") = 1.0)
      .def_static("spot", &RentedOption::spot, py::arg("name"), py::arg("rate"), py::arg("interruption_overhead"),
                  py::arg("throughput") = 1.0)
      .def_static("reserved", &RentedOption::reserved, py::arg("name"), py::arg("rate"), py::arg("throughput") = 1.0)
      .def_static("monthly_rental", &RentedOption::monthly_rental, py::arg("name"), py::arg("per_month"),
                  py::arg("throughput") = 1.0)
      .def("currency", &RentedOption::currency)
      .def("validate", &RentedOption::validate);
  Record<RentedMonth>(m, "RentedMonth", "One month of renting the same work, in the rental's currency.")
      .readonly("kind", &RentedMonth::kind)
      .readonly("hours_needed", &RentedMonth::hours_needed)
      .readonly("hours_billed", &RentedMonth::hours_billed)
      .readonly("instances", &RentedMonth::instances)
      .readonly("cost", &RentedMonth::cost)
      .readonly("arithmetic", &RentedMonth::arithmetic)
      .finish(false)
      .def("explain", &RentedMonth::explain);
  m.def("rented_month", &rented_month, py::arg("rented"), py::arg("utilization"));

  Record<CompareOptions>(m, "CompareOptions", "Utilization, horizon, discounting and the exchange rate of a comparison.")
      .field("utilization", &CompareOptions::utilization)
      .field("horizon_months", &CompareOptions::horizon_months)
      .field("discount", &CompareOptions::discount)
      .field("fx", &CompareOptions::fx)
      .finish();
  Record<MonthRow>(m, "MonthRow", "One month of a comparison: this month's and cumulative costs, exact.")
      .readonly("month", &MonthRow::month)
      .readonly("discount_factor", &MonthRow::discount_factor)
      .readonly("owned", &MonthRow::owned)
      .readonly("rented", &MonthRow::rented)
      .readonly("owned_cumulative", &MonthRow::owned_cumulative)
      .readonly("rented_cumulative", &MonthRow::rented_cumulative)
      .readonly("resale_value", &MonthRow::resale_value)
      .readonly("owned_net_cumulative", &MonthRow::owned_net_cumulative)
      .finish(false);
  Record<CostComparison>(m, "CostComparison", "Owning vs renting month by month, and the break-even.")
      .readonly("owned", &CostComparison::owned)
      .readonly("rented", &CostComparison::rented)
      .readonly("options", &CostComparison::options)
      .readonly("owned_month_costs", &CostComparison::owned_month_costs)
      .readonly("rented_month_costs", &CostComparison::rented_month_costs)
      .readonly("rented_month_converted", &CostComparison::rented_month_converted)
      .readonly("months", &CostComparison::months)
      .readonly("break_even_month", &CostComparison::break_even_month)
      .readonly("break_even_month_with_resale", &CostComparison::break_even_month_with_resale)
      .readonly("break_even_time", &CostComparison::break_even_time)
      .readonly("break_even_time_with_resale", &CostComparison::break_even_time_with_resale)
      .finish(false)
      .def("last", &CostComparison::last, py::return_value_policy::copy)
      .def("explain", &CostComparison::explain)
      .def("table", &CostComparison::table)
      .def("output", [](const CostComparison& c, const std::vector<std::string>& notes) { return to_python(cost_output(c, notes)); },
           py::arg("notes") = std::vector<std::string>{},
           "What `capplan tco --format json` prints, as dicts and lists (money as decimal.Decimal); `notes`: the assumptions.")
      .def("to_pandas", &months_frame,
           "One row per month 0..horizon: MonthRow.to_dict() (money as decimal.Decimal, currency in the column name).");
  m.def("compare_costs", &compare_costs, py::arg("owned"), py::arg("rented"), py::arg("options") = CompareOptions{},
        "Cumulative cost of owning and renting over the horizon, and the break-even month.");
  Record<BreakEvenUtilization>(m, "BreakEvenUtilization", "The utilization where owning and renting cost the same.")
      .readonly("utilization", &BreakEvenUtilization::utilization)
      .readonly("owning_cheaper_above", &BreakEvenUtilization::owning_cheaper_above)
      .readonly("difference_at_0", &BreakEvenUtilization::difference_at_0)
      .readonly("difference_at_1", &BreakEvenUtilization::difference_at_1)
      .readonly("with_resale", &BreakEvenUtilization::with_resale)
      .finish(false)
      .def("explain", &BreakEvenUtilization::explain);
  m.def("break_even_utilization", &break_even_utilization, py::arg("owned"), py::arg("rented"),
        py::arg("options") = CompareOptions{}, py::arg("with_resale") = false);

  Record<UnitCost>(m, "UnitCost", "A total divided by units (GPU-hours, million tokens).")
      .readonly("total", &UnitCost::total)
      .readonly("units", &UnitCost::units)
      .readonly("unit", &UnitCost::unit)
      .readonly("per_unit", &UnitCost::per_unit)
      .finish(false)
      .def("rate", &UnitCost::rate, "The cost per GPU-hour as a MoneyRate.")
      .def("explain", &UnitCost::explain);
  m.def("cost_per_gpu_hour", &cost_per_gpu_hour, py::arg("total"), py::arg("busy_time"), py::arg("gpus") = 1);
  m.def("cost_per_million_tokens", &cost_per_million_tokens, py::arg("total"), py::arg("tokens"));
  Record<RunCost>(m, "RunCost", "A run priced by the GPU-hour: rate x time x GPUs.")
      .readonly("per_gpu_hour", &RunCost::per_gpu_hour)
      .readonly("run_time", &RunCost::run_time)
      .readonly("gpus", &RunCost::gpus)
      .readonly("cost", &RunCost::cost)
      .finish(false)
      .def("explain", &RunCost::explain);
  m.def("cost_of_run", py::overload_cast<const MoneyRate&, Duration, int>(&cost_of_run), py::arg("per_gpu_hour"),
        py::arg("run_time"), py::arg("gpus") = 1);
  m.def("cost_of_run", py::overload_cast<const RentedOption&, Duration, int>(&cost_of_run), py::arg("rented"),
        py::arg("run_time_on_owned"), py::arg("gpus") = 1);
  m.def("owned_cost_per_gpu_hour", &owned_cost_per_gpu_hour, py::arg("comparison"), py::arg("gpus") = 1,
        py::arg("net_of_resale") = false);
}

}  // namespace

void bind_costs(py::module_& m) {
  bind_energy_and_carbon(m);
  bind_power(m);
  bind_cost(m);
}

}  // namespace capplan::python
