"""The learner's command line: ``train`` and ``evaluate`` (``python -m hucklebuck.learn --help``)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from ..errors import HucklebuckError

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The ``train`` and ``evaluate`` subcommands and their options."""
    parser = argparse.ArgumentParser(
        prog="python -m hucklebuck.learn",
        description="Train a policy network on the batched lane (NumPy only), or evaluate a checkpoint.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help="train by PPO on whole games; checkpoints at the CPU times asked for")
    tr.add_argument("--game", default="deerpark", choices=("deerpark", "hucklebuck"))
    tr.add_argument("--players", type=int, default=4)
    tr.add_argument("--envs", type=int, default=256, help="self-play tables (default 256)")
    tr.add_argument("--steps", type=int, default=32, help="steps of every table between updates (32)")
    tr.add_argument("--opponent", default="self", help="also train against this player kind (e.g. heuristic)")
    tr.add_argument("--opponent-envs", type=int, default=128, help="tables against --opponent (128)")
    tr.add_argument("--cpu-minutes", type=float, default=10.0, help="training budget in CPU minutes (10)")
    tr.add_argument(
        "--checkpoints",
        default="1,2.5,5,10",
        help="CPU minutes at which to write a checkpoint, comma-separated (1,2.5,5,10)",
    )
    tr.add_argument("--updates", type=int, help="stop after this many updates (default: the budget only)")
    tr.add_argument("--lr", type=float, default=3e-4)
    tr.add_argument("--seed", type=int, default=1)
    tr.add_argument("--out", default="learn-run", help="folder for checkpoints (learn-run)")
    tr.add_argument("--resume", help="start from this checkpoint's weights")
    ev = sub.add_parser("evaluate", help="seat a checkpoint in a duplicate tournament against a player kind")
    ev.add_argument("checkpoint")
    ev.add_argument("--against", default="random,heuristic", help="player kinds, comma-separated")
    ev.add_argument("--games", type=int, default=2000)
    ev.add_argument("--seed", type=int, default=7)
    ev.add_argument("--json", help="append the results as one JSON line to this file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; 0 on success."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small products: BLAS threads only take cores
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except HucklebuckError as exc:  # a bad checkpoint, player kind or count: said in one line
        parser.error(str(exc))


def _run(args: argparse.Namespace) -> int:
    if args.command == "train":
        from ._train import TrainConfig, train

        cfg = TrainConfig(
            game=args.game,
            players=args.players,
            envs=args.envs,
            steps=args.steps,
            opponent=args.opponent,
            opponent_envs=args.opponent_envs,
            cpu_budget=60.0 * args.cpu_minutes,
            checkpoints=tuple(60.0 * float(x) for x in args.checkpoints.split(",") if x.strip()),
            updates=args.updates,
            lr=args.lr,
            seed=args.seed,
            out=args.out,
            resume=args.resume,
        )
        train(cfg)
        return 0
    from ._evaluate import evaluate_checkpoint

    evaluate_checkpoint(
        args.checkpoint,
        against=[k for k in args.against.split(",") if k],
        games=args.games,
        seed=args.seed,
        json_path=args.json,
    )
    return 0
