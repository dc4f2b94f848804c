// One serving load reported whole: the run (TP x PP, prefill and decode, memory and fit;
// plan/serving_run.hpp), the output tokens it makes, what it draws, emits and costs
// (plan/run_footprint.hpp) and the cost per million output tokens. `capplan infer` prints it;
// report/run_output.hpp's serving_output is its JSON, and Python's ServingReport.output() the same.
//
//   ServingReport r = serving_report(catalog, "llama3.1-70b", gpu, serving_run(shape, gpu, load, 4), load);
//   r.run.estimate.prefill;  r.output_tokens;  r.cost_per_million_tokens;
#pragma once

#include "capplan/hardware/catalog.hpp"
#include "capplan/money/decimal.hpp"
#include "capplan/money/money.hpp"
#include "capplan/plan/run_footprint.hpp"
#include "capplan/plan/serving_run.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

namespace capplan {

struct ServingReport {
  std::string model;   // the model as the user named it
  std::string gpu;     // the GPU's catalog id
  ServingLoad load;
  ServingRun run;
  double output_tokens = 0;                       // batch x output tokens per sequence
  int nodes = 1;                                  // nodes of load.gpus_per_node the replica's stages lie on
  std::string fabric;                             // the fabric's id between them; empty on one node
  RunFootprint footprint;                         // of the whole load (prefill + decode) on all its GPUs
  // Output tokens (an encoder's: input tokens, as it makes none), at the footprint's GPU-hour price.
  std::optional<Money> cost_per_million_tokens;
  [[nodiscard]] int gpus() const { return run.gpus(); }
  // Output tokens per second per GPU over the whole load, prefill included (TensorRT-LLM's
  // throughput figure); absent where the prefill is not timed (estimate.compute_timed false) and for
  // an encoder, which makes none.
  [[nodiscard]] std::optional<double> output_tokens_per_s_per_gpu() const {
    if (!run.estimate.compute_timed || run.estimate.encoder) return std::nullopt;
    return output_tokens / run.estimate.total.value() / gpus();
  }
};

// `run` of `load` on `g`: its footprint under `footprint` (prices from `catalog`), and the price
// of a million output tokens = price per GPU-hour x GPUs billed / (decode tokens per second x 3600)
// x 1e6. The replica is rented from an offer whose instance holds its TP group (footprint.node_gpus,
// 0: the run's TP), as many replicas to an instance as fit (cheapest_rent's `replicas`), so the GPUs
// billed are its own and its share of the instance's idle ones.
inline ServingReport serving_report(const Catalog& catalog, std::string model, const GpuSpec& g, ServingRun run, const ServingLoad& load,
                                    const FootprintOptions& footprint = {}) {
  load.validate();
  ServingReport r;
  r.model = std::move(model);
  r.gpu = g.id;
  r.load = load;
  r.run = std::move(run);
  const perf::InferenceEstimate& est = r.run.estimate;
  const int gpus = r.run.gpus();
  const perf::StageBoundaries stages = perf::stage_boundaries(r.run.tp, r.run.pp, load.gpus_per_node);
  r.nodes = stages.nodes;
  if (stages.across > 0) r.fabric = serving_fabric(g, load).id;
  r.output_tokens = static_cast<double>(load.output * load.batch);
  // A rate of work, not a run: the cheapest price per hour (a batch's seconds never bill a month or a term).
  FootprintOptions hourly = footprint;
  hourly.bill_as_sold = false;
  hourly.host = for_pcie_host(hourly.host, load.pcie_host);  // the server host the replica was timed on
  if (hourly.node_gpus == 0) hourly.node_gpus = r.run.tp;
  // Stages across nodes (ServingLoad::gpus_per_node): a host for each node at least, each node holding
  // its whole stages (StageBoundaries::node_gpus).
  r.footprint = run_footprint(catalog, g, gpus, est.total, est.total.value() * gpus / 3600.0, hourly,
                              load.gpus_per_node > 0 ? static_cast<int>(stages.node_gpus) : 0);
  if (!est.compute_timed) {
    // No prefill time (the GPU has no compute rate): no energy for the whole load. The price of a
    // million tokens below stays, at the decode's upper-bound speed: a lower bound on the cost.
    r.footprint.kwh.reset();
    r.footprint.co2_kg.reset();
  }
  if (r.footprint.price && est.tokens_per_second > 0) {
    const Money per_hour = *r.footprint.price * Duration::from_value(3600.0 * gpus * r.footprint.instance_factor);
    r.cost_per_million_tokens = per_hour * Decimal::from_double(1e6 / (est.tokens_per_second * 3600.0), 15, "tokens");
  }
  return r;
}

}  // namespace capplan
