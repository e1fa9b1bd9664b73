"""Buck 'Em ``observe`` cases: what each seat and an onlooker may know while staying
or folding (also declared simultaneously, with the deuce swap), drawing, playing,
with scare cards and the removed-card trump, at a rake claim and at the end of a
round (DEF #84-#91).  See ``observe_common.py`` for where the answers come from."""

from __future__ import annotations

from .buckem import bk
from .observe_common import View, cards_in, case_request, cut, observe, observe_error

BK = "buckem"
#: Spades trump (upcard 9S); seats 1, 2 and 4 stay, 3 and 0 fold; seat 1 draws for
#: 2C 3C (gets 4C 5C), seat 2 for TH JH QH (gets 6C 7C 8C), seat 4 stands pat.
HANDS = ["2D 3D 4D 5D 6D", "AS KS QS 2C 3C", "AC KC QH JH TH", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
ACTIONS = [
    "1 stay",
    "2 stay",
    "3 fold",
    "4 stay",
    "0 fold",
    "1 draw 2C 3C",
    "2 draw TH JH QH",
    "4 draw",
    "1 play AS",
    "2 play 6C",
    "4 play 2H",
    "1 play KS",
    "2 play 7C",
    "4 play 3H",
    "1 play QS",
    "2 play 8C",
    "4 play 4H",
    "1 play 4C",
    "2 play AC",
    "4 play 5H",
    "2 play KC",
    "4 play 6H",
    "1 play 5C",
]
REQ = bk(HANDS, "9S", ACTIONS)
FOLDED = set("7D 8D 9D TD JD 2D 3D 4D 5D 6D".split())
#: Seat 1 holds the 2 of trump and swaps it for the upcard 9S, all declaring at once.
SWAP_HANDS = ["2D 3D 4D 5D 6D", "2S KS QS 2C 3C", "AC KC QH JH TH", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
SIMUL = {"simultaneous_declare": True, "deuce_swap": True}
SWAP_REQ = bk(SWAP_HANDS, "9S", ["1 stay swap", "2 fold", "3 fold", "4 stay", "0 fold"], options=SIMUL)
S3_STAY = ["S3: starting left of the dealer, each player stays or folds"]
S3_SIMUL = ["S3 variations: players reveal their stay-or-fold decision simultaneously"]
S3_RAKE = ["S3: a lone stayer rakes with the ace of trump, or two trumps with a king, queen or jack"]


def _hidden(view: View, cards: set[str]) -> None:
    assert not cards & cards_in(view), cards & cards_in(view)


def build() -> None:
    """Add the Buck 'Em ``observe`` cases."""
    _declaring()
    _simultaneous()
    _drawing_and_play()
    _face_up()
    _rake()
    observe_error(BK, "seat-out-of-range", "seat 5 of five players is bad_request", REQ, 5, "bad_request")
    observe_error(BK, "seat-true", "a seat given as true is bad_request", REQ, True, "bad_request")


def _declaring() -> None:
    def seat_to_act(v: View) -> None:
        assert v["history"] == ["1 stay", "2 stay", "3 fold"] and v["hand_sizes"] == [5, 5, 5, 0, 5]
        assert v["decisions"][-1] == {"seat": 3, "decision": "fold"} and v["legal"] == ["4 fold", "4 stay"]
        assert v["hand"] == ["2H", "3H", "4H", "5H", "6H"] and v["pot"] == 5
        _hidden(v, FOLDED | {"AS", "AC"})

    observe(
        BK,
        "stay-fold-public",
        "a stay or fold is public at once, a folded hand is not; the seat to act sees its legal choices",
        S3_STAY,
        [85, 87, 90, 91],
        cut(REQ, 3),
        4,
        seat_to_act,
    )


def _simultaneous() -> None:
    def waiting(v: View) -> None:
        assert v["history"] == ["1 declared", "2 declared"] and v["decisions"] == []
        assert v["hand_sizes"] == [5, 5, 5, 5, 5], "the fold must not show as an empty hand"
        assert v["upcard"] == "9S" and v["swapped_upcard"] is None, "the swap must not show"
        assert v["legal"] == ["3 fold", "3 stay"]

    observe(
        BK,
        "simultaneous-hidden-declarations",
        "declaring at once: seat 3 learns only that seats 1 and 2 have declared (not the swap, not the fold)",
        S3_SIMUL,
        [85, 86, 90],
        cut(SWAP_REQ, 2),
        3,
        waiting,
        deciding=["buckem.simultaneous_declare=true"],
    )

    def onlooker(v: View) -> None:
        assert v["history"] == ["1 declared", "2 declared"] and v["hand_sizes"] == [5, 5, 5, 5, 5]
        assert v["upcard"] == "9S" and v["swapped_upcard"] is None and cards_in(v) == {"9S"}

    observe(
        BK,
        "simultaneous-onlooker",
        "declaring at once: an onlooker sees the upcard and who has declared, nothing else",
        S3_SIMUL,
        [85, 89],
        cut(SWAP_REQ, 2),
        None,
        onlooker,
    )

    def swapper(v: View) -> None:
        assert v["history"] == ["1 stay swap", "2 declared"] and v["hand"] == ["2C", "3C", "9S", "QS", "KS"]
        assert v["upcard"] == "2S" and v["swapped_upcard"] == "9S"
        assert v["decisions"] == [{"seat": 1, "decision": "stay swap"}]

    observe(
        BK,
        "simultaneous-own-swap",
        "the swapper sees its own swap at once: it holds the former upcard and the 2 of trump lies face up",
        S3_SIMUL + ["S3 variations: a player dealt the 2 of trump may exchange it for the face-up card"],
        [84, 85, 86],
        cut(SWAP_REQ, 2),
        1,
        swapper,
    )

    def revealed(v: View) -> None:
        assert v["history"] == ["1 stay swap", "2 fold", "3 fold", "4 stay", "0 fold"]
        assert v["hand_sizes"] == [0, 5, 0, 0, 5] and v["upcard"] == "2S" and v["swapped_upcard"] == "9S"
        assert v["hand"] == [] and v["phase"] == "draw"
        _hidden(v, {"7D", "8D", "2D", "AC", "KC", "KS", "QS"})

    observe(
        BK,
        "simultaneous-revealed",
        "once everyone has declared, every decision and the swap are public; folded hands stay hidden",
        S3_SIMUL,
        [85, 86, 87],
        SWAP_REQ,
        3,
        revealed,
    )


def _drawing_and_play() -> None:
    def other_draws(v: View) -> None:
        assert v["history"][5:] == ["1 draw 2 cards", "2 draw 3 cards", "4 draw"]
        assert v["stock_size"] == 21 and v["hand"] == ["2H", "3H", "4H", "5H", "6H"]
        _hidden(v, {"2C", "3C", "4C", "5C", "TH", "JH", "QH", "6C", "7C", "8C"} | FOLDED)

    observe(
        BK,
        "draw-counts-only",
        "another seat's draw shows only as its count: not the cards thrown away, not the cards drawn",
        ["S3: players who stay may discard and draw 0 to 3 new cards"],
        [85, 87],
        cut(REQ, 8),
        4,
        other_draws,
    )

    def own_draw(v: View) -> None:
        assert v["history"][5:] == ["1 draw 2C 3C", "2 draw 3 cards", "4 draw 0 cards"]
        assert v["hand"] == ["4C", "5C", "QS", "KS", "AS"]
        assert v["legal"] == ["1 play 4C", "1 play 5C", "1 play AS", "1 play KS", "1 play QS"]
        _hidden(v, {"TH", "JH", "QH", "6C", "7C", "8C"} | FOLDED)

    observe(
        BK,
        "draw-own-cards",
        "a seat sees its own discards and the cards it drew (4C 5C), and leads with its own legal plays",
        ["S3: players who stay may discard and draw 0 to 3 new cards"],
        [84, 85, 90, 91],
        cut(REQ, 8),
        1,
        own_draw,
    )

    def round_over(v: View) -> None:
        assert v["phase"] == "hand_over" and v["hand"] is None and v["rake_shown"] == []
        assert v["tricks_won"] == [0, 3, 2, 0, 0]
        assert cards_in(v) <= {c for t in v["tricks"] for c in t["cards"]} | {"9S"}

    observe(
        BK,
        "end-of-round-nothing-turned-up",
        "at the end of a round an onlooker sees tricks and upcard; folded hands and draws stay hidden",
        ["S3: one player with 2+ tricks takes the pot"],
        [87, 89],
        REQ,
        None,
        round_over,
    )


def _face_up() -> None:
    scare = bk(
        HANDS,
        "9S",
        ["1 stay", "2 stay"],
        options={"scare_cards": True},
        scare="6D AS TH JD 6H",
    )

    def scared(v: View) -> None:
        assert v["scare"] == ["6D", "AS", "TH", "JD", "6H"] and v["legal"] == ["3 fold", "3 stay"]
        _hidden(v, {"AC", "KC", "KS", "QS", "2D"})

    observe(
        BK,
        "scare-cards-public",
        "each seat's scare card is face up, so every seat sees all of them, and nothing else of the hands",
        ["S3 variations: the dealer deals one card from each hand face up (the scare card)"],
        [86],
        scare,
        3,
        scared,
    )
    removed = case_request(BK, "buckem/short/removed-card-trump")

    def removed_view(v: View) -> None:
        assert v["upcard"] == removed["hands"][0]["deal"]["upcard"] and v["hand"] is None

    observe(
        BK,
        "removed-card-trump-public",
        "short-handed with removed_card: the card drawn from the removed set is face up for everyone",
        ["S3 variations: five players remove the 2s and 3s; trump may come from a removed card"],
        [86, 89],
        cut(removed, 0),
        None,
        removed_view,
    )


def _rake() -> None:
    kings = case_request(BK, "buckem/rake/king-pair")  # seat 1 dealt KS 3S 2C 3C 4C, spades trump

    def two_trumps(v: View) -> None:
        assert v["rake_shown"] == ["3S", "KS"] and v["phase"] == "hand_over"
        _hidden(v, {"2C", "3C", "4C"})

    observe(
        BK,
        "rake-shows-qualifying-trumps",
        "a raker without the Ace of trump shows every trump it was dealt (3S KS), nothing else of its hand",
        S3_RAKE,
        [88],
        kings,
        2,
        two_trumps,
    )
    ace = bk(
        ["2D 3D 4D 5D 6D", "AS KS 2C 3C 4C", "7D 8D 9D TD JD", "QD KD AD 7H 8H", "9H TH 5H 6H 7C"],
        "9S",
        ["1 stay", "2 fold", "3 fold", "4 fold", "0 fold"],
    )

    def ace_only(v: View) -> None:
        assert v["rake_shown"] == ["AS"] and v["bankrolls"] == [-1, 4, -1, -1, -1]
        _hidden(v, {"KS", "2C", "3C", "4C"})

    observe(
        BK,
        "rake-shows-only-the-ace",
        "a raker dealt the Ace of trump shows the Ace alone, even holding another trump (KS stays hidden)",
        S3_RAKE,
        [88, 89],
        ace,
        None,
        ace_only,
    )
    no_face = case_request(BK, "buckem/rake/no-face")  # seat 1 dealt 4S 3S 2C 3C 4C

    def no_rake(v: View) -> None:
        assert v["rake_shown"] == [] and v["phase"] == "hand_over" and v["pot"] == 5
        _hidden(v, {"4S", "3S", "2C", "3C", "4C"})

    observe(
        BK,
        "lone-stayer-not-qualifying-shows-nothing",
        "a lone stayer who does not qualify shows nothing: everyone learns only that there was no rake",
        S3_RAKE,
        [87, 88],
        no_face,
        3,
        no_rake,
    )

    def raker_self(v: View) -> None:
        assert v["rake_shown"] == ["3S", "KS"]

    observe(
        BK,
        "rake-raker-view",
        "the raker's own view shows the same rake claim as everyone's",
        S3_RAKE,
        [84, 88],
        kings,
        1,
        raker_self,
    )
