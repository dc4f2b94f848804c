// A model described in a JSON file, read into a TransformerShape and written back.
//
//   {
//     "name": "my-llama", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
//     "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256, "seq_len": 8192
//   }
//   capplan::TransformerShape m = capplan::io::load_model_file("my-llama.json");
//
// Keys (docs/catalog-files.md): name, layers, hidden, heads, vocab (required); kv_heads (default
// heads), head_dim (default hidden / heads), ffn_hidden (default 4 * hidden), gated_mlp (false),
// tied_embeddings (false), encoder (false), seq_len (2048); for a mixture of experts experts and
// experts_per_token (required together), shared_experts (0), moe_ffn_hidden (default
// ffn_hidden), first_dense_layers (0), expert_groups and groups_per_token (0: no group-limited routing); mla {q_lora_rank, kv_lora_rank, qk_nope_head_dim,
// qk_rope_head_dim, v_head_dim} for multi-head latent attention; sliding_window (tokens a windowed
// layer's query attends to) and global_every (0: every layer windowed; n: every n-th layer global) for
// sliding-window attention; params (a number, or text such
// as "174.6e9") overrides the derived parameter count. Details that change the count a little:
// norm ("rmsnorm" or "layernorm"), linear_bias, qkv_bias, learned_positions, token_types,
// embedding_norm, final_norm (true), pooler (defaults: those of TransformerShape).
//
// Bounds (beyond them a value is "absurd", and 64-bit parameter arithmetic could overflow):
// layers 1..10,000; hidden 1..1,048,576; heads, kv_heads 1..65,536; head_dim 1..65,536;
// ffn_hidden, moe_ffn_hidden 1..16,777,216; vocab 1..100,000,000; seq_len 1..1,000,000,000;
// experts 1..65,536; shared_experts 0..1,024; sliding_window 1..1,000,000,000; global_every
// 0..10,000 (not 1); params 1..1e15.
// Errors: capplan::InputError (ParseError for bad JSON) naming the file, line:column, the key
// and the value, e.g. "llama.json:3:3: model \"my-llama\": layers: 0 must be > 0".
#pragma once

#include "capplan/io/count_field.hpp"
#include "capplan/io/json_document.hpp"
#include "capplan/workload/transformer.hpp"

#include <fstream>
#include <string>
#include <string_view>

