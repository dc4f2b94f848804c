// Whole-system sizing around a set of GPUs: system RAM, CPU cores, storage capacity and bandwidth,
// PCIe lanes, the air a case must move and the heat a room must take. Each answer is a sum of named
// parts, each part with its rule and source, and beside it the rules of thumb buyers quote, with
// what each would give here and where it goes wrong.
//
//   SizingQuery q;  q.gpu = &cat.find_gpu("rtx4090");  q.gpus = 2;  q.parameters = 8.03e9;
//   const SystemSizing s = size_system(q);
//   s.ram;  s.cpu_cores;  s.storage;  s.lines[0].rule;  s.lines[0].rules_of_thumb[0].verdict
//
// The power, PSU and circuit of the same machine come from power/system_power.hpp (capplan power
// --gpu ... --cpu ...); this header sizes what surrounds the GPUs. The allowances here (the OS, a
// process's host memory, a data loader's buffers) are capplan's assumptions and are listed in
// SystemSizing::assumptions.
#pragma once

#include "capplan/error.hpp"
#include "capplan/hardware/cpu.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/hardware/gpu_slots.hpp"
#include "capplan/perf/communication.hpp"
#include "capplan/plan/goodput.hpp"
#include "capplan/plan/it_power.hpp"
#include "capplan/power/heat.hpp"
#include "capplan/power/system_power.hpp"
#include "capplan/units/format.hpp"
#include "capplan/units/quantity.hpp"

#include <boost/describe/enum.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace capplan {

enum class SizingTask { train, finetune, serve };
BOOST_DESCRIBE_ENUM(SizingTask, train, finetune, serve)

struct SizingQuery {
  const GpuSpec* gpu = nullptr;
  int gpus = 1;
  SizingTask task = SizingTask::train;
  double parameters = 0;           // the model's parameters; 0: no model given
  double trainable = 0;            // parameters that take gradients (finetune: the adapters); 0: all of them
  double weight_bytes = 2;         // bytes per weight as loaded and stored (bf16; 0.5625 for q4_0 serving)
  DataSize dataset{};              // training data on disk; 0: none given
  double samples_per_second = 0;   // samples the GPUs consume, all of them (image models); 0: token data
  DataSize sample_size = DataSize::from_value(110e3);  // ImageNet-1k JPEG mean (perf/data_loading.hpp)
  double decode_per_core = 120;    // samples one core decodes and augments per second (perf/data_loading.hpp)
  int checkpoints_kept = 3;        // checkpoints on disk at once
  // Bytes a checkpoint holds per trained parameter: 14 for mixed-precision Adam
  // (adam_checkpoint_bytes_per_param), 8 for an image model trained with SGD and momentum
  // (sgd_checkpoint_bytes_per_param; plan/goodput.hpp).
  double checkpoint_bytes_per_param = adam_checkpoint_bytes_per_param;
  bool offload_optimizer = false;  // ZeRO-Offload: optimizer states and fp32 gradients in host memory
  bool cache_dataset = false;      // keep the dataset in the page cache
  const CpuSpec* cpu = nullptr;    // to check lanes and cores against; nullptr: none chosen
  int nvme_drives = 1;

