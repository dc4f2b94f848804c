// The best training run of a model on N GPUs of one type: the job set up the way capplan sets one
// up by default, the fastest plan that fits from perf/plan_search.hpp, and its estimate. `capplan
// train` and the purchase table (plan/purchase.hpp) both time training with this, so they agree.
//
//   TrainingSetup setup;                                   // bf16, ~4M-token global batch, 8 GPUs a node
//   TrainingRunSearch s = best_training_run(shape, gpu, 8, setup);
//   s.run->estimate.time_for_tokens(1e9);  s.run->plan;  s.run->memory.total();
//
// Defaults: global batch of about 4M tokens (Llama 2: "global batch-size of 4M tokens", Touvron et
// al. 2023, §2.2) rounded up to a multiple of the GPUs (default_global_batch); between nodes the fabric a host of that GPU
// usually has (perf/fabric.hpp usual_fabric: HDR 200 Gb/s per A100 SXM, NDR 400 Gb/s per H100 SXM,
// one 100 GbE port per PCIe server, none for consumer cards, whose plans then stay in one node), an
// assumption stated in every report; the framework of perf::Framework{}.
// Precision: the one asked for; a GPU without it is timed at FP16, else at its FP32 rate, and the
// run says so (precision_note).
//
// Also here: the fewest GPUs (in whole units of `unit` GPUs) on which a plan fits, and the fewest
// that finish `tokens` by a deadline. The deadline search assumes the time does not rise with more
// GPUs: it probes at growing counts until one is in time, then bisects down to the smallest count
// whose next-smaller count is late.
#pragma once

#include "capplan/error.hpp"
#include "capplan/memory/solvers.hpp"
#include "capplan/perf/fabric.hpp"
#include "capplan/perf/plan_search.hpp"
#include "capplan/perf/training.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace capplan {

struct TrainingSetup {
  std::int64_t seq_len = 0;                  // 0: the model's
  std::optional<std::int64_t> global_batch;  // sequences; default about 4M tokens (default_global_batch)
  Precision precision = Precision::bf16;
  std::optional<double> measured_mfu;        // given: iteration time follows from it (perf::TrainingJob)
  int gpus_per_node = 0;                     // GPUs that share the fast intra-node links; 0: perf::usual_gpus_per_node(gpu)
  std::optional<perf::Fabric> fabric;        // between nodes; absent: perf::usual_fabric(gpu)
  perf::PcieHost pcie_host = perf::PcieHost::pcie_switch;  // how PCIe GPUs hang off a node's host (perf/communication.hpp)
  perf::PeerToPeer p2p = perf::PeerToPeer::automatic;      // what NCCL may do over those PCIe links (perf/communication.hpp);
                                                           // disabled: PCIe cards and bridged pairs only, others keep the default
  // The host's DRAM wire rate (B/s) its GPUs share through host memory (NCCL's SHM, perf::make_cluster);
  // 0: perf::assumed_host_memory_bandwidth.
  double host_memory_bandwidth = 0;
  perf::Framework framework{};
  perf::SearchSpace space{};
  FineTune finetune = FineTune::full;        // full, or LoRA / QLoRA adapters (perf::TrainingJob)
  LoraOptions lora;
  perf::Fp8Recipe fp8_recipe = perf::Fp8Recipe::delayed;  // precision fp8 (perf/quantization.hpp)
  int mtp_layers = 0;  // multi-token-prediction layers trained on the last stage (perf::TrainingJob::mtp_layers)
};

struct TrainingRun {
  perf::TrainingJob job;
  perf::Cluster cluster;
  perf::Fabric fabric;          // between nodes (the cluster's inter link is its share per GPU)
  ParallelPlan plan;
  perf::TrainingEstimate estimate;
  MemoryBudget memory;          // per GPU, of the plan
  std::string precision_note;   // non-empty when the GPU lacked the precision asked for
  [[nodiscard]] int gpus() const { return plan.gpus(); }
  [[nodiscard]] Duration time_for_tokens(double tokens) const { return estimate.time_for_tokens(tokens); }
};

struct TrainingRunSearch {
  std::optional<TrainingRun> run;  // absent: no plan fits in memory
  std::size_t candidates = 0;
  std::size_t rejected_for_memory = 0;
  perf::SearchResult search;       // the ranking, with breakdowns
  // The search's ranking as text (built on demand: formatting costs more than the search).
  [[nodiscard]] std::string explanation() const { return search.explain(); }
};

