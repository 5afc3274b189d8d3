"""The folded match state and the time-driven transitions between events.

:class:`Core` is the state right after an event. Between events only time passes,
and :func:`advance` derives what that does: a period runs out, an interval ends, a
penalty is served and a waiting one starts, a time-out ends, the possession clock
reaches zero. Each transition happens at the exact instant it is due, computed
from the clock's start, so the fold is the same whether it is asked once an hour
or sixty times a second.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.match import penalties as pen
from rules.match.cards import Card
from rules.match.clock import elapsed
from rules.match.events import Goal, Side
from rules.match.shootout import Attempt
from rules.ruleset import Ruleset, StageKind

Phase = Literal["pre_match", "play", "interval", "shootout", "finished"]
HornReason = Literal["period_end", "interval_end", "timeout_end", "possession_end"]
OutcomeKind = Literal["regular", "overtime", "shootout", "walkover", "forfeit", "abandoned"]
_Due = tuple[int, int, str, int]  # (instant, priority, what, index of the penalty)


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
    # The board: penalties running or waiting. Ended ones move to ``served`` at once, so
    # what a frame costs does not grow with the penalties already served.
    penalties: tuple[pen.Penalty, ...] = ()
    served: tuple[pen.Penalty, ...] = ()
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
    # The next transition due, as found by the last advance (a 1-tuple; None: not known). A step
    # clears it; keeping it spares the fold one search per event (bench/bench_engine.py).
    due: tuple[_Due | None] | None = None

    def clone(self) -> Core:
        # The engine keeps one core per event and copies it for each: a shallow copy of the
        # attribute dict (every nested value is immutable) is the cheapest that is safe.
        new = object.__new__(Core)
        new.__dict__ = self.__dict__.copy()  # a plain dict copy: several times faster than update()
        return new

    def settle(self) -> None:
        """Ended penalties off the board (into ``served``), in the order they were on it."""
        if any(p.ended is not None for p in self.penalties):
            self.served = (*self.served, *(p for p in self.penalties if p.ended is not None))
            self.penalties = tuple(p for p in self.penalties if p.ended is None)

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



_HORNS: dict[str, HornReason] = {
    "period": "period_end", "interval": "interval_end", "timeout": "timeout_end", "possession": "possession_end",
}


def _next_due(ctx: Context, c: Core) -> _Due | None:
    """The first transition due from ``c.now`` on.

    At one instant penalties come first, so a penalty served at the horn is over
    before the period ends; the possession clock comes after the period. Written as
    plain comparisons: it runs once for every event folded.
    """
    now = c.now
    best: _Due | None = None
    if c.phase == "play":
        length = ctx.period_length(c.period)
        since = c.clock_since
        if since is not None:
            base, offset = c.clock_base, c.period_offset
            for i, p in enumerate(c.penalties):  # the board holds only live penalties
                if p.start is not None and p.length is not None and p.ended is None:
                    at = max(since + (p.start + p.length - offset - base), now)
                    if best is None or (at, 0) < best[:2]:
                        best = (at, 0, "penalty", i)
            at = max(since + (length - base), now)
            if best is None or at < best[0]:
                best = (at, 1, "period", -1)
            zero = _possession_zero(ctx, c)
            if zero is not None and zero < length:
                at = max(since + (zero - base), now)
                if at < best[0]:
                    best = (at, 2, "possession", -1)
        else:
            # Stopped: only a clock correction moves play time, and what it served is over at once.
            play = c.period_offset + c.clock_base
            for i, p in enumerate(c.penalties):
                if p.start is not None and p.length is not None and p.ended is None and p.start + p.length <= play:
                    return (now, 0, "penalty", i)
            if c.clock_base >= length:
                best = (now, 1, "period", -1)  # corrected to zero while stopped
    if c.timeout_until is not None:
        at = max(c.timeout_until, now)
        if best is None or at < best[0]:
            best = (at, 3, "timeout", -1)
    if c.phase == "interval" and c.interval_until is not None:
        at = max(c.interval_until, now)
        if best is None or at < best[0]:
            best = (at, 4, "interval", -1)
    return best


def next_transition(ctx: Context, c: Core) -> int | None:
    """The instant of the next transition due from ``c.now`` on (None: nothing will happen by itself)."""
    due = c.due[0] if c.due is not None else _next_due(ctx, c)
    return None if due is None else due[0]


def advance(ctx: Context, c: Core, to: int, horns: list[Horn] | None = None) -> None:
    """Apply every transition due up to instant ``to`` (inclusive), in order, then stand at ``to``."""
    limit = ctx.ruleset.penalties.max_reducing_per_team
    due = c.due[0] if c.due is not None else _next_due(ctx, c)
    while due is not None and due[0] <= to:
        at, _, what, index = due
        c.now = at
        if what == "penalty":
            served = c.penalties[index].end_play()
            assert served is not None
            c.penalties = pen.end(c.penalties, index, served, "served", limit)
            c.settle()
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
        due = _next_due(ctx, c)
    c.now = max(c.now, to)
    c.due = (due,)  # still due after ``to``: clamping to ``now`` cannot move it
