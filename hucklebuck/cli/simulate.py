"""``hucklebuck simulate``: bulk simulation of many hands with the fixed
simulation policy, as a table (or JSON)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import textwrap
import time
from typing import Any

from .. import evaluate as ev
from ..games.buckem import BuckEmOptions
from ..packs import GameKind
from .common import (
    CliError,
    GameSpec,
    Output,
    add_game_argument,
    add_option_argument,
    add_players_argument,
    game_spec,
    make_output,
    parse_options,
    players_of,
    positive_int,
)

__all__ = ["CHUNK", "register", "run"]

CHUNK = 10_000
"""Hands per seeded chunk by default: the statistics depend only on --hands,
--seed and --chunk, never on --workers or on whether progress is shown."""

DESCRIPTION = f"""\
Simulate many hands with the library's fixed simulation policy (the same in
both cores) and print the statistics. The work is split into seeded chunks of
--chunk hands (default {CHUNK}), so the same --hands, --seed and --chunk give
the same numbers whatever --workers is. A Buck 'Em chunk is one session (the
pot carries within it).
Progress goes to stderr when stderr is a terminal.

examples:
  hucklebuck simulate hucklebuck --players 4 --hands 1000000 --workers 2
  hucklebuck simulate buckem --players 6 --hands 200000 --option ante=2 --json
