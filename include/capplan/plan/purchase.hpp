// The purchase table: for one workload (a model and the tokens to train or fine-tune it on, or a
// serving load), every GPU, system and cloud offer of a catalog ranked, with GPUs needed, the plan,
// time or throughput, cost to own and to rent, break-even month, energy, carbon and value per GPU;
// filters, sorting, the Pareto frontier of price, speed and memory, and the assumptions and sources.
//
//   PurchaseQuery q;
//   q.model = find_model("llama2-7b").transformer();  q.model_name = "llama2-7b";  q.tokens = 1e9;
//   PurchaseTable t = purchase_table(q, Catalog::builtin());
//   t.rows[0].time;  t.rows[0].own_cost;  t.table();   // report::Table: render(t.table(), OutputFormat::markdown)
//
// How each row is found:
//   training  the fewest GPUs (whole systems or instances) on which a plan fits; with a deadline, the
//             fewest that finish in time (plan/training_run.hpp); time from the fastest plan the
//             search finds on that many GPUs (perf/plan_search.hpp), the same as `capplan train`.
//   serving   the fewest GPUs that hold the weights, KV cache and workspace (TP, then PP); extra
//             GPUs of a whole unit serve more replicas, or, where they leave GPUs over, one replica on
//             all of them where that serves more; decode and time to first token from
//             perf/inference.hpp (plan/serving_run.hpp), the same as `capplan infer`.
//   power     plan/it_power.hpp: a system's parts through its PSU; a GPU or an instance, an allowance.
//   own       purchase (street, else launch price; systems: given or the sum of their parts)
//             + electricity for the run (training); rent: the cheapest bill for the run among the
//             GPU's offers (plan/run_footprint.hpp cheapest_rent; serving: per GPU-hour), in USD.
//   break-even cost/compare.hpp: owning (purchase + electricity at the utilization) against renting.
#pragma once

#include "capplan/detail/enum_names.hpp"
#include "capplan/detail/text.hpp"
#include "capplan/compute/flops.hpp"
#include "capplan/cost/compare.hpp"
#include "capplan/error.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/hardware/gpu_slots.hpp"
#include "capplan/hardware/host_memory.hpp"
#include "capplan/memory/image_model.hpp"
#include "capplan/money/format.hpp"
#include "capplan/perf/image_model.hpp"
#include "capplan/power/carbon.hpp"
#include "capplan/plan/goodput.hpp"
#include "capplan/plan/it_power.hpp"
#include "capplan/plan/run_footprint.hpp"
#include "capplan/report/money_value.hpp"
#include "capplan/report/pareto.hpp"
#include "capplan/report/plan_output.hpp"
#include "capplan/plan/serving_run.hpp"
#include "capplan/report/table.hpp"
#include "capplan/report/value.hpp"
#include "capplan/plan/training_run.hpp"
#include "capplan/units/format.hpp"
#include "capplan/workload/params.hpp"

#include <boost/describe/enum.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capplan {

// train: a transformer on tokens; serve: a serving load; train_images: an image model (a CNN, a ViT)
// on images, data parallel (perf/image_model.hpp), as `capplan train --model resnet50` runs it;
// serve_images: an image model making images (classifying them, or a diffusion UNet generating them),
// each GPU on its own batches, as `capplan infer --model sd15-unet` times it.
enum class PurchaseWorkload { train, serve, train_images, serve_images };
BOOST_DESCRIBE_ENUM(PurchaseWorkload, train, serve, train_images, serve_images)
enum class OptionKind { gpu, system, cloud };
BOOST_DESCRIBE_ENUM(OptionKind, gpu, system, cloud)

inline constexpr std::string_view name(OptionKind k) { return detail::enum_name(k); }

struct PurchaseFilters {
  std::optional<Money> budget;        // own or rent within it (serving: purchase, or a month of rent billed as sold)
  std::optional<Duration> deadline;   // training: GPUs raised until the run finishes in time
  std::optional<Power> max_power;     // IT power of the option (GPUs and hosts)
  std::optional<Vendor> vendor;
  std::optional<FormFactor> form_factor;
  bool gpus = true, systems = true, cloud = true;  // which kinds of rows
};

struct PurchaseQuery {
  TransformerShape model;
  std::string model_name;    // shown in the title
  std::string model_source;  // cited under the table
  PurchaseWorkload workload = PurchaseWorkload::train;
  double tokens = 0;         // training tokens
  TrainingSetup training;    // precision, sequence length, batch, MFU, framework, search space
  GoodputConfig goodput;     // training: failures, restarts and checkpoints of the whole run
  ServingLoad serving;
  // Image-model training (train_images): the layer-level model, the images in all (epochs x the
  // dataset), images per GPU per iteration (cut to the largest that fits a GPU), the CPU cores per
  // GPU that decode JPEGs (perf/data_loading.hpp; one NVMe drive per node).
  std::optional<ImageModel> image_model;
  double images = 0;
  std::int64_t batch_per_gpu = 256;
  int cpu_cores_per_gpu = 16;
  double decode_rate = 120;  // images one core decodes and augments per second
  // Image-model serving (serve_images): images per batch on each GPU (0: 64, or 1 for a diffusion
  // UNet), the precision it runs at, and a diffusion UNet's denoising steps and classifier-free
  // guidance (two latents per image and step).
  std::int64_t image_batch = 0;
  Precision image_precision = Precision::fp16;
  int steps = 50;
  bool guidance = true;
  // serve_images, a diffusion UNet: the VAE decodes one image at a time (diffusers'
  // enable_vae_slicing) or in tiles (enable_vae_tiling), as `capplan infer` takes them.
  bool vae_slicing = false;
  bool vae_tiling = false;
  PurchaseFilters filters;

  // serve_images: whether the model is a diffusion UNet, and the images per batch it is served at.
  [[nodiscard]] bool diffusion() const { return image_model && image_model->is_diffusion(); }
  [[nodiscard]] std::int64_t served_image_batch() const { return image_batch > 0 ? image_batch : diffusion() ? 1 : 64; }
  EnergyPrice electricity{Decimal::parse("0.12", "electricity"), Currency::USD};
  double pue = 1.0;
  double grid_g_per_kwh = 436;  // world average 2022 (Ember, Global Electricity Review 2023)
  double utilization = 1.0;     // busy share of owned hardware, for the break-even month
  int months = 60;              // break-even horizon
  HostAllowance host;
  // Rates into USD (ExchangeRate{CNY, USD, ...}): prices and offers in those currencies are converted
  // and ranked with the rest (rent, break-even); without a rate they are shown in their own currency.
  std::vector<ExchangeRate> fx;

