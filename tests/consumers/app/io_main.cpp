// A consumer of capplan::io: a model file read from text (nlohmann/json through the installed
// package's io component), its parameters counted.
#include <capplan/io/model_json.hpp>
#include <capplan/workload/params.hpp>

#include <cstdio>

int main() {
  const capplan::TransformerShape gpt2 = capplan::io::parse_model_json(R"({"name": "GPT-2 124M", "layers": 12, "hidden": 768,
    "heads": 12, "ffn_hidden": 3072, "vocab": 50304, "tied_embeddings": true, "seq_len": 1024, "norm": "layernorm",
    "linear_bias": true, "learned_positions": 1024})");
  std::printf("io: %.0f parameters\n", capplan::parameter_total(gpt2));
  return 0;
}
