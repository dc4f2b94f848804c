// An image model as its layers: convolutions, linear layers over tokens and attention blocks (a CNN
// such as ResNet-50, a Vision Transformer), what its training and inference time are computed from
// (perf/image_model.hpp) and its memory (memory/image_model.hpp); the built-in shapes by preset id.
// A JSON file lists the same layers (io/image_model_json.hpp, docs/catalog-files.md).
//
//   const ImageModel* net = find_image_model("vit-b16");   // ViT-B/16, 224 x 224
//   net->forward_flops_per_sample();                       // 35.1e9 (2 FLOP per multiply-add)
//   net->layer_parameters();                               // 86.4M, without the embeddings
#pragma once

#include "capplan/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace capplan {

// A convolution, run as an implicit GEMM (M = batch x out_pixels, N = out_channels, K = in_channels x kernel^2).
struct ConvLayer {
  std::int64_t out_pixels = 0;    // output height x width
  std::int64_t in_channels = 0;
  std::int64_t out_channels = 0;
  int kernel = 1;                 // k for a k x k kernel
  int count = 1;                  // identical layers
  bool norm_activation = true;    // followed by batch norm + ReLU (no bias); false: a bias, nothing after
};

// A linear layer applied to each of a sample's `tokens` rows (a ViT's 197 = 196 patches + the class
// token; 1 for a classifier), with what surrounds it in a pre-norm transformer block.
struct LinearLayer {
  std::int64_t tokens = 1;
  std::int64_t in_features = 0;
  std::int64_t out_features = 0;
  int count = 1;
  bool norm_before = false;  // a LayerNorm over its input (pre-norm block)
  bool activation = false;   // GELU on its output
  bool residual = false;     // its output added to the block's input
};

// The core of multi-head self-attention over `tokens` rows, between the QKV and output projections
// (which are LinearLayers): softmax(Q K^T / sqrt(d)) V, 4 x tokens^2 x heads x head_dim FLOPs per sample.
struct AttentionLayer {
  std::int64_t tokens = 0;
  std::int64_t heads = 0;
  std::int64_t head_dim = 0;
  int count = 1;
  // One fused kernel (PyTorch >= 2.0's scaled_dot_product_attention, FlashAttention); false: Q K^T,
  // softmax and P V as separate kernels with the scores in memory (timm before 0.9, PyTorch 1.x).
  bool fused = true;
};

struct ImageModel {
  std::string name;
  std::vector<ConvLayer> convs;
  std::vector<LinearLayer> linears;
  std::vector<AttentionLayer> attentions;
  std::int64_t fc_in = 0, fc_out = 0;  // classifier on the pooled features (a CNN's; 0: none)
  double parameters = 0;              // for the gradient all-reduce and the model states
  std::int64_t input_elements = 0;    // one sample's input values (224 x 224 x 3 for an ImageNet image)
  std::int64_t pool_indices = 0;      // elements of a max pool's output, whose int64 indices autograd keeps
  std::string image = "224 x 224";    // the input it is timed at

