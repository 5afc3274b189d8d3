"""The match engine's records: frozen keyword-only classes that behave as dataclasses, without their import cost.

``@dataclass`` writes and compiles ``__init__``, ``__eq__``, ``__repr__``, ``__hash__`` and
``__setattr__`` for every class when it is defined, and importing ``dataclasses`` pulls in
``inspect`` (with ``ast``, ``dis``, ``tokenize``): together most of ``import rules.match``,
paid at every start of the table (docs/benchmarks.md, "Start-up"). A :class:`MatchRecord`
is a :class:`rules.record.Record` (fields from the annotations, keyword-only construction,
equality, hash, repr, :meth:`~rules.record.Record.replace`) that also keeps what the
engine and its callers had from dataclasses:

- ``__post_init__`` runs after construction (events check their fields there);
- assigning a field raises ``dataclasses.FrozenInstanceError``; ``frozen=False`` as a
  class keyword makes a mutable record (the engine's folded core);
- ``dataclasses.fields``, ``asdict``, ``replace`` and ``is_dataclass`` work on the classes
  and their records: the ``Field`` objects are made on first use, from a dataclass
  declared with the same fields, so only the code that asks imports ``dataclasses``;
- ``__match_args__`` is empty, as for a keyword-only dataclass: ``case Goal(team="home")``.

A record's attribute dict is filled in field order from a per-class template in two
C-level updates: about as fast as a dataclass's generated ``__init__`` for a few fields,
faster for many, and ``replace`` copies the dict instead of calling ``__init__`` (twice as
fast as ``dataclasses.replace``, which the fold calls for every penalty that changes).
``vars()`` of a record lists its fields in declaration order, as a dataclass's does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from rules.record import Record, _Factory

R = TypeVar("R", bound="MatchRecord")

_REQUIRED = object()  # marks, in a class's template, a field that has no default


class _DataclassFields:
    """A record class's ``__dataclass_fields__``, made when ``dataclasses`` first asks for it."""

    def __init__(self, cls: type[MatchRecord], frozen: bool) -> None:
        self.cls = cls
        self.frozen = frozen
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
        for name, default in cls.__record_defaults__.items():
            made = isinstance(default, _Factory)
            namespace[name] = dataclasses.field(default_factory=default.make) if made else default
        twin: type[Any] = dataclasses.dataclass(frozen=self.frozen, kw_only=True)(type(cls.__name__, (), namespace))
        return dict(twin.__dataclass_fields__)


class MatchRecord(Record):
    """Base of the match engine's records: a Record that dataclasses' functions accept, checked in ``__post_init__``."""

    __match_args__: ClassVar[tuple[str, ...]] = ()
    __record_template__: ClassVar[dict[str, Any]] = {}
    __record_required__: ClassVar[frozenset[str]] = frozenset()
    __record_factories__: ClassVar[tuple[tuple[str, Callable[[], Any]], ...]] = ()
    __record_check__: ClassVar[Callable[[Any], None] | None] = None

    def __init_subclass__(cls, *, frozen: bool = True, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        defaults = cls.__record_defaults__
        # Every field in declaration order, its default in place: a record's dict is a copy of this,
        # updated with the values given (missing and unknown names are found by two set checks).
        cls.__record_template__ = {
            name: defaults.get(name, _REQUIRED) for name in cls.__record_fields__
        }
        cls.__record_required__ = frozenset(name for name in cls.__record_fields__ if name not in defaults)
        cls.__record_factories__ = tuple(
            (name, default.make) for name, default in defaults.items() if isinstance(default, _Factory)
        )
        cls.__record_check__ = getattr(cls, "__post_init__", None)
        type.__setattr__(cls, "__dataclass_fields__", _DataclassFields(cls, frozen))
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
        return self.__dict__ == other.__dict__  # the same fields, in the same order: Record's tuples, faster

    def __hash__(self) -> int:
        return hash(tuple(self.__dict__.values()))

    def replace(self: R, **changes: Any) -> R:
        """A copy with ``changes``, checked again (as ``dataclasses.replace``)."""
        cls = type(self)
        values = self.__dict__.copy()
        values.update(changes)
        if len(values) != len(cls.__record_template__):
            raise _wrong_arguments(cls, changes)
        new = object.__new__(cls)
        object.__setattr__(new, "__dict__", values)  # the fields in order already: no __init__ needed
        check = cls.__record_check__
        if check is not None:
            check(new)
        return new


def _wrong_arguments(cls: type[MatchRecord], values: dict[str, Any]) -> TypeError:
    """The TypeError a dataclass's ``__init__`` raises for an unknown or a missing keyword."""
    unknown = [name for name in values if name not in cls.__record_template__]
    if unknown:
        return TypeError(f"{cls.__qualname__}.__init__() got an unexpected keyword argument {unknown[0]!r}")
    missing = [name for name in cls.__record_fields__ if name in cls.__record_required__ and name not in values]
    listed = " and ".join(repr(name) for name in missing) if len(missing) <= 2 else ", ".join(map(repr, missing))
    s = "" if len(missing) == 1 else "s"
    return TypeError(f"{cls.__qualname__}.__init__() missing {len(missing)} required keyword-only argument{s}: "
                     + listed)
