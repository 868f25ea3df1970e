"""Layers import one way: the value modules never import the layers above them."""

from __future__ import annotations

import ast
from pathlib import Path

import sevenbridge

PACKAGE = Path(sevenbridge.__file__).resolve().parent

#: The value layer, bottom first; each may import only what is listed before it
#: in this layer (and the standard library and attrs).
VALUES = [
    "errors", "_hooks", "_random", "_checks", "_tables", "rules", "cards", "melds",
    "actions", "scoring", "state", "views",
]  # fmt: skip


def _imports(module: str) -> set[str]:
    """Every sevenbridge module that ``module`` imports, at any depth of its code."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                if node.module:
                    found.add(node.module.split(".")[0])
                else:
                    found.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("sevenbridge"):
                parts = node.module.split(".")
                found.add(parts[1] if len(parts) > 1 else "__init__")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("sevenbridge"):
                    parts = alias.name.split(".")
                    found.add(parts[1] if len(parts) > 1 else "__init__")
    return found


def test_value_modules_import_only_lower_value_modules() -> None:
    for position, module in enumerate(VALUES):
        allowed = set(VALUES[:position])
        wrong = _imports(module) - allowed
        assert not wrong, f"sevenbridge.{module} imports {sorted(wrong)} from above its layer"


def test_the_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    source = "def f():\n    from .serialize import x\n    import sevenbridge.text\n"
    tree = ast.parse(source)
    names = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    assert names == {"serialize", "sevenbridge.text"}


def test_conveniences_still_work_through_the_hooks() -> None:
    from sevenbridge import Draw, GameState, Observation, Rules, deal, observe

    state = deal(seed=4)
    assert GameState.from_json(state.to_json()) == state
    assert Observation.from_json(observe(state, 1).to_json()) == observe(state, 1)
    assert Rules.from_json(Rules.nintendo().to_json()) == Rules.nintendo()
    assert Draw.from_json(Draw(2).to_json()) == Draw(2)
    assert "P1" in str(state)
