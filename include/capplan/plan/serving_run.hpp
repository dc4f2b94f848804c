// A serving load on one GPU type: the fewest GPUs that hold it (memory/solvers.hpp) or a given
// layout, timed by perf/inference.hpp. `capplan infer` and the serving purchase table both use
// this, so they agree.
//
//   ServingLoad load;  load.weights = formats::q4_0;  load.batch = 4;  load.prompt = 1000;  load.output = 500;
//   std::optional<ServingRun> r = smallest_serving_run(shape, gpu, load);
//   r->estimate.tokens_per_second;  r->estimate.prefill;  r->memory.total();
//
// Pipeline stages: a decode step passes through the stages one after another (no micro-batching
// across stages), so a layout of TP t x PP p decodes as fast as TP t over the whole model, plus each
// stage boundary's transfer of the tokens' hidden state and residual (perf/inference.hpp): over the
// node's link, or between nodes of `gpus_per_node` over the fabric (serving_fabric). Activations are
// FP16 (else BF16, else FP32 where the catalog lists no tensor rate). A GPU with no rate at all is
// timed by its decode's memory traffic alone, an upper bound on its speed, with no prefill
// (estimate.compute_timed false).
#pragma once

#include "capplan/detail/text.hpp"
#include "capplan/error.hpp"
#include "capplan/memory/budget.hpp"
#include "capplan/memory/solvers.hpp"
#include "capplan/perf/fabric.hpp"
#include "capplan/perf/inference.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace capplan {

struct ServingLoad {
  WeightFormat weights = formats::bf16;
  std::optional<WeightFormat> expert_weights;  // routed experts' format, if not `weights` (gpt-oss: mxfp4)
  WeightFormat kv_cache = formats::bf16;
  std::int64_t batch = 1;    // sequences served at once
  std::int64_t prompt = 512;  // prompt tokens per sequence
  std::int64_t output = 128;  // generated tokens per sequence; 0 for an encoder (BERT), which generates none
  bool cuda_graphs = false;   // the engine replays decode steps as CUDA graphs (perf/inference.hpp)
  bool eager = false;         // plain PyTorch: each kernel launched from Python (perf::InferenceOptions::eager)
  perf::PcieHost pcie_host = perf::PcieHost::pcie_switch;  // how a PCIe node attaches its GPUs (perf/communication.hpp)
  perf::PeerToPeer p2p = perf::PeerToPeer::automatic;      // what NCCL may do over its PCIe links (perf/communication.hpp);
                                                           // disabled: PCIe cards and bridged pairs only, others keep the default
  // The host's DRAM wire rate (B/s) its GPUs share through host memory (NCCL's SHM, perf::make_cluster);
  // 0: perf::assumed_host_memory_bandwidth.
  double host_memory_bandwidth = 0;
  // GPUs of one node: a replica's TP group stays inside one, and its pipeline stages beyond it cross
  // `fabric` (serving_fabric). 0: the whole replica in one node.
  int gpus_per_node = 0;
  // The network between nodes; absent: serving_fabric's default for the GPU.
  std::optional<perf::Fabric> fabric;
  // A weight-streaming matmul's fixed time beyond its bytes (perf::EfficiencyModel::weight_stream_latency);
  // absent: the model's fitted value (capplan infer --weight-stream-latency sets it).
  std::optional<Duration> weight_stream_latency;
  // With eager: the host's time to launch one kernel (perf::InferenceOptions::eager_launch_seconds);
  // absent: the fitted 32.7 us (capplan infer --launch-time sets it).
  std::optional<Duration> eager_launch_time;

