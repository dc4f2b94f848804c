#!/usr/bin/python3
"""Speed of capplan's NumPy sweeps, with baselines measured in the same run.

    PYTHONPATH=build/release/bindings/python /usr/bin/python3 bench/python_sweeps_bench.py

For a grid of about a million points (100 model sizes x 100 token counts x 100 GPU counts for the
training sweeps, 1000 purchase prices x 1000 rental rates for rent-versus-own) it reports the best
of --repeat runs of:
  - the capplan sweep (C++, GIL released, exact 6ND per distinct (params, tokens) pair), on the grid
    and on a flat million points where every pair differs (the worst case);
  - the same formulas written directly in NumPy (float64 throughout: what a user would write by hand);
  - the scalar capplan API called from a Python loop (timed on --scalar-points points, scaled to the grid).
Ratios, not absolute times, are what carry from one (shared, noisy) machine to another.
"""

import argparse
import json
import platform
import time

import numpy as np

import capplan
from capplan import FlopCount, FlopRate, sweeps


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--side", type=int, default=100, help="points per axis of the 3-D training grid (default 100)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--scalar-points", type=int, default=20000)
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    a = ap.parse_args()

    n = a.side
    params = np.linspace(1e9, 100e9, n).round()
    tokens = np.linspace(1e11, 1e13, n).round()
    gpus = np.arange(1, n + 1, dtype=float)
    axes = sweeps.grid(params=params, tokens=tokens, gpus=gpus)
    points = n ** 3
    peak, mfu, watts, pue, rate, price = 989e12, 0.4, 700.0, 1.1, 2.49, 0.12

    rows = []

    def add(name, seconds, pts):
        rows.append({"case": name, "points": pts, "seconds": seconds, "ns_per_point": seconds / pts * 1e9})

    # 1. Training time at MFU: capplan sweep vs NumPy vs scalar calls.
    add("sweeps.training_time (capplan, C++)", best(lambda: sweeps.training_time(peak_flops_per_s=peak, mfu=mfu, **axes),
                                                      a.repeat), points)
    # The worst case: a flat million points, every one a different (params, tokens) pair, so no
    # exact 6ND product is shared between neighbours.
    flat_p = np.round(np.linspace(1e9, 100e9, points))
    flat_t = np.round(np.linspace(1e13, 1e11, points))
    flat_g = np.resize(gpus, points)
    add("sweeps.training_time, all (N, D) distinct", best(lambda: sweeps.training_time(flat_p, flat_t, flat_g, peak, mfu),
                                                          a.repeat), points)
    P, T, G = axes["params"], axes["tokens"], axes["gpus"]
    add("same formula in NumPy (float64)", best(lambda: 6.0 * P * T / (G * peak * mfu), a.repeat), points)
    m = a.scalar_points
    rng = np.random.default_rng(1)
    sample = [(int(params[i]), int(tokens[j]), float(gpus[k])) for i, j, k in rng.integers(0, n, size=(m, 3))]
    flops_fn = getattr(capplan, "training_flops", None)

    def scalar_loop():
        rate_gpu = FlopRate.from_value(peak)
        for p, t, g in sample:
            c = flops_fn(p, t) if flops_fn else 6 * p * t
            (FlopCount.from_value(float(c)) / (rate_gpu * (g * mfu))).value

    s = best(scalar_loop, max(1, a.repeat // 2))
    add("scalar capplan calls in a Python loop", s / m * points, points)

    # 2. The whole training run (FLOPs, time, GPU-hours, energy, rent and electricity dollars).
    add("sweeps.training (6 outputs, capplan, C++)",
        best(lambda: sweeps.training(peak_flops_per_s=peak, mfu=mfu, gpu_power_w=watts, pue=pue, usd_per_gpu_hour=rate,
                                     usd_per_kwh=price, **axes), a.repeat), points)

    def numpy_training():
        flops = 6.0 * P * T
        t = flops / (G * peak * mfu)
        gh = G * t / 3600
        e = G * watts * t * pue / 3.6e6
        return flops, t, gh, e, gh * rate, e * price

    add("same formulas in NumPy (float64)", best(numpy_training, a.repeat), points)

    # 3. Rent versus own over 1000 x 1000 purchase prices and rental rates.
    k = int(round(points ** 0.5))
    purchase = np.linspace(1000, 400000, k)[:, None]
    rent = np.linspace(0.5, 40, k)[None, :]
    add("sweeps.rent_vs_own (capplan, C++)",
        best(lambda: sweeps.rent_vs_own(purchase, 700, 0.12, rent, 0.5, horizon_months=36), a.repeat), k * k)

    info = {"python": platform.python_version(), "numpy": np.__version__, "capplan": capplan.__version__,
            "module": capplan._core.__file__, "machine": platform.machine(), "rows": rows}
    if a.json:
        print(json.dumps(info, indent=2))
        return
    print(f"capplan {info['capplan']} from {info['module']}")
    print(f"Python {info['python']}, NumPy {info['numpy']}, best of {a.repeat}")
    print(f"{'case':45} {'points':>9} {'seconds':>9} {'ns/point':>9}")
    for r in rows:
        print(f"{r['case']:45} {r['points']:>9} {r['seconds']:>9.4f} {r['ns_per_point']:>9.1f}")


if __name__ == "__main__":
    main()
