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

#include "capplan/detail/enum_names.hpp"
#include "capplan/error.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capplan {

// What the training step recomputes in the backward pass (Korthikanti et al. 2022, §5).
enum class Recompute {
  none,       // activations kept: hardware FLOPs = model FLOPs
  selective,  // the attention-score part (QK^T, softmax, attention over V), or the modules named in
              // ParallelPlan::recompute_modules, is recomputed
  full,       // every layer's forward is run again
};

// The parts of a layer selective recomputation runs again, as Megatron-Core's --recompute-modules
// names them (megatron/core/transformer/transformer_config.py, recompute_modules; used with
// --recompute-granularity selective; default ["core_attn"]). Bits of ParallelPlan::recompute_modules:
//   core_attn       the attention core (scores, softmax, attention over V; Korthikanti et al. 2022, §5)
//   mlp             a dense layer's MLP: only its input is kept
//   moe             a MoE layer's router, dispatch, experts and combine (shared experts too): only its input is kept
//   moe_act         the routed experts' activation function (SwiGLU / GELU): its output is dropped
//   shared_experts  the shared experts' FFN: only their input is kept
//   layernorm       the two norms: their 16-bit outputs are dropped
//   mla_up_proj     multi-head latent attention's query and key-value up-projections: only the
//                   latents are kept, the per-head queries, keys and values are rebuilt
// moe_act, layernorm and mla_up_proj discard an output after its consumer used it (Megatron-Core's
// output-discarding checkpoint); the others checkpoint a module and keep its input.
namespace recompute_module {
inline constexpr std::uint8_t core_attn = 1, mlp = 2, moe = 4, moe_act = 8, shared_experts = 16, layernorm = 32,
                              mla_up_proj = 64, all = 127;
inline constexpr int count = 7;
// Names in bit order (Megatron-Core's spellings).
inline constexpr std::string_view names[count] = {"core_attn", "mlp", "moe", "moe_act", "shared_experts", "layernorm", "mla_up_proj"};
// Not a name: the routed experts' GEMMs inside moe, kept apart because their rows are padded to the
// capacity factor, which hardware FLOPs do not count. Kernels are tagged with one of `slots` bits.
inline constexpr std::uint8_t moe_experts = 128;
inline constexpr int slots = 8;
// The kernels a module set reruns: moe's include the routed experts, their activation and the shared experts.
inline constexpr std::uint8_t closure(std::uint8_t m) {
  return (m & moe) ? static_cast<std::uint8_t>(m | moe_experts | moe_act | shared_experts) : m;
}
// Op::module of a kernel of module `bit` (1-based; 0: a kernel no module recomputes).
inline constexpr std::uint8_t tag(std::uint8_t bit) {
  std::uint8_t i = 1;
  while (bit > 1) {
    bit = static_cast<std::uint8_t>(bit >> 1);
    ++i;
  }
  return i;
}
}  // namespace recompute_module

// The modules a plan's recomputation runs again: selective's modules (core_attn when none are named),
// none for Recompute::none and Recompute::full (which reruns the whole layer).
inline std::uint8_t recomputed_modules(Recompute r, std::uint8_t modules) {
  if (r != Recompute::selective) return 0;
  return modules != 0 ? modules : recompute_module::core_attn;
}

// "mla_up_proj,mlp": the names of a module set in bit order, joined by commas; "" for none.
inline std::string recompute_modules_text(std::uint8_t modules) {
  std::string out;
  for (int i = 0; i < recompute_module::count; ++i) {
    if (!(modules & (1u << i))) continue;
    if (!out.empty()) out += ',';
    out += recompute_module::names[i];
  }
  return out;
}

