// Efficiency model: how fast a kernel actually runs, predicted from its size and the GPU.
//
//   time(op) = max(FLOPs / achieved compute rate, bytes / achieved bandwidth) + kernel overhead
//
// The achieved GEMM rate is the GPU's measured best-case matmul rate scaled by how well the GEMM
// fills the machine:
//   rate = peak x best_fraction(gpu) x sustained_clock(gpu) x waves(T) x k_pipeline(k) x padding(m, n)
//   waves(T)      = T / (T + S/2): T output tiles of 128 x 128 over S SMs; the last wave is on average
//                   half empty (wave quantization, NVIDIA "Matrix Multiplication Background" guide §2.3)
//                   An expected value, not whole waves: on 59 products measured in-house (H100 SXM and H200,
//                   2,048 x N x 4,096, N = 1,024-8,448) it fits cuBLAS's saw-tooth at rms 7.4 %, where whole
//                   waves of 128 x 128 or 128 x 256 tiles give 11 % and 17 % (docs/validation.md, "GEMM
//                   shapes measured in-house"; validation/gemm_sweep_cases.hpp)
//   k_pipeline(k) = k / (k + k_fill): the main loop's prologue and epilogue cost about one 32-deep k-step
//                   on A100; k_fill scales with the SM's rate, since the fill is a fixed latency (k_fill_depth)
//   padding       = m n / (padded m x padded n): tiles compute whole tiles (same guide §2.2, tile quantization)
// best_fraction is measured (stas00/ml-engineering compute/accelerator/README.md, maximum achievable
// matmul FLOPS): H100 SXM 794.5 TF = 80.3 % of 989, A100 SXM 271.2 TF = 86.9 % of 312, A100 PCIe 252.9 TF
// = 81.1 %, MI300X 668.4 TF = 51.4 % of 1300, B200 SXM 1,745 TF = 77.6 % of 2,250, B300 SXM 1,769 TF
// = 78.6 %, GB200 1,822 TF = 72.9 % of 2,500, MI355X 1,565 TF = 68.0 % of 2,300, MI325X 784.9 TF = 60.4 %
// of 1,300; FP8 on its own where measured (H100 SXM 70.9 %, H200 73.4 %, B200 76.3 %, B300 74.5 %,
// GB200 72.3 %: FP8 GEMMs reach a smaller share of their doubled peak). Parts with no measurement take
// 80 %. NVFP4 (FP4) GEMMs reach 1.81x the per-tensor FP8 rate on the same shapes, far from the FP4
// peak: 3.764 against 6.812 ms for one layer's 12 GEMMs on a B300 whose FP4 peak is 3.0x its FP8 one
// (Transformer Engine docs/examples/gemm_profiling/gemm_profiling.rst at 8f2e635, pre-quantized;
// fitted on that row, nvfp4_kernel_rate_vs_fp8), and at most the BF16 fraction of the FP4 peak, on
// NVIDIA's data-centre Blackwell parts (SXM: B200, B300, GB200, GB300); other FP4 parts (GeForce and
// workstation Blackwell, AMD CDNA 4) have no such measurement and keep the BF16 fraction. The user may override any of these with a measured fraction, or fix the rate of every
// compute-bound kernel.
#pragma once

#include "capplan/error.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/perf/roofline.hpp"
#include "capplan/perf/quantization.hpp"
#include "capplan/units/quantity.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace capplan::perf {

