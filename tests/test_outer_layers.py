"""Issue 24 (hardening, round 2): the layers around the engine keep its discipline.

Saves never destroy saves, executors that cancel or misbehave give ChunkError
(never a hang or a wrong answer), plans stay bounded, one Buck 'Em ante bound,
options with odd keys and answers with extra fields.  The property tests throw
hostile values at every argument of the parallel layer and of the save path.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thorough_kit import examples

from hucklebuck import HucklebuckError, OptionsError, Suit, parallel, parse_cards
from hucklebuck import evaluate as ev
from hucklebuck.cli.human import save_game
from hucklebuck.errors import ChunkError, UnsupportedOption
from hucklebuck.games import BuckEmGame, HucklebuckGame
from hucklebuck.games.buckem import BuckEmOptions
from hucklebuck.games.hucklebuck import HucklebuckOptions
from hucklebuck.games.persist import write_atomic

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.binary(max_size=4),
    st.lists(st.integers(-3, 60), max_size=4),
    st.sampled_from([object(), Suit.SPADES, 2.0, {"a": 1}, [[1, 2]], print]),
)


def _played(moves: int) -> HucklebuckGame:
    game = HucklebuckGame(4, seed=3)
    for _ in range(moves):
        if game.is_over or game.to_act is None:
            break
        game.apply_id(game.legal_action_ids()[0])
    return game


# ------------------------------------------------------------------- saving
@pytest.mark.single_core
def test_a_save_that_hits_the_file_size_limit_leaves_the_previous_save_intact(tmp_path: Path) -> None:
    # Before: save_game opened the target with "w" (truncating it) and then wrote, so a
    # file-size limit (or a full disk) mid-write left a truncated JSON file behind.
    target = tmp_path / "game.json"
    assert save_game(_played(2), str(target), {"you": 0}).startswith("Saved")
    good = target.read_bytes()
    script = (
        "import resource, sys\n"
        "from hucklebuck.cli.human import save_game\n"
        "from hucklebuck.games import HucklebuckGame\n"
        "g = HucklebuckGame(4, seed=3)\n"
        "for _ in range(30):\n"
        "    if g.is_over or g.to_act is None: break\n"
        "    g.apply_id(g.legal_action_ids()[0])\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({len(good) // 2}, {len(good) // 2}))\n"
        "print(save_game(g, sys.argv[1], {'you': 0}))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, str(target)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"Could not save to {target}"), run.stdout
    assert target.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temporary file left


@pytest.mark.single_core
def test_a_save_replaces_the_old_file_whole_and_keeps_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_atomic(target, '{"new": 1}')
    assert json.loads(target.read_text()) == {"new": 1}
    assert target.stat().st_mode & 0o777 == 0o640
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_atomic(str(link), "[2]")  # through a link: the file it points to
    assert link.is_symlink() and json.loads(target.read_text()) == [2]


SAVE_PATHS = st.one_of(
    st.text(alphabet=st.characters(blacklist_characters="/"), max_size=300),
    st.sampled_from(["", ".", "..", "missing/x.json", "good.json/x", "\x00", "a\x00b", "x" * 300, "\udcff"]),
)


@pytest.mark.single_core
@settings(max_examples=examples(60), deadline=None)
@given(name=SAVE_PATHS, other=st.sampled_from([None, 3, b"x.json", 2.5, ["x"]]))
def test_property_hostile_save_paths_are_refused_in_words_and_never_touch_the_good_save(
    name: str, other: object
) -> None:
    game = _played(3)
    with tempfile.TemporaryDirectory() as folder:
        good = Path(folder) / "good.json"
        good.write_text('{"good": true}')
        path = os.path.join(folder, name) if name else folder
        message = save_game(game, path, {})
        assert message.startswith(("Saved to", "Could not save to")), message
        if message.startswith("Saved to"):
            assert HucklebuckGame.from_json(Path(path).read_text()).to_dict() == game.to_dict()
        if not message.startswith("Saved to") or name != "good.json":
            assert good.read_text() == '{"good": true}'
        assert not [p for p in os.listdir(folder) if p.endswith(".tmp")]
        assert save_game(game, other, {}).startswith("Could not save to")  # type: ignore[arg-type]


# --------------------------------------------------------- parallel and executors
class _CancellingExecutor(cf.Executor):
    """Every submit returns a future that is already cancelled (never notified)."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        fut: cf.Future[Any] = cf.Future()
        fut.cancel()
        return fut


class _LyingExecutor(cf.Executor):
    """Runs nothing: every future's result is ``result``."""

    def __init__(self, result: object) -> None:
        self.result = result

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        fut: cf.Future[Any] = cf.Future()
        fut.set_result(self.result)
        return fut


