"""Hatch build hook: the optional compiled build.

``SEVENBRIDGE_COMPILE=1 pip install .`` (or ``python -m build``) compiles the
engine's hot modules with mypyc, the compiler that ships with mypy, into C
extensions placed beside the pure-Python sources; Python imports an extension
in preference to the ``.py`` file of the same module. Without the variable the
build is the ordinary pure-Python wheel, and nothing below runs.

The hook needs mypy (for mypyc), setuptools (to drive the C compiler) and a C
compiler; it asks the build front end for the first two only when compiling.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The modules compiled: where a decision's time goes (see docs/explanation/performance.md).
HOT_MODULES = (
    "_tables.py",
    "engine/_fields.py",
    "engine/_keys.py",
    "engine/claims.py",
    "engine/legal.py",
    "engine/turn.py",
    "engine/step.py",
    "engine/_playout.py",
    "mahjong/_tables.py",
    "mahjong/_fields.py",
    "mahjong/_ops.py",
    "mahjong/claims.py",
    "mahjong/legal.py",
    "mahjong/turn.py",
    "mahjong/step.py",
    "mahjong/_tensor.py",
    "rl/_tensors.py",
    "envs/_lone.py",
    "inference/_past.py",
    "inference/_worlds.py",
)

#: Build requirements of the compiled build (mypy pinned like the lint extra;
#: attrs and numpy, for mypy to analyse the modules the compiled ones import:
#: the learners' tensors, rl/_tensors.py, build numpy arrays).
COMPILE_REQUIRES = ["mypy==2.4.1", "setuptools>=61", "attrs>=23.1", "numpy>=1.24"]

_SETUP = """
import sys
from mypyc.build import mypycify
from setuptools import setup

setup(
    name="sevenbridge-compiled-modules",
    ext_modules=mypycify(sys.argv[1:], opt_level="3"),
    script_args=["build_ext", "--inplace"],
)
"""


def compile_requested(environ: dict[str, str] | None = None) -> bool:
    """Whether ``SEVENBRIDGE_COMPILE`` asks for the compiled build (1, true, yes, on)."""
    value = (os.environ if environ is None else environ).get("SEVENBRIDGE_COMPILE", "")
    return value.strip().lower() in ("1", "true", "yes", "on")


class CompileHook(BuildHookInterface):
    """Compile :data:`HOT_MODULES` with mypyc when ``SEVENBRIDGE_COMPILE`` is set."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        return list(COMPILE_REQUIRES) if compile_requested() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or not compile_requested():
            return
        root = Path(self.root)
        work = Path(tempfile.mkdtemp(prefix="sevenbridge-mypyc-"))
        self._work = work
        # Compile a copy, so that no build artefact lands in the source tree.
        shutil.copytree(root / "src" / "sevenbridge", work / "sevenbridge")
        sources = [f"sevenbridge/{name}" for name in HOT_MODULES]
        subprocess.run([sys.executable, "-c", _SETUP, *sources], cwd=work, check=True)
        suffixes = (".so", ".pyd")
        built = [
            p
            for p in work.rglob("*")
            if p.suffix in suffixes and p.relative_to(work).parts[0] != "build"
        ]
        if not built:
            raise RuntimeError("mypyc produced no extension module")
        for path in built:
            # Per-module extensions go beside their sources; mypyc's shared
            # runtime library (one per build) goes at the top of the wheel.
            build_data["force_include"][str(path)] = str(path.relative_to(work))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