// What is known about one GPU model's matrix engines.
struct GemmCalibration {
  double best_fraction = 0.80;  // best-case achieved / dense peak (BF16; every precision unless below)
  double fp8_best_fraction = 0;  // measured best-case FP8 / dense FP8 peak; 0: best_fraction
  int sm_count = 108;           // streaming multiprocessors (compute units)
  bool sm_count_known = true;   // false: the default 108 or a TPU's or Trainium's stand-in count
  bool measured = false;        // best_fraction measured (true) or the default (false)
  // Every compute-bound kernel's rate under a training step's power cap against its short-run rate:
  // the best-case matmul rate and the attention papers' figures below are short runs on a cool GPU, near
  // boost clock, so this is not a second count of one throttling. Measured on an H200 at 700 W
  // (bench/gpu/measure.py sustained_kernels, _steps and _layer; validation/measured/h200-2026-11-30-*):
  // the cap binds within a second and then holds (75 s flat): an 8192^3 BF16 product ran at 787 TF/s
  // cool, then 655-664 (0.85-0.86 of this model's rate at clock 1). In a whole training step's mix of
  // one Llama 3.1 8B layer at 8,192 tokens (sustained_layer: forward and backward GEMMs, attention and
  // the bytes-bound kernels, 60 s at 1.58 GHz) the GEMMs kept 0.94-0.96 of that rate and cuDNN
  // attention 0.89-0.91 of its rate near boost clock: one factor serves both kinds. Hopper keeps 0.86
  // (set before the measurement, from datasheet clock ranges), which the published multi-GPU Hopper
  // runs agree with (42 dense validation rows, signed mean +1.9 %, docs/validation-runs.md) and which
  // leaves a lone GPU's compute-bound kernels 4-10 % below their measured rates: either a multi-GPU
  // step runs hotter or the model lacks that much multi-GPU cost, which this factor then absorbs
  // (docs/performance-model.md, Known limits). A small model never reaches the cap (Llama 3.2 1B,
  // eager: 1.95 GHz at 622 W). B200 and GB200 0.853 (a published B200 measurement, the GB200 assumed
  // the same; see calibrate()). Elsewhere 0.90, unmeasured (A100 SXM ~1.275 of 1.41 GHz under its
  // 400 W cap, datasheet ranges).
  double sustained_clock = 0.90;
  bool sustained_clock_measured = false;  // the cap's effect measured on this part in-house (H100 SXM and H200)
  bool sustained_clock_published = false;  // ... or by others, published (B200; see calibrate())
  // FlashAttention-2 rate relative to the best GEMM rate: A100 forward 73 %, backward ~63 % of peak
  // (vs 86.9 %) -> 0.84 / 0.72; H100 up to 335 TF/s (34 % of 989, vs 80.3 %) -> 0.42, without
  // Hopper-specific instructions (Dao 2023, FlashAttention-2 §4.1).
  double flash_forward = 0.84;
  double flash_backward = 0.72;
  // FlashAttention-3 and cuDNN fused attention on Hopper, relative to the best GEMM rate (794.5 TF on
  // H100 SXM): FA3 616 TF/s forward (causal) and 561 backward (non-causal: no causal backward is
  // published) -> 0.775 / 0.706; cuDNN 9.1 539 / 516 -> 0.678 / 0.649 (Shah et al. 2024, FlashAttention-3,
  // Figs. 5 and 6, head dim 128 at 16K tokens, the same figures' FA2 bars 335 / 322 against the 0.42
  // above). 0: not measured on this GPU.
  double fa3_forward = 0, fa3_backward = 0;
  double cudnn_forward = 0, cudnn_backward = 0;
  // How a fused attention kernel's rate grows with the sequence it runs over: rate(s) = R s / (s + s0)
  // (each query block's fixed cost, the pipeline's fill and the last, partly masked key blocks, weighs
  // less as the keys grow), relative to the rates above, which are 16K-token figures:
  //   factor(s) = [s / (s + s0)] / [16384 / (16384 + s0)]            (attention_length_factor)
  // s0 fitted per architecture on cuDNN's causal BF16 sweeps, 2K to 32K tokens, forward and backward
  // apart (NVIDIA cudnn-frontend benchmark/sdpa_benchmark_training/results/*_919_only_cudnn/llama3.1_*.csv,
  // cuDNN 9.19.1, batch 1, 64 query and 8 KV heads, head dim 128): H200 forward 484, 591, 644, 673,
  // 688 TF/s and backward 370, 474, 541, 579, 581 at 2K, 4K, 8K, 16K, 32K -> s0 = 940 and 1,340 tokens
  // (rms 1.0 and 1.6 %); GB200 1,042 ... 1,720 and 836 ... 1,473 -> 1,540 and 1,720 (rms 1.7 %). Hopper
  // takes the first pair, Blackwell the second, for every kernel; GPUs without a sweep keep one rate at
  // every length (0).
  double attention_s0_forward = 0, attention_s0_backward = 0;
  std::string source;
};

