#!/usr/bin/python3
"""Writes the example notebooks of this folder (without outputs) from the cells below.

    /usr/bin/python3 examples/notebooks/build_notebooks.py

The notebooks are the product; this file keeps them reviewable as plain text. The Python tests
(bindings/python/tests/test_notebooks.py) execute each notebook and check its printed results,
and fail when a committed .ipynb differs from what this file writes.
"""

import pathlib

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = pathlib.Path(__file__).resolve().parent

SETUP = """\
%matplotlib inline
import numpy as np
import matplotlib.pyplot as plt
import capplan
from capplan import sweeps, plots"""


def cloud_vs_owned():
    return [
        new_markdown_cell("""\
# Cloud versus owned: when does buying pay off?

Tim Dettmers' example ("Which GPU(s) to Get for Deep Learning"): a $2,200 desktop drawing 450 W,
electricity at $0.12/kWh, used 15% of the time, against a cloud GPU at $2.14/h. He finds owning
pays off after about 300 days. capplan compares the two month by month, in exact money, and finds
the break-even month and the crossing time."""),
        new_code_cell(SETUP),
        new_code_cell("""\
from capplan import Money, MoneyRate, EnergyPrice, Power, OwnedOption, RentedOption, CompareOptions

desk = OwnedOption(name="desktop", purchase=Money("2200", "USD"), active_power=Power(450, "W"),
                   electricity=EnergyPrice("0.12 USD/kWh"))
cloud = RentedOption.on_demand("cloud GPU", MoneyRate("2.14 USD/h"))
c = capplan.compare_costs(desk, cloud, CompareOptions(utilization=0.15, horizon_months=24))
print(c.explain())"""),
        new_markdown_cell("""\
The month-by-month costs are exact `Money` (`c.months`); the crossing time interpolates inside
the break-even month."""),
        new_code_cell("""\
days = c.break_even_time.to("day")
print(f"break-even: month {c.break_even_month}, about {days:.0f} days")
print("owned after 24 months:", c.last().owned_cumulative, " rented:", c.last().rented_cumulative)
plots.cumulative_cost(c);"""),
        new_markdown_cell("""\
## How the answer moves with use and price

`sweeps.rent_vs_own` evaluates the same comparison (without discounting or resale) over a whole
grid at once: here 101 utilizations by 476 cloud prices. Money in a sweep is float64 dollars,
approximate, for plots; the exact figures are the ones above."""),
        new_code_cell("""\
util = np.linspace(0, 1, 101)[:, None]
rate = (np.arange(25, 501) / 100)[None, :]    # $0.25 to $5.00 per hour in cent steps
grid = sweeps.rent_vs_own(2200, 450, 0.12, rate, util, horizon_months=60)
months = grid["break_even_month"]
row = int(round(0.15 * 100))
col = int(np.flatnonzero(rate[0] == 2.14)[0])
print(f"sweep break-even months (15% use): {months[row, col]:.0f}")

fig, ax = plt.subplots(figsize=(7, 4.2))
im = ax.pcolormesh(rate[0], util[:, 0] * 100, np.where(np.isinf(months), np.nan, months), shading="auto")
fig.colorbar(im, label="break-even month (blank: not within 5 years)")
ax.plot([2.14], [15], marker="*", color="w", markersize=12)
ax.set_xlabel("cloud price ($/GPU-hour)")
ax.set_ylabel("utilization (%)")
ax.set_title("When owning the $2,200 desktop pays off");"""),
        new_code_cell("""\
b = capplan.break_even_utilization(desk, cloud, CompareOptions(horizon_months=24))
print(b.explain())"""),
    ]


