// Activation memory of training, per transformer layer, after Korthikanti et al. 2022
// ("Reducing Activation Recomputation in Large Transformer Models"), §4 and Table 2, in bytes with
// 16-bit activations (s = sequence, b = micro-batch, h = hidden, a = heads, t = tensor parallel):
//
//   no parallelism                 s b h (34 + 5 a s / h)
//   tensor parallel                s b h (10 + 24/t + 5 a s / (h t))
//   tensor + sequence parallel     s b h (34/t + 5 a s / (h t))
//   + selective recompute          s b h 34 / t          (s b h (10 + 24/t) without sequence parallel)
//   full recompute                 2 s b h               (the layer input only; 2 s b h / t with
//                                                         sequence parallelism, which shards it)
//
// The 34 s b h splits into parts that capplan generalizes to other shapes (§4.1):
//   attention  11 s b h = QKV input 2sbh + Q, K 4sbh + V 2sbh + projection input 2sbh + dropout mask sbh
//   scores     5 a s^2 b = QK^T softmax input/output 4as^2b + dropout mask as^2b
//   MLP        19 s b h = input 2sbh + 4h-wide linear output 8sbh + GeLU output 8sbh + dropout mask sbh
//   norms      4 s b h (the inputs of the two LayerNorms)
// With GQA the K and V terms shrink to 2 s b (kv_heads * head_dim) each; a non-4h MLP stores
// 4 s b f for its GeLU part (8 s b f gated: gate, up, activation and product outputs); MoE layers
// store the MLP part once per routed and shared expert a token visits, plus what routing keeps for
// the backward pass: the router's fp32 softmax output (4 s b E bytes for E experts), the permuted
// copies of the tokens the experts read (2 s b k h: one per routed expert, top-k = k) and the
// experts' outputs before they are weighted by the routing probabilities and combined (2 s b k h),
// as Megatron-Core's MoE layer runs it (router softmax in fp32; token dispatcher permute ->
// experts -> unpermute with probs, megatron/core/transformer/moe/). FlashAttention (Dao et al.
// 2022, §3.1) does not store the a s^2 b score matrices, like selective recompute.
#pragma once

#include "capplan/error.hpp"
#include "capplan/units/quantity.hpp"
#include "capplan/workload/finetune.hpp"
#include "capplan/workload/parallel_plan.hpp"
#include "capplan/workload/transformer.hpp"

#include <cstdint>
#include <string>

