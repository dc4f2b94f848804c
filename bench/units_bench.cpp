// Checked units cost nothing at run time: the same arithmetic on capplan quantities and on
// raw doubles, measured in one run (the ratio is the figure in docs/performance.md).
#include <capplan/capplan.hpp>

#include <benchmark/benchmark.h>

#include <vector>

namespace {

using namespace capplan;
using namespace capplan::literals;

constexpr std::size_t kN = 4096;

struct RawInputs {
  std::vector<double> bytes, bandwidth, flops, rate, watts;
  RawInputs() {
    for (std::size_t i = 0; i < kN; ++i) {
      bytes.push_back(1e9 + static_cast<double>(i));
      bandwidth.push_back(1e12 + static_cast<double>(i));
      flops.push_back(1e15 + static_cast<double>(i));
      rate.push_back(1e14 + static_cast<double>(i));
      watts.push_back(300.0 + static_cast<double>(i % 100));
    }
  }
};

const RawInputs& raw() {
  static const RawInputs r;
  return r;
}

// A roofline-style step time: max(compute, memory) plus energy, per element.
void BM_RawDoubles(benchmark::State& state) {
  const auto& in = raw();
  for (auto _ : state) {
    double total_time = 0, total_energy = 0;
    for (std::size_t i = 0; i < kN; ++i) {
      const double t_mem = in.bytes[i] / in.bandwidth[i];
      const double t_cmp = in.flops[i] / in.rate[i];
      const double t = t_mem > t_cmp ? t_mem : t_cmp;
      total_time += t;
      total_energy += in.watts[i] * t;
    }
    benchmark::DoNotOptimize(total_time);
    benchmark::DoNotOptimize(total_energy);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(kN));
}
BENCHMARK(BM_RawDoubles);

void BM_CheckedUnits(benchmark::State& state) {
  const auto& in = raw();
  std::vector<DataSize> bytes;
  std::vector<Bandwidth> bandwidth;
  std::vector<FlopCount> flops;
  std::vector<FlopRate> rate;
  std::vector<Power> watts;
  for (std::size_t i = 0; i < kN; ++i) {
    bytes.push_back(DataSize::from_value(in.bytes[i]));
    bandwidth.push_back(Bandwidth::from_value(in.bandwidth[i]));
    flops.push_back(FlopCount::from_value(in.flops[i]));
    rate.push_back(FlopRate::from_value(in.rate[i]));
    watts.push_back(Power::from_value(in.watts[i]));
  }
  for (auto _ : state) {
    Duration total_time = 0_s;
    Energy total_energy = 0_J;
    for (std::size_t i = 0; i < kN; ++i) {
      const Duration t_mem = bytes[i] / bandwidth[i];
      const Duration t_cmp = flops[i] / rate[i];
      const Duration t = t_mem > t_cmp ? t_mem : t_cmp;
      total_time += t;
      total_energy += watts[i] * t;
    }
    benchmark::DoNotOptimize(total_time);
    benchmark::DoNotOptimize(total_energy);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(kN));
}
BENCHMARK(BM_CheckedUnits);

}  // namespace
