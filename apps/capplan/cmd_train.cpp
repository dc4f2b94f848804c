// capplan train and capplan infer: time, throughput, memory, energy, carbon and cost of one
// training run or one serving load on one GPU model (perf/training.hpp, perf/plan_search.hpp,
// perf/inference.hpp). Plan flags left out: the fastest plan that fits, from the plan search.
#include "args.hpp"
#include "commands.hpp"
#include "context.hpp"
#include "output.hpp"
#include "workload_args.hpp"

#include <capplan/hardware/catalog.hpp>
#include <capplan/memory/budget.hpp>
#include <capplan/money/format.hpp>
#include <capplan/power/carbon.hpp>
#include <capplan/plan/it_power.hpp>
#include <capplan/plan/serving_run.hpp>
#include <capplan/plan/training_run.hpp>
#include <capplan/units/format.hpp>
#include <capplan/workload/parallel_plan.hpp>
#include <capplan/workload/params.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace capplan::cli {

namespace {

struct RunCostArgs {
  std::string price_per_gpu_hour;  // empty: the cheapest USD cloud offer for the GPU
  double pue = 1.0;
  double grid_g_per_kwh = 436;  // world 2022 (Ember)
};

void add_run_cost_flags(CLI::App* cmd, RunCostArgs& a) {
  cmd->add_option("--price-per-gpu-hour", a.price_per_gpu_hour, "USD per GPU-hour (default: the cheapest cloud offer for the GPU)");
  cmd->add_option("--pue", a.pue, "Power usage effectiveness (default 1.0)");
  cmd->add_option("--grid", a.grid_g_per_kwh, "Grid carbon intensity, g CO2e/kWh (default 436, world 2022, Ember)");
}

void check_cost_args(const RunCostArgs& a) {
  pue_arg(a.pue, "--pue");
  grid_arg(a.grid_g_per_kwh, "--grid");
}

// The GPU-hour price: the flag, else the cheapest USD offer for the GPU; the source in `from`.
std::optional<MoneyRate> gpu_hour_price(const RunCostArgs& a, const Catalog& c, const GpuSpec& g, std::string& from) {
  if (!a.price_per_gpu_hour.empty()) {
    from = "--price-per-gpu-hour";
    return in_currency(money_rate_arg(a.price_per_gpu_hour, Currency::USD, "--price-per-gpu-hour"), Currency::USD,
                       "--price-per-gpu-hour", "costs are reported in USD; convert the price first");
  }
  std::optional<MoneyRate> best;
  for (const CloudOffer* o : c.offers_for_gpu(g.id)) {
    if (o->currency != Currency::USD) continue;
    const MoneyRate r = o->per_gpu_hour(o->headline());
    if (!best || r.amount() < best->amount()) {
      best = r;
      from = o->id + " (" + std::string(name(o->headline())) + ", " + o->as_of + ")";
    }
  }
  return best;
}

Cell num_cell(std::string text, double v) { return Cell::of_number(std::move(text), v); }

struct TrainArgs {
  std::string model, gpu, tokens;
  PlanArgs plan;
  ClusterArgs cluster;
  GoodputArgs goodput;
  RunCostArgs cost;
  std::optional<double> mfu;
  bool allow_tight = false;
};

Result run_train(const TrainArgs& a, const Context& ctx) {
  check_cost_args(a.cost);
  const ModelArg m = model_arg(a.model);
  const GpuSpec& g = ctx.catalog().find_gpu(a.gpu);
  const double tokens = count_arg(a.tokens, "--tokens");
  if (!a.plan.gpus) detail::fail("--gpus", "\"\"", "is required: how many GPUs train");
  const int gpus = positive_flag(a.plan.gpus, 1, "--gpus");
  if (a.mfu && !(*a.mfu > 0 && *a.mfu <= 1)) detail::fail("--mfu", detail::format_double(*a.mfu), "is outside (0, 1]");

  // The job as plan/training_run.hpp sets it up, so `capplan compare` times the same run.
  TrainingSetup setup;
  if (a.plan.seq_len) {
    if (*a.plan.seq_len < 1) detail::fail("--seq-len", std::to_string(*a.plan.seq_len), "must be a positive count");
    setup.seq_len = *a.plan.seq_len;
  }
  if (a.plan.global_batch) {
    if (*a.plan.global_batch < 1) detail::fail("--global-batch", std::to_string(*a.plan.global_batch), "must be a positive count");
    setup.global_batch = *a.plan.global_batch;
  }
  setup.precision = precision_arg(a.plan.precision);
  // train times mixed-precision Adam (its step and its memory); capplan memory sizes the others.
  if (a.plan.optimizer && optimizer_arg(*a.plan.optimizer) != Optimizer::adam) {
    detail::fail("--optimizer", *a.plan.optimizer, "is not timed by train, which models mixed-precision Adam; capplan memory --optimizer sizes it");
  }
  if (a.mfu) setup.measured_mfu = *a.mfu;
  setup.space.allow_tight = a.allow_tight;
  setup.gpus_per_node = gpus_per_node_arg(a.cluster);
  setup.fabric = fabric_arg(a.cluster);
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
                        !a.plan.last_stage_layers;
  perf::TrainingEstimate est;
  ParallelPlan plan;
  std::string search_text;
  if (searched) {
    // Plan flags given without a plan narrow the search, as in capplan compare.
    if (a.plan.micro_batch) {
      if (*a.plan.micro_batch < 1) detail::fail("--micro-batch", std::to_string(*a.plan.micro_batch), "must be a positive count");
      setup.space.micro_batches = {*a.plan.micro_batch};
    }
    if (a.plan.zero) setup.space.zero_stages = {static_cast<ZeroStage>(*a.plan.zero)};
    if (a.plan.recompute) setup.space.recompute = {recompute_arg(*a.plan.recompute)};
    if (a.plan.sequence_parallel) {
      detail::fail("--sequence-parallel", "true", "goes with a given plan (--tp ...); the search already tries it with every TP > 1");
    }
    const TrainingRunSearch sr = best_training_run(m.shape, g, gpus, setup);
    if (!sr.run) {
      Result r;
      Table t;
      t.title = "Training " + m.id + " on " + std::to_string(gpus) + " x " + g.id + ": no plan fits in memory";
      t.columns = {{"item", "Item", Align::left}, {"value", "Value", Align::right}};
      t.add_row({Cell::of_text("plans timed"), Cell::of_number(std::to_string(sr.candidates), static_cast<double>(sr.candidates))});
      t.add_row({Cell::of_text("rejected for memory"), Cell::of_number(std::to_string(sr.rejected_for_memory), static_cast<double>(sr.rejected_for_memory))});
      t.notes.push_back("Try more GPUs (plans whose fit is tight are skipped unless --allow-tight), or see capplan memory --model " + m.id +
                        " --gpu " + g.id + " for the fewest that fit.");
      r.tables.push_back(t);
      r.json = {{"model", m.id}, {"gpu", g.id}, {"gpus", gpus}, {"fits", false}, {"plan", nullptr}};
      return r;
    }
    plan = sr.run->plan;
    est = sr.run->estimate;
    search_text = sr.explanation();
  } else {
    const TrainingConfig tc = training_config(a.plan, m.shape);
    if (tc.plan.gpus() != gpus) {
      detail::fail("--gpus", std::to_string(gpus), std::string("is not TP x ") + (tc.plan.cp > 1 ? "CP x " : "") + "PP x DP = " + std::to_string(tc.plan.gpus()));
    }
    plan = tc.plan;
    check_tp_in_node(a.cluster, plan.tp, setup.gpus_per_node, gpus);
    if (job.global_batch % (plan.micro_batch * plan.dp) != 0) {
      detail::fail("--global-batch", std::to_string(job.global_batch),
                   "is not a multiple of micro-batch x DP = " + std::to_string(plan.micro_batch * plan.dp));
    }
    est = training_run(m.shape, g, plan, setup).estimate;
  }
  const MemoryBudget mem = perf::plan_memory(job, plan, fw.flash_attention);
  const FitResult fit = check_fit(mem, g.capacity());
  const Duration time = est.time_for_tokens(tokens);
  const double gpu_hours = est.gpu_hours_for_tokens(tokens);
  // The whole run: failures, restarts, lost work and checkpoints on top of the iterations.
  const double params = static_cast<double>(parameter_count(m.shape));
  const GoodputConfig gc = goodput_config(a.goodput);
  const GoodputEstimate gp = [&] {
    try {
      return estimate_goodput(time, gpus, checkpoint_size(static_cast<std::int64_t>(params)), gc);
    } catch (const InputError& e) {  // the library names its field; the user typed a flag
      const std::string flag = e.field() == "failures_per_gpu_hour" ? "--failure-rate"
                               : e.field() == "checkpoint_interval" ? "--checkpoint-interval"
                                                                    : e.field();
      const std::string what = e.what();
      detail::fail(flag, e.value(), what.substr(std::min(what.size(), e.field().size() + e.value().size() + 3)));
    }
  }();
  const double achieved = est.model_rate_per_gpu.value();
  const double flops_total = achieved * gpus * time.value();
  const ItPower power = gpu_it_power(g, gpus);
  const Energy energy = power.total * time * a.cost.pue;
  const double kwh = energy.value() / 3.6e6;
  const double co2 = (energy * grid::g_per_kwh(a.cost.grid_g_per_kwh)).value();
  std::string price_from;
  const auto price = gpu_hour_price(a.cost, ctx.catalog(), g, price_from);
  const std::optional<Money> cost = price ? std::optional<Money>(*price * Duration::from_value(gpu_hours * 3600.0)) : std::nullopt;

  const perf::Fabric fabric = training_fabric(g, setup);
  const perf::PlanLinks links = perf::plan_links(cluster, plan);
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
             Cell::of_text(format_number(est.tokens_per_second, 4) + " tokens/s")});
  t.add_row({Cell::of_text("GPU-hours"), num_cell(format_number(gpu_hours, 4), gpu_hours), Cell::of_text("iterations only")});
  {
    std::string how = "goodput " + format_number(100 * gp.goodput, 4) + "%: ";
    if (gp.job_mtbf) {
      how += format_number(gp.expected_failures, 3) + " failures expected (job MTBF " + format(*gp.job_mtbf, {.significant = 3}) + "), ";
    } else {
      how += "no failures, ";
    }
    how += "checkpoints of " + bytes_text(gp.checkpoint) + " every " + format(gp.checkpoint_interval, {.significant = 3}) + " (" +
           format(gp.checkpoint_stall, {.significant = 3}) + " each)";
    t.add_row({Cell::of_text("expected wall clock"), num_cell(format(gp.expected_wall_clock, {.significant = 3}), gp.expected_wall_clock.value()),
               Cell::of_text(how)});
    t.add_row({Cell::of_text("expected GPU-hours"), num_cell(format_number(gp.expected_gpu_hours, 4), gp.expected_gpu_hours),
               Cell::of_text("with failures, restarts and checkpoints (plan/goodput.hpp)")});
  }
  t.add_row({Cell::of_text("achieved per GPU"), num_cell(format(est.model_rate_per_gpu, {.significant = 4}), achieved),
             Cell::of_text("MFU " + format_number(100 * est.mfu, 3) + "%, HFU " + format_number(100 * est.hfu, 3) + "%" +
                           (a.mfu ? " (MFU given)" : ""))});
  t.add_row({Cell::of_text("FLOPs"), num_cell(format_number(flops_total, 4), flops_total), Cell::of_text("model FLOPs, all GPUs")});
  t.add_row({Cell::of_text("memory per GPU"), num_cell(bytes_text(mem.total()), mem.total().value()),
             Cell::of_text(fit_text(fit, g.capacity()))});
  t.add_row({Cell::of_text("energy"), num_cell(format_number(kwh, 4) + " kWh", kwh),
             Cell::of_text(power.basis + " IT power, x PUE " + format_number(a.cost.pue, 3))});
  t.add_row({Cell::of_text("carbon"), num_cell(format_number(co2, 4) + " kg CO2e", co2),
             Cell::of_text(format_number(a.cost.grid_g_per_kwh, 4) + " g/kWh")});
  t.add_row({Cell::of_text("cost"), cost ? Cell::of_money(format(*cost), to_json_string(cost->rounded_to(2)), cost->amount().to_double()) : Cell::empty(),
             Cell::of_text(price ? format(*price) + " per GPU from " + price_from : "no price: pass --price-per-gpu-hour")});
  t.notes.push_back("Model: " + m.id + " (" + count_text(static_cast<double>(parameter_count(m.shape))) + " parameters; " + m.source + ").");
  t.notes.push_back("Cluster: " + std::to_string(cluster.nodes()) + " node(s) of " + std::to_string(cluster.gpus_per_node) + " GPUs" +
                    (cluster.nodes() > 1 ? "; between nodes " + fabric.describe(cluster.gpus_per_node) +
                                               (setup.fabric ? "" : ", assumed for " + g.id + " hosts (--fabric to change)")
                                         : "") +
                    "; framework: " + fw.name + ".");
  if (!precision_note.empty()) t.notes.push_back(precision_note + ".");
  t.notes.push_back(host_allowance_note());
  for (const auto& s : est.breakdown.assumptions) t.notes.push_back(s);
  r.tables.push_back(t);

  auto& j = r.json;
  j["model"] = m.id;
  j["gpu"] = g.id;
  j["gpus"] = gpus;
  j["tokens"] = tokens;
  j["plan"] = {{"searched", searched}, {"tp", plan.tp}, {"pp", plan.pp}, {"dp", plan.dp}, {"micro_batch", plan.micro_batch},
               {"global_batch", gb}, {"seq_len", job.seq_len}, {"zero", static_cast<int>(plan.zero_stage)},
               {"recompute", std::string(name(plan.recompute))}, {"sequence_parallel", plan.sequence_parallel},
               {"interleave", plan.interleave}, {"ep", plan.ep}, {"cp", plan.cp},
               {"first_stage_layers", stage_layers(m.shape.layers, plan, 0)},
               {"last_stage_layers", stage_layers(m.shape.layers, plan, plan.pp - 1)}};
  j["cluster"] = {{"nodes", cluster.nodes()}, {"gpus_per_node", cluster.gpus_per_node},
                  {"fabric", cluster.nodes() > 1 ? nlohmann::ordered_json{{"id", fabric.id}, {"name", fabric.name},
                                                                           {"per_gpu_bytes_per_s", fabric.per_gpu(cluster.gpus_per_node).value()},
                                                                           {"assumed", !setup.fabric}}
                                                 : nlohmann::ordered_json(nullptr)},
                  {"links", {{"tp", links.tp}, {"cp", links.cp}, {"pp", links.pp}, {"dp", links.dp}, {"ep", links.ep}}}};
  j["flops_total"] = flops_total;
  j["time_s"] = time.value();
  j["iteration_time_s"] = est.iteration.value();
  j["gpu_hours"] = gpu_hours;
  j["expected_wall_clock_s"] = gp.expected_wall_clock.value();
  j["expected_gpu_hours"] = gp.expected_gpu_hours;
  j["goodput"] = {{"goodput", gp.goodput},
                  {"expected_failures", gp.expected_failures},
                  {"job_mtbf_s", gp.job_mtbf ? nlohmann::ordered_json(gp.job_mtbf->value()) : nlohmann::ordered_json(nullptr)},
                  {"checkpoint_bytes", gp.checkpoint.value()},
                  {"checkpoint_interval_s", gp.checkpoint_interval.value()},
                  {"checkpoint_stall_s", gp.checkpoint_stall.value()},
                  {"checkpoints", gp.checkpoints},
                  {"failures_per_gpu_hour", gp.config.failures_per_gpu_hour},
                  {"restart_s", gp.config.restart.value()},
                  {"async_checkpoint", gp.config.async_checkpoint}};
  j["achieved_flop_per_s_per_gpu"] = achieved;
  j["mfu"] = est.mfu;
  j["memory_per_gpu_bytes"] = mem.total().value();
  j["fits"] = fit.fits;
  j["tight"] = fit.tight;
  j["it_power_w"] = power.total.value();
  j["energy_kwh"] = kwh;
  j["co2e_kg"] = co2;
  j["cost_usd"] = cost ? nlohmann::ordered_json(to_json_string(cost->rounded_to(2))) : nullptr;
  j["price_per_gpu_hour_usd"] = price ? nlohmann::ordered_json(to_json_string(*price)) : nullptr;
  j["assumptions"] = t.notes;
  r.explanation = lines_of(est.explain());
  r.explanation.push_back("whole run " + format(gp.expected_wall_clock, {.significant = 4}) + " (goodput " + format_number(100 * gp.goodput, 4) + " %):");
  for (const auto& line : gp.explanation) r.explanation.push_back("  " + line);
  for (const auto& line : gp.assumptions) r.explanation.push_back("  assumes: " + line);
  if (!search_text.empty()) {
    auto more = lines_of(search_text);
    r.explanation.insert(r.explanation.begin(), more.begin(), more.begin() + 1);
  }
  return r;
}

