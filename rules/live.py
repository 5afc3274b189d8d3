"""The live state on the wire: what a court page, a stream overlay or a second screen needs to draw a match.

The table publishes :func:`live_payload` on its court's ``live`` topic; the service and ``display follow``
read it back with :func:`read_live`. The payload has two parts:

- ``board``: a :class:`LiveBoard`, the few things every page draws (score, period and its kind as
  message keys of the catalogues, the period's length, the clock and its direction, every penalty with
  its kind, label and short name as message keys, and what is left of it);
- ``state``: the whole :class:`~rules.match.MatchState` (``to_dict``), for a screen that draws all of it.

Between two messages a running clock goes on by itself: :func:`clock_at` is the one rule for it, and
server/web/static/live.js mirrors it against the same test vectors (tests/data/clock_vectors.json).
"""

from __future__ import annotations

from typing import Any

from rules.errors import ProtocolError, whole_number
from rules.match.clock import format_clock
from rules.match.events import Side
from rules.match.fold import Phase
from rules.match.state import MatchState, PeriodKind
from rules.record import Record
from rules.ruleset import Ruleset
from rules.schema import as_data

_PHASES = ("pre_match", "play", "interval", "shootout", "finished")
_KINDS = ("regular", "extra_time", "shootout")


class LivePenalty(Record):
    team: Side
    player: str | None
    kind: str  # a key of the ruleset's penalty kinds
    label: str  # its label, a message key ("Minor penalty")
    short: str  # its short name, a message key ("2'")
    remaining_ms: int | None  # None: to the end of the match
    waiting: bool  # a third penalty waiting for a place: its time does not run yet


class LiveBoard(Record):
    match: str | None  # the schedule's match id
    phase: Phase
    period: int  # counts every period played, extra time included
    period_kind: PeriodKind
    period_name: str  # message key: the ruleset's period name ("half"), "extra time" or the shoot-out's name
    period_number: int | None  # of its kind (extra time 1, 2); None for a shoot-out
    period_length_ms: int
    clock_ms: int  # remaining when the clock counts down, else played
    clock_down: bool
    running: bool
    home_goals: int
    away_goals: int
    home_shootout: int | None
    away_shootout: int | None
    penalties: tuple[LivePenalty, ...]

    def clock_text(self, ms: int = 0) -> str:
        """The clock ``ms`` after this board as ``M:SS`` (down rounds up, up rounds down)."""
        return format_clock(clock_at(self, ms), tenths=False, down=self.clock_down)

    def penalty_left(self, penalty: LivePenalty, ms: int = 0) -> int | None:
        """What is left of ``penalty`` ``ms`` after this board: it runs only while the match clock runs."""
        if penalty.remaining_ms is None:
            return None
        if not self.running or penalty.waiting or self.phase != "play":
            return penalty.remaining_ms
        return max(0, penalty.remaining_ms - max(0, ms))


def clock_at(board: LiveBoard, ms: int) -> int:
    """The match clock ``ms`` after ``board`` was published, if nothing happens meanwhile.

    A running clock counting down stops at 0; one counting up stops at the length of the period
    being played (extra time's own length in extra time); a stopped clock stays where it is.
    """
    if not board.running or board.phase != "play" or ms <= 0:
        return board.clock_ms
    if board.clock_down:
        return max(0, board.clock_ms - ms)
    return min(board.period_length_ms, board.clock_ms + ms)


