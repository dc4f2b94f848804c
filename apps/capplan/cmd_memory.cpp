// capplan memory: the per-GPU memory breakdown of a training plan or a serving load on one GPU
// model, whether it fits and by how much, and what would fit (largest micro-batch or context,
// most sequences, fewest GPUs).
#include "commands.hpp"
#include "context.hpp"
#include "fit_hints.hpp"
#include "output.hpp"
#include "workload_args.hpp"

#include <capplan/hardware/catalog.hpp>
#include <capplan/memory/budget.hpp>
#include <capplan/memory/image_model.hpp>
#include <capplan/memory/solvers.hpp>
#include <capplan/perf/communication.hpp>
#include <capplan/plan/memory_report.hpp>
#include <capplan/plan/training_run.hpp>
#include <capplan/report/chart.hpp>
#include <capplan/report/memory_output.hpp>
#include <capplan/report/table.hpp>
#include <capplan/units/format.hpp>
#include <capplan/workload/parallel_plan.hpp>
#include <capplan/workload/params.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <tuple>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace capplan::cli {

namespace {

struct MemoryArgs {
  std::string model;
  std::string gpu;
  PlanArgs plan;
  FinetuneArgs finetune;
  std::optional<std::int64_t> batch_per_gpu;  // image models
  GivenFlags flags;
};

Cell bytes_cell(DataSize d) { return Cell::of_number(bytes_text(d), d.value()); }

Table breakdown_table(const std::string& title, const MemoryBudget& b, const FitResult& fit) {
  Table t;
  t.title = title;
  t.columns = {{"item", "Item", Align::left}, {"bytes", "Per GPU", Align::right}, {"detail", "How", Align::left}};
  for (const MemoryItem* i : b.items()) t.add_row({Cell::of_text(i->label), bytes_cell(i->size), Cell::of_text(i->detail)});
  t.add_row({Cell::of_text("total"), bytes_cell(b.total()), Cell::of_text(format_number(fit.utilization * 100, 3) + "% of the GPU")});
  t.add_row({Cell::of_text("GPU memory"), bytes_cell(fit.available), Cell::of_text("")});
  const DataSize gap = fit.fits ? fit.headroom : -1.0 * fit.headroom;
  t.add_row({Cell::of_text(fit.fits ? (fit.tight ? "fits, but tight: headroom" : "fits: headroom") : "does not fit: short by"),
             Cell::of_number(bytes_text(gap), fit.headroom.value()),
             Cell::of_text(!fit.fits ? "over"
                           : fit.tight ? "free; the allocator may lose " + bytes_text(b.tight_margin) + " more than the reserve holds (" +
                                             format_number(100 * RuntimeReserve{}.fragmentation_tight, 3) +
                                             " % of the tensors in all, the fragmentation GMLake removed on average), so this may run out of memory"
                                       : "free")});
  return t;
}

// The breakdown as one stacked bar against the GPU's memory.
std::string memory_chart(const std::string& title, const std::string& gpu, const MemoryBudget& b, const FitResult& fit) {
  BarChart chart;
  chart.title = title;
  chart.unit = "GB per GPU";
  chart.unit_scale = 1e9;
  StackedBar bar;
  bar.label = gpu;
  for (const MemoryItem* i : b.items()) bar.segments.push_back({i->label, i->size.value()});
  bar.capacity = fit.available.value();
  chart.bars.push_back(std::move(bar));
  return render_svg(chart);
}

// capplan memory for an image model: data-parallel training memory per GPU (memory/image_model.hpp), the fit,
// and the largest batch per GPU that fits.
Result run_memory_image(const MemoryArgs& a, const ImageModelArg& m, const Context& ctx) {
  const ImageModel& net = m.shape;
  const std::string& id = m.id;
  {
    const std::string why = "describes a transformer; " + id + " is an image model (--batch-per-gpu, --precision)";
    a.flags.refuse({"--serve", "--tp", "--pp"}, why);
    a.flags.refuse(language_training_flags, why);
    a.flags.refuse(goodput_flags, why);
    a.flags.refuse({"--batch", "--weights"}, why);
    a.flags.refuse(language_serving_flags, why);
  }
  const GpuSpec g = gpu_with_usable_memory(ctx.catalog().find_gpu(a.gpu), a.plan.usable_memory);
  const std::int64_t batch = a.batch_per_gpu.value_or(256);
  if (batch < 1 || batch > 1'000'000) detail::fail("--batch-per-gpu", std::to_string(batch), "must be an image count from 1 to 1,000,000");
  // AMP (fp16) unless --precision says bf16 or fp32.
  const Precision p = a.flags.has("--precision") ? precision_arg(a.plan.precision) : Precision::fp16;
  if (p != Precision::fp16 && p != Precision::bf16 && p != Precision::fp32)
    detail::fail("--precision", a.plan.precision, "is not one an image model trains at here (fp16 or bf16 with AMP, fp32)");
  const MemoryBudget b = image_training_memory(net, batch, p);
  const FitResult fit = check_fit(b, g.capacity());
  const std::int64_t most = image_max_batch(net, g.capacity(), p);
  Result r;
  Table t = breakdown_table("Training " + id + " (" + net.name + ") on " + g.id + ": " + std::to_string(batch) + " images per GPU, " +
                                (p == Precision::fp32 ? std::string("fp32") : "AMP (" + std::string(name(p)) + ")"),
                            b, fit);
  t.add_row({Cell::of_text("largest batch that fits"), Cell::of_number(std::to_string(most) + " images", static_cast<double>(most)),
             Cell::of_text(most == 0 ? "not even one image" : "per GPU, at the same precision")});
  t.notes.push_back("Model: " + id + " (" + net.name + ", " + count_text(net.parameters) + " parameters), data parallel: every GPU holds the whole model.");
  if (net.linears.empty()) {
    t.notes.push_back("Activations: what autograd saves per image: each convolution's output and its ReLU's output at the compute precision, "
                      "the input image, the classifier's input and the max pool's int64 indices (memory/image_model.hpp). NVIDIA trains ResNet-50 at "
                      "256 images per 16 GB GPU in AMP and 112-128 in FP32 (DeepLearningExamples configs.yml).");
  } else {
    const bool fused = net.attentions.empty() || net.attentions.front().fused;
    t.notes.push_back(std::string("Activations: what autograd saves per image: each linear layer's input, each LayerNorm's fp32 input (the residual "
                                  "stream is fp32 under AMP), each GELU's input, and ") +
                      (fused ? "fused attention's Q, K, V, output and log-sum-exp"
                             : "unfused attention's scaled queries and its tokens^2 probabilities twice, fp32 from softmax and the fp16 copy (--no-flash-attention)") +
                      " (memory/image_model.hpp). timm trains ViT-B/16 at 192 images and ViT-L/16 at 64 on a 24 GB RTX 3090 in AMP with PyTorch 1.12 "
                      "(unfused attention; results/benchmark-train-amp-nchw-pt112-cu113-rtx3090.csv).");
  }
  t.notes.push_back("GPU: " + g.name + ", " + bytes_text(g.capacity()) + " the fit uses; " + g.source + ".");
  r.tables.push_back(t);
  r.charts.push_back(memory_chart("Memory per GPU: " + id + ", " + std::to_string(batch) + " images", g.id, b, fit));
  nlohmann::ordered_json j;
  j["model"] = id;
  j["gpu"] = g.id;
  j["batch_per_gpu"] = batch;
  j["precision"] = std::string(name(p));
  for (const MemoryItem* i : b.items()) j["bytes"][i->label] = i->size.value();
  j["total_bytes"] = b.total().value();
  j["gpu_bytes"] = fit.available.value();
  j["fits"] = fit.fits;
  j["tight"] = fit.tight;
  j["max_batch_per_gpu"] = most;
  j["notes"] = t.notes;
  r.json = std::move(j);
  r.explanation = lines_of(b.to_string());
  return r;
}

Result run_memory(const MemoryArgs& a, const Context& ctx) {
  if (auto image = image_model_arg(a.model)) {
    refuse_diffusion_training(*image);
    apply_image_attention_flag(*image, a.plan.flash_attention, a.flags);
    return run_memory_image(a, *image, ctx);
  }
  a.flags.refuse({"--batch-per-gpu"}, "applies to image models (e.g. resnet50); a transformer takes --micro-batch or --batch");
  const ModelArg m = model_arg(a.model);
  const GpuSpec g = gpu_with_usable_memory(ctx.catalog().find_gpu(a.gpu), a.plan.usable_memory);
  Result r;
  const double params = static_cast<double>(parameter_count(m.shape));
  std::vector<std::string> notes;
  notes.push_back("Model: " + m.id + " (" + count_text(params) + " parameters; " + m.source + ").");
  if (std::string w = window_note(m.shape); !w.empty()) notes.push_back(std::move(w));
  notes.push_back("GPU: " + g.name + ", " + bytes_text(g.memory) +
                  (g.usable_memory ? std::string(" as marketed") : " (" + format(g.memory, {.prefixes = Prefixes::binary}) + ")") +
                  (g.usable_memory ? (a.plan.usable_memory.empty() ? "; the runtime reports " : "; --usable-memory gives ") +
                                         format(*g.usable_memory, {.prefixes = Prefixes::binary}) + " (" + bytes_text(*g.usable_memory) +
                                         "), which the fit uses"
                                   : "") +
                  (g.vendor == Vendor::apple && a.plan.usable_memory.empty()
                       ? " (Metal's default working set; after `sudo sysctl iogpu.wired_limit_mb=N`, pass --usable-memory)"
                       : "") +
                  "; " + g.source + ".");
  const RuntimeReserve reserve;  // the defaults both configurations use
  notes.push_back("Runtime reserve: " + format(reserve.fixed, {.prefixes = Prefixes::binary}) + " (CUDA context, cuBLAS/NCCL workspaces) + " +
                  format_number(100 * reserve.fragmentation, 3) + "% of the planned tensors for allocator fragmentation (capplan's default, "
                  "not measured). A fit with less headroom than another " +
                  format_number(100 * (reserve.fragmentation_tight - reserve.fragmentation), 3) + "% of the tensors is tight: GMLake (ASPLOS 2024) removed " +
                  format_number(100 * reserve.fragmentation_tight, 3) + "% fragmentation on average, up to 33%, from PyTorch's allocator.");

  if (!a.plan.serve) {
    TrainingConfig c = training_config(a.plan, m);
    try {
      perf::validate_offload_gpu(g, c.plan.offload_layers);
    } catch (const InputError& e) {  // the user typed a flag
      fail_as_flag("--offload-layers", e.value(), e);
    }
    std::tie(c.finetune, c.lora) = finetune_arg(a.finetune);
    const bool recompute_given = a.plan.recompute || a.plan.recompute_modules;
    if (c.finetune == FineTune::qlora && !recompute_given) c.plan.recompute = Recompute::full;  // PEFT's default (qlora_recompute_note)
    if (std::string n = qlora_recompute_note(c.finetune, c.plan.recompute, recompute_given); !n.empty()) notes.push_back(std::move(n));
    const std::string tuning = finetune_text(c.finetune, c.lora, m.shape);
    const Precision precision = precision_arg(a.plan.precision);
    // Sized at the precision this GPU runs, as train times it: FP8 asked on a GPU without FP8 tensor
    // cores keeps 16-bit inputs, MXFP8 without block-scaled tensor cores falls back to current scaling,
    // blockwise off Hopper to MXFP8 (Blackwell) or current scaling.
    {
      const Precision used = detail::usable_precision(g, precision).value_or(precision);
      perf::Fp8Recipe recipe = fp8_recipe_arg(a.plan.fp8_recipe, precision);
      if (used == Precision::fp8 && recipe == perf::Fp8Recipe::mxfp8 && !perf::quant_hardware(g).block_scaled) {
        recipe = perf::Fp8Recipe::current;
        notes.push_back(g.id + ": no block-scaled (MXFP8) tensor cores; sized with per-tensor current scaling, as train times it.");
      }
      if (const perf::QuantHardware hw = perf::quant_hardware(g); used == Precision::fp8 && recipe == perf::Fp8Recipe::blockwise && !hw.fp8_blockwise) {
        recipe = hw.block_scaled ? perf::Fp8Recipe::mxfp8 : perf::Fp8Recipe::current;
        notes.push_back(g.id + (hw.block_scaled ? ": blockwise FP8 runs emulated through MXFP8 off Hopper; sized as mxfp8, as train times it."
                                                : ": no blockwise-scaled FP8 GEMMs (Hopper only); sized with per-tensor current scaling, as train times it."));
      }
      perf::apply_precision(c, framework_arg(a.plan.framework, "", a.plan.grad_reduce), used, recipe);
      if (used != precision)
        notes.push_back(g.id + ": no dense " + std::string(name(precision)) + " rate in the catalog; activations sized at " + std::string(name(used)) +
                        ", as train times it.");
    }
    const TrainingMemoryReport rep = training_memory_report(m.id, m.shape, g, c, precision);
    const MemoryBudget& b = rep.budget;
    const FitResult& fit = rep.fit;
    const ParallelPlan& p = c.plan;
    const std::int64_t seq = rep.seq_len;
    const std::string plan_text = std::to_string(p.gpus()) + " GPU" + (p.gpus() == 1 ? "" : "s") + ": TP " +
                                  std::to_string(p.tp) + cp_text(p) + " x PP " + std::to_string(p.pp) + " x DP " +
                                  std::to_string(p.dp) + ", ZeRO " + std::to_string(a.plan.zero.value_or(0)) + ", micro-batch " +
                                  std::to_string(p.micro_batch) + " x " + std::to_string(seq) + " tokens, recompute " +
                                  recompute_text(p) + (p.sequence_parallel ? ", sequence parallel" : "") +
                                  (c.flash_attention ? ", FlashAttention" : ", no FlashAttention") +
                                  (tuning.empty() ? "" : ", " + tuning);
    r.tables.push_back(breakdown_table("Training memory per GPU: " + m.id + " on " + g.id + " (" + plan_text + ")", b, fit));
    r.charts.push_back(memory_chart("Training memory per GPU against " + g.id + "'s capacity", g.id, b, fit));

    const std::int64_t mb = rep.max_micro_batch;
    const std::optional<GpuPlan>& fewest = rep.fewest;
    Table w;
    w.title = "What fits on " + g.id;
    w.columns = {{"question", "Question", Align::left}, {"answer", "Answer", Align::right}, {"detail", "Plan", Align::left}};
    w.add_row({Cell::of_text("largest micro-batch with this plan"), Cell::of_number(std::to_string(mb), static_cast<double>(mb)),
               Cell::of_text(mb == 0 ? "not even 1 sequence fits" : std::to_string(seq) + " tokens each")});
    if (fewest) {
      w.add_row({Cell::of_text("fewest GPUs (ZeRO " + std::to_string(a.plan.zero.value_or(0)) + ", micro-batch " + std::to_string(p.micro_batch) + ")"),
                 Cell::of_number(std::to_string(fewest->gpus), fewest->gpus),
                 Cell::of_text("TP " + std::to_string(fewest->tensor) + (fewest->context > 1 ? " x CP " + std::to_string(fewest->context) : "") +
                               " x PP " + std::to_string(fewest->pipeline) + " x DP " +
                               std::to_string(fewest->data) + ", " + bytes_text(fewest->budget.total()) + " per GPU")});
    } else {
      w.add_row({Cell::of_text("fewest GPUs"), Cell::empty(), Cell::of_text("no layout up to 65,536 GPUs fits")});
    }
    const std::vector<std::string> hints = training_fit_hints(m, c, g, ctx.catalog());
    if (!hints.empty()) {
      Table h;
      h.title = "What would fit: " + m.id + " needs " + bytes_text(b.total()) + " per GPU, " + g.id + " has " + bytes_text(g.capacity());
      h.columns = {{"option", "Change", Align::left}};
      for (const auto& line : hints) h.add_row({Cell::of_text(line)});
      r.tables.push_back(std::move(h));
    }
    w.notes = notes;
    if (const perf::Framework fw = framework_arg(a.plan.framework, "", a.plan.grad_reduce); !a.plan.grad_reduce.empty() && !fw.grad_buffer_in_reduce_precision)
      w.notes.push_back("--grad-reduce " + a.plan.grad_reduce + ": " + fw.name + " keeps its gradients at " + format_number(fw.master_grad_bytes, 3) +
                        " B whatever the reduction sends, so memory is as without it (train times the reduction).");
    w.notes.push_back(seq_len_note(a.plan.seq_len, m));
    for (std::string& s : pipeline_layout_notes(a.plan, m)) w.notes.push_back(std::move(s));
    if (c.mtp_layers > 0)
      w.notes.push_back(std::to_string(c.mtp_layers) + " MTP layer" + (c.mtp_layers > 1 ? "s" : "") +
                        " counted on the last pipeline stage: the model's average layer, a 2h x h projection and three norms in "
                        "weights, and for the micro-batch in flight there a layer's activations, the projection's input and another "
                        "pass through the output layer with its fp32 logits (capplan train times them).");
    w.notes.push_back(c.flash_attention ? "FlashAttention assumed (PyTorch's memory-efficient SDPA kernel on GPUs before Ampere): no s x s "
                                          "attention scores kept; --no-flash-attention counts them."
                                        : "No FlashAttention: the s x s attention scores, softmax and dropout mask of every layer are kept.");
    if (!tuning.empty())
      w.notes.push_back(tuning + ": frozen base weights in " + (c.finetune == FineTune::qlora ? "NF4 (embedding and output head in bf16)" : "bf16") +
                        "; gradients and optimizer states for the adapters only (Hu et al. 2021; Dettmers et al. 2023).");
    w.notes.push_back("Method: ZeRO model states (Rajbhandari et al. 2020, §5), Korthikanti et al. 2022 activations, "
                      "every pipeline stage checked, the one that needs the most shown (docs/memory.md).");
    r.json = to_json(training_memory_output(rep, hints, w.notes));
    r.tables.push_back(std::move(w));

    for (const MemoryItem* i : b.items()) r.explanation.push_back(i->label + ": " + bytes_text(i->size) + (i->detail.empty() ? "" : " = " + i->detail));
    r.explanation.push_back("total " + bytes_text(b.total()) + " vs " + bytes_text(g.capacity()) + " on the GPU: headroom " +
                            bytes_text(fit.headroom));
  } else {
    const InferenceConfig c = inference_config(a.plan, m.shape, &m);
    refuse_soc_serving_layout(a.plan, c, g);
    const ServingMemoryReport rep = serving_memory_report(m.id, m.shape, g, c);
    const MemoryBudget& b = rep.budget;
    const FitResult& fit = rep.fit;
    const std::int64_t ctx_tokens = rep.context;
    const int gpus = rep.gpus();
    const std::string plan_text = std::to_string(gpus) + " GPU" + (gpus == 1 ? "" : "s") + ": TP " + std::to_string(c.tensor_parallel) +
                                  " x PP " + std::to_string(c.pipeline_parallel) + ", " + std::string(c.weights.name) + " weights, " +
                                  (c.expert_weights ? std::string(c.expert_weights->name) + " experts, " : std::string()) +
                                  std::to_string(c.sequences) + " x " + std::to_string(ctx_tokens) + " tokens";
    r.tables.push_back(breakdown_table("Serving memory per GPU: " + m.id + " on " + g.id + " (" + plan_text + ")", b, fit));
    r.charts.push_back(memory_chart("Serving memory per GPU against " + g.id + "'s capacity", g.id, b, fit));

    const std::int64_t max_ctx = rep.max_context;
    const std::int64_t max_seqs = rep.max_batch;
    const std::optional<GpuPlan>& fewest = rep.fewest;
    Table w;
    w.title = "What fits on " + g.id;
    w.columns = {{"question", "Question", Align::left}, {"answer", "Answer", Align::right}, {"detail", "Plan", Align::left}};
    if (m.shape.encoder) {
      // No KV cache: the sequences of a pass share one layer's working set, which does not grow with them.
      notes.push_back(m.id + " is an encoder: it keeps no KV cache, so its memory does not grow with the sequences served, only with a "
                      "pass's working set (one layer for the tokens of one step); its learned positions stop at " +
                      std::to_string(m.shape.seq_len) + " tokens a sequence.");
    } else {
      w.add_row({Cell::of_text("largest context, " + std::to_string(c.sequences) + " sequence" + (c.sequences == 1 ? "" : "s")),
                 Cell::of_number(std::to_string(max_ctx), static_cast<double>(max_ctx)),
                 Cell::of_text(max_ctx == 0 ? "the weights alone do not fit" : "tokens per sequence")});
      w.add_row({Cell::of_text("most sequences of " + std::to_string(ctx_tokens) + " tokens"),
                 Cell::of_number(std::to_string(max_seqs), static_cast<double>(max_seqs)), Cell::of_text("served at once")});
    }
    if (fewest) {
      w.add_row({Cell::of_text("fewest GPUs for this load"), Cell::of_number(std::to_string(fewest->gpus), fewest->gpus),
                 Cell::of_text("TP " + std::to_string(fewest->tensor) + " x PP " + std::to_string(fewest->pipeline) + ", " +
                               bytes_text(fewest->budget.total()) + " per GPU")});
    } else {
      w.add_row({Cell::of_text("fewest GPUs for this load"), Cell::empty(), Cell::of_text("no layout up to 1,024 GPUs fits")});
    }
    w.notes = notes;
    if (std::string n = context_note(m, ctx_tokens); !n.empty()) w.notes.push_back(std::move(n));
    if (std::string n = released_weights_note(a.plan, m); !n.empty()) w.notes.push_back(std::move(n));
    w.notes.push_back("KV cache in " + std::string(c.kv_cache.name) + "; method: docs/memory.md (weights, KV cache, one layer's working set).");
    r.json = to_json(serving_memory_output(rep, w.notes));
    r.tables.push_back(std::move(w));

    for (const MemoryItem* i : b.items()) r.explanation.push_back(i->label + ": " + bytes_text(i->size) + (i->detail.empty() ? "" : " = " + i->detail));
    r.explanation.push_back("total " + bytes_text(b.total()) + " vs " + bytes_text(g.capacity()) + " on the GPU: headroom " +
                            bytes_text(fit.headroom));
  }
  return r;
}

}  // namespace

