"""Sphinx configuration for the sevenbridge documentation."""

from __future__ import annotations

from importlib.metadata import version as _version
from typing import Any

project = "sevenbridge"
author = "sevenbridge developers"
copyright = "2026, sevenbridge developers"
release = _version("sevenbridge")
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_generated"]  # _generated: figures files the pages include
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}
napoleon_google_docstring = True
# Links into Python's own documentation are made by _link_standard_library below,
# from the import path of the name: the build needs no network and no inventory
# on disk, so it gives the same verdict on every machine.
html_theme = "furo"
html_title = "sevenbridge"
html_extra_path = ["_extra"]  # the replay viewer's demo page
nitpicky = True
nitpick_ignore: list[tuple[str, str]] = []
nitpick_ignore += [
    ("py:class", "sevenbridge._kit.rng.Rng"),
]
# Two packages each have a class named Rules (sevenbridge and sevenbridge.mahjong);
# a bare "Rules" in an annotation that autodoc cannot evaluate (numpy is mocked)
# then matches both. Those links go to the first match, sevenbridge.Rules, which
# is right for every such annotation (all in sevenbridge.rl); a missing target
# is still an error (ref.class, ref.func).
suppress_warnings = ["ref.python"]
# The learning extras are optional: the reference is built with them mocked, so
# that it builds the same with or without them installed.
autodoc_mock_imports = ["numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel"]
nitpick_ignore += [
    ("py:class", "numpy.ndarray"),
    ("py:class", "numpy.bool"),
    ("py:class", "numpy.float32"),
    ("py:class", "npt.NDArray"),
    ("py:class", "np.bool_"),
    ("py:class", "np.float32"),
    ("py:class", "numpy.typing.NDArray.numpy.bool_"),
    ("py:class", "numpy.typing.NDArray.numpy.float32"),
]
# Outside the inventories the build reads, and a private alias of the Gymnasium
# module's annotations.
nitpick_ignore += [("py:func", "attrs.evolve"), ("py:func", "gymnasium.make"), ("py:class", "Bot")]
# Gymnasium's vector API (no intersphinx inventory), the numpy arrays of the
# trajectories, and sevenbridge.rl's alias of a policy function.
nitpick_ignore += [
    ("py:func", "gymnasium.make_vec"),
    ("py:class", "gymnasium.vector.SyncVectorEnv"),
    ("py:class", "gymnasium.vector.AutoresetMode"),
    ("py:class", "numpy.typing.NDArray.numpy.float64"),
    ("py:class", "numpy.typing.NDArray.numpy.int64"),
    ("py:class", "Policy"),
]
# The aliases sevenbridge.rl gives the mahjong types in annotations (imported
# only for type checking, so that importing sevenbridge.rl loads no mahjong).
nitpick_ignore += [
    ("py:class", name)
    for name in ("MahjongRules", "MahjongState", "MahjongObservation", "MahjongAction")
]


# The reference documents a re-exported name once, under its shortest import path
# (``sevenbridge.deal``, not ``sevenbridge.engine.deal``). A cross-reference
# written in a module's own docstring (``:func:`deal``` in ``sevenbridge.engine``)
# names the object by its home module; this resolves such a reference to the
# documented name of the same object.
def _lookup(path: str) -> object:
    import importlib

    parts = path.split(".")
    try:
        obj: object = importlib.import_module(parts[0])
        for i, part in enumerate(parts[1:], start=2):
            if hasattr(obj, part):
                obj = getattr(obj, part)
            else:
                obj = importlib.import_module(".".join(parts[:i]))
    except Exception:  # an optional extra that cannot be imported
        return None
    return obj


_ALIASES: dict[int, str] = {}  # id of a documented object -> its documented name


def _has_identity(obj: object) -> bool:
    """Whether the object is one of a kind, so that being the same object means
    being the same thing (a small number or an empty tuple is shared by all)."""
    if isinstance(obj, (tuple, list, dict, frozenset)):
        return len(obj) > 0
    return callable(obj) or isinstance(obj, (property, type))


def _documented_by_identity(env: Any) -> dict[int, str]:
    if not _ALIASES:
        for name, entry in env.get_domain("py").objects.items():
            if entry.aliased or entry.objtype == "module":
                continue
            obj = _lookup(name)
            if _has_identity(obj):
                _ALIASES.setdefault(id(obj), name)
    return _ALIASES


