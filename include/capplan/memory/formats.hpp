// Storage formats of weights and caches, in bits per value including any block-scale overhead.
//
//   weight_memory(parameter_count(shape), formats::q4_0)   4.5 bits per weight
//
// Block-quantized formats store a scale per block: llama.cpp's Q4_0 packs 32 weights as 32 x 4 bit
// + one fp16 scale = 144 bits / 32 = 4.5 bits; Q8_0 32 x 8 bit + fp16 scale = 8.5 bits (ggml
// block_q4_0 / block_q8_0 in ggml-common.h). QLoRA's NF4 with double quantization costs
// 4 + 0.127 bits (Dettmers et al. 2023, §3 "Double Quantization": 0.127 bits per parameter).
// MXFP4 (OCP Microscaling Formats v1.0, §5: blocks of 32 FP4 E2M1 values sharing one 8-bit E8M0
// scale) costs 4 + 8/32 = 4.25 bits; gpt-oss ships its MoE expert weights so (gpt-oss model card, §2).
// NVFP4 (NVIDIA, "Introducing NVFP4 for Efficient and Accurate Low-Precision Inference", 2025; Transformer
// Engine's NVFP4BlockScaling) packs 16 FP4 E2M1 values with one FP8 E4M3 scale, plus one FP32 scale per
// tensor: 4 + 8/16 = 4.5 bits (the per-tensor scale is not counted). MXFP6 (OCP MX v1.0, §5: 32 FP6
// E2M3 or E3M2 values sharing one E8M0 scale) costs 6 + 8/32 = 6.25 bits; AMD Quark writes such
// checkpoints. INT4 as the GPU quantizers store it (AutoAWQ, GPTQ, llm-compressor's W4A16): 4-bit
// weights in groups of 128 along the input dimension, each group with an fp16 scale and a 4-bit zero
// point (AWQ's and GPTQ's asymmetric default; AutoAWQ q_group_size 128, "zero_point": True):
// 4 + (16 + 4) / 128 = 4.15625 bits. ggml's Q6_K packs 256 weights as 256 x 6 bit, 16 int8 sub-block
// scales and one fp16 super-scale: 210 B / 256 = 6.5625 bits (block_q6_K in ggml-common.h).
//
// A quantized checkpoint is not all in its format: the quantizers quantize the decoder layers' linear
// layers and keep the input embedding and the output head as the model came (AutoAWQ and GPTQ quantize
// the blocks' nn.Linear modules only; llm-compressor's recipes ignore lm_head; bitsandbytes skips it,
// transformers' llm_int8_skip_modules). llama.cpp keeps the embedding in the file's type but raises
// the output head (or a tied embedding, the same tensor) to Q6_K unless the file is Q8_0 (llama-quant.cpp,
// llama_tensor_get_type: "else if (new_type != GGML_TYPE_Q8_0) new_type = GGML_TYPE_Q6_K").
// checkpoint_ends gives both formats.
#pragma once

#include "capplan/error.hpp"
#include "capplan/hardware/precision.hpp"
#include "capplan/units/count.hpp"
#include "capplan/units/quantity.hpp"

#include <array>
#include <string>
#include <string_view>

namespace capplan {

struct WeightFormat {
  std::string_view name;
  double bits_per_value = 16;

