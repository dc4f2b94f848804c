// expect: use of deleted function .*Decimal
#include <capplan/money/decimal.hpp>
void f() {
#ifdef CAPPLAN_COMPILE_FAIL
  capplan::Decimal d = 0.1;
#else
  capplan::Decimal d("0.1");
#endif
  (void)d;
}
