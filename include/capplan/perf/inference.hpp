// Inference time: prefill (time to first token) and per-token decode.
//
//   decode step = sum over kernels of max(FLOPs / achieved rate, bytes / achieved bandwidth) + overheads
//     bytes  = weights read once per step (active matmul parameters x bytes per weight, / tp; a MoE batch
//              reads every expert any of its tokens is routed to)
//            + KV cache read: batch x context x 2 x kv_heads_per_rank x head_dim x layers x bytes,
//              kv_heads_per_rank = max(1, ceil(kv_heads / tp)) (KV heads are replicated, not split,
//              when tp exceeds them); a sliding-window layer reads min(context, window) tokens
//     FLOPs  = batch x decode_flops_per_token(context) / tp               (compute/flops.hpp)
//   Batch-1 decode is bound by memory bandwidth (Pope et al. 2022, "Efficiently Scaling Transformer
//   Inference", §2.1; llama.cpp PR #4766 measures it); large batches become compute-bound.
//   prefill = one forward pass over the prompt (the training kernels of roofline.hpp, causal attention).
// An encoder (bidirectional attention: BERT) generates nothing: a request is one forward pass over its
// tokens, attention over every pair (Devlin et al. 2019, §3), no KV cache kept and no output head run
// (embeddings and classifiers read the last hidden state); `generate` is 0, the estimate's prefill is
// the pass, decode_step 0 and tokens_per_second the input tokens a second.
// A GPU with no published compute rate (Apple's, DGX Spark) has its decode step timed from the bytes,
// kernel costs and links alone, as if memory-bound, and no prefill (InferenceEstimate::compute_timed).
// Tensor parallelism splits weights and KV cache over tp GPUs and adds 2 all-reduces per layer.
// Pipeline stages (pp) run one after another: each boundary passes batch x 2 x hidden values a decode
// step and batch x prompt x 2 x hidden in the prefill, alpha + bytes / tp / B over the boundary's link
// (a node's, or `inter` between nodes) plus an all-gather among the next stage's tp ranks.
#pragma once

#include "capplan/compute/flops.hpp"
#include "capplan/error.hpp"
#include "capplan/memory/formats.hpp"
#include "capplan/perf/communication.hpp"
#include "capplan/perf/efficiency.hpp"
#include "capplan/perf/explain.hpp"
#include "capplan/perf/roofline.hpp"
#include "capplan/workload/params.hpp"
#include "capplan/workload/transformer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace capplan::perf {

struct InferenceJob {
  TransformerShape model;
  Precision compute_precision = Precision::fp16;  // activations and tensor-core math
  double weight_bytes_per_parameter = 2;          // fp16 2, int8 1, 4-bit formats ~0.5625 (q4_0: 4.5 bits)
  double expert_weight_bytes_per_parameter = 0;   // the routed experts' (gpt-oss MXFP4: 0.53125); 0: as the rest
  // The output head's, which quantized checkpoints keep wider (memory/formats.hpp checkpoint_ends: bf16
  // under AWQ, GPTQ, FP8; Q6_K in a Q4_0 file); 0: as the rest.
  double head_weight_bytes_per_parameter = 0;
  double kv_bytes_per_element = 2;                // KV cache element width
  std::int64_t batch = 1;                         // concurrent sequences
  std::int64_t prompt = 512;                      // prompt tokens per sequence
  std::int64_t generate = 128;                    // new tokens per sequence
  int tp = 1;                                     // tensor-parallel GPUs
  // Pipeline stages of tp GPUs each, run one after another for every pass (no micro-batching across
  // stages), so the layers' time is TP tp's over the whole model; each boundary passes its tokens'
  // hidden state and residual on (stage_transfer_seconds below).
  int pp = 1;
  // GPUs of one node: a stage boundary between nodes crosses `inter`; 0: the replica is one node.
  int gpus_per_node = 0;
  Link inter{};                                   // per GPU between nodes, where stages cross them
  PcieHost pcie_host = PcieHost::pcie_switch;     // how a PCIe node attaches its GPUs (perf/communication.hpp)
  PeerToPeer p2p = PeerToPeer::automatic;         // what NCCL may do over its PCIe links (perf/communication.hpp)
  // The host's DRAM wire rate NCCL's SHM transport shares (B/s; make_cluster); 0: assumed_host_memory_bandwidth.
  double host_memory_bandwidth = 0;
  // Quantized weights on tensor cores that take them: the linear layers' matmuls at this rate, their
  // activations quantized per matmul with a calibrated (static) scale; attention, norms and the logits
  // stay at compute_precision. fp8: W8A8 (TensorRT-LLM's and vLLM's FP8 checkpoints); fp4: NVFP4 W4A4
  // on Blackwell (TensorRT-LLM's and vLLM's NVFP4 checkpoints: 16-value E4M3 block scales, 4.5 bits).
  // Absent: the matmuls at compute_precision.
  std::optional<Precision> matmul_precision;
};