  [[nodiscard]] double bytes_per_value() const { return bits_per_value / 8.0; }
  // Bytes of `n` values in this format.
  [[nodiscard]] DataSize size_of(const Count& n) const {
    return DataSize::from_value(static_cast<double>(n) * bits_per_value / 8.0);
  }
  [[nodiscard]] DataSize size_of(double n) const { return DataSize::from_value(n * bits_per_value / 8.0); }
  friend bool operator==(const WeightFormat& a, const WeightFormat& b) {
    return a.name == b.name && a.bits_per_value == b.bits_per_value;
  }
};

namespace formats {
inline constexpr WeightFormat fp32{"fp32", 32};
inline constexpr WeightFormat bf16{"bf16", 16};
inline constexpr WeightFormat fp16{"fp16", 16};
inline constexpr WeightFormat fp8{"fp8", 8};
inline constexpr WeightFormat int8{"int8", 8};
inline constexpr WeightFormat int4{"int4", 4.15625};  // group 128: + fp16 scale + 4-bit zero per group (AWQ, GPTQ)
inline constexpr WeightFormat q8_0{"q8_0", 8.5};   // ggml block_q8_0: 32 x int8 + fp16 scale
inline constexpr WeightFormat q4_0{"q4_0", 4.5};   // ggml block_q4_0: 32 x 4 bit + fp16 scale
inline constexpr WeightFormat q6_k{"q6_k", 6.5625};  // ggml block_q6_K: 256 x 6 bit + 16 int8 scales + fp16
inline constexpr WeightFormat nf4{"nf4", 4.127};   // QLoRA NF4 + double-quantized constants (Dettmers et al. 2023, §3)
inline constexpr WeightFormat mxfp4{"mxfp4", 4.25};  // OCP MX: 32 x FP4 E2M1 + one E8M0 scale
inline constexpr WeightFormat nvfp4{"nvfp4", 4.5};   // 16 x FP4 E2M1 + one E4M3 scale (+ one FP32 per tensor)
inline constexpr WeightFormat mxfp6{"mxfp6", 6.25};  // OCP MX: 32 x FP6 (E2M3 or E3M2) + one E8M0 scale
inline constexpr std::array<WeightFormat, 13> all{fp32, bf16, fp16, fp8, int8, int4, q8_0, q6_k, q4_0, nf4, mxfp4, nvfp4, mxfp6};

// The formats' names, comma-separated, for help texts and error messages.
inline std::string names() {
  std::string out;
  for (const WeightFormat& f : all) {
    if (!out.empty()) out += ", ";
    out += f.name;
  }
  return out;
}
}  // namespace formats

// The storage format of a compute precision (tf32 is stored as fp32).
inline WeightFormat weight_format(Precision p) {
  switch (p) {
    case Precision::fp64: return WeightFormat{"fp64", 64};
    case Precision::fp32: return formats::fp32;
    case Precision::tf32: return formats::fp32;
    case Precision::bf16: return formats::bf16;
    case Precision::fp16: return formats::fp16;
    case Precision::fp8: return formats::fp8;
    case Precision::int8: return formats::int8;
    case Precision::int4: return formats::int4;
    case Precision::fp4: return formats::nvfp4;
    case Precision::fp6: return formats::mxfp6;
  }
  return formats::bf16;
}

inline WeightFormat parse_weight_format(std::string_view text, std::string_view field = "weights") {
  for (const auto& f : formats::all) {
    if (f.name == text) return f;
  }
  detail::fail(field, "\"" + std::string(text) + "\"", "is not a weight format (" + formats::names() + ")");
}

// The formats a checkpoint in `f` keeps its input embedding and its output head in (the comment at the
// top): 16-bit formats and Q8_0 all in `f`; Q4_0 and Q6_K the embedding in `f`, the head in Q6_K; the
// other quantized formats both in bf16.
struct CheckpointEnds {
  WeightFormat embedding;
  WeightFormat head;
};

inline CheckpointEnds checkpoint_ends(const WeightFormat& f) {
  if (f.bits_per_value >= 16 || f == formats::q8_0) return {f, f};
  if (f == formats::q4_0 || f == formats::q6_k) return {f, formats::q6_k};
  return {formats::bf16, formats::bf16};
}

// Memory of `params` weights stored in `format`.
inline DataSize weight_memory(const Count& params, const WeightFormat& format) {
  if (params < 0) detail::fail("params", params.str(), "is negative");
  require_positive(format.bits_per_value, "bits_per_value");
  return format.size_of(params);
}

}  // namespace capplan
