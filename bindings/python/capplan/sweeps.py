"""NumPy sweeps: capplan's formulas over whole grids of inputs at C++ speed.

Every argument is a number or an array of numbers; arrays broadcast by NumPy's rules, so a grid
is built from axes shaped to meet (``grid`` does that). Where a name carries a unit of a capplan
quantity (``peak_flops_per_s``, ``*_power_w``, ``time_s``), a single quantity of that role works
too (``FlopRate(989, "TFLOP/s")``); one of another role raises ``TypeError``. Results are float64 arrays in the unit
their name says (``time_s``, ``energy_kwh``, ``usd``). Each element is computed by the same C++
functions as the scalar API (``training_flops``, ``run_energy``, the units' arithmetic), with the
GIL released: about a million points in well under a second.

Dollars in a sweep are float64 and approximate (for plots and screening); the scalar API
(``Money``, ``compare_costs``) keeps money exact.

Bad input raises ``capplan.InputError`` (a ``ValueError``) naming the argument and the element,
e.g. ``gpus[2]: -1 must be > 0``; arrays that do not broadcast raise ``ValueError``; things
that are not numbers raise ``TypeError``.

>>> import numpy as np
>>> from capplan import sweeps
>>> axes = sweeps.grid(params=[7e9, 70e9], gpus=[8, 64, 512])
>>> t = sweeps.training_time(tokens=2e12, peak_flops_per_s=989e12, mfu=0.4, **axes)
>>> t.shape
(2, 3)
>>> round(float(t[0, 0]) / 86400, 1)   # days: 6 x 7e9 x 2e12 / (8 x 989e12 x 0.4) s
307.2
"""

from __future__ import annotations

from typing import Dict

import numpy as np

from . import _core

__all__ = ["grid", "training_flops", "training_time", "run_energy", "training", "rent_vs_own", "plan_times"]


def _plain(value, name: str, role):
    """A capplan quantity of the expected role as its canonical value (FLOP/s, W, s); numbers and arrays unchanged.

    A quantity of another role raises TypeError rather than being read in the wrong unit.
    """
    if isinstance(value, role):
        return value.value
    if hasattr(value, "canonical_unit") and hasattr(value, "value"):
        raise TypeError(f"{name}: expected a {role.__name__} or a number in {role.canonical_unit}, "
                        f"got a {type(value).__name__}")
    return value


def grid(**axes) -> Dict[str, np.ndarray]:
    """Named 1-D axes reshaped to broadcast against each other, in the order given.

    ``grid(params=[...], tokens=[...], gpus=[...])`` returns ``{"params": shape (P, 1, 1),
    "tokens": (1, T, 1), "gpus": (1, 1, G)}``; pass them on as keyword arguments and the result
    has shape (P, T, G). Nothing is copied or materialised (``numpy.meshgrid(sparse=True)``).
    """
    for name, values in axes.items():
        if np.ndim(values) != 1:
            raise ValueError(f"{name}: an axis must be one-dimensional, got shape {np.shape(values)}")
    meshes = np.meshgrid(*[np.asarray(v) for v in axes.values()], indexing="ij", sparse=True)
    return dict(zip(axes.keys(), meshes))


def training_flops(params, tokens) -> np.ndarray:
    """Training FLOPs C = 6 N D (Kaplan et al. 2020, §2.1) for whole parameter and token counts.

    Each element is the exact integer product rounded once to float64.
    """
    return _core.sweep_training_flops(params, tokens)


def training_time(params, tokens, gpus, peak_flops_per_s, mfu=0.4) -> np.ndarray:
    """Training time in seconds: 6 N D / (gpus x peak FLOP/s per GPU x MFU).

    The simple model of ``capplan compare --mfu`` (no communication or pipeline bubble); the
    performance model (``estimate_training``) prices those in for one configuration at a time.
    ``peak_flops_per_s`` is the dense peak per GPU at the training precision (H100 SXM BF16:
    989e12).
    """
    peak_flops_per_s = _plain(peak_flops_per_s, "peak_flops_per_s", _core.FlopRate)
    return _core.sweep_training_time(params, tokens, gpus, peak_flops_per_s, mfu)


def run_energy(power_w, time_s, utilization=1.0, idle_power_w=0.0, pue=1.0) -> np.ndarray:
    """Facility energy in kWh: (P_active x u + P_idle x (1 - u)) x t x PUE (``run_energy``)."""
    power_w = _plain(power_w, "power_w", _core.Power)
    time_s = _plain(time_s, "time_s", _core.Duration)
    idle_power_w = _plain(idle_power_w, "idle_power_w", _core.Power)
    return _core.sweep_run_energy(power_w, time_s, utilization, idle_power_w, pue)


