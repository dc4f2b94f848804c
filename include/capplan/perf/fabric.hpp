// Fabric: the network between nodes, as the machines have it. A fabric is NICs of one speed, either
// one per GPU (rail-optimised HPC and AI clusters) or a few per node shared by its GPUs (servers and
// workstations with one Ethernet port); collectives across nodes see each GPU's share.
//
//   Fabric f = find_fabric("ib-hdr");              // DGX A100: 8 x HDR 200 Gb/s, one per GPU
//   Link inter = f.link(8);                         // 25 GB/s per GPU, 5 us, 85 % of line rate
//   Fabric usual = usual_fabric(gpu);               // what a host of that GPU usually has
//   Fabric sys = nic_fabric(adapter, 4, 8);         // a system's own NICs: 4 x 200 Gb/s for 8 GPUs
//
// Presets (per direction; Gb/s are 10^9 bit/s):
//   ib-edr   InfiniBand EDR 100 Gb/s, one per GPU       (DGX-1 V100 has 4 for 8 GPUs: usual_fabric)
//   ib-hdr   InfiniBand HDR 200 Gb/s, one per GPU       (NVIDIA DGX A100 User Guide: 8 x ConnectX-6 HDR)
//   ib-ndr   InfiniBand NDR 400 Gb/s, one per GPU       (NVIDIA DGX H100/H200/B200 User Guides: 8 x ConnectX-7)
//   ib-xdr   InfiniBand XDR 800 Gb/s, one per GPU       (NVIDIA ConnectX-8 SuperNIC, DGX B300)
//   roce-400 400 Gb/s RoCE Ethernet, one per GPU        (Llama 3's RoCE cluster: Dubey et al. 2024, §3.3.1)
//   eth-100  100 GbE, one per node, TCP                 (a PCIe server's usual uplink; capplan's assumption)
//   eth-25   25 GbE, one per node, TCP
//   eth-10   10 GbE, one per node, TCP                  (a workstation board's port)
//   none     no network: plans stay inside one node
// Large-message efficiency and per-step latency as perf/communication.hpp's infiniband() and
// ethernet(): InfiniBand and RoCE 85 % of line rate, 5 / 8 us; TCP 70 %, 30 us.
#pragma once

#include "capplan/error.hpp"
#include "capplan/hardware/cloud.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/hardware/network_adapter.hpp"
#include "capplan/perf/communication.hpp"
#include "capplan/units/format.hpp"
#include "capplan/units/quantity.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace capplan::perf {

struct Fabric {
  std::string id{};       // "ib-ndr", a NIC's catalog id, or "custom"
  std::string name{};     // "InfiniBand NDR 400 Gb/s"
  LinkKind kind = LinkKind::infiniband;
  Bandwidth nic_speed{};  // per NIC (all its ports), per direction; 0: no fabric
  int nics_per_node = 0;  // 0: one NIC per GPU
  Duration latency{};     // per algorithm step across nodes
  double efficiency = 0.85;
  std::string source{};   // where the figure or the assumption comes from

  [[nodiscard]] bool none() const { return !(nic_speed.value() > 0); }

  // Each GPU's share of the node's NICs: the NIC speed with one NIC per GPU, else the node's total
  // divided by its GPUs (never more than one NIC's speed per GPU: a GPU's traffic uses one rail).
  [[nodiscard]] Bandwidth per_gpu(int gpus_per_node) const {
    require_positive_count(gpus_per_node, "gpus_per_node");
    if (nics_per_node == 0 || nics_per_node >= gpus_per_node) return nic_speed;
    return nic_speed * (static_cast<double>(nics_per_node) / gpus_per_node);
  }

  // The link collectives across nodes run at (perf/communication.hpp Cluster::inter).
  [[nodiscard]] Link link(int gpus_per_node) const {
    if (none()) capplan::detail::fail("fabric", "\"" + id + "\"", "has no network between nodes: plans must fit in one node");
    return Link{kind, per_gpu(gpus_per_node), latency, efficiency};
  }

  // "InfiniBand HDR 200 Gb/s, one per GPU (25 GB/s per GPU)".
  [[nodiscard]] std::string describe(int gpus_per_node) const {
    if (none()) return "no network between nodes (" + id + ")";
    const std::string nics = nics_per_node == 0 ? "one per GPU" : std::to_string(nics_per_node) + " per node";
    return name + ", " + nics + " (" + format(per_gpu(gpus_per_node), {.significant = 3}) + " per GPU)";
  }

