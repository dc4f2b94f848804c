"""The stubs cover the module: every public name of capplan._core has an entry in _core.pyi, and every
field of a bound record is declared on its class."""

import ast
import pathlib

import capplan
import capplan._core as core

PACKAGE = pathlib.Path(capplan.__file__).parent


def _stub_tree():
    return ast.parse((PACKAGE / "_core.pyi").read_text())


def test_every_public_name_has_a_stub():
    tree = _stub_tree()
    declared = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            declared.add(node.target.id)
    public = {n for n in dir(core) if not n.startswith("_")}
    assert sorted(public - declared) == []


def test_every_record_field_is_in_its_stub():
    classes = {n.name: n for n in _stub_tree().body if isinstance(n, ast.ClassDef)}
    for name in dir(core):
        fields = getattr(getattr(core, name), "__capplan_fields__", None)
        if not fields or not isinstance(fields, tuple):
            continue
        members = {f.name for f in classes[name].body if isinstance(f, ast.FunctionDef)}
        assert set(fields) <= members, name
