// The training-time estimator's arithmetic (perf/training.hpp is its interface): the job and the
// estimate records, each layer's kernel costs under a plan, the plan's validity, and every number of one
// estimate before any text (detail::training_numbers). The formulas are those of perf/training.hpp's
// header comment.
#pragma once

#include "capplan/compute/flops.hpp"
#include "capplan/error.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/memory/budget.hpp"
#include "capplan/perf/communication.hpp"
#include "capplan/perf/efficiency.hpp"
#include "capplan/perf/explain.hpp"
#include "capplan/perf/framework_memory.hpp"
#include "capplan/perf/quantization.hpp"
#include "capplan/perf/roofline.hpp"
#include "capplan/units/quantity.hpp"
#include "capplan/workload/parallel_plan.hpp"
#include "capplan/workload/params.hpp"
#include "capplan/workload/transformer.hpp"
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>
#include "capplan/perf/framework.hpp"

namespace capplan::perf {

struct TrainingJob {
  TransformerShape model;
  double parameters = 0;          // total parameters; 0: parameter_count(model) (workload/params.hpp)
  std::int64_t global_batch = 0;  // sequences per iteration
  std::int64_t seq_len = 0;       // 0: model.seq_len
  Precision precision = Precision::bf16;
  // FLOPs per token that MFU counts; default: model_flops_per_iteration(model) of compute/flops.hpp
  // (3 x forward, attention counted in full) divided by the tokens.
  std::optional<double> model_flops_per_token;
  // Measured model-FLOPs utilization: when given, the iteration time follows from it instead of the model.
  std::optional<double> measured_mfu;
  // Parameters inside routed experts (MoE); default: the shape's share of `parameters` (workload/params.hpp).
  std::optional<double> expert_parameters;
  // Fine-tuning: full (every weight trained), or LoRA / QLoRA adapters beside frozen base weights
  // (memory/budget.hpp; the time model: detail::layer_costs and docs/performance.md, "Fine-tuning").
  FineTune finetune = FineTune::full;
  LoraOptions lora;  // with finetune lora or qlora
  // How FP8 scales its tensors (precision fp8; perf/quantization.hpp). FP4 is NVFP4's one recipe.
  Fp8Recipe fp8_recipe = Fp8Recipe::delayed;
  // Multi-token-prediction layers trained beside the model (DeepSeek-V3 §2.2; Megatron-Core
  // --mtp-num-layers), on the last pipeline stage: each a transformer layer of the model's kind, a
  // 2h x h projection of [h; embedding] and another pass through the shared output layer and its loss
  // per token. 0 to 16.
  int mtp_layers = 0;
};

struct TrainingEstimate {
  ParallelPlan plan;
  Duration iteration{};
  double tokens_per_second = 0;
  double samples_per_second = 0;
  std::int64_t micro_batches = 0;
  double bubble_fraction = 0;        // bubble time / iteration
  FlopCount model_flops{};           // per iteration, all GPUs
  FlopCount hardware_flops{};        // per iteration, all GPUs, with recomputation
  FlopRate model_rate_per_gpu{};
  FlopRate hardware_rate_per_gpu{};  // what Megatron-LM reports as "TFLOP/s per GPU"
  double mfu = 0;
  double hfu = 0;
  Breakdown breakdown;

  // Wall-clock time to train on `tokens` tokens.
  [[nodiscard]] Duration time_for_tokens(double tokens) const {
    require_nonnegative(tokens, "tokens");
    return from_canonical<Duration>(tokens / tokens_per_second);
  }
  // GPU-hours for `tokens` tokens on plan.gpus() GPUs.
  [[nodiscard]] double gpu_hours_for_tokens(double tokens) const {
    return time_for_tokens(tokens).value() / 3600.0 * plan.gpus();
  }
  [[nodiscard]] std::string explain() const {
    std::string s = "iteration " + format(iteration, {.significant = 4}) + ": tp " + std::to_string(plan.tp) +
                    (plan.cp > 1 ? " x cp " + std::to_string(plan.cp) : "") + " x pp " +
                    std::to_string(plan.pp) + " x dp " + std::to_string(plan.dp) + ", micro-batch " +
                    std::to_string(plan.micro_batch) + " x " + std::to_string(micro_batches) + ", ZeRO " +
                    std::to_string(static_cast<int>(plan.zero_stage)) + ", recompute " + recompute_text(plan) +
                    (plan.sequence_parallel ? ", sequence parallel" : "") +
                    (plan.interleave > 1 ? ", interleave " + std::to_string(plan.interleave) : "") +
                    (plan.ep > 1 ? ", expert parallel " + std::to_string(plan.ep) : "") + "\n";
    s += breakdown.text();
    s += "  " + num(tokens_per_second) + " tokens/s, " + format(hardware_rate_per_gpu) + " per GPU (hardware), MFU " +
         num(100 * mfu, 3) + " %, HFU " + num(100 * hfu, 3) + " %\n";
    return s;
  }
};

// Megatron-LM's end-to-end estimate: time = 8 T P / (n X) for T tokens, P parameters, n GPUs at X
// FLOP/s each, with activation recomputation (Narayanan et al. 2021, §5.1, eq. 4).
inline Duration megatron_training_time(double tokens, double parameters, int gpus, FlopRate per_gpu) {
  require_positive(tokens, "tokens");
  require_positive(parameters, "parameters");
  require_positive_count(gpus, "gpus");
  require_positive(per_gpu.value(), "per_gpu");
  const double seconds = 8.0 * tokens * parameters / (gpus * per_gpu.value());
  // Finite inputs can still overflow the product (tokens near the largest double): an error, not infinity.
  if (!std::isfinite(seconds))
    capplan::detail::fail("tokens", capplan::detail::format_double(tokens),
                          "times " + capplan::detail::format_double(parameters) + " parameters gives a time beyond any number");
  return from_canonical<Duration>(seconds);
}

// Expected number of distinct nodes a token's k routed experts lie on, the EP group's experts spread
// evenly over `nodes` nodes and the router balanced (each token's k experts a uniform draw without
// replacement): N (1 - P(none on a given node)), P = prod_{i<k} (E - E/N - i) / (E - i). Group-limited
// routing (MoeShape::expert_groups, groups_per_token: DeepSeek-V3's at most 4 nodes per token) draws
// the k from the T chosen of G groups: with groups spanning N/G nodes each, from T N/G nodes; with
// G/N groups per node, from the nodes the T groups lie on.
inline double distinct_nodes(double nodes, double experts, double k) {
  if (nodes <= 1) return 1;
  double none = 1;
  for (int i = 0; i < static_cast<int>(k); ++i) none *= std::max(0.0, (experts - experts / nodes - i) / (experts - i));
  return nodes * (1 - none);
}
inline double expected_token_nodes(const MoeShape& m, int nodes) {
  if (nodes <= 1) return 1;
  const double n = nodes, e = m.experts, k = m.experts_per_token;
  const double free = distinct_nodes(n, e, k);
  if (m.expert_groups <= 0 || m.groups_per_token <= 0) return free;
  const double g = m.expert_groups, t = m.groups_per_token;
  if (n >= g) return distinct_nodes(t * n / g, e * t / g, k);
  return std::min(free, distinct_nodes(n, g, t));  // the nodes the t groups lie on (g / n groups each)
}

}  // namespace capplan::perf

namespace capplan::detail {

// Times (s) and FLOPs of one layer for one micro-batch on one GPU; recomputation for full and for
// each module selective recomputation can run again, so one computation serves every choice.
struct PassCost {
  double fwd = 0, bwd = 0;
  double flops_fwd = 0, flops_bwd = 0;
  double recompute_full = 0, flops_recompute_full = 0;
  // Forward time and FLOPs of each recompute_module's kernels (workload/parallel_plan.hpp), by bit.
  std::array<double, recompute_module::slots> module_time{}, module_flops{};
  double attn_fwd = 0, attn_bwd = 0;  // the attention core's share (what context parallelism overlaps its ring with)

  // What recomputation `r` with selective's `modules` (ParallelPlan::recompute_modules) runs again.
  [[nodiscard]] double recompute(Recompute r, std::uint8_t modules = 0) const {
    return r == Recompute::full ? recompute_full : modules_time(recomputed_modules(r, modules));
  }
  [[nodiscard]] double flops_recompute(Recompute r, std::uint8_t modules = 0) const {
    return r == Recompute::full ? flops_recompute_full : modules_flops(recomputed_modules(r, modules));
  }
  // Every time scaled by k, the FLOPs kept (Framework::kernel_time_scale).
  void scale_time(double k) {
    fwd *= k;
    bwd *= k;
    recompute_full *= k;
    for (double& t : module_time) t *= k;
    attn_fwd *= k;
    attn_bwd *= k;
  }
  // Forward time and FLOPs of exactly the module set `m` (with what moe includes).
  [[nodiscard]] double modules_time(std::uint8_t m) const { return sum(m, module_time); }
  [[nodiscard]] double modules_flops(std::uint8_t m) const { return sum(m, module_flops); }

