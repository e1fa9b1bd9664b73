"""Helpers for Hucklebuck tests: explicit deals and scripted play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hucklebuck import CardSet, pack, parse_cards
from hucklebuck._core._py import _TABLES
from hucklebuck.games import HucklebuckDeal, HucklebuckGame, HucklebuckOptions

FULL = pack("hucklebuck", 3)

# Three seats, dealer 0, eldest 1.  Seat 1 holds top spades, seat 2 top hearts,
# seat 0 top diamonds.
SUITED = ["AD KD QD JD TD", "AS KS QS JS TS", "AH KH QH JH TH"]
# Seat 1: two top spades and small clubs; seat 0 the club ace and top diamonds.
HB22 = ["AD KD QD JD AC", "AS KS 2C 3C 4C", "AH KH QH JH TH"]


def deal(hands: Sequence[str], stock_top: str = "", restock: Sequence[str] | None = None) -> HucklebuckDeal:
    """A deal with these hands ("" for an out seat); the stock is ``stock_top``
    then every other card in canonical order."""
    hs = tuple(parse_cards(h) for h in hands)
    top = parse_cards(stock_top)
    used = CardSet([c for h in hs for c in h] + list(top))
    rest = tuple(c for c in FULL if c not in used)
    rs = None if restock is None else tuple(parse_cards(r) for r in restock)
    return HucklebuckDeal(hs, top + rest, rs)


def new_game(hands: Sequence[str], *, stock_top: str = "", **kw: Any) -> HucklebuckGame:
    """A game whose first hand is dealt as given."""
    restock = kw.pop("restock", None)
    return HucklebuckGame(len(hands), deal=deal(hands, stock_top, restock), **kw)


def run(game: HucklebuckGame, *actions: str) -> HucklebuckGame:
    """Apply protocol-form actions in order."""
    for a in actions:
        game.apply(a)
    return game


def play_lowest(game: HucklebuckGame) -> None:
    """Finish the current hand's play with every seat playing its lowest legal card."""
    from hucklebuck.games import Phase

    while game.phase is Phase.PLAY:
        game.apply(game.legal_actions()[0])


def opts(**kw: object) -> HucklebuckOptions:
    """Hucklebuck options from keyword arguments, as the JSON form names them."""
    return HucklebuckOptions.from_dict(kw)


def moon_game(scores: list[int], **kw: object) -> HucklebuckGame:
    """The ``SUITED`` deal from these scores: seat 1 bids 5 with spades trump and takes every trick."""
    g = new_game(SUITED, scores=scores, **kw)
    run(g, "1 bid 5", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0")
    play_lowest(g)
    return g


def brute(game: int, trump: int, hands: list[int], leader: int, seat: int) -> int:
    """Plain minimax over every play: the definition the solver must meet."""
    suit, rank, masks = _TABLES[(game, trump)]
    order = [i for i, h in enumerate(hands) if h]

    def key(lead: int, c: int) -> int:
        s = suit[c]
        return ((s == trump) << 5) | ((s == lead) << 4) | rank[c]

    def rec(hands: list[int], leader: int, trick: list[int], seats: list[int]) -> int:
        n = len(order)
        if len(trick) == n:
            w = seats[max(range(n), key=lambda i: key(suit[trick[0]], trick[i]))]
            return (w == seat) + rec(hands, w, [], [])
        p = order[(order.index(leader) + len(trick)) % n]
        if not hands[p]:
            return 0
        legal = hands[p]
        if trick:
            legal = hands[p] & masks[suit[trick[0]]] or hands[p]
        vals = []
        for c in CardSet.from_mask(legal):
            nh = list(hands)
            nh[p] &= ~c.mask
            vals.append(rec(nh, leader, [*trick, c.index], [*seats, p]))
        return max(vals) if p == seat else min(vals)

    return rec(list(hands), leader, [], [])


def default_sigint() -> None:
    """For ``Popen(preexec_fn=...)``: the child starts with Ctrl-C's default action, as from a
    terminal, even when these tests were started in the background (a shell starts background
    jobs with SIGINT ignored, and a Python started so never turns SIGINT into KeyboardInterrupt)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system, every thread) process ``pid`` has used so far (Linux)."""
    import os
    from pathlib import Path

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def busy_for(proc: Any, seconds: float, hang: float = 120.0) -> None:
    """Wait until ``proc`` has spent ``seconds`` more of CPU (it is well inside its work: a wait for
    that state, not for time, so a busy machine only makes it longer); fails only on a hang."""
    import time

    start, deadline = cpu_seconds(proc.pid), time.monotonic() + hang
    while cpu_seconds(proc.pid) < start + seconds:
        assert proc.poll() is None, "the process ended before it was under way"
        assert time.monotonic() < deadline, "the process never got under way"
        time.sleep(0.01)


def interrupt(proc: Any, hang: float = 120.0) -> tuple[str, str, float]:
    """Send ``proc`` SIGINT and wait for it to end: its output and errors, and the CPU seconds it
    used after the signal (how promptly it stopped, whatever else keeps the machine busy)."""
    import resource
    import signal

    def children() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    before, reaped = cpu_seconds(proc.pid), children()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=hang)
    return out, err, children() - reaped - before
