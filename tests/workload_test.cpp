// Workloads: shapes, validation, parameter counts against published counts, presets.
#include "test_support.hpp"

#include <capplan/workload/generic.hpp>
#include <capplan/workload/image_model.hpp>
#include <capplan/workload/model_fields.hpp>
#include <capplan/workload/parallel_plan.hpp>
#include <capplan/workload/params.hpp>
#include <capplan/workload/pipeline_layout.hpp>
#include <capplan/workload/presets.hpp>
#include <capplan/workload/transformer.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

using namespace capplan;

namespace {

double derived(std::string_view id) { return static_cast<double>(parameter_count(find_model(id).transformer())); }

// Relative difference of a derived count from the published one.
using capplan::test_support::rel;

}  // namespace

TEST_SUITE("workload") {
  TEST_CASE("exact published parameter counts are reproduced digit for digit") {
    // Each published figure is in the preset's citation (model card or paper).
    CHECK(parameter_count(find_model("llama2-7b").transformer()) == Count("6738415616"));
    CHECK(parameter_count(find_model("llama2-13b").transformer()) == Count("13015864320"));
    CHECK(parameter_count(find_model("llama2-70b").transformer()) == Count("68976648192"));
    CHECK(parameter_count(find_model("llama3.1-8b").transformer()) == Count("8030261248"));
    CHECK(parameter_count(find_model("llama3.1-70b").transformer()) == Count("70553706496"));
    CHECK(parameter_count(find_model("mistral-7b").transformer()) == Count("7241732096"));
    CHECK(parameter_count(find_model("mixtral-8x7b").transformer()) == Count("46702792704"));
    // Black et al. 2022 (GPT-NeoX-20B): 20,554,567,680.
    CHECK(parameter_count(find_model("gpt-neox-20b").transformer()) == Count("20554567680"));
    // BLOOM model card: 176,247,271,424.
    CHECK(parameter_count(find_model("bloom-176b").transformer()) == Count("176247271424"));
    // bert-base-cased: 108,310,272 (413.18 MiB fp32 in accelerate's estimator, see memory tests).
    CHECK(parameter_count(find_model("bert-base").transformer()) == Count("108310272"));
  }

  TEST_CASE("rounded published parameter counts are matched within their rounding") {
    // GPT-3: 174.6e9 (Brown et al. 2020, Table D.1), to 0.05%.
    CHECK(rel(derived("gpt3-175b"), 174.6e9) < 5e-4);
    // Qwen2.5 model cards: 7.61B, 72.7B (three significant digits: 0.1%).
    CHECK(rel(derived("qwen2.5-7b"), 7.61e9) < 1e-3);
    CHECK(rel(derived("qwen2.5-72b"), 72.7e9) < 1e-3);
    // Qwen2.5-14B card: 14.7B; the shape gives 14.77B (the card truncates), so 0.6%.
    CHECK(rel(derived("deepseek-r1-distill-qwen-14b"), 14.7e9) < 6e-3);
    CHECK(rel(derived("deepseek-r1-distill-qwen-32b"), 32.5e9) < 1e-2);  // Qwen2.5-32B card: 32.5B
    // BERT-large uncased: 335,141,888 weights (embeddings 31,782,912 + 24 x 12,596,224 + pooler 1,049,600).
    CHECK(derived("bert-large") == 335'141'888.0);
    // Llama 3.1 405B: "405B" (Dubey et al. 2024, Table 3), to 0.5%.
    CHECK(rel(derived("llama3.1-405b"), 405e9) < 5e-3);
    // OPT: 13B and 175B (Zhang et al. 2022, Table 1), to 1%.
    CHECK(rel(derived("opt-13b"), 13e9) < 1.5e-2);
    CHECK(rel(derived("opt-175b"), 175e9) < 1e-2);
  }

  TEST_CASE("Qwen3, Qwen2.5 14B/32B, Llama 3.2 and DeepSeek-V3 presets match their model cards") {
    // Qwen3 model cards: 4.0B (tied), 8.2B, 14.8B, 32.8B; the MoE models 30.5B total / 3.3B activated and
    // 235B / 22B; each within half a unit of its last digit (QK-norm's 2 x 128 weights a layer are left out
    // of the shapes, under 1e-5 of any of them).
    const auto within_rounding = [](double got, double card, double half_unit) { return std::fabs(got - card) <= half_unit; };
    CHECK(within_rounding(derived("qwen3-4b"), 4.0e9, 0.05e9));
    CHECK(within_rounding(derived("qwen3-8b"), 8.2e9, 0.05e9));
    CHECK(within_rounding(derived("qwen3-14b"), 14.8e9, 0.05e9));
    CHECK(within_rounding(derived("qwen3-32b"), 32.8e9, 0.05e9));
    CHECK(within_rounding(derived("qwen3-30b-a3b"), 30.5e9, 0.05e9));
    CHECK(within_rounding(derived("qwen3-235b-a22b"), 235e9, 0.5e9));
    // Activated, with the input embedding and the output head counted (catalog list's Active column):
    // 3.353B against the card's 3.3B (which rounds it down: 0.06B allowed), 22.19B against 22B.
    CHECK(within_rounding(static_cast<double>(active_parameter_count(find_model("qwen3-30b-a3b").transformer())), 3.3e9, 0.06e9));
    CHECK(within_rounding(static_cast<double>(active_parameter_count(find_model("qwen3-235b-a22b").transformer())), 22e9, 0.5e9));
    // The shapes field by field, as config.json gives them (a total alone would not catch 8 KV heads for 4).
    for (const char* id : {"qwen3-30b-a3b", "qwen3-235b-a22b"}) {
      CAPTURE(id);
      const TransformerShape s = find_model(id).transformer();
      REQUIRE(s.moe);
      CHECK(s.moe->experts == 128);
      CHECK(s.moe->experts_per_token == 8);
      CHECK(s.moe->shared_experts == 0);
      CHECK(s.moe->first_dense_layers == 0);
      CHECK(s.kv_heads == 4);
      CHECK(s.head_dim == 128);
      CHECK(s.vocab == 151936);
      CHECK_FALSE(s.tied_embeddings);
    }
    CHECK(find_model("qwen3-30b-a3b").transformer().moe->moe_ffn_hidden == 768);
    CHECK(find_model("qwen3-235b-a22b").transformer().moe->moe_ffn_hidden == 1536);
    CHECK(find_model("qwen3-235b-a22b").transformer().layers == 94);
    CHECK(find_model("llama3.2-1b").transformer().head_dim == 64);
    CHECK(find_model("llama3.2-1b").pretrain_seq_len == 8192);
    CHECK(find_model("qwen3-8b").pretrain_seq_len == 4096);
    // Qwen3's heads are 128 wide whatever the stream: Qwen3-32B's 64 heads make 8192 columns on 5120.
    CHECK(find_model("qwen3-32b").transformer().head_dim == 128);
    CHECK(find_model("qwen3-4b").transformer().tied_embeddings);
    // Llama 3.2: the checkpoints' exact counts.
    CHECK(derived("llama3.2-1b") == 1'235'814'400.0);
    CHECK(derived("llama3.2-3b") == 3'212'749'824.0);
    CHECK(rel(derived("qwen2.5-14b"), 14.7e9) < 6e-3);
    CHECK(rel(derived("qwen2.5-32b"), 32.5e9) < 1e-2);
    // DeepSeek-V3 is the DeepSeek-R1 architecture.
    CHECK(derived("deepseek-v3") == derived("deepseek-r1"));
    CHECK(find_model("DeepSeek-V3").id == "deepseek-v3");
  }

  TEST_CASE("every preset's derived count agrees with its published count") {
    for (const auto& p : model_presets()) {
      CAPTURE(p.id);
      const double got = p.is_transformer() ? static_cast<double>(parameter_count(p.transformer()))
                                            : static_cast<double>(p.generic().params);
      // The 1.5B distill is named by its base model's size; with an untied 151,936 x 1,536 output
      // head it has 1.78B (config.json: tie_word_embeddings false).
      const double tol = p.id == "deepseek-r1-distill-qwen-1.5b" ? 0.2 : 0.015;
      CHECK(rel(got, p.published_params) < tol);
    }
  }

  TEST_CASE("DeepSeek-R1: MLA + MoE gives 671B total and 37B active") {
    const auto& s = find_model("deepseek-r1").transformer();
    const ParamBreakdown p = parameter_breakdown(s);
    // DeepSeek-V3 technical report (arXiv 2412.19437), §1: 671B total, 37B activated per token.
    CHECK(rel(static_cast<double>(p.total()), 671e9) < 2e-3);
    CHECK(rel(static_cast<double>(p.active), 37e9) < 2e-2);
    CHECK(s.attention_kind() == AttentionKind::mla);
    CHECK(s.moe_layers() == 58);
    // Mixtral: 12.9B active of 46.7B (Jiang et al. 2024, §2).
    CHECK(rel(static_cast<double>(active_parameter_count(find_model("mixtral-8x7b").transformer())), 12.9e9) < 2e-3);
  }

  TEST_CASE("classic GPT layer is 12h^2 + 13h parameters") {
    TransformerShape s;
    s.layers = 1;
    s.hidden = 1024;
    s.heads = 16;
    s.vocab = 1;
    s.tied_embeddings = true;
    s.norm = NormKind::layernorm;
    s.linear_bias = true;
    s.final_norm = false;
    const ParamBreakdown p = parameter_breakdown(s);
    CHECK(p.attention + p.mlp + p.norms == Count(12) * 1024 * 1024 + 13 * 1024);
    CHECK(p.non_embedding() == Count(12) * 1024 * 1024 + 13 * 1024);
  }

  TEST_CASE("GQA shrinks K and V projections; defaults resolve") {
    TransformerShape s;
    s.layers = 2;
    s.hidden = 4096;
    s.heads = 32;
    s.vocab = 32000;
    const Count mha = parameter_breakdown(s).attention;
    s.kv_heads = 8;
    const Count gqa = parameter_breakdown(s).attention;
    CHECK(mha - gqa == Count(2) * 2 * 4096 * (4096 - 1024));
    CHECK(s.attention_kind() == AttentionKind::gqa);
    const TransformerShape r = s.resolved();
    CHECK(r.head_dim == 128);
    CHECK(r.ffn_hidden == 4 * 4096);
    s.kv_heads = 1;
    CHECK(s.attention_kind() == AttentionKind::mqa);
  }

  TEST_CASE("params_override replaces the derived count") {
    TransformerShape s = find_model("gpt3-175b").transformer();
    s.params_override = 175e9;
    CHECK(parameter_count(s) == Count("175000000000"));
    CHECK(active_parameter_count(s) == Count("175000000000"));
  }

  TEST_CASE("image models: the layers give torchvision's parameter counts and multiply-adds exactly") {
    // torchvision IMAGENET1K_V1 weights: num_params and _ops (GMACs). ResNet-50's layers hold every
    // parameter; a ViT adds its class token and position embeddings, (1 + 197) x hidden.
    const ImageModel& rn = *find_image_model("resnet50");
    CHECK(rn.layer_parameters() == 25'557'032.0);
    CHECK(rn.kind() == "CNN");
    const ImageModel& b = *find_image_model("vit-b16");
    CHECK(b.parameters == 86'567'656.0);
    CHECK(b.layer_parameters() + 198.0 * 768 == 86'567'656.0);
    CHECK(b.forward_flops_per_sample() / 2 == doctest::Approx(17.564e9).epsilon(1e-4));
    CHECK(b.kind() == "vision transformer");
    const ImageModel& l = *find_image_model("vit-l16");
    CHECK(l.parameters == 304'326'632.0);
    CHECK(l.forward_flops_per_sample() / 2 == doctest::Approx(61.555e9).epsilon(1e-4));
    // The presets agree with the shapes.
    CHECK(find_model("vit-b16").generic().params == 86'567'656);
    CHECK(find_model("vit-l16").generic().forward_flops_per_sample().value() == doctest::Approx(l.forward_flops_per_sample()).epsilon(1e-4));
    CHECK(find_image_model("llama2-7b") == nullptr);
  }

  TEST_CASE("diffusion UNets: the layers give the published checkpoints' parameter counts exactly") {
    // diffusers' UNet2DConditionModel.num_parameters() for runwayml/stable-diffusion-v1-5 and
    // stabilityai/stable-diffusion-xl-base-1.0: 859,520,964 and 2,567,463,684.
    const ImageModel& sd = *find_image_model("sd15-unet");
    CHECK(sd.layer_parameters() == 859'520'964.0);
    CHECK(sd.parameters == 859'520'964.0);
    CHECK(sd.kind() == "diffusion UNet");
    CHECK(sd.input_elements == 4 * 64 * 64);
    // The pipeline's text encoder and VAE load beside the UNet (the checkpoints' own counts).
    CHECK(sd.loaded_parameters() == 859'520'964.0 + 123'060'480.0 + 83'653'863.0);
    CHECK(sdxl_unet().companion_parameters == 123'060'480.0 + 694'659'840.0 + 83'653'863.0);
    CHECK(sd.image == "512 x 512 (64 x 64 latent)");
    const ImageModel& xl = *find_image_model("sdxl-unet");
    CHECK(xl.layer_parameters() == 2'567'463'684.0);
    CHECK(xl.kind() == "diffusion UNet");
    // 16 transformer blocks (SD 1.5: 2 x 3 down, 3 x 3 up, 1 middle), 70 for SDXL (2 x (2 + 10) down,
    // 3 x (2 + 10) up, 10 middle): a self- and a cross-attention each.
    CHECK(sd.attentions.size() == 2 * 16);
    CHECK(xl.attentions.size() == 2 * 70);
    std::size_t cross = 0;
    for (const AttentionLayer& a : sd.attentions) cross += a.kv_tokens == 77 ? 1 : 0;
    CHECK(cross == 16);
    // Multiply-adds of one denoising step's forward, per latent: what the presets carry.
    CHECK(sd.forward_flops_per_sample() / 2 == doctest::Approx(401.637e9).epsilon(1e-5));
    CHECK(xl.forward_flops_per_sample() / 2 == doctest::Approx(3380.62e9).epsilon(1e-5));
    CHECK(find_model("sd15-unet").generic().params == 859'520'964);
    CHECK(find_model("sdxl-unet").generic().forward_flops_per_sample().value() == doctest::Approx(xl.forward_flops_per_sample()).epsilon(1e-5));
    // Cross-attention's FLOPs follow the keys: 4 x 4096 x 77 x 320 per latent at the first level.
    const AttentionLayer& first_cross = sd.attentions[1];
    CHECK(first_cross.tokens == 4096);
    CHECK(first_cross.keys() == 77);
    CHECK(first_cross.heads * first_cross.head_dim == 320);
  }

  TEST_CASE("the VAE decoder: the checkpoint's parameters exactly, work in proportion to the pixels") {
    // AutoencoderKL (vae/config.json of runwayml/stable-diffusion-v1-5 and of SDXL base: block_out_channels
    // 128, 256, 512, 512; layers_per_block 2) has 83,653,863 parameters: the decoder's 49,490,179 and
    // post_quant_conv's 20, the encoder's 34,163,592 and quant_conv's 72.
    const ImageModel d = vae_decoder(64, 64);
    CHECK(d.parameters == 49'490'199.0);
    CHECK(d.parameters + 34'163'592.0 + 72.0 == sd_vae_parameters);
    CHECK(d.image == "512 x 512");
    // Multiply-adds per 512 x 512 image, summed by hand over the layers above: the convolutions, the
    // middle attention's four projections (4 x 4096 x 512^2) and its Q K^T and P V (2 x 4096^2 x 512):
    // 1,257,259,466,752. At 1024 x 1024 the convolutions take 4 times as much and the attention 16: 4.164.
    CHECK(d.forward_flops_per_sample() / 2 == doctest::Approx(1'257'259'466'752.0).epsilon(1e-9));
    CHECK(vae_decoder(128, 128).forward_flops_per_sample() / d.forward_flops_per_sample() == doctest::Approx(4.16397).epsilon(1e-5));
    // The presets carry theirs; SDXL's pipeline decodes in fp32.
    REQUIRE(find_image_model("sd15-unet")->decoder.size() == 1);
    CHECK(find_image_model("sd15-unet")->decoder.front().image == "512 x 512");
    CHECK(!find_image_model("sd15-unet")->decoder_fp32);
    CHECK(find_image_model("sdxl-unet")->decoder_fp32);
    CHECK_THROWS_AS(vae_decoder(0, 64), InputError);
  }

  TEST_CASE("the text encoders: the checkpoints' parameters exactly, 77 tokens a prompt") {
    // text_encoder/config.json of runwayml/stable-diffusion-v1-5 (CLIP ViT-L/14: 12 layers, 768 wide, 12
    // heads, MLP 3,072, vocabulary 49,408, 77 positions) and text_encoder_2 of SDXL base (OpenCLIP
    // ViT-bigG/14: 32 layers, 1,280 wide, 20 heads, MLP 5,120, projection 1,280): 123,060,480 and
    // 694,659,840 parameters, the figures the presets' companion_parameters carry.
    const ImageModel l14 = clip_vit_l14_text();
    const ImageModel bigg = openclip_vit_bigg14_text();
    CHECK(l14.parameters == 123'060'480.0);
    CHECK(bigg.parameters == 694'659'840.0);
    CHECK(l14.image == "77 tokens");
    // Multiply-adds per prompt: the linear layers' weights times 77 tokens, plus Q K^T and P V (2 x 77^2 x 768 a layer).
    const double linear = 12.0 * (768.0 * 2304 + 768.0 * 768 + 2 * 768.0 * 3072) * 77;
    CHECK(l14.forward_flops_per_sample() / 2 == doctest::Approx(linear + 12.0 * 2 * 77 * 77 * 768).epsilon(1e-3));
    REQUIRE(find_image_model("sd15-unet")->text_encoders.size() == 1);
    REQUIRE(find_image_model("sdxl-unet")->text_encoders.size() == 2);
    CHECK(find_image_model("sdxl-unet")->text_encoders[1].parameters + find_image_model("sdxl-unet")->text_encoders[0].parameters +
              sd_vae_parameters == find_image_model("sdxl-unet")->companion_parameters);
    CHECK_THROWS_AS(clip_text_encoder("bad", 12, 768, 3072, 7), InputError);
  }

  TEST_CASE("VAE tiles as diffusers' tiled_decode cuts them: every 0.75 tile, the edge tiles shorter") {
    // A 128 x 128 latent in tiles of 64 (SD 1.5 at 1024 x 1024): starts 0, 48, 96 on each side, so tiles
    // of 64, 64 and 32: four 64 x 64, two 64 x 32, two 32 x 64, one 32 x 32.
    const std::vector<VaeTile> t = vae_tiles(128, 128, 64);
    REQUIRE(t.size() == 4);
    CHECK((t[0].h == 64 && t[0].w == 64 && t[0].count == 4));
    CHECK((t[1].h == 64 && t[1].w == 32 && t[1].count == 2));
    CHECK((t[2].h == 32 && t[2].w == 64 && t[2].count == 2));
    CHECK((t[3].h == 32 && t[3].w == 32 && t[3].count == 1));
    CHECK(vae_tiles(64, 64, 64).empty());
    // SDXL at 2048 x 2048: tiles of 128 every 96: 128, 128, 64.
    const std::vector<VaeTile> xl = vae_tiles(256, 256, 128);
    REQUIRE(xl.size() == 4);
    CHECK(xl[0].count == 4);
    CHECK(xl[3].h == 64);
    // Portrait 832 x 1216 with SD 1.5's 64: 152 rows (0, 48, 96, 144: 64, 64, 56, 8), 104 columns (0, 48, 96: 64, 56, 8).
    int n = 0;
    for (const VaeTile& v : vae_tiles(152, 104, 64)) n += v.count;
    CHECK(n == 12);
    CHECK_THROWS_AS(vae_tiles(0, 64, 64), InputError);
    CHECK_THROWS_AS(vae_tiles(64, 64, 2), InputError);
  }

  TEST_CASE("diffusion UNets at another resolution: the same parameters, work in proportion to the pixels") {
    UNetConfig c = *find_unet_config("sdxl-unet");
    c.latent_side = 1216 / 8;
    c.latent_width = 832 / 8;
    const ImageModel portrait = diffusion_unet(c);
    const ImageModel square = sdxl_unet();
    CHECK(portrait.parameters == square.parameters);
    CHECK(portrait.image == "832 x 1216 (104 x 152 latent)");
    CHECK(portrait.input_elements == 4 * 104 * 152);
    // Convolutions and linear layers scale with the pixels (104 x 152 / 128^2 = 0.9648); attention over
    // the image's tokens more than that, cross-attention in proportion.
    const double ratio = 104.0 * 152 / (128.0 * 128);
    CHECK(portrait.forward_flops_per_sample() < square.forward_flops_per_sample());
    CHECK(portrait.forward_flops_per_sample() > ratio * ratio * square.forward_flops_per_sample());
    CHECK(portrait.convs.front().out_pixels == 104 * 152);
    CHECK_FALSE(find_unet_config("resnet50").has_value());
    c.latent_width = 102;  // 816 pixels: not a multiple of 32
    CHECK(test_support::field_of([&] { diffusion_unet(c); }) == "latent_width");
  }

  TEST_CASE("diffusion UNets: a bad configuration names the field") {
    UNetConfig c;
    c.name = "x";
    c.channels = {320, 640};
    c.transformer_depth = {1};
    c.heads = 8;
    CHECK(test_support::field_of([&] { diffusion_unet(c); }) == "channels");
    c.transformer_depth = {1, 1};
    c.heads = 0;
    CHECK(test_support::field_of([&] { diffusion_unet(c); }) == "heads");
    c.heads = 7;
    CHECK(test_support::field_of([&] { diffusion_unet(c); }) == "heads");  // 7 does not divide 320
    c.heads = 8;
    c.channels = {320, 650};
    CHECK(test_support::field_of([&] { diffusion_unet(c); }) == "channels");  // not a multiple of 32 groups
    c.channels = {320, 640};
    c.latent_side = 1;
    CHECK(test_support::field_of([&] { diffusion_unet(c); }) == "latent_side");
    ImageModel m = sd15_unet();
    m.elementwise[3].passes = 0;
    CHECK(test_support::field_of([&] { m.validate(); }) == "elementwise[3].passes");
    m = sd15_unet();
    m.attentions[1].kv_tokens = -1;
    CHECK(test_support::field_of([&] { m.validate(); }) == "attentions[1].kv_tokens");
  }

  TEST_CASE("image models: validate names the layer and field") {
    ImageModel m = vit_b16();
    m.attentions[0].heads = 0;
    CHECK(test_support::field_of([&] { m.validate(); }) == "attentions[0].heads");
    m = vit_b16();
    m.linears[2].in_features = -1;
    CHECK(test_support::field_of([&] { m.validate(); }) == "linears[2].in_features");
    CHECK(test_support::field_of([&] { ImageModel{}.validate(); }) == "layers");
    m = resnet50_v15();
    m.fc_out = 0;
    CHECK(test_support::field_of([&] { m.validate(); }) == "fc_in");
    m = resnet50_v15();
    m.linears.assign(10'000, LinearLayer{1, 2, 2});
    CHECK(test_support::field_of([&] { m.validate(); }) == "layers");  // 30 convs + 10,000 linear layers
    m = vit_b16();
    m.attentions[0].tokens = 10'000'001;
    CHECK(test_support::field_of([&] { m.validate(); }) == "attentions[0].tokens");
  }

  TEST_CASE("ResNet-50: 25.6M parameters, 4.1 GMACs = 8.2 GFLOP forward per image") {
    const auto& m = find_model("resnet50");
    CHECK_FALSE(m.is_transformer());
    const GenericModel& g = m.generic();
    CHECK(g.params == 25'557'032);  // torchvision IMAGENET1K_V1 num_params
    CHECK(g.forward_flops_per_sample().value() == doctest::Approx(8.178e9).epsilon(1e-12));
    CHECK(g.training_flops_per_sample().value() == doctest::Approx(3 * 8.178e9).epsilon(1e-12));
    CHECK_THROWS_AS((void)m.transformer(), InputError);
  }

  TEST_CASE("bad shapes name the field and the value") {
    TransformerShape s;
    s.layers = 32;
    s.hidden = 4096;
    s.heads = 32;
    s.vocab = 32000;
    CHECK_NOTHROW(s.validate());
    auto field_of = [](const TransformerShape& t) -> std::string {
      try {
        t.validate();
      } catch (const InputError& e) {
        return e.field() + "=" + e.value();
      }
      return "no error";
    };
    TransformerShape t = s;
    t.layers = 0;
    CHECK(field_of(t) == "layers=0");
    t = s;
    t.heads = 48;  // 4096 / 48 is not whole
    CHECK(field_of(t) == "heads=48");
    t.head_dim = 128;  // explicit head_dim lifts that requirement
    CHECK(field_of(t) == "no error");
    t = s;
    t.kv_heads = 5;
    CHECK(field_of(t) == "kv_heads=5");
    t = s;
    t.kv_heads = 64;
    CHECK(field_of(t) == "kv_heads=64");
    t = s;
    t.hidden = -1;
    CHECK(field_of(t) == "hidden=-1");
    t = s;
    t.seq_len = 0;
    CHECK(field_of(t) == "seq_len=0");
    t = s;
    t.moe = MoeShape{8, 9, 0, 14336, 0, 0, 0};
    CHECK(field_of(t) == "experts_per_token=9");
    t = s;
    t.params_override = -5.0;
    CHECK(field_of(t) == "params=-5");
    t = s;
    t.layers = 0;
    CHECK_THROWS_WITH_AS((void)parameter_count(t), "layers: 0 must be a positive number of layers", InputError);
  }

  TEST_CASE("training sequence length: the pre-training length where the context was extended later") {
    // Dubey et al. 2024 §3.4.1 (Llama 3: 8,192), Qwen2.5 report §3.3 (4,096), DeepSeek-V3 §4.2 (4K),
    // Mistral 7B Table 1 (8,192); models without a later extension train at their context.
    CHECK(find_model("llama3.1-8b").training_seq_len() == 8192);
    CHECK(find_model("llama3.1-8b").transformer().seq_len == 131072);
    CHECK(find_model("llama3.3-70b").training_seq_len() == 8192);
    CHECK(find_model("qwen2.5-72b").training_seq_len() == 4096);
    CHECK(find_model("deepseek-r1-distill-qwen-1.5b").training_seq_len() == 4096);
    CHECK(find_model("deepseek-r1").training_seq_len() == 4096);
    CHECK(find_model("mistral-7b").training_seq_len() == 8192);
    CHECK(find_model("mixtral-8x7b").training_seq_len() == 32768);  // Jiang et al. 2024 §2: 32K context in training
    CHECK(find_model("llama2-7b").training_seq_len() == 4096);
    CHECK(find_model("gpt3-175b").training_seq_len() == 2048);
    CHECK(find_model("resnet50").training_seq_len() == 0);
    for (const ModelPreset& p : model_presets()) {
      if (p.pretrain_seq_len > 0) {
        CHECK(!p.pretrain_source.empty());
        CHECK(p.pretrain_seq_len < p.transformer().seq_len);
      }
    }
  }

  TEST_CASE("unknown preset: LookupError listing the closest ids") {
    try {
      (void)find_model("llama3.1-7b");
      FAIL("expected LookupError");
    } catch (const LookupError& e) {
      CHECK(e.field() == "model");
      CHECK(e.value() == "llama3.1-7b");
      CHECK(std::string(e.what()).find("llama3.1-8b") != std::string::npos);
    }
    CHECK(closest_model_ids("deepseek-r1-distill-qwen-8b", 1).front() == "deepseek-r1-distill-qwen-7b");
    CHECK(find_model("resnet50").id == "resnet50");
    CHECK(find_model("Llama2-7B").id == "llama2-7b");
  }

  TEST_CASE("Hugging Face repository names reach the preset whose shape they have") {
    // A repository name as users paste it: the org prefix, case, separators and the tune's suffix
    // (Instruct, chat, -hf, it) do not change the architecture.
    CHECK(find_model("meta-llama/Llama-3.1-8B-Instruct").id == "llama3.1-8b");
    CHECK(find_model("meta-llama/Meta-Llama-3-70B-Instruct").id == "llama3-70b");
    CHECK(find_model("meta-llama/Llama-2-7b-chat-hf").id == "llama2-7b");
    CHECK(find_model("Qwen/Qwen3-8B").id == "qwen3-8b");
    CHECK(find_model("Qwen/Qwen2.5-7B-Instruct").id == "qwen2.5-7b");
    CHECK(find_model("mistralai/Mixtral-8x7B-Instruct-v0.1").id == "mixtral-8x7b");
    CHECK(find_model("mistralai/Mistral-7B-v0.1").id == "mistral-7b");
    CHECK(find_model("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B").id == "deepseek-r1-distill-qwen-7b");
    CHECK(find_model("openai/gpt-oss-120b").id == "gpt-oss-120b");
    CHECK(find_model("microsoft/resnet-50").id == "resnet50");
    CHECK(find_model("ViT-B/16").id == "vit-b16");
    CHECK(find_model("google-bert/bert-base-cased").id == "bert-base");
    CHECK(find_model("bert-large-uncased").id == "bert-large");
    // Never a quiet wrong shape: a quantized checkpoint's name (its bytes differ), a later Mistral
    // release (no sliding window), a size that is not a preset, a near miss.
    CHECK(match_model("Qwen/Qwen3-8B-FP8") == nullptr);
    CHECK(match_model("TheBloke/Llama-2-7B-AWQ") == nullptr);
    CHECK(match_model("mistralai/Mistral-7B-Instruct-v0.3") == nullptr);
    CHECK(match_model("google-bert/bert-base-uncased") == nullptr);  // 30,522 rows, not the cased 28,996
    CHECK(match_model("bert-large-cased") == nullptr);
    CHECK(match_model("meta-llama/Llama-3.1-7B") == nullptr);
    CHECK(match_model("llama3-18b") == nullptr);  // dots kept: never llama3.1-8b
    CHECK(match_model("") == nullptr);
    CHECK(match_model("/") == nullptr);
    CHECK(match_model("instruct") == nullptr);
    CHECK(match_model("Qwen/Qwen3-30B-A3B-Instruct-2507") == nullptr);  // 262,144-token native context
    CHECK(match_model("meta-llama/") == nullptr);
    CHECK(match_model("a/b/llama2-7b")->id == "llama2-7b");  // a path: its last part is the name
    CHECK(match_model("./Llama-3.1-8B-Instruct/")->id == "llama3.1-8b");
    CHECK(match_model("/models/Meta-Llama-3.1-8B-Instruct")->id == "llama3.1-8b");
    CHECK(match_model("https://huggingface.co/Qwen/Qwen2.5-72B-Instruct")->id == "qwen2.5-72b");
    CHECK(match_model("x/ViT-B/16")->id == "vit-b16");
    CHECK(match_model("meta-llama/Meta-Llama-3-8B-Instruct")->id == "llama3-8b");
    CHECK(match_model("deepseek-ai/DeepSeek-V3-0324")->id == "deepseek-v3");
    CHECK(match_model("deepseek-ai/DeepSeek-R1-0528")->id == "deepseek-r1");
    CHECK(match_model("deepseek-ai/DeepSeek-V3.1")->id == "deepseek-v3");
    CHECK(match_model("Meta-Llama-3-70B")->id == "llama3-70b");
    CHECK(match_model("x" + std::string(100000, 'i') + "-it") == nullptr);  // long input: refused at once
    CHECK_THROWS_AS((void)find_model("Qwen/Qwen3-8B-FP8"), LookupError);
    // Every preset is reached by exactly one key: no two ids collapse to the same name.
    std::set<std::string> keys;
    for (const ModelPreset& p : model_presets()) {
      CAPTURE(p.id);
      CHECK(keys.insert(capplan::detail::model_name_key(p.id)).second);
      CHECK(match_model(p.id) == &p);
    }
  }

  TEST_CASE("released weight formats: the formats the checkpoints are published in") {
    // gpt-oss model card (OpenAI 2025): MoE weights in MXFP4, the rest in BF16; DeepSeek-V3
    // README_WEIGHTS.md: FP8 with 128x128 block scaling. Others are released in bf16 (empty).
    const ModelPreset& oss = find_model("gpt-oss-120b");
    CHECK(oss.released_weights == "bf16");
    CHECK(oss.released_expert_weights == "mxfp4");
    CHECK_FALSE(oss.released_source.empty());
    CHECK(find_model("gpt-oss-20b").released_expert_weights == "mxfp4");
    CHECK(find_model("deepseek-r1").released_weights == "fp8");
    CHECK(find_model("deepseek-v3").released_weights == "fp8");
    CHECK(find_model("deepseek-r1").released_expert_weights.empty());
    CHECK(find_model("llama3.1-8b").released_weights.empty());
    for (const ModelPreset& p : model_presets()) {
      CAPTURE(p.id);
      CHECK(p.released_weights.empty() == p.released_source.empty());
      if (!p.released_expert_weights.empty()) CHECK_FALSE(p.released_weights.empty());
    }
  }

  TEST_CASE("every issue model has a preset with a lower-case id and a source") {
    for (const char* id : {"gpt3-175b", "llama3-70b", "llama3.3-70b", "deepseek-r1", "deepseek-r1-distill-qwen-1.5b",
                           "deepseek-r1-distill-qwen-7b", "deepseek-r1-distill-qwen-14b", "deepseek-r1-distill-qwen-32b",
                           "deepseek-r1-distill-llama-8b", "deepseek-r1-distill-llama-70b", "gpt-neox-20b", "bloom-176b",
                           "resnet50", "llama2-7b", "llama2-13b", "llama2-70b", "llama3.1-8b", "llama3.1-70b",
                           "llama3.1-405b", "mistral-7b", "mixtral-8x7b", "qwen2.5-7b", "qwen2.5-72b", "opt-13b",
                           "opt-175b", "bert-base"}) {
      CAPTURE(id);
      const ModelPreset& p = find_model(id);
      CHECK_FALSE(p.source.empty());
      for (char c : p.id) CHECK_FALSE((c >= 'A' && c <= 'Z'));
      if (p.is_transformer()) CHECK_NOTHROW(p.transformer().validate());
    }
  }

  TEST_CASE("a model described field by field, as in a JSON file") {
    // Mistral 7B from its config.json keys: the derived count is the published 7,241,732,096.
    TransformerShape s;
    set_model_field(s, "name", "my-mistral");
    set_model_field(s, "layers", 32);
    set_model_field(s, "hidden", 4096.0);
    set_model_field(s, "heads", 32);
    set_model_field(s, "kv_heads", 8);
    set_model_field(s, "ffn_hidden", 14336);
    set_model_field(s, "gated_mlp", true);
    set_model_field(s, "vocab", 32000);
    set_model_field(s, "seq_len", 32768);
    finish_model(s);
    CHECK(s.name == "my-mistral");
    CHECK(s.head_dim == 128);
    CHECK(parameter_count(s) == Count("7241732096"));
    // Defaults: kv_heads = heads, head_dim = hidden / heads, ffn_hidden = 4 x hidden.
    TransformerShape d;
    for (auto [k, v] : {std::pair{"layers", 2.0}, std::pair{"hidden", 768.0}, std::pair{"heads", 12.0},
                        std::pair{"vocab", 1000.0}}) {
      set_model_field(d, k, v);
    }
    finish_model(d);
    CHECK(d.kv_heads == 12);
    CHECK(d.head_dim == 64);
    CHECK(d.ffn_hidden == 3072);
    // MoE keys create the MoE part; params overrides the count.
    set_model_field(d, "experts", 8);
    set_model_field(d, "experts_per_token", 2);
    set_model_field(d, "params", 1e9);
    finish_model(d);
    REQUIRE(d.moe.has_value());
    CHECK(d.moe->moe_ffn_hidden == 3072);
    CHECK(parameter_count(d) == Count("1000000000"));
    // Bad fields name the key and the value.
    CHECK_THROWS_WITH_AS(set_model_field(d, "layers", 2.5), "layers: 2.5 is not a whole number", InputError);
    CHECK_THROWS_WITH_AS(set_model_field(d, "heads", -4), "heads: -4 is negative", InputError);
    CHECK_THROWS_WITH_AS(set_model_field(d, "gated_mlp", 2), "gated_mlp: 2 is not a boolean (true/false or 1/0)",
                         InputError);
    CHECK_THROWS_WITH_AS(set_model_field(d, "layer", 2), doctest::Contains("model field: \"layer\" is not a model field"),
                         InputError);
    CHECK_THROWS_AS(set_model_field(d, "vocab", "many"), InputError);
    CHECK_THROWS_AS(set_model_field(d, "params", 0.0), InputError);
    TransformerShape z = d;
    set_model_field(z, "layers", 0);
    CHECK_THROWS_WITH_AS(finish_model(z), "layers: 0 must be a positive number of layers", InputError);
  }

  TEST_CASE("pipeline stages: uneven layouts as published runs used them") {
    ParallelPlan p;
    // Llama 3 405B: 126 layers on 16 stages, one layer less on the first and the last (Dubey et al.
    // 2024, §3.3.2): 7 + 14 x 8 + 7.
    p.pp = 16;
    CHECK(stage_layers(126, p, 0) == 7);
    CHECK(stage_layers(126, p, 1) == 8);
    CHECK(stage_layers(126, p, 14) == 8);
    CHECK(stage_layers(126, p, 15) == 7);
    CHECK(stage_layout_text(126, p) == "7 + 14 x 8 + 7");
    CHECK_NOTHROW(validate_stage_layout(126, p));
    // BLOOM-176B: 70 layers on 12 stages.
    p.pp = 12;
    CHECK(stage_layout_text(70, p) == "5 + 10 x 6 + 5");
    // A shortfall of three: first, last, then the second stage give up a layer.
    p.pp = 8;
    CHECK(stage_layout_text(61, p) == "2 x 7 + 5 x 8 + 7");
    // Layers that divide split evenly; one stage holds all.
    CHECK(stage_layout_text(96, p) == "8 x 12");
    p.pp = 1;
    CHECK(stage_layout_text(32, p) == "32");
    // Every layout adds up to the layers.
    for (int layers : {1, 7, 32, 61, 70, 80, 95, 126}) {
      for (int pp = 1; pp <= layers && pp <= 64; ++pp) {
        ParallelPlan q;
        q.pp = pp;
        int sum = 0, lo = layers, hi = 0;
        for (int i = 0; i < pp; ++i) {
          const int l = stage_layers(layers, q, i);
          sum += l;
          lo = std::min(lo, l);
          hi = std::max(hi, l);
        }
        CAPTURE(layers);
        CAPTURE(pp);
        CHECK(sum == layers);
        CHECK(lo >= 1);
        CHECK(hi - lo <= 1);
      }
    }
  }

  TEST_CASE("pipeline stages: the largest and the last stage's layers, as every stage's count gives them") {
    // stage_extremes stops its scan early (no automatic stage holds more than ceil(l / p); given
    // end stages leave one middle count): brute force over every layout of 1..130 layers.
    int checked = 0;
    for (int layers = 1; layers <= 130; ++layers) {
      for (int pp = 1; pp <= std::min(layers, 24); ++pp) {
        std::vector<std::pair<int, int>> layouts{{0, 0}};
        for (const auto& l : end_stage_layouts(layers, pp, 16)) layouts.push_back(l);
        if (pp >= 2 && layers % pp == 0 && layers > pp) {
          layouts.push_back({layers / pp, 0});  // first given only
          layouts.push_back({0, layers / pp});  // last given only
        }
        if (pp >= 3 && (layers - 1) % (pp - 1) == 0 && layers - 1 >= pp - 1) layouts.push_back({1, 0});  // a one-layer first stage
        if (pp >= 3 && (layers - 1) % (pp - 1) == 0 && layers - 1 >= pp - 1) layouts.push_back({0, 1});  // a one-layer last stage
        for (const auto& [first, last] : layouts) {
          ParallelPlan p;
          p.pp = pp;
          p.first_stage_layers = first;
          p.last_stage_layers = last;
          try {
            validate_stage_layout(layers, p);
          } catch (const InputError&) {
            continue;
          }
          int most = 0;
          for (int i = 0; i < pp - 1; ++i) most = std::max(most, stage_layers(layers, p, i));
          const StageExtremes e = stage_extremes(layers, p);
          CAPTURE(layers);
          CAPTURE(pp);
          CAPTURE(first);
          CAPTURE(last);
          CHECK(e.most == most);
          CHECK(e.last == stage_layers(layers, p, pp - 1));
          ++checked;
        }
      }
    }
    CHECK(checked > 5000);
  }

  TEST_CASE("pipeline stages: given first and last counts (Megatron-LM), and the errors") {
    ParallelPlan p;
    p.pp = 16;
    p.first_stage_layers = 6;
    p.last_stage_layers = 0;
    CHECK(stage_layout_text(126, p) == "6 + 15 x 8");
    p.last_stage_layers = 7;
    CHECK_THROWS_WITH_AS(validate_stage_layout(126, p),
                         "last_stage_layers: 7 leaves 113 layers, which do not split evenly over the 14 other stages", InputError);
    p.first_stage_layers = 8;
    p.last_stage_layers = 6;
    CHECK(stage_layout_text(126, p) == "15 x 8 + 6");
    CHECK_NOTHROW(validate_stage_layout(126, p));
    p.first_stage_layers = 120;
    p.last_stage_layers = 0;
    CHECK_THROWS_WITH_AS(validate_stage_layout(126, p),
                         "first_stage_layers: 120 leaves 6 of the 126 layers for the other 15 stages; each needs at least one and they must add up",
                         InputError);
    p.pp = 1;
    p.first_stage_layers = 4;
    CHECK_THROWS_WITH_AS(validate_stage_layout(32, p), "first_stage_layers: 4 needs pp >= 2", InputError);
    p = ParallelPlan{};
    p.pp = 33;
    CHECK_THROWS_WITH_AS(validate_stage_layout(32, p), "pp: 33 must be between 1 and the 32 layers", InputError);
    // Interleaving needs every stage's layers in equal chunks, except that the first and last
    // chunk may hold the embedding and the loss in place of a layer (Megatron-Core's
    // account_for_embedding/loss_in_pipeline_split): 126 + 2 layers on 16 stages of 2 chunks.
    p.pp = 16;
    p.interleave = 2;
    CHECK(chunks_divide(126, p));
    CHECK_NOTHROW(validate_stage_layout(126, p));
    p.pp = 8;
    p.interleave = 8;  // Llama 3.1 405B in Megatron-Bridge: 15 + 6 x 16 + 15, chunks of 2 (1 at the ends)
    CHECK(stage_layout_text(126, p) == "15 + 6 x 16 + 15");
    CHECK_NOTHROW(validate_stage_layout(126, p));
    p.pp = 16;
    p.interleave = 3;  // 128 slots do not split into 48 chunks
    CHECK_THROWS_WITH_AS(validate_stage_layout(126, p),
                         "interleave: 3 does not divide the 7 layers of pipeline stage 1 of 16 (pp 16 x interleave 3)", InputError);
    CHECK_FALSE(chunks_divide(126, p));
    p.interleave = 2;
    p.first_stage_layers = 7;  // given counts: equal chunks only
    p.last_stage_layers = 7;
    CHECK_FALSE(chunks_divide(126, p));
    p.first_stage_layers = p.last_stage_layers = 0;
    p.pp = 8;
    CHECK(chunks_divide(96, p));
    CHECK_NOTHROW(validate_stage_layout(96, p));
  }

  TEST_CASE("pipeline layout: Megatron-Core's layout strings as published DeepSeek-V3 runs give them") {
    // Megatron-Bridge 25.09, DeepSeek-V3 on 1,024 H100 (PP 8 x VP 4): "Et|(tt|)*30mL" (scripts/performance/
    // configs/deepseek/deepseek_llm_pretrain.py): virtual stage i on rank i mod 8.
    const PipelineLayout h100 = parse_pipeline_layout("Et|(tt|)*30mL", 61, 8);
    CHECK(h100.interleave == 4);
    CHECK(h100.rank_layers == std::vector<int>{7, 8, 8, 8, 8, 8, 8, 6});
    CHECK(h100.mtp_layers == 1);
    CHECK(h100.mtp_rank == 7);
    CHECK(rank_layers_text(h100) == "7, 8, 8, 8, 8, 8, 8, 6");
    ParallelPlan p;
    p.interleave = 1;
    apply_pipeline_layout(p, h100, "Et|(tt|)*30mL");
    CHECK(p.pp == 8);
    CHECK(p.interleave == 4);
    CHECK(p.first_stage_layers == 7);
    CHECK(p.last_stage_layers == 6);
    CHECK(p.chunk_layers == 2);  // the largest virtual stage: "tt"
    // A largest chunk the plan cannot have: below the biggest stage's even share (8 layers in 4 chunks), above
    // the stage, or without interleaving.
    ParallelPlan bad = p;
    bad.chunk_layers = 1;
    CHECK_THROWS_WITH_AS(validate_stage_layout(61, bad), "chunk_layers: 1 must be from 2 to 8: the largest stage's 8 layers in 4 chunks", InputError);
    bad.chunk_layers = 9;
    CHECK_THROWS_AS(validate_stage_layout(61, bad), InputError);
    bad = ParallelPlan{};
    bad.pp = 2;
    bad.chunk_layers = 4;
    CHECK_THROWS_WITH_AS(validate_stage_layout(16, bad), "chunk_layers: 4 needs interleave > 1 (it is the largest of a stage's model chunks)", InputError);
    CHECK(h100.chunk_layers == 2);
    CHECK(stage_layout_text(61, p) == "7 + 6 x 8 + 6");
    CHECK_NOTHROW(validate_stage_layout(61, p));
    CHECK(p.first_chunk_layers == 1);  // "Et": the embedding and one layer
    ParallelPlan no_chunks = p;
    no_chunks.chunk_layers = 0;
    CHECK_THROWS_WITH_AS(validate_stage_layout(61, no_chunks), "first_chunk_layers: 1 needs chunk_layers (a pipeline layout's chunks); 0 without them",
                         InputError);
    // Without the layout Megatron-Core (and capplan) want equal chunks: 7 layers do not split into 4.
    p.chunk_layers = 0;
    p.first_chunk_layers = 0;
    CHECK_THROWS_WITH_AS(validate_stage_layout(61, p),
                         "interleave: 4 does not divide the 7 layers of pipeline stage 1 of 8 (pp 8 x interleave 4)", InputError);
    // Megatron-Bridge's B200 layout (PP 16, no interleaving), with commas and a repeated symbol.
    const PipelineLayout b200 = parse_pipeline_layout("Et*4|(t*4|)*14,tmL", 61, 16);
    CHECK(b200.interleave == 1);
    CHECK(b200.rank_layers.front() == 4);
    CHECK(b200.rank_layers[8] == 4);
    CHECK(b200.rank_layers.back() == 1);
    CHECK(b200.mtp_rank == 15);
    CHECK(b200.mtp_layers == 1);
    CHECK(b200.chunk_layers == 4);
    // Megatron-Core's documentation example (PP 16 x VP 2) puts the MTP layer in a virtual stage of its own on
    // rank 15 and the loss on rank 16: capplan times MTP beside the loss, so it refuses the layout, naming why.
    CHECK_THROWS_WITH_AS(parse_pipeline_layout("Et*3|(tt|)*29,m|L", 61, 16),
                         "pipeline_layout: \"Et*3|(tt|)*29,m|L\" puts MTP layers (m) elsewhere than in the last virtual stage, beside "
                         "the loss, where capplan times them",
                         InputError);
    // Middle ranks of different layers are read, then refused as a plan capplan cannot keep.
    const PipelineLayout uneven = parse_pipeline_layout("Et*2|t*2|t*4|t*2L", 10, 4);
    CHECK(uneven.rank_layers == std::vector<int>{2, 2, 4, 2});
    ParallelPlan q;
    CHECK_THROWS_WITH_AS(apply_pipeline_layout(q, uneven, "Et*2|t*2|t*4|t*2L"),
                         "pipeline_layout: \"Et*2|t*2|t*4|t*2L\" gives the middle pipeline ranks different layers (2, 2, 4, 2); capplan "
                         "times layouts whose ranks other than the first and the last hold the same layers",
                         InputError);
    // Chunks of a rank that differ other than in the first and last virtual stage are refused, naming the rank.
    CHECK_THROWS_WITH_AS(apply_pipeline_layout(q, parse_pipeline_layout("Et|ttt|tt|tt|ttt|t|tt|ttL", 16, 4), "Et|ttt|tt|tt|ttt|t|tt|ttL"),
                         doctest::Contains("gives pipeline rank 2's model chunks different layers (3 and 1)"), InputError);
    // Virtual stages on one rank: interleaving needs pp > 1.
    CHECK_THROWS_WITH_AS(apply_pipeline_layout(q, parse_pipeline_layout("Et*2|t*2L", 4, 1), "Et*2|t*2L"),
                         "pipeline_layout: \"Et*2|t*2L\" has 2 virtual stages on one pipeline rank; interleaving needs pp > 1", InputError);
    // Two ranks, no interleaving: the plan keeps both counts, and the chunks are even.
    ParallelPlan two;
    apply_pipeline_layout(two, parse_pipeline_layout("Et*3|t*2L", 5, 2), "Et*3|t*2L");
    CHECK(two.first_stage_layers == 3);
    CHECK(two.last_stage_layers == 2);
    CHECK(two.chunk_layers == 0);
  }

  TEST_CASE("pipeline layout: bad layouts are errors naming pipeline_layout and the text") {
    const auto err = [](std::string_view text, int layers, int pp) {
      try {
        parse_pipeline_layout(text, layers, pp);
      } catch (const InputError& e) {
        CHECK(e.field() == "pipeline_layout");
        return std::string(e.what());
      }
      return std::string("no error");
    };
    CHECK(err("Et|tt", 3, 2) == "pipeline_layout: \"Et|tt\" must end with the loss (L)");
    CHECK(err("t|EtL", 2, 2) == "pipeline_layout: \"t|EtL\" puts the embedding (E) elsewhere than at the start of the first virtual stage");
    CHECK(err("EtL|t", 2, 2) == "pipeline_layout: \"EtL|t\" puts the loss (L) elsewhere than at the end of the last virtual stage");
    CHECK(err("Et|t|tL", 3, 2) == "pipeline_layout: \"Et|t|tL\" has 3 virtual stages, not a multiple of pp 2");
    CHECK(err("Et|tL", 3, 2) == "pipeline_layout: \"Et|tL\" holds 2 transformer layers (t); the model has 3");
    CHECK(err("E|t*3L", 3, 2) ==
          "pipeline_layout: \"E|t*3L\" leaves pipeline rank 1 of 2 without a transformer layer, which capplan does not time");
    CHECK(err("Et*0|tL", 1, 2) == "pipeline_layout: \"Et*0|tL\" repeats a part 0 times");
    CHECK(err("Et*|tL", 2, 2) == "pipeline_layout: \"Et*|tL\" has a '*' without a count after it");
    CHECK(err("E*2t|tL", 2, 2) ==
          "pipeline_layout: \"E*2t|tL\" puts the embedding (E) elsewhere than at the start of the first virtual stage");  // "EEt"
    CHECK(err("Et|t*2*3L", 7, 2) == "pipeline_layout: \"Et|t*2*3L\" has a '*' that follows no symbol or group");
    CHECK(err("E((t|)*2)*2L", 4, 2) == "pipeline_layout: \"E((t|)*2)*2L\" has a group inside a group; Megatron-Core's layouts do not nest");
    CHECK(err("Et)|tL", 2, 2) == "pipeline_layout: \"Et)|tL\" closes a group it never opened");
    CHECK(err("Et|(tL", 2, 2) == "pipeline_layout: \"Et|(tL\" opens a group it never closes");
    CHECK(err("Et|()*2tL", 2, 2) == "pipeline_layout: \"Et|()*2tL\" has an empty group");
    CHECK(err("E(t)t*15|t*16L", 32, 2) == "pipeline_layout: \"E(t)t*15|t*16L\" has a group without a count after it (\"(...)*n\")");
    CHECK(err("Et*8|mt*8|t*8|t*8L", 32, 2) ==
          "pipeline_layout: \"Et*8|mt*8|t*8|t*8L\" puts MTP layers (m) elsewhere than in the last virtual stage, beside the loss, where "
          "capplan times them");
    CHECK(err("Et*16|mt*16L", 32, 2) == "pipeline_layout: \"Et*16|mt*16L\" puts a transformer layer (t) after an MTP layer (m); decoder "
                                        "layers come first");
    CHECK(err("Et|x L", 2, 2).find("has 'x', which is not E (embedding)") != std::string::npos);
    CHECK(err("Et|tL\n", 2, 2).find("has '\\x0a', which is not") != std::string::npos);
    // Runaways are refused before they are unrolled: a count past the limit, or a product of repeats.
    CHECK(err("Et*99999999999999999999|tL", 2, 2).find("repeats a part more than 65536 times") != std::string::npos);
    CHECK(err("E(t*60000|)*60000L", 2, 2).find("unrolls to more than 65536 symbols") != std::string::npos);
    // A group of 65,536 repeated 65,536 times: 65,536 + 65,536 x 65,535 = 2^32, computed in 64 bits, so it
    // cannot wrap to 0 where size_t has 32 bits (the WebAssembly build; this 64-bit test checks the arithmetic).
    CHECK(err("(t*65536)*65536L", 2, 1).find("unrolls to more than 65536 symbols") != std::string::npos);
    // Commas go first, as Megatron-Core drops them: "(tt|),*2" is "(tt|)*2".
    CHECK(parse_pipeline_layout("Et|(tt|),*2t,L", 6, 4).rank_layers == std::vector<int>{1, 2, 2, 1});
    CHECK(err("Et*17|m*17L", 17, 2) == "pipeline_layout: \"Et*17|m*17L\" holds 17 MTP layers (m); capplan takes at most 16");
    CHECK(err(std::string(5000, 't'), 5000, 1).find("pipeline_layout: 5000 characters is longer than 4096") != std::string::npos);
    CHECK_THROWS_WITH_AS(parse_pipeline_layout("EtL", 1, 0), "pp: 0 must be a positive count", InputError);
  }
}