"""


def register(subparsers: Any) -> None:
    """Add the ``simulate`` subcommand."""
    p = subparsers.add_parser(
        "simulate",
        help="statistics of many simulated hands",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_argument(p)
    add_players_argument(p)
    p.add_argument(
        "--hands", type=positive_int, default=100_000, metavar="N", help="hands to simulate (default 100000)"
    )
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--workers", type=positive_int, default=1, metavar="N", help="threads to use (default 1)")
    p.add_argument(
        "--chunk",
        type=positive_int,
        default=CHUNK,
        metavar="N",
        help=f"hands per seeded chunk (default {CHUNK})",
    )
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    add_option_argument(p)
    p.set_defaults(run=run)


def _buckem_kwargs(spec: GameSpec, items: list[str]) -> dict[str, Any]:
    options = parse_options(spec, items)
    supported = {"ante", "pot_limit"} if spec.kind is GameKind.BUCKEM else set()
    defaults = spec.options_type().to_dict()
    for name, value in options.to_dict().items():
        if value != defaults[name] and name not in supported:
            extra = (
                f" (it takes {', '.join(sorted(supported))})"
                if supported
                else " (it plays the default rules)"
            )
            raise CliError(f"the {spec.title} simulation does not support option {name}{extra}")
    if isinstance(options, BuckEmOptions):
        return {"ante": options.ante, "pot_limit": options.pot_limit}
    return {}


class _Progress:
    def __init__(self, total: int) -> None:
        self.total = total
        self.start = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        rate = done / max(time.monotonic() - self.start, 1e-9)
        sys.stderr.write(f"\r  {done:,} of {total:,} hands ({done / total:.0%}), {rate:,.0f} hands/s ")
        sys.stderr.flush()
        if done >= total:
            sys.stderr.write("\n")


def run(args: argparse.Namespace) -> int:
    """Run the simulation and print it."""
    spec = game_spec(args.game)
    kwargs = _buckem_kwargs(spec, args.options)
    args.players = players_of(spec, args.players)
    progress = _Progress(args.hands) if _tty(sys.stderr) else None
    fn = {GameKind.HUCKLEBUCK: ev.simulate_hucklebuck, GameKind.DEERPARK: ev.simulate_deerpark}.get(
        spec.kind, ev.simulate_buckem
    )
    t0 = time.monotonic()
    stats = fn(
        args.players,
        args.hands,
        seed=args.seed,
        workers=args.workers,
        chunk_size=args.chunk,
        progress=progress,
        **kwargs,
    )
    seconds = time.monotonic() - t0
    data = _to_json(stats)
    if args.json:
        print(
            json.dumps(
                {"game": spec.name, "players": args.players, "seed": args.seed, **kwargs, "stats": data}
            )
        )
        return 0
    say = make_output(args)
    say(f"{spec.title}, {args.players} players, {args.hands:,} hands, seed {args.seed} ({seconds:.1f} s)")
    _table(say, spec, stats)
    say("")
    note = (
        "These numbers describe the fixed simulation policy, not the game: "
        f"{POLICY[spec.kind]}. Other players (hucklebuck tournament) bid, stay and play otherwise."
    )
    for line in textwrap.wrap(note, 78):
        say(line)
    return 0


def _tty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _to_json(stats: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(stats):
        value = getattr(stats, f.name)
        out[f.name] = {str(k): v for k, v in value.items()} if isinstance(value, dict) else value
    return out


def _pct(n: int, d: int) -> str:
    return f"{n / d:7.1%}" if d else "      -"


POLICY = {
    GameKind.HUCKLEBUCK: "each seat bids up to its hand's trick estimate with its best suit as trump "
    "(the moon from about 4.7 tricks) and passes for good once past it, a non-bidder stays "
    "from about 0.3 of a trick, and every card is played by the library's playout policy",
    GameKind.DEERPARK: "a seat orders up from a hand worth about 2.6 tricks in the turned suit and "
    "calls its best suit in round 2 from about 2.8, and every card is played by the library's "
    "playout policy",
    GameKind.BUCKEM: "a seat stays with two trumps, or with the queen of trump or better and an ace "
    "of another suit, and folds otherwise, and every card is played by the library's playout policy",
}
"""The fixed simulation policy of each game, in words: the numbers describe it, not the game."""


def _table(say: Output, spec: GameSpec, s: Any) -> None:
    rows: list[tuple[str, str, str]] = []
    h = s.hands
    if isinstance(s, ev.HucklebuckSimStats):
        rows += [
            ("everyone passed (dealer scores 5)", f"{s.all_pass:,}", _pct(s.all_pass, h)),
            ("lone bidder (everyone else dropped)", f"{s.lone_bidder:,}", _pct(s.lone_bidder, h)),
            ("hands played", f"{s.played:,}", _pct(s.played, h)),
            ("players per played hand", f"{s.stayers / s.played:.2f}" if s.played else "-", ""),
            ("stock re-formed (DEF #18)", f"{s.restocks:,}", ""),
            ("stayers with no trick (-5)", f"{s.stayer_zero:,}", ""),
        ]
        for b in range(2, 6):
            n = s.made[b] + s.set[b]
            rows.append(
                (f"bid {b}: made / set", f"{s.made[b]:,} / {s.set[b]:,}", _pct(s.made[b], n) + " made")
            )
    elif isinstance(s, ev.DeerParkSimStats):
        rows += [
            ("turned club (clubs trump)", f"{s.club_turnups:,}", _pct(s.club_turnups, h)),
            ("ordered up in round 1", f"{s.ordered:,}", _pct(s.ordered, h)),
            ("called in round 2", f"{s.called:,}", _pct(s.called, h)),
            ("stuck dealer", f"{s.stuck:,}", _pct(s.stuck, h)),
            (
                "voluntary maker: made / set",
                f"{s.voluntary_made:,} / {s.voluntary_set:,}",
                f"{s.voluntary_set_rate:7.1%} set",
            ),
            (
                "maker needing 2: made / set",
                f"{s.forced_made:,} / {s.forced_set:,}",
                f"{s.forced_set_rate:7.1%} set",
            ),
            ("defenders without a trick", f"{s.defenders_without_trick:,}", ""),
        ]
    else:
        rows += [
            ("nobody stayed", f"{s.no_stayers:,}", _pct(s.no_stayers, h)),
            ("lone stayer raked", f"{s.raked:,}", _pct(s.raked, h)),
            ("lone stayer could not rake", f"{s.lone_without_rake:,}", _pct(s.lone_without_rake, h)),
            ("rounds played", f"{s.played:,}", _pct(s.played, h)),
            ("  one winner / two / none", f"{s.one_winner:,} / {s.two_winners:,} / {s.no_winner:,}", ""),
            ("players burned", f"{s.burned:,}", ""),
            ("stayers", f"{s.stayers:,}", ""),
            ("stock re-formed", f"{s.restocks:,}", ""),
            ("chips won / burned", f"{s.chips_won:,} / {s.chips_burned:,}", ""),
            ("pots carried", f"{s.carried:,}", _pct(s.carried, h)),
            ("final pots (summed over chunks)", f"{s.final_pot:,}", ""),
        ]
    width = max(len(r[0]) for r in rows) + 2
    vw = max(len(r[1]) for r in rows) + 2
    for label, value, share in rows:
        say(f"  {label:<{width}}{value:>{vw}}  {share}".rstrip())
