"""API reference helpers.

Napoleon reads the first line of an attribute or property docstring written as
``X: more text`` as "type X, description more text", so ``"Hucklebuck: bidding
for trump"`` rendered as a bogus **Type: Hucklebuck** field.  This package's
types come from annotations, never from docstrings, so after Napoleon has run
we put such a split line back together.  The docs test checks that no page
shows a misread type.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

_ATTRIBUTE_KINDS = {"attribute", "data", "property"}


def rejoin_inline_type(app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]) -> None:
    """Undo Napoleon's inline-attribute split (``:type: X`` appended, ``X:`` cut off line one)."""
    if what not in _ATTRIBUTE_KINDS:
        return
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].startswith(":type: "):
            kind = lines[i][len(":type: ") :]
            del lines[i]
            while lines and not lines[-1].strip():
                lines.pop()
            first = next((j for j, text in enumerate(lines) if text.strip()), None)
            if first is None:
                lines.append(kind)
            else:
                lines[first] = f"{kind}: {lines[first]}"
            return


def setup(app: Sphinx) -> dict[str, Any]:
    # Napoleon listens at the default priority 500; run after it.
    app.connect("autodoc-process-docstring", rejoin_inline_type, priority=600)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
