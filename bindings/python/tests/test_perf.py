"""The performance model from Python: parity with the C++ tests, plan search, inference, roofline."""

import pytest

import capplan
from capplan import Bandwidth, Catalog, ParallelPlan, Precision, TrainingJob, ZeroStage


@pytest.fixture(scope="module")
def cat():
    return Catalog.builtin()


def gpt(layers, hidden, heads):
    return capplan.TransformerShape(name="gpt", layers=layers, hidden=hidden, heads=heads, vocab=51200, seq_len=2048,
                                    norm="layernorm", linear_bias=True)


def test_ridge_points(cat):
    # Williams et al. 2009: ridge = peak / bandwidth. A100 SXM 80GB bf16: 312e12 / 2,039e9 = 153 FLOP/B.
    a100 = cat.find_gpu("A100 SXM 80GB")
    assert capplan.ridge_point(a100, "bf16").value == pytest.approx(312e12 / 2039e9, rel=1e-3)
    with pytest.raises(capplan.InputError, match="precision: fp8 has no dense peak rate") as e:
        capplan.ridge_point(cat.find_gpu("RTX 3090"), Precision.fp8)
    assert e.value.field == "precision"


def test_training_estimate_matches_megatron_closed_form(cat):
    # Same case as the C++ perf test: 39.1B GPT on 512 A100s, tp 8 x pp 2 x dp 32, full recompute.
    job = TrainingJob(model=gpt(48, 8192, 64), parameters=39.1e9, global_batch=1536, precision="fp16")
    plan = ParallelPlan(tp=8, pp=2, dp=32, recompute="full")
    cluster = capplan.make_cluster(cat.find_gpu("A100 SXM 80GB"), 512, 8, capplan.infiniband(Bandwidth(25, "GB/s")))
    e = capplan.estimate_training(job, plan, cluster, capplan.Framework.megatron_lm_2021())
    megatron = capplan.megatron_flops_per_iteration(1536, 2048, 48, 8192, 51200)
    assert e.hardware_flops.value == pytest.approx(megatron, rel=1e-9)
    assert e.hfu > e.mfu and e.micro_batches == 48
    assert e.breakdown.total().value == pytest.approx(e.iteration.value)
    assert "pipeline bubble" in e.explain()
    frame = e.breakdown.to_pandas()
    assert frame["time_s"].sum() == pytest.approx(e.iteration.value)
    # The 2022 release runs capplan's kernel model; 2021's layers' kernels take 1.117 times as long
    # (fitted on Megatron-LM Table 1): the kernels scale, the collectives and the FLOPs do not.
    new = capplan.estimate_training(job, plan, cluster, capplan.Framework.megatron_lm_2022())
    assert capplan.Framework.megatron_lm_2022().kernel_time_scale == 1
    assert capplan.Framework.megatron_lm_2021().kernel_time_scale == pytest.approx(1.117)
    terms = {t.name: t.time.value for t in e.breakdown.terms}
    new_terms = {t.name: t.time.value for t in new.breakdown.terms}
    assert terms["forward"] == pytest.approx(1.117 * new_terms["forward"])
    assert terms["tensor-parallel all-reduces"] == pytest.approx(new_terms["tensor-parallel all-reduces"])
    assert e.hardware_flops.value == pytest.approx(new.hardware_flops.value)
    for bad in (0.0, 3.0, float("nan")):
        with pytest.raises(capplan.InputError) as err:
            capplan.estimate_training(job, plan, cluster, capplan.Framework(kernel_time_scale=bad))
        assert err.value.field == "kernel_time_scale"
    assert e.to_dict()["iteration_s"] == e.iteration.value
    assert e.time_for_tokens(300e9).value == pytest.approx(300e9 / e.tokens_per_second)
    # Megatron's own Table 1 row for this model is 138 TFLOP/s per GPU; the model is within 20 %.
    assert e.hardware_rate_per_gpu.to("TFLOP/s") == pytest.approx(138, rel=0.2)


def test_estimate_plan_is_the_same_numbers_in_one_call(cat):
    job = TrainingJob(model=capplan.find_model("llama2-7b").transformer(), global_batch=64)
    plan = ParallelPlan(tp=2, dp=4, zero_stage="optimizer")
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 8, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    fw = capplan.Framework.pytorch_fsdp()
    both = capplan.estimate_plan(job, plan, cluster, fw)
    explained = capplan.estimate_training(job, plan, cluster, fw)
    assert both.time.iteration.value == explained.iteration.value
    assert both.time.mfu == explained.mfu and both.time.model_flops.value == explained.model_flops.value
    assert both.time.breakdown.terms == []
    memory = capplan.plan_memory(job, plan, fw)
    assert both.memory.total().value == memory.total().value
    # The framework decides the gradient bytes: FSDP's fp32 parameters and gradients differ from the
    # generic budget that only knows FlashAttention.
    assert capplan.plan_memory(job, plan, fw.flash_attention).total().value != memory.total().value
    assert both.fits == (memory.total() <= cat.find_gpu("H100 SXM").memory)
    with pytest.raises(capplan.InputError, match="dp: 3 gives tp x pp x dp = 3, not the 8 GPUs"):
        capplan.estimate_plan(job, ParallelPlan(dp=3), cluster)


def test_pcie_host_decides_peer_to_peer_or_host_memory(cat):
    # NCCL runs peer-to-peer only under a PCIe switch; on a CPU's root ports or across sockets it goes
    # through host memory (SHM) at shm_efficiency of the link, as GeForce cards do on any host.
    l40s = cat.find_gpu("L40S")
    assert capplan.intra_node_link(l40s).kind == capplan.LinkKind.pcie
    assert capplan.intra_node_link(l40s, capplan.PcieHost.root_complex).kind == capplan.LinkKind.pcie_via_host
    via = capplan.pcie(l40s, "two_sockets")
    assert via.efficiency == pytest.approx(35 / 63)
    assert capplan.pcie(cat.find_gpu("RTX 4090")).kind == capplan.LinkKind.pcie_via_host
    switch = capplan.make_cluster(l40s, 4, 4, capplan.Link())
    cpu = capplan.make_cluster(l40s, 4, 4, capplan.Link(), pcie_host="root_complex")
    assert cpu.pcie_host == capplan.PcieHost.root_complex
    group = capplan.Group(size=4, per_node=4)
    assert capplan.all_reduce(cpu, capplan.DataSize(1, "GB"), group).value > \
        capplan.all_reduce(switch, capplan.DataSize(1, "GB"), group).value
    setup = capplan.TrainingSetup(pcie_host="two_sockets")
    assert setup.pcie_host == capplan.PcieHost.two_sockets
    with pytest.raises(TypeError, match="pcie_host: 'bus'"):
        capplan.TrainingSetup(pcie_host="bus")
    # Serving takes the same field: TP decode all-reduces through host memory are slower.
    job = capplan.InferenceJob(model=capplan.find_model("llama2-7b").transformer(), tp=4)
    fast = capplan.estimate_inference(job, l40s).decode_step.value
    job.pcie_host = "root_complex"
    assert capplan.estimate_inference(job, l40s).decode_step.value > fast
    assert capplan.ServingLoad(pcie_host="two_sockets").pcie_host == capplan.PcieHost.two_sockets


def test_p2p_forced_or_disabled(cat):
    # NCCL_P2P_LEVEL=SYS: peer-to-peer through the CPU at 46.65 / 63.0 of the link (set on NVIDIA/nccl#2080's
    # PHB peer-to-peer build);
    # NCCL_P2P_DISABLE=1: through host memory even under a switch.
    l40s = cat.find_gpu("L40S")
    forced = capplan.pcie(l40s, "root_complex", "forced")
    assert forced.kind == capplan.LinkKind.pcie_via_cpu
    assert forced.efficiency == pytest.approx(46.65 / 63.0)
    assert capplan.pcie(l40s, p2p=capplan.PeerToPeer.disabled).kind == capplan.LinkKind.pcie_via_host
    cluster = capplan.make_cluster(cat.find_gpu("RTX 4090"), 4, 4, capplan.Link(), "root_complex", "forced")
    assert cluster.p2p == capplan.PeerToPeer.forced
    assert cluster.intra.kind == capplan.LinkKind.pcie_via_cpu
    setup = capplan.TrainingSetup(pcie_host="root_complex", p2p="forced")
    assert setup.p2p == capplan.PeerToPeer.forced
    with pytest.raises(TypeError, match="p2p: 'sys'"):
        capplan.TrainingSetup(p2p="sys")
    job = capplan.InferenceJob(model=capplan.find_model("llama2-7b").transformer(), tp=4, pcie_host="root_complex")
    shm = capplan.estimate_inference(job, l40s).decode_step.value
    job.p2p = "forced"
    assert capplan.estimate_inference(job, l40s).decode_step.value < shm
    assert capplan.ServingLoad(p2p="disabled").p2p == capplan.PeerToPeer.disabled
    # NCCL_P2P_DISABLE=1 would drop NVSwitch peer-to-peer too, which capplan does not time: an error naming p2p.
    with pytest.raises(capplan.InputError, match="p2p: disabled"):
        capplan.make_cluster(cat.find_gpu("H100 SXM"), 8, 8, capplan.Link(), "pcie_switch", "disabled")
    assert not capplan.p2p_setting_modelled(cat.find_gpu("H100 SXM"), "disabled")
    # Two GPUs to a switch, the switches on the CPU: peer-to-peer inside a pair, host memory between pairs.
    pairs = capplan.make_cluster(l40s, 8, 8, capplan.Link(), "switch_pairs")
    assert pairs.intra.kind == capplan.LinkKind.pcie
    assert pairs.intra_domain == 2
    assert pairs.intra_beyond.kind == capplan.LinkKind.pcie_via_host


def test_bad_plan_names_the_field(cat):
    job = TrainingJob(model=gpt(24, 2304, 24), global_batch=512)
    cluster = capplan.make_cluster(cat.find_gpu("A100 SXM 80GB"), 8, 8, capplan.infiniband(Bandwidth(25, "GB/s")))
    with pytest.raises(capplan.InputError, match=r"dp: 1 gives tp x pp x dp = 1, not the 8 GPUs"):
        capplan.estimate_training(job, ParallelPlan(), cluster)
    five = capplan.make_cluster(cat.find_gpu("A100 SXM 80GB"), 5, 8, capplan.infiniband(Bandwidth(25, "GB/s")))
    with pytest.raises(capplan.InputError, match="tp: 5 does not divide the 24 attention heads"):
        capplan.estimate_training(job, ParallelPlan(tp=5), five)


def test_plan_search_returns_fitting_plans_fastest_first(cat):
    job = TrainingJob(model=capplan.find_model("llama2-7b").transformer(), global_batch=64)
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 8, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    r = capplan.search_plans(job, cluster, top=3)
    assert 1 <= len(r.top) <= 3 and r.candidates >= len(r.top)
    times = [p.estimate.iteration.value for p in r.top]
    assert times == sorted(times)
    for p in r.top:
        assert capplan.plan_memory(job, p.plan).total() <= cat.find_gpu("H100 SXM").memory
    df = r.to_pandas()
    assert list(df["iteration_s"]) == times
    assert "valid plans timed" in r.explain()
    # The lists a search keeps between searches, once freed, are allocated afresh: the same answer.
    capplan.release_search_memory()
    again = capplan.search_plans(job, cluster, top=3)
    assert [p.estimate.iteration.value for p in again.top] == times and again.candidates == r.candidates


def test_inference_decode_is_bandwidth_bound(cat):
    # llama.cpp PR #4766: LLaMA-7B F16 decodes at 61.03 tokens/s on an RTX 4090 (batch 1, MEASURED);
    # the C++ validation keeps the model within its band; here: memory-bound and the right magnitude.
    job = capplan.InferenceJob(model=capplan.find_model("llama2-7b").transformer(), batch=1, prompt=512, generate=128)
    e = capplan.estimate_inference(job, cat.find_gpu("RTX 4090"))
    assert e.decode_bound == capplan.Bound.memory
    assert e.tokens_per_second_per_sequence == pytest.approx(61.03, rel=0.25)
    assert e.time_to_first_token() == e.prefill
    assert "decode" in e.explain()


