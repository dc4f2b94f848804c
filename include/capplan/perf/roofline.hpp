// Roofline: ridge point of a GPU at a precision, the arithmetic intensity of each operation of a
// transformer layer, and the attainable rate with the bound that applies.
//
//   attainable = min(peak, intensity x bandwidth)      Williams, Waterman & Patterson 2009, eq. 1
//   ridge      = peak / bandwidth                       same paper: the intensity where the roofs meet
//
// The operations are listed per GPU (after tensor parallelism) and per forward pass; training.hpp
// derives backward and recomputation from them and efficiency.hpp turns each into a time.
#pragma once

#include "capplan/detail/enum_names.hpp"
#include "capplan/error.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/hardware/precision.hpp"
#include "capplan/units/quantity.hpp"
#include "capplan/workload/parallel_plan.hpp"
#include "capplan/workload/transformer.hpp"

#include <boost/describe/enum.hpp>

#include <algorithm>
#include <cstdint>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace capplan::perf {

enum class OpKind { gemm, attention_gemm, flash_attention, elementwise, optimizer };
BOOST_DESCRIBE_ENUM(OpKind, gemm, attention_gemm, flash_attention, elementwise, optimizer)
enum class Bound { compute, memory };
BOOST_DESCRIBE_ENUM(Bound, compute, memory)

inline constexpr std::string_view name(OpKind k) {
  switch (k) {
    case OpKind::gemm: return "gemm";
    case OpKind::attention_gemm: return "attention gemm";
    case OpKind::flash_attention: return "flash attention";
    case OpKind::elementwise: return "element-wise";
    case OpKind::optimizer: return "optimizer";
  }
  return "?";
}
inline constexpr std::string_view name(Bound b) { return detail::enum_name(b); }

// One kernel: its FLOPs, the bytes it moves to and from device memory and, for a GEMM, its shape
// (C[m,n] = A[m,k] x B[k,n], `batch` independent products).
struct Op {
  std::string_view name;  // a string literal: ops are built in hot loops (plan search)
  OpKind kind = OpKind::elementwise;
  double flops = 0;  // FLOP
  double bytes = 0;  // B
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  int kernels = 1;   // launches this step takes (an eager norm is several); each pays the kernel overhead
  // The recompute_module this kernel belongs to (workload/parallel_plan.hpp recompute_module::tag), 0: none.
  std::uint8_t module = 0;

  [[nodiscard]] FlopCount flop_count() const { return from_canonical<FlopCount>(flops); }
  [[nodiscard]] DataSize data_size() const { return from_canonical<DataSize>(bytes); }
  // FLOPs per byte moved; 0 for an op that moves nothing.
  [[nodiscard]] ArithmeticIntensity intensity() const {
    return from_canonical<ArithmeticIntensity>(bytes > 0 ? flops / bytes : 0.0);
  }
};

// A layer's kernels in a fixed-capacity list on the stack: the estimate builds one per plan, so it
// allocates nothing (transformer_layer_forward returns the same kernels as a vector).
struct OpList {
  static constexpr std::size_t capacity = 32;
  std::size_t count = 0;
  std::uint8_t module = 0;  // stamped on the kernels pushed while set (Op::module)
  [[gnu::always_inline]] void push_back(const Op& op) {
    if (count == capacity) [[unlikely]] overflow();
    Op* o = new (storage + count * sizeof(Op)) Op(op);  // uninitialised storage: no 32 x Op construction per list
    if (module != 0 && o->module == 0) o->module = module;
    ++count;
  }
  [[nodiscard]] const Op* begin() const { return std::launder(reinterpret_cast<const Op*>(storage)); }
  [[nodiscard]] const Op* end() const { return begin() + count; }
  [[nodiscard]] std::size_t size() const { return count; }
  [[nodiscard]] std::vector<Op> to_vector() const { return std::vector<Op>(begin(), end()); }

 private:
  static_assert(std::is_trivially_destructible_v<Op> && std::is_trivially_copyable_v<Op>);
  [[noreturn, gnu::cold, gnu::noinline]] static void overflow() {
    detail::fail("ops", std::to_string(capacity), "exceed the kernels one layer can list");
  }
  alignas(Op) unsigned char storage[capacity * sizeof(Op)];
};

