"""Desk input (an HTML form or an API body) into desk commands, each field read with a clear reason.

Only the fields: whether the change may be made is the desk's rules' (server.desk), which the
service's backend applies to the command at its instant."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any, Literal

from rules import Decision, MatchResult, Outcome
from rules.standings.results import OUTCOMES
from server.desk import DeskError
from server.desk_commands import CorrectResult, DeskCommand, MoveMatch, RecordDecision, RuleSanction, SettleConflict
from server.web.match_rows import MatchRow
from server.web.view import View

Fields = Mapping[str, Any]


def text(fields: Fields, key: str, *, required: bool = True) -> str:
    value = fields.get(key)
    value = "" if value is None else str(value).strip()
    if required and not value:
        raise DeskError("is required", key)
    if len(value) > 500:
        raise DeskError("is longer than 500 characters", key)
    return value


def goals(fields: Fields, key: str, *, required: bool = True) -> int | None:
    raw = fields.get(key)
    if raw is None or str(raw).strip() == "":
        if required:
            raise DeskError("is required (a whole number of goals)", key)
        return None
    value = str(raw).strip()
    if not value.isdigit() or len(value) > 3:
        raise DeskError(f"{value!r} is not a whole number of goals", key)
    return int(value)


def why(fields: Fields) -> str:
    """The organiser's reason as sent; the desk's rules refuse a change without one."""
    return text(fields, "why", required=False)


def number(fields: Fields, key: str) -> int:
    value = text(fields, key)
    if not value.isdigit():
        raise DeskError(f"{value!r} is not a match number", key)
    return int(value)


def row_of(view: View, n: int) -> MatchRow:
    row = view.by_number.get(n)
    if row is None:
        raise DeskError(f"there is no match {n}", "match")
    return row


def result_command(view: View, who: str, n: int, fields: Fields) -> CorrectResult:
    row = row_of(view, n)
    outcome = text(fields, "outcome", required=False) or "regular"
    if outcome not in OUTCOMES or outcome in ("walkover", "forfeit"):
        raise DeskError(f"{outcome!r} is not one of regular, overtime, shootout", "outcome")
    home, away = goals(fields, "home_goals"), goals(fields, "away_goals")
    assert home is not None and away is not None
    hs = goals(fields, "home_shootout", required=outcome == "shootout")
    as_ = goals(fields, "away_shootout", required=outcome == "shootout")
    if outcome != "shootout":
        hs = as_ = None
    result = MatchResult(
        pool=row.stage, home=row.home, away=row.away, home_goals=home, away_goals=away,
        outcome=_outcome(outcome), home_shootout=hs, away_shootout=as_,
    )
    return CorrectResult(who=who, why=why(fields), number=n, result=result, confirmed=confirmed(fields),
                         seen=seen(fields))


def walkover_command(view: View, who: str, n: int, fields: Fields) -> CorrectResult:
    row = row_of(view, n)
    kind = text(fields, "kind")
    if kind not in ("walkover", "forfeit"):
        raise DeskError(f"{kind!r} is not walkover or forfeit", "kind")
    result = MatchResult(pool=row.stage, home=row.home, away=row.away, home_goals=0, away_goals=0,
                         outcome=_outcome(kind), winner=text(fields, "winner"))
    return CorrectResult(who=who, why=why(fields), number=n, result=result, confirmed=confirmed(fields),
                         seen=seen(fields))


def abandoned_command(view: View, who: str, n: int, fields: Fields) -> DeskCommand:
    row = row_of(view, n)
    choice = text(fields, "settle")
    if choice in ("resume", "replay"):
        return MoveMatch(who=who, why=why(fields), number=n, court=text(fields, "court"),
                         start=venue_time(view, fields, "start", row.end - row.start),
                         continues="resume" if choice == "resume" else "replay", seen=seen(fields))
    home, away = goals(fields, "home_goals"), goals(fields, "away_goals")
    assert home is not None and away is not None
    result = MatchResult(pool=row.stage, home=row.home, away=row.away, home_goals=home, away_goals=away)
    return CorrectResult(who=who, why=why(fields), number=n, result=result, abandoned=choice,
                         confirmed=confirmed(fields), seen=seen(fields))


def seen(fields: Fields) -> str:
    """The match as the organiser's page showed it (``seen``, server.desk.match_version), if the form sent it."""
    return str(fields.get("seen") or "")[:32]