namespace impl {
// ASCII lower case of `id + " " + name` in a fixed buffer (longer names are cut: the model tokens
// searched for come early), so the lookup below allocates nothing.
struct LowerName {
  char buf[192];
  std::size_t size = 0;
  LowerName(std::string_view a, std::string_view b) {
    for (std::string_view part : {a, std::string_view(" "), b})
      for (char ch : part) {
        if (size == sizeof buf) return;
        buf[size++] = (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch - 'A' + 'a') : ch;
      }
  }
  [[nodiscard]] bool has(std::string_view needle) const { return std::string_view(buf, size).find(needle) != std::string_view::npos; }
};

// The calibration's numbers; the `source` text only when asked (device_rates runs once per estimate).
inline GemmCalibration calibrate(const GpuSpec& gpu, bool with_source) {
  const LowerName n(gpu.id, gpu.name);
  const auto has = [&](std::string_view needle) { return n.has(needle); };
  const bool hopper = has("h100") || has("h200") || has("h800");
  const bool pcie = has("pcie");
  const bool a100 = has("a100");
  GemmCalibration c;
  if (gpu.vendor == Vendor::amd) c.best_fraction = 0.514;  // MI300X measured (below); other AMD parts alike
  // Blackwell: GB200 and GB300 contain "b200" and "b300", so they are told apart first.
  const bool gb200 = has("gb200"), gb300 = has("gb300");
  const bool b200 = has("b200") && !gb200, b300 = has("b300") && !gb300;
  // SM / CU counts (Blackwell: 148 SMs on B200 and GB200, 160 on Blackwell Ultra, NVIDIA's "Inside
  // NVIDIA Blackwell Ultra" blog; RTX 5090 170, RTX PRO 6000 188, the RTX Blackwell whitepaper; CDNA 4
  // 256 CUs, CDNA 3 MI325X 304, AMD's product pages)
  if (hopper) c.sm_count = pcie ? 114 : 132;
  else if (b200 || gb200) c.sm_count = 148;
  else if (b300 || gb300) c.sm_count = 160;
  else if (has("5090")) c.sm_count = 170;
  else if (has("rtx pro 6000") || has("rtx-pro-6000")) c.sm_count = 188;
  else if (has("mi350") || has("mi355")) c.sm_count = 256;
  else if (has("mi325")) c.sm_count = 304;
  else if (a100 || has("a800")) c.sm_count = 108;
  else if (has("mi300")) c.sm_count = 304;
  else if (has("4090")) c.sm_count = 128;
  else if (has("3090")) c.sm_count = 82;
  else if (has("a6000")) c.sm_count = 84;
  else if (has("l40")) c.sm_count = 142;
  else if (has("v100")) c.sm_count = 80;
  else if (has("4060")) c.sm_count = 34;
  else if (has("3060")) c.sm_count = 28;
  // TPUs and Trainium have a few large systolic arrays (TPU v6e two of 256 x 256, v5e four of 128 x 128,
  // Trainium2 eight NeuronCores), not SMs, and no measured GEMM shape sweep is in a stored source: their
  // GEMMs are timed as a GPU of the same BF16 peak made of A100-sized SMs would run them (2.89 TFLOP/s
  // per SM, so the same tile, wave and pipeline-fill penalties), at the default best-case fraction.
  else if ((gpu.vendor == Vendor::google || gpu.vendor == Vendor::aws) && gpu.dense.has(Precision::bf16)) {
    c.sm_count = std::max(1, static_cast<int>(std::lround(gpu.dense.at(Precision::bf16)->value() / (312e12 / 108))));
    c.sm_count_known = false;
  } else {
    c.sm_count_known = false;
  }
  if (hopper) {
    c.sustained_clock = 0.86;
    // The 700 W H100 SXM and H200 SXM runs of validation/measured/; not the PCIe, NVL or H800 parts.
    c.sustained_clock_measured = (has("h100") || has("h200")) && has("sxm");
    c.flash_forward = 0.42;
    c.flash_backward = 0.42;
    c.fa3_forward = 616.0 / 794.5;
    c.fa3_backward = 561.0 / 794.5;
    c.cudnn_forward = 539.0 / 794.5;
    c.cudnn_backward = 516.0 / 794.5;
    c.attention_s0_forward = 940;
    c.attention_s0_backward = 1340;
  }
  if (b200 || gb200 || b300 || gb300) {
    c.attention_s0_forward = 1540;
    c.attention_s0_backward = 1720;
  }
  // Blackwell under its power cap. A B200 at 1,000 W running BF16 FlashAttention-4 back to back fell
  // from 1,450 TFLOP/s (short run, iterations 10-19) to 1,237 (iterations 70-79, "fully throttled"),
  // its SM clock from 1,965 to about 1,580 MHz (flashinfer-ai/flashinfer pull request 2899,
  // 2026-03-26): 0.853, the B200's counterpart of the H200's 0.85-0.86 for one large kernel run alone
  // (FA4 at that rate loads the tensor cores as a GEMM does). A published figure, not capplan's own
  // measurement, uncertain both ways: the run lasted about a tenth of a second and its short-run
  // iterations may already have been throttling (the cap may cost more), while if the B200's
  // best-case matmul rate above was itself taken partly throttled, this counts some of the cap twice. Set after the Blackwell validation rows had shown an optimistic bias,
  // from this measurement, not fitted to them. The GB200 (the same die at 1,200 W) is assumed to keep
  // at least the B200's share and takes the same 0.853; B300 and GB300 keep the unmeasured 0.90.
  if (b200 || gb200) c.sustained_clock = 1237.0 / 1450.0;
  c.sustained_clock_published = b200;
  // cuDNN fused attention on Blackwell, relative to the GPU's best GEMM rate below: NVIDIA
  // cudnn-frontend benchmark/sdpa_benchmark_training artifacts (causal, 128 query and 8 KV heads, head
  // dim 128, BF16, 16K tokens as the Hopper figures above; cuDNN 9.10.2 on B200 and GB300, the frontend
  // on GB200): B200 1,332.4 TF forward, 1,074.8 backward of 1,745; GB200 1,668 / 1,304 of 1,822;
  // GB300 1,702.5 / 1,267.8, taken against the 2,000 TF its unmeasured default (0.80 x 2,500) assumes,
  // and used for the B300 too (the same die). FlashAttention-2 measured beside them runs at 0.19-0.24
  // of the GEMM rate (no Blackwell-specific kernels); flash_forward keeps the default ratios (see
  // docs/performance-model.md, "Known limits").
  if (b200) {
    c.cudnn_forward = 1332.415 / 1745.0;
    c.cudnn_backward = 1074.776 / 1745.0;
  } else if (gb200) {
    c.cudnn_forward = 1668.0 / 1822.0;
    c.cudnn_backward = 1304.0 / 1822.0;
  } else if (b300 || gb300) {
    c.cudnn_forward = 1702.463 / 2000.0;
    c.cudnn_backward = 1267.827 / 2000.0;
  }
  const char* measured = nullptr;
  // FP8 measured in the same table (float8_e4m3fn): H100 SXM 1,402.6 of 1,979, H200 1,453.4 (the FP8
  // GEMMs read half the bytes, so the H200's faster memory shows), B200 3,432.5 of 4,500, B300 3,353.3,
  // GB200 3,615.6 of 5,000.
  if ((has("h100") || has("h200")) && !pcie) {
    c.best_fraction = 0.803;  // 794.5 / 989 TF (H200: same GH100 die and clocks)
    c.fp8_best_fraction = has("h200") ? 1453.4 / 1979 : 1402.6 / 1979;
    measured = has("h200") ? "H100 SXM 794.5 TF of 989 (BF16; H200 the same); H200 FP8 1,453.4 TF of 1,979"
                           : "H100 SXM 794.5 TF of 989; FP8 1,402.6 TF of 1,979";
  } else if (gb200) {
    c.best_fraction = 1822.0 / 2500;
    c.fp8_best_fraction = 3615.6 / 5000;
    measured = "GB200 1,822 TF of 2,500; FP8 3,615.6 TF of 5,000";
  } else if (b200) {
    c.best_fraction = 1745.0 / 2250;
    c.fp8_best_fraction = 3432.5 / 4500;
    measured = "B200 SXM 1,745 TF of 2,250; FP8 3,432.5 TF of 4,500";
  } else if (b300) {
    c.best_fraction = 1769.0 / 2250;
    c.fp8_best_fraction = 3353.3 / 4500;
    measured = "B300 SXM 1,769 TF of 2,250; FP8 3,353.3 TF of 4,500";
  } else if (has("mi355")) {
    c.best_fraction = 1565.0 / 2300;
    measured = "MI355X 1,565 TF of 2,300";
  } else if (has("mi325")) {
    c.best_fraction = 784.9 / 1300;
    measured = "MI325X 784.9 TF of 1,300";
  } else if (a100 && pcie) {
    c.best_fraction = 0.811;  // 252.9 / 312 TF
    measured = "A100 PCIe 252.9 TF of 312";
  } else if (a100) {
    c.best_fraction = 0.869;  // 271.2 / 312 TF
    measured = "A100 SXM 271.2 TF of 312";
  } else if (has("mi300x")) {
    c.best_fraction = 0.514;  // 668.4 / 1300 TF
    measured = "MI300X 668.4 TF of 1300";
  }
  c.measured = measured != nullptr;
  if (with_source) {
    c.source = measured ? std::string("stas00/ml-engineering compute/accelerator/README.md (maximum achievable matmul FLOPS): ") + measured
                        : std::string("default: no measured best-case matmul rate; 80 % of dense peak assumed");
  }
  return c;
}

// calibrate(gpu, false), remembered for the last GPU seen on this thread: the calibration depends on
// the id, name and vendor only, and an estimate, a sweep or a search asks for the same GPU again and
// again (the name lookup is about a tenth of a whole plan estimate).
inline GemmCalibration calibrate_numbers(const GpuSpec& gpu) {
  struct Last {
    std::string id, name;
    Vendor vendor{};
    GemmCalibration cal;
    bool valid = false;
  };
  thread_local Last last;
  if (last.valid && last.vendor == gpu.vendor && last.id == gpu.id && last.name == gpu.name) return last.cal;
  last.cal = calibrate(gpu, false);
  last.id = gpu.id;
  last.name = gpu.name;
  last.vendor = gpu.vendor;
  last.valid = true;
  return last.cal;
}
}  // namespace impl

