// capplan size: the machine around a set of GPUs for a workload: system RAM, CPU cores, storage
// capacity and bandwidth, PCIe lanes, airflow and heat, each with its rule and the rules of thumb
// buyers quote beside it (include/capplan/plan/system_sizing.hpp).
#include "args.hpp"
#include "commands.hpp"
#include "context.hpp"
#include "output.hpp"
#include "workload_args.hpp"

#include <capplan/hardware/catalog.hpp>
#include <capplan/memory/budget.hpp>
#include <capplan/perf/cnn.hpp>
#include <capplan/plan/system_sizing.hpp>
#include <capplan/units/format.hpp>
#include <capplan/workload/params.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>

namespace capplan::cli {

namespace {

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
  if (a.gpus < 1 || a.gpus > 64) detail::fail("--gpus", std::to_string(a.gpus), "is outside 1 to 64 GPUs in one machine");
  q.gpus = a.gpus;
  q.task = a.task == "serve" ? SizingTask::serve : a.task == "finetune" ? SizingTask::finetune : SizingTask::train;
  if (a.task != "train" && a.task != "finetune" && a.task != "serve") detail::fail("--task", a.task, "is not train, finetune or serve");
  std::string model_text = "no model given";
  if (!a.model.empty()) {
    if (const auto cnn = cnn_model_arg(a.model)) {
      // An image model: the GPUs' own rate (perf/cnn.hpp, batch 256, no data pipeline) is what the host must feed.
      q.parameters = cnn->shape->parameters;
      const perf::Cluster c = perf::make_cluster(*q.gpu, q.gpus, q.gpus, perf::Link{});
      q.samples_per_second = perf::estimate_cnn_training(*cnn->shape, 256, c, Precision::bf16).gpu_bound_images_per_second;
      q.dataset = DataSize::from_value(static_cast<double>(imagenet_1k_train_images) * q.sample_size.value());
      model_text = cnn->id + " (" + cnn->shape->name + "), " + format_number(q.samples_per_second, 4) + " images/s on these GPUs, ImageNet-1k";
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
      const std::string what = e.what();
      detail::fail(flag, e.value(), what.substr(std::min(what.size(), e.field().size() + e.value().size() + 3)));
    }
  }();

  Result r;
  Table t;
  t.title = "The machine around " + std::to_string(q.gpus) + " x " + q.gpu->id + " to " + a.task + ": " + model_text;
  t.columns = {{"item", "Item", Align::left}, {"answer", "Answer", Align::left}};
  nlohmann::ordered_json items = nlohmann::ordered_json::array();
  for (const SizingLine& l : s.lines) {
    t.add_row({Cell::of_text(l.item), Cell::of_text(l.answer)});
    std::string sum;
    for (const auto& p : l.parts) sum += (sum.empty() ? "" : " + ") + p;
    t.notes.push_back(l.item + " = " + sum + ". Rule: " + l.rule + ".");
    nlohmann::ordered_json j = {{"item", l.item}, {"answer", l.answer}, {"value", l.value}, {"parts", l.parts}, {"rule", l.rule},
                                {"rules_of_thumb", nlohmann::ordered_json::array()}};
    for (const RuleOfThumb& k : l.rules_of_thumb) {
      t.notes.push_back("Rule of thumb, " + l.item + ": \"" + k.rule + "\" (" + k.source + ") gives " + k.gives + ": " + k.verdict + ".");
      j["rules_of_thumb"].push_back({{"rule", k.rule}, {"source", k.source}, {"gives", k.gives}, {"verdict", k.verdict}});
    }
    items.push_back(j);
    r.explanation.push_back(l.item + ": " + l.answer + " = " + sum);
  }
  for (const auto& n : s.assumptions) t.notes.push_back(n);
  t.notes.push_back("Power, PSU and the wall circuit of this machine: capplan power --gpu " + q.gpu->id + " --gpus " + std::to_string(q.gpus) +
                    (q.cpu ? " --cpu " + q.cpu->id : std::string(" --cpu ...")) + ".");
  r.json = nlohmann::ordered_json{{"gpu", q.gpu->id}, {"gpus", q.gpus}, {"task", a.task}, {"model", a.model.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(a.model)},
                                  {"ram_bytes", s.ram.value()}, {"ram_needed_bytes", s.ram_needed.value()}, {"cpu_cores", s.cpu_cores},
                                  {"storage_bytes", s.storage.value()}, {"storage_read_bytes_per_s", s.storage_read.value()},
                                  {"storage_write_bytes_per_s", s.storage_write.value()}, {"pcie_lanes", s.pcie_lanes},
                                  {"airflow_cfm", s.airflow_cfm}, {"items", items}, {"assumptions", t.notes}};
  r.tables.push_back(std::move(t));
  return r;
}

}  // namespace

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
  cmd->add_option("--cpu", a->cpu, "A CPU from the catalog to check cores and lanes against");
  cmd->add_option("--drives", a->drives, "NVMe drives (4 PCIe lanes each; default 1)");
  cmd->callback([a, &ctx] { write(run_size(*a, ctx), ctx); });
}

}  // namespace capplan::cli
