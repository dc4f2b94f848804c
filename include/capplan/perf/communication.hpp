// Collective communication: latency + bytes / (bandwidth x efficiency) per algorithm step.
//
//   ring all-reduce       2(n-1) alpha + 2(n-1)/n x S / B     (Thakur, Rabenseifner & Gropp 2005, §4; NCCL "bus bandwidth")
//   all-gather, reduce-scatter (n-1) alpha +  (n-1)/n x S / B (same; S is the full, gathered size)
//   all-to-all            (n-1) alpha +  (n-1)/n x S / B      (pairwise exchange, same paper)
//   point-to-point        alpha + S / B
//   a ring over n GPUs, g per node, on N nodes: NCCL's rings, one channel per GPU of a node, each
//   leaving the node on its GPU's NIC: 2(n-1)/n x S / min(B_node, g x B_nic) (nccl-tests bus
//   bandwidth = the node's NIC bandwidth: NVIDIA, nccl#812, 192 GB/s on DGX A100 with 8 x HDR).
// B is the link's bandwidth per GPU per direction times its achieved efficiency.
#pragma once

#include "capplan/error.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/units/quantity.hpp"

#include <boost/describe/enum.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <string_view>

namespace capplan::perf {

// pcie_via_cpu came last, so the values before it keep their numbers (Python's int(LinkKind), pickles).
enum class LinkKind { nvlink, infinity_fabric, pcie, pcie_via_host, infiniband, ethernet, ici, neuronlink, chip_link, pcie_via_cpu };
BOOST_DESCRIBE_ENUM(LinkKind, nvlink, infinity_fabric, pcie, pcie_via_host, infiniband, ethernet, ici, neuronlink, chip_link, pcie_via_cpu)

inline constexpr std::string_view name(LinkKind k) {
  switch (k) {
    case LinkKind::nvlink: return "NVLink";
    case LinkKind::infinity_fabric: return "Infinity Fabric";
    case LinkKind::pcie: return "PCIe peer-to-peer";
    case LinkKind::pcie_via_cpu: return "PCIe peer-to-peer through the CPU";
    case LinkKind::pcie_via_host: return "PCIe through host memory";
    case LinkKind::infiniband: return "InfiniBand";
    case LinkKind::ethernet: return "Ethernet";
    case LinkKind::ici: return "ICI";
    case LinkKind::neuronlink: return "NeuronLink";
    case LinkKind::chip_link: return "chip link";
  }
  return "?";
}

// Whether GPUs on this link meet over PCIe: peer-to-peer under a switch or forced through the CPU, or
// through host memory.
inline constexpr bool over_pcie(LinkKind k) {
  return k == LinkKind::pcie || k == LinkKind::pcie_via_cpu || k == LinkKind::pcie_via_host;
}

// One GPU's attachment to a fabric.
struct Link {
  LinkKind kind = LinkKind::nvlink;
  Bandwidth bandwidth{};  // per GPU, per direction
  Duration latency{};     // per algorithm step (alpha)
  double efficiency = 1;  // achieved / nominal bandwidth for large messages

