// Speed of the performance model: one full estimate (FLOPs + memory + time) for one plan, and
// the exhaustive plan search for GPT-3 175B on 1,024 A100s (goals: <= 1 µs and < 100 ms); the
// explained path (breakdown text) and the from-scratch path for comparison in the same run, and
// the parts a from-scratch estimate adds (exact counts in cpp_int and in Count128, the GPU's rates).
#include <capplan/capplan.hpp>
#include <capplan/perf/plan_search.hpp>
#include <capplan/perf/training.hpp>
#include "validation_cases.hpp"

#include <benchmark/benchmark.h>

namespace {

using namespace capplan;
using namespace capplan::literals;
using namespace capplan::perf;

// The plan Megatron-LM used for GPT-3 175B: t = 8, p = 16, full recomputation.
ParallelPlan megatron_plan() {
  ParallelPlan plan;
  plan.tp = 8;
  plan.pp = 16;
  plan.dp = 8;
  plan.recompute = Recompute::full;
  return plan;
}

// One plan of a prepared job (parameter and FLOP counts and the GPU's rates worked out once, as for
// every plan of a search): hardware FLOPs, the per-GPU memory budget and the iteration time, numbers only.
void BM_FullEstimateOnePlan(benchmark::State& state) {
  const PreparedTraining p = prepare_training(validation::gpt3_175b_job(), validation::dgx_a100_cluster(1024), megatron_lm_2021());
  const ParallelPlan plan = megatron_plan();
  for (auto _ : state) {
    TrainingEstimate e = estimate_training(p, plan);
    MemoryBudget m = plan_memory(p, plan);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(m);
  }
}
BENCHMARK(BM_FullEstimateOnePlan);

// The same from nothing: preparing the job (exact parameter and FLOP counts, GPU calibration) included.
void BM_FullEstimateFromScratch(benchmark::State& state) {
  const TrainingJob job = validation::gpt3_175b_job();
  const Cluster c = validation::dgx_a100_cluster(1024);
  const Framework fw = megatron_lm_2021();
  const ParallelPlan plan = megatron_plan();
  for (auto _ : state) {
    const PreparedTraining p = prepare_training(job, c, fw);
    TrainingEstimate e = estimate_training(p, plan);
    MemoryBudget m = plan_memory(p, plan);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(m);
  }
}
BENCHMARK(BM_FullEstimateFromScratch);

// The same from the job directly, without preparing (no copies of the job and cluster): the numbers-only
// estimate and the per-GPU memory budget without detail text.
void BM_FullEstimateNumbersFromJob(benchmark::State& state) {
  const TrainingJob job = validation::gpt3_175b_job();
  const Cluster c = validation::dgx_a100_cluster(1024);
  const Framework fw = megatron_lm_2021();
  const ParallelPlan plan = megatron_plan();
  for (auto _ : state) {
    TrainingEstimate e = estimate_training_numbers(job, plan, c, fw);
    MemoryBudget m = training_budget(job.model, plan_training_config(job, plan, fw.flash_attention),
                                     parameter_sizes(job.model), false);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(m);
  }
}
BENCHMARK(BM_FullEstimateNumbersFromJob);

// The same through estimate_plan(): one call, the job's exact counts worked out once for time and memory.
void BM_EstimatePlan(benchmark::State& state) {
  const TrainingJob job = validation::gpt3_175b_job();
  const Cluster c = validation::dgx_a100_cluster(1024);
  const Framework fw = megatron_lm_2021();
  const ParallelPlan plan = megatron_plan();
  for (auto _ : state) {
    PlanEstimate e = estimate_plan(job, plan, c, fw);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_EstimatePlan);

// The explained path (baseline): the same estimate with its breakdown text and the memory budget with
// its detail lines, from the job, as the command line prints them.
void BM_FullEstimateExplained(benchmark::State& state) {
  const TrainingJob job = validation::gpt3_175b_job();
  const Cluster c = validation::dgx_a100_cluster(1024);
  const Framework fw = megatron_lm_2021();
  const ParallelPlan plan = megatron_plan();
  for (auto _ : state) {
    TrainingEstimate e = estimate_training(job, plan, c, fw);
    MemoryBudget m = plan_memory(job, plan, false);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(m);
  }
}
BENCHMARK(BM_FullEstimateExplained);

// The time estimate alone, with its breakdown.
void BM_TimeEstimateExplained(benchmark::State& state) {
  const TrainingJob job = validation::gpt3_175b_job();
  const Cluster c = validation::dgx_a100_cluster(1024);
  const Framework fw = megatron_lm_2021();
  const ParallelPlan plan = megatron_plan();
  for (auto _ : state) {
    TrainingEstimate e = estimate_training(job, plan, c, fw);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_TimeEstimateExplained);

// The exact counts an estimate starts from, in unbounded Count (cpp_int) and in checked 128-bit
// integers (Count128, what the estimates use): the parameter breakdown and one iteration's model FLOPs.
void BM_ExactCountsCppInt(benchmark::State& state) {
  const TrainingJob job = validation::gpt3_175b_job();
  for (auto _ : state) {
    ParamBreakdown p = parameter_breakdown(job.model);
    Count f = model_flops_per_iteration(job.model, job.global_batch, 2048);
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(f);
  }
}
BENCHMARK(BM_ExactCountsCppInt);

void BM_ExactCounts128(benchmark::State& state) {
  const TrainingJob job = validation::gpt3_175b_job();
  for (auto _ : state) {
    ParamSizes p = parameter_sizes(job.model);
    double f = model_flops_value(job.model, job.global_batch, 2048);
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(f);
  }
}
BENCHMARK(BM_ExactCounts128);

// The GPU's rates (calibration by name, peak and bandwidth).
void BM_DeviceRates(benchmark::State& state) {
  const Cluster c = validation::dgx_a100_cluster(1024);
  for (auto _ : state) {
    DeviceRates r = device_rates(c.gpu, Precision::bf16);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_DeviceRates);

// Runs the search once per iteration and reports how many plans it timed.
void time_search(benchmark::State& state, const TrainingJob& job, const Cluster& c, const Framework& fw, const SearchSpace& space) {
  std::size_t candidates = 0;
  for (auto _ : state) {
    SearchResult r = search_plans(job, c, fw, {}, 5, space);
    candidates = r.candidates;
    benchmark::DoNotOptimize(r);
  }
  state.counters["plans"] = static_cast<double>(candidates);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * candidates));
}

// A job of `model` at `seq` tokens and `batch` sequences on `gpus` H100 in 8-GPU nodes over NDR.
TrainingJob search_job(const char* model, std::int64_t seq, std::int64_t batch) {
  TrainingJob job;
  job.model = find_model(model).transformer();
  job.seq_len = seq;
  job.global_batch = batch;
  return job;
}
Cluster h100_cluster(int gpus) { return make_cluster(Catalog::builtin().find_gpu("h100-sxm"), gpus, 8, find_fabric("ib-ndr").link(8)); }

// Every valid plan over tp, pp, dp, micro-batch, ZeRO, recompute, SP and interleaving.
// The space to time: Arg 1, the default; Arg 0, without the lighter end stages; Arg 2, the space before
// interleaving beyond 4 and CP from 8,192 tokens joined it (interleave 1, 2, 4; CP from 16,384 tokens).
SearchSpace bench_space(std::int64_t arg) {
  SearchSpace space;
  space.end_stage_layouts = arg != 0;
  if (arg == 2) {
    space.interleave = {1, 2, 4};
    space.min_cp_seq = 16384;
    space.min_cp_tokens = 0;
  }
  return space;
}

void BM_PlanSearchGpt3On1024(benchmark::State& state) {
  const SearchSpace space = bench_space(state.range(0));
  time_search(state, validation::gpt3_175b_job(), validation::dgx_a100_cluster(1024), megatron_lm_2021(), space);
}
BENCHMARK(BM_PlanSearchGpt3On1024)->Arg(1)->Arg(0)->Arg(2)->Unit(benchmark::kMillisecond);

// Llama 3.1 405B on 16,384 H100 (8-GPU nodes over NDR), 8,192-token sequences, a 2,048-sequence batch:
// the ceiling is 100 ms.
void BM_PlanSearchLlama405bOn16384(benchmark::State& state) {
  const SearchSpace space = bench_space(state.range(0));
  time_search(state, search_job("llama3.1-405b", 8192, 2048), h100_cluster(16384), Framework{}, space);
}
BENCHMARK(BM_PlanSearchLlama405bOn16384)->Arg(1)->Arg(0)->Arg(2)->Unit(benchmark::kMillisecond);

// A long-context search, where context parallelism joins the plan space: Llama 3.1 8B at 131,072
// tokens on 64 H100.
void BM_PlanSearchLongContextCp(benchmark::State& state) {
  time_search(state, search_job("llama3.1-8b", 131072, 64), h100_cluster(64), Framework{}, SearchSpace{});
}
BENCHMARK(BM_PlanSearchLongContextCp)->Unit(benchmark::kMillisecond);

// A mixture-of-experts search, where expert parallelism, expert tensor parallelism (Arg 1: ETP 1
// tried beside ETP = TP; Arg 0: ETP = TP only) and, at 32,768 tokens, context parallelism with the
// experts folded in join the plan space: Mixtral 8x7B on 64 H100.
void BM_PlanSearchMoe(benchmark::State& state) {
  SearchSpace space;
  if (state.range(0) == 0) space.expert_tensor_parallel = {0};
  time_search(state, search_job("mixtral-8x7b", 32768, 64), h100_cluster(64), Framework{}, space);
}
BENCHMARK(BM_PlanSearchMoe)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);

// The same search (ETP 1 beside ETP = TP) with the lists of candidates search_plans keeps between
// searches freed before each one (release_search_memory): every search pays for fresh memory, as
// every search did before the lists were kept. Its ratio to BM_PlanSearchMoe/1 is what keeping them saves.
void BM_PlanSearchMoeFreshMemory(benchmark::State& state) {
  const TrainingJob job = search_job("mixtral-8x7b", 32768, 64);
  const Cluster c = h100_cluster(64);
  std::size_t candidates = 0;
  for (auto _ : state) {
    release_search_memory();
    SearchResult r = search_plans(job, c, Framework{}, {}, 5, SearchSpace{});
    candidates = r.candidates;
    benchmark::DoNotOptimize(r);
  }
  state.counters["plans"] = static_cast<double>(candidates);
}
BENCHMARK(BM_PlanSearchMoeFreshMemory)->Unit(benchmark::kMillisecond);

// DeepSeek-V3 (MLA, 256 experts, 3 dense layers: all five published recomputation module lists
// apply) at 4,096 tokens on 256 H100, under the Megatron-Core preset (the one that tries them): Arg 1
// with the module lists, Arg 0 core_attn only.
void BM_PlanSearchDeepSeek(benchmark::State& state) {
  SearchSpace space;
  space.recompute_module_lists = state.range(0) == 1;
  time_search(state, search_job("deepseek-r1", 4096, 1024), h100_cluster(256), megatron_core(), space);
}
BENCHMARK(BM_PlanSearchDeepSeek)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);

}  // namespace
