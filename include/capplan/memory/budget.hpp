// Per-GPU memory budgets for training and serving, as a readable breakdown:
//
//   MemoryBudget b = capplan::training_budget(shape, cfg);
//   b.weights.size, b.gradients.size, b.optimizer_states.size, b.activations.size, b.kv_cache.size,
//   b.runtime_reserve.size, b.total(), b.to_string()
//
// Model states follow the ZeRO paper (Rajbhandari et al. 2020, §3.1): mixed-precision Adam keeps
// fp16/bf16 weights (2 bytes/param) and gradients (2) and K = 12 bytes of optimizer state (fp32
// master weights, momentum, variance): 16 bytes per parameter. ZeRO stage 1 shards the optimizer
// states over the N_d data-parallel GPUs, stage 2 also the gradients, stage 3 also the weights
// (§5, Fig. 1): per GPU (2 + 2 + K/N_d) Psi, (2 + (2 + K)/N_d) Psi, (2 + 2 + K) Psi / N_d.
// PyTorch FSDP FULL_SHARD is stage 3, SHARD_GRAD_OP stage 2 (Zhao et al. 2023, §3.2.1). The
// parallel layout, ZeRO stage, micro-batch and recomputation are TrainingConfig::plan, the same
// ParallelPlan that the time estimate reads (workload/parallel_plan.hpp).
#pragma once

#include "capplan/error.hpp"
#include "capplan/memory/activations.hpp"
#include "capplan/memory/formats.hpp"
#include "capplan/memory/kv_cache.hpp"
#include "capplan/memory/pipeline_in_flight.hpp"
#include "capplan/units/count.hpp"
#include "capplan/units/format.hpp"
#include "capplan/units/literals.hpp"
#include "capplan/units/quantity.hpp"
#include "capplan/workload/parallel_plan.hpp"
#include "capplan/workload/finetune.hpp"
#include "capplan/workload/params.hpp"
#include "capplan/workload/transformer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capplan {

// One line of a budget: what it is, how big, and how it was worked out.
struct MemoryItem {
  std::string label;
  DataSize size = DataSize::from_value(0);
  std::string detail;
};

namespace detail {
// A label from a string literal, its length known at compile time (no strlen at run time: a budget
// is built for every plan a search checks).
template <std::size_t N>
std::string label(const char (&text)[N]) {
  return std::string(text, N - 1);
}
}  // namespace detail

struct MemoryBudget {
  MemoryItem weights{detail::label("weights"), DataSize::from_value(0), {}};
  MemoryItem gradients{detail::label("gradients"), DataSize::from_value(0), {}};
  MemoryItem optimizer_states{detail::label("optimizer states"), DataSize::from_value(0), {}};
  MemoryItem activations{detail::label("activations"), DataSize::from_value(0), {}};
  MemoryItem kv_cache{detail::label("KV cache"), DataSize::from_value(0), {}};
  MemoryItem runtime_reserve{detail::label("runtime reserve"), DataSize::from_value(0), {}};
  // Training with pipeline parallelism: every stage is sized and this budget is the stage that needs
  // the most memory (0-based, of pipeline_stages): the first holds the embedding and the most
  // micro-batches in flight, the last the output layer and the logits.
  int pipeline_stage = 0;
  int pipeline_stages = 1;
  // Not part of total(): how much more the allocator may lose to fragmentation than the reserve
  // allows (RuntimeReserve::tight_margin); a fit with less headroom than this is tight.
  DataSize tight_margin = DataSize::from_value(0);

  [[nodiscard]] std::array<const MemoryItem*, 6> items() const {
    return {&weights, &gradients, &optimizer_states, &activations, &kv_cache, &runtime_reserve};
  }
  [[nodiscard]] std::array<MemoryItem*, 6> items() {
    return {&weights, &gradients, &optimizer_states, &activations, &kv_cache, &runtime_reserve};
  }
  [[nodiscard]] DataSize total() const {
    DataSize t = DataSize::from_value(0);
    for (const MemoryItem* i : items()) t += i->size;
    return t;
  }
  // Model states only (weights + gradients + optimizer states), as in the ZeRO paper.
  [[nodiscard]] DataSize model_states() const { return weights.size + gradients.size + optimizer_states.size; }
  // One line per item: "weights           13.48 GB  6.74e9 params x 2 B (bf16)".
  [[nodiscard]] std::string to_string() const {
    std::string out;
    for (const MemoryItem* i : items()) {
      std::string label = i->label;
      label.resize(18, ' ');
      std::string size = format(i->size);
      if (size.size() < 10) size.insert(0, 10 - size.size(), ' ');
      out += label + size + (i->detail.empty() ? "" : "  " + i->detail) + "\n";
    }
    std::string label = "total";
    label.resize(18, ' ');
    std::string size = format(total());
    if (size.size() < 10) size.insert(0, 10 - size.size(), ' ');
    return out + label + size + "\n";
  }
};

// Memory the framework needs beyond the tensors it plans for. capplan's defaults, not measured:
// 1 GiB for the CUDA context and library workspaces (cuBLAS, NCCL) and 5% of the planned tensors
// for caching-allocator fragmentation. Set both to zero to compare with tensor-only figures.
//
// A fit is "tight" when it would fail if the allocator lost `fragmentation_tight` of the planned
// tensors instead of `fragmentation`: 15 %, the fragmentation GMLake removed on average (up to 33 %)
// from PyTorch's caching allocator over eight LLM fine-tuning setups on A100 80GB with recomputation,
// ZeRO, offloading and LoRA (Guo et al., "GMLake", ASPLOS 2024, abstract and §6). Such a plan may run
// out of memory on a real system; the plan search skips tight plans unless told otherwise.
struct RuntimeReserve {
  DataSize fixed = DataSize::from_value(1073741824.0);  // 1 GiB
  double fragmentation = 0.05;
  double fragmentation_tight = 0.15;
  [[nodiscard]] DataSize of(DataSize planned) const {
    require_nonnegative(fixed.value(), "runtime_reserve.fixed");
    require_fraction(fragmentation, "runtime_reserve.fragmentation");
    return fixed + fragmentation * planned;
  }
  // Memory beyond the reserve that a tight fit leaves too little of.
  [[nodiscard]] DataSize tight_margin(DataSize planned) const {
    require_fraction(fragmentation_tight, "runtime_reserve.fragmentation_tight");
    if (fragmentation_tight < fragmentation) {
      detail::fail("runtime_reserve.fragmentation_tight", detail::format_double(fragmentation_tight),
                   "is below runtime_reserve.fragmentation (" + detail::format_double(fragmentation) + ")");
    }
    return (fragmentation_tight - fragmentation) * planned;
  }
  static RuntimeReserve none() { return RuntimeReserve{DataSize::from_value(0), 0.0, 0.0}; }
};

