// A convolutional network as its convolutions: what a CNN's training time is computed from
// (perf/cnn.hpp), and the built-in shapes by preset id.
//
//   const CnnShape* net = find_cnn_shape("resnet50");   // ResNet-50 v1.5, 224 x 224
//   net->forward_flops_per_sample();                     // 8.2e9 (2 FLOP per multiply-add)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace capplan {

struct ConvLayer {
  std::int64_t out_pixels = 0;    // output height x width
  std::int64_t in_channels = 0;
  std::int64_t out_channels = 0;
  int kernel = 1;                 // k for a k x k kernel
  int count = 1;                  // identical layers
  bool norm_activation = true;    // followed by batch norm + ReLU
};

struct CnnShape {
  std::string name;
  std::vector<ConvLayer> convs;
  std::int64_t fc_in = 0, fc_out = 0;  // classifier
  double parameters = 0;              // for the gradient all-reduce
  std::int64_t input_elements = 0;    // one sample's input values (224 x 224 x 3 for an ImageNet image)
  std::int64_t pool_indices = 0;      // elements of a max pool's output, whose int64 indices autograd keeps

  // Forward FLOPs of one image (multiply-add = 2 FLOPs).
  [[nodiscard]] double forward_flops_per_sample() const {
    double f = 2.0 * static_cast<double>(fc_in * fc_out);
    for (const auto& c : convs)
      f += 2.0 * c.count * static_cast<double>(c.out_pixels * c.out_channels * c.in_channels) * c.kernel * c.kernel;
    return f;
  }
};

// ResNet-50 v1.5 (He et al. 2016, Table 1; v1.5 strides the 3x3 conv of each downsampling block, as
// torchvision and NVIDIA DeepLearningExamples do), 224 x 224 input, 25.56 M parameters.
inline CnnShape resnet50_v15() {
  CnnShape n;
  n.name = "ResNet-50 v1.5";
  n.parameters = 25.557e6;
  n.fc_in = 2048;
  n.fc_out = 1000;
  n.input_elements = 224 * 224 * 3;
  n.pool_indices = 56 * 56 * 64;  // the 3 x 3 max pool after conv1
  auto add = [&](std::int64_t pixels, std::int64_t cin, std::int64_t cout, int k, int count = 1) {
    n.convs.push_back(ConvLayer{pixels, cin, cout, k, count, true});
  };
  add(112 * 112, 3, 64, 7);  // conv1
  // stage 1, 56 x 56
  add(3136, 64, 64, 1); add(3136, 64, 64, 3); add(3136, 64, 256, 1); add(3136, 64, 256, 1);  // block 1 + projection
  add(3136, 256, 64, 1, 2); add(3136, 64, 64, 3, 2); add(3136, 64, 256, 1, 2);
  // stage 2, 28 x 28
  add(3136, 256, 128, 1); add(784, 128, 128, 3); add(784, 128, 512, 1); add(784, 256, 512, 1);
  add(784, 512, 128, 1, 3); add(784, 128, 128, 3, 3); add(784, 128, 512, 1, 3);
  // stage 3, 14 x 14
  add(784, 512, 256, 1); add(196, 256, 256, 3); add(196, 256, 1024, 1); add(196, 512, 1024, 1);
  add(196, 1024, 256, 1, 5); add(196, 256, 256, 3, 5); add(196, 256, 1024, 1, 5);
  // stage 4, 7 x 7
  add(196, 1024, 512, 1); add(49, 512, 512, 3); add(49, 512, 2048, 1); add(49, 1024, 2048, 1);
  add(49, 2048, 512, 1, 2); add(49, 512, 512, 3, 2); add(49, 512, 2048, 1, 2);
  return n;
}

// The convolution-level shape of a model preset (workload/presets.hpp) that has one; nullptr otherwise.
inline const CnnShape* find_cnn_shape(std::string_view preset_id) {
  static const CnnShape resnet50 = resnet50_v15();
  if (preset_id == "resnet50") return &resnet50;
  return nullptr;
}

// ImageNet-1k (ILSVRC 2012) training set: 1,281,167 images (Russakovsky et al. 2015, Table 2).
inline constexpr std::int64_t imagenet_1k_train_images = 1'281'167;

}  // namespace capplan
