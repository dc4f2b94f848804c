// GEMM shapes measured in-house (bench/gpu/measure.py, validation/measured/*-2026-11-27.json, section
// "gemm") next to the rate capplan's efficiency model gives them, to check its wave-quantization term
// (perf/efficiency.hpp gemm_shape_ratio: waves(T) = T / (T + S/2), an expected value) against the
// alternative of counting whole waves of a fixed tile (T / (ceil(T / S) S): exactly 1.0 for one full
// wave, as the configurations issue proposed, for cuBLAS's 128 x 128 and Hopper's 128 x 256 tiles).
// apps/gen_validation_doc renders the comparison in docs/validation.md; tests/integration_test.cpp
// checks it and that these rows are the measured files' own.
//
// The rows: BF16 products on one H100 SXM and one H200 (700 W, PyTorch 2.11 / CUDA 13.0 cuBLAS), each
// timed alone in a short loop with CUDA events (Triton's do_bench): M = 2,048, K = 4,096 and N = 1,024
// to 8,448 in steps of 128 (the wave sweep, 59 sizes), the squares from 2,048 to 16,384, and Llama 3.1
// 8B's 15 training GEMMs at 8,192 tokens. Short runs at the boost clock, so the rate compared is the
// best-case rate (best_fraction x peak) times the shape factor, without the sustained-clock factor a
// training step takes and without the per-kernel launch overhead (back-to-back launches hide it).
// Every row is validation: the shape term was written from NVIDIA's guide before these were measured,
// and nothing was fitted to them.
//
// Test and documentation data, not library: outside include/, not installed (as gemm_cases.hpp).
#pragma once

#include "capplan/hardware/builtin_catalog.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/perf/efficiency.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace capplan::perf {

struct GemmSweepRow {
  std::string gpu;  // catalog id
  std::string set;  // "wave", "square", "llama8b"
  std::int64_t m = 0, n = 0, k = 0;
  double measured_tflops = 0;
};

// The wave term: capplan's expected value, or whole waves of a fixed tile.
enum class WaveForm { expected, whole_128x128, whole_128x256 };

inline const char* wave_form_label(WaveForm f) {
  switch (f) {
    case WaveForm::expected: return "capplan: T / (T + S/2), 128 x 128 tiles";
    case WaveForm::whole_128x128: return "whole waves, 128 x 128 tiles";
    case WaveForm::whole_128x256: return "whole waves, 128 x 256 tiles";
  }
  return "?";
}

// The rate a form gives one row, TFLOP/s: best-case rate x waves x k_pipeline x padding. The
// expected form is capplan's own gemm_shape_factor; the whole-wave forms replace only its wave term
// (same tile rule, split-K, pipeline fill and padding).
inline double gemm_sweep_predicted_tflops(const GemmSweepRow& r, WaveForm form, const Catalog& catalog) {
  const GpuSpec& gpu = catalog.find_gpu(r.gpu);
  const GemmCalibration cal = gemm_calibration(gpu);
  const double peak = gpu.dense.at(Precision::bf16)->value();
  const double best = peak * cal.best_fraction;
  const double k_fill = k_fill_depth(peak, cal.sm_count);
  if (form == WaveForm::expected) return best * gemm_shape_factor(r.m, r.n, r.k, 1, cal.sm_count, k_fill) / 1e12;
  const std::int64_t tm = 128, tn = form == WaveForm::whole_128x256 ? 256 : 128;
  const std::int64_t rows = (r.m + tm - 1) / tm, cols = (r.n + tn - 1) / tn, sms = cal.sm_count;
  std::int64_t tiles = rows * cols, kk = r.k;
  if (tiles < sms) {
    const std::int64_t splits = std::max<std::int64_t>(1, std::min(sms / tiles, r.k >> 8));
    tiles *= splits;
    kk = r.k / splits;
  }
  const double waves = static_cast<double>((tiles + sms - 1) / sms);
  const double fill = static_cast<double>(tiles) / (waves * static_cast<double>(sms));
  const double pipeline = static_cast<double>(kk) / (static_cast<double>(kk) + k_fill);
  const double padding = static_cast<double>(r.m * r.n) / static_cast<double>(rows * tm * cols * tn);
  return best * fill * pipeline * padding / 1e12;
}

