"""The demo's simulated table officials: what they press during one match, decided from a seed.

A plan is worked out against the real match engine (``rules.match.Match``), the same one the
table runs, so every press in it is one the table accepts: the officials start the clock at
each period, enter goals with the scorer's number, give penalties and time-outs where the
ruleset has them, restart the clock after a stoppage, wait out the intervals, and take the
shoot-out's shots until the engine says the match is over. A press the engine refuses (a
time-out the round does not allow, a second penalty to a player already out) is simply not
made, as a real official would not make it.

``level=True`` makes the match level at the end of regular time and keeps extra time
goalless, so a knock-out goes through extra time (where the ruleset has it) to a shoot-out:
the demo shows that path on purpose in one classification match.

Times are milliseconds of the table's clock from the moment the match is loaded. The press
script (docs/press-scripts.md) is written from a plan by :mod:`courtside.demo.presses`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from rules.errors import CourtsideError
from rules.match import (
    ClockStarted,
    ClockStopped,
    Event,
    Goal,
    Match,
    PenaltyAwarded,
    PeriodAdvanced,
    ShootoutAttempt,
    TimeoutStarted,
)
from rules.ruleset import Ruleset, StageKind

Side = Literal["home", "away"]
ActionKind = Literal["start", "stop", "goal", "penalty", "timeout", "shot", "end"]

FIRST_START_MS = 3_000  # the officials settle at the table before the first whistle
RESTART_MS = (2_000, 8_000)  # a stoppage before the clock is started again
AFTER_HORN_MS = 1_500  # after a period or interval runs out, before the next press
FINAL_WHISTLE_MS = 1_000  # the officials end the match this long before its clock runs out (see plan())
SHOT_GAP_MS = (8_000, 15_000)  # between shots of a shoot-out
GOALS_PER_MATCH = 5.0  # about, both teams together
PENALTIES_PER_MATCH = 2.0
TIMEOUT_SHARE = 0.5  # how often a team that may take a time-out takes one
MAX_STEPS = 2_000  # a plan that has not finished by then is a bug, not a long match


@dataclass(frozen=True)
class Action:
    """One thing the officials do at the table, at ``at_ms`` of the table's clock."""

    at_ms: int
    kind: ActionKind
    side: Side | None = None
    player: str | None = None
    penalty: str | None = None  # the ruleset's kind name for a penalty
    scored: bool | None = None  # a shoot-out shot


@dataclass(frozen=True)
class Plan:
    """What the officials of one match press, and how it ends."""

    actions: tuple[Action, ...]
    end_ms: int  # the instant the engine says the match is over
    home_goals: int
    away_goals: int
    overtime: bool  # extra time was played
    shootout: bool  # a shoot-out decided it

    def events(self) -> list[Event]:
        """The plan as the engine's events (what the table journals when it is played)."""
        return [_event(action) for action in self.actions]


class PlanError(CourtsideError, RuntimeError):
    """The officials' plan did not bring the match to its end (a bug in the plan, not bad input)."""


def _event(action: Action) -> Event:
    at = action.at_ms
    if action.kind == "start":
        return ClockStarted(at=at)
    if action.kind == "stop":
        return ClockStopped(at=at)
    if action.kind == "end":
        return PeriodAdvanced(at=at)
    if action.kind == "timeout":
        assert action.side is not None
        return TimeoutStarted(at=at, team=action.side)
    if action.kind == "goal":
        assert action.side is not None
        return Goal(at=at, team=action.side, player=action.player)
    if action.kind == "penalty":
        assert action.side is not None and action.penalty is not None
        return PenaltyAwarded(at=at, team=action.side, kind=action.penalty, player=action.player)
    assert action.side is not None and action.scored is not None
    return ShootoutAttempt(at=at, team=action.side, scored=action.scored, player=action.player)


