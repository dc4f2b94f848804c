// Per-GPU memory of data-parallel image-model training (PyTorch, as NVIDIA's ResNet-50 recipe and
// timm run it: AMP or FP32, SGD with momentum), in the MemoryBudget every report prints.
//
//   model states   fp32 weights + fp32 gradients + fp32 momentum = 12 B per parameter (AMP keeps the
//                  fp32 weights as the master copy; autocast's fp16 copies are per-op and transient)
//   activations    what autograd saves for the backward pass, per image, at the compute precision:
//                  each convolution followed by batch norm + ReLU keeps two tensors of its output size,
//                  the convolution's output (batch norm's saved input) and the ReLU's output (ReLU's
//                  saved result, which is also the next convolution's saved input); a convolution
//                  without them keeps its output; plus the input image and the classifier's input, and
//                  the max pool's int64 indices (8 B each). A transformer block's linear layer keeps
//                  its input, and a LayerNorm before it its own fp32 input (the residual stream under
//                  autocast); GELU keeps its input; fused attention keeps Q, K, V, its output and the
//                  log-sum-exp, separate kernels the QKV output, the scaled queries and the
//                  heads x tokens^2 probabilities; an element-wise layer (a UNet's GroupNorm + SiLU,
//                  LayerNorm, GEGLU) what its `saved` says: native_group_norm and silu save their inputs
//   reserve        RuntimeReserve: 1 GiB (CUDA context, cuDNN workspace) + 5 % of the tensors
//
// Source of the saved tensors: PyTorch's autograd formulas (tools/autograd/derivatives.yaml:
// convolution saves input and weight; native_batch_norm saves input, mean and inverse std; relu saves
// its result; max_pool2d_with_indices saves input and indices; native_layer_norm saves input, mean
// and rstd; gelu saves self; _scaled_dot_product_flash_attention saves query, key, value, output
// and logsumexp; _softmax saves result). A check: NVIDIA's recipe trains
// ResNet-50 at 256 images per 16 GB V100 or T4 in AMP and at 112 (V100) or 128 (T4) in FP32
// (DeepLearningExamples PyTorch/Classification/ConvNets/configs.yml); these fit and twice the FP32
// batches do not (tests/memory_test.cpp).
#pragma once

#include "capplan/error.hpp"
#include "capplan/hardware/precision.hpp"
#include "capplan/memory/budget.hpp"
#include "capplan/units/format.hpp"
#include "capplan/workload/image_model.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace capplan {

// Elements autograd keeps per sample for the backward pass (the rule above), at the compute
// precision; the fp32 stream values and the max-pool indices are apart (image_saved_bytes_per_sample).
inline double image_saved_elements_per_sample(const ImageModel& net) {
  double e = static_cast<double>(net.input_elements) + static_cast<double>(net.fc_in);
  for (const ConvLayer& c : net.convs) {
    require_positive_count(c.out_pixels, "out_pixels");
    require_positive_count(c.count, "count");
    e += static_cast<double>(c.count) * static_cast<double>(c.out_pixels) * static_cast<double>(c.out_channels) * (c.norm_activation ? 2.0 : 1.0);
  }
  for (const LinearLayer& l : net.linears) {
    const double t = static_cast<double>(l.tokens);
    e += static_cast<double>(l.count) * t * (static_cast<double>(l.in_features) + (l.activation ? static_cast<double>(l.out_features) : 0.0));
  }
  for (const AttentionLayer& a : net.attentions) {
    const double t = static_cast<double>(a.tokens), kv = static_cast<double>(a.keys()), hd = static_cast<double>(a.heads * a.head_dim);
    // Fused: Q, K, V (views of the QKV output), the output and the log-sum-exp (fp32, counted as two
    // values); separate kernels: the QKV output, the scaled queries and the softmax's probabilities.
    // Cross-attention's K and V span the keys' tokens.
    e += static_cast<double>(a.count) * (a.fused ? (2 * t + 2 * kv) * hd + 2 * t * static_cast<double>(a.heads)
                                                 : (2 * t + 2 * kv) * hd + t * kv * static_cast<double>(a.heads));
  }
  for (const ElementwiseLayer& l : net.elementwise)
    e += static_cast<double>(l.count) * static_cast<double>(l.elements) * l.saved;
  return e;
}

