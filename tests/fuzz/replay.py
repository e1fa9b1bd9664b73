"""Run a harness over saved inputs, without atheris: ``python replay.py HARNESS DIR_OR_FILE...``.

Used by ``.ci/run`` to pass every input the coverage-guided run kept through
the C core built with ASan/UBSan, by the pytest replay of the seed corpus, and
to reproduce a crash file.  Exits 1 naming the first input that fails.
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
HARNESSES = ("adapter", "play", "from_json", "actions", "evaluate")


def inputs(paths: list[str]) -> list[Path]:
    """The files named, and the files in the directories named, in a stable order."""
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(f for f in p.iterdir() if f.is_file()) if p.is_dir() else [p])
    return out


def main(argv: list[str]) -> int:
    """Replay; print a summary line."""
    if not argv or argv[0] not in HARNESSES:
        print(f"usage: replay.py {{{','.join(HARNESSES)}}} DIR_OR_FILE...", file=sys.stderr)
        return 2
    sys.path.insert(0, str(HERE))
    harness = importlib.import_module(f"fuzz_{argv[0]}")
    files = inputs(argv[1:] or [str(HERE / "corpus" / argv[0])])
    t0 = time.perf_counter()
    for f in files:
        try:
            harness.TestOneInput(f.read_bytes())
        except Exception:
            traceback.print_exc()
            print(f"FAILED on {f}", file=sys.stderr)
            return 1
    print(f"{argv[0]}: {len(files)} inputs passed in {time.perf_counter() - t0:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
