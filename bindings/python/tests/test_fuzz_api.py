"""A hypothesis-driven fuzz of the whole Python API: every public function and every constructor of
the capplan module is called with arguments drawn from its own signature (pybind11's docstring),
each argument either a sound value of its type or a hostile one: NaN, infinities, zero, negatives,
denormals, 2**63, huge and empty texts, NUL bytes, bytes for text, None, the wrong record.

What may happen: a result without NaN or infinity anywhere in it, or one of capplan's errors
(InputError and its kin: the bad field named), or TypeError / ValueError / OverflowError /
KeyError / IndexError from Python's own argument checks. What must never happen: any other
exception (a C++ exception leaking as RuntimeError), an interpreter abort (the test run dies), a
hang (hypothesis' deadline is off; the whole file is bounded by its example counts), or a NaN or
infinite figure returned quietly.
"""

import decimal
import importlib.util
import inspect
import math
import os
import pathlib
import re
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import capplan
from capplan import _core

ALLOWED = (capplan.InputError, TypeError, ValueError, OverflowError, KeyError, IndexError)

# Examples per callable: a 64th of the profile's budget (3 in the default profile, 2 in the quick one,
# conftest.py), or CAPPLAN_FUZZ_EXAMPLES for a long run (docs/reliability.md records them).
EXAMPLES = int(os.environ.get("CAPPLAN_FUZZ_EXAMPLES", "0")) or max(2, settings.default.max_examples // 64)

# Functions whose sound calls take seconds (a whole catalog ranked, plan searches over thousands of
# GPUs): fewer examples, the same checks.
HEAVY = {"purchase_table", "best_training_run", "search_plans", "propose_builds", "smallest_serving_run",
         "min_gpus_for_training", "min_gpus_for_serving", "training_report", "serving_report", "image_training_report",
         "training_memory_report", "serving_memory_report", "sweep_rent_vs_own", "html_page", "max_micro_batch",
         "max_context", "max_concurrent_sequences", "Catalog"}

FLOATS = [math.nan, math.inf, -math.inf, -1.0, 0.0, 5e-324, 1e-300, 1e300, 1.7976931348623157e308, 0.5, 1.0, 8.0, 7e9, 2e12]
INTS = [0, -1, 1, 2, 3, 8, 64, 4096, 2**31 - 1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, -(2**63), 10**30]
TEXTS = ["", "h100-sxm", "rtx4090", "llama2-7b", "bf16", "fp8", "q4_0", "USD", "CNY", "80 GB", "2 TB/s", "$2.49/h",
         "1e400", "nan", "-1 GB", "2026-13-45", "2026-11-01", "0x10", "\x00", "garbage\x00tail", "é" * 40, "9" * 400,
         "x" * 5000, "train", "json", "table"]
DECIMALS = ["0", "1", "-1", "0.01", "7.2", "1e-30", "1e30", "123456789012345678901234567890", "NaN", "Infinity", "-0"]


def _sound_pool():
    """Sound instances of capplan's types: catalog records, presets, default records, quantities."""
    cat = capplan.Catalog.builtin()
    pool = [cat, cat.find_gpu("h100-sxm"), cat.find_gpu("rtx4090"), cat.find_gpu("a100-sxm-80gb"),
            cat.find_system("dgx-a100"), cat.find_offer("aws-p5.48xlarge"), cat.find_cpu("epyc-7763"),
            capplan.find_model("llama2-7b").transformer(), capplan.find_model("mixtral-8x7b").transformer(),
            capplan.find_model("llama2-7b"), capplan.Money("2.49", "USD"), capplan.Money("100", "CNY"),
            capplan.MoneyRate("2.49", "USD"), capplan.ExchangeRate("USD", "CNY", decimal.Decimal("7.2"), "2026-11-01"),
            capplan.DataSize(80, "GB"), capplan.DataSize(0, "B"), capplan.DataSize(1e30, "B"), capplan.Duration(3600, "s"),
            capplan.Duration(0, "s"), capplan.Bandwidth(2e12, "B/s"), capplan.FlopRate(1e15, "FLOP/s"),
            capplan.Power(700, "W"), capplan.Power(0, "W"), capplan.Energy(1, "kWh")]
    for name in dir(_core):
        cls = getattr(_core, name)
        if inspect.isclass(cls) and not issubclass(cls, BaseException):
            try:
                pool.append(cls())
            except Exception:  # noqa: BLE001 - a class without a default constructor
                pass
    return pool


POOL = _sound_pool()

_SIG = re.compile(r"^(?:\d+\. )?(?:__init__|[A-Za-z_][A-Za-z0-9_]*)\((.*)\) -> .*$")


def _load_gen_stubs():
    """bindings/python/gen_stubs.py, which reads the same pybind11 signatures for the stubs (its
    split_top splits a signature's parameters); its import-time sys.path change is undone."""
    path = pathlib.Path(__file__).resolve().parents[1] / "gen_stubs.py"
    spec = importlib.util.spec_from_file_location("capplan_gen_stubs", path)
    module = importlib.util.module_from_spec(spec)
    saved = list(sys.path)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved
    return module


_split_top = _load_gen_stubs().split_top


def signatures(fn):
    """[[(name, type text, has default), ...], ...]: one list per overload, `self` left out."""
    doc = (fn.__init__.__doc__ if inspect.isclass(fn) else fn.__doc__) or ""
    out = []
    for line in doc.splitlines():
        m = _SIG.match(line.strip())
        if not m:
            continue
        params = []
        for p in _split_top(m.group(1)):
            if p in ("*args", "**kwargs"):
                params = None
                break
            name, _, rest = p.partition(":")
            typ, _, default = rest.partition("=")
            if name.strip() == "self":
                continue
            params.append((name.strip(), typ.strip(), bool(default.strip())))
        if params is not None:
            out.append(params)
    return out


def _of_type(typ):
    """A strategy for one argument of pybind11 type text `typ`: sound or hostile."""
    typ = typ.strip()
    hostile = st.sampled_from([None, b"7", "7", math.nan, -1, [], {}])
    m = re.match(r"^Optional\[(.*)\]$", typ)
    if m:
        return st.one_of(st.none(), _of_type(m.group(1)))
    m = re.match(r"^(?:List|list)\[(.*)\]$", typ)
    if m:
        return st.lists(_of_type(m.group(1)), max_size=3)
    if typ == "float":
        return st.one_of(st.sampled_from(FLOATS), st.floats(), st.integers(-10**6, 10**6), hostile)
    if typ == "int":
        return st.one_of(st.sampled_from(INTS), st.integers(-2**70, 2**70), hostile, st.just(1.5), st.just(math.inf))
    if typ == "str":
        return st.one_of(st.sampled_from(TEXTS), st.text(max_size=40), hostile)
    if typ == "bool":
        return st.one_of(st.booleans(), hostile)
    if typ in ("object", "decimal.Decimal", "Decimal"):
        return st.one_of(st.sampled_from(DECIMALS).map(decimal.Decimal), st.sampled_from(TEXTS), st.sampled_from(FLOATS),
                         st.sampled_from(INTS), st.sampled_from(POOL), hostile)
    cls_name = typ.rsplit(".", 1)[-1]
    cls = getattr(_core, cls_name, None)
    if inspect.isclass(cls):
        matching = [v for v in POOL if isinstance(v, cls)]
        if matching:
            return st.one_of(st.sampled_from(matching), st.sampled_from(POOL), hostile)
    return st.one_of(st.sampled_from(POOL), st.sampled_from(FLOATS), st.sampled_from(TEXTS), hostile)


def _check_finite(value, depth=0):
    """No NaN or infinity in a result (numbers, lists, dicts, numpy arrays, unit quantities)."""
    if depth > 4:
        return
    if isinstance(value, float):
        assert math.isfinite(value), f"a quiet {value!r} in the result"
    elif isinstance(value, decimal.Decimal):
        assert value.is_finite(), f"a quiet {value!r} in the result"
    elif isinstance(value, (list, tuple)):
        for v in value[:50]:
            _check_finite(v, depth + 1)
    elif isinstance(value, dict):
        for v in list(value.values())[:50]:
            _check_finite(v, depth + 1)
    elif hasattr(value, "dtype") and hasattr(value, "ravel"):  # numpy
        if value.dtype.kind == "f":
            assert all(math.isfinite(float(v)) for v in value.ravel()[:1000]), "a quiet NaN or infinity in the array"
    elif hasattr(value, "value") and isinstance(getattr(type(value), "value", None), property):
        _check_finite(value.value, depth + 1)


def _like(current):
    """A strategy for a record field whose default is `current`: sound or hostile values of its type."""
    if isinstance(current, bool):
        return _of_type("bool")
    if isinstance(current, int):
        return _of_type("int")
    if isinstance(current, float):
        return _of_type("float")
    if isinstance(current, str):
        return _of_type("str")
    if isinstance(current, list):
        return st.lists(_like(current[0]) if current else st.sampled_from(POOL), max_size=3)
    if current is None:
        return st.one_of(st.none(), st.sampled_from(POOL), st.sampled_from(FLOATS), st.sampled_from(TEXTS))
    return _of_type(type(current).__name__)


def _records():
    out = []
    for name in sorted(dir(_core)):
        cls = getattr(_core, name)
        if not inspect.isclass(cls) or not hasattr(cls, "to_dict") or not hasattr(cls, "replace"):
            continue
        try:
            cls()
        except Exception:  # noqa: BLE001 - a record without a default
            continue
        out.append(name)
    return out


RECORDS = _records()


@pytest.mark.parametrize("name", RECORDS)
def test_records_take_hostile_fields_by_keyword(name):
    cls = getattr(_core, name)
    default = cls()
    fields = {f: getattr(default, f) for f in default.to_dict() if hasattr(default, f)}

    @settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck), deadline=None)
    @given(st.data())
    def run(data):
        chosen = data.draw(st.lists(st.sampled_from(sorted(fields)), max_size=4, unique=True)) if fields else []
        kwargs = {f: data.draw(_like(fields[f]), label=f) for f in chosen}
        try:
            rec = cls(**kwargs)
        except ALLOWED:
            return
        repr(rec)
        rec.to_dict()
        if hasattr(rec, "validate"):
            try:
                rec.validate()
            except ALLOWED:
                return

    run()


