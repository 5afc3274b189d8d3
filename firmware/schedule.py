"""Which match the table plays: its court's schedule from ``--tournament FILE``, pushed by the
service later (``ScheduleUpdate`` through the link), or a friendly "Home v Away" without either.

The loop only asks a :class:`MatchSource` two questions: the next match after the ones
played, and the match nearest a wall-clock time (after a restart between matches).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from rules import CourtMatch, Ruleset, StageKind, Suspended, TournamentError, read_text


@dataclass(frozen=True, kw_only=True)
class Scheduled:
    """One match for this court: who, which stage and round, when it is due, and who may not play it."""

    match_id: str
    home: str
    away: str
    stage: str = "friendly"  # the tournament's stage name ("A", "SF1")
    round: str | None = None  # the ruleset's round ("pool", "semi_final")
    kind: StageKind = "round_robin"  # whether it may end level
    start: datetime | None = None
    court: str = ""
    suspended: tuple[Suspended, ...] = ()
    # An abandoned match the organiser settled to be played on (seed 004): "resume" or "replay". Only with
    # this word from the service does the table reopen its journal of the match (docs/asyncapi.yaml).
    continues: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["start"] = self.start.isoformat(timespec="minutes") if self.start else None
        return data

    @classmethod
    def of(cls, m: CourtMatch, court: str) -> Scheduled:
        """A match of the service's schedule for court ``court`` (its name)."""
        return cls(match_id=m.match, home=m.home, away=m.away, stage=m.stage, round=m.round, kind=m.kind,
                   start=m.start, court=court, suspended=m.suspended, continues=m.continues)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Scheduled:
        start = data.get("start")
        suspended = tuple(Suspended(**s) for s in data.get("suspended", ()))  # a journal from before has none
        return cls(**{**data, "start": datetime.fromisoformat(start) if start else None, "suspended": suspended})


class MatchSource(Protocol):
    def next_match(self, played: Collection[str], abandoned: Collection[str] = ()) -> Scheduled | None: ...
    def nearest(self, now: datetime, played: Collection[str]) -> Scheduled | None: ...
    def replace(self, matches: Sequence[Scheduled]) -> None: ...


def friendly(court: str, number: int = 1) -> Scheduled:
    return Scheduled(match_id=f"friendly-{number}", home="Home", away="Away", court=court)


class PlayingOrder:
    """The matches of one court in playing order; a friendly match when there are none left."""

    def __init__(self, court: str, matches: Sequence[Scheduled] = ()) -> None:
        self.court = court
        self.matches: tuple[Scheduled, ...] = tuple(matches)

    def replace(self, matches: Sequence[Scheduled]) -> None:
        """A new schedule (from the service): matches moved to or from this court follow."""
        self.matches = tuple(m for m in matches if not m.court or m.court == self.court)

    def next_match(self, played: Collection[str], abandoned: Collection[str] = ()) -> Scheduled | None:
        """The first match not played; ``abandoned``: played ones that count as not played when the schedule
        says they are played on (resumed or replayed)."""
        for m in self.matches:
            if m.match_id not in played or (m.continues is not None and m.match_id in abandoned):
                return m
        if self.matches:
            return None  # the court's day is over
        return friendly(self.court, len([p for p in played if p.startswith("friendly-")]) + 1)

    def nearest(self, now: datetime, played: Collection[str]) -> Scheduled | None:
        """The unplayed match whose start is nearest ``now`` (a restart between matches)."""
        left = [m for m in self.matches if m.match_id not in played and m.start is not None]
        if not left or not believable(now, self.matches):
            return self.next_match(played)
        return min(left, key=lambda m: abs((m.start - now).total_seconds()) if m.start else 0.0)


SCHEDULE_FILE = "schedule.json"


def keep_schedule(journal_dir: Path, matches: Sequence[Scheduled]) -> None:
    """The service's last schedule for this court, kept beside the journal (fsynced, then renamed): a table
    that restarts before the broker hands it the schedule again (a power cut, no network) must not play a
    match the organiser settled at the desk (a walk-over) because the tournament file still lists it."""
    from firmware.journal import write_atomic

    write_atomic(journal_dir / SCHEDULE_FILE, json.dumps([m.to_dict() for m in matches], ensure_ascii=False))


def kept_schedule(journal_dir: Path) -> list[Scheduled] | None:
    """The schedule :func:`keep_schedule` kept; None when there is none, or it cannot be read (then the
    tournament file's stands until the service sends its own)."""
    try:
        data = json.loads((journal_dir / SCHEDULE_FILE).read_text(encoding="utf-8"))
        return [Scheduled.from_dict(m) for m in data]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


BELIEVABLE = timedelta(hours=12)


def believable(now: datetime, matches: Sequence[Scheduled]) -> bool:
    """A wall-clock time within the day's schedule (12 h either side): a Pi without a real-time clock or network
    time starts years off, and then the playing order, not the clock, says which match comes next."""
    starts = [m.start for m in matches if m.start is not None]
    return bool(starts) and min(starts) - BELIEVABLE <= now <= max(starts) + BELIEVABLE


def playing_order(path: str | Path, court: str, ruleset: Ruleset | None = None) -> tuple[PlayingOrder, str]:
    """This court's schedule from a tournament file, and the ruleset the file names.

    ``court`` is a court's name ("Hall 1") or its number in the file's list ("1").
    """
    from rules import build_schedule, load_tournament_ruleset, parse_tournament, pool_teams

    source = str(path)
    t = parse_tournament(read_text(source), source)
    courts = list(t.schedule.courts)
    name = court
    if court not in courts:
        if court.isdigit() and 1 <= int(court) <= len(courts):
            name = courts[int(court) - 1]
        else:
            raise TournamentError(source, "schedule.courts",
                                  f"no court {court!r} (courts: {', '.join(courts)}; or their number 1-{len(courts)})")
    rules = ruleset or load_tournament_ruleset(t, source)
    plan = build_schedule(t, rules, pool_teams(t, source, None))
    matches = [
        Scheduled(match_id=str(m.number), home=m.home, away=m.away, stage=m.stage, round=m.round,
                  kind="round_robin" if t.pool(m.stage) is not None else "knockout", start=m.start, court=m.court)
        for m in plan.matches if m.court == name
    ]
    return PlayingOrder(name, matches), t.ruleset
