// Performance model: roofline, efficiency, communication, training, inference, CNN, data loading,
// plan search, and the published validation cases (validation/validation_cases.hpp).
#include "test_support.hpp"

#include "capplan/compute/flops.hpp"
#include "capplan/hardware/builtin_catalog.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/hardware/host_memory.hpp"
#include "capplan/memory/image_model.hpp"
#include "capplan/memory/kv_cache.hpp"
#include "capplan/perf/image_model.hpp"
#include "capplan/perf/communication.hpp"
#include "capplan/perf/data_loading.hpp"
#include "capplan/perf/efficiency.hpp"
#include "capplan/perf/fabric.hpp"
#include "capplan/perf/inference.hpp"
#include "capplan/perf/plan_search.hpp"
#include "capplan/perf/roofline.hpp"
#include "capplan/perf/training.hpp"
#include "capplan/plan/serving_run.hpp"
#include "capplan/plan/training_run.hpp"
#include "capplan/units/literals.hpp"
#include "capplan/workload/presets.hpp"
#include "validation_cases.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace capplan;
using namespace capplan::literals;
using namespace capplan::perf;

namespace {

const GpuSpec& gpu(const char* name) { return Catalog::builtin().find_gpu(name); }

TransformerShape gpt(int layers, std::int64_t hidden, int heads) {
  return validation::gpt("gpt", layers, hidden, heads, 51200, 2048);
}

// Mixtral-like: 32 layers of 4096, 8 K/V heads, 8 experts of 14336, top-2 (Jiang et al. 2024).
TransformerShape mixtral_like() {
  TransformerShape moe = validation::gpt("moe", 32, 4096, 32, 32000, 4096);
  moe.kv_heads = 8;
  moe.ffn_hidden = 14336;
  moe.gated_mlp = true;
  moe.moe = MoeShape{8, 2, 0, 14336, 0, 0, 0};
  return moe;
}

// The time of the breakdown term named `name`, -1 when the estimate has none.
template <class Estimate>
double term_seconds(const Estimate& e, std::string_view name) {
  for (const auto& t : e.breakdown.terms)
    if (t.name == name) return t.time.value();
  return -1.0;
}

using capplan::test_support::field_of;

namespace {
// Llama 3 70B as Megatron-Bridge's recipes train it: global batch 128 of 8,192 tokens, FP8 with
// current scaling.
TrainingJob llama3_70b_fp8_job() {
  TrainingJob j;
  j.model = find_model("llama3-70b").transformer();
  j.global_batch = 128;
  j.seq_len = 8192;
  j.precision = Precision::fp8;
  j.fp8_recipe = Fp8Recipe::current;
  return j;
}
}  // namespace

}  // namespace