// Calibration by GPU name or id (case-insensitive). SM counts from the vendors' architecture whitepapers.
inline GemmCalibration gemm_calibration(const GpuSpec& gpu) { return impl::calibrate(gpu, true); }

// True where FlashAttention-3 runs: Hopper GPUs (H100, H200, H800), the only ones with its rates.
inline bool runs_flash_attention_3(const GpuSpec& gpu) { return impl::calibrate_numbers(gpu).fa3_forward > 0; }

struct EfficiencyModel {
  // Overrides (measured by the user): best-case GEMM fraction of peak, or the rate of every
  // compute-bound kernel.
  std::optional<double> gemm_best_fraction;
  std::optional<FlopRate> compute_rate;
  // Achieved / peak device-memory bandwidth of streaming kernels: 85-92 % on HBM and GDDR parts
  // (stas00/ml-engineering; NVIDIA STREAM-like copy results); 0.88 is the middle.
  double memory_fraction = 0.88;
  // Fixed cost per kernel (launch, ramp-up, tail), measured launch-to-launch gaps of 3-5 us on
  // CUDA without graphs (NVIDIA CUDA Best Practices Guide, "kernel launch overhead").
  Duration kernel_overhead = from_canonical<Duration>(4e-6);
  // GPU-side fixed time of a weight-streaming (memory-bound) matmul beyond bytes / achieved bandwidth:
  // the loads' ramp-up, the tail and the split-K reduction of a cuBLAS GEMV. Fitted (the mean) on the
  // calibration rows of validation/measured/: 24 BF16 products of 1-64 token rows against 4096 x 6144,
  // 4096 x 28672 and 14336 x 4096 weights on one H100 SXM (12.5 us) and one H200 (12.0 us); the same
  // microseconds on both, so a latency, not a bandwidth (docs/performance-model.md, "Decode").
  Duration weight_stream_latency = from_canonical<Duration>(12e-6);
  // Compute that runs while a collective is in flight on the same GPU slows down (the collective's
  // kernels take SMs and memory bandwidth): 18.9 % on average, 40 % at most, over GPT and LLaMA
  // training on A100, H100, MI250 and MI210 (Lee et al. 2025, "Characterizing Compute-Communication
  // Overlap in GPU-Accelerated Distributed Deep Learning", arXiv 2507.03114, abstract).
  double overlap_slowdown = 0.189;
  // Overrides of the calibration's sustained clock fraction and FlashAttention rates.
  std::optional<double> sustained_clock;
  std::optional<double> flash_forward_relative;
  std::optional<double> flash_backward_relative;