// The error of a form over the rows of one GPU and set: mean signed and root mean square of
// predicted / measured - 1.
struct GemmSweepSummary {
  int rows = 0;
  double mean = 0, rms = 0, max_abs = 0;
};

inline GemmSweepSummary gemm_sweep_summary(const std::vector<GemmSweepRow>& rows, const std::string& gpu, const std::string& set,
                                           WaveForm form, const Catalog& catalog) {
  GemmSweepSummary s;
  double sum = 0, sq = 0;
  for (const GemmSweepRow& r : rows) {
    if (r.gpu != gpu || r.set != set) continue;
    const double e = gemm_sweep_predicted_tflops(r, form, catalog) / r.measured_tflops - 1;
    ++s.rows;
    sum += e;
    sq += e * e;
    s.max_abs = std::max(s.max_abs, std::fabs(e));
  }
  if (s.rows > 0) {
    s.mean = sum / s.rows;
    s.rms = std::sqrt(sq / s.rows);
  }
  return s;
}

inline const char* gemm_sweep_source() {
  return "bench/gpu/measure.py on one NVIDIA H100 80GB HBM3 and one NVIDIA H200 (700 W, driver 580.159.04, PyTorch "
         "2.11.0+cu130), 2026-11-27; validation/measured/h100-sxm-2026-11-27.json and h200-2026-11-27.json, section \"gemm\"";
}

