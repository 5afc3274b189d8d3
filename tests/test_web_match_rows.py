"""A snapshot's match rows made from the last snapshot's (server.web.match_rows): the rows a page gets are the rows
made afresh, whatever the day did in between, and a result makes its own row again, not the cup's."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from rules import MatchResult, ScheduledMatch, parse_placeholder
from server.plan import load_plan
from server.web.inputs import Presence, RecordedResult
from server.web.match_rows import MatchRow, MatchRows, RowMaker
from server.web.service_backend import ServiceBackend
from server.web.view import View, being_played
from tests.random_desk import random_desk_day
from tests.service_support import HOCKEY, running_service
from tests.web_day import sample_day


def _afresh(view: View) -> MatchRows:
    """The view's rows as a maker that never saw another snapshot makes them."""
    return RowMaker().rows(view.data, view.progress, view.class_progress, being_played(view.data))


def _same(view: View, fresh: MatchRows) -> None:
    """The same rows and indexes, and the same worked out of them: asked here, it is kept with the rows, and the
    next snapshot's rows keep what their replaced rows left as it was."""
    assert view.matches == fresh.matches
    assert view.by_number == fresh.by_number
    for kind in ("court", "stage", "team", "class"):
        assert view._by[kind] == fresh.by[kind], kind
    rows, now = view._rows_made, view.data.now
    for court in fresh.by["court"]:
        assert rows.now_and_next(court) == fresh.now_and_next(court), court
    for kind in ("court", "stage"):
        for key in fresh.by[kind]:
            for at in (now, now + timedelta(hours=2)):
                assert rows.locked_in(kind, key, at) == fresh.locked_in(kind, key, at), (kind, key, at)
    assert rows.played == fresh.played and rows.finished == fresh.finished


@pytest.mark.parametrize("seed", range(4))
def test_the_rows_made_from_the_last_snapshots_are_the_rows_made_afresh(mosquitto: Any, tmp_path: Path,
                                                                         seed: int) -> None:
    """A day of results, corrections, walk-overs, decisions and moves at the real service's desk (the seed's
    indoor hockey: its pools' places fill the knock-out matches), with tables starting and stopping matches: after
    every step the rows are the rows made afresh."""
    broker = mosquitto()
    rng = random.Random(seed)
    checked = []

    def check(view: View) -> None:
        _same(view, _afresh(view))
        waiting = [m for m in view.matches if m.recorded is None]
        if waiting and rng.random() < 0.5:  # a table starts one of them (or the court's table goes quiet)
            m = rng.choice(waiting)
            data = view.data
            started = View(replace(data, version=data.version + 1, presence={
                **data.presence, m.court: Presence(court=m.court, online=rng.random() < 0.8, playing=m.number)}))
            _same(started, _afresh(started))
        checked.append(view.data.version)

    with running_service(f"sqlite:///{tmp_path / 'day.db'}", broker.url, plan=load_plan(HOCKEY)) as service:
        backend = ServiceBackend(service)
        random_desk_day(backend, rng, steps=50, moves=True, after=check)
    assert len(checked) > 20, "the day went on"


def test_a_tables_result_makes_its_own_row_again_and_keeps_the_others() -> None:
    with sample_day(12) as day:
        before = day.view()
        m = next(r for r in before.matches if r.recorded is None and r.home_known and r.away_known and r.is_pool)
        day.play(m.number, 2, 1)
        after = day.view()
    assert after.by_number[m.number].recorded is not None
    changed = {r.number for r in after.matches if r is not before.by_number[r.number]}
    # Made again: its own row, and those a placeholder names (its pool's places may be known now), no other.
    named = {s.number for s in after.data.schedule.matches if parse_placeholder(s.home) or parse_placeholder(s.away)}
    assert m.number in changed and changed <= {m.number} | named
    other = next(r for r in before.matches if r.stage != m.stage and r.recorded is not None)
    assert after.by_number[other.number] is other


def test_a_result_for_a_match_the_schedule_lacks_makes_no_row() -> None:
    with sample_day(12) as day:
        view = day.view()
    data = view.data
    stray = next(iter(data.results.values()))
    after = View(replace(data, version=data.version + 1, results={**data.results, 999: replace(stray, number=999)}))
    assert 999 not in after.by_number and after.matches == view.matches


def _row(number: int, court: str, minute: int, **kw: Any) -> MatchRow:
    start = datetime(2026, 12, 6, 9, 0) + timedelta(minutes=minute)
    scheduled = ScheduledMatch(number=number, stage=kw.pop("stage", "A"), round="pool", kind="round_robin",
                               home=f"H{number}", away=f"A{number}", court=court, start=start,
                               end=start + timedelta(minutes=20), class_name=kw.pop("class_name", ""))
    return MatchRow(scheduled=scheduled, home=kw.pop("home", f"H{number}"),
                    away=kw.pop("away", f"A{number}"), home_known=True, away_known=True, recorded=None, live=False,
                    locked_at=None, moved=False, **kw)


