"""Builds capplan._core with pybind11's setuptools helpers; the metadata is in pyproject.toml.

Offline on Debian 12 (pybind11, setuptools and wheel from Debian packages):

    /usr/bin/python3 -m venv --system-site-packages .venv
    .venv/bin/python -m pip install --no-build-isolation .
"""

import glob
import os
import re

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))


def version():
    """The version, written once in include/capplan/version.hpp."""
    with open(os.path.join(HERE, "include", "capplan", "version.hpp"), encoding="utf-8") as f:
        text = f.read()
    parts = [re.search(rf"#define CAPPLAN_VERSION_{p} (\d+)", text).group(1) for p in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


# Keep setuptools' scratch files out of the CMake build trees (build/<preset>) and the sources;
# CAPPLAN_SETUPTOOLS_BUILD moves them elsewhere (scripts/test-python uses a temporary directory).
SCRATCH = os.environ.get("CAPPLAN_SETUPTOOLS_BUILD", os.path.join("build", "setuptools"))
os.makedirs(SCRATCH, exist_ok=True)

# Compile the translation units in parallel (CAPPLAN_BUILD_JOBS, default: every core).
ParallelCompile("CAPPLAN_BUILD_JOBS").install()

ext = Pybind11Extension(
    "capplan._core",
    # Every bindings/python/src/*.cpp is one translation unit (the CMake build globs the same set).
    sorted(glob.glob("bindings/python/src/*.cpp", root_dir=HERE)),
    include_dirs=["include", "bindings/python/src"],
    cxx_std=20,
)

setup(
    version=version(),
    ext_modules=[ext],
    cmdclass={"build_ext": build_ext},
    options={
        "build": {"build_base": SCRATCH},
        "egg_info": {"egg_base": SCRATCH},
    },
    zip_safe=False,
)
