// Parameter counts derived from a TransformerShape, exact (Count), split by part of the model.
//
//   auto p = capplan::parameter_breakdown(shape);   p.total(), p.active, p.attention, ...
//   capplan::parameter_count(shape)                 total, or the shape's params_override
//   capplan::parameter_sizes(shape)                 the breakdown as doubles for estimates (counted
//                                                   in checked 128-bit integers, rounded once)
//   capplan::basic_parameter_breakdown<I>(shape)    in any integer type I (Count, Count128)
//
// Per layer (h = hidden, a = heads, k = kv_heads, d = head_dim, f = ffn_hidden):
//   attention  h*a*d (Q) + 2*h*k*d (K, V) + a*d*h (output)           (GQA: Ainslie et al. 2023, §2)
//   MLA        h*q_r + q_r*a*(d_nope+d_rope) + h*(kv_r+d_rope) + kv_r*a*(d_nope+d_v) + a*d_v*h
//              (+ the q_r and kv_r RMSNorms)                          (DeepSeek-V2 paper, §2.1.2, eqs. 9-19)
//   dense FFN  2*h*f, gated (SwiGLU) 3*h*f                            (Shazeer 2020, eq. 6)
//   MoE FFN    (experts + shared) * 3*h*f_e + h*experts (router)      (DeepSeek-V3 paper, §2.1.2, eq. 12)
// The classic GPT layer (k = a, d*a = h, f = 4h, biases, LayerNorm) is 12*h^2 + 13*h
// (Narayanan et al. 2021, §5.1 counts 12*l*h^2 for the layers).
#pragma once

#include "capplan/units/count.hpp"
#include "capplan/workload/transformer.hpp"

#include <cmath>
#include <stdexcept>

namespace capplan {

// The parts, in an integer type I (Count: unbounded; Count128: fixed width, for hot paths) or, for
// estimates, as doubles (ParamSizes).
template <class I>
struct BasicParamBreakdown {
  I embedding{};  // token embeddings, untied output head, position and token-type tables, embedding norm
  I attention{};  // all layers' attention projections (and their biases / MLA norms)
  I mlp{};        // dense FFNs, all experts, shared experts and routers
  I norms{};      // per-layer norms and the final norm
  I other{};      // BERT pooler
  I active{};     // parameters one token passes through (MoE: top-k routed + shared experts)
  I expert{};     // parameters inside routed experts (sharded by expert parallelism)

  [[nodiscard]] I total() const { return embedding + attention + mlp + norms + other; }
  // Kaplan et al. 2020, §2.1: N excludes the embedding matrices.
  [[nodiscard]] I non_embedding() const { return total() - embedding; }

