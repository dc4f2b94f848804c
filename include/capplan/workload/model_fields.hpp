// A transformer described field by field, as in a JSON model file or on a command line:
//
//   {"name": "my-7b", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "ffn_hidden": 14336,
//    "gated_mlp": true, "vocab": 32000, "seq_len": 8192, "params": 7.2e9}
//
//   TransformerShape s;
//   capplan::set_model_field(s, "layers", 32.0);      // numbers and booleans
//   capplan::set_model_field(s, "name", "my-7b");     // text
//   capplan::finish_model(s);                         // defaults + validation
//
// Keys: name, layers, hidden, heads, kv_heads (default: heads), head_dim (default: hidden / heads),
// ffn_hidden (default: 4 x hidden), gated_mlp (default false), vocab, tied_embeddings, seq_len, and
// for MoE experts, experts_per_token, shared_experts, moe_ffn_hidden; params optionally overrides
// the derived parameter count. An unknown key, a fractional count or a negative value throws
// InputError naming the key and the value. The file reader itself lives in capplan/io.
#pragma once

#include "capplan/error.hpp"
#include "capplan/workload/transformer.hpp"

#include <array>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace capplan {

inline constexpr std::array<std::string_view, 16> model_field_keys{
    "name",    "layers",  "hidden",   "heads",   "kv_heads",          "head_dim",       "ffn_hidden",     "gated_mlp",
    "vocab",   "tied_embeddings", "seq_len", "experts", "experts_per_token", "shared_experts", "moe_ffn_hidden", "params"};

namespace detail {

[[noreturn]] inline void unknown(std::string_view key) {
  std::string keys;
  for (std::string_view k : model_field_keys) keys += (keys.empty() ? "" : ", ") + std::string(k);
  detail::fail("model field", "\"" + std::string(key) + "\"", "is not a model field (" + keys + ")");
}

inline std::int64_t whole(std::string_view key, double v, std::int64_t max) {
  require_finite(v, key);
  if (v < 0) detail::fail(key, detail::format_double(v), "is negative");
  if (std::floor(v) != v) detail::fail(key, detail::format_double(v), "is not a whole number");
  if (v > static_cast<double>(max)) detail::fail(key, detail::format_double(v), "is too large");
  return static_cast<std::int64_t>(v);
}

inline int whole_int(std::string_view key, double v) {
  return static_cast<int>(whole(key, v, std::numeric_limits<int>::max()));
}

inline bool boolean(std::string_view key, double v) {
  if (v != 0.0 && v != 1.0) detail::fail(key, detail::format_double(v), "is not a boolean (true/false or 1/0)");
  return v == 1.0;
}

inline MoeShape& moe(TransformerShape& s) {
  if (!s.moe) s.moe = MoeShape{};
  return *s.moe;
}

}  // namespace detail

// Sets one numeric or boolean field (booleans as 1/0).
inline void set_model_field(TransformerShape& s, std::string_view key, double value) {
  constexpr std::int64_t big = std::numeric_limits<std::int64_t>::max() / 4;
  if (key == "layers") s.layers = detail::whole_int(key, value);
  else if (key == "hidden") s.hidden = detail::whole(key, value, big);
  else if (key == "heads") s.heads = detail::whole_int(key, value);
  else if (key == "kv_heads") s.kv_heads = detail::whole_int(key, value);
  else if (key == "head_dim") s.head_dim = detail::whole_int(key, value);
  else if (key == "ffn_hidden") s.ffn_hidden = detail::whole(key, value, big);
  else if (key == "gated_mlp") s.gated_mlp = detail::boolean(key, value);
  else if (key == "vocab") s.vocab = detail::whole(key, value, big);
  else if (key == "tied_embeddings") s.tied_embeddings = detail::boolean(key, value);
  else if (key == "seq_len") s.seq_len = detail::whole(key, value, big);
  else if (key == "experts") detail::moe(s).experts = detail::whole_int(key, value);
  else if (key == "experts_per_token") detail::moe(s).experts_per_token = detail::whole_int(key, value);
  else if (key == "shared_experts") detail::moe(s).shared_experts = detail::whole_int(key, value);
  else if (key == "moe_ffn_hidden") detail::moe(s).moe_ffn_hidden = detail::whole(key, value, big);
  else if (key == "params") s.params_override = require_positive(value, "params");
  else if (key == "name") detail::fail(key, detail::format_double(value), "must be text");
  else detail::unknown(key);
}

inline void set_model_field(TransformerShape& s, std::string_view key, bool value) {
  set_model_field(s, key, value ? 1.0 : 0.0);
}

template <std::integral I>
  requires(!std::same_as<I, bool>)
void set_model_field(TransformerShape& s, std::string_view key, I value) {
  set_model_field(s, key, static_cast<double>(value));
}

// Sets a text field (only "name" is text).
inline void set_model_field(TransformerShape& s, std::string_view key, std::string_view text) {
  if (key == "name") {
    s.name = std::string(text);
    return;
  }
  for (std::string_view k : model_field_keys) {
    if (k == key) detail::fail(key, "\"" + std::string(text) + "\"", "must be a number");
  }
  detail::unknown(key);
}
inline void set_model_field(TransformerShape& s, std::string_view key, const char* text) {
  set_model_field(s, key, std::string_view(text));
}

// Fills the defaults (kv_heads = heads, head_dim = hidden / heads, ffn_hidden = 4 x hidden; an MoE
// expert as wide as ffn_hidden when moe_ffn_hidden is absent) and validates the result.
inline void finish_model(TransformerShape& s) {
  if (s.moe && s.moe->moe_ffn_hidden == 0) s.moe->moe_ffn_hidden = s.effective_ffn_hidden();
  s = s.resolved();
}

}  // namespace capplan