// Reads a module list as Megatron-Core's --recompute-modules takes it ("mla_up_proj mlp"), also with
// commas; InputError naming `field` for an unknown or repeated name, or an empty list.
inline std::uint8_t parse_recompute_modules(std::string_view text, const std::string& field = "recompute_modules") {
  constexpr std::size_t most = 256;
  if (text.size() > most)
    detail::fail(field, std::string(text.substr(0, 40)) + "...", "is longer than " + std::to_string(most) + " characters");
  std::uint8_t out = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ',' || c == ' ' || c == '\t') {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && text[j] != ',' && text[j] != ' ' && text[j] != '\t') ++j;
    const std::string_view word = text.substr(i, j - i);
    int bit = -1;
    for (int k = 0; k < recompute_module::count; ++k)
      if (word == recompute_module::names[k]) bit = k;
    if (bit < 0) {
      std::string known;
      for (const std::string_view n : recompute_module::names) known += (known.empty() ? "" : ", ") + std::string(n);
      detail::fail(field, std::string(word), "is not a module capplan recomputes (" + known + ")");
    }
    if (out & (1u << bit)) detail::fail(field, std::string(word), "is named twice");
    out = static_cast<std::uint8_t>(out | (1u << bit));
    i = j;
  }
  if (out == 0) detail::fail(field, std::string(text), "names no module (e.g. core_attn, mlp, moe_act, mla_up_proj)");
  return out;
}

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

// How the context-parallel ranks of one sequence exchange keys and values, as Megatron-Core's
// cp_comm_type names them (megatron/core/transformer/transformer_config.py; docs: context_parallel):
//   p2p        ring attention: each rank passes its K/V chunk round the ring, cp - 1 steps, each step's
//              transfer overlapped with the attention of the chunk in hand (Liu et al. 2023).
//   all_gather K and V all-gathered before the attention and their gradients reduce-scattered after;
//              the transfer is exposed, small with grouped-query attention (Llama 3, Dubey et al. 2024,
//              §3.3.2, which trained its long-context phase so).
//   a2a        DeepSpeed-Ulysses (Jacobs et al. 2023, arXiv 2309.14509, §3): all-to-alls turn the
//              sequence split into a head split before the attention (Q, K, V) and back after it (the
//              output), the backward the reverse; exposed. Needs the heads per tensor-parallel rank to
//              split over cp (K/V heads are replicated when fewer than cp).
//   a2a_p2p    Megatron-Core's hierarchical "a2a+p2p" (hierarchical_context_parallel_sizes): Ulysses
//              all-to-alls among the cp ranks of one node (NVLink), then the overlapped ring among the
//              nodes with the all-to-all groups' K/V. capplan puts every cp rank of a node in the
//              all-to-all group (perf::cp_a2a_size); the heads rule applies to that group.
enum class CpComm { p2p, all_gather, a2a, a2a_p2p };
BOOST_DESCRIBE_ENUM(CpComm, p2p, all_gather, a2a, a2a_p2p)
inline constexpr std::string_view name(CpComm c) { return detail::enum_name(c); }