// Every row, as the measured files hold them (TFLOP/s = 2 m n k / time).
inline const std::vector<GemmSweepRow>& gemm_sweep_rows() {
  static const std::vector<GemmSweepRow> rows = {
      {"h100-sxm", "wave", 2048, 1024, 4096, 526.860582},
      {"h100-sxm", "wave", 2048, 1152, 4096, 604.584336},
      {"h100-sxm", "wave", 2048, 1280, 4096, 645.277537},
      {"h100-sxm", "wave", 2048, 1408, 4096, 628.788347},
      {"h100-sxm", "wave", 2048, 1536, 4096, 684.202523},
      {"h100-sxm", "wave", 2048, 1664, 4096, 609.654270},
      {"h100-sxm", "wave", 2048, 1792, 4096, 650.639932},
      {"h100-sxm", "wave", 2048, 1920, 4096, 680.157416},
      {"h100-sxm", "wave", 2048, 2048, 4096, 717.262412},
      {"h100-sxm", "wave", 2048, 2176, 4096, 693.104930},
      {"h100-sxm", "wave", 2048, 2304, 4096, 715.615828},
      {"h100-sxm", "wave", 2048, 2432, 4096, 707.585143},
      {"h100-sxm", "wave", 2048, 2560, 4096, 731.830580},
      {"h100-sxm", "wave", 2048, 2688, 4096, 643.509681},
      {"h100-sxm", "wave", 2048, 2816, 4096, 687.334715},
      {"h100-sxm", "wave", 2048, 2944, 4096, 683.268655},
      {"h100-sxm", "wave", 2048, 3072, 4096, 728.289704},
      {"h100-sxm", "wave", 2048, 3200, 4096, 595.358970},
      {"h100-sxm", "wave", 2048, 3328, 4096, 623.822093},
      {"h100-sxm", "wave", 2048, 3456, 4096, 642.076288},
      {"h100-sxm", "wave", 2048, 3584, 4096, 667.512676},
      {"h100-sxm", "wave", 2048, 3712, 4096, 691.598099},
      {"h100-sxm", "wave", 2048, 3840, 4096, 688.531457},
      {"h100-sxm", "wave", 2048, 3968, 4096, 723.105585},
      {"h100-sxm", "wave", 2048, 4096, 4096, 746.691112},
      {"h100-sxm", "wave", 2048, 4224, 4096, 764.179625},
      {"h100-sxm", "wave", 2048, 4352, 4096, 669.906434},
      {"h100-sxm", "wave", 2048, 4480, 4096, 700.301220},
      {"h100-sxm", "wave", 2048, 4608, 4096, 728.784022},
      {"h100-sxm", "wave", 2048, 4736, 4096, 689.730003},
      {"h100-sxm", "wave", 2048, 4864, 4096, 691.468789},
      {"h100-sxm", "wave", 2048, 4992, 4096, 710.435835},
      {"h100-sxm", "wave", 2048, 5120, 4096, 730.237901},
      {"h100-sxm", "wave", 2048, 5248, 4096, 711.524010},
      {"h100-sxm", "wave", 2048, 5376, 4096, 651.015654},
      {"h100-sxm", "wave", 2048, 5504, 4096, 668.910824},
      {"h100-sxm", "wave", 2048, 5632, 4096, 676.237254},
      {"h100-sxm", "wave", 2048, 5760, 4096, 699.050694},
      {"h100-sxm", "wave", 2048, 5888, 4096, 681.910293},
      {"h100-sxm", "wave", 2048, 6016, 4096, 705.303347},
      {"h100-sxm", "wave", 2048, 6144, 4096, 732.846190},
      {"h100-sxm", "wave", 2048, 6272, 4096, 726.061931},
      {"h100-sxm", "wave", 2048, 6400, 4096, 661.040819},
      {"h100-sxm", "wave", 2048, 6528, 4096, 664.960592},
      {"h100-sxm", "wave", 2048, 6656, 4096, 647.252333},
      {"h100-sxm", "wave", 2048, 6784, 4096, 682.550352},
      {"h100-sxm", "wave", 2048, 6912, 4096, 692.637385},
      {"h100-sxm", "wave", 2048, 7040, 4096, 671.821545},
      {"h100-sxm", "wave", 2048, 7168, 4096, 643.619865},
      {"h100-sxm", "wave", 2048, 7296, 4096, 639.132020},
      {"h100-sxm", "wave", 2048, 7424, 4096, 676.101134},
      {"h100-sxm", "wave", 2048, 7552, 4096, 718.849483},
      {"h100-sxm", "wave", 2048, 7680, 4096, 712.408298},
      {"h100-sxm", "wave", 2048, 7808, 4096, 682.046094},
      {"h100-sxm", "wave", 2048, 7936, 4096, 699.697229},
      {"h100-sxm", "wave", 2048, 8064, 4096, 684.285587},
      {"h100-sxm", "wave", 2048, 8192, 4096, 721.721956},
      {"h100-sxm", "wave", 2048, 8320, 4096, 695.206982},
      {"h100-sxm", "wave", 2048, 8448, 4096, 722.778224},
      {"h100-sxm", "square", 2048, 2048, 2048, 612.167528},
      {"h100-sxm", "square", 3072, 3072, 3072, 741.079482},
      {"h100-sxm", "square", 4096, 4096, 4096, 731.805612},
      {"h100-sxm", "square", 6144, 6144, 6144, 707.288029},
      {"h100-sxm", "square", 8192, 8192, 8192, 708.667394},
      {"h100-sxm", "square", 12288, 12288, 12288, 695.082689},
      {"h100-sxm", "square", 16384, 16384, 16384, 732.015164},
      {"h100-sxm", "llama8b", 8192, 6144, 4096, 649.538853},
      {"h100-sxm", "llama8b", 8192, 4096, 6144, 708.818488},
      {"h100-sxm", "llama8b", 4096, 6144, 8192, 707.611720},
      {"h100-sxm", "llama8b", 8192, 4096, 4096, 674.619836},
      {"h100-sxm", "llama8b", 8192, 4096, 4096, 689.179609},
      {"h100-sxm", "llama8b", 4096, 4096, 8192, 713.775776},
      {"h100-sxm", "llama8b", 8192, 28672, 4096, 651.725979},
      {"h100-sxm", "llama8b", 8192, 4096, 28672, 730.809459},
      {"h100-sxm", "llama8b", 4096, 28672, 8192, 705.158161},
      {"h100-sxm", "llama8b", 8192, 4096, 14336, 717.236755},
      {"h100-sxm", "llama8b", 8192, 14336, 4096, 681.849045},
      {"h100-sxm", "llama8b", 14336, 4096, 8192, 697.574662},
      {"h100-sxm", "llama8b", 8192, 128256, 4096, 668.353864},
      {"h100-sxm", "llama8b", 8192, 4096, 128256, 706.352510},
      {"h100-sxm", "llama8b", 4096, 128256, 8192, 679.829920},
      {"h200-sxm", "wave", 2048, 1024, 4096, 559.823668},
      {"h200-sxm", "wave", 2048, 1152, 4096, 596.228784},
      {"h200-sxm", "wave", 2048, 1280, 4096, 657.285658},
      {"h200-sxm", "wave", 2048, 1408, 4096, 639.685848},
      {"h200-sxm", "wave", 2048, 1536, 4096, 692.141263},
      {"h200-sxm", "wave", 2048, 1664, 4096, 616.547890},
      {"h200-sxm", "wave", 2048, 1792, 4096, 655.634415},
      {"h200-sxm", "wave", 2048, 1920, 4096, 691.368778},
      {"h200-sxm", "wave", 2048, 2048, 4096, 722.085946},
      {"h200-sxm", "wave", 2048, 2176, 4096, 691.843966},
      {"h200-sxm", "wave", 2048, 2304, 4096, 726.810816},
      {"h200-sxm", "wave", 2048, 2432, 4096, 700.972192},
      {"h200-sxm", "wave", 2048, 2560, 4096, 733.430222},
      {"h200-sxm", "wave", 2048, 2688, 4096, 653.354758},
      {"h200-sxm", "wave", 2048, 2816, 4096, 677.245395},
      {"h200-sxm", "wave", 2048, 2944, 4096, 695.898984},
      {"h200-sxm", "wave", 2048, 3072, 4096, 716.146203},
      {"h200-sxm", "wave", 2048, 3200, 4096, 619.771580},
      {"h200-sxm", "wave", 2048, 3328, 4096, 620.715217},
      {"h200-sxm", "wave", 2048, 3456, 4096, 653.893679},
      {"h200-sxm", "wave", 2048, 3584, 4096, 665.856891},
      {"h200-sxm", "wave", 2048, 3712, 4096, 692.829148},
      {"h200-sxm", "wave", 2048, 3840, 4096, 708.896458},
      {"h200-sxm", "wave", 2048, 3968, 4096, 718.609616},
      {"h200-sxm", "wave", 2048, 4096, 4096, 710.499147},
      {"h200-sxm", "wave", 2048, 4224, 4096, 734.890522},
      {"h200-sxm", "wave", 2048, 4352, 4096, 668.728441},
      {"h200-sxm", "wave", 2048, 4480, 4096, 691.029778},
      {"h200-sxm", "wave", 2048, 4608, 4096, 703.119628},
      {"h200-sxm", "wave", 2048, 4736, 4096, 656.711986},
      {"h200-sxm", "wave", 2048, 4864, 4096, 679.492905},
      {"h200-sxm", "wave", 2048, 4992, 4096, 692.943016},
      {"h200-sxm", "wave", 2048, 5120, 4096, 725.893610},
      {"h200-sxm", "wave", 2048, 5248, 4096, 718.960909},
      {"h200-sxm", "wave", 2048, 5376, 4096, 660.706133},
      {"h200-sxm", "wave", 2048, 5504, 4096, 673.595036},
      {"h200-sxm", "wave", 2048, 5632, 4096, 670.022726},
      {"h200-sxm", "wave", 2048, 5760, 4096, 693.273371},
      {"h200-sxm", "wave", 2048, 5888, 4096, 698.102136},
      {"h200-sxm", "wave", 2048, 6016, 4096, 707.359603},
      {"h200-sxm", "wave", 2048, 6144, 4096, 709.833716},
      {"h200-sxm", "wave", 2048, 6272, 4096, 704.215505},
      {"h200-sxm", "wave", 2048, 6400, 4096, 643.977203},
      {"h200-sxm", "wave", 2048, 6528, 4096, 656.793735},
      {"h200-sxm", "wave", 2048, 6656, 4096, 658.054094},
      {"h200-sxm", "wave", 2048, 6784, 4096, 663.948061},
      {"h200-sxm", "wave", 2048, 6912, 4096, 693.565297},
      {"h200-sxm", "wave", 2048, 7040, 4096, 667.327344},
      {"h200-sxm", "wave", 2048, 7168, 4096, 672.168916},
      {"h200-sxm", "wave", 2048, 7296, 4096, 677.867326},
      {"h200-sxm", "wave", 2048, 7424, 4096, 678.576391},
      {"h200-sxm", "wave", 2048, 7552, 4096, 690.757687},
      {"h200-sxm", "wave", 2048, 7680, 4096, 698.323231},
      {"h200-sxm", "wave", 2048, 7808, 4096, 675.741282},
      {"h200-sxm", "wave", 2048, 7936, 4096, 687.272806},
      {"h200-sxm", "wave", 2048, 8064, 4096, 712.600471},
      {"h200-sxm", "wave", 2048, 8192, 4096, 702.825586},
      {"h200-sxm", "wave", 2048, 8320, 4096, 712.175718},
      {"h200-sxm", "wave", 2048, 8448, 4096, 707.876792},
      {"h200-sxm", "square", 2048, 2048, 2048, 622.098396},
      {"h200-sxm", "square", 3072, 3072, 3072, 728.564243},
      {"h200-sxm", "square", 4096, 4096, 4096, 722.207396},
      {"h200-sxm", "square", 6144, 6144, 6144, 708.584590},
      {"h200-sxm", "square", 8192, 8192, 8192, 706.845034},
      {"h200-sxm", "square", 12288, 12288, 12288, 701.503363},
      {"h200-sxm", "square", 16384, 16384, 16384, 703.934328},
      {"h200-sxm", "llama8b", 8192, 6144, 4096, 676.923572},
      {"h200-sxm", "llama8b", 8192, 4096, 6144, 682.282346},
      {"h200-sxm", "llama8b", 4096, 6144, 8192, 688.940064},
      {"h200-sxm", "llama8b", 8192, 4096, 4096, 687.579818},
      {"h200-sxm", "llama8b", 8192, 4096, 4096, 704.439434},
      {"h200-sxm", "llama8b", 4096, 4096, 8192, 709.384295},
      {"h200-sxm", "llama8b", 8192, 28672, 4096, 660.854978},
      {"h200-sxm", "llama8b", 8192, 4096, 28672, 708.373076},
      {"h200-sxm", "llama8b", 4096, 28672, 8192, 681.532236},
      {"h200-sxm", "llama8b", 8192, 4096, 14336, 698.904412},
      {"h200-sxm", "llama8b", 8192, 14336, 4096, 679.591105},
      {"h200-sxm", "llama8b", 14336, 4096, 8192, 691.430301},
      {"h200-sxm", "llama8b", 8192, 128256, 4096, 686.260661},
      {"h200-sxm", "llama8b", 8192, 4096, 128256, 691.359369},
      {"h200-sxm", "llama8b", 4096, 128256, 8192, 677.892933},
  };
  return rows;
}

}  // namespace capplan::perf
