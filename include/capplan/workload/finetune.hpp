// Fine-tuning: which weights train. Full fine-tuning trains every weight; LoRA trains rank-r adapters
// beside frozen base weights (Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large Language Models",
// §4); QLoRA freezes the base weights in 4-bit NormalFloat (Dettmers et al. 2023, "QLoRA", §3).
// Memory (memory/budget.hpp, memory/activations.hpp) and time (perf/training_estimator.hpp) read the
// same options.
#pragma once

#include "capplan/error.hpp"
#include "capplan/units/count.hpp"
#include "capplan/workload/transformer.hpp"

#include <cmath>
#include <string>
#include <string_view>

namespace capplan {

enum class FineTune { full, lora, qlora };

inline constexpr std::string_view name(FineTune f) {
  switch (f) {
    case FineTune::full: return "full";
    case FineTune::lora: return "lora";
    case FineTune::qlora: return "qlora";
  }
  return "?";
}

// LoRA adapters (Hu et al. 2021, §4): a rank-r pair B (d_out x r), A (r x d_in) beside each target
// matrix: r (d_in + d_out) trainable parameters per matrix.
struct LoraOptions {
  int rank = 16;
  bool q = true, k = true, v = true, o = true;  // attention projections adapted
  bool mlp = false;                             // FFN matrices (all experts for MoE)
};

namespace detail {

// Trainable adapter parameters of LoRA on the whole model.
inline double lora_params(const TransformerShape& s, const LoraOptions& l) {
  if (l.rank <= 0) detail::fail("lora.rank", std::to_string(l.rank), "must be a positive rank");
  const double r = l.rank, h = static_cast<double>(s.hidden);
  double per_layer = 0;
  const double q = static_cast<double>(s.heads) * static_cast<double>(s.effective_head_dim());
  const double kv = static_cast<double>(s.effective_kv_heads()) * static_cast<double>(s.effective_head_dim());
  if (l.q) per_layer += r * (h + q);
  if (l.k) per_layer += r * (h + kv);
  if (l.v) per_layer += r * (h + kv);
  if (l.o) per_layer += r * (q + h);
  double total = per_layer * s.layers;
  if (l.mlp) {
    const double mats = s.gated_mlp ? 3 : 2;
    total += mats * r * (h + static_cast<double>(s.effective_ffn_hidden())) * s.dense_layers();
    if (s.moe) {
      total += mats * r * (h + static_cast<double>(s.moe->moe_ffn_hidden)) *
               (s.moe->experts + s.moe->shared_experts) * s.moe_layers();
    }
  }
  return total;
}

}  // namespace detail

// Trainable LoRA parameters for a shape (Hu et al. 2021, §4: r (d_in + d_out) per adapted matrix).
inline Count lora_parameter_count(const TransformerShape& shape, const LoraOptions& lora = {}) {
  shape.validate();
  return Count(static_cast<long long>(std::llround(detail::lora_params(shape, lora))));
}

}  // namespace capplan