 private:
  static double sum(std::uint8_t m, const std::array<double, recompute_module::slots>& by_module) {
    m = recompute_module::closure(m);
    double t = 0;
    for (int i = 0; i < recompute_module::slots; ++i)
      if (m & (1u << i)) t += by_module[static_cast<std::size_t>(i)];
    return t;
  }
};

// `frozen`: the weights take no gradient (LoRA / QLoRA base weights), so a weight GEMM's backward
// is its input gradient only; attention GEMMs (no weights) keep both.
template <class Ops>
inline PassCost cost_of(const Ops& ops, const perf::DeviceRates& r, bool frozen = false) {
  PassCost c;
  for (const perf::Op& op : ops) {
    const double tf = r.time(op);
    double tb = 0, fb = 0;
    switch (op.kind) {
      case perf::OpKind::gemm:
      case perf::OpKind::attention_gemm: {
        // Backward: input gradient dA = dC B^T (m x k over n) and weight gradient dB = A^T dC (k x n over m).
        // Both move the same three matrices and do the forward's FLOPs (gemm() of roofline.hpp, shapes swapped).
        perf::Op dgrad = op;
        dgrad.n = op.k;
        dgrad.k = op.n;
        perf::Op wgrad = op;
        wgrad.m = op.k;
        wgrad.k = op.m;
        const bool weight_gradient = !(frozen && op.kind == perf::OpKind::gemm);
        tb = r.time(dgrad) + (weight_gradient ? r.time(wgrad) : 0.0);
        fb = dgrad.flops + (weight_gradient ? wgrad.flops : 0.0);
        break;
      }
      case perf::OpKind::flash_attention: {
        // FlashAttention backward: 5 matmuls to the forward's 2 (2.5x FLOPs), reads Q K V O dO, writes dQ dK dV
        // (Dao 2023, FlashAttention-2 §3.2).
        perf::Op b = op;
        b.flops = 2.5 * op.flops;
        b.bytes = 2.0 * op.bytes;
        tb = r.time(b, true);
        fb = b.flops;
        break;
      }
      case perf::OpKind::elementwise:
      case perf::OpKind::optimizer: {
        // Backward of an element-wise op reads the output gradient and the saved input, writes the input gradient.
        perf::Op b = op;
        b.bytes = 2.0 * op.bytes;
        tb = r.time(b);
        break;
      }
    }
    c.fwd += tf;
    c.bwd += tb;
    if (op.kind == perf::OpKind::attention_gemm || op.kind == perf::OpKind::flash_attention) {
      c.attn_fwd += tf;
      c.attn_bwd += tb;
    }
    c.flops_fwd += op.flops;
    c.flops_bwd += fb;
    c.recompute_full += tf;
    c.flops_recompute_full += op.flops;
    // Selective recomputation reruns the forward kernels of its modules (perf/roofline.hpp tags each
    // kernel with its module). The attention core is QK^T, softmax, dropout, PV (Korthikanti et al.
    // 2022, §5), or the fused kernel that runs them: Megatron-Core checkpoints the core attention
    // around whatever kernel runs it (megatron/core/transformer/attention.py: checkpoint_core_attention
    // when core_attn is among the recompute modules, then _checkpointed_attention_forward through
    // tensor_parallel.checkpoint), so a FlashAttention or cuDNN kernel's forward runs again in the
    // backward pass, before the kernel's own backward.
    if (op.module > 0) {
      c.module_time[op.module - 1u] += tf;
      c.module_flops[op.module - 1u] += op.flops;
    }
  }
  return c;
}

// Both costs in one layer (a layer's kernels and the adapters beside them).
inline PassCost operator+(const PassCost& a, const PassCost& b) {
  PassCost c;
  c.fwd = a.fwd + b.fwd;
  c.bwd = a.bwd + b.bwd;
  c.flops_fwd = a.flops_fwd + b.flops_fwd;
  c.flops_bwd = a.flops_bwd + b.flops_bwd;
  c.recompute_full = a.recompute_full + b.recompute_full;
  c.flops_recompute_full = a.flops_recompute_full + b.flops_recompute_full;
  for (std::size_t i = 0; i < c.module_time.size(); ++i) {
    c.module_time[i] = a.module_time[i] + b.module_time[i];
    c.module_flops[i] = a.module_flops[i] + b.module_flops[i];
  }
  c.attn_fwd = a.attn_fwd + b.attn_fwd;
  c.attn_bwd = a.attn_bwd + b.attn_bwd;
  return c;
}

// The linear GEMMs of `ops` alone (the other ops are skipped), their inputs already quantized
// (forward, input gradient and weight gradient of each, as cost_of): quantized operands with their
// block scales, the output in BF16, at the recipe's kernel rate (QuantizationCost::kernel_rate).
inline PassCost quantized_gemm_cost(const perf::OpList& ops, const perf::DeviceRates& rq, const perf::QuantizationCost& q,
                                    bool frozen = false) {
  perf::OpList linear;
  linear.count = 0;
  for (const perf::Op& op : ops) {
    if (op.kind != perf::OpKind::gemm) continue;
    perf::Op g = op;
    const double m = static_cast<double>(op.m), n = static_cast<double>(op.n), k = static_cast<double>(op.k);
    g.bytes = static_cast<double>(op.batch) * ((m * k + k * n) * q.operand_bytes + 2.0 * m * n);
    linear.push_back(g);
  }
  if (q.kernel_rate == 1) return cost_of(linear, rq, frozen);
  perf::DeviceRates rk = rq;
  rk.best_fraction *= q.kernel_rate;
  return cost_of(linear, rk, frozen);
}

// FP8 and FP4 training as Transformer Engine runs them (perf/quantization.hpp has the recipes and their
// sources; Micikevicius et al. 2022, "FP8 Formats for Deep Learning", §4): only the linear layers'
// GEMMs take quantized inputs, at the FP8 or FP4 rate (`rq`); attention, norms, activations and the
// residual stream stay in BF16 (the layer's kernels are built at BF16 and costed at `r16`). Each GEMM
// input is quantized by a fused kernel: forward, the activation input; backward, the output gradient;
// `q` says how many bytes per element that moves (with and without a weight gradient) and what extra
// math it does. Weights are cast once per iteration (Megatron's is_first_microbatch caching), not
// counted here.
inline PassCost quantized_cost_of(const perf::OpList& ops, const perf::DeviceRates& rq, const perf::DeviceRates& r16,
                                  const perf::QuantizationCost& q, bool frozen = false) {
  perf::OpList rest;
  rest.count = 0;
  double cast_fwd = 0, cast_bwd = 0;  // elements quantized
  std::array<double, recompute_module::slots> cast_module{};  // forward elements quantized, by the GEMM's module
  for (const perf::Op& op : ops) {
    if (op.kind == perf::OpKind::gemm) {
      const double m = static_cast<double>(op.m), n = static_cast<double>(op.n), k = static_cast<double>(op.k);
      cast_fwd += static_cast<double>(op.batch) * m * k;
      cast_bwd += static_cast<double>(op.batch) * m * n;
      if (op.module > 0) cast_module[op.module - 1u] += static_cast<double>(op.batch) * m * k;
    } else {
      rest.push_back(op);
    }
  }
  PassCost c = quantized_gemm_cost(ops, rq, q, frozen) + cost_of(rest, r16, frozen);
  const double bytes = frozen ? q.cast_bytes_frozen : q.cast_bytes;
  // The Hadamard rotation applies to the weight-gradient inputs only (none when frozen).
  const double flops = frozen ? 0.0 : q.transform_flops;
  const auto cast = [&](const char* what, double elements) {
    perf::Op op = perf::elementwise(what, elements * bytes);
    op.flops = elements * flops;
    return r16.time(op);
  };
  const double tf = cast("quantization of GEMM inputs", cast_fwd);
  const double tb = cast("quantization of output gradients", cast_bwd);
  c.fwd += tf;
  c.bwd += tb;
  c.recompute_full += tf;
  // A recomputed module quantizes its GEMMs' inputs again.
  for (std::size_t i = 0; i < cast_module.size(); ++i)
    if (cast_module[i] > 0) c.module_time[i] += cast("quantization of GEMM inputs", cast_module[i]);
  return c;
}


// LoRA adapters of one layer for `tokens` tokens on one GPU (Hu et al. 2021, §4.1): beside each
// adapted weight W (d_in x d_out) the input goes through A (d_in x r) and B (r x d_out) and the
// result is added to W's output, as PEFT's LoraLayer does (lora_B(lora_A(x)) * scaling added to the
// base output; no dropout). Shards as the base weight: column-parallel matrices (q, k, v, gate, up)
// split d_out over tp, row-parallel ones (o, down) d_in. Adapters of routed experts see the tokens
// routed to them (tokens x k in all).
inline void lora_adapter_ops(perf::OpList& ops, const TransformerShape& shape, const LoraOptions& lora, std::int64_t tokens, int tp,
                             double e, bool moe_layer) {
  ops.count = 0;
  ops.module = 0;  // the MLP's adapters below carry the module that reruns them (Op::module)
  namespace rm = recompute_module;
  const std::int64_t r = lora.rank, h = shape.hidden;
  const std::int64_t q = static_cast<std::int64_t>(shape.heads) * shape.effective_head_dim();
  const std::int64_t kv = static_cast<std::int64_t>(shape.effective_kv_heads()) * shape.effective_head_dim();
  const auto adapter = [&](std::int64_t rows, std::int64_t d_in, std::int64_t d_out, std::int64_t batch) {
    ops.push_back(perf::gemm("lora A", rows, r, d_in, e, batch));
    ops.push_back(perf::gemm("lora B", rows, d_out, r, e, batch));
    ops.push_back(perf::elementwise("lora add", static_cast<double>(rows) * static_cast<double>(d_out) * static_cast<double>(batch) * 3 * e));
  };
  if (lora.q) adapter(tokens, h, std::max<std::int64_t>(1, q / tp), 1);
  if (lora.k) adapter(tokens, h, std::max<std::int64_t>(1, kv / tp), 1);
  if (lora.v) adapter(tokens, h, std::max<std::int64_t>(1, kv / tp), 1);
  if (lora.o) adapter(tokens, std::max<std::int64_t>(1, q / tp), h, 1);
  if (!lora.mlp) return;
  const int mats = shape.gated_mlp ? 2 : 1;  // column-parallel FFN inputs (gate and up), then down
  if (shape.moe && moe_layer) {
    const MoeShape& m = *shape.moe;
    const std::int64_t f = std::max<std::int64_t>(1, m.moe_ffn_hidden / tp);
    const std::int64_t rows = std::max<std::int64_t>(1, tokens * m.experts_per_token / std::max(1, m.experts));
    ops.module = rm::tag(rm::moe);
    for (int i = 0; i < mats; ++i) adapter(rows, h, f, m.experts);
    adapter(rows, f, h, m.experts);
    if (m.shared_experts > 0) {
      ops.module = rm::tag(rm::shared_experts);
      for (int i = 0; i < mats; ++i) adapter(tokens, h, f * m.shared_experts, 1);
      adapter(tokens, f * m.shared_experts, h, 1);
    }
  } else {
    const std::int64_t f = std::max<std::int64_t>(1, shape.effective_ffn_hidden() / tp);
    ops.module = rm::tag(rm::mlp);
    for (int i = 0; i < mats; ++i) adapter(tokens, h, f, 1);
    adapter(tokens, f, h, 1);
  }
  ops.module = 0;
}

// QLoRA: bitsandbytes stores the frozen linear weights in NF4 and dequantizes each to bf16 before its
// matmul, in the forward pass and again for the input gradient of the backward pass (Dettmers et al.
// 2023, §3: "we dequantize the storage data type to the computation data type to perform the forward
// and backward pass"). Each dequantization reads the NF4 blocks with their constants and writes the
// bf16 copy, which the GEMM then reads (that read is the GEMM's own). Adds one pass over `ops` to
// the forward and the backward, and to what recomputing each GEMM's module (or the layer) reruns.
inline void add_nf4_dequantize(PassCost& c, const perf::OpList& ops, const perf::DeviceRates& r) {
  for (const perf::Op& op : ops) {
    if (op.kind != perf::OpKind::gemm) continue;
    const double weights = static_cast<double>(op.k) * static_cast<double>(op.n) * static_cast<double>(op.batch);
    const double t = r.time(perf::elementwise("nf4 dequantize", weights * (formats::nf4.bits_per_value / 8 + 2)));
    c.fwd += t;
    c.bwd += t;
    c.recompute_full += t;
    if (op.module > 0) c.module_time[op.module - 1u] += t;
  }
}

// Weighted mean of two layer kinds (wa layers of a, wb of b).
inline PassCost blend(const PassCost& a, double wa, const PassCost& b, double wb) {
  const double n = wa + wb;
  auto mix = [&](double x, double y) { return (wa * x + wb * y) / n; };
  PassCost c;
  c.fwd = mix(a.fwd, b.fwd);
  c.bwd = mix(a.bwd, b.bwd);
  c.flops_fwd = mix(a.flops_fwd, b.flops_fwd);
  c.flops_bwd = mix(a.flops_bwd, b.flops_bwd);
  c.recompute_full = mix(a.recompute_full, b.recompute_full);
  c.flops_recompute_full = mix(a.flops_recompute_full, b.flops_recompute_full);
  for (std::size_t i = 0; i < c.module_time.size(); ++i) {
    c.module_time[i] = mix(a.module_time[i], b.module_time[i]);
    c.module_flops[i] = mix(a.module_flops[i], b.module_flops[i]);
  }
  c.attn_fwd = mix(a.attn_fwd, b.attn_fwd);
  c.attn_bwd = mix(a.attn_bwd, b.attn_bwd);
  return c;
}

// One transformer layer and the output layer, for one micro-batch on one GPU.
struct LayerCosts {
  PassCost layer;
  PassCost output;
  // Host seconds to launch a micro-batch's forward and backward kernels of the mean layer and of the
  // output layer (Framework::cpu_seconds_per_kernel: the forward's kernels once, the backward's twice).
  double host_layer = 0, host_output = 0;
};

}  // namespace capplan::detail

