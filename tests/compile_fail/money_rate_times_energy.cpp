// expect: a MoneyRate is money per hour; multiply it by a Duration
#include <capplan/money/money.hpp>
using namespace capplan::literals;
void f() {
  capplan::MoneyRate r = 2.14_USD / 1_h;
#ifdef CAPPLAN_COMPILE_FAIL
  auto m = r * 1_kWh;
#else
  auto m = r * 1_h;
#endif
  (void)m;
}
