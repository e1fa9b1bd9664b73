"""Command line of the conformance suite (see the package docstring).

Exit status of ``run``: 0 when every selected case passed or was skipped, 1 when
any case failed or was not run, 2 when the run cannot be trusted (a bad command line, a
selection that matches no case, an unknown game, an unreadable case file, an
adapter that cannot be started or that does not answer ``hello`` with protocol
version 3).  Status 2 comes with one line on stderr, never a traceback.
``run --leaks N`` (the leak check) exits 0 when no leak is found, 1 with leaks,
2 as above.  ``lint`` exits 0 when clean, 1 with problems, 2 when it cannot read its input.
An interrupted run (Ctrl-C) exits 130.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from .adapter import serve
from .casefile import show
from .lint import coverage_lines, lint
from .runner import (
    InProcessAdapter,
    RunnerError,
    SubprocessAdapter,
    check_hello,
    load_cases,
    run_cases,
    suite_info,
)
from .schemas import schema_paths
from .spec import GAMES


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m hucklebuck.conformance",
        description="The conformance suite: run it, serve it, lint it, find its JSON Schemas.",
        epilog="run exits 0 (all passed or skipped), 1 (a case failed or was not run) "
        "or 2 (the run could not be trusted).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    ad = sub.add_parser("adapter", help="serve the protocol on stdin/stdout")
    ad.add_argument("--backend", choices=["c", "python"], help="core to use (default: the active one)")
    rn = sub.add_parser("run", help="run case files against an adapter")
    rn.add_argument("paths", nargs="*", help="case files or folders (default: the bundled suite)")
    rn.add_argument(
        "--adapter", help="adapter command, e.g. 'node my-adapter.js' (default: our core, in-process)"
    )
    rn.add_argument(
        "--backend",
        choices=["c", "python"],
        help="in-process core, without --adapter (default: the active core)",
    )
    rn.add_argument(
        "--game",
        action="append",
        help="only this game's cases and the protocol's own (repeatable; default: all)",
    )
    rn.add_argument(
        "--id-prefix", action="append", help="only case ids with this prefix (repeatable; default: all)"
    )
    rn.add_argument(
        "--skip-option",
        action="append",
        default=[],
        help="skip cases that set this option (repeatable; default: none)",
    )
    rn.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        help="seconds to wait for each answer of an --adapter (default: %(default)g)",
    )
    rn.add_argument(
        "--quiet", action="store_true", help="print only failures and the summary (default: every line)"
    )
    rn.add_argument(
        "--check-schema",
        action="store_true",
        help="also check every answer against the answer schema (default: off; needs pip install jsonschema)",
    )
    rn.add_argument("--junit-xml", metavar="FILE", help="also write a JUnit XML report (default: none)")
    rn.add_argument("--json", metavar="FILE", help="also write a JSON report ('-': to stdout; default: none)")
    rn.add_argument(
        "--leaks", type=int, metavar="N", help="run the leak check: N random games per game (default: none)"
    )
    rn.add_argument("--seed", type=int, default=0, help="the leak check's random seed (default 0)")
    rn.add_argument(
        "--accept-partial",
        action="store_true",
        help="the leak check passes even when the adapter refuses many games as unsupported (default: fails)",
    )
    li = sub.add_parser("lint", help="check the case files and show what they cover")
    li.add_argument("paths", nargs="*")
    li.add_argument("--quiet", action="store_true", help="print only problems")
    sc = sub.add_parser("schemas", help="print the paths of the bundled JSON Schemas")
    sc.add_argument("name", nargs="?", help="print only this schema's path (request, answer, case-file)")
    return parser


def _check_backend(name: str) -> None:
    from .. import available, backend_info

    if name not in available():
        raise RunnerError(f"the {name} core is not available here: {backend_info().reason}")


def _run(args: argparse.Namespace, out: TextIO) -> int:
    unknown = sorted(set(args.game or ()) - set(GAMES))
    if unknown:
        raise RunnerError(f"unknown game {show(unknown[0])} (the games are {', '.join(GAMES)})")
    if args.timeout <= 0:
        raise RunnerError(f"--timeout must be positive, not {args.timeout:g}")
    if args.backend and not args.adapter:
        _check_backend(args.backend)
    if args.leaks is not None:
        from .leaks import run_from_args

        return run_from_args(args, out)
    cases = load_cases(args.paths)
    if args.game:
        cases = [c for c in cases if c.group in args.game or c.group not in GAMES]
    if args.id_prefix:
        cases = [c for c in cases if any(c.id.startswith(p) for p in args.id_prefix)]
    skip = set(args.skip_option)
    cases = [c for c in cases if not (c.option_names & skip)]
    if not cases:
        chosen = [f"--game {g}" for g in args.game or ()] + [f"--id-prefix {p}" for p in args.id_prefix or ()]
        chosen += [f"--skip-option {s}" for s in args.skip_option]
        raise RunnerError(f"no case matches the selection ({' '.join(chosen) or 'no filters'})")
    info = suite_info()
    adapter = (
        SubprocessAdapter(args.adapter, args.timeout) if args.adapter else InProcessAdapter(args.backend)
    )
    try:
        hello = check_hello(adapter, info["protocol"])
        if isinstance(adapter, InProcessAdapter):
            target = f"our {adapter.core} core, in-process"
        else:
            core = f", {hello['core']} core" if isinstance(hello.get("core"), str) else ""
            named = f"{hello.get('name')} {hello.get('version')}{core}"
            target = f"the adapter {show(args.adapter)} ({named})"
        if not args.quiet:
            head = f"conformance suite {info['suite']} (protocol {info['protocol']})"
            print(f"{head}: {len(cases)} cases against {target}", file=out)
        report = run_cases(
            cases,
            adapter,
            protocol=info["protocol"],
            log=lambda s: print(s, file=out),
            check_schema=args.check_schema,
            hello=hello,
        )
    finally:
        adapter.close()
    report.suite = str(info["suite"])
    report.target = target
    print(report.summary(), file=out)
    if args.junit_xml:
        report.write_junit(args.junit_xml)
    if args.json == "-":
        json.dump(report.to_dict(), sys.stdout, indent=1, allow_nan=False)
        sys.stdout.write("\n")
    elif args.json:
        report.write_json(args.json)
    return 1 if report.failed or report.not_run else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m hucklebuck.conformance``."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "adapter":
            if args.backend:
                from .._core import set_backend

                _check_backend(args.backend)
                set_backend(args.backend)
            return serve()
        if args.command == "schemas":
            paths = schema_paths()
            if args.name:
                if args.name not in paths:
                    raise RunnerError(f"no schema {show(args.name)} (the schemas are {', '.join(paths)})")
                print(paths[args.name])
            else:
                for name, path in paths.items():
                    print(f"{name}\t{path}")
            return 0
        if args.command == "lint":
            problems = lint(args.paths)
            for p in problems:
                print(p)
            if not args.quiet:
                for line in coverage_lines(args.paths):
                    print(line)
            print(f"{len(problems)} problem(s)")
            return 1 if problems else 0
        return _run(args, sys.stderr if args.json == "-" else sys.stdout)
    except RunnerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly, as other tools do
        _quiet_stdout()
        return 0
    except OSError as exc:  # a report file that cannot be written, say
        print(f"error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2


def _quiet_stdout() -> None:
    """Point standard output at the null device, so the final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file behind sys.stdout: nothing is left to flush there
        pass


if __name__ == "__main__":
    sys.exit(main())
