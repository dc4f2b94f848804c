// Complete, priced builds for a workload and a budget, from catalog parts: GPUs (how many the
// workload needs to fit in memory, and how fast they run it), a CPU with the lanes and cores for
// them, memory of the CPU's type filling its channels to the RAM the machine needs
// (plan/system_sizing.hpp), drives for the storage it needs, a PSU the power model recommends and a
// case that holds the GPUs; every proposed build passes build_problems() (the compatibility rules)
// and the wall circuit, and costs no more than the budget.
//
//   BuildQuery q;  q.model = find_model("llama3.1-8b").transformer();  q.task = SizingTask::finetune;
//   q.finetune = FineTune::lora;  q.budget = Money(Decimal("15000"), Currency::USD);
//   const BuildSearch r = propose_builds(q, Catalog::builtin());   // r.builds: fastest first
//
// The cards must fit: a passively cooled card only in a case with forced airflow, a card no longer
// than the case takes, and N cards of W slots each on slots wired x8 or wider that their widths
// leave free, within the case's slot positions (card_fit). With a priced board in the catalog for
// the CPU's socket the build picks one and places the cards on its slots; without one it checks
// that the case has the N x W positions and says which board to buy. What the catalog cannot tell
// is not checked, and each build says so (a card's size where not recorded, the PSU's 12V-2x6
// connectors, a CPU cooler).
#pragma once

#include "capplan/detail/text.hpp"
#include "capplan/error.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/hardware/gpu_slots.hpp"
#include "capplan/hardware/host_memory.hpp"
#include "capplan/memory/budget.hpp"
#include "capplan/money/format.hpp"
#include "capplan/money/money.hpp"
#include "capplan/plan/serving_run.hpp"
#include "capplan/plan/system_sizing.hpp"
#include "capplan/plan/training_run.hpp"
#include "capplan/power/circuit.hpp"
#include "capplan/power/psu.hpp"
#include "capplan/power/system_power.hpp"
#include "capplan/workload/params.hpp"
#include "capplan/workload/transformer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace capplan {

struct BuildQuery {
  TransformerShape model;
  std::string model_id;
  SizingTask task = SizingTask::finetune;
  FineTune finetune = FineTune::lora;  // with task finetune
  LoraOptions lora;
  std::int64_t seq_len = 0;            // training; 0: the model's
  ServingLoad load;                    // with task serve
  Money budget{};                      // USD (convert first)
  Circuit circuit = circuits::us_15a_120v();
  double psu_headroom = 0.25;
  std::vector<int> gpu_counts = {1, 2, 4, 8};

  void validate() const {
    model.validate();
    if (budget.currency() != Currency::USD) detail::fail("budget", to_json_string(budget), "must be in USD; convert it first");
    if (!(budget.amount() > Decimal(0))) detail::fail("budget", to_json_string(budget), "must be positive");
    circuit.validate();
    if (!(psu_headroom >= 0 && psu_headroom <= 1)) detail::fail("psu_headroom", detail::format_double(psu_headroom), "is outside 0 to 1");
    for (int n : gpu_counts) {
      if (n < 1 || n > 16) detail::fail("gpu_counts", std::to_string(n), "is outside 1 to 16 GPUs in one machine");
    }
  }
};

struct BuildItem {
  PartKind kind = PartKind::gpu;
  std::string id, name;
  int count = 1;
  Money unit{}, subtotal{};
  std::string why;
};

struct Build {
  std::string gpu_id;
  int gpus = 0;
  std::vector<BuildItem> items;
  Money total{};
  double tokens_per_second = 0;  // training or decode, all GPUs
  std::string plan;              // the training plan or serving layout
  DataSize memory_per_gpu{};
  Power wall{};                  // at full load
  std::string psu_rule;          // what decided the PSU rating
  SystemSpec system;             // the build as a catalog system (for capplan power)
  std::vector<std::string> unchecked;  // what the catalog cannot tell
  std::vector<std::string> cautions;   // allowed but worth knowing (open-air cards packed together)
};

struct BuildSearch {
  std::vector<Build> builds;           // within budget and compatible, fastest first
  std::vector<std::string> rejected;   // "rtx-4090 x 1: does not fit in memory", ...
};

