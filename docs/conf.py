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
intersphinx_mapping: dict[str, tuple[str, None]] = {}
html_theme = "furo"
html_title = "sevenbridge"
html_extra_path = ["_extra"]  # the JSON Schemas, published as schema/v1/*.json
nitpicky = True
nitpick_ignore = [
    ("py:class", "collections.abc.Iterable"),
    ("py:class", "collections.abc.Sequence"),
]
nitpick_ignore += [
    ("py:class", "sevenbridge.state.TableMeld"),
    ("py:class", "random.Random"),
    ("py:class", "sevenbridge._random.Rng"),
]

# Napoleon reads "Words: more words" at the start of an attribute's docstring as
# "type: description". Our attribute docstrings are plain prose: keep them as written.
from sphinx.ext.napoleon.docstring import GoogleDocstring  # noqa: E402


def _plain_attribute_docstring(self: GoogleDocstring) -> list[str]:
    return list(self._consume_to_end())


GoogleDocstring._parse_attribute_docstring = _plain_attribute_docstring  # type: ignore[method-assign]