struct ParallelPlan {
  int tp = 1;                    // Megatron tensor parallel: splits heads and FFN columns
  int pp = 1;                    // pipeline stages (layers per stage: stage_layers below)
  int dp = 1;                    // data-parallel replicas
  std::int64_t micro_batch = 1;  // sequences per micro-batch
  ZeroStage zero_stage = ZeroStage::none;
  Recompute recompute = Recompute::none;
  bool sequence_parallel = false;  // Megatron sequence parallelism (Korthikanti et al. 2022, §4.2.2)
  int interleave = 1;              // model chunks per GPU, interleaved 1F1B (Narayanan et al. 2021, §2.2)
  // Expert parallel (MoE): routed experts spread over ep of the dp x cp GPUs. Megatron-Core folds the
  // expert groups into the data- and context-parallel ranks (expert-data-parallel = dp x cp / ep;
  // megatron/core/parallel_state.py, the "MoE parallel folding" of Liu et al. 2025, arXiv 2504.14960).
  int ep = 1;
  // Expert tensor parallel: GPUs each routed expert's FFN is split over (Megatron-Core
  // --expert-tensor-parallel-size); 0: tp, as before Megatron-Core separated them. With etp < tp (1 in
  // the DeepSeek and Qwen MoE recipes) the expert layers fold etp x ep over the tp x cp x dp ranks.
  int etp = 0;
  // Context parallel (Megatron CP): each sequence split into 2 x cp chunks, rank i holding chunks i and
  // 2cp - 1 - i (load-balanced causal work); keys and values pass around the cp ranks in a ring
  // (Liu et al. 2023, "Ring Attention"; Megatron-Core context_parallel.md). Ranks are laid out TP, CP,
  // DP, PP from the innermost, and gradients reduce over the dp x cp ranks.
  int cp = 1;
  CpComm cp_comm = CpComm::p2p;  // how the cp ranks exchange K/V (ignored at cp = 1)
  // Transformer layers on the first and on the last pipeline stage; 0 = automatic (see stage_layers).
  // Megatron-LM's --decoder-first-pipeline-num-layers / --decoder-last-pipeline-num-layers.
  int first_stage_layers = 0;
  int last_stage_layers = 0;
  // The largest model chunk's layers where a pipeline layout places the chunks (Megatron-Core's
  // --pipeline-model-parallel-layout; workload/pipeline_layout.hpp): a stage's layers then need not
  // split evenly over `interleave` chunks, and the bubble is the largest chunk's, not 1/interleave of the
  // stage's. 0: equal chunks, as Megatron-Core without a layout requires.
  int chunk_layers = 0;
  int last_chunk_layers = 0;  // with chunk_layers: the last chunk's layers, beside the output layer and loss
  // Activation offloading: the first `offload_layers` transformer layers send their activations to
  // host memory in the forward pass and fetch them back for the backward pass (Megatron-Core's
  // --cpu-offloading-num-layers, through Transformer Engine's offload context). Megatron-Core allows it
  // only without pipeline stages and without recomputation, for fewer layers than the model has
  // (transformer_config.py). 0: none.
  int offload_layers = 0;
  // With Recompute::selective: the modules recomputed (recompute_module bits); 0: core_attn alone,
  // Megatron-Core's default. Must be 0 with none and full.
  std::uint8_t recompute_modules = 0;
  // With chunk_layers: the first chunk's layers, beside the embedding (a layout's first virtual
  // stage); 0: the first rank's layers split evenly over its chunks. The rank's other chunks share
  // the rest evenly, as the last rank's chunks before its last one do and the middle ranks' chunks.
  int first_chunk_layers = 0;

  // tp x cp x pp x dp, multiplied in 64 bits and refused above max_plan_gpus, so no degree can
  // wrap the count around (a DP of 2^30 is an error, not "-2147483648 GPUs").
  [[nodiscard]] int gpus() const;
};

// The most multi-token-prediction layers capplan times on a plan's last stage (DeepSeek-V3 trains one;
// Megatron-Core's --mtp-num-layers).
inline constexpr int max_mtp_layers = 16;

// The largest plan capplan times: 2^20 GPUs (the largest clusters announced by 2026 hold a few
// hundred thousand).
inline constexpr std::int64_t max_plan_gpus = std::int64_t{1} << 20;

// The product of parallel degrees, multiplied in 64 bits and saturating: any product whose
// magnitude passes max_plan_gpus comes back as max_plan_gpus + 1 (of its sign), so no 32-bit
// degree can overflow it.
inline std::int64_t degree_product(std::initializer_list<std::int64_t> degrees) {
  std::int64_t n = 1;
  for (const std::int64_t d : degrees) {
    const std::int64_t m = std::max<std::int64_t>(-max_plan_gpus - 1, std::min<std::int64_t>(d, max_plan_gpus + 1));
    n *= m;
    if (n > max_plan_gpus) n = max_plan_gpus + 1;
    if (n < -max_plan_gpus) n = -max_plan_gpus - 1;
  }
  return n;
}