// Bytes autograd keeps per sample: the values above at `p`, the LayerNorms' fp32 inputs (the residual
// stream under AMP, perf/image_model.hpp) and the max-pool indices (8 B each).
//
// Unfused attention under AMP keeps its probabilities twice: softmax's fp32 output and the fp16 copy
// P V takes (autocast runs softmax in fp32); in fp32 they are one tensor.
inline double image_saved_bytes_per_sample(const ImageModel& net, Precision p) {
  double stream = 0;
  for (const LinearLayer& l : net.linears)
    if (l.norm_before) stream += static_cast<double>(l.count) * static_cast<double>(l.tokens) * static_cast<double>(l.in_features);
  if (bytes_per_element(p) < 4)
    for (const AttentionLayer& a : net.attentions)
      if (!a.fused)
        stream += static_cast<double>(a.count) * static_cast<double>(a.tokens) * static_cast<double>(a.tokens) * static_cast<double>(a.heads);
  return image_saved_elements_per_sample(net) * bytes_per_element(p) + stream * 4.0 + static_cast<double>(net.pool_indices) * 8.0;
}

// The precisions an image model trains at: fp16 or bf16 with AMP, fp32. Others throw InputError
// naming `field`.
inline void validate_image_training_precision(Precision p, std::string_view field = "precision") {
  if (p != Precision::fp16 && p != Precision::bf16 && p != Precision::fp32)
    detail::fail(field, std::string(name(p)), "is not one an image model trains at (fp16 or bf16 with AMP, fp32)");
}

// The precisions an image model runs inference at: fp16, bf16, fp32 (tf32: fp32 on TF32 tensor cores,
// as a diffusion pipeline's fp32 VAE decodes), and a UNet quantized to fp8 or int8 (TensorRT, torchao).
// Others throw InputError naming `field`.
inline void validate_image_inference_precision(Precision p, std::string_view field = "precision") {
  if (p != Precision::fp16 && p != Precision::bf16 && p != Precision::fp32 && p != Precision::tf32 && p != Precision::fp8 &&
      p != Precision::int8)
    detail::fail(field, std::string(name(p)), "is not one an image model runs at here (fp16, bf16, fp32, tf32, fp8, int8)");
}

// The budget of training `net` at `batch` images per GPU, computing at `p` (fp16/bf16: AMP; fp32).
inline MemoryBudget image_training_memory(const ImageModel& net, std::int64_t batch, Precision p = Precision::fp16,
                                        const RuntimeReserve& reserve = {}) {
  require_positive_count(batch, "batch");
  net.validate();
  validate_image_training_precision(p);
  const double e = bytes_per_element(p);
  const double b = static_cast<double>(batch);
  MemoryBudget m;
  const std::string params = format_number(net.parameters / 1e6, 4) + "M params";
  m.weights.size = DataSize::from_value(net.parameters * 4);
  m.weights.detail = params + " x 4 B (fp32" + std::string(p == Precision::fp32 ? ")" : ", the master copy under AMP)");
  m.gradients.size = DataSize::from_value(net.parameters * 4);
  m.gradients.detail = params + " x 4 B (fp32)";
  m.optimizer_states.size = DataSize::from_value(net.parameters * 4);
  m.optimizer_states.detail = params + " x 4 B (SGD momentum, fp32)";
  const double saved = image_saved_elements_per_sample(net);
  const double per_image = image_saved_bytes_per_sample(net, p);
  const bool stream = per_image > saved * e + static_cast<double>(net.pool_indices) * 8.0;
  m.activations.size = DataSize::from_value(b * per_image);
  m.activations.detail = std::to_string(batch) + " images x " + format(DataSize::from_value(per_image)) + " (" + format_number(saved / 1e6, 4) +
                         "M saved values x " + format_number(e, 2) + " B" + (net.pool_indices > 0 ? " + max-pool indices" : "") +
                         (stream ? " + fp32 values under autocast" : "") + ")";
  const DataSize planned = m.model_states() + m.activations.size;
  m.runtime_reserve.size = reserve.of(planned);
  m.runtime_reserve.detail = format(reserve.fixed, {.prefixes = Prefixes::binary}) + " + " + format_number(100 * reserve.fragmentation, 3) +
                             "% of the tensors";
  m.tight_margin = reserve.tight_margin(planned);
  return m;
}

