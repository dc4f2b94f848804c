// Goodput of a training run: the wall-clock time and GPU-hours a run is expected to take once what is
// not iterations is counted (failures, restarts, the work lost since the last checkpoint, the checkpoint
// writes themselves, evaluation and warm-up), beside the iteration-based time that perf/ estimates.
//
//   GoodputEstimate g = estimate_goodput(54_days, 16384, checkpoint_size(405'000'000'000), GoodputConfig{});
//   g.expected_wall_clock;  g.expected_gpu_hours;  g.goodput;  g.explain();
//
// Model (Daly 2006: failures arrive as a Poisson process and each one stops the whole job, as a single
// failed GPU stops a synchronous data-parallel job; the job restarts from its last checkpoint):
//   job failure rate   λ = failures_per_gpu_hour × GPUs;  job MTBF  M = 1 / λ
//   solve time         T_s = T_iter × (1 + evaluation_share + warmup_share)
//   checkpoint stall   synchronous:  δ = max(C / B_storage, (C / GPUs) / B_host)   (training waits)
//                      asynchronous: δ = (C / GPUs) / B_host, the copy to host memory; the write
//                      C / B_storage goes on in the background (snapshot, then persist: Mohan et al.,
//                      "CheckFreq", FAST '21), and a failure during it rolls back one more interval:
//                      about C / B_storage of work per failure, counted like a longer restart
//   interval           τ = √(2δM) · [1 + ⅓·√(δ/2M) + ⅑·(δ/2M)] − δ  for δ < 2M, else τ = M
//                      (Daly 2006, the higher-order optimum; Young 1974's first-order one is √(2δM))
//   expected wall      T_w = M · e^{R/M} · (e^{(τ+δ)/M} − 1) · T_s / τ
//                      (Daly 2006's complete model; R: restart time, which failures may also strike)
//   failures           N = T_w / M;   GPU-hours = T_w × GPUs;   goodput = T_iter / T_w
// J. T. Daly, "A higher order estimate of the optimum checkpoint interval for restart dumps", Future
// Generation Computer Systems 22(3), 303–312, 2006; J. W. Young, "A first order approximation to the
// optimum checkpoint interval", CACM 17(9), 530–531, 1974. daly_interval() reproduces the optima of
// Daly's Figs. 3–5 (tests/goodput_test.cpp).
//
// The interval is at most the solve time (a run shorter than the optimum checkpoints once, at its end),
// and with asynchronous checkpoints at least the background write (the next snapshot waits for it).
// Given the iteration time, it is a whole number of iterations, at least one: frameworks save between
// iterations, every N of them (Megatron-LM's --save-interval, DeepSpeed's save_checkpoint in the loop).
// With no failures (rate 0) there are no intermediate checkpoints: the run writes one, at its end.
// T_w splits exactly into the iterations, evaluation, warm-up, the successful checkpoint writes, the
// work lost to failures and the restarts (each GoodputEstimate term); see docs/goodput.md.
#pragma once

#include "capplan/error.hpp"
#include "capplan/power/explain.hpp"
#include "capplan/units/format.hpp"
#include "capplan/units/literals.hpp"
#include "capplan/units/quantity.hpp"
#include "capplan/workload/image_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capplan {

// Unexpected interruptions per GPU-hour in Llama 3 405B pre-training: 419 unexpected job
// interruptions (of 466; 47 were planned: maintenance, configuration changes) in a 54-day snapshot on
// up to 16,384 H100 GPUs (Dubey et al. 2024, "The Llama 3 Herd of Models", §3.3.4):
// 419 / (54 d × 24 h × 16,384 GPUs) = 1.973e-5 (if fewer GPUs ran part of the time, the true rate was
// higher). Job MTBF at 16,384 GPUs: 1,296 h / 419 = 3.09 h.
inline constexpr double llama3_failures_per_gpu_hour = 419.0 / (54.0 * 24.0 * 16384.0);

