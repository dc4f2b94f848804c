// Training time of a transformer under a parallel plan (tensor x pipeline x data parallel, ZeRO,
// recomputation, sequence parallelism, interleaved pipeline).
//
//   iteration = (m + (p - 1)/v) x t_stage          1F1B pipeline, bubble (p-1)/(v m) of the ideal time
//                                                   (Narayanan et al. 2021, §2.2.1 and §2.2.2)
//             + exposed data-parallel / ZeRO communication + optimizer step
//   t_stage   = layers/p x (forward + backward + recomputation + tensor-parallel all-reduces)
//             + output layer (last stage) + pipeline point-to-point
// Each kernel's time comes from efficiency.hpp; each collective's from communication.hpp.
// tokens/s = global batch x sequence / iteration; MFU = model FLOPs / (time x GPUs x peak) and HFU
// counts recomputation too (Korthikanti et al. 2022, §6.3; Chowdhery et al. 2022, App. B).
#pragma once

#include "capplan/compute/flops.hpp"
#include "capplan/error.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/perf/communication.hpp"
#include "capplan/perf/efficiency.hpp"
#include "capplan/perf/explain.hpp"
#include "capplan/perf/roofline.hpp"
#include "capplan/units/quantity.hpp"
#include "capplan/workload/parallel_plan.hpp"
#include "capplan/workload/params.hpp"
#include "capplan/workload/transformer.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace capplan::perf {

// The plan (tp, pp, dp, ep, micro-batch, ZeRO stage, recomputation, sequence parallelism,
// interleaving) is capplan::ParallelPlan of workload/parallel_plan.hpp, the one the memory budget reads.

// How a training framework runs: fused kernels, what it overlaps, what it sends.
struct Framework {
  std::string name = "generic (PyTorch FSDP/DDP style)";
  bool flash_attention = true;
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

  void validate() const {
    require_positive(grad_reduce_bytes, "grad_reduce_bytes");
    require_positive(param_gather_bytes, "param_gather_bytes");
    require_positive(master_grad_bytes, "master_grad_bytes");
    require_fraction(attention_forward_speed, "attention_forward_speed");
    require_positive(attention_forward_speed, "attention_forward_speed");
    require_fraction(attention_backward_speed, "attention_backward_speed");
    require_positive(attention_backward_speed, "attention_backward_speed");
    require_nonnegative(optimizer_bytes_per_param, "optimizer_bytes_per_param");
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
    std::string s = "iteration " + format(iteration, {.significant = 4}) + ": tp " + std::to_string(plan.tp) + " x pp " +
                    std::to_string(plan.pp) + " x dp " + std::to_string(plan.dp) + ", micro-batch " +
                    std::to_string(plan.micro_batch) + " x " + std::to_string(micro_batches) + ", ZeRO " +
                    std::to_string(static_cast<int>(plan.zero_stage)) + ", recompute " + std::string(name(plan.recompute)) +
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
  return from_canonical<Duration>(8.0 * tokens * parameters / (gpus * per_gpu.value()));
}

namespace training_detail {

// Times (s) and FLOPs of one layer for one micro-batch on one GPU; recomputation for both
// selective and full, so one computation serves every recomputation choice.
struct PassCost {
  double fwd = 0, bwd = 0;
  double flops_fwd = 0, flops_bwd = 0;
  double recompute_full = 0, recompute_selective = 0;
  double flops_recompute_full = 0, flops_recompute_selective = 0;