  [[nodiscard]] double effective() const { return bandwidth.value() * efficiency; }  // B/s
  void validate() const {
    require_positive(bandwidth.value(), "link.bandwidth");
    require_nonnegative(latency.value(), "link.latency");
    require_fraction(efficiency, "link.efficiency");
    require_positive(efficiency, "link.efficiency");
  }
};

// PCIe bandwidth per lane and direction after 128b/130b encoding (PCI-SIG specifications):
// gen3 0.985 GB/s, gen4 1.969 GB/s, gen5 3.938 GB/s, gen6 7.563 GB/s.
inline Bandwidth pcie_bandwidth(int generation, int lanes) {
  require_positive_count(lanes, "pcie_lanes");
  double per_lane = 0;
  switch (generation) {
    case 1: per_lane = 0.25e9; break;
    case 2: per_lane = 0.5e9; break;
    case 3: per_lane = 0.985e9; break;
    case 4: per_lane = 1.969e9; break;
    case 5: per_lane = 3.938e9; break;
    case 6: per_lane = 7.563e9; break;
    default: capplan::detail::fail("pcie_generation", std::to_string(generation), "is not a PCIe generation (1-6)");
  }
  return from_canonical<Bandwidth>(per_lane * lanes);
}

// What joins a GPU to its node's other GPUs, said once for the link choice below, the P2P settings and
// the purchase table's notes:
//   has_nvlink     NVLink with a bandwidth (an NVSwitch board's SXM parts, or a bridge on PCIe cards)
//   nvlink_bridged NVLink on a card that is not SXM: a bridge (NVIDIA's NVLink bridge for A100 / H100
//                  PCIe, RTX A6000, RTX 3090), not a switch. capplan treats every bridge as joining two
//                  cards; H200 NVL's 4-way bridge is timed as pairs too (make_cluster)
//   pcie_only      no NVLink, Infinity Fabric or chip link: GPUs meet over PCIe (or not at all)
inline bool has_nvlink(const GpuSpec& gpu) { return gpu.nvlink_generation > 0 && gpu.nvlink_bandwidth.value() > 0; }
inline bool nvlink_bridged(const GpuSpec& gpu) { return has_nvlink(gpu) && gpu.form_factor != FormFactor::sxm; }
inline bool pcie_only(const GpuSpec& gpu) {
  return !has_nvlink(gpu) && !(gpu.infinity_fabric_bandwidth.value() > 0) && !(gpu.chip_link_bandwidth.value() > 0);
}

// NVLink / NVSwitch: nccl all-reduce bus bandwidth on an A100 node is 235 GB/s of 300 (78 %) and an
// NVLink4 peer copy 396 of 450 GB/s (88 %) (stas00/ml-engineering network/README.md); collectives use 0.8.
inline Link nvlink(const GpuSpec& gpu) {
  if (!has_nvlink(gpu))
    capplan::detail::fail("nvlink_generation", std::to_string(gpu.nvlink_generation), "GPU \"" + gpu.name + "\" has no NVLink");
  return Link{LinkKind::nvlink, gpu.nvlink_bandwidth, from_canonical<Duration>(3e-6), 0.80};
}

// How a node's PCIe GPUs hang off its host, as `nvidia-smi topo -m` names the paths between them:
//   pcie_switch   under PCIe switches (PIX / PXB): 8-GPU PCIe servers with PLX / Broadcom switches
//   root_complex  each on a root port of one CPU (PHB / NODE): workstations and desktops
//   two_sockets   on the root ports of two CPUs (SYS: the path crosses UPI / Infinity Fabric)
//   switch_pairs  in pairs under PCIe switches, the switches on the CPU's root ports (PIX inside a pair,
//                 PHB / NODE between pairs: e.g. 8-GPU boxes whose GPUs share a switch two by two, as
//                 the 8 x L20 box of NVIDIA/nccl#1817): peer-to-peer inside a pair, through host
//                 memory between pairs, so a ring over more than a pair runs at host memory's rate
// NCCL uses peer-to-peer only through switches: "By default don't use P2P across CPU Host Bridges and
// further apart", p2pLevel = PATH_PXB (NVIDIA/nccl src/graph/paths.cc; Intel CPUs have never had
// it by default, AMD only with at most two GPUs); a maintainer: "CPUs make very poor PCI switches ...
// we normally disable P2P and bounce the communication via Host (SHM) buffers instead" (AddyLaddy,
// NVIDIA/nccl#1603). So only `pcie_switch` with P2P-capable GPUs runs peer-to-peer; everything else
// (and GeForce cards anywhere, which have no P2P: sjeaugey, NVIDIA/nccl-tests#287) goes through
// host memory, NCCL's SHM transport.
enum class PcieHost { pcie_switch, root_complex, two_sockets, switch_pairs };
BOOST_DESCRIBE_ENUM(PcieHost, pcie_switch, root_complex, two_sockets, switch_pairs)

inline constexpr std::string_view name(PcieHost h) {
  switch (h) {
    case PcieHost::pcie_switch: return "under PCIe switches";
    case PcieHost::root_complex: return "on one CPU's root complex";
    case PcieHost::two_sockets: return "across two CPU sockets";
    case PcieHost::switch_pairs: return "in pairs under PCIe switches on the CPU's root ports";
  }
  return "?";
}

// What NCCL may do between a node's PCIe GPUs, as its NCCL_P2P_LEVEL and NCCL_P2P_DISABLE settings say:
//   automatic  NCCL's default: peer-to-peer under PCIe switches only (above), for GPUs that allow it
//   forced     NCCL_P2P_LEVEL=SYS: peer-to-peer on every path, through the CPU's root complex too.
//              GeForce cards have no peer-to-peer with NVIDIA's driver; a driver patched to enable it
//              (tinygrad's open-gpu-kernel-modules: "we activate the P2P on 4x4090", NVIDIA/nccl#1603)
//              is assumed.
//   disabled   NCCL_P2P_DISABLE=1: through host memory everywhere, under switches and across an NVLink
//              bridge too (NCCL's P2P transport carries NVLink as well as PCIe). Not modelled where
//              NVSwitch, an xGMI mesh or a chip link joins the node (p2p_setting_modelled).
enum class PeerToPeer { automatic, forced, disabled };
BOOST_DESCRIBE_ENUM(PeerToPeer, automatic, forced, disabled)

inline constexpr std::string_view name(PeerToPeer p) {
  switch (p) {
    case PeerToPeer::automatic: return "NCCL's default";
    case PeerToPeer::forced: return "forced (NCCL_P2P_LEVEL=SYS)";
    case PeerToPeer::disabled: return "disabled (NCCL_P2P_DISABLE=1)";
  }
  return "?";
}

// Peer-to-peer forced through a CPU's root complex: 4 x RTX PRO 6000 on one EPYC 9575F socket reach
// 46.65 GB/s busbw at 128 MiB over PCIe 5 x16 (63.0 GB/s), 0.740 of the link, with an NCCL build patched
// to run peer-to-peer on PHB paths (NVIDIA/nccl#2080, NCCL 2.29.7; what NCCL_P2P_LEVEL=PHB or SYS allows
// on that path): a calibration, below a switch's 0.87 ("CPUs make very poor PCI switches", AddyLaddy,
// NVIDIA/nccl#1603). docs/validation.md reports the row it was not set from (4 x RTX 4090 with P2P
// forced on one CPU, NVIDIA/nccl#1603). Across two sockets (SYS) no forced run was found: the same
// figure is used, an extrapolation the notes state.
inline constexpr double p2p_via_cpu_efficiency = 46.65 / 63.0;

// NCCL's SHM transport: the sender's GPU writes into a host-memory buffer over its PCIe link and the
// receiver's reads it over its own, so each link carries a GPU's traffic once each way; the rate a
// ring reaches is then set by how well the host moves that traffic ("On PCI systems, the performance
// you get is usually determined by the bandwidth your CPU and memory can deliver", sjeaugey,
// NVIDIA/nccl#1639). A calibration: 4 x RTX 5090 on 2 x Xeon 8480+ reach 35 GB/s busbw on PCIe 5
// x16 (63.0 GB/s), 0.556 (NVIDIA/nccl#1639); docs/validation.md reports the rows it was not set
// from. Host memory shared by more GPUs (8 x RTX 5090 on the same host: 28 GB/s) is shm_host_share's.
inline constexpr double shm_efficiency = 35.0 / 63.0;

// Host memory under NCCL's SHM transport: every byte a GPU sends is written to host memory by its GPU
// and read back by the next, two bytes of DRAM traffic per byte, and with all of a node's n GPUs
// sending at once (a ring's every hop, or concurrent groups) the host's memory carries 2 n B for B per
// GPU per direction ("8 flows at 28GB/s in both directions", sjeaugey, NVIDIA/nccl#1639, of 8 x RTX
// 5090 on one host). B is at most host_memory_efficiency x the DIMMs' wire rate / (2 n). The
// efficiency is STREAM's: copy and triad sustain about three quarters of the wire rate (Texas
// Instruments SPRAD45A, Table 3-3: triad 78 % of DDR4-1600; Microway, "3 DIMMs per channel on Xeon
// E5-2600v3": copy 73.9 of 102.4 GB/s, 72 %): 0.75, not fitted.
inline constexpr double host_memory_efficiency = 0.75;

// The host's memory, as capplan assumes it where the catalog gives no system (the notes say so), wire
// rate in B/s (8 bytes a transfer): a server's two sockets (PCIe switches, or across sockets) of 8
// channels each, as the usual two-socket GPU servers have (Xeon Scalable 4th/5th generation with PCIe
// 5, DDR5-4800; Ice Lake-SP with PCIe 4, DDR4-3200; Cascade Lake with PCIe 3, 6 channels of
// DDR4-2933); one socket on a root complex (also in switch pairs on its root ports), which takes a CPU
// with the lanes for several x16 cards: EPYC (PCIe 5: 9004/9005, 12 channels of DDR5-4800; PCIe 4:
// 7003, 8 of DDR4-3200; PCIe 3: Xeon, 6 of DDR4-2933).
inline double assumed_host_memory_bandwidth(int pcie_generation, PcieHost host) {
  if (pcie_generation < 1 || pcie_generation > 7)
    capplan::detail::fail("pcie_generation", std::to_string(pcie_generation), "is not a PCIe generation from 1 to 7");
  const bool one_socket = host == PcieHost::root_complex || host == PcieHost::switch_pairs;
  const double mts = pcie_generation >= 5 ? 4800e6 : pcie_generation == 4 ? 3200e6 : 2933e6;
  const int channels = pcie_generation >= 5 ? (one_socket ? 12 : 8) : pcie_generation == 4 ? 8 : 6;
  return mts * 8.0 * channels * (one_socket ? 1 : 2);
}

// A host's DRAM as given (B/s, wire rate): 0 for capplan's assumption, else 1 GB/s to 100 TB/s.
inline void require_host_memory_bandwidth(double bytes_per_s) {
  if (!(bytes_per_s == 0 || (bytes_per_s >= 1e9 && bytes_per_s <= 1e14)))
    capplan::detail::fail("host_memory_bandwidth", capplan::detail::format_double(bytes_per_s),
                          "must be 0 B/s (assumed) or a DRAM wire rate from 1 GB/s to 100 TB/s");
}

// What host memory gives each of `flows` GPUs sending through SHM at once, per direction, B/s: the
// host's (`host_memory_bandwidth`, wire rate; 0: assumed_host_memory_bandwidth) x host_memory_efficiency / 2n.
inline double shm_host_share(const GpuSpec& gpu, PcieHost host, int flows, double host_memory_bandwidth = 0) {
  require_host_memory_bandwidth(host_memory_bandwidth);
  require_positive_count(flows, "flows");
  const double m = host_memory_bandwidth > 0 ? host_memory_bandwidth : assumed_host_memory_bandwidth(gpu.pcie_generation, host);
  return host_memory_efficiency * m / (2.0 * flows);
}

// A link through host memory at the SHM efficiency `base`, at most what the host gives each of
// `flows` senders (shm_host_share); other links unchanged.
inline void share_host_memory(Link& l, const GpuSpec& gpu, PcieHost host, int flows, double host_memory_bandwidth, double base = shm_efficiency) {
  if (l.kind != LinkKind::pcie_via_host || !(l.bandwidth.value() > 0)) return;
  l.efficiency = std::min(base, shm_host_share(gpu, host, flows, host_memory_bandwidth) / l.bandwidth.value());
}

// Whether capplan times `p2p` on this GPU's node: everywhere but NCCL_P2P_DISABLE=1 where NVSwitch, an
// xGMI mesh or a chip link joins the GPUs (NCCL would drop NVLink peer-to-peer there too, for host
// memory; capplan does not time that). PCIe cards, NVLink-bridged pairs among them, take every setting.
inline bool p2p_setting_modelled(const GpuSpec& gpu, PeerToPeer p2p) {
  return p2p != PeerToPeer::disabled || nvlink_bridged(gpu) || pcie_only(gpu);
}

// The setting capplan times on this GPU's node: `p2p` where it is modelled, NCCL's default otherwise
// (the plan layer's runs and purchase rows fall back so, and say so in their notes).
inline PeerToPeer modelled_p2p(const GpuSpec& gpu, PeerToPeer p2p) {
  return p2p_setting_modelled(gpu, p2p) ? p2p : PeerToPeer::automatic;
}

// InputError naming `p2p` where the setting is not modelled for `gpus_per_node` > 1 GPUs of this kind.
inline void require_p2p_modelled(const GpuSpec& gpu, PeerToPeer p2p, int gpus_per_node) {
  if (gpus_per_node > 1 && !p2p_setting_modelled(gpu, p2p))
    capplan::detail::fail("p2p", "disabled",
                          "(NCCL_P2P_DISABLE=1) would also turn off the NVLink, xGMI or chip-link peer-to-peer that joins " + gpu.id +
                              "'s node, which capplan does not time; it models the setting on PCIe cards and NVLink-bridged pairs");
}

// Whether the setting sends peer-to-peer traffic through a CPU's root complex on this host: forced
// (NCCL_P2P_LEVEL=SYS) where no PCIe switch joins the GPUs (a pair's switch joins the two of a pair;
// make_cluster times the hops between pairs with PcieHost::root_complex).
inline constexpr bool p2p_through_cpu(PcieHost host, PeerToPeer p2p) {
  return p2p == PeerToPeer::forced && host != PcieHost::pcie_switch && host != PcieHost::switch_pairs;
}

// PCIe between GPUs in one host: peer-to-peer when the GPU allows it and the host puts the GPUs under
// PCIe switches (PCIe 5 x16 peer copies reach about 55 of 63 GB/s, 87 %, stas00/ml-engineering);
// forced (`p2p`), also through the CPU, at p2p_via_cpu_efficiency; otherwise through host memory (SHM,
// above), with a host bounce's extra latency.
inline Link pcie(const GpuSpec& gpu, PcieHost host = PcieHost::pcie_switch, PeerToPeer p2p = PeerToPeer::automatic) {
  const Bandwidth bw = pcie_bandwidth(gpu.pcie_generation, gpu.pcie_lanes);
  const bool allowed = p2p == PeerToPeer::forced || (p2p == PeerToPeer::automatic && gpu.peer_to_peer);
  // switch_pairs: the link inside a pair (make_cluster times the hops between pairs on the root complex).
  if (allowed && (host == PcieHost::pcie_switch || host == PcieHost::switch_pairs)) return Link{LinkKind::pcie, bw, from_canonical<Duration>(5e-6), 0.87};
  if (p2p_through_cpu(host, p2p)) return Link{LinkKind::pcie_via_cpu, bw, from_canonical<Duration>(5e-6), p2p_via_cpu_efficiency};
  return Link{LinkKind::pcie_via_host, bw, from_canonical<Duration>(10e-6), shm_efficiency};
}

// The path between a GPU and its host's memory, one direction, as achieved (activation offloading):
// its share of NVLink-C2C on a Grace superchip (GpuSpec::host_link_bandwidth) at NVLink's 0.80 (above),
// else its PCIe link at PCIe's 0.87 (PCIe 5 x16 copies reach about 55 of 63 GB/s, stas00/ml-engineering),
// at most PCIe 5.0: the x86 hosts of HGX boards (DGX B200: Xeon Platinum 8570) have no PCIe 6.0 root
// ports, so a B200's PCIe 6.0 link runs at 5.0 to its host.
struct HostLink {
  double bytes_per_s = 0;  // achieved, one direction
  std::string what;        // "NVLink-C2C 225 GB/s x 0.80", "PCIe 5.0 x16 63 GB/s x 0.87"
};

inline HostLink host_link(const GpuSpec& gpu) {
  char buf[96];
  if (gpu.host_link_bandwidth.value() > 0) {
    std::snprintf(buf, sizeof buf, "host link %.0f GB/s x 0.80", gpu.host_link_bandwidth.value() / 1e9);
    return {gpu.host_link_bandwidth.value() * 0.80, buf};
  }
  if (gpu.pcie_generation <= 0 || gpu.pcie_lanes <= 0)
    capplan::detail::fail("gpu", gpu.id, "has neither a PCIe link nor a host_link_bandwidth in its catalog entry: no path to host memory is known");
  const int generation = std::min(gpu.pcie_generation, 5);
  const double bw = pcie_bandwidth(generation, gpu.pcie_lanes).value();
  std::snprintf(buf, sizeof buf, "PCIe %d.0 x%d %.0f GB/s x 0.87", generation, gpu.pcie_lanes, bw / 1e9);
  return {bw * 0.87, buf};
}

// Activation offloading on this GPU: an InputError naming offload_layers where the GPU and its host
// share one memory (a SoC: DGX Spark, Apple silicon), so offloading frees nothing.
inline void validate_offload_gpu(const GpuSpec& gpu, int offload_layers) {
  if (offload_layers > 0 && gpu.form_factor == FormFactor::soc)
    capplan::detail::fail("offload_layers", std::to_string(offload_layers),
                          "frees nothing on " + gpu.id + ": its GPU and its CPU share one memory");
}

// AMD Infinity Fabric (xGMI) on 8-GPU CDNA 3 / CDNA 4 platforms (MI300X, MI325X, MI350X, MI355X): no
// switch; each GPU has one link to each of its 7 peers, a full mesh ("Each AMD Instinct MI300X system
// GPU is connected to its seven peer GPUs via xGMI links, forming a fully connected mesh", AMD ROCm
// blog "Understanding RCCL Bandwidth and xGMI Performance on AMD Instinct MI300X", 2025). The
// catalog's figure is the 7 links together, per direction (MI300X 7 x 64 GB/s = 448). Of a link's
// 64 GB/s, "CRC bit correction and protocol overhead ... reduce the usable bandwidth to approximately
// 48 GB/s per link" (same blog): efficiency 0.75. RCCL's channels keep all of a GPU's links busy, so
// a collective over n GPUs of the mesh has n - 1 of them ("When using less than 8 GPUs, one can only
// achieve a fraction of the potential bandwidth", ROCm/rccl README): Cluster::intra_for.
inline constexpr int xgmi_mesh_links = 7;
inline constexpr double xgmi_efficiency = 48.0 / 64.0;
inline bool xgmi_mesh(const GpuSpec& gpu) {
  return gpu.infinity_fabric_bandwidth.value() > 0 && gpu.form_factor == FormFactor::oam &&
         (gpu.architecture == "CDNA 3" || gpu.architecture == "CDNA 4");
}

// A vendor's own chip-to-chip network (GpuSpec::chip_link_bandwidth): Google's TPU ICI, AWS NeuronLink, the
// integrated RoCE ports an Intel Gaudi 3 box joins its 8 chips with all-to-all.
// The catalog's figure is already what an all-reduce reaches per chip (Google: "All-reduce bandwidth
// per Pod" / chips), so no NCCL-style efficiency is taken off it again, except 0.85 as on the
// fabrics, for the protocol's own overhead (capplan's assumption: no measured collective on these
// chips is in a stored source). Per-step latency 1 us, as a direct chip-to-chip hop without a switch
// (an assumption too; NVLink through a switch is timed at 3 us).
inline Link chip_link(const GpuSpec& gpu) {
  if (!(gpu.chip_link_bandwidth.value() > 0))
    capplan::detail::fail("chip_link_bandwidth", "0", "accelerator \"" + gpu.name + "\" has no chip-to-chip link");
  const LinkKind kind = gpu.vendor == Vendor::google ? LinkKind::ici : gpu.vendor == Vendor::aws ? LinkKind::neuronlink : LinkKind::chip_link;
  return Link{kind, gpu.chip_link_bandwidth, from_canonical<Duration>(1e-6), 0.85};
}

// A part with no link to a second one: no PCIe, NVLink, Infinity Fabric or chip link (a system-on-chip:
// Apple M-series, DGX Spark, Ryzen AI Max). Alone in its node it needs none; it is one per node.
inline bool linkless(const GpuSpec& gpu) {
  return gpu.pcie_lanes <= 0 && pcie_only(gpu);
}

// The fastest link between GPUs of one node: NVLink, AMD Infinity Fabric (the catalog's per-GPU
// figure; on an xGMI mesh all 7 links), a vendor's chip link (TPU ICI, NeuronLink), else PCIe as the
// host attaches the GPUs.
inline Link intra_node_link(const GpuSpec& gpu, PcieHost host = PcieHost::pcie_switch, PeerToPeer p2p = PeerToPeer::automatic) {
  if (has_nvlink(gpu)) return nvlink(gpu);
  if (gpu.chip_link_bandwidth.value() > 0) return chip_link(gpu);
  if (gpu.infinity_fabric_bandwidth.value() > 0)
    return Link{LinkKind::infinity_fabric, gpu.infinity_fabric_bandwidth, from_canonical<Duration>(3e-6),
                xgmi_mesh(gpu) ? xgmi_efficiency : 0.80};
  return pcie(gpu, host, p2p);
}

// InfiniBand NIC per GPU (e.g. HDR 200 Gb/s = 25 GB/s); nccl reaches ~ 85-90 % of line rate on large
// messages (NVIDIA nccl-tests performance notes); 0.85 used.
inline Link infiniband(Bandwidth per_gpu) {
  return Link{LinkKind::infiniband, per_gpu, from_canonical<Duration>(5e-6), 0.85};
}

// Ethernet (TCP or RoCE): ~70 % of line rate without RDMA tuning, higher latency.
inline Link ethernet(Bandwidth per_gpu, bool rdma = false) {
  return Link{LinkKind::ethernet, per_gpu, from_canonical<Duration>(rdma ? 8e-6 : 30e-6), rdma ? 0.85 : 0.70};
}

// GPUs, how many share a node, and the links inside and between nodes.
struct Cluster {
  GpuSpec gpu;
  int gpus = 1;
  int gpus_per_node = 8;
  Link intra{};
  Link inter{};  // unused when gpus <= gpus_per_node
  // GPUs of a node that `intra` joins all to all (0: the whole node, as an NVSwitch does). NVLink
  // bridges on PCIe cards join pairs only (A100 PCIe, RTX A6000, RTX 3090: 2), so a collective over
  // more GPUs of the node crosses PCIe on every other hop and a ring runs at `intra_beyond`'s speed.
  int intra_domain = 0;
  Link intra_beyond{};  // the link between GPUs of a node outside one domain (PCIe)
  // NVLink SHARP: the NVSwitches reduce and multicast all-reduces inside the NVLink domain (NVLink 4
  // and later switch systems: HGX/DGX H100, H200, B200, B300, GB200/GB300 NVL72); comm::nvls_all_reduce.
  bool nvls = false;
  PcieHost pcie_host = PcieHost::pcie_switch;  // how PCIe links run (pcie()); NVLink nodes: for the hops beyond a bridge
  PeerToPeer p2p = PeerToPeer::automatic;       // what NCCL may do over those PCIe links (pcie())
  // A full mesh without a switch (AMD xGMI: 7 links per GPU, `intra` all of them): a collective over n
  // GPUs of the node has n - 1 links, `mesh[n - 2]`; 0: a switch, every group gets all of `intra`.
  int mesh_links = 0;
  // The host's DRAM wire rate NCCL's SHM transport shares (B/s; make_cluster's, given or assumed).
  double host_memory_bandwidth = 0;
  std::array<Link, xgmi_mesh_links - 1> mesh{};

