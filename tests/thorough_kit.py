"""How many random examples the randomized tests try.

The README's test command is run often, so by default each randomized test
tries a quarter of its examples (hypothesis examples, random games, seeds):
every test still runs, and each still fails on the faults it was written for
in most runs.  CI sets ``HUCKLEBUCK_TEST_THOROUGH=1`` and tries all of them,
as many as before the share existed, so CI is exactly as thorough as ever.
"""

from __future__ import annotations

import math
import os

THOROUGH = os.environ.get("HUCKLEBUCK_TEST_THOROUGH") == "1"
"""True in CI: every example of every randomized test."""

SHARE = 1.0 if THOROUGH else 0.25
"""The share of each randomized test's examples tried in this run."""


def examples(n: int, least: int = 2) -> int:
    """``n`` examples in a thorough run, else :data:`SHARE` of them (at least ``least``)."""
    return n if THOROUGH else max(least, math.ceil(n * SHARE))
