// Plan search: every valid parallel plan for a model on a cluster, ranked by iteration time, the
// fastest that fit in GPU memory returned with their breakdowns.
//
// Dimensions: tensor parallel (divides heads, FFN and the GPUs of a node), pipeline stages (at most one
// per layer; layers that do not divide are placed as workload/parallel_plan.hpp stage_layers says),
// data parallel (the rest of the GPUs), micro-batch (divides the per-replica batch), ZeRO
// stage 0-3 (2 only with one pipeline stage), recomputation (none, selective with core_attn or a
// published module list, full), sequence parallelism (with tp > 1), interleaving
// (model chunks per GPU, with pp > 1), expert parallelism (MoE models; divides dp and the experts). Time from training.hpp; memory from memory/budget.hpp
// (training_budget) unless the caller passes its own check.
//
// Speed: every plan's time is computed without its text; plans are ranked by time (a heap popped as
// the walk goes) and memory is checked from the fastest down until `top` plans fit, so the exact
// memory model runs on few plans. The candidate lists are kept on the thread between searches.
#pragma once

#include "capplan/error.hpp"
#include "capplan/memory/budget.hpp"
#include "capplan/memory/solvers.hpp"
#include "capplan/perf/framework_memory.hpp"
#include "capplan/perf/training.hpp"
#include "capplan/workload/transformer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace capplan::perf {

