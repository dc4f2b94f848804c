// expect: money times a double would not be exact
#include <capplan/money/money.hpp>
using namespace capplan::literals;
void f() {
#ifdef CAPPLAN_COMPILE_FAIL
  auto m = 2200_USD * 0.15;
#else
  auto m = 2200_USD * capplan::Decimal("0.15");
#endif
  (void)m;
}
