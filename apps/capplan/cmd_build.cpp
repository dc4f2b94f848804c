// The machine around the GPUs, one translation unit for the two commands that share its headers:
//   capplan build: complete, compatible, priced builds from catalog parts for a workload and a
//     budget in any currency, fastest first, each with its line items and why (plan/build.hpp);
//   capplan size: system RAM, CPU cores, storage capacity and bandwidth, PCIe lanes, airflow and
//     heat around a set of GPUs, with the rules of thumb buyers quote (plan/system_sizing.hpp).
#include "args.hpp"
#include "commands.hpp"
#include "context.hpp"
#include "output.hpp"
#include "workload_args.hpp"

#include <capplan/date.hpp>
#include <capplan/hardware/catalog.hpp>
#include <capplan/memory/formats.hpp>
#include <capplan/money/format.hpp>
#include <capplan/perf/image_model.hpp>
#include <capplan/plan/build.hpp>
#include <capplan/plan/system_sizing.hpp>
#include <capplan/report/build_output.hpp>
#include <capplan/units/format.hpp>
#include <capplan/workload/params.hpp>

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace capplan::cli {

namespace {

struct BuildArgs {
  std::string workload;  // "finetune llama3.1-8b lora"
  std::string budget;
  std::optional<std::string> fx;
  std::string fx_date;
  std::optional<std::int64_t> seq_len;
  int lora_rank = 16;
  std::string circuit = "us-15a-120v";
  double psu_headroom = 0.25;
  int top = 3;
};

Result run_build(const BuildArgs& a, const Context& ctx) {
  // The workload: TASK MODEL [lora|qlora|full].
  std::istringstream words(a.workload);
  std::string task, model, method, extra;
  words >> task >> model >> method >> extra;
  if (task.empty() || model.empty() || !extra.empty())
    detail::fail("--workload", "\"" + a.workload + "\"", "is not 'TASK MODEL [METHOD]', e.g. 'finetune llama3.1-8b lora', 'train llama2-7b', 'serve llama3.1-70b'");
  BuildQuery q;
  if (task == "train") q.task = SizingTask::train;
  else if (task == "finetune") q.task = SizingTask::finetune;
  else if (task == "serve") q.task = SizingTask::serve;
  else detail::fail("--workload", "\"" + task + "\"", "is not a task: train, finetune or serve");
  if (q.task == SizingTask::finetune) {
    if (method.empty() || method == "lora") q.finetune = FineTune::lora;
    else if (method == "qlora") q.finetune = FineTune::qlora;
    else if (method == "full") q.finetune = FineTune::full;
    else detail::fail("--workload", "\"" + method + "\"", "is not a fine-tuning method: lora, qlora or full");
  } else if (q.task == SizingTask::serve) {
    // 'serve MODEL [WEIGHTS]': the weight format (as the model is released by default: bf16 for most; q4_0, fp8, int8 ...).
    if (!method.empty()) q.load.weights = parse_weight_format(method, "--workload");
  } else if (!method.empty()) {
    detail::fail("--workload", "\"" + method + "\"", "names a method; only 'finetune MODEL METHOD' and 'serve MODEL WEIGHTS' take one");
  }
  const ModelArg m = model_arg(model);
  if (q.task == SizingTask::serve && m.shape.encoder)
    detail::fail("--workload", "\"" + a.workload + "\"",
                 "serves " + m.id + ", an encoder (one forward pass a request, no generated tokens), which build does not size by its decode: "
                 "capplan infer --model " + m.id + " --gpu GPU --batch N times its forward passes");
  if (q.task == SizingTask::serve && method.empty() && !m.released_weights.empty()) {
    // 'serve MODEL' alone: the format the model is released in (gpt-oss: MXFP4 experts; DeepSeek-V3: FP8).
    q.load.weights = parse_weight_format(m.released_weights, "--workload");
    if (!m.released_expert_weights.empty()) q.load.expert_weights = parse_weight_format(m.released_expert_weights, "--workload");
  }
  q.model = m.shape;
  q.model_id = m.id;
  q.seq_len = q.task == SizingTask::serve ? 0 : training_seq_len(a.seq_len, m);
  if (a.lora_rank < 1 || a.lora_rank > 65536) detail::fail("--lora-rank", std::to_string(a.lora_rank), "is outside 1 to 65536");
  q.lora.rank = a.lora_rank;
  // The budget in any currency; the catalog's prices are USD.
  if (a.budget.empty()) detail::fail("--budget", "\"\"", "is required, e.g. 15000 (USD) or '¥40000' with --fx");
  const Money budget = money_arg(a.budget, Currency::USD, "--budget");
  if (!(budget.amount() > Decimal(0))) detail::fail("--budget", a.budget, "must be positive");
  BuildBudget bb{.amount = budget, .usd_to_budget = std::nullopt};
  if (a.fx) {
    if (a.fx_date.empty()) detail::fail("--fx-date", "\"\"", "is required with --fx: an exchange rate must be dated");
    parse_iso_date(a.fx_date, "--fx-date");
    // --fx R: one USD is R units of the budget's currency.
    bb.usd_to_budget = ExchangeRate(Currency::USD, budget.currency(), Decimal::parse(*a.fx, "--fx"), a.fx_date, "--fx");
  }
  if (budget.currency() != Currency::USD && !bb.usd_to_budget)
    detail::fail("--budget", a.budget, "is in " + std::string(code(budget.currency())) + " and catalog prices are in USD; pass --fx RATE (one USD in " +
                                           std::string(code(budget.currency())) + ") and --fx-date");
  q.budget = bb.usd();
  q.circuit = circuits::find(a.circuit, "--circuit");
  if (!(a.psu_headroom >= 0 && a.psu_headroom <= 1)) detail::fail("--psu-headroom", detail::format_double(a.psu_headroom), "is outside 0 to 1");
  q.psu_headroom = a.psu_headroom;
  if (a.top < 1 || a.top > 20) detail::fail("--top", std::to_string(a.top), "is outside 1 to 20");
  const Catalog& cat = ctx.catalog();
  const BuildSearch r = propose_builds(q, cat, static_cast<std::size_t>(a.top));
  const auto in_budget_currency = [&](const Money& usd) {
    const std::optional<Money> local = bb.in_budget_currency(usd);
    return local ? format(usd) + " (" + format(*local) + ")" : format(usd);
  };
  // What runs: the sequences trained, or the load served (capplan infer's defaults: one sequence of 512 + 128 tokens).
  const std::string what =
      a.workload + (q.task == SizingTask::serve ? ", " + std::string(q.load.weights.name) + " weights" +
                                                      (q.load.expert_weights ? " (" + std::string(q.load.expert_weights->name) + " experts)" : std::string()) + ", " +
                                                      std::to_string(q.load.batch) + " x (" + std::to_string(q.load.prompt) + " prompt + " +
                                                      std::to_string(q.load.output) + " output) tokens"
                                                : ", " + std::to_string(q.seq_len) + "-token sequences");

  Result res;
  int i = 0;
  for (const Build& b : r.builds) {
    ++i;
    Table t;
    t.title = "Build " + std::to_string(i) + ": " + std::to_string(b.gpus) + " x " + b.gpu_id + ", " + in_budget_currency(b.total) + ", " +
              format_number(b.tokens_per_second, 4) + (q.task == SizingTask::serve ? " tokens/s decode" : " tokens/s training");
    t.columns = {{"kind", "Kind", Align::left},  {"part", "Part", Align::left}, {"count", "Count", Align::right},
                 {"each", "Each", Align::right}, {"subtotal", "Subtotal", Align::right}, {"why", "Why", Align::left}};
    for (const BuildItem& it : b.items) {
      // A multi-pack's unit price keeps its third decimal ($139.99 for two: $69.995 each).
      const std::string each = it.unit == it.unit.rounded_to(2) ? format(it.unit) : format(it.unit, {.decimals = 3});
      t.add_row({Cell::of_text(std::string(name(it.kind))), Cell::of_text(it.id), Cell::of_number(std::to_string(it.count), it.count),
                 Cell::of_money(each, to_json_string(it.unit), it.unit.amount().to_double()),
                 Cell::of_money(format(it.subtotal), to_json_string(it.subtotal), it.subtotal.amount().to_double()), Cell::of_text(it.why)});
    }
    t.add_row({Cell::of_text("total"), Cell::of_text(""), Cell::of_text(""), Cell::of_text(""),
               Cell::of_money(format(b.total), to_json_string(b.total), b.total.amount().to_double()),
               Cell::of_text(bb.usd_to_budget ? format(bb.in_budget_currency(b.total).value()) + " at " + *a.fx + " per USD (" + a.fx_date + ")" : "")});
    t.notes.push_back("Runs " + what + " at " + format_number(b.tokens_per_second, 4) + " tokens/s (" + b.plan + ", " + format(b.memory_per_gpu) +
                      " per GPU); wall power at full load " + format(b.wall, {.significant = 4}) + " on " + q.circuit.name + ".");
    t.notes.push_back("Not checked (not in the catalog): " + [&] {
      std::string s;
      for (const auto& u : b.unchecked) s += (s.empty() ? "" : "; ") + u;
      return s;
    }() + ".");
    for (const auto& c : b.cautions) t.notes.push_back("Caution: " + c + ".");
    res.tables.push_back(std::move(t));
  }
  Table rej;
  rej.title = r.builds.empty() ? "No build within " + in_budget_currency(q.budget) + " runs " + what : "Not proposed";
  rej.columns = {{"reason", "GPU x count: why not", Align::left}};
  for (const auto& why : r.rejected) rej.add_row({Cell::of_text(why)});
  rej.notes.push_back("Parts: the cheapest catalog CPU with x8 lanes per GPU and the cores the workload needs (capplan size), with a priced "
                      "board for its socket where the catalog has one, memory of its type in whole channels to the RAM needed, solid-state "
                      "drives for the storage needed, the cheapest case that holds the board and fits the cards (their width in slot "
                      "positions, their length, a passive card's need for server airflow), and the PSU the power model asks for (capplan power). Prices: street, else launch, USD; where a street price is a range "
                      "(the lowest to the median listing of a card), its low end (capplan catalog show ID for each source, date and range).");
  if (q.task == SizingTask::serve && method.empty() && !m.released_weights.empty())
    rej.notes.push_back("Weights: " + m.released_weights + (m.released_expert_weights.empty() ? "" : " with " + m.released_expert_weights + " experts") +
                        ", as " + m.id + " is released (" + m.released_source + "); 'serve " + m.id + " bf16' sizes a full-precision copy.");
  rej.notes.push_back("A card with no price is not proposed; a catalog file can price it (--catalog FILE, docs/catalog-files.md).");
  rej.notes.push_back("Renting instead: capplan compare --model " + m.id + " --tokens N --only cloud; owning against renting: capplan tco.");
  res.tables.push_back(std::move(rej));
  res.json = to_json(build_search_output(r, a.workload, bb, &q));
  return res;
}


struct SizeArgs {
  std::string gpu, model, cpu, dataset;
  int gpus = 1;
  std::string task = "train";
  int lora_rank = 16;
  std::optional<double> samples_per_second;
  int checkpoints = 3;
  bool offload_optimizer = false, cache_dataset = false;
  int drives = 1;
};

Result run_size(const SizeArgs& a, const Context& ctx) {
  const Catalog& cat = ctx.catalog();
  SizingQuery q;
  q.gpu = &cat.find_gpu(a.gpu);
  if (q.gpu->form_factor == FormFactor::cloud)
    detail::fail("--gpu", q.gpu->id, "is rent-only (Google's TPUs, AWS Trainium): there is no machine of one's own to size");
  if (a.gpus < 1 || a.gpus > 64) detail::fail("--gpus", std::to_string(a.gpus), "is outside 1 to 64 GPUs in one machine");
  if (perf::linkless(*q.gpu) && a.gpus > 1)
    detail::fail("--gpus", std::to_string(a.gpus), "puts several " + q.gpu->id + " in one machine, but a system-on-chip is a machine of its own: size one");
  if (q.gpu->form_factor == FormFactor::soc && !a.cpu.empty())
    detail::fail("--cpu", a.cpu, "adds a CPU to " + q.gpu->id + ", a system-on-chip whose CPU is inside it");
  q.gpus = a.gpus;
  q.task = a.task == "serve" ? SizingTask::serve : a.task == "finetune" ? SizingTask::finetune : SizingTask::train;
  if (a.task != "train" && a.task != "finetune" && a.task != "serve") detail::fail("--task", a.task, "is not train, finetune or serve");
  std::string model_text = "no model given";
  if (!a.model.empty()) {
    if (const auto image = image_model_arg(a.model)) {
      refuse_diffusion_training(*image);
      // An image model: the GPUs' own rate (perf/image_model.hpp, batch 256, no data pipeline) is what the host must feed.
      q.parameters = image->shape.parameters;
      q.checkpoint_bytes_per_param = sgd_checkpoint_bytes_per_param;  // fp32 weights and SGD momentum
      const perf::Cluster c = perf::make_cluster(*q.gpu, q.gpus, q.gpus, perf::Link{});
      q.samples_per_second = perf::estimate_image_training(image->shape, 256, c, Precision::bf16).gpu_bound_images_per_second;
      q.dataset = DataSize::from_value(static_cast<double>(imagenet_1k_train_images) * q.sample_size.value());
      model_text = image->id + " (" + image->shape.name + "), " + format_number(q.samples_per_second, 4) + " images/s on these GPUs, ImageNet-1k";
    } else {
      const ModelArg m = model_arg(a.model);
      q.parameters = static_cast<double>(parameter_count(m.shape));
      model_text = m.id + " (" + count_text(q.parameters) + " parameters)";
      if (q.task == SizingTask::finetune) {
        if (a.lora_rank < 1 || a.lora_rank > 65536) detail::fail("--lora-rank", std::to_string(a.lora_rank), "is outside 1 to 65536");
        LoraOptions l;
        l.rank = a.lora_rank;
        q.trainable = static_cast<double>(lora_parameter_count(m.shape, l));
        model_text += ", LoRA rank " + std::to_string(a.lora_rank) + " (" + count_text(q.trainable) + " trained)";
      }
    }
  } else if (q.task == SizingTask::finetune) {
    detail::fail("--task", "finetune", "needs --model: the adapters are sized from the model");
  }
  if (a.samples_per_second) {
    if (!(*a.samples_per_second >= 0 && *a.samples_per_second <= 1e9))
      detail::fail("--samples-per-second", detail::format_double(*a.samples_per_second), "is outside 0 to 1e9");
    q.samples_per_second = *a.samples_per_second;
  }
  if (!a.dataset.empty()) {
    q.dataset = quantity_arg<DataSize>(a.dataset, "B", "--dataset");
    if (!(q.dataset.value() >= 0)) detail::fail("--dataset", a.dataset, "is negative");
  }
  q.checkpoints_kept = a.checkpoints;
  q.offload_optimizer = a.offload_optimizer;
  q.cache_dataset = a.cache_dataset;
  q.nvme_drives = a.drives;
  if (!a.cpu.empty()) q.cpu = &cat.find_cpu(a.cpu);
  const SystemSizing s = [&] {
    try {
      return size_system(q);
    } catch (const InputError& e) {  // the library names its field; the user typed a flag
      const std::string flag = e.field() == "checkpoints_kept" ? "--checkpoints" : e.field() == "nvme_drives" ? "--drives" : "--" + e.field();
      fail_as_flag(flag, e.value(), e);
    }
  }();

  Result r;
  Table t;
  t.title = "The machine around " + std::to_string(q.gpus) + " x " + q.gpu->id + " to " + a.task + ": " + model_text;
  t.columns = {{"item", "Item", Align::left}, {"answer", "Answer", Align::left}};
  for (const SizingLine& l : s.lines) {
    t.add_row({Cell::of_text(l.item), Cell::of_text(l.answer)});
    std::string sum;
    for (const auto& p : l.parts) sum += (sum.empty() ? "" : " + ") + p;
    r.explanation.push_back(l.item + ": " + l.answer + " = " + sum);
  }
  t.notes = system_sizing_notes(s);
  t.notes.push_back("Power, PSU and the wall circuit of this machine: capplan power --gpu " + q.gpu->id + " --gpus " + std::to_string(q.gpus) +
                    (q.cpu ? " --cpu " + q.cpu->id : std::string(" --cpu ...")) + ".");
  r.json = to_json(system_sizing_output(s, q, a.model, t.notes));
  r.tables.push_back(std::move(t));
  return r;
}

}  // namespace

void add_build(CLI::App& app, Context& ctx) {
  auto a = std::make_shared<BuildArgs>();
  auto* cmd = app.add_subcommand("build", "Complete, compatible, priced builds for a workload and a budget, fastest first");
  cmd->footer(
      "Examples:\n"
      "  capplan build --workload 'finetune llama3.1-8b lora' --budget 15000\n"
      "  capplan build --workload 'finetune llama3.1-8b lora' --budget '40000 CNY' --fx 7.2 --fx-date 2026-11-01\n"
      "  capplan build --workload 'serve deepseek-r1-distill-qwen-32b q4_0' --budget 6000 --format json");
  cmd->add_option("--workload", a->workload,
                  "TASK MODEL [METHOD]: 'finetune llama3.1-8b lora|qlora|full', 'train llama2-7b', 'serve llama3.1-70b [q4_0|fp8|...]'")
      ->required();
  cmd->add_option("--budget", a->budget, "Most the whole build may cost: 15000 (USD), '40000 CNY', '€12000'")->required();
  cmd->add_option("--fx", a->fx, "Exchange rate: one USD in the budget's currency (required for a budget not in USD)");
  cmd->add_option("--fx-date", a->fx_date, "Date of the exchange rate (required with --fx)");
  cmd->add_option("--seq-len", a->seq_len, "Training sequence length (default: the model's pre-training length)");
  cmd->add_option("--lora-rank", a->lora_rank, "LoRA rank (default 16)");
  cmd->add_option("--circuit", a->circuit, "Wall circuit: us-15a-120v (default), eu-16a-230v, cn-10a-220v, ...");
  cmd->add_option("--psu-headroom", a->psu_headroom, "PSU headroom above the maximum draw, 0..1 (default 0.25)");
  cmd->add_option("--top", a->top, "Builds to show (default 3)");
  cmd->callback([a, &ctx] { write(run_build(*a, ctx), ctx); });
}

void add_size(CLI::App& app, Context& ctx) {
  auto a = std::make_shared<SizeArgs>();
  auto* cmd = app.add_subcommand("size", "System RAM, CPU cores, storage, PCIe lanes and cooling around a set of GPUs");
  cmd->footer(
      "Examples:\n"
      "  capplan size --gpu rtx4090 --gpus 2 --model llama3.1-8b --task finetune\n"
      "  capplan size --gpu a100-sxm-80gb --gpus 8 --model resnet50 --cpu epyc-7763\n"
      "  capplan size --gpu h100-sxm --gpus 8 --model llama3.1-70b --dataset '2 TB' --format json");
  cmd->add_option("--gpu", a->gpu, "GPU: any name the catalog accepts")->required();
  cmd->add_option("--gpus", a->gpus, "GPUs in the machine (default 1)");
  cmd->add_option("--model", a->model, "Model preset id or JSON model file (resnet50: an image model)");
  cmd->add_option("--task", a->task, "train (default), finetune (LoRA) or serve")->check(CLI::IsMember({"train", "finetune", "serve"}));
  cmd->add_option("--lora-rank", a->lora_rank, "LoRA rank for --task finetune (default 16)");
  cmd->add_option("--dataset", a->dataset, "Training data on disk, e.g. '500 GB' (resnet50: ImageNet-1k by default)");
  cmd->add_option("--samples-per-second", a->samples_per_second, "Samples the GPUs consume (default: resnet50's rate on these GPUs; 0 for tokens)");
  cmd->add_option("--checkpoints", a->checkpoints, "Checkpoints kept on disk (default 3)");
  cmd->add_flag("--offload-optimizer", a->offload_optimizer, "ZeRO-Offload: optimizer states in host memory");
  cmd->add_flag("--cache-dataset", a->cache_dataset, "Keep the dataset in the page cache");
  cmd->add_option("--cpu", a->cpu, "A CPU from the catalog to check cores, lanes and memory bandwidth against");
  cmd->add_option("--drives", a->drives, "NVMe drives (4 PCIe lanes each; default 1)");
  cmd->callback([a, &ctx] { write(run_size(*a, ctx), ctx); });
}

}  // namespace capplan::cli