namespace detail {

// The precision the GPU can be timed at: the one asked for, else the next wider one it has: FP4 falls
// back to FP8, FP8 to BF16, BF16 to FP16, and any of them to FP32.
inline std::optional<Precision> usable_precision(const GpuSpec& g, Precision asked) {
  if (g.dense.at(asked)) return asked;
  if (asked == Precision::fp4 && g.dense.at(Precision::fp8)) return Precision::fp8;
  if ((asked == Precision::fp4 || asked == Precision::fp8) && g.dense.at(Precision::bf16)) return Precision::bf16;
  if ((asked == Precision::fp4 || asked == Precision::fp8 || asked == Precision::bf16) && g.dense.at(Precision::fp16)) return Precision::fp16;
  if (g.dense.at(Precision::fp32)) return Precision::fp32;
  return std::nullopt;
}

}  // namespace detail

// True when the GPU has a dense rate the training model can use (see usable_precision).
inline bool can_time_training(const GpuSpec& g, Precision asked = Precision::bf16) {
  return detail::usable_precision(g, asked).has_value();
}

// The fabric between nodes: the one set up, else the usual one for the GPU's host.
inline perf::Fabric training_fabric(const GpuSpec& gpu, const TrainingSetup& setup) {
  perf::Fabric f = setup.fabric ? *setup.fabric : perf::usual_fabric(gpu);
  f.validate();
  return f;
}

// The default global batch, in sequences of `seq_len` tokens, on `gpus` GPUs: about 4M tokens (Touvron
// et al. 2023, §2.2: Llama 2's "global batch-size of 4M tokens"; GPT-3 175B ran 3.2M, Brown et al.
// 2020, Table 2.1), B = 4,194,304 / seq_len sequences, rounded up to a multiple of the GPUs, so that
// any data-parallel degree a plan on them takes divides it. On more GPUs than B that is one sequence a
// GPU or more, a batch beyond 4M tokens that grows with the GPUs (default_batch_oversized): large runs
// keep theirs and go model-parallel instead (Llama 3 405B: 16M tokens on 16,384 GPUs at TP 8 x PP 16,
// Dubey et al. 2024, Table 4), which --global-batch sets; the reports say so.
inline std::int64_t default_batch_sequences(std::int64_t seq_len) {
  require_positive_count(seq_len, "seq_len");
  return std::max<std::int64_t>(1, (4 * 1024 * 1024) / seq_len);
}
inline std::int64_t default_global_batch(std::int64_t seq_len, int gpus) {
  require_positive_count(gpus, "gpus");
  const std::int64_t base = default_batch_sequences(seq_len);
  return (base + gpus - 1) / gpus * gpus;
}
// The batch that stays under twice ~4M tokens on `gpus` GPUs when their replicas go model-parallel
// instead of growing it: the default's sequences (default_batch_sequences) rounded up to a multiple of
// the largest divisor d of the GPUs that is at most that many, so that a plan of d replicas, each over
// gpus / d GPUs, trains it in whole steps (as may any plan whose data-parallel degree divides it):
// 1,024 sequences of 4,096 tokens on 2,048 or 16,384 GPUs, 2,016 on 4,032 (d = 1,008), nearly twice
// where d falls just short of the sequences. On at most that many GPUs: default_global_batch. What
// `train` times beside an oversized default (default_batch_oversized): large runs keep their batch so
// (Llama 3 405B: 16M tokens on 16,384 GPUs at TP 8 x PP 16). Not the default: the fewest GPUs for a
// deadline assume a time that falls about as 1/GPUs, and at a kept batch it jumps between neighbouring
// counts (Llama 2 7B on H100: 4,032 GPUs train 2,016 sequences a step and 20B tokens in 9.6 min, 4,096
// GPUs 1,024 sequences in 12.3 min), which sent that search to twice the GPUs needed and more (L4 for
// that run: 11,472 where 5,760 finish in time).
inline std::int64_t model_parallel_batch(std::int64_t seq_len, int gpus) {
  require_positive_count(gpus, "gpus");
  const std::int64_t base = default_batch_sequences(seq_len);
  std::int64_t d = 1;  // the largest divisor of gpus at most base
  for (std::int64_t i = 1; i * i <= gpus; ++i) {
    if (gpus % i) continue;
    if (i <= base) d = std::max(d, i);
    if (gpus / i <= base) d = std::max(d, gpus / i);
  }
  return (base + d - 1) / d * d;
}
// The default global batch on `gpus` GPUs is twice the ~4M tokens asked for or more: the GPUs are at
// least twice its sequences, and what such a batch trains in its fewer steps is not what 4M tokens
// train (critical batch size: McCandlish et al. 2018).
inline bool default_batch_oversized(std::int64_t seq_len, int gpus) {
  return default_global_batch(seq_len, gpus) >= 2 * default_batch_sequences(seq_len);
}

