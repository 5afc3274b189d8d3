"""The organiser's desk: its rules, each once as a pure function, and the changes, each in one transaction.

The rules say what may change and why not (:class:`DeskError`, nothing stored); what they look at is handed
in. The desk's commands (server.desk_commands) read it from the database in the transaction that applies
them (:func:`writing`), then call these rules and the ``put_*`` changes below; the desk's forms only read
fields into commands.

Every change takes the store, what to change, ``who`` (the account) and ``why`` (required
sentence), writes a ``changes`` row (who, when, why, before, after) in the same transaction, and
returns what it touched (:class:`Affected`) so the service's loop republishes the tables and
schedules it changed and tells the pages.

- :func:`put_result` (a correction, a walk-over or forfeit: ``outcome`` says which)
- :func:`put_settlement` (a held result applied, or rejected)
- :func:`put_move` (another court and/or start)
- :func:`put_decision` (lots or a penalty competition for a tie the results cannot break)

Each has a one-transaction form for scripts and tests (:func:`record_result`, :func:`settle_conflict`,
:func:`move_match`, :func:`record_decision`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Row, func, select
from sqlalchemy.orm import Session

from rules import (
    CONTINUES,
    CourtsideError,
    Decision,
    ProtocolError,
    Result,
    ResultsError,
    decision_problem,
    read_result,
    result_payload,
)
from rules.tournament.decisions import check_decisions
from server.db.models import Change, Conflict, DecisionRow, EventRow, Fixture, ResultRow
from server.pool_tables import pool_state
from server.result_feed import written
from server.store import Store, as_utc, result_row, utcnow


class DeskError(CourtsideError, ValueError):
    """An organiser's change that cannot be made; the message says why (nothing was stored).
    ``field``: the desk form's field it is about, when one is."""

    def __init__(self, message: str, field: str = "") -> None:
        self.field = field
        super().__init__(f"{field}: {message}" if field else message)


class StaleView(DeskError):
    """The match changed since the organiser's page showed it (a table's result arrived, another organiser
    wrote): nothing was stored; the message says what is there now."""


DESK_LOCK = 0x6465736B  # "desk": the advisory lock every desk write takes on PostgreSQL


@dataclass(frozen=True)
class Affected:
    pools: frozenset[str] = frozenset()
    courts: frozenset[str] = frozenset()
    matches: frozenset[str] = frozenset()
    all_courts: bool = field(default=False)


# The rules -------------------------------------------------------------------------------------------

# Seed 004 (ice hockey): the order the organiser considers a game that could not be finished.
ABANDONED_ORDER = (
    ("resume", "game resumed at a later time"),
    ("replay", "game played at a later time"),
    ("leader", "leading team considered the winner"),
    ("tie", "game determined a tie"),
)


def reason(why: str) -> str:
    """Every change is logged with its reason: there must be one."""
    if not why or not why.strip():
        raise DeskError("is required: every change is logged with its reason", "why")
    return why.strip()


def walkover(number: int, home: str, away: str, winner: str | None) -> None:
    """A walk-over or a forfeit is awarded to one of the match's two teams."""
    if winner not in (home, away):
        raise DeskError(f"{winner!r} does not play match {number} ({home} v {away})", "winner")


def abandoned(choice: str, home_goals: int = 0, away_goals: int = 0) -> str:
    """How an abandoned match is settled, in the seed's order, with its score when it stopped: its words."""
    labels = dict(ABANDONED_ORDER)
    if choice not in labels:
        raise DeskError(f"{choice!r} is not one of {', '.join(labels)}", "settle")
    if choice == "leader" and home_goals == away_goals:
        raise DeskError(f"no team leads at {home_goals}-{away_goals}; the next in the order is a tie", "home_goals")
    if choice == "tie" and home_goals != away_goals:
        raise DeskError(f"a tie is level, not {home_goals}-{away_goals}", "home_goals")
    return labels[choice]


def court_id(courts: Mapping[str, str], wanted: str) -> str:
    """The id of the court ``wanted`` names (its id or its name) among ``courts`` (id -> name)."""
    for cid, name in courts.items():
        if wanted in (cid, name):
            return cid
    raise DeskError(f"there is no court {wanted!r} (not one of the courts: {', '.join(courts.values())})", "court")


