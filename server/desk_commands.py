"""The desk's commands: each checked against what is stored when it is applied, and applied in that transaction.

The desk's forms and its API (server.web) only read fields into a command and hand it to the service's loop
(``Service.submit``), which runs :meth:`DeskCommands.run`. Everything a command is checked against (the
match's teams, its stored result and where that came from, the protest window, the open tie, the open
conflict, the reported card, the account's role) is read in the desk write's transaction
(server.desk.writing) that stores the change, so two organisers, a table and a walk-over acting at once are
applied one after the other, each against what the one before stored. A refusal raises a
:class:`~server.desk.DeskError` (or :class:`NeedsConfirmation`, :class:`NotYourRole`) and stores nothing.
The rules themselves are server.desk's pure functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules import (
    CourtsideError,
    Decision,
    MatchResult,
    Result,
    of_standings,
    parse_sheet_csv,
    read_result,
    result_payload,
)
from server import desk, discipline
from server.corrections import consequences
from server.db.models import Change, Conflict, EventRow, Fixture, ResultRow, TeamSheetRow
from server.desk import Affected, DeskError
from server.discipline import sanctions_from_cards
from server.progresses import to_match_result
from server.rulings import Rulings
from server.scores import awarded, score_text
from server.store import Store, UnknownTeams, as_utc, teams_of, utcnow

ORGANISER, DESK = "organiser", "desk"
ROLES = (ORGANISER, DESK)
# The matches being played: some events stored, no result yet (an abandoned one's report is a conflict, not a result).
_UNDER_WAY = select(EventRow.match_id).where(EventRow.match_id.not_in(select(ResultRow.match_id))).distinct()


class NeedsConfirmation(CourtsideError, ValueError):
    """A result that replaces a stored one, or changes later matches or places: nothing is stored until the
    organiser confirms. ``lines`` says what it replaces and what it would change, a sentence each."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        super().__init__("this result changes what is stored; confirm to store it: " + "; ".join(lines))


class NotYourRole(CourtsideError, PermissionError):
    """The account's role does not allow this change (a ``desk`` account replacing a stored result, moving a
    match): nothing was stored; the message says what the role may do."""


# The commands --------------------------------------------------------------------------------------
# Each carries who asked, why, the account's role and what the page showed of the match (``seen``).


@dataclass(frozen=True, kw_only=True)
class DeskCommand:
    who: str
    why: str
    role: str = ORGANISER  # the account's role when it sent the command (ROLES)
    seen: str = ""  # the match as the page showed it (server.desk.match_version): a write on an older one is refused


@dataclass(frozen=True, kw_only=True)
class CorrectResult(DeskCommand):
    """Enter or replace a match's result (also a walk-over, a forfeit, an abandoned match settled)."""

    number: int
    result: MatchResult
    abandoned: str = ""  # how an abandoned match is settled (server.desk.ABANDONED_ORDER's "leader" or "tie")
    confirmed: bool = False  # the organiser saw what it replaces and changes downstream, and goes on


@dataclass(frozen=True, kw_only=True)
class RecordDecision(DeskCommand):
    decision: Decision


@dataclass(frozen=True, kw_only=True)
class SettleConflict(DeskCommand):
    conflict: str
    keep: Literal["stored", "held"]


@dataclass(frozen=True, kw_only=True)
class MoveMatch(DeskCommand):
    number: int
    court: str
    start: datetime
    # How the table takes the abandoned match up again: "resume" or "replay" (seed 004); "" for a plain move.
    # The court's schedule says it, so the table reopens its journal of the match (docs/asyncapi.yaml).
    continues: Literal["", "resume", "replay"] = ""


@dataclass(frozen=True, kw_only=True)
class RuleSanction(DeskCommand):
    """The organiser's ruling on a reported card: how many further matches the player misses."""

    number: int
    team: str
    player: str
    matches: int


@dataclass(frozen=True, kw_only=True)
class ChangeSheet(DeskCommand):
    """A team's sheet replaced (its CSV text: number,name[,role]), before the team's next match."""

    team: str
    text: str


_ORGANISERS_ONLY = {MoveMatch: "moving a match", SettleConflict: "settling a conflict",
                    RuleSanction: "ruling on a card", ChangeSheet: "changing a team sheet"}


