#pragma once
// The activations a pipeline rank holds at its peak, in layer-micro-batches (one transformer layer's
// activations for one micro-batch), under Megatron-Core's 1F1B schedules:
//
//   without interleaving (forward_backward_pipelining_without_interleaving): rank r runs
//   pp - r - 1 warm-up forwards, then one forward and one backward in turn, so it holds
//   min(pp - r, m) micro-batches of its L_r layers (Narayanan et al. 2021, §2.2);
//
//   interleaved, v chunks a rank (forward_backward_pipelining_with_interleaving): 2 (pp - r - 1) +
//   (v - 1) pp warm-up forwards, then one forward and one backward in turn; forward k runs chunk
//   (k mod pp v) / pp and backward k chunk v - 1 - (k mod pp v) / pp (get_model_chunk_id, with
//   micro-batch groups of pp). The rank holds, after forward W + j, the layers of forwards 0..W + j
//   less those of backwards 0..j - 1. With equal chunks that is (W + 1) L_r / v at every j; where a
//   layout gives the chunks different layers (the first virtual stage beside the embedding, the last
//   beside the loss) the peak is the largest over j, which repeats with period pp v, so one period of
//   the steady state is walked.
//
// A rank's chunks: ParallelPlan::first_chunk_layers on the first rank's chunk 0 and last_chunk_layers
// on the last rank's chunk v - 1, the rank's other chunks sharing the rest evenly; equal chunks
// otherwise.

#include "capplan/workload/parallel_plan.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace capplan {

// The layers of each of rank `stage`'s model chunks (`stage_layers` of them on the rank).
inline std::vector<double> rank_chunk_layers(int stage_layers, const ParallelPlan& plan, int stage) {
  const int v = std::max(1, plan.interleave);
  std::vector<double> chunks(static_cast<std::size_t>(v), static_cast<double>(stage_layers) / v);
  if (v == 1 || plan.chunk_layers <= 0) return chunks;
  const auto uneven = [&](std::size_t at, int layers) {
    chunks[at] = layers;
    const double rest = static_cast<double>(stage_layers - layers) / (v - 1);
    for (std::size_t j = 0; j < chunks.size(); ++j)
      if (j != at) chunks[j] = rest;
  };
  if (stage == plan.pp - 1) uneven(chunks.size() - 1, plan.last_chunk_layers);
  else if (stage == 0 && plan.first_chunk_layers > 0) uneven(0, plan.first_chunk_layers);
  return chunks;
}

// Layer-micro-batches of activations rank `rank` of `pp` holds at its peak, its chunks' layers in
// `chunks` (one entry without interleaving), `microbatches` per iteration; `extra_warmup` more warm-up
// forwards on an interleaved pipeline (1 under Megatron-Core's combined 1F1B, TrainingConfig::moe_a2a_overlap).
inline double peak_layer_microbatches(const std::vector<double>& chunks, int pp, int rank, std::int64_t microbatches, int extra_warmup = 0) {
  const auto v = static_cast<std::int64_t>(chunks.size());
  if (v <= 1) return (chunks.empty() ? 0.0 : chunks[0]) * static_cast<double>(std::min<std::int64_t>(pp - rank, microbatches));
  const std::int64_t period = pp * v;
  const std::int64_t total = microbatches * v;  // virtual micro-batches
  const auto forward = [&](std::int64_t k) { return chunks[static_cast<std::size_t>((k % period) / pp)]; };
  const auto backward = [&](std::int64_t k) { return chunks[static_cast<std::size_t>(v - 1 - (k % period) / pp)]; };
  const std::int64_t warmup = std::min<std::int64_t>(2 * (pp - rank - 1) + (v - 1) * pp + extra_warmup, total);
  double held = 0;
  // All forwards in the warm-up (a batch of few micro-batches): every one is held before the first backward.
  if (warmup == total) {
    for (std::int64_t k = 0; k < total; ++k) held += forward(k);
    return held;
  }
  for (std::int64_t k = 0; k <= warmup; ++k) held += forward(k);
  double peak = held;
  const std::int64_t steady = std::min(total - warmup - 1, period);
  for (std::int64_t j = 1; j <= steady; ++j) {
    held += forward(warmup + j) - backward(j - 1);
    peak = std::max(peak, held);
  }
  return peak;
}

}  // namespace capplan
