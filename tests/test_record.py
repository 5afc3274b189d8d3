"""rules.record: frozen, keyword-only records with defaults, equality, repr and copies with changes."""

from __future__ import annotations

from typing import ClassVar

import pytest

from rules.record import Record, field, is_record, record_fields


class Band(Record):
    margin: int
    points: int = 0
    names: list[str] = field(default_factory=list)
    LIMIT: ClassVar[int] = 5


class Wide(Band):
    extra: bool = False


def test_construction_by_keyword_with_defaults_and_fresh_factories() -> None:
    a, b = Band(margin=2), Band(margin=2)
    assert (a.margin, a.points, a.names) == (2, 0, [])
    assert a.names is not b.names
    assert record_fields(Band) == [("margin", True), ("points", False), ("names", False)]
    assert [name for name, _ in record_fields(Wide)] == ["margin", "points", "names", "extra"]


def test_a_missing_or_unknown_field_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="needs the field 'margin'"):
        Band()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="no field colour"):
        Band(margin=1, colour="red")  # type: ignore[call-arg]


def test_records_are_frozen() -> None:
    band = Band(margin=1)
    with pytest.raises(AttributeError, match="frozen"):
        band.margin = 3  # type: ignore[misc]
    with pytest.raises(AttributeError, match="frozen"):
        del band.points


def test_equality_hash_repr_and_replace() -> None:
    assert Band(margin=1, points=2) == Band(margin=1, points=2) != Band(margin=1, points=3)
    assert Band(margin=1) != Wide(margin=1)
    assert repr(Band(margin=1)) == "Band(margin=1, points=0, names=[])"
    moved = Band(margin=1, points=2).replace(points=4)
    assert moved == Band(margin=1, points=4) and moved.model_copy(update={"margin": 9}).margin == 9
    assert hash(Wide(margin=1).replace(names=("a",))) == hash(Wide(margin=1, names=("a",)))  # type: ignore[arg-type]
    assert is_record(Band) and is_record(moved) and not is_record(object())