namespace capplan::perf {

// The forward and backward rates (relative to the best GEMM rate) of a fused attention kernel on the
// GPU behind `rates`: FlashAttention-2's unless the kernel's own were measured there. FlashAttention-3
// runs on Hopper only (InputError elsewhere); cuDNN falls back to FlashAttention-2's rates off Hopper.
inline std::pair<double, double> attention_kernel_rates(AttentionKernel k, const DeviceRates& rates) {
  switch (k) {
    case AttentionKernel::flash2: break;
    case AttentionKernel::flash3:
      if (!(rates.fa3_fwd > 0))
        capplan::detail::fail("attention_kernel", "flash3", "runs on Hopper GPUs (H100, H200, H800) only; use flash2 or cudnn");
      return {rates.fa3_fwd, rates.fa3_bwd};
    case AttentionKernel::cudnn:
      if (rates.cudnn_fwd > 0) return {rates.cudnn_fwd, rates.cudnn_bwd};
      break;
  }
  return {rates.flash_fwd, rates.flash_bwd};
}

// Kernel costs of a layer and of the output layer under a plan's tp, micro-batch and sequence
// parallelism (the only plan dimensions they depend on).
// With context parallelism each GPU runs seq / cp tokens of every sequence and attends them to all seq keys.
inline detail::LayerCosts layer_costs(const TrainingJob& job, int tp, std::int64_t micro_batch, bool sequence_parallel,
                                               const Framework& fw, const DeviceRates& rates, int ep = 1, int cp = 1, int etp = 0) {
  const std::int64_t full_seq = job.seq_len > 0 ? job.seq_len : job.model.seq_len;
  require_positive_count(full_seq, "seq_len");
  require_positive_count(cp, "cp");
  if (cp > 1 && !fw.flash_attention)
    capplan::detail::fail("cp", std::to_string(cp), "needs FlashAttention: ring attention runs in the fused kernel");
  if (fw.eager && (job.precision == Precision::fp8 || job.precision == Precision::fp4))
    capplan::detail::fail("precision", std::string(name(job.precision)), "is not run by eager PyTorch (torch.autocast runs bf16, fp16 or fp32)");
  const std::int64_t seq = full_seq / cp;
  const std::int64_t tokens_mb = micro_batch * seq;
  LayerOptions lo;
  lo.flash_attention = fw.flash_attention;
  lo.dropout = fw.dropout;
  lo.eager = fw.eager;
  lo.sequence_parallel = sequence_parallel;
  lo.expert_parallel = ep;
  lo.expert_tensor_parallel = etp;
  lo.context_parallel = cp;
  lo.expert_capacity_factor = fw.moe_capacity_factor;
  lo.moe_gemm_per_expert = fw.moe_gemm_per_expert;
  // The framework's attention kernel: its measured rates where the calibration has them, then the
  // framework's speed relative to it (Triton FlashAttention).
  DeviceRates r = rates;
  std::tie(r.flash_fwd, r.flash_bwd) = attention_kernel_rates(fw.attention_kernel, rates);
  r.flash_fwd *= fw.attention_forward_speed;
  r.flash_bwd *= fw.attention_backward_speed;
  // Each layer kind's attention at the length its keys span (efficiency.hpp attention_length_factor,
  // set in add_kind below): the sequence, or a sliding window's tokens; with context parallelism too, a
  // rank attends its seq / cp queries to all seq keys, and Transformer Engine's ring runs the steps'
  // kernels on two streams so one's tail overlaps the next, as one kernel over the whole keys would.
  const double flash_fwd_16k = r.flash_fwd, flash_bwd_16k = r.flash_bwd;
  // Fine-tuning with adapters: the base weights are frozen (no weight gradients), the adapters run
  // beside them, and QLoRA dequantizes the NF4 weights before every forward and input-gradient GEMM.
  const bool frozen = job.finetune != FineTune::full;
  const double e = bytes_per_element(job.precision);
  // FP8 and FP4: the layer's kernels at BF16, its linear GEMMs at the FP8 or FP4 rates under the job's
  // recipe (detail::quantized_cost_of, perf/quantization.hpp).
  const bool quantized = (job.precision == Precision::fp8 || job.precision == Precision::fp4) && rates.bf16_peak > 0;
  const Precision kernels = quantized ? Precision::bf16 : job.precision;
  DeviceRates r16 = r;
  QuantizationCost qc;
  if (quantized) {
    r16.peak = rates.bf16_peak;
    r16.best_fraction = rates.bf16_best_fraction;
    r16.k_fill = k_fill_depth(r16.peak, r16.sm_count);
    qc = quantization_cost(job.precision, job.fp8_recipe, rates.quant);
  }
  const auto base_cost = [&](const OpList& ops) {
    return quantized ? detail::quantized_cost_of(ops, r, r16, qc, frozen) : detail::cost_of(ops, r, frozen);
  };
  const auto layer_cost = [&](const OpList& ops, bool moe_layer) {
    detail::PassCost cost = base_cost(ops);
    if (!frozen) return cost;
    OpList adapters;
    // Adapters are BF16 modules beside the frozen weights (PEFT; NeMo's LoRA), also under FP8.
    detail::lora_adapter_ops(adapters, job.model, job.lora, tokens_mb, tp, quantized ? 2.0 : e, moe_layer);
    cost = cost + detail::cost_of(adapters, r16);
    if (job.finetune == FineTune::qlora) detail::add_nf4_dequantize(cost, ops, r);
    return cost;
  };
  // The host launches every kernel (Framework::cpu_seconds_per_kernel): the forward's kernels, and the
  // backward's, about two per forward kernel (autograd); training_numbers takes the larger of a
  // micro-batch's GPU time and this.
  const auto host_seconds = [&](const OpList& ops) {
    double launches = 0;
    for (const Op& op : ops) launches += op.kernels;
    return 3 * launches * fw.cpu_seconds_per_kernel;
  };
  detail::LayerCosts c;
  OpList ops;
  // The mean layer over up to four kinds: dense or MoE FFN (a MoE model's leading dense layers), global
  // or sliding-window attention (stage balance is not modelled per layer).
  const bool moe = job.model.moe.has_value();
  const int dense_n = moe ? job.model.moe->first_dense_layers : job.model.layers;  // layers with a dense FFN
  const int moe_n = job.model.layers - dense_n;
  const int dense_windowed = job.model.windowed_layers(0, dense_n);
  const int moe_windowed = job.model.windowed_layers(dense_n, moe_n);
  const std::int64_t window = job.model.window ? job.model.window->tokens : 0;
  int counted = 0;
  const auto add_kind = [&](bool moe_layer, bool windowed, int count) {
    if (count == 0) return;
    lo.moe_layer = moe_layer;
    lo.window = windowed ? window : 0;
    const std::int64_t span = windowed ? std::min(full_seq, window) : full_seq;
    r.flash_fwd = r16.flash_fwd = flash_fwd_16k * attention_length_factor(rates.attention_s0_fwd, span);
    r.flash_bwd = r16.flash_bwd = flash_bwd_16k * attention_length_factor(rates.attention_s0_bwd, span);
    transformer_layer_ops(ops, job.model, tokens_mb, seq, tp, kernels, lo);
    const detail::PassCost cost = layer_cost(ops, moe && moe_layer);
    c.layer = counted == 0 ? cost : detail::blend(c.layer, counted, cost, count);
    c.host_layer = (c.host_layer * counted + host_seconds(ops) * count) / (counted + count);
    counted += count;
  };
  add_kind(false, false, dense_n - dense_windowed);
  add_kind(false, true, dense_windowed);
  add_kind(true, false, moe_n - moe_windowed);
  add_kind(true, true, moe_windowed);
  if (job.model.vocab > 0) {
    // The output head is not adapted and stays in bf16 under QLoRA (memory/budget.hpp): frozen, no dequantization.
    // Under FP8 and FP4 it runs in BF16 too (Megatron's output layer is not a Transformer Engine module).
    output_layer_ops(ops, job.model, tokens_mb, tp, kernels, fw.vocab_multiple, fw.eager);
    c.output = detail::cost_of(ops, r16, frozen);
    c.host_output = host_seconds(ops);
  }
  // A release's own slowness (Framework::kernel_time_scale): the GPU time, not the host's launches.
  if (fw.kernel_time_scale != 1.0) {
    c.layer.scale_time(fw.kernel_time_scale);
    c.output.scale_time(fw.kernel_time_scale);
  }
  return c;
}

inline int cp_a2a_size(const ParallelPlan& plan, int gpus_per_node);  // below

// Checks a plan against a job and a cluster; InputError naming the field otherwise.
inline void validate_plan(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster) {
  validate_training_precision(job.precision);
  validate_recompute_modules(job.model, plan.recompute, plan.recompute_modules);
  require_positive_count(plan.tp, "tp");
  require_positive_count(plan.pp, "pp");
  require_positive_count(plan.dp, "dp");
  require_positive_count(plan.micro_batch, "micro_batch");
  require_positive_count(plan.interleave, "interleave");
  require_positive_count(plan.cp, "cp");
  require_positive_count(cluster.gpus, "gpus");
  // A stage cast from a number (a file, a command line) may be out of range.
  if (const int zero = static_cast<int>(plan.zero_stage); zero < 0 || zero > 3)
    capplan::detail::fail("zero_stage", std::to_string(zero), "must be 0, 1, 2 or 3");
  if (plan.gpus() != cluster.gpus)
    capplan::detail::fail("dp", std::to_string(plan.dp),
                          "gives tp x " + std::string(plan.cp > 1 ? "cp x " : "") + "pp x dp = " + std::to_string(plan.gpus()) + ", not the " +
                              std::to_string(cluster.gpus) + " GPUs");
  const ResolvedShape s = resolve(job.model);
  if (s.heads % plan.tp != 0)
    capplan::detail::fail("tp", std::to_string(plan.tp), "does not divide the " + std::to_string(s.heads) + " attention heads");
  if (s.ffn % plan.tp != 0)
    capplan::detail::fail("tp", std::to_string(plan.tp), "does not divide ffn_hidden " + std::to_string(s.ffn));
  validate_stage_layout(static_cast<int>(s.layers), plan);
  validate_offload(static_cast<int>(s.layers), plan);
  validate_offload_gpu(cluster.gpu, plan.offload_layers);
  if (plan.sequence_parallel && plan.tp == 1) capplan::detail::fail("sequence_parallel", "true", "needs tp > 1");
  if (const std::int64_t seq = job.seq_len > 0 ? job.seq_len : job.model.seq_len;
      plan.sequence_parallel && !sequence_parallel_divides(seq, plan.tp, plan.cp)) {
    capplan::detail::fail("sequence_parallel", "true",
                          "needs tp = " + std::to_string(plan.tp) + " to divide the " + std::to_string(seq / std::max(1, plan.cp)) +
                              " tokens of a sequence per " + (plan.cp > 1 ? "context-parallel rank" : "GPU"));
  }
  require_positive_count(plan.ep, "ep");
  if (plan.ep > 1 && !job.model.moe) capplan::detail::fail("ep", std::to_string(plan.ep), "needs a mixture-of-experts model");
  if (job.mtp_layers < 0 || job.mtp_layers > max_mtp_layers)
    capplan::detail::fail("mtp_layers", std::to_string(job.mtp_layers), "must be 0 to " + std::to_string(max_mtp_layers));
  if (plan.etp < 0) capplan::detail::fail("etp", std::to_string(plan.etp), "is negative (0: as tp)");
  if (plan.etp > 0 && plan.etp != plan.tp) {
    if (!job.model.moe) capplan::detail::fail("etp", std::to_string(plan.etp), "needs a mixture-of-experts model");
    // Runnable: an expert's tensor-parallel group stays in one NVLink domain, as a TP group does.
    if (cluster.gpus_per_node % plan.etp != 0 && cluster.gpus > plan.etp)
      capplan::detail::fail("etp", std::to_string(plan.etp),
                            "does not fit a " + std::to_string(cluster.gpus_per_node) + "-GPU NVLink domain; use a divisor of " +
                                std::to_string(cluster.gpus_per_node));
  }
  if (expert_data_parallel(plan) == 0) {
    if (plan.etp > 0 && plan.etp != plan.tp)
      capplan::detail::fail("ep", std::to_string(plan.ep),
                            "x etp " + std::to_string(plan.etp) + " does not divide tp x cp x dp = " + std::to_string(plan.tp * plan.cp * plan.dp) +
                                " (the expert layers fold etp x ep over the same GPUs)");
    capplan::detail::fail("ep", std::to_string(plan.ep),
                          plan.cp > 1 ? "does not divide dp x cp = " + std::to_string(plan.dp * plan.cp) + " (experts fold into the data- and context-parallel ranks)"
                                      : "does not divide dp = " + std::to_string(plan.dp));
  }
  if (job.model.moe && job.model.moe->experts % plan.ep != 0)
    capplan::detail::fail("ep", std::to_string(plan.ep), "does not divide the " + std::to_string(job.model.moe->experts) + " experts");
  if (const int c = static_cast<int>(plan.cp_comm); c < 0 || c >= static_cast<int>(capplan::detail::enum_count<CpComm>))
    capplan::detail::fail("cp_comm", std::to_string(c), "must be p2p, all_gather, a2a or a2a_p2p");
  if (plan.cp > 1) {
    // Megatron CP splits each sequence into 2 x cp chunks (load balance under the causal mask);
    // Ulysses into cp (parallel_plan.hpp cp_sequence_step).
    const std::int64_t seq = job.seq_len > 0 ? job.seq_len : job.model.seq_len;
    validate_cp_sequence(seq, plan);
    if (plan.cp_comm == CpComm::a2a) validate_ulysses(s.heads, s.kv_heads, plan.tp, plan.cp);
    if (plan.cp_comm == CpComm::a2a_p2p) validate_ulysses(s.heads, s.kv_heads, plan.tp, cp_a2a_size(plan, cluster.gpus_per_node));
  }
  require_positive_count(job.global_batch, "global_batch");
  if (job.global_batch % (plan.micro_batch * plan.dp) != 0)
    capplan::detail::fail("global_batch", std::to_string(job.global_batch),
                          "is not divisible by micro_batch x dp = " + std::to_string(plan.micro_batch * plan.dp));
  if (!interleave_fits_microbatches(plan, job.global_batch / (plan.micro_batch * plan.dp)))
    capplan::detail::fail("interleave", std::to_string(plan.interleave),
                          "needs the micro-batches per iteration (" + std::to_string(job.global_batch / (plan.micro_batch * plan.dp)) +
                              " = global_batch / (micro_batch x dp)) to be a multiple of pp = " + std::to_string(plan.pp));
  require_nonnegative(job.parameters, "parameters");
  if (const int f = static_cast<int>(job.fp8_recipe); f < 0 || f >= static_cast<int>(capplan::detail::enum_count<Fp8Recipe>))
    capplan::detail::fail("fp8_recipe", std::to_string(f), "is not delayed, current, mxfp8 or blockwise");
  if (job.fp8_recipe != Fp8Recipe::delayed && job.precision != Precision::fp8)
    capplan::detail::fail("fp8_recipe", std::string(name(job.fp8_recipe)), "applies to precision fp8 only (precision is " + std::string(name(job.precision)) + ")");
  if (job.finetune != FineTune::full) {
    if (const int f = static_cast<int>(job.finetune); f < 0 || f > 2) capplan::detail::fail("finetune", std::to_string(f), "must be full, lora or qlora");
    require_positive_count(job.lora.rank, "lora.rank");
    if (job.lora.rank > 65536) capplan::detail::fail("lora.rank", std::to_string(job.lora.rank), "is more than 65536");
    if (!job.lora.q && !job.lora.k && !job.lora.v && !job.lora.o && !job.lora.mlp)
      capplan::detail::fail("lora", "no target", "adapts no matrix; choose q, k, v, o or mlp");
  }
  if (job.measured_mfu) {
    require_fraction(*job.measured_mfu, "mfu");
    require_positive(*job.measured_mfu, "mfu");
  }
  if (job.model_flops_per_token) require_positive(*job.model_flops_per_token, "model_flops_per_token");
  if (job.expert_parameters) {
    require_nonnegative(*job.expert_parameters, "expert_parameters");
    if (job.parameters > 0 && *job.expert_parameters > job.parameters)
      capplan::detail::fail("expert_parameters", capplan::detail::format_double(*job.expert_parameters),
                            "exceeds the " + capplan::detail::format_double(job.parameters) + " parameters");
  }
}

}  // namespace capplan::perf