namespace capplan::detail {

// The ranges a model file's fields must lie in.
namespace model_limits {
inline constexpr io::IntRange layers{1, 10'000};
inline constexpr io::IntRange hidden{1, 1'048'576};
inline constexpr io::IntRange heads{1, 65'536};
inline constexpr io::IntRange head_dim{1, 65'536};
inline constexpr io::IntRange ffn{1, 16'777'216};
inline constexpr io::IntRange vocab{1, 100'000'000};
inline constexpr io::IntRange seq_len{1, 1'000'000'000};
inline constexpr io::IntRange experts{1, 65'536};
inline constexpr io::IntRange shared_experts{0, 1'024};
inline constexpr io::IntRange mla_dim{0, 1'048'576};
inline constexpr double max_params = 1e15;
}  // namespace model_limits

inline std::string entry_name(const std::string& name) { return "model " + detail::quote_text(name); }

// Calls the shape's own checks where the record has them.
template <class Shape>
void validate_shape(const Shape& s) {
  if constexpr (requires { s.validate(); }) s.validate();
}
}  // namespace capplan::detail

namespace capplan::io {

// Reads the model at `pointer` (the root by default) of a parsed document.
inline TransformerShape read_model(const JsonDocument& doc, const Json& object, const std::string& pointer = "") {
  namespace md = detail::model_limits;
  ObjectReader r(doc, object, pointer, "model");
  TransformerShape s;
  s.name = r.string("name");
  r.set_entry(detail::entry_name(s.name));
  s.layers = r.integer_as<int>("layers", md::layers);
  s.hidden = r.integer("hidden", md::hidden);
  s.heads = r.integer_as<int>("heads", md::heads);
  s.kv_heads = r.integer_as_or<int>("kv_heads", md::heads, s.heads);
  if (s.kv_heads > s.heads) {
    r.fail("kv_heads", std::to_string(s.kv_heads), "exceeds heads (" + std::to_string(s.heads) + ")");
  }
  if (s.heads % s.kv_heads != 0) {
    r.fail("kv_heads", std::to_string(s.kv_heads), "does not divide heads (" + std::to_string(s.heads) + ")");
  }
  if (auto hd = r.integer_opt("head_dim", md::head_dim)) {
    s.head_dim = static_cast<int>(*hd);
  } else if (s.hidden % s.heads != 0) {
    r.fail("heads", std::to_string(s.heads),
           "does not divide hidden (" + std::to_string(s.hidden) + "); give head_dim explicitly");
  } else {
    s.head_dim = static_cast<int>(s.hidden / s.heads);
  }
  s.ffn_hidden = r.integer_or("ffn_hidden", md::ffn, 4 * s.hidden);
  if (s.ffn_hidden > md::ffn.max) {
    r.fail("ffn_hidden", std::to_string(s.ffn_hidden), "(the default, 4 * hidden) is absurd");
  }
  s.gated_mlp = r.boolean_or("gated_mlp", false);
  s.vocab = r.integer("vocab", md::vocab);
  s.tied_embeddings = r.boolean_or("tied_embeddings", false);
  s.encoder = r.boolean_or("encoder", false);
  s.seq_len = r.integer_or("seq_len", md::seq_len, s.seq_len);
  // Details that move the parameter count a little (biases, norms, learned positions).
  static constexpr std::pair<std::string_view, NormKind> norms[] = {{"rmsnorm", NormKind::rmsnorm},
                                                                    {"layernorm", NormKind::layernorm}};
  s.norm = r.enumeration_opt<NormKind>("norm", norms).value_or(s.norm);
  s.linear_bias = r.boolean_or("linear_bias", s.linear_bias);
  s.qkv_bias = r.boolean_or("qkv_bias", s.qkv_bias);
  s.learned_positions = r.integer_or("learned_positions", md::seq_len, s.learned_positions);
  s.token_types = r.integer_as_or<int>("token_types", {0, 1'024}, s.token_types);
  s.embedding_norm = r.boolean_or("embedding_norm", s.embedding_norm);
  s.final_norm = r.boolean_or("final_norm", s.final_norm);
  s.pooler = r.boolean_or("pooler", s.pooler);

  const bool moe = r.has("experts") || r.has("experts_per_token") || r.has("shared_experts") ||
                   r.has("moe_ffn_hidden") || r.has("first_dense_layers") || r.has("expert_groups") || r.has("groups_per_token");
  if (moe) {
    MoeShape m;
    if (!r.has("experts")) r.missing("experts", "a mixture of experts needs the number of routed experts");
    m.experts = r.integer_as<int>("experts", md::experts);
    if (!r.has("experts_per_token")) r.missing("experts_per_token", "a mixture of experts needs top-k");
    m.experts_per_token = r.integer_as<int>("experts_per_token", md::experts);
    if (m.experts_per_token > m.experts) {
      r.fail("experts_per_token", std::to_string(m.experts_per_token),
             "exceeds experts (" + std::to_string(m.experts) + ")");
    }
    m.shared_experts = r.integer_as_or<int>("shared_experts", md::shared_experts, 0);
    m.moe_ffn_hidden = r.integer_or("moe_ffn_hidden", md::ffn, s.ffn_hidden);
    m.first_dense_layers = r.integer_as_or<int>("first_dense_layers", {0, s.layers}, 0);
    m.expert_groups = r.integer_as_or<int>("expert_groups", {0, m.experts}, 0);
    m.groups_per_token = r.integer_as_or<int>("groups_per_token", {0, m.experts}, 0);
    if (m.expert_groups > 0 && m.experts % m.expert_groups != 0)
      r.fail("expert_groups", std::to_string(m.expert_groups), "does not divide experts (" + std::to_string(m.experts) + ")");
    if (m.groups_per_token > m.expert_groups || (m.expert_groups > 0 && m.groups_per_token == 0))
      r.fail("groups_per_token", std::to_string(m.groups_per_token),
             "must be between 1 and expert_groups (" + std::to_string(m.expert_groups) + "), or absent with no groups");
    s.moe = m;
  }

  if (const Json* mla = r.find("mla")) {
    ObjectReader a(doc, *mla, r.key_pointer("mla"), r.entry(), "mla.");
    MlaShape m;
    m.q_lora_rank = a.integer_as_or<int>("q_lora_rank", md::mla_dim, 0);
    m.kv_lora_rank = a.integer_as<int>("kv_lora_rank", {1, md::mla_dim.max});
    m.qk_nope_head_dim = a.integer_as<int>("qk_nope_head_dim", {1, md::head_dim.max});
    m.qk_rope_head_dim = a.integer_as_or<int>("qk_rope_head_dim", {0, md::head_dim.max}, 0);
    m.v_head_dim = a.integer_as<int>("v_head_dim", {1, md::head_dim.max});
    a.finish();
    s.mla = m;
  }

  if (r.has("sliding_window") || r.has("global_every")) {
    if (!r.has("sliding_window")) r.missing("sliding_window", "global_every needs the window's size in tokens");
    SlidingWindow w;
    w.tokens = r.integer("sliding_window", md::seq_len);
    w.global_every = r.integer_as_or<int>("global_every", {0, md::layers.max}, 0);
    s.window = w;
  }

  if (const auto v = read_parameter_count(r, "params", "7.24e9 or \"174.6e9\"", md::max_params)) s.params_override = *v;
  r.finish();

  try {
    detail::validate_shape(s);
  } catch (const InputError& e) {
    r.rethrow(e);
  }
  return s;
}

inline TransformerShape read_model(const JsonDocument& doc) { return read_model(doc, doc.root()); }

// Parses a model from JSON text; `file` names it in messages.
inline TransformerShape parse_model_json(std::string text, std::string file = "<string>") {
  return read_model(JsonDocument::parse(std::move(text), std::move(file)));
}

// A model file is a few dozen keys: 1 MiB is far more than any needs, and the limit applies while
// reading (JsonDocument::load; devices and FIFOs are refused before reading).
inline constexpr std::size_t max_model_file_bytes = 1u << 20;

inline TransformerShape load_model_file(const std::string& path) { return read_model(JsonDocument::load(path, max_model_file_bytes)); }

// The model object at a JSON pointer inside a larger file ("/model" of a scenario file), read in
// place: errors name that file, line and column.
inline TransformerShape load_model_file(const std::string& path, const std::string& pointer) {
  const JsonDocument doc = JsonDocument::load(path, max_model_file_bytes);
  const Json* v = nullptr;
  try {
    v = &doc.root().at(Json::json_pointer(pointer));
  } catch (const Json::exception&) {
    throw InputError("model", pointer, path + ": has no model object at " + pointer);
  }
  return read_model(doc, *v, pointer);
}

// Every key, defaults filled in, so the file says exactly what capplan computes with; reading it
// back gives the same shape.
inline Json model_to_json(const TransformerShape& s) {
  Json j = Json::object();
  j["name"] = s.name;
  j["layers"] = s.layers;
  j["hidden"] = s.hidden;
  j["heads"] = s.heads;
  j["kv_heads"] = s.kv_heads != 0 ? s.kv_heads : s.heads;
  j["head_dim"] = s.head_dim != 0 ? std::int64_t{s.head_dim} : (s.heads > 0 ? s.hidden / s.heads : 0);
  j["ffn_hidden"] = s.ffn_hidden != 0 ? s.ffn_hidden : 4 * s.hidden;
  j["gated_mlp"] = s.gated_mlp;
  j["vocab"] = s.vocab;
  j["tied_embeddings"] = s.tied_embeddings;
  if (s.encoder) j["encoder"] = true;
  j["seq_len"] = s.seq_len;
  const TransformerShape d{};  // the details are written only where they differ from the defaults
  if (s.norm != d.norm) j["norm"] = s.norm == NormKind::layernorm ? "layernorm" : "rmsnorm";
  if (s.linear_bias != d.linear_bias) j["linear_bias"] = s.linear_bias;
  if (s.qkv_bias != d.qkv_bias) j["qkv_bias"] = s.qkv_bias;
  if (s.learned_positions != d.learned_positions) j["learned_positions"] = s.learned_positions;
  if (s.token_types != d.token_types) j["token_types"] = s.token_types;
  if (s.embedding_norm != d.embedding_norm) j["embedding_norm"] = s.embedding_norm;
  if (s.final_norm != d.final_norm) j["final_norm"] = s.final_norm;
  if (s.pooler != d.pooler) j["pooler"] = s.pooler;
  if (s.moe) {
    j["experts"] = s.moe->experts;
    j["experts_per_token"] = s.moe->experts_per_token;
    j["shared_experts"] = s.moe->shared_experts;
    j["moe_ffn_hidden"] = s.moe->moe_ffn_hidden;
    if (s.moe->first_dense_layers != 0) j["first_dense_layers"] = s.moe->first_dense_layers;
    if (s.moe->expert_groups != 0) {
      j["expert_groups"] = s.moe->expert_groups;
      j["groups_per_token"] = s.moe->groups_per_token;
    }
  }
  if (s.mla) {
    Json a = Json::object();
    a["q_lora_rank"] = s.mla->q_lora_rank;
    a["kv_lora_rank"] = s.mla->kv_lora_rank;
    a["qk_nope_head_dim"] = s.mla->qk_nope_head_dim;
    a["qk_rope_head_dim"] = s.mla->qk_rope_head_dim;
    a["v_head_dim"] = s.mla->v_head_dim;
    j["mla"] = std::move(a);
  }
  if (s.window) {
    j["sliding_window"] = s.window->tokens;
    j["global_every"] = s.window->global_every;
  }
  if (s.params_override) j["params"] = *s.params_override;
  return j;
}

inline std::string write_model_json(const TransformerShape& s, int indent = 2) {
  return model_to_json(s).dump(indent) + "\n";
}

inline void save_model_file(const TransformerShape& s, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  out << write_model_json(s);
  if (!out) throw InputError("file", path, path + ": cannot write the file");
}

}  // namespace capplan::io