TEST_SUITE("perf") {
  TEST_CASE("ridge point = peak / bandwidth (Williams et al. 2009)") {
    // A100 SXM 80GB: 312 TFLOP/s bf16 over 2,039 GB/s = 153.0 FLOP/B (reference-cases.md §6).
    CHECK(ridge_point(gpu("A100 SXM 80GB"), Precision::bf16).value() == doctest::Approx(312e12 / 2039e9).epsilon(1e-3));
    // H100 SXM: 989.5 TFLOP/s over 3.35 TB/s = 295 FLOP/B: twice the A100's, so more kernels are memory-bound.
    CHECK(ridge_point(gpu("H100 SXM"), Precision::bf16).value() == doctest::Approx(989.5e12 / 3.35e12).epsilon(1e-3));
    CHECK(field_of([] { (void)ridge_point(gpu("RTX 3090"), Precision::fp8); }) == "precision");
    // A hand-made GPU with a NaN bandwidth or an infinite rate is refused, never propagated.
    GpuSpec odd = gpu("A100 SXM 80GB");
    odd.memory_bandwidth = Bandwidth::from_value(std::nan(""));
    CHECK(field_of([&] { (void)ridge_point(odd, Precision::bf16); }) == "memory_bandwidth");
    odd = gpu("A100 SXM 80GB");
    odd.dense.set(Precision::bf16, FlopRate::from_value(HUGE_VAL));
    CHECK(field_of([&] { (void)ridge_point(odd, Precision::bf16); }) == "precision");
  }

  TEST_CASE("GEMM intensity and bound") {
    // 4096^3 bf16: 2 x 4096^3 FLOPs over 3 x 4096^2 x 2 bytes = 1365 FLOP/B: compute-bound.
    const Op big = gemm("big", 4096, 4096, 4096, 2);
    CHECK(big.flops == doctest::Approx(2.0 * 4096.0 * 4096.0 * 4096.0));
    CHECK(big.intensity().value() == doctest::Approx(4096.0 / 3.0));
    const RooflinePoint pb = roofline(big, gpu("A100 SXM 80GB"), Precision::bf16);
    CHECK(pb.bound == Bound::compute);
    CHECK(pb.attainable.value() == doctest::Approx(312e12));
    // Batch-1 decode GEMV [1, 4096] x [4096, 4096]: ~1 FLOP/B, far below the ridge: memory-bound.
    const Op gemv = gemm("gemv", 1, 4096, 4096, 2);
    const RooflinePoint pv = roofline(gemv, gpu("A100 SXM 80GB"), Precision::bf16);
    CHECK(pv.bound == Bound::memory);
    CHECK(pv.attainable.value() == doctest::Approx(gemv.intensity().value() * 2039e9));
    CHECK(field_of([] { (void)gemm("bad", 0, 1, 1, 2); }) == "m");
  }

  TEST_CASE("transformer layer operations add up to the FLOP count of compute/flops.hpp") {
    // Per layer forward: 24 b s h^2 + 4 b s^2 h (Narayanan et al. 2021, §5.1); the op list must agree
    // with the colleague's independent count when attention is not flash (full s^2).
    const TransformerShape s = gpt(24, 2304, 24);
    LayerOptions o;
    o.flash_attention = false;
    double flops = 0;
    for (const Op& op : transformer_layer_forward(s, 2048, 2048, 1, Precision::bf16, o)) flops += op.flops;
    const ForwardFlops f = forward_flops(s, 1, 2048, AttentionCount::full);
    CHECK(flops * 24 == doctest::Approx(static_cast<double>(f.layers_matmul + f.layers_attention)).epsilon(1e-12));
    // Tensor parallelism splits the GEMM FLOPs evenly.
    double flops_tp4 = 0;
    for (const Op& op : transformer_layer_forward(s, 2048, 2048, 4, Precision::bf16, o)) flops_tp4 += op.flops;
    CHECK(flops_tp4 * 4 == doctest::Approx(flops));
    // Each op has a roofline point; the softmax is memory-bound and the MLP GEMM compute-bound.
    for (const Op& op : transformer_layer_forward(s, 2048, 2048, 1, Precision::bf16, o)) {
      const RooflinePoint p = roofline(op, gpu("A100 SXM 80GB"), Precision::bf16);
      if (op.name == "scale-mask-softmax") CHECK(p.bound == Bound::memory);
      if (op.name == "mlp up projection") CHECK(p.bound == Bound::compute);
    }
    CHECK(field_of([&] { (void)transformer_layer_forward(s, 2048, 2048, 5, Precision::bf16, o); }) == "tp");
  }

  TEST_CASE("optimizer step is memory-bound") {
    const Op adam = adam_step(1e9);
    CHECK(adam.bytes == doctest::Approx(1e9 * 30));
    CHECK(roofline(adam, gpu("H100 SXM"), Precision::bf16).bound == Bound::memory);
  }

  TEST_CASE("device rates follow the GPU asked for, whatever was asked before") {
    // device_rates remembers the last GPU's calibration; a different id, name or vendor is looked up again.
    const GpuSpec& a100 = gpu("A100 SXM 80GB");
    const GpuSpec& h100 = gpu("H100 SXM");
    const DeviceRates ra = device_rates(a100, Precision::bf16);
    const DeviceRates rh = device_rates(h100, Precision::bf16);
    CHECK(ra.sm_count == 108);
    CHECK(rh.sm_count == 132);
    CHECK(device_rates(a100, Precision::bf16).best_fraction == ra.best_fraction);
    GpuSpec renamed = a100;  // same id, H100 name: the name decides
    renamed.name = "H100 SXM5 80GB";
    CHECK(device_rates(renamed, Precision::bf16).sm_count == 132);
    GpuSpec amd = a100;
    amd.id = "custom";
    amd.name = "custom accelerator";
    amd.vendor = Vendor::amd;
    CHECK(device_rates(amd, Precision::bf16).best_fraction == doctest::Approx(0.514 * 0.90));
    amd.vendor = Vendor::nvidia;
    CHECK(device_rates(amd, Precision::bf16).best_fraction == doctest::Approx(0.80 * 0.90));
  }

  TEST_CASE("GEMM efficiency grows with size and saturates at the measured best case") {
    const GpuSpec& a100 = gpu("A100 SXM 80GB");
    const double best = gemm_calibration(a100).best_fraction * gemm_calibration(a100).sustained_clock;
    CHECK(gemm_calibration(a100).best_fraction == doctest::Approx(0.869));  // stas00/ml-engineering: 271.2 / 312
    CHECK(gemm_calibration(gpu("H100 SXM")).best_fraction == doctest::Approx(0.803));  // 794.5 / 989
    double previous = 0;
    for (std::int64_t n : {256, 512, 1024, 2048, 4096, 8192, 16384}) {
      const double r = achieved_gemm_rate(a100, Precision::bf16, n, n, n).value() / 312e12;
      CHECK(r > previous);
      CHECK(r <= best + 1e-12);
      previous = r;
    }
    CHECK(previous > 0.95 * best);  // 16384^3 is within 5 % of the best case
    CHECK(achieved_gemm_rate(a100, Precision::bf16, 256, 256, 256).value() < 0.3 * 312e12);  // a small GEMM is far below
    // A measured override is used as given.
    EfficiencyModel m;
    m.compute_rate = 200_TFLOPps;
    CHECK(achieved_gemm_rate(a100, Precision::bf16, 8192, 8192, 8192, m).value() == doctest::Approx(200e12).epsilon(0.01));
    EfficiencyModel bad;
    bad.memory_fraction = 1.2;
    CHECK(field_of([&] { (void)achieved_bandwidth(a100, bad); }) == "memory_fraction");
    CHECK(achieved_bandwidth(a100).value() == doctest::Approx(0.88 * 2039e9));
  }

  TEST_CASE("collectives: peer-to-peer forced (NCCL_P2P_LEVEL=SYS) or disabled (NCCL_P2P_DISABLE=1)") {
    // Forced through a CPU: PCIe peer-to-peer at 46.65 / 63.0 of the link (NVIDIA/nccl#2080); under a switch a
    // peer copy's 0.87, as NCCL's default; GeForce cards too (a patched driver assumed).
    const GpuSpec& pro = gpu("RTX PRO 6000");
    const GpuSpec& g4090 = gpu("RTX 4090");
    for (const GpuSpec* g : {&pro, &g4090}) {
      CAPTURE(g->id);
      const Link cpu = pcie(*g, PcieHost::root_complex, PeerToPeer::forced);
      CHECK(cpu.kind == LinkKind::pcie_via_cpu);
      CHECK(cpu.efficiency == doctest::Approx(46.65 / 63.0));
      CHECK(pcie(*g, PcieHost::two_sockets, PeerToPeer::forced).efficiency == doctest::Approx(46.65 / 63.0));
      const Link sw = pcie(*g, PcieHost::pcie_switch, PeerToPeer::forced);
      CHECK(sw.kind == LinkKind::pcie);
      CHECK(sw.efficiency == doctest::Approx(0.87));
      // Disabled: through host memory everywhere, under a switch too.
      for (PcieHost host : {PcieHost::pcie_switch, PcieHost::root_complex, PcieHost::two_sockets}) {
        const Link off = pcie(*g, host, PeerToPeer::disabled);
        CHECK(off.kind == LinkKind::pcie_via_host);
        CHECK(off.efficiency == doctest::Approx(35.0 / 63.0));
      }
    }
    // NCCL's default is unchanged: the 4090 through host memory on any host, the PRO 6000 peer-to-peer under a switch only.
    CHECK(pcie(g4090, PcieHost::pcie_switch).kind == LinkKind::pcie_via_host);
    CHECK(pcie(pro, PcieHost::pcie_switch).kind == LinkKind::pcie);
    CHECK(pcie(pro, PcieHost::root_complex).kind == LinkKind::pcie_via_host);
    // The cluster keeps the setting, and a bridged pair's hops beyond the bridge take it (RTX 3090: NVLink pairs).
    const Cluster forced = make_cluster(gpu("RTX 3090"), 4, 4, Link{}, PcieHost::root_complex, PeerToPeer::forced);
    CHECK(forced.p2p == PeerToPeer::forced);
    CHECK(forced.intra.kind == LinkKind::nvlink);
    CHECK(forced.intra_beyond.kind == LinkKind::pcie_via_cpu);
    CHECK(forced.intra_beyond.efficiency == doctest::Approx(46.65 / 63.0));
    // 4 x RTX 4090 on one CPU: 18 GB/s busbw through host memory, 22 forced (NVIDIA/nccl#1603); capplan 17.5 and 23.3.
    const Group four{4, 4};
    const double shm = all_reduce_bus_bandwidth(make_cluster(g4090, 4, 4, Link{}, PcieHost::root_complex), 8_GiB, four).value();
    const double p2p =
        all_reduce_bus_bandwidth(make_cluster(g4090, 4, 4, Link{}, PcieHost::root_complex, PeerToPeer::forced), 8_GiB, four).value();
    CHECK(shm == doctest::Approx(31.5e9 * 35.0 / 63.0).epsilon(0.01));
    CHECK(p2p == doctest::Approx(31.5e9 * 46.65 / 63.0).epsilon(0.01));
    CHECK(std::fabs(p2p / 22e9 - 1) < 0.10);
    CHECK(std::string(name(PeerToPeer::forced)) == "forced (NCCL_P2P_LEVEL=SYS)");
    // GPUs two to a PCIe switch, the switches on the CPU's root ports (PcieHost::switch_pairs): peer-to-peer inside a
    // pair, host memory between pairs, so a ring over more than a pair runs at host memory's rate; forced, through the CPU.
    const Cluster pairs = make_cluster(gpu("L40S"), 8, 8, Link{}, PcieHost::switch_pairs);
    CHECK(pairs.intra.kind == LinkKind::pcie);
    CHECK(pairs.intra.efficiency == doctest::Approx(0.87));
    CHECK(pairs.intra_domain == 2);
    CHECK(pairs.intra_beyond.kind == LinkKind::pcie_via_host);
    CHECK(&pairs.intra_for(2) == &pairs.intra);
    CHECK(&pairs.intra_for(4) == &pairs.intra_beyond);
    CHECK(&pairs.intra_for(2, 2) == &pairs.intra_beyond);  // two GPUs of different pairs
    const Cluster pairs_forced = make_cluster(gpu("L40S"), 8, 8, Link{}, PcieHost::switch_pairs, PeerToPeer::forced);
    CHECK(pairs_forced.intra_beyond.kind == LinkKind::pcie_via_cpu);
    CHECK(pairs_forced.intra_beyond.efficiency == doctest::Approx(46.65 / 63.0));
    CHECK(make_cluster(gpu("L40S"), 2, 2, Link{}, PcieHost::switch_pairs).intra_domain == 0);  // one pair: nothing beyond
    // An NVLink-bridged card in such a box: the bridge joins the pair, the root complex the pairs.
    const Cluster bridged_pairs = make_cluster(gpu("RTX 3090"), 4, 4, Link{}, PcieHost::switch_pairs);
    CHECK(bridged_pairs.intra.kind == LinkKind::nvlink);
    CHECK(bridged_pairs.intra_beyond.kind == LinkKind::pcie_via_host);
    // Every GPU of the node may send through host memory at once (DP rings beside TP groups inside the
    // pairs cross it on every hop), so the 8 share the one-socket host's 0.75 x 204.8 GB/s: 9.6 GB/s
    // each, as on the root complex.
    CHECK(pairs.intra_beyond.effective() == doctest::Approx(0.75 * 204.8e9 / 16));
    const Cluster all_shm = make_cluster(gpu("L40S"), 8, 8, Link{}, PcieHost::root_complex);
    CHECK(all_shm.intra.effective() == doctest::Approx(0.75 * 204.8e9 / 16));
    CHECK(all_reduce_bus_bandwidth(pairs, 8_GiB, Group{8, 8}).value() ==
          doctest::Approx(all_reduce_bus_bandwidth(all_shm, 8_GiB, Group{8, 8}).value()));
    // GeForce cards in pairs: every hop through host memory, all 8 flows counted either way.
    const Cluster geforce_pairs = make_cluster(gpu("RTX 5090"), 8, 8, Link{}, PcieHost::switch_pairs);
    CHECK(geforce_pairs.intra.effective() == doctest::Approx(geforce_pairs.intra_beyond.effective()));
    CHECK(geforce_pairs.intra.effective() == doctest::Approx(0.75 * 460.8e9 / 16));
    CHECK(std::string(name(PcieHost::switch_pairs)) == "in pairs under PCIe switches on the CPU's root ports");
    // NCCL_P2P_DISABLE=1 drops an NVLink bridge's peer-to-peer too: every hop of a bridged box through host memory.
    const Cluster bridged_off = make_cluster(gpu("RTX 3090"), 4, 4, Link{}, PcieHost::pcie_switch, PeerToPeer::disabled);
    CHECK(bridged_off.intra.kind == LinkKind::pcie_via_host);
    CHECK(bridged_off.intra_domain == 0);
    CHECK(p2p_setting_modelled(gpu("RTX 3090"), PeerToPeer::disabled));
    CHECK(p2p_setting_modelled(g4090, PeerToPeer::disabled));
    // Where NVSwitch, xGMI or a chip link joins the node it is not timed: an error naming the field, not NVLink's rate.
    CHECK_FALSE(p2p_setting_modelled(gpu("H100 SXM"), PeerToPeer::disabled));
    CHECK_FALSE(p2p_setting_modelled(gpu("MI300X"), PeerToPeer::disabled));
    CHECK(p2p_setting_modelled(gpu("H100 SXM"), PeerToPeer::forced));
    // The plan layer's fallback: the setting where it is modelled, NCCL's default where it is not.
    CHECK(modelled_p2p(gpu("H100 SXM"), PeerToPeer::disabled) == PeerToPeer::automatic);
    CHECK(modelled_p2p(gpu("H100 SXM"), PeerToPeer::forced) == PeerToPeer::forced);
    CHECK(modelled_p2p(g4090, PeerToPeer::disabled) == PeerToPeer::disabled);
    CHECK_THROWS_WITH_AS(make_cluster(gpu("H100 SXM"), 8, 8, Link{}, PcieHost::pcie_switch, PeerToPeer::disabled),
                         doctest::Contains("p2p: disabled (NCCL_P2P_DISABLE=1) would also turn off the NVLink"), InputError);
    CHECK_NOTHROW(make_cluster(gpu("H100 SXM"), 1, 1, Link{}, PcieHost::pcie_switch, PeerToPeer::disabled));  // one GPU: no peers
  }

  TEST_CASE("links: what joins a GPU to its node, said once (has_nvlink, nvlink_bridged, pcie_only, over_pcie)") {
    // SXM on an NVSwitch board: NVLink, not a bridge; PCIe cards with a bridge: NVLink and a bridge.
    CHECK(has_nvlink(gpu("H100 SXM")));
    CHECK_FALSE(nvlink_bridged(gpu("H100 SXM")));
    CHECK_FALSE(pcie_only(gpu("H100 SXM")));
    for (const char* bridged : {"RTX 3090", "A100 PCIe 80GB", "RTX A6000"}) {
      CAPTURE(bridged);
      CHECK(nvlink_bridged(gpu(bridged)));
      CHECK_FALSE(pcie_only(gpu(bridged)));
    }
    // No NVLink: PCIe only, unless Infinity Fabric or a chip link joins the node (MI300X's xGMI mesh).
    for (const char* card : {"RTX 4090", "L40S", "RTX PRO 6000"}) {
      CAPTURE(card);
      CHECK_FALSE(has_nvlink(gpu(card)));
      CHECK_FALSE(nvlink_bridged(gpu(card)));
      CHECK(pcie_only(gpu(card)));
    }
    CHECK_FALSE(pcie_only(gpu("MI300X")));
    CHECK_FALSE(pcie_only(gpu("TPU v6e")));  // a chip link (ICI)
    CHECK_FALSE(has_nvlink(gpu("TPU v6e")));
    // A card whose NVLink has no bandwidth in the catalog meets its peers over PCIe.
    GpuSpec no_bw = gpu("RTX 3090");
    no_bw.nvlink_bandwidth = Bandwidth{};
    CHECK(pcie_only(no_bw));
    CHECK_FALSE(nvlink_bridged(no_bw));
    // Peer-to-peer forced through a CPU is a link kind of its own, named so in explanations and JSON.
    CHECK(pcie(gpu("RTX PRO 6000"), PcieHost::two_sockets, PeerToPeer::forced).kind == LinkKind::pcie_via_cpu);
    CHECK(std::string(name(LinkKind::pcie_via_cpu)) == "PCIe peer-to-peer through the CPU");
    for (LinkKind k : {LinkKind::pcie, LinkKind::pcie_via_cpu, LinkKind::pcie_via_host}) CHECK(over_pcie(k));
    for (LinkKind k : {LinkKind::nvlink, LinkKind::infinity_fabric, LinkKind::infiniband, LinkKind::ici}) CHECK_FALSE(over_pcie(k));
    // Through the CPU only where no switch joins the two GPUs: forced inside a switch pair stays a switch's link,
    // between pairs it crosses the CPU (PcieHost::switch_pairs); p2p_through_cpu says it for the purchase notes.
    const Cluster pair_forced = make_cluster(gpu("L40S"), 2, 2, Link{}, PcieHost::switch_pairs, PeerToPeer::forced);
    CHECK(pair_forced.intra.kind == LinkKind::pcie);
    const Cluster pairs_forced = make_cluster(gpu("L40S"), 8, 8, Link{}, PcieHost::switch_pairs, PeerToPeer::forced);
    CHECK(pairs_forced.intra.kind == LinkKind::pcie);
    CHECK(pairs_forced.intra_beyond.kind == LinkKind::pcie_via_cpu);
    CHECK(p2p_through_cpu(PcieHost::root_complex, PeerToPeer::forced));
    CHECK(p2p_through_cpu(PcieHost::two_sockets, PeerToPeer::forced));
    CHECK_FALSE(p2p_through_cpu(PcieHost::switch_pairs, PeerToPeer::forced));
    CHECK_FALSE(p2p_through_cpu(PcieHost::pcie_switch, PeerToPeer::forced));
    CHECK_FALSE(p2p_through_cpu(PcieHost::root_complex, PeerToPeer::automatic));
    // Automatic on a root complex is host memory, even for a peer-to-peer-capable card.
    CHECK(pcie(gpu("RTX PRO 6000"), PcieHost::root_complex).kind == LinkKind::pcie_via_host);
    // The LL protocol's per-step cost is PCIe's through the CPU as under a switch (it is the same wire).
    const Link sw = pcie(gpu("RTX PRO 6000"), PcieHost::pcie_switch, PeerToPeer::forced);
    const Link cpu = pcie(gpu("RTX PRO 6000"), PcieHost::root_complex, PeerToPeer::forced);
    CHECK(cpu.kind == LinkKind::pcie_via_cpu);
    CHECK(comm::low_latency_ring(6, 0, cpu) == doctest::Approx(comm::low_latency_ring(6, 0, sw)));
    // The enum's numbers before pcie_via_cpu are unchanged (it was added last).
    CHECK(static_cast<int>(LinkKind::pcie_via_host) == 3);
    CHECK(static_cast<int>(LinkKind::chip_link) == 8);
  }

  TEST_CASE("collectives: ring formulas, hierarchy, PCIe without peer-to-peer") {
    const GpuSpec& a100 = gpu("A100 SXM 80GB");
    const Cluster node = make_cluster(a100, 8, 8, infiniband(25_GBps));
    // Ring all-reduce of 1 GB on 8 GPUs: 2(n-1)/n x S / (300 GB/s x 0.8) + 2(n-1) x 3 us.
    const double expected = 2.0 * 7 / 8 * 1e9 / (300e9 * 0.8) + 14 * 3e-6;
    CHECK(all_reduce(node, 1_GB, Group{8, 8}).value() == doctest::Approx(expected));
    // nccl-tests "bus bandwidth" = algbw x 2(n-1)/n: 80 % of 300 GB/s for large messages.
    CHECK(all_reduce_bus_bandwidth(node, 10_GB, Group{8, 8}).value() == doctest::Approx(240e9).epsilon(0.01));
    CHECK(all_gather(node, 1_GB, Group{8, 8}).value() == doctest::Approx(expected / 2));
    CHECK(reduce_scatter(node, 1_GB, Group{8, 8}).value() == doctest::Approx(expected / 2));
    CHECK(point_to_point(node.intra, 1_GB).value() == doctest::Approx(3e-6 + 1e9 / 240e9));
    // Across 4 nodes: the inter-node part (25 GB/s per GPU) dominates; hierarchical beats a flat ring over the NICs.
    const Cluster four = make_cluster(a100, 32, 8, infiniband(25_GBps));
    const double hier = all_reduce(four, 1_GB, Group{32, 8}).value();
    CHECK(hier > expected);
    CHECK(hier < comm::ring_all_reduce(1e9, 32, four.inter));
    // NCCL's rings leave the node on all 8 NICs at once: the bus bandwidth is the node's 8 x 25 GB/s
    // x 0.85 (nccl#812: 192 GB/s measured on DGX A100 with 8 x HDR).
    CHECK(all_reduce_bus_bandwidth(four, 10_GB, Group{32, 8}).value() == doctest::Approx(8 * 25e9 * 0.85).epsilon(0.01));
    CHECK(all_to_all(four, 1_GB, Group{32, 8}).value() > all_to_all(node, 1_GB, Group{8, 8}).value());
    // RTX 4090: no NVLink, no P2P: PCIe 4.0 x16 (31.5 GB/s) through host memory (NCCL's SHM) at the
    // efficiency 4 x RTX 5090 set (35 of 63 GB/s), on any host.
    for (PcieHost host : {PcieHost::pcie_switch, PcieHost::root_complex, PcieHost::two_sockets}) {
      const Link l4090 = intra_node_link(gpu("RTX 4090"), host);
      CHECK(l4090.kind == LinkKind::pcie_via_host);
      CHECK(l4090.bandwidth.value() == doctest::Approx(16 * 1.969e9));
      CHECK(l4090.effective() == doctest::Approx(16 * 1.969e9 * 35.0 / 63.0));
    }
    // A peer-to-peer card runs peer-to-peer under a PCIe switch only: NCCL's default P2P level is PXB, so
    // on a CPU's root complex or across sockets it goes through host memory too.
    const GpuSpec l40s = gpu("L40S");
    CHECK(intra_node_link(l40s).kind == LinkKind::pcie);
    CHECK(intra_node_link(l40s).efficiency == 0.87);
    CHECK(intra_node_link(l40s, PcieHost::root_complex).kind == LinkKind::pcie_via_host);
    CHECK(intra_node_link(l40s, PcieHost::two_sockets).kind == LinkKind::pcie_via_host);
    CHECK(make_cluster(l40s, 4, 4, Link{}, PcieHost::root_complex).intra.kind == LinkKind::pcie_via_host);
    CHECK(all_reduce(make_cluster(l40s, 4, 4, Link{}), 1_GB, Group{4, 4}).value() <
          all_reduce(make_cluster(l40s, 4, 4, Link{}, PcieHost::two_sockets), 1_GB, Group{4, 4}).value());
    // AMD's 8-GPU xGMI platforms are a full mesh, no switch: the catalog's 448 GB/s is 7 links of 64, each
    // usable at 48 (AMD ROCm blog); a collective over n GPUs of the node has n - 1 links.
    const Cluster mi300 = make_cluster(gpu("MI300X"), 8, 8, Link{});
    CHECK(mi300.mesh_links == 7);
    CHECK(mi300.intra_for(8).effective() == doctest::Approx(448e9 * 0.75));
    CHECK(mi300.intra_for(2).effective() == doctest::Approx(48e9));
    CHECK(mi300.intra_for(4).effective() == doctest::Approx(3 * 48e9));
    CHECK(all_reduce(mi300, 1_GB, Group{2, 2}).value() > 3 * all_reduce(mi300, 1_GB, Group{8, 8}).value());
    CHECK(all_reduce_bus_bandwidth(mi300, 8_GB, Group{8, 8}).value() == doctest::Approx(336e9).epsilon(0.01));
    // MI350X / MI355X: 7 x 76.8 GB/s, a mesh too; the CDNA 2 MI250X (not a full mesh) is not one.
    CHECK(make_cluster(gpu("MI355X"), 8, 8, Link{}).intra.kind == LinkKind::infinity_fabric);
    CHECK(make_cluster(gpu("MI355X"), 8, 8, Link{}).mesh_links == 7);
    CHECK(make_cluster(gpu("MI250X"), 8, 8, Link{}).mesh_links == 0);
    // An NVLink-bridged pair keeps NVLink; the hops beyond it follow the host.
    const Cluster bridged = make_cluster(gpu("A100 PCIe 80GB"), 4, 4, Link{}, PcieHost::two_sockets);
    CHECK(bridged.intra.kind == LinkKind::nvlink);
    CHECK(bridged.intra_beyond.kind == LinkKind::pcie_via_host);
    // RTX A6000 pair with an NVLink bridge is faster than 2 x RTX 4090 over PCIe.
    const Cluster a6000 = make_cluster(gpu("RTX A6000"), 2, 2, infiniband(25_GBps));
    const Cluster r4090 = make_cluster(gpu("RTX 4090"), 2, 2, infiniband(25_GBps));
    CHECK(all_reduce(a6000, 1_GB, Group{2, 2}).value() < all_reduce(r4090, 1_GB, Group{2, 2}).value());
    // x8 links halve PCIe bandwidth.
    CHECK(pcie_bandwidth(4, 8).value() == doctest::Approx(pcie_bandwidth(4, 16).value() / 2));
    CHECK(field_of([] { (void)pcie_bandwidth(9, 16); }) == "pcie_generation");
    CHECK(field_of([&] { (void)make_cluster(a100, 0, 8, infiniband(25_GBps)); }) == "gpus");
    // Overlap: communication shorter than the compute it hides under costs only its last bucket.
    CHECK(exposed_after_overlap(1.0, 10.0, 10) == doctest::Approx(0.1));
    CHECK(exposed_after_overlap(10.0, 4.0, 10) == doctest::Approx(6.0));
  }

  TEST_CASE("collectives: small messages inside a node take NCCL's LL protocol") {
    // NVIDIA/nccl src/graph/tuning.cc: Ring LL 6.6 us + 0.6 us per NVLink step, data at half rate.
    const Cluster node = make_cluster(gpu("A100 SXM 80GB"), 8, 8, infiniband(25_GBps));
    const double bytes = 8192.0 * 2;  // one decode token's activations of a 8,192-wide model in bf16
    const double ll = 6.6e-6 + 14 * 0.6e-6 + 2.0 * 7 / 8 * bytes / (0.5 * 300e9 * 0.8);
    const double simple = 14 * 3e-6 + 2.0 * 7 / 8 * bytes / (300e9 * 0.8);
    CHECK(all_reduce(node, from_canonical<DataSize>(bytes), Group{8, 8}).value() == doctest::Approx(ll));
    CHECK(ll < simple / 2);
    // Large messages keep Simple (LL's half rate loses), so the bus bandwidth is unchanged.
    CHECK(all_reduce(node, 1_GB, Group{8, 8}).value() == doctest::Approx(2.0 * 7 / 8 * 1e9 / 240e9 + 14 * 3e-6));
    // PCIe peer-to-peer: 1 us per step; through host memory and between nodes: Simple only.
    const Link pcie_p2p = intra_node_link(gpu("L40S"));
    REQUIRE(pcie_p2p.kind == LinkKind::pcie);
    CHECK(comm::ring_all_reduce(bytes, 4, pcie_p2p) ==
          doctest::Approx(6.6e-6 + 6 * 1.0e-6 + 2.0 * 3 / 4 * bytes / (0.5 * pcie_p2p.effective())));
    const Link host = intra_node_link(gpu("RTX 4090"));
    CHECK(comm::ring_all_reduce(bytes, 4, host) == doctest::Approx(6 * host.latency.value() + 2.0 * 3 / 4 * bytes / host.effective()));
    const Link ib = infiniband(25_GBps);
    CHECK(comm::ring_all_reduce(bytes, 4, ib) == doctest::Approx(6 * ib.latency.value() + 2.0 * 3 / 4 * bytes / ib.effective()));
  }

  TEST_CASE("fabric: presets, each GPU's share, the usual host, a system's NICs, bad input") {
    // DGX A100: 8 x HDR 200 Gb/s, one per GPU = 25 GB/s each (NVIDIA DGX A100 User Guide).
    const Fabric hdr = find_fabric("ib-hdr");
    CHECK(hdr.per_gpu(8).value() == doctest::Approx(25e9));
    CHECK(hdr.link(8).effective() == doctest::Approx(25e9 * 0.85));
    CHECK(find_fabric("ib-ndr").per_gpu(8).value() == doctest::Approx(50e9));
    // One 10 GbE port per node is shared: 1.25 GB/s over 8 GPUs, 156 MB/s each; 1.25 GB/s for one.
    const Fabric eth = find_fabric("eth-10");
    CHECK(eth.per_gpu(8).value() == doctest::Approx(1.25e9 / 8));
    CHECK(eth.per_gpu(1).value() == doctest::Approx(1.25e9));
    CHECK(eth.link(8).kind == LinkKind::ethernet);
    CHECK(find_fabric("none").none());
    CHECK(field_of([] { (void)find_fabric("none").link(8); }) == "fabric");
    CHECK(field_of([] { (void)find_fabric("ib-qdr"); }) == "fabric");
    CHECK(field_of([] { (void)find_fabric("x", "--fabric"); }) == "--fabric");
    CHECK(field_of([] { (void)find_fabric("ib-hdr").per_gpu(0); }) == "gpus_per_node");
    Fabric bad = hdr;
    bad.efficiency = 1.5;
    CHECK(field_of([&] { bad.validate(); }) == "fabric.efficiency");
    // The usual host: DGX A100 (HDR), DGX H100 (NDR), DGX-1 (4 x EDR for 8 GPUs), a PCIe server
    // (one 100 GbE port), a desktop (none).
    CHECK(usual_fabric(gpu("A100 SXM 80GB")).id == "ib-hdr");
    CHECK(usual_fabric(gpu("H100 SXM")).id == "ib-ndr");
    CHECK(usual_fabric(gpu("gb200")).id == "ib-ndr");
    // Blackwell Ultra hosts carry ConnectX-8: 800 Gb/s per GPU (HGX B300, GB300 NVL72).
    CHECK(usual_fabric(gpu("b300")).id == "ib-xdr");
    CHECK(usual_fabric(gpu("gb300")).per_gpu(72).value() == doctest::Approx(100e9));
    CHECK(usual_fabric(gpu("MI300X")).id == "ib-ndr");
    const Fabric dgx1 = usual_fabric(gpu("v100-sxm2-32gb"));
    CHECK(dgx1.id == "ib-edr");
    CHECK(dgx1.per_gpu(8).value() == doctest::Approx(12.5e9 * 4 / 8));
    CHECK(usual_fabric(gpu("L40S")).id == "eth-100");
    CHECK(usual_fabric(gpu("RTX 4090")).none());
    // A catalog system's own adapters: DGX A100 lists 8 x ConnectX-6 HDR, the 4-GPU A100 server 4.
    const Catalog& cat = Catalog::builtin();
    const Fabric dgx = nic_fabric(cat.find_network_adapter("connectx-6-hdr-200g"), 8, 8);
    CHECK(dgx.per_gpu(8).value() == doctest::Approx(25e9));
    const Fabric four = nic_fabric(cat.find_network_adapter("connectx-6-hdr-200g"), 4, 4);
    CHECK(four.per_gpu(4).value() == doctest::Approx(25e9));
    const Fabric half = nic_fabric(cat.find_network_adapter("connectx-6-hdr-200g"), 4, 8);
    CHECK(half.per_gpu(8).value() == doctest::Approx(12.5e9));
    CHECK(field_of([&] { (void)nic_fabric(cat.find_network_adapter("connectx-6-hdr-200g"), 0, 8); }) == "nics");
  }

  TEST_CASE("a cloud offer's network between instances: its published one, each GPU its share; none for an unrecorded slice") {
    const Catalog& cat = Catalog::builtin();
    const auto fabric_of = [&](const char* offer) {
      const CloudOffer& o = cat.find_offer(offer);
      return offer_fabric(o, cat.find_gpu(o.gpu_id));
    };
    // AWS p4d.24xlarge: 4 x 100 Gb/s EFA for 8 A100s: 50 Gb/s each, where the usual A100 node gives 200.
    const auto p4d = fabric_of("aws-p4d.24xlarge");
    REQUIRE(p4d);
    CHECK(p4d->per_gpu(8).value() == doctest::Approx(50e9 / 8));
    CHECK(p4d->efficiency == doctest::Approx(0.85));
    CHECK(p4d->name.find("400 Gb/s EFA") != std::string::npos);
    // GCP a2-highgpu-8g: 100 Gb/s over TCP for 8 GPUs.
    const auto a2 = fabric_of("gcp-a2-highgpu-8g");
    REQUIRE(a2);
    CHECK(a2->per_gpu(8).value() == doctest::Approx(12.5e9 / 8));
    CHECK(a2->efficiency == doctest::Approx(0.70));
    CHECK(a2->link(8).latency.value() == doctest::Approx(30e-6));
    // Azure ND A100 v4: HDR InfiniBand, one 200 Gb/s rail a GPU, as the usual A100 node.
    const auto nd = fabric_of("azure-nd96asr-v4");
    REQUIRE(nd);
    CHECK(nd->kind == LinkKind::infiniband);
    CHECK(nd->per_gpu(8).value() == doctest::Approx(200e9 / 8));
    // AWS g5.xlarge: the 2.5 Gb/s baseline of its "up to 10".
    const auto g5 = fabric_of("aws-g5.xlarge");
    REQUIRE(g5);
    CHECK(g5->per_gpu(1).value() == doctest::Approx(2.5e9 / 8));
    // A 1-GPU slice of an A100 server that records no network: none, plans stay in one instance.
    const auto a2_1g = fabric_of("gcp-a2-highgpu-1g");
    REQUIRE(a2_1g);
    CHECK(a2_1g->none());
    // An 8-GPU instance with none recorded: the usual fabric (no override); a TPU slice: its provider's.
    CHECK_FALSE(fabric_of("lambda-gpu-8x-h100-sxm5"));
    CHECK_FALSE(fabric_of("gcp-tpu-v5e"));
    // Consumer cards have no network anyway: nothing to override, where nothing is recorded.
    CHECK_FALSE(fabric_of("cn-rental-rtx-4090-low"));
    // RunPod's pods reach each other over a 100 Mb/s overlay (its Global Networking), vast.ai's
    // instances over one assumed: no network for collectives.
    const auto pod_net = fabric_of("runpod-h100-sxm");
    REQUIRE(pod_net);
    CHECK(pod_net->none());
    CHECK(pod_net->name == "runpod-h100-sxm instances reach each other over a 0.1 Gb/s overlay only");
    REQUIRE(fabric_of("vast-rtx-4090"));
    CHECK(fabric_of("vast-rtx-4090")->none());
    CHECK(cat.find_offer("vast-b200").network_kind == InstanceNetwork::overlay);
    // A marketplace offer's network is per instance of its max_gpus: each GPU its share.
    CloudOffer pod = cat.find_offer("runpod-h100-sxm");
    pod.network = Bandwidth::from_value(3200e9 / 8);
    pod.network_kind = InstanceNetwork::roce;
    REQUIRE(offer_fabric(pod, gpu("H100 SXM")));
    CHECK(offer_fabric(pod, gpu("H100 SXM"))->per_gpu(8).value() == doctest::Approx(400e9 / 8));
    // A bad network names the field.
    CloudOffer bad = cat.find_offer("aws-g5.xlarge");
    bad.network = Bandwidth::from_value(-1);
    CHECK(field_of([&] { bad.validate(); }) == "network");
    bad.network = Bandwidth::from_value(1e15);
    CHECK(field_of([&] { bad.validate(); }) == "network");
  }

  TEST_CASE("placement: links each collective crosses; straddling groups go over the fabric") {
    const GpuSpec& a100 = gpu("A100 SXM 80GB");
    const Cluster c = make_cluster(a100, 384, 8, find_fabric("ib-hdr").link(8));
    ParallelPlan p;
    p.tp = 8;
    p.pp = 12;
    p.dp = 4;
    PlanLinks l = plan_links(c, p);
    CHECK(l.tp == "NVLink");
    CHECK(l.pp == "InfiniBand");
    CHECK(l.dp == "InfiniBand");
    CHECK(l.ep.empty());
    // TP 3 on 8-GPU nodes straddles (ranks 6, 7 | 8): its ring crosses the NIC.
    p.tp = 3;
    p.pp = 4;
    p.dp = 32;
    CHECK(plan_links(c, p).tp == "InfiniBand");
    // DP of 6 consecutive GPUs on 8-GPU nodes (TP 1, 4 stages on 24 GPUs): some group straddles two
    // nodes, 2 of its members on one side, so the slowest group goes over the fabric too.
    const Cluster c24 = make_cluster(a100, 24, 8, find_fabric("ib-hdr").link(8));
    ParallelPlan q;
    q.pp = 4;
    q.dp = 6;
    const Group g = data_parallel_group(q, 8);
    CHECK(g.size == 6);
    CHECK(g.per_node == 2);
    CHECK(plan_links(c24, q).dp == "NVLink + InfiniBand");
    CHECK(stage_boundary_crosses_nodes(q, c24));
    // In one node nothing crosses; a group of one crosses nothing.
    const Cluster one = make_cluster(a100, 8, 8, Link{});
    ParallelPlan r;
    r.tp = 2;
    r.pp = 2;
    r.dp = 2;
    const PlanLinks lo = plan_links(one, r);
    CHECK(lo.tp == "NVLink");
    CHECK(lo.pp == "NVLink");
    CHECK(lo.dp == "NVLink");
    CHECK_FALSE(stage_boundary_crosses_nodes(r, one));
    CHECK(group_links(one, Group{1, 1}).empty());
    // NVLink bridges join pairs: 4 x RTX 3090 (two bridged pairs) run a 4-GPU ring over PCIe.
    const Cluster r3090 = make_cluster(gpu("RTX 3090"), 4, 4, Link{});
    CHECK(group_links(r3090, Group{2, 2}) == "NVLink");
    CHECK(group_links(r3090, Group{4, 4}) == "PCIe peer-to-peer");
    // The timing agrees: the straddling DP group is slower than one that fits a node.
    const double in_node = all_reduce_seconds(c24, 1e9, Group{6, 6});
    CHECK(all_reduce_seconds(c24, 1e9, g) > in_node);
  }

  TEST_CASE("training run: the usual fabric, a fabric named, no network refuses several nodes") {
    const TransformerShape llama = find_model("llama2-7b").transformer();
    TrainingSetup s;
    const auto [job, c] = training_job(llama, gpu("A100 SXM 80GB"), 16, s);
    CHECK(c.inter.bandwidth.value() == doctest::Approx(25e9));  // HDR per GPU
    s.fabric = find_fabric("ib-ndr");
    const auto [job2, c2] = training_job(llama, gpu("A100 SXM 80GB"), 16, s);
    CHECK(c2.inter.bandwidth.value() == doctest::Approx(50e9));
    // A slower fabric makes the same searched run slower.
    TrainingSetup slow;
    slow.fabric = find_fabric("eth-10");
    const auto fast_run = best_training_run(llama, gpu("A100 SXM 80GB"), 16, TrainingSetup{});
    const auto slow_run = best_training_run(llama, gpu("A100 SXM 80GB"), 16, slow);
    REQUIRE(fast_run.run);
    REQUIRE(slow_run.run);
    CHECK(slow_run.run->estimate.iteration.value() > fast_run.run->estimate.iteration.value());
    CHECK(slow_run.run->fabric.id == "eth-10");
    // Consumer cards: one desktop holds up to 8; 16 need a network.
    CHECK(field_of([&] { (void)training_job(llama, gpu("RTX 4090"), 16, TrainingSetup{}); }) == "fabric");
    CHECK_NOTHROW((void)training_job(llama, gpu("RTX 4090"), 8, TrainingSetup{}));
  }

  TEST_CASE("an NVL72 rack's GPU is one 72-GPU NVLink domain; other GPUs' hosts hold 8 (configurations item 4)") {
    const TransformerShape llama = find_model("llama3-70b").transformer();
    const GpuSpec& gb200 = gpu("GB200");
    CHECK(gb200.nvlink_domain == 72);
    CHECK(usual_gpus_per_node(gb200) == 72);
    CHECK(usual_gpus_per_node(gpu("H100 SXM")) == 8);
    // 72 GPUs are one node: every group's collectives stay on NVLink, and the search may use TP 16 or EP 72.
    const auto [job, c] = training_job(llama, gb200, 72, TrainingSetup{});
    CHECK(c.gpus_per_node == 72);
    const auto [job2, c2] = training_job(llama, gb200, 144, TrainingSetup{});
    CHECK(c2.gpus_per_node == 72);
    CHECK(c2.nodes() == 2);
    // A node size given wins.
    TrainingSetup eight;
    eight.gpus_per_node = 8;
    CHECK(training_job(llama, gb200, 72, eight).second.gpus_per_node == 8);
    // The same data-parallel all-reduce of 1 GB over 72 GPUs is faster inside the rack than over 9 HGX-like nodes.
    const Cluster hgx = training_job(llama, gb200, 72, eight).second;
    CHECK(all_reduce_seconds(c, 1e9, Group{72, 72}) < all_reduce_seconds(hgx, 1e9, Group{72, 8}));
    TrainingSetup bad;
    bad.gpus_per_node = -1;
    CHECK(field_of([&] { (void)training_job(llama, gb200, 72, bad); }) == "gpus_per_node");
    // The catalog refuses a domain without NVLink.
    GpuSpec odd = gpu("RTX 4090");
    odd.nvlink_domain = 8;
    CHECK(field_of([&] { odd.validate(); }) == "nvlink_domain");
  }

  TEST_CASE("a TPU pod is one ICI domain and a Trainium instance one NeuronLink domain; beyond them the provider's network") {
    const TransformerShape llama = find_model("llama3-70b").transformer();
    const GpuSpec& v6e = gpu("tpu-v6e");
    CHECK(scale_up_domain(v6e) == 256);
    CHECK(usual_gpus_per_node(v6e) == 256);
    const Link ici = intra_node_link(v6e);
    CHECK(ici.kind == LinkKind::ici);
    CHECK(name(ici.kind) == "ICI");
    CHECK(ici.bandwidth.value() == doctest::Approx(400e9));
    // Two v6e-256 slices: two nodes, the data-centre network between them (4 x 200 Gb/s per 8-chip host).
    const auto [job, two] = training_job(llama, v6e, 512, TrainingSetup{});
    CHECK(two.gpus_per_node == 256);
    CHECK(two.nodes() == 2);
    CHECK(two.inter.bandwidth.value() == doctest::Approx(100e9 / 8));
    CHECK(usual_fabric(v6e).id == "gcp-dcn");
    CHECK(usual_fabric(gpu("tpu-v5e")).per_gpu(256).value() == doctest::Approx(25e9 / 8));
    CHECK_FALSE(two.nvls);
    // A gradient all-reduce of 1 GB over one pod stays on ICI, so it is faster than over 32 hosts' DCN.
    CHECK(all_reduce_seconds(two, 1e9, Group{256, 256}) < all_reduce_seconds(two, 1e9, Group{256, 1}));
    CHECK(group_links(two, Group{256, 256}) == "ICI");
    // Trainium2: 16 chips to an instance over NeuronLink, EFA (3,200 Gb/s per 16 chips) between instances.
    const GpuSpec& trn2 = gpu("trainium2");
    CHECK(usual_gpus_per_node(trn2) == 16);
    CHECK(intra_node_link(trn2).kind == LinkKind::neuronlink);
    CHECK(usual_fabric(trn2).per_gpu(16).value() == doctest::Approx(200e9 / 8));
    // No measured GEMM sweep: timed as a GPU of the same BF16 peak made of A100-sized SMs.
    CHECK(gemm_calibration(v6e).sm_count == static_cast<int>(std::lround(918e12 / (312e12 / 108))));
    CHECK_FALSE(gemm_calibration(v6e).measured);
  }

  TEST_CASE("a Gaudi 3 box joins its 8 chips over 21 integrated RoCE ports each; 3 more scale out") {
    // Intel Gaudi docs, Network Configuration: 21 x 200 Gb/s = 525 GB/s a chip inside the box, all-to-all;
    // 3 x 200 Gb/s = 75 GB/s a chip between boxes. Before, the box was timed as 8 cards under PCIe switches.
    const GpuSpec& g3 = gpu("gaudi3");
    CHECK(usual_gpus_per_node(g3) == 8);
    const Link up = intra_node_link(g3);
    CHECK(up.kind == LinkKind::chip_link);
    CHECK(up.bandwidth.value() == doctest::Approx(525e9));
    CHECK_FALSE(pcie_only(g3));
    const Fabric out = usual_fabric(g3);
    CHECK(out.kind == LinkKind::ethernet);
    CHECK(out.per_gpu(8).value() == doctest::Approx(75e9));
    const auto [job, two] = training_job(find_model("llama3-70b").transformer(), g3, 16, TrainingSetup{});
    CHECK(two.gpus_per_node == 8);
    CHECK(two.inter.bandwidth.value() == doctest::Approx(75e9));
    CHECK(two.intra.bandwidth.value() == doctest::Approx(525e9));
  }

  TEST_CASE("context parallelism: work and activations / cp, the K/V ring, gradients over dp x cp, rules") {
    const GpuSpec& h100 = gpu("H100 SXM");
    TrainingJob job;
    job.model = find_model("llama3.1-8b").transformer();
    job.seq_len = 131072;
    job.global_batch = 16;
    Framework fw;  // FlashAttention on
    const DeviceRates rates = device_rates(h100, job.precision);
    // One GPU's share of a layer: every op (projections, MLP, attention) does 1/cp of the sequence's work.
    const auto c1 = layer_costs(job, 1, 1, false, fw, rates, 1, 1);
    const auto c4 = layer_costs(job, 1, 1, false, fw, rates, 1, 4);
    CHECK(4 * c4.layer.flops_fwd == doctest::Approx(c1.layer.flops_fwd).epsilon(1e-9));
    CHECK(4 * c4.layer.flops_bwd == doctest::Approx(c1.layer.flops_bwd).epsilon(1e-9));
    CHECK(c4.layer.attn_fwd > 0);
    CHECK(c4.layer.attn_fwd < c4.layer.fwd);
    // 8 GPUs: DP 8 would hold 131k-token activations each; CP 4 x DP 2 holds a quarter of a sequence.
    const Cluster node = make_cluster(h100, 8, 8, Link{});
    ParallelPlan cp;
    cp.cp = 4;
    cp.dp = 2;
    cp.recompute = Recompute::full;
    CHECK(cp.gpus() == 8);
    ParallelPlan dp = cp;
    dp.cp = 1;
    dp.dp = 8;
    const TrainingEstimate e_cp = estimate_training(job, cp, node, fw);
    const TrainingEstimate e_dp = estimate_training(job, dp, node, fw);
    CHECK(e_cp.model_flops.value() == doctest::Approx(e_dp.model_flops.value()));  // the same tokens
    CHECK(e_cp.iteration.value() > 0);
    bool ring = false;
    for (const auto& t : e_cp.breakdown.terms) ring = ring || t.name == "context-parallel K/V ring (exposed)";
    CHECK(ring);
    const MemoryBudget m_cp = plan_memory(job, cp, true), m_dp = plan_memory(job, dp, true);
    CHECK(m_cp.activations.size.value() < m_dp.activations.size.value() / 3.5);
    // Model states shard over dp x cp = 8 with ZeRO 1, as over dp = 8.
    cp.zero_stage = dp.zero_stage = ZeroStage::optimizer;
    CHECK(plan_memory(job, cp, true).optimizer_states.size.value() == doctest::Approx(plan_memory(job, dp, true).optimizer_states.size.value()));
    // Across nodes the ring goes over the fabric and costs more than inside NVLink.
    const Cluster two = make_cluster(h100, 16, 8, find_fabric("eth-10").link(8));
    ParallelPlan wide;
    wide.tp = 8;
    wide.cp = 2;
    wide.recompute = Recompute::full;
    CHECK(plan_links(two, wide).cp == "Ethernet");
    CHECK(plan_links(node, cp).cp == "NVLink");
    // Rules: FlashAttention, 2 x cp chunks, GPUs = tp x cp x pp x dp.
    Framework plain = fw;
    plain.flash_attention = false;
    CHECK(field_of([&] { (void)estimate_training(job, cp, node, plain); }) == "cp");
    TrainingJob odd = job;
    odd.seq_len = 131070;
    CHECK(field_of([&] { (void)estimate_training(odd, cp, node, fw); }) == "cp");
    ParallelPlan three = cp;
    three.cp = 3;
    CHECK(field_of([&] { (void)estimate_training(job, three, node, fw); }) == "dp");
    CHECK(field_of([&] { (void)plan_memory(job, cp, false); }) == "cp");
  }

  TEST_CASE("context parallelism with expert parallelism: experts fold into the dp x cp ranks (configurations item 2)") {
    // Megatron-Core folds EP into the data- and context-parallel ranks: expert-data-parallel = dp x cp / ep.
    TrainingJob job;
    job.model = find_model("mixtral-8x7b").transformer();
    job.seq_len = 32768;
    job.global_batch = 16;
    const Cluster c = make_cluster(gpu("H100 SXM"), 16, 8, infiniband(50_GBps));
    ParallelPlan p;
    p.tp = 2;
    p.cp = 4;
    p.dp = 2;
    p.ep = 8;  // divides dp x cp = 8, not dp = 2
    p.zero_stage = ZeroStage::optimizer;
    p.recompute = Recompute::full;
    CHECK(expert_data_parallel(p) == 1);
    const TrainingEstimate e = estimate_training(job, p, c, megatron_core());
    CHECK(e.iteration.value() > 0);
    bool a2a = false, ring = false;
    for (const auto& t : e.breakdown.terms) {
      a2a = a2a || t.name == "expert-parallel all-to-alls";
      ring = ring || t.name == "context-parallel K/V ring (exposed)";
    }
    CHECK(a2a);
    CHECK(ring);
    // Memory: each GPU holds 1/ep of the experts, and their optimizer states shard over dp x cp / ep = 1
    // rank, while the dense states shard over dp x cp = 8.
    const MemoryBudget m = plan_memory(job, p, megatron_core());
    ParallelPlan no_ep = p;
    no_ep.ep = 1;
    const MemoryBudget m1 = plan_memory(job, no_ep, megatron_core());
    CHECK(m.weights.size.value() < m1.weights.size.value() / 4);
    // The same plan with ep 4: expert-data-parallel 2.
    ParallelPlan ep4 = p;
    ep4.ep = 4;
    CHECK(expert_data_parallel(ep4) == 2);
    CHECK(estimate_training(job, ep4, c, megatron_core()).iteration.value() > 0);
    // EP must divide dp x cp: 16 does not divide 8.
    ParallelPlan bad = p;
    bad.ep = 16;
    job.model.moe->experts = 16;
    try {
      (void)estimate_training(job, bad, c, megatron_core());
      FAIL("ep 16 over dp x cp = 8 was accepted");
    } catch (const InputError& err) {
      CHECK(err.field() == "ep");
      CHECK(std::string(err.what()).find("does not divide dp x cp = 8") != std::string::npos);
    }
    CHECK(field_of([&] { (void)plan_memory(job, bad, megatron_core()); }) == "expert_parallel");
    // The search now offers CP to MoE models at long sequences, with experts folded in.
    job.model.moe->experts = 8;
    SearchSpace space;
    space.zero_stages = {ZeroStage::optimizer};
    space.recompute = {Recompute::full};
    space.micro_batches = {1};
    space.interleave = {1};
    const SearchResult r = search_plans(job, c, megatron_core(), {}, 400, space);
    bool cp_ep = false;
    for (const auto& t : r.top) {
      cp_ep = cp_ep || (t.plan.cp > 1 && t.plan.ep > 1 && t.plan.ep > t.plan.dp);
      CHECK_NOTHROW((void)estimate_training(job, t.plan, c, megatron_core()));
    }
    CHECK(cp_ep);
  }

  TEST_CASE("two-hop expert dispatch (DeepEP): one network copy per node a token goes to (configurations item 3)") {
    // The distinct nodes of a token's k experts: Mixtral-like (8 experts, top-2) over 2 nodes of 4 experts:
    // 2 x (1 - 4/8 x 3/7).
    const MoeShape mixtral{8, 2, 0, 14336, 0, 0, 0};
    CHECK(expected_token_nodes(mixtral, 1) == 1);
    CHECK(expected_token_nodes(mixtral, 2) == doctest::Approx(2 * (1 - 4.0 / 8 * 3.0 / 7)));
    // DeepSeek-V3: 256 experts, top-8 from at most 4 of 8 groups. On 8 nodes a group is a node, so at most
    // 4 nodes: 4 x (1 - P(none of 8 draws from 128 candidates lands on a given node's 32)).
    const MoeShape ds = find_model("deepseek-r1").transformer().moe.value();
    CHECK(ds.expert_groups == 8);
    CHECK(ds.groups_per_token == 4);
    double none = 1;
    for (int i = 0; i < 8; ++i) none *= (96.0 - i) / (128.0 - i);
    CHECK(expected_token_nodes(ds, 8) == doctest::Approx(4 * (1 - none)));
    CHECK(expected_token_nodes(ds, 8) < 4);
    MoeShape free = ds;
    free.expert_groups = free.groups_per_token = 0;
    CHECK(expected_token_nodes(free, 8) > 5);  // unrestricted top-8 reaches about 5.3 of 8 nodes
    // Two nodes hold 4 groups each: the 4 chosen groups miss a node only if all lie on the other.
    CHECK(expected_token_nodes(ds, 2) == doctest::Approx(2 * (1 - (4.0 / 8 * 3.0 / 7 * 2.0 / 6 * 1.0 / 5))));

    // DeepSeek-V3's layout, PP 16 x EP 64 on 2,048 H100 (8 nodes per EP group): DeepEP sends each token
    // over InfiniBand once per other node (about 3.1) instead of once per remote expert (7 of 8).
    TrainingJob job;
    job.model = find_model("deepseek-r1").transformer();
    job.seq_len = 4096;
    job.global_batch = 15360;
    job.precision = Precision::fp8;
    const Cluster c = make_cluster(gpu("H100 SXM"), 2048, 8, find_fabric("ib-ndr").link(8));
    ParallelPlan p;
    p.pp = 16;
    p.dp = 128;
    p.ep = 64;
    p.recompute = Recompute::full;
    Framework a2a, deepep;
    deepep.moe_dispatch = MoeDispatch::deepep;
    const TrainingEstimate ea = estimate_training(job, p, c, a2a), ed = estimate_training(job, p, c, deepep);
    const double ta = term_seconds(ea, "expert-parallel all-to-alls"), td = term_seconds(ed, "expert-parallel all-to-alls");
    CHECK(td < 0.6 * ta);
    CHECK(td > 0.3 * ta);
    CHECK(ed.iteration.value() < ea.iteration.value());
    bool said = false;
    for (const auto& t : ed.breakdown.terms) said = said || t.arithmetic.find("two-hop (DeepEP)") != std::string::npos;
    CHECK(said);
    // Inside one node there is one hop: the same time either way.
    const Cluster node = make_cluster(gpu("H100 SXM"), 8, 8, Link{});
    TrainingJob mx;
    mx.model = find_model("mixtral-8x7b").transformer();
    mx.seq_len = 4096;
    mx.global_batch = 64;
    ParallelPlan one;
    one.dp = 8;
    one.ep = 8;
    one.zero_stage = ZeroStage::optimizer;
    CHECK(estimate_training(mx, one, node, deepep).iteration.value() == doctest::Approx(estimate_training(mx, one, node, a2a).iteration.value()));
    Framework bad;
    bad.moe_dispatch = static_cast<MoeDispatch>(7);
    CHECK(field_of([&] { (void)estimate_training(mx, one, node, bad); }) == "moe_dispatch");
  }

  TEST_CASE("MoE all-to-all overlap: Megatron-Core's combined 1F1B hides paired passes' all-to-alls under the other micro-batch's compute") {
    // Paired passes: without pipelining all but the first forward and the last backward; interleaved, all
    // but the first stage's warm-up passes, 2 (p - 1) + (v - 1) p + 1 of m v.
    ParallelPlan flat;
    CHECK(capplan::detail::moe_a2a_paired_share(flat, 4) == doctest::Approx(0.75));
    CHECK(capplan::detail::moe_a2a_paired_share(flat, 1) == 0);
    ParallelPlan inter;
    inter.pp = 4;
    inter.interleave = 2;
    CHECK(capplan::detail::moe_a2a_paired_share(inter, 8) == doctest::Approx(5.0 / 16));
    CHECK(capplan::detail::moe_a2a_paired_share(inter, 4) == 0);  // 8 passes, 11 alone

    // Mixtral 8x7B, EP 8 inside one H100 node: NVLink all-to-alls are short against a layer's compute, so
    // every paired one hides: 3 of 4 micro-batches' worth, less the 18.9 % they slow the compute.
    TrainingJob job;
    job.model = find_model("mixtral-8x7b").transformer();
    job.seq_len = 4096;
    job.global_batch = 32;
    const Cluster node = make_cluster(gpu("H100 SXM"), 8, 8, Link{});
    ParallelPlan p;
    p.dp = 8;
    p.ep = 8;
    p.zero_stage = ZeroStage::optimizer;
    Framework off = megatron_core(), on = megatron_core();
    on.moe_a2a_overlap = true;
    const TrainingEstimate e0 = estimate_training(job, p, node, off), e1 = estimate_training(job, p, node, on);
    const double a0 = term_seconds(e0, "expert-parallel all-to-alls"), a1 = term_seconds(e1, "expert-parallel all-to-alls");
    REQUIRE(a0 > 0);
    const double slowdown = EfficiencyModel{}.overlap_slowdown;
    CHECK(a1 == doctest::Approx(a0 - 0.75 * a0 * (1 - slowdown)));
    CHECK(e0.iteration.value() - e1.iteration.value() == doctest::Approx(a0 - a1).epsilon(1e-6));
    bool said = false;
    for (const auto& t : e1.breakdown.terms) said = said || t.arithmetic.find("hidden under another micro-batch's compute") != std::string::npos;
    CHECK(said);

    // Across two 4-GPU nodes on a slow link the all-to-alls outgrow what the other pass computes: only
    // that much hides, less than the paired share of them.
    const Cluster slow = make_cluster(gpu("H100 SXM"), 8, 4, infiniband(1_GBps));
    const TrainingEstimate w0 = estimate_training(job, p, slow, off), w1 = estimate_training(job, p, slow, on);
    const double wa0 = term_seconds(w0, "expert-parallel all-to-alls"), wa1 = term_seconds(w1, "expert-parallel all-to-alls");
    CHECK(wa1 < wa0);
    CHECK(wa1 > wa0 - 0.75 * wa0 * (1 - slowdown) + 1e-6);
    CHECK(w0.iteration.value() - w1.iteration.value() == doctest::Approx(wa0 - wa1).epsilon(1e-6));

    // Where the schedule does not run: plain 1F1B, full recomputation, no expert parallelism. The
    // estimate is the one without the overlap, and --explain says why.
    ParallelPlan piped = p;
    piped.pp = 2;
    piped.dp = 4;
    piped.ep = 4;
    ParallelPlan full = p;
    full.recompute = Recompute::full;
    ParallelPlan dense = p;
    dense.ep = 1;
    for (const ParallelPlan& q : {piped, full, dense}) {
      CHECK_FALSE(capplan::moe_a2a_overlap_runs(q));
      CHECK(estimate_training(job, q, node, on).iteration.value() == estimate_training(job, q, node, off).iteration.value());
    }
    const TrainingEstimate ep = estimate_training(job, piped, node, on);
    bool why = false;
    for (const auto& t : ep.breakdown.terms) why = why || t.arithmetic.find("not overlapped: Megatron-Core's combined 1F1B schedule runs without pipelining or with an interleaved pipeline") != std::string::npos;
    CHECK(why);
    // An interleaved pipeline runs it.
    ParallelPlan inter2 = piped;
    inter2.interleave = 2;
    job.global_batch = 64;  // 16 micro-batches of the 4 replicas: 32 chunk passes, 2 + 2 + 1 of them alone
    CHECK(capplan::moe_a2a_overlap_runs(inter2));
    CHECK(estimate_training(job, inter2, node, on).iteration.value() < estimate_training(job, inter2, node, off).iteration.value());
    // Memory: the combined schedule's one more warm-up forward holds one more model chunk on every rank
    // of an interleaved pipeline: the first stage 2 (p - 1) + (v - 1) p + 2 = 5 chunks of L/v layers, not 4.
    TrainingConfig mc;
    mc.plan = inter2;
    mc.microbatches = 16;
    apply_framework(mc, off);
    const double held_off = training_stage_budget(job.model, mc, 0).activations.size.value();
    apply_framework(mc, on);
    CHECK(mc.moe_a2a_overlap);
    const double held_on = training_stage_budget(job.model, mc, 0).activations.size.value();
    CHECK(held_on > held_off);
    // Without pipelining (or where the schedule does not run) it holds the same.
    mc.plan = p;
    mc.microbatches = 4;
    const double flat_on = training_stage_budget(job.model, mc, 0).activations.size.value();
    apply_framework(mc, off);
    CHECK(training_stage_budget(job.model, mc, 0).activations.size.value() == flat_on);
  }

  TEST_CASE("expert tensor parallelism separate from TP (configurations item 3)") {
    TrainingJob job;
    job.model = find_model("mixtral-8x7b").transformer();
    job.seq_len = 4096;
    job.global_batch = 64;
    const Cluster c = make_cluster(gpu("H100 SXM"), 16, 8, infiniband(50_GBps));
    ParallelPlan coupled;
    coupled.tp = 2;
    coupled.dp = 8;
    coupled.ep = 8;
    coupled.sequence_parallel = true;
    coupled.zero_stage = ZeroStage::optimizer;
    ParallelPlan whole = coupled;  // ETP 1: whole experts, EP 8 over TP 2 x DP 8 = 16 GPUs, expert-data-parallel 2
    whole.etp = 1;
    CHECK(expert_tensor_parallel(coupled) == 2);
    CHECK(expert_tensor_parallel(whole) == 1);
    CHECK(expert_data_parallel(coupled) == 1);
    CHECK(expert_data_parallel(whole) == 2);
    CHECK(plan_text(whole).find("EP 8, ETP 1") != std::string::npos);
    // The same expert work per GPU: etp / tp times the rows at tp / etp times the width.
    const DeviceRates rates = device_rates(gpu("H100 SXM"), job.precision);
    const auto c2 = layer_costs(job, 2, 1, true, Framework{}, rates, 8, 1, 0), c1 = layer_costs(job, 2, 1, true, Framework{}, rates, 8, 1, 1);
    CHECK(c1.layer.flops_fwd == doctest::Approx(c2.layer.flops_fwd).epsilon(1e-6));
    // ETP 2 all-gathers what its two ranks received and reduce-scatters the result; ETP 1 needs neither.
    const TrainingEstimate e2 = estimate_training(job, coupled, c, Framework{}), e1 = estimate_training(job, whole, c, Framework{});
    CHECK(term_seconds(e2, "expert tensor-parallel gathers") > 0);
    CHECK(term_seconds(e1, "expert tensor-parallel gathers") == -1.0);
    CHECK(term_seconds(e1, "tensor-parallel all-reduces") == doctest::Approx(term_seconds(e2, "tensor-parallel all-reduces")));
    // Memory: whole experts hold twice the expert parameters of a half-width split.
    const MemoryBudget m2 = plan_memory(job, coupled, Framework{}), m1 = plan_memory(job, whole, Framework{});
    CHECK(m1.weights.size.value() > m2.weights.size.value() * 1.5);
    // Rules: a MoE model, a divisor of the NVLink domain, etp x ep dividing tp x cp x dp.
    ParallelPlan three = whole;
    three.etp = 3;
    CHECK(field_of([&] { (void)estimate_training(job, three, c, Framework{}); }) == "etp");
    ParallelPlan wide = whole;
    wide.dp = 2;
    const Cluster four = make_cluster(gpu("H100 SXM"), 4, 8, Link{});
    try {
      (void)estimate_training(job, wide, four, Framework{});
      FAIL("etp 1 x ep 8 over 4 GPUs was accepted");
    } catch (const InputError& err) {
      CHECK(err.field() == "ep");
      CHECK(std::string(err.what()).find("x etp 1 does not divide tp x cp x dp = 4") != std::string::npos);
    }
    CHECK(field_of([&] { (void)plan_memory(job, wide, Framework{}); }) == "expert_parallel");
    TrainingJob dense;
    dense.model = find_model("llama2-7b").transformer();
    dense.global_batch = 16;
    ParallelPlan d;
    d.tp = 2;
    d.dp = 8;
    d.etp = 1;
    CHECK(field_of([&] { (void)estimate_training(dense, d, c, Framework{}); }) == "etp");
    // The search tries whole experts beside the coupled layout.
    SearchSpace space;
    space.zero_stages = {ZeroStage::optimizer};
    space.recompute = {Recompute::selective};
    space.micro_batches = {1};
    space.interleave = {1};
    const SearchResult both = search_plans(job, c, {}, {}, 200, space);
    space.expert_tensor_parallel = {0};
    const SearchResult only = search_plans(job, c, {}, {}, 200, space);
    CHECK(both.candidates > only.candidates);
    bool etp1 = false;
    for (const auto& t : both.top) {
      etp1 = etp1 || (t.plan.etp == 1 && t.plan.tp > 1);
      CHECK(expert_data_parallel(t.plan) > 0);
    }
    CHECK(etp1);
    // One degree alone keeps the plans whose experts split over it at every tp: a degree equal to a
    // plan's tp is its 0 (as tp), the same plan counted once.
    for (const int degree : {1, 2, 4}) {
      CAPTURE(degree);
      space.expert_tensor_parallel = {degree};
      const SearchResult narrowed = search_plans(job, c, {}, {}, 200, space);
      REQUIRE_FALSE(narrowed.top.empty());
      bool other_tp = false;
      for (const auto& t : narrowed.top) {
        CHECK(expert_tensor_parallel(t.plan) == degree);
        CHECK((t.plan.etp == 0) == (t.plan.tp == degree));
        other_tp = other_tp || t.plan.tp != degree;
      }
      CHECK(other_tp);
    }
  }

  TEST_CASE("context parallelism: Megatron's hierarchical a2a+p2p (configurations item 2)") {
    // Llama 3.1 8B at 131,072 tokens, CP 16 over two 8-GPU nodes: Ulysses among the 8 CP ranks of a
    // node, a 2-step ring across the nodes.
    TrainingJob job;
    job.model = find_model("llama3.1-8b").transformer();
    job.seq_len = 131072;
    job.global_batch = 16;
    const Cluster c = make_cluster(gpu("H100 SXM"), 16, 8, find_fabric("ib-ndr").link(8));
    ParallelPlan p;
    p.cp = 16;
    p.recompute = Recompute::full;
    p.cp_comm = CpComm::a2a_p2p;
    CHECK(cp_a2a_size(p, 8) == 8);
    const TrainingEstimate h = estimate_training(job, p, c, Framework{});
    const double t_h = term_seconds(h, "context-parallel a2a+p2p (exposed)");
    CHECK(t_h > 0);
    bool said = false;
    for (const auto& t : h.breakdown.terms) said = said || t.arithmetic.find("among the 8 CP ranks of a node, then 1 ring steps") != std::string::npos;
    CHECK(said);
    // Against Ulysses over all 16 ranks, whose all-to-alls cross the network: the hierarchy is faster.
    ParallelPlan flat = p;
    flat.cp_comm = CpComm::a2a;
    CHECK(h.iteration.value() < estimate_training(job, flat, c, Framework{}).iteration.value());
    // Memory is the same for every exchange.
    CHECK(plan_memory(job, p, true).total().value() == doctest::Approx(plan_memory(job, flat, true).total().value()));
    // The heads rule applies to the node's group: 40 heads do not split over 16 ranks of a 16-GPU node.
    TrainingJob thirteen = job;
    thirteen.model = find_model("llama2-13b").transformer();
    const Cluster wide = make_cluster(gpu("H100 SXM"), 32, 16, find_fabric("ib-ndr").link(16));
    ParallelPlan q = p;
    q.cp = 32;
    CHECK(field_of([&] { (void)estimate_training(thirteen, q, wide, Framework{}); }) == "cp");
    // The search offers it where the CP group spans nodes.
    SearchSpace space;
    space.cp_comms = {CpComm::a2a_p2p};
    space.recompute = {Recompute::full};
    space.micro_batches = {1};
    space.interleave = {1};
    const SearchResult r = search_plans(job, c, {}, {}, 50, space);
    bool found = false;
    for (const auto& t : r.top) {
      if (t.plan.cp_comm != CpComm::a2a_p2p) continue;
      found = true;
      const int a = cp_a2a_size(t.plan, 8);
      CHECK(a > 1);
      CHECK(a < t.plan.cp);
    }
    CHECK(found);
  }

  TEST_CASE("context parallelism: the all-gather (Llama 3) and all-to-all (Ulysses) exchanges, their rules") {
    const GpuSpec& h100 = gpu("H100 SXM");
    TrainingJob job;
    job.model = find_model("llama3.1-8b").transformer();  // 32 heads, 8 K/V heads of 128
    job.seq_len = 131072;
    job.global_batch = 16;
    Framework fw;
    const Cluster node = make_cluster(h100, 8, 8, Link{});
    ParallelPlan ring;
    ring.cp = 4;
    ring.dp = 2;
    ring.recompute = Recompute::full;
    ParallelPlan gather = ring, ulysses = ring;
    gather.cp_comm = CpComm::all_gather;
    ulysses.cp_comm = CpComm::a2a;
    const TrainingEstimate e_ring = estimate_training(job, ring, node, fw);
    const TrainingEstimate e_gather = estimate_training(job, gather, node, fw);
    const TrainingEstimate e_ulysses = estimate_training(job, ulysses, node, fw);
    const Group g = context_parallel_group(ring, 8);
    CHECK(g.size == 4);
    CHECK(g.per_node == 4);
    const double m = 8, layers = 32;  // 16 sequences / dp 2, one per micro-batch; one stage
    // All-gather: this rank's 32,768 tokens x 8 K/V heads x 128 x 2 B, K and V, gathered from 4 ranks,
    // forward twice (full recompute) and once in the backward, plus the gradients' reduce-scatter.
    const double whole = 4 * 2.0 * 32768 * 8 * 128 * 2;
    const double ag = all_gather_seconds(node, whole, g);
    CHECK(term_seconds(e_gather, "context-parallel K/V all-gather") == doctest::Approx(m * layers * (3 * ag + reduce_scatter_seconds(node, whole, g))));
    // Ulysses: Q and output all-to-alls of 32,768 x 32 heads x 128 x 2 B; K and V of 8 heads (2 per rank
    // after the exchange, x 4 ranks); forward twice and backward once.
    const double q = 32768.0 * 32 * 128 * 2, kv = 32768.0 * 8 * 128 * 2;
    const double pass = 2 * all_to_all_seconds(node, q, g) + 2 * all_to_all_seconds(node, kv, g);
    CHECK(term_seconds(e_ulysses, "context-parallel all-to-alls (Ulysses)") == doctest::Approx(m * layers * 3 * pass));
    // Recomputing the attention core reruns its exchange too (it runs inside the checkpointed
    // attention): selective exchanges as often as full recomputation, none once less.
    for (ParallelPlan p : {gather, ulysses}) {
      const std::string term = p.cp_comm == CpComm::a2a ? "context-parallel all-to-alls (Ulysses)" : "context-parallel K/V all-gather";
      const double full = term_seconds(estimate_training(job, p, node, fw), term);
      p.recompute = Recompute::selective;
      const TrainingEstimate sel = estimate_training(job, p, node, fw);
      CHECK(term_seconds(sel, term) == doctest::Approx(full));
      CHECK(sel.explain().find("(twice, with the recomputed forward)") != std::string::npos);
      p.recompute = Recompute::none;
      const TrainingEstimate kept = estimate_training(job, p, node, fw);
      CHECK(term_seconds(kept, term) < full);
      CHECK(kept.explain().find("(twice, with the recomputed forward)") == std::string::npos);
      // A module list without the attention core (mlp) exchanges once, as none does.
      p.recompute = Recompute::selective;
      p.recompute_modules = recompute_module::mlp;
      CHECK(term_seconds(estimate_training(job, p, node, fw), term) == doctest::Approx(term_seconds(kept, term)));
    }
    // The ring hides its transfers behind the attention; the other two expose theirs.
    CHECK(e_ring.iteration.value() <= e_gather.iteration.value());
    CHECK(e_ring.iteration.value() <= e_ulysses.iteration.value());
    // The same work and the same memory, whichever exchange.
    CHECK(e_gather.model_flops.value() == doctest::Approx(e_ring.model_flops.value()));
    CHECK(plan_memory(job, ulysses, true).total().value() == doctest::Approx(plan_memory(job, ring, true).total().value()));
    // K/V heads fewer than cp are replicated: 8 heads / tp 8 = 1 per rank, sent to each of 2 ranks.
    CHECK(ulysses_kv_heads(8, 8, 2) == 1);
    CHECK(ulysses_kv_heads(8, 1, 4) == 2);
    // Rules. Ulysses splits the sequence in cp chunks, not 2 x cp.
    TrainingJob odd = job;
    odd.seq_len = 131068;  // divisible by 4, not by 8
    CHECK(field_of([&] { (void)estimate_training(odd, ring, node, fw); }) == "cp");
    CHECK_NOTHROW((void)estimate_training(odd, ulysses, node, fw));
    CHECK(cp_sequence_step(ring) == 8);
    CHECK(cp_sequence_step(ulysses) == 4);
    // Whole heads per rank: tp 8 leaves 4 query heads, which do not split over cp 8.
    ParallelPlan narrow = ulysses;
    narrow.tp = 8;
    narrow.cp = 8;
    narrow.dp = 1;
    const Cluster big = make_cluster(h100, 64, 8, infiniband(50_GBps));
    CHECK_THROWS_WITH_AS((void)estimate_training(job, narrow, big, fw),
                         "cp: 8 does not divide the 4 attention heads per tensor-parallel rank (32 heads / tp 8); all-to-all context "
                         "parallelism (a2a) hands each rank whole heads",
                         InputError);
    CHECK_THROWS_WITH_AS(validate_ulysses(48, 8, 1, 3),
                         "cp: 3 and the 8 K/V heads per tensor-parallel rank do not divide one another; all-to-all context parallelism "
                         "(a2a) needs one to divide the other",
                         InputError);
    CHECK_NOTHROW(validate_ulysses(32, 8, 1, 16));  // 2 query heads each; K/V replicated to 16
    // Sequence parallelism splits each rank's seq / cp tokens over tp (Megatron's rule).
    ParallelPlan sp = ring;
    sp.tp = 4;
    sp.cp = 2;
    sp.dp = 1;
    sp.sequence_parallel = true;
    CHECK_NOTHROW((void)estimate_training(job, sp, node, fw));
    TrainingJob uneven = job;
    uneven.seq_len = 131068;  // 65,534 tokens per CP rank: 4 chunks, but not 4 x tp
    CHECK_THROWS_WITH_AS((void)estimate_training(uneven, sp, node, fw),
                         "sequence_parallel: true needs tp = 4 to divide the 65534 tokens of a sequence per context-parallel rank", InputError);
    CHECK(sequence_parallel_divides(4096, 8));
    CHECK_FALSE(sequence_parallel_divides(4097, 2));
    CHECK(sequence_parallel_divides(4097, 1));
    // An enumerator cast from a number out of range.
    ParallelPlan bad = ring;
    bad.cp_comm = static_cast<CpComm>(7);
    CHECK(field_of([&] { (void)estimate_training(job, bad, node, fw); }) == "cp_comm");
  }

  TEST_CASE("training: hardware FLOPs equal Megatron's closed form; bubble; MFU/HFU; totals") {
    const GpuSpec& a100 = gpu("A100 SXM 80GB");
    TrainingJob job;
    job.model = gpt(48, 8192, 64);
    job.parameters = 39.1e9;
    job.global_batch = 1536;
    job.precision = Precision::fp16;
    ParallelPlan plan;
    plan.tp = 8;
    plan.pp = 2;
    plan.dp = 32;
    plan.recompute = Recompute::full;
    const Cluster c = make_cluster(a100, 512, 8, infiniband(25_GBps));
    const TrainingEstimate e = estimate_training(job, plan, c, megatron_lm_2021());
    // F = 96 B s l h^2 (1 + s/6h + V/16lh) (Narayanan et al. 2021, eq. 3).
    const double megatron = static_cast<double>(megatron_flops_per_iteration(1536, 2048, 48, 8192, 51200));
    CHECK(e.hardware_flops.value() == doctest::Approx(megatron).epsilon(1e-9));
    CHECK(e.hardware_flops.value() > e.model_flops.value());
    CHECK(e.hfu > e.mfu);
    CHECK(e.micro_batches == 48);
    // 1F1B bubble: (p - 1) / (m + p - 1) of the pipeline time = 1/49, a little less of the iteration.
    CHECK(e.bubble_fraction < 1.0 / 49.0);
    CHECK(e.bubble_fraction > 0.8 / 49.0);
    CHECK(e.tokens_per_second == doctest::Approx(1536.0 * 2048 / e.iteration.value()));
    CHECK(e.time_for_tokens(300e9).value() == doctest::Approx(300e9 / e.tokens_per_second));
    CHECK(e.gpu_hours_for_tokens(1e9) == doctest::Approx(1e9 / e.tokens_per_second / 3600 * 512));
    // Interleaving shrinks the bubble (Narayanan et al. 2021 §2.2.2).
    ParallelPlan inter = plan;
    inter.interleave = 2;
    const TrainingEstimate ei = estimate_training(job, inter, c, megatron_lm_2021());
    CHECK(ei.bubble_fraction < e.bubble_fraction);
    // Explain lists the terms that add up to the iteration.
    CHECK(e.breakdown.total().value() == doctest::Approx(e.iteration.value()));
    const std::string text = e.explain();
    CHECK(text.find("pipeline bubble") != std::string::npos);
    CHECK(text.find("tensor-parallel all-reduces") != std::string::npos);
    CHECK(text.find("(48 - 1)") == std::string::npos);
    CHECK(text.find("(all 2 stages'") != std::string::npos);
    CHECK(text.find("the last stage, 24 layers + output layer and loss, sets the pace") != std::string::npos);
  }

  TEST_CASE("training: MTP layers on the last stage; a pipeline layout's chunks set the bubble") {
    const GpuSpec& h100 = gpu("H100 SXM");
    TrainingJob job;
    job.model = gpt(32, 4096, 32);
    job.global_batch = 64;
    ParallelPlan plan;
    plan.pp = 4;
    plan.dp = 2;
    const Cluster c = make_cluster(h100, 8, 8, infiniband(50_GBps));
    const Framework fw = megatron_core();
    const TrainingEstimate none = estimate_training(job, plan, c, fw);
    // One MTP layer: the last stage runs 8 + 1 layers and its output layer and loss (1 + 2h/V) more: it sets the pace.
    job.mtp_layers = 1;
    const TrainingEstimate one = estimate_training(job, plan, c, fw);
    CHECK(one.iteration.value() > none.iteration.value());
    CHECK(one.breakdown.total().value() == doctest::Approx(one.iteration.value()));
    const std::string text = one.explain();
    CHECK(text.find("8 layers + 1 MTP + output layer and loss x 2.") != std::string::npos);
    // A layer's worth and more: the extra per micro-batch is at least the pace stage's 1/8 more.
    CHECK(one.iteration.value() > none.iteration.value() * (1 + 0.5 / 8));
    job.mtp_layers = 17;
    CHECK(field_of([&] { (void)estimate_training(job, plan, c, fw); }) == "mtp_layers");
    job.mtp_layers = 0;
    // A layout's chunks: the same plan with v = 4 equal chunks of 2, and as a layout whose largest chunk holds all
    // 8 layers of a stage (the others empty): the same schedule of work, so the bubble must not shrink by 4.
    ParallelPlan equal = plan;
    equal.interleave = 4;
    ParallelPlan lopsided = equal;
    lopsided.chunk_layers = 8;
    const TrainingEstimate e4 = estimate_training(job, equal, c, fw);
    const TrainingEstimate l8 = estimate_training(job, lopsided, c, fw);
    CHECK(l8.bubble_fraction > 3 * e4.bubble_fraction);
    CHECK(l8.bubble_fraction == doctest::Approx(none.bubble_fraction).epsilon(0.02));
    CHECK(l8.breakdown.total().value() == doctest::Approx(l8.iteration.value()));
    CHECK(l8.explain().find("the longest chunk's share of the slowest stage's time (8 layers") != std::string::npos);
    // Chunks of 2 with the last chunk's 2 beside the output layer: no smaller than equal chunks' 1/v, a little
    // larger (the last chunk also runs the output layer and loss).
    lopsided.chunk_layers = 2;
    lopsided.last_chunk_layers = 2;
    const double even_layout = estimate_training(job, lopsided, c, fw).bubble_fraction;
    CHECK(even_layout >= e4.bubble_fraction * 0.999);
    CHECK(even_layout < 2 * e4.bubble_fraction);
    // The same where the host sets the pace (eager PyTorch, 1 ms a launch): a chunk is timed as a stage is.
    Framework slow = pytorch_eager();
    slow.cpu_seconds_per_kernel = 1e-3;
    CHECK(estimate_training(job, lopsided, c, slow).bubble_fraction >= estimate_training(job, equal, c, slow).bubble_fraction * 0.999);
  }

  TEST_CASE("training: HFU >= MFU under one FLOP-counting rule, for every recompute, kernel and length") {
    // Known error fixed (fidelity issue, item 3): hardware FLOPs counted the causal attention kernel
    // while model FLOPs count all s^2 pairs, so HFU fell below MFU at long sequences (docs/cli.md
    // showed MFU 59.2 %, HFU 55.7 %). Both now count all pairs (PaLM App. B; Korthikanti §6).
    const GpuSpec& h100 = gpu("H100 SXM");
    const Cluster c = make_cluster(h100, 64, 8, infiniband(50_GBps));
    int checked = 0;
    for (std::int64_t seq : {512, 2048, 8192, 32768}) {
      for (Recompute r : {Recompute::none, Recompute::selective, Recompute::full}) {
        for (bool flash : {false, true}) {
          TrainingJob job;
          job.model = validation::gpt("gpt", 32, 4096, 32, 128256, seq);
          job.seq_len = seq;
          job.global_batch = 64;
          job.precision = Precision::bf16;
          ParallelPlan plan;
          plan.tp = 8;
          plan.pp = 1;
          plan.dp = 8;
          plan.recompute = r;
          Framework fw = pytorch_fsdp();
          fw.flash_attention = flash;
          const TrainingEstimate e = estimate_training(job, plan, c, fw);
          CAPTURE(seq);
          CAPTURE(static_cast<int>(r));
          CAPTURE(flash);
          CHECK(e.hfu >= e.mfu);
          const double model = static_cast<double>(model_flops_per_iteration(job.model, 64, seq));
          // With FlashAttention too, selective recomputation reruns the attention core (the fused
          // kernel's forward, as Megatron-Core checkpoints it), counted at all s^2 pairs as without it.
          const double hardware = static_cast<double>(hardware_flops_per_iteration(job.model, 64, seq, r));
          CHECK(e.model_flops.value() == doctest::Approx(model).epsilon(1e-12));
          CHECK(e.hardware_flops.value() == doctest::Approx(hardware).epsilon(1e-12));
          if (r == Recompute::none) CHECK(e.hfu == doctest::Approx(e.mfu).epsilon(1e-12));
          ++checked;
        }
      }
    }
    CHECK(checked == 24);
  }

  TEST_CASE("eager PyTorch: each element-wise step is its own kernel on an fp32 residual stream") {
    // Llama-3.2-1B-shaped (RMSNorm, RoPE, SwiGLU): per token, bytes as eager_layer_steps lists them.
    TransformerShape llama = validation::gpt("llama", 16, 2048, 32, 128256, 2048);
    llama.kv_heads = 8;
    llama.ffn_hidden = 8192;
    llama.gated_mlp = true;
    LayerOptions o;
    o.flash_attention = true;
    o.dropout = false;
    o.eager = true;
    const std::vector<Op> ops = transformer_layer_forward(llama, 1, 2048, 1, Precision::bf16, o);
    const auto find = [&](std::string_view n) -> Op {
      for (const Op& op : ops)
        if (op.name == n) return op;
      FAIL("no op " << n);
      return {};
    };
    const double h = 2048, e = 2;
    CHECK(find("norm 1 (eager: 4 fp32 kernels + cast)").bytes == doctest::Approx(h * (28 + 4 + e)));
    CHECK(find("norm 1 (eager: 4 fp32 kernels + cast)").kernels == 5);
    CHECK(find("rope on q and k (eager: 10 kernels)").bytes == doctest::Approx((2048 + 512) * 10 * e));
    CHECK(find("residual add 1 (fp32 stream)").bytes == doctest::Approx(h * (8 + e)));
    CHECK(find("silu * up (eager)").bytes == doctest::Approx(8192 * 3 * e));
    // Autocast casts every linear weight once per micro-batch: QKV, output, gate-up and down.
    const double weights = h * (2048 + 2 * 512) + h * 2048 + 3 * h * 8192;
    CHECK(find("autocast weight casts").bytes == doctest::Approx(weights * (4 + e)));
    // A LayerNorm model with learned positions (GPT-2): torch's one norm kernel, no RoPE.
    TransformerShape gpt2 = validation::gpt("gpt2", 12, 768, 12, 50304, 1024);
    gpt2.norm = NormKind::layernorm;
    gpt2.learned_positions = 1024;
    bool rope = false, layer_norm = false;
    for (const Op& op : transformer_layer_forward(gpt2, 1, 1024, 1, Precision::bf16, o)) {
      rope = rope || op.name.find("rope") != std::string_view::npos;
      if (op.name == "norm 1 (eager: fp32 + cast)") layer_norm = op.bytes == doctest::Approx(768 * (8 + 4 + e)) && op.kernels == 2;
    }
    CHECK_FALSE(rope);
    CHECK(layer_norm);
    // The loss: logits cast to fp32 and a log-softmax over them, and the output weight's cast.
    double loss = 0;
    for (const Op& op : output_layer_forward(llama, 1, 1, Precision::bf16, 1, true))
      if (op.kind == OpKind::elementwise) loss += op.bytes;
    CHECK(loss == doctest::Approx(128256 * (e + 4 + 8) + 128256 * h * (4 + e)));
    // A whole step: slower than the fused FSDP preset, the same memory; kernels pay their launches.
    TrainingJob job;
    job.model = llama;
    job.seq_len = 2048;
    job.global_batch = 8;
    job.precision = Precision::bf16;
    ParallelPlan plan;
    plan.micro_batch = 8;
    const Cluster one = make_cluster(gpu("H100 SXM"), 1, 1, Link{});
    const TrainingEstimate fused = estimate_training(job, plan, one, pytorch_fsdp());
    const TrainingEstimate eager = estimate_training(job, plan, one, pytorch_eager());
    CHECK(pytorch_eager().eager);
    CHECK(eager.iteration.value() > 1.2 * fused.iteration.value());
    CHECK(eager.iteration.value() < 1.5 * fused.iteration.value());
    CHECK(eager.explain().find("PyTorch eager") != std::string::npos);
    // torch.autocast has no FP8: the precision is refused, naming the field.
    job.precision = Precision::fp8;
    CHECK(field_of([&] { (void)estimate_training(job, plan, one, pytorch_eager()); }) == "precision");
  }

  TEST_CASE("eager PyTorch: a short step waits on the host launching its kernels (57.9 us each, fitted)") {
    // GPT-2-124M-shaped, micro-batch 8 x 1,024 tokens on one H100: 14 kernels per layer forward, twice
    // that backward, so 12 x 14 x 3 launches + the loss's; the GPU alone would finish sooner.
    TransformerShape gpt2 = validation::gpt("gpt2", 12, 768, 12, 50304, 1024);
    gpt2.norm = NormKind::layernorm;
    gpt2.learned_positions = 1024;
    gpt2.tied_embeddings = true;
    TrainingJob job;
    job.model = gpt2;
    job.seq_len = 1024;
    job.global_batch = 8;
    job.precision = Precision::bf16;
    ParallelPlan plan;
    plan.micro_batch = 8;
    const Cluster one = make_cluster(gpu("H100 SXM"), 1, 1, Link{});
    Framework gpu_only = pytorch_eager();
    CHECK(gpu_only.cpu_seconds_per_kernel == doctest::Approx(57.9e-6));
    gpu_only.cpu_seconds_per_kernel = 0;
    const TrainingEstimate waiting = estimate_training(job, plan, one, pytorch_eager());
    const double host_bound = waiting.iteration.value();
    // The explanation shows the wait, and its terms add up to the iteration.
    CHECK(waiting.explain().find("waiting on the host's kernel launches") != std::string::npos);
    double terms = 0;
    for (const Term& t : waiting.breakdown.terms) terms += t.time.value();
    CHECK(terms == doctest::Approx(host_bound));
    const double gpu_bound = estimate_training(job, plan, one, gpu_only).iteration.value();
    CHECK(host_bound > gpu_bound);
    CHECK(host_bound > 12 * 14 * 3 * 57.9e-6);
    // A long step (micro-batch 64) is the GPU's: the host term no longer decides.
    plan.micro_batch = 64;
    job.global_batch = 64;
    CHECK(estimate_training(job, plan, one, pytorch_eager()).iteration.value() ==
          doctest::Approx(estimate_training(job, plan, one, gpu_only).iteration.value()));
    Framework bad = pytorch_eager();
    bad.cpu_seconds_per_kernel = -1e-6;
    CHECK(field_of([&] { (void)estimate_training(job, plan, one, bad); }) == "cpu_seconds_per_kernel");
  }

  TEST_CASE("runnable plans: TP groups stay inside a node; a straddling group is timed over the network") {
    CHECK(consecutive_group(8, 8).per_node == 8);
    CHECK(consecutive_group(4, 8).per_node == 4);
    CHECK(consecutive_group(16, 8).per_node == 8);
    CHECK(consecutive_group(3, 8).per_node == 1);  // ranks 6, 7 | 8: the ring crosses the network
    CHECK(consecutive_group(6, 8).per_node == 2);
    // A 175B GPT on 384 A100 80GB (48 nodes of 8) with a global batch of 1,536: the search used to return
    // TP 3 x PP 4 x DP 32, whose TP groups straddle nodes but were timed over NVLink.
    const GpuSpec& a100 = gpu("A100 SXM 80GB");
    TrainingJob job;
    job.model = validation::gpt("gpt3-175b", 96, 12288, 96, 51200, 2048);
    job.global_batch = 1536;
    job.precision = Precision::bf16;
    const Cluster c = make_cluster(a100, 384, 8, infiniband(25_GBps));
    const SearchResult r = search_plans(job, c, megatron_lm_2021(), {}, 3);
    REQUIRE_FALSE(r.top.empty());
    for (const RankedPlan& p : r.top) {
      CAPTURE(p.plan.tp);
      CHECK(8 % p.plan.tp == 0);
    }
    // Given by hand, TP 3 runs, and its all-reduces cross the network: slower than TP 4's per layer.
    ParallelPlan three;
    three.tp = 3;
    three.pp = 4;
    three.dp = 32;
    three.micro_batch = 1;
    three.recompute = Recompute::full;
    const TrainingEstimate e3 = estimate_training(job, three, c, megatron_lm_2021());
    CHECK(e3.explain().find("tensor-parallel all-reduces") != std::string::npos);
    const Cluster one_node = make_cluster(a100, 8, 8, infiniband(25_GBps));
    const double intra = all_reduce_seconds(one_node, 1e8, Group{3, 3});
    const double crossing = all_reduce_seconds(c, 1e8, consecutive_group(3, 8));
    CHECK(crossing > 5 * intra);
  }

  TEST_CASE("topology: NVLink bridges join pairs; rings over more cards cross PCIe") {
    // 4 x RTX 3090 with NVLink bridges, 8 x A100 PCIe: a bridge joins two cards, so a ring over four
    // crosses PCIe on every other hop (it used to be timed at bridge speed, ~10x too fast for the 3090).
    for (const char* name : {"RTX 3090", "A100 PCIe 80GB"}) {
      CAPTURE(name);
      const GpuSpec& g = gpu(name);
      const Cluster box = make_cluster(g, 8, 8, infiniband(25_GBps));
      CHECK(box.intra.kind == LinkKind::nvlink);
      CHECK(box.intra_domain == 2);
      CHECK(box.intra_for(2).kind == LinkKind::nvlink);
      CHECK(box.intra_for(4).kind == LinkKind::pcie);
      const double pair = all_reduce_seconds(box, 1e9, Group{2, 2});
      const double four = all_reduce_seconds(box, 1e9, Group{4, 4});
      // A ring of four moves 1.5x the bytes of a pair per GPU; at PCIe speed it takes far longer than that.
      CHECK(four > 1.5 * pair * box.intra.effective() / box.intra_beyond.effective() * 0.99);
      CHECK(four == doctest::Approx(comm::ring_all_reduce(1e9, 4, pcie(g))));
    }
    // SXM parts are on an NVSwitch: one domain.
    const Cluster hgx = make_cluster(gpu("H100 SXM"), 8, 8, infiniband(50_GBps));
    CHECK(hgx.intra_domain == 0);
    CHECK(hgx.intra_for(8).kind == LinkKind::nvlink);
  }

  TEST_CASE("explain: per-operation lines with intensity, bound and time") {
    TrainingJob job;
    job.model = gpt(24, 2304, 24);
    job.global_batch = 512;
    ParallelPlan plan;
    plan.dp = 32;
    const Cluster c = make_cluster(gpu("A100 SXM 80GB"), 32, 8, infiniband(25_GBps));
    const auto lines = layer_op_lines(job, plan, c, megatron_lm_2021());
    double total = 0;
    for (const auto& l : lines) {
      total += l.forward.value();
      if (l.op.name == "scale-mask-softmax") CHECK(l.roofline.bound == Bound::memory);
      if (l.op.name == "mlp up projection") {
        CHECK(l.roofline.bound == Bound::compute);
        CHECK(l.achieved.value() < 312e12);
        CHECK(l.achieved.value() > 0.5 * 312e12);
      }
    }
    // The per-op forward times add up to the layer forward time of the training estimate.
    const TrainingEstimate e = estimate_training(job, plan, c, megatron_lm_2021());
    CHECK(total * 16 * 24 == doctest::Approx(e.breakdown.terms[0].time.value()).epsilon(0.05));
    const std::string text = explain_layer_ops(job, plan, c, megatron_lm_2021());
    CHECK(text.find("memory-bound") != std::string::npos);
    CHECK(text.find("compute-bound") != std::string::npos);
  }

  TEST_CASE("training: a measured MFU overrides the model; recomputation and ZeRO cost time") {
    const GpuSpec& h100 = gpu("H100 SXM");
    TrainingJob job;
    job.model = validation::gpt("7b", 32, 4096, 32, 50368, 2048);
    job.global_batch = 64;
    job.measured_mfu = 0.5;
    ParallelPlan plan;
    plan.dp = 8;
    const Cluster c = make_cluster(h100, 8, 8, infiniband(50_GBps));
    const TrainingEstimate e = estimate_training(job, plan, c);
    CHECK(e.mfu == doctest::Approx(0.5));
    CHECK(e.iteration.value() == doctest::Approx(e.model_flops.value() / (8 * 989.5e12 * 0.5)));
    // Without the override: full recomputation is slower than none; ZeRO-3 adds gathers.
    job.measured_mfu.reset();
    const double none = estimate_training(job, plan, c).iteration.value();
    ParallelPlan full = plan;
    full.recompute = Recompute::full;
    CHECK(estimate_training(job, full, c).iteration.value() > none);
    ParallelPlan z3 = plan;
    z3.zero_stage = ZeroStage::parameters;
    CHECK(estimate_training(job, z3, c).iteration.value() > none);
  }

  TEST_CASE("fine-tuning: frozen weights halve the backward; adapters add their own work; counts agree") {
    // The op-level costs (forward, input gradients, no weight gradients for frozen GEMMs, adapters with
    // both) must add up to the closed form of detail::job_model_flops: 2 x (weight matmuls + logits)
    // + 3 x attention + 6 x adapters x tokens, when attention is counted in full (no FlashAttention).
    const TransformerShape s = gpt(24, 2304, 24);
    TrainingJob job;
    job.model = s;
    job.global_batch = 8;
    job.finetune = FineTune::lora;
    job.lora.rank = 16;
    Framework fw;
    fw.flash_attention = false;
    const DeviceRates r = device_rates(gpu("A100 SXM 80GB"), Precision::bf16);
    const detail::LayerCosts lc = layer_costs(job, 1, 2, false, fw, r);
    const double per_mb = 24 * (lc.layer.flops_fwd + lc.layer.flops_bwd) + lc.output.flops_fwd + lc.output.flops_bwd;
    const ForwardFlops f = forward_flops(s, 2, 2048, AttentionCount::full);
    const double closed = 2.0 * static_cast<double>(f.layers_matmul + f.logits) + 3.0 * static_cast<double>(f.layers_attention) +
                          6.0 * static_cast<double>(lora_parameter_count(s, job.lora)) * 2 * 2048;
    CHECK(per_mb == doctest::Approx(closed).epsilon(1e-9));
    CHECK(detail::job_model_flops(job, 2, 2048) == doctest::Approx(closed).epsilon(1e-12));
    // Adding the MLP adapters adds exactly their count.
    job.lora.mlp = true;
    const detail::LayerCosts lm = layer_costs(job, 1, 2, false, fw, r);
    const double extra = 24 * (lm.layer.flops_fwd + lm.layer.flops_bwd - lc.layer.flops_fwd - lc.layer.flops_bwd);
    LoraOptions only_mlp;
    only_mlp.q = only_mlp.k = only_mlp.v = only_mlp.o = false;
    only_mlp.mlp = true;
    CHECK(extra == doctest::Approx(6.0 * static_cast<double>(lora_parameter_count(s, only_mlp)) * 2 * 2048).epsilon(1e-9));
    // Full training: weight gradients too, 3 x forward.
    job.finetune = FineTune::full;
    CHECK(detail::job_model_flops(job, 2, 2048) == doctest::Approx(3.0 * static_cast<double>(f.total())).epsilon(1e-12));
  }

  TEST_CASE("FP8 training: linear GEMMs at the FP8 rate, the rest at BF16, plus cast-transpose kernels") {
    // Transformer Engine's recipe (training_estimator.hpp, detail::quantized_cost_of): the FP8 step is
    // faster than BF16 but far from the 2x of the peaks; the dgxc-benchmarking Llama 3.1 8B plan
    // published 12.91 s (BF16) and 9.67 s (FP8): 1.34x (validation/cases/dgxc-benchmarking-h100.json).
    const GpuSpec& h100 = gpu("H100 SXM");
    TrainingJob job;
    job.model = find_model("llama3.1-8b").transformer();
    job.seq_len = 8192;
    job.global_batch = 128;
    ParallelPlan plan;
    plan.dp = 4;
    plan.cp = 2;
    plan.zero_stage = ZeroStage::optimizer;
    const Cluster node = make_cluster(h100, 8, 8, infiniband(50_GBps));
    const double bf16 = estimate_training(job, plan, node).iteration.value();
    job.precision = Precision::fp8;
    const TrainingEstimate fp8 = estimate_training(job, plan, node);
    CHECK(bf16 / fp8.iteration.value() > 1.15);
    CHECK(bf16 / fp8.iteration.value() < 1.6);
    // Attention and the element-wise kernels are not sped up: the cast-transpose kernels and the
    // BF16 attention make a layer's FP8 step more than half its BF16 step.
    const DeviceRates r8 = device_rates(h100, Precision::fp8), r16 = device_rates(h100, Precision::bf16);
    CHECK(r8.bf16_peak == doctest::Approx(r16.peak));
    CHECK(r16.bf16_peak == 0);
    const auto c8 = layer_costs(job, 1, 1, false, Framework{}, r8, 1, 2);
    job.precision = Precision::bf16;
    const auto c16 = layer_costs(job, 1, 1, false, Framework{}, r16, 1, 2);
    CHECK(c8.layer.attn_fwd == doctest::Approx(c16.layer.attn_fwd));
    CHECK(c8.layer.fwd > 0.5 * c16.layer.fwd);
    CHECK(c8.layer.fwd < c16.layer.fwd);
    CHECK(c8.output.fwd == doctest::Approx(c16.output.fwd));  // the output layer stays BF16
  }

  TEST_CASE("FP8 serving: W8A8 matmuls on FP8 tensor cores, weight-only where there are none") {
    InferenceJob job;
    job.model = find_model("llama2-7b").transformer();
    job.prompt = 2048;
    job.generate = 1;
    job.weight_bytes_per_parameter = 1;
    const GpuSpec& h100 = gpu("H100 SXM");
    const double weight_only = estimate_inference(job, h100).prefill.value();
    job.matmul_precision = Precision::fp8;
    const double w8a8 = estimate_inference(job, h100).prefill.value();
    // A 2,048-token prefill is compute-bound: FP8 matmuls take it well below the BF16 time
    // (TensorRT-LLM 0.9.0 published 30.8 ms against capplan's 50 ms before this).
    CHECK(w8a8 < 0.8 * weight_only);
    CHECK(w8a8 > 0.45 * weight_only);
    // serving_run decides: FP8 weights on H100 run W8A8, on A100 weight-only.
    ServingLoad load;
    load.weights = formats::fp8;
    load.prompt = 2048;
    load.output = 1;
    const ServingRun on_h100 = serving_run(job.model, h100, load);
    const ServingRun on_a100 = serving_run(job.model, gpu("A100 SXM 80GB"), load);
    CHECK(on_h100.estimate.prefill.value() == doctest::Approx(w8a8));
    load.weights = formats::bf16;
    CHECK(serving_run(job.model, gpu("A100 SXM 80GB"), load).estimate.prefill.value() == doctest::Approx(on_a100.estimate.prefill.value()));
  }

  TEST_CASE("quantization recipes: bytes per quantized element as Transformer Engine moves them") {
    const QuantHardware hopper = quant_hardware(gpu("H100 SXM")), b200 = quant_hardware(gpu("B200")),
                        rtx5090 = quant_hardware(gpu("RTX 5090")), mi355x = quant_hardware(gpu("MI355X"));
    CHECK_FALSE(hopper.block_scaled);
    CHECK(b200.block_scaled);
    CHECK(b200.fp8_any_layout);
    // GeForce Blackwell (compute capability 12.0) has FP4 but keeps FP8's TN-only rule.
    CHECK(rtx5090.block_scaled);
    CHECK_FALSE(rtx5090.fp8_any_layout);
    CHECK(mi355x.block_scaled);
    CHECK_FALSE(mi355x.fp8_any_layout);
    // Delayed scaling on Hopper: BF16 read, FP8 written as is and transposed (the model's bytes before recipes).
    CHECK(quantization_cost(Precision::fp8, Fp8Recipe::delayed, hopper).cast_bytes == 4.0);
    CHECK(quantization_cost(Precision::fp8, Fp8Recipe::delayed, hopper).cast_bytes_frozen == 3.0);
    CHECK(quantization_cost(Precision::fp8, Fp8Recipe::delayed, b200).cast_bytes == 3.0);
    // Current scaling reads the tensor once more for its amax.
    CHECK(quantization_cost(Precision::fp8, Fp8Recipe::current, hopper).cast_bytes == 6.0);
    CHECK(quantization_cost(Precision::fp8, Fp8Recipe::current, b200).cast_bytes == 5.0);
    // MXFP8: two copies with an E8M0 scale per 32 values, whatever the layout support.
    const QuantizationCost mx = quantization_cost(Precision::fp8, Fp8Recipe::mxfp8, b200);
    CHECK(mx.operand_bytes == 1.0 + 1.0 / 32.0);
    CHECK(mx.cast_bytes == 2.0 + 2.0 * (1.0 + 1.0 / 32.0));
    CHECK(mx.cast_bytes_frozen == 2.0 + 1.0 + 1.0 / 32.0);
    // NVFP4: amax, then both copies of 4 bits + an E4M3 scale per 16 values; the rotation's 32 FLOPs.
    const QuantizationCost nv = quantization_cost(Precision::fp4, Fp8Recipe::delayed, b200);
    CHECK(nv.operand_bytes == 0.5625);
    CHECK(nv.cast_bytes == 5.125);
    CHECK(nv.cast_bytes_frozen == 4.5625);
    CHECK(nv.transform_flops == 32.0);
    CHECK(field_of([&] { (void)quantization_cost(Precision::fp8, Fp8Recipe::mxfp8, hopper); }) == "fp8_recipe");
    // Blockwise (DeepSeek-V3's 1 x 128 / 128 x 128 FP32 scales): two copies with a 4-byte scale per 128
    // values, at the measured 0.826 of per-tensor FP8's kernel rate; Hopper only (Blackwell emulates it through MXFP8).
    const QuantizationCost bw = quantization_cost(Precision::fp8, Fp8Recipe::blockwise, hopper);
    CHECK(bw.operand_bytes == 1.0 + 4.0 / 128.0);
    CHECK(bw.cast_bytes == 2.0 + 2.0 * (1.0 + 4.0 / 128.0));
    CHECK(bw.cast_bytes_frozen == 2.0 + 1.0 + 4.0 / 128.0);
    CHECK(bw.kernel_rate == doctest::Approx(3.0 / (2.0 / 0.8879 + 1.0 / 0.7237)).epsilon(0.001));
    CHECK(hopper.fp8_blockwise);
    CHECK_FALSE(b200.fp8_blockwise);
    CHECK(field_of([&] { (void)quantization_cost(Precision::fp8, Fp8Recipe::blockwise, b200); }) == "fp8_recipe");
    CHECK(quant_hardware(gpu("H200")).fp8_blockwise);
    CHECK(quant_hardware(gpu("H20")).fp8_blockwise);
    CHECK_FALSE(rtx5090.fp8_blockwise);
    CHECK_FALSE(mi355x.fp8_blockwise);
    CHECK_FALSE(quant_hardware(gpu("RTX 4090")).fp8_blockwise);
    CHECK(field_of([&] { (void)quantization_cost(Precision::fp8, Fp8Recipe::blockwise, rtx5090); }) == "fp8_recipe");
    CHECK(saved_linear_input_bytes(Precision::fp8, Fp8Recipe::blockwise) == 1.0 + 4.0 / 128.0);
    CHECK(quantization_note(Precision::fp8, Fp8Recipe::blockwise, hopper).find("82.6 % of per-tensor FP8's rate (measured on H200)") != std::string::npos);
    CHECK(field_of([&] { (void)quantization_cost(Precision::fp4, Fp8Recipe::delayed, hopper); }) == "precision");
    CHECK(field_of([&] { (void)quantization_cost(Precision::bf16, Fp8Recipe::delayed, b200); }) == "precision");
    CHECK(quantization_note(Precision::fp8, Fp8Recipe::current, b200).find("current scaling") != std::string::npos);
  }

  TEST_CASE("calibration: measured Blackwell and FP8 matmul rates, Blackwell cuDNN attention; GB200 is not a B200") {
    // stas00/ml-engineering MAMF table; cudnn-frontend SDPA training benchmark at 16K tokens.
    const GemmCalibration b200 = gemm_calibration(gpu("B200")), gb200 = gemm_calibration(gpu("GB200")),
                          gb300 = gemm_calibration(gpu("GB300")), h100 = gemm_calibration(gpu("H100 SXM")),
                          h200 = gemm_calibration(gpu("H200 SXM"));
    CHECK(b200.best_fraction == doctest::Approx(1745.0 / 2250));
    CHECK(b200.fp8_best_fraction == doctest::Approx(3432.5 / 4500));
    CHECK(gb200.best_fraction == doctest::Approx(1822.0 / 2500));  // "gb200" contains "b200": told apart
    CHECK(b200.sm_count == 148);
    CHECK(gemm_calibration(gpu("B300")).sm_count == 160);
    CHECK(h100.fp8_best_fraction == doctest::Approx(1402.6 / 1979));
    CHECK(h200.fp8_best_fraction == doctest::Approx(1453.4 / 1979));
    CHECK(h200.best_fraction == h100.best_fraction);
    CHECK_FALSE(gb300.measured);  // no GB300 matmul measurement: the 0.80 default
    CHECK(b200.cudnn_forward == doctest::Approx(1332.415 / 1745));
    CHECK(gb200.cudnn_backward == doctest::Approx(1304.0 / 1822));
    // device_rates takes the FP8 fraction for FP8 and keeps BF16's for the BF16 kernels beside them.
    const DeviceRates r8 = device_rates(gpu("H100 SXM"), Precision::fp8), r16 = device_rates(gpu("H100 SXM"), Precision::bf16);
    CHECK(r8.best_fraction == doctest::Approx(1402.6 / 1979 * h100.sustained_clock));
    CHECK(r8.bf16_best_fraction == doctest::Approx(r16.best_fraction));
    CHECK(gemm_calibration(gpu("B200")).source.find("3,432.5") != std::string::npos);
  }

  TEST_CASE("ViT: linear layers, attention and the fp32 stream in training and inference") {
    const ImageModel fused = vit_b16();
    ImageModel unfused = fused;
    for (AttentionLayer& a : unfused.attentions) a.fused = false;
    const GpuSpec& g = gpu("RTX 4090");
    const Cluster one = make_cluster(g, 1, 1, Link{});
    const ImageTrainingEstimate tf = estimate_image_training(fused, 192, one, Precision::fp16);
    const ImageTrainingEstimate tu = estimate_image_training(unfused, 192, one, Precision::fp16);
    // The unfused softmax moves 197^2 x heads scores in fp32 between casts: slower.
    CHECK(tu.images_per_second < tf.images_per_second);
    // Model FLOPs: 3x the forward for every GEMM; fused attention's backward does 2.5x its forward.
    const double attention_fwd = 12 * 4.0 * 197 * 197 * 768;
    CHECK(tf.flops_per_image.value() == doctest::Approx(3 * fused.forward_flops_per_sample() + 0.5 * attention_fwd).epsilon(1e-9));
    CHECK(tu.flops_per_image.value() == doctest::Approx(3 * fused.forward_flops_per_sample()).epsilon(1e-9));
    // The parts add up to the iteration, and each is named.
    double sum = 0;
    for (const auto& t : tf.breakdown.terms) sum += t.time.value();
    CHECK(sum == doctest::Approx(tf.iteration.value()));
    CHECK(tf.breakdown.text().find("LayerNorm, GELU, residual adds") != std::string::npos);
    CHECK(tf.breakdown.text().find("fused kernel") != std::string::npos);
    CHECK(tu.breakdown.text().find("softmax") != std::string::npos);
    // Eight GPUs: the 346 MB of fp32 gradients all-reduce under the backward pass.
    const ImageTrainingEstimate t8 = estimate_image_training(fused, 192, make_cluster(gpu("A100 SXM 80GB"), 8, 8, infiniband(25_GBps)), Precision::bf16);
    CHECK(t8.images_per_second > 7 * estimate_image_training(fused, 192, make_cluster(gpu("A100 SXM 80GB"), 1, 1, Link{}), Precision::bf16).images_per_second);

    const ImageInferenceEstimate eager = estimate_image_inference(fused, 1024, g, Precision::fp16);
    const ImageInferenceEstimate compiled = estimate_image_inference(fused, 1024, g, Precision::fp16, {}, true);
    const ImageInferenceEstimate old = estimate_image_inference(unfused, 1024, g, Precision::fp16);
    CHECK(compiled.images_per_second > eager.images_per_second);
    CHECK(old.images_per_second < eager.images_per_second);
    CHECK(eager.flops_per_image.value() == doctest::Approx(fused.forward_flops_per_sample()).epsilon(1e-9));
    CHECK(eager.bound == Bound::compute);
    CHECK(eager.breakdown.assumptions.front().find("autocast") != std::string::npos);
  }

  TEST_CASE("a Stable Diffusion batch: the text encoders once, the steps, the VAE decode once") {
    const ImageModel& sd = *find_image_model("sd15-unet");
    const ImageModel& xl = *find_image_model("sdxl-unet");
    const GpuSpec& g = Catalog::builtin().find_gpu("rtx-4090");
    // Four images under guidance: eight prompts (four negative) through CLIP ViT-L/14, 30 steps on eight
    // latents, four latents decoded.
    const ImageGeneration gen = estimate_image_generation(sd, 4, g, Precision::fp16, 30, true);
    REQUIRE(gen.text.size() == 1);
    const ImageInferenceEstimate text = estimate_image_inference(sd.text_encoders.front(), 8, g, Precision::fp16);
    CHECK(gen.text.front().latency.value() == doctest::Approx(text.latency.value()));
    REQUIRE(gen.decode);
    CHECK(gen.seconds_per_batch == doctest::Approx(gen.text_seconds() + 30 * gen.pass.latency.value() + gen.decode->latency.value()));
    // Small next to the steps: under 1 % of the batch, and its FLOPs in the image's.
    CHECK(gen.text_seconds() > 0);
    CHECK(gen.text_seconds() < 0.01 * gen.seconds_per_batch);
    CHECK(gen.flops_per_image() == doctest::Approx(gen.pass.flops_per_image.value() * 2 * 30 + gen.decode->flops_per_image.value() +
                                                   2 * text.flops_per_image.value()));
    // SDXL runs both encoders; without guidance only the prompts; a quantized UNet's encoders stay in fp16.
    const ImageGeneration xg = estimate_image_generation(xl, 1, g, Precision::fp16, 50, false);
    REQUIRE(xg.text.size() == 2);
    CHECK(xg.text[1].latency.value() > xg.text[0].latency.value());
    CHECK(xg.samples == 1);
    const ImageGeneration q8 = estimate_image_generation(sd, 1, g, Precision::fp8, 20, true);
    CHECK(q8.text.front().latency.value() == doctest::Approx(estimate_image_inference(sd.text_encoders.front(), 2, g, Precision::fp16).latency.value()));
    // A model without encoders (a model file's UNet) times none.
    ImageModel bare = sd;
    bare.text_encoders.clear();
    CHECK(estimate_image_generation(bare, 4, g, Precision::fp16, 30, true).text.empty());
  }

  TEST_CASE("a tiled VAE decode: one tile's memory at a time, more time; a quantized UNet's companions stay in fp16") {
    const GpuSpec& g = Catalog::builtin().find_gpu("rtx-4090");
    UNetConfig c = *find_unet_config("sd15-unet");
    c.latent_side = 128;  // 1024 x 1024: nine tiles of up to 64 x 64 latent values
    const ImageModel big = diffusion_unet(c);
    const ImageGeneration whole = estimate_image_generation(big, 2, g, Precision::fp16, 20, true);
    const ImageGeneration tiled = estimate_image_generation(big, 2, g, Precision::fp16, 20, true, {}, false, true);
    CHECK(whole.decode_tiles == 0);
    CHECK(tiled.decode_tiles == 9);
    // The tiles overlap: (64 + 64 + 32)^2 = 25,600 latent values decoded for 16,384, so more time.
    CHECK(tiled.decode->latency.value() > whole.decode->latency.value());
    double sum = 0;
    for (const auto& t : tiled.decode->breakdown.terms) sum += t.time.value();
    CHECK(sum == doctest::Approx(tiled.decode->latency.value()));
    CHECK(tiled.seconds_per_batch - whole.seconds_per_batch == doctest::Approx(tiled.decode->latency.value() - whole.decode->latency.value()));
    // Memory: one tile's peak beside the decoded tiles, far below the whole latent's.
    const MemoryBudget m_whole = image_generation_memory(big, 2, 4, Precision::fp16);
    const MemoryBudget m_tiled = image_generation_memory(big, 2, 4, Precision::fp16, std::nullopt, {}, false, true);
    CHECK(m_tiled.activations.size.value() < 0.5 * m_whole.activations.size.value());
    CHECK(m_tiled.weights.size == m_whole.weights.size);
    // SDXL's VAE tiles at 1024 px: at its own 1024 x 1024 tiling changes nothing.
    const ImageModel& xl = *find_image_model("sdxl-unet");
    CHECK(xl.decoder_tiles.empty());
    CHECK(estimate_image_generation(xl, 1, g, Precision::fp16, 20, true, {}, false, true).decode_tiles == 0);
    CHECK(image_generation_memory(xl, 1, 2, Precision::fp16, std::nullopt, {}, false, true).total() == image_generation_memory(xl, 1, 2, Precision::fp16).total());
    // An FP8 UNet on an H100: the text encoders and the VAE run and are held in fp16.
    const ImageModel& sd = *find_image_model("sd15-unet");
    const GpuSpec& h100 = Catalog::builtin().find_gpu("h100-sxm");
    const ImageGeneration q = estimate_image_generation(sd, 1, h100, Precision::fp8, 20, true);
    CHECK(q.decode_precision == Precision::fp16);
    CHECK(image_generation_memory(sd, 1, 2, Precision::fp8).weights.size.value() == doctest::Approx(sd.parameters * 1 + sd.companion_parameters * 2));
    // The decode options on a model they cannot act on are refused by name, never ignored: a ViT,
    // and a UNet without its VAE decoder (a model file with no vae_decoder).
    const ImageModel vit = vit_b16();
    CHECK(field_of([&] { (void)estimate_image_generation(vit, 1, g, Precision::fp16, 20, true, {}, false, true); }) == "vae_tiling");
    CHECK(field_of([&] { (void)image_generation_memory(vit, 1, 1, Precision::fp16, std::nullopt, {}, true); }) == "vae_slicing");
    ImageModel bare = big;
    bare.decoder.clear();
    CHECK(field_of([&] { (void)image_generation_memory(bare, 2, 4, Precision::fp16, std::nullopt, {}, false, true); }) == "vae_tiling");
    CHECK_NOTHROW((void)estimate_image_generation(bare, 2, g, Precision::fp16, 20, true));
  }

  TEST_CASE("diffusion UNet: a denoising step's kernels, element-wise steps and cross-attention") {
    const ImageModel sd = sd15_unet();
    const GpuSpec& g = gpu("RTX 4090");
    const ImageInferenceEstimate two = estimate_image_inference(sd, 2, g, Precision::fp16);
    const ImageInferenceEstimate thirty_two = estimate_image_inference(sd, 32, g, Precision::fp16);
    CHECK(two.flops_per_image.value() == doctest::Approx(sd.forward_flops_per_sample()).epsilon(1e-9));
    // The parts add up to the step, and the element-wise steps are a term of their own.
    double sum = 0;
    for (const auto& t : thirty_two.breakdown.terms) sum += t.time.value();
    CHECK(sum == doctest::Approx(thirty_two.latency.value()));
    const auto elem = std::find_if(thirty_two.breakdown.terms.begin(), thirty_two.breakdown.terms.end(),
                                   [](const auto& t) { return t.name == "norms, activations, adds, copies"; });
    REQUIRE(elem != thirty_two.breakdown.terms.end());
    // Those steps move bytes: at batch 32 their time is their bytes over the achieved bandwidth, within
    // the launch overheads; 280 entries move (elements x passes) values of 2 bytes per latent.
    double values = 0;
    for (const ElementwiseLayer& l : sd.elementwise) values += l.count * static_cast<double>(l.elements) * l.passes;
    CHECK(elem->time.value() > 32 * values * 2 / g.memory_bandwidth.value());
    // Throughput grows with the batch until the GEMMs fill the GPU.
    CHECK(thirty_two.images_per_second > 1.2 * two.images_per_second);
    CHECK(thirty_two.bound == Bound::compute);
    // Cross-attention to 77 tokens costs far less than self-attention over 4,096.
    ImageModel self_only = sd;
    for (AttentionLayer& a : self_only.attentions) a.kv_tokens = 0;
    CHECK(estimate_image_inference(self_only, 32, g, Precision::fp16).latency.value() > 1.1 * thirty_two.latency.value());
    // Training (fine-tuning the UNet): forward + backward of every layer, and a memory budget that grows with the batch.
    const ImageTrainingEstimate t = estimate_image_training(sd, 4, make_cluster(gpu("A100 SXM 80GB"), 1, 1, Link{}), Precision::bf16);
    CHECK(t.flops_per_image.value() > 2.9 * sd.forward_flops_per_sample());
    CHECK(t.breakdown.text().find("norms, activations, adds, copies") != std::string::npos);
    CHECK(image_training_memory(sd, 8).activations.size.value() == doctest::Approx(2 * image_training_memory(sd, 4).activations.size.value()));
  }

  TEST_CASE("CNN inference: forward GEMMs, eager batch norm and ReLU, fused kernels, and bad input") {
    const ImageModel net = resnet50_v15();
    const GpuSpec& a100 = gpu("A100 SXM 80GB");
    const ImageInferenceEstimate eager = estimate_image_inference(net, 256, a100, Precision::fp16);
    const ImageInferenceEstimate fused = estimate_image_inference(net, 256, a100, Precision::fp16, {}, true);
    const ImageInferenceEstimate int8 = estimate_image_inference(net, 256, a100, Precision::int8, {}, true);
    // Forward FLOPs per image are the shape's, whatever runs them (He et al. 2016: ~4.1 GMACs).
    CHECK(eager.flops_per_image.value() == doctest::Approx(net.forward_flops_per_sample()));
    CHECK(fused.images_per_second > eager.images_per_second);
    CHECK(int8.images_per_second > fused.images_per_second);
    CHECK(eager.latency.value() == doctest::Approx(256.0 / eager.images_per_second));
    // Fusing removes exactly the batch norm + ReLU and residual-add terms (a compiler folds both into the convolutions).
    CHECK(eager.breakdown.terms.size() == fused.breakdown.terms.size() + 2);
    CHECK(eager.breakdown.text().find("residual adds") != std::string::npos);
    CHECK(fused.breakdown.text().find("residual adds") == std::string::npos);
    CHECK(fused.breakdown.text().find("max pool") != std::string::npos);
    // Without its 16 adds and its max pool ResNet-50 runs faster, by their bytes.
    ImageModel bare = net;
    for (ConvLayer& c : bare.convs) c.residual = false;
    bare.pool_indices = 0;
    CHECK(estimate_image_inference(bare, 256, a100, Precision::fp16).latency.value() < eager.latency.value());
    // A batch of one is launch-bound: far below the large-batch rate per image.
    CHECK(estimate_image_inference(net, 1, a100).images_per_second < 0.2 * eager.images_per_second);
    CHECK(field_of([&] { (void)estimate_image_inference(net, 0, a100); }) == "batch");
    CHECK(field_of([&] { (void)estimate_image_inference(ImageModel{}, 8, a100); }) == "layers");
    CHECK(field_of([&] { (void)estimate_image_inference(net, 8, gpu("RTX 3090"), Precision::fp8); }) == "precision");
  }

  TEST_CASE("FP8 recipes and NVFP4 training on a B200: per-operation costs, not a speed-up factor") {
    // 8 x B200, Llama 3 8B, GBS 128, MBS 2, 8,192 tokens (validation/cases/nemo-perf-nvfp4-b200.json):
    // published 21,618 (BF16), 29,567 (FP8 delayed), 28,432 (MXFP8), 35,578 (NVFP4) tokens/s per GPU.
    const GpuSpec& b200 = gpu("B200");
    TrainingJob job;
    job.model = find_model("llama3.1-8b").transformer();
    job.seq_len = 8192;
    job.global_batch = 128;
    ParallelPlan plan;
    plan.dp = 8;
    plan.micro_batch = 2;
    plan.zero_stage = ZeroStage::optimizer;
    const Cluster node = make_cluster(b200, 8, 8, infiniband(50_GBps));
    const auto tps = [&](Precision p, Fp8Recipe r) {
      job.precision = p;
      job.fp8_recipe = r;
      return estimate_training(job, plan, node).tokens_per_second;
    };
    const double bf16 = tps(Precision::bf16, Fp8Recipe::delayed);
    const double delayed = tps(Precision::fp8, Fp8Recipe::delayed), current = tps(Precision::fp8, Fp8Recipe::current),
                 mxfp8 = tps(Precision::fp8, Fp8Recipe::mxfp8), nvfp4 = tps(Precision::fp4, Fp8Recipe::delayed);
    CHECK(delayed > current);  // the amax pass
    CHECK(delayed > mxfp8);    // two block-scaled copies where per-tensor FP8 needs one on B200
    CHECK(nvfp4 > delayed);
    // The published ratios, each within 10 %: FP8 1.37x BF16, MXFP8 0.962x FP8, NVFP4 1.25x MXFP8.
    CHECK(delayed / bf16 == doctest::Approx(29567.0 / 21618.0).epsilon(0.10));
    CHECK(mxfp8 / delayed == doctest::Approx(28432.0 / 29567.0).epsilon(0.10));
    CHECK(nvfp4 / mxfp8 == doctest::Approx(35578.0 / 28432.0).epsilon(0.10));
    // A recipe belongs to FP8; FP4 needs FP4 tensor cores.
    job.precision = Precision::bf16;
    job.fp8_recipe = Fp8Recipe::current;
    CHECK(field_of([&] { (void)estimate_training(job, plan, node); }) == "fp8_recipe");
    job.precision = Precision::fp4;
    job.fp8_recipe = Fp8Recipe::delayed;
    const Cluster hopper = make_cluster(gpu("H100 SXM"), 8, 8, infiniband(50_GBps));
    CHECK(field_of([&] { (void)estimate_training(job, plan, hopper); }) == "precision");
    // The CLI's setup falls back a step at a time, with a note: FP4 on an H100 is timed at FP8 and
    // FP8 on an A100 at BF16 (not FP32).
    CHECK(capplan::detail::usable_precision(gpu("H100 SXM"), Precision::fp4) == Precision::fp8);
    CHECK(capplan::detail::usable_precision(gpu("A100 SXM 80GB"), Precision::fp8) == Precision::bf16);
    CHECK(capplan::detail::usable_precision(gpu("B200"), Precision::fp4) == Precision::fp4);
  }

  TEST_CASE("NVFP4 serving: W4A4 matmuls on Blackwell FP4 tensor cores, weight-only elsewhere") {
    ServingLoad load;
    load.prompt = 4096;
    load.output = 1;
    load.batch = 8;
    const TransformerShape m = find_model("llama3.1-8b").transformer();
    const GpuSpec& b200 = gpu("B200");
    CHECK(quantized_matmuls(b200, formats::nvfp4) == Precision::fp4);
    CHECK(quantized_matmuls(b200, formats::fp8) == Precision::fp8);
    CHECK_FALSE(quantized_matmuls(gpu("H100 SXM"), formats::nvfp4).has_value());
    CHECK_FALSE(quantized_matmuls(gpu("MI355X"), formats::nvfp4).has_value());  // NVIDIA's format
    CHECK_FALSE(quantized_matmuls(b200, formats::mxfp4).has_value());
    // MXFP6 runs weight-only everywhere (vLLM emulates it), FP6 tensor cores or not.
    CHECK_FALSE(quantized_matmuls(b200, formats::mxfp6).has_value());
    CHECK_FALSE(quantized_matmuls(gpu("MI355X"), formats::mxfp6).has_value());
    load.weights = formats::fp8;
    const double fp8 = serving_run(m, b200, load).estimate.prefill.value();
    load.weights = formats::nvfp4;
    const ServingRun fp4 = serving_run(m, b200, load);
    // A 32k-token prefill is compute-bound: FP4 matmuls cut it, attention does not shrink.
    CHECK(fp4.estimate.prefill.value() < 0.9 * fp8);
    CHECK(fp4.estimate.prefill.value() > 0.5 * fp8);
    // 4.5 bits per weight: about 4.5 GB for the 8B's weights.
    CHECK(formats::nvfp4.size_of(8.03e9).value() == doctest::Approx(8.03e9 * 4.5 / 8));
    CHECK(parse_weight_format("nvfp4") == formats::nvfp4);
    InferenceJob job;
    job.model = m;
    job.matmul_precision = Precision::bf16;
    CHECK(field_of([&] { (void)estimate_inference(job, b200); }) == "matmul_precision");
  }

  TEST_CASE("fine-tuning: LoRA is faster than full training, QLoRA slower than LoRA, and both need less memory") {
    const GpuSpec& a100 = gpu("A100 SXM 80GB");
    TrainingJob job;
    job.model = find_model("llama2-7b").transformer();
    job.global_batch = 64;
    ParallelPlan plan;
    plan.dp = 8;
    plan.zero_stage = ZeroStage::optimizer;
    plan.recompute = Recompute::full;
    const Cluster node = make_cluster(a100, 8, 8, infiniband(50_GBps));
    const TrainingEstimate full = estimate_training(job, plan, node);
    const MemoryBudget full_mem = plan_memory(job, plan, true);
    job.finetune = FineTune::lora;
    const TrainingEstimate lora = estimate_training(job, plan, node);
    const MemoryBudget lora_mem = plan_memory(job, plan, true);
    job.finetune = FineTune::qlora;
    const TrainingEstimate qlora = estimate_training(job, plan, node);
    const MemoryBudget qlora_mem = plan_memory(job, plan, true);
    // The weight gradients are about a third of a step's matmul work (and with full recomputation a quarter).
    CHECK(lora.iteration.value() < 0.85 * full.iteration.value());
    CHECK(lora.iteration.value() > 0.6 * full.iteration.value());
    CHECK(qlora.iteration.value() > lora.iteration.value());
    CHECK(lora.model_flops.value() < full.model_flops.value());
    CHECK(lora_mem.total().value() < full_mem.total().value());
    CHECK(qlora_mem.total().value() < lora_mem.total().value());
    CHECK(lora.breakdown.assumptions.back().find("LoRA rank 16") != std::string::npos);
    CHECK(qlora.breakdown.assumptions.back().find("NF4") != std::string::npos);
    // Over a slow network full training waits on its gradients; LoRA reduces only the adapters'.
    job.finetune = FineTune::full;
    ParallelPlan wide = plan;
    wide.dp = 16;
    job.global_batch = 128;
    const Cluster slow = make_cluster(a100, 16, 8, infiniband(1_GBps)), fast = make_cluster(a100, 16, 8, infiniband(50_GBps));
    const double full_slow = estimate_training(job, wide, slow).iteration.value();
    const double full_fast = estimate_training(job, wide, fast).iteration.value();
    job.finetune = FineTune::lora;
    const double lora_slow = estimate_training(job, wide, slow).iteration.value();
    const double lora_fast = estimate_training(job, wide, fast).iteration.value();
    CHECK(full_slow > 1.1 * full_fast);
    CHECK(lora_slow < 1.01 * lora_fast);
    // Bad adapters name their field.
    job.lora.rank = 0;
    CHECK(field_of([&] { (void)estimate_training(job, plan, node); }) == "lora.rank");
    job.lora = LoraOptions{};
    job.lora.q = job.lora.k = job.lora.v = job.lora.o = false;
    CHECK(field_of([&] { (void)estimate_training(job, plan, node); }) == "lora");
  }

  TEST_CASE("training: bad plans and inputs name their field; no NaN or infinity") {
    const GpuSpec& a100 = gpu("A100 SXM 80GB");
    TrainingJob job;
    job.model = gpt(24, 2304, 24);
    job.global_batch = 512;
    ParallelPlan plan;
    plan.dp = 32;
    const Cluster c = make_cluster(a100, 32, 8, infiniband(25_GBps));
    auto with = [&](auto change) {
      TrainingJob j = job;
      ParallelPlan p = plan;
      change(j, p);
      return field_of([&] { (void)estimate_training(j, p, c); });
    };
    CHECK(with([](TrainingJob&, ParallelPlan& p) { p.dp = 16; }) == "dp");                    // 16 != 32 GPUs
    CHECK(with([](TrainingJob&, ParallelPlan& p) { p.tp = 5; p.dp = 32; }) == "dp");          // 160 != 32
    CHECK(with([](TrainingJob&, ParallelPlan& p) { p.tp = 32; p.dp = 1; }) == "tp");          // 24 heads
    CHECK(with([](TrainingJob&, ParallelPlan& p) { p.pp = 32; p.dp = 1; }) == "pp");          // 24 layers
    CHECK(with([](TrainingJob& j, ParallelPlan&) { j.global_batch = 500; }) == "global_batch");
    CHECK(with([](TrainingJob&, ParallelPlan& p) { p.micro_batch = 3; }) == "global_batch");  // 512 % (3 x 32)
    CHECK(with([](TrainingJob& j, ParallelPlan&) { j.measured_mfu = 1.5; }) == "mfu");
    CHECK(with([](TrainingJob& j, ParallelPlan&) { j.measured_mfu = std::nan(""); }) == "mfu");
    CHECK(with([](TrainingJob&, ParallelPlan& p) { p.zero_stage = static_cast<ZeroStage>(4); }) == "zero_stage");
    CHECK(with([](TrainingJob&, ParallelPlan& p) { p.interleave = 2; }) == "interleave");
    CHECK(with([](TrainingJob&, ParallelPlan& p) { p.sequence_parallel = true; }) == "sequence_parallel");
    CHECK(with([](TrainingJob&, ParallelPlan& p) { p.micro_batch = 0; }) == "micro_batch");
    CHECK(field_of([&] { (void)make_cluster(a100, 0, 8, infiniband(25_GBps)); }) == "gpus");
    const TrainingEstimate e = estimate_training(job, plan, c);
    for (double v : {e.iteration.value(), e.tokens_per_second, e.mfu, e.hfu, e.hardware_rate_per_gpu.value()}) {
      CHECK(std::isfinite(v));
      CHECK(v > 0);
    }
  }

  TEST_CASE("inference: batch-1 decode is bandwidth-bound; batching, quantization and TP") {
    InferenceJob job;
    job.model = validation::gpt("7b", 32, 4096, 32, 32000, 2048);
    job.prompt = 512;
    job.generate = 128;
    const GpuSpec& a100 = gpu("A100 SXM 80GB");
    const InferenceEstimate one = estimate_inference(job, a100);
    CHECK(one.decode_bound == Bound::memory);
    // The step is at least weight bytes / achieved bandwidth.
    CHECK(one.decode_step.value() > one.weight_bytes_per_gpu.value() / (0.88 * 2039e9));
    CHECK(one.prefill.value() > 0);
    CHECK(one.time_to_first_token().value() == one.prefill.value());
    CHECK(one.total.value() == doctest::Approx(one.prefill.value() + 128 * one.decode_step.value()));
    // Batching: aggregate tokens/s grows, per-sequence tokens/s falls.
    InferenceJob b64 = job;
    b64.batch = 64;
    const InferenceEstimate many = estimate_inference(b64, a100);
    CHECK(many.tokens_per_second > 20 * one.tokens_per_second);
    CHECK(many.tokens_per_second_per_sequence < one.tokens_per_second_per_sequence);
    CHECK(many.kv_cache_bytes_per_gpu.value() == doctest::Approx(64 * one.kv_cache_bytes_per_gpu.value()));
    // Large batches with short contexts turn compute-bound (long contexts stay bound by KV-cache reads).
    InferenceJob b1024 = job;
    b1024.batch = 1024;
    b1024.prompt = 16;
    b1024.generate = 16;
    CHECK(estimate_inference(b1024, a100).decode_bound == Bound::compute);
    // 4-bit weights decode faster than fp16, by less than the 3.6x fewer bytes: each step's launches
    // and weight-matmul ramps do not shrink (gpt-fast, A100: int4 1.88x bf16); TP 2 splits the weights.
    InferenceJob q4 = job;
    q4.weight_bytes_per_parameter = 4.5 / 8;
    CHECK(estimate_inference(q4, a100).tokens_per_second > 1.5 * one.tokens_per_second);
    CHECK(estimate_inference(q4, a100).tokens_per_second < 16.0 / 4.5 * one.tokens_per_second);
    InferenceJob tp2 = job;
    tp2.tp = 2;
    const InferenceEstimate t2 = estimate_inference(tp2, a100);
    CHECK(t2.weight_bytes_per_gpu.value() == doctest::Approx(one.weight_bytes_per_gpu.value() / 2));
    CHECK(t2.tokens_per_second > one.tokens_per_second);
    CHECK(t2.explain().find("tensor-parallel") != std::string::npos);
    // MoE decode: batch 1 reads the top-2 experts' weights, a batch of 64 nearly all 8.
    InferenceJob mx = job;
    mx.model.kv_heads = 8;
    mx.model.ffn_hidden = 14336;
    mx.model.gated_mlp = true;
    mx.model.moe = MoeShape{8, 2, 0, 14336, 0, 0, 0};
    const double w1 = estimate_inference(mx, a100).weight_bytes_per_gpu.value();
    mx.batch = 64;
    const double w64 = estimate_inference(mx, a100).weight_bytes_per_gpu.value();
    const double expert_bytes = 2.0 * 32 * 3 * 4096.0 * 14336;  // one expert in every layer, fp16
    CHECK(w64 - w1 == doctest::Approx(expert_bytes * (8 * (1 - std::pow(0.75, 64)) - 2)).epsilon(1e-6));
    InferenceJob bad = job;
    bad.batch = 0;
    CHECK(field_of([&] { (void)estimate_inference(bad, a100); }) == "batch");
    bad = job;
    bad.tp = 3;
    CHECK(field_of([&] { (void)estimate_inference(bad, a100); }) == "tp");
  }

  TEST_CASE("SHM: a node's GPUs share the host's memory, 2 bytes of DRAM traffic per byte sent (NVIDIA/nccl#1639)") {
    const GpuSpec& r5090 = gpu("RTX 5090");
    // The assumed hosts: 8 channels of DDR5-4800 a socket with PCIe 5, two sockets in a server.
    CHECK(assumed_host_memory_bandwidth(5, PcieHost::pcie_switch) == doctest::Approx(614.4e9));
    CHECK(assumed_host_memory_bandwidth(5, PcieHost::root_complex) == doctest::Approx(460.8e9));
    CHECK(assumed_host_memory_bandwidth(3, PcieHost::pcie_switch) == doctest::Approx(2 * 6 * 8 * 2933e6));
    CHECK(assumed_host_memory_bandwidth(4, PcieHost::two_sockets) == doctest::Approx(409.6e9));
    CHECK(shm_host_share(r5090, PcieHost::root_complex, 8, 614.4e9) == doctest::Approx(0.75 * 614.4e9 / 16));
    // 4 x RTX 5090 keep the calibrated 35 GB/s (PCIe 5 x16 x 0.556): 57.6 GB/s of DRAM each is more.
    const Cluster four = make_cluster(r5090, 4, 4, Link{}, PcieHost::root_complex, PeerToPeer::automatic, 614.4e9);
    CHECK(four.intra.efficiency == doctest::Approx(shm_efficiency));
    // 8 share it: 0.75 x 614.4 / 16 = 28.8 GB/s each, as the 28 measured.
    const Cluster eight = make_cluster(r5090, 8, 8, Link{}, PcieHost::root_complex, PeerToPeer::automatic, 614.4e9);
    CHECK(eight.intra.effective() == doctest::Approx(28.8e9));
    const DataSize gib8 = from_canonical<DataSize>(8.0 * 1073741824);
    CHECK(all_reduce_bus_bandwidth(eight, gib8, Group{8, 8}).value() == doctest::Approx(28.8e9).epsilon(0.01));
    // Without a named host, one socket with the lanes for 8 cards (an EPYC: 12 channels, 460.8 GB/s):
    // 21.6 GB/s each for 8; 4 keep the link's 35 GB/s (43.2 of DRAM each).
    CHECK(make_cluster(r5090, 8, 8, Link{}, PcieHost::root_complex).intra.effective() == doctest::Approx(21.6e9));
    CHECK(make_cluster(r5090, 4, 4, Link{}, PcieHost::root_complex).intra.efficiency == doctest::Approx(shm_efficiency));
    CHECK(make_cluster(r5090, 4, 4, Link{}, PcieHost::root_complex).host_memory_bandwidth == doctest::Approx(460.8e9));
    // A serving pipeline's boundary: only the stage's tp senders share it (TP 2 x PP 4 on one socket).
    InferenceJob staged;
    staged.model = validation::gpt("7b", 32, 4096, 32, 32000, 2048);
    staged.prompt = 1000;
    staged.tp = 2;
    staged.pp = 4;
    staged.pcie_host = PcieHost::root_complex;
    const double bytes = 1000 * 2.0 * 4096 * 2;
    const Link link = pcie(r5090, PcieHost::root_complex);  // 35 GB/s: 2 senders of 460.8 x 0.75 get far more
    const double per_boundary = comm::p2p(bytes / 2, link) +
                                comm::ring_all_gather(bytes, 2, make_cluster(r5090, 2, 2, Link{}, PcieHost::root_complex).intra);
    CHECK(term_seconds(estimate_inference(staged, r5090), "prefill: pipeline stage transfers") == doctest::Approx(3 * per_boundary));
    // Bad hosts name the field.
    CHECK(field_of([&] { (void)shm_host_share(r5090, PcieHost::root_complex, 8, std::nan("")); }) == "host_memory_bandwidth");
    CHECK(field_of([&] { (void)shm_host_share(r5090, PcieHost::root_complex, 8, 1e-300); }) == "host_memory_bandwidth");
    CHECK(field_of([&] { (void)shm_host_share(r5090, PcieHost::root_complex, 0); }) == "flows");
    CHECK(field_of([&] { (void)assumed_host_memory_bandwidth(0, PcieHost::root_complex); }) == "pcie_generation");
    // Peer-to-peer links and NVLink do not touch host memory.
    CHECK(make_cluster(gpu("L40S"), 8, 8, Link{}).intra.efficiency == doctest::Approx(0.87));
    CHECK(make_cluster(gpu("H100 SXM"), 8, 8, Link{}).intra.efficiency == doctest::Approx(0.80));
    // A PCIe 4 box of 4 x RTX 4090 on one socket: 0.75 x 204.8 / 8 = 19.2 GB/s, above the link's 17.5.
    CHECK(make_cluster(gpu("RTX 4090"), 4, 4, Link{}, PcieHost::root_complex).intra.efficiency == doctest::Approx(shm_efficiency));
    CHECK(field_of([&] { (void)make_cluster(r5090, 8, 8, Link{}, PcieHost::root_complex, PeerToPeer::automatic, -1); }) ==
          "host_memory_bandwidth");
  }

  TEST_CASE("host memory: a CPU's channels x 8 B x MT/s; a system's from its CPUs and DIMMs; runs take the host given") {
    const Catalog& cat = Catalog::builtin();
    CHECK(ddr_speed_mts("DDR5-4800") == 4800);
    CHECK(ddr_speed_mts("DDR4-3200") == 3200);
    CHECK(ddr_speed_mts("HBM3") == 0);
    CHECK(ddr_speed_mts("DDR5-") == 0);
    CHECK(ddr_speed_mts("DDR5-48x0") == 0);
    CHECK(ddr_speed_mts("") == 0);
    const CpuSpec& epyc = cat.find_cpu("epyc-7763");
    CHECK(memory_bandwidth(epyc).value() == doctest::Approx(8 * 8 * 3200e6));  // 204.8 GB/s
    CHECK(memory_bandwidth(epyc, 4).value() == doctest::Approx(4 * 8 * 3200e6));
    CHECK(memory_bandwidth(epyc, 8, 2933).value() == doctest::Approx(8 * 8 * 2933e6));  // slower DIMMs
    CHECK(memory_bandwidth(epyc, 8, 4800).value() == doctest::Approx(8 * 8 * 3200e6));  // faster DIMMs run at the CPU's rating
    CHECK(memory_bandwidth(epyc, 12).value() == doctest::Approx(8 * 8 * 3200e6));      // it has 8 channels
    CHECK(field_of([&] { (void)memory_bandwidth(epyc, -2); }) == "channels");
    CHECK(field_of([&] { (void)memory_bandwidth(epyc, 8, 30000); }) == "speed_mts");
    // A desktop: 2 DDR5-5600 DIMMs on a Ryzen 9 7950X rated DDR5-5200: 2 x 8 x 5200 = 83.2 GB/s.
    const HostMemory ws = host_memory(cat.find_system("ws-2x-rtx-4090"), cat);
    CHECK(ws.bandwidth.value() == doctest::Approx(83.2e9));
    CHECK(ws.channels == 2);
    CHECK(ws.speed_mts == 5200);
    CHECK(ws.basis.find("the CPU's rating") != std::string::npos);
    // DGX H100: 2 x Xeon 8480+ (8 channels of DDR5-4800 each), 32 DIMMs: two a channel, where DDR5 on
    // Sapphire Rapids runs at 4,400 MT/s (WWT's population guide): 16 x 8 x 4400 = 563.2 GB/s.
    const HostMemory dgx = host_memory(cat.find_system("dgx-h100"), cat);
    CHECK(dgx.sockets == 2);
    CHECK(dgx.channels == 16);
    CHECK(dgx.speed_mts == 4400);
    CHECK(dgx.bandwidth.value() == doctest::Approx(563.2e9));
    CHECK(dgx.basis.find("two DIMMs a channel") != std::string::npos);
    // A desktop with four DIMMs: the Ryzen 7000's DDR5-3600 with two a channel (AMD): 2 x 8 x 3600.
    SystemSpec four = cat.find_system("ws-2x-rtx-4090");
    for (SystemPart& p : four.parts)
      if (p.kind == PartKind::memory) p.count = 4;
    CHECK(host_memory(four, cat).bandwidth.value() == doctest::Approx(57.6e9));
    // DGX B200: 32 DIMMs on 2 x Xeon 8570, whose speed with two a channel is not recorded: one's, and said.
    const HostMemory b200 = host_memory(cat.find_system("dgx-b200"), cat);
    CHECK(b200.speed_mts == 4800);
    CHECK(b200.basis.find("counted at one's speed") != std::string::npos);
    // Odd systems: fewer DIMMs than sockets fill that many channels; DIMMs a CPU does not take, nothing.
    CHECK(ddr_speed_mts("ddr5-4800") == 4800);
    SystemSpec odd;
    odd.id = "odd";
    odd.parts = {{PartKind::cpu, "epyc-7763", 2}, {PartKind::memory, "ddr4-3200-rdimm-64gb", 1}};
    CHECK(host_memory(odd, cat).bandwidth.value() == doctest::Approx(25.6e9));
    CHECK(host_memory(odd, cat).basis.find("2 x AMD EPYC 7763") != std::string::npos);
    odd.parts = {{PartKind::cpu, "epyc-7763", 1}, {PartKind::cpu, "epyc-9654", 1}, {PartKind::memory, "ddr4-3200-rdimm-64gb", 16}};
    CHECK(host_memory(odd, cat).bandwidth.value() == 0);
    CHECK(host_memory(odd, cat).basis.find("DDR4 DIMMs on AMD EPYC 9654") != std::string::npos);
    // A baseboard lists no CPU: not known from its parts.
    const HostMemory hgx = host_memory(cat.find_system("hgx-h100-8gpu"), cat);
    CHECK(hgx.bandwidth.value() == 0);
    CHECK(hgx.basis.find("no CPU") != std::string::npos);

    // A training run through host memory takes the host given: 8 x RTX 4090 on one EPYC 7763 socket
    // (204.8 GB/s) get 0.75 x 204.8 / 16 = 9.6 GB/s each instead of the link's 17.5 (the assumed
    // 2-socket server's 409.6 GB/s leave it 19.2).
    TrainingSetup setup;
    setup.global_batch = 64;
    const TransformerShape llama = validation::gpt("7b", 32, 4096, 32, 32000, 2048);
    const GpuSpec& r4090 = gpu("RTX 4090");
    const auto assumed = training_job(llama, r4090, 8, setup);
    setup.host_memory_bandwidth = memory_bandwidth(epyc).value();
    const auto given = training_job(llama, r4090, 8, setup);
    CHECK(given.second.host_memory_bandwidth == doctest::Approx(204.8e9));
    CHECK(given.second.intra.effective() == doctest::Approx(9.6e9));
    CHECK(assumed.second.intra.efficiency == doctest::Approx(shm_efficiency));
    CHECK(assumed.second.intra.effective() > given.second.intra.effective());
    setup.host_memory_bandwidth = -5;
    CHECK(field_of([&] { (void)training_job(llama, r4090, 8, setup); }) == "host_memory_bandwidth");
    // Serving: a stage boundary's senders share the host given; a bad one names the field.
    ServingLoad load;
    load.host_memory_bandwidth = 1e-3;
    CHECK(field_of([&] { load.validate(); }) == "host_memory_bandwidth");
  }

  TEST_CASE("inference: TP all-reduces follow the PCIe host (peer-to-peer under switches, host memory otherwise)") {
    InferenceJob job;
    job.model = validation::gpt("7b", 32, 4096, 32, 32000, 2048);
    job.tp = 4;
    const GpuSpec& l40s = gpu("L40S");
    const double tp_switch = term_seconds(estimate_inference(job, l40s), "decode: tensor-parallel all-reduces");
    job.pcie_host = PcieHost::root_complex;
    const double tp_cpu = term_seconds(estimate_inference(job, l40s), "decode: tensor-parallel all-reduces");
    job.pcie_host = PcieHost::two_sockets;
    CHECK(term_seconds(estimate_inference(job, l40s), "decode: tensor-parallel all-reduces") == doctest::Approx(tp_cpu));
    // A decode all-reduce is a few KB: NCCL's LL ring (6.6 us + 1 us per step) peer-to-peer, Simple's
    // 10 us per step through host memory: 6 steps, 2 per layer, 32 layers, 128 steps.
    CHECK(tp_cpu > 2 * tp_switch);
    CHECK(tp_cpu == doctest::Approx(128 * 2 * 32 * 6 * 10e-6).epsilon(0.01));
    // GeForce cards go through host memory on any host.
    job.pcie_host = PcieHost::pcie_switch;
    const GpuSpec& r4090 = gpu("RTX 4090");
    const double g_switch = term_seconds(estimate_inference(job, r4090), "decode: tensor-parallel all-reduces");
    job.pcie_host = PcieHost::root_complex;
    CHECK(term_seconds(estimate_inference(job, r4090), "decode: tensor-parallel all-reduces") == doctest::Approx(g_switch));
  }

  TEST_CASE("inference: pipeline stages pass each token's hidden state and residual, between nodes over the fabric") {
    // Where the boundaries lie: TP groups inside a node, whole stages to a node.
    CHECK(stage_boundaries(1, 1, 0).within + stage_boundaries(1, 1, 0).across == 0);
    CHECK(stage_boundaries(1, 4, 0).within == 3);
    CHECK(stage_boundaries(1, 4, 0).across == 0);
    CHECK(stage_boundaries(2, 4, 4).stages_per_node == 2);
    CHECK(stage_boundaries(2, 4, 4).across == 1);
    CHECK(stage_boundaries(2, 4, 4).within == 2);
    CHECK(stage_boundaries(1, 3, 1).across == 2);
    CHECK(stage_boundaries(1, 5, 2).across == 2);  // nodes of 2, 2, 1 stages
    // Stages of TP 4 on nodes of 6: one stage a node (its other 2 GPUs idle), 3 nodes, not ceil(12 / 6).
    CHECK(stage_boundaries(4, 3, 6).nodes == 3);
    CHECK(stage_boundaries(4, 3, 6).node_gpus == 4);
    CHECK(stage_boundaries(4, 3, 6).within == 0);
    CHECK(stage_boundaries(2, 4, 8).nodes == 1);
    CHECK(stage_boundaries(2, 4, 8).node_gpus == 8);
    CHECK(stage_boundaries(1 << 20, 1 << 20, 0).node_gpus == (1LL << 40));  // no int overflow

    InferenceJob job;
    job.model = validation::gpt("7b", 32, 4096, 32, 32000, 2048);
    job.prompt = 1000;
    job.generate = 100;
    const GpuSpec& r4090 = gpu("RTX 4090");
    const InferenceEstimate one = estimate_inference(job, r4090);
    // Two desktops of one card each over 10 GbE: 70 % of 1.25 GB/s, 30 us a message.
    job.pp = 2;
    job.gpus_per_node = 1;
    job.inter = find_fabric("eth-10").link(1);
    const InferenceEstimate two = estimate_inference(job, r4090);
    const double token_bytes = 2.0 * 4096 * 2;  // hidden state and residual, fp16
    const double rate = 10e9 / 8 * 0.70;
    CHECK(term_seconds(two, "prefill: pipeline stage transfers") == doctest::Approx(30e-6 + 1000 * token_bytes / rate).epsilon(1e-12));
    CHECK(term_seconds(two, "decode: pipeline stage transfers") == doctest::Approx(100 * (30e-6 + token_bytes / rate)).epsilon(1e-12));
    // Everything else is TP 1's over the whole model.
    CHECK(two.prefill.value() - one.prefill.value() == doctest::Approx(30e-6 + 1000 * token_bytes / rate).epsilon(1e-9));
    CHECK(two.decode_step.value() - one.decode_step.value() == doctest::Approx(30e-6 + token_bytes / rate).epsilon(1e-9));
    CHECK(two.explain().find("1 boundary (1 between nodes over Ethernet)") != std::string::npos);
    // The same two cards in one box: through host memory (GeForce has no peer-to-peer), far faster.
    job.gpus_per_node = 0;
    const InferenceEstimate box = estimate_inference(job, r4090);
    CHECK(term_seconds(box, "prefill: pipeline stage transfers") > 0);
    CHECK(term_seconds(box, "prefill: pipeline stage transfers") < term_seconds(two, "prefill: pipeline stage transfers") / 10);
    CHECK(box.explain().find("inside a node over PCIe through host memory") != std::string::npos);
    // TP 2 stages: each rank sends half, the next stage all-gathers the whole.
    job.tp = 2;
    job.gpus_per_node = 2;
    job.inter = find_fabric("eth-10").link(2);
    const double bytes = 1000 * token_bytes;
    const Cluster node = make_cluster(r4090, 2, 2, Link{});
    // Half the bytes on each GPU's half of the port (30 us + bytes / rate), then a ring all-gather of 2
    // through host memory (NCCL's SHM: 31.5 GB/s x 0.556 a direction, Simple protocol) to the next stage.
    const double gather = comm::ring_all_gather(bytes, 2, node.intra_for(2));
    CHECK(gather > bytes / 2 / (31.5e9 * 0.6));
    CHECK(gather < bytes / 2 / (31.5e9 * 0.5) + 100e-6);
    CHECK(term_seconds(estimate_inference(job, r4090), "prefill: pipeline stage transfers") ==
          doctest::Approx(30e-6 + bytes / rate + gather).epsilon(1e-9));
    // Bad layouts name their field.
    InferenceJob bad = job;
    bad.gpus_per_node = 1;
    CHECK(field_of([&] { (void)estimate_inference(bad, r4090); }) == "tp");
    bad = job;
    bad.inter = Link{};
    CHECK(field_of([&] { (void)estimate_inference(bad, r4090); }) == "inter.bandwidth");
    bad = job;
    bad.inter.latency = Duration::from_value(std::nan(""));
    CHECK(field_of([&] { (void)estimate_inference(bad, r4090); }) == "inter.latency");
    bad.gpus_per_node = -1;
    CHECK(field_of([&] { (void)estimate_inference(bad, r4090); }) == "gpus_per_node");
    bad = job;
    bad.pp = 0;
    CHECK(field_of([&] { (void)estimate_inference(bad, r4090); }) == "pp");
    bad.pp = 33;  // more stages than the 32 layers
    CHECK(field_of([&] { (void)estimate_inference(bad, r4090); }) == "pp");
    // Inside a node each boundary takes its own link: NVLink-bridged A100 PCIe pairs (0-1, 2-3) pass
    // the 0-1 and 2-3 boundaries over the bridge and the 1-2 one over PCIe.
    InferenceJob bridged;
    bridged.model = job.model;
    bridged.prompt = 1000;
    bridged.generate = 100;
    bridged.pp = 4;
    const InferenceEstimate br = estimate_inference(bridged, gpu("A100 PCIe 80GB"));
    CHECK(br.explain().find("3 boundaries (2 inside a node over NVLink, 1 inside a node over PCIe") != std::string::npos);
  }

  TEST_CASE("serving_run: stages beyond a node cross serving_fabric; TP stays in one node") {
    const TransformerShape m = find_model("llama3.1-70b").transformer();
    const GpuSpec& r4090 = gpu("RTX 4090");
    ServingLoad load;
    load.weights = formats::q4_0;
    load.prompt = 4000;
    load.gpus_per_node = 1;
    CHECK(serving_fabric(r4090, load).id == "eth-10");
    CHECK(serving_fabric(gpu("H100 SXM"), load).id == "ib-ndr");
    CHECK(serving_fabric(gpu("A100 SXM 80GB"), load).id == "ib-hdr");
    const ServingRun across = serving_run(m, r4090, load, 1, 2);
    CHECK(term_seconds(across.estimate, "prefill: pipeline stage transfers") == doctest::Approx(30e-6 + 4000 * 2.0 * 8192 * 2 / (1.25e9 * 0.7)));
    // A stage of TP 2 on an 8-GPU node with one 10 GbE port: its 2 senders share the port, not 8 (stages
    // run one at a time, so the node's other GPUs send nothing meanwhile).
    ServingLoad eight = load;
    eight.gpus_per_node = 8;
    const GpuSpec& r4080 = gpu("RTX 4080");
    const ServingRun wide = serving_run(m, r4080, eight, 2, 5);  // stages of 2 GPUs: 4 to a node, 2 nodes
    const double bytes = 4000 * 2.0 * 8192 * 2;
    const double across_term = term_seconds(wide.estimate, "prefill: pipeline stage transfers");
    CHECK(across_term > 30e-6 + bytes / 2 / (1.25e9 / 2 * 0.7));
    CHECK(across_term < 30e-6 + bytes / 2 / (1.25e9 / 8 * 0.7));
    CHECK(field_of([&] { (void)serving_run(m, r4090, load, 2, 2); }) == "tp");
    ServingLoad none = load;
    none.fabric = find_fabric("none");
    CHECK(field_of([&] { (void)serving_run(m, r4090, none, 1, 2); }) == "fabric");
    // On one node nothing crosses a network, even without one.
    none.gpus_per_node = 2;
    CHECK(term_seconds(serving_run(m, r4090, none, 1, 2).estimate, "prefill: pipeline stage transfers") > 0);
    // The fewest GPUs keep TP inside the node: pipeline stages across desktops.
    const auto fewest = smallest_serving_run(m, r4090, load);
    REQUIRE(fewest);
    CHECK(fewest->tp == 1);
    CHECK(fewest->pp >= 2);
    ServingLoad bad = load;
    bad.gpus_per_node = -1;
    CHECK(field_of([&] { bad.validate(); }) == "gpus_per_node");
  }

  TEST_CASE("inference: CUDA graphs cut each decode kernel's launch to 70/260 of eager (CUDA.jl, Graphs)") {
    InferenceJob job;
    job.model = validation::gpt("7b", 32, 4096, 32, 32000, 2048);
    job.prompt = 512;
    job.generate = 128;
    const GpuSpec& a100 = gpu("A100 SXM 80GB");
    InferenceOptions graphs;
    graphs.cuda_graphs = true;
    const InferenceEstimate eager = estimate_inference(job, a100);
    const InferenceEstimate graphed = estimate_inference(job, a100, {}, graphs);
    // 128 steps x 32 layers x 20 kernels x 4 us eager.
    CHECK(term_seconds(eager, "decode: kernel launches") == doctest::Approx(128 * 32 * 20 * 4e-6));
    CHECK(term_seconds(graphed, "decode: kernel launches") == doctest::Approx(term_seconds(eager, "decode: kernel launches") * 70.0 / 260.0));
    CHECK(eager.decode_step.value() - graphed.decode_step.value() == doctest::Approx(32 * 20 * 4e-6 * (1 - 70.0 / 260.0)));
    CHECK(graphed.prefill.value() == doctest::Approx(eager.prefill.value()));  // prefill: a few large kernels, as before
    CHECK(graphed.explain().find("(CUDA graph)") != std::string::npos);
  }

  TEST_CASE("inference: eager PyTorch serving waits on Python's kernel launches where they take longer") {
    InferenceJob job;
    job.model = validation::gpt("7b", 32, 4096, 32, 32000, 2048);
    job.prompt = 64;
    job.generate = 16;
    const GpuSpec& h200 = gpu("H200");
    InferenceOptions eager;
    eager.eager = true;
    const InferenceEstimate fused = estimate_inference(job, h200);
    const InferenceEstimate e = estimate_inference(job, h200, {}, eager);
    // The eager layer's kernels (31 for this layer), 8 around the layers, each launched at the fitted rate.
    double per_layer = 0;
    LayerOptions le;
    le.flash_attention = true;
    le.dropout = false;
    le.eager = true;
    for (const Op& op : transformer_layer_forward(job.model, 1, 1, 1, job.compute_precision, le)) per_layer += op.kernels;
    const double host = (32 * per_layer + eager_model_kernels) * eager_inference_host_seconds_per_kernel;
    CHECK(per_layer > 20);
    // A short prompt and a batch-1 step: the host is the longer, so both are its time.
    CHECK(e.prefill.value() == doctest::Approx(host));
    CHECK(e.decode_step.value() == doctest::Approx(host));
    CHECK(e.prefill.value() > fused.prefill.value());
    CHECK(e.breakdown.text().find("prefill: waiting on the host's kernel launches") != std::string::npos);
    CHECK(e.breakdown.text().find("decode: waiting on the host's kernel launches") != std::string::npos);
    // The terms add up to the total.
    double sum = 0;
    for (const auto& t : e.breakdown.terms) sum += t.time.value();
    CHECK(sum == doctest::Approx(e.total.value()));
    // A long prompt is the GPU's: the same time as without --eager, and no waiting term for it.
    job.prompt = 8192;
    const InferenceEstimate long_fused = estimate_inference(job, h200);
    const InferenceEstimate long_eager = estimate_inference(job, h200, {}, eager);
    CHECK(long_eager.prefill.value() == doctest::Approx(long_fused.prefill.value()));
    CHECK(long_eager.breakdown.text().find("prefill: waiting on the host") == std::string::npos);
    // Tensor parallelism: each layer also launches its two all-reduces.
    job.prompt = 64;
    job.tp = 2;
    const InferenceEstimate tp2 = estimate_inference(job, h200, {}, eager);
    double per_rank = 0;
    for (const Op& op : transformer_layer_forward(job.model, 1, 1, 2, job.compute_precision, le)) per_rank += op.kernels;
    CHECK(tp2.prefill.value() == doctest::Approx((32 * (per_rank + 2) + eager_model_kernels) * eager_inference_host_seconds_per_kernel));
    job.tp = 1;
    // Not with CUDA graphs, which replay the kernels without Python; not for a mixture of experts,
    // whose eager layer loops over its experts in Python (not counted).
    InferenceJob moe = job;
    moe.model.moe = MoeShape{8, 2, 0, 14336, 0, 0, 0};
    CHECK(field_of([&] { (void)estimate_inference(moe, h200, {}, eager); }) == "eager");
    eager.cuda_graphs = true;
    CHECK(field_of([&] { (void)estimate_inference(job, h200, {}, eager); }) == "eager");
    eager.cuda_graphs = false;
    // A user's host: the launch time given, the host's wait scaled by it and the explanation saying so.
    InferenceOptions fast = eager;
    fast.eager_launch_seconds = 18e-6;
    const InferenceEstimate quick = estimate_inference(job, h200, {}, fast);
    CHECK(quick.prefill.value() == doctest::Approx(std::max(fused.prefill.value(), host * 18e-6 / eager_inference_host_seconds_per_kernel)));
    CHECK(quick.breakdown.text().find("x 18 µs (given)") != std::string::npos);
    CHECK(e.breakdown.text().find("(given)") == std::string::npos);
    // Its prior, 0: the GPU's time alone, as without eager launches.
    fast.eager_launch_seconds = 0;
    CHECK(estimate_inference(job, h200, {}, fast).prefill.value() < 0.5 * e.prefill.value());
    CHECK(estimate_inference(job, h200, {}, fast).breakdown.text().find("waiting on the host") == std::string::npos);
    for (double bad : {-1e-6, 2e-3, std::nan("")}) {
      fast.eager_launch_seconds = bad;
      CHECK(field_of([&] { (void)estimate_inference(job, h200, {}, fast); }) == "eager_launch_seconds");
    }
  }

  TEST_CASE("inference: each weight matmul of a decode step pays the measured 12 us ramp and tail") {
    // Calibration (validation/measured/*.json, gemm "decode" rows, 1-64 token rows): a cuBLAS BF16 GEMV of
    // a 4096 x 28672 weight took 91.3 us on the H100 SXM where 235 MB at 0.88 x 3.35 TB/s is 79.7 us.
    InferenceJob job;
    job.model = validation::gpt("7b", 32, 4096, 32, 32000, 2048);
    job.prompt = 512;
    job.generate = 128;
    const GpuSpec& h100 = gpu("H100 SXM");
    const InferenceEstimate est = estimate_inference(job, h100);
    // 32 layers x 4 matmuls (QKV, output, gate-up, down) + the logits, 12 us each, every step.
    CHECK(weight_matmuls_per_layer == 4);
    CHECK(term_seconds(est, "decode: weight-matmul ramp and tail") == doctest::Approx(128 * (32 * 4 + 1) * 12e-6));
    EfficiencyModel none;
    none.weight_stream_latency = from_canonical<Duration>(0.0);
    const InferenceEstimate without = estimate_inference(job, h100, none);
    CHECK(est.decode_step.value() - without.decode_step.value() == doctest::Approx((32 * 4 + 1) * 12e-6));
    CHECK(est.explain().find("ramp and tail") != std::string::npos);
    // Bad values name the field.
    EfficiencyModel bad;
    bad.weight_stream_latency = from_canonical<Duration>(-1e-6);
    CHECK_THROWS_WITH_AS(estimate_inference(job, h100, bad), doctest::Contains("weight_stream_latency"), InputError);
    bad.weight_stream_latency = from_canonical<Duration>(0.5);
    CHECK_THROWS_WITH_AS(estimate_inference(job, h100, bad), doctest::Contains("above 1 ms"), InputError);
  }

  TEST_CASE("inference: a GPU with no compute rate decodes from its memory traffic alone, with no prefill") {
    // Apple publishes no FLOP/s for the M2 Ultra (catalog note): the decode step is the bytes it reads at
    // 0.88 x 800 GB/s, the weight matmuls' 12 us and the kernels' 4 us; the prefill is not estimated.
    InferenceJob job;
    job.model = validation::gpt("7b", 32, 4096, 32, 32000, 2048);
    job.prompt = 512;
    job.generate = 128;
    const GpuSpec& m2 = gpu("M2 Ultra");
    REQUIRE_FALSE(m2.dense.at(Precision::fp16));
    const InferenceEstimate est = estimate_inference(job, m2);
    CHECK_FALSE(est.compute_timed);
    CHECK(est.prefill.value() == 0);
    CHECK(est.total.value() == doctest::Approx(128 * est.decode_step.value()));
    CHECK(est.decode_bound == Bound::memory);
    const double bandwidth = 800e9 * 0.88;
    // The weights each step streams plus 8 activation vectors of 4,096 fp16 values a layer.
    const double weight_bytes = est.weight_bytes_per_gpu.value() + 32.0 * 4096 * 2 * 8;
    CHECK(term_seconds(est, "decode: weight matmuls") == doctest::Approx(128 * weight_bytes / bandwidth));
    CHECK(term_seconds(est, "decode: weight-matmul ramp and tail") == doctest::Approx(128 * (32 * 4 + 1) * 12e-6));
    CHECK(term_seconds(est, "decode: kernel launches") == doctest::Approx(128 * 32 * 20 * 4e-6));
    CHECK(term_seconds(est, "prefill (time to first token)") < 0);  // no such term
    CHECK(est.explain().find("if memory-bound") != std::string::npos);
    CHECK(est.explain().find("time to first token not estimated") != std::string::npos);
    // The same part with an fp16 rate too large to matter decodes in the same time: only the math was left out.
    GpuSpec rated = m2;
    rated.dense.set(Precision::fp16, from_canonical<FlopRate>(1e21));
    const InferenceEstimate timed = estimate_inference(job, rated);
    CHECK(timed.compute_timed);
    CHECK(timed.prefill.value() > 0);
    CHECK(timed.decode_step.value() == doctest::Approx(est.decode_step.value()).epsilon(1e-6));
    // Quantized matmuls need rates: refused, naming the field.
    job.matmul_precision = Precision::fp8;
    CHECK_THROWS_WITH_AS(estimate_inference(job, m2), doctest::Contains("matmul_precision"), InputError);
    // serving_run keeps FP16 activations on such a part and says the same.
    ServingLoad load;
    load.weights = formats::q8_0;
    const ServingRun run = serving_run(job.model, gpu("DGX Spark"), load);
    CHECK_FALSE(run.estimate.compute_timed);
    CHECK(run.estimate.tokens_per_second > 0);
    CHECK(run.fit.fits);
  }

  TEST_CASE("inference: an encoder (BERT) serves one forward pass a request, attention over every pair, no KV cache or decode") {
    const TransformerShape bert = find_model("bert-large").transformer();
    REQUIRE(bert.encoder);
    const GpuSpec& t4 = gpu("T4");
    InferenceJob job;
    job.model = bert;
    job.batch = 8;
    job.prompt = 512;
    // It generates nothing: generate must be 0, and the prompt is the request.
    CHECK_THROWS_WITH_AS(estimate_inference(job, t4), doctest::Contains("generate"), InputError);
    job.generate = 0;
    const InferenceEstimate est = estimate_inference(job, t4);
    CHECK(est.encoder);
    CHECK(est.decode_step.value() == 0);
    CHECK(est.total.value() == est.prefill.value());
    CHECK(est.kv_cache_bytes_per_gpu.value() == 0);
    CHECK(est.tokens_per_second == doctest::Approx(8.0 * 512 / est.prefill.value()));
    CHECK(term_seconds(est, "forward pass") == doctest::Approx(est.prefill.value()));
    CHECK(term_seconds(est, "decode: weight matmuls") < 0);  // no decode terms
    CHECK(est.explain().find("input tokens/s") != std::string::npos);
    // The same shape as a causal decoder: its flash-attention kernel skips the masked half, and its
    // prefill adds the last token's logits; the encoder runs every pair and no output head.
    const auto flash_flops = [&](const TransformerShape& shape) {
      LayerOptions lo;
      lo.flash_attention = true;
      lo.dropout = false;
      for (const Op& op : transformer_layer_forward(shape, 8 * 512, 512, 1, Precision::fp16, lo))
        if (op.kind == OpKind::flash_attention) return op.flops;
      return 0.0;
    };
    TransformerShape decoder = bert;
    decoder.encoder = false;
    CHECK(flash_flops(bert) == doctest::Approx(2 * flash_flops(decoder)));
    InferenceJob causal = job;
    causal.model = decoder;
    causal.generate = 1;
    const InferenceEstimate dec = estimate_inference(causal, t4);
    CHECK_FALSE(dec.encoder);
    CHECK(dec.kv_cache_bytes_per_gpu.value() > 0);
    // Memory: no KV cache for the encoder, whatever the context.
    InferenceConfig c;
    c.context = 512;
    c.sequences = 8;
    CHECK(inference_budget(bert, c).kv_cache.size.value() == 0);
    CHECK(inference_budget(decoder, c).kv_cache.size.value() > 0);
    // serving_run: output 0 for the encoder (and only for it); a GPU without a rate is refused.
    ServingLoad load;
    load.batch = 8;
    CHECK_THROWS_WITH_AS(serving_run(bert, t4, load), doctest::Contains("encoder"), InputError);
    load.output = 0;
    const ServingRun run = serving_run(bert, t4, load);
    CHECK(run.estimate.encoder);
    CHECK(run.fit.fits);
    CHECK_THROWS_WITH_AS(serving_run(decoder, t4, load), doctest::Contains("output"), InputError);
    CHECK_THROWS_WITH_AS(serving_run(bert, gpu("M2 Ultra"), load), doctest::Contains("encoder's forward pass"), InputError);
  }

  TEST_CASE("inference: a quantized checkpoint's wider output head is streamed at its width (memory/formats.hpp checkpoint_ends)") {
    InferenceJob job;
    job.model = find_model("llama3.1-8b").transformer();
    job.weight_bytes_per_parameter = formats::int4.bytes_per_value();
    const GpuSpec& g = gpu("RTX 4090");
    const double flat = estimate_inference(job, g).weight_bytes_per_gpu.value();
    job.head_weight_bytes_per_parameter = 2;  // AWQ keeps lm_head in 16 bits
    const double wide = estimate_inference(job, g).weight_bytes_per_gpu.value();
    const double head = 128256.0 * 4096;
    CHECK(wide - flat == doctest::Approx(head * (2 - 4.15625 / 8)));
    // serving_run sets it from the format: bf16 for int4, Q6_K for q4_0, nothing for bf16 or q8_0.
    ServingLoad load;
    load.weights = formats::int4;
    CHECK(serving_run(job.model, g, load).estimate.weight_bytes_per_gpu.value() == doctest::Approx(wide));
    load.weights = formats::q4_0;
    job.weight_bytes_per_parameter = 4.5 / 8;
    job.head_weight_bytes_per_parameter = 6.5625 / 8;
    CHECK(serving_run(job.model, g, load).estimate.weight_bytes_per_gpu.value() ==
          doctest::Approx(estimate_inference(job, g).weight_bytes_per_gpu.value()));
    job.head_weight_bytes_per_parameter = -1;
    CHECK_THROWS_WITH_AS(estimate_inference(job, g), doctest::Contains("head_weight_bytes_per_parameter"), InputError);
  }

  TEST_CASE("sliding-window attention: the fused kernel runs the band; time, KV cache and decode follow") {
    // A windowed layer's flash kernel runs w^2/2 + (s - w) w query-key pairs (the causal s^2/2 at w = s).
    TransformerShape s = gpt(4, 2048, 16);
    s.seq_len = 8192;
    LayerOptions o;
    o.flash_attention = true;
    o.dropout = false;
    const auto flash_flops = [&](std::int64_t window) {
      o.window = window;
      for (const Op& op : transformer_layer_forward(s, 8192, 8192, 1, Precision::bf16, o))
        if (op.kind == OpKind::flash_attention) return op.flops;
      return 0.0;
    };
    const double per_pair = 4.0 * 2048;  // 2 (QK^T) + 2 (PV) x heads x head_dim
    CHECK(flash_flops(0) == per_pair * 8192.0 * 8192 / 2);
    CHECK(flash_flops(1024) == per_pair * (1024.0 * 1024 / 2 + (8192.0 - 1024) * 1024));
    CHECK(flash_flops(8192) == flash_flops(0));
    CHECK(flash_flops(100000) == flash_flops(0));

    // Training: a window wider than the sequence changes nothing; a narrow one saves attention time.
    const GpuSpec& h100 = gpu("H100 SXM");
    TrainingJob job;
    job.model = s;
    job.global_batch = 64;
    ParallelPlan plan;
    plan.dp = 8;
    const Cluster c = make_cluster(h100, 8, 8, infiniband(50_GBps));
    const TrainingEstimate dense = estimate_training(job, plan, c);
    job.model.window = SlidingWindow{8192, 2};
    CHECK(estimate_training(job, plan, c).iteration.value() == dense.iteration.value());
    job.model.window = SlidingWindow{512, 2};
    const TrainingEstimate half = estimate_training(job, plan, c);
    job.model.window = SlidingWindow{512, 0};
    const TrainingEstimate all = estimate_training(job, plan, c);
    CHECK(half.iteration.value() < dense.iteration.value());
    CHECK(all.iteration.value() < half.iteration.value());
    // The model FLOPs count the band too (compute/flops.hpp).
    CHECK(all.model_flops.value() < half.model_flops.value());
    CHECK(half.model_flops.value() < dense.model_flops.value());

    // Serving Mistral 7B v0.1 (window 4,096 in every layer): a 512 + 128 request never leaves the window.
    InferenceJob inf;
    inf.model = find_model("mistral-7b").transformer();
    inf.prompt = 512;
    inf.generate = 128;
    inf.batch = 8;
    const InferenceEstimate mw = estimate_inference(inf, h100);
    inf.model.window.reset();
    const InferenceEstimate md = estimate_inference(inf, h100);
    CHECK(mw.prefill.value() == md.prefill.value());
    CHECK(mw.decode_step.value() == doctest::Approx(md.decode_step.value()).epsilon(1e-12));
    CHECK(mw.kv_cache_bytes_per_gpu.value() == doctest::Approx(md.kv_cache_bytes_per_gpu.value()).epsilon(1e-12));

    // gpt-oss-20b at 8,192 + 256 tokens: the 12 windowed layers keep and read 128 tokens; the cache
    // equals memory/kv_cache.hpp's, and prefill and decode are faster than with every layer global.
    inf.model = find_model("gpt-oss-20b").transformer();
    inf.prompt = 8192;
    inf.generate = 256;
    const InferenceEstimate ow = estimate_inference(inf, h100);
    CHECK(ow.kv_cache_bytes_per_gpu.value() == doctest::Approx(kv_cache_memory(inf.model, 8448, 8).value()).epsilon(1e-12));
    inf.model.window.reset();
    const InferenceEstimate od = estimate_inference(inf, h100);
    CHECK(ow.kv_cache_bytes_per_gpu.value() < 0.52 * od.kv_cache_bytes_per_gpu.value());
    CHECK(ow.prefill.value() < od.prefill.value());
    CHECK(ow.decode_step.value() < od.decode_step.value());

    // MXFP4 experts: a batch-1 decode step reads its 4 of 128 experts per layer at 4.25 bits instead of 16;
    // attention and the output head stay BF16 (and then dominate: 1.5B of the 5.1B active weights).
    inf.model = find_model("gpt-oss-120b").transformer();
    inf.batch = 1;
    inf.prompt = 1000;
    inf.generate = 100;
    const InferenceEstimate bf = estimate_inference(inf, h100);
    inf.expert_weight_bytes_per_parameter = formats::mxfp4.bytes_per_value();
    const InferenceEstimate mx = estimate_inference(inf, h100);
    const double experts_read = parameter_sizes(inf.model).expert * 4.0 / 128.0;
    CHECK(bf.weight_bytes_per_gpu.value() - mx.weight_bytes_per_gpu.value() == doctest::Approx(experts_read * (2.0 - 4.25 / 8)));
    CHECK(mx.decode_step.value() < bf.decode_step.value());
  }

  TEST_CASE("attention kernels: FlashAttention-3 and cuDNN at their published Hopper rates; named in the explanation") {
    // Shah et al. 2024 (FlashAttention-3), Figs. 5-6, H100 SXM5, head dim 128, 16K tokens: FA2 335 / 322 TF/s,
    // FA3 616 / 561, cuDNN 539 / 516 (forward causal / backward), against a best GEMM of 794.5 TF/s.
    const GpuSpec& h100 = gpu("H100 SXM");
    const DeviceRates r = device_rates(h100, Precision::bf16);
    CHECK(attention_kernel_rates(AttentionKernel::flash2, r).first == 0.42);
    CHECK(attention_kernel_rates(AttentionKernel::flash3, r).first * 794.5 == doctest::Approx(616));
    CHECK(attention_kernel_rates(AttentionKernel::flash3, r).second * 794.5 == doctest::Approx(561));
    CHECK(attention_kernel_rates(AttentionKernel::cudnn, r).first * 794.5 == doctest::Approx(539));
    // The papers' rates and the best-case GEMM rate are short runs on a cool GPU; under a step's power cap
    // every compute-bound kernel runs at the one sustained factor (0.86 on Hopper; its form measured on an H200,
    // docs/performance-model.md, "Clocks under sustained load"), attention and GEMMs alike.
    EfficiencyModel cool;
    cool.sustained_clock = 1.0;
    const DeviceRates c1 = device_rates(h100, Precision::bf16, cool);
    CHECK(r.best_fraction == doctest::Approx(0.86 * c1.best_fraction));
    for (const AttentionKernel k : {AttentionKernel::flash2, AttentionKernel::flash3, AttentionKernel::cudnn}) {
      CHECK(attention_kernel_rates(k, r).first * r.best_fraction == doctest::Approx(0.86 * attention_kernel_rates(k, c1).first * c1.best_fraction));
      CHECK(attention_kernel_rates(k, r).second * r.best_fraction == doctest::Approx(0.86 * attention_kernel_rates(k, c1).second * c1.best_fraction));
    }
    CHECK(attention_kernel_rates(AttentionKernel::flash3, c1).first * c1.peak * c1.best_fraction == doctest::Approx(616e12).epsilon(0.001));
    // Where the factor comes from, as the explanation says it: measured on the 700 W H100 SXM and H200
    // SXM, assumed elsewhere (the H100 PCIe keeps Hopper's 0.86 unmeasured), given by the user.
    using Source = DeviceRates::ClockSource;
    CHECK(r.clock_source == Source::measured);
    CHECK(device_rates(gpu("H200"), Precision::bf16).clock_source == Source::measured);
    CHECK(device_rates(gpu("h100-pcie"), Precision::bf16).clock_source == Source::assumed);
    CHECK(device_rates(gpu("A100 SXM 80GB"), Precision::bf16).clock_source == Source::assumed);
    CHECK(c1.clock_source == Source::given);
    // Blackwell under its power cap: a B200's FlashAttention-4 fell from 1,450 to 1,237 TFLOP/s back to back
    // (flashinfer pull request 2899), a published figure; the GB200 (the same die) is assumed to keep as
    // much; B300 and GB300 keep the unmeasured 0.90.
    const DeviceRates b200 = device_rates(gpu("b200"), Precision::bf16);
    CHECK(b200.sustained_clock == doctest::Approx(1237.0 / 1450.0));
    CHECK(b200.clock_source == Source::published);
    CHECK(b200.best_fraction == doctest::Approx(1745.0 / 2250 * 1237.0 / 1450.0));
    const DeviceRates gb200 = device_rates(gpu("gb200"), Precision::fp8);
    CHECK(gb200.sustained_clock == doctest::Approx(1237.0 / 1450.0));
    CHECK(gb200.clock_source == Source::assumed);
    CHECK(gb200.best_fraction == doctest::Approx(3615.6 / 5000 * 1237.0 / 1450.0));
    CHECK(device_rates(gpu("b300"), Precision::bf16).sustained_clock == 0.90);
    CHECK(device_rates(gpu("b300"), Precision::bf16).clock_source == Source::assumed);
    CHECK(device_rates(gpu("gb300"), Precision::bf16).clock_source == Source::assumed);
    {
      // A user's GPU whose name says nothing of Blackwell keeps the default.
      GpuSpec mine = gpu("b200");
      mine.id = "my-accelerator";
      mine.name = "My accelerator";
      mine.aliases.clear();
      CHECK(device_rates(mine, Precision::bf16).sustained_clock == 0.90);
    }
    // The explanation says where the factor comes from.
    TrainingJob bj;
    bj.model = find_model("llama3.1-8b").transformer();
    bj.global_batch = 64;
    ParallelPlan bp;
    bp.dp = 8;
    const TrainingEstimate be = estimate_training(bj, bp, make_cluster(gpu("b200"), 8, 8, Link{}));
    CHECK(be.explain().find("x 0.853 (measured by others) under a training step's power cap") != std::string::npos);
    EfficiencyModel stopped;
    stopped.sustained_clock = 0.0;
    CHECK(field_of([&] { (void)device_rates(h100, Precision::bf16, stopped); }) == "sustained_clock");
    TrainingJob job;
    job.model = find_model("llama3.1-8b").transformer();
    job.seq_len = 32768;
    job.global_batch = 16;
    ParallelPlan plan;
    plan.dp = 8;
    plan.recompute = Recompute::full;
    const Cluster c = make_cluster(h100, 8, 8, infiniband(50_GBps));
    Framework fw;
    const TrainingEstimate fa2 = estimate_training(job, plan, c, fw);
    fw.attention_kernel = AttentionKernel::cudnn;
    const TrainingEstimate cudnn = estimate_training(job, plan, c, fw);
    fw.attention_kernel = AttentionKernel::flash3;
    const TrainingEstimate fa3 = estimate_training(job, plan, c, fw);
    CHECK(fa3.iteration.value() < cudnn.iteration.value());
    CHECK(cudnn.iteration.value() < fa2.iteration.value());
    CHECK(fa3.explain().find("attention: FlashAttention-3,") != std::string::npos);
    CHECK(fa2.explain().find("attention: FlashAttention-2,") != std::string::npos);
    // Off Hopper: FlashAttention-3 does not run; cuDNN has no published rate, so FlashAttention-2's.
    const GpuSpec& a100 = gpu("A100 SXM 80GB");
    const Cluster ca = make_cluster(a100, 8, 8, infiniband(25_GBps));
    CHECK(field_of([&] { (void)estimate_training(job, plan, ca, fw); }) == "attention_kernel");
    fw.attention_kernel = AttentionKernel::cudnn;
    const TrainingEstimate a_cudnn = estimate_training(job, plan, ca, fw);
    fw.attention_kernel = AttentionKernel::flash2;
    CHECK(a_cudnn.iteration.value() == estimate_training(job, plan, ca, fw).iteration.value());
    CHECK(a_cudnn.explain().find("cuDNN fused attention (at FlashAttention-2's rates: none published for this GPU)") != std::string::npos);
  }

  TEST_CASE("inference: with TP above the KV heads, each GPU keeps a whole head (replicated, not split)") {
    // Known error fixed (fidelity issue, item 4): the decode model divided the KV cache by TP even when
    // TP exceeds the KV heads; GQA heads are replicated there (vLLM, Megatron), so a GPU of a TP-16
    // group serving an 8-KV-head model holds one head, as memory/kv_cache.hpp already counted.
    InferenceJob job;
    job.model = validation::gpt("gqa", 8, 8192, 64, 32000, 4096);
    job.model.kv_heads = 8;
    job.prompt = 1000;
    job.generate = 24;
    job.batch = 4;
    const GpuSpec& h100 = gpu("H100 SXM");
    const double per_token_per_head = 2.0 * 128 * 8 * 2;  // K and V x head_dim x layers x bf16 bytes
    for (int tp : {1, 2, 4, 8, 16, 32, 64}) {
      CAPTURE(tp);
      job.tp = tp;
      const InferenceEstimate e = estimate_inference(job, h100);
      const double heads = tp <= 8 ? 8.0 / tp : 1.0;
      CHECK(e.kv_cache_bytes_per_gpu.value() == doctest::Approx(4 * 1024 * per_token_per_head * heads));
      CHECK(e.kv_cache_bytes_per_gpu.value() ==
            doctest::Approx(kv_cache_memory(job.model, 1024, 4, formats::bf16, tp).value()));
    }
    CHECK(kv_heads_per_rank(8, 16) == 1);
    CHECK(kv_heads_per_rank(12, 8) == 2);
    CHECK(kv_heads_per_rank(8, 8) == 1);
    CHECK(kv_heads_per_rank(64, 8) == 8);
    CHECK(kv_heads_per_rank(1, 4) == 1);
  }

  TEST_CASE("CNN training: batch norm as PyTorch's channels-last kernels, residual adds and the max pool") {
    const ImageModel r50 = resnet50_v15();
    // 16 residual adds: each bottleneck's third convolution, a 1 x 1 after the block's 3 x 3; 4 projection
    // shortcuts with batch norm and no ReLU.
    int adds = 0, projections = 0;
    for (std::size_t i = 0; i < r50.convs.size(); ++i) {
      const ConvLayer& c = r50.convs[i];
      adds += c.residual ? c.count : 0;
      projections += c.relu ? 0 : c.count;
      if (c.residual) {
        REQUIRE(i > 0);
        CHECK(c.kernel == 1);
        CHECK(r50.convs[i - 1].kernel == 3);
        CHECK(c.out_channels == 4 * r50.convs[i - 1].out_channels);
        CHECK(c.relu);
      }
      if (!c.relu) CHECK_FALSE(c.residual);
    }
    CHECK(adds == 16);
    CHECK(projections == 4);
    // Each batch-norm kernel is a roofline of its own: on the H200 (its calibration GPU) bound by its
    // instructions at the fitted rate; on an RTX 4090 (far less bandwidth per SM) the normalize and
    // backward kernels are bound by their bytes, the statistics pass still by its SMs (128 of them).
    const double elements = 256.0 * 56 * 56 * 256;
    const perf::DeviceRates h200 = perf::device_rates(gpu("h200-sxm"), Precision::bf16);
    const auto [hf, hb] = perf::image_detail::batch_norm_relu_time(elements, 2, h200);
    const double v = elements * 2 / h200.bandwidth;
    CHECK(hf - 3 * h200.overhead == doctest::Approx(v / perf::bn_statistics_bandwidth_fraction + 2 * v / perf::bn_kernel_bandwidth_fraction + 2 * v));
    CHECK(hb - 3 * h200.overhead == doctest::Approx(3 * v + 5 * v / perf::bn_kernel_bandwidth_fraction));
    const perf::DeviceRates rtx = perf::device_rates(gpu("RTX 4090"), Precision::bf16);
    const auto [gf, gb] = perf::image_detail::batch_norm_relu_time(elements, 2, rtx);
    const double w = elements * 2 / rtx.bandwidth;
    const double stats = elements / (perf::bn_statistics_bandwidth_fraction * perf::bn_calibration_values_per_second * 128 / 132);
    CHECK(stats > w);
    CHECK(gf - 3 * rtx.overhead == doctest::Approx(stats + 4 * w));
    CHECK(gb - 3 * rtx.overhead == doctest::Approx(8 * w));
    // Batch norm alone (a projection shortcut): ReLU's 2 + 3 values and its two launches drop out.
    const auto [pf, pb] = perf::image_detail::batch_norm_relu_time(elements, 2, h200, false);
    CHECK(hf - pf == doctest::Approx(2 * v + h200.overhead));
    CHECK(hb - pb == doctest::Approx(3 * v + h200.overhead));
    // A GPU whose SM count capplan does not know: the bytes alone.
    perf::DeviceRates unknown = h200;
    unknown.sm_count_known = false;
    const auto [uf, ub] = perf::image_detail::batch_norm_relu_time(elements, 2, unknown);
    CHECK(uf - 3 * h200.overhead == doctest::Approx(5 * v));
    CHECK(ub - 3 * h200.overhead == doctest::Approx(8 * v));
    CHECK_FALSE(perf::device_rates(gpu("H20"), Precision::bf16).sm_count_known);
    // The adds and the pool by their bytes: 3 values an add; the pool's input (4 x its outputs) once,
    // its outputs with int64 indices, and backward about 2.25 windows' indices and gradients an input.
    CHECK(perf::image_detail::residual_add_time(elements, 2, h200) == doctest::Approx(elements * 6 / h200.bandwidth + h200.overhead));
    const double out = 256.0 * 56 * 56 * 64;
    const auto [mf, mb] = perf::image_detail::max_pool_time(r50, 256, 2, h200);
    CHECK(mf == doctest::Approx((4 * out * 2 + out * 10) / h200.bandwidth + h200.overhead));
    CHECK(mb == doctest::Approx((4 * out * 2 + 4 * out * 2.25 * 10) / h200.bandwidth + h200.overhead));
    // The step lists the adds and the pool; taking them out of the model takes their time off.
    const Cluster one = make_cluster(gpu("h200-sxm"), 1, 1, Link{});
    const ImageTrainingEstimate e = estimate_image_training(r50, 256, one, Precision::bf16);
    const std::string text = e.breakdown.text();
    CHECK(text.find("residual adds") != std::string::npos);
    CHECK(text.find("max pool") != std::string::npos);
    ImageModel bare = r50;
    for (ConvLayer& c : bare.convs) c.residual = false;
    bare.pool_indices = 0;
    const ImageTrainingEstimate b = estimate_image_training(bare, 256, one, Precision::bf16);
    CHECK(b.iteration.value() < e.iteration.value());
    CHECK(b.breakdown.text().find("residual adds") == std::string::npos);
    CHECK(b.breakdown.text().find("max pool") == std::string::npos);
    // In-house, the same configuration ran 54.8 ms a step (validation/measured/h200-2026-11-29-kernels.json,
    // image_profile): within 10 %.
    CHECK(e.iteration.value() == doctest::Approx(0.0548).epsilon(0.10));
  }

  TEST_CASE("CNN training and the data-loading check (NVMe vs HDD)") {
    const ImageModel r50 = resnet50_v15();
    // ResNet-50 at 224^2: 4.1 G multiply-adds forward (He et al. 2016, Table 1: 3.8e9 FLOPs counted as MACs, v1.5 ~4.1e9).
    CHECK(r50.forward_flops_per_sample() / 2 == doctest::Approx(4.1e9).epsilon(0.03));
    const Cluster one = make_cluster(gpu("A100 SXM 80GB"), 1, 8, infiniband(25_GBps));
    const ImageTrainingEstimate e = estimate_image_training(r50, 256, one);
    CHECK(e.flops_per_image.value() == doctest::Approx(3 * r50.forward_flops_per_sample()));
    CHECK(e.images_per_second > 0);
    // 8 x A100 need ~20,000 images/s: one HDD (~150 random reads/s) cannot feed them; 4 NVMe drives can.
    DataPipeline hdd;
    hdd.storage = hdd_7200rpm();
    hdd.cpu_cores = 128;
    const DataLoadingCheck h = check_data_loading(hdd, 20000);
    CHECK_FALSE(h.ok());
    CHECK(h.bottleneck() == "storage");
    CHECK(h.storage_limit == doctest::Approx(150));
    DataPipeline nvme;
    nvme.drives = 4;
    nvme.cpu_cores = 256;
    CHECK(check_data_loading(nvme, 20000).ok());
    // Too few CPU cores: the CPU is the bottleneck.
    DataPipeline weak;
    weak.cpu_cores = 8;
    CHECK(check_data_loading(weak, 20000).bottleneck() == "CPU");
    const Cluster eight = make_cluster(gpu("A100 SXM 80GB"), 8, 8, infiniband(25_GBps));
    const ImageTrainingEstimate fed = estimate_image_training(r50, 256, eight, Precision::fp16, {}, true, hdd);
    CHECK(fed.images_per_second == doctest::Approx(150));
    CHECK(fed.breakdown.text().find("waiting for input data") != std::string::npos);
    CHECK(field_of([&] { (void)check_data_loading(weak, -1); }) == "needed_samples_per_second");
  }

  TEST_CASE("MoE: routed experts cost top-k, expert parallelism adds all-to-alls") {
    TransformerShape dense = validation::gpt("dense", 32, 4096, 32, 32000, 4096);
    dense.kv_heads = 8;
    dense.ffn_hidden = 14336;
    dense.gated_mlp = true;
    TransformerShape moe = dense;
    moe.moe = MoeShape{8, 2, 0, 14336, 0, 0, 0};  // Mixtral-like: 8 experts, top-2 (Jiang et al. 2024)
    // Forward GEMM FLOPs of a top-2 MoE layer: the dense layer's FFN twice, plus the router.
    auto gemm_flops = [](const TransformerShape& sh) {
      double f = 0;
      for (const Op& op : transformer_layer_forward(sh, 4096, 4096, 1, Precision::bf16, {}))
        if (op.kind == OpKind::gemm) f += op.flops;
      return f;
    };
    const double ffn = 2.0 * 4096 * 3 * 4096.0 * 14336;
    CHECK(gemm_flops(moe) - gemm_flops(dense) == doctest::Approx(ffn + 2.0 * 4096 * 4096 * 8).epsilon(1e-9));
    TrainingJob job;
    job.model = moe;
    job.global_batch = 256;
    const Cluster c = make_cluster(gpu("H100 SXM"), 64, 8, infiniband(50_GBps));
    ParallelPlan p;
    p.dp = 64;
    p.zero_stage = ZeroStage::optimizer;
    const TrainingEstimate base = estimate_training(job, p, c, pytorch_fsdp());
    p.ep = 8;
    const TrainingEstimate ep8 = estimate_training(job, p, c, pytorch_fsdp());
    CHECK(ep8.explain().find("expert-parallel all-to-alls") != std::string::npos);
    CHECK(ep8.hardware_flops.value() == doctest::Approx(base.hardware_flops.value()));
    p.ep = 3;
    CHECK(field_of([&] { (void)estimate_training(job, p, c, pytorch_fsdp()); }) == "ep");
    job.model = dense;
    p.ep = 2;
    CHECK(field_of([&] { (void)estimate_training(job, p, c, pytorch_fsdp()); }) == "ep");
  }

  TEST_CASE("MoE capacity factor: experts compute and exchange c x a balanced share; rules") {
    const TransformerShape moe = mixtral_like();
    // The expert GEMMs' rows: tokens x k x ep / experts, times c (Switch Transformer §2.2 capacity).
    LayerOptions o;
    o.expert_parallel = 8;
    const auto expert_flops = [&](double c) {
      o.expert_capacity_factor = c;
      double f = 0;
      for (const Op& op : transformer_layer_forward(moe, 4096, 4096, 1, Precision::bf16, o))
        if (op.name.find("moe expert") != std::string::npos) f += op.flops;
      return f;
    };
    CHECK(expert_flops(1.25) == doctest::Approx(1.25 * expert_flops(1.0)).epsilon(1e-9));
    CHECK(expert_flops(2.0) == doctest::Approx(2.0 * expert_flops(1.0)).epsilon(1e-9));
    TrainingJob job;
    job.model = moe;
    job.global_batch = 256;
    const Cluster c = make_cluster(gpu("H100 SXM"), 64, 8, infiniband(50_GBps));
    ParallelPlan p;
    p.dp = 64;
    p.ep = 8;
    p.zero_stage = ZeroStage::optimizer;
    Framework fw = pytorch_fsdp();
    const TrainingEstimate balanced = estimate_training(job, p, c, fw);
    fw.moe_capacity_factor = 1.25;
    const TrainingEstimate padded = estimate_training(job, p, c, fw);
    // The all-to-alls move 1.25 x the bytes; at these sizes their time grows by nearly as much.
    const double a2a = term_seconds(balanced, "expert-parallel all-to-alls"), a2a_padded = term_seconds(padded, "expert-parallel all-to-alls");
    CHECK(a2a > 0);
    CHECK(a2a_padded > 1.2 * a2a);
    CHECK(a2a_padded <= 1.25 * a2a * (1 + 1e-9));
    CHECK(padded.iteration.value() > balanced.iteration.value());
    CHECK(padded.model_flops.value() == doctest::Approx(balanced.model_flops.value()));  // the model's work is the same
    // MFU and HFU count the model's work (compute/flops.hpp); the padding shows as time, so both drop.
    CHECK(padded.hardware_flops.value() == doctest::Approx(balanced.hardware_flops.value()));
    CHECK(padded.mfu < balanced.mfu);
    CHECK(padded.explain().find("buffers of capacity factor 1.25") != std::string::npos);
    // Rules: finite, above 0, at most 64.
    for (const double bad : {0.0, -1.0, 65.0, std::nan("")}) {
      fw.moe_capacity_factor = bad;
      CHECK(field_of([&] { (void)estimate_training(job, p, c, fw); }) == "moe_capacity_factor");
    }
  }

  TEST_CASE("MoE: dispatched tokens travel in BF16 under FP8; Megatron-Core's fitted dispatch-path time per routed value") {
    // Qwen3-30B-A3B-shaped: 128 experts of 768, top 8, hidden 2,048 (its config.json).
    TransformerShape q = validation::gpt("qwen3-30b-a3b-like", 48, 2048, 32, 151936, 4096);
    q.kv_heads = 4;
    q.head_dim = 128;
    q.ffn_hidden = 6144;
    q.gated_mlp = true;
    q.moe = MoeShape{128, 8, 0, 768, 0, 0, 0};
    TrainingJob job;
    job.model = q;
    job.global_batch = 512;
    const Cluster c = make_cluster(gpu("B200"), 8, 8, infiniband(50_GBps));
    ParallelPlan p;
    p.dp = 8;
    p.ep = 8;
    p.zero_stage = ZeroStage::optimizer;
    // The all-to-alls send hidden states: the same bytes in BF16 and FP8 training (Transformer Engine
    // quantizes inside the expert GEMM, after the dispatch); FP32 training sends 4 bytes.
    Framework fw = megatron_core();
    const auto a2a = [&](Precision prec) {
      job.precision = prec;
      return term_seconds(estimate_training(job, p, c, fw), "expert-parallel all-to-alls");
    };
    const double bf16 = a2a(Precision::bf16);
    CHECK(bf16 > 0);
    CHECK(a2a(Precision::fp8) == doctest::Approx(bf16).epsilon(1e-12));
    CHECK(a2a(Precision::fp4) == doctest::Approx(bf16).epsilon(1e-12));
    CHECK(a2a(Precision::fp32) > 1.5 * bf16);
    job.precision = Precision::fp8;

    // Megatron-Core runs the expert GEMMs one kernel per local expert (TE GroupedLinear), each paying
    // the kernel's fixed cost; others as one grouped kernel.
    CHECK(megatron_core().moe_gemm_per_expert);
    CHECK_FALSE(pytorch_fsdp().moe_gemm_per_expert);
    LayerOptions lo;
    lo.expert_parallel = 8;
    for (const bool per_expert : {false, true}) {
      lo.moe_gemm_per_expert = per_expert;
      int expert_ops = 0;
      for (const Op& op : transformer_layer_forward(q, 4096, 4096, 1, Precision::bf16, lo))
        if (op.name.find("moe expert") != std::string::npos) {
          CHECK(op.kernels == (per_expert ? 16 : 1));  // 128 experts / ep 8
          ++expert_ops;
        }
      CHECK(expert_ops == 2);
    }
    {
      Framework grouped = fw;
      grouped.moe_gemm_per_expert = false;
      grouped.moe_seconds_per_routed_value = 0;
      Framework launched = grouped;
      launched.moe_gemm_per_expert = true;
      // 2 GEMMs forward, their input and weight gradients backward: 6 x 15 more kernels (16, not 1) x 4 us per layer and micro-batch.
      const TrainingEstimate one = estimate_training(job, p, c, grouped), each = estimate_training(job, p, c, launched);
      CHECK(term_seconds(each, "forward") - term_seconds(one, "forward") == doctest::Approx(64 * 48 * 2 * 15 * 4e-6).epsilon(1e-6));
      CHECK(term_seconds(each, "backward") - term_seconds(one, "backward") == doctest::Approx(64 * 48 * 4 * 15 * 4e-6).epsilon(1e-6));
      // --explain names their fixed cost: 32 kernels forward (128 us), 64 backward (256 us); not where it is one grouped kernel.
      const std::string text = each.explain();
      CHECK(text.find("a MoE layer's 32 expert GEMM kernels (up and down, one per local expert of 16: Megatron-Core's GroupedLinear) pay 128 µs") != std::string::npos);
      CHECK(text.find("a MoE layer's 64 expert GEMM kernels (both gradients of up and down") != std::string::npos);
      CHECK(one.explain().find("expert GEMM kernels") == std::string::npos);
    }

    // The fitted constant: scripts/fit-moe-routed-time re-derives it from its calibration rows.
    CHECK(megatron_core().moe_seconds_per_routed_value == doctest::Approx(16.33e-12));
    CHECK(pytorch_fsdp().moe_seconds_per_routed_value == 0);
    CHECK(Framework{}.moe_seconds_per_routed_value == 0);
    // The term: micro-batches x layers x routed values x the constant, forward and backward.
    const TrainingEstimate with = estimate_training(job, p, c, fw);
    const double routed = 4096.0 * 8 * 2048;  // one micro-batch: tokens x k x hidden, this GPU's share at tp 1
    const double m = 512.0 / 8;               // micro-batches per GPU
    CHECK(term_seconds(with, "MoE dispatch path") == doctest::Approx(m * 48 * routed * 16.33e-12).epsilon(1e-9));
    CHECK(with.explain().find("67.11 M routed values (tokens x 8 experts x 2048 hidden) x 16.33 ps") != std::string::npos);
    Framework none = fw;
    none.moe_seconds_per_routed_value = 0;
    const TrainingEstimate without = estimate_training(job, p, c, none);
    CHECK(term_seconds(without, "MoE dispatch path") == -1.0);  // no such term
    CHECK(with.iteration.value() - without.iteration.value() == doctest::Approx(m * 48 * routed * 16.33e-12).epsilon(1e-6));
    CHECK(with.model_flops.value() == doctest::Approx(without.model_flops.value()));
    // Linear in the constant and in the routed tokens (micro-batch 2 routes twice the values).
    none.moe_seconds_per_routed_value = 2 * 16.33e-12;
    CHECK(term_seconds(estimate_training(job, p, c, none), "MoE dispatch path") ==
          doctest::Approx(2 * term_seconds(with, "MoE dispatch path")).epsilon(1e-9));
    ParallelPlan mb2 = p;
    mb2.micro_batch = 2;
    CHECK(term_seconds(estimate_training(job, mb2, c, fw), "MoE dispatch path") ==
          doctest::Approx(term_seconds(with, "MoE dispatch path")).epsilon(1e-9));  // half the micro-batches, twice the values
    // Recomputing the MoE layer runs its forward's third again.
    ParallelPlan rerun = p;
    rerun.recompute = Recompute::selective;
    rerun.recompute_modules = recompute_module::moe;
    CHECK(term_seconds(estimate_training(job, rerun, c, fw), "MoE dispatch path") ==
          doctest::Approx(4.0 / 3.0 * term_seconds(with, "MoE dispatch path")).epsilon(1e-9));
    // Without expert parallelism the router, permutation and casts still run: the same term (a plan
    // search must not drop ep to skip it).
    ParallelPlan local = p;
    local.ep = 1;
    CHECK(term_seconds(estimate_training(job, local, c, fw), "MoE dispatch path") ==
          doctest::Approx(term_seconds(with, "MoE dispatch path")).epsilon(1e-9));
    // Rules: 0 to 1 ns, finite.
    for (const double bad : {-1e-12, 2e-9, std::nan("")}) {
      Framework b = fw;
      b.moe_seconds_per_routed_value = bad;
      CHECK(field_of([&] { (void)estimate_training(job, p, c, b); }) == "moe_seconds_per_routed_value");
    }
  }

  TEST_CASE("memory: the plan NVIDIA published for Llama 3 70B on DGX H100 in FP8 fits, as it ran (Megatron-Core's saved tensors)") {
    // Megatron-Bridge 25.11: Llama 3 70B on 64 H100, TP 4 PP 8 VP 5, micro-batch 1, 8,192 tokens, FP8
    // current scaling, on 80 GB GPUs (validation/cases/megatron-bridge-h100-fp8.json). Counted with
    // Korthikanti's 16-bit tensors, dropout masks and an unfused SwiGLU (capplan before 2026-11-28)
    // the first stage needed 101.7 GB. Without masks (no dropout), with Megatron-Core's fused SwiGLU
    // and Transformer Engine's FP8 copies of the linear layers' inputs it fits (memory/activations.hpp),
    // at 79.4 GB: within the allocator's margin ("tight"), which the plan search skips unless allowed.
    Framework paper = megatron_core();
    paper.dropout = true;
    paper.fused_activation = false;
    const Cluster h100_64 = make_cluster(gpu("H100 SXM"), 64, 8, infiniband(50_GBps));
    const TrainingJob llama = llama3_70b_fp8_job();
    ParallelPlan p70;
    p70.tp = 4;
    p70.pp = 8;
    p70.dp = 2;
    p70.interleave = 5;
    p70.zero_stage = ZeroStage::optimizer;
    p70.sequence_parallel = true;
    const FitResult f70 = check_fit(plan_memory(llama, p70, megatron_core()), h100_64.gpu.capacity());
    CHECK(f70.fits);
    CHECK(f70.tight);
    // The same plan in BF16 keeps 2-byte linear inputs: more memory; counted as before, no fit.
    TrainingJob llama_bf16 = llama;
    llama_bf16.precision = Precision::bf16;
    CHECK(plan_memory(llama_bf16, p70, megatron_core()).total().value() > plan_memory(llama, p70, megatron_core()).total().value());
    CHECK_FALSE(check_fit(plan_memory(llama_bf16, p70, paper), h100_64.gpu.capacity()).fits);

  }

  // Llama 2 7B at 4,096 tokens, global batch 64, data-parallel over `dp` H100s under ZeRO 1 with full recomputation.
  struct DataParallelLlama {
    TrainingJob job;
    ParallelPlan plan;
    Cluster cluster;
    explicit DataParallelLlama(int dp) : cluster(make_cluster(gpu("H100 SXM"), dp, 8, infiniband(50_GBps))) {
      job.model = find_model("llama2-7b").transformer();
      job.global_batch = 64;
      job.seq_len = 4096;
      plan.dp = dp;
      plan.zero_stage = ZeroStage::optimizer;
      plan.recompute = Recompute::full;
    }
  };

  TEST_CASE("memory and time count the framework's gradient bytes alike (fidelity item 7)") {
    const DataParallelLlama run(8);
    const TrainingJob& job = run.job;
    const ParallelPlan& p = run.plan;
    const Cluster& c = run.cluster;
    const double n = static_cast<double>(parameter_count(job.model));
    for (const Framework& fw : {Framework{}, megatron_core(), pytorch_fsdp()}) {
      CAPTURE(fw.name);
      const PlanEstimate e = estimate_plan(job, p, c, fw);
      // Memory: gradients at the framework's bytes (unsharded under ZeRO 1).
      CHECK(e.memory.gradients.size.value() == doctest::Approx(fw.master_grad_bytes * n));
      // Time: the optimizer step reads the same gradient bytes, on its shard: fp32 weight, momentum and variance
      // read and written, and the bf16 copy written unless the fp32 parameters are the weights.
      const TrainingEstimate t = estimate_training(job, p, c, fw);
      const double shard = n / 8, bw = 0.88 * gpu("H100 SXM").memory_bandwidth.value();
      CHECK(term_seconds(t, "optimizer step") ==
            doctest::Approx(shard * (24 + fw.master_grad_bytes + (fw.fp32_params ? 0 : 2)) / bw + 4e-6).epsilon(1e-6));
    }
    // Megatron-Core's 6 + 12/d: 2 B weights, 4 B main gradients, 12 B of master weights and Adam states over 8 ranks.
    CHECK(plan_memory(job, p, megatron_core()).model_states().value() == doctest::Approx((6 + 12.0 / 8) * n));
    // The generic framework keeps the ZeRO paper's accounting: 2 + 2 + 12 / 8.
    CHECK(plan_memory(job, p, Framework{}).model_states().value() == doctest::Approx((4 + 12.0 / 8) * n));
    Framework bad;
    bad.master_grad_bytes = 3;
    CHECK(field_of([&] { (void)estimate_training(job, p, c, bad); }) == "master_grad_bytes");
  }

  TEST_CASE("gradients reduced in bf16: Megatron-Core's --grad-reduce-in-bf16 halves the reduction and keeps bf16 gradients") {
    const DataParallelLlama run(16);
    const TrainingJob& job = run.job;
    const ParallelPlan& p = run.plan;
    const Cluster& c = run.cluster;
    const double n = static_cast<double>(parameter_count(job.model));
    Framework fp32 = megatron_core();
    fp32.overlap_grad_reduce = false;  // the whole reduction exposed, so its bytes show in the time
    const Framework bf16 = reduce_gradients_in(fp32, Precision::bf16);
    CHECK(bf16.grad_reduce_bytes == 2);
    CHECK(bf16.master_grad_bytes == 2);
    CHECK(bf16.name == "Megatron-Core (Transformer Engine, bf16 gradients, reduced in bf16)");
    // Memory: 16 B per parameter, 4 + 12/d with the distributed optimizer (Megatron's 18 and 6 + 12/d less 2).
    CHECK(plan_memory(job, p, bf16).model_states().value() == doctest::Approx((4 + 12.0 / 16) * n));
    CHECK(plan_memory(job, p, fp32).model_states().value() == doctest::Approx((6 + 12.0 / 16) * n));
    // Time: the reduce-scatter sends half the bytes (the bf16 weight all-gather is the same), so the exposed
    // reduction is between half and the whole of the fp32 one.
    const double r32 = term_seconds(estimate_training(job, p, c, fp32), "data-parallel gradient reduction (exposed)");
    const double r16 = term_seconds(estimate_training(job, p, c, bf16), "data-parallel gradient reduction (exposed)");
    CHECK(r16 < r32);
    CHECK(r16 > 0.5 * r32);
    // Back to fp32 restores the preset; FSDP's fp32 parameters keep fp32 gradients, only the reduction changes.
    const Framework back = reduce_gradients_in(bf16, Precision::fp32);
    CHECK(back.grad_reduce_bytes == 4);
    CHECK(back.master_grad_bytes == 4);
    CHECK(back.name == megatron_core().name);
    const Framework fsdp = reduce_gradients_in(pytorch_fsdp(), Precision::bf16);
    CHECK(fsdp.grad_reduce_bytes == 2);
    CHECK(fsdp.master_grad_bytes == 4);
    CHECK(fsdp.name == pytorch_fsdp().name);
    CHECK(field_of([&] { (void)reduce_gradients_in(megatron_core(), Precision::fp8); }) == "grad_reduce");
  }

  TEST_CASE("vocabulary padding: Megatron pads to 128 x tp, in the output layer's time and in memory (configurations item 4)") {
    // Megatron-LM _vocab_size_with_padding: GPT-2's 50,257 tokens are 50,304 at tp 1 and 51,200 at tp 8,
    // the V = 51,200 of Narayanan et al. 2021.
    CHECK(padded_vocab(50257, 1, 128) == 50304);
    CHECK(padded_vocab(50257, 8, 128) == 51200);
    CHECK(padded_vocab(128256, 8, 128) == 129024);
    CHECK(padded_vocab(128256, 1, 128) == 128256);
    CHECK(padded_vocab(50257, 8, 1) == 50264);  // an even split over tp only
    CHECK(padded_vocab(50257, 8, 0) == 50257);  // not padded
    TrainingJob job;
    job.model = find_model("gpt3-175b").transformer();
    REQUIRE(job.model.vocab == 50257);
    job.model.layers = 8;  // a short model, so the output layer is a visible share
    job.global_batch = 8;
    job.seq_len = 2048;
    const Cluster c = make_cluster(gpu("H100 SXM"), 8, 8, infiniband(50_GBps));
    ParallelPlan p;
    p.tp = 8;
    p.sequence_parallel = true;
    // The output layer GEMM: 51,200 / 8 = 6,400 columns per rank, against 6,283 with an even split.
    const auto padded = output_layer_forward(job.model, 2048, 8, Precision::bf16, 128);
    const auto even = output_layer_forward(job.model, 2048, 8, Precision::bf16);
    CHECK(padded[0].flops == doctest::Approx(2.0 * 2048 * 6400 * 12288));
    CHECK(even[0].flops == doctest::Approx(2.0 * 2048 * 6283 * 12288));
    Framework mc = megatron_core(), unpadded = megatron_core();
    unpadded.vocab_multiple = 1;
    CHECK(mc.vocab_multiple == 128);
    CHECK(megatron_lm_2021().vocab_multiple == 128);
    CHECK(Framework{}.vocab_multiple == 1);
    const TrainingEstimate tp_ = estimate_training(job, p, c, mc), tu = estimate_training(job, p, c, unpadded);
    CHECK(tp_.iteration.value() > tu.iteration.value());
    // Memory: the padded rows sit in the (tied) embedding, 18 B each with fp32 main gradients and no
    // ZeRO, and in the fp32 logits, 4 B per token per padded column of this rank.
    const MemoryBudget mp = plan_memory(job, p, mc), mu = plan_memory(job, p, unpadded);
    const double pad_rows = 51200 - 50264;
    CHECK(mp.model_states().value() - mu.model_states().value() == doctest::Approx(18.0 * pad_rows * 12288 / 8).epsilon(1e-9));
    CHECK(mp.activations.size.value() - mu.activations.size.value() == doctest::Approx(4.0 * 2048 * pad_rows / 8).epsilon(1e-9));
    CHECK(mp.activations.detail.find("vocabulary padded to 51200") != std::string::npos);
    Framework bad;
    bad.vocab_multiple = 0;
    CHECK(field_of([&] { (void)estimate_training(job, p, c, bad); }) == "vocab_multiple");
    CHECK(field_of([&] { (void)output_layer_forward(job.model, 2048, 8, Precision::bf16, 0); }) == "vocab_multiple");
  }

  TEST_CASE("fast path: numbers without text equal the explained estimate exactly; memory sizes too") {
    // Plans of several kinds: Megatron 3D parallel, FSDP, MoE with expert parallelism, a measured MFU.
    struct Case {
      TrainingJob job;
      ParallelPlan plan;
      Cluster cluster;
      Framework fw;
    };
    std::vector<Case> cases;
    {
      Case k;
      k.job.model = validation::gpt("GPT-3 175B", 96, 12288, 96, 51200, 2048);
      k.job.global_batch = 1536;
      k.plan.tp = 8;
      k.plan.pp = 16;
      k.plan.dp = 8;
      k.plan.interleave = 2;
      k.plan.recompute = Recompute::full;
      k.cluster = make_cluster(gpu("A100 SXM 80GB"), 1024, 8, infiniband(25_GBps));
      k.fw = megatron_lm_2021();
      cases.push_back(k);
      k.job.measured_mfu = 0.45;
      cases.push_back(k);
    }
    {
      Case k;
      k.job.model = validation::gpt("MPT 7B", 32, 4096, 32, 50368, 2048);
      k.job.global_batch = 48;
      k.plan.dp = 8;
      k.plan.micro_batch = 6;
      k.plan.zero_stage = ZeroStage::parameters;
      k.cluster = make_cluster(gpu("H100 SXM"), 8, 8, infiniband(50_GBps));
      k.fw = llm_foundry_2023();
      cases.push_back(k);
    }
    {
      Case k;
      k.job.model = validation::gpt("moe", 32, 4096, 32, 32000, 4096);
      k.job.model.moe = MoeShape{8, 2, 0, 14336, 0, 0, 0};
      k.job.model.gated_mlp = true;
      k.job.global_batch = 256;
      k.plan.dp = 64;
      k.plan.ep = 8;
      k.plan.zero_stage = ZeroStage::optimizer;
      k.cluster = make_cluster(gpu("H100 SXM"), 64, 8, infiniband(50_GBps));
      k.fw = pytorch_fsdp();
      cases.push_back(k);
    }
    for (const Case& k : cases) {
      const TrainingEstimate explained = estimate_training(k.job, k.plan, k.cluster, k.fw);
      const TrainingEstimate numbers = estimate_training_numbers(k.job, k.plan, k.cluster, k.fw);
      const PreparedTraining prepared = prepare_training(k.job, k.cluster, k.fw);
      const TrainingEstimate fast = estimate_training(prepared, k.plan);
      CHECK_FALSE(explained.breakdown.terms.empty());
      CHECK(numbers.breakdown.terms.empty());
      CHECK(fast.breakdown.terms.empty());
      for (const TrainingEstimate* e : {&numbers, &fast}) {
        CHECK(e->iteration.value() == explained.iteration.value());
        CHECK(e->tokens_per_second == explained.tokens_per_second);
        CHECK(e->samples_per_second == explained.samples_per_second);
        CHECK(e->bubble_fraction == explained.bubble_fraction);
        CHECK(e->model_flops.value() == explained.model_flops.value());
        CHECK(e->hardware_flops.value() == explained.hardware_flops.value());
        CHECK(e->mfu == explained.mfu);
        CHECK(e->hfu == explained.hfu);
        CHECK(e->micro_batches == explained.micro_batches);
      }
      // The explained prepared estimate carries the same breakdown.
      CHECK(estimate_training(prepared, k.plan, true).explain() == explained.explain());
      // Memory: the prepared budget has the same sizes and no detail text.
      const MemoryBudget slow = plan_memory(k.job, k.plan, k.fw);
      const MemoryBudget quick = plan_memory(prepared, k.plan);
      CHECK(quick.total().value() == slow.total().value());
      CHECK(quick.activations.size.value() == slow.activations.size.value());
      CHECK(quick.optimizer_states.size.value() == slow.optimizer_states.size.value());
      CHECK(quick.weights.detail.empty());
      CHECK_FALSE(slow.weights.detail.empty());
      // One call for both (exact counts worked out once): the same numbers again.
      const PlanEstimate both = estimate_plan(k.job, k.plan, k.cluster, k.fw);
      CHECK(both.time.iteration.value() == explained.iteration.value());
      CHECK(both.time.model_flops.value() == explained.model_flops.value());
      CHECK(both.time.hardware_flops.value() == explained.hardware_flops.value());
      CHECK(both.time.mfu == explained.mfu);
      CHECK(both.time.breakdown.terms.empty());
      CHECK(both.memory.total().value() == slow.total().value());
      CHECK(both.fits == (slow.total().value() <= k.cluster.gpu.memory.value()));
    }
  }

  TEST_CASE("MoE: expert gradients are reduced only over the replicas of each expert") {
    // Mixtral-like: 8 experts, top-2, on 64 GPUs with ep = 8: dense gradients all-reduce over the 64
    // data-parallel GPUs, each expert's over the 64 / 8 = 8 GPUs that hold it (DeepSpeed-MoE §4.1).
    const TransformerShape moe = mixtral_like();
    TrainingJob job;
    job.model = moe;
    job.global_batch = 256;
    const Cluster c = make_cluster(gpu("H100 SXM"), 64, 8, infiniband(50_GBps));
    ParallelPlan p;
    p.dp = 64;
    p.ep = 8;
    const Framework fw = megatron_lm_2021();  // gradient all-reduce after the backward pass, not overlapped
    const TrainingEstimate e = estimate_training(job, p, c, fw);
    const ParamBreakdown pb = parameter_breakdown(moe);
    const double total = static_cast<double>(pb.total()), experts = total * static_cast<double>(pb.expert) / total;
    const double expected = all_reduce_seconds(c, (total - experts) * fw.grad_reduce_bytes, Group{64, 8}) +
                            all_reduce_seconds(c, experts / 8 * fw.grad_reduce_bytes, Group{8, 1});
    double reduction = -1;
    for (const Term& t : e.breakdown.terms)
      if (t.name == "data-parallel gradient reduction (exposed)") reduction = t.time.value();
    CHECK(reduction == doctest::Approx(expected).epsilon(1e-12));
    // Counting every expert's gradients over all 64 GPUs (the old over-count) costs more.
    CHECK(reduction < all_reduce_seconds(c, total * fw.grad_reduce_bytes, Group{64, 8}));
    CHECK(e.breakdown.terms.size() > 2);
    // The optimizer step holds 1/8 of the experts: less work per GPU than with ep = 1.
    p.ep = 1;
    const TrainingEstimate e1 = estimate_training(job, p, c, fw);
    auto term = [](const TrainingEstimate& x, const char* name) {
      for (const Term& t : x.breakdown.terms)
        if (t.name == name) return t.time.value();
      return -1.0;
    };
    CHECK(term(e, "optimizer step") < term(e1, "optimizer step"));
    // A given expert count must not exceed the parameters.
    job.parameters = 1e9;
    job.expert_parameters = 2e9;
    CHECK(field_of([&] { (void)estimate_training(job, p, c, fw); }) == "expert_parameters");
  }

  TEST_CASE("MLA: timed from its own shapes (DeepSeek-V2 §2.1), absorbed or not") {
    // DeepSeek-V2-Lite-like attention: 16 heads, no query compression, kv_lora_rank 512, nope 128, rope 64, v 128.
    TransformerShape s = validation::gpt("mla", 27, 2048, 16, 102400, 4096);
    s.mla = MlaShape{0, 512, 128, 64, 128};
    s.head_dim = 0;
    s.kv_heads = 0;
    LayerOptions o;
    o.flash_attention = false;
    double flops = 0;
    bool has_kv_down = false;
    for (const Op& op : transformer_layer_forward(s, 4096, 4096, 1, Precision::bf16, o)) {
      flops += op.flops;
      if (op.name == "mla kv down-projection + rope key") {
        has_kv_down = true;
        CHECK(op.n == 512 + 64);
        CHECK(op.k == 2048);
      }
      if (op.name == "attention scores QK^T") CHECK(op.k == 128 + 64);
      if (op.name == "attention over values PV") CHECK(op.n == 128);
    }
    CHECK(has_kv_down);
    // Matmul FLOPs + full attention FLOPs agree with compute/flops.hpp's independent count.
    const ForwardFlops f = forward_flops(s, 1, 4096, AttentionCount::full);
    CHECK(flops * 27 == doctest::Approx(static_cast<double>(f.layers_matmul + f.layers_attention)).epsilon(1e-9));
    // Absorbed: attention runs in the latent, QK^T over 512 + 64 and PV over 512 dimensions per head
    // instead of 128 + 64 and 128: (576 + 512) / (192 + 128) times the FLOPs, the price of not
    // up-projecting K and V (why the training form is the non-absorbed one).
    o.flash_attention = true;
    auto attention_flops = [&](bool absorbed) {
      LayerOptions a = o;
      a.mla_absorbed = absorbed;
      for (const Op& op : transformer_layer_forward(s, 4096, 4096, 1, Precision::bf16, a))
        if (op.kind == OpKind::flash_attention) return op.flops;
      return -1.0;
    };
    CHECK(attention_flops(true) / attention_flops(false) == doctest::Approx(1088.0 / 320.0));
    // Decode reads the latent KV cache: (512 + 64) values per layer per token, whole on every TP rank.
    InferenceJob job;
    job.model = s;
    job.prompt = 1024;
    job.generate = 64;
    job.tp = 2;
    const InferenceEstimate e = estimate_inference(job, gpu("H100 SXM"));
    CHECK(e.kv_cache_bytes_per_gpu.value() == doctest::Approx((1024.0 + 64) * 27 * 576 * 2));
  }

  TEST_CASE("llm-foundry framework: Triton attention and Composer's unfused AdamW cost what their sources say") {
    const Framework fa2 = pytorch_fsdp(), foundry = llm_foundry_2023();
    CHECK(foundry.attention_forward_speed == doctest::Approx(1 / 1.4));
    CHECK(foundry.attention_backward_speed == doctest::Approx(0.5));
    TrainingJob job;
    job.model = validation::gpt("MPT 7B", 32, 4096, 32, 50368, 2048);
    job.global_batch = 48;
    ParallelPlan p;
    p.dp = 8;
    p.micro_batch = 6;
    p.zero_stage = ZeroStage::parameters;
    const Cluster c = make_cluster(gpu("H100 SXM"), 8, 8, infiniband(50_GBps));
    const TrainingEstimate a = estimate_training(job, p, c, fa2), b = estimate_training(job, p, c, foundry);
    CHECK(b.iteration.value() > a.iteration.value());
    CHECK(b.hardware_flops.value() == a.hardware_flops.value());
    // Bad framework numbers name their field.
    Framework bad = foundry;
    bad.attention_forward_speed = 1.5;
    CHECK(field_of([&] { (void)estimate_training(job, p, c, bad); }) == "attention_forward_speed");
    bad = foundry;
    bad.optimizer_bytes_per_param = -1;
    CHECK(field_of([&] { (void)estimate_training(job, p, c, bad); }) == "optimizer_bytes_per_param");
    // Communication hidden under compute slows that compute by 18.9 % (Lee et al. 2025): the term is
    // exactly hidden x slowdown, and it is absent when nothing overlaps (Megatron-LM 2021).
    EfficiencyModel no_contention;
    no_contention.overlap_slowdown = 0;
    const TrainingEstimate free_overlap = estimate_training(job, p, c, foundry, no_contention);
    double slowed = -1;
    for (const Term& t : b.breakdown.terms)
      if (t.name == "compute slowed by overlapped communication") slowed = t.time.value();
    CHECK(slowed > 0);
    CHECK(b.iteration.value() - free_overlap.iteration.value() == doctest::Approx(slowed).epsilon(1e-9));
    EfficiencyModel bad_model;
    bad_model.overlap_slowdown = 1.5;
    CHECK(field_of([&] { (void)estimate_training(job, p, c, foundry, bad_model); }) == "overlap_slowdown");
    // Zero GPUs in a cluster built by hand are refused too, as is an MFU above 1.
    Cluster none = c;
    none.gpus = 0;
    CHECK(field_of([&] { (void)estimate_training(job, p, none, foundry); }) == "gpus");
    job.measured_mfu = 1.01;
    CHECK(field_of([&] { (void)estimate_training(job, p, c, foundry); }) == "mfu");
  }

  TEST_CASE("multi-GPU scaling as users meet it: PCIe without P2P vs NVLink; a node; thousands over InfiniBand") {
    TrainingJob job;
    job.model = validation::gpt("1.3B", 24, 2048, 16, 50257, 2048);
    job.global_batch = 16;
    ParallelPlan one;
    ParallelPlan two;
    two.dp = 2;
    auto scaling = [&](const char* name) {
      const Cluster c1 = make_cluster(gpu(name), 1, 2, infiniband(25_GBps));
      const Cluster c2 = make_cluster(gpu(name), 2, 2, infiniband(25_GBps));
      return estimate_training(job, one, c1, megatron_lm_2021()).iteration.value() /
             estimate_training(job, two, c2, megatron_lm_2021()).iteration.value() / 2;
    };
    // Gradient all-reduce after the backward (not overlapped): 2.6 GB over PCIe through host memory on
    // RTX 4090s, over an NVLink bridge on RTX A6000s.
    const double s4090 = scaling("RTX 4090"), sa6000 = scaling("RTX A6000");
    CHECK(s4090 < sa6000);
    CHECK(s4090 < 0.95);
    CHECK(sa6000 > 0.85);
    CHECK(sa6000 <= 1.0);
    // 8 x A100 in a node and 1,024 A100 over InfiniBand: per-GPU throughput falls as the gradient
    // reduction crosses nodes, but stays within a factor of 2 for this model.
    job.global_batch = 1024;
    ParallelPlan p8;
    p8.dp = 8;
    ParallelPlan p1024;
    p1024.dp = 1024;
    const GpuSpec& a100 = gpu("A100 SXM 80GB");
    const double per_gpu_8 = estimate_training(job, p8, make_cluster(a100, 8, 8, infiniband(25_GBps)), megatron_lm_2021()).tokens_per_second / 8;
    const double per_gpu_1024 =
        estimate_training(job, p1024, make_cluster(a100, 1024, 8, infiniband(25_GBps)), megatron_lm_2021()).tokens_per_second / 1024;
    CHECK(per_gpu_1024 < per_gpu_8);
    CHECK(per_gpu_1024 > per_gpu_8 / 2);
  }

  TEST_CASE("validation: every published case inside its band") {
    for (const ValidationCase& c : validation_cases()) {
      INFO(c.group << ": " << c.name << " predicted " << c.predicted << " published " << c.published << " error "
                   << 100 * c.error() << " % (band " << 100 * c.tolerance << " %)\n" << c.explanation);
      CHECK(std::isfinite(c.predicted));
      CHECK(c.within());
    }
  }

  TEST_CASE("validation, held out: the whole llm-foundry table does not get worse") {
    // 52 H100 and 60 A100 BF16 rows not in the reference list (docs/validation.md). Limits: the
    // model's figures as docs/validation.md shows them (H100 median 3.5 %, 51 of 52 within ±15 %, since
    // attention's rate follows the sequence length, 2026-11-29: 8.5 % and 38 before; A100 median 6.0 %,
    // 55 of 60), rounded outward by about two points and one row.
    struct Stats {
      std::vector<double> errs;
      int inside = 0;
    };
    Stats h100, a100;
    for (const ValidationCase& c : validation::llm_foundry_held_out()) {
      INFO(c.group << ": " << c.name << " predicted " << c.predicted << " published " << c.published);
      REQUIRE(std::isfinite(c.predicted));
      Stats& s = c.group.find("H100") != std::string::npos ? h100 : a100;
      s.errs.push_back(std::fabs(c.error()));
      s.inside += c.within() ? 1 : 0;
    }
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    CHECK(h100.errs.size() == 52);
    CHECK(a100.errs.size() == 60);
    CHECK(median(h100.errs) <= 0.055);
    CHECK(median(a100.errs) <= 0.08);
    CHECK(h100.inside >= 50);
    CHECK(a100.inside >= 54);
  }

  TEST_CASE("validation: Korthikanti et al. 2022, Megatron-LM's own runs with and without recomputation") {
    // Validation rows (nothing fitted): Table 5's eight iteration times within 10 % (median under 5 %),
    // the speed-up of sequence parallelism + selective recomputation over full recomputation
    // overstated by less than 10 % (the published gains are 29-32 %), and Table 4's layer times
    // within 10 %.
    std::vector<double> times;
    int layers = 0;
    for (const ValidationCase& c : validation::korthikanti_table5()) {
      INFO(c.name << ": predicted " << c.predicted << ", published " << c.published);
      REQUIRE(std::isfinite(c.predicted));
      if (c.metric == "s per iteration") times.push_back(std::fabs(c.error()));
    }
    REQUIRE(times.size() == 8);
    std::sort(times.begin(), times.end());
    CHECK(times.back() <= 0.10);
    CHECK((times[3] + times[4]) / 2 <= 0.05);
    const std::vector<validation::KorthikantiSpeedup> speedups = validation::korthikanti_speedups();
    CHECK(speedups.size() == 4);
    for (const auto& x : speedups) {
      INFO(x.label << ": speed-up predicted " << x.predicted << ", published " << x.published);
      CHECK(x.predicted > 1.2);
      CHECK(x.predicted / x.published - 1 < 0.10);
      CHECK(x.predicted / x.published - 1 > -0.05);
    }
    for (const ValidationCase& c : validation::korthikanti_table4()) {
      INFO(c.name << ": predicted " << c.predicted << " ms, published " << c.published << " ms");
      ++layers;
      CHECK(std::fabs(c.error()) <= 0.10);
    }
    CHECK(layers == 7);  // two forward passes (with and without sequence parallelism), five backward
  }

  TEST_CASE("validation: bands are the ones asked for, unless a note says why") {
    for (const ValidationCase& c : validation_cases()) {
      INFO(c.group << ": " << c.name);
      double asked = 0;
      if (c.group == "Megatron-LM Table 1") asked = 0.20;
      if (c.group.rfind("Megatron-LM 2022: ", 0) == 0) asked = 0.15;
      if (c.group == "llm-foundry MFU" || c.group == "llama.cpp decode") asked = 0.15;
      if (c.group == "ResNet-50 training" || c.group == "ResNet-50 training, Lambda benchmarks (NCHW, synthetic data)") asked = 0.20;
      if (c.group == "ResNet-50 inference, PyTorch eager") asked = 0.25;
      if (c.group.rfind("Image models, timm ", 0) == 0) asked = 0.25;
      if (c.group == "Megatron-LM end-to-end time") asked = 0.05;
      if (c.group.rfind("Fine-tuning: ", 0) == 0) asked = 0.20;
      if (c.group.rfind("Stable Diffusion ", 0) == 0 || c.group.rfind("SDXL ", 0) == 0) asked = 0.30;
      REQUIRE(asked > 0);
      if (c.note.empty()) CHECK(c.tolerance == doctest::Approx(asked));
      else CHECK(c.tolerance > asked);
    }
  }

  TEST_CASE("plan search: valid plans only, fastest first, all fitting in memory") {
    TrainingJob job = validation::gpt3_175b_job();
    const Cluster c = validation::dgx_a100_cluster(1024);
    const SearchResult r = search_plans(job, c, megatron_lm_2021(), {}, 5);
    REQUIRE(r.top.size() == 5);
    CHECK(r.candidates > 1000);
    CHECK(r.memory_checked >= 5);
    for (std::size_t i = 0; i < r.top.size(); ++i) {
      const ParallelPlan& p = r.top[i].plan;
      CHECK(p.gpus() == 1024);
      CHECK(96 % p.tp == 0);
      CHECK(96 % (p.pp * p.interleave) == 0);
      CHECK(1536 % (p.micro_batch * p.dp) == 0);
      CHECK(plan_memory(job, p, false).total().value() <= 80e9);
      if (i > 0) CHECK(r.top[i].estimate.iteration.value() >= r.top[i - 1].estimate.iteration.value());
      CHECK_FALSE(r.top[i].estimate.breakdown.terms.empty());
    }
    // Plain data parallelism of 175B on 80 GB GPUs does not fit; the search never returns it.
    ParallelPlan dp_only;
    dp_only.dp = 1024;
    job.parameters = 175e9;
    CHECK_FALSE(budget_memory_check(megatron_lm_2021())(job, dp_only, c));
    // The best plan beats a hand-written Megatron-style plan (t=8, p=16, full recomputation) or ties it.
    ParallelPlan hand;
    hand.tp = 8;
    hand.pp = 16;
    hand.dp = 8;
    hand.recompute = Recompute::full;
    CHECK(r.top[0].estimate.iteration.value() <= estimate_training(job, hand, c, megatron_lm_2021()).iteration.value());
    CHECK(r.explain().find("#1 iteration") != std::string::npos);
    CHECK(field_of([&] { (void)search_plans(job, c, megatron_lm_2021(), {}, 0); }) == "top");
  }

  TEST_CASE("plan search: one ranking whether its lists were kept from the last search, freed, or taken by a search inside a memory check") {
    const TrainingJob job = validation::gpt3_175b_job();
    const Cluster c = validation::dgx_a100_cluster(1024);
    const auto same = [](const SearchResult& a, const SearchResult& b) {
      REQUIRE(a.top.size() == b.top.size());
      CHECK(a.candidates == b.candidates);
      CHECK(a.memory_checked == b.memory_checked);
      CHECK(a.rejected_for_memory == b.rejected_for_memory);
      CHECK(a.offload_checks == b.offload_checks);
      CHECK(a.offloaded_fits == b.offloaded_fits);
      for (std::size_t i = 0; i < a.top.size(); ++i) {
        CHECK(plan_text(a.top[i].plan) == plan_text(b.top[i].plan));
        CHECK(a.top[i].estimate.iteration.value() == b.top[i].estimate.iteration.value());
      }
    };
    release_search_memory();
    const SearchResult fresh = search_plans(job, c, megatron_lm_2021(), {}, 40);
    REQUIRE(fresh.top.size() == 40);
    for (std::size_t i = 1; i < fresh.top.size(); ++i)
      CHECK(fresh.top[i].estimate.iteration.value() >= fresh.top[i - 1].estimate.iteration.value());
    same(fresh, search_plans(job, c, megatron_lm_2021(), {}, 40));  // the kept lists
    // A larger search between them leaves longer lists behind; a smaller one then reuses them.
    (void)search_plans(validation::gpt3_175b_job(), validation::dgx_a100_cluster(1536), megatron_lm_2021(), {}, 5);
    same(fresh, search_plans(job, c, megatron_lm_2021(), {}, 40));
    // A memory check that runs a search of its own (another cluster) while the outer one walks its ranking.
    int inner_searches = 0;
    std::vector<SearchResult> inner;
    const MemoryCheck plain = budget_memory_check(megatron_lm_2021());
    const MemoryCheck searching = [&](const TrainingJob& j, const ParallelPlan& p, const Cluster& cl) {
      if (inner_searches++ < 3) inner.push_back(search_plans(job, validation::dgx_a100_cluster(512), megatron_lm_2021(), {}, 3));
      return plain(j, p, cl);
    };
    same(fresh, search_plans(job, c, megatron_lm_2021(), {}, 40, SearchSpace{}, searching));
    CHECK(inner_searches > 3);
    REQUIRE(inner.size() == 3);
    const SearchResult alone = search_plans(job, validation::dgx_a100_cluster(512), megatron_lm_2021(), {}, 3);
    for (const SearchResult& r : inner) same(alone, r);
    same(fresh, search_plans(job, c, megatron_lm_2021(), {}, 40));
  }

  TEST_CASE("plan search: the whole ranking is by time, ties going to the plan its loops generate first") {
    // Llama 2 7B on 16 H100 (two 8-GPU nodes over NDR), 4,096 tokens: no context or expert parallelism,
    // so a plan's place in the loops is (tp, pp, micro-batch, ZeRO stage, SP, recomputation,
    // interleaving, end-stage layout), each in the order SearchSpace lists it.
    TrainingJob job;
    job.model = find_model("llama2-7b").transformer();
    job.seq_len = 4096;
    job.global_batch = 64;
    const Cluster c = make_cluster(Catalog::builtin().find_gpu("h100-sxm"), 16, 8, find_fabric("ib-ndr").link(8));
    const SearchSpace space;
    // A memory check that refuses every plan sees the whole ranking, in order.
    std::vector<ParallelPlan> walked;
    const MemoryCheck refuse = [&](const TrainingJob&, const ParallelPlan& p, const Cluster&) {
      walked.push_back(p);
      return false;
    };
    const SearchResult none = search_plans(job, c, Framework{}, {}, 5, space, refuse);
    CHECK(none.top.empty());
    REQUIRE(walked.size() == none.candidates);
    REQUIRE(none.candidates > 1000);
    // Accepting every plan returns them all, in the same order, with their times.
    const MemoryCheck accept = [](const TrainingJob&, const ParallelPlan&, const Cluster&) { return true; };
    const SearchResult every = search_plans(job, c, Framework{}, {}, none.candidates, space, accept);
    REQUIRE(every.top.size() == walked.size());
    const auto at = [](const auto& list, const auto& v) { return std::find(list.begin(), list.end(), v) - list.begin(); };
    const auto order = [&](const ParallelPlan& p) {
      const auto ends = end_stage_layouts(static_cast<int>(job.model.layers), p.pp);
      const std::ptrdiff_t layout =
          p.first_stage_layers == 0 && p.last_stage_layers == 0 ? 0 : 1 + at(ends, std::pair{p.first_stage_layers, p.last_stage_layers});
      return std::tuple{p.tp, p.pp, at(space.micro_batches, p.micro_batch), at(space.zero_stages, p.zero_stage), p.sequence_parallel,
                        at(space.recompute, p.recompute), at(space.interleave, p.interleave), layout};
    };
    std::size_t ties = 0;
    for (std::size_t i = 0; i < walked.size(); ++i) {
      CHECK(order(every.top[i].plan) == order(walked[i]));
      if (i == 0) continue;
      const double t = every.top[i].estimate.iteration.value(), before = every.top[i - 1].estimate.iteration.value();
      CHECK(t >= before);
      if (t == before) {
        ++ties;
        CHECK(order(walked[i - 1]) < order(walked[i]));
      }
    }
    CHECK(ties > 10);  // equal times do occur (plans that differ only where nothing is timed)
  }

  TEST_CASE("ZeRO-3 gathers and reduce-scatters one message per layer, each paying the ring's latency (fidelity item 12)") {
    // Llama 2 7B under FSDP FULL_SHARD on 512 H100 (64 nodes), one sequence per GPU. With the gathers
    // not overlapped, raising the fabric's per-step latency by 45 us costs exactly
    // m x layers x 3 collectives x (nodes - 1) ring steps x 45 us: 1 x 32 x 3 x 63 x 45 us = 0.272 s.
    // (With one message per micro-batch, as before, it cost 32 times less.)
    TrainingJob job;
    job.model = validation::gpt("7B", 32, 4096, 32, 32000, 4096);
    job.global_batch = 512;
    ParallelPlan p;
    p.dp = 512;
    p.zero_stage = ZeroStage::parameters;
    p.recompute = Recompute::full;
    Framework fw = pytorch_fsdp();
    fw.overlap_param_gather = false;
    Link slow = infiniband(50_GBps);
    slow.latency = from_canonical<Duration>(50e-6);
    const GpuSpec& h100 = gpu("H100 SXM");
    const TrainingEstimate fast_net = estimate_training(job, p, make_cluster(h100, 512, 8, infiniband(50_GBps)), fw);
    const TrainingEstimate slow_net = estimate_training(job, p, make_cluster(h100, 512, 8, slow), fw);
    CHECK(fast_net.micro_batches == 1);
    CHECK(slow_net.iteration.value() - fast_net.iteration.value() == doctest::Approx(1 * 32 * 3 * 63 * 45e-6).epsilon(1e-6));
    CHECK(fast_net.explain().find("32 per-layer messages") != std::string::npos);
    // A collective with nothing to send is not launched: no latency (the expert group of a dense model).
    const Cluster big = make_cluster(h100, 512, 8, infiniband(50_GBps));
    CHECK(all_gather_seconds(big, 0, Group{512, 8, 1}) == 0);
    CHECK(all_reduce_seconds(big, 0, Group{512, 8, 1}) == 0);
    CHECK(all_gather_seconds(big, 1e6, Group{512, 8, 1}) > 0);
    // At a fixed global batch, spreading it over more GPUs lowers the per-GPU rate (same framework,
    // gathers overlapped as FSDP prefetches them).
    ParallelPlan p8 = p;
    p8.dp = 8;
    const TrainingEstimate at8 = estimate_training(job, p8, make_cluster(h100, 8, 8, infiniband(50_GBps)), pytorch_fsdp());
    const TrainingEstimate at512 = estimate_training(job, p, make_cluster(h100, 512, 8, infiniband(50_GBps)), pytorch_fsdp());
    CHECK(at512.hardware_rate_per_gpu.value() < at8.hardware_rate_per_gpu.value());
  }

  TEST_CASE("ZeRO 1: the updated weights' all-gather hides in the next forward pass under Megatron-Core, not under generic") {
    // Llama 3 70B on 64 H100 at TP 4 x PP 4 x DP 4 with the distributed optimizer. Megatron-Core's
    // overlap_param_gather (on whenever DP > 1 in Megatron-Bridge) gathers bucket by bucket during the
    // next forward; DeepSpeed's ZeRO 1 (generic) gathers inside the step.
    TrainingJob job;
    job.model = find_model("llama3-70b").transformer();
    job.seq_len = 8192;
    job.global_batch = 256;
    ParallelPlan p;
    p.tp = 4;
    p.pp = 4;
    p.dp = 4;
    p.sequence_parallel = true;
    p.zero_stage = ZeroStage::optimizer;
    const Cluster c = make_cluster(gpu("H100 SXM"), 64, 8, infiniband(50_GBps));
    const Framework on = megatron_core();
    CHECK(on.gather_weights_in_forward);
    CHECK_FALSE(Framework{}.gather_weights_in_forward);
    Framework in_step = on;
    in_step.gather_weights_in_forward = false;
    Framework neither = in_step;
    neither.overlap_grad_reduce = false;
    const TrainingEstimate t_on = estimate_training(job, p, c, on);
    const TrainingEstimate t_step = estimate_training(job, p, c, in_step);
    const TrainingEstimate t_neither = estimate_training(job, p, c, neither);
    // The all-gather of this GPU's bf16 weights over its 4 data-parallel peers, whole.
    const double ag = all_gather_seconds(c, parameter_total(job.model) / (p.tp * p.pp) * on.param_gather_bytes, data_parallel_group(p, 8));
    REQUIRE(ag > 0);
    // Hidden under one forward pass, at most the whole gather is saved, and at least one chunk (a
    // layer's share: the stage's 20 layers) stays exposed, less the slowdown of what it hides under.
    const double saved = t_step.iteration.value() - t_on.iteration.value();
    CHECK(saved > 0);
    CHECK(saved <= ag * (1 - 1.0 / 20) + 1e-12);
    CHECK(saved >= ag * (1 - 1.0 / 20) * (1 - EfficiencyModel{}.overlap_slowdown) - 1e-12);
    // Without overlapping the gradients' reduce-scatter either, it is all exposed.
    CHECK(t_neither.iteration.value() > t_step.iteration.value());
    CHECK(t_on.explain().find("all-gathers during the next forward pass") != std::string::npos);
    CHECK(t_step.explain().find("all-gathers in the optimizer step") != std::string::npos);
    CHECK(t_neither.explain().find("reduce-scatters after the backward pass") != std::string::npos);
    // Without the overlapped reduction Megatron-Core keeps one bucket, which the forward waits for whole.
    Framework one_bucket = on;
    one_bucket.overlap_grad_reduce = false;
    const TrainingEstimate t_one = estimate_training(job, p, c, one_bucket);
    CHECK(t_one.iteration.value() == doctest::Approx(t_neither.iteration.value()).epsilon(1e-12));
    CHECK(t_one.explain().find("all-gathers in one bucket before the next forward pass") != std::string::npos);
    // On a slow fabric the gather outlasts the forward pass it hides under: less than the whole is saved,
    // and the same with ZeRO 2 (its reduce-scatters run every micro-batch, the gather once).
    const Cluster slow = make_cluster(gpu("H100 SXM"), 64, 8, infiniband(1_GBps));
    const double ag_slow = all_gather_seconds(slow, parameter_total(job.model) / (p.tp * p.pp) * on.param_gather_bytes, data_parallel_group(p, 8));
    const double saved_slow = estimate_training(job, p, slow, in_step).iteration.value() - estimate_training(job, p, slow, on).iteration.value();
    CHECK(saved_slow > 0);
    CHECK(saved_slow < 0.5 * ag_slow);
    ParallelPlan z2;
    z2.tp = 8;
    z2.dp = 8;
    z2.sequence_parallel = true;
    z2.recompute = Recompute::full;
    z2.zero_stage = ZeroStage::gradients;
    ParallelPlan z1 = z2;
    z1.zero_stage = ZeroStage::optimizer;
    const auto saved_at = [&](const ParallelPlan& q) {
      return estimate_training(job, q, slow, in_step).iteration.value() - estimate_training(job, q, slow, on).iteration.value();
    };
    REQUIRE(estimate_training(job, z2, slow, on).micro_batches > 1);
    CHECK(saved_at(z2) > 0);
    CHECK(saved_at(z2) == doctest::Approx(saved_at(z1)).epsilon(1e-9));
  }

  TEST_CASE("plan search property: no plan it returns breaks a rule (models x GPU counts x node sizes)") {
    // Dense MHA (Llama 2 7B), GQA with 28 heads (Qwen2.5 7B: TP 7 divides the heads, not an 8-GPU
    // node), MoE (Mixtral 8x7B: EP), 96 layers (GPT-3 175B); 8 to 96 GPUs on 4- and 8-GPU nodes.
    const GpuSpec& h100 = gpu("H100 SXM");
    int plans_checked = 0;
    for (const char* id : {"llama2-7b", "qwen2.5-7b", "mixtral-8x7b", "gpt3-175b"}) {
      for (int node : {4, 8}) {
        for (int gpus : {8, 24, 64, 96}) {
          CAPTURE(id);
          CAPTURE(node);
          CAPTURE(gpus);
          TrainingJob job;
          job.model = find_model(id).transformer();
          job.seq_len = 4096;
          job.global_batch = 384;
          const Cluster c = make_cluster(h100, gpus, node, infiniband(50_GBps));
          const Framework fw = pytorch_fsdp();
          const SearchResult r = search_plans(job, c, fw, {}, 3);
          for (const auto& t : r.top) {
            const ParallelPlan& p = t.plan;
            ++plans_checked;
            CHECK(p.gpus() == gpus);
            CHECK(job.model.heads % p.tp == 0);
            if (gpus > p.tp) CHECK(node % p.tp == 0);  // TP inside a node
            CHECK(job.global_batch % (p.micro_batch * p.dp) == 0);
            const std::int64_t m = job.global_batch / (p.micro_batch * p.dp);
            if (p.interleave > 1) CHECK(m % p.pp == 0);
            if (p.sequence_parallel) CHECK(p.tp > 1);
            if (p.zero_stage != ZeroStage::none) CHECK(p.dp * p.cp > 1);
            if (p.zero_stage == ZeroStage::gradients) CHECK(p.pp == 1);  // no framework runs ZeRO 2 under a pipeline
            // Experts fold etp x ep over the tp x cp x dp ranks; an expert's tensor-parallel group stays in a node.
            CHECK((p.tp * p.cp * p.dp) % (expert_tensor_parallel(p) * p.ep) == 0);
            if (gpus > expert_tensor_parallel(p)) CHECK(node % expert_tensor_parallel(p) == 0);
            if (p.ep > 1) CHECK(job.model.moe->experts % p.ep == 0);
            if (p.cp > 1) CHECK(4096 % (2 * p.cp) == 0);
            const FitResult fit = check_fit(plan_memory(job, p, fw), h100.capacity());
            CHECK(fit.fits);
            CHECK_FALSE(fit.tight);
            CHECK_NOTHROW(validate_stage_layout(job.model.layers, p));  // Megatron's end-stage rule
            // The plan's own validation accepts it, and its time is what the search ranked it by.
            CHECK_NOTHROW((void)estimate_training_numbers(job, p, c, fw));
          }
        }
      }
    }
    CHECK(plans_checked > 40);
  }

  TEST_CASE("plan search: lighter first and last stages so the output layer does not set the pace (configurations item 1)") {
    // Llama 3.1 8B on 4 stages: automatic 8 x 4, the last stage also runs the 128,256-wide output
    // layer and the loss (about two layers' work); 8 + 9 + 9 + 6 balances it (Megatron-Core's
    // --decoder-last-pipeline-num-layers 6 --decoder-first-pipeline-num-layers 8).
    const auto layouts = end_stage_layouts(32, 4);
    CHECK(std::find(layouts.begin(), layouts.end(), std::make_pair(8, 6)) != layouts.end());
    CHECK(std::find(layouts.begin(), layouts.end(), std::make_pair(7, 7)) != layouts.end());
    for (const auto& [first, last] : layouts) {
      ParallelPlan p;
      p.pp = 4;
      p.first_stage_layers = first;
      p.last_stage_layers = last;
      CHECK_NOTHROW(validate_stage_layout(32, p));
      CHECK((first != 8 || last != 8));  // not the automatic layout
    }
    CHECK(end_stage_layouts(32, 1).empty());
    CHECK(end_stage_layouts(126, 16).size() <= 4);
    for (const auto& [first, last] : end_stage_layouts(126, 16)) {
      ParallelPlan p;
      p.pp = 16;
      p.first_stage_layers = first;
      p.last_stage_layers = last;
      CHECK_NOTHROW(validate_stage_layout(126, p));
    }
    TrainingJob job;
    job.model = find_model("llama3.1-8b").transformer();
    job.seq_len = 8192;
    job.global_batch = 64;
    const Cluster c = make_cluster(gpu("H100 SXM"), 4, 8, infiniband(50_GBps));
    ParallelPlan even;
    even.pp = 4;
    ParallelPlan light = even;
    light.first_stage_layers = 8;
    light.last_stage_layers = 6;
    const double t_even = estimate_training(job, even, c, megatron_core()).iteration.value();
    const double t_light = estimate_training(job, light, c, megatron_core()).iteration.value();
    CHECK(t_light < 0.95 * t_even);
    // The search tries them: with them it is never slower, and here it is faster.
    SearchSpace space;
    space.max_tp = 1;  // pipeline or data parallelism only
    space.zero_stages = {ZeroStage::none};
    space.recompute = {Recompute::full};
    space.micro_batches = {1};
    space.interleave = {1};
    SearchSpace automatic_only = space;
    automatic_only.end_stage_layouts = false;
    const SearchResult with = search_plans(job, c, megatron_core(), {}, 50, space);
    const SearchResult without = search_plans(job, c, megatron_core(), {}, 50, automatic_only);
    REQUIRE_FALSE(with.top.empty());
    REQUIRE_FALSE(without.top.empty());
    CHECK(with.candidates > without.candidates);
    bool found_light = false;
    double pp4_with = 1e30, pp4_without = 1e30;
    for (const auto& t : with.top) {
      if (t.plan.pp == 4) pp4_with = std::min(pp4_with, t.estimate.iteration.value());
      found_light = found_light || t.plan.last_stage_layers > 0;
    }
    for (const auto& t : without.top)
      if (t.plan.pp == 4) pp4_without = std::min(pp4_without, t.estimate.iteration.value());
    CHECK(found_light);
    CHECK(pp4_with < pp4_without);
  }

  TEST_CASE("activation offloading: GPU memory by the layers kept, time by the host link (Megatron-Core --cpu-offloading-num-layers)") {
    // The host links: a Grace superchip's NVLink-C2C share, else the PCIe link, at most PCIe 5.0 (x86 hosts).
    CHECK(host_link(gpu("GB200")).bytes_per_s == doctest::Approx(225e9 * 0.80));
    CHECK(host_link(gpu("B200")).bytes_per_s == doctest::Approx(pcie_bandwidth(5, 16).value() * 0.87));  // PCIe 6.0 card, 5.0 host
    CHECK(host_link(gpu("H100 SXM")).bytes_per_s == doctest::Approx(pcie_bandwidth(5, 16).value() * 0.87));
    CHECK(host_link(gpu("GB200")).what.find("host link 225 GB/s") != std::string::npos);

    TrainingJob job;
    job.model = find_model("llama3.1-8b").transformer();
    job.seq_len = 8192;
    job.global_batch = 64;
    const Framework fw = megatron_core();
    ParallelPlan kept;
    kept.dp = 8;
    kept.micro_batch = 2;
    kept.zero_stage = ZeroStage::parameters;
    ParallelPlan off = kept;
    off.offload_layers = 16;
    // Memory: 16 of the 32 layers leave; one of them is on the GPU at a time, so 15 layers' worth less.
    const TrainingConfig cfg = plan_training_config(job, off, fw);
    const double per_layer = activation_memory_per_layer(job.model, 2, 8192, activation_options(cfg)).value();
    const MemoryBudget b_kept = plan_memory(job, kept, fw), b_off = plan_memory(job, off, fw);
    CHECK(b_kept.activations.size.value() - b_off.activations.size.value() == doctest::Approx(15 * per_layer));
    CHECK(b_off.activations.detail.find("16 layers offloaded to host memory") != std::string::npos);
    // Time: each micro-batch sends 16 layers' activations out and back; the compute hides what it can.
    for (const char* name : {"GB200", "B200"}) {
      const Cluster c = make_cluster(gpu(name), 8, 8, infiniband(50_GBps));
      const TrainingEstimate with = estimate_training(job, off, c, fw);
      const TrainingEstimate without = estimate_training(job, kept, c, fw);
      const double copy = 16 * per_layer / host_link(gpu(name)).bytes_per_s;
      INFO(name << ": copy " << copy << " s each way");
      CHECK(with.iteration.value() >= without.iteration.value());
      bool term = false;
      for (const auto& t : with.breakdown.terms)
        if (t.name == "activation offloading (exposed)") {
          term = true;
          CHECK(t.arithmetic.find("16 layers' activations") != std::string::npos);
          CHECK(t.time.value() <= 4 * 2 * copy + 1e-12);  // 4 micro-batches, at most the copies both ways
        }
      CHECK(term);
    }
    // The slow PCIe link exposes more than NVLink-C2C does.
    const auto exposed = [&](const char* name) {
      const Cluster c = make_cluster(gpu(name), 8, 8, infiniband(50_GBps));
      return estimate_training(job, off, c, fw).iteration.value() - estimate_training(job, kept, c, fw).iteration.value();
    };
    CHECK(exposed("B200") > exposed("GB200"));
    CHECK(exposed("B200") > 0);
    // Megatron-Core's rules, each an error naming offload_layers.
    const Cluster c = make_cluster(gpu("H100 SXM"), 8, 8, infiniband(50_GBps));
    ParallelPlan bad = off;
    bad.offload_layers = 32;
    CHECK(field_of([&] { (void)estimate_training(job, bad, c, fw); }) == "offload_layers");
    CHECK(field_of([&] { (void)plan_memory(job, bad, fw); }) == "offload_layers");
    bad.offload_layers = -1;
    CHECK(field_of([&] { (void)plan_memory(job, bad, fw); }) == "offload_layers");
    bad = off;
    bad.recompute = Recompute::full;
    CHECK(field_of([&] { (void)estimate_training(job, bad, c, fw); }) == "offload_layers");
    bad = off;
    bad.pp = 2;
    bad.dp = 4;
    CHECK(field_of([&] { (void)estimate_training(job, bad, c, fw); }) == "offload_layers");
    // The fewest-GPUs solver keeps the offloading without pipeline stages and drops it with them.
    const auto fewest = min_gpus_for_training(job.model, cfg, gpu("H100 SXM").capacity());
    REQUIRE(fewest.has_value());
    CHECK(fewest->pipeline == 1);
    CHECK(fewest->budget.activations.detail.find("offloaded to host memory") != std::string::npos);
    TrainingConfig deep = cfg;
    deep.seq_len = 131072;  // 32 layers of 131K tokens fit no single GPU: the solver goes to pipeline stages
    const auto staged = min_gpus_for_training(job.model, deep, gpu("H100 SXM").capacity());
    REQUIRE(staged.has_value());
    if (staged->pipeline > 1) CHECK(staged->budget.activations.detail.find("offloaded") == std::string::npos);
    // A SoC's GPU and CPU share one memory: offloading frees nothing, an error naming the field.
    CHECK(field_of([&] { validate_offload_gpu(gpu("DGX Spark"), 4); }) == "offload_layers");
    CHECK_NOTHROW(validate_offload_gpu(gpu("DGX Spark"), 0));
    CHECK_NOTHROW(validate_offload_gpu(gpu("GB200"), 4));
  }

  TEST_CASE("the plan search tries activation offloading on a Grace superchip: the fewest layers that fit, when it is faster") {
    // Llama 3 70B on 64 GB200 at 8,192 tokens, FP8 (the Megatron-Bridge recipe's model and GPUs).
    const TrainingJob job = llama3_70b_fp8_job();
    const Framework fw = megatron_core();
    const Cluster c = make_cluster(gpu("GB200"), 64, 64, Link{});
    SearchSpace with, without;
    without.offload = false;
    const SearchResult a = search_plans(job, c, fw, {}, 5, with);
    const SearchResult b = search_plans(job, c, fw, {}, 5, without);
    REQUIRE_FALSE(a.top.empty());
    REQUIRE_FALSE(b.top.empty());
    // Offloading only adds plans: the best is never slower, and the ranking stays fastest first.
    CHECK(a.top.front().estimate.iteration.value() <= b.top.front().estimate.iteration.value());
    for (std::size_t i = 1; i < a.top.size(); ++i) CHECK(a.top[i - 1].estimate.iteration.value() <= a.top[i].estimate.iteration.value());
    for (const RankedPlan& r : b.top) CHECK(r.plan.offload_layers == 0);
    bool any = false;
    for (const RankedPlan& r : a.top) {
      if (r.plan.offload_layers == 0) continue;
      any = true;
      // Megatron-Core's rules, a fit, and the fewest layers: one fewer does not fit.
      CHECK(r.plan.pp == 1);
      CHECK(r.plan.recompute == Recompute::none);
      CHECK_NOTHROW(validate_offload(static_cast<int>(job.model.layers), r.plan));
      CHECK(budget_memory_check(fw)(job, r.plan, c));
      ParallelPlan fewer = r.plan;
      fewer.offload_layers -= 1;
      CHECK_FALSE(budget_memory_check(fw)(job, fewer, c));
    }
    CHECK(any);  // NVLink-C2C makes offloading pay here (docs/cli.md, "Activation offloading")
    // The counters: each fitting variant took one check at all-but-one layers and a bisection of at most
    // ceil(log2(layers - 1)) more; none without offloading; the explanation says so only when it tried.
    CHECK(a.offloaded_fits >= 1);
    CHECK(a.offload_checks >= a.offloaded_fits);
    CHECK(a.offload_checks <= a.rejected_for_memory + a.offloaded_fits * 7);  // 80 layers: log2(79) < 7
    CHECK(b.offload_checks == 0);
    CHECK(b.offloaded_fits == 0);
    CHECK(a.explain().find("memory checks of offloaded layers") != std::string::npos);
    CHECK(b.explain().find("offloaded") == std::string::npos);
    // Over PCIe (a DGX B200) the search leaves it alone unless asked to.
    const Cluster b200 = make_cluster(gpu("B200"), 64, 8, infiniband(Bandwidth::from_value(50e9)));
    for (const RankedPlan& r : search_plans(job, b200, fw, {}, 5, with).top) CHECK(r.plan.offload_layers == 0);
  }

  TEST_CASE("a job at a precision no training recipe runs is an error naming precision, not a quiet estimate") {
    // INT8 was once timed at the INT8 tensor rate: half the BF16 time, for a recipe no framework has.
    const TransformerShape m = find_model("llama3.1-8b").transformer();
    TrainingSetup s;
    for (Precision p : {Precision::int8, Precision::int4, Precision::fp6}) {
      s.precision = p;
      CHECK(field_of([&] { (void)best_training_run(m, gpu("B200"), 8, s); }) == "precision");
      TrainingJob job = llama3_70b_fp8_job();
      job.precision = p;
      const Cluster c = make_cluster(gpu("B200"), 8, 8, Link{});
      CHECK(field_of([&] { (void)search_plans(job, c); }) == "precision");
      CHECK(field_of([&] { (void)estimate_training(job, ParallelPlan{.tp = 8}, c); }) == "precision");
    }
    // The same for image models and for serving's activation precision: FP6 once came out 2 x
    // faster than FP16 on a B200 here.
    const ImageModel vit = vit_b16();
    const Cluster one = make_cluster(gpu("B200"), 1, 1, Link{});
    for (Precision p : {Precision::fp6, Precision::int8, Precision::fp4})
      CHECK(field_of([&] { (void)estimate_image_training(vit, 64, one, p); }) == "precision");
    CHECK(field_of([&] { (void)estimate_image_inference(vit, 64, gpu("B200"), Precision::fp6); }) == "precision");
    CHECK_NOTHROW((void)estimate_image_inference(vit, 64, gpu("B200"), Precision::int8));
    InferenceJob ij;
    ij.model = m;
    ij.compute_precision = Precision::fp6;
    CHECK(field_of([&] { (void)estimate_inference(ij, gpu("B200")); }) == "compute_precision");
  }

  TEST_CASE("the fewest GPUs for LoRA count the adapters' memory, not full training's") {
    // Llama 3 70B on H100 SXM: the frozen base weights keep no gradients or optimizer states, so far
    // fewer GPUs hold LoRA fine-tuning than full training (compare once printed full training's count).
    const TransformerShape& m = std::get<TransformerShape>(find_model("llama3-70b").model);
    TrainingSetup lora;
    lora.finetune = FineTune::lora;
    TrainingRunCache runs(m, lora);
    const auto f = runs.fewest_gpus(gpu("H100 SXM"), 1, 8, 4096);
    REQUIRE(f);
    const auto full = TrainingRunCache(m, TrainingSetup{}).fewest_gpus(gpu("H100 SXM"), 1, 8, 4096);
    REQUIRE(full);
    CHECK(*f < *full);
    CHECK(*f <= 4);
    if (*f > 1) CHECK_FALSE(runs.best(gpu("H100 SXM"), *f - 1, 8).run);
  }

  TEST_CASE("the fewest GPUs on one-GPU nodes: a dense bound within the node, probes beyond 16 counts") {
    // Llama 2 70B on L4 instances of one GPU each (a fabric between them): the bound with TP 1 is a
    // "tight" 108, and the first count the search fits is 132, beyond the 16 counts probed one by one.
    // compare called these rows "no fit".
    const TransformerShape& m = std::get<TransformerShape>(find_model("llama2-70b").model);
    TrainingSetup s;
    s.fabric = perf::find_fabric("eth-100");
    TrainingRunCache runs(m, s);
    const GpuSpec& l4 = gpu("L4");
    const auto f = runs.fewest_gpus(l4, 1, 1, 4096);
    REQUIRE(f);
    CHECK(*f == 132);
    REQUIRE(runs.best(l4, *f, 1).run);
    CHECK(runs.best(l4, *f, 1).run->plan.tp == 1);
    for (int n = 124; n < 132; ++n) CHECK_FALSE(runs.best(l4, n, 1).run);
  }

  TEST_CASE("the fewest GPUs that train a model count activation offloading where the search may offload") {
    // BLOOM-176B at 32,768 tokens on GB300 under Megatron-Core: a plan without recomputation that keeps
    // one layer's activations on the GPU fits on 14, where full recomputation's checkpoints of all 70
    // layers need 16. The purchase table's lower bound took only the second and answered 16.
    const TransformerShape& bloom = std::get<TransformerShape>(find_model("bloom-176b").model);
    TrainingSetup s;
    s.framework = megatron_core();
    s.seq_len = 32768;
    const GpuSpec& g = gpu("GB300");
    TrainingRunCache runs(bloom, s);
    const auto fewest = runs.fewest_gpus(g, 1, 72, 4096);
    REQUIRE(fewest);
    CHECK(*fewest == 14);
    CHECK_FALSE(runs.best(g, 13, 72).run);
    REQUIRE(runs.best(g, 14, 72).run);
    CHECK(runs.best(g, 14, 72).run->plan.offload_layers > 0);
    CHECK(perf::offloads_activations(s.space, s.framework, bloom.layers, g));
    // Without offloading in the search space the answer is full recomputation's.
    TrainingSetup none = s;
    none.space.offload = false;
    CHECK_FALSE(perf::offloads_activations(none.space, none.framework, bloom.layers, g));
    CHECK(TrainingRunCache(bloom, none).fewest_gpus(g, 1, 72, 4096) == 16);
    // Over PCIe (B200) the search does not offload, and neither does the bound.
    CHECK_FALSE(perf::offloads_activations(s.space, s.framework, bloom.layers, gpu("B200")));
  }

  TEST_CASE("activation offloading: each copy is due by the end of its window (Transformer Engine's layer_window_map)") {
    // 126 layers, 95 offloaded: windows of two layers for the first 31 (L mod N = 31 windows one longer
    // than L / N = 1), then of one for the other 64, tiling the 126 layers.
    CHECK(detail::offload_window_end(126, 95, 0) == 1);
    CHECK(detail::offload_window_end(126, 95, 30) == 61);
    CHECK(detail::offload_window_end(126, 95, 31) == 62);
    CHECK(detail::offload_window_end(126, 95, 94) == 125);
    CHECK(detail::offload_window_end(80, 40, 0) == 1);
    CHECK(detail::offload_window_end(80, 40, 39) == 79);
    // Each copy starts when its layer ends and is due when its window ends: the first of these windows of
    // two layers leaves one layer (1 s) to hide it in, and later copies queue behind it with time to spare.
    CHECK(detail::offload_exposed_seconds(80, 40, 1.0, 0.9) == doctest::Approx(0.0));
    CHECK(detail::offload_exposed_seconds(80, 40, 1.0, 1.9) == doctest::Approx(0.9));
    // L = 4, N = 2, layers of 1 s, copies of 1.5 s: copy 0 runs 1-2.5 s and the compute waits for it at
    // the end of layer 1 (2 s -> 2.5 s); copy 1 runs 2.5-4 s, done before layer 3 ends at 4.5 s: 0.5 s
    // exposed, where copies against the whole pass (3 s of copies, 4 s of compute) would say none.
    CHECK(detail::offload_exposed_seconds(4, 2, 1.0, 1.5) == doctest::Approx(0.5));
    // Uneven windows: L = 8, N = 3 gives windows ending at layers 2, 5, 7, so the copies hide in 2, 3 and 2
    // layers; copies of 2.5 s expose 0.5 + 0 + 0.5. No copy runs ahead into an earlier window's slack.
    CHECK(detail::offload_window_end(8, 3, 0) == 2);
    CHECK(detail::offload_window_end(8, 3, 1) == 5);
    CHECK(detail::offload_window_end(8, 3, 2) == 7);
    CHECK(detail::offload_exposed_seconds(8, 3, 1.0, 2.5) == doctest::Approx(1.0));
    // Longer copies than layers: at least what the copies exceed the pass by.
    CHECK(detail::offload_exposed_seconds(10, 5, 1.0, 4.0) >= 5 * 4.0 - 10 * 1.0 - 1e-12);
    CHECK(detail::offload_exposed_seconds(10, 0, 1.0, 4.0) == 0.0);
  }

  TEST_CASE("attention runs slower on shorter sequences (cuDNN's sweeps, 2K-32K tokens)") {
    // Hopper s0: 940 forward, 1,340 backward; Blackwell 1,540 and 1,720; 1 at 16K by construction.
    const DeviceRates h = device_rates(gpu("H100 SXM"), Precision::bf16);
    const DeviceRates b = device_rates(gpu("B200"), Precision::bf16);
    const DeviceRates a = device_rates(gpu("A100 SXM 80GB"), Precision::bf16);
    CHECK(h.attention_s0_fwd == 940);
    CHECK(h.attention_s0_bwd == 1340);
    CHECK(b.attention_s0_fwd == 1540);
    CHECK(a.attention_s0_fwd == 0);  // no sweep: one rate at every length
    CHECK(attention_length_factor(940, 16384) == doctest::Approx(1.0));
    CHECK(attention_length_factor(0, 2048) == 1.0);
    // The sweep's own points, H200 forward 484 / 673 and GB200 backward 836 / 1,402 at 2K against 16K:
    CHECK(attention_length_factor(940, 2048) == doctest::Approx(484.0 / 673).epsilon(0.02));
    CHECK(attention_length_factor(1720, 2048) == doctest::Approx(836.0 / 1402).epsilon(0.05));
    CHECK(attention_length_factor(940, 32768) == doctest::Approx(688.0 / 673).epsilon(0.03));
    // Outside the sweep: the 2K rate below, the 32K rate above.
    CHECK(attention_length_factor(940, 512) == attention_length_factor(940, 2048));
    CHECK(attention_length_factor(1340, 131072) == attention_length_factor(1340, 32768));
    // A sliding-window layer's keys span its window: Mistral 7B (4,096-token windows) at 32K tokens runs
    // its attention at the 4K rate, slower than a model of global layers at 32K.
    {
      TrainingJob mj;
      mj.model = find_model("mistral-7b").transformer();
      REQUIRE(mj.model.window.has_value());
      mj.global_batch = 8;
      mj.seq_len = 32768;
      ParallelPlan mp;
      mp.dp = 8;
      const Cluster mc = make_cluster(gpu("H100 SXM"), 8, 8, infiniband(50_GBps));
      const TrainingEstimate windowed = estimate_training(mj, mp, mc, megatron_core());
      bool said = false;
      for (const auto& line : windowed.breakdown.assumptions)
        said = said || line.find("the sliding-window layers' 4096 tokens at x " + num(attention_length_factor(940, 4096), 3)) != std::string::npos;
      CHECK(said);
    }
    // A user's measured attention rate is used as given, at every length.
    EfficiencyModel em;
    em.flash_forward_relative = 0.5;
    CHECK(device_rates(gpu("H100 SXM"), Precision::bf16, em).attention_s0_fwd == 0);
    // In a training step at 2,048 tokens the explanation names the factor it applied.
    TrainingJob job;
    job.model = find_model("llama3.1-8b").transformer();
    job.global_batch = 64;
    job.seq_len = 2048;
    const Cluster c = make_cluster(gpu("H100 SXM"), 8, 8, infiniband(50_GBps));
    ParallelPlan p;
    p.dp = 8;
    const TrainingEstimate e = estimate_training(job, p, c, megatron_core());
    bool said = false;
    for (const auto& s : e.breakdown.assumptions) said = said || s.find("of the 16K-token rates") != std::string::npos;
    CHECK(said);
  }

  TEST_CASE("plan search tries the three context-parallel exchanges (configurations item 2)") {
    // Llama 3.1 8B (32 heads, 8 K/V heads) at 131,072 tokens on 16 H100: with cp > 1 the ring, the
    // all-gather and, where the heads split, Ulysses' all-to-alls are all timed.
    TrainingJob job;
    job.model = find_model("llama3.1-8b").transformer();
    job.seq_len = 131072;
    job.global_batch = 16;
    const Cluster c = make_cluster(gpu("H100 SXM"), 16, 8, infiniband(50_GBps));
    SearchSpace ring_only;
    ring_only.micro_batches = {1};
    ring_only.zero_stages = {ZeroStage::optimizer};
    ring_only.recompute = {Recompute::full};
    ring_only.interleave = {1};
    ring_only.cp_comms = {CpComm::p2p};
    SearchSpace all = ring_only;
    all.cp_comms = {CpComm::p2p, CpComm::all_gather, CpComm::a2a};
    const SearchResult r1 = search_plans(job, c, megatron_core(), {}, 200, ring_only);
    const SearchResult r3 = search_plans(job, c, megatron_core(), {}, 200, all);
    CHECK(r3.candidates > r1.candidates);  // cp = 1 plans once, cp > 1 ones up to three times
    bool gather = false, ulysses = false;
    for (const auto& t : r3.top) {
      const ParallelPlan& p = t.plan;
      if (p.cp == 1) CHECK(p.cp_comm == CpComm::p2p);
      gather = gather || p.cp_comm == CpComm::all_gather;
      if (p.cp_comm == CpComm::a2a) {
        ulysses = true;
        CHECK(ulysses_divides(32, 8, p.tp, p.cp));
      }
      CHECK_NOTHROW((void)estimate_training_numbers(job, p, c, megatron_core()));
    }
    CHECK(gather);
    CHECK(ulysses);
    // Ulysses needs whole heads per rank: 32 heads over tp 8 leave 4, which cp 8 does not divide.
    CHECK(ulysses_divides(32, 8, 8, 4));
    CHECK_FALSE(ulysses_divides(32, 8, 8, 8));
  }

  TEST_CASE("ZeRO-2 reduce-scatters every micro-batch's gradients, ZeRO-1 once per iteration (DeepSpeed#2252)") {
    // Llama 3.1 8B on 16 H100 over two nodes, DP 16 at micro-batch 1: m = global batch / 16 micro-batches.
    // Without overlap the exposed term is the whole reduction, so ZeRO-2's excess over ZeRO-1 is
    // (m - 1) reduce-scatters of the same gradients: 3 of them at m = 4, 1 at m = 2, none at m = 1.
    Framework fw = megatron_core();
    fw.overlap_grad_reduce = false;
    const Cluster c = make_cluster(gpu("H100 SXM"), 16, 8, infiniband(50_GBps));
    const auto reduction = [&](ZeroStage zero, std::int64_t global_batch) {
      TrainingJob job;
      job.model = find_model("llama3.1-8b").transformer();
      job.seq_len = 4096;
      job.global_batch = global_batch;
      ParallelPlan p;
      p.dp = 16;
      p.zero_stage = zero;
      const TrainingEstimate e = estimate_training(job, p, c, fw);
      for (const auto& t : e.breakdown.terms)
        if (t.name == "data-parallel gradient reduction (exposed)") return std::make_pair(t.time.value(), t.arithmetic);
      return std::make_pair(-1.0, std::string());
    };
    const auto [z1_1, text_z1] = reduction(ZeroStage::optimizer, 16);
    const auto [z2_1, text_z2_1] = reduction(ZeroStage::gradients, 16);
    CHECK(z1_1 > 0);
    CHECK(z2_1 == doctest::Approx(z1_1).epsilon(1e-12));  // one micro-batch: the same reduction
    const double excess2 = reduction(ZeroStage::gradients, 32).first - reduction(ZeroStage::optimizer, 32).first;
    const auto [z2_4, text_z2_4] = reduction(ZeroStage::gradients, 64);
    const double excess4 = z2_4 - reduction(ZeroStage::optimizer, 64).first;
    CHECK(excess2 > 0);
    CHECK(excess4 / excess2 == doctest::Approx(3.0).epsilon(1e-9));
    CHECK(text_z2_4.find("4 micro-batches x reduce-scatter") != std::string::npos);
    CHECK(text_z1.find("micro-batches") == std::string::npos);
    // The search tries ZeRO 2 only without pipeline stages (DeepSpeed's pipeline engine refuses it).
    TrainingJob job;
    job.model = find_model("llama3.1-8b").transformer();
    job.seq_len = 4096;
    job.global_batch = 64;
    SearchSpace z1, z2;
    z1.zero_stages = {ZeroStage::optimizer};
    z2.zero_stages = {ZeroStage::gradients};
    const SearchResult r1 = search_plans(job, c, megatron_core(), {}, 20, z1);
    const SearchResult r2 = search_plans(job, c, megatron_core(), {}, 20, z2);
    CHECK(r2.candidates < r1.candidates);
    REQUIRE_FALSE(r2.top.empty());
    for (const auto& t : r2.top) CHECK(t.plan.pp == 1);
    CHECK(std::any_of(r1.top.begin(), r1.top.end(), [](const RankedPlan& t) { return t.plan.pp > 1; }));
  }

  TEST_CASE("plan search covers NVIDIA's tuned layouts: CP 2 at 8,192 tokens, interleaving beyond 4") {
    // Megatron-Bridge's Llama 3.1 70B recipe on 64 H100 runs TP 4 x PP 4 x CP 2 x DP 2 with 5 virtual
    // stages at 8,192 tokens; the search's space once held neither CP below 16,384 tokens nor VP 5.
    const SearchSpace defaults;
    const TransformerShape llama70 = find_model("llama3.1-70b").transformer();
    CHECK(defaults.cp_degrees(8192, true, llama70) == std::vector<int>{1, 2, 4});  // a rank keeps >= 2,048 tokens
    CHECK(defaults.cp_degrees(16384, true, llama70) == std::vector<int>{1, 2, 4, 8});
    CHECK(defaults.cp_degrees(4096, true, llama70) == std::vector<int>{1});
    CHECK(defaults.cp_degrees(8192, false, llama70) == std::vector<int>{1});  // CP runs in the fused kernel
    for (int v : {5, 7, 8, 12, 20}) CHECK(std::find(defaults.interleave.begin(), defaults.interleave.end(), v) != defaults.interleave.end());
    TrainingJob job;
    job.model = llama70;
    job.seq_len = 8192;
    job.global_batch = 128;
    const Cluster c = make_cluster(gpu("H100 SXM"), 64, 8, infiniband(50_GBps));
    SearchSpace space = defaults;
    space.micro_batches = {1};
    space.zero_stages = {ZeroStage::optimizer};
    space.recompute = {Recompute::none};
    space.cp_comms = {CpComm::p2p};
    space.end_stage_layouts = false;
    // A check that accepts the published plan only: the search reaches it wherever it ranks.
    const auto published = [](const TrainingJob&, const ParallelPlan& p, const Cluster&) {
      return p.tp == 4 && p.pp == 4 && p.cp == 2 && p.interleave == 5 && p.sequence_parallel;
    };
    const SearchResult r = search_plans(job, c, megatron_core(), {}, 1, space, published);
    REQUIRE(r.top.size() == 1);
    CHECK(r.top[0].plan.dp == 2);
    CHECK(chunks_divide(80, r.top[0].plan));
    // An odd sequence splits into no 2 x cp chunks: cp = 1 only. No floor (0): every degree that splits.
    CHECK(defaults.cp_degrees(8193, true, llama70) == std::vector<int>{1});
    SearchSpace no_floor;
    no_floor.min_cp_tokens = 0;
    CHECK(no_floor.cp_degrees(8192, true, llama70) == std::vector<int>{1, 2, 4, 8, 16, 32});
    SearchSpace without_one;
    without_one.context_parallel = {16, 32};
    CHECK(without_one.cp_degrees(8192, true, llama70) == std::vector<int>{1});  // all dropped: cp = 1 still searched
  }

  TEST_CASE("interleaving needs the micro-batches per iteration to be a multiple of pp (Megatron-LM's rule)") {
    TrainingJob job = validation::gpt3_175b_job();  // 192 micro-batches = 12 x 16: runs
    ParallelPlan p;
    p.tp = 8;
    p.pp = 16;
    p.dp = 8;
    p.interleave = 2;
    p.recompute = Recompute::full;
    const Cluster c = validation::dgx_a100_cluster(1024);
    CHECK(estimate_training(job, p, c, megatron_lm_2021()).iteration.value() > 0);
    job.global_batch = 1544;  // 193 micro-batches: Megatron-LM raises an error
    CHECK_THROWS_WITH_AS((void)estimate_training(job, p, c, megatron_lm_2021()),
                         "interleave: 2 needs the micro-batches per iteration (193 = global_batch / (micro_batch x dp)) to be a multiple of pp = 16",
                         InputError);
    p.interleave = 1;  // plain 1F1B has no such rule
    CHECK(estimate_training(job, p, c, megatron_lm_2021()).iteration.value() > 0);
    // The search never returns an interleaved plan that breaks the rule.
    job.global_batch = 1536;
    SearchSpace space;
    space.interleave = {2};
    space.micro_batches = {1, 2, 4, 8, 16};  // e.g. pp 32 x dp 4 with micro-batch 16: 24 micro-batches
    const SearchResult r = search_plans(job, c, megatron_lm_2021(), {}, 20, space);
    REQUIRE_FALSE(r.top.empty());
    for (const auto& t : r.top) {
      const std::int64_t m = job.global_batch / (t.plan.micro_batch * t.plan.dp);
      CHECK(m % t.plan.pp == 0);
    }
  }

  TEST_CASE("plan search: tight memory fits are skipped unless allowed (fidelity issue, item 14)") {
    // Llama 3.1 70B on 32 H100 at 4,096 tokens, 64 sequences: the fastest plan that fits at all (ZeRO 1,
    // TP 4 x PP 4 x DP 2) leaves less headroom than a caching allocator may lose to fragmentation
    // (GMLake's average 15 %); the search returns the fastest plan that leaves the margin.
    TrainingJob job;
    job.model = find_model("llama3.1-70b").transformer();
    job.seq_len = 4096;
    job.global_batch = 64;
    const Cluster c = make_cluster(gpu("H100 SXM"), 32, 8, infiniband(25_GBps));
    const SearchSpace space;
    const SearchResult safe = search_plans(job, c, megatron_lm_2021(), {}, 3, space);
    SearchSpace loose = space;
    loose.allow_tight = true;
    const SearchResult any = search_plans(job, c, megatron_lm_2021(), {}, 3, loose);
    REQUIRE_FALSE(safe.top.empty());
    REQUIRE_FALSE(any.top.empty());
    for (const auto& r : safe.top) {
      const FitResult f = check_fit(plan_memory(job, r.plan, megatron_lm_2021()), c.gpu.capacity());
      CHECK(f.fits);
      CHECK_FALSE(f.tight);
    }
    const FitResult fastest = check_fit(plan_memory(job, any.top[0].plan, megatron_lm_2021()), c.gpu.capacity());
    CHECK(fastest.fits);
    CHECK(fastest.tight);  // the fastest plan overall is a tight one here
    CHECK(any.top[0].estimate.iteration.value() < safe.top[0].estimate.iteration.value());
    CHECK(safe.rejected_for_memory > any.rejected_for_memory);
    // The user's own check sees the same verdict: budget_memory_check(fw, allow_tight).
    CHECK(budget_memory_check(megatron_lm_2021(), true)(job, any.top[0].plan, c));
    CHECK_FALSE(budget_memory_check(megatron_lm_2021())(job, any.top[0].plan, c));
  }

  TEST_CASE("validation: Megatron-LM Table 1 median error <= 4 % as fitted, none over 10 %; left out <= 12 %") {
    std::vector<double> errs, left_out;
    for (const ValidationCase& c : validation::megatron_table1()) errs.push_back(std::fabs(c.error()));
    for (const auto& r : validation::megatron_table1_rows) left_out.push_back(std::fabs(validation::megatron_table1_rate(r, 1.0) / r.published - 1));
    REQUIRE(errs.size() == 10);
    std::sort(errs.begin(), errs.end());
    std::sort(left_out.begin(), left_out.end());
    CHECK((errs[4] + errs[5]) / 2 <= 0.04);
    CHECK(errs.back() <= 0.10);
    // With the release's scale at its prior, as a source that did not shape it sees the model.
    CHECK((left_out[4] + left_out[5]) / 2 <= 0.12);
    CHECK(left_out.back() <= 0.20);
  }

  TEST_CASE("Megatron-LM 2021's kernel time scale is the median its Table 1 rows fit") {
    const validation::KernelScaleFit fit = validation::megatron_2021_kernel_scale_fit();
    REQUIRE(fit.per_row.size() == std::size(validation::megatron_table1_rows));
    // The constant is the re-derived median, rounded to 4 digits.
    CHECK(std::fabs(megatron_lm_2021_kernel_time_scale - fit.median) <= 5e-4);
    CHECK(megatron_lm_2021().kernel_time_scale == megatron_lm_2021_kernel_time_scale);
    // Each row's own scale reproduces its published rate.
    for (std::size_t i = 0; i < fit.per_row.size(); ++i) {
      const auto& r = validation::megatron_table1_rows[i];
      CAPTURE(r.billions);
      CHECK(validation::megatron_table1_rate(r, fit.per_row[i]) == doctest::Approx(r.published).epsilon(1e-6));
    }
    // The 2022 release is the same framework at capplan's kernel model.
    Framework a = megatron_lm_2021(), b = megatron_lm_2022();
    CHECK(b.kernel_time_scale == 1.0);
    a.kernel_time_scale = 1.0;
    a.name = b.name;
    CHECK(a.overlap_grad_reduce == b.overlap_grad_reduce);
    CHECK(a.overlap_param_gather == b.overlap_param_gather);
    CHECK(a.flash_attention == b.flash_attention);
    CHECK(a.dropout == b.dropout);
    CHECK(a.vocab_multiple == b.vocab_multiple);
    CHECK(a.grad_reduce_bytes == b.grad_reduce_bytes);
    CHECK(a.master_grad_bytes == b.master_grad_bytes);
    CHECK(a.param_gather_bytes == b.param_gather_bytes);
    CHECK(a.eager == b.eager);
    CHECK(a.cpu_seconds_per_kernel == b.cpu_seconds_per_kernel);
    // Same job and plan: the 2022 preset times the same as the 2021 one with its scale at 1.
    const auto& r = validation::megatron_table1_rows[5];
    const TrainingJob job = validation::megatron_table1_job(r);
    const ParallelPlan plan = validation::megatron_table1_plan(r);
    const Cluster c = validation::dgx_a100_cluster(r.gpus);
    CHECK(estimate_training(job, plan, c, a).iteration.value() == estimate_training(job, plan, c, b).iteration.value());
  }

  TEST_CASE("kernel_time_scale slows the layers' kernels, not the collectives or the optimizer step") {
    const auto& r = validation::megatron_table1_rows[4];  // 39.1B: TP 8 x PP 2, an all-reduce after the backward
    Framework one = validation::megatron_table1_framework(r), slow = one;
    one.kernel_time_scale = 1.0;
    slow.kernel_time_scale = 1.25;
    const TrainingJob job = validation::megatron_table1_job(r);
    const ParallelPlan plan = validation::megatron_table1_plan(r);
    const Cluster c = validation::dgx_a100_cluster(r.gpus);
    const TrainingEstimate e1 = estimate_training(job, plan, c, one), e2 = estimate_training(job, plan, c, slow);
    const auto find = [](const TrainingEstimate& e, std::string_view label) {
      for (const Term& t : e.breakdown.terms)
        if (t.name.starts_with(label)) return t.time.value();
      return -1.0;
    };
    CHECK(find(e2, "forward") == doctest::Approx(1.25 * find(e1, "forward")));
    CHECK(find(e2, "backward") == doctest::Approx(1.25 * find(e1, "backward")));
    CHECK(find(e2, "recomputation") == doctest::Approx(1.25 * find(e1, "recomputation")));
    CHECK(find(e2, "tensor-parallel") == doctest::Approx(find(e1, "tensor-parallel")));
    CHECK(find(e1, "tensor-parallel") > 0);
    CHECK(find(e2, "optimizer step") == doctest::Approx(find(e1, "optimizer step")));
    CHECK(find(e2, "data-parallel gradient reduction") == doctest::Approx(find(e1, "data-parallel gradient reduction")));
    CHECK(find(e1, "data-parallel gradient reduction") > 0);
    CHECK(e2.model_flops.value() == doctest::Approx(e1.model_flops.value()));
    CHECK(e2.explain().find("the layers' kernels take x 1.25 the time (given)") != std::string::npos);
    CHECK(estimate_training(job, plan, c, validation::megatron_table1_framework(r)).explain().find("take x 1.117 the time (Megatron-LM 2021's, fitted") !=
          std::string::npos);
    CHECK(e1.explain().find("the layers' kernels take") == std::string::npos);
    // Out of range, NaN: an InputError naming the field.
    for (double bad : {0.3, 2.5, std::nan("")}) {
      Framework f = one;
      f.kernel_time_scale = bad;
      CHECK(field_of([&] { (void)estimate_training(job, plan, c, f); }) == "kernel_time_scale");
      CHECK(field_of([&] { (void)explain_layer_ops(job, plan, c, f); }) == "kernel_time_scale");
    }
  }

  TEST_CASE("validation: Table 1 rows are predicted with the authors' artifact plans") {
    // examples/sc21/run_table_1.sh: 1.7B at micro-batch 16 over PyTorch DDP, 76.1B at micro-batch 2
    // with 5 layers per virtual stage (60 layers / pp 4 / 5 = 3 chunks).
    const TrainingEstimate small = validation::megatron_table1_estimate(validation::megatron_table1_rows[0]);
    CHECK(small.plan.micro_batch == 16);
    CHECK(small.micro_batches == 1);  // 512 / dp 32 / 16
    CHECK(small.breakdown.text().find("hides under compute") != std::string::npos);  // DDP overlaps the all-reduce
    const TrainingEstimate big = validation::megatron_table1_estimate(validation::megatron_table1_rows[5]);
    CHECK(big.plan.micro_batch == 2);
    CHECK(big.plan.interleave == 3);
    CHECK(big.breakdown.text().find("hides under compute") == std::string::npos);  // DDP=local: after the backward
  }

  TEST_CASE("search realism: plans compared by time, and the search covers the authors' plans") {
    for (const auto& c : validation::search_realism()) {
      CAPTURE(c.name);
      REQUIRE(std::isfinite(c.searched));
      // The authors' plan is in the searched space, so the best plan is at least as fast.
      CHECK(c.searched >= c.published_plan * (1 - 1e-9));
      // Letting recomputation go can only help.
      CHECK(c.unrestricted >= c.searched * (1 - 1e-9));
    }
    // Without recomputation a step runs three passes, not four: in the paper's counting (four passes over
    // the step's time) the 1.7B row's best such plan is well above the best plan with recomputation,
    // though its hardware FLOP/s are lower.
    const auto cases = validation::search_realism();
    CHECK(cases.front().unrestricted_plan.find("recompute none") != std::string::npos);
    CHECK(cases.front().unrestricted > 1.2 * cases.front().searched);
  }
}

