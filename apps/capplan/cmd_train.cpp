// capplan train and capplan infer: time, throughput, memory, energy, carbon and cost of one
// training run or one serving load on one GPU model (perf/training.hpp, perf/plan_search.hpp,
// perf/inference.hpp). Plan flags left out: the fastest plan that fits, from the plan search.
#include "args.hpp"
#include "commands.hpp"
#include "context.hpp"
#include "fit_hints.hpp"
#include "output.hpp"
#include "workload_args.hpp"

#include <capplan/hardware/catalog.hpp>
#include <capplan/memory/budget.hpp>
#include <capplan/memory/formats.hpp>
#include <capplan/memory/image_model.hpp>
#include <capplan/memory/solvers.hpp>
#include <capplan/money/format.hpp>
#include <capplan/perf/image_model.hpp>
#include <capplan/perf/fabric.hpp>
#include <capplan/power/carbon.hpp>
#include <capplan/plan/it_power.hpp>
#include <capplan/plan/run_footprint.hpp>
#include <capplan/plan/serving_report.hpp>
#include <capplan/plan/training_report.hpp>
#include <capplan/report/money_value.hpp>
#include <capplan/report/run_output.hpp>
#include <capplan/plan/serving_run.hpp>
#include <capplan/plan/training_run.hpp>
#include <capplan/units/count.hpp>
#include <capplan/units/format.hpp>
#include <capplan/workload/image_model.hpp>
#include <capplan/workload/parallel_plan.hpp>
#include <capplan/workload/params.hpp>

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