// Peak dense rate of `gpu` at `p`; InputError when the catalog has none.
inline FlopRate peak_rate(const GpuSpec& gpu, Precision p) {
  auto r = gpu.dense.at(p);
  if (!r || !(r->value() > 0) || !std::isfinite(r->value()))
    detail::fail("precision", std::string(name(p)), "has no dense peak rate for GPU \"" + gpu.name + "\"");
  return *r;
}

inline Bandwidth peak_bandwidth(const GpuSpec& gpu) {
  if (!(gpu.memory_bandwidth.value() > 0) || !std::isfinite(gpu.memory_bandwidth.value()))
    detail::fail("memory_bandwidth", detail::format_double(gpu.memory_bandwidth.value()),
                 "must be > 0 for GPU \"" + gpu.name + "\"");
  return gpu.memory_bandwidth;
}

// Ridge point: peak FLOP/s / peak B/s (Williams et al. 2009). A100 SXM bf16: 312e12 / 2.039e12 = 153 FLOP/B.
inline ArithmeticIntensity ridge_point(const GpuSpec& gpu, Precision p) { return peak_rate(gpu, p) / peak_bandwidth(gpu); }

struct RooflinePoint {
  ArithmeticIntensity intensity{};
  ArithmeticIntensity ridge{};
  FlopRate attainable{};
  Bound bound = Bound::compute;
};

// Attainable rate = min(peak, intensity x bandwidth) (Williams et al. 2009, eq. 1).
inline RooflinePoint roofline(const Op& op, const GpuSpec& gpu, Precision p) {
  RooflinePoint r;
  r.intensity = op.intensity();
  r.ridge = ridge_point(gpu, p);
  const FlopRate memory_roof = r.intensity * peak_bandwidth(gpu);
  const FlopRate peak = peak_rate(gpu, p);
  r.bound = (op.bytes > 0 && memory_roof < peak) ? Bound::memory : Bound::compute;
  r.attainable = r.bound == Bound::memory ? memory_roof : peak;
  return r;
}

// A GEMM C[m,n] = A[m,k] B[k,n], `batch` times: 2mnk FLOPs (one multiply-add = 2 FLOPs) and one read
// of A and B and one write of C, each element `bytes_per_element` wide.
inline Op gemm(std::string_view op_name, std::int64_t m, std::int64_t n, std::int64_t k, double bytes_per_element,
               std::int64_t batch = 1, OpKind kind = OpKind::gemm) {
  require_positive_count(m, "m");
  require_positive_count(n, "n");
  require_positive_count(k, "k");
  require_positive_count(batch, "batch");
  Op op;
  op.name = op_name;
  op.kind = kind;
  const double dm = static_cast<double>(m), dn = static_cast<double>(n), dk = static_cast<double>(k),
               db = static_cast<double>(batch);
  op.flops = 2.0 * dm * dn * dk * db;
  op.bytes = (dm * dk + dk * dn + dm * dn) * db * bytes_per_element;
  op.m = m;
  op.n = n;
  op.k = k;
  op.batch = batch;
  return op;
}

// An element-wise (or reduction) kernel that moves `bytes` and does a few FLOPs per element
// (counted as zero: these kernels are bound by memory on every GPU in the catalog).
inline Op elementwise(std::string_view op_name, double bytes) {
  Op op;
  op.name = op_name;
  op.kind = OpKind::elementwise;
  op.bytes = require_nonnegative(bytes, "bytes");
  return op;
}

