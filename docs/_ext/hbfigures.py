"""Figures simulated when the docs build: ``.. sim-figure:: NAME``.

Each figure is computed from the engine with a fixed seed, drawn with
matplotlib (the ``docs`` extra) as SVG, written to the build's ``_images``
folder with the page, and captioned with the number of simulated hands and the
seed.  Monte Carlo figures use :func:`hucklebuck.evaluate.evaluate_hand` (the
fast playout policy, on the active core: ``HUCKLEBUCK_BACKEND`` picks it); the
game-length figure plays whole games between the library's heuristic players
through the public game API.

Without the C core the playout counts shrink (the pure-Python core is about a
hundred times slower) so that the build still takes seconds; the captions then
show the smaller numbers.
"""

from __future__ import annotations

import html
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

import hucklebuck as hb
from hucklebuck.evaluate import evaluate_hand, simulate_buckem

SEED = 2026


def _scale() -> float:
    return 1.0 if hb.backend() == "c" else 0.05


@dataclass
class Figure:
    """A drawn figure: the SVG text, its caption and its alt text."""

    svg: str
    caption: str
    alt: str


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(
        {
            "svg.fonttype": "none",
            "font.size": 13,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "svg.hashsalt": "hucklebuck",
        }
    )
    return plt


def _svg(fig: Any) -> str:
    import io

    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    _plt().close(fig)
    return buf.getvalue()


def _hand_with(
    rng: random.Random, pack_cards: list[hb.Card], trump: hb.Suit, k: int, must: list[hb.Card] | None = None
) -> list[hb.Card]:
    """Five cards with exactly ``k`` of suit ``trump`` (counted by printed suit) including ``must``."""
    must = must or []
    trumps = [c for c in pack_cards if c.suit is trump and c not in must]
    others = [c for c in pack_cards if c.suit is not trump and c not in must]
    return must + rng.sample(trumps, k - len(must)) + rng.sample(others, 5 - k)


def hucklebuck_bids() -> Figure:
    """P(bidder makes 2, 3, 4, 5) against the number of trumps held; four players, all stay."""
    plt = _plt()
    deals, playouts = max(10, int(400 * _scale())), 200
    rng = random.Random(SEED)
    cards = list(hb.pack("hucklebuck", 4))
    xs = list(range(6))
    lines: dict[int, list[float]] = {b: [] for b in (2, 3, 4, 5)}
    for k in xs:
        acc = dict.fromkeys(lines, 0.0)
        for i in range(deals):
            hand = _hand_with(rng, cards, hb.Suit.SPADES, k)
            d = evaluate_hand(
                "hucklebuck",
                hb.Suit.SPADES,
                hand,
                players=4,
                seat=0,
                leader=0,
                samples=playouts,
                seed=SEED + 1000 * k + i,
            )
            for b in acc:
                acc[b] += d.at_least(b)
        for b in lines:
            lines[b].append(acc[b] / deals)
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for b, ys in lines.items():
        ax.plot(xs, [100 * y for y in ys], marker="o", label=f"bid {b}" + (" (moon)" if b == 5 else ""))
    ax.set_xlabel("trumps in the bidder's five cards")
    ax.set_ylabel("chance of making the bid (%)")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    ax.legend(frameon=False)
    n = len(xs) * deals * playouts
    return Figure(
        _svg(fig),
        f"Hucklebuck, four players, everyone stays, the bidder leads: the chance of taking at least "
        f"the bid against the trumps held. {len(xs) * deals:,} random hands ({deals} per trump count), "
        f"each played out {playouts} times: {n:,} simulated hands, seed {SEED}.",
        "Line chart: chance of making bids of 2 to 5 rises with the number of trumps held",
    )