  // Checks every layer's sizes; InputError naming the layer and the field.
  void validate() const {
    if (convs.empty() && linears.empty())
      detail::fail("layers", "[]", "has no convolution or linear layer: an image model needs at least one");
    // The bounds of an image model file (io/image_model_json.hpp): far from 64-bit overflow in the
    // per-batch products.
    const auto positive = [](std::int64_t v, const std::string& field, std::int64_t most) {
      if (v <= 0) detail::fail(field, std::to_string(v), "must be a positive count");
      if (v > most) detail::fail(field, std::to_string(v), "is absurd (more than " + std::to_string(most) + ")");
    };
    for (std::size_t i = 0; i < convs.size(); ++i) {
      const ConvLayer& c = convs[i];
      const std::string at = "convs[" + std::to_string(i) + "].";
      positive(c.out_pixels, at + "out_pixels", 100'000'000);
      positive(c.in_channels, at + "in_channels", 1'048'576);
      positive(c.out_channels, at + "out_channels", 1'048'576);
      positive(c.kernel, at + "kernel", 1'024);
      positive(c.count, at + "count", 10'000);
    }
    for (std::size_t i = 0; i < linears.size(); ++i) {
      const LinearLayer& l = linears[i];
      const std::string at = "linears[" + std::to_string(i) + "].";
      positive(l.tokens, at + "tokens", 10'000'000);
      positive(l.in_features, at + "in_features", 16'777'216);
      positive(l.out_features, at + "out_features", 16'777'216);
      positive(l.count, at + "count", 10'000);
    }
    for (std::size_t i = 0; i < attentions.size(); ++i) {
      const AttentionLayer& a = attentions[i];
      const std::string at = "attentions[" + std::to_string(i) + "].";
      positive(a.tokens, at + "tokens", 10'000'000);
      positive(a.heads, at + "heads", 65'536);
      positive(a.head_dim, at + "head_dim", 65'536);
      positive(a.count, at + "count", 10'000);
    }
    if ((fc_in > 0) != (fc_out > 0))
      detail::fail("fc_in", std::to_string(fc_in) + " with fc_out " + std::to_string(fc_out), "must both be positive or both 0");
    if (fc_in < 0 || fc_out < 0) detail::fail("fc_in", std::to_string(fc_in), "must not be negative");
    if (fc_in > 16'777'216 || fc_out > 16'777'216) detail::fail("fc_in", std::to_string(fc_in) + " x " + std::to_string(fc_out), "is absurd (more than 16777216)");
    if (convs.size() + linears.size() + attentions.size() > 10'000) detail::fail("layers", std::to_string(convs.size() + linears.size() + attentions.size()), "is more than 10,000 layers");
    if (!(parameters > 0) || parameters > 1e15) detail::fail("parameters", detail::format_double(parameters), "must be a positive count up to 1e15");
    if (input_elements < 0 || input_elements > 1'000'000'000) detail::fail("input_elements", std::to_string(input_elements), "must be from 0 to 1e9");
    if (pool_indices < 0 || pool_indices > 1'000'000'000) detail::fail("pool_indices", std::to_string(pool_indices), "must be from 0 to 1e9");
  }

  // Forward FLOPs of one image (multiply-add = 2 FLOPs).
  [[nodiscard]] double forward_flops_per_sample() const {
    double f = 2.0 * static_cast<double>(fc_in) * static_cast<double>(fc_out);
    for (const auto& c : convs)
      f += 2.0 * c.count * static_cast<double>(c.out_pixels) * static_cast<double>(c.out_channels) * static_cast<double>(c.in_channels) *
           c.kernel * c.kernel;
    for (const auto& l : linears)
      f += 2.0 * l.count * static_cast<double>(l.tokens) * static_cast<double>(l.in_features) * static_cast<double>(l.out_features);
    for (const auto& a : attentions)
      f += 4.0 * a.count * static_cast<double>(a.tokens) * static_cast<double>(a.tokens) * static_cast<double>(a.heads) *
           static_cast<double>(a.head_dim);
    return f;
  }

  // Parameters the layers hold: conv weights (plus batch norm's scale and shift, or a bias), linear
  // weights and biases (plus a LayerNorm's scale and shift), the classifier. Embeddings that are no
  // layer (a ViT's class token and position embeddings) are not counted: `parameters` includes them.
  [[nodiscard]] double layer_parameters() const {
    double p = static_cast<double>(fc_in) * static_cast<double>(fc_out) + static_cast<double>(fc_out);
    for (const auto& c : convs)
      p += c.count * (static_cast<double>(c.in_channels) * static_cast<double>(c.out_channels) * c.kernel * c.kernel +
                      static_cast<double>(c.out_channels) * (c.norm_activation ? 2.0 : 1.0));
    for (const auto& l : linears)
      p += l.count * (static_cast<double>(l.in_features) * static_cast<double>(l.out_features) + static_cast<double>(l.out_features) +
                      (l.norm_before ? 2.0 * static_cast<double>(l.in_features) : 0.0));
    return p;
  }

  // What kind of network it is, for reports: "CNN", "vision transformer" or "convolutions + attention".
  [[nodiscard]] std::string kind() const {
    if (attentions.empty()) return "CNN";
    return convs.size() <= 1 ? "vision transformer" : "convolutions + attention";
  }
};

// ResNet-50 v1.5 (He et al. 2016, Table 1; v1.5 strides the 3x3 conv of each downsampling block, as
// torchvision and NVIDIA DeepLearningExamples do), 224 x 224 input, 25.56 M parameters.
inline ImageModel resnet50_v15() {
  ImageModel n;
  n.name = "ResNet-50 v1.5";
  n.parameters = 25'557'032;  // what the layers hold (layer_parameters): torchvision's num_params
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

// A Vision Transformer (Dosovitskiy et al. 2021, "An Image is Worth 16x16 Words", Table 1 and §3.1):
// a patch-embedding convolution (kernel = stride = patch), a class token and learned position
// embeddings, `layers` pre-norm encoder blocks (LayerNorm, QKV projection, self-attention, output
// projection + residual; LayerNorm, MLP with GELU, second MLP layer + residual) and a LayerNorm + linear
// classifier on the class token, as torchvision's vision_transformer.py builds it.
inline ImageModel vision_transformer(std::string name, int layers, std::int64_t hidden, std::int64_t mlp, std::int64_t heads, int patch,
                                     int image = 224, std::int64_t classes = 1000) {
  const auto in_range = [](std::int64_t v, std::int64_t lo, std::int64_t hi, const char* field) {
    if (v < lo || v > hi) detail::fail(field, std::to_string(v), "must be from " + std::to_string(lo) + " to " + std::to_string(hi));
  };
  in_range(layers, 1, 10'000, "layers");
  in_range(hidden, 1, 1'048'576, "hidden");
  in_range(mlp, 1, 16'777'216, "mlp");
  in_range(heads, 1, hidden, "heads");
  in_range(image, 1, 65'536, "image");
  in_range(patch, 1, image, "patch");
  in_range(classes, 1, 16'777'216, "classes");
  if (hidden % heads != 0) detail::fail("heads", std::to_string(heads), "does not divide hidden (" + std::to_string(hidden) + ")");
  ImageModel n;
  n.name = std::move(name);
  const std::int64_t side = image / patch, patches = side * side, tokens = patches + 1;
  n.convs.push_back(ConvLayer{patches, 3, hidden, patch, 1, false});  // patch embedding, with a bias
  n.linears.push_back(LinearLayer{tokens, hidden, 3 * hidden, layers, true, false, false});  // LN + QKV
  n.attentions.push_back(AttentionLayer{tokens, heads, hidden / heads, layers, true});
  n.linears.push_back(LinearLayer{tokens, hidden, hidden, layers, false, false, true});       // out proj + residual
  n.linears.push_back(LinearLayer{tokens, hidden, mlp, layers, true, true, false});           // LN + MLP 1 + GELU
  n.linears.push_back(LinearLayer{tokens, mlp, hidden, layers, false, false, true});          // MLP 2 + residual
  n.linears.push_back(LinearLayer{1, hidden, classes, 1, true, false, false});                // final LN + head
  n.input_elements = static_cast<std::int64_t>(image) * image * 3;
  n.image = std::to_string(image) + " x " + std::to_string(image);
  // Class token and position embeddings: (1 + tokens) x hidden.
  n.parameters = n.layer_parameters() + static_cast<double>((1 + tokens) * hidden);
  return n;
}

// ViT-B/16 and ViT-L/16 (Dosovitskiy et al. 2021, Table 1: 12 layers, hidden 768, MLP 3072, 12 heads,
// 86M; 24 layers, 1024, 4096, 16 heads, 307M) at 224 x 224. torchvision's ViT_B_16_Weights and
// ViT_L_16_Weights.IMAGENET1K_V1 give 86,567,656 and 304,326,632 parameters and 17.564 and 61.555
// GMACs (tests/workload_test.cpp checks both against these layers).
inline ImageModel vit_b16() { return vision_transformer("ViT-B/16", 12, 768, 3072, 12, 16); }
inline ImageModel vit_l16() { return vision_transformer("ViT-L/16", 24, 1024, 4096, 16, 16); }

// The layer-level shape of a model preset (workload/presets.hpp) that has one; nullptr otherwise.
inline const ImageModel* find_image_model(std::string_view preset_id) {
  static const ImageModel resnet50 = resnet50_v15();
  static const ImageModel vit_b = vit_b16();
  static const ImageModel vit_l = vit_l16();
  if (preset_id == "resnet50") return &resnet50;
  if (preset_id == "vit-b16") return &vit_b;
  if (preset_id == "vit-l16") return &vit_l;
  return nullptr;
}

// ImageNet-1k (ILSVRC 2012) training set: 1,281,167 images (Russakovsky et al. 2015, Table 2).
inline constexpr std::int64_t imagenet_1k_train_images = 1'281'167;

}  // namespace capplan
