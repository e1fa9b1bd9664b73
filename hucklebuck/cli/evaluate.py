"""``hucklebuck evaluate``: what a five-card hand is worth -- the trick
distribution and the game's advice (bid, stay or drop, order or call, rake)."""

from __future__ import annotations

import argparse
from typing import Any

from .. import evaluate as ev
from ..cards import Card, Suit, parse_card, parse_cards, parse_suit
from ..games.buckem import BuckEmOptions
from ..packs import GameKind, pack
from .common import (
    CliError,
    GameSpec,
    Output,
    add_ascii_argument,
    add_game_argument,
    add_option_argument,
    add_players_argument,
    game_spec,
    make_output,
    parse_options,
    players_of,
    positive_int,
)
from .table import SUIT_NAMES, cards_text

__all__ = ["distribution_table", "read_hand", "read_suit", "register", "run"]

DESCRIPTION = """\
Evaluate a five-card hand: how many tricks it takes (Monte Carlo over the
unseen cards, played out by the fast playout policy or by the perfect-play
solver), as a table of P(0)..P(5) with the mean and its standard error, and
the game's advice:
  hucklebuck  the best trump, the bid, stay or drop and how many to exchange
  buckem      the chance of 2+ tricks (a share of the pot), of being burned, and the rake test
  deerpark    per suit, the chance of making 3 (a call) and 2 (a stuck dealer)

examples:
  hucklebuck evaluate hucklebuck --hand "AS KS QS 2H 3D" --players 4
  hucklebuck evaluate buckem --hand "AH KH 5C 7D 9S" --upcard 4H --players 6
  hucklebuck evaluate deerpark --hand "JH JD AH KC QS" --trump H --players 4 --method solver
"""


