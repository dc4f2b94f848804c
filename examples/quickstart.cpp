// The README's 30-second example: a year of a desktop GPU against renting one, exactly.
#include <capplan/capplan.hpp>

#include <iostream>

int main() {
  using namespace capplan;
  using namespace capplan::literals;

  // A 450 W desktop used 15% of the time, at $0.12/kWh (Dettmers, "Which GPU(s) to Get").
  Energy per_year = 450_W * 0.15 * 1_year;
  EnergyPrice tariff = 0.12_USD / 1_kWh;
  Money electricity = tariff * per_year;

  // The same hours on a $2.14/h cloud GPU.
  MoneyRate cloud = 2.14_USD / 1_h;
  Money rent = cloud * (0.15 * 1_year);

  std::cout << "energy per year:     " << format(per_year) << "\n"
            << "electricity:         " << format(electricity) << " (exact: " << to_json_string(electricity) << ")\n"
            << "cloud for same hours: " << format(rent) << "\n"
            << "GPT-3 training FLOPs: " << format(to_flop_count(6 * parse_count("174.6e9") * parse_count("300e9")))
            << "\n";
}
