// The purchase comparison (capplan/plan/purchase.hpp), what `capplan compare` prints: every GPU,
// system and cloud offer of a catalog ranked for one training or serving workload; and the
// training / serving runs it is built from (plan/training_run.hpp, plan/serving_run.hpp).
//
//   q = PurchaseQuery(model=find_model("llama2-7b").transformer(), model_name="llama2-7b", tokens=1e9)
//   t = purchase_table(q, Catalog.builtin());  t.rows[0].time;  t.table().to_pandas();  t.to_pandas()
#include "areas.hpp"
#include "convert.hpp"
#include "record.hpp"

#include <capplan/plan/build.hpp>
#include <capplan/plan/catalog_tco.hpp>
#include <capplan/plan/goodput.hpp>
#include <capplan/plan/it_power.hpp>
#include <capplan/plan/purchase.hpp>
#include <capplan/plan/run_footprint.hpp>
#include <capplan/plan/serving_report.hpp>
#include <capplan/plan/training_report.hpp>
#include <capplan/report/run_output.hpp>
#include <capplan/plan/serving_run.hpp>
#include <capplan/plan/system_sizing.hpp>
#include <capplan/plan/training_run.hpp>
#include <capplan/report/build_output.hpp>
#include <capplan/report/render.hpp>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <type_traits>

