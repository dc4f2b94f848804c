// A per-GPU memory budget and its fit for programs: the keys `capplan memory --format json` prints
// for both training and serving, and what Python's memory_output(budget, fit) returns. Bytes as
// numbers (decimal bytes, as the budget holds them).
#pragma once

#include "capplan/memory/budget.hpp"
#include "capplan/memory/solvers.hpp"
#include "capplan/report/value.hpp"

namespace capplan {

// The breakdown by item: weights_bytes, gradients_bytes, optimizer_states_bytes, activations_bytes,
// kv_cache_bytes, runtime_reserve_bytes.
inline Value memory_breakdown_output(const MemoryBudget& b) {
  Value j;
  j["weights_bytes"] = b.weights.size.value();
  j["gradients_bytes"] = b.gradients.size.value();
  j["optimizer_states_bytes"] = b.optimizer_states.size.value();
  j["activations_bytes"] = b.activations.size.value();
  j["kv_cache_bytes"] = b.kv_cache.size.value();
  j["runtime_reserve_bytes"] = b.runtime_reserve.size.value();
  return j;
}

// memory_per_gpu_bytes, breakdown, gpu_memory_bytes, fits, tight, headroom_bytes (negative: the
// shortfall), utilization.
inline Value memory_fit_output(const MemoryBudget& b, const FitResult& fit) {
  Value j;
  j["memory_per_gpu_bytes"] = b.total().value();
  j["breakdown"] = memory_breakdown_output(b);
  j["gpu_memory_bytes"] = fit.available.value();
  j["fits"] = fit.fits;
  j["tight"] = fit.tight;
  j["headroom_bytes"] = fit.headroom.value();
  j["utilization"] = fit.utilization;
  return j;
}

}  // namespace capplan