// Bytes a full mixed-precision Adam checkpoint holds per parameter: bf16/fp16 weights (2) + fp32
// master weights (4) + Adam momentum (4) and variance (4) = 14. Rajbhandari et al. 2020 (ZeRO),
// §3.1: 2Ψ + 2Ψ + 12Ψ bytes of model states; the fp16 gradients (2Ψ) are not saved. BLOOM 176B's full
// checkpoint was 2.3 TB (BigScience 2022; 176.2e9 × 14 B = 2.24 TiB).
inline constexpr double adam_checkpoint_bytes_per_param = 14.0;

// Bytes an image model's checkpoint holds per parameter, trained with SGD and momentum (AMP or fp32,
// memory/image_model.hpp): the fp32 weights (4) and the momentum buffer (4) = 8; the gradients are not
// saved. torchvision's reference recipe (references/classification/train.py) saves the model's and the
// optimizer's state_dict, which hold exactly these.
inline constexpr double sgd_checkpoint_bytes_per_param = 8.0;

// A run whose expected wall clock is more than this many times its failure-free time is refused
// (goodput below 1%): the job would, in practice, never finish, and the Poisson model says nothing
// useful there (e^{(τ+δ)/M} grows past any sensible number long before it overflows).
inline constexpr double max_goodput_slowdown = 100.0;

struct GoodputConfig {
  // Job-stopping failures per GPU-hour; default: Llama 3's (above). 0: no failures.
  double failures_per_gpu_hour = llama3_failures_per_gpu_hour;
  // Time from a failure to training again: detect, reschedule, reload the checkpoint. An assumption:
  // the Llama 3 paper gives no figure; 10 min is the restart of Daly 2006's worked examples (Figs. 3–5).
  Duration restart = Duration::from_value(10.0 * scale::minute);
  // Aggregate write bandwidth of the checkpoint storage: the 2 TB/s sustained throughput of the
  // Tectonic file system behind Llama 3 (Dubey et al. 2024, §3.3.1: 240 PB on 7,500 servers, "a
  // sustainable throughput of 2 TB/s and a peak throughput of 7 TB/s"). A shared store for 16K GPUs:
  // small clusters usually have far less.
  Bandwidth storage_write = Bandwidth::from_value(2e12);
  // Per GPU, from GPU memory to host memory. An assumption: 25 GB/s, about 40% of PCIe 5.0 x16's
  // 63 GB/s a direction (32 GT/s × 16 lanes, 128b/130b), for GPUs that share host links and memory.
  Bandwidth host_copy = Bandwidth::from_value(25e9);
  // Asynchronous checkpoints: training stops only for the copy to host memory (CheckFreq, Mohan et
  // al. 2021; PyTorch Distributed Checkpoint's async_save); the write to storage runs beside it.
  bool async_checkpoint = false;
  // Compute time between checkpoints; absent: Daly's optimum (above).
  std::optional<Duration> checkpoint_interval;
  // Time added to the iterations, as a share of the iteration time: evaluation runs and warm-up
  // (start-up, compilation, slow first steps). Each in [0, 1).
  double evaluation_share = 0.0;
  double warmup_share = 0.0;

  // InputError naming the field: a negative rate or restart, a zero bandwidth or interval, a share
  // outside [0, 1). estimate_goodput calls it; so does PurchaseQuery::validate, whose rows would
  // otherwise read every bad config as a run that never finishes.
  void validate() const;
};

struct GoodputEstimate {
  // Inputs.
  Duration ideal_time{};  // the whole run's iteration-based time (iterations only, no failures): JSON time_s
  Duration iteration{};   // one iteration (0: not given, and τ is not rounded to whole iterations)
  int gpus = 0;
  DataSize checkpoint{};
  GoodputConfig config{};

  // The expected wall clock, term by term; these add up to expected_wall_clock.
  Duration evaluation{};      // ideal_time × evaluation_share
  Duration warmup{};          // ideal_time × warmup_share
  Duration checkpointing{};   // checkpoints × checkpoint_stall: the writes that succeed
  Duration lost_work{};       // work (and writes) done since the last checkpoint when a failure struck
  Duration restarting{};      // restarts (a failure during a restart starts it again)
  Duration write_lag_loss{};  // asynchronous only: intervals lost because the latest checkpoint was not yet on storage

