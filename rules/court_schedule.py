"""A court's schedule on the wire: the service publishes it (retained) on ``court/{court}/schedule``; the table
plays from it and ``display follow`` shows what comes next. One record type, one builder, one reader.

The matches are in playing order, teams resolved as far as results allow, with who may not play each one
(the service's disciplinary register). docs/asyncapi.yaml describes the same payload.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, get_args

from rules.errors import ProtocolError, whole_number
from rules.match.events import Side
from rules.record import Record
from rules.result import Result, read_result, result_payload
from rules.ruleset import StageKind

Continues = Literal["resume", "replay"]
CONTINUES: tuple[Continues, ...] = get_args(Continues)
"""How an abandoned match is played on (a schedule's ``continues``): match_resumed or match_replayed."""
MatchStatus = Literal["scheduled", "live", "finished", "conflict"]
_STATUSES: tuple[MatchStatus, ...] = get_args(MatchStatus)
_KINDS: tuple[StageKind, ...] = get_args(StageKind)


class Suspended(Record):
    """A player who may not play a scheduled match: sent off earlier (the service's disciplinary register).
    The table shows them under the team until the match starts."""

    side: Side
    player: str  # the shirt number
    label: str  # the ruleset's name for the card, in the tournament's language ("Rött kort")
    given_in: int  # the schedule number of the match it was given in
    kind: str = ""  # the ruleset's penalty kind ("red"); "" in a schedule a table kept before it came on the wire
    matches_left: int = 1  # this one included


class CourtMatch(Record):
    """One match of a court's schedule, teams resolved as far as results allow (docs/asyncapi.yaml). The table
    plays this record itself: from the service's schedule, from its tournament file's, or a friendly it makes."""

    match: str  # the schedule's number as text, as the envelope's ``match`` names it ("friendly-1": the table's own)
    number: int  # 0 for a friendly
    stage: str  # the pool, or the tournament file's match name ("SF1"); "friendly"
    round: str  # the ruleset's round ("pool", "semi_final"); "" for a friendly
    home: str  # a team, or the placeholder it waits for ("2A", "winner SF1")
    away: str
    start: datetime | None  # None only for a friendly, which has no time: the service always sends one
    status: MatchStatus = "scheduled"
    kind: StageKind = "round_robin"
    home_known: bool = True
    away_known: bool = True
    end: datetime | None = None
    result: Result | None = None
    suspended: tuple[Suspended, ...] = ()  # optional on the wire: an older table ignores it
    continues: Continues | None = None  # an abandoned match the organiser settled to be played on (seed 004)
    class_name: str = ""  # a cup's class: the table plays the match by that class's ruleset ("class" on the wire)


class CourtSchedule(Record):
    """A ``schedule`` message's payload: the court's name and its matches in playing order."""

    court_name: str
    matches: tuple[CourtMatch, ...]


def court_schedule_payload(schedule: CourtSchedule) -> dict[str, Any]:
    """The payload the service publishes."""
    return {"court_name": schedule.court_name, "matches": [court_match_payload(m) for m in schedule.matches]}


def court_match_payload(m: CourtMatch) -> dict[str, Any]:
    """One match as the schedule's payload has it (and a table's journal keeps the match it plays);
    ``end``, ``suspended``, ``continues`` and ``class`` only where there are some."""
    item: dict[str, Any] = {
        "match": m.match, "number": m.number, "stage": m.stage, "round": m.round, "kind": m.kind,
        "home": m.home, "away": m.away, "home_known": m.home_known, "away_known": m.away_known,
        "start": None if m.start is None else m.start.isoformat(timespec="minutes"), "status": m.status,
        "result": None if m.result is None else result_payload(m.result),
    }
    if m.end is not None:
        item["end"] = m.end.isoformat(timespec="minutes")
    if m.suspended:
        item["suspended"] = [{"side": s.side, "player": s.player, "kind": s.kind, "label": s.label,
                              "given_in": s.given_in, "matches_left": s.matches_left} for s in m.suspended]
    if m.continues is not None:
        item["continues"] = m.continues
    if m.class_name:
        item["class"] = m.class_name
    return item


def read_court_schedule(payload: Any, where: str = "payload") -> CourtSchedule:
    """The schedule in a ``schedule`` payload, checked; a wrong value raises ProtocolError naming its key.
    Keys a later version may add are ignored, so an older table keeps working."""
    if not isinstance(payload, dict) or not isinstance(payload.get("matches"), list):
        raise ProtocolError(f"{where}.matches", "must be a list")
    court_name = payload.get("court_name", "")
    if not isinstance(court_name, str):
        raise ProtocolError(f"{where}.court_name", "a text is required")
    matches = [read_court_match(item, f"{where}.matches[{i}]") for i, item in enumerate(payload["matches"])]
    return CourtSchedule(court_name=court_name, matches=tuple(matches))


def read_court_match(item: Any, where: str = "match") -> CourtMatch:
    """One match as :func:`court_match_payload` writes it, checked; a wrong value raises ProtocolError naming its
    key under ``where``."""
    try:
        return _court_match(item)
    except ProtocolError as err:  # the key's path is made only for a wrong one: the service checks each it sends
        raise ProtocolError(f"{where}{err.field}", err.message) from None


def _court_match(item: Any) -> CourtMatch:
    if not isinstance(item, dict) or not isinstance(item.get("match"), str):
        raise ProtocolError("", "must be an object with its 'match'")
    for key in ("stage", "round", "home", "away"):
        if not isinstance(item.get(key), str):
            raise ProtocolError(f".{key}", "a text is required")
    for key, allowed, absent in (("status", _STATUSES, ""), ("kind", _KINDS, "round_robin"),
                                 ("continues", CONTINUES, "resume")):  # status is required, the others not
        if item.get(key, absent) not in allowed:
            raise ProtocolError(f".{key}", f"must be one of {', '.join(allowed)}, not {item.get(key)!r}")
    for key in ("home_known", "away_known"):
        if not isinstance(item.get(key, True), bool):
            raise ProtocolError(f".{key}", "true or false is required")
    if not isinstance(item.get("class", ""), str):
        raise ProtocolError(".class", "a text is required")
    end, result, suspended = item.get("end"), item.get("result"), item.get("suspended")
    return CourtMatch(
        match=item["match"], number=whole_number(".number", item.get("number")), stage=item["stage"],
        round=item["round"],
        home=item["home"], away=item["away"], status=item["status"],
        start=None if item.get("start") is None else _time(".start", item["start"]),
        kind=item.get("kind", "round_robin"), home_known=item.get("home_known", True),
        away_known=item.get("away_known", True), end=None if end is None else _time(".end", end),
        result=None if result is None else read_result(result, ".result"),
        suspended=() if suspended is None else _suspended(".suspended", suspended), continues=item.get("continues"),
        class_name=item.get("class", ""),
    )


def _time(where: str, value: Any) -> datetime:
    try:
        return datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise ProtocolError(where, f"an ISO 8601 time is required, not {value!r}") from None


_SUSPENDED_KEYS = {"side", "player", "kind", "label", "given_in", "matches_left"}


def _suspended(field: str, entries: Any) -> tuple[Suspended, ...]:
    """A scheduled match's players who may not play it. Optional, as the schedule's other keys: an older table
    ignores it, and a table ignores keys of an entry it does not know (a later version may add some)."""
    if not isinstance(entries, list):
        raise ProtocolError(field, "must be a list")
    out = []
    for n, e in enumerate(entries):
        where = f"{field}[{n}]"
        if not isinstance(e, dict) or not set(e) >= _SUSPENDED_KEYS:
            raise ProtocolError(where, f"must be an object with {', '.join(sorted(_SUSPENDED_KEYS))}")
        if e["side"] not in ("home", "away"):
            raise ProtocolError(f"{where}.side", "must be 'home' or 'away'")
        for key in ("player", "kind", "label"):
            if not isinstance(e[key], str) or not e[key]:
                raise ProtocolError(f"{where}.{key}", "a text is required")
        out.append(Suspended(side=e["side"], player=e["player"], kind=e["kind"], label=e["label"],
                             given_in=whole_number(f"{where}.given_in", e["given_in"], low=1),
                             matches_left=whole_number(f"{where}.matches_left", e["matches_left"], low=1)))
    return tuple(out)