// The host's time to launch one kernel of an eager PyTorch forward under no_grad, counted per kernel
// capplan's eager layer has (LayerOptions::eager; the profiler counts 37 a Llama layer where capplan
// counts 31, so the constant is per capplan kernel: 32.7 us). Fitted (the median)
// on the calibration rows of validation/measured/h200-2026-11-29-kernels.json "prefill_sweep": the six
// Llama-3.2-1B-shaped prefills of 16 to 1,024 tokens, whose eager time is at least twice their CUDA
// graph's (so the host's); bench/gpu/fit_eager_host.py re-derives it. The same code measured 16 to
// 29 us per profiler kernel on other hosts (2026-11-27): the host's CPU sets it, and a user's may
// differ by that much (docs/performance-model.md, "Second lease").
inline constexpr double eager_inference_host_seconds_per_kernel = 32.7e-6;

struct InferenceOptions {
  // Kernels launched per layer per decode step. llama.cpp's LLaMA graph (llm_build_llama, Jan 2024)
  // runs about 20 per layer (2 norms + 2 scales, q/k/v/o and 3 FFN matmuls, 2 RoPE, 2 KV copies,
  // KQ, soft-max, KQV, a permute copy, SiLU, multiply, 2 adds); fused engines (vLLM, TensorRT-LLM) fewer.
  int kernels_per_layer = 20;
  bool flash_attention = true;  // prefill attention kernel
  // The engine replays each decode step as a CUDA graph (vLLM and TensorRT-LLM by default, gpt-fast
  // through torch.compile's reduce-overhead mode): one CPU submission per step in place of one per
  // kernel, so each kernel costs cuda_graph_launch_fraction of its eager launch.
  bool cuda_graphs = false;
  // Plain PyTorch (a model written in torch ops, Hugging Face generate without a compiled cache): the
  // layer's element-wise steps as their own kernels (LayerOptions::eager), each launched from Python.
  // A prefill and each decode step take at least their kernels x eager_inference_host_seconds_per_kernel;
  // the GPU waits where that is longer than its work. Not with cuda_graphs (a graph replays the kernels
  // without Python).
  bool eager = false;
  // With eager: the host's time to launch one of capplan's eager kernels (0 to 1 ms). The default is
  // the fitted constant above; a user's CPU may be faster or slower (capplan infer --launch-time).
  double eager_launch_seconds = eager_inference_host_seconds_per_kernel;
};

// Values a pipeline stage passes to the next per token: the hidden state and the residual stream,
// as vLLM's models hand them on (`IntermediateTensors({"hidden_states": ..., "residual": ...})` on every
// rank but the last of the pipeline group). Each of the stage's tp ranks sends 1/tp of them and the
// receiving ranks all-gather them over their node's link, as vLLM's send_tensor_dict does with its
// all_gather_group and Megatron-LM's scatter/gather for training (Narayanan et al. 2021, §4.1).
inline constexpr double stage_values_per_token_per_hidden = 2;

// A pipeline's stage boundaries as they lie on nodes: TP groups of tp inside a node of gpus_per_node
// (0: one node holds all), whole stages to a node, so ceil(pp / stages per node) - 1 boundaries cross
// nodes and the rest stay inside one. Counts in 64 bits: a caller's tp x pp may not fit an int.
struct StageBoundaries {
  int within = 0;           // boundaries between two stages of one node
  int across = 0;           // boundaries between nodes
  int stages_per_node = 1;  // whole stages a node holds
  int nodes = 1;            // nodes the pipeline lies on
  // GPUs a node holds: stages_per_node x tp where the pipeline crosses nodes, else all of them (the
  // node size to count hosts and instances by).
  long long node_gpus = 1;
};
inline StageBoundaries stage_boundaries(int tp, int pp, int gpus_per_node) {
  StageBoundaries b;
  const long long t = std::max(tp, 1), p = std::max(pp, 1), all = t * p;
  b.node_gpus = all;
  if (p <= 1) return b;
  const long long node = gpus_per_node > 0 ? std::min<long long>(gpus_per_node, all) : all;
  b.stages_per_node = static_cast<int>(std::max<long long>(1, node / t));
  b.nodes = static_cast<int>((p + b.stages_per_node - 1) / b.stages_per_node);
  b.across = b.nodes - 1;
  b.within = static_cast<int>(p - 1 - b.across);
  if (b.nodes > 1) b.node_gpus = b.stages_per_node * t;
  return b;
}

// One boundary's transfer of `tokens` tokens: each of the tp ranks sends its 1/tp share over `link`,
// then the next stage's ranks all-gather the whole over their node's link `gather`.
inline double stage_transfer_seconds(double tokens, double hidden, double bytes_per_value, int tp, const Link& link, const Link& gather) {
  const double bytes = tokens * stage_values_per_token_per_hidden * hidden * bytes_per_value;
  return comm::p2p(bytes / tp, link) + (tp > 1 ? comm::ring_all_gather(bytes, tp, gather) : 0.0);
}