namespace detail {

inline std::optional<Money> usd_price(const std::optional<PricePoint>& street, const std::optional<PricePoint>& launch) {
  for (const auto* p : {&street, &launch}) {
    if (*p && (*p)->amount.currency() == Currency::USD) return (*p)->amount;
  }
  return std::nullopt;
}

// A CPU with eight or more memory channels is a server or workstation part and takes registered DIMMs.
inline bool takes_rdimm(const CpuSpec& c) { return c.memory_channels >= 8; }

// The machine-sizing question of a build: these GPUs, this workload (plan/system_sizing.hpp).
inline SizingQuery sizing_query(const BuildQuery& q, const GpuSpec& g, int gpus) {
  SizingQuery sq;
  sq.gpu = &g;
  sq.gpus = gpus;
  sq.task = q.task;
  sq.parameters = static_cast<double>(parameter_count(q.model));
  if (q.task == SizingTask::finetune && q.finetune != FineTune::full) sq.trainable = static_cast<double>(lora_parameter_count(q.model, q.lora));
  if (q.task == SizingTask::serve && sq.parameters > 0) {
    // The checkpoint's bytes a parameter as serving holds it: the ends and the experts in their own
    // formats (memory/budget.hpp inference_budget, memory/formats.hpp checkpoint_ends).
    InferenceConfig whole;
    whole.weights = q.load.weights;
    whole.expert_weights = q.load.expert_weights;
    whole.sequences = 0;
    sq.weight_bytes = inference_budget(q.model, whole).weights.size.value() / sq.parameters;
  }
  return sq;
}

inline bool memory_matches(const CpuSpec& c, const MemoryModule& m) {
  const std::string want = c.memory_type.rfind("DDR5", 0) == 0 ? "ddr5" : "ddr4";
  return std::string(detail::enum_name(m.type)) == want && m.registered == takes_rdimm(c);
}

// A board takes the CPU when the sockets are the same, and the memory the CPU drives.
inline bool board_takes(const Motherboard& b, const CpuSpec& c) {
  if (c.socket.empty() || b.socket != c.socket) return false;
  const DramType t = c.memory_type.rfind("DDR5", 0) == 0 ? DramType::ddr5 : DramType::ddr4;
  return b.memory_type == t && b.registered == takes_rdimm(c);
}

inline std::string positions_text(const std::vector<PcieSlot>& slots) {
  std::string s;
  for (const PcieSlot& p : slots) s += (s.empty() ? "" : ", ") + std::to_string(p.position) + " (x" + std::to_string(p.lanes) + ")";
  return s;
}

// The slot positions n cards w positions wide span with a free position below each but the last
// (open-air cards, which otherwise breathe each other's exhaust).
constexpr int spaced_span(int n, int w) { return (n - 1) * (w + 1) + w; }

}  // namespace detail

// Whether `n` of the GPU's cards physically fit the case and, when given, the board. Problems make
// the build impossible; unchecked names what the catalog does not record; slots are where the
// cards go on the board. Rules: a passive card needs the case's forced airflow (NVIDIA's data-centre
// cards "require system air flow", their product briefs say); a card's length at most the case's;
// on a board, place_cards() at x8 or wider within the case's positions; without one, n cards of W
// slots need n x W positions (a slot every W positions, the last card covering W) and the case must
// have them.
struct CardFit {
  std::vector<std::string> problems;
  std::vector<std::string> unchecked;
  std::vector<std::string> cautions;
  std::vector<PcieSlot> slots;
};

