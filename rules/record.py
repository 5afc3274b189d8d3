"""Frozen records declared by annotations, without the cost of ``@dataclass`` at import.

A ``@dataclass`` writes its ``__init__``, ``__eq__``, ``__repr__`` and ``__setattr__`` as
source text and compiles each one when the class is defined: about a millisecond a class
on this machine, paid at every start of the table for each part of a ruleset. A
:class:`Record` subclass gets the same behaviour from four shared methods that read the
class's field list, built once from its annotations: keyword-only construction, fields
that cannot be reassigned, equality and a readable repr. Type checkers see it as a frozen,
keyword-only dataclass (PEP 681).

    class Overtime(Record):
        kind: Literal["golden_goal", "full"]
        periods: int
        interval_before: int = 0          # a default
        names: list[str] = field(default_factory=list)  # a fresh list for each record
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, dataclass_transform

T = TypeVar("T")
R = TypeVar("R", bound="Record")


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], T]) -> T:
    """A default made afresh for each record (a list, a table), as ``dataclasses.field`` does."""
    return _Factory(default_factory)  # type: ignore[return-value]


_MISSING = object()


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
class Record:
    """Base of the frozen records of rulesets and tournament files."""

    __record_fields__: ClassVar[tuple[str, ...]] = ()
    __record_defaults__: ClassVar[dict[str, Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names: list[str] = []
        defaults: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            for name, hint in vars(klass).get("__annotations__", {}).items():
                if name.startswith("__") or str(hint).startswith(("ClassVar", "typing.ClassVar")):
                    continue
                if name not in names:
                    names.append(name)
                default = vars(klass).get(name, _MISSING)
                if default is not _MISSING:
                    defaults[name] = default  # stays a class attribute too: each record's own value shadows it
        cls.__record_fields__ = tuple(names)
        cls.__record_defaults__ = defaults

    def __init__(self, **values: Any) -> None:
        unknown = set(values) - set(self.__record_fields__)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        for name in self.__record_fields__:
            if name in values:
                value = values[name]
            elif name in self.__record_defaults__:
                value = self.__record_defaults__[name]
                if isinstance(value, _Factory):
                    value = value.make()
            else:
                raise TypeError(f"{type(self).__name__} needs the field {name!r}")
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot assign to {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__record_fields__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__record_fields__)
        return f"{type(self).__name__}({inner})"

    def replace(self: R, **changes: Any) -> R:
        """A copy with ``changes``, not checked again (as ``dataclasses.replace``)."""
        values = {name: getattr(self, name) for name in self.__record_fields__}
        values.update(changes)
        return type(self)(**values)

    def model_copy(self: R, *, update: dict[str, Any]) -> R:
        """The pydantic-era spelling of :meth:`replace`, kept for callers written against it."""
        return self.replace(**update)


def record_fields(cls: type) -> list[tuple[str, bool]]:
    """(name, required) of each field of a Record class, in declaration order."""
    fields: tuple[str, ...] = getattr(cls, "__record_fields__", ())
    defaults: dict[str, Any] = getattr(cls, "__record_defaults__", {})
    return [(name, name not in defaults) for name in fields]


def is_record(obj: Any) -> bool:
    """Whether ``obj`` is a Record class or instance."""
    return isinstance(obj, Record) or (isinstance(obj, type) and issubclass(obj, Record))
