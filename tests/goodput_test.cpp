// Goodput of a training run (plan/goodput.hpp): checkpoint size, Young's and Daly's optimum intervals,
// Daly's expected wall clock (against the paper's figures and a simulation of the process it models),
// the Llama 3 sanity case, the limits and monotonicity, and bad input.
#include "test_support.hpp"

#include "capplan/plan/goodput.hpp"
#include "capplan/units/literals.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace capplan;
using namespace capplan::literals;

namespace {

using capplan::test_support::field_of;

template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// Llama 3 405B pre-training (Dubey et al. 2024, §3.3.4): the 54-day snapshot on 16,384 H100 GPUs.
const DataSize llama3_405b_checkpoint = checkpoint_size(405'000'000'000);

GoodputEstimate with_interval(Duration ideal, int gpus, DataSize ckpt, GoodputConfig c, Duration tau) {
  c.checkpoint_interval = tau;
  return estimate_goodput(ideal, gpus, ckpt, c);
}

double sum_of_terms(const GoodputEstimate& g) {
  return (g.ideal_time + g.evaluation + g.warmup + g.checkpointing + g.lost_work + g.restarting + g.write_lag_loss).value();
}

bool has_line(const GoodputEstimate& g, const std::string& text) {
  for (const auto& l : g.explanation) {
    if (l.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_SUITE("goodput") {
  TEST_CASE("checkpoint size: 14 bytes a parameter (ZeRO §3.1: 2 + 12, gradients not saved)") {
    // Llama 3 405B: 405e9 × 14 B = 5.67 TB.
    CHECK(checkpoint_size(405'000'000'000).value() == doctest::Approx(5.67e12));
    // BLOOM 176B (176,247M parameters; BigScience 2022): "only the bf16 weights are 329GB, the full
    // checkpoint with optimizer states is 2.3TB". Its "GB" are GiB: 176.247e9 × 2 B = 328.3 GiB
    // (0.2% off 329); the full checkpoint, 176.247e9 × 14 B = 2.244 TiB, is 2.4% under 2.3 TiB
    // (tolerance 3%: what else the checkpoint holds, e.g. RNG and data-loader state, is not modelled).
    CHECK(in(checkpoint_size(176'247'000'000, 2.0), "GiB") == doctest::Approx(329.0).epsilon(0.005));
    CHECK(in(checkpoint_size(176'247'000'000), "TiB") == doctest::Approx(2.3).epsilon(0.03));
    CHECK(field_of([] { (void)checkpoint_size(0); }) == "params");
    CHECK(field_of([] { (void)checkpoint_size(-7); }) == "params");
    CHECK(field_of([] { (void)checkpoint_size(1000, 0.0); }) == "bytes_per_param");
    CHECK(field_of([] { (void)checkpoint_size(1000, std::nan("")); }) == "bytes_per_param");
    // Found by the Python API fuzz: 2^31 - 1 parameters at 1e300 B each was an infinite checkpoint.
    CHECK(field_of([] { (void)checkpoint_size(2147483647, 1e300); }) == "bytes_per_param");
    CHECK(std::isfinite(checkpoint_size(2147483647, 1024).value()));
  }

  TEST_CASE("Young's interval: sqrt(2 delta M)") {
    // δ = 60 s, M = 10 h = 36,000 s: √(2 × 60 × 36,000) = √4,320,000 = 2,078.46 s (34.64 min).
    CHECK(young_interval(60_s, 10_h).value() == doctest::Approx(2078.461).epsilon(1e-6));
    // Daly's higher order for the same: x = δ/2M = 1/1,200; 2,078.461 × (1 + √x/3 + x/9) − 60
    // = 2,078.461 × 1.0097151 − 60 = 2,038.65 s.
    CHECK(daly_interval(60_s, 10_h).value() == doctest::Approx(2038.65).epsilon(1e-5));
    CHECK(field_of([] { (void)young_interval(0_s, 10_h); }) == "checkpoint_stall");
    CHECK(field_of([] { (void)daly_interval(60_s, 0_s); }) == "job_mtbf");
    // Near a double's limits: the product δM overflows (1e500) or underflows, the interval does not.
    CHECK(young_interval(Duration::from_value(1e300), Duration::from_value(1e300)).value() == doctest::Approx(std::sqrt(2.0) * 1e300));
    CHECK(std::isfinite(daly_interval(Duration::from_value(1e200), Duration::from_value(1e300)).value()));
    CHECK(young_interval(Duration::from_value(5e-324), Duration::from_value(5e-324)).value() > 0);
    CHECK(field_of([] { (void)daly_interval(Duration::from_value(5e-324), Duration::from_value(5e-324)); }) == "checkpoint_stall");
  }

  TEST_CASE("Daly's optimum reproduces the paper's Figs. 3-5 (delta = 5 min, R = 10 min)") {
    // Daly 2006, Figs. 3–5: "The new model predicts τopt = 117 min" (M = 24 h), "57 min" (M = 6 h),
    // "9.1 min" (M = 15 min). Tolerance: the paper's rounding.
    CHECK(daly_interval(5_min, 24_h).value() / 60 == doctest::Approx(117).epsilon(0.5 / 117));
    CHECK(daly_interval(5_min, 6_h).value() / 60 == doctest::Approx(57).epsilon(0.5 / 57));
    CHECK(daly_interval(5_min, 15_min).value() / 60 == doctest::Approx(9.1).epsilon(0.05 / 9.1));
    // A stall of 2 M or more: checkpoint once per MTBF (Daly 2006).
    CHECK(daly_interval(30_min, 15_min).value() == doctest::Approx(15 * 60.0));
  }

  TEST_CASE("the expected wall clock matches a simulation of Poisson failures (Daly's Fig. 4 case)") {
    // M = 6 h, δ = 5 min, R = 10 min, T_s = 500 h (Daly's Fig. 4), τ = 60 min: 500 segments.
    // Model: T_w = M e^{R/M} (e^{(τ+δ)/M} − 1) T_s/τ = 21,600 s × e^{1/36} × (e^{65/360} − 1) × 500
    //      = 21,600 × 1.028168 × 0.197899 × 500 = 2.1975e6 s = 610.4 h.
    GoodputConfig c;
    c.failures_per_gpu_hour = 1.0 / 6.0;  // one GPU: M = 6 h
    c.restart = 10_min;
    c.storage_write = Bandwidth::from_value(1e9);
    c.host_copy = Bandwidth::from_value(1e12);
    const DataSize ckpt = DataSize::from_value(300e9);  // 300 GB / 1 GB/s = 5 min
    const GoodputEstimate g = with_interval(500_h, 1, ckpt, c, 60_min);
    CHECK(g.checkpoint_stall.value() == doctest::Approx(300.0));
    CHECK(g.expected_wall_clock.value() == doctest::Approx(21600.0 * std::exp(1.0 / 36) * std::expm1(65.0 / 360) * 500));
    CHECK(g.expected_wall_clock.value() / 3600 == doctest::Approx(610.4).epsilon(1e-3));

    // Simulation of the process the model describes: each segment of τ + δ is retried until it runs
    // without failure; every failure is followed by a restart of R, itself retried if a failure
    // strikes it. 400 runs (about 45,000 failures): the standard error of the mean is ~0.1%;
    // tolerance 1%. Fixed seed: the test is deterministic on one standard library.
    std::mt19937_64 rng(20240723);
    std::exponential_distribution<double> next_failure(1.0 / 21600.0);
    const double seg = 3900.0, restart = 600.0;
    double total = 0;
    const int runs = 400;
    for (int r = 0; r < runs; ++r) {
      double wall = 0;
      for (int s = 0; s < 500; ++s) {
        for (;;) {
          const double t = next_failure(rng);
          if (t >= seg) {
            wall += seg;
            break;
          }
          wall += t;
          for (;;) {
            const double u = next_failure(rng);
            if (u >= restart) {
              wall += restart;
              break;
            }
            wall += u;
          }
        }
      }
      total += wall;
    }
    CHECK(total / runs == doctest::Approx(g.expected_wall_clock.value()).epsilon(0.01));
  }

  TEST_CASE("Llama 3 405B on 16,384 H100: goodput above 90% (the paper's 'over 90% effective training time')") {
    // Dubey et al. 2024, §3.3.4: 419 unexpected interruptions in 54 days on 16,384 H100; ">90%
    // effective training time". Defaults: that failure rate, 10 min restarts, 2 TB/s storage (§3.3.1),
    // synchronous checkpoints of 405e9 × 14 B = 5.67 TB (2.835 s a write).
    const GoodputEstimate g = estimate_goodput(54_days, 16384, llama3_405b_checkpoint, GoodputConfig{});
    CHECK(g.goodput > 0.90);
    CHECK(g.goodput < 1.0);
    CHECK(g.goodput == doctest::Approx(0.9263).epsilon(1e-3));  // regression: docs/goodput.md shows it
    // Job MTBF: 54 × 24 h / 419 = 3.093 h.
    REQUIRE(g.job_mtbf);
    CHECK(g.job_mtbf->value() / 3600 == doctest::Approx(54.0 * 24 / 419));
    // Failures come at one per MTBF of wall clock: 419 in every 54 days of it.
    CHECK(g.expected_failures / (g.expected_wall_clock.value() / (54 * 86400.0)) == doctest::Approx(419.0));
    CHECK(g.checkpoint_write.value() == doctest::Approx(2.835));
    CHECK(g.checkpoint_stall.value() == doctest::Approx(2.835));
    CHECK(g.optimal_interval);
    // Lost work per failure that strikes the work (a share e^{-R/M} of them; the rest strike a restart
    // and lose none): about half an interval and its write, (τ + δ)/2 for τ << M (2%).
    const double work_failures = g.expected_failures * std::exp(-600.0 / g.job_mtbf->value());
    CHECK(g.lost_work.value() / work_failures ==
          doctest::Approx((g.checkpoint_interval.value() + g.checkpoint_stall.value()) / 2).epsilon(0.02));
    // GPU-hours: the wall clock × GPUs.
    CHECK(g.expected_gpu_hours == doctest::Approx(g.expected_wall_clock.value() * 16384 / 3600));
    CHECK(g.ideal_gpu_hours == doctest::Approx(54.0 * 24 * 16384));
    CHECK(g.expected_gpu_hours > g.ideal_gpu_hours);
    // The terms add up to the wall clock, exactly.
    CHECK(sum_of_terms(g) == doctest::Approx(g.expected_wall_clock.value()).epsilon(1e-12));
    // Every term is explained with its numbers.
    CHECK(has_line(g, "job MTBF: 1 / (1.973e-05 failures per GPU-hour × 16,384 GPUs) = 3.093 h"));
    CHECK(has_line(g, "5.67 TB / 2 TB/s storage = 2.835 s"));
    CHECK(has_line(g, "(Daly 2006 optimum; Young 1974:"));
    CHECK(has_line(g, "goodput: 54 days / 58.3 days = 92.63%"));
    CHECK(has_line(g, "restarts: "));
    CHECK(has_line(g, "lost work: "));
    CHECK(g.explain().find("assumes: failures arrive at random (Poisson)") != std::string::npos);
    // docs/goodput.md shows this text verbatim as the worked example.
    CHECK(g.explain() ==
          "iterations: 54 days (the iteration-based time, without failures)\n"
          "job MTBF: 1 / (1.973e-05 failures per GPU-hour × 16,384 GPUs) = 3.093 h\n"
          "checkpoint (synchronous, training waits): 5.67 TB / 2 TB/s storage = 2.835 s (the host copy, 13.84 ms, is faster)\n"
          "checkpoint interval: √(2 × 2.835 s × 3.093 h) × 1.0038 − 2.835 s = 4.156 min (Daly 2006 optimum; Young 1974: 4.188 min)\n"
          "checkpoints: 54 days / 4.156 min = 18,710 × 2.835 s = 14.73 h\n"
          "failures: 58.3 days / 3.093 h = 452.3 expected\n"
          "restarts: 452.3 × 9.735 min = 3.058 days (10 min each; a restart cut short by the next failure is counted up to it)\n"
          "lost work: 452.3 × 1.984 min = 14.96 h (the work since the last checkpoint; about half an interval a failure)\n"
          "expected wall clock: M·e^(R/M)·(e^((τ+δ)/M) − 1)·T_s/τ = 58.3 days (Daly 2006)\n"
          "goodput: 54 days / 58.3 days = 92.63%\n"
          "GPU-hours: 58.3 days × 16,384 GPUs = 22,920,000 (iterations only: 21,230,000)\n"
          "assumes: failures arrive at random (Poisson) and each stops the whole job, which restarts from its last checkpoint\n"
          "assumes: the checkpoint is sharded evenly over the 16,384 GPUs\n");
  }

  TEST_CASE("the optimal interval beats half and twice itself, and the numerical minimum") {
    const GoodputConfig c;
    const GoodputEstimate opt = estimate_goodput(54_days, 16384, llama3_405b_checkpoint, c);
    const Duration tau = opt.checkpoint_interval;
    const double half = with_interval(54_days, 16384, llama3_405b_checkpoint, c, tau * 0.5).expected_wall_clock.value();
    const double twice = with_interval(54_days, 16384, llama3_405b_checkpoint, c, tau * 2.0).expected_wall_clock.value();
    CHECK(opt.expected_wall_clock.value() < half);
    CHECK(opt.expected_wall_clock.value() < twice);
    // A given interval equal to the optimum gives the same estimate.
    CHECK(with_interval(54_days, 16384, llama3_405b_checkpoint, c, tau).expected_wall_clock.value() ==
          doctest::Approx(opt.expected_wall_clock.value()));
    // Golden-section search for the minimum of T_w(τ) over [τ/4, 4τ]: Daly's estimate is within 1%
    // of it and its T_w within 1e-5.
    auto wall = [&](double t) {
      return with_interval(54_days, 16384, llama3_405b_checkpoint, c, Duration::from_value(t)).expected_wall_clock.value();
    };
    double lo = tau.value() / 4, hi = tau.value() * 4;
    const double phi = (std::sqrt(5.0) - 1) / 2;
    for (int i = 0; i < 100; ++i) {
      const double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
      if (wall(a) < wall(b)) hi = b;
      else lo = a;
    }
    const double best = (lo + hi) / 2;
    CHECK(tau.value() == doctest::Approx(best).epsilon(0.01));
    CHECK(opt.expected_wall_clock.value() == doctest::Approx(wall(best)).epsilon(1e-5));
  }

  TEST_CASE("no failures: iterations plus the checkpoint writes, and one checkpoint at the end") {
    GoodputConfig c;
    c.failures_per_gpu_hour = 0;
    // 7B model on 8 GPUs: 98 GB, 12.25 GB a GPU / 25 GB/s = 490 ms (the host copy is slower than the
    // 98 GB / 2 TB/s = 49 ms write to storage).
    const DataSize ckpt = checkpoint_size(7'000'000'000);
    const GoodputEstimate g = estimate_goodput(10_days, 8, ckpt, c);
    CHECK_FALSE(g.job_mtbf);
    CHECK(g.expected_failures == 0);
    CHECK(g.checkpoints == doctest::Approx(1.0));
    CHECK(g.checkpoint_interval.value() == doctest::Approx(10 * 86400.0));
    CHECK(g.checkpoint_stall.value() == doctest::Approx(0.49));
    CHECK(g.expected_wall_clock.value() == doctest::Approx(10 * 86400.0 + 0.49));
    CHECK(g.lost_work.value() == 0);
    CHECK(g.restarting.value() == 0);
    CHECK(g.goodput == doctest::Approx(864000.0 / 864000.49));
    CHECK(has_line(g, "none needed without failures; one checkpoint, at the end of the run"));
    // Without failures the checkpoint writes are bounded too: a store so slow that the final write
    // alone takes 100 times the iterations is refused, naming the stall (it gave 2,990 years).
    GoodputConfig crawl = c;
    crawl.storage_write = Bandwidth::from_value(1.0);
    crawl.host_copy = Bandwidth::from_value(1.0);
    CHECK(field_of([&] { (void)estimate_goodput(10_days, 8, ckpt, crawl); }) == "checkpoint_stall");
    // A given interval: T_s (1 + δ/τ): 240 hourly checkpoints × 0.49 s.
    const GoodputEstimate h = with_interval(10_days, 8, ckpt, c, 1_h);
    CHECK(h.checkpoints == doctest::Approx(240.0));
    CHECK(h.expected_wall_clock.value() == doctest::Approx(864000.0 + 240 * 0.49));
    CHECK(sum_of_terms(h) == doctest::Approx(h.expected_wall_clock.value()));
    // The limit is continuous: a vanishing rate gives the same answer as none.
    c.failures_per_gpu_hour = 1e-15;
    const GoodputEstimate tiny = estimate_goodput(10_days, 8, ckpt, c);
    CHECK(tiny.job_mtbf);
    CHECK(tiny.expected_wall_clock.value() == doctest::Approx(g.expected_wall_clock.value()).epsilon(1e-9));
    c.failures_per_gpu_hour = 1e-300;  // M = 4.5e302 s: finite, and no inf or NaN on the way
    const GoodputEstimate tinier = estimate_goodput(10_days, 8, ckpt, c);
    CHECK(tinier.expected_wall_clock.value() == doctest::Approx(g.expected_wall_clock.value()).epsilon(1e-12));
    CHECK(std::isfinite(tinier.expected_gpu_hours));
  }

  TEST_CASE("with the iteration given, the interval is whole iterations, at least one") {
    // Daly's optimum for Llama 3 405B on 16,384 GPUs is about 4.2 min (above); with 7.3 s iterations
    // (the step of Meta's run: 16M tokens at ~2.3M tokens/s) it becomes the nearest whole count, 34.
    const Duration it = Duration::from_value(7.3);
    const GoodputEstimate free = estimate_goodput(54_days, 16384, llama3_405b_checkpoint);
    const GoodputEstimate whole = estimate_goodput(54_days, 16384, llama3_405b_checkpoint, GoodputConfig{}, it);
    const double k = whole.checkpoint_interval.value() / it.value();
    CHECK(k == doctest::Approx(std::round(k)).epsilon(1e-12));
    CHECK(whole.interval_iterations == doctest::Approx(k));
    CHECK(std::abs(whole.checkpoint_interval.value() - free.checkpoint_interval.value()) <= it.value() / 2);
    CHECK(has_line(whole, "; rounded to 34 iterations (7.3 s each) = 4.137 min: checkpoints are taken between iterations"));
    CHECK(sum_of_terms(whole) == doctest::Approx(whole.expected_wall_clock.value()));
    // Daly's optimum is flat: half an iteration off it changes the wall clock by far less than 0.01 %.
    CHECK(whole.expected_wall_clock.value() == doctest::Approx(free.expected_wall_clock.value()).epsilon(1e-4));
    CHECK(free.interval_iterations == 0);

    // A checkpoint so small that the optimum is shorter than one iteration (a 1M-parameter model:
    // 14 MB, a stall of 7 us, an optimum of 0.22 s against 60 s iterations) is still taken
    // once an iteration at most, not several times within one.
    GoodputConfig flaky;
    flaky.failures_per_gpu_hour = 1e-3;
    const DataSize small = checkpoint_size(1'000'000);
    const GoodputEstimate cont = estimate_goodput(10_days, 1024, small, flaky);
    REQUIRE(cont.checkpoint_interval.value() < 60.0);
    const GoodputEstimate once = estimate_goodput(10_days, 1024, small, flaky, 60_s);
    CHECK(once.checkpoint_interval.value() == doctest::Approx(60.0));
    CHECK(once.interval_iterations == 1);
    CHECK(once.checkpoints == doctest::Approx(10 * 86400.0 / 60.0));
    CHECK(has_line(once, "; one iteration (1 min): checkpoints are taken between iterations"));
    CHECK(once.expected_wall_clock > cont.expected_wall_clock);  // more work lost per failure
    CHECK(sum_of_terms(once) == doctest::Approx(once.expected_wall_clock.value()));

    // A given interval shorter than one iteration is one iteration; a longer one the nearest count.
    const GoodputEstimate given = with_interval(10_days, 8, small, flaky, 10_s);
    GoodputConfig g10 = flaky;
    g10.checkpoint_interval = 10_s;
    CHECK(estimate_goodput(10_days, 8, small, g10, 60_s).checkpoint_interval.value() == doctest::Approx(60.0));
    g10.checkpoint_interval = 1_h;
    CHECK(estimate_goodput(10_days, 8, small, g10, Duration::from_value(7.0)).checkpoint_interval.value() == doctest::Approx(514 * 7.0));
    CHECK(given.checkpoint_interval.value() == doctest::Approx(10.0));

    // Asynchronous: rounding never brings the next snapshot before the previous write is on storage.
    GoodputConfig async;
    async.async_checkpoint = true;
    async.storage_write = Bandwidth::from_value(10e9);  // 5.67 TB at 10 GB/s: 567 s in the background
    const GoodputEstimate a = estimate_goodput(54_days, 16384, llama3_405b_checkpoint, async, Duration::from_value(130.0));
    CHECK(a.checkpoint_interval.value() >= 567.0);
    CHECK(a.checkpoint_interval.value() == doctest::Approx(650.0));  // 4.36 iterations: 5, not 4 (520 s)
    CHECK(has_line(a, "; raised to 5 iterations (2.167 min each) = 10.83 min"));

    // Given, on an asynchronous run, the interval is the nearest whole count, not raised to the write:
    // the next snapshot waits for the previous write instead (the stall says so).
    GoodputConfig async_given = async;
    async_given.checkpoint_interval = 1_min;
    const GoodputEstimate ag = estimate_goodput(54_days, 16384, llama3_405b_checkpoint, async_given, Duration::from_value(7.0));
    CHECK(ag.checkpoint_interval.value() == doctest::Approx(63.0));  // 8.57 iterations: 9
    CHECK(ag.checkpoint_stall.value() == doctest::Approx(567.0 - 63.0).epsilon(1e-3));
    CHECK(has_line(ag, "also waits"));

    // Evaluation and warm-up are spread over the iterations: N iterations apart means T_iter / (N t)
    // checkpoints, however large the shares.
    GoodputConfig shares = flaky;
    shares.evaluation_share = 0.5;
    shares.warmup_share = 0.4;
    const GoodputEstimate sh = estimate_goodput(10_days, 1024, small, shares, 60_s);
    CHECK(sh.interval_iterations == 1);
    CHECK(sh.checkpoints == doctest::Approx(10 * 86400.0 / 60.0));
    CHECK(sh.checkpoint_interval.value() == doctest::Approx(60.0 * 1.9));
    CHECK(has_line(sh, "; one iteration (1.9 min, with its share of evaluation and warm-up)"));
    // ... and with more than one iteration between checkpoints: Llama 3's optimum, 4.156 min, over
    // iterations of 7.3 s × 1.9 = 13.87 s is 17.98: 18 of them.
    GoodputConfig llama_shares;
    llama_shares.evaluation_share = 0.5;
    llama_shares.warmup_share = 0.4;
    const GoodputEstimate lsh = estimate_goodput(54_days, 16384, llama3_405b_checkpoint, llama_shares, Duration::from_value(7.3));
    CHECK(lsh.interval_iterations == 18);
    CHECK(lsh.checkpoint_interval.value() == doctest::Approx(18 * 7.3 * 1.9));
    CHECK(lsh.checkpoints == doctest::Approx(54 * 86400.0 / (18 * 7.3)));
    CHECK(has_line(lsh, "; rounded to 18 iterations (13.87 s each, with its share of evaluation and warm-up) = 4.161 min"));

    // A given interval too short for its stalls is refused, naming the whole iterations it became.
    GoodputConfig crawl;
    crawl.failures_per_gpu_hour = 0;
    crawl.storage_write = Bandwidth::from_value(0.5e9);  // 5.67 TB at 0.5 GB/s: 189 min a write, 190 x one iteration
    crawl.checkpoint_interval = 1_s;
    const std::string too_short = message_of([&] { (void)estimate_goodput(54_days, 16384, llama3_405b_checkpoint, crawl, 1_min); });
    CHECK(too_short.find("checkpoint_interval: 1 s is too short") != std::string::npos);
    CHECK(too_short.find("after every 1 min (1 whole iteration) of work") != std::string::npos);

    // An optimum shorter than the run whose whole iterations are not: one checkpoint, at its end.
    GoodputConfig very_flaky;
    very_flaky.failures_per_gpu_hour = 0.01;  // 8 GPUs: M = 12.5 h; τ = √(2 × 0.49 s × M) − δ ≈ 209.7 s
    const Duration run_time = Duration::from_value(220.0);
    REQUIRE(estimate_goodput(run_time, 8, checkpoint_size(7'000'000'000), very_flaky).checkpoint_interval.value() < 220.0);
    const GoodputEstimate short_run = estimate_goodput(run_time, 8, checkpoint_size(7'000'000'000), very_flaky, 2_min);  // 1.75: 2
    CHECK(short_run.checkpoint_interval.value() == doctest::Approx(220.0));
    CHECK(short_run.interval_iterations == 0);
    CHECK(short_run.checkpoints == doctest::Approx(1.0));
    CHECK(has_line(short_run, "; 2 iterations (2 min each) reach the run's end (3.667 min): one checkpoint, at its end"));

    // An iteration too short to count (a vanishing time) leaves the interval continuous.
    const GoodputEstimate vanishing = estimate_goodput(54_days, 16384, llama3_405b_checkpoint, GoodputConfig{}, Duration::from_value(5e-324));
    CHECK(vanishing.checkpoint_interval.value() == doctest::Approx(free.checkpoint_interval.value()));
    CHECK(vanishing.interval_iterations == 0);

    // Bad input names the field.
    CHECK(field_of([&] { (void)estimate_goodput(1_h, 8, small, GoodputConfig{}, Duration::from_value(-1)); }) == "iteration");
    CHECK(field_of([&] { (void)estimate_goodput(1_h, 8, small, GoodputConfig{}, Duration::from_value(std::nan(""))); }) == "iteration");
    CHECK(field_of([&] { (void)estimate_goodput(1_h, 8, small, GoodputConfig{}, Duration::from_value(HUGE_VAL)); }) == "iteration");
  }

  TEST_CASE("a run shorter than the optimum interval checkpoints once, at its end") {
    // 8 GPUs: M = 1 / (1.973e-5 × 8) = 6,335 h; the optimum interval (√(2 × 0.49 s × M) ≈ 2.6 h) is
    // longer than a 1-hour run.
    const GoodputEstimate g = estimate_goodput(1_h, 8, checkpoint_size(7'000'000'000), GoodputConfig{});
    CHECK(g.optimal_interval);
    CHECK(g.checkpoints == doctest::Approx(1.0));
    CHECK(g.checkpoint_interval.value() == doctest::Approx(3600.0));
    CHECK(g.goodput > 0.999);
    CHECK(g.goodput < 1.0);
    CHECK(has_line(g, "one checkpoint, at its end"));
  }

  TEST_CASE("more GPUs, slower storage, longer restarts: lower goodput") {
    const GoodputConfig c;
    double previous = 1.0;
    for (int gpus : {512, 1024, 2048, 4096, 8192, 16384, 32768}) {
      const double gp = estimate_goodput(30_days, gpus, llama3_405b_checkpoint, c).goodput;
      CHECK(gp < previous);
      previous = gp;
    }
    previous = 1.0;
    for (double tbps : {7.0, 2.0, 0.5, 0.1, 0.02}) {
      GoodputConfig s = c;
      s.storage_write = Bandwidth::from_value(tbps * 1e12);
      const double gp = estimate_goodput(30_days, 16384, llama3_405b_checkpoint, s).goodput;
      CHECK(gp < previous);
      previous = gp;
    }
    previous = 1.0;
    for (double minutes : {0.0, 5.0, 10.0, 30.0}) {
      GoodputConfig s = c;
      s.restart = Duration::from_value(minutes * 60);
      const double gp = estimate_goodput(30_days, 16384, llama3_405b_checkpoint, s).goodput;
      CHECK(gp < previous);
      previous = gp;
    }
  }

  TEST_CASE("asynchronous checkpoints cost less than synchronous ones") {
    GoodputConfig sync;
    GoodputConfig async = sync;
    async.async_checkpoint = true;
    const GoodputEstimate s = estimate_goodput(54_days, 16384, llama3_405b_checkpoint, sync);
    const GoodputEstimate a = estimate_goodput(54_days, 16384, llama3_405b_checkpoint, async);
    // The stall is the copy to host memory: 5.67 TB / 16,384 GPUs = 346.1 MB / 25 GB/s = 13.84 ms.
    CHECK(a.checkpoint_stall.value() == doctest::Approx(5.67e12 / 16384 / 25e9));
    CHECK(a.checkpoint_stall < s.checkpoint_stall);
    CHECK(a.expected_wall_clock < s.expected_wall_clock);
    CHECK(a.goodput > s.goodput);
    // A failure while a checkpoint is still being written costs about one write time (2.835 s).
    CHECK(a.write_lag_loss.value() / a.expected_failures == doctest::Approx(2.835).epsilon(0.02));
    CHECK(s.write_lag_loss.value() == 0);
    CHECK(sum_of_terms(a) == doctest::Approx(a.expected_wall_clock.value()).epsilon(1e-12));
    // Slow storage (20 GB/s: a 283.5 s write): the optimum (~18 s) is raised to the background write
    // less the snapshot, so that each write ends before the next snapshot; still better than sync.
    sync.storage_write = async.storage_write = Bandwidth::from_value(20e9);
    const GoodputEstimate s2 = estimate_goodput(54_days, 16384, llama3_405b_checkpoint, sync);
    const GoodputEstimate a2 = estimate_goodput(54_days, 16384, llama3_405b_checkpoint, async);
    CHECK(a2.checkpoint_interval.value() == doctest::Approx(283.5 - a2.checkpoint_stall.value()));
    CHECK(a2.checkpoint_stall.value() == doctest::Approx(5.67e12 / 16384 / 25e9));
    CHECK(a2.goodput > s2.goodput);
    // A given interval shorter than the write: each snapshot waits for the previous write.
    const GoodputEstimate a3 = with_interval(54_days, 16384, llama3_405b_checkpoint, async, 60_s);
    CHECK(a3.checkpoint_stall.value() == doctest::Approx(283.5 - 60));
    CHECK(has_line(a3, "for the previous background write"));
  }

  TEST_CASE("evaluation and warm-up shares add to the solve time and lower goodput") {
    GoodputConfig c;
    c.evaluation_share = 0.02;
    c.warmup_share = 0.01;
    const GoodputEstimate g = estimate_goodput(30_days, 1024, checkpoint_size(70'000'000'000), c);
    CHECK(g.evaluation.value() == doctest::Approx(30 * 86400 * 0.02));
    CHECK(g.warmup.value() == doctest::Approx(30 * 86400 * 0.01));
    CHECK(g.solve_time.value() == doctest::Approx(30 * 86400 * 1.03));
    const GoodputEstimate plain = estimate_goodput(30_days, 1024, checkpoint_size(70'000'000'000), GoodputConfig{});
    CHECK(g.goodput < plain.goodput);
    // T_w is proportional to T_s (same interval): the wall clock grows by the 3%.
    CHECK(g.expected_wall_clock.value() == doctest::Approx(plain.expected_wall_clock.value() * 1.03).epsilon(1e-9));
    CHECK(sum_of_terms(g) == doctest::Approx(g.expected_wall_clock.value()).epsilon(1e-12));
    CHECK(has_line(g, "evaluation: 30 days × 0.02 = 14.4 h"));
    CHECK(has_line(g, "warm-up: 30 days × 0.01 = 7.2 h"));
  }

  TEST_CASE("a run that would never finish is refused, naming the field") {
    // One failure a GPU-hour on 1,000 GPUs (M = 3.6 s) against a 1 TB checkpoint at 1 GB/s (1,000 s):
    // e^{(τ+δ)/M} is about e^{280}.
    GoodputConfig c;
    c.failures_per_gpu_hour = 1.0;
    c.storage_write = Bandwidth::from_value(1e9);
    auto run = [&] { (void)estimate_goodput(10_days, 1000, DataSize::from_value(1e12), c); };
    CHECK(field_of(run) == "failures_per_gpu_hour");
    CHECK(message_of(run).find("would never finish") != std::string::npos);
    CHECK(message_of(run).find("job MTBF of 3.6 s") != std::string::npos);
    // Far beyond overflow: still an error, never inf or NaN.
    c.failures_per_gpu_hour = 1e300;
    CHECK(field_of(run) == "failures_per_gpu_hour");
    // A given interval whose stalls alone make the run 100 × slower names the interval.
    GoodputConfig d;
    d.failures_per_gpu_hour = 0;
    d.storage_write = Bandwidth::from_value(1e9);
    d.checkpoint_interval = 1_s;
    CHECK(field_of(run) == "failures_per_gpu_hour");  // c, unchanged
    CHECK(field_of([&] { (void)estimate_goodput(10_days, 1000, DataSize::from_value(1e12), d); }) == "checkpoint_interval");
    // Just inside the bound: Daly's Fig. 5 (M = 15 min, δ = 5 min, R = 10 min) runs at about 20%.
    GoodputConfig e;
    e.failures_per_gpu_hour = 4.0;  // one GPU: M = 15 min
    e.storage_write = Bandwidth::from_value(1e9);
    e.host_copy = Bandwidth::from_value(1e12);
    const GoodputEstimate f5 = estimate_goodput(500_h, 1, DataSize::from_value(300e9), e);
    CHECK(f5.checkpoint_interval.value() / 60 == doctest::Approx(9.1).epsilon(0.01));
    CHECK(f5.goodput > 0.15);
    CHECK(f5.goodput < 0.25);
  }

  TEST_CASE("bad input names the field") {
    const DataSize ckpt = checkpoint_size(7'000'000'000);
    auto field = [&](Duration t, int gpus, DataSize size, const GoodputConfig& c) {
      return field_of([&] { (void)estimate_goodput(t, gpus, size, c); });
    };
    const GoodputConfig ok;
    CHECK(field(0_s, 8, ckpt, ok) == "ideal_time");
    CHECK(field(Duration::from_value(-1), 8, ckpt, ok) == "ideal_time");
    CHECK(field(Duration::from_value(std::nan("")), 8, ckpt, ok) == "ideal_time");
    CHECK(field(Duration::from_value(HUGE_VAL), 8, ckpt, ok) == "ideal_time");
    CHECK(field(1_h, 0, ckpt, ok) == "gpus");
    CHECK(field(1_h, -8, ckpt, ok) == "gpus");
    CHECK(field(1_h, 8, 0_B, ok) == "checkpoint");
    CHECK(field(1_h, 8, DataSize::from_value(std::nan("")), ok) == "checkpoint");
    struct Case {
      const char* field;
      void (*set)(GoodputConfig&);
    };
    const std::vector<Case> cases{
        {"failures_per_gpu_hour", [](GoodputConfig& c) { c.failures_per_gpu_hour = -1e-5; }},
        {"failures_per_gpu_hour", [](GoodputConfig& c) { c.failures_per_gpu_hour = std::nan(""); }},
        {"failures_per_gpu_hour", [](GoodputConfig& c) { c.failures_per_gpu_hour = HUGE_VAL; }},
        {"restart", [](GoodputConfig& c) { c.restart = Duration::from_value(-60); }},
        {"restart", [](GoodputConfig& c) { c.restart = Duration::from_value(std::nan("")); }},
        {"storage_write", [](GoodputConfig& c) { c.storage_write = Bandwidth::from_value(0); }},
        {"storage_write", [](GoodputConfig& c) { c.storage_write = Bandwidth::from_value(-1e9); }},
        {"host_copy", [](GoodputConfig& c) { c.host_copy = Bandwidth::from_value(0); }},
        {"checkpoint_interval", [](GoodputConfig& c) { c.checkpoint_interval = 0_s; }},
        {"checkpoint_interval", [](GoodputConfig& c) { c.checkpoint_interval = Duration::from_value(-5); }},
        {"evaluation_share", [](GoodputConfig& c) { c.evaluation_share = 1.0; }},
        {"evaluation_share", [](GoodputConfig& c) { c.evaluation_share = -0.1; }},
        {"evaluation_share", [](GoodputConfig& c) { c.evaluation_share = std::nan(""); }},
        {"warmup_share", [](GoodputConfig& c) { c.warmup_share = 1.5; }},
    };
    for (const auto& k : cases) {
      GoodputConfig c;
      k.set(c);
      CAPTURE(k.field);
      CHECK(field(1_h, 8, ckpt, c) == k.field);
    }
    // The message names the value too.
    GoodputConfig c;
    c.evaluation_share = 1.0;
    CHECK(message_of([&] { (void)estimate_goodput(1_h, 8, ckpt, c); }) ==
          "evaluation_share: 1 is 1 or more; a share of the iteration time must be in [0, 1)");
  }
}