inline CardFit card_fit(const GpuSpec& g, int n, const Chassis& box, const Motherboard* board) {
  detail::check_count(n, 1, 64, "count", "(cards of " + g.id + ")");
  CardFit f;
  if (g.cooling == GpuCooling::passive && !box.passive_gpu_airflow)
    f.problems.push_back(g.id + " is passively cooled and needs a server's forced airflow; " + box.id + " has none");
  if (g.length.value() > 0 && box.max_gpu_length.value() > 0) {
    if (g.length > box.max_gpu_length)
      f.problems.push_back(g.id + " is " + format(g.length) + " long; " + box.id + " takes " + format(box.max_gpu_length));
  } else {
    f.unchecked.push_back("the length of " + g.id + " (" + (g.length.value() > 0 ? format(g.length) : std::string("not recorded")) + ") against " + box.id +
                          (box.max_gpu_length.value() > 0 ? " (" + format(box.max_gpu_length) + ")" : std::string(" (not recorded)")));
  }
  const int w = g.slot_width > 0 ? g.slot_width : 2;
  if (g.slot_width == 0) f.unchecked.push_back("the slot width of " + g.id + " (not recorded; 2 slots assumed)");
  if (board) {
    // Open-air cards get a free slot position below each one when the board has the slots for it.
    if (g.cooling == GpuCooling::open_air && n > 1) f.slots = place_cards(*board, n, w, 8, box.expansion_slots, 1);
    if (f.slots.empty()) f.slots = place_cards(*board, n, w, 8, box.expansion_slots);
    if (f.slots.empty())
      f.problems.push_back(board->id + (n == 1 ? " has no slot wired x8 or wider for a " + std::to_string(w) + "-slot card"
                                                : " has no " + std::to_string(n) + " slots wired x8 or wider that " + std::to_string(n) + " " +
                                                      std::to_string(w) + "-slot cards leave free") +
                           (box.expansion_slots > 0 ? " within " + box.id + "'s " + std::to_string(box.expansion_slots) + " positions" : std::string()));
    if (box.expansion_slots == 0) f.unchecked.push_back("whether the last card overhangs " + box.id + "'s slot positions (not recorded)");
  } else if (box.expansion_slots > 0 && n * w > box.expansion_slots) {
    f.problems.push_back(std::to_string(n) + " " + std::to_string(w) + "-slot cards need " + std::to_string(n * w) + " slot positions; " + box.id + " has " +
                         std::to_string(box.expansion_slots) + " (narrower cards or riser cables)");
  } else if (box.expansion_slots == 0 && n > 1) {
    // As board_wanted asks for them: open-air cards with a free position below each but the last.
    const bool spaced = g.cooling == GpuCooling::open_air;
    f.unchecked.push_back(std::to_string(n) + " " + std::to_string(w) + "-slot cards need " + std::to_string(spaced ? detail::spaced_span(n, w) : n * w) +
                          " slot positions" + (spaced ? std::string(" (a free one below each open-air card)") : std::string()) + "; " + box.id +
                          "'s are not recorded");
  }
  if (g.cooling == GpuCooling::open_air && n > 1) {
    // On a board: two cards w positions apart. Without one (the board is the buyer's to choose, with
    // a free position below each card: board_wanted): when the case has too few positions for that.
    bool packed = !board && box.expansion_slots > 0 && detail::spaced_span(n, w) > box.expansion_slots;
    for (std::size_t i = 1; i < f.slots.size(); ++i) packed = packed || f.slots[i].position == f.slots[i - 1].position + w;
    if (packed)
      f.cautions.push_back(std::to_string(n) + " open-air cards with no free slot between them: the upper card breathes the lower one's exhaust and "
                           "throttles; leave a slot free, or use blower cards");
  }
  return f;
}

namespace detail {

// The cheapest way to reach `need` of RAM with the CPU's kind of DIMM: whole channels, at most two
// DIMMs per channel, no more than the board's slots, and within the CPU's and the board's maximum memory.
struct MemoryChoice {
  const MemoryModule* module = nullptr;
  int dimms = 0;
  Money cost{};
};
inline std::optional<MemoryChoice> cheapest_memory(const Catalog& c, const CpuSpec& cpu, const Motherboard* board, DataSize need) {
  std::optional<MemoryChoice> best;
  for (const MemoryModule& m : c.memory_modules()) {
    const auto pr = usd_price(m.street_price, std::nullopt);
    if (!pr || !memory_matches(cpu, m)) continue;
    if (board && (m.type != board->memory_type || m.registered != board->registered)) continue;
    const int step = cpu.memory_channels;
    const int most = board ? std::min(2 * step, board->dimm_slots) : 2 * step;
    int k = step;
    while (k <= most && m.size.value() * k < need.value()) k += step;
    if (k > most || m.size.value() * k < need.value()) continue;
    if (cpu.max_memory.value() > 0 && m.size.value() * k > cpu.max_memory.value()) continue;
    if (board && board->max_memory.value() > 0 && m.size.value() * k > board->max_memory.value()) continue;
    if (!best || *pr * k < best->cost) best = MemoryChoice{&m, k, *pr * k};
  }
  return best;
}

// What a build needs from a board when the catalog has none for its socket: for open-air cards a
// free position below each but the last where the case's positions (0: not recorded) allow it, as
// card_fit places them on a board that has the slots.
inline std::string board_wanted(const CpuSpec& cpu, int n, int w, bool open_air = false, int case_positions = 0) {
  const bool spaced = open_air && n > 1 && (case_positions == 0 || spaced_span(n, w) <= case_positions);
  const int pitch = w + (spaced ? 1 : 0);
  std::string at;
  for (int i = 0; i < n; ++i) at += (at.empty() ? "" : ", ") + std::to_string(1 + i * pitch);
  return "the motherboard (no priced " + (cpu.socket.empty() ? std::string("board") : cpu.socket + " board") + " in the catalog, and not in the total): choose one for " + cpu.id +
         " with " +
         (n > 1 ? std::to_string(n) + " slots wired x8 or wider at positions " + at + " or as far apart" +
                      (pitch > w ? " (a free position below each open-air card)" : std::string())
                : std::string("a slot wired x8 or wider"));
}

}  // namespace detail

