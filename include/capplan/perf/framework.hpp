// How a training framework runs a plan (perf/training.hpp reads it): which kernels are fused, what it
// overlaps, what it sends; and the presets of the frameworks behind the published runs.
#pragma once

#include "capplan/detail/enum_names.hpp"
#include "capplan/error.hpp"
#include "capplan/hardware/precision.hpp"

#include <boost/describe/enum.hpp>

#include <string>
#include <string_view>

namespace capplan::perf {

// The fused attention kernel a framework runs (with flash_attention on). Their rates on Hopper are
// FlashAttention-3's figures (Shah et al. 2024, arXiv 2407.08608, Figs. 5-6: H100 SXM5, head dim 128,
// 16K tokens), where cuDNN 9.1's are measured beside FA2's and FA3's; on Blackwell cuDNN's are
// NVIDIA's cudnn-frontend SDPA benchmark figures (efficiency.hpp); FlashAttention-3 runs on Hopper
// only, and elsewhere cudnn takes FlashAttention-2's rates (none published).
//   flash2  FlashAttention-2 (Dao 2023): PyTorch SDPA's and most frameworks' kernel
//   flash3  FlashAttention-3, Hopper only: 616 TF/s forward (causal), 561 backward
//   cudnn   cuDNN fused attention: Transformer Engine's choice on Hopper, so Megatron-Core's and
//           NeMo's (TE get_attention_backend prefers FusedAttention on sm90+): 539 forward, 516 backward
enum class AttentionKernel { flash2, flash3, cudnn };
BOOST_DESCRIBE_ENUM(AttentionKernel, flash2, flash3, cudnn)
inline constexpr std::string_view name(AttentionKernel k) { return capplan::detail::enum_name(k); }

// How a mixture-of-experts layer sends tokens to experts on other GPUs (Megatron-Core's
// moe_token_dispatcher_type):
//   alltoall  one NCCL all-to-all per dispatch and combine: every (token, expert) pair is its own
//             copy, so a token with k experts on another node crosses the network up to k times
//   deepep    DeepEP's two-hop kernels (DeepSeek-AI 2024, §3.2.2; Megatron-Core's "flex" dispatcher):
//             a token crosses the network once per node it goes to, to the GPU of the same local
//             index there, and is forwarded over NVLink to its experts; the two hops overlap
enum class MoeDispatch { alltoall, deepep };
BOOST_DESCRIBE_ENUM(MoeDispatch, alltoall, deepep)
inline constexpr std::string_view name(MoeDispatch d) { return capplan::detail::enum_name(d); }

// How a training framework runs: fused kernels, what it overlaps, what it sends.
// A MoE capacity factor: finite, from 0.1 to the 64 that no published run comes near (GShard's and
// Switch's are 1 to 2; below 0.1 an expert would drop nine in ten of its tokens). InputError naming
// `field` otherwise.
inline double require_moe_capacity_factor(double c, std::string_view field) {
  require_positive(c, field);
  if (c < 0.1) capplan::detail::fail(field, capplan::detail::format_double(c), "is below 0.1 (published runs use 1 to 2)");
  if (c > 64) capplan::detail::fail(field, capplan::detail::format_double(c), "is above 64 (published runs use 1 to 2)");
  return c;
}

// Megatron-Core's GPU time per routed value of a MoE layer beyond capplan's kernels and all-to-alls
// (Framework::moe_seconds_per_routed_value). Fitted: the median over the 6 calibration rows of
// validation/cases/megatron-bridge-moe-tokendrop.json (Megatron-Bridge 25.09, Qwen3 30B-A3B and
// 235B-A22B with token dropping on DGX H100, B200 and GB200) of the value that makes capplan's
// tokens/s equal the published figure, each row run as its recipe ran it (gradients reduced in bf16,
// reduce_gradients_in); scripts/fit-moe-routed-time re-derives it from those rows.
inline constexpr double megatron_core_moe_routed_value_seconds = 16.33e-12;

// Megatron-LM's 2021 release (the SC21 artifact of Narayanan et al. 2021) ran the layers' kernels this
// much slower than capplan's kernel model times them (Framework::kernel_time_scale). Fitted: the median
// over the 10 rows of Megatron-LM Table 1 (calibration; validation/validation_cases.hpp,
// megatron_2021_kernel_scale_fit) of the scale that makes each row's predicted TFLOP/s per GPU the
// published one. The same group's 2022 release ran the same work faster: the 1T model at TP 8 x PP 64,
// one micro-batch of 512 per pipeline, at 177 TFLOP/s per GPU (Korthikanti et al. 2022, Table 5:
// 94.42 s) where Table 1 published 163, its data-parallel all-reduce (six replicas) a fraction of a
// percent of the step; megatron_lm_2022() runs at 1 and its rows are validation rows.
inline constexpr double megatron_lm_2021_kernel_time_scale = 1.117;

struct Framework {
  std::string name = "generic (ZeRO-style mixed precision)";
  bool flash_attention = true;
  AttentionKernel attention_kernel = AttentionKernel::flash2;  // which fused kernel (flash_attention on)
  bool dropout = false;
  bool overlap_grad_reduce = true;   // data-parallel gradient reduction overlapped with backward (DDP buckets)
  bool overlap_param_gather = true;  // ZeRO-3 / FSDP prefetch of the next layer's weights
  // ZeRO 1-2: the weights the optimizer step updated are all-gathered bucket by bucket as the next
  // iteration's first forward pass reaches them, overlapped with it, instead of inside the step.
  // Megatron-Core's distributed optimizer with overlap_param_gather: "the first all-gather is launched
  // asynchronously in the next optimizer.zero_grad() call and subsequent all-gathers are launched in the
  // forward pre-hook" (megatron/core/optimizer/distrib_optimizer.py), chunked by a stage's (or virtual
  // stage's) layers so that about one chunk stays exposed (NeMo docs, features/optimizations/
  // communication_overlap.rst); Megatron-Bridge turns it on with overlap_grad_reduce whenever the data-
  // parallel size exceeds 1 (src/megatron/bridge/training/comm_overlap.py, _get_optimizer_overlap_cfgs).
  // false: gathered whole inside the step, exposed (DeepSpeed's ZeRO 1-2, Megatron-LM without the flag).
  // The chunks are the buckets of the overlapped gradient reduction: without overlap_grad_reduce the
  // gather is one bucket that the forward pass waits for whole.
  bool gather_weights_in_forward = false;
  double grad_reduce_bytes = 2;      // bytes per gradient element in the data-parallel reduction
  double param_gather_bytes = 2;     // bytes per weight element in ZeRO all-gathers
  // Bytes per gradient element kept for the optimizer, in memory (TrainingConfig::gradient_bytes)
  // and read by the optimizer step: 2, bf16/fp16 gradients (the ZeRO paper's 2 + 2 + 12 B/param); 4,
  // fp32 main gradients (Megatron-Core with bf16; PyTorch FSDP/DDP, whose fp32 parameters get fp32
  // gradients).
  double master_grad_bytes = 2;
  // The fp32 parameters are the optimizer's master copy (PyTorch FSDP MixedPrecision, DDP under
  // autocast): 4 B weights at rest, no separate master copy, and the optimizer writes no bf16 copy
  // (TrainingConfig::fp32_params).
  bool fp32_params = false;
  // Speed of the framework's fused attention kernel relative to FlashAttention-2 (forward, backward):
  // 1 for FlashAttention-2 itself; FlashAttention in Triton runs 1.3-1.5x slower forward and ~2x slower
  // backward (Dao 2023, FlashAttention-2 §4.1).
  double attention_forward_speed = 1.0;
  double attention_backward_speed = 1.0;
  // Bytes the optimizer step moves per parameter of this GPU's shard; 0: a fused Adam that reads and
  // writes each fp32 state once (12 + gradient + 12 + weight bytes).
  double optimizer_bytes_per_param = 0;
  // Mixture of experts: the tokens each routed expert computes and exchanges, relative to a perfectly
  // balanced share. 1: balanced, what a dropless router with a load-balancing loss aims at (Megatron-Core's
  // default, moe_expert_capacity_factor None). Token-dropping frameworks pad every expert's buffer to the
  // capacity factor c: capacity = tokens x k / experts x c (Lepikhin et al. 2021, GShard §2.2; Fedus et al.
  // 2022, Switch Transformer §2.2, trained with c = 1.0 and 1.25, Table 1; DeepSpeed-MoE's capacity_factor
  // defaults to 1.0). For a dropless run whose load is uneven, the busiest expert's load over the mean.
  double moe_capacity_factor = 1.0;
  // The vocabulary is padded to a multiple of this x tp (workload/transformer.hpp padded_vocab): the
  // padded rows are computed by the output layer and held in the embedding and output weights.
  // Megatron-LM and Megatron-Core: 128 (--make-vocab-size-divisible-by); 1: an even split over tp only.
  int vocab_multiple = 1;
  MoeDispatch moe_dispatch = MoeDispatch::alltoall;  // MoE token dispatch across GPUs (MoeDispatch)
  // Mixture of experts with expert parallelism: the dispatch and combine all-to-alls of one micro-batch
  // run while another micro-batch computes (Megatron-Core's overlap_moe_expert_parallel_comm, the
  // combined 1F1B schedule, megatron/core/pipeline_parallel/combined_1f1b.py: "EP A2A in forward step is
  // hidden by the attention/mlp computation in the backward step, and vice versa"; the first micro-batch's
  // forward and the last one's backward run alone, as do an interleaved pipeline's warm-up and cool-down
  // passes). Megatron-Core runs it without pipelining or with an interleaved pipeline, and not under full
  // recomputation (moe_a2a_overlap_blocker, workload/parallel_plan.hpp); off by default, as in Megatron-Core (Megatron-Bridge's
  // DeepSeek-V3 H100 recipes turn it on: moe_a2a_overlap).
  bool moe_a2a_overlap = false;
  // Plain PyTorch without fusion (torch.autocast, no torch.compile): an fp32 residual stream and each
  // element-wise step its own kernel (roofline.hpp eager_layer_steps), the loss in fp32 kernels, and
  // autocast's weight casts every micro-batch. Bytes and launches only; runs BF16, FP16 or FP32.
  bool eager = false;
  // Host CPU time to launch one kernel (Python, PyTorch's dispatcher and autograd, the CUDA launch): a
  // layer's forward takes at least its kernels x this, its backward twice that (autograd runs about two
  // kernels per forward kernel), however fast the GPU. 0: the GPU is never waiting on the host (fused
  // frameworks, CUDA graphs). pytorch_eager() sets the fitted value.
  double cpu_seconds_per_kernel = 0;
  // The MLP's activation is one fused autograd function that keeps only its input and recomputes the
  // activation in the backward pass (Megatron-Core's bias_swiglu / bias_gelu fusions): a gated MLP
  // keeps 2 bytes per FFN column less (memory/activations.hpp).
  bool fused_activation = false;
  // The framework can send layers' activations to host memory and back (Megatron-Core's
  // --cpu-offloading-num-layers through Transformer Engine): the plan search may then offload
  // (SearchSpace::offload). A plan given with offload_layers is timed under any preset.
  bool activation_offloading = false;
  // The framework recomputes named modules of a layer (Megatron-Core's --recompute-modules with
  // --recompute-granularity selective): the plan search then also tries the module lists published
  // recipes run (SearchSpace::recompute_module_lists). A plan given with recompute_modules is timed
  // under any preset but eager PyTorch.
  bool recompute_module_lists = false;
  // FP8 and FP4 training keep the linear layers' inputs in Transformer Engine's quantized copies
  // (memory/activations.hpp linear_input_bytes): the TE-based stacks (Megatron-Core, NeMo, capplan's
  // generic framework). PyTorch FSDP runs FP8 through torchao's Float8Linear, which saves the 16-bit
  // input (save_for_backward(input_hp, ...)): false there.
  bool quantized_linear_inputs = true;
  // Mixture of experts: GPU time per routed value (one token's hidden vector
  // entry sent to one expert: tokens x k x hidden per MoE layer and micro-batch, this GPU's share) over
  // what the layer's kernels and all-to-alls take, forward and backward together (a third of it again
  // when the MoE layer is recomputed). 0: none. megatron_core() sets the value fitted on Megatron-Bridge's
  // token-dropping Qwen3 rows (validation/cases/megatron-bridge-moe-tokendrop.json): what Megatron-Core's
  // dispatch path (router, permutation, the sort of received chunks, FP8 casts per expert, unpermutation)
  // costs beyond capplan's kernels, which grows with the routed tokens, not with the layers alone.
  // Charged at any ep (the router, permutation and casts run without expert parallelism too); its
  // rows all ran EP 8-64 without expert tensor parallelism (etp > 1 is counted at 1/tp of the tokens).
  double moe_seconds_per_routed_value = 0;
  // The routed experts' GEMMs run one kernel per local expert, each with the kernel's fixed cost
  // (EfficiencyModel::kernel_overhead): Transformer Engine's GroupedLinear, which Megatron-Core's
  // --moe-grouped-gemm runs, "launch[es] multiple local GEMM kernels in multiple streams"
  // (megatron/core/transformer/moe/README.md). false: one grouped kernel for all of them.
  bool moe_gemm_per_expert = false;
  // The gradients kept for the optimizer are held in the precision they are reduced in
  // (reduce_gradients_in): Megatron-Core's DDP sizes its gradient buffer (main_grad) in fp32 under
  // grad_reduce_in_fp32 and in the parameters' dtype otherwise (megatron/core/distributed/
  // distributed_data_parallel.py). false: the reduction's precision leaves them as they are (FSDP's
  // fp32 parameters keep fp32 gradients whatever MixedPrecision.reduce_dtype sends).
  bool grad_buffer_in_reduce_precision = false;
  // The GPU time of the layers' kernels (forward, backward, recomputation, the output layer) relative to
  // capplan's kernel model: a release's own slowness that no modelled term explains. 1: none, as every
  // preset but megatron_lm_2021() (megatron_lm_2021_kernel_time_scale, fitted on Megatron-LM Table 1).
  // It multiplies what attention_forward_speed / attention_backward_speed already slowed; the two do not
  // meet in a preset (megatron_lm_2021() runs no FlashAttention), and a preset that sets both must fit
  // this one with the attention speeds in place.
  double kernel_time_scale = 1.0;

