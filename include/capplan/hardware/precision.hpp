// Numeric precisions of tensor math and of stored weights.
#pragma once

#include "capplan/error.hpp"

#include <array>
#include <string>
#include <string_view>

namespace capplan {

// Compute precisions with a peak rate in a GpuSpec.
enum class Precision { fp64, fp32, tf32, bf16, fp16, fp8, int8, int4 };

inline constexpr std::array<Precision, 8> all_precisions{Precision::fp64, Precision::fp32, Precision::tf32,
                                                         Precision::bf16, Precision::fp16, Precision::fp8,
                                                         Precision::int8, Precision::int4};

inline constexpr std::string_view name(Precision p) {
  switch (p) {
    case Precision::fp64: return "fp64";
    case Precision::fp32: return "fp32";
    case Precision::tf32: return "tf32";
    case Precision::bf16: return "bf16";
    case Precision::fp16: return "fp16";
    case Precision::fp8: return "fp8";
    case Precision::int8: return "int8";
    case Precision::int4: return "int4";
  }
  return "?";
}

// Bytes per element of a value stored at this precision (int4: 0.5).
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
  }
  return 0;
}

inline Precision parse_precision(std::string_view text, std::string_view field = "precision") {
  for (Precision p : all_precisions) {
    if (name(p) == text) return p;
  }
  detail::fail(field, "\"" + std::string(text) + "\"", "is not a precision (fp64, fp32, tf32, bf16, fp16, fp8, int8, int4)");
}

}  // namespace capplan
