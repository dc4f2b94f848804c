// TransformerShape: the shape of a decoder (or encoder) transformer, from which parameter
// counts, FLOPs and memory are derived.
//
// Zero in kv_heads, head_dim or ffn_hidden means "the usual default" (heads, hidden / heads,
// 4 * hidden); resolved() fills them in after validate() has checked the shape. Every check
// throws capplan::InputError naming the field and the value.
#pragma once

#include "capplan/detail/enum_names.hpp"
#include "capplan/error.hpp"

#include <boost/describe/enum.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace capplan {

enum class AttentionKind { mha, gqa, mqa, mla };
BOOST_DESCRIBE_ENUM(AttentionKind, mha, gqa, mqa, mla)

inline constexpr std::string_view name(AttentionKind k) { return detail::enum_name(k); }

// Normalization layers: LayerNorm has a scale and a bias (2 * hidden), RMSNorm a scale only.
enum class NormKind { layernorm, rmsnorm };
BOOST_DESCRIBE_ENUM(NormKind, layernorm, rmsnorm)

// Mixture-of-experts part of a model (absent for dense models).
struct MoeShape {
  int experts = 0;             // routed experts per MoE layer
  int experts_per_token = 0;   // top-k
  int shared_experts = 0;      // always-active experts
  std::int64_t moe_ffn_hidden = 0;  // FFN width of one expert
  int first_dense_layers = 0;  // leading layers that are dense (DeepSeek-V3: 3)
  // Group-limited routing: the routed experts form `expert_groups` equal groups and each token's
  // top-k come from at most `groups_per_token` of them (DeepSeek-V3 "node-limited routing", at most 4
  // nodes per token: DeepSeek-AI 2024, §2.1.2 and §3.2.2; its config.json n_group 8, topk_group 4).
  // 0 and 0: any k of the experts.
  int expert_groups = 0;
  int groups_per_token = 0;
};

// Multi-head latent attention (DeepSeek-V2/V3) dimensions.
struct MlaShape {
  int q_lora_rank = 0;         // 0: queries are not compressed (DeepSeek-V2-Lite)
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;
};

// Sliding-window (local) attention: in a windowed layer each query attends to the last `tokens` keys,
// itself included, instead of the whole context (Beltagy et al. 2020, Longformer §3.1; Mistral 7B,
// Jiang et al. 2023, §2: W = 4096). Models interleave windowed and global layers: every
// `global_every`-th layer attends globally, counted from 1, the others are windowed, as the Hugging
// Face configs place them: Gemma 2 and gpt-oss alternate (2: layer 0 windowed, layer 1 global),
// Gemma 3 has 5 windowed layers per global one (6). global_every 0: every layer is windowed.
struct SlidingWindow {
  std::int64_t tokens = 0;
  int global_every = 0;
};

struct TransformerShape {
  std::string name;
  int layers = 0;
  std::int64_t hidden = 0;
  int heads = 0;
  int kv_heads = 0;            // = heads for MHA; fewer for GQA; 1 for MQA (0: = heads)
  int head_dim = 0;            // usually hidden / heads (0: = hidden / heads)
  std::int64_t ffn_hidden = 0; // dense FFN width (4 * hidden classic; ~8/3 * hidden gated) (0: = 4 * hidden)
  bool gated_mlp = false;      // SwiGLU/GeGLU: three FFN matrices
  std::int64_t vocab = 0;
  bool tied_embeddings = false;
  bool encoder = false;        // bidirectional attention (BERT)
  std::int64_t seq_len = 2048; // training / default context length
  std::optional<MoeShape> moe;
  std::optional<MlaShape> mla;
  std::optional<SlidingWindow> window;    // sliding-window layers (absent: every layer attends globally)
  std::optional<double> params_override;  // published count, if the user fixes it

