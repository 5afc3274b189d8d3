"""The match being played at the table: its engine, its journal, and its own time.

A :class:`MatchSession` is created when a match is loaded (header, meta, journal,
``current``) or recovered after a restart (journal replayed, torn line dropped,
a clock that was running stopped at the instant of the cut). Match instants are
whole ms since the match's instant 0, which sits at session second
``meta.session_at_zero``; they go on where they stopped across restarts.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware.errors import JournalError
from firmware.journal import Journal, Meta, current_journal, read_alive, safe_name
from firmware.schedule import read_kept_match
from firmware.words import english, table_text
from rules import (
    Applied,
    ClockStopped,
    CourtMatch,
    CourtsideError,
    Event,
    IllegalCommand,
    LogHeader,
    Match,
    ProtocolError,
    Ruleset,
    Translate,
    clock_text,
    court_match_payload,
    load_ruleset,
    read_log,
)

log = logging.getLogger("courtside.table")


REOPEN_GAP_MS = 12 * 3600 * 1000
"""The most match time a reopened journal skips for the pause (a match's instants stay within a day)."""


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


def believed_since(earlier_wall_ms: int) -> int | None:
    """Wall-clock ms since an instant the table recorded, or None when the clock cannot be believed for it.

    A Pi has no real-time clock: after a power cut it may start with its clock years off (1970 plus its
    uptime), or an hour back (fake-hwclock's last save), until network time comes, if it ever does. A gap
    that is negative or longer than :data:`REOPEN_GAP_MS` is such a clock, not a time the table was down:
    then nothing the table shows or sends is moved by it (the match's own times are monotonic).
    """
    since = wall_ms() - earlier_wall_ms
    return since if 0 <= since <= REOPEN_GAP_MS else None


@dataclass(frozen=True, kw_only=True)
class Recovery:
    """What a restart found: how long the table was down (None: unknown) and what it did."""

    down_s: float | None
    stopped_clock_at: str | None  # the clock's text where a running clock was stopped
    torn_line: bool
    cut_ms: int = 0  # the match instant of the cut: the latest the journal or the screen had reached
    last_event_ms: int | None = None  # the journal's last event before recovery added any (None: no event)
    script_went_on_at: str | None = None  # under a press script: the clock's text it ran on from

    def notice(self, _: Translate = english) -> str:
        """What the screen says after the restart, in the language of ``_``."""
        down = table_text("down_unknown", _) if self.down_s is None else \
            table_text("down_seconds", _, seconds=f"{self.down_s:.0f}")
        what = table_text("was_stopped", _, clock=self.stopped_clock_at) if self.stopped_clock_at else \
            table_text("script_went_on", _, clock=self.script_went_on_at) if self.script_went_on_at else \
            table_text("was_idle", _)
        return table_text("restarted", _, down=down, what=what)


class MatchSession:
    def __init__(self, match: Match, journal: Journal, scheduled: CourtMatch) -> None:
        self.match = match
        self.journal = journal
        self.scheduled = scheduled
        self.resume_ms = 0  # after recover(): the match instant the table goes on from

    @property
    def header(self) -> LogHeader:
        return self.journal.header

    def ms(self, session_s: float) -> int:
        """Match instant (ms, never negative) of a session second."""
        return max(0, round((session_s - self.journal.meta.session_at_zero) * 1000))

    def session(self, ms: int) -> float:
        return self.journal.meta.session_at_zero + ms / 1000

    def apply(self, command: Event) -> Applied:
        """Apply to the engine, then journal (fsync) what it accepted; raises IllegalCommand when refused."""
        applied = self.match.apply(command)
        if applied.kind != "duplicate":
            self.journal.append(applied.event)
        return applied

    @classmethod
    def create(cls, directory: Path, ruleset: Ruleset, ruleset_ref: str, scheduled: CourtMatch, *,
               court: str, session_now: float, speed: float) -> MatchSession:
        header = LogHeader.for_match(
            ruleset, ruleset_ref=ruleset_ref, stage=scheduled.kind, round=scheduled.round or None,
            home=scheduled.home, away=scheduled.away, match_id=scheduled.match, court=court,
        )
        meta = Meta(anchor_wall_ms=wall_ms(), session_at_zero=session_now, speed=speed,
                    scheduled=court_match_payload(scheduled))
        journal = Journal.create(directory, f"court-{safe_name(court)}-match-{scheduled.match}", header, meta)
        match = Match(ruleset, stage=scheduled.kind, round=scheduled.round or None)
        log.info("loaded match %s: %s v %s (%s, %s)", scheduled.match, scheduled.home, scheduled.away,
                 scheduled.stage, scheduled.round or "no round")
        return cls(match, journal, scheduled)

    @classmethod
    def reopen(cls, path: Path, ruleset: Ruleset, scheduled: CourtMatch, *, session_now: float,
               speed: float) -> MatchSession | None:
        """The abandoned match of journal ``path`` opened again to be played on (None: it is not abandoned).

        Its match instants go on from the abandonment: at real time by the time since (when the wall clock
        can be believed for it: :func:`believed_since`), otherwise from the last event; ``resume_ms`` is
        that instant, where the caller enters the resumption or the replay. The meta is written anew for it
        (instant 0 moved so the session's clock lands there) and ``current`` names the journal.
        """
        journal, parsed = Journal.recover(path)
        try:
            match = Match.from_log(parsed, ruleset=ruleset, source=str(path))
        except (CourtsideError, IllegalCommand) as err:
            journal.close()
            raise JournalError(f"{path}: cannot replay the journal with these rules ({err})") from None
        if not is_abandoned(match):
            journal.close()
            return None
        old = journal.meta
        since_zero = believed_since(old.anchor_wall_ms) if speed == 1 and old.speed == 1 else None
        at = match.last_at + max(0, since_zero - match.last_at) if since_zero is not None else match.last_at
        journal.adopt(Meta(anchor_wall_ms=wall_ms() - at, session_at_zero=session_now - at / 1000, speed=speed,
                           scheduled=court_match_payload(scheduled)))
        session = cls(match, journal, scheduled)
        session.resume_ms = at
        log.info("reopened match %s from %s to %s it: %d events", scheduled.match, path, scheduled.continues,
                 len(parsed.events))
        return session

    @classmethod
    def recover(cls, directory: Path, ruleset: Ruleset | None, *, speed: float, scripted: bool = False,
                load: Callable[[str], Ruleset] = load_ruleset) -> tuple[MatchSession, Recovery] | None:
        """The match the table was showing, replayed from its journal; None when there is none. Without ``ruleset``
        (a cup's table plays several), by the ruleset its header names, loaded by ``load``.

        A clock that was running is stopped at the cut, except under a press script: its timeline (the
        simulated officials' and time's) simply goes on from the cut, so a cut match ends exactly as the
        same script run uncut (a rehearsal checks the table, not the officials' reaction to a cut).
        Nothing is appended then, so a second cut during recovery cannot leave a half-done fix.
        """
        path = current_journal(directory)
        if path is None:
            return None
        journal, parsed = Journal.recover(path)
        try:
            match = Match.from_log(parsed, load, source=str(path), ruleset=ruleset)
        except (CourtsideError, IllegalCommand) as err:
            journal.close()
            raise JournalError(f"{path}: cannot replay the journal with these rules ({err})") from None
        meta = journal.meta
        h = journal.header
        scheduled = CourtMatch(match=h.match_id or path.stem, number=0, stage="friendly", round=h.round or "",
                               home=h.home or "Home", away=h.away or "Away", start=None, kind=h.stage)
        if meta.scheduled:  # the schedule's entry it was loaded from (its stage, time, who may not play)
            try:
                scheduled = read_kept_match(meta.scheduled, f"{path}: meta.scheduled")
            except ProtocolError as err:  # the header still says who plays: the match goes on
                log.warning("%s; the match goes on as its header names it", err)
        session = cls(match, journal, scheduled)
        last_event = match.last_at if match.events else None
        # The cut is the latest instant the table is known to have reached: its last event, or the last
        # instant it drew (recorded before each draw), whichever is later; never before what was shown.
        alive = read_alive(path)
        cut = max(match.last_at, alive.at if alive else 0)
        down_ms = believed_since(alive.wall_ms) if alive else None
        down = down_ms / 1000 if down_ms is not None else None
        resume = cut
        if speed == 1 and meta.speed == 1 and alive is not None and down_ms is not None:
            # Real time: what time does by itself (an interval, a time-out) went on while the table was down,
            # as long as the clock can be believed for it (else the table goes on from the cut).
            resume = max(cut, alive.at + down_ms)
        stopped = went_on = None
        state = match.state_at(cut)
        if state.running and scripted:
            went_on = clock_text(state)
        elif state.running:
            session.apply(ClockStopped(at=cut))
            stopped = clock_text(match.state_at(cut))
        recovery = Recovery(down_s=down, stopped_clock_at=stopped, torn_line=parsed.torn is not None, cut_ms=cut,
                            last_event_ms=last_event, script_went_on_at=went_on)
        session.resume_ms = resume
        log.warning("recovered match %s from %s: %d events; %s", scheduled.match, path, len(parsed.events),
                    recovery.notice())
        return session, recovery


def is_abandoned(match: Match) -> bool:
    """The match ended abandoned, its result left to the organiser (as of its last event)."""
    result = match.result()
    return result is not None and result.outcome == "abandoned"


def abandoned_journals(directory: Path, load: Callable[[str], Ruleset]) -> dict[str, Path]:
    """Per match id, the journal in ``directory`` whose match ended abandoned (the latest such journal).

    Only a journal with an abandonment in it is replayed, by the ruleset its header names (``load``); one that does
    not replay is skipped.
    """
    found: dict[str, Path] = {}
    for path in sorted(directory.glob("*.jsonl")):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
            if '"match_abandoned"' not in text:
                continue
            parsed = read_log(text, str(path), lenient_tail=True)
            if parsed.header is None or not parsed.header.match_id:
                continue
            match = Match.from_log(parsed, load, source=str(path))
        except (OSError, CourtsideError, IllegalCommand):
            continue
        if is_abandoned(match):
            found[parsed.header.match_id] = path
    return found


def played_ids(directory: Path) -> set[str]:
    """The match ids with a journal in ``directory`` that has an event (played, or being played).

    A journal with only its header (a cut while a match was being loaded) does not count.
    """
    ids: set[str] = set()
    for path in directory.glob("*.jsonl"):
        try:
            with open(path, encoding="utf-8") as f:
                first = f.readline()
                if not f.readline().strip():
                    continue
            header = read_log(first, str(path)).header
        except (OSError, CourtsideError, UnicodeDecodeError):
            continue
        if header is not None and header.match_id:
            ids.add(header.match_id)
    return ids
