"""Layers import one way, over the whole package, with no import circle.

foundation (errors) < kit < values < engine < inference < services <
presentation < applications: a module may import modules of its own layer and of the layers
below it, never above. Simple Mahjong is a game of its own: it imports the
kit, the errors and itself, nothing of the card game. Every import counts,
those inside functions included.
"""

from __future__ import annotations

import ast
import fnmatch
from pathlib import Path

import pytest

import sevenbridge

PACKAGE = Path(sevenbridge.__file__).resolve().parent

#: The layers, bottom first, as patterns of module names (without the
#: ``sevenbridge.`` prefix; ``""`` is the package's public namespace).
LAYERS: list[tuple[str, list[str]]] = [
    ("foundation", ["errors"]),
    ("kit", ["_kit", "_kit.*"]),
    ("values", [
        "_tables", "rules", "cards", "melds", "actions", "scoring", "state", "views",
        "notation", "_heuristics",
    ]),
    ("engine", ["engine", "engine.*"]),
    ("inference", ["inference", "inference.*"]),
    ("services", [
        "match", "records", "serialize", "serialize.*", "bots", "playout", "rl", "rl.*",
        "_store", "external", "arena", "arena.*", "ladder", "games",
    ]),
    ("presentation", ["text", "move_events", "svg", "html"]),
    ("applications", ["", "__main__", "cli", "cli.*", "envs", "envs.*", "web", "web.*"]),
]  # fmt: skip

#: The game of its own, and what it may import besides itself.
MAHJONG = "mahjong"
MAHJONG_MAY_IMPORT = ["errors", "_kit", "_kit.*"]
#: Below the applications, the services that serve both games (the learning
#: interfaces: sevenbridge.rl numbers either game's actions) may import it too.
MAY_IMPORT_MAHJONG = ["rl", "rl.*"]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imported_by_name(node: ast.Call) -> str | None:
    """The package's module that ``import_module("sevenbridge...")`` or
    ``__import__(...)`` names by a literal string, if the call is one."""
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if called not in ("import_module", "__import__") or not node.args:
        return None
    first = node.args[0]
    text = first.value if isinstance(first, ast.Constant) else None
    if isinstance(text, str) and (text + ".").startswith("sevenbridge."):
        return text
    return None