def confirmed(fields: Fields) -> bool:
    """The organiser confirmed a change after being told what it changes downstream (form "1", API true)."""
    return fields.get("confirm") in ("1", True)


def when(fields: Fields, key: str) -> datetime:
    value = text(fields, key)
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise DeskError(f"{value!r} is not a date and time like 2026-05-16T14:30", key) from None


def venue_time(view: View, fields: Fields, key: str, length: timedelta = timedelta()) -> datetime:
    """A new start for a match ``length`` long: the venue's local time on one of the tournament's days, within its
    day (from day_start, ending by day_end) when it has one. An offset is taken only when it is the venue's own."""
    at = when(fields, key)
    if at.tzinfo is not None:
        own = at.astimezone().utcoffset()  # the server runs in the venue's zone: the pages' times are its
        if at.utcoffset() != own:
            raise DeskError(f"{text(fields, key)!r}: its offset is not this venue's ({_offset(own)}); give the "
                            "venue's local time like 2026-05-16T14:30", key)
        at = at.replace(tzinfo=None)
    days = sorted({m.start.date() for m in view.matches})
    if days and at.date() not in days:
        listed = ", ".join(d.isoformat() for d in days)
        raise DeskError(f"{at.date().isoformat()} is not a day of this tournament (its days: {listed})", key)
    schedule = view.data.cup.schedule
    first, last = schedule.day_start, schedule.day_end
    end = at + length
    late = last is not None and (end.date() > at.date() or end.time() > last)
    if (first is not None and at.time() < first) or late:
        raise DeskError(f"{at:%H:%M} to {end:%H:%M} is outside the tournament's day ({first or '00:00'}-"
                        f"{last or '24:00'})", key)
    return at


def _offset(offset: timedelta | None) -> str:
    minutes = int((offset or timedelta()).total_seconds() // 60)
    return f"{'+' if minutes >= 0 else '-'}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def move_command(view: View, who: str, n: int, fields: Fields) -> MoveMatch:
    row = row_of(view, n)
    return MoveMatch(who=who, why=why(fields), number=n, court=text(fields, "court"),
                     start=venue_time(view, fields, "start", row.end - row.start), seen=seen(fields))


def decision_command(who: str, fields: Fields) -> RecordDecision:
    order = fields.get("order")
    teams = [t.strip() for t in (order if isinstance(order, list) else str(order or "").split(">")) if t.strip()]
    decision = Decision(pool=text(fields, "pool"), method=text(fields, "method"), order=tuple(teams))
    return RecordDecision(who=who, why=why(fields), decision=decision)


def conflict_command(who: str, conflict: str, fields: Fields) -> SettleConflict:
    keep = text(fields, "keep")
    if keep not in ("stored", "held"):
        raise DeskError(f"{keep!r} is not stored or held", "keep")
    kept: Literal["stored", "held"] = "held" if keep == "held" else "stored"
    return SettleConflict(who=who, why=why(fields), conflict=conflict, keep=kept)


def sanction_command(who: str, fields: Fields) -> RuleSanction:
    matches = goals(fields, "matches")
    assert matches is not None
    return RuleSanction(
        who=who, why=why(fields), number=number(fields, "number"), team=text(fields, "team"),
        player=text(fields, "player"), matches=matches,
    )


def _outcome(value: str) -> Outcome:
    for o in OUTCOMES:
        if o == value:
            return o
    raise DeskError(f"{value!r} is not an outcome", "outcome")