  void validate() const {
    if (workload == PurchaseWorkload::serve_images) {
      if (!image_model) detail::fail("image_model", "none", "is required for serve_images (an image model's layers)");
      image_model->validate();
      if (image_batch < 0 || image_batch > 1'000'000) detail::fail("image_batch", std::to_string(image_batch), "is outside 0..1,000,000 (0: the default)");
      if (steps < 1 || steps > 10'000) detail::fail("steps", std::to_string(steps), "is outside 1..10,000 denoising steps");
      validate_image_inference_precision(image_precision, "image_precision");
      if (filters.deadline) detail::fail("deadline", "given", "applies to training, not serving");
      image_model->require_vae_decoder(vae_slicing, vae_tiling);
    } else if (workload == PurchaseWorkload::train_images) {
      if (!image_model) detail::fail("image_model", "none", "is required for train_images (an image model's layers)");
      image_model->validate();
      require_finite(images, "images");
      if (!(images > 0) || images > 1e18) detail::fail("images", detail::format_double(images), "must be in (0, 1e18]");
      if (batch_per_gpu < 1 || batch_per_gpu > 65'536) detail::fail("batch_per_gpu", std::to_string(batch_per_gpu), "is outside 1..65536");
      if (cpu_cores_per_gpu < 1 || cpu_cores_per_gpu > 1'024) detail::fail("cpu_cores_per_gpu", std::to_string(cpu_cores_per_gpu), "is outside 1..1024");
      require_finite(decode_rate, "decode_rate");
      if (!(decode_rate > 0 && decode_rate <= 1e5)) detail::fail("decode_rate", detail::format_double(decode_rate), "is outside (0, 100000] images per core-second");
      if (training.precision != Precision::bf16 && training.precision != Precision::fp16 && training.precision != Precision::fp32)
        detail::fail("precision", std::string(name(training.precision)), "is not one an image model trains at here (bf16 or fp16 with AMP, fp32)");
    } else {
      model.validate();
    }
    // A training row's whole run: a bad config is an error, not a "no finish" on every row.
    if (workload == PurchaseWorkload::train || workload == PurchaseWorkload::train_images) goodput.validate();
    if (workload != PurchaseWorkload::serve_images) {
      if (vae_slicing) detail::fail("vae_slicing", "true", "applies to serving a diffusion UNet (serve_images)");
      if (vae_tiling) detail::fail("vae_tiling", "true", "applies to serving a diffusion UNet (serve_images)");
    }
    if (workload == PurchaseWorkload::train) {
      require_finite(tokens, "tokens");
      if (!(tokens > 0)) detail::fail("tokens", detail::format_double(tokens), "must be > 0 for training");
      if (tokens > 1e18) detail::fail("tokens", detail::format_double(tokens), "is absurdly large (more than 1e18)");
      if (training.measured_mfu && !(*training.measured_mfu > 0 && *training.measured_mfu <= 1))
        detail::fail("mfu", detail::format_double(*training.measured_mfu), "is outside (0, 1]");
      validate_training_precision(training.precision);  // else every row would read "no fit"
    } else if (workload == PurchaseWorkload::serve) {
      serving.validate();
      if (filters.deadline) detail::fail("deadline", "given", "applies to training, not serving");
    }
    perf::require_host_memory_bandwidth(training.host_memory_bandwidth);
    perf::require_host_memory_bandwidth(serving.host_memory_bandwidth);
    require_pue(pue, "pue");
    if (pue > 3) detail::fail("pue", detail::format_double(pue), "is outside [1, 3]");
    require_finite(grid_g_per_kwh, "grid");
    if (grid_g_per_kwh < 0 || grid_g_per_kwh > 2000) detail::fail("grid", detail::format_double(grid_g_per_kwh), "is outside [0, 2000] g/kWh");
    require_fraction(utilization, "utilization");
    if (months < 1 || months > 240) detail::fail("months", std::to_string(months), "is outside 1..240");
    require_nonnegative(electricity, "electricity");
    validate_usd_rates(fx);
    if (filters.deadline && !(filters.deadline->value() > 0)) detail::fail("deadline", detail::format_double(filters.deadline->value()), "must be > 0");
    if (filters.max_power && !(filters.max_power->value() > 0)) detail::fail("max_power", detail::format_double(filters.max_power->value()), "must be > 0");
    host.validate();
  }
};

struct PurchaseRow {
  std::string option;              // GPU, system or offer id
  OptionKind kind = OptionKind::gpu;
  const GpuSpec* gpu = nullptr;    // into the catalog passed to purchase_table: keep it alive
  std::string gpu_id;
  std::string status;              // empty when estimated; else why not: "no fit", "no network", "no rate", "no finish"
  int unit_gpus = 1;               // GPUs per unit bought or rented
  int units = 0;
  int gpus = 0;                    // units x unit_gpus
  int gpus_to_fit = 0;             // the fewest that fit (training: before the deadline)
  bool deadline_sized = false;     // GPUs raised to meet the deadline
  // Training.
  std::optional<TrainingRun> training;
  Duration time{};                 // iterations only
  std::optional<GoodputEstimate> goodput;  // the whole run; absent when it could not finish (plan/goodput.hpp)
  // Rows whose default batch grew with the GPUs to twice ~4M tokens or more (default_batch_oversized):
  // the batch model-parallel replicas keep under twice that on the same GPUs (model_parallel_batch, 0
  // elsewhere), the plan search's best at it on the row's nodes and network (absent where no layout of
  // the GPUs divides it, kept_batch_plans 0, or no plan fits), its iterations for the same tokens, and
  // whether its whole run (failures and checkpoints) misses the query's deadline.
  std::int64_t kept_batch = 0;
  std::optional<TrainingRun> kept_batch_run;
  std::size_t kept_batch_plans = 0;  // the plans timed at the kept batch (0: no layout of the GPUs divides it)
  Duration kept_batch_time{};
  bool kept_batch_late = false;
  // Image-model training: the estimate and the batch per GPU it ran at.
  std::optional<perf::ImageTrainingEstimate> image;
  std::int64_t batch_per_gpu = 0;
  // Serving.
  std::optional<ServingRun> serving;
  int replicas = 0;
  double decode_tokens_per_s = 0;  // all replicas
  // Money.
  std::optional<Money> purchase;   // units x unit price
  std::string purchase_source;
  std::optional<Money> electricity_cost;  // training: for the run
  std::optional<Money> own_cost;   // training: purchase + electricity; serving: purchase
  // The high end where the catalog's price is a range (street prices vary): purchase and own cost
  // at it; `purchase` and `own_cost` are the low end, which ranks the row.
  std::optional<Money> purchase_high;
  std::optional<Money> own_cost_high;
  std::optional<MoneyRate> rent_rate;  // all units, in whole instances of the offer where it sells GPUs in them
  int rent_billed_gpus = 0;            // training GPU and system rows: the GPUs the rent bills (whole instances); 0: the row's
  std::string rent_from;
  std::string rent_offer;              // the cloud offer's id rent_rate comes from
  PriceKind rent_kind = PriceKind::on_demand;   // which of its prices rent_rate is
  std::optional<Duration> rent_min_term;        // that offer's minimum term (CloudOffer::min_term)
  // GPU and system rows: the GPUs an instance of the offer had to hold (the node the row was timed on,
  // a serving replica's TP group; cheapest_rent's node_gpus); 0: any instance.
  int rent_node_gpus = 0;
  // Training GPU and system rows across nodes: the rate per GPU (bandwidth x efficiency) the row's
  // traffic between nodes is timed at, which the offer's instances had to carry (cheapest_rent's
  // network); 0: one node, none asked.
  Bandwidth rent_network{};
  Duration rent_billed{};          // training: the wall clock the rent bills (whole months, a reserved term)
  std::optional<Money> rent_cost;  // training: rent for the run, rent_rate x rent_billed
  std::optional<double> rent_usd_per_mtok;  // serving
  // Image serving: one batch's forward (a diffusion UNet's denoising step), a batch's whole time, and
  // images per second over all the unit's GPUs; rent per thousand images.
  std::optional<perf::ImageInferenceEstimate> image_inference;
  std::optional<perf::ImageInferenceEstimate> image_decode;  // a diffusion pipeline's VAE decode, once per batch
  DataSize image_memory{};  // per GPU: weights, the larger of a step's and the decode's activations, reserve
  double text_encode_s = 0;  // a diffusion pipeline's text encoders, once per batch (0: not timed)
  double seconds_per_batch = 0;
  double images_per_s = 0;
  std::optional<double> rent_usd_per_kimage;
  std::optional<int> break_even_month;
  bool break_even_checked = false; // both sides known in USD: absent month means "not within the horizon"
  std::optional<int> break_even_month_high;  // at the high end of a price range (later, or not within the horizon)
  // Power, energy, carbon (serving: per day of use).
  ItPower power;
  Energy energy{};
  double co2e_kg = 0;
  // Value per GPU.
  DataSize gpu_memory{};
  std::optional<double> usd_per_tflop, usd_per_gb, tflop_per_w;
  bool pareto = false;
  std::string explanation;

  [[nodiscard]] bool estimated() const { return status.empty(); }

  // No offer behind the rent: its offer, source, kind and term cleared (a row the node rule left
  // without a rent names no offer in its warnings or JSON).
  void clear_rent() {
    rent_from.clear();
    rent_offer.clear();
    rent_kind = PriceKind::on_demand;
    rent_min_term.reset();
  }

  // The wall clock the rent bills for `wall` of use (capplan::billed_time): whole months for a
  // monthly rental, at least the term for a reserved price (whole days for a Capacity Block); `wall` itself for an hourly price or a
  // reserved one whose term is not stated (a cloud row's; the note says so).
  [[nodiscard]] Duration rent_billed_for(Duration wall) const {
    return rent_kind == PriceKind::reserved && !rent_min_term ? wall : billed_time(rent_kind, rent_min_term, wall, rent_offer);
  }
};

namespace detail {

inline std::optional<FlopRate> tensor_rate(const GpuSpec& g) {
  if (auto r = g.dense.at(Precision::bf16)) return r;
  return g.dense.at(Precision::fp16);
}

inline std::optional<PricePoint> gpu_price(const GpuSpec& g) {
  if (g.street_price) return g.street_price;
  return g.launch_price;
}

inline std::string count_text(double v) {
  if (std::fabs(v) >= 1e12) return format_number(v / 1e12, 4) + "T";
  if (std::fabs(v) >= 1e9) return format_number(v / 1e9, 4) + "B";
  if (std::fabs(v) >= 1e6) return format_number(v / 1e6, 4) + "M";
  return format_number(v, 4);
}

inline Cell money_cell(const std::optional<Money>& m, const std::string& missing) {
  if (!m) return Cell::of_text(missing);
  const Money r = m->rounded_to(2);
  // A price in another currency is shown with its currency code: the columns (own_cost_usd, ...) hold
  // USD, and no conversion is assumed; machine forms give it columns of its own (machine_table).
  if (m->currency() != Currency::USD) return Cell::of_other_currency(format(*m, {.style = MoneyStyle::code}), to_json_string(r), std::string(code(m->currency())));
  return Cell::of_money(format(*m, {.decimals = 0}), to_json_string(r), r.amount().to_double());
}

// The break-even month: "12"; "> 60" when not within the horizon; across a price range "12–15", or
// "12 to > 60" when the high end does not break even within it. The low end's month is the value.
inline Cell break_even_cell(const PurchaseRow& r, int months) {
  if (!r.break_even_checked) return Cell::empty();
  const std::string never = "> " + std::to_string(months);
  const auto text = [&](const std::optional<int>& m) { return m ? std::to_string(*m) : never; };
  std::string t = text(r.break_even_month);
  if (r.purchase_high && r.break_even_month_high != r.break_even_month) t += (r.break_even_month_high ? "\u2013" : " to ") + text(r.break_even_month_high);
  if (!r.break_even_month) return Cell::of_text(t);
  return Cell::of_number(t, *r.break_even_month);
}

// A price range as a range: "$25,042–30,042" (the low end is the cell's value, which sorts and ranks).
inline Cell range_cell(const std::optional<Money>& low, const std::optional<Money>& high, const std::string& missing) {
  Cell c = money_cell(low, missing);
  if (!low || !high || *high == *low) return c;
  if (low->currency() != Currency::USD || high->currency() != Currency::USD) {
    // Another currency: "56000–60000 EUR", whole units as the USD ranges (a range is never shown as its
    // low end alone).
    const std::string lo = format(*low, {.style = MoneyStyle::code, .decimals = 0}), hi = format(*high, {.style = MoneyStyle::code, .decimals = 0});
    const auto cut = lo.rfind(' ');
    if (low->currency() == high->currency() && cut != std::string::npos) c.text = lo.substr(0, cut) + "\u2013" + hi;
    else c.text = lo + " \u2013 " + hi;
    return c;
  }
  std::string hi = format(*high, {.decimals = 0});
  if (!hi.empty() && hi.front() == '$') hi.erase(0, 1);
  c.text += "\u2013" + hi;
  return c;
}


struct Candidate {
  std::string id;
  OptionKind kind = OptionKind::gpu;
  const GpuSpec* gpu = nullptr;
  const SystemSpec* system = nullptr;
  int unit_gpus = 1;
  int per_node = 8;
  std::optional<perf::Fabric> fabric;  // a system's own NICs, a cloud offer's network; absent: what a host of the GPU usually has
  // A system's host DRAM from its CPUs and DIMMs (hardware/host_memory.hpp), B/s, which its GPUs share
  // through host memory; 0: the query's, else assumed (perf::assumed_host_memory_bandwidth).
  double host_memory_bandwidth = 0;
  // A system's GPU as its slots run it (hardware/gpu_slots.hpp: two cards x8/x8 on a desktop CPU),
  // where that is narrower than the card's own link; absent: the card as the catalog has it.
  std::optional<GpuSpec> in_slots;
  // The GPU the row is timed on.
  [[nodiscard]] const GpuSpec& timed_gpu() const { return in_slots ? *in_slots : *gpu; }
  std::optional<Money> unit_price;
  std::optional<Money> unit_price_high;  // the high end of a price range
  std::string price_source;
  std::optional<MoneyRate> unit_rent;
  std::string rent_from;
  std::string rent_offer;  // the cloud offer's id unit_rent comes from
  const CloudOffer* offer = nullptr;  // that offer
  PriceKind rent_kind = PriceKind::on_demand;
};

// `m` in USD where `fx` has a rate for its currency (`via` names the rate), else as it is.
template <class D>
BasicMoney<D> in_usd(const BasicMoney<D>& m, const std::vector<ExchangeRate>& fx, std::string* via = nullptr) {
  const auto r = usd_rate(fx, m.currency());
  if (!r) return m;
  if (via) *via = ", converted at " + usd_rate_text(*r);
  return convert(m, *r);
}

inline std::vector<Candidate> candidates(const Catalog& cat, const PurchaseFilters& f, const std::vector<ExchangeRate>& fx = {}) {
  std::vector<Candidate> out;
  if (f.gpus) {
    for (const auto& g : cat.gpus()) {
      Candidate c;
      c.id = g.id;
      c.kind = OptionKind::gpu;
      c.gpu = &g;
      c.per_node = perf::usual_gpus_per_node(g);  // an HGX/DGX board's 8, an NVL72 rack's 72
      if (auto p = gpu_price(g)) {
        // An SXM or OAM module is bought on its baseboard, not alone (hardware/gpu.hpp purchase_unit_gpus):
        // a row that can be bought steps in whole boards (4 H100 SXM, 8 MI300X), priced per board.
        c.unit_gpus = purchase_unit_gpus(g);
        const Decimal board(c.unit_gpus);
        std::string via;
        c.unit_price = in_usd(p->amount, fx, &via) * board;
        if (p->high && *p->high != p->amount) c.unit_price_high = in_usd(*p->high, fx) * board;
        c.price_source = (g.street_price ? "street price " : "launch price ") + p->as_of + via +
                         (c.unit_gpus > 1 ? ", a board of " + std::to_string(c.unit_gpus) : std::string());
      }
      if (auto r = cheapest_rent(cat, g.id, fx)) {
        c.unit_rent = r->per_gpu_hour * Decimal(c.unit_gpus);
        c.rent_from = r->source();
        c.rent_offer = r->offer->id;
        c.offer = r->offer;
        c.rent_kind = r->kind;
      }
      out.push_back(std::move(c));
    }
  }
  if (f.systems) {
    for (const auto& s : cat.systems()) {
      Candidate c;
      c.id = s.id;
      c.kind = OptionKind::system;
      c.gpu = &cat.find_gpu(s.gpu_id());
      c.system = &s;
      c.unit_gpus = s.total_gpus();
      c.per_node = std::max(1, s.gpus_per_node());
      c.host_memory_bandwidth = host_memory(s, cat).bandwidth.value();
      if (const GpuSlots slots = gpu_slots(s, cat); slots.narrowed) c.in_slots = slots.apply(*c.gpu);
      // Between nodes (and between units bought): the system's network adapters, all ports.
      for (const auto& p : s.parts) {
        if (p.kind != PartKind::network) continue;
        const perf::Fabric nf = perf::nic_fabric(cat.find_network_adapter(p.id), p.count, c.per_node);
        if (!c.fabric || nf.per_gpu(c.per_node).value() > c.fabric->per_gpu(c.per_node).value()) c.fabric = nf;
      }
      const SystemPrice sp = cat.system_price(s);
      std::string via;
      if (sp.low) c.unit_price = in_usd(*sp.low, fx, &via);
      if (sp.low && sp.high && *sp.high != *sp.low) c.unit_price_high = in_usd(*sp.high, fx);
      if (sp.low) c.price_source = std::string(sp.given ? "given price " : "sum of part prices ") + sp.as_of + via;
      if (auto r = cheapest_rent(cat, c.gpu->id, fx)) {
        c.unit_rent = r->per_gpu_hour * Decimal(s.total_gpus());
        c.rent_from = r->source();
        c.rent_offer = r->offer->id;
        c.offer = r->offer;
        c.rent_kind = r->kind;
      }
      out.push_back(std::move(c));
    }
  }
  if (f.cloud) {
    for (const auto& o : cat.cloud_offers()) {
      Candidate c;
      c.id = o.id;
      c.kind = OptionKind::cloud;
      c.gpu = &cat.find_gpu(o.gpu_id);
      c.unit_gpus = o.gpu_count;
      // Instances of an NVL72 rack share its NVLink domain (rented by the rack), TPU chips their pod's ICI;
      // others are their own node, up to max_gpus GPUs of one host for an offer sold by the GPU.
      const int domain = perf::scale_up_domain(*c.gpu);
      c.per_node = domain > 0 ? domain : o.instance_gpus();
      // Between instances: the network the provider publishes, none for a slice of a server whose
      // network is not recorded, else what a host of the GPU usually has (perf/fabric.hpp offer_fabric).
      c.fabric = perf::offer_fabric(o, *c.gpu);
      std::string via;
      c.unit_rent = in_usd(o.per_instance_hour(o.headline()), fx, &via);
      c.rent_from = offer_price_source(o, o.headline(), via);
      c.rent_offer = o.id;
      c.offer = &o;
      c.rent_kind = o.headline();
      out.push_back(std::move(c));
    }
  }
  return out;
}

// How a served diffusion pipeline decodes, for the notes: diffusers' enable_vae_slicing (one image at
// a time: the decode's memory, not its time) and enable_vae_tiling (the decoder's tiles, where its
// latent is larger than one: time and memory).
inline std::string vae_decode_mode(const ImageModel& m, std::int64_t images, bool slicing, bool tiling) {
  std::string s;
  if (slicing)
    s += images > 1 ? ", one image at a time (VAE slicing: its memory, not its time)" : ", one image (VAE slicing changes nothing at one image per batch)";
  if (tiling) {
    const int tiles = m.decoder_tile_count();
    s += tiles > 1 ? ", in " + std::to_string(tiles) + " tiles (VAE tiling)" : std::string(", in one tile (VAE tiling changes nothing: the latent fits a tile)");
  }
  return s;
}

}  // namespace detail

struct PurchaseTable {
  PurchaseQuery query;
  std::string title;
  std::vector<PurchaseRow> rows;
  std::vector<std::string> assumptions;  // and sources, printed under the table
  std::size_t filtered_out = 0;          // rows left out by budget, deadline or power
  std::size_t cannot_run = 0;            // rows that do not fit or cannot be timed (hidden when filtering)
  double flops_total = 0;                // training: 6 N D (Kaplan et al. 2020); LoRA/QLoRA: 4 N D + 6 N_adapters D

  // Serving of either kind: a rate per day of use, bought or rented by the hour.
  [[nodiscard]] bool serve() const { return query.workload == PurchaseWorkload::serve || query.workload == PurchaseWorkload::serve_images; }
  [[nodiscard]] bool serves_images() const { return query.workload == PurchaseWorkload::serve_images; }

  // The table every format renders: one column per figure, keys with their units (docs/cli.md).
  [[nodiscard]] Table table() const {
    using namespace detail;
    const bool sv = serve(), si = serves_images();
    Table t;
    t.title = title;
    t.columns = {{"option", "Option", Align::left}, {"kind", "Kind", Align::left}, {"gpus", "GPUs", Align::right}};
    if (!sv) t.columns.push_back({"time_s", "Time", Align::right});
    else if (si) t.columns.push_back({"images_per_h", "Img/h", Align::right});
    else t.columns.push_back({"decode_tokens_per_s", "Tok/s", Align::right});
    t.columns.push_back({"own_cost_usd", sv ? "Buy" : "Own", Align::right});
    t.columns.push_back({sv ? "rent_usd_per_h" : "rent_cost_usd", sv ? "Rent/h" : "Rent", Align::right});
    if (si) t.columns.push_back({"rent_usd_per_kimage", "$/1k img", Align::right});
    else if (sv) t.columns.push_back({"rent_usd_per_mtok", "$/Mtok", Align::right});
    t.columns.push_back({"break_even_month", "B/E mo", Align::right});
    t.columns.push_back({sv ? "energy_kwh_per_day" : "energy_kwh", sv ? "kWh/day" : "kWh", Align::right});
    t.columns.push_back({sv ? "co2e_kg_per_day" : "co2e_kg", "CO2e kg", Align::right});
    t.columns.push_back({"memory_per_gpu_bytes", "Mem/GPU", Align::right});
    t.columns.push_back({"usd_per_tflop", "$/TFLOP", Align::right});
    t.columns.push_back({"usd_per_gb", "$/GB", Align::right});
    t.columns.push_back({"tflop_per_w", "TFLOP/W", Align::right});
    for (const auto& r : rows) {
      std::vector<Cell> row;
      row.push_back(Cell::of_text(r.option));
      row.back().flag = r.pareto;
      row.push_back(Cell::of_text(std::string(name(r.kind))));
      if (!r.estimated()) {
        row.push_back(Cell::empty());
        row.push_back(Cell::of_text(r.status));  // in the time (throughput) column
        while (row.size() < t.columns.size()) row.push_back(Cell::empty());
        const std::size_t mem = t.column_index("memory_per_gpu_bytes");
        row[mem] = Cell::of_number(format(r.gpu_memory, {.significant = 3}), r.gpu_memory.value());
        t.add_row(std::move(row));
        continue;
      }
      row.push_back(Cell::of_number(std::to_string(r.gpus) + (r.deadline_sized ? "†" : ""), r.gpus));
      if (!sv) row.push_back(Cell::of_number(format(r.time, {.significant = 3}), r.time.value()));
      else if (si) row.push_back(Cell::of_number(format_number(r.images_per_s * 3600, 3), r.images_per_s * 3600));
      else row.push_back(Cell::of_number(format_number(r.decode_tokens_per_s, 3), r.decode_tokens_per_s));
      if (r.kind == OptionKind::cloud) row.push_back(Cell::empty());  // rented only
      else if (r.gpu && r.gpu->form_factor == FormFactor::cloud) row.push_back(Cell::of_text("rent only"));  // TPUs, Trainium: never sold
      else row.push_back(range_cell(sv ? r.purchase : r.own_cost, sv ? r.purchase_high : r.own_cost_high, "no price"));
      if (sv) {
        if (r.rent_rate) {
          const Money per_h = *r.rent_rate * Duration::from_value(3600);
          // Another currency: with its code, as money_cell shows it (the column holds USD).
          const std::string exact = to_json_string(per_h.rounded_to(4));
          row.push_back(per_h.currency() != Currency::USD ? Cell::of_other_currency(format(per_h, {.style = MoneyStyle::code}), exact, std::string(code(per_h.currency())))
                                                          : Cell::of_money(format(per_h), exact, per_h.amount().to_double()));
        } else {
          row.push_back(Cell::of_text("no offer"));
        }
        if (si)
          row.push_back(r.rent_usd_per_kimage ? Cell::of_number("$" + format_number(*r.rent_usd_per_kimage, 3), *r.rent_usd_per_kimage) : Cell::empty());
        else
          row.push_back(r.rent_usd_per_mtok ? Cell::of_number("$" + format_number(*r.rent_usd_per_mtok, 3), *r.rent_usd_per_mtok) : Cell::empty());
      } else {
        row.push_back(money_cell(r.rent_cost, "no offer"));
      }
      row.push_back(break_even_cell(r, query.months));
      const double kwh = r.energy.value() / 3.6e6;
      row.push_back(r.power.known ? Cell::of_number(format_number(kwh, 3), kwh) : Cell::empty());
      row.push_back(r.power.known ? Cell::of_number(format_number(r.co2e_kg, 3), r.co2e_kg) : Cell::empty());
      row.push_back(Cell::of_number(format(r.gpu_memory, {.significant = 3}), r.gpu_memory.value()));
      row.push_back(r.usd_per_tflop ? Cell::of_number("$" + format_number(*r.usd_per_tflop, 3), *r.usd_per_tflop) : Cell::empty());
      row.push_back(r.usd_per_gb ? Cell::of_number("$" + format_number(*r.usd_per_gb, 3), *r.usd_per_gb) : Cell::empty());
      row.push_back(r.tflop_per_w ? Cell::of_number(format_number(*r.tflop_per_w, 3), *r.tflop_per_w) : Cell::empty());
      t.add_row(std::move(row));
    }
    t.notes = assumptions;
    return t;
  }

  // The table for programs (docs/cli.md, "JSON"): the workload, one object per row with every figure
  // under its key with its unit (the table's keys and more: status, plan, sources), money as exact
  // decimal strings, and the assumptions. `capplan compare --format json` prints it; Python's
  // PurchaseTable.output() returns it as dicts and lists.
  [[nodiscard]] Value output() const {
    const bool sv = serve(), si = serves_images();
    const PurchaseQuery& q = query;
    Value j;
    const bool img = q.workload == PurchaseWorkload::train_images;
    j["model"] = q.model_name;
    j["parameters"] = img || si ? q.image_model->parameters : static_cast<double>(parameter_count(q.model));
    j["workload"] = std::string(detail::enum_name(q.workload));
    if (si) {
      j["batch"] = q.served_image_batch();
      j["image"] = q.image_model->image;
      j["precision"] = std::string(name(q.image_precision));
      if (q.diffusion()) {
        j["steps"] = q.steps;
        j["guidance"] = q.guidance;
        j["vae_slicing"] = q.vae_slicing;
        j["vae_tiling"] = q.vae_tiling;
      }
    } else if (img) {
      j["images"] = q.images;
      j["flops_total"] = flops_total;
      j["batch_per_gpu"] = q.batch_per_gpu;
      if (q.filters.deadline) j["deadline_s"] = q.filters.deadline->value();
    } else if (!sv) {
      j["tokens"] = q.tokens;
      j["flops_total"] = flops_total;
      if (q.filters.deadline) j["deadline_s"] = q.filters.deadline->value();
    } else {
      j["batch"] = q.serving.batch;
      j["prompt_tokens"] = q.serving.prompt;
      j["output_tokens"] = q.serving.output;
      j["weights"] = std::string(q.serving.weights.name);
      if (q.serving.expert_weights) j["expert_weights"] = std::string(q.serving.expert_weights->name);
    }
    // Under the _usd keys: USD as an exact decimal, or null; a figure in another currency under keys of
    // its own (report/money_value.hpp).
    auto money = [](Value& e, std::string_view key, const std::optional<Money>& m) {
      detail::put_usd(e, key, m ? std::optional(m->rounded_to(2)) : std::nullopt);
    };
    // A figure that exists only for an estimated row.
    auto when = [](bool known, Value v) { return known ? std::move(v) : Value(); };
    Value& out_rows = j["rows"] = Value::Array{};
    for (const PurchaseRow& r : rows) {
      const bool est = r.estimated();
      Value e;
      e["option"] = r.option;
      e["kind"] = std::string(name(r.kind));
      e["gpu"] = r.gpu_id;
      e["fits"] = est;
      e["status"] = when(!est, r.status);
      e["gpus"] = when(est, r.gpus);
      e["gpus_to_fit"] = when(est, r.gpus_to_fit);
      if (!sv) {
        e["deadline_sized"] = r.deadline_sized;
        e["time_s"] = when(est, r.time.value());
        e["expected_wall_clock_s"] = r.goodput ? Value(r.goodput->expected_wall_clock.value()) : Value();
        e["expected_gpu_hours"] = r.goodput ? Value(r.goodput->expected_gpu_hours) : Value();
        e["mfu"] = r.training ? Value(r.training->estimate.mfu) : Value();
        if (!img) {
          // A default batch grown past twice ~4M tokens: the batch model-parallel replicas keep on the
          // same GPUs, its iterations and whether its whole run misses the deadline (else null).
          e["kept_batch"] = r.kept_batch > 0 ? Value(r.kept_batch) : Value();
          e["kept_batch_time_s"] = r.kept_batch_run ? Value(r.kept_batch_time.value()) : Value();
          e["kept_batch_late"] = r.kept_batch_run && q.filters.deadline ? Value(r.kept_batch_late) : Value();
        }
        if (img) e["images_per_s"] = r.image ? Value(r.image->images_per_second) : Value();
        money(e, "own_cost_usd", r.own_cost);
        money(e, "own_cost_high_usd", r.own_cost_high);
        money(e, "rent_cost_usd", r.rent_cost);
      } else {
        // Serving either kind: its rate, then the keys both share, then rent per unit of output.
        if (si) {
          e["images_per_s"] = when(est, r.images_per_s);
          e["images_per_h"] = when(est, r.images_per_s * 3600);
        } else {
          e["decode_tokens_per_s"] = when(est, r.decode_tokens_per_s);
          e["ttft_s"] = r.serving ? Value(r.serving->estimate.prefill.value()) : Value();
        }
        e["replicas"] = when(est, r.replicas);
        money(e, "own_cost_usd", r.purchase);
        money(e, "own_cost_high_usd", r.purchase_high);
        detail::put_usd(e, "rent_usd_per_h", r.rent_rate ? std::optional((*r.rent_rate * Duration::from_value(3600)).rounded_to(4)) : std::nullopt);
        if (si) e["rent_usd_per_kimage"] = Value::of(r.rent_usd_per_kimage);
        else e["rent_usd_per_mtok"] = Value::of(r.rent_usd_per_mtok);
      }
      e["price_missing"] = est && !r.purchase && !(r.gpu && r.gpu->form_factor == FormFactor::cloud);  // rent-only parts have none to miss
      // Beside price_missing: only rows that are estimated (a "no fit" or "no rate" row misses nothing).
      e["unpriced"] = when(est && !r.purchase && r.kind == OptionKind::gpu && r.gpu && !r.gpu->unpriced.empty(), r.gpu ? r.gpu->unpriced : std::string());
      e["price_source"] = when(r.purchase.has_value(), r.purchase_source);
      e["rent_from"] = when(r.rent_rate.has_value(), r.rent_from);
      e["rent_kind"] = when(r.rent_rate.has_value(), std::string(name(r.rent_kind)));
      if (!sv) e["rent_billed_hours"] = when(est && r.rent_cost.has_value(), r.rent_billed.value() / scale::hour);
      if (!sv) e["rent_billed_gpus"] = est && r.rent_cost && r.rent_billed_gpus > 0 ? Value(r.rent_billed_gpus) : Value();
      e["break_even_month"] = Value::of(r.break_even_month);
      e["break_even_month_high"] = Value::of(r.break_even_month_high);
      e["it_power_w"] = when(est && r.power.known, r.power.total.value());
      e[sv ? "energy_kwh_per_day" : "energy_kwh"] = when(est && r.power.known, r.energy.value() / 3.6e6);
      e[sv ? "co2e_kg_per_day" : "co2e_kg"] = when(est && r.power.known, r.co2e_kg);
      e["memory_per_gpu_bytes"] = r.gpu_memory.value();
      e["usd_per_tflop"] = Value::of(r.usd_per_tflop);
      e["usd_per_gb"] = Value::of(r.usd_per_gb);
      e["tflop_per_w"] = Value::of(r.tflop_per_w);
      Value& plan = e["plan"];
      if (r.image_inference) {
        plan["batch_per_gpu"] = r.batch_per_gpu;
        plan[q.diffusion() ? "step_latency_s" : "batch_latency_s"] = r.image_inference->latency.value();
        plan["seconds_per_batch"] = r.seconds_per_batch;
        if (q.diffusion()) {
          plan["vae_decode_s"] = r.image_decode ? Value(r.image_decode->latency.value()) : Value(nullptr);
          plan["text_encode_s"] = r.text_encode_s > 0 ? Value(r.text_encode_s) : Value(nullptr);
        }
        plan["memory_per_gpu_bytes"] = r.image_memory.value();
        plan["bound"] = std::string(r.image_inference->bound == perf::Bound::compute ? "compute" : "memory");
        plan["replicas"] = r.replicas;
      } else if (r.image) {
        plan["batch_per_gpu"] = r.batch_per_gpu;
        plan["images_per_s"] = r.image->images_per_second;
        plan["gpu_bound_images_per_s"] = r.image->gpu_bound_images_per_second;
        plan["bottleneck"] = r.image->data_loading && !r.image->data_loading->ok() ? r.image->data_loading->bottleneck() : std::string("GPU");
        plan["memory_per_gpu_bytes"] =
            image_training_memory(*q.image_model, r.batch_per_gpu, q.training.precision).total().value();
      } else if (r.training) {
        plan_output(plan, r.training->plan, r.training->job.model.layers);
        plan["global_batch"] = r.training->job.global_batch;
        plan["seq_len"] = r.training->job.seq_len;
        plan["gpus_per_node"] = r.training->cluster.gpus_per_node;
        plan["fabric"] = r.training->cluster.nodes() > 1 ? Value(r.training->fabric.id) : Value(nullptr);
        plan["memory_per_gpu_bytes"] = r.training->memory.total().value();
      } else if (r.serving) {
        plan["tp"] = r.serving->tp;
        plan["pp"] = r.serving->pp;
        plan["replicas"] = r.replicas;
        plan["memory_per_gpu_bytes"] = r.serving->memory.total().value();
      }
      e["pareto"] = r.pareto;
      out_rows.push_back(std::move(e));
    }
    Value notes = Value::Array{};
    for (const auto& a : assumptions) notes.push_back(a);
    j["assumptions"] = std::move(notes);
    return j;
  }

  // The HTML report's table: table() with the columns a reader narrows the options by (the page's
  // drop-downs), after Kind: the GPU's vendor and form factor, and whether the workload fits
  // ("yes"; "no" where the memory does not; "n/a" where it was not timed for another reason: no
  // network between nodes, no rate for the precision).
  [[nodiscard]] Table html_table() const {
    Table t = table();
    const auto at = static_cast<std::ptrdiff_t>(t.column_index("kind") + 1);
    t.columns.insert(t.columns.begin() + at, {{"vendor", "Vendor", Align::left}, {"form_factor", "Form factor", Align::left},
                                              {"fits", "Fits", Align::left}});
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const PurchaseRow& r = rows[i];
      const std::string fits = r.estimated() ? "yes" : r.status == "no fit" ? "no" : "n/a";
      t.rows[i].insert(t.rows[i].begin() + at,
                       {r.gpu ? Cell::of_text(std::string(name(r.gpu->vendor))) : Cell::empty(),
                        r.gpu ? Cell::of_text(std::string(name(r.gpu->form_factor))) : Cell::empty(), Cell::of_text(fits)});
    }
    return t;
  }

  // For an 100-column terminal: the same rows in two tables, time and money first, then kind, carbon
  // and value per GPU with the assumptions (render_text each; wrap the notes to the width).
  [[nodiscard]] std::vector<Table> terminal_tables() const {
    const Table t = table();
    const bool sv = serve();
    auto pick = [&](const std::vector<std::string>& keys, std::string part_title, bool notes) {
      Table s;
      s.title = std::move(part_title);
      std::vector<std::size_t> idx;
      for (const auto& k : keys) {
        idx.push_back(t.column_index(k));
        s.columns.push_back(t.columns[idx.back()]);
      }
      for (const auto& row : t.rows) {
        std::vector<Cell> r2;
        for (std::size_t i : idx) r2.push_back(row[i]);
        s.add_row(std::move(r2));
      }
      if (notes) s.notes = t.notes;
      return s;
    };
    const bool si = serves_images();
    std::vector<std::string> first = {"option", "gpus", si ? "images_per_h" : sv ? "decode_tokens_per_s" : "time_s", "own_cost_usd",
                                      sv ? "rent_usd_per_h" : "rent_cost_usd"};
    if (sv) first.push_back(si ? "rent_usd_per_kimage" : "rent_usd_per_mtok");
    for (std::string k : {"break_even_month", sv ? "energy_kwh_per_day" : "energy_kwh"}) first.push_back(k);
    std::vector<Table> out;
    out.push_back(pick(first, t.title, false));
    // Carbon goes with the second part, so a price range (Own "$230,002–255,239") still fits 100 columns.
    out.push_back(pick({"option", "kind", sv ? "co2e_kg_per_day" : "co2e_kg", "memory_per_gpu_bytes", "usd_per_tflop", "usd_per_gb", "tflop_per_w"},
                       "Kind, carbon and value per GPU (same order)", true));
    return out;
  }

  // Sorts the rows by a column key or header (as Table::sort_by: numbers by value, cells without a
  // value last, stable); throws InputError naming "sort" for an unknown column.
  void sort_by(std::string_view key, bool descending = false) {
    const Table t = table();
    const std::size_t c = t.column_index(key);
    std::vector<std::size_t> idx(rows.size());
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
      const Cell& x = t.rows[a][c];
      const Cell& y = t.rows[b][c];
      if (x.number && y.number) return descending ? *x.number > *y.number : *x.number < *y.number;
      if (x.number.has_value() != y.number.has_value()) return x.number.has_value();
      return descending ? x.text > y.text : x.text < y.text;
    });
    std::vector<PurchaseRow> sorted;
    sorted.reserve(rows.size());
    for (std::size_t i : idx) sorted.push_back(std::move(rows[i]));
    rows = std::move(sorted);
  }