  void validate() const {
    if (gpu == nullptr) detail::fail("gpu", "null", "is required");
    if (gpu->form_factor == FormFactor::cloud)
      detail::fail("gpu", gpu->id, "is rent-only (" + std::string(name(gpu->form_factor)) + "): there is no machine of one's own to size");
    if (gpus < 1 || gpus > 64) detail::fail("gpus", std::to_string(gpus), "is outside 1 to 64 GPUs in one machine");
    require_nonnegative(parameters, "parameters");
    require_nonnegative(trainable, "trainable");
    if (parameters > 1e13) detail::fail("parameters", detail::format_double(parameters), "is more than 1e13");
    if (!(weight_bytes > 0 && weight_bytes <= 8)) detail::fail("weight_bytes", detail::format_double(weight_bytes), "is outside (0, 8]");
    if (trainable > parameters && parameters > 0) detail::fail("trainable", detail::format_double(trainable), "exceeds the parameters");
    require_nonnegative(dataset.value(), "dataset");
    if (dataset.value() > 1e17) detail::fail("dataset", format(dataset), "is more than 100 PB");
    require_nonnegative(samples_per_second, "samples_per_second");
    require_positive(sample_size.value(), "sample_size");
    require_positive(decode_per_core, "decode_per_core");
    if (checkpoints_kept < 0 || checkpoints_kept > 1000) detail::fail("checkpoints_kept", std::to_string(checkpoints_kept), "is outside 0 to 1000");
    if (!(checkpoint_bytes_per_param > 0 && checkpoint_bytes_per_param <= 64))
      detail::fail("checkpoint_bytes_per_param", detail::format_double(checkpoint_bytes_per_param), "is outside (0, 64] bytes per parameter");
    if (nvme_drives < 0 || nvme_drives > 64) detail::fail("nvme_drives", std::to_string(nvme_drives), "is outside 0 to 64");
  }
};

// A rule people quote, what it gives for this machine, and how that compares with capplan's answer.
struct RuleOfThumb {
  std::string rule;     // "system RAM = 2-4 x the GPUs' memory"
  std::string source;   // where it is quoted
  std::string gives;    // "96-192 GB"
  std::string verdict;  // "covers the need (61 GB) with room"
};

// One answer: the figure, the sum it comes from, and the rules of thumb beside it.
struct SizingLine {
  std::string item;    // "system RAM"
  std::string answer;  // "64 GB (need 51.2 GB)"
  double value = 0;    // in the unit of the answer's quantity (bytes, cores, B/s, lanes, CFM)
  std::vector<std::string> parts;  // "OS, desktop and tools: 16 GiB"
  std::string rule;                // why, with the source
  std::vector<RuleOfThumb> rules_of_thumb;
};

struct SystemSizing {
  DataSize ram_needed{}, ram{};  // need, and the next common size up
  int cpu_cores = 0;
  DataSize storage{};
  Bandwidth storage_read{}, storage_write{};
  int pcie_lanes = 0;
  Power gpu_power{};
  double airflow_cfm = 0;
  std::vector<SizingLine> lines;
  std::vector<std::string> assumptions;
};

namespace detail {

inline std::string size_text(double bytes) { return format(DataSize::from_value(bytes), {.significant = 3}); }

// The RAM sizes workstations and servers are built with (all channels filled with equal DIMMs).
inline double common_ram_size(double bytes) {
  static constexpr std::array<double, 14> gb = {16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048};
  for (double g : gb) {
    if (g * 1e9 >= bytes) return g * 1e9;
  }
  return std::ceil(bytes / 512e9) * 512e9;
}

// How a rule's range compares with the need: short, covers, or oversized by a factor.
inline std::string compare_range(double low, double high, double need, const std::string& unit_text) {
  if (high < need) return "falls short: the need is " + unit_text;
  if (low > 2 * need) return "oversized: " + format_number(low / need, 2) + "x to " + format_number(high / need, 2) + "x the need (" + unit_text + ")";
  if (low < need) return "covers the need (" + unit_text + ") only at its upper end";
  return "covers the need (" + unit_text + ")";
}

}  // namespace detail

