"""Sphinx configuration for the hucklebuck docs (built with -W in CI)."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.abspath(".."))

project = "hucklebuck"
author = "hucklebuck developers"
copyright = "2026, hucklebuck developers"
release = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
    "sphinx.ext.doctest",
]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
intersphinx_mapping: dict[str, tuple[str, None]] = {}
nitpicky = False
html_theme = "furo"
html_title = "hucklebuck"
exclude_patterns = ["_build"]
