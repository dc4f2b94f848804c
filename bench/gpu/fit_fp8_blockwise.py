#!/usr/bin/env python3
"""Re-derives perf/quantization.hpp's fp8_blockwise_kernel_rate from its calibration rows.

    /usr/bin/python3 bench/gpu/fit_fp8_blockwise.py [validation/measured/h200-2026-11-29-fp8-blockwise.json]

Calibration rows: bench/gpu/measure.py's "fp8_blockwise_2d" section on one H200: seven FP8 (E4M3) GEMM
shapes (squares of 4,096, 8,192 and 16,384; Llama 3.1 8B's training GEMMs at 8,192 tokens) through
torch._scaled_mm (cuBLAS's Hopper kernels), each with one scale per tensor, with DeepSeek-V3's mixed
scaling (1 x 128 tiles on mat_a, 128 x 128 blocks on mat_b: the forward and data-gradient products of a
linear layer, weights in blocks) and with 1 x 128 tiles on both (the weight-gradient product, both
operands tiled along the tokens). Each rate over the per-tensor rate of the same shape in the same run,
averaged over the shapes; a linear layer's three GEMMs have the same FLOPs, so the layer's rate is their
harmonic mean: 3 / (2 / mixed + 1 / tiles).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "validation", "measured", "h200-2026-11-29-fp8-blockwise.json")


def main():
    rows = json.load(open(PATH))["sections"]["fp8_blockwise_2d"]["data"]["rows"]
    mixed, tiles = [], []
    for r in rows:
        t = r["tensorwise"]["tflops"]
        mixed.append(r["tile_block_c"]["tflops"] / t)
        tiles.append(r["tile_tile"]["tflops"] / t)
        print(f"{r['m']:6d} x {r['n']:6d} x {r['k']:6d}  per tensor {t:7.1f}  1x128 x 128x128 {r['tile_block_c']['tflops']:7.1f}  "
              f"1x128 x 1x128 {r['tile_tile']['tflops']:6.1f} TFLOP/s")
    m, s = sum(mixed) / len(mixed), sum(tiles) / len(tiles)
    print(f"mixed (forward, data gradient) {m:.4f}; tiles (weight gradient) {s:.4f}")
    print(f"fp8_blockwise_kernel_rate = 3 / (2 / {m:.4f} + 1 / {s:.4f}) = {3 / (2 / m + 1 / s):.4f}")


if __name__ == "__main__":
    main()
