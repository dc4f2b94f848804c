// expect: conversion from .*time_base_dimension.* to non-scalar type
#include <capplan/units/literals.hpp>
using namespace capplan::literals;
void f() {
#ifdef CAPPLAN_COMPILE_FAIL
  capplan::Energy e = 3_h;
#else
  capplan::Energy e = 700_W * 3_h;
#endif
  (void)e;
}
