"""Events are frozen, keyword-only records; a command is an event without its seq."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import EventError
from rules.match import EVENT_TYPES, Goal
from rules.match.events import MAX_AT, MAX_PLAYER, MAX_SCORE, MAX_SEQ, other


def test_events_are_frozen_and_keyword_only() -> None:
    goal = Goal(at=5, team="home")
    with pytest.raises(dataclasses.FrozenInstanceError):
        goal.at = 6  # type: ignore[misc]
    with pytest.raises(TypeError):
        Goal(5, "home")  # type: ignore[call-arg,arg-type]
    assert goal.seq == 0  # given by the match when it is logged


def test_every_event_has_an_instant_and_a_seq() -> None:
    for cls in EVENT_TYPES.values():
        names = [f.name for f in dataclasses.fields(cls)]
        assert names[:2] == ["at", "seq"], cls


def test_other_side() -> None:
    assert (other("home"), other("away")) == ("away", "home")


# -- checked when built ---------------------------------------------------------------------------



_VALID: dict[str, object] = {
    "at": 1_000, "seq": 0, "target": 1, "length": 60_000, "remaining": 1_000, "clock": 0, "home": 1, "away": 0,
    "team": "home", "player": "7", "kind": "minor", "name": "penalty_corner", "reason": "", "scored": True,
    "short": False,
}
_NOT_INT = st.one_of(st.floats(allow_nan=True), st.text(max_size=3), st.booleans(), st.lists(st.integers(), max_size=2))
_NOT_TEXT = st.one_of(st.integers(), st.floats(), st.booleans(), st.lists(st.text(max_size=2), max_size=2))
_CONTROL = st.sampled_from(["\x00", "1\x00", "\n", "7\t", "\x1b[2J", " ", "\u2028"])
_WRONG: dict[str, st.SearchStrategy[object]] = {
    "at": st.one_of(_NOT_INT, st.none(), st.integers(max_value=-1), st.integers(min_value=MAX_AT + 1)),
    "seq": st.one_of(_NOT_INT, st.none(), st.integers(max_value=-1), st.integers(min_value=MAX_SEQ + 1)),
    "target": st.one_of(_NOT_INT, st.none(), st.integers(max_value=0)),
    "length": st.one_of(_NOT_INT, st.integers(max_value=-1), st.integers(min_value=MAX_AT + 1)),
    "remaining": st.one_of(_NOT_INT, st.none(), st.integers(max_value=-1)),
    "clock": st.one_of(_NOT_INT, st.none(), st.integers(min_value=MAX_AT + 1)),
    "home": st.one_of(_NOT_INT, st.integers(min_value=MAX_SCORE + 1)),
    "away": st.one_of(_NOT_INT, st.integers(max_value=-1)),
    "team": st.one_of(st.text(max_size=6).filter(lambda t: t not in ("home", "away")), _NOT_TEXT, st.none()),
    "player": st.one_of(_NOT_TEXT, _CONTROL, st.just(""), st.text(min_size=MAX_PLAYER + 1, alphabet="0123456789")),
    "kind": st.one_of(_NOT_TEXT, _CONTROL, st.just(""), st.none()),
    "name": st.one_of(_NOT_TEXT, _CONTROL, st.none()),
    "reason": st.one_of(_NOT_TEXT, _CONTROL.filter(lambda t: t != " ")),
    "scored": st.one_of(st.integers(), st.none(), st.text(max_size=3)),
    "short": st.one_of(st.integers(), st.text(max_size=3)),
}


@st.composite
def _wrong_event(draw: st.DrawFn) -> tuple[type[object], dict[str, object], str]:
    cls = draw(st.sampled_from(sorted(EVENT_TYPES.values(), key=lambda c: c.type)))
    names = [f.name for f in dataclasses.fields(cls)]
    field = draw(st.sampled_from(names))
    kwargs = {name: _VALID[name] for name in names}
    kwargs[field] = draw(_WRONG[field])
    return cls, kwargs, field


@given(_wrong_event())
def test_an_event_built_with_any_wrong_field_raises_the_library_error_naming_it(
    case: tuple[type[object], dict[str, object], str],
) -> None:
    cls, kwargs, field = case
    with pytest.raises(EventError) as err:
        cls(**kwargs)
    assert err.value.field == field
    assert isinstance(err.value, ValueError)


def test_every_field_of_every_event_is_checked_and_valid_values_pass() -> None:
    for cls in EVENT_TYPES.values():
        names = [f.name for f in dataclasses.fields(cls)]
        assert set(names) <= set(_WRONG)
        valid: dict[str, Any] = {name: _VALID[name] for name in names}
        cls(**valid)


def test_the_examples_of_the_issue() -> None:
    for kwargs, field in (({"team": "hme"}, "team"), ({"at": 1.5}, "at"), ({"at": "5"}, "at"),
                          ({"seq": -1}, "seq"), ({"at": True}, "at"), ({"player": ""}, "player")):
        with pytest.raises(EventError, match=f"goal: {field}: "):
            Goal(**{"at": 0, "team": "home", **kwargs})  # type: ignore[arg-type]