// The job and cluster for `gpus` GPUs; throws InputError naming the field on bad input.
inline std::pair<perf::TrainingJob, perf::Cluster> training_job(const TransformerShape& shape, const GpuSpec& gpu, int gpus,
                                                                const TrainingSetup& setup, std::string* precision_note = nullptr) {
  require_positive_count(gpus, "gpus");
  if (setup.gpus_per_node < 0) detail::fail("gpus_per_node", std::to_string(setup.gpus_per_node), "is negative (0: the GPU's usual host)");
  perf::TrainingJob job;
  job.model = shape;
  job.seq_len = setup.seq_len > 0 ? setup.seq_len : shape.seq_len;
  require_positive_count(job.seq_len, "seq_len");
  validate_training_precision(setup.precision);
  const auto p = detail::usable_precision(gpu, setup.precision);
  if (!p) detail::fail("gpu", "\"" + gpu.id + "\"", "has no dense " + std::string(name(setup.precision)) + ", FP16 or FP32 rate in the catalog");
  job.precision = *p;
  if (precision_note && *p != setup.precision) {
    *precision_note = gpu.id + ": no dense " + std::string(name(setup.precision)) + " rate in the catalog; timed at " + std::string(name(*p));
  }
  job.measured_mfu = setup.measured_mfu;
  job.finetune = setup.finetune;
  job.lora = setup.lora;
  if (setup.mtp_layers < 0 || setup.mtp_layers > max_mtp_layers)
    detail::fail("mtp_layers", std::to_string(setup.mtp_layers), "must be 0 to " + std::to_string(max_mtp_layers));
  job.mtp_layers = setup.mtp_layers;
  // The recipe holds where FP8 is what runs; a fallback from FP4 to FP8 scales per tensor (delayed).
  job.fp8_recipe = job.precision == Precision::fp8 && setup.precision == Precision::fp8 ? setup.fp8_recipe : perf::Fp8Recipe::delayed;
  if (job.precision == Precision::fp8 && job.fp8_recipe == perf::Fp8Recipe::mxfp8 && !perf::quant_hardware(gpu).block_scaled) {
    job.fp8_recipe = perf::Fp8Recipe::current;
    if (precision_note)
      *precision_note = gpu.id + ": no block-scaled (MXFP8) tensor cores; timed with per-tensor current scaling";
  }
  // Blockwise FP8 off Hopper: Transformer Engine emulates it through MXFP8 where there are block-scaled
  // tensor cores (Blackwell), and current scaling is the nearest elsewhere.
  if (const perf::QuantHardware hw = perf::quant_hardware(gpu);
      job.precision == Precision::fp8 && job.fp8_recipe == perf::Fp8Recipe::blockwise && !hw.fp8_blockwise) {
    job.fp8_recipe = hw.block_scaled ? perf::Fp8Recipe::mxfp8 : perf::Fp8Recipe::current;
    if (precision_note)
      *precision_note = gpu.id + (hw.block_scaled ? ": blockwise FP8 runs emulated through MXFP8 off Hopper (Transformer Engine); timed as mxfp8"
                                                  : ": no blockwise-scaled FP8 GEMMs (Hopper only); timed with per-tensor current scaling");
  }
  const std::int64_t gb = setup.global_batch ? *setup.global_batch : default_global_batch(job.seq_len, gpus);
  require_positive_count(gb, "global_batch");
  job.global_batch = gb;
  const perf::Fabric fabric = training_fabric(gpu, setup);
  const int per_node = std::min(setup.gpus_per_node > 0 ? setup.gpus_per_node : perf::usual_gpus_per_node(gpu), gpus);
  if (gpus > per_node && fabric.none()) {
    const int nodes = (gpus + per_node - 1) / per_node;
    detail::fail("fabric", "\"" + fabric.id + "\"",
                 "joins no nodes: " + std::to_string(gpus) + " GPUs need " + std::to_string(nodes) + " nodes of " + std::to_string(per_node) +
                     (setup.fabric ? std::string() : " (" + gpu.id + " hosts have no network by default)") + "; choose a fabric (" + perf::fabric_ids() + ") or at most " +
                     std::to_string(per_node) + " GPUs");
  }
  const perf::Link inter = fabric.none() ? perf::Link{} : fabric.link(per_node);
  // p2p disabled is for PCIe cards and bridged pairs (perf::p2p_setting_modelled); a table of many GPUs keeps
  // NCCL's default on the rows NVSwitch, xGMI or a chip link joins, and says so (purchase.hpp).
  const perf::PeerToPeer p2p = perf::modelled_p2p(gpu, setup.p2p);
  const perf::Cluster cluster = perf::make_cluster(gpu, gpus, per_node, inter, setup.pcie_host, p2p, setup.host_memory_bandwidth);
  return {job, cluster};
}

