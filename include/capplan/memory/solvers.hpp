// Will it fit? The largest micro-batch, context or number of sequences that fits, and the fewest
// GPUs of a given memory size for training or serving. The GPU memory is a parameter (a DataSize),
// so these do not depend on the hardware catalog:
//
//   check_fit(training_budget(shape, cfg), 80_GB).headroom
//   max_micro_batch(shape, cfg, 80_GB)          largest micro-batch (0: not even 1 fits)
//   max_concurrent_sequences(shape, inf, 24_GB)  sequences of inf.context tokens
//   min_gpus_for_training(shape, cfg, 80_GB)     searches tensor x pipeline x data (ZeRO) layouts
//
// Every budget is monotonic in the searched quantity, so the searches are binary searches.
#pragma once

#include "capplan/error.hpp"
#include "capplan/memory/budget.hpp"
#include "capplan/units/quantity.hpp"
#include "capplan/workload/transformer.hpp"

#include <cstdint>
#include <functional>
#include <optional>

namespace capplan {

struct FitResult {
  bool fits = false;
  DataSize required = DataSize::from_value(0);
  DataSize available = DataSize::from_value(0);
  DataSize headroom = DataSize::from_value(0);  // available - required; negative: the shortfall
  double utilization = 0;                       // required / available
  // Fits, but with less headroom than the allocator may lose beyond the reserve
  // (MemoryBudget::tight_margin, RuntimeReserve::fragmentation_tight): it may run out of memory.
  bool tight = false;
};

inline FitResult check_fit(const MemoryBudget& budget, DataSize gpu_memory) {
  require_positive(gpu_memory.value(), "gpu_memory");
  FitResult r;
  r.required = budget.total();
  r.available = gpu_memory;
  r.headroom = gpu_memory - r.required;
  r.fits = r.required <= gpu_memory;
  r.utilization = r.required.value() / gpu_memory.value();
  r.tight = r.fits && r.headroom < budget.tight_margin;
  return r;
}

namespace detail {

// Largest v in [lo, hi] with fits(v), given fits is monotone (true then false); lo - 1 if none.
inline std::int64_t largest(std::int64_t lo, std::int64_t hi, const std::function<bool(std::int64_t)>& fits) {
  if (!fits(lo)) return lo - 1;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// Smallest v in [lo, hi] with fits(v), given fits is monotone (false then true); nullopt if none.
inline std::optional<std::int64_t> smallest(std::int64_t lo, std::int64_t hi,
                                            const std::function<bool(std::int64_t)>& fits) {
  if (!fits(hi)) return std::nullopt;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (fits(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

}  // namespace detail

// The largest micro-batch that fits (0 if even one sequence does not), up to `limit`.
inline std::int64_t max_micro_batch(const TransformerShape& shape, TrainingConfig cfg, DataSize gpu_memory,
                                    std::int64_t limit = 1 << 20) {
  require_positive(gpu_memory.value(), "gpu_memory");
  require_positive_count(limit, "limit");
  // The parameter breakdown once, and no detail text: only the totals are compared.
  const auto sizes = parameter_sizes(shape);
  return detail::largest(1, limit, [&](std::int64_t b) {
    cfg.plan.micro_batch = b;
    return training_budget(shape, cfg, sizes, false).total() <= gpu_memory;
  });
}

// The largest context (tokens per sequence) that fits for cfg.sequences sequences, up to `limit`
// (0, the default: the model's seq_len; a negative limit is an error); 0 if not even one token fits.
inline std::int64_t max_context(const TransformerShape& shape, InferenceConfig cfg, DataSize gpu_memory,
                                std::int64_t limit = 0) {
  require_positive(gpu_memory.value(), "gpu_memory");
  shape.validate();
  if (limit < 0) detail::fail("limit", std::to_string(limit), "is negative (0: the model's context length)");
  if (limit == 0) limit = shape.seq_len;
  return detail::largest(1, limit, [&](std::int64_t c) {
    cfg.context = c;
    return inference_budget(shape, cfg).total() <= gpu_memory;
  });
}

// The most sequences of cfg.context tokens served at once (0 if not even one fits).
inline std::int64_t max_concurrent_sequences(const TransformerShape& shape, InferenceConfig cfg, DataSize gpu_memory,
                                             std::int64_t limit = 1 << 24) {
  require_positive(gpu_memory.value(), "gpu_memory");
  require_positive_count(limit, "limit");
  return detail::largest(1, limit, [&](std::int64_t n) {
    cfg.sequences = n;
    return inference_budget(shape, cfg).total() <= gpu_memory;
  });
}

// A layout of GPUs that fits, and its budget on the busiest GPU.
struct GpuPlan {
  int gpus = 0;
  int data = 1;
  int tensor = 1;
  int pipeline = 1;
  int context = 1;  // context-parallel degree (training: cfg.plan.cp, kept as given)
  MemoryBudget budget;
};

// Fewest GPUs of `gpu_memory` each for training: tensor parallel of every degree up to `max_tp` that
// divides the heads (8 by default: an HGX node; 72 in a GB200 NVL72 rack's NVLink domain), any pipeline
// depth up to the layer count, and the fewest data-parallel GPUs
// that fit with cfg's ZeRO stage (without ZeRO, adding data-parallel GPUs saves no memory).
// cfg.plan.dp, .tp and .pp are ignored, and so are its stage layout and interleaving (each depth
// gets the automatic layout of workload/parallel_plan.hpp); its context-parallel degree is kept, each
// plan then has t x cp x p x dp GPUs; ties go to less model parallelism. Its activation offloading
// is kept without pipeline stages and dropped with them (workload/parallel_plan.hpp validate_offload).
inline std::optional<GpuPlan> min_gpus_for_training(const TransformerShape& shape, TrainingConfig cfg,
                                                    DataSize gpu_memory, int max_gpus = 65536, int max_tp = 8) {
  require_positive(gpu_memory.value(), "gpu_memory");
  require_positive_count(max_gpus, "max_gpus");
  require_positive_count(max_tp, "max_tp");
  shape.validate();
  cfg.plan.first_stage_layers = 0;
  cfg.plan.last_stage_layers = 0;
  cfg.plan.interleave = 1;
  cfg.plan.chunk_layers = 0;  // a pipeline layout's chunks belong to its own pp
  cfg.plan.last_chunk_layers = 0;
  cfg.plan.first_chunk_layers = 0;
  std::optional<GpuPlan> best;
  // The parameter breakdown once, and no detail text while searching: only the totals are compared
  // (the chosen plan's budget, below, keeps its text).
  const auto sizes = parameter_sizes(shape);
  const int e = cfg.plan.ep;
  const int cp = require_positive_count(cfg.plan.cp, "cp");
  for (int t = 1; t <= max_tp; ++t) {
    if (shape.heads % t != 0) continue;
    for (int p = 1; p <= shape.layers && static_cast<long long>(t) * cp * p * e <= max_gpus; ++p) {
      if (best && t * cp * p * e > best->gpus) break;
      auto fits = [&](std::int64_t k) {
        TrainingConfig c = cfg;
        c.plan.tp = t;
        c.plan.pp = p;
        if (p > 1) c.plan.offload_layers = 0;  // activation offloading runs without pipeline stages only
        c.plan.dp = static_cast<int>(k) * e;
        return training_budget(shape, c, sizes, false).total() <= gpu_memory;
      };
      const std::int64_t max_k = cfg.plan.zero_stage == ZeroStage::none ? 1 : max_gpus / (t * cp * p * e);
      if (max_k < 1) continue;
      const auto k = detail::smallest(1, max_k, fits);
      if (!k) continue;
      const int gpus = t * cp * p * static_cast<int>(*k) * e;
      if (!best || gpus < best->gpus) {
        GpuPlan plan;
        plan.gpus = gpus;
        plan.tensor = t;
        plan.context = cp;
        plan.pipeline = p;
        plan.data = static_cast<int>(*k) * e;
        TrainingConfig c = cfg;
        c.plan.tp = t;
        c.plan.pp = p;
        if (p > 1) c.plan.offload_layers = 0;
        c.plan.dp = plan.data;
        plan.budget = training_budget(shape, c);
        best = plan;
      }
    }
  }
  return best;
}

// Fewest GPUs of `gpu_memory` each to serve cfg.sequences sequences of cfg.context tokens:
// tensor parallel in {1, 2, 4, 8} (dividing heads) times pipeline stages, smallest product first,
// less pipeline first on ties. cfg's tensor and pipeline degrees are ignored. With
// cfg.expert_parallel = e > 1 the group is repeated e times with the routed experts split across
// the copies, so the plan has t x p x e GPUs (GpuPlan::data = e). `max_tp`: the most GPUs a TP group
// may take, those of one node (a 1-GPU cloud instance: 1, so its replicas are pipelines across
// instances).
inline std::optional<GpuPlan> min_gpus_for_serving(const TransformerShape& shape, InferenceConfig cfg,
                                                   DataSize gpu_memory, int max_gpus = 1024, int max_tp = 8) {
  require_positive(gpu_memory.value(), "gpu_memory");
  require_positive_count(max_gpus, "max_gpus");
  require_positive_count(max_tp, "max_tp");
  shape.validate();
  for (int n = 1; n <= max_gpus; ++n) {
    for (int t : {8, 4, 2, 1}) {
      if (t > max_tp || n % t != 0 || shape.heads % t != 0) continue;
      const int p = n / t;
      if (p > shape.layers) continue;
      cfg.tensor_parallel = t;
      cfg.pipeline_parallel = p;
      const MemoryBudget b = inference_budget(shape, cfg);
      if (b.total() <= gpu_memory) return GpuPlan{n * cfg.expert_parallel, cfg.expert_parallel, t, p, 1, b};
    }
  }
  return std::nullopt;
}

}  // namespace capplan