inline int ParallelPlan::gpus() const {
  const std::int64_t n = degree_product({tp, cp, pp, dp});
  if (n > max_plan_gpus) {
    detail::fail("gpus", std::to_string(tp) + " x " + std::to_string(cp) + " x " + std::to_string(pp) + " x " + std::to_string(dp),
                 "(tp x cp x pp x dp) is more than " + std::to_string(max_plan_gpus) + " GPUs");
  }
  return static_cast<int>(n);
}

// The expert tensor-parallel degree a plan runs: etp, or tp when etp is 0.
inline int expert_tensor_parallel(const ParallelPlan& plan) { return plan.etp > 0 ? plan.etp : plan.tp; }

// The ranks that hold the same experts and reduce their gradients: tp x cp x dp / (etp x ep), which
// is dp x cp / ep with etp = tp (0 when etp x ep does not divide tp x cp x dp, which validate_plan
// refuses).
inline int expert_data_parallel(const ParallelPlan& plan) {
  const std::int64_t ranks = static_cast<std::int64_t>(plan.dp) * std::max(plan.cp, 1) * std::max(plan.tp, 1);
  const std::int64_t group = static_cast<std::int64_t>(std::max(plan.ep, 0)) * expert_tensor_parallel(plan);
  return group >= 1 && ranks % group == 0 ? static_cast<int>(ranks / group) : 0;
}

// The sequence must split into whole chunks per context-parallel rank: 2 x cp chunks for the ring and
// the all-gather (each rank holds chunks i and 2cp - 1 - i, so causal work is balanced), cp for the
// all-to-all (every rank attends the whole sequence for its heads).
inline std::int64_t cp_sequence_step(const ParallelPlan& plan) {
  if (plan.cp <= 1) return 1;
  return plan.cp_comm == CpComm::a2a ? plan.cp : 2 * static_cast<std::int64_t>(plan.cp);
}

// InputError naming `field` when a sequence of `seq` tokens does not split into the plan's chunks.
inline void validate_cp_sequence(std::int64_t seq, const ParallelPlan& plan, const std::string& field = "cp") {
  const std::int64_t step = cp_sequence_step(plan);
  if (step > 1 && seq % step != 0) {
    detail::fail(field, std::to_string(plan.cp), "needs the sequence length " + std::to_string(seq) + " to divide into " +
                                                     (step == plan.cp ? "cp" : "2 x cp") + " chunks");
  }
}

// Sequence parallelism splits each rank's tokens of a sequence (seq / cp) over the tp ranks, which
// must divide them (Megatron-LM arguments.py: "sequence length must be divisible by tensor parallel
// size" with --sequence-parallel; with CP, the chunk of seq / cp).
inline bool sequence_parallel_divides(std::int64_t seq, int tp, int cp = 1) {
  return tp <= 1 || cp < 1 || (seq / cp) % tp == 0;
}

// Pipeline stage layout: how many transformer layers stage `stage` (0 = first, pp - 1 = last) holds.
// The first stage also holds the input embedding, the last the output layer and the loss.
//
//   given first/last counts: the remaining layers split evenly over the other stages (Megatron-LM,
//     megatron/core/transformer/transformer_block.py get_num_layers_to_build: the rest must divide);
//   automatic: every stage holds ceil(layers / pp), and the shortfall is taken one layer at a time
//     from the first stage, the last, the second, the second-to-last, and so on. The embedding and
//     the loss stand in for a layer each, as Megatron-Core's account_for_embedding_in_pipeline_split /
//     account_for_loss_in_pipeline_split do: Llama 3 405B's 126 layers on 16 stages are 7 + 14 x 8 + 7
//     (Llama 3 paper, Dubey et al. 2024, §3.3.2: "one Transformer layer less" on the first and last
//     stage); BLOOM's 70 on 12 are 5 + 10 x 6 + 5. Layers that divide evenly are split evenly.
inline int stage_layers(int layers, const ParallelPlan& plan, int stage) {
  const int p = plan.pp;
  if (p <= 1) return layers;
  const int first = plan.first_stage_layers, last = plan.last_stage_layers;
  if (first > 0 || last > 0) {
    if (stage == 0 && first > 0) return first;
    if (stage == p - 1 && last > 0) return last;
    const int others = p - (first > 0 ? 1 : 0) - (last > 0 ? 1 : 0);
    return others > 0 ? (layers - first - last) / others : 0;
  }
  const int base = (layers + p - 1) / p;
  const int shortfall = base * p - layers;
  const int back = p - 1 - stage;
  const int rank = stage <= back ? 2 * stage : 2 * back + 1;  // order in which stages give up a layer
  return base - (rank < shortfall ? 1 : 0);
}

