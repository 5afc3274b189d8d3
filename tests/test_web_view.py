"""The pages' derived data: teams filled into the schedule, now and next per court, the protest
window, suspensions from the disciplinary register, delays."""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from rules import progress
from rules.standings import MatchResult
from server.plan import load_plan
from server.web.inputs import Presence, RecordedResult, Sanction
from server.web.service_backend import ServiceBackend
from server.web.view import View, protest_window
from tests.random_desk import random_desk_day
from tests.service_support import HOCKEY, running_service
from tests.web_day import sample_day


@functools.cache
def _view(played: int = 12) -> View:
    """The sample day's snapshot with ``played`` matches played (one day each, made once)."""
    with sample_day(played) as day:
        return day.view()


def test_pool_places_fill_the_quarter_finals_once_the_pools_are_complete() -> None:
    view = _view(played=12)
    qf = [m for m in view.matches if m.round == "quarter_final"]
    assert qf and not any(m.home_known and m.away_known for m in qf)
    full = _view(played=18)
    qf2 = next(m for m in full.matches if m.stage == "QF2")  # 2B v 2C
    assert qf2.home_known and qf2.away_known
    assert qf2.home == full.table("B").rows[1].team  # type: ignore[union-attr]


def test_now_is_the_live_match_and_next_the_following_one() -> None:
    view = _view()
    live = [m for m in view.matches if m.live]
    assert len(live) == 1
    now, following = view.now_and_next(live[0].court)
    assert now is live[0]
    assert following is not None and following.start > now.start and following.recorded is None


def test_results_stay_provisional_for_the_protest_window_then_lock() -> None:
    view = _view()
    assert protest_window(view.data, "A") == timedelta(hours=1)  # seed 003: "senast en (1) timme"
    m = view.by_number[1]
    assert m.recorded is not None
    ended = m.recorded.recorded_at  # when the table's result was stored
    assert m.locked_at == ended + timedelta(hours=1)
    assert not m.locked(ended + timedelta(minutes=59))
    assert m.locked(ended + timedelta(hours=1))


def test_no_protest_window_means_no_lock() -> None:
    view = _view()
    data = replace(view.data, rulesets={"": view.data.rulesets[""].replace(protest_window=None)})
    assert View(data).by_number[1].locked_at is None


def test_a_sent_off_player_misses_the_teams_next_match() -> None:
    view = _view()
    first = view.by_number[1]
    red = Sanction(number=1, team=first.home, player="9", kind="red", label="Red card", suspended_matches=1,
                   needs_decision=False)
    after = View(replace(view.data, sanctions=(red,)))
    later = [m.number for m in after.team_matches(first.home) if m.start > first.start]
    assert [s.player for s in after.suspended(later[0])] == ["9"]
    assert after.suspended(later[1]) == []
    assert after.pending_rulings() == []


def test_a_reported_card_waits_for_the_organisers_ruling() -> None:
    view = _view()
    gm = Sanction(number=1, team=view.by_number[1].away, player="4", kind="game_misconduct", label="Game misconduct",
                  suspended_matches=0, needs_decision=True)
    after = View(replace(view.data, sanctions=(gm,)))
    assert after.pending_rulings() == [gm]
    assert all(not after.suspended(m.number) for m in after.matches)


def test_delay_against_the_schedule() -> None:
    view = _view()
    offline = [c for c, p in view.data.presence.items() if not p.online]
    assert offline
    now, _ = view.now_and_next(offline[0])
    assert now is not None and not now.live
    assert view.delay(offline[0]) == view.data.now - now.start
    later = View(replace(view.data, now=now.start - timedelta(minutes=5)))
    assert later.delay(offline[0]) == timedelta(0)


def test_a_stored_result_the_rules_refuse_is_shown_not_raised() -> None:
    view = _view()
    m = view.by_number[13]
    bad = RecordedResult(number=13, result=MatchResult(pool=m.stage, home=m.home, away="Nobody FC", home_goals=1,
                                                       away_goals=0), recorded_at=view.data.now)
    broken = View(replace(view.data, results={**view.data.results, 13: bad}, progress=None))  # ranked by the page
    assert broken.error is not None and "Nobody FC" in broken.error
    assert broken.table("A") is None


def test_presence_names_the_match_a_table_plays() -> None:
    view = _view()
    court = view.by_number[14].court
    data = replace(view.data, presence={court: Presence(court=court, online=True, playing=14)})
    assert View(data).by_number[14].live


def test_a_walkover_shows_the_score_the_ruleset_awards_and_its_winner() -> None:
    view = _view()
    m = view.by_number[13]
    walkover = RecordedResult(number=13, recorded_at=view.data.now, result=MatchResult(
        pool=m.stage, home=m.home, away=m.away, home_goals=0, away_goals=0, outcome="walkover", winner=m.away))
    row = View(replace(view.data, results={**view.data.results, 13: walkover})).by_number[13]
    assert (row.score, row.winner) == ("0–3 w.o.", m.away)  # seed 003: "3-0 som slutresultat"
    assert view.by_number[1].winner == view.by_number[1].home  # 2-1: a table's result names no winner
    assert view.by_number[2].winner is None  # 0-0


