// Carbon of a run: operational (energy × grid intensity) plus, when asked, the embodied carbon
// of the hardware amortized over its service life.
//
//   CarbonFootprint c = carbon_footprint(run_energy(400_W, 184320_h, {.pue = 1.1}), grid::us_average_llama.intensity);
//   c.total == 31.22 tCO2e; c.explain() == "73.73 MWh × PUE 1.1 = 81.1 MWh × 0.385 kgCO2e/kWh = 31.22 tCO2e"
//
// Model (Gupta et al., "ACT: Designing Sustainable Computer Systems with an Architectural Carbon
// Modeling Tool", ISCA 2022, Eq. 1): CF = OP_CF + (T / LT) × E_CF, with OP_CF = E × CI.
#pragma once

#include "capplan/error.hpp"
#include "capplan/power/energy.hpp"
#include "capplan/power/explain.hpp"
#include "capplan/units/literals.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace capplan {

// An average grid carbon intensity with its region, year and source.
struct GridIntensity {
  std::string_view region;
  CarbonIntensity intensity;
  int year;
  std::string_view source;
};

namespace grid {
// 1 lb = 0.45359237 kg (international avoirdupois pound); 1 kWh = 3.6e6 J.
inline constexpr double kg_per_lb = 0.45359237;
constexpr CarbonIntensity g_per_kwh(double g) { return CarbonIntensity::from_value(g * 1e-3 / 3.6e6); }

// World average 2022: 436 gCO2/kWh (Ember, Global Electricity Review 2023).
inline const GridIntensity world_2022{"World", g_per_kwh(436), 2022, "Ember, Global Electricity Review 2023"};
// United States 2023: 0.81 lb CO2/kWh of utility-scale net generation (EIA FAQ id=74).
inline const GridIntensity us_2023{"United States", g_per_kwh(0.81 * kg_per_lb * 1e3), 2023,
                                   "U.S. EIA FAQ \"How much carbon dioxide is produced per kilowatthour\" (0.81 lb/kWh)"};
// United States 2022: 0.86 lb CO2/kWh (EIA FAQ id=74, 2022 edition).
inline const GridIntensity us_2022{"United States", g_per_kwh(0.86 * kg_per_lb * 1e3), 2022,
                                   "U.S. EIA FAQ id=74, 2022 data (0.86 lb/kWh)"};
// European Union 2020: 252 gCO2/kWh (SDES "Key figures on climate 2022", from IEA data).
inline const GridIntensity eu_2020{"European Union", g_per_kwh(252), 2020, "SDES Key figures on climate 2022 (IEA data)"};
// Germany 2020: 344 gCO2/kWh; Poland 2020: 686 gCO2/kWh (same SDES/IEA table).
inline const GridIntensity germany_2020{"Germany", g_per_kwh(344), 2020, "SDES Key figures on climate 2022 (IEA data)"};
inline const GridIntensity poland_2020{"Poland", g_per_kwh(686), 2020, "SDES Key figures on climate 2022 (IEA data)"};
// France 2023: 32 gCO2e/kWh produced (RTE, Bilan électrique 2023).
inline const GridIntensity france_2023{"France", g_per_kwh(32), 2023, "RTE, Bilan électrique 2023"};
// China 2022: national average grid factor 0.5366 kgCO2/kWh (Ministry of Ecology and Environment
// and National Bureau of Statistics, announcement on 2022 electricity CO2 factors, 2024-12).
inline const GridIntensity china_2022{"China", g_per_kwh(536.6), 2022,
                                      "MEE & NBS, 2022 electricity CO2 emission factors (2024-12 announcement)"};
// The "national US average" Meta used for LLaMA / Llama 2: 0.385 kgCO2e/kWh (Touvron et al. 2023).
inline const GridIntensity us_average_llama{"United States (Meta LLaMA figure)", g_per_kwh(385), 2023,
                                            "Touvron et al. 2023, LLaMA, carbon footprint section"};
// The grid factor for GPT-3's training data centre: 0.429 kgCO2e/kWh (Patterson et al. 2021, Table 4).
inline const GridIntensity gpt3_patterson{"Microsoft data centre (GPT-3)", g_per_kwh(429), 2020,
                                          "Patterson et al. 2021, Table 4"};
}  // namespace grid

// The manufacturing ("embodied") carbon of a piece of hardware and the life it is spread over.
struct EmbodiedCarbon {
  CarbonMass total{};
  Duration lifetime{};
  std::string source{};
};

struct CarbonFootprint {
  Energy energy{};                 // facility energy
  CarbonIntensity intensity{};
  CarbonMass operational{};        // E × CI
  std::optional<EmbodiedCarbon> embodied{};
  Duration use_time{};             // T, the time the hardware is used for this run
  CarbonMass embodied_share{};     // (T / LT) × E_CF
  CarbonMass total{};
  std::string energy_explain{};      // how `energy` was found, when known

  [[nodiscard]] std::string explain() const {
    using namespace explain_text;
    std::string s = energy_explain.empty() ? quantity(energy) : energy_explain;
    s += " × " + quantity(intensity) + " = " + quantity(operational);
    if (embodied) {
      s += "; embodied " + quantity(embodied->total) + " × " + hours(use_time) + " / " + hours(embodied->lifetime) +
           " = " + quantity(embodied_share) + "; total " + quantity(total);
    }
    return s;
  }
};

inline CarbonFootprint carbon_footprint(Energy energy, CarbonIntensity intensity,
                                        std::optional<EmbodiedCarbon> embodied = std::nullopt,
                                        Duration use_time = Duration{}) {
  require_nonnegative(energy.value(), "energy");
  require_nonnegative(intensity.value(), "carbon_intensity");
  CarbonFootprint c;
  c.energy = energy;
  c.intensity = intensity;
  c.operational = energy * intensity;  // OP_CF = E × CI (ACT Eq. 1)
  c.total = c.operational;
  if (embodied) {
    require_nonnegative(embodied->total.value(), "embodied.total");
    require_positive(embodied->lifetime.value(), "embodied.lifetime");
    require_nonnegative(use_time.value(), "use_time");
    c.embodied = embodied;
    c.use_time = use_time;
    c.embodied_share = embodied->total * (use_time.value() / embodied->lifetime.value());  // (T / LT) × E_CF
    c.total += c.embodied_share;
  }
  return c;
}

inline CarbonFootprint carbon_footprint(const RunEnergy& e, CarbonIntensity intensity,
                                        std::optional<EmbodiedCarbon> embodied = std::nullopt) {
  CarbonFootprint c = carbon_footprint(e.facility_energy, intensity, std::move(embodied), e.duration);
  c.energy_explain = e.explain();
  return c;
}

}  // namespace capplan