// The end-stage layouts a plan search tries beside the automatic one (pp >= 2, no interleaving):
// Megatron-Core's --decoder-first-pipeline-num-layers / --decoder-last-pipeline-num-layers, whose rest
// must split evenly over the middle stages (get_num_layers_to_build). A lighter last stage keeps the
// output layer and its loss from setting the pipeline's pace (for Llama 3 8B's 128,256-wide vocabulary
// they are worth about two layers: 2 h V against 24 h^2 + ... FLOPs per token); a lighter first stage
// holds fewer layers' activations for the most micro-batches in flight. With middle stages of
// m = ceil(layers / pp) to m + 2 layers: the first stage m - 2 to m layers, the last m - 3 to m; on
// two stages, splits within two layers of even either way. Pairs (first, last), each stage at least
// one layer, without the automatic layout itself and without repeats, at most `most` of them.
inline std::vector<std::pair<int, int>> end_stage_layouts(int layers, int pp, std::size_t most = 4) {
  std::vector<std::pair<int, int>> out;
  if (pp < 2 || layers < pp) return out;
  ParallelPlan automatic;
  automatic.pp = pp;
  const auto consider = [&](long long first, long long last) {
    if (out.size() >= most || first < 1 || last < 1) return;
    ParallelPlan p = automatic;
    p.first_stage_layers = static_cast<int>(first);
    p.last_stage_layers = static_cast<int>(last);
    bool same = true;
    for (int i = 0; i < pp && same; ++i) same = stage_layers(layers, p, i) == stage_layers(layers, automatic, i);
    const std::pair<int, int> pair{static_cast<int>(first), static_cast<int>(last)};
    if (!same && std::find(out.begin(), out.end(), pair) == out.end()) out.push_back(pair);
  };
  if (pp == 2) {
    const int half = layers / 2;
    for (int d = 1; d <= 2; ++d) {
      consider(half + (layers % 2) + d, half - d);  // the last stage lighter
      consider(half - d, half + (layers % 2) + d);  // the first stage lighter
    }
    return out;
  }
  const int base = (layers + pp - 1) / pp;
  for (int m = base; m <= base + 2; ++m) {
    const long long rest = static_cast<long long>(layers) - static_cast<long long>(pp - 2) * m;  // first + last
    for (int last = m; last >= std::max(1, m - 3); --last) {
      const long long first = rest - last;
      if (first >= std::max(1, m - 2) && first <= m) consider(first, last);
    }
  }
  return out;
}

// Whether stage `stage`'s layers split into the plan's `interleave` model chunks: equal chunks, or,
// on the first and last stage of the automatic layout, chunks whose first (last) one holds the
// embedding (the loss) in place of a layer: Megatron-Core's account_for_embedding_in_pipeline_split
// and account_for_loss_in_pipeline_split with virtual stages, where layers + 2 divide pp x interleave
// (Llama 3.1 405B: 126 layers on 8 stages of 8 chunks, 2 per chunk, the first and last chunk 1).
inline bool stage_chunks_divide(int layers, const ParallelPlan& plan, int stage) {
  const int v = plan.interleave, l = stage_layers(layers, plan, stage);
  if (v <= 1 || l % v == 0) return true;
  if (plan.chunk_layers > 0) return l >= 1;  // a layout's chunks: each rank runs its share of them
  const bool automatic = plan.first_stage_layers <= 0 && plan.last_stage_layers <= 0;
  const bool end = stage == 0 || stage == plan.pp - 1;
  return automatic && end && plan.pp > 1 && (layers + 2) % (plan.pp * v) == 0 && (l + 1) % v == 0;
}