enum class Optimizer {
  adam,          // Adam / AdamW: momentum + variance in fp32, 8 B/param (Kingma & Ba 2015)
  adam_8bit,     // block-wise 8-bit Adam: 2 B/param (Dettmers et al. 2022, "8-bit Optimizers", §2)
  sgd_momentum,  // one fp32 momentum buffer, 4 B/param
  sgd,           // no state
  adafactor,     // factored second moment, no momentum: r + c values per r x c matrix (Shazeer & Stern 2018, §3)
};

inline constexpr std::string_view name(Optimizer o) {
  switch (o) {
    case Optimizer::adam: return "Adam";
    case Optimizer::adam_8bit: return "8-bit Adam";
    case Optimizer::sgd_momentum: return "SGD with momentum";
    case Optimizer::sgd: return "SGD";
    case Optimizer::adafactor: return "Adafactor";
  }
  return "?";
}

// Optimizer state bytes per trained parameter, without fp32 master weights. Adafactor's factored
// state is 4 (r + c) bytes per r x c matrix, at most 4 (1/h + 1/h) = 8/h bytes per parameter for
// matrices at least h wide.
inline double optimizer_state_bytes_per_param(Optimizer o, std::int64_t hidden) {
  switch (o) {
    case Optimizer::adam: return 8;
    case Optimizer::adam_8bit: return 2;
    case Optimizer::sgd_momentum: return 4;
    case Optimizer::sgd: return 0;
    case Optimizer::adafactor: return 8.0 / static_cast<double>(hidden);
  }
  return 0;
}

struct TrainingConfig {
  ParallelPlan plan;               // parallel degrees, ZeRO stage, micro-batch, recomputation
  std::int64_t seq_len = 0;        // 0: the shape's seq_len
  bool mixed_precision = true;     // bf16/fp16 weights and gradients + fp32 master copy (ZeRO §3.1)
  // Bytes per gradient element the GPU keeps for the optimizer, in mixed precision: 0 takes the
  // weights' 2 (the ZeRO paper's 2 + 2 + 12 = 16 B/param, DeepSpeed); 4 keeps fp32 main gradients, as
  // Megatron-Core does with bf16 (gradients accumulated and reduced in fp32: 2 + 4 + 12 = 18 B/param,
  // 6 + 12/d with the distributed optimizer; Megatron-LM theoretical_memory_usage.py). perf::Framework
  // decides it (plan_training_config), so memory and time count the same bytes.
  double gradient_bytes = 0;
  // The fp32 parameters are themselves the optimizer's master copy (PyTorch FSDP MixedPrecision, DDP
  // under autocast): weights at rest take 4 B and there is no separate master copy (4 + 4 + 8 = 16
  // B/param); bf16 copies exist only for the units being computed (the gathered FSDP units).
  bool fp32_params = false;
  Optimizer optimizer = Optimizer::adam;
  std::int64_t microbatches = 0;   // per iteration and pipeline; in flight on stage 1: min(pipeline, this); 0 = pipeline
  bool flash_attention = false;
  bool offload_optimizer = false;  // ZeRO-Offload: fp32 states and gradients on the CPU (Ren et al. 2021, §4)
  bool offload_parameters = false; // ZeRO-Infinity: parameters on CPU/NVMe, two layers resident (Rajbhandari et al. 2021, §5)
  FineTune finetune = FineTune::full;
  LoraOptions lora;
  // The vocabulary padded to a multiple of this x tp (workload/transformer.hpp padded_vocab): the
  // padded rows sit in the embedding and output weights and in the fp32 logits. 0: not padded;
  // perf::Framework::vocab_multiple sets it (Megatron: 128).
  int vocab_multiple = 0;
  // Plain PyTorch under autocast (perf::Framework::eager): the activations of unfused kernels on an fp32
  // residual stream (activation_memory_per_layer), the loss's fp32 tensors, and autocast's 16-bit copy
  // of each linear weight, which every linear layer keeps for its backward pass.
  bool eager = false;
  // Megatron-Core's combined 1F1B (perf::Framework::moe_a2a_overlap) where it runs on an interleaved
  // pipeline (moe_a2a_overlap_runs): one more warm-up forward, so one more model chunk in flight.
  bool moe_a2a_overlap = false;
  // What the framework's layers keep for the backward pass (ActivationOptions, memory/activations.hpp):
  // dropout masks only with dropout on (perf::Framework::dropout), a fused activation that keeps
  // only its input (Megatron-Core's SwiGLU), and the bytes of a saved linear-layer input (0: 2 bytes;
  // 1 for Transformer Engine's FP8 copy, perf::saved_linear_input_bytes).
  bool dropout = true;
  bool fused_activation = false;
  double linear_input_bytes = 0;
  // Multi-token-prediction layers on the last pipeline stage (DeepSeek-V3 §2.2; perf::TrainingJob::
  // mtp_layers): each holds one more layer of the model's average kind, a 2h x h projection and three
  // norms, and keeps that layer's activations, the projection's input and another pass through the
  // shared output layer with its fp32 logits, for the one micro-batch in flight there.
  int mtp_layers = 0;
  RuntimeReserve reserve;
};

struct InferenceConfig {
  WeightFormat weights = formats::bf16;
  // The routed experts' format where it differs from `weights` (gpt-oss: MXFP4 experts, BF16 rest).
  std::optional<WeightFormat> expert_weights;
  WeightFormat kv_cache = formats::bf16;
  std::int64_t context = 0;         // tokens per sequence (prompt + generated); 0: the shape's seq_len
  std::int64_t sequences = 1;       // sequences served at once
  int tensor_parallel = 1;
  int pipeline_parallel = 1;
  int expert_parallel = 1;
  std::int64_t prefill_chunk = 2048;  // tokens one forward step processes at most (activation workspace)
  RuntimeReserve reserve;
};

