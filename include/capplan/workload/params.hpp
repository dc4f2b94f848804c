// Parameter counts derived from a TransformerShape, exact (Count), split by part of the model.
//
//   auto p = capplan::parameter_breakdown(shape);   p.total(), p.active, p.attention, ...
//   capplan::parameter_count(shape)                 total, or the shape's params_override
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

namespace capplan {

struct ParamBreakdown {
  Count embedding;  // token embeddings, untied output head, position and token-type tables, embedding norm
  Count attention;  // all layers' attention projections (and their biases / MLA norms)
  Count mlp;        // dense FFNs, all experts, shared experts and routers
  Count norms;      // per-layer norms and the final norm
  Count other;      // BERT pooler
  Count active;     // parameters one token passes through (MoE: top-k routed + shared experts)
  Count expert;     // parameters inside routed experts (sharded by expert parallelism)

  [[nodiscard]] Count total() const { return embedding + attention + mlp + norms + other; }
  // Kaplan et al. 2020, §2.1: N excludes the embedding matrices.
  [[nodiscard]] Count non_embedding() const { return total() - embedding; }
};

namespace detail {

inline Count norm_params(const TransformerShape& s, std::int64_t width) {
  return Count(s.norm == NormKind::layernorm ? 2 * width : width);
}

// One layer's attention parameters.
inline Count attention_params_per_layer(const TransformerShape& s) {
  const Count h(s.hidden);
  const Count a(s.heads);
  if (s.mla) {
    const MlaShape& m = *s.mla;
    const Count qk(m.qk_nope_head_dim + m.qk_rope_head_dim);
    Count q = m.q_lora_rank > 0 ? h * m.q_lora_rank + m.q_lora_rank /* q_a_layernorm */ + Count(m.q_lora_rank) * a * qk
                                : h * a * qk;
    Count kv = h * (m.kv_lora_rank + m.qk_rope_head_dim) + m.kv_lora_rank /* kv_a_layernorm */ +
               Count(m.kv_lora_rank) * a * (m.qk_nope_head_dim + m.v_head_dim);
    Count o = a * m.v_head_dim * h;
    return q + kv + o;
  }
  const Count d(s.effective_head_dim());
  const Count k(s.effective_kv_heads());
  Count w = h * a * d + 2 * h * k * d + a * d * h;
  if (s.linear_bias) w += a * d + 2 * k * d + h;
  else if (s.qkv_bias) w += a * d + 2 * k * d;
  return w;
}

// One FFN block of width f (a dense layer or one expert).
inline Count ffn_params(const TransformerShape& s, std::int64_t f) {
  const Count h(s.hidden);
  Count w = (s.gated_mlp ? 3 : 2) * h * f;
  if (s.linear_bias) w += (s.gated_mlp ? 2 * f : f) + s.hidden;
  return w;
}

}  // namespace detail

// Exact parameter count of the shape, part by part (params_override is ignored here).
inline ParamBreakdown parameter_breakdown(const TransformerShape& shape) {
  shape.validate();
  const TransformerShape& s = shape;
  ParamBreakdown p;
  const Count h(s.hidden);
  p.embedding = Count(s.vocab) * h * (s.tied_embeddings ? 1 : 2) + Count(s.learned_positions) * h +
                Count(s.token_types) * h + (s.embedding_norm ? detail::norm_params(s, s.hidden) : Count(0));
  p.attention = detail::attention_params_per_layer(s) * s.layers;
  p.norms = detail::norm_params(s, s.hidden) * 2 * s.layers + (s.final_norm ? detail::norm_params(s, s.hidden) : Count(0));
  p.other = s.pooler ? h * h + h : Count(0);

  const Count dense_ffn = detail::ffn_params(s, s.effective_ffn_hidden());
  p.mlp = dense_ffn * s.dense_layers();
  Count active_mlp = p.mlp;
  if (s.moe) {
    const MoeShape& m = *s.moe;
    const Count expert = detail::ffn_params(s, m.moe_ffn_hidden);
    const Count router = h * m.experts;
    p.expert = expert * m.experts * s.moe_layers();
    p.mlp += (expert * (m.experts + m.shared_experts) + router) * s.moe_layers();
    active_mlp += (expert * (m.experts_per_token + m.shared_experts) + router) * s.moe_layers();
  }
  p.active = p.embedding + p.attention + active_mlp + p.norms + p.other;
  return p;
}

// Total parameters: the shape's params_override if given, else the derived count.
inline Count parameter_count(const TransformerShape& shape) {
  if (shape.params_override) {
    shape.validate();
    return Count(static_cast<long long>(std::llround(*shape.params_override)));
  }
  return parameter_breakdown(shape).total();
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
inline Count matmul_parameters_per_token(const TransformerShape& shape) {
  shape.validate();
  const TransformerShape& s = shape;
  const Count h(s.hidden);
  Count attn(0);
  if (s.mla) {
    attn = detail::attention_params_per_layer(s);
    const MlaShape& m = *s.mla;
    attn -= Count(m.kv_lora_rank) + (m.q_lora_rank > 0 ? Count(m.q_lora_rank) : Count(0));  // norms
  } else {
    const Count d(s.effective_head_dim());
    attn = 2 * h * s.heads * d + 2 * h * s.effective_kv_heads() * d;
  }
  const int mats = s.gated_mlp ? 3 : 2;
  Count mlp = Count(mats) * h * s.effective_ffn_hidden() * s.dense_layers();
  if (s.moe) {
    const MoeShape& m = *s.moe;
    mlp += (Count(mats) * h * m.moe_ffn_hidden * (m.experts_per_token + m.shared_experts) + h * m.experts) *
           s.moe_layers();
  }
  return attn * s.layers + mlp + Count(s.vocab) * h;  // + output head (logits)
}

}  // namespace capplan
