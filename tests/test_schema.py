"""rules.schema: a document checked against frozen records, every problem with its key path."""

from __future__ import annotations

from datetime import datetime, time
from typing import Annotated, Any, Literal

import pytest

from rules.record import Record, field
from rules.schema import MAX_INT, Before, Bounds, Pattern, Size, as_data, build, datetime_text, seconds_to_ms


class Leg(Record):
    kind: Literal["home", "away"]
    goals: Annotated[int, Bounds(0, 99)] = 0


class Card(Record):
    name: Annotated[str, Size(1, 20), Pattern(r"[A-Z]\w*", "a capitalised word")]
    length: Annotated[int, Before(seconds_to_ms)] = 0
    legs: Annotated[list[Leg], Size(1, 3)] = field(default_factory=lambda: [Leg(kind="home")])
    extra: dict[str, bool] = field(default_factory=dict)
    at: Annotated[datetime, Before(datetime_text)] | None = None
    pair: tuple[int, int] = (0, 0)

    def _check(self) -> None:
        if self.pair[0] < self.pair[1]:
            raise ValueError("the first of the pair is the larger")


def problems(data: Any) -> list[tuple[str, str]]:
    value, found = build(Card, data)
    assert value is None
    return found


def test_a_good_document_builds_the_object_with_defaults() -> None:
    card, found = build(Card, {"name": "Red", "length": "2:00", "legs": [{"kind": "away", "goals": 3}],
                               "at": "2026-05-16T09:00", "pair": [2, 1]})
    assert found == [] and card is not None
    assert (card.length, card.legs, card.pair, card.extra) == (120_000, [Leg(kind="away", goals=3)], (2, 1), {})
    assert as_data(card)["at"] == "2026-05-16T09:00:00"


def test_every_problem_is_reported_with_its_key_path() -> None:
    found = problems({"name": "red", "legs": [{"kind": "home"}, {"kind": "side", "goals": 100}],
                      "extra": {"x": 1}, "colour": "red"})
    assert sorted(key for key, _ in found) == ["colour", "extra.x", "legs[1].goals", "legs[1].kind", "name"]
    assert ("colour", "unknown key") in found


def test_a_missing_required_key_and_a_wrong_shape() -> None:
    assert problems({}) == [("name", "required key is missing")]
    assert problems([1]) == [("", "expected a table of keys, got [1]")]
    assert [key for key, _ in problems({"name": "A", "legs": "home"})] == ["legs"]


@pytest.mark.parametrize(("value", "key"), [
    ({"name": "A", "legs": []}, "legs"),
    ({"name": "A", "pair": [1]}, "pair"),
    ({"name": "A", "legs": [{"kind": "home", "goals": True}]}, "legs[0].goals"),
    ({"name": "A", "legs": [{"kind": "home", "goals": 1.0}]}, "legs[0].goals"),
    ({"name": "A", "pair": [MAX_INT + 1, 0]}, "pair"),
    ({"name": "A\x00"}, "name"),
    ({"name": "A", "at": datetime(2026, 5, 16, 9).astimezone()}, "at"),
    ({"name": "A", "at": "9999-12-31T00:00"}, "at"),
    ({"name": "A", "length": float("nan")}, "length"),
])
def test_values_no_real_file_has_are_refused(value: dict[str, Any], key: str) -> None:
    assert [k for k, _ in problems(value)] == [key]


def test_a_relation_between_fields_is_reported_at_the_object() -> None:
    assert problems({"name": "A", "pair": [1, 2]}) == [("", "the first of the pair is the larger")]


def test_a_list_with_a_wrong_item_is_not_also_too_short() -> None:
    assert [k for k, _ in problems({"name": "A", "legs": [{"kind": "side"}]})] == ["legs[0].kind"]


def test_long_inputs_are_quoted_short() -> None:
    (_, message), = problems({"name": "A", "legs": [{"kind": "x" * 10_000}]})
    assert len(message) < 200


def test_a_time_of_day_and_durations() -> None:
    from rules.schema import time_text

    assert time_text("18:30") == time(18, 30)
    assert seconds_to_ms(90) == 90_000 and seconds_to_ms("1:30.5") == 90_500
    with pytest.raises(ValueError, match="longer than a day"):
        seconds_to_ms("1441:00")
