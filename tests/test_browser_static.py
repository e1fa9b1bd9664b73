"""The browser table's files: shipped as package data, plain files with nothing fetched from elsewhere."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

pytestmark = pytest.mark.single_core

STATIC = Path(str(resources.files("hucklebuck.server"))) / "static"
PAGES = ("index.html", "table.html")


def test_the_pages_and_their_modules_are_package_files() -> None:
    files = {p.name for p in STATIC.iterdir()}
    assert set(PAGES) | {"style.css", "common.js", "lobby.js", "table.js", "render.js"} <= files
    assert all(p.is_file() for p in STATIC.iterdir()), "package data is static/* (no subfolders)"


REF = re.compile(r"""(?:src|href)="([^"]+)"|from\s+"([^"]+)"|import\(\s*"([^"]+)"|url\(([^)]+)\)""")


def _refs(text: str) -> list[tuple[str, ...]]:
    return REF.findall(text)


def test_nothing_is_loaded_from_another_origin() -> None:
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"https?://|//cdn|@import", text), path.name
        for groups in _refs(text):
            ref = next(g for g in groups if g)
            assert not ref.startswith("//"), (path.name, ref)
            if ref.startswith("./"):
                assert (STATIC / ref[2:]).is_file(), (path.name, ref)
            elif ref.startswith("/static/"):
                assert (STATIC / ref[len("/static/") :]).is_file(), (path.name, ref)
            else:
                assert ref.startswith(("/cards/", "/", "#")), (path.name, ref)


def test_every_page_loads_its_script_as_a_module() -> None:
    for name in PAGES:
        text = (STATIC / name).read_text(encoding="utf-8")
        assert '<script type="module"' in text and '<meta name="viewport"' in text and 'lang="en"' in text