// How a framework runs a layer: which kernels exist and which are fused.
struct LayerOptions {
  bool flash_attention = false;  // fused attention (Dao et al. 2022): no s x s matrix in memory
  bool dropout = true;           // dropout after attention probabilities and both residual branches
  bool sequence_parallel = false;  // norms and dropouts split over tensor-parallel ranks (Korthikanti 2022 §4.2.2)
  bool causal = true;            // decoder: flash attention skips the masked half (an encoder's shape, e.g. BERT, never does)
  bool moe_layer = true;         // for a MoE shape: this layer's FFN is the routed experts (false: a leading dense layer)
  int expert_parallel = 1;       // GPUs the routed experts are spread over
  // GPUs each routed expert's FFN is split over (Megatron-Core --expert-tensor-parallel-size); 0: tp.
  // An expert then computes etp / tp times the rows of its tp-split share at 1/etp of its width.
  int expert_tensor_parallel = 0;
  int context_parallel = 1;      // the sequence given is 1/cp of the one attended to (keys come round the ring)
  // Rows each routed expert computes relative to a balanced share (perf/framework.hpp moe_capacity_factor).
  double expert_capacity_factor = 1.0;
  // A sliding-window layer: each query attends to the last `window` keys (0: the whole sequence). The
  // fused kernel skips the rest; the unfused path (scores, mask, softmax) still computes and stores the
  // whole s x s matrix and masks it, as eager attention does.
  std::int64_t window = 0;
  // Multi-head latent attention: attend in the compressed latent with W_UK folded into the queries and
  // W_UV into the output (DeepSeek-V2 §2.1.2, the inference form) instead of up-projecting keys and
  // values per head (the training form).
  bool mla_absorbed = false;
  // Plain PyTorch without fusion (perf/framework.hpp pytorch_eager): the kernels of eager_layer_steps below
  // in place of the fused norm, residual and activation kernels.
  bool eager = false;
  // The routed experts' GEMMs run as one kernel per local expert (perf/framework.hpp
  // moe_gemm_per_expert: Transformer Engine's GroupedLinear), each paying the kernel's fixed cost,
  // rather than as one grouped kernel.
  bool moe_gemm_per_expert = false;
};

// Plain PyTorch (eager, torch.autocast) runs each element-wise step of a layer as its own kernel, as
// Hugging Face Transformers' modeling code writes them (LlamaRMSNorm, apply_rotary_pos_emb, the SwiGLU
// MLP, the residual adds), on a residual stream kept in fp32: the embedding's weights are fp32, so its
// output is, and autocast runs norms in fp32 and casts each linear layer's input to the compute type.
// Bytes per element of each step (e: the compute type's bytes, 4 the fp32 stream):
//   RMSNorm   x.pow(2) 8, .mean(-1) 4, x * rsqrt(...) 8, weight * x 8                 = 28, 4 kernels
//   LayerNorm torch's native kernel, fp32 in and out                                    =  8, 1 kernel
//   autocast cast of the normed fp32 activation before the next linear               = 4 + e (e < 4)
//   RoPE on q and k: -x2 e, cat 2e, x * cos 2e, rot * sin 2e, sum 3e                     = 10e, 5 kernels
//   attention output transpose(1, 2).contiguous()                                       = 2e
//   SwiGLU: silu(gate) 2e, silu * up 3e (fused: 3e in one kernel)                       = 5e, 2 kernels
//   residual add, fp32 stream + branch output                                           = 8 + e
//   autocast weight casts, fp32 -> compute type, every linear weight every micro-batch  = 4 + e per parameter
// (the fused kernels these replace: norm 2e, bias-dropout-add 3e + mask, SwiGLU 3e). Rotary positions are
// assumed where the model has no learned position table.
inline void eager_layer_steps(OpList& ops, double tokens, double hidden, double e, NormKind norm, bool rotary,
                              double q_width, double kv_width, double ffn_width, bool gated, double weights, int which) {
  const double cast = e < 4 ? 4 + e : 0;
  auto add = [&](std::string_view n, double bytes, int kernels) {
    Op op = elementwise(n, bytes);
    op.kernels = kernels;
    ops.push_back(op);
  };
  switch (which) {
    case 0:  // before the attention: the norm, its cast, RoPE
    case 2:  // before the MLP: the norm and its cast
      if (norm == NormKind::rmsnorm)
        add(which == 0 ? "norm 1 (eager: 4 fp32 kernels + cast)" : "norm 2 (eager: 4 fp32 kernels + cast)",
            tokens * hidden * (28 + cast), cast > 0 ? 5 : 4);
      else
        add(which == 0 ? "norm 1 (eager: fp32 + cast)" : "norm 2 (eager: fp32 + cast)", tokens * hidden * (8 + cast), cast > 0 ? 2 : 1);
      if (which == 0 && rotary) add("rope on q and k (eager: 10 kernels)", tokens * (q_width + kv_width) * 10 * e, 10);
      if (which == 0 && cast > 0) add("autocast weight casts", weights * cast, 1);
      break;
    case 1:  // after the attention: the output transpose and the residual add
      add("attention output transpose copy", tokens * q_width * 2 * e, 1);
      add("residual add 1 (fp32 stream)", tokens * hidden * (8 + e), 1);
      break;
    case 3:  // the activation
      if (gated) {
        add("silu (eager)", tokens * ffn_width * 2 * e, 1);
        add("silu * up (eager)", tokens * ffn_width * 3 * e, 1);
      } else {
        add("gelu", tokens * ffn_width * 2 * e, 1);
      }
      break;
    default:
      add("residual add 2 (fp32 stream)", tokens * hidden * (8 + e), 1);
  }
}

