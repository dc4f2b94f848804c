// capplan compare: the purchase table for one workload over the catalog's GPUs, systems and cloud
// offers: GPUs needed, time, cost to own and to rent, energy, carbon, $/TFLOP, $/GB, TFLOP/W and
// the break-even month; filters, sorting and the Pareto frontier of price, speed and memory.
//
// Time model: training is timed by perf/training.hpp on the layout that fits in memory (falling
// back to 6 N D FLOPs, Kaplan et al. 2020 §2.1, at MFU x dense BF16 peak per GPU where it cannot,
// or everywhere with --mfu; --deadline sizes the GPU count with that formula); serving decodes one token per
// sequence per step, each step reading the weights and the KV cache once from HBM (memory-bound
// decode; Pope et al. 2022, §3.1), at a bandwidth efficiency.
#pragma once

#include "workload_args.hpp"

#include <capplan/compute/flops.hpp>
#include <capplan/cost/compare.hpp>
#include <capplan/perf/training.hpp>
#include <capplan/power/carbon.hpp>
#include <capplan/report/pareto.hpp>

#include <CLI/CLI.hpp>

#include <cmath>
#include <map>
#include <memory>

namespace capplan::cli {

struct CompareArgs {
  std::string model;
  std::string tokens;  // training tokens; empty with --serve
  PlanArgs plan;
  std::optional<double> mfu;  // given: time = 6ND / (GPUs x peak x MFU) instead of the perf model
  double bandwidth_efficiency = 0.7;
  std::string electricity = "0.12";
  double pue = 1.0;
  double grid_g_per_kwh = 436;  // world average 2022 (Ember)
  double utilization = 1.0;
  int months = 60;
  std::string budget, deadline, max_power, vendor, form_factor, sort;
  bool descending = false;
  std::string kinds = "all";  // gpus, systems, cloud, all
};

namespace compare_cmd {

inline std::optional<FlopRate> bf16_rate(const GpuSpec& g) {
  if (auto r = g.dense.at(Precision::bf16)) return r;
  return g.dense.at(Precision::fp16);
}

inline std::optional<Money> gpu_price(const GpuSpec& g) {
  if (g.street_price) return g.street_price->amount;
  if (g.launch_price) return g.launch_price->amount;
  return std::nullopt;
}

// The cheapest USD per-GPU-hour cloud price for a GPU model, and the offer.
inline std::optional<std::pair<MoneyRate, const CloudOffer*>> cheapest_rent(const Catalog& c, const std::string& gpu) {
  std::optional<std::pair<MoneyRate, const CloudOffer*>> best;
  for (const CloudOffer* o : c.offers_for_gpu(gpu)) {
    if (o->currency != Currency::USD) continue;
    const MoneyRate r = o->per_gpu_hour(o->headline());
    if (r.currency() != Currency::USD) continue;
    if (!best || r.amount() < best->first.amount()) best = std::make_pair(r, o);
  }
  return best;
}

struct Candidate {
  std::string id;
  std::string kind;  // "gpu", "system", "cloud"
  const GpuSpec* gpu = nullptr;
  int unit_gpus = 1;
  int per_node = 8;                    // GPUs that share the fast intra-node links
  std::optional<Money> unit_price;     // purchase per unit
  std::optional<MoneyRate> unit_rent;  // per unit-hour
  std::string rent_from;               // the offer the rent comes from
};

inline Cell money_cell(const std::optional<Money>& m) {
  if (!m) return Cell::empty();
  const Money r = m->rounded_to(2);
  Cell c = Cell::of_money(format(*m, {.decimals = 0}), to_json_string(r), r.amount().to_double());
  if (m->currency() != Currency::USD) c.number.reset();  // not comparable with USD rows
  return c;
}

inline Duration duration_arg(const std::string& text, std::string_view flag) {
  // A plain number is days.
  if (is_plain_number(text)) return parse<Duration>(text + " d", flag);
  return parse<Duration>(text, flag);
}

}  // namespace compare_cmd

inline Result run_compare(const CompareArgs& a, const Context& ctx) {
  using namespace compare_cmd;
  const Catalog& cat = ctx.catalog();
  const ModelArg m = model_arg(a.model);
  const bool serve = a.plan.serve;
  if (!serve && a.tokens.empty()) detail::fail("--tokens", "\"\"", "is required for training; or pass --serve for a serving load");
  if (serve && !a.tokens.empty()) detail::fail("--tokens", "\"" + a.tokens + "\"", "does not go with --serve");
  if (a.mfu && !(*a.mfu > 0 && *a.mfu <= 1)) detail::fail("--mfu", detail::format_double(*a.mfu), "is outside (0, 1]");
  // The simple model's utilization: --mfu, else 0.4 where the perf model cannot time a layout.
  const double mfu = a.mfu ? *a.mfu : 0.4;
  if (!(a.bandwidth_efficiency > 0 && a.bandwidth_efficiency <= 1)) {
    detail::fail("--bandwidth-efficiency", detail::format_double(a.bandwidth_efficiency), "is outside (0, 1]");
  }
  if (a.pue < 1 || a.pue > 3) detail::fail("--pue", detail::format_double(a.pue), "is outside [1, 3]");
  if (a.grid_g_per_kwh < 0 || a.grid_g_per_kwh > 2000) detail::fail("--grid", detail::format_double(a.grid_g_per_kwh), "is outside [0, 2000] g/kWh");
  fraction_arg(a.utilization, "--utilization");
  if (a.months < 1 || a.months > 240) detail::fail("--months", std::to_string(a.months), "is outside 1..240");
  const EnergyPrice elec = energy_price_arg(a.electricity, Currency::USD, "--electricity");
  // Plain values and flags rather than std::optional: GCC 12 warns maybe-uninitialized on these.
  const bool has_budget = !a.budget.empty(), has_deadline = !a.deadline.empty(), has_max_power = !a.max_power.empty();
  const Money budget = has_budget ? money_arg(a.budget, Currency::USD, "--budget") : Money{};
  const Duration deadline = has_deadline ? duration_arg(a.deadline, "--deadline") : Duration::from_value(0);
  const Power max_power = has_max_power ? quantity_arg<Power>(a.max_power, "W", "--max-power") : Power::from_value(0);
  if (!a.vendor.empty()) {
    bool known = false;
    for (Vendor v : {Vendor::nvidia, Vendor::amd, Vendor::intel, Vendor::apple, Vendor::google, Vendor::other}) known = known || lower(std::string(name(v))) == lower(a.vendor);
    if (!known) detail::fail("--vendor", "\"" + a.vendor + "\"", "is not a vendor (nvidia, amd, intel, apple, google)");
  }
  auto form_key = [](FormFactor f) {
    switch (f) {
      case FormFactor::sxm: return std::string("sxm");
      case FormFactor::oam: return std::string("oam");
      case FormFactor::pcie: return std::string("pcie");
      case FormFactor::consumer: return std::string("consumer");
      case FormFactor::soc: return std::string("soc");
    }
    return std::string("?");
  };
  if (!a.form_factor.empty() && a.form_factor != "sxm" && a.form_factor != "oam" && a.form_factor != "pcie" &&
      a.form_factor != "consumer" && a.form_factor != "soc") {
    detail::fail("--form-factor", "\"" + a.form_factor + "\"", "is not sxm, oam, pcie, consumer or soc");
  }

  // The workload.
  const double params = static_cast<double>(parameter_count(m.shape));
  double tokens = 0, flops = 0;
  TrainingConfig tc;
  InferenceConfig ic;
  if (!serve) {
    tokens = count_arg(a.tokens, "--tokens");
    tc = training_config(a.plan, m.shape);
    if (!a.plan.tp && !a.plan.pp && !a.plan.dp && !a.plan.gpus) {
      // Compare's default plan: ZeRO 3 (FSDP full shard), FlashAttention, selective recomputation,
      // unless the flags say otherwise.
      if (a.plan.zero == 0) tc.parallel.zero = ZeroStage::parameters;
      if (a.plan.recompute == "none") tc.recompute = ActivationRecompute::selective;
      tc.flash_attention = true;
    }
    flops = static_cast<double>(training_flops(m.shape, Count(static_cast<long long>(std::llround(tokens)))));
  } else {
    ic = inference_config(a.plan, m.shape);
  }
  const std::int64_t context = ic.context ? ic.context : m.shape.seq_len;

  // Candidates: every GPU (bought by the unit), every priced or unpriced system, every offer.
  std::vector<Candidate> cands;
  const bool all = a.kinds == "all";
  if (all || a.kinds == "gpus") {
    for (const auto& g : cat.gpus()) {
      Candidate c{g.id, "gpu", &g, 1, 8, gpu_price(g), std::nullopt, ""};
      if (auto r = cheapest_rent(cat, g.id)) {
        c.unit_rent = r->first;
        c.rent_from = r->second->id;
      }
      cands.push_back(c);
    }
  }
  if (all || a.kinds == "systems") {
    for (const auto& s : cat.systems()) {
      const GpuSpec& g = cat.find_gpu(s.gpu_id());
      Candidate c{s.id, "system", &g, s.total_gpus(), 8, cat.system_price(s).low, std::nullopt, ""};
      c.per_node = std::max(1, s.gpus_per_node());
      if (auto r = cheapest_rent(cat, g.id)) {
        c.unit_rent = r->first * Decimal(s.total_gpus());
        c.rent_from = r->second->id;
      }
      cands.push_back(c);
    }
  }
  if (all || a.kinds == "cloud") {
    for (const auto& o : cat.cloud_offers()) {
      const GpuSpec& g = cat.find_gpu(o.gpu_id);
      Candidate c{o.id, "cloud", &g, o.gpu_count, std::max(1, o.gpu_count), std::nullopt, o.per_instance_hour(o.headline()), o.id};
      cands.push_back(c);
    }
  }

  // GPUs needed per GPU model (memory), cached.
  std::map<std::string, std::optional<GpuPlan>> need;
  auto needed = [&](const GpuSpec& g) -> const std::optional<GpuPlan>& {
    auto it = need.find(g.id);
    if (it != need.end()) return it->second;
    std::optional<GpuPlan> p;
    if (!serve) p = min_gpus_for_training(m.shape, tc, g.memory, 4096);
    else p = min_gpus_for_serving(m.shape, ic, g.memory, 256);
    return need.emplace(g.id, p).first->second;
  };

  Table t;
  t.title = serve ? "Serving " + m.id + ": " + std::to_string(ic.sequences) + " x " + std::to_string(context) + " tokens, " +
                        std::string(ic.weights.name) + " weights"
                  : "Training " + m.id + " on " + count_text(tokens) + " tokens (" + format_number(flops, 3) + " FLOP)";
  t.columns = {{"option", "Option", Align::left}, {"kind", "Kind", Align::left}, {"gpus", "GPUs", Align::right}};
  if (!serve) t.columns.push_back({"time_s", "Time", Align::right});
  else t.columns.push_back({"decode_tokens_per_s", "Tok/s", Align::right});
  t.columns.push_back({"own_cost_usd", serve ? "Buy" : "Own", Align::right});
  t.columns.push_back({serve ? "rent_usd_per_h" : "rent_cost_usd", serve ? "Rent/h" : "Rent", Align::right});
  if (serve) t.columns.push_back({"rent_usd_per_mtok", "$/Mtok", Align::right});
  t.columns.push_back({"break_even_month", "B/E mo", Align::right});
  t.columns.push_back({serve ? "energy_kwh_per_day" : "energy_kwh", serve ? "kWh/day" : "kWh", Align::right});
  t.columns.push_back({serve ? "co2e_kg_per_day" : "co2e_kg", "CO2e kg", Align::right});
  t.columns.push_back({"memory_per_gpu_bytes", "Mem/GPU", Align::right});
  t.columns.push_back({"usd_per_tflop", "$/TFLOP", Align::right});
  t.columns.push_back({"usd_per_gb", "$/GB", Align::right});
  t.columns.push_back({"tflop_per_w", "TFLOP/W", Align::right});

  Result res;
  std::vector<std::string> expl;
  const CarbonIntensity grid_ci = grid::g_per_kwh(a.grid_g_per_kwh);
  std::size_t skipped_filters = 0;
  std::vector<std::string> no_fit;
  std::map<std::string, nlohmann::ordered_json> plans;  // per option: the layout used
  for (const Candidate& c : cands) {
    const GpuSpec& g = *c.gpu;
    if (!a.vendor.empty() && lower(std::string(name(g.vendor))) != lower(a.vendor)) continue;
    if (!a.form_factor.empty() && form_key(g.form_factor) != a.form_factor) continue;
    const auto rate = bf16_rate(g);
    const auto& plan = needed(g);
    if (!plan || !rate) {
      no_fit.push_back(c.id);
      if (!plan && (a.budget.empty() && a.deadline.empty() && a.max_power.empty())) {
        std::vector<Cell> row{Cell::of_text(c.id), Cell::of_text(c.kind), Cell::of_text("no fit")};
        while (row.size() < t.columns.size()) row.push_back(Cell::empty());
        t.add_row(std::move(row));
      }
      continue;
    }
    // With a deadline, enough GPUs (data parallel) to finish in time, if that is more than memory needs.
    int want = plan->gpus;
    if (has_deadline && !serve) {
      const double n = std::ceil(flops / (deadline.value() * rate->value() * mfu));
      if (n > want) want = n > 1e6 ? 1000000 : static_cast<int>(n);
    }
    const int units = (want + c.unit_gpus - 1) / c.unit_gpus;
    const int G = units * c.unit_gpus;
    const Power gpu_power = g.tdp * static_cast<double>(G);
    if (has_max_power && gpu_power > max_power) {
      ++skipped_filters;
      continue;
    }
    const bool has_purchase = c.unit_price.has_value();
    const Money purchase = has_purchase ? *c.unit_price * units : Money{};
    const std::optional<MoneyRate> rent_rate =
        c.unit_rent ? std::optional<MoneyRate>(MoneyRate(c.unit_rent->amount() * Decimal(units), c.unit_rent->currency())) : std::nullopt;
    const bool usd_rent = rent_rate && rent_rate->currency() == Currency::USD;

    // Speed.
    Duration time = Duration::from_value(0);
    double row_mfu = 0;
    double tok_s = 0;
    std::string how;
    if (!serve) {
      bool timed = false;
      if (!a.mfu) {
        // The performance model (perf/training.hpp) on the layout that fits: TP x PP from the memory
        // plan, the rest data parallel, micro-batch 1, a global batch of about 4M tokens.
        try {
          const int tpp = plan->tensor * plan->pipeline;
          const int dp = std::max(1, G / tpp);
          perf::TrainingJob job;
          job.model = m.shape;
          job.seq_len = tc.seq_len ? tc.seq_len : m.shape.seq_len;
          job.precision = g.dense.at(Precision::bf16) ? Precision::bf16 : Precision::fp16;  // V100, T4: fp16 only
          const std::int64_t seqs = std::max<std::int64_t>(1, (4 * 1024 * 1024) / job.seq_len);
          job.global_batch = (seqs + dp - 1) / dp * dp;
          perf::ParallelPlan pl;
          pl.tp = plan->tensor;
          pl.pp = plan->pipeline;
          pl.dp = dp;
          pl.micro_batch = tc.micro_batch;
          pl.zero_stage = static_cast<int>(tc.parallel.zero);
          pl.recompute = tc.recompute == ActivationRecompute::full ? Recompute::full
                         : tc.recompute == ActivationRecompute::selective ? Recompute::selective : Recompute::none;
          const int used = tpp * dp;
          const perf::Cluster cl = perf::make_cluster(g, used, std::min(c.per_node, used), perf::infiniband(Bandwidth::from_value(50e9)));
          const perf::TrainingEstimate est = perf::estimate_training(job, pl, cl);
          time = est.time_for_tokens(tokens);
          row_mfu = est.mfu;
          timed = true;
          how = c.id + ": perf model, " + std::to_string(used) + " GPUs (" + std::to_string(std::min(c.per_node, used)) +
                " per node), iteration " + format(est.iteration, {.significant = 4}) + ", " + format_number(est.tokens_per_second, 4) +
                " tokens/s, MFU " + format_number(100 * est.mfu, 3) + "% -> " + format(time, {.significant = 3});
        } catch (const std::exception& e) {
          how = c.id + ": perf model cannot time this layout (" + std::string(e.what()) + "); ";
        }
      }
      if (!timed) {
        const double per_s = static_cast<double>(G) * rate->value() * mfu;
        time = Duration::from_value(flops / per_s);
        row_mfu = mfu;
        how += c.id + ": " + format_number(flops, 4) + " FLOP / (" + std::to_string(G) + " x " + format(*rate, {.significant = 4}) +
               " x MFU " + format_number(mfu, 3) + ") = " + format(time, {.significant = 3});
      }
    } else {
      // Memory-bound decode: every step reads all weights and the KV cache of every sequence.
      const InferenceConfig one = [&] {
        InferenceConfig x = ic;
        x.tensor_parallel = 1;
        x.pipeline_parallel = 1;
        return x;
      }();
      const double weight_bytes = one.weights.size_of(parameter_count(m.shape)).value();
      const double kv_bytes = kv_cache_memory(m.shape, context, ic.sequences, ic.kv_cache, 1, 1).value();
      // The model is split over plan->gpus GPUs; more GPUs (whole units) serve more replicas.
      const int replicas = G / plan->gpus;
      const double step = (weight_bytes + kv_bytes) / (static_cast<double>(plan->gpus) * g.memory_bandwidth.value() * a.bandwidth_efficiency);
      tok_s = static_cast<double>(ic.sequences) / step * replicas;
      how = c.id + ": (" + bytes_text(DataSize::from_value(weight_bytes)) + " weights + " + bytes_text(DataSize::from_value(kv_bytes)) +
            " KV) / (" + std::to_string(plan->gpus) + " x " + format(g.memory_bandwidth, {.significant = 4}) + " x " +
            format_number(a.bandwidth_efficiency, 3) + ") = " + format_number(step * 1e3, 4) + " ms/step; " +
            std::to_string(ic.sequences) + " seq x " + std::to_string(replicas) + " replica(s) / step = " + format_number(tok_s, 4) + " tok/s";
    }
    if (has_deadline && !serve && time > deadline) {
      ++skipped_filters;
      continue;
    }
    // Energy (GPU board power at TDP x PUE) and carbon; serving per day of continuous use.
    const Duration span = serve ? Duration::from_value(86400.0) : time;
    const Energy energy = gpu_power * span * a.pue;
    const double kwh = energy.value() / 3.6e6;
    const double co2 = (energy * grid_ci).value();
    const Money elec_cost = elec * energy;
    std::optional<Money> own;
    if (has_purchase) own = serve ? purchase : purchase + elec_cost;
    std::optional<Money> rent;
    if (rent_rate && !serve) rent = *rent_rate * time;
    if (has_budget) {
      const bool own_ok = own && own->currency() == Currency::USD && own->amount() <= budget.amount();
      const bool rent_ok = serve ? (rent_rate && usd_rent && (*rent_rate * Duration::from_value(3600.0 * 730)).amount() <= budget.amount())
                                 : (rent && usd_rent && rent->amount() <= budget.amount());
      if (!own_ok && !rent_ok) {
        ++skipped_filters;
        continue;
      }
    }
    // Break-even: owning (purchase + electricity at the utilization) against renting as many GPUs.
    std::optional<int> be;
    if (has_purchase && usd_rent && purchase.currency() == Currency::USD) {
      OwnedOption o;
      o.name = c.id;
      o.purchase = purchase;
      o.active_power = gpu_power;
      o.pue = a.pue;
      o.electricity = elec;
      CompareOptions co;
      co.utilization = a.utilization;
      co.horizon_months = a.months;
      be = compare_costs(o, RentedOption::on_demand(c.rent_from, *rent_rate), co).break_even_month;
    }
    const double tf = in(*rate, "TFLOP/s");
    const double gpu_usd = c.unit_price && c.unit_price->currency() == Currency::USD ? c.unit_price->amount().to_double() / c.unit_gpus : -1;

    std::vector<Cell> row;
    row.push_back(Cell::of_text(c.id));
    row.push_back(Cell::of_text(c.kind));
    row.push_back(Cell::of_number(std::to_string(G), G));
    if (!serve) row.push_back(Cell::of_number(format(time, {.significant = 3}), time.value()));
    else row.push_back(Cell::of_number(format_number(tok_s, 3), tok_s));
    row.push_back(money_cell(own));
    if (serve) {
      if (rent_rate) {
        const Money per_h = *rent_rate * Duration::from_value(3600);
        Cell ph = Cell::of_money(format(per_h), to_json_string(per_h.rounded_to(4)), per_h.amount().to_double());
        if (!usd_rent) ph.number.reset();
        row.push_back(ph);
        const double per_mtok = per_h.amount().to_double() / (tok_s * 3600.0) * 1e6;
        row.push_back(usd_rent ? Cell::of_number("$" + format_number(per_mtok, 3), per_mtok) : Cell::empty());
      } else {
        row.push_back(Cell::empty());
        row.push_back(Cell::empty());
      }
    } else {
      row.push_back(money_cell(rent));
    }
    row.push_back(be ? Cell::of_number(std::to_string(*be), *be) : Cell::empty());
    row.push_back(Cell::of_number(format_number(kwh, 3), kwh));
    row.push_back(Cell::of_number(format_number(co2, 3), co2));
    row.push_back(Cell::of_number(format(g.memory, {.significant = 3}), g.memory.value()));
    if (gpu_usd > 0) {
      row.push_back(Cell::of_number("$" + format_number(gpu_usd / tf, 3), gpu_usd / tf));
      row.push_back(Cell::of_number("$" + format_number(gpu_usd / (g.memory.value() / 1e9), 3), gpu_usd / (g.memory.value() / 1e9)));
    } else {
      row.push_back(Cell::empty());
      row.push_back(Cell::empty());
    }
    if (g.tdp.value() > 0) row.push_back(Cell::of_number(format_number(tf / g.tdp.value(), 3), tf / g.tdp.value()));
    else row.push_back(Cell::empty());
    t.add_row(std::move(row));
    plans[c.id] = {{"tp", plan->tensor}, {"pp", plan->pipeline}, {"dp", serve ? G / plan->gpus : G / (plan->tensor * plan->pipeline)},
                   {"gpus_per_replica", serve ? plan->gpus : G}, {"zero", serve ? 0 : static_cast<int>(tc.parallel.zero)},
                   {"memory_per_gpu_bytes", plan->budget.total().value()}};
    if (!serve) plans[c.id]["mfu"] = row_mfu;
    how += "; plan TP " + std::to_string(plan->tensor) + " x PP " + std::to_string(plan->pipeline) +
           (serve ? " per replica" : " x DP " + std::to_string(G / (plan->tensor * plan->pipeline))) + ", " +
           bytes_text(plan->budget.total()) + " per GPU at the fewest GPUs";
    expl.push_back(how + (own ? "; own " + format(*own, {.decimals = 0}) : "") + (rent ? "; rent " + format(*rent, {.decimals = 0}) : "") +
                   "; " + format_number(kwh, 4) + " kWh");
  }

  // Pareto frontier of price (own, else rent), speed and memory per GPU: a scratch table.
  {
    Table p;
    p.columns = {{"price", "price"}, {"speed", "speed"}, {"memory", "memory"}};
    const std::size_t own_c = t.column_index("own_cost_usd");
    const std::size_t rent_c = t.column_index(serve ? "rent_usd_per_h" : "rent_cost_usd");
    const std::size_t speed_c = t.column_index(serve ? "decode_tokens_per_s" : "time_s");
    const std::size_t mem_c = t.column_index("memory_per_gpu_bytes");
    for (const auto& row : t.rows) {
      Cell price = Cell::empty();
      if (row[own_c].number && row[own_c].exact) price = Cell::of_number("", *row[own_c].number);
      else if (!serve && row[rent_c].number && row[rent_c].exact && *row[rent_c].number > 0) price = Cell::of_number("", *row[rent_c].number);
      else if (serve && row[rent_c].number && *row[rent_c].number > 0) price = Cell::of_number("", *row[rent_c].number * 730 * a.months);
      p.add_row({price, row[speed_c], row[mem_c]});
    }
    for (std::size_t i : pareto_frontier(p, {{"price", false}, {"speed", serve}, {"memory", true}})) t.rows[i][0].flag = true;
  }

  const std::string sort_key = a.sort.empty() ? (serve ? "rent_usd_per_mtok" : "time_s") : a.sort;
  try {
    t.sort_by(sort_key, a.descending);
  } catch (const InputError& e) {
    std::string what = e.what();
    if (what.rfind("sort: ", 0) == 0) what = what.substr(6);
    throw InputError("--sort", sort_key, "--sort: " + what);
  }

  // Notes: assumptions and sources.
  t.notes.push_back("* on the Pareto frontier of price (own, else rent), " + std::string(serve ? "throughput" : "time") + " and memory per GPU.");
  t.notes.push_back("Model: " + m.id + ", " + count_text(params) + " parameters (" + m.source + ").");
  if (!serve) {
    if (a.mfu) {
      t.notes.push_back("Time = 6 x params x tokens (Kaplan et al. 2020) / (GPUs x dense BF16 peak x MFU " + format_number(mfu, 3) +
                        ", --mfu); communication not modelled.");
    } else {
      t.notes.push_back("Time: the performance model (docs/performance.md: kernels, TP/DP communication over the GPU's own links, "
                        "400 Gb/s InfiniBand per GPU between nodes) on the layout shown by --explain; where it cannot time a "
                        "layout, 6 x params x tokens / (GPUs x dense BF16 peak x 0.4). --mfu X uses the simple formula everywhere.");
    }
    const std::int64_t seq = tc.seq_len ? tc.seq_len : m.shape.seq_len;
    t.notes.push_back(std::string(has_deadline ? "GPUs = enough to meet the deadline, at least the fewest that fit in memory" : "GPUs = fewest that fit in memory") + ": ZeRO " + std::to_string(static_cast<int>(tc.parallel.zero)) + ", micro-batch " +
                      std::to_string(tc.micro_batch) + " x " + std::to_string(seq) + " tokens, recompute " +
                      std::string(tc.recompute == ActivationRecompute::selective ? "selective" : tc.recompute == ActivationRecompute::full ? "full" : "none") +
                      (tc.flash_attention ? ", FlashAttention" : "") + "; systems and instances in whole units.");
  } else {
    t.notes.push_back("Tok/s = sequences / step, step = (weights + KV cache) / (GPUs x HBM bandwidth x " + format_number(a.bandwidth_efficiency, 3) +
                      ") (memory-bound decode, Pope et al. 2022); more whole units serve more replicas.");
    t.notes.push_back("GPUs = fewest that hold the weights, KV cache and workspace (TP x PP); KV cache " + std::string(ic.kv_cache.name) + ".");
  }
  t.notes.push_back("Own = purchase (street, else launch price; systems: given or sum of parts)" + std::string(serve ? "" : " + electricity for the run") +
                    "; Rent = cheapest USD cloud offer for that GPU per GPU-hour (cloud rows: the offer's headline price).");
  t.notes.push_back("Energy: GPU board power at TDP x PUE " + format_number(a.pue, 3) + (serve ? " per day of use" : "") + "; electricity " +
                    format(elec) + "; carbon " + format_number(a.grid_g_per_kwh, 4) + " g CO2e/kWh (world 2022, Ember) unless --grid.");
  t.notes.push_back("B/E mo = first month owning (purchase + electricity at utilization " + format_number(a.utilization, 3) +
                    ") costs no more than renting as many GPUs, within " + std::to_string(a.months) + " months.");
  t.notes.push_back("$/TFLOP per dense BF16 TFLOP/s; $/GB per GB of GPU memory; TFLOP/W at TDP. Prices and sources: capplan catalog list.");
  if (has_deadline && !serve) {
    t.notes.push_back("--deadline sizes the GPUs at 6 x params x tokens / (peak x " + format_number(mfu, 3) +
                      "); an option the timed layout still leaves late is left out.");
  }
  if (skipped_filters) t.notes.push_back(std::to_string(skipped_filters) + " option(s) left out by --budget, --deadline or --max-power.");
  if (!no_fit.empty() && !(a.budget.empty() && a.deadline.empty() && a.max_power.empty())) {
    t.notes.push_back(std::to_string(no_fit.size()) + " option(s) cannot run this workload.");
  }

  // JSON.
  auto& j = res.json;
  j["model"] = m.id;
  j["parameters"] = params;
  j["workload"] = serve ? "serve" : "train";
  if (!serve) {
    j["tokens"] = tokens;
    j["flops_total"] = flops;
  } else {
    j["batch"] = ic.sequences;
    j["context"] = context;
    j["weights"] = std::string(ic.weights.name);
  }
  auto& rows = j["rows"] = nlohmann::ordered_json::array();
  for (const auto& row : t.rows) {
    nlohmann::ordered_json e;
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      const Cell& cell = row[i];
      const std::string& key = t.columns[i].key;
      if (key == "gpus" && !cell.number) {
        e["fits"] = false;
        e[key] = nullptr;
        continue;
      }
      if (key == "gpus") e["fits"] = true;
      if (key == "gpus" && cell.number) e[key] = static_cast<int>(*cell.number);
      else if (cell.exact) e[key] = *cell.exact;
      else if (cell.number) e[key] = *cell.number;
      else if (cell.text == "–") e[key] = nullptr;
      else e[key] = cell.text;
    }
    const auto pl = plans.find(row[0].text);
    e["plan"] = pl == plans.end() ? nlohmann::ordered_json(nullptr) : pl->second;
    e["pareto"] = row[0].flag;
    rows.push_back(e);
  }
  j["assumptions"] = t.notes;
  res.explanation = expl;

