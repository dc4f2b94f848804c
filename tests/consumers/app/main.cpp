// A consumer of capplan: a year of a $0.10/h rate, exactly. The installed package (find_package) is
// compiled through the umbrella header, so every installed header and the dependencies it names are
// checked; the source-tree modes include only what they use (the header check covers the rest).
#ifdef CAPPLAN_CONSUMER_UMBRELLA
#include <capplan/capplan.hpp>
#else
#include <capplan/money/money.hpp>
#include <capplan/units/literals.hpp>
#endif

#include <iostream>

int main() {
  using namespace capplan::literals;
  capplan::MoneyRate rate = 0.10_USD / 1_h;
  capplan::Money year = rate * 1_year;
  std::cout << year.rounded().amount().to_string(2) << " " << capplan::code(year.currency()) << "\n";
  return year == 876_USD ? 0 : 1;
}
