"""Evaluating a checkpoint: the library's duplicate tournament, the network in half the seats."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from typing import Any

from ..tournament import TournamentResult, run_tournament
from ._net import Network
from .player import LearnedPlayer, load_network

__all__ = ["evaluate_checkpoint", "evaluate_network"]


def evaluate_network(net: Network, against: str, games: int = 2000, seed: int = 7) -> TournamentResult:
    """Whole games, the network's seats against ``against``'s, every rotation of the seats."""
    return run_tournament(
        net.kind,
        players=net.players,
        bots=("learned", against),
        games=games,
        seed=seed,
        custom={"learned": lambda _seed: LearnedPlayer(net)},
        progress=False,
    )


def evaluate_checkpoint(
    path: str, against: Sequence[str], games: int = 2000, seed: int = 7, json_path: str | None = None
) -> dict[str, Any]:
    """Evaluate the checkpoint at ``path`` against each kind; prints each table, returns the shares."""
    net = load_network(path)
    record: dict[str, Any] = {"checkpoint": os.path.basename(path), "training": net.meta.get("training", {})}
    for kind in against:
        start = time.process_time()
        result = evaluate_network(net, kind, games, seed)
        row = next(r for r in result.results if r.kind == "learned")
        record[kind] = {
            "share": row.value,
            "low": row.low,
            "high": row.high,
            "games": result.games,
            "cpu_seconds": round(time.process_time() - start, 1),
        }
        print(f"{os.path.basename(path)} against {kind}:")
        print(result.table(), flush=True)
    if json_path:
        with open(json_path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record) + "\n")
    return record