namespace capplan {

struct ActivationOptions {
  int tensor_parallel = 1;
  bool sequence_parallel = false;
  Recompute recompute = Recompute::none;
  bool flash_attention = false;
  bool eager = false;  // plain PyTorch under autocast: the unfused kernels' saved tensors (below)
  // Dropout keeps a 1-byte mask after attention and after the MLP (Korthikanti's 2 s b h). With
  // dropout off there is none: PyTorch returns the input unchanged at p = 0 (aten/src/ATen/native/
  // Dropout.cpp, _dropout_impl: "if (p == 0 || !train ...) return input"). The default keeps the
  // paper's masks, as its Table 2 counts them.
  bool dropout = true;
  // The MLP's activation is one fused autograd function that keeps only its input, the first linear
  // layer's output, and recomputes the activation in the backward pass (Megatron-Core's
  // megatron/core/fusions/fused_bias_swiglu.py, BiasSwiGLUFunction: save_for_backward(input, bias)).
  // A gated MLP then keeps gate and up (4 bytes per FFN column) and the second linear layer's input
  // (the product), not also the activation's output; an unfused SwiGLU keeps all four tensors.
  bool fused_activation = false;
  // Bytes per element of the inputs the linear layers keep for their weight gradients: 2 (16-bit
  // activations); Transformer Engine in FP8 keeps its quantized copy instead, 1 byte (1 + 1/32 for
  // MXFP8, 0.5625 for NVFP4), and drops the 16-bit one (transformer_engine/pytorch/module/linear.py:
  // "Discard row-wise data since it is not needed in backward pass"). The inputs are the QKV and
  // first MLP layers' (the normalized layer input), the attention output projection's and the second
  // MLP layer's; attention's Q, K and V, the norms' inputs and the activation's input stay 16-bit.
  double linear_input_bytes = 2;
  // With Recompute::selective: the modules recomputed (ParallelPlan::recompute_modules; 0: core_attn).
  std::uint8_t recompute_modules = 0;
  // Fine-tuning with frozen base weights (lora, qlora; workload/finetune.hpp): a frozen linear layer
  // computes no weight gradient, so it keeps no input for one (PyTorch's linear saves its input only for
  // the weight's gradient; Transformer Engine's Linear: backward_needs_input = is_grad_enabled and
  // weight.requires_grad). A layer with an adapter keeps its input for the adapter's A, and each
  // adapter keeps its r-wide A x (16-bit) for B's gradient; a frozen norm weight keeps no normalized
  // output. Eager PyTorch's residual stream is then 16-bit: the base model is loaded in bf16
  // (from_pretrained(torch_dtype=torch.bfloat16), then PEFT), the norms keeping their fp32 upcast.
  FineTune finetune = FineTune::full;
  LoraOptions lora{};
};

namespace detail {
inline double dbl(std::int64_t v) { return static_cast<double>(v); }
}  // namespace detail

namespace detail {
// What each recomputable module needs the model to have, with the reason given when it does not.
struct RecomputeModuleRule {
  std::uint8_t bits;
  bool (*applies)(const TransformerShape&);
  const char* why;
};
inline constexpr RecomputeModuleRule recompute_module_rules[] = {
    {recompute_module::moe | recompute_module::moe_act, [](const TransformerShape& s) { return s.moe.has_value(); },
     "needs a mixture-of-experts model; the model is dense"},
    {recompute_module::shared_experts, [](const TransformerShape& s) { return s.moe && s.moe->shared_experts > 0; },
     "needs shared experts; the model has none"},
    {recompute_module::mla_up_proj, [](const TransformerShape& s) { return s.mla.has_value(); },
     "needs multi-head latent attention; the model has none"},
    {recompute_module::mlp, [](const TransformerShape& s) { return s.dense_layers() > 0; },
     "needs a dense MLP layer; every layer's MLP is a mixture of experts (moe, moe_act)"},
};
}  // namespace detail

// Whether every module of `modules` has its part in the model: moe and moe_act a mixture of experts,
// shared_experts shared experts, mla_up_proj multi-head latent attention, mlp a dense MLP layer (the
// plan search asks it of the published lists; validate_recompute_modules refuses the rest).
inline bool recompute_modules_apply(const TransformerShape& shape, std::uint8_t modules) {
  for (const detail::RecomputeModuleRule& r : detail::recompute_module_rules)
    if ((modules & r.bits) && !r.applies(shape)) return false;
  return true;
}

// InputError naming recompute_modules when the modules do not go with the recomputation or the model:
// they need Recompute::selective and their parts in the model (recompute_modules_apply); eager PyTorch
// recomputes no module (Megatron-Core's --recompute-modules).
inline void validate_recompute_modules(const TransformerShape& shape, Recompute r, std::uint8_t modules, bool eager = false) {
  namespace rm = recompute_module;
  if (modules == 0) return;
  const auto fail = [&](const std::string& why) { detail::fail("recompute_modules", recompute_modules_text(modules), why); };
  if (modules & ~rm::all) detail::fail("recompute_modules", std::to_string(modules), "has bits that name no module (at most 127)");
  if (r != Recompute::selective)
    fail("needs recompute selective (Megatron-Core's --recompute-granularity selective), not " + std::string(name(r)));
  if (eager && modules != rm::core_attn) fail("is Megatron-Core's (--recompute-modules); eager PyTorch recomputes no module");
  // The module at fault is named as the value.
  for (const detail::RecomputeModuleRule& rule : detail::recompute_module_rules)
    if ((modules & rule.bits) && !rule.applies(shape))
      detail::fail("recompute_modules", recompute_modules_text(static_cast<std::uint8_t>(modules & rule.bits)), rule.why);
}

// Bytes of activations one transformer layer keeps for the backward pass, averaged over the layers
// (dense and MoE layers differ). Exactly Korthikanti et al. 2022, Table 2 for a GPT shape (MHA,
// 4h non-gated FFN).
inline DataSize activation_memory_per_layer(const TransformerShape& shape, std::int64_t micro_batch,
                                            std::int64_t seq_len, const ActivationOptions& o = {}) {
  using detail::dbl;
  shape.validate();
  require_positive_count(micro_batch, "micro_batch");
  require_positive_count(seq_len, "seq_len");
  require_positive_count(o.tensor_parallel, "tensor_parallel");
  const double s = dbl(seq_len), b = dbl(micro_batch), h = dbl(shape.hidden), a = shape.heads;
  const double t = o.tensor_parallel;
  const double sbh = s * b * h;
  // Full recompute keeps only the layer input (Table 2, last row: 2sbh). With sequence parallelism
  // that input lives in the sequence-parallel region, split along the sequence over the t ranks
  // (Korthikanti et al. 2022, §4.2.2; Megatron-LM checkpoints the sharded hidden states), so a GPU
  // keeps 2sbh/t. Table 2 prints the row without that split.
  // Eager PyTorch's layer input is the fp32 residual stream: 4sbh (16-bit, 2sbh, under frozen bf16 base
  // weights).
  if (!(o.linear_input_bytes > 0 && o.linear_input_bytes <= 4))
    detail::fail("linear_input_bytes", detail::format_double(o.linear_input_bytes), "must be in (0, 4] bytes per element");
  const bool frozen = o.finetune != FineTune::full;
  if (frozen && o.lora.rank <= 0) detail::fail("lora.rank", std::to_string(o.lora.rank), "must be a positive rank");
  if (frozen && !(o.lora.q || o.lora.k || o.lora.v || o.lora.o || o.lora.mlp))
    detail::fail("lora", "no target", "adapts no layer: set q, k, v, o or mlp");
  const double input = o.eager && !frozen ? 4 * sbh : 2 * sbh;
  if (o.recompute == Recompute::full) return DataSize::from_value(o.sequence_parallel ? input / t : input);
  validate_recompute_modules(shape, o.recompute, o.recompute_modules, o.eager);
  // Bytes per element of a saved linear-layer input. A frozen Transformer Engine layer keeps no FP8
  // copy (backward_needs_input is false), and the adapter beside it, a 16-bit linear layer, keeps the
  // 16-bit input.
  const double li = frozen ? 2.0 : o.linear_input_bytes;
  // Which linear layers keep their inputs: all in full training; with frozen base weights the adapted
  // ones (the QKV input is shared by q, k and v).
  const bool keep_qkv_in = !frozen || o.lora.q || o.lora.k || o.lora.v;
  const bool keep_proj_in = !frozen || o.lora.o;
  const bool keep_mlp_in = !frozen || o.lora.mlp;
  // Selective recomputation's modules (workload/parallel_plan.hpp recompute_module): what each one
  // does not keep is left out below.
  namespace rm = recompute_module;
  const std::uint8_t mods = rm::closure(recomputed_modules(o.recompute, o.recompute_modules));
  const bool core_attn = mods & rm::core_attn;

  const double d = dbl(shape.effective_head_dim());
  const double q_width = a * d, kv_width = shape.effective_kv_heads() * d;
  // Tensor-parallel-split parts of attention: Q, K, V, projection input (8sbh for MHA). A fused
  // attention kernel keeps its own 16-bit output for its backward pass (FlashAttention and
  // Transformer Engine's FusedAttnFunc save q, k, v and out); in 16 bits the projection reads that
  // same tensor, in FP8 it keeps its quantized copy beside it. Without the fused kernel, or with the
  // attention core recomputed, only the projection's copy is kept.
  const bool attention_keeps_output = o.flash_attention && !core_attn;
  const double projection_input = keep_proj_in ? (li < 2 && attention_keeps_output ? 2 + li : li) : (attention_keeps_output ? 2.0 : 0.0);
  // Multi-head latent attention: the up-projections keep their inputs, the query and key-value latents
  // (li bytes each: q_lora_rank + kv_lora_rank per token). mla_up_proj: the per-head queries, keys and
  // values are dropped and rebuilt from the latents (and the rope key, kept at 16 bits, rope dims per
  // token) before the attention's backward needs them (Megatron-Core's output-discarding checkpoint of
  // the up-projections and RoPE).
  const bool rebuild_qkv = (mods & rm::mla_up_proj) && shape.mla;
  const double qkv_kept = rebuild_qkv ? 0.0 : 2 * s * b * q_width + 4 * s * b * kv_width;
  const double latents = shape.mla ? li * s * b * dbl(shape.mla->q_lora_rank + shape.mla->kv_lora_rank) +
                                         (rebuild_qkv ? 2 * s * b * dbl(shape.mla->qk_rope_head_dim) : 0.0)
                                   : 0.0;
  const double attn_split = qkv_kept + projection_input * s * b * q_width;
  // Bytes per token per FFN column: the first layer's output the activation reads (gate and up when
  // gated, 4; GELU's input, 2), SiLU's output when SwiGLU is not one fused function (2), and the
  // second layer's input (li). Eager PyTorch: 8 gated, 4 not (below).
  // A frozen second layer without an adapter keeps no input (its li, eager's 2).
  const double mlp_per_width = o.eager ? (shape.gated_mlp ? 8.0 : 4.0) - (frozen ? 2.0 : 0.0)
                                       : (shape.gated_mlp ? (o.fused_activation ? 4.0 : 6.0) : 2.0) + (keep_mlp_in ? li : 0.0);
  // mlp: a dense layer's MLP keeps only its input (the second norm's, counted with the norms).
  const bool dense_recomputed = mods & rm::mlp;
  const double dense_mlp = dense_recomputed ? 0.0 : mlp_per_width * s * b * dbl(shape.effective_ffn_hidden());
  double mlp_split = dense_mlp;
  // MoE routing, averaged over the layers: the router's output is per token like the layer inputs
  // (split over t with sequence parallelism); the dispatch and combine buffers hold every token of
  // the tensor-parallel group (Megatron-Core gathers the sequence-parallel shards before it permutes,
  // and the experts split their FFN width, not the tokens), so they are not split.
  // The first MLP layer's input (the normalized layer input, s b h): li bytes in a dense layer. In an
  // MoE layer the router keeps it at 16 bits (Megatron-Core's RouterGatingLinearFunction saves its
  // input) and the experts read their permuted copies (below); shared experts keep their own
  // quantized copy beside it.
  // layernorm: the norms' 16-bit outputs are dropped after use. They are what the linear layers
  // after them keep at 16 bits (the QKV and dense first MLP layers' inputs in BF16, the router's
  // input); FP8's quantized copies stay.
  const bool norms_dropped = mods & rm::layernorm;
  const double norm_kept = norms_dropped && li >= 2 ? 0.0 : li;  // a linear layer's kept 16-bit norm output
  const double norm_out = keep_qkv_in ? norm_kept : 0.0;
  const double dense_input = dense_recomputed || !keep_mlp_in ? 0.0 : norm_kept;
  double mlp_input = dense_input;
  double router = 0, dispatch = 0;
  if (shape.moe) {
    const MoeShape& m = *shape.moe;
    // moe: the whole MoE layer keeps only its input. moe_act: the routed experts' activation output
    // (the second layer's input, li, and an unfused SwiGLU's SiLU output) is dropped. shared_experts:
    // the shared experts keep nothing.
    const bool moe_recomputed = mods & rm::moe;
    const double act_dropped = (mods & rm::moe_act) ? li + (shape.gated_mlp && !o.fused_activation ? 2.0 : 0.0) : 0.0;
    const double routed = moe_recomputed ? 0.0 : (mlp_per_width - act_dropped) * m.experts_per_token;
    const bool shared_kept = !(mods & rm::shared_experts);
    const double moe_mlp = s * b * dbl(m.moe_ffn_hidden) * (routed + (shared_kept ? mlp_per_width * m.shared_experts : 0.0));
    mlp_split = (dense_mlp * shape.dense_layers() + moe_mlp * shape.moe_layers()) / shape.layers;
    const double share = static_cast<double>(shape.moe_layers()) / shape.layers;
    router = moe_recomputed ? 0.0 : 4 * s * b * m.experts * share;
    // The k permuted copies the experts' first layer keeps (li bytes: in FP8 the grouped linear keeps
    // its quantized copy; the permutation itself saves no data) and the experts' outputs before
    // they are weighted and combined (2 bytes).
    // (Eager PyTorch with PEFT's adapters on the experts: their own copies, counted below.)
    dispatch = moe_recomputed ? 0.0 : ((keep_mlp_in && !(o.eager && frozen) ? (o.eager ? 2.0 : li) : 0.0) + 2) * sbh * m.experts_per_token * share;
    // The router's 16-bit input, the second norm's output: the checkpoint's input when moe is
    // recomputed (Megatron-Core runs pre_mlp_layernorm outside the MoE module), dropped with layernorm.
    const double router_input = norms_dropped && !moe_recomputed ? 0.0 : 2.0;
    const double shared_input = moe_recomputed || !shared_kept || !keep_mlp_in ? 0.0 : (li < 2 ? li : 0.0);
    const double moe_input = li < 2 ? router_input + (m.shared_experts > 0 ? shared_input : 0.0) : router_input;
    mlp_input = (1 - share) * dense_input + share * moe_input;
  }
  // Each adapter's A x: r 16-bit values per token (not split by tensor parallelism: A x is the
  // adapter's narrow middle). MLP adapters: every FFN matrix of the dense layers, of the k routed and
  // the shared experts a token visits in the MoE layers.
  double adapter_mid = 0;
  if (frozen) {
    const double attention_adapters = (o.lora.q ? 1 : 0) + (o.lora.k ? 1 : 0) + (o.lora.v ? 1 : 0) + (o.lora.o ? 1 : 0);
    double mlp_adapters = 0;
    if (o.lora.mlp) {
      const double mats = shape.gated_mlp ? 3 : 2;
      const double share = shape.moe ? static_cast<double>(shape.moe_layers()) / shape.layers : 0.0;
      const double per_moe_token = shape.moe ? dbl(shape.moe->experts_per_token + shape.moe->shared_experts) : 0.0;
      mlp_adapters = mats * ((1 - share) + share * per_moe_token);
    }
    adapter_mid = 2.0 * o.lora.rank * (attention_adapters + mlp_adapters) * s * b;
  }
  if (o.eager) {
    // Eager PyTorch under autocast (perf::Framework::eager), per token, as its autograd functions save
    // tensors: each RMSNorm its fp32 input (the residual stream) and its fp32 normalized output, 8h
    // (LayerNorm, one native kernel: the input, 4h), and the linear after it the 16-bit cast, 2h;
    // attention (fused) Q, K, V and its output, and the output projection its transposed copy of
    // that output; the MLP as above (SwiGLU: the gate-up output that silu's saved gate keeps alive,
    // the silu output and the product; GELU: its input and output); RoPE saves only its constant
    // cos and sin; no dropout masks. Frozen base weights (above): each norm keeps its fp32 upcast
    // of the 16-bit residual stream (4h), not its output; the linear layers without adapters keep
    // no input.
    //
    // Frozen base weights as Hugging Face PEFT runs them (lora.Linear.forward: x =
    // self._cast_input_dtype(x, lora_A.weight.dtype), the adapters being fp32 under
    // autocast_adapter_dtype): each adapter casts its layer's input to fp32 and autocast casts that back
    // to 16 bits for lora_A, so every adapted layer keeps its own 16-bit copy of its input, 2 d_in (q,
    // k and v one each; o its own beside the attention kernel's output), while the frozen layers keep
    // none; the MLP keeps what its activation needs (gate, up and SiLU's output; GELU's input).
    const double norm = shape.norm == NormKind::rmsnorm && !frozen ? 8.0 : 4.0;
    double norms = ((norm + (keep_qkv_in ? 2 : 0)) + (norm + (keep_mlp_in ? 2 : 0))) * sbh;
    double attention = (keep_proj_in ? 6 : 4) * s * b * q_width + 4 * s * b * kv_width;
    if (frozen) {
      norms = 2 * norm * sbh;
      const double copies = (o.lora.q ? 2 * h : 0.0) + (o.lora.k ? 2 * h : 0.0) + (o.lora.v ? 2 * h : 0.0) + (o.lora.o ? 2 * q_width : 0.0);
      attention = 4 * s * b * q_width + 4 * s * b * kv_width + copies * s * b;
      if (o.lora.mlp) {
        // The first layers' inputs (gate and up, or fc1) and the second layer's (the FFN-wide product),
        // for every FFN a token passes: the dense layers', the k routed and shared experts' in MoE layers.
        const double first = (shape.gated_mlp ? 2 : 1) * 2 * h;
        const double share = shape.moe ? static_cast<double>(shape.moe_layers()) / shape.layers : 0.0;
        const double dense_ffn = dbl(shape.effective_ffn_hidden());
        const double moe_ffn = shape.moe ? dbl(shape.moe->moe_ffn_hidden) * dbl(shape.moe->experts_per_token + shape.moe->shared_experts) : 0.0;
        const double moe_first = shape.moe ? first * dbl(shape.moe->experts_per_token + shape.moe->shared_experts) : 0.0;
        mlp_split += ((1 - share) * (first + 2 * dense_ffn) + share * (moe_first + 2 * moe_ffn)) * s * b;
      }
    }
    const double eager_scores = !core_attn && !o.flash_attention ? 5 * a * s * s * b : 0.0;
    const double bytes = dispatch + adapter_mid + (o.sequence_parallel ? (norms + router + attention + mlp_split + eager_scores) / t
                                                                       : norms + router + (attention + mlp_split + eager_scores) / t);
    return DataSize::from_value(bytes);
  }
  // Layer inputs (the QKV and first MLP layers' inputs) 4sbh at 16 bits, LayerNorm inputs 4sbh,
  // dropout masks 2sbh.
  // Frozen weights under sequence parallelism: NeMo's and Megatron-Bridge's LoRA feed the adapters
  // of the QKV and first MLP layers the gathered norm output (return_layernorm_output_gathered), which
  // the adapter keeps whole: not split over the t ranks.
  const double dense_share = shape.moe ? 1.0 - static_cast<double>(shape.moe_layers()) / shape.layers : 1.0;
  const double gathered = frozen && o.sequence_parallel ? (norm_out + dense_share * dense_input) * sbh : 0.0;
  const double unsplit = (norm_out + mlp_input) * sbh - gathered + 4 * sbh + (o.dropout ? 2 * sbh : 0.0) + router + latents;
  const bool keep_scores = !core_attn && !o.flash_attention;
  // Unfused attention keeps the softmax output (2 a s^2 b), and with dropout its mask and output
  // (a s^2 b + 2 a s^2 b: Korthikanti's 5 a s^2 b).
  const double scores = keep_scores ? (o.dropout ? 5.0 : 2.0) * a * s * s * b : 0.0;
  const double bytes = dispatch + adapter_mid + gathered + (o.sequence_parallel ? (unsplit + attn_split + mlp_split + scores) / t
                                                                               : unsplit + (attn_split + mlp_split + scores) / t);
  return DataSize::from_value(bytes);
}

// Korthikanti et al. 2022, Table 2, as printed (GPT shape, bytes per layer), for checking.
inline DataSize korthikanti_table2(double s, double b, double h, double a, double t, bool sequence_parallel,
                                   Recompute r) {
  const double sbh = s * b * h;
  if (r == Recompute::full) return DataSize::from_value(2 * sbh);
  if (r == Recompute::selective) {
    return DataSize::from_value(sequence_parallel ? 34 * sbh / t : sbh * (10 + 24 / t));
  }
  if (sequence_parallel) return DataSize::from_value(sbh * (34 / t + 5 * a * s / (h * t)));
  if (t == 1) return DataSize::from_value(sbh * (34 + 5 * a * s / h));
  return DataSize::from_value(sbh * (10 + 24 / t + 5 * a * s / (h * t)));
}

}  // namespace capplan