def test_inference_without_a_compute_rate(cat):
    # Apple publishes no FLOP/s for the M2 Ultra: the decode from its memory traffic, no prefill.
    job = capplan.InferenceJob(model=capplan.find_model("llama2-7b").transformer(), batch=1, prompt=512, generate=128)
    e = capplan.estimate_inference(job, cat.find_gpu("M2 Ultra"))
    assert e.compute_timed is False
    assert e.prefill.value == 0
    assert e.total.value == pytest.approx(128 * e.decode_step.value)
    assert "if memory-bound" in e.explain()
    # llama.cpp's Llama 2 7B Q4_0 decode on an M2 Ultra, 94.3 tokens/s (discussion #4167), via the CLI's load.
    load = capplan.ServingLoad(weights="q4_0", prompt=0, output=128)
    run = capplan.serving_run(job.model, cat.find_gpu("M2 Ultra"), load)
    assert run.estimate.compute_timed is False
    assert run.estimate.tokens_per_second_per_sequence == pytest.approx(94.3, rel=0.2)
    report = capplan.serving_report(cat, "llama2-7b", cat.find_gpu("M2 Ultra"), run, load)
    out = report.output()
    assert out["compute_timed"] is False and out["ttft_s"] is None and out["time_s"] is None
    assert report.output_tokens_per_s_per_gpu() is None
    assert capplan.estimate_inference(job, cat.find_gpu("H100 SXM")).compute_timed is True


def test_fp8_weights_have_no_kernel_before_turing(cat):
    # vLLM's FP8 Marlin kernels start at Turing (SM 7.5); llama.cpp has no FP8 type: a V100 runs neither.
    llama = capplan.find_model("llama3.1-8b").transformer()
    v100 = cat.find_gpu("v100-sxm2-32gb")
    assert capplan.weights_without_kernel(v100, capplan.WeightFormat("fp8")) == "fp8 weights"
    assert capplan.weights_without_kernel(v100, capplan.WeightFormat("bf16"), capplan.WeightFormat("fp8")) == "fp8 experts"
    assert capplan.weights_without_kernel(v100, capplan.WeightFormat("q8_0")) == ""
    assert capplan.weights_without_kernel(cat.find_gpu("T4"), capplan.WeightFormat("fp8")) == ""
    with pytest.raises(capplan.InputError, match="weights: fp8 has no kernel on v100-sxm2-32gb"):
        capplan.serving_run(llama, v100, capplan.ServingLoad(weights="fp8"))
    with pytest.raises(capplan.InputError, match="weights"):
        capplan.smallest_serving_run(llama, v100, capplan.ServingLoad(weights="nvfp4"))
    assert capplan.serving_run(llama, v100, capplan.ServingLoad(weights="q8_0")).estimate.tokens_per_second > 0


def test_encoder_serves_one_forward_pass(cat):
    # BERT generates nothing: a request is one forward pass; the rate is of input tokens.
    bert = capplan.find_model("bert-large").transformer()
    t4 = cat.find_gpu("T4")
    with pytest.raises(capplan.InputError, match="generate"):
        capplan.estimate_inference(capplan.InferenceJob(model=bert, batch=8, prompt=512, generate=128), t4)
    e = capplan.estimate_inference(capplan.InferenceJob(model=bert, batch=8, prompt=512, generate=0), t4)
    assert e.encoder is True and e.decode_step.value == 0 and e.kv_cache_bytes_per_gpu.value == 0
    assert e.tokens_per_second == pytest.approx(8 * 512 / e.prefill.value)
    with pytest.raises(capplan.InputError, match="encoder"):
        capplan.serving_run(bert, t4, capplan.ServingLoad(batch=8))
    load = capplan.ServingLoad(batch=8, prompt=512, output=0)
    report = capplan.serving_report(cat, "bert-large", t4, capplan.serving_run(bert, t4, load), load)
    out = report.output()
    assert out["encoder"] is True and out["forward_pass_s"] == pytest.approx(e.prefill.value)
    assert out["decode_tokens_per_s"] is None and out["ttft_s"] is None
    assert report.output_tokens_per_s_per_gpu() is None


def test_roofline_places_layer_ops(cat):
    gpu = cat.find_gpu("H100 SXM")
    ops = capplan.transformer_layer_forward(capplan.find_model("llama2-7b").transformer(), 4096, 4096, 1, "bf16")
    points = [capplan.roofline(op, gpu, "bf16") for op in ops]
    assert {p.bound for p in points} == {capplan.Bound.compute, capplan.Bound.memory}
    g = capplan.gemm("mine", 4096, 4096, 4096, 2)
    assert g.name == "mine" and g.flops == 2 * 4096**3
    assert capplan.roofline(g, gpu, "bf16").bound == capplan.Bound.compute
    assert capplan.roofline(capplan.elementwise("copy", 1e9), gpu, "bf16").bound == capplan.Bound.memory


def test_collectives(cat):
    cluster = capplan.make_cluster(cat.find_gpu("A100 SXM 80GB"), 16, 8, capplan.infiniband(Bandwidth(25, "GB/s")))
    t8 = capplan.all_reduce(cluster, capplan.DataSize(1, "GB"), capplan.Group(size=8, per_node=8))
    t16 = capplan.all_reduce(cluster, capplan.DataSize(1, "GB"), capplan.Group(size=16, per_node=8))
    assert t16 > t8 > capplan.Duration(0, "s")


def test_image_model_training(cat):
    net = capplan.ImageModel(name="tiny", convs=[capplan.ConvLayer(out_pixels=56 * 56, in_channels=64, out_channels=64,
                                                                  kernel=3, count=4)],
                           fc_in=2048, fc_out=1000, parameters=25e6)
    cluster = capplan.make_cluster(cat.find_gpu("A100 SXM 80GB"), 1, 8, capplan.infiniband(Bandwidth(25, "GB/s")))
    e = capplan.estimate_image_training(net, 256, cluster)
    assert e.images_per_second > 0 and "convolutions forward" in e.explain()


def test_image_model_data_loading_limits_throughput(cat):
    # An HDD serves 150 random reads/s: eight A100s training ResNet-50 wait for it.
    net = capplan.ImageModel(name="tiny", convs=[capplan.ConvLayer(out_pixels=56 * 56, in_channels=64, out_channels=64,
                                                                  kernel=3, count=4)],
                           fc_in=2048, fc_out=1000, parameters=25e6)
    cluster = capplan.make_cluster(cat.find_gpu("A100 SXM 80GB"), 8, 8, capplan.infiniband(Bandwidth(25, "GB/s")))
    slow = capplan.DataPipeline(storage=capplan.Storage.hdd_7200rpm())
    e = capplan.estimate_image_training(net, 256, cluster, data=slow)
    assert not e.data_loading.ok() and e.data_loading.bottleneck() == "storage"
    assert e.images_per_second == pytest.approx(e.data_loading.limit())
    assert e.images_per_second < e.gpu_bound_images_per_second
    fast = capplan.estimate_image_training(net, 256, cluster, data=capplan.DataPipeline(cached_in_ram=True, cpu_cores=4096,
                                                                                  mean_sample_size=capplan.DataSize(10, "kB")))
    assert fast.data_loading.ok()


def test_framework_presets_and_model_fields_match_cpp():
    # llm-foundry's benchmark harness (docs/performance-model.md): Triton FlashAttention, which the
    # FlashAttention-2 paper (Dao 2023, §4.1) puts 1.3-1.5x slower forward and ~2x slower backward, and
    # Composer's unfused DecoupledAdamW (100 B per parameter against 30 B for a fused Adam).
    fw = capplan.Framework.llm_foundry_2023()
    assert 0 < fw.attention_forward_speed < 1 and 0 < fw.attention_backward_speed <= fw.attention_forward_speed
    assert fw.optimizer_bytes_per_param == 100
    d = fw.to_dict()
    assert {"attention_forward_speed", "attention_backward_speed", "optimizer_bytes_per_param"} <= set(d)
    assert capplan.Framework.megatron_lm_2021().attention_forward_speed == 1
    # Lee et al. 2025: 18.9 % average compute slowdown under overlapped communication.
    assert capplan.EfficiencyModel().overlap_slowdown == pytest.approx(0.189)
    with pytest.raises(capplan.InputError, match="attention_forward_speed"):
        fw2 = capplan.Framework(attention_forward_speed=1.5)
        job = TrainingJob(model=gpt(24, 2304, 24), global_batch=512)
        cluster = capplan.make_cluster(Catalog.builtin().find_gpu("A100 SXM 80GB"), 8, 8,
                                       capplan.infiniband(Bandwidth(25, "GB/s")))
        capplan.estimate_training(job, ParallelPlan(dp=8), cluster, fw2)
    assert TrainingJob(model=gpt(24, 2304, 24), global_batch=8).expert_parameters is None
    # A sustained clock of 0 would stop every compute-bound kernel: refused, naming the field.
    h100 = Catalog.builtin().find_gpu("H100 SXM")
    for bad in (0.0, -0.1, 1.5, float("nan")):
        with pytest.raises(capplan.InputError) as e:
            capplan.achieved_gemm_rate(h100, capplan.Precision.bf16, 4096, 4096, 4096, capplan.EfficiencyModel(sustained_clock=bad))
        assert e.value.field == "sustained_clock"
    assert capplan.LayerOptions(mla_absorbed=True).mla_absorbed


def test_llm_foundry_framework_slows_attention_and_optimizer(cat):
    # Same job and plan under both frameworks: the slower attention kernels and unfused optimizer can
    # only lengthen the iteration.
    job = TrainingJob(model=capplan.find_model("llama2-7b").transformer(), global_batch=64)
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 8, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    plan = ParallelPlan(dp=8, zero_stage=ZeroStage.parameters, recompute="selective")
    fsdp = capplan.estimate_training(job, plan, cluster, capplan.Framework.pytorch_fsdp())
    foundry = capplan.estimate_training(job, plan, cluster, capplan.Framework.llm_foundry_2023())
    assert foundry.iteration.value > fsdp.iteration.value


def test_eager_pytorch_framework(cat):
    # Plain PyTorch under autocast: FSDP's memory, unfused element-wise kernels on an fp32 residual stream.
    # In-house (H100, Llama-3.2-1B-shaped, micro-batch 8): 45,190 tokens/s measured; the fused preset
    # predicts 33 % more, the eager one within 5 %.
    shape = capplan.TransformerShape(name="llama3.2-1b", layers=16, hidden=2048, heads=32, kv_heads=8,
                                     ffn_hidden=8192, gated_mlp=True, vocab=128256, tied_embeddings=True, seq_len=2048)
    job = TrainingJob(model=shape, global_batch=8, seq_len=2048)
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 1, 1, capplan.Link())
    plan = ParallelPlan(micro_batch=8)
    eager_fw = capplan.Framework.pytorch_eager()
    assert eager_fw.eager and eager_fw.fp32_params and not capplan.Framework.pytorch_fsdp().eager
    # The host's launch time per kernel, fitted on the GPT-2-124M in-house rows; fused presets: 0.
    assert eager_fw.cpu_seconds_per_kernel == pytest.approx(57.9e-6)
    assert capplan.Framework.pytorch_fsdp().cpu_seconds_per_kernel == 0
    fused = capplan.estimate_training(job, plan, cluster, capplan.Framework.pytorch_fsdp())
    eager = capplan.estimate_training(job, plan, cluster, eager_fw)
    measured = 45190.8
    assert fused.tokens_per_second / measured - 1 > 0.25
    assert abs(eager.tokens_per_second / measured - 1) < 0.05
    ops = capplan.transformer_layer_forward(shape, 2048, 2048, 1, capplan.Precision.bf16,
                                            capplan.LayerOptions(flash_attention=True, dropout=False, eager=True))
    norm = next(o for o in ops if o.name.startswith("norm 1"))
    assert norm.kernels == 5 and norm.bytes == pytest.approx(2048 * 2048 * 34)
    # Memory: the eager budget (activations of unfused kernels, 12 B per logit, autocast's weight copies)
    # against the 77.8 GB PyTorch reserved at its peak; the fused budget is 26 % low.
    cfg = capplan.TrainingConfig(flash_attention=True, fp32_params=True, gradient_bytes=4, eager=True)
    cfg.plan.micro_batch = 8
    assert capplan.training_budget(shape, cfg).total().value == pytest.approx(77.788e9, rel=0.10)
    cfg.eager = False
    assert capplan.training_budget(shape, cfg).total().value < 0.8 * 77.788e9
    job.precision = capplan.Precision.fp8
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_training(job, plan, cluster, eager_fw)
    assert e.value.field == "precision"


