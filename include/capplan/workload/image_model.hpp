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

#include <algorithm>
#include <cstdint>
#include <optional>
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
  // Its batch-normed output is added to the block's shortcut before the ReLU (a ResNet bottleneck's
  // last convolution): one add forward and the two paths' gradients summed backward.
  bool residual = false;
  // With norm_activation: a ReLU follows the batch norm (false: batch norm alone, as on a ResNet
  // projection shortcut, whose output goes to the add).
  bool relu = true;
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
  bool bias = true;          // false: no bias (a diffusion UNet's query, key and value projections)
};

// The core of multi-head attention over `tokens` query rows, between the QKV and output projections
// (which are LinearLayers): softmax(Q K^T / sqrt(d)) V, 4 x tokens x kv_tokens x heads x head_dim FLOPs
// per sample. Self-attention has kv_tokens = tokens; cross-attention attends to another sequence (a
// diffusion UNet's image tokens to the prompt's 77 text tokens).
struct AttentionLayer {
  std::int64_t tokens = 0;
  std::int64_t heads = 0;
  std::int64_t head_dim = 0;
  int count = 1;
  // One fused kernel (PyTorch >= 2.0's scaled_dot_product_attention, FlashAttention); false: Q K^T,
  // softmax and P V as separate kernels with the scores in memory (timm before 0.9, PyTorch 1.x).
  bool fused = true;
  std::int64_t kv_tokens = 0;  // keys and values per sample; 0: tokens (self-attention)

  [[nodiscard]] std::int64_t keys() const { return kv_tokens > 0 ? kv_tokens : tokens; }
};

// A memory-bound step that no convolution or linear layer above describes, at the compute precision:
// a GroupNorm or LayerNorm, an activation, an add, a concatenation, an upsampling (a diffusion UNet's
// GroupNorm + SiLU, residual and time-embedding adds, skip concatenations, nearest upsampling and
// GEGLU gate). Timed by the bytes it moves; its backward moves twice as many.
struct ElementwiseLayer {
  std::int64_t elements = 0;    // values it writes per sample
  double passes = 2;            // values read and written per value written (an add: 3; GroupNorm + SiLU: 5)
  int kernels = 1;              // kernels it launches in the forward pass
  double saved = 0;             // values per value written that autograd keeps for the backward
  std::int64_t parameters = 0;  // a norm's scale and shift
  int count = 1;
};

// A tile shape of a tiled VAE decode (diffusers' enable_vae_tiling): `count` tiles of h x w latent
// values, each decoded on its own (see vae_tiles).
struct VaeTile {
  std::int64_t h = 0, w = 0;
  int count = 0;
};

struct ImageModel {
  std::string name;
  std::vector<ConvLayer> convs;
  std::vector<LinearLayer> linears;
  std::vector<AttentionLayer> attentions;
  std::vector<ElementwiseLayer> elementwise;
  std::int64_t fc_in = 0, fc_out = 0;  // classifier on the pooled features (a CNN's; 0: none)
  double parameters = 0;              // for the gradient all-reduce and the model states
  std::int64_t input_elements = 0;    // one sample's input values (224 x 224 x 3 for an ImageNet image)
  // Elements of a 3 x 3, stride-2 max pool's output (ResNet's, after conv1), whose int64 indices autograd
  // keeps; the pool is timed too (perf/image_model.hpp, max_pool_time).
  std::int64_t pool_indices = 0;
  std::string image = "224 x 224";    // the input it is timed at
  // Weights a pipeline loads beside the model (a diffusion UNet's text encoders and VAE), counted where
  // the weights must fit a GPU; the presets time them through text_encoders and decoder below.
  double companion_parameters = 0;
  std::string companions;             // what they are, for reports
  // A diffusion pipeline's VAE decoder, run once per image after the last step (0 or 1 entries;
  // the presets have it, a model file may: vae_decoder), and whether the pipeline runs it in fp32 (SDXL's
  // VAE overflows in fp16: diffusers upcasts it, force_upcast in its config).
  std::vector<ImageModel> decoder;
  bool decoder_fp32 = false;
  // A diffusion pipeline's text encoders, run once per batch over its prompts (and, under
  // classifier-free guidance, the negative prompts) before the first step; the presets have them, a
  // model file may (text_encoders). Their weights are in companion_parameters.
  std::vector<ImageModel> text_encoders;
  // The tiles a tiled decode splits this model's latent into (vae_tiles); empty where the latent fits
  // one tile, so that tiling changes nothing.
  std::vector<VaeTile> decoder_tiles;

