#!/usr/bin/env python3
"""Instructions per iteration of one Google Benchmark case, counted by valgrind (callgrind).

A timing on a shared two-core machine moves by 30-80 % from one minute to the next; the instruction
count of the same binary does not move at all, so two commits compare exactly on it (it does not see
cache misses or branch mispredictions: time stays the measure of the goal, this the measure of a
change). Two runs of different lengths are counted and subtracted, so the case's set-up (preparing
the job, reading the catalog) mostly drops out (Google Benchmark may call the case a different
number of times in each run):

    Ir per iteration = (Ir of the case, long run - short run) / (iterations, long - short)

where iterations are the calls of a function the case runs once per iteration.

Usage:
  bench/instructions.py build/release/bench/capplan_bench [--case BM_FullEstimateOnePlan]
                        [--per-iteration 'capplan::perf::layer_costs('] [--top 20]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def profile(binary, case, min_time, per_iteration, workdir):
    out = os.path.join(workdir, f"callgrind.{min_time}")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary,
                    f"--benchmark_filter=^{case}$", f"--benchmark_min_time={min_time}"],
                   check=True, capture_output=True)
    inclusive = subprocess.run(["callgrind_annotate", "--inclusive=yes", out], check=True,
                               capture_output=True, text=True).stdout
    signature = f"{case}(benchmark::State&)"
    case_ir = sum(int(line.split()[0].replace(",", "")) for line in inclusive.splitlines()
                  if signature in line and line.strip()[:1].isdigit())
    # Calls of the per-iteration function: the "(Nx)" counts of its callers in the caller tree.
    tree = subprocess.run(["callgrind_annotate", "--tree=caller", out], check=True,
                          capture_output=True, text=True).stdout.splitlines()
    calls = 0
    for i, line in enumerate(tree):
        name = line.split(":", 1)[1] if "*  " in line and ":" in line else ""
        # The function itself, not a lambda or a clone inside it.
        if name.startswith(per_iteration) and "::{lambda" not in name and "[clone" not in name:
            j = i - 1
            while j >= 0 and "<" in tree[j]:
                m = re.search(r"\(([\d,]+)x\)", tree[j])
                calls += int(m.group(1).replace(",", "")) if m else 0
                j -= 1
            break
    exclusive = {}
    for line in subprocess.run(["callgrind_annotate", "--threshold=100", out], check=True,
                               capture_output=True, text=True).stdout.splitlines():
        if line.strip()[:1].isdigit() and ":" in line:
            name = line.split(":", 1)[1].split(" [")[0].strip()
            exclusive[name] = exclusive.get(name, 0) + int(line.split()[0].replace(",", ""))
    return case_ir, calls, exclusive


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--case", default="BM_FullEstimateOnePlan")
    ap.add_argument("--per-iteration", default="capplan::perf::layer_costs(",
                    help="a function the case calls once per iteration (the start of its name)")
    ap.add_argument("--top", type=int, default=0, help="also list the N functions with the most own instructions per iteration")
    a = ap.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        sys.exit("bench/instructions.py: valgrind is not installed (scripts/install-deps installs it)")
    with tempfile.TemporaryDirectory() as work:
        short = profile(a.binary, a.case, "0.05", a.per_iteration, work)
        long = profile(a.binary, a.case, "0.2", a.per_iteration, work)
    iterations = long[1] - short[1]
    if iterations <= 0:
        sys.exit(f"bench/instructions.py: no calls of '{a.per_iteration}' counted in {a.case}")
    print(f"{a.case}: {(long[0] - short[0]) / iterations:,.0f} instructions per iteration "
          f"({iterations:,} iterations counted)")
    rows = sorted(((long[2].get(f, 0) - short[2].get(f, 0)) / iterations, f) for f in long[2])
    for ir, name in reversed(rows[-a.top:] if a.top else []):
        print(f"{ir:9,.0f}  {name[:120]}")


if __name__ == "__main__":
    main()
