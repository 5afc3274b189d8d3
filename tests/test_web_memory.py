"""The in-memory backend's one loop: desk commands applied in order, refused with a reason and
nothing changed, each change logged with who, when and why."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest

from rules.standings import Decision, MatchResult
from standings.web import forms
from standings.web.errors import DeskRefused
from standings.web.inputs import Abandoned, CorrectResult, MoveMatch, RecordDecision, RuleSanction, SettleConflict
from standings.web.memory import MemoryBackend
from standings.web.sample import sample_backend
from standings.web.view import View
from tests.web_support import Clock

NOON = datetime(2026, 5, 16, 13, 35)


@pytest.fixture
def day() -> Iterator[tuple[MemoryBackend, Clock]]:
    clock = Clock(NOON)
    backend = sample_backend(clock)
    yield backend, clock
    backend.close()


def _result(backend: MemoryBackend, number: int, home: int, away: int) -> MatchResult:
    m = View(backend.data()).by_number[number]
    return MatchResult(pool=m.stage, home=m.home, away=m.away, home_goals=home, away_goals=away)


def test_a_correction_is_applied_and_logged(day: tuple[MemoryBackend, Clock]) -> None:
    backend, clock = day
    version = backend.data().version
    ended = backend.data().results[1].recorded_at
    clock.at = ended + timedelta(minutes=20)  # within the hour seed 003 gives for a protest
    backend.submit(CorrectResult(who="anna", why="scoresheet", number=1, result=_result(backend, 1, 0, 3)))
    data = backend.data()
    assert data.version == version + 1
    assert data.results[1].result.away_goals == 3 and data.results[1].by == "anna"
    assert data.results[1].recorded_at == ended  # the protest window still runs from the match's end
    entry = data.audit[-1]
    assert (entry.who, entry.why, entry.at) == ("anna", "scoresheet", clock.at)
    assert "0-3 (was 2-1)" in entry.what


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        (MoveMatch(who="anna", why="", number=1, court="Plan 1", start=NOON), "say why"),
        (MoveMatch(who="anna", why="rain", number=99, court="Plan 1", start=NOON), "no match 99"),
        (MoveMatch(who="anna", why="rain", number=1, court="Centre Court", start=NOON), "not one of the courts"),
        (SettleConflict(who="anna", why="x", conflict="nope", keep="held"), "no conflict"),
        (RuleSanction(who="anna", why="x", number=1, team="X", player="1", matches=2), "no report"),
        (RecordDecision(who="anna", why="x", decision=Decision(pool="C", method="dice", order=("a", "b"))), "method"),
    ],
)
def test_refusals_change_nothing(day: tuple[MemoryBackend, Clock], command: object, reason: str) -> None:
    backend, _ = day
    before = backend.data()
    with pytest.raises(DeskRefused, match=reason):
        backend.submit(command)  # type: ignore[arg-type]
    assert backend.data() is before


def test_a_result_the_rules_refuse_is_not_stored(day: tuple[MemoryBackend, Clock]) -> None:
    backend, _ = day
    knockout = next(m for m in View(backend.data()).matches if m.stage == "QF1")
    before = backend.data()
    wrong = MatchResult(pool="A", home="AIK P14", away="GAIS P14", home_goals=1, away_goals=0)
    with pytest.raises(DeskRefused, match="match 2 is AIK P14 v Örebro SK P14 in A"):
        backend.submit(CorrectResult(who="anna", why="x", number=2, result=wrong))
    with pytest.raises(DeskRefused, match="not known yet"):
        backend.submit(CorrectResult(who="anna", why="x", number=knockout.number, result=wrong))
    assert backend.data() is before


def test_the_protest_window_locks_a_result(day: tuple[MemoryBackend, Clock]) -> None:
    backend, clock = day
    clock.at = NOON + timedelta(hours=1, minutes=1)
    backend.tick()
    with pytest.raises(DeskRefused, match="protest window closed at 14:35"):
        backend.submit(CorrectResult(who="anna", why="late protest", number=1, result=_result(backend, 1, 0, 0)))


def test_a_decision_by_lots_settles_the_tie(day: tuple[MemoryBackend, Clock]) -> None:
    midday, _ = day
    assert View(midday.data()).unresolved() == []  # pool C has two matches to play: they may break the tie
    backend = sample_backend(Clock(NOON), played=18)  # every pool match played: GAIS and Djurgården still level
    tie, = View(backend.data()).unresolved()
    assert "lots" in tie.needs
    pool, order = tie.pool, tuple(reversed(tie.teams))
    backend.submit(RecordDecision(who="anna", why="drawn at the desk, 13:40",
                                  decision=Decision(pool=pool, method="lots", order=order)))
    view = View(backend.data())
    assert view.unresolved() == []
    ranks = {r.team: r.rank for r in view.table(pool).rows}  # type: ignore[union-attr]
    assert ranks[order[0]] < ranks[order[1]]
    backend.close()


def test_settling_a_conflict_with_the_received_result(day: tuple[MemoryBackend, Clock]) -> None:
    backend, _ = day
    conflict = backend.data().conflicts[0]
    backend.submit(SettleConflict(who="anna", why="video", conflict=conflict.id, keep="held"))
    data = backend.data()
    assert data.conflicts == ()
    assert data.results[conflict.number].result == conflict.held


def test_a_move_reaches_the_schedule(day: tuple[MemoryBackend, Clock]) -> None:
    backend, _ = day
    backend.submit(MoveMatch(who="anna", why="court 3 flooded", number=17, court="Plan 3", start=NOON))
    row = View(backend.data()).by_number[17]
    assert (row.court, row.start, row.moved) == ("Plan 3", NOON, True)


def test_ruling_on_a_reported_card(day: tuple[MemoryBackend, Clock]) -> None:
    backend, _ = day
    s = backend.data().sanctions[0]
    backend.submit(RuleSanction(who="anna", why="jury", number=s.number, team=s.team, player=s.player, matches=2))
    after = View(backend.data())
    assert after.suspensions[0].sanction.decided == "misses 2 match(es)"
    given = after.by_number[s.number]
    later = [m.number for m in after.team_matches(s.team) if m.start > given.start]
    assert after.suspensions[0].misses == tuple(later[:2]) and later


def test_a_conflicting_result_cannot_replace_a_locked_one(day: tuple[MemoryBackend, Clock]) -> None:
    backend, clock = day
    conflict = backend.data().conflicts[0]
    clock.at = NOON + timedelta(hours=2)
    with pytest.raises(DeskRefused, match="protest window closed"):
        backend.submit(SettleConflict(who="anna", why="video", conflict=conflict.id, keep="held"))
    backend.submit(SettleConflict(who="anna", why="after the window", conflict=conflict.id, keep="stored"))
    assert backend.data().conflicts == ()
    assert backend.data().results[conflict.number].result == conflict.stored


def test_settling_an_abandoned_match_closes_the_tables_report(day: tuple[MemoryBackend, Clock]) -> None:
    backend, _ = day
    row = View(backend.data()).by_number[13]
    backend.report_abandoned(Abandoned(id="a1", number=13, court=row.court, home_goals=2, away_goals=1,
                                       received=NOON))
    view = View(backend.data())
    assert view.abandoned(13) is not None and view.abandoned(12) is None
    command = forms.abandoned_command(view, "anna", 13, {"settle": "leader", "home_goals": "2", "away_goals": "1",
                                                         "why": "no ice time left"})
    assert isinstance(command, CorrectResult) and command.settles == "a1"
    backend.submit(command)
    after = View(backend.data())
    assert after.data.abandoned == () and after.by_number[13].recorded is not None


def test_a_plain_result_for_an_abandoned_match_settles_the_report_too(day: tuple[MemoryBackend, Clock]) -> None:
    backend, _ = day
    row = View(backend.data()).by_number[13]
    backend.report_abandoned(Abandoned(id="a1", number=13, court=row.court, home_goals=0, away_goals=0,
                                       received=NOON))
    view = View(backend.data())
    walkover = forms.walkover_command(view, "anna", 13, {"kind": "forfeit", "winner": row.home,
                                                         "why": "the away team would not go on"})
    assert walkover.settles == "a1"
    backend.submit(forms.result_command(view, "anna", 13, {"home_goals": "3", "away_goals": "0", "why": "x"}))
    assert backend.data().abandoned == ()
