// What would fit when a training plan does not: a shorter sequence, recomputation, ZeRO-3, more
// GPUs, adapters (LoRA, QLoRA) or a GPU with more memory, each with the memory it needs. Used by
// capplan memory (the plan does not fit) and capplan train (no plan on the GPUs fits). Defined in
// workload_args.cpp, beside the flags it reads.
#pragma once

#include "workload_args.hpp"

#include <capplan/hardware/catalog.hpp>
#include <capplan/memory/budget.hpp>

#include <string>
#include <vector>

namespace capplan::cli {

// One line per way out, with its numbers ("--seq-len 4096: 61.2 GB per GPU, fits"); empty when the
// plan fits.
std::vector<std::string> training_fit_hints(const ModelArg& m, const TrainingConfig& c, const GpuSpec& g, const Catalog& catalog);

}  // namespace capplan::cli
