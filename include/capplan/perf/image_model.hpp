// Image-model training throughput (images/s) and inference latency from the per-sample work of
// each layer: convolutions, linear layers over tokens, attention blocks (workload/image_model.hpp).
//
// A convolution runs as an implicit GEMM (cuDNN; Chetlur et al. 2014, §3): M = batch x output pixels,
// N = output channels, K = input channels x kernel^2; FLOPs 2 M N K. Its backward is two GEMMs of the
// same FLOPs (data and weight gradients), so training does 3x the forward FLOPs (He et al. 2016 count
// forward FLOPs; training = 3x, Kaplan et al. 2020 §2.1). Each conv output goes through batch norm
// (a statistics pass and a normalize pass) and, unless it is a projection shortcut, ReLU: PyTorch's
// channels-last kernels, each timed as the longer of its bytes and its instructions (see
// bn_statistics_bandwidth_fraction); a ResNet block's residual add and the max pool move bytes.
// A linear layer is the GEMM (batch x tokens, out, in) and its two backward GEMMs; attention is one
// fused kernel (PyTorch's scaled_dot_product_attention: FlashAttention-2's rates, Dao 2023) or, for
// frameworks before it, two batched GEMMs (Q K^T, P V) around a softmax that reads and writes the
// tokens^2 scores. LayerNorm, GELU, the residual adds and the bias gradients are memory-bound
// kernels; under AMP the transformer's residual stream is fp32 (its fp32 position embeddings are
// added to it, and autocast runs LayerNorm in fp32), so those kernels move 4-byte values and a cast
// to the compute precision precedes each linear layer after a LayerNorm. Unfused attention's softmax
// runs in fp32 too (autocast's fp32 list), between casts of the tokens^2 scores.
// Data-parallel gradient all-reduce overlaps the backward pass (PyTorch DDP buckets).
#pragma once

#include "capplan/error.hpp"
#include "capplan/perf/communication.hpp"
#include "capplan/perf/data_loading.hpp"
#include "capplan/perf/efficiency.hpp"
#include "capplan/perf/explain.hpp"
#include "capplan/memory/image_model.hpp"
#include "capplan/perf/roofline.hpp"
#include "capplan/workload/image_model.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace capplan::perf {

// The shapes live in the workload layer (workload/image_model.hpp); perf:: names kept for callers.
using capplan::ImageModel;
using capplan::ConvLayer;

struct ImageTrainingEstimate {
  Duration iteration{};
  double images_per_second = 0;
  double gpu_bound_images_per_second = 0;  // what the GPUs could do if the data pipeline kept up
  std::optional<DataLoadingCheck> data_loading;  // when a pipeline was given
  FlopCount flops_per_image{};   // forward + backward
  FlopRate achieved_per_gpu{};
  Breakdown breakdown;
  [[nodiscard]] Duration time_for_images(double images) const {
    return from_canonical<Duration>(require_nonnegative(images, "images") / images_per_second);
  }
};

// Training-mode batch norm + ReLU after a convolution, as PyTorch runs it on a channels-last tensor
// (its native kernels, aten/src/ATen/native/cuda/Normalization.cuh; seen in a profile of ResNet-50 on
// an H200, validation/measured/h200-2026-11-29-kernels.json "image_profile"): six kernels, values per
// conv-output element read and written:
//   forward:  statistics (read 1), normalize (read 1, write 1), ReLU (read 1, write 1)
//   backward: ReLU's (read 2, write 1), reduce (read 2), input gradient (read 2, write 1)
// ReLU's two kernels stream at the element-wise bandwidth (4.4-4.7 TB/s in that profile). The four
// batch-norm kernels do not: on the H200 the statistics pass (a Welford reduction down the channels,
// serial updates per thread) moves its values at bn_statistics_bandwidth_fraction of that bandwidth,
// the other three at bn_kernel_bandwidth_fraction. Both are fitted, the second first, on the
// calibration rows of the same file ("conv_layers": batch norm + ReLU forward and backward after each
// ResNet-50 convolution shape, batch 128 and 256, the 28 with at least 25 M output elements; smaller
// ones wait on the host's autograd call when run alone): 0.592 (rms error 7.3 %) and 0.137 (9.5 %);
// bench/gpu/fit_batch_norm.py re-derives them. The profile's own kernels read 0.155 for the
// statistics, 0.59 for normalize and 0.54 / 0.69 for the backward pair.
// A kernel that runs below the bandwidth is bound by its instructions, which scale with the GPU's
// SMs, not its memory: each batch-norm kernel takes the longer of its bytes at the element-wise
// bandwidth and its values at the H200's fitted rate per SM times the GPU's SMs (a roofline per
// kernel). The SM clock is not in it (an A100's 1.41 GHz against the H200's 1.98 runs these
// kernels slower than this says). Chosen after the H100 rows of in-house-hopper.json were seen:
// they ran ResNet-50 only 1.17x slower than the H200 (bandwidth 0.70x), which a bandwidth-bound
// batch norm cannot do; docs/performance-model.md, "Image models".
inline constexpr double norm_activation_reads_writes = 5.0;    // forward, as above
inline constexpr double norm_activation_backward_reads_writes = 8.0;
inline constexpr double bn_statistics_bandwidth_fraction = 0.137;
inline constexpr double bn_kernel_bandwidth_fraction = 0.592;
// The calibration GPU: the H200's element-wise rate in BF16 values per second (4.8 TB/s x
// EfficiencyModel::memory_fraction / 2 B) and its 132 SMs.
inline constexpr double bn_calibration_values_per_second = 4.8e12 * 0.88 / 2.0;
inline constexpr double bn_calibration_sms = 132;

