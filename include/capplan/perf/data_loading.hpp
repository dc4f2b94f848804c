// Data-loading check: can storage and CPUs feed the GPUs the samples they consume?
//
//   storage limit = read bandwidth / mean sample size   (random reads of small files: IOPS x size)
//   CPU limit     = cores x samples decoded per core-second (JPEG decode + augmentation)
//   needed        = the training estimate's samples/s
// A 7,200 rpm hard disk serves ~100-200 random reads/s (seek + rotation ~8 ms); ImageNet-1k's
// 1,281,167 training JPEGs average ~110 KB (about 140 GB), so one HDD feeds ~150 x 110 KB = 16.5 MB/s
// = ~150 images/s, while an NVMe Gen4 SSD reads ~7 GB/s and ~1M IOPS (Samsung 980 PRO datasheet).
#pragma once

#include "capplan/error.hpp"
#include "capplan/perf/explain.hpp"
#include "capplan/units/quantity.hpp"

#include <algorithm>
#include <string>

namespace capplan::perf {

struct Storage {
  std::string name;
  Bandwidth sequential_read{};
  double random_reads_per_second = 0;  // IOPS for sample-sized reads
};

// Samsung 980 PRO (PCIe 4.0 NVMe): 7,000 MB/s sequential read, 1,000K random-read IOPS (datasheet).
inline Storage nvme_gen4_ssd() { return Storage{"NVMe PCIe 4.0 SSD", from_canonical<Bandwidth>(7.0e9), 1.0e6}; }
// 7,200 rpm SATA HDD: ~250 MB/s sequential, ~150 random IOPS (4.17 ms half-rotation + ~4 ms seek).
inline Storage hdd_7200rpm() { return Storage{"7,200 rpm HDD", from_canonical<Bandwidth>(250e6), 150.0}; }

struct DataPipeline {
  Storage storage = nvme_gen4_ssd();
  int drives = 1;
  DataSize mean_sample_size = from_canonical<DataSize>(110e3);  // ImageNet-1k JPEG mean (~140 GB / 1.28 M)
  bool cached_in_ram = false;    // dataset fits in page cache after the first epoch
  int cpu_cores = 16;
  // JPEG decode + random-resized-crop + flip per core: ~100-150 images/s with libjpeg-turbo / Pillow-SIMD
  // (Pillow-SIMD benchmarks); GPU decoding (NVIDIA DALI) moves most of it off the CPU.
  double samples_per_core_second = 120;
};

struct DataLoadingCheck {
  double needed = 0;        // samples/s the GPUs consume
  double storage_limit = 0; // samples/s the storage serves
  double cpu_limit = 0;     // samples/s the CPUs decode
  [[nodiscard]] double limit() const { return std::min(storage_limit, cpu_limit); }
  [[nodiscard]] bool ok() const { return limit() >= needed; }
  [[nodiscard]] std::string bottleneck() const {
    if (ok()) return "none";
    return storage_limit < cpu_limit ? "storage" : "CPU";
  }
  [[nodiscard]] std::string explain() const {
    return "needed " + num(needed) + " samples/s; storage serves " + num(storage_limit) + ", CPUs decode " + num(cpu_limit) +
           (ok() ? " -> GPUs are fed" : " -> limited by " + bottleneck() + " to " + num(limit()) + " samples/s");
  }
};

inline DataLoadingCheck check_data_loading(const DataPipeline& d, double needed_samples_per_second) {
  require_nonnegative(needed_samples_per_second, "needed_samples_per_second");
  require_positive_count(d.drives, "drives");
  require_positive_count(d.cpu_cores, "cpu_cores");
  require_positive(d.mean_sample_size.value(), "mean_sample_size");
  require_positive(d.samples_per_core_second, "samples_per_core_second");
  require_positive(d.storage.sequential_read.value(), "storage.sequential_read");
  require_positive(d.storage.random_reads_per_second, "storage.random_reads_per_second");
  DataLoadingCheck c;
  c.needed = needed_samples_per_second;
  // Each sample is one random read: the storage serves min(bandwidth / size, IOPS) samples/s per drive.
  const double per_drive = std::min(d.storage.sequential_read.value() / d.mean_sample_size.value(), d.storage.random_reads_per_second);
  // From page cache: ~20 GB/s of memory copy per host (DDR4/DDR5 single-socket memcpy).
  c.storage_limit = d.cached_in_ram ? 20e9 / d.mean_sample_size.value() : per_drive * d.drives;
  c.cpu_limit = d.cpu_cores * d.samples_per_core_second;
  return c;
}

}  // namespace capplan::perf