TEST_SUITE("perf") {
  TEST_CASE("recomputation by module (Megatron-Core --recompute-modules): time, collectives, hardware FLOPs (configurations)") {
    TrainingJob job;
    job.model = find_model("llama3.1-8b").transformer();
    job.seq_len = 4096;
    job.global_batch = 8;
    const Cluster node = make_cluster(gpu("H100 SXM"), 8, 8, Link{});
    ParallelPlan core;
    core.tp = 2;
    core.dp = 4;
    core.sequence_parallel = true;
    core.recompute = Recompute::selective;
    const Framework fw = megatron_core();
    const TrainingEstimate e_core = estimate_training(job, core, node, fw);
    ParallelPlan named = core;
    named.recompute_modules = recompute_module::core_attn;  // Megatron-Core's default, named
    CHECK(estimate_training(job, named, node, fw).iteration.value() == e_core.iteration.value());
    ParallelPlan mlp = core;
    mlp.recompute_modules = recompute_module::mlp;
    const TrainingEstimate e_mlp = estimate_training(job, mlp, node, fw);
    // The dense MLP's forward runs again: its three GEMMs (gate, up, down: 6 h f FLOPs per token per
    // layer) in the hardware FLOPs, exactly; core_attn reruns the FlashAttention kernel's forward
    // (Megatron-Core checkpoints the core attention around the fused kernel): QK^T and PV over all
    // s^2 pairs, 4 s h FLOPs per token per layer under the counting rule MFU uses.
    const double h = 4096, f = 14336, layers = 32, tokens = 8.0 * 4096;
    CHECK(e_core.hardware_flops.value() - e_core.model_flops.value() == doctest::Approx(4 * 4096 * h * layers * tokens).epsilon(1e-9));
    ParallelPlan kept = core;
    kept.recompute = Recompute::none;
    const TrainingEstimate e_none = estimate_training(job, kept, node, fw);
    CHECK(e_none.hardware_flops.value() == e_none.model_flops.value());
    CHECK(e_core.iteration.value() > e_none.iteration.value());
    const auto fwd_costs = layer_costs(job, 2, 1, true, fw, device_rates(gpu("H100 SXM"), job.precision));
    CHECK(fwd_costs.layer.modules_time(recompute_module::core_attn) == doctest::Approx(fwd_costs.layer.attn_fwd));
    CHECK(e_mlp.hardware_flops.value() - e_mlp.model_flops.value() == doctest::Approx(6 * h * f * layers * tokens).epsilon(1e-9));
    CHECK(e_mlp.hfu > e_mlp.mfu);
    CHECK(e_mlp.iteration.value() > e_core.iteration.value());
    // Its time: the MLP's kernels (tagged by the layer's ops) plus its tensor-parallel collective once more.
    const auto costs = layer_costs(job, 2, 1, true, fw, device_rates(gpu("H100 SXM"), job.precision));
    double mlp_ops = 0;
    for (const Op& op : transformer_layer_forward(job.model, 4096, 4096, 2, Precision::bf16, LayerOptions{.sequence_parallel = true}))
      if (op.module == recompute_module::tag(recompute_module::mlp)) mlp_ops += op.flops;
    CHECK(costs.layer.modules_flops(recompute_module::mlp) == doctest::Approx(mlp_ops));
    CHECK(costs.layer.modules_time(recompute_module::mlp) > 0);
    std::string label;
    for (const auto& t : e_mlp.breakdown.terms)
      if (t.name.rfind("recomputation", 0) == 0) label = t.name;
    CHECK(label == "recomputation (selective (mlp))");
    // Rules: modules need selective, and a model that has them; eager PyTorch recomputes no module.
    ParallelPlan bad = mlp;
    bad.recompute = Recompute::full;
    CHECK(field_of([&] { (void)estimate_training(job, bad, node, fw); }) == "recompute_modules");
    bad = core;
    bad.recompute_modules = recompute_module::moe;
    CHECK(field_of([&] { (void)estimate_training(job, bad, node, fw); }) == "recompute_modules");
    ParallelPlan one;
    one.recompute = Recompute::selective;
    one.recompute_modules = recompute_module::mlp;
    const Cluster single = make_cluster(gpu("H100 SXM"), 1, 8, Link{});
    CHECK(field_of([&] { (void)estimate_training(job, one, single, pytorch_eager()); }) == "recompute_modules");
  }

  TEST_CASE("plan search tries the recomputation module lists published recipes run, where they apply (fidelity)") {
    namespace rm = recompute_module;
    SearchSpace space;
    const TransformerShape dense = find_model("llama3.1-8b").transformer(), mixtral = find_model("mixtral-8x7b").transformer(),
                           deepseek = find_model("deepseek-r1").transformer();
    using Sets = std::vector<std::uint8_t>;
    // Dense: Megatron-Core's default only. Mixtral (no dense layer, no MLA): the moe_act lists.
    // DeepSeek-V3 (MLA, 3 dense layers): all five, after core_attn.
    CHECK(selective_module_sets(space, dense, megatron_core()) == Sets{0});
    CHECK(selective_module_sets(space, mixtral, megatron_core()) == Sets{0, rm::moe_act, rm::moe_act | rm::layernorm});
    CHECK(selective_module_sets(space, deepseek, megatron_core()) ==
          Sets{0, rm::mla_up_proj, rm::mla_up_proj | rm::mlp, rm::moe_act, rm::moe_act | rm::layernorm, rm::moe_act | rm::mlp});
    // Every list it tries is one the estimate accepts for that model.
    for (const std::uint8_t m : selective_module_sets(space, deepseek, megatron_core()))
      CHECK_NOTHROW(validate_recompute_modules(deepseek, Recompute::selective, m));
    // One rule decides both: a list the search skips for a model is one the estimate refuses for it.
    for (const TransformerShape* model : {&dense, &mixtral, &deepseek})
      for (const std::uint8_t m : published_module_lists) {
        const Sets sets = selective_module_sets(space, *model, megatron_core());
        const bool tried = std::find(sets.begin(), sets.end(), m) != sets.end();
        CHECK(tried == recompute_modules_apply(*model, m));
        if (tried) CHECK_NOTHROW(validate_recompute_modules(*model, Recompute::selective, m));
        else CHECK(field_of([&] { validate_recompute_modules(*model, Recompute::selective, m); }) == "recompute_modules");
      }
    // Only Megatron-Core has --recompute-modules: eager PyTorch recomputes no module, and FSDP, the
    // generic framework and Megatron-LM 2021 get core_attn only; a named set is the only one; the
    // lists can be turned off.
    CHECK(megatron_core().recompute_module_lists);
    CHECK(selective_module_sets(space, deepseek, pytorch_eager()) == Sets{0});
    CHECK(selective_module_sets(space, deepseek, pytorch_fsdp()) == Sets{0});
    CHECK(selective_module_sets(space, mixtral, Framework{}) == Sets{0});
    CHECK(selective_module_sets(space, mixtral, megatron_lm_2021()) == Sets{0});
    SearchSpace named = space;
    named.recompute_modules = rm::mlp;
    CHECK(selective_module_sets(named, deepseek, megatron_core()) == Sets{rm::mlp});
    SearchSpace off = space;
    off.recompute_module_lists = false;
    CHECK(selective_module_sets(off, deepseek, megatron_core()) == Sets{0});

    // Mixtral 8x7B at 8,192 tokens on 16 H100: the fastest plan that fits recomputes the experts'
    // activation (moe_act), which keeps less than the attention core's recomputation and costs less
    // than rerunning whole layers; without the lists the search's best is slower.
    TrainingJob job;
    job.model = mixtral;
    job.seq_len = 8192;
    job.global_batch = 256;
    const Cluster c = make_cluster(gpu("H100 SXM"), 16, 8, infiniband(50_GBps));
    const SearchResult with = search_plans(job, c, megatron_core(), {}, 3, space);
    const SearchResult without = search_plans(job, c, megatron_core(), {}, 3, off);
    REQUIRE_FALSE(with.top.empty());
    REQUIRE_FALSE(without.top.empty());
    CHECK(with.candidates > without.candidates);
    const ParallelPlan& best = with.top[0].plan;
    CHECK(best.recompute == Recompute::selective);
    CHECK(best.recompute_modules == rm::moe_act);
    CHECK(with.top[0].estimate.iteration.value() < without.top[0].estimate.iteration.value());
    CHECK(budget_memory_check(megatron_core())(job, best, c));
    CHECK(with.top[0].estimate.explain().find("selective (moe_act)") != std::string::npos);
  }

  TEST_CASE("recomputation by module: moe reruns the dispatch and combine, mla_up_proj the up-projections") {
    TrainingJob job;
    job.model = find_model("mixtral-8x7b").transformer();
    job.seq_len = 4096;
    job.global_batch = 16;
    const Cluster c = make_cluster(gpu("H100 SXM"), 16, 8, infiniband(50_GBps));
    ParallelPlan p;
    p.dp = 16;
    p.ep = 8;
    p.zero_stage = ZeroStage::optimizer;
    p.recompute = Recompute::selective;
    const auto a2a = [&](const ParallelPlan& plan) {
      for (const auto& t : estimate_training(job, plan, c, megatron_core()).breakdown.terms)
        if (t.name == "expert-parallel all-to-alls") return t.time.value();
      return 0.0;
    };
    ParallelPlan moe = p;
    moe.recompute_modules = recompute_module::moe;
    CHECK(a2a(moe) == doctest::Approx(a2a(p) * 6 / 4));
    ParallelPlan act = p;
    act.recompute_modules = recompute_module::moe_act;
    CHECK(a2a(act) == doctest::Approx(a2a(p)));
    const TrainingEstimate e_act = estimate_training(job, act, c, megatron_core()), e_moe = estimate_training(job, moe, c, megatron_core());
    CHECK(e_act.hardware_flops.value() == e_act.model_flops.value());  // an activation: bytes, no FLOPs counted
    CHECK(e_moe.hardware_flops.value() > e_moe.model_flops.value());
    CHECK(e_moe.iteration.value() > e_act.iteration.value());
    // Hardware FLOPs count the tokens, not the rows a capacity factor pads: recomputing the MoE layer
    // never counts more than recomputing the whole layer.
    Framework padded = megatron_core();
    padded.moe_capacity_factor = 2;
    ParallelPlan full = p;
    full.recompute = Recompute::full;
    const TrainingEstimate pm = estimate_training(job, moe, c, padded), pf = estimate_training(job, full, c, padded);
    CHECK(pm.hardware_flops.value() / pm.model_flops.value() == doctest::Approx(e_moe.hardware_flops.value() / e_moe.model_flops.value()).epsilon(1e-6));
    CHECK(pm.hardware_flops.value() < pf.hardware_flops.value());
    // DeepSeek-V3's MLA: the query and key-value up-projections' FLOPs run again.
    TrainingJob ds;
    ds.model = find_model("deepseek-r1").transformer();
    ds.seq_len = 4096;
    ds.global_batch = 64;
    const auto costs = layer_costs(ds, 1, 1, false, megatron_core(), device_rates(gpu("H100 SXM"), ds.precision), 8, 1, 1);
    const MlaShape& a = *ds.model.mla;
    const double t = 4096, heads = ds.model.heads;
    const double up = 2 * t * (a.q_lora_rank * heads * (a.qk_nope_head_dim + a.qk_rope_head_dim) + a.kv_lora_rank * heads * (a.qk_nope_head_dim + a.v_head_dim));
    CHECK(costs.layer.modules_flops(recompute_module::mla_up_proj) == doctest::Approx(up).epsilon(1e-12));
    // mlp at TP 2 reruns the dense layers' MLP collective (3 of 61 layers), outside the halving the
    // MoE layers' collectives take with ep > 1: 3/61 of an all-reduce per layer against the
    // 4 - 2 x 58/61 the layers' four collectives come to.
    const Cluster ds_cluster = make_cluster(gpu("H100 SXM"), 64, 8, infiniband(50_GBps));
    ParallelPlan dsp;
    dsp.tp = 2;
    dsp.pp = 8;
    dsp.dp = 4;
    dsp.ep = 8;
    dsp.etp = 1;
    dsp.sequence_parallel = true;
    dsp.zero_stage = ZeroStage::optimizer;
    dsp.recompute = Recompute::selective;
    const auto tp_line = [&](const ParallelPlan& plan) {
      for (const auto& term : estimate_training(ds, plan, ds_cluster, megatron_core()).breakdown.terms)
        if (term.name == "tensor-parallel all-reduces") return term.time.value();
      return 0.0;
    };
    ParallelPlan ds_mlp = dsp;
    ds_mlp.recompute_modules = recompute_module::mlp;
    CHECK((tp_line(ds_mlp) - tp_line(dsp)) / tp_line(dsp) == doctest::Approx((3.0 / 61) / (4 - 2.0 * 58 / 61)).epsilon(1e-9));
  }
}