def buckem_burn() -> Figure:
    """P(burned: fewer than two tricks) by trumps held, with and without the trump ace; five stay."""
    plt = _plt()
    deals, playouts = max(10, int(300 * _scale())), 200
    rng = random.Random(SEED)
    trump = hb.Suit.SPADES
    upcard = hb.parse_card("9S")
    cards = [c for c in hb.pack("buckem", 5) if c != upcard]
    ace = hb.parse_card("AS")
    series: dict[str, tuple[list[int], list[float]]] = {}
    hands = 0
    for label, with_ace in (("without the trump ace", False), ("with the trump ace", True)):
        xs, ys = [], []
        for k in range(1 if with_ace else 0, 6 if with_ace else 5):
            total = 0.0
            for i in range(deals):
                hand = _hand_with(
                    rng, [c for c in cards if with_ace or c != ace], trump, k, [ace] if with_ace else None
                )
                seat = rng.randrange(5)
                d = evaluate_hand(
                    "buckem",
                    trump,
                    hand,
                    players=5,
                    seat=seat,
                    leader=1,
                    seen=[upcard],
                    samples=playouts,
                    seed=SEED + 7919 * k + i,
                )
                total += 1 - d.at_least(2)
                hands += 1
            xs.append(k)
            ys.append(100 * total / deals)
        series[label] = (xs, ys)
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for label, (xs, ys) in series.items():
        ax.plot(xs, ys, marker="o", label=label)
    ax.set_xlabel("trumps in hand (the upcard's suit)")
    ax.set_ylabel("chance of being burned (%)")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    ax.legend(frameon=False)
    return Figure(
        _svg(fig),
        f"Buck 'Em, five players who all stay (no draw), random seat: the chance of taking fewer than "
        f"two tricks. {hands:,} random hands ({deals} per point), each played out {playouts} times: "
        f"{hands * playouts:,} simulated hands, seed {SEED}.",
        "Line chart: the chance of being burned falls as trumps are added; holding the ace lowers it",
    )


def buckem_pot() -> Figure:
    """The pot after each round of a session, with and without a pot limit."""
    plt = _plt()
    rounds, sessions, limit = 40, max(10, int(300 * _scale())), 5
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for lim, label in ((None, "no pot limit"), (limit, f"pot_limit = {limit}")):
        mean, high = [], []
        for n in range(1, rounds + 1):
            pots = sorted(
                simulate_buckem(5, n, seed=SEED + s, pot_limit=lim).final_pot for s in range(sessions)
            )
            mean.append(sum(pots) / len(pots))
            high.append(pots[int(0.9 * (len(pots) - 1))])
        line = ax.plot(range(1, rounds + 1), mean, label=f"{label}: mean")[0]
        ax.plot(
            range(1, rounds + 1),
            high,
            linestyle="--",
            color=line.get_color(),
            label=f"{label}: 1 session in 10 is above",
        )
    ax.set_xlabel("rounds played")
    ax.set_ylabel("chips in the pot")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(frameon=False, fontsize=11, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.18))
    total = sessions * rounds * (rounds + 1) // 2
    return Figure(
        _svg(fig),
        f"Buck 'Em, five players, one-chip ante, the library's simulation policy: the pot after each "
        f"round, with each burn payment uncapped and capped at {limit} chips. {sessions} sessions per "
        f"point and setting ({2 * total:,} simulated rounds in all), seeds {SEED} to {SEED + sessions - 1}.",
        "Line chart: without a limit the pot keeps growing; with a limit it levels off",
    )