def _resolve_alias(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"]
    prefixes = [node.get("py:module"), None]
    if node.get("py:module") and node.get("py:class"):
        prefixes.insert(0, f"{node['py:module']}.{node['py:class']}")
    for prefix in prefixes:
        obj = _lookup(f"{prefix}.{target}" if prefix else target)
        if not _has_identity(obj):
            continue
        name = _documented_by_identity(env).get(id(obj))
        if name is not None:
            domain = env.get_domain("py")
            return domain.resolve_xref(
                env, node["refdoc"], app.builder, node["reftype"], name, node, contnode
            )
    return None


# Python's documentation of its standard library has one page a module
# (library/collections.abc.html) and an anchor a name (#collections.abc.Sequence);
# the built-in names are on four pages. A reference to a name of the standard
# library that the documentation does not define links there, once the name is
# found by importing it (a misspelt name stays a warning). Written here rather
# than read from Python's object inventory (intersphinx), which is on a fresh
# machine neither on disk nor reachable without the network.
_PYTHON_DOCS = "https://docs.python.org/3/library/"
#: The built-in types documented among the standard types, not the functions.
_STANDARD_TYPES = frozenset(
    (
        "bytearray",
        "bytes",
        "dict",
        "frozenset",
        "list",
        "memoryview",
        "range",
        "set",
        "str",
        "tuple",
    )
)


def _standard_library_page(target: str) -> str | None:
    """The address of a standard-library name's entry in Python's documentation."""
    import builtins
    import importlib
    import sys

    parts = target.split(".")
    if len(parts) == 1 and hasattr(builtins, target):
        obj = getattr(builtins, target)
        if obj is None or isinstance(obj, bool) or obj in (Ellipsis, NotImplemented):
            return f"{_PYTHON_DOCS}constants.html#{target}"
        if target in _STANDARD_TYPES:
            return f"{_PYTHON_DOCS}stdtypes.html#{target}"
        if isinstance(obj, type) and issubclass(obj, BaseException):
            return f"{_PYTHON_DOCS}exceptions.html#{target}"
        return f"{_PYTHON_DOCS}functions.html#{target}"
    if parts[0] not in sys.stdlib_module_names or parts[0].startswith("_"):
        return None
    for split in range(len(parts), 0, -1):  # the longest prefix that is a module
        module = ".".join(parts[:split])
        try:
            obj = importlib.import_module(module)
        except ImportError:
            continue
        for name in parts[split:]:
            if not hasattr(obj, name):
                return None
            obj = getattr(obj, name)
        anchor = target if split < len(parts) else f"module-{module}"
        return f"{_PYTHON_DOCS}{module}.html#{anchor}"
    return None


def _link_standard_library(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    if node.get("refdomain") != "py":
        return None
    address = _standard_library_page(node["reftarget"])
    if address is None:
        return None
    from docutils import nodes

    link = nodes.reference("", "", internal=False, refuri=address, reftitle=node["reftarget"])
    link += contnode
    return link


# Pages that moved keep their old addresses, as pages that send the browser on.
_MOVED = {
    "api": "reference/index",
    **{page: f"howto/{page}" for page in (
        "install", "repl", "cards-and-melds", "views", "json", "records", "cli",
        "pictures", "bots", "learning", "mahjong-repl",
    )},
    **{page: f"explanation/{page}" for page in ("rules", "engine", "performance", "mahjong")},
}  # fmt: skip
_REDIRECT = (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
    '<meta http-equiv="refresh" content="0; url={url}"><link rel="canonical" href="{url}">'
    '<title>Moved</title></head><body><p>This page moved to <a href="{url}">{url}</a>.</p>'
    "</body></html>\n"
)


def _write_redirects(app: Any, exception: BaseException | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    from pathlib import Path

    for old, new in _MOVED.items():
        page = Path(app.outdir) / f"{old}.html"
        if not page.exists():
            page.write_text(_REDIRECT.format(url=f"{new}.html"), encoding="utf-8")


def _publish_schemas(app: Any, exception: BaseException | None) -> None:
    """The JSON Schemas the package ships (sevenbridge/schemas), published as schema/v1/."""
    if exception is not None or app.builder.format != "html":
        return
    import shutil
    from pathlib import Path

    from sevenbridge.external import SCHEMA_FOLDER

    shutil.copytree(SCHEMA_FOLDER, Path(app.outdir) / "schema" / "v1", dirs_exist_ok=True)


def setup(app: Any) -> None:
    app.connect("build-finished", _write_redirects)
    app.connect("build-finished", _publish_schemas)
    app.connect("builder-inited", lambda app: _ALIASES.clear())
    app.connect("missing-reference", _resolve_alias)
    app.connect("missing-reference", _link_standard_library)
