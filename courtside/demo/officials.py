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
script (docs/press-scripts.md) is written from a plan by :mod:`courtside.demo.presses`, each action's
presses as :func:`layout` lays them out (the plan leaves room for them).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Literal

from rules import (
    ClockStarted,
    ClockStopped,
    CourtsideError,
    Event,
    Goal,
    Match,
    PenaltyAwarded,
    PeriodAdvanced,
    Ruleset,
    ShootoutAttempt,
    StageKind,
    TimeoutStarted,
)

Side = Literal["home", "away"]
ActionKind = Literal["start", "stop", "goal", "penalty", "timeout", "shot", "end"]

FIRST_START_MS = 3_000  # the officials settle at the table before the first whistle
RESTART_MS = (2_000, 8_000)  # a stoppage before the clock is started again
AFTER_HORN_MS = 1_500  # after a period or interval runs out, before the next press
FINAL_WHISTLE_MS = 1_000  # at least: the officials end the match this long before its clock runs out (see play())
SHOT_GAP_MS = (8_000, 15_000)  # between shots of a shoot-out
GOALS_PER_MATCH = 5.0  # about, both teams together
PENALTIES_PER_MATCH = 2.0
TIMEOUT_SHARE = 0.5  # how often a team that may take a time-out takes one
MAX_STEPS = 2_000  # a plan that has not finished by then is a bug, not a long match
STEP_S = 1.3  # table seconds between two presses: more than a hold (1 s), so a press never looks like one
HOLD_S = 1.0  # the default button map's hold time (firmware/buttons.toml [timing] hold)


@dataclass(frozen=True)
class Action:
    """One thing the officials do at the table; ``at_ms``: the instant of its event (its confirming press)."""

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
    step_ms: int  # table time between two presses of the officials

    def events(self) -> list[Event]:
        """The plan as the engine's events (what the table journals when it is played)."""
        return [_event(action) for action in self.actions]