// The shape after defaults: kv_heads = heads, head_dim = hidden / heads, ffn = 4 hidden
// (the conventions of workload/transformer.hpp).
struct ResolvedShape {
  std::int64_t layers, hidden, heads, kv_heads, head_dim, ffn, vocab;
  bool gated;
};

inline ResolvedShape resolve(const TransformerShape& s) {
  require_positive_count(s.layers, "layers");
  require_positive_count(s.hidden, "hidden");
  require_positive_count(s.heads, "heads");
  ResolvedShape r{};
  r.layers = s.layers;
  r.hidden = s.hidden;
  r.heads = s.heads;
  r.kv_heads = s.kv_heads > 0 ? s.kv_heads : s.heads;
  r.head_dim = s.head_dim > 0 ? s.head_dim : s.hidden / s.heads;
  r.ffn = s.ffn_hidden > 0 ? s.ffn_hidden : 4 * s.hidden;
  r.vocab = s.vocab;
  r.gated = s.gated_mlp;
  if (r.head_dim <= 0) detail::fail("head_dim", std::to_string(r.head_dim), "must be a positive count");
  return r;
}

// Multi-head latent attention (DeepSeek-V2, DeepSeek-AI 2024, §2.1.2-2.1.3, eqs. 9-19): queries through a
// q_lora_rank bottleneck (one projection when it is 0), keys and values up-projected from a kv_lora_rank
// latent c_KV, plus one decoupled RoPE key shared by all heads. The down-projections are replicated on
// every tensor-parallel rank, the up-projections split by heads. Per head, QK^T runs over
// qk_nope + qk_rope dimensions and PV over v_head_dim. Absorbed (§2.1.2: W_UK folds into the queries,
// W_UV into the output), attention runs in the latent: QK^T over kv_lora + qk_rope, PV over kv_lora,
// with the latent shared by all heads (read once, like multi-query attention).
// One fused attention kernel over `heads` (sequences x heads) of `seq` tokens: QK^T and PV, 2 s^2 (d_qk + d_v)
// FLOPs per head (4 s^2 d when d_qk = d_v = d), half of it skipped under a causal mask (Dao et al. 2022
// §3.1); `bytes` is what it reads and writes once.
// `kv_seq`: keys each query attends to (0: seq); with context parallelism a rank's seq / cp queries
// attend to all seq keys, and its load-balanced causal chunks still skip half of them.
// `window` (> 0, causal only): a sliding-window layer, whose kernel skips the key blocks outside each
// query's window (FlashAttention-2's window_size; Dao 2023), so it runs the band's w^2/2 + (s - w) w
// pairs of a sequence of s keys (compute/flops.hpp window_pairs, counted as the causal s^2/2 above
// is: which it equals at w = s), in the share seq / kv_seq a context-parallel rank holds.
inline Op flash_attention_op(std::string_view op_name, std::int64_t heads, std::int64_t seq, std::int64_t d_qk, std::int64_t d_v,
                             bool causal, double bytes, std::int64_t kv_seq = 0, std::int64_t window = 0) {
  if (kv_seq <= 0) kv_seq = seq;
  Op fa;
  fa.name = op_name;
  fa.kind = OpKind::flash_attention;
  const double per_pair = 2.0 * static_cast<double>(heads) * static_cast<double>(d_qk + d_v);
  if (causal && window > 0 && window < kv_seq) {
    const double w = static_cast<double>(window), s = static_cast<double>(kv_seq);
    fa.flops = per_pair * (w * w / 2 + (s - w) * w) * (static_cast<double>(seq) / s);
  } else {
    fa.flops = per_pair * static_cast<double>(seq) * static_cast<double>(kv_seq) * (causal ? 0.5 : 1.0);
  }
  fa.bytes = bytes;
  fa.m = seq;
  fa.n = kv_seq;
  fa.k = d_qk;
  fa.batch = heads;
  return fa;
}

