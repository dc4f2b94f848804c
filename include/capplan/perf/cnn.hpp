// CNN training throughput (images/s) from the per-sample work of each convolution.
//
// A convolution runs as an implicit GEMM (cuDNN; Chetlur et al. 2014, §3): M = batch x output pixels,
// N = output channels, K = input channels x kernel^2; FLOPs 2 M N K. Its backward is two GEMMs of the
// same FLOPs (data and weight gradients), so training does 3x the forward FLOPs (He et al. 2016 count
// forward FLOPs; training = 3x, Kaplan et al. 2020 §2.1). Each conv output goes through batch norm
// (a statistics pass and a normalize pass) and ReLU, memory-bound kernels timed by bytes moved.
// Data-parallel gradient all-reduce overlaps the backward pass (PyTorch DDP buckets).
#pragma once

#include "capplan/error.hpp"
#include "capplan/perf/communication.hpp"
#include "capplan/perf/data_loading.hpp"
#include "capplan/perf/efficiency.hpp"
#include "capplan/perf/explain.hpp"
#include "capplan/perf/roofline.hpp"
#include "capplan/workload/cnn.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace capplan::perf {

// The shapes live in the workload layer (workload/cnn.hpp); perf:: names kept for callers.
using capplan::CnnShape;
using capplan::ConvLayer;