// The fastest plan that fits on `gpus` GPUs of `gpu` (perf::search_plans), with its estimate.
inline TrainingRunSearch best_training_run(const TransformerShape& shape, const GpuSpec& gpu, int gpus, const TrainingSetup& setup = {}) {
  TrainingRunSearch out;
  std::string note;
  auto [job, cluster] = training_job(shape, gpu, gpus, setup, &note);
  out.search = perf::search_plans(job, cluster, setup.framework, {}, 1, setup.space);
  const perf::SearchResult& sr = out.search;
  out.candidates = sr.candidates;
  out.rejected_for_memory = sr.rejected_for_memory;
  if (sr.top.empty()) return out;
  TrainingRun r;
  r.job = job;
  r.cluster = cluster;
  r.fabric = training_fabric(gpu, setup);
  r.plan = sr.top.front().plan;
  r.estimate = sr.top.front().estimate;
  r.memory = perf::plan_memory(job, r.plan, setup.framework);
  r.precision_note = note;
  out.run = std::move(r);
  return out;
}

// A given plan on plan.gpus() GPUs: its estimate and memory (the caller checks the fit).
inline TrainingRun training_run(const TransformerShape& shape, const GpuSpec& gpu, const ParallelPlan& plan,
                                const TrainingSetup& setup = {}) {
  TrainingRun r;
  std::tie(r.job, r.cluster) = training_job(shape, gpu, plan.gpus(), setup, &r.precision_note);
  r.fabric = training_fabric(gpu, setup);
  r.plan = plan;
  r.estimate = perf::estimate_training(r.job, plan, r.cluster, setup.framework);
  r.memory = perf::plan_memory(r.job, plan, setup.framework);
  return r;
}

// Runs for one GPU type and node size, remembered by GPU count (the purchase table asks for the
// same counts many times: systems, cloud offers and GPU rows share GPU types).
class TrainingRunCache {
 public:
  TrainingRunCache(const TransformerShape& shape, TrainingSetup setup) : shape_(shape), setup_(std::move(setup)) {}

  const TrainingRunSearch& best(const GpuSpec& gpu, int gpus, int gpus_per_node) {
    const auto key = std::make_tuple(gpu.id, gpus, std::min(gpus, gpus_per_node));
    auto it = runs_.find(key);
    if (it != runs_.end()) return it->second;
    TrainingSetup s = setup_;
    s.gpus_per_node = gpus_per_node;
    return runs_.emplace(key, best_training_run(shape_, gpu, gpus, s)).first->second;
  }

  // The plan search's best on `gpus` GPUs at a global batch of `global_batch` sequences instead of the
  // setup's (not kept: a row's alternative batch, asked once).
  TrainingRunSearch best_at_batch(const GpuSpec& gpu, int gpus, int gpus_per_node, std::int64_t global_batch) const {
    TrainingSetup s = setup_;
    s.gpus_per_node = gpus_per_node;
    s.global_batch = global_batch;
    return best_training_run(shape_, gpu, gpus, s);
  }