def training(params, tokens, gpus, peak_flops_per_s, mfu=0.4, gpu_power_w=0.0, pue=1.0, usd_per_gpu_hour=0.0,
             usd_per_kwh=0.0) -> Dict[str, np.ndarray]:
    """A training run over a grid: a dict of float64 arrays of the broadcast shape.

    ``flops`` (6 N D), ``time_s`` (at MFU), ``gpu_hours``, ``energy_kwh`` (GPUs x ``gpu_power_w``
    x time x PUE), ``rent_usd`` (GPU-hours x ``usd_per_gpu_hour``) and ``electricity_usd``
    (kWh x ``usd_per_kwh``).
    """
    peak_flops_per_s = _plain(peak_flops_per_s, "peak_flops_per_s", _core.FlopRate)
    gpu_power_w = _plain(gpu_power_w, "gpu_power_w", _core.Power)
    return _core.sweep_training(params, tokens, gpus, peak_flops_per_s, mfu, gpu_power_w, pue, usd_per_gpu_hour,
                                usd_per_kwh)


def rent_vs_own(purchase_usd, active_power_w, usd_per_kwh, rent_usd_per_hour, utilization=1.0, horizon_months=36,
                idle_power_w=0.0, pue=1.0, maintenance_usd_per_month=0.0,
                space_usd_per_month=0.0) -> Dict[str, np.ndarray]:
    """Owning versus renting on demand (``compare_costs`` without discounting or resale).

    Owned cumulative cost P + m x run, rented m x rent, with run = electricity at the
    utilization (730 h months) + maintenance + space, and rent = rate x utilization x 730 h.
    Returns float64 arrays ``owned_monthly_usd``, ``rented_monthly_usd``, ``owned_total_usd``
    and ``rented_total_usd`` (at ``horizon_months``), ``break_even_month`` (the first whole
    month owning has cost no more than renting; ``inf`` when not within the horizon) and
    ``break_even_time_months`` (P / (rent - run), the crossing; ``inf`` likewise).
    """
    active_power_w = _plain(active_power_w, "active_power_w", _core.Power)
    idle_power_w = _plain(idle_power_w, "idle_power_w", _core.Power)
    return _core.sweep_rent_vs_own(purchase_usd, active_power_w, usd_per_kwh, rent_usd_per_hour, utilization,
                                   horizon_months, idle_power_w, pue, maintenance_usd_per_month, space_usd_per_month)


def plan_times(job, gpu, gpus, inter, tokens, gpus_per_node=8, **search) -> Dict[str, np.ndarray]:
    """The performance model over GPU counts: for each count, the fastest plan ``search_plans`` finds.

    ``job`` is a ``TrainingJob``, ``gpu`` a ``GpuSpec``, ``inter`` the ``Link`` between nodes
    (``infiniband(...)``), ``tokens`` the training tokens; ``search`` passes on to
    ``search_plans`` (``framework``, ``model``, ``space``). Unlike the other sweeps this one
    calls the scalar C++ search once per count (each search times every tensor x pipeline x data
    layout, micro-batch, ZeRO stage and recomputation that fits in memory: milliseconds).
    Returns arrays ``gpus``, ``time_s`` (tokens / the plan's tokens per second; ``inf`` where no
    plan fits), ``mfu`` (0 where none fits) and ``fits`` (bool).
    """
    counts = np.asarray(gpus)
    if counts.ndim != 1:
        raise ValueError(f"gpus: expected a one-dimensional array of GPU counts, got shape {counts.shape}")
    n_tokens = float(tokens)
    if not n_tokens > 0 or not np.isfinite(n_tokens):
        raise ValueError(f"tokens: {tokens!r} must be a positive number")
    time_s = np.full(counts.shape, np.inf)
    mfu = np.zeros(counts.shape)
    fits = np.zeros(counts.shape, dtype=bool)
    for i, n in enumerate(counts):
        if n != int(n) or n < 1:
            raise ValueError(f"gpus[{i}]: {n!r} is not a positive whole number")
        cluster = _core.make_cluster(gpu, int(n), gpus_per_node, inter)
        result = _core.search_plans(job, cluster, top=1, **search)
        if result.top:
            est = result.top[0].estimate
            time_s[i] = n_tokens / est.tokens_per_second
            mfu[i] = est.mfu
            fits[i] = True
    return {"gpus": counts.astype(np.int64), "time_s": time_s, "mfu": mfu, "fits": fits}
