#!/usr/bin/env python3
"""Re-derives perf/image_model.hpp's batch-norm constants from their calibration rows.

    /usr/bin/python3 bench/gpu/fit_batch_norm.py [validation/measured/h200-2026-11-29-kernels.json]

Calibration rows: bench/gpu/measure.py's "conv_layers" section, batch norm + ReLU (training mode,
channels-last BF16) after each ResNet-50 convolution shape at batch 128 and 256, forward and backward,
timed alone on one H200. Rows with fewer than 25 M output elements are left out: run alone, their
backward waits on the host's autograd call (their GPU time is below it), which a whole network's
queue of kernels hides.

Model (perf/image_model.hpp, batch_norm_relu_time), v = output bytes / element-wise bandwidth:
    forward  = v / f_stats + 2 v / f_bn + 2 v + 3 launches
    backward = 3 v + 5 v / f_bn + 3 launches
f_bn is fitted on the backward rows, then f_stats on the forward rows with f_bn fixed; each is the
value on a 0.001 grid that minimises the sum of squared log errors. The element-wise bandwidth and
the launch cost are capplan's for the H200 (4.8 TB/s x 0.88; 4 us), not fitted here.

The "image_profile" section of the same file (a profiled ResNet-50 training step) is printed beside
the fit as a check: each batch-norm kernel's bytes over its measured time, as a fraction of the same
bandwidth. It is not used to fit.
"""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "validation", "measured", "h200-2026-11-29-kernels.json")
BANDWIDTH = 4.8e12 * 0.88   # B/s: the H200's 4.8 TB/s (catalog) x EfficiencyModel::memory_fraction
LAUNCH = 4e-6               # s: EfficiencyModel::kernel_overhead
E = 2                       # bytes per BF16 value
MIN_ELEMENTS = 25e6


def fit(errors):
    best = min((sum(x * x for x in errors(f / 1000)), f / 1000) for f in range(50, 1001))
    return best[1], math.sqrt(best[0] / len(errors(best[1])))


def main():
    data = json.load(open(PATH))["sections"]
    rows = []
    for r in data["conv_layers"]["data"]:
        elements = r["batch"] * r["hout"] * r["wout"] * r["cout"]
        if elements >= MIN_ELEMENTS and "error" not in r:
            rows.append((elements * E / BANDWIDTH, r["bn_relu_fwd_ms"] / 1e3, r["bn_relu_bwd_ms"] / 1e3))
    f_bn, rms_bn = fit(lambda f: [math.log((3 * v + 5 * v / f + 3 * LAUNCH) / b) for v, _, b in rows])
    f_stats, rms_stats = fit(lambda f: [math.log((v / f + 2 * v / f_bn + 2 * v + 3 * LAUNCH) / fw) for v, fw, _ in rows])
    print(f"{len(rows)} calibration rows (of {len(data['conv_layers']['data'])})")
    print(f"bn_kernel_bandwidth_fraction     = {f_bn:.3f}  (rms error {100 * rms_bn:.1f} %)")
    print(f"bn_statistics_bandwidth_fraction = {f_stats:.3f}  (rms error {100 * rms_stats:.1f} %)")

    prof = next((p for p in data.get("image_profile", {}).get("data", []) if p["model"] == "resnet50"), None)
    if prof:
        outputs = sum(r["count"] * r["batch"] * r["hout"] * r["wout"] * r["cout"]
                      for r in data["conv_layers"]["data"] if r["batch"] == prof["batch"])
        passes = {"batch_norm_collect_statistics": 1, "batch_norm_transform_input": 2,
                  "batch_norm_backward_reduce": 2, "batch_norm_backward_elemt": 3}
        print(f"check, the profiled ResNet-50 step (batch {prof['batch']}, not fitted):")
        for key, n in passes.items():
            us = sum(k["us"] for k in prof["kernels"] if key in k["name"])
            if us:
                print(f"  {key:32s} {us / 1e3:6.2f} ms  {n * outputs * E / (us / 1e6) / BANDWIDTH:.3f} of the bandwidth")


if __name__ == "__main__":
    main()