def test_fabric_presets_usual_host_and_links(cat):
    ids = [f.id for f in capplan.fabric_presets()]
    assert ids[:3] == ["ib-edr", "ib-hdr", "ib-ndr"] and "none" in ids
    hdr = capplan.find_fabric("ib-hdr")
    assert hdr.per_gpu(8).value == pytest.approx(25e9)
    assert capplan.find_fabric("eth-10").per_gpu(8).value == pytest.approx(1.25e9 / 8)
    assert capplan.usual_fabric(cat.find_gpu("H100 SXM")).id == "ib-ndr"
    assert capplan.usual_fabric(cat.find_gpu("RTX 4090")).none()
    with pytest.raises(capplan.InputError, match='fabric: "ib-qdr" is not a fabric') as e:
        capplan.find_fabric("ib-qdr")
    assert e.value.field == "fabric"
    cluster = capplan.make_cluster(cat.find_gpu("A100 SXM 80GB"), 384, 8, hdr.link(8))
    plan = capplan.ParallelPlan(tp=8, pp=12, dp=4)
    links = capplan.plan_links(cluster, plan)
    assert (links.tp, links.pp, links.dp, links.ep) == ("NVLink", "InfiniBand", "InfiniBand", "")


def test_training_setup_fabric_and_no_network(cat):
    shape = capplan.find_model("llama2-7b").transformer()
    slow = capplan.TrainingSetup(fabric=capplan.find_fabric("eth-10"))
    fast = capplan.best_training_run(shape, cat.find_gpu("A100 SXM 80GB"), 16)
    run = capplan.best_training_run(shape, cat.find_gpu("A100 SXM 80GB"), 16, slow)
    assert run.run.fabric.id == "eth-10" and fast.run.fabric.id == "ib-hdr"
    assert run.run.estimate.iteration.value > fast.run.estimate.iteration.value
    with pytest.raises(capplan.InputError, match="joins no nodes") as e:
        capplan.best_training_run(shape, cat.find_gpu("RTX 4090"), 16)
    assert e.value.field == "fabric"


def test_goodput_of_a_whole_run():
    from capplan import Bandwidth, DataSize, Duration
    ckpt = capplan.checkpoint_size(405_000_000_000)
    assert ckpt.value == pytest.approx(405e9 * 14)
    g = capplan.estimate_goodput(Duration(54, "days"), 16384, ckpt)
    # Llama 3: "higher than 90% effective training time" over 54 days on 16,384 H100.
    assert 0.9 < g.goodput < 1
    assert g.expected_wall_clock.value > g.ideal_time.value
    assert g.expected_gpu_hours == pytest.approx(g.expected_wall_clock.value * 16384 / 3600)
    assert "job MTBF" in g.explain()
    none = capplan.estimate_goodput(Duration(54, "days"), 16384, ckpt, capplan.GoodputConfig(failures_per_gpu_hour=0))
    assert none.job_mtbf is None and none.goodput > g.goodput
    slow = capplan.estimate_goodput(Duration(54, "days"), 16384, ckpt, capplan.GoodputConfig(storage_write=Bandwidth(20, "GB/s")))
    assert slow.goodput < g.goodput
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_goodput(Duration(54, "days"), 16384, ckpt, capplan.GoodputConfig(failures_per_gpu_hour=-1))
    assert e.value.field == "failures_per_gpu_hour"
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_goodput(Duration(54, "days"), 16384, DataSize(0, "B"))
    assert e.value.field == "checkpoint"
    # With one iteration's time the interval is whole iterations, at least one: a tiny checkpoint whose
    # optimum is under a second is still taken once an iteration at most.
    assert g.interval_iterations == 0 and g.iteration.value == 0
    whole = capplan.estimate_goodput(Duration(54, "days"), 16384, ckpt, iteration=Duration(7.3, "s"))
    assert whole.interval_iterations >= 1 and whole.interval_iterations == int(whole.interval_iterations)
    assert whole.checkpoint_interval.value == pytest.approx(whole.interval_iterations * 7.3)
    assert abs(whole.checkpoint_interval.value - g.checkpoint_interval.value) <= 7.3 / 2
    small = capplan.checkpoint_size(1_000_000)
    flaky = capplan.GoodputConfig(failures_per_gpu_hour=1e-3)
    assert capplan.estimate_goodput(Duration(10, "days"), 1024, small, flaky).checkpoint_interval.value < 60
    once = capplan.estimate_goodput(Duration(10, "days"), 1024, small, flaky, Duration(1, "min"))
    assert once.interval_iterations == 1 and once.checkpoint_interval.value == pytest.approx(60)
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_goodput(Duration(1, "h"), 8, small, iteration=Duration(-1, "s"))
    assert e.value.field == "iteration"


def test_context_parallel_plan(cat):
    job = capplan.TrainingJob(model=capplan.find_model("llama3.1-8b").transformer(), seq_len=131072, global_batch=16)
    node = capplan.make_cluster(cat.find_gpu("H100 SXM"), 8, 8, capplan.infiniband(capplan.Bandwidth(50, "GB/s")))
    plan = capplan.ParallelPlan(cp=4, dp=2, recompute=capplan.Recompute.full)
    assert plan.gpus() == 8
    est = capplan.estimate_training(job, plan, node)
    assert est.iteration.value > 0
    assert any(t.name == "context-parallel K/V ring (exposed)" for t in est.breakdown.terms)
    assert capplan.plan_links(node, plan).cp == "NVLink"
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_training(job, capplan.ParallelPlan(cp=3, dp=2), node)
    assert e.value.field == "dp"


def test_context_parallel_exchanges(cat):
    # Llama 3's all-gather and DeepSpeed-Ulysses' all-to-all: their own explain terms, exposed, and the
    # same work and memory as the ring.
    job = capplan.TrainingJob(model=capplan.find_model("llama3.1-8b").transformer(), seq_len=131072, global_batch=16)
    node = capplan.make_cluster(cat.find_gpu("H100 SXM"), 8, 8, capplan.infiniband(capplan.Bandwidth(50, "GB/s")))
    ring = capplan.ParallelPlan(cp=4, dp=2, recompute=capplan.Recompute.full)
    assert ring.cp_comm == capplan.CpComm.p2p
    est = {}
    for kind, term in [(capplan.CpComm.p2p, "context-parallel K/V ring (exposed)"),
                       (capplan.CpComm.all_gather, "context-parallel K/V all-gather"),
                       (capplan.CpComm.a2a, "context-parallel all-to-alls (Ulysses)")]:
        plan = capplan.ParallelPlan(cp=4, dp=2, recompute=capplan.Recompute.full, cp_comm=kind)
        est[kind] = capplan.estimate_training(job, plan, node)
        assert any(t.name == term for t in est[kind].breakdown.terms)
        assert capplan.plan_memory(job, plan, True).total().value == pytest.approx(capplan.plan_memory(job, ring, True).total().value)
    assert est[capplan.CpComm.p2p].iteration.value <= est[capplan.CpComm.all_gather].iteration.value
    assert est[capplan.CpComm.p2p].iteration.value <= est[capplan.CpComm.a2a].iteration.value
    big = capplan.make_cluster(cat.find_gpu("H100 SXM"), 64, 8, capplan.infiniband(capplan.Bandwidth(50, "GB/s")))
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_training(job, capplan.ParallelPlan(tp=8, cp=8, cp_comm=capplan.CpComm.a2a), big)
    assert e.value.field == "cp" and "4 attention heads per tensor-parallel rank" in str(e.value)
    assert capplan.CpComm("all_gather") == capplan.CpComm.all_gather


def test_moe_capacity_factor(cat):
    # Token-dropping frameworks pad each expert to capacity factor x its balanced share.
    job = capplan.TrainingJob(model=capplan.find_model("mixtral-8x7b").transformer(), seq_len=4096, global_batch=256)
    node = capplan.make_cluster(cat.find_gpu("H100 SXM"), 64, 8, capplan.infiniband(capplan.Bandwidth(50, "GB/s")))
    plan = capplan.ParallelPlan(tp=2, pp=4, dp=8, ep=8, sequence_parallel=True, recompute=capplan.Recompute.selective)
    fw = capplan.Framework()
    assert fw.moe_capacity_factor == 1.0
    balanced = capplan.estimate_training(job, plan, node, fw)
    fw.moe_capacity_factor = 1.25
    padded = capplan.estimate_training(job, plan, node, fw)
    assert padded.iteration.value > balanced.iteration.value
    assert padded.mfu < balanced.mfu
    assert "capacity factor 1.25" in padded.explain()
    fw.moe_capacity_factor = 0
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_training(job, plan, node, fw)
    assert e.value.field == "moe_capacity_factor"


def test_cuda_graphs_decode(cat):
    # CUDA graphs: each decode kernel's launch at 70/260 of eager; the same through ServingLoad.
    job = capplan.InferenceJob(model=capplan.find_model("llama2-7b").transformer(), prompt=512, generate=128)
    a100 = cat.find_gpu("A100 SXM 80GB")
    eager = capplan.estimate_inference(job, a100)
    graphed = capplan.estimate_inference(job, a100, capplan.EfficiencyModel(), capplan.InferenceOptions(cuda_graphs=True))
    def launches(e):
        return next(t.time.value for t in e.breakdown.terms if t.name == "decode: kernel launches")
    assert launches(graphed) == pytest.approx(launches(eager) * 70 / 260)
    assert graphed.tokens_per_second > eager.tokens_per_second
    shape = capplan.find_model("llama2-7b").transformer()
    plain = capplan.serving_run(shape, a100, capplan.ServingLoad())
    fast = capplan.serving_run(shape, a100, capplan.ServingLoad(cuda_graphs=True))
    assert fast.estimate.tokens_per_second > plain.estimate.tokens_per_second


def test_eager_serving(cat):
    # Plain PyTorch serving: a short prompt and a batch-1 step wait on Python's kernel launches; the wait is a
    # term of its own; not with CUDA graphs, nor for a mixture of experts.
    job = capplan.InferenceJob(model=capplan.find_model("llama3.1-8b").transformer(), prompt=64, generate=16)
    h200 = cat.find_gpu("H200")
    fused = capplan.estimate_inference(job, h200)
    eager = capplan.estimate_inference(job, h200, capplan.EfficiencyModel(), capplan.InferenceOptions(eager=True))
    assert eager.prefill.value > fused.prefill.value
    assert eager.decode_step.value > fused.decode_step.value
    names = [t.name for t in eager.breakdown.terms]
    assert "prefill: waiting on the host's kernel launches" in names
    assert "decode: waiting on the host's kernel launches" in names
    assert sum(t.time.value for t in eager.breakdown.terms) == pytest.approx(eager.total.value)
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_inference(job, h200, capplan.EfficiencyModel(), capplan.InferenceOptions(eager=True, cuda_graphs=True))
    assert e.value.field == "eager"
    shape = capplan.find_model("llama3.1-8b").transformer()
    slow = capplan.serving_run(shape, h200, capplan.ServingLoad(eager=True))
    assert slow.estimate.tokens_per_second < capplan.serving_run(shape, h200, capplan.ServingLoad()).estimate.tokens_per_second
    with pytest.raises(capplan.InputError) as e:
        capplan.serving_run(shape, h200, capplan.ServingLoad(eager=True, cuda_graphs=True))
    assert e.value.field == "eager"
    # A user's host: the launch time per kernel given, in the options or the load; half of it halves a host-bound step.
    assert capplan.InferenceOptions().eager_launch_seconds == pytest.approx(32.7e-6)
    quick = capplan.estimate_inference(job, h200, capplan.EfficiencyModel(),
                                       capplan.InferenceOptions(eager=True, eager_launch_seconds=32.7e-6 / 2))
    assert quick.decode_step.value == pytest.approx(eager.decode_step.value / 2, rel=0.02)
    half = capplan.serving_run(shape, h200, capplan.ServingLoad(eager=True, eager_launch_time=capplan.Duration(16.35, "us")))
    assert half.estimate.tokens_per_second == pytest.approx(2 * slow.estimate.tokens_per_second, rel=0.02)
    for bad in (-1e-6, 2e-3, float("nan")):
        with pytest.raises(capplan.InputError) as e:
            capplan.estimate_inference(job, h200, capplan.EfficiencyModel(), capplan.InferenceOptions(eager=True, eager_launch_seconds=bad))
        assert e.value.field == "eager_launch_seconds"
    with pytest.raises(capplan.InputError, match="eager_launch_time: 20 µs applies to eager serving"):
        capplan.serving_run(shape, h200, capplan.ServingLoad(eager_launch_time=capplan.Duration(20, "us")))
    moe = capplan.InferenceJob(model=capplan.find_model("mixtral-8x7b").transformer(), prompt=64, generate=16)
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_inference(moe, h200, capplan.EfficiencyModel(), capplan.InferenceOptions(eager=True))
    assert e.value.field == "eager"


