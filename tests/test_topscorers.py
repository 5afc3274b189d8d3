"""server/topscorers.py: each class's top scorers, sent (retained) for the venue screens after a result."""

from __future__ import annotations

from typing import Any

from rules import read_cup_file
from rules.match import ClockStarted, Goal, GoalDisallowed, Match, PeriodAdvanced, Side, event_to_dict
from rules.published_scorers import PublishedScorer, PublishedScorers
from rules.result import result_payload
from rules.ruleset import Ruleset
from server import queries
from server.plan import load_plan
from server.store import Store
from server.timelines import Timelines
from server.topscorers import TopScorers
from tests.service_support import EXAMPLES, TableClient, running_service

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
