// expect: cannot add a plain number to a quantity
#include <capplan/units/literals.hpp>
using namespace capplan::literals;
void f() {
#ifdef CAPPLAN_COMPILE_FAIL
  auto x = 80_GB + 2.0;
#else
  auto x = 80_GB + 2_GB;
#endif
  (void)x;
}