  void validate() const {
    if (gemm_best_fraction) {
      require_fraction(*gemm_best_fraction, "gemm_best_fraction");
      require_positive(*gemm_best_fraction, "gemm_best_fraction");
    }
    if (compute_rate) require_positive(compute_rate->value(), "compute_rate");
    require_fraction(memory_fraction, "memory_fraction");
    require_positive(memory_fraction, "memory_fraction");
    require_nonnegative(kernel_overhead.value(), "kernel_overhead");
    require_nonnegative(weight_stream_latency.value(), "weight_stream_latency");
    if (weight_stream_latency.value() > 1e-3) capplan::detail::fail("weight_stream_latency", capplan::detail::format_double(weight_stream_latency.value()), "is above 1 ms (measured: 12 us)");
    require_fraction(overlap_slowdown, "overlap_slowdown");
    if (sustained_clock) {  // a clock of 0 would make every compute-bound kernel take forever
      require_fraction(*sustained_clock, "sustained_clock");
      require_positive(*sustained_clock, "sustained_clock");
    }
    if (flash_forward_relative) require_fraction(*flash_forward_relative, "flash_forward_relative");
    if (flash_backward_relative) require_fraction(*flash_backward_relative, "flash_backward_relative");
  }
};

// Size-dependent fraction of the best-case GEMM rate a GEMM of this shape reaches (see the top),
// gemm_shape_factor() below.
// Tiles are 128 wide, or the next power of two >= 16 for a narrower dimension (libraries pick smaller
// tiles for skinny products); when there are fewer tiles than SMs the k loop is split over idle SMs
// (split-K, CUTLASS "parallel reduction" GEMMs), in chunks of at least 256.
// The factor as a ratio: factor = num / den, so a caller divides once (kernel times run for every GEMM
// of every plan; divisions are their cost).
struct ShapeRatio {
  double num = 1, den = 1;
};