def test_the_schedule_by_day_keeps_playing_order_and_a_team_has_its_place_in_its_pool() -> None:
    view = _view()
    days = view.days()
    assert [m for _, ms in days for m in ms] == view.matches  # every match once, in playing order
    assert all(len({m.start.date() for m in ms}) == 1 and ms[0].start == day for day, ms in days)
    assert len({day.date() for day, _ in days}) == len(days) == 2  # Saturday's pools, Sunday's knock-outs
    table = view.table("A")
    assert table is not None
    for row in table.rows:
        assert view.team_pools(row.team) == [("A", row.rank, 4)]
    assert not view.finished and _view(played=0).team_pools(table.rows[0].team) == [("A", None, 4)]


@pytest.mark.parametrize("seed", range(8))
def test_the_pages_agree_with_tournament_show_on_the_results_that_count(mosquitto: Any, tmp_path: Path,
                                                                        seed: int) -> None:
    """Issue 31: after corrections the pages showed results that no longer counted. For random days of results,
    corrections, walk-overs and decisions at the desk of the real service, what the pages derive (each match's
    result, the pool tables, the final ranking, whether the day is over) is what the tournament's rules make of
    the results that count (the progress `courtside tournament show` prints), with no stored result shown under
    teams it was not played by."""
    broker = mosquitto()
    with running_service(f"sqlite:///{tmp_path / 'day.db'}", broker.url, plan=load_plan(HOCKEY)) as service:
        backend = ServiceBackend(service)
        random_desk_day(backend, random.Random(seed), steps=60)
        view = View(backend.data())
    counted = [m.recorded.result for m in view.matches if m.recorded is not None]
    data = view.data
    shown = progress(data.cup.classes[0].tournament, data.rulesets[""], data.entry_teams, counted,  # strict: as show
                     data.decisions)
    assert [t for _, t, _ in view.final_ranking()] == [s.team or s.text for s in shown.final_ranking]
    for pool, state in shown.pools.items():
        mine = view.table(pool)
        assert (mine is None) == (state.table is None), pool
        if mine is not None and state.table is not None:
            assert [(r.team, r.points, r.rank) for r in mine.rows] == [
                (r.team, r.points, r.rank) for r in state.table.rows], pool
    for m in view.matches:
        if m.recorded is not None:
            assert {m.recorded.result.home, m.recorded.result.away} == {m.home, m.away}, m.number
    assert view.finished == all(m.recorded is not None for m in view.matches)
    assert counted, "the day played something"


def test_a_snapshot_with_only_a_new_live_state_keeps_the_rows_and_a_match_starting_changes_them() -> None:
    data = _view().data
    assert data.progress is not None  # the service's own: the rows are kept for the next snapshot
    view = View(replace(data, version=data.version + 1))
    again = View(replace(data, version=data.version + 2, now=data.now + timedelta(seconds=1)))
    assert again.matches is view.matches  # the same results, moves and matches being played
    waiting = next(m for m in view.matches if m.recorded is None and not m.live)
    court = waiting.court
    started = View(replace(data, version=data.version + 3, presence={
        **data.presence, court: Presence(court=court, online=True, playing=waiting.number)}))
    assert started.matches is not view.matches and started.by_number[waiting.number].live
    assert started.on_court(court) == [m for m in started.matches if m.court == court]
    assert started.stage_matches(waiting.stage) == [m for m in started.matches if m.stage == waiting.stage]
    team = waiting.home
    assert started.team_matches(team) == [m for m in started.matches if team in m.teams()]
    fresh = View(replace(data, version=data.version + 4, results={**data.results}))  # stored results read again
    assert fresh.matches is not view.matches and fresh.matches == view.matches


def test_a_player_is_named_from_the_team_sheet_unless_the_class_keeps_names_off_the_pages(tmp_path: Path) -> None:
    from datetime import datetime

    from rules import TournamentSchedule
    from server.web.inputs import TournamentData

    examples = Path(__file__).resolve().parent.parent / "rules" / "examples"
    text = (examples / "ice-hockey.toml").read_text(encoding="utf-8")
    for names, label in ((True, "#13 Hugo Ekström"), (False, "#13")):
        copy = tmp_path / f"cup-{names}.toml"
        flag = f'ruleset = "ice-hockey"\nplayer_names = {str(names).lower()}'
        copy.write_text(text.replace('ruleset = "ice-hockey"', flag, 1).replace('sheet = "', f'sheet = "{examples}/'),
                        encoding="utf-8")
        plan = load_plan(copy)
        data = TournamentData(version=1, now=datetime(2026, 4, 11, 7), cup=plan.cup, rulesets=plan.rulesets,
                              entry_teams=plan.entry_teams, sheets=plan.sheets,
                              schedule=TournamentSchedule(matches=tuple(plan.fixtures.values())))
        v = View(data)
        assert v.player_label("A", "Wolves AA", "13") == label
        assert v.player_label("A", "Wolves AA", "99") == "#99" and v.player_label("A", "Wolves AA", None) == ""
