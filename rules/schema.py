"""Checking a decoded TOML document against frozen records, every problem at once.

Rulesets and tournament files are declared as frozen records (:class:`rules.record.Record`,
which type checkers read as dataclasses) whose fields carry
their bounds as ``Annotated`` metadata (:class:`Bounds`, :class:`Size`, :class:`Pattern`,
:class:`Before`). :func:`build` walks a document against such a class and returns the
object, or every problem found as ``(key path, reason)`` with paths written the way a
user writes them (``penalties.kinds.minor.length``, ``teams[3].name``).

Why not pydantic: importing it costs about 50 ms before a single model is declared, and
the table imports the rulesets on every start of a Raspberry Pi. The declarations are
plain classes: importing them costs nothing beyond the standard library.

A class may define ``_check(self) -> None`` raising ValueError for rules that relate its
fields; it runs only when every field is valid, and its problem is reported at the
object's own key path.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from datetime import datetime, time
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from rules.record import is_record, record_fields
from rules.schema_values import (
    ANY_SIZE,
    MAX_DURATION_S,
    MAX_INT,
    MAX_ITEMS,
    MAX_TEXT,
    Before,
    Bounds,
    Invalid,
    Pattern,
    Size,
    constrain,
    datetime_text,
    scalar,
    seconds_to_ms,
    shown,
    text,
    time_text,
)

__all__ = [
    "MAX_DURATION_S",
    "MAX_INT",
    "MAX_ITEMS",
    "MAX_TEXT",
    "Before",
    "Bounds",
    "Invalid",
    "Pattern",
    "Size",
    "as_data",
    "build",
    "datetime_text",
    "join",
    "seconds_to_ms",
    "shown",
    "time_text",
]

T = TypeVar("T")
Problem = tuple[str, str]

_NONE_TYPE = type(None)


def join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


Checker = Callable[[Any, str, list[Problem]], Any]
"""Checks one value (its key path, the list collecting problems found inside it); raises Invalid for itself."""

_RECORDS: dict[type, tuple[frozenset[str], list[tuple[str, Checker, bool, bool]]]] = {}
_CHECKERS: dict[Any, Checker] = {}


def build(cls: type[T], data: Any, path: str = "") -> tuple[T | None, list[Problem]]:
    """``data`` checked against the record class ``cls``: (the object, []) or (None, every problem)."""
    problems: list[Problem] = []
    value = _record(cls, data, path, problems)
    return (value if not problems else None), problems


def _fields(cls: type) -> tuple[frozenset[str], list[tuple[str, Checker, bool, bool]]]:
    """Per field: name, its checker, whether it is required, whether its checker needs the key path."""
    found = _RECORDS.get(cls)
    if found is None:
        hints = get_type_hints(cls, include_extras=True)
        fields = [
            (name, _checker(hints[name]), required, _structured(hints[name])) for name, required in record_fields(cls)
        ]
        found = _RECORDS[cls] = (frozenset(name for name, *_ in fields), fields)
    return found


def _record(cls: type[T], data: Any, path: str, problems: list[Problem]) -> T | None:
    if not isinstance(data, dict):
        problems.append((path, f"expected a table of keys, got {shown(data)}"))
        return None
    names, fields = _fields(cls)
    before = len(problems)
    for key in data:
        if key not in names:
            problems.append((join(path, str(key)), "unknown key"))
    values: dict[str, Any] = {}
    for name, check, required, structured in fields:
        if name not in data:
            if required:
                problems.append((join(path, name), "required key is missing"))
            continue
        try:
            values[name] = check(data[name], join(path, name) if structured else "", problems)
        except Invalid as err:
            problems.append((join(path, name), str(err)))
    if len(problems) > before:
        return None
    obj = cls(**values)
    check_all = getattr(obj, "_check", None)
    if check_all is not None:
        try:
            check_all()
        except ValueError as err:
            problems.append((path, str(err)))
            return None
    return obj


def _structured(tp: Any) -> bool:
    """Whether values of ``tp`` hold keys of their own, so their checker needs the key path."""
    origin = get_origin(tp)
    if origin is typing.Annotated or origin is Union or origin is types.UnionType:
        return any(_structured(a) for a in get_args(tp)[: 1 if origin is typing.Annotated else None])
    return origin in (list, dict, tuple) or is_record(tp)


def _checker(tp: Any) -> Checker:
    """The checker of type ``tp``, built once per type: a walk of 10,000 values re-reads no annotation."""
    check = _CHECKERS.get(tp)
    if check is None:
        check = _CHECKERS[tp] = _make_checker(tp)
    return check


def _make_checker(tp: Any) -> Checker:
    origin = get_origin(tp)
    if origin is typing.Annotated:
        inner, *meta = get_args(tp)
        return _annotated(_checker(inner), [m.convert for m in meta if isinstance(m, Before)],
                          [m for m in meta if not isinstance(m, Before)])
    if origin is Union or origin is types.UnionType:
        options = [a for a in get_args(tp) if a is not _NONE_TYPE]
        if len(options) != 1:
            raise TypeError(f"unsupported union {tp}")  # a declaration error
        inner_check = _checker(options[0])
        return lambda value, path, problems: None if value is None else inner_check(value, path, problems)
    if origin is Literal:
        return _literal(get_args(tp))
    if origin is list or (origin is tuple and get_args(tp)[1:] == (Ellipsis,)):  # tuple[X, ...]: a list, kept
        return _list(_checker(get_args(tp)[0]), _structured(get_args(tp)[0]), origin)
    if origin is tuple:
        return _tuple([_checker(t) for t in get_args(tp)])
    if origin is dict:
        return _dict(_checker(get_args(tp)[1]))
    if is_record(tp):
        record: Any = tp

        def check_record(value: Any, path: str, problems: list[Problem]) -> Any:
            if not isinstance(value, dict):
                raise Invalid(f"expected a table of keys, got {shown(value)}")
            return _record(record, value, path, problems)

        return check_record
    return lambda value, path, problems: scalar(tp, value)


def _annotated(inner: Checker, befores: list[Callable[[Any], Any]], meta: list[Any]) -> Checker:
    def check(value: Any, path: str, problems: list[Problem]) -> Any:
        for convert in befores:
            try:
                value = convert(value)
            except ValueError as err:
                raise Invalid(str(err)) from None
        before = len(problems)
        value = inner(value, path, problems)
        if len(problems) == before:  # a list with a wrong item is not also "too short"
            for m in meta:
                constrain(m, value)
        return value

    return check


def _literal(allowed: tuple[Any, ...]) -> Checker:
    def check(value: Any, path: str, problems: list[Problem]) -> Any:
        if isinstance(value, str) and value in allowed:
            return value
        raise Invalid(f"{shown(value)} is not one of the allowed values ({', '.join(repr(a) for a in allowed)})")

    return check


def _list(item: Checker, structured: bool, into: type = list) -> Checker:
    def check(value: Any, path: str, problems: list[Problem]) -> Any:
        if not isinstance(value, list) and not (into is tuple and isinstance(value, tuple)):
            raise Invalid(f"expected a list, got {shown(value)}")
        constrain(ANY_SIZE, value)
        out = []
        for i, x in enumerate(value):
            try:
                out.append(item(x, f"{path}[{i}]" if structured else "", problems))
            except Invalid as err:
                problems.append((f"{path}[{i}]", str(err)))
        return out if into is list else into(out)

    return check


def _tuple(items: list[Checker]) -> Checker:
    def check(value: Any, path: str, problems: list[Problem]) -> Any:
        if not isinstance(value, list | tuple) or len(value) != len(items):
            raise Invalid(f"expected a list of {len(items)} values, got {shown(value)}")
        return tuple(c(x, f"{path}[{i}]", problems) for i, (c, x) in enumerate(zip(items, value, strict=True)))

    return check


def _dict(item: Checker) -> Checker:
    def check(value: Any, path: str, problems: list[Problem]) -> Any:
        if not isinstance(value, dict):
            raise Invalid(f"expected a table, got {shown(value)}")
        constrain(ANY_SIZE, value)
        table = {}
        for key, x in value.items():
            text(key)
            try:
                table[key] = item(x, join(path, key), problems)
            except Invalid as err:
                problems.append((join(path, key), str(err)))
        return table

    return check


def as_data(obj: Any) -> Any:
    """A declared object back as plain data (dicts, lists, numbers, text): for digests and JSON."""
    if is_record(obj) and not isinstance(obj, type):
        return {name: as_data(getattr(obj, name)) for name, _ in record_fields(type(obj))}
    if isinstance(obj, list | tuple):
        return [as_data(x) for x in obj]
    if isinstance(obj, dict):
        return {k: as_data(v) for k, v in obj.items()}
    if isinstance(obj, datetime | time):
        return obj.isoformat()
    return obj