def test_weight_stream_latency(cat):
    # Each decode weight matmul pays a GPU-side ramp and tail of 12 us (measured on H100 and H200):
    # 32 layers x 4 matmuls + the logits per step; a measurement overrides it; bad values name the field.
    job = capplan.InferenceJob(model=capplan.find_model("llama2-7b").transformer(), prompt=512, generate=128)
    h100 = cat.find_gpu("H100 SXM")
    model = capplan.EfficiencyModel()
    assert model.weight_stream_latency.value == pytest.approx(12e-6)
    est = capplan.estimate_inference(job, h100)
    term = next(t.time.value for t in est.breakdown.terms if t.name == "decode: weight-matmul ramp and tail")
    assert term == pytest.approx(128 * (32 * 4 + 1) * 12e-6)
    model.weight_stream_latency = capplan.Duration(0, "s")
    without = capplan.estimate_inference(job, h100, model)
    assert est.decode_step.value - without.decode_step.value == pytest.approx((32 * 4 + 1) * 12e-6)
    model.weight_stream_latency = capplan.Duration(-1, "us")
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_inference(job, h100, model)
    assert e.value.field == "weight_stream_latency"
    # The same through ServingLoad (capplan infer --weight-stream-latency): None keeps the fitted 12 us.
    shape = capplan.find_model("llama2-7b").transformer()
    fitted = capplan.serving_run(shape, h100, capplan.ServingLoad())
    prior = capplan.serving_run(shape, h100, capplan.ServingLoad(weight_stream_latency=capplan.Duration(0, "s")))
    assert capplan.ServingLoad().weight_stream_latency is None
    assert fitted.estimate.decode_step.value - prior.estimate.decode_step.value == pytest.approx((32 * 4 + 1) * 12e-6)
    with pytest.raises(capplan.InputError) as e:
        capplan.serving_run(shape, h100, capplan.ServingLoad(weight_stream_latency=capplan.Duration(2, "ms")))
    assert e.value.field == "weight_stream_latency"


def test_finetuning_lora_and_qlora_runs(cat):
    # The same job as capplan train --finetune: LoRA is faster than full training and needs less memory;
    # QLoRA needs less still and dequantizes, so it is slower than LoRA.
    preset = capplan.find_model("llama3.1-8b")
    assert preset.training_seq_len() == 8192 and preset.pretrain_seq_len == 8192
    assert "Llama 3" in preset.pretrain_source
    shape = preset.transformer()
    a100 = cat.find_gpu("A100 SXM 80GB")
    runs = {}
    for kind in ("full", "lora", "qlora"):
        setup = capplan.TrainingSetup(seq_len=preset.training_seq_len(), finetune=capplan.FineTune(kind),
                                      lora=capplan.LoraOptions(rank=16))
        runs[kind] = capplan.best_training_run(shape, a100, 8, setup).run
        assert runs[kind].job.finetune == capplan.FineTune(kind)
    t = {k: r.estimate.iteration.value for k, r in runs.items()}
    assert t["lora"] < t["full"] and t["qlora"] > t["lora"]
    assert runs["qlora"].memory.total().value < runs["lora"].memory.total().value < runs["full"].memory.total().value
    with pytest.raises(capplan.InputError) as e:
        capplan.best_training_run(shape, a100, 8, capplan.TrainingSetup(finetune=capplan.FineTune.lora,
                                                                      lora=capplan.LoraOptions(rank=0)))
    assert e.value.field == "lora.rank"


def test_framework_decides_gradient_bytes_for_memory_and_time(cat):
    # Megatron-LM theoretical_memory_usage.py: 6 + 12/d bytes per parameter with the distributed optimizer.
    job = TrainingJob(model=capplan.find_model("llama2-7b").transformer(), global_batch=64, seq_len=4096)
    plan = ParallelPlan(dp=8, zero_stage="optimizer", recompute="full")
    n = capplan.parameter_count(job.model)
    mc = capplan.Framework.megatron_core()
    assert mc.master_grad_bytes == 4 and mc.attention_kernel == capplan.AttentionKernel.cudnn
    assert capplan.plan_memory(job, plan, mc).model_states().value == pytest.approx((6 + 12 / 8) * n)
    assert capplan.plan_memory(job, plan, capplan.Framework()).model_states().value == pytest.approx((4 + 12 / 8) * n)
    cfg = capplan.TrainingConfig(gradient_bytes=4)
    assert capplan.training_budget(job.model, cfg).gradients.size.value == pytest.approx(4 * n)
    with pytest.raises(capplan.InputError, match="gradient_bytes: 3 must be 2") as e:
        capplan.training_budget(job.model, capplan.TrainingConfig(gradient_bytes=3))
    assert e.value.field == "gradient_bytes"
    bad = capplan.Framework(master_grad_bytes=3)
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 8, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    with pytest.raises(capplan.InputError, match="master_grad_bytes"):
        capplan.estimate_training(job, plan, cluster, bad)


def test_gradients_reduced_in_bf16(cat):
    # Megatron-Core's --grad-reduce-in-bf16 (Megatron-Bridge's MoE performance recipes): bf16 gradients kept
    # and reduced, 4 + 12/d bytes per parameter; FSDP's fp32 parameters keep fp32 gradients.
    job = TrainingJob(model=capplan.find_model("llama2-7b").transformer(), global_batch=64, seq_len=4096)
    plan = ParallelPlan(dp=8, zero_stage="optimizer", recompute="full")
    n = capplan.parameter_count(job.model)
    bf16 = capplan.reduce_gradients_in(capplan.Framework.megatron_core(), capplan.Precision.bf16)
    assert (bf16.grad_reduce_bytes, bf16.master_grad_bytes) == (2, 2)
    assert "bf16 gradients, reduced in bf16" in bf16.name
    assert capplan.plan_memory(job, plan, bf16).model_states().value == pytest.approx((4 + 12 / 8) * n)
    fp16 = capplan.reduce_gradients_in(bf16, capplan.Precision.fp16)
    assert "fp16 gradients, reduced in fp16" in fp16.name and fp16.grad_reduce_bytes == 2
    assert capplan.reduce_gradients_in(fp16, capplan.Precision.fp32).name == capplan.Framework.megatron_core().name
    fsdp = capplan.reduce_gradients_in(capplan.Framework.pytorch_fsdp(), capplan.Precision.bf16)
    assert (fsdp.grad_reduce_bytes, fsdp.master_grad_bytes) == (2, 4)
    with pytest.raises(capplan.InputError, match="grad_reduce: fp8 must be bf16, fp16 or fp32") as e:
        capplan.reduce_gradients_in(capplan.Framework.megatron_core(), capplan.Precision.fp8)
    assert e.value.field == "grad_reduce"


def test_zero1_weights_gathered_in_the_next_forward(cat):
    # Megatron-Core's overlap_param_gather: the updated weights' all-gather hides under the next forward
    # pass; DeepSpeed's ZeRO 1 (generic) gathers inside the optimizer step.
    job = TrainingJob(model=capplan.find_model("llama3-70b").transformer(), global_batch=256, seq_len=8192)
    plan = ParallelPlan(tp=4, pp=4, dp=4, sequence_parallel=True, zero_stage="optimizer")
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 64, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    on = capplan.Framework.megatron_core()
    assert on.gather_weights_in_forward and not capplan.Framework().gather_weights_in_forward
    in_step = capplan.Framework.megatron_core()
    in_step.gather_weights_in_forward = False
    fast = capplan.estimate_training(job, plan, cluster, on)
    slow = capplan.estimate_training(job, plan, cluster, in_step)
    assert fast.iteration.value < slow.iteration.value
    assert "all-gathers during the next forward pass" in fast.explain()
    assert "all-gathers in the optimizer step" in slow.explain()


def test_megatron_pads_the_vocabulary(cat):
    # Megatron-LM _vocab_size_with_padding: GPT-2's 50,257 tokens are 51,200 at tp 8.
    assert capplan.padded_vocab(50257, 8, 128) == 51200
    assert capplan.padded_vocab(50257, 8, 0) == 50257
    assert capplan.Framework.megatron_core().vocab_multiple == 128
    assert capplan.Framework().vocab_multiple == 1
    shape = capplan.find_model("gpt3-175b").transformer()
    ops = capplan.output_layer_forward(shape, 2048, 8, capplan.Precision.bf16, vocab_multiple=128)
    assert ops[0].flops == pytest.approx(2 * 2048 * 6400 * 12288)
    job = TrainingJob(model=shape, global_batch=8, seq_len=2048)
    plan = ParallelPlan(tp=8, sequence_parallel=True)  # one stage: the logits are on it
    fw = capplan.Framework.megatron_core()
    assert "vocabulary padded to 51200" in capplan.plan_memory(job, plan, fw).activations.detail
    with pytest.raises(capplan.InputError, match="vocab_multiple: 0") as e:
        capplan.plan_memory(job, plan, capplan.Framework(vocab_multiple=0))
    assert e.value.field == "vocab_multiple"


def test_context_parallel_with_experts_folded_in(cat):
    # Megatron-Core folds EP into the dp x cp ranks: EP 8 over DP 2 x CP 4.
    job = TrainingJob(model=capplan.find_model("mixtral-8x7b").transformer(), global_batch=16, seq_len=32768)
    plan = ParallelPlan(tp=2, cp=4, dp=2, ep=8, zero_stage="optimizer", recompute="full")
    assert capplan.expert_data_parallel(plan) == 1
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 16, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    e = capplan.estimate_training(job, plan, cluster, capplan.Framework.megatron_core())
    assert e.iteration.value > 0
    with pytest.raises(capplan.InputError, match="does not divide dp x cp = 8") as err:
        capplan.estimate_training(job, ParallelPlan(tp=2, cp=4, dp=2, ep=16, recompute="full"), cluster)
    assert err.value.field == "ep"


def test_two_hop_moe_dispatch(cat):
    # DeepSeek-V3: top-8 of 256 experts from at most 4 of 8 groups; on 8 nodes a token reaches ~3.63 of them.
    moe = capplan.find_model("deepseek-r1").transformer().moe
    assert (moe.expert_groups, moe.groups_per_token) == (8, 4)
    assert capplan.expected_token_nodes(moe, 8) == pytest.approx(3.629, abs=1e-3)
    job = TrainingJob(model=capplan.find_model("deepseek-r1").transformer(), global_batch=15360, seq_len=4096,
                      precision=capplan.Precision.fp8)
    plan = ParallelPlan(pp=16, dp=128, ep=64, recompute="full")
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 2048, 8, capplan.find_fabric("ib-ndr").link(8))
    alltoall = capplan.estimate_training(job, plan, cluster).iteration.value
    deepep = capplan.estimate_training(job, plan, cluster, capplan.Framework(moe_dispatch="deepep")).iteration.value
    assert deepep < 0.8 * alltoall
    with pytest.raises(TypeError, match="Framework.moe_dispatch: 'nccl'"):
        capplan.Framework(moe_dispatch="nccl")


