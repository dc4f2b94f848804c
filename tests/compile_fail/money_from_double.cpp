// expect: use of deleted function .*BasicMoney.*money from a double would not be exact
#include <capplan/money/money.hpp>
void f() {
#ifdef CAPPLAN_COMPILE_FAIL
  capplan::Money m(2.49, capplan::Currency::USD);
#else
  capplan::Money m("2.49", capplan::Currency::USD);
#endif
  (void)m;
}