  // The default order: shortest training time, or cheapest rent per million tokens when serving.
  [[nodiscard]] std::string default_sort() const {
    return serves_images() ? "rent_usd_per_kimage" : serve() ? "rent_usd_per_mtok" : "time_s";
  }
};

// The purchase table of `q` over the catalog; throws InputError naming the field on bad input.
// Which end of a price range (PricePoint::high) an estimate uses; without a range both are the price.
enum class PriceEnd { low, high };
BOOST_DESCRIBE_ENUM(PriceEnd, low, high)

// Owning a row's option (its purchase at month 0, then electricity for its power at the query's
// utilization, PUE and tariff) against renting as many GPUs at the row's rent, month by month over
// the query's horizon (cost/compare.hpp): what the row's break-even month is, and what the compare
// report draws per row; `end`: the low end of a price range (break_even_month) or its high end
// (break_even_month_high). nullopt unless the purchase, the rent and the tariff are all in USD.
inline std::optional<CostComparison> row_cost_comparison(const PurchaseRow& r, const PurchaseQuery& q, PriceEnd end = PriceEnd::low) {
  if (!r.purchase || !r.rent_rate || r.purchase->currency() != Currency::USD || r.rent_rate->currency() != Currency::USD ||
      q.electricity.currency() != Currency::USD) {
    return std::nullopt;
  }
  OwnedOption o;
  o.name = r.option;
  o.purchase = end == PriceEnd::high && r.purchase_high ? *r.purchase_high : *r.purchase;
  o.active_power = r.power.total;
  o.pue = q.pue;
  o.electricity = q.electricity;
  CompareOptions co;
  co.utilization = q.utilization;
  co.horizon_months = q.months;
  // Renting as the offer sells: by the hour, by the month (whole months of the row's units, the month's
  // rent back from the hourly rate to the cent), or reserved (paid for every hour of its term: whole
  // months, or blocks of a shorter term).
  return compare_costs(o, RentedOption::as_sold(r.rent_from, *r.rent_rate, r.rent_kind, r.rent_min_term), co);
}

