// expect: cannot add different kinds of money
#include <capplan/money/money.hpp>
using namespace capplan::literals;
void f() {
  capplan::MoneyRate r = 2.14_USD / 1_h;
#ifdef CAPPLAN_COMPILE_FAIL
  auto m = 2200_USD + r;
#else
  auto m = 2200_USD + r * 1_h;
#endif
  (void)m;
}
