// A per-GPU memory budget and its fit for programs: the keys `capplan memory --format json` prints
// for both training and serving, and what Python's memory_output(budget, fit) returns; and the whole
// `capplan memory` object of a training plan or a serving layout (plan/memory_report.hpp), which
// Python's TrainingMemoryReport.output() / ServingMemoryReport.output() return. Bytes as numbers
// (decimal bytes, as the budget holds them).
#pragma once

#include "capplan/memory/budget.hpp"
#include "capplan/memory/solvers.hpp"
#include "capplan/plan/memory_report.hpp"
#include "capplan/report/plan_output.hpp"
#include "capplan/report/value.hpp"
#include "capplan/workload/parallel_plan.hpp"

#include <optional>
#include <string>
#include <vector>

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

namespace detail {

// The members of `from` (an object) appended to `j` in order.
inline void append_members(Value& j, const Value& from) {
  for (const auto& [key, value] : std::get<Value::Object>(from.data())) j[key] = value;
}

// The fewest GPUs a solver found, null when none: gpus, tp, (training: cp,) pp, (training: dp,)
// memory_per_gpu_bytes.
inline Value fewest_gpus_output(const std::optional<GpuPlan>& p, bool training) {
  if (!p) return Value();
  Value f;
  f["gpus"] = p->gpus;
  f["tp"] = p->tensor;
  if (training) f["cp"] = p->context;
  f["pp"] = p->pipeline;
  if (training) f["dp"] = p->data;
  f["memory_per_gpu_bytes"] = p->budget.total().value();
  return f;
}

}  // namespace detail

// model, gpu, mode ("train"), parameters, plan (as configured, with the stages' layers and
// fine-tuning), pipeline_stage (the one shown, from 1), the budget and fit (memory_fit_output),
// max_micro_batch, min_gpus (null when no layout fits), would_fit and assumptions.
inline Value training_memory_output(const TrainingMemoryReport& r, const std::vector<std::string>& would_fit = {},
                                    const std::vector<std::string>& assumptions = {}) {
  const TrainingConfig& c = r.config;
  const ParallelPlan& p = c.plan;
  Value j;
  j["model"] = r.model;
  j["gpu"] = r.gpu;
  j["mode"] = "train";
  j["parameters"] = r.parameters;
  Value& plan = j["plan"];
  plan["gpus"] = p.gpus();
  plan_output(plan, p, r.layers);
  plan["seq_len"] = r.seq_len;
  plan["flash_attention"] = c.flash_attention;
  plan["precision"] = std::string(name(r.precision));
  plan["optimizer"] = std::string(name(c.optimizer));
  plan["mtp_layers"] = c.mtp_layers;
  plan["finetune"] = std::string(name(c.finetune));
  plan["lora_rank"] = c.finetune == FineTune::full ? Value() : Value(c.lora.rank);
  plan["lora_mlp"] = c.finetune != FineTune::full && c.lora.mlp;
  j["pipeline_stage"] = r.budget.pipeline_stage + 1;
  detail::append_members(j, memory_fit_output(r.budget, r.fit));
  j["max_micro_batch"] = r.max_micro_batch;
  j["min_gpus"] = detail::fewest_gpus_output(r.fewest, true);
  j["would_fit"] = Value::strings(would_fit);
  j["assumptions"] = Value::strings(assumptions);
  return j;
}

// model, gpu, mode ("serve"), parameters, plan (GPUs, TP, PP, formats, batch, context), the budget and
// fit, max_context, max_batch, min_gpus (null when none fits) and assumptions.
inline Value serving_memory_output(const ServingMemoryReport& r, const std::vector<std::string>& assumptions = {}) {
  const InferenceConfig& c = r.config;
  Value j;
  j["model"] = r.model;
  j["gpu"] = r.gpu;
  j["mode"] = "serve";
  j["parameters"] = r.parameters;
  Value& plan = j["plan"];
  plan["gpus"] = r.gpus();
  plan["tp"] = c.tensor_parallel;
  plan["pp"] = c.pipeline_parallel;
  plan["weights"] = std::string(c.weights.name);
  plan["kv_cache"] = std::string(c.kv_cache.name);
  plan["batch"] = c.sequences;
  plan["context"] = r.context;
  if (c.expert_weights) plan["expert_weights"] = std::string(c.expert_weights->name);
  detail::append_members(j, memory_fit_output(r.budget, r.fit));
  j["max_context"] = r.max_context;
  j["max_batch"] = r.max_batch;
  j["min_gpus"] = detail::fewest_gpus_output(r.fewest, false);
  j["assumptions"] = Value::strings(assumptions);
  return j;
}

}  // namespace capplan
