// Speed of the planner's inner loops, with the slower path beside each in the same run:
//   - one memory budget as a search's probe takes it (numbers only, the parameter breakdown given)
//     against the budget with its detail text (what every probe of max_micro_batch and
//     min_gpus_for_training computed before 2026-12-02), and the two searches themselves;
//   - the catalog warnings about the entries one answer used (warnings_for: one GPU and one offer)
//     against the whole catalog's (check_catalog), which warnings_for filtered before 2026-12-02.
#include <capplan/hardware/builtin_catalog.hpp>
#include <capplan/hardware/warnings.hpp>
#include <capplan/memory/solvers.hpp>
#include <capplan/workload/presets.hpp>

#include <benchmark/benchmark.h>

namespace {

using namespace capplan;
using namespace capplan::literals;

// BLOOM-176B at 32,768 tokens, ZeRO-3 over 16 GPUs, full recomputation: the shape of the compare
// row whose search this speeds up (docs/cli.md, activation offloading).
TrainingConfig bloom_config() {
  TrainingConfig cfg;
  cfg.seq_len = 32768;
  cfg.plan.zero_stage = ZeroStage::parameters;
  cfg.plan.dp = 16;
  cfg.plan.micro_batch = 1;
  cfg.plan.recompute = Recompute::full;
  cfg.flash_attention = true;
  return cfg;
}

// arg 0: the budget with its detail text; arg 1: numbers only, the parameter breakdown given.
void BM_TrainingBudgetProbe(benchmark::State& state) {
  const TransformerShape shape = find_model("bloom-176b").transformer();
  const TrainingConfig cfg = bloom_config();
  const auto sizes = parameter_sizes(shape);
  for (auto _ : state) {
    MemoryBudget b = state.range(0) == 0 ? training_budget(shape, cfg) : training_budget(shape, cfg, sizes, false);
    benchmark::DoNotOptimize(b);
  }
}
BENCHMARK(BM_TrainingBudgetProbe)->Arg(0)->Arg(1);

void BM_MaxMicroBatch(benchmark::State& state) {
  const TransformerShape shape = find_model("llama3-70b").transformer();
  TrainingConfig cfg;
  cfg.plan.zero_stage = ZeroStage::parameters;
  cfg.plan.dp = 64;
  cfg.plan.recompute = Recompute::full;
  cfg.flash_attention = true;
  for (auto _ : state) benchmark::DoNotOptimize(max_micro_batch(shape, cfg, 80_GB));
}
BENCHMARK(BM_MaxMicroBatch)->Unit(benchmark::kMicrosecond);

void BM_MinGpusForTraining(benchmark::State& state) {
  const TransformerShape shape = find_model("bloom-176b").transformer();
  const TrainingConfig cfg = bloom_config();
  // Up to 1,024 GPUs, tensor parallelism within a 72-GPU NVLink domain (GB300 NVL72), as compare asks.
  for (auto _ : state) benchmark::DoNotOptimize(min_gpus_for_training(shape, cfg, 288_GB, 1024, 72));
}
BENCHMARK(BM_MinGpusForTraining)->Unit(benchmark::kMillisecond);

// arg 0: check_catalog over the built-in catalog, filtered to the entries, as warnings_for did before
// (with today's reference rule, which normalises each name once: the old path cost more still);
// arg 1: warnings_for, which checks those entries only.
void BM_WarningsForOneGpu(benchmark::State& state) {
  const Catalog& c = Catalog::builtin();
  const WarningOptions opt{.today = "2026-11-26"};
  const std::vector<std::string> entries{"gpu h100-sxm", "cloud offer lambda-gpu-8x-h100-sxm5"};
  for (auto _ : state) {
    if (state.range(0) == 0) {
      std::vector<CatalogWarning> mine;
      for (CatalogWarning& w : check_catalog(c, opt))
        if (w.entry == entries[0] || w.entry == entries[1]) mine.push_back(std::move(w));
      benchmark::DoNotOptimize(mine);
    } else {
      benchmark::DoNotOptimize(warnings_for(c, entries, opt));
    }
  }
}
BENCHMARK(BM_WarningsForOneGpu)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
