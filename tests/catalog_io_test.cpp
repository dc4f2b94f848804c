// JSON files: model files and catalog files, their round trips and their error messages.
#include <doctest/doctest.h>

#if defined(CAPPLAN_HAVE_IO)
#include <capplan/io/model_json.hpp>
#include <capplan/workload/params.hpp>
#include <capplan/workload/presets.hpp>

#include <string>

using namespace capplan;

namespace {

// The message of the capplan error `f` throws; fails the test if it throws nothing or
// something else.
template <class Error = InputError, class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    FAIL("unexpected exception type: " << e.what());
    return {};
  }
  FAIL("no exception");
  return {};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_SUITE("catalog_io") {
  TEST_CASE("line and column of a byte offset") {
    const std::string text = "{\n  \"a\": 1,\n  \"b\": x\n}";
    CHECK(io::line_column(text, 0).line == 1);
    CHECK(io::line_column(text, 0).column == 1);
    const auto lc = io::line_column(text, text.find('x'));
    CHECK(lc.line == 3);
    CHECK(lc.column == 8);
    // A UTF-8 sequence counts as one column.
    CHECK(io::line_column("\"é\"x", 4).column == 4);
  }

  TEST_CASE("model file: defaults filled in") {
    const auto m = io::parse_model_json(R"({"name": "tiny", "layers": 2, "hidden": 64, "heads": 4, "vocab": 1000})");
    CHECK(m.name == "tiny");
    CHECK(m.layers == 2);
    CHECK(m.kv_heads == 4);
    CHECK(m.head_dim == 16);
    CHECK(m.ffn_hidden == 256);
    CHECK_FALSE(m.gated_mlp);
    CHECK_FALSE(m.tied_embeddings);
    CHECK_FALSE(m.moe.has_value());
    CHECK_FALSE(m.params_override.has_value());
  }

  TEST_CASE("model file: GQA, MoE and a parameter override") {
    // Mixtral 8x7B (mistralai/Mixtral-8x7B-v0.1 config.json).
    const auto m = io::parse_model_json(R"({
      "name": "mixtral", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "ffn_hidden": 14336,
      "gated_mlp": true, "vocab": 32000, "seq_len": 32768, "experts": 8, "experts_per_token": 2,
      "params": "46.7e9"})");
    CHECK(m.kv_heads == 8);
    CHECK(m.head_dim == 128);
    REQUIRE(m.moe.has_value());
    CHECK(m.moe->experts == 8);
    CHECK(m.moe->experts_per_token == 2);
    CHECK(m.moe->shared_experts == 0);
    CHECK(m.moe->moe_ffn_hidden == 14336);
    REQUIRE(m.params_override.has_value());
    CHECK(*m.params_override == 46.7e9);
  }

  TEST_CASE("model file: round trip") {
    const std::string text = R"({"name": "m", "layers": 61, "hidden": 7168, "heads": 128, "ffn_hidden": 18432,
      "gated_mlp": true, "vocab": 129280, "seq_len": 4096, "experts": 256, "experts_per_token": 8,
      "shared_experts": 1, "moe_ffn_hidden": 2048, "first_dense_layers": 3,
      "mla": {"q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
              "v_head_dim": 128}, "params": 671e9})";
    const auto m = io::parse_model_json(text);
    const std::string once = io::write_model_json(m);
    const std::string twice = io::write_model_json(io::parse_model_json(once));
    CHECK(once == twice);
    CHECK(contains(once, "\"kv_heads\": 128"));
    CHECK(contains(once, "\"first_dense_layers\": 3"));
  }

  TEST_CASE("model file: every built-in transformer preset round-trips") {
    int n = 0;
    for (const auto& p : model_presets()) {
      if (!p.is_transformer()) continue;
      ++n;
      CAPTURE(p.id);
      const TransformerShape& shape = p.transformer();
      const std::string once = io::write_model_json(shape);
      const TransformerShape back = io::parse_model_json(once, p.id + ".json");
      CHECK(io::write_model_json(back) == once);
      CHECK(parameter_count(back) == parameter_count(shape));
    }
    CHECK(n >= 20);
  }

  TEST_CASE("model file: errors name the file, the key and the value") {
    auto err = [](const std::string& text) {
      return error_of([&] { (void)io::parse_model_json(text, "m.json"); });
    };
    CHECK(err(R"({"name": "x", "hidden": 64, "heads": 4, "vocab": 10})") ==
          "m.json:1:1: model \"x\": layers: is missing (a whole number)");
    CHECK(err(R"({"name": "x", "layers": 0, "hidden": 64, "heads": 4, "vocab": 10})") ==
          "m.json:1:15: model \"x\": layers: 0 must be > 0");
    CHECK(err(R"({"name": "x", "layers": -3, "hidden": 64, "heads": 4, "vocab": 10})") ==
          "m.json:1:15: model \"x\": layers: -3 is negative; it must be >= 1");
    CHECK(err(R"({"name": "x", "layers": 2, "hidden": 64e9, "heads": 4, "vocab": 10})") ==
          "m.json:1:28: model \"x\": hidden: 64000000000.0 is absurd (more than 1048576)");
    CHECK(err(R"({"name": "x", "layers": "2", "hidden": 64, "heads": 4, "vocab": 10})") ==
          "m.json:1:15: model \"x\": layers: \"2\" is a string; expected a whole number");
    CHECK(err(R"({"name": "x", "layers": 2.5, "hidden": 64, "heads": 4, "vocab": 10})") ==
          "m.json:1:15: model \"x\": layers: 2.5 is not a whole number");
    CHECK(err(R"({"name": "x", "layers": 2, "hidden": 64, "heads": 4, "vocab": 10, "kv_head": 2})") ==
          "m.json:1:67: model \"x\": kv_head: \"kv_head\" is not a known key; did you mean \"kv_heads\"? "
          "(known: embedding_norm, encoder, experts, experts_per_token, ffn_hidden, final_norm, first_dense_layers, "
          "gated_mlp, head_dim, "
          "heads, hidden, kv_heads, layers, learned_positions, linear_bias, mla, moe_ffn_hidden, name, norm, "
          "params, pooler, qkv_bias, seq_len, shared_experts, tied_embeddings, token_types, vocab)");
    CHECK(err(R"({"name": "x", "layers": 2, "hidden": 64, "heads": 4, "kv_heads": 3, "vocab": 10})") ==
          "m.json:1:54: model \"x\": kv_heads: 3 does not divide heads (4)");
    CHECK(err(R"({"name": "x", "layers": 2, "hidden": 65, "heads": 4, "vocab": 10})") ==
          "m.json:1:42: model \"x\": heads: 4 does not divide hidden (65); give head_dim explicitly");
    CHECK(err(R"({"name": "x", "layers": 2, "hidden": 64, "heads": 4, "vocab": 10, "experts": 8})") ==
          "m.json:1:1: model \"x\": experts_per_token: is missing (a mixture of experts needs top-k)");
    CHECK(err(R"({"name": "x", "layers": 2, "hidden": 64, "heads": 4, "vocab": 10, "experts": 8,
                 "experts_per_token": 9})") == "m.json:2:18: model \"x\": experts_per_token: 9 exceeds experts (8)");
    CHECK(err(R"({"name": "x", "layers": 2, "hidden": 64, "heads": 4, "vocab": 10, "params": -1})") ==
          "m.json:1:67: model \"x\": params: -1 is negative");
    CHECK(err(R"({"name": "x", "layers": 2, "hidden": 64, "heads": 4, "vocab": 10, "params": "lots"})") ==
          "m.json:1:67: model \"x\": params: \"lots\" is not a count (expected digits such as 175000000000 or 174.6e9)");
    CHECK(err(R"({"name": "x", "layers": 2, "hidden": 64, "heads": 4, "vocab": 10, "gated_mlp": 1})") ==
          "m.json:1:67: model \"x\": gated_mlp: 1 is an integer; expected true or false");
    CHECK(err(R"([1, 2])") == "m.json:1:1: model: entry: [...] is an array; expected an object {...}");
    CHECK(error_of<ParseError>([] { (void)io::parse_model_json("{\"name\": \"x\",\n  \"layers\": 2,,}", "m.json"); })
              .starts_with("m.json:2:15: bad JSON: syntax error while parsing object key - unexpected ','"));
    CHECK(error_of<ParseError>([] { (void)io::parse_model_json("{\"name\": \"x\", \"name\": \"y\"}", "m.json"); }) ==
          "m.json:1:15: name: \"name\" is a duplicate key in the same object");
    CHECK(error_of([] { (void)io::load_model_file("/nonexistent/model.json"); }) ==
          "/nonexistent/model.json: cannot open the file");
  }
}

#endif  // CAPPLAN_HAVE_IO
