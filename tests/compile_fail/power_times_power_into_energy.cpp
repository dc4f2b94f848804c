// expect: conversion from .* to non-scalar type .*
#include <capplan/units/literals.hpp>
using namespace capplan::literals;
void f() {
#ifdef CAPPLAN_COMPILE_FAIL
  capplan::Energy e = 700_W * 700_W;
#else
  capplan::Energy e = 700_W * 1_s;
#endif
  (void)e;
}
