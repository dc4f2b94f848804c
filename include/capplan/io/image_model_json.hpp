// An image model described in a JSON file as its list of layers, read into an ImageModel and
// written back (workload/image_model.hpp):
//
//   {
//     "name": "ViT-S/16", "image": 224,
//     "layers": [
//       {"type": "conv", "out_pixels": 196, "in_channels": 3, "out_channels": 384, "kernel": 16, "norm_activation": false},
//       {"type": "linear", "tokens": 197, "in_features": 384, "out_features": 1152, "count": 12, "norm_before": true},
//       {"type": "attention", "tokens": 197, "heads": 6, "head_dim": 64, "count": 12},
//       {"type": "linear", "tokens": 197, "in_features": 384, "out_features": 384, "count": 12, "residual": true},
//       {"type": "linear", "tokens": 197, "in_features": 384, "out_features": 1536, "count": 12, "norm_before": true, "activation": true},
//       {"type": "linear", "tokens": 197, "in_features": 1536, "out_features": 384, "count": 12, "residual": true},
//       {"type": "linear", "tokens": 1, "in_features": 384, "out_features": 1000, "norm_before": true}
//     ]
//   }
//   capplan::ImageModel m = capplan::io::load_image_model_file("vit-s16.json");
//
// Keys (docs/catalog-files.md, "Image model files"): name and layers (required); image (the side of a
// square RGB input, default 224: input_elements = image^2 x 3), parameters (default: what the layers
// hold, ImageModel::layer_parameters; give it to count embeddings), fc_in and fc_out (a CNN's
// classifier on pooled features, default none), pool_indices (a 3 x 3, stride-2 max pool's output
// elements, default 0). Each layer has "type" and, by type:
//   conv       out_pixels, in_channels, out_channels, kernel (1), count (1), norm_activation (true),
//              residual (false: true where the output is added to a ResNet block's shortcut),
//              relu (true: false for batch norm alone, a ResNet projection shortcut)
//   linear     tokens (1), in_features, out_features, count (1), norm_before, activation, residual (false),
//              bias (true)
//   attention  tokens, heads, head_dim, count (1), fused (true), kv_tokens (0: tokens; cross-attention's keys)
//   elementwise  elements (written per sample), passes (2: values read and written per value written),
//              kernels (1), saved (0: values autograd keeps per value written), parameters (0), count (1)
// companion_parameters and companions: weights a pipeline loads beside the model (a diffusion UNet's text
// encoders and VAE), counted where the weights must fit. A diffusion pipeline's timed parts, each an
// image model object of the same form: vae_decoder (run once per batch after the steps), vae_fp32
// (the pipeline decodes in fp32), vae_tiles ([{h, w, count}]: a tiled decode's tiles, --vae-tiling),
// text_encoders (an array, run once per batch before the steps); image_model_to_json writes them for
// the presets, so a preset written out and read back is the same pipeline. A latent model (a diffusion UNet) gives input_elements (its latent's values per sample) and input (how
// reports name it, "512 x 512 (64 x 64 latent)") instead of image.
// A file whose "layers" is a number is a transformer (io/model_json.hpp); is_image_model_json tells
// them apart. Errors: capplan::InputError naming the file, line:column, the layer and the key, e.g.
// "vit.json:4:5: model \"ViT-S/16\": layers[1].heads: 0 is below the minimum 1".
#pragma once

#include "capplan/io/count_field.hpp"
#include "capplan/io/json_document.hpp"
#include "capplan/workload/image_model.hpp"

#include <array>
#include <cmath>
#include <string>
#include <utility>