// What makes a build incompatible or unsafe, one line each; empty when it passes every rule the
// catalog can check: one GPU model; CPU lanes for x8 or wider per GPU; CPU cores for the workload;
// memory of the CPU's DDR generation and kind (RDIMM on 8+ channel CPUs), a whole number of DIMMs
// per channel, at most 2 per channel, no more than the CPU's maximum, and the RAM the workload needs; drives holding the storage it
// needs; the PSU at or above the power model's recommendation; the case holding the GPUs and PSUs;
// with a board: its socket and memory the CPU's, no more DIMMs than its slots nor RAM than its
// maximum, no larger than the case takes; the cards fitting the case and the board (card_fit); the wall circuit; the budget.
inline std::vector<std::string> build_problems(const Build& b, const BuildQuery& q, const Catalog& c) {
  std::vector<std::string> p;
  const GpuSpec* gpu = nullptr;
  const CpuSpec* cpu = nullptr;
  const MemoryModule* mem = nullptr;
  int gpus = 0, dimms = 0, psus = 0;
  double storage = 0;
  const Chassis* chassis = nullptr;
  const PowerSupply* psu = nullptr;
  const Motherboard* board = nullptr;
  for (const BuildItem& i : b.items) {
    switch (i.kind) {
      case PartKind::gpu:
        if (gpu && gpu->id != i.id) p.push_back("two GPU models");
        gpu = &c.find_gpu(i.id);
        gpus += i.count;
        break;
      case PartKind::cpu: cpu = &c.find_cpu(i.id); break;
      case PartKind::memory: mem = &c.find_memory_module(i.id); dimms += i.count; break;
      case PartKind::storage: storage += c.find_storage(i.id).capacity.value() * i.count; break;
      case PartKind::psu: psu = &c.find_psu(i.id); psus += i.count; break;
      case PartKind::chassis: chassis = &c.find_chassis(i.id); break;
      case PartKind::network: break;
      case PartKind::motherboard: board = &c.find_motherboard(i.id); break;
    }
  }
  if (!gpu || !cpu || !mem || !psu || !chassis || storage <= 0) {
    p.push_back("missing a GPU, CPU, memory, drive, PSU or case");
    return p;
  }
  const SystemSizing need = size_system(detail::sizing_query(q, *gpu, gpus));
  const int lanes_needed = 8 * gpus + 4;
  if (cpu->pcie_lanes - cpu->chipset_lanes < lanes_needed)
    p.push_back(cpu->id + " has " + std::to_string(cpu->pcie_lanes - cpu->chipset_lanes) + (cpu->chipset_lanes > 0 ? " PCIe lanes free for slots; " : " PCIe lanes; ") + std::to_string(gpus) + " GPUs at x8 and a drive need " +
                std::to_string(lanes_needed));
  if (cpu->cores < need.cpu_cores) p.push_back(cpu->id + " has " + std::to_string(cpu->cores) + " cores; the workload needs " + std::to_string(need.cpu_cores));
  if (board) {
    if (!detail::board_takes(*board, *cpu)) p.push_back(board->id + " (" + board->socket + ") does not take " + cpu->id + " (" + cpu->socket + ", " + cpu->memory_type + ")");
    if (dimms > board->dimm_slots) p.push_back(std::to_string(dimms) + " DIMMs: " + board->id + " has " + std::to_string(board->dimm_slots) + " slots");
    if (board->max_memory.value() > 0 && mem->size.value() * dimms > board->max_memory.value())
      p.push_back("RAM " + format(DataSize::from_value(mem->size.value() * dimms)) + ": " + board->id + " takes at most " + format(board->max_memory));
    if (mem->type != board->memory_type || mem->registered != board->registered) p.push_back(mem->id + " is not the memory " + board->id + " takes");
    if (board->form_factor > chassis->max_board)
      p.push_back(chassis->id + " takes boards up to " + std::string(name(chassis->max_board)) + ", not " + board->id + " (" + std::string(name(board->form_factor)) + ")");
  }
  for (const std::string& x : card_fit(*gpu, gpus, *chassis, board).problems) p.push_back(x);
  if (!detail::memory_matches(*cpu, *mem))
    p.push_back(mem->id + " is not the memory " + cpu->id + " takes (" + cpu->memory_type + (detail::takes_rdimm(*cpu) ? ", registered" : ", unbuffered") + ")");
  if (dimms % cpu->memory_channels != 0 && !(cpu->memory_channels == 2 && (dimms == 2 || dimms == 4)))
    p.push_back(std::to_string(dimms) + " DIMMs do not fill the " + std::to_string(cpu->memory_channels) + " channels evenly");
  if (dimms > 2 * cpu->memory_channels) p.push_back(std::to_string(dimms) + " DIMMs: more than 2 per channel");
  if (cpu->max_memory.value() > 0 && mem->size.value() * dimms > cpu->max_memory.value())
    p.push_back("RAM " + format(DataSize::from_value(mem->size.value() * dimms)) + ": " + cpu->id + " takes at most " + format(cpu->max_memory));
  if (mem->size.value() * dimms < need.ram_needed.value())
    p.push_back("RAM " + format(DataSize::from_value(mem->size.value() * dimms)) + " is less than the " + format(need.ram_needed) + " needed");
  if (storage < need.storage.value()) p.push_back("drives hold " + format(DataSize::from_value(storage)) + " of the " + format(need.storage) + " needed");
  if (gpus > chassis->max_gpus) p.push_back(chassis->id + " holds " + std::to_string(chassis->max_gpus) + " GPUs, not " + std::to_string(gpus));
  if (psus > std::max(1, chassis->psu_bays)) p.push_back(chassis->id + " has " + std::to_string(chassis->psu_bays) + " PSU bays for " + std::to_string(psus) + " PSUs");
  PsuSizingOptions po;
  po.headroom = q.psu_headroom;
  const SystemPower power = system_power(b.system, c, {}, q.circuit, po);
  const Power installed = psu->rated * static_cast<double>(psus);
  if (installed < power.psu.required)
    p.push_back("PSU " + format(installed) + " is below the " + format(power.psu.required) + " required (" + power.psu.deciding + ")");
  if (!power.circuit.ok) p.push_back("wall power is over the " + q.circuit.name + " limit");
  if (b.total > q.budget) p.push_back("costs " + format(b.total) + ", over the budget of " + format(q.budget));
  return p;
}

