// expect: cannot add quantities of different dimensions
#include <capplan/units/literals.hpp>
using namespace capplan::literals;
void f() {
  capplan::DataSize a = 80_GB;
  capplan::Duration t = 2_s;
#ifdef CAPPLAN_COMPILE_FAIL
  auto x = a + t;
#else
  auto x = a + a;
#endif
  (void)x;
  (void)t;
}