inline void mla_attention(OpList& ops, const MlaShape& a, std::int64_t tokens, std::int64_t seq, std::int64_t seqs,
                          std::int64_t heads_local, std::int64_t hidden, double e, double t, const LayerOptions& o) {
  require_positive_count(a.kv_lora_rank, "kv_lora_rank");
  require_positive_count(a.qk_rope_head_dim, "qk_rope_head_dim");
  require_positive_count(a.qk_nope_head_dim, "qk_nope_head_dim");
  require_positive_count(a.v_head_dim, "v_head_dim");
  const std::int64_t nope = a.qk_nope_head_dim, rope = a.qk_rope_head_dim, dv = a.v_head_dim, r = a.kv_lora_rank;
  const std::int64_t dqk = nope + rope;
  namespace rm = recompute_module;
  const auto as = [](Op op, std::uint8_t bit) {
    op.module = rm::tag(bit);
    return op;
  };
  if (a.q_lora_rank > 0) {
    ops.push_back(gemm("mla query down-projection", tokens, a.q_lora_rank, hidden, e));
    ops.push_back(elementwise("mla query norm", t * static_cast<double>(a.q_lora_rank) * 2 * e));
    ops.push_back(as(gemm("mla query up-projection", tokens, heads_local * dqk, a.q_lora_rank, e), rm::mla_up_proj));
  } else {
    ops.push_back(as(gemm("mla query projection", tokens, heads_local * dqk, hidden, e), rm::mla_up_proj));  // Megatron-Core's linear_q_proj, rerun by mla_up_proj
  }
  ops.push_back(gemm("mla kv down-projection + rope key", tokens, r + rope, hidden, e));
  ops.push_back(elementwise("mla kv norm", t * static_cast<double>(r) * 2 * e));
  // Per-head shapes of the attention core: query/key width, value width, and the K/V bytes read.
  std::int64_t qk = dqk, v = dv;
  double kv_read = t * static_cast<double>(heads_local * (dqk + dv));
  if (o.mla_absorbed) {
    ops.push_back(gemm("mla W_UK absorbed into queries", tokens, r, nope, e, heads_local));
    qk = r + rope;
    v = r;
    kv_read = t * static_cast<double>(r + rope);  // the shared latent and rope key
  } else {
    ops.push_back(as(gemm("mla kv up-projection", tokens, heads_local * (nope + dv), r, e), rm::mla_up_proj));
  }
  const double q_bytes = t * static_cast<double>(heads_local * qk), o_bytes = t * static_cast<double>(heads_local * v);
  ops.module = rm::tag(rm::core_attn);
  if (o.flash_attention) {
    ops.push_back(flash_attention_op("flash attention (mla)", seqs * heads_local, seq, qk, v, o.causal,
                                     (q_bytes + kv_read + o_bytes) * e));
  } else {
    const double scores = static_cast<double>(seqs * heads_local) * static_cast<double>(seq) * static_cast<double>(seq);
    ops.push_back(gemm("attention scores QK^T", seq, seq, qk, e, seqs * heads_local, OpKind::attention_gemm));
    ops.push_back(elementwise("scale-mask-softmax", scores * 2 * e));
    if (o.dropout) ops.push_back(elementwise("attention dropout", scores * (2 * e + 1.0)));  // + 1-byte mask
    ops.push_back(gemm("attention over values PV", seq, v, seq, e, seqs * heads_local, OpKind::attention_gemm));
  }
  ops.module = 0;
  if (o.mla_absorbed) ops.push_back(gemm("mla W_UV on the attention output", tokens, dv, r, e, heads_local));
}