// The fastest builds within the budget (see the header comment); `top` at most.
inline BuildSearch propose_builds(const BuildQuery& q, const Catalog& c, std::size_t top = 3) {
  q.validate();
  BuildSearch out;
  // Each count once, smallest first (a caller's list may repeat or be unsorted).
  std::vector<int> counts = q.gpu_counts;
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  const bool airflow_case =
      std::any_of(c.chassis().begin(), c.chassis().end(), [](const Chassis& x) { return x.passive_gpu_airflow && x.street_price; });
  const auto card = [](const GpuSpec& g) { return g.form_factor == FormFactor::pcie || g.form_factor == FormFactor::consumer; };  // SXM/OAM need a baseboard system
  {
    // Not proposed, and said so: cards without a price cannot be budgeted; one line per reason, naming them.
    detail::NamesByKey unpriced;  // reason -> ids
    for (const GpuSpec& g : c.gpus()) {
      if (!card(g) || detail::usd_price(g.street_price, g.launch_price)) continue;
      unpriced.add(g.unpriced.empty() ? "no price in the catalog" : "no price: " + g.unpriced, g.id);
    }
    for (const auto& [why, ids] : unpriced.groups()) out.rejected.push_back(ids + ": " + why);
  }
  for (const GpuSpec& g : c.gpus()) {
    if (!card(g)) continue;
    const auto gpu_price = detail::usd_price(g.street_price, g.launch_price);
    if (!gpu_price) continue;  // said above
    if (g.cooling == GpuCooling::passive && !airflow_case) {
      // Whatever the count: one line for the card.
      out.rejected.push_back(g.id + ": passively cooled, it needs a server's forced airflow; no priced case in the catalog has it");
      continue;
    }
    {
      // The counts whose GPUs alone cost more than the budget: one line for the card.
      std::vector<int> over;
      for (int n : counts)
        if (*gpu_price * n > q.budget) over.push_back(n);
      if (!over.empty()) {
        std::string listed;
        for (int n : over) listed += (listed.empty() ? "" : ", ") + std::to_string(n);
        out.rejected.push_back(g.id + " x " + listed + ": the GPUs alone cost " + format(*gpu_price * over.front()) +
                               (over.size() > 1 ? " to " + format(*gpu_price * over.back()) : std::string()));
      }
    }
    for (int n : counts) {
      const std::string label = g.id + " x " + std::to_string(n);
      if (*gpu_price * n > q.budget) continue;  // said above
      Build b;
      b.gpu_id = g.id;
      b.gpus = n;
      // Speed and memory fit of `gpu` (g in the build's slots), on the host memory given (0: assumed for
      // the GPU's PCIe generation); the reason it does not run, or nothing.
      const auto time_build = [&](const GpuSpec& gpu, double host_memory_bandwidth) -> std::optional<std::string> {
        try {
          if (q.task == SizingTask::serve) {
            if (q.model.heads % n != 0) return std::string();
            ServingLoad load = q.load;
            load.host_memory_bandwidth = host_memory_bandwidth;
            const ServingRun run = serving_run(q.model, gpu, load, n, 1);
            if (!run.estimate.compute_timed) return "no published compute rate: its prefill cannot be timed";
            if (!run.fit.fits || run.fit.tight) return "the model and its KV cache do not fit (" + format(run.memory.total()) + " per GPU)";
            b.tokens_per_second = run.estimate.tokens_per_second;
            b.memory_per_gpu = run.memory.total();
            b.plan = "TP " + std::to_string(n);
          } else {
            TrainingSetup setup;
            setup.seq_len = q.seq_len;
            setup.gpus_per_node = n;
            setup.host_memory_bandwidth = host_memory_bandwidth;
            if (q.task == SizingTask::finetune) {
              setup.finetune = q.finetune;
              setup.lora = q.lora;
            }
            const TrainingRunSearch sr = best_training_run(q.model, gpu, n, setup);
            if (!sr.run) return std::string("no plan fits in memory") + (q.task != SizingTask::serve ? " (a shorter --seq-len may)" : "");
            b.tokens_per_second = sr.run->estimate.tokens_per_second;
            b.memory_per_gpu = sr.run->memory.total();
            b.plan = plan_text(sr.run->plan);
          }
        } catch (const InputError& e) {
          return std::string(e.what());
        }
        return std::nullopt;
      };
      if (const auto why = time_build(g, 0)) {
        if (!why->empty()) out.rejected.push_back(label + ": " + *why);
        continue;
      }
      // The machine around the GPUs.
      const SystemSizing need = size_system(detail::sizing_query(q, g, n));
      b.items.push_back({PartKind::gpu, g.id, g.name, n, *gpu_price, *gpu_price * n, b.plan + ", " + format(b.memory_per_gpu) + " per GPU"});
      // The cheapest CPU, board, memory and case together: the CPU with the lanes and cores, a priced
      // board for its socket where the catalog has one (else none, and the build says which to buy),
      // memory of its kind reaching the RAM needed, and a case that holds the board and fits the
      // cards (card_fit). The catalog's priced boards for a socket
      // are the only ones a build of that CPU considers: none of them placing the cards rules the
      // CPU out. A CPU without one competes on its own price, the board left out of the total (and
      // named under the build): at most a board's price against a CPU that has one, where
      // preferring checked platforms could cost a server CPU's.
      struct Platform {
        const CpuSpec* cpu = nullptr;
        const Motherboard* board = nullptr;
        const Chassis* box = nullptr;
        Money cpu_price{}, board_price{}, box_price{};
        CardFit fit;
        detail::MemoryChoice memory;
        [[nodiscard]] Money total() const { return cpu_price + board_price + box_price + memory.cost; }
      };
      std::optional<Platform> best;
      std::string why_not;  // the first reason a platform failed, for the rejected line
      bool any_cpu = false, any_case = false;
      for (const CpuSpec& x : c.cpus()) {
        const auto pr = detail::usd_price(x.street_price, x.launch_price);
        if (!pr || x.pcie_lanes - x.chipset_lanes < 8 * n + 4 || x.cores < need.cpu_cores) continue;
        any_cpu = true;
        std::vector<std::pair<const Motherboard*, Money>> boards;
        for (const Motherboard& mb : c.motherboards()) {
          const auto bp = detail::usd_price(mb.street_price, mb.launch_price);
          if (bp && detail::board_takes(mb, x)) boards.emplace_back(&mb, *bp);
        }
        if (boards.empty()) boards.emplace_back(nullptr, Money(Decimal(0), Currency::USD));
        for (const auto& [mb, bp] : boards) {
          for (const Chassis& box : c.chassis())
            any_case = any_case || (box.max_gpus >= n && detail::usd_price(box.street_price, std::nullopt));
          const std::optional<detail::MemoryChoice> memory = detail::cheapest_memory(c, x, mb, need.ram_needed);
          if (!memory) {
            if (why_not.empty())
              why_not = "no priced " + x.memory_type + " module reaches " + format(need.ram_needed) + " on " + x.id +
                        " within its slots and its maximum memory (" + (x.max_memory.value() > 0 ? format(x.max_memory) : std::string("not recorded")) +
                        (mb && mb->max_memory.value() > 0 ? "; " + mb->id + ": " + format(mb->max_memory) : std::string()) + ")";
            continue;
          }
          for (const Chassis& box : c.chassis()) {
            const auto cp = detail::usd_price(box.street_price, std::nullopt);
            if (!cp || box.max_gpus < n) continue;
            if (mb && mb->form_factor > box.max_board) {
              if (why_not.empty()) why_not = box.id + " takes boards up to " + std::string(name(box.max_board)) + ", not " + mb->id;
              continue;
            }
            CardFit fit = card_fit(g, n, box, mb);
            if (!fit.problems.empty()) {
              if (why_not.empty()) why_not = fit.problems.front();
              continue;
            }
            Platform pl{&x, mb, &box, *pr, bp, *cp, std::move(fit), *memory};
            if (!best || pl.total() < best->total()) best = std::move(pl);
          }
        }
      }
      if (!best) {
        out.rejected.push_back(label + ": " + (!any_cpu    ? "no priced CPU has " + std::to_string(8 * n + 4) + " lanes and " + std::to_string(need.cpu_cores) + " cores"
                                               : !any_case ? "no priced case holds " + std::to_string(n) + " GPUs"
                                                           : why_not));
        continue;
      }
      const CpuSpec* cpu = best->cpu;
      const Motherboard* board = best->board;
      const Chassis* box = best->box;
      const Money box_price = best->box_price;
      b.items.push_back({PartKind::cpu, cpu->id, cpu->name, 1, best->cpu_price, best->cpu_price,
                         std::to_string(cpu->pcie_lanes - cpu->chipset_lanes) + (cpu->chipset_lanes > 0 ? " free lanes, " : " lanes, ") +
                             std::to_string(cpu->cores) + " cores (needs " + std::to_string(8 * n + 4) +
                             " and " + std::to_string(need.cpu_cores) + ")"});
      if (board) {
        b.items.push_back({PartKind::motherboard, board->id, board->name, 1, best->board_price, best->board_price,
                           board->socket + (n == 1 ? "; the card in slot " : "; the " + std::to_string(n) + " cards in slots ") +
                               detail::positions_text(best->fit.slots)});
      }
      // Memory: the platform's (detail::cheapest_memory), its channels x speed (hardware/host_memory.hpp:
      // DDR5 slower with two DIMMs a channel) what several GPUs without peer-to-peer share through host
      // memory (perf::shm_host_share).
      const MemoryModule* mem = best->memory.module;
      const int dimms = best->memory.dimms;
      b.system.parts = {{PartKind::gpu, g.id, n}, {PartKind::cpu, cpu->id, 1}, {PartKind::memory, mem->id, dimms}};
      const Bandwidth dram = host_memory(b.system, c).bandwidth;
      const std::optional<Money> mem_cost = best->memory.cost;
      b.items.push_back({PartKind::memory, mem->id, mem->name, dimms, *mem_cost / Decimal(dimms), *mem_cost,
                         format(DataSize::from_value(mem->size.value() * dimms)) + " for the " + format(need.ram_needed) + " needed, " +
                             std::to_string(cpu->memory_channels) + " channels, " + format(dram, {.significant = 4}) + " of DRAM"});
      // Drives: the cheapest count of one model that holds the storage needed.
      const StorageDevice* drive = nullptr;
      int drives = 0;
      std::optional<Money> drive_cost;
      for (const StorageDevice& d : c.storage_devices()) {
        const auto pr = detail::usd_price(d.street_price, d.launch_price);
        if (!pr || d.kind == StorageKind::hdd) continue;  // the system and data drive is solid state
        const int k = static_cast<int>(std::ceil(need.storage.value() / d.capacity.value()));
        if (!drive || *pr * k < *drive_cost) drive = &d, drives = k, drive_cost = *pr * k;
      }
      if (!drive) continue;
      b.items.push_back({PartKind::storage, drive->id, drive->name, drives, *drive_cost / Decimal(drives), *drive_cost,
                         format(need.storage) + " needed"});
      b.system.id = "build";
      b.system.name = std::to_string(n) + " x " + g.id + " build";
      b.system.topology = n == 1 ? Topology::single_gpu : Topology::pcie_switch;
      b.system.parts = {{PartKind::gpu, g.id, n}, {PartKind::cpu, cpu->id, 1}, {PartKind::memory, mem->id, dimms}, {PartKind::storage, drive->id, drives},
                        {PartKind::chassis, box->id, 1}};
      if (board) b.system.parts.push_back({PartKind::motherboard, board->id, 1});
      b.system.source = "capplan build";
      b.system.as_of = g.as_of;
      // Timed again on the machine chosen: its host memory and the PCIe links the cards get on its CPU's
      // root ports, in the slots card_fit put them in (hardware/gpu_slots.hpp: x8 each for two cards on
      // a desktop CPU).
      const GpuSlots slots = root_port_slots(b.system, c, board ? &best->fit.slots : nullptr);
      if ((n > 1 && dram.value() >= 1e9) || slots.narrowed) {
        if (const auto why = time_build(slots.apply(g), dram.value() >= 1e9 ? dram.value() : 0)) {
          if (!why->empty()) out.rejected.push_back(label + ": " + *why);
          continue;
        }
        b.items.front().why = b.plan + ", " + format(b.memory_per_gpu) + " per GPU" +
                              (slots.narrowed ? ", " + detail::pcie_link_text(slots.generation, slots.lanes) + (n == 1 ? "" : " each") : std::string());
      }
      PsuSizingOptions po;
      po.headroom = q.psu_headroom;
      const SystemPower draft = system_power(b.system, c, {}, q.circuit, po);
      const PowerSupply* psu = nullptr;
      int psus = 0;
      std::optional<Money> psu_cost;
      for (const PowerSupply& x : c.power_supplies()) {
        const auto pr = detail::usd_price(x.street_price, x.launch_price);
        if (!pr) continue;
        const int k = static_cast<int>(std::ceil(draft.psu.required.value() / x.rated.value()));
        if (k > std::max(1, box->psu_bays)) continue;
        if (!psu || *pr * k < *psu_cost) psu = &x, psus = k, psu_cost = *pr * k;
      }
      if (!psu) {
        out.rejected.push_back(label + ": no PSU in " + box->id + " reaches " + format(draft.psu.required));
        continue;
      }
      b.items.push_back({PartKind::psu, psu->id, psu->name, psus, *psu_cost / Decimal(psus), *psu_cost,
                         format(draft.psu.required) + " required (" + draft.psu.deciding + ")"});
      b.items.push_back({PartKind::chassis, box->id, box->name, 1, box_price, box_price,
                         "holds " + std::to_string(box->max_gpus) + " GPUs" + (box->expansion_slots > 0 ? ", " + std::to_string(box->expansion_slots) + " slot positions" : std::string())});
      b.system.parts.push_back({PartKind::psu, psu->id, psus});
      const SystemPower final_power = system_power(b.system, c, {}, q.circuit, po);
      b.wall = final_power.wall ? final_power.wall->wall : final_power.draw.max_total;
      b.psu_rule = draft.psu.deciding;
      b.total = Money(Decimal(0), Currency::USD);
      for (const BuildItem& i : b.items) b.total = b.total + i.subtotal;
      b.unchecked.clear();
      if (!board) b.unchecked.push_back(detail::board_wanted(*cpu, n, g.slot_width > 0 ? g.slot_width : 2, g.cooling == GpuCooling::open_air,
                                                            box->expansion_slots));
      for (const std::string& u : best->fit.unchecked) b.unchecked.push_back(u);
      b.unchecked.push_back("the PSU's 12V-2x6 / PCIe power connectors for the GPUs");
      b.unchecked.push_back("a CPU cooler");
      b.cautions = best->fit.cautions;
      if (b.total > q.budget) {
        out.rejected.push_back(label + ": the build costs " + format(b.total) + ", over the budget");
        continue;
      }
      if (!build_problems(b, q, c).empty() || !final_power.circuit.ok) {
        out.rejected.push_back(label + ": " + (final_power.circuit.ok ? build_problems(b, q, c).front() : "over the " + q.circuit.name + " limit"));
        continue;
      }
      out.builds.push_back(std::move(b));
    }
  }
  std::sort(out.builds.begin(), out.builds.end(), [](const Build& a, const Build& b) {
    return a.tokens_per_second != b.tokens_per_second ? a.tokens_per_second > b.tokens_per_second : a.total < b.total;
  });
  if (out.builds.size() > top) out.builds.resize(top);
  return out;
}

}  // namespace capplan