[[gnu::always_inline]] inline ShapeRatio gemm_shape_ratio(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch, int sm_count,
                                   double k_fill = 32.0) {
  auto tile = [](std::int64_t d) -> std::int64_t {
    if (d >= 128) return 128;
    return static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(std::max<std::int64_t>(d, 16))));
  };
  const std::int64_t tm = tile(m), tn = tile(n);
  // Tiles are powers of two: ceil(m / tm) by a shift.
  const int sm_shift = std::countr_zero(static_cast<std::uint64_t>(tm)), sn_shift = std::countr_zero(static_cast<std::uint64_t>(tn));
  const std::int64_t rows = (m + tm - 1) >> sm_shift, cols = (n + tn - 1) >> sn_shift;
  const std::int64_t sms = std::max(1, sm_count);
  std::int64_t tiles = batch * rows * cols;
  std::int64_t kk = k;
  if (tiles < sms) {
    const std::int64_t splits = std::max<std::int64_t>(1, std::min(sms / tiles, k >> 8));  // k / 256
    tiles *= splits;
    kk = k / splits;
  }
  const double t = static_cast<double>(tiles), kd = static_cast<double>(kk);
  // waves x k_pipeline x padding = t / (t + S/2) x kd / (kd + k_fill) x m n / (padded m x padded n)
  ShapeRatio r;
  r.num = t * kd * (static_cast<double>(m) * static_cast<double>(n));
  r.den = (t + 0.5 * static_cast<double>(sms)) * (kd + k_fill) * static_cast<double>(rows * tm * cols * tn);
  return r;
}

inline double gemm_shape_factor(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch, int sm_count,
                                double k_fill = 32.0) {
  const ShapeRatio r = gemm_shape_ratio(m, n, k, batch, sm_count, k_fill);
  return r.num / r.den;
}

// The k-depth a GEMM tile's main-loop fill and drain cost: about one 32-deep k-step on A100 (BF16,
// 2.89 TFLOP/s per SM). The fill is a memory latency, the same in nanoseconds on every part, so the
// k-depth it costs grows with what one SM computes in that time: 32 x (peak / SMs) / 2.89 TFLOP/s
// (H100 SXM BF16: 83; RTX 4090 BF16 with FP32 accumulate: 14; FP8 doubles it).
inline double k_fill_depth(double peak, int sm_count) {
  constexpr double a100_per_sm = 312e12 / 108;  // NVIDIA A100 datasheet: 312 TFLOPS BF16 dense, 108 SMs
  return 32.0 * (peak / std::max(1, sm_count)) / a100_per_sm;
}

// NVFP4 GEMM kernels against per-tensor FP8 ones, same shapes, same GPU (B300): 6.812 / 3.764 ms per
// layer (see the top). Fitted on that one row.
inline constexpr double nvfp4_kernel_rate_vs_fp8 = 6.812 / 3.764;

