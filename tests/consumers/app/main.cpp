// A consumer of capplan: a year of a $0.10/h rate, exactly.
#include <capplan/capplan.hpp>

#include <iostream>

int main() {
  using namespace capplan::literals;
  capplan::MoneyRate rate = 0.10_USD / 1_h;
  capplan::Money year = rate * 1_year;
  std::cout << year.rounded().amount().to_string(2) << " " << capplan::code(year.currency()) << "\n";
  return year == 876_USD ? 0 : 1;
}