def test_a_row_that_keeps_its_place_is_replaced_where_it_stands_and_a_moved_one_orders_them_again() -> None:
    rows = MatchRows.of([_row(2, "Hall 2", 0), _row(1, "Hall 1", 0), _row(3, "Hall 1", 30)])
    assert [r.number for r in rows.matches] == [1, 2, 3]
    versioned = replace(rows.by_number[1], version="v2")
    again = rows.replaced([versioned])
    assert again.matches[0] is versioned and again.by["court"]["Hall 1"][0] is versioned
    assert again.by["team"]["H1"] == [versioned] and again.by["stage"]["A"][0] is versioned
    assert rows.by_number[1].version == "" and rows.by["court"]["Hall 1"][0].version == ""  # the older untouched
    first = rows.by_number[1]
    later = rows.by_number[3].start + timedelta(minutes=30)
    moved = replace(first, scheduled=first.scheduled.replace(court="Hall 2", start=later), moved=True)
    last = rows.replaced([moved])
    assert [r.number for r in last.matches] == [2, 3, 1]
    assert [r.number for r in last.by["court"]["Hall 2"]] == [2, 1] and [
        r.number for r in last.by["court"]["Hall 1"]] == [3]


def test_a_row_whose_teams_become_known_keeps_its_place_and_moves_between_the_teams_lists_only() -> None:
    """A knock-out's result names the next match's team: the row stands where it stood in the order and in its
    court's, stage's and class's lists, leaves the placeholder's list and joins its team's in playing order; the
    same rows ordered and indexed afresh are the same."""
    rows = MatchRows.of([_row(1, "Hall 1", 0, home="winner QF1", away="winner QF2"), _row(2, "Hall 2", 0),
                         _row(3, "Hall 1", 30, home="Kalmar"), _row(4, "Hall 1", 60, home="winner QF1")])
    known = replace(rows.by_number[1], home="Kalmar", away="Lund")
    again = rows.replaced([known])
    fresh = MatchRows.of([known, *(r for r in rows.matches if r.number != 1)])
    assert again.matches == fresh.matches and again.by_number == fresh.by_number
    for kind in ("court", "stage", "team", "class"):
        assert again.by[kind] == fresh.by[kind], kind
    assert [r.number for r in again.by["team"]["Kalmar"]] == [1, 3]  # in playing order
    assert [r.number for r in again.by["team"]["winner QF1"]] == [4] and "winner QF2" not in again.by["team"]
    assert again.matches[0] is known and again.by["court"]["Hall 1"][0] is known
    assert again.by["court"]["Hall 2"] is rows.by["court"]["Hall 2"]  # not ordered and indexed again
    assert [r.number for r in rows.by["team"]["winner QF1"]] == [1, 4]  # the older rows untouched
    back = again.replaced([replace(known, home="winner QF1", away="winner QF2")])  # a correction: open again
    assert back.by["team"] == rows.by["team"]


def test_what_a_court_shows_is_worked_out_once_for_its_rows_and_again_for_new_rows() -> None:
    """The live pages ask each court's now and next and its locked matches in every round: kept with the rows, and
    for new rows (a result, a match under way) worked out again. The locked count follows the instant asked."""
    window = timedelta(hours=1)
    first, second = _row(1, "Hall 1", 0), _row(2, "Hall 1", 30)
    rows = MatchRows.of([first, second, _row(3, "Hall 1", 60), _row(4, "Hall 2", 0)])
    nine = datetime(2026, 12, 6, 9, 0)
    assert rows.now_and_next("Hall 1") == (first, second) and rows.locked_in("court", "Hall 1", nine) == 0
    assert not rows.finished
    result = RecordedResult(number=1, result=MatchResult(pool="A", home="H1", away="A1", home_goals=1, away_goals=0),
                            recorded_at=nine + timedelta(minutes=20))
    played = replace(first, recorded=result, locked_at=result.recorded_at + window)
    under_way = replace(second, live=True)
    later = rows.replaced([played, under_way])
    assert later.now_and_next("Hall 1") == (under_way, later.by_number[3])
    assert rows.now_and_next("Hall 1") == (first, second)  # the older snapshot's rows say what they said
    assert later.locked_in("court", "Hall 1", nine + window) == 0  # its protest window still open
    assert later.locked_in("court", "Hall 1", nine + 2 * window) == 1
    assert later.locked_in("stage", "A", nine + 2 * window) == 1 and later.locked_in("court", "Hall 2", nine) == 0
    done = MatchRows.of([replace(r, recorded=replace(result, number=r.number)) for r in later.matches])
    assert done.finished


def test_a_lock_between_two_instants_is_a_protest_window_closing_after_the_first_and_by_the_second() -> None:
    nine = datetime(2026, 12, 6, 9, 0)
    closes = nine + timedelta(hours=1)
    rows = MatchRows.of([replace(_row(1, "Hall 1", 0), locked_at=closes), _row(2, "Hall 1", 30)])
    assert rows.locks_between(nine, closes) and rows.locks_between(closes - timedelta(seconds=1), closes)
    assert not rows.locks_between(nine, closes - timedelta(seconds=1))
    assert not rows.locks_between(closes, closes + timedelta(hours=5))  # closed already at the first
