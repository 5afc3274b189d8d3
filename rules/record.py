"""The core's one record system: frozen records declared by annotations, without ``@dataclass``'s import cost.

A ``@dataclass`` writes its ``__init__``, ``__eq__``, ``__repr__``, ``__hash__`` and
``__setattr__`` as source text and compiles each one when the class is defined (about a
millisecond a class here, 35-45 ms for the engine's 42 classes: more than the whole
``import rules.match`` goal, docs/benchmarks.md "Start-up"), and ``import dataclasses``
pulls in ``inspect``. A :class:`Record` subclass gets the same behaviour from a few shared
methods that read the class's field list, built once from its annotations. Type checkers
see it as a frozen, keyword-only dataclass (PEP 681). What callers had from dataclasses:

- keyword-only construction (``kw_only=False`` as a class keyword also takes the fields in
  order), with dataclass-like ``TypeError``s; ``__match_args__`` to match;
- ``__post_init__`` runs after construction and :meth:`Record.replace` (events check their fields there);
- assigning a field raises ``dataclasses.FrozenInstanceError``; ``frozen=False`` as a class
  keyword makes a mutable record (the engine's folded core, a parser's entry);
- equality and hash over the fields (``field(compare=False)`` leaves one out), a readable repr;
- ``dataclasses.fields``, ``asdict``, ``replace`` and ``is_dataclass`` work on the classes and
  their records: the ``Field`` objects are made on first use, from a dataclass declared with
  the same fields, so only the code that asks imports ``dataclasses``.

A record's attribute dict is filled in field order from a per-class template in two C-level
updates (as fast as a dataclass's ``__init__`` for a few fields, faster for many), and
``replace`` copies the dict instead of calling ``__init__``.

    class Overtime(Record):
        kind: Literal["golden_goal", "full"]
        periods: int
        interval_before: int = 0          # a default
        names: list[str] = field(default_factory=list)  # a fresh list for each record
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, dataclass_transform, overload

T = TypeVar("T")
R = TypeVar("R", bound="Record")

_MISSING: Any = object()


class _Field:
    __slots__ = ("compare", "default", "make")

    def __init__(self, default: Any, make: Callable[[], Any] | None, compare: bool) -> None:
        self.default, self.make, self.compare = default, make, compare


@overload
def field(*, default: T, compare: bool = True) -> T: ...
@overload
def field(*, default_factory: Callable[[], T], compare: bool = True) -> T: ...
def field(*, default: Any = _MISSING, default_factory: Callable[[], Any] | None = None, compare: bool = True) -> Any:
    """A default made afresh for each record (a list, a table), or a field equality leaves out, as in dataclasses."""
    return _Field(default, default_factory, compare)


class _DataclassFields:
    """A record class's ``__dataclass_fields__``, made when ``dataclasses`` first asks for it."""

    def __init__(self, cls: type[Record], frozen: bool) -> None:
        self.cls, self.frozen = cls, frozen
        self.fields: dict[str, Any] | None = None

    def __get__(self, record: object, owner: type | None = None) -> dict[str, Any]:
        if self.fields is None:
            self.fields = self._make()
        return self.fields

    def _make(self) -> dict[str, Any]:
        import dataclasses  # only introspection pays for it: see the module's docstring

        cls = self.cls
        hints: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            hints.update(vars(klass).get("__annotations__", {}))
        namespace: dict[str, Any] = {
            "__module__": cls.__module__, "__qualname__": cls.__qualname__,
            "__annotations__": {name: hints[name] for name in cls.__record_fields__},
        }
        for name in cls.__record_fields__:
            default = cls.__record_defaults__.get(name, _MISSING)
            made = {"default_factory": default.make} if isinstance(default, _Field) else {"default": default}
            compare = cls.__record_compared__ is None or name in cls.__record_compared__
            namespace[name] = dataclasses.field(**made, compare=compare) if default is not _MISSING else (
                dataclasses.field(compare=compare))
        twin: type[Any] = dataclasses.dataclass(frozen=self.frozen, kw_only=True)(type(cls.__name__, (), namespace))
        return dict(twin.__dataclass_fields__)


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
class Record:
    """Base of the core's records: rulesets, tournament files, the engine's events and state, standings."""

    __match_args__: ClassVar[tuple[str, ...]] = ()
    __record_fields__: ClassVar[tuple[str, ...]] = ()
    __record_defaults__: ClassVar[dict[str, Any]] = {}  # a default, or a _Field that makes one
    __record_template__: ClassVar[dict[str, Any]] = {}
    __record_required__: ClassVar[frozenset[str]] = frozenset()
    __record_factories__: ClassVar[tuple[tuple[str, Callable[[], Any]], ...]] = ()
    __record_compared__: ClassVar[tuple[str, ...] | None] = None  # None: every field
    __record_check__: ClassVar[Callable[[Any], None] | None] = None

    def __init_subclass__(cls, *, frozen: bool = True, kw_only: bool = True, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names: list[str] = []
        defaults: dict[str, Any] = {}
        uncompared: set[str] = set()
        for klass in reversed(cls.__mro__):
            for name, hint in vars(klass).get("__annotations__", {}).items():
                if name.startswith("__") or str(hint).startswith(("ClassVar", "typing.ClassVar")):
                    continue
                if name not in names:
                    names.append(name)
                default = vars(klass).get(name, _MISSING)
                if isinstance(default, _Field):
                    if not default.compare:
                        uncompared.add(name)
                    default = default.default if default.make is None else default
                if default is not _MISSING:
                    defaults[name] = default  # stays a class attribute too: each record's own value shadows it
        cls.__record_fields__ = tuple(names)
        cls.__record_defaults__ = defaults
        # Every field in declaration order, its default in place: a record's dict is a copy of this,
        # updated with the values given (missing and unknown names are found by two set checks).
        cls.__record_template__ = {name: defaults.get(name, _MISSING) for name in names}
        cls.__record_required__ = frozenset(name for name in names if name not in defaults)
        cls.__record_factories__ = tuple((n, d.make) for n, d in defaults.items() if isinstance(d, _Field) and d.make)
        cls.__record_compared__ = tuple(name for name in names if name not in uncompared) if uncompared else None
        cls.__record_check__ = getattr(cls, "__post_init__", None)
        type.__setattr__(cls, "__match_args__", () if kw_only else cls.__record_fields__)
        type.__setattr__(cls, "__dataclass_fields__", _DataclassFields(cls, frozen))
        if not kw_only:
            cls.__init__ = _in_order  # type: ignore[method-assign]
        if not frozen:
            cls.__setattr__ = object.__setattr__  # type: ignore[method-assign,assignment]
            cls.__delattr__ = object.__delattr__  # type: ignore[method-assign]
            cls.__hash__ = None  # type: ignore[assignment]  # as a mutable dataclass: unhashable

    def __init__(self, **values: Any) -> None:
        cls = type(self)
        template = cls.__record_template__
        filled = self.__dict__  # filled in place, past the frozen __setattr__
        filled.update(template)
        filled.update(values)
        if len(values) != len(template):
            if len(filled) != len(template) or not cls.__record_required__ <= values.keys():
                raise _wrong_arguments(cls, values)
            for name, make in cls.__record_factories__:
                if name not in values:
                    filled[name] = make()
        elif len(filled) != len(template):  # as many names as fields, but not the fields' names
            raise _wrong_arguments(cls, values)
        check = cls.__record_check__
        if check is not None:
            check(self)

    def __setattr__(self, name: str, value: Any) -> None:
        from dataclasses import FrozenInstanceError  # only on this error path

        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        compared = self.__record_compared__
        if compared is None:
            return _values(self) == _values(other)  # the same fields, in the same order
        return all(getattr(self, name) == getattr(other, name) for name in compared)

    def __hash__(self) -> int:
        compared = self.__record_compared__
        if compared is None:
            return hash(tuple(_values(self).values()))
        return hash(tuple(getattr(self, name) for name in compared))

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__record_fields__)
        return f"{type(self).__name__}({inner})"

    def replace(self: R, **changes: Any) -> R:
        """A copy with ``changes``, checked again (as ``dataclasses.replace``)."""
        cls = type(self)
        values = dict(_values(self))
        values.update(changes)
        if len(values) != len(cls.__record_template__):
            raise _wrong_arguments(cls, changes)
        new = object.__new__(cls)
        object.__setattr__(new, "__dict__", values)  # the fields in order already: no __init__ needed
        check = cls.__record_check__
        if check is not None:
            check(new)
        return new


