"""The card pictures the browser table shows: drawn by hucklebuck.cardart, served at /cards/CODE.svg."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import hucklebuck as hb
from hucklebuck import cardart

pytestmark = pytest.mark.single_core


def test_every_card_and_the_back_are_well_formed_svg_with_spoken_names() -> None:
    files = cardart.card_files()
    assert len(files) == 53
    for code, svg in files.items():
        root = ET.fromstring(svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        card = None if code == cardart.BACK else hb.parse_card(code)
        assert root.get("aria-label") == cardart.spoken(card)
        assert root.find("{http://www.w3.org/2000/svg}title") is not None
    assert cardart.spoken(hb.parse_card("TH")) == "ten of hearts"
    assert cardart.RED in files["QD"] and cardart.BLACK in files["QS"]


def test_the_suit_is_drawn_on_every_card_so_it_reads_in_greyscale() -> None:
    for suit in "CDHS":
        svg = cardart.card_file("A" + suit)
        assert svg.count(cardart.SUIT_PATHS[suit]) == 3  # two corners and the middle


def test_a_bad_card_code_is_a_card_error() -> None:
    with pytest.raises(hb.CardError):
        cardart.card_file("ZZ")


def test_the_docs_draw_with_the_same_module() -> None:
    import sys
    from pathlib import Path

    pytest.importorskip("sphinx")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs" / "_ext"))
    try:
        import hbcards
    finally:
        sys.path.pop(0)
    tok = hbcards.Token("TH*")
    assert hbcards.card_svg(tok) == cardart.card_svg(hb.parse_card("TH"), highlight=True)
    assert hbcards.chip_svg(tok) == cardart.chip_svg(hb.parse_card("TH"), highlight=True)


def test_the_server_serves_the_pictures() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from server_kit import client

    with client() as c:
        r = c.get("/cards/TH.svg")
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("image/svg+xml")
        assert r.text == cardart.card_file("TH")
        assert c.get("/cards/back.svg").text == cardart.card_file("back")
        for bad in ("ZZ", "10h", "th", "..%2Fapp"):
            assert c.get(f"/cards/{bad}.svg").status_code == 404, bad