def test_moe_a2a_overlap(cat):
    # Megatron-Core's combined 1F1B: off by default; on, a paired micro-batch's all-to-alls hide under the
    # other's compute where the schedule runs (no pipeline, or an interleaved one), not with plain 1F1B.
    assert capplan.Framework().moe_a2a_overlap is False
    job = TrainingJob(model=capplan.find_model("qwen3-30b-a3b").transformer(), global_batch=1024, seq_len=4096)
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 16, 8, capplan.find_fabric("ib-ndr").link(8))
    on = capplan.Framework.megatron_core()
    on.moe_a2a_overlap = True
    flat = ParallelPlan(dp=16, ep=16, zero_stage="optimizer")
    off_t = capplan.estimate_training(job, flat, cluster, capplan.Framework.megatron_core()).iteration.value
    on_t = capplan.estimate_training(job, flat, cluster, on).iteration.value
    assert on_t < 0.85 * off_t
    piped = ParallelPlan(pp=2, dp=8, ep=8, zero_stage="optimizer")
    assert capplan.estimate_training(job, piped, cluster, on).iteration.value == \
        capplan.estimate_training(job, piped, cluster, capplan.Framework.megatron_core()).iteration.value


def test_expert_tensor_parallel(cat):
    job = TrainingJob(model=capplan.find_model("mixtral-8x7b").transformer(), global_batch=64, seq_len=4096)
    coupled = ParallelPlan(tp=2, dp=8, ep=8, sequence_parallel=True)
    whole = ParallelPlan(tp=2, dp=8, ep=8, etp=1, sequence_parallel=True)
    assert capplan.expert_tensor_parallel(coupled) == 2 and capplan.expert_tensor_parallel(whole) == 1
    assert capplan.expert_data_parallel(whole) == 2
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 16, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    names = [t.name for t in capplan.estimate_training(job, coupled, cluster).breakdown.terms]
    assert "expert tensor-parallel gathers" in names
    names = [t.name for t in capplan.estimate_training(job, whole, cluster).breakdown.terms]
    assert "expert tensor-parallel gathers" not in names
    assert capplan.SearchSpace().expert_tensor_parallel == [0, 1]
    # One degree alone narrows the search to it, at any tp (the CLI's --etp without a plan).
    space = capplan.SearchSpace(expert_tensor_parallel=[4], micro_batches=[1], interleave=[1])
    top = capplan.search_plans(job, cluster, top=20, space=space).top
    assert top and all(capplan.expert_tensor_parallel(t.plan) == 4 for t in top)
    assert any(t.plan.tp != 4 for t in top)
    dense = TrainingJob(model=capplan.find_model("llama2-7b").transformer(), global_batch=16)
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_training(dense, ParallelPlan(tp=2, dp=8, etp=1), cluster)
    assert e.value.field == "etp"


def test_nvlink_sharp_all_reduce(cat):
    # 8 x H100 with NVLS: ~480 GB/s busbw (nccl-tests#212); forcing the ring: ~360.
    c = capplan.make_cluster(cat.find_gpu("H100 SXM"), 8, 8, capplan.Link())
    assert c.nvls
    g = capplan.Group(size=8, per_node=8)
    nvls = capplan.all_reduce_bus_bandwidth(c, capplan.DataSize(8, "GiB"), g).value / 1e9
    c.nvls = False
    ring = capplan.all_reduce_bus_bandwidth(c, capplan.DataSize(8, "GiB"), g).value / 1e9
    assert nvls == pytest.approx(480, rel=0.01)
    assert ring == pytest.approx(360, rel=0.01)
    assert not capplan.make_cluster(cat.find_gpu("A100 SXM 80GB"), 8, 8, capplan.Link()).nvls
    # The NVLS efficiency at its prior (docs/validation.md, leave one source out): NVLink's 0.80, 560 GB/s.
    c.nvls = True
    prior = capplan.all_reduce_bus_bandwidth(c, capplan.DataSize(8, "GiB"), g, nvls_efficiency=0.80).value / 1e9
    assert prior == pytest.approx(2 * 7 / 9 * 450 * 0.80, rel=0.01)
    with pytest.raises(capplan.InputError) as e:
        capplan.all_reduce_bus_bandwidth(c, capplan.DataSize(8, "GiB"), g, nvls_efficiency=1.5)
    assert e.value.field == "nvls_efficiency"


def test_hierarchical_context_parallel(cat):
    job = TrainingJob(model=capplan.find_model("llama3.1-8b").transformer(), global_batch=16, seq_len=131072)
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 16, 8, capplan.find_fabric("ib-ndr").link(8))
    plan = ParallelPlan(cp=16, recompute="full", cp_comm="a2a_p2p")
    assert capplan.cp_a2a_size(plan, 8) == 8
    names = [t.name for t in capplan.estimate_training(job, plan, cluster).breakdown.terms]
    assert "context-parallel a2a+p2p (exposed)" in names


def test_search_tries_lighter_end_stages(cat):
    # Llama 3.1 8B on 4 stages: 8 + 9 + 9 + 6 keeps the 128,256-wide output layer off the pace.
    assert (8, 6) in capplan.end_stage_layouts(32, 4)
    plan = ParallelPlan(pp=4, first_stage_layers=8, last_stage_layers=6)
    assert [capplan.stage_layers(32, plan, i) for i in range(4)] == [8, 9, 9, 6]
    job = TrainingJob(model=capplan.find_model("llama3.1-8b").transformer(), global_batch=64, seq_len=8192)
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 4, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    fw = capplan.Framework.megatron_core()
    even = capplan.estimate_training(job, ParallelPlan(pp=4), cluster, fw).iteration.value
    light = capplan.estimate_training(job, plan, cluster, fw).iteration.value
    assert light < 0.95 * even
    space = capplan.SearchSpace(max_tp=1, zero_stages=[ZeroStage.none], recompute=["full"], micro_batches=[1], interleave=[1])
    with_ends = capplan.search_plans(job, cluster, fw, top=20, space=space)
    space.end_stage_layouts = False
    without = capplan.search_plans(job, cluster, fw, top=20, space=space)
    assert with_ends.candidates > without.candidates
    assert any(p.plan.last_stage_layers > 0 for p in with_ends.top)


def test_pipeline_layout_as_megatron_writes_it():
    # Megatron-Bridge 25.09, DeepSeek-V3 on 1,024 H100: PP 8 x VP 4, "Et|(tt|)*30mL".
    layout = capplan.parse_pipeline_layout("Et|(tt|)*30mL", 61, 8)
    assert layout.interleave == 4
    assert list(layout.rank_layers) == [7, 8, 8, 8, 8, 8, 8, 6]
    assert (layout.mtp_layers, layout.mtp_rank) == (1, 7)
    plan = capplan.apply_pipeline_layout(ParallelPlan(tp=2), layout, "Et|(tt|)*30mL")
    assert (plan.pp, plan.interleave, plan.first_stage_layers, plan.last_stage_layers) == (8, 4, 7, 6)
    assert plan.chunk_layers == 2
    assert layout.chunk_layers == 2
    assert (layout.first_chunk_layers, plan.first_chunk_layers, plan.last_chunk_layers) == (1, 1, 0)
    with pytest.raises(capplan.InputError, match="first_chunk_layers: 1 needs chunk_layers"):
        capplan.validate_stage_layout(61, plan.replace(chunk_layers=0))
    assert [capplan.stage_layers(61, plan, i) for i in range(8)] == [7, 8, 8, 8, 8, 8, 8, 6]
    assert "rank_layers=[7, 8, 8, 8, 8, 8, 8, 6]" in repr(layout)
    with pytest.raises(capplan.InputError, match=r'pipeline_layout: "Et\|tt" must end with the loss \(L\)'):
        capplan.parse_pipeline_layout("Et|tt", 3, 2)
    with pytest.raises(capplan.InputError, match="repeats a part more than 65536 times"):
        capplan.parse_pipeline_layout("Et*999999999|tL", 2, 2)
    with pytest.raises(capplan.InputError, match="puts MTP layers"):
        capplan.parse_pipeline_layout("Et*3|(tt|)*29,m|L", 61, 16)
    uneven = capplan.parse_pipeline_layout("Et*2|t*2|t*4|t*2L", 10, 4)
    with pytest.raises(capplan.InputError, match="gives the middle pipeline ranks different layers"):
        capplan.apply_pipeline_layout(ParallelPlan(), uneven)
    # The MTP layer is timed on the last rank: the same plan without it is faster.
    cat = Catalog.builtin()
    job = TrainingJob(model=capplan.find_model("deepseek-r1").transformer(), global_batch=8192, seq_len=4096, mtp_layers=layout.mtp_layers)
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 1024, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    plan.dp, plan.ep, plan.etp, plan.sequence_parallel, plan.zero_stage = 64, 64, 1, True, ZeroStage.optimizer
    fw = capplan.Framework.megatron_core()
    with_mtp = capplan.estimate_training(job, plan, cluster, fw).iteration.value
    job.mtp_layers = 0
    assert capplan.estimate_training(job, plan, cluster, fw).iteration.value < with_mtp
    job.mtp_layers = 17
    with pytest.raises(capplan.InputError, match="mtp_layers: 17 must be 0 to 16"):
        capplan.estimate_training(job, plan, cluster, fw)
    # A layout's largest chunk must fit its plan: with chunks, from the even share to the largest stage.
    plan.chunk_layers = 1
    job.mtp_layers = 1
    with pytest.raises(capplan.InputError, match="chunk_layers: 1 must be from 2 to 8"):
        capplan.estimate_training(job, plan, cluster, fw)


def test_search_space_tries_every_cp_exchange():
    space = capplan.SearchSpace()
    assert list(space.cp_comms) == [capplan.CpComm.p2p, capplan.CpComm.all_gather, capplan.CpComm.a2a, capplan.CpComm.a2a_p2p]
    space.cp_comms = [capplan.CpComm.p2p]
    assert list(space.cp_comms) == [capplan.CpComm.p2p]


def test_activation_offloading(cat):
    # Megatron-Core's --cpu-offloading-num-layers: 16 of 32 layers' activations in host memory, one of
    # them on the GPU at a time; the copies go over the host link (NVLink-C2C on GB200, PCIe on B200).
    job = TrainingJob(model=capplan.find_model("llama3.1-8b").transformer(), global_batch=64, seq_len=8192)
    fw = capplan.Framework.megatron_core()
    kept = ParallelPlan(dp=8, micro_batch=2, zero_stage=ZeroStage.parameters)
    off = ParallelPlan(dp=8, micro_batch=2, zero_stage=ZeroStage.parameters, offload_layers=16)
    assert off.offload_layers == 16
    saved = capplan.plan_memory(job, kept, fw).activations.size.value - capplan.plan_memory(job, off, fw).activations.size.value
    assert saved > 0
    assert "16 layers offloaded to host memory" in capplan.plan_memory(job, off, fw).activations.detail
    ib = capplan.infiniband(Bandwidth(50, "GB/s"))
    extra = {}
    for name in ("GB200", "B200"):
        cluster = capplan.make_cluster(cat.find_gpu(name), 8, 8, ib)
        with_off = capplan.estimate_training(job, off, cluster, fw)
        extra[name] = with_off.iteration.value - capplan.estimate_training(job, kept, cluster, fw).iteration.value
        assert "activation offloading (exposed)" in [t.name for t in with_off.breakdown.terms]
    assert extra["B200"] > extra["GB200"] >= 0
    with pytest.raises(capplan.InputError, match="needs pp 1") as e:
        capplan.plan_memory(job, ParallelPlan(pp=2, dp=4, offload_layers=16), fw)
    assert e.value.field == "offload_layers"
    with pytest.raises(capplan.InputError, match="cannot be combined with recomputation") as e:
        capplan.plan_memory(job, ParallelPlan(dp=8, recompute="full", offload_layers=16), fw)
    assert e.value.field == "offload_layers"
    with pytest.raises(capplan.InputError, match="must be fewer than the model's 32 layers"):
        capplan.plan_memory(job, ParallelPlan(dp=8, offload_layers=32), fw)
    assert cat.find_gpu("GB200").host_link_bandwidth.value == pytest.approx(225e9)


