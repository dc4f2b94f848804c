// TransformerShape: the shape of a decoder (or encoder) transformer, from which parameter
// counts, FLOPs and memory are derived.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace capplan {

enum class AttentionKind { mha, gqa, mqa, mla };

// Mixture-of-experts part of a model (absent for dense models).
struct MoeShape {
  int experts = 0;             // routed experts per MoE layer
  int experts_per_token = 0;   // top-k
  int shared_experts = 0;      // always-active experts
  std::int64_t moe_ffn_hidden = 0;  // FFN width of one expert
  int first_dense_layers = 0;  // leading layers that are dense (DeepSeek-V3: 3)
};

// Multi-head latent attention (DeepSeek-V2/V3) dimensions.
struct MlaShape {
  int q_lora_rank = 0;
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;
};

struct TransformerShape {
  std::string name;
  int layers = 0;
  std::int64_t hidden = 0;
  int heads = 0;
  int kv_heads = 0;            // = heads for MHA; fewer for GQA; 1 for MQA
  int head_dim = 0;            // usually hidden / heads
  std::int64_t ffn_hidden = 0; // dense FFN width (4 * hidden classic; ~8/3 * hidden gated)
  bool gated_mlp = false;      // SwiGLU/GeGLU: three FFN matrices
  std::int64_t vocab = 0;
  bool tied_embeddings = false;
  bool encoder = false;        // bidirectional attention (BERT)
  std::int64_t seq_len = 2048; // training / default context length
  std::optional<MoeShape> moe;
  std::optional<MlaShape> mla;
  std::optional<double> params_override;  // published count, if the user fixes it
};

}  // namespace capplan
