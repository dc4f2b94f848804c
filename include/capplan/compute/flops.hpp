// FLOP counts of training and inference, exact (Count) and as FlopCount quantities.
//
//   training_flops(N, D)                         6 N D                      Kaplan et al. 2020, §2.1
//   forward_flops(shape, batch, seq)             per-layer matmuls + attention scores + logits
//   model_flops_per_iteration(shape, b, s)       3 x forward                (no recomputation)
//   hardware_flops_per_iteration(shape, b, s, r) + the recomputed forward   Korthikanti et al. 2022, §6
//   prefill_flops(shape, batch, prompt)          forward over the prompt (causal)
//   decode_flops_per_token(shape, context)       one new token attending to `context` tokens
//
// Sliding-window layers (TransformerShape::window) attend to at most the window's keys per query.
//
// One multiply-add is 2 FLOP. Matmuls count 2 FLOP per weight per token (Kaplan et al. 2020,
// Table 1); norms, biases, softmax and activations are not counted (they are < 1% for these shapes).
// MoE layers count only the experts a token is routed to (top-k) and the shared experts.
#pragma once

#include "capplan/error.hpp"
#include "capplan/units/count.hpp"
#include "capplan/units/quantity.hpp"
#include "capplan/workload/parallel_plan.hpp"
#include "capplan/workload/params.hpp"
#include "capplan/workload/transformer.hpp"

#include <cstdint>
#include <string>

