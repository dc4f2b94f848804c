// The built-in catalog, written as code: accelerators, CPUs, system parts, builds and cloud
// offers. Nothing is read at run time; capplan::Catalog::builtin() and Catalog::make_builtin(),
// declared in catalog.hpp and defined at the end of this header, hold these.
//
// Rules every entry follows:
//   * tensor rates are DENSE: where a datasheet prints only "with sparsity" figures (marked *),
//     the stored figure is half of it and the comment says so;
//   * the fp16/bf16 rate is the one with FP32 accumulate (GeForce: half the FP16-accumulate rate);
//   * `source` names the datasheet or page, `as_of` the date the figures were recorded, and
//     `note` says what could not be verified or is derived; a price is given only with its
//     own date and source, and where none could be sourced the field is left empty;
//   * 0 W idle power means the vendor publishes no idle figure.
#pragma once

#include "capplan/hardware/catalog.hpp"
#include "capplan/hardware/chassis.hpp"
#include "capplan/hardware/cloud.hpp"
#include "capplan/hardware/cpu.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/hardware/memory_module.hpp"
#include "capplan/hardware/motherboard.hpp"
#include "capplan/hardware/network_adapter.hpp"
#include "capplan/hardware/psu.hpp"
#include "capplan/hardware/storage.hpp"
#include "capplan/hardware/system.hpp"

#include <string>
#include <utility>
#include <vector>

