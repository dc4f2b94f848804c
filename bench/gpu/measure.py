#!/usr/bin/env python3
"""Measure one NVIDIA GPU the way capplan predicts it, for capplan's in-house validation rows.

Runs on a machine with PyTorch (CUDA), torchvision and timm; capplan itself is not needed there. Every
section times real kernels on random data (never zeros), takes medians with CUDA events, and writes
what it found to $OUT/measure.json (or ./measure.json) as soon as the section ends, so a run cut short
keeps what it measured. nvidia-smi samples power and clocks in the background the whole time
($OUT/smi.csv); each section records its start and end on the same clock.

Sections (each one's figures are what capplan predicts, see docs/validation.md, "Measured in-house"):
  info        device name, SMs, memory, power limit and clocks as nvidia-smi reports them
  bandwidth   device-to-device copy and a read-modify-write, bytes read + written per second
  gemm        BF16 matrix products: squares, a fine sweep across wave boundaries, the GEMMs of
              Llama 3.1 8B training and decode; FP16, TF32 and FP8 (torch._scaled_mm) at a few sizes
  sustained   40 s of back-to-back 8192^3 BF16 products: rate per second with power and SM clock
  attention   fused attention (PyTorch's flash and cuDNN back ends), forward and backward
  llm_train   training steps of Llama-3.2-1B- and GPT-2-shaped models written out here, PyTorch AMP
              (autocast BF16, fp32 weights, fused AdamW): step time, tokens/s, peak memory
  decode      Llama-3.1-8B-shaped decoding with a static KV cache under a CUDA graph, batch 1-64;
              prefill of a 2,048-token prompt
  image       ViT-B/16, ViT-L/16 (timm) and ResNet-50 (torchvision): AMP BF16 training (SGD, as timm's
              benchmark script) and inference, images/s and peak memory

Run only when named (python3 bench/gpu/measure.py info SECTION ...): host_launch, conv_layers, image_profile,
prefill_sweep, fp8_scaling, grouped_mm, holdout_eager, holdout_resnet, fp8_blockwise_2d, and
  finetune           Hugging Face-shaped Llama 3.2 1B and 3.1 8B fine-tuning steps: full, LoRA (PEFT-style
                     adapters beside frozen BF16 weights) and, where bitsandbytes is installed, QLoRA;
                     with and without gradient checkpointing
  finetune_holdout   the same on other shapes, 4,096 tokens and other ranks, held out from the memory accounting
  finetune_peft      LoRA through Hugging Face PEFT itself (get_peft_model), the shapes of the two above
  int4_gemv          weight-only INT4 (tinygemm, group 128) decode products at Llama 3.1 8B's shapes vs BF16
  sustained_kernels  each kernel alone under minutes of load (BF16 GEMMs, cuDNN and flash attention) and a
                     mixed load of a Llama 3.1 8B layer's GEMMs and attention: rate per window, with the
                     clocks from the nvidia-smi log (how far the power cap lowers each kind's rate)
  sustained_steps    the mixed load with FP8 GEMMs, with the layer's bytes-bound kernels, and a whole eager
                     Llama-3.2-1B training step over 50 s against its 8-step median
  sustained_layer    a whole training step's mix of one Llama 3.1 8B layer (forward and backward GEMMs,
                     attention, bytes-bound kernels) for 60 s, against each kind's rate on a cool GPU

Nothing here changes the card's clocks, power limit or modes.
"""
import json
import math
import os
import subprocess
import sys
import time
import traceback

import torch
import torch.nn as nn
import torch.nn.functional as F

OUT = os.environ.get("OUT") or "."
RESULTS = {"started": time.time(), "sections": {}}
ONLY = set(sys.argv[1:])


def save():
    with open(os.path.join(OUT, "measure.json"), "w") as f:
        json.dump(RESULTS, f, indent=1)


def section(name):
    def wrap(fn):
        if ONLY and name not in ONLY:
            return fn
        t0 = time.time()
        print(f"== {name}", flush=True)
        try:
            data = fn()
            RESULTS["sections"][name] = {"start": t0, "end": time.time(), "data": data}
        except Exception as e:  # keep going: the other sections still measure
            traceback.print_exc()
            RESULTS["sections"][name] = {"start": t0, "end": time.time(), "error": repr(e)}
        try:
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
        except Exception:
            traceback.print_exc()
        print(f"   {name}: {time.time() - t0:.1f} s", flush=True)
        save()
        return fn
    return wrap


