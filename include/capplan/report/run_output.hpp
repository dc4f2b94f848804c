// A training run and a serving load for programs: the JSON objects `capplan train --format json`
// and `capplan infer --format json` print (the contract in docs/cli.md), and what Python's
// TrainingReport.output() and ServingReport.output() return. Times in seconds, bytes as numbers,
// money as exact decimal strings under keys that name USD only when the figure is in USD.
#pragma once

#include "capplan/money/format.hpp"
#include "capplan/plan/run_footprint.hpp"
#include "capplan/plan/serving_report.hpp"
#include "capplan/plan/training_report.hpp"
#include "capplan/report/money_value.hpp"
#include "capplan/report/plan_output.hpp"
#include "capplan/report/value.hpp"
#include "capplan/workload/parallel_plan.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace capplan {

// A training run's whole-run keys: expected_wall_clock_s, expected_gpu_hours and goodput (goodput,
// expected_failures, job_mtbf_s, checkpoint_bytes, checkpoint_interval_s, checkpoint_interval_iterations
// (null: one checkpoint at the end, or no iteration time given), checkpoint_stall_s, checkpoints, failures_per_gpu_hour, restart_s,
// async_checkpoint).
inline void goodput_output(Value& j, const GoodputEstimate& gp) {
  j["expected_wall_clock_s"] = gp.expected_wall_clock.value();
  j["expected_gpu_hours"] = gp.expected_gpu_hours;
  Value& g = j["goodput"];
  g["goodput"] = gp.goodput;
  g["expected_failures"] = gp.expected_failures;
  g["job_mtbf_s"] = gp.job_mtbf ? Value(gp.job_mtbf->value()) : Value();
  g["checkpoint_bytes"] = gp.checkpoint.value();
  g["checkpoint_interval_s"] = gp.checkpoint_interval.value();
  g["checkpoint_interval_iterations"] = gp.interval_iterations > 0 ? Value(static_cast<std::int64_t>(gp.interval_iterations)) : Value();
  g["checkpoint_stall_s"] = gp.checkpoint_stall.value();
  g["checkpoints"] = gp.checkpoints;
  g["failures_per_gpu_hour"] = gp.config.failures_per_gpu_hour;
  g["restart_s"] = gp.config.restart.value();
  g["async_checkpoint"] = gp.config.async_checkpoint;
}

// it_power_w, energy_kwh, co2e_kg (null where the accelerator's power is not published), appended to `j`; with `priced`, cost_usd,
// price_per_gpu_hour_usd, price_kind (the offer's: on_demand, monthly, reserved, spot; null for a given price) and billed_gpu_hours
// (more than the run's where a monthly rental bills whole months or a reserved price its term); null without a price. A price
// in another currency leaves the _usd keys null and adds cost and cost_currency, price_per_gpu_hour and its currency
// (detail::put_usd, report/money_value.hpp).
inline void footprint_output(Value& j, const RunFootprint& f, bool priced = true) {
  j["it_power_w"] = f.power.known ? Value(f.power.total.value()) : Value();
  j["energy_kwh"] = Value::of(f.kwh);
  j["co2e_kg"] = Value::of(f.co2_kg);
  if (!priced) return;
  detail::put_usd(j, "cost_usd", f.cost ? std::optional(f.cost->rounded_to(2)) : std::nullopt);
  detail::put_usd(j, "price_per_gpu_hour_usd", f.price);
  j["price_kind"] = f.price_kind ? Value(std::string(name(*f.price_kind))) : Value();
  j["billed_gpu_hours"] = f.price ? Value(f.billed_gpu_hours) : Value();
}