// Kernels outside the layers in an eager forward: the embedding lookup, the final norm (eager: 5),
// the output projection and the argmax.
inline constexpr int eager_model_kernels = 8;

// A kernel's fixed cost under a CUDA graph over its eager launch: 80 short kernels take 260 us
// launched one by one and 70 us as one graph (CUDA.jl documentation, "Graphs": RK4, 10 steps), 0.27.
inline constexpr double cuda_graph_launch_fraction = 70.0 / 260.0;

// Weight matmuls per layer in a decode step: QKV and gate-up fused, as vLLM, TensorRT-LLM and
// gpt-fast (QKV) run them; each pays EfficiencyModel::weight_stream_latency once.
inline constexpr int weight_matmuls_per_layer = 4;

struct InferenceEstimate {
  Duration prefill{};            // = time to first token
  Duration decode_step{};        // one new token for every sequence, at the mean context
  Duration total{};              // prefill + generate x decode step
  double tokens_per_second_per_sequence = 0;
  double tokens_per_second = 0;  // all sequences together
  DataSize weight_bytes_per_gpu{};
  DataSize kv_cache_bytes_per_gpu{};  // at the end of generation
  Bound decode_bound = Bound::memory;
  // False where the GPU has no compute rate at the activations' precision (Apple's GPUs, DGX Spark:
  // their makers publish none): the decode step is its memory traffic, kernel costs and links alone,
  // its time if memory-bound (batch-1 decode usually is; llama.cpp's published runs on such GPUs
  // decode at 86-104 % of it: validation/cases/llama-cpp-decode-bound.json), and the prefill, which
  // is compute-bound, is not estimated (prefill 0, total the decode's).
  bool compute_timed = true;
  // An encoder's estimate (BERT): `prefill` is the request's one forward pass, `total` the same,
  // decode_step 0, and the tokens a second are input tokens.
  bool encoder = false;
  Breakdown breakdown;

  [[nodiscard]] Duration time_to_first_token() const { return prefill; }
  [[nodiscard]] std::string explain() const {
    if (encoder)
      return "forward pass " + format(prefill, {.significant = 4}) + " a batch (an encoder generates no tokens): " + num(tokens_per_second) +
             " input tokens/s in all\n" + breakdown.text();
    if (!compute_timed)
      return "decode " + num(tokens_per_second_per_sequence) + " tokens/s per sequence, " + num(tokens_per_second) +
             " tokens/s in all if memory-bound (the GPU has no compute rate: the math is not timed); time to first token not estimated\n" +
             breakdown.text();
    return "decode " + num(tokens_per_second_per_sequence) + " tokens/s per sequence, " + num(tokens_per_second) +
           " tokens/s in all, bound by " + std::string(name(decode_bound)) + "; time to first token " +
           format(prefill, {.significant = 4}) + "\n" + breakdown.text();
  }
};

