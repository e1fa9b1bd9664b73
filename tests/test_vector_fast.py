"""The C lane's ``sample_legal`` and ``step`` in one C call each (a ``VecCalls`` of
``hucklebuck._hbcall``): the same results as the lane's cffi calls, ``None`` for anything but
the plain call, and then nothing changed, so that the Python path gives the error."""

from __future__ import annotations

from array import array
from typing import Any

import pytest

from hucklebuck._fast import compiled
from hucklebuck.errors import ActionParseError, IllegalAction, OptionsError
from hucklebuck.vector import VectorGame

# episodes of K hands warn (RewardWarning) that they do not teach winning; these tests cut them on purpose
pytestmark = pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning")

GAMES = [("deerpark", 4), ("hucklebuck", 5), ("buckem", 6)]


def state(vg: VectorGame[Any]) -> tuple[bytes, ...]:
    """Everything a step changes: the outputs and each environment's whole state."""
    return (
        vg.current_player.tobytes(),
        vg.legal_mask.tobytes(),
        vg.rewards.tobytes(),
        vg.terminated.tobytes(),
        vg.truncated.tobytes(),
        vg.observation_tensor().tobytes(),
        repr(vg.episodes).encode(),
        repr([vg.game(i).to_dict() for i in range(vg.num_envs)]).encode(),
    )


def fast_of(vg: VectorGame[Any]) -> Any:
    fast = vg._lane.fast
    # the C lane has its one-call path whenever the compiled module is there; the Python lane never
    assert (fast is not None) == (vg.lane == "c" and compiled() is not None)
    return fast


@pytest.mark.parametrize("game,players", GAMES)
@pytest.mark.parametrize("n,threads", [(1, 1), (17, 1), (300, 2)])
def test_one_call_path_gives_the_lane_s_own_results(game: str, players: int, n: int, threads: int) -> None:
    """Two copies of a batch: one through the public calls, the other through the lane's cffi
    calls; the same ids and the same states after every step."""
    vg = VectorGame(game, players, n, seed=n + 1, threads=threads, hands=1)
    other = vg.copy()
    fast = fast_of(vg)
    for k in range(40):
        ids = vg.sample_legal(k)
        assert type(ids) is array and ids.typecode == "i"
        assert ids == other._lane.sample(k)
        if fast is not None:
            assert fast.sample(k) == ids
        vg.step(ids)
        other._lane.step(memoryview(ids), None)
        if k % 8 == 7:
            assert state(vg) == state(other)
    vg.close()
    other.close()


@pytest.mark.parametrize("seed", [True, -1, 1 << 64, 1.5, "3", None, 2**70])
def test_a_seed_that_is_not_the_plain_call_is_declined(seed: object) -> None:
    vg = VectorGame("deerpark", 4, 9, seed=2, hands=1)
    fast = fast_of(vg)
    if fast is not None:
        assert fast.sample(seed) is None
    with pytest.raises(OptionsError, match="seed"):
        vg.sample_legal(seed)  # type: ignore[arg-type]
    assert fast is None or fast.sample((1 << 64) - 1) == vg._lane.sample((1 << 64) - 1)


@pytest.mark.parametrize("game,players", GAMES)
def test_declined_steps_change_nothing(game: str, players: int) -> None:
    """Each kind of ids the one-call path does not take: it answers None and changes nothing;
    the public step then applies the plain ones and raises for the rest."""
    vg = VectorGame(game, players, 6, seed=5, threads=2, hands=1)
    fast = fast_of(vg)
    for k in range(5):
        vg.step(vg.sample_legal(k))
    before = state(vg)
    ids = vg.sample_legal(99)
    live = [i for i in range(6) if not vg.terminated[i]]
    bad = array("i", ids)
    row = vg.legal_mask.tolist()[live[0]]
    bad[live[0]] = next(k for k, v in enumerate(row) if not v)
    wide = array("i", [x for v in ids for x in (v, 0)])
    declined: list[object] = [
        ids.tolist(),  # a list: the Python path reads it
        bad,  # an illegal id
        array("i", ids.tolist() + [0]),  # one too many
        memoryview(wide)[::2],  # not contiguous
        memoryview(array("i", ids.tolist() * 2)).cast("B").cast("i", (2, 6)),  # two-dimensional
        array("d", [float(v) for v in ids]),  # not integers
        "abcdef",
        None,
    ]
    if fast is not None:
        for actions in declined:
            assert fast.step(actions) is None
            assert state(vg) == before
    with pytest.raises(IllegalAction, match=f"environment {live[0]}"):
        vg.step(bad)
    with pytest.raises(ActionParseError):
        vg.step(array("d", [float(v) for v in ids]))
    with pytest.raises(ActionParseError, match="one id per environment"):
        vg.step(array("i", ids.tolist() + [0]))
    assert state(vg) == before
    vg.step(memoryview(wide)[::2])  # the Python path copies a strided buffer
    assert state(vg) != before