inline PurchaseTable purchase_table(const PurchaseQuery& q, const Catalog& cat) {
  using namespace detail;
  q.validate();
  const bool si = q.workload == PurchaseWorkload::serve_images;
  const bool sv = q.workload == PurchaseWorkload::serve || si;
  // The host power allowance for the GPU rows, on the server host the rows are timed on (one socket
  // with --pcie-host cpu or pairs).
  const HostAllowance host_allowance = for_pcie_host(q.host, sv ? q.serving.pcie_host : q.training.pcie_host);
  const PurchaseFilters& f = q.filters;
  PurchaseTable out;
  out.query = q;
  std::string no_kernel_what;  // serving: the weights no engine runs on a "no kernel" row's GPU
  const bool img = q.workload == PurchaseWorkload::train_images;
  const double params = img || si ? q.image_model->parameters : static_cast<double>(parameter_count(q.model));
  // Image serving: the batch each GPU makes at a time, and what one image costs in forward passes.
  const bool unet = si && q.diffusion();
  const std::int64_t image_batch = si ? q.served_image_batch() : 0;
  const std::string images_per_batch = std::to_string(image_batch) + (image_batch == 1 ? " image" : " images");
  const std::int64_t passes_per_image = unet && q.guidance ? 2 : 1;  // classifier-free guidance: two latents per image
  const int steps = unet ? q.steps : 1;  // for the title and notes; perf::estimate_image_generation times them
  const CarbonIntensity grid_ci = grid::g_per_kwh(q.grid_g_per_kwh);
  const std::int64_t seq = q.training.seq_len > 0 ? q.training.seq_len : q.model.seq_len;
  if (si) {
    out.title = "Serving " + q.model_name + ": batches of " + images_per_batch + " per GPU" + (unet ? " at " + q.image_model->image : "") + ", " +
                std::string(name(q.image_precision)) +
                (unet ? ", " + std::to_string(steps) + " steps" + (q.guidance ? " with classifier-free guidance" : " without guidance") : std::string());
  } else if (img) {
    // Model FLOPs: 3x the forward (Kaplan et al. 2020 §2.1), as capplan train counts a CNN's.
    out.flops_total = 3.0 * q.image_model->forward_flops_per_sample() * q.images;
    out.title = "Training " + q.model_name + " on " + count_text(q.images) + " images (" + format_number(out.flops_total, 3) + " FLOP)";
  } else if (!sv) {
    if (q.training.finetune == FineTune::full) {
      out.flops_total = static_cast<double>(training_flops(q.model, Count(static_cast<long long>(std::llround(q.tokens)))));
      out.title = "Training " + q.model_name + " on " + count_text(q.tokens) + " tokens (" + format_number(out.flops_total, 3) + " FLOP)";
    } else {
      // Frozen base weights: forward 2 N D + input gradients 2 N D, the adapters 6 N_adapters D (the
      // parameter-count rule of perf's detail::job_model_flops, without attention, like 6 N D).
      const double adapters = static_cast<double>(lora_parameter_count(q.model, q.training.lora));
      out.flops_total = (4.0 * params + 6.0 * adapters) * q.tokens;
      out.title = std::string("Fine-tuning ") + q.model_name + " with " + (q.training.finetune == FineTune::qlora ? "QLoRA" : "LoRA") +
                  " rank " + std::to_string(q.training.lora.rank) + " on " + count_text(q.tokens) + " tokens (" +
                  format_number(out.flops_total, 3) + " FLOP)";
    }
  } else {
    out.title = "Serving " + q.model_name + ": " + std::to_string(q.serving.batch) + " x (" + std::to_string(q.serving.prompt) + " prompt + " +
                std::to_string(q.serving.output) + " output) tokens, " + std::string(q.serving.weights.name) + " weights" +
                (q.serving.expert_weights ? ", " + std::string(q.serving.expert_weights->name) + " experts" : std::string());
  }
  const bool filtering = f.budget || f.deadline || f.max_power;

  // One cache per fabric: GPU rows and cloud offers share the usual one (or the query's); systems
  // with their own NICs get theirs, unless the query names a fabric for all.
  std::map<std::string, TrainingRunCache> caches;
  auto runs_for = [&](const Candidate& c) -> TrainingRunCache& {
    TrainingSetup s = q.training;
    if (!s.fabric && c.fabric) s.fabric = c.fabric;
    if (!(s.host_memory_bandwidth > 0)) s.host_memory_bandwidth = c.host_memory_bandwidth;
    // Runs are cached per GPU id: a system's narrower slots time its GPU apart from the card's own.
    const GpuSpec& tg = c.timed_gpu();
    const std::string key = (s.fabric ? s.fabric->id + "/" + s.fabric->name : "") + "/" + detail::format_double(s.host_memory_bandwidth) + "/" +
                            std::to_string(tg.pcie_generation) + "x" + std::to_string(tg.pcie_lanes);
    auto it = caches.find(key);
    if (it == caches.end()) it = caches.emplace(key, TrainingRunCache(q.model, std::move(s))).first;
    return it->second;
  };
  std::map<std::string, std::optional<ServingRun>> serve_runs;  // per GPU id and most TP in a node
  // What each checkpoint of the model's training run writes (plan/goodput.hpp), worked out at first use.
  std::optional<DataSize> model_checkpoint;
  const auto checkpoint = [&] {
    if (!model_checkpoint) model_checkpoint = checkpoint_size(static_cast<std::int64_t>(parameter_count(q.model)));
    return *model_checkpoint;
  };
  // Training rows whose cheapest offer was passed over for its network between instances: what was
  // rented instead and why -> the rows.
  detail::NamesByKey network_passed;

  for (const Candidate& c : candidates(cat, f, q.fx)) {
    const GpuSpec& g = *c.gpu;
    const GpuSpec& tg = c.timed_gpu();  // g in the row's slots (a system's PCIe lanes), what its runs are timed on
    if (f.vendor && g.vendor != *f.vendor) continue;
    if (f.form_factor && g.form_factor != *f.form_factor) continue;
    PurchaseRow r;
    r.option = c.id;
    r.kind = c.kind;
    r.gpu = &g;
    r.gpu_id = g.id;
    r.unit_gpus = c.unit_gpus;
    r.gpu_memory = g.memory;
    r.rent_from = c.rent_from;
    r.rent_offer = c.rent_offer;
    r.rent_kind = c.rent_kind;
    if (c.offer) r.rent_min_term = c.offer->min_term;
    r.purchase_source = c.price_source;
    std::string how = c.id + ": ";
    int serve_node = c.per_node;  // serving: the GPUs a node holds of a replica whose stages cross nodes
    auto not_estimated = [&](std::string why) {
      ++out.cannot_run;
      if (filtering) return;
      r.status = std::move(why);
      if (c.kind != OptionKind::cloud) {  // no run, no rent: the candidate's offer is not the row's
        r.clear_rent();
        r.rent_network = Bandwidth{};
      }
      out.rows.push_back(std::move(r));
    };

    if (si) {
      // Each GPU serves its own batches: a replica per GPU, the weights in its memory. fp16 on a part with
      // only a bf16 rate (TPUs) runs in bf16, the same bytes and the same mixed precision.
      const Precision p = q.image_precision == Precision::fp16 && !g.dense.at(Precision::fp16) && g.dense.at(Precision::bf16)
                              ? Precision::bf16 : q.image_precision;
      if (p != q.image_precision) how += "bf16 (no fp16 rate on " + g.id + "); ";
      if (!g.dense.at(p)) {
        not_estimated("no rate");
        continue;
      }
      const perf::ImageGeneration gen = perf::estimate_image_generation(*q.image_model, image_batch, g, p, q.steps, q.guidance, {}, false, q.vae_tiling);
      const DataSize memory =
          image_generation_memory(*q.image_model, image_batch, gen.samples, p, gen.decode_precision, {}, q.vae_slicing, q.vae_tiling).total();
      if (memory > g.capacity()) {
        not_estimated("no fit");
        continue;
      }
      const perf::ImageInferenceEstimate& e = gen.pass;
      r.image_inference = e;
      r.image_decode = gen.decode;
      r.image_memory = memory;
      r.text_encode_s = gen.text_seconds();
      r.batch_per_gpu = image_batch;
      r.seconds_per_batch = gen.seconds_per_batch;
      r.gpus_to_fit = 1;
      r.units = 1;
      r.gpus = c.unit_gpus;
      r.replicas = r.gpus;
      r.images_per_s = gen.images_per_second * r.gpus;
      how += std::to_string(r.gpus) + " GPU(s), each on its own batches of " + std::to_string(image_batch) + ": " +
             (unet ? std::to_string(steps) + " steps x " + format(e.latency, {.significant = 4}) + " (the UNet on " +
                         std::to_string(image_batch * passes_per_image) + " latents)" +
                         (gen.decode ? " + " + format(gen.decode->latency, {.significant = 4}) + " VAE decode" : std::string()) +
                         (gen.text.empty() ? std::string() : " + " + format(from_canonical<Duration>(gen.text_seconds()), {.significant = 4}) + " text encoding") + " = "
                   : std::string()) +
             format(from_canonical<Duration>(r.seconds_per_batch), {.significant = 4}) + " a batch, " + format_number(r.images_per_s * 3600, 4) +
             " images/h in all (bound by " + (e.bound == perf::Bound::compute ? "compute" : "memory") + ")";
    } else if (img) {
      const std::optional<Precision> p = usable_precision(g, q.training.precision);
      if (!p) {
        not_estimated("no rate");
        continue;
      }
      // The batch is cut to what fits (the precision is bf16, fp16 or fp32: validate, usable_precision).
      const std::int64_t batch = std::min(q.batch_per_gpu, image_max_batch(*q.image_model, g.capacity(), *p));
      if (batch < 1) {
        not_estimated("no fit");
        continue;
      }
      const perf::Fabric fabric = q.training.fabric ? *q.training.fabric : c.fabric ? *c.fabric : perf::usual_fabric(g);
      // One unit; with a deadline, more units (beyond a node, whole nodes) until the run finishes in
      // time: its expected wall clock with failures and checkpoints, as it is billed (a run that never
      // finishes is late).
      std::optional<perf::ImageTrainingEstimate> est;
      Bandwidth timed_network{};  // the latest estimate's rate per GPU between nodes (network_timed)
      int n = c.unit_gpus;
      bool no_network = false;
      const DataSize ckpt = image_checkpoint_size(*q.image_model);
      // The whole run of the latest estimate on `gpus` GPUs; absent where it never finishes, and then
      // `failures` says whether failures outpace the checkpoints (more GPUs fail more often: no count
      // above finishes either).
      std::optional<GoodputEstimate> run;
      bool failures = false;
      const auto whole_run = [&](int gpus) {
        run.reset();
        failures = false;
        try {
          run = estimate_goodput(est->time_for_images(q.images), gpus, ckpt, q.goodput, est->iteration);
        } catch (const InputError& e) {
          failures = e.field() == "failures_per_gpu_hour";
        }
      };
      // A system-on-chip has no link to a second GPU: one per node.
      const int node_gpus = perf::linkless(g) ? 1 : c.per_node;
      for (;;) {
        const int per_node = std::min(node_gpus, n);
        if (n > per_node && fabric.none()) {
          no_network = true;
          break;
        }
        const perf::Cluster cluster = perf::make_cluster(tg, n, per_node, fabric.none() ? perf::Link{} : fabric.link(per_node), q.training.pcie_host,
                                                         perf::modelled_p2p(g, q.training.p2p),
                                                         q.training.host_memory_bandwidth > 0 ? q.training.host_memory_bandwidth : c.host_memory_bandwidth);
        perf::DataPipeline host;
        host.cpu_cores = q.cpu_cores_per_gpu * n;
        host.samples_per_core_second = q.decode_rate;
        // One drive per host: a node of an NVLink rack or a TPU pod is many hosts (8 GPUs or chips a host, as
        // an HGX board and a v5e or v6e TPU host hold).
        const int per_host = std::min(per_node, 8);
        host.drives = (n + per_host - 1) / per_host;
        est = perf::estimate_image_training(*q.image_model, batch, cluster, *p, {}, true, host);
        timed_network = network_timed(cluster);
        whole_run(n);
        if (!f.deadline || (run && run->expected_wall_clock <= *f.deadline) || n >= 4096) break;
        if (failures) break;  // more GPUs fail more often: failures outpace the checkpoints on any larger count too
        n += n < node_gpus ? c.unit_gpus : node_gpus;
        if (n > node_gpus) n = (n + node_gpus - 1) / node_gpus * node_gpus;
        n = (n + c.unit_gpus - 1) / c.unit_gpus * c.unit_gpus;  // whole units, as the row is billed
      }
      if (no_network && !est) {
        not_estimated("no network");
        continue;
      }
      // `run` is the last count's whole run (a count without a network was not estimated).
      if (f.deadline && (no_network || !run || run->expected_wall_clock > *f.deadline)) {
        ++out.filtered_out;
        continue;
      }
      r.image = est;
      if (c.kind != OptionKind::cloud) r.rent_network = timed_network;  // a cloud row's rent is its own offer's
      r.batch_per_gpu = batch;
      r.gpus_to_fit = c.unit_gpus;
      r.deadline_sized = n > c.unit_gpus;
      r.units = (n + c.unit_gpus - 1) / c.unit_gpus;
      r.gpus = r.units * c.unit_gpus;
      r.time = est->time_for_images(q.images);
      const perf::DataLoadingCheck& dl = *est->data_loading;
      how += std::to_string(r.gpus) + " GPUs, data parallel, " + std::to_string(batch) + " images per GPU" +
             (batch < q.batch_per_gpu ? " (the most that fit)" : "") + ", " + std::string(name(*p)) + "; " +
             format_number(est->images_per_second, 4) + " images/s (" +
             (dl.ok() ? std::string("the GPUs set it") : "the host's " + std::string(dl.bottleneck() == "CPU" ? "CPU decoding" : "storage") + " sets it; the GPUs " +
                                                          format_number(est->gpu_bound_images_per_second, 4)) +
             ") -> " + format(r.time, {.significant = 3});
      r.goodput = run;
      if (!r.goodput) {
        // Failures would outpace the checkpoints: no wall clock to bill or draw power over (as below).
        not_estimated("no finish");
        continue;
      }
      how += "; expected " + format(r.goodput->expected_wall_clock, {.significant = 3}) + " with failures and checkpoints (goodput " +
             format_number(100 * r.goodput->goodput, 3) + "%)";
    } else if (!sv) {
      if (!can_time_training(g, q.training.precision)) {
        not_estimated("no rate");
        continue;
      }
      // FlashAttention-3 runs on Hopper only: other GPUs' rows cannot run the kernel asked for.
      if (q.training.framework.flash_attention && q.training.framework.attention_kernel == perf::AttentionKernel::flash3 &&
          !perf::runs_flash_attention_3(g)) {
        not_estimated("no FlashAttention-3");
        continue;
      }
      TrainingRunCache& runs = runs_for(c);
      std::optional<int> fit;
      bool no_network = false;
      try {
        fit = runs.fewest_gpus(tg, c.unit_gpus, c.per_node);
      } catch (const InputError& e) {
        fit.reset();
        no_network = e.field() == "fabric";
      }
      if (!fit) {
        not_estimated(no_network ? "no network" : "no fit");
        continue;
      }
      int n = *fit;
      r.gpus_to_fit = n;
      const DataSize ckpt = checkpoint();
      if (f.deadline) {
        std::optional<int> d;
        try {
          // Held against the expected wall clock, as the run is billed (a run that never finishes is late).
          auto wall_clock = [&](int gpus, double iterations_s, Duration iteration) -> std::optional<double> {
            try {
              return estimate_goodput(Duration::from_value(iterations_s), gpus, ckpt, q.goodput, iteration).expected_wall_clock.value();
            } catch (const InputError&) {
              return std::nullopt;
            }
          };
          d = runs.fewest_gpus_for_deadline(tg, q.tokens, *f.deadline, c.unit_gpus, c.per_node, n, 65536, wall_clock);
        } catch (const InputError& e) {
          if (e.field() != "fabric") throw;
          d.reset();  // more GPUs than one node would need a network: not in time within one node
        }
        if (!d) {
          ++out.filtered_out;
          continue;
        }
        r.deadline_sized = *d > n;
        n = *d;
      }
      const TrainingRunSearch& s = runs.best(tg, n, c.per_node);
      r.training = *s.run;
      if (c.kind != OptionKind::cloud) r.rent_network = network_timed(r.training->cluster);  // a cloud row's rent is its own offer's
      r.gpus = n;
      r.units = n / c.unit_gpus;
      r.time = r.training->time_for_tokens(q.tokens);
      const auto& e = r.training->estimate;
      how += std::to_string(n) + " GPUs (" + std::to_string(r.training->cluster.gpus_per_node) + " per node" +
             (r.deadline_sized ? "; " + std::to_string(r.gpus_to_fit) + " fit, more to meet the deadline" : "") + "), " +
             plan_text(r.training->plan) + "; iteration " + format(e.iteration, {.significant = 4}) + ", " +
             format_number(e.tokens_per_second, 4) + " tokens/s, MFU " + format_number(100 * e.mfu, 3) + "% -> " +
             format(r.time, {.significant = 3}) + (r.training->precision_note.empty() ? "" : " (" + r.training->precision_note + ")");
      try {
        r.goodput = estimate_goodput(r.time, n, ckpt, q.goodput, e.iteration);
        how += "; expected " + format(r.goodput->expected_wall_clock, {.significant = 3}) + " with failures and checkpoints (goodput " +
               format_number(100 * r.goodput->goodput, 3) + "%)";
      } catch (const InputError&) {
        // Failures would outpace the checkpoints: the run never finishes, so it has no wall clock to
        // bill or draw power over, and no place on the frontier, under a budget or a deadline.
        not_estimated("no finish");
        continue;
      }
    } else if (!si) {
      if (std::string w = weights_without_kernel(g, q.serving.weights, q.serving.expert_weights); !w.empty()) {
        no_kernel_what = std::move(w);
        not_estimated("no kernel");  // FP8/FP4 weights before Turing: no vLLM kernel (serving_run.hpp)
        continue;
      }
      if (!g.dense.at(Precision::fp16) && !g.dense.at(Precision::bf16) && !g.dense.at(Precision::fp32)) {
        not_estimated("no rate");  // serving_run times in FP16, else BF16, else FP32
        continue;
      }
      // A replica's TP group stays in one node: a cloud row's instance (or the scale-up domain its
      // instances share), a system's node, a card's 8-GPU server; stages beyond it are pipelines across.
      const int max_tp = std::clamp(c.per_node, 1, 8);
      // Stages across nodes pass their tokens' hidden states over the row's network (the query's fabric,
      // a system's NICs, a cloud offer's published network or none for an unrecorded slice of a server,
      // else serving_fabric's default: a desktop's 10 GbE port for consumer cards, as llama.cpp's RPC and
      // vLLM's pipeline stages run over TCP).
      ServingLoad load = q.serving;
      load.gpus_per_node = std::max(1, c.per_node);
      if (!load.fabric && c.fabric) load.fabric = c.fabric;
      if (!(load.host_memory_bandwidth > 0)) load.host_memory_bandwidth = c.host_memory_bandwidth;
      const perf::Fabric fabric = serving_fabric(g, load);
      const std::string run_key = g.id + "/" + std::to_string(tg.pcie_generation) + "x" + std::to_string(tg.pcie_lanes) + "/" + std::to_string(max_tp) + "/" + std::to_string(load.gpus_per_node) + "/" + fabric.id + "/" + fabric.name +
                                  "/" + detail::format_double(load.host_memory_bandwidth);
      auto it = serve_runs.find(run_key);
      bool no_network = false;
      if (it == serve_runs.end()) {
        std::optional<ServingRun> sr;
        try {
          sr = smallest_serving_run(q.model, tg, load, 256, max_tp);
        } catch (const InputError& e) {
          sr.reset();
          no_network = e.field() == "fabric";
        }
        if (no_network) {
          not_estimated("no network");
          continue;
        }
        it = serve_runs.emplace(run_key, std::move(sr)).first;
      }
      if (!it->second) {
        not_estimated("no fit");
        continue;
      }
      const int per_replica = it->second->gpus();
      r.serving = *it->second;
      r.gpus_to_fit = per_replica;
      r.units = (per_replica + c.unit_gpus - 1) / c.unit_gpus;
      r.gpus = r.units * c.unit_gpus;
      r.replicas = r.gpus / per_replica;
      // Whole units that leave GPUs over (DeepSeek-R1 on H200 SXM: 6 a replica, a pair of 4-GPU boards): one
      // replica on all of them, at the widest TP that divides them within a node (as min_gpus_for_serving
      // orders layouts), where it fits and serves more tokens a second than the whole replicas do.
      std::string widened;
      if (r.gpus % per_replica != 0) {
        for (int t : {8, 4, 2, 1}) {
          if (t > max_tp || r.gpus % t != 0 || q.model.heads % t != 0 || r.gpus / t > q.model.layers) continue;
          try {
            ServingRun wide = serving_run(q.model, tg, load, t, r.gpus / t);
            if (wide.fit.fits && wide.estimate.tokens_per_second > r.serving->estimate.tokens_per_second * r.replicas) {
              widened = " on all " + std::to_string(r.gpus) + " GPUs of the units (the fewest that fit, " + std::to_string(per_replica) + ", serve " +
                        format_number(r.serving->estimate.tokens_per_second * r.replicas, 4) + " tokens/s)";
              r.serving = std::move(wide);
              r.replicas = 1;
            }
          } catch (const InputError&) {
            // No network for stages across nodes: the whole replicas stand.
          }
          break;
        }
      }
      const perf::StageBoundaries stages = perf::stage_boundaries(r.serving->tp, r.serving->pp, load.gpus_per_node);
      serve_node = stages.nodes > 1 ? static_cast<int>(stages.node_gpus) : c.per_node;
      r.decode_tokens_per_s = r.serving->estimate.tokens_per_second * r.replicas;
      how += std::to_string(r.replicas) + " replica(s) of TP " + std::to_string(r.serving->tp) + " x PP " + std::to_string(r.serving->pp) +
             (stages.nodes > 1 ? " (stages across " + std::to_string(stages.nodes) + " nodes of " + std::to_string(c.per_node) +
                                     ", TP within one, over " + fabric.name + ")"
                               : std::string()) +
             widened + ", " +
             format_number(r.serving->estimate.tokens_per_second, 4) + " tokens/s each (bound by " +
             std::string(perf::name(r.serving->estimate.decode_bound)) + "), time to first token " +
             format(r.serving->estimate.prefill, {.significant = 3}) + ", " + format(r.serving->memory.total(), {.significant = 4}) + " per GPU";
    }

    // Power and energy.
    // The node the row was timed on (a serving replica's stages beyond it on nodes of their own, each
    // holding whole stages); an SoC is a box of its own.
    const int timed_node = perf::linkless(g) ? 1 : r.serving ? serve_node : c.per_node;
    r.power = c.system ? system_it_power(*c.system, cat, r.units) : gpu_it_power(g, r.gpus, host_allowance, timed_node);
    if (f.max_power && (!r.power.known || r.power.planning > *f.max_power)) {
      ++out.filtered_out;
      continue;
    }
    // A training run draws power and pays rent for its whole wall clock: the iterations with the
    // expected failures, restarts, redone work and checkpoints (plan/goodput.hpp), where it can finish.
    const Duration wall = r.goodput ? r.goodput->expected_wall_clock : r.time;
    const Duration span = sv ? Duration::from_value(24 * 3600.0) : wall;
    r.energy = r.power.total * span * q.pue;
    r.co2e_kg = (r.energy * grid_ci).value();
    if (r.power.known)
      how += "; IT power " + r.power.basis + ", x " + format(span, {.significant = 4}) + " x PUE " +
             format_number(q.pue, 3) + " = " + format_number(r.energy.value() / 3.6e6, 4) + " kWh";
    else
      how += "; " + r.power.basis;

    // Money.
    if (c.unit_price) {
      r.purchase = *c.unit_price * r.units;
      if (c.unit_price_high) r.purchase_high = *c.unit_price_high * r.units;
      if (!sv && r.purchase->currency() == q.electricity.currency()) {
        r.electricity_cost = q.electricity * r.energy;
        r.own_cost = *r.purchase + *r.electricity_cost;
        if (r.purchase_high) r.own_cost_high = *r.purchase_high + *r.electricity_cost;
      } else {
        r.own_cost = r.purchase;
        r.own_cost_high = r.purchase_high;
      }
    }
    std::optional<MoneyRate> unit = c.unit_rent;
    std::optional<MoneyRate> rent_total;  // where whole instances, not the row's units, set the rent
    // Training on a GPU or system row: the offer whose bill for this run is the cheapest (a month's
    // rent or a reserved term wins only a run long enough to fill it; a reserved-only offer joins here),
    // in whole instances of the offer (12 GPUs rent two instances of 8).
    if (!sv && c.kind != OptionKind::cloud) {
      // Offers whose instances hold the node the run was timed on (cheapest_rent's node_gpus); none: no rent.
      unit.reset();
      r.clear_rent();
      r.rent_node_gpus = std::min(c.per_node, r.gpus);
      const RentChoice choice = cheapest_rent_choice(cat, g.id, q.fx, wall, r.gpus, r.rent_node_gpus, false, r.rent_network);
      const std::optional<Rent>& best = choice.rent;
      if (best) {
        unit = best->per_gpu_hour * Decimal(c.unit_gpus);
        rent_total = best->per_gpu_hour * Decimal(best->billed_gpus);
        r.rent_billed_gpus = best->billed_gpus;
        r.rent_offer = best->offer->id;
        r.rent_min_term = best->offer->min_term;
        r.rent_kind = best->kind;
        r.rent_from = best->source();
      }
      // The cheaper offer the network rule passed over for another (with none left, the note on offers
      // left out says why).
      if (const std::optional<Rent>& any = choice.passed_over)
        network_passed.add("rent from " + best->offer->id + ", not the cheaper " + any->offer->id + ": " + network_shortfall(*any->offer, g, r.rent_network),
                           r.option);
    } else if (sv && c.kind != OptionKind::cloud && r.serving) {
      // Serving on a GPU or system row: the offer cheapest per replica whose instances hold the
      // replica's TP group, as many replicas to an instance as fit (its idle GPUs billed too).
      unit.reset();
      r.clear_rent();
      r.rent_node_gpus = r.serving->tp;
      if (const auto best = cheapest_rent(cat, g.id, q.fx, std::nullopt, r.serving->gpus(), r.serving->tp, true)) {
        rent_total = MoneyRate(best->rate().amount() * Decimal(r.replicas), best->rate().currency());
        r.rent_offer = best->offer->id;
        r.rent_min_term = best->offer->min_term;
        r.rent_kind = best->kind;
        r.rent_from = best->source();
      }
    } else if (!sv) {
      // A cloud row: the offer's price whose bill for the run is the cheapest (its headline where it has
      // no price a run can be billed at: a reserved one without its term).
      if (const auto k = cheapest_kind(*c.offer, wall); k && *k != c.rent_kind) {
        std::string via;
        unit = in_usd(c.offer->per_instance_hour(*k), q.fx, &via);
        r.rent_kind = *k;
        r.rent_from = offer_price_source(*c.offer, *k, via);
      }
    }
    if (unit || rent_total) {
      r.rent_rate = rent_total ? *rent_total : MoneyRate(unit->amount() * Decimal(r.units), unit->currency());
      if (!sv) {
        r.rent_billed = r.rent_billed_for(wall);
        r.rent_cost = *r.rent_rate * r.rent_billed;
        if (c.kind == OptionKind::cloud) r.rent_from += billing_text(r.rent_kind, r.rent_min_term, wall, r.rent_billed);
      }
    }
    const bool usd_rent = r.rent_rate && r.rent_rate->currency() == Currency::USD;
    if (sv && usd_rent && r.decode_tokens_per_s > 0) {
      const double per_h = (*r.rent_rate * Duration::from_value(3600)).amount().to_double();
      r.rent_usd_per_mtok = per_h / (r.decode_tokens_per_s * 3600.0) * 1e6;
    }
    if (si && usd_rent && r.images_per_s > 0) {
      const double per_h = (*r.rent_rate * Duration::from_value(3600)).amount().to_double();
      r.rent_usd_per_kimage = per_h / (r.images_per_s * 3600.0) * 1e3;
    }
    if (f.budget) {
      const bool own_ok = r.own_cost && r.own_cost->currency() == f.budget->currency() && r.own_cost->amount() <= f.budget->amount();
      bool rent_ok = false;
      if (usd_rent && f.budget->currency() == Currency::USD) {
        const Money rent = sv ? *r.rent_rate * r.rent_billed_for(Duration::from_value(scale::month)) : *r.rent_cost;  // serving: a month of rent
        rent_ok = rent.amount() <= f.budget->amount();
      }
      if (!own_ok && !rent_ok) {
        ++out.filtered_out;
        continue;
      }
    }
    // Break-even: owning (purchase + electricity at the utilization) against renting them, in whole
    // instances of the offer (rent_billed_gpus).
    if (const auto cmp = row_cost_comparison(r, q)) {
      r.break_even_month = cmp->break_even_month;
      r.break_even_checked = true;
      if (r.purchase_high) r.break_even_month_high = row_cost_comparison(r, q, PriceEnd::high)->break_even_month;
    }
    // Value per GPU: purchase price per dense BF16 (else FP16) TFLOP/s, per GB, TFLOP/s per TDP watt.
    const auto rate = tensor_rate(g);
    if (rate && g.tdp.value() > 0) r.tflop_per_w = in(*rate, "TFLOP/s") / g.tdp.value();
    if (c.unit_price && c.unit_price->currency() == Currency::USD) {
      const double per_gpu = c.unit_price->amount().to_double() / c.unit_gpus;
      if (rate) r.usd_per_tflop = per_gpu / in(*rate, "TFLOP/s");
      r.usd_per_gb = per_gpu / (g.memory.value() / 1e9);
    }
    if (r.own_cost) {
      how += "; own " + format(*r.own_cost, {.decimals = 0}) + (r.own_cost_high ? " to " + format(*r.own_cost_high, {.decimals = 0}) : "") + " (" +
             r.purchase_source + ")";
    }
    else if (g.form_factor == FormFactor::cloud) how += "; rent only";
    else if (r.kind == OptionKind::gpu && !g.unpriced.empty()) how += "; no price: " + g.unpriced;
    else how += "; no price in the catalog";
    if (r.rent_cost) how += "; rent " + format(*r.rent_cost, {.decimals = 0}) + " from " + r.rent_from;
    else if (r.rent_rate) how += "; rent " + format(*r.rent_rate) + " from " + r.rent_from;
    // A default batch grown past twice ~4M tokens: the same GPUs at the batch model-parallel replicas
    // keep, timed by the plan search for the same tokens (the BATCH note); only for the rows the
    // budget, deadline and power filters kept, since the search is the costliest step of a row.
    if (r.training && !q.training.global_batch && default_batch_oversized(r.training->job.seq_len, r.gpus)) {
      const int n = r.gpus;
      r.kept_batch = model_parallel_batch(r.training->job.seq_len, n);
      const TrainingRunSearch k = runs_for(c).best_at_batch(tg, n, c.per_node, r.kept_batch);
      r.kept_batch_plans = k.candidates;
      if (k.run) {
        r.kept_batch_run = *k.run;
        r.kept_batch_time = k.run->time_for_tokens(q.tokens);
        if (f.deadline) {
          try {
            const GoodputEstimate kg = estimate_goodput(r.kept_batch_time, n, checkpoint(), q.goodput, k.run->estimate.iteration);
            r.kept_batch_late = kg.expected_wall_clock.value() > f.deadline->value();
          } catch (const InputError&) {
            r.kept_batch_late = true;  // never finishes
          }
        }
      }
    }
    r.explanation = how;
    out.rows.push_back(std::move(r));
  }

  // Pareto frontier of price (own, else rent), speed and memory per GPU.
  {
    Table p;
    p.columns = {{"price", "price"}, {"speed", "speed"}, {"memory", "memory"}};
    for (const auto& r : out.rows) {
      Cell price = Cell::empty();
      if (r.estimated()) {
        const auto& own = sv ? r.purchase : r.own_cost;
        if (own && own->currency() == Currency::USD) price = Cell::of_number("", own->amount().to_double());
        else if (!sv && r.rent_cost && r.rent_cost->currency() == Currency::USD) price = Cell::of_number("", r.rent_cost->amount().to_double());
        else if (sv && r.rent_rate && r.rent_rate->currency() == Currency::USD)
          price = Cell::of_number("", (*r.rent_rate * r.rent_billed_for(Duration::from_value(scale::month * q.months))).amount().to_double());
      }
      // A training row's time on the frontier is its expected wall clock, the time its cost is billed over.
      const double time_s = r.goodput ? r.goodput->expected_wall_clock.value() : r.time.value();
      Cell speed = r.estimated() ? Cell::of_number("", si ? r.images_per_s : sv ? r.decode_tokens_per_s : time_s) : Cell::empty();
      p.add_row({price, speed, Cell::of_number("", r.gpu_memory.value())});
    }
    for (std::size_t i : pareto_frontier(p, {{"price", false}, {"speed", sv}, {"memory", true}})) out.rows[i].pareto = true;
  }
  out.sort_by(out.default_sort());

  // Assumptions and sources.
  auto& n = out.assumptions;
  n.push_back("* on the Pareto frontier of price (own, else rent), " +
              std::string(sv ? "throughput" : "expected wall clock (the Time column's iterations with failures and checkpoints)") +
              " and memory per GPU.");
  n.push_back("Model: " + q.model_name + ", " + count_text(params) + " parameters (" + q.model_source + ").");
  // What a training row's whole run adds to its Time column, with the checkpoint's bytes per parameter.
  const auto whole_run_note = [&](double checkpoint_bytes_per_param, std::string_view optimizer) {
    return "Time counts iterations only; the arithmetic (--explain) and JSON (expected_wall_clock_s, expected_gpu_hours) add "
           "the whole run's failures, restarts, lost work and checkpoints, and its energy, electricity and rent, the deadline "
           "and the frontier's time are that expected wall clock (plan/goodput.hpp): " +
           format_number(q.goodput.failures_per_gpu_hour, 3) + " failures per GPU-hour, restarts of " +
           format(q.goodput.restart, {.significant = 3}) + ", " + format_number(checkpoint_bytes_per_param, 3) + " B/parameter checkpoints (" +
           std::string(optimizer) + ") " + (q.goodput.async_checkpoint ? "copied to host and written in the background" : "written") + " at " +
           format(q.goodput.storage_write, {.significant = 3}) + ".";
  };
  if (img) {
    n.push_back("GPUs: one unit (a card, a system's or an instance's GPUs), data parallel" +
                std::string(f.deadline ? "; † raised to the fewest that finish within the deadline " + format(*f.deadline, {.significant = 4}) +
                                           " (beyond one node, whole nodes), held against the expected wall clock with failures and checkpoints"
                                       : "") +
                ". Time: images / images per second of perf/image_model.hpp (the same as capplan train; --explain shows each row): " +
                std::to_string(q.batch_per_gpu) + " images per GPU (the most that fit where fewer), " + std::string(name(q.training.precision)) +
                " with AMP, SGD with momentum, gradients all-reduced under the backward pass; the host feeds each GPU from " +
                std::to_string(q.cpu_cores_per_gpu) + " CPU cores decoding JPEGs at " + format_number(q.decode_rate, 4) +
                " images/s each and one NVMe drive per node (--cpu-cores-per-gpu, --decode-rate; DALI decodes on the GPU instead).");
    n.push_back(whole_run_note(sgd_checkpoint_bytes_per_param, "fp32 weights and SGD momentum"));
    // Rows the host, not the GPUs, sets the pace of: say so, with what the GPUs alone would do.
    std::vector<const PurchaseRow*> fed;
    for (const PurchaseRow& r : out.rows)
      if (r.estimated() && r.image && r.image->data_loading && !r.image->data_loading->ok()) fed.push_back(&r);
    if (!fed.empty()) {
      std::sort(fed.begin(), fed.end(), [](const PurchaseRow* a, const PurchaseRow* b) {
        return a->image->gpu_bound_images_per_second / a->gpus > b->image->gpu_bound_images_per_second / b->gpus;
      });
      std::string names;
      for (std::size_t i = 0; i < fed.size() && i < 3; ++i)
        names += (i ? ", " : "") + fed[i]->option + " " + format_number(fed[i]->image->gpu_bound_images_per_second / fed[i]->gpus, 3);
      n.push_back(std::to_string(fed.size()) + " row(s) wait on the host's " +
                  (fed.front()->image->data_loading->bottleneck() == "CPU" ? std::string("CPU decoding") : std::string("storage")) + " (" +
                  format_number(fed.front()->image->data_loading->limit() / fed.front()->gpus, 4) +
                  " images/s per GPU), not their GPUs: their times are the host's. The fastest GPUs alone, images/s per GPU: " + names +
                  (fed.size() > 3 ? ", ..." : "") + " (--explain shows each row).");
    }
  } else if (!sv) {
    n.push_back("GPUs: the fewest, in whole systems or instances, on which a plan fits in memory" +
                std::string(f.deadline ? "; † raised to the fewest that finish within the deadline " + format(*f.deadline, {.significant = 4}) +
                                           " (beyond one node, whole nodes), held against the expected wall clock with failures and checkpoints"
                                         : "") +
                ". Time: the fastest plan of the plan search on that many GPUs (the same as capplan train; --explain shows it): " +
                std::string(name(q.training.precision)) +
                (q.training.global_batch ? ", a global batch of " + std::to_string(*q.training.global_batch) + " sequences of " + std::to_string(seq) + " tokens, "
                                         : ", about 4M tokens a global batch of " + std::to_string(seq) + "-token sequences, ") +
                std::string(q.training.measured_mfu ? "iteration time from MFU " + format_number(*q.training.measured_mfu, 3) + ", "
                                                    : "kernels and communication of docs/performance-model.md, ") +
                (q.training.fabric ? "between nodes " + q.training.fabric->name + (q.training.fabric->nics_per_node == 0 ? ", one NIC per GPU." : ", shared by a node's GPUs.")
                                   : std::string("between nodes a system's own network adapters, a cloud offer's network between its "
                                                 "instances as its provider publishes it (none where an instance smaller than a server "
                                                 "records none: its plans stay in one instance), else what a host of the GPU usually has "
                                                 "(perf/fabric.hpp: HDR 200 Gb/s per A100 SXM, NDR 400 Gb/s per H100/H200/B200, one 100 GbE "
                                                 "port per PCIe server, no network for consumer cards).")));
    n.push_back(whole_run_note(adam_checkpoint_bytes_per_param, "mixed-precision Adam"));
  } else if (si) {
    n.push_back("GPUs: one unit (a card, a system's or an instance's GPUs), each GPU a replica on its own batches of " + images_per_batch +
                "; a GPU too small for the " + std::string(name(q.image_precision)) +
                " weights" + (q.image_model->companion_parameters > 0 ? " (with " + q.image_model->companions + ")" : std::string()) +
                ", the batch's peak activations (a step's, or the VAE decode's) and the runtime reserve is \"no fit\". Img/h: perf/image_model.hpp's forward pass (the same as capplan infer"
                "; --explain shows each row)" +
                (unet ? std::string(", ") + std::to_string(steps) + " denoising steps per image" +
                            (q.guidance ? ", two latents per image and step (classifier-free guidance)" : "") +
                            (q.image_model->decoder.empty() ? std::string("; the VAE decode not timed (the model has no vae_decoder)")
                                                            : "; the VAE decoder once per batch" +
                                                                  (q.image_model->decoder_fp32 ? std::string(" in fp32 (TF32 where the GPU has it)") : std::string()) +
                                                                  detail::vae_decode_mode(*q.image_model, q.served_image_batch(), q.vae_slicing, q.vae_tiling)) +
                            (q.image_model->text_encoders.empty() ? std::string(", the text encoders not timed") : std::string(", the text encoders once per batch"))
                      : std::string("")) +
                ". $/1k img: rent per thousand images." +
                (unet ? " On data-centre GPUs diffusers has measured 1.5 to 2.9 times slower steps than this (docs/validation.md, "
                        "\"Stable Diffusion 1.5\"): their rows are upper bounds." +
                            std::string(image_batch < 4 ? " At this batch a fast GPU's step can wait on the host's Python, which is not "
                                                          "timed (the A100 measured 21.7 it/s at one image where this model says 64.5)."
                                                        : "")
                      : ""));
  } else {
    n.push_back("GPUs: the fewest that hold weights, KV cache and workspace (TP, then PP); more GPUs in a whole unit serve more replicas, or, where they leave GPUs over, one replica on all of them if that serves more. "
                "Tok/s: decode of perf/inference.hpp (the same as capplan infer), all replicas; $/Mtok: rent per million output tokens. "
                "Pipeline stages pass each token's hidden state and residual on, inside a node over its link, across nodes (TP stays in one) over " +
                (q.serving.fabric ? (q.serving.fabric->none() ? std::string("no network (a replica larger than a node: \"no network\")")
                                                              : q.serving.fabric->name + (q.serving.fabric->nics_per_node == 0 ? ", one NIC per GPU"
                                                                                                                              : ", shared by a node's GPUs"))
                                  : std::string("a system's own network adapters, a cloud offer's published network (none where an "
                                                "instance smaller than a server records none), else what a host of the GPU usually has "
                                                "(perf/fabric.hpp), for consumer cards a desktop's 10 GbE port over TCP (an assumption)")) +
                ".");
  }
  // Which rows' GPUs talk over PCIe (no NVLink or Infinity Fabric), more than one to a node: their transport depends
  // on the host (perf/communication.hpp PcieHost), which the table assumes.
  std::string pcie_p2p, pcie_host_memory;
  std::vector<std::string_view> listed;
  for (const PurchaseRow& r : out.rows) {
    if (r.gpu == nullptr || r.gpus < 2 || !perf::pcie_only(*r.gpu) || perf::linkless(*r.gpu))  // an SoC: one a box, no PCIe between
      continue;
    if (std::find(listed.begin(), listed.end(), r.gpu->id) != listed.end()) continue;
    listed.push_back(r.gpu->id);
    std::string& into = r.gpu->peer_to_peer ? pcie_p2p : pcie_host_memory;
    into += (into.empty() ? "" : ", ") + r.gpu->id;
  }
  const perf::PcieHost host = sv ? q.serving.pcie_host : q.training.pcie_host;
  const perf::PeerToPeer p2p = sv ? q.serving.p2p : q.training.p2p;
  const double host_memory_given = sv ? q.serving.host_memory_bandwidth : q.training.host_memory_bandwidth;  // 0: not given
  if (!pcie_p2p.empty()) {
    if (p2p == perf::PeerToPeer::disabled)
      n.push_back("PCIe boxes (" + pcie_p2p + "): peer-to-peer disabled (NCCL_P2P_DISABLE=1), so collectives go through host memory.");
    else if (perf::p2p_through_cpu(host, p2p))
      n.push_back("PCIe boxes (" + pcie_p2p + "): GPUs " + std::string(perf::name(host)) +
                  ", peer-to-peer forced through the CPU (NCCL_P2P_LEVEL=SYS), slower than under a switch.");
    else
      n.push_back("PCIe boxes (" + pcie_p2p + "): GPUs " + std::string(perf::name(host)) +
                  (host == perf::PcieHost::switch_pairs
                       ? std::string(", peer-to-peer inside each pair and ") +
                             (p2p == perf::PeerToPeer::forced ? "forced through the CPU between pairs (NCCL_P2P_LEVEL=SYS)."
                                                              : "through host memory between pairs, so rings over more than a pair run at host memory's rate.")
                   : host == perf::PcieHost::pcie_switch
                       ? std::string(", peer-to-peer (an 8-GPU PCIe server's; --pcie-host cpu for a workstation whose GPUs sit on the CPU's root ports, where NCCL goes through host memory") +
                             (p2p == perf::PeerToPeer::forced ? " unless peer-to-peer is forced, as here)." : ").")
                       : std::string(", so NCCL goes through host memory (--pcie-host; --p2p force for NCCL_P2P_LEVEL=SYS).")));
  }
  if (p2p == perf::PeerToPeer::disabled)
    n.push_back("--p2p off (NCCL_P2P_DISABLE=1) is timed on PCIe cards and NVLink-bridged pairs; rows whose GPUs NVSwitch, xGMI or a chip link "
                "joins keep NCCL's default, since capplan does not time those links switched off.");
  if (!pcie_host_memory.empty()) {
    n.push_back(p2p == perf::PeerToPeer::forced
                    ? "GeForce cards (" + pcie_host_memory + "): peer-to-peer forced, which needs a driver patched to enable it (NVIDIA's has none for them)."
                    : "GeForce cards (" + pcie_host_memory + ") have no peer-to-peer: collectives go through host memory on any host, whose DRAM a "
                      "node's GPUs share (" +
                          (host_memory_given > 0
                               ? format(Bandwidth::from_value(host_memory_given), {.significant = 4}) +
                                     " as given"
                               : std::string("a system's from its CPUs and DIMMs, else a host assumed for their PCIe generation; --host-memory-bandwidth "
                                             "gives yours")) +
                          ").");
    // The systems among them: the host memory their parts give (hardware/host_memory.hpp).
    if (!(host_memory_given > 0) && p2p != perf::PeerToPeer::forced) {
      for (const PurchaseRow& r : out.rows) {
        if (r.kind != OptionKind::system || r.gpu == nullptr || r.gpu->peer_to_peer || !perf::pcie_only(*r.gpu)) continue;
        const SystemSpec& sys = cat.find_system(r.option);
        if (sys.gpus_per_node() < 2) continue;  // one card a node: nothing passes through host memory
        const HostMemory h = host_memory(sys, cat);
        n.push_back(r.option + "'s host memory, from its parts: " + h.basis + (h.bandwidth.value() > 0 ? "." : " (assumed instead)."));
      }
    }
  }
  // Systems whose GPUs run narrower links than the cards' own (hardware/gpu_slots.hpp), as they are timed.
  for (const PurchaseRow& r : out.rows) {
    if (r.kind != OptionKind::system) continue;
    const GpuSlots slots = gpu_slots(cat.find_system(r.option), cat);
    if (slots.narrowed) n.push_back(r.option + "'s GPU links, from its parts, as timed: " + slots.basis + ".");
  }
  {
    // Rents that are not an hourly on-demand price: what each bills (whole months, a reserved term).
    std::string terms, unknown;
    std::vector<std::string_view> named;
    for (const PurchaseRow& r : out.rows) {
      if (r.rent_offer.empty() || !r.rent_rate || r.rent_kind == PriceKind::on_demand ||
          std::find(named.begin(), named.end(), r.option) != named.end())
        continue;
      std::string what = std::string(name(r.rent_kind));
      if (r.rent_kind == PriceKind::monthly)
        what += ", whole months" +
                (r.rent_min_term && r.rent_min_term->value() > scale::month * (1 + 1e-12) ? ", at least " + term_text(*r.rent_min_term) : std::string());
      else if (r.rent_kind == PriceKind::reserved && r.rent_min_term)
        what += books_whole_days(*r.rent_min_term) ? std::string(", whole days") : ", at least its " + term_text(*r.rent_min_term) + " term";
      else if (r.rent_kind == PriceKind::reserved) unknown += (unknown.empty() ? "" : ", ") + r.rent_offer;
      terms += (terms.empty() ? "" : ", ") + r.option + (r.option == r.rent_offer ? "" : " (" + r.rent_offer + ")") + ": " + what;
      named.push_back(r.option);
    }
    if (!terms.empty())
      n.push_back("Rents that are not hourly on-demand prices, billed as sold (" + std::string(sv ? "a month of serving, for the budget," : "the run") +
                  " rounded up to whole months, to at least a reserved term, or to whole days for a Capacity Block; the break-even "
                  "rents month by month at the same price, a reserved one held all month, for whole days or for at least a shorter "
                  "term, without the rest of a commitment longer than the months compared): " + terms + ".");
    if (!unknown.empty())
      n.push_back("Reserved prices whose term the catalog does not state (" + unknown + "): priced for the hours used, though the term binds for longer.");
    // Rows whose rent bills more GPUs than they use: the offer sells whole instances.
    std::string whole;
    int more = 0;
    for (const PurchaseRow& r : out.rows) {
      if (!r.estimated() || !r.rent_cost || r.rent_billed_gpus <= r.gpus) continue;
      if (++more <= 6) whole += (whole.empty() ? "" : ", ") + r.option + " " + std::to_string(r.rent_billed_gpus) + " for " + std::to_string(r.gpus);
    }
    if (more > 0)
      n.push_back("Rent in whole instances of the offer, more GPUs than the row uses (the break-even rents them too): " + whole +
                  (more > 6 ? ", and " + std::to_string(more - 6) + " more" : std::string()) + ".");
  }
  n.push_back("Own = purchase (street, else launch price; systems: given or sum of parts)" + std::string(sv ? "" : " + electricity for the run") +
              "; \"no price\": the catalog has none (cloud rows: rented only). Rent = " +
              std::string(si   ? "the cheapest of that GPU's offers per GPU-hour, at each offer's headline price (reserved-only offers left out)"
                          : sv ? "the cheapest of that GPU's offers per replica-hour, at each offer's headline price (reserved-only offers left out), "
                                 "among those whose instance holds a replica's TP group, as many replicas to an instance as fit (idle GPUs billed)"
                               : "the cheapest bill for the run among that GPU's offers (hourly prices for the hours, monthly rents whole months, "
                                 "reserved prices at least their term) whose instances hold the node the row was timed on and, across nodes, "
                                 "carry its traffic as fast as it is timed") +
              ", in USD or converted with --fx (cloud rows: the offer's own " + std::string(sv ? "headline price" : "price with the cheapest bill") +
              (sv && !si ? "; a replica larger than an instance runs its pipeline stages across instances" : "") +
              "); \"no offer\": no offer the row can be rented at.");
  {
    // GPU rows of priced modules, which step in whole baseboards (candidates): one line per board size.
    detail::NamesByKey boards;  // board size -> ids
    for (const PurchaseRow& r : out.rows) {
      if (r.estimated() && r.kind == OptionKind::gpu && r.unit_gpus > 1) boards.add(std::to_string(r.unit_gpus), r.option);
    }
    for (const auto& [board, ids] : boards.groups())
      n.push_back(ids + ": SXM and OAM modules are sold on baseboards of " + board +
                  ", not one at a time, so these rows are whole boards (their GPUs, time, power, rent and price; a GPU a replica or a plan "
                  "leaves over idles); modules without a price are timed on the fewest GPUs, as rented.");
  }
  {
    // Why a GPU row has no price, where the catalog knows (GpuSpec::unpriced): one line per reason.
    detail::NamesByKey why;  // reason -> ids
    for (const PurchaseRow& r : out.rows) {
      if (!r.estimated() || r.purchase || r.kind != OptionKind::gpu || r.gpu == nullptr || r.gpu->unpriced.empty()) continue;
      why.add(r.gpu->unpriced, r.gpu->id);
    }
    for (const auto& [reason, ids] : why.groups()) n.push_back("No price for " + ids + ": " + reason + ".");
  }
  {
    // Why a GPU or system row has no rent though the catalog has offers for its GPU.
    detail::NamesByKey why;  // offers left out -> rows
    for (const PurchaseRow& r : out.rows) {
      if (!r.estimated() || r.rent_rate || r.kind == OptionKind::cloud || r.gpu == nullptr) continue;
      std::string left;
      for (const std::string& w : offers_left_out(cat, r.gpu->id, q.fx, !sv, std::max(1, r.rent_node_gpus), r.gpus, r.rent_network)) left += (left.empty() ? "" : "; ") + w;
      if (!left.empty()) why.add(left, r.option);
    }
    for (const auto& [reason, ids] : why.groups()) n.push_back("No offer for " + ids + ": the catalog's " + reason + ".");
  }
  // A GPU or system row timed across nodes rents only instances whose network carries its traffic as
  // fast as it is timed (cheapest_rent's network): the cheaper offer passed over, per row.
  for (const auto& [reason, ids] : network_passed.groups()) n.push_back(ids + ": " + reason + " (bandwidth x efficiency).");
  // Rows on at least twice as many GPUs as the default batch has sequences train a batch that grew with
  // them to twice the ~4M tokens or more (default_batch_oversized).
  // Each named row's kept batch follows (PurchaseRow::kept_batch): the same GPUs at the batch
  // model-parallel replicas keep under twice ~4M tokens, the plan search's best at it.
  if (!sv && !q.training.global_batch) {
    std::string big, kept;
    std::size_t count = 0;
    for (const PurchaseRow& r : out.rows) {
      if (!r.estimated() || !r.training || r.kept_batch == 0) continue;
      if (++count > 4) continue;
      big += (big.empty() ? "" : ", ") + r.option + " (" + std::to_string(r.training->job.global_batch) + ")";
      std::string k = r.option + ": " + std::to_string(r.kept_batch) + (r.kept_batch == 1 ? " sequence (" : " sequences (") +
                      format_number(static_cast<double>(r.kept_batch * r.training->job.seq_len) / 1e6, 4) + "M tokens, --global-batch " +
                      std::to_string(r.kept_batch) + ")";
      if (r.kept_batch_run)
        k += ", " + plan_text(r.kept_batch_run->plan) + ", " + format(r.kept_batch_time, {.significant = 3}) + " of iterations against " +
             format(r.time, {.significant = 3}) + (r.kept_batch_late ? ", past the deadline" : "");
      else
        k += r.kept_batch_plans == 0 ? ": no layout of these GPUs has replicas that divide it" : ": no plan on these GPUs fits it in memory";
      kept += (kept.empty() ? "" : "; ") + k;
    }
    if (count > 0)
      n.push_back("BATCH: " + big + (count > 4 ? " and " + std::to_string(count - 4) + " more" : "") +
                  " train a global batch of one sequence or more a GPU (sequences in brackets), twice the ~4M tokens or more "
                  "(the other rows up to twice): fewer, larger steps, which a run of these tokens may not converge in as it would at 4M "
                  "(critical batch size: McCandlish et al. 2018); large runs keep their batch and go model-parallel "
                  "(Llama 3 405B: 16M tokens on 16,384 GPUs). Kept under twice ~4M tokens by model-parallel replicas on the same GPUs, "
                  "the plan search's best: " + kept +
                  ". --global-batch sets one batch for every row.");
  }
  if (std::any_of(out.rows.begin(), out.rows.end(), [](const PurchaseRow& r) { return r.purchase_high.has_value(); })) {
    n.push_back("Where the catalog's price is a range (street prices vary), Own and B/E read low\u2013high: the low end ranks the row, "
                "draws the frontier and meets the budget; JSON has own_cost_high_usd and break_even_month_high for the high end.");
  }
  if (!q.fx.empty()) {
    std::string rates;
    for (const auto& r : q.fx) rates += (rates.empty() ? "" : "; ") + usd_rate_text(r);
    n.push_back("Prices and offers in other currencies converted to USD at " + rates + " (--fx), and ranked with the rest; other currencies are shown as they are.");
  }
  n.push_back(host_allowance_note(host_allowance, std::any_of(out.rows.begin(), out.rows.end(), [](const PurchaseRow& r) {
                                     return r.gpu && r.kind == OptionKind::gpu && r.gpu->form_factor == FormFactor::soc && r.power.known && r.power.total.value() > 0;
                                   })));
  if (std::any_of(out.rows.begin(), out.rows.end(), [](const PurchaseRow& r) { return r.gpu && !(r.gpu->tdp.value() > 0); }))
    n.push_back("Rent-only parts (TPUs, Trainium) have no published power: their kWh and CO2e are blank, not 0.");
  n.push_back("Energy = IT power x " + std::string(sv ? "24 h" : q.workload == PurchaseWorkload::train_images ? "time" : "expected wall clock") + " x PUE " + format_number(q.pue, 3) + "; electricity " +
              format(q.electricity) + "; carbon " + format_number(q.grid_g_per_kwh, 4) + " g CO2e/kWh" +
              (q.grid_g_per_kwh == 436 ? " (world 2022, Ember)" : "") + ".");
  n.push_back("B/E mo = first month owning (purchase + electricity at utilization " + format_number(q.utilization, 3) +
              ") costs no more than renting as many GPUs; \"> " + std::to_string(q.months) + "\": not within the horizon.");
  n.push_back("$/TFLOP per dense BF16 TFLOP/s; $/GB per GB of GPU memory; TFLOP/W at TDP. Prices, dates and sources: capplan catalog list.");
  if (!sv) {
    std::string fp32;
    for (const auto& r : out.rows) {
      if (r.training && !r.training->precision_note.empty() && r.kind == OptionKind::gpu) fp32 += (fp32.empty() ? "" : ", ") + r.option;
    }
    if (!fp32.empty())
      n.push_back("No dense " + std::string(name(q.training.precision)) + " rate in the catalog, timed at " +
                  (q.training.precision == Precision::bf16 ? "FP16 or FP32" : "the next wider precision the GPU has") + ": " + fp32 + ".");
  }
  if (std::any_of(out.rows.begin(), out.rows.end(), [](const PurchaseRow& r) { return !r.estimated(); }))
    n.push_back("\"no fit\": does not fit in memory on any GPU count searched; \"no network\": needs more than one node (or unit) and has no network "
                "between nodes (pass a fabric); \"no rate\": the catalog lists no dense rate to time it with." +
                (q.training.framework.flash_attention && q.training.framework.attention_kernel == perf::AttentionKernel::flash3
                     ? std::string(" \"no FlashAttention-3\": the kernel asked for runs on Hopper GPUs only.")
                     : std::string()) +
                (!no_kernel_what.empty() ? " \"no kernel\": no serving engine runs the " + no_kernel_what +
                                 " on an NVIDIA GPU older than Turing: vLLM runs them on GPUs without FP8/FP4 tensor cores through its weight-only Marlin kernels, which start "
                                 "at Turing (compute capability 7.5), and llama.cpp has no such type (a GGUF such as --weights q8_0 runs on Volta)."
                           : std::string()));
  if (out.filtered_out) n.push_back(std::to_string(out.filtered_out) + " option(s) left out by the budget, deadline or power filters.");
  if (out.cannot_run && filtering) n.push_back(std::to_string(out.cannot_run) + " option(s) cannot run this workload.");
  return out;
}

}  // namespace capplan
