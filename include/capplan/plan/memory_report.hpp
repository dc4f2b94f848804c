// "Will it fit?" answered whole, as `capplan memory` reports it: the per-GPU budget of a training
// plan or a serving layout (memory/budget.hpp), its fit against the GPU's capacity, and what the
// solvers say fits instead (memory/solvers.hpp): the largest micro-batch, context or batch, and the
// fewest GPUs. report/memory_output.hpp's training_memory_output / serving_memory_output are their
// JSON, and Python's TrainingMemoryReport.output() / ServingMemoryReport.output() the same dicts.
//
//   TrainingMemoryReport r = training_memory_report("llama2-7b", shape, gpu, config);
//   r.fit.fits;  r.max_micro_batch;  r.fewest->gpus;
#pragma once

#include "capplan/hardware/gpu.hpp"
#include "capplan/hardware/precision.hpp"
#include "capplan/memory/budget.hpp"
#include "capplan/memory/solvers.hpp"
#include "capplan/perf/communication.hpp"
#include "capplan/workload/params.hpp"
#include "capplan/workload/transformer.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace capplan {

struct TrainingMemoryReport {
  std::string model;        // the model as the user named it
  std::string gpu;          // the GPU's catalog id
  double parameters = 0;
  int layers = 0;           // the model's layers (the pipeline stages' split)
  TrainingConfig config;
  Precision precision = Precision::bf16;  // as asked (the budget's bytes follow config.mixed_precision)
  std::int64_t seq_len = 0; // tokens per sequence (the config's, else the model's)
  MemoryBudget budget;      // per GPU, the stage that needs the most
  FitResult fit;
  std::int64_t max_micro_batch = 0;    // with this plan; 0: not one sequence fits
  std::optional<GpuPlan> fewest;       // the fewest GPUs with this ZeRO stage and micro-batch
};

// Budget, fit and the solvers' answers for `config` on `gpu` (its capacity as software sees it).
inline TrainingMemoryReport training_memory_report(std::string model, const TransformerShape& shape, const GpuSpec& gpu,
                                                   const TrainingConfig& config, Precision precision = Precision::bf16) {
  TrainingMemoryReport r;
  r.model = std::move(model);
  r.gpu = gpu.id;
  r.parameters = static_cast<double>(parameter_count(shape));
  r.layers = shape.layers;
  r.config = config;
  r.precision = precision;
  r.seq_len = config.seq_len ? config.seq_len : shape.seq_len;
  r.budget = training_budget(shape, config);
  r.fit = check_fit(r.budget, gpu.capacity());
  r.max_micro_batch = max_micro_batch(shape, config, gpu.capacity(), 4096);
  // A system-on-chip has no link to a second one: no tensor parallelism across boxes.
  r.fewest = min_gpus_for_training(shape, config, gpu.capacity(), 65536, perf::linkless(gpu) ? 1 : 8);
  return r;
}

struct ServingMemoryReport {
  std::string model;
  std::string gpu;
  double parameters = 0;
  InferenceConfig config;
  std::int64_t context = 0;         // tokens per sequence (the config's, else the model's)
  MemoryBudget budget;              // per GPU
  FitResult fit;
  std::int64_t max_context = 0;     // tokens per sequence at this batch; 0: the weights alone do not fit
  std::int64_t max_batch = 0;       // sequences of `context` tokens at once
  std::optional<GpuPlan> fewest;    // the fewest GPUs (TP, then PP) for this load
  [[nodiscard]] int gpus() const { return config.tensor_parallel * config.pipeline_parallel; }
};

inline ServingMemoryReport serving_memory_report(std::string model, const TransformerShape& shape, const GpuSpec& gpu, const InferenceConfig& config) {
  ServingMemoryReport r;
  r.model = std::move(model);
  r.gpu = gpu.id;
  r.parameters = static_cast<double>(parameter_count(shape));
  r.config = config;
  r.context = config.context ? config.context : shape.seq_len;
  r.budget = inference_budget(shape, config);
  r.fit = check_fit(r.budget, gpu.capacity());
  r.max_context = max_context(shape, config, gpu.capacity(), std::max<std::int64_t>(r.context, shape.seq_len));
  r.max_batch = max_concurrent_sequences(shape, config, gpu.capacity(), 1 << 20);
  r.fewest = min_gpus_for_serving(shape, config, gpu.capacity(), perf::linkless(gpu) ? 1 : 1024);  // an SoC serves alone
  return r;
}

}  // namespace capplan
