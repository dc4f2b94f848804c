// capplan compare: the purchase table of plan/purchase.hpp for one workload over the catalog.
// This file only reads flags into a PurchaseQuery and writes the PurchaseTable: the text table
// (split in two so each part reads at 100 columns), Markdown, CSV, HTML (one table, with the columns
// its filters use) and JSON.
#include "args.hpp"
#include "commands.hpp"
#include "context.hpp"
#include "output.hpp"
#include "workload_args.hpp"

#include <capplan/detail/enum_names.hpp>
#include <capplan/detail/text.hpp>
#include <capplan/hardware/catalog.hpp>
#include <capplan/money/format.hpp>
#include <capplan/plan/purchase.hpp>
#include <capplan/memory/solvers.hpp>
#include <capplan/report/chart.hpp>
#include <capplan/report/cost_chart.hpp>
#include <capplan/units/parse.hpp>
#include <capplan/workload/params.hpp>

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace capplan::cli {

namespace {

// The rows the report draws one by one: the Pareto rows, then the others in the table's order, up
// to `most`, each passing `keep`.
template <class Keep>
std::vector<const PurchaseRow*> picked_rows(const PurchaseTable& pt, std::size_t most, Keep keep) {
  std::vector<const PurchaseRow*> out;
  for (int pass = 0; pass < 2; ++pass) {
    for (const PurchaseRow& r : pt.rows) {
      if (out.size() == most) return out;
      if (r.pareto == (pass == 0) && keep(r)) out.push_back(&r);
    }
  }
  return out;
}

// Ids of up to 17 characters fit the bar chart's label column; longer ones are cut to 16 and "…".
std::string short_label(const std::string& id) { return id.size() <= 17 ? id : id.substr(0, 16) + "\u2026"; }

// The HTML report's pictures beside the scatter: owning against renting by month for every row with
// a purchase price and a rent in USD (the break-even month each row's B/E column gives; the first
// four shown, the others folded under the table in `more`), and, for up to eight estimated rows, the
// memory one GPU needs, by part, against what it holds.
std::vector<std::string> row_charts(const PurchaseTable& pt, const PurchaseQuery& q, std::vector<std::string>& more) {
  std::vector<std::string> svgs;
  for (const PurchaseRow* r : picked_rows(pt, pt.rows.size(), [](const PurchaseRow&) { return true; })) {
    const auto cmp = row_cost_comparison(*r, q);
    if (!cmp) continue;
    std::string svg = render_svg(cost_chart(*cmp, "Own versus rent: " + r->option));
    (svgs.size() < 4 ? svgs : more).push_back(std::move(svg));
  }
  BarChart bars;
  bars.title = "Memory per GPU against what it holds";
  bars.unit = "GB per GPU";
  bars.unit_scale = 1e9;
  const auto budget = [](const PurchaseRow& row) -> const MemoryBudget* {
    if (row.training) return &row.training->memory;
    if (row.serving) return &row.serving->memory;
    return nullptr;
  };
  for (const PurchaseRow* r : picked_rows(pt, 8, [&](const PurchaseRow& row) { return row.estimated() && row.gpu && budget(row); })) {
    const MemoryBudget& b = *budget(*r);
    StackedBar bar;
    bar.label = short_label(r->option);
    for (const MemoryItem* i : b.items()) bar.segments.push_back({i->label, i->size.value()});
    bar.capacity = check_fit(b, r->gpu->capacity()).available.value();
    bars.bars.push_back(std::move(bar));
  }
  if (!bars.bars.empty()) svgs.push_back(render_svg(bars));
  return svgs;
}

struct CompareArgs {
  std::string model;
  std::string tokens;  // training tokens; empty with --serve
  // Image models (--model resnet50): the run's length and batch, as capplan train takes them.
  std::optional<double> epochs;
  std::string images;
  std::int64_t dataset_images = imagenet_1k_train_images;
  std::optional<std::int64_t> batch_per_gpu;
  std::optional<int> cpu_cores_per_gpu;
  std::optional<double> decode_rate;
  int steps = 50;         // --serve with a diffusion UNet: denoising steps per image
  std::string resolution;  // and its image's WIDTHxHEIGHT
  bool guidance = true;   // and classifier-free guidance
  bool vae_slicing = false;  // and its VAE decoding one image at a time
  bool vae_tiling = false;   // or in tiles
  std::string launch_time;  // --launch-time, with --serve --eager (ServingLoad::eager_launch_time)
  GivenFlags flags;  // to refuse the flags an image model does not take
  // Training: what the plan search may use.
  std::optional<std::int64_t> seq_len, global_batch, micro_batch;
  std::optional<int> zero;
  std::optional<int> etp;                        // --etp: only plans whose experts split over this many GPUs
  std::optional<std::string> cp_comm;            // --cp-comm: the K/V exchange of plans with context parallelism
  OverlapArgs overlap;                           // --overlap-grad-reduce, --overlap-param-gather for every row
  std::optional<std::string> recompute;          // absent: any
  std::optional<std::string> recompute_modules;  // --recompute-modules: selective's modules (implies selective)
  std::optional<int> mtp_layers;                 // --mtp-layers (TrainingSetup::mtp_layers)
  std::optional<int> offload_layers;  // --offload-layers: only 0, which keeps offloading out of the search
  std::string precision = "bf16";
  std::string fp8_recipe;  // --fp8-recipe; empty: delayed
  std::vector<std::string> fx;  // --fx CUR=RATE@DATE, repeatable
  FinetuneArgs finetune;
  std::optional<double> mfu;
  bool allow_tight = false;
  std::string attention_kernel;  // --attention-kernel for every row
  std::string framework;         // --framework for every row
  std::string grad_reduce;       // --grad-reduce for every row
  std::optional<double> moe_capacity_factor;  // --moe-capacity-factor for every row
  std::string moe_dispatch;                   // --moe-dispatch for every row
  ClusterArgs cluster;  // --fabric for every row
  GoodputArgs goodput;  // the whole run
  // Serving.
  PlanArgs plan;  // --serve, --batch, --context, --weights, --kv-cache
  std::optional<std::int64_t> prompt, output;
  // Prices and the grid.
  std::string electricity = "0.12";
  double pue = 1.0;
  double grid_g_per_kwh = 436;  // world average 2022 (Ember)
  double utilization = 1.0;
  int months = 60;
  std::string budget, deadline, max_power, vendor, form_factor, sort;
  bool descending = false;
  std::string kinds = "all";  // gpus, systems, cloud, all
};

Duration duration_arg(const std::string& text, std::string_view flag) {
  // A plain number is days.
  if (is_plain_number(text)) return parse<Duration>(text + " d", flag);
  return parse<Duration>(text, flag);
}

// An image model's training: epochs (or images) and the batch per GPU; the transformer's and the
// serving flags are refused, not ignored.
void image_query(const CompareArgs& a, ImageModelArg image, PurchaseQuery& q) {
  {
    const std::string why = "describes a transformer's training or serving; " + image.id + " is an image model (--epochs or --images, --batch-per-gpu)";
    a.flags.refuse(language_training_flags, why);
    a.flags.refuse({"--serve", "--batch", "--weights"}, why);
    a.flags.refuse(language_serving_flags, why);
  }
  apply_image_attention_flag(image, a.plan.flash_attention, a.flags);
  q.workload = PurchaseWorkload::train_images;
  if (a.dataset_images < 1 || static_cast<double>(a.dataset_images) > 1e15)
    detail::fail("--dataset-images", std::to_string(a.dataset_images), "must be a count from 1 to 1e15");
  if (!a.images.empty()) {
    if (a.epochs) detail::fail("--images", a.images, "and --epochs both set the run's length; give one of them");
    q.images = count_arg(a.images, "--images");
  } else {
    if (!a.epochs) detail::fail("--epochs", "\"\"", "is required for an image model (or --images): passes over the dataset");
    if (!(*a.epochs > 0 && *a.epochs <= 100000)) detail::fail("--epochs", detail::format_double(*a.epochs), "is outside (0, 100000]");
    q.images = *a.epochs * static_cast<double>(a.dataset_images);
  }
  if (a.batch_per_gpu) {
    if (*a.batch_per_gpu < 1 || *a.batch_per_gpu > 65536) detail::fail("--batch-per-gpu", std::to_string(*a.batch_per_gpu), "is outside 1 to 65,536");
    q.batch_per_gpu = *a.batch_per_gpu;
  }
  // Fewer images than one GPU's batch is less than one iteration on any option.
  if (q.images < static_cast<double>(q.batch_per_gpu))
    detail::fail(a.images.empty() ? "--epochs" : "--images", a.images.empty() ? format_number(*a.epochs, 6) : a.images,
                 "gives " + count_text(q.images) + " images, less than one iteration of one GPU (" + std::to_string(q.batch_per_gpu) +
                     " per GPU); train on more images or a smaller --batch-per-gpu");
  if (a.cpu_cores_per_gpu) {
    if (*a.cpu_cores_per_gpu < 1 || *a.cpu_cores_per_gpu > 1024)
      detail::fail("--cpu-cores-per-gpu", std::to_string(*a.cpu_cores_per_gpu), "is outside 1 to 1,024");
    q.cpu_cores_per_gpu = *a.cpu_cores_per_gpu;
  }
  if (a.decode_rate) {
    if (!(*a.decode_rate > 0 && *a.decode_rate <= 1e5))
      detail::fail("--decode-rate", detail::format_double(*a.decode_rate), "is outside (0, 100000] images per core-second");
    q.decode_rate = *a.decode_rate;
  }
  const Precision p = precision_arg(a.precision);
  if (p != Precision::bf16 && p != Precision::fp16 && p != Precision::fp32)
    detail::fail("--precision", a.precision, "is not one an image model trains at here (bf16 or fp16 with AMP, fp32)");
  q.training.precision = p;
  q.training.fabric = fabric_arg(a.cluster);
  q.training.pcie_host = pcie_host_arg(a.cluster);
  q.training.p2p = p2p_arg(a.cluster);
  q.training.host_memory_bandwidth = host_memory_arg(a.cluster);
  q.goodput = goodput_config(a.goodput);
  q.model_name = image.id;
  q.model_source = image.source;
  q.image_model = std::move(image.shape);
}

// An image model's serving (--serve): images per batch on each GPU, the precision, a diffusion UNet's
// steps and guidance; the training and the language model's serving flags are refused, not ignored.
void image_serve_query(const CompareArgs& a, ImageModelArg image, PurchaseQuery& q) {
  {
    const std::string why = "does not apply to serving " + image.id + ", an image model (--batch, --weights; a diffusion UNet's --steps, --no-guidance)";
    for (const auto list : {std::span<const char* const>(language_training_flags), std::span<const char* const>(image_training_flags),
                            std::span<const char* const>(goodput_flags), std::span<const char* const>(language_serving_flags)})
      a.flags.refuse(list, why);
    a.flags.refuse({"--precision", "--deadline", "--fabric", "--fabric-bandwidth", "--fabric-latency", "--host-memory-bandwidth"}, why);
  }
  apply_resolution(image, a.resolution);  // first: it rebuilds the UNet, which the attention flag then changes
  apply_image_attention_flag(image, a.plan.flash_attention, a.flags);
  q.workload = PurchaseWorkload::serve_images;
  if (!image.shape.is_diffusion())
    a.flags.refuse({"--steps", "--guidance", "--vae-slicing", "--vae-tiling"},
                   "applies to diffusion UNets (sd15-unet, sdxl-unet); " + image.id + " runs one forward pass per image");
  image.shape.require_vae_decoder(a.vae_slicing, a.vae_tiling, "--vae-slicing", "--vae-tiling");
  q.vae_slicing = a.vae_slicing;
  q.vae_tiling = a.vae_tiling;
  if (a.flags.has("--batch")) {
    if (a.plan.batch < 1 || a.plan.batch > 1'000'000) detail::fail("--batch", std::to_string(a.plan.batch), "must be an image count from 1 to 1,000,000");
    q.image_batch = a.plan.batch;
  }
  if (a.steps < 1 || a.steps > 10'000) detail::fail("--steps", std::to_string(a.steps), "must be a count of denoising steps from 1 to 10,000");
  q.steps = a.steps;
  q.guidance = a.guidance;
  const std::string w = a.flags.has("--weights") ? a.plan.weights : "fp16";
  std::optional<Precision> p;
  for (Precision c : {Precision::fp16, Precision::bf16, Precision::fp32, Precision::fp8, Precision::int8})
    if (name(c) == w) p = c;
  if (!p) detail::fail("--weights", "\"" + w + "\"", "is not a precision an image model runs at (fp16, bf16, fp32, fp8, int8)");
  q.image_precision = *p;
  q.serving.pcie_host = pcie_host_arg(a.cluster);
  q.serving.p2p = p2p_arg(a.cluster);
  q.model_name = image.id;
  q.model_source = image.source;
  q.image_model = std::move(image.shape);
}

// Flags -> the library's query; every error names the flag.
PurchaseQuery query_of(const CompareArgs& a) {
  PurchaseQuery q;
  std::optional<ImageModelArg> image = image_model_arg(a.model);
  if (image && !a.plan.serve) refuse_diffusion_training(*image);
  if (!image || !a.plan.serve)
    a.flags.refuse({"--steps", "--guidance", "--resolution", "--vae-slicing", "--vae-tiling"}, "applies to serving a diffusion UNet (--serve --model sd15-unet)");
  if (!image) a.flags.refuse(image_training_flags, "describes an image model's run; a transformer trains on --tokens");
  const ModelArg m = image ? ModelArg{} : model_arg(a.model);
  q.model = m.shape;
  q.model_name = m.id;
  q.model_source = m.source;
  const bool serve = a.plan.serve;
  if (!image && !serve && a.tokens.empty()) detail::fail("--tokens", "\"\"", "is required for training; or pass --serve for a serving load");
  if (a.mfu && !(*a.mfu > 0 && *a.mfu <= 1)) detail::fail("--mfu", detail::format_double(*a.mfu), "is outside (0, 1]");
  pue_arg(a.pue, "--pue");
  grid_arg(a.grid_g_per_kwh, "--grid");
  q.utilization = fraction_arg(a.utilization, "--utilization");
  months_arg(a.months, "--months");
  q.pue = a.pue;
  q.grid_g_per_kwh = a.grid_g_per_kwh;
  q.months = a.months;
  q.fx = usd_rates_arg(a.fx, "--fx");
  // A tariff or budget in another currency: converted at its --fx rate, else refused (the table ranks in USD).
  const auto usd = [&q](auto amount, std::string_view flag, std::string_view why) {
    if (const auto r = usd_rate(q.fx, amount.currency())) return convert(amount, *r);
    return in_currency(amount, Currency::USD, flag, why);
  };
  q.electricity = usd(energy_price_arg(a.electricity, Currency::USD, "--electricity"), "--electricity",
                      "the table ranks costs in USD; convert the tariff first, or pass its rate with --fx");
  if (!a.budget.empty()) {
    q.filters.budget = usd(money_arg(a.budget, Currency::USD, "--budget"), "--budget",
                           "the table ranks costs in USD; convert the budget first, or pass its rate with --fx");
  }
  if (!a.deadline.empty()) {
    q.filters.deadline = duration_arg(a.deadline, "--deadline");
    if (!(q.filters.deadline->value() > 0)) detail::fail("--deadline", "\"" + a.deadline + "\"", "must be positive");
  }
  if (!a.max_power.empty()) {
    q.filters.max_power = quantity_arg<Power>(a.max_power, "W", "--max-power");
    if (!(q.filters.max_power->value() > 0)) detail::fail("--max-power", "\"" + a.max_power + "\"", "must be positive");
  }
  if (!a.vendor.empty()) q.filters.vendor = detail::parse_enum<Vendor>(capplan::detail::lower_ascii(a.vendor), "--vendor");
  if (!a.form_factor.empty()) q.filters.form_factor = detail::parse_enum<FormFactor>(capplan::detail::lower_ascii(a.form_factor), "--form-factor");
  q.filters.gpus = a.kinds == "all" || a.kinds == "gpus";
  q.filters.systems = a.kinds == "all" || a.kinds == "systems";
  q.filters.cloud = a.kinds == "all" || a.kinds == "cloud";
  if (image && serve) {
    image_serve_query(a, std::move(*image), q);
  } else if (image) {
    image_query(a, std::move(*image), q);
  } else if (!serve) {
    q.workload = PurchaseWorkload::train;
    q.tokens = count_arg(a.tokens, "--tokens");
    TrainingSetup& s = q.training;
    s.seq_len = training_seq_len(a.seq_len, m);
    std::tie(s.finetune, s.lora) = finetune_arg(a.finetune);
    s.precision = precision_arg(a.precision);
    s.fp8_recipe = fp8_recipe_arg(a.fp8_recipe, s.precision);
    if (s.finetune == FineTune::qlora && s.precision != Precision::bf16 && s.precision != Precision::fp16)
      detail::fail("--precision", a.precision, "does not go with --finetune qlora, which computes in bf16 (or fp16) on dequantized NF4 weights");
    if (a.global_batch) {
      if (*a.global_batch < 1) detail::fail("--global-batch", std::to_string(*a.global_batch), "must be a positive count");
      s.global_batch = *a.global_batch;
    }
    if (a.micro_batch) {
      if (*a.micro_batch < 1) detail::fail("--micro-batch", std::to_string(*a.micro_batch), "must be a positive count");
      s.space.micro_batches = {*a.micro_batch};
    }
    if (a.zero) s.space.zero_stages = {static_cast<ZeroStage>(*a.zero)};
    if (a.mtp_layers) s.mtp_layers = mtp_layers_arg(*a.mtp_layers);
    if (a.offload_layers) {
      if (*a.offload_layers != 0)
        detail::fail("--offload-layers", std::to_string(*a.offload_layers),
                     "can only be 0 here, which keeps activation offloading out of every row's plan search; compare finds each row's "
                     "offloaded layers itself (train --gpu ... --offload-layers N times one plan with N)");
      s.space.offload = false;
    }
    s.measured_mfu = a.mfu;
    s.space.allow_tight = a.allow_tight;
    s.framework = framework_arg(a.framework, a.attention_kernel, a.grad_reduce);
    apply_overlap_args(a.overlap, s.framework, q.model, a.framework, a.recompute);
    if (a.zero == 0 && a.flags.has("--overlap-param-gather"))
      detail::fail("--overlap-param-gather", a.overlap.param_gather, "applies with --zero 1, 2 or 3: without ZeRO no weights are gathered");
    narrow_plan_search(s.space.expert_tensor_parallel, s.space.cp_comms, a.etp, a.cp_comm, q.model);
    check_grad_reduce(a.grad_reduce, s.framework, s.precision);
    narrow_recompute(s.space.recompute, s.space.recompute_modules, s.space.recompute_module_lists, a.recompute, a.recompute_modules, q.model, s.framework.eager);
    s.framework.moe_capacity_factor = moe_capacity_arg(a.moe_capacity_factor, q.model);
    s.framework.moe_dispatch = moe_dispatch_arg(a.moe_dispatch, q.model);
    s.fabric = fabric_arg(a.cluster);
    s.pcie_host = pcie_host_arg(a.cluster);
    s.p2p = p2p_arg(a.cluster);
    s.host_memory_bandwidth = host_memory_arg(a.cluster);
    q.goodput = goodput_config(a.goodput);
  } else {
    q.workload = PurchaseWorkload::serve;
    if (q.model.encoder)
      detail::fail("--model", a.model,
                   "is an encoder (one forward pass a request, no generated tokens): compare --serve ranks decode speed; "
                   "capplan infer --model " + m.id + " --gpu GPU --batch N times its forward passes on one GPU");
    const InferenceConfig ic = inference_config(a.plan, q.model, image ? nullptr : &m);
    q.serving.weights = ic.weights;
    q.serving.expert_weights = ic.expert_weights;
    q.serving.kv_cache = ic.kv_cache;
    q.serving.batch = ic.sequences;
    q.serving.output = a.output ? *a.output : 128;
    q.serving.cuda_graphs = a.plan.cuda_graphs;
    q.serving.eager = a.plan.eager;
    if (a.flags.has("--launch-time")) {
      if (!a.plan.eager)
        detail::fail("--launch-time", a.launch_time, "applies to --eager serving: other engines launch kernels without Python (--cuda-graphs: one graph per step)");
      q.serving.eager_launch_time = from_canonical<Duration>(launch_time_arg(a.launch_time));
    }
    q.serving.pcie_host = pcie_host_arg(a.cluster);
    q.serving.p2p = p2p_arg(a.cluster);
    q.serving.host_memory_bandwidth = host_memory_arg(a.cluster);
    q.serving.fabric = fabric_arg(a.cluster);  // between nodes where a replica's stages cross them
    if (q.serving.output < 1) detail::fail("--output-tokens", std::to_string(q.serving.output), "must be a positive count");
    // --context is prompt + output tokens; with --prompt-tokens it would say the prompt twice.
    if (a.prompt && a.plan.context) {
      detail::fail("--context", std::to_string(*a.plan.context), "and --prompt-tokens both set the prompt; give one of them");
    }
    if (a.prompt) q.serving.prompt = *a.prompt;
    else if (a.plan.context) q.serving.prompt = *a.plan.context - q.serving.output;
    else q.serving.prompt = 512;
    if (q.serving.prompt < 0) {
      detail::fail(a.prompt ? "--prompt-tokens" : "--context", std::to_string(a.prompt ? *a.prompt : *a.plan.context),
                   a.prompt ? "is negative" : "is shorter than the --output-tokens " + std::to_string(q.serving.output));
    }
  }
  return q;
}

Result run_compare(const CompareArgs& a, const Context& ctx) {
  if (a.cluster.pcie_lanes)
    detail::fail("--pcie-lanes", std::to_string(*a.cluster.pcie_lanes),
                 "sets one card's slot; compare ranks many cards on their own links (time one on x8 slots with train or infer --gpu ... --pcie-lanes)");
  const PurchaseQuery q = query_of(a);
  PurchaseTable pt = purchase_table(q, ctx.catalog());
  // What the search-narrowing flags did, where a row shows no sign of them.
  if (a.etp && std::any_of(pt.rows.begin(), pt.rows.end(), [](const PurchaseRow& r) { return r.status == "no fit"; }))
    pt.assumptions.push_back("--etp " + std::to_string(*a.etp) + " keeps only plans whose experts split over " + std::to_string(*a.etp) +
                             " GPUs (ETP x EP dividing TP x CP x DP, ETP a node's GPUs unless it spans them all): a row with no such plan reads "
                             "no fit.");
  if (a.cp_comm && q.workload == PurchaseWorkload::train &&
      std::none_of(pt.rows.begin(), pt.rows.end(), [](const PurchaseRow& r) { return r.training && r.training->plan.cp > 1; }))
    pt.assumptions.push_back("--cp-comm " + *a.cp_comm + ": no row's plan has context parallelism, so none exchanges K/V (the search tries it from " +
                             std::to_string(q.training.space.min_cp_seq) + "-token sequences with FlashAttention).");
  if (!a.sort.empty() || a.descending) {
    const std::string key = a.sort.empty() ? pt.default_sort() : a.sort;
    try {
      pt.sort_by(key, a.descending);
    } catch (const InputError& e) {
      std::string what = e.what();
      if (what.rfind("sort: ", 0) == 0) what = what.substr(6);
      throw InputError("--sort", key, "--sort: " + what);
    }
  }
  Result res;
  res.json = to_json(pt.output());
  for (const auto& r : pt.rows) {
    if (!r.explanation.empty()) res.explanation.push_back(r.explanation);
  }
  // Text: two tables, so each reads at 100 columns; other formats: one table.
  if (ctx.format() == OutputFormat::table) res.tables = pt.terminal_tables();
  else if (ctx.format() == OutputFormat::html) res.tables.push_back(pt.html_table());
  else res.tables.push_back(pt.table());
  if (ctx.format() == OutputFormat::html) {
    // Price against time (training) or speed (serving), the Pareto frontier marked; from the one
    // table the page shows (HTML is not the text format's two tables).
    const Table& t = res.tables.back();
    const bool images = pt.serves_images();
    ScatterChart chart = a.plan.serve ? scatter_chart(t, images ? "images_per_h" : "decode_tokens_per_s", {"own_cost_usd"}, "option")
                                      : scatter_chart(t, "time_s", {"own_cost_usd", "rent_cost_usd"}, "option");
    chart.title = !a.plan.serve ? "Price against training time" : images ? "Purchase price against images per hour" : "Purchase price against decode speed";
    chart.x_label = !a.plan.serve ? "Training time, s (log scale)" : images ? "Images per hour (log scale)" : "Decode tokens/s (log scale)";
    chart.y_label = a.plan.serve ? "Purchase, USD (log scale)" : "Own: purchase; rent: the run; USD (log)";
    chart.log_x = true;
    chart.log_y = true;
    res.charts.push_back(render_svg(chart));
    for (std::string& svg : row_charts(pt, q, res.more_charts)) res.charts.push_back(std::move(svg));
    res.more_title = "Own versus rent, every other row with a price and a rent";
  }
  // What the rows' prices rest on: each row's GPU or system (its purchase price) or cloud offer, and
  // the offer its rent comes from; the catalog's warnings about them, judged on --today.
  std::vector<std::string> entries;
  for (const auto& r : pt.rows) {
    entries.push_back((r.kind == OptionKind::gpu ? "gpu " : r.kind == OptionKind::system ? "system " : "cloud offer ") + r.option);
    if (!r.rent_offer.empty() && r.rent_rate) entries.push_back("cloud offer " + r.rent_offer);
  }
  std::vector<std::string> warning_notes;
  res.json["warnings"] = entry_warnings(ctx, entries, warning_notes);
  if (!a.plan.serve && q.workload == PurchaseWorkload::train) {
    // The defaults a training row depends on, said where the rows are.
    const ModelArg m = model_arg(a.model);
    res.tables.back().notes.push_back(seq_len_note(a.seq_len, m));
    const std::string tuning = finetune_text(q.training.finetune, q.training.lora, q.model);
    if (!tuning.empty()) res.tables.back().notes.push_back(tuning + ": the base weights frozen, the adapters trained (docs/performance-model.md).");
    if (std::string n = qlora_recompute_note(q.training.finetune, Recompute::none, a.recompute || a.recompute_modules); !n.empty())
      res.tables.back().notes.push_back(std::move(n));
  } else if (a.plan.serve && !image_model_arg(a.model)) {
    if (std::string w = released_weights_note(a.plan, model_arg(a.model)); !w.empty()) res.tables.back().notes.push_back(std::move(w));
  }
  for (std::string& w : warning_notes) res.tables.back().notes.push_back(std::move(w));
  return res;
}

}  // namespace

void add_compare(CLI::App& app, Context& ctx) {
  auto a = std::make_shared<CompareArgs>();
  auto* cmd = app.add_subcommand("compare", "Purchase table: every catalog GPU, system and cloud offer for one workload");
  cmd->footer(
      "Examples:\n"
      "  capplan compare --model llama2-7b --tokens 1e9\n"
      "  capplan compare --model resnet50 --epochs 90 --only gpus\n"
      "  capplan compare --serve --model sd15-unet --batch 4 --steps 30 --only gpus\n"
      "  capplan compare --model llama2-7b --tokens 2e12 --deadline 30d --only systems --sort own_cost_usd\n"
      "  capplan compare --serve --model deepseek-r1-distill-qwen-32b --weights q4_0 --batch 4 \\\n"
      "      --prompt-tokens 1000 --output-tokens 500\n"
      "  capplan compare --model llama3.1-8b --tokens 1e10 --vendor nvidia --form-factor consumer \\\n"
      "      --format csv\n"
      "  capplan compare --model llama2-7b --tokens 1e9 --mfu 0.4 --pue 1.1 --grid 385 --electricity 0.15\n"
      "Columns to --sort by: option kind gpus time_s own_cost_usd rent_cost_usd break_even_month\n"
      "  energy_kwh co2e_kg memory_per_gpu_bytes usd_per_tflop usd_per_gb tflop_per_w\n"
      "  (serving: decode_tokens_per_s rent_usd_per_h rent_usd_per_mtok energy_kwh_per_day co2e_kg_per_day;\n"
      "  an image model's: images_per_h rent_usd_per_kimage)");
  cmd->add_option("--model", a->model, "Model preset id (e.g. llama2-7b) or a JSON model file")->required();
  cmd->add_option("--tokens", a->tokens, "Training tokens, e.g. 1e9 or 1B (K, M, B, T: thousand to trillion) (training)");
  cmd->add_option("--seq-len", a->seq_len, "Training sequence length (default: the model's pre-training length)");
  cmd->add_option("--global-batch", a->global_batch, "Sequences per iteration (default: about 4M tokens)");
  cmd->add_option("--micro-batch", a->micro_batch, "Only plans with this micro-batch (default: any)");
  cmd->add_option("--zero", a->zero, "Only plans with this ZeRO stage (default: any)")->check(CLI::IsMember({0, 1, 2, 3}));
  cmd->add_option("--etp", a->etp, "MoE: only plans whose routed experts split over this many GPUs (default: as TP or 1, whichever is faster)");
  cmd->add_option("--cp-comm", a->cp_comm,
                  "Only this K/V exchange in plans with context parallelism: p2p, all_gather, a2a, a2a+p2p (default: any; the "
                  "search tries CP for sequences of 8,192 tokens or more)");
  add_overlap_flags(cmd, a->overlap);
  cmd->add_option("--offload-layers", a->offload_layers,
                  "0: no activation offloading in any row's plan (the search otherwise tries it on Grace superchips under "
                  "--framework megatron-core)");
  cmd->add_option("--recompute", a->recompute, "Only plans with this recomputation (default: any)")
      ->check(CLI::IsMember({"none", "selective", "full"}));
  add_recompute_modules_flag(cmd, a->recompute_modules);
  add_mtp_layers_flag(cmd, a->mtp_layers, false);
  add_precision_flags(cmd, a->precision, a->fp8_recipe);
  add_finetune_flags(cmd, a->finetune);
  add_cluster_flags(cmd, a->cluster, false);
  add_goodput_flags(cmd, a->goodput);
  cmd->add_option("--mfu", a->mfu, "Measured MFU: iteration time from it instead of the kernel model");
  cmd->add_flag("--allow-tight", a->allow_tight, "Training: let plans whose memory fit is tight count as fitting");
  add_attention_kernel_flag(cmd, a->attention_kernel);
  add_framework_flag(cmd, a->framework, a->grad_reduce);
  add_moe_capacity_flag(cmd, a->moe_capacity_factor);
  add_moe_dispatch_flag(cmd, a->moe_dispatch);
  add_serve_flags(cmd, a->plan, true);
  add_cuda_graphs_flag(cmd, a->plan.cuda_graphs);
  add_eager_flag(cmd, a->plan.eager);
  add_eager_launch_time_flag(cmd, a->launch_time);
  cmd->get_option("--serve")->description("Rank for a serving load instead of training");
  cmd->get_option("--context")->description("Serving: tokens per sequence, prompt + output (default 512 + 128)");
  cmd->add_option("--prompt-tokens", a->prompt, "Serving: prompt tokens per sequence (default 512)");
  cmd->add_option("--output-tokens", a->output, "Serving: generated tokens per sequence (default 128)");
  cmd->add_option("--electricity", a->electricity, "Electricity price per kWh in USD (default 0.12)");
  cmd->add_option("--fx", a->fx,
                  "Exchange rate CUR=RATE@DATE (one USD in CUR, e.g. CNY=7.2@2026-11-01; repeatable): prices, offers, tariff and "
                  "budget in CUR converted to USD and ranked with the rest")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--pue", a->pue, "Power usage effectiveness (default 1.0)");
  cmd->add_option("--grid", a->grid_g_per_kwh, "Grid carbon intensity in g CO2e/kWh (default 436, world 2022)");
  cmd->add_option("--utilization", a->utilization, "Busy share of owned hardware for break-even (default 1)");
  cmd->add_option("--months", a->months, "Break-even horizon in months (default 60)");
  cmd->add_option("--budget", a->budget, "Keep options whose cost to own or to rent is within this (USD)");
  cmd->add_option("--deadline", a->deadline, "Training: the fewest GPUs that finish in time (days, or '720 h')");
  cmd->add_option("--max-power", a->max_power, "Keep options whose IT power (GPUs and hosts) is at most this (W)");
  cmd->add_option("--vendor", a->vendor, "Keep one vendor: nvidia, amd, intel, apple, google, aws");
  cmd->add_option("--form-factor", a->form_factor, "Keep one form factor: sxm, oam, pcie, consumer, soc, cloud (rent-only: TPUs, Trainium)");
  cmd->add_option("--only", a->kinds, "Rows: all (default), gpus, systems, cloud")->check(CLI::IsMember({"all", "gpus", "systems", "cloud"}));
  cmd->add_option("--sort", a->sort, "Sort by a column key or header (default: time; serving: $/Mtok, or $/1k img for an image model)");
  cmd->add_flag("--descending", a->descending, "Sort in descending order");
  cmd->add_option("--epochs", a->epochs, "Image model: passes over the dataset (e.g. 90)");
  cmd->add_option("--images", a->images, "Image model: images in all, instead of --epochs");
  cmd->add_option("--dataset-images", a->dataset_images, "Image model: images in the dataset (default 1,281,167: ImageNet-1k)");
  cmd->add_option("--batch-per-gpu", a->batch_per_gpu, "Image model: images per GPU per iteration (default 256; cut to what fits)");
  cmd->add_option("--cpu-cores-per-gpu", a->cpu_cores_per_gpu, "Image model: CPU cores decoding images for each GPU (default 16)");
  cmd->add_option("--decode-rate", a->decode_rate, "Image model: images one core decodes and augments per second (default 120)");
  cmd->add_option("--steps", a->steps, "Serving a diffusion UNet (sd15-unet, sdxl-unet): denoising steps per image (default 50)");
  cmd->add_option("--resolution", a->resolution, "Serving a diffusion UNet: the image's WIDTHxHEIGHT, e.g. 832x1216 (default: the model's own)");
  cmd->add_flag("--guidance,!--no-guidance", a->guidance,
                "Serving a diffusion UNet: classifier-free guidance, two latents per image and step (default); --no-guidance: one");
  cmd->add_flag("--vae-slicing", a->vae_slicing, "Serving a diffusion UNet: the VAE decodes one image at a time (diffusers' enable_vae_slicing)");
  cmd->add_flag("--vae-tiling", a->vae_tiling,
                "Serving a diffusion UNet: the VAE decodes in tiles of its sample size (diffusers' enable_vae_tiling): less memory, more time");
  if (!cmd->get_option_no_throw("--flash-attention"))
    cmd->add_flag("--flash-attention,!--no-flash-attention", a->plan.flash_attention,
                  "Image models with attention (vit-b16): one fused attention kernel (default); --no-flash-attention: separate kernels");
  separate_serve_flags(cmd);
  a->flags.cmd = cmd;
  cmd->callback([a, &ctx] { write(run_compare(*a, ctx), ctx); });
}

}  // namespace capplan::cli