namespace capplan::detail {

// The ranges an image model file's fields must lie in (beyond them a value is absurd, and the
// per-sample FLOP and byte counts could overflow 64-bit products).
namespace image_model_limits {
inline constexpr std::size_t max_layers = 10'000;
inline constexpr io::IntRange image{1, 65'536};
inline constexpr io::IntRange pixels{1, 100'000'000};
inline constexpr io::IntRange channels{1, 1'048'576};
inline constexpr io::IntRange kernel{1, 1'024};
inline constexpr io::IntRange count{1, 10'000};
inline constexpr io::IntRange tokens{1, 10'000'000};
inline constexpr io::IntRange features{1, 16'777'216};
inline constexpr io::IntRange heads{1, 65'536};
inline constexpr io::IntRange head_dim{1, 65'536};
inline constexpr io::IntRange pool{0, 1'000'000'000};
inline constexpr io::IntRange elements{1, 1'000'000'000};
inline constexpr io::IntRange kernels{1, 1'000};
inline constexpr io::IntRange input_elements{1, 1'000'000'000};
inline constexpr double max_parameters = 1e15;
}  // namespace image_model_limits

}  // namespace capplan::detail

namespace capplan::io {

// True when `object` is an object whose "layers" is an array: an image model.
inline bool is_image_model_json(const Json& object) {
  if (!object.is_object()) return false;
  const auto it = object.find("layers");
  return it != object.end() && it->is_array();
}

// Reads the image model at `pointer` (the root by default) of a parsed document. A pipeline's parts
// (`vae_decoder`, `text_encoders`) are image models of their own, read here with `part` set: they
// cannot have parts themselves.
inline ImageModel read_image_model(const JsonDocument& doc, const Json& object, const std::string& pointer = "", bool part = false) {
  namespace lim = detail::image_model_limits;
  ObjectReader r(doc, object, pointer, part ? "model part" : "model");
  ImageModel m;
  m.name = r.string("name");
  r.set_entry("model " + detail::quote_text(m.name));
  const std::int64_t side = r.integer_or("image", lim::image, 224);
  m.input_elements = side * side * 3;
  m.image = std::to_string(side) + " x " + std::to_string(side);
  if (const auto n = r.integer_opt("input_elements", lim::input_elements)) {
    if (r.has("image")) r.fail("input_elements", std::to_string(*n), "and image both set the input; give one of them");
    m.input_elements = *n;
    m.image = std::to_string(*n) + " input values";
  }
  if (const auto v = read_parameter_count(r, "companion_parameters", "206.7e6 or \"206,714,343\"", lim::max_parameters))
    m.companion_parameters = *v;
  if (const auto text = r.string_opt("companions", true)) {
    if (text->size() > 200) r.fail("companions", "(" + std::to_string(text->size()) + " characters)", "is longer than 200 characters");
    m.companions = *text;
  }
  if (const auto text = r.string_opt("input", true)) {
    if (text->size() > 200) r.fail("input", "(" + std::to_string(text->size()) + " characters)", "is longer than 200 characters");
    m.image = *text;
  }
  m.fc_in = r.integer_or("fc_in", {0, lim::features.max}, 0);
  m.fc_out = r.integer_or("fc_out", {0, lim::features.max}, 0);
  if ((m.fc_in > 0) != (m.fc_out > 0)) r.fail(m.fc_in > 0 ? "fc_out" : "fc_in", "0", "must be given with the other (a classifier has both)");
  m.pool_indices = r.integer_or("pool_indices", lim::pool, 0);
  const Json* layers = r.find("layers");
  if (!layers || !layers->is_array())
    r.missing("layers", "an array of layers ({\"type\": \"conv\" | \"linear\" | \"attention\" | \"elementwise\", ...})");
  if (layers->empty()) r.fail("layers", "[]", "is empty: list the model's convolutions, linear layers and attention blocks");
  if (layers->size() > lim::max_layers)
    r.fail("layers", std::to_string(layers->size()) + " entries", "is more than 10,000 (use \"count\" for repeated layers)");
  static constexpr std::array<std::pair<std::string_view, int>, 4> types{{{"conv", 0}, {"linear", 1}, {"attention", 2}, {"elementwise", 3}}};
  for (std::size_t i = 0; i < layers->size(); ++i) {
    const std::string at = "layers[" + std::to_string(i) + "].";
    ObjectReader l(doc, (*layers)[i], pointer + "/layers/" + std::to_string(i), r.entry(), at);
    const auto type = l.enumeration_opt<int>("type", types);
    if (!type) l.missing("type", "\"conv\", \"linear\", \"attention\" or \"elementwise\"");
    // A plain number in [lo, hi].
    const auto number_or = [&l](std::string_view key, double lo, double hi, double fallback) {
      const Json* v = l.find(key);
      if (!v) return fallback;
      if (!v->is_number()) l.fail(key, v->dump(), "must be a number");
      const double d = v->get<double>();
      if (!(std::isfinite(d) && d >= lo && d <= hi))
        l.fail(key, v->dump(), "must be from " + detail::format_double(lo) + " to " + detail::format_double(hi));
      return d;
    };
    if (*type == 0) {
      ConvLayer c;
      c.out_pixels = l.integer("out_pixels", lim::pixels);
      c.in_channels = l.integer("in_channels", lim::channels);
      c.out_channels = l.integer("out_channels", lim::channels);
      c.kernel = l.integer_as_or<int>("kernel", lim::kernel, 1);
      c.count = l.integer_as_or<int>("count", lim::count, 1);
      c.norm_activation = l.boolean_or("norm_activation", true);
      c.residual = l.boolean_or("residual", false);
      c.relu = l.boolean_or("relu", true);
      m.convs.push_back(c);
    } else if (*type == 1) {
      LinearLayer c;
      c.tokens = l.integer_or("tokens", lim::tokens, 1);
      c.in_features = l.integer("in_features", lim::features);
      c.out_features = l.integer("out_features", lim::features);
      c.count = l.integer_as_or<int>("count", lim::count, 1);
      c.norm_before = l.boolean_or("norm_before", false);
      c.activation = l.boolean_or("activation", false);
      c.residual = l.boolean_or("residual", false);
      c.bias = l.boolean_or("bias", true);
      m.linears.push_back(c);
    } else if (*type == 3) {
      ElementwiseLayer c;
      c.elements = l.integer("elements", lim::elements);
      c.passes = number_or("passes", 0.01, 100, 2);
      c.kernels = l.integer_as_or<int>("kernels", lim::kernels, 1);
      c.saved = number_or("saved", 0, 100, 0);
      c.parameters = l.integer_or("parameters", {0, 1'000'000'000}, 0);
      c.count = l.integer_as_or<int>("count", lim::count, 1);
      m.elementwise.push_back(c);
    } else {
      AttentionLayer c;
      c.tokens = l.integer("tokens", lim::tokens);
      c.heads = l.integer("heads", lim::heads);
      c.head_dim = l.integer("head_dim", lim::head_dim);
      c.count = l.integer_as_or<int>("count", lim::count, 1);
      c.fused = l.boolean_or("fused", true);
      c.kv_tokens = l.integer_or("kv_tokens", {0, lim::tokens.max}, 0);
      m.attentions.push_back(c);
    }
    l.finish();
  }
  if (m.convs.empty() && m.linears.empty()) r.fail("layers", "(attention only)", "needs at least one conv or linear layer");
  // A diffusion pipeline's parts: the VAE decoder (run once per batch; vae_fp32: the pipeline upcasts
  // it; vae_tiles: how a tiled decode cuts the latent) and the text encoders (once per batch).
  const auto no_parts = [&](std::string_view key) {
    if (part && r.has(key)) r.fail(key, "(given)", "belongs to the pipeline's model, not to one of its parts");
  };
  no_parts("vae_decoder");
  no_parts("text_encoders");
  no_parts("vae_tiles");
  no_parts("vae_fp32");
  // Only a diffusion UNet (convolutions with cross-attention) runs a pipeline's parts; elsewhere they
  // would be counted in memory and never timed.
  if (!part && !m.is_diffusion()) {
    for (std::string_view key : {"vae_decoder", "text_encoders", "vae_tiles", "vae_fp32"})
      if (r.has(key)) r.fail(key, "(given)", "applies to a diffusion UNet (convolutions and cross-attention layers); this model is not one");
  }
  if (const Json* d = r.find("vae_decoder")) {
    if (!d->is_object()) r.type_error("vae_decoder", *d, "an image model {\"name\": ..., \"layers\": [...]}");
    m.decoder = {read_image_model(doc, *d, r.key_pointer("vae_decoder"), true)};
  }
  m.decoder_fp32 = r.boolean_or("vae_fp32", false);
  if (m.decoder_fp32 && m.decoder.empty()) r.fail("vae_fp32", "true", "needs a vae_decoder to upcast");
  if (const Json* t = r.find("vae_tiles")) {
    if (m.decoder.empty()) r.fail("vae_tiles", "(given)", "needs a vae_decoder to tile");
    if (!t->is_array()) r.type_error("vae_tiles", *t, "an array of {\"h\": ..., \"w\": ..., \"count\": ...}");
    if (t->size() > 64) r.fail("vae_tiles", std::to_string(t->size()) + " entries", "is more than 64 tile shapes");
    // Tiles of the decoder's own latent: each no larger than it, together covering it, and each a
    // decoder capplan can build (the tiled decode times the SD VAE decoder per tile shape).
    const ImageModel& dec = m.decoder.front();
    const std::int64_t channels = dec.latent_channels();
    const std::int64_t latent = channels > 0 ? dec.input_elements / channels : 0;
    double covered = 0;
    for (std::size_t i = 0; i < t->size(); ++i) {
      const std::string at = "vae_tiles[" + std::to_string(i) + "]";
      ObjectReader tr(doc, (*t)[i], r.key_pointer("vae_tiles") + "/" + std::to_string(i), r.entry(), at + ".");
      VaeTile v;
      v.h = tr.integer("h", {1, 256});
      v.w = tr.integer("w", {1, 256});
      v.count = tr.integer_as<int>("count", {1, 1'000});
      tr.finish();
      if (v.h * v.w > latent)
        r.fail(at, std::to_string(v.h) + " x " + std::to_string(v.w), "is larger than the decoder's latent (" + std::to_string(latent) + " values)");
      try {
        vae_decoder(v.h, v.w, channels).validate();
      } catch (const InputError& e) {
        r.fail(at, std::to_string(v.h) + " x " + std::to_string(v.w), std::string("is not a tile the VAE decoder can decode: ") + e.what());
      }
      covered += static_cast<double>(v.count) * static_cast<double>(v.h * v.w);
      m.decoder_tiles.push_back(v);
    }
    if (covered < static_cast<double>(latent))
      r.fail("vae_tiles", detail::format_double(covered) + " latent values", "do not cover the decoder's latent (" + std::to_string(latent) + " values)");
  }
  if (const Json* t = r.find("text_encoders")) {
    if (!t->is_array()) r.type_error("text_encoders", *t, "an array of image models");
    if (t->size() > 8) r.fail("text_encoders", std::to_string(t->size()) + " entries", "is more than 8 text encoders");
    for (std::size_t i = 0; i < t->size(); ++i) {
      if (!(*t)[i].is_object()) r.type_error("text_encoders[" + std::to_string(i) + "]", (*t)[i], "an image model {\"name\": ..., \"layers\": [...]}");
      m.text_encoders.push_back(read_image_model(doc, (*t)[i], r.key_pointer("text_encoders") + "/" + std::to_string(i), true));
    }
  }
  const double own = m.layer_parameters();
  m.parameters = own;
  if (const auto v = read_parameter_count(r, "parameters", "86.6e6 or \"86,567,656\"", lim::max_parameters)) m.parameters = *v;
  if (!(m.parameters <= lim::max_parameters))
    r.fail("layers", detail::format_double(m.parameters) + " parameters", "is absurd (more than 1e15)");
  r.finish();
  try {
    m.validate();
  } catch (const InputError& e) {
    r.rethrow(e);
  }
  return m;
}

inline ImageModel read_image_model(const JsonDocument& doc) { return read_image_model(doc, doc.root()); }

// Parses an image model from JSON text; `file` names it in messages.
inline ImageModel parse_image_model_json(std::string text, std::string file = "<string>") {
  return read_image_model(JsonDocument::parse(std::move(text), std::move(file)));
}

// A layer list of a few thousand entries: 1 MiB, as a transformer model file (the limit applies while reading).
inline constexpr std::size_t max_image_model_file_bytes = 1u << 20;

inline ImageModel load_image_model_file(const std::string& path) {
  return read_image_model(JsonDocument::load(path, max_image_model_file_bytes));
}

// Every key with its value, so the file says exactly what capplan computes with; reading it back
// gives the same model (input_elements as `image` when it is a square RGB image, else omitted).
inline Json image_model_to_json(const ImageModel& m) {
  Json j = Json::object();
  j["name"] = m.name;
  const auto side = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(m.input_elements) / 3.0)));
  if (side > 0 && side * side * 3 == m.input_elements) {
    j["image"] = side;
    if (m.image != std::to_string(side) + " x " + std::to_string(side)) j["input"] = m.image;
  } else if (m.input_elements > 0) {
    j["input_elements"] = m.input_elements;
    j["input"] = m.image;
  }
  j["parameters"] = m.parameters;
  if (m.fc_in > 0) {
    j["fc_in"] = m.fc_in;
    j["fc_out"] = m.fc_out;
  }
  if (m.pool_indices > 0) j["pool_indices"] = m.pool_indices;
  if (m.companion_parameters > 0) {
    j["companion_parameters"] = m.companion_parameters;
    j["companions"] = m.companions;
  }
  Json layers = Json::array();
  for (const ConvLayer& c : m.convs)
    layers.push_back({{"type", "conv"}, {"out_pixels", c.out_pixels}, {"in_channels", c.in_channels}, {"out_channels", c.out_channels},
                      {"kernel", c.kernel}, {"count", c.count}, {"norm_activation", c.norm_activation},
                      {"residual", c.residual}, {"relu", c.relu}});
  for (const LinearLayer& l : m.linears)
    layers.push_back({{"type", "linear"}, {"tokens", l.tokens}, {"in_features", l.in_features}, {"out_features", l.out_features},
                      {"count", l.count}, {"norm_before", l.norm_before}, {"activation", l.activation}, {"residual", l.residual}, {"bias", l.bias}});
  for (const AttentionLayer& a : m.attentions)
    layers.push_back({{"type", "attention"}, {"tokens", a.tokens}, {"heads", a.heads}, {"head_dim", a.head_dim}, {"count", a.count}, {"fused", a.fused},
                      {"kv_tokens", a.kv_tokens}});
  for (const ElementwiseLayer& e : m.elementwise)
    layers.push_back({{"type", "elementwise"}, {"elements", e.elements}, {"passes", e.passes}, {"kernels", e.kernels}, {"saved", e.saved},
                      {"parameters", e.parameters}, {"count", e.count}});
  j["layers"] = std::move(layers);
  if (!m.decoder.empty()) {
    j["vae_decoder"] = image_model_to_json(m.decoder.front());
    j["vae_fp32"] = m.decoder_fp32;
    if (!m.decoder_tiles.empty()) {
      Json tiles = Json::array();
      for (const VaeTile& t : m.decoder_tiles) tiles.push_back({{"h", t.h}, {"w", t.w}, {"count", t.count}});
      j["vae_tiles"] = std::move(tiles);
    }
  }
  if (!m.text_encoders.empty()) {
    Json encoders = Json::array();
    for (const ImageModel& e : m.text_encoders) encoders.push_back(image_model_to_json(e));
    j["text_encoders"] = std::move(encoders);
  }
  return j;
}

}  // namespace capplan::io
