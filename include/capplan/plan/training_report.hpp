// One training run reported whole: the run (plan, estimate, memory; plan/training_run.hpp) for a
// number of tokens, with its fit, time, GPU-hours and FLOPs, the whole run's goodput
// (plan/goodput.hpp), the links each parallel group uses, and what it draws, emits and costs
// (plan/run_footprint.hpp). `capplan train` prints it; report/run_output.hpp's training_output is
// its JSON, and Python's TrainingReport.output() the same as a dict.
//
//   const TrainingRunSearch s = best_training_run(shape, gpu, 8, setup);
//   TrainingReport r = training_report(catalog, "llama2-7b", gpu, 1e9, *s.run, true, setup);
//   r.time;  r.goodput.expected_wall_clock;  r.footprint.kwh;  training_output(r, notes);
#pragma once

#include "capplan/error.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/memory/budget.hpp"
#include "capplan/memory/image_model.hpp"
#include "capplan/perf/image_model.hpp"
#include "capplan/perf/data_loading.hpp"
#include "capplan/perf/training_estimator.hpp"
#include "capplan/plan/goodput.hpp"
#include "capplan/plan/run_footprint.hpp"
#include "capplan/plan/training_run.hpp"
#include "capplan/workload/params.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace capplan {

struct TrainingReport {
  std::string model;           // the model as the user named it (a preset id or a file)
  std::string gpu;             // the GPU's catalog id
  double tokens = 0;
  bool searched = false;       // the plan came from the plan search (else it was given)
  bool flash_attention = true; // the framework's fused attention (TrainingSetup::framework)
  bool fabric_assumed = true;  // the fabric between nodes is the GPU's usual one, not set up
  TrainingRun run;             // job, cluster, fabric, plan, estimate, memory per GPU
  FitResult fit;               // the memory against the GPU's capacity
  Duration time{};             // the iterations for `tokens`
  double gpu_hours = 0;        // iterations only
  double flops_total = 0;      // model FLOPs, all GPUs
  GoodputEstimate goodput;     // failures, restarts, lost work and checkpoints on top
  perf::PlanLinks links;       // the link each parallel group crosses
  RunFootprint footprint;      // IT power, energy, carbon, price and cost of the expected wall clock
  [[nodiscard]] int gpus() const { return run.gpus(); }
};

// `run` (searched or given, under `setup`) for `tokens` tokens; the fit against g's capacity, the
// whole run under `goodput`, the footprint under `footprint` (prices from `catalog`). A
// fine-tuning checkpoint holds the adapters (and their optimizer states) only.
inline TrainingReport training_report(const Catalog& catalog, std::string model, const GpuSpec& g, double tokens, TrainingRun run, bool searched,
                                      const TrainingSetup& setup, const GoodputConfig& goodput = {}, const FootprintOptions& footprint = {}) {
  require_finite(tokens, "tokens");
  require_positive(tokens, "tokens");
  TrainingReport r;
  r.model = std::move(model);
  r.gpu = g.id;
  r.tokens = tokens;
  r.searched = searched;
  r.flash_attention = setup.framework.flash_attention;
  r.fabric_assumed = !setup.fabric;
  r.run = std::move(run);
  const perf::TrainingEstimate& est = r.run.estimate;
  const int gpus = r.run.gpus();
  r.fit = check_fit(r.run.memory, g.capacity());
  r.time = est.time_for_tokens(tokens);
  r.gpu_hours = est.gpu_hours_for_tokens(tokens);
  r.flops_total = est.model_rate_per_gpu.value() * gpus * r.time.value();
  const TransformerShape& shape = r.run.job.model;
  const std::int64_t saved = r.run.job.finetune == FineTune::full ? static_cast<std::int64_t>(parameter_count(shape))
                                                                 : static_cast<std::int64_t>(lora_parameter_count(shape, r.run.job.lora));
  r.goodput = estimate_goodput(r.time, gpus, checkpoint_size(saved), goodput, est.iteration);
  r.links = perf::plan_links(r.run.cluster, r.run.plan);
  // Power drawn and rent paid over the whole run's expected wall clock (redone work, checkpoints and
  // restarts included), as compare bills its training rows.
  FootprintOptions fo = footprint;
  fo.host = for_pcie_host(fo.host, r.run.cluster.pcie_host);  // the server host the run was timed on
  fo.network = network_timed(r.run.cluster);                  // rented where instances carry it as fast
  r.footprint = run_footprint(catalog, g, gpus, r.goodput.expected_wall_clock, r.goodput.expected_gpu_hours, fo, r.run.cluster.gpus_per_node);
  return r;
}

