// expect: conversion from .*computation_base_dimension.* to non-scalar type .*information_base_dimension
#include <capplan/units/literals.hpp>
using namespace capplan::literals;
void f() {
#ifdef CAPPLAN_COMPILE_FAIL
  capplan::Bandwidth b = 989_TFLOPps;
#else
  capplan::Bandwidth b = 3.35_TBps;
#endif
  (void)b;
}