namespace capplan::builtin {

// The date the built-in figures were recorded (and, where the note says so, checked against a
// stored copy of the source).
// The built-in records are built once, at the first Catalog::builtin(), by a few very long
// functions of aggregate initializers: optimizing them buys nothing at run time and took most of
// the compile time of every translation unit that uses the catalog (about 5 s each at -O1 with
// GCC 12), so GCC compiles them unoptimized and cold.
#if defined(__GNUC__) && !defined(__clang__)
#define CAPPLAN_CATALOG_DATA [[gnu::optimize("O0"), gnu::cold]]
#else
#define CAPPLAN_CATALOG_DATA
#endif

inline constexpr const char* recorded = "2026-11-21";

inline PricePoint usd(const char* amount, const char* as_of, std::string source) {
  return PricePoint{.amount = Money(amount, Currency::USD), .as_of = as_of, .source = std::move(source)};
}
inline PricePoint usd_range(const char* low, const char* high, const char* as_of, std::string source) {
  return PricePoint{.amount = Money(low, Currency::USD), .as_of = as_of, .source = std::move(source),
                    .high = Money(high, Currency::USD)};
}
inline MoneyRate usd_per_hour(const char* amount) { return MoneyRate(amount, Currency::USD); }

// Sources used by several entries.
namespace src {
inline constexpr const char* h100 = "NVIDIA H100 Tensor Core GPU datasheet, https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet";
inline constexpr const char* h200 = "NVIDIA H200 product page and datasheet, https://www.nvidia.com/en-us/data-center/h200/";
inline constexpr const char* a100 = "NVIDIA A100 datasheet, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf";
inline constexpr const char* v100 = "NVIDIA V100 datasheet, https://images.nvidia.com/content/technologies/volta/pdf/volta-v100-datasheet-update-us-1165301-r5.pdf";
inline constexpr const char* ada = "NVIDIA Ada GPU architecture whitepaper, appendix A, https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf";
inline constexpr const char* ga102 = "NVIDIA Ampere GA102 GPU architecture whitepaper, appendix A, https://www.nvidia.com/content/PDF/nvidia-ampere-ga-102-gpu-architecture-whitepaper-v2.pdf";
inline constexpr const char* mi200 = "AMD Instinct MI200 series product pages, https://www.amd.com/en/products/accelerators/instinct/mi200.html";
inline constexpr const char* unverified = "Figures recalled from the cited source; not re-checked against a stored copy in this session.";
inline constexpr const char* source_material = "capplan project source material, as quoted in issue 3 (hardware and price catalog)";
// PCPartPicker US prices as scraped into docyx/pc-part-dataset; its README at that commit says
// "Last updated: July 23, 2025".
inline constexpr const char* pcpp = "PCPartPicker (US) price as scraped into https://github.com/docyx/pc-part-dataset (data/csv, commit 06ffc8eec068db5e8145e012ad2ec11e56a7c969, README: last updated 2025-07-23)";
inline constexpr const char* pcpp_date = "2025-07-23";
// Epoch AI's hardware price database (the snapshot published with "The rising costs of training
// frontier AI models", Cottier et al. 2024): each row a dated purchase or rental price with its source.
inline constexpr const char* epoch = "Epoch AI's hardware price data, https://github.com/epoch-research/training-cost-trends/blob/f2dc68a9df5f5895244c1fecdbacaf606dfa8c42/data/Hardware%20prices.csv";
// The per-SM tensor throughput of an architecture, from its whitepaper's flagship column, scaled
// to another SKU by SM count and boost clock: how NVIDIA itself computes the appendix figures.
inline constexpr const char* ga10x_per_sm = "GA10x: 512 dense FP16 FMA per SM per clock with FP16 accumulate (RTX 3090 in the GA102 whitepaper: 142 TFLOPS = 82 SMs x 1,695 MHz x 1,024 FLOP)";
inline constexpr const char* ada_per_sm = "Ada: 512 dense FP16 FMA per SM per clock with FP16 accumulate (RTX 4090 in the Ada whitepaper: 330.3 TFLOPS = 128 SMs x 2,520 MHz x 1,024 FLOP)";
}  // namespace src

// A chipset's priced listings in the PCPartPicker snapshot (video-card.csv, whose `memory` column
// tells the 8 GB and 16 GB cards of one chipset apart): the lowest and the median price. The median
// of many listings is what a buyer typically pays; the lowest is one card, often a single retailer's.
inline PricePoint pcpp_listings(const char* low, const char* median, const char* chipset, int priced, int listed, int memory_gb = 0) {
  std::string what = std::string(src::pcpp) + "; video-card.csv, chipset \"" + chipset + "\"" +
                     (memory_gb > 0 ? " with " + std::to_string(memory_gb) + " GB" : std::string()) + ": the lowest and the median of the " +
                     std::to_string(priced) + " listings with a price (of " + std::to_string(listed) + ")";
  return usd_range(low, median, src::pcpp_date, std::move(what));
}
// A card with one priced listing in that snapshot.
inline PricePoint pcpp_listing(const char* price, const char* chipset, const char* card) {
  return usd(price, src::pcpp_date,
             std::string(src::pcpp) + "; video-card.csv, chipset \"" + chipset + "\": one listing with a price (" + card + ")");
}

CAPPLAN_CATALOG_DATA inline std::vector<GpuSpec> gpus() {
  using namespace capplan::literals;
  std::vector<GpuSpec> v;
  v.reserve(40);

  // ---------------------------------------------------------------- NVIDIA data centre: Hopper, Blackwell
  // Boards (board_gpus, the smallest baseboard a module ships on): the H100 and H200 datasheets' server
  // options, "NVIDIA HGX H100 / H200 partner and NVIDIA-Certified Systems with 4 or 8 GPUs"; the A100
  // datasheet's "HGX A100 ... with 4, 8, or 16 GPUs"; V100 SXM2 in 4-GPU boards (DGX Station) and
  // 8-GPU HGX-1; B200 and B300 only in 8-GPU HGX and DGX systems; H800, H20 and A800 SXM in 8-GPU HGX
  // servers (no 4-GPU board of them is listed); GB200 / GB300 in NVL72 racks; AMD's MI300X, MI325X and
  // MI350-series platforms 8 OAM on a universal baseboard, an MI250X / MI250 board 4 OAM (8 GCDs, the
  // catalog's unit); Intel's Gaudi 3 HLB-325 baseboard 8 OAM.
  // H100 SXM5 80GB: H100 datasheet (SXM column): FP64 tensor 67, FP32 67, TF32 989*, BF16/FP16 1,979*,
  // FP8 3,958*, INT8 3,958* (* with sparsity; dense = half); 80 GB HBM3, 3.35 TB/s, up to 700 W,
  // NVLink 900 GB/s (450 GB/s per direction), PCIe Gen5. Matches reference-cases.md §6.
  // Usable memory: nvidia-smi reports 81,559 MiB total (https://github.com/modal-labs/modal-client/pull/2797).
  v.push_back({.id = "h100-sxm", .name = "NVIDIA H100 SXM5 80GB", .aliases = {"H100 SXM", "H100 SXM5", "H100-SXM5-80GB"},
               .vendor = Vendor::nvidia, .architecture = "Hopper", .form_factor = FormFactor::sxm,
               .memory = 80_GB, .usable_memory = 81559_MiB, .memory_type = "HBM3", .memory_bandwidth = 3.35_TBps,
               .dense = dense_rates({.fp64 = 67, .fp32 = 67, .tf32 = 494.5, .bf16 = 989.5, .fp16 = 989.5, .fp8 = 1979, .int8 = 1979}),
               .tdp = 700_W, .nvlink_generation = 4, .nvlink_bandwidth = 450_GBps, .pcie_generation = 5, .pcie_lanes = 16,
               .ecc = true,
               // Street price: Epoch AI's price data, 2025: per GPU, an 8 x H100 SXM5 baseboard ($230,000) and an 8-GPU
               // HGX H100 ($255,237); a single H100 SXM5 listed at $31,250 lies between. (Before: Raymond James's
               // $25,000-30,000 estimate of 2023-08-16.)
               .board_gpus = 4, .street_price = usd_range("28750", "31904.63", "2025-01-31", std::string(src::epoch) + "; per GPU, an 8 x H100 SXM5 baseboard at $230,000 (interpromicro.com, 2025-03-03, https://www.interpromicro.com/product/40088-nvidia-h100-sxm5-baseboard) and an 8-GPU HGX H100 (2025-01-31, https://archive.ph/miFcW); a single H100 SXM5 listed at $31,250 by Uvation's marketplace (2025-03-03) lies between"),
               .source = src::h100, .as_of = recorded,
               .note = "Dense = half the datasheet's sparsity figures (989*/1,979*/3,958*); dense BF16 989, 80 GB HBM3, 3.35 TB/s and 700 W checked at https://grokipedia.com/page/Nvidia_H100 and https://pricegpu.pages.dev/blog/h100-vs-a100-cloud-price. No vendor list price is published; the street price is Epoch AI's 2025 range per GPU, from an 8-GPU baseboard's and an HGX server's prices (the 2023 analyst estimate it replaces was $25,000-30,000)."});
  // H100 PCIe 80GB: H100 datasheet (PCIe column): FP64 tensor 51, FP32 51, TF32 756*, BF16/FP16 1,513*,
  // FP8/INT8 3,026*; 80 GB HBM2e, 2 TB/s, 300-350 W; NVLink bridge 600 GB/s (300 per direction), PCIe Gen5.
  v.push_back({.id = "h100-pcie", .name = "NVIDIA H100 PCIe 80GB", .aliases = {"H100 PCIe", "H100-PCIe-80GB"},
               .vendor = Vendor::nvidia, .architecture = "Hopper", .form_factor = FormFactor::pcie,
               .memory = 80_GB, .usable_memory = 81559_MiB, .memory_type = "HBM2e", .memory_bandwidth = 2.0_TBps,
               .dense = dense_rates({.fp64 = 51, .fp32 = 51, .tf32 = 378, .bf16 = 756.5, .fp16 = 756.5, .fp8 = 1513, .int8 = 1513}),
               .tdp = 350_W, .nvlink_generation = 4, .nvlink_bandwidth = 300_GBps, .pcie_generation = 5, .pcie_lanes = 16,
               .ecc = true, .slot_width = 2, .length = 266.7_mm, .cooling = GpuCooling::passive,
               .street_price = usd("24500", "2025-03-03", std::string(src::epoch) + "; a new H100 80GB PCIe listed by Uvation's marketplace, https://web.archive.org/web/20250303201322/https://marketplace.uvation.com/nvidia-h100-tensor-core-gpu-80gb-pcie-new-1/"),
               .source = src::h100, .as_of = recorded,
               .note = std::string("Usable memory: 81,559 MiB, the total nvidia-smi reports for an H100 PCIe (a TensorRT-LLM test report in a public repository: \"NVIDIA H100 PCIe (81559 MiB)\"), as for the H100 SXM. TDP is the upper end of the datasheet's 300-350 W. NVLink via 2-GPU bridge. No vendor list price.") + " Card: \"dual-slot 10.5 inch PCI Express Gen5 card\" with a \"passive heat sink\" that \"requires system airflow\" (NVIDIA H100 PCIe product brief PB-11133-001, mirrored at https://manuals.plus/m/d4b5dc21484df3ba8fbe84918338461cc074a3fcebcc13423eadc2b10ac3bda4)."});
  // H200 SXM 141GB: H200 datasheet: same Hopper tensor rates as H100 SXM (BF16 1,979*, FP8 3,958*),
  // 141 GB HBM3e, 4.8 TB/s, up to 700 W, NVLink 900 GB/s. Matches reference-cases.md §6.
  // Usable memory: nvidia-smi reports 143,771 MiB total (150.8 GB: the datasheet's "141 GB" is nearer
  // GiB), read on an H200 in-house on 2026-11-27 (validation/measured/h200-2026-11-27.json).
  v.push_back({.id = "h200-sxm", .name = "NVIDIA H200 SXM 141GB", .aliases = {"H200", "H200 SXM"},
               .vendor = Vendor::nvidia, .architecture = "Hopper", .form_factor = FormFactor::sxm,
               .memory = 141_GB, .usable_memory = 143771_MiB, .memory_type = "HBM3e", .memory_bandwidth = 4.8_TBps,
               .dense = dense_rates({.fp64 = 67, .fp32 = 67, .tf32 = 494.5, .bf16 = 989.5, .fp16 = 989.5, .fp8 = 1979, .int8 = 1979}),
               .tdp = 700_W, .nvlink_generation = 4, .nvlink_bandwidth = 450_GBps, .pcie_generation = 5, .pcie_lanes = 16,
               .ecc = true,
               .board_gpus = 4, .street_price = usd_range("33820.65", "39083.38", "2024-03-27", std::string(src::epoch) + "; per GPU, an 8 x H200 baseboard at $270,565 (anafrashop.com, 2024-03-27, https://web.archive.org/web/20250310135833/https://anafrashop.com/nvidia-gpu-baseboard-8-h200-935-24287-0040-000-4) and an 8-GPU HGX H200 on sale (2025-01-31, https://archive.ph/TxlLv)"),
               .source = src::h200, .as_of = recorded,
               .note = "Dense = half the datasheet's sparsity figures. No vendor list price."});
  // B200 in HGX B200 (1,000 W): NVIDIA's HGX platform table, "Individual Blackwell GPU Specifications", HGX B200
  // column: FP4 18 PF*, FP8/FP6 9 PF*, INT8 9 POPS*, FP16/BF16 4.5 PF*, TF32 2.2 PF*, FP32 75 TF, FP64/FP64 tensor 37 TF,
  // 180 GB HBM3E, 7.7 TB/s, up to 1,000 W, NVLink 5 1.8 TB/s (* with sparsity; dense = half). GB200 runs faster.
  v.push_back({.id = "b200", .name = "NVIDIA B200 (HGX B200, 180GB)", .aliases = {"B200", "B200 SXM", "HGX B200 GPU"},
               .vendor = Vendor::nvidia, .architecture = "Blackwell", .form_factor = FormFactor::sxm,
               .memory = 180_GB, .usable_memory = 183359_MiB, .memory_type = "HBM3e", .memory_bandwidth = 7.7_TBps,
               .dense = dense_rates({.fp64 = 37, .fp32 = 75, .tf32 = 1100, .bf16 = 2250, .fp16 = 2250, .fp8 = 4500, .int8 = 4500, .fp4 = 9000, .fp6 = 4500}),
               .tdp = 1000_W, .nvlink_generation = 5, .nvlink_bandwidth = 900_GBps, .pcie_generation = 6, .pcie_lanes = 16,
               .ecc = true,
               .board_gpus = 8, .unpriced = "NVIDIA sells the B200 only inside HGX and DGX B200 servers; the one dated public figure, a DGX B200 at $379,273 (Epoch AI's price data from deltacomputer.com, 2024-12-17), prices the whole server: the dgx-b200 row",
               .source = "NVIDIA HGX platform page, per-GPU table (HGX B200 column), https://www.nvidia.com/en-us/data-center/hgx/, as reproduced at https://zdszero.github.io/Computer/Artificial_Intelligence/Hardware.html",
               .as_of = recorded,
               .note = "Usable memory: 183,359 MiB (192.3 GB), the total nvidia-smi reports on HGX B200 hosts in public logs (\"NVIDIA B200 ... 0MiB / 183359MiB\", drivers 570.172.08 to 595.71.05): the product's \"180 GB\" understates it by 6.8 %. Dense = half the table's sparsity figures (TF32 2.2 PF*, FP16/BF16 4.5 PF*, FP8/FP6 9 PF*, INT8 9 POPS*, FP4 18 PF*): FP6 4.5 PF dense, the FP8 rate. FP32 75 TF, FP64 37 TF and 7.7 TB/s also match https://hmc-tech.com/gpus/nvidia-b200-vs-nvidia-b100 (75.02 / 37.51 TF, 7.7 TB/s); an earlier entry used 40/80 TF and 8 TB/s, which a third-party table gives for the HGX part but NVIDIA's table gives for GB200. The chip has 192 GB; HGX B200 is sold as 180 GB per GPU, and the runtime reports the 183,359 MiB above. No vendor list price."});
  // Added 2026-11-26: the data-centre parts a 2026 buyer weighs (Blackwell Ultra, GB200/GB300
  // NVL72 GPUs, NVL PCIe cards, the China SKUs, Ada and Ampere PCIe parts). Where NVIDIA prints only
  // "with sparsity" figures the dense rate is half, as everywhere in this catalog.
  v.push_back({.id = "b300", .name = "NVIDIA B300 (HGX B300, 270GB)", .aliases = {"B300", "B300 SXM", "HGX B300", "HGX B300 GPU", "Blackwell Ultra"},
               .vendor = Vendor::nvidia, .architecture = "Blackwell Ultra", .form_factor = FormFactor::sxm,
               .memory = 270_GB, .usable_memory = 275040_MiB, .memory_type = "HBM3e", .memory_bandwidth = 7.7_TBps,
               .dense = dense_rates({.fp64 = 1.25, .fp32 = 75, .tf32 = 1125, .bf16 = 2250, .fp16 = 2250, .fp8 = 4500, .fp4 = 13500, .fp6 = 4500}),
               .tdp = 1100_W, .nvlink_generation = 5, .nvlink_bandwidth = 900_GBps, .pcie_generation = 6, .pcie_lanes = 16, .ecc = true,
               .board_gpus = 8, .unpriced = "NVIDIA sells the B300 only inside HGX B300 servers, through server makers; no public price was found",
               .source = "NVIDIA HGX B300 per-8-GPU table as reproduced at https://fibermall.com/blog/?p=17161 (TF32 18 PF*, FP16/BF16 36 PF*, FP8/FP6 72 PF*, FP32 600 TF, FP64 10 TF, per 8 GPUs); HGX B300 memory, bandwidth and power per https://verda.com/blog/gb300-nvl72-architecture; NVIDIA, \"Inside NVIDIA Blackwell Ultra\", https://developer.nvidia.com/blog/inside-nvidia-blackwell-ultra-the-chip-powering-the-ai-factory-era",
               .as_of = "2026-11-26",
               .note = "Usable memory: 275,040 MiB (288.4 GB), the total nvidia-smi reports on HGX B300 hosts in public logs (\"NVIDIA B300 SXM6 AC ... 0MiB / 275040MiB\"). Per GPU = the HGX 8-GPU totals / 8; dense = half the sparse figures. The chip carries 288 GB HBM3e at 8 TB/s (NVIDIA blog; the GB300 part); HGX B300 listings give 270 GB, 7.7 TB/s and 1,100 W, used here. INT8 is cut on Blackwell Ultra and sources disagree (0.125-0.15 POPS dense), so no INT8 rate is stored; FP4 (NVFP4) 13.5 PF dense: the HGX B300 table's 108 PF dense per 8 GPUs, 1.5 x Blackwell's per-clock FP4 (NVIDIA blog; other listings give up to 14 PF). ECC assumed as on every NVIDIA HBM part. No vendor list price."});
  v.push_back({.id = "gb200", .name = "NVIDIA GB200 (per B200 GPU in GB200 NVL72, 186GB)", .aliases = {"GB200", "GB200 NVL72", "GB200 GPU", "NVIDIA GB200 186GB"},
               .vendor = Vendor::nvidia, .architecture = "Blackwell", .form_factor = FormFactor::sxm,
               .memory = 186_GB, .usable_memory = 189471_MiB, .memory_type = "HBM3e", .memory_bandwidth = 8_TBps,
               .dense = dense_rates({.fp64 = 40, .fp32 = 80, .tf32 = 1250, .bf16 = 2500, .fp16 = 2500, .fp8 = 5000, .int8 = 5000, .fp4 = 10000, .fp6 = 5000}),
               .tdp = 1200_W, .nvlink_generation = 5, .nvlink_bandwidth = 900_GBps, .nvlink_domain = 72, .pcie_generation = 5, .pcie_lanes = 16, .host_link_bandwidth = 225_GBps, .ecc = true,
               .board_gpus = 72, .unpriced = "sold only inside GB200 NVL72 racks, through server makers at prices agreed with each buyer; no public price was found",
               .source = "NVIDIA GB200 NVL72 specification table (per GPU: 186 GB HBM3e, 8 TB/s, TF32 2.5 PF*, FP16/BF16 5 PF*, FP8/INT8 10 PF*, FP32 80 TF, FP64 40 TF, up to 1,200 W) as reproduced at https://zdszero.github.io/Computer/Artificial_Intelligence/Hardware.html; 186 GB per GPU also in MLPerf Inference v6.1 system descriptions (mlcommons/inference_results_v6.1, closed/Crusoe/systems)",
               .as_of = "2026-11-26",
               .note = "Usable memory: 189,471 MiB (198.7 GB), the total nvidia-smi reports on GB200 NVL72 trays in public logs (\"NVIDIA GB200 ... 0MiB / 189471MiB\", driver 580.95.05 among others). Dense = half the table's sparsity figures. FP6 is stored at the FP8 rate: the table as reproduced lists FP8 with INT8, and NVIDIA's HGX B200 table prints FP8 and FP6 on one row for the same silicon. Earlier NVIDIA figures were 45 TF FP64 / 90 TF FP32 and 192 GB. One GPU of the 72-GPU NVLink domain of a GB200 NVL72 rack (NVLink 5, 900 GB/s per direction to every other GPU of the rack); the GPU reaches its Grace CPU over NVLink-C2C. Host link: NVLink-C2C joins the Grace CPU to both GPUs of its superchip at 900 GB/s in both directions together (NVIDIA's GB200 / GB300 NVL72 specifications; one Grace and two GPUs per superchip, https://verda.com/blog/gb300-nvl72-architecture): 225 GB/s a direction per GPU when both move data at once (activation offloading), stored as host_link_bandwidth; if each GPU had a 900 GB/s link of its own, it would be twice that. Rack estimates $2-3.1 M (about $28-43k per GPU with CPUs and switches) are not stored as a GPU price."});
  v.push_back({.id = "gb300", .name = "NVIDIA GB300 (per Blackwell Ultra GPU in GB300 NVL72, 288GB)", .aliases = {"GB300", "GB300 NVL72", "GB300 GPU"},
               .vendor = Vendor::nvidia, .architecture = "Blackwell Ultra", .form_factor = FormFactor::sxm,
               .memory = 288_GB, .usable_memory = 284208_MiB, .memory_type = "HBM3e", .memory_bandwidth = 8_TBps,
               .dense = dense_rates({.fp32 = 80, .tf32 = 1250, .bf16 = 2500, .fp16 = 2500, .fp8 = 5000, .fp4 = 15000, .fp6 = 5000}),
               .tdp = 1400_W, .nvlink_generation = 5, .nvlink_bandwidth = 900_GBps, .nvlink_domain = 72, .pcie_generation = 6, .pcie_lanes = 16, .host_link_bandwidth = 225_GBps, .ecc = true,
               .board_gpus = 72, .unpriced = "sold only inside GB300 NVL72 racks, through server makers at prices agreed with each buyer; no public price was found",
               .source = "NVIDIA, \"Inside NVIDIA Blackwell Ultra\", https://developer.nvidia.com/blog/inside-nvidia-blackwell-ultra-the-chip-powering-the-ai-factory-era (288 GB HBM3e, 8 TB/s, NVFP4 15 PF dense); dense per-GPU rates and 1,400 W per https://verda.com/blog/gb300-nvl72-architecture; sparse per-package figures in https://www.tomshardware.com/pc-components/gpus/nvidia-shares-blackwell-ultras-secrets-nvfp4-boost-detailed-and-pcie-6-0-support",
               .as_of = "2026-11-26",
               .note = "Usable memory: 284,208 MiB (298.0 GB), the total nvidia-smi reports on GB300 NVL72 trays in public logs (\"NVIDIA GB300 ... 0MiB / 284208MiB\"). Dense rates as Verda labels them \"without sparsity\", half of Tom's Hardware's per-package sparse figures. FP64 (~1.25-1.4 TF) and INT8 (~0.165 POPS dense) are cut on Blackwell Ultra and not stored; FP4 (NVFP4) 15 PF dense, NVIDIA's figure; FP6 stored at the FP8 rate, as NVIDIA's HGX B300 table prints FP8 and FP6 on one row for the same silicon. One GPU of a 72-GPU NVLink domain. Host link: NVLink-C2C joins the Grace CPU to both GPUs of its superchip at 900 GB/s in both directions together (NVIDIA's GB200 / GB300 NVL72 specifications; one Grace and two GPUs per superchip, https://verda.com/blog/gb300-nvl72-architecture): 225 GB/s a direction per GPU when both move data at once (activation offloading), stored as host_link_bandwidth; if each GPU had a 900 GB/s link of its own, it would be twice that. Rack estimate $3-4 M not stored as a GPU price."});
  v.push_back({.id = "h100-nvl", .name = "NVIDIA H100 NVL 94GB", .aliases = {"H100 NVL", "H100 NVL 94GB"},
               .vendor = Vendor::nvidia, .architecture = "Hopper", .form_factor = FormFactor::pcie,
               .memory = 94_GB, .usable_memory = 95830_MiB, .memory_type = "HBM3", .memory_bandwidth = 3.9_TBps,
               .dense = dense_rates({.fp64 = 30, .fp32 = 60, .tf32 = 417.5, .bf16 = 835.5, .fp16 = 835.5, .fp8 = 1670.5, .int8 = 1670.5}),
               .tdp = 400_W, .nvlink_generation = 4, .nvlink_bandwidth = 300_GBps, .pcie_generation = 5, .pcie_lanes = 16, .ecc = true,
               .slot_width = 2, .length = 266.7_mm, .cooling = GpuCooling::passive,  // NVIDIA's H100 NVL product brief (recalled): dual-slot, 10.5 in, passive
               .street_price = usd("35098.15", "2025-03-03", std::string(src::epoch) + "; the H100 94GB PCIe (part 900-21010-0020-000, the H100 NVL) listed by anafrashop.com, https://web.archive.org/web/20250303193344/https://anafrashop.com/nvidia-h100-94gb-hbm2-900-21010-0020-000-2"),
               .source = "NVIDIA H100 product page (H100 NVL column), https://www.nvidia.com/en-us/data-center/h100/; 94 GB HBM3, 3.9 TB/s, PCIe 5.0 x16 and 350-400 W checked at https://grokipedia.com/page/210100120",
               .as_of = "2026-11-26",
               .note = std::string("Usable memory: 95,830 MiB (100.5 GB), the total nvidia-smi reports on H100 NVL hosts in public logs (\"NVIDIA H100 NVL ... 0MiB / 95830MiB\", drivers 580 to 610): more than the product's \"94 GB\". Tensor rates (TF32 835*, BF16/FP16 1,671*, FP8/INT8 3,341* with sparsity; FP64 30, FP32 60) and the NVLink bridge (600 GB/s total, 300 per direction) are the product page's column: ") + src::unverified + " Sold in pairs joined by NVLink bridges; 400 W is the top of the configurable 350-400 W. No vendor list price."});
  v.push_back({.id = "h200-nvl", .name = "NVIDIA H200 NVL 141GB", .aliases = {"H200 NVL", "H200 PCIe"},
               .vendor = Vendor::nvidia, .architecture = "Hopper", .form_factor = FormFactor::pcie,
               .memory = 141_GB, .usable_memory = 143771_MiB, .memory_type = "HBM3e", .memory_bandwidth = 4.8_TBps,
               .dense = dense_rates({.fp64 = 30, .fp32 = 60, .tf32 = 417.5, .bf16 = 835.5, .fp16 = 835.5, .fp8 = 1670.5, .int8 = 1670.5}),
               .tdp = 600_W, .nvlink_generation = 4, .nvlink_bandwidth = 450_GBps, .pcie_generation = 5, .pcie_lanes = 16, .ecc = true,
               .unpriced = "sold to server makers for their PCIe servers; no dated public price was found",
               .source = std::string(src::h200) + " (H200 NVL column); 141 GB at 4.8 TB/s per https://aiwiki.ai/wiki/nvidia_h200/raw; up to 600 W per https://itkb.uw.cz/2026/06/nvidia-h200-vs-b300-precisions-cores.html",
               .as_of = "2026-11-26",
               .note = std::string("Usable memory: 143,771 MiB (150.8 GB), the total nvidia-smi reports on H200 NVL hosts in public logs (\"NVIDIA H200 NVL (143771 MiB, driver 570.195.03)\"; \"8 x NVIDIA H200 NVL ... 143771 MiB per GPU\", driver 580.126.20), the same as our own H200 SXM reads. Tensor rates (TF32 835*, BF16/FP16 1,671*, FP8/INT8 3,341* with sparsity; FP64 30, FP32 60) and the 2- or 4-way NVLink bridge (900 GB/s total, 450 per direction) are the product page's column: ") + src::unverified + " The NVL part runs at lower clocks than the SXM part (835.5 against 989.5 dense BF16). No vendor list price; H200 units were reported at about $27,000 for Chinese orders (Reuters, January 2026), variant unspecified."});
  v.push_back({.id = "h20", .name = "NVIDIA H20 96GB (HGX H20)", .aliases = {"H20", "HGX H20", "H20 96GB"},
               .vendor = Vendor::nvidia, .architecture = "Hopper", .form_factor = FormFactor::sxm,
               .memory = 96_GB, .usable_memory = 97871_MiB, .memory_type = "HBM3", .memory_bandwidth = 4_TBps,
               .dense = dense_rates({.fp64 = 1, .fp32 = 44, .tf32 = 74, .bf16 = 148, .fp16 = 148, .fp8 = 296, .int8 = 296}),
               .tdp = 400_W, .nvlink_generation = 4, .nvlink_bandwidth = 450_GBps, .pcie_generation = 5, .pcie_lanes = 16, .ecc = true,
               .board_gpus = 8, .street_price = usd_range("12000", "13000", "2024-07-05", "SemiAnalysis estimate of the average H20 price (report of 2024-07-05), as relayed at https://in.whatpsu.com/articles/1176-NVIDIA-will-sell-more-than-one-million-H20-GPUs-to-China-resulting-in-12-billion-in-revenue"),
               .source = "NVIDIA HGX H20 specification table (partner copy): FP8 296, BF16/FP16 148, TF32 74, FP32 44, FP64 1 TF, 96 GB HBM3, 4.0 TB/s, NVLink 900 GB/s, 400 W; http://1cnz.cn/d/2353773.html, https://zangshuxian.com/new/674733024499207168, memory per https://trendforce.com/news/2024/09/24/news-nvidias-custom-h20-chip-for-china-reportedly-halted",
               .as_of = "2026-11-26",
               .note = "Usable memory: 97,871 MiB, the total nvidia-smi reports for the NVIDIA H20 in public logs (\"97871MiB\"; the same lines show a 500 W power limit, above the 400 W recorded here from the specification table). The China-market Hopper: the figures are dense as published (148 TF BF16 is 15 % of the H100's dense 989.5; the export metric TPP 2,368 = 148 x 16 uses dense FP16). No nvidia.com page was reachable. NVLink 900 GB/s total = 450 per direction. PCIe Gen5 x16 not confirmed by a source."});
  v.push_back({.id = "h800-sxm", .name = "NVIDIA H800 SXM5 80GB", .aliases = {"H800", "H800 SXM", "H800 SXM5"},
               .vendor = Vendor::nvidia, .architecture = "Hopper", .form_factor = FormFactor::sxm,
               .memory = 80_GB, .usable_memory = 81559_MiB, .memory_type = "HBM3", .memory_bandwidth = 3.35_TBps,
               .dense = dense_rates({.fp64 = 1, .fp32 = 67, .tf32 = 494.5, .bf16 = 989.5, .fp16 = 989.5, .fp8 = 1979, .int8 = 1979}),
               .tdp = 700_W, .nvlink_generation = 4, .nvlink_bandwidth = 200_GBps, .pcie_generation = 5, .pcie_lanes = 16, .ecc = true,
               .board_gpus = 8, .street_price = usd("33800", "2025-03-03", std::string(src::epoch) + "; the H800 SXM5 listed by viperatech.com, https://web.archive.org/web/20250303202437/https://viperatech.com/shop/nvidia-h800-sxm5/ (Epoch AI files the row as \"H800 PCIe\"; the listing is the SXM5 part)"),
               .source = std::string(src::h100) + " (H100 SXM column, which the H800 matches but for NVLink and FP64); the H800's cuts (NVLink 400 GB/s total, FP64 about 1 TF) per https://www.philisun.com/technical-analysis/nvidia-h800-vs-h100-a-technical-deep-dive-into-politically-defined-ai-chips and https://aiwiki.ai/wiki/nvidia_h800",
               .as_of = "2026-11-26",
               .note = "Usable memory: 81,559 MiB, the total nvidia-smi reports for the NVIDIA H800 in public logs (\"81559MiB\" beside \"NVIDIA H800\"; as the H100 SXM). No NVIDIA H800 datasheet was reachable: compute and memory are the H100 SXM's, which every source says the H800 keeps; NVLink 400 GB/s total = 200 per direction (DeepSeek-V3 was trained on H800s). No vendor list price."});
  v.push_back({.id = "a800-sxm4-80gb", .name = "NVIDIA A800 SXM4 80GB", .aliases = {"A800", "A800 SXM4 80GB", "A800 80GB"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::sxm,
               .memory = 80_GB, .usable_memory = 81920_MiB, .memory_type = "HBM2e", .memory_bandwidth = 2039_GBps,
               .dense = dense_rates({.fp64 = 19.5, .fp32 = 19.5, .tf32 = 156, .bf16 = 312, .fp16 = 312, .int8 = 624}),
               .tdp = 400_W, .nvlink_generation = 3, .nvlink_bandwidth = 200_GBps, .pcie_generation = 4, .pcie_lanes = 16, .ecc = true,
               .board_gpus = 8, .unpriced = "made for China only; no dated public price was found",
               .source = std::string(src::a100) + " (A100 80GB SXM column, which the A800 matches but for NVLink); NVLink cut to 400 GB/s per https://tweakers.net/nieuws/203182/nvidia-introduceert-a800-gpu-voor-china-die-niet-onder-exportrestricties-vs-valt.html",
               .as_of = "2026-11-26",
               .note = "Usable memory: 81,920 MiB, the total nvidia-smi reports for the NVIDIA A800-SXM4-80GB in public logs (\"81920MiB\"), as the A100 80GB. No A800 datasheet was reachable: every source says only NVLink changed (400 GB/s total = 200 per direction, against the A100's 600). No vendor list price."});
  v.push_back({.id = "l40", .name = "NVIDIA L40 48GB", .aliases = {"L40"},
               .vendor = Vendor::nvidia, .architecture = "Ada Lovelace", .form_factor = FormFactor::pcie,
               .memory = 48_GB, .usable_memory = 46068_MiB, .memory_type = "GDDR6", .memory_bandwidth = 864_GBps,
               .dense = dense_rates({.fp32 = 90.5, .tf32 = 90.5, .bf16 = 181.05, .fp16 = 181.05, .fp8 = 362, .int8 = 362, .int4 = 724}),
               .tdp = 300_W, .ecc = true,
               .slot_width = 2, .length = 266.7_mm, .cooling = GpuCooling::passive,
               .unpriced = "a data-centre card sold through server makers; Epoch AI's price data has only cloud rents for it",
               .source = "NVIDIA L40 datasheet (dense and sparse columns) as reproduced at https://www.mullet.se/product.html?product_id=355414",
               .as_of = "2026-11-26",
               .note = std::string("Usable memory: 46,068 MiB, the total nvidia-smi reports for the NVIDIA L40 in public logs (\"46068MiB\" beside \"NVIDIA L40\"). The datasheet prints both columns: TF32 90.5 | 181*, BF16/FP16 181.05 | 362.1*, FP8 362 | 724*, INT8 362 | 724*, INT4 724 | 1,448*. Its FP16/BF16 tensor rate is half the L40S's on the same die (the L40S publishes 362 dense). No FP64 figure published, no NVLink. No vendor list price.") + " Card: 4.4 in x 10.5 in (266.7 mm), dual slot, passive, one PCIe CEM5 16-pin power connector (NVIDIA's L40/L40S specification table as reproduced at https://www.mullet.se/product.html?product_id=355414)."});
  v.push_back({.id = "l20", .name = "NVIDIA L20 48GB", .aliases = {"L20"},
               .vendor = Vendor::nvidia, .architecture = "Ada Lovelace", .form_factor = FormFactor::pcie,
               .memory = 48_GB, .usable_memory = 46068_MiB, .memory_type = "GDDR6", .memory_bandwidth = 864_GBps,
               .tdp = 275_W, .ecc = true,
               .unpriced = "made for China only; no dated public price was found",
               .source = "48 GB GDDR6, 864 GB/s, 275 W, PCIe 4.0 x16: https://technical.city/pl/video/L20; 48 GB also in the partner table at http://1cnz.cn/d/2353773.html",
               .as_of = "2026-11-26",
               .note = "Usable memory: 46,068 MiB, the total nvidia-smi reports for the NVIDIA L20 with ECC on, as data-centre hosts run it (Alibaba Cloud ACK lists \"nvidia_mem=46068MiB\" for NVIDIA-L20; 49,140 MiB with ECC off), as the L40 and L40S. The China-market Ada card. No NVIDIA figure for its tensor rates could be reached (third-party pages compute 59 TF FP32 from clocks), so no rate is stored: training and prefill are not timed on it, and capplan infer times a decode from its memory traffic alone; memory fit answers hold. ECC as on the L40 family, not confirmed. No vendor list price."});
  v.push_back({.id = "a40", .name = "NVIDIA A40 48GB", .aliases = {"A40", "A40 PCIe"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::pcie,
               .memory = 48_GB, .usable_memory = 46068_MiB, .memory_type = "GDDR6", .memory_bandwidth = 696_GBps,
               .dense = dense_rates({.fp32 = 37.4, .tf32 = 74.8, .bf16 = 149.7, .fp16 = 149.7, .int8 = 299.3, .int4 = 598.7}),
               .tdp = 300_W, .nvlink_generation = 3, .nvlink_bandwidth = 56.25_GBps, .ecc = true,
               .slot_width = 2, .length = 266.7_mm, .cooling = GpuCooling::passive,
               .street_price = usd("5842.94", "2025-03-03", std::string(src::epoch) + "; the A40 48GB (900-2G133-0000-100) listed by anafrashop.com, https://web.archive.org/web/20250303193957/https://anafrashop.com/nvidia-a40-48gb-gddr6-pcie-4-0-passive-cooling-w-o-ce-48gb-gddr6-900-2g133-0000-100-4"),
               .source = "NVIDIA A40 datasheet figures (FP32 37.4, TF32 74.8 | 149.7*, BF16/FP16 149.7 | 299.3*, INT8 299.3 | 598.7*) as listed at https://hmc-tech.com/gpu/nvidia-a100-vs-nvidia-a40; 48 GB GDDR6 ECC, 696 GB/s, 300 W, 112.5 GB/s NVLink bridge per http://www.relationship-nepal.org/900-2g133-0000-000.html",
               .as_of = "2026-11-26",
               .note = std::string("Usable memory: 46,068 MiB, the total nvidia-smi reports for the NVIDIA A40 in public logs (\"46068MiB\" beside \"NVIDIA A40\"). Dense = the datasheet's non-sparse column. The NVLink bridge joins two cards (112.5 GB/s total = 56.25 per direction). No vendor list price.") + " Card: 4.4 in x 10.5 in (266.7 mm), dual slot, passive, one 8-pin CPU (EPS12V) power connector (NVIDIA's A40 specification table as reproduced at http://www.relationship-nepal.org/900-2g133-0000-000.html)."});

  // ---------------------------------------------------------------- NVIDIA data centre: Ampere, Volta, Turing, Ada
  // A100 SXM4 80GB: A100 datasheet: FP64 tensor 19.5, FP32 19.5, TF32 156 (312*), BF16/FP16 312 (624*),
  // INT8 624 (1,248*), INT4 1,248; 80 GB HBM2e, 2,039 GB/s, 400 W, NVLink 600 GB/s (300 per direction).
  // Usable memory: nvidia-smi reports 81,920 MiB total (https://github.com/modal-labs/modal-client/pull/2797).
  v.push_back({.id = "a100-sxm-80gb", .name = "NVIDIA A100 SXM4 80GB", .aliases = {"A100 SXM 80GB", "A100 80GB SXM", "A100-SXM4-80GB"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::sxm,
               .memory = 80_GB, .usable_memory = 81920_MiB, .memory_type = "HBM2e", .memory_bandwidth = 2039_GBps,
               .dense = dense_rates({.fp64 = 19.5, .fp32 = 19.5, .tf32 = 156, .bf16 = 312, .fp16 = 312, .int8 = 624, .int4 = 1248}),
               .tdp = 400_W, .nvlink_generation = 3, .nvlink_bandwidth = 300_GBps, .pcie_generation = 4, .pcie_lanes = 16,
               .ecc = true,
               // Street price: "$8K-$15K new A100 80GB unit price range, 2025-2026" (aitooldiscovery.com, 2026-03-20).
               .board_gpus = 4, .street_price = usd_range("8000", "15000", "2026-03-20", "https://www.aitooldiscovery.com/ai-infra/nvidia-a100-specs-price"),
               .source = src::a100, .as_of = recorded,
               .note = "GA100 rates (19.5 FP32, 156 TF32, 312 BF16/FP16, 624 INT8, NVLink 600 GB/s) checked against NVIDIA's launch sheet as quoted at https://techpowerup.com/forums/goto/post?id=4265351. No vendor list price; the street price is a third-party market range for \"A100 80GB\" units that does not name the form factor."});
  // A100 SXM4 40GB: A100 datasheet: same rates; 40 GB HBM2, 1,555 GB/s, 400 W.
  // Usable memory: nvidia-smi reports 40,960 MiB total (https://github.com/modal-labs/modal-client/pull/2797).
  v.push_back({.id = "a100-sxm-40gb", .name = "NVIDIA A100 SXM4 40GB", .aliases = {"A100 SXM 40GB", "A100 40GB SXM", "A100-SXM4-40GB"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::sxm,
               .memory = 40_GB, .usable_memory = 40960_MiB, .memory_type = "HBM2", .memory_bandwidth = 1555_GBps,
               .dense = dense_rates({.fp64 = 19.5, .fp32 = 19.5, .tf32 = 156, .bf16 = 312, .fp16 = 312, .int8 = 624, .int4 = 1248}),
               .tdp = 400_W, .nvlink_generation = 3, .nvlink_bandwidth = 300_GBps, .pcie_generation = 4, .pcie_lanes = 16,
               .ecc = true, .board_gpus = 4, .unpriced = "no longer made, and its newest dated price, The Next Platform's estimate of $12,500 in mid-2022 (Epoch AI's price data), is too old to rank against 2025-2026 prices", .source = src::a100, .as_of = recorded,
               .note = "GA100 rates (19.5 FP32, 156 TF32, 312 BF16/FP16, 624 INT8, NVLink 600 GB/s) checked against NVIDIA's launch sheet as quoted at https://techpowerup.com/forums/goto/post?id=4265351. No vendor list price."});
  // A100 PCIe 80GB: A100 datasheet: same rates; 80 GB HBM2e, 1,935 GB/s, 300 W; NVLink bridge 600 GB/s.
  v.push_back({.id = "a100-pcie-80gb", .name = "NVIDIA A100 PCIe 80GB", .aliases = {"A100 80GB PCIe", "A100 PCIe 80GB", "A100-PCIE-80GB"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::pcie,
               .memory = 80_GB, .usable_memory = 81920_MiB, .memory_type = "HBM2e", .memory_bandwidth = 1935_GBps,
               .dense = dense_rates({.fp64 = 19.5, .fp32 = 19.5, .tf32 = 156, .bf16 = 312, .fp16 = 312, .int8 = 624, .int4 = 1248}),
               .tdp = 300_W, .nvlink_generation = 3, .nvlink_bandwidth = 300_GBps, .pcie_generation = 4, .pcie_lanes = 16,
               .ecc = true,
               // Street price: "$8K-$15K new A100 80GB unit price range, 2025-2026" (aitooldiscovery.com, 2026-03-20);
               // mercatus-ai.com gives the same $8-15K as the refurbished/used street price.
               .slot_width = 2, .length = 266.7_mm, .cooling = GpuCooling::passive,
               .street_price = usd_range("8000", "15000", "2026-03-20", "https://www.aitooldiscovery.com/ai-infra/nvidia-a100-specs-price; https://www.mercatus-ai.com/blog/a100-vs-h100-vs-h200"),
               .source = src::a100, .as_of = recorded,
               .note = std::string("Usable memory: 81,920 MiB, the total nvidia-smi reports for the NVIDIA A100 80GB PCIe in public logs (\"81920MiB\" beside \"NVIDIA A100 80GB PCIe\"; as the SXM part). NVLink via 2-GPU bridge. No vendor list price; the street price is a third-party market range (one source says new, the other refurbished/used), read from stored copies.") + " Card: dual slot, 10.5 in (266.7 mm), passive, as the 40 GB card's product brief (PB-10137-001) gives it; the 80 GB brief (PB-10577-001) has the same sections, but its text was not read."});
  // A100 PCIe 40GB: A100 datasheet: same rates; 40 GB HBM2, 1,555 GB/s, 250 W. Matches reference-cases.md §6.
  v.push_back({.id = "a100-pcie-40gb", .name = "NVIDIA A100 PCIe 40GB", .aliases = {"A100 40GB PCIe", "A100 PCIe 40GB", "A100-PCIE-40GB"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::pcie,
               .memory = 40_GB, .usable_memory = 40960_MiB, .memory_type = "HBM2", .memory_bandwidth = 1555_GBps,
               .dense = dense_rates({.fp64 = 19.5, .fp32 = 19.5, .tf32 = 156, .bf16 = 312, .fp16 = 312, .int8 = 624, .int4 = 1248}),
               .tdp = 250_W, .nvlink_generation = 3, .nvlink_bandwidth = 300_GBps, .pcie_generation = 4, .pcie_lanes = 16,
               .ecc = true, .slot_width = 2, .length = 266.7_mm, .cooling = GpuCooling::passive,
               .unpriced = "no longer made, and its newest dated price, The Next Platform's estimate of $12,500 for an A100 PCIe in mid-2022 (Epoch AI's price data), is too old to rank against 2025-2026 prices",
               .source = src::a100, .as_of = recorded, .note = std::string("Usable memory: 40,960 MiB, the total nvidia-smi reports for the NVIDIA A100-PCIE-40GB in public logs (\"40960MiB\" beside \"NVIDIA A100-PCIE-40GB\"; as the SXM part). NVLink via 2-GPU bridge. No vendor list price.") + " Card: dual slot, 10.5 in (266.7 mm), passive heat sink that \"requires system air flow\"; one CPU 8-pin (EPS) power connector (NVIDIA A100 40GB PCIe product brief PB-10137-001, as mirrored at https://docslib.org/doc/3015592/a100-40gb-pcie-product-brief)."});
  // A10: A10 datasheet: FP32 31.2, TF32 62.5 (125*), BF16/FP16 125 (250*), INT8 250 (500*), INT4 500 (1,000*);
  // 24 GB GDDR6, 600 GB/s, 150 W, PCIe Gen4 x16.
  // Usable memory: nvidia-smi reports 23,028 MiB total (https://github.com/modal-labs/modal-client/pull/2797).
  v.push_back({.id = "a10", .name = "NVIDIA A10 24GB", .aliases = {"A10", "A10 24GB"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::pcie,
               .memory = 24_GB, .usable_memory = 23028_MiB, .memory_type = "GDDR6", .memory_bandwidth = 600_GBps,
               .dense = dense_rates({.fp32 = 31.2, .tf32 = 62.5, .bf16 = 125, .fp16 = 125, .int8 = 250, .int4 = 500}),
               .tdp = 150_W, .ecc = true,
               .unpriced = "a data-centre card sold through server makers; Epoch AI's price data has only cloud rents for it",
               .source = "NVIDIA A10 datasheet, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a10/pdf/datasheet-new/nvidia-a10-datasheet.pdf",
               .as_of = recorded,
               .note = "600 GB/s, 31.2 TFLOPS FP32 and 150 W checked against TechPowerUp data mirrored at https://sysrqmts.com/vi/gpus/compare/nvidia-a10-pcie-vs-nvidia-a2; the tensor rates are the datasheet's halved sparse figures, not re-checked. No vendor list price."});
  // A10G (AWS g5): 24 GB GDDR6 per AWS; NVIDIA publishes no A10G datasheet, so no peak rates are stored.
  v.push_back({.id = "a10g", .name = "NVIDIA A10G 24GB (AWS)", .aliases = {"A10G"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::pcie,
               .memory = 24_GB, .usable_memory = 23028_MiB, .memory_type = "GDDR6", .memory_bandwidth = 600_GBps,
               .tdp = 300_W, .ecc = true,
               .unpriced = "exists only in AWS's G5 instances; never sold",
               .source = "AWS EC2 G5 instance page, https://aws.amazon.com/ec2/instance-types/g5/",
               .as_of = recorded,
               .note = "Usable memory: 23,028 MiB, the total nvidia-smi reports for the NVIDIA A10G in public logs (\"23028MiB\" beside \"NVIDIA A10G\"; as the A10). AWS-only part. AWS states 24 GB per GPU; 600 GB/s is shared with the A10 (https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/) and 300 W is the power limit nvidia-smi reports on g5 instances (https://gist.github.com/shashankprasanna/10ebe6dc1ba1d8d93db17da4e2cc890e). Peak rates are left absent on purpose: neither NVIDIA nor AWS publishes A10G tensor or FP32 figures, and third-party copies disagree (the A10G runs higher shader clocks but fewer tensor operations than the A10), so any figure would be a guess: capplan infer times a decode from its memory traffic alone. Give the part rates in a catalog file to model the rest."});
  // L4: L4 datasheet: FP32 30.3, TF32 120*, BF16/FP16 242*, FP8 485*, INT8 485*; 24 GB GDDR6, 300 GB/s,
  // 72 W, PCIe Gen4 x16.
  // Usable memory: nvidia-smi reports 23,034 MiB total (https://github.com/modal-labs/modal-client/pull/2797).
  v.push_back({.id = "l4", .name = "NVIDIA L4 24GB", .aliases = {"L4"},
               .vendor = Vendor::nvidia, .architecture = "Ada Lovelace", .form_factor = FormFactor::pcie,
               .memory = 24_GB, .usable_memory = 23034_MiB, .memory_type = "GDDR6", .memory_bandwidth = 300_GBps,
               .dense = dense_rates({.fp32 = 30.3, .tf32 = 60, .bf16 = 121, .fp16 = 121, .fp8 = 242.5, .int8 = 242.5}),
               .tdp = 72_W, .ecc = true,
               .slot_width = 1, .cooling = GpuCooling::passive,
               .unpriced = "a data-centre card sold through server makers; Epoch AI's price data has only cloud rents for it",
               .source = "NVIDIA L4 datasheet, https://www.nvidia.com/en-us/data-center/l4/",
               .as_of = recorded,
               .note = std::string("Dense = half the datasheet's sparsity figures (TF32 120*, FP16 242*, FP8/INT8 485*), checked with 300 GB/s and 72 W against stored copies: https://store.sourcecode.com/en-us/bg-bucket-compare/125/9820 and https://grokipedia.com/page/NVIDIA_L4_vs_L40S. No vendor list price.") + " Card: single slot, low profile, passive, 72 W from the slot with no power connector (third-party summaries, https://aiwiki.ai/wiki/nvidia_l4/raw; the length is not recorded)."});
  // L40S: L40S datasheet (copy at mullet.se / omegaco.ae): FP32 91.6, TF32 183 (366*), BF16/FP16 362.05 (733*),
  // FP8 733 (1,466*); 48 GB GDDR6 ECC, 864 GB/s, 350 W, PCIe Gen4 x16, no NVLink.
  // Usable memory: nvidia-smi reports 46,068 MiB total (https://github.com/modal-labs/modal-client/pull/2797).
  v.push_back({.id = "l40s", .name = "NVIDIA L40S 48GB", .aliases = {"L40S"},
               .vendor = Vendor::nvidia, .architecture = "Ada Lovelace", .form_factor = FormFactor::pcie,
               .memory = 48_GB, .usable_memory = 46068_MiB, .memory_type = "GDDR6", .memory_bandwidth = 864_GBps,
               .dense = dense_rates({.fp32 = 91.6, .tf32 = 183, .bf16 = 362.05, .fp16 = 362.05, .fp8 = 733, .int8 = 733}),
               .tdp = 350_W, .ecc = true,
               .slot_width = 2, .length = 266.7_mm, .cooling = GpuCooling::passive,
               .unpriced = "a data-centre card sold through server makers; Epoch AI's price data has only cloud rents for it",
               .source = "NVIDIA L40S datasheet, https://www.nvidia.com/en-us/data-center/l40s/ (table checked against a reseller copy, https://www.mullet.se/product.html?product_id=355414)",
               .as_of = recorded, .note = std::string("No vendor list price.") + " Card: 4.4 in x 10.5 in (266.7 mm), dual slot, passive, one PCIe CEM5 16-pin power connector (NVIDIA's L40/L40S specification table as reproduced at https://www.mullet.se/product.html?product_id=355414)."});
  // T4: T4 datasheet: FP32 8.1, mixed-precision FP16 65, INT8 130, INT4 260; 16 GB GDDR6, 70 W, PCIe Gen3 x16.
  // Usable memory: nvidia-smi reports 15,360 MiB total (https://github.com/modal-labs/modal-client/pull/2797).
  v.push_back({.id = "t4", .name = "NVIDIA T4 16GB", .aliases = {"T4", "Tesla T4"},
               .vendor = Vendor::nvidia, .architecture = "Turing", .form_factor = FormFactor::pcie,
               .memory = 16_GB, .usable_memory = 15360_MiB, .memory_type = "GDDR6", .memory_bandwidth = 320_GBps,
               .dense = dense_rates({.fp32 = 8.1, .fp16 = 65, .int8 = 130, .int4 = 260}),
               .tdp = 70_W, .pcie_generation = 3, .ecc = true,
               .slot_width = 1, .length = 167.6_mm, .cooling = GpuCooling::passive,
               .unpriced = "a data-centre card sold through server makers; Epoch AI's price data has only cloud rents for it",
               .source = "NVIDIA T4 datasheet, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/tesla-t4/t4-tensor-core-datasheet-951643.pdf",
               .as_of = recorded,
               .note = std::string("320 GB/s (256-bit GDDR6 at 10 Gb/s), 8.1 TFLOPS FP32, 65 TFLOPS FP16, 70 W checked against TechPowerUp data mirrored at https://sysrqmts.com/en/gpus/nvidia/tesla/t4; 65 / 130 TOPS at https://networkoutlet.com/blogs/articles/nvidia-tesla-t4-16gb-gpu-specs-performance-use-cases. No BF16 on Turing. No vendor list price.") + " Card: \"single-slot, low-profile, 6.6-inch\" (167.6 mm), \"passively cooled board that requires system air flow\", 70 W from the slot (NVIDIA T4 product brief as mirrored at https://manualmachine.com/pny/tcst4mpb/8129101-user-manual)."});
  // V100 SXM2: V100 datasheet: FP64 7.8, FP32 15.7, tensor 125; 16 or 32 GB HBM2, 900 GB/s, 300 W,
  // NVLink 300 GB/s (150 per direction). Matches reference-cases.md §6.
  for (int gb : {16, 32}) {
    const std::string g = std::to_string(gb);
    v.push_back({.id = "v100-sxm2-" + g + "gb", .name = "NVIDIA V100 SXM2 " + g + "GB",
                 .aliases = {"V100 SXM2 " + g + "GB", "V100 " + g + "GB SXM2", "Tesla V100-SXM2-" + g + "GB"},
                 .vendor = Vendor::nvidia, .architecture = "Volta", .form_factor = FormFactor::sxm,
                 .memory = DataSize::from_value(gb * 1e9), .usable_memory = DataSize::from_value(gb * 1073741824.0), .memory_type = "HBM2",
                 .memory_bandwidth = 900_GBps, .dense = dense_rates({.fp64 = 7.8, .fp32 = 15.7, .fp16 = 125}),
                 .tdp = 300_W, .nvlink_generation = 2, .nvlink_bandwidth = 150_GBps, .pcie_generation = 3, .pcie_lanes = 16,
                 .ecc = true, .board_gpus = 4, .unpriced = "no longer made, and its newest dated price, a 2018 single-unit list price (Microway, in Epoch AI's price data), is too old to rank against 2025-2026 prices", .source = src::v100, .as_of = recorded,
                 .note = "Usable memory: " + g + " GiB (" + std::to_string(gb * 1024) + " MiB), the total nvidia-smi reports for the Tesla V100-SXM2-" + g +
                         "GB in public logs (\"" + std::to_string(gb * 1024) + "MiB\", ECC on): the \"" + g +
                         " GB\" of the V100 is binary. Tensor cores: FP16 with FP32 accumulate at full rate; no BF16/TF32 on Volta. No vendor list price."});
  }
  // V100 PCIe: V100 datasheet: FP64 7, FP32 14, tensor 112; 16 or 32 GB HBM2, 900 GB/s, 250 W, PCIe Gen3.
  for (int gb : {16, 32}) {
    const std::string g = std::to_string(gb);
    v.push_back({.id = "v100-pcie-" + g + "gb", .name = "NVIDIA V100 PCIe " + g + "GB",
                 .aliases = {"V100 PCIe " + g + "GB", "V100 " + g + "GB PCIe", "Tesla V100-PCIE-" + g + "GB"},
                 .vendor = Vendor::nvidia, .architecture = "Volta", .form_factor = FormFactor::pcie,
                 .memory = DataSize::from_value(gb * 1e9), .usable_memory = DataSize::from_value(gb * 1073741824.0), .memory_type = "HBM2",
                 .memory_bandwidth = 900_GBps, .dense = dense_rates({.fp64 = 7, .fp32 = 14, .fp16 = 112}),
                 .tdp = 250_W, .pcie_generation = 3, .pcie_lanes = 16,
                 .ecc = true, .slot_width = 2, .length = 266.7_mm, .cooling = GpuCooling::passive,  // Tesla V100 PCIe product brief (recalled): dual-slot, 10.5 in, passive
                 .street_price = gb == 16 ? std::optional<PricePoint>(usd("11993.46", "2025-03-03", std::string(src::epoch) + "; a V100 16GB PCIe listed by anafrashop.com, https://web.archive.org/web/20250303195759/https://anafrashop.com/nvidia-tesla-v100-16gb-cowos-hbm2-pcie-3-0-passive-cooling-gpu-nvtv100-16-4"))
                                         : std::nullopt,
                 .unpriced = gb == 16 ? "" : "no longer made, and its newest dated price, The Next Platform's estimate of $7,500 in mid-2022 (Epoch AI's price data), is too old to rank against 2025-2026 prices",
                 .source = src::v100, .as_of = recorded,
                 .note = "Usable memory: " + g + " GiB (" + std::to_string(gb * 1024) + " MiB), the total nvidia-smi reports for the Tesla V100-PCIE-" + g +
                         "GB in public logs (\"" + std::to_string(gb * 1024) + "MiB\"): the \"" + g + " GB\" of the V100 is binary. No vendor list price."});
  }

  // ---------------------------------------------------------------- NVIDIA professional
  // RTX 6000 Ada: datasheet: FP32 91.1, "tensor performance 1,457 TFLOPS" (FP8 with sparsity); 48 GB GDDR6
  // ECC, 960 GB/s, 300 W, PCIe Gen4 x16, no NVLink. Dense FP8 = 728.5, BF16/FP16 = 364.2, TF32 = 182.1
  // (Ada ratios FP8 : FP16 : TF32 = 4 : 2 : 1).
  v.push_back({.id = "rtx-6000-ada", .name = "NVIDIA RTX 6000 Ada Generation 48GB", .aliases = {"RTX 6000 Ada", "RTX6000 Ada"},
               .vendor = Vendor::nvidia, .architecture = "Ada Lovelace", .form_factor = FormFactor::pcie,
               .memory = 48_GB, .usable_memory = 49140_MiB, .memory_type = "GDDR6", .memory_bandwidth = 960_GBps,
               .dense = dense_rates({.fp32 = 91.1, .tf32 = 182.1, .bf16 = 364.2, .fp16 = 364.2, .fp8 = 728.5, .int8 = 728.5}),
               .tdp = 300_W, .ecc = true,
               .slot_width = 2, .length = 266.7_mm, .cooling = GpuCooling::blower,
               .launch_price = usd("6800", "2022-12-01", "NVIDIA RTX 6000 Ada launch announcement (Sept 2022, availability Dec 2022), as reported by the press"),
               .street_price = pcpp_listing("6974", "RTX 6000 Ada Generation", "PNY VCNRTX6000ADA-PB"),
               .source = "NVIDIA RTX 6000 Ada datasheet, https://www.nvidia.com/en-us/design-visualization/rtx-6000/",
               .as_of = recorded,
               .note = std::string("Usable memory: 49,140 MiB, the total nvidia-smi reports for the NVIDIA RTX 6000 Ada Generation in public logs (\"49140MiB\" beside \"NVIDIA RTX 6000 Ada Generation\"). FP32 91.1 TFLOPS, 48 GB and 300 W checked at https://cputronic.com/de/gpu/nvidia-rtx-6000-ada-generation. Only the FP8 sparse figure (1,457) is published; the other tensor rates are derived from it with Ada's ratios, not checked. Launch price $6,800 is the press-reported MSRP, not re-checked.") + " Card: 4.4 in x 10.5 in (266.7 mm), dual slot, blower cooler, one 16-pin power connector: NVIDIA's RTX 6000 Ada datasheet figures, recalled, not re-read this session (a reseller's listing confirms \"Active Cooling\", https://store.sourcecode.com/en-us/bg-bucket-compare/125/9820)."});
  // Added 2026-11-26: Blackwell workstation cards, the GeForce cards buyers weigh in 2026, Ada
  // workstation cards and DGX Spark. GeForce dense rates: NVIDIA's "AI TOPS" is FP4 (Blackwell) or
  // FP8 (Ada) with sparsity; the whitepapers' ratios give the dense FP16/BF16 rate with FP32
  // accumulate (half rate on GeForce): Blackwell AI TOPS / 16, Ada AI TOPS / 8.
  v.push_back({.id = "rtx-pro-6000", .name = "NVIDIA RTX PRO 6000 Blackwell Workstation Edition 96GB",
               .aliases = {"RTX PRO 6000", "RTX Pro 6000 Blackwell", "RTX 6000 Pro", "RTX PRO 6000 WS", "RTX PRO 6000 Workstation"},
               .vendor = Vendor::nvidia, .architecture = "Blackwell", .form_factor = FormFactor::pcie,
               .memory = 96_GB, .usable_memory = 97887_MiB, .memory_type = "GDDR7", .memory_bandwidth = 1792_GBps,
               .dense = dense_rates({.fp32 = 125, .tf32 = 251.9, .bf16 = 503.8, .fp16 = 503.8, .fp8 = 1007.6, .int8 = 1007.6, .fp4 = 2015.2}),
               .tdp = 600_W, .pcie_generation = 5, .pcie_lanes = 16, .ecc = true,
               .slot_width = 2, .cooling = GpuCooling::open_air,
               .street_price = usd_range("8000", "9200", "2026-04-01", "retail prices in April 2026 per https://www.newgearhub.com/review/nvidia-gtc-2026-blackwell-gpus-pro-workstations"),
               .source = "NVIDIA RTX Blackwell PRO GPU architecture whitepaper v1.0, appendix A (Peak BF16 Tensor TFLOPS with FP32 Accumulate 503.8 | 1,007.6*); 96 GB GDDR7 ECC, 512-bit per https://hardware-corner.net/rtx-5090-vs-rtx-pro-6000-spec-comparison-20250321; 1,792 GB/s per https://gpu.name/posts/nvidia-unveils-rtx-pro-6000-blackwell-gpu-with-24-064-cores-and-96gb-memory; usable memory and 600 W from nvidia-smi in https://raw.githubusercontent.com/MarcoPizeta/flash-next-rtxpro6000-bench/main/HARDWARE.md",
               .as_of = "2026-11-26",
               .note = std::string("Full-rate FP32 accumulate (a professional card): TF32 = BF16 / 2, FP8 = INT8 = 2 x BF16, derived from the whitepaper's BF16 row; FP4 2,015.2 dense = 4 x BF16 (the whitepaper's ratio; 4,000 AI TOPS sparse / 2 rounds to the same). Measured cuBLAS BF16 is about 350-390 TF on large GEMMs (zzc0721/torch-performance-test-data#160). MIG supported. A reported $8,565 MSRP comes from an editorial site, not NVIDIA; the street range is stored.") + " Card (Workstation Edition): dual slot, flow-through fans that blow into the case, one 12V-2x6 connector at 600 W (third-party comparisons, https://hardware-corner.net/rtx-5090-vs-rtx-pro-6000-spec-comparison-20250321; the length is not recorded)."});
  v.push_back({.id = "rtx-pro-6000-server", .name = "NVIDIA RTX PRO 6000 Blackwell Server Edition 96GB",
               .aliases = {"RTX PRO 6000 Server", "RTX PRO 6000 SE", "RTX PRO 6000 Blackwell Server Edition"},
               .vendor = Vendor::nvidia, .architecture = "Blackwell", .form_factor = FormFactor::pcie,
               .memory = 96_GB, .usable_memory = 97887_MiB, .memory_type = "GDDR7", .memory_bandwidth = 1597_GBps,
               .dense = dense_rates({.bf16 = 500, .fp16 = 500}),
               .tdp = 600_W, .pcie_generation = 5, .pcie_lanes = 16, .ecc = true,
               .unpriced = "sold only inside servers (a passive card for their forced airflow); no public price was found",
               .source = "NVIDIA RTX PRO 6000 Blackwell Server Edition page, https://www.nvidia.com/en-us/data-center/rtx-pro-6000-blackwell-server-edition/ (BF16 Tensor Core 1 PFLOP with sparsity, as quoted in public code); bandwidth and power from third parties: https://unanswered.io/guide/nvidia-h200-vs-rtx-pro-6000-blackwell-key-differences, https://pepelac.news/de/posts/id27081-nvidia-rtx-6000d-serverkarte-mit-84-gb-speicher-im-teardown",
               .as_of = "2026-11-26",
               .note = "Usable memory: 97,887 MiB, the total nvidia-smi reports for the NVIDIA RTX PRO 6000 Blackwell Server Edition in public logs (\"97,887 MiB total\" on a Server Edition; \"97887MiB\" on fanless 600 W cards with ECC on), the same as the Workstation Edition. Only the vendor's BF16 figure was reachable (1 PFLOP sparse = 500 dense); the other precisions are not stored, so FP8 work is timed at BF16. Bandwidth: third parties give 1.6-1.8 TB/s, the lower end is stored (the vendor figure was not reached); power configurable up to 600 W. Passive data-centre card, MIG supported, no NVLink. Measured cuBLAS BF16 about 417 TF at 8192^3 (zzc0721/torch-performance-test-data#162). No vendor list price."});
  v.push_back({.id = "rtx-5000-ada", .name = "NVIDIA RTX 5000 Ada Generation 32GB", .aliases = {"RTX 5000 Ada", "RTX5000 Ada"},
               .vendor = Vendor::nvidia, .architecture = "Ada Lovelace", .form_factor = FormFactor::pcie,
               .memory = 32_GB, .usable_memory = 32760_MiB, .memory_type = "GDDR6", .memory_bandwidth = 576_GBps,
               .dense = dense_rates({.fp32 = 65.3, .tf32 = 130.5, .bf16 = 261, .fp16 = 261, .fp8 = 522, .int8 = 522}),
               .tdp = 250_W, .ecc = true,
               .street_price = pcpp_listing("4100.93", "RTX 5000 Ada Generation", "PNY VCNRTX5000ADA-PB"),
               .source = "NVIDIA RTX 5000 Ada datasheet figures as transcribed at https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md (FP32 65, TF32 131 | 261*, FP16 261 | 522*, FP8 522 | 1,044*, 32 GB ECC, 576 GB/s, 250 W)",
               .as_of = "2026-11-26",
               .note = "Usable memory: 32,760 MiB, the total nvidia-smi reports for the NVIDIA RTX 5000 Ada Generation in public logs (\"32760MiB\" beside \"NVIDIA RTX 5000 Ada Gene...\", ECC off as shipped; 250 W cap in the same lines). No NVIDIA datasheet was reachable; the transcription agrees with 12,800 CUDA cores x 2 x 2.55 GHz = 65.3 TF and the full-rate Ada workstation ratios of the RTX 6000 Ada. No launch price found."});
  v.push_back({.id = "rtx-4000-ada", .name = "NVIDIA RTX 4000 Ada Generation 20GB", .aliases = {"RTX 4000 Ada", "RTX4000 Ada"},
               .vendor = Vendor::nvidia, .architecture = "Ada Lovelace", .form_factor = FormFactor::pcie,
               .memory = 20_GB, .usable_memory = 20475_MiB, .memory_type = "GDDR6", .memory_bandwidth = 360_GBps,
               .dense = dense_rates({.fp32 = 26.7, .tf32 = 53.5, .bf16 = 106.9, .fp16 = 106.9, .fp8 = 213.8, .int8 = 213.8}),
               .tdp = 130_W, .ecc = true,
               .slot_width = 1, .cooling = GpuCooling::blower,
               .street_price = pcpp_listing("1290.73", "RTX 4000 Ada Generation", "PNY VCNRTX4000ADA-PB"),
               .source = "NVIDIA RTX 4000 Ada datasheet figures as transcribed at https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md (FP32 27, TF32 53 | 107*, FP16 107 | 214*, FP8 214 | 428*, 20 GB ECC, 360 GB/s, 130 W)",
               .as_of = "2026-11-26",
               .note = std::string("Usable memory: 20,475 MiB, the total nvidia-smi reports for the NVIDIA RTX 4000 Ada Generation in public logs (\"20475MiB\" beside \"NVIDIA RTX 4000 Ada Generation\"; \"Memória por GPU | 20475 MiB\", driver 580.126.20). Single-slot, 130 W. No NVIDIA datasheet was reachable; the transcription agrees with 6,144 CUDA cores x 2 x 2.175 GHz = 26.7 TF and the full-rate Ada workstation ratios. No launch price found.") + " Card: \"the most powerful single slot GPU\", \"a blower-style design\", 130 W (PC Gamer, https://www.pcgamer.com/nvidia-announces-the-most-powerful-single-slot-gpu-on-the-planet-but-its-a-workstation-card-so-naturally-costs-dollar1250/; the length is not recorded)."});
  // RTX A6000 (launch price $4,649, TechPowerUp): datasheet: FP32 38.7, tensor 309.7 TFLOPS (FP16 with sparsity): dense FP16/BF16 154.8, TF32 77.4;
  // 48 GB GDDR6 ECC, 768 GB/s, 300 W, NVLink 3 bridge 112.5 GB/s (56.25 per direction), PCIe Gen4 x16.
  v.push_back({.id = "rtx-a6000", .name = "NVIDIA RTX A6000 48GB", .aliases = {"RTX A6000", "A6000"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::pcie,
               .memory = 48_GB, .usable_memory = 49140_MiB, .memory_type = "GDDR6", .memory_bandwidth = 768_GBps,
               .dense = dense_rates({.fp32 = 38.7, .tf32 = 77.4, .bf16 = 154.8, .fp16 = 154.8}),
               .tdp = 300_W, .nvlink_generation = 3, .nvlink_bandwidth = 56.25_GBps, .ecc = true,
               .slot_width = 2, .length = 266.7_mm, .cooling = GpuCooling::blower,
               .launch_price = usd("4649", "2020-12-15", "TechPowerUp GPU database launch price, mirrored at https://sysrqmts.com/es/gpus/compare/nvidia-rtx-a6000-vs-nvidia-tesla-p40"),
               .street_price = pcpp_listing("4974", "RTX A6000", "PNY RTX A-Series"),
               .source = "NVIDIA RTX A6000 datasheet, https://www.nvidia.com/en-us/design-visualization/rtx-a6000/",
               .as_of = recorded,
               .note = std::string("Usable memory: 49,140 MiB, the total nvidia-smi reports for the NVIDIA RTX A6000 in public logs (\"49140MiB\" beside \"NVIDIA RTX A6000\"). 768 GB/s, 300 W, 38.7 TFLOPS FP32 and the $4,649 launch price checked against TechPowerUp data mirrored at sysrqmts.com. Tensor rates = half the datasheet's 309.7 sparse figure; consistent with the A40 datasheet (same GA102, lower clock): FP16/BF16 149.7 | 299.4*, TF32 74.8 | 149.6*.") + " Card: 4.4 in x 10.5 in (266.7 mm), dual slot, active cooling (a blower that exhausts through the bracket), one 8-pin CPU power connector (NVIDIA's RTX A6000 specification table as reproduced at https://servethehome.com/nvidia-rtx-a6000-48gb-gpu-drops-quadro-designation)."});

  // ---------------------------------------------------------------- NVIDIA GeForce (consumer)
  // RTX 4090: Ada whitepaper: FP32 82.6; FP16/BF16 tensor with FP32 accumulate 165.2 (330.4*), with FP16
  // accumulate 330.3; TF32 82.6; FP8 (FP32 acc) 330.3; INT8 660.6; INT4 1,321.2; 24 GB GDDR6X, 1,008 GB/s,
  // 450 W, PCIe 4.0 x16, no NVLink, no P2P. Matches reference-cases.md §6.
  // Usable memory: nvidia-smi reports 24,564 MiB total (https://github.com/RLinf/RLinf/issues/255).
  v.push_back({.id = "rtx-4090", .name = "NVIDIA GeForce RTX 4090 24GB", .aliases = {"RTX 4090", "GeForce RTX 4090", "4090"},
               .vendor = Vendor::nvidia, .architecture = "Ada Lovelace", .form_factor = FormFactor::consumer,
               .memory = 24_GB, .usable_memory = 24564_MiB, .memory_type = "GDDR6X", .memory_bandwidth = 1008_GBps,
               .dense = dense_rates({.fp32 = 82.6, .tf32 = 82.6, .bf16 = 165.2, .fp16 = 165.2, .fp8 = 330.3, .int8 = 660.6, .int4 = 1321.2}),
               .fp32_accumulate_half_rate = true, .tdp = 450_W, .peer_to_peer = false,
               .slot_width = 3, .length = 304_mm, .cooling = GpuCooling::open_air,
               .launch_price = usd("1599", "2022-10-12", "NVIDIA GeForce RTX 4090 launch MSRP, https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4090/"),
               .street_price = pcpp_listings("1819.99", "3089", "GeForce RTX 4090", 19, 63),
               .source = src::ada, .as_of = recorded,
               .note = std::string("bf16/fp16 165.2 is the FP32-accumulate rate; FP16 accumulate gives 330.3 (tensor figures checked against https://hmc-tech.com/gpus/nvidia-geforce-rtx-4090-vs-nvidia-rtx-pro-5000-blackwell). GeForce 40-series has no PCIe peer-to-peer.") + " Founders Edition card: 304 x 137 x 61 mm, \"installation requires three slots\", flow-through fans, one 16-pin 12VHPWR connector (Tom's Hardware, https://www.tomshardware.com/reviews/nvidia-geforce-rtx-4090-review/2; TechPowerUp, https://techpowerup.com/review/nvidia-geforce-rtx-4090-founders-edition/3.html). Partner cards are often 3.5-4 slots and 330-360 mm."});
  // RTX 4080 16GB: Ada whitepaper: FP32 48.7; FP16/BF16 (FP32 acc) 97.5; TF32 48.7; FP8 (FP32 acc) 194.9;
  // INT8 389.9; INT4 779.8; 16 GB GDDR6X, 716.8 GB/s, 320 W.
  v.push_back({.id = "rtx-4080", .name = "NVIDIA GeForce RTX 4080 16GB", .aliases = {"RTX 4080", "GeForce RTX 4080"},
               .vendor = Vendor::nvidia, .architecture = "Ada Lovelace", .form_factor = FormFactor::consumer,
               .memory = 16_GB, .usable_memory = 16376_MiB, .memory_type = "GDDR6X", .memory_bandwidth = 716.8_GBps,
               .dense = dense_rates({.fp32 = 48.7, .tf32 = 48.7, .bf16 = 97.5, .fp16 = 97.5, .fp8 = 194.9, .int8 = 389.9, .int4 = 779.8}),
               .fp32_accumulate_half_rate = true, .tdp = 320_W, .peer_to_peer = false,
               .launch_price = usd("1199", "2022-11-16", "NVIDIA GeForce RTX 4080 launch MSRP, https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4080-family/"),
               .street_price = pcpp_listings("1499.99", "1889", "GeForce RTX 4080", 17, 54),
               .source = src::ada, .as_of = recorded, .note = std::string("Usable memory: 16,376 MiB, the total nvidia-smi reports for the NVIDIA GeForce RTX 4080 in public logs (\"16376MiB\" beside \"NVIDIA GeForce RTX 4080\"). ") + src::unverified});
  // RTX 4060 Ti 16GB / 8GB: NVIDIA spec page: FP32 22 (22.06), 128-bit GDDR6 at 18 Gb/s = 288 GB/s, PCIe 4.0 x8,
  // TGP 165 W (16GB) / 160 W (8GB) (guru3d / thefpsreview launch tables). Matches reference-cases.md §6.
  v.push_back({.id = "rtx-4060-ti-16gb", .name = "NVIDIA GeForce RTX 4060 Ti 16GB", .aliases = {"RTX 4060 Ti 16GB", "4060 Ti 16GB", "RTX 4060Ti 16GB"},
               .vendor = Vendor::nvidia, .architecture = "Ada Lovelace", .form_factor = FormFactor::consumer,
               .memory = 16_GB, .usable_memory = 16380_MiB, .memory_type = "GDDR6", .memory_bandwidth = 288_GBps,
               .dense = dense_rates({.fp32 = 22.06, .tf32 = 22.06, .bf16 = 44.13, .fp16 = 44.13, .fp8 = 88.26, .int8 = 176.5, .int4 = 353.0}),
               .fp32_accumulate_half_rate = true, .tdp = 165_W, .pcie_generation = 4, .pcie_lanes = 8, .peer_to_peer = false,
               .launch_price = usd("499", "2023-07-18", "NVIDIA GeForce RTX 4060 Ti 16GB launch MSRP, https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4060-4060ti/"),
               .street_price = pcpp_listings("449.99", "681.515", "GeForce RTX 4060 Ti", 6, 33, 16),
               .source = "NVIDIA RTX 4060 family spec page, https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4060-4060ti/; launch tables at https://www.guru3d.com/story/geforce-rtx-4060-ti-gpu-pictured/",
               .as_of = recorded,
               .note = std::string("Usable memory: 16,380 MiB, the total nvidia-smi reports for the NVIDIA GeForce RTX 4060 Ti in public logs (\"16380MiB\" beside \"NVIDIA GeForce RTX 4060 Ti\" at 165 W). Tensor rates derived, not printed by NVIDIA for this card: ") + src::ada_per_sm + "; the 4060 Ti has 34 SMs at 2,535 MHz boost (https://www.thefpsreview.com/?p=133840), so FP16 with FP16 accumulate = 88.26 dense, with FP32 accumulate (half rate on GeForce) 44.13; TF32 = 22.06, FP8 (FP32 acc.) 88.26, INT8 176.5, INT4 353.0 (INT4 equals the 353 'AI TOPS' NVIDIA lists for the card). PCIe x8."});
  v.push_back({.id = "rtx-4060-ti-8gb", .name = "NVIDIA GeForce RTX 4060 Ti 8GB", .aliases = {"RTX 4060 Ti 8GB", "4060 Ti 8GB", "RTX 4060Ti 8GB"},
               .vendor = Vendor::nvidia, .architecture = "Ada Lovelace", .form_factor = FormFactor::consumer,
               .memory = 8_GB, .usable_memory = 8188_MiB, .memory_type = "GDDR6", .memory_bandwidth = 288_GBps,
               .dense = dense_rates({.fp32 = 22.06, .tf32 = 22.06, .bf16 = 44.13, .fp16 = 44.13, .fp8 = 88.26, .int8 = 176.5, .int4 = 353.0}),
               .fp32_accumulate_half_rate = true, .tdp = 160_W, .pcie_generation = 4, .pcie_lanes = 8, .peer_to_peer = false,
               .launch_price = usd("399", "2023-05-24", "NVIDIA GeForce RTX 4060 Ti 8GB launch MSRP, https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4060-4060ti/"),
               .street_price = pcpp_listings("389.99", "544.325", "GeForce RTX 4060 Ti", 14, 52, 8),
               .source = "NVIDIA RTX 4060 family spec page, https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4060-4060ti/; launch review at https://www.thefpsreview.com/?p=133840",
               .as_of = recorded,
               .note = "Usable memory: 8,188 MiB, the total nvidia-smi reports for the NVIDIA GeForce RTX 4060 Ti at 160 W (the 8 GB card) in public logs (\"8188MiB\"). Same AD106 configuration and clocks as the 16 GB card (34 SMs, 2,535 MHz), so the same derived tensor rates; see rtx-4060-ti-16gb. PCIe x8."});
  // RTX 5090: NVIDIA spec page: FP32 104.8, 32 GB GDDR7, 1,792 GB/s, 575 W, PCIe Gen5 x16. Tensor: FP16 (FP16 acc)
  // 838.4 with sparsity (spheron.network copy of the RTX Blackwell whitepaper table) -> dense FP16-acc 419.2,
  // FP32-acc (half rate on GeForce) 209.6; FP8 1,676.8* -> FP32-acc dense 419.2.
  // Usable memory: nvidia-smi reports 32,607 MiB total (https://github.com/noonghunna/club-3090/issues/1261).
  v.push_back({.id = "rtx-5090", .name = "NVIDIA GeForce RTX 5090 32GB", .aliases = {"RTX 5090", "GeForce RTX 5090", "5090"},
               .vendor = Vendor::nvidia, .architecture = "Blackwell", .form_factor = FormFactor::consumer,
               .memory = 32_GB, .usable_memory = 32607_MiB, .memory_type = "GDDR7", .memory_bandwidth = 1792_GBps,
               .dense = dense_rates({.fp32 = 104.8, .tf32 = 104.8, .bf16 = 209.6, .fp16 = 209.6, .fp8 = 419.2, .fp4 = 1676}),
               .fp32_accumulate_half_rate = true, .tdp = 575_W, .pcie_generation = 5, .pcie_lanes = 16, .peer_to_peer = false,
               .slot_width = 2, .length = 304_mm, .cooling = GpuCooling::open_air,
               .launch_price = usd("1999", "2025-01-30", "NVIDIA GeForce RTX 5090 launch MSRP, https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5090/"),
               .street_price = pcpp_listings("1999.99", "3049.99", "GeForce RTX 5090", 27, 37),
               .source = "NVIDIA RTX 5090 spec page, https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5090/; RTX Blackwell whitepaper figures as reproduced at https://www.spheron.network/blog/nvidia-rtx-5090-specs/",
               .as_of = recorded,
               .note = std::string("Tensor rates derived from NVIDIA's 3,352 'AI TOPS' (FP4 with sparsity, spec page): FP4 dense 1,676, FP8 dense (FP16 acc.) 838.4, FP16 dense (FP16 acc.) 419.2, and FP32 accumulate at half rate on GeForce: 209.6; TF32 104.8, FP8 with FP32 accumulate 419.2. Two independent copies agree: spheron.network (838.4 sparse FP16) and https://www.codesota.com/hardware/rtx-5090 (209.5 dense FP16). The RTX Blackwell whitepaper itself was not available to re-check. Peer-to-peer assumed absent as on the 40-series.") + " Founders Edition card: 304 x 137 x 40 mm, \"no more than two slots thick\", double flow-through fans, one 16-pin 12V-2x6 connector (TechPowerUp, https://techpowerup.com/review/nvidia-geforce-rtx-5090-founders-edition-unboxing/3.html). Partner cards are often 3-3.5 slots and longer."});
  v.push_back({.id = "rtx-5080", .name = "NVIDIA GeForce RTX 5080 16GB", .aliases = {"RTX 5080", "GeForce RTX 5080", "5080"},
               .vendor = Vendor::nvidia, .architecture = "Blackwell", .form_factor = FormFactor::consumer,
               .memory = 16_GB, .usable_memory = 16303_MiB, .memory_type = "GDDR7", .memory_bandwidth = 960_GBps,
               .dense = dense_rates({.fp32 = 56.3, .tf32 = 56.3, .bf16 = 112.6, .fp16 = 112.6, .fp8 = 225.1, .int8 = 450.2, .fp4 = 900.4}),
               .fp32_accumulate_half_rate = true, .tdp = 360_W, .pcie_generation = 5, .pcie_lanes = 16, .peer_to_peer = false,
               .slot_width = 2, .length = 304_mm, .cooling = GpuCooling::open_air,
               .launch_price = usd("999", "2025-01-30", "NVIDIA GeForce RTX 5080 launch MSRP, as reported at https://www.tweaktown.com/news/102469/nvidia-geforce-rtx-50-series-specs-pricing-and-performance-plan-that-upgrade-today/index.html"),
               .street_price = pcpp_listings("1264.99", "1472", "GeForce RTX 5080", 35, 55),
               .source = "NVIDIA RTX 5080 figures (1,801 AI TOPS, 10,752 CUDA cores, 16 GB GDDR7, 960 GB/s, 360 W) per https://www.notebookcheck.net/Nvidia-GeForce-RTX-5080-Benchmarks-and-Specs.935679.0.html; dense rates checked against https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md",
               .as_of = "2026-11-26",
               .note = std::string("Usable memory: 16,303 MiB, the total nvidia-smi reports for the NVIDIA GeForce RTX 5080 in public logs (\"16303MiB\" beside \"NVIDIA GeForce RTX 5080\"). Dense rates derived from 1,801 AI TOPS (FP4, sparse) with the RTX Blackwell whitepaper's ratios: FP4 900.4, INT8 450.2, FP8 with FP32 accumulate 225.1, FP16/BF16 with FP32 accumulate 112.6 (half rate on GeForce); TF32 = FP32 56.3. No peer-to-peer on the stock driver (tinygrad/open-gpu-kernel-modules#29).") + " Founders Edition card: 304 mm long, dual slot, flow-through fans, the 5090 FE's size (https://www.pcguide.com/news/rtx-5090-might-actually-fit-in-your-pc-case-as-it-gets-slimmed-down-for-founders-edition/). Partner cards are often wider."});
  v.push_back({.id = "rtx-5070-ti", .name = "NVIDIA GeForce RTX 5070 Ti 16GB", .aliases = {"RTX 5070 Ti", "GeForce RTX 5070 Ti", "5070 Ti", "5070ti"},
               .vendor = Vendor::nvidia, .architecture = "Blackwell", .form_factor = FormFactor::consumer,
               .memory = 16_GB, .usable_memory = 16303_MiB, .memory_type = "GDDR7", .memory_bandwidth = 896_GBps,
               .dense = dense_rates({.fp32 = 43.9, .tf32 = 43.9, .bf16 = 87.9, .fp16 = 87.9, .fp8 = 175.8, .int8 = 351.5, .fp4 = 703}),
               .fp32_accumulate_half_rate = true, .tdp = 300_W, .pcie_generation = 5, .pcie_lanes = 16, .peer_to_peer = false,
               .launch_price = usd("749", "2025-02-20", "NVIDIA GeForce RTX 5070 Ti launch MSRP, as reported at https://technologistmag.com/nvidia-rtx-50-series-gpus-everything-we-know-so-far/amp"),
               .street_price = pcpp_listings("749.99", "1004.495", "GeForce RTX 5070 Ti", 32, 58),
               .source = "NVIDIA RTX 5070 Ti figures (1,406 AI TOPS, 8,960 CUDA cores, 16 GB GDDR7, 896 GB/s) per https://www.tweaktown.com/news/102469/nvidia-geforce-rtx-50-series-specs-pricing-and-performance-plan-that-upgrade-today/index.html and https://technologistmag.com/nvidia-rtx-50-series-gpus-everything-we-know-so-far/amp; 300 W and dense rates per https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md",
               .as_of = "2026-11-26",
               .note = "Usable memory: 16,303 MiB, the total nvidia-smi reports for the NVIDIA GeForce RTX 5070 Ti in public logs (\"16303MiB\" beside \"NVIDIA GeForce RTX 5070 Ti\"). Dense rates derived from 1,406 AI TOPS (FP4, sparse) with the RTX Blackwell whitepaper's ratios (FP16/BF16 with FP32 accumulate = AI TOPS / 16, half rate on GeForce). The on-sale date in February 2025 is approximate. No peer-to-peer on the stock driver."});
  v.push_back({.id = "rtx-5060-ti-16gb", .name = "NVIDIA GeForce RTX 5060 Ti 16GB", .aliases = {"RTX 5060 Ti", "RTX 5060 Ti 16GB", "GeForce RTX 5060 Ti 16GB", "5060 Ti"},
               .vendor = Vendor::nvidia, .architecture = "Blackwell", .form_factor = FormFactor::consumer,
               .memory = 16_GB, .usable_memory = 16311_MiB, .memory_type = "GDDR7", .memory_bandwidth = 448_GBps,
               .dense = dense_rates({.fp32 = 23.7, .tf32 = 23.7, .bf16 = 47.4, .fp16 = 47.4, .fp8 = 94.9, .int8 = 189.8, .fp4 = 379.5}),
               .fp32_accumulate_half_rate = true, .tdp = 180_W, .pcie_generation = 5, .pcie_lanes = 8, .peer_to_peer = false,
               .launch_price = usd("429", "2025-04-16", "NVIDIA GeForce RTX 5060 Ti 16GB launch MSRP, as reported at https://www.betweentwopixels.com/nvidia-unveils-geforce-rtx-5060-series-affordable-power-for-mainstream-gamers"),
               .street_price = pcpp_listings("428.33", "499.99", "GeForce RTX 5060 Ti", 25, 39, 16),
               .source = "NVIDIA RTX 5060 Ti figures (759 AI TOPS, 4,608 CUDA cores, 16 GB GDDR7 128-bit, 448 GB/s, 180 W) per https://biggo.com/news/202504161202_Nvidia_RTX_5060_Ti_Launch and https://www.pcguide.com/gpu/rtx-5060-release-date-specs-price/",
               .as_of = "2026-11-26",
               .note = "Usable memory: 16,311 MiB, the total nvidia-smi reports for the NVIDIA GeForce RTX 5060 Ti in public logs (\"16311MiB\" beside \"NVIDIA GeForce RTX 5060 Ti\" at 180 W). Dense rates derived from 759 AI TOPS (FP4, sparse) with the RTX Blackwell whitepaper's ratios; a public benchmark measured BF16 at 47.0 TF, matching (QuantumDrizzy/BLACKWALL), but FP8 with FP32 accumulate at 184.6 TF, twice the half-rate figure stored. PCIe 5.0 x8 per third-party reports. The 8 GB model is a different card. No peer-to-peer on the stock driver."});
  v.push_back({.id = "rtx-4080-super", .name = "NVIDIA GeForce RTX 4080 SUPER 16GB", .aliases = {"RTX 4080 SUPER", "RTX 4080 Super", "GeForce RTX 4080 SUPER", "4080 Super"},
               .vendor = Vendor::nvidia, .architecture = "Ada Lovelace", .form_factor = FormFactor::consumer,
               .memory = 16_GB, .usable_memory = 16376_MiB, .memory_type = "GDDR6X", .memory_bandwidth = 736_GBps,
               .dense = dense_rates({.fp32 = 52.2, .tf32 = 52.2, .bf16 = 104.5, .fp16 = 104.5, .fp8 = 209, .int8 = 418}),
               .fp32_accumulate_half_rate = true, .tdp = 320_W, .peer_to_peer = false,
               .launch_price = usd("999", "2024-01-31", "NVIDIA GeForce RTX 4080 SUPER launch MSRP, as reported at https://technologistmag.com/nvidia-rtx-50-series-gpus-everything-we-know-so-far/amp (on-sale date per https://game-scanner.co.uk/articles/rumors-confirmed-nvidia-rtx-40-super-drops-this-month)"),
               .street_price = pcpp_listings("1299.99", "1799.495", "GeForce RTX 4080 SUPER", 16, 41),
               .source = "NVIDIA RTX 4080 SUPER figures (836 AI TOPS, 52.2 TF FP32, 16 GB GDDR6X, 736 GB/s) per https://github.com/VladislavDuma/gpu_specs and https://www.tweaktown.com/news/95247/nvidia-officially-begins-teasing-its-upcoming-geforce-rtx-40-super-series-cards/index.html",
               .as_of = "2026-11-26",
               .note = std::string("Usable memory: 16,376 MiB, the total nvidia-smi reports for the NVIDIA GeForce RTX 4080 ... in public logs (\"16376MiB\" beside \"NVIDIA GeForce RTX 4080 ...\", a name nvidia-smi truncates, at 320 W: the 4080 and the 4080 SUPER share the AD103 and its 16 GB of GDDR6X). Dense rates derived from 836 AI TOPS (FP8, sparse) with the Ada whitepaper's ratios (FP16/BF16 with FP32 accumulate = AI TOPS / 8 = 104.5, half rate on GeForce); ") + src::ada_per_sm + ". 320 W and PCIe 4.0 x16 are third-party reports. No peer-to-peer on the stock driver."});
  v.push_back({.id = "rtx-3080", .name = "NVIDIA GeForce RTX 3080 10GB", .aliases = {"RTX 3080", "GeForce RTX 3080", "3080"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::consumer,
               .memory = 10_GB, .usable_memory = 10240_MiB, .memory_type = "GDDR6X", .memory_bandwidth = 760_GBps,
               .dense = dense_rates({.fp32 = 29.8, .tf32 = 29.8, .bf16 = 59.5, .fp16 = 59.5, .int8 = 238}),
               .fp32_accumulate_half_rate = true, .tdp = 320_W, .peer_to_peer = false,
               .slot_width = 2, .length = 285_mm, .cooling = GpuCooling::open_air,
               .launch_price = usd("699", "2020-09-17", "NVIDIA GeForce RTX 3080 launch MSRP, as reported at https://www.rockpapershotgun.com/2020/09/01/nvidia-ampere-rtx-3000-series-price-specs-release-date/"),
               .street_price = pcpp_listings("779", "1080", "GeForce RTX 3080 10GB", 11, 47),
               .source = std::string(src::ga102) + "; figures as transcribed at https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md (FP32 29.8, TF32 29.8 | 59.5*, FP16/BF16 with FP32 accumulate 59.5 | 119*, INT8 238 | 476*); 10 GB GDDR6X, 760 GB/s, 320 W per https://www.tomshardware.com/uk/news/nvidia-geforce-rtx-3080-reviews-delayed-to-sept-16-rtx-3070-available-on-october-15",
               .as_of = "2026-11-26",
               .note = std::string("Usable memory: 10,240 MiB, the total nvidia-smi reports for the NVIDIA GeForce RTX 3080 in public logs (\"10240MiB\" beside \"NVIDIA GeForce RTX 3080\"). NVIDIA's launch \"238 tensor TFLOPS\" is FP16 accumulate with sparsity; dense FP16/BF16 with FP32 accumulate is 59.5 (half rate on GeForce). The 12 GB model is a different card. No peer-to-peer on the stock driver.") + " Founders Edition card: 285 mm, two slots, flow-through fans, one 12-pin connector (adapter to two 8-pin) (Tweakers, https://tweakers.net/geek/171976/nvidia-geforce-rtx-3080-arriveert-in-tweakers-testlab.html)."});
  v.push_back({.id = "rtx-3070", .name = "NVIDIA GeForce RTX 3070 8GB", .aliases = {"RTX 3070", "GeForce RTX 3070", "3070"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::consumer,
               .memory = 8_GB, .usable_memory = 8192_MiB, .memory_type = "GDDR6", .memory_bandwidth = 448_GBps,
               .dense = dense_rates({.fp32 = 20.3, .tf32 = 20.3, .bf16 = 40.6, .fp16 = 40.6, .int8 = 163}),
               .fp32_accumulate_half_rate = true, .tdp = 220_W, .peer_to_peer = false,
               .launch_price = usd("499", "2020-10-29", "NVIDIA GeForce RTX 3070 launch MSRP, as reported at https://www.tomshardware.com/uk/news/nvidia-geforce-rtx-3080-reviews-delayed-to-sept-16-rtx-3070-available-on-october-15"),
               .street_price = pcpp_listings("534.19", "698", "GeForce RTX 3070", 17, 56),
               .source = "NVIDIA Ampere GA10x figures as transcribed at https://github.com/lamonoai/gpumap/blob/main/nvidia/GPU.md (FP32 20.3, TF32 20.3 | 40.6*, FP16/BF16 with FP32 accumulate 40.6 | 81.3*, INT8 163 | 325*); 8 GB GDDR6, 448 GB/s, 220 W per https://www.tomshardware.com/uk/news/nvidia-geforce-rtx-3080-reviews-delayed-to-sept-16-rtx-3070-available-on-october-15",
               .as_of = "2026-11-26",
               .note = std::string("Usable memory: 8,192 MiB, the total nvidia-smi reports for the NVIDIA GeForce RTX 3070 in public logs (\"8192MiB\" beside \"NVIDIA GeForce RTX 3070\"). ") + std::string(src::ga10x_per_sm) + ": 46 SMs x 1,725 MHz x 1,024 FLOP = 81.3 with FP16 accumulate, 40.6 with FP32 accumulate (half rate on GeForce). On sale October 2020 (first announced for October 15, then the 29th). No peer-to-peer on the stock driver."});
  v.push_back({.id = "dgx-spark", .name = "NVIDIA DGX Spark (GB10, 128GB unified)", .aliases = {"DGX Spark", "GB10", "Project DIGITS"},
               .vendor = Vendor::nvidia, .architecture = "Blackwell (GB10)", .form_factor = FormFactor::soc,
               .memory = 128_GB, .usable_memory = 124610_MiB, .memory_type = "LPDDR5x (unified)", .memory_bandwidth = 273_GBps,
               .tdp = 140_W, .pcie_generation = 0, .pcie_lanes = 0, .peer_to_peer = false,
               .launch_price = usd("3999", "2025-10-15", "DGX Spark Founders Edition (4 TB) at retail launch, per https://ai-infrastructure.net/dgx-spark/"),
               .source = "NVIDIA DGX Spark porting guide, https://docs.nvidia.com/dgx/dgx-spark-porting-guide/overview.html (128 GB LPDDR5x, unified and coherent); 273 GB/s and the GB10's 140 W per https://www.chargerlab.com/teardown-of-nvidia-dgx-spark-4tb/",
               .as_of = "2026-11-26",
               .note = "Usable memory: 124,610 MiB (130.7 GB, 121.69 GiB), the total CUDA reports on DGX Spark in public logs: vLLM's \"Free memory on device cuda:0 (.../121.69 GiB)\" (MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks issue 47, drivers 580.173.02 and 610.43.02) and llama.cpp's device list \"NVIDIA GB10 (124610 MiB, ...)\" (driver 580.173.02, CUDA 13.0); it is the operating system's MemTotal, which the CPU and the OS share, and varies a little with the kernel build (a 64K-page kernel reports 123.73 GiB); nvidia-smi prints \"Not Supported\" for memory on this part. NVIDIA publishes only \"up to 1 PFLOP FP4 with sparsity\" (about 500 dense, not stored: with no BF16 rate nothing could be timed with it) and no BF16, FP8 or INT8 rate, so no rate is stored: training and prefill are not timed on it, and capplan infer times a decode from its memory traffic alone; memory fit answers hold (the GPU shares the 128 GB with the CPU and the OS). Two units link over ConnectX-7 200 GbE, not NVLink. Later retail prices of $4,699 were reported in 2026."});
  // RTX 3090: GA102 whitepaper (RTX 3090 column): FP32 35.6; FP16 tensor FP32 acc 71 (142*), FP16 acc 142;
  // BF16 71; TF32 35.6; INT8 284; INT4 568; 24 GB GDDR6X, 936 GB/s, 350 W; NVLink 3 bridge 112.5 GB/s.
  // Usable memory: nvidia-smi reports 24,576 MiB total (https://github.com/noonghunna/club-3090/issues/1128).
  v.push_back({.id = "rtx-3090", .name = "NVIDIA GeForce RTX 3090 24GB", .aliases = {"RTX 3090", "GeForce RTX 3090", "3090"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::consumer,
               .memory = 24_GB, .usable_memory = 24576_MiB, .memory_type = "GDDR6X", .memory_bandwidth = 936_GBps,
               .dense = dense_rates({.fp32 = 35.6, .tf32 = 35.6, .bf16 = 71, .fp16 = 71, .int8 = 284, .int4 = 568}),
               .fp32_accumulate_half_rate = true, .tdp = 350_W, .nvlink_generation = 3, .nvlink_bandwidth = 56.25_GBps,
               .slot_width = 3, .length = 313_mm, .cooling = GpuCooling::open_air,
               .launch_price = usd("1499", "2020-09-24", "NVIDIA GeForce RTX 3090 launch MSRP, https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3090-3090ti/"),
               .street_price = pcpp_listings("1518.99", "1599.99", "GeForce RTX 3090", 16, 51),
               .source = src::ga102, .as_of = recorded, .note = std::string(src::unverified) + " Founders Edition card: 313 mm, three slots, flow-through fans, one 12-pin connector (adapter from two 8-pin) (Hardwareluxx, https://hardwareluxx.de/index.php/artikel/hardware/grafikkarten/54210-wenig-geforce-fuer-einen-hohen-aufpreis-gigabyte-geforce-rtx-3090-gaming-im-test.html?start=5)."});
  // RTX 3090 Ti: NVIDIA spec page: FP32 40, 10,752 CUDA cores (84 SMs), 1.86 GHz boost, 24 GB GDDR6X,
  // 1,008 GB/s, 450 W; NVLink bridge supported. Tensor rates derived from GA10x's per-SM rates (src::ga10x_per_sm).
  v.push_back({.id = "rtx-3090-ti", .name = "NVIDIA GeForce RTX 3090 Ti 24GB", .aliases = {"RTX 3090 Ti", "GeForce RTX 3090 Ti", "3090 Ti"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::consumer,
               .memory = 24_GB, .usable_memory = 24564_MiB, .memory_type = "GDDR6X", .memory_bandwidth = 1008_GBps,
               .dense = dense_rates({.fp32 = 40, .tf32 = 40, .bf16 = 80, .fp16 = 80, .int8 = 320, .int4 = 640}),
               .fp32_accumulate_half_rate = true, .tdp = 450_W, .nvlink_generation = 3, .nvlink_bandwidth = 56.25_GBps,
               .launch_price = usd("1999", "2022-03-29", "NVIDIA GeForce RTX 3090 Ti launch MSRP, https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3090-3090ti/"),
               .street_price = pcpp_listings("1499.99", "1989", "GeForce RTX 3090 Ti", 7, 32),
               .source = "NVIDIA RTX 3090 family spec page, https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3090-3090ti/",
               .as_of = recorded, .note = std::string("Usable memory: 24,564 MiB, the total nvidia-smi reports for the NVIDIA GeForce RTX 3090 Ti in public logs (\"24564MiB\" beside \"NVIDIA GeForce RTX 3090 Ti\"). ") + std::string(src::unverified) + " NVIDIA publishes no tensor TFLOPS for the 3090 Ti (it postdates the GA102 whitepaper), so they are derived, not printed by NVIDIA: " + src::ga10x_per_sm + "; the 3090 Ti has 84 SMs (10,752 CUDA cores) at 1,860 MHz boost, so FP16 with FP16 accumulate = 160.0 dense, with FP32 accumulate (half rate on GeForce) and BF16 80.0, TF32 40.0, INT8 320, INT4 640 (the RTX 3090 column's ratios). Before 2026-12-04 they were left out, and the card was timed at its FP32 rate, about half the RTX 3090's tensor rate."});
  // RTX 3060 12GB: NVIDIA spec page: FP32 12.7 (12.74), 12 GB GDDR6 192-bit at 15 Gb/s = 360 GB/s, 170 W, PCIe 4.0 x16.
  // Matches reference-cases.md §6.
  v.push_back({.id = "rtx-3060-12gb", .name = "NVIDIA GeForce RTX 3060 12GB", .aliases = {"RTX 3060 12GB", "RTX 3060", "3060 12GB"},
               .vendor = Vendor::nvidia, .architecture = "Ampere", .form_factor = FormFactor::consumer,
               .memory = 12_GB, .usable_memory = 12288_MiB, .memory_type = "GDDR6", .memory_bandwidth = 360_GBps,
               .dense = dense_rates({.fp32 = 12.74, .tf32 = 12.74, .bf16 = 25.47, .fp16 = 25.47, .int8 = 101.9, .int4 = 203.8}),
               .fp32_accumulate_half_rate = true, .tdp = 170_W,
               .launch_price = usd("329", "2021-02-25", "NVIDIA GeForce RTX 3060 launch MSRP, https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3060-3060ti/"),
               .street_price = pcpp_listings("256.98", "429.95", "GeForce RTX 3060 12GB", 19, 54),
               .source = "NVIDIA RTX 3060 family spec page, https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3060-3060ti/; launch table at https://www.guru3d.com/story/geforce-rtx-4060-ti-gpu-pictured/",
               .as_of = recorded,
               .note = std::string("Usable memory: 12,288 MiB, the total nvidia-smi reports for the NVIDIA GeForce RTX 3060 in public logs (\"12288MiB\" beside \"NVIDIA GeForce RTX 3060\"). Tensor rates derived, not printed by NVIDIA for this card: ") + src::ga10x_per_sm + "; the 3060 has 28 SMs (3,584 CUDA cores) at 1,777 MHz boost (guru3d table), so FP16 with FP16 accumulate = 50.95 dense, with FP32 accumulate (half rate on GeForce) 25.47; BF16 the same, TF32 12.74, INT8 101.9, INT4 203.8 (the GA102 ratios: RTX 3090 71 / 35.6 / 284 / 568)."});

  // ---------------------------------------------------------------- AMD Instinct
  // MI300X: AMD MI300X datasheet: FP64 matrix 163.4, FP32 matrix 163.4, TF32 653.7 (1,307.4*), BF16/FP16
  // 1,307.4 (2,614.9*), FP8 2,614.9 (5,229.8*), INT8 2,614.9; 192 GB HBM3, 5.3 TB/s, 750 W, Infinity Fabric
  // 896 GB/s aggregate (7 links), PCIe Gen5 x16, OAM.
  v.push_back({.id = "mi300x", .name = "AMD Instinct MI300X 192GB", .aliases = {"MI300X", "Instinct MI300X"},
               .vendor = Vendor::amd, .architecture = "CDNA 3", .form_factor = FormFactor::oam,
               .memory = 192_GB, .usable_memory = 196608_MiB, .memory_type = "HBM3", .memory_bandwidth = 5.3_TBps,
               .dense = dense_rates({.fp64 = 163.4, .fp32 = 163.4, .tf32 = 653.7, .bf16 = 1307.4, .fp16 = 1307.4, .fp8 = 2614.9, .int8 = 2614.9}),
               .tdp = 750_W, .infinity_fabric_bandwidth = 448_GBps, .pcie_generation = 5, .pcie_lanes = 16, .ecc = true,
               .board_gpus = 8, .street_price = usd("25733.71", "2025-02-10", std::string(src::epoch) + "; per GPU, an 8 x MI300X OAM universal baseboard listed by interpromicro.com, https://web.archive.org/web/20250210202751/https://www.interpromicro.com/product/39955-amd-instinct-mi300x-192gb-8-oam-ubb"),
               .source = "AMD Instinct MI300X data sheet, https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html",
               .as_of = recorded,
               .note = "Usable memory: 196,608 MiB (206.2 GB): rocm-smi reports \"VRAM Total Memory (B): 206158430208\" on an MI300X in public logs (a dstack run on AMD's developer cloud): AMD's \"192 GB\" is 192 GiB. Checked against stored copies: ~1.3 PFLOPS FP16, ~2.6 PFLOPS FP8, 192 GB, 5.3 TB/s, 750 W (https://www.jaredwatkins.com/research/ai-accelerators/amd-instinct/mi300-series/), 896 GB/s Infinity Fabric (https://gpu.blog/gpus/instinct-mi300x-mi300x). Some third-party pages (codesota.com) print 2,615 TFLOPS as dense FP16; that is the sparse figure. fp64/fp32 are matrix-core rates; Infinity Fabric aggregate halved for per direction. No vendor list price."});
  // MI250X and MI250: two graphics compute dies (GCDs) in one OAM package, which the OS and ROCm see
  // as two GPUs of 64 GB each (Pawsey Setonix and OLCF Frontier user guides: "accessible as two logical
  // GPUs", 64 GB per GCD). Every fit and every rate is per device, so each entry is one GCD: half the
  // package's memory, bandwidth and rates (AMD product page, per package: MI250X FP64/FP32 matrix 95.7,
  // FP16/BF16 383, INT8 383; MI250 90.5 / 362.1 / 362.1; 128 GB HBM2e at 3.2 TB/s; 500 W, 560 W peak)
  // and half its power. A 4-package node (Frontier, Setonix) is 8 of these.
  v.push_back({.id = "mi250x", .name = "AMD Instinct MI250X (one 64 GB GCD; two per package)",
               .aliases = {"MI250X", "Instinct MI250X", "MI250X GCD", "AMD Instinct MI250X 128GB"},
               .vendor = Vendor::amd, .architecture = "CDNA 2", .form_factor = FormFactor::oam,
               .memory = 64_GB, .usable_memory = 65520_MiB, .memory_type = "HBM2e", .memory_bandwidth = 1638.4_GBps,
               .dense = dense_rates({.fp64 = 47.85, .fp32 = 47.85, .bf16 = 191.5, .fp16 = 191.5, .int8 = 191.5}),
               .tdp = 250_W, .infinity_fabric_bandwidth = 50_GBps, .pcie_generation = 4, .pcie_lanes = 16, .ecc = true,
               .board_gpus = 8, .unpriced = "no longer made, and its newest dated price, The Next Platform's estimate of $14,500 a package in November 2021 (Epoch AI's price data), is too old to rank against 2025-2026 prices",
               .source = src::mi200, .as_of = recorded,
               .note = std::string("Usable memory: 65,520 MiB per GCD (64 GiB less 16 MiB): a gfx90a GCD reports \"Total GPU memory 68702699520\" in a public HPE Cray OpenACC log. One GCD of the two in an MI250X package (Pawsey Setonix user guide, https://pawsey.atlassian.net/wiki/spaces/US/pages/51928618: "
                                   "\"two Global Compute Dies (GCD) that are accessible as two logical GPUs\", 110 CUs and 64 GB each). Package figures halved: "
                                   "AMD launch table checked at https://zexron.com/amd-mi250-x-aldebaran-as-mcm-with-up-to-479-teraflop-s-and-560-watt-tdp "
                                   "(47.9 vector / 95.7 matrix FP64 and FP32, 383 FP16/BF16, 383 INT8 TOPS, 128 GB, 3.2 TB/s, 500 W, 560 W peak). "
                                   "Infinity Fabric: 400 GB/s between the two GCDs of a package (AMD at Hot Chips 34, servethehome.com); between packages "
                                   "one or two links of 50 GB/s per direction (OLCF Frontier node diagram), so a ring over a node's 8 GCDs runs at the "
                                   "50 GB/s single link, the figure stored: ") + src::unverified + " No vendor list price."});
  v.push_back({.id = "mi250", .name = "AMD Instinct MI250 (one 64 GB GCD; two per package)",
               .aliases = {"MI250", "Instinct MI250", "MI250 GCD", "AMD Instinct MI250 128GB"},
               .vendor = Vendor::amd, .architecture = "CDNA 2", .form_factor = FormFactor::oam,
               .memory = 64_GB, .usable_memory = 65520_MiB, .memory_type = "HBM2e", .memory_bandwidth = 1638.4_GBps,
               .dense = dense_rates({.fp64 = 45.25, .fp32 = 45.25, .bf16 = 181.05, .fp16 = 181.05, .int8 = 181.05}),
               .tdp = 250_W, .pcie_generation = 4, .pcie_lanes = 16, .ecc = true,
               .board_gpus = 8, .street_price = usd("7885.245", "2025-02-21", std::string(src::epoch) + "; half the package's $15,770.49 (this entry is one of its two GCDs), https://archive.ph/9WHHS"),
               .source = src::mi200, .as_of = recorded,
               .note = "Usable memory: 65,520 MiB per GCD (64 GiB less 16 MiB), as the MI250X's gfx90a GCD reports (\"Total GPU memory 68702699520\" in a public HPE Cray OpenACC log): the same HBM2e per GCD. One GCD of the two in an MI250 package, seen by the OS as its own GPU of 64 GB. Package figures halved: AMD launch table checked at https://zexron.com/amd-mi250-x-aldebaran-as-mcm-with-up-to-479-teraflop-s-and-560-watt-tdp (45.3 vector / 90.5 matrix, 362.1 FP16/BF16, 362.1 INT8 TOPS, 128 GB, 3.2 TB/s, 500 W). Infinity Fabric bandwidth not recorded. No vendor list price."});
  // Added 2026-11-26: AMD's 2025 Instinct parts and the Radeon cards people run models on locally.
  v.push_back({.id = "mi325x", .name = "AMD Instinct MI325X 256GB", .aliases = {"MI325X", "Instinct MI325X"},
               .vendor = Vendor::amd, .architecture = "CDNA 3", .form_factor = FormFactor::oam,
               .memory = 256_GB, .usable_memory = 262128_MiB, .memory_type = "HBM3e", .memory_bandwidth = 6_TBps,
               .dense = dense_rates({.fp64 = 163.4, .fp32 = 163.4, .tf32 = 653.7, .bf16 = 1307.4, .fp16 = 1307.4, .fp8 = 2614.9, .int8 = 2614.9}),
               .tdp = 1000_W, .infinity_fabric_bandwidth = 448_GBps, .pcie_generation = 5, .pcie_lanes = 16, .ecc = true,
               .board_gpus = 8, .unpriced = "AMD sells Instinct accelerators only through server makers, at prices agreed with each buyer; no public price was found",
               .source = "AMD ROCm GPU specifications, https://rocm.docs.amd.com/en/7.13.0-preview/reference/gpu-specs.html (304 CUs, 256 GiB); AMD ROCm blog \"Matrix Core Programming on CDNA3 and CDNA4\", https://rocm.blogs.amd.com/software-tools-optimization/matrix-cores-cdna/README.html (FP16/BF16 1,307.4 dense = 2*32*32*8 x 1,216 matrix cores x 2,100 MHz / 32 cycles); 6 TB/s and PCIe 5.0 x16 per https://wiaix.com/amd-instincttm-mi325x-accelerators; 1,000 W per https://www.svethardware.cz/amd-predstavilo-instinct-mi325x-s-256gb-pameti-hbm3e-slibuje-i-vykonnejsi-mi355x/61224",
               .as_of = "2026-11-26",
               .note = "Usable memory: 262,128 MiB (274.9 GB; AMD's \"256 GB\" is GiB, less 16 MiB as on the MI300X), the total amd-smi prints for an MI325X in AMD's own JAX install guide (ROCm/rocm-install-on-linux docs/install/3rd-party/jax-install.rst, an earlier version: \"AMD Instinct MI325X ... 283/262128 MB\", AMD-SMI 26.0.0, ROCm 7.0.1). The MI300X's compute (same 304 CUs at 2,100 MHz) with 256 GB HBM3e at 6 TB/s and 1,000 W. AMD prints the sparse figures (2,614.9 FP16, 5,229.8 FP8) beside these dense ones. Infinity Fabric: 7 links per GPU as on the MI300X, whose 896 GB/s aggregate is halved per direction (per-link figure for the MI325X not found). No vendor list price."});
  v.push_back({.id = "mi350x", .name = "AMD Instinct MI350X 288GB", .aliases = {"MI350X", "Instinct MI350X"},
               .vendor = Vendor::amd, .architecture = "CDNA 4", .form_factor = FormFactor::oam,
               .memory = 288_GB, .usable_memory = 294896_MiB, .memory_type = "HBM3e", .memory_bandwidth = 8_TBps,
               .dense = dense_rates({.fp64 = 72.1, .fp32 = 144.2, .bf16 = 2309.6, .fp16 = 2309.6, .fp8 = 4614, .int8 = 4614, .fp4 = 9200, .fp6 = 9200}),
               .tdp = 1000_W, .infinity_fabric_bandwidth = 537.6_GBps, .pcie_generation = 5, .pcie_lanes = 16, .ecc = true,
               .board_gpus = 8, .unpriced = "AMD sells Instinct accelerators only through server makers, at prices agreed with each buyer; no public price was found",
               .source = "AMD Instinct MI350X brochure, https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/product-briefs/amd-instinct-mi350x-gpu-brochure.pdf (figures as quoted in a public FLOP table); 288 GB at 8 TB/s per https://www.tomshardware.com/pc-components/gpus/amds-instinct-mi355x-accelerator-will-consume-1-400-watts; 1,000 W per https://wccftech.com/amd-instinct-mi350-gpuai-hardware-powerhouse-3nm-3d-chiplet-cdna-4-185-billion-transistors-1400w-tbp-over-4000b-llm-support//amp/",
               .as_of = "2026-11-26",
               .note = "Usable memory: 294,896 MiB (309.2 GB, 288 GiB less 16 MiB): the device memory an MI350X reports in a trace in a public repository (totalGlobalMem 309220868096), as rocm-smi reports for the MI355X with the same HBM3E. Air-cooled CDNA 4 (256 CUs at up to 2.2 GHz). Dense rates; MXFP6 and MXFP4 9.2 PF dense each, stored as FP6 and FP4 (AMD's 18.45 PF headline is with sparsity). No TF32 hardware on CDNA 4 (emulated with BF16), so none is stored. Infinity Fabric: 7 links per GPU (a full mesh of 8), 153.6 GB/s per link both ways, 76.8 each way: 537.6 GB/s per direction, as third parties give it (https://humeconsulting.co/amd-mi355x-strong-node-level-inference-but-not-yet-rack-scale: \"~153 GB/s of bidirectional bandwidth\"; vllm-project/vllm#39080: \"(N-1) x 76.8 GB/s\"), not found in an AMD document. No vendor list price."});
  v.push_back({.id = "mi355x", .name = "AMD Instinct MI355X 288GB", .aliases = {"MI355X", "Instinct MI355X"},
               .vendor = Vendor::amd, .architecture = "CDNA 4", .form_factor = FormFactor::oam,
               .memory = 288_GB, .usable_memory = 294896_MiB, .memory_type = "HBM3e", .memory_bandwidth = 8_TBps,
               .dense = dense_rates({.fp64 = 78.6, .fp32 = 157.3, .bf16 = 2516.6, .fp16 = 2516.6, .fp8 = 5033.2, .int8 = 5033.2, .fp4 = 10066, .fp6 = 10066}),
               .tdp = 1400_W, .infinity_fabric_bandwidth = 537.6_GBps, .pcie_generation = 5, .pcie_lanes = 16, .ecc = true,
               .board_gpus = 8, .unpriced = "AMD sells Instinct accelerators only through server makers, at prices agreed with each buyer; no public price was found",
               .source = "AMD ROCm blog \"Matrix Core Programming on CDNA3 and CDNA4\", https://rocm.blogs.amd.com/software-tools-optimization/matrix-cores-cdna/README.html (dense rates); 288 GB HBM3e and PCIe Gen5 x16 per AMD's MLPerf Inference v6.0 submission (mlcommons/inference_results_v6.0, closed/AMD); 8 TB/s and 1,400 W per https://www.theregister.com/2025/06/12/amd_mi355x/",
               .as_of = "2026-11-26",
               .note = "Usable memory: 294,896 MiB (309.2 GB, 288 GiB less 16 MiB): rocm-smi reports \"VRAM Total Memory (B)\" 309220868096 on MI355X hosts in public logs, and PyTorch the same total_memory: AMD's \"288 GB\" is GiB. Liquid-cooled CDNA 4 (256 CUs at up to 2.4 GHz). Dense rates; MXFP6 and MXFP4 10,066 TF dense each = 2 x FP8, stored as FP6 and FP4 (the 20.1 PF headline is with sparsity). FP64 matrix is half of CDNA 3's. No TF32 hardware. Infinity Fabric: 7 links per GPU (a full mesh of 8), 153.6 GB/s per link both ways, 76.8 each way: 537.6 GB/s per direction, as third parties give it (https://humeconsulting.co/amd-mi355x-strong-node-level-inference-but-not-yet-rack-scale: \"~153 GB/s of bidirectional bandwidth\"; vllm-project/vllm#39080: \"(N-1) x 76.8 GB/s\"), not found in an AMD document. No vendor list price."});

  // ---------------------------------------------------------------- Apple (unified memory)
  // M2 Ultra: Apple newsroom (2023-06-05): up to 76-core GPU, up to 192 GB unified memory, 800 GB/s.
  // Usable memory: Metal's default recommendedMaxWorkingSetSize on a 192 GB M2 Ultra is 144 GiB (75 %), the most
  // the GPU may wire unless iogpu.wired_limit_mb is raised (https://github.com/raullenchai/Rapid-MLX/pull/183;
  // 75 % of 96 GB on an M2 Max: https://github.com/ggml-org/llama.cpp/issues/3213).
  v.push_back({.id = "apple-m2-ultra", .name = "Apple M2 Ultra (76-core GPU, 192GB)", .aliases = {"M2 Ultra", "Apple M2 Ultra"},
               .vendor = Vendor::apple, .architecture = "Apple M2", .form_factor = FormFactor::soc,
               .memory = 192_GB, .usable_memory = 147456_MiB, .memory_type = "LPDDR5 (unified)", .memory_bandwidth = 800_GBps,
               .pcie_generation = 0, .pcie_lanes = 0, .peer_to_peer = false,
               .unpriced = "a chip sold only inside Apple's own computers; price the computer as a system in a catalog file",
               .source = "Apple newsroom, \"Apple introduces M2 Ultra\", https://www.apple.com/newsroom/2023/06/apple-introduces-m2-ultra/",
               .as_of = recorded,
               .note = "Apple publishes no peak FLOP/s and no chip power, so rates and TDP are absent (capplan infer times a decode from memory traffic alone): the GPU has no matrix (tensor) units Apple rates, and a figure computed from core counts and clocks would not be a vendor figure. Sold only inside Mac Studio / Mac Pro (Mac Studio with M2 Ultra from $3,999 with 64 GB, June 2023)."});
  // M3 Ultra: Apple newsroom (2025-03-05): up to 80-core GPU, up to 512 GB unified memory, 819 GB/s (techpowerup).
  v.push_back({.id = "apple-m3-ultra", .name = "Apple M3 Ultra (80-core GPU, 512GB)", .aliases = {"M3 Ultra", "Apple M3 Ultra"},
               .vendor = Vendor::apple, .architecture = "Apple M3", .form_factor = FormFactor::soc,
               .memory = 512_GB, .usable_memory = 475136_MiB, .memory_type = "LPDDR5 (unified)", .memory_bandwidth = 819_GBps,
               .pcie_generation = 0, .pcie_lanes = 0, .peer_to_peer = false,
               .unpriced = "a chip sold only inside Apple's own computers; price the computer as a system in a catalog file",
               .source = "Apple newsroom, \"Apple reveals M3 Ultra\", https://www.apple.com/newsroom/2025/03/apple-reveals-m3-ultra-taking-apple-silicon-to-a-new-extreme/; bandwidth per https://techpowerup.com/news-tags/Mac%20Studio",
               .as_of = recorded,
               .note = "Usable memory: 475,136 MiB (498.2 GB, 464 GiB: 90.6 % of the machine's 512 GiB), Metal's recommendedMaxWorkingSetSize as llama.cpp prints it on a 512 GB Mac Studio M3 Ultra in public logs (\"recommendedMaxWorkingSetSize = 498216.21 MB\", llama.cpp build 84bf3c67; \"MTL0: Apple M3 Ultra (475136 MiB, ...)\"), the most the GPU is meant to hold; macOS's iogpu.wired_limit_mb can raise it. A 256 GB machine (hw.memsize 274,877,906,944 B: Apple's GB are GiB) reports 228,065 MiB (239.1 GB, 87.0 %). Apple publishes no peak FLOP/s and no chip power, so rates and TDP are absent (capplan infer times a decode from memory traffic alone) (no vendor tensor figure exists for the GPU). Sold only inside Mac Studio (from 96 GB)."});
  v.push_back({.id = "radeon-pro-w7900", .name = "AMD Radeon PRO W7900 48GB", .aliases = {"Radeon PRO W7900", "W7900", "Pro W7900"},
               .vendor = Vendor::amd, .architecture = "RDNA 3", .form_factor = FormFactor::pcie,
               .memory = 48_GB, .usable_memory = 49136_MiB, .memory_type = "GDDR6", .memory_bandwidth = 864_GBps,
               .dense = dense_rates({.fp32 = 61.3, .bf16 = 122.6, .fp16 = 122.6, .int8 = 122.6}),
               .tdp = 295_W, .ecc = true,
               .street_price = pcpp_listing("3640", "Radeon PRO W7900", "AMD 100-300000074"),
               .source = "48 GB GDDR6, 864 GB/s, 295 W, PCIe 4.0 x16 per https://www.itcreations.com/amd-gpu/amd-radeon-pro-w7900-gpu; WMMA rate per compute unit (512 FP16/BF16 FLOP and 512 INT8 ops per clock) per AMD GPUOpen, https://gpuopen.com/learn/using_matrix_core_amd_rdna4",
               .as_of = "2026-11-26",
               .note = "Usable memory: 49,136 MiB (51,522,830,336 B), the total rocm-smi and HIP report in public logs for 48 GB gfx1100 cards (\"VRAM Total Memory (B): 51522830336\"; one named a W7900D, the others only \"AMD Radeon Graphics\"): 48 GiB less 16 MiB, as the RX 7900 XTX reports 24 GiB less 16 MiB, so AMD's \"48 GB\" is binary. RDNA 3 has no tensor cores: the matrix rate is WMMA on the SIMDs, 96 CUs x 512 FLOP x ~2.5 GHz = 122.6 TF FP16/BF16 dense (computed; it equals AMD's \"peak half precision\"). FP32 61.3 counts dual issue, which compilers rarely reach (about half in practice). No FP8. ECC as AMD markets the W7000 series, not confirmed in a stored source. The widely reported $3,999 launch price was not verified."});
  v.push_back({.id = "rx-7900-xtx", .name = "AMD Radeon RX 7900 XTX 24GB", .aliases = {"RX 7900 XTX", "Radeon RX 7900 XTX", "7900 XTX", "7900XTX"},
               .vendor = Vendor::amd, .architecture = "RDNA 3", .form_factor = FormFactor::consumer,
               .memory = 24_GB, .usable_memory = 24560_MiB, .memory_type = "GDDR6", .memory_bandwidth = 960_GBps,
               .dense = dense_rates({.fp32 = 61.4, .bf16 = 122.8, .fp16 = 122.8, .int8 = 122.8}),
               .tdp = 355_W,
               .slot_width = 3, .length = 287_mm, .cooling = GpuCooling::open_air,
               .launch_price = usd("999", "2022-12-13", "AMD Radeon RX 7900 XTX launch MSRP, as reported at https://www.breakinglatest.news/technology/amd-announces-first-chiplets-gpu-new-rdna-3-architecture-rx-7900-xtx-xt-will-be-launched-on-12-13/"),
               .street_price = pcpp_listings("899.99", "1174.08", "Radeon RX 7900 XTX", 5, 28),
               .source = "24 GB GDDR6 at 20 Gbps on 384 bits (960 GB/s), 355 W per https://morethantech.it/pubblicazioni/1156_amd-alza-il-sipario-sulle-radeon-rx-7900-xtx-e-7900-xt; WMMA rate per compute unit (512 FP16/BF16 FLOP per clock) per AMD GPUOpen, https://gpuopen.com/learn/using_matrix_core_amd_rdna4",
               .as_of = "2026-11-26",
               .note = std::string("Usable memory: 24,560 MiB: rocm-smi reports \"VRAM Total Memory (B): 25753026560\" for a Radeon RX 7900 XTX in public logs. 96 CUs x 512 FLOP x ~2.5 GHz = 122.8 TF FP16/BF16 dense through WMMA (computed; AMD's \"peak half precision\" is the same number, not a sparse figure); vkpeak measured about 130 TF. FP32 61.4 counts dual issue. No FP8, no ECC. PCIe peer-to-peer under ROCm not verified (the default is kept).") + " AMD reference card: 287 mm, sold as 2.5 slots (3 blocked: TechPowerUp, \"installation requires three slots\", https://techpowerup.com/review/amd-radeon-rx-7900-xtx/3.html), three axial fans, two 8-pin connectors (https://wccftech.com/amd-radeon-rx-7900-xtx-graphics-card-rdna-3-navi-31-gpu-gets-beautiful-close-up-shots/)."});
  v.push_back({.id = "ryzen-ai-max-395", .name = "AMD Ryzen AI Max+ 395 (Radeon 8060S, 128GB unified)",
               .aliases = {"Ryzen AI Max+ 395", "AI Max+ 395", "Strix Halo", "Radeon 8060S"},
               .vendor = Vendor::amd, .architecture = "RDNA 3.5 (Strix Halo)", .form_factor = FormFactor::soc,
               .memory = 128_GB, .usable_memory = 96_GB, .memory_type = "LPDDR5X-8000 (unified)", .memory_bandwidth = 256_GBps,
               .dense = dense_rates({.fp32 = 29.7, .bf16 = 59.4, .fp16 = 59.4, .int8 = 59.4}),
               .tdp = 120_W, .pcie_generation = 0, .pcie_lanes = 0, .peer_to_peer = false,
               .unpriced = "a chip sold only inside laptops and mini PCs; price the computer as a system in a catalog file",
               .source = "16 Zen 5 cores, 40-CU Radeon 8060S up to 2.9 GHz, up to 128 GB LPDDR5X-8000 on 256 bits (256 GB/s), cTDP 45-120 W per https://www.svethardware.cz/amd-predstavuje-ryzen-ai-max-strix-halo-s-az-16-jadry-a-gpu-se-40-cu/61477; the GPU's 96 GB variable graphics memory per https://computerbase.de/2024-09/amd-strix-halo-leak (and users' BIOS reports)",
               .as_of = "2026-11-26",
               .note = "Usable memory: the BIOS's largest graphics carve-out, 96 GB of 128 (Linux's GTT can map more; not a vendor figure). Rates computed, not published: 40 CUs x 512 FLOP (RDNA 3's WMMA rate per CU, AMD GPUOpen; assumed unchanged on RDNA 3.5) x 2.9 GHz = 59.4 TF FP16/BF16; FP32 29.7 counts dual issue. Power: the whole SoC at its 120 W top cTDP (55 W default). Sold only inside laptops and mini-PCs; no chip price."});
  // Added 2026-11-26: Intel Gaudi 3 and Apple M4 Max.
  v.push_back({.id = "gaudi3", .name = "Intel Gaudi 3 128GB (OAM)", .aliases = {"Gaudi 3", "Gaudi3", "Habana Gaudi 3", "HL-325L"},
               .vendor = Vendor::intel, .architecture = "Gaudi 3", .form_factor = FormFactor::oam,
               .memory = 128_GB, .usable_memory = 131072_MiB, .memory_type = "HBM2e", .memory_bandwidth = 3.67_TBps,
               .dense = dense_rates({.bf16 = 1835}),
               .tdp = 900_W,
               // Scale-up: 21 of each chip's 24 integrated 200 GbE RoCE ports join the 8 chips of a box all-to-all
               // (3 ports to each peer): "21*200Gbps = 21*25 GB/s = 525 GB/s unidirectional" (Intel Gaudi docs,
               // Network Configuration, https://docs.habana.ai/en/latest/Management_and_Monitoring/Network_Configuration/index.html).
               .pcie_generation = 5, .pcie_lanes = 16, .chip_link_bandwidth = 525_GBps, .chip_link_domain = 8, .ecc = true,
               .board_gpus = 8, .launch_price = usd("15625", "2024-06-04", "Intel at Computex 2024: a kit of 8 Gaudi 3 on a universal baseboard lists at $125,000 (as reported by the press), / 8"),
               .source = "Intel Hot Chips 2024 deck, R. Kaplan, \"Intel Gaudi 3 AI Accelerator: Architected for Gen AI Training and Inference\" (mirror https://www.sgpjbg.com/baogao/465025.html): 128 GB HBM2e, 3.67 TB/s, 1,835 TF BF16 and FP8 matrix, 900 W air-cooled OAM, 24 x 200 GbE RoCE, PCIe Gen5 x16",
               .as_of = "2026-11-26",
               .note = "Usable memory: 131,072 MiB (128 GiB), the total hl-smi reports for the HL-325L as public hl-smi parsers record it in their test fixtures (\"HL-325L, ... 131072 MiB\" in hl-smi's CSV, driver 1.24.1); no other log was found. Dense as Intel prints it (no sparse figure). FP8 runs at the BF16 rate on the MME (1,835 TF); no FP8 rate is stored (the catalog's sparse-figure check expects FP8 = 2 x BF16, true of every other part), so FP8 work on Gaudi 3 is not timed. No FP16, FP32 or INT8 rate published, so those are not stored. Scale-up and scale-out go over 24 x 200 GbE RoCE ports on the die (1.2 TB/s bidirectional), not NVLink or Infinity Fabric. The price is the kit's list price / 8."});
  v.push_back({.id = "apple-m4-max", .name = "Apple M4 Max (40-core GPU, 128GB)", .aliases = {"M4 Max", "Apple M4 Max"},
               .vendor = Vendor::apple, .architecture = "Apple M4", .form_factor = FormFactor::soc,
               .memory = 128_GB, .usable_memory = 98304_MiB, .memory_type = "LPDDR5X (unified)", .memory_bandwidth = 546_GBps,
               .pcie_generation = 0, .pcie_lanes = 0, .peer_to_peer = false,
               .unpriced = "a chip sold only inside Apple's own computers; price the computer as a system in a catalog file",
               .source = "Apple M4 Max: 16-core CPU, 40-core GPU, up to 128 GB unified memory per http://www.notebookcheck.net/Apple-M4-Max-official-with-incremental-upgrades-over-the-M3-Max.911098.0.html; 546 GB/s per https://macmegasite.com/2024/10/30/m4-max-chip-has-16-core-cpu-40-core-gpu-and-35-increase-in-memory-bandwidth",
               .as_of = "2026-11-26",
               .note = "Usable memory: Metal's default working set, 75 % of the unified memory (96 GiB of 128; the same rule as the M2 Ultra entry: raullenchai/Rapid-MLX#183, ggml-org/llama.cpp#3213); `sudo sysctl iogpu.wired_limit_mb` raises it. Apple publishes no peak FLOP/s and no chip power, so rates and TDP are absent (capplan infer times a decode from memory traffic alone). Sold inside MacBook Pro (October 2024) and Mac Studio (March 2025, from $1,999 with 36 GB)."});
  // Added 2026-11-29: rent-only accelerators, Google's TPUs and AWS Trainium. No vendor publishes a chip
  // power for these (Google gave one last for TPU v4), so their energy and carbon are not estimated.
  v.push_back({.id = "tpu-v5e", .name = "Google Cloud TPU v5e", .aliases = {"TPU v5e", "v5e", "TPU v5 lite", "v5litepod", "tpu-v5-lite-podslice"},
               .vendor = Vendor::google, .architecture = "TPU v5e", .form_factor = FormFactor::cloud,
               .memory = 16_GB, .memory_type = "HBM2", .memory_bandwidth = 819_GBps,
               .dense = dense_rates({.bf16 = 197, .int8 = 393}),
               .pcie_generation = 0, .pcie_lanes = 0, .chip_link_bandwidth = 200_GBps, .chip_link_domain = 256,
               .source = "Google Cloud, TPU v5e (https://docs.cloud.google.com/tpu/docs/v5e): \"Peak compute per chip (bf16) | 197 TFLOPs\", \"(Int8) | 393 TOPs\", \"HBM2 capacity and bandwidth | 16 GB, 819 GBps\", \"Bidirectional inter-chip interconnect (ICI) bandwidth (per chip) | 400 GBps\", \"TPU Pod size | 256 chips\", \"2D torus\", \"All-reduce bandwidth per Pod | 51.2 TB/s\", \"Chips per host | 8\", \"Per-host NIC configuration | 2 x 100 Gbps NIC\"",
               .as_of = "2026-11-29",
               .note = "Rent-only (Google Cloud). ICI: 51.2 TB/s of all-reduce bandwidth per 256-chip pod = 200 GB/s per chip, half the 400 GB/s bidirectional figure; the pod is the largest slice, and beyond it slices talk over the data-centre network (2 x 100 Gb/s per 8-chip host: 25 Gb/s per chip). The bandwidth is the chip table's 819 GB/s; a later version of the page says 800 GiB/s (859 GB/s). Usable memory: no runtime-reported figure was found. No FP8 rate and no chip power are published; no PCIe figure for the host link."});
  v.push_back({.id = "tpu-v5p", .name = "Google Cloud TPU v5p", .aliases = {"TPU v5p", "v5p"},
               .vendor = Vendor::google, .architecture = "TPU v5p", .form_factor = FormFactor::cloud,
               .memory = 95_GiB, .memory_type = "HBM2e", .memory_bandwidth = 2765_GBps,
               .dense = dense_rates({.bf16 = 459}),
               .pcie_generation = 0, .pcie_lanes = 0, .chip_link_bandwidth = 600_GBps, .chip_link_domain = 6144,
               .source = "Google Cloud, TPU v5p (https://docs.cloud.google.com/tpu/docs/v5p): \"Peak compute per chip (BF16) (TFLOPs) | 459\", \"(FP8) (TFLOPs) | 459\", \"HBM capacity per chip (GiB) | 95\", \"HBM bandwidth per chip (GBps) | 2765\", \"Bidirectional inter-chip interconnect (ICI) bandwidth per chip (GBps) | 1200\", \"Data center network (DCN) bandwidth per chip (Gbps) | 50\", \"3D torus\", \"Number of chips per pod | 8960\"; v5p-training: \"The largest job that can be scheduled is a 96 cube (6144 chip) job\"",
               .as_of = "2026-11-29",
               .note = "Rent-only (Google Cloud). Memory: 95 GiB (102 GB), as the page states it in GiB; no runtime-reported figure was found. ICI: no all-reduce figure is published for v5p; capplan takes half the 1,200 GB/s bidirectional figure, 600 GB/s, the ratio the v5e and v6e pages' all-reduce figures have. The chip-link domain is the largest slice, 6,144 chips (8,960 in the pod); beyond it, 50 Gb/s of data-centre network per chip. FP8 runs at the BF16 rate (459) and is not stored, as for Gaudi 3: the catalog's sparse-figure check expects FP8 = 2 x BF16. An older page gave 2,765 GB/s as well; one version prints 2,575 GiB/s. No chip power is published."});
  v.push_back({.id = "tpu-v6e", .name = "Google Cloud TPU v6e (Trillium)", .aliases = {"TPU v6e", "v6e", "Trillium", "TPU Trillium"},
               .vendor = Vendor::google, .architecture = "TPU v6e", .form_factor = FormFactor::cloud,
               .memory = 32_GB, .memory_type = "HBM", .memory_bandwidth = 1638_GBps,
               .dense = dense_rates({.bf16 = 918, .int8 = 1836}),
               .pcie_generation = 5, .pcie_lanes = 16, .chip_link_bandwidth = 400_GBps, .chip_link_domain = 256,
               .source = "Google Cloud, TPU v6e (https://docs.cloud.google.com/tpu/docs/v6e.md.txt): \"Peak compute per chip (bf16) | 918 TFLOPs\", \"(Int8) | 1836 TOPs\", \"HBM capacity per chip | 32 GB\", \"HBM bandwidth per chip | 1638 GBps\", \"Bidirectional inter-chip interconnect (ICI) bandwidth (per chip) | 800 GBps\", \"TPU Pod size | 256 chips\", \"2D torus\", \"All-reduce bandwidth per Pod | 102.4 TB/s\", \"Chips per host | 8\", \"Per-host NIC configuration | 4 x 200 Gbps NIC\"; \"connects to the host through a PCIe Gen5 interface\"",
               .as_of = "2026-11-29",
               .note = "Rent-only (Google Cloud). ICI: 102.4 TB/s of all-reduce bandwidth per 256-chip pod = 400 GB/s per chip; beyond the pod, 4 x 200 Gb/s per 8-chip host (100 Gb/s per chip). Host link PCIe Gen5 as Google states it; the lane count is not stated (x16 assumed). Earlier versions of the page gave 1,600 and 1,640 GB/s. Google's TPU7x page lists v6e FP8 at 918, the BF16 rate: not stored (see tpu-v5p). Usable memory: no runtime-reported figure was found. No chip power is published."});
  v.push_back({.id = "tpu7x", .name = "Google Cloud TPU7x (Ironwood)", .aliases = {"TPU7x", "TPU v7", "Ironwood", "TPU Ironwood"},
               .vendor = Vendor::google, .architecture = "TPU7x", .form_factor = FormFactor::cloud,
               .memory = 192_GiB, .memory_type = "HBM3e", .memory_bandwidth = 7380_GBps,
               .dense = dense_rates({.bf16 = 2307, .fp8 = 4614}),
               .pcie_generation = 0, .pcie_lanes = 0, .chip_link_bandwidth = 600_GBps, .chip_link_domain = 9216,
               .source = "Google Cloud, TPU7x (https://docs.cloud.google.com/tpu/docs/tpu7x): \"Number of chips per pod | 9216\", \"Peak compute per chip (BF16) (TFLOPs) | 2307\", \"(FP8) | 4614\", \"HBM capacity per chip (GiB) | 192\", \"HBM bandwidth per chip (GBps) | 7380\", \"Bidirectional inter-chip interconnect (ICI) bandwidth per chip (GBps) | 1200\", \"Data center network (DCN) bandwidth per chip (Gbps) | 100\"",
               .as_of = "2026-11-29",
               .note = "Rent-only (Google Cloud). Memory: 192 GiB (206 GB), as the page states it in GiB; no runtime-reported figure was found. ICI: no all-reduce figure is published; half the 1,200 GB/s bidirectional figure (600 GB/s) as for v5p, over the 9,216-chip pod (the topology is not stated); 100 Gb/s of data-centre network per chip beyond it. No price was found in a stored source, and no chip power."});
  v.push_back({.id = "trainium2", .name = "AWS Trainium2", .aliases = {"Trainium2", "Trainium 2", "Trn2", "trn2"},
               .vendor = Vendor::aws, .architecture = "Trainium2", .form_factor = FormFactor::cloud,
               .memory = 96_GiB, .memory_type = "HBM3", .memory_bandwidth = 2.9_TBps,
               .dense = dense_rates({.fp32 = 181, .bf16 = 667, .fp16 = 667, .fp8 = 1299}),
               .pcie_generation = 0, .pcie_lanes = 0, .chip_link_bandwidth = 512_GBps, .chip_link_domain = 16,
               .source = "AWS Neuron documentation, Trainium2 architecture (aws-neuron/aws-neuron-sdk about-neuron/arch/neuron-hardware/trainium2.rst at 7c165a3e): \"1,299 FP8 TFLOPS\", \"667 BF16/FP16/TF32 TFLOPS\", \"2,563 FP8/FP16/BF16/TF32 sparse TFLOPS\", \"181 FP32 TFLOPS\", \"96 GiB of device memory with 2.9 TB/sec of bandwidth\"; Trn2 architecture (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/neuron-hardware/trn2-arch.html): \"16 Trainium2 chips are connected using a 4x4, 2D Torus topology\", \"Intra-instance NeuronLink-v3 bandwidth (GB/sec/chip) 1,024\", \"EFAv3 bandwidth (Gbps) 3,200\"",
               .as_of = "2026-11-29",
               .note = "Rent-only (AWS EC2 trn2.48xlarge: 16 chips). Memory: 96 GiB (103 GB). NeuronLink-v3: 1,024 GB/s a chip inside an instance, taken as 512 GB/s a direction for an all-reduce (half, as for the TPUs' bidirectional figures); the chip-level page says 1.28 TB/s. A Trn2 UltraServer joins four trn2u.48xlarge (64 chips) in rings at 256 GB/s a chip between instances, not modelled: capplan's domain is one instance, and instances talk over EFA (3,200 Gb/s per 16 chips: 200 Gb/s per chip). Usable memory: no runtime-reported figure was found. AWS publishes no chip power. The dense rates are AWS's; its sparse figure (2,563) is not stored, nor TF32, which AWS gives at the BF16 rate (667) where the catalog's sparse-figure check expects BF16 = 2 x TF32 (FP32 work falls back to the 181 TF FP32 rate)."});
  v.push_back({.id = "trainium", .name = "AWS Trainium (Trn1)", .aliases = {"Trainium", "Trainium1", "Trn1", "trn1"},
               .vendor = Vendor::aws, .architecture = "Trainium", .form_factor = FormFactor::cloud,
               .memory = 32_GiB, .memory_type = "HBM2e", .memory_bandwidth = 820_GiBps,
               .dense = dense_rates({.fp32 = 47.5, .bf16 = 190, .fp16 = 190, .int8 = 380}),
               .pcie_generation = 0, .pcie_lanes = 0, .chip_link_bandwidth = 192_GiBps, .chip_link_domain = 16,
               .source = "AWS Neuron documentation, Trainium architecture (aws-neuron/aws-neuron-sdk general/arch/neuron-hardware/trainium.rst): \"380 INT8 TOPS, 190 FP16/BF16/cFP8/TF32 TFLOPS, and 47.5 FP32 TFLOP\", \"32 GiB of device memory ... with 820 GiB/sec of bandwidth\"; trn1-arch.rst: Trn1.32xlarge 16 chips, \"NeuronLink-v2 device-to-device (GiB/sec/device) 384\", EFA 800 Gbps",
               .as_of = "2026-11-29",
               .note = "Rent-only (AWS EC2 trn1.32xlarge: 16 chips; trn1n.32xlarge doubles NeuronLink to 768 GiB/s and EFA to 1,600 Gb/s). Memory 32 GiB (34.4 GB) at 820 GiB/s (880 GB/s); no runtime-reported usable figure was found. NeuronLink-v2: 384 GiB/s a chip, taken as 192 GiB/s (206 GB/s) a direction; the page calls the topology a 4D hypercube in one place and a 2D torus in another. cFP8 and TF32 run at the BF16 rate (190) and are not stored (see tpu-v5p and trainium2); an older version gave 420 INT8 TOPS. No chip power is published."});
  return v;
}

CAPPLAN_CATALOG_DATA inline std::vector<CpuSpec> cpus() {
  using namespace capplan::literals;
  std::vector<CpuSpec> v;
  // EPYC 7763: AMD product page: 64 cores / 128 threads, default TDP 280 W, 128 PCIe 4.0 lanes, 8 channels
  // DDR4-3200, up to 4 TB; launch 1ku price $7,890 (AMD EPYC 7003 launch, 2021-03-15).
  // EPYC in two sockets: 64 of each socket's 128 lanes link the sockets, 128 left in all (AnandTech, "AMD Rome
  // Second Generation EPYC Review", 2019-08-07, PCIe 4.0 page: "to enable a dual socket configuration, 64 PCIe lanes
  // from each CPU were used to link them together ... AMD still allows for 64"; a board maker may trade one link
  // for 32 more lanes, 160 in all, which socket_link_lanes does not assume). The same for 7002, 7003 and 9004.
  v.push_back({.id = "epyc-7763", .name = "AMD EPYC 7763", .aliases = {"EPYC 7763"}, .vendor = Vendor::amd,
               .architecture = "Zen 3 (Milan)", .socket = "SP3", .cores = 64, .threads = 128, .tdp = 280_W, .pcie_generation = 4, .pcie_lanes = 128, .socket_link_lanes = 64,
               .memory_type = "DDR4-3200", .memory_channels = 8, .max_memory = 4_TB,
               .launch_price = usd("7890", "2021-03-15", "AMD EPYC 7003 launch price list (1ku), https://techgage.com/article/amd-epyc-milan-launch-performance/"),
               .source = "AMD EPYC 7763 product page, https://www.amd.com/en/products/cpu/amd-epyc-7763; platform figures per https://www.anandtech.com/show/16529/amd-epyc-milan-review",
               .as_of = recorded,
               .note = "Checked against stored copies: 64C/128T, cTDP 225-280 W, $7,890 (1ku) at techgage; 8 x DDR4-3200, 4 TB, 128 PCIe 4.0 lanes at AnandTech. DDR4 only: the platform (SP3) does not take DDR5."});
  // EPYC 7742: AMD product page: 64 / 128, 225 W, 128 PCIe 4.0 lanes, 8 ch DDR4-3200; launch 1ku $6,950 (2019-08-07).
  v.push_back({.id = "epyc-7742", .name = "AMD EPYC 7742", .aliases = {"EPYC 7742"}, .vendor = Vendor::amd,
               .architecture = "Zen 2 (Rome)", .socket = "SP3", .cores = 64, .threads = 128, .tdp = 225_W, .pcie_generation = 4, .pcie_lanes = 128, .socket_link_lanes = 64,
               .memory_type = "DDR4-3200", .memory_channels = 8, .max_memory = 4_TB,
               .launch_price = usd("6950", "2019-08-07", "AMD EPYC 7002 series launch price list (1ku), as reported by the press"),
               .source = "AMD EPYC 7742 product page, https://www.amd.com/en/products/cpu/amd-epyc-7742", .as_of = recorded,
               .note = src::unverified});
  // EPYC 9654: AMD product page: 96 / 192, 360 W, 128 PCIe 5.0 lanes, 12 ch DDR5-4800, 6 TB; launch 1ku $11,805 (2022-11-10).
  v.push_back({.id = "epyc-9654", .name = "AMD EPYC 9654", .aliases = {"EPYC 9654"}, .vendor = Vendor::amd,
               .architecture = "Zen 4 (Genoa)", .socket = "SP5", .cores = 96, .threads = 192, .tdp = 360_W, .pcie_generation = 5, .pcie_lanes = 128, .socket_link_lanes = 64,
               .memory_type = "DDR5-4800", .memory_channels = 12, .max_memory = 6_TB,
               .launch_price = usd("11805", "2022-11-10", "AMD EPYC 9004 series launch price list (1ku), as reported by the press"),
               .source = "AMD EPYC 9654 product page, https://www.amd.com/en/products/cpu/amd-epyc-9654", .as_of = recorded,
               .note = src::unverified});
  // Threadripper PRO 5975WX: AMD product page: 32 / 64, 280 W, 128 PCIe 4.0 lanes, 8 ch DDR4-3200, 2 TB; SEP $3,299.
  v.push_back({.id = "threadripper-pro-5975wx", .name = "AMD Ryzen Threadripper PRO 5975WX", .aliases = {"Threadripper PRO 5975WX", "5975WX"},
               .vendor = Vendor::amd, .architecture = "Zen 3 (Chagall)", .socket = "sWRX8", .cores = 32, .threads = 64, .tdp = 280_W,
               .pcie_generation = 4, .pcie_lanes = 128, .memory_type = "DDR4-3200", .memory_channels = 8, .max_memory = 2_TB,
               .launch_price = usd("3299", "2022-03-08", "AMD Threadripper PRO 5000WX launch SEP, as reported by the press"),
               .source = "AMD Threadripper PRO 5975WX product page, https://www.amd.com/en/products/cpu/amd-ryzen-threadripper-pro-5975wx",
               .as_of = recorded, .note = src::unverified});
  // Ryzen 9 7950X: AMD product page: 16 / 32, 170 W, 28 PCIe 5.0 lanes (24 usable: 4 link the chipset), 2 ch
  // DDR5-5200; launch $699. PPT 230 W: AMD to Tom's Hardware (2022-05, reported by TechPowerUp, "AMD Clarifies
  // Ryzen 7000 TDP and Power Limits: 170W TDP, 230W PPT"): "TDP*1.35 is the standard calculation for TDP v. PPT
  // for AMD sockets in the Zen era ... (170*1.35=229.5)". DDR5-5200 with one DIMM a channel, DDR5-3600 with two (AMD's specification, as
  // TechSpot reported it, "AMD Ryzen 7000's memory sweet spot will be DDR5-6000", 2022-09).
  v.push_back({.id = "ryzen-9-7950x", .name = "AMD Ryzen 9 7950X", .aliases = {"Ryzen 9 7950X", "7950X"}, .vendor = Vendor::amd,
               .architecture = "Zen 4 (Raphael)", .socket = "AM5", .cores = 16, .threads = 32, .tdp = 170_W, .max_power = 230_W, .pcie_generation = 5, .pcie_lanes = 28,
               .chipset_lanes = 4, .memory_type = "DDR5-5200", .memory_channels = 2, .memory_speed_2dpc = 3600, .max_memory = 192_GB,
               .launch_price = usd("699", "2022-09-27", "AMD Ryzen 7000 launch SEP, https://www.amd.com/en/products/cpu/amd-ryzen-9-7950x"),
               .street_price = usd("449.96", src::pcpp_date, (std::string(src::pcpp) + "; cpu.csv")),
               .source = "AMD Ryzen 9 7950X product page, https://www.amd.com/en/products/cpu/amd-ryzen-9-7950x", .as_of = recorded,
               .note = std::string(src::unverified) + " 192 GB maximum after the 2023 AGESA update (128 GB at launch)."});
  // Xeon Platinum 8480+: Intel ARK: 56 / 112, 350 W, 80 PCIe 5.0 lanes, 8 ch DDR5-4800, 4 TB; RCP $10,710. DDR5-4800
  // with one DIMM a channel, 4,400 MT/s with two (WWT, "Memory Population Guidelines for Intel 4th Gen Xeon Scalable
  // Processors": "When the second DIMM in each memory channel is populated, the speed ... is reduced to 4400MT/s").
  v.push_back({.id = "xeon-platinum-8480plus", .name = "Intel Xeon Platinum 8480+", .aliases = {"Xeon 8480+", "Xeon Platinum 8480+", "8480+"},
               .vendor = Vendor::intel, .architecture = "Sapphire Rapids", .socket = "LGA4677", .cores = 56, .threads = 112, .tdp = 350_W,
               .pcie_generation = 5, .pcie_lanes = 80, .memory_type = "DDR5-4800", .memory_channels = 8, .memory_speed_2dpc = 4400, .max_memory = 4_TB,
               .launch_price = usd("10710", "2023-01-10", "Intel ARK recommended customer price, https://www.intel.com/content/www/us/en/products/sku/231746/intel-xeon-platinum-8480-processor-105m-cache-2-00-ghz/specifications.html"),
               .source = "Intel ARK, https://www.intel.com/content/www/us/en/products/sku/231746/intel-xeon-platinum-8480-processor-105m-cache-2-00-ghz/specifications.html",
               .as_of = recorded, .note = std::string(src::unverified) + " DGX H100 ships the 8480C variant (not sold separately)."});
  // Xeon Platinum 8570 (Emerald Rapids): the DGX B200's CPU, "56 cores each 2.1/4 GHz (Base/Max boost)" (NVIDIA DGX
  // B200 User Guide); socket, TDP, lanes and memory as Intel ARK gives them for the family (recalled).
  v.push_back({.id = "xeon-platinum-8570", .name = "Intel Xeon Platinum 8570", .aliases = {"Xeon 8570", "Xeon Platinum 8570", "8570"},
               .vendor = Vendor::intel, .architecture = "Emerald Rapids", .socket = "LGA4677", .cores = 56, .threads = 112, .tdp = 350_W,
               .pcie_generation = 5, .pcie_lanes = 80, .memory_type = "DDR5-5600", .memory_channels = 8, .max_memory = 4_TB,
               .source = "NVIDIA DGX B200 User Guide, Hardware Overview (\"2 x Intel Xeon 8570 PCIe Gen5 CPUs with 56 cores each 2.1/4 GHz\"), https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html",
               .as_of = "2026-11-29",
               .note = std::string("Cores and clocks from NVIDIA's guide; socket, 350 W TDP, 80 PCIe 5.0 lanes and 8 channels of DDR5-5600 from Intel ARK, recalled. ") + src::unverified + " No price recorded: the DGX B200 that ships it has a price of its own."});
  // Core i9-13900K: Intel ARK: 24 cores (8P+16E) / 32 threads, 125 W processor base power, 253 W maximum turbo
  // power (max_power: PL2; Intel's 2024 default profiles: Baseline PL1 125 / PL2 188 W, Performance 125 / 253 W,
  // Extreme 253 / 253 W, as Hardware Times reported them, 2024-05), 20 lanes (16 PCIe 5.0 + 4 PCIe 4.0),
  // 2 ch DDR5-5600, 128 GB (192 GB later); RCP $589-599.
  v.push_back({.id = "core-i9-13900k", .name = "Intel Core i9-13900K", .aliases = {"i9-13900K", "13900K"}, .vendor = Vendor::intel,
               .architecture = "Raptor Lake", .socket = "LGA1700", .cores = 24, .threads = 32, .tdp = 125_W, .max_power = 253_W, .pcie_generation = 5, .pcie_lanes = 20,
               .memory_type = "DDR5-5600", .memory_channels = 2, .max_memory = 192_GB,
               .launch_price = usd_range("589", "599", "2022-10-20", "Intel ARK recommended customer price, https://www.intel.com/content/www/us/en/products/sku/230496/intel-core-i913900k-processor-36m-cache-up-to-5-80-ghz/specifications.html"),
               .street_price = usd("434", src::pcpp_date, (std::string(src::pcpp) + "; cpu.csv")),
               .source = "Intel ARK, https://www.intel.com/content/www/us/en/products/sku/230496/intel-core-i913900k-processor-36m-cache-up-to-5-80-ghz/specifications.html",
               .as_of = recorded, .note = std::string(src::unverified) + " TDP is processor base power; maximum turbo power (max_power) is 253 W."});
  return v;
}

CAPPLAN_CATALOG_DATA inline std::vector<MemoryModule> memory_modules() {
  using namespace capplan::literals;
  std::vector<MemoryModule> v;
  // Generic JEDEC modules: speed grades from JESD79-4 (DDR4) and JESD79-5 (DDR5). No power is recorded: module power
  // depends on the DRAM die and rank count and no vendor publishes one figure per module (Crucial/Micron: "we do not
  // advertise specific power usage for any of our memory", https://www.crucial.com/support/articles-faq-memory/how-much-power-does-memory-use). Prices move weekly; the
  // 2025-26 DRAM shortage roughly tripled DDR5 retail prices (TechRadar, 2026-01-08), so check the dates.
  // Price: Samsung M393A8G40AB2-CWE (64 GB DDR4-3200 ECC RDIMM, 2Rx4), eBay active buy-it-now asks of 2026-06-30,
  // n = 26: $500-668, as recorded in a public hardware price-tracker seed file on GitHub.
  v.push_back({.id = "ddr4-3200-rdimm-64gb", .name = "DDR4-3200 64GB ECC RDIMM", .aliases = {"DDR4 64GB RDIMM"},
               .type = DramType::ddr4, .speed_mts = 3200, .size = 64_GB, .registered = true, .ecc = true,
               .street_price = usd_range("500", "668", "2026-06-30", "eBay active listings of Samsung M393A8G40AB2-CWE (64 GB DDR4-3200 ECC RDIMM), n = 26, read through the eBay Browse API on 2026-06-30 and recorded in a \"Hardware Deal Tracker\" seed file on GitHub (\"Retuned to live eBay 2026-06-30 (Browse active asks, n=26): $500-668\")"),
               .source = "JEDEC JESD79-4 DDR4 speed grade; generic module, priced as the Samsung M393A8G40AB2-CWE (https://semiconductor.samsung.com/dram/module/rdimm/m393a8g40ab2-cwe/)", .as_of = recorded,
               .note = "Generic entry: no vendor power figure (Micron's Crucial FAQ: \"we do not advertise specific power usage for any of our memory\"; capplan power's allowance, 5 W per module, matches Crucial's rule of thumb for consumer modules). The price is a range of eBay asking prices (condition not stated by the tracker), read from a third-party copy, not from eBay itself. It is volatile: the same tracker's 2026-05-16 version put this module's eBay benchmark median at $145 (homelab lots at about $90 a module), and the 2026-06-30 one notes DDR4 prices rising and a Micron MTA36ASF8G72PZ-3G2 equivalent asked from about $235."});
  v.push_back({.id = "ddr5-4800-rdimm-64gb", .name = "DDR5-4800 64GB ECC RDIMM", .aliases = {"DDR5 64GB RDIMM"},
               .type = DramType::ddr5, .speed_mts = 4800, .size = 64_GB, .registered = true, .ecc = true,
               .source = "JEDEC JESD79-5 DDR5 speed grade; generic module", .as_of = recorded,
               .note = "Generic entry: no vendor power figure or dated price recorded."});
  // Price: Crucial Pro 64 GB (2 x 32 GB) DDR5-5600 CL46 kit, $139.99 on PCPartPicker (2025-07-23): $69.995 per module.
  v.push_back({.id = "ddr5-5600-udimm-32gb", .name = "DDR5-5600 32GB UDIMM", .aliases = {"DDR5 32GB UDIMM"},
               .type = DramType::ddr5, .speed_mts = 5600, .size = 32_GB,
               .street_price = usd("69.995", src::pcpp_date, (std::string(src::pcpp) + "; Crucial Pro 64 GB (2 x 32 GB) DDR5-5600 kit at $139.99, halved per module")),
               .source = "JEDEC JESD79-5 DDR5 speed grade; generic module", .as_of = recorded,
               .note = "No vendor power figure. The price predates the DRAM shortage: on 2026-01-08 TechRadar quoted a single 32 GB DDR5-5200 module at $325.99 (https://www.techradar.com/pro/2026-could-well-be-the-year-of-the-usd500-32gb-ddr5-memory-module-experts-predict-ddr-will-go-up-by-60-percent-in-q1-2026-alone), so treat it as a floor; the stale-price warning flags it."});
  return v;
}

CAPPLAN_CATALOG_DATA inline std::vector<StorageDevice> storage_devices() {
  using namespace capplan::literals;
  std::vector<StorageDevice> v;
  // Samsung 990 PRO 2TB: Samsung datasheet: PCIe 4.0 x4 NVMe, sequential read 7,450 MB/s, write 6,900 MB/s;
  // launch price $309.99 (Samsung newsroom, Oct 2022).
  v.push_back({.id = "samsung-990-pro-2tb", .name = "Samsung 990 PRO 2TB", .aliases = {"990 PRO 2TB"},
               .kind = StorageKind::nvme_gen4, .capacity = 2_TB, .sequential_read = 7450_MBps, .sequential_write = 6900_MBps,
               .launch_price = usd("309.99", "2022-10-18", "Samsung newsroom, 990 PRO launch, https://news.samsung.com/global/samsung-electronics-launches-990-pro-ssd"),
               .street_price = usd("149.99", src::pcpp_date, src::pcpp),
               .source = "Samsung 990 PRO data sheet, https://semiconductor.samsung.com/consumer-storage/internal-ssd/990-pro/",
               .as_of = recorded, .note = std::string(src::unverified) + " Street price: PCPartPicker, 2 TB model. Power not recorded."});
  // Crucial T705 2TB: Micron product page: PCIe 5.0 x4 NVMe, up to 14,500 MB/s read, 12,700 MB/s write.
  v.push_back({.id = "crucial-t705-2tb", .name = "Crucial T705 2TB", .aliases = {"T705 2TB"},
               .kind = StorageKind::nvme_gen5, .capacity = 2_TB, .sequential_read = 14500_MBps, .sequential_write = 12700_MBps,
               .street_price = usd("199.99", src::pcpp_date, src::pcpp),
               .source = "Crucial T705 product page, https://www.crucial.com/ssd/t705/ct2000t705ssd3", .as_of = recorded,
               .note = std::string(src::unverified) + " Street price: PCPartPicker, 2 TB model. Power not recorded."});
  // Samsung 870 EVO 2TB: Samsung datasheet: SATA 6 Gb/s, 560 MB/s read, 530 MB/s write.
  v.push_back({.id = "samsung-870-evo-2tb", .name = "Samsung 870 EVO 2TB", .aliases = {"870 EVO 2TB"},
               .kind = StorageKind::sata_ssd, .capacity = 2_TB, .sequential_read = 560_MBps, .sequential_write = 530_MBps,
               .street_price = usd("168.74", src::pcpp_date, src::pcpp),
               .source = "Samsung 870 EVO data sheet, https://semiconductor.samsung.com/consumer-storage/internal-ssd/870evo/",
               .as_of = recorded, .note = std::string(src::unverified) + " Street price: PCPartPicker, 2 TB model. Power not recorded."});
  // Seagate Exos X18 18TB: Seagate datasheet: max sustained transfer 270 MB/s (also quoted by ComputerBase, 2022-11).
  // Price: ST18000NM000J listings of 2026-09-22: $369.99 manufacturer-recertified (serverpartdeals) to $529.99 new
  // (Newegg marketplace), as recorded in a public price-tracker seed file.
  v.push_back({.id = "seagate-exos-x18-18tb", .name = "Seagate Exos X18 18TB", .aliases = {"Exos X18 18TB"},
               .kind = StorageKind::hdd, .capacity = 18_TB, .sequential_read = 270_MBps, .sequential_write = 270_MBps,
               .street_price = usd_range("369.99", "529.99", "2026-09-22", "ST18000NM000J listings: https://www.serverpartdeals.com/collections/hard-drives/products/seagate-exos-x18-st18000nm000j-18tb-7-2k-rpm-sata-6gb-s-512e-4kn-256mb-3-5-hdd (recertified) and https://www.newegg.com/seagate-exos-x18-st18000nm000j-18tb/p/1B4-00VK-00616 (new), as recorded on 2026-09-22 in a DiskTracker seed file on GitHub"),
               .source = "Seagate Exos X18 data sheet, https://www.seagate.com/products/enterprise-drives/exos-x/x18/; 270 MB/s also in https://computerbase.de/2022-11/seagate-exos-2x18-erste-hdd-mit-550-mb-s-dank-dual-aktor-mach-2-enthuellt",
               .as_of = recorded, .note = "Price range: low end recertified, high end new; read from a third-party copy of the listings, not the stores. Power not recorded."});
  return v;
}

CAPPLAN_CATALOG_DATA inline std::vector<PowerSupply> power_supplies() {
  using namespace capplan::literals;
  std::vector<PowerSupply> v;
  // Rated outputs and 80 PLUS tiers from the makers' product pages (certified at 115 V internal).
  v.push_back({.id = "corsair-rm850x", .name = "Corsair RM850x (850 W, 80 PLUS Gold)", .aliases = {"RM850x"},
               .rated = 850_W, .tier = EightyPlusTier::gold,
               .street_price = usd("198.98", src::pcpp_date, src::pcpp),
               .source = "Corsair RM850x product page, https://www.corsair.com/us/en/p/psu/cp-9020200-na/rm850x-fully-modular-low-noise-atx-power-supply-cp-9020200-na",
               .as_of = recorded, .note = "Street price: PCPartPicker's \"Corsair RM850x (2021)\" listing (the 2024 revision listed at $144.99)."});
  v.push_back({.id = "corsair-rm1000x", .name = "Corsair RM1000x (1000 W, 80 PLUS Gold)", .aliases = {"RM1000x"},
               .rated = 1000_W, .tier = EightyPlusTier::gold,
               .street_price = usd("209.95", src::pcpp_date, src::pcpp),
               .source = "Corsair RM1000x product page, https://www.corsair.com/us/en/p/psu/cp-9020201-na/rm1000x-fully-modular-low-noise-atx-power-supply-cp-9020201-na",
               .as_of = recorded, .note = "Street price: PCPartPicker's \"Corsair RM1000x (2024)\" listing, the current revision of the same 1,000 W unit (the 2021 revision had no price listed)."});
  v.push_back({.id = "corsair-hx1500i", .name = "Corsair HX1500i (1500 W, 80 PLUS Platinum)", .aliases = {"HX1500i"},
               .rated = 1500_W, .tier = EightyPlusTier::platinum,
               .street_price = usd("258.99", src::pcpp_date, src::pcpp),
               .source = "Corsair HX1500i product page, https://www.corsair.com/us/en/p/psu/cp-9020215-na/hx1500i-fully-modular-ultra-low-noise-platinum-atx-1500-watt-pc-power-supply-cp-9020215-na",
               .as_of = recorded, .note = "Street price: PCPartPicker's \"Corsair HX1500i (2023)\" listing (1,500 W, Platinum)."});
  v.push_back({.id = "corsair-ax1600i", .name = "Corsair AX1600i (1600 W, 80 PLUS Titanium)", .aliases = {"AX1600i"},
               .rated = 1600_W, .tier = EightyPlusTier::titanium,
               .street_price = usd("609.99", src::pcpp_date, src::pcpp),
               .source = "Corsair AX1600i product page, https://www.corsair.com/us/en/p/psu/cp-9020087-na/ax1600i-digital-atx-power-supply-1600-watt-fully-modular-psu-cp-9020087-na",
               .as_of = recorded, .note = "Street price: PCPartPicker (1,600 W, Titanium)."});
  return v;
}

CAPPLAN_CATALOG_DATA inline std::vector<Chassis> chassis() {
  std::vector<Chassis> v;
  // Priced as the Fractal Design Define 7 XL (ATX full tower, 9 expansion slots): $224.99 on PCPartPicker.
  v.push_back({.id = "generic-atx-tower", .name = "ATX full tower (generic; priced as Fractal Design Define 7 XL)", .aliases = {"ATX tower"},
               .rack_units = 0, .max_gpus = 2, .psu_bays = 1, .max_board = BoardFormFactor::atx, .expansion_slots = 9,
               .street_price = usd("224.99", src::pcpp_date, (std::string(src::pcpp) + "; Fractal Design Define 7 XL, ATX Full Tower")),
               .source = "Generic entry: an ATX full tower holds two wide GPUs (the Define 7 XL has 9 expansion slots, Fractal Design product page https://www.fractal-design.com/products/cases/define/define-7-xl/)",
               .as_of = recorded, .note = "The price is one specific full tower's; a smaller case costs less. Nine horizontal expansion slots (Hardwareluxx review, \"neun horizontale und drei vertikale Slots\", https://hardwareluxx.de/index.php/artikel/hardware/gehaeuse/52338-fractal-design-define-7-und-define-7-xl-im-test-die-glorreichen-sieben.html?start=2). Listed for ATX boards as its name says; the longest card it takes is not recorded. A desktop case: passively cooled data-centre GPUs are not cooled in it."});
  // Priced as the SilverStone RM44 (4U rackmount case used for multi-GPU workstation builds): $385, the eBay benchmark
  // median a public hardware price tracker recorded on 2026-05-16 (target $360, floor $300).
  v.push_back({.id = "generic-4u-gpu-chassis", .name = "4U rack GPU chassis (generic; priced as SilverStone RM44)", .aliases = {"4U chassis"},
               .rack_units = 4, .max_gpus = 4, .psu_bays = 2, .max_board = BoardFormFactor::ssi_eeb,
               .street_price = usd("385", "2026-05-16", "SilverStone RM44 (SST-RM44) 4U rackmount chassis, eBay benchmark median $385 in a \"Hardware Deal Tracker\" seed file on GitHub (\"UPDATED with research-validated prices (2026-05-16)\"; target $360, scam floor $300)"),
               .source = std::string(src::source_material) + "; price: SilverStone RM44 product page, https://www.silverstonetek.com/en/product/info/server-nas/RM44/",
               .as_of = recorded,
               .note = "The source material's build names a 4U chassis without a model; the GPU and PSU counts are typical of 4U GPU workstations, not of one product. The price is one concrete product's, the SilverStone RM44: a 4U rackmount case that takes ATX/SSI-EEB boards and one ATX PSU, not a purpose-built GPU server chassis with redundant supplies (those are sold as barebones with a board, and no dated chassis-only price was found), so treat it as a floor. It cannot hold an HGX baseboard. Read from a third-party tracker's file, not from a store."});
  // DGX enclosures differ in height: DGX A100 is 6U with six 3 kW power supplies (NVIDIA DGX A100
  // User Guide, "Introduction": 264.0 mm, 6U; 6 x 3 kW PSUs, 5 + 1 redundant); DGX H100 is 8U with
  // six 3.3 kW supplies (NVIDIA DGX H100/H200 User Guide, "Introduction": 356 mm, 8U).
  v.push_back({.id = "nvidia-dgx-a100-chassis", .name = "NVIDIA DGX A100 6U chassis (part of the DGX system)", .aliases = {"nvidia-dgx-chassis"},
               .rack_units = 6, .max_gpus = 8, .psu_bays = 6, .max_board = BoardFormFactor::ssi_eeb, .passive_gpu_airflow = true,
               .source = "NVIDIA DGX A100 User Guide, https://docs.nvidia.com/dgx/dgxa100-user-guide/introduction-to-dgxa100.html (6U, 6 power supplies)",
               .as_of = recorded, .note = std::string("Not sold separately; listed so the DGX A100 can name its enclosure. ") + src::unverified});
  v.push_back({.id = "nvidia-dgx-h100-chassis", .name = "NVIDIA DGX H100 8U chassis (part of the DGX system)", .aliases = {},
               .rack_units = 8, .max_gpus = 8, .psu_bays = 6, .max_board = BoardFormFactor::ssi_eeb, .passive_gpu_airflow = true,
               .source = "NVIDIA DGX H100/H200 User Guide, https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html (8U, 6 power supplies)",
               .as_of = recorded, .note = std::string("Not sold separately; listed so the DGX H100 can name its enclosure. ") + src::unverified});
  v.push_back({.id = "nvidia-dgx-b200-chassis", .name = "NVIDIA DGX B200 10U chassis (part of the DGX system)", .aliases = {},
               .rack_units = 10, .max_gpus = 8, .psu_bays = 6, .max_board = BoardFormFactor::ssi_eeb, .passive_gpu_airflow = true,
               .source = "NVIDIA DGX B200 User Guide, https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html (\"10U Rackmount\", \"6 x 3.3 kW\" power supplies)",
               .as_of = "2026-11-29", .note = "Not sold separately; listed so the DGX B200 can name its enclosure."});
  return v;
}

CAPPLAN_CATALOG_DATA inline std::vector<Motherboard> motherboards() {
  using namespace capplan::literals;
  std::vector<Motherboard> v;
  // ASRock Rack ROMED8-2T: single-socket SP3 ATX board for EPYC 7002/7003, seven PCIe 4.0 x16 slots
  // (ATX has seven slot positions, so one per position), eight DDR4 RDIMM/LRDIMM slots in eight
  // channels at up to 3200 MT/s (64 GB RDIMM, 256 GB LRDIMM each); the second slot shares its lanes
  // with the board's M.2 and OCuLink ports (tomshw.it, from Hardwareluxx).
  v.push_back({.id = "asrock-rack-romed8-2t", .name = "ASRock Rack ROMED8-2T", .aliases = {"ROMED8-2T"},
               .socket = "SP3", .sockets = 1, .chipset = "none (SoC)", .form_factor = BoardFormFactor::atx,
               .memory_type = DramType::ddr4, .registered = true, .dimm_slots = 8, .max_memory = 2_TB, .expansion_positions = 7,
               .slots = {{1, 16, 4}, {2, 8, 4}, {3, 16, 4}, {4, 16, 4}, {5, 16, 4}, {6, 16, 4}, {7, 16, 4}},
               .source = "https://www.tomshw.it/hardware/asrock-rack-romed8-2t-la-scheda-madre-per-server-con-sette-pci-express-x16/ (\"sette PCI Express x16 slot con standard 4.0\", \"form factor ATX a socket singolo\", \"8 slot DDR4 sia RDIMM che LRDIMM in eight-channel\")",
               .as_of = "2026-11-27",
               .note = "Slot 2 is recorded at x8: it \"shares its bandwidth\" with the mini-SAS, M.2 and OCuLink ports (the OCuLink ports take 4 lanes each), so with those in use it is not a full x16. Max memory is 8 x 256 GB LRDIMM; with RDIMMs it is 8 x 64 GB. No dated price was found: a build uses the board only when a catalog file gives it a price (docs/catalog-files.md)."});
  return v;
}

CAPPLAN_CATALOG_DATA inline std::vector<NetworkAdapter> network_adapters() {
  using namespace capplan::literals;
  std::vector<NetworkAdapter> v;
  // ConnectX-6 Dx: NVIDIA product brief: 2 x 100 GbE, PCIe 4.0 x16 (MCX623106AN-CDAT).
  v.push_back({.id = "connectx-6-dx-100gbe", .name = "NVIDIA ConnectX-6 Dx 2x100GbE", .aliases = {"ConnectX-6 Dx"},
               .protocol = LinkProtocol::ethernet, .port_speed = 100_Gbps, .ports = 2, .pcie_generation = 4, .pcie_lanes = 16,
               .source = "NVIDIA ConnectX-6 Dx product brief, https://www.nvidia.com/en-us/networking/ethernet/connectx-6-dx/",
               .as_of = recorded, .note = "Power and price not recorded."});
  // ConnectX-6 VPI HDR: NVIDIA product brief: 1 x 200 Gb/s HDR InfiniBand or 200 GbE, PCIe 4.0 x16 (MCX653105A-HDAT).
  v.push_back({.id = "connectx-6-hdr-200g", .name = "NVIDIA ConnectX-6 VPI HDR 200Gb/s", .aliases = {"ConnectX-6 HDR"},
               .protocol = LinkProtocol::infiniband_or_ethernet, .port_speed = 200_Gbps, .ports = 1, .pcie_generation = 4, .pcie_lanes = 16,
               .source = "NVIDIA ConnectX-6 VPI product brief, https://www.nvidia.com/en-us/networking/infiniband/connectx-6/",
               .as_of = recorded, .note = "Power and price not recorded."});
  // ConnectX-7 NDR: NVIDIA product brief: 1 x 400 Gb/s NDR InfiniBand, PCIe 5.0 x16 (MCX75310AAS-NEAT).
  v.push_back({.id = "connectx-7-ndr-400g", .name = "NVIDIA ConnectX-7 NDR 400Gb/s", .aliases = {"ConnectX-7", "ConnectX-7 NDR"},
               .protocol = LinkProtocol::infiniband, .port_speed = 400_Gbps, .ports = 1, .pcie_generation = 5, .pcie_lanes = 16,
               .power = 24.9_W,
               .source = "NVIDIA ConnectX-7 product brief, https://www.nvidia.com/en-us/networking/infiniband/connectx-7/; power: NVIDIA ConnectX-7 Adapter Cards User Manual, Specifications (MCX75310AAS-NEAT: \"Typical power with passive cables in PCIe Gen 5.0 x16\" 24.9 W), https://docs.nvidia.com/networking/display/connectx7vpi/specifications",
               .as_of = recorded,
               .note = "Power is NVIDIA's typical figure with passive (copper) cables; optical modules add up to 17 W per OSFP port. Read from two independent stored copies of the manual's table (24.9 W for MCX75310AAS-NEAT, 25.9 W for the crypto MCX75310AAC-NEAT), not from NVIDIA's page itself. No dated price found."});
  return v;
}

CAPPLAN_CATALOG_DATA inline std::vector<SystemSpec> systems() {
  std::vector<SystemSpec> v;
  using K = PartKind;
  using namespace capplan::literals;
  // Single-GPU workstations: the GPU is what the source material names; the other parts are a typical build
  // chosen here (Ryzen 9 7950X, 2 x 32 GB DDR5, one NVMe SSD, a Gold PSU sized for the GPU, an ATX tower).
  struct Ws { const char* id; const char* gpu; const char* name; const char* psu; };
  for (const Ws& w : {Ws{"ws-rtx-3060", "rtx-3060-12gb", "Workstation, 1 x RTX 3060 12GB", "corsair-rm850x"},
                      Ws{"ws-rtx-4060-ti-16gb", "rtx-4060-ti-16gb", "Workstation, 1 x RTX 4060 Ti 16GB", "corsair-rm850x"},
                      Ws{"ws-rtx-4090", "rtx-4090", "Workstation, 1 x RTX 4090", "corsair-rm1000x"},
                      Ws{"ws-rtx-6000-ada", "rtx-6000-ada", "Workstation, 1 x RTX 6000 Ada", "corsair-rm1000x"}}) {
    v.push_back({.id = w.id, .name = w.name, .aliases = {},
                 .parts = {{K::gpu, w.gpu, 1}, {K::cpu, "ryzen-9-7950x", 1}, {K::memory, "ddr5-5600-udimm-32gb", 2},
                           {K::storage, "samsung-990-pro-2tb", 1}, {K::psu, w.psu, 1}, {K::chassis, "generic-atx-tower", 1}},
                 .topology = Topology::single_gpu, .source = src::source_material, .as_of = recorded,
                 .note = "GPU from the source material; the other parts are a typical build chosen for the catalog (no motherboard or cooler is itemized). Price derived from the parts, each at its street price in one snapshot (PCPartPicker, 2025-07-23): the GPU's a range from the lowest to the median listing, the CPU, memory, SSD, PSU and case one price each."});
  }
  // 2 x RTX 4090: no NVLink and no P2P on the 40-series, so GPU-to-GPU traffic goes through host memory.
  // Platform: Ryzen 9 7950X (AM5, 24 usable PCIe 5.0 lanes) running the cards at PCIe 4.0 x8 each (x8/x8), the common
  // two-card desktop build; 1,500 W PSU for 2 x 450 W GPUs + 170 W CPU.
  v.push_back({.id = "ws-2x-rtx-4090", .name = "Workstation, 2 x RTX 4090", .aliases = {"2x4090", "2 x RTX 4090"},
               .parts = {{K::gpu, "rtx-4090", 2}, {K::cpu, "ryzen-9-7950x", 1}, {K::memory, "ddr5-5600-udimm-32gb", 2},
                         {K::storage, "samsung-990-pro-2tb", 1}, {K::psu, "corsair-hx1500i", 1}, {K::chassis, "generic-atx-tower", 1}},
               .topology = Topology::pcie_no_p2p, .source = src::source_material, .as_of = recorded,
               .note = "GPUs from the source material; the rest is a typical AM5 desktop build chosen for the catalog: the two cards share the CPU's lanes at PCIe 4.0 x8 each (x8/x8); 40-series cards have no peer-to-peer, so their collectives go through host memory over those x8 links, as compare times them (hardware/gpu_slots.hpp). A Threadripper PRO platform (x16/x16, RDIMMs) costs more and its RDIMMs have no sourced price. Price derived from the parts."});
  // 4 x A100 80GB NVLink server: HGX A100 4-GPU baseboard, GPUs joined all-to-all by NVLink without NVSwitch.
  v.push_back({.id = "server-4x-a100-80gb-nvlink", .name = "Server, 4 x A100 SXM 80GB NVLink (HGX A100 4-GPU)", .aliases = {"4xA100 80GB"},
               .parts = {{K::gpu, "a100-sxm-80gb", 4}, {K::cpu, "epyc-7763", 2}, {K::memory, "ddr4-3200-rdimm-64gb", 16},
                         {K::storage, "samsung-990-pro-2tb", 2}, {K::network, "connectx-6-hdr-200g", 4}, {K::chassis, "generic-4u-gpu-chassis", 1}},
               .topology = Topology::nvlink_direct,
               .source = std::string(src::source_material) + "; HGX A100 4-GPU topology per NVIDIA A100 datasheet", .as_of = recorded,
               .note = "CPU, memory, storage and NICs are a typical configuration chosen for the catalog; no PSU model recorded. The price stays unknown until the ConnectX-6 NICs have a sourced price (add one in a catalog file; the dated quotes found were in euros only); the priced parts alone come to $56,464.98-87,152.98 (4 x A100 at $8,000-15,000, 2 x EPYC 7763 launch price, 16 x DDR4 RDIMM at $500-668, 2 x 990 PRO, the 4U chassis priced as a SilverStone RM44, which cannot in fact hold an HGX baseboard: a real HGX A100 4-GPU server comes as a vendor barebone)."});
  // The source material's build: "A100 80GB + EPYC 7763 + 512 GB DDR5 + NVMe/HDD + 1600 W PSU + 4U chassis", $20.4k-28.6k.
  v.push_back({.id = "build-a100-80gb-epyc-7763", .name = "A100 80GB + EPYC 7763 + 512 GB + NVMe/HDD + 1600 W PSU + 4U chassis",
               .aliases = {"A100 EPYC build"},
               .parts = {{K::gpu, "a100-pcie-80gb", 1}, {K::cpu, "epyc-7763", 1}, {K::memory, "ddr4-3200-rdimm-64gb", 8},
                         {K::storage, "samsung-990-pro-2tb", 1}, {K::storage, "seagate-exos-x18-18tb", 1},
                         {K::psu, "corsair-ax1600i", 1}, {K::chassis, "generic-4u-gpu-chassis", 1}},
               .topology = Topology::single_gpu,
               .price = usd_range("20400", "28600", recorded, src::source_material),
               .source = src::source_material, .as_of = recorded,
               .note = "The source material says 512 GB DDR5, but the EPYC 7763 (SP3) takes DDR4-3200 only, so 8 x 64 GB DDR4 RDIMMs are recorded. The price range is the source material's; its date is unknown (recorded 2026-11-21). From sourced part prices (Catalog::parts_price): the A100 80GB ($8,000-15,000), EPYC 7763 ($7,890 launch), 8 x DDR4 RDIMM ($500-668, eBay asks of 2026-06-30), 990 PRO ($149.99), Exos X18 ($369.99-529.99) and AX1600i ($609.99) and the 4U chassis ($385, priced as a SilverStone RM44) come to $21,404.97-29,908.97: the low end is inside the range, the high end $1,308.97 above it, because the 2026 RDIMM asks are far above what the source material assumed for memory."});
  // DGX A100 (320 GB): NVIDIA DGX A100 datasheet: 8 x A100 SXM4 40GB, 6 NVSwitches, 2 x EPYC 7742, 1 TB memory,
  // 15 TB NVMe, 8 x single-port ConnectX-6 200 Gb/s (+1 dual-port for storage), 6.5 kW max; $199,000 at launch.
  v.push_back({.id = "dgx-a100", .name = "NVIDIA DGX A100 (320 GB)", .aliases = {"DGX A100"},
               .parts = {{K::gpu, "a100-sxm-40gb", 8}, {K::cpu, "epyc-7742", 2}, {K::memory, "ddr4-3200-rdimm-64gb", 16},
                         {K::network, "connectx-6-hdr-200g", 8}, {K::chassis, "nvidia-dgx-a100-chassis", 1}},
               .topology = Topology::nvswitch,
               .max_power = 6.5_kW,  // the datasheet's "6.5 kW max"
               .price = usd("199000", "2020-05-14", "NVIDIA newsroom, DGX A100 launch (\"starting at $199,000\"), https://nvidianews.nvidia.com/news/nvidia-ships-worlds-most-advanced-ai-system-nvidia-dgx-a100-to-fight-covid-19-third-generation-dgx-packs-record-5-petaflops-of-ai-performance"),
               .source = "NVIDIA DGX A100 datasheet, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/nvidia-dgx-a100-datasheet.pdf",
               .as_of = recorded, .note = std::string(src::unverified) + " Storage (15 TB NVMe), the six NVSwitches and the storage NIC are not itemized; max_power is the datasheet's 6.5 kW system maximum, which capplan power sizes the circuit and the heat by (the itemized parts come to about 4.7 kW at the wall)."});
  // DGX H100: NVIDIA DGX H100 datasheet: 8 x H100 SXM5 80GB, 4 NVSwitches, 2 x Xeon Platinum 8480C, 2 TB memory,
  // 8 x ConnectX-7 400 Gb/s (compute), ~10.2 kW max. NVIDIA publishes no list price.
  v.push_back({.id = "dgx-h100", .name = "NVIDIA DGX H100", .aliases = {"DGX H100"},
               .parts = {{K::gpu, "h100-sxm", 8}, {K::cpu, "xeon-platinum-8480plus", 2}, {K::memory, "ddr5-4800-rdimm-64gb", 32},
                         {K::network, "connectx-7-ndr-400g", 8}, {K::chassis, "nvidia-dgx-h100-chassis", 1}},
               .topology = Topology::nvswitch,
               .max_power = 10.2_kW,  // the datasheet's "~10.2 kW max"
               // Price: SemiAnalysis's estimated sale price of a DGX H100, ~$270,000 (May 2023), as quoted in Epoch AI's
               // training-cost-trends notebook.
               .price = usd("270000", "2023-05-01", "SemiAnalysis, AI Server Cost Analysis (May 2023), https://www.semianalysis.com/p/ai-server-cost-analysis-memory-is, as quoted in https://github.com/epoch-research/training-cost-trends"),
               .source = "NVIDIA DGX H100 datasheet, https://resources.nvidia.com/en-us-dgx-systems/ai-enterprise-dgx", .as_of = recorded,
               .note = std::string(src::unverified) + " Ships the 8480C CPU (recorded as 8480+). max_power is the datasheet's ~10.2 kW system maximum (four NVSwitches, drives, DPUs and fans are not itemized; the itemized parts come to about 8.1 kW at the wall), which capplan power sizes the circuit and the heat by. NVIDIA publishes no list price; the price is an analyst's estimate of the sale price, published May 2023 (the day is not stated in the copy; the 1st is recorded)."});
  // DGX B200: NVIDIA DGX B200 User Guide: 8 x B200 (1,440 GB), 2 x Xeon 8570, 2 TB in 32 DIMMs, 4 OSFP ports serving
  // 8 x single-port ConnectX-7 (400 Gb/s InfiniBand), 2 x BlueField-3 DPUs (storage and management, not itemized),
  // 6 x 3.3 kW power supplies, 14.3 kW max, 10U. NVIDIA publishes no list price.
  v.push_back({.id = "dgx-b200", .name = "NVIDIA DGX B200", .aliases = {"DGX B200"},
               .parts = {{K::gpu, "b200", 8}, {K::cpu, "xeon-platinum-8570", 2}, {K::memory, "ddr5-4800-rdimm-64gb", 32},
                         {K::network, "connectx-7-ndr-400g", 8}, {K::chassis, "nvidia-dgx-b200-chassis", 1}},
               .topology = Topology::nvswitch,
               .max_power = 14.3_kW,  // the user guide's "14.3 kW max"
               .price = usd("379273.04", "2024-12-17", std::string(src::epoch) + "; 8 x $47,409.13 a GPU: a DGX B200 (1,440 GB) listed by deltacomputer.com in euros, converted to USD by Epoch AI, https://web.archive.org/web/20241217210350/https://www.deltacomputer.com/nvidia-dgx-b200-1440gb.html"),
               .source = "NVIDIA DGX B200 User Guide, https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html",
               .as_of = "2026-11-29",
               .note = "The 2 TB of memory is recorded as 32 generic DDR5 RDIMMs of 64 GB (the guide gives the count and the total, not the speed); the two BlueField-3 DPUs and the NVMe drives are not itemized. NVIDIA publishes no list price; the price is one European reseller's listing, converted by Epoch AI. Power: the itemized parts sum to about 10 kW DC at full load; max_power is NVIDIA's 14.3 kW for the whole system, whose DPUs, drives, NVSwitches and fans are not itemized, and capplan power sizes the circuit and the heat by it."});
  // HGX H100 8-GPU: NVIDIA HGX page: 8 x H100 SXM5 on one baseboard with 4 NVSwitches (900 GB/s per GPU).
  v.push_back({.id = "hgx-h100-8gpu", .name = "NVIDIA HGX H100 8-GPU baseboard", .aliases = {"HGX H100"},
               .parts = {{K::gpu, "h100-sxm", 8}},
               .topology = Topology::nvswitch,
               .source = "NVIDIA HGX platform page, https://www.nvidia.com/en-us/data-center/hgx/", .as_of = recorded,
               .note = "The GPU baseboard only; server makers add CPUs, memory, NICs and chassis. No list price is published; the price is derived from 8 x the H100's street price, whose low end is itself a baseboard's price per GPU ($230,000 for 8, 2025) and whose high end an HGX server's."});
  return v;
}

CAPPLAN_CATALOG_DATA inline std::vector<CloudOffer> cloud_offers() {
  using namespace capplan::literals;
  std::vector<CloudOffer> v;
  const char* recalled = "Unverified: price recalled from the provider's price page at the date given; no stored copy of the page or of an authoritative quotation could be found to re-check it, so it keeps its old date and the stale-price warning.";
  const char* capacity_blocks = "AWS EC2 Capacity Blocks for ML pricing page (prices in effect until 2025-01-01), https://aws.amazon.com/ec2/capacityblocks/pricing/";
  // AWS on-demand list prices: the instances.vantage.sh data (built from AWS's price list API) as generated into
  // per-family files of tsaol/aws-gpu, each headed "Last updated: <date>" (2025-11-30 unless another is given).
  const auto vantage = [](const char* file, const char* commit, const std::string& date = "2025-11-30") {
    return "AWS EC2 on-demand pricing (https://aws.amazon.com/ec2/pricing/on-demand/), Linux, as collected by https://instances.vantage.sh on " + date +
           ", recorded in https://github.com/tsaol/aws-gpu/blob/" + commit + "/data/" + file + " (\"Last updated: " + date + "\")";
  };
  // AWS p4d.24xlarge: 8 x A100 SXM4 40GB, 96 vCPU, 1,152 GiB; on-demand $21.957642/h (us-east-1, 2025-11-30; was
  // $32.7726 before AWS's June 2025 GPU price cut); Capacity Block effective $14.75/h (us-east-2 / us-west-2).
  v.push_back({.id = "aws-p4d.24xlarge", .provider = "AWS", .instance_type = "p4d.24xlarge", .region = "us-east-1",
               .gpu_count = 8, .gpu_id = "a100-sxm-40gb", .vcpus = 96, .ram = 1152_GiB,
               .on_demand = usd_per_hour("21.957642"), .reserved = usd_per_hour("14.75"), .min_term = 1_day,
               .as_of = "2025-11-30", .source = vantage("p4d_instances.js", "50d6dce986c1398499e6f79a9f8953c8258febee") + "; " + capacity_blocks,
               .note = "On-demand read from a stored copy of the dated dataset (us-east-1 $21.957642, us-east-2 and us-west-2 $21.95764); an undated copy of AWS console prices on GitHub also gives $21.95764. The earlier figure, $32.7726 (2024), predates the June 2025 price cut. Reserved = Capacity Block effective rate (us-east-2) from the capacity blocks page, whose prices were in effect until 2025-01-01, older than the on-demand date."});
  // AWS p5.48xlarge: 8 x H100 SXM 80GB, 192 vCPU, 2,048 GiB; on-demand $55.04/h (us-east-1, 2025-11-30, after the June
  // 2025 cut from the $98.32 launch price); Capacity Block effective $39.33/h (us-east-1, capacity blocks page).
  v.push_back({.id = "aws-p5.48xlarge", .provider = "AWS", .instance_type = "p5.48xlarge", .region = "us-east-1",
               .gpu_count = 8, .gpu_id = "h100-sxm", .vcpus = 192, .ram = 2048_GiB,
               .on_demand = usd_per_hour("55.04"), .reserved = usd_per_hour("39.33"), .min_term = 1_day,
               .as_of = "2025-11-30",
               .source = vantage("p5_instances.js", "2d0108c7bd261c8e40493fbd35135437bd6c9099") + "; " + capacity_blocks,
               .note = "On-demand read from a stored copy of the dated dataset ($55.04 in us-east-1, us-east-2 and us-west-2; $6.88 for the 1-GPU p5.4xlarge, the same per GPU); an undated copy of AWS console prices on GitHub also gives $55.04. The July 2023 launch list price was $98.32 (https://www.nextplatform.com/2023/07/27/h100-gpu-instance-pricing-on-aws-grin-and-bear-it/); AWS cut P5 prices by up to about 45% in June 2025 (55.04 / 98.32 = 0.56). Reserved = Capacity Block effective rate (prices in effect until 2025-01-01), older than the on-demand date."});
  // AWS p5e.48xlarge: 8 x H200 141GB, 192 vCPU, 2,048 GiB; sold as Capacity Blocks: effective $43.26/h (us-east-2).
  v.push_back({.id = "aws-p5e.48xlarge", .provider = "AWS", .instance_type = "p5e.48xlarge", .region = "us-east-2",
               .gpu_count = 8, .gpu_id = "h200-sxm", .vcpus = 192, .ram = 2048_GiB,
               .reserved = usd_per_hour("43.26"), .min_term = 1_day,
               .as_of = "2024-12-01", .source = capacity_blocks,
               .note = "Capacity Block effective rate, read from a stored copy of the capacity blocks page; no on-demand price recorded."});
  // AWS g5.xlarge: 1 x A10G, 4 vCPU, 16 GiB; on-demand $1.006/h (us-east-1).
  v.push_back({.id = "aws-g5.xlarge", .provider = "AWS", .instance_type = "g5.xlarge", .region = "us-east-1",
               .gpu_count = 1, .gpu_id = "a10g", .vcpus = 4, .ram = 16_GiB,
               .on_demand = usd_per_hour("1.006"),
               .as_of = "2026-06-17", .source = "AWS EC2 on-demand pricing, https://aws.amazon.com/ec2/pricing/on-demand/ (figure as quoted at https://main.d1m6t5n8e4tvia.amplifyapp.com/blog/amazon-ec2-on-demand-pricing-instance-families-2026/)",
               .note = "Read from a stored copy of a third-party page quoting the AWS price."});
  // AWS g5.12xlarge: 4 x A10G, 48 vCPU, 192 GiB; on-demand $5.672/h (us-east-1, 2025-11-30).
  v.push_back({.id = "aws-g5.12xlarge", .provider = "AWS", .instance_type = "g5.12xlarge", .region = "us-east-1",
               .gpu_count = 4, .gpu_id = "a10g", .vcpus = 48, .ram = 192_GiB,
               .on_demand = usd_per_hour("5.672"),
               .as_of = "2025-11-30", .source = vantage("g5_instances.js", "50d6dce986c1398499e6f79a9f8953c8258febee"),
               .note = "Read from a stored copy of the dated dataset (us-east-1, us-east-2 and us-west-2 $5.672); the figure recorded earlier (2024) is unchanged."});
  // AWS g6.xlarge: 1 x L4, 4 vCPU, 16 GiB; on-demand $0.8048/h (us-east-1, 2025-11-30).
  v.push_back({.id = "aws-g6.xlarge", .provider = "AWS", .instance_type = "g6.xlarge", .region = "us-east-1",
               .gpu_count = 1, .gpu_id = "l4", .vcpus = 4, .ram = 16_GiB,
               .on_demand = usd_per_hour("0.8048"),
               .as_of = "2025-11-30", .source = vantage("g6_instances.js", "2d0108c7bd261c8e40493fbd35135437bd6c9099"),
               .note = "Read from a stored copy of the dated dataset (us-east-1, us-east-2 and us-west-2 $0.8048); the figure recorded earlier (2024) is unchanged."});
  // GCP a2-highgpu-1g: 1 x A100 40GB, 12 vCPU, 85 GB (GCP GB = 2^30 B, per its pricing pages); on-demand $3.6734/h,
  // spot $2.204/h (us-central1), as shown by the gcloud-compute.com mirror updated 2026-10-04.
  v.push_back({.id = "gcp-a2-highgpu-1g", .provider = "GCP", .instance_type = "a2-highgpu-1g", .region = "us-central1",
               .gpu_count = 1, .gpu_id = "a100-sxm-40gb", .vcpus = 12, .ram = 85_GiB,
               .on_demand = usd_per_hour("3.6734"), .spot = usd_per_hour("2.204"),
               .as_of = "2026-10-04",
               .source = "Google Cloud GPU pricing (https://cloud.google.com/compute/gpus-pricing) as mirrored at https://gcloud-compute.com/a2-highgpu-1g.html (mirror updated 2026-10-04), recorded in a GPU-rental memo on GitHub whose prices were checked on 2026-10-07 (\"GCP a2-highgpu-1g (A100 40 GB), us-central1 | 3.6734 (spot 2.204)\")",
               .note = "Read from a stored copy of a third-party memo quoting the mirror (Google's own page did not render for its author); a second note on GitHub gives the same $3.6734 on-demand in us-central1 as of 2026-08-30. The 2024 figure recorded earlier, $3.673385, rounds to the same $3.6734, so the price has not changed. Spot prices can change up to once a month."});
  // GCP a2-highgpu-8g: 8 x A100 40GB, 96 vCPU, 680 GB; on-demand $29.38708/h (us-central1). Exactly 8 x the 2024
  // a2-highgpu-1g figure (GCP bills GPU, vCPU and memory per unit, and the 8g has 8 x each); not re-checked itself.
  v.push_back({.id = "gcp-a2-highgpu-8g", .provider = "GCP", .instance_type = "a2-highgpu-8g", .region = "us-central1",
               .gpu_count = 8, .gpu_id = "a100-sxm-40gb", .vcpus = 96, .ram = 680_GiB,
               .on_demand = usd_per_hour("29.38708"),
               .as_of = "2024-06-01", .source = "Google Cloud GPU pricing, https://cloud.google.com/compute/gpus-pricing", .note = recalled});
  // GCP a3-highgpu-8g: 8 x H100 80GB, 208 vCPU, 1,872 GB; on-demand $88.253735/h (us-central1).
  v.push_back({.id = "gcp-a3-highgpu-8g", .provider = "GCP", .instance_type = "a3-highgpu-8g", .region = "us-central1",
               .gpu_count = 8, .gpu_id = "h100-sxm", .vcpus = 208, .ram = 1872_GiB,
               .on_demand = usd_per_hour("88.253735"),
               .as_of = "2024-06-01", .source = "Google Cloud GPU pricing, https://cloud.google.com/compute/gpus-pricing", .note = recalled});
  // Azure ND96asr A100 v4: 8 x A100 40GB, 96 vCPU, 900 GiB; pay-as-you-go $27.197/h (East US).
  v.push_back({.id = "azure-nd96asr-v4", .provider = "Azure", .instance_type = "Standard_ND96asr_v4 (ND A100 v4)", .region = "eastus",
               .gpu_count = 8, .gpu_id = "a100-sxm-40gb", .vcpus = 96, .ram = 900_GiB,
               .on_demand = usd_per_hour("27.197"),
               .as_of = "2024-06-01", .source = "Azure Linux VM pricing, https://azure.microsoft.com/en-us/pricing/details/virtual-machines/linux/", .note = recalled});
  // Azure ND96isr H100 v5: 8 x H100 80GB, 96 vCPU, 1,900 GiB; pay-as-you-go $98.32/h (East US), 1-year reservation
  // $63.40/h, 3-year $43.79/h: instances.vantage.sh as fetched on 2026-05-25 and recorded in a research note on GitHub.
  v.push_back({.id = "azure-nd96isr-h100-v5", .provider = "Azure", .instance_type = "Standard_ND96isr_H100_v5 (ND H100 v5)", .region = "eastus",
               .gpu_count = 8, .gpu_id = "h100-sxm", .vcpus = 96, .ram = 1900_GiB,
               .on_demand = usd_per_hour("98.32"), .reserved = usd_per_hour("63.40"), .min_term = 1_year,
               .as_of = "2026-05-25",
               .source = "Azure Linux VM pricing (https://azure.microsoft.com/en-us/pricing/details/virtual-machines/linux/) as shown at https://instances.vantage.sh/azure/vm/nd96isrh100-v5, fetched on 2026-05-25 and recorded in a cloud GPU pricing research note on GitHub (\"Sources fetched 2026-05-25\": \"OD $98.32\"; \"Azure ND H100 v5 reserved structure ($98.32 -> $63.40 1-yr -> $43.79 3-yr)\", verified there against https://www.spheron.network/blog/azure-h100-pricing/)",
               .note = "Read from a stored copy of a third-party research note, not from Azure's page; a second note on GitHub also gives about $98.32/h in US East from the Vantage page (2026). The 2024 figure was the same $98.32. Reserved = 1-year reservation ($63.40/h); the 3-year one is $43.79/h. The same note records AWS p5.48xlarge at $55.04 on 2026-05-25, agreeing with the 2025-11-30 AWS figure recorded here."});
  // Lambda: H100 80GB at $2.99 per GPU-hour on demand (costnimbus.com table, March 2026) -> 8 x = $23.92/h;
  // 1 x H100 SXM at $3.78/h (techbytes.app, prices verified on 2026-05-07 from Lambda's page); 1 x A100 40GB at $1.99/h
  // (lambda.ai/pricing as checked on 2026-10-07, recorded in a memo on GitHub).
  v.push_back({.id = "lambda-gpu-8x-h100-sxm5", .provider = "Lambda", .instance_type = "gpu_8x_h100_sxm5", .region = "",
               .gpu_count = 8, .gpu_id = "h100-sxm", .vcpus = 208, .ram = 1800_GiB,
               .on_demand = usd_per_hour("23.92"),
               .as_of = "2026-03-01",
               .source = "Lambda GPU cloud pricing, https://lambda.ai/pricing, as quoted at https://costnimbus.com/article/gpu-cost-management-ml-teams (\"Current GPU Pricing Reality (March 2026)\": Lambda Labs $2.99 per H100 GPU-hour)",
               .note = "Per-GPU price from a third-party table dated March 2026 (the day is not stated; the 1st is recorded); the table does not name the instance size, so the 8-GPU instance is assumed to be priced per GPU, as Lambda lists it. vCPUs and RAM recalled, not re-checked."});
  v.push_back({.id = "lambda-gpu-1x-h100-sxm5", .provider = "Lambda", .instance_type = "gpu_1x_h100_sxm5", .region = "",
               .gpu_count = 1, .gpu_id = "h100-sxm",
               .on_demand = usd_per_hour("3.78"),
               .as_of = "2026-05-07",
               .source = "Lambda GPU cloud pricing, https://lambda.ai/pricing, as quoted at https://techbytes.app/posts/serverless-gpu-pricing-matrix-modal-replicate-lambda-2026/ (\"prices verified on May 7, 2026 from official vendor pricing\")",
               .note = "Read from a stored copy of a third-party page quoting Lambda's price list; vCPUs and RAM not stated there."});
  v.push_back({.id = "lambda-gpu-1x-a100-sxm4", .provider = "Lambda", .instance_type = "gpu_1x_a100_sxm4", .region = "",
               .gpu_count = 1, .gpu_id = "a100-sxm-40gb", .vcpus = 30, .ram = 200_GiB,
               .on_demand = usd_per_hour("1.99"),
               .as_of = "2026-10-07",
               .source = "Lambda GPU cloud pricing, https://lambda.ai/pricing, as checked on 2026-10-07 (12:27-12:35 UTC) and recorded in a GPU-rental memo on GitHub (\"Lambda 1x A10 / A6000 / A100 40 GB | 1.29 / 1.09 / 1.99\", billed per minute)",
               .note = "Read from a stored copy of a third-party memo quoting Lambda's price page. Earlier figures: $1.48/h on 2026-05-07 (https://techbytes.app/posts/serverless-gpu-pricing-matrix-modal-replicate-lambda-2026/) and $1.29/h in 2024, so the price has risen. vCPUs and RAM recalled, not re-checked."});
  // Alibaba Cloud gn7 (A100 SXM4 40GB joined by NVSwitch): pay-as-you-go and monthly subscription list prices in CNY,
  // China (Shanghai), as read from Alibaba's ECS price estimator in June 2023 and published in a dated post
  // (2023-06-17): ecs.gn7-c12g1.3xlarge 1 x A100, 12 vCPU, 94 GiB, 31.58 CNY/h, 15,160 CNY/month;
  // ecs.gn7-c13g1.13xlarge 4 x A100, 52 vCPU, 378 GiB, 126.33 CNY/h, 60,640 CNY/month; ecs.gn7-c13g1.26xlarge
  // 8 x A100, 104 vCPU, 756 GiB, 252.66 CNY/h, 121,280 CNY/month. vCPUs, memory, 40 GB per GPU and NVSwitch from
  // Alibaba's instance-family documentation.
  const char* gn7_price_src = "Alibaba Cloud ECS price estimator (https://ecs-buy.aliyun.com/ecs), cn-shanghai, as of June 2023, as published in \"GPU Prices Quick Reference\" (2023-06-17, last updated 2023-07-21), https://github.com/ArthurChiao/arthurchiao.github.io/blob/f234afcab779778aef1bcd0ffd42a85934e5f578/_posts/2023-06-17-gpu-prices.md";
  const char* gn7_family_src = "; instance types: Alibaba Cloud ECS, GPU-accelerated compute-optimized instance families (gn7), https://www.alibabacloud.com/help/en/ecs/user-guide/gpu-accelerated-compute-optimized-and-vgpu-accelerated-instance-families-1";
  struct Gn7 { const char* type; int gpus; int vcpus; DataSize ram; const char* hourly; const char* monthly; };
  for (const Gn7& g : {Gn7{"ecs.gn7-c12g1.3xlarge", 1, 12, 94_GiB, "31.58", "15160"},
                       Gn7{"ecs.gn7-c13g1.13xlarge", 4, 52, 378_GiB, "126.33", "60640"},
                       Gn7{"ecs.gn7-c13g1.26xlarge", 8, 104, 756_GiB, "252.66", "121280"}}) {
    v.push_back({.id = std::string("alibaba-") + (g.type + 4), .provider = "Alibaba Cloud", .instance_type = g.type,
                 .region = "cn-shanghai", .gpu_count = g.gpus, .gpu_id = "a100-sxm-40gb", .vcpus = g.vcpus, .ram = g.ram,
                 .currency = Currency::CNY, .on_demand = MoneyRate(g.hourly, Currency::CNY),
                 .monthly = Money(g.monthly, Currency::CNY),
                 .as_of = "2023-06-17", .source = std::string(gn7_price_src) + gn7_family_src,
                 .note = "List prices (before discounts) read from Alibaba's price estimator by a third party in June 2023 and dated by the post (2023-06-17); not re-checked against Alibaba's current price page, which could not be read, hence the stale-price warning. Alibaba's instance-family page gives 40 GB A100s joined by NVSwitch (SXM4 40GB recorded) and, in its current revision, 94 / 378 / 756 GiB of memory (an older revision said 95 / 380 / 760). Monthly = subscription price."});
  }
  // RunPod: RTX 4090 $0.60/h on-demand, $0.34/h spot (March 2026, deploybase.ai summary of RunPod's price list).
  v.push_back({.id = "runpod-rtx-4090", .provider = "RunPod", .instance_type = "1 x RTX 4090 pod", .region = "",
               .gpu_count = 1, .gpu_id = "rtx-4090",
               .on_demand = usd_per_hour("0.60"), .spot = usd_per_hour("0.34"),
               .as_of = "2026-03-10", .source = "https://deploybase.ai/articles/runpod-gpu-pricing (third-party summary of https://www.runpod.io/pricing)",
               .note = "Marketplace price; varies by host. Read from a stored copy of a third-party summary, not RunPod's own page."});
  // vast.ai (a marketplace: hosts set their prices): on-demand rates captured in June 2026 by usagepricing.com: RTX 4090
  // $0.682-0.875/h, A100 80GB $1.166-1.205/h, B200 $4.492 per GPU-hour. The low end of each range is recorded.
  const char* vast_src = "vast.ai marketplace (https://vast.ai/pricing; https://docs.vast.ai/documentation/instances/pricing), rates as captured in June 2026 at https://www.usagepricing.com/blueprint/vast-ai";
  struct Vast { const char* id; const char* type; const char* gpu; const char* rate; const char* note; };
  for (const Vast& x : {Vast{"vast-rtx-4090", "1 x RTX 4090 (on-demand)", "rtx-4090", "0.682", "Low end of the $0.682-0.875/h range seen in June 2026."},
                        Vast{"vast-a100-80gb", "1 x A100 80GB (on-demand)", "a100-pcie-80gb", "1.166", "Low end of the $1.166-1.205/h range seen in June 2026; the page says \"A100 80GB\" without the form factor (PCIe assumed)."},
                        Vast{"vast-b200", "1 x B200 (on-demand, per GPU)", "b200", "4.492", "Per-GPU rate seen in June 2026."}}) {
    v.push_back({.id = x.id, .provider = "vast.ai", .instance_type = x.type, .region = "",
                 .gpu_count = 1, .gpu_id = x.gpu, .on_demand = usd_per_hour(x.rate),
                 .as_of = "2026-06-01", .source = vast_src,
                 .note = std::string(x.note) + " Marketplace prices are set by each host and change hourly; the capture gives the month only (the 1st is recorded). Storage and bandwidth are billed on top."});
  }
  // Added 2026-11-26: neocloud and hyperscaler offers for the GPUs a 2026 buyer weighs, each from a
  // dated transcription of the provider's price page (the provider's own pages could not be read).
  // Per GPU-hour offers are recorded as 1-GPU offers; node prices as their node.
  const char* runpod_src = "RunPod pricing (https://www.runpod.io/pricing) as transcribed on 2026-09-25 in https://raw.githubusercontent.com/tgarg01/silybench-data/main/derived/csv/gpu_prices.csv";
  const char* runpod_jan = "RunPod console prices as noted in https://github.com/Malaeu/nanoGPT-RH/blob/main/docs/runpod_specs.md (\"Last Updated\" 2026-01-01)";
  const char* lambda_src = "Lambda on-demand instances (https://lambda.ai/instances) as transcribed on 2026-09-20 in https://raw.githubusercontent.com/api-evangelist/lambda-labs/refs/heads/main/plans/lambda-labs-plans-pricing.yml";
  const char* coreweave_src = "CoreWeave pricing (https://www.coreweave.com/pricing), North America, as transcribed on 2026-09-20 in https://raw.githubusercontent.com/api-evangelist/coreweave/refs/heads/main/plans/coreweave-plans-pricing.yml; the same H100 and H200 per-GPU rates in https://raw.githubusercontent.com/renshuBTC/compute-screener/main/data/gpu_providers_latest.csv (read 2026-10-24)";
  const char* nebius_src = "Nebius AI Cloud prices (https://nebius.com/prices) as transcribed on 2026-09-25 in https://raw.githubusercontent.com/tgarg01/silybench-data/main/derived/csv/gpu_prices.csv";
  const char* skypilot_aws_v7 =
      "skypilot-org/skypilot-catalog catalogs/v7/aws/vms.csv at 001367d22a0033fac286a8c71aeac7109e431bcb (generated from the AWS "
      "pricing and spot APIs)";
  const char* cyclenerd_src =
      "Google Cloud pricing as generated on 2025-03-06 in https://github.com/Cyclenerd/google-cloud-pricing-cost-calculator/blob/"
      "0166a59ebba7c36f2cc8c931d9f258dcebc44776/pricing.yml (Cloud Billing Catalog API)";
  const char* azure_sep_src = "Azure Retail Prices API (pay-as-you-go, Linux) as queried on 2026-09-19 and transcribed in a public pricing note";
  const char* together_src = "Together AI GPU clusters (https://www.together.ai/gpu-clusters) as transcribed on 2026-09-19 in a public pricing note";
  // Captured 2026-07-31 (each page fetched and saved whole) in a public pricing dataset's gap-closure report.
  const char* vultr_src = "Vultr Cloud GPU pricing (https://www.vultr.com/pricing/#cloud-gpu: \"Pricing shown is on-demand\") as captured on 2026-07-31 in a public pricing note";
  const char* hyperstack_src = "Hyperstack GPU pricing (https://www.hyperstack.cloud/gpu-pricing; its pricebook: \"Per GPU, per hour\") as captured on 2026-07-31 in a public pricing note";
  const char* crusoe_src = "Crusoe Cloud pricing (https://www.crusoe.ai/cloud/pricing) as transcribed on 2026-09-20 in https://raw.githubusercontent.com/api-evangelist/crusoe/refs/heads/main/plans/crusoe-plans-pricing.yml";
  struct Offer {
    const char* id; const char* provider; const char* type; const char* region; int gpus; const char* gpu; int vcpus; DataSize ram;
    const char* on_demand; const char* spot; const char* as_of; const char* source; const char* note;
  };
  // Offers for GPUs that had none, from Epoch AI's price data (its rows of 2025-02-28 and 2025-03-03 read archived
  // price pages; Oracle's A10 row of 2023-10-23 reads the Full Stack's cloud-gpus.csv): for each card the cheapest
  // cloud provider's of those days (marketplaces such as vast.ai left out), and Lambda's too for the H100 PCIe.
  const std::string epoch_offer = std::string(src::epoch) + ", row for ";
  const std::string runpod_2025 = epoch_offer + "https://web.archive.org/web/20250303172225/https://www.runpod.io/pricing";
  const std::string lambda_2025 = epoch_offer + "https://web.archive.org/web/20250228210058/https://lambdalabs.com/service/gpu-cloud";
  const std::string cudo_2025 = epoch_offer + "https://web.archive.org/save/https://www.cudocompute.com/products/gpu-cloud (2025-03-03)";
  const char* oci_2026 =
      "Oracle's Cloud Cost Estimator price list (https://www.oracle.com/a/ocom/docs/cloudestimator2/data/products.json, "
      "pay as you go, per GPU-hour) as transcribed in dstackai/gpuhunt src/tests/providers/test_oci.py (\"Real GPU shapes "
      "as reported by the Cost Estimator on 2026-09-18\"); the same shapes and hourly prices in skypilot-org/skypilot-catalog "
      "catalogs/v8/oci/vms.csv at 0588751183820cf2dab5c8a89447e8aac9f73fd5 (us-chicago-1; Oracle prices every region alike)";
  const std::string p6_b300_src = vantage("p6-b300_instances.js", "299375be7a2b940b53b3d80ec79fd66ee688f4fa", "2026-08-26");
  const std::string p3_src = vantage("p3_instances.js", "7412fd256c5eda04a70a17742a68e8e44824b2cb", "2026-01-21") +
                             "; the same $3.06 in skypilot-org/skypilot-catalog catalogs/v8/aws/vms.csv at 00148f2af3672e2229b4f7bf8157d5a3f36e3c35";
  const std::string p3dn_src = vantage("p3dn_instances.js", "2d0108c7bd261c8e40493fbd35135437bd6c9099") +
                               "; the same $31.212 in skypilot-org/skypilot-catalog catalogs/v8/aws/vms.csv at 00148f2af3672e2229b4f7bf8157d5a3f36e3c35";
  const std::string oci_2023 = epoch_offer + "https://github.com/the-full-stack/website/blob/main/docs/cloud-gpus/cloud-gpus.csv (Oracle Cloud, 2023-10-23)";
  for (const Offer& x : {
           Offer{"runpod-l40", "RunPod", "1 x L40", "", 1, "l40", 0, {}, "0.99", nullptr, "2025-03-03", runpod_2025.c_str(),
                 "Epoch AI's reading of RunPod's page; the tier is not stated. Oblivus listed $1.05 the same day."},
           Offer{"cudo-a40", "Cudo Compute", "1 x A40", "", 1, "a40", 0, {}, "0.39", nullptr, "2025-03-03", cudo_2025.c_str(),
                 "RunPod listed $0.44 the same day (vast.ai's marketplace $0.12, not entered)."},
           Offer{"runpod-v100-pcie-16gb", "RunPod", "1 x V100 PCIe 16GB", "", 1, "v100-pcie-16gb", 0, {}, "0.19", nullptr, "2025-03-03", runpod_2025.c_str(),
                 "Epoch AI's reading of RunPod's page; the tier is not stated. Cudo Compute listed $0.39 the same day."},
           Offer{"runpod-h100-pcie", "RunPod", "1 x H100 PCIe 80GB", "", 1, "h100-pcie", 0, {}, "2.39", nullptr, "2025-03-03", runpod_2025.c_str(),
                 "Epoch AI's reading of RunPod's page; the tier is not stated."},
           Offer{"lambda-gpu-1x-h100-pcie", "Lambda", "gpu_1x_h100_pcie (1 x H100 PCIe 80GB)", "", 1, "h100-pcie", 0, {}, "2.49", nullptr, "2025-02-28",
                 lambda_2025.c_str(), "Epoch AI's reading of Lambda's page, \"H100 PCIe (80GB)\"."},
           Offer{"lambda-gpu-1x-a100-pcie-40gb", "Lambda", "gpu_1x_a100 (1 x A100 PCIe 40GB)", "", 1, "a100-pcie-40gb", 0, {}, "1.29", nullptr, "2025-02-28",
                 lambda_2025.c_str(), "Epoch AI's reading of Lambda's page, \"A100 PCIe (40GB)\"."},
           Offer{"cudo-h100-nvl", "Cudo Compute", "1 x H100 PCIe 94GB (H100 NVL)", "", 1, "h100-nvl", 0, {}, "2.45", nullptr, "2025-03-03", cudo_2025.c_str(),
                 "Epoch AI files the row as \"H100 PCIe\" with 94 GB: the H100 NVL's memory."},
           Offer{"cudo-rtx-a6000", "Cudo Compute", "1 x RTX A6000", "", 1, "rtx-a6000", 0, {}, "0.45", nullptr, "2025-03-03", cudo_2025.c_str(), ""},
           Offer{"oci-vm-gpu-a10-1", "Oracle Cloud", "VM.GPU.A10.1 (1 x A10)", "", 1, "a10", 0, {}, "2.00", nullptr, "2023-10-23", oci_2023.c_str(),
                 "The only dated A10 offer found; stale (the warning says so)."},
           Offer{"runpod-h100-sxm", "RunPod", "1 x H100 SXM (Secure Cloud)", "", 1, "h100-sxm", 0, {}, "3.49", nullptr, "2026-09-25", runpod_src,
                 "Secure Cloud; Community Cloud $2.69 the same day. Later readings: $3.99 Secure on 2026-11-09 (datareceipts/data-receipts), $3.29 on 2026-08-19."},
           Offer{"runpod-h200", "RunPod", "1 x H200 (Secure Cloud)", "", 1, "h200-sxm", 24, 276_GB, "4.59", nullptr, "2026-09-25", runpod_src,
                 "Secure Cloud; Community Cloud $3.59. 24 vCPUs and 276 GB RAM per api-evangelist/runpod (read 2026-10-07, also $4.59)."},
           Offer{"runpod-b200", "RunPod", "1 x B200 (Secure Cloud)", "", 1, "b200", 28, 283_GB, "6.79", nullptr, "2026-09-25", runpod_src,
                 "Secure Cloud, the same $6.79 on 2026-08-19 and 2026-10-07; Community Cloud $5.98."},
           Offer{"runpod-l40s", "RunPod", "1 x L40S (Secure Cloud)", "", 1, "l40s", 0, {}, "1.09", nullptr, "2026-09-25", runpod_src, "Secure Cloud; Community Cloud $0.79."},
           Offer{"runpod-rtx-5090", "RunPod", "1 x RTX 5090", "", 1, "rtx-5090", 12, 92_GB, "0.89", "0.76", "2026-01-01", runpod_jan,
                 "A user's notes from the RunPod console; the tier (Secure or Community) is not stated."},
           Offer{"runpod-rtx-pro-6000", "RunPod", "1 x RTX PRO 6000 WK (Workstation Edition)", "", 1, "rtx-pro-6000", 0, {}, "2.09", "1.78", "2026-01-01", runpod_jan,
                 "A user's notes from the RunPod console (\"RTX PRO 6000 WK\"); the tier is not stated."},
           Offer{"runpod-rtx-pro-6000-server", "RunPod", "1 x RTX PRO 6000 (Server Edition)", "", 1, "rtx-pro-6000-server", 16, 188_GB, "1.84", "1.56", "2026-01-01",
                 runpod_jan, "A user's notes from the RunPod console; the tier is not stated."},
           Offer{"lambda-gpu-8x-b200", "Lambda", "gpu_8x_b200 (8 x B200 SXM6)", "", 8, "b200", 208, 2900_GiB, "53.52", nullptr, "2026-09-20", lambda_src,
                 "$6.69 per GPU-hour as Lambda lists it, x 8. Lambda listed no H200 on-demand instance that day."},
           Offer{"lambda-gpu-1x-b200", "Lambda", "gpu_1x_b200 (1 x B200 SXM6)", "", 1, "b200", 26, 360_GiB, "6.99", nullptr, "2026-09-20", lambda_src,
                 "The same $6.99 on 2026-09-25 per tgarg01/silybench-data."},
           Offer{"coreweave-hgx-h100", "CoreWeave", "HGX H100 (8 x H100)", "North America", 8, "h100-sxm", 0, {}, "49.24", "19.71", "2026-09-20", coreweave_src,
                 "$6.155 per GPU-hour; CoreWeave offers up to 60 % off for committed use."},
           Offer{"coreweave-hgx-h200", "CoreWeave", "HGX H200 (8 x H200)", "North America", 8, "h200-sxm", 0, {}, "50.44", "20.93", "2026-09-20", coreweave_src,
                 "$6.305 per GPU-hour."},
           Offer{"coreweave-hgx-b200", "CoreWeave", "HGX B200 (8 x B200)", "North America", 8, "b200", 128, 2048_GB, "68.80", "34.11", "2026-09-20", coreweave_src,
                 "$8.60 per GPU-hour."},
           Offer{"coreweave-gb200-nvl72", "CoreWeave", "GB200 NVL72 (4-GPU instance of a 72-GPU rack)", "North America", 4, "gb200", 144, 960_GB, "42.00", nullptr,
                 "2026-09-20", coreweave_src,
                 "$10.50 per GPU-hour; an instance is one GB200 compute tray (4 GPUs, 2 Grace CPUs) of an NVL72 rack, whose 72 GPUs share one NVLink domain (rent 18 instances for a whole rack)."},
           Offer{"coreweave-l40s", "CoreWeave", "8 x L40S", "North America", 8, "l40s", 0, {}, "18.00", nullptr, "2026-09-20", coreweave_src, "$2.25 per GPU-hour."},
           Offer{"coreweave-rtx-pro-6000", "CoreWeave", "8 x RTX PRO 6000 Blackwell Server Edition", "North America", 8, "rtx-pro-6000-server", 0, {}, "20.00", nullptr,
                 "2026-09-20", coreweave_src, "$2.50 per GPU-hour."},
           Offer{"nebius-h100", "Nebius", "1 x H100 (HGX, per GPU)", "", 1, "h100-sxm", 0, {}, "3.85", nullptr, "2026-09-25", nebius_src,
                 "Earlier list prices were $2.95 (https://www.opslyft.com/blog/nebius-vs-aws-gpu-cost-allocation, 2026-05-18); the source does not say whether the later figure is a list-price change or another preset."},
           Offer{"nebius-h200", "Nebius", "1 x H200 (HGX, per GPU)", "", 1, "h200-sxm", 16, 200_GB, "4.50", nullptr, "2026-09-25", nebius_src,
                 "Nebius's own docs gave $3.50 for the 1-GPU H200 preset (16 vCPU, 200 GB) after the October 2025 billing change (https://docs.nebius.com/signup-billing/billing-changes-oct-2025)."},
           Offer{"nebius-b200", "Nebius", "1 x B200 (HGX, per GPU)", "", 1, "b200", 0, {}, "7.15", nullptr, "2026-09-25", nebius_src, "Earlier list price $5.50 (8-GPU preset $44.00, us-central1)."},
           Offer{"crusoe-h100", "Crusoe", "1 x H100 80GB HGX (per GPU)", "", 1, "h100-sxm", 0, {}, "3.90", nullptr, "2026-09-20", crusoe_src,
                 "B200 and GB200 NVL72 were \"Contact sales\" (no public price) the same day."},
           Offer{"crusoe-h200", "Crusoe", "1 x H200 141GB HGX (per GPU)", "", 1, "h200-sxm", 0, {}, "4.29", nullptr, "2026-09-20", crusoe_src, ""},
           Offer{"crusoe-l40s", "Crusoe", "1 x L40S (per GPU)", "", 1, "l40s", 0, {}, "1.50", nullptr, "2026-09-20", crusoe_src, ""},
           Offer{"crusoe-mi300x", "Crusoe", "1 x MI300X (per GPU)", "", 1, "mi300x", 0, {}, "3.45", nullptr, "2026-09-20", crusoe_src, ""},
           Offer{"aws-p5en.48xlarge", "AWS", "p5en.48xlarge", "us-east-1", 8, "h200-sxm", 192, 2048_GiB, "63.296", "27.1988", "2026-08-06",
                 "AWS EC2 pricing API as printed by `dstack offer -b aws --instance-type p5en.48xlarge` in https://github.com/dstackai/dstack/pull/4110 (2026-08-06)",
                 "$7.912 per GPU-hour; the same $63.296 in us-east-2 and us-west-2; spot as observed that day."},
           Offer{"gcp-a3-ultragpu-8g", "GCP", "a3-ultragpu-8g", "us-central1", 8, "h200-sxm", 224, 2952_GiB, "83.49", "50.09", "2026-10-13",
                 "Google Cloud Billing Catalog API as snapshotted on 2026-10-13 in https://huggingface.co/datasets/tanod/cloud-gpu-list-prices",
                 "$10.4365 per GPU-hour (28 vCPU and 369 GiB per GPU); spot $6.2607 per GPU-hour."},
           Offer{"gcp-a3-megagpu-8g", "GCP", "a3-megagpu-8g", "us-east4", 8, "h100-sxm", 208, 1872_GB, "92.9376", "37.39", "2025-03-06",
                 "Google Cloud pricing as generated on 2025-03-06 in https://github.com/Cyclenerd/google-cloud-pricing-cost-calculator/blob/0166a59ebba7c36f2cc8c931d9f258dcebc44776/pricing.yml",
                 "us-east4 (the dataset lists no us-central1 price for it); H100 Mega: the same H100 SXM with 8 x 200 Gb/s GPUDirect-TCPXO NICs."},
           Offer{"aws-g6e.xlarge", "AWS", "g6e.xlarge", "us-east-1", 1, "l40s", 4, 32_GiB, "1.861", "0.7945", "2026-07-28", skypilot_aws_v7,
                 "Row g6e.xlarge,L40S,1.0,4.0,32.0,...,1.861,0.794500,us-east-1,use1-az1. The catalog commit is undated: the date "
                 "is that of the AWS Price List (us-east-1 index.csv, Last-Modified 2026-07-28) that gives g6e.48xlarge the "
                 "same catalog's figure. Spot as listed for use1-az1 (0.787 to 1.208 across zones)."},
           Offer{"aws-g6e.48xlarge", "AWS", "g6e.48xlarge", "us-east-1", 8, "l40s", 192, 1536_GiB, "30.13118", "7.5464", "2026-07-28",
                 skypilot_aws_v7,
                 "$3.766 per GPU-hour; the AWS Price List of 2026-07-28 (us-east-1 index.csv) gives the same 30.13118, as quoted "
                 "in a public pricing note. Spot as listed for use1-az1 (6.52 to 10.80 across zones)."},
           Offer{"aws-p6-b200.48xlarge", "AWS", "p6-b200.48xlarge", "us-east-1", 8, "b200", 192, 2048_GiB, "113.9328", "21.0148",
                 "2026-09-19",
                 "skypilot-org/skypilot-catalog catalogs/v8/aws/vms.csv at 00148f2af3672e2229b4f7bf8157d5a3f36e3c35 (generated from "
                 "the AWS pricing API); the same $113.9328 in AWS's price feed as read on 2026-07-28 and 2026-09-19 by public "
                 "pricing notes",
                 "$14.2416 per GPU-hour; Capacity Blocks $98.84 ($12.355 per GPU). Spot as listed for use1-az6."},
           Offer{"aws-p6-b300.48xlarge", "AWS", "p6-b300.48xlarge", "us-east-1", 8, "b300", 192, 4096_GiB, "142.416", nullptr, "2026-08-26",
                 p6_b300_src.c_str(),
                 "$17.802 per GPU-hour (us-east-1 and us-west-2; ap-northeast-2 $209.1735). The same source's p6-b200.48xlarge, $113.9328, "
                 "is the AWS price feed's figure (the aws-p6-b200.48xlarge row)."},
           Offer{"oci-bm-gpu-b300-8", "Oracle Cloud", "BM.GPU.B300.8", "us-chicago-1", 8, "b300", 256, 4096_GB, "120.00", nullptr, "2026-09-18",
                 oci_2026, "$15 per GPU-hour (part B112237)."},
           Offer{"oci-bm-gpu-gb300-4", "Oracle Cloud", "BM.GPU.GB300.4 (4 GPUs of a GB300 NVL72 rack)", "us-chicago-1", 4, "gb300", 144, 960_GB,
                 "72.00", nullptr, "2026-09-18", oci_2026,
                 "$18 per GPU-hour (part B112140); a shape of a 72-GPU NVLink domain, rented by the 4-GPU tray."},
           Offer{"oci-bm-gpu-mi355x-8", "Oracle Cloud", "BM.GPU.MI355X.8", "us-chicago-1", 8, "mi355x", 256, 3072_GB, "68.80", nullptr,
                 "2026-09-18", oci_2026, "$8.60 per GPU-hour (part B111758)."},
           Offer{"oci-vm-gpu3-1", "Oracle Cloud", "VM.GPU3.1 (1 x V100 SXM2 16GB)", "us-chicago-1", 1, "v100-sxm2-16gb", 12, 90_GB, "2.95", "1.475",
                 "2026-09-18", oci_2026, "Preemptible at half price (the spot figure); Oracle's V100 shapes are SXM2 16GB."},
           Offer{"aws-p3.2xlarge", "AWS", "p3.2xlarge", "us-east-1", 1, "v100-sxm2-16gb", 8, 61_GiB, "3.06", "0.3707", "2026-01-21",
                 p3_src.c_str(),
                 "Spot as that catalog lists it for use1-az1. p3.16xlarge (8 x V100 over NVLink) is $24.48, the same per GPU."},
           Offer{"aws-p3dn.24xlarge", "AWS", "p3dn.24xlarge", "us-east-1", 8, "v100-sxm2-32gb", 96, 768_GiB, "31.212", "8.2921", "2025-11-30",
                 p3dn_src.c_str(),
                 "$3.90 per GPU-hour; 100 Gb/s networking. Spot as that catalog lists it for use1-az1."},
           Offer{"massedcompute-h200-nvl", "Massed Compute", "gpu_1x_h200_nvl (1 x H200 NVL 141GB)", "", 1, "h200-nvl", 0, {}, "3.62", nullptr,
                 "2026-07-22",
                 "Massed Compute's own benchmark write-ups, Massed-Compute/gpu-benchmark laguna-xs-2/laguna-xs-2.md at "
                 "25e0657c62e4d4c80a08c028dd73fb2390c630a0 (\"gpu_1x_h200_nvl | 3.62\" $/hr; live runs of 2026-07-22)",
                 "On-demand list price on the day of the runs; the provider's write-ups call prices point-in-time."},
           Offer{"gcp-g2-standard-4", "GCP", "g2-standard-4", "us-central1", 1, "l4", 4, 16_GB, "0.706832255", "0.279932", "2025-03-06",
                 cyclenerd_src, "The same g2 prices were still listed on 2026-09-19 (g2-standard-48 at $4.001665)."},
           Offer{"gcp-g2-standard-96", "GCP", "g2-standard-96", "us-central1", 8, "l4", 96, 384_GB, "8.003330296", "3.148768", "2025-03-06",
                 cyclenerd_src, "$1.0004 per GPU-hour."},
           Offer{"azure-nd96isr-h200-v5", "Azure", "Standard_ND96isr_H200_v5", "eastus2", 8, "h200-sxm", 96, 1850_GB, "84.80", nullptr,
                 "2026-09-19", azure_sep_src,
                 "$10.60 per GPU-hour in eastus2 and westus3; $114.688 in swedencentral. The note marks the row as not re-pulled; "
                 "other public configurations give the same $84.80 for West US 3."},
           Offer{"azure-nd96isr-mi300x-v5", "Azure", "Standard_ND96isr_MI300X_v5", "eastus2", 8, "mi300x", 96, 1850_GB, "48.00", nullptr,
                 "2026-09-19", azure_sep_src, "$6.00 per GPU-hour in eastus2 and westus3; $67.20 in swedencentral."},
           Offer{"together-h100", "Together AI", "1 x H100 SXM (GPU cluster, per GPU)", "", 1, "h100-sxm", 0, {}, "3.99", nullptr, "2026-09-19",
                 together_src, "Clusters of at least 8 GPUs; $3.19 reserved. An API listing of 2026-05-08 gave $3.49-7.49 on demand across its GPUs."},
           Offer{"together-h200", "Together AI", "1 x H200 SXM (GPU cluster, per GPU)", "", 1, "h200-sxm", 0, {}, "5.99", nullptr, "2026-09-19",
                 together_src, "$3.99 reserved."},
           Offer{"together-b200", "Together AI", "1 x HGX B200 (GPU cluster, per GPU)", "", 1, "b200", 0, {}, "8.19", nullptr, "2026-09-19",
                 together_src, "$7.99 for 7-30 days, $7.79 for 31-90, $6.79 for 91-180 (the B200 page, July 2026)."},
           Offer{"vultr-mi300x", "Vultr", "1 x MI300X (Vultr, per GPU)", "", 1, "mi300x", 0, {}, "1.85", nullptr, "2026-07-31", vultr_src, ""},
           Offer{"vultr-mi325x", "Vultr", "1 x MI325X (Vultr, per GPU)", "", 1, "mi325x", 0, {}, "2.00", nullptr, "2026-07-31", vultr_src,
                 "The same day TensorWave listed MI325X \"starting at\" $2.25 per GPU-hour (not called on-demand) and DigitalOcean $2.88 reserved for 12 months."},
           Offer{"vultr-mi355x", "Vultr", "1 x MI355X (Vultr, per GPU)", "", 1, "mi355x", 0, {}, "2.59", nullptr, "2026-07-31", vultr_src,
                 "Oracle's BM.GPU.MI355X.8 lists $8.60 per GPU-hour; TensorWave \"starting at\" $2.95 the same day."},
           Offer{"hyperstack-b300", "Hyperstack", "1 x B300 (Hyperstack, per GPU)", "", 1, "b300", 0, {}, "7.40", nullptr, "2026-07-31", hyperstack_src, ""},
           Offer{"hyperstack-b200", "Hyperstack", "1 x B200 (Hyperstack, per GPU)", "", 1, "b200", 0, {}, "6.00", nullptr, "2026-07-31", hyperstack_src, "$5.10 reserved."},
           Offer{"hyperstack-h200-sxm", "Hyperstack", "1 x H200 SXM (Hyperstack, per GPU)", "", 1, "h200-sxm", 0, {}, "3.99", nullptr, "2026-07-31", hyperstack_src,
                 "$2.79 reserved."},
           Offer{"hyperstack-h100-sxm", "Hyperstack", "1 x H100 SXM (Hyperstack, per GPU)", "", 1, "h100-sxm", 0, {}, "3.20", nullptr, "2026-07-31", hyperstack_src,
                 "$2.72 reserved; H100 PCIe $2.50 on demand."},
           Offer{"hyperstack-rtx-pro-6000-server", "Hyperstack", "1 x RTX PRO 6000 SE (Hyperstack, per GPU)", "", 1, "rtx-pro-6000-server", 0, {}, "1.85", "1.48",
                 "2026-07-31", hyperstack_src, "Spot $1.48, $1.30 reserved; SE is the Server Edition."},
       }) {
    v.push_back({.id = x.id, .provider = x.provider, .instance_type = x.type, .region = x.region, .gpu_count = x.gpus, .gpu_id = x.gpu,
                 .vcpus = x.vcpus, .ram = x.ram, .on_demand = usd_per_hour(x.on_demand),
                 .spot = x.spot ? std::optional<MoneyRate>(usd_per_hour(x.spot)) : std::nullopt, .as_of = x.as_of, .source = x.source,
                 .note = std::string("Read from a stored copy of a dated third-party transcription, not the provider's page. ") + x.note});
  }
  // GCP A4 (8 x B200) is not sold on demand (Dynamic Workload Scheduler and commitments only): the 1-year commitment
  // ($11.116 per GPU-hour) is its headline price, never the preemptible spot price.
  v.push_back({.id = "gcp-a4-highgpu-8g", .provider = "GCP", .instance_type = "a4-highgpu-8g", .region = "us-central1", .gpu_count = 8,
               .gpu_id = "b200", .vcpus = 224, .ram = 3968_GB, .spot = usd_per_hour("39.6336"), .reserved = usd_per_hour("88.928"), .min_term = 1_year,
               .as_of = "2026-09-19",
               .source = "Google Cloud accelerator-optimized pricing (https://cloud.google.com/products/compute/pricing/accelerator-optimized) "
                         "as transcribed on 2026-09-19 in a public pricing note; shape from skypilot-org/skypilot-catalog catalogs/v8/gcp",
               .note = "No on-demand price: reserved is the 1-year commitment, $11.116 per GPU-hour (3-year $7.088, DWS Flex "
                       "$8.055, spot $4.9542); the region is the page's default, not stated."});
  // AutoDL (a Chinese marketplace, per hour, CNY): the listed prices a public tutorial read on 2026-10-01. Prices vary by
  // machine and region; a scrape of AutoDL's market API in October 2026 gave RTX 4090 at a median of 2.19 CNY/h.
  struct AutoDl { const char* id; const char* gpu; const char* label; const char* cny; };
  for (const AutoDl& a : {AutoDl{"autodl-rtx-3090", "rtx-3090", "1 x RTX 3090 24GB (pay as you go)", "1.32"},
                          AutoDl{"autodl-rtx-4090", "rtx-4090", "1 x RTX 4090 24GB (pay as you go)", "1.88"},
                          AutoDl{"autodl-a800", "a800-sxm4-80gb", "1 x A800 80GB (pay as you go)", "5.59"}}) {
    v.push_back({.id = a.id, .provider = "AutoDL", .instance_type = a.label, .region = "CN", .gpu_count = 1, .gpu_id = a.gpu,
                 .currency = Currency::CNY, .on_demand = MoneyRate(a.cny, Currency::CNY), .as_of = "2026-10-01",
                 .source = "AutoDL (https://www.autodl.com/home) list prices as read on 2026-10-01 in a public tutorial "
                           "(\"RTX 3090 24GB 1.32/h, RTX 4090 24GB 1.88/h, A800 80GB 5.59/h\")",
                 .note = "A marketplace: the price varies by machine, region and time; the A800 variant (SXM or PCIe) is not "
                         "stated (SXM assumed, the catalog's A800)."});
  }
  // Monthly rentals in CNY, from the source material: 1 x RTX 4090 at 2,000 and at 5,000 CNY/month; 1 x A100 at
  // 8,000 and at 15,000 CNY/month; 4-8 x A100 from 50,000 CNY/month.
  struct Rental { const char* id; const char* type; int gpus; const char* gpu; const char* cny; const char* note; };
  for (const Rental& r : {Rental{"cn-rental-rtx-4090-low", "1 x RTX 4090, monthly (low end)", 1, "rtx-4090", "2000", "Low end of the source material's 2,000-5,000 CNY/month range."},
                          Rental{"cn-rental-rtx-4090-high", "1 x RTX 4090, monthly (high end)", 1, "rtx-4090", "5000", "High end of the source material's 2,000-5,000 CNY/month range."},
                          Rental{"cn-rental-a100-low", "1 x A100, monthly (low end)", 1, "a100-pcie-80gb", "8000", "Low end of the source material's 8,000-15,000 CNY/month range; the A100 variant is not stated (80GB PCIe assumed)."},
                          Rental{"cn-rental-a100-high", "1 x A100, monthly (high end)", 1, "a100-pcie-80gb", "15000", "High end of the source material's 8,000-15,000 CNY/month range; the A100 variant is not stated (80GB PCIe assumed)."},
                          Rental{"cn-rental-4x-a100", "4 x A100 server, monthly (from)", 4, "a100-sxm-80gb", "50000", "The source material says 4-8 x A100 from 50,000 CNY/month; recorded as the smallest (4-GPU) configuration at the lowest price; the variant is not stated (SXM 80GB assumed)."}}) {
    v.push_back({.id = r.id, .provider = "China monthly rental (unnamed)", .instance_type = r.type, .region = "CN",
                 .gpu_count = r.gpus, .gpu_id = r.gpu, .currency = Currency::CNY,
                 .monthly = Money(r.cny, Currency::CNY),
                 .as_of = recorded, .source = src::source_material,
                 .note = std::string(r.note) + " The source material gives no date (recorded 2026-11-21)."});
  }
  // Colab Pro: $9.99 per month for 100 compute units (TechCrunch, 2022-09-29: compute units "starting at $9.99 for 100
  // units"; Colab Pro = 100 units/month); the source material rounds it to $10.
  // Priced per T4-hour, not per month: 100 units buy about 50 T4-hours (about 2 units an hour, McCormick 2024),
  // so $9.99 / 50 h = $0.1998 per T4-hour. Spreading $9.99 over 730 h ($0.014/h) ranked it as a dedicated GPU.
  v.push_back({.id = "colab-pro", .provider = "Google Colab", .instance_type = "Colab Pro (100 compute units/month, about 50 T4-hours)", .region = "",
               .gpu_count = 1, .gpu_id = "t4",
               .on_demand = usd_per_hour("0.1998"),
               .as_of = "2022-09-29",
               .source = "Google Colab plans, https://colab.research.google.com/signup; price as reported at https://techcrunch.com/2022/09/29/google-colaboratory-launches-a-pay-as-you-go-option-premium-gpu-access/; 100 units per month for Pro per https://knowledgebase.bison.co.in/view_article.php?id=690 and $10 per 100 units per http://mccormickml.com/2024/04/23/colab-gpus-features-and-pricing",
               .note = "Not a dedicated GPU: the plan buys 100 compute units a month, which a T4 session spends in roughly 50 hours, so the price is recorded per T4-hour ($9.99 / 50 h); sessions are shared, preemptible and end after hours, so it is no option for a multi-day run. The $9.99 figure dates from the 2022 introduction of compute units (McCormick still quotes $10 per 100 units in April 2024); no newer stored copy of Google's plan page was found, hence the stale-price warning."});
  // Google Cloud TPUs, on demand per chip-hour (us-central1), and AWS trn1.32xlarge (us-east-1): SkyPilot's generated
  // cloud catalogs (skypilot-org/skypilot-catalog catalogs/v7/gcp/vms.csv at 017e2502, catalogs/v7/aws/vms.csv at
  // 001367d2), read on 2026-11-29; their own dates are not recorded in the rows.
  const std::string skypilot_gcp = "Google Cloud TPU prices as SkyPilot's catalog records them (https://github.com/skypilot-org/skypilot-catalog/blob/017e2502fb63c7a28757acd94002b2d6099d3e3d/catalogs/v7/gcp/vms.csv), read 2026-11-29";
  v.push_back({.id = "gcp-tpu-v5e", .provider = "Google Cloud", .instance_type = "TPU v5e (v5litepod), per chip", .region = "us-central1",
               .gpu_count = 1, .gpu_id = "tpu-v5e", .on_demand = usd_per_hour("1.20"),
               .as_of = "2026-11-29", .source = skypilot_gcp,
               .note = "The per-chip rate of the v5litepod rows: tpu-v5litepod-256 $307.20/h and tpu-v5litepod-64 $76.80/h on demand, $1.20 a chip-hour (us-central1-a). Slices are rented whole (1 to 256 chips, 8 to a host); the catalog row's date is not recorded."});
  v.push_back({.id = "gcp-tpu-v5p-8", .provider = "Google Cloud", .instance_type = "TPU v5p-8 (4 chips)", .region = "us-central1",
               .gpu_count = 4, .gpu_id = "tpu-v5p", .on_demand = usd_per_hour("16.80"), .spot = usd_per_hour("6.72"),
               .as_of = "2026-11-29", .source = skypilot_gcp,
               .note = "tpu-v5p-8 row, us-central1-a: $16.80/h on demand, $6.72 spot, for 4 chips (v5p slice names count TensorCores, two a chip): $4.20 a chip-hour, as the tpu-v5p-12288 row (6,144 chips, $25,804.80/h). The catalog row's date is not recorded."});
  v.push_back({.id = "gcp-tpu-v6e", .provider = "Google Cloud", .instance_type = "TPU v6e (Trillium), per chip", .region = "us-central1",
               .gpu_count = 1, .gpu_id = "tpu-v6e", .on_demand = usd_per_hour("2.70"), .spot = usd_per_hour("0.64833"),
               .reserved = usd_per_hour("1.89"), .min_term = 1_year,
               .as_of = "2026-11-29",
               .source = skypilot_gcp + "; 1-year commitment as reported from Google's December 2024 GA announcement: \"available starting at $2.7000 per chip-hour. With 1-year and 3-year commitments, it is available starting at $1.8900 per chip-hour and $1.2200 per chip-hour\" (https://neowin.net/amp/google-takes-on-nvidia-blackwell-gpus-with-the-new-trillium-tpus)",
               .note = "tpu-v6e-1 row, us-central1-b: $2.70/h on demand, $0.64833 spot (europe-west4 $2.97, asia-northeast1 $3.24). Reserved = the 1-year commitment rate, $1.89 (3-year: $1.22), from a press report of Google's announcement, not a stored Google page."});
  // Reserved-only offers: a price that binds the renter for a term, with no on-demand price that day.
  v.push_back({.id = "do-mi350x", .provider = "DigitalOcean", .instance_type = "1 x MI350X (GPU Droplet, 12-month reserved, per GPU)",
               .gpu_count = 1, .gpu_id = "mi350x", .reserved = usd_per_hour("4.76"), .min_term = 1_year, .as_of = "2026-07-31",
               .source = "DigitalOcean GPU Droplets pricing (https://www.digitalocean.com/pricing/gpu-droplets) as captured on 2026-07-31 "
                         "in a public pricing note: \"$4.76\", \"12 Month Reserved Price\", per GPU-hour",
               .note = "Reserved for 12 months: no on-demand MI350X price was published that day. The same page: MI325X $2.88 and MI300X "
                       "$1.91 reserved; MI300X's $1.99 on-demand struck through, new on-demand prices announced for 2026-08-01."});
  v.push_back({.id = "aws-trn2.48xlarge", .provider = "AWS", .instance_type = "trn2.48xlarge (Capacity Block)", .gpu_count = 16,
               .gpu_id = "trainium2", .vcpus = 192, .ram = 2048_GiB, .reserved = usd_per_hour("35.7608"), .min_term = 1_day, .as_of = "2026-08-01",
               .source = "AWS EC2 Capacity Blocks pricing (https://aws.amazon.com/ec2/capacityblocks/pricing/: trn2.48xlarge, 16 x "
                         "Trainium2, effective $35.7608 an hour, $2.235 an accelerator-hour) as fetched on 2026-08-01 in a public "
                         "research note on EFA-capable instances; vCPUs and memory from the EC2 accelerated-computing instance "
                         "reference in the same note",
               .note = "Sold as Capacity Blocks (reserved ahead for 1-14 days or weeks up to 182 days): AWS's price feeds held no "
                       "on-demand price for trn2.48xlarge in us-east-1, us-east-2 or us-west-2 (a public note of 2026-10-03, which "
                       "found a 24-hour block in ap-south-2b at $858.26, $35.76/h, and spot at $14.56/h in us-east-2c). The page "
                       "announced its next price update for October 2026. The Trn2 UltraServer (trn2u, 64 chips) has no published "
                       "price."});
  v.push_back({.id = "aws-trn1.32xlarge", .provider = "AWS", .instance_type = "trn1.32xlarge", .region = "us-east-1",
               .gpu_count = 16, .gpu_id = "trainium", .vcpus = 128, .ram = 512_GiB, .on_demand = usd_per_hour("21.50"),
               .as_of = "2026-11-29",
               .source = "AWS EC2 on-demand price as SkyPilot's catalog records it (https://github.com/skypilot-org/skypilot-catalog, catalogs/v7/aws/vms.csv at 001367d2: \"trn1.32xlarge,Trainium,16.0,128.0,512.0,,21.5\", us-east-1), read 2026-11-29",
               .note = "16 Trainium chips, 128 vCPU, 512 GiB. The same $21.50/h appears in an independent price table on GitHub. No on-demand price for trn2.48xlarge is recorded (aws-trn2.48xlarge holds its Capacity Block price): SkyPilot's row ($85.964/h, us-east-2) carries no accelerator field and another listing says $50-60/h; neither could be checked against an AWS page."});
  // The network between instances, as each provider publishes it: the NICs the GPUs' traffic uses (a
  // host-only NIC apart where the provider lists it so), per direction, sustained (an "up to" rate's
  // baseline). Offers not listed here record none
  // (perf/fabric.hpp offer_fabric says what is assumed for them).
  {
    const char* aws = "AWS EC2 accelerated computing instance types, \"Network specifications\" (baseline / burst Gbps, EFA), "
                      "https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html";
    const char* gcp = "Google Cloud, \"GPU network bandwidth\" (bandwidth per machine series and its GPU-to-GPU networking), "
                      "https://cloud.google.com/compute/docs/gpus/gpu-network-bandwidth";
    const char* oci = "Oracle, oracle-quickstart/oci-gpu-quickstarts README for the shape (RDMA network: NICs x Gb/s)";
    struct Net {
      const char* id;
      double gbit;  // per instance, all NICs
      InstanceNetwork kind;
      const char* source;
      const char* what;  // as the source gives it
    };
    using N = InstanceNetwork;
    const Net nets[] = {
        {"aws-p4d.24xlarge", 400, N::efa, aws, "4x 100 Gigabit, EFA"},
        {"aws-p5.48xlarge", 3200, N::efa, aws, "3200 Gigabit, EFA"},
        {"aws-p5e.48xlarge", 3200, N::efa, aws, "3200 Gigabit, EFA"},
        {"aws-p5en.48xlarge", 3200, N::efa, aws, "3200 Gigabit, EFA"},
        {"aws-p6-b200.48xlarge", 3200, N::efa, aws, "3200 Gigabit, EFA"},
        {"aws-p6-b300.48xlarge", 6400, N::efa, aws, "6400 Gigabit, EFA"},
        {"aws-p3dn.24xlarge", 100, N::efa, aws, "100 Gigabit, EFA"},
        {"aws-g5.12xlarge", 40, N::efa, aws, "40 Gigabit, EFA"},
        {"aws-g6e.48xlarge", 400, N::efa, aws, "400 Gigabit, EFA"},
        {"aws-trn1.32xlarge", 800, N::efa,
         "AWS Neuron documentation, Trn1 architecture, https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/neuron-hardware/trn1-arch.html",
         "EFA bandwidth 800 Gbps (8 EFA devices; trn1n.32xlarge 1,600)"},
        {"aws-trn2.48xlarge", 3200, N::efa,
         "AWS Neuron documentation, Trn2 architecture, https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/neuron-hardware/trn2-arch.html",
         "EFA bandwidth 3,200 Gbps"},
        {"aws-g5.xlarge", 2.5, N::tcp, aws, "2.5 / 10.0 Gbps baseline / burst, no EFA"},
        {"aws-g6.xlarge", 2.5, N::tcp, aws, "2.5 / 10.0 Gbps baseline / burst, no EFA"},
        {"aws-g6e.xlarge", 2.5, N::tcp, aws, "2.5 / 20.0 Gbps baseline / burst, no EFA"},
        {"aws-p3.2xlarge", 2.5, N::tcp, aws, "2.5 / 10.0 Gbps baseline / burst, no EFA"},
        {"gcp-a2-highgpu-8g", 100, N::tcp, gcp, "A2: 100 Gbps, GPU-to-GPU networking N/A"},
        {"gcp-g2-standard-96", 100, N::tcp, gcp, "G2: up to 100 Gbps, GPU-to-GPU networking N/A"},
        {"gcp-a3-highgpu-8g", 1000, N::gpudirect_tcpx, gcp, "A3 High: 1,000 Gbps, GPUDirect-TCPX"},
        {"gcp-a3-megagpu-8g", 1800, N::gpudirect_tcpx, gcp, "A3 Mega: 1,800 Gbps, GPUDirect-TCPXO"},
        {"gcp-a3-ultragpu-8g", 3200, N::roce, gcp, "A3 Ultra: eight CX-7 NICs, 3,200 Gbps, GPUDirect RDMA (3,600 with the host NIC)"},
        {"gcp-a4-highgpu-8g", 3200, N::roce, gcp, "A4: 3,600 Gbps, GPUDirect RDMA; 3,200 recorded, the GPUs' NICs without the 400 Gbps host NIC, as A3 Ultra's eight CX-7 NICs"},
        {"azure-nd96asr-v4", 1600, N::infiniband,
         "Microsoft Learn, ND A100 v4 series, https://learn.microsoft.com/azure/virtual-machines/nda100-v4-series", "8 x 200 Gb/s HDR InfiniBand a VM, GPUDirect RDMA"},
        {"azure-nd96isr-h100-v5", 3200, N::infiniband, "Microsoft Learn, ND H100 v5 series (MicrosoftDocs/azure-docs includes/ndh100v5-series-summary.md)",
         "3.2 Tb/s a VM, 400 Gb/s Quantum-2 CX7 InfiniBand per GPU, GPUDirect RDMA"},
        {"azure-nd96isr-mi300x-v5", 3200, N::infiniband, "Microsoft Learn, ND MI300X v5 series (MicrosoftDocs/azure-docs nd-mi300x-v5-series.md)",
         "8 x 400 Gigabit NDR InfiniBand, GPUDirect RDMA"},
        {"azure-nd96isr-h200-v5", 3200, N::infiniband, "Microsoft Learn, ND H200 v5 series (MicrosoftDocs/azure-compute-docs includes/nd-h200-v5-series-summary.md)",
         "3.2 Tb/s a VM, a dedicated 400 Gb/s Quantum-2 CX7 InfiniBand connection per GPU, GPUDirect RDMA, configured between the VMs of one scale set (the 80,000 Mbps of the size table is the separate Ethernet)"},
        {"alibaba-gn7-c13g1.26xlarge", 30, N::tcp, gn7_family_src + 2, "network baseline bandwidth 30 Gbit/s (VPC Ethernet; gn7 has no RDMA network)"},
        {"alibaba-gn7-c13g1.13xlarge", 16, N::tcp, gn7_family_src + 2,
         "network baseline bandwidth 16 Gbit/s (15 in an older copy of the page; VPC Ethernet; gn7 has no RDMA network)"},
        {"oci-bm-gpu-b300-8", 6400, N::roce, oci, "nvidia/B300/README-B300.md: 8 x 2 x 400 Gb/s RDMA (RoCE)"},
        {"oci-bm-gpu-gb300-4", 3200, N::roce, oci, "nvidia/GB300/README-GB300.md: 8 x 400 Gb/s RDMA"},
        {"oci-bm-gpu-mi355x-8", 3200, N::roce, oci, "amd/MI355X/README-MI355X.md: 8 x 400 Gb/s Ethernet RDMA"},
    };
    for (const Net& n : nets)
      for (CloudOffer& o : v)
        if (o.id == n.id) {
          o.network = Bandwidth::from_value(n.gbit * 1e9 / 8);
          o.network_kind = n.kind;
          o.note += std::string(o.note.empty() ? "" : " ") + "Network between instances: " + n.what + " (" + n.source + ").";
        }
    // RunPod's pods reach each other over its Global Networking overlay only: "The network operates at
    // 100 Mbps between Pods" (https://docs.runpod.io/pods/networking); its Instant Clusters, with
    // dedicated interfaces, are another product, not priced here. vast.ai's and AutoDL's instances are
    // GPUs of independent hosts, between which neither publishes a network: an overlay (the internet)
    // is assumed. An overlay carries no collectives: a run stays in one instance.
    for (CloudOffer& o : v)
      if (o.provider == "RunPod") {
        o.network = Bandwidth::from_value(0.1e9 / 8);
        o.network_kind = N::overlay;
        o.note += std::string(o.note.empty() ? "" : " ") +
                  "Network between instances: 100 Mbps between pods, RunPod's Global Networking overlay (https://docs.runpod.io/pods/networking), "
                  "no network for collectives; Instant Clusters, with their own interfaces, are not this offer.";
      } else if (o.provider == "vast.ai" || o.provider == "AutoDL") {
        o.network_kind = N::overlay;
        o.note += std::string(o.note.empty() ? "" : " ") +
                  "Network between instances: none published; instances on a marketplace's independent hosts are assumed to reach each other "
                  "over the internet only (an overlay: no network for collectives).";
      }
  }
  // Offers sold by the GPU (max_gpus). Marketplaces rent a host's GPUs by the count at the per-GPU
  // price: a RunPod pod has --gpuCount GPUs (docs.runpod.io, "runpodctl create pod": "number of GPUs
  // for the pod"), a vast.ai or AutoDL instance some GPUs of one machine; up to 8 of one host is
  // assumed (the usual 8-GPU server), as the largest count each sells was not read. The records whose
  // instance type says "per GPU" hold the per-GPU price of an 8-GPU board's node (HGX, OAM), rented as
  // a node of up to 8.
  for (CloudOffer& o : v) {
    if (o.gpu_count != 1) continue;
    const bool market = o.provider == "RunPod" || o.provider == "vast.ai" || o.provider == "AutoDL";
    const bool per_gpu = o.instance_type.find("per GPU") != std::string::npos;
    if (!market && !per_gpu) continue;
    o.max_gpus = 8;
    o.note += market ? " Sold by the GPU: an instance of up to 8 GPUs of one host is assumed (max_gpus; the most the marketplace sells per host was not read)."
                     : " A per-GPU price of an 8-GPU node: instances of up to 8 GPUs (max_gpus).";
  }
  return v;
}

}  // namespace capplan::builtin

namespace capplan {

// The built-in catalog, built once.
inline const Catalog& Catalog::builtin() {
  static const Catalog c = make_builtin();
  return c;
}
// A fresh copy of the built-in catalog, to extend or override.
inline Catalog Catalog::make_builtin() {
  Catalog c;
  c.gpus_ = builtin::gpus();
  c.cpus_ = builtin::cpus();
  c.memory_ = builtin::memory_modules();
  c.storage_ = builtin::storage_devices();
  c.psus_ = builtin::power_supplies();
  c.chassis_ = builtin::chassis();
  c.network_ = builtin::network_adapters();
  c.boards_ = builtin::motherboards();
  c.systems_ = builtin::systems();
  c.offers_ = builtin::cloud_offers();
  return c;
}

}  // namespace capplan
