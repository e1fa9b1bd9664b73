"""Shared handling of variant options: typed fields, JSON round trip, validation."""

from __future__ import annotations

import ast
import dataclasses
import enum
import inspect
import itertools
import textwrap
import typing
from collections.abc import Iterable, Mapping
from typing import Any, Final, TypeVar

from .._validate import shown
from ..errors import OptionsError, UnsupportedOption

__all__ = ["OptionInfo", "OptionsBase"]

T = TypeVar("T", bound="OptionsBase")


_FIELD_SPECS: dict[type, tuple[tuple[str, Any, Mapping[str, Any]], ...]] = {}
"""Per options class: (field name, type, metadata) of each field."""


class OptionsBase:
    """Mixin for a game's frozen options dataclass.

    Field types are ``bool``, ``int`` (with an optional set of offered values in
    the field metadata ``choices``), ``int | None``, or a string ``Enum``.
    Enum fields also accept their string value, which is converted.  Other
    values keep their JSON type (``"15"`` is not 15, as the protocol requires);
    text as a command line writes it goes through :meth:`from_assignments`,
    and a string where a bool or an integer is wanted is refused with a message
    saying so.
    """

    def _validate_fields(self) -> None:
        owner = type(self)
        specs = _FIELD_SPECS.get(owner)
        if specs is None:  # read the type hints once per class, not per instance
            hints = typing.get_type_hints(owner)
            fields = dataclasses.fields(self)  # type: ignore[arg-type]
            specs = _FIELD_SPECS[owner] = tuple((f.name, hints[f.name], f.metadata) for f in fields)
        for name, kind, meta in specs:
            value = getattr(self, name)
            converted = _check(owner, name, kind, value, meta)
            if converted is not value:
                object.__setattr__(self, name, converted)

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON-safe data (enum values as strings)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            out[f.name] = v.value if isinstance(v, enum.Enum) else v
        return out

    @classmethod
    def from_dict(cls: type[T], data: Mapping[str, Any]) -> T:
        """Build options from a mapping; missing names take their defaults.

        An unknown name raises :class:`~hucklebuck.errors.UnsupportedOption`.
        """
        if not isinstance(data, Mapping):
            raise OptionsError(f"options must be an object, not {type(data).__name__}")
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        for key in data:
            if not isinstance(key, str):
                raise OptionsError(f"option names must be strings, not {shown(key)} ({type(key).__name__})")
        unknown = sorted(set(data) - names)
        if unknown:
            raise UnsupportedOption(
                f"{_label(cls)} has no option {unknown[0]!r} (known: {', '.join(sorted(names))})"
            )
        return cls(**data)

    @classmethod
    def from_assignments(cls: type[T], items: Iterable[str]) -> T:
        """Build options from ``NAME=VALUE`` strings, as typed on a command line.

        Values are read by the option's type: ``true``/``false`` (also ``yes``/``no``,
        ``on``/``off``, ``1``/``0``), an integer, ``none`` where an option may be
        unset, or an enum value (any case, ``-`` for ``_``).  An unknown name or
        value raises :class:`~hucklebuck.errors.UnsupportedOption` (a badly formed
        item :class:`~hucklebuck.errors.OptionsError`) listing the valid ones.

        >>> from hucklebuck.games import HucklebuckOptions
        >>> HucklebuckOptions.from_assignments(["target=11", "auction_reentry=yes"]).target
        11
        """
        infos = {info.name: info for info in cls.describe()}
        label = _label(cls)
        data: dict[str, Any] = {}
        for item in items:
            if not isinstance(item, str) or "=" not in item:
                raise OptionsError(f"{item!r} is not an option assignment: write NAME=VALUE, e.g. target=11")
            name, _, text = item.partition("=")
            name, text = name.strip().replace("-", "_"), text.strip()
            info = infos.get(name)
            if info is None:
                known = ", ".join(infos)
                raise UnsupportedOption(f"{label} has no option {name!r}; its options are: {known}")
            if name in data:
                raise OptionsError(f"option {name} is given twice")
            data[name] = info.parse(text, label)
        return cls.from_dict(data)

    @classmethod
    def describe(cls) -> tuple[OptionInfo, ...]:
        """Every option of this class: name, default, accepted values and documentation.

        The documentation is the field's docstring, which names its source
        (S0, S2, S3, S4) or its decision number (``DEF #n``).
        """
        return _describe(cls)


def _check(owner: type, name: str, kind: Any, value: object, meta: Mapping[str, Any]) -> object:
    where = f"{_label(owner)} option {name}"
    # Values here are typed (JSON's types, as the protocol requires); text as a command line
    # writes it ("true", "15", "none") is read by from_assignments, which the message names.
    text = (
        f" (for text as typed on a command line use from_assignments([{f'{name}={value}'!r}]))"
        if isinstance(value, str)
        else ""
    )
    if kind is bool:
        if not isinstance(value, bool):
            raise OptionsError(f"{where} must be true or false (a bool), not {value!r}{text}")
        return value
    if kind is int or kind == (int | None):
        if value is None and kind is not int:
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            wanted = "an integer" if kind is int else "an integer or None"
            raise OptionsError(f"{where} must be {wanted}, not {value!r}{text}")
        lo = meta.get("min")
        if lo is not None and value < lo:
            raise OptionsError(f"{where} must be at least {lo}, not {value}")
        hi = meta.get("max")
        if hi is not None and value > hi:
            raise UnsupportedOption(f"{where} = {value} is not offered (at most {hi})")
        choices = meta.get("choices")
        if choices is not None and value not in choices:
            offered = " or ".join(str(c) for c in sorted(choices))
            raise UnsupportedOption(f"{where} = {value} is not offered (use {offered})")
        return value
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        if isinstance(value, kind):
            return value
        if not isinstance(value, str):
            raise OptionsError(f"{where} must be a string, not {value!r}")
        try:
            return kind(value)
        except ValueError:
            offered = ", ".join(repr(m.value) for m in kind)
            raise UnsupportedOption(f"{where} = {value!r} is not offered (use one of {offered})") from None
    raise TypeError(f"unsupported option type for {where}: {kind!r}")  # pragma: no cover