// True when every stage's layers split into the plan's `interleave` model chunks.
inline bool chunks_divide(int layers, const ParallelPlan& plan) {
  for (int i = 0; i < plan.pp; ++i)
    if (!stage_chunks_divide(layers, plan, i)) return false;
  return true;
}

// Checks that the layout is one a framework runs: every stage holds at least one layer, the layers
// add up, the middle stages split evenly, and with interleaving (v model chunks per GPU) every
// stage's layers split into v equal chunks. Names the field at fault.
inline void validate_stage_layout(int layers, const ParallelPlan& plan) {
  const int p = plan.pp, v = plan.interleave;
  const auto text = [](long long x) { return std::to_string(x); };
  if (p < 1 || p > layers)
    detail::fail("pp", text(p), "must be between 1 and the " + text(layers) + " layers");
  if (plan.first_stage_layers < 0) detail::fail("first_stage_layers", text(plan.first_stage_layers), "is negative");
  if (plan.last_stage_layers < 0) detail::fail("last_stage_layers", text(plan.last_stage_layers), "is negative");
  const bool given = plan.first_stage_layers > 0 || plan.last_stage_layers > 0;
  if (given && p < 2) {
    detail::fail(plan.first_stage_layers > 0 ? "first_stage_layers" : "last_stage_layers",
                 text(plan.first_stage_layers > 0 ? plan.first_stage_layers : plan.last_stage_layers), "needs pp >= 2");
  }
  if (given) {
    const int first = plan.first_stage_layers, last = plan.last_stage_layers;
    const char* field = last > 0 ? "last_stage_layers" : "first_stage_layers";
    const int value = last > 0 ? last : first;
    const long long rest = static_cast<long long>(layers) - first - last;
    const int others = p - (first > 0 ? 1 : 0) - (last > 0 ? 1 : 0);
    if (rest < others || (others == 0 && rest != 0)) {
      detail::fail(field, text(value), "leaves " + text(rest) + " of the " + text(layers) + " layers for the other " +
                                           text(others) + " stages; each needs at least one and they must add up");
    }
    if (others > 0 && rest % others != 0) {
      detail::fail(field, text(value), "leaves " + text(rest) + " layers, which do not split evenly over the " + text(others) +
                                           " other stages");
    }
  }
  if (plan.chunk_layers != 0) {
    // A layout's largest chunk: with chunks (interleave > 1), at least the biggest stage's even share and at most that stage.
    int most = 0;
    for (int i = 0; i < p; ++i) most = std::max(most, stage_layers(layers, plan, i));
    if (v <= 1) detail::fail("chunk_layers", text(plan.chunk_layers), "needs interleave > 1 (it is the largest of a stage's model chunks)");
    if (plan.chunk_layers < (most + v - 1) / v || plan.chunk_layers > most)
      detail::fail("chunk_layers", text(plan.chunk_layers),
                   "must be from " + text((most + v - 1) / v) + " to " + text(most) + ": the largest stage's " + text(most) +
                       " layers in " + text(v) + " chunks");
  }
  if (plan.first_chunk_layers != 0 && plan.chunk_layers == 0)
    detail::fail("first_chunk_layers", text(plan.first_chunk_layers), "needs chunk_layers (a pipeline layout's chunks); 0 without them");
  if (plan.first_chunk_layers < 0 || plan.first_chunk_layers > plan.chunk_layers || plan.first_chunk_layers > stage_layers(layers, plan, 0))
    detail::fail("first_chunk_layers", text(plan.first_chunk_layers),
                 "must be from 0 to the largest chunk's " + text(plan.chunk_layers) + " layers and the first stage's " +
                     text(stage_layers(layers, plan, 0)));
  if (plan.last_chunk_layers < 0 || plan.last_chunk_layers > plan.chunk_layers ||
      plan.last_chunk_layers > stage_layers(layers, plan, p - 1))
    detail::fail("last_chunk_layers", text(plan.last_chunk_layers),
                 "must be from 0 to the largest chunk's " + text(plan.chunk_layers) + " layers and the last stage's " +
                     text(stage_layers(layers, plan, p - 1)));
  if (v < 1) detail::fail("interleave", text(v), "must be a positive count");
  if (v > 1) {
    if (p == 1) detail::fail("interleave", text(v), "needs pp > 1");
    for (int i = 0; i < p; ++i) {
      const int l = stage_layers(layers, plan, i);
      if (!stage_chunks_divide(layers, plan, i)) {
        detail::fail("interleave", text(v), "does not divide the " + text(l) + " layers of pipeline stage " + text(i + 1) + " of " +
                                                text(p) + " (pp " + text(p) + " x interleave " + text(v) + ")");
      }
    }
  }
}