  [[nodiscard]] double recompute(Recompute r) const {
    return r == Recompute::full ? recompute_full : r == Recompute::selective ? recompute_selective : 0.0;
  }
  [[nodiscard]] double flops_recompute(Recompute r) const {
    return r == Recompute::full ? flops_recompute_full : r == Recompute::selective ? flops_recompute_selective : 0.0;
  }
};

template <class Ops>
inline PassCost cost_of(const Ops& ops, const DeviceRates& r) {
  PassCost c;
  for (const Op& op : ops) {
    const double tf = r.time(op);
    double tb = 0, fb = 0;
    switch (op.kind) {
      case OpKind::gemm:
      case OpKind::attention_gemm: {
        // Backward: input gradient dA = dC B^T (m x k over n) and weight gradient dB = A^T dC (k x n over m).
        // Both move the same three matrices and do the forward's FLOPs (gemm() of roofline.hpp, shapes swapped).
        Op dgrad = op;
        dgrad.n = op.k;
        dgrad.k = op.n;
        Op wgrad = op;
        wgrad.m = op.k;
        wgrad.k = op.m;
        tb = r.time(dgrad) + r.time(wgrad);
        fb = dgrad.flops + wgrad.flops;
        break;
      }
      case OpKind::flash_attention: {
        // FlashAttention backward: 5 matmuls to the forward's 2 (2.5x FLOPs), reads Q K V O dO, writes dQ dK dV
        // (Dao 2023, FlashAttention-2 §3.2).
        Op b = op;
        b.flops = 2.5 * op.flops;
        b.bytes = 2.0 * op.bytes;
        tb = r.time(b, true);
        fb = b.flops;
        break;
      }
      case OpKind::elementwise:
      case OpKind::optimizer: {
        // Backward of an element-wise op reads the output gradient and the saved input, writes the input gradient.
        Op b = op;
        b.bytes = 2.0 * op.bytes;
        tb = r.time(b);
        break;
      }
    }
    c.fwd += tf;
    c.bwd += tb;
    c.flops_fwd += op.flops;
    c.flops_bwd += fb;
    c.recompute_full += tf;
    c.flops_recompute_full += op.flops;
    // Selective recomputation redoes the attention core: QK^T, softmax, dropout, PV (Korthikanti et al. 2022, §5).
    if (op.kind == OpKind::attention_gemm ||
        (op.kind == OpKind::elementwise && (op.name == "scale-mask-softmax" || op.name == "attention dropout"))) {
      c.recompute_selective += tf;
      c.flops_recompute_selective += op.flops;
    }
  }
  return c;
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
  c.recompute_selective = mix(a.recompute_selective, b.recompute_selective);
  c.flops_recompute_full = mix(a.flops_recompute_full, b.flops_recompute_full);
  c.flops_recompute_selective = mix(a.flops_recompute_selective, b.flops_recompute_selective);
  return c;
}

// One transformer layer and the output layer, for one micro-batch on one GPU.
struct LayerCosts {
  PassCost layer;
  PassCost output;
};

}  // namespace training_detail

// Kernel costs of a layer and of the output layer under a plan's tp, micro-batch and sequence
// parallelism (the only plan dimensions they depend on).
inline training_detail::LayerCosts layer_costs(const TrainingJob& job, int tp, std::int64_t micro_batch, bool sequence_parallel,
                                               const Framework& fw, const DeviceRates& rates, int ep = 1) {
  const std::int64_t seq = job.seq_len > 0 ? job.seq_len : job.model.seq_len;
  require_positive_count(seq, "seq_len");
  const std::int64_t tokens_mb = micro_batch * seq;
  LayerOptions lo;
  lo.flash_attention = fw.flash_attention;
  lo.dropout = fw.dropout;
  lo.sequence_parallel = sequence_parallel;
  lo.expert_parallel = ep;
  // The framework's attention kernel against the FlashAttention-2 rates of the calibration.
  DeviceRates r = rates;
  r.flash_fwd *= fw.attention_forward_speed;
  r.flash_bwd *= fw.attention_backward_speed;
  training_detail::LayerCosts c;
  OpList ops;
  transformer_layer_ops(ops, job.model, tokens_mb, seq, tp, job.precision, lo);
  c.layer = training_detail::cost_of(ops, r);
  if (job.model.moe && job.model.moe->first_dense_layers > 0) {
    // Average over the leading dense layers and the MoE layers (stage balance is not modelled per layer).
    lo.moe_layer = false;
    transformer_layer_ops(ops, job.model, tokens_mb, seq, tp, job.precision, lo);
    const training_detail::PassCost dense = training_detail::cost_of(ops, r);
    c.layer = training_detail::blend(dense, job.model.moe->first_dense_layers, c.layer, job.model.layers - job.model.moe->first_dense_layers);
  }
  if (job.model.vocab > 0) {
    output_layer_ops(ops, job.model, tokens_mb, tp, job.precision);
    c.output = training_detail::cost_of(ops, r);
  }
  return c;
}

// Checks a plan against a job and a cluster; InputError naming the field otherwise.
inline void validate_plan(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster) {
  require_positive_count(plan.tp, "tp");
  require_positive_count(plan.pp, "pp");
  require_positive_count(plan.dp, "dp");
  require_positive_count(plan.micro_batch, "micro_batch");
  require_positive_count(plan.interleave, "interleave");
  require_positive_count(cluster.gpus, "gpus");
  // A stage cast from a number (a file, a command line) may be out of range.
  if (const int zero = static_cast<int>(plan.zero_stage); zero < 0 || zero > 3)
    capplan::detail::fail("zero_stage", std::to_string(zero), "must be 0, 1, 2 or 3");
  if (plan.gpus() != cluster.gpus)
    capplan::detail::fail("dp", std::to_string(plan.dp),
                          "gives tp x pp x dp = " + std::to_string(plan.gpus()) + ", not the " + std::to_string(cluster.gpus) + " GPUs");
  const ResolvedShape s = resolve(job.model);
  if (s.heads % plan.tp != 0)
    capplan::detail::fail("tp", std::to_string(plan.tp), "does not divide the " + std::to_string(s.heads) + " attention heads");
  if (s.ffn % plan.tp != 0)
    capplan::detail::fail("tp", std::to_string(plan.tp), "does not divide ffn_hidden " + std::to_string(s.ffn));
  if (s.layers % (plan.pp * plan.interleave) != 0)
    capplan::detail::fail("pp", std::to_string(plan.pp),
                          "x interleave " + std::to_string(plan.interleave) + " does not divide the " + std::to_string(s.layers) + " layers");
  if (plan.interleave > 1 && plan.pp == 1) capplan::detail::fail("interleave", std::to_string(plan.interleave), "needs pp > 1");
  if (plan.sequence_parallel && plan.tp == 1) capplan::detail::fail("sequence_parallel", "true", "needs tp > 1");
  require_positive_count(plan.ep, "ep");
  if (plan.ep > 1 && !job.model.moe) capplan::detail::fail("ep", std::to_string(plan.ep), "needs a mixture-of-experts model");
  if (plan.dp % plan.ep != 0) capplan::detail::fail("ep", std::to_string(plan.ep), "does not divide dp = " + std::to_string(plan.dp));
  if (job.model.moe && job.model.moe->experts % plan.ep != 0)
    capplan::detail::fail("ep", std::to_string(plan.ep), "does not divide the " + std::to_string(job.model.moe->experts) + " experts");
  require_positive_count(job.global_batch, "global_batch");
  if (job.global_batch % (plan.micro_batch * plan.dp) != 0)
    capplan::detail::fail("global_batch", std::to_string(job.global_batch),
                          "is not divisible by micro_batch x dp = " + std::to_string(plan.micro_batch * plan.dp));
  require_nonnegative(job.parameters, "parameters");
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

namespace training_detail {

// Every number of one estimate before any text: the estimate's fields and its breakdown are both
// built from these, so the numeric path and the explained path agree exactly.
struct Numbers {
  std::int64_t m = 0;  // micro-batches per iteration
  int lps = 0;         // layers per stage
  double layer_recompute = 0;
  double act_bytes = 0, t_ar = 0, tp_comm_layer = 0, a2a_layer = 0;
  int n_ar = 0;
  double p2p_mb = 0;
  bool stage_link_inter = false;
  double stage_mb = 0, bubble = 0, pipeline = 0;
  // Data parallel: dense weights over all dp replicas, routed experts over the dp / ep replicas of each expert.
  int dp_per_node = 1, expert_dp = 1;
  double dense_local = 0, expert_local = 0;  // parameters on this GPU before ZeRO sharding
  double dp_comm = 0, dp_exposed = 0, zero3_copies = 0;
  double overlap_hidden = 0, overlap_cost = 0;  // communication hidden under compute, and the compute it slows
  double opt_bytes = 0, t_opt = 0;
  double iteration = 0, model_flops = 0, hw_flops = 0, tokens = 0;
};

// Routed-expert parameters of a job: given, else the shape's share of `parameters` (workload/params.hpp).
// `sizes` = parameter_sizes(job.model) when the caller has it already.
inline double expert_parameters(const TrainingJob& job, double parameters, const ParamSizes* sizes = nullptr) {
  if (!job.model.moe) return 0;
  if (job.expert_parameters) return *job.expert_parameters;
  const ParamSizes p = sizes ? *sizes : parameter_sizes(job.model);
  return parameters * p.expert / p.total();
}

// The numbers of one estimate (no text, no allocation).
// `model_flops` and `sizes` (parameter_sizes(job.model)) are passed by callers that have them already.
inline Numbers training_numbers(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster, const Framework& fw,
                                const DeviceRates& rates, const LayerCosts& costs, std::optional<double> model_flops = {},
                                const ParamSizes* sizes = nullptr) {
  const ResolvedShape s = resolve(job.model);
  const std::int64_t seq = job.seq_len > 0 ? job.seq_len : job.model.seq_len;
  require_positive_count(seq, "seq_len");
  const double e = bytes_per_element(job.precision);
  Numbers n;
  n.m = job.global_batch / (plan.micro_batch * plan.dp);
  const std::int64_t tokens_mb = plan.micro_batch * seq;
  const int gpn = cluster.gpus_per_node;
  n.lps = static_cast<int>(s.layers / plan.pp);
  const int lps = n.lps;
  const double md = static_cast<double>(n.m);
  const PassCost& layer = costs.layer;
  const PassCost& out = costs.output;
  n.layer_recompute = layer.recompute(plan.recompute);

  // Tensor parallel: 2 all-reduces of the [tokens, h] activation in the forward pass and 2 in the backward
  // (Shoeybi et al. 2019, Fig. 4), 2 more when the forward is recomputed; with sequence parallelism the
  // same bytes move as all-gather + reduce-scatter (Korthikanti et al. 2022, §4.2.2).
  n.act_bytes = static_cast<double>(tokens_mb) * static_cast<double>(s.hidden) * e;
  const Group tp_group{plan.tp, std::min(plan.tp, gpn)};
  n.t_ar = all_reduce_seconds(cluster, n.act_bytes, tp_group);
  n.n_ar = plan.tp > 1 ? 4 + (plan.recompute == Recompute::full ? 2 : 0) : 0;
  n.tp_comm_layer = n.n_ar * n.t_ar;
  // Expert parallelism: dispatch and combine all-to-alls of tokens x k hidden vectors per MoE layer, forward
  // and backward (+ the recomputed forward) (Lepikhin et al. 2021, GShard §2.2), averaged over the layers.
  if (plan.ep > 1 && job.model.moe) {
    const double a2a_bytes = n.act_bytes * job.model.moe->experts_per_token / plan.tp;
    const Group ep_group{plan.ep, std::clamp(gpn / plan.tp, 1, plan.ep)};
    const int n_a2a = 4 + (plan.recompute == Recompute::full ? 2 : 0);
    n.a2a_layer = n_a2a * all_to_all_seconds(cluster, a2a_bytes, ep_group) * job.model.moe_layers() / static_cast<double>(s.layers);
    n.tp_comm_layer += n.a2a_layer;
  }

  // Pipeline point-to-point: each micro-batch sends its activation forward and its gradient back at every
  // stage boundary, 1/tp of it per GPU then all-gathered over NVLink (Narayanan et al. 2021, §4.1).
  n.stage_link_inter = plan.tp * plan.dp >= gpn && cluster.gpus > gpn;
  const Link& stage_link = n.stage_link_inter ? cluster.inter : cluster.intra;
  if (plan.pp > 1) {
    const double one = p2p_seconds(stage_link, n.act_bytes / plan.tp) +
                       (plan.tp > 1 ? comm::ring_all_gather(n.act_bytes, std::min(plan.tp, gpn), cluster.intra) : 0.0);
    n.p2p_mb = 2.0 * one * plan.interleave;
  }

  const double layer_total = layer.fwd + layer.bwd + n.layer_recompute + n.tp_comm_layer;
  const double out_total = out.fwd + out.bwd;
  n.stage_mb = lps * layer_total + out_total + n.p2p_mb;
  n.bubble = static_cast<double>(plan.pp - 1) / plan.interleave * n.stage_mb;
  n.pipeline = md * n.stage_mb + n.bubble;

  // Data parallel and ZeRO. Dense weights are replicated over the dp GPUs; routed-expert weights are
  // spread over ep of them, so a GPU holds 1/ep of the experts and reduces (or gathers) their gradients
  // only with the dp/ep GPUs that hold the same experts (DeepSpeed-MoE, Rajbhandari et al. 2022 §4.1:
  // expert-data-parallel groups; Megatron-Core's expert data-parallel group likewise).
  const double parameters = job.parameters > 0 ? job.parameters : sizes ? parameter_total(job.model, *sizes) : parameter_total(job.model);
  double experts = 0;  // ep = 1: experts reduce like dense weights
  if (plan.ep > 1)
    experts = expert_parameters(job, parameters, sizes);
  n.dense_local = (parameters - experts) / (plan.tp * plan.pp);
  n.expert_local = experts / (static_cast<double>(plan.tp) * plan.pp * plan.ep);
  n.expert_dp = plan.dp / plan.ep;
  n.dp_per_node = plan.tp < gpn ? std::clamp(gpn / plan.tp, 1, plan.dp) : 1;
  const Group dp_group{plan.dp, n.dp_per_node};
  // Expert parallel ranks are neighbours, so each node holds dp_per_node / ep members of an expert's group.
  const Group edp_group{n.expert_dp, std::clamp(n.dp_per_node / plan.ep, 1, n.expert_dp)};
  const double backward_last = lps * (layer.bwd + n.layer_recompute) + out.bwd;
  if (plan.dp > 1) {
    const double dg = n.dense_local * fw.grad_reduce_bytes, eg = n.expert_local * fw.grad_reduce_bytes;
    const double dw = n.dense_local * fw.param_gather_bytes, ew = n.expert_local * fw.param_gather_bytes;
    if (plan.zero_stage == ZeroStage::none) {
      n.dp_comm = all_reduce_seconds(cluster, dg, dp_group) + all_reduce_seconds(cluster, eg, edp_group);
      n.dp_exposed = fw.overlap_grad_reduce ? exposed_after_overlap(n.dp_comm, backward_last, lps) : n.dp_comm;
    } else if (plan.zero_stage != ZeroStage::parameters) {
      // Reduce-scatter of gradients (overlapped like the all-reduce) + all-gather of updated weights after the step.
      const double rs = reduce_scatter_seconds(cluster, dg, dp_group) + reduce_scatter_seconds(cluster, eg, edp_group);
      const double ag = all_gather_seconds(cluster, dw, dp_group) + all_gather_seconds(cluster, ew, edp_group);
      n.dp_comm = rs + ag;
      n.dp_exposed = (fw.overlap_grad_reduce ? exposed_after_overlap(rs, backward_last, lps) : rs) + ag;
    } else {
      // ZeRO-3 / FSDP: every micro-batch gathers the weights for the forward and again for the backward and
      // reduce-scatters the gradients (Rajbhandari et al. 2020 §5.3: 1.5x the all-reduce volume).
      const double per_mb = 2 * all_gather_seconds(cluster, dw, dp_group) + reduce_scatter_seconds(cluster, dg, dp_group) +
                            2 * all_gather_seconds(cluster, ew, edp_group) + reduce_scatter_seconds(cluster, eg, edp_group);
      // Unsharding copies on the compute stream: the gathered weights are written twice (forward and
      // backward) and the gradients are cast and copied into the reduce-scatter buffer (PyTorch FSDP
      // FlatParameter design, Zhao et al. 2023 §3.2): 2 x weight + 2 + 2 x reduce bytes per parameter.
      const double local = n.dense_local + n.expert_local;
      n.zero3_copies = md * (local * (2 * fw.param_gather_bytes + 2 + 2 * fw.grad_reduce_bytes) / rates.bandwidth + 4 * lps * rates.overhead);
      n.dp_comm = per_mb * md;
      const double compute_mb = lps * (layer.fwd + layer.bwd + n.layer_recompute) + out_total;
      n.dp_exposed = md * (fw.overlap_param_gather ? exposed_after_overlap(per_mb, compute_mb, lps) : per_mb);
    }
    // What hides under compute slows that compute (EfficiencyModel::overlap_slowdown, Lee et al. 2025).
    // (ZeRO 1-2: the post-step all-gather is exposed whole, so only the reduce-scatter hides.)
    n.overlap_hidden = n.dp_comm - n.dp_exposed;
    n.overlap_cost = n.overlap_hidden * rates.overlap_slowdown;
  }

  // Optimizer step on this GPU's shard (ZeRO >= 1 shards dense states over dp, expert states over dp / ep).
  const double opt_params =
      plan.zero_stage != ZeroStage::none ? n.dense_local / plan.dp + n.expert_local / n.expert_dp : n.dense_local + n.expert_local;
  Op opt;  // adam_step(...) without its name string
  opt.kind = OpKind::optimizer;
  opt.flops = 12.0 * opt_params;
  opt.bytes = opt_params * (fw.optimizer_bytes_per_param > 0 ? fw.optimizer_bytes_per_param : 12.0 + fw.master_grad_bytes + 12.0 + e);
  n.opt_bytes = opt.bytes;
  n.t_opt = rates.time(opt);

  const double per_mb_hw = static_cast<double>(s.layers) * (layer.flops_fwd + layer.flops_bwd + layer.flops_recompute(plan.recompute)) +
                           out.flops_fwd + out.flops_bwd;
  n.hw_flops = static_cast<double>(plan.dp) * plan.tp * md * per_mb_hw;
  n.tokens = static_cast<double>(job.global_batch) * static_cast<double>(seq);
  n.model_flops = job.model_flops_per_token ? *job.model_flops_per_token * n.tokens
                 : model_flops                 ? *model_flops
                                               : model_flops_value(job.model, job.global_batch, seq, AttentionCount::full);
  n.iteration = n.pipeline + n.dp_exposed + n.overlap_cost + n.zero3_copies + n.t_opt;
  if (job.measured_mfu) n.iteration = n.model_flops / (cluster.gpus * rates.peak * *job.measured_mfu);
  if (!(n.iteration > 0) || !std::isfinite(n.iteration))
    capplan::detail::fail("iteration", capplan::detail::format_double(n.iteration), "is not a positive finite time");
  return n;
}

// The breakdown of an estimate from its numbers (the explained path).
inline void fill_breakdown(Breakdown& b, const Numbers& n, const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                           const Framework& fw, const DeviceRates& rates, const LayerCosts& costs) {
  const PassCost& layer = costs.layer;
  const PassCost& out = costs.output;
  const double peak = rates.peak;
  const int gpn = cluster.gpus_per_node;
  const std::int64_t m = n.m;
  const int lps = n.lps;
  if (job.measured_mfu) {
    b.add("iteration from measured MFU", n.iteration,
          format(from_canonical<FlopCount>(n.model_flops)) + " / (" + std::to_string(cluster.gpus) + " GPUs x " +
              format(from_canonical<FlopRate>(peak)) + " x " + num(*job.measured_mfu) + ")",
          "measured");
    return;
  }
  const double md = static_cast<double>(m);
  const std::string per = std::to_string(m) + " micro-batches x " + std::to_string(lps) + " layers x ";
  b.add("forward", md * (lps * layer.fwd + out.fwd), per + seconds_text(layer.fwd) + " (+ output layer)", "kernels");
  b.add("backward", md * (lps * layer.bwd + out.bwd), per + seconds_text(layer.bwd) + " (+ output layer)", "kernels");
  if (plan.recompute != Recompute::none)
    b.add("recomputation (" + std::string(name(plan.recompute)) + ")", md * lps * n.layer_recompute,
          per + seconds_text(n.layer_recompute), "kernels");
  if (plan.ep > 1)
    b.add("expert-parallel all-to-alls", md * lps * n.a2a_layer, per + seconds_text(n.a2a_layer) + " (MoE layers' share)",
          std::string(name(plan.ep * plan.tp <= gpn ? cluster.intra.kind : cluster.inter.kind)));
  if (plan.tp > 1)
    b.add("tensor-parallel all-reduces", md * lps * (n.tp_comm_layer - n.a2a_layer),
          per + std::to_string(n.n_ar) + " x " + seconds_text(n.t_ar) + " (" + format(from_canonical<DataSize>(n.act_bytes)) + " each)",
          std::string(name(cluster.intra.kind)));
  if (plan.pp > 1) {
    const Link& stage_link = n.stage_link_inter ? cluster.inter : cluster.intra;
    b.add("pipeline send/receive", md * n.p2p_mb, std::to_string(m) + " micro-batches x " + seconds_text(n.p2p_mb),
          std::string(name(stage_link.kind)));
    b.add("pipeline bubble", n.bubble,
          "(" + std::to_string(plan.pp) + " - 1) / " + std::to_string(plan.interleave) + " x " + seconds_text(n.stage_mb) +
              " per micro-batch",
          "schedule");
  }
  if (plan.dp > 1) {
    const auto size = [](double bytes) { return format(from_canonical<DataSize>(bytes)); };
    const double dg = n.dense_local * fw.grad_reduce_bytes, dw = n.dense_local * fw.param_gather_bytes;
    const std::string over = " over " + std::to_string(plan.dp) + " GPUs";
    std::string text;
    if (plan.zero_stage == ZeroStage::none) text = "all-reduce " + size(dg) + over;
    else if (plan.zero_stage != ZeroStage::parameters) text = "reduce-scatter " + size(dg) + " + all-gather " + size(dw) + over;
    else
      text = std::to_string(m) + " micro-batches x (2 all-gathers of " + size(dw) + " + reduce-scatter of " + size(dg) + ")" + over;
    if (n.expert_local > 0)
      text += "; expert weights " + size(n.expert_local * fw.grad_reduce_bytes) + " of gradients over the " +
              std::to_string(n.expert_dp) + " GPUs holding the same experts";
    b.add(plan.zero_stage == ZeroStage::parameters ? "ZeRO-3 gathers + reduce-scatters (exposed)" : "data-parallel gradient reduction (exposed)", n.dp_exposed,
          text + ": " + seconds_text(n.dp_comm) + (n.dp_exposed < n.dp_comm ? " of which the rest hides under compute" : ""),
          std::string(name(n.dp_per_node >= plan.dp ? cluster.intra.kind : cluster.inter.kind)));
  }
  if (n.overlap_cost > 0)
    b.add("compute slowed by overlapped communication", n.overlap_cost,
          seconds_text(n.overlap_hidden) + " hidden x " + num(100 * rates.overlap_slowdown, 3) + " % slowdown", "contention");
  if (n.zero3_copies > 0)
    b.add("ZeRO-3 unshard/reshard copies", n.zero3_copies,
          std::to_string(m) + " micro-batches x " +
              format(from_canonical<DataSize>((n.dense_local + n.expert_local) * (2 * fw.param_gather_bytes + 2 + 2 * fw.grad_reduce_bytes))) +
              " / " + format(from_canonical<Bandwidth>(rates.bandwidth)),
          "memory");
  b.add("optimizer step", n.t_opt, format(from_canonical<DataSize>(n.opt_bytes)) + " / " + format(from_canonical<Bandwidth>(rates.bandwidth)),
        "memory");
  b.assumptions.push_back(fw.name + "; " + std::string(name(job.precision)) + "; achieved memory bandwidth " +
                          format(from_canonical<Bandwidth>(rates.bandwidth)) + ", best-case GEMM " + num(100 * rates.best_fraction, 3) +
                          " % of " + format(from_canonical<FlopRate>(peak)));
}

}  // namespace training_detail

// The estimate's fields from its numbers.
inline TrainingEstimate estimate_from(const training_detail::Numbers& n, const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                                      const DeviceRates& rates) {
  const double peak = rates.peak;
  TrainingEstimate est;
  est.plan = plan;
  est.micro_batches = n.m;
  est.iteration = from_canonical<Duration>(n.iteration);
  est.tokens_per_second = n.tokens / n.iteration;
  est.samples_per_second = static_cast<double>(job.global_batch) / n.iteration;
  est.bubble_fraction = job.measured_mfu ? 0.0 : n.bubble / n.iteration;
  est.model_flops = from_canonical<FlopCount>(n.model_flops);
  est.hardware_flops = from_canonical<FlopCount>(n.hw_flops);
  est.model_rate_per_gpu = from_canonical<FlopRate>(n.model_flops / n.iteration / cluster.gpus);
  est.hardware_rate_per_gpu = from_canonical<FlopRate>(n.hw_flops / n.iteration / cluster.gpus);
  est.mfu = n.model_flops / (n.iteration * cluster.gpus * peak);
  est.hfu = n.hw_flops / (n.iteration * cluster.gpus * peak);
  return est;
}

// The estimate itself; `rates` are device_rates(cluster.gpu, job.precision, model), computed once by
// callers that evaluate many plans. `with_text` = false skips the breakdown (nothing else changes:
// every number is the same); `precomputed` layer costs are those of layer_costs(...) for this plan.
inline TrainingEstimate estimate_training(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                                          const Framework& fw, const DeviceRates& rates, bool with_text = true,
                                          const training_detail::LayerCosts* precomputed = nullptr) {
  using namespace training_detail;
  validate_plan(job, plan, cluster);
  fw.validate();
  const LayerCosts costs =
      precomputed ? *precomputed : layer_costs(job, plan.tp, plan.micro_batch, plan.sequence_parallel, fw, rates, plan.ep);
  const Numbers n = training_numbers(job, plan, cluster, fw, rates, costs);
  TrainingEstimate est = estimate_from(n, job, plan, cluster, rates);
  if (with_text) fill_breakdown(est.breakdown, n, job, plan, cluster, fw, rates, costs);
  return est;
}

// With its breakdown (explained path).
inline TrainingEstimate estimate_training(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                                          const Framework& fw = {}, const EfficiencyModel& model = {}) {
  return estimate_training(job, plan, cluster, fw, device_rates(cluster.gpu, job.precision, model));
}

// The numbers only, no breakdown (fast path): the same values as estimate_training(...) without text.
inline TrainingEstimate estimate_training_numbers(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                                                  const Framework& fw = {}, const EfficiencyModel& model = {}) {
  return estimate_training(job, plan, cluster, fw, device_rates(cluster.gpu, job.precision, model), false);
}

// Plan-independent inputs of a job on a cluster, worked out once: the exact parameter and FLOP counts
// (integer arithmetic in workload/params.hpp and compute/flops.hpp) and the GPU's rates cost more than
// a plan's whole time estimate and are the same for every plan. estimate_training(prepared, plan)
// then gives the same numbers as estimate_training(job, plan, cluster, framework, model).
struct PreparedTraining {
  TrainingJob job;  // parameters (and MoE expert_parameters) filled in
  Cluster cluster;
  Framework framework;
  DeviceRates rates;
  ParamSizes params;                          // parameter_sizes(job.model), for the memory budget
  std::optional<double> model_flops;          // per iteration, when job.model_flops_per_token is not given
};

inline PreparedTraining prepare_training(const TrainingJob& job, const Cluster& cluster, const Framework& fw = {},
                                         const EfficiencyModel& model = {}) {
  cluster.validate();
  fw.validate();
  PreparedTraining p;
  p.job = job;
  p.cluster = cluster;
  p.framework = fw;
  p.rates = device_rates(cluster.gpu, job.precision, model);
  p.params = parameter_sizes(job.model);
  if (!(p.job.parameters > 0)) p.job.parameters = parameter_total(job.model, p.params);
  if (job.model.moe && !job.expert_parameters) p.job.expert_parameters = training_detail::expert_parameters(job, p.job.parameters, &p.params);
  const std::int64_t seq = job.seq_len > 0 ? job.seq_len : job.model.seq_len;
  require_positive_count(seq, "seq_len");
  require_positive_count(job.global_batch, "global_batch");
  if (!job.model_flops_per_token)
    p.model_flops = model_flops_value(job.model, job.global_batch, seq, AttentionCount::full);
  return p;
}

// One plan of a prepared job: no text unless asked for, nothing allocated without it.
inline TrainingEstimate estimate_training(const PreparedTraining& p, const ParallelPlan& plan, bool with_text = false) {
  using namespace training_detail;
  validate_plan(p.job, plan, p.cluster);
  const LayerCosts costs = layer_costs(p.job, plan.tp, plan.micro_batch, plan.sequence_parallel, p.framework, p.rates, plan.ep);
  const Numbers n = training_numbers(p.job, plan, p.cluster, p.framework, p.rates, costs, p.model_flops);
  TrainingEstimate est = estimate_from(n, p.job, plan, p.cluster, p.rates);
  if (with_text) fill_breakdown(est.breakdown, n, p.job, plan, p.cluster, p.framework, p.rates, costs);
  return est;
}

// One layer's kernels under a plan, one line each: FLOPs, bytes, arithmetic intensity against the
// ridge point, the bound (roofline of peak rates) and the predicted forward time (efficiency model).
struct OpLine {
  Op op;
  RooflinePoint roofline;
  Duration forward{};
  FlopRate achieved{};  // FLOPs / predicted time (0 for an op without FLOPs)
};

inline std::vector<OpLine> layer_op_lines(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                                          const Framework& fw = {}, const EfficiencyModel& model = {}) {
  validate_plan(job, plan, cluster);
  const std::int64_t seq = job.seq_len > 0 ? job.seq_len : job.model.seq_len;
  LayerOptions lo;
  lo.flash_attention = fw.flash_attention;
  lo.dropout = fw.dropout;
  lo.sequence_parallel = plan.sequence_parallel;
  lo.expert_parallel = plan.ep;
  const DeviceRates r = device_rates(cluster.gpu, job.precision, model);
  std::vector<OpLine> lines;
  for (const Op& op : transformer_layer_forward(job.model, plan.micro_batch * seq, seq, plan.tp, job.precision, lo)) {
    OpLine l;
    l.op = op;
    l.roofline = roofline(op, cluster.gpu, job.precision);
    const double t = r.time(op);
    l.forward = from_canonical<Duration>(t);
    l.achieved = from_canonical<FlopRate>(op.flops / t);
    lines.push_back(l);
  }
  return lines;
}

// The lines as a text table.
inline std::string explain_layer_ops(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                                     const Framework& fw = {}, const EfficiencyModel& model = {}) {
  const auto lines = layer_op_lines(job, plan, cluster, fw, model);
  std::string out = "one layer, one micro-batch, one GPU (forward; ridge point " +
                    num(ridge_point(cluster.gpu, job.precision).value()) + " FLOP/B):\n";
  for (const auto& l : lines) {
    std::string name_col(l.op.name);
    name_col.resize(std::max<std::size_t>(name_col.size(), 30), ' ');
    out += "  " + name_col + "  " + format(l.op.flop_count()) + ", " + format(l.op.data_size()) + ", " +
           num(l.roofline.intensity.value()) + " FLOP/B -> " + std::string(name(l.roofline.bound)) + "-bound, " +
           format(l.forward, {.significant = 4}) + (l.op.flops > 0 ? " at " + format(l.achieved) : "") + "\n";
  }
  return out;
}

}  // namespace capplan::perf
