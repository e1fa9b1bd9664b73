"""``python -m hucklebuck.bench``: see :mod:`hucklebuck.bench`."""

from . import main

raise SystemExit(main())
