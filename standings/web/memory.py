"""A backend that keeps the tournament in memory, owned by one loop thread.

It is the reference for what the service's backend does (:mod:`standings.web.port`):
commands from the desk and results from the courts go on one queue, one thread applies
them in order, logs each desk change with who, when and why, and publishes a new
snapshot. Tests, screenshots and the load benchmark run the pages against it; the
service runs them against its database.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from datetime import UTC, datetime

from rules.errors import CourtsideError
from rules.live import LiveBoard
from rules.ruleset import Ruleset
from rules.standings import Decision, MatchResult
from rules.standings.decisions import decision_problem
from rules.tomlfile import open_file
from rules.tournament import Tournament, build_schedule, load_tournament_ruleset, parse_tournament, pool_teams
from standings.web.errors import DeskRefused
from standings.web.inputs import (
    Abandoned,
    AuditEntry,
    Conflict,
    CorrectResult,
    DeskCommand,
    MoveMatch,
    Presence,
    RecordDecision,
    RecordedResult,
    RuleSanction,
    Sanction,
    SettleConflict,
    TournamentData,
)
from standings.web.port import ChangeHub
from standings.web.view import View

Clock = Callable[[], datetime]


class MemoryBackend:
    def __init__(self, tournament: Tournament, ruleset: Ruleset, *, clock: Clock, source: str = "tournament") -> None:
        entry = pool_teams(tournament, source)
        self._clock = clock
        self._data = TournamentData(
            version=0,
            now=clock(),
            tournament=tournament,
            ruleset=ruleset,
            entry_teams=entry,
            schedule=build_schedule(tournament, ruleset, entry),
        )
        self._hub = ChangeHub()
        self._queue: queue.Queue[tuple[Callable[[TournamentData], TournamentData], Future[None]] | None] = (
            queue.Queue()
        )
        self._thread = threading.Thread(target=self._loop, name="courtside-state", daemon=True)
        self._thread.start()

    @classmethod
    def from_file(cls, path: str, *, clock: Clock) -> MemoryBackend:
        with open_file(path) as f:  # a named pipe or a device is refused, not waited on
            t = parse_tournament(f.read().decode("utf-8"), path)
        return cls(t, load_tournament_ruleset(t, path), clock=clock, source=path)

    # Backend --------------------------------------------------------------------------
    def data(self) -> TournamentData:
        return self._data

    @property
    def changes(self) -> ChangeHub:
        return self._hub

    def submit(self, command: DeskCommand) -> None:
        self._run(lambda d: _apply(d, command))

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)

    # What the courts send (the service's MQTT ingest does this) -------------------------
    def publish_result(self, number: int, result: MatchResult, *, by: str = "table") -> None:
        def step(d: TournamentData) -> TournamentData:
            results = dict(d.results)
            results[number] = RecordedResult(number=number, result=result, recorded_at=d.now, by=by)
            live = {c: b for c, b in d.live.items() if b.match != str(number)}
            return replace(d, results=results, live=live)

        self._run(step)

    def set_live(self, court: str, board: LiveBoard) -> None:
        self._run(
            lambda d: replace(
                d,
                live={**d.live, court: board},
                # When it arrived, on the wall clock: the pages run the match clock on from this instant.
                live_at={**d.live_at, court: datetime.now(UTC)},
                presence={
                    **d.presence,
                    court: Presence(
                        court=court,
                        online=True,
                        last_seen=d.now,
                        last_message=f"live state, match {board.match}",
                        last_kind="live",
                        last_match=_number(board.match),
                        playing=_number(board.match),
                    ),
                },
            )
        )

    def set_presence(self, presence: Presence) -> None:
        self._run(lambda d: replace(d, presence={**d.presence, presence.court: presence}))

    def hold_conflict(self, conflict: Conflict) -> None:
        self._run(lambda d: replace(d, conflicts=(*d.conflicts, conflict)))

    def report_abandoned(self, report: Abandoned) -> None:
        """A table abandoned a match: no result, the report waits for the organiser (as the service holds it)."""
        self._run(lambda d: replace(d, abandoned=(*d.abandoned, report)))

    def report_sanction(self, sanction: Sanction) -> None:
        self._run(lambda d: replace(d, sanctions=(*d.sanctions, sanction)))

    def tick(self) -> None:
        """Let the clock move the snapshot on (protest windows close, delays grow)."""
        self._run(lambda d: d)

    # The one loop -----------------------------------------------------------------------
    def _run(self, step: Callable[[TournamentData], TournamentData]) -> None:
        done: Future[None] = Future()
        self._queue.put((step, done))
        done.result()

    def _loop(self) -> None:
        while (item := self._queue.get()) is not None:
            step, done = item
            try:
                now = self._clock()
                new = step(replace(self._data, now=now))
                self._data = replace(new, version=self._data.version + 1, now=now)
            except BaseException as err:  # handed back to the caller, the loop goes on
                done.set_exception(err)
                continue
            self._hub.notify(self._data.version)
            done.set_result(None)


# Desk commands ----------------------------------------------------------------------------


def _logged(d: TournamentData, command: DeskCommand, what: str) -> tuple[AuditEntry, ...]:
    return (*d.audit, AuditEntry(at=d.now, who=command.who, what=what, why=command.why))


def _apply(d: TournamentData, command: DeskCommand) -> TournamentData:
    if not command.why.strip():
        raise DeskRefused("say why: every change is logged with its reason")
    view = View(d)
    if isinstance(command, CorrectResult):
        return _settled(_correct(d, view, command), command.settles)
    if isinstance(command, RecordDecision):
        problem = decision_problem(command.decision)
        if problem is not None:
            raise DeskRefused(problem)
        kept = tuple(x for x in d.decisions if (x.pool, x.teams) != (command.decision.pool, command.decision.teams))
        new = replace(d, decisions=(*kept, command.decision))
        _check_rules(new)
        what = f"pool {command.decision.pool}: {command.decision.method} {' > '.join(command.decision.order)}"
        return replace(new, audit=_logged(d, command, what))
    if isinstance(command, SettleConflict):
        conflict = next((c for c in d.conflicts if c.id == command.conflict), None)
        if conflict is None:
            raise DeskRefused(f"no conflict {command.conflict!r} is waiting")
        rest = tuple(c for c in d.conflicts if c is not conflict)
        results = dict(d.results)
        closed = view.closed(conflict.number)
        if command.keep == "held" and closed is not None:
            raise DeskRefused(closed)
        if command.keep == "held":
            first = results.get(conflict.number)  # the protest window runs from the match's end
            results[conflict.number] = RecordedResult(
                number=conflict.number, result=conflict.held, recorded_at=first.recorded_at if first else d.now,
                by=command.who,
            )
        what = f"match {conflict.number}: conflict settled, kept the {command.keep} result"
        return replace(d, conflicts=rest, results=results, audit=_logged(d, command, what))
    if isinstance(command, MoveMatch):
        if command.number not in view.by_number:
            raise DeskRefused(f"there is no match {command.number}")
        if command.court not in view.courts:
            raise DeskRefused(f"{command.court!r} is not one of the courts ({', '.join(view.courts)})")
        what = f"match {command.number} moved to {command.court} at {command.start:%a %H:%M}"
        moves = {**d.moves, command.number: (command.court, command.start)}
        return _settled(replace(d, moves=moves, audit=_logged(d, command, what)), command.settles)
    if isinstance(command, RuleSanction):
        key = (command.number, command.team, command.player)
        found = [s for s in d.sanctions if (s.number, s.team, s.player) == key]
        if not found:
            raise DeskRefused(f"no report for {command.player} ({command.team}) in match {command.number}")
        ruled = f"misses {command.matches} match(es)" if command.matches else "no further suspension"
        sanctions = tuple(
            replace(s, suspended_matches=command.matches, decided=ruled) if s in found else s for s in d.sanctions
        )
        what = f"{command.player} ({command.team}), match {command.number}: {ruled}"
        return replace(d, sanctions=sanctions, audit=_logged(d, command, what))
    raise DeskRefused(f"unknown desk command {type(command).__name__}")


def _correct(d: TournamentData, view: View, command: CorrectResult) -> TournamentData:
    row = view.by_number.get(command.number)
    if row is None:
        raise DeskRefused(f"there is no match {command.number}")
    if not (row.home_known and row.away_known):
        raise DeskRefused(f"match {command.number}'s teams are not known yet ({row.home} v {row.away})")
    r = command.result
    if (r.home, r.away) != (row.home, row.away) or r.pool != row.stage:
        raise DeskRefused(f"match {command.number} is {row.home} v {row.away} in {row.stage}")
    closed = view.closed(command.number)
    if closed is not None:
        raise DeskRefused(closed)
    results = dict(d.results)
    before = results.get(command.number)
    results[command.number] = RecordedResult(  # a correction keeps the protest window of the match's end
        number=command.number, result=r, recorded_at=before.recorded_at if before else d.now, by=command.who,
        note=command.note,
    )
    new = replace(d, results=results)
    _check_rules(new)
    was = f" (was {_score(before.result)})" if before is not None else ""
    note = f" [{command.note}]" if command.note else ""
    what = f"match {command.number} {r.home} v {r.away}: {_score(r)}{was}{note}"
    return replace(new, audit=_logged(d, command, what))


def _settled(d: TournamentData, report: str) -> TournamentData:
    """``d`` without the abandoned report the command settled (if it named one)."""
    if not report:
        return d
    return replace(d, abandoned=tuple(a for a in d.abandoned if a.id != report))


def _check_rules(d: TournamentData) -> None:
    view = View(d)
    if view.error is not None:
        raise DeskRefused(view.error)


def _score(r: MatchResult) -> str:
    text = f"{r.home_goals}-{r.away_goals}"
    if r.outcome != "regular":
        text += f" {r.outcome}"
    if r.home_shootout is not None:
        text += f" {r.home_shootout}-{r.away_shootout}"
    return text


__all__ = ["CourtsideError", "Decision", "MemoryBackend"]


def _number(match: str | None) -> int | None:
    return int(match) if match is not None and match.isdigit() else None
