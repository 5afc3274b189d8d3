"""server/timelines.py: a match's timeline from its stored events, on SQLite and PostgreSQL; replayed again only
once a new event is stored and caught up with (a snapshot does, before its pages ask), and the matches with new
events named by ``catch_up``."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from rules import protocol as p
from rules.match import ClockStarted, Goal, GoalDisallowed, Match, event_to_dict
from server.ingest import fixtures_of, ingest
from server.store import Store
from server.timelines import Timelines
from tests.service_support import stored_with_ids

START = datetime(2026, 5, 16, 9, 0, tzinfo=UTC)


def store_events(store: Store, match_id: str, events: list[dict[str, Any]]) -> None:
    """The events as a table sends them, stored in one transaction as the service's loop stores a batch."""
    court = store.plan.court_id(store.plan.fixtures[match_id].court)
    with store.session.begin() as s:
        batch = fixtures_of(s, store)
        for e in events:
            m = p.event_message(id=uuid.uuid4().hex, court=court, match=match_id, event=e)
            assert ingest(store, s, m, START, batch).status == "stored"


def played(store: Store, match_id: str) -> tuple[Match, list[dict[str, Any]]]:
    """The first minutes of ``match_id`` played on the engine: the clock started, a home goal by 7, an away
    goal by 9."""
    f = store.plan.fixtures[match_id]
    match = Match(store.plan.ruleset_of(f.stage), stage=f.kind, round=f.round)
    match.apply(ClockStarted(at=0))
    match.apply(Goal(at=60_000, team="home", player="7"))
    match.apply(Goal(at=120_000, team="away", player="9"))
    return match, [event_to_dict(e) for e in match.events]


def timeline_of(timelines: Timelines, store: Store, match_id: str) -> Any:
    f = store.plan.fixtures[match_id]
    return timelines.of(match_id, store.plan.ruleset_of(f.stage), f.kind, f.round)


def test_a_timeline_is_its_stored_events_replayed_once_until_a_new_one_is_stored(store: Store) -> None:
    first, other = sorted(store.plan.fixtures, key=int)[:2]
    timelines = Timelines(store)
    assert timeline_of(timelines, store, first) is None  # no event yet: the page has nothing to show

    match, events = played(store, first)
    store_events(store, first, events)
    assert timeline_of(timelines, store, first) is None  # not caught up with: a snapshot's pages read as one
    timelines.catch_up()
    shown = timeline_of(timelines, store, first)
    assert (shown.home_goals, shown.away_goals) == (1, 1)
    assert [(line.kind, line.seq) for line in shown.lines if line.kind == "goal"] == [("goal", 2), ("goal", 3)]
    assert timeline_of(timelines, store, first) is shown  # nothing new: not replayed again

    # The referee takes the home goal back: the next look replays the log with it.
    taken_back = match.apply(GoalDisallowed(at=150_000, target=2)).event
    store_events(store, first, [event_to_dict(taken_back)])
    assert timeline_of(timelines, store, first) is shown
    timelines.catch_up()
    now = timeline_of(timelines, store, first)
    assert now is not shown and (now.home_goals, now.away_goals) == (0, 1)
    assert timeline_of(timelines, store, other) is None  # another match's events are its own


def test_catch_up_names_each_match_with_events_and_its_newest(store: Store) -> None:
    first, second = sorted(store.plan.fixtures, key=int)[:2]
    timelines = Timelines(store)
    timelines.catch_up()
    assert timelines.marks() == {}
    store_events(store, first, played(store, first)[1])
    assert timelines.marks() == {}  # as last caught up: a snapshot's pages all see the same marks
    timelines.catch_up()
    marks = timelines.marks()
    assert set(marks) == {first}
    store_events(store, second, played(store, second)[1])
    timelines.catch_up()
    assert set(timelines.marks()) == {first, second} and timelines.marks()[first] == marks[first]
    assert timelines.marks()[second] > marks[first]  # the newest stored event's id: stored later, a higher one


def goals(timeline: Any) -> tuple[int, int]:
    return timeline.home_goals, timeline.away_goals


def test_a_timeline_read_with_a_gap_in_its_seqs_is_read_again_once_the_gap_is_filled(store: Store) -> None:
    """The marks read only ids above the highest seen: an event committed after a higher id is passed over. A
    timeline read while its match's seq 2 was not yet committed (seq 3 was) is not kept, so the goal it lacked
    is shown once stored, though no newer event follows."""
    match_id = sorted(store.plan.fixtures, key=int)[0]
    started, home_goal, away_goal = played(store, match_id)[1]
    timelines = Timelines(store)
    stored_with_ids(store, match_id, [(10, started), (30, away_goal)])
    timelines.catch_up()
    assert goals(timeline_of(timelines, store, match_id)) == (0, 1)
    stored_with_ids(store, match_id, [(20, home_goal)])
    timelines.catch_up()
    assert timelines.marks()[match_id] == 30  # passed over
    assert goals(timeline_of(timelines, store, match_id)) == (1, 1)
    assert timeline_of(timelines, store, match_id) is timeline_of(timelines, store, match_id)  # whole: kept


def test_a_timeline_read_before_its_last_event_committed_is_read_again_with_the_result(store: Store) -> None:
    """The same with the last event: no gap shows it missing. A result is stored only once every event up to
    its seq is, so a timeline asked for with the match's result is read again if it was read without it."""
    match_id = sorted(store.plan.fixtures, key=int)[0]
    started, home_goal, away_goal = played(store, match_id)[1]
    f = store.plan.fixtures[match_id]
    timelines = Timelines(store)
    stored_with_ids(store, match_id, [(10, started), (30, home_goal)])
    timelines.catch_up()
    assert goals(timeline_of(timelines, store, match_id)) == (1, 0)
    stored_with_ids(store, match_id, [(20, away_goal)])
    timelines.catch_up()
    assert goals(timeline_of(timelines, store, match_id)) == (1, 0)  # the marks passed it over
    result = object()  # the caller's stored result, compared as given
    with_result = timelines.of(match_id, store.plan.ruleset_of(f.stage), f.kind, f.round, result=result)
    assert with_result is not None and goals(with_result) == (1, 1)
    assert timelines.of(match_id, store.plan.ruleset_of(f.stage), f.kind, f.round, result=result) is with_result