  // Details that only change the parameter count by a little, so that derived counts match
  // published ones exactly (GPT-3, OPT, BLOOM, GPT-NeoX, BERT: biases, LayerNorm, learned
  // positions; Qwen2: biases on Q, K and V only).
  NormKind norm = NormKind::rmsnorm;
  bool linear_bias = false;              // biases on every linear layer (QKV, output, FFN)
  bool qkv_bias = false;                 // biases on the Q, K, V projections only
  std::int64_t learned_positions = 0;    // rows of a learned position table (0: rotary / ALiBi)
  int token_types = 0;                   // BERT segment embeddings (2)
  bool embedding_norm = false;           // a norm right after the embeddings (BLOOM, BERT)
  bool final_norm = true;                // a norm before the output head (false for post-LN BERT)
  bool pooler = false;                   // BERT pooler: hidden x hidden dense layer

  [[nodiscard]] int effective_kv_heads() const { return kv_heads == 0 ? heads : kv_heads; }
  [[nodiscard]] std::int64_t effective_head_dim() const {
    return head_dim != 0 ? head_dim : (heads > 0 ? hidden / heads : 0);
  }
  [[nodiscard]] std::int64_t effective_ffn_hidden() const { return ffn_hidden != 0 ? ffn_hidden : 4 * hidden; }
  [[nodiscard]] AttentionKind attention_kind() const {
    if (mla) return AttentionKind::mla;
    const int kv = effective_kv_heads();
    if (kv == heads) return AttentionKind::mha;
    return kv == 1 ? AttentionKind::mqa : AttentionKind::gqa;
  }
  // Layers whose FFN is a mixture of experts (0 for a dense model).
  [[nodiscard]] int moe_layers() const { return moe ? layers - moe->first_dense_layers : 0; }
  [[nodiscard]] int dense_layers() const { return layers - moe_layers(); }
  // Whether layer i (0-based) attends through the sliding window.
  [[nodiscard]] bool windowed_layer(int i) const {
    if (!window) return false;
    return window->global_every == 0 || (i + 1) % window->global_every != 0;
  }
  // Windowed layers among layers [first, first + count).
  [[nodiscard]] int windowed_layers(int first, int count) const {
    if (!window || count <= 0) return 0;
    const int n = window->global_every;
    if (n == 0) return count;
    const auto globals_before = [n](int end) { return end / n; };  // global layers among [0, end)
    return count - (globals_before(first + count) - globals_before(first));
  }
  [[nodiscard]] int windowed_layers() const { return windowed_layers(0, layers); }
  // Keys one query at position `context` (1-based: the tokens it sees, itself included) attends to in a
  // windowed layer: min(context, W).
  [[nodiscard]] std::int64_t window_span(std::int64_t context) const {
    return window && window->tokens < context ? window->tokens : context;
  }

  // Throws InputError naming the first bad field and its value.
  void validate() const;
  // A validated copy with kv_heads, head_dim and ffn_hidden filled in.
  [[nodiscard]] TransformerShape resolved() const {
    validate();
    TransformerShape s = *this;
    s.kv_heads = effective_kv_heads();
    s.head_dim = static_cast<int>(effective_head_dim());
    s.ffn_hidden = effective_ffn_hidden();
    return s;
  }
};

namespace detail {
template <class Int>
[[noreturn]] void fail_int(std::string_view field, Int v, std::string_view problem) {
  fail(field, std::to_string(v), problem);
}
}  // namespace detail