struct SearchSpace {
  std::vector<std::int64_t> micro_batches{1, 2, 4, 8, 16};
  std::vector<ZeroStage> zero_stages{ZeroStage::none, ZeroStage::optimizer, ZeroStage::gradients, ZeroStage::parameters};
  std::vector<Recompute> recompute{Recompute::none, Recompute::selective, Recompute::full};
  // What selective recomputation reruns in every plan tried with it (ParallelPlan::recompute_modules;
  // 0: core_attn, Megatron-Core's default).
  std::uint8_t recompute_modules = 0;
  // With recompute_modules 0: also try, under a framework that recomputes named modules
  // (Framework::recompute_module_lists: the megatron-core preset), the module lists that published
  // Megatron-Core recipes run for models of this kind (published_module_lists), each as its own
  // selective plan. Off: selective is core_attn only.
  bool recompute_module_lists = true;
  // Model chunks per GPU (virtual pipeline stages), kept where every stage's layers split into them
  // (chunks_divide) and pp divides the micro-batches per iteration: NVIDIA's tuned recipes run 5, 7, 8, 12
  // and 20 (Megatron-Bridge's Llama 3 70B, 405B, GPT-3 175B and Llama 2 70B), so every degree to 24.
  std::vector<int> interleave{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
  std::vector<int> expert_parallel{1, 2, 4, 8, 16, 32, 64};  // MoE models only
  // Expert tensor parallel degrees tried for MoE models: 0 = as tp (Megatron's old coupling), n > 0 =
  // the experts split over n GPUs whatever tp is (1: whole experts, as Megatron-Bridge's DeepSeek and
  // Qwen MoE recipes set it; a degree equal to a plan's tp is that plan's 0). {n} alone keeps the
  // plans whose experts split over n (capplan's --etp without a plan).
  std::vector<int> expert_tensor_parallel{0, 1};
  // Context parallelism, tried for sequences of at least min_cp_seq tokens with FlashAttention, each
  // degree only while a rank keeps at least min_cp_tokens of every sequence; shorter sequences search
  // cp = 1 only. NVIDIA's tuned recipes run CP 2 at 8,192 tokens (Llama 3.1 70B and 405B), 4,096
  // tokens a rank; the floor of 2,048 keeps degrees that leave a rank less out of the search.
  std::vector<int> context_parallel{1, 2, 4, 8, 16, 32};
  std::int64_t min_cp_seq = 8192;
  std::int64_t min_cp_tokens = 2048;
  // How the CP ranks exchange K/V, tried for every cp > 1: the overlapped ring, Llama 3's all-gather
  // Ulysses' all-to-alls (where the heads split over cp: ulysses_divides) and the hierarchical a2a+p2p
  // (where the cp group spans nodes and the heads split over its ranks in a node).
  std::vector<CpComm> cp_comms{CpComm::p2p, CpComm::all_gather, CpComm::a2a, CpComm::a2a_p2p};
  bool sequence_parallel = true;  // also try sequence parallelism when tp > 1
  // Also try lighter first and last pipeline stages (end_stage_layouts, workload/parallel_plan.hpp)
  // beside the automatic layout, without interleaving.
  bool end_stage_layouts = true;
  int max_tp = 0;                 // 0: GPUs per node
  // Keep plans whose memory fit is tight (FitResult::tight: less headroom than the allocator may lose
  // to fragmentation, memory/budget.hpp RuntimeReserve); by default they are skipped, since a plan
  // at 99 % of memory is one a user cannot count on running.
  bool allow_tight = false;
  // Also try activation offloading (Megatron-Core's --cpu-offloading-num-layers; perf/communication.hpp
  // host_link), under a framework that has it (Framework::activation_offloading), on a plan Megatron-Core allows it on (no pipeline stages, no recomputation) that does not
  // fit: the fewest layers whose activations in host memory make it fit, timed with the copies the
  // compute does not hide. Not on a GPU that shares its host's memory (a SoC) or has no path to it. By
  // default only over a superchip's NVLink-C2C (GB200, GB300: GpuSpec::host_link_bandwidth), where
  // NVIDIA's own recipes offload; over PCIe (offload_over_pcie) the copies would share the link with
  // the data loader and the NIC traffic that capplan does not model, and the model finds gains of a
  // few per cent there that a user cannot count on.
  bool offload = true;
  bool offload_over_pcie = false;

  // The context-parallel degrees tried for a job: context_parallel for sequences of min_cp_seq tokens
  // or more with FlashAttention on a model without MLA (CP with MLA is not modelled; with MoE the
  // experts fold into the dp x cp ranks), each while seq / cp >= min_cp_tokens (0 or less: no floor),
  // else 1; each degree splits the sequence into 2 x cp load-balanced chunks.
  [[nodiscard]] std::vector<int> cp_degrees(std::int64_t seq, bool flash_attention, const TransformerShape& model) const {
    if (seq < min_cp_seq || !flash_attention || model.mla) return {1};
    std::vector<int> out;
    for (int cp : context_parallel)
      if (cp == 1 || (cp > 1 && seq % (2LL * cp) == 0 && seq / cp >= min_cp_tokens)) out.push_back(cp);
    if (out.empty()) out.push_back(1);  // a space without 1 whose degrees all drop still searches cp = 1
    return out;
  }
};

// The module lists (ParallelPlan::recompute_modules) that published Megatron-Core training recipes
// run with --recompute-granularity selective, beside its default core_attn:
//   mla_up_proj          Megatron-Bridge's DeepSeek-V3 performance configs on B200 and GB200
//                        (scripts/performance/configs/deepseek, recompute_modules [mla_up_proj])
//   mla_up_proj, mlp     the same configs on H100
//   moe_act              the Megatron-Core MoE guide's fine-grained recomputation
//                        (megatron/core/transformer/moe/README.md: the experts' activation, cheap to rerun)
//   moe_act, layernorm   Megatron-MoE-ModelZoo's Qwen3 235B-A22B best practice on H100
//                        (best_practice/qwen3/run_235b.sh)
//   moe_act, mlp         the same repository's DeepSeek-V3 benchmarks (Megatron-Core 0.15)
// A list is tried only on a model it applies to (recompute_modules_apply: moe_act needs experts,
// mla_up_proj latent attention, mlp a dense layer).
inline constexpr std::uint8_t published_module_lists[] = {
    recompute_module::mla_up_proj,
    recompute_module::mla_up_proj | recompute_module::mlp,
    recompute_module::moe_act,
    recompute_module::moe_act | recompute_module::layernorm,
    recompute_module::moe_act | recompute_module::mlp,
};

// The module sets selective recomputation is tried with for `model` under `fw`: the space's own
// recompute_modules when it names some; else core_attn (0), then, with the space's and the framework's
// recompute_module_lists (Megatron-Core), every published list that applies to the model.
inline std::vector<std::uint8_t> selective_module_sets(const SearchSpace& space, const TransformerShape& model, const Framework& fw) {
  if (space.recompute_modules != 0) return {space.recompute_modules};
  std::vector<std::uint8_t> out{0};
  if (!space.recompute_module_lists || !fw.recompute_module_lists || fw.eager) return out;
  for (const std::uint8_t m : published_module_lists)
    if (recompute_modules_apply(model, m)) out.push_back(m);
  return out;
}

// Whether the search tries activation offloading (SearchSpace::offload) for a model of `layers` layers
// on `g` under `fw`: the framework has it, the model has more than one layer, and the GPU has a path to
// its host's memory that the space allows (NVLink-C2C, or PCIe with offload_over_pcie), not a SoC's
// shared memory. The plan search and the purchase table's fewest-GPU bound both ask.
inline bool offloads_activations(const SearchSpace& space, const Framework& fw, std::int64_t layers, const GpuSpec& g) {
  return space.offload && fw.activation_offloading && layers > 1 && g.form_factor != FormFactor::soc &&
         (g.host_link_bandwidth.value() > 0 || (space.offload_over_pcie && g.pcie_generation > 0 && g.pcie_lanes > 0));
}

// True when the plan's per-GPU memory fits on the GPU.
using MemoryCheck = std::function<bool(const TrainingJob&, const ParallelPlan&, const Cluster&)>;

// The memory module's verdict: training_budget(...).total() <= GPU memory (memory/budget.hpp), for
// the plan itself and what the job adds (sequence length, micro-batches per iteration).
// The framework decides what the time model also counts: FlashAttention, the gradient bytes kept for
// the optimizer and whether the fp32 parameters are the master copy (Framework::master_grad_bytes,
// fp32_params), so memory and time agree.
inline TrainingConfig plan_training_config(const TrainingJob& job, const ParallelPlan& plan, const Framework& fw) {
  TrainingConfig cfg;
  cfg.plan = plan;
  cfg.seq_len = job.seq_len;
  cfg.microbatches = job.global_batch / (plan.micro_batch * plan.dp);
  apply_framework(cfg, fw);
  apply_precision(cfg, fw, job.precision, job.fp8_recipe);
  cfg.finetune = job.finetune;
  cfg.lora = job.lora;
  cfg.mtp_layers = job.mtp_layers;
  return cfg;
}

// The generic framework's budget with FlashAttention on or off.
inline TrainingConfig plan_training_config(const TrainingJob& job, const ParallelPlan& plan, bool flash_attention) {
  Framework fw;
  fw.flash_attention = flash_attention;
  return plan_training_config(job, plan, fw);
}

inline MemoryBudget plan_memory(const TrainingJob& job, const ParallelPlan& plan, const Framework& fw) {
  fw.validate();
  return training_budget(job.model, plan_training_config(job, plan, fw));
}

inline MemoryBudget plan_memory(const TrainingJob& job, const ParallelPlan& plan, bool flash_attention) {
  return training_budget(job.model, plan_training_config(job, plan, flash_attention));
}

// The same budget for a prepared job, without detail text (the sizes are identical).
inline MemoryBudget plan_memory(const PreparedTraining& p, const ParallelPlan& plan) {
  return training_budget(p.job.model, plan_training_config(p.job, plan, p.framework), p.params, false);
}

// One full estimate of one plan: hardware and model FLOPs, the per-GPU memory budget and the
// iteration time, numbers only (no text), with the job's exact counts worked out once for both.
// The same numbers as estimate_training(job, plan, ...) and plan_memory(job, plan, flash_attention).
struct PlanEstimate {
  TrainingEstimate time;  // without its breakdown: estimate_training(...) explains
  MemoryBudget memory;    // without detail lines
  bool fits = false;      // memory.total() <= the GPU's memory
};

inline PlanEstimate estimate_plan(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                                  const Framework& fw = {}, const EfficiencyModel& model = {}) {
  using namespace detail;
  validate_plan(job, plan, cluster);
  fw.validate();
  const ParamSizes sizes = parameter_sizes(job.model);
  const DeviceRates rates = device_rates(cluster.gpu, job.precision, model);
  const LayerCosts costs = layer_costs(job, plan.tp, plan.micro_batch, plan.sequence_parallel, fw, rates, plan.ep, plan.cp, plan.etp);
  const Numbers n = training_numbers(job, plan, cluster, fw, rates, costs, nullptr, &sizes);
  // Both members built in place (prvalues in an aggregate initialiser), the result returned in place.
  PlanEstimate out{estimate_from(n, job, plan, cluster, rates),
                   training_budget(job.model, plan_training_config(job, plan, fw), sizes, false), false};
  out.fits = out.memory.total().value() <= cluster.gpu.capacity().value();
  return out;
}

// Fits when the per-GPU memory budget (memory/budget.hpp, sizes only: no detail text) is within the
// GPU's memory; unless allow_tight, with the allocator's margin to spare (not a tight fit).
inline MemoryCheck budget_memory_check(const Framework& fw, bool allow_tight = false) {
  return [fw, allow_tight](const TrainingJob& job, const ParallelPlan& plan, const Cluster& c) {
    const FitResult fit = check_fit(training_budget(job.model, plan_training_config(job, plan, fw),
                                                    parameter_sizes(job.model), false),
                                    c.gpu.capacity());
    return fit.fits && (allow_tight || !fit.tight);
  };
}

}  // namespace capplan::perf