  void validate() const {
    require_nonnegative(nic_speed.value(), "fabric.nic_speed");
    if (nics_per_node < 0) capplan::detail::fail("fabric.nics_per_node", std::to_string(nics_per_node), "is negative");
    if (none()) return;
    require_nonnegative(latency.value(), "fabric.latency");
    require_fraction(efficiency, "fabric.efficiency");
    require_positive(efficiency, "fabric.efficiency");
  }
};

// The named fabrics (see the table at the top), in the order `--fabric` lists them.
inline const std::array<Fabric, 9>& fabric_presets() {
  auto preset = [](std::string id, std::string name, LinkKind kind, double gbit, int nics_per_node, double latency_s,
                   double efficiency, std::string source) {
    return Fabric{std::move(id), std::move(name), kind, from_canonical<Bandwidth>(gbit * 1e9 / 8), nics_per_node,
                  from_canonical<Duration>(latency_s), efficiency, std::move(source)};
  };
  static const std::array<Fabric, 9> all = {
      preset("ib-edr", "InfiniBand EDR 100 Gb/s", LinkKind::infiniband, 100, 0, 5e-6, 0.85, "InfiniBand Trade Association EDR rate"),
      preset("ib-hdr", "InfiniBand HDR 200 Gb/s", LinkKind::infiniband, 200, 0, 5e-6, 0.85, "NVIDIA DGX A100 User Guide: 8 x ConnectX-6 HDR"),
      preset("ib-ndr", "InfiniBand NDR 400 Gb/s", LinkKind::infiniband, 400, 0, 5e-6, 0.85, "NVIDIA DGX H100 User Guide: 8 x ConnectX-7 NDR"),
      preset("ib-xdr", "InfiniBand XDR 800 Gb/s", LinkKind::infiniband, 800, 0, 5e-6, 0.85, "NVIDIA ConnectX-8 SuperNIC (DGX B300)"),
      preset("roce-400", "RoCE 400 Gb/s Ethernet", LinkKind::ethernet, 400, 0, 8e-6, 0.85, "Dubey et al. 2024 (Llama 3), §3.3.1: RoCE at 400 Gb/s per GPU"),
      preset("eth-100", "100 GbE (TCP)", LinkKind::ethernet, 100, 1, 30e-6, 0.70, "one 100 GbE port per node (capplan's assumption)"),
      preset("eth-25", "25 GbE (TCP)", LinkKind::ethernet, 25, 1, 30e-6, 0.70, "one 25 GbE port per node"),
      preset("eth-10", "10 GbE (TCP)", LinkKind::ethernet, 10, 1, 30e-6, 0.70, "one 10 GbE port per node"),
      Fabric{"none", "no network", LinkKind::ethernet, Bandwidth{}, 0, Duration{}, 0.85, "a single machine"},
  };
  return all;
}

// The ids of the presets, "ib-edr, ib-hdr, ...", for messages; without "none" where a network is needed.
inline std::string fabric_ids(bool with_none = true) {
  std::string s;
  for (const auto& f : fabric_presets())
    if (with_none || !f.none()) s += (s.empty() ? "" : ", ") + f.id;
  return s;
}

// A preset by id; an unknown id is an InputError naming `field` and listing the presets.
inline Fabric find_fabric(std::string_view id, const std::string& field = "fabric") {
  for (const auto& f : fabric_presets()) {
    if (f.id == id) return f;
  }
  capplan::detail::fail(field, "\"" + std::string(id) + "\"", "is not a fabric; use one of " + fabric_ids());
}

// What a host of this GPU usually has between nodes (an assumption the reports state):
//   SXM/OAM boards come in HGX/DGX-style nodes with one NIC per GPU: Volta 4 x EDR for 8 GPUs
//   (DGX-1), Ampere and CDNA 2 HDR 200 Gb/s (DGX A100), Hopper, Blackwell and CDNA 3 NDR 400 Gb/s
//   (DGX H100/B200; GB200 NVL72: 4 x ConnectX-7 per 4-GPU compute tray; AMD's MI300X platform pairs
//   each GPU with a 400 Gb/s NIC), Blackwell Ultra XDR 800 Gb/s (HGX B300: 8 x ConnectX-8; GB300
//   NVL72: 4 x ConnectX-8 per 4-GPU compute tray, NVIDIA Enterprise Reference Architecture
//   "NVL72 AI Factory", System Hardware & Components);
//   data-centre and workstation PCIe cards a server with one 100 GbE port;
//   consumer cards and SoCs a desktop: no network, so one machine.
// The chips one scale-up network joins beyond a host: an NVLink domain that spans a rack (GB200 /
// GB300 NVL72: 72) or a vendor's chip link (a TPU pod, a Trainium instance or UltraServer); 0: none.
inline int scale_up_domain(const GpuSpec& gpu) {
  return gpu.nvlink_domain > 0 ? gpu.nvlink_domain : gpu.chip_link_domain > 0 ? gpu.chip_link_domain : 0;
}

