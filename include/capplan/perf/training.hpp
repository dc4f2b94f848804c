// Training time of a transformer under a parallel plan (tensor x pipeline x data parallel, ZeRO,
// recomputation, sequence parallelism, interleaved pipeline).
//
//   iteration = (m + (p - 1)/v) x t_stage          1F1B pipeline, bubble (p-1)/(v m) of the ideal time
//                                                   (Narayanan et al. 2021, §2.2.1 and §2.2.2)
//             + exposed data-parallel / ZeRO communication + optimizer step
//   t_stage   = layers/p x (forward + backward + recomputation + tensor-parallel all-reduces)
//             + output layer (last stage) + pipeline point-to-point
// Each kernel's time comes from efficiency.hpp; each collective's from communication.hpp.
// tokens/s = global batch x sequence / iteration; MFU = model FLOPs / (time x GPUs x peak) and HFU
// counts recomputation too (Korthikanti et al. 2022, §6.3; Chowdhery et al. 2022, App. B).
#pragma once

#include "capplan/perf/framework.hpp"
#include "capplan/perf/training_estimator.hpp"
#include "capplan/perf/training_explain.hpp"

namespace capplan::perf {

// The estimate's fields from its numbers.
inline TrainingEstimate estimate_from(const detail::Numbers& n, const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                                      const DeviceRates& rates) {
  const double peak = rates.peak;
  TrainingEstimate est;
  est.plan = plan;
  est.micro_batches = n.m;
  est.iteration = from_canonical<Duration>(n.iteration);
  est.tokens_per_second = n.tokens / n.iteration;
  est.samples_per_second = static_cast<double>(job.global_batch) / n.iteration;
  est.bubble_fraction = job.measured_mfu ? 0.0 : n.bubble / n.iteration;
  est.model_flops = from_canonical<FlopCount>(n.model_flops);
  est.hardware_flops = from_canonical<FlopCount>(n.hw_flops);
  est.model_rate_per_gpu = from_canonical<FlopRate>(n.model_flops / n.iteration / cluster.gpus);
  est.hardware_rate_per_gpu = from_canonical<FlopRate>(n.hw_flops / n.iteration / cluster.gpus);
  est.mfu = n.model_flops / (n.iteration * cluster.gpus * peak);
  est.hfu = n.hw_flops / (n.iteration * cluster.gpus * peak);
  return est;
}

// The estimate itself; `rates` are device_rates(cluster.gpu, job.precision, model), computed once by
// callers that evaluate many plans. `with_text` = false skips the breakdown (nothing else changes:
// every number is the same); `precomputed` layer costs are those of layer_costs(...) for this plan,
// `flops` detail::job_flops(job, seq) for this job.
inline TrainingEstimate estimate_training(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                                          const Framework& fw, const DeviceRates& rates, bool with_text = true,
                                          const detail::LayerCosts* precomputed = nullptr, const detail::JobFlops* flops = nullptr) {
  using namespace detail;
  validate_plan(job, plan, cluster);
  fw.validate();
  const LayerCosts costs =
      precomputed ? *precomputed : layer_costs(job, plan.tp, plan.micro_batch, plan.sequence_parallel, fw, rates, plan.ep, plan.cp, plan.etp);
  const Numbers n = training_numbers(job, plan, cluster, fw, rates, costs, flops);
  TrainingEstimate est = estimate_from(n, job, plan, cluster, rates);
  if (with_text) fill_breakdown(est.breakdown, n, job, plan, cluster, fw, rates, costs);
  return est;
}

// With its breakdown (explained path).
inline TrainingEstimate estimate_training(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                                          const Framework& fw = {}, const EfficiencyModel& model = {}) {
  return estimate_training(job, plan, cluster, fw, device_rates(cluster.gpu, job.precision, model));
}

// The numbers only, no breakdown (fast path): the same values as estimate_training(...) without text.
inline TrainingEstimate estimate_training_numbers(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                                                  const Framework& fw = {}, const EfficiencyModel& model = {}) {
  return estimate_training(job, plan, cluster, fw, device_rates(cluster.gpu, job.precision, model), false);
}

// Plan-independent inputs of a job on a cluster, worked out once: the exact parameter and FLOP counts
// (integer arithmetic in workload/params.hpp and compute/flops.hpp) and the GPU's rates cost more than
// a plan's whole time estimate and are the same for every plan. estimate_training(prepared, plan)
// then gives the same numbers as estimate_training(job, plan, cluster, framework, model).
struct PreparedTraining {
  TrainingJob job;  // parameters (and MoE expert_parameters) filled in
  Cluster cluster;
  Framework framework;
  DeviceRates rates;
  ParamSizes params;                          // parameter_sizes(job.model), for the memory budget
  std::optional<detail::JobFlops> flops;      // per iteration, when job.model_flops_per_token is not given
};

inline PreparedTraining prepare_training(const TrainingJob& job, const Cluster& cluster, const Framework& fw = {},
                                         const EfficiencyModel& model = {}) {
  cluster.validate();
  fw.validate();
  PreparedTraining p;
  p.job = job;
  p.cluster = cluster;
  p.framework = fw;
  p.rates = device_rates(cluster.gpu, job.precision, model);
  p.params = parameter_sizes(job.model);
  if (!(p.job.parameters > 0)) p.job.parameters = parameter_total(job.model, p.params);
  if (job.model.moe && !job.expert_parameters) p.job.expert_parameters = detail::expert_parameters(job, p.job.parameters, &p.params);
  const std::int64_t seq = job.seq_len > 0 ? job.seq_len : job.model.seq_len;
  require_positive_count(seq, "seq_len");
  require_positive_count(job.global_batch, "global_batch");
  if (!job.model_flops_per_token)
    p.flops = detail::job_flops(p.job, seq);
  return p;
}

// One plan of a prepared job: no text unless asked for, nothing allocated without it.
inline TrainingEstimate estimate_training(const PreparedTraining& p, const ParallelPlan& plan, bool with_text = false) {
  using namespace detail;
  validate_plan(p.job, plan, p.cluster);
  const LayerCosts costs = layer_costs(p.job, plan.tp, plan.micro_batch, plan.sequence_parallel, p.framework, p.rates, plan.ep, plan.cp, plan.etp);
  const Numbers n = training_numbers(p.job, plan, p.cluster, p.framework, p.rates, costs, p.flops ? &*p.flops : nullptr);
  TrainingEstimate est = estimate_from(n, p.job, plan, p.cluster, p.rates);
  if (with_text) fill_breakdown(est.breakdown, n, p.job, plan, p.cluster, p.framework, p.rates, costs);
  return est;
}

}  // namespace capplan::perf