namespace capplan::detail {
// A candidate's place in search_plans' ranking: its iteration time, then the order it was generated in.
struct PlanRank {
  double seconds;
  std::uint32_t index;  // into the search's candidate list
};

// A search's candidates and their ranks; the calling thread keeps one pair spare between searches.
struct SearchLists {
  std::vector<ParallelPlan> plans;
  std::vector<PlanRank> ranks;
};
// Set when the thread's spare lists are destroyed (the thread ends, or the program exits): a bool has
// no destructor, so it can still be read by a search run from a later destructor, which then works
// in lists of its own.
inline bool& search_lists_gone() {
  thread_local bool gone = false;
  return gone;
}
struct SpareSearchLists {
  SearchLists lists;
  SpareSearchLists() = default;
  SpareSearchLists(const SpareSearchLists&) = delete;
  SpareSearchLists& operator=(const SpareSearchLists&) = delete;
  ~SpareSearchLists() { search_lists_gone() = true; }
};
// The calling thread's spare lists; null once they are destroyed.
inline SearchLists* spare_search_lists() {
  if (search_lists_gone()) return nullptr;
  thread_local SpareSearchLists spare;
  return &spare.lists;
}

// The default check inside one search: the same budget with the parameter breakdown of the searched
// model worked out once (the search checks many plans of one job).
inline perf::MemoryCheck budget_memory_check(const perf::Framework& fw, const ParamSizes& params, bool allow_tight) {
  return [fw, params, allow_tight](const perf::TrainingJob& job, const ParallelPlan& plan, const perf::Cluster& c) {
    const FitResult fit = check_fit(training_budget(job.model, plan_training_config(job, plan, fw), params, false), c.gpu.capacity());
    return fit.fits && (allow_tight || !fit.tight);
  };
}
}  // namespace capplan::detail