// The precision a diffusion pipeline's companions (its text encoders, and its VAE unless the pipeline
// upcasts it) run and are held at: the UNet's, except that a UNet quantized to FP8, INT8, FP6 or FP4 leaves
// them in fp16 (quantization tools quantize the denoiser; the encoders and the VAE stay at the
// pipeline's torch_dtype).
inline Precision companion_precision(Precision p) {
  return p == Precision::fp8 || p == Precision::int8 || p == Precision::fp4 || p == Precision::fp6 ? Precision::fp16 : p;
}

// Values alive at the peak of one sample's forward pass without autograd (inference): the largest
// step's input and output, plus one tensor as large as the largest output held beside it (a residual
// or skip input waiting for its add). A convolution's input is counted at its output's resolution; an
// unfused attention adds its scores and probabilities. capplan's approximation: PyTorch frees each
// tensor when its last user has run, so the peak is one step wide, not the sum of the layers.
inline double image_inference_peak_elements(const ImageModel& net) {
  double step = 0, largest_out = 0;
  const auto at = [&](double in, double out) {
    step = std::max(step, in + out);
    largest_out = std::max(largest_out, out);
  };
  for (const ConvLayer& c : net.convs)
    at(static_cast<double>(c.out_pixels) * static_cast<double>(c.in_channels), static_cast<double>(c.out_pixels) * static_cast<double>(c.out_channels));
  for (const LinearLayer& l : net.linears)
    at(static_cast<double>(l.tokens) * static_cast<double>(l.in_features), static_cast<double>(l.tokens) * static_cast<double>(l.out_features));
  for (const AttentionLayer& a : net.attentions) {
    const double q = static_cast<double>(a.tokens) * static_cast<double>(a.heads) * static_cast<double>(a.head_dim);
    const double kv = static_cast<double>(a.keys()) * static_cast<double>(a.heads) * static_cast<double>(a.head_dim);
    const double scores = a.fused ? 0.0 : 2.0 * static_cast<double>(a.heads) * static_cast<double>(a.tokens) * static_cast<double>(a.keys());
    at(q + 2 * kv + scores, q);
  }
  for (const ElementwiseLayer& l : net.elementwise) at(static_cast<double>(l.elements), static_cast<double>(l.elements));
  return step + largest_out;
}