namespace detail {

template <class T>
double dbl(const T& c) { return static_cast<double>(c); }
// 4 significant digits; counts of a million and more as "842.3M", "6.738B"; whole numbers below a
// million exactly ("131072 tokens", not "131100").
inline std::string n(double v) {
  if (v >= 1e9) return format_number(v / 1e9, 4) + "B";
  if (v >= 1e6) return format_number(v / 1e6, 4) + "M";
  if (v == std::floor(v) && v > -1e6) return std::to_string(static_cast<long long>(v));
  return format_number(v, 4);
}

inline void require_parallel(const TransformerShape& s, int tensor, int pipeline, int expert) {
  require_positive_count(tensor, "tensor_parallel");
  if (s.heads % tensor != 0) {
    detail::fail("tensor_parallel", std::to_string(tensor),
                 "does not divide heads (" + std::to_string(s.heads) + ")");
  }
  if (pipeline <= 0 || pipeline > s.layers) {
    detail::fail("pipeline_parallel", std::to_string(pipeline),
                 "must be between 1 and layers (" + std::to_string(s.layers) + ")");
  }
  require_positive_count(expert, "expert_parallel");
  if (expert > 1 && !s.moe) detail::fail("expert_parallel", std::to_string(expert), "needs a mixture-of-experts model");
  if (s.moe && s.moe->experts % expert != 0) {
    detail::fail("expert_parallel", std::to_string(expert),
                 "does not divide experts (" + std::to_string(s.moe->experts) + ")");
  }
}

// Parameters held by one GPU of a pipeline stage before ZeRO sharding: its layers' non-expert
// parameters split by tensor parallelism, its routed experts also by expert parallelism; the first
// stage also holds the input embeddings (and a BERT pooler), the last the output layer. With tied
// embeddings and more than one stage the last stage keeps its own copy of the embedding matrix for the
// output layer (Megatron-LM: the word embeddings of the first and last stage are kept in sync by an
// all-reduce of their gradients; Narayanan et al. 2021). Embeddings are split by tensor parallelism
// (vocabulary-parallel embedding, Shoeybi et al. 2019, §3).
struct Shard {
  double dense = 0;   // non-expert parameters on this GPU
  double expert = 0;  // routed-expert parameters on this GPU
  double ends = 0;    // of `dense`: the input embedding and output head on this GPU (first / last stage)
  [[nodiscard]] double total() const { return dense + expert; }
};

// `vocab_pad`: rows a framework adds to the vocabulary (workload/transformer.hpp padded_vocab), held
// in the input embedding and in the output head. `expert_tensor`: the GPUs each routed expert is split
// over (ParallelPlan::etp; 0: tensor). `mtp`: multi-token-prediction layers on this (last) stage
// (TrainingConfig::mtp_layers): each the model's average layer, a [h; embedding] -> h projection and
// three norms; the stage also holds its own copy of the input embedding, which the MTP layers read
// (Megatron-Core's GPTModel builds the embedding where pre_process or mtp_process), unless tied to
// the output head it already has.
template <class I>
Shard shard(const TransformerShape& s, const BasicParamBreakdown<I>& p, int tensor, int expert, int layers_here, bool first,
            bool last, std::int64_t vocab_pad = 0, int expert_tensor = 0, int mtp = 0) {
  const double stage_fraction = static_cast<double>(layers_here + mtp) / static_cast<double>(s.layers);
  const double layer_dense = dbl(p.attention + p.mlp + p.norms - p.expert);
  const double head = dbl(I(s.vocab) * I(s.hidden));
  const double pad = static_cast<double>(vocab_pad) * static_cast<double>(s.hidden);
  const double input_embedding = dbl(p.embedding) - (s.tied_embeddings ? 0.0 : head) + pad;
  double ends = 0;
  if (first) ends += input_embedding + dbl(p.other);
  if (last && (!s.tied_embeddings || !first)) ends += head + pad;
  if (mtp > 0 && !first && !s.tied_embeddings) ends += input_embedding;
  const double h = static_cast<double>(s.hidden);
  const double norm = s.norm == NormKind::layernorm ? 2 * h : h;  // weight (and bias)
  const double mtp_extra = mtp * (2 * h * h + 3 * norm);
  // A params_override scales every part by override / derived total.
  const double scale = s.params_override ? *s.params_override / dbl(p.total()) : 1.0;
  Shard out;
  out.dense = scale * (layer_dense * stage_fraction + mtp_extra + ends) / tensor;
  out.ends = scale * ends / tensor;
  out.expert = scale * dbl(p.expert) * stage_fraction / (static_cast<double>(expert_tensor > 0 ? expert_tensor : tensor) * expert);
  return out;
}

// Fills in the runtime reserve from everything else planned in the budget.
inline void add_reserve(MemoryBudget& b, const RuntimeReserve& r, bool details = true) {
  // Every item but the reserve itself, summed in items() order: a budget refilled stage by stage
  // (training_budget) gets the same bits as a fresh one, which subtracting its old reserve would not.
  DataSize planned = DataSize::from_value(0);
  for (const MemoryItem* i : b.items())
    if (i != &b.runtime_reserve) planned += i->size;
  b.runtime_reserve.size = r.of(planned);
  b.tight_margin = r.tight_margin(planned);
  if (details)
    b.runtime_reserve.detail = format(r.fixed, {.prefixes = Prefixes::binary}) + " + " + n(r.fragmentation * 100) +
                               "% of " + format(planned);
}

}  // namespace detail

// What a transformer layer keeps for its backward pass under `cfg` (memory/activations.hpp), as
// training_budget counts it.
inline ActivationOptions activation_options(const TrainingConfig& cfg) {
  ActivationOptions ao;
  ao.tensor_parallel = cfg.plan.tp;
  ao.sequence_parallel = cfg.plan.sequence_parallel;
  ao.recompute = cfg.plan.recompute;
  ao.recompute_modules = cfg.plan.recompute_modules;
  ao.flash_attention = cfg.flash_attention;
  ao.eager = cfg.eager;
  ao.dropout = cfg.dropout;
  ao.fused_activation = cfg.fused_activation;
  if (cfg.linear_input_bytes != 0) ao.linear_input_bytes = cfg.linear_input_bytes;
  ao.finetune = cfg.finetune;
  ao.lora = cfg.lora;
  return ao;
}

// ZeRO model states per GPU for `params` parameters with mixed-precision Adam (2 + 2 + K bytes,
// K = 12) over `data_parallel` GPUs (Rajbhandari et al. 2020, §5, Fig. 1).
inline MemoryBudget zero_model_states(const Count& params, int data_parallel, ZeroStage stage, double k = 12) {
  if (params <= 0) detail::fail("params", params.str(), "must be a positive parameter count");
  require_positive_count(data_parallel, "data_parallel");
  require_nonnegative(k, "optimizer_bytes_per_param");
  const double psi = detail::dbl(params), nd = data_parallel;
  const int st = static_cast<int>(stage);
  MemoryBudget b;
  b.weights.size = DataSize::from_value(2 * psi / (st >= 3 ? nd : 1));
  b.gradients.size = DataSize::from_value(2 * psi / (st >= 2 ? nd : 1));
  b.optimizer_states.size = DataSize::from_value(k * psi / (st >= 1 ? nd : 1));
  b.weights.detail = "2 B/param fp16" + std::string(st >= 3 ? " / N_d" : "");
  b.gradients.detail = "2 B/param fp16" + std::string(st >= 2 ? " / N_d" : "");
  b.optimizer_states.detail = detail::n(k) + " B/param (fp32 master, momentum, variance)" +
                              std::string(st >= 1 ? " / N_d" : "");
  return b;
}

