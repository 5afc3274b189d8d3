"""A match's timeline: what counts of its log, each line with its period, the time played and the score after it."""

from __future__ import annotations

from rules.match import (
    ClockStarted,
    Goal,
    GoalDisallowed,
    PenaltyAwarded,
    ShootoutAttempt,
    TimeoutStarted,
    Undo,
)
from rules.match.timeline import match_timeline
from rules.ruleset import load_ruleset

S, MIN = 1000, 60_000


def test_an_ice_hockey_match_lists_its_goals_and_penalties_with_the_time_played_in_their_period() -> None:
    hockey = load_ruleset("ice-hockey")  # 2 x 15:00, the clock counting down
    log = [
        ClockStarted(at=0, seq=1),
        Goal(at=3 * MIN + 12 * S, seq=2, team="home", player="7"),  # a goal stops the clock
        PenaltyAwarded(at=3 * MIN + 12 * S, seq=3, team="away", kind="minor", player="4"),
        ClockStarted(at=3 * MIN + 30 * S, seq=4),
        Goal(at=4 * MIN, seq=5, team="home", player="9"),  # on the power play
        ClockStarted(at=4 * MIN + 10 * S, seq=6),
        Goal(at=5 * MIN, seq=7, team="away", player="11"),
        Undo(at=5 * MIN + 5 * S, seq=8, target=7),  # pressed by mistake: it never counted, the clock ran on
        ClockStarted(at=17 * MIN, seq=9),  # the second period, after the first ended (15:28) and the interval
        Goal(at=18 * MIN, seq=10, team="away", player="4"),
        GoalDisallowed(at=18 * MIN + 20 * S, seq=11, target=10),
    ]
    timeline = match_timeline(hockey, log)
    lines = [(x.kind, x.team, x.player, x.period, x.played_text, x.home_goals, x.away_goals) for x in timeline.lines]
    assert lines == [
        ("goal", "home", "7", 1, "3:12", 1, 0),
        ("penalty", "away", "4", 1, "3:12", 1, 0),
        ("goal", "home", "9", 1, "3:42", 2, 0),  # the clock stood still for 18 s: 3:42 played, not 4:00
        ("goal", "away", "4", 2, "1:00", 2, 1),
        ("goal_disallowed", None, None, 2, "1:00", 2, 0),  # the goal stopped the clock
    ]
    assert timeline.lines[1].penalty == "minor" and timeline.lines[1].length_ms == 2 * MIN
    assert timeline.lines[4].target == 10
    assert timeline.scorers() == {("home", "7"): 1, ("home", "9"): 1}  # the disallowed and undone goals are no one's
    assert timeline.outcome is None and (timeline.home_goals, timeline.away_goals) == (2, 0)  # still being played


def test_a_shootout_is_told_attempt_by_attempt_and_says_how_the_match_ended() -> None:
    futsal = load_ruleset("indoor-football")
    log = [ClockStarted(at=0, seq=1), ClockStarted(at=11 * MIN, seq=2)]  # two halves of 10:00, level 0-0
    shots = [("away", True, "9"), ("home", False, "5"), ("away", True, "10"), ("home", False, "8")]
    for i, (team, scored, player) in enumerate(shots):
        log.append(ShootoutAttempt(at=23 * MIN + i * S, seq=3 + i, team=team, scored=scored,  # type: ignore[arg-type]
                                   player=player))
    timeline = match_timeline(futsal, log, stage="knockout")
    attempts = [(x.team, x.player, x.scored, x.home_shootout, x.away_shootout, x.played_text)
                for x in timeline.lines if x.kind == "shootout_attempt"]
    assert attempts == [("away", "9", True, 0, 1, ""), ("home", "5", False, 0, 1, ""),
                        ("away", "10", True, 0, 2, ""), ("home", "8", False, 0, 2, "")]
    assert timeline.outcome == "shootout" and timeline.scorers() == {}
    assert {x.period_kind for x in timeline.lines} == {"shootout"}


def test_a_water_polo_time_out_is_a_line_of_its_team() -> None:
    polo = load_ruleset("water-polo")
    log = [ClockStarted(at=0, seq=1), TimeoutStarted(at=2 * MIN + 30 * S, seq=2, team="away")]
    (line,) = match_timeline(polo, log, stage="knockout", round="final").lines  # time-outs in the finals only
    assert (line.kind, line.team, line.period, line.played_text) == ("timeout", "away", 1, "2:30")