  void validate() const {
    require_positive_count(batch, "batch");
    if (prompt < 0) detail::fail("prompt", std::to_string(prompt), "is negative");
    if (output < 0) detail::fail("output", std::to_string(output), "is negative");
    if (weight_stream_latency) efficiency().validate();
    if (gpus_per_node < 0 || gpus_per_node > 1 << 20) detail::fail("gpus_per_node", std::to_string(gpus_per_node), "must be 0 (one node) to 1048576");
    if (fabric) fabric->validate();
    perf::require_host_memory_bandwidth(host_memory_bandwidth);
    if (eager && cuda_graphs) detail::fail("eager", "true", "launches each kernel from Python, which a CUDA graph (cuda_graphs) replays without it: choose one");
    if (eager_launch_time) {
      const double t = eager_launch_time->value();
      if (!(t >= 0) || t > 1e-3) detail::fail("eager_launch_time", perf::seconds_text(t), "must be 0 to 1 ms");
      if (!eager) detail::fail("eager_launch_time", perf::seconds_text(t), "applies to eager serving (eager): other engines launch kernels without Python");
    }
  }
  // The efficiency model the load is timed with: the defaults, with the weight-stream latency given.
  [[nodiscard]] perf::EfficiencyModel efficiency() const {
    perf::EfficiencyModel m;
    if (weight_stream_latency) m.weight_stream_latency = *weight_stream_latency;
    return m;
  }
  // Memory is sized for the whole sequence: prompt + output tokens.
  [[nodiscard]] InferenceConfig config(int tp = 1, int pp = 1) const {
    InferenceConfig c;
    c.weights = weights;
    c.expert_weights = expert_weights;
    c.kv_cache = kv_cache;
    c.sequences = batch;
    c.context = prompt + output;
    c.tensor_parallel = tp;
    c.pipeline_parallel = pp;
    return c;
  }
};

// The precision a weight format's matmuls run at on `gpu`, absent where they run at the activations'
// precision. FP8 weights on FP8 tensor cores run W8A8, as TensorRT-LLM and vLLM run FP8 checkpoints on
// Hopper, Ada and Blackwell; NVFP4 weights on Blackwell-class (FP4) tensor cores run W4A4 (NVFP4
// checkpoints in TensorRT-LLM and vLLM). Elsewhere the weights are weight-only: stored small and
// converted to the compute precision for the matmuls (vLLM's Marlin kernels). MXFP4 and the integer
// formats are weight-only here (gpt-oss's MXFP4 experts run W4A16 in vLLM on Hopper). MXFP6 is
// weight-only on every GPU, FP6 tensor cores or not: vLLM loads Quark's MXFP6 checkpoints but runs them
// by emulation ("native mxfp6 is currently not integrated in vllm", its fused-MoE quantization code;
// vllm-project/vllm#52347, 2026: "its CUDA path currently executes MXFP6 through software emulation").
inline std::optional<Precision> quantized_matmuls(const GpuSpec& gpu, const WeightFormat& weights) {
  if (weights.name == formats::fp8.name && gpu.dense.has(Precision::fp8)) return Precision::fp8;
  if (weights.name == formats::nvfp4.name && gpu.dense.has(Precision::fp4) && gpu.vendor == Vendor::nvidia) return Precision::fp4;
  return std::nullopt;
}

// The weights of a load that no serving engine runs on `gpu`: "fp8 weights" or "nvfp4 weights" (dense
// or experts) on an NVIDIA GPU before Turing; empty when an engine runs them. Without FP8 or FP4 tensor
// cores vLLM runs these formats weight-only through its Marlin kernels, which need compute capability
// 7.5 (Turing) or newer: "FP8 models will run on compute capability >= 7.5 (Turing) as weight-only
// W8A16, utilizing FP8 Marlin" (vLLM docs, "FP8 W8A8"); the "Supported Hardware" table of vLLM's
// quantization docs marks Marlin unsupported on Volta (SM 7.0). llama.cpp has no FP8 or NVFP4 type to
// fall back on (a GGUF such as q8_0 is another checkpoint). MXFP4 is not refused: llama.cpp's MXFP4
// GGUF type (gpt-oss's GGUF releases) runs on every CUDA GPU.
inline std::string weights_without_kernel(const GpuSpec& gpu, const WeightFormat& weights, const std::optional<WeightFormat>& expert_weights) {
  if (gpu.vendor != Vendor::nvidia) return {};
  const std::string arch = detail::lower_ascii(gpu.architecture);
  if (arch != "volta" && arch != "pascal" && arch != "maxwell" && arch != "kepler") return {};
  auto no_kernel = [](const WeightFormat& w) { return w.name == formats::fp8.name || w.name == formats::nvfp4.name; };
  if (no_kernel(weights)) return std::string(weights.name) + " weights";
  if (expert_weights && no_kernel(*expert_weights)) return std::string(expert_weights->name) + " experts";
  return {};
}

