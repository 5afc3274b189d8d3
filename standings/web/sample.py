"""A tournament day half played, for the screenshots, the load benchmark and a look at the pages
without a service: the youth-football example with results, a live match, a court offline,
a conflicting result, a red card and a tie waiting for lots."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from importlib import resources

from rules.live import LiveBoard, live_board
from rules.match import ClockStarted, ClockStopped, Goal, Match, PeriodAdvanced
from rules.ruleset import load_ruleset
from rules.standings import MatchResult
from standings.web.inputs import Conflict, Presence, Sanction
from standings.web.memory import MemoryBackend

EXAMPLE = "youth-football.toml"
# Matches 1-12 of the example's schedule, as home-away goals: GAIS and Djurgården (pool C) end level
# on everything, their match drawn: only lots can settle it (the seed's last criterion).
SCORES = {1: (2, 1), 2: (0, 0), 3: (3, 1), 4: (1, 1), 5: (2, 2), 6: (2, 2), 7: (1, 0), 8: (4, 0), 9: (2, 3),
          10: (1, 1), 11: (0, 2), 12: (1, 1)}


def example_path() -> str:
    return str(resources.files("rules.examples") / EXAMPLE)


def sample_backend(clock: Callable[[], datetime] | None = None, *, played: int = 12) -> MemoryBackend:
    start = datetime(2026, 5, 16, 13, 35)
    backend = MemoryBackend.from_file(example_path(), clock=clock or (lambda: start))
    rows = sorted(backend.data().schedule.matches, key=lambda m: m.number)
    for m in rows[:played]:
        home, away = SCORES.get(m.number, (1, 0))
        backend.publish_result(m.number, MatchResult(pool=m.stage, home=m.home, away=m.away, home_goals=home,
                                                     away_goals=away))
    following = rows[played] if played < len(rows) else None
    if following is not None:
        backend.set_live(following.court, live_state(following.number, 2, 1, running=True))
        # Sent off in the live home team's previous match: it misses the one being played now.
        earlier = [m for m in rows[:played] if following.home in (m.home, m.away)]
        if earlier:
            backend.report_sanction(Sanction(number=earlier[-1].number, team=following.home, player="7", kind="red",
                                             label="Red card", suspended_matches=1, needs_decision=False))
        stored = MatchResult(pool=rows[1].stage, home=rows[1].home, away=rows[1].away, home_goals=0, away_goals=0)
        backend.hold_conflict(Conflict(id="c1", number=rows[1].number, court=rows[1].court, stored=stored,
                                       held=MatchResult(**{**stored.__dict__, "home_goals": 1}),
                                       received=start - timedelta(minutes=20),
                                       reason="a second result differs from the stored one"))
        courts = backend.data().tournament.schedule.courts
        backend.set_presence(Presence(court=courts[-1], online=False, last_seen=start - timedelta(minutes=7),
                                      last_message="result of match 12", last_kind="result", last_match=12))
    return backend


def live_state(number: int, home: int, away: int, *, running: bool, clock_ms: int = 14 * 60_000 + 25_000) -> LiveBoard:
    """The board a table publishes for match ``number`` in the second half, ``clock_ms`` left, made by playing
    the engine: ``home``-``away`` goals in the first half, then the second half started."""
    ruleset = load_ruleset("youth-football")
    match = Match(ruleset, stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    at = 0
    for side, goals in (("home", home), ("away", away)):
        for _ in range(goals):
            at += 60_000
            match.apply(Goal(at=at, team=side))  # type: ignore[arg-type]
    half = ruleset.match.period_length
    match.apply(PeriodAdvanced(at=half))
    second = half + ruleset.match.intervals[0]
    match.apply(ClockStarted(at=second))
    at = second + half - clock_ms
    if not running:
        match.apply(ClockStopped(at=at))
    return live_board(match.state_at(at), ruleset, str(number))
