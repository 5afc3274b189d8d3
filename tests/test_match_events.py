"""Events are frozen, keyword-only records; a command is an event without its seq."""

from __future__ import annotations

import dataclasses

import pytest

from rules.match import EVENT_TYPES, Goal
from rules.match.events import other


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