@dataclasses.dataclass(frozen=True)
class OptionInfo:
    """One variant option as a person sees it: see :meth:`OptionsBase.describe`."""

    name: str
    """The field name, used in ``NAME=VALUE``."""
    default: str
    """The default, written as it would be typed (``true``, ``15``, ``none``, ``dealer_scores_5``)."""
    values: str
    """The accepted values in words, e.g. ``11 | 15`` or ``an integer >= 1, or none``."""
    choices: tuple[str, ...]
    """The accepted values one by one when they are finitely many, else empty."""
    doc: str
    """The option's documentation, naming its source or ``DEF #n``."""
    value_docs: tuple[tuple[str, str], ...]
    """For an enum option, each value with its documentation."""
    kind: Any = dataclasses.field(repr=False, compare=False, default=None)
    """The field's type (``bool``, ``int``, ``int | None`` or an enum class)."""
    minimum: int | None = None
    """For an integer option, the smallest value accepted (``None``: no bound)."""
    maximum: int | None = None
    """For an integer option, the largest value accepted (``None``: no bound)."""

    def parse(self, text: str, owner: str = "options") -> object:
        """The value ``text`` means for this option (not yet range-checked).

        Raises :class:`~hucklebuck.errors.UnsupportedOption` naming the valid values.
        """
        key = text.strip().lower()
        kind = self.kind
        bad = UnsupportedOption(f"{owner} option {self.name} cannot be {text!r}; valid values: {self.values}")
        if kind is bool:
            if key in _TRUE:
                return True
            if key in _FALSE:
                return False
            raise bad
        if kind is int or kind == (int | None):
            if kind is not int and key in ("none", "null", ""):
                return None
            try:
                number = int(key, 10)
            except ValueError:
                raise bad from None
            if self.choices and str(number) not in self.choices:
                raise bad
            return number
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            wanted = key.replace("-", "_")
            for member in kind:
                if str(member.value).lower() == wanted:
                    return member
            raise bad
        raise bad  # pragma: no cover - every option type is handled above


_TRUE: Final = frozenset({"true", "yes", "on", "1"})
_FALSE: Final = frozenset({"false", "no", "off", "0"})


_TITLES: Final = {
    "HucklebuckOptions": "Hucklebuck",
    "BuckEmOptions": "Buck 'Em",
    "DeerParkOptions": "Deer Park Euchre",
}


def _label(cls: type) -> str:
    """The game's name as people write it (``Deer Park Euchre``), for messages."""
    name = cls.__name__
    return _TITLES.get(name) or name.removesuffix("Options") or name


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


def _attribute_docs(cls: type) -> dict[str, str]:
    """Docstrings written under class attributes (read from the source; empty if unavailable)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for stmt, after in itertools.pairwise(body):
        target = None
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            target = stmt.target.id
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
            target = stmt.targets[0].id
        if (
            target is not None
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[target] = " ".join(inspect.cleandoc(after.value.value).split())
    return docs


_DESCRIBED: dict[type, tuple[OptionInfo, ...]] = {}


def _describe(cls: type) -> tuple[OptionInfo, ...]:
    cached = _DESCRIBED.get(cls)
    if cached is not None:
        return cached
    hints = typing.get_type_hints(cls)
    docs = _attribute_docs(cls)
    out: list[OptionInfo] = []
    for f in dataclasses.fields(cls):
        kind = hints[f.name]
        default = f.default if f.default is not dataclasses.MISSING else None
        choices: tuple[str, ...] = ()
        value_docs: tuple[tuple[str, str], ...] = ()
        lo = hi = None
        if kind is bool:
            choices = ("true", "false")
            values = "true | false"
        elif kind is int or kind == (int | None):
            offered = f.metadata.get("choices")
            lo, hi = f.metadata.get("min"), f.metadata.get("max")
            if offered is not None:
                choices = tuple(str(c) for c in sorted(offered))
                values = " | ".join(choices)
            else:
                values = "an integer" + (f" >= {lo}" if lo is not None else "")
                values += f" and <= {hi}" if hi is not None else ""
            if kind is not int:
                values += ", or none"
                if choices:
                    choices += ("none",)
        elif isinstance(kind, type) and issubclass(kind, enum.Enum):
            member_docs = _attribute_docs(kind)
            choices = tuple(str(m.value) for m in kind)
            values = " | ".join(choices)
            value_docs = tuple((str(m.value), member_docs.get(m.name, "")) for m in kind)
        else:  # pragma: no cover - every option type is handled above
            values = repr(kind)
        doc = docs.get(f.name, "")
        out.append(OptionInfo(f.name, _show(default), values, choices, doc, value_docs, kind, lo, hi))
    return _DESCRIBED.setdefault(cls, tuple(out))