def test_search_space_holds_tuned_layouts():
    # NVIDIA's recipes run CP 2 at 8,192 tokens and 5-20 virtual stages: the default space holds them.
    space = capplan.SearchSpace()
    assert (space.min_cp_seq, space.min_cp_tokens) == (8192, 2048)
    assert all(v in space.interleave for v in (5, 7, 8, 12, 20))
    # The search keeps min_cp_tokens of a sequence on every CP rank.
    cat = capplan.Catalog.builtin()
    job = capplan.TrainingJob(model=capplan.find_model("llama3.1-8b").transformer(), seq_len=8192, global_batch=32)
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 8, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    for floor, most in ((2048, 4), (4096, 2)):
        space.min_cp_tokens = floor
        found = capplan.search_plans(job, cluster, top=40, space=space)
        assert found.top
        assert all(r.plan.cp <= most for r in found.top)
        assert any(r.plan.cp == most for r in found.top)  # the floor's largest degree is tried and fits


def test_fp8_recipes_and_nvfp4_training(cat):
    # The same plan on 8 x B200 as the C++ test (validation/cases/nemo-perf-nvfp4-b200.json).
    b200 = cat.find_gpu("B200")
    hw = capplan.quant_hardware(b200)
    assert hw.block_scaled and hw.fp8_any_layout
    assert not capplan.quant_hardware(cat.find_gpu("H100 SXM")).block_scaled
    assert capplan.quantization_cost(Precision.fp8, "delayed", hw).cast_bytes == 3.0
    assert capplan.quantization_cost(Precision.fp8, "current", hw).cast_bytes == 5.0
    nv = capplan.quantization_cost(Precision.fp4, "delayed", hw)
    assert (nv.operand_bytes, nv.cast_bytes, nv.transform_flops) == (0.5625, 5.125, 32.0)
    assert "nvfp4" in nv.recipe
    cluster = capplan.make_cluster(b200, 8, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    plan = ParallelPlan(dp=8, micro_batch=2, zero_stage=ZeroStage.optimizer)

    def tps(precision, recipe="delayed"):
        job = TrainingJob(model=capplan.find_model("llama3.1-8b").transformer(), global_batch=128, seq_len=8192,
                          precision=precision, fp8_recipe=recipe)
        return capplan.estimate_training(job, plan, cluster).tokens_per_second

    bf16, fp8, mx, fp4 = tps("bf16"), tps("fp8"), tps("fp8", "mxfp8"), tps("fp4")
    assert bf16 < mx < fp8 < fp4
    with pytest.raises(capplan.InputError, match="applies to precision fp8 only") as e:
        tps("bf16", "current")
    assert e.value.field == "fp8_recipe"
    with pytest.raises(capplan.InputError) as e:
        capplan.quantization_cost(Precision.fp8, "mxfp8", capplan.quant_hardware(cat.find_gpu("H100 SXM")))
    assert e.value.field == "fp8_recipe"
    with pytest.raises(TypeError, match="Fp8Recipe"):
        TrainingJob(fp8_recipe="mx9")
    # Blockwise FP8 (DeepSeek-V3's scales): Hopper only, at the measured kernel rate; refused on a B200 by the library.
    h100 = capplan.quant_hardware(cat.find_gpu("H100 SXM"))
    assert h100.fp8_blockwise and not hw.fp8_blockwise
    bw = capplan.quantization_cost(Precision.fp8, "blockwise", h100)
    assert bw.operand_bytes == pytest.approx(1 + 4 / 128)
    assert bw.kernel_rate == pytest.approx(3 / (2 / 0.8879 + 1 / 0.7237), rel=1e-3)
    assert capplan.saved_linear_input_bytes("fp8", "blockwise") == pytest.approx(1 + 4 / 128)
    with pytest.raises(capplan.InputError) as e:
        capplan.quantization_cost(Precision.fp8, "blockwise", hw)
    assert e.value.field == "fp8_recipe"


def test_nvfp4_serving(cat):
    assert capplan.WeightFormat("nvfp4").bits_per_value == 4.5
    assert cat.find_gpu("B200").peak("fp4").value == pytest.approx(9e15)
    job = capplan.InferenceJob(model=capplan.find_model("llama3.1-8b").transformer(), prompt=4096, generate=1, batch=8,
                               weight_bytes_per_parameter=1)
    fp8 = capplan.estimate_inference(job.replace(matmul_precision="fp8"), cat.find_gpu("B200")).prefill.value
    fp4 = capplan.estimate_inference(job.replace(matmul_precision="fp4", weight_bytes_per_parameter=0.5625),
                                     cat.find_gpu("B200")).prefill.value
    assert 0.5 * fp8 < fp4 < 0.9 * fp8
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_inference(job.replace(matmul_precision="bf16"), cat.find_gpu("B200"))
    assert e.value.field == "matmul_precision"


def test_fp6_rates_and_mxfp6_weights(cat):
    assert capplan.parse_precision("fp6") == Precision.fp6
    assert capplan.bytes_per_element(Precision.fp6) == 0.75
    assert capplan.WeightFormat("mxfp6").bits_per_value == 6.25
    # FP6 at the FP8 rate on Blackwell, at the FP4 rate on CDNA 4; none stored where none is published.
    assert cat.find_gpu("B200").peak("fp6").value == pytest.approx(4.5e15)
    mi355x = cat.find_gpu("MI355X")
    assert mi355x.peak("fp6").value == mi355x.peak("fp4").value
    assert cat.find_gpu("H100 SXM").peak("fp6") is None
    # MXFP6 serving is weight-only: FP6 is not a matmul precision a serving stack runs.
    job = capplan.InferenceJob(model=capplan.find_model("llama3.1-8b").transformer(), prompt=512, generate=1, batch=1)
    with pytest.raises(capplan.InputError, match="is not fp8 or fp4") as e:
        capplan.estimate_inference(job.replace(matmul_precision="fp6"), mi355x)
    assert e.value.field == "matmul_precision"


def test_training_precisions_only(cat):
    # INT8, INT4 and FP6 have no training recipe: an error naming precision, never a quiet estimate.
    shape = capplan.find_model("llama3.1-8b").transformer()
    b200 = cat.find_gpu("B200")
    cluster = capplan.make_cluster(b200, 8, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    for p in ("int8", "int4", "fp6"):
        with pytest.raises(capplan.InputError, match="is not a training precision") as e:
            capplan.best_training_run(shape, b200, 8, capplan.TrainingSetup(precision=p))
        assert e.value.field == "precision"
        job = TrainingJob(model=shape, global_batch=64, seq_len=4096, precision=p)
        with pytest.raises(capplan.InputError) as e:
            capplan.estimate_training(job, ParallelPlan(dp=8), cluster)
        assert e.value.field == "precision"
        with pytest.raises(capplan.InputError) as e:
            capplan.search_plans(job, cluster)
        assert e.value.field == "precision"
        # The purchase table says so too, where it once read "no fit" on every row.
        q = capplan.PurchaseQuery(model=shape, model_name="llama3.1-8b", tokens=1e9, training=capplan.TrainingSetup(precision=p))
        with pytest.raises(capplan.InputError) as e:
            capplan.purchase_table(q, cat)
        assert e.value.field == "precision"


def test_image_model_inference(cat):
    net = capplan.resnet50_v15()
    a100 = cat.find_gpu("A100 SXM 80GB")
    eager = capplan.estimate_image_inference(net, 256, a100)
    fused = capplan.estimate_image_inference(net, 256, a100, fused=True)
    int8 = capplan.estimate_image_inference(net, 256, a100, "int8", fused=True)
    assert eager.images_per_second < fused.images_per_second < int8.images_per_second
    assert eager.flops_per_image.value == pytest.approx(fused.flops_per_image.value)
    assert eager.latency.value == pytest.approx(256 / eager.images_per_second)
    assert "batch norm + ReLU" in eager.explain() and "batch norm + ReLU" not in fused.explain()
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_image_inference(net, 0, a100)
    assert e.value.field == "batch"


def test_image_training_memory(cat):
    net = capplan.find_image_model("resnet50")
    assert net is not None and capplan.find_image_model("llama2-7b") is None
    b = capplan.image_training_memory(net, 256)
    assert b.activations.size.value == pytest.approx(256 * (capplan.image_saved_elements_per_sample(net) * 2 + 56 * 56 * 64 * 8))
    # NVIDIA trains ResNet-50 at 256 images per 16 GB V100 in AMP, at 112 in FP32.
    v100 = capplan.DataSize(16, "GiB")
    assert capplan.image_max_batch(net, v100) >= 256
    assert 112 <= capplan.image_max_batch(net, v100, "fp32") < 256
    with pytest.raises(capplan.InputError) as e:
        capplan.image_training_memory(net, 8, "fp8")
    assert e.value.field == "precision"


def test_vision_transformer_layers_and_json(cat, tmp_path):
    vit = capplan.find_image_model("vit-b16")
    # torchvision ViT_B_16_Weights.IMAGENET1K_V1: 86,567,656 parameters, 17.564 GMACs.
    assert vit.parameters == 86_567_656
    assert vit.layer_parameters() + 198 * 768 == 86_567_656
    assert vit.forward_flops_per_sample() / 2 == pytest.approx(17.564e9, rel=1e-4)
    assert vit.kind() == "vision transformer" and capplan.resnet50_v15().kind() == "CNN"
    assert capplan.vision_transformer("ViT-B/16", 12, 768, 3072, 12, 16).parameters == vit.parameters
    back = capplan.ImageModel.from_json(vit.to_json())
    assert back.forward_flops_per_sample() == vit.forward_flops_per_sample() and back.parameters == vit.parameters
    path = tmp_path / "vit.json"
    path.write_text(vit.to_json())
    assert capplan.ImageModel.load_file(str(path)).linears == vit.linears
    with pytest.raises(capplan.InputError) as e:
        capplan.ImageModel.from_json('{"name": "x", "layers": [{"type": "attention", "tokens": 4, "heads": 0, "head_dim": 4}]}', "m.json")
    assert e.value.field == "layers[0].heads" and "m.json" in str(e.value)


def test_diffusion_unets(cat):
    sd, xl = capplan.sd15_unet(), capplan.sdxl_unet()
    # diffusers' UNet2DConditionModel.num_parameters() for the SD 1.5 and SDXL 1.0 base checkpoints.
    assert sd.parameters == 859_520_964 and xl.parameters == 2_567_463_684
    assert sd.kind() == "diffusion UNet" and capplan.find_image_model("sdxl-unet").parameters == xl.parameters
    assert sd.forward_flops_per_sample() / 2 == pytest.approx(401.637e9, rel=1e-5)
    assert sum(1 for a in sd.attentions if a.kv_tokens == 77) == 16
    assert any(not lin.bias for lin in sd.linears)
    assert all(e.passes > 0 for e in sd.elementwise)
    # The configuration builds the same model.
    c = capplan.UNetConfig(name="SD", channels=[320, 640, 1280, 1280], transformer_depth=[1, 1, 1, 0], heads=8)
    assert capplan.diffusion_unet(c).parameters == sd.parameters
    with pytest.raises(capplan.InputError) as e:
        capplan.diffusion_unet(c.replace(heads=7))
    assert e.value.field == "heads"
    # Another resolution: the same parameters, SDXL's portrait latent.
    portrait = capplan.diffusion_unet(capplan.find_unet_config("sdxl-unet").replace(latent_side=152, latent_width=104))
    assert portrait.parameters == xl.parameters and portrait.image == "832 x 1216 (104 x 152 latent)"
    assert capplan.find_unet_config("resnet50") is None
    # A JSON layer list round-trips, latent input included.
    back = capplan.ImageModel.from_json(sd.to_json())
    assert back.parameters == sd.parameters and back.input_elements == 4 * 64 * 64 and back.image == sd.image
    assert back.forward_flops_per_sample() == sd.forward_flops_per_sample()
    # The pipeline's parts travel with it: the VAE decoder and the text encoder.
    assert len(back.decoder) == 1 and [e.parameters for e in back.text_encoders] == [123_060_480]
    # A step at batch 8 (4 images under guidance) on an RTX 4090; element-wise steps are a term of their own.
    step = capplan.estimate_image_inference(sd, 8, cat.find_gpu("RTX 4090"))
    assert 0.05 < step.latency.value < 0.15
    assert "norms, activations, adds, copies" in step.explain()
    gen = capplan.estimate_image_generation(sd, 4, cat.find_gpu("RTX 4090"), steps=30)
    assert gen.samples == 8 and gen.passes.latency.value == pytest.approx(step.latency.value)
    # 30 steps, then the VAE decoder once over the batch's 4 latents (fp16 for SD 1.5).
    decode = capplan.estimate_image_inference(sd.decoder[0], 4, cat.find_gpu("RTX 4090"))
    assert gen.decode.latency.value == pytest.approx(decode.latency.value) and gen.decode_precision == capplan.Precision.fp16
    # Before the steps, the CLIP ViT-L/14 text encoder over the 8 prompts (4 negative), once per batch.
    text = capplan.estimate_image_inference(sd.text_encoders[0], 8, cat.find_gpu("RTX 4090"))
    assert len(gen.text) == 1 and gen.text_seconds() == pytest.approx(text.latency.value)
    assert gen.seconds_per_batch == pytest.approx(text.latency.value + 30 * step.latency.value + decode.latency.value)
    assert capplan.vae_decoder(64, 64).parameters == 49_490_199
    assert capplan.clip_vit_l14_text().parameters == 123_060_480
    assert capplan.openclip_vit_bigg14_text().parameters == 694_659_840
    assert [e.name for e in capplan.sdxl_unet().text_encoders] == ["CLIP ViT-L/14 text encoder", "OpenCLIP ViT-bigG/14 text encoder"]
    with pytest.raises(capplan.InputError, match="heads"):
        capplan.clip_text_encoder("bad", 12, 768, 3072, 7)
    # A tiled decode: SD 1.5 at 1024 x 1024 in nine tiles, less memory, more time.
    big = capplan.diffusion_unet(capplan.find_unet_config("sd15-unet").replace(latent_side=128))
    assert sum(t.count for t in big.decoder_tiles) == 9
    assert [(t.h, t.w, t.count) for t in capplan.vae_tiles(128, 128, 64)] == [(64, 64, 4), (64, 32, 2), (32, 64, 2), (32, 32, 1)]
    tiled = capplan.estimate_image_generation(big, 2, cat.find_gpu("RTX 4090"), steps=20, vae_tiling=True)
    whole = capplan.estimate_image_generation(big, 2, cat.find_gpu("RTX 4090"), steps=20)
    assert tiled.decode_tiles == 9 and tiled.decode.latency.value > whole.decode.latency.value
    m_tiled = capplan.image_generation_memory(big, 2, 4, capplan.Precision.fp16, vae_tiling=True)
    assert m_tiled.activations.size.value < 0.5 * capplan.image_generation_memory(big, 2, 4, capplan.Precision.fp16).activations.size.value
    assert capplan.companion_precision(capplan.Precision.fp8) == capplan.Precision.fp16
    # SDXL decodes in fp32 (TF32 tensor cores on an RTX 4090); its memory at 1024 x 1024 does not fit 8 GB.
    xl_gen = capplan.estimate_image_generation(capplan.sdxl_unet(), 1, cat.find_gpu("RTX 4090"))
    assert xl_gen.decode_precision == capplan.Precision.tf32
    m = capplan.image_generation_memory(capplan.sdxl_unet(), 1, 2, capplan.Precision.fp16, xl_gen.decode_precision)
    assert m.total() > capplan.DataSize(8, "GB") and m.activations.size > capplan.DataSize(3, "GB")
    assert gen.images_per_second == pytest.approx(4 / gen.seconds_per_batch)
    assert capplan.estimate_image_generation(sd, 4, cat.find_gpu("RTX 4090"), steps=30, guidance=False).samples == 4


def test_purchase_table_for_stable_diffusion(cat):
    q = capplan.PurchaseQuery(workload="serve_images", image_model=capplan.sd15_unet(), model_name="sd15-unet", image_batch=4, steps=30)
    t = capplan.purchase_table(q, cat)
    assert t.serve() and t.serves_images()
    row = next(r for r in t.rows if r.option == "rtx-4090")
    step = capplan.estimate_image_inference(capplan.sd15_unet(), 8, cat.find_gpu("rtx-4090"))
    assert row.image_inference.latency.value == pytest.approx(step.latency.value)
    decode = capplan.estimate_image_inference(capplan.sd15_unet().decoder[0], 4, cat.find_gpu("rtx-4090"))
    text = capplan.estimate_image_inference(capplan.sd15_unet().text_encoders[0], 8, cat.find_gpu("rtx-4090"))
    assert row.text_encode_s == pytest.approx(text.latency.value)
    assert row.images_per_s == pytest.approx(4 / (text.latency.value + 30 * step.latency.value + decode.latency.value))
    assert row.image_decode.latency.value == pytest.approx(decode.latency.value)
    assert row.image_memory == capplan.image_generation_memory(capplan.sd15_unet(), 4, 8, capplan.Precision.fp16, capplan.Precision.fp16).total()
    out = t.output()
    plan = next(r for r in out["rows"] if r["option"] == "rtx-4090")["plan"]
    assert plan["vae_decode_s"] == row.image_decode.latency.value and plan["text_encode_s"] == row.text_encode_s
    assert plan["memory_per_gpu_bytes"] == row.image_memory.value
    # compare --serve --vae-tiling: at 1536 x 1536 the tiled decode needs less memory and more time.
    big = capplan.diffusion_unet(capplan.find_unet_config("sd15-unet").replace(latent_side=192))
    whole = next(r for r in capplan.purchase_table(q.replace(image_model=big), cat).rows if r.option == "rtx-4090")
    tiled = next(r for r in capplan.purchase_table(q.replace(image_model=big, vae_tiling=True), cat).rows if r.option == "rtx-4090")
    assert tiled.image_memory < whole.image_memory and tiled.image_decode.latency.value > whole.image_decode.latency.value
    tiled_out = capplan.purchase_table(q.replace(image_model=big, vae_tiling=True), cat).output()
    assert tiled_out["vae_tiling"] is True and tiled_out["vae_slicing"] is False
    # The decode options need a diffusion pipeline's VAE decoder: refused by name elsewhere.
    with pytest.raises(capplan.InputError) as e:
        capplan.purchase_table(q.replace(image_model=capplan.vit_b16(), vae_slicing=True), cat)
    assert e.value.field == "vae_slicing"
    assert out["workload"] == "serve_images" and out["steps"] == 30 and out["guidance"] is True
    assert "rent_usd_per_kimage" in out["rows"][0]
    with pytest.raises(capplan.InputError) as e:
        capplan.purchase_table(q.replace(steps=0), cat)
    assert e.value.field == "steps"


def test_vision_transformer_training_inference_memory(cat):
    vit = capplan.vit_b16()
    unfused = vit.replace(attentions=[a.replace(fused=False) for a in vit.attentions])
    rtx = cat.find_gpu("RTX 4090")
    one = capplan.make_cluster(rtx, 1, 1, capplan.infiniband(Bandwidth(25, "GB/s")))
    fast = capplan.estimate_image_training(vit, 192, one)
    slow = capplan.estimate_image_training(unfused, 192, one)
    assert slow.images_per_second < fast.images_per_second
    assert "attention" in fast.explain() and "LayerNorm" in fast.explain()
    assert capplan.estimate_image_inference(vit, 1024, rtx, fused=True).images_per_second > \
        capplan.estimate_image_inference(vit, 1024, rtx).images_per_second
    # timm trained ViT-B/16 at 192 images (not 256) on a 24 GB RTX 3090 with unfused attention.
    gib24 = capplan.DataSize(24, "GiB")
    assert 192 <= capplan.image_max_batch(unfused, gib24) < 256
    assert capplan.image_saved_bytes_per_sample(unfused) > capplan.image_saved_bytes_per_sample(vit)
    with pytest.raises(capplan.InputError) as e:
        capplan.estimate_image_training(vit.replace(linears=[], convs=[]), 8, one)
    assert e.value.field == "layers"


def test_purchase_table_for_an_image_model(cat):
    q = capplan.PurchaseQuery(workload="train_images", image_model=capplan.find_image_model("resnet50"), model_name="resnet50",
                              images=90 * 1_281_167)
    t = capplan.purchase_table(q, cat)
    rows = [r for r in t.rows if r.status == ""]
    assert rows and all(r.image is not None and r.batch_per_gpu >= 1 for r in rows)
    fastest = rows[0]
    assert fastest.time.value == pytest.approx(q.images / fastest.image.images_per_second)
    out = t.output()
    assert out["workload"] == "train_images" and out["parameters"] == 25_557_032
    assert out["rows"][0]["plan"]["batch_per_gpu"] >= 1
    with pytest.raises(capplan.InputError) as e:
        capplan.purchase_table(capplan.PurchaseQuery(workload="train_images", images=1e6), cat)
    assert e.value.field == "image_model"


def test_search_offloads_activations_on_a_grace_superchip_under_megatron_core(cat):
    # Llama 3.1 8B at 4 x 8,192 tokens a GPU on 8 GB200: offloading is tried (megatron-core, NVLink-C2C),
    # and an offloaded plan keeps Megatron-Core's rules and is the fewest layers that fit.
    job = TrainingJob(model=capplan.find_model("llama3.1-8b").transformer(), global_batch=64, seq_len=8192)
    cluster = capplan.make_cluster(cat.find_gpu("GB200"), 8, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    fw = capplan.Framework.megatron_core()
    assert fw.activation_offloading and not capplan.Framework().activation_offloading
    space = capplan.SearchSpace(micro_batches=[8], recompute=["none", "full"])
    assert space.offload and not space.offload_over_pcie
    found = capplan.search_plans(job, cluster, fw, top=5, space=space)
    off = [r.plan for r in found.top if r.plan.offload_layers > 0]
    assert off and all(p.pp == 1 and p.recompute == capplan.Recompute.none for p in off)
    # The bisection's memory checks are counted apart from the ranked plans' own.
    assert found.offloaded_fits >= len(off)
    assert found.offload_checks > found.offloaded_fits
    assert "memory checks of offloaded layers" in found.explain()
    space.offload = False
    plain = capplan.search_plans(job, cluster, fw, top=5, space=space)
    assert all(r.plan.offload_layers == 0 for r in plain.top)
    assert (plain.offload_checks, plain.offloaded_fits) == (0, 0)


def test_megatron_training_time_overflow_is_an_error():
    # Finite inputs whose product overflows: an error naming tokens, never a quiet infinity (found by test_fuzz_api).
    from capplan import FlopRate
    with pytest.raises(capplan.InputError) as e:
        capplan.megatron_training_time(1.7976931348623157e308, 1.0, 1, FlopRate(1, "PFLOP/s"))
    assert e.value.field == "tokens"
    assert capplan.megatron_training_time(300e9, 175e9, 1024, FlopRate(140, "TFLOP/s")).value > 0


def test_recompute_modules_as_megatron_names_them(cat):
    # Megatron-Bridge's DeepSeek-V3 on H100: --recompute-modules mla_up_proj mlp.
    plan = ParallelPlan(recompute="selective", recompute_modules="mla_up_proj mlp")
    assert plan.recompute_modules == "mlp,mla_up_proj"
    assert plan.to_dict()["recompute_modules"] == "mlp,mla_up_proj"
    assert ParallelPlan(**plan.to_dict()) == plan
    with pytest.raises(capplan.InputError, match=r"recompute_modules: attn is not a module capplan recomputes"):
        ParallelPlan(recompute_modules="attn")
    with pytest.raises(capplan.InputError, match="recompute_modules: mlp is named twice"):
        plan.recompute_modules = "mlp,mlp"
    # The dense MLP's forward runs again: HFU above MFU, the iteration longer; memory less.
    job = TrainingJob(model=capplan.find_model("llama3.1-8b").transformer(), global_batch=8, seq_len=4096)
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 8, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    fw = capplan.Framework.megatron_core()
    core = ParallelPlan(tp=2, dp=4, sequence_parallel=True, recompute="selective")
    mlp = core.replace(recompute_modules="mlp")
    e_core, e_mlp = (capplan.estimate_training(job, p, cluster, fw) for p in (core, mlp))
    assert e_mlp.hfu > e_mlp.mfu
    assert e_core.hfu > e_core.mfu  # core_attn reruns the FlashAttention kernel's forward, as Megatron-Core checkpoints it
    assert e_mlp.iteration.value > e_core.iteration.value
    assert capplan.plan_memory(job, mlp, fw).total().value < capplan.plan_memory(job, core, fw).total().value
    with pytest.raises(capplan.InputError, match="recompute_modules: moe needs a mixture-of-experts model"):
        capplan.estimate_training(job, core.replace(recompute_modules="moe"), cluster, fw)
    with pytest.raises(capplan.InputError, match="recompute_modules: mlp needs recompute selective"):
        capplan.estimate_training(job, mlp.replace(recompute="full"), cluster, fw)
    # The search applies the modules to every selective plan it tries.
    space = capplan.SearchSpace(recompute=["selective"], recompute_modules="mlp", max_tp=2, micro_batches=[1])
    found = capplan.search_plans(job, cluster, fw, top=3, space=space)
    assert all(p.plan.recompute_modules == "mlp" for p in found.top)


def test_search_tries_published_module_lists(cat):
    # Mixtral 8x7B at 8,192 tokens on 16 H100: the best plan that fits recomputes the experts'
    # activation (moe_act), a list published Megatron-Core recipes run; without the lists it is slower.
    job = TrainingJob(model=capplan.find_model("mixtral-8x7b").transformer(), global_batch=256, seq_len=8192)
    cluster = capplan.make_cluster(cat.find_gpu("H100 SXM"), 16, 8, capplan.infiniband(Bandwidth(50, "GB/s")))
    fw = capplan.Framework.megatron_core()
    assert capplan.SearchSpace().recompute_module_lists
    # Only Megatron-Core has --recompute-modules; under FSDP the search keeps core_attn.
    assert fw.recompute_module_lists and not capplan.Framework.pytorch_fsdp().recompute_module_lists
    fsdp = capplan.search_plans(job, cluster, capplan.Framework.pytorch_fsdp(), top=3)
    assert all(p.plan.recompute_modules in ("", "core_attn") for p in fsdp.top)
    found = capplan.search_plans(job, cluster, fw, top=1)
    off = capplan.search_plans(job, cluster, fw, top=1, space=capplan.SearchSpace(recompute_module_lists=False))
    assert found.top[0].plan.recompute == capplan.Recompute.selective and found.top[0].plan.recompute_modules == "moe_act"
    assert found.candidates > off.candidates
    assert found.top[0].estimate.iteration.value < off.top[0].estimate.iteration.value
    assert all(p.plan.recompute_modules in ("", "core_attn") for p in off.top)


def test_mtp_layers_are_sized_on_the_last_stage():
    shape = capplan.find_model("deepseek-r1").transformer()
    plan = ParallelPlan(pp=2, dp=8, ep=8, recompute="full")
    without = capplan.TrainingConfig(plan=plan, seq_len=4096, flash_attention=True)
    with_mtp = without.replace(mtp_layers=1)
    b0, b1 = (capplan.training_budget(shape, c) for c in (without, with_mtp))
    assert b1.total().value > b0.total().value
    assert b1.pipeline_stage == 1  # the last stage, which holds it, needs the most
    assert "MTP layer" in b1.activations.detail
    with pytest.raises(capplan.InputError, match="mtp_layers: 17 must be 0 to 16"):
        capplan.training_budget(shape, with_mtp.replace(mtp_layers=17))


def test_megatron_core_moe_dispatch_path_time_per_routed_value(cat):
    # Megatron-Core's time per routed value of a MoE layer, fitted on Megatron-Bridge 25.09's
    # token-dropping Qwen3 rows (scripts/fit-moe-routed-time); other presets: 0.
    mc = capplan.Framework.megatron_core()
    assert mc.moe_seconds_per_routed_value == pytest.approx(16.33e-12)
    assert capplan.Framework.pytorch_fsdp().moe_seconds_per_routed_value == 0
    assert mc.moe_gemm_per_expert and not capplan.Framework.pytorch_fsdp().moe_gemm_per_expert
    shape = capplan.TransformerShape(name="qwen3-30b-a3b-like", layers=48, hidden=2048, heads=32, kv_heads=4, head_dim=128,
                                     ffn_hidden=6144, gated_mlp=True, vocab=151936, seq_len=4096,
                                     moe=capplan.MoeShape(experts=128, experts_per_token=8, moe_ffn_hidden=768))
    job = TrainingJob(model=shape, global_batch=512, seq_len=4096, precision="fp8")
    cluster = capplan.make_cluster(cat.find_gpu("B200"), 8, 8, capplan.Link())
    plan = ParallelPlan(dp=8, ep=8, zero_stage="optimizer")
    est = capplan.estimate_training(job, plan, cluster, mc)
    term = {t.name: t.time.value for t in est.breakdown.terms}["MoE dispatch path"]
    assert term == pytest.approx(64 * 48 * 4096 * 8 * 2048 * 16.33e-12, rel=1e-9)
    # The op listing runs the expert GEMMs as the estimate does: one kernel per local expert (128 / ep 8).
    experts = [l.op for l in capplan.layer_op_lines(job, plan, cluster, mc) if "moe expert" in l.op.name]
    assert len(experts) == 2 and all(op.kernels == 16 for op in experts)
    mc.moe_seconds_per_routed_value = 0
    assert "MoE dispatch path" not in {t.name for t in capplan.estimate_training(job, plan, cluster, mc).breakdown.terms}
    mc.moe_seconds_per_routed_value = -1e-12
    with pytest.raises(capplan.InputError, match="moe_seconds_per_routed_value"):
        capplan.estimate_training(job, plan, cluster, mc)


def test_shm_shares_the_hosts_memory():
    cat = capplan.Catalog.builtin()
    r5090 = cat.find_gpu("RTX 5090")
    # 8 x RTX 5090 on 2 x Xeon 8480+ (16 channels of DDR5-4800): 0.75 x 614.4 GB/s / 16 = 28.8 GB/s each.
    eight = capplan.make_cluster(r5090, 8, 8, capplan.Link(), "root_complex", host_memory_bandwidth=614.4e9)
    assert eight.intra.bandwidth.value * eight.intra.efficiency == pytest.approx(28.8e9)
    four = capplan.make_cluster(r5090, 4, 4, capplan.Link(), "root_complex", host_memory_bandwidth=614.4e9)
    assert four.intra.efficiency == pytest.approx(35 / 63.0, rel=1e-3)
    assert capplan.assumed_host_memory_bandwidth(5, "pcie_switch") == pytest.approx(614.4e9)
    assert capplan.shm_host_share(r5090, "root_complex", 8, 614.4e9) == pytest.approx(28.8e9)
    with pytest.raises(capplan.InputError, match="host_memory_bandwidth"):
        capplan.make_cluster(r5090, 8, 8, capplan.Link(), "root_complex", host_memory_bandwidth=float("nan"))
    for bad in (float("inf"), -1.0, 1e-300):
        with pytest.raises(capplan.InputError, match="host_memory_bandwidth"):
            capplan.shm_host_share(r5090, "root_complex", 8, bad)
    with pytest.raises(capplan.InputError, match="flows"):
        capplan.shm_host_share(r5090, "root_complex", 0)
    assert eight.host_memory_bandwidth == pytest.approx(614.4e9)


def test_host_memory_from_parts_and_given():
    cat = capplan.Catalog.builtin()
    assert capplan.ddr_speed_mts("DDR5-4800") == 4800
    assert capplan.ddr_speed_mts("HBM3") == 0
    epyc = cat.find_cpu("epyc-7763")
    # 8 channels x 8 B x 3,200 MT/s; faster DIMMs run at the CPU's rating.
    assert epyc.memory_bandwidth().value == pytest.approx(204.8e9)
    assert epyc.memory_bandwidth(4).value == pytest.approx(102.4e9)
    assert epyc.memory_bandwidth(8, 4800).value == pytest.approx(204.8e9)
    with pytest.raises(capplan.InputError, match="channels"):
        epyc.memory_bandwidth(-2)
    with pytest.raises(capplan.InputError, match="speed_mts"):
        epyc.memory_bandwidth(8, 99999)
    ws = capplan.host_memory(cat.find_system("ws-2x-rtx-4090"), cat)
    assert ws.bandwidth.value == pytest.approx(83.2e9) and ws.channels == 2 and ws.speed_mts == 5200
    # 32 DIMMs on 16 channels: two a channel, where a 4th-generation Xeon runs DDR5 at 4,400 MT/s.
    dgx = capplan.host_memory(cat.find_system("dgx-h100"), cat)
    assert dgx.bandwidth.value == pytest.approx(563.2e9) and dgx.speed_mts == 4400
    assert cat.find_cpu("xeon-platinum-8480plus").memory_speed_2dpc == 4400
    assert capplan.host_memory(cat.find_system("hgx-h100-8gpu"), cat).bandwidth.value == 0
    # A run takes the host given: 8 x RTX 4090 on one EPYC 7763 socket get 0.75 x 204.8 / 16 = 9.6 GB/s each.
    shape = capplan.find_model("llama2-7b").transformer()
    r4090 = cat.find_gpu("rtx4090")
    setup = capplan.TrainingSetup()
    setup.host_memory_bandwidth = 204.8e9
    run = capplan.best_training_run(shape, r4090, 8, setup).run
    assert run.cluster.host_memory_bandwidth == pytest.approx(204.8e9)
    assert run.cluster.intra.bandwidth.value * run.cluster.intra.efficiency == pytest.approx(9.6e9)
    setup.host_memory_bandwidth = -1.0
    with pytest.raises(capplan.InputError, match="host_memory_bandwidth"):
        capplan.best_training_run(shape, r4090, 8, setup)
    load = capplan.ServingLoad()
    load.host_memory_bandwidth = float("nan")
    with pytest.raises(capplan.InputError, match="host_memory_bandwidth"):
        load.validate()


def test_gpu_slots_from_parts():
    cat = capplan.Catalog.builtin()
    # Two cards on a Ryzen 9 7950X: 28 lanes, 4 link the chipset, 4 the NVMe drive: x8 each, PCIe 4.0.
    assert cat.find_cpu("ryzen-9-7950x").chipset_lanes == 4
    slots = capplan.gpu_slots(cat.find_system("ws-2x-rtx-4090"), cat)
    assert (slots.lanes, slots.generation, slots.narrowed) == (8, 4, True)
    assert slots.basis.startswith("PCIe 4.0 x8 each")
    card = slots.apply(cat.find_gpu("rtx-4090"))
    assert card.pcie_lanes == 8 and cat.find_gpu("rtx-4090").pcie_lanes == 16
    assert not capplan.gpu_slots(cat.find_system("dgx-h100"), cat).narrowed
    assert capplan.lanes_per_card(16, 2, 20) == 8
    assert capplan.lanes_per_card(16, 1, 20) == 16
    assert capplan.lanes_per_card(16, 3, 20) == 4
    bad = cat.find_cpu("ryzen-9-7950x")
    bad.chipset_lanes = 99
    with pytest.raises(capplan.InputError, match="chipset_lanes"):
        bad.validate()


def test_offer_fabric_between_cloud_instances():
    cat = capplan.Catalog.builtin()
    p4d = cat.find_offer("aws-p4d.24xlarge")
    assert p4d.network.value == pytest.approx(400e9 / 8)
    assert p4d.network_kind == capplan.InstanceNetwork.efa
    f = capplan.offer_fabric(p4d, cat.find_gpu("a100-sxm-40gb"))
    assert f.per_gpu(8).value == pytest.approx(50e9 / 8)
    # A 1-GPU slice with no recorded network: none; an 8-GPU instance without one: the usual (None).
    a2 = cat.find_offer("gcp-a2-highgpu-1g")
    assert capplan.offer_fabric(a2, cat.find_gpu(a2.gpu_id)).none()
    lam = cat.find_offer("lambda-gpu-8x-h100-sxm5")
    assert capplan.offer_fabric(lam, cat.find_gpu(lam.gpu_id)) is None
    bad = cat.find_offer("aws-g5.xlarge")
    bad.network = capplan.Bandwidth(1000, "Tb/s")
    with pytest.raises(capplan.InputError, match="network"):
        bad.validate()