// model, gpu, gpus, tokens, plan (as run, with the stages' layers and fine-tuning), cluster (nodes,
// the fabric between them, the links of each group), flops_total, time_s, iteration_time_s,
// gpu_hours, expected_wall_clock_s, expected_gpu_hours, goodput, tokens_per_s_per_gpu,
// achieved_flop_per_s_per_gpu, mfu, hfu, memory_per_gpu_bytes, fits, tight, the footprint, and
// `assumptions` (the notes a reader is shown).
inline Value training_output(const TrainingReport& r, const std::vector<std::string>& assumptions = {}) {
  const ParallelPlan& plan = r.run.plan;
  const perf::TrainingJob& job = r.run.job;
  const perf::TrainingEstimate& est = r.run.estimate;
  const perf::Cluster& cluster = r.run.cluster;
  const perf::Fabric& fabric = r.run.fabric;
  const int gpus = r.gpus();
  const bool adapters = job.finetune != FineTune::full;
  Value j;
  j["model"] = r.model;
  j["gpu"] = r.gpu;
  j["gpus"] = gpus;
  j["tokens"] = r.tokens;
  Value& p = j["plan"];
  p["searched"] = r.searched;
  plan_output(p, plan, job.model.layers);
  p["global_batch"] = job.global_batch;
  p["seq_len"] = job.seq_len;
  p["mtp_layers"] = job.mtp_layers;
  p["flash_attention"] = r.flash_attention;
  p["finetune"] = std::string(name(job.finetune));
  p["lora_rank"] = adapters ? Value(job.lora.rank) : Value();
  p["lora_mlp"] = adapters && job.lora.mlp;
  Value& c = j["cluster"];
  c["nodes"] = cluster.nodes();
  c["gpus_per_node"] = cluster.gpus_per_node;
  if (cluster.nodes() > 1) {
    Value& f = c["fabric"];
    f["id"] = fabric.id;
    f["name"] = fabric.name;
    f["per_gpu_bytes_per_s"] = fabric.per_gpu(cluster.gpus_per_node).value();
    f["assumed"] = r.fabric_assumed;
  } else {
    c["fabric"] = Value();
  }
  Value& l = c["links"];
  l["tp"] = r.links.tp;
  l["cp"] = r.links.cp;
  l["pp"] = r.links.pp;
  l["dp"] = r.links.dp;
  l["ep"] = r.links.ep;
  j["flops_total"] = r.flops_total;
  j["time_s"] = r.time.value();
  j["iteration_time_s"] = est.iteration.value();
  j["gpu_hours"] = r.gpu_hours;
  goodput_output(j, r.goodput);
  j["tokens_per_s_per_gpu"] = est.tokens_per_second / gpus;
  j["achieved_flop_per_s_per_gpu"] = est.model_rate_per_gpu.value();
  j["mfu"] = est.mfu;
  j["hfu"] = est.hfu;
  j["memory_per_gpu_bytes"] = r.run.memory.total().value();
  j["fits"] = r.fit.fits;
  j["tight"] = r.fit.tight;
  footprint_output(j, r.footprint);
  j["assumptions"] = Value::strings(assumptions);
  return j;
}

// model, gpu, plan (GPUs, TP, PP, formats, batch, prompt and output tokens); then, where the layout
// fits: compute_timed (false: the GPU has no compute rate, so the decode's speed is an upper bound
// from its memory traffic and ttft_s, time_s and output_tokens_per_s_per_gpu are null), encoder
// (true for an encoder such as BERT: one forward pass a request, forward_pass_s and input_tokens_per_s
// set, the decode keys and ttft_s null, the cost per million input tokens), forward_pass_s,
// input_tokens_per_s, ttft_s, decode_tokens_per_s(_per_sequence), time_s, output_tokens_total,
// output_tokens_per_s_per_gpu, memory_per_gpu_bytes, fits, tight, it_power_w, energy_kwh, co2e_kg,
// cost_usd_per_million_tokens; where it does not: memory_per_gpu_bytes, fits (false) and
// `would_fit`, what would (no time: the layout cannot run). `assumptions` last.
inline Value serving_output(const ServingReport& r, const std::vector<std::string>& assumptions = {},
                            const std::vector<std::string>& would_fit = {}) {
  const ServingLoad& load = r.load;
  const perf::InferenceEstimate& est = r.run.estimate;
  Value j;
  j["model"] = r.model;
  j["gpu"] = r.gpu;
  Value& p = j["plan"];
  p["gpus"] = r.gpus();
  p["tp"] = r.run.tp;
  p["pp"] = r.run.pp;
  p["nodes"] = r.nodes;
  p["fabric"] = r.fabric.empty() ? Value(nullptr) : Value(r.fabric);
  p["weights"] = std::string(load.weights.name);
  p["kv_cache"] = std::string(load.kv_cache.name);
  p["batch"] = load.batch;
  p["prompt_tokens"] = load.prompt;
  p["output_tokens"] = load.output;
  if (load.expert_weights) p["expert_weights"] = std::string(load.expert_weights->name);
  if (!r.run.fit.fits) {
    j["memory_per_gpu_bytes"] = r.run.memory.total().value();
    j["fits"] = false;
    j["would_fit"] = Value::strings(would_fit);
    j["assumptions"] = Value::strings(assumptions);
    return j;
  }
  // A GPU with no compute rate (est.compute_timed false): the decode's upper-bound speed, no prefill
  // and no whole-load time.
  const bool timed = est.compute_timed;
  j["compute_timed"] = timed;
  const bool encoder = est.encoder;
  j["encoder"] = encoder;
  j["forward_pass_s"] = encoder ? Value(est.prefill.value()) : Value();
  j["input_tokens_per_s"] = encoder ? Value(est.tokens_per_second) : Value();
  j["ttft_s"] = timed && !encoder ? Value(est.prefill.value()) : Value();
  j["decode_tokens_per_s"] = encoder ? Value() : Value(est.tokens_per_second);
  j["decode_tokens_per_s_per_sequence"] = encoder ? Value() : Value(est.tokens_per_second_per_sequence);
  j["time_s"] = timed ? Value(est.total.value()) : Value();
  j["output_tokens_total"] = r.output_tokens;
  j["output_tokens_per_s_per_gpu"] = Value::of(r.output_tokens_per_s_per_gpu());
  j["memory_per_gpu_bytes"] = r.run.memory.total().value();
  j["fits"] = r.run.fit.fits;
  j["tight"] = r.run.fit.tight;
  footprint_output(j, r.footprint, false);
  detail::put_usd(j, "cost_usd_per_million_tokens", r.cost_per_million_tokens ? std::optional(r.cost_per_million_tokens->rounded_to(4)) : std::nullopt);
  j["assumptions"] = Value::strings(assumptions);
  return j;
}

