"""Sphinx configuration for the hucklebuck docs (built with -W in CI).

Our own extensions live in ``docs/_ext``: ``hbcards`` (card pictures),
``hbtables`` (tables generated from the engine and the conformance suite) and
``hbfigures`` (figures simulated at build time; needs matplotlib, the ``docs`` extra).
"""

from __future__ import annotations

import importlib.util
import os
import sys

sys.path.insert(0, os.path.abspath(".."))
sys.path.insert(0, os.path.abspath("_ext"))

project = "hucklebuck"
author = "hucklebuck developers"
copyright = "2026, hucklebuck developers"
release = "0.2.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
    "sphinx.ext.doctest",
    "hbcards",
    "hbtables",
    "hbfigures",
    "hbapi",
]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True}  # hbapi adds show-inheritance where a class has real bases
# The agent modules need their extras; without them the reference is built against stand-ins,
# so the ``docs`` extra is enough to build these pages.
autodoc_mock_imports = [
    m for m in ("pettingzoo", "gymnasium", "pyspiel", "psycopg") if importlib.util.find_spec(m) is None
]
intersphinx_mapping: dict[str, tuple[str, None]] = {}
nitpicky = False
html_theme = "furo"
# Dashes and ellipses only, no smart quotes: they turn the apostrophe of "Buck 'Em" into an
# opening quote (U+2018).
smartquotes_action = "De"
html_title = "hucklebuck"
html_static_path: list[str] = ["_static"]
html_css_files: list[str] = ["hucklebuck.css"]
exclude_patterns = ["_build"]