def live_board(state: MatchState, ruleset: Ruleset, match: str | None) -> LiveBoard:
    """The board of ``state`` (a match of ``ruleset``): what the table publishes beside the state."""
    m = ruleset.match
    name: str
    number: int | None
    if state.period_kind == "shootout":
        name, number = (m.shootout.name if m.shootout is not None else "shoot-out"), None
    elif state.period_kind == "extra_time":
        name, number = "extra time", state.period - m.periods
    else:
        name, number = m.period_name, state.period
    extra = state.period > m.periods and m.overtime is not None
    length = m.overtime.period_length if extra and m.overtime is not None else m.period_length
    penalties = []
    for p in state.penalties:
        kind = ruleset.penalty(p.kind)
        penalties.append(LivePenalty(team=p.team, player=p.player, kind=p.kind, label=kind.label, short=kind.short,
                                     remaining_ms=p.remaining_ms, waiting=p.waiting))
    so = state.shootout
    return LiveBoard(
        match=match, phase=state.phase, period=state.period, period_kind=state.period_kind, period_name=name,
        period_number=number, period_length_ms=length, clock_ms=state.clock_ms, clock_down=state.clock_down,
        running=state.running, home_goals=state.home_goals, away_goals=state.away_goals,
        home_shootout=None if so is None else so.home_goals, away_shootout=None if so is None else so.away_goals,
        penalties=tuple(penalties),
    )


def live_payload(state: MatchState, ruleset: Ruleset, match: str | None) -> dict[str, Any]:
    """The ``live`` message's payload: the board and the whole state."""
    return {"board": as_data(live_board(state, ruleset, match)), "state": state.to_dict()}


def read_live(payload: Any) -> LiveBoard:
    """The board of a ``live`` payload, checked; a wrong key or value raises ProtocolError naming it."""
    if not isinstance(payload, dict) or set(payload) != {"board", "state"}:
        raise ProtocolError("payload", "a live state has its 'board' and its 'state'")
    if not isinstance(payload["state"], dict):
        raise ProtocolError("payload.state", "must be an object")
    b = payload["board"]
    where = "payload.board"
    if not isinstance(b, dict):
        raise ProtocolError(where, "must be an object")
    fields = set(LiveBoard.__record_fields__)
    if set(b) != fields:
        wrong = sorted(set(b) ^ fields)[0]
        raise ProtocolError(f"{where}.{wrong}", "unknown key" if wrong in b else "required key is missing")
    _one_of(f"{where}.phase", b["phase"], _PHASES)
    _one_of(f"{where}.period_kind", b["period_kind"], _KINDS)
    for key in ("match", "period_name"):
        if not isinstance(b[key], str) and not (key == "match" and b[key] is None):
            raise ProtocolError(f"{where}.{key}", "a text is required")
    for key in ("period", "period_length_ms", "clock_ms", "home_goals", "away_goals"):
        whole_number(f"{where}.{key}", b[key])
    for key in ("period_number", "home_shootout", "away_shootout"):
        if b[key] is not None:
            whole_number(f"{where}.{key}", b[key])
    for key in ("clock_down", "running"):
        if not isinstance(b[key], bool):
            raise ProtocolError(f"{where}.{key}", "true or false is required")
    if not isinstance(b["penalties"], list | tuple):  # a tuple before it went through JSON
        raise ProtocolError(f"{where}.penalties", "must be a list")
    return LiveBoard(**{**b, "penalties": tuple(_penalty(f"{where}.penalties[{i}]", p)
                                                for i, p in enumerate(b["penalties"]))})


def _penalty(where: str, p: Any) -> LivePenalty:
    fields = set(LivePenalty.__record_fields__)
    if not isinstance(p, dict) or set(p) != fields:
        raise ProtocolError(where, f"must be an object with {', '.join(sorted(fields))}")
    _one_of(f"{where}.team", p["team"], ("home", "away"))
    for key in ("kind", "label", "short"):
        if not isinstance(p[key], str) or not p[key]:
            raise ProtocolError(f"{where}.{key}", "a text is required")
    if p["player"] is not None and not isinstance(p["player"], str):
        raise ProtocolError(f"{where}.player", "a text or null is required")
    if p["remaining_ms"] is not None:
        whole_number(f"{where}.remaining_ms", p["remaining_ms"])
    if not isinstance(p["waiting"], bool):
        raise ProtocolError(f"{where}.waiting", "true or false is required")
    return LivePenalty(**p)


def _one_of(where: str, value: Any, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ProtocolError(where, f"{value!r} is not one of {', '.join(allowed)}")
