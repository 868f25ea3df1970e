"""The release configuration: a pure-Python wheel and sdist, compiled wheels for
Linux, macOS and Windows (cibuildwheel), and the build hook that compiles.

These read the files of a source checkout; they do not build anything (CI's
.ci/run builds and tests both wheels).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from .helpers import github_workflow, pyproject

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def _pyproject() -> dict[str, Any]:
    return pyproject()


def _workflow() -> dict[str, Any]:
    return github_workflow("release.yml")


def _steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = job["steps"]
    return steps


def _uses(job: dict[str, Any], action: str) -> list[dict[str, Any]]:
    return [s for s in _steps(job) if str(s.get("uses", "")).startswith(action + "@")]


def test_release_workflow_builds_pure_and_compiled_wheels_and_publishes_on_tags() -> None:
    flow = _workflow()
    # PyYAML reads the key "on" as True.
    triggers: dict[str, Any] = flow["on"] if "on" in flow else flow[True]  # type: ignore[index]
    assert triggers["push"]["tags"] == ["v*"]
    jobs = flow["jobs"]

    pure = jobs["pure"]
    script = "\n".join(str(s.get("run", "")) for s in _steps(pure))
    assert "python -m build" in script and "SEVENBRIDGE_COMPILE=1" not in script
    assert not any("SEVENBRIDGE_COMPILE" in str(s.get("env", {})) for s in _steps(pure))

    compiled = jobs["compiled"]
    (cibw,) = _uses(compiled, "pypa/cibuildwheel")
    assert re.fullmatch(r"pypa/cibuildwheel@v\d+\.\d+\.\d+", cibw["uses"])  # pinned
    systems = compiled["strategy"]["matrix"]["os"]
    for family in ("ubuntu", "macos", "windows"):
        assert any(os.startswith(family) for os in systems), family
    assert compiled["runs-on"] == "${{ matrix.os }}"

    publish = jobs["publish"]
    assert set(publish["needs"]) == {"pure", "compiled"}
    assert publish["if"] == "startsWith(github.ref, 'refs/tags/v')"
    assert publish["permissions"] == {"id-token": "write"}  # trusted publishing
    (download,) = _uses(publish, "actions/download-artifact")
    uploads = [
        s["with"]["name"] for job in (pure, compiled) for s in _uses(job, "actions/upload-artifact")
    ]
    prefix = download["with"]["pattern"].rstrip("*")
    assert uploads and all(name.startswith(prefix) for name in uploads)
    assert _uses(publish, "pypa/gh-action-pypi-publish")


def test_cibuildwheel_compiles_every_supported_python_and_tests_the_compiled_build() -> None:
    project = _pyproject()
    cibw = project["tool"]["cibuildwheel"]
    assert cibw["environment"]["SEVENBRIDGE_COMPILE"] == "1"
    assert cibw["environment"]["SEVENBRIDGE_EXPECT_COMPILED"] == "1"
    # One CPython build per supported version, from requires-python and the classifiers.
    versions = sorted(
        c.rsplit(" :: ", 1)[1]
        for c in project["project"]["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    )
    assert project["project"]["requires-python"] == f">={versions[0]}"
    built = cibw["build"].split()
    assert built == [f"cp{v.replace('.', '')}-*" for v in versions]
    commands = cibw["test-command"]
    assert "sevenbridge.COMPILED" in commands[0]
    assert commands[1].startswith("pytest") and "tests" in commands[1].split()
    assert "test" in cibw["test-extras"]
    for source in cibw["test-sources"]:
        assert (ROOT / source).exists(), source


def test_the_build_hook_compiles_the_hot_modules_only_when_asked() -> None:
    project = _pyproject()
    hook = project["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]
    path = ROOT / hook["path"]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # Read the hook's settings without importing it (hatchling is a build
    # requirement, not a test one).
    values = {
        node.targets[0].id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }
    hot = ast.literal_eval(values["HOT_MODULES"])
    package = ROOT / "src" / "sevenbridge"
    assert hot and all((package / name).is_file() for name in hot)
    # The public entry points that take user input stay Python (their checks
    # and messages must not change), and so does the rest of the package.
    assert "playout.py" not in hot and "state.py" not in hot
    # Dealing and the diagnosis of illegal actions are the engine's plain Python.
    assert "engine/__init__.py" not in hot and "engine/explain.py" not in hot
    assert "mahjong/engine.py" not in hot and "mahjong/state.py" not in hot
    assert "mahjong/explain.py" not in hot
    requires = ast.literal_eval(values["COMPILE_REQUIRES"])
    lint = next(r for r in project["project"]["optional-dependencies"]["lint"] if "mypy" in r)
    assert lint in requires  # the same mypy (and so mypyc) as the type check
    namespace: dict[str, Any] = {"os": __import__("os")}
    function = next(
        n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "compile_requested"
    )
    exec(compile(ast.Module([function], []), str(path), "exec"), namespace)
    requested = namespace["compile_requested"]
    assert requested({"SEVENBRIDGE_COMPILE": "1"}) and requested({"SEVENBRIDGE_COMPILE": "yes"})
    assert not requested({}) and not requested({"SEVENBRIDGE_COMPILE": "0"})
