"""Desk input into commands: each bad field named with what was expected; the abandoned-match
order of seed 004; walk-overs; a locked result refused before it reaches the loop."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from standings.web import forms
from standings.web.errors import FormError
from standings.web.inputs import CorrectResult, MoveMatch
from standings.web.sample import sample_backend
from standings.web.view import View
from tests.web_support import Clock

NOON = datetime(2026, 5, 16, 13, 35)


@pytest.fixture(scope="module")
def view() -> Iterator[View]:
    backend = sample_backend(Clock(NOON))
    yield View(backend.data())
    backend.close()


@pytest.mark.parametrize(
    ("fields", "field", "why"),
    [
        ({"home_goals": "2", "why": "x"}, "away_goals", "required"),
        ({"home_goals": "two", "away_goals": "1", "why": "x"}, "home_goals", "not a whole number"),
        ({"home_goals": "-1", "away_goals": "1", "why": "x"}, "home_goals", "not a whole number"),
        ({"home_goals": "1", "away_goals": "1"}, "why", "required"),
        ({"home_goals": "1", "away_goals": "1", "outcome": "shootout", "why": "x"}, "home_shootout", "required"),
        ({"home_goals": "1", "away_goals": "1", "outcome": "walkover", "why": "x"}, "outcome", "not one of"),
    ],
)
def test_a_bad_result_form_names_its_field(view: View, fields: dict[str, str], field: str, why: str) -> None:
    with pytest.raises(FormError, match=why) as err:
        forms.result_command(view, "anna", 13, fields)
    assert err.value.field == field


def test_a_walkover_awards_the_match(view: View) -> None:
    m = view.by_number[13]
    command = forms.walkover_command(view, "anna", 13, {"kind": "walkover", "winner": m.away, "why": "no show"})
    assert command.result.outcome == "walkover" and command.result.winner == m.away
    with pytest.raises(FormError, match="does not play match 13"):
        forms.walkover_command(view, "anna", 13, {"kind": "forfeit", "winner": "Real Madrid", "why": "x"})


def test_an_abandoned_match_is_settled_in_the_seeds_order(view: View) -> None:
    assert [key for key, _ in forms.ABANDONED_ORDER] == ["resume", "replay", "leader", "tie"]
    resume = forms.abandoned_command(view, "anna", 13, {"settle": "resume", "court": "Plan 2",
                                                        "start": "2026-05-16T18:00", "why": "power cut"})
    assert isinstance(resume, MoveMatch) and resume.why.startswith("abandoned, game resumed at a later time")
    assert resume.continues == "resume"  # the court's schedule then tells the table to reopen the match
    replay = forms.abandoned_command(view, "anna", 13, {"settle": "replay", "court": "Plan 2",
                                                        "start": "2026-05-17T09:00", "why": "power cut"})
    assert isinstance(replay, MoveMatch) and replay.continues == "replay"
    assert forms.move_command(view, "anna", 13, {"court": "Plan 2", "start": "2026-05-17T09:00",
                                                 "why": "x"}).continues == ""
    leader = forms.abandoned_command(view, "anna", 13, {"settle": "leader", "home_goals": "2", "away_goals": "1",
                                                        "why": "no ice time left"})
    assert isinstance(leader, CorrectResult) and leader.note == "abandoned: leading team considered the winner"
    with pytest.raises(FormError, match="no team leads at 1-1"):
        forms.abandoned_command(view, "anna", 13, {"settle": "leader", "home_goals": "1", "away_goals": "1",
                                                   "why": "x"})
    with pytest.raises(FormError, match="a tie is level"):
        forms.abandoned_command(view, "anna", 13, {"settle": "tie", "home_goals": "2", "away_goals": "1", "why": "x"})


def test_a_locked_result_is_refused_at_the_form(view: View) -> None:
    later = View(replace(view.data, now=NOON + timedelta(hours=2)))
    with pytest.raises(FormError, match="protest window closed"):
        forms.result_command(later, "anna", 1, {"home_goals": "0", "away_goals": "0", "why": "protest"})


def test_a_decision_must_name_an_open_tie(view: View) -> None:
    backend = sample_backend(Clock(NOON), played=18)  # every pool complete; C's GAIS and Djurgården level
    done = View(backend.data())
    backend.close()
    tie, = done.unresolved()
    pool, teams = tie.pool, tie.teams
    ok = forms.decision_command(done, "anna", {"pool": pool, "method": "lots", "order": list(teams), "why": "drawn"})
    assert ok.decision.order == teams
    with pytest.raises(FormError, match="no open tie"):
        forms.decision_command(done, "anna", {"pool": "A", "method": "lots", "order": list(teams), "why": "x"})
    # At midday the same two are level, but pool C's last two matches may still part them.
    with pytest.raises(FormError, match="pool C has played 4 of its 6 matches: a tie is decided once") as err:
        forms.decision_command(view, "anna", {"pool": pool, "method": "lots", "order": list(teams), "why": "x"})
    assert err.value.field == "pool"


def test_a_move_needs_a_time(view: View) -> None:
    with pytest.raises(FormError, match="not a date and time"):
        forms.move_command(view, "anna", 13, {"court": "Plan 1", "start": "after lunch", "why": "x"})


def test_a_conflicting_result_cannot_replace_a_locked_one_at_the_form(view: View) -> None:
    conflict = view.data.conflicts[0]
    later = View(replace(view.data, now=NOON + timedelta(hours=2)))
    with pytest.raises(FormError, match="protest window closed"):
        forms.conflict_command(later, "anna", conflict.id, {"keep": "held", "why": "video"})
    kept = forms.conflict_command(later, "anna", conflict.id, {"keep": "stored", "why": "after the window"})
    assert kept.keep == "stored"
    assert forms.conflict_command(view, "anna", conflict.id, {"keep": "held", "why": "video"}).keep == "held"