// A 3 x 3, stride-2 max pool (ImageModel::pool_indices outputs, 4 inputs each): forward reads the input
// and writes the output and its int64 indices; backward (PyTorch's channels-last kernel gathers, for
// each input element, the about (3/2)^2 windows that cover it) reads those windows' gradients and
// indices and writes the input's gradient. Bytes at the element-wise bandwidth; the measured kernels
// are slower (0.83 and 1.83 ms on the H200 at batch 256, where these bytes give 0.22 and 1.19 ms).
inline constexpr double max_pool_window_overlap = 2.25;

// The largest batch an estimate takes (with the layer bounds of ImageModel::validate, far from
// 64-bit overflow in batch x pixels x channels).
inline constexpr std::int64_t max_image_batch = 10'000'000;

// Bytes per value of a transformer's residual stream and LayerNorm under AMP (see the top of this file).
inline constexpr double amp_stream_bytes = 4.0;

namespace image_detail {

// The forward of unfused attention (PyTorch 1.x; --no-flash-attention): the query scaled, Q K^T, the
// softmax and P V per head. Autocast runs the softmax in fp32 (stream bytes s): the scores are cast up,
// normalized and cast down for P V (the backward casts twice as well).
struct UnfusedAttention {
  Op qk, pv;
  double scores = 0;   // elements of the score matrices
  double qkv = 0;      // bytes of one of Q, K, V (or the output) at the compute precision
  double casts = 0;    // s: the two casts around the fp32 softmax
  double forward = 0;  // s: the whole forward
};

inline UnfusedAttention unfused_attention(const AttentionLayer& a, std::int64_t batch, double e, double s, const DeviceRates& r) {
  UnfusedAttention u;
  const std::int64_t heads = batch * a.heads;
  u.qkv = static_cast<double>(batch) * static_cast<double>(a.tokens) * static_cast<double>(a.heads * a.head_dim) * e;
  u.qk = gemm("attention scores", a.tokens, a.keys(), a.head_dim, e, heads, OpKind::attention_gemm);
  u.pv = gemm("attention over values", a.tokens, a.head_dim, a.keys(), e, heads, OpKind::attention_gemm);
  u.scores = static_cast<double>(heads) * static_cast<double>(a.tokens) * static_cast<double>(a.keys());
  u.casts = s != e ? r.time(elementwise("cast", u.scores * (s + e))) * 2 : 0.0;
  u.forward = r.time(elementwise("query scale", u.qkv * 2 / 3)) + r.time(u.qk) + r.time(elementwise("softmax", u.scores * 2 * s)) + u.casts +
              r.time(u.pv);
  return u;
}

// The fused kernel over `batch` samples: Q and the output over the query tokens, K and V over the keys.
inline Op fused_attention(const AttentionLayer& a, std::int64_t batch, double e) {
  const double per_token = static_cast<double>(batch) * static_cast<double>(a.heads * a.head_dim) * e;
  return flash_attention_op("attention", batch * a.heads, a.tokens, a.head_dim, a.head_dim, false,
                            2 * per_token * static_cast<double>(a.tokens + a.keys()), a.keys());
}

// Forward and backward seconds of the training-mode batch norm + ReLU after a conv writing `elements`
// values of `e` bytes (see bn_statistics_bandwidth_fraction).
// Without the ReLU (`relu` false: a projection shortcut) the batch norm's four kernels alone. Where
// capplan does not know the GPU's SM count (DeviceRates::sm_count_known: the default 108, a TPU's or
// Trainium's stand-in) the batch-norm kernels take their bytes at the bandwidth alone.
inline std::pair<double, double> batch_norm_relu_time(double elements, double e, const DeviceRates& r, bool relu = true) {
  const double v = elements * e / r.bandwidth;  // s to stream the output once at the element-wise rate
  // s to move `elements` values when a batch-norm kernel is bound by its instructions on this GPU's SMs
  const double sms = static_cast<double>(r.sm_count) / bn_calibration_sms;
  const double stats = r.sm_count_known ? elements / (bn_statistics_bandwidth_fraction * bn_calibration_values_per_second * sms) : 0.0;
  const double bn = r.sm_count_known ? elements / (bn_kernel_bandwidth_fraction * bn_calibration_values_per_second * sms) : 0.0;
  const double relu_fwd = relu ? 2 * v + r.overhead : 0.0, relu_bwd = relu ? 3 * v + r.overhead : 0.0;
  const double fwd = std::max(v, stats) + 2 * std::max(v, bn) + relu_fwd + 2 * r.overhead;
  const double bwd = relu_bwd + 5 * std::max(v, bn) + 2 * r.overhead;
  return {fwd, bwd};
}

// A ResNet block's residual add (read both paths, write the sum) and, backward, the sum of the two
// paths' gradients at the block's input (the same bytes): plain element-wise kernels.
inline double residual_add_time(double elements, double e, const DeviceRates& r) { return r.time(elementwise("residual add", elements * 3 * e)); }

// Forward and backward seconds of the max pool (see max_pool_window_overlap) for `batch` samples.
inline std::pair<double, double> max_pool_time(const ImageModel& net, std::int64_t batch, double e, const DeviceRates& r) {
  if (net.pool_indices <= 0) return {0.0, 0.0};
  const double out = static_cast<double>(batch) * static_cast<double>(net.pool_indices), in = 4 * out;
  return {r.time(elementwise("max pool", in * e + out * (e + 8))),
          r.time(elementwise("max pool backward", in * e + in * max_pool_window_overlap * (8 + e)))};
}

// Forward and backward time of the element-wise layers (workload/image_model.hpp ElementwiseLayer):
// bytes moved at the achieved bandwidth, one launch overhead per kernel; the backward moves twice the
// bytes in as many kernels.
inline std::pair<double, double> elementwise_time(const ElementwiseLayer& l, std::int64_t batch, double e, const DeviceRates& r) {
  const double bytes = static_cast<double>(batch) * static_cast<double>(l.elements) * l.passes * e;
  const double extra = (l.kernels - 1) * r.overhead;
  return {r.time(elementwise("element-wise", bytes)) + extra, r.time(elementwise("element-wise backward", 2 * bytes)) + extra};
}

// One training step's kernel time per part, for `batch` images on one GPU.
struct TrainingParts {
  double conv_fwd = 0, conv_bwd = 0, conv_elem = 0, residual = 0, pool = 0;
  double linear_fwd = 0, linear_bwd = 0, attention = 0, linear_elem = 0;
  double other_elem = 0;  // ElementwiseLayers, forward and backward
  double flops = 0;
};

inline TrainingParts training_parts(const ImageModel& net, std::int64_t batch, const DeviceRates& r, double e) {
  TrainingParts t;
  for (const auto& c : net.convs) {
    const std::int64_t M = batch * c.out_pixels, N = c.out_channels, K = c.in_channels * c.kernel * c.kernel;
    const Op f = gemm("conv", M, N, K, e);
    const Op dgrad = gemm("conv dgrad", M, K, N, e);
    const Op wgrad = gemm("conv wgrad", K, N, M, e);
    t.conv_fwd += c.count * r.time(f);
    t.conv_bwd += c.count * (r.time(dgrad) + r.time(wgrad));
    t.flops += c.count * (f.flops + dgrad.flops + wgrad.flops);
    const double out = static_cast<double>(M) * static_cast<double>(N);
    if (c.norm_activation) {
      const auto [f_na, b_na] = batch_norm_relu_time(out, e, r, c.relu);
      t.conv_elem += c.count * (f_na + b_na);
    }
    if (c.residual) t.residual += c.count * 2 * residual_add_time(out, e, r);
  }
  const auto [pool_f, pool_b] = max_pool_time(net, batch, e, r);
  t.pool = pool_f + pool_b;
  const double s = amp_stream_bytes;
  for (const auto& l : net.linears) {
    const std::int64_t M = batch * l.tokens;
    const Op f = gemm("linear", M, l.out_features, l.in_features, e);
    const Op dgrad = gemm("linear dgrad", M, l.in_features, l.out_features, e);
    const Op wgrad = gemm("linear wgrad", l.in_features, l.out_features, M, e);
    t.linear_fwd += l.count * r.time(f);
    t.linear_bwd += l.count * (r.time(dgrad) + r.time(wgrad));
    t.flops += l.count * (f.flops + dgrad.flops + wgrad.flops);
    const double in = static_cast<double>(M) * static_cast<double>(l.in_features), out = static_cast<double>(M) * static_cast<double>(l.out_features);
    double elem = l.bias ? r.time(elementwise("bias gradient", out * e)) : 0.0;
    if (l.norm_before) {
      // LayerNorm forward (read, write) and backward (2 kernels: dx; dgamma and dbeta), in fp32, and
      // the cast to the compute precision and its backward.
      elem += r.time(elementwise("layer norm", in * 2 * s)) + r.time(elementwise("layer norm backward", in * 3 * s)) + r.overhead;
      if (s != e) elem += 2 * r.time(elementwise("cast", in * (s + e)));
    }
    if (l.activation) elem += r.time(elementwise("gelu", out * 2 * e)) + r.time(elementwise("gelu backward", out * 3 * e));
    if (l.residual) {
      // The add (read stream and branch, write stream); backward: the branch's gradient cast to the
      // compute precision, and the gradients of the two paths summed at the block's input.
      elem += r.time(elementwise("residual add", out * (2 * s + e))) + r.time(elementwise("residual gradient sum", out * 3 * s));
      if (s != e) elem += r.time(elementwise("cast", out * (s + e)));
    }
    t.linear_elem += l.count * elem;
  }
  for (const auto& a : net.attentions) {
    const double qkv = static_cast<double>(batch) * static_cast<double>(a.tokens) * static_cast<double>(a.heads * a.head_dim) * e;
    double fwd = 0, bwd = 0;
    if (a.fused) {
      const Op fa = fused_attention(a, batch, e);
      fwd = r.time(fa);
      // Backward: 5 matmuls to the forward's 2 (2.5x the FLOPs), reading Q K V O dO and writing dQ dK dV
      // (Dao 2023, FlashAttention-2 §3.2), at the kernel's backward rate.
      Op back = fa;
      back.flops = 2.5 * fa.flops;
      back.bytes = 2 * fa.bytes;
      bwd = r.time(back, true);
      t.flops += a.count * 3.5 * fa.flops;
    } else {
      // The backward: both products' two gradient GEMMs, the softmax's backward in fp32 and its casts
      // (the probabilities' gradient up, the input's gradient down), the query scale's.
      const UnfusedAttention u = unfused_attention(a, batch, e, s, r);
      fwd = u.forward;
      bwd = 2 * (r.time(u.qk) + r.time(u.pv)) + r.time(elementwise("softmax backward", u.scores * 3 * s)) + u.casts +
            r.time(elementwise("query scale backward", u.qkv * 2 / 3));
      t.flops += a.count * 3 * (u.qk.flops + u.pv.flops);
    }
    // The heads' output transposed back to (tokens, heads x head_dim): a copy forward and backward.
    const double transpose = 2 * r.time(elementwise("head transpose", qkv * 2 / 3));
    t.attention += a.count * (fwd + bwd + transpose);
  }
  for (const auto& l : net.elementwise) {
    const auto [f, b] = elementwise_time(l, batch, e, r);
    t.other_elem += l.count * (f + b);
  }
  return t;
}

}  // namespace image_detail

