#pragma once
// A pipeline layout as Megatron-Core writes it (--pipeline-model-parallel-layout, the
// pipeline_model_parallel_layout of its TransformerConfig; Megatron-Core docs "Custom Pipeline Model
// Parallel Layout", megatron/core/transformer/pipeline_parallel_layer_layout.py): the virtual stages
// of a pipeline, separated by '|', each a run of
//   E  the embedding          t  a transformer (decoder) layer
//   m  a multi-token-prediction layer (DeepSeek-V3's MTP module)     L  the output layer and loss
// with "x*n" repeating one symbol, "(...)*n" a group (not nested), and commas only for the eye. There
// are pp x v virtual stages, and virtual stage i runs on pipeline rank i mod pp, as chunk i / pp of it.
// Published runs use it where the layers do not split evenly: Megatron-Bridge's DeepSeek-V3 on 1,024
// H100 (PP 8 x VP 4) is "Et|(tt|)*30mL": rank 0 holds 1 + 2 + 2 + 2 = 7 layers, ranks 1-6 8 each and
// rank 7 2 + 2 + 2 = 6 beside the MTP layer and the loss.
//
// capplan keeps a plan's layout as the layers of the first, the middle and the last rank
// (ParallelPlan::first_stage_layers / last_stage_layers, the middle ranks alike), so a layout whose
// middle ranks differ, or that leaves a rank without a layer, is refused with the ranks' counts.
// The chunks inside a rank may differ (ParallelPlan::chunk_layers, the largest; first_chunk_layers and
// last_chunk_layers, the first and the last virtual stage's, the others taken as equal shares of their rank).

#include "capplan/error.hpp"
#include "capplan/workload/parallel_plan.hpp"

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace capplan {

// The longest layout text read and the most virtual-stage symbols it may unroll to: the longest
// published layouts are a few dozen characters for a few hundred layers.
inline constexpr std::size_t max_pipeline_layout_chars = 4096;
inline constexpr std::size_t max_pipeline_layout_symbols = 1u << 16;

struct PipelineLayout {
  int pp = 1;                     // pipeline ranks
  int interleave = 1;             // virtual stages per rank (Megatron's VP)
  std::vector<int> rank_layers;   // transformer layers on each rank
  int mtp_layers = 0;             // 'm' symbols
  int mtp_rank = -1;              // the rank that holds them (-1: none)
  int chunk_layers = 0;           // the most transformer layers of any virtual stage
  int last_chunk_layers = 0;      // the transformer layers of the last virtual stage (beside the loss)
  int first_chunk_layers = 0;     // the transformer layers of the first virtual stage (beside the embedding)
  std::vector<int> virtual_layers;  // the transformer layers of each virtual stage, in order
};

namespace detail {

// Unrolls "x*n" and "(...)*n" (Megatron's two rules, groups first), drops commas; refuses anything
// else than the symbols above, nested or unbalanced parentheses and counts that would unroll past
// max_pipeline_layout_symbols.
inline std::string unroll_pipeline_layout(std::string_view text) {
  if (text.size() > max_pipeline_layout_chars)
    fail("pipeline_layout", std::to_string(text.size()) + " characters", "is longer than " + std::to_string(max_pipeline_layout_chars));
  const std::string original(text);
  const auto bad = [&](const std::string& why) { fail("pipeline_layout", "\"" + original + "\"", why); };
  // Commas are for the eye, dropped before anything else as Megatron-Core drops them: "(tt|),*30" is "(tt|)*30".
  std::string clean;
  for (const char c : text)
    if (c != ',') clean.push_back(c);
  text = clean;
  std::string out;
  // The unit a following "*n" repeats: [begin, end) of `out`.
  std::size_t unit_begin = std::string::npos, unit_end = 0;
  std::size_t group_start = std::string::npos;  // where an open group began in `out`
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == 'E' || c == 't' || c == 'm' || c == 'L' || c == '|') {
      unit_begin = out.size();
      out.push_back(c);
      unit_end = out.size();
      continue;
    }
    if (c == '(') {
      if (group_start != std::string::npos) bad("has a group inside a group; Megatron-Core's layouts do not nest");
      group_start = out.size();
      unit_begin = std::string::npos;
      continue;
    }
    if (c == ')') {
      if (group_start == std::string::npos) bad("closes a group it never opened");
      if (group_start == out.size()) bad("has an empty group");
      if (i + 1 >= text.size() || text[i + 1] != '*') bad("has a group without a count after it (\"(...)*n\")");
      unit_begin = group_start;
      unit_end = out.size();
      group_start = std::string::npos;
      continue;
    }
    if (c == '*') {
      std::size_t j = i + 1;
      long long n = 0;
      while (j < text.size() && text[j] >= '0' && text[j] <= '9') {
        n = n * 10 + (text[j] - '0');
        if (n > static_cast<long long>(max_pipeline_layout_symbols)) bad("repeats a part more than " + std::to_string(max_pipeline_layout_symbols) + " times");
        ++j;
      }
      if (j == i + 1) bad("has a '*' without a count after it");
      if (unit_begin == std::string::npos || unit_end != out.size()) bad("has a '*' that follows no symbol or group");
      if (n < 1) bad("repeats a part 0 times");
      const std::string unit = out.substr(unit_begin, unit_end - unit_begin);
      // In 64 bits, so a 32-bit size_t (the WebAssembly build) cannot wrap the product past the limit.
      if (static_cast<std::uint64_t>(out.size()) + static_cast<std::uint64_t>(unit.size()) * static_cast<std::uint64_t>(n - 1) >
          max_pipeline_layout_symbols)
        bad("unrolls to more than " + std::to_string(max_pipeline_layout_symbols) + " symbols");
      for (long long k = 1; k < n; ++k) out += unit;
      unit_begin = std::string::npos;  // "t*2*3" is not a layout
      i = j - 1;
      continue;
    }
    char shown[8];
    if (c >= 32 && c < 127)
      std::snprintf(shown, sizeof shown, "%c", c);
    else
      std::snprintf(shown, sizeof shown, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
    bad(std::string("has '") + shown + "', which is not E (embedding), t (layer), m (MTP layer), L (loss), '|', '(', ')', '*n' or ','");
  }
  if (group_start != std::string::npos) bad("opens a group it never closes");
  return out;
}

}  // namespace detail

