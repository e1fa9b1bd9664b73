"""Mutation check of the rule modules: do the tests, and the conformance suite
alone, notice a small bug?

``python -m hucklebuck.bench mutation`` (or ``python -m hucklebuck.bench.mutation``
with its own options) copies the package, the tests and the suite into a
temporary folder and, for each of a seeded sample of *mutants* of each rule
module (one small change each: a flipped comparison, a constant off by one,
``and``/``or`` swapped, a statement deleted, the branches of an ``if`` swapped
or its test negated, an arithmetic operator changed, ``True``/``False``
swapped), runs with the pure-Python core (``HUCKLEBUCK_BACKEND=python``):

* the module's tests (a targeted selection, stopping at the first failure);
* the bundled conformance suite, alone;
* a *probe* of results the protocol can observe (seeded random games of each
  game under many options and starting scores, and trick and legal-play
  requests), compared with the unmutated code's.

A mutant is *caught* by the tests or the suite when they fail (an import error
or a time-out counts as caught).  It *changes an observable result* when the
suite or the probe sees a difference.  Survivors are listed with their line, to
be read: some cannot change behaviour (equivalent mutants), and some change
only what the protocol cannot see (a message, an event's reason).

It needs a source checkout (``tests/`` and ``conformance/`` next to the
package) and takes about an hour for the six modules at 45 mutants each; it is
not part of the default benchmark run.  The same seed gives the same mutants.
"""

from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .mutation_known import KNOWN  # the hand-written mutants (--known)

__all__ = ["MODULES", "Mutant", "Outcome", "main", "mutants", "probe", "run"]

#: Module name -> (path under the repository, the tests that target it).
MODULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "tricks": (
        "hucklebuck/tricks.py",
        ("tests/test_tricks.py", "tests/test_rules_inputs.py", "tests/test_rules_pins.py"),
    ),
    "core_py": (
        "hucklebuck/_core/_py.py",
        (
            "tests/test_tricks.py",
            "tests/test_rules_inputs.py",
            "tests/test_backend.py",
            "tests/test_solver.py",
            "tests/test_rules_pins.py",
        ),
    ),
    "deerpark_scoring": (
        "hucklebuck/games/_deerpark_scoring.py",
        (
            "tests/test_rules_deciding.py",
            "tests/test_rules_events.py",
            "tests/test_deerpark.py",
            "tests/test_rules_reasons.py",
        ),
    ),
    "hucklebuck_scoring": (
        "hucklebuck/games/_hucklebuck_scoring.py",
        (
            "tests/test_rules_deciding.py",
            "tests/test_rules_events.py",
            "tests/test_hucklebuck.py",
            "tests/test_rules_reasons.py",
            "tests/test_rules_pins.py",
        ),
    ),
    "buckem_settle": (
        "hucklebuck/games/_buckem_settle.py",
        (
            "tests/test_rules_deciding.py",
            "tests/test_rules_events.py",
            "tests/test_buckem.py",
            "tests/test_rules_reasons.py",
        ),
    ),
    "hucklebuck_bidding": (
        "hucklebuck/games/_hucklebuck_bidding.py",
        (
            "tests/test_rules_events.py",
            "tests/test_hucklebuck.py",
            "tests/test_hucklebuck_random.py",
            "tests/test_rules_reasons.py",
        ),
    ),
}


_CMP_SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In,
}  # fmt: skip
_BIN_SWAP: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult, ast.Mod: ast.FloorDiv,
    ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.LShift: ast.RShift, ast.RShift: ast.LShift,
}  # fmt: skip


@dataclass(frozen=True)
class Mutant:
    """One small change to one module."""

    module: str
    index: int  # position among the module's mutation sites
    line: int
    what: str


@dataclass
class Outcome:
    """What caught one mutant."""

    mutant: Mutant
    tests: bool
    conformance: bool
    observable: bool
    seconds: float
    detail: str = ""


