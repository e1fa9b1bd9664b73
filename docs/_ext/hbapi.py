"""API reference helpers.

Napoleon reads the first line of an attribute or property docstring written as
``X: more text`` as "type X, description more text", so ``"Hucklebuck: bidding
for trump"`` rendered as a bogus **Type: Hucklebuck** field.  This package's
types come from annotations, never from docstrings, so after Napoleon has run
we put such a split line back together.  The docs test checks that no page
shows a misread type.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

_ATTRIBUTE_KINDS = {"attribute", "data", "property"}


def drop_type_docstring(
    app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]
) -> None:
    """A constant without a docstring of its own must not show its type's (``dict``'s) docstring."""
    if what not in _ATTRIBUTE_KINDS:
        return
    own = type(obj).__doc__  # (not text for a slot: a class's __doc__ there is a descriptor)
    if isinstance(own, str) and own and lines and " ".join(" ".join(lines).split()) == " ".join(own.split()):
        lines.clear()


def rejoin_inline_type(
    app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]
) -> None:
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


# ------------------------------------------------------------ api-module
# Which names each API page documents is computed, not listed by hand: every
# public module's ``__all__`` is read, and each object is documented once, under
# its *home*, the shortest public import path that exports it (the top-level
# package counts only for names nothing else exports).  A game class is
# documented with its inherited members.

UNDOCUMENTED_SUBPACKAGES = ("hucklebuck.bench.", "hucklebuck.cli.")
"""Submodules whose names are implementation details of a command (their packages are documented)."""


def public_modules() -> list[str]:
    """Every public module of the package that the API reference covers."""
    import pkgutil

    import hucklebuck

    names = ["hucklebuck"]
    for info in pkgutil.walk_packages(hucklebuck.__path__, "hucklebuck."):
        parts = info.name.split(".")
        if any(p.startswith("_") for p in parts[1:]) or info.name.startswith(UNDOCUMENTED_SUBPACKAGES):
            continue
        names.append(info.name)
    return sorted(names)


_MOCKED: list[str] = []
"""Optional packages that are not installed (``autodoc_mock_imports``): modules needing them are
imported against stand-ins, so the reference builds with the ``docs`` extra alone."""


def _import(modname: str) -> Any:
    import importlib

    from sphinx.ext.autodoc.mock import mock

    with mock(_MOCKED):
        return importlib.import_module(modname)


def _exports(modname: str) -> list[tuple[str, object]]:
    mod = _import(modname)
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in vars(mod) if not n.startswith("_")]
    return [(n, getattr(mod, n)) for n in names if not n.startswith("__")]


@functools.cache
def homes() -> dict[tuple[str, str], str]:
    """(module, name) -> the module that documents that object."""
    by_obj: dict[tuple[int, str], list[tuple[str, str]]] = {}
    for modname in public_modules():
        for name, obj in _exports(modname):
            # one object re-exported keeps its name; keying on the name too keeps
            # unrelated constants that share a cached int or string apart
            by_obj.setdefault((id(obj), name), []).append((modname, name))
    out: dict[tuple[str, str], str] = {}
    for places in by_obj.values():
        candidates = [p for p in places if p[0] != "hucklebuck"] or places
        home = min(candidates, key=lambda p: (p[0].count("."), p[0]))
        for p in places:
            out[p] = home[0]
    return out


def _kind(obj: object) -> str:
    import inspect

    if inspect.isclass(obj):
        return "class"
    if inspect.isfunction(obj) or inspect.isbuiltin(obj):
        return "function"
    return "data"


def _defined_in(obj: object, name: str, modname: str) -> bool:
    """Whether ``obj`` comes from ``modname`` (classes and functions say so; constants
    and type aliases are looked up by name)."""
    import inspect

    if inspect.isclass(obj) or inspect.isfunction(obj):
        return getattr(obj, "__module__", None) == modname
    return getattr(_import(modname), name, None) is obj


class ApiModule(SphinxDirective):
    """``.. api-module:: MOD`` — MOD's docstring, then every name whose home is MOD.

    ``:from: SUBMOD`` keeps only objects defined in SUBMOD; ``:no-docstring:``
    leaves out the module docstring (when a page shows one package in parts).
    """

    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {"from": directives.unchanged, "no-docstring": directives.flag}

    def run(self) -> list[nodes.Node]:
        import inspect

        modname = self.arguments[0]
        only_from = self.options.get("from")
        home_of = homes()
        lines = [f".. automodule:: {modname}"]
        if "no-docstring" in self.options:
            lines = [f".. currentmodule:: {modname}"]
        else:
            lines.append("   :no-members:")
        lines.append("")
        from hucklebuck.games.engine import TrickGame
        from hucklebuck.games.options import OptionsBase

        def rank(item: tuple[str, object]) -> int:  # the game first, then its options
            obj = item[1]
            if inspect.isclass(obj) and issubclass(obj, TrickGame):
                return 0
            return 1 if inspect.isclass(obj) and issubclass(obj, OptionsBase) else 2

        for name, obj in sorted(_exports(modname), key=rank):
            if home_of.get((modname, name)) != modname:
                continue
            if only_from and not _defined_in(obj, name, only_from):
                continue
            kind = _kind(obj)
            lines.append(f".. auto{kind}:: {modname}.{name}")
            if kind == "class":
                lines.append("   :members:")
                if any(base is not object for base in getattr(obj, "__bases__", ())):
                    lines.append("   :show-inheritance:")
                if inspect.isclass(obj) and issubclass(obj, TrickGame):  # the engine too: AgentAPI
                    lines.append("   :inherited-members:")
                    lines.append("   :exclude-members: kind")
            lines.append("")
        return self.parse_text_to_nodes("\n".join(lines))


def setup(app: Sphinx) -> dict[str, Any]:
    # Napoleon listens at the default priority 500; run after it.
    app.connect("config-inited", lambda app, config: _MOCKED.extend(config.autodoc_mock_imports))
    app.connect("autodoc-process-docstring", rejoin_inline_type, priority=600)
    app.connect("autodoc-process-docstring", drop_type_docstring, priority=400)
    app.add_directive("api-module", ApiModule)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
