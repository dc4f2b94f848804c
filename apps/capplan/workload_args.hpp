// What memory, train, infer and compare share: the model (a preset id or a JSON model file), the
// GPU, and the plan flags (parallelism, batch, recomputation, ZeRO, precision, optimizer; the
// serving load), turned into the library's TrainingConfig / InferenceConfig. Errors name the flag.
#pragma once

#include <capplan/hardware/precision.hpp>
#include <capplan/memory/activations.hpp>
#include <capplan/memory/budget.hpp>
#include <capplan/memory/solvers.hpp>
#include <capplan/perf/fabric.hpp>
#include <capplan/perf/framework.hpp>
#include <capplan/perf/framework_memory.hpp>
#include <capplan/perf/quantization.hpp>
#include <capplan/plan/goodput.hpp>
#include <capplan/units/quantity.hpp>
#include <capplan/workload/image_model.hpp>
#include <capplan/workload/transformer.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace capplan::cli {

// A model from --model: a preset id ("llama2-7b") or a path to a JSON model file (docs/cli.md).
struct ModelArg {
  TransformerShape shape;
  std::string id;      // preset id, or the file name
  std::string source;  // the preset's citation, or "model file PATH"
  // Default training sequence length: the preset's pre-training length (workload/presets.hpp), else
  // the shape's seq_len; `train_seq_source` says which.
  std::int64_t train_seq_len = 0;
  std::string train_seq_source;
  // The preset's released weight format where it is not bf16 (ModelPreset::released_weights);
  // serving uses it unless --weights is given.
  std::string released_weights{};
  std::string released_expert_weights{};
  std::string released_source{};
};

// A note on the model's sliding-window attention ("" without one): which layers attend to how many
// tokens, so that a reader sees why the KV cache and the attention time are smaller.
std::string window_note(const TransformerShape& shape);
// A sequence of `tokens` longer than the model's context window (TransformerShape::seq_len): a note
// that it is sized and timed as asked though the model was not trained for it; "" otherwise.
std::string context_note(const ModelArg& m, std::int64_t tokens);

// --attention-kernel: the flag, and its value (flash2 when empty).
void add_attention_kernel_flag(CLI::App* cmd, std::string& into);
perf::AttentionKernel attention_kernel_arg(const std::string& text);

// --framework: the training framework's preset (perf/framework.hpp): generic (default), megatron-core,
// fsdp; with --attention-kernel applied where given (the preset's kernel otherwise). The preset decides
// the gradient bytes kept for the optimizer, so memory and time count the same bytes.
void add_framework_flag(CLI::App* cmd, std::string& into, std::string& grad_reduce);
// --launch-time (train): host time to launch one kernel, Framework::cpu_seconds_per_kernel (0 to 1 ms).
void add_launch_time_flag(CLI::App* cmd, std::string& into);
double launch_time_arg(const std::string& text);
// --moe-routed-time (train): GPU time per routed value of a MoE layer beyond its kernels,
// Framework::moe_seconds_per_routed_value (0 to 1 ns; refused for a model without experts).
void add_moe_routed_time_flag(CLI::App* cmd, std::string& into);
double moe_routed_time_arg(const std::string& text, const TransformerShape& shape);
// --overlap-grad-reduce and --overlap-param-gather (train): on or off, Megatron's switches of the same
// names; applied to `fw` (Framework::overlap_grad_reduce; overlap_param_gather and
// gather_weights_in_forward) where given.
// --moe-a2a-overlap (train, compare): Framework::moe_a2a_overlap, refused for a dense `shape`.
struct OverlapArgs {
  std::string grad_reduce, param_gather, moe_a2a;  // empty: the framework's
};
void add_overlap_flags(CLI::App* cmd, OverlapArgs& a);
// `framework` and `recompute`: the --framework and --recompute given (the overlap needs megatron-core and
// runs under no full recomputation).
void apply_overlap_args(const OverlapArgs& a, perf::Framework& fw, const TransformerShape& shape, const std::string& framework,
                        const std::optional<std::string>& recompute);
