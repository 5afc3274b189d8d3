"""A match as its page and its report tell it: each event that counts, with its period, the time played in that
period and the score after it (issue 33).

The log holds every press, undone ones and undos included (the desk shows that); the timeline is what the
log's replay leaves in force (:attr:`rules.match.Match.timeline`), each line stamped with the match as it stood
at that instant (:meth:`rules.match.Match.state_at`). The clock's bookkeeping (starts, stops, corrections, the
possession clock) is left out: a spectator, a coach and a federation read goals, cards, time-outs, the shoot-out
and how the match ended.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import Literal

from rules.match import events as ev
from rules.match.clock import format_clock
from rules.match.engine import Match
from rules.match.fold import Context, OutcomeKind
from rules.match.state import MatchState, PeriodKind
from rules.record import Record
from rules.ruleset import Ruleset, StageKind

LineKind = Literal[
    "goal", "goal_disallowed", "penalty", "penalty_ended", "set_piece", "timeout", "shootout_attempt",
    "score_corrected", "abandoned", "resumed", "replayed", "forfeit", "walkover",
]

_KINDS: dict[type[ev.Event], LineKind] = {
    ev.Goal: "goal", ev.GoalDisallowed: "goal_disallowed", ev.PenaltyAwarded: "penalty",
    ev.PenaltyEnded: "penalty_ended", ev.SetPieceStarted: "set_piece", ev.TimeoutStarted: "timeout",
    ev.ShootoutAttempt: "shootout_attempt", ev.ScoreCorrected: "score_corrected", ev.MatchAbandoned: "abandoned",
    ev.MatchResumed: "resumed", ev.MatchReplayed: "replayed", ev.Forfeit: "forfeit", ev.Walkover: "walkover",
}


class MatchLine(Record):
    """One event that counts, as a match report lists it.

    ``played_ms``: the time played in its period at that instant (elapsed, whichever way the board's clock runs:
    a game sheet's "12:34"). ``home_goals``/``away_goals``: the score right after it; ``home_shootout``/
    ``away_shootout`` the shoot-out's, once one is under way. ``penalty``: the penalty kind's key in the
    ruleset (``"minor"``, ``"yellow_card"``); ``length_ms`` its length when the ruleset gives one.
    ``target``: the seq of the goal disallowed or the penalty ended.
    """

    seq: int
    at: int
    kind: LineKind
    period: int
    period_kind: PeriodKind
    played_ms: int
    team: ev.Side | None = None
    player: str | None = None
    penalty: str | None = None
    length_ms: int | None = None
    scored: bool | None = None
    name: str | None = None  # a set piece's name ("penalty stroke")
    target: int | None = None
    home_goals: int = 0
    away_goals: int = 0
    home_shootout: int | None = None
    away_shootout: int | None = None

    @property
    def played_text(self) -> str:
        """``M:SS`` played in the period (the shoot-out's attempts have none: ``""``)."""
        return "" if self.period_kind == "shootout" else format_clock(self.played_ms, tenths=False, down=False)


class MatchTimeline(Record):
    """What counts of a match, in the order it happened, and how it stood at its last event: ``outcome`` once an
    event ended it (a shoot-out's last shot, a walk-over); a match that ends on the clock has no event at its
    end, so its stored result says how it ended."""

    lines: tuple[MatchLine, ...]
    outcome: OutcomeKind | None
    home_goals: int
    away_goals: int

    def line(self, seq: int) -> MatchLine | None:
        """The line of event ``seq`` (the goal a disallowing names, the penalty a re-entry ends)."""
        return next((x for x in self.lines if x.seq == seq), None)

    def scorers(self) -> dict[tuple[ev.Side, str], int]:
        """Goals per (side, shirt number) that count (a disallowed goal does not; a goal with no number is
        nobody's). The shoot-out's are not goals."""
        return dict(self._scorers)

    # Counted once per timeline (cached_property writes the instance's __dict__, which a frozen record allows): a
    # class's scorers are counted again after each of its results, over every match it has played.
    @cached_property
    def _scorers(self) -> dict[tuple[ev.Side, str], int]:
        disallowed = {line.target for line in self.lines if line.kind == "goal_disallowed"}
        out: dict[tuple[ev.Side, str], int] = {}
        for line in self.lines:
            if line.kind == "goal" and line.seq not in disallowed and line.team is not None and line.player:
                out[(line.team, line.player)] = out.get((line.team, line.player), 0) + 1
        return out


def match_timeline(ruleset: Ruleset, events: Iterable[ev.Event], *, stage: StageKind = "round_robin",
                   round: str | None = None) -> MatchTimeline:
    """The timeline of a match log, replayed by ``ruleset`` (raises IllegalCommand as the replay does)."""
    match = Match.replay(ruleset, events, stage=stage, round=round)
    lines = []
    for event in match.timeline:
        kind = _KINDS.get(type(event))
        if kind is None:
            continue
        state = match.state_at(event.at)
        lines.append(_line(ruleset, event, kind, state))
    last = match.state_at(match.last_at) if match.events else None
    result = match.result()
    return MatchTimeline(lines=tuple(lines), outcome=None if result is None else result.outcome,
                         home_goals=last.home_goals if last else 0, away_goals=last.away_goals if last else 0)


def _line(ruleset: Ruleset, event: ev.Event, kind: LineKind, state: MatchState) -> MatchLine:
    length = Context(ruleset=ruleset).period_length(state.period)
    played = length - state.clock_ms if state.clock_down else state.clock_ms
    shootout = state.shootout
    return MatchLine(
        seq=event.seq, at=event.at, kind=kind, period=state.period, period_kind=state.period_kind,
        played_ms=max(0, played), team=getattr(event, "team", None), player=getattr(event, "player", None),
        penalty=getattr(event, "kind", None), length_ms=_length(ruleset, event),
        scored=getattr(event, "scored", None), name=getattr(event, "name", None),
        target=getattr(event, "target", None), home_goals=state.home_goals, away_goals=state.away_goals,
        home_shootout=None if shootout is None else shootout.home_goals,
        away_shootout=None if shootout is None else shootout.away_goals,
    )


def _length(ruleset: Ruleset, event: ev.Event) -> int | None:
    if not isinstance(event, ev.PenaltyAwarded):
        return None
    if event.length is not None:
        return event.length
    return ruleset.penalty(event.kind).length