def imports_of(name: str, source: str, is_package: bool) -> set[str]:
    """Every sevenbridge module that the source of module ``name`` imports,
    anywhere in its code (names relative to the package, ``""`` for itself)."""
    found: set[str] = set()
    here = name.split(".") if name else []
    if not is_package:
        here = here[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)] if node.level > 1 else here
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and (node.module + ".").startswith("sevenbridge."):
                target = node.module.removeprefix("sevenbridge").removeprefix(".")
            else:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                found.add(sub if sub in MODULES else target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if (alias.name + ".").startswith("sevenbridge."):
                    found.add(alias.name.removeprefix("sevenbridge").removeprefix("."))
        elif isinstance(node, ast.Call) and (named := _imported_by_name(node)) is not None:
            # importlib.import_module("sevenbridge.x") is an import too.
            found.add(named.removeprefix("sevenbridge").removeprefix("."))
    found.discard(name)
    return found


GRAPH = {
    name: imports_of(name, path.read_text(encoding="utf-8"), path.name == "__init__.py")
    for name, path in MODULES.items()
}


def _matches(name: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def layer_of(name: str) -> int:
    for position, (_, patterns) in enumerate(LAYERS):
        if _matches(name, patterns):
            return position
    raise LookupError(name)


def test_every_module_has_a_layer() -> None:
    unplaced = []
    for name in GRAPH:
        if name == MAHJONG or name.startswith(MAHJONG + "."):
            continue
        try:
            layer_of(name)
        except LookupError:
            unplaced.append(name)
    assert not unplaced, f"modules in no layer (add them to LAYERS): {unplaced}"


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    wrong = []
    for name, imported in GRAPH.items():
        if name == MAHJONG or name.startswith(MAHJONG + "."):
            continue
        mine = layer_of(name)
        for other in imported:
            if other == MAHJONG or other.startswith(MAHJONG + "."):
                if LAYERS[mine][0] != "applications" and not _matches(name, MAY_IMPORT_MAHJONG):
                    wrong.append(f"{name} -> {other}")
                continue
            if layer_of(other) > mine:
                wrong.append(
                    f"{name} ({LAYERS[mine][0]}) -> {other} ({LAYERS[layer_of(other)][0]})"
                )
    assert not wrong, "imports from above: " + "; ".join(sorted(wrong))


#: Inside the services, bottom first: the protocol; what values need around them
#: (matches, records, JSON, the results store, the fast playout); the bots (with
#: the network and the belief model they run); learning; the external-bot
#: protocol; tournaments; the ladder over tournaments' results.
SERVICES: list[tuple[str, list[str]]] = [
    ("protocol", ["games"]),
    ("documents", ["match", "records", "serialize", "serialize.*", "_store", "playout"]),
    ("bots", ["bots", "rl._network", "rl._beliefs", "rl._weights"]),
    ("learning", ["rl", "rl.*"]),
    ("external", ["external"]),
    ("tournaments", ["arena", "arena.*"]),
    ("ratings", ["ladder"]),
]


def service_of(name: str) -> int:
    for position, (_, patterns) in enumerate(SERVICES):
        if _matches(name, patterns):
            return position
    raise LookupError(name)


def test_the_services_import_one_way_too() -> None:
    """Every service has a place among the services, and imports none above it
    (lazy imports included)."""
    services = [n for n in GRAPH if _matches(n, LAYERS[layer_of("games")][1])]
    unplaced = [n for n in services if not any(_matches(n, p) for _, p in SERVICES)]
    assert not unplaced, f"services in no place (add them to SERVICES): {unplaced}"
    wrong = [
        f"{name} ({SERVICES[service_of(name)][0]}) -> {other} ({SERVICES[service_of(other)][0]})"
        for name in services
        for other in GRAPH[name]
        if other in services and service_of(other) > service_of(name)
    ]
    assert not wrong, "services importing from above: " + "; ".join(sorted(wrong))


def test_mahjong_imports_only_the_kit_the_errors_and_itself() -> None:
    wrong = []
    for name, imported in GRAPH.items():
        if name != MAHJONG and not name.startswith(MAHJONG + "."):
            continue
        for other in imported:
            if other == MAHJONG or other.startswith(MAHJONG + "."):
                continue
            if not _matches(other, MAHJONG_MAY_IMPORT):
                wrong.append(f"{name} -> {other}")
    assert not wrong, "mahjong imports the card game: " + "; ".join(sorted(wrong))


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (a list of modules, the first repeated at
    the end), or None. A package's ``__init__`` importing its own submodules is
    the package's namespace, not a circle, unless a submodule imports it back."""
    visiting: list[str] = []
    done: set[str] = set()

    def visit(node: str) -> list[str] | None:
        if node in done:
            return None
        if node in visiting:
            return [*visiting[visiting.index(node) :], node]
        visiting.append(node)
        for nxt in sorted(graph.get(node, ())):
            circle = visit(nxt)
            if circle:
                return circle
        visiting.pop()
        done.add(node)
        return None

    for start in sorted(graph):
        circle = visit(start)
        if circle:
            return circle
    return None


def test_no_import_circle_lazy_imports_included() -> None:
    # Importing a submodule runs its package's __init__ first, so an edge from
    # a package to its own submodule is the package gathering its parts; the
    # circle that matters is a submodule importing its package (or anything
    # that imports the submodule) back.
    assert find_circle(GRAPH) is None, f"import circle: {' -> '.join(find_circle(GRAPH) or [])}"


def test_the_circle_check_finds_a_circle_and_lazy_imports() -> None:
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b"}, "b": set()}) is None
    source = "def f():\n    from .serialize import x\n    import sevenbridge.text\n"
    assert imports_of("views", source, False) == {"serialize", "text"}
    by_name = "def f():\n    return importlib.import_module('sevenbridge.inference')\n"
    assert imports_of("views", by_name, False) == {"inference"}
    # A relative import two levels up from inside a subpackage.
    assert imports_of("engine.turn", "from ..state import GameState\n", False) == {"state"}


@pytest.mark.parametrize("name", ["rules", "engine.step", "engine.claims", "mahjong.engine"])
def test_the_graph_sees_the_modules_real_imports(name: str) -> None:
    assert GRAPH[name], name  # every one of these imports something of the package


def test_conveniences_still_work_through_the_hooks() -> None:
    from sevenbridge import Draw, GameState, Observation, Rules, deal, observe

    state = deal(seed=4)
    assert GameState.from_json(state.to_json()) == state
    assert Observation.from_json(observe(state, 1).to_json()) == observe(state, 1)
    assert Rules.from_json(Rules.nintendo().to_json()) == Rules.nintendo()
    assert Draw.from_json(Draw(2).to_json()) == Draw(2)
    assert "P1" in str(state)


def test_the_sampler_loads_on_first_use_only() -> None:
    """``import sevenbridge`` does not load the sampler (``sevenbridge.inference``,
    the package's largest module); ``sample_state`` and
    ``GameState.from_json(verify=True)`` each load it when first called."""
    import subprocess
    import sys

    code = """
import sys
import sevenbridge
from sevenbridge import GameState, apply, deal, legal_actions, observe, sample_state
def loaded():
    return "sevenbridge.inference._worlds" in sys.modules
state = deal(seed=4)
for _ in range(6):
    state = apply(state, legal_actions(state)[0])
print(loaded())
GameState.from_json(state.to_json())
print(loaded())
if sys.argv[1] == "sample":
    sample_state(observe(state, 2), 1)
else:
    GameState.from_json(state.to_json(), verify=True)
print(loaded())
"""
    for how in ("sample", "verify"):
        done = subprocess.run(
            [sys.executable, "-c", code, how], capture_output=True, text=True, check=True
        )
        assert done.stdout.split() == ["False", "False", "True"], (how, done.stdout, done.stderr)