def deerpark_bowers() -> Figure:
    """P(maker takes three) by trumps held, for 0, 1 and 2 bowers; four players, the maker leads."""
    plt = _plt()
    deals, playouts = max(10, int(300 * _scale())), 200
    rng = random.Random(SEED)
    trump = hb.Suit.HEARTS
    cards = list(hb.pack("deerpark", 4))
    right, left = hb.parse_card("JH"), hb.parse_card("JD")
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    hands = 0
    for bowers in (0, 1, 2):
        must = [right, left][:bowers]
        xs, ys = [], []
        for k in range(max(1, bowers), 6):
            total = 0.0
            for i in range(deals):
                pool = [c for c in cards if c not in (right, left) or c in must]
                # k trumps: the bowers in ``must`` plus k - bowers hearts (left bower is a diamond)
                hearts = [c for c in pool if c.suit is trump and c not in must]
                others = [c for c in pool if c.suit is not trump and c not in must]
                hand = must + rng.sample(hearts, k - bowers) + rng.sample(others, 5 - k)
                d = evaluate_hand(
                    "deerpark",
                    trump,
                    hand,
                    players=4,
                    seat=1,
                    leader=1,
                    samples=playouts,
                    seed=SEED + 31 * k + i,
                )
                total += d.at_least(3)
                hands += 1
            xs.append(k)
            ys.append(100 * total / deals)
        ax.plot(xs, ys, marker="o", label=f"{bowers} bower{'s' if bowers != 1 else ''}")
    ax.set_xticks(range(1, 6))
    ax.set_xlabel("trumps held, bowers included")
    ax.set_ylabel("chance of three tricks (%)")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    ax.legend(frameon=False)
    return Figure(
        _svg(fig),
        f"Deer Park Euchre, four players (24-card pack), hearts trump, the maker leads: the chance of "
        f"taking the three tricks a voluntary maker needs. {hands:,} random hands ({deals} per point), each "
        f"played out {playouts} times: {hands * playouts:,} simulated hands, seed {SEED}.",
        "Line chart: the maker's chance rises with trumps held and is higher with more bowers",
    )


def deerpark_length() -> Figure:
    """How many hands a game lasts, for three, four and five players (heuristic players)."""
    plt = _plt()
    from hucklebuck.games import DeerParkGame, Phase
    from hucklebuck.players import DeerParkHeuristic

    games = 100
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    total = 0
    for players in (3, 4, 5):
        lengths = []
        for g in range(games):
            game = DeerParkGame(players, seed=SEED + g)
            bot = DeerParkHeuristic()
            while not game.is_over:
                if game.phase is Phase.HAND_OVER:
                    game.next_hand()
                else:
                    game.apply(bot.choose(game.observation(game.to_act)))
            lengths.append(len(game.results))
        total += sum(lengths)
        top = max(lengths)
        xs = list(range(1, top + 1))
        cum = [100 * sum(1 for v in lengths if v <= x) / games for x in xs]
        mean = sum(lengths) / games
        ax.step(xs, cum, where="post", label=f"{players} players (mean {mean:.1f} hands)")
    ax.set_xlabel("hands played")
    ax.set_ylabel("games over by then (%)")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    ax.legend(frameon=False)
    return Figure(
        _svg(fig),
        f"Deer Park Euchre: how long games last between the library's heuristic players. {games} games "
        f"per player count, {total:,} simulated hands in all, game seeds {SEED} to {SEED + games - 1}.",
        "Step chart: share of games finished after each number of hands, for three to five players",
    )


def value_model() -> Figure:
    """The game-value model: one seat's chance of winning over its score, the others level."""
    from hucklebuck.players.value import goes_high, win_probabilities

    plt = _plt()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for n in (3, 4, 6):
        xs = list(range(-24, 15))
        left.plot(
            xs,
            [100 * win_probabilities("hucklebuck", [x] + [0] * (n - 1))[0] for x in xs],
            label=f"{n} players",
        )
        ys = list(range(1, 50))
        right.plot(
            ys,
            [100 * win_probabilities("deerpark", [y] + [25] * (n - 1))[0] for y in ys],
            label=f"{n} players",
        )
        switch = min(y for y in ys if goes_high(n, y))
        right.axvline(switch, linestyle=":", linewidth=1, color=right.lines[-1].get_color())
    left.set(
        title="Hucklebuck (others at 0)", xlabel="the seat's score", ylabel="chance of winning the game (%)"
    )
    right.set(title="Deer Park Euchre (others at 25)", xlabel="the seat's score")
    left.legend(frameon=False)
    return Figure(
        _svg(fig),
        "The game-value model: one seat's chance of winning the game from its score, every other seat at "
        "the starting score, at three, four and six players. Dotted lines: the score from which the model "
        "plays Deer Park for 50 rather than 0. Computed from the per-hand outcomes of 600 heuristic games "
        "per game and player count (seed 2026), shipped with the library.",
        "Two line charts of win probability against score: Hucklebuck rising toward 15, "
        "Deer Park Euchre high near 0 and near 50 and lowest in between",
    )