def will_it_fit():
    return [
        new_markdown_cell("""\
# Will it fit? Llama 2 7B on one GPU

Memory is the first question: do the weights, gradients, optimizer states and activations fit in
the GPU's memory? capplan's memory model counts each part (mixed-precision Adam keeps 16 bytes per
parameter: ZeRO paper, §3.1) and compares the total with the card."""),
        new_code_cell(SETUP),
        new_code_cell("""\
from capplan import DataSize, TrainingConfig, InferenceConfig, ParallelPlan, ZeroStage

model = capplan.find_model("llama2-7b")
shape = model.transformer()
catalog = capplan.Catalog.builtin()
h100 = catalog.find_gpu("H100 SXM")
rtx = catalog.find_gpu("RTX 4090")
print(model.id, f"{capplan.parameter_count(shape):,} parameters")
print(h100.name, h100.memory, "|", rtx.name, rtx.memory)"""),
        new_markdown_cell("## Full fine-tuning on one 80 GB H100"),
        new_code_cell("""\
full = capplan.training_budget(shape, TrainingConfig(plan=ParallelPlan(micro_batch=1), seq_len=2048, flash_attention=True))
print(full)
fit = capplan.check_fit(full, h100.memory)
print(f"fits: {fit.fits}  needs {fit.required} of {fit.available}")"""),
        new_markdown_cell("""\
## The same training with ZeRO-3 over 8 GPUs

ZeRO stage 3 shards weights, gradients and optimizer states over the data-parallel GPUs
(Rajbhandari et al. 2020)."""),
        new_code_cell("""\
zero3 = capplan.training_budget(shape, TrainingConfig(seq_len=2048, flash_attention=True,
                                                      plan=ParallelPlan(micro_batch=1, dp=8, zero_stage=ZeroStage.parameters)))
fit3 = capplan.check_fit(zero3, h100.memory)
print(f"ZeRO-3 x8 fits: {fit3.fits}  needs {fit3.required} per GPU")"""),
        new_markdown_cell("## Serving in bf16 on a 24 GB RTX 4090"),
        new_code_cell("""\
serve = capplan.inference_budget(shape, InferenceConfig(context=4096, sequences=1))
fit_s = capplan.check_fit(serve, rtx.memory)
print(f"serving fits: {fit_s.fits}  needs {fit_s.required} of {fit_s.available}")
longest = capplan.max_context(shape, InferenceConfig(), rtx.memory, limit=1 << 20)
print(f"longest context for one sequence on the 4090: {longest:,} tokens (Llama 2 was trained at 4,096)")"""),
        new_code_cell("""\
plots.memory_breakdown({"full, 1 GPU": full, "ZeRO-3 x8": zero3, "serve bf16": serve}, capacity=h100,
                       title="Llama 2 7B: memory per GPU against an 80 GB H100");"""),
    ]