def _in_thread(fn: Any) -> BaseException | None:
    """Run ``fn`` in a daemon thread; its exception, or fail the test when it hangs."""
    box: list[BaseException | None] = []

    def body() -> None:
        try:
            fn()
        except BaseException as exc:
            box.append(exc)
        else:
            box.append(None)

    t = threading.Thread(target=body, daemon=True)
    t.start()
    t.join(30)
    assert box, "the run hung"
    return box[0]


def test_a_cancelled_future_is_a_chunk_error_not_a_hang() -> None:
    # Before: as_completed waited forever for a future cancelled without notification.
    exc = _in_thread(lambda: ev.simulate_hucklebuck(4, 100, executor=_CancellingExecutor(), chunk_size=10))
    assert isinstance(exc, ChunkError) and "cancelled" in str(exc) and exc.index == 0


def test_an_executor_shut_down_mid_run_with_cancel_futures_is_a_chunk_error() -> None:
    pool = cf.ThreadPoolExecutor(max_workers=1)
    release = threading.Event()
    pool.submit(release.wait)  # the only worker is busy: the run's chunks queue behind it

    def go() -> None:
        ev.simulate_deerpark(4, 100, executor=pool, chunk_size=10)

    def stop() -> None:
        pool.shutdown(wait=False, cancel_futures=True)
        release.set()

    timer = threading.Timer(0.3, stop)
    timer.start()
    exc = _in_thread(go)
    timer.join()
    assert isinstance(exc, ChunkError), exc


@pytest.mark.parametrize(
    ("result", "why"),
    [
        ([1, 2, 3], "counts, not 6"),  # the case: 3 counts for a 6-count histogram
        ([0, 0, 0, 0, 0, 3], "units of work"),  # right width, wrong total
        ([0, 0, 0, 0, -5, 15], "not a list of counts"),
        ([0.5] * 6, "not a list of counts"),
        (None, "not a list of counts"),
    ],
)
def test_a_wrong_shaped_chunk_result_is_a_chunk_error_not_a_wrong_answer(result: object, why: str) -> None:
    # Before: merge_counts summed whatever came back (3 counts summing to 24 for 40 samples).
    with pytest.raises(ChunkError, match=why):
        ev.evaluate_hand(
            "hucklebuck",
            Suit.SPADES,
            parse_cards("AS KS QS 2H 3D"),
            players=4,
            samples=40,
            chunk_size=10,
            executor=_LyingExecutor(result),
        )


def test_simulation_chunk_results_are_checked_too() -> None:
    with pytest.raises(ChunkError, match="units of work"):
        ev.simulate_hucklebuck(4, 40, chunk_size=10, executor=_LyingExecutor([0] * 14))
    with pytest.raises(ChunkError, match="counts, not 10"):
        ev.simulate_deerpark(4, 40, chunk_size=10, executor=_LyingExecutor([10] * 14))


@pytest.mark.single_core
def test_a_plan_of_too_many_chunks_is_refused_before_it_is_built() -> None:
    # Before: simulate --chunk 1 with many hands built the whole plan (gigabytes) first.
    with pytest.raises(OptionsError, match="at most 100000"):
        ev.simulate_hucklebuck(4, 10**9, chunk_size=1)
    assert len(parallel.plan(parallel.MAX_CHUNKS, seed=1, chunk_size=1)) == parallel.MAX_CHUNKS


@pytest.mark.single_core
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    arg=st.sampled_from(["seed", "workers", "chunk_size", "executor", "progress", "hands"]),
    junk=JUNK,
)
def test_property_hostile_parallel_arguments_give_library_errors(arg: str, junk: object) -> None:
    kwargs: dict[str, Any] = {"seed": 1, "workers": 1, "chunk_size": 10, "executor": None, "progress": None}
    hands: object = 30
    if arg == "hands":
        hands = junk
    else:
        kwargs[arg] = junk
    try:
        ev.simulate_deerpark(4, hands, **kwargs)  # type: ignore[arg-type]
    except HucklebuckError:
        pass


@pytest.mark.single_core
@settings(max_examples=examples(40), deadline=None)
@given(result=st.one_of(JUNK, st.lists(st.integers(-2, 12), min_size=0, max_size=16)))
def test_property_any_executor_result_is_merged_exactly_or_refused(result: object) -> None:
    try:
        stats = ev.simulate_deerpark(4, 20, chunk_size=10, executor=_LyingExecutor(result))
    except ChunkError:
        return
    assert stats.hands == 20  # accepted only when every chunk accounted for its hands