// The memory of generating `images` images a batch at a time with a diffusion pipeline (or running an
// image model's forward pass): the loaded weights (the model's and its companions' at `p`; a VAE the
// pipeline upcasts held in fp32), and the larger of the model's peak over `samples` (a UNet step's
// latents, two per image under guidance) and the VAE decoder's over the images at `decode` (over one
// image with `vae_slicing`, diffusers' enable_vae_slicing; one tile at a time with `vae_tiling`,
// enable_vae_tiling, where the model has decoder_tiles). `decode` defaults to what the pipeline
// runs: fp32 where it upcasts the VAE (ImageModel::decoder_fp32), else `p`; estimate_image_generation's
// decode_precision says which (TF32 stores fp32 values).
inline MemoryBudget image_generation_memory(const ImageModel& net, std::int64_t images, std::int64_t samples, Precision p,
                                            std::optional<Precision> decode_at = std::nullopt, const RuntimeReserve& reserve = {},
                                            bool vae_slicing = false, bool vae_tiling = false) {
  require_positive_count(images, "images");
  require_positive_count(samples, "samples");
  net.require_vae_decoder(vae_slicing, vae_tiling);  // they act on the pipeline's VAE decoder
  validate_image_inference_precision(p);
  if (decode_at) validate_image_inference_precision(*decode_at, "decode_precision");
  const Precision decode = decode_at.value_or(net.decoder_fp32 ? Precision::fp32 : companion_precision(p));
  const double e = bytes_per_element(p);
  const double ce = bytes_per_element(companion_precision(p));
  MemoryBudget m;
  const double vae = net.decoder.empty() ? 0.0 : sd_vae_parameters;  // the whole VAE: the pipeline upcasts encoder and decoder
  const double upcast = net.decoder_fp32 && !net.decoder.empty() ? vae * (4.0 - ce) : 0.0;
  m.weights.size = DataSize::from_value(net.parameters * e + net.companion_parameters * ce + std::max(0.0, upcast));
  m.weights.detail = format_number(net.parameters / 1e6, 4) + "M params x " + format_number(e, 2) + " B" +
                     (net.companion_parameters > 0 ? " + " + format_number(net.companion_parameters / 1e6, 4) + "M x " + format_number(ce, 2) + " B for " + net.companions
                                                   : std::string()) +
                     (upcast > 0 ? ", the VAE upcast to fp32" : "");
  const double model_peak = image_inference_peak_elements(net) * e * static_cast<double>(samples);
  const std::int64_t decoded = vae_slicing ? 1 : images;
  const bool tiled = vae_tiling && !net.decoder.empty() && !net.decoder_tiles.empty();
  double decode_peak = 0;
  const int tiles = tiled ? net.decoder_tile_count() : 0;
  if (tiled) {
    // One tile's peak at a time, beside every decoded tile kept for the blending (3 values per pixel,
    // 8 x 8 pixels per latent value).
    const std::int64_t channels = net.decoder.front().latent_channels();
    double tile_peak = 0, kept = 0;
    for (const VaeTile& t : net.decoder_tiles) {
      tile_peak = std::max(tile_peak, image_inference_peak_elements(vae_decoder(t.h, t.w, channels)));
      kept += t.count * 3.0 * 64.0 * static_cast<double>(t.h * t.w);
    }
    decode_peak = (tile_peak + kept) * bytes_per_element(decode) * static_cast<double>(decoded);
  } else if (!net.decoder.empty()) {
    decode_peak = image_inference_peak_elements(net.decoder.front()) * bytes_per_element(decode) * static_cast<double>(decoded);
  }
  const bool decoder_decides = decode_peak > model_peak;
  m.activations.size = DataSize::from_value(std::max(model_peak, decode_peak));
  m.activations.detail = decoder_decides
                             ? "the VAE decoder's peak over " + std::to_string(decoded) + " image" + (decoded > 1 ? "s" : "") +
                                   (vae_slicing && images > 1 ? " (sliced)" : "") + (tiled ? " in " + std::to_string(tiles) + " tiles" : std::string()) + " in " +
                                   std::string(decode == Precision::tf32 ? "fp32" : name(decode)) + " (larger than a step's " + format(DataSize::from_value(model_peak), {.significant = 3}) + ")"
                             : "a forward pass's peak over " + std::to_string(samples) + " sample" + (samples > 1 ? "s" : "") +
                                   (decode_peak > 0 ? " (the VAE decoder's: " + format(DataSize::from_value(decode_peak), {.significant = 3}) + ")" : std::string());
  const DataSize planned = m.model_states() + m.activations.size;
  m.runtime_reserve.size = reserve.of(planned);
  m.runtime_reserve.detail = format(reserve.fixed, {.prefixes = Prefixes::binary}) + " + " + format_number(100 * reserve.fragmentation, 3) +
                             "% of the tensors";
  m.tight_margin = reserve.tight_margin(planned);
  return m;
}

// The largest batch per GPU whose budget fits `capacity` (0: not even one image).
inline std::int64_t image_max_batch(const ImageModel& net, DataSize capacity, Precision p = Precision::fp16, const RuntimeReserve& reserve = {}) {
  require_positive(capacity.value(), "capacity");
  const auto fits = [&](std::int64_t b) { return image_training_memory(net, b, p, reserve).total() <= capacity; };
  if (!fits(1)) return 0;
  std::int64_t lo = 1, hi = 2;
  while (hi <= (std::int64_t{1} << 40) && fits(hi)) {
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace capplan