// Forward-pass kernels of one transformer layer on one GPU: `tokens` = micro-batch x sequence
// tokens, `seq` the attention span, tensor-parallel degree `tp`. GEMM shapes follow Megatron-LM
// (Shoeybi et al. 2019, Fig. 3): QKV and FC1 split by columns, output projection and FC2 by rows.
// Element-wise bytes follow the fused kernels of Megatron-LM (Narayanan et al. 2021 §4.2):
// layer norm read + write, bias-dropout-add read x2 + write + 1-byte mask, fused scale-mask-softmax
// read + write, attention dropout read + write + mask, bias-GeLU read + write.
inline void transformer_layer_ops(OpList& ops, const TransformerShape& shape, std::int64_t tokens, std::int64_t seq, int tp,
                                  Precision p, const LayerOptions& o = {}) {
  const ResolvedShape s = resolve(shape);
  require_positive_count(tokens, "tokens");
  require_positive_count(seq, "seq_len");
  require_positive_count(tp, "tp");
  if (s.heads % tp != 0) detail::fail("tp", std::to_string(tp), "does not divide heads (" + std::to_string(s.heads) + ")");
  if (s.ffn % tp != 0) detail::fail("tp", std::to_string(tp), "does not divide ffn_hidden (" + std::to_string(s.ffn) + ")");
  const int etp = o.expert_tensor_parallel > 0 ? o.expert_tensor_parallel : tp;
  if (shape.moe && shape.moe->moe_ffn_hidden % etp != 0)
    detail::fail(o.expert_tensor_parallel > 0 ? "etp" : "tp", std::to_string(etp),
                 "does not divide moe_ffn_hidden (" + std::to_string(shape.moe->moe_ffn_hidden) + ")");
  const double e = bytes_per_element(p);
  const std::int64_t heads_local = s.heads / tp;
  const std::int64_t kv_local = kv_heads_per_rank(s.kv_heads, tp);
  const std::int64_t q_width = heads_local * s.head_dim;
  const std::int64_t qkv_width = (heads_local + 2 * kv_local) * s.head_dim;
  const std::int64_t ffn_local = s.ffn / tp;
  const std::int64_t seqs = std::max<std::int64_t>(1, tokens / seq);
  const double t = static_cast<double>(tokens), h = static_cast<double>(s.hidden);
  const double replicated = o.sequence_parallel ? t / tp : t;  // tokens whose norms/dropouts this GPU runs
  const double mask = o.dropout ? 1.0 : 0.0;                   // 1-byte dropout mask per element

  ops.count = 0;
  ops.module = 0;
  namespace rm = recompute_module;
  // Each kernel tagged with the module selective recomputation would run it in (Op::module).
  const auto as = [](Op op, std::uint8_t bit) {
    op.module = rm::tag(bit);
    return op;
  };
  // Eager: the layer's linear weights (for autocast's casts) and the widths the element-wise steps see.
  const double ffn_mats = s.gated ? 3.0 : 2.0;
  const double layer_weights = h * static_cast<double>(qkv_width + q_width) + ffn_mats * h * static_cast<double>(ffn_local);
  const bool rotary = shape.learned_positions == 0 && !shape.mla;
  const auto eager = [&](int which) {
    eager_layer_steps(ops, replicated, h, e, shape.norm, rotary, static_cast<double>(q_width),
                      static_cast<double>(kv_local * s.head_dim), static_cast<double>(ffn_local), s.gated, layer_weights, which);
  };
  if (o.eager) eager(0);
  else ops.push_back(as(elementwise("norm 1", replicated * h * 2 * e), rm::layernorm));
  require_positive_count(o.context_parallel, "cp");
  const std::int64_t kv_seq = seq * o.context_parallel;  // keys per query sequence
  if (shape.mla) {
    if (o.context_parallel > 1) capplan::detail::fail("cp", std::to_string(o.context_parallel), "is not modelled with multi-head latent attention");
    mla_attention(ops, *shape.mla, tokens, seq, seqs, heads_local, s.hidden, e, t, o);
  } else {
    ops.push_back(gemm("qkv projection", tokens, qkv_width, s.hidden, e));
    ops.module = rm::tag(rm::core_attn);
    if (o.flash_attention) {
      // Reads Q, K, V and writes O once.
      ops.push_back(flash_attention_op(o.window > 0 && o.window < kv_seq ? "flash attention (sliding window)" : "flash attention",
                                       seqs * heads_local, seq, s.head_dim, s.head_dim, o.causal && !shape.encoder,
                                       t * static_cast<double>(qkv_width + q_width) * e, kv_seq, o.window));
    } else {
      const double scores = static_cast<double>(seqs * heads_local) * static_cast<double>(seq) * static_cast<double>(kv_seq);
      ops.push_back(gemm("attention scores QK^T", seq, kv_seq, s.head_dim, e, seqs * heads_local, OpKind::attention_gemm));
      ops.push_back(elementwise("scale-mask-softmax", scores * 2 * e));
      if (o.dropout) ops.push_back(elementwise("attention dropout", scores * (2 * e + mask)));
      ops.push_back(gemm("attention over values PV", seq, s.head_dim, kv_seq, e, seqs * heads_local, OpKind::attention_gemm));
    }
    ops.module = 0;
  }
  if (o.eager) {
    eager(1);
    ops.push_back(gemm("attention output projection", tokens, s.hidden, shape.mla ? heads_local * shape.mla->v_head_dim : q_width, e));
    eager(2);
  } else {
    ops.push_back(gemm("attention output projection", tokens, s.hidden, shape.mla ? heads_local * shape.mla->v_head_dim : q_width, e));
    ops.push_back(elementwise("bias-dropout-add 1", replicated * h * (3 * e + mask)));
    ops.push_back(as(elementwise("norm 2", replicated * h * 2 * e), rm::layernorm));
  }
  if (shape.moe && o.moe_layer) {
    // Mixture of experts (Fedus et al. 2022 §2; DeepSeek-V3 §2.1.2): a router GEMM, then each token's
    // top-k routed experts and the shared experts, gated FFNs of width moe_ffn_hidden split over tp.
    // With ep-way expert parallelism a GPU holds experts/ep experts and, balanced, receives
    // tokens x k assignments: ep x tokens x k / experts rows per expert.
    const MoeShape& moe = *shape.moe;
    require_positive_count(moe.experts, "experts");
    require_positive_count(moe.experts_per_token, "experts_per_token");
    require_positive_count(o.expert_parallel, "expert_parallel");
    if (moe.experts % o.expert_parallel != 0)
      detail::fail("expert_parallel", std::to_string(o.expert_parallel), "does not divide the " + std::to_string(moe.experts) + " experts");
    // Expert tensor parallelism etp (Megatron-Core folds ETP x EP into the TP x CP x DP ranks): each
    // expert's width splits over etp GPUs, which together compute the tokens of etp / tp attention
    // tensor-parallel groups: rows x etp / tp at width f / etp, the same work per GPU.
    const std::int64_t fe = std::max<std::int64_t>(1, moe.moe_ffn_hidden / etp);
    const std::int64_t local_experts = moe.experts / o.expert_parallel;
    const double share = static_cast<double>(etp) / tp;  // routed tokens this GPU's experts see, per attention token
    // With a capacity factor c every expert's buffer holds c x its balanced share (GShard §2.2, Switch
    // Transformer §2.2: capacity = tokens x k / experts x c), padded where fewer arrive.
    const double cf = o.expert_capacity_factor * share;
    const std::int64_t rows = std::max<std::int64_t>(
        1, static_cast<std::int64_t>(std::ceil(static_cast<double>(tokens * moe.experts_per_token * o.expert_parallel) * cf /
                                               static_cast<double>(moe.experts))));
    const int mats = s.gated ? 2 : 1;
    ops.module = rm::tag(rm::moe);
    ops.push_back(gemm("moe router", tokens, moe.experts, s.hidden, e));
    ops.push_back(elementwise("moe token permute", t * cf * static_cast<double>(moe.experts_per_token) * h * 2 * 2 * e));
    // One grouped kernel, or one GEMM per local expert (LayerOptions::moe_gemm_per_expert).
    const int expert_kernels = o.moe_gemm_per_expert ? static_cast<int>(std::min<std::int64_t>(local_experts, 1 << 20)) : 1;
    Op up = gemm("moe expert up projections", rows, mats * fe, s.hidden, e, local_experts);
    up.kernels = expert_kernels;
    ops.push_back(as(up, rm::moe_experts));
    ops.push_back(as(elementwise(s.gated ? "swiglu" : "bias-gelu",
                                 t * cf * static_cast<double>(moe.experts_per_token) * static_cast<double>(fe) * (mats + 1) * e),
                     rm::moe_act));
    Op down = gemm("moe expert down projections", rows, s.hidden, fe, e, local_experts);
    down.kernels = expert_kernels;
    ops.push_back(as(down, rm::moe_experts));
    if (moe.shared_experts > 0) {  // shared experts are dense FFNs under tp
      const std::int64_t fs = std::max<std::int64_t>(1, moe.moe_ffn_hidden * moe.shared_experts / tp);
      ops.push_back(as(gemm("shared expert up projection", tokens, mats * fs, s.hidden, e), rm::shared_experts));
      ops.push_back(as(gemm("shared expert down projection", tokens, s.hidden, fs, e), rm::shared_experts));
    }
  } else if (s.gated) {
    ops.module = rm::tag(rm::mlp);
    ops.push_back(gemm("mlp gate+up projection", tokens, 2 * ffn_local, s.hidden, e));
    if (o.eager) eager(3);
    else ops.push_back(elementwise("swiglu", t * static_cast<double>(ffn_local) * 3 * e));
    ops.push_back(gemm("mlp down projection", tokens, s.hidden, ffn_local, e));
  } else {
    ops.module = rm::tag(rm::mlp);
    ops.push_back(gemm("mlp up projection", tokens, ffn_local, s.hidden, e));
    ops.push_back(elementwise("bias-gelu", t * static_cast<double>(ffn_local) * 2 * e));
    ops.push_back(gemm("mlp down projection", tokens, s.hidden, ffn_local, e));
  }
  ops.module = 0;
  if (o.eager) eager(4);
  else ops.push_back(elementwise("bias-dropout-add 2", replicated * h * (3 * e + mask)));
}