def median_ms(fn, warmup=3, iters=10):
    """Median time of fn() in ms, CUDA events around each call."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    times.sort()
    return times[len(times) // 2]


try:
    from triton.testing import do_bench as _do_bench

    def bench_ms(fn):
        return float(_do_bench(fn, warmup=25, rep=100, return_mode="median"))
except Exception:  # no Triton: plain events (no L2 flush between calls)
    def bench_ms(fn):
        return median_ms(fn, warmup=5, iters=30)


def smi(query):
    try:
        out = subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=20).stdout.strip()
        return dict(zip(query.split(","), [x.strip() for x in out.split(",")]))
    except Exception as e:
        return {"error": repr(e)}


smi_log = None
try:
    smi_log = subprocess.Popen(
        ["nvidia-smi", "--query-gpu=timestamp,power.draw,clocks.sm,clocks.mem,temperature.gpu,utilization.gpu",
         "--format=csv,nounits", "-lms", "250"],
        stdout=open(os.path.join(OUT, "smi.csv"), "w"), stderr=subprocess.DEVNULL)
except Exception:
    pass

dev = torch.device("cuda")
torch.manual_seed(0)


@section("info")
def info():
    p = torch.cuda.get_device_properties(0)
    return {
        "name": p.name, "sms": p.multi_processor_count, "memory_bytes": p.total_memory,
        "l2_bytes": getattr(p, "L2_cache_size", None), "torch": torch.__version__, "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version(), "time_offset_s": time.time() - time.monotonic(),
        "smi": smi("name,driver_version,power.limit,power.default_limit,power.max_limit,clocks.max.sm,"
                   "clocks.max.mem,clocks.sm,memory.total,pcie.link.gen.max,pcie.link.width.max"),
    }


@section("bandwidth")
def bandwidth():
    n = 1 << 30  # 1 Gi bf16 values: 2 GiB per buffer, far beyond L2
    x = torch.randn(n, device=dev, dtype=torch.bfloat16)
    y = torch.empty_like(x)
    copy_ms = median_ms(lambda: y.copy_(x), iters=20)
    axpy_ms = median_ms(lambda: y.mul_(1.0001).add_(x), iters=20)  # two passes: read y, write y; read x, y, write y
    read_ms = median_ms(lambda: torch.sum(x, dtype=torch.float32), iters=20)
    b = 2 * n
    return {"copy_bytes_per_s": 2 * b / (copy_ms / 1e3), "read_bytes_per_s": b / (read_ms / 1e3),
            "mul_add_bytes_per_s": 5 * b / (axpy_ms / 1e3)}


def gemm_rate(m, n, k, dtype=torch.bfloat16):
    a = torch.randn(m, k, device=dev, dtype=dtype)
    b = torch.randn(k, n, device=dev, dtype=dtype)
    ms = bench_ms(lambda: torch.matmul(a, b))
    return {"m": m, "n": n, "k": k, "ms": ms, "tflops": 2 * m * n * k / (ms / 1e3) / 1e12}


@section("gemm")
def gemm():
    rows = {"square": [], "wave": [], "llama8b": [], "decode": [], "other_precisions": []}
    for s in (256, 512, 1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384):
        rows["square"].append(gemm_rate(s, s, s))
    # M = 2048 (16 row tiles of 128), K = 4096; N from 1,024 to 8,448 in steps of 128 crosses the
    # 132-SM wave boundaries of 128x128 and 128x256 tiles several times.
    for nn_ in range(1024, 8448 + 1, 128):
        rows["wave"].append(gemm_rate(2048, nn_, 4096))
    # Llama 3.1 8B training, micro-batch 1 x 8,192 tokens: forward (tokens x in -> out) and the two
    # backward products (dgrad: tokens x out -> in; wgrad: in x tokens -> out).
    t = 8192
    for name, k_, n_ in (("qkv", 4096, 6144), ("o", 4096, 4096), ("gate_up", 4096, 28672), ("down", 14336, 4096),
                         ("lm_head", 4096, 128256)):
        rows["llama8b"].append(dict(gemm_rate(t, n_, k_), layer=name, pass_="forward"))
        rows["llama8b"].append(dict(gemm_rate(t, k_, n_), layer=name, pass_="dgrad"))
        rows["llama8b"].append(dict(gemm_rate(k_, n_, t), layer=name, pass_="wgrad"))
    # Decode-sized products: a few token rows against a weight (memory-bound).
    for m in (1, 8, 32, 64, 128, 256):
        for k_, n_ in ((4096, 6144), (4096, 28672), (14336, 4096)):
            r = gemm_rate(m, n_, k_)
            r["weight_bytes_per_s"] = 2 * k_ * n_ / (r["ms"] / 1e3)
            rows["decode"].append(r)
    for s in (4096, 8192):
        rows["other_precisions"].append(dict(gemm_rate(s, s, s, torch.float16), precision="fp16"))
        torch.backends.cuda.matmul.allow_tf32 = True
        rows["other_precisions"].append(dict(gemm_rate(s, s, s, torch.float32), precision="tf32"))
        torch.backends.cuda.matmul.allow_tf32 = False
        rows["other_precisions"].append(dict(gemm_rate(s, s, s, torch.float32), precision="fp32"))
    try:
        for s in (4096, 8192, 16384):
            a = torch.randn(s, s, device=dev).to(torch.float8_e4m3fn)
            bt = torch.randn(s, s, device=dev).to(torch.float8_e4m3fn)
            one = torch.tensor(1.0, device=dev)
            ms = bench_ms(lambda: torch._scaled_mm(a, bt.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16))
            rows["other_precisions"].append({"m": s, "n": s, "k": s, "ms": ms, "precision": "fp8",
                                             "tflops": 2 * s ** 3 / (ms / 1e3) / 1e12})
    except Exception as e:
        rows["fp8_error"] = repr(e)
    return rows


@section("sustained")
def sustained():
    s = 8192
    a = torch.randn(s, s, device=dev, dtype=torch.bfloat16)
    b = torch.randn(s, s, device=dev, dtype=torch.bfloat16)
    c = torch.empty(s, s, device=dev, dtype=torch.bfloat16)
    flops = 2 * s ** 3
    windows = []
    t_end = time.time() + 40
    per = 700  # about a second of work per window; power and clocks come from the background log
    while time.time() < t_end:
        e0 = torch.cuda.Event(enable_timing=True)
        e1 = torch.cuda.Event(enable_timing=True)
        e0.record()
        for _ in range(per):
            torch.matmul(a, b, out=c)
        e1.record()
        e1.synchronize()
        ms = e0.elapsed_time(e1)
        windows.append({"t": time.time(), "tflops": per * flops / (ms / 1e3) / 1e12})
    return {"windows": windows, "smi_after": smi("power.draw,clocks.sm,temperature.gpu")}


def attention_flops(b, h, s, d, causal):
    f = 4 * b * h * s * s * d
    return f / 2 if causal else f


@section("attention")
def attention():
    from torch.nn.attention import SDPBackend, sdpa_kernel
    rows = []
    tokens = 16384
    for backend_name, backend in (("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION)):
        for d, heads in ((128, 16), (64, 32)):
            for s in (1024, 2048, 4096, 8192, 16384):
                for causal in (True, False):
                    b = max(1, tokens // s)
                    q, k, v = (torch.randn(b, heads, s, d, device=dev, dtype=torch.bfloat16, requires_grad=True)
                               for _ in range(3))
                    g = torch.randn(b, heads, s, d, device=dev, dtype=torch.bfloat16)
                    row = {"backend": backend_name, "head_dim": d, "heads": heads, "seq": s, "batch": b, "causal": causal}
                    try:
                        with sdpa_kernel([backend]):
                            fwd = bench_ms(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal))
                            o = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                            bwd = bench_ms(lambda: torch.autograd.grad(o, (q, k, v), g, retain_graph=True))
                        fl = attention_flops(b, heads, s, d, causal)
                        row.update(fwd_ms=fwd, bwd_ms=bwd, fwd_tflops=fl / (fwd / 1e3) / 1e12,
                                   bwd_tflops=2.5 * fl / (bwd / 1e3) / 1e12)
                    except Exception as e:
                        row["error"] = repr(e)[:300]
                    rows.append(row)
                    del q, k, v, g
    return rows


# ---- a decoder-only transformer written out, so that its shape is exactly what capplan is given ----

class Norm(nn.Module):
    def __init__(self, h, rms):
        super().__init__()
        self.rms = rms
        self.weight = nn.Parameter(torch.ones(h))
        self.bias = None if rms else nn.Parameter(torch.zeros(h))

    def forward(self, x):
        if not self.rms:
            return F.layer_norm(x, x.shape[-1:], self.weight, self.bias)
        xf = x.float()
        return self.weight * (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-5)).to(x.dtype)


GQA_NATIVE = None


def attend(q, k, v):
    """Causal attention with grouped K/V heads: a fused kernel that takes GQA natively when one does
    (flash, cuDNN or memory-efficient; never the unfused math path), else K and V repeated per group."""
    global GQA_NATIVE
    from torch.nn.attention import SDPBackend, sdpa_kernel
    fused = [SDPBackend.FLASH_ATTENTION, SDPBackend.CUDNN_ATTENTION, SDPBackend.EFFICIENT_ATTENTION]
    groups = q.shape[-3] // k.shape[-3]
    if groups > 1 and GQA_NATIVE is None:
        try:
            t = torch.randn(1, 8, 256, 64, device=dev, dtype=torch.bfloat16)
            with sdpa_kernel(fused):
                F.scaled_dot_product_attention(t, t[:, :2], t[:, :2], is_causal=True, enable_gqa=True)
            GQA_NATIVE = True
        except Exception:
            GQA_NATIVE = False
        RESULTS["gqa_native"] = GQA_NATIVE
    if groups > 1 and not GQA_NATIVE:
        k = k.repeat_interleave(groups, dim=-3)
        v = v.repeat_interleave(groups, dim=-3)
    with sdpa_kernel(fused):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=groups > 1 and GQA_NATIVE)


def rope(x, cos, sin):
    x1, x2 = x.chunk(2, dim=-1)
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        h, self.heads, self.kv = cfg["hidden"], cfg["heads"], cfg["kv_heads"]
        self.d = h // self.heads
        self.llama = cfg["llama"]
        bias = not self.llama
        self.n1 = Norm(h, self.llama)
        self.n2 = Norm(h, self.llama)
        self.qkv = nn.Linear(h, (self.heads + 2 * self.kv) * self.d, bias=bias)
        self.o = nn.Linear(h, h, bias=bias)
        f = cfg["ffn"]
        self.up = nn.Linear(h, 2 * f if self.llama else f, bias=bias)
        self.down = nn.Linear(f, h, bias=bias)

    def forward(self, x, cos, sin):
        b, s, h = x.shape
        qkv = self.qkv(self.n1(x)).view(b, s, self.heads + 2 * self.kv, self.d).transpose(1, 2)
        q, k, v = qkv.split([self.heads, self.kv, self.kv], dim=1)
        if self.llama:
            q, k = rope(q, cos, sin), rope(k, cos, sin)
        a = attend(q, k, v)
        x = x + self.o(a.transpose(1, 2).reshape(b, s, h))
        u = self.up(self.n2(x))
        if self.llama:
            g, u = u.chunk(2, dim=-1)
            u = F.silu(g) * u
        else:
            u = F.gelu(u, approximate="tanh")
        return x + self.down(u)


class Decoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        h = cfg["hidden"]
        self.emb = nn.Embedding(cfg["vocab"], h)
        self.pos = None if cfg["llama"] else nn.Embedding(cfg["seq"], h)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg["layers"]))
        self.norm = Norm(h, cfg["llama"])
        self.head = nn.Linear(h, cfg["vocab"], bias=False)
        if cfg["tied"]:
            self.head.weight = self.emb.weight
        d = h // cfg["heads"]
        inv = 1.0 / (500000.0 ** (torch.arange(0, d, 2).float() / d))
        ang = torch.outer(torch.arange(cfg["seq"]).float(), inv)
        ang = torch.cat((ang, ang), dim=-1)
        self.register_buffer("cos", ang.cos(), persistent=False)
        self.register_buffer("sin", ang.sin(), persistent=False)

    def forward(self, idx, targets):
        s = idx.shape[1]
        x = self.emb(idx)
        if self.pos is not None:
            x = x + self.pos.weight[:s]
        cos, sin = self.cos[:s].to(torch.bfloat16), self.sin[:s].to(torch.bfloat16)
        for blk in self.blocks:
            x = blk(x, cos, sin)
        logits = self.head(self.norm(x))
        return F.cross_entropy(logits.float().view(-1, logits.shape[-1]), targets.view(-1))


LLAMA32_1B = {"name": "llama3.2-1b", "hidden": 2048, "layers": 16, "heads": 32, "kv_heads": 8, "ffn": 8192,
              "vocab": 128256, "seq": 2048, "llama": True, "tied": True}
GPT2_124M = {"name": "gpt2-124m", "hidden": 768, "layers": 12, "heads": 12, "kv_heads": 12, "ffn": 3072,
             "vocab": 50304, "seq": 1024, "llama": False, "tied": True}


def train_step(cfg, micro_batch):
    """One eager AMP training step of `cfg` (autocast BF16, fp32 weights, fused AdamW) on random tokens, and
    the model's parameter count."""
    with torch.device(dev):  # initialised on the GPU: seconds, not minutes, for a billion parameters
        model = Decoder(cfg)
    params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    s = cfg["seq"]
    idx = torch.randint(0, cfg["vocab"], (micro_batch, s), device=dev)
    tgt = torch.randint(0, cfg["vocab"], (micro_batch, s), device=dev)

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(idx, tgt)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return step, params


def train_steps(cfg, micro_batch, steps=8):
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    step, params = train_step(cfg, micro_batch)
    s = cfg["seq"]
    row = {"model": cfg["name"], "micro_batch": micro_batch, "seq": s, "params": params}
    try:
        ms = median_ms(step, warmup=3, iters=steps)
        row.update(step_ms=ms, tokens_per_s=micro_batch * s / (ms / 1e3),
                   peak_allocated_bytes=torch.cuda.max_memory_allocated(),
                   peak_reserved_bytes=torch.cuda.max_memory_reserved())
    except torch.OutOfMemoryError as e:
        row.update(oom=True, error=str(e)[:200])
    del step  # the model and optimizer with it
    return row


@section("llm_train")
def llm_train():
    rows = []
    for mb in (2, 4, 8, 16):
        rows.append(train_steps(LLAMA32_1B, mb))
        if rows[-1].get("oom"):
            break
    for mb in (8, 16, 32):
        rows.append(train_steps(GPT2_124M, mb))
    return rows


# ---- decoding: Llama 3.1 8B's shapes, random BF16 weights, static KV cache, one CUDA graph per batch ----