// Reads a layout for a model of `layers` transformer layers on `pp` pipeline ranks. Every error names
// pipeline_layout and the text: the virtual stages must be a multiple of pp, the embedding the first
// symbol of the first stage and the loss the last of the last stage (each once), the layers add up to
// the model's, and every rank holds at least one layer.
inline PipelineLayout parse_pipeline_layout(std::string_view text, int layers, int pp) {
  const std::string quoted = "\"" + std::string(text) + "\"";
  const auto bad = [&](const std::string& why) { detail::fail("pipeline_layout", quoted, why); };
  if (pp < 1) detail::fail("pp", std::to_string(pp), "must be a positive count");
  if (layers < 1) detail::fail("layers", std::to_string(layers), "must be a positive count");
  const std::string flat = detail::unroll_pipeline_layout(text);
  std::vector<std::string> stages(1);
  for (const char c : flat) {
    if (c == '|')
      stages.emplace_back();
    else
      stages.back().push_back(c);
  }
  const std::size_t n = stages.size();
  if (n % static_cast<std::size_t>(pp) != 0)
    bad("has " + std::to_string(n) + " virtual stages, not a multiple of pp " + std::to_string(pp));
  PipelineLayout out;
  out.pp = pp;
  out.interleave = static_cast<int>(n / static_cast<std::size_t>(pp));
  out.rank_layers.assign(static_cast<std::size_t>(pp), 0);
  int embeddings = 0, losses = 0;
  long long total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& s = stages[i];
    const int rank = static_cast<int>(i % static_cast<std::size_t>(pp));
    int here = 0;  // transformer layers of this virtual stage
    for (std::size_t k = 0; k < s.size(); ++k) {
      switch (s[k]) {
        case 'E':
          if (i != 0 || k != 0) bad("puts the embedding (E) elsewhere than at the start of the first virtual stage");
          ++embeddings;
          break;
        case 'L':
          if (i + 1 != n || k + 1 != s.size()) bad("puts the loss (L) elsewhere than at the end of the last virtual stage");
          ++losses;
          break;
        case 'm':
          // Megatron-Core places decoder layers before MTP layers; capplan times the MTP layers beside the
          // loss, so they belong to the last virtual stage.
          if (i + 1 != n) bad("puts MTP layers (m) elsewhere than in the last virtual stage, beside the loss, where capplan times them");
          out.mtp_rank = rank;
          ++out.mtp_layers;
          break;
        default:  // 't'
          if (out.mtp_layers > 0) bad("puts a transformer layer (t) after an MTP layer (m); decoder layers come first");
          ++out.rank_layers[static_cast<std::size_t>(rank)];
          ++total;
          ++here;
      }
    }
    out.chunk_layers = std::max(out.chunk_layers, here);
    if (i == 0) out.first_chunk_layers = here;
    out.virtual_layers.push_back(here);
    if (i + 1 == n) out.last_chunk_layers = here;
  }
  if (out.mtp_layers > max_mtp_layers) bad("holds " + std::to_string(out.mtp_layers) + " MTP layers (m); capplan takes at most " + std::to_string(max_mtp_layers));
  if (embeddings != 1) bad("must start with the embedding (E)");
  if (losses != 1) bad("must end with the loss (L)");
  if (total != layers)
    bad("holds " + std::to_string(total) + " transformer layers (t); the model has " + std::to_string(layers));
  for (int r = 0; r < pp; ++r)
    if (out.rank_layers[static_cast<std::size_t>(r)] < 1)
      bad("leaves pipeline rank " + std::to_string(r + 1) + " of " + std::to_string(pp) + " without a transformer layer, which capplan does not time");
  return out;
}

