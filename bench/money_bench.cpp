// Exact money throughput: additions and rate x quantity per second.
#include <capplan/capplan.hpp>

#include <benchmark/benchmark.h>

namespace {

using namespace capplan;
using namespace capplan::literals;

void BM_MoneyAdd(benchmark::State& state) {
  const Money step = 0.10_USD;
  Money sum;
  for (auto _ : state) {
    sum += step;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_MoneyAdd);

void BM_DoubleAdd(benchmark::State& state) {
  double sum = 0;
  for (auto _ : state) {
    sum += 0.10;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_DoubleAdd);

// MoneyRate x Duration: the duration enters as an exact decimal (15 significant digits).
void BM_RateTimesDuration(benchmark::State& state) {
  const MoneyRate rate = 2.14_USD / 1_h;
  Duration d = 0.15 * 1_year;
  for (auto _ : state) {
    Money m = rate * d;
    benchmark::DoNotOptimize(m);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_RateTimesDuration);

// EnergyPrice x Energy.
void BM_PriceTimesEnergy(benchmark::State& state) {
  const EnergyPrice price = 0.12_USD / 1_kWh;
  Energy e = 450_W * 0.15 * 1_year;
  for (auto _ : state) {
    Money m = price * e;
    benchmark::DoNotOptimize(m);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_PriceTimesEnergy);

// Decimal x Decimal (exact product, rounded half-even at 12 places).
void BM_DecimalMultiply(benchmark::State& state) {
  const Decimal a("591.3"), b("0.12");
  for (auto _ : state) {
    Decimal c = a * b;
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_DecimalMultiply);

}  // namespace