namespace capplan::cli {

namespace {

struct RunCostArgs {
  std::string price_per_gpu_hour;  // empty: the cheapest USD cloud offer for the GPU
  double pue = 1.0;
  double grid_g_per_kwh = 436;  // world 2022 (Ember)
  std::vector<std::string> fx;  // --fx CUR=RATE@DATE: offers in CUR join the cheapest, converted to USD
};

void add_run_cost_flags(CLI::App* cmd, RunCostArgs& a) {
  cmd->add_option("--price-per-gpu-hour", a.price_per_gpu_hour, "USD per GPU-hour (default: the catalog's cheapest cloud offer for the GPU among those that run the plan as timed: instances "
                  "that hold its node and, for a training run across nodes, a network between them as fast)");
  cmd->add_option("--pue", a.pue, "Power usage effectiveness (default 1.0)");
  cmd->add_option("--grid", a.grid_g_per_kwh, "Grid carbon intensity, g CO2e/kWh (default 436, world 2022, Ember)");
  cmd->add_option("--fx", a.fx,
                  "Exchange rate CUR=RATE@DATE (one USD in CUR, e.g. CNY=7.2@2026-11-01; repeatable): cloud offers in CUR join "
                  "the cheapest, converted to USD")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// "1 sequence", "1024 sequences".
std::string sequences_text(std::int64_t n) { return std::to_string(n) + (n == 1 ? " sequence" : " sequences"); }

// Beside a default batch that grew with the GPUs (default_batch_oversized): the same GPUs at the batch
// model-parallel replicas keep under twice ~4M tokens (model_parallel_batch), timed for the same
// tokens: a given plan itself where its steps divide that batch, else the plan search's best (under
// the flags that narrowed the search); or why nothing runs it.
std::string kept_batch_text(const TransformerShape& shape, const GpuSpec& g, double tokens, const TrainingRun& run, bool searched,
                            TrainingSetup setup) {
  const std::int64_t kept = model_parallel_batch(run.job.seq_len, run.gpus());
  if (kept >= run.job.global_batch) return {};
  setup.global_batch = kept;
  const std::string head = " Kept under twice ~4M tokens by model-parallel replicas: " + sequences_text(kept) + " (" +
                           format_number(static_cast<double>(kept * run.job.seq_len) / 1e6, 4) + "M tokens)";
  const std::string against = " of iterations against " + format(run.time_for_tokens(tokens), {.significant = 3}) + ".";
  const ParallelPlan& p = run.plan;
  const std::int64_t step = p.micro_batch * p.dp;
  if (!searched && kept % step == 0 && interleave_fits_microbatches(p, kept / step)) {
    const TrainingRun given = training_run(shape, g, p, setup);
    return head + ", this plan (--global-batch " + std::to_string(kept) + "): " + format(given.time_for_tokens(tokens), {.significant = 3}) + against;
  }
  const TrainingRunSearch s = best_training_run(shape, g, run.gpus(), setup);
  if (!s.run)
    return head + (s.candidates == 0 ? ": no layout of these GPUs has replicas that divide it." : ": no plan on these GPUs fits it in memory.");
  return head + ", the plan search's best (--global-batch " + std::to_string(kept) + "): " + plan_text(s.run->plan) + ", " +
         format(s.run->time_for_tokens(tokens), {.significant = 3}) + against;
}

void check_cost_args(const RunCostArgs& a) {
  pue_arg(a.pue, "--pue");
  grid_arg(a.grid_g_per_kwh, "--grid");
}

// The footprint's options: the flags' PUE and grid, the --price-per-gpu-hour price (else the
// cheapest USD offer for the GPU, found by plan/run_footprint.hpp).
// "no price: pass --price-per-gpu-hour", and the offers the catalog has but no rent could come from.
std::string no_price_text(const RunFootprint& f) {
  return "no price: pass --price-per-gpu-hour" + (f.no_price_why.empty() ? std::string() : " (offers left out: " + f.no_price_why + ")");
}

FootprintOptions footprint_options(const RunCostArgs& a) {
  FootprintOptions o;
  o.pue = a.pue;
  o.grid_g_per_kwh = a.grid_g_per_kwh;
  o.fx = usd_rates_arg(a.fx, "--fx");
  if (!a.price_per_gpu_hour.empty()) {
    o.price_from = "--price-per-gpu-hour";
    o.price_per_gpu_hour = in_currency(money_rate_arg(a.price_per_gpu_hour, Currency::USD, "--price-per-gpu-hour"), Currency::USD,
                                       "--price-per-gpu-hour", "costs are reported in USD; convert the price first");
  }
  return o;
}

Cell num_cell(std::string text, double v) { return Cell::of_number(std::move(text), v); }

// The catalog entries an answer rests on: the GPU, and the cloud offer its price came from.
std::vector<std::string> used_entries(const std::string& gpu, const RunFootprint& f) {
  std::vector<std::string> e{"gpu " + gpu};
  if (!f.price_offer.empty()) e.push_back("cloud offer " + f.price_offer);
  return e;
}

// The energy, carbon and cost rows of a training table.
void add_footprint_rows(Table& t, const RunFootprint& f) {
  if (f.kwh && f.co2_kg) {
    t.add_row({Cell::of_text("energy"), num_cell(format_number(*f.kwh, 4) + " kWh", *f.kwh),
               Cell::of_text(f.power.basis + " IT power, x PUE " + format_number(f.pue, 3))});
    t.add_row({Cell::of_text("carbon"), num_cell(format_number(*f.co2_kg, 4) + " kg CO2e", *f.co2_kg),
               Cell::of_text(format_number(f.grid_g_per_kwh, 4) + " g/kWh")});
  } else {
    t.add_row({Cell::of_text("energy"), Cell::empty(), Cell::of_text(f.power.basis)});
  }
  t.add_row({Cell::of_text("cost"),
             f.cost ? Cell::of_money(format(*f.cost), to_json_string(f.cost->rounded_to(2)), f.cost->amount().to_double()) : Cell::empty(),
             Cell::of_text(f.price ? format(*f.price) + " per GPU from " + f.price_from : no_price_text(f))});
  // A cheaper offer whose network between instances is slower than the run is timed on.
  if (!f.passed_over.empty()) t.notes.push_back("Rent: not the cheaper " + f.passed_over + " (bandwidth x efficiency).");
}

// An image model (CNN) run: epochs over a dataset, a batch per GPU, the host that feeds the GPUs.
struct ImageArgs {
  std::optional<double> epochs;
  std::string images;  // total images, instead of --epochs
  std::int64_t dataset_images = imagenet_1k_train_images;
  std::int64_t batch_per_gpu = 256;
  std::optional<int> cpu_cores;  // default 16 per GPU
  std::string storage = "nvme";
  int drives = 1;
  double decode_rate = 120;  // images per core-second (perf/data_loading.hpp)
};

struct TrainArgs {
  std::string model, gpu, tokens;
  PlanArgs plan;
  FinetuneArgs finetune;
  ImageArgs image;
  GivenFlags flags;  // to refuse the flags an image model does not take
  ClusterArgs cluster;
  GoodputArgs goodput;
  RunCostArgs cost;
  std::optional<double> mfu;
  bool allow_tight = false;
  std::string launch_time;  // --launch-time: host time per kernel launch (Framework::cpu_seconds_per_kernel)
  std::string moe_routed_time;  // --moe-routed-time (Framework::moe_seconds_per_routed_value)
  OverlapArgs overlap;  // --overlap-grad-reduce, --overlap-param-gather
};

// The whole run's InputError (plan/goodput.hpp names its fields) as an exit-2 error naming the flag
// the user typed: --failure-rate, --checkpoint-interval, or --storage-write where slow checkpoints
// are the cause.
[[noreturn]] void fail_as_goodput_flag(const InputError& e, const GoodputArgs& a) {
  if (e.field().rfind("--", 0) == 0) throw;  // a flag's own parser already named it (called in its catch block)
  const std::string flag = e.field() == "failures_per_gpu_hour" ? "--failure-rate"
                           : e.field() == "checkpoint_interval" ? "--checkpoint-interval"
                           : e.field() == "checkpoint_stall"    ? "--storage-write"  // the stall is the checkpoint over its write rate
                                                                : e.field();
  // Failures that outpace checkpoints because the checkpoints crawl: the storage rate given is the cause.
  if (const std::string what = e.what(); e.field() == "failures_per_gpu_hour" && !a.failure_rate && !a.storage_write.empty() &&
                                         what.find("the expected wall clock") != std::string::npos &&
                                         goodput_config(a).restart < Duration::from_value(3600))  // not a restart of hours or more
    detail::fail("--storage-write", a.storage_write, "is too slow for this run: " + what.substr(what.find("the expected wall clock")));
  if (e.field() == "checkpoint_stall" && !a.storage_write.empty()) {
    const std::string what = e.what();
    const auto cut = what.find("this run: ");
    if (cut == std::string::npos || e.value().find("inf") != std::string::npos)
      detail::fail("--storage-write", a.storage_write, "is too slow: a checkpoint would never finish");
    detail::fail("--storage-write", a.storage_write, "is too slow for this run: checkpoints of " + e.value() + " each; " + what.substr(cut + 10));
  }
  fail_as_flag(flag, e.value(), e);
}

// The table's whole-run rows: the expected wall clock (goodput, failures, checkpoints) and GPU-hours.
void add_goodput_rows(Table& t, const GoodputEstimate& gp) {
  std::string how = "goodput " + format_number(100 * gp.goodput, 4) + "%: ";
  if (gp.job_mtbf) {
    how += format_number(gp.expected_failures, 3) + " failures expected (job MTBF " + format(*gp.job_mtbf, {.significant = 3}) + "), ";
  } else {
    how += "no failures, ";
  }
  // The interval in whole iterations, where the iteration time was given (what a framework's save
  // interval is set in: Megatron-LM's --save-interval).
  const std::string every = gp.interval_iterations > 0 ? ", " + explain_text::number(gp.interval_iterations, 16) +
                                                            (gp.interval_iterations == 1 ? " iteration" : " iterations")
                                                      : std::string();
  how += "checkpoints of " + bytes_text(gp.checkpoint) + " every " + format(gp.checkpoint_interval, {.significant = 3}) + every +
         " (stalling " + format(gp.checkpoint_stall, {.significant = 3}) + " each)";
  t.add_row({Cell::of_text("expected wall clock"), num_cell(format(gp.expected_wall_clock, {.significant = 3}), gp.expected_wall_clock.value()),
             Cell::of_text(how)});
  t.add_row({Cell::of_text("expected GPU-hours"), num_cell(format_number(gp.expected_gpu_hours, 4), gp.expected_gpu_hours),
             Cell::of_text("with failures, restarts and checkpoints (plan/goodput.hpp)")});
}

// What the footprint rows are billed over.
std::string wall_clock_note(const GoodputEstimate& gp) {
  return "Energy, carbon and cost are over the expected wall clock (" + format(gp.expected_wall_clock, {.significant = 4}) +
         ": the iterations with failures, restarts, redone work and checkpoints), what the GPUs are held and billed for.";
}

// --explain's whole-run lines.
void add_goodput_explanation(std::vector<std::string>& out, const GoodputEstimate& gp) {
  out.push_back("whole run " + format(gp.expected_wall_clock, {.significant = 4}) + " (goodput " + format_number(100 * gp.goodput, 4) + " %):");
  for (const auto& line : gp.explanation) out.push_back("  " + line);
  for (const auto& line : gp.assumptions) out.push_back("  assumes: " + line);
}

// capplan train for an image model: data-parallel SGD over the GPUs (perf/image_model.hpp), the host's data
// pipeline checked against what the GPUs consume (perf/data_loading.hpp).
Result run_train_image(const TrainArgs& a, const ImageModelArg& m, const Context& ctx) {
  const ImageModel& net = m.shape;
  const std::string& id = m.id;
  // The transformer's flags have no meaning here: say so instead of ignoring them.
  {
    const std::string why = "describes a transformer run; " + id + " is an image model (--epochs, --batch-per-gpu)";
    a.flags.refuse(language_training_flags, why);
    a.flags.refuse({"--tp", "--pp", "--launch-time"}, why);
  }
  const ImageArgs& c = a.image;
  const GpuSpec g = with_slot_lanes(gpu_with_usable_memory(ctx.catalog().find_gpu(a.gpu), a.plan.usable_memory), a.cluster);
  if (!a.plan.gpus) detail::fail("--gpus", "\"\"", "is required: how many GPUs train");
  const int gpus = positive_flag(a.plan.gpus, 1, "--gpus");
  if (gpus > 65536) detail::fail("--gpus", std::to_string(gpus), "is more than 65,536 GPUs");
  if (c.batch_per_gpu < 1 || c.batch_per_gpu > 65536) detail::fail("--batch-per-gpu", std::to_string(c.batch_per_gpu), "is outside 1 to 65,536");
  if (c.dataset_images < 1 || static_cast<double>(c.dataset_images) > max_input_count)
    detail::fail("--dataset-images", std::to_string(c.dataset_images), "must be a count from 1 to 1e18");
  double images = 0;
  std::string images_text;
  if (!c.images.empty()) {
    if (c.epochs) detail::fail("--images", c.images, "and --epochs both set the run's length; give one of them");
    images = count_arg(c.images, "--images");
    images_text = count_text(images) + " images";
  } else {
    if (!c.epochs) detail::fail("--epochs", "\"\"", "is required for an image model (or --images): passes over the dataset");
    if (!(*c.epochs > 0 && *c.epochs <= 100000)) detail::fail("--epochs", detail::format_double(*c.epochs), "is outside (0, 100000]");
    images = *c.epochs * static_cast<double>(c.dataset_images);
    images_text = format_number(*c.epochs, 6) + " epochs x " + count_text(static_cast<double>(c.dataset_images)) + " images";
  }
  // A run is whole iterations (image_training_report refuses less; here with the flag that set it).
  if (const double per_iteration = static_cast<double>(c.batch_per_gpu) * gpus; images < per_iteration)
    detail::fail(c.images.empty() ? "--epochs" : "--images", c.images.empty() ? format_number(*c.epochs, 6) : c.images,
                 "gives " + count_text(images) + " images, less than one iteration (" + std::to_string(gpus) + " GPUs x " +
                     std::to_string(c.batch_per_gpu) + " per GPU = " + count_text(per_iteration) + "); train on more images or a smaller --batch-per-gpu");
  const int cores = c.cpu_cores ? positive_flag(c.cpu_cores, 1, "--cpu-cores") : 16 * gpus;
  if (cores > (1 << 20)) detail::fail("--cpu-cores", std::to_string(cores), "is more than 1,048,576");
  if (c.drives < 1 || c.drives > 1024) detail::fail("--drives", std::to_string(c.drives), "is outside 1 to 1024");
  if (!(c.decode_rate > 0 && c.decode_rate <= 1e5))
    detail::fail("--decode-rate", detail::format_double(c.decode_rate), "is outside (0, 100000] images per core-second");
  perf::DataPipeline host;
  if (c.storage == "hdd") host.storage = perf::hdd_7200rpm();
  else if (c.storage == "ram") host.cached_in_ram = true;
  else if (c.storage != "nvme") detail::fail("--storage", c.storage, "is not nvme, hdd or ram");
  host.drives = c.drives;
  host.cpu_cores = cores;
  host.samples_per_core_second = c.decode_rate;
  // The cluster as for a transformer run: nodes of --gpus-per-node, the usual fabric of the GPU between them.
  const int per_node = std::min(gpus_per_node_arg(a.cluster, g), gpus);
  const std::optional<perf::Fabric> given_fabric = fabric_arg(a.cluster);
  const perf::Fabric fabric = given_fabric ? *given_fabric : perf::usual_fabric(g);
  if (gpus > per_node && fabric.none())
    detail::fail("--gpus", std::to_string(gpus),
                 "needs several nodes, and " + g.id + " hosts have no network by default; choose --fabric (" + perf::fabric_ids() + ")");
  const perf::Cluster cluster =
      perf::make_cluster(g, gpus, per_node, fabric.none() ? perf::Link{} : fabric.link(per_node), pcie_host_arg(a.cluster),
                         p2p_arg(a.cluster), host_memory_arg(a.cluster));
  const Precision asked = precision_arg(a.plan.precision);
  // PyTorch AMP (fp16 or bf16) or fp32, as compare and memory take them: no FP8 recipe for image models.
  if (asked != Precision::bf16 && asked != Precision::fp16 && asked != Precision::fp32)
    detail::fail("--precision", a.plan.precision, "is not one an image model trains at here (bf16 or fp16 with AMP, fp32)");
  const auto prec = detail::usable_precision(g, asked);
  if (!prec) detail::fail("--gpu", g.id, "has no dense " + std::string(name(asked)) + ", FP16 or FP32 rate in the catalog");
  const ImageTrainingReport rep = [&] {
    try {
      return image_training_report(ctx.catalog(), id, net, cluster, c.batch_per_gpu, *prec, host, images, goodput_config(a.goodput),
                                   footprint_options(a.cost));
    } catch (const InputError& e) {
      // The whole run's fields are the flags' (the images and the host were checked above).
      if (e.field() != "failures_per_gpu_hour" && e.field() != "checkpoint_interval" && e.field() != "checkpoint_stall") throw;
      fail_as_goodput_flag(e, a.goodput);
    }
  }();
  const perf::ImageTrainingEstimate& est = rep.estimate;
  const Duration time = rep.time;
  const double gpu_hours = rep.gpu_hours;
  const double flops_total = rep.flops_total;
  const double peak = perf::peak_rate(g, *prec).value();
  const perf::DataLoadingCheck& dl = *est.data_loading;
  const std::string bottleneck = dl.ok() ? "the GPUs (the host keeps up)" : dl.bottleneck() == "CPU" ? "CPU decoding" : "storage";

  Result r;
  Table t;
  t.title = "Training " + id + " (" + net.name + ") on " + images_text + " with " + std::to_string(gpus) + " x " + g.id;
  t.columns = {{"item", "Item", Align::left}, {"value", "Value", Align::right}, {"detail", "How", Align::left}};
  t.add_row({Cell::of_text("plan"), Cell::of_text("data parallel"),
             Cell::of_text(std::to_string(c.batch_per_gpu) + " images per GPU, " + std::to_string(c.batch_per_gpu * gpus) + " per iteration, " +
                           std::string(name(*prec)) + ", SGD with momentum")});
  t.add_row({Cell::of_text("throughput"), num_cell(format_number(est.images_per_second, 4) + " images/s", est.images_per_second),
             Cell::of_text("bottleneck: " + bottleneck)});
  t.add_row({Cell::of_text("GPUs alone"), num_cell(format_number(est.gpu_bound_images_per_second, 4) + " images/s", est.gpu_bound_images_per_second),
             Cell::of_text("if the data pipeline kept up")});
  t.add_row({Cell::of_text("data pipeline"), num_cell(format_number(dl.limit(), 4) + " images/s", dl.limit()),
             Cell::of_text("storage " + format_number(dl.storage_limit, 4) + ", CPUs " + format_number(dl.cpu_limit, 4) + " (" + std::to_string(cores) +
                           " cores x " + format_number(c.decode_rate, 4) + " images/s)")});
  t.add_row({Cell::of_text("time"), num_cell(format(time, {.significant = 3}), time.value()), Cell::of_text(images_text)});
  t.add_row({Cell::of_text("iteration"), num_cell(format(est.iteration, {.significant = 4}), est.iteration.value()), Cell::of_text("")});
  t.add_row({Cell::of_text("GPU-hours"), num_cell(format_number(gpu_hours, 4), gpu_hours), Cell::of_text("iterations only")});
  add_goodput_rows(t, rep.goodput);
  t.add_row({Cell::of_text("achieved per GPU"), num_cell(format(est.achieved_per_gpu, {.significant = 4}), est.achieved_per_gpu.value()),
             Cell::of_text(format_number(100 * est.achieved_per_gpu.value() / peak, 3) + "% of the dense " + std::string(name(*prec)) +
                           " peak, while the GPUs compute")});
  t.add_row({Cell::of_text("FLOPs"), num_cell(format_number(flops_total, 4), flops_total),
             Cell::of_text(format_number(est.flops_per_image.value() / 1e9, 4) + " GFLOP per image (forward + backward)")});
  // The batch's memory per GPU (memory/image_model.hpp), as capplan memory sizes it: AMP keeps fp32 states.
  const MemoryBudget& mem = rep.memory;
  const FitResult& mem_fit = rep.fit;
  t.add_row({Cell::of_text("memory per GPU"), num_cell(bytes_text(mem.total()), mem.total().value()),
             Cell::of_text(format_number(100 * mem.total().value() / g.capacity().value(), 3) + "% of " + bytes_text(g.capacity()) +
                           (mem_fit.fits ? std::string(mem_fit.tight ? ": tight" : "") : std::string(": does not fit")) + " (capplan memory)")});
  add_footprint_rows(t, rep.footprint);
  if (!mem_fit.fits)
    t.notes.push_back("Does not fit: " + std::to_string(c.batch_per_gpu) + " images per GPU need " + bytes_text(mem.total()) + " of " +
                      bytes_text(g.capacity()) + "; at most " + std::to_string(rep.max_batch_per_gpu) +
                      " fit (--batch-per-gpu; capplan memory shows the budget).");
  t.notes.push_back(wall_clock_note(rep.goodput));
  t.notes.push_back("Model: " + net.name + " (" + net.kind() + ", " + count_text(net.parameters) + " parameters, " +
                    format_number(net.forward_flops_per_sample() / 1e9, 4) + " GFLOP forward per " + net.image + " image; " +
                    (m.source.rfind("model ", 0) == 0 ? m.source : m.read_as + "workload/image_model.hpp") +
                    ").");
  t.notes.push_back("Host: " + std::to_string(cores) + " CPU cores" + (c.cpu_cores ? "" : " (16 per GPU, capplan's default; --cpu-cores)") +
                    " decoding JPEG at " + format_number(c.decode_rate, 4) + " images/s each (--decode-rate; DALI decodes on the GPU instead); " +
                    (host.cached_in_ram ? "the dataset in page cache" : std::to_string(c.drives) + " x " + host.storage.name) + " (--storage, --drives).");
  if (std::string pcie = pcie_note(cluster, !a.cluster.pcie_host.empty(), !a.cluster.host_memory.empty()); !pcie.empty()) t.notes.push_back(std::move(pcie));
  for (const auto& s : est.breakdown.assumptions) t.notes.push_back(s);
  if (g.tdp.value() > 0)  // no power figure: no allowance to state; the server host the run was timed on
    t.notes.push_back(host_allowance_note(for_pcie_host({}, cluster.pcie_host), g.form_factor == FormFactor::soc));
  const nlohmann::ordered_json warnings = entry_warnings(ctx, used_entries(g.id, rep.footprint), t.notes, false);
  r.tables.push_back(t);

  r.json = to_json(image_training_output(rep, t.notes));
  r.json["warnings"] = warnings;
  r.explanation = lines_of(est.breakdown.text());
  add_goodput_explanation(r.explanation, rep.goodput);
  return r;
}

Result run_train(const TrainArgs& a, const Context& ctx) {
  check_cost_args(a.cost);
  if (auto image = image_model_arg(a.model)) {
    refuse_diffusion_training(*image);
    apply_image_attention_flag(*image, a.plan.flash_attention, a.flags);
    return run_train_image(a, *image, ctx);
  }
  a.flags.refuse(image_training_flags, "describes an image model's run; a transformer trains on --tokens");
  if (a.tokens.empty()) detail::fail("--tokens", "\"\"", "is required: how many tokens to train on (e.g. 1e9)");
  const ModelArg m = model_arg(a.model);
  const GpuSpec g = with_slot_lanes(gpu_with_usable_memory(ctx.catalog().find_gpu(a.gpu), a.plan.usable_memory), a.cluster);
  const double tokens = count_arg(a.tokens, "--tokens");
  if (!a.plan.gpus) detail::fail("--gpus", "\"\"", "is required: how many GPUs train");
  const int gpus = positive_flag(a.plan.gpus, 1, "--gpus");
  if (a.mfu && !(*a.mfu > 0 && *a.mfu <= 1)) detail::fail("--mfu", detail::format_double(*a.mfu), "is outside (0, 1]");

  // The job as plan/training_run.hpp sets it up, so `capplan compare` times the same run.
  TrainingSetup setup;
  setup.seq_len = training_seq_len(a.plan.seq_len, m);
  setup.framework = framework_arg(a.plan.framework, a.plan.attention_kernel, a.plan.grad_reduce);
  setup.framework.flash_attention = a.plan.flash_attention;
  if (a.flags.has("--launch-time")) setup.framework.cpu_seconds_per_kernel = launch_time_arg(a.launch_time);
  if (a.flags.has("--moe-routed-time")) setup.framework.moe_seconds_per_routed_value = moe_routed_time_arg(a.moe_routed_time, m.shape);
  apply_overlap_args(a.overlap, setup.framework, m.shape, a.plan.framework, a.plan.recompute);
  setup.framework.moe_capacity_factor = moe_capacity_arg(a.plan.moe_capacity_factor, m.shape);
  setup.framework.moe_dispatch = moe_dispatch_arg(a.plan.moe_dispatch, m.shape);
  if (setup.framework.attention_kernel == perf::AttentionKernel::flash3 && !perf::runs_flash_attention_3(g))
    detail::fail("--attention-kernel", "\"flash3\"", "runs on Hopper GPUs (H100, H200, H800) only, not on " + g.id + "; use flash2 or cudnn");
  if (!a.plan.flash_attention && !a.plan.attention_kernel.empty())
    detail::fail("--attention-kernel", "\"" + a.plan.attention_kernel + "\"", "needs --flash-attention (a fused kernel); --no-flash-attention runs none");
  std::tie(setup.finetune, setup.lora) = finetune_arg(a.finetune);
  const std::string tuning = finetune_text(setup.finetune, setup.lora, m.shape);
  if (a.plan.global_batch) {
    if (*a.plan.global_batch < 1) detail::fail("--global-batch", std::to_string(*a.plan.global_batch), "must be a positive count");
    setup.global_batch = *a.plan.global_batch;
  }
  setup.precision = precision_arg(a.plan.precision);
  check_grad_reduce(a.plan.grad_reduce, setup.framework, setup.precision);
  setup.fp8_recipe = fp8_recipe_arg(a.plan.fp8_recipe, setup.precision);
  if (setup.finetune == FineTune::qlora && setup.precision != Precision::bf16 && setup.precision != Precision::fp16)
    detail::fail("--precision", a.plan.precision, "does not go with --finetune qlora, which computes in bf16 (or fp16) on dequantized NF4 weights");
  // train times mixed-precision Adam (its step and its memory); capplan memory sizes the others.
  if (a.plan.optimizer && optimizer_arg(*a.plan.optimizer) != Optimizer::adam) {
    detail::fail("--optimizer", *a.plan.optimizer, "is not timed by train, which models mixed-precision Adam; capplan memory --optimizer sizes it");
  }
  if (a.mfu) setup.measured_mfu = *a.mfu;
  // Multi-token prediction: --mtp-layers, or the MTP layers a pipeline layout places ("m"); both must agree.
  setup.mtp_layers = mtp_layers_of(a.plan, m);
  setup.space.allow_tight = a.allow_tight;
  setup.gpus_per_node = gpus_per_node_arg(a.cluster, g);
  setup.fabric = fabric_arg(a.cluster);
  setup.pcie_host = pcie_host_arg(a.cluster);
  setup.p2p = p2p_arg(a.cluster);
  setup.host_memory_bandwidth = host_memory_arg(a.cluster);
  perf::require_p2p_modelled(g, setup.p2p, gpus);  // the plan search would keep NCCL's default there (training_run.hpp)
  std::string precision_note;
  const auto [job, cluster] = training_job(m.shape, g, gpus, setup, &precision_note);
  const std::int64_t gb = job.global_batch;
  // A run is whole iterations: fewer tokens than one global batch would time a fraction of one.
  if (const double per_iteration = static_cast<double>(gb) * static_cast<double>(job.seq_len); tokens < per_iteration) {
    detail::fail("--tokens", a.tokens,
                 "is less than one iteration (global batch " + std::to_string(gb) + " x " + std::to_string(job.seq_len) +
                     " tokens = " + count_text(per_iteration) + "); pass more tokens or a smaller --global-batch");
  }
  const perf::Framework& fw = setup.framework;
  const bool searched = !a.plan.tp && !a.plan.pp && !a.plan.dp && !a.plan.ep && !a.plan.cp && !a.plan.interleave && !a.plan.first_stage_layers &&
                        !a.plan.last_stage_layers && !a.plan.pipeline_layout && a.plan.offload_layers.value_or(0) == 0;
  std::optional<TrainingRun> run;
  std::string search_text;
  if (searched) {
    // Plan flags given without a plan narrow the search, as in capplan compare.
    if (a.plan.micro_batch) {
      if (*a.plan.micro_batch < 1) detail::fail("--micro-batch", std::to_string(*a.plan.micro_batch), "must be a positive count");
      setup.space.micro_batches = {*a.plan.micro_batch};
    }
    if (a.plan.zero) setup.space.zero_stages = {static_cast<ZeroStage>(*a.plan.zero)};
    narrow_recompute(setup.space.recompute, setup.space.recompute_modules, setup.space.recompute_module_lists, a.plan.recompute, a.plan.recompute_modules, m.shape, fw.eager);
    if (a.plan.offload_layers) setup.space.offload = false;  // --offload-layers 0: search without offloading
    if (a.plan.sequence_parallel) {
      detail::fail("--sequence-parallel", "true", "goes with a given plan (--tp ...); the search already tries it with every TP > 1");
    }
    narrow_plan_search(setup.space.expert_tensor_parallel, setup.space.cp_comms, a.plan.etp, a.plan.cp_comm, m.shape);
    const TrainingRunSearch sr = best_training_run(m.shape, g, gpus, setup);
    if (!sr.run && sr.candidates == 0 && a.plan.etp)  // no layout at all, not a memory problem
      detail::fail("--etp", std::to_string(*a.plan.etp),
                   "gives no plan on " + std::to_string(gpus) + " GPUs: ETP x EP must divide TP x CP x DP, and ETP must divide a node's " +
                       std::to_string(setup.gpus_per_node > 0 ? setup.gpus_per_node : perf::usual_gpus_per_node(g)) +
                       " GPUs unless it spans them all");
    if (!sr.run) {
      // A frugal layout of these GPUs the search tried: all data parallel under ZeRO-3 with full
      // recomputation, one sequence per micro-batch (without context parallelism, which the search
      // also tries from 8,192 tokens); what would make it (or another) fit.
      TrainingConfig frugal;
      frugal.plan.dp = gpus;
      frugal.plan.zero_stage = gpus > 1 ? ZeroStage::parameters : ZeroStage::none;
      frugal.plan.recompute = Recompute::full;
      frugal.mtp_layers = setup.mtp_layers;
      frugal.seq_len = job.seq_len;
      frugal.microbatches = std::max<std::int64_t>(1, job.global_batch / gpus);
      perf::apply_framework(frugal, fw);
      perf::apply_precision(frugal, fw, job.precision, job.fp8_recipe);
      frugal.finetune = setup.finetune;
      frugal.lora = setup.lora;
      const MemoryBudget least = training_budget(m.shape, frugal);
      Result r;
      Table t;
      t.title = "Training " + m.id + " on " + std::to_string(gpus) + " x " + g.id + ": no plan fits in memory";
      t.columns = {{"item", "Item", Align::left}, {"value", "Value", Align::right}};
      t.add_row({Cell::of_text("plans timed"), Cell::of_number(std::to_string(sr.candidates), static_cast<double>(sr.candidates))});
      t.add_row({Cell::of_text("rejected for memory"), Cell::of_number(std::to_string(sr.rejected_for_memory), static_cast<double>(sr.rejected_for_memory))});
      t.add_row({Cell::of_text(std::string(gpus > 1 ? "ZeRO-3, " : "") + "full recompute, micro-batch 1"),
                 Cell::of_number(bytes_text(least.total()) + " per GPU", least.total().value())});
      t.add_row({Cell::of_text("GPU memory"), Cell::of_number(bytes_text(g.capacity()), g.capacity().value())});
      const std::vector<std::string> hints = training_fit_hints(m, frugal, g, ctx.catalog());
      for (const auto& h : hints) t.notes.push_back("Would fit? " + h + ".");
      t.notes.push_back(seq_len_note(a.plan.seq_len, m));
      if (!tuning.empty()) t.notes.push_back(tuning + ".");
      t.notes.push_back("Plans whose fit is tight are skipped unless --allow-tight; capplan memory --model " + m.id + " --gpu " + g.id +
                        " shows any plan's breakdown.");
      const nlohmann::ordered_json warnings = entry_warnings(ctx, {"gpu " + g.id}, t.notes, false);
      r.tables.push_back(t);
      r.json = to_json(training_no_fit_output(m.id, g.id, gpus, least.total(), hints));
      r.json["warnings"] = warnings;
      return r;
    }
    run = *sr.run;
    search_text = sr.explanation();
  } else {
    const TrainingConfig tc = training_config(a.plan, m);
    if (tc.plan.gpus() != gpus) {
      detail::fail("--gpus", std::to_string(gpus), std::string("is not TP x ") + (tc.plan.cp > 1 ? "CP x " : "") + "PP x DP = " + std::to_string(tc.plan.gpus()));
    }
    const ParallelPlan& plan = tc.plan;
    check_tp_in_node(a.cluster, plan.tp, setup.gpus_per_node, gpus);
    if (job.global_batch % (plan.micro_batch * plan.dp) != 0) {
      detail::fail("--global-batch", std::to_string(job.global_batch),
                   "is not a multiple of micro-batch x DP = " + std::to_string(plan.micro_batch * plan.dp));
    }
    run = training_run(m.shape, g, plan, setup);
  }
  // The whole run: failures, restarts, lost work and checkpoints on top of the iterations; what it
  // draws, emits and costs (plan/training_report.hpp).
  const TrainingReport rep = [&] {
    try {
      return training_report(ctx.catalog(), m.id, g, tokens, *run, searched, setup, goodput_config(a.goodput), footprint_options(a.cost));
    } catch (const InputError& e) {
      fail_as_goodput_flag(e, a.goodput);
    }
  }();
  const ParallelPlan& plan = rep.run.plan;
  // The overlap flags where the plan has nothing for them to change: refused for a plan the user set,
  // said in a note for one the search chose.
  std::vector<std::string> overlap_notes;
  if (a.flags.has("--overlap-param-gather") && plan.zero_stage == ZeroStage::none) {
    if (!searched || a.plan.zero)
      detail::fail("--overlap-param-gather", a.overlap.param_gather, "applies with --zero 1, 2 or 3: without ZeRO no weights are gathered");
    overlap_notes.push_back("--overlap-param-gather: the plan found keeps whole weights on every GPU (ZeRO 0), so no weights are gathered.");
  } else if (a.flags.has("--overlap-param-gather") && plan.dp * plan.cp == 1) {
    if (!searched)
      detail::fail("--overlap-param-gather", a.overlap.param_gather, "applies with data parallelism (DP x CP > 1): with one replica nothing is gathered");
    overlap_notes.push_back("--overlap-param-gather: the plan found has no data parallelism, so no weights are gathered.");
  }
  // --cp-comm narrows the search to one exchange for the plans with context parallelism; the one found may have none.
  if (searched && a.plan.cp_comm && plan.cp == 1) {
    const perf::SearchSpace& sp = setup.space;
    const std::string why = job.seq_len < sp.min_cp_seq ? "the search tries it from " + std::to_string(sp.min_cp_seq) + "-token sequences; these have " +
                                                               std::to_string(job.seq_len)
                            : !fw.flash_attention ? std::string("it needs FlashAttention")
                            : m.shape.mla          ? std::string("it is not modelled with latent attention")
                            : sp.cp_degrees(job.seq_len, fw.flash_attention, m.shape).size() == 1
                                ? "no degree splits " + std::to_string(job.seq_len) + " tokens into 2 x CP equal chunks of at least " +
                                      std::to_string(sp.min_cp_tokens) + " tokens a rank"
                                : std::string("the plans with it were slower or did not fit");
    overlap_notes.push_back("--cp-comm: the plan found has no context parallelism, so no K/V is exchanged (" + why + ").");
  }
  if (a.flags.has("--overlap-grad-reduce") && plan.dp * plan.cp == 1) {
    if (!searched) detail::fail("--overlap-grad-reduce", a.overlap.grad_reduce, "applies with data parallelism (DP x CP > 1): no gradients are reduced");
    overlap_notes.push_back("--overlap-grad-reduce: the plan found has no data parallelism, so no gradients are reduced.");
  }
  if (fw.moe_a2a_overlap && a.flags.has("--moe-a2a-overlap")) {
    if (const std::string_view why = capplan::moe_a2a_overlap_blocker(plan); !why.empty()) {
      if (!searched) detail::fail("--moe-a2a-overlap", "\"" + a.overlap.moe_a2a + "\"", "does not apply to this plan: " + std::string(why));
      overlap_notes.push_back("--moe-a2a-overlap: the plan found does not run it (" + std::string(why) + ").");
    }
  }
  const perf::TrainingEstimate& est = rep.run.estimate;
  const MemoryBudget& mem = rep.run.memory;
  const FitResult& fit = rep.fit;
  const Duration time = rep.time;
  const double gpu_hours = rep.gpu_hours;
  const GoodputEstimate& gp = rep.goodput;
  const double achieved = est.model_rate_per_gpu.value();
  const double flops_total = rep.flops_total;
  const RunFootprint& foot = rep.footprint;

  const perf::Fabric& fabric = rep.run.fabric;
  const perf::PlanLinks& links = rep.links;
  std::string links_text;
  for (const auto& [what, link] : {std::pair{"TP", links.tp}, std::pair{"CP", links.cp}, std::pair{"PP", links.pp}, std::pair{"DP", links.dp},
                                   std::pair{"EP", links.ep}}) {
    if (!link.empty()) links_text += (links_text.empty() ? "" : "; ") + std::string(what) + " over " + link;
  }

  Result r;
  Table t;
  t.title = "Training " + m.id + " on " + count_text(tokens) + " tokens with " + std::to_string(gpus) + " x " + g.id;
  t.columns = {{"item", "Item", Align::left}, {"value", "Value", Align::right}, {"detail", "How", Align::left}};
  const std::string plan_line =
      plan_text(plan) + (plan.pp > 1 ? ", stages of " + stage_layout_text(m.shape.layers, plan) + " layers" : "");
  t.add_row({Cell::of_text("plan"), Cell::of_text(searched ? "searched" : "given"), Cell::of_text(plan_line)});
  if (!links_text.empty()) t.add_row({Cell::of_text("links"), Cell::of_text(""), Cell::of_text(links_text)});
  t.add_row({Cell::of_text("time"), num_cell(format(time, {.significant = 3}), time.value()),
             Cell::of_text(std::to_string(gb) + " sequences x " + std::to_string(job.seq_len) + " tokens per iteration")});
  t.add_row({Cell::of_text("iteration"), num_cell(format(est.iteration, {.significant = 4}), est.iteration.value()),
             Cell::of_text(format_number(est.tokens_per_second, 4) + " tokens/s, " + format_number(est.tokens_per_second / gpus, 4) +
                           " per GPU")});
  t.add_row({Cell::of_text("GPU-hours"), num_cell(format_number(gpu_hours, 4), gpu_hours), Cell::of_text("iterations only")});
  add_goodput_rows(t, gp);
  t.add_row({Cell::of_text("achieved per GPU"), num_cell(format(est.model_rate_per_gpu, {.significant = 4}), achieved),
             Cell::of_text("MFU " + format_number(100 * est.mfu, 3) + "%, HFU " + format_number(100 * est.hfu, 3) + "%" +
                           (a.mfu ? " (MFU given)" : ""))});
  t.add_row({Cell::of_text("FLOPs"), num_cell(format_number(flops_total, 4), flops_total), Cell::of_text("model FLOPs, all GPUs")});
  t.add_row({Cell::of_text("memory per GPU"), num_cell(bytes_text(mem.total()), mem.total().value()),
             Cell::of_text(fit_text(fit, g.capacity()))});
  add_footprint_rows(t, foot);
  t.notes.push_back(wall_clock_note(gp));
  t.notes.push_back("Model: " + m.id + " (" + count_text(static_cast<double>(parameter_count(m.shape))) + " parameters; " + m.source + ").");
  for (std::string& n : overlap_notes) t.notes.push_back(std::move(n));
  if (std::string w = window_note(m.shape); !w.empty()) t.notes.push_back(std::move(w));
  t.notes.push_back(seq_len_note(a.plan.seq_len, m));
  // A default batch that grew with the GPUs past twice the ~4M tokens (default_batch_oversized).
  if (!a.plan.global_batch && default_batch_oversized(run->job.seq_len, run->gpus()))
    t.notes.push_back("Global batch: " + std::to_string(run->job.global_batch) + " sequences (" +
                      format_number(static_cast<double>(run->job.global_batch * run->job.seq_len) / 1e6, 4) +
                      "M tokens), one or more a GPU: the default of about 4M tokens (" + sequences_text(default_batch_sequences(run->job.seq_len)) +
                      ") rounded up to a multiple of the " + std::to_string(run->gpus()) +
                      " GPUs: fewer, larger steps than 4M-token ones, which a run of these tokens may not converge in as it would at 4M "
                      "(critical batch size: McCandlish et al. 2018); large runs keep their batch and go model-parallel (Llama 3 "
                      "405B: 16M tokens on 16,384 GPUs): --global-batch sets it." + kept_batch_text(m.shape, g, tokens, *run, searched, setup));
  for (std::string& s : pipeline_layout_notes(a.plan, m)) t.notes.push_back(std::move(s));
  if (run->job.mtp_layers > 0) t.notes.push_back(mtp_note(run->job.mtp_layers, m.shape));
  if (!tuning.empty()) t.notes.push_back(tuning + "; the checkpoints hold the adapters only.");
  if (std::string n = qlora_recompute_note(setup.finetune, run->plan.recompute, a.plan.recompute || a.plan.recompute_modules); !n.empty())
    t.notes.push_back(std::move(n));
  if (!fw.flash_attention) t.notes.push_back("No FlashAttention (--no-flash-attention): attention scores materialized and kept.");
  t.notes.push_back("Cluster: " + std::to_string(cluster.nodes()) + " node(s) of " + std::to_string(cluster.gpus_per_node) + " GPUs" +
                    (cluster.nodes() > 1 ? "; between nodes " + fabric.describe(cluster.gpus_per_node) +
                                               (setup.fabric ? "" : ", assumed for " + g.id + " hosts (--fabric to change)")
                                         : "") +
                    "; framework: " + fw.name + ".");
  if (std::string pcie = pcie_note(cluster, !a.cluster.pcie_host.empty(), !a.cluster.host_memory.empty()); !pcie.empty()) t.notes.push_back(std::move(pcie));
  if (!precision_note.empty()) t.notes.push_back(precision_note + ".");
  if (job.precision == Precision::fp8 || job.precision == Precision::fp4)
    t.notes.push_back(perf::quantization_note(job.precision, job.fp8_recipe, perf::quant_hardware(g)));
  if (g.tdp.value() > 0)  // no power figure: no allowance to state; the server host the run was timed on
    t.notes.push_back(host_allowance_note(for_pcie_host({}, cluster.pcie_host), g.form_factor == FormFactor::soc));
  for (const auto& s : est.breakdown.assumptions) t.notes.push_back(s);
  const nlohmann::ordered_json warnings = entry_warnings(ctx, used_entries(g.id, foot), t.notes, false);
  r.tables.push_back(t);

  r.json = to_json(training_output(rep, t.notes));
  r.json["warnings"] = warnings;
  r.explanation = lines_of(est.explain());
  add_goodput_explanation(r.explanation, gp);
  if (!search_text.empty()) {
    auto more = lines_of(search_text);
    r.explanation.insert(r.explanation.begin(), more.begin(), more.begin() + 1);
  }
  return r;
}

struct InferArgs {
  std::string model, gpu;
  PlanArgs plan;
  ClusterArgs cluster;  // --pcie-host, --p2p, --pcie-lanes, --fabric, --gpus-per-node
  RunCostArgs cost;
  std::int64_t prompt = 512, output = 128;
  bool fused_kernels = false;  // image models: batch norm folded, ReLU fused (TensorRT, torch.compile)
  int steps = 50;              // diffusion UNets: denoising steps per image (diffusers' default for SD 1.5 and SDXL)
  std::string resolution;      // diffusion UNets: WIDTHxHEIGHT of the image (default: the model's own)
  bool guidance = true;        // diffusion UNets: classifier-free guidance, two UNet samples per image and step
  bool vae_slicing = false;    // diffusion UNets: decode one image at a time (diffusers' enable_vae_slicing)
  bool vae_tiling = false;     // diffusion UNets: decode in overlapping tiles (diffusers' enable_vae_tiling)
  std::string weight_stream_latency;  // --weight-stream-latency (perf::EfficiencyModel::weight_stream_latency)
  std::string launch_time;            // --launch-time, with --eager (perf::InferenceOptions::eager_launch_seconds)
  GivenFlags flags;
};

// capplan infer for an image model: one batch's forward pass (perf/image_model.hpp, estimate_image_inference),
// its throughput, and the energy and cost of a million images.
Result run_infer_image(const InferArgs& a, const ImageModelArg& m, const Context& ctx) {
  const ImageModel& net = m.shape;
  const std::string& id = m.id;
  {
    const std::string why = "describes a language model's serving; " + id + " is an image model (--batch, --weights, --fused-kernels)";
    a.flags.refuse(language_serving_flags, why);
    a.flags.refuse({"--gpus", "--tp", "--pp", "--gpus-per-node", "--fabric", "--fabric-bandwidth", "--fabric-latency", "--pcie-host", "--p2p",
                    "--pcie-lanes", "--host-memory-bandwidth", "--weight-stream-latency"},
                   why);
  }
  const GpuSpec g = gpu_with_usable_memory(ctx.catalog().find_gpu(a.gpu), a.plan.usable_memory);
  // --batch: images per batch (default 64; a diffusion UNet's 1, as compare --serve); --weights: the
  // precision the network runs at, fp16 (default, mixed precision), bf16, fp32, fp8 or int8 (TensorRT).
  const bool unet = net.is_diffusion();
  const std::int64_t batch = a.flags.has("--batch") ? a.plan.batch : unet ? 1 : 64;
  if (batch < 1 || batch > 1'000'000) detail::fail("--batch", std::to_string(batch), "must be an image count from 1 to 1,000,000");
  // Unasked, fp16; bf16 on a part without an fp16 rate (TPUs).
  const std::string w = a.flags.has("--weights") ? a.plan.weights : g.dense.at(Precision::fp16) || !g.dense.at(Precision::bf16) ? "fp16" : "bf16";
  std::optional<Precision> asked;
  for (Precision p : {Precision::fp16, Precision::bf16, Precision::fp32, Precision::fp8, Precision::int8}) {
    if (name(p) == w) asked = p;
  }
  if (!asked) detail::fail("--weights", "\"" + w + "\"", "is not a precision an image model runs at (fp16, bf16, fp32, fp8, int8)");
  if (!g.dense.at(*asked)) detail::fail("--weights", w, g.id + " has no dense " + w + " rate in the catalog");
  const Precision p = *asked;
  // A diffusion UNet makes an image in `steps` forward passes, each on two samples per image under
  // classifier-free guidance (perf/image_model.hpp estimate_image_generation).
  if (!unet) a.flags.refuse({"--steps", "--guidance", "--vae-slicing", "--vae-tiling"}, "applies to diffusion UNets (sd15-unet, sdxl-unet); " + id + " runs one forward pass per image");
  if (unet) a.flags.refuse({"--fused-kernels"}, "folds a CNN's batch norm and fuses a ViT's epilogues; " + id + "'s GroupNorm, SiLU and adds stay eager kernels here");
  net.require_vae_decoder(a.vae_slicing, a.vae_tiling, "--vae-slicing", "--vae-tiling");
  if (unet && (a.steps < 1 || a.steps > 10'000)) detail::fail("--steps", std::to_string(a.steps), "must be a count of denoising steps from 1 to 10,000");
  const perf::ImageGeneration gen = perf::estimate_image_generation(net, batch, g, p, a.steps, a.guidance, {}, a.fused_kernels, a.vae_tiling);
  const perf::ImageInferenceEstimate& est = gen.pass;
  const std::int64_t per_image = gen.samples / batch;
  const int steps = gen.steps;
  const double images_per_s = gen.images_per_second;
  // The weights (the pipeline's text encoders and VAE included) and the larger of a step's and the VAE
  // decode's peak activations must fit (memory/image_model.hpp image_generation_memory).
  const MemoryBudget mem = image_generation_memory(net, batch, gen.samples, p, gen.decode_precision, {}, a.vae_slicing, a.vae_tiling);
  const double weight_bytes = mem.weights.size.value();
  const bool weights_fit = mem.total() <= g.capacity();
  constexpr double million = 1e6;
  const double seconds = million / images_per_s;
  FootprintOptions per_hour = footprint_options(a.cost);
  per_hour.bill_as_sold = false;  // a unit cost: the cheapest price per hour, never a month or a term
  const RunFootprint foot = run_footprint(ctx.catalog(), g, 1, from_canonical<Duration>(seconds), seconds / 3600.0, per_hour);
  const double peak = perf::peak_rate(g, p).value();

  Result r;
  Table t;
  const std::string images = std::to_string(batch) + (batch == 1 ? " image" : " images");
  t.title = "Inference of " + id + " (" + net.name + ") on 1 x " + g.id + ": batches of " + images + (unet ? " at " + net.image : "") + ", " + w;
  if (unet)
    t.title += ", " + std::to_string(steps) + (steps == 1 ? " step" : " steps") + (a.guidance ? " with classifier-free guidance" : " without guidance");
  t.columns = {{"item", "Item", Align::left}, {"value", "Value", Align::right}, {"detail", "How", Align::left}};
  const std::string bound_text = std::string("bound by ") + (est.bound == perf::Bound::compute ? "compute" : "memory and kernel launches");
  std::string weights_text = format(DataSize::from_value(weight_bytes), {.significant = 4}) + " of " + format(g.capacity(), {.significant = 4});
  if (net.companion_parameters > 0) {
    const double own = net.parameters * bytes_per_element(p), companions = net.companion_parameters * bytes_per_element(companion_precision(p));
    weights_text = format(DataSize::from_value(own), {.significant = 4}) + " + " + format(DataSize::from_value(companions), {.significant = 4}) +
                   " for " + net.companions + (companion_precision(p) != p ? " (kept in " + std::string(name(companion_precision(p))) + ")" : std::string()) +
                   (weight_bytes > own + companions
                        ? " + " + format(DataSize::from_value(weight_bytes - own - companions), {.significant = 4}) + " as the VAE is upcast to fp32"
                        : std::string()) +
                   " = " + weights_text;
  }
  const auto memory_rows = [&] {
    t.add_row({Cell::of_text("activations"), num_cell(format(mem.activations.size, {.significant = 4}), mem.activations.size.value()),
               Cell::of_text(mem.activations.detail)});
    t.add_row({Cell::of_text("memory"), num_cell(format(mem.total(), {.significant = 4}), mem.total().value()),
               Cell::of_text("weights + activations + " + format(mem.runtime_reserve.size, {.significant = 3}) + " runtime reserve, of " +
                             format(g.capacity(), {.significant = 4}) + (weights_fit ? ": fits" : ": does not fit"))});
  };
  if (!weights_fit) {
    // No time for a model whose weights and activations the GPU cannot hold.
    t.title += ": does not fit";
    t.add_row({Cell::of_text("weights"), num_cell(format(DataSize::from_value(weight_bytes), {.significant = 4}), weight_bytes),
               Cell::of_text(weights_text)});
    memory_rows();
    t.notes.push_back("Does not fit: fewer images per batch (--batch), a smaller resolution, smaller weights (--weights fp16, int8) or a GPU "
                      "with more memory" + std::string(unet ? (a.vae_slicing ? "" : "; --vae-slicing decodes one image at a time") +
                                                                  std::string(a.vae_tiling || net.decoder_tiles.empty() ? "" : "; --vae-tiling decodes in tiles") + "."
                                                            : std::string(".")));
    r.tables.push_back(t);
    nlohmann::ordered_json j;
    j["model"] = id;
    j["gpu"] = g.id;
    j["precision"] = w;
    j["image"] = net.image;
    j["fits"] = false;
    j["weights_bytes"] = weight_bytes;
    j["activations_bytes"] = mem.activations.size.value();
    j["memory_per_gpu_bytes"] = mem.total().value();
    r.json = std::move(j);
    return r;
  }
  t.add_row({Cell::of_text("weights"), num_cell(format(DataSize::from_value(weight_bytes), {.significant = 4}), weight_bytes),
             Cell::of_text(weights_text)});
  memory_rows();
  if (unet) {
    const std::string samples = std::to_string(batch * per_image);
    t.add_row({Cell::of_text("step latency"), num_cell(format(est.latency, {.significant = 4}), est.latency.value()),
               Cell::of_text("one denoising step: the UNet's forward on " + samples + " latents" +
                             (a.guidance ? " (" + images + " x 2 for guidance)" : ""))});
    t.add_row({Cell::of_text("steps per second"), num_cell(format_number(1 / est.latency.value(), 4) + " it/s", 1 / est.latency.value()),
               Cell::of_text("what diffusers' progress bar shows; " + bound_text)});
    if (gen.decode)
      t.add_row({Cell::of_text("VAE decode"), num_cell(format(gen.decode->latency, {.significant = 4}), gen.decode->latency.value()),
                 Cell::of_text(std::to_string(batch) + (batch == 1 ? " latent" : " latents") + " to images once per batch, " +
                               (gen.decode_precision == Precision::tf32 ? std::string("in fp32 on TF32 tensor cores")
                                                                        : "at " + std::string(name(gen.decode_precision))) +
                               (net.decoder_fp32 ? " (the pipeline upcasts the VAE)" : "") +
                               (gen.decode_tiles > 0 ? ", in " + std::to_string(gen.decode_tiles) + (gen.decode_tiles == 1 ? " tile" : " tiles") : std::string()))});
    if (!gen.text.empty()) {
      std::string which;
      for (std::size_t i = 0; i < net.text_encoders.size(); ++i) which += (i ? " and " : "") + net.text_encoders[i].name;
      const std::string prompts = std::to_string(gen.samples) + (gen.samples == 1 ? " prompt" : " prompts");
      t.add_row({Cell::of_text("text encoding"), num_cell(format(from_canonical<Duration>(gen.text_seconds()), {.significant = 4}), gen.text_seconds()),
                 Cell::of_text(which + " on " + prompts + " of 77 tokens" + (a.guidance ? " (with the negative prompts)" : "") + " once per batch")});
    }
    const double per_batch = gen.seconds_per_batch;
    t.add_row({Cell::of_text("time per batch"), num_cell(format(from_canonical<Duration>(per_batch), {.significant = 4}), per_batch),
               Cell::of_text((gen.text.empty() ? std::string() : "the text encoding + ") + std::to_string(steps) + (steps == 1 ? " step" : " steps") +
                             (gen.decode ? " + the VAE decode" : "") +
                             (gen.text.empty() && !gen.decode ? "; the text encoders and the VAE decode are not timed (the model has no text_encoders or vae_decoder)"
                              : gen.text.empty()              ? "; the text encoders are not timed"
                              : !gen.decode                   ? "; the VAE decode is not timed"
                                                              : ""))});
    t.add_row({Cell::of_text("throughput"), num_cell(format_number(images_per_s * 3600, 4) + " images/h", images_per_s * 3600),
               Cell::of_text(images + " per batch, batches back to back")});
    const double flops = gen.flops_per_image();
    double text_flops = 0;  // per image: each encoder over the image's prompts (two under guidance)
    for (const perf::ImageInferenceEstimate& e : gen.text) text_flops += e.flops_per_image.value() * static_cast<double>(gen.samples / gen.images);
    t.add_row({Cell::of_text("FLOPs per image"), num_cell(format(from_canonical<FlopCount>(flops), {.significant = 4}), flops),
               Cell::of_text(std::to_string(steps) + (steps == 1 ? " step x " : " steps x ") + std::to_string(per_image) + " UNet forward" +
                             (per_image > 1 ? "s" : "") + " x " + format(est.flops_per_image, {.significant = 4}) +
                             (gen.decode ? " + the VAE decode's " + format(gen.decode->flops_per_image, {.significant = 4}) : std::string()) +
                             (gen.text.empty() ? std::string() : " + the text encoders' " + format(from_canonical<FlopCount>(text_flops), {.significant = 4})))});
  } else {
    t.add_row({Cell::of_text("latency"), num_cell(format(est.latency, {.significant = 4}), est.latency.value()),
               Cell::of_text("one batch of " + std::to_string(batch) + ", forward")});
    t.add_row({Cell::of_text("throughput"), num_cell(format_number(est.images_per_second, 4) + " images/s", est.images_per_second),
               Cell::of_text(bound_text)});
    t.add_row({Cell::of_text("FLOPs per image"), num_cell(format(est.flops_per_image, {.significant = 4}), est.flops_per_image.value()),
               Cell::of_text("forward, 2 per multiply-add")});
  }
  t.add_row({Cell::of_text("achieved"), num_cell(format(est.achieved, {.significant = 4}), est.achieved.value()),
             Cell::of_text(format_number(100 * est.achieved.value() / peak, 3) + " % of " + format(from_canonical<FlopRate>(peak)) + " dense " + w)});
  t.add_row({Cell::of_text("time per 1M images"), num_cell(format(from_canonical<Duration>(seconds), {.significant = 3}), seconds),
             Cell::of_text("one GPU, batches back to back")});
  if (foot.kwh)
    t.add_row({Cell::of_text("energy per 1M images"), num_cell(format_number(*foot.kwh, 4) + " kWh", *foot.kwh),
               Cell::of_text(foot.power.basis + " IT power, x PUE " + format_number(foot.pue, 3))});
  else
    t.add_row({Cell::of_text("energy per 1M images"), Cell::empty(), Cell::of_text(foot.power.basis)});
  t.add_row({Cell::of_text("cost per 1M images"),
             foot.cost ? Cell::of_money(format(*foot.cost, {.decimals = 4}), to_json_string(foot.cost->rounded_to(4)), foot.cost->amount().to_double())
                       : Cell::empty(),
             Cell::of_text(foot.price ? format(*foot.price) + " per GPU from " + foot.price_from : no_price_text(foot))});
  for (const auto& s : est.breakdown.assumptions) t.notes.push_back(s);
  t.notes.push_back("Not modelled: the input batch's copy to the GPU (it overlaps the previous batch in a pipelined server) and an eager "
                    "framework's per-operator Python cost, which sets small-batch latency (PyTorch eager: about 13 ms at batch 1 on a V100; "
                    "validation.md, \"ResNet-50 inference\").");
  if (g.tdp.value() > 0) t.notes.push_back(host_allowance_note({}, g.form_factor == FormFactor::soc));  // no power figure: no allowance to state
  const nlohmann::ordered_json warnings = entry_warnings(ctx, used_entries(g.id, foot), t.notes, false);
  r.tables.push_back(t);
  nlohmann::ordered_json j;
  j["model"] = id;
  j["gpu"] = g.id;
  j["precision"] = w;
  j["batch"] = batch;
  j["image"] = net.image;
  j["fits"] = true;
  j["weights_bytes"] = weight_bytes;
  j["activations_bytes"] = mem.activations.size.value();
  j["memory_per_gpu_bytes"] = mem.total().value();
  j["fused_kernels"] = a.fused_kernels;
  if (unet) {
    j["steps"] = steps;
    j["guidance"] = a.guidance;
    j["vae_slicing"] = a.vae_slicing;
    j["vae_tiling"] = a.vae_tiling;
    j["step_latency_s"] = est.latency.value();
    j["steps_per_s"] = 1 / est.latency.value();
    j["vae_decode_s"] = gen.decode ? nlohmann::ordered_json(gen.decode->latency.value()) : nlohmann::ordered_json();
    j["text_encode_s"] = gen.text.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(gen.text_seconds());
    j["seconds_per_batch"] = gen.seconds_per_batch;
  }
  j["latency_s"] = unet ? gen.seconds_per_batch : est.latency.value();
  j["images_per_s"] = images_per_s;
  j["flops_per_image"] = gen.flops_per_image();
  j["achieved_flop_per_s"] = est.achieved.value();
  j["kwh_per_million_images"] = foot.kwh ? nlohmann::ordered_json(*foot.kwh) : nlohmann::ordered_json();
  // Under the _usd key USD or null; another currency under keys of its own (report/money_value.hpp).
  Value cost = Value::Object{};
  detail::put_usd(cost, "cost_per_million_images_usd", foot.cost ? std::optional(foot.cost->rounded_to(4)) : std::nullopt);
  for (const auto& [key, v] : std::get<Value::Object>(cost.data())) j[key] = to_json(v);
  j["notes"] = t.notes;
  j["warnings"] = warnings;
  r.json = std::move(j);
  r.explanation = lines_of(est.breakdown.text());
  return r;
}

// Measured over estimated decode speed on GPUs with no compute rate, lowest and highest, over the
// rows of validation/cases/llama-cpp-decode-bound.json (llama.cpp on Apple M2 Ultra, M3 Ultra, M4 Max
// and DGX Spark; all validation, nothing fitted). scripts/check-decode-bound-reach (the test
// validation.decode_bound_reach) recomputes the range from that file and fails when this differs.
inline constexpr std::string_view decode_bound_reach = "86-104 %";

Result run_infer(const InferArgs& a, const Context& ctx) {
  check_cost_args(a.cost);
  if (auto image = image_model_arg(a.model)) {
    apply_resolution(*image, a.resolution);  // first: it rebuilds the UNet, which the attention flag then changes
    apply_image_attention_flag(*image, a.plan.flash_attention, a.flags);
    return run_infer_image(a, *image, ctx);
  }
  a.flags.refuse({"--resolution"}, "applies to the diffusion UNet presets (sd15-unet, sdxl-unet)");
  a.flags.refuse({"--fused-kernels", "--flash-attention"}, "applies to image models (e.g. resnet50, vit-b16)");
  a.flags.refuse({"--steps", "--guidance"}, "applies to diffusion UNets (sd15-unet, sdxl-unet)");
  const ModelArg m = model_arg(a.model);
  const GpuSpec g = with_slot_lanes(gpu_with_usable_memory(ctx.catalog().find_gpu(a.gpu), a.plan.usable_memory), a.cluster);
  if (a.prompt < 0) detail::fail("--prompt-tokens", std::to_string(a.prompt), "is negative");
  // An encoder (BERT) generates nothing: a request is one forward pass over its tokens (perf/inference.hpp).
  const bool encoder = m.shape.encoder;
  if (encoder && a.flags.has("--output-tokens") && a.output != 0)
    detail::fail("--output-tokens", std::to_string(a.output),
                 "does not apply to " + m.id + ", an encoder: it generates no tokens; a request is one forward pass over --prompt-tokens");
  if (encoder && a.prompt < 1) detail::fail("--prompt-tokens", std::to_string(a.prompt), "must be a positive count: an encoder's request is its input tokens");
  const std::int64_t output = encoder ? 0 : a.output;
  if (!encoder && output < 1) detail::fail("--output-tokens", std::to_string(a.output), "must be a positive count");
  PlanArgs p = a.plan;
  if (!p.context) p.context = a.prompt + output;
  InferenceConfig ic = inference_config(p, m.shape, &m);
  refuse_soc_serving_layout(p, ic, g);
  // The replica's nodes: TP inside one, pipeline stages beyond it over the fabric (plan/serving_run.hpp).
  const int gpus_per_node = gpus_per_node_arg(a.cluster, g);
  if (ic.tensor_parallel > gpus_per_node) {
    // --gpus alone: the widest TP that fits a node and divides both the heads and the GPUs, stages across.
    const int n = ic.tensor_parallel * ic.pipeline_parallel;
    int tp = gpus_per_node;
    while (tp > 1 && (m.shape.heads % tp != 0 || n % tp != 0)) --tp;
    if (a.plan.gpus && !a.plan.tp && !a.plan.pp && n / tp <= m.shape.layers) {
      ic.tensor_parallel = tp;
      ic.pipeline_parallel = n / tp;
    } else {
      const std::string flag = a.plan.tp ? "--tp" : "--gpus";
      detail::fail(flag, std::to_string(a.plan.tp ? *a.plan.tp : n),
                   "puts TP " + std::to_string(ic.tensor_parallel) + " across nodes of " + std::to_string(gpus_per_node) +
                       (gpus_per_node == 1 ? " GPU" : " GPUs") + " (--gpus-per-node): a replica keeps TP inside one node; give --tp " +
                       std::to_string(tp) + " --pp " + std::to_string(n / tp) + " (pipeline stages across nodes)");
    }
  }
  // The load as plan/serving_run.hpp times it, so `capplan compare --serve` agrees.
  ServingLoad load;
  load.weights = ic.weights;
  load.expert_weights = ic.expert_weights;
  load.kv_cache = ic.kv_cache;
  load.batch = ic.sequences;
  load.prompt = a.prompt;
  load.output = output;
  load.cuda_graphs = a.plan.cuda_graphs;
  load.eager = a.plan.eager;
  refuse_link_flags_on_soc(a.cluster, g);
  load.pcie_host = pcie_host_arg(a.cluster);
  load.p2p = p2p_arg(a.cluster);
  load.host_memory_bandwidth = host_memory_arg(a.cluster);
  load.gpus_per_node = gpus_per_node;
  load.fabric = fabric_arg(a.cluster);
  if (a.flags.has("--weight-stream-latency")) load.weight_stream_latency = weight_stream_latency_arg(a.weight_stream_latency);
  if (a.flags.has("--launch-time")) {
    if (!load.eager)
      detail::fail("--launch-time", a.launch_time, "applies to --eager serving: other engines launch kernels without Python (--cuda-graphs: one graph per step)");
    load.eager_launch_time = from_canonical<Duration>(launch_time_arg(a.launch_time));
  }
  if (encoder && !g.dense.at(Precision::fp16) && !g.dense.at(Precision::bf16) && !g.dense.at(Precision::fp32))
    detail::fail("--gpu", g.id, "has no published compute rate: an encoder's forward pass is compute-bound, and capplan does not time it without one");
  // FP8/NVFP4 weights before Turing: no engine runs them (plan/serving_run.hpp weights_without_kernel).
  if (std::string w = weights_without_kernel(g, load.weights, load.expert_weights); !w.empty()) {
    const bool experts = w.find("experts") != std::string::npos;
    const char* flag = experts ? "--expert-weights" : "--weights";
    const bool given = a.flags.has(flag);
    detail::fail(given ? flag : std::string("--gpu"), given ? std::string(experts ? load.expert_weights->name : load.weights.name) : g.id,
                 (given ? "has no kernel on " + g.id + " (" + g.architecture + ")" : "(" + g.architecture + ") runs no serving engine's kernel for " + m.id + "'s released " + w) +
                     ": vLLM runs FP8 and NVFP4 weights on GPUs without such tensor cores through its weight-only Marlin kernels, which "
                     "start at Turing (compute capability 7.5), and llama.cpp has no such type; pass --weights q8_0 (a GGUF, as llama.cpp "
                     "runs it) or --weights fp16");
  }
  ServingRun timed;
  try {
    timed = serving_run(m.shape, g, load, ic.tensor_parallel, ic.pipeline_parallel);
  } catch (const InputError& e) {
    if (e.field() != "fabric") throw;
    const perf::Fabric f = serving_fabric(g, load);
    detail::fail("--fabric", "\"" + f.id + "\"",
                 "has no network between nodes, but TP " + std::to_string(ic.tensor_parallel) + " x PP " + std::to_string(ic.pipeline_parallel) +
                     " on nodes of " + std::to_string(load.gpus_per_node) + (load.gpus_per_node == 1 ? " GPU" : " GPUs") +
                     " (--gpus-per-node) crosses nodes; choose a network (" + perf::fabric_ids(false) + ") or more GPUs per node");
  }
  const ServingReport rep = serving_report(ctx.catalog(), m.id, g, std::move(timed), load, footprint_options(a.cost));
  const ServingRun& run = rep.run;
  const perf::InferenceEstimate& est = run.estimate;
  const MemoryBudget& mem = run.memory;
  const FitResult& fit = run.fit;
  const int gpus = run.gpus();
  const ItPower& power = rep.footprint.power;
  const std::optional<double> kwh = rep.footprint.kwh, co2 = rep.footprint.co2_kg;
  const std::optional<MoneyRate>& price = rep.footprint.price;
  const std::string& price_from = rep.footprint.price_from;
  const std::optional<Money>& per_mtok = rep.cost_per_million_tokens;

  Result r;
  Table t;
  t.title = "Serving " + m.id + " on " + std::to_string(gpus) + " x " + g.id + ": " + std::to_string(ic.sequences) + " x " +
            (encoder ? std::to_string(a.prompt) + " input tokens, one forward pass (an encoder)"
                     : "(" + std::to_string(a.prompt) + " prompt + " + std::to_string(output) + " output) tokens") +
            ", " + std::string(ic.weights.name) + " weights" + (ic.expert_weights ? ", " + std::string(ic.expert_weights->name) + " experts" : "");
  t.columns = {{"item", "Item", Align::left}, {"value", "Value", Align::right}, {"detail", "How", Align::left}};
  // FP8 weights on a GPU without FP8 tensor cores (Ampere and older): stored in 8 bits, dequantized for fp16 math.
  const bool fp8_weight_only = (ic.weights.name == formats::fp8.name) && !g.dense.at(Precision::fp8);
  if (!fit.fits) {
    // No time for a layout that cannot run: what it needs, and what would fit.
    t.title += ": does not fit";
    t.add_row({Cell::of_text("memory per GPU"), num_cell(bytes_text(mem.total()), mem.total().value()), Cell::of_text(fit_text(fit, g.capacity()))});
    std::vector<std::string> hints;
    if (const auto fewest = min_gpus_for_serving(m.shape, ic, g.capacity(), perf::linkless(g) ? 1 : 1024)) {
      hints.push_back("--gpus " + std::to_string(fewest->gpus) + " (TP " + std::to_string(fewest->tensor) + " x PP " + std::to_string(fewest->pipeline) +
                      "): " + bytes_text(fewest->budget.total()) + " per GPU");
    }
    for (const WeightFormat& f : {formats::fp8, formats::q4_0}) {
      if (f.bits_per_value >= ic.weights.bits_per_value) continue;
      InferenceConfig q = ic;
      q.weights = f;
      if (a.plan.expert_weights.empty()) q.expert_weights.reset();  // --weights alone sets the experts' format too
      const FitResult qf = check_fit(inference_budget(m.shape, q), g.capacity());
      if (!(qf.required < mem.total())) continue;  // no smaller than what did not fit
      hints.push_back("--weights " + std::string(f.name) + ": " + bytes_text(qf.required) + " per GPU, " + (qf.fits ? "fits" : "does not fit"));
    }
    // A mixture of experts: the routed experts alone in MXFP4, the format gpt-oss is released in (its
    // model card: the MoE weights quantized to MXFP4, the rest in BF16).
    if (m.shape.moe && (!ic.expert_weights || ic.expert_weights->bits_per_value > formats::mxfp4.bits_per_value)) {
      InferenceConfig q = ic;
      q.expert_weights = formats::mxfp4;
      const FitResult qf = check_fit(inference_budget(m.shape, q), g.capacity());
      hints.push_back("--expert-weights mxfp4 (the routed experts only, as gpt-oss is released): " + bytes_text(qf.required) + " per GPU, " +
                      (qf.fits ? "fits" : "does not fit"));
    }
    for (const auto& h : hints) t.add_row({Cell::of_text("would fit?"), Cell::of_text(""), Cell::of_text(h)});
    t.notes.push_back("Model: " + m.id + " (" + m.source + ").");
    if (std::string w = released_weights_note(p, m); !w.empty()) t.notes.push_back(std::move(w));
    if (std::string w = window_note(m.shape); !w.empty()) t.notes.push_back(std::move(w));
    if (std::string c = context_note(m, *p.context); !c.empty()) t.notes.push_back(std::move(c));
    const nlohmann::ordered_json warnings = entry_warnings(ctx, {"gpu " + g.id}, t.notes, false);
    r.tables.push_back(t);
    r.json = to_json(serving_output(rep, t.notes, hints));
    r.json["warnings"] = warnings;
    r.explanation.push_back("total " + bytes_text(mem.total()) + " vs " + bytes_text(g.capacity()) + " on the GPU: short by " +
                            bytes_text(-1.0 * fit.headroom));
    return r;
  }
  // A GPU with no published compute rate (Apple's, DGX Spark): the decode from its memory traffic
  // and kernel costs alone, its speed if memory-bound; no prefill, no whole-load time or energy.
  const bool rated = est.compute_timed;
  const std::string no_rate = g.id + " has no published compute rate";
  if (encoder) {
    const double per_s = static_cast<double>(ic.sequences) / est.prefill.value();
    t.add_row({Cell::of_text("latency"), num_cell(format(est.prefill, {.significant = 3}), est.prefill.value()),
               Cell::of_text("one forward pass over the batch's " + std::to_string(ic.sequences * a.prompt) + " tokens")});
    t.add_row({Cell::of_text("throughput"), num_cell(format_number(per_s, 4) + " seq/s", per_s),
               Cell::of_text(format_number(est.tokens_per_second, 4) + " input tokens/s, batches back to back")});
  } else if (rated) {
    t.add_row({Cell::of_text("time to first token"), num_cell(format(est.prefill, {.significant = 3}), est.prefill.value()), Cell::of_text("prefill")});
    t.add_row({Cell::of_text("decode"), num_cell(format_number(est.tokens_per_second, 4) + " tok/s", est.tokens_per_second),
               Cell::of_text(format_number(est.tokens_per_second_per_sequence, 4) + " tok/s per sequence, bound by " + std::string(perf::name(est.decode_bound)))});
    t.add_row({Cell::of_text("total time"), num_cell(format(est.total, {.significant = 3}), est.total.value()), Cell::of_text("prefill + decode")});
  } else {
    t.add_row({Cell::of_text("time to first token"), Cell::empty(), Cell::of_text("not estimated: " + no_rate + ", and a prefill is compute-bound")});
    t.add_row({Cell::of_text("decode"), num_cell(format_number(est.tokens_per_second, 4) + " tok/s", est.tokens_per_second),
               Cell::of_text(format_number(est.tokens_per_second_per_sequence, 4) + " tok/s per sequence if memory-bound: the weights and KV cache read at " +
                             format(perf::achieved_bandwidth(g, load.efficiency()), {.significant = 3}) + " (" +
                             format_number(100 * load.efficiency().memory_fraction, 3) + " % of " + format(g.memory_bandwidth, {.significant = 3}) +
                             ") each step; the math is not timed")});
    t.add_row({Cell::of_text("total time"), Cell::empty(), Cell::of_text("not estimated (no prefill time)")});
  }
  t.add_row({Cell::of_text("memory per GPU"), num_cell(bytes_text(mem.total()), mem.total().value()),
             Cell::of_text(fit_text(fit, g.capacity()))});
  if (!rated) {
    t.add_row({Cell::of_text("energy"), Cell::empty(), Cell::of_text("not estimated (no prefill time)")});
  } else if (kwh && co2) {
    t.add_row({Cell::of_text("energy"), num_cell(format_number(*kwh * 1000, 4) + " Wh", *kwh), Cell::of_text(power.basis + " IT power, x PUE " + format_number(a.cost.pue, 3))});
    t.add_row({Cell::of_text("carbon"), num_cell(format_number(*co2 * 1000, 4) + " g CO2e", *co2), Cell::of_text(format_number(rep.footprint.grid_g_per_kwh, 4) + " g/kWh")});
  } else {
    t.add_row({Cell::of_text("energy"), Cell::empty(), Cell::of_text(power.basis)});
  }
  t.add_row({Cell::of_text(encoder ? "cost per 1M input tokens" : "cost per 1M output tokens"),
             // Below a cent (an encoder's short passes): four decimals, not "$0.00".
             per_mtok ? Cell::of_money(format(*per_mtok, {.decimals = per_mtok->amount().to_double() < 0.01 ? 4 : -1}),
                                       to_json_string(per_mtok->rounded_to(4)), per_mtok->amount().to_double())
                      : Cell::empty(),
             Cell::of_text(price ? format(*price) + " per GPU from " + price_from + (rated ? "" : ", at the memory-bound decode speed")
                                 : no_price_text(rep.footprint))});
  if (!rated)
    t.notes.push_back(no_rate + " (capplan catalog show " + g.id + " says why), so its decode is timed from the bytes each step reads "
                      "and its kernels' fixed costs, as if memory-bound: batch-1 decode usually is, a larger batch less so. llama.cpp's "
                      "published batch-1 decodes on Apple's M2 Ultra, M3 Ultra and M4 Max and on DGX Spark ran at " +
                      std::string(decode_bound_reach) + " of this estimate (docs/validation-runs.md). A prefill is compute-bound and is not estimated." +
                      (m.shape.moe && g.vendor == Vendor::apple
                           ? " No mixture of experts on Apple's GPUs is among those rows, and users report less: 14-15 tok/s for DeepSeek-R1 "
                             "at 4 bits on an M3 Ultra (kvcache-ai/ktransformers#1207), where capplan estimates 27 tok/s in Q4_0."
                           : ""));
  t.notes.push_back("Model: " + m.id + " (" + m.source + ").");
  if (encoder)
    t.notes.push_back(m.id + " is an encoder (bidirectional attention): a request is one forward pass over its tokens, attention over every "
                      "pair of them, as embedding and classification servers run it; no tokens are generated, no KV cache is kept and the "
                      "masked-LM head is not run. --batch sequences a pass; the cost is per million input tokens. The pass is timed with the "
                      "training kernels, unfused: TensorRT's published FP16 BERT passes on A100, L4, L40S and T4 lie within 60 % of it, "
                      "faster where TensorRT fuses them, slower on a T4 that throttles (validation/cases/tensorrt-bert.json).");
  if (std::string w = released_weights_note(p, m); !w.empty()) t.notes.push_back(std::move(w));
  if (std::string w = window_note(m.shape); !w.empty()) t.notes.push_back(std::move(w));
  if (std::string c = context_note(m, *p.context); !c.empty()) t.notes.push_back(std::move(c));
  if (fp8_weight_only)
    t.notes.push_back(g.id + " has no FP8 tensor cores: fp8 weights are stored in 8 bits and converted to fp16 for the matmuls (weight-only" +
                      std::string(g.vendor == Vendor::nvidia ? ", as vLLM's FP8 Marlin kernels run on Turing and Ampere"
                                                             : "; vLLM's weight-only FP8 kernels (Marlin) are NVIDIA's: check that your runtime has such a path") +
                      "); the memory and the weight reads shrink, the math does not speed up.");
  else if (ic.weights.name == formats::fp8.name)
    t.notes.push_back("FP8 weights on FP8 tensor cores: the linear layers' matmuls run in FP8 with activations quantized per matmul (W8A8, as "
                      "TensorRT-LLM and vLLM run FP8 checkpoints); attention, norms and the logits stay in fp16/bf16.");
  else if (ic.weights.name == formats::nvfp4.name && quantized_matmuls(g, ic.weights))
    t.notes.push_back("NVFP4 weights on FP4 tensor cores: the linear layers' matmuls run in FP4 with activations quantized per matmul to 16-value "
                      "blocks (W4A4, as TensorRT-LLM and vLLM run NVFP4 checkpoints on Blackwell); attention, norms and the logits stay in fp16/bf16.");
  else if (ic.weights.name == formats::nvfp4.name)
    t.notes.push_back(g.id + " has no NVIDIA FP4 tensor cores: nvfp4 weights are stored in 4.5 bits and converted to fp16 for the matmuls "
                      "(weight-only, as vLLM's FP4 Marlin kernels run before Blackwell); the memory and the weight reads shrink, the math does not speed up.");
  if (run.pp > 1) {
    const perf::StageBoundaries b = perf::stage_boundaries(run.tp, run.pp, load.gpus_per_node);
    t.notes.push_back("Pipeline stages decode in turn: timed as TP " + std::to_string(run.tp) +
                      " over the whole model, plus the transfer of the tokens' hidden state and residual at each stage boundary" +
                      (b.nodes > 1 ? ": " + std::to_string(b.nodes) + " nodes of " + std::to_string(load.gpus_per_node) + " GPU" +
                                         (load.gpus_per_node == 1 ? "" : "s") + " (" + std::to_string(b.stages_per_node) + " stage" +
                                         (b.stages_per_node == 1 ? "" : "s") + " of TP " + std::to_string(run.tp) + " on each), " +
                                         std::to_string(b.across) + " boundar" + (b.across == 1 ? "y" : "ies") + " between them over " +
                                         serving_fabric(g, load).describe(std::min(run.tp, load.gpus_per_node)) +
                                         (serving_fabric(g, load).nics_per_node > 0 && run.tp > 1
                                              ? ", shared by the stage's " + std::to_string(run.tp) + " GPUs, which send at once"
                                              : std::string())
                                   : std::string(", inside one node")) +
                      " (--explain shows the transfers).");
  }
  if (run.tp > 1) {
    const perf::Cluster node = perf::make_cluster(g, run.tp, run.tp, perf::Link{}, load.pcie_host, load.p2p, load.host_memory_bandwidth);
    if (std::string pcie = pcie_note(node, !a.cluster.pcie_host.empty(), !a.cluster.host_memory.empty()); !pcie.empty()) t.notes.push_back(std::move(pcie));
  }
  if (g.tdp.value() > 0)  // no power figure: no allowance to state; the server host the replica was timed on
    t.notes.push_back(host_allowance_note(for_pcie_host({}, load.pcie_host), g.form_factor == FormFactor::soc));
  for (const auto& s : est.breakdown.assumptions) t.notes.push_back(s);
  const nlohmann::ordered_json warnings = entry_warnings(ctx, used_entries(g.id, rep.footprint), t.notes, false);
  r.tables.push_back(t);

  r.json = to_json(serving_output(rep, t.notes));
  r.json["warnings"] = warnings;
  r.explanation = lines_of(est.explain());
  return r;
}

}  // namespace

void add_train(CLI::App& app, Context& ctx) {
  auto a = std::make_shared<TrainArgs>();
  auto* cmd = app.add_subcommand("train", "Time, MFU, memory, energy, carbon and cost of one training run");
  cmd->footer(
      "Examples:\n"
      "  capplan train --model llama2-7b --tokens 1e9 --gpu h100-sxm --gpus 8\n"
      "  capplan train --model llama2-7b --tokens 2e12 --gpu a100-sxm-80gb --gpus 64 \\\n"
      "      --tp 2 --pp 1 --dp 32 --zero 1 --micro-batch 2\n"
      "  capplan train --model llama3.1-8b --tokens 50e6 --gpu rtx4090 --gpus 1 --finetune qlora --seq-len 2048\n"
      "  capplan train --model resnet50 --gpu a100-sxm-80gb --gpus 8 --epochs 90\n"
      "  capplan train --model gpt3-175b --tokens 300e9 --gpu a100-sxm-80gb --gpus 1024 --mfu 0.46 \\\n"
      "      --price-per-gpu-hour 1.5");
  add_model_gpu_flags(cmd, a->model, a->gpu);
  add_usable_memory_flag(cmd, a->plan.usable_memory);
  cmd->add_option("--tokens", a->tokens, "Tokens to train on, e.g. 1e9 or 1B (K, M, B, T: thousand to trillion; required for a transformer)");
  add_plan_flags(cmd, a->plan);
  cmd->get_option("--gpus")->description("Number of GPUs (required; with a plan, TP x CP x PP x DP)");
  cmd->get_option("--flash-attention")
      ->description("FlashAttention (default on, as every framework preset runs it); --no-flash-attention times and sizes attention without it");
  add_attention_kernel_flag(cmd, a->plan.attention_kernel);
  add_moe_capacity_flag(cmd, a->plan.moe_capacity_factor);
  add_moe_dispatch_flag(cmd, a->plan.moe_dispatch);
  add_finetune_flags(cmd, a->finetune);
  // Image models (--model resnet50).
  cmd->add_option("--epochs", a->image.epochs, "Image model: passes over the dataset (e.g. 90)");
  cmd->add_option("--images", a->image.images, "Image model: images in all, instead of --epochs");
  cmd->add_option("--dataset-images", a->image.dataset_images, "Image model: images in the dataset (default 1,281,167: ImageNet-1k)");
  cmd->add_option("--batch-per-gpu", a->image.batch_per_gpu, "Image model: images per GPU per iteration (default 256)");
  cmd->add_option("--cpu-cores", a->image.cpu_cores, "Image model: CPU cores decoding images (default 16 per GPU)");
  cmd->add_option("--storage", a->image.storage, "Image model: where the dataset is read from: nvme (default), hdd, ram (page cache)")
      ->check(CLI::IsMember({"nvme", "hdd", "ram"}));
  cmd->add_option("--drives", a->image.drives, "Image model: drives the dataset is spread over (default 1)");
  cmd->add_option("--decode-rate", a->image.decode_rate, "Image model: images one core decodes and augments per second (default 120)");
  cmd->get_option("--optimizer")->description("adam (default; the only optimizer train times: others are for capplan memory)");
  add_cluster_flags(cmd, a->cluster);
  add_goodput_flags(cmd, a->goodput);
  cmd->add_option("--mfu", a->mfu, "Measured model-FLOPs utilization (overrides the performance model)");
  cmd->add_flag("--allow-tight", a->allow_tight,
                "Let the plan search return plans whose memory fit is tight (less headroom than the allocator may lose to fragmentation)");
  add_launch_time_flag(cmd, a->launch_time);
  add_moe_routed_time_flag(cmd, a->moe_routed_time);
  add_overlap_flags(cmd, a->overlap);
  add_run_cost_flags(cmd, a->cost);
  a->flags.cmd = cmd;
  cmd->callback([a, &ctx] { write(run_train(*a, ctx), ctx); });
}

void add_infer(CLI::App& app, Context& ctx) {
  auto a = std::make_shared<InferArgs>();
  auto* cmd = app.add_subcommand("infer", "Time to first token, decode throughput, memory and cost of a serving load");
  cmd->footer(
      "Examples:\n"
      "  capplan infer --model llama2-7b --gpu rtx4090\n"
      "  capplan infer --model deepseek-r1-distill-qwen-32b --gpu rtx4090 --weights q4_0 --batch 1 \\\n"
      "      --prompt-tokens 1000 --output-tokens 500\n"
      "  capplan infer --model llama3.1-70b --gpu h100-sxm --gpus 4 --batch 32 --format json\n"
      "  capplan infer --model resnet50 --gpu rtx4090 --batch 64 --weights int8 --fused-kernels\n"
      "  capplan infer --model sdxl-unet --gpu rtx4090 --batch 4 --steps 30");
  add_model_gpu_flags(cmd, a->model, a->gpu);
  add_usable_memory_flag(cmd, a->plan.usable_memory);
  cmd->add_option("--gpus", a->plan.gpus, "GPUs: TP x PP (alone: tensor parallel where it divides the heads, else pipeline stages)");
  cmd->add_option("--tp", a->plan.tp, "Tensor-parallel degree, inside one node");
  cmd->add_option("--pp", a->plan.pp, "Pipeline stages, run one after another; beyond a node they cross --fabric");
  cmd->add_option("--batch", a->plan.batch, "Sequences served at once (default 1)");
  cmd->add_option("--weights", a->plan.weights,
                  "Weight format (default: as the model is released: bf16; gpt-oss with mxfp4 experts; DeepSeek-V3 and R1 fp8)")->check(weight_format_check());
  cmd->add_option("--expert-weights", a->plan.expert_weights,
                  "Format of a mixture of experts' routed experts, where it differs from --weights (gpt-oss ships mxfp4 experts)")
      ->check(weight_format_check());
  cmd->add_option("--kv-cache", a->plan.kv_cache, "KV-cache format (default bf16)")->check(CLI::IsMember({"fp32", "bf16", "fp16", "fp8", "int8"}));
  cmd->add_option("--prompt-tokens", a->prompt, "Prompt tokens per sequence (default 512)");
  add_cuda_graphs_flag(cmd, a->plan.cuda_graphs);
  add_eager_flag(cmd, a->plan.eager);
  add_weight_stream_latency_flag(cmd, a->weight_stream_latency);
  add_eager_launch_time_flag(cmd, a->launch_time);
  add_cluster_flags(cmd, a->cluster, false);
  cmd->add_option("--gpus-per-node", a->cluster.gpus_per_node,
                  "GPUs in one node (default 8; 72 for GB200 and GB300 racks, a TPU or Trainium chip-link domain, 1 for a system-on-chip): "
                  "TP stays inside one, pipeline stages beyond it cross --fabric (default: what a host of the GPU usually has; consumer "
                  "cards: a desktop's 10 GbE port)");
  cmd->add_option("--output-tokens", a->output, "Generated tokens per sequence (default 128)");
  cmd->add_flag("--fused-kernels", a->fused_kernels,
                "Image models: batch norm folded into the convolutions and ReLU fused, as TensorRT and torch.compile run them "
                "(default: eager PyTorch)");
  cmd->add_flag("--flash-attention,!--no-flash-attention", a->plan.flash_attention,
                "Image models with attention (vit-b16): one fused attention kernel (default, PyTorch 2's scaled_dot_product_attention); "
                "--no-flash-attention: Q K^T, softmax and P V as separate kernels");
  cmd->add_option("--steps", a->steps, "Diffusion UNets (sd15-unet, sdxl-unet): denoising steps per image (default 50)");
  cmd->add_option("--resolution", a->resolution, "Diffusion UNets: the image's WIDTHxHEIGHT, e.g. 832x1216 (default: 512x512 for sd15-unet, 1024x1024 for sdxl-unet)");
  cmd->add_flag("--guidance,!--no-guidance", a->guidance,
                "Diffusion UNets: classifier-free guidance, two UNet samples per image and step (default); --no-guidance: one");
  cmd->add_flag("--vae-slicing", a->vae_slicing,
                "Diffusion UNets: the VAE decodes one image at a time (diffusers' enable_vae_slicing): its peak memory is one image's");
  cmd->add_flag("--vae-tiling", a->vae_tiling,
                "Diffusion UNets: the VAE decodes in overlapping tiles of its sample size (diffusers' enable_vae_tiling; SD 1.5: 512 px, "
                "SDXL: 1024 px, so nothing changes at or below that): one tile's peak memory, more time");
  add_run_cost_flags(cmd, a->cost);
  a->flags.cmd = cmd;
  cmd->callback([a, &ctx] { write(run_infer(*a, ctx), ctx); });
}

}  // namespace capplan::cli
