// Models that are not described by a transformer shape (CNNs such as ResNet-50): a parameter count
// and the forward cost of one sample, as published.
//
// Vision papers and torchvision count multiply-adds ("FLOPs" in He et al. 2016, Table 1; "GFLOPS"
// in torchvision's weight tables are multiply-accumulates too). capplan stores multiply-adds and
// converts: one multiply-add = 2 FLOP.
#pragma once

#include "capplan/error.hpp"
#include "capplan/units/count.hpp"
#include "capplan/units/quantity.hpp"

#include <string>

namespace capplan {

struct GenericModel {
  std::string name;
  Count params = 0;                    // parameters
  double forward_macs_per_sample = 0;  // multiply-adds of one forward pass of one sample
  std::string sample = "sample";       // what one sample is ("224x224 image")

  void validate() const {
    if (params <= 0) detail::fail("params", params.str(), "must be a positive parameter count");
    require_positive(forward_macs_per_sample, "forward_macs_per_sample");
  }
  // Forward FLOPs of one sample: 2 FLOP per multiply-add.
  [[nodiscard]] FlopCount forward_flops_per_sample() const {
    validate();
    return FlopCount::from_value(2.0 * forward_macs_per_sample);
  }
  // Training FLOPs of one sample: forward + backward (about twice the forward; Kaplan et al. 2020,
  // §2.1) = 3 x forward.
  [[nodiscard]] FlopCount training_flops_per_sample() const { return 3.0 * forward_flops_per_sample(); }
};

}  // namespace capplan