def run_decode(ctx, batches, prefills):
    h, L, heads, kv, f, V, d = 4096, 32, 32, 8, 14336, 128256, 128
    bf = torch.bfloat16

    def w(*shape):
        return torch.randn(*shape, device=dev, dtype=bf) * 0.02

    layers = [dict(n1=torch.ones(h, device=dev, dtype=bf), qkv=w(h, (heads + 2 * kv) * d), o=w(h, h),
                   n2=torch.ones(h, device=dev, dtype=bf), gu=w(h, 2 * f), down=w(f, h)) for _ in range(L)]
    emb, lm, nf = w(V, h), w(h, V), torch.ones(h, device=dev, dtype=bf)

    def rms(x, g):
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-5)).to(bf) * g

    rows = []
    for batch in batches:
        kc = [torch.randn(batch, kv, ctx, d, device=dev, dtype=bf) for _ in range(L)]
        vc = [torch.randn(batch, kv, ctx, d, device=dev, dtype=bf) for _ in range(L)]
        tok = torch.randint(0, V, (batch,), device=dev)
        pos = torch.tensor([ctx - 1], device=dev)
        cos = torch.randn(1, 1, d, device=dev, dtype=bf)
        sin = torch.randn(1, 1, d, device=dev, dtype=bf)

        def step():
            x = emb[tok]
            for i, ly in enumerate(layers):
                qkv = rms(x, ly["n1"]) @ ly["qkv"]
                q = qkv[:, : heads * d].view(batch, heads, d)
                k = qkv[:, heads * d: (heads + kv) * d].view(batch, kv, 1, d)
                v = qkv[:, (heads + kv) * d:].view(batch, kv, 1, d)
                q, k = rope(q, cos, sin), rope(k, cos, sin)
                kc[i].index_copy_(2, pos, k)
                vc[i].index_copy_(2, pos, v)
                qg = q.view(batch, kv, heads // kv, d)
                sc = torch.softmax((qg @ kc[i].transpose(-1, -2)).float() * (d ** -0.5), dim=-1).to(bf)
                a = (sc @ vc[i]).reshape(batch, h)
                x = x + a @ ly["o"]
                g, u = (rms(x, ly["n2"]) @ ly["gu"]).chunk(2, dim=-1)
                x = x + (F.silu(g) * u) @ ly["down"]
            return torch.argmax(rms(x, nf) @ lm, dim=-1)

        with torch.no_grad():
            eager = median_ms(step, warmup=2, iters=10) if batch in (batches[0], batches[-1]) else None
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                for _ in range(3):
                    step()
            torch.cuda.current_stream().wait_stream(s)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                step()
            graphed = median_ms(graph.replay, warmup=3, iters=30)
        rows.append({"batch": batch, "context": ctx, "graph_ms": graphed, "eager_ms": eager,
                     "tokens_per_s": batch / (graphed / 1e3)})
        del kc, vc, graph
        torch.cuda.empty_cache()

    # Prefill: one 2,048-token prompt through the same weights (eager; causal flash attention).
    def prefill(S=2048):
        x = emb[torch.randint(0, V, (S,), device=dev)]
        cos = torch.randn(1, S, d, device=dev, dtype=bf)
        sin = torch.randn(1, S, d, device=dev, dtype=bf)
        for ly in layers:
            qkv = rms(x, ly["n1"]) @ ly["qkv"]
            q = qkv[:, : heads * d].view(S, heads, d).transpose(0, 1)
            k = qkv[:, heads * d: (heads + kv) * d].view(S, kv, d).transpose(0, 1)
            v = qkv[:, (heads + kv) * d:].view(S, kv, d).transpose(0, 1)
            q, k = rope(q, cos, sin), rope(k, cos, sin)
            a = attend(q.unsqueeze(0), k.unsqueeze(0), v.unsqueeze(0))
            x = x + a[0].transpose(0, 1).reshape(S, h) @ ly["o"]
            g, u = (rms(x, ly["n2"]) @ ly["gu"]).chunk(2, dim=-1)
            x = x + (F.silu(g) * u) @ ly["down"]
        return torch.argmax(rms(x[-1:], nf) @ lm, dim=-1)

    with torch.no_grad():
        pre = {p: median_ms(lambda: prefill(p), warmup=2, iters=5) for p in prefills}
    return {"rows": rows, "prefill_ms": pre}


@section("decode")
def decode():
    return run_decode(2048, (1, 8, 32, 64), (512, 2048, 8192))


# ---- image models (timm's benchmark script's way: AMP, channels_last, synthetic data, SGD) ----

@section("image")
def image():
    import timm
    import torchvision
    torch.backends.cudnn.benchmark = True
    rows = []
    for name, make, batches in (("vit-b16", lambda: timm.create_model("vit_base_patch16_224"), (128, 256)),
                                ("vit-l16", lambda: timm.create_model("vit_large_patch16_224"), (64, 128)),
                                ("resnet50", lambda: torchvision.models.resnet50(), (128, 256))):
        for batch in batches:
            torch.cuda.empty_cache()
            torch.cuda.reset_peak_memory_stats()
            model = make().to(dev).to(memory_format=torch.channels_last)
            opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
            x = torch.randn(batch, 3, 224, 224, device=dev).to(memory_format=torch.channels_last)
            y = torch.randint(0, 1000, (batch,), device=dev)

            def train():
                with torch.autocast("cuda", dtype=torch.bfloat16):
                    loss = F.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
                opt.zero_grad(set_to_none=True)

            row = {"model": name, "batch": batch}
            try:
                ms = median_ms(train, warmup=5, iters=10)
                row.update(train_ms=ms, train_images_per_s=batch / (ms / 1e3),
                           train_peak_allocated_bytes=torch.cuda.max_memory_allocated())
                model.eval()
                with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
                    ims = median_ms(lambda: model(x), warmup=5, iters=10)
                row.update(infer_ms=ims, infer_images_per_s=batch / (ims / 1e3))
            except torch.OutOfMemoryError as e:
                row.update(oom=True, error=str(e)[:200])
            rows.append(row)
            del model, opt, x
    return rows


# ---- held out: shapes and plans chosen after capplan's eager framework was written, run only when named
# (python3 bench/gpu/measure.py info holdout_train holdout_decode) ----

QWEN25_05B = {"name": "qwen2.5-0.5b", "hidden": 896, "layers": 24, "heads": 14, "kv_heads": 2, "ffn": 4864,
              "vocab": 151936, "seq": 4096, "llama": True, "tied": True}
LLAMA32_3B = {"name": "llama3.2-3b", "hidden": 3072, "layers": 28, "heads": 24, "kv_heads": 8, "ffn": 8192,
              "vocab": 128256, "seq": 2048, "llama": True, "tied": True}
GPT2_350M = {"name": "gpt2-350m", "hidden": 1024, "layers": 24, "heads": 16, "kv_heads": 16, "ffn": 4096,
             "vocab": 50304, "seq": 1024, "llama": False, "tied": True}


def holdout_train():
    rows = []
    for cfg, batches in ((QWEN25_05B, (1, 2, 4)), (LLAMA32_3B, (1, 2)), (GPT2_350M, (4, 16))):
        for mb in batches:
            rows.append(train_steps(cfg, mb))
            if rows[-1].get("oom"):
                break
    return rows


def holdout_decode():
    return run_decode(8192, (1, 16), (4096,))


if ONLY:
    section("holdout_train")(holdout_train)
    section("holdout_decode")(holdout_decode)

# ---- run only when named (second lease, 2026-11-29): where the time of ResNet-50, ViT, eager prefill and
# FP8 goes, kernel by kernel, for the rows capplan still misses (docs/validation.md, "Measured in-house").
#   python3 bench/gpu/measure.py info host_launch conv_layers image_profile prefill_sweep fp8_scaling grouped_mm

def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def host_launch():
    """Host time per kernel launch from Python, the GPU idle: a tiny in-place op back to back, under
    no_grad (inference) and with autograd recording (training's forward)."""
    x = torch.randn(16, device=dev)
    w = torch.randn(16, device=dev, requires_grad=True)
    out = {"cpu": cpu_name(), "cpus": os.cpu_count()}
    for name, fn in (("add_no_grad", lambda: x.add_(1.0)),
                     ("mul_autograd", lambda: w * 1.0001),
                     ("matmul_no_grad", lambda: torch.matmul(x.view(4, 4), x.view(4, 4))),
                     ("linear_no_grad", lambda: F.linear(x.view(4, 4), x.view(4, 4)))):
        ctx = torch.no_grad() if name.endswith("no_grad") else torch.enable_grad()
        with ctx:
            for _ in range(200):
                fn()
            torch.cuda.synchronize()
            n = 5000
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            t1 = time.perf_counter()
            torch.cuda.synchronize()
        out[name + "_us"] = (t1 - t0) / n * 1e6
    return out


def resnet50_convs():
    """Each distinct convolution of torchvision's ResNet-50 at 224 x 224: (in channels, in height, in width,
    out channels, kernel, stride, padding) -> how many times it occurs."""
    import torchvision
    model = torchvision.models.resnet50()
    shapes = {}

    def hook(mod, inp, _out):
        x = inp[0]
        key = (x.shape[1], x.shape[2], x.shape[3], mod.out_channels, mod.kernel_size[0], mod.stride[0], mod.padding[0])
        shapes[key] = shapes.get(key, 0) + 1
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            m.register_forward_hook(hook)
    with torch.no_grad():
        model.eval()(torch.randn(1, 3, 224, 224))
    return shapes


def conv_layers():
    """Every ResNet-50 convolution shape, channels_last BF16 as AMP runs it: forward, data gradient and
    weight gradient (aten's convolution_backward, one output each), and the batch norm + ReLU after it
    (training mode, forward and backward)."""
    torch.backends.cudnn.benchmark = True
    rows = []
    bf = torch.bfloat16
    for batch in (128, 256):
        for (cin, hin, win, cout, k, stride, pad), count in resnet50_convs().items():
            cl = torch.channels_last
            x = torch.randn(batch, cin, hin, win, device=dev, dtype=bf).to(memory_format=cl)
            w = (torch.randn(cout, cin, k, k, device=dev, dtype=bf) * 0.05).to(memory_format=cl)
            y = F.conv2d(x, w, stride=stride, padding=pad)
            gy = torch.randn_like(y)
            flops = 2 * batch * y.shape[2] * y.shape[3] * cout * cin * k * k
            row = {"batch": batch, "cin": cin, "h": hin, "w": win, "cout": cout, "kernel": k, "stride": stride,
                   "padding": pad, "count": count, "hout": y.shape[2], "wout": y.shape[3], "flops": flops}

            def bwd(mask):
                return torch.ops.aten.convolution_backward(gy, x, w, None, [stride, stride], [pad, pad], [1, 1],
                                                           False, [0, 0], 1, mask)
            try:
                row["fwd_ms"] = bench_ms(lambda: F.conv2d(x, w, stride=stride, padding=pad))
                row["dgrad_ms"] = bench_ms(lambda: bwd([True, False, False])) if cin > 3 else None
                row["wgrad_ms"] = bench_ms(lambda: bwd([False, True, False]))
                g = torch.ones(cout, device=dev, requires_grad=True)
                b = torch.zeros(cout, device=dev, requires_grad=True)
                yr = y.detach().requires_grad_(True)

                def bn_relu():
                    return F.relu(F.batch_norm(yr, None, None, g, b, training=True))
                row["bn_relu_fwd_ms"] = bench_ms(bn_relu)
                o = bn_relu()
                row["bn_relu_bwd_ms"] = bench_ms(lambda: torch.autograd.grad(o, (yr, g, b), gy, retain_graph=True))
                row["out_bytes"] = y.numel() * y.element_size()
            except Exception as e:
                row["error"] = repr(e)[:300]
            rows.append(row)
            del x, w, y, gy
    return rows


def kernel_table(prof, top=60):
    """The profile's GPU kernels by total time, and the aten ops that launched GPU work."""
    kernels, ops = [], []
    for e in prof.key_averages():
        dev_self = getattr(e, "self_device_time_total", None)
        if dev_self is None:
            dev_self = getattr(e, "self_cuda_time_total", 0)
        dev_total = getattr(e, "device_time_total", None)
        if dev_total is None:
            dev_total = getattr(e, "cuda_time_total", 0)
        is_kernel = str(getattr(e, "device_type", "")).endswith("CUDA")
        if is_kernel and dev_self > 0:
            kernels.append({"name": e.key[:160], "count": e.count, "us": dev_self})
        elif e.key.startswith("aten::") and dev_total > 0:
            ops.append({"name": e.key, "count": e.count, "device_us": dev_total,
                        "cpu_us": getattr(e, "cpu_time_total", 0)})
    kernels.sort(key=lambda r: -r["us"])
    ops.sort(key=lambda r: -r["device_us"])
    return {"kernels": kernels[:top], "kernel_count": sum(k["count"] for k in kernels),
            "kernel_us": sum(k["us"] for k in kernels), "ops": ops[:top]}


def image_profile():
    """One profiled training step (after warm-up) of ResNet-50 and ViT-B/16 as the image section runs
    them: where the GPU's time goes, kernel by kernel."""
    import timm
    import torchvision
    from torch.profiler import ProfilerActivity, profile
    torch.backends.cudnn.benchmark = True
    out = []
    for name, make, batch in (("resnet50", lambda: torchvision.models.resnet50(), 256),
                              ("vit-b16", lambda: timm.create_model("vit_base_patch16_224"), 256)):
        torch.cuda.empty_cache()
        model = make().to(dev).to(memory_format=torch.channels_last)
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        x = torch.randn(batch, 3, 224, 224, device=dev).to(memory_format=torch.channels_last)
        y = torch.randint(0, 1000, (batch,), device=dev)

        def train():
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        ms = median_ms(train, warmup=5, iters=10)
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for _ in range(3):
                train()
            torch.cuda.synchronize()
        t = kernel_table(prof)
        for k in ("kernel_us",):
            t[k] /= 3
        for r in t["kernels"] + t["ops"]:
            for k in ("us", "device_us", "cpu_us", "count"):
                if k in r:
                    r[k] /= 3
        t["kernel_count"] /= 3
        out.append({"model": name, "batch": batch, "step_ms": ms, **t})
        del model, opt, x
    return out


def llama_weights(h, L, heads, kv, f, V):
    bf = torch.bfloat16

    def w(*shape):
        return torch.randn(*shape, device=dev, dtype=bf) * 0.02
    layers = [dict(n1=torch.ones(h, device=dev, dtype=bf), qkv=w(h, (heads + 2 * kv) * h // heads), o=w(h, h),
                   n2=torch.ones(h, device=dev, dtype=bf), gu=w(h, 2 * f), down=w(f, h)) for _ in range(L)]
    return layers, w(V, h), w(h, V), torch.ones(h, device=dev, dtype=bf)


def prefill_sweep():
    """Prefill of one prompt, eager (each kernel launched from Python, as the decode section's prefill)
    and replayed as a CUDA graph (the GPU's own time), with the number of kernels one prefill launches:
    Llama-3.2-1B and Llama-3.1-8B shapes, prompts of 16 to 8,192 tokens."""
    from torch.profiler import ProfilerActivity, profile
    bf = torch.bfloat16
    rows = []
    for mname, (h, L, heads, kv, f, V) in (("llama3.2-1b", (2048, 16, 32, 8, 8192, 128256)),
                                           ("llama3.1-8b", (4096, 32, 32, 8, 14336, 128256))):
        prefill, decoder, d = eager_forward(h, L, heads, kv, f, V)  # the code the held-out rows run too
        for S in (16, 64, 128, 256, 512, 1024, 2048, 4096, 8192):
            idx = torch.randint(0, V, (S,), device=dev)
            cos = torch.randn(1, S, d, device=dev, dtype=bf)
            sin = torch.randn(1, S, d, device=dev, dtype=bf)
            row = {"model": mname, "prompt": S}
            try:
                with torch.no_grad():
                    row["eager_ms"] = median_ms(lambda: prefill(idx, cos, sin), warmup=3, iters=9)
                    t0 = time.perf_counter()
                    for _ in range(3):
                        prefill(idx, cos, sin)
                    t_host = (time.perf_counter() - t0) / 3  # launches only, while the GPU may still run
                    torch.cuda.synchronize()
                    row["host_enqueue_ms"] = t_host * 1e3
                    with profile(activities=[ProfilerActivity.CUDA]) as prof:
                        prefill(idx, cos, sin)
                        torch.cuda.synchronize()
                    row["kernels"] = sum(e.count for e in prof.key_averages()
                                         if str(getattr(e, "device_type", "")).endswith("CUDA"))
                    s = torch.cuda.Stream()
                    s.wait_stream(torch.cuda.current_stream())
                    with torch.cuda.stream(s):
                        for _ in range(2):
                            prefill(idx, cos, sin)
                    torch.cuda.current_stream().wait_stream(s)
                    graph = torch.cuda.CUDAGraph()
                    with torch.cuda.graph(graph):
                        prefill(idx, cos, sin)
                    row["graph_ms"] = median_ms(graph.replay, warmup=3, iters=15)
                    del graph
            except Exception as e:
                row["error"] = repr(e)[:300]
            rows.append(row)
        del prefill, decoder  # their closures hold the weights
        torch.cuda.empty_cache()
    return rows


def fp8_scaling():
    """FP8 (e4m3) matrix products under each scaling torch._scaled_mm offers on this GPU: one scale per
    tensor, per row/column, and DeepSeek-V3's blocks (1 x 128 for activations, 128 x 128 for weights),
    against BF16 on the same shapes. Shapes: squares and Llama 3.1 8B's training GEMMs at 8,192 tokens."""
    rows = []
    f8 = torch.float8_e4m3fn
    for m, n, k in ((4096, 4096, 4096), (8192, 8192, 8192), (16384, 16384, 16384), (8192, 6144, 4096),
                    (8192, 4096, 4096), (8192, 28672, 4096), (8192, 4096, 14336)):
        a32 = torch.randn(m, k, device=dev)
        b32 = torch.randn(n, k, device=dev)
        a, b = a32.to(f8), b32.to(f8)
        ref = (a.float() @ b.float().t())
        fl = 2 * m * n * k
        bfa, bfb = a32.to(torch.bfloat16), b32.to(torch.bfloat16)
        row = {"m": m, "n": n, "k": k, "bf16_ms": bench_ms(lambda: bfa @ bfb.t())}
        variants = {
            "tensorwise": (torch.tensor(1.0, device=dev), torch.tensor(1.0, device=dev)),
            "rowwise": (torch.ones(m, 1, device=dev), torch.ones(1, n, device=dev)),
            "block_1x128_128x128": (torch.ones(m, k // 128, device=dev),
                                    torch.ones(n // 128, k // 128, device=dev)),
            "block_1x128_128x128_t": (torch.ones(k // 128, m, device=dev).t(),
                                      torch.ones(k // 128, n // 128, device=dev).t()),
            "block_1x128_1x128": (torch.ones(m, k // 128, device=dev), torch.ones(n, k // 128, device=dev)),
            "block_1x128_1x128_t": (torch.ones(k // 128, m, device=dev).t(), torch.ones(k // 128, n, device=dev).t()),
        }
        for vname, (sa, sb) in variants.items():
            try:
                sbt = sb if vname in ("tensorwise", "rowwise") else sb.t()  # as mat2 (K x N) is laid out

                def run():
                    return torch._scaled_mm(a, b.t(), scale_a=sa, scale_b=sbt, out_dtype=torch.bfloat16)
                o = run()
                err = float((o.float() - ref).norm() / ref.norm())
                ms = bench_ms(run)
                row[vname] = {"ms": ms, "tflops": fl / (ms / 1e3) / 1e12, "rel_err": err}
            except Exception as e:
                row[vname] = {"error": repr(e)[:240]}
        row["bf16_tflops"] = fl / (row["bf16_ms"] / 1e3) / 1e12
        rows.append(row)
        del a32, b32, a, b, ref, bfa, bfb
    # Quantization as unfused PyTorch does it (amax, scale, cast): an upper bound on a fused quantizer.
    x = torch.randn(8192, 4096, device=dev, dtype=torch.bfloat16)

    def q_tensor():
        s = x.abs().amax().float() / 448.0
        return (x.float() / s).to(f8), s

    def q_block():
        xb = x.view(8192, 32, 128).float()
        s = xb.abs().amax(dim=-1, keepdim=True) / 448.0
        return (xb / s).to(f8), s
    quant = {"elements": x.numel(), "tensorwise_ms": bench_ms(q_tensor), "block_1x128_ms": bench_ms(q_block)}
    return {"rows": rows, "quantize": quant}


def grouped_mm():
    """MoE expert GEMMs: torch._grouped_mm (one launch for all experts) against one torch.matmul per
    expert (Hugging Face's loop), BF16, forward shapes of Mixtral 8x7B and a fine-grained 64-expert layer."""
    rows = []
    bf = torch.bfloat16
    for experts, k, n, tokens_per_expert in ((8, 4096, 28672, 1024), (8, 4096, 28672, 4096), (8, 14336, 4096, 4096),
                                             (64, 2048, 2816, 256), (64, 2048, 2816, 1024), (128, 2048, 1536, 512)):
        total = experts * tokens_per_expert
        a = torch.randn(total, k, device=dev, dtype=bf)
        w = torch.randn(experts, k, n, device=dev, dtype=bf) * 0.02
        offs = torch.arange(tokens_per_expert, total + 1, tokens_per_expert, device=dev, dtype=torch.int32)
        fl = 2 * total * k * n
        row = {"experts": experts, "k": k, "n": n, "tokens_per_expert": tokens_per_expert}

        def loop():
            return [a[i * tokens_per_expert:(i + 1) * tokens_per_expert] @ w[i] for i in range(experts)]
        ms = bench_ms(loop)
        row["loop_ms"], row["loop_tflops"] = ms, fl / (ms / 1e3) / 1e12
        wt = w.transpose(-2, -1).contiguous().transpose(-2, -1)
        for label, ww in (("grouped", w), ("grouped_wt", wt)):
            try:
                ms = bench_ms(lambda: torch._grouped_mm(a, ww, offs=offs, out_dtype=bf))
                row[label + "_ms"], row[label + "_tflops"] = ms, fl / (ms / 1e3) / 1e12
            except Exception as e:
                row[label + "_error"] = repr(e)[:240]
        dense = torch.randn(k, n, device=dev, dtype=bf)
        ms = bench_ms(lambda: a @ dense)
        row["dense_ms"], row["dense_tflops"] = ms, fl / (ms / 1e3) / 1e12
        rows.append(row)
        del a, w, wt, dense
    return rows


# ---- held out, run only when named (second lease, after perf/inference.hpp's eager host term was fitted
# on prefill_sweep's Llama-3.2-1B rows and the ResNet-50 batch-norm rates on conv_layers):
#   python3 bench/gpu/measure.py info host_launch holdout_eager holdout_resnet
# Shapes and sizes none of the fitted rows has: Llama-3.2-3B, Mistral-7B and Llama-2-7B (multi-head K/V,
# a 32,000 vocabulary) prefills and eager decode steps; ResNet-50 at batches 64 and 192.

def eager_forward(h, L, heads, kv, f, V):
    """An eager Llama-style forward written in torch ops (the prefill_sweep's code), and its decode step
    over a static KV cache (the decode section's code, any shape)."""
    bf = torch.bfloat16
    layers, emb, lm, nf = llama_weights(h, L, heads, kv, f, V)
    d = h // heads

    def rms(x, g):
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-5)).to(bf) * g

    def prefill(idx, cos, sin):
        S = idx.shape[0]
        x = emb[idx]
        for ly in layers:
            qkv = rms(x, ly["n1"]) @ ly["qkv"]
            q = qkv[:, : heads * d].view(S, heads, d).transpose(0, 1)
            k = qkv[:, heads * d: (heads + kv) * d].view(S, kv, d).transpose(0, 1)
            v = qkv[:, (heads + kv) * d:].view(S, kv, d).transpose(0, 1)
            q, k = rope(q, cos, sin), rope(k, cos, sin)
            a = attend(q.unsqueeze(0), k.unsqueeze(0), v.unsqueeze(0))
            x = x + a[0].transpose(0, 1).reshape(S, h) @ ly["o"]
            g, u = (rms(x, ly["n2"]) @ ly["gu"]).chunk(2, dim=-1)
            x = x + (F.silu(g) * u) @ ly["down"]
        return torch.argmax(rms(x[-1:], nf) @ lm, dim=-1)

    def decoder(batch, ctx):
        kc = [torch.randn(batch, kv, ctx, d, device=dev, dtype=bf) for _ in range(L)]
        vc = [torch.randn(batch, kv, ctx, d, device=dev, dtype=bf) for _ in range(L)]
        tok = torch.randint(0, V, (batch,), device=dev)
        pos = torch.tensor([ctx - 1], device=dev)
        cos = torch.randn(1, 1, d, device=dev, dtype=bf)
        sin = torch.randn(1, 1, d, device=dev, dtype=bf)

        def step():
            x = emb[tok]
            for i, ly in enumerate(layers):
                qkv = rms(x, ly["n1"]) @ ly["qkv"]
                q = qkv[:, : heads * d].view(batch, heads, d)
                k = qkv[:, heads * d: (heads + kv) * d].view(batch, kv, 1, d)
                v = qkv[:, (heads + kv) * d:].view(batch, kv, 1, d)
                q, k = rope(q, cos, sin), rope(k, cos, sin)
                kc[i].index_copy_(2, pos, k)
                vc[i].index_copy_(2, pos, v)
                qg = q.view(batch, kv, heads // kv, d)
                sc = torch.softmax((qg @ kc[i].transpose(-1, -2)).float() * (d ** -0.5), dim=-1).to(bf)
                a = (sc @ vc[i]).reshape(batch, h)
                x = x + a @ ly["o"]
                g, u = (rms(x, ly["n2"]) @ ly["gu"]).chunk(2, dim=-1)
                x = x + (F.silu(g) * u) @ ly["down"]
            return torch.argmax(rms(x, nf) @ lm, dim=-1)
        return step

    return prefill, decoder, d


def holdout_eager():
    rows = []
    for mname, shape in (("llama3.2-1b", (2048, 16, 32, 8, 8192, 128256)),  # the fitted shape: this host's rate
                         ("llama3.2-3b", (3072, 28, 24, 8, 8192, 128256)),
                         ("mistral-7b", (4096, 32, 32, 8, 14336, 32000)),
                         ("llama2-7b", (4096, 32, 32, 32, 11008, 32000))):
        prefill, decoder, d = eager_forward(*shape)
        V = shape[5]
        prompts = (128, 512) if mname == "llama3.2-1b" else (32, 256, 1024, 4096)
        for S in prompts:
            idx = torch.randint(0, V, (S,), device=dev)
            cos = torch.randn(1, S, d, device=dev, dtype=torch.bfloat16)
            sin = torch.randn(1, S, d, device=dev, dtype=torch.bfloat16)
            row = {"model": mname, "prompt": S}
            try:
                with torch.no_grad():
                    row["eager_ms"] = median_ms(lambda: prefill(idx, cos, sin), warmup=3, iters=9)
            except Exception as e:
                row["error"] = repr(e)[:300]
            rows.append(row)
        if mname != "llama3.2-1b":
            for batch in (1, 8):
                row = {"model": mname, "decode_batch": batch, "context": 1024}
                try:
                    with torch.no_grad():
                        step = decoder(batch, 1024)
                        row["eager_ms"] = median_ms(step, warmup=3, iters=15)
                        row["tokens_per_s"] = batch / (row["eager_ms"] / 1e3)
                except Exception as e:
                    row["error"] = repr(e)[:300]
                rows.append(row)
        torch.cuda.empty_cache()
    return rows


def holdout_resnet():
    import torchvision
    torch.backends.cudnn.benchmark = True
    rows = []
    for batch in (64, 192):
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        model = torchvision.models.resnet50().to(dev).to(memory_format=torch.channels_last)
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        x = torch.randn(batch, 3, 224, 224, device=dev).to(memory_format=torch.channels_last)
        y = torch.randint(0, 1000, (batch,), device=dev)

        def train():
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        row = {"model": "resnet50", "batch": batch}
        ms = median_ms(train, warmup=5, iters=10)
        row.update(train_ms=ms, train_images_per_s=batch / (ms / 1e3))
        model.eval()
        with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
            ims = median_ms(lambda: model(x), warmup=5, iters=10)
        row.update(infer_ms=ims, infer_images_per_s=batch / (ims / 1e3))
        rows.append(row)
        del model, opt, x
    return rows


def fp8_blockwise_2d():
    """FP8 GEMMs with DeepSeek-V3's mixed scaling as Transformer Engine runs the forward and data-gradient
    products on Hopper: 1 x 128 tiles on the activations (mat_a) and 128 x 128 blocks on the weights (mat_b),
    FP32 scales laid out outer-dimension-major, against one scale per tensor and 1 x 128 on both (the
    weight-gradient product), on fp8_scaling's seven shapes. Every scale layout is tried; errors are kept."""
    f8 = torch.float8_e4m3fn
    out = {"api": [n for n in dir(F) if "scal" in n.lower()], "rows": []}
    for m, n, k in ((4096, 4096, 4096), (8192, 8192, 8192), (16384, 16384, 16384), (8192, 6144, 4096),
                    (8192, 4096, 4096), (8192, 28672, 4096), (8192, 4096, 14336)):
        a = torch.randn(m, k, device=dev).to(f8)
        b = torch.randn(n, k, device=dev).to(f8)
        ref = a.float() @ b.float().t()
        fl = 2 * m * n * k
        col = lambda rows, cols: torch.ones(cols, rows, device=dev).t()  # (rows, cols), stride (1, rows)
        a_tile = col(m, k // 128)                                    # 1 x 128 tiles, outer-dim-major
        b_tile = torch.ones(k // 128, n, device=dev)                 # mat_b = b.t() is (k, n): (k/128, n), stride (n, 1), as fp8_scaling ran
        b_block_c = torch.ones(n // 128, k // 128, device=dev).t()   # (k/128, n/128), stride (1, k/128)
        b_block_r = torch.ones(k // 128, n // 128, device=dev)       # (k/128, n/128), stride (n/128, 1)
        a_tile_r = torch.ones(m, k // 128, device=dev)
        variants = {"tensorwise": (torch.tensor(1.0, device=dev), torch.tensor(1.0, device=dev)),
                    "tile_tile": (a_tile, b_tile),
                    "tile_block_c": (a_tile, b_block_c), "tile_block_r": (a_tile, b_block_r),
                    "tile_r_block_c": (a_tile_r, b_block_c), "tile_r_block_r": (a_tile_r, b_block_r)}
        row = {"m": m, "n": n, "k": k}
        for name, (sa, sb) in variants.items():
            try:
                run = lambda: torch._scaled_mm(a, b.t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)
                o = run()
                err = float((o.float() - ref).norm() / ref.norm())
                ms = bench_ms(run)
                row[name] = {"ms": ms, "tflops": fl / (ms / 1e3) / 1e12, "rel_err": err}
            except Exception as e:
                row[name] = {"error": repr(e)[:1200]}
        out["rows"].append(row)
        del a, b, ref
    return out


def gemm_case(m, n, k):
    """One BF16 product, and its FLOPs."""
    bf = torch.bfloat16
    a = torch.randn(m, k, device=dev, dtype=bf)
    b = torch.randn(k, n, device=dev, dtype=bf)
    c = torch.empty(m, n, device=dev, dtype=bf)
    return (lambda: torch.matmul(a, b, out=c)), 2 * m * n * k


def attn_case(backend, s, heads, d, part):
    """Causal fused attention forward or backward (batch 1), and its FLOPs (the backward 2.5x)."""
    from torch.nn.attention import sdpa_kernel
    bf = torch.bfloat16
    q, k, v = (torch.randn(1, heads, s, d, device=dev, dtype=bf, requires_grad=True) for _ in range(3))
    g = torch.randn(1, heads, s, d, device=dev, dtype=bf)
    fl = attention_flops(1, heads, s, d, True)
    with sdpa_kernel([backend]):
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True)

    def fwd():
        with sdpa_kernel([backend]):
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)

    def bwd():
        return torch.autograd.grad(o, (q, k, v), g, retain_graph=True)
    return (fwd, fl) if part == "fwd" else (bwd, 2.5 * fl)


def windows_of(fn, flops, seconds):
    """A short median (bench_ms), then back-to-back windows of about a second for `seconds`."""
    short = bench_ms(fn)
    reps = max(1, int(1000 / max(short, 1e-3)))
    wins = []
    t_end = time.time() + seconds
    while time.time() < t_end:
        e0 = torch.cuda.Event(enable_timing=True)
        e1 = torch.cuda.Event(enable_timing=True)
        t0 = time.time()
        e0.record()
        for _ in range(reps):
            fn()
        e1.record()
        e1.synchronize()
        ms = e0.elapsed_time(e1)
        wins.append({"t0": t0, "t1": time.time(), "tflops": reps * flops / (ms / 1e3) / 1e12})
    return {"short_ms": short, "short_tflops": flops / (short / 1e3) / 1e12, "reps": reps, "windows": wins}


# A Llama 3.1 8B layer's forward GEMMs at 8,192 tokens (M, N, K): QKV, output, gate and up, down.
LLAMA8B_LAYER_GEMMS = ((8192, 6144, 4096), (8192, 4096, 4096), (8192, 28672, 4096), (8192, 4096, 14336))


def layer_bytes_bound(repeats):
    """The same layer's bytes-bound kernels in eager BF16 (two RMSNorms, SwiGLU, two residual adds), `repeats`
    times per call, as (fn, 0) for mixed_windows."""
    x = torch.randn(8192, 4096, device=dev, dtype=torch.bfloat16)
    r = torch.randn(8192, 4096, device=dev, dtype=torch.bfloat16)
    u = torch.randn(8192, 2 * 14336, device=dev, dtype=torch.bfloat16)
    w = torch.ones(4096, device=dev, dtype=torch.bfloat16)
    norm = Norm(4096, True).to(dev).to(torch.bfloat16)

    def run():
        for _ in range(repeats):
            norm(x)
            norm(r)
            g, v = u.chunk(2, dim=-1)
            F.silu(g) * v
            x + r
            r + x * w
    return run, 0


def mixed_windows(kinds, seconds):
    """Kinds of kernel run in turn for `seconds` (20 rounds a window); each kind's rate from its own CUDA events.
    kinds: {name: [(fn, flops or 0 for bytes-bound kernels)]}; each kind's short median first."""
    short = {kind: sum(bench_ms(fn) for fn, _ in fns) for kind, fns in kinds.items()}
    flops = {kind: sum(fl for _, fl in fns) for kind, fns in kinds.items()}
    wins = []
    t_end = time.time() + seconds
    while time.time() < t_end:
        t0 = time.time()
        pairs = {kind: [] for kind in kinds}
        for _ in range(20):
            for kind, fns in kinds.items():
                e0 = torch.cuda.Event(enable_timing=True)
                e1 = torch.cuda.Event(enable_timing=True)
                e0.record()
                for fn, _ in fns:
                    fn()
                e1.record()
                pairs[kind].append((e0, e1))
        torch.cuda.synchronize()
        w = {"t0": t0, "t1": time.time()}
        for kind, ps in pairs.items():
            w[kind + "_ms"] = sum(a.elapsed_time(b) for a, b in ps) / len(ps)
            if flops[kind]:
                w[kind + "_tflops"] = flops[kind] / (w[kind + "_ms"] / 1e3) / 1e12
        wins.append(w)
    return {"short_ms": short, "short_tflops": {k: flops[k] / (short[k] / 1e3) / 1e12 for k in kinds if flops[k]},
            "windows": wins}


def sustained_kernels():
    """Does a kernel's rate fall under minutes of load (issue 15, item 5: is the sustained-clock factor counted on
    top of rates already measured under the power cap?). Each kernel alone: a short median (bench_ms), then
    back-to-back windows of about a second for a set time, each window's start and end kept so that the
    background nvidia-smi log gives its SM clock and power; BF16 GEMMs (8192^3 for 75 s, Llama 3.1 8B's
    up projection at 8,192 tokens, a 2,048 x 4,096 x 4,096 product), cuDNN and flash causal attention
    (16,384 tokens, 16 heads of 128, forward and backward apart). Then a mixed load: one Llama 3.1 8B
    layer's four GEMMs at 8,192 tokens and cuDNN causal attention forward and backward (32 heads of 128,
    8,192 tokens), each kind timed by its own CUDA events inside the same windows, for 45 s."""
    from torch.nn.attention import SDPBackend

    out = {"alone": [], "mixed": None}
    cases = [("gemm 8192x8192x8192", lambda: gemm_case(8192, 8192, 8192), 75),
             ("gemm 8192x14336x4096", lambda: gemm_case(8192, 14336, 4096), 25),
             ("gemm 2048x4096x4096", lambda: gemm_case(2048, 4096, 4096), 25),
             ("cudnn causal fwd 16384 h16 d128", lambda: attn_case(SDPBackend.CUDNN_ATTENTION, 16384, 16, 128, "fwd"), 25),
             ("cudnn causal bwd 16384 h16 d128", lambda: attn_case(SDPBackend.CUDNN_ATTENTION, 16384, 16, 128, "bwd"), 25),
             ("flash causal fwd 16384 h16 d128", lambda: attn_case(SDPBackend.FLASH_ATTENTION, 16384, 16, 128, "fwd"), 15),
             ("flash causal bwd 16384 h16 d128", lambda: attn_case(SDPBackend.FLASH_ATTENTION, 16384, 16, 128, "bwd"), 15)]
    for name, make, seconds in cases:
        try:
            fn, fl = make()
            out["alone"].append({"kernel": name, **windows_of(fn, fl, seconds)})
        except Exception as e:
            out["alone"].append({"kernel": name, "error": repr(e)[:300]})
        RESULTS["sections"]["sustained_kernels_partial"] = {"start": 0, "end": 0, "data": out}
        save()
        torch.cuda.empty_cache()

    # The mixed load: one layer's kinds of kernel in turn, each kind's time summed from its own events.
    kinds = {"gemm": [gemm_case(*x) for x in LLAMA8B_LAYER_GEMMS],
             "attention_fwd": [attn_case(SDPBackend.CUDNN_ATTENTION, 8192, 32, 128, "fwd")],
             "attention_bwd": [attn_case(SDPBackend.CUDNN_ATTENTION, 8192, 32, 128, "bwd")]}
    out["mixed"] = mixed_windows(kinds, 45)
    RESULTS["sections"].pop("sustained_kernels_partial", None)
    return out


def sustained_steps():
    """The mixed loads of sustained_kernels again, closer to a training step: FP8 (one scale per tensor) in place
    of the BF16 GEMMs, alone and beside BF16 cuDNN attention (as Transformer Engine's FP8 recipes keep it);
    the BF16 layer with its bytes-bound kernels (two RMSNorms, SwiGLU and two residual adds at 8,192 x 4,096,
    eager PyTorch); and a whole eager Llama-3.2-1B training step (micro-batch 4, llm_train's model), the
    median of 8 steps after 3 warm-up steps (how the in-house rows were measured) against windows of steps
    over the next 50 s."""
    from torch.nn.attention import SDPBackend
    out = {}
    f8 = torch.float8_e4m3fn

    def fp8_case(m, n, k):
        a = torch.randn(m, k, device=dev).to(f8)
        b = torch.randn(n, k, device=dev).to(f8)
        one = torch.tensor(1.0, device=dev)
        return (lambda: torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16)), 2 * m * n * k
    shapes = LLAMA8B_LAYER_GEMMS
    try:
        fn, fl = fp8_case(8192, 14336, 4096)
        out["fp8_alone"] = windows_of(fn, fl, 20)
        out["fp8_mixed"] = mixed_windows({"gemm": [fp8_case(*x) for x in shapes],
                                          "attention_fwd": [attn_case(SDPBackend.CUDNN_ATTENTION, 8192, 32, 128, "fwd")],
                                          "attention_bwd": [attn_case(SDPBackend.CUDNN_ATTENTION, 8192, 32, 128, "bwd")]}, 35)
    except Exception as e:
        out["fp8_error"] = repr(e)[:300]
    RESULTS["sections"]["sustained_steps_partial"] = {"start": 0, "end": 0, "data": out}
    save()
    torch.cuda.empty_cache()
    out["bf16_layer"] = mixed_windows({"gemm": [gemm_case(*x_) for x_ in shapes],
                                       "attention_fwd": [attn_case(SDPBackend.CUDNN_ATTENTION, 8192, 32, 128, "fwd")],
                                       "attention_bwd": [attn_case(SDPBackend.CUDNN_ATTENTION, 8192, 32, 128, "bwd")],
                                       "bytes_bound": [layer_bytes_bound(1)]}, 35)
    RESULTS["sections"]["sustained_steps_partial"] = {"start": 0, "end": 0, "data": out}
    save()
    torch.cuda.empty_cache()
    step, _ = train_step(LLAMA32_1B, 4)
    first = median_ms(step, warmup=3, iters=8)
    steps = []
    t_end = time.time() + 50
    while time.time() < t_end:
        e0 = torch.cuda.Event(enable_timing=True)
        e1 = torch.cuda.Event(enable_timing=True)
        t0 = time.time()
        e0.record()
        for _ in range(10):
            step()
        e1.record()
        e1.synchronize()
        steps.append({"t0": t0, "t1": time.time(), "step_ms": e0.elapsed_time(e1) / 10})
    out["eager_step"] = {"model": LLAMA32_1B["name"], "micro_batch": 4, "first_median_ms": first, "windows": steps}
    RESULTS["sections"].pop("sustained_steps_partial", None)
    return out


def sustained_layer():
    """A whole training step's mix of one Llama 3.1 8B layer at 8,192 tokens, against each kind's rate on a
    cool GPU: the forward GEMMs (x W), the backward's data- and weight-gradient GEMMs (the same FLOPs twice),
    cuDNN causal attention forward and backward (32 heads of 128), and the bytes-bound kernels (two RMSNorms,
    SwiGLU, two residual adds; three times: once for the forward, twice for the backward). Each kind's short median is taken after the GPU
    has idled below 150 W (at most 30 s), then all kinds run in turn for 60 s, each timed by its own events."""
    from torch.nn.attention import SDPBackend

    def cool_down():
        t_end = time.time() + 30
        while time.time() < t_end:
            try:
                if float(smi("power.draw")["power.draw"]) < 150:
                    return
            except Exception:
                pass
            time.sleep(0.5)
    shapes = LLAMA8B_LAYER_GEMMS
    bwd = [gemm_case(m, k, n) for m, n, k in shapes] + [gemm_case(k, n, m) for m, n, k in shapes]
    kinds = {"gemm_fwd": [gemm_case(*x_) for x_ in shapes], "gemm_bwd": bwd,
             "attention_fwd": [attn_case(SDPBackend.CUDNN_ATTENTION, 8192, 32, 128, "fwd")],
             "attention_bwd": [attn_case(SDPBackend.CUDNN_ATTENTION, 8192, 32, 128, "bwd")],
             "bytes_bound": [layer_bytes_bound(3)]}  # the forward's, and about twice that in the backward
    cool = {}
    for kind, fns in kinds.items():
        cool_down()
        cool[kind] = {"smi": smi("power.draw,clocks.sm"), "ms": sum(bench_ms(fn) for fn, _ in fns)}
    out = mixed_windows(kinds, 60)
    out["cool_ms"] = cool
    return out


# ---- fine-tuning: Hugging Face's layout (separate q, k, v, o, gate, up, down), PEFT-style adapters ----

class LoraLinear(nn.Module):
    """A frozen linear layer with a trainable rank-r adapter beside it, as PEFT's lora.Linear: y = W x +
    (alpha / r) B A x, A Kaiming-initialised, B small random values (PEFT starts it at zero; a trained adapter
    is not), adapters kept in fp32 (PEFT's autocast_adapter_dtype) and run under autocast, but without PEFT's
    cast of the input to the adapters' dtype (finetune_peft runs PEFT itself). With r == 0 the layer is plain and trainable (full fine-tuning)."""

    def __init__(self, fin, fout, r, quant=None):
        super().__init__()
        self.r = r
        if quant == "nf4":
            import bitsandbytes as bnb
            self.base = bnb.nn.Linear4bit(fin, fout, bias=False, compute_dtype=torch.bfloat16, quant_type="nf4")
        else:
            self.base = nn.Linear(fin, fout, bias=False)
        if r:
            self.base.requires_grad_(False)
            self.a = nn.Parameter(torch.empty(r, fin, dtype=torch.float32))
            nn.init.kaiming_uniform_(self.a, a=math.sqrt(5))
            self.b = nn.Parameter(torch.randn(fout, r, dtype=torch.float32) * 1e-3)  # not zero: real numbers
            self.scale = 16.0 / r

    def forward(self, x):
        y = self.base(x)
        if self.r:
            y = y + F.linear(F.linear(x, self.a), self.b) * self.scale
        return y


class HFBlock(nn.Module):
    def __init__(self, cfg, r, mlp, quant):
        super().__init__()
        h, self.heads, self.kv = cfg["hidden"], cfg["heads"], cfg["kv_heads"]
        self.d = h // self.heads
        f = cfg["ffn"]
        ra = r
        rm = r if mlp else 0
        self.n1 = Norm(h, True)
        self.n2 = Norm(h, True)
        self.q = LoraLinear(h, h, ra, quant)
        self.k = LoraLinear(h, self.kv * self.d, ra, quant)
        self.v = LoraLinear(h, self.kv * self.d, ra, quant)
        self.o = LoraLinear(h, h, ra, quant)
        self.gate = LoraLinear(h, f, rm, quant)
        self.up = LoraLinear(h, f, rm, quant)
        self.down = LoraLinear(f, h, rm, quant)
        if r and not mlp:
            for m in (self.gate, self.up, self.down):
                m.requires_grad_(False)

    def forward(self, x, cos, sin):
        b, s, h = x.shape
        y = self.n1(x)
        q = self.q(y).view(b, s, self.heads, self.d).transpose(1, 2)
        k = self.k(y).view(b, s, self.kv, self.d).transpose(1, 2)
        v = self.v(y).view(b, s, self.kv, self.d).transpose(1, 2)
        a = attend(rope(q, cos, sin), rope(k, cos, sin), v)
        x = x + self.o(a.transpose(1, 2).reshape(b, s, h))
        y = self.n2(x)
        return x + self.down(F.silu(self.gate(y)) * self.up(y))


class HFDecoder(nn.Module):
    def __init__(self, cfg, r, mlp, quant, checkpoint):
        super().__init__()
        h = cfg["hidden"]
        self.checkpoint = checkpoint
        self.emb = nn.Embedding(cfg["vocab"], h)
        self.blocks = nn.ModuleList(HFBlock(cfg, r, mlp, quant) for _ in range(cfg["layers"]))
        self.norm = Norm(h, True)
        self.head = nn.Linear(h, cfg["vocab"], bias=False)
        if cfg["tied"]:
            self.head.weight = self.emb.weight
        d = h // cfg["heads"]
        inv = 1.0 / (500000.0 ** (torch.arange(0, d, 2).float() / d))
        ang = torch.outer(torch.arange(cfg["seq"]).float(), inv)
        ang = torch.cat((ang, ang), dim=-1)
        self.register_buffer("cos", ang.cos(), persistent=False)
        self.register_buffer("sin", ang.sin(), persistent=False)

    def forward(self, idx, targets):
        s = idx.shape[1]
        x = self.emb(idx)
        cos, sin = self.cos[:s].to(torch.bfloat16), self.sin[:s].to(torch.bfloat16)
        for blk in self.blocks:
            if self.checkpoint:  # Hugging Face's gradient_checkpointing: each decoder layer rerun in the backward
                import torch.utils.checkpoint as ckpt
                x = ckpt.checkpoint(blk, x, cos, sin, use_reentrant=False)
            else:
                x = blk(x, cos, sin)
        logits = self.head(self.norm(x))
        return F.cross_entropy(logits.float().view(-1, logits.shape[-1]), targets.view(-1))


LLAMA31_8B = {"name": "llama3.1-8b", "hidden": 4096, "layers": 32, "heads": 32, "kv_heads": 8, "ffn": 14336,
              "vocab": 128256, "seq": 2048, "llama": True, "tied": False}


def time_adapter_steps(row, model, trainable, cfg, micro_batch, steps):
    """Median step time and peak memory of `model` trained under autocast BF16 with fused AdamW over
    `trainable`, on random tokens; written into `row`."""
    opt = torch.optim.AdamW(trainable, lr=1e-4, fused=True)
    s = cfg["seq"]
    idx = torch.randint(0, cfg["vocab"], (micro_batch, s), device=dev)
    tgt = torch.randint(0, cfg["vocab"], (micro_batch, s), device=dev)

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(idx, tgt)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    ms = median_ms(step, warmup=2, iters=steps)
    row.update(step_ms=ms, tokens_per_s=micro_batch * s / (ms / 1e3),
               peak_allocated_bytes=torch.cuda.max_memory_allocated(),
               peak_reserved_bytes=torch.cuda.max_memory_reserved())


def finetune_steps(cfg, mode, micro_batch, r=16, mlp=False, checkpoint=False, steps=6):
    """Median step time and peak memory of one fine-tuning configuration, as Hugging Face Trainer + PEFT run
    it: mode 'full' (fp32 weights, autocast BF16, fused AdamW over every weight, as llm_train), 'lora'
    (frozen BF16 base weights, fp32 adapters, autocast BF16, fused AdamW over the adapters) or 'qlora'
    (frozen NF4 base weights from bitsandbytes, BF16 compute)."""
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    row = {"model": cfg["name"], "mode": mode, "micro_batch": micro_batch, "seq": cfg["seq"], "rank": r if mode != "full" else 0,
           "mlp_adapters": mlp, "checkpoint": checkpoint}
    model = None
    try:
        rr = 0 if mode == "full" else r
        quant = "nf4" if mode == "qlora" else None
        if mode != "full":  # base weights made in BF16 (from_pretrained's torch_dtype=torch.bfloat16), adapters fp32
            torch.set_default_dtype(torch.bfloat16)
        try:
            with torch.device(dev):
                model = HFDecoder(cfg, rr, mlp, quant, checkpoint)
        finally:
            torch.set_default_dtype(torch.float32)
        if mode == "qlora":
            model.to(dev)  # bitsandbytes quantizes its weights on the move to the GPU
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        row["weights_allocated_bytes"] = torch.cuda.memory_allocated()
        if mode != "full":
            model.emb.requires_grad_(False)
            model.head.requires_grad_(False)
            for n_ in (model.norm, *[b.n1 for b in model.blocks], *[b.n2 for b in model.blocks]):
                n_.requires_grad_(False)
        trainable = [p for p in model.parameters() if p.requires_grad]
        row["trainable_params"] = sum(p.numel() for p in trainable)
        row["params"] = sum(p.numel() for p in model.parameters())
        time_adapter_steps(row, model, trainable, cfg, micro_batch, steps)
    except torch.OutOfMemoryError as e:
        row.update(oom=True, error=str(e)[:200])
    except Exception as e:
        row.update(error=repr(e)[:300])
    del model
    print("  ", {k: (round(v, 1) if isinstance(v, float) else v) for k, v in row.items()}, flush=True)
    return row


def finetune():
    out = {}
    try:
        import bitsandbytes
        out["bitsandbytes"] = bitsandbytes.__version__
    except Exception as e:
        out["bitsandbytes"] = "unavailable: " + repr(e)[:120]
    try:
        import peft
        out["peft"] = peft.__version__
    except Exception as e:
        out["peft"] = "unavailable: " + repr(e)[:120]
    out["torch"] = torch.__version__
    rows = [
        finetune_steps(LLAMA32_1B, "full", 4),
        finetune_steps(LLAMA32_1B, "lora", 4),
        finetune_steps(LLAMA32_1B, "lora", 8),
        finetune_steps(LLAMA32_1B, "lora", 4, r=64, mlp=True),
        finetune_steps(LLAMA31_8B, "lora", 1),
        finetune_steps(LLAMA31_8B, "lora", 4),
        finetune_steps(LLAMA31_8B, "lora", 4, checkpoint=True),
        finetune_steps(LLAMA31_8B, "lora", 4, r=64, mlp=True, checkpoint=True),
        finetune_steps(LLAMA31_8B, "full", 1, checkpoint=True),
    ]
    if not out["bitsandbytes"].startswith("unavailable"):
        rows.append(finetune_steps(LLAMA31_8B, "qlora", 4, r=16, mlp=True, checkpoint=True))
        rows.append(finetune_steps(LLAMA31_8B, "qlora", 1, r=16, mlp=True))
    out["rows"] = rows
    return out


LLAMA32_3B = {"name": "llama3.2-3b", "hidden": 3072, "layers": 28, "heads": 24, "kv_heads": 8, "ffn": 8192,
              "vocab": 128256, "seq": 4096, "llama": True, "tied": True}
MISTRAL_7B = {"name": "mistral-7b", "hidden": 4096, "layers": 32, "heads": 32, "kv_heads": 8, "ffn": 14336,
              "vocab": 32000, "seq": 4096, "llama": True, "tied": False}


def finetune_holdout():
    """Held out from the fine-tuning memory accounting (written after the finetune section's rows):
    other shapes, 4,096 tokens, other ranks."""
    rows = [
        finetune_steps(LLAMA32_3B, "lora", 2, r=8),
        finetune_steps(LLAMA32_3B, "lora", 4, r=8),
        finetune_steps(LLAMA32_3B, "lora", 2, r=32, mlp=True, checkpoint=True),
        finetune_steps(LLAMA32_3B, "full", 2, checkpoint=True),
        finetune_steps(LLAMA32_3B, "full", 1),
        finetune_steps(MISTRAL_7B, "lora", 2, r=16),
        finetune_steps(MISTRAL_7B, "lora", 8, r=16, mlp=True, checkpoint=True),
        finetune_steps(dict(LLAMA31_8B, seq=4096), "lora", 2, r=8, mlp=True, checkpoint=True),
    ]
    return {"torch": torch.__version__, "rows": rows}


def peft_steps(cfg, micro_batch, r=16, mlp=False, checkpoint=False, steps=6):
    """One LoRA configuration as Hugging Face PEFT builds it: the plain model in BF16, then
    peft.get_peft_model with LoraConfig(r, lora_alpha=16, lora_dropout=0, target_modules=the linear layers),
    which freezes every base weight and keeps the adapters in fp32 (autocast_adapter_dtype); trained
    under autocast BF16 with fused AdamW over the adapters, as finetune_steps."""
    import peft
    torch.cuda.empty_cache()
    row = {"model": cfg["name"], "mode": "peft", "micro_batch": micro_batch, "seq": cfg["seq"], "rank": r,
           "mlp_adapters": mlp, "checkpoint": checkpoint, "peft": peft.__version__}
    model = None
    try:
        torch.set_default_dtype(torch.bfloat16)
        try:
            with torch.device(dev):
                model = HFDecoder(cfg, 0, False, None, checkpoint)
        finally:
            torch.set_default_dtype(torch.float32)
        targets = ["q.base", "k.base", "v.base", "o.base"] + (["gate.base", "up.base", "down.base"] if mlp else [])
        model = peft.get_peft_model(model, peft.LoraConfig(r=r, lora_alpha=16, lora_dropout=0.0, target_modules=targets))
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        row["weights_allocated_bytes"] = torch.cuda.memory_allocated()
        trainable = [p for p in model.parameters() if p.requires_grad]
        row["trainable_params"] = sum(p.numel() for p in trainable)
        row["adapter_dtype"] = str(trainable[0].dtype)
        for p in trainable:  # B starts at zero in PEFT: give it values, as a trained adapter has
            if p.dim() == 2 and p.shape[1] == r:
                torch.nn.init.normal_(p, std=1e-3)
        time_adapter_steps(row, model, trainable, cfg, micro_batch, steps)
    except torch.OutOfMemoryError as e:
        row.update(oom=True, error=str(e)[:200])
    except Exception as e:
        row.update(error=repr(e)[:300])
    del model
    print("  ", {k: (round(v, 1) if isinstance(v, float) else v) for k, v in row.items()}, flush=True)
    return row


def finetune_peft():
    """LoRA through Hugging Face PEFT itself (its dtype casts: each adapter casts its input to the adapter's
    fp32 and autocast casts it back, so each adapted layer keeps its own 16-bit copy of its input)."""
    rows = [
        peft_steps(LLAMA32_1B, 4),
        peft_steps(LLAMA32_1B, 4, r=64, mlp=True),
        peft_steps(LLAMA31_8B, 4),
        peft_steps(LLAMA31_8B, 1),
        peft_steps(LLAMA31_8B, 4, checkpoint=True),
        peft_steps(LLAMA31_8B, 4, r=64, mlp=True, checkpoint=True),
        peft_steps(LLAMA32_3B, 2, r=8),
        peft_steps(MISTRAL_7B, 2),
        peft_steps(MISTRAL_7B, 4, r=32, mlp=True),
    ]
    return {"torch": torch.__version__, "rows": rows}


def int4_gemv():
    """Weight-only INT4 matrix products as gpt-fast and torchao run them (PyTorch's tinygemm kernel,
    _weight_int4pack_mm, group size 128, BF16 scales and zeros) at Llama 3.1 8B's decode shapes, 1-16
    token rows, against the same product in BF16: time and weight bytes streamed per second."""
    shapes = [(4096, 6144), (4096, 4096), (4096, 28672), (14336, 4096)]  # (k, n): qkv, o, gate+up, down
    g = 128
    rows = []
    for k, n in shapes:
        w = torch.randn(n, k, device=dev, dtype=torch.bfloat16)
        try:
            q = torch.randint(0, 16, (n, k), device=dev, dtype=torch.int32)
            packed_u8 = (q[:, ::2] << 4 | q[:, 1::2]).to(torch.uint8)
            wp = torch.ops.aten._convert_weight_to_int4pack(packed_u8, 8)
            sz = torch.randn(k // g, n, 2, device=dev, dtype=torch.bfloat16) * 0.01
        except Exception as e:
            rows.append({"k": k, "n": n, "error": repr(e)[:300]})
            continue
        for m in (1, 4, 16):
            x = torch.randn(m, k, device=dev, dtype=torch.bfloat16)
            row = {"k": k, "n": n, "m": m}
            try:
                row["bf16_us"] = bench_ms(lambda: x @ w.t()) * 1e3
                row["int4_us"] = bench_ms(lambda: torch.ops.aten._weight_int4pack_mm(x, wp, g, sz)) * 1e3
                row["int4_weight_bytes"] = n * k // 2 + (k // g) * n * 4
                row["int4_gb_per_s"] = row["int4_weight_bytes"] / (row["int4_us"] * 1e-6) / 1e9
                row["bf16_gb_per_s"] = n * k * 2 / (row["bf16_us"] * 1e-6) / 1e9
            except Exception as e:
                row["error"] = repr(e)[:300]
            rows.append(row)
        print("  ", rows[-1], flush=True)
    return rows


if ONLY:
    section("fp8_blockwise_2d")(fp8_blockwise_2d)
    section("sustained_kernels")(sustained_kernels)
    section("sustained_steps")(sustained_steps)
    section("sustained_layer")(sustained_layer)
    section("holdout_eager")(holdout_eager)
    section("holdout_resnet")(holdout_resnet)

if ONLY:
    for _name, _fn in (("host_launch", host_launch), ("conv_layers", conv_layers), ("image_profile", image_profile),
                       ("prefill_sweep", prefill_sweep), ("fp8_scaling", fp8_scaling), ("grouped_mm", grouped_mm),
                       ("finetune", finetune), ("int4_gemv", int4_gemv),
                       ("finetune_holdout", finetune_holdout), ("finetune_peft", finetune_peft)):
        section(_name)(_fn)


if smi_log is not None:
    smi_log.terminate()
RESULTS["ended"] = time.time()
save()
s = RESULTS["sections"]
print("\n== summary")
for k, v in s.items():
    print(k, f"{v['end'] - v['start']:.1f} s", "ERROR " + v["error"] if "error" in v else "")
if "bandwidth" in s and "data" in s["bandwidth"]:
    print("copy TB/s", round(s["bandwidth"]["data"]["copy_bytes_per_s"] / 1e12, 3))
if "gemm" in s and "data" in s["gemm"]:
    print("square bf16", [(r["m"], round(r["tflops"])) for r in s["gemm"]["data"]["square"]])
    print("other", [(r["precision"], r["m"], round(r["tflops"])) for r in s["gemm"]["data"]["other_precisions"]])
if "sustained" in s and "data" in s["sustained"]:
    w = s["sustained"]["data"]["windows"]
    print("sustained first/last", round(w[0]["tflops"]), round(w[-1]["tflops"]), s["sustained"]["data"]["smi_after"])
if "sustained_kernels" in s and "data" in s["sustained_kernels"]:
    for r in s["sustained_kernels"]["data"]["alone"]:
        w = r.get("windows") or []
        print(r["kernel"], r.get("error", ""), round(r.get("short_tflops", 0)), [round(x["tflops"]) for x in w[:2]],
              [round(x["tflops"]) for x in w[-2:]], len(w))
    m = s["sustained_kernels"]["data"]["mixed"]
    if m:
        print("mixed short", {k: round(v) for k, v in m["short_tflops"].items()},
              "first", {k: round(v) for k, v in m["windows"][0].items() if k.endswith("tflops")},
              "last", {k: round(v) for k, v in m["windows"][-1].items() if k.endswith("tflops")})
if "sustained_layer" in s and "data" in s["sustained_layer"]:
    v = s["sustained_layer"]["data"]
    w = v["windows"]
    print("sustained_layer cool_ms", {k: (round(c["ms"], 3), c["smi"]) for k, c in v["cool_ms"].items()})
    print("   short (hot)", {k: round(x, 3) for k, x in v["short_ms"].items()})
    print("   mixed median ms", {k: round(sorted(x[k + "_ms"] for x in w)[len(w) // 2], 3) for k in v["cool_ms"]}, len(w))
if "sustained_steps" in s and "data" in s["sustained_steps"]:
    for k, v in s["sustained_steps"]["data"].items():
        if isinstance(v, dict) and "windows" in v:
            w = v["windows"]
            keys = [x for x in w[0] if x.endswith("tflops") or x.endswith("_ms")]
            print(k, {x: round(v[x]) if isinstance(v.get(x), float) else v.get(x) for x in ("short_tflops", "first_median_ms")},
                  "first", {x: round(w[0][x], 2) for x in keys}, "last", {x: round(w[-1][x], 2) for x in keys}, len(w))
        else:
            print(k, v)
for key in ("llm_train", "holdout_train", "image"):
    if key in s and "data" in s[key]:
        for r in s[key]["data"]:
            print(key, {k: (round(v, 1) if isinstance(v, float) else v) for k, v in r.items()})
for key in ("decode", "holdout_decode"):
    if key in s and "data" in s[key]:
        print(key, s[key]["data"])
for key in ("host_launch", "conv_layers", "image_profile", "prefill_sweep", "fp8_scaling", "grouped_mm", "holdout_eager",
            "holdout_resnet", "fp8_blockwise_2d"):
    if key in s and "data" in s[key]:
        d = s[key]["data"]
        if key == "image_profile":
            d = [{k: v for k, v in r.items() if k in ("model", "batch", "step_ms", "kernel_us", "kernel_count")} for r in d]
        elif key == "conv_layers":
            d = [(r["batch"], r["cin"], r["h"], r["cout"], r["kernel"], r["stride"], round(r.get("fwd_ms") or 0, 3),
                  round(r.get("dgrad_ms") or 0, 3), round(r.get("wgrad_ms") or 0, 3), r.get("error", "")[:60]) for r in d]
        elif key == "fp8_blockwise_2d":
            d = [(r["m"], r["n"], r["k"], {v: (round(x["tflops"]) if "tflops" in x else x["error"][:300]) for v, x in r.items()
                                          if isinstance(x, dict)}) for r in d["rows"][:2]] + \
                [(r["m"], r["n"], r["k"], {v: round(x["tflops"]) for v, x in r.items() if isinstance(x, dict) and "tflops" in x})
                 for r in d["rows"][2:]]
        elif key == "fp8_scaling":
            d = [(r["m"], r["n"], r["k"], round(r["bf16_tflops"]),
                  {v: (round(x["tflops"]) if "tflops" in x else x["error"][:80]) for v, x in r.items() if isinstance(x, dict)})
                 for r in d["rows"]] + [d["quantize"]]
        print(key, json.dumps(d, default=str)[:3000])