namespace capplan::perf {

struct RankedPlan {
  ParallelPlan plan;
  TrainingEstimate estimate;  // with its breakdown
};

struct SearchResult {
  std::vector<RankedPlan> top;   // fastest first, all fitting in memory
  std::size_t candidates = 0;    // plans whose sizes divide the model, GPUs and batch
  std::size_t memory_checked = 0;  // ranked plans whose memory was checked, fastest first
  std::size_t rejected_for_memory = 0;
  // Activation offloading (SearchSpace::offload): memory checks of offloaded variants of the plans
  // that did not fit (the bisection for the fewest layers), and the variants that fit.
  std::size_t offload_checks = 0;
  std::size_t offloaded_fits = 0;
  [[nodiscard]] std::string explain() const {
    std::string s = std::to_string(candidates) + " valid plans timed, " + std::to_string(memory_checked) + " checked for memory (" +
                    std::to_string(rejected_for_memory) + " do not fit, or fit only tightly)";
    if (offload_checks > 0)
      s += "; " + std::to_string(offload_checks) + " memory checks of offloaded layers, " + std::to_string(offloaded_fits) +
           " plans fit with offloading";
    s += "; fastest that fit:\n";
    int i = 1;
    for (const auto& r : top) s += "#" + std::to_string(i++) + " " + r.estimate.explain();
    return s;
  }
};

inline SearchResult search_plans(const TrainingJob& job_in, const Cluster& cluster, const Framework& fw = {},
                                 const EfficiencyModel& model = {}, std::size_t top = 5, const SearchSpace& space = {},
                                 MemoryCheck fits = {}) {
  cluster.validate();
  require_positive_count(job_in.global_batch, "global_batch");
  validate_training_precision(job_in.precision);
  if (top == 0) capplan::detail::fail("top", "0", "must be at least 1");
  const ParamSizes sizes = parameter_sizes(job_in.model);  // once: memory check, parameters, experts
  if (!fits) fits = detail::budget_memory_check(fw, sizes, space.allow_tight);
  const ResolvedShape s = resolve(job_in.model);
  const std::int64_t seq = job_in.seq_len > 0 ? job_in.seq_len : job_in.model.seq_len;
  // Plan-independent inputs computed once (exact parameter and FLOP counts are slow to redo per plan).
  TrainingJob job = job_in;
  if (!(job.parameters > 0)) job.parameters = parameter_total(job.model, sizes);
  if (job.model.moe && !job.expert_parameters) job.expert_parameters = detail::expert_parameters(job, job.parameters, &sizes);
  const detail::JobFlops flops = detail::job_flops(job, seq);  // what recomputation runs again, for every plan
  if (!job.model_flops_per_token)
    job.model_flops_per_token = detail::job_model_flops(job, 1, seq) / static_cast<double>(seq);
  const DeviceRates rates = device_rates(cluster.gpu, job.precision, model);
  const int n = cluster.gpus;
  const int max_tp = space.max_tp > 0 ? space.max_tp : cluster.gpus_per_node;

  struct Timed {
    ParallelPlan plan;
    double seconds;
  };
  // Every candidate in the order generated, and its place in the ranking: time, then that order.
  // The two lists (tens to over a hundred MB for a mixture of experts at long context) are the calling
  // thread's spare ones, kept between searches: on a virtual machine, fresh memory of that size cost
  // most of a search's time in page faults where the plans are cheap to time (docs/performance.md),
  // and planners run hundreds of searches. A search that starts while another is running on the
  // thread (from a memory check) gets lists of its own; lists above 256 MB are not kept.
  // release_search_memory() frees the calling thread's.
  using capplan::detail::PlanRank;
  using Lists = capplan::detail::SearchLists;
  struct Borrowed {
    Lists lists;
    Borrowed() {
      if (Lists* spare = capplan::detail::spare_search_lists()) lists = std::exchange(*spare, Lists{});
    }
    Borrowed(const Borrowed&) = delete;
    Borrowed& operator=(const Borrowed&) = delete;
    ~Borrowed() {
      constexpr std::size_t keep = std::size_t{256} << 20;
      if (lists.plans.capacity() * sizeof(ParallelPlan) + lists.ranks.capacity() * sizeof(PlanRank) > keep) return;
      lists.plans.clear();
      lists.ranks.clear();
      Lists* spare = capplan::detail::spare_search_lists();
      if (spare && spare->plans.capacity() < lists.plans.capacity()) *spare = std::move(lists);
    }
  } borrowed;
  std::vector<ParallelPlan>& plans = borrowed.lists.plans;
  std::vector<PlanRank>& ranks = borrowed.lists.ranks;
  plans.clear();
  ranks.clear();
  SearchResult result;
  const std::vector<int> cps = space.cp_degrees(seq, fw.flash_attention, job.model);
  const std::vector<std::uint8_t> module_sets = selective_module_sets(space, job.model, fw);
  const std::vector<std::uint8_t> no_modules{0};
  for (int tp = 1; tp <= std::min(max_tp, n); ++tp) {
    if (n % tp || s.heads % tp || s.ffn % tp || (job.model.moe && job.model.moe->moe_ffn_hidden % tp)) continue;
    // The expert TP degrees at this tp, each once: a listed degree equal to tp is the plan's 0 (as tp).
    std::vector<int> etps;
    if (job.model.moe) {
      for (const int v : space.expert_tensor_parallel) {
        const int etp = v == tp ? 0 : v;
        if (etp >= 0 && std::find(etps.begin(), etps.end(), etp) == etps.end()) etps.push_back(etp);
      }
    } else {
      etps.push_back(0);
    }
    // Runnable: a tensor-parallel group stays inside one node and divides it (3 of 8 GPUs would
    // straddle two nodes and all-reduce over the network every layer; no framework lays TP out so).
    if (cluster.gpus_per_node % tp != 0 && cluster.gpus > tp) continue;
    for (int cp : cps) {
      if ((n / tp) % cp) continue;
      for (int pp = 1; pp <= n / (tp * cp); ++pp) {
        if ((n / (tp * cp)) % pp || pp > s.layers) continue;  // layers need not divide: stage_layers places the rest
        const int dp = n / (tp * cp * pp);
        // The automatic layout (0, 0), then lighter end stages.
        std::vector<std::pair<int, int>> layouts{{0, 0}};
        if (space.end_stage_layouts) {
          const auto more = end_stage_layouts(static_cast<int>(s.layers), pp);
          layouts.insert(layouts.end(), more.begin(), more.end());
        }
        for (std::int64_t mb : space.micro_batches) {
          if (mb <= 0 || job.global_batch % (mb * dp)) continue;
          for (ZeroStage zero : space.zero_stages) {
            const int stage = static_cast<int>(zero);
            if (stage < 0 || stage > 3 || (zero != ZeroStage::none && dp * cp == 1)) continue;
            // ZeRO 2 with pipeline stages is a plan no framework runs: DeepSpeed's pipeline engine
            // refuses stage 2 (deepspeedai/DeepSpeed#1110), Megatron's distributed optimizer is stage 1,
            // and FSDP under a pipeline schedule reduces at the last micro-batch, as stage 1 does.
            if (zero == ZeroStage::gradients && pp > 1) continue;
            for (int sp = 0; sp <= (space.sequence_parallel && tp > 1 && sequence_parallel_divides(seq, tp, cp) ? 1 : 0); ++sp) {
              for (int ep : job.model.moe ? space.expert_parallel : std::vector<int>{1}) {
               for (const int etp : etps) {
                const int e_tp = etp > 0 ? etp : tp;
                if (job.model.moe && job.model.moe->moe_ffn_hidden % e_tp) continue;
                if (etp > 0 && cluster.gpus_per_node % etp != 0 && n > etp) continue;
                if (ep < 1 || (static_cast<std::int64_t>(tp) * dp * cp) % (static_cast<std::int64_t>(e_tp) * ep) ||
                    (job.model.moe && job.model.moe->experts % ep))
                  continue;
                // Kernel costs depend only on (tp, micro-batch, sequence parallel, ep, cp, etp): computed once for the rest.
                const detail::LayerCosts costs = layer_costs(job, tp, mb, sp == 1, fw, rates, ep, cp, etp);
                for (Recompute rc : space.recompute) {
                 for (const std::uint8_t modules : rc == Recompute::selective ? module_sets : no_modules) {
                  for (int v : space.interleave) {
                    if (v < 1 || (v > 1 && pp == 1)) continue;
                    ParallelPlan p;
                    p.tp = tp;
                    p.pp = pp;
                    p.interleave = v;
                    if (v > 1 && !chunks_divide(static_cast<int>(s.layers), p)) continue;
                    if (!interleave_fits_microbatches(p, job.global_batch / (mb * dp))) continue;
                    p.dp = dp;
                    p.micro_batch = mb;
                    p.zero_stage = zero;
                    p.recompute = rc;
                    p.recompute_modules = modules;
                    p.sequence_parallel = sp == 1;
                    p.ep = ep;
                    p.etp = etp;
                    p.cp = cp;
                    for (const auto& [first, last] : layouts) {
                      if (v > 1 && (first > 0 || last > 0)) break;  // custom end stages without interleaving
                      p.first_stage_layers = first;
                      p.last_stage_layers = last;
                      for (const CpComm comm : cp > 1 ? space.cp_comms : std::vector<CpComm>{CpComm::p2p}) {
                        if (comm == CpComm::a2a && !ulysses_divides(s.heads, s.kv_heads, tp, cp)) continue;
                        if (comm == CpComm::a2a_p2p) {  // only where it differs from both: a2a in a node, a ring across
                          const int a = cp_a2a_size(p, cluster.gpus_per_node);
                          if (a <= 1 || a >= cp || !ulysses_divides(s.heads, s.kv_heads, tp, a)) continue;
                        }
                        p.cp_comm = comm;
                        const TrainingEstimate e = estimate_training(job, p, cluster, fw, rates, false, &costs, &flops);
                        if (plans.size() >= std::numeric_limits<std::uint32_t>::max())
                          capplan::detail::fail("plan search", std::to_string(plans.size()) + " candidates", "is more than the search can rank");
                        plans.push_back(p);
                        ranks.push_back({e.iteration.value(), static_cast<std::uint32_t>(plans.size() - 1)});
                      }
                    }
                  }
                 }
                }
               }
              }
            }
          }
        }
      }
    }
  }
  result.candidates = plans.size();
  // Fastest first; among plans of equal time the one generated first wins, i.e. the simpler one (less
  // recomputation, lower ZeRO stage, no interleaving), whatever the candidate list holds. The walk
  // below stops at `top` plans that fit, usually a few hundred ranks into hundreds of thousands of
  // candidates (a mixture of experts at 32,768 tokens: ~700,000), so the ranking is a heap popped as
  // the walk goes (linear to build) rather than a sort of every candidate.
  const auto ranked_after = [](const PlanRank& a, const PlanRank& b) { return a.seconds > b.seconds || (a.seconds == b.seconds && a.index > b.index); };
  std::make_heap(ranks.begin(), ranks.end(), ranked_after);
  // Offloaded variants of plans that do not fit, each slower than the plan it comes from: a min-heap by
  // time, taken into the ranking when the plans timed so far reach their time.
  const GpuSpec& g = cluster.gpu;
  const bool can_offload = offloads_activations(space, fw, s.layers, g);
  std::vector<Timed> offloaded;
  const auto later = [](const Timed& a, const Timed& b) { return a.seconds > b.seconds; };
  const auto take_offloaded = [&](double up_to) {
    while (!offloaded.empty() && result.top.size() < top && offloaded.front().seconds <= up_to) {
      std::pop_heap(offloaded.begin(), offloaded.end(), later);
      result.top.push_back({offloaded.back().plan, estimate_training(job, offloaded.back().plan, cluster, fw, rates, true, nullptr, &flops)});
      offloaded.pop_back();
    }
  };
  while (!ranks.empty()) {
    std::pop_heap(ranks.begin(), ranks.end(), ranked_after);
    const Timed t{plans[ranks.back().index], ranks.back().seconds};
    ranks.pop_back();
    take_offloaded(t.seconds);
    if (result.top.size() >= top) break;
    ++result.memory_checked;
    if (!fits(job, t.plan, cluster)) {
      ++result.rejected_for_memory;
      if (can_offload && t.plan.pp == 1 && t.plan.recompute == Recompute::none && t.plan.offload_layers == 0) {
        // Memory falls with every layer offloaded (the GPU keeps layers - n + 1): the fewest that fit,
        // if even all but one do.
        ParallelPlan p = t.plan;
        const int layers = static_cast<int>(s.layers);
        p.offload_layers = layers - 1;
        ++result.offload_checks;
        if (fits(job, p, cluster)) {
          ++result.offloaded_fits;
          int lo = 1, hi = layers - 1;
          while (lo < hi) {
            p.offload_layers = lo + (hi - lo) / 2;
            ++result.offload_checks;
            if (fits(job, p, cluster)) hi = p.offload_layers;
            else lo = p.offload_layers + 1;
          }
          p.offload_layers = hi;
          offloaded.push_back({p, estimate_training(job, p, cluster, fw, rates, false, nullptr, &flops).iteration.value()});
          std::push_heap(offloaded.begin(), offloaded.end(), later);
        }
      }
      continue;
    }
    result.top.push_back({t.plan, estimate_training(job, t.plan, cluster, fw, rates, true, nullptr, &flops)});
  }
  take_offloaded(INFINITY);
  return result;
}

// Frees the lists search_plans keeps on the calling thread between searches (about 100 MB after a
// mixture of experts at long context on thousands of GPUs, at most 256 MB); other threads keep
// theirs. The next search on the thread allocates them afresh.
inline void release_search_memory() {
  if (capplan::detail::SearchLists* spare = capplan::detail::spare_search_lists()) *spare = capplan::detail::SearchLists{};
}

}  // namespace capplan::perf