def decision(d: Decision) -> None:
    """The core's checks of a decision: its method, and at least two different teams, first placed first."""
    problem = decision_problem(d)
    if problem is not None:
        raise DeskError(problem)


def open_tie(pool: str, order: Collection[str], ties: Iterable[tuple[str, Collection[str]]], *, played: int,
             expected: int) -> None:
    """A decision orders a tie the standings leave open (``ties``: pool and teams), once the pool is played."""
    if played < expected:  # until then its last results may still break the tie
        raise DeskError(f"pool {pool} has played {played} of its {expected} matches: a tie is decided once its "
                        "last match is played", "pool")
    if any(p == pool and set(teams) == set(order) for p, teams in ties):
        return
    raise DeskError(f"pool {pool} has no open tie of exactly {', '.join(order) or 'these teams'}", "order")


def conflict(keep: str, closed: str | None) -> None:
    """The held result may replace the stored one only while the match's protest window is open (``closed``);
    keeping the stored result changes nothing and may still be recorded."""
    if keep == "held" and closed is not None:
        raise DeskError(closed, "keep")


def sanction(reported: bool, number: int, team: str, player: str) -> None:
    """The organiser rules on a card reported to them, not on one nobody reported."""
    if not reported:
        raise DeskError(f"no report for {player} ({team}) in match {number}")


# The changes -----------------------------------------------------------------------------------------


def tie_key(order: Iterable[str]) -> str:
    """A tie as the database knows it (one decision per tie in a pool): its teams, whatever their order."""
    return hashlib.blake2b("\n".join(sorted(order)).encode(), digest_size=12).hexdigest()


def check_result(result: dict[str, Any]) -> Result:
    """The protocol's checks on a result payload (goals, outcome, winner side, shoot-out)."""
    try:
        return read_result(result)
    except ProtocolError as err:
        raise DeskError(f"result: {err}") from None


@contextmanager
def writing(store: Store) -> Iterator[Session]:
    """One desk write's transaction. On PostgreSQL it first takes the desk's lock, so the writes of organisers
    on several instances are checked and applied one after the other, each against what the one before stored
    (SQLite has one writer at a time by itself; several instances need PostgreSQL)."""
    with store.session.begin() as s:
        if s.get_bind().dialect.name == "postgresql":
            s.execute(select(func.pg_advisory_xact_lock(DESK_LOCK)))
        yield s
    store.forget_progress()


def beside_the_desk(s: Session) -> None:
    """A batch of the tables' messages, on PostgreSQL: it waits for a desk write being applied, and a desk write
    waits for it. A desk write checks what is stored (the result its page showed, a match not started) and writes
    in one transaction; a table's result stored in between would make the write fail, or be replaced by a write
    checked without it. The tables' batches share the lock, so instances taking messages at once do not wait
    for each other (SQLite has one writer at a time by itself). The first statement of the batch's transaction."""
    if s.get_bind().dialect.name == "postgresql":
        s.execute(select(func.pg_advisory_xact_lock_shared(DESK_LOCK)))


def match_version(court_name: str, start: datetime, result: ResultRow | Row[Any] | None) -> str:
    """What an organiser saw of a match, as a short digest: where and when, and the stored result with where it
    came from. A desk page sends it back with a write (``seen``); a write against another one is refused."""
    parts: list[object] = [court_name, start.replace(tzinfo=None).isoformat(timespec="minutes")]
    if result is not None:
        parts += [result.source, *(getattr(result, key) for key in _RESULT_KEYS)]
    return hashlib.blake2b("|".join(map(str, parts)).encode(), digest_size=6).hexdigest()


_RESULT_KEYS = ("home_goals", "away_goals", "outcome", "winner", "home_shootout", "away_shootout")


def unchanged(s: Session, f: Fixture, seen: str | None) -> None:
    """Refuse a write made on a page older than what is stored now, saying what is there now."""
    if seen is None:
        return
    stored = s.get(ResultRow, f.match_id)
    if match_version(f.court_name, f.start, stored) == seen:
        return
    now = "no result" if stored is None else (
        f"{stored.home_goals}–{stored.away_goals} from {'its table' if stored.source == 'table' else 'the desk'}, "
        f"stored {stored.recorded_at:%H:%M} UTC")
    raise StaleView(f"match {f.match_id} changed since this page was shown: now {now}, on {f.court_name} at "
                    f"{f.start:%H:%M}; look again before changing it")