def _callables():
    out = []
    for name in sorted(dir(_core)):
        if name.startswith("_"):
            continue
        obj = getattr(_core, name)
        if inspect.isclass(obj) and issubclass(obj, BaseException):
            continue
        if inspect.isclass(obj) and hasattr(obj, "__members__"):  # enumerations: their names are checked elsewhere
            continue
        if callable(obj) and signatures(obj):
            out.append(name)
    return out


CALLABLES = _callables()


def test_the_fuzz_reaches_the_whole_api():
    # Every public function and record of the module is in reach (a signature pybind11 documents).
    assert len(CALLABLES) + len(RECORDS) >= 220
    for name in ("training_flops", "best_training_run", "purchase_table", "DataSize", "Money", "max_context"):
        assert name in CALLABLES
    for name in ("GpuSpec", "ParallelPlan", "TrainingSetup", "PurchaseQuery", "BuildQuery", "ServingLoad"):
        assert name in RECORDS


@pytest.mark.parametrize("name", CALLABLES)
def test_hostile_arguments_raise_or_return_finite(name):
    fn = getattr(_core, name)
    sigs = signatures(fn)
    examples = max(1, EXAMPLES // 4) if name in HEAVY else EXAMPLES

    @settings(max_examples=examples, suppress_health_check=list(HealthCheck), deadline=None)
    @given(st.data())
    def run(data):
        params = data.draw(st.sampled_from(sigs))
        args = []
        for pname, typ, has_default in params:
            if has_default and data.draw(st.booleans()):
                break  # leave the rest at their defaults
            args.append(data.draw(_of_type(typ), label=pname))
        try:
            result = fn(*args)
        except ALLOWED:
            return
        _check_finite(result)

    run()