@pytest.mark.parametrize("typecode", ["b", "B", "h", "H", "i", "I", "l", "L", "q", "Q"])
def test_every_native_integer_format_steps_in_one_call(typecode: str) -> None:
    vg = VectorGame("hucklebuck", 4, 5, seed=8, hands=1)
    other = vg.copy()
    fast = fast_of(vg)
    for k in range(12):
        ids = vg.sample_legal(k)
        # an environment that has just ended takes any id (-1 here): 0 in an unsigned buffer
        given = array(typecode, [max(v, 0) if typecode.isupper() else v for v in ids])
        if fast is not None:
            assert fast.step(given) is True
        else:
            vg.step(given)
        other.step(ids)
        assert state(vg) == state(other)


def test_vec_calls_refuses_what_it_cannot_use() -> None:
    ext = compiled()
    if ext is None:
        assert (
            VectorGame("deerpark", 4, 2, hands=1).lane == "python"
            or fast_of(VectorGame("deerpark", 4, 2, hands=1)) is None
        )
        return
    zeros = array("i", bytes(8))
    good = [1, 2, 3, 4, 5, 100, 2, 6, 7, 8, zeros]
    with pytest.raises(TypeError):
        ext.vec_calls(*good[:10])  # type: ignore[call-arg]
    for at, value, error in [
        (0, 0, ValueError),  # a null address
        (3, "x", ValueError),
        (6, 0, ValueError),  # no environments
        (6, 1 << 25, ValueError),  # more than the lane takes
        (5, -1, OverflowError),
        (10, array("i", bytes(12)), ValueError),  # not one zero per environment
        (10, array("h", bytes(4)), ValueError),
        (10, b"\0" * 8, ValueError),
    ]:
        args = list(good)
        args[at] = value
        with pytest.raises(error):
            ext.vec_calls(*args)


def consistent(vg: VectorGame[Any]) -> bool:
    """Whether every environment's outputs are those of its own state (a copy taken in the middle
    of a step would mix two moments)."""
    mask = vg.legal_mask.tolist()
    cp = vg.current_player.tolist()
    for i in range(vg.num_envs):
        g = vg.game(i)
        if vg.terminated[i] or vg.truncated[i]:
            ok = not any(mask[i]) and cp[i] == -1
        else:
            ids = set(g.legal_action_ids())
            ok = {k for k, v in enumerate(mask[i]) if v} == ids and cp[i] == g.to_act
        if not ok:
            return False
    return True


def test_a_copy_while_another_thread_steps_is_one_moment() -> None:
    """sample_legal and step take no Python lock on the C lane: copy() must still take the states
    and every output between two calls of the other thread, never during one."""
    import threading
    import time

    vg = VectorGame("deerpark", 4, 48, seed=4, threads=2, hands=1)
    stop = threading.Event()

    def play() -> None:
        k = 0
        while not stop.is_set():
            vg.step(vg.sample_legal(k))
            k += 1
            time.sleep(0)  # (a chance for the copier: a lock is not fair, and this loop would starve it)

    worker = threading.Thread(target=play)
    worker.start()
    try:
        copies: list[VectorGame[Any]] = []
        seen: set[bytes] = set()
        deadline = time.monotonic() + 120  # (only a hang takes that long)
        while len(copies) < 30 or len(seen) < 2:  # until the other thread was seen to move, too
            assert time.monotonic() < deadline, "the stepping thread never moved"
            copies.append(vg.copy())
            seen.add(copies[-1].legal_mask.tobytes() + copies[-1].current_player.tobytes())
            time.sleep(0.002)  # (on the Python lane the other thread steps only when this one waits)
    finally:
        stop.set()
        worker.join()
    assert all(consistent(c) for c in copies)
    assert len({c.legal_mask.tobytes() + c.current_player.tobytes() for c in copies}) > 1  # they did move


def test_copy_batch_refuses_what_does_not_match() -> None:
    vg = VectorGame("hucklebuck", 5, 3, seed=1, hands=1)
    if vg.lane != "c":
        assert fast_of(vg) is None
        return
    from hucklebuck.vector._clane import _ffi, _lib

    a, b = vg._lane, vg.copy()._lane
    other = VectorGame("hucklebuck", 5, 4, seed=1, hands=1)._lane
    copy_batch = _lib.hb_vec_pool_copy_batch
    assert copy_batch(a.pool, a.envs, b.envs, a.env_bytes, a.io, other.io) == -41  # lengths differ
    assert copy_batch(a.pool, a.envs, b.envs, a.env_bytes, _ffi.NULL, b.io) != 0
    assert copy_batch(_ffi.NULL, a.envs, b.envs, a.env_bytes, a.io, b.io) != 0
    assert copy_batch(a.pool, a.envs, b.envs, a.env_bytes, a.io, b.io) == 0