  // The fewest GPUs, a multiple of `unit`, on which some plan fits; absent above max_gpus.
  std::optional<int> fewest_gpus(const GpuSpec& gpu, int unit, int gpus_per_node, int max_gpus = 65536) {
    require_positive_count(unit, "unit");
    // A lower bound from the memory model alone, with everything that saves memory in the search
    // space switched on (ZeRO 3, full recomputation, micro-batch 1, sequence parallelism, and each
    // context-parallel degree the search may try), the fewest over those degrees. Where the search
    // may offload activations (perf::offloads_activations), a plan without recomputation that keeps
    // one layer's activations on the GPU can need less than full recomputation's checkpoints of every
    // layer: the bound is then the fewer of the two.
    TrainingConfig c;
    c.seq_len = setup_.seq_len;
    c.finetune = setup_.finetune;  // adapters: frozen base weights keep no gradients or optimizer states
    c.lora = setup_.lora;
    c.plan.micro_batch = 1;
    perf::apply_framework(c, setup_.framework);
    // The least a quantized linear input keeps (1 byte in FP8 whatever the recipe): a lower bound.
    perf::apply_precision(c, setup_.framework, setup_.precision, perf::Fp8Recipe::delayed);
    c.plan.recompute = Recompute::full;
    c.plan.zero_stage = ZeroStage::parameters;
    c.mtp_layers = setup_.mtp_layers;
    c.plan.sequence_parallel = true;
    // Every TP degree the search may take: up to the node (or the space's max_tp). A mixture of experts
    // also shards its experts over EP, which folds into the context- and data-parallel ranks in ways
    // the bound's solver does not take: the bound is the fewer of TP up to 8 standing in for EP and
    // each EP degree of the space with TP within the node (EP on its own GPUs, no folding). A dense
    // model on small nodes (an SoC: one) keeps the node's TP, else the bound is far too low for the
    // probes above it to reach a count that fits.
    const int max_tp = setup_.space.max_tp > 0 ? setup_.space.max_tp : shape_.moe ? std::max(8, gpus_per_node) : gpus_per_node;
    // The node size too: the EP bounds take TP within it, whatever max_tp is.
    const auto key = std::make_tuple(gpu.id, max_gpus, max_tp, gpus_per_node);
    auto lb_it = lower_bounds_.find(key);
    if (lb_it == lower_bounds_.end()) {
      const std::int64_t seq = setup_.seq_len > 0 ? setup_.seq_len : shape_.seq_len;
      std::optional<int> fewest;
      // ZeRO 3 gathers the root unit and two layers beside its shards: at small data-parallel degrees
      // that can exceed keeping the whole model without ZeRO, or with ZeRO 1 or 2 (which keep the
      // weights whole but shard the optimizer), so each is a bound and the fewest counts.
      std::vector<TrainingConfig> least{c};
      for (ZeroStage z : {ZeroStage::none, ZeroStage::optimizer, ZeroStage::gradients}) {
        TrainingConfig other = c;
        other.plan.zero_stage = z;
        least.push_back(other);
      }
      const auto& rc = setup_.space.recompute;
      if (perf::offloads_activations(setup_.space, setup_.framework, shape_.layers, gpu) &&
          std::find(rc.begin(), rc.end(), Recompute::none) != rc.end()) {
        TrainingConfig o = c;
        o.plan.recompute = Recompute::none;
        o.plan.offload_layers = static_cast<int>(shape_.layers) - 1;  // the most the search offloads
        least.push_back(o);
      }
      // (TP cap, EP) pairs: the stand-in above, and for a mixture of experts each EP degree that
      // divides the experts with TP within the node.
      std::vector<std::pair<int, int>> shardings{{max_tp, 1}};
      if (shape_.moe && setup_.space.max_tp <= 0) {
        for (int ep : setup_.space.expert_parallel)
          if (ep > 1 && shape_.moe->experts % ep == 0) shardings.emplace_back(gpus_per_node, ep);
      }
      for (TrainingConfig& l : least) {
        for (int cp : setup_.space.cp_degrees(seq, l.flash_attention, shape_)) {
          for (const auto& [tp_cap, ep] : shardings) {
            l.plan.cp = cp;
            l.plan.ep = ep;
            const auto lb = min_gpus_for_training(shape_, l, gpu.capacity(), max_gpus, tp_cap);
            if (lb && (!fewest || lb->gpus < *fewest)) fewest = lb->gpus;
          }
        }
      }
      lb_it = lower_bounds_.emplace(key, fewest).first;
    }
    if (!lb_it->second) return std::nullopt;
    int units = std::max(1, (*lb_it->second + unit - 1) / unit);
    const int max_units = max_gpus / unit;
    // The search also needs sizes that divide the model and batch, and a margin the bound does not
    // keep (a "tight" fit is refused): the next 16 counts one by one, then counts on a power-of-two
    // stride that doubles every 4 probes (up to 48: counts that factor into many plans), and from the
    // first that fits, back over the counts it stepped across, in order, since fitting is not
    // monotone in the count.
    for (int tries = 0; tries < 16 && units <= max_units; ++tries, ++units) {
      if (best(gpu, units * unit, gpus_per_node).run) return units * unit;
    }
    int late = units - 1;  // every count up to here was tried
    for (int tries = 0, stride = 2; tries < 48 && late < max_units; ++tries) {
      if (tries > 0 && tries % 4 == 0 && stride < (1 << 20)) stride *= 2;
      const int next = std::min(max_units, (late + stride) / stride * stride);
      if (best(gpu, next * unit, gpus_per_node).run) {
        for (int u = late + 1; u < next; ++u)
          if (best(gpu, u * unit, gpus_per_node).run) return u * unit;
        return next * unit;
      }
      late = next;
    }
    return std::nullopt;
  }