namespace capplan::perf {

// The links each of a plan's collectives crosses (perf/communication.hpp group_links), by the same
// placement rules the estimate times them with: tensor-parallel ranks consecutive, then data parallel,
// pipeline stages outermost.
struct PlanLinks {
  std::string tp, pp, dp, ep, cp;  // "" where the plan has no such group
};

// Ranks are laid out TP innermost, then DP, then pipeline stages (Megatron's order). A data-parallel
// group is the dp ranks of stride tp inside a block of tp x dp consecutive ranks: where that block
// does not divide the node it straddles one, and the slowest group is timed with the block's members
// per node (consecutive_group) over tp. A pipeline spanning nodes has some stage boundary that
// crosses one (the boundary's pair is tp x dp ranks apart), and the slowest boundary sets the pace.
// With context parallelism gradients reduce over the dp x cp ranks (Megatron's data-parallel group
// with CP), which are the tp-strided ranks of a block of tp x cp x dp.
inline Group data_parallel_group(const ParallelPlan& plan, int gpus_per_node) {
  const int size = plan.dp * plan.cp;
  const Group block = consecutive_group(plan.tp * size, gpus_per_node);
  return Group{size, std::clamp(block.per_node / plan.tp, 1, size), plan.tp};
}
// The cp ranks of one sequence: tp-strided inside a block of tp x cp consecutive ranks.
inline Group context_parallel_group(const ParallelPlan& plan, int gpus_per_node) {
  const Group block = consecutive_group(plan.tp * plan.cp, gpus_per_node);
  return Group{plan.cp, std::clamp(block.per_node / plan.tp, 1, plan.cp), plan.tp};
}
// Hierarchical CP (CpComm::a2a_p2p): the cp ranks of one node form the all-to-all group, the nodes
// the ring (cp / this many steps round it).
inline int cp_a2a_size(const ParallelPlan& plan, int gpus_per_node) {
  return std::gcd(std::max(plan.cp, 1), context_parallel_group(plan, gpus_per_node).per_node);
}
inline bool stage_boundary_crosses_nodes(const ParallelPlan& plan, const Cluster& cluster) {
  return plan.pp > 1 && cluster.gpus > cluster.gpus_per_node;
}
// The link between neighbouring stages: the fabric when a boundary crosses nodes, else the node's
// link over the pipeline's span of GPUs, tp x cp x dp ranks apart (the slowest boundary sets the
// pace: PCIe once the stages leave a bridged pair).
inline const Link& stage_link(const ParallelPlan& plan, const Cluster& cluster) {
  return stage_boundary_crosses_nodes(plan, cluster) ? cluster.inter : cluster.intra_for(plan.pp, plan.tp * plan.cp * plan.dp);
}

inline PlanLinks plan_links(const Cluster& cluster, const ParallelPlan& plan) {
  const int gpn = cluster.gpus_per_node;
  PlanLinks l;
  l.tp = group_links(cluster, consecutive_group(plan.tp, gpn));
  if (plan.pp > 1) l.pp = std::string(name(stage_link(plan, cluster).kind));
  l.dp = group_links(cluster, data_parallel_group(plan, gpn));
  if (plan.ep > 1) {
    const int etp = expert_tensor_parallel(plan);
    l.ep = group_links(cluster, Group{plan.ep, std::clamp(gpn / etp, 1, plan.ep), etp});
  }
  if (plan.cp > 1) l.cp = group_links(cluster, context_parallel_group(plan, gpn));
  return l;
}

}  // namespace capplan::perf

