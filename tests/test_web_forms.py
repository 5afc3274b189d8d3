"""Desk input into commands: each bad field named with what was expected; the abandoned-match order of
seed 004 into a result or a move; walk-overs. Whether the change may be made is the desk's rules'
(tests/test_server_desk.py), applied when the command is submitted."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime

import pytest

from server.desk import DeskError
from server.desk_commands import CorrectResult, MoveMatch
from server.web import forms
from server.web.view import View
from tests.web_day import sample_day


@pytest.fixture(scope="module")
def view() -> Iterator[View]:
    with sample_day() as day:
        yield day.view()


@pytest.mark.parametrize(
    ("fields", "field", "why"),
    [
        ({"home_goals": "2", "why": "x"}, "away_goals", "required"),
        ({"home_goals": "two", "away_goals": "1", "why": "x"}, "home_goals", "not a whole number"),
        ({"home_goals": "-1", "away_goals": "1", "why": "x"}, "home_goals", "not a whole number"),
        ({"home_goals": "1", "away_goals": "1", "outcome": "shootout", "why": "x"}, "home_shootout", "required"),
        ({"home_goals": "1", "away_goals": "1", "outcome": "walkover", "why": "x"}, "outcome", "not one of"),
    ],
)
def test_a_bad_result_form_names_its_field(view: View, fields: dict[str, str], field: str, why: str) -> None:
    with pytest.raises(DeskError, match=why) as err:
        forms.result_command(view, "anna", 13, fields)
    assert err.value.field == field


def test_a_walkover_awards_the_match(view: View) -> None:
    m = view.by_number[13]
    command = forms.walkover_command(view, "anna", 13, {"kind": "walkover", "winner": m.away, "why": "no show"})
    assert command.result.outcome == "walkover" and command.result.winner == m.away
    with pytest.raises(DeskError, match="'draw' is not walkover or forfeit"):
        forms.walkover_command(view, "anna", 13, {"kind": "draw", "winner": m.away, "why": "x"})


def test_an_abandoned_match_is_settled_in_the_seeds_order(view: View) -> None:
    resume = forms.abandoned_command(view, "anna", 13, {"settle": "resume", "court": "Plan 2",
                                                        "start": "2026-05-16T18:00", "why": "power cut"})
    assert isinstance(resume, MoveMatch) and resume.why == "power cut"
    assert resume.continues == "resume"  # the court's schedule then tells the table to reopen the match
    replay = forms.abandoned_command(view, "anna", 13, {"settle": "replay", "court": "Plan 2",
                                                        "start": "2026-05-17T09:00", "why": "power cut"})
    assert isinstance(replay, MoveMatch) and replay.continues == "replay"
    assert forms.move_command(view, "anna", 13, {"court": "Plan 2", "start": "2026-05-17T09:00",
                                                 "why": "x"}).continues == ""
    leader = forms.abandoned_command(view, "anna", 13, {"settle": "leader", "home_goals": "2", "away_goals": "1",
                                                        "why": "no ice time left"})
    assert isinstance(leader, CorrectResult) and leader.abandoned == "leader"
    assert (leader.result.home_goals, leader.result.away_goals) == (2, 1)


def test_a_decision_names_its_pool_method_and_order(view: View) -> None:
    command = forms.decision_command("anna", {"pool": "C", "method": "lots", "order": "GAIS P14 > Djurgården P14",
                                              "why": "drawn"})
    assert command.decision.order == ("GAIS P14", "Djurgården P14") and command.decision.method == "lots"
    with pytest.raises(DeskError, match="required") as err:
        forms.decision_command("anna", {"method": "lots", "order": ["a", "b"], "why": "x"})
    assert err.value.field == "pool"


def test_a_move_needs_a_time(view: View) -> None:
    with pytest.raises(DeskError, match="not a date and time"):
        forms.move_command(view, "anna", 13, {"court": "Plan 1", "start": "after lunch", "why": "x"})


@pytest.mark.parametrize(("start", "why"), [
    ("0001-01-01T10:00", "0001-01-01 is not a day of this tournament (its days: 2026-05-16, 2026-05-17)"),
    ("2026-05-18T10:00", "not a day of this tournament"),
    ("2026-05-16T07:00", "07:00 to 07:50 is outside the tournament's day (08:00:00-20:00:00)"),
    ("2026-05-16T19:30", "outside the tournament's day"),  # would end at 20:20, after day_end
    ("2026-05-16T14:30+05:00", "its offset is not this venue's"),
])
def test_a_move_takes_only_a_time_the_tournament_can_play(view: View, start: str, why: str) -> None:
    """Issue 31: a move to year 1 was stored (the team's calendar then answered 500), a +05:00 dropped silently."""
    with pytest.raises(DeskError, match=re.escape(why)) as err:
        forms.move_command(view, "anna", 13, {"court": "Plan 1", "start": start, "why": "x"})
    assert err.value.field == "start"


def test_a_move_within_the_day_in_the_venue_s_own_offset_is_taken(view: View) -> None:
    own = datetime(2026, 5, 16, 14, 30).astimezone().isoformat()  # the venue's own zone, written out
    for start in ("2026-05-16T14:30", own):
        move = forms.move_command(view, "anna", 13, {"court": "Plan 1", "start": start, "why": "x"})
        assert move.start == datetime(2026, 5, 16, 14, 30) and move.start.tzinfo is None


def test_a_conflict_keeps_the_stored_or_the_held_result(view: View) -> None:
    conflict = view.data.conflicts[0]
    assert forms.conflict_command("anna", conflict.id, {"keep": "held", "why": "video"}).keep == "held"
    assert forms.conflict_command("anna", conflict.id, {"keep": "stored", "why": "x"}).keep == "stored"
    with pytest.raises(DeskError, match="'both' is not stored or held"):
        forms.conflict_command("anna", conflict.id, {"keep": "both", "why": "x"})