  // What a deadline is held against by default: the iterations' time alone.
  struct IterationTime {
    std::optional<double> operator()(int /*gpus*/, double iterations_s, Duration /*iteration*/) const { return iterations_s; }
  };

  // The fewest GPUs (a multiple of `unit`, at least `from`) that train `tokens` within `deadline`;
  // absent when even max_gpus is late. Up to one node every count of units is tried; beyond it,
  // whole nodes (a multiple of gpus_per_node when that is a multiple of the unit), as bought.
  // `wall_clock(gpus, iterations_s, iteration)` turns the iterations' time (one iteration: `iteration`)
  // into the time held against the
  // deadline (compare passes the expected wall clock with failures and checkpoints, plan/goodput.hpp);
  // absent where the run never finishes, which counts as late. It must never be shorter than the
  // iterations. Beyond one node the iterations' time falls about as 1/GPUs, so the fewest nodes whose
  // iterations alone make the deadline are found by probing and bisection; from there the wall clock
  // is followed node by node, then in doubling steps (below). Failures grow with the GPUs, so it need
  // not keep falling. Where a count factors badly for the global batch (a given --global-batch of
  // 1,024 on 240 GPUs: PP 15 x DP 16) its best plan is slow or there is none, the time is jagged, and
  // the probing can step far past the answer (1,024 sequences on H100: 65,536 GPUs where 256 finish):
  // so the answer is then checked against the node counts that factor best, 2^j and 3 x 2^j nodes
  // below it, and the fewest of those in time, if any, is returned instead.
  template <class WallClock = IterationTime>
  std::optional<int> fewest_gpus_for_deadline(const GpuSpec& gpu, double tokens, Duration deadline, int unit, int gpus_per_node, int from,
                                              int max_gpus = 65536, const WallClock& wall_clock = {}) {
    const std::optional<int> found = deadline_probe(gpu, tokens, deadline, unit, gpus_per_node, from, max_gpus, wall_clock);
    if (!found || *found <= gpus_per_node) return found;  // within one node every count was tried
    const int step = gpus_per_node > unit && gpus_per_node % unit == 0 ? gpus_per_node : unit;
    std::vector<int> round;  // node counts 2^j and 3 x 2^j, ascending, below the answer
    for (long long p = 1; p * step < *found; p *= 2) {
      round.push_back(static_cast<int>(p));
      if (3 * p * step < *found) round.push_back(static_cast<int>(3 * p));
    }
    std::sort(round.begin(), round.end());
    for (const int nodes : round) {
      const int n = nodes * step;
      if (n <= gpus_per_node || n < from) continue;
      const auto& s = best(gpu, n, gpus_per_node);
      if (!s.run) continue;
      const auto w = wall_clock(n, s.run->time_for_tokens(tokens).value(), s.run->estimate.iteration);
      if (w && *w <= deadline.value()) return n;
    }
    return found;
  }

  [[nodiscard]] const TrainingSetup& setup() const { return setup_; }