// A mixture-of-experts part: InputError naming the field when it is not a routing a model can have
// (`layers`: the model's, for first_dense_layers).
inline void validate_moe(const MoeShape& m, std::int64_t layers) {
  using detail::fail_int;
  if (m.experts <= 0) fail_int("experts", m.experts, "must be a positive number of experts");
  if (m.experts_per_token <= 0 || m.experts_per_token > m.experts) {
    fail_int("experts_per_token", m.experts_per_token,
             "must be between 1 and experts (" + std::to_string(m.experts) + ")");
  }
  if (m.shared_experts < 0) fail_int("shared_experts", m.shared_experts, "is negative");
  if (m.moe_ffn_hidden <= 0) fail_int("moe_ffn_hidden", m.moe_ffn_hidden, "must be a positive width");
  if (m.first_dense_layers < 0 || m.first_dense_layers > layers) {
    fail_int("first_dense_layers", m.first_dense_layers,
             "must be between 0 and layers (" + std::to_string(layers) + ")");
  }
  if (m.expert_groups < 0 || (m.expert_groups > 0 && m.experts % m.expert_groups != 0))
    fail_int("expert_groups", m.expert_groups, "must divide the " + std::to_string(m.experts) + " experts (0: no groups)");
  if (m.groups_per_token < 0 || m.groups_per_token > m.expert_groups || (m.expert_groups > 0 && m.groups_per_token == 0))
    fail_int("groups_per_token", m.groups_per_token,
             "must be between 1 and expert_groups (" + std::to_string(m.expert_groups) + "), or 0 with no groups");
  if (m.expert_groups > 0 && m.experts_per_token > static_cast<std::int64_t>(m.groups_per_token) * (m.experts / m.expert_groups))
    fail_int("experts_per_token", m.experts_per_token,
             "is more than the " + std::to_string(m.groups_per_token * (m.experts / m.expert_groups)) + " experts in groups_per_token (" +
                 std::to_string(m.groups_per_token) + ") groups of " + std::to_string(m.experts / m.expert_groups));
}

inline void TransformerShape::validate() const {
  using detail::fail_int;
  if (layers <= 0) fail_int("layers", layers, "must be a positive number of layers");
  if (hidden <= 0) fail_int("hidden", hidden, "must be a positive width");
  if (heads <= 0) fail_int("heads", heads, "must be a positive number of attention heads");
  if (kv_heads < 0) fail_int("kv_heads", kv_heads, "is negative");
  if (kv_heads > heads) {
    fail_int("kv_heads", kv_heads, "exceeds heads (" + std::to_string(heads) + ")");
  }
  if (kv_heads > 0 && heads % kv_heads != 0) {
    fail_int("kv_heads", kv_heads, "does not divide heads (" + std::to_string(heads) + ")");
  }
  if (head_dim < 0) fail_int("head_dim", head_dim, "is negative");
  if (head_dim == 0 && !mla && hidden % heads != 0) {
    fail_int("heads", heads,
             "does not divide hidden (" + std::to_string(hidden) + "); give head_dim explicitly");
  }
  if (ffn_hidden < 0) fail_int("ffn_hidden", ffn_hidden, "is negative");
  if (vocab <= 0) fail_int("vocab", vocab, "must be a positive vocabulary size");
  if (seq_len <= 0) fail_int("seq_len", seq_len, "must be a positive number of tokens");
  if (learned_positions < 0) fail_int("learned_positions", learned_positions, "is negative");
  if (token_types < 0) fail_int("token_types", token_types, "is negative");
  if (moe) validate_moe(*moe, layers);
  if (mla) {
    const MlaShape& a = *mla;
    if (a.q_lora_rank < 0) fail_int("q_lora_rank", a.q_lora_rank, "is negative");
    if (a.kv_lora_rank <= 0) fail_int("kv_lora_rank", a.kv_lora_rank, "must be positive");
    if (a.qk_nope_head_dim <= 0) fail_int("qk_nope_head_dim", a.qk_nope_head_dim, "must be positive");
    if (a.qk_rope_head_dim < 0) fail_int("qk_rope_head_dim", a.qk_rope_head_dim, "is negative");
    if (a.v_head_dim <= 0) fail_int("v_head_dim", a.v_head_dim, "must be positive");
  }
  if (window) {
    if (window->tokens <= 0) fail_int("sliding_window", window->tokens, "must be a positive number of tokens");
    if (window->global_every < 0 || window->global_every == 1) {
      fail_int("global_every", window->global_every,
               "must be 0 (every layer windowed) or at least 2 (every n-th layer global; 1 would be no window)");
    }
    if (encoder) detail::fail("sliding_window", std::to_string(window->tokens), "is modelled for causal decoders only, not an encoder");
    if (mla) detail::fail("sliding_window", std::to_string(window->tokens), "with multi-head latent attention is not modelled");
  }
  if (params_override) {
    const double p = *params_override;
    if (!std::isfinite(p) || !(p > 0)) {
      detail::fail("params", detail::format_double(p), "must be a positive, finite parameter count");
    }
  }
}