// Why Megatron-Core's combined 1F1B schedule (Framework::moe_a2a_overlap) does not run a plan, or
// "" where it does: it has two entry points, without pipelining and with an interleaved pipeline
// (megatron/core/pipeline_parallel/schedules.py, combined_1f1b.py), hides expert-parallel all-to-alls
// only, and does not checkpoint whole micro-batches' layers ("checkpoint_activations_microbatch is not
// supported for overlap_moe_expert_parallel_comm"; recipes pair it with selective recomputation).
inline std::string_view moe_a2a_overlap_blocker(const ParallelPlan& plan) {
  if (plan.ep <= 1) return "there is no expert parallelism (ep 1), so no all-to-all to hide";
  if (plan.pp > 1 && plan.interleave <= 1) return "Megatron-Core's combined 1F1B schedule runs without pipelining or with an interleaved pipeline, not plain 1F1B";
  if (plan.recompute == Recompute::full) return "Megatron-Core's combined 1F1B schedule does not run under full recomputation";
  return "";
}
inline bool moe_a2a_overlap_runs(const ParallelPlan& plan) { return moe_a2a_overlap_blocker(plan).empty(); }

// Activation offloading as Megatron-Core allows it (megatron/core/transformer/transformer_config.py):
// fewer layers than the model has ("CPU offloading can be done only for layers less than
// num_layers"), no pipeline stages ("Currently there is no support for Pipeline parallelism with CPU
// offloading") and no recomputation ("CPU offloading does not work when activation recomputation is
// enabled"). Names the field at fault.
inline void validate_offload(int layers, const ParallelPlan& plan) {
  const int n = plan.offload_layers;
  if (n < 0) detail::fail("offload_layers", std::to_string(n), "is negative (0: no activation offloading)");
  if (n == 0) return;
  if (n >= layers)
    detail::fail("offload_layers", std::to_string(n), "must be fewer than the model's " + std::to_string(layers) + " layers");
  if (plan.pp > 1)
    detail::fail("offload_layers", std::to_string(n),
                 "needs pp 1 (pp is " + std::to_string(plan.pp) + "): Megatron-Core offloads activations only without pipeline parallelism");
  if (plan.recompute != Recompute::none)
    detail::fail("offload_layers", std::to_string(n),
                 "cannot be combined with recomputation (recompute is " + std::string(name(plan.recompute)) + "): Megatron-Core refuses both at once");
}

// The layout as people write it: "32" for one stage, "8 x 16" for even stages, "7 + 14 x 8 + 7" when
// the first and last differ, every run of equal stages as "count x layers".
inline std::string stage_layout_text(int layers, const ParallelPlan& plan) {
  std::string out;
  int i = 0;
  while (i < plan.pp) {
    const int l = stage_layers(layers, plan, i);
    int j = i + 1;
    while (j < plan.pp && stage_layers(layers, plan, j) == l) ++j;
    if (!out.empty()) out += " + ";
    out += (j - i > 1 ? std::to_string(j - i) + " x " : "") + std::to_string(l);
    i = j;
  }
  return out;
}

