#!/usr/bin/env bash
# Compile time of a translation unit that includes capplan's umbrella header, next to one
# that includes only the Boost headers capplan uses. Prints seconds (best of N) and the ratio.
# Usage: bench/compile_time.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/umbrella.cpp" <<'CPP'
#include <capplan/capplan.hpp>
int main() { using namespace capplan::literals; return static_cast<int>((80_GB / 2_TBps).value()); }
CPP
# Every Boost header an installed capplan header includes (grep '#include <boost/' include -r).
cat > "$tmp/boost_only.cpp" <<'CPP'
#include <boost/units/quantity.hpp>
#include <boost/units/unit.hpp>
#include <boost/units/make_system.hpp>
#include <boost/units/base_dimension.hpp>
#include <boost/units/base_unit.hpp>
#include <boost/units/derived_dimension.hpp>
#include <boost/units/systems/si/base.hpp>
#include <boost/units/physical_dimensions/energy.hpp>
#include <boost/units/physical_dimensions/length.hpp>
#include <boost/units/physical_dimensions/mass.hpp>
#include <boost/units/physical_dimensions/power.hpp>
#include <boost/units/physical_dimensions/time.hpp>
#include <boost/multiprecision/cpp_int.hpp>
#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/mp11/algorithm.hpp>
int main() { return 0; }
CPP
best() {
  local src=$1 b=
  for _ in $(seq "$runs"); do
    local s e
    s=$(date +%s.%N)
    g++ -std=c++20 -O0 -Iinclude -c "$src" -o "$tmp/out.o"
    e=$(date +%s.%N)
    local t
    t=$(echo "$e - $s" | bc -l)
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
  done
  printf '%.2f' "$b"
}
u=$(best "$tmp/umbrella.cpp")
o=$(best "$tmp/boost_only.cpp")
echo "umbrella header:     ${u} s"
echo "Boost headers only:  ${o} s"
echo "ratio:               $(echo "scale=2; $u / $o" | bc -l)"
