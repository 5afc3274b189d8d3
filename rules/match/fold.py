"""The folded match state: :class:`Core`, the state right after an event, and what it is folded with.

The transitions that change it are dispatched in :mod:`rules.match.machine`.
"""

from __future__ import annotations

from typing import Literal

from rules.match import penalties as pen
from rules.match.cards import Card
from rules.match.clock import elapsed
from rules.match.events import Goal, Side
from rules.match.shootout import Attempt
from rules.record import Record
from rules.ruleset import Ruleset, StageKind

Phase = Literal["pre_match", "play", "interval", "shootout", "finished"]
HornReason = Literal["period_end", "interval_end", "timeout_end", "possession_end"]
OutcomeKind = Literal["regular", "overtime", "shootout", "walkover", "forfeit", "abandoned"]
DueKind = Literal["penalty", "period", "possession", "timeout", "interval"]


class Context(Record):
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


class Due(Record):
    """The next transition due: when, what, and which penalty (its index on the board) when it is one."""

    at: int
    rank: int  # which comes first at one instant: a penalty 0, the period 1, possession 2, time-out 3, interval 4
    what: DueKind
    penalty: int = -1

    def __init__(self, at: int, rank: int, what: DueKind, penalty: int = -1) -> None:
        # By position, and the dict filled directly: one is made for most events folded, and Record's
        # checking __init__ cost a tenth of an undo's refold (docs/benchmarks.md, "Match engine").
        d = self.__dict__
        d["at"], d["rank"], d["what"], d["penalty"] = at, rank, what, penalty


class Horn(Record):
    at: int
    reason: HornReason


class GoalRecord(Record):
    seq: int
    team: Side
    player: str | None
    period: int
    disallowed: bool = False
    golden: bool = False


class Core(Record, frozen=False):
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
    # The cards of the plays a replay wiped (match_replayed): records for the disciplinary register and the
    # result's sanctions only; nobody is out or nearer an escalation in the new play because of them.
    earlier_cards: tuple[Card, ...] = ()
    # The phase the match was in when it was abandoned, so a resumption reopens it there.
    abandoned_phase: Phase | None = None
    outcome: OutcomeKind | None = None
    forfeiter: Side | None = None
    late_presses: int = 0
    # What the last event did besides being accepted, for the operator's feedback (rules.match.Applied):
    # ("late_press" | "goal_for_ended_period", the period it counted for). Set by steps, reset per event.
    note: tuple[str, int] | None = None
    # The next transition due, as found by the last advance (a 1-tuple; None: not known). A step
    # clears it; keeping it spares the fold one search per event (bench/bench_engine.py).
    due: tuple[Due | None] | None = None

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
