// expect: cannot add quantities of different dimensions
#include <capplan/units/literals.hpp>
using namespace capplan::literals;
void f() {
#ifdef CAPPLAN_COMPILE_FAIL
  auto x = 700_W + 1_kWh;
#else
  auto x = 700_W * 1_h + 1_kWh;
#endif
  (void)x;
}
