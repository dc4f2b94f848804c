// FLOP counts and memory: capplan/compute and capplan/memory.
//
//   training_flops(175_000_000_000, 300_000_000_000) -> 315000000000000000000000 (exact int)
//   training_budget(shape, TrainingConfig(plan=ParallelPlan(micro_batch=4))).total()  -> DataSize
//   max_micro_batch(shape, cfg, DataSize(80, "GB"))
#include "areas.hpp"
#include "plan_fields.hpp"
#include "record.hpp"

#include <capplan/compute/flops.hpp>
#include <capplan/memory/activations.hpp>
#include <capplan/memory/budget.hpp>
#include <capplan/memory/formats.hpp>
#include <capplan/memory/kv_cache.hpp>
#include <capplan/memory/solvers.hpp>
#include <capplan/plan/memory_report.hpp>
#include <capplan/report/memory_output.hpp>
#include <capplan/workload/parallel_plan.hpp>
#include <capplan/workload/pipeline_layout.hpp>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

namespace capplan::python {

namespace {

void bind_flops(py::module_& m) {
  text_enum<AttentionCount>(m, "AttentionCount", "Attention scores counted in full (s^2 pairs) or causal (s(s+1)/2).")
      .value("full", AttentionCount::full)
      .value("causal", AttentionCount::causal);
  text_enum<Recompute>(m, "Recompute", "What the backward pass recomputes (Korthikanti et al. 2022, §5).")
      .value("none", Recompute::none)
      .value("selective", Recompute::selective)
      .value("full", Recompute::full);

  Record<ForwardFlops>(m, "ForwardFlops", "The parts of one forward pass, exact (Python ints).")
      .readonly("layers_matmul", &ForwardFlops::layers_matmul)
      .readonly("layers_attention", &ForwardFlops::layers_attention)
      .readonly("logits", &ForwardFlops::logits)
      .finish(false)
      .def("total", &ForwardFlops::total);

  m.def("training_flops", py::overload_cast<const Count&, const Count&>(&training_flops), py::arg("params"),
        py::arg("tokens"), "C = 6 N D, exact (Kaplan et al. 2020, §2.1). Counts are Python ints.");
  m.def("training_flops", py::overload_cast<const TransformerShape&, const Count&>(&training_flops), py::arg("shape"),
        py::arg("tokens"), "6 N D with N = the shape's active parameters (MoE: top-k + shared experts).");
  m.def("forward_flops", &forward_flops, py::arg("shape"), py::arg("batch"), py::arg("seq"),
        py::arg("count") = AttentionCount::full, "One forward pass over batch x seq tokens, by part.");
  m.def("model_flops_per_iteration", &model_flops_per_iteration, py::arg("shape"), py::arg("batch"), py::arg("seq"),
        py::arg("count") = AttentionCount::full, "3 x forward (Korthikanti et al. 2022, §6).");
  m.def("hardware_flops_per_iteration", &hardware_flops_per_iteration, py::arg("shape"), py::arg("batch"), py::arg("seq"),
        py::arg("recompute"), py::arg("count") = AttentionCount::full, "Model FLOPs plus what recomputation runs again.");
  m.def("megatron_flops_per_iteration", &megatron_flops_per_iteration, py::arg("batch"), py::arg("seq"), py::arg("layers"),
        py::arg("hidden"), py::arg("vocab"),
        "Narayanan et al. 2021, §5.1, eq. 3: 96 B s l h^2 (1 + s/(6h) + V/(16 l h)), exact.");
  m.def("prefill_flops", &prefill_flops, py::arg("shape"), py::arg("batch"), py::arg("prompt"),
        "One causal forward pass over the prompt.");
  m.def("decode_flops_per_token", &decode_flops_per_token, py::arg("shape"), py::arg("context"),
        "One new token attending to `context` cached tokens.");
  m.def("generation_flops", &generation_flops, py::arg("shape"), py::arg("prompt"), py::arg("new_tokens"),
        "Decoding new_tokens after a prompt, in closed form.");
  m.def("as_flops", &as_flops, py::arg("count"), "A FlopCount from an exact count.");
}

void bind_memory_types(py::module_& m) {
  py::class_<WeightFormat> wf(m, "WeightFormat",
                              "A storage format of weights or caches: bits per value including block-scale overhead.");
  wf.def(py::init([](const std::string& n) { return parse_weight_format(n); }), py::arg("name"),
         "fp32, bf16, fp16, fp8, int8, int4 (AWQ/GPTQ, group 128: 4.156 bit), q8_0 (8.5 bit), q6_k (6.5625 bit), q4_0 (4.5 bit), nf4 (4.127 bit), "
         "mxfp4 (4.25 bit), nvfp4 (4.5 bit), mxfp6 (6.25 bit).");
  wf.def_property_readonly("name", [](const WeightFormat& f) { return std::string(f.name); });
  wf.def_readonly("bits_per_value", &WeightFormat::bits_per_value);
  wf.def("bytes_per_value", &WeightFormat::bytes_per_value);
  wf.def("size_of", [](const WeightFormat& f, double n) { return f.size_of(n); }, py::arg("values"), "Bytes of n values.");
  wf.def_static("all", []() { return std::vector<WeightFormat>(formats::all.begin(), formats::all.end()); });
  wf.def("__eq__", [](const WeightFormat& a, const WeightFormat& b) { return a == b; });
  wf.def("__hash__", [](const WeightFormat& f) { return py::hash(py::make_tuple(std::string(f.name), f.bits_per_value)); });
  wf.def("__repr__", [](const WeightFormat& f) { return "WeightFormat('" + std::string(f.name) + "')"; });
  wf.def("__str__", [](const WeightFormat& f) { return std::string(f.name); });
  wf.def("to_dict", [](const WeightFormat& f) {
    py::dict d;
    d["name"] = std::string(f.name);
    d["bits_per_value"] = f.bits_per_value;
    return d;
  });
  py::implicitly_convertible<py::str, WeightFormat>();
  wf.def(
      "checkpoint_ends",
      [](const WeightFormat& f) {
        const CheckpointEnds e = checkpoint_ends(f);
        return py::make_tuple(e.embedding, e.head);
      },
      "(embedding, head): the formats a checkpoint in this format keeps its input embedding and output head in "
      "(bf16 for the GPU quantizers' formats, Q6_K for a q4_0 file's head; the format itself for 16-bit formats and q8_0).");
  m.def("weight_format", &weight_format, py::arg("precision"), "The storage format of a compute precision.");
  m.def("parse_weight_format", [](const std::string& t) { return parse_weight_format(t); }, py::arg("text"));
  m.def("weight_memory", &weight_memory, py::arg("params"), py::arg("format"), "Memory of `params` weights in `format`.");

  text_enum<Optimizer>(m, "Optimizer", "Optimizer whose state the memory model counts.")
      .value("adam", Optimizer::adam)
      .value("adam_8bit", Optimizer::adam_8bit)
      .value("sgd_momentum", Optimizer::sgd_momentum)
      .value("sgd", Optimizer::sgd)
      .value("adafactor", Optimizer::adafactor);
  text_enum<ZeroStage>(m, "ZeroStage", "ZeRO stage (Rajbhandari et al. 2020, §5): 0 none ... 3 parameters.")
      .value("none", ZeroStage::none)
      .value("optimizer", ZeroStage::optimizer)
      .value("gradients", ZeroStage::gradients)
      .value("parameters", ZeroStage::parameters);
  text_enum<FineTune>(m, "FineTune", "Full training, LoRA or QLoRA.")
      .value("full", FineTune::full)
      .value("lora", FineTune::lora)
      .value("qlora", FineTune::qlora);

  Record<LoraOptions>(m, "LoraOptions", "LoRA adapters (Hu et al. 2021, §4).")
      .field("rank", &LoraOptions::rank)
      .field("q", &LoraOptions::q)
      .field("k", &LoraOptions::k)
      .field("v", &LoraOptions::v)
      .field("o", &LoraOptions::o)
      .field("mlp", &LoraOptions::mlp)
      .finish();
  {
    Record<ActivationOptions> r(m, "ActivationOptions", "Tensor and sequence parallel degrees and recomputation for activation memory.");
    r.field("tensor_parallel", &ActivationOptions::tensor_parallel)
        .field("sequence_parallel", &ActivationOptions::sequence_parallel)
        .field("recompute", &ActivationOptions::recompute);
    recompute_modules_field(r, &ActivationOptions::recompute_modules, "with recompute selective: what it reruns, as Megatron-Core's --recompute-modules names it: core_attn (the default, \"\"), mlp, moe, moe_act, shared_experts, layernorm, mla_up_proj");
    r.field("flash_attention", &ActivationOptions::flash_attention)
        .field("eager", &ActivationOptions::eager, "plain PyTorch under autocast: the unfused kernels' saved tensors")
        .field("dropout", &ActivationOptions::dropout, "dropout masks kept (none at p = 0)")
        .field("fused_activation", &ActivationOptions::fused_activation, "the MLP activation keeps only its input (Megatron-Core's fused SwiGLU)")
        .field("linear_input_bytes", &ActivationOptions::linear_input_bytes, "bytes of a saved linear-layer input: 2, or 1 for Transformer Engine's FP8 copy")
        .field("finetune", &ActivationOptions::finetune, "lora or qlora: frozen base weights keep no inputs for weight gradients, only the adapted layers' (and each adapter's A x)")
        .field("lora", &ActivationOptions::lora, "with finetune lora or qlora: the adapters")
        .finish();
  }
  Record<MemoryItem>(m, "MemoryItem", "One line of a memory budget: label, size, how it was worked out.")
      .field("label", &MemoryItem::label)
      .field("size", &MemoryItem::size)
      .field("detail", &MemoryItem::detail)
      .finish();
  Record<MemoryBudget>(m, "MemoryBudget",
                       "Per-GPU memory as a breakdown; total() is the sum. MemoryBudget() starts with every item at 0 B.")
      .field("weights", &MemoryBudget::weights)
      .field("gradients", &MemoryBudget::gradients)
      .field("optimizer_states", &MemoryBudget::optimizer_states)
      .field("activations", &MemoryBudget::activations)
      .field("kv_cache", &MemoryBudget::kv_cache)
      .field("runtime_reserve", &MemoryBudget::runtime_reserve)
      .field("pipeline_stage", &MemoryBudget::pipeline_stage)
      .field("pipeline_stages", &MemoryBudget::pipeline_stages)
      .field("tight_margin", &MemoryBudget::tight_margin, "not in total(): what the allocator may lose beyond the reserve; less headroom is a tight fit")
      .finish()
      .def("items", [](const MemoryBudget& b) {
        std::vector<MemoryItem> out;
        for (const MemoryItem* i : b.items()) out.push_back(*i);
        return out;
      })
      .def("total", &MemoryBudget::total)
      .def("model_states", &MemoryBudget::model_states, "weights + gradients + optimizer states")
      .def("explain", &MemoryBudget::to_string, "One line per item with its arithmetic, then the total.")
      .def("__str__", &MemoryBudget::to_string)
      .def("to_pandas", [](const MemoryBudget& b) {
        py::dict cols;
        py::list label, bytes, detail;
        for (const MemoryItem* i : b.items()) {
          label.append(i->label);
          bytes.append(i->size.value());
          detail.append(i->detail);
        }
        cols["item"] = label;
        cols["size_bytes"] = bytes;
        cols["detail"] = detail;
        return py::module_::import("pandas").attr("DataFrame")(cols);
      }, "The items as a pandas.DataFrame (item, size_bytes, detail).");

  Record<RuntimeReserve>(m, "RuntimeReserve", "Memory beyond the planned tensors: fixed (1 GiB) + fragmentation share (5%).")
      .field("fixed", &RuntimeReserve::fixed)
      .field("fragmentation", &RuntimeReserve::fragmentation)
      .field("fragmentation_tight", &RuntimeReserve::fragmentation_tight,
             "a fit that fails at this fragmentation share (15 %, GMLake's average) is tight")
      .finish()
      .def("of", &RuntimeReserve::of, py::arg("planned"))
      .def("tight_margin", &RuntimeReserve::tight_margin, py::arg("planned"))
      .def_static("none", &RuntimeReserve::none, "No reserve: tensor-only figures.");
  text_enum<CpComm>(m, "CpComm",
                    "How context-parallel ranks exchange K/V (Megatron's cp_comm_type): p2p (ring), all_gather (Llama 3), a2a (Ulysses).");
  // The one plan type of the memory budget, the time estimate and the plan search.
  {
    Record<ParallelPlan> r(m, "ParallelPlan", "tensor x pipeline x data parallel, micro-batch, ZeRO, recomputation, ...");
    r.field("tp", &ParallelPlan::tp)
      .field("pp", &ParallelPlan::pp)
      .field("dp", &ParallelPlan::dp)
      .field("micro_batch", &ParallelPlan::micro_batch)
      .field("zero_stage", &ParallelPlan::zero_stage)
      .field("recompute", &ParallelPlan::recompute);
    recompute_modules_field(r, &ParallelPlan::recompute_modules, "with recompute selective: what it reruns, as Megatron-Core's --recompute-modules names it: core_attn (the default, \"\"), mlp, moe, moe_act, shared_experts, layernorm, mla_up_proj");
    r.field("sequence_parallel", &ParallelPlan::sequence_parallel)
      .field("interleave", &ParallelPlan::interleave)
      .field("first_stage_layers", &ParallelPlan::first_stage_layers)
      .field("last_stage_layers", &ParallelPlan::last_stage_layers)
      .field("last_chunk_layers", &ParallelPlan::last_chunk_layers,
             "with chunk_layers: the last chunk's layers, beside the output layer and loss (a layout's last virtual stage)")
      .field("chunk_layers", &ParallelPlan::chunk_layers,
             "the largest model chunk's layers where a pipeline layout places the chunks (0: equal chunks); sets the bubble")
      .field("first_chunk_layers", &ParallelPlan::first_chunk_layers,
             "with chunk_layers: the first chunk's layers, beside the embedding (a layout's first virtual stage; 0: an even share)")
      .field("ep", &ParallelPlan::ep)
      .field("etp", &ParallelPlan::etp, "expert tensor parallel: GPUs each routed expert is split over; 0: tp")
      .field("cp", &ParallelPlan::cp, "context parallel: each sequence split over cp GPUs")
      .field("cp_comm", &ParallelPlan::cp_comm, "how the cp ranks exchange K/V: p2p (ring), all_gather or a2a (Ulysses)")
      .field("offload_layers", &ParallelPlan::offload_layers,
             "activation offloading: layers whose activations go to host memory and back (Megatron-Core --cpu-offloading-num-layers); "
             "pp 1, no recomputation")
      .finish()
      .def("gpus", &ParallelPlan::gpus);
  }
  m.def("expert_tensor_parallel", &expert_tensor_parallel, py::arg("plan"), "The expert tensor-parallel degree a plan runs: etp, or tp when etp is 0.");
  m.def(
      "expert_data_parallel",
      [](const ParallelPlan& plan) {
        for (const auto& [v, f] : {std::pair{plan.tp, "tp"}, std::pair{plan.dp, "dp"}, std::pair{plan.cp, "cp"}, std::pair{plan.ep, "ep"}})
          require_positive_count(v, f);
        return expert_data_parallel(plan);
      },
      py::arg("plan"),
        "GPUs holding the same experts (expert gradients reduce over them): dp x cp / ep; 0 when ep does not divide dp x cp.");
  m.def(
      "stage_layers",
      [](int layers, const ParallelPlan& plan, int stage) {
        require_positive_count(layers, "layers");
        require_positive_count(plan.pp, "pp");
        if (stage < 0 || stage >= plan.pp) detail::fail("stage", std::to_string(stage), "is not a stage of pp " + std::to_string(plan.pp) + " (0 to pp - 1)");
        validate_stage_layout(layers, plan);
        return stage_layers(layers, plan, stage);
      },
      py::arg("layers"), py::arg("plan"), py::arg("stage"),
        "Transformer layers on pipeline stage `stage` (0-based): the automatic layout or the given first/last counts.");
  m.def("validate_stage_layout", &validate_stage_layout, py::arg("layers"), py::arg("plan"),
        "Checks the plan's stages and chunks against a model of `layers` layers (first/last stage layers, interleave, a layout's "
        "chunk_layers, first_chunk_layers, last_chunk_layers); InputError naming the field otherwise.");
  m.def(
      "end_stage_layouts",
      [](int layers, int pp, std::size_t most) {
        require_positive_count(layers, "layers");
        require_positive_count(pp, "pp");
        return end_stage_layouts(layers, pp, most);
      },
      py::arg("layers"), py::arg("pp"), py::arg("most") = 4,
        "(first, last) layer counts with lighter end stages that Megatron-Core accepts, beside the automatic layout: "
        "what search_plans tries.");
  py::class_<PipelineLayout>(m, "PipelineLayout",
                             "A pipeline layout as Megatron-Core writes it (--pipeline-model-parallel-layout), read by "
                             "parse_pipeline_layout: ranks, virtual stages per rank, each rank's transformer layers, the MTP layers.")
      .def_readonly("pp", &PipelineLayout::pp)
      .def_readonly("interleave", &PipelineLayout::interleave, "virtual stages per rank (Megatron's VP)")
      .def_readonly("rank_layers", &PipelineLayout::rank_layers, "transformer layers on each pipeline rank")
      .def_readonly("mtp_layers", &PipelineLayout::mtp_layers, "multi-token-prediction layers (m), timed on the last rank")
      .def_readonly("mtp_rank", &PipelineLayout::mtp_rank, "the rank that holds them (-1: none)")
      .def_readonly("chunk_layers", &PipelineLayout::chunk_layers, "the most transformer layers of any virtual stage")
      .def_readonly("last_chunk_layers", &PipelineLayout::last_chunk_layers, "the transformer layers of the last virtual stage")
      .def_readonly("first_chunk_layers", &PipelineLayout::first_chunk_layers, "the transformer layers of the first virtual stage")
      .def("__repr__", [](const PipelineLayout& l) {
        return "PipelineLayout(pp=" + std::to_string(l.pp) + ", interleave=" + std::to_string(l.interleave) + ", rank_layers=[" +
               rank_layers_text(l) + "], mtp_layers=" + std::to_string(l.mtp_layers) + ")";
      });
  m.def("parse_pipeline_layout", &parse_pipeline_layout, py::arg("text"), py::arg("layers"), py::arg("pp"),
        "Reads a Megatron-Core layout such as 'Et|(tt|)*30mL' (E embedding, t layer, m MTP layer, L loss, '|' between virtual "
        "stages, x*n and (...)*n repeats) for a model of `layers` layers on `pp` ranks; errors name pipeline_layout.");
  m.def(
      "apply_pipeline_layout",
      [](ParallelPlan plan, const PipelineLayout& layout, std::string_view text) {
        apply_pipeline_layout(plan, layout, text);
        return plan;
      },
      py::arg("plan"), py::arg("layout"), py::arg("text") = "",
      "A copy of `plan` with the layout's pp, interleave and first/last stage layers (chunk_layers, first_chunk_layers and last_chunk_layers set; set TrainingJob.mtp_layers (or TrainingConfig.mtp_layers) to layout.mtp_layers yourself); the middle ranks must "
      "hold equal layers and MTP layers sit on the last rank.");
  Record<TrainingConfig>(m, "TrainingConfig", "How a model is trained, for the memory model.")
      .field("plan", &TrainingConfig::plan)
      .field("seq_len", &TrainingConfig::seq_len, "0: the shape's seq_len")
      .field("mixed_precision", &TrainingConfig::mixed_precision)
      .field("gradient_bytes", &TrainingConfig::gradient_bytes,
             "bytes per gradient element kept for the optimizer: 0 (the weights' 2), 2, or 4 (fp32 main gradients, Megatron-Core)")
      .field("fp32_params", &TrainingConfig::fp32_params, "the fp32 parameters are the master copy (PyTorch FSDP/DDP): 4 B weights, no extra copy")
      .field("vocab_multiple", &TrainingConfig::vocab_multiple, "vocabulary padded to a multiple of this x tp; 0: not padded (Megatron: 128)")
      .field("optimizer", &TrainingConfig::optimizer)
      .field("microbatches", &TrainingConfig::microbatches)
      .field("flash_attention", &TrainingConfig::flash_attention)
      .field("eager", &TrainingConfig::eager, "plain PyTorch under autocast: eager activations, fp32 loss tensors, autocast's weight copies")
      .field("dropout", &TrainingConfig::dropout, "dropout masks kept (Framework.dropout)")
      .field("fused_activation", &TrainingConfig::fused_activation, "the MLP activation keeps only its input (Framework.fused_activation)")
      .field("linear_input_bytes", &TrainingConfig::linear_input_bytes, "bytes of a saved linear-layer input; 0: 2 (FP8: 1, saved_linear_input_bytes)")
      .field("offload_optimizer", &TrainingConfig::offload_optimizer)
      .field("offload_parameters", &TrainingConfig::offload_parameters)
      .field("finetune", &TrainingConfig::finetune)
      .field("lora", &TrainingConfig::lora)
      .field("mtp_layers", &TrainingConfig::mtp_layers,
             "multi-token-prediction layers on the last pipeline stage (DeepSeek-V3's 1): a layer, a 2h x h projection, another output pass")
      .field("reserve", &TrainingConfig::reserve)
      .finish();
  Record<InferenceConfig>(m, "InferenceConfig", "How a model is served, for the memory model.")
      .field("weights", &InferenceConfig::weights)
      .field("expert_weights", &InferenceConfig::expert_weights, "the routed experts' format where it differs (None: as weights)")
      .field("kv_cache", &InferenceConfig::kv_cache)
      .field("context", &InferenceConfig::context, "tokens per sequence; 0: the shape's seq_len")
      .field("sequences", &InferenceConfig::sequences)
      .field("tensor_parallel", &InferenceConfig::tensor_parallel)
      .field("pipeline_parallel", &InferenceConfig::pipeline_parallel)
      .field("expert_parallel", &InferenceConfig::expert_parallel)
      .field("prefill_chunk", &InferenceConfig::prefill_chunk)
      .field("reserve", &InferenceConfig::reserve)
      .finish();
  Record<FitResult>(m, "FitResult", "Whether a budget fits a GPU's memory, and by how much.")
      .readonly("fits", &FitResult::fits)
      .readonly("required", &FitResult::required)
      .readonly("available", &FitResult::available)
      .readonly("headroom", &FitResult::headroom)
      .readonly("utilization", &FitResult::utilization)
      .readonly("tight", &FitResult::tight, "fits, but with less headroom than the allocator may lose to fragmentation")
      .finish(false);
  Record<GpuPlan>(m, "GpuPlan", "A GPU layout that fits, with its budget on the busiest GPU.")
      .readonly("gpus", &GpuPlan::gpus)
      .readonly("data", &GpuPlan::data)
      .readonly("tensor", &GpuPlan::tensor)
      .readonly("pipeline", &GpuPlan::pipeline)
      .readonly("context", &GpuPlan::context)
      .readonly("budget", &GpuPlan::budget)
      .finish(false);
}

void bind_memory_functions(py::module_& m) {
  m.def("activation_memory_per_layer", &activation_memory_per_layer, py::arg("shape"), py::arg("micro_batch"),
        py::arg("seq_len"), py::arg("options") = ActivationOptions{},
        "Activation bytes one layer keeps for the backward pass (Korthikanti et al. 2022, Table 2).");
  m.def("korthikanti_table2", &korthikanti_table2, py::arg("s"), py::arg("b"), py::arg("h"), py::arg("a"), py::arg("t"),
        py::arg("sequence_parallel"), py::arg("recompute"), "Korthikanti et al. 2022, Table 2, as printed.");
  m.def("kv_cache_per_token", &kv_cache_per_token, py::arg("shape"), py::arg("format") = formats::bf16,
        py::arg("tensor_parallel") = 1, py::arg("pipeline_parallel") = 1,
        "KV-cache bytes per token on one GPU (every layer: what each of the first `window` tokens costs).");
  m.def("kv_cache_per_token_past_window", &kv_cache_per_token_past_window, py::arg("shape"), py::arg("format") = formats::bf16,
        py::arg("tensor_parallel") = 1, py::arg("pipeline_parallel") = 1,
        "KV-cache bytes each token past the sliding window adds (the global layers only).");
  m.def("kv_cache_memory", &kv_cache_memory, py::arg("shape"), py::arg("context"), py::arg("sequences"),
        py::arg("format") = formats::bf16, py::arg("tensor_parallel") = 1, py::arg("pipeline_parallel") = 1,
        "KV cache of `sequences` sequences of `context` tokens.");
  m.def("optimizer_state_bytes_per_param", &optimizer_state_bytes_per_param, py::arg("optimizer"), py::arg("hidden"));
  m.def("lora_parameter_count", &lora_parameter_count, py::arg("shape"), py::arg("lora") = LoraOptions{},
        "Trainable LoRA parameters (Hu et al. 2021, §4).");
  m.def("zero_model_states", &zero_model_states, py::arg("params"), py::arg("data_parallel"), py::arg("stage"),
        py::arg("k") = 12.0, "ZeRO model states per GPU with mixed-precision Adam (Rajbhandari et al. 2020, §5, Fig. 1).");
  m.def(
      "training_budget", [](const TransformerShape& s, const TrainingConfig& c) { return training_budget(s, c); },
      py::arg("shape"), py::arg("config") = TrainingConfig{},
        "Per-GPU training memory on the busiest GPU.");
  m.def(
      "inference_budget", [](const TransformerShape& s, const InferenceConfig& c) { return inference_budget(s, c); },
      py::arg("shape"), py::arg("config") = InferenceConfig{},
        "Per-GPU serving memory on the first pipeline stage.");
  m.def("check_fit", &check_fit, py::arg("budget"), py::arg("gpu_memory"));
  m.def("memory_fit_output", [](const MemoryBudget& b, const FitResult& f) { return to_python(memory_fit_output(b, f)); },
        py::arg("budget"), py::arg("fit"),
        "The budget and its fit as `capplan memory --format json` prints them (memory_per_gpu_bytes, breakdown, ...).");
  m.def("max_micro_batch", &max_micro_batch, py::arg("shape"), py::arg("config"), py::arg("gpu_memory"),
        py::arg("limit") = std::int64_t{1} << 20, "The largest micro-batch that fits (0: not even 1).");
  m.def("max_context", &max_context, py::arg("shape"), py::arg("config"), py::arg("gpu_memory"), py::arg("limit") = 0,
        "The largest context that fits for config.sequences sequences (limit 0: the model's seq_len).");
  m.def("max_concurrent_sequences", &max_concurrent_sequences, py::arg("shape"), py::arg("config"), py::arg("gpu_memory"),
        py::arg("limit") = std::int64_t{1} << 24, "The most sequences of config.context tokens served at once.");
  m.def("min_gpus_for_training", &min_gpus_for_training, py::arg("shape"), py::arg("config"), py::arg("gpu_memory"),
        py::arg("max_gpus") = 65536, py::arg("max_tp") = 8,
        "Fewest GPUs that fit (tensor parallel up to max_tp dividing the heads x pipeline x ZeRO data parallel); None when none does.");
  m.def("min_gpus_for_serving", &min_gpus_for_serving, py::arg("shape"), py::arg("config"), py::arg("gpu_memory"),
        py::arg("max_gpus") = 1024, py::arg("max_tp") = 8,
        "Fewest GPUs to serve config.sequences sequences, TP at most max_tp (one node's GPUs); None when none does.");

  // "Will it fit?" whole, as capplan memory reports it (plan/memory_report.hpp, report/memory_output.hpp).
  Record<TrainingMemoryReport>(m, "TrainingMemoryReport", "A training plan's memory per GPU, its fit, and what the solvers say fits (capplan memory).")
      .readonly("model", &TrainingMemoryReport::model)
      .readonly("gpu", &TrainingMemoryReport::gpu)
      .readonly("parameters", &TrainingMemoryReport::parameters)
      .readonly("layers", &TrainingMemoryReport::layers)
      .readonly("config", &TrainingMemoryReport::config)
      .readonly("precision", &TrainingMemoryReport::precision)
      .readonly("seq_len", &TrainingMemoryReport::seq_len)
      .readonly("budget", &TrainingMemoryReport::budget, "per GPU, the stage that needs the most")
      .readonly("fit", &TrainingMemoryReport::fit)
      .readonly("max_micro_batch", &TrainingMemoryReport::max_micro_batch, "with this plan; 0: not one sequence fits")
      .readonly("fewest", &TrainingMemoryReport::fewest, "the fewest GPUs with this ZeRO stage and micro-batch; None: none up to 65,536")
      .finish(false)
      .def(
          "output",
          [](const TrainingMemoryReport& r, const std::vector<std::string>& would_fit, const std::vector<std::string>& notes) {
            return to_python(training_memory_output(r, would_fit, notes));
          },
          py::arg("would_fit") = std::vector<std::string>{}, py::arg("assumptions") = std::vector<std::string>{},
          "The JSON object of `capplan memory --format json`, as a dict.");
  m.def("training_memory_report", &training_memory_report, py::arg("model"), py::arg("shape"), py::arg("gpu"), py::arg("config"),
        py::arg("precision") = Precision::bf16, "Budget, fit, largest micro-batch and fewest GPUs of a training config on `gpu`.");
  Record<ServingMemoryReport>(m, "ServingMemoryReport", "A serving layout's memory per GPU, its fit, the largest context and batch, the fewest GPUs.")
      .readonly("model", &ServingMemoryReport::model)
      .readonly("gpu", &ServingMemoryReport::gpu)
      .readonly("parameters", &ServingMemoryReport::parameters)
      .readonly("config", &ServingMemoryReport::config)
      .readonly("context", &ServingMemoryReport::context)
      .readonly("budget", &ServingMemoryReport::budget)
      .readonly("fit", &ServingMemoryReport::fit)
      .readonly("max_context", &ServingMemoryReport::max_context, "tokens per sequence; 0: the weights alone do not fit")
      .readonly("max_batch", &ServingMemoryReport::max_batch)
      .readonly("fewest", &ServingMemoryReport::fewest, "None: no layout up to 1,024 GPUs")
      .finish(false)
      .def("gpus", &ServingMemoryReport::gpus)
      .def(
          "output", [](const ServingMemoryReport& r, const std::vector<std::string>& notes) { return to_python(serving_memory_output(r, notes)); },
          py::arg("assumptions") = std::vector<std::string>{}, "The JSON object of `capplan memory --serve --format json`, as a dict.");
  m.def("serving_memory_report", &serving_memory_report, py::arg("model"), py::arg("shape"), py::arg("gpu"), py::arg("config"),
        "Budget, fit, largest context and batch, and fewest GPUs of a serving config on `gpu`.");
}

}  // namespace

void bind_calculations(py::module_& m) {
  bind_flops(m);
  bind_memory_types(m);
  bind_memory_functions(m);
}

}  // namespace capplan::python