def register(subparsers: Any) -> None:
    """Add the ``evaluate`` subcommand."""
    p = subparsers.add_parser(
        "evaluate",
        help="what a hand is worth: trick distribution and advice",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_argument(p)
    p.add_argument(
        "--hand", required=True, metavar="CARDS", help='five cards, e.g. "AS KS QS 2H 3D" or "10h ah"'
    )
    p.add_argument(
        "--trump", metavar="SUIT", default=None, help="trump suit C, D, H or S (default: each suit)"
    )
    p.add_argument(
        "--upcard",
        metavar="CARD",
        default=None,
        help="Buck 'Em's upcard (sets trump) or Deer Park's turned card",
    )
    add_players_argument(p, "number of players at the table")
    p.add_argument(
        "--samples", type=positive_int, default=None, help="deals to sample (default 10000; solver 500)"
    )
    p.add_argument(
        "--method", choices=("playout", "solver"), default="playout", help="how the hands are played"
    )
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--workers", type=positive_int, default=1, metavar="N", help="threads to use (default 1)")
    add_option_argument(p)
    add_ascii_argument(p)
    p.set_defaults(run=run)


def read_hand(text: str, what: str = "--hand", size: int | None = 5) -> tuple[Card, ...]:
    """Cards typed on the command line; :class:`CliError` if unreadable, repeated or miscounted."""
    try:
        cards = parse_cards(text)
    except ValueError as exc:
        raise CliError(f"{what}: {exc}") from None
    if len(set(cards)) != len(cards):
        raise CliError(f"{what}: a card is listed twice in {text!r}")
    if size is not None and len(cards) != size:
        raise CliError(f"{what}: a hand has {size} cards, not {len(cards)} ({text!r})")
    return cards


def read_suit(text: str, what: str = "--trump") -> Suit:
    """A suit typed on the command line (letter, glyph or name)."""
    names = {name: suit for suit, name in SUIT_NAMES.items()}
    suit = names.get(text.strip().lower())
    if suit is not None:
        return suit
    try:
        return parse_suit(text)
    except ValueError as exc:
        raise CliError(f"{what}: {exc}") from None


def distribution_table(say: Output, rows: list[tuple[str, ev.TrickDistribution]]) -> None:
    """Print trick distributions as a table: P(0)..P(5), mean, standard error."""
    say(f"{'':<12}" + "".join(f"{f'P({t})':>7}" for t in range(6)) + f"{'mean':>8}{'s.e.':>8}")
    for label, d in rows:
        probs = "".join(f"{p:>7.3f}" for p in d.probabilities)
        say(f"{label:<12}{probs}{d.mean:>8.3f}{d.stderr:>8.3f}")


def _short_handed(spec: GameSpec, items: list[str]) -> bool:
    options = parse_options(spec, items)
    defaults = spec.options_type()
    allowed = {"short_handed"} if spec.kind is GameKind.BUCKEM else set()
    for name, value in options.to_dict().items():
        if value != defaults.to_dict()[name] and name not in allowed:
            raise CliError(
                f"option {name} does not change a hand's evaluation; "
                + ("only short_handed does" if allowed else f"{spec.title} evaluation takes no options")
            )
    return isinstance(options, BuckEmOptions) and options.short_handed


def run(args: argparse.Namespace) -> int:
    """Print the distribution and the advice."""
    spec = game_spec(args.game)
    say = make_output(args)
    short = _short_handed(spec, args.options)
    hand = read_hand(args.hand)
    args.players = players_of(spec, args.players)
    the_pack = pack(spec.kind, args.players, short_handed=short) if short else pack(spec.kind, args.players)
    outside = [c.display for c in hand if c not in the_pack]
    if outside:
        lowest = min(the_pack, key=lambda c: c.rank).rank.display
        raise CliError(
            f"--hand: {' '.join(outside)} not in the {spec.title} pack for {args.players} players"
            f" ({lowest} to A in each suit)"
        )
    if args.upcard is not None and spec.kind is GameKind.HUCKLEBUCK:
        raise CliError("--upcard: Hucklebuck turns no card up (give --trump to fix the trump suit)")
    upcard = parse_one(args.upcard, "--upcard") if args.upcard else None
    if upcard is not None and upcard in hand:
        raise CliError(f"--upcard {upcard.code} is also in --hand")
    trump = read_suit(args.trump) if args.trump else None
    if spec.kind is GameKind.BUCKEM and upcard is not None:
        if trump is not None and trump is not upcard.suit:
            raise CliError("in Buck 'Em the upcard's suit is trump: --trump and --upcard disagree")
        trump = upcard.suit
    samples = args.samples or (500 if args.method == "solver" else 10_000)
    seen = [upcard] if upcard is not None else []
    common = dict(
        players=args.players, samples=samples, seed=args.seed, method=args.method, workers=args.workers
    )
    if spec.kind is GameKind.BUCKEM:
        common["short_handed"] = short
    say(
        f"{spec.title}, {args.players} players: {cards_text(hand)}"
        + (f", upcard {upcard.display}" if upcard is not None else "")
    )
    say(f"{samples} deals, {args.method}, seed {args.seed}; the hand's seat leads the first trick.")
    suits = [trump] if trump is not None else list(Suit)
    rows = [
        (f"{s.glyph} {SUIT_NAMES[s]}", ev.evaluate_hand(spec.kind, s, hand, seen=seen, **common))
        for s in suits
    ]
    say("")
    say("Tricks taken, by trump suit:")
    distribution_table(say, rows)
    say("")
    _advice(say, spec, hand, trump, upcard, args, samples)
    return 0


def parse_one(text: str, what: str) -> Card:
    """One card typed on the command line."""
    try:
        return parse_card(text)
    except ValueError as exc:
        raise CliError(f"{what}: {exc}") from None


def _advice(
    say: Output,
    spec: GameSpec,
    hand: tuple[Card, ...],
    trump: Suit | None,
    upcard: Card | None,
    args: Any,
    n: int,
) -> None:
    kw: dict[str, Any] = {
        "players": args.players,
        "samples": n,
        "seed": args.seed,
        "workers": args.workers,
        "method": args.method,
    }
    how = f"({args.method}, {n} deals)"
    if spec.kind is GameKind.HUCKLEBUCK:
        a = ev.hucklebuck_advice(hand, trump=trump, **kw)
        named = trump if trump is not None else a.best_trump
        say(f"Advice {how}:")
        say(f"  best trump as bidder: {a.best_trump.glyph} {SUIT_NAMES[a.best_trump]}")
        say(f"  bid: {a.bid}" if a.bid is not None else "  bid: pass (no bid is made at least half the time)")
        verdict = "stay" if a.stay else "drop"
        say(
            f"  if {named.glyph} is trump and someone else bid: {verdict}"
            f" (staying is worth {a.stay_value:+.2f} on average)"
        )
        say(
            f"  exchange: {a.exchange} card"
            + ("" if a.exchange == 1 else "s")
            + " (those neither trump nor A, K, Q)"
        )
    elif spec.kind is GameKind.BUCKEM:
        if trump is None:
            say("Advice: give --upcard (or --trump) for stay-or-fold advice and the rake test.")
            return
        if upcard is not None:
            b = ev.buckem_advice(hand, upcard, short_handed=_bool(args, spec), **kw)
            p2, burned, stay, rakes = b.p_two_or_more, b.p_burned, b.stay, b.rakes_alone
        else:
            d = ev.evaluate_hand(spec.kind, trump, hand, **kw)
            p2, burned, stay, rakes = (
                d.at_least(2),
                1 - d.at_least(2),
                d.at_least(2) >= 0.5,
                ev.rake_qualifies(hand, trump),
            )
        say(f"Advice with {trump.glyph} trump, everyone staying {how}:")
        say(
            f"  P(2+ tricks, a share of the pot) {p2:.3f}; P(burned) {burned:.3f}:"
            f" {'stay' if stay else 'fold'}"
        )
        rake = "rakes" if rakes else "does not rake"
        say(
            f"  rake test (ace of trump, or two trumps one of them K, Q or J): this hand {rake}"
            " as the lone stayer"
        )
    else:
        d_adv = ev.deerpark_advice(hand, seen=[upcard] if upcard is not None else [], **kw)
        say(f"Advice as eldest hand {how}:")
        say(f"{'':<13}{'P(3+)':>8}{'P(2+)':>8}")
        for s in Suit:
            mark = "  <- call" if s is d_adv.best_call and d_adv.call else ""
            say(
                f"  {s.glyph} {SUIT_NAMES[s]:<9}"
                f"{d_adv.p_make_three[s]:>8.3f}{d_adv.p_make_two[s]:>8.3f}{mark}"
            )
        if upcard is not None:
            o = upcard.suit
            verdict = "order it up" if d_adv.p_make_three[o] >= 0.5 else "pass"
            say(
                f"  turned {upcard.display}: {verdict}"
                f" (makes 3 with {o.glyph} trump {d_adv.p_make_three[o]:.0%} of the time)"
            )
        say(
            f"  best call: {d_adv.best_call.glyph} {SUIT_NAMES[d_adv.best_call]}: "
            + ("call it" if d_adv.call else "pass; a stuck dealer calls it")
        )


def _bool(args: Any, spec: GameSpec) -> bool:
    return _short_handed(spec, args.options)
