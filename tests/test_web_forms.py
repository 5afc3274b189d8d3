"""Desk input into commands: each bad field named with what was expected; the abandoned-match order of
seed 004 into a result or a move; walk-overs. Whether the change may be made is the desk's rules'
(tests/test_server_desk.py), applied when the command is submitted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.desk import DeskError
from server.web import forms
from server.web.inputs import CorrectResult, MoveMatch
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


def test_a_conflict_keeps_the_stored_or_the_held_result(view: View) -> None:
    conflict = view.data.conflicts[0]
    assert forms.conflict_command("anna", conflict.id, {"keep": "held", "why": "video"}).keep == "held"
    assert forms.conflict_command("anna", conflict.id, {"keep": "stored", "why": "x"}).keep == "stored"
    with pytest.raises(DeskError, match="'both' is not stored or held"):
        forms.conflict_command("anna", conflict.id, {"keep": "both", "why": "x"})