namespace capplan::python {

namespace {

// TrainingRunSearch's ranking, whether the header keeps it as text or works it out on demand.
template <class Search>
std::string search_explanation(const Search& r) {
  if constexpr (std::is_member_function_pointer_v<decltype(&Search::explanation)>) return r.explanation();
  else return r.explanation;
}

}  // namespace

void bind_purchase(py::module_& m) {
  text_enum<PurchaseWorkload>(m, "PurchaseWorkload", "Train a model on tokens, or serve it.");
  text_enum<OptionKind>(m, "OptionKind", "A row of the purchase table: a GPU, a system or a cloud offer.");
  text_enum<PriceEnd>(m, "PriceEnd", "Which end of a catalog price range an estimate uses: low (what ranks a row) or high.");

  Record<TrainingSetup>(m, "TrainingSetup", "How training runs are set up: precision, batch, MFU, network, framework, search.")
      .field("seq_len", &TrainingSetup::seq_len, "0: the model's")
      .field("global_batch", &TrainingSetup::global_batch, "sequences; None: about 4M tokens")
      .field("precision", &TrainingSetup::precision)
      .field("measured_mfu", &TrainingSetup::measured_mfu)
      .field("gpus_per_node", &TrainingSetup::gpus_per_node)
      .field("fabric", &TrainingSetup::fabric, "between nodes; None: usual_fabric(gpu)")
      .field("pcie_host", &TrainingSetup::pcie_host, "how PCIe GPUs hang off a node's host: pcie_switch, root_complex, two_sockets")
      .field("p2p", &TrainingSetup::p2p, "what NCCL may do over those PCIe links: automatic, forced (NCCL_P2P_LEVEL=SYS), disabled")
      .field("host_memory_bandwidth", &TrainingSetup::host_memory_bandwidth,
             "the host's DRAM wire rate, B/s, its GPUs share through host memory (0: assumed_host_memory_bandwidth)")
      .field("framework", &TrainingSetup::framework)
      .field("space", &TrainingSetup::space)
      .field("finetune", &TrainingSetup::finetune, "full, or LoRA / QLoRA adapters")
      .field("lora", &TrainingSetup::lora, "adapters with finetune lora or qlora")
      .field("fp8_recipe", &TrainingSetup::fp8_recipe, "how precision fp8 scales tensors (delayed, current, mxfp8, blockwise)")
      .field("mtp_layers", &TrainingSetup::mtp_layers, "multi-token-prediction layers trained on the last stage (TrainingJob.mtp_layers)")
      .finish();
  Record<TrainingRun>(m, "TrainingRun", "A timed training run: job, cluster, plan, estimate and memory per GPU.")
      .readonly("job", &TrainingRun::job)
      .readonly("cluster", &TrainingRun::cluster)
      .readonly("fabric", &TrainingRun::fabric)
      .readonly("plan", &TrainingRun::plan)
      .readonly("estimate", &TrainingRun::estimate)
      .readonly("memory", &TrainingRun::memory)
      .readonly("precision_note", &TrainingRun::precision_note)
      .finish(false)
      .def("gpus", &TrainingRun::gpus)
      .def("time_for_tokens", &TrainingRun::time_for_tokens, py::arg("tokens"))
      .def("explain", [](const TrainingRun& r) { return r.estimate.explain(); });
  Record<TrainingRunSearch>(m, "TrainingRunSearch", "The fastest training run that fits, or None, and how the search went.")
      .readonly("run", &TrainingRunSearch::run)
      .readonly("candidates", &TrainingRunSearch::candidates)
      .readonly("rejected_for_memory", &TrainingRunSearch::rejected_for_memory)
      .property(
          "explanation", [](const TrainingRunSearch& r) { return search_explanation(r); }, nullptr,
          [](const TrainingRunSearch& r) { return py::object(py::str(search_explanation(r))); }, "",
          "The search's ranking (perf::SearchResult::explain).")
      .finish(false);
  m.def("best_training_run", &best_training_run, py::arg("shape"), py::arg("gpu"), py::arg("gpus"),
        py::arg("setup") = TrainingSetup{}, "The fastest plan that fits on `gpus` GPUs of this model (as `capplan train`).");
  m.def("default_batch_sequences", &default_batch_sequences, py::arg("seq_len"),
        "The sequences of about 4M tokens the default global batch rounds up: 4,194,304 // seq_len, at least 1.");
  m.def("default_global_batch", &default_global_batch, py::arg("seq_len"), py::arg("gpus"),
        "The default global batch in sequences: about 4M tokens, rounded up to a multiple of the GPUs.");
  m.def("model_parallel_batch", &model_parallel_batch, py::arg("seq_len"), py::arg("gpus"),
        "The batch model-parallel replicas keep under twice ~4M tokens on `gpus` GPUs: the default's sequences rounded up to a "
        "multiple of the largest divisor of the GPUs at most that many (train's note beside an oversized default; pass it as "
        "global_batch).");
  m.def("default_batch_oversized", &default_batch_oversized, py::arg("seq_len"), py::arg("gpus"),
        "The default global batch on these GPUs is twice the ~4M tokens or more (the GPUs are at least twice its sequences).");
  m.def("training_run", &training_run, py::arg("shape"), py::arg("gpu"), py::arg("plan"), py::arg("setup") = TrainingSetup{},
        "A given plan on plan.gpus() GPUs: its estimate and memory (as `capplan train --tp ...`; the caller checks the fit).");

  text_enum<SizingTask>(m, "SizingTask", "What a machine is sized for: train, finetune or serve.");
  Record<RuleOfThumb>(m, "RuleOfThumb", "A rule buyers quote, what it gives for this machine, and the verdict.")
      .readonly("rule", &RuleOfThumb::rule)
      .readonly("source", &RuleOfThumb::source)
      .readonly("gives", &RuleOfThumb::gives)
      .readonly("verdict", &RuleOfThumb::verdict)
      .finish(false);
  Record<SizingLine>(m, "SizingLine", "One sizing answer: the figure, the parts it sums, the rule, the rules of thumb.")
      .readonly("item", &SizingLine::item)
      .readonly("answer", &SizingLine::answer)
      .readonly("value", &SizingLine::value)
      .readonly("parts", &SizingLine::parts)
      .readonly("rule", &SizingLine::rule)
      .readonly("rules_of_thumb", &SizingLine::rules_of_thumb)
      .finish(false);
  Record<SystemSizing>(m, "SystemSizing", "System RAM, CPU cores, storage, lanes and cooling around a set of GPUs (capplan size).")
      .readonly("ram_needed", &SystemSizing::ram_needed)
      .readonly("ram", &SystemSizing::ram, "the next common size up")
      .readonly("cpu_cores", &SystemSizing::cpu_cores)
      .readonly("storage", &SystemSizing::storage)
      .readonly("storage_read", &SystemSizing::storage_read)
      .readonly("storage_write", &SystemSizing::storage_write)
      .readonly("pcie_lanes", &SystemSizing::pcie_lanes)
      .readonly("gpu_power", &SystemSizing::gpu_power)
      .readonly("airflow_cfm", &SystemSizing::airflow_cfm)
      .readonly("lines", &SystemSizing::lines)
      .readonly("assumptions", &SystemSizing::assumptions)
      .finish(false)
      .def(
          "notes",
          [](const SystemSizing& s) { return system_sizing_notes(s); },
          "The notes `capplan size` prints under its table: each answer's sum and rule, the rules of thumb, the assumptions.")
      .def(
          "output",
          [](const SystemSizing& s, const GpuSpec& gpu, int gpus, SizingTask task, const std::string& model, std::optional<std::vector<std::string>> notes) {
            SizingQuery q;
            q.gpu = &gpu;
            q.gpus = gpus;
            q.task = task;
            return to_python(system_sizing_output(s, q, model, notes ? *notes : system_sizing_notes(s)));
          },
          py::arg("gpu"), py::arg("gpus") = 1, py::arg("task") = SizingTask::train, py::arg("model") = "", py::arg("notes") = py::none(),
          "What `capplan size --format json` prints, as dicts and lists (the same keys); `notes` default to notes().");
  m.def(
      "size_system",
      [](const GpuSpec& gpu, int gpus, SizingTask task, double parameters, double trainable, DataSize dataset, double samples_per_second,
         int checkpoints_kept, bool offload_optimizer, bool cache_dataset, const CpuSpec* cpu, int nvme_drives, double checkpoint_bytes_per_param) {
        SizingQuery q;
        q.gpu = &gpu;
        q.gpus = gpus;
        q.task = task;
        q.parameters = parameters;
        q.trainable = trainable;
        q.dataset = dataset;
        q.samples_per_second = samples_per_second;
        q.checkpoints_kept = checkpoints_kept;
        q.offload_optimizer = offload_optimizer;
        q.cache_dataset = cache_dataset;
        q.cpu = cpu;
        q.nvme_drives = nvme_drives;
        q.checkpoint_bytes_per_param = checkpoint_bytes_per_param;
        return size_system(q);
      },
      py::arg("gpu"), py::arg("gpus") = 1, py::arg("task") = SizingTask::train, py::arg("parameters") = 0.0, py::arg("trainable") = 0.0,
      py::arg("dataset") = DataSize::from_value(0), py::arg("samples_per_second") = 0.0, py::arg("checkpoints_kept") = 3,
      py::arg("offload_optimizer") = false, py::arg("cache_dataset") = false, py::arg("cpu") = nullptr, py::arg("nvme_drives") = 1,
      py::arg("checkpoint_bytes_per_param") = adam_checkpoint_bytes_per_param,
      "The machine around `gpus` x `gpu` (plan/system_sizing.hpp; capplan size); checkpoints of `checkpoint_bytes_per_param` bytes per "
      "trained parameter (14: mixed-precision Adam; 8 for an image model trained with SGD and momentum).");

  Record<ServingLoad>(m, "ServingLoad", "A serving load: weight and KV formats, batch, prompt and output tokens.")
      .field("weights", &ServingLoad::weights)
      .field("expert_weights", &ServingLoad::expert_weights, "the routed experts' format where it differs (None: as weights)")
      .field("cuda_graphs", &ServingLoad::cuda_graphs, "the engine replays decode steps as CUDA graphs (vLLM, TensorRT-LLM)")
      .field("eager", &ServingLoad::eager, "plain PyTorch: each kernel launched from Python; not with cuda_graphs")
      .field("pcie_host", &ServingLoad::pcie_host, "how a PCIe node attaches its GPUs: pcie_switch, root_complex, two_sockets")
      .field("p2p", &ServingLoad::p2p, "what NCCL may do over its PCIe links: automatic, forced (NCCL_P2P_LEVEL=SYS), disabled")
      .field("host_memory_bandwidth", &ServingLoad::host_memory_bandwidth,
             "the host's DRAM wire rate, B/s, its GPUs share through host memory (0: assumed_host_memory_bandwidth)")
      .field("kv_cache", &ServingLoad::kv_cache)
      .field("batch", &ServingLoad::batch)
      .field("prompt", &ServingLoad::prompt)
      .field("output", &ServingLoad::output)
      .field("weight_stream_latency", &ServingLoad::weight_stream_latency,
             "a weight-streaming matmul's fixed time beyond its bytes (None: the fitted 12 us; 0 s: its prior)")
      .field("eager_launch_time", &ServingLoad::eager_launch_time,
             "with eager: the host's time to launch one kernel (None: the fitted 32.7 us; 0 s: its prior), 0 to 1 ms")
      .field("gpus_per_node", &ServingLoad::gpus_per_node,
             "GPUs of one node: TP stays inside one, pipeline stages beyond it cross `fabric` (0: the replica is one node)")
      .field("fabric", &ServingLoad::fabric, "the network between nodes (None: serving_fabric's default for the GPU)")
      .finish()
      .def("validate", &ServingLoad::validate)
      .def("config", &ServingLoad::config, py::arg("tp") = 1, py::arg("pp") = 1, "The InferenceConfig that sizes its memory.");
  Record<ServingRun>(m, "ServingRun", "A served layout: tp x pp, the inference estimate, memory per GPU and the fit.")
      .readonly("tp", &ServingRun::tp)
      .readonly("pp", &ServingRun::pp)
      .readonly("estimate", &ServingRun::estimate)
      .readonly("memory", &ServingRun::memory)
      .readonly("fit", &ServingRun::fit)
      .finish(false)
      .def("explain", [](const ServingRun& r) { return r.estimate.explain(); });
  m.def("serving_run", &serving_run, py::arg("shape"), py::arg("gpu"), py::arg("load"), py::arg("tp") = 1, py::arg("pp") = 1,
        "The load on TP tp x PP pp GPUs: time and memory per GPU (as `capplan infer`). InputError naming weights or expert_weights "
        "for FP8 or NVFP4 weights on an NVIDIA GPU before Turing (weights_without_kernel), tp or pp for a layout that cannot run.");
  m.def("weights_without_kernel", &weights_without_kernel, py::arg("gpu"), py::arg("weights"), py::arg("expert_weights") = std::nullopt,
        "\"fp8 weights\", \"nvfp4 weights\" or \"fp8 experts\" where no serving engine runs them on `gpu` (an NVIDIA GPU before "
        "Turing: vLLM's Marlin kernels start at compute capability 7.5, llama.cpp has no such type); \"\" where one does.");
  m.def("serving_fabric", &serving_fabric, py::arg("gpu"), py::arg("load"),
        "The network a replica's stages cross between nodes: the load's fabric, else the GPU's usual one; consumer cards a 10 GbE port.");
  m.def("smallest_serving_run", &smallest_serving_run, py::arg("shape"), py::arg("gpu"), py::arg("load"),
        py::arg("max_gpus") = 256, py::arg("max_tp") = 8,
        "The fewest GPUs that hold the load, timed; None beyond max_gpus (as `capplan infer`). max_tp: the GPUs of one node, "
        "which a TP group may not leave (compare's cloud rows: the instance's).");

  Record<HostAllowance>(m, "HostAllowance", "Host power where the catalog has no system: server factor, desktop CPU, PSU load and cards per desktop, and the GPU server host of a node of more cards.")
      .field("server_factor", &HostAllowance::server_factor)
      .field("desktop_cpu", &HostAllowance::desktop_cpu)
      .field("desktop_psu_load", &HostAllowance::desktop_psu_load)
      .field("desktop_gpus", &HostAllowance::desktop_gpus)
      .field("server_cpu_pcie4", &HostAllowance::server_cpu_pcie4, "each of a GPU server's CPUs with PCIe 4 and earlier cards (EPYC 7763)")
      .field("server_cpu_pcie5", &HostAllowance::server_cpu_pcie5, "each of a GPU server's CPUs with PCIe 5 cards (Xeon Platinum 8480+)")
      .field("server_dimms", &HostAllowance::server_dimms)
      .field("server_sockets", &HostAllowance::server_sockets,
             "the GPU server host's sockets: 2, or 1 where its GPUs sit on one CPU's root ports (the reports set it from the run's pcie_host)")
      .field("server_psu_load", &HostAllowance::server_psu_load, "where on the 80 PLUS Platinum 230 V curve a GPU server's supplies run (0.8: the draw x 1.25)")
      .finish()
      .def("validate", &HostAllowance::validate);
  Record<ItPower>(m, "ItPower", "IT power of an option: the GPUs, the total at the wall and the arithmetic.")
      .readonly("gpus", &ItPower::gpus)
      .readonly("total", &ItPower::total)
      .readonly("planning", &ItPower::planning)
      .readonly("basis", &ItPower::basis)
      .readonly("known", &ItPower::known)
      .finish(false);
  m.def("gpu_it_power", &gpu_it_power, py::arg("gpu"), py::arg("gpus"), py::arg("allowance") = HostAllowance{}, py::arg("gpus_per_node") = 0,
        "IT power of `gpus` x `gpu` with the host allowance: data-centre GPUs at TDP x server_factor, consumer and workstation cards (desktop_card) with a desktop "
        "host for every allowance.desktop_gpus cards (at least one per node of gpus_per_node; 0: not known) or, where a node of gpus_per_node holds "
        "more cards than that, each card's 1 / gpus_per_node share of a GPU server host (allowance.server_sockets sockets); an SoC with its box.");
  m.def("desktop_card", &desktop_card, py::arg("gpu"),
        "True for a card that goes in a desktop with a desktop host: a consumer card, or a PCIe card with its own fans (blower, open-air).");
  m.def("system_it_power", &system_it_power, py::arg("system"), py::arg("catalog"), py::arg("units") = 1);

  Record<CatalogTco>(m, "CatalogTco",
                     "What the catalog knows for owning `gpus` of a GPU against renting as many (`capplan tco --gpu`): the purchase "
                     "(street price, else launch price, x gpus; the GPUs only, or an SoC's box as its entry prices it), the busy IT power (power.known False: no figure, "
                     "its powers 0), the cheapest USD rent of `gpus` for a month at the utilization, in whole instances (copied "
                     "out of the catalog), and why there is none.")
      .readonly("purchase", &CatalogTco::purchase)
      .readonly("purchase_high", &CatalogTco::purchase_high)
      .readonly("launch_price", &CatalogTco::launch_price)
      .readonly("price_source", &CatalogTco::price_source)
      .readonly("bought_gpus", &CatalogTco::bought_gpus,
                "SXM and OAM modules: the GPUs the purchase buys in whole baseboards where more than gpus (4 for 2 H100 SXM); 0: gpus")
      .readonly("power", &CatalogTco::power)
      .readonly("rent_per_gpu_hour", &CatalogTco::rent_per_gpu_hour)
      .readonly("rent_kind", &CatalogTco::rent_kind)
      .readonly("rent_min_term", &CatalogTco::rent_min_term)
      .readonly("rent_billed_gpus", &CatalogTco::rent_billed_gpus)
      .readonly("rent_offer", &CatalogTco::rent_offer)
      .readonly("rent_source", &CatalogTco::rent_source)
      .readonly("rent_left_out", &CatalogTco::rent_left_out)
      .finish(false)
      .def("rented_option", [](const CatalogTco& t) { return rented_option(t); },
           "The rent as compare_costs takes it, for every GPU billed: on_demand (also for spot, as compare's rows count it), a "
           "monthly_rental at the offer's monthly price, or reserved for its term; None without a rent.");
  m.def("catalog_tco", &catalog_tco, py::arg("catalog"), py::arg("gpu"), py::arg("gpus") = 1, py::arg("utilization") = 1.0,
        py::arg("fx") = std::vector<ExchangeRate>{},
        "Owning against renting `gpus` of `gpu` from the catalog's figures, the rent chosen for a month used `utilization` of the "
        "time: OwnedOption(purchase=t.purchase, active_power=t.power.total, ...) against t.rented_option() (as `capplan tco --gpu` "
        "does). InputError naming gpus outside 1..1,048,576 or utilization outside (0, 1].");
  m.def("purchase_unit_gpus", &purchase_unit_gpus, py::arg("gpu"),
        "The GPUs one purchase of `gpu` comes in: an SXM or OAM module's whole baseboard (GpuSpec.board_gpus, 8 where not "
        "recorded), a card or an SoC 1.");

  Record<PurchaseFilters>(m, "PurchaseFilters", "Budget, deadline, power, vendor, form factor and which kinds of rows.")
      .field("budget", &PurchaseFilters::budget)
      .field("deadline", &PurchaseFilters::deadline)
      .field("max_power", &PurchaseFilters::max_power)
      .field("vendor", &PurchaseFilters::vendor)
      .field("form_factor", &PurchaseFilters::form_factor)
      .field("gpus", &PurchaseFilters::gpus)
      .field("systems", &PurchaseFilters::systems)
      .field("cloud", &PurchaseFilters::cloud)
      .finish();
  Record<GoodputConfig>(m, "GoodputConfig", "What a whole run adds to its iterations: failures, restarts, checkpoints (plan/goodput.hpp).")
      .field("failures_per_gpu_hour", &GoodputConfig::failures_per_gpu_hour, "default: Llama 3's 1.97e-5; 0: none")
      .field("restart", &GoodputConfig::restart)
      .field("storage_write", &GoodputConfig::storage_write, "aggregate checkpoint write bandwidth")
      .field("host_copy", &GoodputConfig::host_copy, "per GPU, GPU to host memory")
      .field("async_checkpoint", &GoodputConfig::async_checkpoint)
      .field("checkpoint_interval", &GoodputConfig::checkpoint_interval, "None: Daly's optimum")
      .field("evaluation_share", &GoodputConfig::evaluation_share)
      .field("warmup_share", &GoodputConfig::warmup_share)
      .finish();
  Record<GoodputEstimate>(m, "GoodputEstimate", "Expected wall clock and GPU-hours of a whole run, term by term.")
      .readonly("ideal_time", &GoodputEstimate::ideal_time)
      .readonly("iteration", &GoodputEstimate::iteration, "one iteration (0 s: not given)")
      .readonly("gpus", &GoodputEstimate::gpus)
      .readonly("checkpoint", &GoodputEstimate::checkpoint)
      .readonly("evaluation", &GoodputEstimate::evaluation)
      .readonly("warmup", &GoodputEstimate::warmup)
      .readonly("checkpointing", &GoodputEstimate::checkpointing)
      .readonly("lost_work", &GoodputEstimate::lost_work)
      .readonly("restarting", &GoodputEstimate::restarting)
      .readonly("write_lag_loss", &GoodputEstimate::write_lag_loss)
      .readonly("solve_time", &GoodputEstimate::solve_time)
      .readonly("job_mtbf", &GoodputEstimate::job_mtbf, "None: no failures")
      .readonly("checkpoint_write", &GoodputEstimate::checkpoint_write)
      .readonly("checkpoint_stall", &GoodputEstimate::checkpoint_stall)
      .readonly("checkpoint_interval", &GoodputEstimate::checkpoint_interval)
      .readonly("optimal_interval", &GoodputEstimate::optimal_interval)
      .readonly("interval_iterations", &GoodputEstimate::interval_iterations, "checkpoint_interval in iterations (each with its share of evaluation and warm-up), whole (0: no iteration given, or one checkpoint at the end)")
      .readonly("checkpoints", &GoodputEstimate::checkpoints)
      .readonly("expected_failures", &GoodputEstimate::expected_failures)
      .readonly("expected_wall_clock", &GoodputEstimate::expected_wall_clock)
      .readonly("ideal_gpu_hours", &GoodputEstimate::ideal_gpu_hours)
      .readonly("expected_gpu_hours", &GoodputEstimate::expected_gpu_hours)
      .readonly("goodput", &GoodputEstimate::goodput)
      .readonly("explanation", &GoodputEstimate::explanation)
      .readonly("assumptions", &GoodputEstimate::assumptions)
      .finish(false)
      .def("explain", &GoodputEstimate::explain);
  m.def("checkpoint_size", &checkpoint_size, py::arg("params"), py::arg("bytes_per_param") = adam_checkpoint_bytes_per_param,
        "Bytes of a full mixed-precision Adam checkpoint: 14 B per parameter (ZeRO §3.1).");
  m.def("image_checkpoint_size", &image_checkpoint_size, py::arg("net"),
        "Bytes of an image model's checkpoint: its fp32 weights and SGD momentum, 8 B per parameter.");
  m.def("estimate_goodput", &estimate_goodput, py::arg("ideal_time"), py::arg("gpus"), py::arg("checkpoint"),
        py::arg("config") = GoodputConfig{}, py::arg("iteration") = Duration{},
        "Expected wall clock of a run whose iterations take ideal_time (Daly 2006); with iteration (one iteration's time), "
        "the checkpoint interval is a whole number of iterations, at least one.");
  m.def("young_interval", &young_interval, py::arg("stall"), py::arg("mtbf"), "Young 1974: sqrt(2 stall mtbf).");
  m.def("daly_interval", &daly_interval, py::arg("stall"), py::arg("mtbf"), "Daly 2006's higher-order optimum.");

  // Whole runs reported (plan/run_footprint.hpp, plan/training_report.hpp, plan/serving_report.hpp)
  // and their JSON (report/run_output.hpp): what capplan train and capplan infer print.
  Record<FootprintOptions>(m, "FootprintOptions", "PUE, grid intensity, the GPU-hour price (None: the cheapest USD offer) and the host allowance.")
      .field("pue", &FootprintOptions::pue)
      .field("grid_g_per_kwh", &FootprintOptions::grid_g_per_kwh, "g CO2e per kWh (default 436, world 2022, Ember)")
      .field("price_per_gpu_hour", &FootprintOptions::price_per_gpu_hour, "None: the GPU's cheapest cloud offer (the cheapest bill for the run)")
      .field("price_from", &FootprintOptions::price_from, "where a given price comes from")
      .field("fx", &FootprintOptions::fx, "rates into USD: offers in those currencies join the cheapest")
      .field("host", &FootprintOptions::host)
      .field("network", &FootprintOptions::network,
             "the rate per GPU (bandwidth x efficiency) the run's traffic between nodes is timed at: offers whose instances carry it slower "
             "are not its rent (0: none asked; the training reports set it)")
      .field("bill_as_sold", &FootprintOptions::bill_as_sold,
             "bill the run as the offer sells it (a monthly rent whole months, a reserved price at least its term); "
             "False: the cheapest price per hour, for a rate of work, the run's GPUs one serving replica that shares an instance "
             "with as many others as fit")
      .field("node_gpus", &FootprintOptions::node_gpus,
             "GPUs that must share one rented instance (a serving replica's TP group); 0: the node the run was timed on "
             "(gpus_per_node, at most the run's GPUs), any instance where that is 0")
      .finish();
  Record<RunFootprint>(m, "RunFootprint", "What a run draws, emits and costs: IT power, energy x PUE, carbon, price and cost.")
      .readonly("power", &RunFootprint::power)
      .readonly("pue", &RunFootprint::pue)
      .readonly("grid_g_per_kwh", &RunFootprint::grid_g_per_kwh)
      .readonly("kwh", &RunFootprint::kwh)
      .readonly("co2_kg", &RunFootprint::co2_kg)
      .readonly("price", &RunFootprint::price, "per GPU-hour; None: none given and no USD offer")
      .readonly("price_from", &RunFootprint::price_from)
      .readonly("price_offer", &RunFootprint::price_offer, "the cloud offer's id the price comes from; empty: a given price")
      .readonly("price_kind", &RunFootprint::price_kind, "the offer's price it is; None for a given price")
      .readonly("billed_gpu_hours", &RunFootprint::billed_gpu_hours,
                "the GPU-hours paid for: more than the run's where a monthly rental bills whole months or a reserved price its term")
      .readonly("instance_factor", &RunFootprint::instance_factor,
                "GPUs billed over GPUs used: whole instances, or a replica's share of an instance with idle GPUs; 1 for a given price")
      .readonly("cost", &RunFootprint::cost, "price x billed GPU-hours")
      .readonly("no_price_why", &RunFootprint::no_price_why, "without a price: the GPU's offers left out and why")
      .readonly("passed_over", &RunFootprint::passed_over,
                "the cheaper offer whose network between instances is slower than the run is timed on, and why; empty: none")
      .finish(false);
  m.def("run_footprint", &run_footprint, py::arg("catalog"), py::arg("gpu"), py::arg("gpus"), py::arg("time"), py::arg("gpu_hours"),
        py::arg("options") = FootprintOptions{}, py::arg("gpus_per_node") = 0,
        "IT power, energy, carbon and cost of `gpus` x `gpu` busy for `time` (gpus_per_node: the node size timed, 0 unknown; "
        "consumer and workstation cards get at least one desktop host per node).");
  m.def("instance_holds", &instance_holds, py::arg("offer"), py::arg("gpu"), py::arg("node_gpus"),
        "Whether an instance of the offer holds node_gpus GPUs in one node: its GPUs (up to max_gpus for an offer sold by the GPU) "
        "or a scale-up domain its instances share (NVL72, a TPU pod).");
  m.def("offer_network", &offer_network, py::arg("offer"), py::arg("gpu"),
        "The network between the offer's instances as a fabric: the published one; none for a slice of a server that records none; "
        "the GPU's usual network (assumed) for a whole server's instance that records none.");
  m.def("offer_network_rate", &offer_network_rate, py::arg("offer"), py::arg("gpu"),
        "The rate per GPU (bandwidth x efficiency) the offer's instances carry between them (offer_network); 0: no network.");
  m.def("network_shortfall", &network_shortfall, py::arg("offer"), py::arg("gpu"), py::arg("network"), py::arg("subject") = "its instances",
        "Why the offer does not hold a run timed at `network` a GPU between nodes, in words.");
  m.def("network_holds", &network_holds, py::arg("offer"), py::arg("gpu"), py::arg("gpus"), py::arg("network"),
        "Whether the offer runs `gpus` GPUs whose traffic between nodes is timed at `network` per GPU (bandwidth x efficiency): "
        "within one instance, or on a network at least that fast.");
  m.def("network_timed", &network_timed, py::arg("cluster"),
        "The rate per GPU (bandwidth x efficiency) a run on the cluster is timed at between its nodes; 0 within one node.");
  m.def("offers_left_out", &offers_left_out, py::arg("catalog"), py::arg("gpu"), py::arg("fx") = std::vector<ExchangeRate>{},
        py::arg("for_run") = true, py::arg("node_gpus") = 1, py::arg("gpus") = 0, py::arg("network") = Bandwidth{},
        "The GPU's offers no rent can come from, each with why: instances smaller than the node_gpus a plan puts in one node, "
        "a network between instances slower than the `network` per GPU `gpus` GPUs are timed at, "
        "a reserved price without its term (for a run), reserved only (per hour), or another currency without an --fx rate.");
  Record<TrainingReport>(m, "TrainingReport", "A training run for some tokens, reported whole: fit, time, goodput, links, footprint (capplan train).")
      .readonly("model", &TrainingReport::model)
      .readonly("gpu", &TrainingReport::gpu)
      .readonly("tokens", &TrainingReport::tokens)
      .readonly("searched", &TrainingReport::searched)
      .readonly("flash_attention", &TrainingReport::flash_attention)
      .readonly("fabric_assumed", &TrainingReport::fabric_assumed)
      .readonly("run", &TrainingReport::run)
      .readonly("fit", &TrainingReport::fit)
      .readonly("time", &TrainingReport::time, "iterations only")
      .readonly("gpu_hours", &TrainingReport::gpu_hours, "iterations only")
      .readonly("flops_total", &TrainingReport::flops_total, "model FLOPs, all GPUs")
      .readonly("goodput", &TrainingReport::goodput)
      .readonly("links", &TrainingReport::links)
      .readonly("footprint", &TrainingReport::footprint, "power, energy, carbon and cost over the expected wall clock (goodput)")
      .finish(false)
      .def("gpus", &TrainingReport::gpus)
      .def("output", [](const TrainingReport& r, const std::vector<std::string>& notes) { return to_python(training_output(r, notes)); },
           py::arg("assumptions") = std::vector<std::string>{}, "The JSON object of `capplan train --format json`, as a dict.");
  m.def("training_report", &training_report, py::arg("catalog"), py::arg("model"), py::arg("gpu"), py::arg("tokens"), py::arg("run"),
        py::arg("searched"), py::arg("setup") = TrainingSetup{}, py::arg("goodput") = GoodputConfig{}, py::arg("footprint") = FootprintOptions{},
        "A TrainingRun (best_training_run(...).run or training_run(...)) for `tokens` tokens, reported whole.");
  Record<ImageTrainingReport>(m, "ImageTrainingReport", "An image model's data-parallel run, reported whole (capplan train --model resnet50).")
      .readonly("model", &ImageTrainingReport::model)
      .readonly("gpu", &ImageTrainingReport::gpu)
      .readonly("gpus", &ImageTrainingReport::gpus)
      .readonly("images", &ImageTrainingReport::images)
      .readonly("batch_per_gpu", &ImageTrainingReport::batch_per_gpu)
      .readonly("precision", &ImageTrainingReport::precision)
      .readonly("host", &ImageTrainingReport::host)
      .readonly("estimate", &ImageTrainingReport::estimate)
      .readonly("memory", &ImageTrainingReport::memory, "per GPU at the batch (memory/image_model.hpp)")
      .readonly("fit", &ImageTrainingReport::fit)
      .readonly("max_batch_per_gpu", &ImageTrainingReport::max_batch_per_gpu, "the largest batch that fits (0: not one image)")
      .readonly("time", &ImageTrainingReport::time)
      .readonly("gpu_hours", &ImageTrainingReport::gpu_hours)
      .readonly("flops_total", &ImageTrainingReport::flops_total)
      .readonly("goodput", &ImageTrainingReport::goodput, "failures, restarts, lost work and checkpoints on top of the iterations")
      .readonly("footprint", &ImageTrainingReport::footprint, "over the expected wall clock")
      .finish(false)
      .def("output", [](const ImageTrainingReport& r, const std::vector<std::string>& notes) { return to_python(image_training_output(r, notes)); },
           py::arg("assumptions") = std::vector<std::string>{}, "The JSON object of `capplan train --format json` for an image model, as a dict.");
  m.def("image_training_report", &image_training_report, py::arg("catalog"), py::arg("model"), py::arg("net"), py::arg("cluster"),
        py::arg("batch_per_gpu"), py::arg("precision"), py::arg("host"), py::arg("images"), py::arg("goodput") = GoodputConfig{},
        py::arg("footprint") = FootprintOptions{},
        "`net` trained data parallel on `cluster` for `images` images, fed by `host`, reported whole: its goodput (checkpoints of "
        "the fp32 weights and SGD momentum, 8 B per parameter) and its footprint over the expected wall clock.");
  Record<ServingReport>(m, "ServingReport", "A serving load reported whole: the run, output tokens, footprint, cost per 1M tokens (capplan infer).")
      .readonly("model", &ServingReport::model)
      .readonly("gpu", &ServingReport::gpu)
      .readonly("load", &ServingReport::load)
      .readonly("run", &ServingReport::run)
      .readonly("output_tokens", &ServingReport::output_tokens)
      .readonly("nodes", &ServingReport::nodes, "nodes of load.gpus_per_node the replica's stages lie on")
      .readonly("fabric", &ServingReport::fabric, "the fabric's id between them; empty on one node")
      .readonly("footprint", &ServingReport::footprint)
      .readonly("cost_per_million_tokens", &ServingReport::cost_per_million_tokens, "output tokens; None without a price")
      .finish(false)
      .def("gpus", &ServingReport::gpus)
      .def("output_tokens_per_s_per_gpu", &ServingReport::output_tokens_per_s_per_gpu)
      .def(
          "output",
          [](const ServingReport& r, const std::vector<std::string>& notes, const std::vector<std::string>& would_fit) {
            return to_python(serving_output(r, notes, would_fit));
          },
          py::arg("assumptions") = std::vector<std::string>{}, py::arg("would_fit") = std::vector<std::string>{},
          "The JSON object of `capplan infer --format json`, as a dict.");
  m.def("serving_report", &serving_report, py::arg("catalog"), py::arg("model"), py::arg("gpu"), py::arg("run"), py::arg("load"),
        py::arg("footprint") = FootprintOptions{}, "A ServingRun of `load`, reported whole.");

  Record<PurchaseQuery>(m, "PurchaseQuery", "One workload to buy or rent hardware for, and the prices and filters.")
      .field("model", &PurchaseQuery::model)
      .field("model_name", &PurchaseQuery::model_name)
      .field("model_source", &PurchaseQuery::model_source)
      .field("workload", &PurchaseQuery::workload)
      .field("tokens", &PurchaseQuery::tokens, "training tokens")
      .field("training", &PurchaseQuery::training)
      .field("goodput", &PurchaseQuery::goodput)
      .field("serving", &PurchaseQuery::serving)
      .field("image_model", &PurchaseQuery::image_model, "train_images: the image model's layers (find_image_model('resnet50'))")
      .field("images", &PurchaseQuery::images, "train_images: images in all (epochs x the dataset)")
      .field("batch_per_gpu", &PurchaseQuery::batch_per_gpu, "train_images: images per GPU per iteration (cut to what fits)")
      .field("cpu_cores_per_gpu", &PurchaseQuery::cpu_cores_per_gpu, "train_images: CPU cores decoding images per GPU")
      .field("decode_rate", &PurchaseQuery::decode_rate, "train_images: images a core decodes per second")
      .field("image_batch", &PurchaseQuery::image_batch, "serve_images: images per batch on each GPU (0: 64, or 1 for a diffusion UNet)")
      .field("image_precision", &PurchaseQuery::image_precision, "serve_images: the precision the model runs at")
      .field("steps", &PurchaseQuery::steps, "serve_images, a diffusion UNet: denoising steps per image")
      .field("guidance", &PurchaseQuery::guidance, "serve_images, a diffusion UNet: classifier-free guidance (two latents per image and step)")
      .field("vae_slicing", &PurchaseQuery::vae_slicing, "serve_images, a diffusion UNet: the VAE decodes one image at a time")
      .field("vae_tiling", &PurchaseQuery::vae_tiling, "serve_images, a diffusion UNet: the VAE decodes in tiles (less memory, more time)")
      .field("filters", &PurchaseQuery::filters)
      .field("electricity", &PurchaseQuery::electricity)
      .field("pue", &PurchaseQuery::pue)
      .field("grid_g_per_kwh", &PurchaseQuery::grid_g_per_kwh)
      .field("utilization", &PurchaseQuery::utilization)
      .field("months", &PurchaseQuery::months, "break-even horizon")
      .field("host", &PurchaseQuery::host)
      .field("fx", &PurchaseQuery::fx, "rates into USD (ExchangeRate('CNY', 'USD', ...)): prices and offers in those currencies join the ranking")
      .finish()
      .def("validate", &PurchaseQuery::validate);
  Record<PurchaseRow>(m, "PurchaseRow", "One option: GPUs, plan and time (or throughput), own and rent cost, energy, value.")
      .readonly("option", &PurchaseRow::option)
      .readonly("kind", &PurchaseRow::kind)
      .readonly("gpu_id", &PurchaseRow::gpu_id)
      .readonly("status", &PurchaseRow::status, "empty when estimated; else why not")
      .readonly("unit_gpus", &PurchaseRow::unit_gpus)
      .readonly("units", &PurchaseRow::units)
      .readonly("gpus", &PurchaseRow::gpus)
      .readonly("gpus_to_fit", &PurchaseRow::gpus_to_fit)
      .readonly("deadline_sized", &PurchaseRow::deadline_sized)
      .readonly("training", &PurchaseRow::training)
      .readonly("image", &PurchaseRow::image, "train_images: the image model's estimate")
      .readonly("batch_per_gpu", &PurchaseRow::batch_per_gpu, "train_images: the batch per GPU it ran at")
      .readonly("time", &PurchaseRow::time, "iterations only")
      .readonly("goodput", &PurchaseRow::goodput, "the whole run; None when it could not finish")
      .readonly("kept_batch", &PurchaseRow::kept_batch,
                "training rows whose default batch grew to twice ~4M tokens or more: the batch model-parallel replicas keep on the same "
                "GPUs (model_parallel_batch); 0 elsewhere")
      .readonly("kept_batch_run", &PurchaseRow::kept_batch_run,
                "the plan search's best at kept_batch on the row's nodes and network; None where no layout divides it (kept_batch_plans 0) or no plan fits")
      .readonly("kept_batch_plans", &PurchaseRow::kept_batch_plans, "the plans timed at kept_batch (0: no layout of the GPUs divides it)")
      .readonly("kept_batch_time", &PurchaseRow::kept_batch_time, "iterations at kept_batch for the same tokens")
      .readonly("kept_batch_late", &PurchaseRow::kept_batch_late, "the whole run at kept_batch misses the deadline")
      .readonly("serving", &PurchaseRow::serving)
      .readonly("replicas", &PurchaseRow::replicas)
      .readonly("decode_tokens_per_s", &PurchaseRow::decode_tokens_per_s)
      .readonly("purchase", &PurchaseRow::purchase)
      .readonly("purchase_source", &PurchaseRow::purchase_source)
      .readonly("electricity_cost", &PurchaseRow::electricity_cost)
      .readonly("own_cost", &PurchaseRow::own_cost)
      .readonly("purchase_high", &PurchaseRow::purchase_high, "the high end where the catalog's price is a range; purchase is the low end")
      .readonly("own_cost_high", &PurchaseRow::own_cost_high, "own cost at the high end of a price range")
      .readonly("rent_rate", &PurchaseRow::rent_rate)
      .readonly("rent_from", &PurchaseRow::rent_from)
      .readonly("rent_offer", &PurchaseRow::rent_offer, "the cloud offer's id the rent comes from")
      .readonly("rent_kind", &PurchaseRow::rent_kind, "which of the offer's prices the rent is")
      .readonly("rent_node_gpus", &PurchaseRow::rent_node_gpus,
                "GPU and system rows: the GPUs an instance had to hold (the node timed, a serving replica's TP group); 0: any")
      .readonly("rent_network", &PurchaseRow::rent_network,
                "training GPU and system rows across nodes: the rate per GPU (bandwidth x efficiency) between nodes they are timed at, which "
                "the rented instances had to carry; 0: none asked")
      .readonly("rent_min_term", &PurchaseRow::rent_min_term, "that offer's minimum term (None: not stated)")
      .readonly("rent_billed", &PurchaseRow::rent_billed, "training: the wall clock the rent bills (whole months, a reserved term)")
      .readonly("rent_billed_gpus", &PurchaseRow::rent_billed_gpus,
                "training GPU and system rows: the GPUs the rent bills, in whole instances of the offer (0: the row's own)")
      .readonly("rent_cost", &PurchaseRow::rent_cost, "training: rent_rate x the time billed")
      .readonly("rent_usd_per_mtok", &PurchaseRow::rent_usd_per_mtok)
      .readonly("image_inference", &PurchaseRow::image_inference, "serve_images: one batch's forward (a UNet's denoising step)")
      .readonly("image_decode", &PurchaseRow::image_decode, "serve_images: a diffusion pipeline's VAE decode, once per batch")
      .readonly("text_encode_s", &PurchaseRow::text_encode_s, "serve_images: a diffusion pipeline's text encoders, once per batch (0: not timed)")
      .readonly("image_memory", &PurchaseRow::image_memory, "serve_images: memory per GPU (weights, the larger of a step's and the decode's activations, reserve)")
      .readonly("seconds_per_batch", &PurchaseRow::seconds_per_batch, "serve_images: a batch's whole time (a UNet's text encoding, steps and VAE decode)")
      .readonly("images_per_s", &PurchaseRow::images_per_s, "serve_images: all the unit's GPUs")
      .readonly("rent_usd_per_kimage", &PurchaseRow::rent_usd_per_kimage, "serve_images: rent per thousand images")
      .readonly("break_even_month", &PurchaseRow::break_even_month)
      .readonly("break_even_checked", &PurchaseRow::break_even_checked)
      .readonly("break_even_month_high", &PurchaseRow::break_even_month_high, "at the high end of a price range")
      .readonly("power", &PurchaseRow::power)
      .property(
          "energy", [](const PurchaseRow& r) -> std::optional<Energy> { return r.power.known ? std::optional<Energy>(r.energy) : std::nullopt; },
          nullptr, [](const PurchaseRow& r) { return r.power.known ? record_detail::plain(r.energy) : py::object(py::none()); },
          record_detail::key_of("energy", Energy{}),
          "IT power x the expected wall clock (image models: the time; serving: a day) x PUE; None where the part has no published power (TPUs, Trainium)")
      .property(
          "co2e_kg", [](const PurchaseRow& r) -> std::optional<double> { return r.power.known ? std::optional<double>(r.co2e_kg) : std::nullopt; },
          nullptr, [](const PurchaseRow& r) { return r.power.known ? py::cast(r.co2e_kg) : py::object(py::none()); }, "co2e_kg",
          "energy x grid intensity; None where the energy is")
      .readonly("gpu_memory", &PurchaseRow::gpu_memory)
      .readonly("usd_per_tflop", &PurchaseRow::usd_per_tflop)
      .readonly("usd_per_gb", &PurchaseRow::usd_per_gb)
      .readonly("tflop_per_w", &PurchaseRow::tflop_per_w)
      .readonly("pareto", &PurchaseRow::pareto)
      .readonly("explanation", &PurchaseRow::explanation)
      .finish(false)
      .def("estimated", &PurchaseRow::estimated)
      .def("explain", [](const PurchaseRow& r) { return r.explanation; });
  Record<PurchaseTable> pt(m, "PurchaseTable", "The ranked options for one workload, with assumptions and sources.");
  pt.readonly("query", &PurchaseTable::query)
      .readonly("title", &PurchaseTable::title)
      .readonly("rows", &PurchaseTable::rows)
      .readonly("assumptions", &PurchaseTable::assumptions)
      .readonly("filtered_out", &PurchaseTable::filtered_out)
      .readonly("cannot_run", &PurchaseTable::cannot_run)
      .readonly("flops_total", &PurchaseTable::flops_total);
  auto& table = pt.finish(false);
  py::delattr(table, "_repr_html_");  // the rendered table instead of the generic field table
  table.def("serve", &PurchaseTable::serve, "Serving of either kind (a language model, or an image model)")
      .def("serves_images", &PurchaseTable::serves_images)
      .def("table", &PurchaseTable::table, "The report Table every format renders (keys with their units, docs/cli.md).")
      .def("render", [](const PurchaseTable& t, OutputFormat f) { return render(t.table(), f); },
           py::arg("format") = OutputFormat::table)
      .def("output", [](const PurchaseTable& t) { return to_python(t.output()); },
           "What `capplan compare --format json` prints, as dicts and lists (money as decimal.Decimal).")
      .def("__str__", [](const PurchaseTable& t) { return render(t.table(), OutputFormat::table); })
      .def("_repr_html_", [](const PurchaseTable& t) { return render(t.table(), OutputFormat::html); })
      .def(
          "to_pandas", [](const PurchaseTable& t, bool values) { return py::cast(t.table()).attr("to_pandas")(values); },
          py::arg("values") = true, "table().to_pandas(): one row per option, money as decimal.Decimal.");
  m.def("purchase_table", &purchase_table, py::arg("query"), py::arg("catalog"), py::keep_alive<0, 2>(),
        "Every GPU, system and cloud offer of the catalog ranked for the query (what `capplan compare` prints).");
  m.def("row_cost_comparison", &row_cost_comparison, py::arg("row"), py::arg("query"), py::arg("end") = PriceEnd::low,
        "Owning a row's option (purchase, then electricity at the query's utilization) against renting them at its rent "
        "(in whole instances of the offer), month by month: what its break_even_month comes from (end=\"high\": break_even_month_high, at the high "
        "end of a price range; cost_chart_svg draws it); None unless the purchase, the rent and the tariff are in USD.");

  // capplan build: complete priced builds (plan/build.hpp).
  Record<BuildQuery>(m, "BuildQuery", "A workload and a budget (USD) to propose complete builds for (capplan build).")
      .field("model", &BuildQuery::model)
      .field("model_id", &BuildQuery::model_id)
      .field("task", &BuildQuery::task)
      .field("finetune", &BuildQuery::finetune, "with task finetune")
      .field("lora", &BuildQuery::lora)
      .field("seq_len", &BuildQuery::seq_len, "training; 0: the model's")
      .field("load", &BuildQuery::load, "with task serve")
      .field("budget", &BuildQuery::budget, "USD")
      .field("circuit", &BuildQuery::circuit)
      .field("psu_headroom", &BuildQuery::psu_headroom)
      .field("gpu_counts", &BuildQuery::gpu_counts)
      .finish();
  Record<BuildItem>(m, "BuildItem", "One line of a build: the part, how many, the unit price, the subtotal and why.")
      .readonly("kind", &BuildItem::kind)
      .readonly("id", &BuildItem::id)
      .readonly("name", &BuildItem::name)
      .readonly("count", &BuildItem::count)
      .readonly("unit", &BuildItem::unit)
      .readonly("subtotal", &BuildItem::subtotal)
      .readonly("why", &BuildItem::why)
      .finish(false);
  Record<Build>(m, "Build", "A complete, compatible, priced build with its speed for the workload.")
      .readonly("gpu_id", &Build::gpu_id)
      .readonly("gpus", &Build::gpus)
      .readonly("items", &Build::items)
      .readonly("total", &Build::total)
      .readonly("tokens_per_second", &Build::tokens_per_second)
      .readonly("plan", &Build::plan)
      .readonly("memory_per_gpu", &Build::memory_per_gpu)
      .readonly("wall", &Build::wall)
      .readonly("psu_rule", &Build::psu_rule)
      .readonly("system", &Build::system)
      .readonly("unchecked", &Build::unchecked)
      .readonly("cautions", &Build::cautions)
      .finish(false);
  Record<BuildBudget>(m, "BuildBudget", "A budget as the buyer gave it, in any currency, with the dated rate from USD into it.")
      .field("amount", &BuildBudget::amount)
      .field("usd_to_budget", &BuildBudget::usd_to_budget, "ExchangeRate('USD', the budget's currency, ...); None for a USD budget")
      .finish()
      .def("usd", &BuildBudget::usd, "The budget in USD, to the cent (BuildQuery.budget).")
      .def("in_budget_currency", &BuildBudget::in_budget_currency, py::arg("usd"), "A USD figure in the budget's currency; None without a rate.");
  Record<BuildSearch>(m, "BuildSearch", "The builds within budget, fastest first, and why the other options were not proposed.")
      .readonly("builds", &BuildSearch::builds)
      .readonly("rejected", &BuildSearch::rejected)
      .finish(false)
      .def(
          "output",
          [](const BuildSearch& r, const std::string& workload, const BuildBudget& budget, const std::optional<BuildQuery>& query) {
            return to_python(build_search_output(r, workload, budget, query ? &*query : nullptr));
          },
          py::arg("workload"), py::arg("budget"), py::arg("query") = std::nullopt,
          "What `capplan build --format json` prints, as dicts and lists (the same keys); with the query, its model, task, "
          "sequence length and serving load (batch, prompt and output tokens, weights) as the CLI gives them.");
  Record<CardFit>(m, "CardFit", "Whether a GPU's cards fit a case and board: problems, what is unchecked, cautions, the slots used.")
      .field("problems", &CardFit::problems)
      .field("unchecked", &CardFit::unchecked)
      .field("cautions", &CardFit::cautions)
      .field("slots", &CardFit::slots)
      .finish();
  m.def(
      "card_fit", [](const GpuSpec& g, int n, const Chassis& box, const std::optional<Motherboard>& board) { return card_fit(g, n, box, board ? &*board : nullptr); },
      py::arg("gpu"), py::arg("count"), py::arg("chassis"), py::arg("board") = py::none(),
      "Whether `count` of the GPU's cards fit the case (length, slot positions, a passive card's airflow) and, when given, the board's slots.");
  m.def("propose_builds", &propose_builds, py::arg("query"), py::arg("catalog"), py::arg("top") = 3,
        "The fastest complete builds within the budget (what `capplan build` prints).");
  m.def("build_problems", &build_problems, py::arg("build"), py::arg("query"), py::arg("catalog"),
        "What makes a build incompatible or over budget, a line each; empty when it passes every rule.");
}

}  // namespace capplan::python