// --recompute-modules (train, memory, compare): what selective recomputation reruns, as Megatron-Core's
// --recompute-modules names it (ParallelPlan::recompute_modules).
void add_recompute_modules_flag(CLI::App* cmd, std::optional<std::string>& into);
// --mtp-layers (train, compare): multi-token-prediction layers (perf::TrainingJob::mtp_layers).
// `layout`: the command takes --pipeline-layout, whose "m" is the default.
void add_mtp_layers_flag(CLI::App* cmd, std::optional<int>& into, bool layout);
int mtp_layers_arg(int value);
// --weight-stream-latency (infer): a weight-streaming matmul's fixed time beyond its bytes,
// perf::EfficiencyModel::weight_stream_latency (0 to 1 ms).
void add_weight_stream_latency_flag(CLI::App* cmd, std::string& into);
Duration weight_stream_latency_arg(const std::string& text);
// --launch-time (infer, with --eager): the host's time to launch one kernel of an eager forward,
// perf::InferenceOptions::eager_launch_seconds (0 to 1 ms).
void add_eager_launch_time_flag(CLI::App* cmd, std::string& into);
perf::Framework framework_arg(const std::string& text, const std::string& attention_kernel, const std::string& grad_reduce);
// --grad-reduce against the training precision: under Megatron-Core (Framework::grad_buffer_in_reduce_precision)
// a 16-bit reduction is the parameters' dtype, so fp16 under bf16 training and any 16 bits under fp32 are
// refused; other frameworks reduce in what they are given. No-op without the flag.
void check_grad_reduce(const std::string& grad_reduce, const perf::Framework& fw, Precision training);

// --cuda-graphs: the serving engine replays decode steps as CUDA graphs (perf/inference.hpp).
void add_cuda_graphs_flag(CLI::App* cmd, bool& into);
// --eager: plain PyTorch serving, each kernel launched from Python (perf::InferenceOptions::eager).
void add_eager_flag(CLI::App* cmd, bool& into);

// --usable-memory: the flag, and the GPU with it applied (the GPU as the catalog has it when empty):
// the memory a run may use on one GPU in place of the catalog's usable figure. Apple silicon: the
// working set `sudo sysctl iogpu.wired_limit_mb=N` raises Metal's default 75 % to; a GPU shared with
// other work: what is left. Refused above the GPU's memory or below 64 MB, naming the flag.
void add_usable_memory_flag(CLI::App* cmd, std::string& into);
GpuSpec gpu_with_usable_memory(const GpuSpec& gpu, const std::string& flag);

// --moe-capacity-factor: the flag, and its value for a model (1 when not given; an error naming the
// flag for a dense model or a value outside (0, 64]).
void add_moe_capacity_flag(CLI::App* cmd, std::optional<double>& into);
double moe_capacity_arg(const std::optional<double>& flag, const TransformerShape& shape);

// --moe-dispatch alltoall|deepep: the flag, and its value for a model (alltoall when not given; an
// error naming the flag for a dense model).
void add_moe_dispatch_flag(CLI::App* cmd, std::string& into);
perf::MoeDispatch moe_dispatch_arg(const std::string& flag, const TransformerShape& shape);

// The training sequence length: --seq-len when given, else the model's pre-training length.
std::int64_t training_seq_len(const std::optional<std::int64_t>& flag, const ModelArg& m);
// "Sequence length 8192: Llama 3.1 8B's pre-training length (source); --seq-len to change." for the notes.
std::string seq_len_note(const std::optional<std::int64_t>& flag, const ModelArg& m);

// The serving load every subcommand assumes when none is given: 512 prompt + 128 generated tokens.
inline constexpr std::int64_t default_prompt_tokens = 512, default_output_tokens = 128;

