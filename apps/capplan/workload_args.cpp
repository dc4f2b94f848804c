#include "workload_args.hpp"

#include "args.hpp"
#include "fit_hints.hpp"

#include <capplan/detail/text.hpp>
#include <capplan/error.hpp>
#include <capplan/io/image_model_json.hpp>
#include <capplan/io/model_json.hpp>
#include <capplan/memory/formats.hpp>
#include <capplan/memory/solvers.hpp>
#include <capplan/units/format.hpp>
#include <capplan/workload/parallel_plan.hpp>
#include <capplan/workload/params.hpp>
#include <capplan/workload/pipeline_layout.hpp>
#include <capplan/workload/presets.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <span>

namespace capplan::cli {

namespace {

bool looks_like_file(const std::string& text) {
  return text.find('/') != std::string::npos || text.find('\\') != std::string::npos ||
         (text.size() > 5 && text.substr(text.size() - 5) == ".json");
}

// "\"Llama-3.1-8B-Instruct\" read as llama3.1-8b ...; " where a name other than the id found the
// preset (workload/presets.hpp match_model), "" where the id was typed.
std::string read_as(const std::string& text, const ModelPreset& p) {
  if (capplan::detail::lower_ascii(text) == p.id) return "";
  return "\"" + text + "\" taken as " + p.id + ", whose tunes and releases share its shape; ";
}

}  // namespace

Optimizer optimizer_arg(const std::string& s) {
  if (s == "adam" || s == "adamw") return Optimizer::adam;
  if (s == "adam8bit") return Optimizer::adam_8bit;
  if (s == "sgd-momentum") return Optimizer::sgd_momentum;
  if (s == "sgd") return Optimizer::sgd;
  if (s == "adafactor") return Optimizer::adafactor;
  detail::fail("--optimizer", "\"" + s + "\"", "is not an optimizer (adam, adam8bit, sgd-momentum, sgd, adafactor)");
}

void add_attention_kernel_flag(CLI::App* cmd, std::string& into) {
  cmd->add_option("--attention-kernel", into,
                  "Fused attention kernel: flash2 (FlashAttention-2; the default, cudnn with --framework megatron-core), flash3 (FlashAttention-3, Hopper only), cudnn "
                  "(cuDNN fused attention: Transformer Engine's, so NeMo's and Megatron-Core's, on Hopper)")
      ->check(CLI::IsMember({"flash2", "flash3", "cudnn"}));
}

perf::AttentionKernel attention_kernel_arg(const std::string& text) {
  if (text.empty() || text == "flash2") return perf::AttentionKernel::flash2;
  if (text == "flash3") return perf::AttentionKernel::flash3;
  if (text == "cudnn") return perf::AttentionKernel::cudnn;
  detail::fail("--attention-kernel", "\"" + text + "\"", "is not flash2, flash3 or cudnn");
}

void add_framework_flag(CLI::App* cmd, std::string& into, std::string& grad_reduce) {
  cmd->add_option("--grad-reduce", grad_reduce,
                  "Precision of the data-parallel gradient reduction: bf16, fp16 or fp32 (default: the framework's; fp32 for megatron-core, "
                  "fsdp and eager, bf16 for generic). Megatron-Core's --grad-reduce-in-bf16, as Megatron-Bridge's MoE performance recipes run "
                  "(Qwen3, GPT-OSS, DeepSeek-V3): it also keeps megatron-core's gradients in bf16 (16 B/param, not 18)")
      ->check(CLI::IsMember({"bf16", "fp16", "fp32"}));
  cmd->add_option("--framework", into,
                  "Training framework: generic (default; bf16 weights and gradients, fp32 master copy: 16 B/param, DeepSpeed's "
                  "accounting), megatron-core (fp32 main gradients reduced in fp32, cuDNN attention: 18 B/param, 6 + 12/d with "
                  "--zero 1), fsdp (PyTorch FSDP/DDP: fp32 parameters and gradients, no separate master copy), eager (plain PyTorch "
                  "under autocast, as Hugging Face Transformers trains: fsdp's memory, every norm, RoPE, activation and residual "
                  "add its own kernel on an fp32 residual stream)");
}

perf::Framework framework_arg(const std::string& text, const std::string& attention_kernel, const std::string& grad_reduce) {
  perf::Framework f;
  if (text == "megatron-core") f = perf::megatron_core();
  else if (text == "fsdp") f = perf::pytorch_fsdp();
  else if (text == "eager") f = perf::pytorch_eager();
  else if (!text.empty() && text != "generic")
    detail::fail("--framework", "\"" + text + "\"", "is not a framework preset (generic, megatron-core, fsdp, eager)");
  if (!attention_kernel.empty()) f.attention_kernel = attention_kernel_arg(attention_kernel);
  if (!grad_reduce.empty()) {
    if (grad_reduce != "bf16" && grad_reduce != "fp16" && grad_reduce != "fp32")
      detail::fail("--grad-reduce", "\"" + grad_reduce + "\"", "is not bf16, fp16 or fp32");
    f = perf::reduce_gradients_in(std::move(f), grad_reduce == "bf16" ? Precision::bf16 : grad_reduce == "fp16" ? Precision::fp16 : Precision::fp32);
  }
  return f;
}

void check_grad_reduce(const std::string& grad_reduce, const perf::Framework& fw, Precision training) {
  if (grad_reduce.empty() || grad_reduce == "fp32" || !fw.grad_buffer_in_reduce_precision) return;
  // Megatron-Core's gradient buffer takes the parameters' dtype unless it is fp32 (grad_reduce_in_fp32):
  // a 16-bit reduction is the parameters' 16 bits, bf16 under bf16, FP8 and FP4 training, fp16 under fp16.
  if (training == Precision::fp32)
    detail::fail("--grad-reduce", grad_reduce, "is not what Megatron-Core reduces in under --precision fp32: the parameters' dtype, fp32; use fp32 or leave it out");
  const char* params = training == Precision::fp16 ? "fp16" : "bf16";
  if (grad_reduce != params)
    detail::fail("--grad-reduce", grad_reduce,
                 std::string("must be ") + params + " or fp32: Megatron-Core reduces in the parameters' dtype, " + params + " under --precision " +
                     std::string(name(training)));
}

void add_recompute_modules_flag(CLI::App* cmd, std::optional<std::string>& into) {
  cmd->add_option("--recompute-modules", into,
                  "What selective recomputation reruns, as Megatron-Core's --recompute-modules names it (comma- or space-separated): "
                  "core_attn (the default), mlp, moe, moe_act, shared_experts, layernorm, mla_up_proj; implies --recompute selective");
}

void add_mtp_layers_flag(CLI::App* cmd, std::optional<int>& into, bool layout) {
  cmd->add_option("--mtp-layers", into,
                  std::string("Multi-token-prediction layers trained on the last pipeline stage (DeepSeek-V3's 1; Megatron-Core --mtp-num-layers), "
                              "each one more layer, an output pass with its loss and a 2h x h projection (default: ") +
                      (layout ? "the m of --pipeline-layout, else 0)" : "0)"));
}

int mtp_layers_arg(int value) {
  if (value < 0 || value > max_mtp_layers) detail::fail("--mtp-layers", std::to_string(value), "must be 0 to " + std::to_string(max_mtp_layers));
  return value;
}

void add_launch_time_flag(CLI::App* cmd, std::string& into) {
  cmd->add_option("--launch-time", into,
                  "Host time to launch one kernel, e.g. '20 us': each layer's forward takes at least its kernels' launches and its "
                  "backward twice that (default: the framework's; 57.9 us for eager, fitted on in-house GPT-2-sized steps; 0 for the "
                  "others, whose GPUs never wait on the host)");
}

void add_overlap_flags(CLI::App* cmd, OverlapArgs& a) {
  cmd->add_option("--overlap-grad-reduce", a.grad_reduce,
                  "on or off: the data-parallel gradient reduction runs during the backward pass, layer by layer (on: the default of "
                  "every framework preset but the Megatron-LM 2021 and 2022 ones; Megatron's --overlap-grad-reduce, which Megatron-Bridge sets whenever "
                  "DP > 1) or after it, exposed");
  cmd->add_option("--overlap-param-gather", a.param_gather,
                  "on or off: weights are all-gathered ahead of their use, overlapped with compute: under ZeRO 1-2 the updated "
                  "weights during the next forward pass, bucket by bucket, instead of in the optimizer step (Megatron's "
                  "--overlap-param-gather: on for megatron-core and fsdp, off for generic, DeepSpeed's way; with --overlap-grad-reduce "
                  "off Megatron keeps one bucket, which the forward waits for whole), under ZeRO 3 the next layer's prefetch (on for "
                  "every preset); needs --zero 1, 2 or 3");
  cmd->add_option("--moe-a2a-overlap", a.moe_a2a,
                  "on or off: mixture of experts with expert parallelism: one micro-batch's dispatch and combine all-to-alls run under "
                  "another's compute, a forward paired with a backward (Megatron-Core's --overlap-moe-expert-parallel-comm, the combined "
                  "1F1B schedule, which Megatron-Bridge's DeepSeek-V3 H100 recipes turn on; off: the default, all-to-alls exposed); needs "
                  "--framework megatron-core; runs without pipelining or with an interleaved pipeline, not under --recompute full");
}

void apply_overlap_args(const OverlapArgs& a, perf::Framework& fw, const TransformerShape& shape, const std::string& framework,
                        const std::optional<std::string>& recompute) {
  const auto on = [](const std::string& text, const char* flag) {
    if (text == "on") return true;
    if (text == "off") return false;
    detail::fail(flag, "\"" + text + "\"", "is not on or off");
  };
  if (!a.grad_reduce.empty()) fw.overlap_grad_reduce = on(a.grad_reduce, "--overlap-grad-reduce");
  if (!a.param_gather.empty()) fw.overlap_param_gather = fw.gather_weights_in_forward = on(a.param_gather, "--overlap-param-gather");
  if (!a.moe_a2a.empty()) {
    fw.moe_a2a_overlap = on(a.moe_a2a, "--moe-a2a-overlap");
    if (!shape.moe) detail::fail("--moe-a2a-overlap", "\"" + a.moe_a2a + "\"", "needs a mixture-of-experts model; " + shape.name + " is dense");
    if (fw.moe_a2a_overlap && framework != "megatron-core")
      detail::fail("--moe-a2a-overlap", "\"" + a.moe_a2a + "\"",
                   "is Megatron-Core's combined 1F1B schedule: give --framework megatron-core (this run: " +
                       (framework.empty() ? std::string("generic") : framework) + ")");
    if (fw.moe_a2a_overlap && recompute && *recompute == "full")
      detail::fail("--moe-a2a-overlap", "\"" + a.moe_a2a + "\"", "does not run under --recompute full (Megatron-Core's combined 1F1B schedule); use selective");
  }
}

// A time of 0 to `max_s` (1 ms unless given; `max_text` says it) for `flag`.
static Duration short_time_arg(const std::string& text, const char* flag, double max_s = 1e-3, const char* max_text = "1 ms") {
  const Duration d = quantity_arg<Duration>(text, "s", flag);
  if (!(d.value() >= 0) || d.value() > max_s) detail::fail(flag, text, std::string("must be 0 to ") + max_text);
  return d;
}

double launch_time_arg(const std::string& text) { return short_time_arg(text, "--launch-time").value(); }

void add_moe_routed_time_flag(CLI::App* cmd, std::string& into) {
  cmd->add_option("--moe-routed-time", into,
                  "Mixture of experts: GPU time per routed value (tokens x experts per token x hidden) of a MoE layer beyond "
                  "its kernels and all-to-alls, forward and backward, e.g. '30 ps' (default: the framework's; megatron-core's is fitted on "
                  "Megatron-Bridge's token-dropping Qwen3 runs; 0 for the others)");
}

double moe_routed_time_arg(const std::string& text, const TransformerShape& shape) {
  const Duration d = short_time_arg(text, "--moe-routed-time", 1e-9, "1 ns");
  if (!shape.moe) detail::fail("--moe-routed-time", text, "applies to a mixture-of-experts model; " + shape.name + " has no experts");
  return d.value();
}

void add_weight_stream_latency_flag(CLI::App* cmd, std::string& into) {
  cmd->add_option("--weight-stream-latency", into,
                  "Fixed time of a matmul that streams its weights, beyond its bytes over the memory bandwidth, e.g. '8 us' (default "
                  "12 us, fitted on in-house H100 and H200 GEMV timings; 0: bytes alone)");
}

Duration weight_stream_latency_arg(const std::string& text) { return short_time_arg(text, "--weight-stream-latency"); }

void add_eager_launch_time_flag(CLI::App* cmd, std::string& into) {
  cmd->add_option("--launch-time", into,
                  "With --eager: the host's time per kernel launched from Python, module code included, e.g. '20 us' (default "
                  "32.7 us, fitted on one host's eager Llama-3.2-1B prefills, where a bare op launched in 10-15 us; another host "
                  "ran up to 1.8x faster)");
}

void add_cuda_graphs_flag(CLI::App* cmd, bool& into) {
  cmd->add_flag("--cuda-graphs", into,
                "Serving: the engine replays each decode step as a CUDA graph (vLLM, TensorRT-LLM, gpt-fast's compiled mode): "
                "kernel launches cost 0.27 of eager ones");
}

void add_eager_flag(CLI::App* cmd, bool& into) {
  cmd->add_flag("--eager", into,
                "Serving: plain PyTorch (a model written in torch ops, Hugging Face generate without a compiled cache): unfused "
                "kernels, each launched from Python at 32.7 us (measured on one host); the GPU waits where that is longer. "
                "Not with --cuda-graphs");
}

void add_usable_memory_flag(CLI::App* cmd, std::string& into) {
  cmd->add_option("--usable-memory", into,
                  "Memory a run may use per GPU, e.g. '120 GB' (default: the catalog's usable figure; Apple silicon: what "
                  "'sudo sysctl iogpu.wired_limit_mb' raised Metal's 75 % working set to)");
}

GpuSpec gpu_with_usable_memory(const GpuSpec& gpu, const std::string& flag) {
  GpuSpec g = gpu;
  if (flag.empty()) return g;
  const DataSize d = quantity_arg<DataSize>(flag, "B", "--usable-memory");
  if (!(d.value() >= 64e6)) detail::fail("--usable-memory", flag, "is less than 64 MB");
  // At most what the GPU has: its label, or the runtime's total where the catalog records a larger one
  // (a B200's "180 GB" reports 192.3 GB).
  const DataSize most = gpu.capacity().value() > gpu.memory.value() ? gpu.capacity() : gpu.memory;
  if (d.value() > most.value()) {
    // Both units: a card's "24 GB" is 24 GiB of chips, of which the runtime reports a little less.
    const bool reported = gpu.usable_memory && most.value() == gpu.usable_memory->value();
    // Whole MiB where the figure is one (what nvidia-smi prints), so that rounding never makes the two look equal.
    const double mib = most.value() / 1048576.0;
    const std::string exact = mib == std::floor(mib) ? std::to_string(static_cast<std::int64_t>(mib)) + " MiB = " : std::string();
    detail::fail("--usable-memory", flag,
                 "is more than the " + exact + format(most, {.significant = 4, .prefixes = Prefixes::binary}) + " (" + format(most, {.significant = 4}) + ") " +
                     (reported ? "the runtime reports for " + gpu.id + ", the most a run can use" : "of memory " + gpu.id + " has"));
  }
  g.usable_memory = d;
  return g;
}

void add_moe_capacity_flag(CLI::App* cmd, std::optional<double>& into) {
  cmd->add_option("--moe-capacity-factor", into,
                  "MoE: tokens each expert computes and exchanges over a balanced share (default 1: balanced, dropless); "
                  "token-dropping frameworks pad to it (GShard, Switch: 1.0-2.0)");
}

double moe_capacity_arg(const std::optional<double>& flag, const TransformerShape& shape) {
  if (!flag) return 1.0;
  if (!shape.moe) detail::fail("--moe-capacity-factor", detail::format_double(*flag), "needs a mixture-of-experts model; " + shape.name + " is dense");
  return perf::require_moe_capacity_factor(*flag, "--moe-capacity-factor");
}

void add_moe_dispatch_flag(CLI::App* cmd, std::string& into) {
  cmd->add_option("--moe-dispatch", into,
                  "MoE: how tokens reach experts on other GPUs: alltoall (default; one NCCL all-to-all, a copy per token and "
                  "expert) or deepep (DeepEP's two hops: one network copy per node, then NVLink)");
}

perf::MoeDispatch moe_dispatch_arg(const std::string& flag, const TransformerShape& shape) {
  if (flag.empty()) return perf::MoeDispatch::alltoall;
  if (!shape.moe) detail::fail("--moe-dispatch", "\"" + flag + "\"", "needs a mixture-of-experts model; " + shape.name + " is dense");
  if (flag == "alltoall") return perf::MoeDispatch::alltoall;
  if (flag == "deepep") return perf::MoeDispatch::deepep;
  detail::fail("--moe-dispatch", "\"" + flag + "\"", "is not a dispatcher (alltoall, deepep)");
}

std::string window_note(const TransformerShape& shape) {
  if (!shape.window) return "";
  const int w = shape.windowed_layers();
  const std::string tokens = std::to_string(shape.window->tokens);
  return "Sliding-window attention: " + (w == shape.layers ? "every layer attends" : std::to_string(w) + " of " + std::to_string(shape.layers) + " layers attend") +
         " to the last " + tokens + " tokens, the others to the whole context; those layers keep " + tokens +
         " tokens of KV cache and skip the attention work outside the window (docs/memory.md, docs/flops.md).";
}

std::string context_note(const ModelArg& m, std::int64_t tokens) {
  if (tokens <= m.shape.seq_len) return "";
  const bool file = m.source.rfind("model file", 0) == 0;
  return "Context: " + std::to_string(tokens) + " tokens a sequence, more than the " + std::to_string(m.shape.seq_len) + " tokens of " + m.shape.name +
         "'s context window (" + (file ? "the model file's seq_len, 2048 where it gives none" : "the preset's sequence length") +
         "): sized and timed as asked, though the model was not trained to attend that far (a long-context variant or RoPE scaling is).";
}

ModelArg model_arg(const std::string& text) {
  if (text.empty()) detail::fail("--model", "\"\"", "is empty; give a preset id (e.g. llama2-7b) or a JSON model file");
  ModelArg m;
  // FILE#/pointer: the model object at a JSON pointer inside a file (a --scenario's "model").
  if (const auto hash = text.find("#/"); hash != std::string::npos && hash > 0) {
    const std::string file = text.substr(0, hash);
    if (!std::filesystem::is_regular_file(file)) detail::fail("--model", "\"" + text + "\"", "does not name an existing file before '#'");
    m.shape = io::load_model_file(file, text.substr(hash + 1));
    m.id = m.shape.name.empty() ? "model" : m.shape.name;
    m.source = "model object at " + text.substr(hash + 1) + " in " + file;
    m.train_seq_len = m.shape.seq_len;
    return m;
  }
  // A path that is no file may be a Hugging Face repository name ("meta-llama/Llama-3.1-8B").
  // A local clone's directory ("meta-llama/Llama-3.1-8B") is no model file: its name is tried as a preset's.
  if (looks_like_file(text) && (std::filesystem::is_regular_file(text) || !match_model(text))) {
    const bool json_name = text.size() > 5 && capplan::detail::lower_ascii(text.substr(text.size() - 5)) == ".json";
    if (json_name && !std::filesystem::is_regular_file(text))
      detail::fail("--model", "\"" + text + "\"", "is not an existing model file (keys: docs/catalog-files.md)");
    if (!std::filesystem::is_regular_file(text)) {
      std::string msg = "is neither a model file nor a model preset's name; closest presets: ";
      std::string tail = text;
      while (!tail.empty() && (tail.back() == '/' || tail.back() == '\\')) tail.pop_back();
      if (const auto slash = tail.find_last_of("/\\"); slash != std::string::npos) tail = tail.substr(slash + 1);
      const auto near = closest_model_ids(capplan::detail::lower_ascii(tail));
      for (std::size_t i = 0; i < near.size(); ++i) msg += (i ? ", " : "") + near[i];
      // A quantized checkpoint's name says so; its base model with --weights sizes it.
      const std::string lower = capplan::detail::lower_ascii(text);
      bool quantized = false;
      for (const char* word : {"awq", "gptq", "gguf", "fp8", "fp4", "int4", "int8", "bnb", "4bit", "8bit", "exl2", "mlx", "nvfp4", "mxfp4", "w4a16", "w8a8"})
        quantized = quantized || lower.find(word) != std::string::npos;
      detail::fail("--model", "\"" + text + "\"",
                   msg + " (capplan catalog list --kind models lists them" +
                       (quantized ? "; a quantized checkpoint's name is not taken: pass its base model and --weights (int4 for AWQ/GPTQ, "
                                    "q4_0 for a GGUF Q4_0, nf4 for bitsandbytes 4-bit, fp8)"
                                  : "; a model of another shape is described in a JSON model file, docs/catalog-files.md") +
                       ")");
    }
    m.shape = io::load_model_file(text);
    m.id = m.shape.name.empty() ? text : m.shape.name;
    m.source = "model file " + text;
    m.train_seq_len = m.shape.seq_len;
    return m;
  }
  try {
    const ModelPreset& p = find_model(text);
    if (!p.is_transformer())
      detail::fail("model", "\"" + text + "\"",
                   "is an image model (" + p.generic().name + "): capplan train (--epochs), memory (--batch-per-gpu) and infer (--batch) take it; compare and the other commands take transformers");
    m.shape = p.transformer();
    m.id = p.id;
    m.source = read_as(text, p) + p.source;
    m.train_seq_len = p.training_seq_len();
    m.released_weights = p.released_weights;
    m.released_expert_weights = p.released_expert_weights;
    m.released_source = p.released_source;
    if (p.pretrain_seq_len > 0) m.train_seq_source = "pre-training length (" + p.pretrain_source + ")";
  } catch (const InputError& e) {
    // Name the flag: "--model: model: ..." reads badly, so replace the field.
    std::string what = e.what();
    const std::string prefix = "model: ";
    if (what.rfind(prefix, 0) == 0) what = what.substr(prefix.size());
    throw InputError("--model", text, "--model: " + what);
  }
  return m;
}

std::int64_t training_seq_len(const std::optional<std::int64_t>& flag, const ModelArg& m) {
  if (flag) {
    if (*flag < 1) detail::fail("--seq-len", std::to_string(*flag), "must be a positive count");
    if (*flag > 16 * 1024 * 1024) detail::fail("--seq-len", std::to_string(*flag), "is more than 16,777,216 tokens");
    return *flag;
  }
  return m.train_seq_len > 0 ? m.train_seq_len : m.shape.seq_len;
}

std::string seq_len_note(const std::optional<std::int64_t>& flag, const ModelArg& m) {
  if (flag) return "Sequence length " + std::to_string(*flag) + " (--seq-len).";
  const std::int64_t len = training_seq_len(flag, m);
  return "Sequence length " + std::to_string(len) + ": " +
         (m.train_seq_source.empty() ? "the model's" : m.id + "'s " + m.train_seq_source) +
         (m.shape.seq_len != len ? "; it serves up to " + std::to_string(m.shape.seq_len) + " tokens" : std::string()) +
         "; --seq-len to change.";
}

// --pipeline-layout read for `layers` layers on `pp` ranks; the library's error under the flag.
PipelineLayout layout_arg(const std::string& text, int layers, int pp) {
  try {
    return parse_pipeline_layout(text, layers, pp);
  } catch (const InputError& e) {
    fail_as_flag("--pipeline-layout", e.value(), e);
  }
}

int pipeline_layout_mtp_layers(const PlanArgs& a, const ModelArg& m) {
  if (!a.pipeline_layout || !a.pp) return 0;
  return layout_arg(*a.pipeline_layout, m.shape.layers, *a.pp).mtp_layers;
}

int mtp_layers_of(const PlanArgs& a, const ModelArg& m) {
  const int layout_mtp = pipeline_layout_mtp_layers(a, m);
  if (!a.mtp_layers) return layout_mtp;
  (void)mtp_layers_arg(*a.mtp_layers);
  // Without --pp the layout is refused for that (training_config), not for its MTP count.
  if (a.pipeline_layout && a.pp && *a.mtp_layers != layout_mtp)
    detail::fail("--mtp-layers", std::to_string(*a.mtp_layers),
                 "differs from the " + std::to_string(layout_mtp) + " MTP layer" + (layout_mtp == 1 ? "" : "s") + " (m) of --pipeline-layout \"" +
                     *a.pipeline_layout + "\"");
  return *a.mtp_layers;
}

std::string mtp_note(int mtp_layers, const TransformerShape& shape) {
  // One MTP module (DeepSeek-V3 report §2.2): a transformer layer of the model's kind, a projection of the
  // concatenated [h; embedding] (2h x h) and another pass through the shared output head, per token.
  const double per_token = static_cast<double>(matmul_parameters_per_token(shape));
  const double head = static_cast<double>(shape.hidden) * static_cast<double>(shape.vocab);
  const double layer = (per_token - head) / shape.layers;
  const double hidden = static_cast<double>(shape.hidden);
  const double mtp = mtp_layers * (layer + 2.0 * hidden * hidden + head);
  char share[32];
  std::snprintf(share, sizeof share, "%.0f %%", 100.0 * mtp / per_token);
  return std::to_string(mtp_layers) + " MTP layer" + (mtp_layers > 1 ? "s" : "") + " timed on the last pipeline stage, " +
         (mtp_layers > 1 ? "each as " : "as ") +
         "one more layer, another pass through the output layer and its loss, and a 2h x h projection per token: about " + share +
         " of the model's matrix FLOPs, all on that stage. Memory counts their weights and activations on that stage; model FLOPs "
         "(MFU, HFU) count the model without them.";
}

std::vector<std::string> pipeline_layout_notes(const PlanArgs& a, const ModelArg& m) {
  if (!a.pipeline_layout || !a.pp) return {};
  const TransformerShape& shape = m.shape;
  const PipelineLayout l = layout_arg(*a.pipeline_layout, shape.layers, *a.pp);
  std::vector<std::string> out;
  out.push_back("Pipeline layout \"" + *a.pipeline_layout + "\" (Megatron-Core --pipeline-model-parallel-layout): " + std::to_string(l.pp) +
                " ranks x " + std::to_string(l.interleave) + " virtual stages, ranks of " + rank_layers_text(l) +
                " layers; the embedding on the first rank, the output layer and loss on the last" +
                (l.interleave > 1 ? "; a rank's chunks may hold different layers (at most " + std::to_string(l.chunk_layers) +
                                        (l.first_chunk_layers > 0 ? ", the first " + std::to_string(l.first_chunk_layers) + " beside the embedding"
                                                                  : std::string(", the first only the embedding (memory takes it as an even share)")) +
                                        ", the last " +
                                        std::to_string(l.last_chunk_layers) +
                                        " beside the loss): the bubble passes the longest chunk, and memory walks the interleaved schedule over the chunks' layers."
                                  : "."));
  return out;
}

void add_finetune_flags(CLI::App* cmd, FinetuneArgs& a) {
  cmd->add_option("--finetune", a.finetune,
                  "full (default: every weight trained), lora (adapters beside frozen bf16 weights) or qlora (frozen NF4 weights)")
      ->check(CLI::IsMember({"full", "lora", "qlora"}));
  cmd->add_option("--lora-rank", a.lora_rank, "LoRA rank r (default 16)");
  cmd->add_flag("--lora-mlp", a.lora_mlp, "Adapters on the FFN matrices too (QLoRA's all-linear setting), not only q, k, v, o");
}

std::pair<FineTune, LoraOptions> finetune_arg(const FinetuneArgs& a) {
  FineTune f = FineTune::full;
  if (a.finetune == "lora") f = FineTune::lora;
  else if (a.finetune == "qlora") f = FineTune::qlora;
  else if (a.finetune != "full") detail::fail("--finetune", "\"" + a.finetune + "\"", "is not full, lora or qlora");
  LoraOptions l;
  if (f == FineTune::full) {
    if (a.lora_rank) detail::fail("--lora-rank", std::to_string(*a.lora_rank), "needs --finetune lora or qlora");
    if (a.lora_mlp) detail::fail("--lora-mlp", "true", "needs --finetune lora or qlora");
    return {f, l};
  }
  if (a.lora_rank) {
    if (*a.lora_rank < 1 || *a.lora_rank > 65536) detail::fail("--lora-rank", std::to_string(*a.lora_rank), "is outside 1 to 65536");
    l.rank = *a.lora_rank;
  }
  l.mlp = a.lora_mlp;
  return {f, l};
}

std::string finetune_text(FineTune f, const LoraOptions& l, const TransformerShape& shape) {
  if (f == FineTune::full) return "";
  return std::string(f == FineTune::qlora ? "QLoRA" : "LoRA") + " rank " + std::to_string(l.rank) + " on q k v o" +
         (l.mlp ? " and the FFN" : "") + " (" + count_text(static_cast<double>(lora_parameter_count(shape, l))) +
         " trainable parameters)";
}

std::string qlora_recompute_note(FineTune f, Recompute r, bool given) {
  if (f != FineTune::qlora) return "";
  static constexpr const char* peft =
      "PEFT's prepare_model_for_kbit_training turns gradient checkpointing on for QLoRA unless told otherwise "
      "(use_gradient_checkpointing=True; Dettmers et al. 2023 train with it)";
  if (r == Recompute::full)
    return given ? "" : std::string("Recompute full: ") + peft + "; --recompute none counts the activations without it.";
  if (given) return "";
  return std::string("QLoRA without gradient checkpointing (recompute none or selective) where the plan search finds it fits, as faster: ") +
         peft + ", so pass use_gradient_checkpointing=False to run such a plan; --recompute full times PEFT's default.";
}

void refuse_diffusion_training(const ImageModelArg& m) {
  if (m.shape.is_diffusion())
    detail::fail("--model", m.id,
                 "is a diffusion UNet: capplan times its image generation (capplan infer or compare --serve, with --steps), not its "
                 "training (AdamW states, the VAE and text encoders, the noise schedule are not modelled)");
}

void apply_resolution(ImageModelArg& m, const std::string& text) {
  if (text.empty()) return;
  const std::optional<UNetConfig> base = find_unet_config(m.id);
  if (!base) detail::fail("--resolution", text, "applies to the diffusion UNet presets (sd15-unet, sdxl-unet); " + m.id + " is timed at " + m.shape.image);
  // WIDTHxHEIGHT, digits only.
  const auto x = text.find_first_of("xX");
  const auto number = [&](const std::string& part) -> int {
    if (part.empty() || part.size() > 5 || part.find_first_not_of("0123456789") != std::string::npos)
      detail::fail("--resolution", text, "is not WIDTHxHEIGHT in pixels, such as 1024x1024 or 832x1216");
    return std::stoi(part);
  };
  if (x == std::string::npos) detail::fail("--resolution", text, "is not WIDTHxHEIGHT in pixels, such as 1024x1024 or 832x1216");
  const int w = number(text.substr(0, x)), h = number(text.substr(x + 1));
  const int step = 8 << (base->channels.size() - 1);  // the latent is the image / 8, halved at every level but the last
  if (w < step || h < step || w > 16384 || h > 16384 || w % step != 0 || h % step != 0)
    detail::fail("--resolution", text, "must be multiples of " + std::to_string(step) + " pixels, at most 16384, for " + m.id);
  UNetConfig c = *base;
  c.latent_side = h / 8;
  c.latent_width = w / 8;
  try {
    m.shape = diffusion_unet(c);
    m.shape.validate();
  } catch (const InputError& e) {
    // A side a UNet's or its VAE decoder's layers cannot hold (more than 1e9 values of one tensor per image).
    detail::fail("--resolution", text, std::string("is too large for ") + m.id + "'s layers (" + e.what() + ")");
  }
  try {
    for (const ImageModel& d : m.shape.decoder) d.validate();  // the VAE decoder works at the full resolution
  } catch (const InputError& e) {
    detail::fail("--resolution", text, std::string("is too large for the VAE decoder, which works at the image's full resolution (") + e.what() + ")");
  }
}

std::optional<ImageModelArg> image_model_arg(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (const auto hash = text.find("#/"); hash != std::string::npos && hash > 0) {
    const std::string file = text.substr(0, hash), pointer = text.substr(hash + 1);
    if (!std::filesystem::is_regular_file(file)) return std::nullopt;  // model_arg names the problem
    const io::JsonDocument doc = io::JsonDocument::load(file, io::max_image_model_file_bytes);
    const io::Json* v = nullptr;
    try {
      v = &doc.root().at(io::Json::json_pointer(pointer));
    } catch (const io::Json::exception&) {
      return std::nullopt;
    }
    if (!io::is_image_model_json(*v)) return std::nullopt;
    ImageModel net = io::read_image_model(doc, *v, pointer);
    std::string id = net.name.empty() ? "model" : net.name;
    return ImageModelArg{std::move(net), std::move(id), "model object at " + pointer + " in " + file};
  }
  if (looks_like_file(text) && (std::filesystem::exists(text) || !match_model(text))) {
    if (!std::filesystem::is_regular_file(text)) return std::nullopt;
    const io::JsonDocument doc = io::JsonDocument::load(text, io::max_image_model_file_bytes);
    if (!io::is_image_model_json(doc.root())) return std::nullopt;
    ImageModel net = io::read_image_model(doc);
    std::string id = net.name.empty() ? text : net.name;
    return ImageModelArg{std::move(net), std::move(id), "model file " + text};
  }
  const ModelPreset* p = match_model(text);
  if (!p || p->is_transformer()) return std::nullopt;
  if (const ImageModel* net = find_image_model(p->id)) return ImageModelArg{*net, p->id, read_as(text, *p) + p->source, read_as(text, *p)};
  return std::nullopt;
}

void apply_image_attention_flag(ImageModelArg& m, bool flash_attention, const GivenFlags& flags) {
  if (!flags.has("--flash-attention")) return;
  if (m.shape.attentions.empty())
    detail::fail(flash_attention ? "--flash-attention" : "--no-flash-attention", m.id, "has no attention layers (a CNN); the flag does not apply");
  for (AttentionLayer& l : m.shape.attentions) l.fused = flash_attention;
  // A diffusion pipeline's text encoders and VAE decoder run the same attention.
  for (ImageModel& part : m.shape.text_encoders)
    for (AttentionLayer& l : part.attentions) l.fused = flash_attention;
  for (ImageModel& part : m.shape.decoder)
    for (AttentionLayer& l : part.attentions) l.fused = flash_attention;
}

double count_arg(const std::string& text, std::string_view flag) {
  if (const std::string why = detail::digit_grouping_error(text); !why.empty()) detail::fail(flag, "\"" + text + "\"", why);
  std::string s;
  for (char c : text) {
    if (c != ',' && c != '_') s += c;
  }
  // The suffixes capplan's own output writes counts with ("1T tokens", "50M"): K, M, B, T (thousand,
  // million, billion, trillion), either case, after the number ("1.5T", "50m").
  double scale = 1;
  if (!s.empty()) {
    switch (s.back()) {
      case 'K': case 'k': scale = 1e3; break;
      case 'M': case 'm': scale = 1e6; break;
      case 'B': case 'b': scale = 1e9; break;
      case 'T': case 't': scale = 1e12; break;
      default: break;
    }
    if (scale != 1) s.pop_back();
  }
  // Decimal digits, a point and an exponent only: strtod would also take hex ("0x10"), "inf"
  // and "nan".
  const bool decimal = !s.empty() && s.find_first_not_of("0123456789.eE+-") == std::string::npos &&
                       std::isdigit(static_cast<unsigned char>(s.front()));
  char* end = nullptr;
  const double v = decimal ? std::strtod(s.c_str(), &end) * scale : 0.0;
  if (!decimal || end == nullptr || *end != '\0' || !std::isfinite(v)) {
    detail::fail(flag, "\"" + text + "\"", "is not a number; write e.g. 1e9, 1B or 2,000,000,000");
  }
  if (!(v >= 1)) detail::fail(flag, "\"" + text + "\"", "must be a count of at least 1");
  if (v != std::floor(v)) detail::fail(flag, "\"" + text + "\"", "is not a whole number");
  if (v > max_input_count) detail::fail(flag, "\"" + text + "\"", "is absurdly large (more than 1e18)");
  return v;
}

void add_model_gpu_flags(CLI::App* cmd, std::string& model, std::string& gpu, bool gpu_required) {
  cmd->add_option("--model", model, "Model preset id (e.g. llama2-7b) or a JSON model file")->required();
  auto* g = cmd->add_option("--gpu", gpu, "GPU: any name the catalog accepts (e.g. 'H100 SXM', rtx4090)");
  if (gpu_required) g->required();
}

// Beside the language model's own families: what a training run or a serving load alone takes where
// the command has --serve (compare, memory). The fabric goes with both: a served replica's pipeline
// stages cross it between nodes.
constexpr const char* training_only_flags[] = {"--precision", "--deadline"};
constexpr const char* serving_only_flags[] = {"--batch", "--weights"};

void separate_serve_flags(CLI::App* cmd) {
  if (cmd->get_option_no_throw("--serve") == nullptr) return;
  // Checked once the command line is parsed, before the command runs (not by CLI11's excludes and
  // needs, which would print every pair in --help).
  cmd->parse_complete_callback([cmd] {
    const bool serve = cmd->count("--serve") > 0;
    // Flags that describe a training run (its plan, batch, tokens, speed and failures).
    const GivenFlags given{cmd};
    if (serve) {
      for (const auto list : {std::span<const char* const>(language_training_flags), std::span<const char* const>(goodput_flags),
                              std::span<const char* const>(training_only_flags)})
        given.refuse(list, "describes a training run; it does not go with --serve");
    } else {
      for (const auto list : {std::span<const char* const>(language_serving_flags), std::span<const char* const>(serving_only_flags)})
        given.refuse(list, "describes a serving load; it needs --serve");
    }
  });
}

void add_plan_flags(CLI::App* cmd, PlanArgs& a) {
  cmd->add_option("--gpus", a.gpus, "Number of GPUs (default: TP x PP x DP)");
  cmd->add_option("--tp", a.tp, "Tensor-parallel degree");
  cmd->add_option("--pp", a.pp, "Pipeline-parallel stages (need not divide the layers)");
  cmd->add_option("--dp", a.dp, "Data-parallel degree (default: GPUs / (TP x PP))");
  cmd->add_option("--cp", a.cp, "Context-parallel degree: each sequence split over CP GPUs (needs --flash-attention)");
  cmd->add_option("--cp-comm", a.cp_comm,
                  "How the CP ranks exchange K/V, as Megatron's cp_comm_type: p2p (ring, overlapped; default), all_gather (Llama 3), "
                  "a2a (DeepSpeed-Ulysses: heads split over CP), a2a+p2p (hierarchical: a2a among a node's CP ranks, the ring across "
                  "nodes); without a plan (train): the only exchange the search tries");
  cmd->add_option("--ep", a.ep, "Expert-parallel degree (MoE): routed experts spread over EP of the DP x CP GPUs, as Megatron folds it (default 1)");
  cmd->add_option("--etp", a.etp,
                  "Expert tensor-parallel degree (MoE): GPUs each routed expert is split over (default: TP; 1 in the DeepSeek and Qwen "
                  "MoE recipes); the expert layers fold ETP x EP over the TP x CP x DP GPUs; without a plan (train): only plans with it");
  cmd->add_option("--interleave", a.interleave, "Model chunks per pipeline stage, interleaved 1F1B (default 1)");
  cmd->add_option("--first-stage-layers", a.first_stage_layers,
                  "Layers on the first pipeline stage (default: the last and first stages give up the layers that do not divide)");
  cmd->add_option("--last-stage-layers", a.last_stage_layers, "Layers on the last pipeline stage");
  cmd->add_option("--pipeline-layout", a.pipeline_layout,
                  "Megatron-Core's --pipeline-model-parallel-layout, e.g. 'Et|(tt|)*30mL': virtual stages split by '|', E embedding, "
                  "t layer, m MTP layer (--mtp-layers), L loss, x*n and (...)*n repeats; sets the stages' layers and --interleave (needs --pp)");
  add_mtp_layers_flag(cmd, a.mtp_layers, true);
  cmd->add_option("--offload-layers", a.offload_layers,
                  "Activation offloading: layers whose activations go to host memory in the forward pass and come back for the "
                  "backward (Megatron-Core --cpu-offloading-num-layers); needs --pp 1 and no recomputation; without a plan the search "
                  "tries the fewest layers that make a plan fit on a Grace superchip (GB200, GB300), and 0 keeps it from offloading");
  cmd->add_option("--micro-batch", a.micro_batch, "Sequences per micro-batch (default 1)");
  cmd->add_option("--global-batch", a.global_batch, "Sequences per iteration over all GPUs");
  cmd->add_option("--seq-len", a.seq_len, "Training sequence length (default: the model's pre-training length, e.g. 8192 for Llama 3.1)");
  cmd->add_option("--recompute", a.recompute, "Activation recomputation: none (default), selective, full")
      ->check(CLI::IsMember({"none", "selective", "full"}));
  add_recompute_modules_flag(cmd, a.recompute_modules);
  cmd->add_flag("--sequence-parallel", a.sequence_parallel, "Megatron sequence parallelism");
  cmd->add_flag("--flash-attention,!--no-flash-attention", a.flash_attention,
                "FlashAttention (default on; PyTorch's memory-efficient SDPA kernel on GPUs before Ampere): no s x s attention "
                "matrices kept; --no-flash-attention counts them");
  cmd->add_option("--zero", a.zero, "ZeRO stage 0 (default), 1, 2 or 3")->check(CLI::IsMember({0, 1, 2, 3}));
  add_precision_flags(cmd, a.precision, a.fp8_recipe);
  cmd->add_option("--optimizer", a.optimizer, "adam (default), adam8bit, sgd-momentum, sgd, adafactor")
      ->check(CLI::IsMember({"adam", "adamw", "adam8bit", "sgd-momentum", "sgd", "adafactor"}));
  add_framework_flag(cmd, a.framework, a.grad_reduce);
}

void add_pcie_host_flag(CLI::App* cmd, ClusterArgs& a) {
  cmd->add_option("--pcie-host", a.pcie_host,
                  "How PCIe GPUs hang off the host: switch (PCIe switches, peer-to-peer), cpu (one CPU's root ports), "
                  "two-cpus (across sockets) or pairs (two GPUs to a switch, the switches on the CPU); NCCL goes through host "
                  "memory unless under a switch (default: switch)")
      ->check(CLI::IsMember({"switch", "cpu", "two-cpus", "pairs"}));
  cmd->add_option("--p2p", a.p2p,
                  "What NCCL may do over PCIe: auto (its default: peer-to-peer only under a PCIe switch), force "
                  "(NCCL_P2P_LEVEL=SYS: peer-to-peer through the CPU too; GeForce cards need a driver patched to enable it) or off "
                  "(NCCL_P2P_DISABLE=1: through host memory)")
      ->check(CLI::IsMember({"auto", "force", "off"}));
  cmd->add_option("--host-memory-bandwidth", a.host_memory,
                  "The host's DRAM wire rate, which GPUs without peer-to-peer share through host memory, e.g. '204.8 GB/s' "
                  "(filled channels x 8 B x MT/s: 8 x DDR4-3200) (default: a host assumed for the GPU's PCIe generation and --pcie-host: "
                  "two sockets, or one on a CPU's root ports)");
  cmd->add_option("--pcie-lanes", a.pcie_lanes,
                  "Electrical lanes of each GPU's slot: 16, 8 (two cards on a desktop CPU's 16 lanes), 4, 2 or 1 (default: the card's own)");
}

GpuSpec with_slot_lanes(GpuSpec g, const ClusterArgs& a) {
  if (!a.pcie_lanes) return g;
  const int n = *a.pcie_lanes;
  if (n != 1 && n != 2 && n != 4 && n != 8 && n != 16) detail::fail("--pcie-lanes", std::to_string(n), "is not 1, 2, 4, 8 or 16");
  if (g.pcie_generation == 0) detail::fail("--pcie-lanes", std::to_string(n), "is for a PCIe card; " + g.id + " has no PCIe link");
  g.pcie_lanes = std::min(g.pcie_lanes, n);
  return g;
}

void add_cluster_flags(CLI::App* cmd, ClusterArgs& a, bool with_plan_flags) {
  cmd->add_option("--fabric", a.fabric,
                  "Network between nodes: " + perf::fabric_ids() + " (default: what a host of the GPU usually has)");
  cmd->add_option("--fabric-bandwidth", a.fabric_bandwidth, "Per-GPU bandwidth between nodes, e.g. '200 Gb/s' (a custom fabric)");
  cmd->add_option("--fabric-latency", a.fabric_latency, "Latency per step between nodes, e.g. '5 us'");
  add_pcie_host_flag(cmd, a);
  if (!with_plan_flags) return;
  cmd->add_option("--gpus-per-node", a.gpus_per_node, "GPUs in one node: one NVLink domain (default 8; 72 for GB200 and GB300, an NVL72 rack; a TPU pod or slice and a Trainium instance: their chip-link domain, 256 for TPU v6e; 1 for a system-on-chip such as DGX Spark, one a box)");
  cmd->add_flag("--allow-cross-node-tp", a.allow_cross_node_tp, "Allow a TP group that spans nodes (timed over the fabric)");
}

perf::PcieHost pcie_host_arg(const ClusterArgs& a) {
  if (a.pcie_host.empty() || a.pcie_host == "switch") return perf::PcieHost::pcie_switch;
  if (a.pcie_host == "cpu") return perf::PcieHost::root_complex;
  if (a.pcie_host == "two-cpus") return perf::PcieHost::two_sockets;
  if (a.pcie_host == "pairs") return perf::PcieHost::switch_pairs;
  detail::fail("--pcie-host", "\"" + a.pcie_host + "\"", "is not switch, cpu, two-cpus or pairs");
}

perf::PeerToPeer p2p_arg(const ClusterArgs& a) {
  if (a.p2p.empty() || a.p2p == "auto") return perf::PeerToPeer::automatic;
  if (a.p2p == "force") return perf::PeerToPeer::forced;
  if (a.p2p == "off") return perf::PeerToPeer::disabled;
  detail::fail("--p2p", "\"" + a.p2p + "\"", "is not auto, force or off");
}

double host_memory_arg(const ClusterArgs& a) {
  if (a.host_memory.empty()) return 0;
  const double b = quantity_arg<Bandwidth>(a.host_memory, "B/s", "--host-memory-bandwidth").value();
  if (!(b >= 1e9 && b <= 1e14)) detail::fail("--host-memory-bandwidth", "\"" + a.host_memory + "\"", "is outside 1 GB/s to 100 TB/s");
  return b;
}

std::string pcie_note(const perf::Cluster& c, bool host_given, bool host_memory_given) {
  const bool bridged = c.intra_domain > 0;
  const perf::Link& l = bridged ? c.intra_beyond : c.intra;
  if (c.gpus_per_node < 2 || (bridged ? c.gpus_per_node <= c.intra_domain
                                      : !perf::over_pcie(l.kind)))
    return {};
  std::string rate = format(from_canonical<Bandwidth>(l.effective()), {.significant = 3});
  if (l.kind == perf::LinkKind::pcie_via_host && l.efficiency < perf::shm_efficiency * (1 - 1e-9)) {
    // Host memory is what limits it (perf/communication.hpp shm_host_share).
    rate += " (the host's DRAM shared by " + std::to_string(c.gpus_per_node) + " GPUs: " +
            format(from_canonical<Bandwidth>(c.host_memory_bandwidth), {.significant = 4}) +
            (host_memory_given ? std::string(" as given") : " assumed for a host " + std::string(perf::name(c.pcie_host)) + " (--host-memory-bandwidth)") +
            " x 0.75 / (2 x " + std::to_string(c.gpus_per_node) + "))";
  } else if (l.kind == perf::LinkKind::pcie_via_host && host_memory_given) {
    rate += " (the host's DRAM as given, " + format(from_canonical<Bandwidth>(c.host_memory_bandwidth), {.significant = 4}) + ", does not limit it)";
  }
  const bool nvlink_pairs = bridged && c.intra.kind == perf::LinkKind::nvlink;
  std::string s = "Inside a node: " + std::string(nvlink_pairs ? "beyond each NVLink-bridged pair, " : bridged ? "between the switch pairs, " : "") + "PCIe " +
                  std::to_string(c.gpu.pcie_generation) + ".0 x" + std::to_string(c.gpu.pcie_lanes);
  if (!c.gpu.peer_to_peer && c.p2p != perf::PeerToPeer::forced)
    return s + "; " + c.gpu.id + " has no peer-to-peer, so collectives go through host memory (NCCL's SHM) at " + rate +
           " per direction.";
  s += ", GPUs " + std::string(name(c.pcie_host)) + (host_given ? "" : " (assumed; --pcie-host to change)") + ": ";
  const std::string patched = c.gpu.peer_to_peer ? "" : " (assumes a driver patched to enable peer-to-peer on " + c.gpu.id + ")";
  if (l.kind == perf::LinkKind::pcie_via_cpu)
    return s + "peer-to-peer forced through the CPU (NCCL_P2P_LEVEL=SYS) at " + rate + " per direction" + patched +
           (c.pcie_host == perf::PcieHost::two_sockets ? "; measured on one socket only, assumed across two" : "") +
           "; all-to-alls (expert parallelism) are timed at that rate, though one measurement fell from 18 to 2 GB/s busbw "
           "with peer-to-peer forced (NVIDIA/nccl#1603).";
  if (l.kind == perf::LinkKind::pcie) return s + "peer-to-peer at " + rate + " per direction" + patched + ".";
  if (c.p2p == perf::PeerToPeer::disabled)
    return s + "peer-to-peer disabled (NCCL_P2P_DISABLE=1), so collectives go through host memory (SHM) at " + rate + " per direction.";
  return s + "NCCL uses peer-to-peer only under a PCIe switch, so collectives go through host memory (SHM) at " + rate +
         " per direction (--p2p force: NCCL_P2P_LEVEL=SYS).";
}

std::optional<perf::Fabric> fabric_arg(const ClusterArgs& a) {
  if (a.fabric.empty() && a.fabric_bandwidth.empty() && a.fabric_latency.empty()) return std::nullopt;
  perf::Fabric f;
  if (!a.fabric.empty()) {
    f = perf::find_fabric(a.fabric, "--fabric");
  } else {
    // A custom fabric: RDMA NICs, one per GPU, as the InfiniBand presets.
    f = perf::find_fabric("ib-ndr");
    f.id = "custom";
    f.name = "custom network";
    f.source = "--fabric-bandwidth";
  }
  if (!a.fabric_bandwidth.empty()) {
    if (f.none()) detail::fail("--fabric-bandwidth", "\"" + a.fabric_bandwidth + "\"", "contradicts --fabric none");
    f.nic_speed = quantity_arg<Bandwidth>(a.fabric_bandwidth, "B/s", "--fabric-bandwidth");
    if (!(f.nic_speed.value() > 0)) detail::fail("--fabric-bandwidth", "\"" + a.fabric_bandwidth + "\"", "must be positive");
    if (f.nic_speed.value() > 1e13) detail::fail("--fabric-bandwidth", "\"" + a.fabric_bandwidth + "\"", "is more than 10 TB/s per GPU");
    f.nics_per_node = 0;
    if (f.id != "custom") f.name += ", " + a.fabric_bandwidth + " per GPU";
  }
  if (!a.fabric_latency.empty()) {
    if (f.none()) detail::fail("--fabric-latency", "\"" + a.fabric_latency + "\"", "contradicts --fabric none");
    f.latency = quantity_arg<Duration>(a.fabric_latency, "s", "--fabric-latency");
    if (!(f.latency.value() >= 0) || f.latency.value() > 1) detail::fail("--fabric-latency", "\"" + a.fabric_latency + "\"", "is outside 0 to 1 s");
  }
  f.validate();
  return f;
}

void refuse_link_flags_on_soc(const ClusterArgs& a, const GpuSpec& gpu) {
  if (!perf::linkless(gpu)) return;
  const bool p2p = !a.p2p.empty();
  if (!a.host_memory.empty())
    detail::fail("--host-memory-bandwidth", "\"" + a.host_memory + "\"",
                 "sets the host memory GPUs share without peer-to-peer, but " + gpu.id + " is a system-on-chip, one a box, with no PCIe or GPU link to a second");
  if (p2p || !a.pcie_host.empty())
    detail::fail(p2p ? "--p2p" : "--pcie-host", p2p ? a.p2p : a.pcie_host,
                 "sets how GPUs of one host link, but " + gpu.id + " is a system-on-chip, one a box, with no PCIe or GPU link to a second");
}

int gpus_per_node_arg(const ClusterArgs& a, const GpuSpec& gpu) {
  refuse_link_flags_on_soc(a, gpu);
  const int n = positive_flag(a.gpus_per_node, perf::usual_gpus_per_node(gpu), "--gpus-per-node");
  // At most 1,024, or the GPU's own scale-up domain where that is larger (a TPU v5p slice: 6,144 chips).
  const int most = std::max(1024, perf::scale_up_domain(gpu));
  if (n > most) detail::fail("--gpus-per-node", std::to_string(n), "is more than " + std::to_string(most));
  if (n > 1 && perf::linkless(gpu))
    detail::fail("--gpus-per-node", std::to_string(n),
                 "puts several " + gpu.id + " in a node, but it is a system-on-chip with no link to a second one: one per node (the default), "
                 "the nodes joined by --fabric");
  return n;
}

void check_tp_in_node(const ClusterArgs& a, int tp, int gpus_per_node, int gpus) {
  const int node = std::min(gpus_per_node, gpus);
  if (a.allow_cross_node_tp || tp <= 1 || node % tp == 0) return;
  std::string divisors;
  for (int d = 1; d <= node; ++d) {
    if (node % d == 0) divisors += (divisors.empty() ? "" : ", ") + std::to_string(d);
  }
  detail::fail("--tp", std::to_string(tp),
               "does not fit a node of " + std::to_string(node) + " GPUs: TP " + std::to_string(tp) + (tp > node ? " spans nodes" : " straddles nodes") +
                   "; use " + divisors + ", or --allow-cross-node-tp (timed over the fabric)");
}

void add_goodput_flags(CLI::App* cmd, GoodputArgs& a) {
  cmd->add_option("--failure-rate", a.failure_rate, "Job-stopping failures per GPU-hour (default 1.97e-5, Llama 3's; 0: none)");
  cmd->add_option("--restart", a.restart, "Time from a failure to training again (default 10 min)");
  cmd->add_option("--storage-write", a.storage_write, "Checkpoint storage write bandwidth, all nodes (default 2 TB/s)");
  cmd->add_option("--checkpoint-interval", a.checkpoint_interval, "Compute time between checkpoints, in whole iterations (default: Daly's optimum)");
  cmd->add_flag("--async-checkpoint", a.async_checkpoint, "Checkpoints written in the background after a copy to host memory");
  cmd->add_option("--eval-share", a.eval_share, "Evaluation time as a share of the iteration time (default 0)");
  cmd->add_option("--warmup-share", a.warmup_share, "Start-up and warm-up time as a share of the iteration time (default 0)");
}

GoodputConfig goodput_config(const GoodputArgs& a) {
  GoodputConfig c;
  if (a.failure_rate) {
    if (!std::isfinite(*a.failure_rate) || *a.failure_rate < 0 || *a.failure_rate > 1)
      detail::fail("--failure-rate", detail::format_double(*a.failure_rate), "is outside 0 to 1 failures per GPU-hour");
    c.failures_per_gpu_hour = *a.failure_rate;
  }
  if (!a.restart.empty()) {
    c.restart = quantity_arg<Duration>(a.restart, "s", "--restart");
    if (!(c.restart.value() >= 0) || c.restart.value() > 30 * 86400.0) detail::fail("--restart", "\"" + a.restart + "\"", "is outside 0 to 30 days");
  }
  if (!a.storage_write.empty()) {
    c.storage_write = quantity_arg<Bandwidth>(a.storage_write, "B/s", "--storage-write");
    if (!(c.storage_write.value() > 0)) detail::fail("--storage-write", "\"" + a.storage_write + "\"", "must be positive");
  }
  if (!a.checkpoint_interval.empty()) {
    c.checkpoint_interval = quantity_arg<Duration>(a.checkpoint_interval, "s", "--checkpoint-interval");
    if (!(c.checkpoint_interval->value() > 0)) detail::fail("--checkpoint-interval", "\"" + a.checkpoint_interval + "\"", "must be positive");
  }
  c.async_checkpoint = a.async_checkpoint;
  for (const auto& [v, flag] : {std::pair{a.eval_share, "--eval-share"}, std::pair{a.warmup_share, "--warmup-share"}}) {
    if (!(v >= 0 && v < 1)) detail::fail(flag, detail::format_double(v), "is outside [0, 1)");
  }
  c.evaluation_share = a.eval_share;
  c.warmup_share = a.warmup_share;
  return c;
}

void add_serve_flags(CLI::App* cmd, PlanArgs& a, bool with_serve_flag) {
  if (with_serve_flag) cmd->add_flag("--serve", a.serve, "Serving (inference) memory instead of training");
  cmd->add_option("--batch", a.batch, "Sequences served at once (default 1)");
  cmd->add_option("--context", a.context, "Tokens per sequence, prompt + output (default 512 + 128 = 640)");
  cmd->add_option("--weights", a.weights,
                  "Weight format (default: as the model is released: bf16; gpt-oss with mxfp4 experts; DeepSeek-V3 and R1 fp8): int4 is AWQ/GPTQ's (groups of 128 with an fp16 scale and a 4-bit zero, 4.16 bits); "
                  "the quantized formats keep the embedding and output head as their quantizers do (bf16; Q6_K head in a q4_0 file)")
      ->check(weight_format_check());
  cmd->add_option("--expert-weights", a.expert_weights,
                  "Format of a mixture of experts' routed experts, where it differs from --weights (gpt-oss ships mxfp4 experts)")
      ->check(weight_format_check());
  cmd->add_option("--kv-cache", a.kv_cache, "KV-cache format (default bf16; fp8 or int8 to halve it)")
      ->check(CLI::IsMember({"fp32", "bf16", "fp16", "fp8", "int8"}));
}

void fail_as_flag(const std::string& flag, const std::string& value, const InputError& e) {
  // The library's "FIELD: VALUE WHY", or "FIELD: \"VALUE\" WHY" from a parser: WHY, under the flag.
  std::string why = e.what();
  if (const std::string head = e.field() + ": "; why.rfind(head, 0) == 0) why.erase(0, head.size());
  bool quoted = false;
  for (const std::string& v : {"\"" + e.value() + "\"", e.value()}) {
    if (!e.value().empty() && why.rfind(v, 0) == 0) {
      why.erase(0, v.size());
      quoted = v.front() == '"' && e.value().front() != '"';
      break;
    }
  }
  detail::fail(flag, quoted && value.rfind('"', 0) != 0 ? "\"" + value + "\"" : value, std::string(detail::trim(why)));
}

Recompute recompute_arg(const std::string& s) {
  if (s == "selective") return Recompute::selective;
  if (s == "full") return Recompute::full;
  if (s == "none") return Recompute::none;
  detail::fail("--recompute", "\"" + s + "\"", "is not none, selective or full");
}

void narrow_recompute(std::vector<Recompute>& space_recompute, std::uint8_t& space_modules, bool& space_module_lists,
                      const std::optional<std::string>& recompute,
                      const std::optional<std::string>& modules, const TransformerShape& shape, bool eager) {
  if (!recompute && !modules) return;
  const auto [r, m] = recompute_args(recompute, modules, Recompute::none);
  if (modules) {
    try {
      validate_recompute_modules(shape, r, m, eager);
    } catch (const InputError& e) {  // the library names the plan's field; the user typed a flag
      fail_as_flag("--recompute-modules", e.value(), e);
    }
  }
  space_recompute = {r};
  space_modules = m;
  space_module_lists = false;
}

std::pair<Recompute, std::uint8_t> recompute_args(const std::optional<std::string>& recompute,
                                                  const std::optional<std::string>& modules, Recompute absent) {
  if (!modules) return {recompute ? recompute_arg(*recompute) : absent, std::uint8_t{0}};
  const std::uint8_t m = parse_recompute_modules(*modules, "--recompute-modules");
  const Recompute r = recompute ? recompute_arg(*recompute) : Recompute::selective;
  if (r != Recompute::selective)
    detail::fail("--recompute-modules", *modules, "goes with --recompute selective (Megatron-Core's --recompute-granularity selective), not " + *recompute);
  return {r, m};
}

Precision precision_arg(const std::string& s) {
  for (Precision p : training_precisions) {
    if (name(p) == s) return p;
  }
  detail::fail("--precision", "\"" + s + "\"", "is not a training precision (" + training_precision_names() + ")");
}

void add_precision_flags(CLI::App* cmd, std::string& precision, std::string& fp8_recipe) {
  std::vector<std::string> names;
  for (Precision p : training_precisions) names.emplace_back(name(p));
  cmd->add_option("--precision", precision,
                  "Training precision: bf16 (default), fp16, fp32, fp8 (Transformer Engine: linear layers in FP8, the rest in BF16; "
                  "--fp8-recipe) or fp4 (NVFP4 on Blackwell-class GPUs)")
      ->check(CLI::IsMember(names));
  std::vector<std::string> recipes;
  for (perf::Fp8Recipe r : detail::enum_values<perf::Fp8Recipe>) recipes.emplace_back(name(r));
  cmd->add_option("--fp8-recipe", fp8_recipe,
                  "How --precision fp8 scales tensors: delayed (default; per tensor, from an amax history), current (per tensor, "
                  "Megatron-Bridge's FP8-CS), mxfp8 (a scale per 32 values, Blackwell-class GPUs; FP8-MX) or blockwise "
                  "(DeepSeek-V3's 1 x 128 and 128 x 128 FP32 scales; Hopper, elsewhere timed as mxfp8 or current)")
      ->check(CLI::IsMember(recipes));
}

bool GivenFlags::has(const char* flag) const {
  const CLI::Option* o = cmd ? cmd->get_option_no_throw(flag) : nullptr;
  return o != nullptr && o->count() > 0;
}

std::string GivenFlags::value_of(const char* flag) const {
  const CLI::Option* o = cmd ? cmd->get_option_no_throw(flag) : nullptr;
  return o == nullptr || o->results().empty() ? std::string("true") : o->results().front();
}

void GivenFlags::refuse(std::span<const char* const> flags, const std::string& why) const {
  for (const char* f : flags) {
    if (has(f)) detail::fail(f, value_of(f), why);
  }
}

void GivenFlags::refuse(std::initializer_list<const char*> flags, const std::string& why) const {
  refuse(std::span<const char* const>(flags.begin(), flags.size()), why);
}

int etp_arg(int etp, const TransformerShape& shape) {
  if (etp < 1) detail::fail("--etp", std::to_string(etp), "must be a positive count");
  if (!shape.moe) detail::fail("--etp", std::to_string(etp), "needs a mixture-of-experts model; " + shape.name + " is dense");
  if (shape.moe->moe_ffn_hidden % etp != 0)
    detail::fail("--etp", std::to_string(etp), "does not divide the experts' FFN width " + std::to_string(shape.moe->moe_ffn_hidden));
  return etp;
}

CpComm cp_comm_arg(const std::string& text) {
  // Megatron-Core spells the hierarchical exchange "a2a+p2p".
  return detail::parse_enum<CpComm>(text == "a2a+p2p" ? std::string("a2a_p2p") : text, "--cp-comm");
}

void narrow_plan_search(std::vector<int>& space_etps, std::vector<CpComm>& space_cp_comms, const std::optional<int>& etp,
                        const std::optional<std::string>& cp_comm, const TransformerShape& shape) {
  if (etp) space_etps = {etp_arg(*etp, shape)};
  if (cp_comm) space_cp_comms = {cp_comm_arg(*cp_comm)};
}

perf::Fp8Recipe fp8_recipe_arg(const std::string& recipe, Precision precision) {
  if (recipe.empty()) return perf::Fp8Recipe::delayed;
  if (precision != Precision::fp8)
    detail::fail("--fp8-recipe", recipe, "applies to --precision fp8 only (fp4 is NVFP4, which has one recipe)");
  return perf::parse_fp8_recipe(recipe, "--fp8-recipe");
}

CLI::Validator weight_format_check() {
  std::vector<std::string> names;
  for (const WeightFormat& f : formats::all) names.emplace_back(f.name);
  return CLI::IsMember(names);
}

int positive_flag(std::optional<int> v, int fallback, std::string_view flag) {
  if (!v) return fallback;
  if (*v < 1) detail::fail(flag, std::to_string(*v), "must be a positive count");
  return *v;
}

TrainingConfig training_config(const PlanArgs& a, const ModelArg& m) {
  const TransformerShape& shape = m.shape;
  TrainingConfig c;
  const int tp = positive_flag(a.tp, 1, "--tp");
  const int pp = positive_flag(a.pp, 1, "--pp");
  const int cp = positive_flag(a.cp, 1, "--cp");
  if (cp > 1024) detail::fail("--cp", std::to_string(cp), "is more than 1024");
  const std::string model_dims = cp > 1 ? "TP x CP x PP" : "TP x PP";
  int dp = 1;
  if (a.dp) {
    dp = positive_flag(a.dp, 1, "--dp");
    if (a.gpus && static_cast<long long>(*a.gpus) != degree_product({tp, cp, pp, dp})) {
      detail::fail("--gpus", std::to_string(*a.gpus),
                   "is not " + model_dims + " x DP = " + std::to_string(tp) + " x " + (cp > 1 ? std::to_string(cp) + " x " : "") +
                       std::to_string(pp) + " x " + std::to_string(dp));
    }
  } else if (a.gpus) {
    const int g = positive_flag(a.gpus, 1, "--gpus");
    const long long model = degree_product({tp, cp, pp});
    if (g % model != 0) {
      detail::fail("--gpus", std::to_string(g), "is not a multiple of " + model_dims + " = " + std::to_string(model));
    }
    dp = static_cast<int>(g / model);
  }
  if (degree_product({tp, cp, pp, dp}) > max_plan_gpus) {
    detail::fail(a.dp ? "--dp" : (a.gpus ? "--gpus" : "--tp"),
                 std::to_string(tp) + " x " + (cp > 1 ? std::to_string(cp) + " x " : "") + std::to_string(pp) + " x " + std::to_string(dp),
                 "(" + model_dims + " x DP) is more than " + std::to_string(max_plan_gpus) + " GPUs");
  }
  const CpComm cp_comm = a.cp_comm ? cp_comm_arg(*a.cp_comm) : CpComm::p2p;
  if (cp > 1) {
    if (!a.flash_attention) detail::fail("--cp", std::to_string(cp), "needs --flash-attention: ring attention runs in the fused kernel");
    ParallelPlan kind;
    kind.cp = cp;
    kind.cp_comm = cp_comm;
    validate_cp_sequence(training_seq_len(a.seq_len, m), kind, "--cp");
    if (shape.mla) detail::fail("--cp", std::to_string(cp), "is not modelled with multi-head latent attention (" + shape.name + ")");
  } else if (a.cp_comm) {
    detail::fail("--cp-comm", *a.cp_comm, "needs --cp 2 or more");
  }
  if (shape.heads % tp != 0) {
    detail::fail("--tp", std::to_string(tp), "does not divide the model's " + std::to_string(shape.heads) + " heads");
  }
  if (cp > 1 && cp_comm == CpComm::a2a) validate_ulysses(shape.heads, shape.effective_kv_heads(), tp, cp, "--cp");
  if (pp > shape.layers) {
    detail::fail("--pp", std::to_string(pp), "exceeds the model's " + std::to_string(shape.layers) + " layers");
  }
  c.plan.tp = tp;
  c.plan.pp = pp;
  c.plan.dp = dp;
  c.plan.cp = cp;
  c.plan.cp_comm = cp_comm;
  c.plan.interleave = positive_flag(a.interleave, 1, "--interleave");
  if (a.etp) c.plan.etp = etp_arg(positive_flag(a.etp, 1, "--etp"), shape);
  if (a.ep) {
    const int ep = positive_flag(a.ep, 1, "--ep");
    if (ep > 1 && !shape.moe) detail::fail("--ep", std::to_string(ep), "needs a mixture-of-experts model; " + shape.name + " is dense");
    if (shape.moe && shape.moe->experts % ep != 0)
      detail::fail("--ep", std::to_string(ep), "does not divide the model's " + std::to_string(shape.moe->experts) + " routed experts");
    if (c.plan.etp > 0 && c.plan.etp != tp) {
      const long long ranks = static_cast<long long>(tp) * dp * cp, group = static_cast<long long>(c.plan.etp) * ep;
      if (ranks % group != 0)
        detail::fail("--ep", std::to_string(ep),
                     "x --etp " + std::to_string(c.plan.etp) + " = " + std::to_string(group) + " does not divide TP x CP x DP = " +
                         std::to_string(ranks) + " (the expert layers fold ETP x EP over the same GPUs)");
    } else if ((static_cast<long long>(dp) * cp) % ep != 0)
      detail::fail("--ep", std::to_string(ep),
                   cp > 1 ? "does not divide DP x CP = " + std::to_string(static_cast<long long>(dp) * cp) +
                                " (experts are spread over the data- and context-parallel GPUs)"
                          : "does not divide DP = " + std::to_string(dp) + " (experts are spread over data-parallel GPUs)");
    c.plan.ep = ep;
  }
  if (a.first_stage_layers) c.plan.first_stage_layers = positive_flag(a.first_stage_layers, 0, "--first-stage-layers");
  if (a.last_stage_layers) c.plan.last_stage_layers = positive_flag(a.last_stage_layers, 0, "--last-stage-layers");
  try {
    if (a.pipeline_layout) {  // fields as the library names them: the catch below turns them into flags
      const std::string& text = *a.pipeline_layout;
      if (a.first_stage_layers || a.last_stage_layers)
        detail::fail("pipeline_layout", "\"" + text + "\"", std::string("sets every stage's layers; leave out ") +
                                                               (a.first_stage_layers ? "--first-stage-layers" : "--last-stage-layers"));
      if (!a.pp) detail::fail("pipeline_layout", "\"" + text + "\"", "needs --pp: its virtual stages run on pp ranks, interleaved");
      const PipelineLayout layout = parse_pipeline_layout(text, shape.layers, pp);
      if (a.interleave && *a.interleave != layout.interleave)
        detail::fail("interleave", std::to_string(*a.interleave),
                     "differs from the layout's " + std::to_string(layout.interleave) + " virtual stages per pipeline rank");
      apply_pipeline_layout(c.plan, layout, text);
    }
    validate_stage_layout(shape.layers, c.plan);
  } catch (const InputError& e) {  // the library names the plan's field; the user typed a flag
    std::string flag = "--" + e.field();
    std::replace(flag.begin(), flag.end(), '_', '-');
    fail_as_flag(flag, e.value(), e);
  }
  c.plan.sequence_parallel = a.sequence_parallel;
  c.flash_attention = a.flash_attention;
  c.plan.zero_stage = static_cast<ZeroStage>(a.zero.value_or(0));
  if (a.micro_batch) {
    if (*a.micro_batch < 1) detail::fail("--micro-batch", std::to_string(*a.micro_batch), "must be a positive count");
    c.plan.micro_batch = *a.micro_batch;
  }
  c.seq_len = training_seq_len(a.seq_len, m);
  if (a.global_batch) {
    if (*a.global_batch < 1) detail::fail("--global-batch", std::to_string(*a.global_batch), "must be a positive count");
    const std::int64_t per_step = c.plan.micro_batch * dp;
    if (*a.global_batch % per_step != 0) {
      detail::fail("--global-batch", std::to_string(*a.global_batch),
                   "is not a multiple of micro-batch x DP = " + std::to_string(per_step));
    }
    c.microbatches = *a.global_batch / per_step;
  }
  std::tie(c.plan.recompute, c.plan.recompute_modules) = recompute_args(a.recompute, a.recompute_modules, Recompute::none);
  if (a.recompute_modules) {
    try {
      validate_recompute_modules(shape, c.plan.recompute, c.plan.recompute_modules, framework_arg(a.framework, "", "").eager);
    } catch (const InputError& e) {  // the library names the plan's field; the user typed a flag
      fail_as_flag("--recompute-modules", e.value(), e);
    }
  }
  if (a.offload_layers) {
    c.plan.offload_layers = *a.offload_layers;
    try {
      validate_offload(shape.layers, c.plan);
    } catch (const InputError& e) {  // the library names the plan's field; the user typed a flag
      fail_as_flag("--offload-layers", e.value(), e);
    }
  }
  c.mixed_precision = a.precision != "fp32";
  // The framework decides the gradient bytes and the master copy, as it does for train's time.
  const bool flash = c.flash_attention;
  const perf::Framework fw = framework_arg(a.framework, "", a.grad_reduce);
  check_grad_reduce(a.grad_reduce, fw, precision_arg(a.precision));
  perf::apply_framework(c, fw);
  c.flash_attention = flash;  // memory's --flash-attention flag, not the preset's
  // FP8 and FP4 keep the linear layers' inputs in their quantized copies (perf/quantization.hpp);
  // `memory` re-applies this with the precision its GPU runs.
  const Precision precision = precision_arg(a.precision);
  perf::apply_precision(c, fw, precision, fp8_recipe_arg(a.fp8_recipe, precision));
  c.optimizer = optimizer_arg(a.optimizer.value_or("adam"));
  c.mtp_layers = mtp_layers_of(a, m);
  return c;
}

InferenceConfig inference_config(const PlanArgs& a, const TransformerShape& shape, const ModelArg* released) {
  InferenceConfig c;
  // No --weights: the format the model is released in (gpt-oss: MXFP4 experts; DeepSeek-V3: FP8).
  const bool as_released = a.weights.empty() && released && !released->released_weights.empty();
  c.weights = parse_weight_format(a.weights.empty() ? (as_released ? released->released_weights : std::string("bf16")) : a.weights, "--weights");
  if (!a.expert_weights.empty()) {
    if (!shape.moe) detail::fail("--expert-weights", "\"" + a.expert_weights + "\"", "needs a mixture-of-experts model; " + shape.name + " has no experts");
    c.expert_weights = parse_weight_format(a.expert_weights, "--expert-weights");
  } else if (as_released && !released->released_expert_weights.empty()) {
    c.expert_weights = parse_weight_format(released->released_expert_weights, "--expert-weights");
  }
  c.kv_cache = a.kv_cache.empty() ? formats::bf16 : parse_weight_format(a.kv_cache, "--kv-cache");
  if (a.batch < 1) detail::fail("--batch", std::to_string(a.batch), "must be a positive count");
  c.sequences = a.batch;
  if (a.context) {
    if (*a.context < 1) detail::fail("--context", std::to_string(*a.context), "must be a positive count");
    c.context = *a.context;
  } else {
    // As infer and compare --serve; an encoder generates nothing (perf/inference.hpp).
    c.context = default_prompt_tokens + (shape.encoder ? 0 : default_output_tokens);
  }
  const int tp = positive_flag(a.tp, 1, "--tp");
  const int pp = positive_flag(a.pp, 1, "--pp");
  if (a.gpus && !a.tp && !a.pp) {
    // --gpus N alone: tensor parallel over N GPUs when N divides the heads, else pipeline.
    const int g = positive_flag(a.gpus, 1, "--gpus");
    if (shape.heads % g == 0) c.tensor_parallel = g;
    else if (g <= shape.layers) c.pipeline_parallel = g;
    else detail::fail("--gpus", std::to_string(g), "neither divides the heads nor is at most the layers; give --tp and --pp");
  } else {
    if (a.gpus && *a.gpus != tp * pp) {
      detail::fail("--gpus", std::to_string(*a.gpus), "is not TP x PP = " + std::to_string(tp) + " x " + std::to_string(pp));
    }
    if (shape.heads % tp != 0) {
      detail::fail("--tp", std::to_string(tp), "does not divide the model's " + std::to_string(shape.heads) + " heads");
    }
    if (pp > shape.layers) {
      detail::fail("--pp", std::to_string(pp), "exceeds the model's " + std::to_string(shape.layers) + " layers");
    }
    c.tensor_parallel = tp;
    c.pipeline_parallel = pp;
  }
  return c;
}

std::string released_weights_note(const PlanArgs& a, const ModelArg& m) {
  if (!a.weights.empty() || m.released_weights.empty()) return "";
  // --expert-weights given and the rest released in bf16: the default changed nothing.
  if (!a.expert_weights.empty() && m.released_weights == "bf16") return "";
  const std::string experts = a.expert_weights.empty() && !m.released_expert_weights.empty() ? " with " + m.released_expert_weights + " experts" : "";
  return "Weights: " + m.released_weights + experts + ", as " + m.id + " is released (" + m.released_source +
         "); --weights bf16 sizes a full-precision copy.";
}

void refuse_soc_serving_layout(const PlanArgs& a, const InferenceConfig& c, const GpuSpec& g) {
  const int n = c.tensor_parallel * c.pipeline_parallel;
  if (n <= 1 || !perf::linkless(g)) return;
  const std::string flag = a.gpus ? "--gpus" : c.tensor_parallel > 1 ? "--tp" : "--pp";
  const int value = a.gpus ? *a.gpus : c.tensor_parallel > 1 ? c.tensor_parallel : c.pipeline_parallel;
  detail::fail(flag, std::to_string(value),
               "puts the model on " + std::to_string(n) + " x " + g.id + ", but a system-on-chip has no link to a second one: it serves alone "
               "(a smaller --weights format or a shorter --context fits more)");
}

std::string bytes_text(DataSize d) { return format(d, {.significant = 4}); }
std::string fit_text(const FitResult& fit, DataSize gpu_memory) {
  if (!fit.fits) return "does NOT fit in " + bytes_text(gpu_memory);
  if (!fit.tight) return "fits in " + bytes_text(gpu_memory);
  return "fits in " + bytes_text(gpu_memory) + ", but tight: " + bytes_text(fit.headroom) +
         " free, less than the allocator may lose to fragmentation; may run out of memory";
}
std::string count_text(double v) {
  if (std::fabs(v) >= 1e12) return format_number(v / 1e12, 4) + "T";
  if (std::fabs(v) >= 1e9) return format_number(v / 1e9, 4) + "B";
  if (std::fabs(v) >= 1e6) return format_number(v / 1e6, 4) + "M";
  return format_number(v, 4);
}

// ---- What would fit (fit_hints.hpp) ----------------------------------------------------------

namespace {

// Fits with the allocator's margin to spare (not tight).
bool fits(const TransformerShape& s, const TrainingConfig& c, DataSize capacity) {
  const FitResult f = check_fit(training_budget(s, c, parameter_sizes(s), false), capacity);
  return f.fits && !f.tight;
}

std::string need_text(const TransformerShape& s, const TrainingConfig& c, DataSize capacity) {
  const MemoryBudget b = training_budget(s, c, parameter_sizes(s), false);
  const FitResult f = check_fit(b, capacity);
  return bytes_text(b.total()) + " per GPU, " + (f.fits ? (f.tight ? "fits but tight" : "fits") : "does not fit");
}

}  // namespace

std::vector<std::string> training_fit_hints(const ModelArg& m, const TrainingConfig& c, const GpuSpec& g, const Catalog& catalog) {
  std::vector<std::string> out;
  const TransformerShape& s = m.shape;
  const DataSize cap = g.capacity();
  const MemoryBudget now = training_budget(s, c);
  if (check_fit(now, cap).fits) return out;

  // A shorter sequence (in whole chunks of 2 x CP with context parallelism), rounded down to 256 tokens.
  const std::int64_t seq = c.seq_len > 0 ? c.seq_len : s.seq_len;
  const std::int64_t step = cp_sequence_step(c.plan);
  if (seq / step > 1) {
    TrainingConfig t = c;
    std::int64_t k = detail::largest(1, seq / step - 1, [&](std::int64_t v) {
      t.seq_len = v * step;
      return fits(s, t, cap);
    });
    std::int64_t best = k * step;
    if (best >= 512) best = best / std::max<std::int64_t>(256, step) * std::max<std::int64_t>(256, step);
    if (k >= 1 && best >= 1) {
      t.seq_len = best;
      out.push_back("--seq-len " + std::to_string(best) + " (of " + std::to_string(seq) + "): " + need_text(s, t, cap));
    }
  }
  if (c.plan.micro_batch > 1) {
    TrainingConfig t = c;
    t.plan.micro_batch = 1;
    out.push_back("--micro-batch 1 (of " + std::to_string(c.plan.micro_batch) + "; more micro-batches keep the global batch): " +
                  need_text(s, t, cap));
  }
  if (c.plan.recompute != Recompute::full) {
    TrainingConfig t = c;
    t.plan.recompute = Recompute::full;
    t.plan.recompute_modules = 0;
    t.plan.offload_layers = 0;  // Megatron-Core runs one or the other
    out.push_back(std::string("--recompute full") + (c.plan.offload_layers > 0 ? " instead of --offload-layers" : "") + ": " +
                  need_text(s, t, cap));
  }
  if (c.plan.dp > 1 && c.plan.zero_stage != ZeroStage::parameters) {
    TrainingConfig t = c;
    t.plan.zero_stage = ZeroStage::parameters;
    out.push_back("--zero 3 over the " + std::to_string(c.plan.dp) + " data-parallel GPUs: " + need_text(s, t, cap));
  }
  if (c.finetune == FineTune::full) {
    for (const auto& [f, flag] : {std::pair{FineTune::lora, "lora"}, std::pair{FineTune::qlora, "qlora"}}) {
      TrainingConfig t = c;
      t.finetune = f;
      if (f == FineTune::qlora) t.linear_input_bytes = 0;  // QLoRA trains in 16 bits (train refuses it with FP8)
      out.push_back(std::string("--finetune ") + flag + " (fine-tuning adapters, not pre-training): " + need_text(s, t, cap));
    }
  }
  const int max_tp = perf::linkless(g) ? 1 : 8;  // a system-on-chip has no link to a second one
  const auto more_gpus = [&](const TrainingConfig& t, const std::string& label) -> std::optional<int> {
    const auto more = min_gpus_for_training(s, t, cap, 65536, max_tp);
    if (!more) return std::nullopt;
    out.push_back(label + std::to_string(more->gpus) + " x " + g.id + " (TP " + std::to_string(more->tensor) +
                  (more->context > 1 ? " x CP " + std::to_string(more->context) : "") + " x PP " + std::to_string(more->pipeline) +
                  " x DP " + std::to_string(more->data) + ", ZeRO " + std::to_string(static_cast<int>(t.plan.zero_stage)) + ", recompute " +
                  recompute_text(t.plan) + "): " + bytes_text(more->budget.total()) + " per GPU");
    return more->gpus;
  };
  const auto plain = more_gpus(c, "more GPUs: ");
  if (c.plan.zero_stage != ZeroStage::parameters || c.plan.recompute != Recompute::full) {
    TrainingConfig t = c;
    t.plan.zero_stage = ZeroStage::parameters;
    t.plan.recompute = Recompute::full;
    t.plan.recompute_modules = 0;
    t.plan.offload_layers = 0;
    const auto frugal = min_gpus_for_training(s, t, cap, 65536, max_tp);
    if (frugal && (!plain || frugal->gpus < *plain)) (void)more_gpus(t, "more GPUs with --zero 3 --recompute full: ");
  }
  // The GPU with the least memory that holds this very plan, of the same vendor when one does (the
  // software stack a plan assumes is the vendor's), else of any.
  const auto smallest_holding = [&](bool same_vendor) {
    const GpuSpec* best = nullptr;
    for (const GpuSpec& other : catalog.gpus()) {
      if (same_vendor && other.vendor != g.vendor) continue;
      // Offloading needs a host memory of its own (perf::validate_offload_gpu): no SoC.
      if (c.plan.offload_layers > 0 && other.form_factor == FormFactor::soc) continue;
      if (other.capacity() < now.total() || check_fit(now, other.capacity()).tight) continue;
      if (!best || other.capacity() < best->capacity()) best = &other;
    }
    return best;
  };
  const GpuSpec* bigger = smallest_holding(true);
  if (!bigger) bigger = smallest_holding(false);
  if (bigger) {
    out.push_back("a GPU with more memory: " + bigger->id + " (" + bytes_text(bigger->capacity()) + ") holds this plan's " +
                  bytes_text(now.total()));
  } else {
    out.push_back("no GPU in the catalog holds this plan's " + bytes_text(now.total()) + " per GPU");
  }
  return out;
}

}  // namespace capplan::cli