  // The model's quantities.
  Duration solve_time{};                // T_s = ideal_time + evaluation + warmup
  std::optional<Duration> job_mtbf;     // M = 1 / (failures_per_gpu_hour × GPUs); absent: no failures
  Duration checkpoint_write{};          // one checkpoint onto storage
  Duration checkpoint_stall{};          // δ: training stopped per checkpoint (the write, or the host copy if async)
  Duration checkpoint_interval{};       // τ: compute between checkpoints
  bool optimal_interval = false;        // τ is Daly's optimum (possibly bounded by the run or the async write, and whole iterations)
  double interval_iterations = 0;       // τ in iterations (each with its share of evaluation and warm-up): whole, ≥ 1 (0: no iteration given, or one checkpoint at the run's end)
  double checkpoints = 0.0;             // T_s / τ, the last one at the end of the run
  double expected_failures = 0.0;       // T_w / M
  Duration expected_wall_clock{};       // T_w: JSON expected_wall_clock_s
  double ideal_gpu_hours = 0.0;         // ideal_time × GPUs
  double expected_gpu_hours = 0.0;      // T_w × GPUs: JSON expected_gpu_hours
  double goodput = 1.0;                 // ideal_time / T_w, in (0, 1]

  std::vector<std::string> explanation;  // one line a term, with its arithmetic
  std::vector<std::string> assumptions;

  [[nodiscard]] std::string explain() const {
    std::string out;
    for (const auto& line : explanation) out += line + "\n";
    for (const auto& a : assumptions) out += "assumes: " + a + "\n";
    return out;
  }
};

// The bytes of a full training checkpoint of `params` parameters: 14 B each by default (bf16 weights,
// fp32 master weights, Adam m and v; see adam_checkpoint_bytes_per_param). Pass the bytes per parameter
// of another optimizer or precision (e.g. 2 for bf16 weights only).
inline DataSize checkpoint_size(std::int64_t params, double bytes_per_param = adam_checkpoint_bytes_per_param) {
  require_positive_count(params, "params");
  require_positive(bytes_per_param, "bytes_per_param");
  // No optimizer keeps more than a few dozen bytes per parameter (Adam with fp32 master weights and
  // gradients: 18); a bound far above that keeps a typo from becoming an infinite checkpoint.
  if (bytes_per_param > 1024) detail::fail("bytes_per_param", detail::format_double(bytes_per_param), "is more than 1024 bytes per parameter");
  return DataSize::from_value(static_cast<double>(params) * bytes_per_param);
}

// The bytes of an image model's training checkpoint: its parameters x sgd_checkpoint_bytes_per_param.
inline DataSize image_checkpoint_size(const ImageModel& net) {
  require_positive(net.parameters, "parameters");
  return DataSize::from_value(net.parameters * sgd_checkpoint_bytes_per_param);
}

// Young 1974: τ = √(2δM), the first-order optimum compute time between checkpoints that take `stall`
// on a job whose mean time between failures is `mtbf`.
// (√2·√δ·√M rather than √(2δM): the product of two durations near a double's limits overflows or
// underflows where the interval itself does not.)
inline Duration young_interval(Duration stall, Duration mtbf) {
  const double d = require_positive(stall.value(), "checkpoint_stall");
  const double m = require_positive(mtbf.value(), "job_mtbf");
  const double t = std::sqrt(2.0) * std::sqrt(d) * std::sqrt(m);
  if (!std::isfinite(t) || !(t > 0)) capplan::detail::fail("checkpoint_stall", capplan::detail::format_double(d), "and job_mtbf give no finite checkpoint interval");
  return Duration::from_value(t);
}

// Daly 2006, the higher-order optimum: τ = √(2δM)·[1 + ⅓√(δ/2M) + ⅑(δ/2M)] − δ for δ < 2M, else τ = M.
inline Duration daly_interval(Duration stall, Duration mtbf) {
  const double d = require_positive(stall.value(), "checkpoint_stall");
  const double m = require_positive(mtbf.value(), "job_mtbf");
  if (d >= 2.0 * m) return mtbf;
  const double x = d / (2.0 * m);
  const double t = young_interval(stall, mtbf).value() * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) - d;
  if (!std::isfinite(t) || !(t > 0)) capplan::detail::fail("checkpoint_stall", capplan::detail::format_double(d), "and job_mtbf give no finite checkpoint interval");
  return Duration::from_value(t);
}

