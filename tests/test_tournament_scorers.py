"""rules/tournament/scorers.py: a class's top scorers from its matches' timelines, played by the engine."""

from __future__ import annotations

from rules.match import ClockStarted, Goal, GoalDisallowed, Match, ShootoutAttempt
from rules.match.timeline import MatchTimeline, match_timeline
from rules.ruleset import load_ruleset
from rules.tournament.scorers import PlayedMatch, Scorer, top_scorers

HOCKEY = load_ruleset("indoor-hockey")


def timeline(goals: list[tuple[str, str | None]], disallowed: int | None = None) -> MatchTimeline:
    match = Match(HOCKEY)
    match.apply(ClockStarted(at=0))
    for i, (side, player) in enumerate(goals):
        applied = match.apply(Goal(at=1000 * (i + 1), team=side, player=player))  # type: ignore[arg-type]
        if i == disallowed:
            match.apply(GoalDisallowed(at=1000 * (i + 1) + 500, target=applied.event.seq))
    return match_timeline(HOCKEY, match.events)


def test_most_goals_first_equal_goals_share_a_place_and_only_goals_that_count_are_anyone_s() -> None:
    played = [
        PlayedMatch(1, "Köln", "Praha", timeline([("home", "9"), ("away", "7"), ("home", "9"), ("home", None)])),
        # Praha's 7 scores twice, but the second is disallowed; Minsk's 11 once.
        PlayedMatch(2, "Praha", "Minsk", timeline([("home", "7"), ("home", "7"), ("away", "11")], disallowed=1)),
    ]
    rows = top_scorers(played, lambda team, number: f"{team} #{number}")
    assert rows[0] == Scorer(team="Köln", player="9", label="Köln #9", goals=2, matches=(1,), rank=1)
    assert [(r.rank, r.team, r.player, r.goals, r.matches) for r in rows] == [
        (1, "Köln", "9", 2, (1,)),
        (1, "Praha", "7", 2, (1, 2)),  # one in each match: the disallowed one is nobody's
        (3, "Minsk", "11", 1, (2,)),
    ]


def test_a_shoot_out_s_attempts_are_not_goals() -> None:
    ruleset = load_ruleset("indoor-football")
    match = Match(ruleset, stage="knockout", round="final")
    at = 0
    match.apply(ClockStarted(at=at))
    while match.state_at(at).phase != "shootout":
        at += 60_000
        state = match.state_at(at)
        if state.phase != "shootout" and not state.running:
            match.apply(ClockStarted(at=at))
    match.apply(ShootoutAttempt(at=at + 1000, team="home", scored=True, player="10"))
    played = [PlayedMatch(4, "A", "B", match_timeline(ruleset, match.events, stage="knockout", round="final"))]
    assert top_scorers(played, lambda team, number: number) == ()
