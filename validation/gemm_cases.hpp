// Published GEMM kernel times that capplan's efficiency model predicts (perf/efficiency.hpp, the
// linear GEMMs of perf/training_estimator.hpp): one transformer layer's 12 linear GEMMs (forward,
// input gradient and weight gradient of the QKV, attention-output, MLP-up and MLP-down projections)
// of a 4096-wide model with a 16,384-wide MLP, at 15,872 tokens (micro-batch 31 x 512), per
// precision, as NVIDIA's Transformer Engine GEMM profiling tutorial measured them with their inputs
// quantized before the timed loop ("--pre-quantize": kernels only). apps/gen_validation_doc renders
// them in docs/validation.md; tests/integration_test.cpp recomputes them.
//
// Two rows are "calibration": each sets one constant (MXFP8's kernel rate against per-tensor FP8,
// perf/quantization.hpp mxfp8_kernel_rate; NVFP4's, perf/efficiency.hpp nvfp4_kernel_rate_vs_fp8).
// The others are "validation": BF16 and per-tensor FP8 come from the GPU's best-case matmul rates
// (stas00/ml-engineering), never from these rows. What is an input: the GPU (Catalog::builtin()), the
// GEMM shapes, the precision and recipe. What is never an input: the measured time.
//
// Left out: the tutorial's FP8 delayed-scaling "pre-quantized" times (its note: delayed scaling always
// runs in autocast, so they include casts), and every autocast time: the benchmark times each of the
// 12 GEMMs on its own and quantizes that GEMM's operands for it, the weights included, where training
// quantizes each activation once into the copies both of its GEMMs read and caches the weights across
// micro-batches (perf/quantization.hpp), so its cast time is not a training step's.
//
// Test and documentation data, not library: outside include/, not installed (as nccl_cases.hpp).
#pragma once

#include "capplan/hardware/builtin_catalog.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/perf/efficiency.hpp"
#include "capplan/perf/quantization.hpp"
#include "capplan/perf/roofline.hpp"
#include "capplan/perf/training_estimator.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace capplan::perf {

// One published per-layer GEMM time next to capplan's prediction.
struct GemmCase {
  std::string tag;        // "calibration" (sets a constant) or "validation"
  std::string gpu;        // catalog id
  std::string gpu_label;  // as the source names it
  std::string format;     // "BF16", "FP8 per-tensor (current scaling)", "MXFP8", "NVFP4"
  Precision precision = Precision::bf16;
  Fp8Recipe recipe = Fp8Recipe::current;
  double published_ms = 0;  // per layer, the 12 GEMMs
  double predicted_ms = 0;
  std::string sets;         // the constant a calibration row sets
  [[nodiscard]] double error() const { return predicted_ms / published_ms - 1.0; }
  [[nodiscard]] double tflops() const;  // the published rate
};

// The layer's GEMMs: 4,096 wide, MLP 16,384, 15,872 tokens (the tutorial's model config).
inline constexpr std::int64_t gemm_case_tokens = 15872, gemm_case_hidden = 4096, gemm_case_ffn = 16384;

inline OpList gemm_case_ops() {
  const std::int64_t m = gemm_case_tokens, h = gemm_case_hidden, f = gemm_case_ffn;
  OpList ops;
  ops.push_back(gemm("QKV projection", m, 3 * h, h, 2));
  ops.push_back(gemm("attention output", m, h, h, 2));
  ops.push_back(gemm("MLP up", m, f, h, 2));
  ops.push_back(gemm("MLP down", m, h, f, 2));
  return ops;
}

// FLOPs of the 12 GEMMs: 3 x 2 m (3h h + h h + 2 f h).
inline double gemm_case_flops() {
  const double m = gemm_case_tokens, h = gemm_case_hidden, f = gemm_case_ffn;
  return 3.0 * 2.0 * m * (4.0 * h * h + 2.0 * f * h);
}

inline double GemmCase::tflops() const { return gemm_case_flops() / (published_ms * 1e-3) / 1e12; }

// capplan's time for the layer's GEMMs in `c`'s format, kernels only (inputs already quantized).
inline double predict_gemm_case_ms(const GemmCase& c, const Catalog& catalog) {
  const GpuSpec& gpu = catalog.find_gpu(c.gpu);
  const OpList ops = gemm_case_ops();
  const DeviceRates r = device_rates(gpu, c.precision);
  detail::PassCost cost;
  if (c.precision == Precision::fp8 || c.precision == Precision::fp4)
    cost = detail::quantized_gemm_cost(ops, r, quantization_cost(c.precision, c.recipe, quant_hardware(gpu)));
  else
    cost = detail::cost_of(ops, r);
  return (cost.fwd + cost.bwd) * 1e3;
}

inline const char* gemm_cases_source() {
  return "NVIDIA/TransformerEngine docs/examples/gemm_profiling/gemm_profiling.rst at 8f2e635 (\"GEMM Profiling "
         "Tutorial\"): \"Per-Layer GEMM Time\", pre-quantized tables of the worked examples \"5B Model on B300\" "
         "(\"NVIDIA B300 SXM6 AC\") and \"5B Model on H200\" (\"NVIDIA H200 NVL\"); CUDA events, 10 warm-up and 100 "
         "timed iterations "
         "(https://github.com/NVIDIA/TransformerEngine/blob/8f2e63578e103ce1d41503102f47504c129b94d2/docs/examples/gemm_profiling/gemm_profiling.rst)";
}

// Every row, predicted with the built-in catalog.
inline std::vector<GemmCase> gemm_cases() {
  std::vector<GemmCase> v = {
      {"validation", "b300", "B300 SXM6 AC", "BF16", Precision::bf16, Fp8Recipe::current, 13.102, 0, ""},
      {"validation", "b300", "B300 SXM6 AC", "FP8 per-tensor (current scaling)", Precision::fp8, Fp8Recipe::current, 6.812, 0, ""},
      {"calibration", "b300", "B300 SXM6 AC", "MXFP8", Precision::fp8, Fp8Recipe::mxfp8, 7.161, 0, "mxfp8_kernel_rate = 6.812 / 7.161"},
      {"calibration", "b300", "B300 SXM6 AC", "NVFP4", Precision::fp4, Fp8Recipe::delayed, 3.764, 0,
       "nvfp4_kernel_rate_vs_fp8 = 6.812 / 3.764"},
      {"validation", "h200-nvl", "H200 NVL", "BF16", Precision::bf16, Fp8Recipe::current, 31.968, 0, ""},
      {"validation", "h200-nvl", "H200 NVL", "FP8 per-tensor (current scaling)", Precision::fp8, Fp8Recipe::current, 16.785, 0, ""},
  };
  const Catalog catalog = Catalog::builtin();
  for (GemmCase& c : v) c.predicted_ms = predict_gemm_case_ms(c, catalog);
  return v;
}

}  // namespace capplan::perf
