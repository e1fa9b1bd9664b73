"""Write the conformance cases (conformance/cases/<game>/<area>.json).

Run ``python conformance/tools/build_cases.py`` from the repository root.  The
JSON it writes is the suite; the scripts under ``cases/`` are how the cases
were authored, kept so they can be reviewed and extended:

* ``cases/common.py``: ``add`` (records one case), ``err`` and the generators
  of trick, legal-play and solver cases;
* ``cases/hucklebuck*.py``, ``cases/deerpark*.py``, ``cases/buckem*.py``: each
  game's cases, with the game's request helpers (``hb``, ``dp``, ``bk``) in the
  file named after the game; each file's docstring says which areas it holds;
* ``cases/coverage.py``: cases that close coverage gaps across the games.

Where the answers come from:

* ``deck``, ``trick_winner`` and ``legal_plays`` answers, and the discard and
  play lists at cut points, come from ``reference.py``, a small independent
  statement of the trick rules that shares no code with the library;
* every ``play`` scenario's scores, pots and winners were worked out by hand
  from the rules cited in the case.

``--out DIR`` writes the suite under ``DIR`` instead (a test uses it to check
that the committed JSON is exactly what these scripts write).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cases import (
    buckem,
    buckem_settle,
    coverage,
    deciding_cases,
    deerpark,
    deerpark_scoring,
    hucklebuck,
    hucklebuck_boundaries,
    hucklebuck_game_end,
    hucklebuck_hand,
    hucklebuck_scoring,
    observe_buckem,
    observe_dealer,
    observe_deerpark,
    observe_hucklebuck,
    protocol_cases,
    readings,
)
from cases.common import CASES, add, err

OUT = Path(__file__).resolve().parents[1] / "cases"

#: The builders in the order they run (the order of the cases in each file).
BUILDERS = [
    hucklebuck.build,
    hucklebuck_hand.build,
    hucklebuck_scoring.build,
    hucklebuck_boundaries.build,
    deerpark.build,
    deerpark_scoring.build,
    buckem.build,
    buckem_settle.build,
    deciding_cases.build,
    protocol_cases.build,
    hucklebuck_game_end.build,
]


def main(argv: list[str] | None = None) -> None:
    """Build every case and write one JSON file per game and area."""
    parser = argparse.ArgumentParser(description="Write the conformance case files.")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (default: conformance/cases)")
    out = parser.parse_args(argv).out
    for build in BUILDERS:
        build()
    coverage.build(add, err, hucklebuck.hb, buckem.bk, deerpark.dp)
    for observed in (observe_hucklebuck, observe_buckem, observe_deerpark, observe_dealer):
        observed.build()
    readings.build()
    for game, areas in CASES.items():
        folder = out / game
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.json"):
            old.unlink()
        for area, cases in areas.items():
            text = json.dumps({"cases": cases}, indent=1, ensure_ascii=False)
            (folder / f"{area}.json").write_text(text + "\n", encoding="utf-8")
        print(f"{game}: {sum(len(c) for c in areas.values())} cases")


if __name__ == "__main__":
    main()
