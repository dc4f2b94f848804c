// expect: cannot compare quantities of different dimensions
#include <capplan/units/literals.hpp>
using namespace capplan::literals;
bool f() {
#ifdef CAPPLAN_COMPILE_FAIL
  return 989_TFLOPps < 3.35_TBps;
#else
  return 989_TFLOPps < 1979_TFLOPps;
#endif
}
