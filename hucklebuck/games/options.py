"""Shared handling of variant options: typed fields, JSON round trip, validation."""

from __future__ import annotations

import dataclasses
import enum
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from ..errors import OptionsError, UnsupportedOption

__all__ = ["OptionsBase"]

T = TypeVar("T", bound="OptionsBase")


class OptionsBase:
    """Mixin for a game's frozen options dataclass.

    Field types are ``bool``, ``int`` (with an optional set of offered values in
    the field metadata ``choices``), ``int | None``, or a string ``Enum``.
    Enum fields also accept their string value, which is converted.
    """

    def _validate_fields(self) -> None:
        hints = typing.get_type_hints(type(self))
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            kind = hints[f.name]
            converted = _check(type(self).__name__, f.name, kind, value, f.metadata)
            if converted is not value:
                object.__setattr__(self, f.name, converted)

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
        unknown = sorted(set(data) - names)
        if unknown:
            raise UnsupportedOption(
                f"{cls.__name__} has no option {unknown[0]!r} (known: {', '.join(sorted(names))})"
            )
        return cls(**data)


def _check(owner: str, name: str, kind: Any, value: object, meta: Mapping[str, Any]) -> object:
    where = f"{owner}.{name}"
    if kind is bool:
        if not isinstance(value, bool):
            raise OptionsError(f"{where} must be true or false, not {value!r}")
        return value
    if kind is int or kind == (int | None):
        if value is None and kind is not int:
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionsError(f"{where} must be an integer, not {value!r}")
        lo = meta.get("min")
        if lo is not None and value < lo:
            raise OptionsError(f"{where} must be at least {lo}, not {value}")
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
