"""The order the tests start in (a pytest plugin: ``pytest_plugins`` in ``conftest.py``): the longest
units of work first, so that a parallel run ends with short ones on every worker.

``pytest -n auto --dist loadscope`` (the README's test command) hands each worker a whole unit at a
time: a module, or a class of a module (``conftest.py`` keeps pytest-xdist from reordering them).  It
hands them out in the order the tests were collected.  A long unit handed out late runs on alone
while the other workers have nothing left to do, and the run takes as long as that unit's worker.
Handing out the longest first (the classic "longest processing time first" rule) leaves only short
units for the end, which the idle workers share.

:data:`SCOPE_SECONDS` holds how long each long unit took.  The order is all that depends on it: every
test runs, each unit on one worker as before.  A unit missing from the table (a new module, or one
too short to list) keeps its place in the collection order after the listed ones.  The figures only
need to be roughly right, relative to one another; a renamed or removed unit fails
``test_test_order.py``, so the table cannot quietly go stale.
"""

from __future__ import annotations

import pytest

# Seconds each unit of work took, summed over its tests (setup and teardown included), in a
# fresh-clone run of the README's test command, 4 workers on a 2-core machine with other work running
# (so about twice the quiet figures); every unit that took 6 s or more.  A class is its own unit.
# To measure again: ``pytest -n auto --dist loadscope --durations=0 -q`` and add up the lines of
# each unit (a new module that takes long belongs here too, or it starts after every listed one).
SCOPE_SECONDS: dict[str, float] = {
    "test_docs.py": 124,  # the docs built from scratch: one test waits for it, the others read the pages
    "test_browser_table.py": 79,
    "test_browser_newcomer.py": 59,
    "test_browser_table.py::TestDeerPark": 50,
    "test_tournament.py": 43,
    "test_docs_typing.py": 41,
    "test_players_redeal.py": 38,
    "test_cluster_failover.py": 37,
    "test_hucklebuck_random.py": 36,
    "test_conformance_leaks.py": 36,
    "test_browser_table.py::TestHucklebuck": 34,
    "test_browser_access.py": 33,
    "test_players_every_position.py": 29,
    "test_vector.py": 28,
    "test_cluster_haproxy.py": 28,
    "test_conformance_broken.py": 28,
    "test_browser_people.py": 26,
    "test_server_noninterference.py": 25,
    "test_game_api.py": 25,
    "test_differential.py": 25,
    "test_store_postgres.py": 24,
    "test_server_network.py": 31,
    "test_browser_table.py::TestBuckEm": 23,
    "test_parallel.py": 22,
    "test_vector_fast.py": 22,
    "test_server_view_text.py": 20,
    "test_conformance_runner.py": 19,
    "test_solver.py": 19,
    "test_cli_play.py": 18,
    "test_mutation_known.py": 17,
    "test_vector_threads.py": 17,
    "test_browser_secrets.py": 17,
    "test_vector_buckem.py": 16,
    "test_conformance.py": 16,
    "test_tensors.py": 16,
    "test_evaluate.py": 16,
    "test_lazy_deal.py": 15,
    "test_vector_ids_check.py": 15,
    "test_views_twins.py": 14,
    "test_browser_redraw.py": 14,
    "test_boards.py": 13,
    "test_inference.py": 13,
    "test_buckem.py": 12,
    "test_cli_play_terminal.py": 12,
    "test_tensor_views.py": 12,
    "test_server_undo.py": 11,
    "test_sigint.py": 11,
    "test_calls_differential.py": 11,
    "test_cli.py": 11,
    "test_learn_defaults.py": 10,
    "test_seer.py": 10,
    "test_server_leaks.py": 10,
    "test_openspiel.py": 10,
    "test_conformance_schemas.py": 10,
    "test_conformance_deciding.py": 10,
    "test_conformance_adapter.py": 9,
    "test_search_solver.py": 9,
    "test_api_newcomer.py": 9,
    "test_parallel_dask.py": 9,
    "test_cluster_split_brain.py": 8,
    "test_conformance_reports.py": 8,
    "test_players.py": 8,
    "test_server_protocol.py": 8,
    "test_server_process.py": 8,
    "test_hardening_props.py": 7,
    "test_words_narrator.py": 7,
    "test_vector_errors.py": 7,
    "test_vector_example.py": 7,
    "test_openspiel_ismcts.py": 7,
    "test_cluster_lobby.py": 7,
    "test_players_moon.py": 7,
    "test_cluster_strangers.py": 7,
    "test_server_learned.py": 6,
    "test_calls_evaluate.py": 6,
}


def unit_of(nodeid: str) -> str:
    """The unit of work ``--dist loadscope`` puts a test in (pytest-xdist's own rule: the node id
    without its last part): ``tests/test_x.py`` for a function, ``tests/test_x.py::TestY`` for a
    method of a class."""
    return nodeid.rsplit("::", 1)[0]


def seconds(unit: str) -> float:
    """How long ``unit`` took (:data:`SCOPE_SECONDS`; 0 for one not listed)."""
    return SCOPE_SECONDS.get(unit.rpartition("/")[2], 0.0)


def ordered(nodeids: list[str], by_unit: bool) -> list[int]:
    """The positions of ``nodeids`` in the order to run them: the longest units first (``by_unit``:
    each loadscope unit on its own), else the longest modules first with each module's tests kept
    together (a run in one process builds a module's fixtures once).  Ties, and the tests of one
    unit, keep their collected order."""
    units = [unit_of(n) if by_unit else n.split("::", 1)[0] for n in nodeids]
    weight: dict[str, float] = {}
    first: dict[str, int] = {}
    for i, unit in enumerate(units):
        first.setdefault(unit, i)
        weight[unit] = seconds(unit) if by_unit else 0.0
    if not by_unit:  # a module weighs as much as all its units
        seen: set[str] = set()
        for nodeid, unit in zip(nodeids, units, strict=True):
            u = unit_of(nodeid)
            if u not in seen:
                seen.add(u)
                weight[unit] += seconds(u)
    return sorted(range(len(nodeids)), key=lambda i: (-weight[units[i]], first[units[i]], i))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the longest units first (see the module's docstring).  Order only: every test runs."""
    by_unit = hasattr(config, "workerinput")  # (a worker of pytest -n: its options do not say how it is fed)
    order = ordered([item.nodeid for item in items], by_unit)
    items[:] = [items[i] for i in order]