 private:
  // fewest_gpus_for_deadline's probing, bisection and wall-clock walk, before the check of round counts.
  template <class WallClock>
  std::optional<int> deadline_probe(const GpuSpec& gpu, double tokens, Duration deadline, int unit, int gpus_per_node, int from, int max_gpus,
                                    const WallClock& wall_clock) {
    require_positive(deadline.value(), "deadline");
    require_positive_count(unit, "unit");
    if (max_gpus > (1 << 20)) detail::fail("max_gpus", std::to_string(max_gpus), "is more than 1,048,576 GPUs");
    const double limit = deadline.value();
    auto iterations_at = [&](int n) -> std::optional<double> {
      const auto& s = best(gpu, n, gpus_per_node);
      if (!s.run) return std::nullopt;
      return s.run->time_for_tokens(tokens).value();
    };
    auto wall_at = [&](int n) -> std::optional<double> {
      const auto t = iterations_at(n);
      if (!t) return std::nullopt;
      return wall_clock(n, *t, best(gpu, n, gpus_per_node).run->estimate.iteration);
    };
    auto in_time = [&](int n) {
      const auto t = wall_at(n);
      return t && *t <= limit;
    };
    // The fewest node count in (late, on_time] for which `ok` holds, by bisection (`ok(on_time)` holds).
    const auto bisect = [](int late, int on_time, const auto& ok) {
      while (on_time - late > 1) {
        const int mid = late + (on_time - late) / 2;
        if (ok(mid)) on_time = mid;
        else late = mid;
      }
      return on_time;
    };
    int n = std::max(unit, (from + unit - 1) / unit * unit);
    for (; n <= std::min(gpus_per_node, max_gpus); n += unit) {
      if (in_time(n)) return n;
    }
    const int step = gpus_per_node > unit && gpus_per_node % unit == 0 ? gpus_per_node : unit;
    int lo = std::max(1, (n - 1) / step);  // lo * step: known late (or below the start)
    const int max_k = max_gpus / step;
    if (lo + 1 > max_k) return std::nullopt;
    // 1. The fewest nodes whose iterations alone are in time.
    int k = lo + 1;
    auto t = iterations_at(k * step);
    int hi = 0;
    for (int i = 0; i < 40; ++i) {
      if (t && *t <= limit) {
        hi = k;
        break;
      }
      if (k >= max_k) break;
      lo = k;
      // Time falls about as 1/GPUs: jump to the count that would just make it, then 25% more.
      const double ratio = t ? *t / limit : 2.0;
      const double next = std::ceil(static_cast<double>(k) * std::max(ratio, 1.0) * (i == 0 ? 1.0 : 1.25));
      k = static_cast<int>(std::min<double>(max_k, std::max<double>(k + 1, next)));
      t = iterations_at(k * step);
    }
    if (!hi) return std::nullopt;
    const int first = bisect(lo, hi, [&](int nodes) {
      const auto tm = iterations_at(nodes * step);
      return tm && *tm <= limit;
    });
    // 2. From there, the wall clock.
    auto wall = [&](int nodes) {
      const auto w = wall_at(nodes * step);
      return w ? *w : INFINITY;
    };
    const auto wall_in_time = [&](int nodes) { return wall(nodes) <= limit; };
    double w_prev = wall(first);
    if (w_prev <= limit) return first * step;
    // Nodes one at a time, then in doubling steps. The best plan changes shape from one count to the
    // next, so the wall clock is jagged: the search gives up only after four probes in a row above
    // the lowest seen, the last a quarter more nodes away or more (failures then outgrow what more
    // GPUs save), or at max_gpus, and first tries
    // every count near the lowest probe, which the doubling may have stepped over.
    int late = first, lowest_k = first, above = 0;
    double lowest = w_prev;
    for (int stride = 1; late < max_k; stride *= 2) {
      // A probe on a multiple of the stride (a power of two): counts that factor into many plans,
      // where an odd count may leave the search a poor one.
      const int next = std::min(max_k, std::max(late + 1, (late + stride) / stride * stride));
      const double w = wall(next);
      if (w <= limit) return bisect(late, next, wall_in_time) * step;
      if (w < lowest) {
        lowest = w;
        lowest_k = next;
        above = 0;
      } else if (++above >= 4 && stride >= std::max(16, late / 4)) {
        break;
      }
      late = next;
    }
    if (!(lowest <= 1.2 * limit)) return std::nullopt;  // far from the deadline at its best: no scan
    for (int nodes = std::max(first + 1, lowest_k - 16); nodes <= std::min(max_k, lowest_k + 16); ++nodes)
      if (wall(nodes) <= limit) return nodes * step;
    return std::nullopt;
  }

  TransformerShape shape_;
  TrainingSetup setup_;
  std::map<std::tuple<std::string, int, int>, TrainingRunSearch> runs_;
  std::map<std::tuple<std::string, int, int, int>, std::optional<int>> lower_bounds_;  // per (GPU id, max_gpus, max TP, node size)
};

}  // namespace capplan
