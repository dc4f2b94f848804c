// Numeric precisions of tensor math and of stored weights.
#pragma once

#include "capplan/detail/enum_names.hpp"
#include "capplan/error.hpp"

#include <boost/describe/enum.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

namespace capplan {

// Compute precisions with a peak rate in a GpuSpec. fp4 is 4-bit floating-point (E2M1) tensor math,
// the rate Blackwell-class parts quote for NVFP4 and MXFP4 (block-scaled: every 16 or 32 values share
// a scale; memory/formats.hpp has the storage formats, perf/quantization.hpp the training recipes).
// fp6 is 6-bit floating-point (E2M3 or E3M2) tensor math, MXFP6 in the OCP Microscaling formats:
// NVIDIA's HGX B200 and B300 tables print it on one row with FP8 ("FP8/FP6"), AMD's CDNA 4 runs it at
// the FP4 rate.
enum class Precision { fp64, fp32, tf32, bf16, fp16, fp8, int8, int4, fp4, fp6 };
BOOST_DESCRIBE_ENUM(Precision, fp64, fp32, tf32, bf16, fp16, fp8, int8, int4, fp4, fp6)

inline constexpr auto all_precisions = detail::enum_values<Precision>;

// The enumerator's name, also its text in files, flags and Python.
inline constexpr std::string_view name(Precision p) { return detail::enum_name(p); }

// Bytes per element of a value stored at this precision (int4, fp4: 0.5; fp6: 0.75; block scales not counted).
inline constexpr double bytes_per_element(Precision p) {
  switch (p) {
    case Precision::fp64: return 8;
    case Precision::fp32: return 4;
    case Precision::tf32: return 4;  // stored as fp32
    case Precision::bf16: return 2;
    case Precision::fp16: return 2;
    case Precision::fp8: return 1;
    case Precision::int8: return 1;
    case Precision::int4: return 0.5;
    case Precision::fp4: return 0.5;
    case Precision::fp6: return 0.75;
  }
  return 0;
}

// The precisions a training job runs at (perf::validate_plan and training_job check): mixed precision
// in bf16 or fp16, fp32, and Transformer Engine's fp8 and fp4 recipes (perf/quantization.hpp). int8
// and int4 are inference formats, fp6 has no training recipe in any framework capplan models, and
// tf32 is how a GPU runs fp32 matmuls, not a precision a job asks for.
inline constexpr std::array<Precision, 5> training_precisions{Precision::bf16, Precision::fp16, Precision::fp32, Precision::fp8,
                                                              Precision::fp4};

// The training precisions' names, comma-separated, for help texts and errors.
inline std::string training_precision_names() {
  std::string out;
  for (Precision p : training_precisions) out += (out.empty() ? "" : ", ") + std::string(name(p));
  return out;
}

// Throws InputError naming `field` when `p` is not one of training_precisions.
inline void validate_training_precision(Precision p, std::string_view field = "precision") {
  if (std::find(training_precisions.begin(), training_precisions.end(), p) != training_precisions.end()) return;
  const int i = static_cast<int>(p);
  const bool known = i >= 0 && i < static_cast<int>(detail::enum_count<Precision>);
  detail::fail(field, known ? std::string(name(p)) : std::to_string(i), "is not a training precision (" + training_precision_names() + ")");
}

inline Precision parse_precision(std::string_view text, std::string_view field = "precision") {
  return detail::parse_enum<Precision>(text, field);
}

}  // namespace capplan
