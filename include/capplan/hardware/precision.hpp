// Numeric precisions of tensor math and of stored weights.
#pragma once

#include "capplan/detail/enum_names.hpp"
#include "capplan/error.hpp"

#include <boost/describe/enum.hpp>

#include <array>
#include <string>
#include <string_view>

namespace capplan {

// Compute precisions with a peak rate in a GpuSpec. fp4 is 4-bit floating-point (E2M1) tensor math,
// the rate Blackwell-class parts quote for NVFP4 and MXFP4 (block-scaled: every 16 or 32 values share
// a scale; memory/formats.hpp has the storage formats, perf/quantization.hpp the training recipes).
enum class Precision { fp64, fp32, tf32, bf16, fp16, fp8, int8, int4, fp4 };
BOOST_DESCRIBE_ENUM(Precision, fp64, fp32, tf32, bf16, fp16, fp8, int8, int4, fp4)

inline constexpr auto all_precisions = detail::enum_values<Precision>;

// The enumerator's name, also its text in files, flags and Python.
inline constexpr std::string_view name(Precision p) { return detail::enum_name(p); }

// Bytes per element of a value stored at this precision (int4, fp4: 0.5; block scales not counted).
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
  }
  return 0;
}

inline Precision parse_precision(std::string_view text, std::string_view field = "precision") {
  return detail::parse_enum<Precision>(text, field);
}

}  // namespace capplan
