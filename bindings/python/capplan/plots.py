"""Plots of capplan results with matplotlib: cost over time, rooflines, memory, scaling.

Each function takes capplan result objects (``compare_costs``' comparison, ``layer_op_lines``'
lines, a ``MemoryBudget``) or the plain arrays and dicts the sweeps produce, draws on ``ax``
(a new figure when none is given) and returns the ``matplotlib.axes.Axes``. Quantities are
plotted in readable units named on the axes (GB, TFLOP/s, hours); money in float dollars (the
exact amounts stay in the result objects).

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from capplan import plots
>>> ax = plots.cumulative_cost({"month": [0, 1, 2, 3], "owned_cumulative": [100, 110, 120, 130],
...                             "rented_cumulative": [0, 50, 100, 150]})
>>> ax.get_title()
'Cumulative cost: break-even in month 3'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterable, Optional, Sequence

import numpy as np

__all__ = ["cumulative_cost", "roofline", "memory_breakdown", "time_vs_gpus"]

GB = 1e9
TFLOPS = 1e12


def _axes(ax):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=(7, 4.2))
    return ax


def _get(obj: Any, *names: str, default: Any = None) -> Any:
    """The first of `names` found as a key (mappings) or an attribute (result objects)."""
    for n in names:
        if isinstance(obj, Mapping):
            if n in obj:
                return obj[n]
        elif hasattr(obj, n):
            return getattr(obj, n)
    return default


def _float(x: Any, what: str) -> float:
    """A plain number from a number, a capplan quantity (canonical value) or Money (amount)."""
    if x is None:
        raise TypeError(f"{what}: None is not a number")
    if hasattr(x, "amount") and not isinstance(x, (int, float)):  # Money, MoneyRate
        x = x.amount
    elif hasattr(x, "value") and not isinstance(x, (int, float, np.generic)):  # quantities
        x = x.value
    if isinstance(x, (Decimal, Fraction)):
        x = float(x)
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise TypeError(f"{what}: {x!r} is not a number") from None
    if math.isnan(v):
        raise ValueError(f"{what}: NaN is not a number")
    return v


def _floats(xs: Iterable[Any], what: str) -> np.ndarray:
    return np.array([_float(x, f"{what}[{i}]") for i, x in enumerate(xs)], dtype=float)


def _optional_int(x: Any) -> Optional[float]:
    if x is None:
        return None
    v = _float(x, "break_even")
    return None if math.isinf(v) else v


# --- cumulative cost ------------------------------------------------------------------------

def cumulative_cost(comparison: Any, ax=None, *, owned_label: Optional[str] = None, rented_label: Optional[str] = None,
                    net_of_resale: bool = True):
    """Cumulative cost of owning and renting over the months, with the break-even marked.

    ``comparison`` is the result of ``compare_costs`` (its ``months`` rows, ``owned``/``rented``
    names and break-even month and time) or a mapping of sequences ``month``,
    ``owned_cumulative``, ``rented_cumulative`` (optionally ``owned_net_cumulative``,
    ``break_even_month`` and ``break_even_time_months``; without a break-even month the first
    month where owning costs no more than renting is used). Draws a line per side, a marker at
    the break-even month on the owned line and a dotted vertical line at the interpolated
    crossing time; the title says when.
    """
    ax = _axes(ax)
    net = None
    if isinstance(comparison, Mapping):
        months = _floats(comparison["month"], "month")
        owned = _floats(comparison["owned_cumulative"], "owned_cumulative")
        rented = _floats(comparison["rented_cumulative"], "rented_cumulative")
        if len(months) != len(owned) or len(months) != len(rented):
            raise ValueError(f"month, owned_cumulative and rented_cumulative differ in length: "
                             f"{len(months)}, {len(owned)}, {len(rented)}")
        if comparison.get("owned_net_cumulative") is not None:
            net = _floats(comparison["owned_net_cumulative"], "owned_net_cumulative")
        month = _optional_int(comparison.get("break_even_month"))
        if month is None and "break_even_month" not in comparison:
            hits = np.nonzero(owned <= rented)[0]
            month = float(months[hits[0]]) if hits.size else None
        when = _optional_int(comparison.get("break_even_time_months"))
        owned_name, rented_name, currency = "owned", "rented", "USD"
    else:
        rows = list(comparison.months)
        months = np.array([r.month for r in rows], dtype=float)
        owned = _floats([r.owned_cumulative for r in rows], "owned_cumulative")
        rented = _floats([r.rented_cumulative for r in rows], "rented_cumulative")
        has_resale = comparison.break_even_month_with_resale is not None or (
            any(_float(r.resale_value, "resale_value") != 0 for r in rows))
        if has_resale:
            net = _floats([r.owned_net_cumulative for r in rows], "owned_net_cumulative")
        month = _optional_int(comparison.break_even_month)
        t = comparison.break_even_time
        when = None if t is None else _float(t, "break_even_time") / (730 * 3600)
        owned_name = getattr(comparison.owned, "name", "owned")
        rented_name = getattr(comparison.rented, "name", "rented")
        cur = getattr(rows[0].owned_cumulative, "currency", "USD")
        currency = getattr(cur, "name", str(cur))
    ax.plot(months, owned, label=owned_label or f"{owned_name} (cumulative)", color="C0", gid="owned")
    ax.plot(months, rented, label=rented_label or f"{rented_name} (cumulative)", color="C1", gid="rented")
    if net is not None and net_of_resale:
        ax.plot(months, net, label=f"{owned_name} net of resale", color="C0", linestyle="--", gid="owned_net")
    if month is not None:
        i = int(np.searchsorted(months, month))
        ax.plot([month], [owned[i]], marker="o", markersize=8, color="C3", linestyle="none",
                label=f"break-even: month {month:g}", gid="break_even")
        if when is not None:
            ax.axvline(when, color="C3", linestyle=":", linewidth=1, gid="break_even_time")
        ax.set_title(f"Cumulative cost: break-even in month {month:g}")
    else:
        ax.set_title(f"Cumulative cost: no break-even within {months[-1]:g} months")
    ax.set_xlabel("month")
    ax.set_ylabel(f"cumulative cost ({currency})")
    ax.set_xlim(months[0], months[-1])
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best")
    return ax


# --- roofline -------------------------------------------------------------------------------

def _op_fields(op: Any, i: int):
    """(name, flops, bytes, time_s or None) of an op: a mapping, an Op, or a layer_op_lines line."""
    inner = _get(op, "op", default=None)
    src = inner if inner is not None and not isinstance(op, Mapping) else op
    name = str(_get(src, "name", default=f"op {i}"))
    flops = _float(_get(src, "flops"), f"ops[{i}].flops")
    nbytes = _float(_get(src, "bytes"), f"ops[{i}].bytes")
    t = _get(op, "time_s", "forward", "time", default=None)
    return name, flops, nbytes, (None if t is None else _float(t, f"ops[{i}].time"))


def roofline(peak_flops_per_s: Any, bandwidth_bytes_per_s: Any, ops: Sequence[Any] = (), ax=None, *,
             title: Optional[str] = None):
    """A roofline (Williams et al. 2009): attainable rate = min(peak, intensity x bandwidth).

    ``peak_flops_per_s`` and ``bandwidth_bytes_per_s`` are numbers or capplan quantities
    (``FlopRate``, ``Bandwidth``: a GPU's dense peak at the precision and its memory bandwidth).
    ``ops`` are mappings with ``name``, ``flops``, ``bytes`` (optionally ``time_s``), ``Op``
    objects, or the lines of ``layer_op_lines`` (their op and predicted forward time). Each op
    is placed at its arithmetic intensity, at the rate its time implies (flops / time) or, with
    no time, on the roof; ops with no FLOPs or no bytes have no place on log axes and are left out. Axes are log-log in FLOP/B and TFLOP/s; the ridge point is marked.
    """
    ax = _axes(ax)
    peak = _float(peak_flops_per_s, "peak_flops_per_s")
    bw = _float(bandwidth_bytes_per_s, "bandwidth_bytes_per_s")
    if not peak > 0 or not bw > 0:
        raise ValueError(f"peak_flops_per_s and bandwidth_bytes_per_s must be > 0, got {peak:g} and {bw:g}")
    ridge = peak / bw
    points = [_op_fields(op, i) for i, op in enumerate(ops)]
    intensities = [f / b for _, f, b, _ in points if b > 0 and f > 0]
    lo = min([ridge / 100] + [x / 2 for x in intensities])
    hi = max([ridge * 100] + [x * 2 for x in intensities])
    x = np.geomspace(lo, hi, 256)
    ax.loglog(x, np.minimum(peak, x * bw) / TFLOPS, color="k", linewidth=2, label="roofline", gid="roof")
    ax.axvline(ridge, color="gray", linestyle=":", linewidth=1, gid="ridge")
    ax.annotate(f"ridge {ridge:.3g} FLOP/B", (ridge, peak / TFLOPS), textcoords="offset points", xytext=(4, -12),
                fontsize=8, color="gray")
    for i, (name, flops, nbytes, t) in enumerate(points):
        if nbytes <= 0 or flops <= 0:  # no place on log-log axes (a pure copy, or an op that moves nothing)
            continue
        ai = flops / nbytes
        rate = flops / t if t else min(peak, ai * bw)
        ax.plot([ai], [rate / TFLOPS], marker="o", linestyle="none", color=f"C{i % 10}", label=name, gid=f"op:{name}")
    ax.set_xlabel("arithmetic intensity (FLOP/B)")
    ax.set_ylabel("rate (TFLOP/s)")
    ax.set_title(title or f"Roofline: peak {peak / TFLOPS:.4g} TFLOP/s, {bw / 1e12:.4g} TB/s")
    ax.grid(True, which="both", alpha=0.3)
    if points:
        ax.legend(loc="lower right", fontsize=8)
    return ax


# --- memory breakdown -----------------------------------------------------------------------

_BUDGET_FIELDS = ("weights", "gradients", "optimizer_states", "activations", "kv_cache", "runtime_reserve")


def _breakdown(budget: Any, what: str) -> dict:
    """{label: bytes} of a MemoryBudget (its six items) or a mapping {label: bytes or DataSize}."""
    if isinstance(budget, Mapping):
        return {str(k): _float(v, f"{what}[{k!r}]") for k, v in budget.items()}
    items = getattr(budget, "items", None)
    entries = list(items()) if callable(items) else [getattr(budget, f) for f in _BUDGET_FIELDS if hasattr(budget, f)]
    if not entries:
        raise TypeError(f"{what}: expected a MemoryBudget or a mapping of label to bytes, got {type(budget).__name__}")
    return {str(_get(e, "label")): _float(_get(e, "size"), f"{what}.{_get(e, 'label')}") for e in entries}


def memory_breakdown(budgets: Any, capacity: Any = None, ax=None, *, title: Optional[str] = None):
    """Stacked bars of memory per component against the GPU's capacity.

    ``budgets`` is one budget (a ``MemoryBudget`` or a mapping {component: bytes or DataSize})
    or a mapping {bar label: budget} to compare configurations side by side. ``capacity``
    (bytes, a ``DataSize`` or a ``GpuSpec`` with ``memory``) draws a horizontal line. Heights
    are in GB (1e9 B); each bar's segments sum to its budget's total, printed on top.
    """
    ax = _axes(ax)
    if isinstance(budgets, Mapping) and budgets and all(
            isinstance(v, Mapping) or hasattr(v, "weights") for v in budgets.values()):
        bars = {str(k): _breakdown(v, f"budgets[{k!r}]") for k, v in budgets.items()}
    else:
        bars = {"": _breakdown(budgets, "budget")}
    components = []
    for b in bars.values():
        components += [c for c in b if c not in components]
    xs = np.arange(len(bars))
    bottom = np.zeros(len(bars))
    for j, comp in enumerate(components):
        heights = np.array([b.get(comp, 0.0) for b in bars.values()]) / GB
        if not np.any(heights):
            continue
        ax.bar(xs, heights, bottom=bottom, label=comp, color=f"C{j % 10}", width=0.6, gid=f"component:{comp}")
        bottom += heights
    for x, total in zip(xs, bottom):
        ax.annotate(f"{total:.4g} GB", (x, total), ha="center", va="bottom", fontsize=8)
    if capacity is not None:
        cap = _get(capacity, "memory", default=capacity) if not isinstance(capacity, (int, float)) else capacity
        cap_gb = _float(cap, "capacity") / GB
        name = _get(capacity, "name", default=None) if not isinstance(capacity, (int, float)) else None
        ax.axhline(cap_gb, color="k", linestyle="--", linewidth=1.5, gid="capacity",
                   label=f"{name + ' ' if isinstance(name, str) else ''}capacity {cap_gb:.4g} GB")
    ax.set_xticks(xs, list(bars))
    ax.set_ylabel("memory (GB)")
    ax.set_title(title or "Memory per GPU")
    ax.legend(loc="best", fontsize=8)
    ax.grid(True, axis="y", alpha=0.3)
    return ax


# --- time versus GPU count ------------------------------------------------------------------

_TIME_UNITS = (("days", 86400.0), ("hours", 3600.0), ("minutes", 60.0), ("seconds", 1.0))


def time_vs_gpus(gpus: Any, time_s: Any = None, ax=None, *, label: str = "estimate", ideal: bool = True,
                 unit: Optional[str] = None, title: Optional[str] = None):
    """Time against GPU count, log-log, with ideal linear scaling from the first point.

    ``gpus`` and ``time_s`` are sequences (a sweep's arrays), or ``gpus`` is a mapping with
    ``gpus`` and ``time_s`` keys (``sweeps.plan_times``' result; counts where no plan fits, time
    ``inf``, are left out), or a sequence of ``(gpus, estimate)`` pairs whose estimate has
    a total ``time`` (a Duration). ``unit`` is days, hours, minutes or seconds (default: the
    largest one the shortest time reaches).
    """
    ax = _axes(ax)
    if time_s is None:
        if isinstance(gpus, Mapping):
            gpus, time_s = gpus["gpus"], gpus["time_s"]
        else:
            pairs = list(gpus)
            gpus = [g for g, _ in pairs]
            time_s = [_get(e, "time", "total_time", "time_s", default=e) for _, e in pairs]
    g = _floats(np.ravel(gpus), "gpus")
    t = _floats(np.ravel(time_s), "time_s")
    if g.shape != t.shape:
        raise ValueError(f"gpus and time_s differ in length: {g.size} and {t.size}")
    keep = np.isfinite(t)  # inf: no plan fits at that count (sweeps.plan_times)
    g, t = g[keep], t[keep]
    if g.size == 0:
        raise ValueError("gpus: no points to plot (no finite time)")
    order = np.argsort(g)
    g, t = g[order], t[order]
    if unit is None:
        unit, scale = next(((n, s) for n, s in _TIME_UNITS if t.min() >= s), _TIME_UNITS[-1])
    else:
        scale = dict(_TIME_UNITS).get(unit)
        if scale is None:
            raise ValueError(f"unit: {unit!r} is not one of {', '.join(n for n, _ in _TIME_UNITS)}")
    ax.loglog(g, t / scale, marker="o", label=label, color="C0", gid="time")
    if ideal and g.size > 1:
        ax.loglog(g, t[0] * g[0] / g / scale, linestyle="--", color="gray", label="ideal scaling", gid="ideal")
    ax.set_xlabel("GPUs")
    ax.set_ylabel(f"time ({unit})")
    ax.set_title(title or "Time versus GPU count")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="best")
    return ax