inline ImageTrainingEstimate estimate_image_training(const ImageModel& net, std::int64_t batch_per_gpu, const Cluster& cluster,
                                                     Precision p = Precision::fp16, const EfficiencyModel& model = {},
                                                     bool overlap_grad_reduce = true, const std::optional<DataPipeline>& data = std::nullopt) {
  require_positive_count(batch_per_gpu, "batch_per_gpu");
  if (batch_per_gpu > max_image_batch) capplan::detail::fail("batch_per_gpu", std::to_string(batch_per_gpu), "is absurd (more than 10,000,000 images)");
  cluster.validate();
  net.validate();
  validate_image_training_precision(p);
  const DeviceRates r = device_rates(cluster.gpu, p, model);
  const double e = bytes_per_element(p);
  const image_detail::TrainingParts parts = image_detail::training_parts(net, batch_per_gpu, r, e);
  double fwd = parts.conv_fwd, bwd = parts.conv_bwd;
  double flops = parts.flops;
  if (net.fc_in > 0 && net.fc_out > 0) {
    const Op fc = gemm("fc", batch_per_gpu, net.fc_out, net.fc_in, e);
    fwd += r.time(fc);
    bwd += 2 * r.time(fc);
    flops += 3 * fc.flops;
  }
  const double transformer = parts.linear_fwd + parts.linear_bwd + parts.attention + parts.linear_elem + parts.other_elem;
  // SGD with momentum: read weight, gradient, momentum; write weight, momentum (fp32).
  const double t_opt = r.time(elementwise("sgd step", net.parameters * 4 * 5));
  double t_comm = 0;
  if (cluster.gpus > 1) {
    const Group g{cluster.gpus, std::min(cluster.gpus, cluster.gpus_per_node)};
    const double c = all_reduce_seconds(cluster, net.parameters * 4, g);  // fp32 gradients (AMP keeps fp32 master grads)
    t_comm = overlap_grad_reduce ? exposed_after_overlap(c, bwd + parts.linear_bwd, 25) : c;  // 25 MB DDP buckets
  }
  const double iteration = fwd + bwd + parts.conv_elem + parts.residual + parts.pool + transformer + t_opt + t_comm;
  ImageTrainingEstimate est;
  est.iteration = from_canonical<Duration>(iteration);
  est.gpu_bound_images_per_second = static_cast<double>(batch_per_gpu) * cluster.gpus / iteration;
  est.images_per_second = est.gpu_bound_images_per_second;
  if (data) {
    // The GPUs run no faster than storage and CPUs deliver samples.
    est.data_loading = check_data_loading(*data, est.gpu_bound_images_per_second);
    est.images_per_second = std::min(est.images_per_second, est.data_loading->limit());
    est.iteration = from_canonical<Duration>(static_cast<double>(batch_per_gpu) * cluster.gpus / est.images_per_second);
  }
  est.flops_per_image = from_canonical<FlopCount>(flops / static_cast<double>(batch_per_gpu));
  est.achieved_per_gpu = from_canonical<FlopRate>(flops / iteration);
  Breakdown& b = est.breakdown;
  const std::string batch = ", batch " + std::to_string(batch_per_gpu);
  if (!net.convs.empty()) {
    b.add("convolutions forward", fwd, std::to_string(net.convs.size()) + " conv shapes as implicit GEMMs" + batch, "kernels");
    b.add("convolutions backward", bwd, "data + weight gradient GEMMs", "kernels");
  }
  if (parts.conv_elem > 0)
    b.add("batch norm + ReLU", parts.conv_elem,
          "6 kernels per conv moving " + num(norm_activation_reads_writes) + " + " + num(norm_activation_backward_reads_writes) +
              " values per output; PyTorch's channels-last batch norm no faster than its H200 rate per SM (statistics " +
              num(bn_statistics_bandwidth_fraction * 100) + " %, the rest " + num(bn_kernel_bandwidth_fraction * 100) +
              " % of the H200's bandwidth; measured)",
          "memory");
  if (parts.residual > 0) b.add("residual adds", parts.residual, "read both paths, write the sum; backward the gradients summed", "memory");
  if (parts.pool > 0) b.add("max pool", parts.pool, "3 x 3, stride 2, with int64 indices; backward gathers about 2.25 windows per input", "memory");
  if (!net.linears.empty()) {
    b.add("linear layers forward", parts.linear_fwd, std::to_string(net.linears.size()) + " linear shapes over tokens" + batch, "kernels");
    b.add("linear layers backward", parts.linear_bwd, "data + weight gradient GEMMs", "kernels");
    if (parts.linear_elem > 0) b.add("LayerNorm, GELU, residual adds", parts.linear_elem, "fp32 residual stream and LayerNorm (AMP), bias gradients", "memory");
  }
  if (parts.other_elem > 0)
    b.add("norms, activations, adds, copies", parts.other_elem,
          std::to_string(net.elementwise.size()) + " element-wise steps (GroupNorm + SiLU, residual adds, concatenations, upsampling), forward and backward",
          "memory");
  if (!net.attentions.empty()) {
    const bool fused = net.attentions.front().fused;
    b.add("attention", parts.attention,
          fused ? std::string("fused kernel (scaled_dot_product_attention), forward + backward") : std::string("Q K^T, softmax, P V as separate kernels"),
          fused ? "kernels" : "memory");
  }
  b.add("optimizer step", t_opt, "SGD momentum, fp32", "memory");
  if (cluster.gpus > 1) b.add("gradient all-reduce (exposed)", t_comm, format(from_canonical<DataSize>(net.parameters * 4)) + " fp32 gradients", "network");
  if (est.data_loading && !est.data_loading->ok())
    b.add("waiting for input data", est.iteration.value() - iteration, est.data_loading->explain(), est.data_loading->bottleneck());
  else if (est.data_loading)
    b.assumptions.push_back("data loading: " + est.data_loading->explain());
  return est;
}