def _venue_time(at: datetime) -> datetime:
    """A stored instant on the venue's clock, as the pages show times (the service runs in the venue's zone)."""
    return as_utc(at).astimezone()


def record_result(store: Store, match_id: str, result: dict[str, Any], *, who: str, why: str,
                  note: str = "", seen: str | None = None) -> Affected:
    """``note``: what kind of result the organiser entered ("walkover", "abandoned: game determined a tie"),
    kept in the audit row's ``after`` beside the result so the pages can say it. ``seen``: refuse unless the
    match is as the page showed it (checked in the transaction that would store it)."""
    why = reason(why)
    checked = check_result(result)
    with writing(store) as s:
        return put_result(store, s, match_id, checked, who=who, why=why, note=note, seen=seen)


def put_result(store: Store, s: Session, match_id: str, checked: Result, *, who: str, why: str, note: str = "",
               seen: str | None = None) -> Affected:
    """:func:`record_result` inside a desk write's transaction (:func:`writing`)."""
    f = s.get(Fixture, match_id)
    if f is None:
        raise DeskError(f"there is no match {match_id!r}")
    unchanged(s, f, seen)
    old = s.get(ResultRow, match_id)
    before = result_payload(old) if old else None
    if old is not None:
        s.delete(old)
        s.flush()
    try:
        row = result_row(store, s, match_id, checked, source="organiser", court=None, seq=None)
    except LookupError as err:
        raise DeskError(str(err)) from None
    if old is not None and (old.home, old.away) == (row.home, row.away):
        row.recorded_at = old.recorded_at  # the protest window runs from the match's end, not from each correction
    s.add(row)
    written(s, match_id)
    after = {**result_payload(row), **({"note": note} if note else {})}
    s.add(Change(at=utcnow(), who=who, action="result", match_id=match_id, pool=f.stage, why=why,
                 before=before, after=after))
    return Affected(pools=frozenset({f.stage}), matches=frozenset({match_id}),
                    courts=frozenset({f.court}) | _courts_after(store, s, f.stage))


def settle_conflict(store: Store, conflict_id: int, *, apply: bool, who: str, why: str,
                    settlement: str | None = None) -> Affected:
    """``settlement`` (only when not applied): "resume" or "replay" for an abandoned match played on later;
    the court's schedule tells the table so (server.payloads.schedule_payload's ``continues``). The held result
    is stored and the conflict closed in one transaction: a second settlement of it finds it closed."""
    why = reason(why)
    with writing(store) as s:
        return put_settlement(store, s, conflict_id, apply=apply, who=who, why=why, settlement=settlement)


def put_settlement(store: Store, s: Session, conflict_id: int, *, apply: bool, who: str, why: str,
            settlement: str | None = None) -> Affected:
    if settlement is not None and (apply or settlement not in CONTINUES):
        raise DeskError(f"settlement: {settlement!r} is not one of {', '.join(CONTINUES)} for a report not applied")
    c = s.get(Conflict, conflict_id)
    if c is None or c.settled_at is not None:
        settled = f" (settled by {c.settled_by} at {_venue_time(c.settled_at):%H:%M})" \
            if c is not None and c.settled_at else ""
        raise DeskError(f"there is no open conflict {conflict_id}{settled}")
    match_id, payload = c.match_id, dict(c.payload)
    f = s.get(Fixture, match_id)
    # Rejected, no pool changes: the court's schedule is published all the same, the sign every other instance
    # waits for to read the stored state again (server.watch), so none lists the conflict as open meanwhile.
    affected = put_result(store, s, match_id, check_result(payload), who=who,
                          why=f"conflict {conflict_id}: {why}") if apply else \
        Affected(matches=frozenset({match_id}), courts=frozenset({f.court} if f is not None else ()))
    c.settled_at, c.settled_by = utcnow(), who
    c.settlement = "applied" if apply else settlement or "rejected"
    if not apply:
        s.add(Change(at=utcnow(), who=who, action="conflict", match_id=match_id, why=why, before=payload, after=None))
    return affected


