"""The organiser's changes (issue 12's desk calls these): each is one transaction with its audit row.

Every function takes the store, what to change, ``who`` (the account) and ``why`` (required
sentence), writes a ``changes`` row (who, when, why, before, after) in the same transaction, and
returns what it touched (:class:`Affected`) so the caller can tell the change hub
(``hub.changed(pools=a.pools, courts=a.courts, matches=a.matches, kinds={"desk"})``); the service
republishes the tables and schedules when the hub says so.

- :func:`record_result` (a correction, a walk-over or forfeit: ``outcome`` says which)
- :func:`settle_conflict` (apply the held result, or reject it)
- :func:`move_match` (another court and/or start)
- :func:`record_decision` (lots or a penalty competition for a tie the results cannot break)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from rules.errors import CourtsideError, ProtocolError
from rules.protocol import CONTINUES
from rules.result import Result, read_result, result_payload
from standings.db.models import Change, Conflict, DecisionRow, Fixture, ResultRow
from standings.store import Store, result_row, utcnow


class DeskError(CourtsideError, ValueError):
    """An organiser's change that cannot be made; the message says why (nothing was stored)."""


@dataclass(frozen=True)
class Affected:
    pools: frozenset[str] = frozenset()
    courts: frozenset[str] = frozenset()
    matches: frozenset[str] = frozenset()
    all_courts: bool = field(default=False)


def _why(why: str) -> str:
    if not why or not why.strip():
        raise DeskError("say why: every change is logged with its reason")
    return why.strip()


def check_result(result: dict[str, Any]) -> Result:
    """The protocol's checks on a result payload (goals, outcome, winner side, shoot-out)."""
    try:
        return read_result(result)
    except ProtocolError as err:
        raise DeskError(f"result: {err}") from None


def record_result(store: Store, match_id: str, result: dict[str, Any], *, who: str, why: str,
                  note: str = "") -> Affected:
    """``note``: what kind of result the organiser entered ("walkover", "abandoned: game determined a tie"),
    kept in the audit row's ``after`` beside the result so the pages can say it."""
    why = _why(why)
    checked = check_result(result)
    with store.session.begin() as s:
        f = s.get(Fixture, match_id)
        if f is None:
            raise DeskError(f"there is no match {match_id!r}")
        old = s.get(ResultRow, match_id)
        before = result_payload(old) if old else None
        if old is not None:
            s.delete(old)
            s.flush()
        try:
            row = result_row(store, s, match_id, checked, source="organiser", court=None, seq=None)
        except LookupError as err:
            raise DeskError(str(err)) from None
        if old is not None:  # the protest window runs from the match's end, not from each correction
            row.recorded_at = old.recorded_at
        s.add(row)
        after = {**result_payload(row), **({"note": note} if note else {})}
        s.add(Change(at=utcnow(), who=who, action="result", match_id=match_id, pool=f.stage, why=why,
                     before=before, after=after))
        stage = f.stage
    store.forget_progress()
    return Affected(pools=frozenset({stage}), matches=frozenset({match_id}), all_courts=True)


def settle_conflict(store: Store, conflict_id: int, *, apply: bool, who: str, why: str,
                    settlement: str | None = None) -> Affected:
    """``settlement`` (only when not applied): "resume" or "replay" for an abandoned match played on later;
    the court's schedule tells the table so (standings.payloads.schedule_payload's ``continues``)."""
    why = _why(why)
    if settlement is not None and (apply or settlement not in CONTINUES):
        raise DeskError(f"settlement: {settlement!r} is not one of {', '.join(CONTINUES)} for a report not applied")
    with store.session() as s:
        c = s.get(Conflict, conflict_id)
        if c is None or c.settled_at is not None:
            raise DeskError(f"there is no open conflict {conflict_id}")
        match_id, payload = c.match_id, dict(c.payload)
    affected = record_result(store, match_id, payload, who=who, why=f"conflict {conflict_id}: {why}") if apply \
        else Affected(matches=frozenset({match_id}))
    with store.session.begin() as s:
        c = s.get(Conflict, conflict_id)
        assert c is not None
        c.settled_at, c.settled_by = utcnow(), who
        c.settlement = "applied" if apply else settlement or "rejected"
        if not apply:
            s.add(Change(at=utcnow(), who=who, action="conflict", match_id=match_id, why=why, before=payload,
                         after=None))
    return affected


def move_match(store: Store, match_id: str, *, court: str | None = None, start: datetime | None = None,
               who: str, why: str) -> Affected:
    why = _why(why)
    if court is not None and court not in store.plan.courts:
        raise DeskError(f"there is no court {court!r} (courts: {', '.join(store.plan.courts)})")
    with store.session.begin() as s:
        f = s.get(Fixture, match_id)
        if f is None:
            raise DeskError(f"there is no match {match_id!r}")
        before = {"court": f.court, "start": f.start.isoformat()}
        courts = {f.court}
        if court is not None:
            f.court, f.court_name = court, store.plan.courts[court]
            courts.add(court)
        if start is not None:
            f.end = start + (f.end - f.start)
            f.start = start
        s.add(Change(at=utcnow(), who=who, action="move", match_id=match_id, pool=f.stage, why=why, before=before,
                     after={"court": f.court, "start": f.start.isoformat()}))
    return Affected(courts=frozenset(courts), matches=frozenset({match_id}))


def record_decision(store: Store, pool: str, method: str, order: list[str], *, who: str, why: str) -> Affected:
    why = _why(why)
    if method not in ("lots", "penalty_competition"):
        raise DeskError(f"method: {method!r} is neither 'lots' nor 'penalty_competition'")
    if len(order) < 2 or len(set(order)) != len(order):
        raise DeskError("order: name at least two different teams, first placed first")
    with store.session.begin() as s:
        s.add(DecisionRow(pool=pool, method=method, order=list(order), who=who, at=utcnow()))
        s.add(Change(at=utcnow(), who=who, action="decision", pool=pool, why=why, before=None,
                     after={"method": method, "order": list(order)}))
    store.forget_progress()
    return Affected(pools=frozenset({pool}), all_courts=True)