// Image-model inference: the forward pass alone, one batch at a time.
//
// Each convolution runs as its forward implicit GEMM. An eager framework (PyTorch) runs batch norm in
// eval mode as one affine pass and ReLU as another, each reading and writing the conv output
// (inference_norm_activation_reads_writes), as three kernels per conv; an inference compiler
// (TensorRT, torch.compile) folds batch norm into the convolution's weights and fuses ReLU into its
// epilogue (Jacob et al. 2018, §3.2 "batch normalization folding"; NVIDIA TensorRT developer guide,
// "Layer fusion": Convolution + Scale + Activation), so only the GEMMs run. A transformer's linear
// layers run as GEMMs; eagerly under autocast its LayerNorms and residual adds move fp32 values and
// GELU runs as its own kernel, while a compiler fuses GELU, bias and residual into the GEMMs and keeps
// the stream at the compute precision (LayerNorm stays a kernel). Every kernel pays the launch
// overhead of efficiency.hpp. Not modelled: the host-to-device copy of the input batch (it overlaps
// with the previous batch's compute in a pipelined server) and a framework's per-operator Python
// cost, which dominates eager latency at small batches.
struct ImageInferenceEstimate {
  Duration latency{};             // one batch, forward
  double images_per_second = 0;
  FlopCount flops_per_image{};    // forward
  FlopRate achieved{};
  Bound bound = Bound::compute;   // what most of the time is spent on
  Breakdown breakdown;
};