namespace capplan {

// How attention scores (QK^T and attention-over-V) are counted over a sequence of s tokens.
enum class AttentionCount {
  full,    // s^2 query-key pairs per head: the Megatron / Korthikanti convention (masked work included)
  causal,  // s(s+1)/2 pairs: only the unmasked ones (kernels that skip masked blocks; decoding)
};

namespace detail {

inline std::int64_t require_count(std::int64_t v, std::string_view field) { return require_positive_count(v, field); }

// Query-key pairs per sequence of s tokens.
template <class I>
I attention_pairs(const I& s, AttentionCount c) {
  if (c == AttentionCount::full) return s * s;
  return s * (s + 1) / 2;
}

// Query-key pairs per sequence of s tokens in a sliding-window layer of window w: causal, the band
// w(w+1)/2 + (s - w) w once s > w (each query sees min(i, w) keys; the count NeMo/Megatron-Bridge's
// gpt_oss FLOPs formula uses); full, s x min(s, w) (every query charged a whole window, as the full
// count charges every query the whole sequence). Both equal the dense counts while s <= w.
template <class I>
I window_pairs(const I& s, std::int64_t w, AttentionCount c) {
  if (s <= w) return attention_pairs(s, c);
  const I W(w);
  if (c == AttentionCount::full) return s * W;
  return W * (W + 1) / 2 + (s - W) * W;
}

// Query-key pairs of all layers for one sequence of s tokens: global layers at attention_pairs,
// windowed layers (TransformerShape::window) at window_pairs.
template <class I>
I layer_attention_pairs(const TransformerShape& shape, const I& s, AttentionCount c) {
  const int windowed = shape.windowed_layers();
  I pairs = attention_pairs(s, c) * (shape.layers - windowed);
  if (windowed > 0) pairs += window_pairs(s, shape.window->tokens, c) * windowed;
  return pairs;
}

// Sum over contexts c = p + 1 ... p + n of the keys one decoded token attends to in a windowed layer,
// min(c, w), in closed form.
template <class I>
I window_context_sum(std::int64_t p, std::int64_t n, std::int64_t w) {
  const I P = static_cast<I>(p), N = static_cast<I>(n), W = static_cast<I>(w);
  if (p + n <= w) return N * P + N * (N + 1) / 2;
  if (p + 1 > w) return N * W;
  return W * (W + 1) / 2 - P * (P + 1) / 2 + (P + N - W) * W;
}

// FLOPs per query-key pair per layer: QK^T (2 * heads * d_qk) and attention over V (2 * heads * d_v).
template <class I>
I attention_flops_per_pair(const TransformerShape& s) {
  if (s.mla) {
    const MlaShape& m = *s.mla;
    return I(2) * s.heads * (m.qk_nope_head_dim + m.qk_rope_head_dim) + I(2) * s.heads * m.v_head_dim;
  }
  return I(4) * s.heads * s.effective_head_dim();
}

// Matmul weights per token in the layers (without the output head).
template <class I>
I layer_matmul_params(const TransformerShape& s) {
  return basic_matmul_parameters_per_token<I>(s) - I(s.vocab) * s.hidden;
}

}  // namespace detail

// Training compute C = 6 N D: 2 N FLOP per token forward, 4 N backward (Kaplan et al. 2020, §2.1).
inline Count training_flops(const Count& params, const Count& tokens) {
  if (params <= 0) detail::fail("params", params.str(), "must be a positive parameter count");
  if (tokens <= 0) detail::fail("tokens", tokens.str(), "must be a positive token count");
  return 6 * params * tokens;
}

// 6 N D with N = the shape's active parameters (MoE: top-k + shared experts; Kaplan et al. 2020, §2.1).
inline Count training_flops(const TransformerShape& shape, const Count& tokens) {
  return training_flops(active_parameter_count(shape), tokens);
}

// The parts of one forward pass over `batch` sequences of `seq` tokens.
template <class I>
struct BasicForwardFlops {
  I layers_matmul{};     // QKV, output projection and FFN matmuls in all layers
  I layers_attention{};  // QK^T and attention over V in all layers
  I logits{};            // output head: 2 * tokens * hidden * vocab
  [[nodiscard]] I total() const { return layers_matmul + layers_attention + logits; }
};
using ForwardFlops = BasicForwardFlops<Count>;

// One forward pass: 2 x (matmul weights) per token, plus attention scores, plus logits.
// GPT with h, a heads, f = 4h: per layer 24 b s h^2 + 4 b s^2 h, logits 2 b s h V (Narayanan et al.
// 2021, §5.1, Appendix; Korthikanti et al. 2022, §6).
// In the integer type I (Count128 overflows, std::overflow_error, only for absurd inputs).
template <class I>
BasicForwardFlops<I> basic_forward_flops(const TransformerShape& shape, std::int64_t batch, std::int64_t seq,
                                         AttentionCount count = AttentionCount::full) {
  shape.validate();
  const I b(detail::require_count(batch, "batch"));
  const I s(detail::require_count(seq, "seq_len"));
  BasicForwardFlops<I> f;
  f.layers_matmul = 2 * detail::layer_matmul_params<I>(shape) * b * s;
  f.layers_attention = detail::attention_flops_per_pair<I>(shape) * detail::layer_attention_pairs<I>(shape, s, count) * b;
  f.logits = 2 * b * s * shape.hidden * shape.vocab;
  return f;
}
inline ForwardFlops forward_flops(const TransformerShape& shape, std::int64_t batch, std::int64_t seq,
                                  AttentionCount count = AttentionCount::full) {
  return basic_forward_flops<Count>(shape, batch, seq, count);
}

// Model FLOPs of one training iteration: forward + backward (2 x forward) = 3 x forward
// (Korthikanti et al. 2022, §6: 72 B s l h^2 (1 + s/(6h) + V/(12 l h)) for GPT).
inline Count model_flops_per_iteration(const TransformerShape& shape, std::int64_t batch, std::int64_t seq,
                                       AttentionCount count = AttentionCount::full) {
  return 3 * forward_flops(shape, batch, seq, count).total();
}

// The same count as a double for estimates: exact in Count128 (Count should it overflow), rounded once.
inline double model_flops_value(const TransformerShape& shape, std::int64_t batch, std::int64_t seq,
                                AttentionCount count = AttentionCount::full) {
  return exact_value([&]<class I>() { return I(3 * basic_forward_flops<I>(shape, batch, seq, count).total()); });
}

// Hardware FLOPs of one iteration: model FLOPs plus what recomputation runs again. Full recompute
// repeats every layer's forward (not the logits): 96 B s l h^2 (1 + s/(6h) + V/(16 l h)) for GPT
// (Narayanan et al. 2021, §5.1, eq. 3). Selective recompute repeats only the attention-score part
// (QK^T, softmax, attention over V; Korthikanti et al. 2022, §5), 4 b s^2 h per GPT layer, which
// gives 72 B s l h^2 (1 + 2s/(9h) + V/(12 l h)) (derived from the two counts above).
inline Count hardware_flops_per_iteration(const TransformerShape& shape, std::int64_t batch, std::int64_t seq,
                                          Recompute recompute, AttentionCount count = AttentionCount::full) {
  const ForwardFlops f = forward_flops(shape, batch, seq, count);
  Count total = 3 * f.total();
  switch (recompute) {
    case Recompute::none: break;
    case Recompute::selective: total += f.layers_attention; break;
    case Recompute::full: total += f.layers_matmul + f.layers_attention; break;
  }
  return total;
}

// The closed form of Narayanan et al. 2021, §5.1, eq. (3): FLOPs per iteration of a GPT model with
// full activation recomputation, F = 96 B s l h^2 (1 + s/(6h) + V/(16 l h)); exact in integers as
// 96 B s l h^2 + 16 B s^2 l h + 6 B s h V.
inline Count megatron_flops_per_iteration(std::int64_t batch, std::int64_t seq, std::int64_t layers,
                                          std::int64_t hidden, std::int64_t vocab) {
  const Count B(detail::require_count(batch, "batch"));
  const Count s(detail::require_count(seq, "seq_len"));
  const Count l(detail::require_count(layers, "layers"));
  const Count h(detail::require_count(hidden, "hidden"));
  const Count V(detail::require_count(vocab, "vocab"));
  return 96 * B * s * l * h * h + 16 * B * s * s * l * h + 6 * B * s * h * V;
}

// Prefill: one forward pass over `prompt` tokens of each of `batch` sequences, counting only the
// unmasked query-key pairs (causal) unless asked otherwise; encoders attend both ways (full).
inline Count prefill_flops(const TransformerShape& shape, std::int64_t batch, std::int64_t prompt) {
  return forward_flops(shape, batch, prompt, shape.encoder ? AttentionCount::full : AttentionCount::causal).total();
}

// Decoding one new token whose attention reads `context` cached tokens (itself included):
// 2 x (active matmul weights) + context x (QK^T + AV FLOPs per pair) x layers; a windowed layer reads
// min(context, window) tokens.
inline Count decode_flops_per_token(const TransformerShape& shape, std::int64_t context) {
  shape.validate();
  const Count c(detail::require_count(context, "context"));
  const int windowed = shape.windowed_layers();
  const Count keys = c * (shape.layers - windowed) + Count(shape.window_span(context)) * windowed;
  return 2 * matmul_parameters_per_token(shape) + detail::attention_flops_per_pair<Count>(shape) * keys;
}

// Decoding `new_tokens` after a prompt of `prompt` tokens: the sum of decode_flops_per_token over
// contexts prompt + 1 ... prompt + new_tokens, in closed form.
inline Count generation_flops(const TransformerShape& shape, std::int64_t prompt, std::int64_t new_tokens) {
  shape.validate();
  if (prompt < 0) detail::fail("prompt", std::to_string(prompt), "is negative");
  const Count n(detail::require_count(new_tokens, "new_tokens"));
  const Count p(prompt);
  const Count context_sum = n * p + n * (n + 1) / 2;
  const int windowed = shape.windowed_layers();
  Count keys = context_sum * (shape.layers - windowed);
  if (windowed > 0) keys += detail::window_context_sum<Count>(prompt, new_tokens, shape.window->tokens) * windowed;
  return 2 * matmul_parameters_per_token(shape) * n + detail::attention_flops_per_pair<Count>(shape) * keys;
}

// FlopCount of an exact count, for time estimates.
inline FlopCount as_flops(const Count& c) { return to_flop_count(c); }

}  // namespace capplan
