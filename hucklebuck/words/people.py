"""The people and choices at a table in plain words: seats as people count them,
default names, the computer players' kinds and the variant options' names.

Seats are numbered from 0 in the API, the protocol and saved games (``seat`` fields,
``--you`` in a saved file's ``table`` entry); everything a person reads or types
counts them from 1: the terminal's screens and ``--you`` option, the browser's
lobby and table, and the docs' prose.  :func:`seat_number` is the one place
that turns one into the other.
"""

from __future__ import annotations

__all__ = [
    "CHOICE_LABELS",
    "COMPUTER_KINDS",
    "LEARNED_WORDS",
    "OFFERED_WORDS",
    "OPTION_LABELS",
    "SHIPPED_WORDS",
    "choice_label",
    "computer_label",
    "default_name",
    "offered_words",
    "option_label",
    "seat_label",
    "seat_number",
    "short_name",
]


def seat_number(seat: int) -> int:
    """The number a person reads for the 0-based ``seat`` (seat 0 is seat 1)."""
    return seat + 1


def seat_label(seat: int, *, capital: bool = False) -> str:
    """``seat 1`` for the 0-based ``seat`` 0 (``Seat 1`` with ``capital``)."""
    return f"{'Seat' if capital else 'seat'} {seat_number(seat)}"


def short_name(seat: int) -> str:
    """The terminal's short name for the 0-based ``seat`` of a computer player: ``P1`` for seat 0."""
    return f"P{seat_number(seat)}"


def default_name(seat: int, kind: str = "human") -> str:
    """The name a seat gets when nobody names it: ``Player 1`` for a person at seat 0,
    ``Computer 3`` for a computer player at seat 2 (the same number as its seat)."""
    return f"{'Computer' if kind == 'computer' else 'Player'} {seat_number(seat)}"


COMPUTER_KINDS: dict[str, tuple[str, str]] = {
    "mc": ("strong", "imagines the cards it cannot see and plays each deal out, many times over"),
    "mc-solver": ("strongest, slow", "as strong, and solves each imagined deal exactly: it thinks longer"),
    "heuristic": ("quick", "plays by rules of thumb for the game"),
    "random": ("beginner", "plays any legal move at random"),
    "mc-blind": (
        "strong, ignores bids",
        "as strong, but does not read the others' bids and calls (for measuring the players)",
    ),
}
"""Each computer player kind (the names ``--bots`` takes): its friendly name and what it does."""


LEARNED_WORDS: tuple[str, str] = ("learned", "plays a policy trained with python -m hucklebuck.learn")
"""The friendly name of a checkpoint seated with ``--learned`` (the terminal and tournaments only)."""


OFFERED_WORDS: tuple[str, str] = (
    "trained ({name})",
    "plays a policy trained with python -m hucklebuck.learn, offered by this server as {name}",
)
"""The friendly name and description of a trained policy a server offers under ``name``
(``hucklebuck serve --learned NAME=PATH``), each with ``{name}`` to fill in."""


SHIPPED_WORDS: tuple[str, str] = (
    "trained",
    "plays a policy trained by the library's own learner, shipped with the library",
)
"""The friendly name and description of trained weights shipped with the library (the player
kinds ``learned-NAME``)."""


def offered_words(name: str) -> tuple[str, str]:
    """A trained policy the server offers as ``name``: its friendly name and what it does (the
    weights shipped with the library, kinds ``learned-NAME``, have words of their own)."""
    if name.startswith("learned-"):
        return SHIPPED_WORDS
    label, doc = OFFERED_WORDS
    return label.format(name=name), doc.format(name=name)


def computer_label(kind: str | None) -> str:
    """A computer seat's kind as every page shows it (``computer: strong``); a kind that is none of
    the built-in ones is a trained policy the server offers (``computer: trained (dp4)``)."""
    words = LEARNED_WORDS if kind == "learned" else COMPUTER_KINDS.get(kind or "")
    if words is None and kind:
        words = offered_words(kind)
    return f"computer: {words[0]}" if words else "computer"