// Bytes per conv-output element for eval-mode batch norm and ReLU as separate kernels: read + write each.
inline constexpr double inference_norm_activation_reads_writes = 4.0;

inline ImageInferenceEstimate estimate_image_inference(const ImageModel& net, std::int64_t batch, const GpuSpec& gpu, Precision p = Precision::fp16,
                                                       const EfficiencyModel& model = {}, bool fused = false) {
  require_positive_count(batch, "batch");
  if (batch > max_image_batch) capplan::detail::fail("batch", std::to_string(batch), "is absurd (more than 10,000,000 images)");
  net.validate();
  validate_image_inference_precision(p);
  const DeviceRates r = device_rates(gpu, p, model);
  const double e = bytes_per_element(p);
  double convs = 0, elem = 0, residual = 0, flops = 0, gemm_compute = 0;
  int kernels = 0;
  for (const auto& c : net.convs) {
    const std::int64_t M = batch * c.out_pixels, N = c.out_channels, K = c.in_channels * c.kernel * c.kernel;
    const Op f = gemm("conv", M, N, K, e);
    convs += c.count * r.time(f);
    gemm_compute += c.count * f.flops / (r.peak * r.best_fraction);
    flops += c.count * f.flops;
    kernels += c.count;
    if (c.norm_activation && !fused) {
      // Eval-mode batch norm (read, write) and, unless it is a projection shortcut, the ReLU (read, write).
      const double moves = c.relu ? inference_norm_activation_reads_writes : inference_norm_activation_reads_writes / 2;
      elem += c.count * r.time(elementwise("batch norm + relu", static_cast<double>(M) * static_cast<double>(N) * e * moves));
      if (c.relu) elem += c.count * r.overhead;  // two kernels: the elementwise op above counts one overhead
      kernels += (c.relu ? 2 : 1) * c.count;
    }
    if (c.residual && !fused) {  // a compiler fuses the add (and the ReLU after it) into the conv's epilogue
      residual += c.count * image_detail::residual_add_time(static_cast<double>(M) * static_cast<double>(N), e, r);
      kernels += c.count;
    }
  }
  const double pool = image_detail::max_pool_time(net, batch, e, r).first;
  if (pool > 0) ++kernels;
  double linears = 0, linear_elem = 0, attention = 0;
  const double s = fused ? e : amp_stream_bytes;
  for (const auto& l : net.linears) {
    const std::int64_t M = batch * l.tokens;
    const Op f = gemm("linear", M, l.out_features, l.in_features, e);
    linears += l.count * r.time(f);
    gemm_compute += l.count * f.flops / (r.peak * r.best_fraction);
    flops += l.count * f.flops;
    kernels += l.count;
    const double in = static_cast<double>(M) * static_cast<double>(l.in_features), out = static_cast<double>(M) * static_cast<double>(l.out_features);
    double t = 0;
    int k = 0;
    if (l.norm_before) {
      t += r.time(elementwise("layer norm", in * 2 * s));
      ++k;
      if (s != e) t += r.time(elementwise("cast", in * (s + e))), ++k;
    }
    if (!fused && l.activation) t += r.time(elementwise("gelu", out * 2 * e)), ++k;
    if (!fused && l.residual) t += r.time(elementwise("residual add", out * (2 * s + e))), ++k;
    linear_elem += l.count * t;
    kernels += l.count * k;
  }
  for (const auto& a : net.attentions) {
    const double qkv = static_cast<double>(batch) * static_cast<double>(a.tokens) * static_cast<double>(a.heads * a.head_dim) * e;
    double t = 0;
    int k = 0;
    if (a.fused) {
      const Op fa = image_detail::fused_attention(a, batch, e);
      t = r.time(fa);
      gemm_compute += a.count * fa.flops / (r.peak * r.best_fraction * r.flash_fwd);
      flops += a.count * fa.flops;
      k = 1;
    } else {
      const image_detail::UnfusedAttention u = image_detail::unfused_attention(a, batch, e, s, r);
      t = u.forward;
      gemm_compute += a.count * (u.qk.flops + u.pv.flops) / (r.peak * r.best_fraction);
      flops += a.count * (u.qk.flops + u.pv.flops);
      k = s != e ? 6 : 4;
    }
    if (!fused) t += r.time(elementwise("head transpose", qkv * 2 / 3)), ++k;
    attention += a.count * t;
    kernels += a.count * k;
  }
  double fc = 0;
  if (net.fc_in > 0 && net.fc_out > 0) {
    const Op op = gemm("fc", batch, net.fc_out, net.fc_in, e);
    fc = r.time(op);
    flops += op.flops;
    ++kernels;
  }
  // Element-wise layers run in both modes: this model fuses none of them (a compiler that fuses a norm's
  // activation or an add into a neighbour is faster than it says).
  double other = 0;
  for (const auto& l : net.elementwise) {
    other += l.count * image_detail::elementwise_time(l, batch, e, r).first;
    kernels += l.count * l.kernels;
  }
  const double latency = convs + elem + residual + pool + linears + linear_elem + attention + fc + other;
  ImageInferenceEstimate est;
  est.latency = from_canonical<Duration>(latency);
  est.images_per_second = static_cast<double>(batch) / latency;
  est.flops_per_image = from_canonical<FlopCount>(flops / static_cast<double>(batch));
  est.achieved = from_canonical<FlopRate>(flops / latency);
  est.bound = gemm_compute > 0.5 * latency ? Bound::compute : Bound::memory;
  Breakdown& b = est.breakdown;
  const std::string at_batch = ", batch " + std::to_string(batch);
  if (!net.convs.empty()) b.add("convolutions", convs, std::to_string(net.convs.size()) + " conv shapes as implicit GEMMs" + at_batch, "kernels");
  if (!fused && elem > 0) b.add("batch norm + ReLU", elem, num(inference_norm_activation_reads_writes) + " B-moves per element, 2 kernels per conv", "memory");
  if (residual > 0) b.add("residual adds", residual, "read both paths, write the sum", "memory");
  if (pool > 0) b.add("max pool", pool, "3 x 3, stride 2", "memory");
  if (!net.linears.empty()) {
    b.add("linear layers", linears, std::to_string(net.linears.size()) + " linear shapes over tokens" + at_batch, "kernels");
    if (linear_elem > 0)
      b.add(fused ? "LayerNorm" : "LayerNorm, GELU, residual adds", linear_elem,
          fused ? std::string("GELU, bias and residual fused into the GEMMs; the stream at the compute precision")
                : std::string("fp32 residual stream and LayerNorm (autocast)"),
          "memory");
  }
  if (!net.attentions.empty()) {
    const bool fused_attention = net.attentions.front().fused;
    b.add("attention", attention,
          fused_attention ? std::string("fused kernel (scaled_dot_product_attention)") : std::string("Q K^T, softmax, P V as separate kernels"),
          fused_attention ? "kernels" : "memory");
  }
  if (fc > 0) b.add("classifier", fc, std::to_string(net.fc_in) + " x " + std::to_string(net.fc_out), "kernels");
  if (other > 0)
    b.add("norms, activations, adds, copies", other,
          std::to_string(net.elementwise.size()) + " element-wise steps (GroupNorm + SiLU, residual adds, concatenations, upsampling)" + at_batch, "memory");
  const bool transformer = !net.linears.empty();
  if (!net.elementwise.empty()) {
    b.assumptions.push_back(std::to_string(kernels) + " kernels per batch; the element-wise steps as eager PyTorch runs them (diffusers: "
                            "GroupNorm, SiLU, adds and copies as their own kernels, at the compute precision), channels-last convolutions");
    return est;
  }
  b.assumptions.push_back(std::to_string(kernels) + " kernels per batch; " +
                          (fused ? std::string(transformer ? "GELU, bias and residual adds fused into the GEMMs (TensorRT, torch.compile)"
                                                           : "batch norm folded into the convolutions and ReLU fused (TensorRT, torch.compile)")
                                 : std::string(transformer ? "eager framework under autocast: LayerNorm, GELU and residual adds as their own kernels"
                                                           : "eager framework: batch norm and ReLU as their own kernels")));
  return est;
}