  void validate() const {
    require_positive(grad_reduce_bytes, "grad_reduce_bytes");
    require_positive(param_gather_bytes, "param_gather_bytes");
    if (master_grad_bytes != 2 && master_grad_bytes != 4)
      capplan::detail::fail("master_grad_bytes", capplan::detail::format_double(master_grad_bytes), "must be 2 (bf16/fp16) or 4 (fp32)");
    require_fraction(attention_forward_speed, "attention_forward_speed");
    require_positive(attention_forward_speed, "attention_forward_speed");
    require_fraction(attention_backward_speed, "attention_backward_speed");
    require_positive(attention_backward_speed, "attention_backward_speed");
    require_nonnegative(optimizer_bytes_per_param, "optimizer_bytes_per_param");
    require_moe_capacity_factor(moe_capacity_factor, "moe_capacity_factor");
    if (const int d = static_cast<int>(moe_dispatch); d < 0 || d > 1)
      capplan::detail::fail("moe_dispatch", std::to_string(d), "must be alltoall or deepep");
    if (!(cpu_seconds_per_kernel >= 0) || cpu_seconds_per_kernel > 1e-3)
      capplan::detail::fail("cpu_seconds_per_kernel", capplan::detail::format_double(cpu_seconds_per_kernel), "must be 0 to 1 ms (measured: 57.9 us)");
    if (!(moe_seconds_per_routed_value >= 0) || moe_seconds_per_routed_value > 1e-9)
      capplan::detail::fail("moe_seconds_per_routed_value", capplan::detail::format_double(moe_seconds_per_routed_value),
                            "must be 0 to 1 ns (fitted for Megatron-Core: " + capplan::detail::format_double(megatron_core_moe_routed_value_seconds * 1e12) + " ps)");
    if (!(kernel_time_scale >= 0.5) || kernel_time_scale > 2)
      capplan::detail::fail("kernel_time_scale", capplan::detail::format_double(kernel_time_scale),
                            "must be 0.5 to 2 (1: capplan's kernel model; fitted for Megatron-LM 2021: " +
                                capplan::detail::format_double(megatron_lm_2021_kernel_time_scale) + ")");
    if (vocab_multiple < 1 || vocab_multiple > 65536)
      capplan::detail::fail("vocab_multiple", std::to_string(vocab_multiple), "must be 1 to 65536 (Megatron pads to 128)");
  }
};

// Megatron-LM as in Korthikanti et al. 2022: fused scale-mask-softmax but no FlashAttention (2022),
// dropout 0.1, fp16 gradients all-reduced after the backward pass of the whole batch
// (megatron/training.py train_step: model.allreduce_gradients() after backward; overlap came in 2023).
inline Framework megatron_lm_2022() {
  Framework f;
  f.name = "Megatron-LM (2022)";
  f.flash_attention = false;
  f.dropout = true;
  f.overlap_grad_reduce = false;
  f.grad_reduce_bytes = 2;
  f.master_grad_bytes = 2;
  f.vocab_multiple = 128;  // --make-vocab-size-divisible-by 128: GPT-3's 50,257 -> 51,200 at tp 8
  return f;
}

// Megatron-LM as in Narayanan et al. 2021: the 2022 release's kernels and schedule, its layers' kernels
// slower by the scale fitted on that paper's Table 1 (megatron_lm_2021_kernel_time_scale).
inline Framework megatron_lm_2021() {
  Framework f = megatron_lm_2022();
  f.name = "Megatron-LM (2021)";
  f.kernel_time_scale = megatron_lm_2021_kernel_time_scale;
  return f;
}

// PyTorch FSDP FULL_SHARD with FlashAttention, no dropout (MosaicML llm-foundry / Composer, 2023):
// bf16 weight all-gathers prefetched, gradients reduce-scattered in fp32 (Composer mixed precision DEFAULT).
inline Framework pytorch_fsdp() {
  Framework f;
  f.name = "PyTorch FSDP + FlashAttention";
  f.quantized_linear_inputs = false;  // FP8 through torchao's Float8Linear keeps the 16-bit input
  f.flash_attention = true;
  f.dropout = false;
  f.overlap_grad_reduce = true;
  f.overlap_param_gather = true;
  // SHARD_GRAD_OP (ZeRO 2) gathers each unit's weights ahead of its forward, prefetched, not in the
  // optimizer step ("parameters are sharded outside computation": torch.distributed.fsdp.ShardingStrategy).
  f.gather_weights_in_forward = true;
  f.grad_reduce_bytes = 4;
  f.param_gather_bytes = 2;
  f.master_grad_bytes = 4;
  f.fp32_params = true;
  return f;
}

// Megatron-Core as NeMo and Megatron-Bridge run it with bf16 or FP8 (2024-2025):
// - Transformer Engine's attention: cuDNN fused attention on Hopper (get_attention_backend prefers
//   FusedAttention on sm90+), FlashAttention-2's rates elsewhere (efficiency.hpp); no dropout;
// - gradients accumulated and reduced in fp32 (megatron/training/arguments.py: "bfloat16 requires
//   gradient accumulation and all-reduce to be performed in fp32"; NeMo's bf16 DDP config sets
//   grad_reduce_in_fp32): 4 B main gradients in memory (18 B/param, 6 + 12/d with the distributed
//   optimizer, megatron/training/theoretical_memory_usage.py) and 4 B per element reduced;
// - --overlap-grad-reduce and --overlap-param-gather, as Megatron-Bridge sets them whenever the data-parallel
//   size exceeds 1 (src/megatron/bridge/training/comm_overlap.py): the gradients reduce-scattered during the
//   backward pass and the updated bf16 weights all-gathered during the next forward pass
//   (Framework::gather_weights_in_forward);
// - the vocabulary padded to a multiple of 128 x tp (--make-vocab-size-divisible-by 128).
// The distributed optimizer itself is ZeRO stage 1 in the plan (ParallelPlan::zero_stage).
// (FlashAttention on, no dropout, both overlaps and bf16 weight gathers are Framework's defaults.)
inline Framework megatron_core() {
  Framework f;
  f.name = "Megatron-Core (Transformer Engine, fp32 main gradients)";
  f.attention_kernel = AttentionKernel::cudnn;
  f.grad_reduce_bytes = 4;
  f.master_grad_bytes = 4;
  f.vocab_multiple = 128;  // --make-vocab-size-divisible-by's default
  f.fused_activation = true;  // --bias-swiglu-fusion (megatron/core/fusions/fused_bias_swiglu.py)
  f.activation_offloading = true;  // --cpu-offloading-num-layers
  f.recompute_module_lists = true;  // --recompute-modules
  f.moe_seconds_per_routed_value = megatron_core_moe_routed_value_seconds;
  f.moe_gemm_per_expert = true;  // TE GroupedLinear: a cuBLAS GEMM per local expert
  f.grad_buffer_in_reduce_precision = true;  // main_grad in fp32 only under grad_reduce_in_fp32
  f.gather_weights_in_forward = true;  // --overlap-param-gather
  return f;
}

// `f` with its data-parallel gradient reduction in `p` (bf16, fp16 or fp32): Megatron-Core's
// --grad-reduce-in-bf16 (DistributedDataParallelConfig.grad_reduce_in_fp32 = False), which Megatron-Bridge's
// performance recipes of its mixtures of experts set (scripts/performance/configs: Qwen3, GPT-OSS and
// DeepSeek-V3, `cfg.ddp.grad_reduce_in_fp32 = False`), or PyTorch FSDP's MixedPrecision(reduce_dtype). Each
// element reduced then takes bytes_per_element(p); where the framework holds its gradients in that precision
// (Framework::grad_buffer_in_reduce_precision: Megatron-Core) the gradients in memory and those the
// optimizer reads take it too: 16 B per parameter in bf16 instead of Megatron's 18 (6 + 12/d with the
// distributed optimizer, which then copies its shard to fp32 for the step: 4/d B per parameter after the
// backward pass, below the activations' peak). InputError naming grad_reduce for another precision.
inline Framework reduce_gradients_in(Framework f, Precision p) {
  if (p != Precision::bf16 && p != Precision::fp16 && p != Precision::fp32)
    capplan::detail::fail("grad_reduce", std::string(name(p)), "must be bf16, fp16 or fp32");
  const double bytes = bytes_per_element(p);
  f.grad_reduce_bytes = bytes;
  if (f.grad_buffer_in_reduce_precision) {
    f.master_grad_bytes = bytes;
    // The preset's name says which gradients it keeps ("fp32 main gradients"): say the new ones instead.
    const auto said = [](Precision q) {
      return q == Precision::fp32 ? std::string("fp32 main gradients") : std::string(name(q)) + " gradients, reduced in " + std::string(name(q));
    };
    for (const Precision q : {Precision::fp32, Precision::bf16, Precision::fp16})
      if (const std::string old = said(q); f.name.find(old) != std::string::npos) {
        f.name.replace(f.name.find(old), old.size(), said(p));
        break;
      }
  }
  return f;
}

// Plain PyTorch as single-GPU and Hugging Face Transformers training runs it: torch.autocast(bfloat16)
// over fp32 weights, fp32 gradients and a fused AdamW, FlashAttention-2 through
// scaled_dot_product_attention, no torch.compile (pytorch_fsdp's parameters and gradients, DDP for
// several GPUs), and every element-wise step as its own kernel (Framework::eager). Measured in-house on
// an H100 and an H200 (validation/cases/in-house-hopper.json: Llama-3.2-1B- and GPT-2-shaped steps).
inline Framework pytorch_eager() {
  Framework f = pytorch_fsdp();
  f.name = "PyTorch eager (autocast, fp32 weights; Hugging Face Transformers)";
  f.eager = true;
  // Fitted on the calibration rows of validation/cases/in-house-hopper.json (GPT-2-124M-shaped steps,
  // micro-batch 8-32, on an H100 and an H200 host): the largest value none of them contradicts,
  // min(step time / launches) = 29.89 ms / 516 (H200, micro-batch 8; launches = 3 x (12 layers x 14
  // forward kernels + the output layer's 4): the forward's once, the backward's twice).
  f.cpu_seconds_per_kernel = 57.9e-6;
  return f;
}

// MosaicML llm-foundry's published benchmarks (scripts/train/benchmarking/README.md, 2023): PyTorch FSDP
// FULL_SHARD as in pytorch_fsdp(), with what its benchmark harness documents:
// - attention: `--attn_impl` defaults to `triton` in scripts/train/benchmarking/submit_benchmarks.py, the
//   Triton FlashAttention kernel: 1/1.4 of FlashAttention-2's forward speed (1.3-1.5x) and 1/2 of its
//   backward (Dao 2023, FlashAttention-2 §4.1);
// - optimizer: Composer's DecoupledAdamW, one PyTorch kernel per operation over fp32 tensors
//   (param.mul_, exp_avg.mul_.add_, exp_avg_sq.mul_.addcmul_, sqrt, div, add_, param.addcdiv_):
//   8 + 8 + 12 + 8 + 12 + 8 + 8 + 8 + 16 = 88 B per parameter, plus gradient-norm clipping (the yamls'
//   gradient_clipping: read for the norm, scale in place: 12 B) = 100 B instead of a fused Adam's 30.
inline Framework llm_foundry_2023() {
  Framework f = pytorch_fsdp();
  f.name = "llm-foundry 2023 (PyTorch FSDP + Triton FlashAttention, Composer DecoupledAdamW)";
  f.attention_forward_speed = 1.0 / 1.4;
  f.attention_backward_speed = 1.0 / 2.0;
  f.optimizer_bytes_per_param = 100;
  return f;
}

}  // namespace capplan::perf
