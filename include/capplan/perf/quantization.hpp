// Low-precision training recipes: what quantizing a linear layer's GEMM inputs costs, per element, as
// NVIDIA Transformer Engine runs each recipe (perf/training_estimator.hpp, detail::quantized_cost_of,
// applies it to every linear GEMM; attention, norms, activations and the residual stream stay in BF16).
//
//   Recipe (TE class)                       operand bytes      quantize, per input element
//   fp8 delayed  (DelayedScaling)           1                  read 2, write 1 [+ 1 transposed]
//   fp8 current  (Float8CurrentScaling)     1                  + an amax pass (read 2) before the cast
//   fp8 mxfp8    (MXFP8BlockScaling)        1 + 1/32           read 2, write (1 + 1/32) row- and column-wise
//   fp8 blockwise (Float8BlockScaling)      1 + 4/128          read 2, write (1 + 4/128) row- and column-wise
//   fp4 nvfp4    (NVFP4BlockScaling)        0.5 + 1/16         amax (read 2), read 2, write (0.5 + 1/16)
//                                                              row-wise and column-wise (Hadamard-rotated)
//
// Sources:
// - Transformer Engine documentation, "Using FP8 with Transformer Engine" (delayed scaling: the scale
//   comes from an amax history, so the cast kernel needs no prior pass; current scaling computes the
//   tensor's amax first) and the recipe classes in transformer_engine/common/recipe/__init__.py.
// - Hopper's FP8 tensor-core GEMMs take only the TN layout (cuBLASLt: "FP8 ... requires A transposed
//   and B non-transposed"), so every FP8 input needed by the weight gradient is written a second time
//   transposed (TE's fused cast-transpose). Data-centre Blackwell (compute capability 10.x: B200, GB200,
//   B300, GB300) takes FP8 operands in any layout (TE's nvte_is_non_tn_fp8_gemm_supported()): one FP8
//   copy serves both GEMMs. Workstation and GeForce Blackwell (12.0) keep the TN rule.
// - MX formats (OCP Microscaling Formats v1.0, §5) share one E8M0 scale per 32 values along the
//   contraction dimension, which differs between the forward GEMM and the weight-gradient GEMM, so
//   an MXFP8 input is quantized twice from BF16, row-wise and column-wise, whatever the layout support.
// - NVFP4 (Abecassis et al. 2025, "Pretraining Large Language Models with NVFP4", arXiv 2509.25149,
//   §3-4): 16 E2M1 values share an E4M3 scale, and a per-tensor FP32 scale needs the tensor's amax
//   first; the weight-gradient GEMM's inputs are rotated by a 16 x 16 random Hadamard transform (2 x 16
//   FLOPs per element, fused into the column-wise cast); Fprop, Dgrad and Wgrad all run in NVFP4.
//   The paper keeps a few final layers in BF16 for accuracy; this model quantizes every linear layer,
//   as the recipe does when no layer is exempted.
// - Blockwise FP8 (DeepSeek-AI 2024, "DeepSeek-V3 Technical Report", arXiv 2412.19437, §3.3.2
//   "Fine-Grained Quantization"): activations and gradients scaled per 1 x 128 tile, weights per
//   128 x 128 block, FP32 scales; as with MX formats the tiles run along the contraction dimension, so
//   an input is quantized twice (row- and column-wise), each amax found inside the cast kernel. cuBLAS
//   runs such GEMMs on Hopper (CUDA 12.9's blockwise FP8 GEMMs; PyTorch's torch._scaled_mm takes them);
//   on Blackwell (compute capability 10.x and up) Transformer Engine emulates them through MXFP8
//   ("FP8 Block is emulated via MXFP8 - prefer MXFP8 or NVFP4", its GEMM profiling tutorial at 8f2e635),
//   so capplan refuses the recipe there and elsewhere (Ada, AMD); train and memory fall back (see
//   plan/training_run.hpp).
//   Their kernels run at fp8_blockwise_kernel_rate of per-tensor FP8's: 0.826, measured in-house on an
//   H200 over seven GEMM shapes (validation/measured/h200-2026-11-29-fp8-blockwise.json, calibration
//   rows; bench/gpu/fit_fp8_blockwise.py): 1 x 128 tiles times 128 x 128 blocks (the forward and
//   data-gradient products) at 0.888 of per-tensor, 1 x 128 tiles on both operands (the weight
//   gradient) at 0.724, a layer's three equal-FLOP products at their harmonic mean. A check, not
//   fitted: Transformer Engine's GEMM profiling tutorial (gemm_profiling.rst at 8f2e635, H200 NVL, one
//   layer's 12 GEMMs with their casts) times FP8Block at 1.128x FP8Current; these kernels alone are
//   1.21x. No published blockwise training run is in validation/cases yet (Megatron-Bridge's 25.09
//   table gives DeepSeek-V3 on 1,024 H100 at 330 TFLOP/s/GPU blockwise against 338 per tensor).
// - Block-scaled operands (MXFP8, NVFP4) need Blackwell-class tensor cores; a GPU with an FP4 rate in
//   the catalog has them (NVIDIA Blackwell, AMD CDNA 4). Which parts take FP8 in any layout is read
//   from the catalog as: an FP4 rate, NVIDIA, SXM (the data-centre parts); elsewhere TN is assumed.
// - Block-scaled GEMM kernels are slower than per-tensor FP8 ones on the same shapes (the scales are
//   loaded and applied in the main loop): Transformer Engine's GEMM profiling tutorial
//   (docs/examples/gemm_profiling/gemm_profiling.rst at 8f2e635, "NVIDIA B300 SXM6 AC", one layer's
//   12 GEMMs of a 4096-wide model at 15,872 tokens, inputs quantized before the timed loop) measures
//   6.812 ms per layer in per-tensor FP8 (current scaling) and 7.161 ms in MXFP8: MXFP8's kernels run
//   at 0.951 of per-tensor FP8's rate (`kernel_rate`). NVFP4's kernels (3.764 ms there) have their own
//   rate (perf/efficiency.hpp, nvfp4_kernel_rate_vs_fp8). Both are fitted constants, one row each
//   (validation/gemm_cases.hpp tags those rows calibration).
// Frozen weights (LoRA, QLoRA) compute no weight gradient, so their inputs get no column-wise copy.
// Weights are quantized once per iteration and cached across micro-batches (Megatron's
// is_first_microbatch), so that cast is not counted.
#pragma once