OPTION_LABELS: dict[str, str] = {
    # Hucklebuck
    "target": "Points to win",
    "all_pass": "When everyone passes",
    "moon_at_zero": "Shooting the moon from zero or below",
    "lone_moon_bidder": "A moon when everyone else drops",
    "bidder_zero_trick_penalty_stacks": "Bigger loss for a bidder with no trick",
    "tie_break": "Ties at the winning score",
    "exchange_order": "Order of the exchange",
    "auction_reentry": "Passed players may bid again",
    "in_the_hole_reset_applies_to": "Back to zero from below after",
    # Buck 'Em
    "ante": "Ante (chips each hand)",
    "short_handed": "Short pack for 5 or 6 players",
    "short_handed_trump": "Trump with the short pack",
    "scare_cards": "Scare cards (one card dealt face up)",
    "scare_position": "Which card is the scare card",
    "deuce_swap": "Swap the 2 of trump for the upcard",
    "simultaneous_declare": "Everyone declares in secret",
    "pot_limit": "Most a burned player pays",
    "odd_chip": "The odd chip of a split pot",
    "split": "Sharing a pot between two winners",
    "rake_hand": "Which hand a lone stayer shows",
    "rake_rounding": "Half a pot, rounded",
    "after_void_round_ante": "Ante again after a hand nobody won",
    # Deer Park Euchre
    "club_turnup_pickup": "Dealer picks up a turned club",
    "round2_excludes_turned_suit": "Round 2 may not call the turned suit",
    "failed_contract_tricks_count": "A failed maker's tricks count",
    "first_lead": "Who leads the first trick",
    "lock_at": "Score that stops calling trump",
    "lock_permanent": "Once stopped, always stopped",
    "eight_player_turnup": "Turned card with eight players",
}
"""Each variant option's name as people read it (the option's own name is what ``--option`` takes)."""


def option_label(name: str) -> str:
    """The friendly name of the option ``name`` (its own name in words if it has none here)."""
    label = OPTION_LABELS.get(name)
    if label is not None:
        return label
    words = name.replace("_", " ")
    return words[:1].upper() + words[1:]


CHOICE_LABELS: dict[tuple[str, str], str] = {
    ("all_pass", "dealer_scores_5"): "the dealer scores 5",
    ("all_pass", "dealer_must_bid"): "the dealer must bid",
    ("moon_at_zero", "reset_to_zero"): "the score stays 0",
    ("moon_at_zero", "win"): "the bidder wins the game",
    ("moon_at_zero", "score_normally"): "it scores 5 like any hand",
    ("lone_moon_bidder", "scores_5"): "it scores 5",
    ("lone_moon_bidder", "wins_game"): "it wins the game",
    ("tie_break", "highest_then_bidder"): "highest score, then the bidder",
    ("tie_break", "bidder_first"): "the bidder first",
    ("tie_break", "shared"): "the tied players share the win",
    ("tie_break", "distance_then_maker"): "farthest past the goal, then the maker",
    ("exchange_order", "bidder_left_bidder_last"): "bidder's left first, bidder last",
    ("exchange_order", "dealer_left_dealer_last"): "dealer's left first, dealer last",
    ("in_the_hole_reset_applies_to", "moon_only"): "a successful moon only",
    ("in_the_hole_reset_applies_to", "any_bid"): "any successful bid",
    ("short_handed_trump", "flip"): "turn the top card",
    ("short_handed_trump", "removed_card"): "one of the removed low cards",
    ("odd_chip", "buckup"): "to the winner with three tricks",
    ("odd_chip", "carry"): "it stays in the pot",
    ("odd_chip", "first_left_of_dealer"): "to the first winner left of the dealer",
    ("split", "equal"): "in halves",
    ("split", "proportional"): "by the tricks each took",
    ("rake_hand", "as_dealt"): "the hand as dealt",
    ("rake_hand", "after_swap"): "the hand after a deuce swap",
    ("rake_rounding", "floor"): "rounded down",
    ("rake_rounding", "ceil"): "rounded up",
    ("first_lead", "eldest"): "the dealer's left",
    ("first_lead", "maker"): "the maker",
    ("eight_player_turnup", "none"): "not used (at most seven players)",
    ("eight_player_turnup", "dealer_last_card"): "the dealer's last card is turned",
}
"""Each named value of a variant option as people read it (the value itself is what ``--option`` takes)."""


def choice_label(option: str, value: str) -> str:
    """The friendly name of ``value`` of the option ``option`` (the value in words if it has none here)."""
    return CHOICE_LABELS.get((option, value), value.replace("_", " "))
