// Speed of the performance model: one full estimate (FLOPs + memory + time) for one plan, and
// the exhaustive plan search for GPT-3 175B on 1,024 A100s (goals: <= 1 µs and < 100 ms).
#include <capplan/capplan.hpp>
#include <capplan/perf/plan_search.hpp>
#include <capplan/perf/training.hpp>
#include <capplan/perf/validation_cases.hpp>

#include <benchmark/benchmark.h>

namespace {

using namespace capplan;
using namespace capplan::literals;
using namespace capplan::perf;

TrainingJob gpt3_job() {
  TrainingJob job;
  job.model = validation::gpt("GPT-3 175B", 96, 12288, 96, 51200, 2048);
  job.global_batch = 1536;
  return job;
}

// The plan Megatron-LM used for GPT-3 175B: t = 8, p = 16, full recomputation.
ParallelPlan megatron_plan() {
  ParallelPlan plan;
  plan.tp = 8;
  plan.pp = 16;
  plan.dp = 8;
  plan.recompute = Recompute::full;
  return plan;
}

Cluster a100_cluster() { return make_cluster(Catalog::builtin().find_gpu("A100 SXM 80GB"), 1024, 8, infiniband(25_GBps)); }

// One plan: FLOPs per iteration, the per-GPU memory budget, and the iteration time.
void BM_FullEstimateOnePlan(benchmark::State& state) {
  const TrainingJob job = gpt3_job();
  const Cluster c = a100_cluster();
  const Framework fw = megatron_lm_2021();
  const ParallelPlan plan = megatron_plan();
  for (auto _ : state) {
    TrainingEstimate e = estimate_training(job, plan, c, fw);
    MemoryBudget m = plan_memory(job, plan, false);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(m);
  }
}
BENCHMARK(BM_FullEstimateOnePlan);

// The time estimate alone.
void BM_TimeEstimateOnePlan(benchmark::State& state) {
  const TrainingJob job = gpt3_job();
  const Cluster c = a100_cluster();
  const Framework fw = megatron_lm_2021();
  const ParallelPlan plan = megatron_plan();
  for (auto _ : state) {
    TrainingEstimate e = estimate_training(job, plan, c, fw);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_TimeEstimateOnePlan);

// Every valid plan over tp, pp, dp, micro-batch, ZeRO, recompute, SP and interleaving.
void BM_PlanSearchGpt3On1024(benchmark::State& state) {
  const TrainingJob job = gpt3_job();
  const Cluster c = a100_cluster();
  const Framework fw = megatron_lm_2021();
  std::size_t candidates = 0;
  for (auto _ : state) {
    SearchResult r = search_plans(job, c, fw, {}, 5);
    candidates = r.candidates;
    benchmark::DoNotOptimize(r);
  }
  state.counters["plans"] = static_cast<double>(candidates);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * candidates));
}
BENCHMARK(BM_PlanSearchGpt3On1024)->Unit(benchmark::kMillisecond);

}  // namespace
