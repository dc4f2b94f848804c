// The explanation of a training estimate: the breakdown of its terms with their arithmetic
// (detail::fill_breakdown, used by estimate_training with text) and the per-kernel table of a layer
// (layer_op_lines, explain_layer_ops).
#pragma once

#include "capplan/perf/explain.hpp"
#include "capplan/perf/training_estimator.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace capplan::detail {

// The breakdown of an estimate from its numbers (the explained path).
inline void fill_breakdown(perf::Breakdown& b, const Numbers& n, const perf::TrainingJob& job, const ParallelPlan& plan, const perf::Cluster& cluster,
                           const perf::Framework& fw, const perf::DeviceRates& rates, const LayerCosts& costs) {
  const PassCost& layer = costs.layer;
  const PassCost& out = costs.output;
  const double peak = rates.peak;
  const int gpn = cluster.gpus_per_node;
  const std::int64_t m = n.m;
  const int lps = n.lps;
  if (job.measured_mfu) {
    b.add("iteration from measured MFU", n.iteration,
          format(from_canonical<FlopCount>(n.model_flops)) + " / (" + std::to_string(cluster.gpus) + " GPUs x " +
              format(from_canonical<FlopRate>(peak)) + " x " + perf::num(*job.measured_mfu) + ")",
          "measured");
    return;
  }
  const double md = static_cast<double>(m);
  // The terms of the stage that sets the pace (the last unless another holds more layers).
  const std::string per = std::to_string(m) + " micro-batches x " + std::to_string(lps) + " layers x ";
  const double out_fwd = n.pace_last ? out.fwd * n.out_scale : 0.0, out_bwd = n.pace_last ? out.bwd * n.out_scale : 0.0;
  const std::string with_out =
      !n.pace_last ? ""
      : job.mtp_layers > 0 ? " (+ output layer and loss x " + perf::num(n.out_scale) + ": " + std::to_string(job.mtp_layers) +
                                  " MTP layer" + (job.mtp_layers > 1 ? "s" : "") + " among the layers, each with another output pass and a 2h x h projection)"
                            : " (+ output layer and loss)";
  // Under Framework::moe_gemm_per_expert each local expert's up and down GEMM is its own kernel
  // (perf/roofline.hpp), each paying the kernel's fixed cost: named, since at small expert shares it is
  // much of a MoE layer's time. The backward runs two GEMMs per forward GEMM (one with frozen weights).
  const auto expert_kernels = [&](bool backward) -> std::string {
    if (!fw.moe_gemm_per_expert || !job.model.moe || rates.overhead <= 0) return "";
    const std::int64_t local = job.model.moe->experts / std::max(1, plan.ep);
    if (local <= 1) return "";
    const std::int64_t kernels = 2 * local * (backward ? (job.finetune == FineTune::full ? 2 : 1) : 1);
    const std::string grads = !backward ? "" : job.finetune == FineTune::full ? "both gradients of " : "the input gradients of ";
    return "; a MoE layer's " + std::to_string(kernels) + " expert GEMM kernels (" + grads +
           "up and down, one per local expert of " + std::to_string(local) + ": Megatron-Core's GroupedLinear) pay " +
           perf::seconds_text(static_cast<double>(kernels) * rates.overhead) + " of fixed cost in it";
  };
  b.add("forward", md * (lps * layer.fwd + out_fwd), per + perf::seconds_text(layer.fwd) + with_out + expert_kernels(false), "kernels");
  b.add("backward", md * (lps * layer.bwd + out_bwd), per + perf::seconds_text(layer.bwd) + with_out + expert_kernels(true), "kernels");
  if (n.host_wait_mb > 0)
    b.add("waiting on the host's kernel launches", md * n.host_wait_mb,
          std::to_string(m) + " micro-batches x (" + perf::seconds_text(n.host_mb) + " of launches at " +
              perf::seconds_text(fw.cpu_seconds_per_kernel) + " each, the backward's twice the forward's, - the GPU's time)",
          "host");
  if (plan.recompute != Recompute::none)
    b.add("recomputation (" + recompute_text(plan) + ")", md * lps * n.layer_recompute,
          per + perf::seconds_text(n.layer_recompute), "kernels");
  // Under Megatron-Core's combined 1F1B (Framework::moe_a2a_overlap) part of them hides under another
  // micro-batch's compute, which it slows by the overlap slowdown: the line keeps what the stage pays.
  const double a2a_paid = n.a2a_layer - n.a2a_hidden_layer * (1 - rates.overlap_slowdown);
  std::string a2a_overlap;
  if (n.a2a_hidden_layer > 0)
    a2a_overlap = "; " + perf::seconds_text(n.a2a_hidden_layer) + " of " + perf::seconds_text(n.a2a_layer) +
                  " hidden under another micro-batch's compute (Megatron-Core's combined 1F1B, --moe-a2a-overlap; " +
                  format_number(n.a2a_paired * 100, 3) + " % of the passes paired), slowing it by " +
                  format_number(rates.overlap_slowdown * 100, 3) + " % of that";
  else if (fw.moe_a2a_overlap && plan.ep > 1 && job.model.moe) {
    const std::string_view why = moe_a2a_overlap_blocker(plan);
    a2a_overlap = "; not overlapped: " + (why.empty() ? std::string("too few micro-batches to pair one's passes with another's") : std::string(why));
  }
  if (plan.ep > 1)
    b.add("expert-parallel all-to-alls", md * lps * a2a_paid, per + perf::seconds_text(a2a_paid) + " (MoE layers' share" + a2a_overlap +
              (fw.moe_capacity_factor != 1.0 ? ", buffers of capacity factor " + format_number(fw.moe_capacity_factor, 4) : std::string()) +
              (n.ep_remote_nodes > 0 ? "; two-hop (DeepEP): each token crosses the network to " + format_number(n.ep_remote_nodes, 3) +
                                           " other nodes, then NVLink to its experts"
                                     : std::string()) +
              ")",
          perf::group_links(cluster, perf::Group{plan.ep, std::clamp(gpn / expert_tensor_parallel(plan), 1, plan.ep), expert_tensor_parallel(plan)}));
  if (n.moe_path_layer > 0)
    b.add("MoE dispatch path", md * lps * n.moe_path_layer,
          per + perf::seconds_text(n.moe_path_layer) + " (MoE layers' share of " + format_number(n.moe_routed_elements / 1e6, 4) +
              " M routed values (tokens" + (plan.tp > 1 ? " / TP " + std::to_string(plan.tp) : std::string()) + " x " +
              std::to_string(job.model.moe->experts_per_token) + " experts x " + std::to_string(job.model.hidden) + " hidden" +
              (fw.moe_capacity_factor != 1.0 ? " x capacity factor " + format_number(fw.moe_capacity_factor, 4) : std::string()) + ") x " + format_number(fw.moe_seconds_per_routed_value * 1e12, 4) +
              " ps, forward and backward" + (n.moe_path_rerun ? " and the recomputed forward" : "") +
              (fw.moe_seconds_per_routed_value == perf::megatron_core_moe_routed_value_seconds
                   ? "; Megatron-Core's time per routed value, fitted on Megatron-Bridge's token-dropping Qwen3 runs)"
                   : "; the time per routed value given (Megatron-Core's, fitted: " +
                         format_number(perf::megatron_core_moe_routed_value_seconds * 1e12, 4) + " ps))"),
          "kernels");
  if (n.etp_layer > 0) {
    const int etp = expert_tensor_parallel(plan);
    b.add("expert tensor-parallel gathers", md * lps * n.etp_layer,
          per + perf::seconds_text(n.etp_layer) + " (MoE layers' share of all-gathers and reduce-scatters of " + perf::seconds_text(n.etp_one) +
              " over ETP " + std::to_string(etp) + ")",
          perf::group_links(cluster, perf::consecutive_group(etp, gpn)));
  }
  if (plan.tp > 1) {
    const bool moe_ffn = plan.ep > 1 && job.model.moe;  // MoE layers keep the attention's collectives only
    b.add("tensor-parallel all-reduces", md * lps * (n.tp_comm_layer - n.a2a_layer - n.cp_exposed_layer - n.etp_layer),
          per + std::to_string(n.n_ar) + " x " + perf::seconds_text(n.t_ar) + " (" + format(from_canonical<DataSize>(n.act_bytes)) + " each" +
              (moe_ffn ? "; half of them in MoE layers, whose tokens reach the experts by all-to-all" : "") +
              (n.tp_mlp_rerun > 0 ? "; + " + perf::seconds_text(n.tp_mlp_rerun) + " per layer: the recomputed MLPs' collective again" : "") +
              ")",
          perf::group_links(cluster, perf::consecutive_group(plan.tp, gpn)));
  }
  if (plan.cp > 1) {
    const std::string twice = cp_exchange_reruns(plan) ? " (twice, with the recomputed forward)" : "";
    const std::string bytes = format(from_canonical<DataSize>(n.cp_bytes));
    std::string what, how;
    switch (plan.cp_comm) {
      case CpComm::p2p:
        what = "context-parallel K/V ring (exposed)";
        how = perf::seconds_text(n.cp_exposed_layer) + " of " + perf::seconds_text(n.cp_comm) + ": " + std::to_string(plan.cp - 1) +
              " ring steps of " + bytes + " K/V forward" + twice + ", K/V + gradients backward, beside the attention";
        break;
      case CpComm::all_gather:
        what = "context-parallel K/V all-gather";
        how = perf::seconds_text(n.cp_comm) + ": all-gather of " + std::to_string(plan.cp) + " x " + bytes + " K/V forward" + twice +
              ", again backward + reduce-scatter of their gradients, not overlapped";
        break;
      case CpComm::a2a:
        what = "context-parallel all-to-alls (Ulysses)";
        how = perf::seconds_text(n.cp_comm) + ": 4 all-to-alls (Q, K, V, output) of " + bytes + " in all forward" + twice +
              ", the same backward, not overlapped";
        break;
      case CpComm::a2a_p2p:
        what = "context-parallel a2a+p2p (exposed)";
        how = perf::seconds_text(n.cp_exposed_layer) + " of " + perf::seconds_text(n.cp_comm) + ": 4 all-to-alls of " + bytes +
              " in all among the " + std::to_string(n.cp_a2a) + " CP ranks of a node, then " + std::to_string(plan.cp / std::max(n.cp_a2a, 1) - 1) +
              " ring steps of " + format(from_canonical<DataSize>(n.cp_ring_bytes)) + " K/V across nodes beside the attention, forward" + twice +
              " and backward";
        break;
    }
    b.add(what, md * lps * n.cp_exposed_layer, per + how, perf::group_links(cluster, perf::context_parallel_group(plan, gpn)));
  }
  if (plan.offload_layers > 0) {
    const perf::HostLink hl = perf::host_link(cluster.gpu);
    b.add("activation offloading (exposed)", md * n.offload_exposed_mb,
          std::to_string(m) + " micro-batches x " + std::to_string(plan.offload_layers) + " layers' activations, " +
              format(from_canonical<DataSize>(n.offload_bytes)) + " to host memory and back: " + perf::seconds_text(n.offload_copy) +
              " each way, one window of layers each (Transformer Engine's layer_window_map), beside the forward's " +
              perf::seconds_text(static_cast<double>(job.model.layers) * layer.fwd) + " and the backward's " +
              perf::seconds_text(static_cast<double>(job.model.layers) * layer.bwd),
          hl.what);
  }
  if (plan.pp > 1) {
    const perf::Link& stage_link = perf::stage_link(plan, cluster);
    b.add("pipeline send/receive", md * n.p2p_mb, std::to_string(m) + " micro-batches x " + perf::seconds_text(n.p2p_mb),
          std::string(name(stage_link.kind)));
    b.add("pipeline bubble", n.bubble,
          "(all " + std::to_string(plan.pp) + " stages' " + perf::seconds_text(n.stages_sum) + " - the slowest's " +
              perf::seconds_text(n.stage_mb) + ")" +
              (plan.chunk_layers > 0 ? " x " + perf::num(n.chunk_share) + ", the longest chunk's share of the slowest stage's time (" +
                                           (n.last_chunk_sets_bubble
                                                ? "the last chunk: " + std::to_string(plan.last_chunk_layers) + " layers" +
                                                      (job.mtp_layers > 0 ? " + " + std::to_string(job.mtp_layers) + " MTP" : "") + " + output layer and loss"
                                                : std::to_string(plan.chunk_layers) + " layers") +
                                           ", as the pipeline layout places the chunks)"
                                     : " / " + std::to_string(plan.interleave)) +
              " per micro-batch (" +
              (n.pace_last ? "the last stage, " +
                                 (job.mtp_layers > 0 ? std::to_string(lps - job.mtp_layers) + " layers + " + std::to_string(job.mtp_layers) + " MTP + output layer and loss x " + perf::num(n.out_scale)
                                                     : std::to_string(lps) + " layers + output layer and loss") +
                                 ", sets the pace"
                           : "a stage of " + std::to_string(lps) + " layers sets the pace") + ")",
          "schedule");
  }
  if (plan.dp * plan.cp > 1) {
    const auto size = [](double bytes) { return format(from_canonical<DataSize>(bytes)); };
    // With adapters (LoRA, QLoRA) only the adapters' gradients are reduced and, under ZeRO 1-2, gathered.
    const bool adapters = job.finetune != FineTune::full;
    const double trainable = adapters ? static_cast<double>(lora_params(job.model, job.lora)) / (plan.tp * plan.pp) : n.dense_local;
    const double dg = trainable * fw.grad_reduce_bytes;
    const double dw = (adapters && plan.zero_stage != ZeroStage::parameters ? trainable : n.dense_local) * fw.param_gather_bytes;
    const bool per_micro_batch = plan.zero_stage == ZeroStage::gradients && m > 1;
    const std::string over = " over " + std::to_string(plan.dp * plan.cp) + " GPUs" + (plan.cp > 1 ? " (dp x cp)" : "");
    std::string text;
    if (plan.zero_stage == ZeroStage::none) text = "all-reduce " + size(dg) + over;
    else if (per_micro_batch)
      text = std::to_string(m) + " micro-batches x reduce-scatter " + size(dg) + " (under ZeRO 2 each GPU keeps only its shard of the gradients) + all-gather " +
             size(dw) + over;
    else if (plan.zero_stage != ZeroStage::parameters) text = "reduce-scatter " + size(dg) + " + all-gather " + size(dw) + over;
    else
      text = std::to_string(m) + " micro-batches x (2 all-gathers of " + size(dw) + " + reduce-scatter of " + size(dg) + "), each as " +
             std::to_string(std::max(1, n.lps)) + " per-layer messages paying the ring's latency" + over;
    if (n.expert_local > 0)
      text += "; expert weights " + size(n.expert_local * fw.grad_reduce_bytes) + " of gradients" + (per_micro_batch ? ", every micro-batch," : "") +
              " over the " + std::to_string(n.expert_dp) + " GPUs holding the same experts";
    // How the framework overlaps them (Framework::overlap_grad_reduce, gather_weights_in_forward).
    if (plan.zero_stage == ZeroStage::none && !fw.overlap_grad_reduce) text += " (after the backward pass, not overlapped)";
    else if (plan.zero_stage != ZeroStage::none && plan.zero_stage != ZeroStage::parameters)
      text += std::string(fw.overlap_grad_reduce ? " (reduce-scatters during the backward pass" : " (reduce-scatters after the backward pass") +
              (!fw.gather_weights_in_forward ? ", all-gathers in the optimizer step)"
               : fw.overlap_grad_reduce       ? ", all-gathers during the next forward pass)"
                                              : ", all-gathers in one bucket before the next forward pass)");
    else if (plan.zero_stage == ZeroStage::parameters && !fw.overlap_param_gather) text += " (not prefetched)";
    b.add(plan.zero_stage == ZeroStage::parameters ? "ZeRO-3 gathers + reduce-scatters (exposed)" : "data-parallel gradient reduction (exposed)", n.dp_exposed,
          text + ": " + perf::seconds_text(n.dp_comm) + (n.dp_exposed < n.dp_comm ? " of which the rest hides under compute" : ""),
          perf::group_links(cluster, perf::data_parallel_group(plan, gpn)));
  }
  if (n.overlap_cost > 0)
    b.add("compute slowed by overlapped communication", n.overlap_cost,
          perf::seconds_text(n.overlap_hidden) + " hidden x " + perf::num(100 * rates.overlap_slowdown, 3) + " % slowdown", "contention");
  if (n.zero3_copies > 0)
    b.add("ZeRO-3 unshard/reshard copies", n.zero3_copies,
          std::to_string(m) + " micro-batches x " +
              format(from_canonical<DataSize>(n.zero3_copy_bytes)) +
              " / " + format(from_canonical<Bandwidth>(rates.bandwidth)),
          "memory");
  b.add("optimizer step", n.t_opt, format(from_canonical<DataSize>(n.opt_bytes)) + " / " + format(from_canonical<Bandwidth>(rates.bandwidth)),
        "memory");
  // The recipe's kernel rate, as the estimate applied it (quantization.hpp, QuantizationCost::kernel_rate).
  const bool fp8 = job.precision == Precision::fp8;
  const double kernel_rate = fp8 ? perf::quantization_cost(job.precision, job.fp8_recipe, rates.quant).kernel_rate : 1.0;
  b.assumptions.push_back(fw.name + "; " + std::string(name(job.precision)) + "; achieved memory bandwidth " +
                          format(from_canonical<Bandwidth>(rates.bandwidth)) + ", best-case GEMM " +
                          perf::num(100 * rates.best_fraction * kernel_rate, 3) + " % of " + format(from_canonical<FlopRate>(peak)) +
                          // The power cap's share of it (GemmCalibration::sustained_clock), when there is one.
                          (rates.fixed_rate || rates.sustained_clock == 1.0
                               ? std::string()
                               : " (" + perf::num(100 * rates.best_fraction * kernel_rate / rates.sustained_clock, 3) +
                                     " % in a short run x " + perf::num(rates.sustained_clock, 3) +
                                     (rates.clock_source == perf::DeviceRates::ClockSource::measured    ? ""
                                      : rates.clock_source == perf::DeviceRates::ClockSource::published ? " (measured by others)"
                                      : rates.clock_source == perf::DeviceRates::ClockSource::given     ? " (given)"
                                                                                                        : " (assumed)") +
                                     " under a training step's power cap)") +
                          (!fp8 || kernel_rate == 1.0                          ? ""
                           : job.fp8_recipe == perf::Fp8Recipe::mxfp8 ? " (MXFP8's block-scaled kernels)"
                                                                       : " (blockwise-scaled FP8 kernels)") +
                          // A release's own slowness (Framework::kernel_time_scale).
                          (fw.kernel_time_scale == 1.0 ? ""
                                                       : "; the layers' kernels take x " + perf::num(fw.kernel_time_scale, 4) + " the time" +
                                                             (fw.kernel_time_scale == perf::megatron_lm_2021_kernel_time_scale
                                                                  ? " (Megatron-LM 2021's, fitted on its Table 1)"
                                                                  : " (given)")));
  if (fw.flash_attention) {
    // The attention kernel and the rates it is timed at (perf/framework.hpp AttentionKernel).
    const auto [fwd, bwd] = perf::attention_kernel_rates(fw.attention_kernel, rates);
    const bool fallback = fw.attention_kernel == perf::AttentionKernel::cudnn && !(rates.cudnn_fwd > 0);
    const char* kernel = fw.attention_kernel == perf::AttentionKernel::flash3  ? "FlashAttention-3"
                         : fw.attention_kernel == perf::AttentionKernel::cudnn ? "cuDNN fused attention"
                                                                               : "FlashAttention-2";
    // FP8 and FP4 run attention at BF16.
    const double gemm = rates.bf16_peak > 0 ? rates.bf16_peak * rates.bf16_best_fraction : peak * rates.best_fraction;
    // At the sequence's length (layer_costs).
    const std::int64_t kernel_seq = job.seq_len > 0 ? job.seq_len : job.model.seq_len;
    const double lf = perf::attention_length_factor(rates.attention_s0_fwd, kernel_seq);
    const double lb = perf::attention_length_factor(rates.attention_s0_bwd, kernel_seq);
    b.assumptions.push_back(std::string("attention: ") + kernel + (fallback ? " (at FlashAttention-2's rates: none published for this GPU)" : "") +
                            ", " + format(from_canonical<FlopRate>(gemm * fwd * lf * fw.attention_forward_speed)) + " forward, " +
                            format(from_canonical<FlopRate>(gemm * bwd * lb * fw.attention_backward_speed)) + " backward" +
                            (lf != 1.0 || lb != 1.0 ? " at " + std::to_string(kernel_seq) + " tokens (x " + perf::num(lf, 3) + " and x " +
                                                          perf::num(lb, 3) + " of the 16K-token rates)"
                                                    : std::string()) +
                            [&] {  // sliding-window layers: their keys span the window
                              if (!job.model.window || job.model.window->tokens >= kernel_seq || !(rates.attention_s0_fwd > 0)) return std::string();
                              const std::int64_t w = job.model.window->tokens;
                              return "; the sliding-window layers' " + std::to_string(w) + " tokens at x " +
                                     perf::num(perf::attention_length_factor(rates.attention_s0_fwd, w), 3) + " and x " +
                                     perf::num(perf::attention_length_factor(rates.attention_s0_bwd, w), 3);
                            }() +
                            (fw.attention_forward_speed != 1.0 || fw.attention_backward_speed != 1.0 ? " (the framework's kernel speed applied)" : ""));
  }
  if (job.finetune != FineTune::full) {
    const LoraOptions& l = job.lora;
    std::string targets = std::string(l.q ? "q " : "") + (l.k ? "k " : "") + (l.v ? "v " : "") + (l.o ? "o " : "") + (l.mlp ? "mlp " : "");
    targets.pop_back();
    b.assumptions.push_back(std::string(job.finetune == FineTune::qlora ? "QLoRA" : "LoRA") + " rank " + std::to_string(l.rank) + " on " +
                            targets + " (" + capplan::detail::n(lora_params(job.model, l)) +
                            " trainable parameters): frozen base weights take no weight gradients, so the backward pass is about "
                            "half the full one; gradients, optimizer and data-parallel traffic cover the adapters only" +
                            (job.finetune == FineTune::qlora ? "; NF4 weights dequantized to bf16 before each forward and input-gradient GEMM"
                                                             : ""));
  }
}

}  // namespace capplan::detail

