// What of a training framework the memory model reads, in one place: every training budget built from
// a perf::Framework (the plan search, train's lower bounds and hints, capplan memory) goes through
// apply_framework, so memory and time count the same bytes.
#pragma once

#include "capplan/memory/budget.hpp"
#include "capplan/perf/framework.hpp"
#include "capplan/perf/quantization.hpp"

namespace capplan::perf {

inline void apply_framework(TrainingConfig& cfg, const Framework& fw) {
  cfg.flash_attention = fw.flash_attention;
  cfg.gradient_bytes = fw.master_grad_bytes;  // fp32 main gradients (Megatron-Core, FSDP) or 16-bit
  cfg.fp32_params = fw.fp32_params;           // the fp32 parameters are the master copy
  cfg.vocab_multiple = fw.vocab_multiple;     // padded rows in the embedding, output head and logits
  cfg.eager = fw.eager;                       // unfused kernels' activations, autocast's weight copies
  cfg.dropout = fw.dropout;                   // dropout masks only with dropout on
  cfg.fused_activation = fw.fused_activation; // a fused SwiGLU keeps gate and up only
  cfg.moe_a2a_overlap = fw.moe_a2a_overlap;   // one more warm-up forward on an interleaved pipeline
}

// What the job's precision changes in memory: FP8 and FP4 training keep the linear layers' inputs in
// Transformer Engine's quantized copies (perf/quantization.hpp saved_linear_input_bytes) where the
// framework runs it (Framework::quantized_linear_inputs). `precision` is the one the GPU runs.
inline void apply_precision(TrainingConfig& cfg, const Framework& fw, Precision precision, Fp8Recipe recipe) {
  cfg.linear_input_bytes = fw.quantized_linear_inputs ? saved_linear_input_bytes(precision, recipe) : 0;
}

}  // namespace capplan::perf