// The GPU's rates as this model sees them, computed once per (GPU, precision).
struct DeviceRates {
  double peak = 0;          // FLOP/s
  double best_fraction = 0; // of peak, for the largest GEMMs, at the sustained clock
  double sustained_clock = 1;  // the power cap's factor in best_fraction (GemmCalibration::sustained_clock)
  // Where it comes from: measured on this part in-house, published (measured by others: the B200),
  // assumed (the unmeasured default, and the GB200's copy of the B200's) or given by the user.
  enum class ClockSource : std::uint8_t { measured, published, assumed, given } clock_source = ClockSource::assumed;
  double bandwidth = 0;     // achieved B/s
  double overhead = 0;      // s per kernel
  double stream_latency = 0;  // s a weight-streaming matmul takes beyond its bytes (EfficiencyModel)
  int sm_count = 108;
  bool sm_count_known = true;  // GemmCalibration::sm_count_known
  double k_fill = 32;  // k-depth the main loop's fill and drain cost (see k_fill_depth)
  std::optional<double> fixed_rate;  // FLOP/s, user override
  double flash_fwd = 0, flash_bwd = 0;
  // Other fused attention kernels' rates, as flash_fwd / flash_bwd; 0 where not measured (GemmCalibration).
  double fa3_fwd = 0, fa3_bwd = 0, cudnn_fwd = 0, cudnn_bwd = 0;
  // The attention rates' sequence-length scale (GemmCalibration::attention_s0_*; 0: none).
  double attention_s0_fwd = 0, attention_s0_bwd = 0;
  double overlap_slowdown = 0;  // compute slowdown while a collective overlaps it (EfficiencyModel)
  // FP8 training runs only the linear layers' GEMMs in FP8 (Transformer Engine's recipes); attention,
  // element-wise kernels, the output layer and the loss run at the BF16 peak: this, 0 for other
  // precisions (training_estimator.hpp, detail::quantized_cost_of). FP4 (NVFP4) likewise.
  double bf16_peak = 0;
  double bf16_best_fraction = 0;  // of bf16_peak, at the sustained clock (with bf16_peak)
  QuantHardware quant{};  // block-scaled operands, FP8 in any layout (quantization.hpp)

  // Seconds one kernel takes; `backward` selects the flash-attention backward rate.
  [[nodiscard, gnu::always_inline]] double time(const Op& op, bool backward = false) const {
    // FLOPs / rate, with the GEMM shape factor num / den folded in: one division.
    double num = 1, den = 1;
    switch (op.kind) {
      case OpKind::gemm:
      case OpKind::attention_gemm:
        if (fixed_rate) {
          den = *fixed_rate;
        } else {
          const ShapeRatio f = gemm_shape_ratio(op.m, op.n, op.k, op.batch, sm_count, k_fill);
          num = f.den;
          den = peak * best_fraction * f.num;
        }
        break;
      case OpKind::flash_attention:
        den = fixed_rate ? *fixed_rate : peak * best_fraction * (backward ? flash_bwd : flash_fwd);
        break;
      case OpKind::elementwise:
      case OpKind::optimizer:
        den = peak * best_fraction;
        break;
    }
    const double compute = op.flops > 0 ? op.flops * num / den : 0.0;
    const double memory = op.bytes / bandwidth;
    return std::max(compute, memory) + overhead * op.kernels;
  }
};

// The rates that need no compute figure: achieved bandwidth, a kernel's fixed cost and a weight
// stream's latency. A part with no published FLOP/s (Apple's GPUs, DGX Spark) has only these
// (perf/inference.hpp times its decode from them); device_rates adds the compute side.
inline DeviceRates memory_rates(const GpuSpec& gpu, const EfficiencyModel& m = {}) {
  m.validate();
  DeviceRates r;
  r.bandwidth = peak_bandwidth(gpu).value() * m.memory_fraction;
  r.overhead = m.kernel_overhead.value();
  r.stream_latency = m.weight_stream_latency.value();
  return r;
}