namespace capplan::detail {

// Every number of one estimate before any text: the estimate's fields and its breakdown are both
// built from these, so the numeric path and the explained path agree exactly.
// Model FLOPs of one iteration: 3 x forward for full training (compute/flops.hpp). With frozen base
// weights (LoRA, QLoRA) the backward pass computes input gradients only: 2 x the weight matmuls and the
// logits, 3 x the attention core (no weights), and the adapters' 6 x 2 r (d_in + d_out) per token
// (forward, input and weight gradients). Every count is what the run must do, without recomputation.
inline double job_model_flops(const perf::TrainingJob& job, std::int64_t batch, std::int64_t seq) {
  if (job.finetune == FineTune::full) return model_flops_value(job.model, batch, seq, AttentionCount::full);
  const double tokens = static_cast<double>(batch) * static_cast<double>(seq);
  return exact_value([&]<class I>() {
           const BasicForwardFlops<I> f = basic_forward_flops<I>(job.model, batch, seq, AttentionCount::full);
           return I(2 * (f.layers_matmul + f.logits) + 3 * f.layers_attention);
         }) +
         6.0 * lora_params(job.model, job.lora) * tokens;
}

// What recomputation runs again in one iteration, exact (integer counts, compute/flops.hpp), under
// the one counting rule MFU uses (training_numbers): full, every layer's forward (not the logits);
// selective, the attention scores.
inline double recomputed_flops(const perf::TrainingJob& job, std::int64_t seq, Recompute r) {
  if (r == Recompute::none) return 0;
  return exact_value([&]<class I>() {
    const BasicForwardFlops<I> f = basic_forward_flops<I>(job.model, job.global_batch, seq, AttentionCount::full);
    return I(r == Recompute::full ? f.layers_matmul + f.layers_attention : f.layers_attention);
  });
}

// Whether a context-parallel plan's K/V exchange runs again with the recomputed forward: under full
// recomputation, and when selective recomputation reruns the attention core, since the ring or the
// gathers run inside Transformer Engine's attention, which Megatron-Core checkpoints whole
// (_checkpointed_attention_forward). The estimate and its explanation both ask.
inline bool cp_exchange_reruns(const ParallelPlan& plan) {
  return plan.recompute == Recompute::full || (recomputed_modules(plan.recompute, plan.recompute_modules) & recompute_module::core_attn);
}

// A job's FLOPs per iteration that no plan changes, worked out once for all the plans of a job: the
// model FLOPs and what each recomputation runs again.
struct JobFlops {
  double model = 0;
  double recompute_full = 0;
  double recompute_selective = 0;
  [[nodiscard]] double recomputed(Recompute r) const {
    return r == Recompute::full ? recompute_full : r == Recompute::selective ? recompute_selective : 0.0;
  }
};
inline JobFlops job_flops(const perf::TrainingJob& job, std::int64_t seq) {
  JobFlops f;
  f.model = job_model_flops(job, job.global_batch, seq);
  f.recompute_full = recomputed_flops(job, seq, Recompute::full);
  f.recompute_selective = recomputed_flops(job, seq, Recompute::selective);
  return f;
}

// The layer by whose end Transformer Engine's offload handler waits for offloaded layer i's copy
// (transformer_engine/pytorch/cpu_offload.py, AsyncDoubleBufferGroupOffloadHandler layer_window_map):
// (L / N)(i + 1) - 1, the first L mod N windows one layer longer, so the N windows tile the L layers.
inline int offload_window_end(int layers, int offloaded, int i) {
  const int base = layers / offloaded, extra = layers % offloaded;
  return base * (i + 1) - 1 + std::min(i + 1, extra);
}

// The time a pass of `layers` layers of `layer_seconds` each loses to copying the first `offloaded`
// layers' activations, `copy_seconds` each, as Transformer Engine's handler schedules them: copy 0
// starts when layer 0 ends; the compute waits for copy g at the end of layer w(g) =
// offload_window_end(g), and only then issues copy g + 1 (layer g + 1 is done by then: w(g) >= g + 1).
// So copy g has the layers after the previous window's end to hide in, h_0 = w(0) and h_g = w(g) -
// w(g - 1), and no copy runs ahead into an earlier window's slack:
//   exposed = sum over g of max(0, copy_seconds - h_g layer_seconds)
inline double offload_exposed_seconds(int layers, int offloaded, double layer_seconds, double copy_seconds) {
  if (offloaded <= 0 || layers <= 0) return 0.0;
  double exposed = 0;
  int previous_end = 0;  // w(-1) taken as 0: copy 0 hides in layers 1 .. w(0)
  for (int g = 0; g < offloaded; ++g) {
    const int end = offload_window_end(layers, offloaded, g);
    exposed += std::max(0.0, copy_seconds - (end - previous_end) * layer_seconds);
    previous_end = end;
  }
  return exposed;
}

// The share of a stage's forward and backward passes the combined 1F1B schedule pairs with another
// micro-batch's: without pipelining all but the first forward and the last backward of m; with an
// interleaved pipeline all but the warm-up forwards (and as many cool-down backwards) of the first
// stage, the most of any stage: (pp - 1) x 2 + (v - 1) x pp + 1 of its m x v chunk passes (Megatron-Core's
// interleaved schedule, one more warm-up pass under overlap_moe_expert_parallel_comm).
inline double moe_a2a_paired_share(const ParallelPlan& plan, std::int64_t microbatches) {
  const double passes = static_cast<double>(microbatches) * (plan.pp > 1 ? plan.interleave : 1);
  const double alone = plan.pp > 1 ? 2.0 * (plan.pp - 1) + static_cast<double>(plan.interleave - 1) * plan.pp + 1 : 1.0;
  return passes > alone ? (passes - alone) / passes : 0.0;
}

struct Numbers {
  std::int64_t m = 0;  // micro-batches per iteration
  int lps = 0;         // layers of the stage that sets the pace (the slowest per micro-batch)
  bool pace_last = true;  // that stage is the last, so it also runs the output layer and the loss
  int last_layers = 0;    // layers of the last stage, with its MTP layers (ParallelPlan::mtp_layers)
  // The output layer and loss passes of the last stage relative to one: 1, or with MTP layers each
  // another pass and its 2h x h projection (about 2h / V of a pass).
  double out_scale = 1;
  double layer_recompute = 0;
  double act_bytes = 0, t_ar = 0, tp_comm_layer = 0, a2a_layer = 0;
  double a2a_one = 0, ep_remote_nodes = 0;  // one dispatch or combine; other nodes a token goes to (two-hop dispatch, else 0)
  // Framework::moe_a2a_overlap: the all-to-all time per layer hidden under another micro-batch's compute
  // (after the paired share), and that share of the stage's passes; 0 where it does not run.
  double a2a_hidden_layer = 0, a2a_paired = 0;
  // MoE: values routed per MoE layer and micro-batch on this GPU (tokens x k x hidden, its share,
  // padded to the capacity factor), and the fitted dispatch-path time per layer this adds
  // (Framework::moe_seconds_per_routed_value, averaged over the layers like the all-to-alls).
  double moe_routed_elements = 0, moe_path_layer = 0;
  bool moe_path_rerun = false;  // the MoE layer's forward is recomputed
  double etp_one = 0, etp_layer = 0;        // an expert tensor-parallel all-gather (or reduce-scatter); their time per layer
  double cp_bytes = 0, cp_comm = 0, cp_exposed_layer = 0;  // context parallel: K/V sent per ring step, ring time and exposed time per layer
  int cp_a2a = 0;            // a2a_p2p: the all-to-all group (the cp ranks of a node)
  double cp_ring_bytes = 0;  // a2a_p2p: K/V per ring step
  int n_ar = 0;
  double tp_mlp_rerun = 0;  // the recomputed dense MLPs' tensor-parallel collective, per layer (recompute module mlp)
  double p2p_mb = 0;
  bool stage_link_inter = false;
  double stage_mb = 0, stages_sum = 0, bubble = 0, pipeline = 0;  // slowest stage and all stages, per micro-batch
  double chunk_share = 1;  // the share of a stage the fill and drain pass at a time: 1 / interleave, or a layout's largest chunk
  bool last_chunk_sets_bubble = false;  // a layout's last chunk (output layer, loss, MTP) is its longest
  // Eager PyTorch: the pacing stage's host launch time per micro-batch, and what of it the GPU time
  // does not cover (the GPU waiting on the host; 0 when the GPU is the bound).
  double host_mb = 0, host_wait_mb = 0;
  // Data parallel: dense weights over all dp x cp ranks, routed experts over the dp x cp / ep ranks of each expert.
  int dp_per_node = 1, expert_dp = 1;
  double dense_local = 0, expert_local = 0;  // parameters on this GPU before ZeRO sharding
  double dp_comm = 0, dp_exposed = 0, zero3_copies = 0, zero3_copy_bytes = 0;  // copies per micro-batch
  double overlap_hidden = 0, overlap_cost = 0;  // communication hidden under compute, and the compute it slows
  double opt_bytes = 0, t_opt = 0;
  // Activation offloading (ParallelPlan::offload_layers): the bytes each micro-batch sends to the host
  // (and fetches back), one way's copy time, and what of the copies the compute does not hide.
  double offload_bytes = 0, offload_copy = 0, offload_exposed_mb = 0;
  double iteration = 0, model_flops = 0, hw_flops = 0, tokens = 0;
};

// Routed-expert parameters of a job: given, else the shape's share of `parameters` (workload/params.hpp).
// `sizes` = parameter_sizes(job.model) when the caller has it already.
inline double expert_parameters(const perf::TrainingJob& job, double parameters, const ParamSizes* sizes = nullptr) {
  if (!job.model.moe) return 0;
  if (job.expert_parameters) return *job.expert_parameters;
  const ParamSizes p = sizes ? *sizes : parameter_sizes(job.model);
  return parameters * p.expert / p.total();
}

// The numbers of one estimate (no text, no allocation).
// `model_flops` and `sizes` (parameter_sizes(job.model)) are passed by callers that have them already.
inline Numbers training_numbers(const perf::TrainingJob& job, const ParallelPlan& plan, const perf::Cluster& cluster, const perf::Framework& fw,
                                const perf::DeviceRates& rates, const LayerCosts& costs, const JobFlops* job_flops = nullptr,
                                const ParamSizes* sizes = nullptr) {
  const perf::ResolvedShape s = perf::resolve(job.model);
  const std::int64_t seq = job.seq_len > 0 ? job.seq_len : job.model.seq_len;
  require_positive_count(seq, "seq_len");
  if (fw.eager && plan.recompute_modules != 0) validate_recompute_modules(job.model, plan.recompute, plan.recompute_modules, true);
  const double e = bytes_per_element(job.precision);
  Numbers n;
  n.m = job.global_batch / (plan.micro_batch * plan.dp);
  const std::int64_t tokens_mb = plan.micro_batch * (seq / plan.cp);  // this GPU's share of the micro-batch
  const int gpn = cluster.gpus_per_node;
  // Stage layers (workload/parallel_plan.hpp stage_layers): the last stage also runs the output layer and
  // the loss; the first the embedding lookup (a gather: no FLOPs counted).
  const StageExtremes stages = stage_extremes(static_cast<int>(s.layers), plan);
  // MTP layers (DeepSeek-V3 §2.2) run on the last stage: each one more layer of the model's kind (its
  // average layer here), one more pass through the shared output layer and a loss, and a 2h x h
  // projection of [h; embedding], timed as 2h / V of an output pass (the GEMM's FLOPs share).
  const int mtp = job.mtp_layers;
  n.last_layers = stages.last + mtp;
  n.out_scale = 1.0 + (s.vocab > 0 ? mtp * (1.0 + 2.0 * static_cast<double>(s.hidden) / static_cast<double>(s.vocab)) : 0.0);
  const double md = static_cast<double>(n.m);
  const PassCost& layer = costs.layer;
  const PassCost out{.fwd = costs.output.fwd * n.out_scale, .bwd = costs.output.bwd * n.out_scale};
  n.layer_recompute = layer.recompute(plan.recompute, plan.recompute_modules);
  const std::uint8_t modules = recompute_module::closure(recomputed_modules(plan.recompute, plan.recompute_modules));

  // Tensor parallel: 2 all-reduces of the [tokens, h] activation in the forward pass and 2 in the backward
  // (Shoeybi et al. 2019, Fig. 4), 2 more when the forward is recomputed; with sequence parallelism the
  // same bytes move as all-gather + reduce-scatter (Korthikanti et al. 2022, §4.2.2).
  n.act_bytes = static_cast<double>(tokens_mb) * static_cast<double>(s.hidden) * e;
  // Tensor-parallel ranks are consecutive: a group that does not divide the node straddles two
  // (perf/communication.hpp consecutive_group) and its ring runs at the inter-node link's speed.
  const perf::Group tp_group = perf::consecutive_group(plan.tp, gpn);
  n.t_ar = perf::all_reduce_seconds(cluster, n.act_bytes, tp_group);
  n.n_ar = plan.tp > 1 ? 4 + (plan.recompute == Recompute::full ? 2 : 0) : 0;
  n.tp_comm_layer = n.n_ar * n.t_ar;
  // The values a MoE layer routes on this GPU per micro-batch: its 1/tp of the tokens (sequence-parallel
  // share) x k x hidden, padded to the capacity factor; and the dispatch path's fitted time for them
  // (Framework::moe_seconds_per_routed_value), forward and backward, a third again when the MoE layer's
  // forward is recomputed; at any ep, since the router, permutation and casts run without expert
  // parallelism too (and a plan search must not drop ep to skip them). Averaged over the layers.
  const double moe_share = job.model.moe ? job.model.moe_layers() / static_cast<double>(s.layers) : 0.0;  // MoE layers among all
  if (job.model.moe) {
    n.moe_routed_elements = static_cast<double>(tokens_mb) * static_cast<double>(s.hidden) * job.model.moe->experts_per_token /
                            plan.tp * fw.moe_capacity_factor;
    n.moe_path_rerun = plan.recompute == Recompute::full || (modules & recompute_module::moe);
    n.moe_path_layer = fw.moe_seconds_per_routed_value * n.moe_routed_elements * moe_share * (n.moe_path_rerun ? 4.0 / 3.0 : 1.0);
  }
  // Expert parallelism: dispatch and combine all-to-alls of tokens x k hidden vectors per MoE layer, forward
  // and backward (+ the recomputed forward) (Lepikhin et al. 2021, GShard §2.2), averaged over the layers.
  if (plan.ep > 1 && job.model.moe) {
    // Dispatch buffers padded to the capacity factor (perf/framework.hpp moe_capacity_factor). Each rank
    // dispatches its own 1/tp of the tokens (sequence-parallel share). The tokens travel as the layer's
    // hidden states, BF16 under the FP8 and FP4 recipes too: Transformer Engine quantizes a GEMM's input
    // inside the expert GEMM, after the dispatch (Megatron-Core's dispatchers send hidden_states as they
    // are; its DeepEP buffers are sized at max(element_size, 2) bytes per element, fused_a2a.py
    // get_hidden_bytes). FP8 dispatch is DeepSeek-V3's own framework's (DeepSeek-AI 2024, §3.3), not modelled.
    const double hidden_bytes = std::max(e, bytes_per_element(Precision::bf16));
    const double a2a_bytes = n.moe_routed_elements * hidden_bytes;
    // Expert ranks are laid out etp innermost, then ep (Megatron-Core's expert rank order).
    const int etp = expert_tensor_parallel(plan);
    const perf::Group ep_group{plan.ep, std::clamp(gpn / etp, 1, plan.ep), etp};
    // Recomputing the whole MoE layer (full, or the moe module) dispatches and combines again.
    const int n_a2a = 4 + (n.moe_path_rerun ? 2 : 0);
    // A MoE layer's FFN has no tensor-parallel all-gather / reduce-scatter of the layer's tokens: the
    // tokens reach the experts by the all-to-all, and an expert split over etp > 1 GPUs all-gathers
    // what its etp ranks received before its GEMMs and reduce-scatters the result before the combine
    // (Megatron-Core MoEAlltoAllTokenDispatcher: gather_from_sequence_parallel_region over the expert
    // tensor-parallel group), on k x c times the tokens.
    if (plan.tp > 1) n.tp_comm_layer -= 0.5 * n.tp_comm_layer * moe_share;
    if (etp > 1) {
      n.etp_one = perf::all_gather_seconds(cluster, a2a_bytes * etp, perf::consecutive_group(etp, gpn));
      n.etp_layer = n_a2a * n.etp_one * moe_share;
      n.tp_comm_layer += n.etp_layer;
    }
    double one = perf::all_to_all_seconds(cluster, a2a_bytes, ep_group);
    if (fw.moe_dispatch == perf::MoeDispatch::deepep && ep_group.per_node < ep_group.size) {
      // Two hops (DeepEP): each token crosses the network once per other node it goes to (one copy of
      // a2a_bytes / k), then every (token, expert) copy is forwarded over NVLink inside the node; the
      // hops pipeline, so the slower sets the time.
      const int local = ep_group.per_node, nodes = (ep_group.size + local - 1) / local;
      n.ep_remote_nodes = perf::expected_token_nodes(*job.model.moe, nodes) * (nodes - 1) / nodes;
      const double across = cluster.inter.latency.value() * (nodes - 1) +
                            a2a_bytes / job.model.moe->experts_per_token * n.ep_remote_nodes / cluster.inter.effective();
      const double inside = perf::comm::all_to_all(a2a_bytes, local, cluster.intra_for(local, etp));
      one = std::max(across, inside);
    }
    n.a2a_one = one;
    n.a2a_layer = n_a2a * one * moe_share;
    n.tp_comm_layer += n.a2a_layer;
    // Megatron-Core's combined 1F1B (Framework::moe_a2a_overlap): a paired forward's dispatch and
    // combine run under the other micro-batch's backward compute (its recomputation included), the
    // backward's (and a recomputed MoE forward's) under the other's forward compute, each only up to
    // that compute; averaged over the layers like the all-to-alls. What hides slows the compute it
    // hides under (EfficiencyModel::overlap_slowdown), as the data-parallel overlap does.
    if (fw.moe_a2a_overlap && moe_a2a_overlap_runs(plan)) {
      const double fwd_comm = 2 * one * moe_share, bwd_comm = (n_a2a - 2) * one * moe_share;
      n.a2a_paired = moe_a2a_paired_share(plan, n.m);
      n.a2a_hidden_layer = n.a2a_paired * (std::min(fwd_comm, costs.layer.bwd + n.layer_recompute) + std::min(bwd_comm, costs.layer.fwd));
    }
  }

  // A recomputed MLP runs its forward collective again (one of the layer's four), averaged over the
  // layers: a dense layer's with mlp, a MoE layer's with moe when its tokens stay in the tensor-parallel
  // group (ep 1; with ep > 1 the all-to-alls above are what run again).
  if (plan.tp > 1) {
    const double rerun = ((modules & recompute_module::mlp) ? job.model.dense_layers() : 0) +
                         ((modules & recompute_module::moe) && plan.ep == 1 ? job.model.moe_layers() : 0);
    n.tp_mlp_rerun = n.t_ar * rerun / static_cast<double>(s.layers);
    n.tp_comm_layer += n.tp_mlp_rerun;
  }

  // Context parallelism, by how the cp ranks exchange keys and values (workload/parallel_plan.hpp CpComm).
  // Every pass with a forward (the recomputed one too) exchanges again.
  if (plan.cp > 1) {
    const perf::Group cp_group = perf::context_parallel_group(plan, gpn);
    const double kv_width = static_cast<double>(kv_heads_per_rank(s.kv_heads, plan.tp) * s.head_dim);
    n.cp_bytes = 2.0 * static_cast<double>(tokens_mb) * kv_width * e;  // K and V of this rank's chunk
    const double passes_fwd = cp_exchange_reruns(plan) ? 2.0 : 1.0;
    switch (plan.cp_comm) {
      case CpComm::p2p: {
        // Ring attention: in the forward pass each rank passes its K and V chunk round the ring, cp - 1
        // steps; the backward passes K, V and their gradients (twice the bytes). Each step's transfer
        // overlaps the attention of the chunk in hand, so only what exceeds the attention compute is
        // exposed (Liu et al. 2023 §3; Megatron-Core's CP runs the same P2P ring with all-gather forward /
        // reduce-scatter backward semantics).
        const perf::Link& cp_link = cp_group.per_node >= cp_group.size ? cluster.intra_for(plan.cp, plan.tp) : cluster.inter;
        const double steps = plan.cp - 1;
        const double fwd = steps * perf::p2p_seconds(cp_link, n.cp_bytes), bwd = steps * perf::p2p_seconds(cp_link, 2 * n.cp_bytes);
        n.cp_comm = passes_fwd * fwd + bwd;
        n.cp_exposed_layer = passes_fwd * std::max(0.0, fwd - layer.attn_fwd) + std::max(0.0, bwd - layer.attn_bwd);
        break;
      }
      case CpComm::all_gather: {
        // All-gather of the whole sequence's K and V before the attention, forward and again in the backward
        // (only the local chunk is kept), and a reduce-scatter of their gradients; exposed (Llama 3, §3.3.2).
        const double whole = n.cp_bytes * plan.cp;
        const double gather = perf::all_gather_seconds(cluster, whole, cp_group);
        n.cp_comm = passes_fwd * gather + gather + perf::reduce_scatter_seconds(cluster, whole, cp_group);
        n.cp_exposed_layer = n.cp_comm;
        break;
      }
      case CpComm::a2a: {
        // DeepSpeed-Ulysses (Jacobs et al. 2023, §3.1): all-to-alls of Q, K and V before the attention and of
        // its output after it, each rank's buffer of its tokens x the heads it sends; the backward moves the
        // output gradient and the Q/K/V gradients the same way. K/V heads fewer than cp are replicated first.
        const double q_bytes = static_cast<double>(tokens_mb) * static_cast<double>(s.heads / plan.tp * s.head_dim) * e;
        const double kv_bytes =
            static_cast<double>(tokens_mb) * static_cast<double>(ulysses_kv_heads(s.kv_heads, plan.tp, plan.cp) * plan.cp * s.head_dim) * e;
        const double one_pass = 2 * perf::all_to_all_seconds(cluster, q_bytes, cp_group) + 2 * perf::all_to_all_seconds(cluster, kv_bytes, cp_group);
        n.cp_bytes = 2 * q_bytes + 2 * kv_bytes;
        n.cp_comm = passes_fwd * one_pass + one_pass;
        n.cp_exposed_layer = n.cp_comm;
        break;
      }
      case CpComm::a2a_p2p: {
        // Hierarchical (Megatron-Core "a2a+p2p"): Ulysses among the a cp ranks of a node, as above with cp = a,
        // then each rank holds heads / (tp a) of the heads for a x its tokens and passes that K/V round the
        // ring of the cp / a nodes, overlapped with the attention as the p2p ring.
        const int a = perf::cp_a2a_size(plan, gpn), r = plan.cp / a;
        const perf::Group a2a_group{a, a, plan.tp};
        const std::int64_t kv_after = ulysses_kv_heads(s.kv_heads, plan.tp, a);
        const double q_bytes = static_cast<double>(tokens_mb) * static_cast<double>(s.heads / plan.tp * s.head_dim) * e;
        const double kv_bytes = static_cast<double>(tokens_mb) * static_cast<double>(kv_after * a * s.head_dim) * e;
        const double one_pass = 2 * perf::all_to_all_seconds(cluster, q_bytes, a2a_group) + 2 * perf::all_to_all_seconds(cluster, kv_bytes, a2a_group);
        const double step_bytes = 2.0 * a * static_cast<double>(tokens_mb) * static_cast<double>(kv_after * s.head_dim) * e;
        const perf::Link& ring_link = r > 1 && cp_group.per_node < cp_group.size ? cluster.inter : cluster.intra_for(plan.cp, plan.tp);
        const double fwd = (r - 1) * perf::p2p_seconds(ring_link, step_bytes), bwd = (r - 1) * perf::p2p_seconds(ring_link, 2 * step_bytes);
        n.cp_bytes = 2 * q_bytes + 2 * kv_bytes;
        n.cp_a2a = a;
        n.cp_ring_bytes = step_bytes;
        n.cp_comm = passes_fwd * (one_pass + fwd) + one_pass + bwd;
        n.cp_exposed_layer = passes_fwd * (one_pass + std::max(0.0, fwd - layer.attn_fwd)) + one_pass + std::max(0.0, bwd - layer.attn_bwd);
        break;
      }
    }
    n.tp_comm_layer += n.cp_exposed_layer;
  }

  // Pipeline point-to-point: each micro-batch sends its activation forward and its gradient back at every
  // stage boundary, 1/tp of it per GPU then all-gathered over NVLink (Narayanan et al. 2021, §4.1).
  n.stage_link_inter = perf::stage_boundary_crosses_nodes(plan, cluster);
  const perf::Link& stage_link = perf::stage_link(plan, cluster);
  if (plan.pp > 1) {
    const double one = perf::p2p_seconds(stage_link, n.act_bytes / plan.tp) +
                       (plan.tp > 1 ? perf::comm::ring_all_gather(n.act_bytes, std::min(plan.tp, gpn), cluster.intra_for(std::min(plan.tp, gpn))) : 0.0);
    n.p2p_mb = 2.0 * one * plan.interleave;
  }

  // 1F1B with stages of unequal time t_i per micro-batch: the slowest stage sets the pace of the steady
  // state and the others add their share of the fill and drain once, divided by the v model chunks:
  //   pipeline = m t_max + (sum_i t_i - t_max) / v
  // which is (m + (p - 1) / v) t for equal stages (Narayanan et al. 2021, §2.2). The output layer and
  // the loss run on the last stage only.
  // (All-to-all time hidden by the combined 1F1B schedule leaves the stage, less what it slows the compute.)
  const double layer_total = layer.fwd + layer.bwd + n.layer_recompute + n.tp_comm_layer + n.moe_path_layer -
                             n.a2a_hidden_layer * (1 - rates.overlap_slowdown);
  const double out_total = out.fwd + out.bwd;
  // Activation offloading (pp = 1, no recomputation: validate_offload). Transformer Engine copies each
  // offloaded layer's activations to the host on a side stream, one window of layers each (its offload
  // handler's layer_window_map, offload_window_end; offload_exposed_seconds), so the copies spread over
  // the whole forward pass; the backward pass fetches them back the same way (the same windows). What the compute does not
  // hide is exposed, per micro-batch, over the GPU's host link (perf/communication.hpp host_link); the
  // compute counted is the layers' kernels. The copy engine's share of memory bandwidth is not charged.
  if (plan.offload_layers > 0) {
    TrainingConfig cfg;
    cfg.plan = plan;
    cfg.seq_len = job.seq_len;
    apply_framework(cfg, fw);
    apply_precision(cfg, fw, job.precision, job.fp8_recipe);
    const double per_layer = activation_memory_per_layer(job.model, plan.micro_batch, seq / plan.cp, activation_options(cfg)).value();
    n.offload_bytes = per_layer * plan.offload_layers;
    n.offload_copy = n.offload_bytes / perf::host_link(cluster.gpu).bytes_per_s;
    const int layers = static_cast<int>(s.layers);
    const double one = n.offload_copy / plan.offload_layers;
    n.offload_exposed_mb = offload_exposed_seconds(layers, plan.offload_layers, layer.fwd, one) +
                           offload_exposed_seconds(layers, plan.offload_layers, layer.bwd, one);
  }
  // A host that launches every kernel (eager PyTorch) runs ahead of the GPU asynchronously, so a stage's
  // micro-batch takes the larger of its GPU time and its kernels' launch time.
  const double gpu_last = n.last_layers * layer_total + out_total + n.offload_exposed_mb,
               host_last = n.last_layers * costs.host_layer + costs.host_output * n.out_scale;
  const double gpu_other = stages.most * layer_total + n.offload_exposed_mb, host_other = stages.most * costs.host_layer;
  const double t_last = std::max(gpu_last, host_last) + n.p2p_mb;
  const double t_other = std::max(gpu_other, host_other) + n.p2p_mb;
  n.pace_last = plan.pp == 1 || t_last >= t_other;
  n.lps = n.pace_last ? n.last_layers : stages.most;
  const int lps = n.lps;
  n.stage_mb = n.pace_last ? t_last : t_other;
  n.host_mb = n.pace_last ? host_last : host_other;
  n.host_wait_mb = std::max(0.0, n.host_mb - (n.pace_last ? gpu_last : gpu_other));
  n.stages_sum = std::max(static_cast<double>(s.layers + mtp) * layer_total + out_total + n.offload_exposed_mb,
                          static_cast<double>(s.layers + mtp) * costs.host_layer + costs.host_output * n.out_scale) +
                 plan.pp * n.p2p_mb;
  // The fill and drain pass one model chunk at a time: 1/v of a stage with equal chunks; where a
  // pipeline layout sets the chunks, the largest chunk's time over the pacing stage's, so empty or
  // small chunks do not shrink it. The largest chunk is the layout's most layers
  // (ParallelPlan::chunk_layers) or the last one, which holds the output layer, its loss and the MTP
  // layers (a layout ends "...mL"), whichever takes longer: a heuristic where stages differ.
  if (plan.chunk_layers > 0 && n.stage_mb > 0) {
    // A chunk timed as a stage is: the longer of its GPU and host time, and its share of the sends.
    const auto chunk_time = [&](int k, double gpu_out, double host_out) {
      return std::max(k * layer_total + gpu_out, k * costs.host_layer + host_out) + n.p2p_mb / plan.interleave;
    };
    const double most = chunk_time(plan.chunk_layers, 0.0, 0.0);
    const double last = chunk_time(plan.last_chunk_layers + mtp, out_total, costs.host_output * n.out_scale);
    n.last_chunk_sets_bubble = last > most;
    n.chunk_share = std::min(1.0, std::max(most, last) / n.stage_mb);
  } else {
    n.chunk_share = 1.0 / plan.interleave;
  }
  n.bubble = (n.stages_sum - n.stage_mb) * n.chunk_share;
  n.pipeline = md * n.stage_mb + n.bubble;
  const double pace_out_fwd = n.pace_last ? out.fwd : 0.0, pace_out_bwd = n.pace_last ? out.bwd : 0.0;

  // Data parallel and ZeRO. Dense weights are replicated over the dp GPUs; routed-expert weights are
  // spread over ep of them, so a GPU holds 1/ep of the experts and reduces (or gathers) their gradients
  // only with the dp/ep GPUs that hold the same experts (DeepSpeed-MoE, Rajbhandari et al. 2022 §4.1:
  // expert-data-parallel groups; Megatron-Core's expert data-parallel group likewise).
  const double parameters = job.parameters > 0 ? job.parameters : sizes ? parameter_total(job.model, *sizes) : parameter_total(job.model);
  double experts = 0;  // ep = 1: experts reduce like dense weights
  if (plan.ep > 1)
    experts = expert_parameters(job, parameters, sizes);
  n.dense_local = (parameters - experts) / (plan.tp * plan.pp);
  n.expert_local = experts / (static_cast<double>(expert_tensor_parallel(plan)) * plan.pp * plan.ep);
  // Fine-tuning with adapters: only the adapters take gradients and optimizer steps; they are
  // replicated over the data-parallel GPUs like dense weights (expert adapters included).
  const bool adapters = job.finetune != FineTune::full;
  const double trainable_local = adapters ? lora_params(job.model, job.lora) / (plan.tp * plan.pp) : 0.0;
  // Frozen QLoRA base weights are gathered (ZeRO-3 / FSDP) in NF4 (FSDP-QLoRA shards the quantized storage).
  const double gather_bytes = job.finetune == FineTune::qlora ? formats::nf4.bits_per_value / 8 : fw.param_gather_bytes;
  n.expert_dp = expert_data_parallel(plan);
  const perf::Group dp_group = perf::data_parallel_group(plan, gpn);
  n.dp_per_node = dp_group.per_node;
  // Expert parallel ranks are neighbours, so each node holds dp_per_node / ep members of an expert's group.
  const int etp_ep = expert_tensor_parallel(plan) * plan.ep;
  const perf::Group edp_group{n.expert_dp, std::clamp(n.dp_per_node * plan.tp / etp_ep, 1, n.expert_dp), etp_ep};
  const double backward_last = lps * (layer.bwd + n.layer_recompute) + pace_out_bwd;
  if (plan.dp * plan.cp > 1) {
    // Gradients of the trained weights; with adapters, the updated adapters are gathered after the step
    // (ZeRO 1-2) and the frozen base weights before each use (ZeRO-3).
    const double dg = (adapters ? trainable_local : n.dense_local) * fw.grad_reduce_bytes;
    const double eg = adapters ? 0.0 : n.expert_local * fw.grad_reduce_bytes;
    const bool gathers_base = plan.zero_stage == ZeroStage::parameters;
    const double dw = adapters ? (gathers_base ? n.dense_local * gather_bytes + trainable_local * fw.param_gather_bytes
                                               : trainable_local * fw.param_gather_bytes)
                               : n.dense_local * fw.param_gather_bytes;
    const double ew = n.expert_local * (adapters ? (gathers_base ? gather_bytes : 0.0) : fw.param_gather_bytes);
    if (plan.zero_stage == ZeroStage::none) {
      n.dp_comm = all_reduce_seconds(cluster, dg, dp_group) + all_reduce_seconds(cluster, eg, edp_group);
      n.dp_exposed = fw.overlap_grad_reduce ? perf::exposed_after_overlap(n.dp_comm, backward_last, lps) : n.dp_comm;
    } else if (plan.zero_stage != ZeroStage::parameters) {
      // Reduce-scatter of gradients (overlapped like the all-reduce) + all-gather of updated weights after the step.
      // ZeRO 1 accumulates the whole gradient over the micro-batches and reduce-scatters it once. ZeRO 2
      // keeps only its shard, so every micro-batch's backward reduce-scatters its gradients ("gradient
      // reduction is required after every backward because of gradient partitioning": DeepSpeed,
      // deepspeedai/DeepSpeed#2252; PyTorch FSDP's SHARD_GRAD_OP likewise outside no_sync): m reductions,
      // each overlapped with its own micro-batch's backward.
      const double rs = perf::reduce_scatter_seconds(cluster, dg, dp_group) + reduce_scatter_seconds(cluster, eg, edp_group);
      const double ag = perf::all_gather_seconds(cluster, dw, dp_group) + all_gather_seconds(cluster, ew, edp_group);
      const double reductions = plan.zero_stage == ZeroStage::gradients ? md : 1.0;
      n.dp_comm = reductions * rs + ag;
      // The all-gather of the updated weights: inside the optimizer step, or during the next iteration's
      // first forward pass on this stage, chunk by chunk (Framework::gather_weights_in_forward). The
      // chunks are the gradient buckets: without an overlapped reduction Megatron-Core keeps one bucket
      // ("Set bucket_size to infinity if overlap_grad_reduce is False", DistributedDataParallel), whose
      // gather the first layer waits for whole. With pipeline stages, the first stage is bucketed and
      // the later ones, one bucket each, gather while the pipeline fills: the first stage's one forward
      // pass is the window, as here.
      const double forward_first = lps * layer.fwd + pace_out_fwd;
      n.dp_exposed = reductions * (fw.overlap_grad_reduce ? perf::exposed_after_overlap(rs, backward_last, lps) : rs) +
                     (fw.gather_weights_in_forward && fw.overlap_grad_reduce ? perf::exposed_after_overlap(ag, forward_first, lps) : ag);
    } else {
      // ZeRO-3 / FSDP: every micro-batch gathers the weights for the forward and again for the backward and
      // reduce-scatters the gradients (Rajbhandari et al. 2020 §5.3: 1.5x the all-reduce volume). Each is
      // one collective per transformer block, not one per micro-batch: FSDP wraps every block as a unit
      // and gathers, prefetches and reduce-scatters unit by unit (Zhao et al. 2023, PyTorch FSDP, §3.2-3.3;
      // the llm-foundry and torchtitan wrap policies), so every layer pays the ring's latency, which at
      // hundreds of GPUs and little work per GPU is what is left exposed.
      const int units = std::max(1, lps);
      const double per_mb =
          units * (2 * perf::all_gather_seconds(cluster, dw / units, dp_group) + perf::reduce_scatter_seconds(cluster, dg / units, dp_group) +
                   2 * all_gather_seconds(cluster, ew / units, edp_group) + reduce_scatter_seconds(cluster, eg / units, edp_group));
      // Unsharding copies on the compute stream: the gathered weights are written twice (forward and
      // backward) and the gradients are cast and copied into the reduce-scatter buffer (PyTorch FSDP
      // FlatParameter design, Zhao et al. 2023 §3.2): 2 x weight + 2 + 2 x reduce bytes per parameter.
      const double local = n.dense_local + n.expert_local;
      const double copied = adapters ? local * 2 * gather_bytes + trainable_local * (2 * fw.param_gather_bytes + 2 + 2 * fw.grad_reduce_bytes)
                                     : local * (2 * fw.param_gather_bytes + 2 + 2 * fw.grad_reduce_bytes);
      n.zero3_copy_bytes = copied;
      n.zero3_copies = md * (copied / rates.bandwidth + 4 * lps * rates.overhead);
      n.dp_comm = per_mb * md;
      const double compute_mb = lps * (layer.fwd + layer.bwd + n.layer_recompute) + pace_out_fwd + pace_out_bwd;
      n.dp_exposed = md * (fw.overlap_param_gather ? perf::exposed_after_overlap(per_mb, compute_mb, lps) : per_mb);
    }
    // What hides under compute slows that compute (EfficiencyModel::overlap_slowdown, Lee et al. 2025).
    // (ZeRO 1-2: the all-gather hides only where the framework gathers in the next forward pass.)
    n.overlap_hidden = n.dp_comm - n.dp_exposed;
    n.overlap_cost = n.overlap_hidden * rates.overlap_slowdown;
  }

  // Optimizer step on this GPU's shard (ZeRO >= 1 shards dense states over dp x cp, expert states over dp x cp / ep).
  const double opt_params = adapters ? (plan.zero_stage != ZeroStage::none ? trainable_local / (plan.dp * plan.cp) : trainable_local)
                            : plan.zero_stage != ZeroStage::none ? n.dense_local / (plan.dp * plan.cp) + n.expert_local / n.expert_dp
                                                                 : n.dense_local + n.expert_local;
  perf::Op opt;  // adam_step(...) without its name string
  opt.kind = perf::OpKind::optimizer;
  opt.flops = 12.0 * opt_params;
  // A fused Adam reads the fp32 weight, momentum and variance, and the gradient (Framework::master_grad_bytes,
  // 4 B in fp32 training), and writes the three fp32 states and the bf16 weight copy (none where the fp32
  // parameters are the weights: Framework::fp32_params).
  const double grad_read = job.precision == Precision::fp32 ? 4.0 : fw.master_grad_bytes;
  const double weight_write = fw.fp32_params ? 0.0 : e;
  opt.bytes = opt_params * (fw.optimizer_bytes_per_param > 0 ? fw.optimizer_bytes_per_param : 12.0 + grad_read + 12.0 + weight_write);
  n.opt_bytes = opt.bytes;
  n.t_opt = rates.time(opt);

  n.tokens = static_cast<double>(job.global_batch) * static_cast<double>(seq);
  n.model_flops = job.model_flops_per_token ? *job.model_flops_per_token * n.tokens
                 : job_flops                   ? job_flops->model
                                               : job_model_flops(job, job.global_batch, seq);
  // Hardware FLOPs = model FLOPs + what recomputation runs again, under the one counting rule MFU
  // uses: attention over all s^2 query-key pairs, masked work included (Chowdhery et al. 2022, PaLM,
  // App. B; Korthikanti et al. 2022, §6). Selective recompute repeats the attention scores, full
  // recompute every layer's forward (not the logits). So HFU >= MFU always; the time model still
  // charges the causal kernel's real work (flash attention skips masked blocks).
  // Only what the kernels really run again counts: the attention core's forward, fused kernel or not
  // (detail::cost_of: Megatron-Core checkpoints it around the kernel), at the counting rule's FLOPs.
  // Modules other than the attention core count the FLOPs of their kernels: this GPU's share of a
  // micro-batch's layer, over the layers, the micro-batches and the tp x cp GPUs that share them.
  double recomputed = 0;
  if (plan.recompute == Recompute::full && layer.flops_recompute(Recompute::full) > 0)
    recomputed = job_flops ? job_flops->recomputed(Recompute::full) : recomputed_flops(job, seq, Recompute::full);
  if (plan.recompute == Recompute::selective) {
    if ((modules & recompute_module::core_attn) && layer.modules_flops(recompute_module::core_attn) > 0)
      recomputed = job_flops ? job_flops->recomputed(Recompute::selective) : recomputed_flops(job, seq, Recompute::selective);
    // The routed experts' GEMMs run rows padded to the capacity factor; model FLOPs count the tokens.
    const double padded = (modules & recompute_module::moe_experts) ? layer.module_flops[recompute_module::tag(recompute_module::moe_experts) - 1u] : 0.0;
    const double rerun = layer.modules_flops(static_cast<std::uint8_t>(modules & ~recompute_module::core_attn)) - padded + padded / fw.moe_capacity_factor;
    recomputed += rerun * static_cast<double>(s.layers) * static_cast<double>(job.global_batch / plan.micro_batch) * plan.tp * plan.cp;
  }
  n.hw_flops = n.model_flops + recomputed;
  n.iteration = n.pipeline + n.dp_exposed + n.overlap_cost + n.zero3_copies + n.t_opt;
  if (job.measured_mfu) n.iteration = n.model_flops / (cluster.gpus * rates.peak * *job.measured_mfu);
  if (!(n.iteration > 0) || !std::isfinite(n.iteration))
    capplan::detail::fail("iteration", capplan::detail::format_double(n.iteration), "is not a positive finite time");
  return n;
}

}  // namespace capplan::detail