// The layers of each rank in words: "7, 8, 8, 8, 8, 8, 8, 6".
inline std::string rank_layers_text(const PipelineLayout& l) {
  std::string s;
  for (const int x : l.rank_layers) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

// The layout as a plan: pp and interleave from the layout, the first and last rank's layers, and the
// chunks free to differ. The middle ranks must hold the same layers (the plan keeps one count for
// them). The MTP layers go with the last rank (parse_pipeline_layout keeps them in the last virtual
// stage).
inline void apply_pipeline_layout(ParallelPlan& plan, const PipelineLayout& l, std::string_view text) {
  const std::string quoted = "\"" + std::string(text) + "\"";
  const int pp = l.pp;
  for (int r = 2; r < pp - 1; ++r)
    if (l.rank_layers[static_cast<std::size_t>(r)] != l.rank_layers[1])
      detail::fail("pipeline_layout", quoted,
                   "gives the middle pipeline ranks different layers (" + rank_layers_text(l) +
                       "); capplan times layouts whose ranks other than the first and the last hold the same layers");
  // A rank's chunks other than the first rank's first and the last rank's last must hold the same
  // layers: the plan keeps those two counts and an even share for the rest (memory/pipeline_in_flight.hpp).
  const int v = l.interleave;
  for (int r = 0; r < pp && v > 1; ++r) {
    int same = -1;
    for (int c = 0; c < v; ++c) {
      if ((r == 0 && c == 0) || (r == pp - 1 && c == v - 1)) continue;
      const std::size_t at = static_cast<std::size_t>(c) * static_cast<std::size_t>(pp) + static_cast<std::size_t>(r);
      if (at >= l.virtual_layers.size()) continue;
      const int here = l.virtual_layers[at];
      if (same >= 0 && here != same)
        detail::fail("pipeline_layout", quoted,
                     "gives pipeline rank " + std::to_string(r + 1) + "'s model chunks different layers (" + std::to_string(same) + " and " +
                         std::to_string(here) + "); capplan sizes layouts whose chunks differ only in the first and the last virtual stage");
      same = here;
    }
  }
  if (pp == 1 && l.interleave > 1)
    detail::fail("pipeline_layout", quoted, "has " + std::to_string(l.interleave) + " virtual stages on one pipeline rank; interleaving needs pp > 1");
  plan.pp = pp;
  plan.interleave = l.interleave;
  plan.first_stage_layers = pp > 1 ? l.rank_layers.front() : 0;
  plan.last_stage_layers = pp > 1 ? l.rank_layers.back() : 0;
  plan.chunk_layers = l.interleave > 1 ? l.chunk_layers : 0;
  plan.last_chunk_layers = l.interleave > 1 ? l.last_chunk_layers : 0;
  plan.first_chunk_layers = l.interleave > 1 ? l.first_chunk_layers : 0;
}

}  // namespace capplan
