"""Frozen records read back from JSON-like data, checked against their type hints.

The match state goes out as ``dataclasses.asdict`` (the table publishes it, ``courtside
replay --format json`` prints it) and a screen reads it back: :func:`from_data` builds
the record (:class:`rules.record.Record`) again and names the first key whose value does not fit.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from rules.errors import StateDataError
from rules.record import is_record, record_fields

T = TypeVar("T")

_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _convert(hint: Any, value: object, where: str) -> object:
    origin = get_origin(hint)
    if hint is type(None):
        if value is not None:
            raise StateDataError(where, f"null expected, not {value!r}")
        return None
    if origin in (Union, types.UnionType):
        problems = []
        for option in get_args(hint):
            try:
                return _convert(option, value, where)
            except StateDataError as err:
                problems.append(err.message)
        raise StateDataError(where, f"{value!r} fits none of: {'; '.join(problems)}")
    if origin is Literal:
        if isinstance(value, bool) or value not in get_args(hint):
            raise StateDataError(where, f"{value!r} is not one of {list(get_args(hint))}")
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise StateDataError(where, "a list expected")
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
        if len(args) != len(value):
            raise StateDataError(where, f"{len(args)} items expected")
        return tuple(_convert(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, value, strict=True)))
    if isinstance(hint, type) and is_record(hint):
        return from_data(hint, value, where)
    if hint in (int, str, bool):
        # bool is an int in Python: keep them apart, as the JSON does.
        if type(value) is not hint:
            raise StateDataError(where, f"{hint.__name__} expected, not {type(value).__name__} {value!r}")
        return value
    raise StateDataError(where, f"cannot read a value of type {hint!r}")


def from_data(cls: type[T], data: object, where: str) -> T:
    """``cls`` built from ``data`` (a dict as ``dataclasses.asdict`` gives it); StateDataError names a bad key."""
    if not isinstance(data, dict):
        raise StateDataError(where, "an object expected")
    hints = _hints(cls)
    names = [name for name, _ in record_fields(cls)]
    for key in data:
        if key not in names:
            raise StateDataError(f"{where}.{key}", "unknown key")
    values: dict[str, object] = {}
    for name in names:
        if name not in data:
            raise StateDataError(f"{where}.{name}", "required key is missing")
        values[name] = _convert(hints[name], data[name], f"{where}.{name}")
    return cls(**values)
