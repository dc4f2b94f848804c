// Published nccl-tests all_reduce_perf bus bandwidths that capplan's communication model predicts
// (perf/communication.hpp, perf/fabric.hpp): the data rows, then the function that computes the
// predictions and a summary. apps/gen_validation_doc renders them in docs/validation.md;
// tests/integration_test.cpp recomputes them.
//
// Every row is "validation" but three: capplan's link efficiencies (NVLink 0.80, PCIe 0.87, InfiniBand
// 0.85) come from the sources cited in perf/communication.hpp and perf/fabric.hpp and are not to be
// changed to match these rows. The three "calibration" rows set a constant each: 8 x H100 with NVLink
// SHARP (NCCL's maintainer's figure) nvls_efficiency, 4 x RTX 5090 through host memory
// shm_efficiency, 4 x RTX PRO 6000 with peer-to-peer forced through a CPU p2p_via_cpu_efficiency; the
// summary counts the validation rows only. What is an input: the GPU (Catalog::builtin()), how many
// GPUs and how many per node, the fabric between nodes, the message size, the host's memory where the
// source names the CPUs. What is never an input: the measured bus bandwidth.
//
// busbw is nccl-tests' "bus bandwidth": algbw x 2(n-1)/n for all-reduce (nccl-tests doc/PERFORMANCE.md),
// what capplan's all_reduce_bus_bandwidth() returns. nccl-tests sizes are binary (8G = 8 GiB).
//
// Test and documentation data, not library: outside include/, not installed, on the include path of
// the tests and the validation page's generator through the CMake target capplan_validation (the
// whole validation/ folder), as validation_cases.hpp.
#pragma once

#include "capplan/hardware/builtin_catalog.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/perf/communication.hpp"
#include "capplan/perf/fabric.hpp"
#include "capplan/units/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace capplan::perf {

// One published all-reduce measurement next to capplan's prediction.
struct CollectiveCase {
  std::string tag;         // "validation": never used to set a constant
  std::string topology;    // "1 node, NVSwitch (NVLink3)"
  std::string gpu;         // catalog name, "A100 SXM 80GB"
  int gpus = 0;
  int gpus_per_node = 0;
  double message_bytes = 0;
  double predicted = 0;    // capplan busbw, GB/s (1e9 B/s)
  double published = 0;    // nccl-tests busbw, GB/s
  // capplan busbw with the constants fitted on this row's source at their priors (leave one source out);
  // `predicted` where the source fitted none
  double left_out = 0;
  std::string left_out_constants;  // "nvls_efficiency 0.686 -> 0.80"; empty where the source fitted none
  std::string confidence;  // H: maintainer, vendor file or full table; M: a user's measurement
  std::string source;      // repo / issue + short quote
  std::string links;       // the links capplan times the collective on, with their figures
  std::string note;        // what the row assumes
  std::string why_off;     // one short line: why capplan misses it (rows off by more than 10 %)

  [[nodiscard]] double error() const { return predicted / published - 1.0; }
  [[nodiscard]] double left_out_error() const { return left_out / published - 1.0; }
};