def layout(action: Action, ruleset: Ruleset, step: float) -> list[tuple[float, str]]:
    """The lines of one action, as (seconds relative to the instant of its event, line); the event
    happens at offset 0: the confirming press (a button acts at the instant it went down)."""
    side = action.side or "home"
    typed = [(-step, f"type {action.player}")] if action.player else []
    if action.kind == "start":
        return [(0.0, "press clock_start")]
    if action.kind == "stop":
        return [(0.0, "press clock_stop")]
    if action.kind == "timeout":
        return [(0.0, f"press timeout_{side}")]
    if action.kind == "end":
        # Hold NEXT ends the period now: the hold fires HOLD_S after the pin goes down.
        return [(-HOLD_S, "hold next"), (step, "release next")]
    if action.kind in ("goal", "shot"):
        button = "goal" if action.kind == "goal" or action.scored else "penalty"
        return [*typed, (0.0, f"press {button}_{side}")]
    # A penalty: PENALTY (the ruleset's first kind), MODE once per further kind, NEXT to confirm,
    # NEXT again to keep a minimum length; the number typed first.
    assert action.penalty is not None
    kinds = list(ruleset.penalties.kinds)
    presses = [f"press penalty_{side}"] + ["press mode"] * kinds.index(action.penalty) + ["press next"]
    if ruleset.penalties.kinds[action.penalty].minimum:
        presses.append("press next")
    lines = [(-(len(presses) - 1 - n) * step, text) for n, text in enumerate(presses)]
    return [(lines[0][0] - step, f"type {action.player}"), *lines] if action.player else lines


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
    """Walks one match forward through the engine, deciding each press from the random source.

    Each action takes the officials time: its presses are ``step_ms`` apart (:func:`layout`), and
    the next action starts one step after the last press of the one before. Instants are the
    engine's: an action's event happens at its confirming press.
    """

    def __init__(self, ruleset: Ruleset, stage: StageKind, round: str | None, rng: random.Random, level: bool,
                 step_ms: int) -> None:
        self.ruleset = ruleset
        self.rng = rng
        self.level = level
        self.step_ms = step_ms
        self.match = Match(ruleset, stage=stage, round=round)
        self.actions: list[Action] = []
        self.overtime = False
        self.free_at = 0  # the officials' hands are free from this instant
        m = ruleset.match
        regular_ms = m.periods * m.period_length
        self.goal_rate = GOALS_PER_MATCH / regular_ms  # per ms of play
        self.penalty_rate = PENALTIES_PER_MATCH / regular_ms if self._penalty_kinds() else 0.0
        self.timeout_at: dict[Side, int | None] = {
            side: self._pick_timeout_time(regular_ms) for side in ("home", "away")
        }
        self.played_ms = 0  # of playing time, to place the time-outs
        # Nothing but the final whistle this close to the end of the match: its hold must not wait.
        # Two steps early: the hold of NEXT and its release fit before the clock runs out.
        self.whistle_ms = max(FINAL_WHISTLE_MS, 2 * step_ms)
        self.quiet_ms = self.whistle_ms + round_ms(HOLD_S) + 8 * step_ms

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

    def _span(self, action: Action) -> tuple[int, int]:
        """(ms from the first press to the event, ms from the event to the last press)."""
        offsets = [round_ms(off) for off, _ in layout(action, self.ruleset, self.step_ms / 1000)]
        return -min(offsets), max(offsets)

    def earliest(self, action: Action) -> int:
        """The first instant this action's event can happen, the officials' hands being busy until free_at."""
        lead, _ = self._span(action)
        return max(action.at_ms, self.free_at + lead)

    def press(self, action: Action) -> Action | None:
        """Make the press (moved later while the hands are busy) if the engine accepts it, as the table would."""
        action = replace(action, at_ms=self.earliest(action))
        try:
            self.match.apply(_event(action))
        except CourtsideError:
            return None
        self.actions.append(action)
        self.free_at = action.at_ms + self._span(action)[1] + self.step_ms
        return action

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
            t = max(t, self.free_at)
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
        t = max(t, self.free_at)
        end = self.match.state_at(t)
        if end.phase != "finished":
            raise PlanError("the officials' plan stopped before the match was over")
        return Plan(
            actions=tuple(self.actions), end_ms=t, home_goals=end.home_goals, away_goals=end.away_goals,
            overtime=self.overtime, shootout=end.shootout is not None, step_ms=self.step_ms,
        )

    def play(self, t: int, remaining: int, period: int, score: tuple[int, int]) -> int:
        """The clock runs: the next incident before the horn, or the horn itself."""
        end = t + remaining
        finishing = self.match.state_at(end + 1).phase == "finished"
        last_call = end - self.quiet_ms if finishing else end - self.step_ms
        if self.level and period == self.ruleset.match.periods:
            last_call -= 10 * self.step_ms  # room to equalise after a penalty's long sequence of presses
        in_overtime = period > self.ruleset.match.periods
        goal_rate = 0.0 if (in_overtime and self.level) else self.goal_rate
        rate = goal_rate + self.penalty_rate
        gap = int(self.rng.expovariate(rate)) + 1 if rate > 0 else remaining + 1
        if self.level and period == self.ruleset.match.periods and score[0] != score[1] and t + gap >= last_call:
            # Level on purpose: the trailing side equalises just before the end of regular time.
            at = max(t + 1, end - self.quiet_ms - self.rng.randint(10_000, 30_000))
            scored = self.goal(at, "home" if score[0] < score[1] else "away", end - 2 * self.step_ms)
            if scored is not None:
                return scored
            gap = remaining + 1  # no room left to equalise: the match ends as it stands
        timeout = self.due_timeout(min(gap, remaining))
        if timeout is not None:
            side, after = timeout
            done = self.press(Action(t + after, "timeout", side)) if t + after < last_call else None
            if done is not None:
                self.played_ms += done.at_ms - t
                return done.at_ms
        if t + gap >= last_call or self.free_at >= last_call:
            self.played_ms += remaining
            if finishing:
                # The last period: the officials end it at the final whistle (hold NEXT), a moment before
                # the clock runs out, so the journal records the end as an event. A match that ends only
                # by its clock has no event at its end, and the table's outbox (firmware/outbox.py) then
                # never works out its result to send.
                self.press(Action(end - self.whistle_ms, "end"))
                return end
            return end + AFTER_HORN_MS
        self.played_ms += gap
        t += gap
        if self.rng.random() < goal_rate / rate:
            scorer: Side = self.rng.choice(("home", "away"))
            if self.level and score[0] != score[1]:
                scorer = "home" if score[0] < score[1] else "away"  # keep it close, so level comes naturally
            scored = self.goal(t, scorer, last_call)
            return t if scored is None else scored
        return self.penalty(t, last_call)

    def due_timeout(self, horizon: int) -> tuple[Side, int] | None:
        for side in ("home", "away"):
            at = self.timeout_at[side]
            if at is not None and self.played_ms <= at < self.played_ms + horizon:
                self.timeout_at[side] = None
                return side, at - self.played_ms
        return None

    def goal(self, t: int, side: Side, before: int) -> int | None:
        """The goal's instant, or None when the officials could not enter it before ``before``."""
        action = Action(t, "goal", side, self.player())
        if self.earliest(action) < before:
            done = self.press(action)
            if done is not None:
                return done.at_ms
        return None

    def penalty(self, t: int, before: int) -> int:
        side: Side = self.rng.choice(("home", "away"))
        kind = self.rng.choice(self._penalty_kinds())
        # The referee stops play for a penalty: the officials stop the clock, enter it, restart later.
        stopped = self.press(Action(t, "stop")) if self.earliest(Action(t, "stop")) < before else None
        if stopped is None:
            return t
        done = self.press(Action(stopped.at_ms, "penalty", side, self.player(), penalty=kind))
        return done.at_ms if done is not None else stopped.at_ms

    def shot(self, t: int, next_team: Side | None) -> int:
        t += self.rng.randint(*SHOT_GAP_MS)
        shooter: Side = next_team if next_team is not None else self.rng.choice(("home", "away"))
        done = self.press(Action(t, "shot", shooter, self.player(), scored=self.rng.random() < 0.7))
        return done.at_ms if done is not None else t


def round_ms(seconds: float) -> int:
    return round(seconds * 1000)


def plan_match(
    ruleset: Ruleset, *, stage: StageKind = "round_robin", round: str | None = None, seed: int = 0,
    level: bool = False,
) -> Plan:
    """The officials' presses for one match, the same for the same arguments, whatever the demo's speed:
    a scripted table plays each press at its instant however busy the machine (firmware/clock.py)."""
    return _Officials(ruleset, stage, round, random.Random(seed), level, round_ms(STEP_S)).plan()