// GPUs to a node, as the intra-node links see it: the scale-up domain where it spans more than a
// host (above), else the 8 GPUs of an HGX/DGX board or a typical PCIe server.
inline int usual_gpus_per_node(const GpuSpec& gpu) {
  if (linkless(gpu)) return 1;  // a system-on-chip: one a box, nothing to link a second to
  const int domain = scale_up_domain(gpu);
  return domain > 0 ? domain : 8;
}

// A rent-only accelerator's network between its chip-link domains, per chip, as its provider states
// it (each entry's source in hardware/builtin_catalog.hpp): Google's data-centre network (DCN) between
// TPU slices, v5e 2 x 100 Gb/s and v6e 4 x 200 Gb/s per 8-chip host (25 and 100 Gb/s a chip), v5p 50
// and TPU7x 100 Gb/s a chip; AWS EFA between Trainium instances, 800 Gb/s (trn1.32xlarge) and 3,200
// Gb/s (trn2.48xlarge) per 16 chips. RDMA-like efficiency and latency as the roce-400 preset
// (capplan's assumption: no measured collective across slices or instances is in a stored source).
inline Fabric provider_fabric(const GpuSpec& gpu) {
  double gbit = 0;
  std::string name, source;
  const std::string& a = gpu.architecture;
  if (a == "TPU v5e") gbit = 25, source = "Google Cloud TPU v5e: 2 x 100 Gbps NIC per 8-chip host";
  else if (a == "TPU v6e") gbit = 100, source = "Google Cloud TPU v6e: 4 x 200 Gbps NIC per 8-chip host";
  else if (a == "TPU v5p") gbit = 50, source = "Google Cloud TPU v5p: DCN bandwidth per chip 50 Gbps";
  else if (a == "TPU7x") gbit = 100, source = "Google Cloud TPU7x: DCN bandwidth per chip 100 Gbps";
  else if (a == "Trainium2") gbit = 200, source = "AWS trn2.48xlarge: EFAv3 3,200 Gbps per 16 chips";
  else if (a == "Trainium") gbit = 50, source = "AWS trn1.32xlarge: EFA 800 Gbps per 16 chips";
  else return find_fabric("none");
  name = gpu.vendor == Vendor::aws ? "AWS EFA" : "Google data-centre network";
  return Fabric{gpu.vendor == Vendor::aws ? "efa" : "gcp-dcn", name + " " + format_number(gbit, 4) + " Gb/s per chip", LinkKind::ethernet,
                from_canonical<Bandwidth>(gbit * 1e9 / 8), 0, from_canonical<Duration>(8e-6), 0.85, source};
}

inline Fabric usual_fabric(const GpuSpec& gpu) {
  switch (gpu.form_factor) {
    case FormFactor::sxm:
    case FormFactor::oam: {
      const std::string& a = gpu.architecture;
      if (a == "Volta") {
        Fabric f = find_fabric("ib-edr");
        f.nics_per_node = 4;
        f.source = "NVIDIA DGX-1 with V100: 4 x EDR 100 Gb/s InfiniBand for 8 GPUs";
        return f;
      }
      if (a == "Ampere" || a == "CDNA 2") return find_fabric("ib-hdr");
      if (a == "Gaudi 3") {
        // Its own 3 scale-out ports of 200 GbE RoCE a chip, not a NIC (Intel Gaudi docs, Network Configuration:
        // "3*200Gbps = 75 GB/s in each direction").
        Fabric f = find_fabric("roce-400");
        f.id = "custom";
        f.name = "RoCE 3 x 200 Gb/s a Gaudi 3 (integrated ports)";
        f.nic_speed = from_canonical<Bandwidth>(600e9 / 8);
        f.source = "Intel Gaudi docs, Network Configuration: 3 of each Gaudi 3's 24 200 GbE ports scale out, 75 GB/s in each direction";
        return f;
      }
      if (a == "Blackwell Ultra") {
        Fabric f = find_fabric("ib-xdr");
        f.source = "HGX B300 and GB300 NVL72: one ConnectX-8 800 Gb/s per GPU (NVIDIA Enterprise RA, NVL72 AI Factory components)";
        return f;
      }
      return find_fabric("ib-ndr");
    }
    case FormFactor::pcie: return find_fabric("eth-100");
    case FormFactor::consumer:
    case FormFactor::soc: return find_fabric("none");
    case FormFactor::cloud: return provider_fabric(gpu);
  }
  return find_fabric("none");
}