// Per-GPU training memory on the busiest GPU (the pipeline stage that needs the most), from the shape's parameter
// breakdown `p` (parameter_breakdown(shape), or parameter_sizes(shape): the same parts as doubles)
// worked out once by callers that size many plans; `details` = false leaves the detail strings
// empty (every size is the same).
// `only_stage` >= 0 sizes that pipeline stage alone (training_stage_budget).
template <class I>
MemoryBudget training_budget(const TransformerShape& shape, const TrainingConfig& cfg, const BasicParamBreakdown<I>& p,
                             bool details, int only_stage = -1) {
  using detail::dbl;
  using detail::n;
  const ParallelPlan& par = cfg.plan;
  detail::require_parallel(shape, par.tp, par.pp, par.ep);
  require_positive_count(par.dp, "data_parallel");
  require_positive_count(par.cp, "cp");
  if (par.etp < 0) detail::fail("etp", std::to_string(par.etp), "is negative (0: as tensor_parallel)");
  if (par.etp > 0 && par.etp != par.tp && !shape.moe) detail::fail("etp", std::to_string(par.etp), "needs a mixture-of-experts model");
  if (expert_data_parallel(par) == 0) {
    detail::fail("expert_parallel", std::to_string(par.ep),
                 par.etp > 0 && par.etp != par.tp
                     ? "x etp " + std::to_string(par.etp) + " does not divide tensor_parallel x cp x data_parallel (" +
                           std::to_string(par.tp * par.cp * par.dp) + ")"
                 : par.cp > 1 ? "does not divide data_parallel x cp (" + std::to_string(par.dp * par.cp) + ")"
                              : "does not divide data_parallel (" + std::to_string(par.dp) + ")");
  }
  require_positive_count(par.interleave, "virtual_stages");
  validate_stage_layout(shape.layers, par);
  validate_offload(shape.layers, par);
  require_positive_count(par.micro_batch, "micro_batch");
  if (cfg.seq_len < 0) detail::fail("seq_len", std::to_string(cfg.seq_len), "is negative");
  if (cfg.microbatches < 0) detail::fail("microbatches", std::to_string(cfg.microbatches), "is negative");
  if (cfg.mtp_layers < 0 || cfg.mtp_layers > max_mtp_layers)
    detail::fail("mtp_layers", std::to_string(cfg.mtp_layers), "must be 0 to " + std::to_string(max_mtp_layers));
  if (cfg.vocab_multiple < 0 || cfg.vocab_multiple > 65536)
    detail::fail("vocab_multiple", std::to_string(cfg.vocab_multiple), "must be 0 (no padding) to 65536");
  if (cfg.offload_parameters && par.zero_stage != ZeroStage::parameters) {
    detail::fail("offload_parameters", "true", "needs ZeRO stage 3 (parameter sharding)");
  }
  const std::int64_t full_seq = cfg.seq_len == 0 ? shape.seq_len : cfg.seq_len;
  // Context parallelism: each GPU keeps the activations of seq / cp tokens of every sequence (its two
  // load-balanced chunks), and the model states shard over the dp x cp ranks that reduce gradients.
  require_positive_count(par.cp, "cp");
  if (par.cp > 1) {
    validate_cp_sequence(full_seq, par);
    if (!cfg.flash_attention)
      detail::fail("cp", std::to_string(par.cp), "needs FlashAttention: ring attention runs in the fused kernel (no s x s scores kept)");
    if (shape.mla) detail::fail("cp", std::to_string(par.cp), "is not modelled with multi-head latent attention");
  }
  const std::int64_t seq = full_seq / par.cp;

  const int pp = par.pp;
  const std::int64_t microbatches = cfg.microbatches == 0 ? pp : cfg.microbatches;
  // A layout's uneven chunks are walked through Megatron-Core's interleaved schedule, whose micro-batch
  // groups hold pp micro-batches each (memory/pipeline_in_flight.hpp), as Megatron-Core requires.
  if (par.chunk_layers > 0 && par.interleave > 1 && microbatches % pp != 0)
    detail::fail("microbatches", std::to_string(microbatches),
                 "must be a multiple of pp " + std::to_string(pp) + " with an interleaved pipeline layout (Megatron-Core's schedule)");
  const int st = static_cast<int>(par.zero_stage);
  // Routed experts shard over the dp x cp / ep GPUs that hold the same experts (Megatron-Core folds
  // expert parallelism into the data- and context-parallel ranks: ParallelPlan::ep).
  const double dp_dense = static_cast<double>(par.dp) * par.cp, dp_expert = expert_data_parallel(par);
  if (cfg.gradient_bytes != 0 && cfg.gradient_bytes != 2 && cfg.gradient_bytes != 4)
    detail::fail("gradient_bytes", detail::format_double(cfg.gradient_bytes), "must be 2 (bf16/fp16) or 4 (fp32), or 0 for the weights' bytes");
  // Bytes of a weight at rest, of a gathered (compute) weight, of a gradient, and of the fp32 master copy.
  const bool fp32_rest = !cfg.mixed_precision || cfg.fp32_params;
  const double w_bytes = fp32_rest ? 4 : 2;
  const double gathered_bytes = cfg.mixed_precision ? 2 : 4;
  const char* w_name = fp32_rest ? "fp32" : "bf16";
  const double g_bytes = !cfg.mixed_precision ? 4 : cfg.gradient_bytes > 0 ? cfg.gradient_bytes : 2;
  const double master = cfg.mixed_precision && !cfg.fp32_params ? 4 : 0;

  // Activations (Korthikanti et al. 2022, §4.2.3): in 1F1B stage i (0-based) of p holds its layers'
  // activations for min(p - i, m) micro-batches: the first about L layers' worth, the last one
  // micro-batch. Interleaved with v model chunks, Megatron-LM's schedule runs (p - i - 1) 2 + (v - 1) p
  // warm-up chunks (megatron/core/pipeline_parallel/schedules.py), so stage i holds up to
  // (p - i - 1) 2 + (v - 1) p + 1 chunks of L_i / v layers: (1 + (p - 1) / (p v)) times 1F1B's on the
  // first stage, as the paper gives. Chunks of different layers (a pipeline layout's) are walked
  // through the schedule (memory/pipeline_in_flight.hpp).
  const ActivationOptions ao = activation_options(cfg);
  const double per_layer = activation_memory_per_layer(shape, par.micro_batch, seq, ao).value();
  // Activation offloading (pp = 1): the offloaded layers' activations leave as the forward pass goes
  // on, each by the end of its window of layers, and come back by windows in the backward pass;
  // Transformer Engine's offload handler frees a layer's GPU copy once its copy to the host is done, so
  // at the peak (the forward pass's end) at most one offloaded layer is resident beside the layers that
  // stay (transformer_engine/pytorch/cpu_offload.py,
  // AsyncDoubleBufferGroupOffloadHandler).
  const int offloaded = par.offload_layers;
  // With full recomputation the layer being recomputed holds its whole activations again during
  // its backward pass: one layer's worth on top of the stored layer inputs.
  double recomputing = 0;
  if (par.recompute == Recompute::full) {
    ActivationOptions kept = ao;
    kept.recompute = Recompute::none;
    kept.recompute_modules = 0;
    recomputing = activation_memory_per_layer(shape, par.micro_batch, seq, kept).value();
  }
  // Recomputed modules other than the attention core rebuild what they dropped, one layer at a time
  // in the backward pass: that layer's difference, on top.
  const std::uint8_t other_modules = static_cast<std::uint8_t>(recomputed_modules(par.recompute, par.recompute_modules) &
                                                               ~recompute_module::core_attn);
  if (other_modules != 0) {
    ActivationOptions kept = ao;
    const std::uint8_t core = static_cast<std::uint8_t>(recomputed_modules(par.recompute, par.recompute_modules) & recompute_module::core_attn);
    kept.recompute = core ? Recompute::selective : Recompute::none;
    kept.recompute_modules = 0;
    recomputing = activation_memory_per_layer(shape, par.micro_batch, seq, kept).value() - per_layer;
  }
  // The last stage's output layer and loss, for the one micro-batch in flight there: the output
  // layer's input (2 s b h, / t with sequence parallelism) and the logits the loss keeps in fp32,
  // s b V / t x 4 B (vocabulary-parallel cross entropy keeps its softmax in fp32: Shoeybi et al.
  // 2019, §3; Megatron-LM's cross_entropy.py). For 128k-152k vocabularies this is larger than
  // several layers' activations.
  const double sb = static_cast<double>(seq) * static_cast<double>(par.micro_batch);
  // Eager PyTorch keeps the final norm's fp32 input and output beside the cast (4 + 4 + 2 bytes an
  // element; LayerNorm 4 + 2), and at the start of the backward pass holds the fp32 log-softmax output
  // with the loss's two fp32 gradients over the logits (incoming and outgoing): 12 bytes per logit
  // (PyTorch's log_softmax and nll_loss autograd functions).
  // Frozen base weights (LoRA): the final norm's fp32 upcast alone; the frozen head keeps no input.
  const double output_input = (cfg.eager ? (cfg.finetune != FineTune::full ? 4.0 : shape.norm == NormKind::rmsnorm ? 10.0 : 6.0) : 2.0) * sb *
                              static_cast<double>(shape.hidden) / (par.sequence_parallel ? par.tp : 1);
  const std::int64_t vocab = padded_vocab(shape.vocab, par.tp, cfg.vocab_multiple);
  const double logits = (cfg.eager ? 12.0 : 4.0) * sb * static_cast<double>(vocab) / par.tp;

  // Micro-batches of the stage's L_i layers in flight at its peak (layer-micro-batches / L_i).
  // Megatron-Core's combined 1F1B runs one more warm-up forward on an interleaved pipeline
  // (schedules.py: "+1" to the warm-up under overlap_moe_expert_parallel_comm).
  const int overlap_warmup = cfg.moe_a2a_overlap && par.interleave > 1 && moe_a2a_overlap_runs(par) ? 1 : 0;
  const auto in_flight_chunks = [&](int stage, int layers_here) -> double {
    const double v = par.interleave;
    if (par.interleave == 1) return static_cast<double>(std::min<std::int64_t>(pp - stage, microbatches));
    if (par.chunk_layers > 0 && layers_here > 0)
      return peak_layer_microbatches(rank_chunk_layers(layers_here, par, stage), pp, stage, microbatches, overlap_warmup) / layers_here;
    const double chunks = 2.0 * (pp - stage - 1) + (v - 1) * pp + 1 + overlap_warmup;
    return std::min(chunks, static_cast<double>(microbatches) * v) / v;  // in units of the stage's L_i layers
  };

  // ", of 1, 2, 2, 2 layers": a layout's chunks on `stage` where they differ.
  const auto chunks_text = [&](int stage, int layers_here) -> std::string {
    if (par.chunk_layers <= 0) return {};
    const std::vector<double> c = rank_chunk_layers(layers_here, par, stage);
    if (std::all_of(c.begin(), c.end(), [&](double x) { return x == c.front(); })) return {};
    std::string t;
    for (const double x : c) t += (t.empty() ? "" : ", ") + n(x);
    return " of " + t + " layers, walked through the schedule";
  };

  // Fills `b` for one stage: the model states of its parameters, its activations.
  const auto fill = [&](MemoryBudget& b, int stage, bool with_text) {
    const int layers_here = stage_layers(shape.layers, par, stage);
    const bool first = stage == 0, last = stage == pp - 1;
    // The last stage's MTP layers (detail::shard: the model's average layer each, the [h; embedding]
    // -> h projection, Megatron-Core's column-parallel eh_proj, the norms enorm, hnorm and
    // final_layernorm, and the stage's own input embedding).
    const int mtp_here = last ? cfg.mtp_layers : 0;
    const detail::Shard sh = detail::shard(shape, p, par.tp, par.ep, layers_here, first, last, vocab - shape.vocab, par.etp, mtp_here);
    // Parameters after ZeRO sharding of a state that a stage >= `from` shards.
    auto sharded = [&](int from) { return st >= from ? sh.dense / dp_dense + sh.expert / dp_expert : sh.total(); };

    // ZeRO-3 / FSDP wraps each transformer layer as a unit; the root unit keeps the rest (embedding,
    // final norm, output head: `sh.ends` on the stages that hold them) and stays gathered through the
    // forward and backward passes (FSDP does not reshard the root after forward). Beside it, the
    // layer in use and the prefetched next one are gathered, and the backward pass holds one layer's
    // unsharded gradients until they are reduce-scattered (Zhao et al. 2023, PyTorch FSDP, §3.2-3.3
    // and §4.4: the rate limiter allows two all-gathers in flight).
    double gathered = 0, unsharded_grads = 0;
    const double one_layer = layers_here + mtp_here > 0 ? (sh.total() - sh.ends) / (layers_here + mtp_here) : 0.0;
    if (st >= 3 && dp_dense > 1 && !cfg.offload_parameters) {
      gathered = sh.ends + 2 * one_layer;
      unsharded_grads = one_layer;
    } else if (st == 2 && dp_dense > 1) {
      // ZeRO 2 reduce-scatters every micro-batch's gradients as they come (perf/training_estimator.hpp):
      // like ZeRO 3, one layer's unsharded gradients wait for their reduce-scatter (FSDP's
      // SHARD_GRAD_OP reduces unit by unit; DeepSpeed's bucket is reduce_bucket_size elements).
      unsharded_grads = one_layer;
    }

    double cast_copies = 0;  // autocast's 16-bit weight copies (eager, fp32 weights), in parameters
    if (cfg.finetune == FineTune::full) {
      const double w_params = sharded(3) + gathered;
      if (cfg.offload_parameters) {
        const double scale = shape.params_override ? *shape.params_override / dbl(p.total()) : 1.0;
        const double layer = scale * (dbl(p.attention + p.mlp + p.norms) / shape.layers) / par.tp;
        b.weights.size = DataSize::from_value(2 * layer * gathered_bytes);
        if (with_text) {
          b.weights.detail = "offloaded; 2 layers resident x " + n(layer) + " params x " + n(gathered_bytes) + " B";
        }
      } else {
        // Eager PyTorch under autocast: every linear layer keeps the 16-bit copy of its weight it computed
        // with for its backward pass; the embedding lookup is not cast (a tied output head is). Under
        // full recomputation the saved copies are dropped with the layer's other tensors, but autocast's
        // cast cache holds every copy until the forward pass leaves the autocast region
        // (torch.autocast.__exit__ clears it), so they all exist at the forward pass's end either way.
        cast_copies = cfg.eager && cfg.mixed_precision && w_bytes > 2
                          ? std::max(0.0, sh.total() - (shape.tied_embeddings || !first ? 0.0 : static_cast<double>(vocab) * static_cast<double>(shape.hidden) / par.tp))
                          : 0.0;
        b.weights.size = DataSize::from_value(sharded(3) * w_bytes + gathered * gathered_bytes + cast_copies * 2);
        if (with_text) {
          if (gathered > 0 && gathered_bytes != w_bytes) {
            b.weights.detail = n(sharded(3)) + " params x " + n(w_bytes) + " B (" + w_name + ") + " + n(gathered) + " gathered x " +
                               n(gathered_bytes) + " B (the root unit, the current and the prefetched layer)";
          } else {
            b.weights.detail = n(w_params) + " params x " + n(w_bytes) + " B (" + w_name + ")" +
                               (gathered > 0 ? ", of which " + n(gathered) + " gathered (the root unit, the current and the prefetched layer)" : "");
          }
          if (cast_copies > 0)
            b.weights.detail += " + " + n(cast_copies) + " x 2 B (autocast's copies" +
                                (par.recompute == Recompute::full ? ", held to the forward pass's end)" : ", kept for the backward pass)");
        }
      }
      const double g_params = sharded(2) + unsharded_grads;
      const double state = optimizer_state_bytes_per_param(cfg.optimizer, shape.hidden);
      const double o_params = sharded(1);
      if (cfg.offload_optimizer) {
        if (with_text) {
          b.gradients.detail = "offloaded to CPU (ZeRO-Offload)";
          b.optimizer_states.detail = "offloaded to CPU (ZeRO-Offload)";
        }
      } else {
        b.gradients.size = DataSize::from_value(g_params * g_bytes);
        if (with_text) {
          b.gradients.detail = n(g_params) + " params x " + n(g_bytes) + " B" + (g_bytes != w_bytes ? std::string(g_bytes == 4 ? " (fp32)" : " (bf16)") : std::string()) +
                               (unsharded_grads > 0 ? ", of which " + n(unsharded_grads) + " one layer's before its reduce-scatter" : "");
        }
        b.optimizer_states.size = DataSize::from_value(o_params * (master + state));
        if (with_text) {
          b.optimizer_states.detail = master > 0 ? n(o_params) + " params x (" + n(master) + " B master + " + n(state) + " B " +
                                                       std::string(name(cfg.optimizer)) + ")"
                                     : n(o_params) + " params x " + n(state) + " B " + std::string(name(cfg.optimizer)) +
                                           (cfg.mixed_precision ? " (the fp32 weights are the master copy)" : "");
        }
      }
    } else {
      // LoRA / QLoRA: frozen base weights (bf16, or NF4 for QLoRA: Dettmers et al. 2023, §3), trainable
      // adapters in bf16 with gradients and mixed-precision optimizer states. QLoRA quantizes the
      // linear layers only: bitsandbytes replaces nn.Linear modules, the embedding is no Linear, and
      // transformers' BitsAndBytes integration keeps the output head unquantized
      // (get_keys_to_not_convert / llm_int8_skip_modules), so both stay in bf16.
      const bool qlora = cfg.finetune == FineTune::qlora;
      const WeightFormat base = qlora ? formats::nf4 : (cfg.mixed_precision ? formats::bf16 : formats::fp32);
      const double all_base = sharded(3);
      const double kept = qlora ? (st >= 3 ? sh.ends / dp_dense : sh.ends) : 0.0;  // embedding and head in bf16
      const double base_params = all_base - kept;
      const double adapters = detail::lora_params(shape, cfg.lora) * (layers_here + mtp_here) / shape.layers / par.tp;
      const double state = optimizer_state_bytes_per_param(cfg.optimizer, shape.hidden);
      // ZeRO 3 / FSDP gathers the frozen weights as it gathers full training's (above): the root unit
      // (embedding and head: bf16 under QLoRA) and the current and prefetched layers (the base format).
      const double gathered_ends = gathered > 0 ? sh.ends : 0.0;
      const double gathered_layers = gathered > 0 ? gathered - sh.ends : 0.0;
      const DataSize gathered_size = qlora ? base.size_of(gathered_layers) + DataSize::from_value(gathered_ends * 2)
                                           : base.size_of(gathered_layers + gathered_ends);
      b.weights.size = base.size_of(base_params) + DataSize::from_value(kept * 2 + adapters * w_bytes) + gathered_size;
      if (with_text) {
        b.weights.detail = n(base_params) + " frozen params x " + n(base.bits_per_value) + " bit (" + std::string(base.name) + ") + " +
                           (kept > 0 ? n(kept) + " embedding/head params x 2 B (bf16) + " : std::string()) + n(adapters) +
                           " adapter params x " + n(w_bytes) + " B" +
                           (gathered > 0 ? " + " + n(gathered) + " frozen params gathered (the root unit, the current and the prefetched layer)"
                                         : std::string());
      }
      b.gradients.size = DataSize::from_value(adapters * g_bytes);
      if (with_text) {
        b.gradients.detail = "adapters only: " + n(adapters) + " params x " + n(g_bytes) + " B";
      }
      b.optimizer_states.size = DataSize::from_value(adapters * (master + state));
      if (with_text) {
        b.optimizer_states.detail = "adapters only: " + n(adapters) + " params x " + n(master + state) + " B";
      }
    }

    const double in_flight = in_flight_chunks(stage, layers_here);
    const double output = last ? output_input + logits : 0.0;
    // Each MTP layer for the one micro-batch in flight on the last chunk: a layer's activations, its
    // projection's 2h-wide 16-bit input, and its own output-layer input and fp32 logits.
    const double mtp_one = per_layer + 4.0 * sb * static_cast<double>(shape.hidden) / (par.sequence_parallel ? par.tp : 1) + output_input + logits;
    const double mtp = mtp_here * mtp_one;
    const int resident = offloaded > 0 ? layers_here - offloaded + 1 : layers_here;
    b.activations.size = DataSize::from_value(per_layer * resident * in_flight + recomputing + output + mtp);
    if (with_text) {
      b.activations.detail = format(DataSize::from_value(per_layer)) + "/layer x " + n(resident) + " layers x " +
                             n(in_flight) + " micro-batches in flight" +
                             (offloaded > 0 ? " (" + n(offloaded) + " layers offloaded to host memory, " +
                                                  format(DataSize::from_value(per_layer * offloaded)) + ", one of them on the GPU at a time)"
                                            : std::string()) +
                             (par.interleave > 1 ? " (interleaved, " + n(par.interleave) + " chunks" + chunks_text(stage, layers_here) + ")" : "") +
                             (cfg.eager || par.recompute == Recompute::full ? std::string()
                                                                            : std::string(ao.linear_input_bytes < 2 && cfg.finetune == FineTune::full
                                                                                              ? "; linear-layer inputs kept quantized (" +
                                                                                                                  n(ao.linear_input_bytes) + " B)"
                                                                                                            : "") +
                                                                                  (shape.gated_mlp && ao.fused_activation ? "; fused SwiGLU keeps gate and up only" : "")) +
                             (recomputing > 0 ? " + " + format(DataSize::from_value(recomputing)) + " (layer being recomputed)" : "") +
                             (last ? " + " + format(DataSize::from_value(output)) + " (output layer input and fp32 logits" +
                                         (vocab != shape.vocab ? ", vocabulary padded to " + n(static_cast<double>(vocab)) : std::string()) + ")"
                                   : "") +
                             (mtp > 0 ? " + " + n(mtp_here) + " x " + format(DataSize::from_value(mtp_one)) +
                                            " (MTP layer" + (mtp_here > 1 ? "s" : "") + ": a layer, its projection input, another output pass)"
                                      : "");
    }
    // Eager PyTorch on one GPU (no DDP buckets, no ZeRO, no pipeline; zero_grad(set_to_none=True), the
    // default since PyTorch 2.0): the gradients do not exist when the activations and autocast's weight
    // copies peak at the forward pass's end, and appear as the backward pass frees them, so they never
    // add up: the budget counts max(activations + copies, gradients + the one layer's copies still in
    // use), the gradients line what exceeds the activations and copies (measured on one H200,
    // 2026-12-04: Llama 3.1 8B, full recomputation, 128.6 GB peak allocated against 129.9 GB).
    // With gradient accumulation (more than one micro-batch a step) the gradients live on beside the
    // next micro-batch's activations and copies: the sum.
    if (cfg.eager && cfg.finetune == FineTune::full && dp_dense == 1 && pp == 1 && !cfg.offload_optimizer && cfg.microbatches <= 1) {
      const double g = b.gradients.size.value(), a = b.activations.size.value();
      const double layer_copy = layers_here > 0 ? 2 * one_layer : 0.0;
      b.gradients.size = DataSize::from_value(std::max(0.0, g + std::min(layer_copy, 2 * cast_copies) - a - 2 * cast_copies));
      if (with_text)
        b.gradients.detail += cast_copies > 0 ? "; only what exceeds the activations and autocast's copies counts (freed as the gradients appear)"
                                              : "; only what exceeds the activations counts (freed as the gradients appear)";
    }
    if (with_text) {
      if (pp > 1) {
        b.weights.detail += "; pipeline stage " + std::to_string(stage + 1) + " of " + std::to_string(pp) + " (" +
                            std::to_string(layers_here) + " layers" + (first ? " + embedding" : "") +
                            (last ? " + output layer" : "") +
                            (mtp_here > 0 ? " + " + std::to_string(mtp_here) + " MTP" + (first || shape.tied_embeddings ? "" : " with its embedding") : "") +
                            ")";
      }
    }
    detail::add_reserve(b, cfg.reserve, with_text);
  };

  // Every stage is checked; the budget is the one that needs the most memory (ties: the earlier).
  MemoryBudget b;  // one, refilled: every size is set again for each stage
  int busiest = 0;
  bool holds_busiest = false;  // b already holds the busiest stage's sizes (and no text is asked for)
  if (only_stage >= 0) {
    if (only_stage >= pp)
      detail::fail("stage", std::to_string(only_stage), "is not a stage of pp " + std::to_string(pp) + " (0 to " + std::to_string(pp - 1) + ")");
    busiest = only_stage;
  } else if (pp > 1) {
    double most = -1;
    // The busiest stage's sizes so far (every item, and the tight margin): put back at the end when no
    // text is asked for, rather than sizing that stage again.
    std::array<DataSize, 6> sizes{};
    DataSize margin = DataSize::from_value(0);
    const auto consider = [&](int i) {
      fill(b, i, false);
      const double total = b.total().value();
      if (total > most) {
        most = total;
        busiest = i;
        const auto items = b.items();
        for (std::size_t k = 0; k < items.size(); ++k) sizes[k] = items[k]->size;
        margin = b.tight_margin;
      }
    };
    // A middle stage's memory depends only on its layer count and its micro-batches in flight, which
    // never grow with the stage index (in_flight_chunks; a layout's uneven chunks are on the end stages
    // only, rank_chunk_layers); so among middle stages with the same layer
    // count the earliest needs the most (and wins ties). Only the first stage of each count is sized,
    // with the first and last stages: at most four budgets instead of pp (the same result). Middle
    // stages hold at most two layer counts (stage_layers: ceil(l/p) or one less; with given first and
    // last counts, one), so the scan stops once they are seen.
    consider(0);
    // Given end stages leave one middle count; the automatic layout one too when the layers divide.
    const bool given = par.first_stage_layers > 0 || par.last_stage_layers > 0;
    const int counts = given || shape.layers % pp == 0 ? 1 : 2;
    int seen[2] = {-1, -1};
    int seen_count = 0;
    for (int i = 1; i < pp - 1 && seen_count < counts; ++i) {
      const int here = stage_layers(shape.layers, par, i);
      if (here == seen[0] || here == seen[1]) continue;
      seen[seen_count++] = here;
      consider(i);
    }
    consider(pp - 1);
    if (!details) {
      const auto items = b.items();
      for (std::size_t k = 0; k < items.size(); ++k) items[k]->size = sizes[k];
      b.tight_margin = margin;
      holds_busiest = true;
    }
  }
  if (!holds_busiest) fill(b, busiest, details);
  b.pipeline_stage = busiest;
  b.pipeline_stages = pp;
  return b;
}