class DeskCommands:
    """Runs the desk's commands on the service's loop (``Service.submit(lambda: commands.run(c))``)."""

    def __init__(self, store: Store, rulings: Rulings) -> None:
        self.store = store
        self.rulings = rulings

    def run(self, command: DeskCommand, *, now: datetime | None = None) -> Affected:
        """Check ``command`` against what is stored and apply it, in one transaction; ``now``: the instant the
        protest windows are judged at (the clock's, in UTC, unless a test says otherwise)."""
        why = desk.reason(command.why)
        at = as_utc(now or utcnow())
        if isinstance(command, RecordDecision):  # whoever may sit at the desk decides a tie
            desk.decision(command.decision)
        elif command.role != ORGANISER and not isinstance(command, CorrectResult):
            _not_your_role(command.role, _ORGANISERS_ONLY.get(type(command), "this change"))
        with desk.writing(self.store) as s:
            if isinstance(command, CorrectResult):
                return self._result(s, command, why, at)
            if isinstance(command, MoveMatch):
                return self._move(s, command, why)
            if isinstance(command, RecordDecision):
                d = command.decision
                return desk.put_decision(self.store, s, d.pool, d.method, list(d.order), who=command.who, why=why)
            if isinstance(command, SettleConflict):
                return self._settle(s, command, why, at)
            if isinstance(command, RuleSanction):
                return self._rule(s, command, why)
            if isinstance(command, ChangeSheet):
                return self._sheet(s, command, why)
        raise DeskError(f"unknown desk command {type(command).__name__}")

    def _result(self, s: Session, command: CorrectResult, why: str, now: datetime) -> Affected:
        store, n, r = self.store, command.number, command.result
        f = _fixture(s, n)
        desk.unchanged(s, f, command.seen or None)
        try:
            home, away = teams_of(store, s, f.match_id)
        except UnknownTeams:
            raise DeskError(f"match {n}'s teams are not known yet ({f.home} v {f.away})", "match") from None
        stored = self._counting(s, f.match_id)
        if command.role != ORGANISER:  # a result set aside by a correction is none: the match is to be played again
            if command.abandoned:
                _not_your_role(command.role, "settling an abandoned match")
            if stored is not None:
                _not_your_role(command.role, f"replacing match {n}'s result")
        closed = self._closed(stored, now)
        if closed is not None:
            raise DeskError(closed, "match")
        note = ""
        if r.outcome in ("walkover", "forfeit"):
            desk.walkover(n, home, away, r.winner)
            note = r.outcome
        if command.abandoned:
            label = desk.abandoned(command.abandoned, r.home_goals, r.away_goals)
            note, why = f"abandoned: {label}", f"abandoned, {label}: {why}"
        checked = desk.check_result(result_payload(of_standings(r)))
        if not command.confirmed:
            self._ask_first(s, f.match_id, checked, stored)
        report = _abandoned_report(s, f.match_id)
        affected = desk.put_result(store, s, f.match_id, checked, who=command.who, why=why, note=note)
        if report is not None:  # a result entered any way settles the table's report that the match was abandoned
            desk.put_settlement(store, s, report, apply=False, who=command.who, why=f"settled: {why}")
        return affected

    def _move(self, s: Session, command: MoveMatch, why: str) -> Affected:
        f = _fixture(s, command.number)
        court = desk.court_id(self.store.plan.courts, command.court)
        report = _abandoned_report(s, f.match_id) if command.continues else None
        if command.continues:
            why = f"abandoned, {desk.abandoned(command.continues)}: {why}"
        affected = desk.put_move(self.store, s, f.match_id, court=court, start=command.start, who=command.who,
                                 why=why, started_ok=bool(command.continues), seen=command.seen or None)
        if report is not None:
            desk.put_settlement(self.store, s, report, apply=False, who=command.who, why=f"settled: {why}",
                                settlement=command.continues)
        return affected

    def _settle(self, s: Session, command: SettleConflict, why: str, now: datetime) -> Affected:
        c = s.get(Conflict, int(command.conflict)) if command.conflict.isdigit() else None
        if c is None:
            raise DeskError(f"there is no open conflict {command.conflict!r}")
        desk.conflict(command.keep, self._closed(self._counting(s, c.match_id), now))
        return desk.put_settlement(self.store, s, c.id, apply=command.keep == "held", who=command.who, why=why)

    def _rule(self, s: Session, command: RuleSanction, why: str) -> Affected:
        f = _fixture(s, command.number)
        try:
            home, away = teams_of(self.store, s, f.match_id)
        except UnknownTeams:
            home, away = f.home, f.away
        bodies = [dict(b) for b in s.scalars(select(EventRow.body).where(EventRow.match_id == f.match_id)
                                             .order_by(EventRow.seq))]
        cards = discipline.cards_of(self.store.plan.ruleset_of(f.stage), bodies, f.kind, f.round, f.match_id)
        key = (command.number, command.team, command.player)
        desk.sanction(any((x.number, x.team, x.player) == key for x in sanctions_from_cards(command.number, home,
                                                                                               away, cards)), *key)
        self.rulings.put(s, number=command.number, team=command.team, player=command.player,
                         matches=command.matches, who=command.who, why=why)
        return Affected(all_courts=True)

    def _sheet(self, s: Session, command: ChangeSheet, why: str) -> Affected:
        """Checked as the file's sheets are (the line and the reason); refused while the team plays a match: a
        sheet changes before a match, never during one."""
        store, team = self.store, command.team
        if team not in store.entry_team_names:
            raise DeskError(f"there is no team {team!r}", "team")
        try:
            parse_sheet_csv(command.text, f"{team}'s sheet", team)
        except CourtsideError as err:
            raise DeskError(str(err), "text") from None
        fixtures = store.fixtures(s)
        for match_id in s.scalars(_UNDER_WAY):  # the matches being played: events, no result
            try:
                playing = match_id in fixtures and team in teams_of(store, s, match_id)
            except UnknownTeams:
                continue
            if playing:
                number = fixtures[match_id].number
                raise DeskError(f"{team} is playing match {number} now: change its sheet after the match", "team")
        row = s.get(TeamSheetRow, team)
        before = {"sheet": row.sheet} if row is not None else None
        if row is None:
            s.add(TeamSheetRow(team=team, sheet=command.text, who=command.who, at=utcnow()))
        else:
            row.sheet, row.who, row.at = command.text, command.who, utcnow()
        s.add(Change(at=utcnow(), who=command.who, action="sheet", why=why, before=before,
                     after={"team": team, "sheet": command.text}))
        return Affected()

    def _counting(self, s: Session, match_id: str) -> ResultRow | None:
        """The match's stored result while it counts: one a correction set aside (its teams no longer play
        the match) is not this match's result, whatever the row says."""
        row = s.get(ResultRow, match_id)
        if row is None or row.outcome == "abandoned":
            return row
        aside = {a.result for a in self.store.progress(s).set_aside}
        return None if to_match_result(row) in aside else row

    def _closed(self, stored: ResultRow | None, now: datetime) -> str | None:
        """Why the stored result may no longer change (its protest window has closed at ``now``), or None."""
        if stored is None:
            return None
        ms = self.store.plan.ruleset_of(stored.stage).protest_window
        if ms is None:
            return None
        closes = as_utc(stored.recorded_at) + timedelta(milliseconds=ms)
        if now < closes:
            return None
        return (f"match {stored.match_id}'s protest window closed at {closes.astimezone():%H:%M}; "
                "the result is final")

    def _ask_first(self, s: Session, match_id: str, checked: Result, stored: ResultRow | None) -> None:
        """Refuse a result that replaces a stored one, or changes later matches, places or played results, until
        it is confirmed; say first what it replaces (a table's result or the desk's) and what it changes."""
        lines = []
        if stored is not None:
            r = to_match_result(stored)
            score = score_text(r, awarded(self.store.plan.ruleset_of(stored.stage), r))  # as the pages write it
            lines.append(f"it replaces match {match_id}'s result {score} {_source(s, stored)}")
        try:
            found = consequences(self.store, s, match_id, checked)
        except LookupError:
            found = None
        if found:
            lines += found.lines()
        if lines:
            raise NeedsConfirmation(lines)


