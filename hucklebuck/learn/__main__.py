"""``python -m hucklebuck.learn``: train a policy on the batched lane, or evaluate a checkpoint."""

from __future__ import annotations

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