inline MemoryBudget training_budget(const TransformerShape& shape, const TrainingConfig& cfg) {
  return training_budget(shape, cfg, parameter_sizes(shape), true);
}

// The budget of one pipeline stage (0 = first, pp - 1 = last), with its detail lines; training_budget
// is the largest of these.
inline MemoryBudget training_stage_budget(const TransformerShape& shape, const TrainingConfig& cfg, int stage) {
  if (stage < 0) detail::fail("stage", std::to_string(stage), "is negative");
  return training_budget(shape, cfg, parameter_sizes(shape), true, stage);
}

// Per-GPU serving memory on the first pipeline stage.
inline MemoryBudget inference_budget(const TransformerShape& shape, const InferenceConfig& cfg) {
  using detail::dbl;
  using detail::n;
  shape.validate();
  detail::require_parallel(shape, cfg.tensor_parallel, cfg.pipeline_parallel, cfg.expert_parallel);
  if (cfg.context < 0) detail::fail("context", std::to_string(cfg.context), "is negative");
  if (cfg.sequences < 0) detail::fail("sequences", std::to_string(cfg.sequences), "is negative");
  require_positive_count(cfg.prefill_chunk, "prefill_chunk");
  require_positive(cfg.weights.bits_per_value, "weights.bits_per_value");
  require_positive(cfg.kv_cache.bits_per_value, "kv_cache.bits_per_value");
  const std::int64_t context = cfg.context == 0 ? shape.seq_len : cfg.context;
  const ParamSizes p = parameter_sizes(shape);
  // The first stage, with ceil(layers / pipeline) layers (the KV cache counts the same).
  const int first_layers = (shape.layers + cfg.pipeline_parallel - 1) / cfg.pipeline_parallel;
  const detail::Shard sh = detail::shard(shape, p, cfg.tensor_parallel, cfg.expert_parallel, first_layers, true,
                                         cfg.pipeline_parallel == 1);

  MemoryBudget b;
  // The input embedding and the output head in the formats the checkpoint keeps them in
  // (memory/formats.hpp checkpoint_ends): on this stage the head's matrix if it is the last (a tied
  // embedding on one stage is that same matrix), the embedding and the small parameters the rest of
  // the ends.
  const CheckpointEnds ends = checkpoint_ends(cfg.weights);
  const bool last = cfg.pipeline_parallel == 1;
  const double head_here = last ? dbl(shape.vocab) * dbl(shape.hidden) / cfg.tensor_parallel : 0.0;
  const double embedding_here = std::max(0.0, sh.ends - head_here);
  const double body = sh.dense - sh.ends + (cfg.expert_weights && shape.moe ? 0.0 : sh.expert);
  b.weights.size = cfg.weights.size_of(body) + ends.embedding.size_of(embedding_here) + ends.head.size_of(head_here);
  // The text: the parameters in the checkpoint's format, then the ends kept in another one.
  double in_format = body;
  if (ends.embedding == cfg.weights) in_format += embedding_here;
  if (ends.head == cfg.weights) in_format += head_here;
  b.weights.detail = n(in_format) + " params x " + n(cfg.weights.bits_per_value) + " bit (" + std::string(cfg.weights.name) + ")";
  const auto kept = [&](double params, const char* what, const WeightFormat& f) {
    if (params > 0) b.weights.detail += " + " + n(params) + " " + what + " params x " + n(f.bits_per_value) + " bit (" + std::string(f.name) + ")";
  };
  if (!(ends.embedding == cfg.weights) && ends.embedding == ends.head && embedding_here > 0 && head_here > 0) {
    kept(embedding_here + head_here, "embedding/head", ends.head);
  } else {
    if (!(ends.embedding == cfg.weights)) kept(embedding_here, "embedding", ends.embedding);
    if (!(ends.head == cfg.weights)) kept(head_here, "output-head", ends.head);
  }
  if (cfg.expert_weights && shape.moe && sh.expert > 0) {
    const WeightFormat& ef = *cfg.expert_weights;
    b.weights.size += ef.size_of(sh.expert);
    b.weights.detail += " + " + n(sh.expert) + " expert params x " + n(ef.bits_per_value) + " bit (" + std::string(ef.name) + ")";
  }
  b.gradients.detail = "none (inference)";
  b.optimizer_states.detail = "none (inference)";
  b.kv_cache.size = kv_cache_memory(shape, context, cfg.sequences, cfg.kv_cache, cfg.tensor_parallel, cfg.pipeline_parallel);
  b.kv_cache.detail = format(kv_cache_per_token(shape, cfg.kv_cache, cfg.tensor_parallel, cfg.pipeline_parallel)) +
                      "/token x " + n(static_cast<double>(context)) + " tokens x " +
                      n(static_cast<double>(cfg.sequences)) + " sequences";
  if (shape.encoder) {
    // An encoder runs one forward pass a request and keeps nothing for a next token (perf/inference.hpp).
    b.kv_cache.size = DataSize{};
    b.kv_cache.detail = "none (an encoder generates no tokens: one forward pass a request)";
  } else if (const std::int64_t in_window = shape.window_span(context); in_window < context) {
    // Windowed layers keep the last W tokens only (memory/kv_cache.hpp).
    b.kv_cache.detail = "(" + format(kv_cache_per_token(shape, cfg.kv_cache, cfg.tensor_parallel, cfg.pipeline_parallel)) +
                        "/token x " + n(static_cast<double>(in_window)) + " tokens in every layer + " +
                        format(kv_cache_per_token_past_window(shape, cfg.kv_cache, cfg.tensor_parallel, cfg.pipeline_parallel)) +
                        "/token x " + n(static_cast<double>(context - in_window)) + " more in the global layers) x " +
                        n(static_cast<double>(cfg.sequences)) + " sequences";
  }
  // Working set of one layer for the tokens of one forward step (activations are freed layer by
  // layer in inference): residual + norm output 2h, Q/K/V, FFN intermediate (x3 gated), in 16 bit,
  // plus fp32 logits for each sequence's last token.
  const double tokens =
      static_cast<double>(std::min<std::int64_t>(cfg.prefill_chunk, context * std::max<std::int64_t>(cfg.sequences, 1)));
  const double d = static_cast<double>(shape.effective_head_dim());
  const double width = 2.0 * static_cast<double>(shape.hidden) +
                       (shape.heads + 2.0 * shape.effective_kv_heads()) * d / cfg.tensor_parallel +
                       (shape.gated_mlp ? 3.0 : 2.0) *
                           static_cast<double>(shape.moe ? shape.moe->moe_ffn_hidden * (shape.moe->experts_per_token + shape.moe->shared_experts)
                                                         : shape.effective_ffn_hidden()) /
                           cfg.tensor_parallel;
  const double logits = 4.0 * static_cast<double>(shape.vocab) * static_cast<double>(cfg.sequences) / cfg.tensor_parallel;
  b.activations.size = DataSize::from_value(tokens * 2.0 * width + logits);
  b.activations.detail = n(tokens) + " tokens x " + n(2.0 * width) + " B + fp32 logits";
  detail::add_reserve(b, cfg.reserve);
  return b;
}

}  // namespace capplan