// Fine-tuning: --finetune full|lora|qlora, --lora-rank, --lora-mlp (memory, train, compare).
struct FinetuneArgs {
  std::string finetune = "full";
  std::optional<int> lora_rank;
  bool lora_mlp = false;
};
void add_finetune_flags(CLI::App* cmd, FinetuneArgs& a);
// The library's FineTune and LoraOptions; errors name the flag.
std::pair<FineTune, LoraOptions> finetune_arg(const FinetuneArgs& a);
// "LoRA rank 16 on q k v o (6.816M trainable parameters)"; empty for full training.
std::string finetune_text(FineTune f, const LoraOptions& l, const TransformerShape& shape);
// QLoRA's gradient checkpointing, as PEFT runs it: prepare_model_for_kbit_training turns it on unless
// told otherwise (use_gradient_checkpointing=True), recomputing every layer's activations in the
// backward pass (Recompute::full). The note for a QLoRA plan with recomputation `r`, `given` by
// --recompute or --recompute-modules or not (memory's default, train's and compare's search); "" for
// other fine-tuning, where the plan is PEFT's default, and where the recomputation was given. Compare
// passes Recompute::none for its rows (each its own plan).
std::string qlora_recompute_note(FineTune f, Recompute r, bool given);

ModelArg model_arg(const std::string& text);

struct GivenFlags;

// An image model from --model: a preset with a layer-level shape (workload/image_model.hpp) or a JSON
// file listing its layers (io/image_model_json.hpp).
struct ImageModelArg {
  ImageModel shape;
  std::string id;
  std::string source;  // "preset" or "model file PATH"
  std::string read_as{};  // "\"NAME\" taken as ID, ...; " where a name other than the preset's id found it
};
// The image model --model names; absent for a transformer (preset or file) or an unknown id (model_arg says why).
std::optional<ImageModelArg> image_model_arg(const std::string& text);
// Exit-2 error for a diffusion UNet where a command would train it: capplan times its image
// generation (infer --steps), not its training (AdamW, the VAE and text encoders are not modelled).
void refuse_diffusion_training(const ImageModelArg& m);
// --resolution WxH (e.g. 832x1216): a diffusion-UNet preset rebuilt for that image size (the latent
// is the image / 8); empty text leaves the model as it is; anything else is an exit-2 error naming the flag.
void apply_resolution(ImageModelArg& m, const std::string& text);

// --flash-attention / --no-flash-attention on an image model: whether its attention runs as one fused
// kernel (the default) or as separate kernels; refused for a model with no attention.
void apply_image_attention_flag(ImageModelArg& m, bool flash_attention, const GivenFlags& flags);

// A count written as 1e9, 2.5e12, 1,000,000 or 1_000_000 (--tokens).
double count_arg(const std::string& text, std::string_view flag);

// Plan flags (training) and the serving load; what is left out keeps the library defaults.
struct PlanArgs {
  std::optional<int> gpus, tp, pp, dp, ep, cp, etp;
  std::optional<std::string> cp_comm;  // --cp-comm: p2p, all_gather or a2a
  std::optional<int> interleave, first_stage_layers, last_stage_layers;
  std::optional<std::string> pipeline_layout;  // --pipeline-layout: Megatron-Core's layout string
  std::optional<int> mtp_layers;  // --mtp-layers (perf::TrainingJob::mtp_layers); default: a layout's "m"
  std::optional<int> offload_layers;  // --offload-layers: activation offloading (Megatron-Core)
  std::optional<std::int64_t> micro_batch, global_batch, seq_len;
  std::optional<std::string> recompute;  // absent: none (a given plan) or any (the search)
  std::optional<std::string> recompute_modules;  // --recompute-modules: selective's modules (implies selective)
  bool sequence_parallel = false;
  bool flash_attention = true;  // --no-flash-attention: off
  std::optional<int> zero;               // absent: 0 (a given plan) or any (the search)
  std::string precision = "bf16";
  std::string fp8_recipe;                // --fp8-recipe; empty: delayed
  std::optional<std::string> optimizer;  // absent: adam
  // Serving.
  bool serve = false;
  std::int64_t batch = 1;
  std::optional<std::int64_t> context;
  std::string attention_kernel;  // empty: the framework's kernel (--attention-kernel)
  std::string framework;         // --framework: empty for generic
  std::string grad_reduce;       // --grad-reduce: empty for the framework's
  std::optional<double> moe_capacity_factor;  // --moe-capacity-factor
  std::string moe_dispatch;                   // --moe-dispatch: empty for alltoall
  std::string usable_memory;                  // --usable-memory: empty for the catalog's figure
  bool cuda_graphs = false;                   // --cuda-graphs (infer, compare --serve)
  bool eager = false;                         // --eager (infer, compare --serve)
  std::string weights{};  // "": as the model is released (bf16 unless the preset records another)
  std::string expert_weights;  // routed experts' format; empty: as --weights
  std::string kv_cache;  // default: the weights' format when 16 bit, else bf16
};
// What a --pipeline-layout says that the plan line does not: its ranks' layers and chunks. Empty
// without a layout.
std::vector<std::string> pipeline_layout_notes(const PlanArgs& a, const ModelArg& m);
// The MTP layers (m) of a --pipeline-layout; 0 without one.
int pipeline_layout_mtp_layers(const PlanArgs& a, const ModelArg& m);
// The MTP layers a run trains: --mtp-layers, else the layout's m; InputError naming --mtp-layers when
// it is out of range or differs from the layout's m.
int mtp_layers_of(const PlanArgs& a, const ModelArg& m);
// What capplan does with `mtp_layers` MTP layers, with their share of a token's matrix FLOPs.
std::string mtp_note(int mtp_layers, const TransformerShape& shape);