// An image model's run: model, gpu, gpus, images, plan (batch per GPU, global batch, precision),
// images_per_s, gpu_bound_images_per_s, data_pipeline (storage and CPU limits, cores, the
// bottleneck: gpu, cpu or storage), time_s, iteration_time_s, gpu_hours, the whole run's keys
// (goodput_output), flops_total, achieved_flop_per_s_per_gpu, the footprint (over the expected wall
// clock) and `assumptions`.
inline Value image_training_output(const ImageTrainingReport& r, const std::vector<std::string>& assumptions = {}) {
  const perf::ImageTrainingEstimate& est = r.estimate;
  Value j;
  j["model"] = r.model;
  j["gpu"] = r.gpu;
  j["gpus"] = r.gpus;
  j["images"] = r.images;
  Value& p = j["plan"];
  p["batch_per_gpu"] = r.batch_per_gpu;
  p["global_batch"] = r.batch_per_gpu * r.gpus;
  p["precision"] = std::string(name(r.precision));
  j["images_per_s"] = est.images_per_second;
  j["gpu_bound_images_per_s"] = est.gpu_bound_images_per_second;
  j["memory_per_gpu_bytes"] = r.memory.total().value();
  j["fits"] = r.fit.fits;
  j["tight"] = r.fit.tight;
  j["max_batch_per_gpu"] = r.max_batch_per_gpu;
  if (est.data_loading) {
    const perf::DataLoadingCheck& dl = *est.data_loading;
    Value& d = j["data_pipeline"];
    d["storage_images_per_s"] = dl.storage_limit;
    d["cpu_images_per_s"] = dl.cpu_limit;
    d["cpu_cores"] = r.host.cpu_cores;
    d["bottleneck"] = dl.ok() ? "gpu" : dl.bottleneck() == "CPU" ? "cpu" : "storage";
  } else {
    j["data_pipeline"] = Value();
  }
  j["time_s"] = r.time.value();
  j["iteration_time_s"] = est.iteration.value();
  j["gpu_hours"] = r.gpu_hours;
  goodput_output(j, r.goodput);
  j["flops_total"] = r.flops_total;
  j["achieved_flop_per_s_per_gpu"] = est.achieved_per_gpu.value();
  footprint_output(j, r.footprint);
  j["assumptions"] = Value::strings(assumptions);
  return j;
}

// What `capplan train --format json` prints when no plan of these GPUs fits in memory: model, gpu,
// gpus, fits (false), plan (null), least_memory_per_gpu_bytes (the most frugal layout the search
// tried: ZeRO-3 over every GPU, full recomputation, micro-batch 1) and would_fit (what would).
inline Value training_no_fit_output(std::string_view model, std::string_view gpu, int gpus, DataSize least_memory_per_gpu,
                                    const std::vector<std::string>& would_fit) {
  Value j;
  j["model"] = model;
  j["gpu"] = gpu;
  j["gpus"] = gpus;
  j["fits"] = false;
  j["plan"] = Value();
  j["least_memory_per_gpu_bytes"] = least_memory_per_gpu.value();
  j["would_fit"] = Value::strings(would_fit);
  return j;
}

}  // namespace capplan
