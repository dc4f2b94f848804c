"""The example notebooks (examples/notebooks/*.ipynb) run top to bottom and print what they promise.

Each notebook is executed with nbclient on an ipykernel started from this interpreter, through a
kernelspec written to a temporary directory (nothing is installed globally); the kernel imports
the same capplan package as these tests (PYTHONPATH) and draws with matplotlib's Agg backend.
The committed notebooks must also match examples/notebooks/build_notebooks.py, which writes them.
"""

import importlib.util
import json
import os
import pathlib
import sys

import ipykernel  # noqa: F401  (Debian python3-ipykernel: the kernel the notebooks run on)
import nbclient
import nbformat
import pytest

import capplan

ROOT = pathlib.Path(__file__).resolve().parents[3]
NOTEBOOKS = ROOT / "examples" / "notebooks"

# Text each notebook's outputs must contain: numbers the notebook computes from published inputs.
EXPECTED = {
    "purchase_decision.ipynb": [
        "6ND = 8.4e+22 FLOP",                  # 6 x 7e9 x 2e12 (Kaplan et al. 2020)
        "$2.99/h per GPU (lambda-gpu-8x-h100-sxm5)",  # the catalog's cheapest H100 offer, $23.92 / 8 GPUs
        "fastest: 512 x ",
        "cheapest: ",
        "decision: ",
    ],
    "cloud_vs_owned.ipynb": [
        "break-even: month 10",                # Dettmers' desktop against a $2.14/h cloud GPU, 15% use
        "about 293 days",                      # Dettmers: about 300 days
        "rented: $5,623.92",                   # 24 x 0.15 x 730 h x $2.14, exact
        "sweep break-even months (15% use): 10",
        "break-even at utilization",
    ],
    "will_it_fit.ipynb": [
        "llama2-7b 6,738,415,616 parameters",  # Llama 2 7B (Hugging Face model card count)
        "13.48 GB",                            # bf16 weights: 6.738e9 x 2 B
        "fits: False",                         # full fine-tuning with Adam on one 80 GB H100
        "ZeRO-3 x8 fits: True",
        "serving fits: True",
        "longest context for one sequence on the 4090:",
    ],
}


def _build_module():
    spec = importlib.util.spec_from_file_location("build_notebooks", NOTEBOOKS / "build_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def kernel_dirs(tmp_path_factory):
    """A kernelspec for this interpreter, with the environment the kernel needs, in a temporary directory."""
    root = tmp_path_factory.mktemp("jupyter")
    spec_dir = root / "kernels" / "capplan-python"
    spec_dir.mkdir(parents=True)
    package_parent = str(pathlib.Path(capplan.__file__).resolve().parents[1])
    path = os.pathsep.join([package_parent] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "capplan (tests)",
        "language": "python",
        "env": {"PYTHONPATH": path, "MPLBACKEND": "Agg", "PYDEVD_DISABLE_FILE_VALIDATION": "1",
                "PYTHONDONTWRITEBYTECODE": "1"},
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    return [str(root / "kernels")]


def _outputs_text(nb):
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                parts.append(out.get("text", ""))
            elif out.get("output_type") in ("execute_result", "display_data"):
                parts.append(out.get("data", {}).get("text/plain", ""))
            elif out.get("output_type") == "error":
                parts.append("\n".join(out.get("traceback", [])))
    return "\n".join(parts)


def test_every_notebook_is_checked():
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(EXPECTED)


def test_notebooks_match_their_builder():
    built = _build_module().notebooks()
    for name, nb in built.items():
        committed = nbformat.read(NOTEBOOKS / name, as_version=4)
        assert [c.source for c in committed.cells] == [c.source for c in nb.cells], \
            f"{name} is stale: run examples/notebooks/build_notebooks.py"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_notebook_runs_and_prints_its_results(name, kernel_dirs):
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    km = KernelManager(kernel_name="capplan-python", kernel_spec_manager=KernelSpecManager(kernel_dirs=kernel_dirs))
    client = nbclient.NotebookClient(nb, km=km, timeout=120, resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()
    text = _outputs_text(nb)
    for expected in EXPECTED[name]:
        assert expected in text, f"{name}: {expected!r} not in the outputs:\n{text}"
    # Every figure a notebook draws comes back as a PNG.
    images = [o for c in nb.cells for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    assert images, f"{name}: no figure in the outputs"