// The machines a training run spans: GPUs per node and the network between nodes.
struct ClusterArgs {
  std::string fabric;            // a preset id (perf/fabric.hpp); empty: the usual one for the GPU
  std::string fabric_bandwidth;  // per GPU, e.g. "200 Gb/s"; overrides the preset's
  std::string fabric_latency;    // per algorithm step, e.g. "5 us"
  std::optional<int> gpus_per_node;
  bool allow_cross_node_tp = false;
  std::string pcie_host;  // --pcie-host; empty: PCIe switches (an 8-GPU PCIe server's)
  std::string p2p;        // --p2p auto|force|off; empty: NCCL's default
  std::optional<int> pcie_lanes;  // --pcie-lanes: the electrical lanes of each GPU's slot
  std::string host_memory;        // --host-memory-bandwidth, e.g. "204.8 GB/s"; empty: assumed for the GPU's PCIe generation
};

// The GPU as its slot wires it: --pcie-lanes caps its PCIe lanes (two cards on a desktop CPU's 16
// lanes run x8 each); unchanged without the flag.
GpuSpec with_slot_lanes(GpuSpec g, const ClusterArgs& a);

// --fabric, --fabric-bandwidth, --fabric-latency; with the plan flags also --gpus-per-node and
// --allow-cross-node-tp.
void add_cluster_flags(CLI::App* cmd, ClusterArgs& a, bool with_plan_flags = true);

// The fabric the flags ask for; absent when they leave it to the GPU's usual host.
std::optional<perf::Fabric> fabric_arg(const ClusterArgs& a);

// --pcie-host switch|cpu|two-cpus: how PCIe GPUs hang off the host, and --p2p auto|force|off: what NCCL
// may do over those links (train, compare, infer).
void add_pcie_host_flag(CLI::App* cmd, ClusterArgs& a);

// --pcie-host switch|cpu|two-cpus (perf::PcieHost); empty: under PCIe switches.
perf::PcieHost pcie_host_arg(const ClusterArgs& a);

// --p2p auto|force|off (perf::PeerToPeer); empty: NCCL's default.
perf::PeerToPeer p2p_arg(const ClusterArgs& a);

// --host-memory-bandwidth: the host's DRAM wire rate in B/s (1 GB/s to 100 TB/s); 0 when not given
// (perf::assumed_host_memory_bandwidth).
double host_memory_arg(const ClusterArgs& a);

// "Inside a node: ..." when the node's GPUs talk over PCIe (nothing for NVLink / Infinity Fabric nodes).
std::string pcie_note(const perf::Cluster& c, bool host_given, bool host_memory_given = false);

// --gpus-per-node, 1..1024 or the GPU's scale-up domain where larger (default perf::usual_gpus_per_node(gpu): 8, 72 for an
// NVL72 rack's GPU, a TPU pod's or Trainium instance's chips).
int gpus_per_node_arg(const ClusterArgs& a, const GpuSpec& gpu);