def _values(record: Record) -> dict[str, Any]:
    """The record's fields and their values. A ``cached_property`` keeps what it worked out in the same dict (a
    frozen record allows it: Tournament's and Cup's look-ups by name); those entries are no field, so two equal
    records stay equal, and a replaced copy works them out again, whether or not one was asked before."""
    values = record.__dict__
    template = type(record).__record_template__
    return values if len(values) == len(template) else {name: values[name] for name in template}


def _in_order(self: Record, *args: Any, **values: Any) -> None:
    """``__init__`` of a record declared ``kw_only=False``: the fields in declaration order, then by keyword."""
    if len(args) > len(self.__record_fields__):
        raise TypeError(f"{type(self).__qualname__}() takes {len(self.__record_fields__)} values, got {len(args)}")
    Record.__init__(self, **dict(zip(self.__record_fields__, args, strict=False)), **values)


def _wrong_arguments(cls: type[Record], values: dict[str, Any]) -> TypeError:
    """The TypeError a dataclass's ``__init__`` raises for an unknown or a missing keyword."""
    unknown = [name for name in values if name not in cls.__record_template__]
    if unknown:
        return TypeError(f"{cls.__qualname__}.__init__() got an unexpected keyword argument {unknown[0]!r}")
    missing = [name for name in cls.__record_fields__ if name in cls.__record_required__ and name not in values]
    listed = " and ".join(repr(name) for name in missing) if len(missing) <= 2 else ", ".join(map(repr, missing))
    s = "" if len(missing) == 1 else "s"
    return TypeError(f"{cls.__qualname__}.__init__() missing {len(missing)} required keyword-only argument{s}: "
                     + listed)


def record_fields(cls: type) -> list[tuple[str, bool]]:
    """(name, required) of each field of a Record class, in declaration order."""
    required: frozenset[str] = getattr(cls, "__record_required__", frozenset())
    return [(name, name in required) for name in getattr(cls, "__record_fields__", ())]


def is_record(obj: Any) -> bool:
    """Whether ``obj`` is a Record class or instance."""
    return isinstance(obj, Record) or (isinstance(obj, type) and issubclass(obj, Record))