namespace detail {

// e^x − 1 − x without cancellation for small x (the work lost per segment, Daly's model).
inline double expm1_minus_x(double x) {
  if (std::fabs(x) < 1e-4) return x * x * (0.5 + x / 6.0 + x * x / 24.0);
  return std::expm1(x) - x;
}

// ln(e^x − 1) for x > 0, without overflow for large x.
inline double log_expm1(double x) { return x > 30.0 ? x + std::log1p(-std::exp(-x)) : std::log(std::expm1(x)); }

inline void require_share(double v, std::string_view field) {
  require_nonnegative(v, field);
  if (v >= 1.0) detail::fail(field, explain_text::input(v), "is 1 or more; a share of the iteration time must be in [0, 1)");
}

}  // namespace detail

inline void GoodputConfig::validate() const {
  require_nonnegative(failures_per_gpu_hour, "failures_per_gpu_hour");
  require_nonnegative(restart.value(), "restart");
  require_positive(storage_write.value(), "storage_write");
  require_positive(host_copy.value(), "host_copy");
  if (checkpoint_interval) require_positive(checkpoint_interval->value(), "checkpoint_interval");
  detail::require_share(evaluation_share, "evaluation_share");
  detail::require_share(warmup_share, "warmup_share");
}

// The expected wall clock and GPU-hours of a run whose iterations take `ideal_time` on `gpus` GPUs
// and which saves `checkpoint` bytes at each checkpoint (checkpoint_size()). With `iteration` (one
// iteration's time; 0: unknown) the checkpoint interval is a whole number of iterations, at least one,
// as a framework saves between them: a checkpoint cheap enough to want one every few seconds is still
// taken once an iteration at most. Throws InputError naming
// the field on bad input, and naming failures_per_gpu_hour (or checkpoint_interval, when a given
// interval alone is to blame) when the run would take more than max_goodput_slowdown × its
// failure-free time.
inline GoodputEstimate estimate_goodput(Duration ideal_time, int gpus, DataSize checkpoint, const GoodputConfig& config = {},
                                        Duration iteration = {}) {
  using namespace explain_text;
  require_positive(ideal_time.value(), "ideal_time");
  require_finite(iteration.value(), "iteration");
  require_nonnegative(iteration.value(), "iteration");
  require_positive_count(gpus, "gpus");
  require_positive(checkpoint.value(), "checkpoint");
  config.validate();

  GoodputEstimate g;
  g.ideal_time = ideal_time;
  g.iteration = iteration;
  g.gpus = gpus;
  g.checkpoint = checkpoint;
  g.config = config;
  const double n_gpus = static_cast<double>(gpus);

  // Solve time: iterations + evaluation + warm-up, all exposed to failures.
  g.evaluation = ideal_time * config.evaluation_share;
  g.warmup = ideal_time * config.warmup_share;
  g.solve_time = ideal_time + g.evaluation + g.warmup;
  const double ts = g.solve_time.value();

  // Job MTBF: M = 1 / (rate × GPUs); none when the rate is 0 (or so small that M is not finite).
  const double m = scale::hour / (config.failures_per_gpu_hour * n_gpus);
  const bool failures = config.failures_per_gpu_hour > 0 && std::isfinite(m);
  if (failures && !(m > 0)) {
    detail::fail("failures_per_gpu_hour", input(config.failures_per_gpu_hour), "gives a job MTBF of 0 on " + number(n_gpus, 6) + " GPUs");
  }
  if (failures) g.job_mtbf = Duration::from_value(m);

  // One checkpoint: the aggregate write to storage, and each GPU's shard over its host link.
  const DataSize shard = checkpoint / n_gpus;
  const Duration storage_time = checkpoint / config.storage_write;
  const Duration host_time = shard / config.host_copy;
  g.checkpoint_write = std::max(storage_time, host_time);
  // Synchronous: training waits for the whole write. Asynchronous: for the copy to host memory.
  const double snapshot = config.async_checkpoint ? host_time.value() : g.checkpoint_write.value();
  // Asynchronous: the next snapshot cannot begin before the previous write is on storage.
  const double async_floor = config.async_checkpoint ? std::max(0.0, storage_time.value() - snapshot) : 0.0;

  // The interval τ: the one given, or Daly's optimum; at least the async write, at most the run.
  double tau = 0;
  std::string tau_text;
  if (config.checkpoint_interval) {
    tau = config.checkpoint_interval->value();
    tau_text = "checkpoint interval: " + quantity(*config.checkpoint_interval) + " (given)";
  } else {
    g.optimal_interval = true;
    if (failures) {
      const Duration opt = daly_interval(Duration::from_value(snapshot), *g.job_mtbf);
      tau = opt.value();
      if (snapshot >= 2.0 * m) {
        tau_text = "checkpoint interval: the job MTBF, " + quantity(opt) + ", as the stall " + quantity(Duration::from_value(snapshot)) +
                   " is at least 2 × MTBF (Daly 2006)";
      } else {
        const double x = snapshot / (2.0 * m);
        tau_text = "checkpoint interval: √(2 × " + quantity(Duration::from_value(snapshot)) + " × " + quantity(*g.job_mtbf) + ") × " +
                   number(1.0 + std::sqrt(x) / 3.0 + x / 9.0, 5) + " − " + quantity(Duration::from_value(snapshot)) + " = " +
                   quantity(opt) + " (Daly 2006 optimum; Young 1974: " +
                   quantity(young_interval(Duration::from_value(snapshot), *g.job_mtbf)) + ")";
      }
      if (tau < async_floor) {
        tau = async_floor;
        tau_text += ", raised to " + quantity(Duration::from_value(tau)) + " so that each background write ends before the next snapshot";
      }
    } else {
      tau = ts;
      tau_text = "checkpoint interval: none needed without failures; one checkpoint, at the end of the run";
    }
  }
  // Whole iterations, at least one: the nearest count of iterations, each with its share of the
  // evaluation and warm-up (τ is solve time), raised to the next count where the async write set τ.
  // A count beyond 2^53 (a vanishing iteration) leaves τ continuous, which it then is to the last bit.
  if (const double it = iteration.value() * (ts / ideal_time.value()); it > 0 && tau < ts && tau / it < 0x1p53) {
    double k = std::max(1.0, std::round(tau / it));
    const bool raised = !config.checkpoint_interval && k * it < async_floor;
    if (raised) k = std::ceil(async_floor / it);
    const std::string shares = config.evaluation_share > 0 || config.warmup_share > 0 ? ", with its share of evaluation and warm-up" : "";
    const std::string count = number(k, 16) + (k == 1 ? " iteration" : " iterations");
    if (k * it >= ts) {
      tau = ts;  // as long as the run: its one checkpoint, at the end
      tau_text += "; " + count + " (" + quantity(Duration::from_value(it)) + (k == 1 ? "" : " each") + shares + ") reach the run's end (" +
                  quantity(g.solve_time) + "): one checkpoint, at its end";
    } else {
      if (k * it != tau) {
        tau_text += k == 1 ? "; one iteration (" + quantity(Duration::from_value(it)) + shares + ")"
                           : std::string(raised ? "; raised to " : "; rounded to ") + count + " (" + quantity(Duration::from_value(it)) + " each" +
                                 shares + ") = " + quantity(Duration::from_value(k * it));
        tau_text += ": checkpoints are taken between iterations";
      }
      tau = k * it;
      g.interval_iterations = k;
    }
  }
  if (tau > ts) {
    g.interval_iterations = 0;
    if (failures || config.checkpoint_interval) {
      tau_text += "; longer than the run (" + quantity(g.solve_time) + "): one checkpoint, at its end";
    }
    tau = ts;
  }
  g.checkpoint_interval = Duration::from_value(tau);
  // The stall per checkpoint: async snapshots also wait for the previous write when τ is shorter.
  const double delta = config.async_checkpoint ? std::max(snapshot, storage_time.value() - tau) : snapshot;
  g.checkpoint_stall = Duration::from_value(delta);
  if (delta > snapshot) {
    tau_text += "; each snapshot also waits " + quantity(Duration::from_value(delta - snapshot)) + " for the previous background write";
  }
  const double segments = ts / tau;
  g.checkpoints = segments;

  // Asynchronous: a failure while the latest checkpoint is still being written loses one more
  // interval (probability ≈ write / (τ + δ), cost τ + δ): about one write time per failure, spent like
  // a longer restart.
  const double lag = config.async_checkpoint ? storage_time.value() : 0.0;
  const double restart = config.restart.value();
  const double phase = restart + lag;

  // A given interval so short that the checkpoint stalls alone exceed the bound is refused as such.
  if (config.checkpoint_interval && (tau + delta) / tau > max_goodput_slowdown) {
    detail::fail("checkpoint_interval", quantity(*config.checkpoint_interval),
                 "is too short: checkpoint stalls of " + quantity(Duration::from_value(delta)) + " after every " +
                     quantity(Duration::from_value(tau)) + (g.interval_iterations > 0 && tau != config.checkpoint_interval->value()
                                                                ? " (" + number(g.interval_iterations, 16) +
                                                                      (g.interval_iterations == 1 ? " whole iteration)" : " whole iterations)")
                                                                : std::string()) +
                     " of work alone make the run more than " + number(max_goodput_slowdown, 3) +
                     " × slower than its iterations");
  }

  double wall = 0;
  if (!failures) {
    // No failures: the iterations and the checkpoint writes only, within the same bound.
    if (!(ts + segments * delta <= max_goodput_slowdown * ts))
      detail::fail("checkpoint_stall", quantity(Duration::from_value(delta)),
                   "is too long for this run: checkpoint writes would make it more than " + number(max_goodput_slowdown, 3) +
                       " × slower than its iterations (goodput below " + percent(1.0 / max_goodput_slowdown) + ")");
    wall = ts + segments * delta;
    g.checkpointing = Duration::from_value(segments * delta);
  } else {
    // Daly's T_w = M e^{R/M} (e^{(τ+δ)/M} − 1) T_s / τ, refused when it exceeds the bound (in logs,
    // so that no exponential overflows on the way).
    const double a = (tau + delta) / m;
    const double b = phase / m;
    const double log_slowdown = b + detail::log_expm1(a) + std::log(m / tau);
    if (!(log_slowdown <= std::log(max_goodput_slowdown))) {
      const std::string why = "is too high for this run: the expected wall clock would be more than " + number(max_goodput_slowdown, 3) +
                              " × the failure-free time (goodput below " + percent(1.0 / max_goodput_slowdown) +
                              "): with a job MTBF of " + quantity(*g.job_mtbf) + " on " + number(n_gpus, 6) + " GPUs, a " +
                              quantity(Duration::from_value(delta)) + " checkpoint stall every " + quantity(Duration::from_value(tau)) +
                              " and a " + quantity(config.restart) + " restart, the run would never finish";
      detail::fail("failures_per_gpu_hour", input(config.failures_per_gpu_hour), why);
    }
    // Per segment of τ + δ, exactly (exponential failures): e^a − 1 failed attempts, each losing the
    // time it had run (together M (e^a − 1) − (τ + δ)), each followed by a restart phase of expected
    // length M (e^b − 1); T_w = segments × M e^b (e^a − 1).
    const double fails = std::expm1(a);
    const double lost = m * detail::expm1_minus_x(a);
    const double restarts = m * fails * std::expm1(b);
    g.checkpointing = Duration::from_value(segments * delta);
    g.lost_work = Duration::from_value(segments * lost);
    const double restarting = segments * restarts;
    g.restarting = Duration::from_value(phase > 0 ? restarting * restart / phase : 0.0);
    g.write_lag_loss = Duration::from_value(phase > 0 ? restarting * lag / phase : 0.0);
    wall = segments * (tau + delta + lost + restarts);
    g.expected_failures = segments * fails * std::exp(b);
  }
  if (!std::isfinite(wall)) detail::fail("ideal_time", quantity(ideal_time), "gives an expected wall clock that is not finite");
  g.expected_wall_clock = Duration::from_value(wall);
  g.ideal_gpu_hours = ideal_time.value() * n_gpus / scale::hour;
  g.expected_gpu_hours = wall * n_gpus / scale::hour;
  g.goodput = ideal_time.value() / wall;

  // The explanation, one line a term.
  auto& e = g.explanation;
  auto dur = [](double s) { return quantity(Duration::from_value(s)); };
  e.push_back("iterations: " + quantity(ideal_time) + " (the iteration-based time, without failures)");
  if (config.evaluation_share > 0) {
    e.push_back("evaluation: " + quantity(ideal_time) + " × " + number(config.evaluation_share, 4) + " = " + quantity(g.evaluation));
  }
  if (config.warmup_share > 0) {
    e.push_back("warm-up: " + quantity(ideal_time) + " × " + number(config.warmup_share, 4) + " = " + quantity(g.warmup));
  }
  if (failures) {
    e.push_back("job MTBF: 1 / (" + number(config.failures_per_gpu_hour, 4) + " failures per GPU-hour × " + number(n_gpus, 6) +
                " GPUs) = " + quantity(*g.job_mtbf));
  } else {
    e.push_back("job MTBF: no failures (failures_per_gpu_hour = 0)");
  }
  const std::string shard_text = quantity(checkpoint) + " / " + number(n_gpus, 6) + " GPUs = " + quantity(shard) + " a GPU / " +
                                 quantity(config.host_copy) + " to host memory = " + quantity(host_time);
  const std::string storage_text = quantity(checkpoint) + " / " + quantity(config.storage_write) + " storage = " + quantity(storage_time);
  if (config.async_checkpoint) {
    e.push_back("checkpoint (asynchronous): training stops for " + shard_text + "; the write " + storage_text +
                " goes on in the background");
  } else {
    e.push_back("checkpoint (synchronous, training waits): " + (storage_time >= host_time ? storage_text : shard_text) +
                (storage_time >= host_time ? " (the host copy, " + quantity(host_time) + ", is faster)"
                                           : " (storage, " + quantity(storage_time) + ", is faster)"));
  }
  e.push_back(tau_text);
  e.push_back("checkpoints: " + quantity(g.solve_time) + " / " + quantity(g.checkpoint_interval) + " = " + number(segments, 4) + " × " +
              dur(delta) + " = " + quantity(g.checkpointing));
  if (failures) {
    e.push_back("failures: " + quantity(g.expected_wall_clock) + " / " + quantity(*g.job_mtbf) + " = " + number(g.expected_failures, 4) +
                " expected");
    const double per_failure = g.expected_failures > 0 ? 1.0 / g.expected_failures : 0.0;
    e.push_back("restarts: " + number(g.expected_failures, 4) + " × " + dur(g.restarting.value() * per_failure) + " = " +
                quantity(g.restarting) + " (" + quantity(config.restart) + " each; a restart cut short by the next failure is counted up to it)");
    if (config.async_checkpoint) {
      e.push_back("write lag: " + number(g.expected_failures, 4) + " × " + dur(g.write_lag_loss.value() * per_failure) + " = " +
                  quantity(g.write_lag_loss) + " (a failure during a background write rolls back one more interval)");
    }
    e.push_back("lost work: " + number(g.expected_failures, 4) + " × " + dur(g.lost_work.value() * per_failure) + " = " +
                quantity(g.lost_work) + " (the work since the last checkpoint; about half an interval a failure)");
    e.push_back("expected wall clock: M·e^(R/M)·(e^((τ+δ)/M) − 1)·T_s/τ = " + quantity(g.expected_wall_clock) + " (Daly 2006)");
  } else {
    e.push_back("expected wall clock: " + quantity(g.solve_time) + " + " + quantity(g.checkpointing) + " = " + quantity(g.expected_wall_clock));
  }
  e.push_back("goodput: " + quantity(ideal_time) + " / " + quantity(g.expected_wall_clock) + " = " + percent(g.goodput));
  e.push_back("GPU-hours: " + quantity(g.expected_wall_clock) + " × " + number(n_gpus, 6) + " GPUs = " + number(g.expected_gpu_hours, 4) +
              " (iterations only: " + number(g.ideal_gpu_hours, 4) + ")");

  auto& as = g.assumptions;
  if (failures) {
    as.push_back("failures arrive at random (Poisson) and each stops the whole job, which restarts from its last checkpoint");
  }
  as.push_back("the checkpoint is sharded evenly over the " + number(n_gpus, 6) + " GPUs");
  return g;
}

}  // namespace capplan
