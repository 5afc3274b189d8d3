"""A finished match's result on the wire and in the database: one type, one builder, one reader.

:class:`Result` is declared beside the engine's :class:`~rules.match.outcome.MatchOutcome`, which extends it
with the sanctions. The table publishes :func:`result_payload` of the engine's outcome on its
court's ``result`` topic; the service reads it back with :func:`read_result`, stores its six fields as they are
(a results row has the same columns) and puts it in a court's schedule; the desk's corrections are the same
payload. ``winner`` is a side (``"home"``, ``"away"`` or None) everywhere but in
:class:`rules.standings.MatchResult`, which names the team: :func:`standings_result` and :func:`of_standings`
are the only crossings between the two.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from rules.errors import ProtocolError, whole_number
from rules.match.events import Side
from rules.match.fold import OutcomeKind
from rules.match.outcome import Result as Result  # the wire's type, declared beside the engine's MatchOutcome

if TYPE_CHECKING:
    from rules.standings.results import MatchResult

RUN_OUT_MS = 86_400_000
"""A match ends by its clock, with no event at the end: its result is the engine's this long after its last
event. The table asks for it so before it sends it, and the service so when it checks it."""

OUTCOMES: tuple[OutcomeKind, ...] = ("regular", "overtime", "shootout", "walkover", "forfeit", "abandoned")


class HasResult(Protocol):
    """Anything with a result's six fields: the engine's MatchOutcome, a :class:`Result`, a results row."""

    @property
    def home_goals(self) -> int: ...
    @property
    def away_goals(self) -> int: ...
    @property
    def outcome(self) -> str: ...
    @property
    def winner(self) -> str | None: ...
    @property
    def home_shootout(self) -> int | None: ...
    @property
    def away_shootout(self) -> int | None: ...


class HasTeams(HasResult, Protocol):
    """A result whose ``winner`` names a team: the standings' MatchResult, a page's view of a stored result."""

    @property
    def home(self) -> str: ...
    @property
    def away(self) -> str: ...


FIELDS = Result.__record_fields__
"""A result's keys on the wire, and its columns in a results row."""
_FIELDS = frozenset(FIELDS)


def result_of(r: HasResult) -> Result:
    """The result of an engine's outcome or a stored row (whose fields are the payload's, checked on the way in)."""
    return r if type(r) is Result else Result(**result_payload(r))  # a MatchOutcome without its sanctions


def result_payload(r: HasResult) -> dict[str, Any]:
    """The ``result`` message's payload (and a results row's fields): all six keys, a missing count as null."""
    return {key: getattr(r, key) for key in FIELDS}


def read_result(payload: Any, where: str = "payload") -> Result:
    """The result of a ``result`` payload, checked; a wrong key or value raises ProtocolError naming it.

    ``winner`` and the shoot-out counts may be left out (null), as docs/asyncapi.yaml allows.
    """
    if not isinstance(payload, dict):
        raise ProtocolError(where, "must be an object")
    if payload.keys() - _FIELDS:
        raise ProtocolError(f"{where}.{sorted(payload.keys() - _FIELDS)[0]}", "unknown key")
    for key in ("home_goals", "away_goals", "outcome"):
        if key not in payload:
            raise ProtocolError(f"{where}.{key}", "required key is missing")
        if key != "outcome":
            whole_number(f"{where}.{key}", payload[key])
    if payload["outcome"] not in OUTCOMES:
        raise ProtocolError(f"{where}.outcome", f"{payload['outcome']!r} is not one of {', '.join(OUTCOMES)}")
    winner = payload.get("winner")
    if winner not in ("home", "away", None):
        raise ProtocolError(f"{where}.winner", f"{winner!r} is not 'home', 'away' or null")
    for key in ("home_shootout", "away_shootout"):
        if payload.get(key) is not None:
            whole_number(f"{where}.{key}", payload[key])
    values: dict[str, Any] = {key: payload.get(key) for key in FIELDS}
    return Result(**values)



# -- the one crossing to the standings, whose winner is a team ------------------------------------


def winner_team(winner: str | None, home: str, away: str) -> str | None:
    """The team a side names (None for no winner)."""
    return home if winner == "home" else away if winner == "away" else None


def winner_side(team: str | None, home: str, away: str) -> Side | None:
    """The side of the team ``team`` (None for no winner, or a team that played neither side)."""
    return None if team is None else "home" if team == home else "away" if team == away else None


def standings_result(r: HasResult, *, pool: str, home: str, away: str) -> MatchResult:
    """The standings' row of result ``r`` of the match ``home`` v ``away`` in ``pool``.

    An abandoned match's row keeps its outcome, for a page to show what is stored; no pool ranks it (the
    service leaves such rows out): the organiser decides its result.
    """
    # Field by field: the service converts every stored row of the pools a batch changed, after every batch.
    return _match_result()(pool=pool, home=home, away=away, home_goals=r.home_goals, away_goals=r.away_goals,
                           outcome=r.outcome, winner=winner_team(r.winner, home, away),  # type: ignore[arg-type]
                           home_shootout=r.home_shootout, away_shootout=r.away_shootout)


@cache
def _match_result() -> type[MatchResult]:
    # Loaded on first use: the table builds its results with this module and never ranks a pool, and
    # rules.standings would be loaded at every start of the table for nothing.
    from rules.standings.results import MatchResult

    return MatchResult


def of_standings(r: HasTeams) -> Result:
    """The result of a standings row (its winner's team as a side)."""
    return Result(**{**result_payload(r), "winner": winner_side(r.winner, r.home, r.away)})