class _Officials:
    """Walks one match forward through the engine, deciding each press from the random source."""

    def __init__(self, ruleset: Ruleset, stage: StageKind, round: str | None, rng: random.Random, level: bool) -> None:
        self.ruleset = ruleset
        self.rng = rng
        self.level = level
        self.match = Match(ruleset, stage=stage, round=round)
        self.actions: list[Action] = []
        self.overtime = False
        m = ruleset.match
        regular_ms = m.periods * m.period_length
        self.goal_rate = GOALS_PER_MATCH / regular_ms  # per ms of play
        self.penalty_rate = PENALTIES_PER_MATCH / regular_ms if self._penalty_kinds() else 0.0
        self.timeout_at: dict[Side, int | None] = {
            side: self._pick_timeout_time(regular_ms) for side in ("home", "away")
        }
        self.played_ms = 0  # of playing time, to place the time-outs

    def _penalty_kinds(self) -> list[str]:
        """Kinds with a length that do not send a player off: the everyday ones."""
        return [
            name for name, kind in self.ruleset.penalties.kinds.items()
            if kind.length is not None and not kind.player_out_for_match
        ]

    def _pick_timeout_time(self, regular_ms: int) -> int | None:
        if self.ruleset.timeouts.per_team == 0 or self.rng.random() > TIMEOUT_SHARE:
            return None
        return self.rng.randrange(regular_ms // 4, regular_ms * 3 // 4)

    def press(self, action: Action) -> bool:
        """Make the press if the engine accepts it (as the table would); True when it did."""
        try:
            self.match.apply(_event(action))
        except CourtsideError:
            return False
        self.actions.append(action)
        return True

    def player(self) -> str:
        return str(self.rng.randint(2, 15))

    def remaining_ms(self, period: int, clock_ms: int) -> int:
        m = self.ruleset.match
        if m.clock_direction == "down":
            return clock_ms
        length = m.period_length
        if period > m.periods and m.overtime is not None:
            length = m.overtime.period_length
        return length - clock_ms

    def plan(self) -> Plan:
        t = FIRST_START_MS
        for _ in range(MAX_STEPS):
            s = self.match.state_at(t)
            if s.phase == "finished":
                break
            if s.period > self.ruleset.match.periods:
                self.overtime = True
            if s.phase == "pre_match":
                self.press(Action(t, "start"))
            elif s.phase == "interval":
                t += (s.interval_remaining_ms or 0) + AFTER_HORN_MS
                if self.match.state_at(t).phase == "play":
                    self.press(Action(t, "start"))
            elif s.phase == "shootout":
                t = self.shot(t, s.shootout.next_team if s.shootout else None)
            elif s.timeout is not None:
                t += s.timeout.remaining_ms + AFTER_HORN_MS
                self.press(Action(t, "start"))
            elif not s.running:
                t += self.rng.randint(*RESTART_MS)
                self.press(Action(t, "start"))
            else:
                t = self.play(t, self.remaining_ms(s.period, s.clock_ms), s.period, (s.home_goals, s.away_goals))
        else:
            raise PlanError(f"the officials' plan did not finish the match within {MAX_STEPS} steps")
        end = self.match.state_at(t)
        if end.phase != "finished":
            raise PlanError("the officials' plan stopped before the match was over")
        return Plan(
            actions=tuple(self.actions), end_ms=t, home_goals=end.home_goals, away_goals=end.away_goals,
            overtime=self.overtime, shootout=end.shootout is not None,
        )

    def play(self, t: int, remaining: int, period: int, score: tuple[int, int]) -> int:
        """The clock runs: the next incident before the horn, or the horn itself."""
        in_overtime = period > self.ruleset.match.periods
        goal_rate = 0.0 if (in_overtime and self.level) else self.goal_rate
        rate = goal_rate + self.penalty_rate
        gap = int(self.rng.expovariate(rate)) + 1 if rate > 0 else remaining + 1
        last_regular = period == self.ruleset.match.periods
        if self.level and last_regular and score[0] != score[1] and gap >= remaining - 5_000:
            # Level on purpose: the trailing side equalises just before the end of regular time.
            gap = max(1, remaining - self.rng.randint(10_000, 30_000))
            if gap < remaining:
                return self.goal(t + gap, "home" if score[0] < score[1] else "away")
        timeout = self.due_timeout(gap, remaining)
        if timeout is not None:
            side, after = timeout
            self.played_ms += after
            self.press(Action(t + after, "timeout", side))
            return t + after
        if gap >= remaining:
            self.played_ms += remaining
            if remaining > 2 * FINAL_WHISTLE_MS and self.match.state_at(t + remaining + 1).phase == "finished":
                # The last period: the officials end it at the final whistle (hold NEXT), a moment before
                # the clock runs out, so the journal records the end as an event. A match that ends only
                # by its clock has no event at its end, and the table's outbox (firmware/outbox.py) then
                # never works out its result to send.
                self.press(Action(t + remaining - FINAL_WHISTLE_MS, "end"))
                return t + remaining
            return t + remaining + AFTER_HORN_MS
        self.played_ms += gap
        t += gap
        if self.rng.random() < goal_rate / rate:
            scorer: Side = self.rng.choice(("home", "away"))
            if self.level and score[0] != score[1]:
                scorer = "home" if score[0] < score[1] else "away"  # keep it close, so level comes naturally
            return self.goal(t, scorer)
        return self.penalty(t)

    def due_timeout(self, gap: int, remaining: int) -> tuple[Side, int] | None:
        horizon = min(gap, remaining)
        for side in ("home", "away"):
            at = self.timeout_at[side]
            if at is not None and self.played_ms <= at < self.played_ms + horizon:
                self.timeout_at[side] = None
                return side, at - self.played_ms
        return None

    def goal(self, t: int, side: Side) -> int:
        self.press(Action(t, "goal", side, self.player()))
        return t

    def penalty(self, t: int) -> int:
        side: Side = self.rng.choice(("home", "away"))
        kind = self.rng.choice(self._penalty_kinds())
        # The referee stops play for a penalty; the officials stop the clock, enter it, restart.
        self.press(Action(t, "stop"))
        self.press(Action(t + 1_000, "penalty", side, self.player(), penalty=kind))
        return t + 1_000

    def shot(self, t: int, next_team: Side | None) -> int:
        t += self.rng.randint(*SHOT_GAP_MS)
        shooter: Side = next_team if next_team is not None else self.rng.choice(("home", "away"))
        self.press(Action(t, "shot", shooter, self.player(), scored=self.rng.random() < 0.7))
        return t


def plan_match(
    ruleset: Ruleset, *, stage: StageKind = "round_robin", round: str | None = None, seed: int = 0,
    level: bool = False,
) -> Plan:
    """The officials' presses for one match, the same for the same arguments."""
    return _Officials(ruleset, stage, round, random.Random(seed), level).plan()
