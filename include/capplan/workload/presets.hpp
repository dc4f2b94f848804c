// Built-in model presets, each copied from its published configuration (Hugging Face config.json or
// the paper's architecture table), with the source and the published parameter count beside it.
//
//   const capplan::ModelPreset& m = capplan::find_model("llama3.1-70b");
//   m.transformer().hidden == 8192;  capplan::parameter_count(m.transformer()) == 70'553'706'496
//   capplan::find_model("llama3-7b")  -> LookupError listing the closest ids
//
// Ids are lower case with dashes. The parameter counts in `published_params` are the figures the
// cited source states (exact where the source gives every digit, else as rounded there); the
// workload tests check the derived counts against them.
#pragma once

#include "capplan/detail/text.hpp"
#include "capplan/error.hpp"
#include "capplan/workload/generic.hpp"
#include "capplan/workload/transformer.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace capplan {

struct ModelPreset {
  std::string id;
  std::variant<TransformerShape, GenericModel> model;
  double published_params = 0;  // as the source states it
  std::string source;           // where the shape and the count come from
  // Sequence length of the bulk of pre-training, when it is shorter than the context the model
  // serves (seq_len): Llama 3.1 pre-trained on 8,192-token sequences, then extended to 131,072.
  // 0: the same as seq_len. Training estimates default to it (training_seq_len()).
  std::int64_t pretrain_seq_len = 0;
  std::string pretrain_source;  // where pretrain_seq_len comes from
  // The format the weights are released in, where it is not bf16: a format name of
  // memory/formats.hpp for the linear layers ("fp8": DeepSeek-V3), and for the routed experts
  // where they differ ("mxfp4": gpt-oss); the embedding and output head as checkpoint_ends says.
  // Serving defaults to it. Empty: bf16.
  std::string released_weights{};
  std::string released_expert_weights{};
  std::string released_source{};  // where the released format is stated

  // The default training sequence length: pretrain_seq_len, else the shape's seq_len (0 for a generic model).
  [[nodiscard]] std::int64_t training_seq_len() const {
    if (pretrain_seq_len > 0) return pretrain_seq_len;
    const auto* t = std::get_if<TransformerShape>(&model);
    return t ? t->seq_len : 0;
  }

  [[nodiscard]] bool is_transformer() const { return std::holds_alternative<TransformerShape>(model); }
  // The transformer shape; InputError if this preset is a generic model (e.g. resnet50).
  [[nodiscard]] const TransformerShape& transformer() const {
    if (const auto* t = std::get_if<TransformerShape>(&model)) return *t;
    detail::fail("model", "\"" + id + "\"", "is not a transformer; use generic()");
  }
  [[nodiscard]] const GenericModel& generic() const {
    if (const auto* g = std::get_if<GenericModel>(&model)) return *g;
    detail::fail("model", "\"" + id + "\"", "is a transformer; use transformer()");
  }
};

