"""The documentation: built with Sphinx (warnings are errors) and read back as HTML.

Every rules page must show cards as pictures, a worked hand and a table; the
statistics page must carry its simulated figures with their sizes and seeds;
no API page may show a docstring's first words as a bogus "Type" field; and
every public name of the package must be documented in the API reference.
The worked hands themselves are doctests in ``docs/rules/*.rst``, which pytest
runs as part of the suite (``--doctest-glob=*.rst``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

# The site is built by Sphinx in a subprocess: this process only needs to know they are installed
# (importing matplotlib here cost every worker that collects this module a third of a second).
for _tool in ("sphinx", "matplotlib"):
    if importlib.util.find_spec(_tool) is None:
        pytest.skip(f"{_tool} is not installed (the docs extra)", allow_module_level=True)

pytestmark = pytest.mark.single_core

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULES = ("hucklebuck", "buckem", "deerpark")
FIGURES = ("hucklebuck-bids", "buckem-burn", "buckem-pot", "deerpark-bowers", "deerpark-length")


class Page(HTMLParser):
    """What the tests need from one HTML page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.svg_classes: list[str] = []
        self.svg_labels: list[str] = []
        self.tables = 0
        self.images: list[tuple[str, str]] = []
        self.figcaptions: list[str] = []
        self._in_caption = False
        self.feed(text)
        self.text = text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "svg":
            self.svg_classes.append(a.get("class", ""))
            self.svg_labels.append(a.get("aria-label", ""))
        elif tag == "table":
            self.tables += 1
        elif tag == "img":
            self.images.append((a.get("src", ""), a.get("alt", "")))
        elif tag == "figcaption":
            self._in_caption = True
            self.figcaptions.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "figcaption":
            self._in_caption = False

    def handle_data(self, data: str) -> None:
        if self._in_caption:
            self.figcaptions[-1] += data


def _inputs_key() -> str:
    """A digest of everything the built site depends on: the docs' sources, the package (whose
    docstrings, engine and C core the pages document, draw and simulate), the tools' versions and the
    environment variables a build reads.  Equal digests give byte-for-byte the same build."""
    from importlib.metadata import version

    h = hashlib.sha256()
    tools = [version(name) for name in ("sphinx", "docutils", "furo", "matplotlib")]
    h.update(f"{sys.version}|{tools}|{os.environ.get('HUCKLEBUCK_BACKEND')}".encode())
    for top in ("docs", "hucklebuck", "csrc"):
        for path in sorted((ROOT / top).rglob("*")):
            parts = set(path.relative_to(ROOT).parts)
            if not path.is_file() or parts & {"__pycache__", "_build"} or path.suffix in {".so", ".pyc"}:
                continue
            h.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for name in ("README.md", "pyproject.toml"):
        h.update((ROOT / name).read_bytes())
    return h.hexdigest()[:20]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config) -> Path:
    """The site built from scratch (``-W``); kept in pytest's cache folder and used again only while
    every input is unchanged (a build is a pure function of them), so a run that changed nothing the
    docs depend on reads the same pages without a second build of about half a minute."""
    cache = getattr(pytestconfig, "cache", None)
    key = _inputs_key()
    if cache is not None:
        home = Path(cache.mkdir("docs-site"))
        for old in home.iterdir():  # one build kept: the latest (and builds of it under way elsewhere)
            if old.name != key and not old.name.startswith(f".{key}-"):
                shutil.rmtree(old, ignore_errors=True)
        folder = home / key
        if (folder / "built").is_file():
            return folder / "html"
        # built aside and renamed into place once it passed: two workers of a plain ``-n`` run may
        # build at once, and neither may remove or read the other's half-built pages
        work = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=home))
    else:
        folder = work = tmp_path_factory.mktemp("docs")
    out, doctrees = work / "html", work / "doctrees"
    build = ["-W", "-q", "-E", "-b", "html", "-d", str(doctrees), str(DOCS), str(out)]
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", *build],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    assert proc.returncode == 0, f"sphinx failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
    (work / "built").write_text(key, encoding="utf-8")  # only a build that passed is used again
    if work != folder:
        if not (folder / "built").is_file():
            shutil.rmtree(folder, ignore_errors=True)  # (a build that never finished)
        try:
            os.rename(work, folder)
        except OSError:  # another worker's build got there first: keep reading this one
            return out
        return folder / "html"
    return out