// The network a replica's stages cross between nodes: the load's fabric, else what a host of the GPU
// usually has (perf/fabric.hpp usual_fabric), and for a host that usually has none (consumer cards in
// a desktop) one 10 GbE port over TCP (eth-10): capplan's assumption for a desktop's pipeline, as
// llama.cpp's RPC backend and vLLM's pipeline stages run over plain TCP between machines.
inline perf::Fabric serving_fabric(const GpuSpec& gpu, const ServingLoad& load) {
  if (load.fabric) return *load.fabric;
  const perf::Fabric usual = perf::usual_fabric(gpu);
  if (!usual.none() || perf::linkless(gpu)) return usual;
  perf::Fabric f = perf::find_fabric("eth-10");
  f.source = "a desktop's 10 GbE port over TCP (capplan's assumption for serving stages across desktops)";
  return f;
}

struct ServingRun {
  int tp = 1;
  int pp = 1;
  perf::InferenceEstimate estimate;
  MemoryBudget memory;  // per GPU
  FitResult fit;
  [[nodiscard]] int gpus() const { return tp * pp; }
};

// The load on TP tp x PP pp GPUs of `gpu`: time (perf::estimate_inference) and memory per GPU.
inline ServingRun serving_run(const TransformerShape& shape, const GpuSpec& gpu, const ServingLoad& load, int tp = 1, int pp = 1) {
  load.validate();
  require_positive_count(tp, "tp");
  require_positive_count(pp, "pp");
  if (pp > shape.layers) detail::fail("pp", std::to_string(pp), "exceeds the model's " + std::to_string(shape.layers) + " layers");
  if (tp * pp > 1 && perf::linkless(gpu))
    detail::fail(tp > 1 ? "tp" : "pp", std::to_string(tp > 1 ? tp : pp),
                 "puts the model on " + std::to_string(tp * pp) + " x " + gpu.id + ", but a system-on-chip has no link to a second one: it serves alone");
  if (shape.encoder && load.output != 0)
    detail::fail("output", std::to_string(load.output),
                 "must be 0 for " + shape.name + ", an encoder: it generates no tokens, a request is one forward pass over its prompt");
  if (!shape.encoder) require_positive_count(load.output, "output");
  // FP8 and NVFP4 weights before Turing: no engine to time (weights_without_kernel above).
  if (const std::string w = weights_without_kernel(gpu, load.weights, load.expert_weights); !w.empty()) {
    const bool experts = w.ends_with(" experts");
    detail::fail(experts ? "expert_weights" : "weights", std::string(experts ? load.expert_weights->name : load.weights.name),
                 "has no kernel on " + gpu.id + " (" + gpu.architecture +
                     "): vLLM runs FP8 and NVFP4 weights on GPUs without such tensor cores through its weight-only Marlin kernels, which start "
                     "at Turing (compute capability 7.5), and llama.cpp has no such type; serve a GGUF such as q8_0, or fp16");
  }
  perf::InferenceJob job;
  job.model = shape;
  job.weight_bytes_per_parameter = load.weights.bytes_per_value();
  if (load.expert_weights) job.expert_weight_bytes_per_parameter = load.expert_weights->bytes_per_value();
  if (const WeightFormat head = checkpoint_ends(load.weights).head; !(head == load.weights)) job.head_weight_bytes_per_parameter = head.bytes_per_value();
  job.kv_bytes_per_element = load.kv_cache.bytes_per_value();
  job.batch = load.batch;
  job.prompt = load.prompt;
  job.generate = load.output;
  job.tp = tp;  // pipeline stages run in turn: as fast as TP tp over the whole model
  job.pp = pp;
  const int node = load.gpus_per_node > 0 ? load.gpus_per_node : tp * pp;
  if (tp > node) detail::fail("tp", std::to_string(tp), "is more than the " + std::to_string(node) + " GPUs of a node (gpus_per_node): a replica's TP group stays in one node");
  if (tp * pp > node) {
    // Stages across nodes: the fabric's link, each GPU's share of the node's NICs.
    job.gpus_per_node = node;
    const perf::Fabric f = serving_fabric(gpu, load);
    if (f.none())
      detail::fail("fabric", "\"" + f.id + "\"",
                   "has no network between nodes, but TP " + std::to_string(tp) + " x PP " + std::to_string(pp) + " on nodes of " +
                       std::to_string(node) + " GPUs crosses nodes; choose a fabric (" + perf::fabric_ids(false) + ") or more GPUs per node");
    // Stages run one at a time, so only a boundary's tp senders share their node's NICs.
    job.inter = f.link(std::min(node, tp));
  }
  job.pcie_host = load.pcie_host;
  job.p2p = perf::modelled_p2p(gpu, load.p2p);  // as training_run
  job.host_memory_bandwidth = load.host_memory_bandwidth;
  // Activations in FP16, else BF16, else FP32 where the catalog has no tensor rate (e.g. RTX 3060).
  // A GPU with none of the three (Apple's, DGX Spark: no published rate) keeps FP16 activations and
  // is timed by its memory traffic alone: perf::InferenceEstimate::compute_timed is false.
  if (gpu.dense.at(Precision::fp16)) job.compute_precision = Precision::fp16;
  else if (gpu.dense.at(Precision::bf16)) job.compute_precision = Precision::bf16;
  else if (gpu.dense.at(Precision::fp32)) job.compute_precision = Precision::fp32;
  else job.compute_precision = Precision::fp16;
  job.matmul_precision = quantized_matmuls(gpu, load.weights);
  ServingRun r;
  r.tp = tp;
  r.pp = pp;
  perf::InferenceOptions options;
  options.cuda_graphs = load.cuda_graphs;
  options.eager = load.eager;
  if (load.eager_launch_time) options.eager_launch_seconds = load.eager_launch_time->value();
  r.estimate = perf::estimate_inference(job, gpu, load.efficiency(), options);
  r.memory = inference_budget(shape, load.config(tp, pp));
  r.fit = check_fit(r.memory, gpu.capacity());
  return r;
}

// The fewest GPUs that hold the weights, KV cache and workspace (TP first, then pipeline stages),
// timed; absent when more than max_gpus would be needed. `max_tp`: the GPUs of one node, which a TP
// group may not leave (a cloud offer's instance: compare's cloud rows), and at most the load's
// gpus_per_node; stages beyond it are pipelines across nodes over serving_fabric (above).
inline std::optional<ServingRun> smallest_serving_run(const TransformerShape& shape, const GpuSpec& gpu, const ServingLoad& load,
                                                      int max_gpus = 256, int max_tp = 8) {
  load.validate();
  if (load.gpus_per_node > 0) max_tp = std::min(max_tp, load.gpus_per_node);
  const auto plan =
      min_gpus_for_serving(shape, load.config(), gpu.capacity(), perf::linkless(gpu) ? 1 : max_gpus, max_tp);  // an SoC serves alone
  if (!plan) return std::nullopt;
  return serving_run(shape, gpu, load, plan->tensor, plan->pipeline);
}

}  // namespace capplan