def learning_curve() -> Figure:
    """The learner's share of games won against random and heuristic players over its training
    CPU time, read from the stored evaluations of one training run (it is not retrained here)."""
    import json
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[1] / "examples" / "learning_curve.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows.sort(key=lambda r: r["training"]["cpu_seconds"])
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 4.2))
    games = 0
    for against in ("random", "heuristic"):
        label = f"against two {against} players"
        have = [r for r in rows if against in r]
        xs = [r["training"]["cpu_seconds"] / 60 for r in have]
        ys = [r[against]["share"] for r in have]
        below = [r[against]["share"] - r[against]["low"] for r in have]
        above = [r[against]["high"] - r[against]["share"] for r in have]
        err = [below, above]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=label)
        games = max([games] + [r[against]["games"] for r in have])
    ax.axhline(0.5, linestyle=":", color="grey", linewidth=1)
    ax.set(
        xlabel="training, CPU minutes",
        ylabel="share of games won (2 of 4 seats)",
        ylim=(0, 1),
        xscale="log",
    )
    ticks = [
        t
        for t in (0.5, 1, 2.5, 5, 10, 20, 30, 60)
        if t <= 1.5 * max(r["training"]["cpu_seconds"] / 60 for r in rows)
    ]
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.minorticks_off()
    ax.legend(frameon=False, loc="best")
    last = rows[-1]["training"]
    return Figure(
        _svg(fig),
        "Deer Park Euchre, 4 players: the learner of hucklebuck.learn (PPO, NumPy only) in two seats "
        f"of whole games, {games:,} games per point in the duplicate tournament (seed 7), bars the "
        "95 % intervals; dotted: the even share. One line of training on the project's shared "
        "2-core machine (three runs, each resuming the last one's weights), "
        f"{last['cpu_seconds'] / 60:.1f} CPU minutes and {last['hands']:,} hands at its last checkpoint; "
        "the stored results are docs/examples/learning_curve.jsonl.",
        "Line chart of the share of games won against CPU minutes of training: against random players "
        "high from the first checkpoint, against heuristic players lower",
    )


FIGURES: dict[str, Callable[[], Figure]] = {
    "hucklebuck-bids": hucklebuck_bids,
    "buckem-burn": buckem_burn,
    "buckem-pot": buckem_pot,
    "deerpark-bowers": deerpark_bowers,
    "deerpark-length": deerpark_length,
    "value-model": value_model,
    "learning-curve": learning_curve,
}


class sim_figure(nodes.container):
    """A simulated figure; the caption paragraph is the fallback for non-HTML builders."""


class SimFigure(SphinxDirective):
    """``.. sim-figure:: NAME`` — compute, draw and caption one of :data:`FIGURES`."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        if name not in FIGURES:
            raise self.error(f"sim-figure: unknown figure {name!r}; known: {', '.join(FIGURES)}")
        fig = FIGURES[name]()
        node = sim_figure(classes=["hb-figure"])
        node["name"] = name
        node["svg"] = fig.svg  # kept in the doctree, written out with the page
        node["alt"] = fig.alt
        node["caption"] = fig.caption
        node["ids"] = [f"figure-{name}"]
        node += nodes.paragraph("", f"[figure: {fig.alt}] {fig.caption}")
        return [node]


def visit_figure_html(self: Any, node: sim_figure) -> None:
    images = os.path.join(self.builder.outdir, "_images")
    os.makedirs(images, exist_ok=True)
    with open(os.path.join(images, f"hb-{node['name']}.svg"), "w", encoding="utf-8") as fh:
        fh.write(node["svg"])
    up = "../" * self.builder.current_docname.count("/")
    self.body.append(
        f'<figure class="hb-figure" id="figure-{node["name"]}">'
        f'<img src="{up}_images/hb-{node["name"]}.svg" alt="{html.escape(node["alt"])}" loading="lazy">'
        f"<figcaption>{html.escape(node['caption'])}</figcaption></figure>"
    )
    raise nodes.SkipNode


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_node(sim_figure, html=(visit_figure_html, lambda self, node: None))
    app.add_directive("sim-figure", SimFigure)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
