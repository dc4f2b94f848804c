// How a training job is laid out on its GPUs, as one plan that the FLOP counts (compute/), the
// memory budget (memory/) and the time estimate and plan search (perf/) all read:
//
//   ParallelPlan p;                     // tp x pp x dp GPUs
//   p.tp = 8; p.pp = 2; p.dp = 4;
//   p.zero_stage = ZeroStage::optimizer;
//   p.recompute = Recompute::selective;
//
// It lives below all of them (a lower layer never includes a higher one), so each uses this type.
#pragma once

#include <cstdint>
#include <string_view>

namespace capplan {

// What the training step recomputes in the backward pass (Korthikanti et al. 2022, §5).
enum class Recompute {
  none,       // activations kept: hardware FLOPs = model FLOPs
  selective,  // only the attention-score part (QK^T, softmax, attention over V) is recomputed
  full,       // every layer's forward is run again
};

inline constexpr std::string_view name(Recompute r) {
  switch (r) {
    case Recompute::none: return "none";
    case Recompute::selective: return "selective";
    case Recompute::full: return "full";
  }
  return "?";
}

// ZeRO stages (Rajbhandari et al. 2020, §5): what is sharded over the data-parallel GPUs. PyTorch
// FSDP FULL_SHARD is `parameters`, SHARD_GRAD_OP `gradients` (Zhao et al. 2023, §3.2.1). The
// values are the stage numbers people write ("ZeRO 3").
enum class ZeroStage { none = 0, optimizer = 1, gradients = 2, parameters = 3 };

struct ParallelPlan {
  int tp = 1;                    // Megatron tensor parallel: splits heads and FFN columns
  int pp = 1;                    // pipeline stages; the first holds ceil(layers / pp) layers
  int dp = 1;                    // data-parallel replicas
  std::int64_t micro_batch = 1;  // sequences per micro-batch
  ZeroStage zero_stage = ZeroStage::none;
  Recompute recompute = Recompute::none;
  bool sequence_parallel = false;  // Megatron sequence parallelism (Korthikanti et al. 2022, §4.2.2)
  int interleave = 1;              // model chunks per GPU, interleaved 1F1B (Narayanan et al. 2021, §2.2)
  int ep = 1;                      // expert parallel (MoE): routed experts spread over ep of the dp GPUs

  [[nodiscard]] int gpus() const { return tp * pp * dp; }
};

}  // namespace capplan
