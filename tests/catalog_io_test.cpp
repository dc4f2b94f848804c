// JSON files: model files and catalog files, their round trips and their error messages.
#include <doctest/doctest.h>

#if defined(CAPPLAN_HAVE_IO)
#include <capplan/hardware/builtin_catalog.hpp>
#include <capplan/io/catalog_json.hpp>
#include <capplan/io/image_model_json.hpp>
#include <capplan/io/model_json.hpp>
#include <capplan/io/price_import.hpp>
#include <capplan/workload/params.hpp>
#include <capplan/workload/presets.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace capplan;
using capplan::io::Json;

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

// A complete, valid new GPU entry; tests break one thing at a time.
Json valid_gpu() {
  return Json::parse(R"({"id": "my-gpu", "name": "My GPU 48GB", "vendor": "nvidia", "form_factor": "pcie",
    "memory": "48 GB", "memory_bandwidth": "960 GB/s", "dense": {"bf16": "181 TFLOP/s"}, "tdp": "300 W",
    "source": "vendor datasheet", "as_of": "2026-11-01"})");
}
std::string gpu_file(const Json& gpu) {
  Json f = Json::object();
  f["gpus"] = Json::array({gpu});
  return f.dump(2);
}
template <class F>
std::string gpu_with(F&& change) {
  Json g = valid_gpu();
  change(g);
  return gpu_file(g);
}
Json price(const char* amount) {
  Json p = Json::object();
  p["amount"] = amount;
  p["currency"] = "USD";
  p["as_of"] = "2026-11-01";
  p["source"] = "quote";
  return p;
}
std::string offer(const std::string& extra) {
  return R"({"cloud_offers": [{"id": "cloudy-1", "provider": "Cloudy", "instance_type": "c1", "gpu_count": 2,
    "gpu_id": "h100-sxm", "currency": "USD", "source": "price page", "as_of": "2026-11-01")" + extra + "}]}";
}