// Images made by an image model on one GPU, a batch at a time: one forward pass per image for a
// classifier, `steps` for a diffusion UNet (ImageModel::is_diffusion), each on two latents per image
// under classifier-free guidance (the prompt's and the empty prompt's predictions; Ho & Salimans
// 2022), then the pipeline's VAE decoder once per image (ImageModel::decoder, where the model has
// one: the presets), in fp32 where the pipeline upcasts it (SDXL; TF32 tensor cores where the GPU has
// them, PyTorch's default for convolutions) and at the UNet's precision otherwise. Before the first
// step the pipeline's text encoders (ImageModel::text_encoders) encode the batch's prompts, one per
// image, and under guidance the negative prompts too (diffusers' encode_prompt; it encodes a prompt
// repeated by num_images_per_prompt once, and SDXL's force_zeros_for_empty_prompt skips an empty
// negative prompt, so this is the most it runs: milliseconds), once per batch at the UNet's precision
// (companion_precision: fp16 for a UNet quantized to FP8, INT8 or FP4, as the VAE then decodes too).
// With `vae_tiling` the decode runs in the model's
// decoder_tiles (tiled_decode_estimate) where it has any. What `capplan infer` prints and `capplan
// compare --serve` ranks. The scheduler's update of the latents is not timed.
struct ImageGeneration {
  ImageInferenceEstimate pass;   // one forward pass (a UNet's denoising step) over `samples`
  std::optional<ImageInferenceEstimate> decode;  // the VAE decoder over the batch's images
  std::vector<ImageInferenceEstimate> text;      // each text encoder over the batch's prompts (`samples` of them)
  int decode_tiles = 0;          // tiles the decode ran in (vae_tiling); 0: the whole latent at once
  Precision decode_precision = Precision::fp16;
  std::int64_t images = 0;       // per batch
  std::int64_t samples = 0;      // per forward pass: images, x 2 under guidance
  int steps = 1;                 // forward passes per batch
  double seconds_per_batch = 0;
  double images_per_second = 0;
  [[nodiscard]] double steps_per_second() const { return 1.0 / pass.latency.value(); }
  [[nodiscard]] double text_seconds() const {
    double t = 0;
    for (const ImageInferenceEstimate& e : text) t += e.latency.value();
    return t;
  }
  [[nodiscard]] double flops_per_image() const {
    const double per_image = static_cast<double>(samples / images);
    double f = pass.flops_per_image.value() * per_image * steps + (decode ? decode->flops_per_image.value() : 0.0);
    for (const ImageInferenceEstimate& e : text) f += e.flops_per_image.value() * per_image;
    return f;
  }
};