struct CnnTrainingEstimate {
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

// Bytes per conv-output element for batch norm (statistics read, normalize read + write) and ReLU
// (read + write), forward; the backward moves twice that (gradient and saved input read, gradient written).
inline constexpr double norm_activation_reads_writes = 5.0;

inline CnnTrainingEstimate estimate_cnn_training(const CnnShape& net, std::int64_t batch_per_gpu, const Cluster& cluster,
                                                 Precision p = Precision::fp16, const EfficiencyModel& model = {},
                                                 bool overlap_grad_reduce = true, const std::optional<DataPipeline>& data = std::nullopt) {
  require_positive_count(batch_per_gpu, "batch_per_gpu");
  cluster.validate();
  if (net.convs.empty()) capplan::detail::fail("convs", "[]", "is empty: a CNN needs at least one convolution");
  const DeviceRates r = device_rates(cluster.gpu, p, model);
  const double e = bytes_per_element(p);
  double fwd = 0, bwd = 0, elem = 0, flops = 0;
  for (const auto& c : net.convs) {
    require_positive_count(c.out_pixels, "out_pixels");
    require_positive_count(c.count, "count");
    const std::int64_t M = batch_per_gpu * c.out_pixels, N = c.out_channels, K = c.in_channels * c.kernel * c.kernel;
    const Op f = gemm("conv", M, N, K, e);
    const Op dgrad = gemm("conv dgrad", M, K, N, e);
    const Op wgrad = gemm("conv wgrad", K, N, M, e);
    fwd += c.count * r.time(f);
    bwd += c.count * (r.time(dgrad) + r.time(wgrad));
    flops += c.count * (f.flops + dgrad.flops + wgrad.flops);
    if (c.norm_activation) {
      const Op na = elementwise("batch norm + relu", static_cast<double>(M * N) * e * norm_activation_reads_writes);
      Op nb = na;
      nb.bytes *= 2;
      elem += c.count * (r.time(na) + r.time(nb) + 4 * r.overhead);  // 3 forward + 3 backward kernels
    }
  }
  if (net.fc_in > 0 && net.fc_out > 0) {
    const Op fc = gemm("fc", batch_per_gpu, net.fc_out, net.fc_in, e);
    fwd += r.time(fc);
    bwd += 2 * r.time(fc);
    flops += 3 * fc.flops;
  }
  // SGD with momentum: read weight, gradient, momentum; write weight, momentum (fp32).
  const double t_opt = r.time(elementwise("sgd step", net.parameters * 4 * 5));
  double t_comm = 0;
  if (cluster.gpus > 1) {
    const Group g{cluster.gpus, std::min(cluster.gpus, cluster.gpus_per_node)};
    const double c = all_reduce_seconds(cluster, net.parameters * 4, g);  // fp32 gradients (AMP keeps fp32 master grads)
    t_comm = overlap_grad_reduce ? exposed_after_overlap(c, bwd, 25) : c;  // 25 MB DDP buckets: ~4 for ResNet-50; 25 conservatively
  }
  const double iteration = fwd + bwd + elem + t_opt + t_comm;
  CnnTrainingEstimate est;
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
  b.add("convolutions forward", fwd, std::to_string(net.convs.size()) + " conv shapes as implicit GEMMs, batch " + std::to_string(batch_per_gpu), "kernels");
  b.add("convolutions backward", bwd, "data + weight gradient GEMMs", "kernels");
  b.add("batch norm + ReLU", elem, num(norm_activation_reads_writes) + " B-moves per element forward, 2x backward", "memory");
  b.add("optimizer step", t_opt, "SGD momentum, fp32", "memory");
  if (cluster.gpus > 1) b.add("gradient all-reduce (exposed)", t_comm, format(from_canonical<DataSize>(net.parameters * 4)) + " fp32 gradients", "network");
  if (est.data_loading && !est.data_loading->ok())
    b.add("waiting for input data", est.iteration.value() - iteration, est.data_loading->explain(), est.data_loading->bottleneck());
  else if (est.data_loading)
    b.assumptions.push_back("data loading: " + est.data_loading->explain());
  return est;
}

// CNN inference: the forward pass alone, one batch at a time.
//
// Each convolution runs as its forward implicit GEMM. An eager framework (PyTorch) runs batch norm in
// eval mode as one affine pass and ReLU as another, each reading and writing the conv output
// (inference_norm_activation_reads_writes), as three kernels per conv; an inference compiler
// (TensorRT, torch.compile) folds batch norm into the convolution's weights and fuses ReLU into its
// epilogue (Jacob et al. 2018, §3.2 "batch normalization folding"; NVIDIA TensorRT developer guide,
// "Layer fusion": Convolution + Scale + Activation), so only the GEMMs run. Every kernel pays the
// launch overhead of efficiency.hpp. Not modelled: the host-to-device copy of the input batch (it
// overlaps with the previous batch's compute in a pipelined server) and a framework's per-operator
// Python cost, which dominates eager latency at small batches.
struct CnnInferenceEstimate {
  Duration latency{};             // one batch, forward
  double images_per_second = 0;
  FlopCount flops_per_image{};    // forward
  FlopRate achieved{};
  Bound bound = Bound::compute;   // what most of the time is spent on
  Breakdown breakdown;
};

// Bytes per conv-output element for eval-mode batch norm and ReLU as separate kernels: read + write each.
inline constexpr double inference_norm_activation_reads_writes = 4.0;

inline CnnInferenceEstimate estimate_cnn_inference(const CnnShape& net, std::int64_t batch, const GpuSpec& gpu, Precision p = Precision::fp16,
                                                   const EfficiencyModel& model = {}, bool fused = false) {
  require_positive_count(batch, "batch");
  if (net.convs.empty()) capplan::detail::fail("convs", "[]", "is empty: a CNN needs at least one convolution");
  const DeviceRates r = device_rates(gpu, p, model);
  const double e = bytes_per_element(p);
  double convs = 0, elem = 0, flops = 0, conv_compute = 0;
  int kernels = 0;
  for (const auto& c : net.convs) {
    require_positive_count(c.out_pixels, "out_pixels");
    require_positive_count(c.count, "count");
    const std::int64_t M = batch * c.out_pixels, N = c.out_channels, K = c.in_channels * c.kernel * c.kernel;
    const Op f = gemm("conv", M, N, K, e);
    convs += c.count * r.time(f);
    conv_compute += c.count * f.flops / (r.peak * r.best_fraction);
    flops += c.count * f.flops;
    kernels += c.count;
    if (c.norm_activation && !fused) {
      elem += c.count * r.time(elementwise("batch norm + relu", static_cast<double>(M * N) * e * inference_norm_activation_reads_writes));
      elem += c.count * r.overhead;  // two kernels: the elementwise op above counts one overhead
      kernels += 2 * c.count;
    }
  }
  double fc = 0;
  if (net.fc_in > 0 && net.fc_out > 0) {
    const Op op = gemm("fc", batch, net.fc_out, net.fc_in, e);
    fc = r.time(op);
    flops += op.flops;
    ++kernels;
  }
  const double latency = convs + elem + fc;
  CnnInferenceEstimate est;
  est.latency = from_canonical<Duration>(latency);
  est.images_per_second = static_cast<double>(batch) / latency;
  est.flops_per_image = from_canonical<FlopCount>(flops / static_cast<double>(batch));
  est.achieved = from_canonical<FlopRate>(flops / latency);
  est.bound = conv_compute > 0.5 * latency ? Bound::compute : Bound::memory;
  Breakdown& b = est.breakdown;
  b.add("convolutions", convs, std::to_string(net.convs.size()) + " conv shapes as implicit GEMMs, batch " + std::to_string(batch), "kernels");
  if (!fused) b.add("batch norm + ReLU", elem, num(inference_norm_activation_reads_writes) + " B-moves per element, 2 kernels per conv", "memory");
  if (fc > 0) b.add("classifier", fc, std::to_string(net.fc_in) + " x " + std::to_string(net.fc_out), "kernels");
  b.assumptions.push_back(std::to_string(kernels) + " kernels per batch; " +
                          (fused ? std::string("batch norm folded into the convolutions and ReLU fused (TensorRT, torch.compile)")
                                 : std::string("eager framework: batch norm and ReLU as their own kernels")));
  return est;
}

}  // namespace capplan::perf