// The message of loading `text` over the built-in catalog as "user.json", checking that the
// catalog is left unchanged.
template <class Error = InputError>
std::string load_error(const std::string& text) {
  Catalog c = Catalog::make_builtin();
  // The built-in catalog as JSON, written once (each write takes a tenth of a second under the sanitizers).
  static const std::string before = io::write_catalog_json(Catalog::make_builtin());
  std::string msg = error_of<Error>([&] { io::apply_catalog_json(c, text, "user.json"); });
  CHECK(io::write_catalog_json(c) == before);
  return msg;
}

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

  TEST_CASE("image model file: a layer list round-trips and gives the preset's numbers") {
    for (const char* id : {"resnet50", "vit-b16", "vit-l16", "sd15-unet", "sdxl-unet"}) {
      CAPTURE(id);
      const ImageModel& preset = *find_image_model(id);
      const ImageModel back = io::parse_image_model_json(io::image_model_to_json(preset).dump());
      CHECK(back.name == preset.name);
      CHECK(back.parameters == preset.parameters);
      CHECK(back.forward_flops_per_sample() == preset.forward_flops_per_sample());
      CHECK(back.layer_parameters() == preset.layer_parameters());
      CHECK(back.input_elements == preset.input_elements);
      CHECK(back.pool_indices == preset.pool_indices);
      REQUIRE(back.convs.size() == preset.convs.size());
      for (std::size_t i = 0; i < back.convs.size(); ++i) {
        CHECK(back.convs[i].residual == preset.convs[i].residual);
        CHECK(back.convs[i].relu == preset.convs[i].relu);
      }
      CHECK(back.linears.size() == preset.linears.size());
      CHECK(back.attentions.size() == preset.attentions.size());
      CHECK(back.elementwise.size() == preset.elementwise.size());
      CHECK(back.image == preset.image);
      CHECK(back.kind() == preset.kind());
      CHECK(back.companion_parameters == preset.companion_parameters);
      CHECK(back.companions == preset.companions);
      // A pipeline's parts come back too: the VAE decoder, its upcast, its tiles and the text encoders.
      REQUIRE(back.decoder.size() == preset.decoder.size());
      if (!preset.decoder.empty()) CHECK(back.decoder.front().forward_flops_per_sample() == preset.decoder.front().forward_flops_per_sample());
      CHECK(back.decoder_fp32 == preset.decoder_fp32);
      CHECK(back.decoder_tiles.size() == preset.decoder_tiles.size());
      REQUIRE(back.text_encoders.size() == preset.text_encoders.size());
      for (std::size_t i = 0; i < back.text_encoders.size(); ++i) CHECK(back.text_encoders[i].parameters == preset.text_encoders[i].parameters);
    }
    {
      // SD 1.5 at 1024 x 1024 keeps its nine tiles through a file.
      UNetConfig c = *find_unet_config("sd15-unet");
      c.latent_side = 128;
      const ImageModel big = diffusion_unet(c);
      const ImageModel back = io::parse_image_model_json(io::image_model_to_json(big).dump());
      int tiles = 0;
      for (const VaeTile& t : back.decoder_tiles) tiles += t.count;
      CHECK(tiles == 9);
    }
    // Defaults: 224 x 224 RGB, the layers' own parameters, kernel 1, count 1, fused attention.
    const ImageModel m = io::parse_image_model_json(R"({"name": "tiny", "layers": [
        {"type": "conv", "out_pixels": 49, "in_channels": 3, "out_channels": 8},
        {"type": "linear", "in_features": 8, "out_features": 10},
        {"type": "attention", "tokens": 49, "heads": 2, "head_dim": 4}]})");
    CHECK(m.input_elements == 224 * 224 * 3);
    CHECK(m.parameters == m.layer_parameters());
    CHECK(m.parameters == 3 * 8 + 2 * 8 + 8 * 10 + 10);
    CHECK(m.convs[0].kernel == 1);
    CHECK_FALSE(m.convs[0].residual);
    CHECK(m.convs[0].relu);
    CHECK(m.linears[0].tokens == 1);
    CHECK(m.attentions[0].fused);
    CHECK(io::is_image_model_json(Json::parse(R"({"layers": []})")));
    CHECK_FALSE(io::is_image_model_json(Json::parse(R"({"layers": 32})")));
  }

  TEST_CASE("image model file: errors name the file, the layer and the key") {
    const auto err = [](const std::string& text) { return error_of([&] { (void)io::parse_image_model_json(text, "m.json"); }); };
    CHECK(contains(err(R"({"name": "x", "layers": []})"), "layers: [] is empty"));
    CHECK(contains(err(R"({"name": "x", "layers": [{"in_features": 2, "out_features": 2}]})"), "layers[0].type"));
    CHECK(contains(err(R"({"name": "x", "layers": [{"type": "pool"}]})"), "\"pool\" is not one of: conv, linear, attention, elementwise"));
    const std::string lin = R"({"type": "linear", "in_features": 2, "out_features": 2})";
    CHECK(contains(err(R"({"name": "x", "layers": [)" + lin + R"(, {"type": "elementwise", "elements": 4, "passes": -1}]})"),
                   "layers[1].passes: -1 must be from 0.01 to 100"));
    CHECK(contains(err(R"({"name": "x", "layers": [)" + lin + R"(, {"type": "elementwise", "elements": 4, "saved": "two"}]})"),
                   "layers[1].saved: \"two\" must be a number"));
    CHECK(contains(err(R"({"name": "x", "layers": [)" + lin + R"(, {"type": "elementwise"}]})"), "layers[1].elements"));
    CHECK(contains(err(R"({"name": "x", "layers": [)" + lin + R"(, {"type": "attention", "tokens": 4, "heads": 1, "head_dim": 2, "kv_tokens": -3}]})"),
                   "layers[1].kv_tokens"));
    CHECK(contains(err(R"({"name": "x", "image": 64, "input_elements": 16384, "layers": [)" + lin + "]}"), "input_elements"));
    CHECK(contains(err(R"({"name": "x", "layers": [{"type": "conv", "out_pixels": 4, "in_channels": 2, "out_channels": 2, "residual": "yes"}]})"),
                   "layers[0].residual"));
    CHECK(contains(err(R"({"name": "x", "layers": [{"type": "conv", "out_pixels": 4, "in_channels": 2, "out_channels": 2, "relu": 1}]})"),
                   "layers[0].relu"));
    // A pipeline's parts: objects of the same form, one level deep, only on a diffusion UNet, tiles and
    // the upcast only with a decoder, tiles that fit and cover the decoder's latent.
    const std::string part = R"({"name": "p", "layers": [)" + lin + "]}";
    const std::string unet = R"({"name": "u", "input_elements": 256, "layers": [
        {"type": "conv", "out_pixels": 64, "in_channels": 4, "out_channels": 32, "kernel": 3, "norm_activation": false, "count": 2},
        {"type": "conv", "out_pixels": 16, "in_channels": 32, "out_channels": 32, "kernel": 3, "norm_activation": false},
        {"type": "attention", "tokens": 64, "heads": 2, "head_dim": 16, "kv_tokens": 77}])";
    const std::string decoder = R"("vae_decoder": {"name": "d", "input_elements": 256, "layers": [{"type": "conv", "out_pixels": 4096, "in_channels": 4, "out_channels": 3, "kernel": 3, "norm_activation": false}]})";
    CHECK(contains(err(R"({"name": "x", "layers": [)" + lin + R"(], )" + decoder + "}"), "vae_decoder: (given) applies to a diffusion UNet"));
    CHECK(contains(err(unet + R"(, "vae_fp32": true})"), "vae_fp32: true needs a vae_decoder"));
    CHECK(contains(err(unet + R"(, "vae_tiles": [{"h": 8, "w": 8, "count": 1}]})"), "vae_tiles"));
    CHECK(contains(err(unet + R"(, "vae_decoder": 3})"), "vae_decoder"));
    CHECK(contains(err(unet + R"(, "vae_decoder": {"name": "d", "layers": [)" + lin + R"(], "text_encoders": [)" + part + "]}}"),
                   "belongs to the pipeline's model"));
    CHECK(contains(err(unet + ", " + decoder + R"(, "vae_tiles": [{"h": 0, "w": 8, "count": 1}]})"), "vae_tiles[0].h"));
    CHECK(contains(err(unet + ", " + decoder + R"(, "vae_tiles": [{"h": 16, "w": 16, "count": 1}]})"), "larger than the decoder's latent (64 values)"));
    CHECK(contains(err(unet + ", " + decoder + R"(, "vae_tiles": [{"h": 1, "w": 1, "count": 1}]})"), "do not cover the decoder's latent"));
    CHECK(contains(err(unet + R"(, "text_encoders": [null]})"), "text_encoders[0]"));
    CHECK(contains(err(unet + R"(, "text_encoders": [{"name": "t", "layers": []}]})"), "layers: [] is empty"));
    const ImageModel piped = io::parse_image_model_json(unet + ", " + decoder + R"(, "vae_tiles": [{"h": 8, "w": 4, "count": 2}], "text_encoders": [)" + part + "]}");
    CHECK(piped.decoder.size() == 1);
    CHECK(piped.decoder_tiles.size() == 1);
    CHECK(piped.text_encoders.size() == 1);
    // A latent model: its input values and how reports name them; cross-attention and bias-free layers.
    const ImageModel latent = io::parse_image_model_json(R"J({"name": "tiny unet", "input_elements": 256, "input": "32 x 32 (8 x 8 latent)",
        "layers": [{"type": "conv", "out_pixels": 64, "in_channels": 4, "out_channels": 32, "kernel": 3, "norm_activation": false},
                   {"type": "linear", "tokens": 64, "in_features": 32, "out_features": 32, "bias": false},
                   {"type": "attention", "tokens": 64, "heads": 2, "head_dim": 16, "kv_tokens": 77},
                   {"type": "elementwise", "elements": 2048, "passes": 5, "kernels": 3, "saved": 2, "parameters": 64}]})J");
    CHECK(latent.input_elements == 256);
    CHECK(latent.image == "32 x 32 (8 x 8 latent)");
    CHECK(latent.parameters == 4 * 32 * 9 + 32 + 32 * 32 + 64);
    CHECK(latent.attentions[0].keys() == 77);
    CHECK(latent.forward_flops_per_sample() == 2.0 * 64 * 32 * 36 + 2.0 * 64 * 32 * 32 + 4.0 * 64 * 77 * 32);
    CHECK(contains(err(R"({"name": "x", "layers": [{"type": "linear", "in_features": 2, "out_features": 0}]})"), "layers[0].out_features: 0"));
    CHECK(contains(err(R"({"name": "x", "layers": [{"type": "linear", "in_features": 2, "out_features": 2, "gelu": true}]})"),
                   "layers[0].gelu"));
    CHECK(contains(err(R"({"name": "x", "layers": [{"type": "attention", "tokens": 4, "heads": 1, "head_dim": 4}]})"), "needs at least one conv or linear"));
    CHECK(contains(err(R"({"name": "x", "layers": [{"type": "linear", "in_features": 2, "out_features": 2}], "parameters": -5})"), "parameters"));
    CHECK(contains(err(R"({"name": "x", "layers": [{"type": "linear", "in_features": 2, "out_features": 2}], "fc_in": 2048})"), "fc_out"));
    CHECK(contains(err(R"({"name": "x", "layers": [{"type": "conv", "out_pixels": 1e9, "in_channels": 3, "out_channels": 3}]})"), "out_pixels"));
    CHECK(contains(err(R"({"name": "x", "layers": [{"type": "linear", "in_features": 2, "out_features": 2, "count": 2.5}]})"), "not a whole number"));
    CHECK(contains(err(R"({"name": "x", "layers": [{"type": "linear", "in_features": 2, "out_features": 2}]})" "\n{"), "m.json"));
    // More than 10,000 entries: refused before any is read (the CLI answers a 570 kB file in 0.1 s; the
    // library's own check is ImageModel::validate, tests/workload_test.cpp).
    std::string many = R"({"name": "x", "layers": [)";
    for (int i = 0; i < 10'001; ++i) many += i ? ",{}" : "{}";
    CHECK(contains(err(many + "]}"), "more than 10,000"));
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
      "shared_experts": 1, "moe_ffn_hidden": 2048, "first_dense_layers": 3, "expert_groups": 8, "groups_per_token": 4,
      "mla": {"q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
              "v_head_dim": 128}, "params": 671e9})";
    const auto m = io::parse_model_json(text);
    const std::string once = io::write_model_json(m);
    const std::string twice = io::write_model_json(io::parse_model_json(once));
    CHECK(once == twice);
    CHECK(contains(once, "\"kv_heads\": 128"));
    CHECK(contains(once, "\"first_dense_layers\": 3"));
    CHECK(contains(once, "\"expert_groups\": 8"));
    CHECK(m.moe->groups_per_token == 4);
    // Group-limited routing needs both counts, groups dividing the experts.
    auto err = [](const std::string& t) { return error_of([&] { (void)io::parse_model_json(t, "m.json"); }); };
    const std::string base = R"({"name": "x", "layers": 2, "hidden": 64, "heads": 4, "vocab": 10, "experts": 8, "experts_per_token": 2, )";
    CHECK(contains(err(base + R"("expert_groups": 3, "groups_per_token": 1})"), "expert_groups: 3 does not divide experts (8)"));
    CHECK(contains(err(base + R"("expert_groups": 4})"), "groups_per_token: 0 must be between 1 and expert_groups (4)"));
    CHECK(contains(err(base + R"("expert_groups": 4, "groups_per_token": 5})"), "groups_per_token: 5 must be between 1"));
    // Top-k must fit in the groups a token may use: 2 of 8 experts from 1 group of 1 cannot.
    CHECK(contains(err(base + R"("expert_groups": 8, "groups_per_token": 1})"), "experts_per_token: 2 is more than the 1 experts in groups_per_token (1)"));
    CHECK_NOTHROW((void)io::parse_model_json(base + R"("expert_groups": 4, "groups_per_token": 1})", "m.json"));
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
          "(known: embedding_norm, encoder, expert_groups, experts, experts_per_token, ffn_hidden, final_norm, first_dense_layers, "
          "gated_mlp, global_every, groups_per_token, head_dim, "
          "heads, hidden, kv_heads, layers, learned_positions, linear_bias, mla, moe_ffn_hidden, name, norm, "
          "params, pooler, qkv_bias, seq_len, shared_experts, sliding_window, tied_embeddings, token_types, vocab)");
    // Sliding-window attention: the window's size is needed, and a pattern of 1 would be no window.
    CHECK(err(R"({"name": "x", "layers": 2, "hidden": 64, "heads": 4, "vocab": 10, "global_every": 2})") ==
          "m.json:1:1: model \"x\": sliding_window: is missing (global_every needs the window's size in tokens)");
    CHECK(err(R"({"name": "x", "layers": 2, "hidden": 64, "heads": 4, "vocab": 10, "sliding_window": 0})") ==
          "m.json:1:67: model \"x\": sliding_window: 0 must be > 0");
    CHECK(err(R"({"name": "x", "layers": 2, "hidden": 64, "heads": 4, "vocab": 10, "sliding_window": 8,
                 "global_every": 1})")
              .ends_with("global_every: 1 must be 0 (every layer windowed) or at least 2 (every n-th layer global; 1 would be no window)"));
    CHECK(err(R"({"name": "x", "layers": 2, "hidden": 64, "heads": 4, "vocab": 10, "encoder": true, "sliding_window": 8})")
              .ends_with("sliding_window: 8 is modelled for causal decoders only, not an encoder"));
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
    CHECK(err(R"([1, 2])") == "m.json:1:1: model: [...] is an array; expected an object {...}");
    CHECK(error_of<ParseError>([] { (void)io::parse_model_json("{\"name\": \"x\",\n  \"layers\": 2,,}", "m.json"); })
              .starts_with("m.json:2:15: bad JSON: syntax error while parsing object key - unexpected ','"));
    CHECK(error_of<ParseError>([] { (void)io::parse_model_json("{\"name\": \"x\", \"name\": \"y\"}", "m.json"); }) ==
          "m.json:1:15: name: \"name\" is a duplicate key in the same object");
    CHECK(error_of([] { (void)io::load_model_file("/nonexistent/model.json"); }) ==
          "/nonexistent/model.json: cannot open the file");
  }

  TEST_CASE("catalog: the whole built-in catalog round-trips losslessly") {
    const Catalog& builtin = Catalog::builtin();
    const std::string once = io::write_catalog_json(builtin);
    // Into an empty catalog: every entry is new, so every required field must be in the export.
    const Catalog copy = io::read_catalog_json(once, "export.json");
    CHECK(copy.gpus().size() == builtin.gpus().size());
    CHECK(copy.cloud_offers().size() == builtin.cloud_offers().size());
    CHECK(copy.systems().size() == builtin.systems().size());
    CHECK(io::write_catalog_json(copy) == once);
    // Over the built-in catalog: every entry is a patch that changes nothing.
    Catalog over = Catalog::make_builtin();
    const auto summary = io::apply_catalog_json(over, once, "export.json");
    CHECK(summary.total_added() == 0);
    CHECK(summary.total_replaced() ==
          static_cast<int>(builtin.gpus().size() + builtin.cpus().size() + builtin.memory_modules().size() +
                           builtin.storage_devices().size() + builtin.power_supplies().size() +
                           builtin.chassis().size() + builtin.network_adapters().size() + builtin.motherboards().size() + builtin.systems().size() +
                           builtin.cloud_offers().size()));
    CHECK(io::write_catalog_json(over) == once);
    // Exact values survive, not only the text: bandwidth, rates and money.
    for (std::size_t i = 0; i < builtin.gpus().size(); ++i) {
      const GpuSpec& a = builtin.gpus()[i];
      const GpuSpec& b = copy.gpus()[i];
      CAPTURE(a.id);
      CHECK(a.memory.value() == b.memory.value());
      CHECK(a.memory_bandwidth.value() == b.memory_bandwidth.value());
      for (Precision p : all_precisions) CHECK(a.dense.at(p) == b.dense.at(p));
      CHECK(a.street_price.has_value() == b.street_price.has_value());
      if (a.street_price) CHECK(a.street_price->amount == b.street_price->amount);
    }
    for (std::size_t i = 0; i < builtin.cloud_offers().size(); ++i) {
      CHECK(builtin.cloud_offers()[i].on_demand == copy.cloud_offers()[i].on_demand);
      CHECK(builtin.cloud_offers()[i].monthly == copy.cloud_offers()[i].monthly);
    }
  }

  TEST_CASE("catalog: quantities as text with units, money as decimal strings") {
    const Json j = io::catalog_to_json(Catalog::builtin());
    CHECK(j["format"] == "capplan-catalog");
    CHECK(j["version"] == 1);
    const Json& h100 = j["gpus"][0];
    REQUIRE(h100["id"] == "h100-sxm");
    CHECK(h100["memory"] == "80 GB");
    CHECK(h100["memory_bandwidth"] == "3.35 TB/s");
    CHECK(h100["tdp"] == "700 W");
    CHECK(h100["dense"]["bf16"] == "989.5 TFLOP/s");
    for (const Json& o : j["cloud_offers"]) {
      for (const char* k : {"on_demand", "spot", "reserved", "monthly"}) {
        if (o.contains(k)) CHECK(o[k].is_string());
      }
    }
    // The shortest exact text: decimal or binary prefixes, never a rounded figure.
    CHECK(io::quantity_json(DataSize::from_value(80e9)) == "80 GB");
    CHECK(io::quantity_json(DataSize::from_value(1152.0 * 1024 * 1024 * 1024)) == "1152 GiB");
    CHECK(io::quantity_json(Bandwidth::from_value(2039e9)) == "2039 GB/s");
    CHECK(io::quantity_json(Power::from_value(0)) == "0 W");
    const double odd = 1.0 / 3.0 * 1e9;
    const Json q = io::quantity_json(DataSize::from_value(odd));
    if (q.is_string()) CHECK(parse<DataSize>(q.get<std::string>()).value() == odd);
    else CHECK(q.get<double>() == odd);
  }

  TEST_CASE("catalog: an offer's minimum term is read, written, patched and removed with null") {
    Catalog c = Catalog::make_builtin();
    // A patch from an older price file: the reserved price removed, the term not mentioned. It loads,
    // and the term it leaves binds nothing.
    io::apply_catalog_json(c, R"({"cloud_offers": [{"id": "aws-p5.48xlarge", "reserved": null}]})", "old.json");
    CHECK_FALSE(c.find_offer("aws-p5.48xlarge").has(PriceKind::reserved));
    // A term given as text with its unit, then removed with null.
    io::apply_catalog_json(c, R"({"cloud_offers": [{"id": "aws-p5.48xlarge", "reserved": "39.33", "min_term": "7 days"}]})", "week.json");
    REQUIRE(c.find_offer("aws-p5.48xlarge").min_term);
    CHECK(c.find_offer("aws-p5.48xlarge").min_term->value() == doctest::Approx(7 * 86400.0));
    CHECK(io::record_to_json(c.find_offer("aws-p5.48xlarge"))["min_term"] == "7 days");
    io::apply_catalog_json(c, R"({"cloud_offers": [{"id": "aws-p5.48xlarge", "reserved": null, "min_term": null}]})", "none.json");
    CHECK_FALSE(c.find_offer("aws-p5.48xlarge").min_term);
    CHECK_FALSE(io::record_to_json(c.find_offer("aws-p5.48xlarge")).contains("min_term"));
    // Bad terms name the field.
    CHECK_THROWS_WITH_AS(io::apply_catalog_json(c, R"({"cloud_offers": [{"id": "do-mi350x", "min_term": "soon"}]})", "bad.json"),
                         doctest::Contains("min_term"), InputError);
    CHECK_THROWS_WITH_AS(io::apply_catalog_json(c, R"({"cloud_offers": [{"id": "do-mi350x", "min_term": "-1 day"}]})", "bad.json"),
                         doctest::Contains("min_term"), InputError);
  }

  TEST_CASE("catalog: add a GPU and a cloud offer for it; numbers in canonical units") {
    Catalog c = Catalog::make_builtin();
    Json g = valid_gpu();
    g["memory"] = 48e9;             // bytes
    g["memory_bandwidth"] = 960e9;  // B/s
    g["aliases"] = Json::array({"MyGPU"});
    g["street_price"] = price("4999.99");
    Json f = Json::object();
    f["gpus"] = Json::array({g});
    f["cloud_offers"] = Json::array({Json::parse(R"({"id": "cloudy-my-gpu", "provider": "Cloudy",
        "instance_type": "my.4x", "gpu_count": 4, "gpu_id": "my-gpu", "currency": "CNY",
        "monthly": "12000", "on_demand": "25.2 CNY/h", "source": "price page", "as_of": "2026-11-01"})")});
    const auto summary = io::apply_catalog_json(c, f.dump(2), "mine.json");
    CHECK(summary.added.at("gpus") == 1);
    CHECK(summary.added.at("cloud_offers") == 1);
    const GpuSpec& mine = c.find_gpu("mygpu");
    CHECK(mine.memory.value() == 48e9);
    CHECK(format(*mine.dense.at(Precision::bf16)) == "181 TFLOP/s");
    CHECK(mine.street_price->amount == Money("4999.99", Currency::USD));
    const CloudOffer& o = c.find_offer("cloudy-my-gpu");
    CHECK(o.monthly == Money("12000", Currency::CNY));
    CHECK(o.per_gpu_hour(PriceKind::on_demand) == MoneyRate("6.3", Currency::CNY));
    CHECK(c.offers_for_gpu("My GPU 48GB").size() == 1);
  }

  TEST_CASE("catalog: a price file overrides prices without touching other fields") {
    Catalog c = Catalog::make_builtin();
    const GpuSpec before = c.find_gpu("h100-sxm");
    const std::string prices = R"({
  "gpus": [
    {"id": "h100-sxm", "street_price": {"amount": "25000", "currency": "USD", "high": "30000",
                                        "as_of": "2026-11-01", "source": "reseller quote"}}
  ],
  "cloud_offers": [
    {"id": ")" + c.cloud_offers().front().id + R"(", "on_demand": "12.34", "as_of": "2026-11-20"}
  ]
})";
    const auto summary = io::apply_catalog_json(c, prices, "prices.json");
    CHECK(summary.total_added() == 0);
    CHECK(summary.total_replaced() == 2);
    const GpuSpec& after = c.find_gpu("h100-sxm");
    REQUIRE(after.street_price.has_value());
    CHECK(after.street_price->amount == Money("25000", Currency::USD));
    CHECK(after.street_price->high == Money("30000", Currency::USD));
    CHECK(after.memory_bandwidth.value() == before.memory_bandwidth.value());
    CHECK(after.name == before.name);
    CHECK(c.cloud_offers().front().on_demand->amount() == Decimal("12.34"));
    CHECK(c.cloud_offers().front().as_of == "2026-11-20");
    // null removes an optional value.
    io::apply_catalog_json(c, R"({"gpus": [{"id": "h100-sxm", "street_price": null}]})");
    CHECK_FALSE(c.find_gpu("h100-sxm").street_price.has_value());
  }

  // A new member is one line in its struct and its name in BOOST_DESCRIBE_STRUCT: reading,
  // writing, patching and removing it (and Python, test_records.py) need nothing else.
  TEST_CASE("catalog: GpuSpec::usable_memory, a member with no code of its own") {
    Catalog c = Catalog::make_builtin();
    GpuSpec unsourced = c.find_gpu("mi325x");
    unsourced.usable_memory.reset();
    CHECK_FALSE(io::record_to_json(unsourced).contains("usable_memory"));  // absent: no key
    CHECK(io::record_to_json(c.find_gpu("mi325x"))["usable_memory"] == "262128 MiB");  // amd-smi, AMD's install guide
    CHECK(io::record_to_json(c.find_gpu("h200-sxm"))["usable_memory"] == "143771 MiB");  // nvidia-smi, in-house
    CHECK(io::record_to_json(c.find_gpu("h100-sxm"))["usable_memory"] == "81559 MiB");  // present: as written
    io::apply_catalog_json(c, gpu_with([](Json& g) { g["usable_memory"] = "45 GiB"; }), "mine.json");
    const GpuSpec& mine = c.find_gpu("my-gpu");
    REQUIRE(mine.usable_memory.has_value());
    CHECK(mine.usable_memory->value() == 45.0 * 1024 * 1024 * 1024);
    const Json j = io::record_to_json(mine);
    CHECK(j["usable_memory"] == "45 GiB");
    std::vector<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
    const auto at = std::find(keys.begin(), keys.end(), "usable_memory");
    REQUIRE(at != keys.end());
    CHECK(*(at - 1) == "memory");  // where the struct declares it
    // A patch sets it, null removes it, a wrong unit names it.
    io::apply_catalog_json(c, R"({"gpus": [{"id": "h100-sxm", "usable_memory": 85520809984}]})", "patch.json");
    CHECK(c.find_gpu("h100-sxm").usable_memory->value() == 85520809984.0);
    io::apply_catalog_json(c, R"({"gpus": [{"id": "h100-sxm", "usable_memory": null}]})", "patch.json");
    CHECK_FALSE(c.find_gpu("h100-sxm").usable_memory.has_value());
    CHECK(contains(error_of<ParseError>([&] {
                     io::apply_catalog_json(c, R"({"gpus": [{"id": "h100-sxm", "usable_memory": "80 W"}]})", "patch.json");
                   }),
                   "gpu \"h100-sxm\": usable_memory: \"80 W\" has an unknown data size unit"));
  }

  // docs/catalog-files.md lists each section's fields by hand; they must be the records'
  // described members, in their order, with the required ones in bold.
  TEST_CASE("docs/catalog-files.md lists every described field, required ones in bold") {
    const auto doc = std::filesystem::path(__FILE__).parent_path().parent_path() / "docs" / "catalog-files.md";
    std::ifstream in(doc);
    REQUIRE(in.good());
    std::map<std::string, std::string> rows;  // section -> its fields cell
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with("| `") && line.ends_with(" |")) {
        const auto end = line.find("` | ");
        if (end != std::string::npos) rows[line.substr(3, end - 3)] = line.substr(end + 4, line.size() - end - 6);
      }
    }
    // The fields as the page writes them: "**`id`**, `aliases`, **`vendor`** (`nvidia`, ...)" ->
    // **id, aliases, **vendor; text in parentheses (enumerator names, examples) left out.
    auto listed = [](const std::string& cell) {
      std::string flat;
      int depth = 0;
      for (char ch : cell) {
        if (ch == '(') ++depth;
        else if (ch == ')') --depth;
        else if (depth == 0) flat += ch;
      }
      std::vector<std::string> out;
      for (std::size_t at = flat.find('`'); at != std::string::npos; at = flat.find('`', at)) {
        const auto close = flat.find('`', at + 1);
        const bool bold = at >= 2 && flat.compare(at - 2, 2, "**") == 0;
        out.push_back((bold ? "**" : "") + flat.substr(at + 1, close - at - 1));
        at = close + 1;
      }
      return out;
    };
    auto described = [](const auto& fields) {
      std::vector<std::string> out;
      for (const auto& f : fields) {
        const std::string k(f.key);
        if (k != "source" && k != "as_of" && k != "note") out.push_back((f.required ? "**" : "") + k);  // said once for all
      }
      return out;
    };
    CHECK(listed(rows["gpus"]) == described(io::fields<GpuSpec>()));
    CHECK(listed(rows["cpus"]) == described(io::fields<CpuSpec>()));
    CHECK(listed(rows["memory_modules"]) == described(io::fields<MemoryModule>()));
    CHECK(listed(rows["storage_devices"]) == described(io::fields<StorageDevice>()));
    CHECK(listed(rows["power_supplies"]) == described(io::fields<PowerSupply>()));
    CHECK(listed(rows["chassis"]) == described(io::fields<Chassis>()));
    CHECK(listed(rows["network_adapters"]) == described(io::fields<NetworkAdapter>()));
    CHECK(listed(rows["systems"]) == described(io::fields<SystemSpec>()));
    CHECK(listed(rows["cloud_offers"]) == described(io::fields<CloudOffer>()));
  }

  TEST_CASE("catalog: files on disk") {
    // A fresh directory of its own (mkdtemp): the suite runs twice at once under CTest (unit.catalog_io
    // and unit.all), so a fixed name would let the two runs overwrite each other's files.
    std::string pattern = (std::filesystem::temp_directory_path() / "capplan-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    const std::filesystem::path dir = pattern;
    const std::string path = (dir / "catalog.json").string();
    io::save_catalog_file(Catalog::builtin(), path);
    Catalog c;
    io::load_catalog_file(c, path);
    CHECK(io::write_catalog_json(c) == io::write_catalog_json(Catalog::builtin()));
    const std::string model = (dir / "model.json").string();
    io::save_model_file(find_model("llama3.1-8b").transformer(), model);
    CHECK(io::load_model_file(model).hidden == 4096);
    std::filesystem::remove_all(dir);
    CHECK(error_of([] {
            Catalog k;
            io::load_catalog_file(k, "/nonexistent/catalog.json");
          }) == "/nonexistent/catalog.json: cannot open the file");
  }

  TEST_CASE("catalog: malformed files give their own error, name the file, entry and field, and change nothing") {
    // 1. Bad JSON: line and column from nlohmann's byte offset.
    CHECK(load_error<ParseError>("{\n  \"gpus\": [\n    {\"id\": \"x\",, }\n  ]\n}") ==
          "user.json:3:16: bad JSON: syntax error while parsing object key - unexpected ','; expected string literal");
    // 2. Truncated file.
    CHECK(load_error<ParseError>("{\"gpus\": [") ==
          "user.json:1:11: bad JSON: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");
    // 3. Empty file.
    CHECK(load_error<ParseError>("") ==
          "user.json:1:1: bad JSON: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");
    // 4. Invalid UTF-8.
    CHECK(load_error<ParseError>("{\"gpus\": [{\"id\": \"\xff\"}]}")
              .starts_with("user.json:1:19: bad JSON: syntax error while parsing value - invalid string: ill-formed UTF-8 byte"));
    // 5. A number beyond double.
    CHECK(load_error<ParseError>("{\"gpus\": [{\"id\": \"my-gpu\", \"tdp\": 1e400}]}") ==
          "user.json:1:40: bad JSON: number overflow parsing '1e400'");
    // 6. Nesting deeper than 64 levels.
    CHECK(load_error<ParseError>(std::string(100, '[') + std::string(100, ']')) ==
          "user.json:1:65: nesting: 65 levels of nested objects and arrays: at most 64 are allowed");
    // 7. Duplicate key.
    CHECK(load_error<ParseError>("{\"gpus\": [], \"gpus\": []}") ==
          "user.json:1:14: gpus: \"gpus\" is a duplicate key in the same object");
    // 8. The root is not an object.
    CHECK(load_error("[]") == "user.json:1:1: catalog: [...] is an array; expected an object {...}");
    // 9. Unknown section, with a suggestion.
    CHECK(load_error(R"({"gpu": []})") ==
          "user.json:1:2: catalog: gpu: \"gpu\" is not a known key; did you mean \"gpus\"? (known: chassis, "
          "cloud_offers, cpus, format, gpus, memory_modules, motherboards, network_adapters, power_supplies, storage_devices, "
          "systems, version)");
    // 10. A section that is not an array.
    CHECK(load_error(R"({"gpus": {}})") ==
          "user.json:1:2: catalog: gpus: {...} is an object; expected an array of entries [{...}, ...]");
    // 11. An entry that is not an object.
    CHECK(load_error(R"({"gpus": [42]})") == "user.json:1:2: gpus[0]: 42 is an integer; expected an object {...}");
    // 12. No id.
    CHECK(load_error(gpu_with([](Json& g) { g.erase("id"); })) == "user.json:3:5: gpus[0]: id: is missing (a string)");
    // 13. An id of the wrong type.
    CHECK(load_error(gpu_with([](Json& g) { g["id"] = 7; })) ==
          "user.json:4:7: gpus[0]: id: 7 is an integer; expected a string");
    // 14. An id with characters ids may not have.
    CHECK(load_error(gpu_with([](Json& g) { g["id"] = "My GPU!"; })) ==
          "user.json:4:7: gpu \"My GPU!\": id: \"My GPU!\" must use lower-case letters, digits, '-', '.' and '_' "
          "only (gpu)");
    // 15. Duplicate id in one file.
    {
      Json f = Json::object();
      f["gpus"] = Json::array({valid_gpu(), valid_gpu()});
      CHECK(load_error(f.dump(2)) ==
            "user.json:18:7: gpu \"my-gpu\": id: \"my-gpu\" is a duplicate id: gpus[0] in this file has the "
            "same id (user.json:3:5)");
    }
    // 16. A required field missing from a new entry.
    CHECK(load_error(gpu_with([](Json& g) { g.erase("memory"); })) ==
          "user.json:3:5: gpu \"my-gpu\": memory: is missing (a quantity with a unit)");
    // 17. Unknown key, with a suggestion.
    CHECK(load_error(gpu_with([](Json& g) { g["memroy"] = "48 GB"; }))
              .starts_with("user.json:16:7: gpu \"my-gpu\": memroy: \"memroy\" is not a known key; did you mean "
                           "\"memory\"? (known: aliases, architecture, as_of, board_gpus, chip_link_bandwidth, chip_link_domain, cooling, dense, "));
    // 18. Wrong unit.
    CHECK(load_error<ParseError>(gpu_with([](Json& g) { g["memory"] = "48 W"; })) ==
          "user.json:8:7: gpu \"my-gpu\": memory: \"48 W\" has an unknown data size unit \"W\"; known units: B, kB, "
          "MB, GB, TB, PB, EB, KiB, MiB, GiB, TiB, PiB, KB, byte, bytes, bit, bits");
    // 19. No unit.
    CHECK(load_error<ParseError>(gpu_with([](Json& g) { g["memory_bandwidth"] = "960"; }))
              .starts_with("user.json:9:7: gpu \"my-gpu\": memory_bandwidth: \"960\" has no unit; write one of: B/s, "));
    // 20. Negative value, as text and as a number.
    CHECK(load_error<ParseError>(gpu_with([](Json& g) { g["memory"] = "-48 GB"; })) ==
          "user.json:8:7: gpu \"my-gpu\": memory: \"-48 GB\" is negative; a data size must be >= 0");
    CHECK(load_error(gpu_with([](Json& g) { g["tdp"] = -300; })) ==
          "user.json:13:7: gpu \"my-gpu\": tdp: -300 is negative; a power must be >= 0");
    // 21. Absurd value (the record's bound).
    CHECK(load_error(gpu_with([](Json& g) { g["memory"] = "48 PB"; })) ==
          "user.json:8:7: memory: 48 PB is absurd (more than 10 TB) (gpu \"my-gpu\")");
    // 22. Wrong JSON type for a quantity.
    CHECK(load_error(gpu_with([](Json& g) { g["memory"] = true; })) ==
          "user.json:8:7: gpu \"my-gpu\": memory: true is a boolean; expected a data size: text with a unit such as "
          "\"80 GB\" or a number in B");
    // 23. Unknown enumerator.
    CHECK(load_error(gpu_with([](Json& g) { g["form_factor"] = "sxm5"; })) ==
          "user.json:7:7: gpu \"my-gpu\": form_factor: \"sxm5\" is not one of: sxm, oam, pcie, consumer, soc, cloud");
    // 24. Unknown precision in the dense rates.
    CHECK(load_error(gpu_with([](Json& g) { g["dense"]["fp128"] = "1 TFLOP/s"; })) ==
          "user.json:12:9: gpu \"my-gpu\": dense.fp128: \"fp128\" is not a known key; did you mean \"fp16\"? "
          "(known: bf16, fp16, fp32, fp4, fp6, fp64, fp8, int4, int8, tf32)");
    // 25. Whole numbers: a fraction, a negative count, a bound, a huge value.
    CHECK(load_error(gpu_with([](Json& g) { g["pcie_lanes"] = 16.5; })) ==
          "user.json:16:7: gpu \"my-gpu\": pcie_lanes: 16.5 is not a whole number");
    CHECK(load_error(gpu_with([](Json& g) { g["pcie_lanes"] = -1; })) ==
          "user.json:16:7: gpu \"my-gpu\": pcie_lanes: -1 is negative; it must be >= 0");
    CHECK(load_error(gpu_with([](Json& g) { g["pcie_lanes"] = 64; })) ==
          "user.json:16:7: pcie_lanes: 64 is outside 0..32 (gpu \"my-gpu\")");
    CHECK(load_error(gpu_with([](Json& g) { g["pcie_lanes"] = 1e20; })) ==
          "user.json:16:7: gpu \"my-gpu\": pcie_lanes: 1e+20 is absurd (more than 2147483647)");
    // 26. Bad date.
    CHECK(load_error(gpu_with([](Json& g) { g["as_of"] = "2026-13-01"; })) ==
          "user.json:15:7: gpu \"my-gpu\": as_of: \"2026-13-01\" has a month outside 1..12");
    // 27. Money as a binary floating-point number.
    Json p = price("1");
    p["amount"] = 2.49;
    CHECK(load_error(gpu_with([&](Json& g) { g["street_price"] = p; })) ==
          "user.json:17:9: gpu \"my-gpu\": street_price.amount: 2.49 is a JSON number with a fraction; write money as "
          "a decimal string such as \"2.49\" so that it stays exact");
    // 28. Money that is not an amount; without a currency; in an unknown currency; in another currency.
    CHECK(load_error(gpu_with([](Json& g) { g["street_price"] = price("cheap"); })) ==
          "user.json:17:9: gpu \"my-gpu\": street_price.amount: \"cheap\" is not an amount of money; write a decimal "
          "string such as \"2.49\"");
    p = price("4999");
    p.erase("currency");
    CHECK(load_error(gpu_with([&](Json& g) { g["street_price"] = p; })) ==
          "user.json:17:9: gpu \"my-gpu\": street_price.amount: \"4999\" has no currency; add \"currency\": \"USD\" "
          "or write the amount as \"4999 USD\"");
    p = price("4999");
    p["currency"] = "XYZ";
    CHECK(load_error(gpu_with([&](Json& g) { g["street_price"] = p; })) ==
          "user.json:18:9: gpu \"my-gpu\": street_price.currency: \"XYZ\" is not a known currency code (USD, EUR, "
          "CNY, GBP, JPY)");
    CHECK(load_error(gpu_with([](Json& g) { g["street_price"] = price("4999 EUR"); })) ==
          "user.json:17:9: gpu \"my-gpu\": street_price.amount: \"4999 EUR\" is in EUR but the entry's currency is USD");
    // 29. Negative money; a price without its source.
    CHECK(load_error(gpu_with([](Json& g) { g["street_price"] = price("-1"); })) ==
          "user.json:17:9: gpu \"my-gpu\": street_price.amount: -$1.00 is negative");
    p = price("1");
    p.erase("source");
    CHECK(load_error(gpu_with([&](Json& g) { g["street_price"] = p; })) ==
          "user.json:16:7: gpu \"my-gpu\": street_price.source: is missing (a string)");
    // 30. A name that already names another entry.
    CHECK(load_error(gpu_with([](Json& g) { g["aliases"] = Json::array({"H100 SXM"}); })) ==
          "user.json:16:7: aliases: \"H100 SXM\" already names gpu \"h100-sxm\"; names must be unique (gpu \"my-gpu\")");
    // 31. References to unknown ids (LookupError).
    CHECK(load_error<LookupError>(
              R"({"systems": [{"id": "box", "name": "Box", "parts": [{"kind": "gpu", "id": "nope-gpu", "count": 1}],
                  "topology": "single_gpu", "source": "x", "as_of": "2026-11-01"}]})") ==
          "user.json:1:43: parts.id: \"nope-gpu\" (system \"box\") is not a catalog id");
    CHECK(load_error<LookupError>(R"({"cloud_offers": [{"id": "cloudy-1", "provider": "Cloudy", "instance_type": "c1",
          "gpu_count": 1, "gpu_id": "nope", "currency": "USD", "on_demand": "1.5", "source": "x", "as_of": "2026-11-01"}]})") ==
          "user.json:2:27: gpu_id: \"nope\" (cloud offer \"cloudy-1\") is not a catalog id");
    // 32. A system part of an unknown kind; a topology that does not fit the GPUs.
    CHECK(load_error(R"({"systems": [{"id": "box", "name": "Box", "parts": [{"kind": "gpus", "id": "h100-sxm"}],
          "topology": "single_gpu", "source": "x", "as_of": "2026-11-01"}]})") ==
          "user.json:1:54: system \"box\": parts[0].kind: \"gpus\" is not one of: gpu, cpu, memory, storage, psu, "
          "chassis, network, motherboard");
    CHECK(load_error(R"({"systems": [{"id": "box", "name": "Box", "parts": [{"kind": "gpu", "id": "h100-sxm", "count": 2}],
          "topology": "single_gpu", "source": "x", "as_of": "2026-11-01"}]})") ==
          "user.json:2:11: topology: single GPU cannot describe 2 GPUs per node (system \"box\")");
    // 33. Cloud offers: no price at all; a rate in another currency.
    CHECK(load_error(offer("")) ==
          "user.json:1:19: on_demand: none no price given (on_demand, spot, reserved or monthly) (cloud offer "
          "\"cloudy-1\")");
    CHECK(load_error(offer(R"(, "on_demand": "2.49 EUR/h")")) ==
          "user.json:2:93: cloud offer \"cloudy-1\": on_demand: \"2.49 EUR/h\" is in EUR but the entry's currency is USD");
    // 34. A patch may not remove a required field.
    CHECK(load_error(R"({"gpus": [{"id": "h100-sxm", "memory": null}]})") ==
          "user.json:1:30: gpu \"h100-sxm\": memory: null cannot be removed: the field is required");
    // 35. Another format or version.
    CHECK(load_error(R"({"format": "other"})") == "user.json:1:2: catalog: format: \"other\" is not \"capplan-catalog\"");
    CHECK(load_error(R"({"version": 2})") == "user.json:1:2: catalog: version: 2 is not a version this capplan reads (1)");
  }

  TEST_CASE("JSON documents: a long array of objects and an object of many keys read in linear time") {
    // nlohmann's callback parser scanned the enclosing array at the end of every object (quadratic:
    // a 900 kB model file of empty objects took minutes); the SAX builder appends. A regression
    // makes this test run for hours instead of a fraction of a second.
    std::string many = R"({"a": [)";
    for (int i = 0; i < 50'000; ++i) many += i ? ",{}" : "{}";
    const io::JsonDocument doc = io::JsonDocument::parse(many + "]}", "many.json");
    CHECK(doc.root().at("a").size() == 50'000);
    CHECK(doc.where("/a/49999") == "many.json:1:" + std::to_string(8 + 3 * 49'999));
    std::string keys = "{";
    for (int i = 0; i < 20'000; ++i) keys += (i ? ",\"k" : "\"k") + std::to_string(i) + "\": " + std::to_string(i);
    const io::JsonDocument kd = io::JsonDocument::parse(keys + "}", "keys.json");
    REQUIRE(kd.root().size() == 20'000);
    CHECK(kd.root().begin().key() == "k0");  // the file's order
    CHECK(kd.root().at("k19999") == 19'999);
    CHECK(contains(error_of<ParseError>([] { (void)io::JsonDocument::parse(R"({"a": 1, "a": 2})", "dup.json"); }), "dup.json:1:10: a: \"a\" is a duplicate key"));
  }

  TEST_CASE("the fuzzing seed files are what their names say") {
    const auto dir = std::filesystem::path(__FILE__).parent_path().parent_path() / "fuzz" / "corpus";
    REQUIRE(std::filesystem::is_directory(dir));
    int n = 0;
    for (const auto& f : std::filesystem::directory_iterator(dir)) {
      const std::string name = f.path().filename().string();
      CAPTURE(name);
      std::ifstream in(f.path(), std::ios::binary);
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const bool bad = contains(name, "_bad");
      ++n;
      if (name.starts_with("catalog_")) {
        Catalog c = Catalog::make_builtin();
        if (bad) CHECK_THROWS_AS(io::apply_catalog_json(c, text, name), InputError);
        else CHECK_NOTHROW(io::apply_catalog_json(c, text, name));
      } else if (name.starts_with("image_model_")) {
        if (bad) CHECK_THROWS_AS((void)io::parse_image_model_json(text, name), InputError);
        else CHECK_NOTHROW((void)io::parse_image_model_json(text, name));
      } else if (name.starts_with("model_")) {
        if (bad) CHECK_THROWS_AS((void)io::parse_model_json(text, name), InputError);
        else CHECK_NOTHROW((void)io::parse_model_json(text, name));
      } else if (name.starts_with("prices_")) {  // price lists: prices_<format>[_bad_<what>].<ext>
        const std::string format = name.substr(7, name.find_first_of("_.", 7) - 7);
        const auto pf = capplan::detail::parse_enum<io::PriceFormat>(format, "format");
        if (bad) CHECK_THROWS_AS((void)io::import_prices(pf, text, name, Catalog::builtin()), InputError);
        else CHECK_NOTHROW((void)io::import_prices(pf, text, name, Catalog::builtin()));
      } else {
        FAIL("unexpected seed file");
      }
    }
    CHECK(n >= 8);
  }

  TEST_CASE("the JSON examples in docs/catalog-files.md load") {
    const auto doc = std::filesystem::path(__FILE__).parent_path().parent_path() / "docs" / "catalog-files.md";
    std::ifstream in(doc);
    REQUIRE(in.good());
    std::string line, block;
    bool inside = false;
    int loaded = 0;
    Catalog c = Catalog::make_builtin();
    while (std::getline(in, line)) {
      if (!inside && line == "```json") {
        inside = true;
        block.clear();
      } else if (inside && line == "```") {
        inside = false;
        CAPTURE(block);
        if (contains(block, "...")) continue;  // the layout sketch
        if (contains(block, "\"layers\"") && io::is_image_model_json(Json::parse(block))) {
          // The image model example is examples/models/vit-s16.json, which the CLI goldens run.
          const ImageModel m = io::parse_image_model_json(block, "docs");
          const auto example = std::filesystem::path(__FILE__).parent_path().parent_path() / "examples" / "models" / "vit-s16.json";
          CHECK(io::image_model_to_json(m) == io::image_model_to_json(io::load_image_model_file(example.string())));
          CHECK(m.parameters == 22'050'664.0);  // timm vit_small_patch16_224 param_count 22.05 M
          CHECK(m.layer_parameters() + 198.0 * 384 == m.parameters);
        } else if (contains(block, "\"layers\"")) {
          CHECK_NOTHROW((void)io::parse_model_json(block, "docs"));
        } else {
          CHECK_NOTHROW(io::apply_catalog_json(c, block, "docs"));
        }
        ++loaded;
      } else if (inside) {
        block += line + "\n";
      }
    }
    CHECK(loaded == 5);
    CHECK(c.find_gpu("MyGPU").id == "my-gpu");
    CHECK(c.find_gpu("h100-sxm").street_price->amount == Money("25000", Currency::USD));
    // The price file for the memory (replacing the built-in eBay range) and the unpriced chassis makes the A100 + EPYC
    // 7763 build's parts price known, and inside the source material's $20.4k-28.6k (17,019.97-24,179.97 of the other
    // priced parts + 8 x 300 + 1,000).
    const SystemPrice b = c.parts_price(c.find_system("build-a100-80gb-epyc-7763"));
    REQUIRE(b.known());
    CHECK(*b.low == Money("20419.97", Currency::USD));
    CHECK(*b.high == Money("27579.97", Currency::USD));
  }

  TEST_CASE("catalog: an error in a later entry leaves the catalog unchanged") {
    Catalog c = Catalog::make_builtin();
    Json bad = valid_gpu();
    bad["id"] = "my-gpu-2";
    bad["name"] = "My GPU 2";
    bad["tdp"] = "300 XW";
    Json f = Json::object();
    f["gpus"] = Json::array({valid_gpu(), bad});
    CHECK_THROWS_AS(io::apply_catalog_json(c, f.dump()), ParseError);
    CHECK(c.gpus().size() == Catalog::builtin().gpus().size());
    CHECK_THROWS_AS((void)c.find_gpu("my-gpu"), LookupError);
  }
}

#endif  // CAPPLAN_HAVE_IO

TEST_SUITE("catalog_io") {
  TEST_CASE("catalog import: AWS, Azure and CSV price lists become dated offers that load back as a catalog file") {
    const auto dir = std::filesystem::path(__FILE__).parent_path() / "cli" / "data" / "prices";
    const Catalog& base = Catalog::builtin();
    const auto import = [&](io::PriceFormat f, const char* file) {
      const std::string path = (dir / file).string();
      return io::import_prices(f, io::JsonDocument::read_text_file(path), path, base);
    };
    // AWS: Linux, shared tenancy, no pre-installed software; the Windows p5 and the GPU-less c5 are left out.
    const io::PriceImport aws = import(io::PriceFormat::aws, "aws-ec2-sample.json");
    REQUIRE(aws.offers.size() == 2);
    // The built-in offer for the same instance and region keeps its id: loading the file refreshes it.
    CHECK(aws.offers[0].id == "aws-p5.48xlarge");
    CHECK(aws.offers[0].gpu_id == "h100-sxm");
    CHECK(aws.offers[0].gpu_count == 8);
    CHECK(to_json_string(*aws.offers[0].on_demand) == "55.04");  // the built-in aws-p5.48xlarge's figure
    CHECK(aws.offers[0].on_demand->amount() == base.find_offer("aws-p5.48xlarge").on_demand->amount());
    CHECK(aws.offers[0].as_of == "2026-11-01");
    // A price feed says nothing of the network between instances: the built-in offer's stays.
    CHECK(aws.offers[0].network.value() == doctest::Approx(3200e9 / 8));
    CHECK(aws.offers[0].network_kind == InstanceNetwork::efa);
    CHECK(aws.offers[1].gpu_id == "l4");
    REQUIRE(aws.skipped.size() == 2);
    // The offer file holds on-demand prices only: the refreshed offer's Capacity Block price is not
    // carried under the new date, and said.
    CHECK(aws.skipped[0] == "aws-p5.48xlarge: imported without the catalog's reserved price: the AWS offer file holds on-demand prices only");
    CHECK_FALSE(aws.offers[0].reserved);
    CHECK(aws.skipped[1].find("c5.large") != std::string::npos);
    // Azure: on-demand and Spot join one offer; a reservation is an offer of its own (its term's price
    // over its hours); Windows and GPU-less sizes are left out.
    const io::PriceImport az = import(io::PriceFormat::azure, "azure-retail-sample.json");
    REQUIRE(az.offers.size() == 3);
    const CloudOffer& reservation = az.offers[1];  // in the file's order
    CHECK(reservation.id == "azure-standard-nd96isr-h100-v5-1-year-reservation-eastus");
    CHECK(reservation.reserved == MoneyRate(Decimal(500000) / Decimal(8760), Currency::USD));
    REQUIRE(reservation.min_term);
    CHECK(reservation.min_term->value() == doctest::Approx(scale::year));
    CHECK_FALSE(reservation.on_demand);
    CHECK(az.offers[0].id == "azure-nd96isr-h100-v5");  // the built-in one, refreshed
    // with the built-in's reserved price (a 1-year term) from the import's 1-year reservation
    CHECK(az.offers[0].reserved == reservation.reserved);
    REQUIRE(az.offers[0].min_term);
    CHECK(az.offers[0].min_term->value() == doctest::Approx(scale::year));
    CHECK(az.offers[2].id == "azure-standard-nc24ads-a100-v4-eastus");  // new: named by provider, size and region
    CHECK(az.offers[2].instance_type == "Standard_NC24ads_A100_v4 (eastus)");
    CHECK(to_json_string(*az.offers[0].on_demand) == "98.32");
    CHECK(to_json_string(*az.offers[0].spot) == "39.328");
    CHECK(az.offers[0].as_of == "2026-11-05");  // the latest of its prices
    CHECK(az.offers[2].gpu_id == "a100-pcie-80gb");
    CHECK(az.offers[0].network_kind == InstanceNetwork::infiniband);  // the built-in record's
    CHECK(az.offers[2].network.value() == 0);                         // a new offer: not recorded
    CHECK(az.skipped.size() == 1);
    // CSV: quoted fields with commas and quotes, a monthly CNY quote.
    const io::PriceImport csv = import(io::PriceFormat::csv, "marketplace-sample.csv");
    REQUIRE(csv.offers.size() == 2);
    CHECK(csv.offers[0].provider == "A local integrator, quote");
    CHECK(csv.offers[0].source == "quote received 2026-11-20, \"monthly, 3-month minimum\"");
    CHECK(csv.offers[0].currency == Currency::CNY);
    CHECK(to_json_string(*csv.offers[0].monthly) == "1800");
    CHECK(to_json_string(*csv.offers[1].spot) == "12");
    // Each import loads back over the built-in catalog and exports the same offers.
    for (const io::PriceImport* r : {&aws, &az, &csv}) {
      Catalog c = base;
      const io::CatalogLoadSummary sum = io::apply_catalog_json(c, io::write_offers_json(r->offers), "imported.json");
      CHECK(sum.total_added() + sum.total_replaced() == static_cast<int>(r->offers.size()));
      for (const CloudOffer& o : r->offers) CHECK(io::record_to_json(c.find_offer(o.id)) == io::record_to_json(o));
    }
  }

  TEST_CASE("catalog import: bad price lists name the file and the line or JSON position") {
    const Catalog& base = Catalog::builtin();
    const auto csv = [&](const std::string& text) { return io::import_price_csv(text, "p.csv", base); };
    const std::string head = "id,provider,instance_type,gpu_id,gpu_count,currency,on_demand,spot,reserved,monthly,as_of,source\n";
    CHECK_THROWS_WITH_AS(csv(""), doctest::Contains("p.csv: is empty"), InputError);
    CHECK_THROWS_WITH_AS(csv("id,provider\n"), doctest::Contains("p.csv:1: the header has no column \"instance_type\""), InputError);
    CHECK_THROWS_WITH_AS(csv(head + "a,P,i,h100-sxm,1,USD\n"), doctest::Contains("p.csv:2: has 6 fields"), InputError);
    CHECK_THROWS_WITH_AS(csv(head + "a,P,i,h100-sxm,0,USD,2,,,,2026-11-01,s\n"), doctest::Contains("p.csv:2: gpu_count"), InputError);
    CHECK_THROWS_WITH_AS(csv(head + "a,P,i,h100-sxm,1,USD,-2,,,,2026-11-01,s\n"), doctest::Contains("p.csv:2: "), InputError);
    CHECK_THROWS_WITH_AS(csv(head + "a,P,i,no-such-gpu,1,USD,2,,,,2026-11-01,s\n"), doctest::Contains("p.csv:2: "), LookupError);
    CHECK_THROWS_WITH_AS(csv(head + "a,P,i,h100-sxm,1,USD,,,,,2026-11-01,s\n"), doctest::Contains("no price given"), InputError);
    CHECK_THROWS_WITH_AS(csv(head + "a,P,i,h100-sxm,1,USD,2,,,,2026-13-45,s\n"), doctest::Contains("p.csv:2: "), InputError);
    CHECK_THROWS_WITH_AS(csv(head + "a,P,i,h100-sxm,1,USD,2,,,,2026-11-01,s\na,P,i,h100-sxm,1,USD,2,,,,2026-11-01,s\n"),
                         doctest::Contains("p.csv:3: id: \"a\" is a duplicate id: line 2"), InputError);
    CHECK_THROWS_WITH_AS(csv(head + "a,\"P,i,h100-sxm,1,USD,2,,,,2026-11-01,s\n"), doctest::Contains("not closed"), ParseError);
    CHECK_THROWS_WITH_AS(csv(head + "a,P\"x\",i\n"), doctest::Contains("p.csv:2: bad CSV"), ParseError);
    CHECK_THROWS_WITH_AS(csv(std::string("id\0", 3)), doctest::Contains("NUL"), ParseError);
    // Found by catalog_fuzz: a field that is not UTF-8 was accepted and broke the JSON writer.
    CHECK_THROWS_WITH_AS(csv(head + "a,P\xe9,i,h100-sxm,1,USD,2,,,,2026-11-01,s\n"), doctest::Contains("p.csv:2: bad CSV: not UTF-8"), ParseError);
    CHECK_THROWS_WITH_AS(csv(head + "a,\xed\xa0\x80,i\n"), doctest::Contains("not UTF-8"), ParseError);  // a surrogate
    CHECK_THROWS_WITH_AS(csv(head + "a,\xc0\xaf,i\n"), doctest::Contains("not UTF-8"), ParseError);      // an overlong '/'
    CHECK(io::import_price_csv(head + "a,Pr\xc3\xa9" "fecture \xe4\xb8\xad,i,h100-sxm,1,USD,2,,,,2026-11-01,s\n", "p.csv", base).offers.size() == 1);
    // The optional min_term column: a duration with its unit, read into the offer; a term without a
    // reserved price, or text that is not a duration, names the column and the line.
    const std::string termed = "id,provider,instance_type,gpu_id,gpu_count,currency,on_demand,spot,reserved,min_term,monthly,as_of,source\n";
    const io::PriceImport t = csv(termed + "a,P,i,h100-sxm,8,USD,,,30,1 day,,2026-11-01,s\n");
    REQUIRE(t.offers.size() == 1);
    REQUIRE(t.offers[0].min_term);
    CHECK(t.offers[0].min_term->value() == doctest::Approx(86400));
    CHECK(io::write_offers_json(t.offers).find("\"min_term\": \"1 day\"") != std::string::npos);
    CHECK_THROWS_WITH_AS(csv(termed + "a,P,i,h100-sxm,8,USD,,,30,1 day,200000,2026-11-01,s\n"), doctest::Contains("p.csv:2: min_term"), InputError);
    CHECK_THROWS_WITH_AS(csv(termed + "a,P,i,h100-sxm,8,USD,,,30,0 h,,2026-11-01,s\n"), doctest::Contains("p.csv:2: min_term"), InputError);
    // An offer without a term writes "min_term": null, so a refresh over an offer that had one drops it.
    CHECK(io::write_offers_json(csv(head + "b,P,i,h100-sxm,1,USD,2,,,,2026-11-01,s\n").offers).find("\"min_term\": null") != std::string::npos);
    CHECK_THROWS_WITH_AS(csv(termed + "a,P,i,h100-sxm,8,USD,,,30,soon,,2026-11-01,s\n"), doctest::Contains("p.csv:2: "), InputError);
    // A marketplace snapshot priced per GPU: max_gpus, only with gpu_count 1, within bounds.
    const std::string pods = head.substr(0, head.size() - 1) + ",max_gpus\n";
    CHECK(csv(pods + "m,P,i,h100-sxm,1,USD,2,,,,2026-11-01,s,8\n").offers[0].max_gpus == 8);
    CHECK(csv(pods + "m,P,i,h100-sxm,1,USD,2,,,,2026-11-01,s,\n").offers[0].max_gpus == 0);
    CHECK_THROWS_WITH_AS(csv(pods + "m,P,i,h100-sxm,8,USD,2,,,,2026-11-01,s,16\n"), doctest::Contains("p.csv:2: max_gpus: 16 needs gpu_count 1"), InputError);
    CHECK_THROWS_WITH_AS(csv(pods + "m,P,i,h100-sxm,1,USD,2,,,,2026-11-01,s,2000\n"), doctest::Contains("p.csv:2: max_gpus"), InputError);
    const auto azure = [&](const std::string& text) { return io::import_azure_retail_prices(io::JsonDocument::parse(text, "a.json"), base); };
    CHECK_THROWS_WITH_AS(azure("{}"), doctest::Contains("Items: is missing"), InputError);
    CHECK_THROWS_WITH_AS(azure(R"({"Items": [{"armSkuName": "Standard_ND96isr_H100_v5", "retailPrice": "98"}]})"),
                         doctest::Contains("a.json:1:"), InputError);
    CHECK_THROWS_WITH_AS(azure(R"({"Items": [{"armSkuName": "Standard_ND96isr_H100_v5", "retailPrice": 98, "unitOfMeasure": "1/Month"}]})"),
                         doctest::Contains("unitOfMeasure"), InputError);
    // A reservation is an offer of its own: the term's whole price over its hours, held for the term.
    const io::PriceImport res = azure(
        R"({"Items": [{"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": 876000, "type": "Reservation",
                       "reservationTerm": "1 Year", "unitOfMeasure": "1 Hour", "effectiveStartDate": "2026-11-01T00:00:00Z"},
                      {"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": 1576800, "type": "Reservation",
                       "reservationTerm": "3 Years", "effectiveStartDate": "2026-11-01T00:00:00Z"},
                      {"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": 1, "type": "Reservation",
                       "reservationTerm": "2 Years"}]})");
    REQUIRE(res.offers.size() == 2);
    CHECK(res.offers[0].reserved == MoneyRate("100", Currency::USD));  // $876,000 / 8,760 h
    CHECK(res.offers[0].min_term->value() == doctest::Approx(scale::year));
    CHECK_FALSE(res.offers[0].on_demand);
    CHECK(res.offers[0].id == "azure-standard-nd96isr-h100-v5-1-year-reservation-eastus");
    CHECK(res.offers[1].reserved == MoneyRate("60", Currency::USD));  // $1,576,800 / 26,280 h
    CHECK(res.offers[1].min_term->value() == doctest::Approx(3 * scale::year));
    CHECK(res.offers[1].note.find("1576800 USD, over its 26280 h") != std::string::npos);
    REQUIRE(res.skipped.size() == 1);
    CHECK(res.skipped[0].find("\"2 Years\"") != std::string::npos);
    // Rounded at the 12th decimal place, the rate brings the term's price back to the cent.
    const io::PriceImport odd = azure(R"({"Items": [{"armSkuName": "Standard_ND96isr_H100_v5", "retailPrice": 500000, "type": "Reservation",
                                                   "reservationTerm": "5 Years", "effectiveStartDate": "2026-11-01"}]})");
    REQUIRE(odd.offers.size() == 1);
    CHECK((*odd.offers[0].reserved * Duration::from_value(5 * scale::year)).rounded_to(2) == Money("500000", Currency::USD));
    CHECK(odd.offers[0].min_term->value() == doctest::Approx(5 * scale::year));
    // Importing again over the first import's offers: the size and its reservation keep their own ids
    // (a reservation listed first is not taken for its size, nor the size for it).
    Catalog again = base;
    const io::PriceImport first = azure(
        R"({"Items": [{"armSkuName": "Standard_NC24ads_A100_v4", "armRegionName": "eastus", "retailPrice": 20000, "type": "Reservation", "reservationTerm": "1 Year", "effectiveStartDate": "2026-11-01"},
                      {"armSkuName": "Standard_NC24ads_A100_v4", "armRegionName": "eastus", "retailPrice": 3.673, "effectiveStartDate": "2026-11-01"}]})");
    io::apply_catalog_json(again, io::write_offers_json(first.offers), "first.json");
    const io::PriceImport second = io::import_azure_retail_prices(
        io::JsonDocument::parse(R"({"Items": [{"armSkuName": "Standard_NC24ads_A100_v4", "armRegionName": "eastus", "retailPrice": 20000, "type": "Reservation", "reservationTerm": "1 Year", "effectiveStartDate": "2026-11-01"},
                                              {"armSkuName": "Standard_NC24ads_A100_v4", "armRegionName": "eastus", "retailPrice": 3.673, "effectiveStartDate": "2026-11-01"}]})", "b.json"),
        again);
    REQUIRE(second.offers.size() == 2);
    CHECK(second.offers[0].id == first.offers[0].id);
    CHECK(second.offers[1].id == first.offers[1].id);
    CHECK(second.offers[0].id != second.offers[1].id);
    // A refresh of the built-in ND H100 v5 (1-year reserved $63.40) without a 1-year reservation: the
    // reserved price is left out, and said; a 3-year reservation is not its term and stays its own offer.
    const io::PriceImport bare = azure(
        R"({"Items": [{"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": 98.32, "effectiveStartDate": "2026-11-01"},
                      {"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": 1150000, "type": "Reservation", "reservationTerm": "3 Years", "effectiveStartDate": "2026-11-01"}]})");
    REQUIRE(bare.offers.size() == 2);
    CHECK(bare.offers[0].id == "azure-nd96isr-h100-v5");
    CHECK_FALSE(bare.offers[0].reserved);
    CHECK_FALSE(bare.offers[0].min_term);
    REQUIRE(bare.skipped.size() == 1);
    CHECK(bare.skipped[0] ==
          "azure-nd96isr-h100-v5: imported without the catalog's 1-year reserved price: no 1-year reservation for ND96isr_H100_v5 in eastus in this file");
    // A 1-year reservation in another currency than the hourly price: not joined, and said.
    const io::PriceImport eur = azure(
        R"({"Items": [{"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": 98.32, "effectiveStartDate": "2026-11-01"},
                      {"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": 480000, "currencyCode": "EUR", "type": "Reservation", "reservationTerm": "1 Year", "effectiveStartDate": "2026-11-01"}]})");
    CHECK_FALSE(eur.offers[0].reserved);
    REQUIRE(eur.skipped.size() == 1);
    CHECK(eur.skipped[0].find("1-year reservation for ND96isr_H100_v5 in eastus is in EUR, its hourly prices in USD") != std::string::npos);
    // The reservation's later date dates the refreshed offer (its prices hold together from then).
    const io::PriceImport later = azure(
        R"({"Items": [{"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": 500000, "type": "Reservation", "reservationTerm": "1 Year", "effectiveStartDate": "2026-11-20"},
                      {"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": 98.32, "effectiveStartDate": "2026-11-01"}]})");
    REQUIRE(later.offers.size() == 2);
    CHECK(later.offers[1].id == "azure-nd96isr-h100-v5");  // listed after its reservation: still joined
    CHECK(later.offers[1].reserved == later.offers[0].reserved);
    CHECK(later.offers[1].as_of == "2026-11-20");
    CHECK(later.skipped.empty());
    // Spot and the reservation without an on-demand item: the built-in's on-demand price is not carried, and said.
    const io::PriceImport spot_only = azure(
        R"({"Items": [{"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": 39.3, "skuName": "ND96isr H100 v5 Spot", "effectiveStartDate": "2026-11-01"},
                      {"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": 500000, "type": "Reservation", "reservationTerm": "1 Year", "effectiveStartDate": "2026-11-01"}]})");
    REQUIRE(spot_only.offers.size() == 2);
    CHECK_FALSE(spot_only.offers[0].on_demand);
    REQUIRE(spot_only.skipped.size() == 1);
    CHECK(spot_only.skipped[0] == "azure-nd96isr-h100-v5: imported without the catalog's on-demand price: no on-demand item for ND96isr_H100_v5 in eastus in this file");
    // Regions that differ in case are one region: its items join one offer, never two of one id.
    CHECK(azure(R"({"Items": [{"armSkuName": "Standard_NC24ads_A100_v4", "armRegionName": "eastus", "retailPrice": 3.6, "effectiveStartDate": "2026-11-01"},
                              {"armSkuName": "Standard_NC24ads_A100_v4", "armRegionName": "EastUS", "retailPrice": 3.7, "effectiveStartDate": "2026-11-01"}]})")
              .offers.size() == 1);
    // A region written in other case is the catalog's region: the built-in offer is refreshed (its id,
    // its region's spelling), not doubled by a second offer of the same place.
    const io::PriceImport upper = azure(
        R"({"Items": [{"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "EastUS", "retailPrice": 98.32, "effectiveStartDate": "2026-11-01"},
                      {"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "EastUS", "retailPrice": 500000, "type": "Reservation", "reservationTerm": "1 Year", "effectiveStartDate": "2026-11-01"}]})");
    REQUIRE(upper.offers.size() == 2);
    CHECK(upper.offers[0].id == "azure-nd96isr-h100-v5");
    CHECK(upper.offers[0].region == "eastus");
    CHECK(upper.offers[0].reserved == upper.offers[1].reserved);
    CHECK(upper.offers[1].id == "azure-standard-nd96isr-h100-v5-1-year-reservation-eastus");
    CHECK(upper.skipped.empty());
    // An hourly price never takes the id of a reservation-only offer of the same instance name (nor the
    // reverse): an on-demand p5e.48xlarge in us-east-2 is an offer of its own beside the built-in
    // aws-p5e.48xlarge, sold as Capacity Blocks only, whose reserved price stays.
    const io::PriceImport p5e = io::import_aws_price_list(
        io::JsonDocument::parse(R"({"products": {"S": {"attributes": {"instanceType": "p5e.48xlarge", "regionCode": "us-east-2", "gpu": "8"}}},
                                    "terms": {"OnDemand": {"S": {"S.T": {"effectiveDate": "2026-11-01T00:00:00Z", "priceDimensions": {"S.T.R": {"unit": "Hrs", "pricePerUnit": {"USD": "49.75"}}}}}}}})",
                                "p5e.json"),
        base);
    REQUIRE(p5e.offers.size() == 1);
    CHECK(p5e.offers[0].id == "aws-p5e.48xlarge-us-east-2");
    CHECK(p5e.offers[0].instance_type == "p5e.48xlarge (us-east-2)");
    CHECK(p5e.skipped.empty());
    // The same machine: the Capacity Block offer's recorded vCPUs, memory and network carry over.
    CHECK(p5e.offers[0].vcpus == 192);
    CHECK(p5e.offers[0].ram == base.find_offer("aws-p5e.48xlarge").ram);
    CHECK(p5e.offers[0].network == base.find_offer("aws-p5e.48xlarge").network);
    CHECK(p5e.offers[0].network_kind == base.find_offer("aws-p5e.48xlarge").network_kind);
    // Nor does a new offer take the id or instance name of a catalog offer of the other kind that
    // happens to be named "<provider>-<instance>-<region>": it would replace it on loading.
    {
      Catalog held = base;
      held.add_or_replace(CloudOffer{.id = "azure-standard-nc24ads-a100-v4-eastus", .provider = "Azure",
                                     .instance_type = "Standard_NC24ads_A100_v4 (Capacity Block)", .region = "eastus", .gpu_count = 1,
                                     .gpu_id = "a100-pcie-80gb", .reserved = MoneyRate("2.1", Currency::USD),
                                     .min_term = Duration::from_value(scale::day), .as_of = "2026-11-01", .source = "test"});
      held.add_or_replace(CloudOffer{.id = "azure-nc-named", .provider = "Azure", .instance_type = "Standard_NC24ads_A100_v4 (eastus)",
                                     .region = "westus", .gpu_count = 1, .gpu_id = "a100-pcie-80gb", .reserved = MoneyRate("2.2", Currency::USD),
                                     .min_term = Duration::from_value(scale::day), .as_of = "2026-11-01", .source = "test"});
      const io::PriceImport nc = io::import_azure_retail_prices(
          io::JsonDocument::parse(R"({"Items": [{"armSkuName": "Standard_NC24ads_A100_v4", "armRegionName": "eastus", "retailPrice": 3.6, "effectiveStartDate": "2026-11-01"}]})", "nc.json"),
          held);
      REQUIRE(nc.offers.size() == 1);
      CHECK(nc.offers[0].id == "azure-standard-nc24ads-a100-v4-eastus-hourly");
      CHECK(nc.offers[0].instance_type == "Standard_NC24ads_A100_v4 (eastus) hourly");
      Catalog c = held;
      (void)io::apply_catalog_json(c, io::write_offers_json(nc.offers), "nc-offers.json");
      CHECK(c.find_offer("azure-standard-nc24ads-a100-v4-eastus").reserved == MoneyRate("2.1", Currency::USD));
    }
    {
      Catalog c = base;
      (void)io::apply_catalog_json(c, io::write_offers_json(p5e.offers), "p5e-offers.json");
      CHECK(c.find_offer("aws-p5e.48xlarge").reserved == base.find_offer("aws-p5e.48xlarge").reserved);
      CHECK(c.find_offer("aws-p5e.48xlarge-us-east-2").on_demand == MoneyRate("49.75", Currency::USD));
    }
    // An AWS refresh of an offer that also has a Spot and a monthly price lists each as left out (the
    // offer file holds on-demand prices only); an Azure refresh lists the monthly price.
    {
      Catalog priced = base;
      CloudOffer p5 = base.find_offer("aws-p5.48xlarge");
      p5.spot = MoneyRate("20", Currency::USD);
      p5.monthly = Money("30000", Currency::USD);
      p5.reserved.reset();  // a reserved and a monthly price are never one offer's (min_term would be ambiguous)
      p5.min_term.reset();
      priced.add_or_replace(p5);
      const io::PriceImport r = io::import_prices(io::PriceFormat::aws, io::JsonDocument::read_text_file((std::filesystem::path(__FILE__).parent_path() / "cli" / "data" / "prices" / "aws-ec2-sample.json").string()),
                                                  "aws-ec2-sample.json", priced);
      REQUIRE(r.skipped.size() == 3);
      CHECK(r.skipped[0] == "aws-p5.48xlarge: imported without the catalog's Spot price: the AWS offer file holds on-demand prices only");
      CHECK(r.skipped[1] == "aws-p5.48xlarge: imported without the catalog's monthly price: the AWS offer file holds on-demand prices only");
      Catalog az_priced = base;
      CloudOffer nd = base.find_offer("azure-nd96isr-h100-v5");
      nd.monthly = Money("40000", Currency::USD);
      nd.reserved.reset();
      nd.min_term.reset();
      az_priced.add_or_replace(nd);
      const io::PriceImport a = io::import_azure_retail_prices(
          io::JsonDocument::parse(R"({"Items": [{"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": 98.32, "effectiveStartDate": "2026-11-01"},
                      {"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": 500000, "type": "Reservation", "reservationTerm": "1 Year", "effectiveStartDate": "2026-11-01"}]})",
                                  "m.json"),
          az_priced);
      REQUIRE(a.skipped.size() == 1);
      CHECK(a.skipped[0] == "azure-nd96isr-h100-v5: imported without the catalog's monthly price: the Retail Prices API gives none");
    }
    // A Capacity Block named "<instance> (Capacity Block)" with a term is not the on-demand instance.
    Catalog blocks = base;
    blocks.add_or_replace(CloudOffer{.id = "x-block", .provider = "Azure", .instance_type = "Standard_NC24ads_A100_v4 (Capacity Block)",
                                     .region = "eastus", .gpu_count = 1, .gpu_id = "a100-pcie-80gb", .reserved = MoneyRate("2", Currency::USD),
                                     .min_term = Duration::from_value(scale::day), .as_of = "2026-11-01", .source = "test"});
    CHECK(io::import_azure_retail_prices(io::JsonDocument::parse(R"({"Items": [{"armSkuName": "Standard_NC24ads_A100_v4", "armRegionName": "eastus", "retailPrice": 3.6, "effectiveStartDate": "2026-11-01"}]})", "c.json"),
                                         blocks)
              .offers[0]
              .id != "x-block");
    // A year's run on it pays the year: 8,760 h x $100.
    CHECK(res.offers[0].billed_time(PriceKind::reserved, Duration::from_value(3600)).value() == doctest::Approx(scale::year));
    CHECK_THROWS_WITH_AS(azure(R"({"Items": [{"armSkuName": "Standard_ND96isr_H100_v5", "retailPrice": 5, "type": "Reservation", "reservationTerm": "1 Year"},
                                             {"armSkuName": "Standard_ND96isr_H100_v5", "retailPrice": 6, "type": "Reservation", "reservationTerm": "1 Year"}]})"),
                         doctest::Contains("reservationTerm: \"1 Year\" appears twice"), InputError);
    const auto aws = [&](const std::string& text) { return io::import_aws_price_list(io::JsonDocument::parse(text, "e.json"), base); };
    CHECK_THROWS_WITH_AS(aws(R"({"products": []})"), doctest::Contains("products"), InputError);
    CHECK_THROWS_WITH_AS(aws(R"({"products": {"S": {"attributes": {"instanceType": "p5.48xlarge", "gpu": "eight"}}}})"),
                         doctest::Contains("attributes.gpu"), InputError);
  }
}
