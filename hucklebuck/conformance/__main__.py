"""Command line of the conformance suite (see the package docstring)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .adapter import serve
from .lint import lint
from .runner import InProcessAdapter, SubprocessAdapter, load_cases, run_cases, suite_info


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m hucklebuck.conformance``."""
    parser = argparse.ArgumentParser(prog="python -m hucklebuck.conformance")
    sub = parser.add_subparsers(dest="command", required=True)
    ad = sub.add_parser("adapter", help="serve the protocol on stdin/stdout")
    ad.add_argument("--backend", choices=["c", "python"], help="core to use (default: the active one)")
    rn = sub.add_parser("run", help="run case files against an adapter")
    rn.add_argument("paths", nargs="*", help="case files or folders (default: the bundled suite)")
    rn.add_argument("--adapter", help="adapter command, e.g. 'node my-adapter.js' (default: in-process)")
    rn.add_argument("--backend", choices=["c", "python"], help="in-process core (without --adapter)")
    rn.add_argument("--game", action="append", help="only this game (repeatable)")
    rn.add_argument("--id-prefix", action="append", help="only case ids with this prefix (repeatable)")
    rn.add_argument(
        "--skip-option", action="append", default=[], help="skip cases that set this option (repeatable)"
    )
    rn.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for each answer")
    rn.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    li = sub.add_parser("lint", help="check the case files")
    li.add_argument("paths", nargs="*")
    args = parser.parse_args(argv)

    if args.command == "adapter":
        if args.backend:
            from .._core import set_backend

            set_backend(args.backend)
        return serve()
    if args.command == "lint":
        problems = lint(args.paths)
        for p in problems:
            print(p)
        print(f"{len(problems)} problem(s)")
        return 1 if problems else 0

    cases = load_cases(args.paths)
    if args.game:
        cases = [c for c in cases if c.game in args.game or c.id.split("/")[0] in args.game]
    if args.id_prefix:
        cases = [c for c in cases if any(c.id.startswith(p) for p in args.id_prefix)]
    skip = set(args.skip_option)
    cases = [c for c in cases if not (c.option_names & skip)]
    info = suite_info()
    adapter = (
        SubprocessAdapter(args.adapter, args.timeout) if args.adapter else InProcessAdapter(args.backend)
    )
    target = args.adapter or f"in-process core {args.backend or 'active'}"
    if not args.quiet:
        head = f"conformance suite {info['suite']} (protocol {info['protocol']})"
        print(f"{head}: {len(cases)} cases against {target}")
    try:
        report = run_cases(cases, adapter, protocol=info["protocol"], log=print)
    finally:
        adapter.close()
    print(report.summary())
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