  // Text: two tables, so each reads at 100 columns; other formats: one table.
  if (ctx.format() == OutputFormat::table) {
    auto pick = [&](const std::vector<std::string>& keys, std::string title, bool notes) {
      Table s;
      s.title = std::move(title);
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
    std::vector<std::string> first = {"option", "kind", "gpus", serve ? "decode_tokens_per_s" : "time_s", "own_cost_usd",
                                      serve ? "rent_usd_per_h" : "rent_cost_usd"};
    if (serve) first.push_back("rent_usd_per_mtok");
    for (std::string k : {"break_even_month", serve ? "energy_kwh_per_day" : "energy_kwh", serve ? "co2e_kg_per_day" : "co2e_kg"}) first.push_back(k);
    res.tables.push_back(pick(first, t.title, false));
    res.tables.push_back(pick({"option", "memory_per_gpu_bytes", "usd_per_tflop", "usd_per_gb", "tflop_per_w"},
                              "Value per GPU (same order)", true));
  } else {
    res.tables.push_back(std::move(t));
  }
  return res;
}

inline void add_compare(CLI::App& app, Context& ctx) {
  auto a = std::make_shared<CompareArgs>();
  auto* cmd = app.add_subcommand("compare", "Purchase table: every catalog GPU, system and cloud offer for one workload");
  cmd->footer(
      "Examples:\n"
      "  capplan compare --model llama2-7b --tokens 1e9\n"
      "  capplan compare --model llama2-7b --tokens 2e12 --deadline 30d --budget 2000000 --sort own_cost_usd\n"
      "  capplan compare --serve --model deepseek-r1-distill-qwen-32b --weights q4_0 --batch 4 --context 8192\n"
      "  capplan compare --model llama3.1-8b --tokens 1e10 --vendor nvidia --form-factor consumer --format csv\n"
      "  capplan compare --model llama2-7b --tokens 1e9 --mfu 0.4     (time = 6ND / (GPUs x peak x MFU))\n"
      "Columns to --sort by: option kind gpus time_s own_cost_usd rent_cost_usd break_even_month energy_kwh co2e_kg\n"
      "  memory_per_gpu_bytes usd_per_tflop usd_per_gb tflop_per_w (serving: decode_tokens_per_s rent_usd_per_h rent_usd_per_mtok)");
  cmd->add_option("--model", a->model, "Model preset id (e.g. llama2-7b) or a JSON model file")->required();
  cmd->add_option("--tokens", a->tokens, "Training tokens, e.g. 1e9 (training)");
  add_plan_flags(cmd, a->plan);
  add_serve_flags(cmd, a->plan, true);
  cmd->add_option("--mfu", a->mfu, "Time training as 6ND / (GPUs x peak x MFU) instead of with the performance model");
  cmd->add_option("--bandwidth-efficiency", a->bandwidth_efficiency, "Share of HBM bandwidth decode reaches (default 0.7)");
  cmd->add_option("--electricity", a->electricity, "Electricity price per kWh in USD (default 0.12)");
  cmd->add_option("--pue", a->pue, "Power usage effectiveness (default 1.0)");
  cmd->add_option("--grid", a->grid_g_per_kwh, "Grid carbon intensity in g CO2e/kWh (default 436, world 2022)");
  cmd->add_option("--utilization", a->utilization, "Busy share of owned hardware for break-even (default 1)");
  cmd->add_option("--months", a->months, "Break-even horizon in months (default 60)");
  cmd->add_option("--budget", a->budget, "Keep options whose cost to own or to rent is within this (USD)");
  cmd->add_option("--deadline", a->deadline, "Keep options that finish in time (days, or '720 h')");
  cmd->add_option("--max-power", a->max_power, "Keep options whose GPUs draw at most this (W)");
  cmd->add_option("--vendor", a->vendor, "Keep one vendor: nvidia, amd, intel, apple, google");
  cmd->add_option("--form-factor", a->form_factor, "Keep one form factor: sxm, oam, pcie, consumer, soc");
  cmd->add_option("--only", a->kinds, "Rows: all (default), gpus, systems, cloud")->check(CLI::IsMember({"all", "gpus", "systems", "cloud"}));
  cmd->add_option("--sort", a->sort, "Sort by a column key or header (default: time, or $/Mtok when serving)");
  cmd->add_flag("--descending", a->descending, "Sort in descending order");
  cmd->callback([a, &ctx] { write(run_compare(*a, ctx), ctx); });
}

}  // namespace capplan::cli