// A system's own NICs: `count` adapters per node shared by `gpus_per_node` GPUs (all ports used).
inline Fabric nic_fabric(const NetworkAdapter& nic, int count, int gpus_per_node) {
  require_positive_count(count, "nics");
  require_positive_count(gpus_per_node, "gpus_per_node");
  const bool ib = nic.protocol != LinkProtocol::ethernet;
  Fabric f;
  f.id = nic.id;
  f.name = std::to_string(count) + " x " + nic.name;
  f.kind = ib ? LinkKind::infiniband : LinkKind::ethernet;
  f.nic_speed = nic.port_speed * static_cast<double>(nic.ports);
  f.nics_per_node = count >= gpus_per_node && count % gpus_per_node == 0 ? 0 : count;
  if (f.nics_per_node == 0 && count > gpus_per_node) f.nic_speed = f.nic_speed * static_cast<double>(count / gpus_per_node);
  // RDMA (InfiniBand or RoCE on ConnectX-class adapters) as the presets: 85 %, 5 us (IB) / 8 us.
  f.latency = from_canonical<Duration>(ib ? 5e-6 : 8e-6);
  f.efficiency = 0.85;
  f.source = "the system's network adapters (" + nic.source + ")";
  f.validate();
  return f;
}

// A cloud offer's network between its instances (hardware/cloud.hpp CloudOffer::network), as its
// provider publishes it: each GPU of an instance (instance_gpus: a marketplace pod's max_gpus) gets its
// share, one rail each (AWS p4d.24xlarge: 400
// Gb/s EFA for 8 GPUs, 50 Gb/s a GPU; g5.xlarge: its 2.5 Gb/s baseline). RDMA (InfiniBand, EFA,
// RoCE) at the presets' 85 % and 5 us (InfiniBand) or 8 us; TCP, GPUDirect-TCPX among it, at the
// TCP presets' 70 % and 30 us (capplan's assumption: no measured collective across cloud instances is
// in a stored source). Where the offer records none: nothing for an instance of a server's GPUs (the
// GPU's usual fabric, or its provider's or its rack's domain), and no network for a smaller instance,
// a slice of a server whose instances nothing says reach each other faster than the internet: plans
// stay in one instance (a query's --fabric times more).
inline std::optional<Fabric> offer_fabric(const CloudOffer& o, const GpuSpec& gpu) {
  if (o.network_kind == InstanceNetwork::overlay) {
    // A service network between pods, or the internet: no collectives across it.
    Fabric f = find_fabric("none");
    f.name = o.network.value() > 0 ? o.id + " instances reach each other over a " + format_number(o.network.value() * 8 / 1e9, 4) + " Gb/s overlay only"
                                   : o.id + " instances reach each other over an overlay only";
    f.source = "the provider's published instance network (" + o.id + "): an overlay, no network for collectives";
    return f;
  }
  if (o.network.value() > 0) {
    const double gbit = o.network.value() * 8 / 1e9;
    const bool rdma = o.network_kind == InstanceNetwork::infiniband || o.network_kind == InstanceNetwork::efa || o.network_kind == InstanceNetwork::roce;
    Fabric f;
    f.id = o.id;
    f.name = o.instance_type + "'s " + format_number(gbit, 4) + " Gb/s " + std::string(name(o.network_kind)) +
             (o.max_gpus > 0 ? ", an instance of up to " + std::to_string(o.instance_gpus()) + " GPUs" : std::string());
    f.kind = o.network_kind == InstanceNetwork::infiniband ? LinkKind::infiniband : LinkKind::ethernet;
    f.nic_speed = o.network / static_cast<double>(o.instance_gpus());  // each GPU its share (nics_per_node 0: a rail each)
    f.latency = from_canonical<Duration>(o.network_kind == InstanceNetwork::infiniband ? 5e-6 : rdma ? 8e-6 : 30e-6);
    f.efficiency = rdma ? 0.85 : 0.70;
    f.source = "the provider's published instance network (" + o.id + ")";
    f.validate();
    return f;
  }
  if (scale_up_domain(gpu) == 0 && o.instance_gpus() < usual_gpus_per_node(gpu) && !usual_fabric(gpu).none()) {
    Fabric f = find_fabric("none");
    f.name = "no network between " + o.id + " instances recorded";
    f.source = "capplan: the offer records no network between its instances";
    return f;
  }
  return std::nullopt;
}

}  // namespace capplan::perf