# ------------------------------------------------------------------ mutation sites
def _skipped(tree: ast.Module) -> set[int]:
    """ids of nodes never mutated: docstrings, annotations, asserts, imports,
    ``TYPE_CHECKING`` blocks, decorators, module constants named in ``__all__``."""
    skip: set[int] = set()

    def all_of(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            if isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                all_of(body[0])
        if isinstance(node, (ast.Assert, ast.Import, ast.ImportFrom)):
            all_of(node)
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            all_of(node)
        elif isinstance(node, ast.AnnAssign):
            all_of(node.annotation)
        elif isinstance(node, ast.arg):
            all_of(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            all_of(node.returns)
            for d in node.decorator_list:
                all_of(d)
        elif isinstance(node, ast.ClassDef):
            for d in node.decorator_list:
                all_of(d)
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            all_of(node)
    return skip


def _sites(tree: ast.Module) -> Iterator[tuple[ast.AST, str, int, str]]:
    """Every mutation site as ``(node, kind, argument, description)``, in a fixed order."""
    skip = _skipped(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                new = _CMP_SWAP.get(type(op))
                if new is not None:
                    yield node, "cmp", i, f"{type(op).__name__} -> {new.__name__}"
        elif isinstance(node, ast.BoolOp):
            yield node, "boolop", 0, "and <-> or"
        elif isinstance(node, ast.BinOp) and type(node.op) in _BIN_SWAP:
            yield node, "binop", 0, f"{type(node.op).__name__} -> {_BIN_SWAP[type(node.op)].__name__}"
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield node, "const", 1, f"{node.value} -> {node.value + 1}"
            yield node, "const", -1, f"{node.value} -> {node.value - 1}"
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            yield node, "bool", 0, f"{node.value} -> {not node.value}"
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "not", 0, "not x -> x"
        elif isinstance(node, ast.If):
            if node.orelse:
                yield node, "swap", 0, "if/else branches swapped"
            yield node, "negate", 0, "if test negated"
        elif isinstance(node, ast.IfExp):
            yield node, "swap", 0, "x if c else y -> y if c else x"
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if not isinstance(block, list):
                continue
            for i, stmt in enumerate(block):
                if id(stmt) in skip or isinstance(stmt, (ast.FunctionDef, ast.ClassDef, ast.Pass)):
                    continue
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    continue  # an attribute's docstring
                if isinstance(node, ast.Module) and not isinstance(stmt, (ast.Expr, ast.AugAssign)):
                    continue  # module-level definitions: deleting one only breaks the import
                yield (
                    node,
                    f"delete:{name}",
                    i,
                    f"statement deleted: {ast.unparse(stmt).splitlines()[0][:60]}",
                )


def _apply(node: ast.AST, kind: str, arg: int) -> None:
    if kind == "cmp":
        assert isinstance(node, ast.Compare)
        node.ops[arg] = _CMP_SWAP[type(node.ops[arg])]()
    elif kind == "boolop":
        assert isinstance(node, ast.BoolOp)
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif kind == "binop":
        assert isinstance(node, ast.BinOp)
        node.op = _BIN_SWAP[type(node.op)]()
    elif kind == "const":
        assert isinstance(node, ast.Constant) and type(node.value) is int
        node.value = node.value + arg
    elif kind == "bool":
        assert isinstance(node, ast.Constant)
        node.value = not node.value
    elif kind == "not":
        assert isinstance(node, ast.UnaryOp)
        node.op = ast.UAdd()  # +bool(x): x's own truth, the "not" gone
        node.operand = ast.Call(ast.Name("bool", ast.Load()), [node.operand], [])
    elif kind == "swap":
        assert isinstance(node, (ast.If, ast.IfExp))
        if isinstance(node, ast.If):
            node.body, node.orelse = node.orelse, node.body
        else:
            node.body, node.orelse = node.orelse, node.body
    elif kind == "negate":
        assert isinstance(node, ast.If)
        node.test = ast.UnaryOp(ast.Not(), node.test)
    elif kind.startswith("delete:"):
        block = getattr(node, kind.split(":")[1])
        block[arg] = ast.Pass()


def mutants(
    module: str, source: str, count: int, seed: int, only: frozenset[int] = frozenset()
) -> list[tuple[Mutant, str]]:
    """A seeded sample of ``count`` mutants of ``source``, each with its mutated text
    (``only``: keep just the sampled mutants with these indices)."""
    tree = ast.parse(source)
    sites = list(_sites(tree))
    rng = random.Random(f"{seed}:{module}")
    picked = sorted(rng.sample(range(len(sites)), min(count, len(sites))))
    if only:
        picked = [k for k in picked if k in only]
    out = []
    original = ast.unparse(tree)
    for k in picked:
        t = copy.deepcopy(tree)
        node, kind, arg, what = list(_sites(t))[k]
        line = getattr(node, "lineno", 0)
        if kind.startswith("delete:"):
            line = getattr(node, kind.split(":")[1])[arg].lineno
        _apply(node, kind, arg)
        text = ast.unparse(ast.fix_missing_locations(t))
        if text != original:
            out.append((Mutant(module, k, line, what), text))
    return out


def known_mutants(module: str, source: str) -> list[tuple[Mutant, str]]:
    """The :data:`KNOWN` mutants of one module, each with its mutated text."""
    out = []
    for i, (mod, what, old, new) in enumerate(KNOWN):
        if mod != module:
            continue
        if source.count(old) != 1:
            raise SystemExit(f"{module}: the known mutant {what!r} no longer applies (its text moved)")
        line = source[: source.index(old)].count("\n") + 1
        out.append((Mutant(module, -1 - i, line, what), source.replace(old, new)))
    return out


# ------------------------------------------------------------------ the probe
def probe(games: int = 80, seed: int = 7) -> str:
    """A digest of results the protocol can observe, from seeded random play.

    Every hand's protocol fields, the legal actions at each step, the game's
    end, and answers to trick and legal-play requests (good and bad) go into
    one SHA-256; an exception counts as an answer (its type).
    """
    from ..conformance.protocol import handle
    from ..games import BuckEmGame, DeerParkGame, HucklebuckGame
    from ..games.engine import TrickGame

    rng = random.Random(seed)
    h = hashlib.sha256()

    def note(x: object) -> None:
        h.update(json.dumps(x, sort_keys=True, default=str).encode())

    def pick(options: dict[str, tuple[Any, ...]]) -> dict[str, Any]:
        return {k: rng.choice(v) for k, v in options.items() if rng.random() < 0.5}

    hb_opts = {
        "tie_break": ("highest_then_bidder", "bidder_first", "shared"),
        "moon_at_zero": ("reset_to_zero", "win", "score_normally"),
        "in_the_hole_reset_applies_to": ("moon_only", "any_bid"),
        "bidder_zero_trick_penalty_stacks": (False, True),
        "all_pass": ("dealer_scores_5", "dealer_must_bid"),
        "lone_moon_bidder": ("scores_5", "wins_game"),
        "auction_reentry": (False, True),
        "exchange_order": ("bidder_left_bidder_last", "dealer_left_dealer_last"),
        "target": (15, 11),
    }
    bk_opts = {
        "odd_chip": ("buckup", "carry", "first_left_of_dealer"),
        "split": ("equal", "proportional"),
        "rake_rounding": ("floor", "ceil"),
        "rake_hand": ("as_dealt", "after_swap"),
        "deuce_swap": (False, True),
        "after_void_round_ante": (True, False),
        "pot_limit": (None, 2, 5),
        "ante": (1, 2),
    }
    dp_opts = {
        "lock_permanent": (False, True),
        "lock_at": (45, 40, 30),
        "failed_contract_tricks_count": (False, True),
        "tie_break": ("distance_then_maker", "shared"),
        "first_lead": ("eldest", "maker"),
        "club_turnup_pickup": (False, True),
        "round2_excludes_turned_suit": (False, True),
    }

    def play(game: TrickGame[Any, Any], hands: int) -> None:
        for _ in range(hands):
            steps = 0
            while game.to_act is not None:
                steps += 1
                if steps > 400:  # no hand of these games has this many actions: a mutant loops
                    note("stuck")
                    return
                legal = game.legal_actions()
                note([str(a) for a in legal])
                game.apply(rng.choice(legal))
            note(game.results[-1].to_dict())  # type: ignore[attr-defined]
            note([game.is_over, sorted(game.winners)])
            if game.is_over:
                return
            game.next_hand()

    for i in range(games):
        for make in ("hucklebuck", "buckem", "deerpark"):
            try:
                if make == "hucklebuck":
                    n = rng.randint(3, 6)
                    scores = [
                        rng.choice((-30, -26, -25, -24, -21, -1, 0, 1, 10, 12, 13, 14, 15)) for _ in range(n)
                    ]
                    g: TrickGame[Any, Any] = HucklebuckGame(n, seed=i, options=pick(hb_opts), scores=scores)
                elif make == "buckem":
                    n = rng.randint(5, 7)
                    g = BuckEmGame(
                        n, seed=i, options=pick(bk_opts), pot=rng.randint(0, 12),
                        pot_units=rng.randint(0, 3), ante_due=rng.random() < 0.6,
                    )  # fmt: skip
                else:
                    n = rng.randint(3, 5)
                    scores = [rng.choice((1, 2, 5, 20, 39, 40, 44, 45, 46, 49)) for _ in range(n)]
                    g = DeerParkGame(n, seed=i, options=pick(dp_opts), scores=scores)
                play(g, 4)
            except Exception as exc:  # a mutant may raise anything: that is an answer too
                note(type(exc).__name__)
    deck = [f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA"]
    for i in range(300):
        game = ("hucklebuck", "buckem", "deerpark")[i % 3]
        cards = rng.sample(deck, rng.randint(2, 8))
        if i % 5 == 0:
            cards[rng.randrange(len(cards))] = "2C"  # card index 0
        trump = "CDHS"[i % 4]
        note(handle({"op": "trick_winner", "game": game, "trump": trump, "plays": cards}))
        k = rng.randint(1, min(5, len(cards) - 1))
        note(
            handle({"op": "legal_plays", "game": game, "trump": trump, "hand": cards[:k], "trick": cards[k:]})
        )
        bad = rng.choice((["AS", "AS"], ["AS"], ["AS", "XX"], [*deck[:9]]))
        note(handle({"op": "trick_winner", "game": game, "trump": trump, "plays": bad})["ok"])
    return h.hexdigest()


# ------------------------------------------------------------------ running
def _checkout() -> Path:
    root = Path(__file__).resolve().parents[2]
    if not (root / "tests").is_dir() or not (root / "conformance" / "cases").is_dir():
        raise SystemExit(
            "the mutation check needs a source checkout (tests/ and conformance/ next to hucklebuck/)"
        )
    return root


def _copy(root: Path, into: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "suite", ".hypothesis")
    for name in ("hucklebuck", "tests", "conformance"):
        shutil.copytree(root / name, into / name, ignore=ignore)
    shutil.copy(root / "pyproject.toml", into / "pyproject.toml")


def _run(cmd: list[str], cwd: Path, timeout: float) -> tuple[int, str]:
    env = os.environ | {"HUCKLEBUCK_BACKEND": "python", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, "timed out"
    return p.returncode, (p.stdout + p.stderr)[-2000:]


def _commands(tests: tuple[str, ...]) -> dict[str, list[str]]:
    py = sys.executable
    return {
        "tests": [py, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                  "--hypothesis-seed=0", *tests],
        "conformance": [py, "-m", "hucklebuck.conformance", "run", "--quiet", "--backend", "python"],
        "probe": [py, "-c", "from hucklebuck.bench.mutation import probe; print(probe())"],
    }  # fmt: skip


def check_module(
    module: str,
    count: int,
    seed: int,
    timeout: float,
    work: Path,
    known: bool = False,
    only: frozenset[int] = frozenset(),
) -> list[Outcome]:
    """Run ``count`` seeded mutants of one module (or its :data:`KNOWN` ones); print one line
    per mutant."""
    path, tests = MODULES[module]
    target = work / path
    original = target.read_text(encoding="utf-8")
    cmds = _commands(tests)
    for name in ("tests", "conformance"):
        code, out = _run(cmds[name], work, timeout * 4)
        if code != 0:
            raise SystemExit(f"{module}: the {name} fail without any mutant:\n{out}")
    code, baseline = _run(cmds["probe"], work, timeout * 4)
    if code != 0:
        raise SystemExit(f"the probe fails without any mutant:\n{baseline}")
    outcomes = []
    try:
        chosen = known_mutants(module, original) if known else mutants(module, original, count, seed, only)
        for m, text in chosen:
            target.write_text(text, encoding="utf-8")
            t0 = time.monotonic()
            t_code, t_out = _run(cmds["tests"], work, timeout)
            c_code, _ = _run(cmds["conformance"], work, timeout)
            p_code, p_out = _run(cmds["probe"], work, timeout)
            observable = c_code != 0 or p_code != 0 or p_out != baseline
            failed = [ln for ln in t_out.splitlines() if ln.startswith(("FAILED", "ERROR"))]
            o = Outcome(
                m, t_code != 0, c_code != 0, observable, time.monotonic() - t0, (failed or [""])[0][:120]
            )
            outcomes.append(o)
            marks = ", ".join(
                [
                    "tests " + ("CAUGHT" if o.tests else "missed"),
                    "suite " + ("CAUGHT" if o.conformance else "missed"),
                    "observable" if observable else "not seen",
                ]
            )
            print(f"  #{m.index} {path}:{m.line} {m.what}: {marks}", flush=True)
    finally:
        target.write_text(original, encoding="utf-8")
    return outcomes


def summary(module: str, outcomes: list[Outcome]) -> list[str]:
    """The figures of one module (or of all, with module ``"all"``)."""
    n = len(outcomes)
    tests = sum(o.tests for o in outcomes)
    suite = sum(o.conformance for o in outcomes)
    obs = [o for o in outcomes if o.observable]
    suite_obs = sum(o.conformance for o in obs)

    def pct(a: int, b: int) -> str:
        return f"{a}/{b} ({100 * a / b:.1f} %)" if b else "0/0"

    return [
        f"{module}: {n} mutants; caught by the tests {pct(tests, n)}; by the conformance suite alone "
        f"{pct(suite, n)}; of the {len(obs)} that change an observable result, the suite catches "
        f"{pct(suite_obs, len(obs))}",
        *[
            f"    survived the tests: #{o.mutant.index} line {o.mutant.line}: {o.mutant.what}"
            + (" (observable)" if o.observable else "")
            for o in outcomes
            if not o.tests
        ],
    ]


def run(args: argparse.Namespace) -> None:
    """The ``mutation`` benchmark section (see the module docstring)."""
    known = bool(getattr(args, "known", False))
    modules = getattr(args, "module", None) or list(MODULES)
    if known:
        modules = [m for m in modules if any(k[0] == m for k in KNOWN)]
    count = getattr(args, "mutants", None) or max(1, round(45 * getattr(args, "scale", 1.0)))
    seed = getattr(args, "seed", 0)
    timeout = getattr(args, "timeout", 120.0)
    root = _checkout()
    results: dict[str, list[Outcome]] = {}
    with tempfile.TemporaryDirectory(prefix="hb-mutation-") as tmp:
        work = Path(tmp)
        _copy(root, work)
        for module in modules:
            which = "the known mutants" if known else f"{count} mutants, seed {seed}"
            print(f"{module} ({MODULES[module][0]}), {which}:", flush=True)
            t0 = time.monotonic()
            only = frozenset(getattr(args, "only", None) or ())
            results[module] = check_module(module, count, seed, timeout, work, known, only)
            print(
                "\n".join(summary(module, results[module])),
                f"\n  ({time.monotonic() - t0:.0f} s)",
                flush=True,
            )
    everything = [o for os_ in results.values() for o in os_]
    if len(results) > 1:
        print(summary("all", everything)[0])
    out = getattr(args, "json", None)
    if out:
        Path(out).write_text(json.dumps([asdict(o) for o in everything], indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """``python -m hucklebuck.bench.mutation``: the mutation check with its own options."""
    p = argparse.ArgumentParser(
        prog="python -m hucklebuck.bench.mutation", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--module", action="append", choices=list(MODULES), help="a module to mutate (repeatable)")
    p.add_argument("--mutants", type=int, default=45, help="mutants per module (default 45)")
    p.add_argument("--seed", type=int, default=0, help="which mutants (default 0)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per run of a mutant (default 120)")
    p.add_argument("--json", metavar="FILE", help="also write every outcome as JSON")
    p.add_argument("--known", action="store_true", help="run the hand-written KNOWN mutants instead")
    p.add_argument(
        "--only", type=int, action="append", metavar="INDEX",
        help="of the sample, run only the mutant with this index (repeatable; see --json)",
    )  # fmt: skip
    args = p.parse_args(argv)
    if args.mutants < 1 or args.timeout <= 0:
        p.error("--mutants must be at least 1 and --timeout above 0")
    run(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
