"""A real Dask cluster (two worker processes on loopback) gives the same results as
an inline run for the same seed and chunk size."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from typing import Any

import pytest

from hucklebuck import Suit, parse_cards
from hucklebuck.evaluate import evaluate_hand, simulate_buckem, simulate_hucklebuck
from hucklebuck.tournament import run_tournament

# Imported by the fixture: Dask's import cost every worker that collects this module half a second.
if importlib.util.find_spec("distributed") is None:
    pytest.skip("the Dask extra is not installed (pip install 'hucklebuck[dask]')", allow_module_level=True)


# One core: the process-pool tests in test_parallel.py already carry both cores across processes.
pytestmark = pytest.mark.single_core


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    import distributed

    cluster = distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=40,
    )
    try:
        with distributed.Client(cluster) as c:
            yield c
    finally:
        cluster.close()


def test_simulations_on_a_dask_cluster_equal_inline(client: Any, core_name: str) -> None:
    executor = client.get_executor()
    inline = simulate_hucklebuck(4, 6_000, seed=17, chunk_size=1_000)
    seen: list[int] = []
    on_cluster = simulate_hucklebuck(
        4, 6_000, seed=17, chunk_size=1_000, executor=executor, progress=lambda d, t: seen.append(d)
    )
    assert on_cluster == inline
    assert sorted(seen) == seen and seen[-1] == 6_000 and len(seen) == 6
    assert simulate_buckem(
        5, 3_000, seed=2, chunk_size=700, pot_limit=32, executor=executor
    ) == simulate_buckem(5, 3_000, seed=2, chunk_size=700, pot_limit=32)
    hand = parse_cards("AS KS 9S 2H 3D")
    kw: dict[str, Any] = {"players": 4, "samples": 2_000, "seed": 5, "chunk_size": 500}
    assert evaluate_hand("hucklebuck", Suit.SPADES, hand, executor=executor, **kw) == evaluate_hand(
        "hucklebuck", Suit.SPADES, hand, **kw
    )
    # the tournament (duplicate deals in seeded chunks) through the same executor
    kw = {"players": 4, "bots": ("heuristic", "random"), "games": 48, "seed": 3, "progress": False}
    assert run_tournament("deerpark", executor=executor, **kw) == run_tournament("deerpark", **kw)
    # the work really ran on the cluster's worker processes
    assert len(client.scheduler_info()["workers"]) == 2