@pytest.mark.single_core
@settings(max_examples=examples(40), deadline=None)
@given(arg=st.sampled_from(["total", "seed", "chunk_size", "workers", "task", "chunks", "parts"]), junk=JUNK)
def test_property_the_parallel_functions_refuse_junk_in_words(arg: str, junk: object) -> None:
    try:
        if arg in ("total", "seed", "chunk_size", "workers"):
            args: dict[str, Any] = {"total": 10, "seed": 1, "chunk_size": 3, "workers": 1, arg: junk}
            total = args.pop("total")
            parallel.plan(total, **args)
        elif arg == "task":
            parallel.run_chunks(junk, parallel.plan(3, seed=1))  # type: ignore[arg-type]
        elif arg == "chunks":
            parallel.run_chunks(lambda c: c.size, junk)  # type: ignore[arg-type]
        else:
            parallel.merge_counts(junk)  # type: ignore[arg-type]
    except HucklebuckError:
        pass


# ---------------------------------------------------------------- options, ante
@pytest.mark.single_core
def test_options_with_keys_that_are_not_names_are_refused_in_words() -> None:
    # Before: sorted() of {1, "x"} raised TypeError inside from_dict.
    for cls in (HucklebuckOptions, BuckEmOptions):
        with pytest.raises(OptionsError, match="option names must be strings"):
            cls.from_dict({1: 2, "x": 3})  # type: ignore[dict-item]
        with pytest.raises(OptionsError, match="option names must be strings"):
            cls.from_dict({None: 1})  # type: ignore[dict-item]


def test_one_ante_bound_at_every_entry_point() -> None:
    # Before: ante=1e308 (as an integer) was accepted and crashed the bots and the tensor later.
    big = 2**31
    with pytest.raises(UnsupportedOption, match="at most 2147483647"):
        BuckEmOptions(ante=big)
    with pytest.raises(UnsupportedOption):
        BuckEmGame(5, options={"ante": 10**308})
    with pytest.raises(UnsupportedOption):
        BuckEmOptions.from_assignments([f"ante={big}"])
    with pytest.raises(OptionsError, match="2147483647"):
        ev.simulate_buckem(5, 10, ante=big)
    game = BuckEmGame(5, options={"ante": big - 1}, seed=1)
    assert game.observation_tensor(0)[-3] == pytest.approx(5 * (big - 1))


def test_a_huge_pot_stays_finite_in_the_tensor() -> None:
    game = BuckEmGame(5, seed=1, pot=10**300, pot_units=1)
    assert game.observation_tensor(0)[-3] < float("inf")


# ---------------------------------------------------------------------- schemas
@pytest.mark.single_core
def test_the_answer_schema_accepts_extra_fields_and_an_error_with_only_hand() -> None:
    pytest.importorskip("jsonschema", reason="the schema checks need jsonschema")
    from hucklebuck.conformance.schemas import validator

    ans = validator("answer", "answer_play")
    # Before: dependentRequired demanded "action" whenever an error carried "hand".
    bad_deal = {"id": 1, "ok": False, "error": {"code": "bad_request", "hand": 1, "message": "bad deal"}}
    assert list(ans.iter_errors(bad_deal)) == []
    extra = {"id": 1, "ok": False, "error": {"code": "bad_request", "message": "x", "detail": [1]}}
    assert list(ans.iter_errors(extra)) == []
    trick = validator("answer", "answer_trick_winner")
    assert list(trick.iter_errors({"id": 2, "ok": True, "result": 1, "elapsed_ms": 0.1})) == []
    hand = {"complete": True, "restock": [], "dealer": 0, "trump": "S", "tricks": [], "tricks_won": [0, 0, 0],
            "maker": 1, "requirement": 3, "delta": [5, -5, 5], "scores": [25, 15, 25]}  # fmt: skip
    hand["note"] = "x"
    final = {"game_over": False, "winners": [], "dealer": 1, "scores": [25, 15, 25], "clock": 3}
    good = {"id": 1, "ok": True, "result": {"hands": [hand], "final": final, "engine": "other"}}
    assert list(ans.iter_errors(good)) == []
    # still refused: an action index without its hand, an illegal_action without both
    lone_action = {"code": "bad_request", "message": "x", "action": 0}
    assert list(ans.iter_errors({"id": 1, "ok": False, "error": lone_action}))
    half_illegal = {"code": "illegal_action", "message": "x", "hand": 0}
    assert list(ans.iter_errors({"id": 1, "ok": False, "error": half_illegal}))