// KV heads one tensor-parallel rank holds: ceil(kv_heads / tp), and at least one. When tp exceeds the
// KV heads (GQA/MQA), the heads are replicated rather than split: each rank keeps a whole head for
// its query heads (Megatron-LM and vLLM do this). Used alike by the KV-cache memory, the decode time
// and the training attention kernels.
inline std::int64_t kv_heads_per_rank(std::int64_t kv_heads, std::int64_t tp) {
  if (tp <= 1 || kv_heads <= 1) return kv_heads < 1 ? 1 : kv_heads;
  return kv_heads >= tp ? (kv_heads + tp - 1) / tp : 1;
}

// The vocabulary as a framework pads it: Megatron-LM rounds it up to a multiple of
// make_vocab_size_divisible_by x tp (megatron/training/tokenizer: _vocab_size_with_padding; the flag
// --make-vocab-size-divisible-by defaults to 128), so the vocabulary-parallel embedding and output
// layer split evenly: GPT-2's 50,257 tokens become 50,304 at tp 1 and 51,200 at tp 8 (the V = 51,200 of
// Narayanan et al. 2021, §5.1). `multiple` 1 pads to tp only (an even split, what any vocabulary-
// parallel layer needs); 0 (inference) pads nothing. Never below `vocab`.
inline std::int64_t padded_vocab(std::int64_t vocab, std::int64_t tp, std::int64_t multiple) {
  if (multiple <= 0 || vocab <= 0) return vocab;
  const std::int64_t step = multiple * std::max<std::int64_t>(tp, 1);
  return (vocab + step - 1) / step * step;
}

// All-to-all context parallelism (DeepSpeed-Ulysses, Jacobs et al. 2023, §3) hands each of the cp
// ranks whole attention heads: the query heads of a tensor-parallel rank must split over cp. K/V
// heads fewer than cp are replicated up to cp (one per rank), as Megatron-Core's a2a does for GQA,
// so their count per rank must divide cp or be divisible by it. InputError naming `field` otherwise.
// True when all-to-all context parallelism (Ulysses) can split these heads over cp ranks: whole
// query heads per rank, and the K/V heads per tensor-parallel rank and cp dividing one another.
inline bool ulysses_divides(std::int64_t heads, std::int64_t kv_heads, std::int64_t tp, std::int64_t cp) {
  if (cp <= 1) return true;
  const std::int64_t q = tp > 0 ? heads / tp : heads, kv = kv_heads_per_rank(kv_heads, tp);
  return q % cp == 0 && (kv % cp == 0 || cp % kv == 0);
}

inline void validate_ulysses(std::int64_t heads, std::int64_t kv_heads, std::int64_t tp, std::int64_t cp, const std::string& field = "cp") {
  if (ulysses_divides(heads, kv_heads, tp, cp)) return;
  const std::int64_t q = tp > 0 ? heads / tp : heads, kv = kv_heads_per_rank(kv_heads, tp);
  if (q % cp != 0) {
    detail::fail(field, std::to_string(cp), "does not divide the " + std::to_string(q) + " attention heads per tensor-parallel rank (" +
                                               std::to_string(heads) + " heads / tp " + std::to_string(tp) +
                                               "); all-to-all context parallelism (a2a) hands each rank whole heads");
  }
  if (kv % cp != 0 && cp % kv != 0) {
    detail::fail(field, std::to_string(cp), "and the " + std::to_string(kv) + " K/V heads per tensor-parallel rank do not divide one another; all-to-all context parallelism (a2a) needs one to divide the other");
  }
}

// K/V heads one rank holds inside a Ulysses all-to-all: its tensor-parallel share split over cp, at
// least one (replicated when fewer than cp).
inline std::int64_t ulysses_kv_heads(std::int64_t kv_heads, std::int64_t tp, std::int64_t cp) {
  const std::int64_t kv = kv_heads_per_rank(kv_heads, tp);
  return kv >= cp ? kv / cp : 1;
}

}  // namespace capplan
