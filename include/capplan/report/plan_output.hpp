// A parallel plan for programs: the keys every JSON object that holds a transformer's training plan
// writes the same way (capplan train, memory and compare; Python's output() of their reports), so a
// plan read from one command reads the same from another.
//
//   Value p = Value::Object{};
//   plan_output(p, plan, 80);  // {"tp": 8, "pp": 4, ..., "offload_layers": 0}
#pragma once

#include "capplan/report/value.hpp"
#include "capplan/workload/parallel_plan.hpp"

#include <cstdint>
#include <string>

namespace capplan {

// Appends to `p`: tp, pp, dp, cp, cp_comm, ep, etp (the degree the experts split over: tp where the
// plan keeps them coupled), micro_batch, zero, recompute, recompute_modules (what selective
// recomputation reruns, or full's "all"), sequence_parallel, interleave, first_stage_layers and
// last_stage_layers (of a model of `layers` layers), chunk_layers, first_chunk_layers,
// last_chunk_layers (a pipeline layout's chunks; 0: even) and offload_layers.
inline void plan_output(Value& p, const ParallelPlan& plan, std::int64_t layers) {
  p["tp"] = plan.tp;
  p["pp"] = plan.pp;
  p["dp"] = plan.dp;
  p["cp"] = plan.cp;
  p["cp_comm"] = std::string(name(plan.cp_comm));
  p["ep"] = plan.ep;
  p["etp"] = expert_tensor_parallel(plan);
  p["micro_batch"] = plan.micro_batch;
  p["zero"] = static_cast<int>(plan.zero_stage);
  p["recompute"] = std::string(name(plan.recompute));
  p["recompute_modules"] = recompute_modules_text(recomputed_modules(plan.recompute, plan.recompute_modules));
  p["sequence_parallel"] = plan.sequence_parallel;
  p["interleave"] = plan.interleave;
  p["first_stage_layers"] = stage_layers(static_cast<int>(layers), plan, 0);
  p["last_stage_layers"] = stage_layers(static_cast<int>(layers), plan, plan.pp - 1);
  p["chunk_layers"] = plan.chunk_layers;
  p["first_chunk_layers"] = plan.first_chunk_layers;
  p["last_chunk_layers"] = plan.last_chunk_layers;
  p["offload_layers"] = plan.offload_layers;
}

}  // namespace capplan
