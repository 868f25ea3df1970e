"""The test workflow (.github/workflows/test.yml) and the constraints file: the jobs
CI runs in parallel, on which systems and Pythons, with which versions of the
extras; and the suite's own settings (its markers, its Hypothesis profile). These
read the files of a source checkout; CI itself runs them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .helpers import github_workflow, pyproject

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "test.yml"
CONSTRAINTS = ROOT / ".ci" / "constraints.txt"


def _pyproject() -> dict[str, Any]:
    return pyproject()


def _workflow() -> dict[str, Any]:
    return github_workflow("test.yml")


def _runs(job: dict[str, Any]) -> str:
    return "\n".join(str(step.get("run", "")) for step in job["steps"])


def _pins() -> dict[str, str]:
    pins = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"{line!r} in .ci/constraints.txt is not an exact pin"
            pins[name.lower()] = version
    return pins


def _requirement_name(requirement: str) -> str:
    found = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert found, requirement
    return found.group(0).lower()


def test_the_jobs_run_in_parallel_and_cover_every_kind_of_check() -> None:
    jobs = _workflow()["jobs"]
    assert set(jobs) == {"behaviour", "compiled", "quality", "extras", "browser", "quickstart"}
    assert not any("needs" in job for job in jobs.values())  # nothing waits for another


def test_behaviour_runs_on_three_systems_and_the_oldest_and_newest_python() -> None:
    job = _workflow()["jobs"]["behaviour"]
    matrix = job["strategy"]["matrix"]
    assert {"ubuntu-latest", "macos-latest", "windows-latest"} <= set(matrix["os"])
    classifiers = _pyproject()["project"]["classifiers"]
    versions = sorted(
        (c.rsplit(":: ", 1)[1] for c in classifiers if re.search(r":: 3\.\d+$", c)),
        key=lambda v: tuple(int(p) for p in v.split(".")),
    )
    assert _pyproject()["project"]["requires-python"] == f">={versions[0]}"
    assert set(matrix["python"]) == {versions[0], versions[-1]}
    runs = _runs(job)
    assert "python -m build --wheel" in runs and "SEVENBRIDGE_COMPILE" not in runs
    assert '-m "not quality and not slow"' in runs


def test_the_compiled_job_builds_with_mypyc_and_checks_it_is_compiled() -> None:
    job = _workflow()["jobs"]["compiled"]
    assert "SEVENBRIDGE_COMPILE=1 python -m build --wheel" in _runs(job)
    tested = [s for s in job["steps"] if "pytest" in str(s.get("run", ""))]
    assert tested and all(s["env"]["SEVENBRIDGE_EXPECT_COMPILED"] == "1" for s in tested)
    # the tests whose outcome does not depend on the build ran in the pure jobs
    assert all("not build_independent" in s["run"] for s in tested)


def test_quality_extras_and_browser_jobs_select_by_marker() -> None:
    jobs = _workflow()["jobs"]
    assert "-m quality" in _runs(jobs["quality"])
    assert '-m "not quality and not browser"' in _runs(jobs["extras"])
    assert "-m browser" in _runs(jobs["browser"])
    for name in ("extras", "browser"):
        tested = [s for s in jobs[name]["steps"] if "pytest" in str(s.get("run", ""))]
        assert all(s["env"]["SEVENBRIDGE_FULL_CI"] == "1" for s in tested), name
    assert "chromium fonts-noto-cjk" in _runs(jobs["browser"])
    markers = " ".join(_pyproject()["tool"]["pytest"]["ini_options"]["markers"])
    for marker in ("quality", "browser", "slow", "build_independent"):
        assert f"{marker}:" in markers


def test_every_install_uses_the_constraints_file() -> None:
    for name, job in _workflow()["jobs"].items():
        for line in _runs(job).splitlines():
            if "pip install" in line and ("[" in line or "-e " in line):
                assert "-c .ci/constraints.txt" in line, (name, line)
    assert "-c .ci/constraints.txt" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_constraints_pin_every_heavy_extra_and_test_tool() -> None:
    pins = _pins()
    extras = _pyproject()["project"]["optional-dependencies"]
    heavy = (
        "test",
        "tournament",
        "ray",
        "rl",
        "pettingzoo",
        "gymnasium",
        "openspiel",
        "plot",
        "web",
    )
    for extra in heavy:
        for requirement in extras[extra]:
            name = _requirement_name(requirement)
            assert name in pins, f"{name} (extra {extra}) has no line in .ci/constraints.txt"


def test_the_minute_long_meta_tests_are_marked_slow() -> None:
    source = (ROOT / "tests" / "test_sample_state.py").read_text(encoding="utf-8")
    marked = source.split("def test_the_strategy_reaches_every_kind_of_position")[0]
    assert marked.rstrip().endswith("@pytest.mark.slow")


def test_every_property_test_takes_its_settings_from_the_profile() -> None:
    """``HYPOTHESIS_PROFILE`` switches every property test between the same examples
    and new ones (tests/conftest.py): a test sets at most its number of examples
    (and a search its example database), never a deadline, a health check or
    derandomize of its own, and the two profiles differ in derandomize alone."""
    import ast
    import os

    from hypothesis import settings

    from .budgets import THOROUGH

    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name == "conftest.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            called = ast.unparse(node.func)
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            assert not called.startswith(("settings.register_profile", "settings.load_profile"))
            if called in ("settings", "hypothesis.settings"):
                assert not node.args, f"{where}: settings with a parent"
                named = {keyword.arg for keyword in node.keywords}
                assert named <= {"max_examples", "database"}, f"{where}: settings {named}"
    repeatable, explore = settings.get_profile("repeatable"), settings.get_profile("explore")
    assert repeatable.derandomize and not explore.derandomize
    for name in ("deadline", "suppress_health_check", "max_examples"):
        assert getattr(repeatable, name) == getattr(explore, name), name
    loaded = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
    assert settings().derandomize is loaded.derandomize is THOROUGH.derandomize


def _readme_command_b() -> str:
    """The README's quick-start command (b): the line after its ``# (b)`` comment."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("# (b) ")]
    assert len(starts) == 1, "README.md has one quick-start command (b)"
    return lines[starts[0] + 1]