// Sizes the machine around q.gpus x q.gpu for the task (see the header comment).
inline SystemSizing size_system(const SizingQuery& q) {
  q.validate();
  using detail::size_text;
  const GpuSpec& g = *q.gpu;
  SystemSizing s;
  const double vram = g.memory.value() * q.gpus;
  const double params = q.parameters;
  const bool training = q.task != SizingTask::serve;
  const double trainable = q.task == SizingTask::finetune ? q.trainable : (q.trainable > 0 ? q.trainable : params);
  const double ckpt = training && trainable > 0 ? trainable * q.checkpoint_bytes_per_param : 0.0;
  // What a checkpoint holds per trained parameter, in words.
  const std::string ckpt_holds = q.checkpoint_bytes_per_param == sgd_checkpoint_bytes_per_param
                                     ? "fp32 weights and SGD momentum: 8 B per parameter"
                                 : q.checkpoint_bytes_per_param == adam_checkpoint_bytes_per_param
                                     ? "fp32 master copy and Adam states: 14 B per trained parameter"
                                     : format_number(q.checkpoint_bytes_per_param, 4) + " B per trained parameter";

  // --- System RAM ---------------------------------------------------------------------------------
  {
    SizingLine l;
    l.item = "system RAM";
    const double os = 16.0 * 1024 * 1024 * 1024;          // OS, desktop, editor, monitoring
    const double per_process = 3.0 * 1024 * 1024 * 1024;  // host RSS of one CUDA process: runtime, framework, kernels' host side
    double need = os + per_process * q.gpus;
    l.parts.push_back("OS, desktop and tools: 16 GiB");
    l.parts.push_back(std::to_string(q.gpus) + " GPU process" + (q.gpus > 1 ? "es" : "") + " x 3 GiB (CUDA runtime and framework on the host)");
    if (params > 0) {
      need += q.weight_bytes * params;  // weights read into host memory once (memory-mapped safetensors share the page cache)
      l.parts.push_back("model weights staged once (" + format_number(8 * q.weight_bytes, 3) + " bit): " + size_text(q.weight_bytes * params));
    }
    const double loader = (q.samples_per_second > 0 ? 2.0 : 0.5) * 1024 * 1024 * 1024 * q.gpus;
    need += loader;
    l.parts.push_back(std::string("data loaders and pinned buffers: ") + (q.samples_per_second > 0 ? "2 GiB" : "0.5 GiB") + " per GPU");
    if (ckpt > 0) {
      need += ckpt;
      l.parts.push_back("a checkpoint copied to host memory before it is written (asynchronous checkpointing): " + size_text(ckpt));
    }
    if (q.offload_optimizer && trainable > 0) {
      need += 16 * trainable;  // fp32 master weights, Adam m and v, fp32 gradients (ZeRO-Offload, Ren et al. 2021 §4)
      l.parts.push_back("ZeRO-Offload optimizer states and fp32 gradients, 16 B per trained parameter: " + size_text(16 * trainable));
    }
    if (q.cache_dataset && q.dataset.value() > 0) {
      need += q.dataset.value();
      l.parts.push_back("the dataset in the page cache: " + size_text(q.dataset.value()));
    }
    s.ram_needed = DataSize::from_value(need);
    s.ram = DataSize::from_value(detail::common_ram_size(need));
    l.value = s.ram.value();
    l.answer = size_text(s.ram.value()) + " (need " + size_text(need) + ")";
    l.rule = "the sum of what lives in host memory at once (the parts above), rounded up to a size built from equal DIMMs; "
             "the GPUs' memory does not need a copy in RAM";
    const std::string need_text = size_text(need);
    const double v = vram;
    l.rules_of_thumb.push_back({"system RAM = 2-4 x the GPUs' memory", "deep-learning workstation article (seeds, 000)",
                                size_text(2 * v) + " to " + size_text(4 * v), detail::compare_range(2 * v, 4 * v, need, need_text)});
    l.rules_of_thumb.push_back({"8-16 GB of RAM per GB of GPU memory for training", "deep-learning server article (seeds, 002)",
                                size_text(8 * v) + " to " + size_text(16 * v), detail::compare_range(8 * v, 16 * v, need, need_text)});
    l.rules_of_thumb.push_back({"at least as much RAM as the largest GPU's memory", "Tim Dettmers, \"A Full Hardware Guide to Deep Learning\"",
                                size_text(g.memory.value()), detail::compare_range(g.memory.value(), g.memory.value(), need, need_text)});
    s.lines.push_back(std::move(l));
  }

  // --- CPU cores -----------------------------------------------------------------------------------
  {
    SizingLine l;
    l.item = "CPU cores";
    const double per_gpu = q.samples_per_second / q.gpus;
    const int workers = q.samples_per_second > 0 ? static_cast<int>(std::ceil(per_gpu / q.decode_per_core)) : 1;
    s.cpu_cores = 2 + q.gpus * (1 + workers);
    l.value = s.cpu_cores;
    l.parts.push_back("2 for the OS and the rest");
    l.parts.push_back(std::to_string(q.gpus) + " x 1 driving each GPU (one process per GPU)");
    if (q.samples_per_second > 0) {
      l.parts.push_back(std::to_string(q.gpus) + " x " + std::to_string(workers) + " data-loader workers: " + format_number(per_gpu, 4) +
                        " samples/s per GPU / " + format_number(q.decode_per_core, 4) + " decoded per core-second (JPEG decode and augmentation)");
    } else {
      l.parts.push_back(std::to_string(q.gpus) + " x 1 data-loader worker (pre-tokenized data costs little to feed)");
    }
    l.answer = std::to_string(s.cpu_cores) + " cores";
    if (q.cpu) {
      const int have = q.cpu->cores;
      l.answer += "; " + q.cpu->id + " has " + std::to_string(have) + (have >= s.cpu_cores ? " (enough)" : " (too few: the GPUs will wait for data)");
    }
    l.rule = "one core drives each GPU process, plus enough loader workers to decode what the GPUs consume (perf/data_loading.hpp); "
             "decoding on the GPUs (NVIDIA DALI) removes most of the workers";
    l.rules_of_thumb.push_back({"8 or more cores (Intel i7/i9, AMD Ryzen 7/9)", "deep-learning workstation article (seeds, 000)", "8+ cores",
                                s.cpu_cores <= 8 ? "enough here" : "too few here: " + std::to_string(s.cpu_cores) + " cores keep the GPUs fed"});
    s.lines.push_back(std::move(l));
  }

  // --- Storage capacity ---------------------------------------------------------------------------
  {
    SizingLine l;
    l.item = "storage";
    double need = 200e9;
    l.parts.push_back("OS, toolkits, containers and environments: 200 GB");
    if (params > 0) {
      need += q.weight_bytes * params;
      l.parts.push_back("the model's weights (" + format_number(8 * q.weight_bytes, 3) + " bit): " + size_text(q.weight_bytes * params));
    }
    if (q.dataset.value() > 0) {
      need += q.dataset.value();
      l.parts.push_back("the dataset: " + size_text(q.dataset.value()));
    }
    if (ckpt > 0 && q.checkpoints_kept > 0) {
      need += ckpt * q.checkpoints_kept;
      l.parts.push_back(std::to_string(q.checkpoints_kept) + " checkpoints of " + size_text(ckpt) + " (" +
                        (q.task == SizingTask::finetune ? "adapters" : "weights") + ", " + ckpt_holds + ")");
    }
    s.storage = DataSize::from_value(need);
    l.value = need;
    l.answer = size_text(need);
    l.rule = "everything kept on local disk at once (the parts above); a drive fuller than about 80 % writes slower";
    l.rules_of_thumb.push_back({"a large NVMe SSD for system and data, an HDD for checkpoints and backups", "deep-learning workstation article (seeds, 000)",
                                "NVMe + HDD", "sound, if the HDD only takes finished checkpoints: writing a " + size_text(ckpt) +
                                                  " checkpoint at 250 MB/s stalls training for " + format_number(ckpt / 250e6, 3) + " s"});
    s.lines.push_back(std::move(l));
  }

  // --- Storage bandwidth --------------------------------------------------------------------------
  {
    SizingLine l;
    l.item = "storage bandwidth";
    const double read = q.samples_per_second * q.sample_size.value();
    const double write = ckpt / 60.0;  // a checkpoint in a minute
    s.storage_read = Bandwidth::from_value(read);
    s.storage_write = Bandwidth::from_value(write);
    l.value = std::max(read, write);
    l.parts.push_back(q.samples_per_second > 0 ? "read: " + format_number(q.samples_per_second, 4) + " samples/s x " + size_text(q.sample_size.value()) +
                                                     " = " + format(s.storage_read, {.significant = 3})
                                               : std::string("read: token data is a few bytes per token, far below any SSD"));
    if (ckpt > 0) l.parts.push_back("write: a " + size_text(ckpt) + " checkpoint within a minute = " + format(s.storage_write, {.significant = 3}));
    l.answer = "read " + format(s.storage_read, {.significant = 3}) + ", write " + format(s.storage_write, {.significant = 3});
    l.rule = "random reads of the samples the GPUs consume; a checkpoint written within a minute keeps a 30-minute checkpoint interval "
             "under 4 % stall (plan/goodput.hpp times the real stall)";
    s.lines.push_back(std::move(l));
  }

  // --- PCIe lanes ----------------------------------------------------------------------------------
  {
    SizingLine l;
    l.item = "PCIe lanes";
    const int gpu_lanes = g.pcie_lanes > 0 ? g.pcie_lanes : 0;
    s.pcie_lanes = q.gpus * gpu_lanes + 4 * q.nvme_drives;
    l.value = s.pcie_lanes;
    if (gpu_lanes > 0) {
      l.parts.push_back(std::to_string(q.gpus) + " GPU" + (q.gpus > 1 ? "s" : "") + " x " + std::to_string(gpu_lanes) + " lanes (gen " +
                        std::to_string(g.pcie_generation) + ": " + format(perf::pcie_bandwidth(g.pcie_generation, gpu_lanes), {.significant = 3}) +
                        " per direction each; at x8 " + format(perf::pcie_bandwidth(g.pcie_generation, 8), {.significant = 3}) + ")");
    } else {
      l.parts.push_back(g.id + " is not a PCIe card");
    }
    l.parts.push_back(std::to_string(q.nvme_drives) + " NVMe drive" + (q.nvme_drives == 1 ? "" : "s") + " x 4 lanes");
    l.answer = std::to_string(s.pcie_lanes) + " lanes";
    if (q.cpu) {
      const int have = q.cpu->pcie_lanes - q.cpu->chipset_lanes;
      const int each = lanes_per_card(gpu_lanes, q.gpus, cpu_free_lanes(*q.cpu, q.nvme_drives));
      l.answer += "; " + q.cpu->id + " has " + std::to_string(have) +
                  (q.cpu->chipset_lanes > 0 ? " free (" + std::to_string(q.cpu->pcie_lanes) + ", " + std::to_string(q.cpu->chipset_lanes) + " link the chipset)"
                                            : std::string()) +
                  (have >= s.pcie_lanes ? " (every GPU at full width)"
                                        : " (not enough: the GPUs run at x" + std::to_string(each) +
                                              " each, or share lanes through a switch; data-parallel gradient exchange over PCIe slows accordingly)");
    }
    l.rule = "full-width slots for every GPU and 4 lanes per NVMe drive; consumer platforms give 20-28 lanes, workstation and server "
             "platforms 64-128 per socket. Slot width (2-4 slots per consumer card) is not in the catalog: check the board's spacing";
    l.rules_of_thumb.push_back({"x16/x16, or at least x16/x8, for several GPUs", "deep-learning workstation article (seeds, 000)",
                                std::to_string(16 * q.gpus) + " lanes for x16 each", "right for data-parallel training over PCIe; serving one model per GPU does not need it"});
    s.lines.push_back(std::move(l));
  }

  // --- Host memory bandwidth -----------------------------------------------------------------------
  // GPUs on a CPU's root ports, as a workstation's slots are, exchange every collective's bytes
  // through host memory (NCCL's SHM transport; GeForce cards, which have no peer-to-peer, on any
  // host): each byte a GPU sends is written to DRAM and read back, so n GPUs sending at once need 2n
  // times one GPU's rate, of which DRAM sustains perf::host_memory_efficiency (STREAM) of its wire
  // rate (perf/communication.hpp shm_host_share). With a CPU short of lanes, the cards run narrower
  // (hardware/gpu_slots.hpp lanes_per_card: x8 each for two cards on a desktop CPU).
  if (q.gpus > 1 && !perf::linkless(g)) {
    // On that CPU's root ports (hardware/gpu_slots.hpp): its free lanes shared, at the older PCIe generation.
    GpuSpec slot = g;
    if (q.cpu && g.pcie_lanes > 0 && q.cpu->pcie_lanes > 0) {
      slot.pcie_lanes = lanes_per_card(g.pcie_lanes, q.gpus, cpu_free_lanes(*q.cpu, q.nvme_drives));
      if (q.cpu->pcie_generation > 0) slot.pcie_generation = std::min(g.pcie_generation, q.cpu->pcie_generation);
    }
    const bool narrow = slot.pcie_lanes < g.pcie_lanes;
    // Cards with their own fans go in a workstation, on the CPU's root ports; passively cooled ones in
    // a server, under PCIe switches.
    const perf::Cluster node =
        perf::make_cluster(slot, q.gpus, q.gpus, perf::Link{}, desktop_card(g) ? perf::PcieHost::root_complex : perf::PcieHost::pcie_switch);
    const perf::Link& link = node.intra_for(q.gpus);
    if (link.kind == perf::LinkKind::pcie_via_host && link.bandwidth.value() > 0) {
      SizingLine l;
      l.item = "host memory bandwidth";
      const double n = q.gpus;
      const double per_gpu = perf::shm_efficiency * link.bandwidth.value();  // NCCL through host memory, one GPU
      const double need = 2.0 * n * per_gpu / perf::host_memory_efficiency;
      l.value = need;
      const auto gbs = [](double bytes_per_s) { return format(Bandwidth::from_value(bytes_per_s), {.significant = 3}); };
      // How many channels of the DDR this PCIe generation's platforms carry (perf::assumed_host_memory_bandwidth:
      // DDR5-4800 with PCIe 5, DDR4-3200 with PCIe 4, DDR4-2933 before).
      const int ddr = g.pcie_generation >= 5 ? 4800 : g.pcie_generation == 4 ? 3200 : 2933;
      const std::string ddr_name = g.pcie_generation >= 5 ? "DDR5-4800" : g.pcie_generation == 4 ? "DDR4-3200" : "DDR4-2933";
      const int channels = static_cast<int>(std::ceil(need / (8.0 * ddr * 1e6) - 1e-9));
      const std::string sockets = channels <= 8 ? "" : channels <= 12 ? ": one 12-channel socket, or two" : channels <= 24 ? ": two sockets" : ": more than two sockets";
      l.parts.push_back(std::to_string(q.gpus) + " GPUs x " + gbs(per_gpu) + " each through host memory (NCCL's SHM transport over PCIe gen " +
                        std::to_string(slot.pcie_generation) + " x" + std::to_string(slot.pcie_lanes) + (narrow ? ", the CPU's lanes shared" : "") + " at " + format_number(perf::shm_efficiency, 3) + " of " +
                        gbs(link.bandwidth.value()) + ") x 2 (every byte is written to host memory and read back) / " +
                        format_number(perf::host_memory_efficiency, 2) + " (the share of the DIMMs' wire rate a program sustains, STREAM)");
      l.answer = gbs(need) + " of DRAM (" + std::to_string(channels) + " channels of " + ddr_name + sockets + ")";
      // What each GPU's collectives get from `have` B/s of DRAM, against their PCIe rate.
      const auto share_text = [&](double have) {
        const double share = perf::host_memory_efficiency * have / (2.0 * n);
        return gbs(share) + ", " + format_number(100.0 * share / per_gpu, 3) + " % of the " + gbs(per_gpu) + " they get with enough DRAM";
      };
      if (q.cpu) {
        const double have = memory_bandwidth(*q.cpu).value();
        if (have <= 0)
          l.answer += "; " + q.cpu->id + "'s memory speed is not recorded (" + (q.cpu->memory_type.empty() ? std::string("no memory type") : q.cpu->memory_type) + ")";
        else
          l.answer += "; " + q.cpu->id + " has " + std::to_string(q.cpu->memory_channels) + " channels of " + q.cpu->memory_type + " = " + gbs(have) +
                      " a socket, all filled (" + (have >= need ? std::string("enough") : "each GPU's collectives get " + share_text(have)) + ")";
      }
      l.rule = "on a CPU's root ports NCCL passes collectives through host memory (GeForce cards, without peer-to-peer, on any host), so "
               "the CPU's memory channels (filled, one DIMM each) times their speed set how fast the GPUs exchange gradients; DIMMs in fewer "
               "channels add capacity, not bandwidth, and a second DIMM in a DDR5 channel slows it (hardware/host_memory.hpp; "
               "perf/communication.hpp shm_host_share). Under PCIe "
               "switches cards with peer-to-peer (data-centre and workstation cards) need none of it";
      const double desktop = 2 * 8.0 * 5600e6;  // 2 channels of DDR5-5600: a Ryzen 7000 or Core 13th-gen desktop at its best
      l.rules_of_thumb.push_back({"memory frequency matters, but less than capacity; an i7/i9 or Ryzen 7/9 desktop is enough",
                                  "deep-learning workstation article (seeds, 000)", "2 channels of DDR5-5600: " + gbs(desktop),
                                  desktop >= need         ? "holds here: a desktop's memory carries these GPUs' exchanges"
                                  : desktop >= 0.9 * need ? "about holds here: with a desktop's 2 channels each GPU's collectives get " + share_text(desktop)
                                                          : "wrong here: with a desktop's 2 channels each GPU's collectives get " + share_text(desktop) +
                                                                "; these GPUs need " + std::to_string(channels) + " channels, a workstation or server CPU's"});
      s.lines.push_back(std::move(l));
    }
  }

  // --- Heat and airflow ----------------------------------------------------------------------------
  {
    SizingLine l;
    l.item = "cooling";
    s.gpu_power = g.tdp * static_cast<double>(q.gpus);
    // An SoC's TDP holds its CPU: each SoC's box adds its board, fans, memory and drive (plan/it_power.hpp).
    const bool soc = g.form_factor == FormFactor::soc;
    const double host = soc ? SystemPowerAssumptions{}.soc_box().value() * q.gpus : q.cpu ? full_load_power(*q.cpu).value() + 75.0 : 250.0;
    const double watts = s.gpu_power.value() + host;
    const HeatOutput heat = heat_output(Power::from_value(watts));
    // Sensible heat of air (ASHRAE Handbook, Fundamentals): Q [BTU/h] = 1.08 x CFM x dT [F], so
    // CFM = 3.16 x W / dT [F]; with the air 10 C (18 F) warmer leaving the case than entering.
    s.airflow_cfm = 3.16 * watts / 18.0;
    l.value = s.airflow_cfm;
    l.parts.push_back("GPUs at TDP: " + format(s.gpu_power, {.significant = 4}));
    l.parts.push_back(soc   ? std::to_string(q.gpus) + " x the SoC's box (its CPU in the SoC's TDP; board, fans, memory and drive): " +
                                  format(Power::from_value(host), {.significant = 4})
                      : q.cpu ? std::string(q.cpu->max_power ? "CPU at its maximum power (PPT, PL2)" : "CPU at TDP") +
                                    " + 75 W board and fans: " + format(Power::from_value(host), {.significant = 4})
                              : std::string("host allowance: 250 W (no CPU chosen)"));
    l.answer = format_number(s.airflow_cfm, 3) + " CFM through the case, " + format_number(heat.btu_per_hour, 4) + " BTU/h for the room";
    l.rule = "all power ends as heat (power/heat.hpp); air must carry it out: CFM = 3.16 x W / dT(F), dT = 18 F (10 C) (ASHRAE sensible-heat "
             "equation). Blower-style or server cards suit packed multi-GPU cases; open-air consumer cards need the slot between them";
    s.lines.push_back(std::move(l));
  }
  s.assumptions = {"The allowances (16 GiB OS, 3 GiB per GPU process, 0.5-2 GiB data-loader buffers per GPU, 200 GB of software, a checkpoint "
                   "within a minute, 10 C air temperature rise) are capplan's assumptions, not measurements.",
                   q.checkpoint_bytes_per_param == adam_checkpoint_bytes_per_param
                       ? "Checkpoints: 14 B per trained parameter (plan/goodput.hpp: bf16 weights, fp32 master copy, Adam m and v)."
                       : "Checkpoints: " + ckpt_holds + " (plan/goodput.hpp)."};
  return s;
}

}  // namespace capplan