def page(site: Path, name: str) -> Page:
    return Page((site / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", RULES)
def test_rules_pages_show_cards_a_worked_hand_and_tables(site: Path, game: str) -> None:
    p = page(site, f"rules/{game}.html")
    cards = [c for c in p.svg_classes if c.split()[:1] in (["hb-card"], ["hb-chip"])]
    assert len(cards) >= 30, f"{game}: only {len(cards)} card pictures"
    assert any(c.startswith("hb-card") for c in cards) and any(c.startswith("hb-chip") for c in cards)
    # every picture has a text alternative a screen reader can speak
    labels = [lab for c, lab in zip(p.svg_classes, p.svg_labels, strict=True) if c.startswith("hb-c")]
    assert all(
        re.fullmatch(
            r"(ace|king|queen|jack|ten|nine|eight|seven|six|five|four|three|two) of "
            r"(clubs|diamonds|hearts|spades)|a face-down card",
            lab,
        )
        for lab in labels
    ), labels
    assert {"a-worked-hand", "a-worked-round"} & p.ids, f"{game}: no worked hand section"
    assert "Trick 5" in p.text, f"{game}: the worked hand does not reach the last trick"
    assert p.tables >= 2, f"{game}: {p.tables} tables"
    # reading order: the game first, the rule decisions at the end, each linked to its cases
    assert p.text.index(
        'id="how-the-game-goes"' if game != "buckem" else 'id="how-a-round-goes"'
    ) < p.text.index('id="a-worked-')
    decisions = p.text.index(f'id="{game}-decisions"')
    assert p.text.index('id="a-worked-') < decisions
    assert p.text.count("rules/cases.html#def-") + p.text.count("cases.html#def-") >= 15
    assert "statistics.html" in p.text
    # the variant options link to their class and fields in the API reference
    classes = {"hucklebuck": "HucklebuckOptions", "buckem": "BuckEmOptions", "deerpark": "DeerParkOptions"}
    options = classes[game]
    assert f'#hucklebuck.games.{options}"' in p.text
    assert p.text.count(f"#hucklebuck.games.{options}.") >= 5


@pytest.mark.parametrize("game", RULES)
def test_worked_hands_are_doctested_scripts(game: str) -> None:
    """The worked hand is played on the engine by pytest's doctest run of the page, deal to score."""
    text = (DOCS / "rules" / f"{game}.rst").read_text(encoding="utf-8")
    start = text.index("\nA worked ")
    section = text[start : text.index("\nTables\n", start)]
    assert section.count(">>> ") >= 8
    assert "deal=" in section and "game.apply(action)" in section and ".. cards::" in section
    assert "delta" in section or "payouts" in section or "scores" in section


def test_deerpark_trump_table_has_both_bowers_for_each_suit(site: Path) -> None:
    text = (site / "rules/deerpark.html").read_text(encoding="utf-8")
    for right, left in (
        ("spades", "clubs"),
        ("hearts", "diamonds"),
        ("diamonds", "hearts"),
        ("clubs", "spades"),
    ):
        row = re.search(rf"<td><p>. {right}</p></td>(.*?)</tr>", text, re.S)
        assert row, f"no trump row for {right}"
        labels = re.findall(r'aria-label="([^"]+)"', row.group(1))
        assert labels[:3] == [f"jack of {right}", f"jack of {left}", f"ace of {right}"], labels[:3]


def test_statistics_page_has_its_figures_with_size_and_seed(site: Path) -> None:
    p = page(site, "statistics.html")
    srcs = [src for src, _ in p.images if "hb-" in src]
    assert [Path(s).stem for s in srcs] == [f"hb-{f}" for f in FIGURES]
    for src, alt in p.images:
        if "hb-" in src:
            svg = (site / src).read_text(encoding="utf-8")
            assert svg.lstrip().startswith("<?xml") and "<svg" in svg
            assert alt
    assert len(p.figcaptions) == len(FIGURES)
    for cap in p.figcaptions:
        assert re.search(r"[\d,]+ simulated (hands|rounds)", cap), cap
        assert "seed" in cap, cap
    for game in RULES:
        assert "statistics.html" in (site / f"rules/{game}.html").read_text(encoding="utf-8")


def test_no_docstring_is_misread_as_a_type(site: Path) -> None:
    bad = []
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        if re.search(r'<dt class="field-(odd|even)">Type<', text) or "TYPE:" in text:
            bad.append(html.relative_to(site).as_posix())
    assert not bad, f"a docstring's first words shown as a type on: {bad}"


def test_every_public_name_is_in_the_api_reference(site: Path) -> None:
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import hbapi
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    ids: set[str] = set()
    for html in (site / "api").glob("*.html"):
        ids |= page(site, f"api/{html.name}").ids
    home = hbapi.homes()
    missing = sorted(f"{mod}.{name}" for (mod, name), h in home.items() if f"{h}.{name}" not in ids)
    assert not missing, f"not in the API reference: {missing}"
    # each name is documented once: under its home only
    twice = sorted(f"{mod}.{name}" for (mod, name), h in home.items() if mod != h and f"{mod}.{name}" in ids)
    assert not twice, f"documented twice: {twice}"
    for need in (
        "hucklebuck.conformance.adapter.serve",
        "hucklebuck.games.HucklebuckGame.apply",
        "hucklebuck.games.BuckEmGame.legal_actions",
        "hucklebuck.games.DeerParkGame.observation",
    ):
        assert need in ids, need


def test_no_page_points_outside_the_project(site: Path) -> None:
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        assert "rules-decisions" not in text and "../shared" not in text, html.name


def test_installation_page_says_how_to_install_without_an_index(site: Path) -> None:
    text = re.sub(r"<[^>]+>", "", (site / "installation.html").read_text(encoding="utf-8"))
    assert "pip install ." in text  # from a checkout
    assert re.search(r"pip install dist/hucklebuck-\S*\.whl", text)  # from a built wheel
    assert "does not work" in text  # and says why not from an index


class Boxes(HTMLParser):
    """Elements a reader sees as an error or warning box: Sphinx's system messages,
    error admonitions, and a ``contents`` block, which the Furo theme paints red
    with an "ERROR:" banner from its stylesheet (``-W`` cannot see that one).
    What a ``<noscript>`` holds (the search page's "activate JavaScript") is skipped."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.found: list[str] = []
        self._noscript = 0
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "noscript":
            self._noscript += 1
        if self._noscript:
            return
        classes = set((dict(attrs).get("class") or "").split())
        if "system-message" in classes:
            self.found.append("a system message")
        if {"admonition", "error"} <= classes or "danger" in classes:
            self.found.append("an error box")
        escape_hatch = "this-will-duplicate-information-and-it-is-still-useful-here"
        if "contents" in classes and escape_hatch not in classes:
            self.found.append("a table of contents, which the theme shows as an ERROR box")

    def handle_endtag(self, tag: str) -> None:
        if tag == "noscript":
            self._noscript -= 1

    def handle_data(self, data: str) -> None:
        if not self._noscript and re.search(r"\b(ERROR|WARNING|SEVERE)(/\d)?:", data):
            self.found.append(f"error text {data.strip()[:60]!r}")


def test_no_page_shows_an_error_or_warning_box(site: Path) -> None:
    bad = {}
    for html in sorted(site.rglob("*.html")):
        found = Boxes(html.read_text(encoding="utf-8")).found
        if found:
            bad[html.relative_to(site).as_posix()] = found
    assert not bad, f"pages showing an error or warning: {bad}"


def test_game_names_keep_their_apostrophe(site: Path) -> None:
    """Smart quotes would print "Buck ‘Em" with an opening quote (U+2018)."""
    bad = [
        html.relative_to(site).as_posix()
        for html in site.rglob("*.html")
        if "\u2018Em" in html.read_text(encoding="utf-8")
    ]
    assert not bad, f"Buck \u2018Em with an opening quote on: {bad}"
    assert "Buck 'Em" in (site / "index.html").read_text(encoding="utf-8").replace("&#39;", "'")


def test_no_page_repeats_a_phrase_back_to_back(site: Path) -> None:
    """A docstring once said "names that suit, names that suit,"."""
    bad = []
    for html in site.rglob("*.html"):
        text = " ".join(re.sub(r"<[^>]+>", " ", html.read_text(encoding="utf-8")).split())
        bad += [f"{html.name}: {m.group(0)!r}" for m in re.finditer(r"\b([a-z]+ [a-z]+ [a-z]+), \1\b", text)]
    assert not bad, bad


def test_no_page_cites_an_internal_source_tag(site: Path) -> None:
    """Only S0-S4 and DEF #n are cited; the research notes' own tags (R2, R36) mean nothing to a reader."""
    bad = []
    for html in site.rglob("*.html"):
        text = re.sub(r"<[^>]+>", " ", html.read_text(encoding="utf-8"))
        bad += [f"{html.name}: {m.group(0)!r}" for m in re.finditer(r".{30}\bR\d{1,2}\b.{5}", text)]
    assert not bad, bad