def test_readme_command_b_installs_only_test_lint_docs_and_runs_the_whole_suite() -> None:
    command = _readme_command_b()
    assert command.startswith("python3 -m venv .venv && ")
    assert '-m pip install -e ".[test,lint,docs]"' in command
    assert command.endswith("-m pytest -n auto --dist loadfile")


def test_ci_runs_readme_command_b_first_as_written_without_extras() -> None:
    """.ci/run reads command (b) from the README and runs it before it installs
    anything else, in a venv made anew, with the extras' tests left optional;
    the extras' suite then runs in a venv of its own."""
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    code = [line.strip() for line in run.splitlines() if not line.lstrip().startswith("#")]
    text = "\n".join(code)
    read = text.index("sed -n '/^# (b) /{n;p;q}' README.md")
    fresh = text.index("rm -rf .venv\n")
    ran = text.index('env -u SEVENBRIDGE_FULL_CI bash -c "$readme_b"')
    assert read < fresh < ran
    before = text[:ran]
    assert "apt-get" not in before and "uv" not in before and "pip install" not in before
    after = text[ran:]
    assert after.index("rm -rf .venv-extras") < after.index("python3 -m venv .venv-extras")
    assert after.index("export SEVENBRIDGE_FULL_CI=1") < after.index(
        ".venv-extras/bin/python -m pytest -n auto --dist loadfile"
    )
    # the only venv made in the clone's .venv is command (b)'s own
    assert not any(
        line.startswith(("python3 -m venv .venv ", "python3 -m venv .venv&"))
        or line == "python3 -m venv .venv"
        for line in code
    )


def test_the_quickstart_job_runs_readme_command_b_as_written() -> None:
    job = _workflow()["jobs"]["quickstart"]
    assert "sed -n '/^# (b) /{n;p;q}' README.md" in _runs(job)
    assert "pip install" not in _runs(job)  # nothing before command (b)


def test_every_job_of_every_workflow_has_a_timeout() -> None:
    for name in ("test.yml", "release.yml"):
        for job_name, job in github_workflow(name)["jobs"].items():
            minutes = job.get("timeout-minutes")
            assert isinstance(minutes, int) and 0 < minutes <= 90, (name, job_name)
