"""The package itself: layout, version, exports, exception classes, and stubs that match the module."""

import ast
import builtins
import itertools
import operator
import pathlib
import re

import pytest

import capplan
import capplan._core as core

ROOT = pathlib.Path(__file__).resolve().parents[3]
PACKAGE = pathlib.Path(capplan.__file__).parent


def test_version_matches_the_cpp_header():
    text = (ROOT / "include" / "capplan" / "version.hpp").read_text()
    parts = [re.search(rf"#define CAPPLAN_VERSION_{p} (\d+)", text).group(1) for p in ("MAJOR", "MINOR", "PATCH")]
    assert capplan.__version__ == ".".join(parts)


def test_typed_package_files_are_installed():
    assert (PACKAGE / "py.typed").exists()
    assert (PACKAGE / "_core.pyi").exists()


def test_all_is_exported_and_complete():
    for name in capplan.__all__:
        assert hasattr(capplan, name), name
    public = {n for n in dir(core) if not n.startswith("_")}
    assert public <= set(capplan.__all__)


def test_exception_hierarchy():
    assert issubclass(capplan.InputError, ValueError)
    assert issubclass(capplan.ParseError, capplan.InputError)
    assert issubclass(capplan.CurrencyError, capplan.InputError)
    assert issubclass(capplan.LookupError, capplan.InputError)
    assert issubclass(capplan.LookupError, builtins.LookupError)


def _samples():
    units = {"DataSize": "GB", "Duration": "h", "FlopCount": "TFLOP", "FlopRate": "TFLOP/s", "Bandwidth": "GB/s",
             "Power": "W", "Energy": "kWh", "ArithmeticIntensity": "FLOP/B", "CarbonMass": "kgCO2e",
             "CarbonIntensity": "kgCO2e/kWh", "Length": "mm"}
    out = {n: getattr(capplan, n)(2, u) for n, u in units.items()}
    out.update(Money=capplan.Money(2, "USD"), MoneyRate=capplan.MoneyRate(2, "USD"),
               EnergyPrice=capplan.EnergyPrice(2, "USD"))
    return out


def _runtime_mixes():
    """{(left, op, right): result type name} for every product and quotient that works at run time."""
    found = {}
    samples = _samples()
    for (a, x), (b, y) in itertools.product(samples.items(), repeat=2):
        for op, fn in (("__mul__", operator.mul), ("__truediv__", operator.truediv)):
            try:
                r = fn(x, y)
            except TypeError:
                continue
            found[(a, op, b)] = "_decimal.Decimal" if type(r).__name__ == "Decimal" else type(r).__name__
    return found


def _stub_mixes():
    tree = ast.parse((PACKAGE / "_core.pyi").read_text())
    names = set(_samples())
    found = {}
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name in names):
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef)):
            if fn.name in ("__mul__", "__truediv__"):
                arg = ast.unparse(fn.args.args[1].annotation)
                if arg in names:
                    found[(cls.name, fn.name, arg)] = ast.unparse(fn.returns)
    return found


def test_stub_overloads_match_the_module():
    assert _stub_mixes() == _runtime_mixes()


@pytest.mark.parametrize("mix", sorted(_runtime_mixes()))
def test_every_defined_mix_is_commutative_where_cpp_is(mix):
    a, op, b = mix
    if op != "__mul__":
        return
    samples = _samples()
    assert type(samples[a] * samples[b]) is type(samples[b] * samples[a])


def test_package_docstring_examples_run():
    import doctest

    result = doctest.testmod(capplan, verbose=False)
    assert result.attempted > 0 and result.failed == 0