// A given TP degree must lie inside one node (a divisor of its GPUs) unless --allow-cross-node-tp.
void check_tp_in_node(const ClusterArgs& a, int tp, int gpus_per_node, int gpus);
// --p2p or --pcie-host on a system-on-chip (no PCIe or GPU link to set): an error naming the flag.
void refuse_link_flags_on_soc(const ClusterArgs& a, const GpuSpec& gpu);

// What a whole run adds to its iterations (plan/goodput.hpp); empty strings keep the defaults.
struct GoodputArgs {
  std::optional<double> failure_rate;  // per GPU-hour
  std::string restart, storage_write, checkpoint_interval;
  bool async_checkpoint = false;
  double eval_share = 0, warmup_share = 0;
};

void add_goodput_flags(CLI::App* cmd, GoodputArgs& a);
GoodputConfig goodput_config(const GoodputArgs& a);

void add_model_gpu_flags(CLI::App* cmd, std::string& model, std::string& gpu, bool gpu_required = true);
void add_plan_flags(CLI::App* cmd, PlanArgs& a);
void add_serve_flags(CLI::App* cmd, PlanArgs& a, bool with_serve_flag);

// With --serve, a training flag is an error ("--zero: 3 describes a training run; it does not go
// with --serve"), and a serving flag without --serve is one too: no flag is accepted and ignored.
void separate_serve_flags(CLI::App* cmd);

// --optimizer: adam (adamw), adam8bit, sgd-momentum, sgd or adafactor.
Optimizer optimizer_arg(const std::string& s);

// Raises the library's InputError `e` (which names a field of the plan) again as the flag the user
// typed, with `value` as typed: "--flag: value: why".
[[noreturn]] void fail_as_flag(const std::string& flag, const std::string& value, const InputError& e);

// --recompute: none, selective or full.
Recompute recompute_arg(const std::string& s);
// --recompute with --recompute-modules: the recomputation (`absent` when neither is given; selective
// when only the modules are) and the modules (ParallelPlan::recompute_modules); InputError naming the
// flag when the modules go with none or full.
std::pair<Recompute, std::uint8_t> recompute_args(const std::optional<std::string>& recompute,
                                                  const std::optional<std::string>& modules, Recompute absent);
// A plan search narrowed by --recompute and --recompute-modules, where given; the modules checked
// against the model and the framework (`eager`: plain PyTorch recomputes no module; InputError naming
// --recompute-modules). Either flag also stops the search trying published module lists: --recompute
// selective alone is core_attn, as in a plan. (perf::SearchSpace's recompute, recompute_modules and
// recompute_module_lists.)
void narrow_recompute(std::vector<Recompute>& space_recompute, std::uint8_t& space_modules, bool& space_module_lists,
                      const std::optional<std::string>& recompute,
                      const std::optional<std::string>& modules, const TransformerShape& shape, bool eager);

// A search narrowed by the plan flags given without a plan (train, compare): --etp N keeps plans whose
// experts split over N GPUs (perf::SearchSpace::expert_tensor_parallel), --cp-comm the one K/V exchange
// for plans with context parallelism (cp_comms): pass the space's two lists. Each is checked as in a plan (etp_arg, cp_comm_arg).
void narrow_plan_search(std::vector<int>& space_etps, std::vector<CpComm>& space_cp_comms, const std::optional<int>& etp,
                        const std::optional<std::string>& cp_comm, const TransformerShape& shape);
// --etp: a positive degree on a mixture-of-experts model that divides its experts' FFN width.
int etp_arg(int etp, const TransformerShape& shape);
// --cp-comm: p2p, all_gather, a2a, or a2a+p2p (Megatron-Core's spelling; a2a_p2p too).
CpComm cp_comm_arg(const std::string& text);