// A tiled VAE decode (diffusers' enable_vae_tiling): each tile decoded over the batch, one after
// another; the terms are the tile shapes, the blending of the overlaps left out (element-wise, small).
inline ImageInferenceEstimate tiled_decode_estimate(const ImageModel& decoder, const std::vector<VaeTile>& tiles, std::int64_t images,
                                                    const GpuSpec& gpu, Precision p, const EfficiencyModel& model = {}) {
  ImageInferenceEstimate out;
  double seconds = 0, flops = 0, longest = -1;
  const std::int64_t channels = decoder.latent_channels();
  for (const VaeTile& t : tiles) {
    ImageModel tile = vae_decoder(t.h, t.w, channels);
    for (AttentionLayer& a : tile.attentions) a.fused = decoder.attentions.empty() || decoder.attentions.front().fused;
    const ImageInferenceEstimate e = estimate_image_inference(tile, images, gpu, p, model, false);
    const double s = t.count * e.latency.value();
    seconds += s;
    flops += t.count * e.flops_per_image.value();
    if (s > longest) {
      longest = s;
      out.bound = e.bound;
    }
    out.breakdown.add("tiles of " + std::to_string(t.h) + " x " + std::to_string(t.w) + " latent", s,
                      std::to_string(t.count) + (t.count == 1 ? " tile x " : " tiles x ") + format(e.latency, {.significant = 4}), e.bound == Bound::compute ? "compute" : "memory");
  }
  out.breakdown.assumptions.push_back("diffusers' tiled decode: overlapping tiles decoded one after another, the blending not timed");
  out.latency = from_canonical<Duration>(seconds);
  out.flops_per_image = from_canonical<FlopCount>(flops);
  out.images_per_second = static_cast<double>(images) / seconds;
  out.achieved = from_canonical<FlopRate>(flops * static_cast<double>(images) / seconds);
  return out;
}