def move_match(store: Store, match_id: str, *, court: str | None = None, start: datetime | None = None,
               who: str, why: str, started_ok: bool = False, seen: str | None = None) -> Affected:
    """A match not started yet to another court or time. A started one stays (checked in this transaction: its
    table's events would be refused at the new court and spliced onto the old ones); ``started_ok``: an
    abandoned match resumed or replayed there, whose events go on with it."""
    with writing(store) as s:
        return put_move(store, s, match_id, court=court, start=start, who=who, why=why, started_ok=started_ok,
                        seen=seen)


def put_move(store: Store, s: Session, match_id: str, *, court: str | None = None, start: datetime | None = None,
             who: str, why: str, started_ok: bool = False, seen: str | None = None) -> Affected:
    """:func:`move_match` inside a desk write's transaction (:func:`writing`)."""
    why = reason(why)
    if court is not None:
        court = court_id(store.plan.courts, court)
    f = s.get(Fixture, match_id)
    if f is None:
        raise DeskError(f"there is no match {match_id!r}")
    unchanged(s, f, seen)
    if court is not None:  # a class plays on its own pitches: a 7 v 7 class's match never goes to an 11 v 11 one
        klass = store.plan.class_of(f.stage)
        if store.plan.courts[court] not in klass.tournament.schedule.courts:
            raise DeskError(f"class {klass.name} does not play on {store.plan.courts[court]}; its courts: "
                            f"{', '.join(klass.tournament.schedule.courts)}", "court")
    if not started_ok:
        events = s.scalar(select(func.count()).select_from(EventRow).where(EventRow.match_id == match_id))
        if events or s.get(ResultRow, match_id) is not None:
            where = f"its table on {f.court_name} has sent {events} event(s)" if events else "it has a result"
            raise DeskError(f"match {match_id} has started ({where}): a started match stays where it is; if it "
                            "cannot go on there, record it as abandoned and resume or replay it elsewhere")
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
    store.moved(s)
    return Affected(courts=frozenset(courts), matches=frozenset({match_id}))


def record_decision(store: Store, pool: str, method: str, order: list[str], *, who: str, why: str) -> Affected:
    """A decision for a tie still open in what is stored when it is applied: a second decision for it, or one
    for a tie a correction has dissolved meanwhile, is refused with why."""
    why = reason(why)
    decision(Decision(pool=pool, method=method, order=tuple(order)))
    with writing(store) as s:
        return put_decision(store, s, pool, method, order, who=who, why=why)


def put_decision(store: Store, s: Session, pool: str, method: str, order: list[str], *, who: str,
                 why: str) -> Affected:
    """:func:`record_decision` inside a desk write's transaction (:func:`writing`)."""
    plan = store.plan
    klass = plan.cup.class_of_stage(pool) or plan.cup.classes[0]  # an unknown pool: check_decisions says so
    try:  # what the progress would refuse to read back, whatever the tie: a method the ruleset does not use
        check_decisions(klass.tournament, plan.entry_by_class[klass.name],
                        [Decision(pool=pool, method=method, order=tuple(order))],
                        "the desk", methods=plan.rulesets[klass.name].ranking.criteria)
    except ResultsError as err:
        raise DeskError(err.message, "method" if "ruleset breaks" in err.message else "order") from None
    state = pool_state(store, s, pool)
    ties = [(u.pool, u.teams) for u in state.table.unresolved] if state.table is not None else []
    open_tie(pool, order, ties, played=state.played, expected=state.expected)
    s.add(DecisionRow(pool=pool, method=method, order=list(order), tie=tie_key(order), who=who, at=utcnow()))
    s.add(Change(at=utcnow(), who=who, action="decision", pool=pool, why=why, before=None,
                 after={"method": method, "order": list(order)}))
    return Affected(pools=frozenset({pool}), courts=_courts_after(store, s, pool))


def _courts_after(store: Store, s: Session, stage: str) -> frozenset[str]:
    """The courts whose schedules a desk write to ``stage`` can change, on to the final (a correction can set aside
    the results after it), the fixtures read as moved now: this transaction may not have read them."""
    store.fixtures(s)
    return store.courts_waiting_on(s, stage, to_the_final=True)