struct InferArgs {
  std::string model, gpu;
  PlanArgs plan;
  RunCostArgs cost;
  std::int64_t prompt = 512, output = 128;
};

Result run_infer(const InferArgs& a, const Context& ctx) {
  check_cost_args(a.cost);
  const ModelArg m = model_arg(a.model);
  const GpuSpec& g = ctx.catalog().find_gpu(a.gpu);
  if (a.prompt < 0) detail::fail("--prompt-tokens", std::to_string(a.prompt), "is negative");
  if (a.output < 1) detail::fail("--output-tokens", std::to_string(a.output), "must be a positive count");
  PlanArgs p = a.plan;
  if (!p.context) p.context = a.prompt + a.output;
  const InferenceConfig ic = inference_config(p, m.shape);
  // The load as plan/serving_run.hpp times it, so `capplan compare --serve` agrees.
  ServingLoad load;
  load.weights = ic.weights;
  load.kv_cache = ic.kv_cache;
  load.batch = ic.sequences;
  load.prompt = a.prompt;
  load.output = a.output;
  const ServingRun run = serving_run(m.shape, g, load, ic.tensor_parallel, ic.pipeline_parallel);
  const perf::InferenceEstimate& est = run.estimate;
  const MemoryBudget& mem = run.memory;
  const FitResult& fit = run.fit;
  const int gpus = run.gpus();
  const ItPower power = gpu_it_power(g, gpus);
  const Energy energy = power.total * est.total * a.cost.pue;
  const double kwh = energy.value() / 3.6e6;
  const double co2 = (energy * grid::g_per_kwh(a.cost.grid_g_per_kwh)).value();
  std::string price_from;
  const auto price = gpu_hour_price(a.cost, ctx.catalog(), g, price_from);
  const double tokens_out = static_cast<double>(a.output * ic.sequences);
  std::optional<Money> per_mtok;
  if (price && est.tokens_per_second > 0) {
    const Money per_hour = *price * Duration::from_value(3600.0 * gpus);
    per_mtok = per_hour * Decimal::from_double(1e6 / (est.tokens_per_second * 3600.0), 15, "tokens");
  }

  Result r;
  Table t;
  t.title = "Serving " + m.id + " on " + std::to_string(gpus) + " x " + g.id + ": " + std::to_string(ic.sequences) + " x (" +
            std::to_string(a.prompt) + " prompt + " + std::to_string(a.output) + " output) tokens, " + std::string(ic.weights.name) + " weights";
  t.columns = {{"item", "Item", Align::left}, {"value", "Value", Align::right}, {"detail", "How", Align::left}};
  t.add_row({Cell::of_text("time to first token"), num_cell(format(est.prefill, {.significant = 3}), est.prefill.value()), Cell::of_text("prefill")});
  t.add_row({Cell::of_text("decode"), num_cell(format_number(est.tokens_per_second, 4) + " tok/s", est.tokens_per_second),
             Cell::of_text(format_number(est.tokens_per_second_per_sequence, 4) + " tok/s per sequence, bound by " + std::string(perf::name(est.decode_bound)))});
  t.add_row({Cell::of_text("total time"), num_cell(format(est.total, {.significant = 3}), est.total.value()), Cell::of_text("prefill + decode")});
  t.add_row({Cell::of_text("memory per GPU"), num_cell(bytes_text(mem.total()), mem.total().value()),
             Cell::of_text(fit_text(fit, g.capacity()))});
  t.add_row({Cell::of_text("energy"), num_cell(format_number(kwh * 1000, 4) + " Wh", kwh), Cell::of_text(power.basis + " IT power, x PUE " + format_number(a.cost.pue, 3))});
  t.add_row({Cell::of_text("carbon"), num_cell(format_number(co2 * 1000, 4) + " g CO2e", co2), Cell::of_text("")});
  t.add_row({Cell::of_text("cost per 1M output tokens"),
             per_mtok ? Cell::of_money(format(*per_mtok), to_json_string(per_mtok->rounded_to(4)), per_mtok->amount().to_double()) : Cell::empty(),
             Cell::of_text(price ? format(*price) + " per GPU from " + price_from : "no price: pass --price-per-gpu-hour")});
  t.notes.push_back("Model: " + m.id + " (" + m.source + ").");
  if (run.pp > 1) t.notes.push_back("Pipeline stages decode in turn: timed as TP " + std::to_string(run.tp) + " over the whole model.");
  t.notes.push_back(host_allowance_note());
  for (const auto& s : est.breakdown.assumptions) t.notes.push_back(s);
  r.tables.push_back(t);

  auto& j = r.json;
  j["model"] = m.id;
  j["gpu"] = g.id;
  j["plan"] = {{"gpus", gpus}, {"tp", run.tp}, {"pp", run.pp}, {"weights", std::string(ic.weights.name)}, {"kv_cache", std::string(ic.kv_cache.name)},
               {"batch", ic.sequences}, {"prompt_tokens", a.prompt}, {"output_tokens", a.output}};
  j["ttft_s"] = est.prefill.value();
  j["decode_tokens_per_s"] = est.tokens_per_second;
  j["decode_tokens_per_s_per_sequence"] = est.tokens_per_second_per_sequence;
  j["time_s"] = est.total.value();
  j["output_tokens_total"] = tokens_out;
  j["memory_per_gpu_bytes"] = mem.total().value();
  j["fits"] = fit.fits;
  j["tight"] = fit.tight;
  j["it_power_w"] = power.total.value();
  j["energy_kwh"] = kwh;
  j["co2e_kg"] = co2;
  j["cost_usd_per_million_tokens"] = per_mtok ? nlohmann::ordered_json(to_json_string(per_mtok->rounded_to(4))) : nullptr;
  j["assumptions"] = t.notes;
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
      "  capplan train --model gpt3-175b --tokens 300e9 --gpu a100-sxm-80gb --gpus 1024 --mfu 0.46 \\\n"
      "      --price-per-gpu-hour 1.5");
  add_model_gpu_flags(cmd, a->model, a->gpu);
  cmd->add_option("--tokens", a->tokens, "Tokens to train on, e.g. 1e9")->required();
  add_plan_flags(cmd, a->plan);
  cmd->get_option("--gpus")->description("Number of GPUs (required; with a plan, TP x CP x PP x DP)");
  cmd->get_option("--flash-attention")->description("FlashAttention (train always assumes it, as every framework preset does)");
  cmd->get_option("--optimizer")->description("adam (default; the only optimizer train times: others are for capplan memory)");
  add_cluster_flags(cmd, a->cluster);
  add_goodput_flags(cmd, a->goodput);
  cmd->add_option("--mfu", a->mfu, "Measured model-FLOPs utilization (overrides the performance model)");
  cmd->add_flag("--allow-tight", a->allow_tight,
                "Let the plan search return plans whose memory fit is tight (less headroom than the allocator may lose to fragmentation)");
  add_run_cost_flags(cmd, a->cost);
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
      "  capplan infer --model llama3.1-70b --gpu h100-sxm --gpus 4 --batch 32 --format json");
  add_model_gpu_flags(cmd, a->model, a->gpu);
  cmd->add_option("--gpus", a->plan.gpus, "GPUs (tensor parallel)");
  cmd->add_option("--tp", a->plan.tp, "Tensor-parallel degree");
  cmd->add_option("--batch", a->plan.batch, "Sequences served at once (default 1)");
  cmd->add_option("--weights", a->plan.weights, "Weight format (default bf16)")
      ->check(CLI::IsMember({"fp32", "bf16", "fp16", "fp8", "int8", "int4", "q8_0", "q4_0", "nf4"}));
  cmd->add_option("--kv-cache", a->plan.kv_cache, "KV-cache format (default bf16)")->check(CLI::IsMember({"fp32", "bf16", "fp16", "fp8", "int8"}));
  cmd->add_option("--prompt-tokens", a->prompt, "Prompt tokens per sequence (default 512)");
  cmd->add_option("--output-tokens", a->output, "Generated tokens per sequence (default 128)");
  add_run_cost_flags(cmd, a->cost);
  cmd->callback([a, &ctx] { write(run_infer(*a, ctx), ctx); });
}

}  // namespace capplan::cli