inline InferenceEstimate estimate_inference(const InferenceJob& job, const GpuSpec& gpu, const EfficiencyModel& model = {},
                                            const InferenceOptions& opt = {}) {
  require_positive_count(job.batch, "batch");
  require_nonnegative(static_cast<double>(job.prompt), "prompt");
  if (job.model.encoder) {
    if (job.generate != 0)
      capplan::detail::fail("generate", std::to_string(job.generate),
                            "must be 0 for an encoder (" + job.model.name + ": bidirectional attention): it generates no tokens, a request is one forward pass over its prompt");
    require_positive_count(job.prompt, "prompt");
  } else {
    require_positive_count(job.generate, "generate");
  }
  require_positive_count(job.tp, "tp");
  require_positive_count(job.pp, "pp");
  require_host_memory_bandwidth(job.host_memory_bandwidth);
  if (job.gpus_per_node < 0) capplan::detail::fail("gpus_per_node", std::to_string(job.gpus_per_node), "is negative (0: one node)");
  if (job.gpus_per_node > 0 && job.tp > job.gpus_per_node && job.pp > 1)
    capplan::detail::fail("tp", std::to_string(job.tp),
                          "is more than the " + std::to_string(job.gpus_per_node) + " GPUs of a node (gpus_per_node): a stage's TP group stays in one node");
  require_positive(job.weight_bytes_per_parameter, "weight_bytes_per_parameter");
  require_nonnegative(job.expert_weight_bytes_per_parameter, "expert_weight_bytes_per_parameter");
  require_nonnegative(job.head_weight_bytes_per_parameter, "head_weight_bytes_per_parameter");
  require_positive(job.kv_bytes_per_element, "kv_bytes_per_element");
  if (opt.kernels_per_layer < 0) capplan::detail::fail("kernels_per_layer", std::to_string(opt.kernels_per_layer), "is negative");
  if (opt.eager && opt.cuda_graphs)
    capplan::detail::fail("eager", "true", "launches each kernel from Python, which a CUDA graph (cuda_graphs) replays without it: choose one");
  if (!(opt.eager_launch_seconds >= 0) || opt.eager_launch_seconds > 1e-3)
    capplan::detail::fail("eager_launch_seconds", capplan::detail::format_double(opt.eager_launch_seconds), "must be 0 to 1 ms (in seconds)");
  if (opt.eager && job.model.moe)
    capplan::detail::fail("eager", "true",
                          "is not modelled for a mixture of experts (an eager MoE layer loops over its experts in Python, which capplan does not count)");
  const ResolvedShape s = resolve(job.model);
  if (s.heads % job.tp != 0) capplan::detail::fail("tp", std::to_string(job.tp), "does not divide the " + std::to_string(s.heads) + " heads");
  if (job.pp > s.layers) capplan::detail::fail("pp", std::to_string(job.pp), "exceeds the model's " + std::to_string(s.layers) + " layers");
  const StageBoundaries boundaries = stage_boundaries(job.tp, job.pp, job.gpus_per_node);
  if (boundaries.across > 0) {
    if (!(job.inter.bandwidth.value() > 0) || !std::isfinite(job.inter.bandwidth.value()))
      capplan::detail::fail("inter.bandwidth", format(job.inter.bandwidth),
                            "is no link: " + std::to_string(job.pp) + " stages of TP " + std::to_string(job.tp) + " on nodes of " +
                                std::to_string(job.gpus_per_node) + " GPUs cross " + std::to_string(boundaries.across) +
                                " node boundaries and need a network between them");
    if (!(job.inter.latency.value() >= 0) || !std::isfinite(job.inter.latency.value()))
      capplan::detail::fail("inter.latency", capplan::detail::format_double(job.inter.latency.value()), "must be a finite time of 0 s or more");
    if (!(job.inter.efficiency > 0 && job.inter.efficiency <= 1))
      capplan::detail::fail("inter.efficiency", capplan::detail::format_double(job.inter.efficiency), "must be in (0, 1]");
  }
  if (job.compute_precision != Precision::fp16 && job.compute_precision != Precision::bf16 && job.compute_precision != Precision::fp32)
    capplan::detail::fail("compute_precision", std::string(name(job.compute_precision)),
                          "is not fp16, bf16 or fp32 (the activations' precision; quantized matmuls: matmul_precision)");
  // A GPU without a rate at the compute precision: its decode from bytes alone (compute_timed).
  const auto rate = gpu.dense.at(job.compute_precision);
  const bool rated = rate && rate->value() > 0 && std::isfinite(rate->value());
  if (job.model.encoder && !rated)
    capplan::detail::fail("compute_precision", std::string(name(job.compute_precision)),
                          "has no rate on \"" + gpu.id + "\": an encoder's forward pass is compute-bound and is not timed without one");
  const DeviceRates r = rated ? device_rates(gpu, job.compute_precision, model) : memory_rates(gpu, model);
  const double e = bytes_per_element(job.compute_precision);
  // The linear matmuls' rates: FP8 (W8A8) or FP4 (W4A4) where matmul_precision says so, else the
  // compute precision's; their operands' bytes are the format's, block scales included (fp8: 1, fp4:
  // NVFP4's 4.5 bits; memory/formats.hpp weight_format).
  if (job.matmul_precision && *job.matmul_precision != Precision::fp8 && *job.matmul_precision != Precision::fp4)
    capplan::detail::fail("matmul_precision", std::string(name(*job.matmul_precision)), "is not fp8 or fp4");
  const bool quantized = job.matmul_precision.has_value();
  if (quantized && !rated)
    capplan::detail::fail("matmul_precision", std::string(name(*job.matmul_precision)),
                          "needs the GPU's " + std::string(name(job.compute_precision)) + " rate as well, which \"" + gpu.id + "\" does not have");
  const DeviceRates rm = quantized ? device_rates(gpu, *job.matmul_precision, model) : r;
  const double operand_bytes = quantized ? weight_format(*job.matmul_precision).bytes_per_value() : e;
  const double tp = job.tp;
  const double B = static_cast<double>(job.batch);
  const double layers = static_cast<double>(s.layers);

  // Decode at the mean context (the step time is linear in the context, so this is the exact mean).
  const double context = static_cast<double>(job.prompt) + (static_cast<double>(job.generate) + 1) / 2.0;
  const double matmul_params = static_cast<double>(matmul_parameters_per_token(job.model));
  // KV cache read per token of context: K and V per KV head, or for multi-head latent attention the
  // latent and the RoPE key only, decoded in the absorbed form (DeepSeek-V2 §2.1.2: (d_c + d_h^R) l
  // elements per token), which every tensor-parallel rank holds whole.
  const MlaShape* mla = job.model.mla ? &*job.model.mla : nullptr;
  // Per GPU: a tensor-parallel rank holds ceil(kv_heads / tp) heads, at least one (heads are
  // replicated when tp exceeds them; workload/transformer.hpp kv_heads_per_rank), as the memory side
  // (memory/kv_cache.hpp) counts them.
  const double kv_per_token_per_layer =
      (mla ? static_cast<double>(mla->kv_lora_rank + mla->qk_rope_head_dim)
           : 2.0 * static_cast<double>(kv_heads_per_rank(s.kv_heads, job.tp) * s.head_dim)) *
      job.kv_bytes_per_element;
  // Sliding-window layers read (and keep) at most the window's tokens: over the steps, a windowed
  // layer reads the mean of min(c, W) for c = prompt + 1 ... prompt + generate (compute/flops.hpp).
  const int windowed = job.model.windowed_layers();
  const double global_layers = layers - windowed;
  const double window_keys =
      windowed > 0 ? capplan::detail::window_context_sum<double>(job.prompt, job.generate, job.model.window->tokens) /
                         static_cast<double>(job.generate)
                   : 0.0;
  const double final_context = static_cast<double>(job.prompt + job.generate);
  const double kv_tokens_read = global_layers * context + windowed * window_keys;  // token-layers per step
  const double kv_tokens_kept =
      global_layers * final_context + windowed * static_cast<double>(job.model.window_span(job.prompt + job.generate));
  // MoE: a batch reads every expert one of its tokens is routed to; with top-k of E experts chosen
  // independently per token, a layer touches E (1 - (1 - k/E)^B) experts in expectation (balanced
  // routing; Fedus et al. 2022 §2.2 trains for balance), not the k one token reads.
  double weight_params = matmul_params;
  double expert_params_read = 0;  // of weight_params: routed-expert weights the step reads
  if (job.model.moe && job.model.moe->experts > 0) {
    const MoeShape& moe = *job.model.moe;
    const double routed_total = parameter_sizes(job.model).expert;
    const double k_over_e = static_cast<double>(moe.experts_per_token) / moe.experts;
    const double touched = 1.0 - std::pow(1.0 - k_over_e, B);
    weight_params += routed_total * (touched - k_over_e);
    expert_params_read = routed_total * touched;
  }
  // The output head in its own format where the checkpoint keeps it wider.
  const double head_params = static_cast<double>(s.vocab) * static_cast<double>(s.hidden);
  const double head_extra =
      job.head_weight_bytes_per_parameter > 0 ? head_params * (job.head_weight_bytes_per_parameter - job.weight_bytes_per_parameter) : 0.0;
  double weight_bytes = (weight_params * job.weight_bytes_per_parameter + head_extra) / tp;
  if (job.expert_weight_bytes_per_parameter > 0 && expert_params_read > 0) {
    // Experts in their own format (weight-only: dequantized for the matmuls, as the 4-bit formats are).
    weight_bytes = ((weight_params - expert_params_read) * job.weight_bytes_per_parameter + head_extra +
                    expert_params_read * job.expert_weight_bytes_per_parameter) / tp;
  }
  const double kv_bytes = B * kv_tokens_read * kv_per_token_per_layer;
  const double flops = B * static_cast<double>(decode_flops_per_token(job.model, static_cast<std::int64_t>(context))) / tp;

  // The step as one weight-streaming pass plus one attention pass; each its own roofline.
  Op weights;
  weights.name = "weight matmuls";
  weights.kind = OpKind::gemm;
  weights.flops = 2.0 * B * matmul_params / tp;
  weights.bytes = weight_bytes + B * layers * static_cast<double>(s.hidden) * e * 8;  // + activations in and out
  // A decode GEMM has m = batch rows: the shape factor of efficiency.hpp for a [B, h] x [h, 3h] product.
  weights.m = job.batch;
  weights.n = std::max<std::int64_t>(1, 3 * s.hidden / job.tp);
  weights.k = s.hidden;
  Op attention;
  attention.name = "attention over KV cache";
  attention.kind = OpKind::elementwise;
  attention.flops = std::max(0.0, flops - weights.flops);
  if (windowed > 0) {
    attention.flops = B * kv_tokens_read * static_cast<double>(capplan::detail::attention_flops_per_pair<Count>(job.model)) / tp;
  }
  if (mla) {
    // Absorbed MLA attends in the latent: QK^T over kv_lora + rope and PV over kv_lora dimensions per head.
    const double heads = static_cast<double>(s.heads);
    const double per_pair = 2.0 * heads * static_cast<double>(mla->kv_lora_rank + mla->qk_rope_head_dim) +
                            2.0 * heads * static_cast<double>(mla->kv_lora_rank);
    attention.flops = B * context * layers * per_pair / tp;
  }
  attention.bytes = kv_bytes;
  const double t_weights = rated ? rm.time(weights) - rm.overhead : weights.bytes / r.bandwidth;
  const double attention_compute = rated ? attention.flops / (r.peak * r.best_fraction) : 0.0;
  const double t_attention = std::max(attention_compute, attention.bytes / r.bandwidth);
  // Eager: the kernels of capplan's eager layer (their count does not depend on the tokens), each
  // launched from Python (eager_inference_host_seconds_per_kernel). Their GPU time is the fused
  // model's: the eager layer's element-wise bytes are training's (an fp32 residual stream under
  // autocast), which a BF16 model serving does not move; with them, GPU-bound eager prefills of
  // 2,048-8,192 tokens came out +7 to +30 % slow, without them -5 to -14 % (in-house-hopper.json).
  double eager_kernels = 0;  // per forward pass (a prefill or a decode step)
  if (opt.eager) {
    LayerOptions le;
    le.flash_attention = opt.flash_attention;
    le.dropout = false;
    le.eager = true;
    double per_layer = 0;
    for (const Op& op : transformer_layer_forward(job.model, job.batch, 1, job.tp, job.compute_precision, le)) per_layer += op.kernels;
    // With tensor parallelism each layer also launches its two all-reduces.
    eager_kernels = layers * (per_layer + (job.tp > 1 ? 2.0 : 0.0)) + eager_model_kernels;
  }
  const double host_pass = eager_kernels * opt.eager_launch_seconds;
  const double per_kernel = r.overhead * (opt.cuda_graphs ? cuda_graph_launch_fraction : 1.0);
  const double launches = opt.eager ? (eager_kernels - eager_model_kernels) * per_kernel : layers * opt.kernels_per_layer * per_kernel;
  double t_tp = 0;
  std::string_view tp_link;  // the link the all-reduces ran on, as the explanation names it
  if (job.tp > 1) {
    // One node's GPUs with its topology (NVLink bridges join pairs only: make_cluster).
    const Cluster c = make_cluster(gpu, job.tp, job.tp, Link{}, job.pcie_host, job.p2p, job.host_memory_bandwidth);
    t_tp = 2.0 * layers * all_reduce_seconds(c, B * static_cast<double>(s.hidden) * e, Group{job.tp, job.tp});
    tp_link = name(c.intra_for(job.tp).kind);
  }
  // Each weight matmul's ramp-up and tail beyond its bytes (EfficiencyModel::weight_stream_latency):
  // four per layer as serving engines fuse them (QKV, output projection, gate-up, down), and the logits.
  const double weight_matmuls = layers * weight_matmuls_per_layer + (s.vocab > 0 ? 1.0 : 0.0);
  const double t_stream = weight_matmuls * rm.stream_latency;
  // Pipeline stage boundaries (StageBoundaries), each over its own link: between nodes `inter`; inside
  // a node the link between the two stages' GPUs, rank r of one stage sending to rank r of the next,
  // tp GPUs on (an NVLink bridge where both lie in one bridged pair, else PCIe; one xGMI link of a
  // mesh; the switch's link), the slowest rank setting the pace. The next stage all-gathers over its
  // TP group's link.
  std::vector<const Link*> stage_path;  // one link per boundary, in pipeline order
  double t_stage = 0;
  std::string stage_links;  // the links the boundaries cross, as the explanation names them
  std::string stage_bound;  // the slowest of them
  Cluster stage_node;
  if (job.pp > 1) {
    const int node = static_cast<int>(std::min<long long>(boundaries.node_gpus, 1 << 20));
    stage_node = make_cluster(gpu, node, node, Link{}, job.pcie_host, job.p2p, job.host_memory_bandwidth);
    // Stages run one at a time: a boundary's tp senders alone share the host's memory through SHM.
    for (Link* l : {&stage_node.intra, &stage_node.intra_beyond})
      share_host_memory(*l, gpu, job.pcie_host, job.tp, stage_node.host_memory_bandwidth);
    const Link& pair = stage_node.intra_for(2);
    for (int stage = 0; stage + 1 < job.pp; ++stage) {
      const int local = stage % boundaries.stages_per_node;
      if (local + 1 == boundaries.stages_per_node) {
        stage_path.push_back(&job.inter);
        continue;
      }
      bool crosses = false;  // some rank's pair leaves its bridged domain
      if (stage_node.intra_domain > 0)
        for (int rank = 0; rank < job.tp && !crosses; ++rank)
          crosses = (local * job.tp + rank) / stage_node.intra_domain != ((local + 1) * job.tp + rank) / stage_node.intra_domain;
      stage_path.push_back(crosses ? &stage_node.intra_beyond : &pair);
    }
    // "3 boundaries (2 inside a node over NVLink, 1 between nodes over Ethernet)".
    std::vector<std::pair<std::string, int>> kinds;
    const Link* slowest = stage_path.front();
    for (const Link* l : stage_path) {
      const std::string k = l == &job.inter ? "between nodes over " + std::string(name(l->kind)) : "inside a node over " + std::string(name(l->kind));
      auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto& entry) { return entry.first == k; });
      if (it == kinds.end()) kinds.emplace_back(k, 1);
      else ++it->second;
      if (l->effective() < slowest->effective()) slowest = l;
    }
    for (const auto& [k, n] : kinds) stage_links += (stage_links.empty() ? "" : ", ") + std::to_string(n) + " " + k;
    stage_links = std::to_string(job.pp - 1) + (job.pp == 2 ? " boundary (" : " boundaries (") + stage_links + ")";
    stage_bound = name(slowest->kind);
  }
  const auto stage_seconds = [&](double tokens) {
    double t = 0;
    for (const Link* l : stage_path)
      t += stage_transfer_seconds(tokens, static_cast<double>(s.hidden), e, job.tp, *l, stage_node.intra_for(job.tp));
    return t;
  };
  t_stage = stage_seconds(B);
  const double step_gpu = t_weights + t_stream + t_attention + launches + t_tp + t_stage;
  const double step = std::max(step_gpu, host_pass);  // eager: the GPU waits on Python where that is longer

  // Prefill: the forward kernels of one layer over batch x prompt tokens, plus the last token's logits.
  double prefill = 0;
  if (job.prompt > 0 && rated) {
    LayerOptions lo;
    lo.flash_attention = opt.flash_attention;
    lo.dropout = false;
    const std::int64_t tokens = job.batch * job.prompt;
    const auto layer_time = [&](std::int64_t window) {
      lo.window = window;
      // The attention kernel's rate at the keys it runs over (efficiency.hpp attention_length_factor).
      DeviceRates ra = r;
      ra.flash_fwd *= attention_length_factor(r.attention_s0_fwd, window > 0 ? std::min(job.prompt, window) : job.prompt);
      double layer = 0;
      double quantize_bytes = 0;  // each linear matmul's input read at compute precision, written quantized
      for (const Op& op : transformer_layer_forward(job.model, tokens, job.prompt, job.tp, job.compute_precision, lo)) {
        if (quantized && op.kind == OpKind::gemm) {
          // Quantized inputs and weights, the output at the compute precision.
          Op q = op;
          const double b = static_cast<double>(op.batch);
          q.bytes = b * ((static_cast<double>(op.m) * static_cast<double>(op.k) + static_cast<double>(op.k) * static_cast<double>(op.n)) * operand_bytes +
                         static_cast<double>(op.m) * static_cast<double>(op.n) * e);
          layer += rm.time(q);
          quantize_bytes += static_cast<double>(op.batch) * static_cast<double>(op.m) * static_cast<double>(op.k) * (e + operand_bytes);
        } else {
          layer += ra.time(op);
        }
      }
      if (quantize_bytes > 0) layer += r.time(elementwise("activation quantization", quantize_bytes));
      return layer;
    };
    prefill = global_layers * layer_time(0);
    if (windowed > 0) prefill += windowed * layer_time(job.model.window->tokens);
    if (s.vocab > 0 && !job.model.encoder) prefill += r.time(gemm("logits", job.batch, std::max<std::int64_t>(1, s.vocab / job.tp), s.hidden, e));
    if (job.tp > 1) {
      const Cluster c = make_cluster(gpu, job.tp, job.tp, Link{}, job.pcie_host, job.p2p, job.host_memory_bandwidth);
      prefill += 2.0 * layers * all_reduce_seconds(c, static_cast<double>(tokens) * static_cast<double>(s.hidden) * e, Group{job.tp, job.tp});
    }
  }
  // The prompt's hidden states pass every stage boundary once, one stage after another.
  const double prefill_stage = job.prompt > 0 && rated ? stage_seconds(static_cast<double>(job.batch * job.prompt)) : 0.0;
  prefill += prefill_stage;

  const double prefill_gpu = prefill;
  if (job.prompt > 0 && rated) prefill = std::max(prefill_gpu, host_pass);

  InferenceEstimate est;
  if (!(step > 0) || !std::isfinite(step)) capplan::detail::fail("decode_step", capplan::detail::format_double(step), "is not a positive finite time");
  est.prefill = from_canonical<Duration>(prefill);
  est.decode_step = from_canonical<Duration>(step);
  est.total = from_canonical<Duration>(prefill + static_cast<double>(job.generate) * step);
  est.tokens_per_second_per_sequence = 1.0 / step;
  est.tokens_per_second = B / step;
  est.weight_bytes_per_gpu = from_canonical<DataSize>(weight_bytes);
  est.kv_cache_bytes_per_gpu =
      from_canonical<DataSize>(B * kv_tokens_kept * kv_per_token_per_layer);
  est.compute_timed = rated;
  if (job.model.encoder) {
    // One forward pass a request: no decode, no KV cache; the rate is of input tokens.
    est.encoder = true;
    est.decode_step = Duration{};
    est.total = est.prefill;
    est.tokens_per_second_per_sequence = static_cast<double>(job.prompt) / prefill;
    est.tokens_per_second = B * static_cast<double>(job.prompt) / prefill;
    est.kv_cache_bytes_per_gpu = DataSize{};
    est.decode_bound = Bound::compute;
  }
  const double weights_compute =
      rated ? weights.flops / (rm.peak * rm.best_fraction * gemm_shape_factor(weights.m, weights.n, weights.k, 1, rm.sm_count, rm.k_fill)) : 0.0;
  est.decode_bound = (weights_compute + attention_compute) > (weights.bytes + attention.bytes) / r.bandwidth ? Bound::compute : Bound::memory;

  Breakdown& b = est.breakdown;
  const bool fitted_launch = opt.eager_launch_seconds == eager_inference_host_seconds_per_kernel;
  const std::string host_how = num(eager_kernels) + " kernels launched from Python x " + seconds_text(opt.eager_launch_seconds) +
                               (fitted_launch ? " (eager PyTorch, measured on one host: a user's CPU may differ)" : " (given)");
  if (job.prompt > 0 && rated) {
    b.add(job.model.encoder ? "forward pass" : "prefill (time to first token)", prefill_gpu - prefill_stage, num(static_cast<double>(job.batch * job.prompt)) + " prompt tokens, " +
                                                            std::to_string(s.layers) + " layers", "kernels");
    if (prefill_stage > 0)
      b.add("prefill: pipeline stage transfers", prefill_stage,
            stage_links + " x " + num(static_cast<double>(job.batch * job.prompt)) +
                " tokens x 2 x " + std::to_string(s.hidden) + " values (hidden state and residual)",
            stage_bound);
    if (prefill > prefill_gpu) b.add("prefill: waiting on the host's kernel launches", prefill - prefill_gpu, host_how, "CPU");
  }
  if (job.model.encoder) return est;  // no decode
  const double g = static_cast<double>(job.generate);
  b.add(!quantized                                   ? "decode: weight matmuls"
        : *job.matmul_precision == Precision::fp4 ? "decode: weight matmuls (FP4)"
                                                  : "decode: weight matmuls (FP8)",
        g * t_weights,
        rated ? num(g) + " steps x max(" + format(from_canonical<FlopCount>(weights.flops)) + " / compute, " +
                    format(from_canonical<DataSize>(weights.bytes)) + " / " + format(from_canonical<Bandwidth>(r.bandwidth)) + ")"
              : num(g) + " steps x " + format(from_canonical<DataSize>(weights.bytes)) + " / " + format(from_canonical<Bandwidth>(r.bandwidth)) +
                    " (no compute rate: not timed)",
        t_weights * r.bandwidth > weights.bytes * 1.0001 ? "compute" : "memory");
  // The fitted latency (EfficiencyModel's default) or a value the caller gave (--weight-stream-latency).
  const bool fitted_latency = model.weight_stream_latency.value() == EfficiencyModel{}.weight_stream_latency.value();
  b.add("decode: weight-matmul ramp and tail", g * t_stream,
        num(g) + " steps x " + num(weight_matmuls) + " weight matmuls x " + seconds_text(rm.stream_latency) +
            (fitted_latency ? " (GPU-side fixed time of a memory-bound matmul, measured on H100 and H200)"
                            : " (GPU-side fixed time of a memory-bound matmul, as given; capplan's fitted value is " +
                                  seconds_text(EfficiencyModel{}.weight_stream_latency.value()) + ")"),
        "latency");
  if (!fitted_latency)
    b.assumptions.push_back("weight-stream latency " + seconds_text(rm.stream_latency) + " a weight matmul, as given (fitted: " +
                            seconds_text(EfficiencyModel{}.weight_stream_latency.value()) + ", measured on H100 and H200)");
  b.add("decode: attention over KV cache", g * t_attention,
        num(g) + " steps x " + format(from_canonical<DataSize>(kv_bytes)) + " / " + format(from_canonical<Bandwidth>(r.bandwidth)),
        attention_compute > kv_bytes / r.bandwidth ? "compute" : "memory");
  b.add("decode: kernel launches", g * launches,
        num(g) + " steps x " +
            (opt.eager ? num(eager_kernels - eager_model_kernels) + " eager kernels"
                       : std::to_string(s.layers) + " layers x " + std::to_string(opt.kernels_per_layer) + " kernels") +
            " x " + seconds_text(r.overhead) + (opt.cuda_graphs ? " x " + num(cuda_graph_launch_fraction) + " (CUDA graph)" : ""),
        "overhead");
  if (job.tp > 1) b.add("decode: tensor-parallel all-reduces", g * t_tp, num(g) + " steps x 2 x " + std::to_string(s.layers) + " layers", std::string(tp_link));
  if (t_stage > 0)
    b.add("decode: pipeline stage transfers", g * t_stage,
          num(g) + " steps x " + stage_links + " x " + num(B) + " tokens x 2 x " +
              std::to_string(s.hidden) + " values",
          stage_bound);
  if (step > step_gpu) b.add("decode: waiting on the host's kernel launches", g * (step - step_gpu), num(g) + " steps x " + host_how, "CPU");
  return est;
}

}  // namespace capplan::perf