inline DeviceRates device_rates(const GpuSpec& gpu, Precision p, const EfficiencyModel& m = {}) {
  DeviceRates r = memory_rates(gpu, m);  // validates m
  const GemmCalibration cal = impl::calibrate_numbers(gpu);
  r.peak = peak_rate(gpu, p).value();
  // The measured FP8 fraction where the precision is FP8 and there is one; BF16's otherwise.
  double fraction = p == Precision::fp8 && cal.fp8_best_fraction > 0 ? cal.fp8_best_fraction : cal.best_fraction;
  // FP4 on NVIDIA's data-centre parts: nvfp4_kernel_rate_vs_fp8 times the FP8 best-case rate, as a
  // fraction of the FP4 peak (at most the BF16 fraction), where the GPU has an FP8 rate.
  // The main loop's fill then costs the k-depth of that rate, not of the FP4 peak (k_fill_depth).
  double fill_peak = r.peak;
  if (p == Precision::fp4 && r.peak > 0 && gpu.vendor == Vendor::nvidia && gpu.form_factor == FormFactor::sxm) {
    if (const auto f8 = gpu.dense.at(Precision::fp8); f8 && f8->value() > 0 && std::isfinite(f8->value())) {
      const double fp8_fraction = cal.fp8_best_fraction > 0 ? cal.fp8_best_fraction : cal.best_fraction;
      const double capped = nvfp4_kernel_rate_vs_fp8 * f8->value() * fp8_fraction / r.peak;
      if (capped < fraction) {
        fraction = capped;
        fill_peak = nvfp4_kernel_rate_vs_fp8 * f8->value();
      }
    }
  }
  const double clock = m.sustained_clock.value_or(cal.sustained_clock);
  r.best_fraction = m.gemm_best_fraction.value_or(fraction) * clock;
  r.sustained_clock = clock;
  r.clock_source = m.sustained_clock             ? DeviceRates::ClockSource::given
                   : cal.sustained_clock_measured  ? DeviceRates::ClockSource::measured
                   : cal.sustained_clock_published ? DeviceRates::ClockSource::published
                                                   : DeviceRates::ClockSource::assumed;
  if (m.gemm_best_fraction) fill_peak = r.peak;  // the user's measured fraction of the peak itself
  r.sm_count = cal.sm_count;
  r.sm_count_known = cal.sm_count_known;
  r.k_fill = k_fill_depth(fill_peak, cal.sm_count);
  if (m.compute_rate) r.fixed_rate = m.compute_rate->value();
  r.flash_fwd = m.flash_forward_relative.value_or(cal.flash_forward);
  r.flash_bwd = m.flash_backward_relative.value_or(cal.flash_backward);
  r.fa3_fwd = cal.fa3_forward;
  r.fa3_bwd = cal.fa3_backward;
  r.cudnn_fwd = cal.cudnn_forward;
  r.cudnn_bwd = cal.cudnn_backward;
  r.attention_s0_fwd = cal.attention_s0_forward;
  r.attention_s0_bwd = cal.attention_s0_backward;
  // A measured attention rate is the user's kernel, whichever it is, at the user's sequence length.
  if (m.flash_forward_relative) {
    r.fa3_fwd = r.cudnn_fwd = r.flash_fwd;
    r.attention_s0_fwd = 0;
  }
  if (m.flash_backward_relative) {
    r.fa3_bwd = r.cudnn_bwd = r.flash_bwd;
    r.attention_s0_bwd = 0;
  }
  r.overlap_slowdown = m.overlap_slowdown;
  r.quant = quant_hardware(gpu);
  if ((p == Precision::fp8 || p == Precision::fp4) && !m.compute_rate) {
    if (const auto b = gpu.dense.at(Precision::bf16); b && b->value() > 0 && std::isfinite(b->value())) {
      r.bf16_peak = b->value();
      r.bf16_best_fraction = m.gemm_best_fraction.value_or(cal.best_fraction) * clock;
    }
  }
  return r;
}

// A fused attention kernel's rate at `seq` tokens relative to its 16K-token rate (GemmCalibration::
// attention_s0_*): [s / (s + s0)] / [16384 / (16384 + s0)], with s within the lengths measured, 2,048
// to 32,768 (shorter sequences keep the 2K rate, longer ones the 32K rate: the H200's backward is
// flat there); 1 where s0 is 0.
inline double attention_length_factor(double s0, std::int64_t seq) {
  if (!(s0 > 0)) return 1.0;
  const double s = static_cast<double>(std::clamp<std::int64_t>(seq, 2048, 32768));
  return (s / (s + s0)) * ((16384.0 + s0) / 16384.0);
}

// Achieved rate of one GEMM (FLOPs / predicted time).
inline FlopRate achieved_gemm_rate(const GpuSpec& gpu, Precision p, std::int64_t m, std::int64_t n, std::int64_t k,
                                   const EfficiencyModel& model = {}) {
  const Op op = gemm("gemm", m, n, k, bytes_per_element(p));
  const double t = device_rates(gpu, p, model).time(op);
  return from_canonical<FlopRate>(op.flops / t);
}

inline Bandwidth achieved_bandwidth(const GpuSpec& gpu, const EfficiencyModel& model = {}) {
  model.validate();
  return peak_bandwidth(gpu) * model.memory_fraction;
}

// Predicted time of one kernel.
inline Duration op_time(const Op& op, const GpuSpec& gpu, Precision p, const EfficiencyModel& model = {}) {
  return from_canonical<Duration>(device_rates(gpu, p, model).time(op));
}

}  // namespace capplan::perf
