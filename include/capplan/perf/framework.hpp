// How a training framework runs a plan (perf/training.hpp reads it): which kernels are fused, what it
// overlaps, what it sends; and the presets of the frameworks behind the published runs.
#pragma once

#include "capplan/detail/enum_names.hpp"
#include "capplan/error.hpp"
#include "capplan/hardware/precision.hpp"

#include <boost/describe/enum.hpp>

#include <string>
#include <string_view>

namespace capplan::perf {

// The fused attention kernel a framework runs (with flash_attention on). Their rates on Hopper are
// FlashAttention-3's figures (Shah et al. 2024, arXiv 2407.08608, Figs. 5-6: H100 SXM5, head dim 128,
// 16K tokens), where cuDNN 9.1's are measured beside FA2's and FA3's; off Hopper, FlashAttention-3
// does not run and no cuDNN rate is published, so cudnn takes FlashAttention-2's (efficiency.hpp).
//   flash2  FlashAttention-2 (Dao 2023): PyTorch SDPA's and most frameworks' kernel
//   flash3  FlashAttention-3, Hopper only: 616 TF/s forward (causal), 561 backward
//   cudnn   cuDNN fused attention: Transformer Engine's choice on Hopper, so Megatron-Core's and
//           NeMo's (TE get_attention_backend prefers FusedAttention on sm90+): 539 forward, 516 backward
enum class AttentionKernel { flash2, flash3, cudnn };
BOOST_DESCRIBE_ENUM(AttentionKernel, flash2, flash3, cudnn)
inline constexpr std::string_view name(AttentionKernel k) { return capplan::detail::enum_name(k); }

// How a training framework runs: fused kernels, what it overlaps, what it sends.
// A MoE capacity factor: finite, above 0 and at most the 64 that no published run comes near (GShard's
// and Switch's are 1 to 2). InputError naming `field` otherwise.
inline double require_moe_capacity_factor(double c, std::string_view field) {
  require_positive(c, field);
  if (c > 64) capplan::detail::fail(field, capplan::detail::format_double(c), "is above 64 (published runs use 1 to 2)");
  return c;
}

struct Framework {
  std::string name = "generic (PyTorch FSDP/DDP style)";
  bool flash_attention = true;
  AttentionKernel attention_kernel = AttentionKernel::flash2;  // which fused kernel (flash_attention on)
  bool dropout = false;
  bool overlap_grad_reduce = true;   // data-parallel gradient reduction overlapped with backward (DDP buckets)
  bool overlap_param_gather = true;  // ZeRO-3 / FSDP prefetch of the next layer's weights
  double grad_reduce_bytes = 2;      // bytes per gradient element in the data-parallel reduction
  double param_gather_bytes = 2;     // bytes per weight element in ZeRO all-gathers
  double master_grad_bytes = 4;      // gradient bytes the optimizer reads per parameter
  // Speed of the framework's fused attention kernel relative to FlashAttention-2 (forward, backward):
  // 1 for FlashAttention-2 itself; FlashAttention in Triton runs 1.3-1.5x slower forward and ~2x slower
  // backward (Dao 2023, FlashAttention-2 §4.1).
  double attention_forward_speed = 1.0;
  double attention_backward_speed = 1.0;
  // Bytes the optimizer step moves per parameter of this GPU's shard; 0: a fused Adam that reads and
  // writes each fp32 state once (12 + gradient + 12 + weight bytes).
  double optimizer_bytes_per_param = 0;
  // Mixture of experts: the tokens each routed expert computes and exchanges, relative to a perfectly
  // balanced share. 1: balanced, what a dropless router with a load-balancing loss aims at (Megatron-Core's
  // default, moe_expert_capacity_factor None). Token-dropping frameworks pad every expert's buffer to the
  // capacity factor c: capacity = tokens x k / experts x c (Lepikhin et al. 2021, GShard §2.2; Fedus et al.
  // 2022, Switch Transformer §2.2, trained with c = 1.0 and 1.25, Table 1; DeepSpeed-MoE's capacity_factor
  // defaults to 1.0). For a dropless run whose load is uneven, the busiest expert's load over the mean.
  double moe_capacity_factor = 1.0;

  void validate() const {
    require_positive(grad_reduce_bytes, "grad_reduce_bytes");
    require_positive(param_gather_bytes, "param_gather_bytes");
    require_positive(master_grad_bytes, "master_grad_bytes");
    require_fraction(attention_forward_speed, "attention_forward_speed");
    require_positive(attention_forward_speed, "attention_forward_speed");
    require_fraction(attention_backward_speed, "attention_backward_speed");
    require_positive(attention_backward_speed, "attention_backward_speed");
    require_nonnegative(optimizer_bytes_per_param, "optimizer_bytes_per_param");
    require_moe_capacity_factor(moe_capacity_factor, "moe_capacity_factor");
  }
};

// Megatron-LM as in Narayanan et al. 2021: fused scale-mask-softmax but no FlashAttention (2022),
// dropout 0.1, fp16 gradients all-reduced after the backward pass of the whole batch
// (megatron/training.py train_step: model.allreduce_gradients() after backward; overlap came in 2023).
inline Framework megatron_lm_2021() {
  Framework f;
  f.name = "Megatron-LM (2021)";
  f.flash_attention = false;
  f.dropout = true;
  f.overlap_grad_reduce = false;
  f.grad_reduce_bytes = 2;
  f.master_grad_bytes = 2;
  return f;
}

// PyTorch FSDP FULL_SHARD with FlashAttention, no dropout (MosaicML llm-foundry / Composer, 2023):
// bf16 weight all-gathers prefetched, gradients reduce-scattered in fp32 (Composer mixed precision DEFAULT).
inline Framework pytorch_fsdp() {
  Framework f;
  f.name = "PyTorch FSDP + FlashAttention";
  f.flash_attention = true;
  f.dropout = false;
  f.overlap_grad_reduce = true;
  f.overlap_param_gather = true;
  f.grad_reduce_bytes = 4;
  f.param_gather_bytes = 2;
  f.master_grad_bytes = 4;
  return f;
}

// MosaicML llm-foundry's published benchmarks (scripts/train/benchmarking/README.md, 2023): PyTorch FSDP
// FULL_SHARD as in pytorch_fsdp(), with what its benchmark harness documents:
// - attention: `--attn_impl` defaults to `triton` in scripts/train/benchmarking/submit_benchmarks.py, the
//   Triton FlashAttention kernel: 1/1.4 of FlashAttention-2's forward speed (1.3-1.5x) and 1/2 of its
//   backward (Dao 2023, FlashAttention-2 §4.1);
// - optimizer: Composer's DecoupledAdamW, one PyTorch kernel per operation over fp32 tensors
//   (param.mul_, exp_avg.mul_.add_, exp_avg_sq.mul_.addcmul_, sqrt, div, add_, param.addcdiv_):
//   8 + 8 + 12 + 8 + 12 + 8 + 8 + 8 + 16 = 88 B per parameter, plus gradient-norm clipping (the yamls'
//   gradient_clipping: read for the norm, scale in place: 12 B) = 100 B instead of a fused Adam's 30.
inline Framework llm_foundry_2023() {
  Framework f = pytorch_fsdp();
  f.name = "llm-foundry 2023 (PyTorch FSDP + Triton FlashAttention, Composer DecoupledAdamW)";
  f.attention_forward_speed = 1.0 / 1.4;
  f.attention_backward_speed = 1.0 / 2.0;
  f.optimizer_bytes_per_param = 100;
  return f;
}

}  // namespace capplan::perf