namespace detail {

// A pre-LN decoder with RMSNorm, SwiGLU, rotary positions and no biases (Llama, Mistral, Qwen).
inline TransformerShape llama_like(std::string name, int layers, std::int64_t hidden, int heads, int kv_heads,
                                   std::int64_t ffn, std::int64_t vocab, std::int64_t seq_len) {
  TransformerShape s;
  s.name = std::move(name);
  s.layers = layers;
  s.hidden = hidden;
  s.heads = heads;
  s.kv_heads = kv_heads;
  s.head_dim = static_cast<int>(hidden / heads);
  s.ffn_hidden = ffn;
  s.gated_mlp = true;
  s.vocab = vocab;
  s.seq_len = seq_len;
  s.norm = NormKind::rmsnorm;
  return s;
}

// A pre-LN decoder with LayerNorm, biases and a 4h GeLU FFN (GPT-3, OPT, GPT-NeoX, BLOOM).
inline TransformerShape gpt_like(std::string name, int layers, std::int64_t hidden, int heads, std::int64_t vocab,
                                 std::int64_t seq_len, std::int64_t learned_positions, bool tied) {
  TransformerShape s;
  s.name = std::move(name);
  s.layers = layers;
  s.hidden = hidden;
  s.heads = heads;
  s.kv_heads = heads;
  s.head_dim = static_cast<int>(hidden / heads);
  s.ffn_hidden = 4 * hidden;
  s.vocab = vocab;
  s.seq_len = seq_len;
  s.learned_positions = learned_positions;
  s.tied_embeddings = tied;
  s.norm = NormKind::layernorm;
  s.linear_bias = true;
  return s;
}

inline TransformerShape qwen2(std::string name, int layers, std::int64_t hidden, int heads, int kv_heads,
                              std::int64_t ffn, std::int64_t vocab, std::int64_t seq_len) {
  TransformerShape s = llama_like(std::move(name), layers, hidden, heads, kv_heads, ffn, vocab, seq_len);
  s.qkv_bias = true;  // Qwen2 attention: bias on q_proj, k_proj, v_proj only
  return s;
}

inline std::vector<ModelPreset> build() {
  std::vector<ModelPreset> v;
  auto add = [&](std::string id, auto model, double published, std::string source) {
    ModelPreset p;
    p.id = std::move(id);
    p.model = std::move(model);
    p.published_params = published;
    p.source = std::move(source);
    v.push_back(std::move(p));
  };

  // --- GPT-3, OPT, GPT-NeoX, BLOOM --------------------------------------------------------------
  // Brown et al. 2020, Table 2.1: 96 layers, d_model 12288, 96 heads x 128, context 2048; GPT-2 BPE
  // vocabulary of 50,257 (Radford et al. 2019, §2.2); learned positions, tied output. 174.6e9 params:
  // Table D.1.
  add("gpt3-175b", gpt_like("GPT-3 175B", 96, 12288, 96, 50257, 2048, 2048, true), 174.6e9,
      "Brown et al. 2020, Table 2.1 (shape) and Table D.1 (174.6e9 params)");
  // facebook/opt-13b config.json: hidden 5120, 40 layers, 40 heads, ffn_dim 20480, vocab 50272,
  // max_position_embeddings 2048 (+2 offset rows in OPTLearnedPositionalEmbedding), tied.
  {
    TransformerShape s = gpt_like("OPT-13B", 40, 5120, 40, 50272, 2048, 2050, true);
    add("opt-13b", s, 13e9, "huggingface.co/facebook/opt-13b config.json; Zhang et al. 2022, Table 1 (13B)");
  }
  // facebook/opt-175b (Zhang et al. 2022, Table 1): 96 layers, 96 heads, hidden 12288.
  {
    TransformerShape s = gpt_like("OPT-175B", 96, 12288, 96, 50272, 2048, 2050, true);
    add("opt-175b", s, 175e9, "Zhang et al. 2022 (OPT), Table 1; vocabulary and positions as facebook/opt-13b");
  }
  // EleutherAI/gpt-neox-20b config.json: hidden 6144, 44 layers, 64 heads, intermediate 24576,
  // vocab 50432, rotary (no position table), untied. 20,554,567,680 params: Black et al. 2022, Table 1.
  add("gpt-neox-20b", gpt_like("GPT-NeoX-20B", 44, 6144, 64, 50432, 2048, 0, false), 20'554'567'680.0,
      "huggingface.co/EleutherAI/gpt-neox-20b config.json; Black et al. 2022 (20,554,567,680 params)");
  // bigscience/bloom config.json: n_embed 14336, n_layer 70, n_head 112, vocab 250880, ALiBi,
  // LayerNorm after the word embeddings, tied. Model card: 176,247,271,424 params.
  {
    TransformerShape s = gpt_like("BLOOM-176B", 70, 14336, 112, 250880, 2048, 0, true);
    s.embedding_norm = true;
    add("bloom-176b", s, 176'247'271'424.0, "huggingface.co/bigscience/bloom config.json and model card");
  }

  // --- BERT ----------------------------------------------------------------------------------------
  // BERT's layout (google-bert config.json): an encoder of post-LN layers with an embedding
  // LayerNorm, 512 learned positions, 2 token types and a pooler; FFN 4 x hidden.
  const auto bert = [](std::string name, int layers, std::int64_t hidden, int heads, std::int64_t vocab) {
    TransformerShape s = gpt_like(std::move(name), layers, hidden, heads, vocab, 512, 512, true);
    s.encoder = true;
    s.token_types = 2;
    s.embedding_norm = true;
    s.final_norm = false;
    s.pooler = true;
    return s;
  };
  // google-bert/bert-base-cased config.json: hidden 768, 12 layers, 12 heads, intermediate 3072,
  // vocab 28996. 108,310,272 params = 413.18 MiB in fp32 (huggingface/accelerate model_size_estimator.md).
  add("bert-base", bert("BERT-base (cased)", 12, 768, 12, 28996), 108'310'272.0,
      "huggingface.co/google-bert/bert-base-cased config.json; accelerate estimate-memory 413.18 MB fp32");
  // google-bert/bert-large-uncased config.json: hidden 1024, 24 layers, 16 heads, intermediate 4096,
  // vocab 30522. Devlin et al. 2019 (BERT), §3: "BERT-LARGE (L=24, H=1024, A=16, Total
  // Parameters=340M)"; the released weights hold 335,141,888 (the paper rounds up).
  add("bert-large", bert("BERT-large (uncased)", 24, 1024, 16, 30522), 340e6,
      "Devlin et al. 2019 (BERT), §3: 340M; huggingface.co/google-bert/bert-large-uncased config.json");

  // --- Llama 2 --------------------------------------------------------------------------------------
  // meta-llama/Llama-2-{7b,13b,70b}-hf config.json; Touvron et al. 2023 (Llama 2), Table 1.
  add("llama2-7b", llama_like("Llama 2 7B", 32, 4096, 32, 32, 11008, 32000, 4096), 6'738'415'616.0,
      "huggingface.co/meta-llama/Llama-2-7b-hf config.json (6,738,415,616 params in its safetensors)");
  add("llama2-13b", llama_like("Llama 2 13B", 40, 5120, 40, 40, 13824, 32000, 4096), 13'015'864'320.0,
      "huggingface.co/meta-llama/Llama-2-13b-hf config.json (13,015,864,320 params)");
  add("llama2-70b", llama_like("Llama 2 70B", 80, 8192, 64, 8, 28672, 32000, 4096), 68'976'648'192.0,
      "huggingface.co/meta-llama/Llama-2-70b-hf config.json (68,976,648,192 params)");

  // --- Llama 3 / 3.1 / 3.3 -----------------------------------------------------------------------
  // meta-llama/Meta-Llama-3-70B, Llama-3.1-{8B,70B,405B}, Llama-3.3-70B-Instruct config.json;
  // Llama 3 paper (Dubey et al. 2024), Table 3: 405B has 126 layers, 16384 wide, 128 heads, 8 KV heads.
  add("llama3-70b", llama_like("Llama 3 70B", 80, 8192, 64, 8, 28672, 128256, 8192), 70.6e9,
      "huggingface.co/meta-llama/Meta-Llama-3-70B config.json (model card: 70B)");
  // meta-llama/Meta-Llama-3-8B config.json: Llama 3.1 8B's shape with an 8,192-token context.
  add("llama3-8b", llama_like("Llama 3 8B", 32, 4096, 32, 8, 14336, 128256, 8192), 8'030'261'248.0,
      "huggingface.co/meta-llama/Meta-Llama-3-8B config.json (the 3.1 model's shape and 8,030,261,248 params; 8,192-token context)");
  add("llama3.1-8b", llama_like("Llama 3.1 8B", 32, 4096, 32, 8, 14336, 128256, 131072), 8'030'261'248.0,
      "huggingface.co/meta-llama/Llama-3.1-8B config.json (8,030,261,248 params)");
  add("llama3.1-70b", llama_like("Llama 3.1 70B", 80, 8192, 64, 8, 28672, 128256, 131072), 70'553'706'496.0,
      "huggingface.co/meta-llama/Llama-3.1-70B config.json (70,553,706,496 params)");
  add("llama3.1-405b", llama_like("Llama 3.1 405B", 126, 16384, 128, 8, 53248, 128256, 131072), 405e9,
      "huggingface.co/meta-llama/Llama-3.1-405B config.json; Dubey et al. 2024, Table 3 (405B)");
  add("llama3.3-70b", llama_like("Llama 3.3 70B", 80, 8192, 64, 8, 28672, 128256, 131072), 70'553'706'496.0,
      "huggingface.co/meta-llama/Llama-3.3-70B-Instruct config.json (same shape as Llama 3.1 70B)");
  // meta-llama/Llama-3.2-1B and -3B config.json: 16 layers of 2048 (32 heads of 64) and 28 of 3072 (24
  // heads of 128), 8 KV heads, 8192-wide SwiGLU, vocab 128256, tied embeddings, 131,072 positions;
  // 1,235,814,400 and 3,212,749,824 weights in the released checkpoints.
  {
    TransformerShape s = llama_like("Llama 3.2 1B", 16, 2048, 32, 8, 8192, 128256, 131072);
    s.tied_embeddings = true;
    add("llama3.2-1b", s, 1'235'814'400.0, "huggingface.co/meta-llama/Llama-3.2-1B config.json (1,235,814,400 params)");
    s = llama_like("Llama 3.2 3B", 28, 3072, 24, 8, 8192, 128256, 131072);
    s.tied_embeddings = true;
    add("llama3.2-3b", s, 3'212'749'824.0, "huggingface.co/meta-llama/Llama-3.2-3B config.json (3,212,749,824 params)");
  }

  // --- Mistral / Mixtral --------------------------------------------------------------------------
  // mistralai/Mistral-7B-v0.1 config.json: 32 layers, 4096, 32 heads, 8 KV heads, 14336, vocab 32000,
  // sliding_window 4096 in every layer (Jiang et al. 2023, §2 and Table 1; v0.2 and later drop it).
  {
    TransformerShape s = llama_like("Mistral 7B", 32, 4096, 32, 8, 14336, 32000, 32768);
    s.window = SlidingWindow{4096, 0};
    add("mistral-7b", s, 7'241'732'096.0, "huggingface.co/mistralai/Mistral-7B-v0.1 config.json (7,241,732,096 params)");
  }
  // mistralai/Mixtral-8x7B-v0.1 config.json: as Mistral 7B with 8 local experts, 2 per token.
  // Jiang et al. 2024 (Mixtral), §2: 47B total, 13B active (46,702,792,704 in the checkpoint).
  {
    TransformerShape s = llama_like("Mixtral 8x7B", 32, 4096, 32, 8, 14336, 32000, 32768);
    s.moe = MoeShape{8, 2, 0, 14336, 0, 0, 0};
    add("mixtral-8x7b", s, 46'702'792'704.0,
        "huggingface.co/mistralai/Mixtral-8x7B-v0.1 config.json; Jiang et al. 2024 (46.7B total, 12.9B active)");
  }

  // --- gpt-oss ------------------------------------------------------------------------------------
  // openai/gpt-oss-120b and -20b config.json: hidden 2880, 64 query heads of 64, 8 KV heads, experts
  // of width 2880 (SwiGLU), 4 per token, vocab 201088, untied, biases on the attention and expert
  // projections (attention_bias; the experts' gate_up/down biases), 131,072 positions (YaRN), and
  // layer_types alternating sliding_attention (window 128) and full_attention, the first windowed.
  // 120b: 36 layers, 128 experts; 20b: 24 layers, 32 experts. OpenAI, gpt-oss-120b & gpt-oss-20b
  // model card (2025), Table 1: 116.83B total / 5.13B active and 20.91B / 3.61B.
  const auto gpt_oss = [](std::string name, int layers, int experts) {
    TransformerShape s = llama_like(std::move(name), layers, 2880, 64, 8, 2880, 201088, 131072);
    s.head_dim = 64;
    s.linear_bias = true;
    s.moe = MoeShape{experts, 4, 0, 2880, 0, 0, 0};
    s.window = SlidingWindow{128, 2};
    return s;
  };
  add("gpt-oss-120b", gpt_oss("gpt-oss-120b", 36, 128), 116.83e9,
      "huggingface.co/openai/gpt-oss-120b config.json; gpt-oss model card (OpenAI 2025), Table 1 (116.83B total, 5.13B active)");
  add("gpt-oss-20b", gpt_oss("gpt-oss-20b", 24, 32), 20.91e9,
      "huggingface.co/openai/gpt-oss-20b config.json; gpt-oss model card (OpenAI 2025), Table 1 (20.91B total, 3.61B active)");

  // --- Gemma 2 and Gemma 3 (text) ------------------------------------------------------------------
  // GeGLU FFN, RMSNorm, tied embeddings. Gemma 2 (Gemma Team 2024, Table 1; google/gemma-2-*
  // config.json): windowed and global layers alternate, window 4096, context 8192, vocab 256000.
  // Gemma 3 (Gemma Team 2025, §2 and Table 1; google/gemma-3-*-it text_config): 5 windowed layers of
  // window 1024 per global layer, 131,072 positions, vocab 262208; the counts are the report's
  // embedding + non-embedding parameters (the 417M SigLIP vision encoder is not counted).
  const auto gemma = [&](std::string name, int layers, std::int64_t hidden, int heads, int kv_heads, int head_dim,
                         std::int64_t ffn, std::int64_t vocab, std::int64_t seq_len, SlidingWindow w) {
    TransformerShape s = llama_like(std::move(name), layers, hidden, heads, kv_heads, ffn, vocab, seq_len);
    s.head_dim = head_dim;
    s.tied_embeddings = true;
    s.window = w;
    return s;
  };
  // The Gemma 2 report's counts embed a 256,128-row table (Table 2: 917,962,752 = 256,128 x 3,584);
  // the released config.json has 256,000 rows, which the shape uses (0.1 % fewer parameters).
  add("gemma2-9b", gemma("Gemma 2 9B", 42, 3584, 16, 8, 256, 14336, 256000, 8192, {4096, 2}), 9'242'164'736.0,
      "huggingface.co/google/gemma-2-9b config.json; Gemma Team 2024 (Gemma 2, arXiv 2408.00118), Table 2: 917,962,752 + 8,324,201,984");
  add("gemma2-27b", gemma("Gemma 2 27B", 46, 4608, 32, 16, 128, 36864, 256000, 8192, {4096, 2}), 27'227'718'144.0,
      "huggingface.co/google/gemma-2-27b config.json; Gemma Team 2024 (Gemma 2, arXiv 2408.00118), Table 2: 1,180,237,824 + 26,047,480,320");
  add("gemma3-12b", gemma("Gemma 3 12B", 48, 3840, 16, 8, 256, 15360, 262208, 131072, {1024, 6}), 1'012e6 + 10'759e6,
      "huggingface.co/google/gemma-3-12b-it config.json (text_config); Gemma Team 2025 (Gemma 3), Table 1: 1,012M embedding + 10,759M");
  add("gemma3-27b", gemma("Gemma 3 27B", 62, 5376, 32, 16, 128, 21504, 262208, 131072, {1024, 6}), 1'416e6 + 25'600e6,
      "huggingface.co/google/gemma-3-27b-it config.json (text_config); Gemma Team 2025 (Gemma 3), Table 1: 1,416M embedding + 25,600M");

  // --- Qwen2.5 ------------------------------------------------------------------------------------
  // Qwen/Qwen2.5-7B config.json: 28 layers, 3584, 28 heads, 4 KV heads, 18944, vocab 152064;
  // model card: 7.61B params.
  add("qwen2.5-7b", qwen2("Qwen2.5 7B", 28, 3584, 28, 4, 18944, 152064, 131072), 7.61e9,
      "huggingface.co/Qwen/Qwen2.5-7B config.json and model card (7.61B)");
  // Qwen/Qwen2.5-72B config.json: 80 layers, 8192, 64 heads, 8 KV heads, 29568, vocab 152064; 72.7B.
  add("qwen2.5-72b", qwen2("Qwen2.5 72B", 80, 8192, 64, 8, 29568, 152064, 131072), 72.7e9,
      "huggingface.co/Qwen/Qwen2.5-72B config.json and model card (72.7B)");

  // Qwen/Qwen2.5-14B and -32B config.json: 48 and 64 layers, 5120, 40 heads, 8 KV heads, 13824 and
  // 27648, vocab 152064, untied; model cards: 14.7B and 32.5B (the DeepSeek-R1 distills below share them).
  add("qwen2.5-14b", qwen2("Qwen2.5 14B", 48, 5120, 40, 8, 13824, 152064, 131072), 14.7e9,
      "huggingface.co/Qwen/Qwen2.5-14B config.json and model card (14.7B)");
  add("qwen2.5-32b", qwen2("Qwen2.5 32B", 64, 5120, 40, 8, 27648, 152064, 131072), 32.5e9,
      "huggingface.co/Qwen/Qwen2.5-32B config.json and model card (32.5B)");

  // --- Qwen3 --------------------------------------------------------------------------------------
  // Qwen/Qwen3-* config.json (Qwen3ForCausalLM, Qwen3MoeForCausalLM): SwiGLU, RMSNorm, no attention
  // bias, head_dim 128 whatever the width (Qwen3-32B: 64 heads x 128 = 8192 on a 5120-wide stream),
  // vocab 151936, 40,960 positions; tied embeddings on 4B only. The per-head RMSNorm of q and k (QK-norm)
  // adds 2 x 128 weights a layer, left out (under 1e-5 of any of them). Model cards: 4.0B, 8.2B, 14.8B,
  // 32.8B; 30.5B total / 3.3B activated; 235B / 22B. The MoE models route every layer (decoder_sparse_step
  // 1, no mlp_only_layers) to 8 of 128 experts with no shared expert.
  const auto qwen3 = [](std::string name, int layers, std::int64_t hidden, int heads, int kv_heads, std::int64_t ffn, bool tied) {
    TransformerShape s = llama_like(std::move(name), layers, hidden, heads, kv_heads, ffn, 151936, 40960);
    s.head_dim = 128;
    s.tied_embeddings = tied;
    return s;
  };
  add("qwen3-4b", qwen3("Qwen3 4B", 36, 2560, 32, 8, 9728, true), 4.0e9,
      "huggingface.co/Qwen/Qwen3-4B config.json and model card (4.0B)");
  add("qwen3-8b", qwen3("Qwen3 8B", 36, 4096, 32, 8, 12288, false), 8.2e9,
      "huggingface.co/Qwen/Qwen3-8B config.json and model card (8.2B)");
  add("qwen3-14b", qwen3("Qwen3 14B", 40, 5120, 40, 8, 17408, false), 14.8e9,
      "huggingface.co/Qwen/Qwen3-14B config.json and model card (14.8B)");
  add("qwen3-32b", qwen3("Qwen3 32B", 64, 5120, 64, 8, 25600, false), 32.8e9,
      "huggingface.co/Qwen/Qwen3-32B config.json and model card (32.8B)");
  {
    TransformerShape s = qwen3("Qwen3 30B-A3B", 48, 2048, 32, 4, 6144, false);
    s.moe = MoeShape{128, 8, 0, 768, 0, 0, 0};
    add("qwen3-30b-a3b", s, 30.5e9,
        "huggingface.co/Qwen/Qwen3-30B-A3B config.json and model card (30.5B total, 3.3B activated)");
  }
  {
    TransformerShape s = qwen3("Qwen3 235B-A22B", 94, 4096, 64, 4, 12288, false);
    s.moe = MoeShape{128, 8, 0, 1536, 0, 0, 0};
    add("qwen3-235b-a22b", s, 235e9,
        "huggingface.co/Qwen/Qwen3-235B-A22B config.json and model card (235B total, 22B activated)");
  }

  // --- DeepSeek-R1 and its distills ---------------------------------------------------------------
  // deepseek-ai/DeepSeek-R1 config.json (DeepseekV3ForCausalLM) and DeepSeek-V3 inference/configs/
  // config_671B.json: hidden 7168, 61 layers (first 3 dense, intermediate 18432), 128 heads,
  // MLA q_lora_rank 1536, kv_lora_rank 512, qk_nope 128, qk_rope 64, v_head 128; 256 routed experts
  // of width 2048, 8 per token, 1 shared; vocab 129280, untied. DeepSeek-V3 report (arXiv 2412.19437):
  // 671B total, 37B activated (the 14B multi-token-prediction module is not counted).
  {
    TransformerShape s;
    s.name = "DeepSeek-R1 (DeepSeek-V3 architecture)";
    s.layers = 61;
    s.hidden = 7168;
    s.heads = 128;
    s.kv_heads = 128;
    s.head_dim = 128 + 64;  // q/k head dim (nope + rope); values use v_head_dim
    s.ffn_hidden = 18432;
    s.gated_mlp = true;
    s.vocab = 129280;
    s.seq_len = 163840;
    s.moe = MoeShape{256, 8, 1, 2048, 3, 8, 4};  // n_group 8, topk_group 4: at most 4 nodes per token
    s.mla = MlaShape{1536, 512, 128, 64, 128};
    add("deepseek-r1", s, 671e9,
        "huggingface.co/deepseek-ai/DeepSeek-R1 config.json; DeepSeek-V3 report §1 (671B total, 37B active)");
    // DeepSeek-V3 itself: the same config.json keys (deepseek-ai/DeepSeek-V3), R1 being its RL-trained
    // successor on the same architecture.
    s.name = "DeepSeek-V3";
    add("deepseek-v3", s, 671e9,
        "huggingface.co/deepseek-ai/DeepSeek-V3 config.json; DeepSeek-V3 report §1 (671B total, 37B active)");
  }
  // deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B config.json (from Qwen2.5-Math-1.5B): 28 layers, 1536,
  // 12 heads, 2 KV heads, 8960, vocab 151936, untied (1.78B params with the separate output head).
  add("deepseek-r1-distill-qwen-1.5b", qwen2("DeepSeek-R1-Distill-Qwen-1.5B", 28, 1536, 12, 2, 8960, 151936, 131072),
      1.5e9, "huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B config.json (named 1.5B)");
  // ...-Qwen-7B config.json (from Qwen2.5-Math-7B): 28 layers, 3584, 28 heads, 4 KV, 18944, vocab 152064.
  add("deepseek-r1-distill-qwen-7b", qwen2("DeepSeek-R1-Distill-Qwen-7B", 28, 3584, 28, 4, 18944, 152064, 131072),
      7.61e9, "huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Qwen-7B config.json (Qwen2.5 7B shape: 7.61B)");
  // ...-Qwen-14B config.json (from Qwen2.5-14B): 48 layers, 5120, 40 heads, 8 KV, 13824, vocab 152064.
  add("deepseek-r1-distill-qwen-14b", qwen2("DeepSeek-R1-Distill-Qwen-14B", 48, 5120, 40, 8, 13824, 152064, 131072),
      14.7e9, "huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Qwen-14B config.json (Qwen2.5-14B card: 14.7B)");
  // ...-Qwen-32B config.json (from Qwen2.5-32B): 64 layers, 5120, 40 heads, 8 KV, 27648, vocab 152064.
  add("deepseek-r1-distill-qwen-32b", qwen2("DeepSeek-R1-Distill-Qwen-32B", 64, 5120, 40, 8, 27648, 152064, 131072),
      32.5e9, "huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Qwen-32B config.json (Qwen2.5-32B card: 32.5B)");
  // ...-Llama-8B is Llama-3.1-8B; ...-Llama-70B is Llama-3.3-70B-Instruct (DeepSeek-R1 README, Distill table).
  add("deepseek-r1-distill-llama-8b",
      llama_like("DeepSeek-R1-Distill-Llama-8B", 32, 4096, 32, 8, 14336, 128256, 131072), 8'030'261'248.0,
      "huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Llama-8B config.json (base: Llama-3.1-8B)");
  add("deepseek-r1-distill-llama-70b",
      llama_like("DeepSeek-R1-Distill-Llama-70B", 80, 8192, 64, 8, 28672, 128256, 131072), 70'553'706'496.0,
      "huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Llama-70B config.json (base: Llama-3.3-70B-Instruct)");

  // --- CNN ------------------------------------------------------------------------------------------
  // torchvision ResNet50_Weights.IMAGENET1K_V1 (ResNet-50 v1.5): num_params 25,557,032, _ops 4.089
  // GFLOPS, which torchvision counts as multiply-adds for a 224x224 image. He et al. 2016, Table 1
  // gives 3.8e9 multiply-adds for v1 (stride 2 in the first 1x1 convolution of each stage).
  // Pre-training sequence lengths of the models that serve a longer context than they mostly trained on.
  auto pretrained_at = [&](std::string_view id, std::int64_t len, std::string source) {
    for (ModelPreset& p : v) {
      if (p.id == id) {
        p.pretrain_seq_len = len;
        p.pretrain_source = std::move(source);
        return;
      }
    }
    detail::fail("preset", std::string(id), "is not a preset");
  };
  // Dubey et al. 2024 (Llama 3), §3.4.1: pre-training on sequences of 4,096 then 8,192 tokens; the
  // context is extended to 128K in a final stage (§3.4.2). Llama 3.3 and the Llama distills share it.
  const std::string llama3 = "Dubey et al. 2024 (Llama 3), §3.4.1-3.4.2: 8,192-token pre-training, 128K only in the final long-context stage";
  for (const char* id : {"llama3.1-8b", "llama3.1-70b", "llama3.1-405b", "llama3.3-70b", "deepseek-r1-distill-llama-8b",
                         "deepseek-r1-distill-llama-70b"})
    pretrained_at(id, 8192, llama3);
  // Llama 3.2 1B and 3B were pruned from Llama 3.1 8B and distilled from its 8B and 70B siblings (the
  // Llama 3.2 model card); no pre-training length of their own is published, so they take their
  // teachers' 8,192 (assumed, and said so in the source).
  for (const char* id : {"llama3.2-1b", "llama3.2-3b"})
    pretrained_at(id, 8192, "assumed: the 8,192 tokens of the Llama 3.1 models it was pruned and distilled from (Dubey et al. 2024, §3.4.1; "
                            "the Llama 3.2 model card gives no pre-training length of its own)");
  // Jiang et al. 2023 (Mistral 7B), Table 1: context_len 8192 (sliding window 4096).
  pretrained_at("mistral-7b", 8192, "Jiang et al. 2023 (Mistral 7B), Table 1: context_len 8192");
  // Qwen2.5 technical report (arXiv 2412.15115), §3.3: pre-training at 4,096 tokens, extended to 32,768
  // in the final phase; YaRN gives the 131,072 the configs allow. The Qwen distills share the base.
  const std::string qwen = "Qwen2.5 technical report (arXiv 2412.15115), §3.3: 4,096-token pre-training, extended to 32,768 at the end";
  for (const char* id : {"qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-72b", "deepseek-r1-distill-qwen-1.5b", "deepseek-r1-distill-qwen-7b",
                         "deepseek-r1-distill-qwen-14b", "deepseek-r1-distill-qwen-32b"})
    pretrained_at(id, 4096, qwen);
  // Qwen3 technical report (arXiv 2505.09388), pre-training: stages S1 and S2 at 4,096 tokens, the third (long
  // context) at 32,768; the 40,960 positions of the configs follow.
  const std::string qwen3_pre = "Qwen3 technical report (arXiv 2505.09388), pre-training: stages S1 and S2 at 4,096 tokens, the long-context stage at 32,768";
  for (const char* id : {"qwen3-4b", "qwen3-8b", "qwen3-14b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b"})
    pretrained_at(id, 4096, qwen3_pre);
  // DeepSeek-V3 report (arXiv 2412.19437), §4.2: maximum sequence length 4K in pre-training, then
  // extended to 32K and 128K (§4.3).
  pretrained_at("deepseek-v3", 4096, "DeepSeek-V3 report (arXiv 2412.19437), §4.2: 4K-token pre-training; 32K and 128K extension after (§4.3)");
  pretrained_at("deepseek-r1", 4096, "DeepSeek-V3 report (arXiv 2412.19437), §4.2: 4K-token pre-training; 32K and 128K extension after (§4.3)");

  // Released weight formats other than bf16 (ModelPreset::released_weights); serving defaults to them.
  auto released_as = [&](std::string_view id, std::string weights, std::string experts, std::string source) {
    for (ModelPreset& p : v) {
      if (p.id == id) {
        p.released_weights = std::move(weights);
        p.released_expert_weights = std::move(experts);
        p.released_source = std::move(source);
        return;
      }
    }
    detail::fail("preset", std::string(id), "is not a preset");
  };
  // gpt-oss model card (OpenAI 2025), "Quantization": the MoE weights (over 90 % of the parameters) are
  // post-trained and released in MXFP4, 4.25 bits a parameter, the rest in BF16; the 120b model
  // thus fits one 80 GB GPU.
  for (const char* id : {"gpt-oss-120b", "gpt-oss-20b"})
    released_as(id, "bf16", "mxfp4", "gpt-oss model card (OpenAI 2025): MoE weights in MXFP4 (4.25 bits a parameter), the rest in BF16");
  // DeepSeek-V3's README_WEIGHTS.md: "natively supports FP8 weight format with 128x128 block scaling"
  // (e4m3, one fp32 scale a block: +0.002 bits); the embedding and output head are not quantized.
  for (const char* id : {"deepseek-v3", "deepseek-r1"})
    released_as(id, "fp8", "", "DeepSeek-V3 README_WEIGHTS.md: FP8 (e4m3) weights with 128x128 block scaling, as trained (arXiv 2412.19437, §3.3)");

  add("resnet50", GenericModel{"ResNet-50 v1.5", Count(25'557'032), 4.089e9, "224x224 image"}, 25'557'032.0,
      "torchvision models/resnet.py ResNet50_Weights.IMAGENET1K_V1 (25,557,032 params, 4.089 GMACs)");
  // torchvision models/vision_transformer.py ViT_B_16_Weights / ViT_L_16_Weights.IMAGENET1K_V1:
  // num_params 86,567,656 and 304,326,632, _ops 17.564 and 61.555 GFLOPS (multiply-adds), 224x224;
  // Dosovitskiy et al. 2021, Table 1 (workload/image_model.hpp builds the layers).
  add("vit-b16", GenericModel{"ViT-B/16", Count(86'567'656), 17.564e9, "224x224 image"}, 86'567'656.0,
      "torchvision models/vision_transformer.py ViT_B_16_Weights.IMAGENET1K_V1 (86,567,656 params, 17.564 GMACs)");
  add("vit-l16", GenericModel{"ViT-L/16", Count(304'326'632), 61.555e9, "224x224 image"}, 304'326'632.0,
      "torchvision models/vision_transformer.py ViT_L_16_Weights.IMAGENET1K_V1 (304,326,632 params, 61.555 GMACs)");
  // Diffusion UNets (workload/image_model.hpp diffusion_unet): one sample is one latent's denoising
  // step; the multiply-adds are those of the layers, whose parameters match the published checkpoints
  // exactly (tests/workload_test.cpp).
  add("sd15-unet", GenericModel{"Stable Diffusion 1.5 UNet", Count(859'520'964), 401.637e9, "64x64 latent (512x512 image) denoising step"},
      859'520'964.0, "runwayml/stable-diffusion-v1-5 unet/config.json (859,520,964 params; Rombach et al. 2022)");
  add("sdxl-unet", GenericModel{"SDXL 1.0 UNet", Count(2'567'463'684), 3380.62e9, "128x128 latent (1024x1024 image) denoising step"},
      2'567'463'684.0, "stabilityai/stable-diffusion-xl-base-1.0 unet/config.json (2,567,463,684 params; Podell et al. 2023)");
  return v;
}

}  // namespace detail

// Every built-in preset, in a stable order.
inline const std::vector<ModelPreset>& model_presets() {
  static const std::vector<ModelPreset> all = detail::build();
  return all;
}

// The ids of the presets closest to `id` (edit distance, then alphabetical), at most `n`.
inline std::vector<std::string> closest_model_ids(std::string_view id, std::size_t n = 3) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& p : model_presets()) scored.emplace_back(detail::edit_distance(id, p.id), p.id);
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && i < n; ++i) out.push_back(scored[i].second);
  return out;
}

namespace detail {

// A model name as it is matched: lower case with the separators '-', '_', ' ' and '/' dropped
// ("Llama-3.1-8B" and "llama3.1-8b" are both "llama3.18b"; "ViT-B/16" is "vitb16"). Dots stay, so
// "llama3.1-8b" and "llama3-18b" never meet.
inline std::string model_name_key(std::string_view name) { return name_key(name, "-_ /"); }

// Words a published repository name adds to the architecture's name, dropped from its end one at a
// time: tunes that keep the base model's shape (Instruct, chat, it, Base), the Hugging Face
// conversion ("-hf"), Mistral's first release ("v0.1"). Qwen3's 2507 refresh (Instruct-2507,
// Thinking-2507) is not dropped: its 262,144-token native context is not the preset's. BERT's casing is
// not dropped: the cased and uncased vocabularies differ (28,996 and 30,522 rows), so only the
// casing a preset was read from names it (model_name_aliases).
// Mistral 7B v0.2 and v0.3 are not dropped: they lost the sliding window (and v0.3 grew its
// vocabulary to 32,768), so their KV cache is not the preset's. A quantization's name (FP8, AWQ,
// GGUF) is never dropped: it changes the weights' bytes. "Meta-Llama-3-70B-Instruct" is llama3-70b.
inline constexpr std::string_view model_name_suffixes[] = {"instruct", "chat", "it", "hf", "base", "v0.1"};

// Published names that are a preset's own checkpoint but not its id with a suffix: {name, id}.
inline constexpr std::pair<std::string_view, std::string_view> model_name_aliases[] = {
    {"bert-base-cased", "bert-base"},  // google-bert/bert-base-cased, the preset's config.json
    {"bert-large-uncased", "bert-large"},  // google-bert/bert-large-uncased, the preset's config.json
    // DeepSeek's later checkpoints of the same architecture (their config.json: 61 layers, 7168 wide,
    // 256 routed experts, MLA; FP8 weights), post-trained again.
    {"deepseek-v3-0324", "deepseek-v3"},
    {"deepseek-v3.1", "deepseek-v3"},
    {"deepseek-r1-0528", "deepseek-r1"},
};

}  // namespace detail

// The preset a model name means, or nullptr: its id exactly (any case), else the name as a Hugging
// Face repository writes it ("meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-7B-Instruct",
// "mistralai/Mixtral-8x7B-Instruct-v0.1", "gemma-2-9b-it", "ViT-B/16"): an "org/" prefix and a
// leading "Meta-" dropped, separators ignored, and the suffixes above dropped from the end while no
// preset matches. A tune named so has its base model's shape; a name that only resembles an id
// (edit distance) is never taken.
inline const ModelPreset* match_model(std::string_view name) {
  if (name.size() > 256) return nullptr;  // no preset's name is that long; keeps the suffix walk short
  const std::string lower = detail::lower_ascii(name);
  for (const auto& p : model_presets()) {
    if (p.id == lower) return &p;
  }
  std::string_view rest = lower;
  while (!rest.empty() && (rest.back() == '/' || rest.back() == '\\')) rest.remove_suffix(1);  // "./Llama-3.1-8B/"
  // "org/Name", a URL or a local clone's path: the part after the last '/' that holds a letter
  // ("ViT-B/16" keeps its "/16").
  for (std::size_t end = rest.size(); end > 0;) {
    const auto slash = rest.find_last_of("/\\", end - 1);
    if (slash == std::string_view::npos) break;
    const std::string_view after = rest.substr(slash + 1);
    if (std::any_of(after.begin(), after.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
      rest = after;
      break;
    }
    end = slash;
  }
  if (rest.rfind("meta-", 0) == 0) rest.remove_prefix(5);
  for (;;) {
    const std::string key = detail::model_name_key(rest);
    if (key.empty()) return nullptr;
    for (const auto& p : model_presets()) {
      if (detail::model_name_key(p.id) == key) return &p;
    }
    for (const auto& [alias, id] : detail::model_name_aliases) {
      if (detail::model_name_key(alias) != key) continue;
      for (const auto& p : model_presets()) {
        if (p.id == id) return &p;
      }
    }
    bool dropped = false;
    for (const std::string_view suffix : detail::model_name_suffixes) {
      if (rest.size() > suffix.size() + 1 && rest.substr(rest.size() - suffix.size()) == suffix) {
        const char sep = rest[rest.size() - suffix.size() - 1];
        if (sep == '-' || sep == '_' || sep == ' ') {
          rest.remove_suffix(suffix.size() + 1);
          dropped = true;
          break;
        }
      }
    }
    if (!dropped) return nullptr;
  }
}

// The preset a model name means (see match_model: an id in any case, or a Hugging Face repository
// name); LookupError listing the closest ids otherwise.
inline const ModelPreset& find_model(std::string_view id) {
  if (const ModelPreset* p = match_model(id)) return *p;
  const std::string lower = detail::lower_ascii(id);
  std::string msg = "model: \"" + std::string(id) + "\" is not a known model preset; closest: ";
  const auto near = closest_model_ids(lower);
  for (std::size_t i = 0; i < near.size(); ++i) msg += (i ? ", " : "") + near[i];
  throw LookupError("model", std::string(id), msg);
}

}  // namespace capplan