namespace validation {

// The rows: inputs, the published figure and its citation only.
struct NcclRow {
  const char* topology;
  const char* gpu;         // Catalog::builtin().find_gpu name
  int gpus;
  int gpus_per_node;
  const char* fabric;      // fabric preset between nodes (perf/fabric.hpp); "" for one node
  double message_gib;      // nccl-tests size (binary)
  double published;        // busbw, GB/s
  const char* confidence;  // as the research notes grade it: H or M
  const char* source;
  const char* note;        // what the row assumes
  const char* why_off;     // one short line, for a row capplan misses by more than nccl_off_threshold
  const char* tag;         // "calibration": sets a constant (perf/communication.hpp nvls_efficiency); "validation": never
  bool ring;               // the run forced NCCL's ring (NCCL_ALGO=RING or NCCL_NVLS_ENABLE=0): capplan times the ring too
  PcieHost host = PcieHost::pcie_switch;  // how the host attaches PCIe GPUs (perf/communication.hpp)
  PeerToPeer p2p = PeerToPeer::automatic;  // NCCL_P2P_LEVEL=SYS (forced) or NCCL_P2P_DISABLE=1 in the run
  // The host's DRAM wire rate where the source names its CPUs, GB/s (NCCL's SHM shares it among the
  // GPUs: perf/communication.hpp shm_host_share); 0: capplan's assumption for the host.
  double host_memory_gbps = 0;
};

// A row further off than this gets a "why" line on the page (tests/integration_test.cpp checks both ways).
inline constexpr double nccl_off_threshold = 0.10;

// From the nccl-tests research notes (rows graded H or M with a concrete number only).
inline constexpr NcclRow nccl_rows[] = {
    {"1 node, NVSwitch (NVLink3)", "A100 SXM 80GB", 8, 8, "", 8, 231.58, "H",
     "Azure/AI-benchmarking-guide Azure_Results/ND_A100_v4_results.md (ND A100 v4, NCCL 2.18.5): \"| 8G | 231.58 |\"", "", "", "validation", false},
    {"1 node, NVSwitch (NVLink3), AWS p4d", "A100 SXM 40GB", 8, 8, "", 1, 230.77, "H",
     "NVIDIA/nccl#527: \"1 1073741824 ... 8142.6 131.87 230.77\" (out-of-place)", "", "", "validation", false},
    {"1 node, NVSwitch (NVLink4), NCCL_ALGO=RING", "H100 SXM", 8, 8, "", 8, 370, "H",
     "NVIDIA/nccl-tests#212 (sjeaugey): \"NCCL can get an effective NVLink bandwidth of 370GB/s ... or when running "
     "with NCCL_ALGO=RING\"",
     "Ring, forced; NCCL's default on this node is NVLS (the calibration row below)",
     "", "validation", true},
    {"1 node, NVSwitch (NVLink4), NVLS off", "H200 SXM", 8, 8, "", 16, 367.2, "M",
     "stas00/ml-engineering network/README.md (nccl 2.27.7, 16 GiB): \"NCCL_NVLS_ENABLE=0 | Ring | 367.2GBps\"",
     "Ring, forced (NVLS gives 480.0 GB/s there). The stored copy of the source carries 2026 dates and was not "
     "checked against the live repository",
     "", "validation", true},
    {"4 nodes, NVSwitch + 8 x HDR IB per node", "A100 SXM 80GB", 32, 8, "ib-hdr", 8, 192, "H",
     "NVIDIA/nccl#812 (AddyLaddy): \"On an Nvidia DGX-A100 system we have 8x200Gbit/s IB cards and we measure 192GB/s "
     "AllReduce BusBW\"",
     "The source gives no node count. 4 nodes used: 2-node results are inflated by NCCL's tree algorithms (nccl-tests#196, "
     "nccl#812), and the ring figure holds from 3 nodes up",
     "the NICs set the rate in both; NCCL reaches ~24 of 25 GB/s per HDR NIC (sjeaugey, nccl-tests#160), capplan "
     "assumes InfiniBand's 0.85", "validation", false},
    {"4 nodes, NVSwitch + 8 x NDR IB per node", "H100 SXM", 32, 8, "ib-ndr", 8, 376, "H",
     "NVIDIA/nccl-tests#290 (AddyLaddy): \"For NDR @ 400Gbps you should see 46-48GB/s per NIC\"",
     "Published figure: the midpoint, 47 GB/s per NIC x 8 NICs (range 368-384). 4 nodes, as the HDR row",
     "", "validation", false},
    {"1 box, PCIe 5, 2 x Xeon 8480+, ACS off", "RTX 5090", 8, 8, "", 8, 28, "M",
     "NVIDIA/nccl#1639: \"8 GPU max performance : bwbus 28GB/s\"",
     "GeForce cards have no PCIe peer-to-peer (catalog; sjeaugey, nccl-tests#287), so NCCL goes through host memory "
     "(SHM) at the efficiency the 4-GPU row sets, and the 8 GPUs share the host's DRAM: 2 x 8 channels of DDR5-4800 "
     "(614.4 GB/s; the thread names the CPUs and 16 DIMMs, the speed is inferred from the Xeon 8480+'s) x 0.75 (STREAM) "
     "/ (2 x 8) = 28.8 GB/s each (shm_host_share; the mechanism was modelled after this row had shown it, 2026-12-02, so "
     "the row is not independent of it, and shm_efficiency no longer sets it; the 0.75 is STREAM's, not fitted)",
     "", "validation", false, PcieHost::root_complex, PeerToPeer::automatic, 614.4},
    {"1 box, PCIe 5, 2 x Xeon 8480+, ACS off", "RTX 5090", 4, 4, "", 8, 35, "M",
     "NVIDIA/nccl#1639: \"4GPU max performance : bwbus 35GB/s\"",
     "Through host memory (SHM), as the 8-GPU row; sets shm_efficiency = 35 / 63.0 GB/s (PCIe 5 x16)", "", "calibration",
     false, PcieHost::root_complex, PeerToPeer::automatic, 614.4},
    {"1 box, PCIe 4, one NUMA node, no PCIe switch", "RTX 4090", 4, 4, "", 8, 18, "M",
     "NVIDIA/nccl#1603: \"It's good when set NCCL_P2P_LEVEL=SYS on allreduce, compared to SHM, got 18->22 BUSBW\"",
     "The SHM figure (stock driver: no peer-to-peer); the thread gives no message size (8 GiB used)", "", "validation",
     false, PcieHost::root_complex},
    {"1 box, PCIe 4, one NUMA node, no PCIe switch, P2P forced", "RTX 4090", 4, 4, "", 8, 22, "M",
     "NVIDIA/nccl#1603 (as the SHM row): \"got 18->22 BUSBW\" with NCCL_P2P_LEVEL=SYS",
     "Peer-to-peer forced through the CPU (\"we activate the P2P on 4x4090\": a driver patched to enable it); the "
     "thread gives no message size (8 GiB used)",
     "", "validation", false, PcieHost::root_complex, PeerToPeer::forced},
    {"1 box, PCIe 5, 2 x EPYC 9575F, one NUMA node (PHB), stock NCCL", "RTX PRO 6000", 4, 4, "", 0.125, 37.60, "M",
     "NVIDIA/nccl#2080 (NCCL 2.29.7): \"128M | 37.60 | 46.65 | +24%\" (stock, through SHM)",
     "Peer-to-peer-capable cards on CPU root ports: NCCL's default goes through host memory (SHM), whose 12 channels "
     "of DDR5-6000 on the GPUs' socket (576 GB/s, inferred from the EPYC 9575F's specification, not stated in the thread) "
     "carry 4 GPUs' traffic without limiting it", "", "validation",
     false, PcieHost::root_complex, PeerToPeer::automatic, 576},
    {"1 box, PCIe 5, 2 x EPYC 9575F, one NUMA node (PHB), P2P forced", "RTX PRO 6000", 4, 4, "", 0.125, 46.65, "M",
     "NVIDIA/nccl#2080 (as the stock row): the build that runs peer-to-peer on PHB paths",
     "Peer-to-peer through the CPU on one socket (a PR's NCCL build that runs P2P on PHB paths, what "
     "NCCL_P2P_LEVEL=PHB or SYS allows there; capplan's --p2p force); sets p2p_via_cpu_efficiency = 46.65 / 63.0 GB/s (PCIe 5 x16)",
     "", "calibration", false, PcieHost::root_complex, PeerToPeer::forced},
    {"2 PCIe cards, NVLink bridge", "H100 PCIe", 2, 2, "", 4, 116.26, "H",
     "NVIDIA/nccl-tests#194: \"4294967296 ... 36943 116.26 116.26\"",
     "capplan uses the catalog's bridge figure, 300 GB/s per direction (the datasheet's 600 GB/s)",
     "the measured pair reaches 39 % of the bridge's datasheet rate; capplan has no achieved figure for bridges and uses "
     "NVLink's 0.80", "validation", false},
    {"2 PCIe cards, NV12 bridge", "A100 PCIe 80GB", 2, 2, "", 8, 208, "M",
     "NVIDIA/nccl-tests#178: \"Bus_BW: 208 GBps\" (2 GPUs on the NV12 bridge)",
     "The thread does not say 40 or 80 GB; both have the same NVLink and PCIe figures",
     "NVLink's 0.80 comes from NVSwitch nodes; this bridged pair achieves 0.69 of 300 GB/s", "validation", false},
    {"3 PCIe cards, NV12 pairs, ring crosses the root complex (NODE)", "A100 PCIe 80GB", 3, 3, "", 8, 20, "M",
     "NVIDIA/nccl-tests#178: \"-t 3 ... bus_bw drops to 20 GBps\"",
     "GPUs 0-2 of the thread's topology: 0-1 NV12, 1-2 and 2-0 NODE (one socket, different PCIe host bridges), where "
     "NCCL goes through host memory (SHM)",
     "the through-host efficiency was set on a PCIe 5 host (0.556 of the link); this PCIe 4 host reaches 0.63 of its "
     "slower link", "validation", false, PcieHost::root_complex},

    // AMD Instinct 8-GPU platforms: no switch, a full xGMI mesh (perf/communication.hpp xgmi_mesh).
    {"1 node, 8-GPU xGMI mesh (7 links per GPU), RCCL 2.22.3", "MI300X", 8, 8, "", 8, 317.96, "H",
     "AMD ROCm blog, \"Understanding RCCL Bandwidth and xGMI Performance on AMD Instinct MI300X\" (2025): "
     "\"8589934592 ... 47278 181.69 317.96\"",
     "xgmi_efficiency = 48 / 64 is the blog's own statement of a link's usable rate, not these rows' result", "",
     "validation", false},
    {"1 node, 8-GPU xGMI mesh, Azure ND MI300X v5", "MI300X", 8, 8, "", 8, 316.82, "M",
     "samuel-bohman/AI-benchmarking-guide (a fork of Azure/AI-benchmarking-guide) Azure_Results/ND_MI300X_v5_results.md: "
     "\"| 8G | 316.82 |\" (in place)",
     "", "", "validation", false},
    {"1 node, 8-GPU xGMI mesh, NCCL_ALGO=Ring", "MI325X", 8, 8, "", 8, 318.37, "M",
     "hisohara/ai-scripts training/01_rccl-smoketest/README.md (MI325X, ROCm 6.4.1, 1 node): \"8589934592 ... 47217 181.93 318.37\"",
     "", "", "validation", false},
    {"1 node, 8-GPU xGMI mesh (CDNA 4)", "MI350X", 8, 8, "", 8, 360.97, "H",
     "ROCm/system-acceptance-docs docs/common/rccl-benchmarking.md (AMD's example output): \"8589934592 ... 41644 206.27 360.97\"",
     "The link rate, 76.8 GB/s each way, is third parties' (catalog note); RCCL's own topology code models CDNA 4 links "
     "at 48 GB/s as CDNA 3's (GFX95X_XGMI_WIDTH)",
     "CDNA 4's links reach 52 of their 76.8 GB/s here (0.67), below the 0.75 AMD states for CDNA 3's", "validation", false},

    // NVLink SHARP (NCCL's default for all-reduce on NVLink 4+ switch systems). The one calibration row
    // sets perf/communication.hpp nvls_efficiency; the rest are validation.
    {"1 node, NVSwitch (NVLink4), NCCL default (NVLS)", "H100 SXM", 8, 8, "", 8, 480, "H",
     "NVIDIA/nccl-tests#212 (sjeaugey): \"On 8 GPUs, you should reach a peak busBw of ~480GB/s (algbw ~275GB/s)\"",
     "NVLS: each GPU moves (1 + 1/n) S each way; the efficiency 0.686 is set from this row", "", "calibration", false},
    {"5 GPUs of an NVSwitch node (NVLink4), NCCL_ALGO=NVLS", "H100 SXM", 5, 5, "", 4, 420, "M",
     "NVIDIA/nccl#1455: \"Busbw increase from 370 to 420, 440, 460, and 480 GBps when gpus increase from 4 to 5, 6, 7, and 8\"",
     "5 of the node's 8 GPUs; -e 4G", "", "validation", false},
    {"6 GPUs of an NVSwitch node (NVLink4), NCCL_ALGO=NVLS", "H100 SXM", 6, 6, "", 4, 440, "M",
     "NVIDIA/nccl#1455 (as the 5-GPU row)", "6 of the node's 8 GPUs; -e 4G", "", "validation", false},
    {"1 node, NVSwitch (NVLink4), NCCL default", "H200 SXM", 8, 8, "", 4, 475, "M",
     "NVIDIA/nccl-tests#272: \"The output shows peak bandwidth of 475 GB/s\" (NCCL 2.20.3, -e 4G)", "", "", "validation", false},
    {"1 node, NVSwitch (NVLink4 at 200 GB/s), NCCL default", "H800 SXM", 8, 8, "", 8, 215, "M",
     "NVIDIA/nccl#1374: \"I have also conducted a test on H800 * 8 node, and the reported allreduce budBW is 215 GB/s\"",
     "The thread gives no message size; 8 GiB used", "", "validation", false},
    {"1 node, NVSwitch (NVLink5), NVLS off", "B300", 8, 8, "", 8, 695, "M",
     "NVIDIA/nccl#2140: \"8x B300 (NVLS off vs on) - busbw: 695 -> 845 GB/s\"", "The thread gives no message size; 8 GiB used",
     "", "validation", true},
    {"1 node, NVSwitch (NVLink5), NVLS on", "B300", 8, 8, "", 8, 845, "M",
     "NVIDIA/nccl#2140 (as the NVLS-off row)", "The thread gives no message size; 8 GiB used",
     "NVLS's efficiency comes from NVLink4 (0.686 of the (1 + 1/n) bound); this NVLink5 node reaches 0.60 (the thread's "
     "own arithmetic), so capplan is high on Blackwell switches", "validation", false},
    {"2 GB200 compute trays of an NVL72 rack (MNNVL), NCCL default", "GB200", 8, 72, "", 8, 811, "M",
     "lixueduan.com, GB200 MNNVL NCCL test (2 compute trays x 4 GPUs): MNNVL measured 811 GB/s (translated from Chinese)",
     "8 GPUs in one 72-GPU NVLink domain; the post gives no message size (8 GiB used) and does not say NVLS",
     "as the B300 NVLS row: NVLink5 switches reach less of the (1 + 1/n) bound than NVLink4, and NCCL may have run a "
     "ring here (720 GB/s at 0.80)", "validation", false},
};

// The collective as capplan sees it: the cluster the row describes and a group spanning all its GPUs.
inline Cluster nccl_cluster(const NcclRow& r) {
  const GpuSpec& gpu = Catalog::builtin().find_gpu(r.gpu);
  const std::string fabric = r.fabric;
  const Link inter = fabric.empty() ? Link{} : find_fabric(fabric).link(r.gpus_per_node);
  Cluster c = make_cluster(gpu, r.gpus, std::min(r.gpus_per_node, r.gpus), inter, r.host, r.p2p, r.host_memory_gbps * 1e9);
  if (r.ring) c.nvls = false;  // NCCL_ALGO=RING or NCCL_NVLS_ENABLE=0
  return c;
}

// Leave one source out: the three constants fitted on nccl-tests rows, each on one source's calibration
// row, and their priors, what capplan would take with that source left out (no other row fits them):
// NVLS at NVLink's efficiency, the ring's 0.80 (perf/communication.hpp nvlink()); SHM, and peer-to-peer
// forced through a CPU, at PCIe peer-to-peer's 0.87 under a switch (pcie()). A row's source is its citation up to the first space or colon ("NVIDIA/nccl#1639").
struct NcclFit {
  const char* source;
  const char* constant;
  double fitted, prior;
};
inline constexpr NcclFit nccl_fits[] = {
    {"NVIDIA/nccl-tests#212", "nvls_efficiency", comm::nvls_efficiency, 0.80},
    {"NVIDIA/nccl#1639", "shm_efficiency", shm_efficiency, 0.87},
    {"NVIDIA/nccl#2080", "p2p_via_cpu_efficiency", p2p_via_cpu_efficiency, 0.87},
};

inline std::string nccl_source_key(std::string_view citation) {
  return std::string(citation.substr(0, citation.find_first_of(" :")));
}

// "NVLink 300 GB/s x 0.80" for a link.
inline std::string describe_link(const Link& l) {
  char efficiency[16];
  std::snprintf(efficiency, sizeof efficiency, "%.2f", l.efficiency);
  return std::string(name(l.kind)) + " " + format_number(l.bandwidth.value() / 1e9, 4) + " GB/s x " + efficiency;
}

// Every row with capplan's prediction: all_reduce_bus_bandwidth over consecutive_group(gpus, per node).
inline std::vector<CollectiveCase> nccl_all_reduce() {
  std::vector<CollectiveCase> out;
  for (const NcclRow& r : nccl_rows) {
    const Cluster c = nccl_cluster(r);
    const Group g = consecutive_group(r.gpus, c.gpus_per_node);
    const DataSize bytes = from_canonical<DataSize>(r.message_gib * 1073741824.0);
    const double busbw = all_reduce_bus_bandwidth(c, bytes, g).value() / 1e9;
    const int local = std::clamp(g.per_node, 1, g.size);
    std::string links = describe_link(c.intra_for(local, g.stride));
    if (local < g.size) links += " + " + describe_link(c.inter);
    // Inside a node NCCL runs the faster of the ring and NVLS (all_reduce_seconds): name the one timed.
    const Link& in = c.intra_for(local, g.stride);
    if (local >= g.size && c.nvls && comm::nvls_all_reduce(bytes.value(), g.size, in) < comm::ring_all_reduce(bytes.value(), g.size, in)) {
      char efficiency[16];
      std::snprintf(efficiency, sizeof efficiency, "%.3f", comm::nvls_efficiency);
      links = "NVLink SHARP " + format_number(in.bandwidth.value() / 1e9, 4) + " GB/s x " + efficiency + ", (1 + 1/n) S";
    }
    CollectiveCase row{r.tag, r.topology, r.gpu, r.gpus, c.gpus_per_node, bytes.value(), busbw, r.published, busbw, {},
                       r.confidence, r.source, links, r.note, r.why_off};
    // Leave one source out: the constant this row's source fitted at its prior.
    for (const NcclFit& f : nccl_fits) {
      if (nccl_source_key(r.source) != f.source) continue;
      char text[96];
      std::snprintf(text, sizeof text, "%s %.3f -> %.2f", f.constant, f.fitted, f.prior);
      row.left_out_constants = text;
      if (std::string_view(f.constant) == "shm_efficiency") {
        Cluster prior = c;  // the prior, still within what the host's memory delivers (as make_cluster shares it)
        for (Link* l : {&prior.intra, &prior.intra_beyond})
          share_host_memory(*l, c.gpu, r.host, c.gpus_per_node, r.host_memory_gbps * 1e9, f.prior);
        row.left_out = all_reduce_bus_bandwidth(prior, bytes, g).value() / 1e9;
      } else if (std::string_view(f.constant) == "p2p_via_cpu_efficiency") {
        Cluster prior = c;  // only a forced peer-to-peer link through the CPU takes the constant
        if (prior.intra.kind == LinkKind::pcie_via_cpu) prior.intra.efficiency = f.prior;
        if (prior.intra_beyond.kind == LinkKind::pcie_via_cpu) prior.intra_beyond.efficiency = f.prior;
        row.left_out = all_reduce_bus_bandwidth(prior, bytes, g).value() / 1e9;
      } else {  // nvls_efficiency
        row.left_out = all_reduce_bus_bandwidth(c, bytes, g, f.prior).value() / 1e9;
      }
    }
    out.push_back(std::move(row));
  }
  return out;
}

// Median |error| over the validation rows and the row with the largest |error| among them, as the page
// reports them (calibration rows are reported apart).
struct CollectiveSummary {
  double median_abs_error = 0;
  std::size_t worst = 0;  // index into the rows
};

inline CollectiveSummary summarize(const std::vector<CollectiveCase>& rows) {
  CollectiveSummary s;
  if (rows.empty()) return s;
  std::vector<double> errs;
  bool any = false;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].tag != "validation") continue;
    errs.push_back(std::fabs(rows[i].error()));
    if (!any || errs.back() > std::fabs(rows[s.worst].error())) s.worst = i;
    any = true;
  }
  if (errs.empty()) return s;
  std::sort(errs.begin(), errs.end());
  const std::size_t n = errs.size();
  s.median_abs_error = n % 2 ? errs[n / 2] : (errs[n / 2 - 1] + errs[n / 2]) / 2;
  return s;
}

}  // namespace validation
}  // namespace capplan::perf
