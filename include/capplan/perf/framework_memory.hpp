// What of a training framework the memory model reads, in one place: every training budget built from
// a perf::Framework (the plan search, train's lower bounds and hints, capplan memory) goes through
// apply_framework, so memory and time count the same bytes.
#pragma once

#include "capplan/memory/budget.hpp"
#include "capplan/perf/framework.hpp"

namespace capplan::perf {

inline void apply_framework(TrainingConfig& cfg, const Framework& fw) {
  cfg.flash_attention = fw.flash_attention;
  cfg.gradient_bytes = fw.master_grad_bytes;  // fp32 main gradients (Megatron-Core, FSDP) or 16-bit
  cfg.fp32_params = fw.fp32_params;           // the fp32 parameters are the master copy
  cfg.vocab_multiple = fw.vocab_multiple;     // padded rows in the embedding, output head and logits
  cfg.eager = fw.eager;                       // unfused kernels' activations, autocast's weight copies
}

}  // namespace capplan::perf