#include "capplan/detail/enum_names.hpp"
#include "capplan/error.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/hardware/precision.hpp"
#include "capplan/memory/formats.hpp"

#include <boost/describe/enum.hpp>

#include <cstdio>
#include <string>
#include <string_view>

namespace capplan::perf {

// How FP8 training scales its tensors (Transformer Engine's recipes):
//   delayed  per-tensor scales from an amax history (DelayedScaling; NeMo's default before 25.x)
//   current  per-tensor scales from the tensor's own amax (Float8CurrentScaling; Megatron-Bridge's "FP8-CS")
//   mxfp8    a scale per 32 values (MXFP8BlockScaling; Megatron-Bridge's "FP8-MX"); Blackwell-class only
//   blockwise  DeepSeek-V3's scales per 1 x 128 tile (activations, gradients) and 128 x 128 block
//            (weights) (Float8BlockScaling); Hopper
enum class Fp8Recipe { delayed, current, mxfp8, blockwise };
BOOST_DESCRIBE_ENUM(Fp8Recipe, delayed, current, mxfp8, blockwise)
inline constexpr std::string_view name(Fp8Recipe r) { return capplan::detail::enum_name(r); }
inline Fp8Recipe parse_fp8_recipe(std::string_view text, std::string_view field = "fp8_recipe") {
  return capplan::detail::parse_enum<Fp8Recipe>(text, field);
}

// What a GPU's tensor cores can do with quantized operands.
struct QuantHardware {
  bool block_scaled = false;    // MXFP8 / NVFP4 block-scaled operands (an FP4 rate in the catalog)
  bool fp8_any_layout = false;  // FP8 GEMMs in any layout, no transposed copies (data-centre Blackwell)
  bool fp8_blockwise = false;   // cuBLAS's blockwise-scaled FP8 GEMMs (Hopper; Blackwell emulates them through MXFP8)
};

inline QuantHardware quant_hardware(const GpuSpec& gpu) {
  QuantHardware h;
  h.block_scaled = gpu.dense.has(Precision::fp4);
  h.fp8_any_layout = h.block_scaled && gpu.vendor == Vendor::nvidia && gpu.form_factor == FormFactor::sxm;
  // Hopper (the catalog's architecture field, any case): H100, H200, H800, H20.
  const std::string_view arch = gpu.architecture;
  const bool hopper = arch.size() == 6 && (arch[0] == 'H' || arch[0] == 'h') && arch.substr(1) == "opper";
  h.fp8_blockwise = hopper && gpu.vendor == Vendor::nvidia && gpu.dense.has(Precision::fp8);
  return h;
}

// What quantizing one GEMM input costs, per element of that input.
struct QuantizationCost {
  std::string_view recipe;        // e.g. "fp8 delayed scaling"
  double operand_bytes = 1;       // bytes per operand element the GEMM reads (data + block scales)
  double cast_bytes = 4;          // memory traffic to quantize one input element (weight gradient needed)
  double cast_bytes_frozen = 3;   // the same without a weight gradient (frozen weights)
  double transform_flops = 0;     // FLOPs per element of extra math (NVFP4's Hadamard rotation)
  // The GEMM kernels' rate relative to the precision's best-case rate on the same shapes: 1, but MXFP8's
  // block-scaled kernels against per-tensor FP8 (see the top).
  double kernel_rate = 1;
};

// MXFP8 GEMM kernels against per-tensor FP8 ones, same shapes, same GPU (B300): 6.812 / 7.161 ms per
// layer (Transformer Engine gemm_profiling.rst at 8f2e635, pre-quantized). Fitted on that one row.
inline constexpr double mxfp8_kernel_rate = 6.812 / 7.161;
// Blockwise FP8 GEMM kernels against per-tensor FP8 ones, same shapes, same GPU (H200): a linear layer's
// three products (see the top; bench/gpu/fit_fp8_blockwise.py).
inline constexpr double fp8_blockwise_kernel_rate = 0.8255;
// Bytes a blockwise-scaled FP8 operand element reads: the value and a 4-byte FP32 scale per 128 (the
// activations' 1 x 128 tiles; a weight's 128 x 128 blocks add 4 bytes per 16,384).
inline constexpr double fp8_blockwise_operand_bytes = 1.0 + 4.0 / 128.0;

// The cost of `precision` (fp8 or fp4) under `recipe` on hardware `hw`. InputError naming the field
// where the GPU cannot run the recipe.
inline QuantizationCost quantization_cost(Precision precision, Fp8Recipe recipe, QuantHardware hw) {
  if (precision == Precision::fp4) {
    if (!hw.block_scaled) capplan::detail::fail("precision", "fp4", "needs Blackwell-class tensor cores (NVFP4); this GPU has no FP4 rate");
    // amax 2 + read 2 + one NVFP4 copy row-wise + one column-wise after the Hadamard rotation, each
    // 4.5 bits a value with its block scale (memory/formats.hpp, formats::nvfp4: 0.5625 bytes).
    const double v = formats::nvfp4.bytes_per_value();
    return {"nvfp4 (16-value E4M3 block scales + per-tensor amax, Hadamard-rotated weight-gradient inputs)", v, 2.0 + 2.0 + 2.0 * v,
            2.0 + 2.0 + v, 2.0 * 16.0};
  }
  if (precision != Precision::fp8) capplan::detail::fail("precision", std::string(name(precision)), "has no quantization recipe (fp8 or fp4)");
  switch (recipe) {
    case Fp8Recipe::delayed:
      // TN-only: cast and transposed cast (2 + 1 + 1); any layout: one copy serves both GEMMs (2 + 1).
      return {"fp8 delayed scaling", 1.0, hw.fp8_any_layout ? 3.0 : 4.0, 3.0, 0.0};
    case Fp8Recipe::current:
      return {"fp8 current scaling", 1.0, hw.fp8_any_layout ? 5.0 : 6.0, 5.0, 0.0};
    case Fp8Recipe::mxfp8:
      if (!hw.block_scaled) capplan::detail::fail("fp8_recipe", "mxfp8", "needs Blackwell-class tensor cores (block-scaled MXFP8); this GPU has no FP4 rate");
      return {"mxfp8 (32-value E8M0 block scales)", 1.0 + 1.0 / 32.0, 2.0 + 2.0 * (1.0 + 1.0 / 32.0), 2.0 + (1.0 + 1.0 / 32.0), 0.0,
              mxfp8_kernel_rate};
    case Fp8Recipe::blockwise: {
      if (!hw.fp8_blockwise)
        capplan::detail::fail("fp8_recipe", "blockwise",
                              "needs cuBLAS's blockwise-scaled FP8 GEMMs, which Hopper has (Blackwell emulates them through MXFP8: use mxfp8)");
      const double v = fp8_blockwise_operand_bytes;
      return {"fp8 blockwise (1 x 128 and 128 x 128 FP32 scales, DeepSeek-V3)", v, 2.0 + 2.0 * v, 2.0 + v, 0.0, fp8_blockwise_kernel_rate};
    }
  }
  capplan::detail::fail("fp8_recipe", std::to_string(static_cast<int>(recipe)), "is not delayed, current, mxfp8 or blockwise");
}

// Bytes per element of the input a linear layer keeps for its weight gradient: Transformer Engine
// keeps the quantized copy the weight-gradient GEMM reads and drops the 16-bit one
// (transformer_engine/pytorch/module/linear.py: "Discard row-wise data since it is not needed in
// backward pass"): 1 byte in FP8, 1 + 1/32 in MXFP8, NVFP4's 0.5625; 0 (the activations' own 2 bytes)
// for 16- and 32-bit training.
inline double saved_linear_input_bytes(Precision precision, Fp8Recipe recipe) {
  if (precision == Precision::fp4) return formats::nvfp4.bytes_per_value();
  if (precision != Precision::fp8) return 0;
  return recipe == Fp8Recipe::mxfp8 ? 1.0 + 1.0 / 32.0 : recipe == Fp8Recipe::blockwise ? fp8_blockwise_operand_bytes : 1.0;
}

// One sentence on how the job's linear layers are quantized, for a report's notes.
inline std::string quantization_note(Precision precision, Fp8Recipe recipe, QuantHardware hw) {
  const QuantizationCost q = quantization_cost(precision, recipe, hw);
  char bytes[64];
  std::snprintf(bytes, sizeof bytes, "%.4g", q.cast_bytes);
  std::string s = std::string(precision == Precision::fp4 ? "FP4" : "FP8") + " training, " + std::string(q.recipe) +
                  " (Transformer Engine): the linear layers' GEMMs run at the " + (precision == Precision::fp4 ? "FP4" : "FP8") +
                  " rate; attention, norms, activations and the output layer stay in BF16; quantizing each GEMM input moves " + bytes +
                  " bytes per element";
  if (precision == Precision::fp8 && (recipe == Fp8Recipe::delayed || recipe == Fp8Recipe::current))
    s += hw.fp8_any_layout ? " (one FP8 copy serves both GEMMs: data-centre Blackwell takes any layout)"
                           : " (with a transposed copy for the weight gradient: TN-only FP8 GEMMs)";
  if (precision == Precision::fp8 && recipe == Fp8Recipe::mxfp8)
    s += "; block-scaled GEMMs run at " + std::to_string(static_cast<int>(q.kernel_rate * 1000 + 0.5) / 10) + "." +
         std::to_string(static_cast<int>(q.kernel_rate * 1000 + 0.5) % 10) + " % of per-tensor FP8's rate (measured on B300)";
  if (precision == Precision::fp8 && recipe == Fp8Recipe::blockwise)
    s += "; blockwise-scaled GEMMs run at " + std::to_string(static_cast<int>(q.kernel_rate * 1000 + 0.5) / 10) + "." +
         std::to_string(static_cast<int>(q.kernel_rate * 1000 + 0.5) % 10) + " % of per-tensor FP8's rate (measured on H200)";
  if (precision == Precision::fp4) s += "; every linear layer is quantized (the NVFP4 paper keeps a few final layers in BF16)";
  return s + ".";
}

}  // namespace capplan::perf
