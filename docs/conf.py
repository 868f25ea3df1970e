"""Sphinx configuration for the sevenbridge documentation."""

from __future__ import annotations

from importlib.metadata import version as _version

project = "sevenbridge"
author = "sevenbridge developers"
copyright = "2026, sevenbridge developers"
release = _version("sevenbridge")
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
    "sphinx.ext.doctest",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build"]
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}
napoleon_google_docstring = True
# Python's inventory: Debian's python3-doc package has it on disk (so the build needs
# no network; `.ci/run` installs it), otherwise it is fetched from docs.python.org.
_LOCAL_PYTHON_INVENTORY = "/usr/share/doc/python3/html/objects.inv"
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", (_LOCAL_PYTHON_INVENTORY, None)),
}
html_theme = "furo"
html_title = "sevenbridge"
html_extra_path = ["_extra"]  # the JSON Schemas, published as schema/v1/*.json
nitpicky = True
nitpick_ignore: list[tuple[str, str]] = []
nitpick_ignore += [
    ("py:class", "random.Random"),
    ("py:class", "sevenbridge._kit.rng.Rng"),
]
# Two packages each have a class named Rules (sevenbridge and sevenbridge.mahjong);
# a bare "Rules" in an annotation that autodoc cannot evaluate (numpy is mocked)
# then matches both. Those links go to the first match, sevenbridge.Rules, which
# is right for every such annotation (all in sevenbridge.rl); a missing target
# is still an error (ref.class, ref.func).
suppress_warnings = ["ref.python"]
# The learning extras are optional: the reference is built with numpy mocked.
autodoc_mock_imports = ["numpy"]
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