def purchase_decision():
    return [
        new_markdown_cell("""\
# A purchase decision: which GPUs, and how many, to train a 7B model within a month?

The job: Llama 2 7B's budget, 7 billion parameters on 2 trillion tokens. Training compute is
6 N D (Kaplan et al. 2020, §2.1), and on G GPUs at model FLOPs utilization MFU it takes
6 N D / (G x peak x MFU). A sweep screens every GPU type and count at once; capplan's performance
model (kernels, communication, pipeline, memory) then times the shortlist plan by plan."""),
        new_code_cell(SETUP),
        new_code_cell("""\
N, D = 7e9, 2e12
print(f"6ND = {sweeps.training_flops(N, D)[()]:.3g} FLOP")

catalog = capplan.Catalog.builtin()
candidates = {name: catalog.find_gpu(name) for name in ["H100 SXM", "A100 SXM 40GB", "B200"]}

def cheapest_gpu_hour(gpu):
    \"\"\"The catalog's cheapest on-demand USD price per GPU-hour for this GPU model (exact Money).\"\"\"
    offers = [o for o in catalog.cloud_offers() if o.gpu_id == gpu.id and o.on_demand is not None
              and o.currency == capplan.Currency.USD]  # amounts in CNY do not compare with dollars
    best = min(offers, key=lambda o: o.on_demand.amount / o.gpu_count)
    return best.on_demand / best.gpu_count, best.id

for name, g in candidates.items():
    rate, offer = cheapest_gpu_hour(g)
    print(f"{g.name:34} {capplan.peak_rate(g, capplan.Precision.bf16)!s:>14}  {g.memory!s:>7}  {rate} per GPU ({offer})")"""),
        new_markdown_cell("""\
## Screening: every type and count at 40% MFU

40% MFU is a common planning figure for dense training. Dollars in a sweep are float64, for
screening; the catalog prices above are exact."""),
        new_code_cell("""\
import pandas as pd

counts = np.array([8, 16, 32, 64, 128, 256, 512])
rows = []
for name, g in candidates.items():
    rate, _ = cheapest_gpu_hour(g)
    r = sweeps.training(N, D, counts, capplan.peak_rate(g, capplan.Precision.bf16), mfu=0.4,
                        gpu_power_w=g.tdp, pue=1.2, usd_per_gpu_hour=float(rate.amount), usd_per_kwh=0.12)
    rows += [{"gpu": name, "gpus": int(n), "days": r["time_s"][k] / 86400, "rent_usd": r["rent_usd"][k],
              "energy_mwh": r["energy_kwh"][k] / 1000} for k, n in enumerate(counts)]
screen = pd.DataFrame(rows)
ok = screen[screen.days <= 30]
fastest = screen.loc[screen.days.idxmin()]
cheapest = ok.loc[ok.rent_usd.idxmin()]
print(f"fastest: {fastest.gpus} x {fastest.gpu}, {fastest.days:.1f} days")
print(f"cheapest: {cheapest.gpus} x {cheapest.gpu} within 30 days, ${cheapest.rent_usd:,.0f} rented")
ok.round(1)"""),
        new_markdown_cell("""\
## The performance model on the shortlist

For each GPU type and count, `sweeps.plan_times` runs `search_plans`, which tries every tensor x
pipeline x data-parallel layout, micro-batch, ZeRO stage and recomputation that fits in memory and
returns the fastest; its time includes communication over NVLink in a node and 400 Gb/s InfiniBand per GPU between nodes."""),
        new_code_cell("""\
job = capplan.TrainingJob(model=capplan.find_model("llama2-7b").transformer(), global_batch=1024, seq_len=4096)
link = capplan.infiniband(capplan.Bandwidth(50, "GB/s"))
fig, ax = plt.subplots(figsize=(7, 4.2))
modelled = []
for i, (name, g) in enumerate(candidates.items()):
    rate, _ = cheapest_gpu_hour(g)
    r = sweeps.plan_times(job, g, counts, link, tokens=D)
    plots.time_vs_gpus(r, ax=ax, label=name, ideal=(i == 0), unit="days")
    modelled += [{"gpu": name, "gpus": int(n), "days": t / 86400, "mfu": m,
                  "rent_usd": float((rate * capplan.Duration(t * int(n), "s")).amount)}
                 for n, t, m, ok in zip(r["gpus"], r["time_s"], r["mfu"], r["fits"]) if ok]
for i, line in enumerate(l for l in ax.get_lines() if l.get_gid() == "time"):
    line.set_color(f"C{i}")
ax.legend()
ax.set_title("Llama 2 7B on 2T tokens: performance model");"""),
        new_code_cell("""\
plan = pd.DataFrame(modelled)
choice = plan[plan.days <= 30].sort_values("rent_usd").iloc[0]
print(f"decision: {choice.gpus} x {choice.gpu}, {choice.days:.1f} days at MFU {choice.mfu:.0%}, "
      f"${choice.rent_usd:,.0f} on demand")
plan.round(3)"""),
        new_markdown_cell("""\
## Where the time goes: one layer on the roofline

Each kernel of a transformer layer (8 H100s, data parallel) with its FLOPs and bytes; the roofline
(Williams et al. 2009) shows which kernels are compute-bound and which memory-bound, and how far
below the roof the efficiency model puts them."""),
        new_code_cell("""\
h100 = candidates["H100 SXM"]
cluster = capplan.make_cluster(h100, 8, 8, link)
lines = capplan.layer_op_lines(job, capplan.ParallelPlan(dp=8, micro_batch=1), cluster)
plots.roofline(capplan.peak_rate(h100, capplan.Precision.bf16), capplan.peak_bandwidth(h100), lines);"""),
    ]


def notebooks():
    """{file name: notebook} for every example notebook."""
    out = {}
    for name, cells in (("purchase_decision.ipynb", purchase_decision()), ("cloud_vs_owned.ipynb", cloud_vs_owned()),
                        ("will_it_fit.ipynb", will_it_fit())):
        nb = new_notebook(cells=cells)
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nb.metadata["language_info"] = {"name": "python"}
        out[name] = nb
    return out


def main():
    for name, nb in notebooks().items():
        for i, cell in enumerate(nb.cells):
            cell["id"] = f"{pathlib.Path(name).stem.replace('_', '-')}-{i}"  # stable ids: clean diffs
        nbformat.validate(nb)
        nbformat.write(nb, HERE / name)
        print("wrote", HERE / name)


if __name__ == "__main__":
    main()
