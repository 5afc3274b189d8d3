"""The table official's entry: a button or key action, plus what has been typed, becomes engine commands.

Player numbers are typed *before* the button they go with ("7" then GOAL HOME); a
penalty is PENALTY (the ruleset's first kind), MODE or PENALTY again for the next kind,
NEXT to confirm: with the number, at most three presses for the two commonest kinds.
A kind with a minimum length (indoor hockey's yellow card) then asks its length:
NEXT keeps the minimum, or type the minutes and NEXT. UNDO cancels what is being
typed before it takes anything back.

:meth:`Entry.act` never touches the match: it returns :class:`Effect` values the loop
carries out (apply an event, sound the horn, load another match, say something). What each
action does is :data:`HANDLERS`, one table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from firmware.words import english, table_text
from rules import Match, MatchState, Side, Translate
from rules.match import events as ev

MAX_NUMBER = 4  # "12A": shirt numbers are short


class ActionName(StrEnum):
    """Every action a button or key can have, as a button map names it (firmware/buttonmap.py). The short
    names of the 12-button table are also its button names; the rest are meant for holds or larger boxes."""

    CLOCK_START = "clock_start"  # start the match clock (starts the next period after an interval)
    CLOCK_STOP = "clock_stop"  # stop the match clock
    GOAL_HOME = "goal_home"  # a goal for home (the number typed before it is the scorer); in a shoot-out, scored
    GOAL_AWAY = "goal_away"
    PENALTY_HOME = "penalty_home"  # open a penalty (again or MODE: the next kind, NEXT confirms); shoot-out: missed
    PENALTY_AWAY = "penalty_away"
    TIMEOUT_HOME = "timeout_home"  # a time-out
    TIMEOUT_AWAY = "timeout_away"
    HORN = "horn"  # sound the horn now
    UNDO = "undo"  # cancel what is being typed, else take back the last event
    NEXT = "next"  # confirm what is typed; skip an interval; load the next scheduled match after the end
    MODE = "mode"  # next penalty kind while a penalty is open; else the set piece (start/end) or possession reset
    END_PERIOD = "end_period"  # end the period being played now
    NEW_MATCH = "new_match"  # leave this match and load the next scheduled one (destructive: long hold)
    ABANDON = "abandon"  # abandon the match; the organiser decides (destructive: long hold)
    DISALLOW_GOAL_HOME = "disallow_goal_home"  # take off the side's last goal
    DISALLOW_GOAL_AWAY = "disallow_goal_away"
    LENGTHEN_HOME = "lengthen_home"  # one more minute on the side's last minimum penalty (a yellow card)
    LENGTHEN_AWAY = "lengthen_away"
    END_TIMEOUT = "end_timeout"  # end the running time-out
    MUTE = "mute"  # mute or unmute the automatic horn
    CORRECT_CLOCK = "correct_clock"  # type the clock's right value (minutes and seconds, e.g. 1230), NEXT sets it
    POSSESSION_RESET = "possession_reset"  # water polo: possession clock back to its full length
    POSSESSION_RESET_SHORT = "possession_reset_short"  # water polo: to its short length (corner throw)


DESTRUCTIVE = frozenset({ActionName.NEW_MATCH, ActionName.ABANDON})
"""Hold actions that need ``long_hold``: they cannot be taken back with UNDO."""


@dataclass(frozen=True, kw_only=True)
class Effect:
    """``apply``: the event (seq 0) goes to the match; ``horn``/``mute``/``load``: the loop's own;
    ``say``: feedback with no change; ``refuse``: feedback for a press that does nothing (``words``: its key in
    firmware.words, with ``params``)."""

    kind: Literal["apply", "horn", "mute", "load", "say", "refuse"]
    event: ev.Event | None = None
    words: str = ""
    params: Mapping[str, object] = field(default_factory=dict)
    force: bool = False  # load: leave a match that is not over


@dataclass
class PenaltyDraft:
    team: Side
    kinds: tuple[str, ...]
    index: int = 0
    player: str = ""
    length_minutes: str = ""
    asking_length: bool = False

    @property
    def kind(self) -> str:
        return self.kinds[self.index]


class Entry:
    """What the table official has typed and opened; one per table, reset when a match is loaded."""

    def __init__(self, replace_ms: int = 1000) -> None:
        self.replace_ms = replace_ms  # the other clock button this soon after a wrong one replaces it
        self.number = ""  # typed, waiting for the button it goes with
        self.penalty: PenaltyDraft | None = None
        self.clock_entry: str | None = None  # digits of a clock correction being typed

    def reset(self) -> None:
        self.number, self.penalty, self.clock_entry = "", None, None

    # -- what the screen shows -----------------------------------------------------------

    def prompt(self, match: Match, _: Translate = english) -> str:
        """The line being typed, for the screen ("" when nothing is open), in the language of ``_``."""
        if self.clock_entry is not None:
            return table_text("typing_clock", _, clock=_clock_digits(self.clock_entry))
        p = self.penalty
        if p is not None:
            kind = match.ruleset.penalties.kinds[p.kind]
            who = {"team": p.team, "player": p.player or "-", "label": kind.label}
            if p.asking_length:
                return table_text("typing_length", _, **who, minutes=p.length_minutes or _minutes(kind.length or 0))
            return table_text("typing_penalty", _, **who)
        return table_text("typing_number", _, number=self.number) if self.number else ""

    # -- typing ---------------------------------------------------------------------------

    def type_char(self, char: str) -> bool:
        """A character from the keypad; False when it means nothing here."""
        if self.clock_entry is not None:
            if char.isdigit() and len(self.clock_entry) < 4:
                self.clock_entry += char
                return True
            return False
        p = self.penalty
        if p is not None and p.asking_length:
            if char.isdigit() and len(p.length_minutes) < 2:
                p.length_minutes += char
                return True
            return False
        target = p.player if p is not None else self.number
        ok = (char.isdigit() or (char.isalpha() and char.isascii() and target)) and len(target) < MAX_NUMBER
        if not ok:
            return False
        if p is not None:
            p.player += char.upper()
        else:
            self.number += char.upper()
        return True

    def backspace(self) -> None:
        if self.clock_entry is not None:
            self.clock_entry = self.clock_entry[:-1]
        elif self.penalty is not None and self.penalty.asking_length:
            self.penalty.length_minutes = self.penalty.length_minutes[:-1]
        elif self.penalty is not None:
            self.penalty.player = self.penalty.player[:-1]
        else:
            self.number = self.number[:-1]

    def cancel(self) -> bool:
        """Close whatever is open; False when nothing was."""
        was_open = bool(self.number) or self.penalty is not None or self.clock_entry is not None
        self.reset()
        return was_open

    # -- actions --------------------------------------------------------------------------

    def act(self, action: ActionName, at: int, match: Match, state: MatchState) -> list[Effect]:
        """What ``action`` pressed at match instant ``at`` asks for; ``state`` is the match at ``at``."""
        return HANDLERS[action](self, at, match, state)

    def _take_number(self) -> str | None:
        number, self.number = self.number, ""
        return number or None

    def _clock_start(self, at: int, match: Match, state: MatchState) -> list[Effect]:
        return self._replace(ev.ClockStopped, at, match) or [_apply(ev.ClockStarted(at=at))]

    def _clock_stop(self, at: int, match: Match, state: MatchState) -> list[Effect]:
        return self._replace(ev.ClockStarted, at, match) or [_apply(ev.ClockStopped(at=at))]

    def _replace(self, wrong: type[ev.ClockStarted] | type[ev.ClockStopped], at: int, match: Match) -> list[Effect]:
        """The other clock button within ``replace_ms`` of a wrong one: take the wrong one back instead,
        so the clock is as if it had never been pressed (officials expect this of a table)."""
        if not match.events:
            return []
        last = match.events[-1]
        if isinstance(last, wrong) and not match.is_undone(last.seq) and 0 <= at - last.at <= self.replace_ms:
            return [_apply(ev.Undo(at=max(at, match.last_at), target=last.seq))]
        return []

    def _goal(self, team: Side, at: int, match: Match, state: MatchState) -> list[Effect]:
        self.penalty = None
        player = self._take_number()
        if state.phase == "shootout":
            return [_apply(ev.ShootoutAttempt(at=at, team=team, scored=True, player=player))]
        return [_apply(ev.Goal(at=at, team=team, player=player))]

    def _penalty(self, team: Side, at: int, match: Match, state: MatchState) -> list[Effect]:
        if state.phase == "shootout":
            return [_apply(ev.ShootoutAttempt(at=at, team=team, scored=False, player=self._take_number()))]
        kinds = tuple(match.ruleset.penalties.kinds)
        if not kinds:
            return [_refuse("no_penalties", ruleset=match.ruleset.name)]
        p = self.penalty
        if p is not None and p.team == team and not p.asking_length:
            p.index = (p.index + 1) % len(kinds)
        else:
            self.penalty = PenaltyDraft(team=team, kinds=kinds, player=self._take_number() or "")
        return []  # the prompt on the screen shows the draft

    def _mode(self, at: int, match: Match, state: MatchState) -> list[Effect]:
        p = self.penalty
        if p is not None and not p.asking_length:
            p.index = (p.index + 1) % len(p.kinds)
            return []
        pieces = list(match.ruleset.match.set_pieces)
        if pieces:
            if state.set_piece is None:
                return [_apply(ev.SetPieceStarted(at=at, name=pieces[0]))]
            effects = [_apply(ev.SetPieceEnded(at=at))]
            following = pieces.index(state.set_piece) + 1 if state.set_piece in pieces else len(pieces)
            if following < len(pieces):
                effects.append(_apply(ev.SetPieceStarted(at=at, name=pieces[following])))
            return effects
        if match.ruleset.match.possession_clock is not None:
            return [_apply(ev.PossessionReset(at=at))]
        return [_refuse("mode_nothing")]

    def _next(self, at: int, match: Match, state: MatchState) -> list[Effect]:
        if self.clock_entry is not None:
            digits, self.clock_entry = self.clock_entry, None
            return [_apply(ev.ClockCorrected(at=at, clock=_clock_ms(digits)))]
        p = self.penalty
        if p is not None:
            kind = match.ruleset.penalties.kinds[p.kind]
            if kind.minimum and not p.asking_length:
                p.asking_length = True
                return []
            self.penalty = None
            length = int(p.length_minutes) * 60_000 if p.asking_length and p.length_minutes else None
            if kind.minimum and length is None:
                length = kind.length
            return [_apply(ev.PenaltyAwarded(at=at, team=p.team, kind=p.kind, player=p.player or None,
                                             length=length if kind.minimum else None))]
        if state.phase == "finished":
            return [Effect(kind="load")]
        if state.phase == "interval":
            return [_apply(ev.PeriodAdvanced(at=at))]
        if state.phase == "pre_match":
            return [_refuse("not_started")]
        return [_refuse("hold_next")]

    def _undo(self, at: int, match: Match, state: MatchState) -> list[Effect]:
        if self.cancel():
            return [Effect(kind="say", words="cancelled")]
        target = undo_target(match)
        if target is not None:
            return [_apply(ev.Undo(at=max(at, match.last_at), target=target.seq))]
        return [_refuse("nothing_to_undo")]

    def _disallow_goal(self, team: Side, at: int, match: Match, state: MatchState) -> list[Effect]:
        disallowed = {e.target for e in match.timeline if isinstance(e, ev.GoalDisallowed)}
        for e in reversed(match.timeline):
            if isinstance(e, ev.Goal) and e.team == team and e.seq not in disallowed:
                return [_apply(ev.GoalDisallowed(at=at, target=e.seq))]
        return [_refuse("no_goal", team=team)]

    def _lengthen(self, team: Side, at: int, match: Match, state: MatchState) -> list[Effect]:
        kinds = match.ruleset.penalties.kinds
        lengths: dict[int, int] = {}
        for e in match.timeline:
            if isinstance(e, ev.PenaltyAwarded) and e.team == team and kinds[e.kind].minimum:
                lengths[e.seq] = e.length or kinds[e.kind].length or 0
            elif isinstance(e, ev.PenaltyLengthened) and e.target in lengths:
                lengths[e.target] = e.length
        if not lengths:
            return [_refuse("no_lengthening", team=team)]
        target = max(lengths)
        return [_apply(ev.PenaltyLengthened(at=at, target=target, length=lengths[target] + 60_000))]

    def _correct_clock(self, at: int, match: Match, state: MatchState) -> list[Effect]:
        self.penalty, self.number, self.clock_entry = None, "", ""
        return []


Handler = Callable[[Entry, int, Match, MatchState], list[Effect]]


def _for(team: Side, handler: Callable[[Entry, Side, int, Match, MatchState], list[Effect]]) -> Handler:
    return lambda entry, at, match, state: handler(entry, team, at, match, state)


def _event(make: Callable[[int], ev.Event]) -> Handler:
    """An action that is one event at its instant, whatever is typed or open."""
    return lambda entry, at, match, state: [_apply(make(at))]


def _loop(effect: Effect) -> Handler:
    """An action that is the loop's own (the horn, a match to load)."""
    return lambda entry, at, match, state: [effect]