inline std::vector<Op> transformer_layer_forward(const TransformerShape& shape, std::int64_t tokens, std::int64_t seq,
                                                 int tp, Precision p, const LayerOptions& o = {}) {
  OpList ops;
  transformer_layer_ops(ops, shape, tokens, seq, tp, p, o);
  return ops.to_vector();
}

// Output layer (logits) and cross-entropy on the last pipeline stage, vocabulary split over tp
// (Megatron-LM vocab-parallel cross entropy): a [tokens, h] x [h, V/tp] GEMM and softmax in fp32
// (read logits, write fp32 probabilities, read again for the loss). The vocabulary is padded to a
// multiple of vocab_multiple x tp (workload/transformer.hpp padded_vocab): the padded columns are computed too.
// Eager (`eager`): PyTorch casts the logits to fp32 (e + 4 bytes per logit) and runs log-softmax over them
// (fp32 in and out: 8) as separate kernels, and autocast casts the output weight every micro-batch (4 + e
// per parameter), as Hugging Face Transformers' loss does.
inline void output_layer_ops(OpList& ops, const TransformerShape& shape, std::int64_t tokens, int tp, Precision p, int vocab_multiple = 1,
                             bool eager = false) {
  const ResolvedShape s = resolve(shape);
  require_positive_count(s.vocab, "vocab");
  require_positive_count(tp, "tp");
  const double e = bytes_per_element(p);
  const std::int64_t v_local = padded_vocab(s.vocab, tp, std::max(vocab_multiple, 1)) / tp;
  ops.count = 0;
  ops.push_back(gemm("logits", tokens, v_local, s.hidden, e));
  const double logits = static_cast<double>(tokens) * static_cast<double>(v_local);
  if (!eager) {
    ops.push_back(elementwise("cross-entropy", logits * (e + 4 + 4)));
    return;
  }
  ops.push_back(elementwise("logits to fp32 (eager)", logits * (e + 4)));
  ops.push_back(elementwise("log-softmax (eager, fp32)", logits * 8));
  if (e < 4) ops.push_back(elementwise("autocast output weight cast", static_cast<double>(v_local) * static_cast<double>(s.hidden) * (4 + e)));
}

inline std::vector<Op> output_layer_forward(const TransformerShape& shape, std::int64_t tokens, int tp, Precision p, int vocab_multiple = 1,
                                            bool eager = false) {
  require_positive_count(vocab_multiple, "vocab_multiple");
  OpList ops;
  output_layer_ops(ops, shape, tokens, tp, p, vocab_multiple, eager);
  return ops.to_vector();
}

// Adam step with fp32 master weights: reads fp32 master, m, v and the gradient, writes master, m, v
// and the low-precision copy: 4x3 + grad + 4x3 + weight bytes per parameter (Rajbhandari et al. 2020 §3.1
// counts the 12 bytes of optimizer state).
inline Op adam_step(double params_on_gpu, double grad_bytes = 4, double weight_bytes = 2) {
  Op op;
  op.name = "adam optimizer step";
  op.kind = OpKind::optimizer;
  op.flops = 12.0 * require_nonnegative(params_on_gpu, "params");  // ~12 FLOPs per parameter (moments, bias correction, update)
  op.bytes = params_on_gpu * (12.0 + grad_bytes + 12.0 + weight_bytes);
  return op;
}

}  // namespace capplan::perf
