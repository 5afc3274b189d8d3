"""server/topscorers.py: each class's top scorers, sent (retained) for the venue screens after a result."""

from __future__ import annotations

from typing import Any

from rules import protocol as p
from rules import read_cup_file
from rules.match import ClockStarted, Goal, GoalDisallowed, Match, PeriodAdvanced, Side, event_to_dict
from rules.published_scorers import PublishedScorer, PublishedScorers
from rules.result import result_payload
from rules.ruleset import Ruleset
from server import desk, queries
from server.plan import load_plan
from server.service import Service
from server.store import Store
from server.timelines import Timelines
from server.topscorers import TopScorers
from tests.service_support import EXAMPLES, TableClient, running_service, stored_with_ids

ICE_HOCKEY = EXAMPLES / "ice-hockey.toml"


def with_scorers(ruleset: Ruleset, goals: list[tuple[Side, str]], disallowed: int | None = None
                 ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A whole match whose goals are scored by (side, shirt number), in order; goal ``disallowed`` (its index)
    taken back by the referee."""
    match = Match(ruleset, stage="round_robin", round="pool")
    at = 0
    match.apply(ClockStarted(at=at))
    for i, (side, player) in enumerate(goals):
        at += 1000
        applied = match.apply(Goal(at=at, team=side, player=player))
        if i == disallowed:
            at += 1000
            match.apply(GoalDisallowed(at=at, target=applied.event.seq))
    while match.result() is None:
        at += 1000
        state = match.state_at(at)
        match.apply(ClockStarted(at=at) if state.phase != "play" or not state.running else PeriodAdvanced(at=at))
    outcome = match.result()
    assert outcome is not None
    return [event_to_dict(e) for e in match.events], result_payload(outcome)


def test_after_a_result_the_class_s_scorers_go_out_named_from_the_team_sheet(mosquitto: Any, db_url: str) -> None:
    broker = mosquitto()
    plan = load_plan(ICE_HOCKEY)
    with running_service(db_url, broker.url, plan=plan) as service:
        bears = next(f for f in queries.schedule(service.store) if "Bears AA" in (f.home, f.away))
        side: Side = "home" if bears.home == "Bears AA" else "away"
        other: Side = "away" if side == "home" else "home"
        opponent = bears.away if side == "home" else bears.home
        assert opponent == "Wolves AA"  # whose sheet is in the file itself: "#9 Noah Sjöberg"
        table = TableClient(broker.url, plan.id, bears.court)
        # Bears AA's 30 scores twice and 5 once (a second goal of 5's is disallowed); the opponent's 9 once.
        events, result = with_scorers(plan.ruleset_of(bears.stage), [(side, "30"), (side, "5"), (side, "5"),
                                                                     (other, "9"), (side, "30")], disallowed=2)
        table.play(bears.match_id, events, result)
        sent = table.wait_for("scorers", lambda m: m.body is not None and bool(m.body.rows))
        assert sent.body == PublishedScorers(class_name="", rows=(
            PublishedScorer(rank=1, team="Bears AA", label="#30 Vincent Dahl", goals=2),
            PublishedScorer(rank=2, team="Bears AA", label="#5 Leo Forsberg", goals=1),
            PublishedScorer(rank=2, team=opponent, label=plan.sheets[opponent].label("9"), goals=1),
        ))
        # The next match on the court: its three goals by one player top the list, the first match's still count.
        after = next(f for f in queries.schedule(service.store) if f.court == bears.court and f.start > bears.start
                     and f.home and f.away and f.stage == bears.stage)
        events, result = with_scorers(plan.ruleset_of(after.stage), [("home", "7")] * 3)
        table.play(after.match_id, events, result)
        sent = table.wait_for("scorers", lambda m: isinstance(m.body, PublishedScorers) and m.body.rows[0].goals == 3)
        assert isinstance(sent.body, PublishedScorers)
        assert [(r.rank, r.team, r.goals) for r in sent.body.rows[:2]] == [(1, after.home, 3), (2, "Bears AA", 2)]
        assert sum(r.goals for r in sent.body.rows) == 4 + 3
        table.close()


def test_a_class_that_keeps_its_results_off_the_pages_has_no_scorers(db_url: str) -> None:
    cup = read_cup_file(EXAMPLES / "youth-cup.toml")
    hidden = next(c.name for c in cup.classes if not c.published)
    shown = next(c.name for c in cup.classes if c.published)
    store = Store.open(db_url, load_plan(EXAMPLES / "youth-cup.toml"))
    try:
        scorers = TopScorers(store, Timelines(store))
        assert scorers.of_class(hidden) is None
        assert scorers.of_class(shown) == []  # no match played yet
    finally:
        store.close()


def test_a_list_kept_from_result_to_result_is_the_one_counted_afresh(db_url: str) -> None:
    """Issue 32: each result made the class's list again from every result of the day. Kept between results, it
    takes in the new ones only, and is still the list a fresh count gives after a correction and a goal the
    referee took back once the result was in."""
    plan = load_plan(ICE_HOCKEY)
    store = Store.open(db_url, plan)
    try:
        service = Service(store, "mqtt://127.0.0.1:9", group=None)  # never connected: its messages stay queued
        kept = TopScorers(store, Timelines(store))

        def same_as_afresh() -> list[PublishedScorer]:
            rows = kept.of_class("")
            assert rows is not None and rows == TopScorers(store, Timelines(store)).of_class("")
            return rows

        order = sorted((m for m in plan.fixtures.values() if m.round == "pool"), key=lambda m: (m.start, m.number))
        goals: list[list[tuple[Side, str]]] = [[("home", "7"), ("away", "9")], [("home", "7")] * 3,
                                               [("away", "11"), ("home", "7")]]
        last_events: list[dict[str, Any]] = []
        for m, scored in zip(order, goals, strict=False):
            events, result = with_scorers(plan.ruleset_of(m.stage), scored)
            court = plan.court_id(m.court)
            topic = p.court_topic(plan.id, court, "events")
            service._messages([
                *((topic, p.encode(p.event_message(id=f"{m.number}-{e['seq']}", court=court, match=str(m.number),
                                                   event=e))) for e in events),
                (p.court_topic(plan.id, court, "result"), p.encode(p.result_message(
                    id=f"{m.number}-result", court=court, match=str(m.number), seq=events[-1]["seq"],
                    result=result)))], set(), set())
            last_events = events
            same_as_afresh()
        assert [r.goals for r in same_as_afresh()] == [3, 1, 1, 1, 1]  # (a team and a shirt number: a player)
        # The organiser corrects the second match's score at the desk: its row is written again.
        second = str(order[1].number)
        desk.record_result(store, second, {"home_goals": 2, "away_goals": 0, "outcome": "regular",
                                           "winner": "home"}, who="ann", why="the sheet says 2-0")
        before = same_as_afresh()
        # The last match's first goal disallowed after its result: the timeline changes, the list with it.
        last = order[len(goals) - 1]
        court = plan.court_id(last.court)
        first_goal = next(e for e in last_events if e["type"] == "goal")
        service._messages([(p.court_topic(plan.id, court, "events"), p.encode(p.event_message(
            id=f"{last.number}-disallowed", court=court, match=str(last.number),
            event=event_to_dict(GoalDisallowed(seq=last_events[-1]["seq"] + 1, at=last_events[-1]["at"] + 1000,
                                               target=first_goal["seq"])))))], set(), set())
        assert sum(r.goals for r in same_as_afresh()) == sum(r.goals for r in before) - 1
    finally:
        store.close()


def test_a_goal_the_marks_passed_over_counts_once_its_match_has_its_result(db_url: str) -> None:
    """A timeline read (for a match's page) while its last goal and the events after it were held by another
    instance's transaction, whose ids are below one already read: the marks pass them over, and the list of
    scorers kept that timeline, one goal short, for the rest of the day. The result is stored only once they all
    are, and the list reads the match's timeline again with it."""
    plan = load_plan(ICE_HOCKEY)
    store = Store.open(db_url, plan)
    try:
        service = Service(store, "mqtt://127.0.0.1:9", group=None)  # never connected: its messages stay queued
        first, other = sorted((m for m in plan.fixtures.values() if m.round == "pool"),
                              key=lambda m: (m.start, m.number))[:2]
        ruleset = plan.ruleset_of(first.stage)
        events, result = with_scorers(ruleset, [("home", "7"), ("home", "7")])
        last_goal = [i for i, e in enumerate(events) if e["type"] == "goal"][-1]
        stored_with_ids(store, str(first.number), list(enumerate(events[:last_goal], start=100)))
        stored_with_ids(store, str(other.number), [(1000, event_to_dict(ClockStarted(seq=1, at=0)))])
        timelines = Timelines(store)
        scorers = TopScorers(store, timelines)
        timelines.catch_up()
        read = timelines.of(str(first.number), ruleset, first.kind, first.round)  # a match page's
        assert read is not None and read.home_goals == 1
        stored_with_ids(store, str(first.number), list(enumerate(events[last_goal:], start=200)))
        court = plan.court_id(first.court)
        service._messages([(p.court_topic(plan.id, court, "result"), p.encode(p.result_message(
            id="result", court=court, match=str(first.number), seq=events[-1]["seq"], result=result)))], set(), set())
        with store.session() as s:  # closed here: a session left to the collector returns its connection late
            assert str(first.number) in store.results_by_match(s)
        rows = scorers.of_class("")
        assert rows is not None and [(r.label, r.goals) for r in rows] == [(rows[0].label, 2)]
    finally:
        store.close()
