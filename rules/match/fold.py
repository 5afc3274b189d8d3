"""The folded match state and the time-driven transitions between events.

:class:`Core` is the state right after an event. Between events only time passes,
and :func:`advance` derives what that does: a period runs out, an interval ends, a
penalty is served and a waiting one starts, a time-out ends, the possession clock
reaches zero. Each transition happens at the exact instant it is due, computed
from the clock's start, so the fold is the same whether it is asked once an hour
or sixty times a second.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Literal

from rules.match import penalties as pen
from rules.match.cards import Card
from rules.match.clock import elapsed, instant_of
from rules.match.events import Goal, Side
from rules.match.shootout import Attempt
from rules.ruleset import Ruleset, StageKind

Phase = Literal["pre_match", "play", "interval", "shootout", "finished"]
HornReason = Literal["period_end", "interval_end", "timeout_end", "possession_end"]
OutcomeKind = Literal["regular", "overtime", "shootout", "walkover", "forfeit", "abandoned"]


@dataclass(frozen=True, kw_only=True)
class Context:
    """What the engine knows about the match besides its log."""

    ruleset: Ruleset
    stage: StageKind = "round_robin"
    round: str | None = None
    on_field: int | None = None

    def period_length(self, period: int) -> int:
        m = self.ruleset.match
        if period <= m.periods or m.overtime is None:
            return m.period_length
        return m.overtime.period_length

    def shootout_name(self) -> str:
        """What the ruleset calls its shoot-out ("penalty shoot-out", "shoot-out" when it has none)."""
        rules = self.ruleset.match.shootout
        return rules.name if rules is not None else "shoot-out"


@dataclass(frozen=True, kw_only=True)
class Horn:
    at: int
    reason: HornReason


@dataclass(frozen=True, kw_only=True)
class GoalRecord:
    seq: int
    team: Side
    player: str | None
    period: int
    disallowed: bool = False
    golden: bool = False


@dataclass(kw_only=True)
class Core:
    """Mutable only while one event or transition is applied to a fresh copy; nested values are immutable."""

    now: int = 0
    phase: Phase = "pre_match"
    period: int = 1
    clock_base: int = 0
    clock_since: int | None = None
    period_offset: int = 0  # play time at the start of this period
    interval_until: int | None = None
    period_ended_at: int | None = None  # when a period ran out by itself: the late-press grace runs from it
    # The last period that ended, when, and its clock then: kept until the next period
    # starts, so a goal or a correction in the break can decide that end again.
    ended_period: int | None = None
    period_end: int | None = None
    ended_clock: int = 0
    started_at: int | None = None
    finished_at: int | None = None
    home: int = 0
    away: int = 0
    goals: tuple[GoalRecord, ...] = ()
    penalties: tuple[pen.Penalty, ...] = ()
    stoppage: int = 0
    timeouts_used: tuple[tuple[Side, str], ...] = ()
    timeout_team: Side | None = None
    timeout_until: int | None = None
    set_piece: str | None = None
    possession_from: int = 0  # play time of the last possession reset
    possession_length: int = 0
    possession_expired: bool = False
    attempts: tuple[Attempt, ...] = ()
    cards: tuple[Card, ...] = ()  # every award, kept so a snapshot need not rebuild them
    outcome: OutcomeKind | None = None
    forfeiter: Side | None = None
    late_presses: int = 0
    # What the last event did besides being accepted, for the operator's feedback (rules.match.Applied):
    # ("late_press" | "goal_for_ended_period", the period it counted for). Set by steps, reset per event.
    note: tuple[str, int] | None = None

    def clone(self) -> Core:
        return copy.copy(self)

    def running(self) -> bool:
        return self.clock_since is not None

    def elapsed(self, ctx: Context, at: int) -> int:
        return elapsed(self.clock_base, self.clock_since, ctx.period_length(self.period), at)

    def play(self, ctx: Context, at: int) -> int:
        return self.period_offset + self.elapsed(ctx, at)

    def stop_clock(self, ctx: Context, at: int) -> None:
        self.clock_base = self.elapsed(ctx, at)
        self.clock_since = None

    def start_clock(self, at: int) -> None:
        self.clock_since = at
        self.stoppage += 1
        self.period_ended_at = None
        self.ended_period = self.period_end = None
        if self.started_at is None:
            self.started_at = at

    def reset_possession(self, ctx: Context, at: int, *, short: bool) -> None:
        rules = ctx.ruleset.match.possession_clock
        if rules is None:
            return
        self.possession_from = self.play(ctx, at)
        self.possession_length = rules.reset_length if short else rules.length
        self.possession_expired = False

    def count_goal(self, goal: Goal, *, golden: bool = False) -> None:
        """The goal counts for its team in the period being played (or the one just ended)."""
        if goal.team == "home":
            self.home += 1
        else:
            self.away += 1
        record = GoalRecord(seq=goal.seq, team=goal.team, player=goal.player, period=self.period, golden=golden)
        self.goals = (*self.goals, record)

    def finish(self, outcome: OutcomeKind, at: int) -> None:
        self.outcome = outcome
        self.phase = "finished"
        self.finished_at = at
        self.interval_until = None
        self.timeout_team = self.timeout_until = None
        self.set_piece = None


def begin_next_period(ctx: Context, c: Core, at: int) -> None:
    """The next period is ready: clock full, stopped until the operator starts it."""
    c.period_offset += c.clock_base
    c.period += 1
    c.clock_base = 0
    c.clock_since = None
    c.phase = "play"
    c.interval_until = None
    c.reset_possession(ctx, at, short=False)


def _interval(ctx: Context, c: Core, at: int, length: int) -> None:
    if length == 0:
        begin_next_period(ctx, c, at)
    else:
        c.phase = "interval"
        c.interval_until = at + length


def end_period(ctx: Context, c: Core, at: int) -> None:
    """The period is over (ran out, or the operator ended it): interval, extra time, shoot-out or the end."""
    c.stop_clock(ctx, at)
    c.period_ended_at = at
    c.ended_period, c.period_end, c.ended_clock = c.period, at, c.clock_base
    c.set_piece = None
    c.timeout_team = c.timeout_until = None
    decide(ctx, c, at)


def decide(ctx: Context, c: Core, at: int) -> None:
    """What follows the period that ended at ``at``, given the score: a break, extra time, a shoot-out or the end."""
    m = ctx.ruleset.match
    level = c.home == c.away
    if c.period < m.periods:
        _interval(ctx, c, at, m.intervals[c.period - 1])
        return
    overtime = m.overtime
    if c.period == m.periods:
        if not level or ctx.stage in m.level_allowed_in:
            c.finish("regular", at)
        elif overtime is not None:
            _interval(ctx, c, at, overtime.interval_before)
        else:
            c.phase = "shootout"
        return
    assert overtime is not None
    if not level and overtime.kind == "golden_goal":
        c.finish("overtime", at)  # a goal counted for an end of golden-goal extra time decides it
    elif c.period - m.periods < overtime.periods:
        _interval(ctx, c, at, overtime.interval_between)
    elif level and m.shootout is not None:
        c.phase = "shootout"
    else:
        c.finish("overtime", at)


def _possession_zero(ctx: Context, c: Core) -> int | None:
    """Elapsed period time at which the possession clock reaches zero, if it does in this period."""
    if ctx.ruleset.match.possession_clock is None or c.possession_expired:
        return None
    return c.possession_from + c.possession_length - c.period_offset


_Due = tuple[int, int, str, int]  # (instant, priority, what, index of the penalty)

_HORNS: dict[str, HornReason] = {
    "period": "period_end", "interval": "interval_end", "timeout": "timeout_end", "possession": "possession_end",
}


def _next_due(ctx: Context, c: Core) -> _Due | None:
    """The first transition due from ``c.now`` on.

    At one instant penalties come first, so a penalty served at the horn is over
    before the period ends; the possession clock comes after the period.
    """
    due: list[_Due] = []
    if c.phase == "play" and c.clock_since is not None:
        length = ctx.period_length(c.period)
        since, base = c.clock_since, c.clock_base
        for end_play, i in pen.expiries(c.penalties):
            due.append((instant_of(base, since, end_play - c.period_offset), 0, "penalty", i))
        due.append((instant_of(base, since, length), 1, "period", -1))
        zero = _possession_zero(ctx, c)
        if zero is not None and zero < length:
            due.append((instant_of(base, since, zero), 2, "possession", -1))
    elif c.phase == "play" and c.clock_base >= ctx.period_length(c.period):
        due.append((c.now, 1, "period", -1))  # corrected to zero while stopped
    if c.timeout_until is not None:
        due.append((c.timeout_until, 3, "timeout", -1))
    if c.phase == "interval" and c.interval_until is not None:
        due.append((c.interval_until, 4, "interval", -1))
    return min(((max(at, c.now), priority, what, i) for at, priority, what, i in due), default=None)


def next_transition(ctx: Context, c: Core) -> int | None:
    """The instant of the next transition due from ``c.now`` on (None: nothing will happen by itself)."""
    due = _next_due(ctx, c)
    return None if due is None else due[0]


def advance(ctx: Context, c: Core, to: int, horns: list[Horn] | None = None) -> None:
    """Apply every transition due up to instant ``to`` (inclusive), in order, then stand at ``to``."""
    limit = ctx.ruleset.penalties.max_reducing_per_team
    while (due := _next_due(ctx, c)) is not None and due[0] <= to:
        at, _, what, index = due
        c.now = at
        if what == "penalty":
            served = c.penalties[index].end_play()
            assert served is not None
            c.penalties = pen.end(c.penalties, index, served, "served", limit)
        elif what == "period":
            end_period(ctx, c, at)
        elif what == "possession":
            c.possession_expired = True
        elif what == "timeout":
            c.timeout_team = c.timeout_until = None
        else:
            begin_next_period(ctx, c, at)
        if horns is not None and what in _HORNS:
            horns.append(Horn(at=at, reason=_HORNS[what]))
    c.now = max(c.now, to)
