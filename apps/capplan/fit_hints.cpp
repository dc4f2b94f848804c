#include "fit_hints.hpp"

#include <capplan/memory/solvers.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>

namespace capplan::cli {

namespace {

// Fits with the allocator's margin to spare (not tight).
bool fits(const TransformerShape& s, const TrainingConfig& c, DataSize capacity) {
  const FitResult f = check_fit(training_budget(s, c, parameter_sizes(s), false), capacity);
  return f.fits && !f.tight;
}

std::string need_text(const TransformerShape& s, const TrainingConfig& c, DataSize capacity) {
  const MemoryBudget b = training_budget(s, c, parameter_sizes(s), false);
  const FitResult f = check_fit(b, capacity);
  return bytes_text(b.total()) + " per GPU, " + (f.fits ? (f.tight ? "fits but tight" : "fits") : "does not fit");
}

}  // namespace

std::vector<std::string> training_fit_hints(const ModelArg& m, const TrainingConfig& c, const GpuSpec& g, const Catalog& catalog) {
  std::vector<std::string> out;
  const TransformerShape& s = m.shape;
  const DataSize cap = g.capacity();
  const MemoryBudget now = training_budget(s, c);
  if (check_fit(now, cap).fits) return out;

  // A shorter sequence (in whole chunks of 2 x CP with context parallelism), rounded down to 256 tokens.
  const std::int64_t seq = c.seq_len > 0 ? c.seq_len : s.seq_len;
  const std::int64_t step = c.plan.cp > 1 ? 2 * c.plan.cp : 1;
  if (seq / step > 1) {
    TrainingConfig t = c;
    std::int64_t k = detail::largest(1, seq / step - 1, [&](std::int64_t v) {
      t.seq_len = v * step;
      return fits(s, t, cap);
    });
    std::int64_t best = k * step;
    if (best >= 512) best = best / std::max<std::int64_t>(256, step) * std::max<std::int64_t>(256, step);
    if (k >= 1 && best >= 1) {
      t.seq_len = best;
      out.push_back("--seq-len " + std::to_string(best) + " (of " + std::to_string(seq) + "): " + need_text(s, t, cap));
    }
  }
  if (c.plan.micro_batch > 1) {
    TrainingConfig t = c;
    t.plan.micro_batch = 1;
    out.push_back("--micro-batch 1 (of " + std::to_string(c.plan.micro_batch) + "; more micro-batches keep the global batch): " +
                  need_text(s, t, cap));
  }
  if (c.plan.recompute != Recompute::full) {
    TrainingConfig t = c;
    t.plan.recompute = Recompute::full;
    out.push_back("--recompute full: " + need_text(s, t, cap));
  }
  if (c.plan.dp > 1 && c.plan.zero_stage != ZeroStage::parameters) {
    TrainingConfig t = c;
    t.plan.zero_stage = ZeroStage::parameters;
    out.push_back("--zero 3 over the " + std::to_string(c.plan.dp) + " data-parallel GPUs: " + need_text(s, t, cap));
  }
  if (c.finetune == FineTune::full) {
    for (const auto& [f, flag] : {std::pair{FineTune::lora, "lora"}, std::pair{FineTune::qlora, "qlora"}}) {
      TrainingConfig t = c;
      t.finetune = f;
      out.push_back(std::string("--finetune ") + flag + " (fine-tuning adapters, not pre-training): " + need_text(s, t, cap));
    }
  }
  const auto more_gpus = [&](const TrainingConfig& t, const std::string& label) -> std::optional<int> {
    const auto more = min_gpus_for_training(s, t, cap);
    if (!more) return std::nullopt;
    out.push_back(label + std::to_string(more->gpus) + " x " + g.id + " (TP " + std::to_string(more->tensor) +
                  (more->context > 1 ? " x CP " + std::to_string(more->context) : "") + " x PP " + std::to_string(more->pipeline) +
                  " x DP " + std::to_string(more->data) + ", ZeRO " + std::to_string(static_cast<int>(t.plan.zero_stage)) + ", recompute " +
                  std::string(name(t.plan.recompute)) + "): " + bytes_text(more->budget.total()) + " per GPU");
    return more->gpus;
  };
  const auto plain = more_gpus(c, "more GPUs: ");
  if (c.plan.zero_stage != ZeroStage::parameters || c.plan.recompute != Recompute::full) {
    TrainingConfig t = c;
    t.plan.zero_stage = ZeroStage::parameters;
    t.plan.recompute = Recompute::full;
    const auto frugal = min_gpus_for_training(s, t, cap);
    if (frugal && (!plain || frugal->gpus < *plain)) (void)more_gpus(t, "more GPUs with --zero 3 --recompute full: ");
  }
  // The GPU with the least memory that holds this very plan, of the same vendor when one does (the
  // software stack a plan assumes is the vendor's), else of any.
  const auto smallest_holding = [&](bool same_vendor) {
    const GpuSpec* best = nullptr;
    for (const GpuSpec& other : catalog.gpus()) {
      if (same_vendor && other.vendor != g.vendor) continue;
      if (other.capacity() < now.total() || check_fit(now, other.capacity()).tight) continue;
      if (!best || other.capacity() < best->capacity()) best = &other;
    }
    return best;
  };
  const GpuSpec* bigger = smallest_holding(true);
  if (!bigger) bigger = smallest_holding(false);
  if (bigger) {
    out.push_back("a GPU with more memory: " + bigger->id + " (" + bytes_text(bigger->capacity()) + ") holds this plan's " +
                  bytes_text(now.total()));
  } else {
    out.push_back("no GPU in the catalog holds this plan's " + bytes_text(now.total()) + " per GPU");
  }
  return out;
}

}  // namespace capplan::cli