  // The channels of the latent a VAE decoder reads: its first convolution's input (4 for the SD
  // VAEs, the default where a decoder has no convolution).
  [[nodiscard]] std::int64_t latent_channels() const { return convs.empty() ? 4 : convs.front().in_channels; }
  // The tiles a tiled decode runs (decoder_tiles' counts; 0 where the latent fits one tile).
  [[nodiscard]] int decoder_tile_count() const {
    int n = 0;
    for (const VaeTile& t : decoder_tiles) n += t.count;
    return n;
  }

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
      if (a.kv_tokens < 0) detail::fail(at + "kv_tokens", std::to_string(a.kv_tokens), "must not be negative (0: the query tokens)");
      if (a.kv_tokens > 10'000'000) detail::fail(at + "kv_tokens", std::to_string(a.kv_tokens), "is absurd (more than 10000000)");
    }
    for (std::size_t i = 0; i < elementwise.size(); ++i) {
      const ElementwiseLayer& l = elementwise[i];
      const std::string at = "elementwise[" + std::to_string(i) + "].";
      positive(l.elements, at + "elements", 1'000'000'000);
      positive(l.kernels, at + "kernels", 1'000);
      positive(l.count, at + "count", 10'000);
      if (!(l.passes > 0 && l.passes <= 100)) detail::fail(at + "passes", detail::format_double(l.passes), "must be in (0, 100]");
      if (!(l.saved >= 0 && l.saved <= 100)) detail::fail(at + "saved", detail::format_double(l.saved), "must be in [0, 100]");
      if (l.parameters < 0 || l.parameters > 1'000'000'000)
        detail::fail(at + "parameters", std::to_string(l.parameters), "must be from 0 to 1e9");
    }
    if ((fc_in > 0) != (fc_out > 0))
      detail::fail("fc_in", std::to_string(fc_in) + " with fc_out " + std::to_string(fc_out), "must both be positive or both 0");
    if (fc_in < 0 || fc_out < 0) detail::fail("fc_in", std::to_string(fc_in), "must not be negative");
    if (fc_in > 16'777'216 || fc_out > 16'777'216) detail::fail("fc_in", std::to_string(fc_in) + " x " + std::to_string(fc_out), "is absurd (more than 16777216)");
    if (const std::size_t n = convs.size() + linears.size() + attentions.size() + elementwise.size(); n > 10'000)
      detail::fail("layers", std::to_string(n), "is more than 10,000 layers");
    if (!(parameters > 0) || parameters > 1e15) detail::fail("parameters", detail::format_double(parameters), "must be a positive count up to 1e15");
    if (input_elements < 0 || input_elements > 1'000'000'000) detail::fail("input_elements", std::to_string(input_elements), "must be from 0 to 1e9");
    if (pool_indices < 0 || pool_indices > 1'000'000'000) detail::fail("pool_indices", std::to_string(pool_indices), "must be from 0 to 1e9");
    if (!(companion_parameters >= 0) || companion_parameters > 1e15)
      detail::fail("companion_parameters", detail::format_double(companion_parameters), "must be a count from 0 to 1e15");
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
      f += 4.0 * a.count * static_cast<double>(a.tokens) * static_cast<double>(a.keys()) * static_cast<double>(a.heads) *
           static_cast<double>(a.head_dim);
    return f;
  }

  // Parameters the layers hold: conv weights (plus batch norm's scale and shift, or a bias), linear
  // weights and biases (plus a LayerNorm's scale and shift), norms' scales and shifts, the classifier. Embeddings that are no
  // layer (a ViT's class token and position embeddings) are not counted: `parameters` includes them.
  [[nodiscard]] double layer_parameters() const {
    double p = static_cast<double>(fc_in) * static_cast<double>(fc_out) + static_cast<double>(fc_out);
    for (const auto& c : convs)
      p += c.count * (static_cast<double>(c.in_channels) * static_cast<double>(c.out_channels) * c.kernel * c.kernel +
                      static_cast<double>(c.out_channels) * (c.norm_activation ? 2.0 : 1.0));
    for (const auto& l : linears)
      p += l.count * (static_cast<double>(l.in_features) * static_cast<double>(l.out_features) + (l.bias ? static_cast<double>(l.out_features) : 0.0) +
                      (l.norm_before ? 2.0 * static_cast<double>(l.in_features) : 0.0));
    for (const auto& l : elementwise) p += l.count * static_cast<double>(l.parameters);
    return p;
  }

  // Parameters whose weights a GPU holds to run the model: its own and its companions'.
  [[nodiscard]] double loaded_parameters() const { return parameters + companion_parameters; }

  // A diffusion UNet: convolutions with cross-attention to another sequence (a prompt). One sample is
  // one latent's denoising step; an image takes many (perf/image_model.hpp estimate_image_generation).
  [[nodiscard]] bool is_diffusion() const {
    if (convs.size() <= 1) return false;
    for (const auto& a : attentions)
      if (a.kv_tokens > 0 && a.kv_tokens != a.tokens) return true;
    return false;
  }

  // What kind of network it is, for reports: "CNN", "vision transformer", "diffusion UNet" (convolutions
  // and cross-attention) or "convolutions + attention".
  [[nodiscard]] std::string kind() const {
    if (attentions.empty()) return "CNN";
    if (is_diffusion()) return "diffusion UNet";
    return convs.size() <= 1 ? "vision transformer" : "convolutions + attention";
  }

  // diffusers' decode options, enable_vae_slicing and enable_vae_tiling, act on a diffusion pipeline's
  // VAE decoder: on any other model, or a UNet without its decoder (a model file with no
  // vae_decoder), they would change nothing, so they are refused, naming the option as the caller
  // spells it (a field, or a command-line flag).
  void require_vae_decoder(bool slicing, bool tiling, const std::string& slicing_field = "vae_slicing",
                           const std::string& tiling_field = "vae_tiling") const {
    for (const auto& [on, field] : {std::pair{slicing, &slicing_field}, std::pair{tiling, &tiling_field}}) {
      if (!on) continue;
      if (!is_diffusion()) detail::fail(*field, "true", "applies to a diffusion UNet's VAE decode; \"" + name + "\" is a " + kind());
      if (decoder.empty())
        detail::fail(*field, "true", "needs the pipeline's VAE decoder; \"" + name + "\" has none (a model file's vae_decoder)");
    }
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
  n.pool_indices = 56 * 56 * 64;  // the 3 x 3, stride-2 max pool after conv1
  auto add = [&](std::int64_t pixels, std::int64_t cin, std::int64_t cout, int k, int count = 1, bool residual = false) {
    n.convs.push_back(ConvLayer{pixels, cin, cout, k, count, true, residual});
  };
  // A downsampling block's 1 x 1 projection shortcut: batch norm, no ReLU (its output goes to the add).
  auto projection = [&](std::int64_t pixels, std::int64_t cin, std::int64_t cout) {
    n.convs.push_back(ConvLayer{pixels, cin, cout, 1, 1, true, false, false});
  };
  // Each bottleneck's third convolution (1 x 1, 4x the channels) is added to the shortcut: 16 adds.
  constexpr bool block_out = true;
  add(112 * 112, 3, 64, 7);  // conv1
  // stage 1, 56 x 56
  add(3136, 64, 64, 1); add(3136, 64, 64, 3); add(3136, 64, 256, 1, 1, block_out); projection(3136, 64, 256);  // block 1 + projection
  add(3136, 256, 64, 1, 2); add(3136, 64, 64, 3, 2); add(3136, 64, 256, 1, 2, block_out);
  // stage 2, 28 x 28
  add(3136, 256, 128, 1); add(784, 128, 128, 3); add(784, 128, 512, 1, 1, block_out); projection(784, 256, 512);
  add(784, 512, 128, 1, 3); add(784, 128, 128, 3, 3); add(784, 128, 512, 1, 3, block_out);
  // stage 3, 14 x 14
  add(784, 512, 256, 1); add(196, 256, 256, 3); add(196, 256, 1024, 1, 1, block_out); projection(196, 512, 1024);
  add(196, 1024, 256, 1, 5); add(196, 256, 256, 3, 5); add(196, 256, 1024, 1, 5, block_out);
  // stage 4, 7 x 7
  add(196, 1024, 512, 1); add(49, 512, 512, 3); add(49, 512, 2048, 1, 1, block_out); projection(49, 1024, 2048);
  add(49, 2048, 512, 1, 2); add(49, 512, 512, 3, 2); add(49, 512, 2048, 1, 2, block_out);
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

// A latent-diffusion UNet (Rombach et al. 2022, "High-Resolution Image Synthesis with Latent Diffusion
// Models", §3.3 and Appendix; Podell et al. 2023 for SDXL) as Hugging Face diffusers' UNet2DConditionModel
// builds it: conv_in; per level `layers_per_block` ResNet blocks (GroupNorm + SiLU, 3x3 conv, the time
// embedding added, GroupNorm + SiLU, 3x3 conv, a 1x1 shortcut where the channels change, the residual
// add and its division by output_scale_factor), each followed by a Transformer2DModel where the level
// has attention (GroupNorm, projection in, BasicTransformerBlocks of LayerNorm + self-attention,
// LayerNorm + cross-attention to the text encoder's tokens, LayerNorm + GEGLU feed-forward, each with
// its residual add, projection out, residual add), a stride-2 3x3 downsampling conv between levels; a
// middle ResNet + transformer + ResNet; up levels of layers_per_block + 1 ResNet blocks over the skip
// concatenations, nearest 2x upsampling + 3x3 conv between levels; GroupNorm + SiLU and conv_out.
// Query, key and value projections have no bias. One sample is one latent (one image's denoising
// step; classifier-free guidance runs two per image).
struct UNetConfig {
  std::string name;
  std::vector<std::int64_t> channels;     // per level (block_out_channels)
  std::vector<int> transformer_depth;     // BasicTransformerBlocks per attention, per level (0: none)
  int mid_transformer_depth = 1;
  int layers_per_block = 2;
  std::int64_t heads = 0;                 // heads at every level (SD 1.x: 8), or 0 with head_dim
  std::int64_t head_dim = 0;              // channels per head at every level (SDXL: 64), or 0 with heads
  std::int64_t cross_attention_dim = 768;  // the text encoder's width
  std::int64_t context_tokens = 77;        // the prompt's tokens (CLIP's context)
  bool linear_projection = false;          // proj_in / proj_out as linear layers (SDXL) or 1x1 convs (SD 1.x)
  std::int64_t added_embedding = 0;        // SDXL's text + size conditioning into the time embedding (2,816); 0: none
  int latent_side = 64;                    // the latent's height (the image's / 8), and its width unless below
  int latent_width = 0;                    // the latent's width where it differs (832 x 1216: 104 x 152); 0: latent_side
  int latent_channels = 4;
  // The pipeline's text encoders and VAE (ImageModel::companion_parameters): loaded with the UNet.
  double companion_parameters = 0;
  std::string companions;
  bool vae_fp32 = false;  // the pipeline decodes in fp32 (SDXL)
  std::vector<ImageModel> text_encoders;  // timed once per batch (ImageModel::text_encoders)
  // The VAE's sample_size (vae/config.json): a tiled decode works in tiles of sample_size / 8 latent
  // values a side (SD 1.x 512, SDXL 1024).
  int vae_sample_size = 512;
};

// How diffusers' AutoencoderKL.tiled_decode splits an h x w latent (enable_vae_tiling; used when a side
// exceeds `tile`, the VAE's sample_size / 8): tiles start every int(tile x 0.75) values along each
// side (tile_overlap_factor 0.25), each `tile` a side or what is left at the edge, decoded one by one
// over the batch and blended where they overlap. Empty when the latent fits one tile.
inline std::vector<VaeTile> vae_tiles(std::int64_t h, std::int64_t w, std::int64_t tile) {
  if (h < 1 || h > 4096) detail::fail("latent_side", std::to_string(h), "must be from 1 to 4096");
  if (w < 1 || w > 4096) detail::fail("latent_width", std::to_string(w), "must be from 1 to 4096");
  if (tile < 4 || tile > 4096) detail::fail("tile", std::to_string(tile), "must be from 4 to 4096 latent values");
  std::vector<VaeTile> out;
  if (h <= tile && w <= tile) return out;
  const std::int64_t stride = tile * 3 / 4;
  const auto sides = [&](std::int64_t n) {
    std::vector<std::int64_t> v;
    for (std::int64_t i = 0; i < n; i += stride) v.push_back(std::min(tile, n - i));
    return v;
  };
  for (const std::int64_t th : sides(h)) {
    for (const std::int64_t tw : sides(w)) {
      auto it = std::find_if(out.begin(), out.end(), [&](const VaeTile& t) { return t.h == th && t.w == tw; });
      if (it == out.end()) out.push_back(VaeTile{th, tw, 1});
      else ++it->count;
    }
  }
  return out;
}

// A CLIP text encoder (Radford et al. 2021, §2.4; Hugging Face transformers' CLIPTextModel): token and
// position embeddings summed, `layers` pre-LayerNorm blocks of causal self-attention (biased Q, K, V
// and output projections) and an MLP of `mlp` (quick-GELU in OpenAI's CLIP, GELU in OpenCLIP's; timed
// alike), each with its residual add, and a final
// LayerNorm over every token; `projection` > 0 adds CLIPTextModelWithProjection's bias-free projection
// of the pooled (end-of-text) token. One sample is one prompt of `tokens` tokens (77, CLIP's context).
// The causal mask is not discounted: the fused attention kernel is timed over all 77 x 77 scores.
inline ImageModel clip_text_encoder(std::string name, int layers, std::int64_t hidden, std::int64_t mlp, std::int64_t heads,
                                    std::int64_t projection = 0, std::int64_t tokens = 77, std::int64_t vocab = 49'408) {
  if (layers < 1 || layers > 1'000) detail::fail("layers", std::to_string(layers), "must be from 1 to 1000");
  if (hidden < 1 || hidden > 65'536) detail::fail("hidden", std::to_string(hidden), "must be from 1 to 65536");
  if (mlp < 1 || mlp > 262'144) detail::fail("mlp", std::to_string(mlp), "must be from 1 to 262144");
  if (heads < 1 || hidden % heads != 0) detail::fail("heads", std::to_string(heads), "must divide hidden (" + std::to_string(hidden) + ")");
  if (projection < 0 || projection > 65'536) detail::fail("projection", std::to_string(projection), "must be from 0 to 65536");
  if (tokens < 1 || tokens > 4'096) detail::fail("tokens", std::to_string(tokens), "must be from 1 to 4096");
  if (vocab < 1 || vocab > 1'048'576) detail::fail("vocab", std::to_string(vocab), "must be from 1 to 1048576");
  ImageModel n;
  n.name = std::move(name);
  n.elementwise.push_back(ElementwiseLayer{tokens * hidden, 3, 1, 0, 0, 1});  // token + position embeddings
  n.linears.push_back(LinearLayer{tokens, hidden, 3 * hidden, layers, true, false, false});  // LN + QKV
  n.attentions.push_back(AttentionLayer{tokens, heads, hidden / heads, layers, true});
  n.linears.push_back(LinearLayer{tokens, hidden, hidden, layers, false, false, true});  // out proj + residual
  n.linears.push_back(LinearLayer{tokens, hidden, mlp, layers, true, true, false});      // LN + MLP 1 + quick-GELU
  n.linears.push_back(LinearLayer{tokens, mlp, hidden, layers, false, false, true});     // MLP 2 + residual
  n.elementwise.push_back(ElementwiseLayer{tokens * hidden, 2, 1, 0, 2 * hidden, 1});   // final LayerNorm
  if (projection > 0) n.linears.push_back(LinearLayer{1, hidden, projection, 1, false, false, false, false});
  n.input_elements = tokens;
  n.image = std::to_string(tokens) + " tokens";
  n.parameters = n.layer_parameters() + static_cast<double>((vocab + tokens) * hidden);
  return n;
}

// The text encoders of Stable Diffusion 1.x and SDXL, as their checkpoints' text_encoder*/config.json
// give them: CLIP ViT-L/14's (12 layers, width 768, 12 heads, MLP 3,072: 123,060,480 parameters) and
// OpenCLIP ViT-bigG/14's with its projection (32 layers, width 1,280, 20 heads, MLP 5,120, projection
// 1,280: 694,659,840 parameters).
inline ImageModel clip_vit_l14_text() { return clip_text_encoder("CLIP ViT-L/14 text encoder", 12, 768, 3072, 12); }
inline ImageModel openclip_vit_bigg14_text() { return clip_text_encoder("OpenCLIP ViT-bigG/14 text encoder", 32, 1280, 5120, 20, 1280); }

// The parameters of Stable Diffusion's and SDXL's VAE (AutoencoderKL, encoder and decoder): 83,653,863.
inline constexpr double sd_vae_parameters = 83'653'863.0;

// The VAE decoder of Stable Diffusion 1.x and SDXL (diffusers AutoencoderKL, the checkpoints'
// vae/config.json: block_out_channels 128, 256, 512, 512; layers_per_block 2, so three ResNet blocks
// per up block; a single-head attention over the latent in the middle block; GroupNorm with 32
// groups; post_quant_conv 1x1 first): 49,490,199 parameters with post_quant_conv, the encoder's
// 34,163,664 making the VAE's 83,653,863. It turns a latent of side x width into an image 8 times
// larger, once per image.
inline ImageModel vae_decoder(std::int64_t latent_side, std::int64_t latent_width, std::int64_t latent_channels = 4) {
  if (latent_side < 1 || latent_side > 4096) detail::fail("latent_side", std::to_string(latent_side), "must be from 1 to 4096");
  if (latent_width < 1 || latent_width > 4096) detail::fail("latent_width", std::to_string(latent_width), "must be from 1 to 4096");
  ImageModel n;
  n.name = "SD VAE decoder";
  const auto conv = [&](std::int64_t pixels, std::int64_t cin, std::int64_t cout, int k) { n.convs.push_back(ConvLayer{pixels, cin, cout, k, 1, false}); };
  const auto elem = [&](std::int64_t elements, double passes, int kernels, std::int64_t params = 0) {
    n.elementwise.push_back(ElementwiseLayer{elements, passes, kernels, 0, params, 1});
  };
  const auto resnet = [&](std::int64_t pixels, std::int64_t in, std::int64_t out) {
    elem(pixels * in, 5, 3, 2 * in);  // GroupNorm + SiLU
    conv(pixels, in, out, 3);
    elem(pixels * out, 5, 3, 2 * out);
    conv(pixels, out, out, 3);
    if (in != out) conv(pixels, in, out, 1);  // conv_shortcut
    elem(pixels * out, 3, 1);                 // + the block's input
  };
  std::int64_t pixels = latent_side * latent_width;
  conv(pixels, latent_channels, latent_channels, 1);  // post_quant_conv
  conv(pixels, latent_channels, 512, 3);              // conv_in
  resnet(pixels, 512, 512);
  elem(pixels * 512, 3, 2, 2 * 512);  // the attention's GroupNorm
  n.linears.push_back(LinearLayer{pixels, 512, 512, 4, false, false, false});  // q, k, v, out (with bias)
  n.attentions.push_back(AttentionLayer{pixels, 1, 512, 1, true, 0});
  elem(pixels * 512, 3, 1);  // + residual
  resnet(pixels, 512, 512);
  const std::int64_t up[] = {512, 512, 256, 128};
  std::int64_t prev = 512;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 3; ++j) resnet(pixels, j == 0 ? prev : up[i], up[i]);
    prev = up[i];
    if (i < 3) {
      pixels *= 4;
      elem(pixels * up[i], 1.25, 1);  // nearest 2x
      conv(pixels, up[i], up[i], 3);
    }
  }
  elem(pixels * 128, 5, 3, 2 * 128);  // conv_norm_out + SiLU
  conv(pixels, 128, 3, 3);           // conv_out
  n.input_elements = latent_channels * latent_side * latent_width;
  n.image = std::to_string(8 * latent_width) + " x " + std::to_string(8 * latent_side);
  n.parameters = n.layer_parameters();
  return n;
}

inline ImageModel diffusion_unet(const UNetConfig& c) {
  const auto in_range = [](std::int64_t v, std::int64_t lo, std::int64_t hi, const char* field) {
    if (v < lo || v > hi) detail::fail(field, std::to_string(v), "must be from " + std::to_string(lo) + " to " + std::to_string(hi));
  };
  if (c.channels.empty() || c.channels.size() != c.transformer_depth.size())
    detail::fail("channels", std::to_string(c.channels.size()) + " levels", "must be one or more, one transformer_depth each");
  in_range(static_cast<std::int64_t>(c.channels.size()), 1, 8, "levels");
  in_range(c.layers_per_block, 1, 16, "layers_per_block");
  in_range(c.mid_transformer_depth, 0, 64, "mid_transformer_depth");
  // Each level halves both sides: they must divide by 2^(levels - 1) (diffusers pads nothing here).
  const std::int64_t halvings = std::int64_t{1} << (c.channels.size() - 1);
  in_range(c.latent_side, halvings, 4096, "latent_side");
  if (c.latent_side % halvings != 0)
    detail::fail("latent_side", std::to_string(c.latent_side), "must be a multiple of " + std::to_string(halvings) + " (the image's side of " + std::to_string(8 * halvings) + ")");
  if (c.latent_width != 0) {
    in_range(c.latent_width, halvings, 4096, "latent_width");
    if (c.latent_width % halvings != 0)
      detail::fail("latent_width", std::to_string(c.latent_width), "must be a multiple of " + std::to_string(halvings) + " (the image's side of " + std::to_string(8 * halvings) + ")");
  }
  in_range(c.latent_channels, 1, 64, "latent_channels");
  in_range(c.cross_attention_dim, 1, 65'536, "cross_attention_dim");
  in_range(c.context_tokens, 1, 65'536, "context_tokens");
  in_range(c.added_embedding, 0, 65'536, "added_embedding");
  if ((c.heads > 0) == (c.head_dim > 0)) detail::fail("heads", std::to_string(c.heads), "give heads or head_dim, not both or neither");
  for (std::size_t i = 0; i < c.channels.size(); ++i) {
    in_range(c.channels[i], 32, 65'536, "channels");
    if (c.channels[i] % 32 != 0) detail::fail("channels", std::to_string(c.channels[i]), "must be a multiple of GroupNorm's 32 groups");
    in_range(c.transformer_depth[i], 0, 64, "transformer_depth");
    const std::int64_t per = c.heads > 0 ? c.heads : c.head_dim;
    if (c.channels[i] % per != 0) detail::fail(c.heads > 0 ? "heads" : "head_dim", std::to_string(per), "does not divide the channels " + std::to_string(c.channels[i]));
  }
  ImageModel n;
  n.name = c.name;
  const std::int64_t c0 = c.channels.front(), temb = 4 * c0;
  // Consecutive identical layers are one entry with a count.
  const auto conv = [&](std::int64_t pixels, std::int64_t cin, std::int64_t cout, int k) {
    const ConvLayer l{pixels, cin, cout, k, 1, false};
    if (!n.convs.empty()) {
      ConvLayer& b = n.convs.back();
      if (b.out_pixels == l.out_pixels && b.in_channels == cin && b.out_channels == cout && b.kernel == k) {
        ++b.count;
        return;
      }
    }
    n.convs.push_back(l);
  };
  const auto linear = [&](std::int64_t tokens, std::int64_t in, std::int64_t out, bool bias, int count = 1) {
    LinearLayer l{tokens, in, out, count, false, false, false};
    l.bias = bias;
    n.linears.push_back(l);
  };
  const auto elem = [&](std::int64_t elements, double passes, int kernels, double saved, std::int64_t params = 0) {
    n.elementwise.push_back(ElementwiseLayer{elements, passes, kernels, saved, params, 1});
  };
  // GroupNorm + SiLU: the norm's statistics pass and normalize pass (read twice, write), SiLU (read, write);
  // autograd keeps the norm's input and SiLU's input.
  const auto group_norm_silu = [&](std::int64_t pixels, std::int64_t ch) { elem(pixels * ch, 5, 3, 2, 2 * ch); };
  const auto resnet = [&](std::int64_t pixels, std::int64_t in, std::int64_t out) {
    group_norm_silu(pixels, in);
    conv(pixels, in, out, 3);
    linear(1, temb, out, true);       // time_emb_proj of SiLU(time embedding)
    elem(pixels * out, 2, 1, 0);      // + the time embedding, broadcast over the pixels
    group_norm_silu(pixels, out);
    conv(pixels, out, out, 3);
    if (in != out) conv(pixels, in, out, 1);  // conv_shortcut
    elem(pixels * out, 5, 2, 0);      // (input + output) / output_scale_factor: two kernels
  };
  const auto transformer = [&](std::int64_t pixels, std::int64_t ch, int depth) {
    if (depth == 0) return;
    const std::int64_t heads = c.heads > 0 ? c.heads : ch / c.head_dim;
    const std::int64_t hd = ch / heads;
    elem(pixels * ch, 3, 2, 1, 2 * ch);  // GroupNorm (no activation)
    if (c.linear_projection) linear(pixels, ch, ch, true);
    else conv(pixels, ch, ch, 1);
    for (int d = 0; d < depth; ++d) {
      // LayerNorm, self-attention (q, k, v without bias), the division by rescale_output_factor, out + residual.
      elem(pixels * ch, 2, 1, 1, 2 * ch);
      linear(pixels, ch, ch, false, 3);
      n.attentions.push_back(AttentionLayer{pixels, heads, hd, 1, true, 0});
      elem(pixels * ch, 2, 1, 0);
      linear(pixels, ch, ch, true);
      elem(pixels * ch, 3, 1, 0);
      // LayerNorm, cross-attention: queries from the image, keys and values from the prompt's tokens.
      elem(pixels * ch, 2, 1, 1, 2 * ch);
      linear(pixels, ch, ch, false);
      linear(c.context_tokens, c.cross_attention_dim, ch, false, 2);
      n.attentions.push_back(AttentionLayer{pixels, heads, hd, 1, true, c.context_tokens});
      elem(pixels * ch, 2, 1, 0);
      linear(pixels, ch, ch, true);
      elem(pixels * ch, 3, 1, 0);
      // LayerNorm, GEGLU (one projection to 2 x 4 ch, GELU of the gate half times the other half), down + residual.
      elem(pixels * ch, 2, 1, 1, 2 * ch);
      linear(pixels, ch, 8 * ch, true);
      elem(pixels * 4 * ch, 5, 2, 2);
      linear(pixels, 4 * ch, ch, true);
      elem(pixels * ch, 3, 1, 0);
    }
    if (c.linear_projection) linear(pixels, ch, ch, true);
    else conv(pixels, ch, ch, 1);
    elem(pixels * ch, 3, 1, 0);  // + the block's input
  };
  const std::int64_t side = c.latent_side, width = c.latent_width > 0 ? c.latent_width : c.latent_side;
  std::int64_t pixels = side * width;
  // Time embedding (sinusoidal 320 -> linear, SiLU, linear) and SDXL's added conditioning.
  linear(1, c0, temb, true);
  linear(1, temb, temb, true);
  if (c.added_embedding > 0) {
    linear(1, c.added_embedding, temb, true);
    linear(1, temb, temb, true);
  }
  conv(pixels, c.latent_channels, c0, 3);
  std::vector<std::int64_t> skips{c0};
  std::int64_t out = c0;
  const std::size_t levels = c.channels.size();
  for (std::size_t i = 0; i < levels; ++i) {
    const std::int64_t in = out;
    out = c.channels[i];
    for (int j = 0; j < c.layers_per_block; ++j) {
      resnet(pixels, j == 0 ? in : out, out);
      transformer(pixels, out, c.transformer_depth[i]);
      skips.push_back(out);
    }
    if (i + 1 < levels) {
      pixels /= 4;
      conv(pixels, out, out, 3);  // stride 2
      skips.push_back(out);
    }
  }
  const std::int64_t top = c.channels.back();
  resnet(pixels, top, top);
  transformer(pixels, top, c.mid_transformer_depth);
  resnet(pixels, top, top);
  std::int64_t prev = top;
  for (std::size_t k = 0; k < levels; ++k) {
    const std::size_t i = levels - 1 - k;
    const std::int64_t ch = c.channels[i];
    for (int j = 0; j <= c.layers_per_block; ++j) {
      const std::int64_t skip = skips.back();
      skips.pop_back();
      const std::int64_t in = j == 0 ? prev : ch;
      elem(pixels * (in + skip), 2, 1, 0);  // torch.cat with the skip
      resnet(pixels, in + skip, ch);
      transformer(pixels, ch, c.transformer_depth[i]);
    }
    prev = ch;
    if (k + 1 < levels) {
      pixels *= 4;
      elem(pixels * ch, 1.25, 1, 0);  // nearest 2x: read a quarter, write all
      conv(pixels, ch, ch, 3);
    }
  }
  group_norm_silu(pixels, c0);
  conv(pixels, c0, c.latent_channels, 3);
  n.input_elements = c.latent_channels * side * width;
  n.image = std::to_string(8 * width) + " x " + std::to_string(8 * side) + " (" + std::to_string(width) + " x " + std::to_string(side) + " latent)";
  n.parameters = n.layer_parameters();
  n.companion_parameters = c.companion_parameters;
  n.companions = c.companions;
  n.decoder = {vae_decoder(side, width, c.latent_channels)};
  if (c.vae_sample_size < 32 || c.vae_sample_size > 32'768 || c.vae_sample_size % 8 != 0)
    detail::fail("vae_sample_size", std::to_string(c.vae_sample_size), "must be a multiple of 8 from 32 to 32768 pixels");
  n.decoder_tiles = vae_tiles(side, width, c.vae_sample_size / 8);
  n.decoder_fp32 = c.vae_fp32;
  n.text_encoders = c.text_encoders;
  return n;
}

// Stable Diffusion 1.5's UNet (runwayml/stable-diffusion-v1-5 unet/config.json: block_out_channels
// 320, 640, 1280, 1280; attention at the first three levels and the middle, one block each; 8 heads;
// CLIP ViT-L/14 context of 768; 1x1-conv projections) at 512 x 512: 859,520,964 parameters.
inline UNetConfig sd15_unet_config() {
  UNetConfig c;
  c.name = "Stable Diffusion 1.5 UNet";
  c.channels = {320, 640, 1280, 1280};
  c.transformer_depth = {1, 1, 1, 0};
  c.mid_transformer_depth = 1;
  c.heads = 8;
  c.cross_attention_dim = 768;
  c.latent_side = 64;
  // text_encoder (CLIPTextModel, ViT-L/14) 123,060,480 and vae (AutoencoderKL) 83,653,863 parameters.
  c.companion_parameters = 123'060'480.0 + sd_vae_parameters;
  c.companions = "the CLIP ViT-L/14 text encoder and the VAE";
  c.text_encoders = {clip_vit_l14_text()};
  // vae/config.json "sample_size": 512 (as open-mmlab/mmagic's stable-diffusion config repeats it;
  // huggingface/diffusers pull request #1441, which added tiling, documents it on this checkpoint:
  // "The tiling is turned off for images that are 512x512 or smaller"): 64 x 64 latent tiles.
  c.vae_sample_size = 512;
  return c;
}
inline ImageModel sd15_unet() { return diffusion_unet(sd15_unet_config()); }

// SDXL 1.0 base's UNet (stabilityai/stable-diffusion-xl-base-1.0 unet/config.json; Podell et al. 2023,
// Table 1: block_out_channels 320, 640, 1280; transformer depths 0, 2, 10 and 10 in the middle; 64
// channels per head; context 2,048 from two text encoders; linear projections; 2,816 values of text
// and size conditioning) at 1024 x 1024: 2,567,463,684 parameters.
inline UNetConfig sdxl_unet_config() {
  UNetConfig c;
  c.name = "SDXL 1.0 UNet";
  c.channels = {320, 640, 1280};
  c.transformer_depth = {0, 2, 10};
  c.mid_transformer_depth = 10;
  c.head_dim = 64;
  c.cross_attention_dim = 2048;
  c.linear_projection = true;
  c.added_embedding = 2816;
  c.latent_side = 128;
  // text_encoder (CLIP ViT-L/14) 123,060,480, text_encoder_2 (OpenCLIP ViT-bigG/14 with projection)
  // 694,659,840 and vae 83,653,863 parameters.
  c.companion_parameters = 123'060'480.0 + 694'659'840.0 + sd_vae_parameters;
  c.companions = "the two text encoders (CLIP ViT-L/14, OpenCLIP ViT-bigG/14) and the VAE";
  c.text_encoders = {clip_vit_l14_text(), openclip_vit_bigg14_text()};
  // vae/config.json "force_upcast": true: StableDiffusionXLPipeline decodes in fp32; "sample_size":
  // 1024 (with "scaling_factor": 0.13025, as public reproductions of the config give it), so a tiled
  // decode works in 128 x 128 latent tiles (none at 1024 x 1024).
  c.vae_fp32 = true;
  c.vae_sample_size = 1024;
  return c;
}
inline ImageModel sdxl_unet() { return diffusion_unet(sdxl_unet_config()); }

// The configuration of a diffusion-UNet preset ("sd15-unet", "sdxl-unet"), to build it at another
// resolution (latent_side and latent_width are the image's height and width / 8); nullopt otherwise.
inline std::optional<UNetConfig> find_unet_config(std::string_view preset_id) {
  if (preset_id == "sd15-unet") return sd15_unet_config();
  if (preset_id == "sdxl-unet") return sdxl_unet_config();
  return std::nullopt;
}

// The layer-level shape of a model preset (workload/presets.hpp) that has one; nullptr otherwise.
inline const ImageModel* find_image_model(std::string_view preset_id) {
  static const ImageModel resnet50 = resnet50_v15();
  static const ImageModel vit_b = vit_b16();
  static const ImageModel vit_l = vit_l16();
  static const ImageModel sd15 = sd15_unet();
  static const ImageModel sdxl = sdxl_unet();
  if (preset_id == "sd15-unet") return &sd15;
  if (preset_id == "sdxl-unet") return &sdxl;
  if (preset_id == "resnet50") return &resnet50;
  if (preset_id == "vit-b16") return &vit_b;
  if (preset_id == "vit-l16") return &vit_l;
  return nullptr;
}

// ImageNet-1k (ILSVRC 2012) training set: 1,281,167 images (Russakovsky et al. 2015, Table 2).
inline constexpr std::int64_t imagenet_1k_train_images = 1'281'167;

}  // namespace capplan