void add_memory(CLI::App& app, Context& ctx) {
  auto a = std::make_shared<MemoryArgs>();
  auto* cmd = app.add_subcommand("memory", "Per-GPU memory breakdown, whether it fits, and what would fit");
  cmd->footer(
      "Examples:\n"
      "  capplan memory --model llama2-7b --gpu 'H100 SXM' --gpus 8 --zero 3\n"
      "  capplan memory --model llama3.1-70b --gpu h100-sxm --tp 8 --pp 2 --dp 4 --zero 1 \\\n"
      "      --recompute selective\n"
      "  capplan memory --model llama3.1-8b --gpu rtx4090 --finetune qlora --seq-len 2048\n"
      "  capplan memory --serve --model deepseek-r1-distill-qwen-32b --gpu rtx4090 --weights q4_0 \\\n"
      "      --context 8192\n"
      "  capplan memory --model my-model.json --gpu a100-sxm-80gb --format json\n"
      "  capplan memory --model resnet50 --gpu rtx4090 --batch-per-gpu 256");
  add_model_gpu_flags(cmd, a->model, a->gpu);
  add_usable_memory_flag(cmd, a->plan.usable_memory);
  add_plan_flags(cmd, a->plan);
  add_finetune_flags(cmd, a->finetune);
  add_serve_flags(cmd, a->plan, true);
  separate_serve_flags(cmd);
  cmd->add_option("--batch-per-gpu", a->batch_per_gpu, "Image models: images per GPU (default 256)");
  a->flags.cmd = cmd;
  cmd->callback([a, &ctx] { write(run_memory(*a, ctx), ctx); });
}

}  // namespace capplan::cli
