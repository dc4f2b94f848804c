// The performance model: capplan/perf (training time for a plan, plan search, inference, CNNs,
// roofline, collectives).
//
//   cluster = make_cluster(gpu, 64, 8, infiniband(Bandwidth(25, "GB/s")))
//   est = estimate_training(TrainingJob(model=shape, global_batch=512), ParallelPlan(tp=8, dp=8), cluster)
//   est.iteration, est.mfu, print(est.explain());  search_plans(job, cluster).top[0].plan
#include "areas.hpp"
#include "plan_fields.hpp"
#include "record.hpp"

#include <capplan/io/image_model_json.hpp>
#include <capplan/memory/image_model.hpp>
#include <capplan/perf/image_model.hpp>
#include <capplan/perf/communication.hpp>
#include <capplan/perf/data_loading.hpp>
#include <capplan/perf/efficiency.hpp>
#include <capplan/perf/fabric.hpp>
#include <capplan/perf/explain.hpp>
#include <capplan/perf/inference.hpp>
#include <capplan/perf/plan_search.hpp>
#include <capplan/perf/roofline.hpp>
#include <capplan/perf/training.hpp>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <set>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace capplan::python {

namespace {

using namespace capplan::perf;

// Op names are string_views (ops are built in hot loops); names given from Python live here.
std::string_view intern(const std::string& s) {
  static std::set<std::string> names;
  return *names.insert(s).first;
}

py::object breakdown_frame(const Breakdown& b) {
  py::list name, seconds, bound, arithmetic;
  for (const Term& t : b.terms) {
    name.append(t.name);
    seconds.append(t.time.value());
    bound.append(t.bound);
    arithmetic.append(t.arithmetic);
  }
  py::dict cols;
  cols["term"] = name;
  cols["time_s"] = seconds;
  cols["bound"] = bound;
  cols["arithmetic"] = arithmetic;
  return py::module_::import("pandas").attr("DataFrame")(cols);
}

void bind_explain_and_links(py::module_& m) {
  Record<Term>(m, "Term", "One line of a breakdown: a named time, its arithmetic and what bounds it.")
      .readonly("name", &Term::name)
      .readonly("time", &Term::time)
      .readonly("arithmetic", &Term::arithmetic)
      .readonly("bound", &Term::bound)
      .finish(false);
  Record<Breakdown>(m, "Breakdown", "The terms an estimate adds up, and its assumptions.")
      .readonly("terms", &Breakdown::terms)
      .readonly("assumptions", &Breakdown::assumptions)
      .finish(false)
      .def("total", &Breakdown::total)
      .def("explain", &Breakdown::text, "One line per term with its share and arithmetic.")
      .def("__str__", &Breakdown::text)
      .def("to_pandas", &breakdown_frame, "The terms as a pandas.DataFrame (term, time_s, bound, arithmetic).");

  text_enum<LinkKind>(m, "LinkKind", "Kind of GPU interconnect.");
  text_enum<PcieHost>(m, "PcieHost", "How a node's PCIe GPUs hang off its host: under PCIe switches, on one CPU's root complex, across two sockets.");
  text_enum<PeerToPeer>(m, "PeerToPeer",
                        "What NCCL may do between PCIe GPUs: automatic (peer-to-peer only under a PCIe switch), forced "
                        "(NCCL_P2P_LEVEL=SYS: through the CPU too; GeForce cards need a patched driver), disabled (NCCL_P2P_DISABLE=1).");
  Record<Link>(m, "Link", "One GPU's attachment to a fabric: bandwidth per direction, latency, achieved efficiency.")
      .field("kind", &Link::kind)
      .field("bandwidth", &Link::bandwidth)
      .field("latency", &Link::latency)
      .field("efficiency", &Link::efficiency)
      .finish()
      .def("effective", [](const Link& l) { return Bandwidth::from_value(l.effective()); }, "bandwidth x efficiency")
      .def("validate", &Link::validate);
  Record<Cluster>(m, "Cluster", "GPUs, how many share a node, and the links inside and between nodes.")
      .field("gpu", &Cluster::gpu)
      .field("gpus", &Cluster::gpus)
      .field("gpus_per_node", &Cluster::gpus_per_node)
      .field("intra", &Cluster::intra)
      .field("inter", &Cluster::inter)
      .field("intra_domain", &Cluster::intra_domain,
             "GPUs `intra` joins all to all (0: the whole node); 2 for NVLink-bridged pairs and pairs under a PCIe switch each")
      .field("intra_beyond", &Cluster::intra_beyond, "the link between GPUs of a node outside one such domain (PCIe)")
      .field("nvls", &Cluster::nvls, "NVLink SHARP: the switches reduce all-reduces inside the node (NVLink 4+ switch systems)")
      .field("pcie_host", &Cluster::pcie_host, "how PCIe links run: peer-to-peer under switches, else through host memory (or through the CPU where p2p is forced)")
      .field("p2p", &Cluster::p2p, "what NCCL may do over the PCIe links: automatic, forced (NCCL_P2P_LEVEL=SYS), disabled")
      .field("host_memory_bandwidth", &Cluster::host_memory_bandwidth,
             "the host's DRAM wire rate (B/s) NCCL's SHM transport shares among the node's GPUs (make_cluster's, given or assumed)")
      .finish()
      .def("validate", &Cluster::validate)
      .def("nodes", &Cluster::nodes);
  Record<Group>(m, "Group", "The GPUs a collective spans: size ranks, per_node of them in one node.")
      .field("size", &Group::size)
      .field("per_node", &Group::per_node)
      .finish();

  Record<Fabric>(m, "Fabric", "The network between nodes: NICs of one speed, one per GPU or a few per node (perf/fabric.hpp).")
      .field("id", &Fabric::id)
      .field("name", &Fabric::name)
      .field("kind", &Fabric::kind)
      .field("nic_speed", &Fabric::nic_speed, "per NIC, per direction; 0: no fabric")
      .field("nics_per_node", &Fabric::nics_per_node, "0: one per GPU")
      .field("latency", &Fabric::latency)
      .field("efficiency", &Fabric::efficiency)
      .field("source", &Fabric::source)
      .finish()
      .def("none", &Fabric::none)
      .def("per_gpu", &Fabric::per_gpu, py::arg("gpus_per_node"), "Each GPU's share of the node's NICs.")
      .def("link", &Fabric::link, py::arg("gpus_per_node"), "The link collectives across nodes run at.")
      .def("describe", &Fabric::describe, py::arg("gpus_per_node"))
      .def("validate", &Fabric::validate);
  m.def("fabric_presets", [] { return std::vector<Fabric>(fabric_presets().begin(), fabric_presets().end()); },
        "The named fabrics: ib-edr, ib-hdr, ib-ndr, ib-xdr, roce-400, eth-100, eth-25, eth-10, none.");
  m.def("find_fabric", [](const std::string& id) { return find_fabric(id); }, py::arg("id"), "A preset by id (ValueError names it otherwise).");
  m.def("usual_fabric", &usual_fabric, py::arg("gpu"), "What a host of this GPU usually has between nodes (an assumption).");
  m.def("offer_fabric", &offer_fabric, py::arg("offer"), py::arg("gpu"),
        "A cloud offer's network between its instances as its provider publishes it (each GPU its share); no network for a "
        "slice of a server that records none; None: what a host of the GPU usually has.");
  m.def("nic_fabric", &nic_fabric, py::arg("nic"), py::arg("count"), py::arg("gpus_per_node"), "A system's own NICs as a fabric.");
  m.def("group_links", &group_links, py::arg("cluster"), py::arg("group"), "The links a collective over the group crosses, by name.");

  m.def("make_cluster", &make_cluster, py::arg("gpu"), py::arg("gpus"), py::arg("gpus_per_node"), py::arg("inter"),
        py::arg("pcie_host") = PcieHost::pcie_switch, py::arg("p2p") = PeerToPeer::automatic, py::arg("host_memory_bandwidth") = 0.0,
        "gpus GPUs, gpus_per_node to a node, the GPU's own intra-node link and `inter` between nodes; PCIe GPUs "
        "attached as pcie_host says; through host memory (SHM) the node's GPUs share the host's DRAM (host_memory_bandwidth, "
        "B/s wire rate; 0: assumed for the PCIe generation, shm_host_share).");
  m.def("shm_host_share", &shm_host_share, py::arg("gpu"), py::arg("pcie_host"), py::arg("flows"), py::arg("host_memory_bandwidth") = 0.0,
        "B/s each of `flows` GPUs sending through host memory at once gets: 0.75 (STREAM) x the DRAM wire rate / 2 flows.");
  m.def("assumed_host_memory_bandwidth", &assumed_host_memory_bandwidth, py::arg("pcie_generation"), py::arg("pcie_host"),
        "The host DRAM wire rate capplan assumes (a server's 2 sockets of 8 channels; one EPYC socket on a root complex), B/s.");
  m.def("p2p_setting_modelled", &p2p_setting_modelled, py::arg("gpu"), py::arg("p2p"),
        "Whether capplan times this PeerToPeer setting on the GPU's node (not `disabled` where NVSwitch, xGMI or a chip link joins it).");
  m.def("pcie_bandwidth", &pcie_bandwidth, py::arg("generation"), py::arg("lanes"), "Per direction, after encoding.");
  m.def("nvlink", &nvlink, py::arg("gpu"));
  m.def("pcie", &pcie, py::arg("gpu"), py::arg("host") = PcieHost::pcie_switch, py::arg("p2p") = PeerToPeer::automatic,
        "Peer-to-peer under PCIe switches when the GPU allows it (LinkKind.pcie); forced (NCCL_P2P_LEVEL=SYS) elsewhere, through the "
        "CPU's root complex (LinkKind.pcie_via_cpu); else through host memory (NCCL's SHM, LinkKind.pcie_via_host).");
  m.def("intra_node_link", &intra_node_link, py::arg("gpu"), py::arg("host") = PcieHost::pcie_switch, py::arg("p2p") = PeerToPeer::automatic,
        "NVLink, Infinity Fabric, else PCIe as the host attaches the GPUs.");
  m.def("infiniband", &infiniband, py::arg("per_gpu"), "An InfiniBand NIC per GPU (85 % efficiency).");
  m.def("ethernet", &ethernet, py::arg("per_gpu"), py::arg("rdma") = false);
  m.def("all_reduce", &all_reduce, py::arg("cluster"), py::arg("bytes"), py::arg("group"),
        "Ring (or hierarchical) all-reduce time (Thakur et al. 2005).");
  m.def("all_gather", &all_gather, py::arg("cluster"), py::arg("bytes"), py::arg("group"));
  m.def("reduce_scatter", &reduce_scatter, py::arg("cluster"), py::arg("bytes"), py::arg("group"));
  m.def("all_to_all", py::overload_cast<const Cluster&, DataSize, Group>(&all_to_all), py::arg("cluster"), py::arg("bytes"),
        py::arg("group"));
  m.def("point_to_point", &point_to_point, py::arg("link"), py::arg("bytes"));
  m.def("all_reduce_bus_bandwidth", &all_reduce_bus_bandwidth, py::arg("cluster"), py::arg("bytes"), py::arg("group"),
        py::arg("nvls_efficiency") = comm::nvls_efficiency,
        "NCCL's bus bandwidth of the all-reduce (nvls_efficiency: NVLink SHARP's share of the link, the fitted 0.686 by default).");
}

void bind_roofline(py::module_& m) {
  text_enum<OpKind>(m, "OpKind", "Kind of kernel.");
  text_enum<Bound>(m, "Bound", "What limits a kernel: compute or memory bandwidth.");

  Record<Op>(m, "Op", "One kernel: FLOPs, bytes moved and, for a GEMM, its shape.")
      .property(
          "name", [](const Op& o) { return std::string(o.name); }, [](Op& o, const std::string& s) { o.name = intern(s); },
          [](const Op& o) { return py::object(py::str(std::string(o.name))); })
      .field("kind", &Op::kind)
      .field("flops", &Op::flops, "FLOP")
      .field("bytes", &Op::bytes, "B")
      .field("m", &Op::m)
      .field("n", &Op::n)
      .field("k", &Op::k)
      .field("batch", &Op::batch)
      .field("kernels", &Op::kernels, "launches the step takes; each pays the kernel overhead")
      .finish()
      .def("flop_count", &Op::flop_count)
      .def("data_size", &Op::data_size)
      .def("intensity", &Op::intensity, "FLOPs per byte moved.");
  Record<RooflinePoint>(m, "RooflinePoint", "An op on the roofline: intensity, ridge, attainable rate, bound.")
      .readonly("intensity", &RooflinePoint::intensity)
      .readonly("ridge", &RooflinePoint::ridge)
      .readonly("attainable", &RooflinePoint::attainable)
      .readonly("bound", &RooflinePoint::bound)
      .finish(false);
  Record<LayerOptions>(m, "LayerOptions", "Which kernels a framework runs for a layer and which are fused.")
      .field("flash_attention", &LayerOptions::flash_attention)
      .field("dropout", &LayerOptions::dropout)
      .field("sequence_parallel", &LayerOptions::sequence_parallel)
      .field("causal", &LayerOptions::causal)
      .field("moe_layer", &LayerOptions::moe_layer)
      .field("expert_parallel", &LayerOptions::expert_parallel)
      .field("mla_absorbed", &LayerOptions::mla_absorbed, "MLA with the up-projections absorbed (inference form)")
      .field("eager", &LayerOptions::eager, "plain PyTorch: element-wise steps as separate kernels on an fp32 residual stream")
      .field("moe_gemm_per_expert", &LayerOptions::moe_gemm_per_expert, "the routed experts' GEMMs as one kernel per local expert")
      .finish();

  m.def("peak_rate", &peak_rate, py::arg("gpu"), py::arg("precision"), "Dense peak; InputError when the GPU has none.");
  m.def("peak_bandwidth", &peak_bandwidth, py::arg("gpu"));
  m.def("ridge_point", &ridge_point, py::arg("gpu"), py::arg("precision"),
        "peak FLOP/s / peak B/s (Williams, Waterman & Patterson 2009).");
  m.def("roofline", &roofline, py::arg("op"), py::arg("gpu"), py::arg("precision"),
        "Attainable = min(peak, intensity x bandwidth) (Williams et al. 2009, eq. 1).");
  m.def(
      "gemm",
      [](const std::string& name, std::int64_t mm, std::int64_t n, std::int64_t k, double bytes_per_element, std::int64_t batch,
         OpKind kind) { return gemm(intern(name), mm, n, k, bytes_per_element, batch, kind); },
      py::arg("name"), py::arg("m"), py::arg("n"), py::arg("k"), py::arg("bytes_per_element"), py::arg("batch") = 1,
      py::arg("kind") = OpKind::gemm, "C[m,n] = A[m,k] B[k,n], batch times: 2mnk FLOPs.");
  m.def(
      "elementwise", [](const std::string& name, double bytes) { return elementwise(intern(name), bytes); }, py::arg("name"),
      py::arg("bytes"), "A memory-bound kernel moving `bytes`.");
  m.def("transformer_layer_forward", &transformer_layer_forward, py::arg("shape"), py::arg("tokens"), py::arg("seq"),
        py::arg("tp"), py::arg("precision"), py::arg("options") = LayerOptions{},
        "Forward kernels of one transformer layer on one GPU.");
  m.def("output_layer_forward", &output_layer_forward, py::arg("shape"), py::arg("tokens"), py::arg("tp"), py::arg("precision"),
        py::arg("vocab_multiple") = 1, py::arg("eager") = false,
        "The output layer and loss; the vocabulary padded to a multiple of vocab_multiple x tp; eager: PyTorch's fp32 loss kernels.");
  m.def("padded_vocab", &padded_vocab, py::arg("vocab"), py::arg("tp"), py::arg("multiple"),
        "The vocabulary as a framework pads it: a multiple of multiple x tp (Megatron: 128); multiple 0: unpadded.");
}

void bind_training(py::module_& m) {
  Record<EfficiencyModel>(m, "EfficiencyModel", "How fast kernels run; every field may be overridden by a measurement.")
      .field("gemm_best_fraction", &EfficiencyModel::gemm_best_fraction)
      .field("compute_rate", &EfficiencyModel::compute_rate)
      .field("memory_fraction", &EfficiencyModel::memory_fraction)
      .field("kernel_overhead", &EfficiencyModel::kernel_overhead)
      .field("weight_stream_latency", &EfficiencyModel::weight_stream_latency,
             "GPU-side fixed time of a memory-bound weight matmul beyond its bytes (measured 12 us, H100/H200)")
      .field("overlap_slowdown", &EfficiencyModel::overlap_slowdown,
             "compute slowdown while communication overlaps it (Lee et al. 2025)")
      .field("sustained_clock", &EfficiencyModel::sustained_clock)
      .field("flash_forward_relative", &EfficiencyModel::flash_forward_relative)
      .field("flash_backward_relative", &EfficiencyModel::flash_backward_relative)
      .finish()
      .def("validate", &EfficiencyModel::validate);
  m.def("op_time", &op_time, py::arg("op"), py::arg("gpu"), py::arg("precision"), py::arg("model") = EfficiencyModel{},
        "Predicted time of one kernel.");
  m.def("achieved_gemm_rate", &achieved_gemm_rate, py::arg("gpu"), py::arg("precision"), py::arg("m"), py::arg("n"),
        py::arg("k"), py::arg("model") = EfficiencyModel{});
  m.def("achieved_bandwidth", &achieved_bandwidth, py::arg("gpu"), py::arg("model") = EfficiencyModel{});

  text_enum<AttentionKernel>(m, "AttentionKernel",
                             "Fused attention kernel: flash2 (FlashAttention-2), flash3 (FlashAttention-3, Hopper), cudnn (cuDNN).");
  text_enum<Fp8Recipe>(m, "Fp8Recipe",
                       "How FP8 training scales tensors: delayed (per tensor, amax history), current (per tensor, own amax; FP8-CS) "
                       ", mxfp8 (a scale per 32 values; Blackwell-class) or blockwise (DeepSeek-V3's 1 x 128 / 128 x 128 scales; Hopper).");
  Record<QuantHardware>(m, "QuantHardware", "What a GPU's tensor cores do with quantized operands.")
      .field("block_scaled", &QuantHardware::block_scaled, "MXFP8 / NVFP4 block-scaled operands (an FP4 rate)")
      .field("fp8_any_layout", &QuantHardware::fp8_any_layout, "FP8 GEMMs in any layout (data-centre Blackwell)")
      .field("fp8_blockwise", &QuantHardware::fp8_blockwise, "blockwise-scaled FP8 GEMMs (Hopper)")
      .finish();
  m.def("quant_hardware", &quant_hardware, py::arg("gpu"), "What the GPU's tensor cores can do with quantized operands.");
  Record<QuantizationCost>(m, "QuantizationCost", "What quantizing one GEMM input costs, per element of that input.")
      .readonly("operand_bytes", &QuantizationCost::operand_bytes)
      .readonly("cast_bytes", &QuantizationCost::cast_bytes)
      .readonly("cast_bytes_frozen", &QuantizationCost::cast_bytes_frozen)
      .readonly("transform_flops", &QuantizationCost::transform_flops)
      .readonly("kernel_rate", &QuantizationCost::kernel_rate)
      .finish(false)
      .def_property_readonly("recipe", [](const QuantizationCost& q) { return std::string(q.recipe); });
  m.def("saved_linear_input_bytes", &saved_linear_input_bytes, py::arg("precision"), py::arg("recipe"),
        "Bytes per element of the input a linear layer keeps for its weight gradient (Transformer Engine's quantized copy); 0 for 16- and 32-bit.");
  m.def("quantization_cost", &quantization_cost, py::arg("precision"), py::arg("recipe"), py::arg("hardware"),
        "Bytes and FLOPs per quantized element of fp8 (under a recipe) or fp4 (NVFP4) on this hardware; InputError where it cannot run.");
  m.def("quantization_note", &quantization_note, py::arg("precision"), py::arg("recipe"), py::arg("hardware"),
        "One sentence on how a job's linear layers are quantized.");
  text_enum<MoeDispatch>(m, "MoeDispatch",
                         "MoE token dispatch across GPUs: alltoall (NCCL, a copy per token and expert) or deepep (two hops: one network copy per node).");
  m.def(
      "cp_a2a_size",
      [](const ParallelPlan& plan, int gpus_per_node) {
        require_positive_count(gpus_per_node, "gpus_per_node");
        require_positive_count(plan.cp, "cp");
        return cp_a2a_size(plan, gpus_per_node);
      },
      py::arg("plan"), py::arg("gpus_per_node"),
        "Hierarchical CP (a2a_p2p): the CP ranks of one node, which form the all-to-all group.");
  m.def(
      "expected_token_nodes",
      [](const MoeShape& moe, int nodes) {
        require_positive_count(nodes, "nodes");
        validate_moe(moe, std::numeric_limits<std::int64_t>::max());  // any layer count
        return expected_token_nodes(moe, nodes);
      },
      py::arg("moe"), py::arg("nodes"),
        "Expected distinct nodes a token's routed experts lie on, experts spread over `nodes` nodes (group-limited routing included).");
  Record<Framework>(m, "Framework", "How a training framework runs: fused kernels, overlap, bytes sent.")
      .field("name", &Framework::name)
      .field("flash_attention", &Framework::flash_attention)
      .field("attention_kernel", &Framework::attention_kernel, "which fused kernel times attention (flash_attention on)")
      .field("dropout", &Framework::dropout)
      .field("overlap_grad_reduce", &Framework::overlap_grad_reduce)
      .field("overlap_param_gather", &Framework::overlap_param_gather, "ZeRO 3: the next layer's weights prefetched during compute")
      .field("gather_weights_in_forward", &Framework::gather_weights_in_forward,
             "ZeRO 1-2: the updated weights all-gathered during the next forward pass, not in the optimizer step "
             "(Megatron-Core's overlap_param_gather; DeepSpeed: False)")
      .field("grad_reduce_bytes", &Framework::grad_reduce_bytes)
      .field("param_gather_bytes", &Framework::param_gather_bytes)
      .field("master_grad_bytes", &Framework::master_grad_bytes, "gradient bytes kept and read by the optimizer: 2 or 4 (memory and time)")
      .field("fp32_params", &Framework::fp32_params, "the fp32 parameters are the master copy (PyTorch FSDP/DDP)")
      .field("attention_forward_speed", &Framework::attention_forward_speed, "1: FlashAttention-2 itself")
      .field("attention_backward_speed", &Framework::attention_backward_speed, "1: FlashAttention-2 itself")
      .field("optimizer_bytes_per_param", &Framework::optimizer_bytes_per_param, "0: a fused Adam")
      .field("moe_capacity_factor", &Framework::moe_capacity_factor,
             "MoE: tokens each expert computes and exchanges over a balanced share (1: balanced; GShard/Switch capacity factor)")
      .field("moe_dispatch", &Framework::moe_dispatch, "MoE token dispatch across nodes: alltoall or deepep (two-hop)")
      .field("moe_a2a_overlap", &Framework::moe_a2a_overlap,
             "MoE: expert-parallel all-to-alls of one micro-batch under another's compute (Megatron-Core's combined 1F1B; off by default)")
      .field("vocab_multiple", &Framework::vocab_multiple, "vocabulary padded to a multiple of this x tp (Megatron: 128; 1: tp only)")
      .field("eager", &Framework::eager, "plain PyTorch: fp32 residual stream, unfused element-wise kernels, fp32 loss")
      .field("cpu_seconds_per_kernel", &Framework::cpu_seconds_per_kernel,
             "host time to launch one kernel; a pass takes at least its kernels x this (eager: 57.9 us, fitted)")
      .field("fused_activation", &Framework::fused_activation, "the MLP activation keeps only its input (Megatron-Core's fused SwiGLU)")
      .field("activation_offloading", &Framework::activation_offloading,
             "the plan search may offload activations to host memory (Megatron-Core's --cpu-offloading-num-layers)")
      .field("recompute_module_lists", &Framework::recompute_module_lists,
             "the plan search also tries the module lists published recipes recompute (Megatron-Core's --recompute-modules)")
      .field("quantized_linear_inputs", &Framework::quantized_linear_inputs,
             "FP8/FP4 keep Transformer Engine's quantized copies of the linear inputs (false: torchao, PyTorch FSDP)")
      .field("moe_gemm_per_expert", &Framework::moe_gemm_per_expert,
             "the routed experts' GEMMs as one kernel per local expert (Megatron-Core: TE GroupedLinear)")
      .field("moe_seconds_per_routed_value", &Framework::moe_seconds_per_routed_value,
             "MoE: GPU time per routed value (tokens x k x hidden) of a MoE layer beyond its kernels (Megatron-Core: fitted)")
      .field("grad_buffer_in_reduce_precision", &Framework::grad_buffer_in_reduce_precision,
             "gradients are kept in the precision they are reduced in (Megatron-Core); see reduce_gradients_in")
      .field("kernel_time_scale", &Framework::kernel_time_scale,
             "the layers' kernel time relative to capplan's kernel model (1; Megatron-LM 2021: fitted on its Table 1)")
      .finish()
      .def_static("megatron_lm_2021", &megatron_lm_2021,
                  "Megatron-LM as in Narayanan et al. 2021: the 2022 release with its kernels slower by the scale fitted on Table 1.")
      .def_static("megatron_lm_2022", &megatron_lm_2022, "Megatron-LM as in Korthikanti et al. 2022: no FlashAttention, dropout, fp16 gradients all-reduced after the backward pass.")
      .def_static("pytorch_fsdp", &pytorch_fsdp, "PyTorch FSDP FULL_SHARD with FlashAttention: fp32 parameters as the master copy.")
      .def_static("pytorch_eager", &pytorch_eager,
                  "Plain PyTorch under autocast (Hugging Face Transformers): pytorch_fsdp's memory, every element-wise step its own kernel.")
      .def_static("megatron_core", &megatron_core,
                  "Megatron-Core as NeMo and Megatron-Bridge run it: fp32 main gradients, cuDNN attention, overlapped reduce and gather.")
      .def_static("llm_foundry_2023", &llm_foundry_2023,
                  "MosaicML llm-foundry's benchmark harness: FSDP, Triton FlashAttention, Composer's DecoupledAdamW.");
  m.def("reduce_gradients_in", &reduce_gradients_in, py::arg("framework"), py::arg("precision"),
        "The framework with its data-parallel gradient reduction in bf16, fp16 or fp32 (Megatron-Core's --grad-reduce-in-bf16; "
        "CLI --grad-reduce); Megatron-Core then keeps its gradients in that precision too. InputError naming grad_reduce otherwise.");
  m.def("apply_framework", &apply_framework, py::arg("config"), py::arg("framework"),
        "What the memory model reads of a framework, set on a TrainingConfig (in place): FlashAttention, gradient bytes, dropout, fused activation.");
  m.def("apply_precision", &apply_precision, py::arg("config"), py::arg("framework"), py::arg("precision"), py::arg("recipe"),
        "The bytes of the saved linear-layer inputs for a precision the GPU runs, set on a TrainingConfig (in place).");
  Record<TrainingJob>(m, "TrainingJob", "A model, a global batch and a precision to train at.")
      .field("model", &TrainingJob::model)
      .field("parameters", &TrainingJob::parameters, "0: parameter_count(model)")
      .field("global_batch", &TrainingJob::global_batch, "sequences per iteration")
      .field("seq_len", &TrainingJob::seq_len, "0: model.seq_len")
      .field("precision", &TrainingJob::precision)
      .field("model_flops_per_token", &TrainingJob::model_flops_per_token)
      .field("measured_mfu", &TrainingJob::measured_mfu)
      .field("expert_parameters", &TrainingJob::expert_parameters, "MoE routed-expert weights; None: derived")
      .field("finetune", &TrainingJob::finetune, "full, or LoRA / QLoRA adapters beside frozen weights")
      .field("lora", &TrainingJob::lora, "adapters with finetune lora or qlora")
      .field("fp8_recipe", &TrainingJob::fp8_recipe, "how precision fp8 scales tensors (delayed, current, mxfp8, blockwise)")
      .field("mtp_layers", &TrainingJob::mtp_layers,
             "multi-token-prediction layers on the last stage (0 to 16): each a layer, a 2h x h projection and another output pass")
      .finish();
  Record<PlanLinks>(m, "PlanLinks", "The links each of a plan's collectives crosses, by name ('' where the plan has no such group).")
      .readonly("tp", &PlanLinks::tp)
      .readonly("pp", &PlanLinks::pp)
      .readonly("dp", &PlanLinks::dp)
      .readonly("ep", &PlanLinks::ep)
      .readonly("cp", &PlanLinks::cp)
      .finish(false);
  m.def("plan_links", &plan_links, py::arg("cluster"), py::arg("plan"), "The links a plan's TP, PP, DP and EP collectives cross.");
  Record<TrainingEstimate>(m, "TrainingEstimate", "Iteration time, throughput, MFU and the breakdown of one plan.")
      .readonly("plan", &TrainingEstimate::plan)
      .readonly("iteration", &TrainingEstimate::iteration)
      .readonly("tokens_per_second", &TrainingEstimate::tokens_per_second)
      .readonly("samples_per_second", &TrainingEstimate::samples_per_second)
      .readonly("micro_batches", &TrainingEstimate::micro_batches)
      .readonly("bubble_fraction", &TrainingEstimate::bubble_fraction)
      .readonly("model_flops", &TrainingEstimate::model_flops)
      .readonly("hardware_flops", &TrainingEstimate::hardware_flops)
      .readonly("model_rate_per_gpu", &TrainingEstimate::model_rate_per_gpu)
      .readonly("hardware_rate_per_gpu", &TrainingEstimate::hardware_rate_per_gpu)
      .readonly("mfu", &TrainingEstimate::mfu)
      .readonly("hfu", &TrainingEstimate::hfu)
      .readonly("breakdown", &TrainingEstimate::breakdown)
      .finish(false)
      .def("time_for_tokens", &TrainingEstimate::time_for_tokens, py::arg("tokens"))
      .def("gpu_hours_for_tokens", &TrainingEstimate::gpu_hours_for_tokens, py::arg("tokens"))
      .def("explain", &TrainingEstimate::explain);

  m.def("validate_plan", &validate_plan, py::arg("job"), py::arg("plan"), py::arg("cluster"));
  m.def("estimate_training",
        py::overload_cast<const TrainingJob&, const ParallelPlan&, const Cluster&, const Framework&, const EfficiencyModel&>(
            &estimate_training),
        py::arg("job"), py::arg("plan"), py::arg("cluster"), py::arg("framework") = Framework{},
        py::arg("model") = EfficiencyModel{}, "Training time of one plan, with its breakdown.");
  m.def("megatron_training_time", &megatron_training_time, py::arg("tokens"), py::arg("parameters"), py::arg("gpus"),
        py::arg("per_gpu"), "8 T P / (n X) (Narayanan et al. 2021, §5.1, eq. 4).");

  Record<OpLine>(m, "OpLine", "One kernel of a layer: the op, its roofline point and predicted forward time.")
      .readonly("op", &OpLine::op)
      .readonly("roofline", &OpLine::roofline)
      .readonly("forward", &OpLine::forward)
      .readonly("achieved", &OpLine::achieved)
      .finish(false);
  m.def("layer_op_lines", &layer_op_lines, py::arg("job"), py::arg("plan"), py::arg("cluster"),
        py::arg("framework") = Framework{}, py::arg("model") = EfficiencyModel{},
        "One layer's kernels under a plan: FLOPs, bytes, intensity, bound, forward time.");
  m.def("explain_layer_ops", &explain_layer_ops, py::arg("job"), py::arg("plan"), py::arg("cluster"),
        py::arg("framework") = Framework{}, py::arg("model") = EfficiencyModel{});

  {
    Record<SearchSpace> r(m, "SearchSpace", "The plan dimensions search_plans tries.");
    r.field("micro_batches", &SearchSpace::micro_batches)
      .field("zero_stages", &SearchSpace::zero_stages)
      .field("recompute", &SearchSpace::recompute);
    recompute_modules_field(r, &SearchSpace::recompute_modules, "what selective recomputation reruns in every plan tried with it (\"\": core_attn, and the published lists while recompute_module_lists)");
    r.field("recompute_module_lists", &SearchSpace::recompute_module_lists,
            "with recompute_modules \"\": also try the module lists published Megatron-Core recipes run (mla_up_proj; mla_up_proj,mlp; moe_act; moe_act,layernorm; moe_act,mlp) where they apply to the model")
     .field("interleave", &SearchSpace::interleave,
             "virtual pipeline stages tried (1 to 24), each where it splits every stage's layers and pp divides the micro-batches")
      .field("expert_parallel", &SearchSpace::expert_parallel)
      .field("expert_tensor_parallel", &SearchSpace::expert_tensor_parallel, "ETP degrees tried for MoE models (0: as tp; n: the experts split over n GPUs at any tp); [n] alone keeps the plans whose experts split over n; empty: no MoE plans")
      .field("context_parallel", &SearchSpace::context_parallel,
             "tried for sequences of min_cp_seq tokens or more, each while a rank keeps min_cp_tokens")
      .field("min_cp_seq", &SearchSpace::min_cp_seq, "the shortest sequence CP is tried for (8192)")
      .field("min_cp_tokens", &SearchSpace::min_cp_tokens, "the fewest tokens of a sequence a CP rank keeps (2048; 0 or less: no floor)")
      .field("cp_comms", &SearchSpace::cp_comms, "K/V exchanges tried with cp > 1: p2p (ring), all_gather, a2a (Ulysses, where the heads split)")
      .field("sequence_parallel", &SearchSpace::sequence_parallel)
      .field("max_tp", &SearchSpace::max_tp, "0: GPUs per node")
      .field("allow_tight", &SearchSpace::allow_tight, "keep plans whose memory fit is tight (skipped by default)")
      .field("end_stage_layouts", &SearchSpace::end_stage_layouts,
             "also try lighter first and last pipeline stages (end_stage_layouts), without interleaving")
      .field("offload", &SearchSpace::offload,
             "also try activation offloading on plans without pipeline stages or recomputation that do not fit: the fewest layers that make them fit "
             "(over a superchip's NVLink-C2C; over PCIe too with offload_over_pcie)")
      .field("offload_over_pcie", &SearchSpace::offload_over_pcie, "also offload over PCIe (off: the copies would share it with traffic capplan does not model)")
      .finish();
  }
  Record<RankedPlan>(m, "RankedPlan", "A plan and its estimate.")
      .readonly("plan", &RankedPlan::plan)
      .readonly("estimate", &RankedPlan::estimate)
      .finish(false);
  Record<SearchResult>(m, "SearchResult", "The fastest plans that fit in memory, fastest first.")
      .readonly("top", &SearchResult::top)
      .readonly("candidates", &SearchResult::candidates)
      .readonly("memory_checked", &SearchResult::memory_checked)
      .readonly("rejected_for_memory", &SearchResult::rejected_for_memory)
      .readonly("offload_checks", &SearchResult::offload_checks)
      .readonly("offloaded_fits", &SearchResult::offloaded_fits)
      .finish(false)
      .def("explain", &SearchResult::explain)
      .def("to_pandas", [](const SearchResult& r) {
        py::list rows;
        for (const RankedPlan& p : r.top) {
          py::dict d;
          d["tp"] = p.plan.tp;
          d["pp"] = p.plan.pp;
          d["dp"] = p.plan.dp;
          d["micro_batch"] = p.plan.micro_batch;
          d["zero_stage"] = static_cast<int>(p.plan.zero_stage);
          d["recompute"] = std::string(name(p.plan.recompute));
          d["recompute_modules"] = recompute_modules_text(recomputed_modules(p.plan.recompute, p.plan.recompute_modules));
          d["sequence_parallel"] = p.plan.sequence_parallel;
          d["interleave"] = p.plan.interleave;
          d["ep"] = p.plan.ep;
          d["cp"] = p.plan.cp;
          d["cp_comm"] = std::string(name(p.plan.cp_comm));
          d["iteration_s"] = p.estimate.iteration.value();
          d["tokens_per_second"] = p.estimate.tokens_per_second;
          d["mfu"] = p.estimate.mfu;
          d["hfu"] = p.estimate.hfu;
          d["bubble_fraction"] = p.estimate.bubble_fraction;
          rows.append(d);
        }
        return py::module_::import("pandas").attr("DataFrame")(rows);
      }, "One row per plan: the plan's dimensions, iteration_s, tokens_per_second, mfu, hfu, bubble_fraction.");
  m.def(
      "search_plans",
      [](const TrainingJob& job, const Cluster& cluster, const Framework& fw, const EfficiencyModel& model, std::size_t top,
         const SearchSpace& space) { return search_plans(job, cluster, fw, model, top, space); },
      py::arg("job"), py::arg("cluster"), py::arg("framework") = Framework{}, py::arg("model") = EfficiencyModel{},
      py::arg("top") = 5, py::arg("space") = SearchSpace{},
      "Every valid plan timed; the `top` fastest that fit in GPU memory (training_budget) with their breakdowns.");
  m.def("release_search_memory", &release_search_memory,
        "Frees the candidate lists search_plans keeps on this thread between searches (about 100 MB after a "
        "mixture of experts at long context on thousands of GPUs, at most 256 MB); the next search allocates them afresh.");
  m.def("plan_memory", py::overload_cast<const TrainingJob&, const ParallelPlan&, const Framework&>(&plan_memory), py::arg("job"), py::arg("plan"),
        py::arg("framework"), "The memory budget of a plan on its busiest GPU, as this framework keeps gradients and master weights.");
  m.def("plan_memory", py::overload_cast<const TrainingJob&, const ParallelPlan&, bool>(&plan_memory), py::arg("job"), py::arg("plan"), py::arg("flash_attention") = true,
        "The memory budget of a plan on its busiest GPU (the generic framework).");

  Record<PlanEstimate>(m, "PlanEstimate", "One full estimate of one plan: time (no breakdown), memory (no detail lines), fits.")
      .readonly("time", &PlanEstimate::time)
      .readonly("memory", &PlanEstimate::memory)
      .readonly("fits", &PlanEstimate::fits)
      .finish(false);
  m.def("estimate_plan", &estimate_plan, py::arg("job"), py::arg("plan"), py::arg("cluster"), py::arg("framework") = Framework{},
        py::arg("model") = EfficiencyModel{},
        "FLOPs, per-GPU memory and iteration time of one plan in one call, numbers only (the fast path of "
        "estimate_training and plan_memory: the same numbers).");
}

void bind_inference_and_image_models(py::module_& m) {
  Record<InferenceJob>(m, "InferenceJob", "Serving: a model, batch, prompt and generated tokens, weight and KV widths.")
      .field("model", &InferenceJob::model)
      .field("compute_precision", &InferenceJob::compute_precision)
      .field("weight_bytes_per_parameter", &InferenceJob::weight_bytes_per_parameter)
      .field("expert_weight_bytes_per_parameter", &InferenceJob::expert_weight_bytes_per_parameter, "the routed experts'; 0: as the rest")
      .field("head_weight_bytes_per_parameter", &InferenceJob::head_weight_bytes_per_parameter,
             "the output head's, which quantized checkpoints keep wider (WeightFormat.checkpoint_ends); 0: as the rest")
      .field("kv_bytes_per_element", &InferenceJob::kv_bytes_per_element)
      .field("batch", &InferenceJob::batch)
      .field("prompt", &InferenceJob::prompt)
      .field("generate", &InferenceJob::generate)
      .field("tp", &InferenceJob::tp)
      .field("pp", &InferenceJob::pp, "pipeline stages, run one after another; each boundary passes its tokens' hidden state and residual")
      .field("gpus_per_node", &InferenceJob::gpus_per_node, "GPUs of one node; stage boundaries between nodes cross `inter` (0: one node)")
      .field("inter", &InferenceJob::inter, "the link between nodes, per GPU")
      .field("pcie_host", &InferenceJob::pcie_host, "how a PCIe node attaches its GPUs (peer-to-peer only under switches)")
      .field("p2p", &InferenceJob::p2p, "what NCCL may do over its PCIe links: automatic, forced, disabled")
      .field("host_memory_bandwidth", &InferenceJob::host_memory_bandwidth,
             "the host's DRAM wire rate, B/s, its GPUs share through host memory (0: assumed_host_memory_bandwidth)")
      .field("matmul_precision", &InferenceJob::matmul_precision, "fp8 (W8A8) or fp4 (NVFP4 W4A4); None: the compute precision")
      .finish();
  Record<InferenceOptions>(m, "InferenceOptions", "Kernels per layer per decode step, and the prefill attention kernel.")
      .field("kernels_per_layer", &InferenceOptions::kernels_per_layer)
      .field("cuda_graphs", &InferenceOptions::cuda_graphs, "decode steps replayed as CUDA graphs: launches at 70/260 of eager")
      .field("eager", &InferenceOptions::eager, "plain PyTorch: unfused kernels, each launched from Python (eager_inference_host_seconds_per_kernel)")
      .field("flash_attention", &InferenceOptions::flash_attention)
      .field("eager_launch_seconds", &InferenceOptions::eager_launch_seconds,
             "with eager: the host's seconds to launch one kernel (default eager_inference_host_seconds_per_kernel, 32.7e-6), 0 to 1e-3")
      .finish();
  Record<InferenceEstimate>(m, "InferenceEstimate", "Time to first token, decode speed, memory per GPU and the breakdown.")
      .readonly("prefill", &InferenceEstimate::prefill)
      .readonly("decode_step", &InferenceEstimate::decode_step)
      .readonly("total", &InferenceEstimate::total)
      .readonly("tokens_per_second_per_sequence", &InferenceEstimate::tokens_per_second_per_sequence)
      .readonly("tokens_per_second", &InferenceEstimate::tokens_per_second)
      .readonly("weight_bytes_per_gpu", &InferenceEstimate::weight_bytes_per_gpu)
      .readonly("kv_cache_bytes_per_gpu", &InferenceEstimate::kv_cache_bytes_per_gpu)
      .readonly("decode_bound", &InferenceEstimate::decode_bound)
      .readonly("compute_timed", &InferenceEstimate::compute_timed)
      .readonly("encoder", &InferenceEstimate::encoder)
      .readonly("breakdown", &InferenceEstimate::breakdown)
      .finish(false)
      .def("time_to_first_token", &InferenceEstimate::time_to_first_token)
      .def("explain", &InferenceEstimate::explain);
  m.def("estimate_inference", &estimate_inference, py::arg("job"), py::arg("gpu"), py::arg("model") = EfficiencyModel{},
        py::arg("options") = InferenceOptions{}, "Prefill and decode time (Pope et al. 2022 roofline of a decode step).");

  Record<ConvLayer>(m, "ConvLayer", "A convolution as an implicit GEMM, `count` identical layers.")
      .field("out_pixels", &ConvLayer::out_pixels)
      .field("in_channels", &ConvLayer::in_channels)
      .field("out_channels", &ConvLayer::out_channels)
      .field("kernel", &ConvLayer::kernel)
      .field("count", &ConvLayer::count)
      .field("norm_activation", &ConvLayer::norm_activation)
      .field("residual", &ConvLayer::residual, "its batch-normed output added to a ResNet block's shortcut before the ReLU")
      .field("relu", &ConvLayer::relu, "with norm_activation: a ReLU after the batch norm (false on a ResNet projection shortcut)")
      .finish();
  Record<LinearLayer>(m, "LinearLayer", "A linear layer over each of a sample's `tokens` rows, `count` identical layers, with a LayerNorm before, "
                                         "GELU after or a residual add as a pre-norm transformer block has them.")
      .field("tokens", &LinearLayer::tokens)
      .field("in_features", &LinearLayer::in_features)
      .field("out_features", &LinearLayer::out_features)
      .field("count", &LinearLayer::count)
      .field("norm_before", &LinearLayer::norm_before)
      .field("activation", &LinearLayer::activation)
      .field("residual", &LinearLayer::residual)
      .field("bias", &LinearLayer::bias, "False: no bias (a diffusion UNet's query, key and value projections)")
      .finish();
  Record<AttentionLayer>(m, "AttentionLayer", "Attention's core over `tokens` query rows: softmax(Q K^T / sqrt(d)) V, fused (one kernel) or not; "
                                               "cross-attention when kv_tokens differs.")
      .field("tokens", &AttentionLayer::tokens)
      .field("heads", &AttentionLayer::heads)
      .field("head_dim", &AttentionLayer::head_dim)
      .field("count", &AttentionLayer::count)
      .field("fused", &AttentionLayer::fused, "one fused kernel (scaled_dot_product_attention); False: Q K^T, softmax, P V as separate kernels")
      .field("kv_tokens", &AttentionLayer::kv_tokens, "keys and values per sample; 0: tokens (self-attention)")
      .finish();
  Record<ElementwiseLayer>(m, "ElementwiseLayer", "A memory-bound step (a norm, an activation, an add, a concatenation, an upsampling), "
                                                   "timed by the bytes it moves.")
      .field("elements", &ElementwiseLayer::elements, "values it writes per sample")
      .field("passes", &ElementwiseLayer::passes, "values read and written per value written")
      .field("kernels", &ElementwiseLayer::kernels, "kernels it launches in the forward pass")
      .field("saved", &ElementwiseLayer::saved, "values per value written that autograd keeps")
      .field("parameters", &ElementwiseLayer::parameters)
      .field("count", &ElementwiseLayer::count)
      .finish();
  Record<VaeTile>(m, "VaeTile", "A tile shape of a tiled VAE decode (diffusers' enable_vae_tiling): `count` tiles of h x w latent values.")
      .field("h", &VaeTile::h)
      .field("w", &VaeTile::w)
      .field("count", &VaeTile::count)
      .finish();
  m.def("vae_tiles", &vae_tiles, py::arg("h"), py::arg("w"), py::arg("tile"),
        "How diffusers' tiled_decode splits an h x w latent into tiles of `tile` (the VAE's sample_size / 8), starting every 0.75 tile; "
        "[] when it fits one tile.");
  Record<ImageModel>(m, "ImageModel", "An image model as its layers (convolutions, linear layers, attention), classifier and parameter count.")
      .field("name", &ImageModel::name)
      .field("convs", &ImageModel::convs)
      .field("linears", &ImageModel::linears)
      .field("attentions", &ImageModel::attentions)
      .field("elementwise", &ImageModel::elementwise)
      .field("fc_in", &ImageModel::fc_in)
      .field("fc_out", &ImageModel::fc_out)
      .field("parameters", &ImageModel::parameters)
      .field("input_elements", &ImageModel::input_elements, "one sample's input values (224 x 224 x 3)")
      .field("pool_indices", &ImageModel::pool_indices, "a max pool's output elements, whose int64 indices autograd keeps")
      .field("image", &ImageModel::image, "the input size it is timed at, as text")
      .field("companion_parameters", &ImageModel::companion_parameters, "weights a pipeline loads beside it (a UNet's text encoders and VAE)")
      .field("companions", &ImageModel::companions)
      .field("decoder", &ImageModel::decoder, "a diffusion pipeline's VAE decoder, run once per image ([] for a model file)")
      .field("decoder_fp32", &ImageModel::decoder_fp32, "the pipeline decodes in fp32 (SDXL's upcast VAE)")
      .field("text_encoders", &ImageModel::text_encoders, "a diffusion pipeline's text encoders, run once per batch ([] for a model file)")
      .field("decoder_tiles", &ImageModel::decoder_tiles, "the tiles a tiled decode splits the latent into ([] where it fits one tile)")
      .finish()
      .def("validate", &ImageModel::validate)
      .def("forward_flops_per_sample", &ImageModel::forward_flops_per_sample)
      .def("layer_parameters", &ImageModel::layer_parameters, "Parameters the layers hold (embeddings that are no layer apart).")
      .def("kind", &ImageModel::kind)
      .def("is_diffusion", &ImageModel::is_diffusion)
      .def("loaded_parameters", &ImageModel::loaded_parameters, "its own parameters and its companions'")
      .def_static(
          "from_json", [](std::string text, std::string file) { return io::parse_image_model_json(std::move(text), std::move(file)); },
          py::arg("text"), py::arg("file") = "<string>", "An image model from a JSON layer list (docs/catalog-files.md, \"Image model files\").")
      .def_static("load_file", &io::load_image_model_file, py::arg("path"), "An image model from a JSON layer-list file (at most 1 MiB).")
      .def(
          "to_json", [](const ImageModel& net, int indent) { return io::image_model_to_json(net).dump(indent); }, py::arg("indent") = 2,
          "Every key, so that from_json gives the same model back.");
  m.def("image_training_memory", &image_training_memory, py::arg("net"), py::arg("batch"), py::arg("precision") = Precision::fp16,
        py::arg("reserve") = RuntimeReserve{},
        "Per-GPU memory of data-parallel image-model training: fp32 weights, gradients and SGD momentum, the tensors autograd saves per image, "
        "the runtime reserve.");
  m.def("image_inference_peak_elements", &image_inference_peak_elements, py::arg("net"),
        "Values alive at the peak of one sample's forward pass without autograd: the largest step's input and output plus one held tensor.");
  m.def("image_generation_memory", &image_generation_memory, py::arg("net"), py::arg("images"), py::arg("samples"), py::arg("precision"),
        py::arg("decode") = py::none(), py::arg("reserve") = RuntimeReserve{}, py::arg("vae_slicing") = false, py::arg("vae_tiling") = false,
        "Memory of making `images` images a batch at a time: the loaded weights (SDXL's VAE in fp32; a quantized UNet's companions in fp16), "
        "the larger of a step's peak over `samples` and the VAE decode's (over one image with vae_slicing, one tile at a time with "
        "vae_tiling), the runtime reserve (what capplan infer checks).");
  m.def("companion_precision", &companion_precision, py::arg("precision"),
        "The precision a diffusion pipeline's text encoders and VAE run at beside a UNet at `precision` (fp16 beside FP8, INT8 or FP4).");
  m.def("image_max_batch", &image_max_batch, py::arg("net"), py::arg("capacity"), py::arg("precision") = Precision::fp16,
        py::arg("reserve") = RuntimeReserve{}, "The largest batch per GPU whose image-model training memory fits `capacity` (0: none).");
  m.def("image_saved_elements_per_sample", &image_saved_elements_per_sample, py::arg("net"),
        "Values autograd keeps per image for the backward pass at the compute precision (fp32 stream values and max-pool indices apart).");
  m.def("image_saved_bytes_per_sample", &image_saved_bytes_per_sample, py::arg("net"), py::arg("precision") = Precision::fp16,
        "Bytes autograd keeps per image: the values at the precision, fp32 LayerNorm inputs and softmax outputs under AMP, max-pool indices.");
  m.def("resnet50_v15", &resnet50_v15, "ResNet-50 v1.5 as its convolutions (He et al. 2016, Table 1), 224 x 224, 25.56 M parameters.");
  m.def("vit_b16", &vit_b16, "ViT-B/16 as its layers (Dosovitskiy et al. 2021, Table 1), 224 x 224, 86.57 M parameters.");
  m.def("vit_l16", &vit_l16, "ViT-L/16 as its layers (Dosovitskiy et al. 2021, Table 1), 224 x 224, 304.3 M parameters.");
  Record<UNetConfig>(m, "UNetConfig", "A latent-diffusion UNet's configuration as diffusers' UNet2DConditionModel takes it.")
      .field("name", &UNetConfig::name)
      .field("channels", &UNetConfig::channels, "block_out_channels, one per level")
      .field("transformer_depth", &UNetConfig::transformer_depth, "transformer blocks per attention, per level (0: none)")
      .field("mid_transformer_depth", &UNetConfig::mid_transformer_depth)
      .field("layers_per_block", &UNetConfig::layers_per_block)
      .field("heads", &UNetConfig::heads, "heads at every level, or 0 with head_dim")
      .field("head_dim", &UNetConfig::head_dim, "channels per head, or 0 with heads")
      .field("cross_attention_dim", &UNetConfig::cross_attention_dim)
      .field("context_tokens", &UNetConfig::context_tokens)
      .field("linear_projection", &UNetConfig::linear_projection)
      .field("added_embedding", &UNetConfig::added_embedding)
      .field("latent_side", &UNetConfig::latent_side, "the latent's height (the image's / 8), and its width unless latent_width")
      .field("latent_width", &UNetConfig::latent_width, "the latent's width where it differs; 0: latent_side")
      .field("companion_parameters", &UNetConfig::companion_parameters, "the pipeline's text encoders and VAE")
      .field("companions", &UNetConfig::companions)
      .field("latent_channels", &UNetConfig::latent_channels)
      .field("vae_fp32", &UNetConfig::vae_fp32, "the pipeline decodes in fp32 (SDXL)")
      .field("text_encoders", &UNetConfig::text_encoders, "timed once per batch (ImageModel.text_encoders)")
      .field("vae_sample_size", &UNetConfig::vae_sample_size, "the VAE's sample_size in pixels: a tiled decode's tile (SD 1.5 512, SDXL 1024)")
      .finish();
  m.def("clip_text_encoder", &clip_text_encoder, py::arg("name"), py::arg("layers"), py::arg("hidden"), py::arg("mlp"), py::arg("heads"),
        py::arg("projection") = 0, py::arg("tokens") = 77, py::arg("vocab") = 49'408,
        "A CLIP text encoder as its layers (Hugging Face's CLIPTextModel; projection > 0: CLIPTextModelWithProjection). One sample: one prompt.");
  m.def("clip_vit_l14_text", &clip_vit_l14_text, "CLIP ViT-L/14's text encoder (Stable Diffusion 1.x, SDXL's first): 123,060,480 parameters.");
  m.def("openclip_vit_bigg14_text", &openclip_vit_bigg14_text, "OpenCLIP ViT-bigG/14's text encoder with projection (SDXL's second): 694,659,840 parameters.");
  m.def("vae_decoder", &vae_decoder, py::arg("latent_side"), py::arg("latent_width"), py::arg("latent_channels") = 4,
        "Stable Diffusion's and SDXL's VAE decoder as its layers (49,490,199 parameters), for a latent of side x width.");
  m.def("diffusion_unet", &diffusion_unet, py::arg("config"), "A latent-diffusion UNet as its layers (one sample: one latent's denoising step).");
  m.def("find_unet_config", &find_unet_config, py::arg("preset"),
        "The configuration of a diffusion-UNet preset (sd15-unet, sdxl-unet), to build it at another resolution; None otherwise.");
  m.def("sd15_unet", &sd15_unet, "Stable Diffusion 1.5's UNet at 512 x 512 (64 x 64 latent), 859,520,964 parameters.");
  m.def("sdxl_unet", &sdxl_unet, "SDXL 1.0 base's UNet at 1024 x 1024 (128 x 128 latent), 2,567,463,684 parameters.");
  m.def("vision_transformer", &vision_transformer, py::arg("name"), py::arg("layers"), py::arg("hidden"), py::arg("mlp"), py::arg("heads"),
        py::arg("patch"), py::arg("image") = 224, py::arg("classes") = 1000,
        "A pre-norm Vision Transformer as torchvision builds it: patch embedding, `layers` encoder blocks, LayerNorm + linear head.");
  m.def(
      "find_image_model",
      [](const std::string& preset) -> std::optional<ImageModel> {
        if (const ImageModel* s = find_image_model(preset)) return *s;
        return std::nullopt;
      },
      py::arg("preset"), "The layer-level shape of an image-model preset (resnet50, vit-b16, vit-l16, sd15-unet, sdxl-unet), or None.");
  Record<Storage>(m, "Storage", "Where training samples are read from: sequential bandwidth and random reads per second.")
      .field("name", &Storage::name)
      .field("sequential_read", &Storage::sequential_read)
      .field("random_reads_per_second", &Storage::random_reads_per_second)
      .finish()
      .def_static("nvme_gen4_ssd", &nvme_gen4_ssd)
      .def_static("hdd_7200rpm", &hdd_7200rpm);
  Record<DataPipeline>(m, "DataPipeline", "The input pipeline: storage, drives, sample size, page cache, CPU decoding.")
      .field("storage", &DataPipeline::storage)
      .field("drives", &DataPipeline::drives)
      .field("mean_sample_size", &DataPipeline::mean_sample_size)
      .field("cached_in_ram", &DataPipeline::cached_in_ram)
      .field("cpu_cores", &DataPipeline::cpu_cores)
      .field("samples_per_core_second", &DataPipeline::samples_per_core_second)
      .finish();
  Record<DataLoadingCheck>(m, "DataLoadingCheck", "Samples/s the GPUs need against what storage and CPUs deliver.")
      .readonly("needed", &DataLoadingCheck::needed)
      .readonly("storage_limit", &DataLoadingCheck::storage_limit)
      .readonly("cpu_limit", &DataLoadingCheck::cpu_limit)
      .finish(false)
      .def("limit", &DataLoadingCheck::limit)
      .def("ok", &DataLoadingCheck::ok)
      .def("bottleneck", &DataLoadingCheck::bottleneck)
      .def("explain", &DataLoadingCheck::explain);
  m.def("check_data_loading", &check_data_loading, py::arg("pipeline"), py::arg("needed_samples_per_second"));
  Record<ImageTrainingEstimate>(m, "ImageTrainingEstimate", "Images per second, iteration time and the breakdown.")
      .readonly("iteration", &ImageTrainingEstimate::iteration)
      .readonly("images_per_second", &ImageTrainingEstimate::images_per_second)
      .readonly("gpu_bound_images_per_second", &ImageTrainingEstimate::gpu_bound_images_per_second)
      .readonly("data_loading", &ImageTrainingEstimate::data_loading)
      .readonly("flops_per_image", &ImageTrainingEstimate::flops_per_image)
      .readonly("achieved_per_gpu", &ImageTrainingEstimate::achieved_per_gpu)
      .readonly("breakdown", &ImageTrainingEstimate::breakdown)
      .finish(false)
      .def("time_for_images", &ImageTrainingEstimate::time_for_images, py::arg("images"))
      .def("explain", [](const ImageTrainingEstimate& e) { return e.breakdown.text(); });
  m.def(
      "estimate_image_training",
      [](const ImageModel& net, std::int64_t batch_per_gpu, const Cluster& cluster, Precision p, const EfficiencyModel& model,
         bool overlap, const std::optional<DataPipeline>& data) {
        return estimate_image_training(net, batch_per_gpu, cluster, p, model, overlap, data);
      },
      py::arg("net"), py::arg("batch_per_gpu"), py::arg("cluster"), py::arg("precision") = Precision::fp16,
      py::arg("model") = EfficiencyModel{}, py::arg("overlap_grad_reduce") = true, py::arg("data") = py::none(),
      "CNN training throughput from implicit-GEMM convolutions (Chetlur et al. 2014); with a DataPipeline, no faster "
      "than storage and CPUs deliver samples.");
  Record<ImageInferenceEstimate>(m, "ImageInferenceEstimate", "One batch's forward latency, images per second and the breakdown.")
      .readonly("latency", &ImageInferenceEstimate::latency)
      .readonly("images_per_second", &ImageInferenceEstimate::images_per_second)
      .readonly("flops_per_image", &ImageInferenceEstimate::flops_per_image)
      .readonly("achieved", &ImageInferenceEstimate::achieved)
      .readonly("bound", &ImageInferenceEstimate::bound)
      .readonly("breakdown", &ImageInferenceEstimate::breakdown)
      .finish(false)
      .def("explain", [](const ImageInferenceEstimate& e) { return e.breakdown.text(); });
  Record<ImageGeneration>(m, "ImageGeneration", "Images made a batch at a time: a diffusion UNet's steps (two latents per image under guidance), "
                                                 "or one forward pass per image.")
      .readonly("passes", &ImageGeneration::pass, "one forward pass (a UNet's denoising step)")
      .readonly("decode", &ImageGeneration::decode, "the VAE decoder over the batch's images (None without a decoder)")
      .readonly("decode_precision", &ImageGeneration::decode_precision)
      .readonly("text", &ImageGeneration::text, "each text encoder over the batch's prompts (and negative prompts under guidance)")
      .readonly("decode_tiles", &ImageGeneration::decode_tiles, "tiles the decode ran in (vae_tiling); 0: the whole latent at once")
      .readonly("images", &ImageGeneration::images)
      .readonly("samples", &ImageGeneration::samples, "per forward pass")
      .readonly("steps", &ImageGeneration::steps)
      .readonly("seconds_per_batch", &ImageGeneration::seconds_per_batch)
      .readonly("images_per_second", &ImageGeneration::images_per_second)
      .finish(false)
      .def("steps_per_second", &ImageGeneration::steps_per_second, "what diffusers' progress bar shows")
      .def("text_seconds", &ImageGeneration::text_seconds, "the text encoders' time, once per batch")
      .def("flops_per_image", &ImageGeneration::flops_per_image);
  m.def("estimate_image_generation", &estimate_image_generation, py::arg("net"), py::arg("images"), py::arg("gpu"),
        py::arg("precision") = Precision::fp16, py::arg("steps") = 50, py::arg("guidance") = true, py::arg("model") = EfficiencyModel{},
        py::arg("fused") = false, py::arg("vae_tiling") = false,
        "Images made by an image model, a batch at a time (capplan infer; compare --serve).");
  m.def("estimate_image_inference", &estimate_image_inference, py::arg("net"), py::arg("batch"), py::arg("gpu"),
        py::arg("precision") = Precision::fp16, py::arg("model") = EfficiencyModel{}, py::arg("fused") = false,
        "CNN inference: one batch's forward pass; fused folds batch norm and fuses ReLU (TensorRT, torch.compile), "
        "otherwise eager kernels.");
}

}  // namespace

void bind_perf(py::module_& m) {
  bind_explain_and_links(m);
  bind_roofline(m);
  bind_training(m);
  bind_inference_and_image_models(m);
}

}  // namespace capplan::python
