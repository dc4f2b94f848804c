"""FLOP counts and memory: parity with the C++ golden numbers, properties, errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import capplan
from capplan import DataSize, ParallelPlan, TrainingConfig, ZeroStage


def gpt_shape(layers=24, hidden=2304, heads=24, vocab=51200, seq=2048):
    return capplan.TransformerShape(name="gpt", layers=layers, hidden=hidden, heads=heads, vocab=vocab, seq_len=seq,
                                    norm="layernorm", linear_bias=True)


# FLOPs

def test_gpt3_6nd_is_exact():
    # GPT-3: N = 174.6e9, D = 300e9 -> 3.14e23 FLOPs (Brown et al. 2020, Table D.1); the C++ test checks
    # the exact 3.1428e23.
    c = capplan.training_flops(174_600_000_000, 300_000_000_000)
    assert c == 314_280_000_000_000_000_000_000
    assert isinstance(c, int)
    assert capplan.as_flops(c).value == pytest.approx(3.14e23, rel=0.02)
    shape_based = capplan.training_flops(capplan.find_model("gpt3-175b").transformer(), 300_000_000_000)
    assert shape_based == pytest.approx(3.14e23, rel=0.02)


def test_megatron_closed_form_is_exact_integers():
    # Narayanan et al. 2021, §5.1, eq. 3: 96 B s l h^2 (1 + s/(6h) + V/(16 l h)) = 96Bslh^2 + 16Bs^2lh + 6BshV.
    B, s, l, h, V = 512, 2048, 24, 2304, 51200
    exact = 96 * B * s * l * h * h + 16 * B * s * s * l * h + 6 * B * s * h * V
    assert capplan.megatron_flops_per_iteration(B, s, l, h, V) == exact
    big = capplan.megatron_flops_per_iteration(3072, 2048, 128, 25600, 51200)
    assert big > 2**63  # beyond int64, still exact as a Python int


def test_full_recompute_hardware_flops_match_megatron_for_gpt():
    shape = gpt_shape()
    f = capplan.hardware_flops_per_iteration(shape, 8, 2048, capplan.Recompute.full)
    assert f == capplan.megatron_flops_per_iteration(8, 2048, 24, 2304, 51200)
    parts = capplan.forward_flops(shape, 8, 2048)
    assert parts.total() == parts.layers_matmul + parts.layers_attention + parts.logits
    assert capplan.model_flops_per_iteration(shape, 8, 2048) == 3 * parts.total()


def test_inference_flops():
    shape = capplan.find_model("llama2-7b").transformer()
    assert capplan.prefill_flops(shape, 1, 512) < capplan.forward_flops(shape, 1, 512).total()  # causal
    one = capplan.decode_flops_per_token(shape, 513)
    assert capplan.generation_flops(shape, 512, 1) == one


def test_flop_errors_carry_the_cpp_message():
    with pytest.raises(capplan.InputError, match="tokens: 0 must be a positive token count"):
        capplan.training_flops(7, 0)
    with pytest.raises(TypeError):
        capplan.training_flops(7e9, 1e12)  # counts are ints: exact


# Memory

def test_zero_figure_1():
    # Rajbhandari et al. 2020, Fig. 1: Psi = 7.5B, N_d = 64, K = 12: 120 / 31.4 / 16.6 / 1.9 GB per GPU.
    psi = 7_500_000_000
    expected = {ZeroStage.none: 120.0, ZeroStage.optimizer: 31.4, ZeroStage.gradients: 16.6,
                ZeroStage.parameters: 1.9}
    for stage, gb in expected.items():
        got = capplan.zero_model_states(psi, 64, stage).model_states().to("GB")
        assert got == pytest.approx(gb, abs=0.1), stage


def test_kv_cache_opt13b():
    # Kwon et al. 2023 (vLLM), §3: OPT-13B fp16 keeps 800 KB per token (2 x 5120 x 40 x 2 B = 819,200 B).
    opt = capplan.TransformerShape(name="opt-13b", layers=40, hidden=5120, heads=40, vocab=50272, seq_len=2048)
    assert capplan.kv_cache_per_token(opt, "fp16").value == 819_200
    assert capplan.kv_cache_memory(opt, 2048, 1, capplan.WeightFormat("fp16")).to("GB") == pytest.approx(1.68, abs=0.01)


def test_sliding_window_kv_cache_and_flops():
    # gpt-oss-120b: 18 windowed layers (128 tokens) and 18 global ones, 2,048 B per layer per token in bf16.
    oss = capplan.find_model("gpt-oss-120b").transformer()
    assert oss.window.tokens == 128 and oss.window.global_every == 2
    assert oss.windowed_layers() == 18 and oss.windowed_layer(0) and not oss.windowed_layer(1)
    assert capplan.kv_cache_per_token_past_window(oss).value == 18 * 2048
    assert capplan.kv_cache_memory(oss, 131072, 1).value == 2048 * (18 * 131072 + 18 * 128)
    # A shape built in Python takes a window too; a window wider than the sequence changes nothing.
    shape = gpt_shape()
    windowed = gpt_shape()
    windowed.window = capplan.SlidingWindow(tokens=4096, global_every=0)
    assert capplan.forward_flops(windowed, 1, 2048).total() == capplan.forward_flops(shape, 1, 2048).total()
    windowed.window = capplan.SlidingWindow(tokens=256, global_every=0)
    assert capplan.forward_flops(windowed, 1, 2048).layers_attention < capplan.forward_flops(shape, 1, 2048).layers_attention
    with pytest.raises(capplan.InputError, match="global_every"):
        windowed.window = capplan.SlidingWindow(tokens=256, global_every=1)
        windowed.validate()


def test_training_budget_breakdown_and_fit():
    shape = capplan.find_model("llama2-7b").transformer()
    cfg = TrainingConfig(plan=ParallelPlan(micro_batch=1), flash_attention=True)
    cfg.plan.dp = 8
    cfg.plan.zero_stage = ZeroStage.parameters
    b = capplan.training_budget(shape, cfg)
    items = b.items()
    assert [i.label for i in items][:3] == ["weights", "gradients", "optimizer states"]
    assert b.total() == sum((i.size for i in items), DataSize(0, "B"))
    assert "total" in b.explain()
    df = b.to_pandas()
    assert list(df.columns) == ["item", "size_bytes", "detail"]
    assert df["size_bytes"].sum() == pytest.approx(b.total().value)
    fit = capplan.check_fit(b, DataSize(80, "GB"))
    assert fit.fits and fit.headroom == DataSize(80, "GB") - b.total()
    d = b.to_dict()
    assert d["weights"]["size_bytes"] == b.weights.size.value
    out = capplan.memory_fit_output(b, fit)
    assert list(out) == ["memory_per_gpu_bytes", "breakdown", "gpu_memory_bytes", "fits", "tight", "headroom_bytes",
                         "utilization"]
    assert out["memory_per_gpu_bytes"] == pytest.approx(b.total().value)
    assert out["breakdown"]["weights_bytes"] == pytest.approx(b.weights.size.value)
    assert out["fits"] is True and out["tight"] is False
    # A fit with less headroom than the allocator may lose to fragmentation is tight.
    assert not fit.tight
    edge = capplan.check_fit(b, b.total())
    assert edge.fits and edge.tight
    assert not capplan.check_fit(b, b.total() + b.tight_margin + DataSize(1, "B")).tight
    with pytest.raises(capplan.InputError, match="runtime_reserve.fragmentation_tight"):
        capplan.RuntimeReserve(fragmentation=0.5, fragmentation_tight=0.25).tight_margin(DataSize(1, "GB"))


def test_solvers():
    shape = capplan.find_model("llama2-7b").transformer()
    cfg = TrainingConfig(flash_attention=True, plan=ParallelPlan(recompute="full"))
    cfg.plan.dp = 8
    cfg.plan.zero_stage = "parameters"
    mb = capplan.max_micro_batch(shape, cfg, DataSize(80, "GB"))
    assert mb >= 1
    assert capplan.training_budget(shape, cfg.replace(plan=cfg.plan.replace(micro_batch=mb))).total() <= DataSize(80, "GB")
    assert capplan.training_budget(shape, cfg.replace(plan=cfg.plan.replace(micro_batch=mb + 1))).total() > DataSize(80, "GB")
    plan = capplan.min_gpus_for_training(shape, TrainingConfig(plan=ParallelPlan(zero_stage="parameters")),
                                         DataSize(24, "GB"))
    assert plan is not None and plan.gpus > 1 and plan.budget.total() <= DataSize(24, "GB")
    # Tensor parallelism beyond 8 in a 72-GPU NVLink domain: Llama 3.1 405B at 131,072 tokens.
    wide = TrainingConfig(plan=ParallelPlan(zero_stage="parameters", recompute="full", sequence_parallel=True))
    big = capplan.find_model("llama3.1-405b").transformer()
    assert capplan.min_gpus_for_training(big, wide, DataSize(284208, "MiB")) is None
    p72 = capplan.min_gpus_for_training(big, wide, DataSize(284208, "MiB"), max_tp=72)
    assert p72 is not None and p72.tensor == 64 and p72.gpus == 128
    with pytest.raises(capplan.InputError) as e:
        capplan.min_gpus_for_training(big, wide, DataSize(284208, "MiB"), max_tp=0)
    assert e.value.field == "max_tp"
    serve = capplan.InferenceConfig(weights="q4_0", context=4096, sequences=1)
    assert capplan.max_context(shape, serve, DataSize(24, "GB"), 1 << 20) > 4096
    assert capplan.max_concurrent_sequences(shape, serve, DataSize(24, "GB")) >= 1
    s = capplan.min_gpus_for_serving(capplan.find_model("llama3.1-70b").transformer(),
                                     capplan.InferenceConfig(context=4096, sequences=8), DataSize(80, "GB"))
    assert s is not None and s.gpus >= 2


def test_quantized_checkpoints_keep_their_ends_wider():
    # hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4: 4.68 GB + 1.05 GB of safetensors (the C++ test's figure).
    shape = capplan.find_model("llama3.1-8b").transformer()
    int4 = capplan.WeightFormat("int4")
    assert int4.bits_per_value == pytest.approx(4 + 20 / 128)
    assert [f.name for f in int4.checkpoint_ends()] == ["bf16", "bf16"]
    assert [f.name for f in capplan.WeightFormat("q4_0").checkpoint_ends()] == ["q4_0", "q6_k"]
    assert [f.name for f in capplan.WeightFormat("q8_0").checkpoint_ends()] == ["q8_0", "q8_0"]
    awq = capplan.inference_budget(shape, capplan.InferenceConfig(weights="int4"))
    assert awq.weights.size.to("GB") == pytest.approx(5.73, rel=0.005)
    assert "embedding/head params x 16 bit (bf16)" in awq.weights.detail
    job = capplan.InferenceJob(model=shape, weight_bytes_per_parameter=int4.bytes_per_value())
    flat = capplan.estimate_inference(job, capplan.Catalog.builtin().find_gpu("rtx4090")).weight_bytes_per_gpu
    job.head_weight_bytes_per_parameter = 2.0
    wide = capplan.estimate_inference(job, capplan.Catalog.builtin().find_gpu("rtx4090")).weight_bytes_per_gpu
    assert wide.value - flat.value == pytest.approx(128256 * 4096 * (2 - int4.bytes_per_value()))
    with pytest.raises(capplan.InputError, match="head_weight_bytes_per_parameter"):
        job.head_weight_bytes_per_parameter = -1.0
        capplan.estimate_inference(job, capplan.Catalog.builtin().find_gpu("rtx4090"))


def test_memory_errors():
    shape = capplan.find_model("llama2-7b").transformer()
    cfg = TrainingConfig()
    cfg.plan.tp = 3
    with pytest.raises(capplan.InputError, match=r"tensor_parallel: 3 does not divide heads \(32\)"):
        capplan.training_budget(shape, cfg)
    with pytest.raises(ValueError, match="is not a weight format"):
        capplan.WeightFormat("q3")
    with pytest.raises(ValueError, match="ZeroStage: 'four' is not one of"):
        capplan.ZeroStage("four")
    # An integer that names no member is refused, not made a "Precision.???" every function takes.
    assert capplan.Precision(int(capplan.Precision.bf16)) == capplan.Precision.bf16
    for enum, value in [(capplan.Precision, 99), (capplan.ZeroStage, 4), (capplan.MoeDispatch, 7), (capplan.Currency, 9),
                        (capplan.RoundingMode, 17), (capplan.MoneyStyle, 2), (capplan.Prefixes, 5)]:
        with pytest.raises(ValueError, match=rf"{enum.__name__}: {value} is not one of its values \("):
            enum(value)
    # A bool is not an integer here (Python's True == 1 would make it fp32).
    for enum in (capplan.Precision, capplan.ZeroStage, capplan.Currency):
        with pytest.raises(TypeError, match=rf"{enum.__name__}: True is a bool, not one of its values \("):
            enum(True)
    assert capplan.ZeroStage("none") == capplan.ZeroStage(0)


small_shapes = st.builds(
    lambda layers, heads, head_dim, vocab: gpt_shape(layers=layers, hidden=heads * head_dim, heads=heads,
                                                     vocab=vocab, seq=1024),
    st.integers(1, 48), st.sampled_from([8, 16, 32]), st.sampled_from([64, 128]), st.integers(1000, 100_000))


@given(small_shapes, st.integers(1, 256), st.integers(1, 256))
def test_more_gpus_never_raise_per_gpu_memory_under_zero3(shape, n, extra):
    cfg = TrainingConfig(plan=ParallelPlan(micro_batch=1))
    cfg.plan.zero_stage = ZeroStage.parameters
    cfg.plan.dp = n
    fewer = capplan.training_budget(shape, cfg).total()
    cfg.plan.dp = n + extra
    more = capplan.training_budget(shape, cfg).total()
    assert more <= fewer


@given(small_shapes, st.integers(1, 64), st.integers(1, 64),
       st.sampled_from(["none", "selective", "full"]), st.booleans())
def test_a_larger_batch_never_lowers_activation_memory(shape, b, extra, recompute, flash):
    opts = capplan.ActivationOptions(recompute=recompute, flash_attention=flash)
    small = capplan.activation_memory_per_layer(shape, b, 1024, opts)
    large = capplan.activation_memory_per_layer(shape, b + extra, 1024, opts)
    assert large >= small


@given(st.integers(1, 10**15), st.integers(1, 10**15))
def test_6nd_is_exact_for_any_size(n, d):
    assert capplan.training_flops(n, d) == 6 * n * d


def test_memory_reports_are_the_cli_json():
    cat = capplan.Catalog.builtin()
    gpu = cat.find_gpu("h100-sxm")
    shape = capplan.find_model("llama2-7b").transformer()
    cfg = TrainingConfig(flash_attention=True, plan=ParallelPlan(dp=8, zero_stage="parameters"))
    r = capplan.training_memory_report("llama2-7b", shape, gpu, cfg)
    assert r.budget.total() == capplan.training_budget(shape, cfg).total()
    out = r.output(would_fit=["--zero 3"], assumptions=["a note"])
    assert list(out)[:6] == ["model", "gpu", "mode", "parameters", "plan", "pipeline_stage"]
    assert out["mode"] == "train" and out["plan"]["zero"] == 3 and out["max_micro_batch"] == r.max_micro_batch
    assert out["min_gpus"]["gpus"] == r.fewest.gpus and out["would_fit"] == ["--zero 3"]
    s = capplan.serving_memory_report("llama2-7b", shape, cat.find_gpu("rtx-4090"),
                                      capplan.InferenceConfig(context=4096, sequences=8))
    sout = s.output()
    assert sout["mode"] == "serve" and sout["plan"]["context"] == 4096 and sout["max_batch"] == s.max_batch


def test_what_a_frameworks_layers_keep_changes_activation_memory():
    # Llama 3 70B's layer at 8,192 tokens, TP 4 with sequence parallelism (the C++ test's figures).
    shape = capplan.find_model("llama3-70b").transformer()
    paper = capplan.ActivationOptions(tensor_parallel=4, sequence_parallel=True, flash_attention=True)
    mcore = capplan.ActivationOptions(tensor_parallel=4, sequence_parallel=True, flash_attention=True,
                                      dropout=False, fused_activation=True,
                                      linear_input_bytes=capplan.saved_linear_input_bytes("fp8", "current"))
    kept = capplan.activation_memory_per_layer(shape, 1, 8192, paper)
    assert kept.value == pytest.approx(713e6, rel=0.002)
    assert capplan.activation_memory_per_layer(shape, 1, 8192, mcore).value == pytest.approx(486.5e6, rel=0.002)
    assert capplan.saved_linear_input_bytes("bf16", "delayed") == 0
    assert capplan.saved_linear_input_bytes("fp8", "mxfp8") == pytest.approx(1 + 1 / 32)
    with pytest.raises(capplan.InputError, match="linear_input_bytes"):
        capplan.activation_memory_per_layer(shape, 1, 8192, capplan.ActivationOptions(linear_input_bytes=0.0))


def test_frozen_weights_keep_no_inputs_for_weight_gradients():
    # Llama 3.1 8B, eager PyTorch, 4 x 2,048 tokens (the C++ test's figures; measured on one H200, 2026-12-04).
    shape = capplan.find_model("llama3.1-8b").transformer()
    full = capplan.ActivationOptions(flash_attention=True, eager=True)
    lora = capplan.ActivationOptions(flash_attention=True, eager=True, finetune=capplan.FineTune.lora)
    h, q, kv, f = 4096, 4096, 1024, 14336
    per_token = (4 + 4) * h + 4 * q + 4 * kv + 3 * 2 * h + 2 * q + 6 * f + 4 * 2 * 16
    assert capplan.activation_memory_per_layer(shape, 4, 2048, lora).value == pytest.approx(8192 * per_token)
    assert capplan.activation_memory_per_layer(shape, 4, 2048, full).value > capplan.activation_memory_per_layer(shape, 4, 2048, lora).value
    mlp = capplan.ActivationOptions(flash_attention=True, eager=True, finetune=capplan.FineTune.lora,
                                    lora=capplan.LoraOptions(rank=16, mlp=True))
    assert capplan.activation_memory_per_layer(shape, 4, 2048, mlp).value == pytest.approx(8192 * (per_token + 4 * h + 2 * f + 3 * 2 * 16))
    with pytest.raises(capplan.InputError, match="lora.rank"):
        capplan.activation_memory_per_layer(shape, 4, 2048, capplan.ActivationOptions(finetune=capplan.FineTune.lora,
                                                                                      lora=capplan.LoraOptions(rank=0)))


def test_megatron_core_keeps_less_than_the_paper_counts():
    shape = capplan.find_model("llama3-70b").transformer()
    paper = TrainingConfig(flash_attention=True, plan=ParallelPlan(tp=4, sequence_parallel=True))
    mcore = TrainingConfig(flash_attention=True, plan=ParallelPlan(tp=4, sequence_parallel=True),
                           dropout=False, fused_activation=True, linear_input_bytes=1.0)
    assert capplan.Framework.megatron_core().fused_activation
    assert not capplan.Framework().dropout
    assert capplan.training_budget(shape, mcore).total() < capplan.training_budget(shape, paper).total()


def test_apply_framework_and_precision_set_what_memory_reads():
    cfg = TrainingConfig()
    mcore = capplan.Framework.megatron_core()
    capplan.apply_framework(cfg, mcore)
    capplan.apply_precision(cfg, mcore, "fp8", "current")
    assert cfg.fused_activation and not cfg.dropout and cfg.linear_input_bytes == 1
    fsdp = capplan.Framework.pytorch_fsdp()  # FP8 through torchao keeps 16-bit inputs
    capplan.apply_precision(cfg, fsdp, "fp8", "current")
    assert cfg.linear_input_bytes == 0