// An image model trained data parallel on `images` images (epochs x the dataset).
struct ImageTrainingReport {
  std::string model;  // the model as the user named it
  std::string gpu;    // the GPU's catalog id
  int gpus = 1;
  double images = 0;
  std::int64_t batch_per_gpu = 256;
  Precision precision = Precision::fp16;  // the precision it is timed at
  perf::DataPipeline host;                // what feeds the GPUs
  perf::ImageTrainingEstimate estimate;     // iteration, images/s, the data pipeline's limit
  MemoryBudget memory;                    // per GPU (memory/image_model.hpp), AMP's fp32 states
  FitResult fit;                          // against the GPU's capacity
  std::int64_t max_batch_per_gpu = 0;     // the largest batch that fits (0: not one image)
  Duration time{};         // the iterations for `images`
  double gpu_hours = 0;    // iterations only
  double flops_total = 0;  // forward + backward, all images
  GoodputEstimate goodput; // failures, restarts, lost work and checkpoints on top
  RunFootprint footprint;  // IT power, energy, carbon, price and cost of the expected wall clock
};

// `net` on `cluster` at `batch_per_gpu` images per GPU in precision `p`, fed by `host`, for `images`
// images (perf::estimate_image_training, gradients all-reduced under the backward pass); the whole run
// under `goodput` (checkpoints of the fp32 weights and the SGD momentum, sgd_checkpoint_bytes_per_param),
// the footprint over its expected wall clock, as training_report bills a transformer's run.
inline ImageTrainingReport image_training_report(const Catalog& catalog, std::string model, const ImageModel& net, const perf::Cluster& cluster,
                                             std::int64_t batch_per_gpu, Precision p, const perf::DataPipeline& host, double images,
                                             const GoodputConfig& goodput = {}, const FootprintOptions& footprint = {}) {
  require_finite(images, "images");
  require_positive(images, "images");
  // A run is whole iterations: fewer images than one global batch would time a fraction of one.
  if (const double per_iteration = static_cast<double>(batch_per_gpu) * cluster.gpus; images < per_iteration)
    capplan::detail::fail("images", capplan::detail::format_double(images),
                          "is less than one iteration (" + std::to_string(cluster.gpus) + " GPUs x " + std::to_string(batch_per_gpu) + " images)");
  ImageTrainingReport r;
  r.model = std::move(model);
  r.gpu = cluster.gpu.id;
  r.gpus = cluster.gpus;
  r.images = images;
  r.batch_per_gpu = batch_per_gpu;
  r.precision = p;
  r.host = host;
  r.estimate = perf::estimate_image_training(net, batch_per_gpu, cluster, p, {}, true, host);
  // Memory at the batch: AMP (fp16 or bf16) or fp32, as capplan memory sizes it (another precision is an InputError).
  r.memory = image_training_memory(net, batch_per_gpu, p);
  r.fit = check_fit(r.memory, cluster.gpu.capacity());
  r.max_batch_per_gpu = image_max_batch(net, cluster.gpu.capacity(), p);
  r.time = r.estimate.time_for_images(images);
  r.gpu_hours = r.time.value() * r.gpus / 3600.0;
  r.flops_total = r.estimate.flops_per_image.value() * images;
  r.goodput = estimate_goodput(r.time, r.gpus, image_checkpoint_size(net), goodput, r.estimate.iteration);
  FootprintOptions fo = footprint;
  fo.host = for_pcie_host(fo.host, cluster.pcie_host);  // the server host the run was timed on
  fo.network = network_timed(cluster);                  // rented where instances carry it as fast
  r.footprint = run_footprint(catalog, cluster.gpu, r.gpus, r.goodput.expected_wall_clock, r.goodput.expected_gpu_hours, fo,
                              cluster.gpus_per_node);
  return r;
}

}  // namespace capplan