def _fixture(s: Session, number: int) -> Fixture:
    f = s.get(Fixture, str(number))
    if f is None:
        raise DeskError(f"there is no match {number}", "match")
    return f


def _abandoned_report(s: Session, match_id: str) -> int | None:
    """The table's open report that the match was abandoned (server.ingest holds it with no result stored)."""
    if s.get(ResultRow, match_id) is not None:
        return None
    open_ = s.scalars(select(Conflict).where(Conflict.match_id == match_id, Conflict.settled_at.is_(None))
                      .order_by(Conflict.id))
    return next((c.id for c in open_ if read_result(c.payload).outcome == "abandoned"), None)


def _source(s: Session, stored: ResultRow) -> str:
    if stored.source == "table":
        return "from its table"
    who = s.scalar(select(Change.who).where(Change.match_id == stored.match_id, Change.action == "result")
                   .order_by(Change.id.desc()).limit(1))
    return f"entered by {who}" if who else "entered at the desk"


def _not_your_role(role: str, what: str) -> None:
    raise NotYourRole(f"{what} is an organiser's: the {role} role enters results of matches that have none, "
                      "walk-overs and decisions")


__all__ = [
    "DESK", "ORGANISER", "ROLES", "CorrectResult", "DeskCommand", "DeskCommands", "MoveMatch", "NeedsConfirmation",
    "NotYourRole", "RecordDecision", "RuleSanction", "SettleConflict",
]
