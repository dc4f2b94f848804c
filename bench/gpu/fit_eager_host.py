#!/usr/bin/env python3
"""Re-derives perf/inference.hpp's eager_inference_host_seconds_per_kernel from its calibration rows.

    /usr/bin/python3 bench/gpu/fit_eager_host.py [validation/measured/h200-2026-11-29-kernels.json]

Calibration rows: bench/gpu/measure.py's "prefill_sweep" section, the Llama-3.2-1B-shaped prefills whose
eager time is at least twice their CUDA graph's (so the GPU waited on Python): 16 to 1,024 tokens.
Per row, the eager time over the kernels capplan's eager model counts for that forward (31 a layer,
LayerOptions::eager in perf/roofline.hpp, plus 8 outside the layers: perf/inference.hpp
eager_model_kernels; `capplan infer --eager --explain` prints the total); the constant is their median.
The Llama-3.1-8B-shaped rows of the same sweep are printed beside it as a check (validation, not fitted).
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "validation", "measured", "h200-2026-11-29-kernels.json")
LAYERS = {"llama3.2-1b": 16, "llama3.1-8b": 32}
PER_LAYER, OUTSIDE = 31, 8


def main():
    rows = json.load(open(PATH))["sections"]["prefill_sweep"]["data"]
    fit = []
    for r in rows:
        kernels = LAYERS[r["model"]] * PER_LAYER + OUTSIDE
        host_bound = r["eager_ms"] >= 2 * r["graph_ms"]
        per = r["eager_ms"] / 1e3 / kernels
        tag = "calibration" if r["model"] == "llama3.2-1b" and host_bound else "validation"
        if tag == "calibration":
            fit.append(per)
        print(f"{r['model']:12s} {r['prompt']:5d} tokens  eager {r['eager_ms']:7.2f} ms  graph {r['graph_ms']:7.2f} ms  "
              f"{kernels} kernels  {per * 1e6:5.1f} us each  {tag}")
    print(f"eager_inference_host_seconds_per_kernel = {statistics.median(fit) * 1e6:.1f} us (median of {len(fit)} rows)")


if __name__ == "__main__":
    main()