_A = ActionName
HANDLERS: dict[ActionName, Handler] = {
    _A.CLOCK_START: Entry._clock_start, _A.CLOCK_STOP: Entry._clock_stop,
    _A.GOAL_HOME: _for("home", Entry._goal), _A.GOAL_AWAY: _for("away", Entry._goal),
    _A.PENALTY_HOME: _for("home", Entry._penalty), _A.PENALTY_AWAY: _for("away", Entry._penalty),
    _A.TIMEOUT_HOME: _event(lambda at: ev.TimeoutStarted(at=at, team="home")),
    _A.TIMEOUT_AWAY: _event(lambda at: ev.TimeoutStarted(at=at, team="away")),
    _A.HORN: _loop(Effect(kind="horn")), _A.UNDO: Entry._undo, _A.NEXT: Entry._next, _A.MODE: Entry._mode,
    _A.END_PERIOD: _event(lambda at: ev.PeriodAdvanced(at=at)), _A.NEW_MATCH: _loop(Effect(kind="load", force=True)),
    _A.ABANDON: _event(lambda at: ev.MatchAbandoned(at=at, reason="abandoned at the table")),
    _A.DISALLOW_GOAL_HOME: _for("home", Entry._disallow_goal),
    _A.DISALLOW_GOAL_AWAY: _for("away", Entry._disallow_goal),
    _A.LENGTHEN_HOME: _for("home", Entry._lengthen), _A.LENGTHEN_AWAY: _for("away", Entry._lengthen),
    _A.END_TIMEOUT: _event(lambda at: ev.TimeoutEnded(at=at)), _A.MUTE: _loop(Effect(kind="mute")),
    _A.CORRECT_CLOCK: Entry._correct_clock, _A.POSSESSION_RESET: _event(lambda at: ev.PossessionReset(at=at)),
    _A.POSSESSION_RESET_SHORT: _event(lambda at: ev.PossessionReset(at=at, short=True)),
}
"""What each action does: every action has its handler (tests/test_firmware_actions.py checks)."""


def _apply(event: ev.Event) -> Effect:
    return Effect(kind="apply", event=event)


def undo_target(match: Match) -> ev.Event | None:
    """What UNDO takes back when nothing is being typed: the last event entered that is in force."""
    for event in reversed(match.events):
        if not isinstance(event, ev.Undo) and not match.is_undone(event.seq):
            return event
    return None


def _refuse(words: str, **params: object) -> Effect:
    return Effect(kind="refuse", words=words, params=params)


def _clock_digits(digits: str) -> str:
    padded = digits.rjust(4, "0")
    return f"{padded[:2]}:{padded[2:]}"


def _clock_ms(digits: str) -> int:
    padded = (digits or "0").rjust(4, "0")
    return (int(padded[:2]) * 60 + int(padded[2:])) * 1000


def _minutes(ms: int) -> str:
    return f"{ms / 60_000:g}"