  // The link a collective among `members` GPUs of one node, `stride` ranks apart, runs at: a ring is
  // as fast as its slowest hop, and members spread over more than one bridged pair cross PCIe; on a
  // mesh, fewer members have fewer links.
  [[nodiscard]] const Link& intra_for(int members, int stride = 1) const {
    const long long span = static_cast<long long>(std::max(members, 1) - 1) * std::max(stride, 1) + 1;
    if (intra_domain > 0 && span > intra_domain) return intra_beyond;
    if (mesh_links > 0 && members >= 2 && members - 1 < mesh_links) return mesh[static_cast<std::size_t>(members - 2)];
    return intra;
  }

  void validate() const {
    require_positive_count(gpus, "gpus");
    require_positive_count(gpus_per_node, "gpus_per_node");
    require_host_memory_bandwidth(host_memory_bandwidth);
    if (gpus_per_node > 1 || intra.bandwidth.value() > 0) intra.validate();
    if (intra_domain < 0) capplan::detail::fail("intra_domain", std::to_string(intra_domain), "is negative");
    if (intra_domain > 0 && intra_domain < gpus_per_node) intra_beyond.validate();
    if (gpus > gpus_per_node) inter.validate();
  }
  [[nodiscard]] int nodes() const { return (gpus + gpus_per_node - 1) / gpus_per_node; }
};

// A cluster of `nodes` x `gpus_per_node` GPUs with the GPU's own intra-node link and `inter` between
// nodes; PCIe GPUs attached as `host` says (the default, PCIe switches, is what 8-GPU PCIe servers
// have; GeForce cards go through host memory on any host).
// `host_memory_bandwidth`: the host's DRAM wire rate in B/s, which NCCL's SHM transport shares among
// the node's GPUs (shm_host_share); 0: assumed_host_memory_bandwidth.
inline Cluster make_cluster(const GpuSpec& gpu, int gpus, int gpus_per_node, const Link& inter,
                            PcieHost host = PcieHost::pcie_switch, PeerToPeer p2p = PeerToPeer::automatic,
                            double host_memory_bandwidth = 0) {
  require_host_memory_bandwidth(host_memory_bandwidth);
  Cluster c;
  c.gpu = gpu;
  c.gpus = require_positive_count(gpus, "gpus");
  c.gpus_per_node = std::min(require_positive_count(gpus_per_node, "gpus_per_node"), gpus);
  c.pcie_host = host;
  c.p2p = p2p;
  require_p2p_modelled(gpu, p2p, c.gpus_per_node);
  if (linkless(gpu) && c.gpus_per_node > 1)
    detail::fail("gpus_per_node", std::to_string(c.gpus_per_node),
                 "puts several " + gpu.id + " in a node, but it is a system-on-chip with no link to a second one: one per node, the nodes "
                 "joined by a fabric");
  // A system-on-chip (Apple M-series, DGX Spark, Ryzen AI Max) has no PCIe or GPU link: alone in its
  // node it needs none, and collectives never run (Cluster::validate checks intra only with peers).
  const bool alone = linkless(gpu);
  // NCCL_P2P_DISABLE=1 takes an NVLink bridge's peer-to-peer away too: every hop through host memory.
  const bool bridge_off = p2p == PeerToPeer::disabled && nvlink_bridged(gpu);
  if (!(alone && c.gpus_per_node == 1)) c.intra = bridge_off ? pcie(gpu, host, p2p) : intra_node_link(gpu, host, p2p);
  // NVLink on a PCIe card is a bridge between two cards (NVIDIA's NVLink bridge for A100 PCIe, RTX
  // A6000 and RTX 3090 joins two), not a switch: beyond a pair, collectives cross PCIe.
  // Pairs under a switch each, the switches on the root complex: the same shape as bridged pairs, PCIe
  // inside a pair and the root complex between pairs (the bridge, where there is one, joins the pair).
  const PcieHost beyond = host == PcieHost::switch_pairs ? PcieHost::root_complex : host;
  if (!(alone && c.gpus_per_node == 1) && c.intra.kind == LinkKind::nvlink && nvlink_bridged(gpu)) {
    c.intra_domain = 2;
    c.intra_beyond = pcie(gpu, beyond, p2p);
  } else if (host == PcieHost::switch_pairs && c.gpus_per_node > 2 &&
             over_pcie(c.intra.kind)) {
    c.intra_domain = 2;
    c.intra_beyond = pcie(gpu, beyond, p2p);
  }
  if (xgmi_mesh(gpu)) {
    c.mesh_links = xgmi_mesh_links;
    for (int links = 1; links < xgmi_mesh_links; ++links) {
      Link l = c.intra;
      l.bandwidth = c.intra.bandwidth * (static_cast<double>(links) / xgmi_mesh_links);
      c.mesh[static_cast<std::size_t>(links - 1)] = l;
    }
  }
  // Through host memory every GPU of the node may send at once (a ring's every hop; beside TP groups
  // inside pairs, DP rings that cross host memory on every hop), so the node's GPUs share the host's
  // DRAM (shm_host_share), the hops beyond a pair's too.
  c.host_memory_bandwidth = host_memory_bandwidth > 0                             ? host_memory_bandwidth
                            : gpu.pcie_generation >= 1 && gpu.pcie_generation <= 7 ? assumed_host_memory_bandwidth(gpu.pcie_generation, host)
                                                                                    : 0;
  if (c.gpus_per_node > 1 && !alone)
    for (Link* l : {&c.intra, &c.intra_beyond}) share_host_memory(*l, gpu, host, c.gpus_per_node, host_memory_bandwidth);
  // NVLink SHARP came with third-generation NVSwitch (NVLink 4, Hopper).
  c.nvls = c.intra.kind == LinkKind::nvlink && gpu.form_factor == FormFactor::sxm && gpu.nvlink_generation >= 4;
  c.inter = inter;
  c.validate();
  return c;
}

// Which GPUs a collective spans: `size` ranks, of which `per_node` share a node (the rest of the node
// holds other groups). per_node == size: all in one node.
struct Group {
  int size = 1;
  int per_node = 1;
  int stride = 1;  // ranks between neighbouring members (data parallel: tp; context parallel: tp)
};

// A group of `size` consecutive ranks on nodes of `gpus_per_node` GPUs, as frameworks lay out their
// innermost dimension (tensor parallel first): inside one node when it divides the node, whole nodes
// when the node divides it. Otherwise some groups straddle a node boundary (3 of 8 GPUs: ranks 6, 7
// | 8), and a ring is as fast as its slowest link, so the slowest group is timed with gcd(size,
// gpus_per_node) members per node: with one, its ring runs at the inter-node link's speed.
inline Group consecutive_group(int size, int gpus_per_node) {
  if (size <= 1 || gpus_per_node <= 1) return Group{size, 1};
  if (size <= gpus_per_node && gpus_per_node % size == 0) return Group{size, size};
  if (size % gpus_per_node == 0) return Group{size, gpus_per_node};
  return Group{size, std::gcd(size, gpus_per_node)};
}

// The links a collective over `g` crosses, by name: "NVLink", "InfiniBand", "NVLink + InfiniBand"
// (hierarchical: inside each node, then across); "" for a group of one.
inline std::string group_links(const Cluster& c, Group g) {
  if (g.size <= 1) return "";
  const int local = std::clamp(g.per_node, 1, g.size);
  const std::string in(name(c.intra_for(local, g.stride).kind)), out(name(c.inter.kind));
  if (local >= g.size) return in;
  if (local == 1) return out;
  return in + " + " + out;
}

namespace comm {

// NCCL's low-latency protocol inside a node: for small messages NCCL picks LL over Simple, with its
// own cost model (NVIDIA/nccl src/graph/tuning.cc, 2.18-2.21): a ring's LL base latency is 6.6 us,
// plus 0.6 us per step over NVLink (1.0 over PCIe), and LL sends a flag with every 8 bytes of data,
// so it moves data at half the link's rate. `steps` algorithm steps, `wire_bytes` sent per GPU.
// Links between nodes (and PCIe through host memory) keep the Simple model.
inline double low_latency_ring(double steps, double wire_bytes, const Link& l) {
  double per_step = 0;
  switch (l.kind) {
    case LinkKind::nvlink:
    case LinkKind::infinity_fabric: per_step = 0.6e-6; break;
    case LinkKind::pcie:
    case LinkKind::pcie_via_cpu: per_step = 1.0e-6; break;
    default: return INFINITY;
  }
  return 6.6e-6 + steps * per_step + wire_bytes / (0.5 * l.effective());
}

// Ring all-reduce (Thakur et al. 2005): 2(n-1) steps of bytes/n each; the faster of NCCL's Simple
// and LL protocols inside a node.
inline double ring_all_reduce(double bytes, int n, const Link& l) {
  if (n <= 1 || bytes <= 0) return 0;
  const double steps = 2.0 * (n - 1), wire = 2.0 * (n - 1) / n * bytes;
  return std::min(steps * l.latency.value() + wire / l.effective(), low_latency_ring(steps, wire, l));
}
inline double ring_all_gather(double bytes, int n, const Link& l) {
  if (n <= 1 || bytes <= 0) return 0;
  const double steps = n - 1.0, wire = static_cast<double>(n - 1) / n * bytes;
  return std::min(steps * l.latency.value() + wire / l.effective(), low_latency_ring(steps, wire, l));
}
inline double all_to_all(double bytes, int n, const Link& l) { return ring_all_gather(bytes, n, l); }

// NVLink SHARP all-reduce (NVLS): each GPU sends its S to the switch, which reduces it, and reads back
// the S/n it owns; then multicasts that S/n and receives everyone's, S: (1 + 1/n) S each way, so
// busbw = 2 (n-1)/(n+1) B x nvls_efficiency (the (1 + 1/n) accounting of NVIDIA/nccl#2140). The
// efficiency is a calibration: 0.686 makes 8 x H100 (NVLink 450 GB/s) reach the ~480 GB/s busbw NCCL's
// maintainer gives (NVIDIA/nccl-tests#212, sjeaugey: "On 8 GPUs, you should reach a peak busBw of
// ~480GB/s (algbw ~275GB/s)"); docs/validation.md reports the rows it was not fitted to. The latency
// is NCCL's own for NVLS inside a node, whatever the GPU count: 25 us (the Simple protocol's NVLink
// hardware latency for NVLS in NCCL's tuning tables, base latency 0; NVLS has no LL protocol), as the
// 2023 example tuner plugin of NVIDIA and Meta copies NCCL 2.18's tables (ext-tuner nccl_tuner.h:
// nccl_nvlink_lat NVLS { 0, 0, 25 }). Small messages therefore keep the LL ring (6.6 us + 0.6 us a step).
inline constexpr double nvls_efficiency = 0.686;
inline constexpr double nvls_latency = 25e-6;  // s
// `efficiency`: the calibration above unless given (all_reduce_seconds).
inline double nvls_all_reduce(double bytes, int n, const Link& l, double efficiency = nvls_efficiency) {
  if (n <= 1 || bytes <= 0) return 0;
  return nvls_latency + (1.0 + 1.0 / n) * bytes / (l.bandwidth.value() * efficiency);
}
inline double p2p(double bytes, const Link& l) { return bytes <= 0 ? 0 : l.latency.value() + bytes / l.effective(); }

}  // namespace comm

// A ring over a group that spans nodes, as NCCL runs it: one ring (channel) per member of a node,
// each leaving the node on its own GPU's NIC, so a ring step's slowest hop carries S / n over
// `local` NICs in parallel against the intra-node link; the ring moves `factor` x (n-1)/n x S
// (2 for all-reduce, 1 for all-gather / reduce-scatter). Its bus bandwidth is then the node's NIC
// bandwidth (NVIDIA, nccl#812: "8x200Gbit/s IB cards ... 192GB/s AllReduce BusBW" on DGX A100).
inline double spanning_ring_seconds(const Cluster& c, double bytes, Group g, int local, const Link& in, double factor) {
  const int nodes = (g.size + local - 1) / local;
  const double slowest = std::min(in.effective(), c.inter.effective() * local);
  const double latency = factor * ((nodes - 1) * c.inter.latency.value() + (g.size - nodes) * in.latency.value());
  return latency + factor * (g.size - 1) / static_cast<double>(g.size) * bytes / slowest;
}

// All-reduce of `bytes` over a group in a cluster: flat ring inside a node or when each node holds one
// member; across nodes NCCL's ring with one channel per local member (spanning_ring_seconds).
// `nvls_efficiency`: comm::nvls_efficiency unless given (docs/validation.md's leave-one-source-out rows).
inline double all_reduce_seconds(const Cluster& c, double bytes, Group g, double nvls_efficiency = comm::nvls_efficiency) {
  if (g.size <= 1 || bytes <= 0) return 0;  // nothing to send: no collective is launched
  const int local = std::clamp(g.per_node, 1, g.size);
  const Link& in = c.intra_for(local, g.stride);
  if (local >= g.size) {
    // NCCL picks the faster of the ring and NVLS (for 2-4 GPUs they are alike: NVIDIA/nccl#1455).
    const double ring = comm::ring_all_reduce(bytes, g.size, in);
    return c.nvls && in.kind == LinkKind::nvlink ? std::min(ring, comm::nvls_all_reduce(bytes, g.size, in, nvls_efficiency)) : ring;
  }
  const int nodes = (g.size + local - 1) / local;
  if (local == 1) return comm::ring_all_reduce(bytes, nodes, c.inter);
  return spanning_ring_seconds(c, bytes, g, local, in, 2.0);
}

// All-gather (or reduce-scatter, same cost) whose gathered result is `bytes`.
inline double all_gather_seconds(const Cluster& c, double bytes, Group g) {
  if (g.size <= 1 || bytes <= 0) return 0;
  const int local = std::clamp(g.per_node, 1, g.size);
  const Link& in = c.intra_for(local, g.stride);
  if (local >= g.size) return comm::ring_all_gather(bytes, g.size, in);
  const int nodes = (g.size + local - 1) / local;
  if (local == 1) return comm::ring_all_gather(bytes, nodes, c.inter);
  return spanning_ring_seconds(c, bytes, g, local, in, 1.0);
}
inline double reduce_scatter_seconds(const Cluster& c, double bytes, Group g) { return all_gather_seconds(c, bytes, g); }

// All-to-all where each rank holds `bytes` in total to exchange (MoE token dispatch).
inline double all_to_all_seconds(const Cluster& c, double bytes, Group g) {
  if (g.size <= 1 || bytes <= 0) return 0;
  const int local = std::clamp(g.per_node, 1, g.size);
  const Link& in = c.intra_for(local, g.stride);
  if (local >= g.size) return comm::all_to_all(bytes, g.size, in);
  // The share leaving the node crosses the NIC; the rest stays on the intra-node link.
  const double remote = static_cast<double>(g.size - local) / g.size;
  return std::max(comm::all_to_all(bytes * (1 - remote), local, in),
                  c.inter.latency.value() * (g.size - local) + bytes * remote / c.inter.effective());
}

inline double p2p_seconds(const Link& l, double bytes) { return comm::p2p(bytes, l); }

// Typed wrappers: the entry points for callers' own clusters and links, which are checked first (a
// link of 0 B/s would time every transfer at infinity); the hot paths above take checked ones.
// Checks a caller's cluster and group (InputError naming the field): counts of at least one, and a
// valid link between nodes when the group leaves its node.
inline void validate_collective(const Cluster& c, Group g) {
  c.validate();
  require_positive_count(g.size, "group.size");
  require_positive_count(g.per_node, "group.per_node");
  require_positive_count(g.stride, "group.stride");
  if (g.size > 1 && g.per_node < g.size) c.inter.validate();
}

inline Duration all_reduce(const Cluster& c, DataSize bytes, Group g) {
  validate_collective(c, g);
  return from_canonical<Duration>(all_reduce_seconds(c, require_nonnegative(bytes.value(), "bytes"), g));
}
inline Duration all_gather(const Cluster& c, DataSize bytes, Group g) {
  validate_collective(c, g);
  return from_canonical<Duration>(all_gather_seconds(c, require_nonnegative(bytes.value(), "bytes"), g));
}
inline Duration reduce_scatter(const Cluster& c, DataSize bytes, Group g) {
  validate_collective(c, g);
  return from_canonical<Duration>(reduce_scatter_seconds(c, require_nonnegative(bytes.value(), "bytes"), g));
}
inline Duration all_to_all(const Cluster& c, DataSize bytes, Group g) {
  validate_collective(c, g);
  return from_canonical<Duration>(all_to_all_seconds(c, require_nonnegative(bytes.value(), "bytes"), g));
}
inline Duration point_to_point(const Link& l, DataSize bytes) {
  l.validate();
  return from_canonical<Duration>(p2p_seconds(l, require_nonnegative(bytes.value(), "bytes")));
}

// Algorithm bandwidth of an all-reduce (NCCL's algbw = S / t) and bus bandwidth (busbw = algbw x 2(n-1)/n).
inline Bandwidth all_reduce_bus_bandwidth(const Cluster& c, DataSize bytes, Group g, double nvls_efficiency = comm::nvls_efficiency) {
  validate_collective(c, g);
  if (!(nvls_efficiency > 0 && nvls_efficiency <= 1))
    capplan::detail::fail("nvls_efficiency", capplan::detail::format_double(nvls_efficiency), "must be in (0, 1]");
  const double t = all_reduce_seconds(c, bytes.value(), g, nvls_efficiency);
  if (!(t > 0)) return from_canonical<Bandwidth>(0);
  return from_canonical<Bandwidth>(bytes.value() / t * 2.0 * (g.size - 1) / g.size);
}

// Exposed part of communication that a framework overlaps with `compute` (both in seconds):
// what does not fit under the compute, plus the last bucket that can only start after it.
inline double exposed_after_overlap(double comm, double compute, int buckets) {
  if (comm <= 0) return 0;
  const double last = comm / std::max(1, buckets);
  return std::max(comm - std::max(compute, 0.0), last);
}

}  // namespace capplan::perf