namespace capplan::perf {

// One layer's kernels under a plan, one line each: FLOPs, bytes, arithmetic intensity against the
// ridge point, the bound (roofline of peak rates) and the predicted forward time (efficiency model).
struct OpLine {
  Op op;
  RooflinePoint roofline;
  Duration forward{};
  FlopRate achieved{};  // FLOPs / predicted time (0 for an op without FLOPs)
};

inline std::vector<OpLine> layer_op_lines(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                                          const Framework& fw = {}, const EfficiencyModel& model = {}) {
  validate_plan(job, plan, cluster);
  fw.validate();
  const std::int64_t seq = job.seq_len > 0 ? job.seq_len : job.model.seq_len;
  LayerOptions lo;
  lo.flash_attention = fw.flash_attention;
  lo.dropout = fw.dropout;
  lo.sequence_parallel = plan.sequence_parallel;
  lo.expert_parallel = plan.ep;
  lo.moe_gemm_per_expert = fw.moe_gemm_per_expert;
  const DeviceRates r = device_rates(cluster.gpu, job.precision, model);
  std::vector<OpLine> lines;
  for (const Op& op : transformer_layer_forward(job.model, plan.micro_batch * seq, seq, plan.tp, job.precision, lo)) {
    OpLine l;
    l.op = op;
    l.roofline = roofline(op, cluster.gpu, job.precision);
    const double t = r.time(op) * fw.kernel_time_scale;  // a release's own slowness, as layer_costs charges it
    l.forward = from_canonical<Duration>(t);
    l.achieved = from_canonical<FlopRate>(op.flops / t);
    lines.push_back(l);
  }
  return lines;
}

// The lines as a text table.
inline std::string explain_layer_ops(const TrainingJob& job, const ParallelPlan& plan, const Cluster& cluster,
                                     const Framework& fw = {}, const EfficiencyModel& model = {}) {
  const auto lines = layer_op_lines(job, plan, cluster, fw, model);
  std::string out = "one layer, one micro-batch, one GPU (forward; ridge point " +
                    num(ridge_point(cluster.gpu, job.precision).value()) + " FLOP/B" +
                    (fw.kernel_time_scale == 1.0 ? std::string() : "; times x " + num(fw.kernel_time_scale, 4) + ", " + fw.name + "'s kernels") +
                    "):\n";
  for (const auto& l : lines) {
    std::string name_col(l.op.name);
    name_col.resize(std::max<std::size_t>(name_col.size(), 30), ' ');
    out += "  " + name_col + "  " + format(l.op.flop_count()) + ", " + format(l.op.data_size()) + ", " +
           num(l.roofline.intensity.value()) + " FLOP/B -> " + std::string(name(l.roofline.bound)) + "-bound, " +
           format(l.forward, {.significant = 4}) + (l.op.flops > 0 ? " at " + format(l.achieved) : "") + "\n";
  }
  return out;
}

}  // namespace capplan::perf
