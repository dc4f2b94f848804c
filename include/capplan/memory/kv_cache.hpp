// KV cache: the keys and values a decoder keeps for every token of every sequence it serves.
//
//   per token = 2 (K and V) x layers x kv_heads x head_dim x bytes per value
//     OPT-13B fp16: 2 x 40 x 40 x 128 x 2 B = 819,200 B = 800 KiB ("800 KB", Kwon et al. 2023, §3)
//     Llama-2-70B bf16 (GQA, 8 KV heads): 2 x 80 x 8 x 128 x 2 B = 327,680 B
//   MLA (DeepSeek-V2 paper, §2.1.2): the compressed latent and the decoupled RoPE key only,
//     layers x (kv_lora_rank + qk_rope_head_dim) x bytes = 61 x 576 x 2 B = 70,272 B for DeepSeek-V3.
//
// Sliding-window layers (TransformerShape::window) keep only the last W tokens: past the window a
// token adds K and V to the global layers only (vLLM's hybrid KV-cache manager, llama.cpp's SWA cache,
// TensorRT-LLM's cyclic KV cache and Hugging Face's sliding-window cache all drop what no query can
// reach any more). So a cache of c tokens holds min(c, W) tokens in every layer and c - min(c, W)
// more in the global layers.
//
// With tensor parallelism each GPU holds kv_heads / t heads; when t > kv_heads, heads are
// replicated, so a GPU still holds one (vLLM does this for GQA). MLA's latent is not split by heads,
// so every tensor-parallel GPU holds all of it.
#pragma once

#include "capplan/error.hpp"
#include "capplan/memory/formats.hpp"
#include "capplan/units/quantity.hpp"
#include "capplan/workload/transformer.hpp"

#include <cstdint>
#include <string>

namespace capplan {

// Values (elements) cached per token per layer, before tensor parallelism.
inline std::int64_t kv_values_per_token_per_layer(const TransformerShape& shape) {
  if (shape.mla) return shape.mla->kv_lora_rank + shape.mla->qk_rope_head_dim;
  return 2 * static_cast<std::int64_t>(shape.effective_kv_heads()) * shape.effective_head_dim();
}

namespace detail {
// Values one GPU caches per token per layer, and the layers of the first pipeline stage (which holds
// ceil(layers / pipeline_parallel) of them) with how many of those are windowed.
struct KvStage {
  std::int64_t values = 0;
  int layers = 0;
  int windowed = 0;
};
inline KvStage kv_stage(const TransformerShape& shape, int tensor_parallel, int pipeline_parallel) {
  shape.validate();
  require_positive_count(tensor_parallel, "tensor_parallel");
  if (pipeline_parallel <= 0 || pipeline_parallel > shape.layers) {
    detail::fail("pipeline_parallel", std::to_string(pipeline_parallel),
                 "must be between 1 and layers (" + std::to_string(shape.layers) + ")");
  }
  KvStage st;
  st.layers = (shape.layers + pipeline_parallel - 1) / pipeline_parallel;
  st.windowed = shape.windowed_layers(0, st.layers);
  st.values = kv_values_per_token_per_layer(shape);
  if (!shape.mla) st.values = 2 * kv_heads_per_rank(shape.effective_kv_heads(), tensor_parallel) * shape.effective_head_dim();
  return st;
}
}  // namespace detail

// KV-cache bytes per token of context, on one GPU of a tensor_parallel x pipeline_parallel group
// (the first pipeline stage, which holds ceil(layers / pipeline_parallel) layers): every layer's K and
// V, what each of the first W tokens costs when the model has sliding-window layers.
inline DataSize kv_cache_per_token(const TransformerShape& shape, const WeightFormat& format = formats::bf16,
                                   int tensor_parallel = 1, int pipeline_parallel = 1) {
  const detail::KvStage st = detail::kv_stage(shape, tensor_parallel, pipeline_parallel);
  return format.size_of(static_cast<double>(st.values * st.layers));
}

// What each token past the sliding window adds: the global layers' K and V only (equal to
// kv_cache_per_token for a model without windowed layers).
inline DataSize kv_cache_per_token_past_window(const TransformerShape& shape, const WeightFormat& format = formats::bf16,
                                               int tensor_parallel = 1, int pipeline_parallel = 1) {
  const detail::KvStage st = detail::kv_stage(shape, tensor_parallel, pipeline_parallel);
  return format.size_of(static_cast<double>(st.values * (st.layers - st.windowed)));
}

// KV cache of `sequences` sequences of `context` tokens each: min(context, W) tokens in every layer,
// the rest in the global layers only.
inline DataSize kv_cache_memory(const TransformerShape& shape, std::int64_t context, std::int64_t sequences,
                                const WeightFormat& format = formats::bf16, int tensor_parallel = 1,
                                int pipeline_parallel = 1) {
  if (context < 0) detail::fail("context", std::to_string(context), "is negative");
  if (sequences < 0) detail::fail("sequences", std::to_string(sequences), "is negative");
  const std::int64_t in_window = shape.window_span(context);
  const double seqs = static_cast<double>(sequences);
  DataSize total = kv_cache_per_token(shape, format, tensor_parallel, pipeline_parallel) * (static_cast<double>(in_window) * seqs);
  if (context > in_window)
    total += kv_cache_per_token_past_window(shape, format, tensor_parallel, pipeline_parallel) *
             (static_cast<double>(context - in_window) * seqs);
  return total;
}

}  // namespace capplan