// The context-parallel factor of a plan in words: "" at cp 1, " x CP 16" for the ring, " x CP 16
// (all_gather)" for another exchange.
inline std::string cp_text(const ParallelPlan& p) {
  if (p.cp <= 1) return "";
  return " x CP " + std::to_string(p.cp) + (p.cp_comm == CpComm::p2p ? "" : " (" + std::string(name(p.cp_comm)) + ")");
}

// A plan's recomputation in words: "none", "full", "selective", or with named modules
// "selective (mlp, mla_up_proj)".
inline std::string recompute_text(const ParallelPlan& p) {
  std::string out(name(p.recompute));
  if (p.recompute == Recompute::selective && p.recompute_modules != 0) {
    std::string list = recompute_modules_text(p.recompute_modules);
    for (std::size_t i = list.find(','); i != std::string::npos; i = list.find(',', i + 2)) list.replace(i, 1, ", ");
    out += " (" + list + ")";
  }
  return out;
}

// The plan in words: "TP 8 x PP 16 x DP 8, micro-batch 1, ZeRO 0, recompute full, interleave 2".
inline std::string plan_text(const ParallelPlan& p) {
  return "TP " + std::to_string(p.tp) + cp_text(p) + " x PP " + std::to_string(p.pp) + " x DP " + std::to_string(p.dp) + ", micro-batch " +
         std::to_string(p.micro_batch) + ", ZeRO " + std::to_string(static_cast<int>(p.zero_stage)) + ", recompute " +
         recompute_text(p) + (p.sequence_parallel ? ", sequence parallel" : "") +
         (p.interleave > 1 ? ", interleave " + std::to_string(p.interleave) : "") + (p.ep > 1 ? ", EP " + std::to_string(p.ep) : "") +
         (p.etp > 0 && p.etp != p.tp ? ", ETP " + std::to_string(p.etp) : "") +
         (p.offload_layers > 0 ? ", " + std::to_string(p.offload_layers) + " layers' activations offloaded" : "");
}

// Megatron-LM's interleaved 1F1B schedule runs the micro-batches in groups of pp: it refuses a count
// pp does not divide ("number of microbatches is not divisible by pipeline-model-parallel-size when
// using interleaved schedule", megatron/core/pipeline_parallel/schedules.py,
// forward_backward_pipelining_with_interleaving). Plain 1F1B (interleave 1) has no such rule.
inline bool interleave_fits_microbatches(const ParallelPlan& p, std::int64_t microbatches) {
  return p.interleave <= 1 || microbatches % p.pp == 0;
}

// The layers of the stage that holds the most of them, and of the last stage (which also runs the
// output layer and the loss): the two a pipeline's pace depends on.
struct StageExtremes {
  int most = 0;  // the largest layer count of any stage but the last (0 with one stage)
  int last = 0;  // the last stage's layers
};
inline StageExtremes stage_extremes(int layers, const ParallelPlan& plan) {
  StageExtremes e;
  const int p = plan.pp;
  e.last = stage_layers(layers, plan, p - 1);
  if (plan.first_stage_layers > 0 || plan.last_stage_layers > 0) {
    // Given end stages: stage 0 (the given first, or a middle stage) and the middle stages, all alike.
    if (p > 1) e.most = stage_layers(layers, plan, 0);
    if (p > 2) e.most = std::max(e.most, stage_layers(layers, plan, 1));
    return e;
  }
  // The automatic layout gives no stage more than ceil(layers / p): the scan stops at the first that has it.
  const int cap = (layers + p - 1) / p;
  for (int i = 0; i < p - 1 && e.most < cap; ++i) e.most = std::max(e.most, stage_layers(layers, plan, i));
  return e;
}

}  // namespace capplan