inline ImageGeneration estimate_image_generation(const ImageModel& net, std::int64_t images, const GpuSpec& gpu, Precision p = Precision::fp16,
                                                 int steps = 50, bool guidance = true, const EfficiencyModel& model = {}, bool fused = false,
                                                 bool vae_tiling = false) {
  require_positive_count(images, "images");
  if (images > 1'000'000) capplan::detail::fail("images", std::to_string(images), "is more than 1,000,000 images per batch");
  const bool unet = net.is_diffusion();
  if (unet && (steps < 1 || steps > 10'000)) capplan::detail::fail("steps", std::to_string(steps), "must be a count of denoising steps from 1 to 10,000");
  net.require_vae_decoder(false, vae_tiling);  // a tiled decode needs the pipeline's VAE decoder
  ImageGeneration g;
  g.images = images;
  g.samples = images * (unet && guidance ? 2 : 1);
  g.steps = unet ? steps : 1;
  g.pass = estimate_image_inference(net, g.samples, gpu, p, model, fused);
  g.seconds_per_batch = g.steps * g.pass.latency.value();
  if (unet && !net.decoder.empty()) {
    // fp32 on TF32 tensor cores, else plain fp32; a GPU the catalog gives neither rate decodes at `p`.
    const Precision cp = gpu.dense.at(companion_precision(p)) ? companion_precision(p) : p;
    g.decode_precision = !net.decoder_fp32                 ? cp
                         : gpu.dense.at(Precision::tf32) ? Precision::tf32
                         : gpu.dense.at(Precision::fp32) ? Precision::fp32
                                                         : p;
    if (vae_tiling && !net.decoder_tiles.empty()) {
      g.decode = tiled_decode_estimate(net.decoder.front(), net.decoder_tiles, images, gpu, g.decode_precision, model);
      g.decode_tiles = net.decoder_tile_count();
    } else {
      g.decode = estimate_image_inference(net.decoder.front(), images, gpu, g.decode_precision, model, false);
    }
    g.seconds_per_batch += g.decode->latency.value();
  }
  if (unet && !net.text_encoders.empty()) {
    const Precision tp = gpu.dense.at(companion_precision(p)) ? companion_precision(p) : p;
    for (const ImageModel& enc : net.text_encoders) g.text.push_back(estimate_image_inference(enc, g.samples, gpu, tp, model, false));
    g.seconds_per_batch += g.text_seconds();
  }
  g.images_per_second = static_cast<double>(images) / g.seconds_per_batch;
  return g;
}

}  // namespace capplan::perf