// Flag families, each listed once, for the commands that refuse them where they do not apply
// (GivenFlags::refuse); a command refuses those of a family it has.
// A language model's training run and nothing else: its plan beyond TP and PP, batch, tokens, kernels,
// MoE routing, framework, optimizer and the whole run's failures and checkpoints. Not --tp, --pp,
// --precision or the cluster's flags, which serving or image models also take, nor --deadline, which
// an image model's training takes.
inline constexpr const char* language_training_flags[] = {
    "--tokens", "--dp", "--cp", "--cp-comm", "--ep", "--etp", "--interleave", "--first-stage-layers", "--last-stage-layers",
    "--pipeline-layout", "--offload-layers", "--micro-batch", "--global-batch", "--seq-len", "--recompute", "--recompute-modules",
    "--mtp-layers", "--sequence-parallel", "--zero", "--optimizer", "--finetune", "--lora-rank", "--lora-mlp", "--mfu", "--allow-tight",
    "--attention-kernel", "--framework", "--grad-reduce", "--overlap-grad-reduce", "--overlap-param-gather", "--moe-a2a-overlap", "--moe-capacity-factor",
    "--moe-dispatch", "--moe-routed-time", "--fp8-recipe"};
// A training run's whole run (failures, restarts, checkpoints; plan/goodput.hpp): a transformer's or an image model's.
inline constexpr const char* goodput_flags[] = {"--failure-rate", "--restart",    "--storage-write", "--checkpoint-interval",
                                                "--async-checkpoint", "--eval-share", "--warmup-share"};
// A language model's serving load, beside --batch and --weights, which an image model's serving takes too.
inline constexpr const char* language_serving_flags[] = {"--context",       "--expert-weights", "--kv-cache", "--prompt-tokens",
                                                         "--output-tokens", "--cuda-graphs",    "--eager",    "--launch-time"};
// An image model's training run (train's and compare's spellings).
inline constexpr const char* image_training_flags[] = {"--epochs", "--images",  "--dataset-images", "--batch-per-gpu", "--cpu-cores-per-gpu",
                                                       "--cpu-cores", "--storage", "--drives", "--decode-rate"};

// Which flags a command was given, to refuse those that do not apply to its model.
struct GivenFlags {
  const CLI::App* cmd = nullptr;
  [[nodiscard]] bool has(const char* flag) const;
  // What the user wrote for a given flag ("true" for a switch).
  [[nodiscard]] std::string value_of(const char* flag) const;
  // An exit-2 error "FLAG: VALUE WHY" for the first of `flags` that was given.
  void refuse(std::initializer_list<const char*> flags, const std::string& why) const;
  void refuse(std::span<const char* const> flags, const std::string& why) const;
};

// --precision of training: bf16, fp16, fp32, fp8 or fp4.
Precision precision_arg(const std::string& s);

// --precision and --fp8-recipe (train, memory, compare).
void add_precision_flags(CLI::App* cmd, std::string& precision, std::string& fp8_recipe);

// --fp8-recipe: delayed (the default, empty), current, mxfp8 or blockwise; only with --precision fp8.
perf::Fp8Recipe fp8_recipe_arg(const std::string& recipe, Precision precision);

// The CLI check of a weight-format flag: one of memory/formats.hpp's formats.
CLI::Validator weight_format_check();

// A count flag that must be at least 1; `fallback` when it is not given.
int positive_flag(std::optional<int> v, int fallback, std::string_view flag);

// The training configuration of the plan flags. GPUs = TP x PP x DP; --gpus alone is data parallel.
// The sequence length defaults to the model's pre-training length (training_seq_len).
TrainingConfig training_config(const PlanArgs& a, const ModelArg& m);

// The serving configuration: --gpus alone is tensor parallel when it divides the heads, else
// pipeline parallel.
InferenceConfig inference_config(const PlanArgs& a, const TransformerShape& shape, const ModelArg* released = nullptr);
// "Weights: as released, ..." where serving took the model's released format (no --weights); "" otherwise.
std::string released_weights_note(const PlanArgs& a, const ModelArg& m);
// A system-on-chip (DGX Spark, Ryzen AI Max) serves alone: TP x PP over several is an error naming the
// flag that asked for it (--gpus, --tp or --pp).
void refuse_soc_serving_layout(const PlanArgs& a, const InferenceConfig& c, const GpuSpec& g);

// Readable figures for tables: "13.48 GB", "6.738B", "1.2e+21".
std::string bytes_text(DataSize d);
std::string count_text(double v);

// The memory verdict for the train and infer tables: "fits in 80 GB", "fits in 80 GB, but tight: ...",
// "does NOT fit in 80 GB".
std::string fit_text(const FitResult& fit, DataSize gpu_memory);

}  // namespace capplan::cli
