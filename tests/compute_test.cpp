// Compute: training and inference FLOP counts against published totals and closed forms.
#include "test_support.hpp"

#include <capplan/compute/flops.hpp>
#include <capplan/units/count.hpp>
#include <capplan/workload/params.hpp>
#include <capplan/workload/presets.hpp>

#include <doctest/doctest.h>

#include <cmath>

using namespace capplan;

namespace {

using capplan::test_support::rel;

// A GPT-style shape as in Narayanan et al. 2021, Table 1 (MHA, 4h FFN, untied head).
TransformerShape megatron_gpt(int layers, std::int64_t hidden, int heads, std::int64_t vocab) {
  TransformerShape s;
  s.name = "megatron";
  s.layers = layers;
  s.hidden = hidden;
  s.heads = heads;
  s.vocab = vocab;
  s.norm = NormKind::layernorm;
  s.linear_bias = true;
  return s;
}

}  // namespace

TEST_SUITE("compute") {
  TEST_CASE("6ND against published training totals") {
    // GPT-3: N = 174.6e9, D = 300e9 -> 3.14e23 FLOPs (Brown et al. 2020, Table D.1); within 2%.
    const Count gpt3 = training_flops(parse_count("174.6e9"), parse_count("300e9"));
    CHECK(gpt3 == parse_count("3.1428e23"));
    CHECK(rel(as_flops(gpt3).value(), 3.14e23) < 0.02);
    // Same from the preset's derived parameter count.
    const Count gpt3_shape = training_flops(find_model("gpt3-175b").transformer(), parse_count("300e9"));
    CHECK(rel(as_flops(gpt3_shape).value(), 3.14e23) < 0.02);
    // PaLM 540B: N = 540.35e9, D = 780e9 -> 2527.2 ZFLOPs (Chowdhery et al. 2022, Table 21); within 3%.
    const Count palm = training_flops(parse_count("540.35e9"), parse_count("780e9"));
    CHECK(rel(as_flops(palm).value(), 2527.2e21) < 0.03);
    // Chinchilla: N = 70e9, D = 1.4e12 -> 588.0 ZFLOPs (PaLM paper, Table 21); within 3%.
    const Count chin = training_flops(parse_count("70e9"), parse_count("1.4e12"));
    CHECK(rel(as_flops(chin).value(), 588.0e21) < 0.03);
    CHECK(chin == parse_count("588e21"));
    // Exact beyond 2^64: Llama 3.1 405B on 15.6T tokens.
    CHECK(training_flops(parse_count("405e9"), parse_count("15.6e12")).str() == "37908000000000000000000000");
  }

  TEST_CASE("Megatron closed forms are reproduced exactly by the per-layer count") {
    // Narayanan et al. 2021, Table 1, 145.6B row: 80 layers, h = 12288, 96 heads, V = 51200,
    // s = 2048, global batch 2304.
    const TransformerShape s = megatron_gpt(80, 12288, 96, 51200);
    const std::int64_t B = 2304, seq = 2048;
    const Count hw = hardware_flops_per_iteration(s, B, seq, Recompute::full);
    // §5.1, eq. 3: F = 96 B s l h^2 (1 + s/(6h) + V/(16 l h)).
    CHECK(hw == megatron_flops_per_iteration(B, seq, 80, 12288, 51200));
    // Checked in floating point against the formula as printed.
    const double l = 80, h = 12288, V = 51200, b = 2304, sd = 2048;
    const double printed = 96 * b * sd * l * h * h * (1 + sd / (6 * h) + V / (16 * l * h));
    CHECK(rel(as_flops(hw).value(), printed) < 1e-12);
    // Model FLOPs (no recompute): 72 B s l h^2 (1 + s/(6h) + V/(12 l h)) (Korthikanti et al. 2022, §6).
    const Count model = model_flops_per_iteration(s, B, seq);
    const Count Bc(B), sc(seq), lc(80), hc(12288), Vc(51200);
    CHECK(model == 72 * Bc * sc * lc * hc * hc + 12 * Bc * sc * sc * lc * hc + 6 * Bc * sc * hc * Vc);
    CHECK(hardware_flops_per_iteration(s, B, seq, Recompute::none) == model);
    // Selective recompute adds the attention scores once more: 4 B s^2 l h.
    CHECK(hardware_flops_per_iteration(s, B, seq, Recompute::selective) - model == 4 * Bc * sc * sc * lc * hc);
    // Ratio hardware / model with full recompute is 4/3 for the layers.
    const double ratio = as_flops(hw).value() / as_flops(model).value();
    CHECK(ratio > 1.3);
    CHECK(ratio < 4.0 / 3.0);
  }

  TEST_CASE("causal counting halves the attention-score term") {
    const TransformerShape s = megatron_gpt(2, 1024, 16, 50000);
    const ForwardFlops full = forward_flops(s, 1, 4096, AttentionCount::full);
    const ForwardFlops causal = forward_flops(s, 1, 4096, AttentionCount::causal);
    CHECK(full.layers_matmul == causal.layers_matmul);
    CHECK(causal.layers_attention * 2 * 4096 == full.layers_attention * (4096 + 1));
    // Per layer 4 b s^2 h for QK^T and AV (Narayanan et al. 2021, Appendix).
    CHECK(full.layers_attention == Count(4) * 4096 * 4096 * 1024 * 2);
    CHECK(full.logits == Count(2) * 4096 * 1024 * 50000);
    CHECK(prefill_flops(s, 1, 4096) == causal.total());
  }

  TEST_CASE("decode: about 2 FLOP per parameter per token, plus attention over the context") {
    const TransformerShape& s = find_model("llama2-7b").transformer();
    const Count one = decode_flops_per_token(s, 1);
    // Matmul weights are all parameters but the input embeddings and the norms.
    const double n = static_cast<double>(parameter_count(s));
    CHECK(rel(as_flops(one).value(), 2 * (n - 32000.0 * 4096)) < 1e-3);
    // Attention grows by 4 * heads * head_dim * layers = 4 * 4096 * 32 FLOP per context token.
    CHECK(decode_flops_per_token(s, 4097) - one == Count(4) * 4096 * 32 * 4096);
    // generation_flops is the sum over contexts.
    Count sum = 0;
    for (int c = 101; c <= 110; ++c) sum += decode_flops_per_token(s, c);
    CHECK(generation_flops(s, 100, 10) == sum);
  }

  TEST_CASE("sliding-window layers count the band of keys each query sees") {
    // Mistral 7B v0.1: every layer windowed at 4,096 (Jiang et al. 2023, §2). Up to the window the counts
    // are the dense ones; past it each query sees W keys.
    const TransformerShape& mistral = find_model("mistral-7b").transformer();
    TransformerShape dense = mistral;
    dense.window.reset();
    CHECK(forward_flops(mistral, 2, 4096, AttentionCount::causal).total() == forward_flops(dense, 2, 4096, AttentionCount::causal).total());
    CHECK(forward_flops(mistral, 2, 4096, AttentionCount::full).total() == forward_flops(dense, 2, 4096, AttentionCount::full).total());
    const ForwardFlops w = forward_flops(mistral, 1, 32768, AttentionCount::causal);
    // Band: W(W+1)/2 + (s - W) W pairs, 4 x heads x head_dim FLOPs per pair, 32 layers.
    const Count band = Count(4096) * 4097 / 2 + Count(32768 - 4096) * 4096;
    CHECK(w.layers_attention == band * 4 * 32 * 128 * 32);
    CHECK(forward_flops(mistral, 1, 32768, AttentionCount::full).layers_attention == Count(32768) * 4096 * 4 * 32 * 128 * 32);
    CHECK(w.layers_matmul == forward_flops(dense, 1, 32768, AttentionCount::causal).layers_matmul);

    // gpt-oss-120b: 18 windowed layers (W = 128) and 18 global ones, alternating from a windowed first
    // layer (config.json layer_types); NeMo's gpt_oss FLOPs formula counts the same causal pairs.
    const TransformerShape& oss = find_model("gpt-oss-120b").transformer();
    CHECK(oss.windowed_layers() == 18);
    CHECK(oss.windowed_layer(0));
    CHECK_FALSE(oss.windowed_layer(1));
    CHECK(oss.windowed_layers(1, 4) == 2);  // layers 1..4: 2 and 4 are windowed (0-based even)
    const Count s(8192);
    const Count pairs = (s * (s + 1) / 2) * 18 + (Count(128) * 129 / 2 + (s - 128) * 128) * 18;
    CHECK(forward_flops(oss, 1, 8192, AttentionCount::causal).layers_attention == pairs * 4 * 64 * 64);
    // Gemma 3: 5 windowed layers per global one: 62 layers -> 10 global (Gemma Team 2025, §2).
    CHECK(find_model("gemma3-27b").transformer().windowed_layers() == 52);
    CHECK(find_model("gemma2-9b").transformer().windowed_layers() == 21);
  }

  TEST_CASE("decode with a sliding window: windowed layers stop growing at the window") {
    const TransformerShape& oss = find_model("gpt-oss-20b").transformer();
    // 12 global layers grow by 4 x 64 x 64 FLOPs per context token; the 12 windowed ones stop at 128.
    CHECK(decode_flops_per_token(oss, 1001) - decode_flops_per_token(oss, 1000) == Count(4) * 64 * 64 * 12);
    CHECK(decode_flops_per_token(oss, 100) - decode_flops_per_token(oss, 99) == Count(4) * 64 * 64 * 24);
    // generation_flops is the sum over contexts, whether the steps stay inside the window, straddle it
    // or lie past it.
    for (const auto& [prompt, n] : {std::pair{0, 50}, std::pair{100, 60}, std::pair{127, 1}, std::pair{128, 5}, std::pair{300, 7}}) {
      CAPTURE(prompt);
      Count sum = 0;
      for (int c = prompt + 1; c <= prompt + n; ++c) sum += decode_flops_per_token(oss, c);
      CHECK(generation_flops(oss, prompt, n) == sum);
    }
  }

  TEST_CASE("MoE counts active parameters only") {
    const TransformerShape& mix = find_model("mixtral-8x7b").transformer();
    const Count d = parse_count("1e12");
    CHECK(training_flops(mix, d) == 6 * active_parameter_count(mix) * d);
    // Decode ~ 2 x 12.9B active, not 2 x 46.7B (Jiang et al. 2024, §2).
    CHECK(rel(as_flops(decode_flops_per_token(mix, 1)).value(), 2 * 12.9e9) < 0.03);
    // DeepSeek-R1: 37B activated per token (DeepSeek-V3 report §1), so ~74 GFLOP per token.
    const TransformerShape& r1 = find_model("deepseek-r1").transformer();
    CHECK(rel(as_flops(decode_flops_per_token(r1, 1)).value(), 2 * 37e9) < 0.05);
  }

  TEST_CASE("128-bit counts equal the unbounded ones for every preset; overflow falls back to Count") {
    for (const auto& p : model_presets()) {
      if (!p.is_transformer()) continue;
      CAPTURE(p.id);
      const TransformerShape s = p.transformer();
      const ParamBreakdown exact = parameter_breakdown(s);
      const BasicParamBreakdown<Count128> fast = basic_parameter_breakdown<Count128>(s);
      CHECK(static_cast<Count>(fast.total()) == exact.total());
      CHECK(static_cast<Count>(fast.active) == exact.active);
      CHECK(static_cast<Count>(fast.expert) == exact.expert);
      CHECK(static_cast<Count>(fast.embedding) == exact.embedding);
      const ParamSizes sizes = parameter_sizes(s);
      CHECK(sizes.total() == static_cast<double>(exact.total()));
      CHECK(sizes.attention == static_cast<double>(exact.attention));
      CHECK(parameter_total(s) == static_cast<double>(parameter_count(s)));
      CHECK(static_cast<Count>(basic_matmul_parameters_per_token<Count128>(s)) == matmul_parameters_per_token(s));
      CHECK(model_flops_value(s, 1024, s.seq_len) == static_cast<double>(model_flops_per_iteration(s, 1024, s.seq_len)));
    }
    // 2^40-wide layers and 2^30 sequences of 2^30 tokens: s^2 b h exceeds 2^127, so the count is
    // redone in Count and still exact.
    TransformerShape huge = megatron_gpt(2, std::int64_t{1} << 40, 1 << 10, 1 << 20);
    CHECK_THROWS_AS((void)basic_forward_flops<Count128>(huge, 1 << 30, 1 << 30), std::overflow_error);
    const Count wide = model_flops_per_iteration(huge, 1 << 30, 1 << 30);
    CHECK(wide > Count(1) << 127);
    CHECK(model_flops_value(huge, 1 << 30, 1 << 30) == static_cast<double>(wide));
    // Count128 itself: exact products, checked at the edges, converted exactly.
    const Count128 big = Count128(std::int64_t{1} << 62) * (std::int64_t{1} << 62) * 7;
    CHECK(static_cast<Count>(big) == Count(7) << 124);
    CHECK(static_cast<Count>(Count128(0) - big) == -(Count(7) << 124));
    CHECK_THROWS_AS((void)(big * 2), std::overflow_error);
    CHECK_THROWS_AS((void)(big / 0), std::overflow_error);
    CHECK(static_cast<double>(big / 7) == std::ldexp(1.0, 124));
  }

  TEST_CASE("bad input names the field and the value") {
    const TransformerShape s = megatron_gpt(2, 1024, 16, 50000);
    CHECK_THROWS_WITH_AS((void)forward_flops(s, 0, 128), "batch: 0 must be a positive count", InputError);
    CHECK_THROWS_WITH_AS((void)forward_flops(s, -3, 128), "batch: -3 must be a positive count", InputError);
    CHECK_THROWS_WITH_AS((void)decode_flops_per_token(s, 0), "context: 0 must be a positive count", InputError);
    CHECK_THROWS_AS((void)training_flops(Count(0), Count(10)), InputError);
    CHECK_THROWS_AS((void)generation_flops(s, -1, 10), InputError);
    TransformerShape bad = s;
    bad.kv_heads = 3;
    CHECK_THROWS_AS((void)forward_flops(bad, 1, 128), InputError);
  }
}