  // Every part converted to J (from exact integers to doubles: each part rounded once).
  template <class J>
  [[nodiscard]] BasicParamBreakdown<J> as() const {
    return {static_cast<J>(embedding), static_cast<J>(attention), static_cast<J>(mlp), static_cast<J>(norms),
            static_cast<J>(other),     static_cast<J>(active),    static_cast<J>(expert)};
  }
};

using ParamBreakdown = BasicParamBreakdown<Count>;  // exact
using ParamSizes = BasicParamBreakdown<double>;     // exact counts rounded to double, for estimates

namespace detail {

template <class I>
I norm_params(const TransformerShape& s, std::int64_t width) {
  return I(s.norm == NormKind::layernorm ? 2 * width : width);
}

// One layer's attention parameters.
template <class I>
I attention_params_per_layer(const TransformerShape& s) {
  const I h(s.hidden);
  const I a(s.heads);
  if (s.mla) {
    const MlaShape& m = *s.mla;
    const I qk(m.qk_nope_head_dim + m.qk_rope_head_dim);
    const I q = m.q_lora_rank > 0 ? I(h * m.q_lora_rank + m.q_lora_rank /* q_a_layernorm */ + I(m.q_lora_rank) * a * qk)
                                  : I(h * a * qk);
    const I kv = h * (m.kv_lora_rank + m.qk_rope_head_dim) + m.kv_lora_rank /* kv_a_layernorm */ +
                 I(m.kv_lora_rank) * a * (m.qk_nope_head_dim + m.v_head_dim);
    const I o = a * m.v_head_dim * h;
    return q + kv + o;
  }
  const I d(s.effective_head_dim());
  const I k(s.effective_kv_heads());
  I w = h * a * d + 2 * h * k * d + a * d * h;
  if (s.linear_bias) w += a * d + 2 * k * d + h;
  else if (s.qkv_bias) w += a * d + 2 * k * d;
  return w;
}

// One FFN block of width f (a dense layer or one expert).
template <class I>
I ffn_params(const TransformerShape& s, std::int64_t f) {
  const I h(s.hidden);
  I w = (s.gated_mlp ? 3 : 2) * h * f;
  if (s.linear_bias) w += (s.gated_mlp ? 2 * f : f) + s.hidden;
  return w;
}

}  // namespace detail

// Exact parameter count of the shape, part by part, in the integer type I (params_override is
// ignored here). Count128 overflows (std::overflow_error) only for absurd shapes.
template <class I>
BasicParamBreakdown<I> basic_parameter_breakdown(const TransformerShape& shape) {
  shape.validate();
  const TransformerShape& s = shape;
  BasicParamBreakdown<I> p;
  const I h(s.hidden);
  p.embedding = I(s.vocab) * h * (s.tied_embeddings ? 1 : 2) + I(s.learned_positions) * h + I(s.token_types) * h +
                (s.embedding_norm ? detail::norm_params<I>(s, s.hidden) : I(0));
  p.attention = detail::attention_params_per_layer<I>(s) * s.layers;
  p.norms = detail::norm_params<I>(s, s.hidden) * 2 * s.layers + (s.final_norm ? detail::norm_params<I>(s, s.hidden) : I(0));
  p.other = s.pooler ? I(h * h + h) : I(0);

  const I dense_ffn = detail::ffn_params<I>(s, s.effective_ffn_hidden());
  p.mlp = dense_ffn * s.dense_layers();
  I active_mlp = p.mlp;
  if (s.moe) {
    const MoeShape& m = *s.moe;
    const I expert = detail::ffn_params<I>(s, m.moe_ffn_hidden);
    const I router = h * m.experts;
    p.expert = expert * m.experts * s.moe_layers();
    p.mlp += (expert * (m.experts + m.shared_experts) + router) * s.moe_layers();
    active_mlp += (expert * (m.experts_per_token + m.shared_experts) + router) * s.moe_layers();
  }
  p.active = p.embedding + p.attention + active_mlp + p.norms + p.other;
  return p;
}

// Exact parameter count of the shape, part by part (params_override is ignored here).
inline ParamBreakdown parameter_breakdown(const TransformerShape& shape) { return basic_parameter_breakdown<Count>(shape); }

// The same parts as doubles for estimates: counted exactly in Count128 (Count should it overflow),
// then each part rounded once. Several times faster than parameter_breakdown (no allocation).
inline ParamSizes parameter_sizes(const TransformerShape& shape) {
  try {
    return basic_parameter_breakdown<Count128>(shape).as<double>();
  } catch (const std::overflow_error&) {
    return parameter_breakdown(shape).as<double>();
  }
}

// Total parameters: the shape's params_override if given, else the derived count.
inline Count parameter_count(const TransformerShape& shape) {
  if (shape.params_override) {
    shape.validate();
    return Count(static_cast<long long>(std::llround(*shape.params_override)));
  }
  return parameter_breakdown(shape).total();
}

// parameter_count(shape) as a double, from the shape's sizes (parameter_sizes) when already worked out.
inline double parameter_total(const TransformerShape& shape, const ParamSizes& sizes) {
  if (shape.params_override) return static_cast<double>(parameter_count(shape));
  return sizes.total();
}
inline double parameter_total(const TransformerShape& shape) {
  if (shape.params_override) return static_cast<double>(parameter_count(shape));
  return parameter_sizes(shape).total();
}

// Parameters one token passes through. For a dense model this is parameter_count(); for MoE the
// derived active count (scaled by params_override / derived total when an override is given).
inline Count active_parameter_count(const TransformerShape& shape) {
  const ParamBreakdown p = parameter_breakdown(shape);
  if (!shape.params_override) return p.active;
  if (!shape.moe) return parameter_count(shape);
  const double scale = *shape.params_override / static_cast<double>(p.total());
  return Count(static_cast<long long>(std::llround(static_cast<double>(p.active) * scale)));
}

// Parameters of the matrices a token is multiplied by (the 2-FLOPs-per-parameter part of a
// forward pass): attention and FFN weights of the active experts, and the output head; no
// embeddings lookups, norms or biases. Kaplan et al. 2020, Table 1: C_forward ~ 2 N.
template <class I>
I basic_matmul_parameters_per_token(const TransformerShape& shape) {
  shape.validate();
  const TransformerShape& s = shape;
  const I h(s.hidden);
  I attn(0);
  if (s.mla) {
    attn = detail::attention_params_per_layer<I>(s);
    const MlaShape& m = *s.mla;
    attn -= I(m.kv_lora_rank) + (m.q_lora_rank > 0 ? I(m.q_lora_rank) : I(0));  // norms
  } else {
    const I d(s.effective_head_dim());
    attn = 2 * h * s.heads * d + 2 * h * s.effective_kv_heads() * d;
  }
  const int mats = s.gated_mlp ? 3 : 2;
  I mlp = I(mats) * h * s.effective_ffn_hidden() * s.dense_layers();
  if (s.moe) {
    const MoeShape& m = *s.moe;
    mlp += (I(mats) * h * m.moe_ffn_hidden * (m.experts_per_token + m.shared_experts) + h * m.experts) * s.moe_layers();
  }
  return attn * s.layers + mlp + I(s.vocab) * h;  // + output head (logits)
}
inline Count matmul_parameters_per_token(const TransformerShape& shape) { return basic_matmul_parameters_per_token<Count>(shape); }

}  // namespace capplan
