"""Which match the table plays: its court's schedule from ``--tournament FILE``, pushed by the
service later (``ScheduleUpdate`` through the link), or a friendly "Home v Away" without either.

The loop only asks a :class:`MatchSource` two questions: the next match after the ones
played, and the match nearest a wall-clock time (after a restart between matches).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from rules import (
    CourtMatch,
    CourtSchedule,
    ProtocolError,
    Ruleset,
    Suspended,
    TournamentError,
    court_schedule_payload,
    parse_placeholder,
    read_court_match,
    read_court_schedule,
    read_text,
)


def read_kept_match(data: Any, where: str = "match") -> CourtMatch:
    """A match the table kept (its journal's meta, its kept schedule), as :func:`rules.court_match_payload` wrote
    it. A table before this one kept its own record (``match_id``, ``court``, no ``number``): read as it meant,
    so a match cut by a power cut across the update comes back."""
    if not (isinstance(data, dict) and "match_id" in data and "match" not in data):
        return read_court_match(data, where)
    try:
        match_id, start = str(data["match_id"]), data.get("start")
        return CourtMatch(
            match=match_id, number=int(match_id) if match_id.isdigit() else 0, stage=data.get("stage", "friendly"),
            round=data.get("round") or "", home=data["home"], away=data["away"],
            start=None if start is None else datetime.fromisoformat(start), kind=data.get("kind", "round_robin"),
            suspended=tuple(Suspended(**s) for s in data.get("suspended", ())), continues=data.get("continues"),
            class_name=data.get("class_name", ""),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise ProtocolError(where, f"not a match a table kept ({err})") from None


class MatchSource(Protocol):
    def next_match(self, played: Collection[str], abandoned: Collection[str] = ()) -> CourtMatch | None: ...
    def nearest(self, now: datetime, played: Collection[str]) -> CourtMatch | None: ...
    def replace(self, matches: Sequence[CourtMatch]) -> None: ...


def friendly(number: int = 1) -> CourtMatch:
    """A match the table makes itself when it has no schedule: no time, no round, played by its own ruleset."""
    return CourtMatch(match=f"friendly-{number}", number=0, stage="friendly", round="", home="Home", away="Away",
                      start=None)


class PlayingOrder:
    """The matches of one court in playing order; a friendly match when there are none left."""

    def __init__(self, court: str, matches: Sequence[CourtMatch] = ()) -> None:
        self.court = court
        self.matches: tuple[CourtMatch, ...] = tuple(matches)

    def replace(self, matches: Sequence[CourtMatch]) -> None:
        """A new schedule (the service's for this court): matches moved to or from this court follow."""
        self.matches = tuple(matches)

    def next_match(self, played: Collection[str], abandoned: Collection[str] = ()) -> CourtMatch | None:
        """The first match not played; ``abandoned``: played ones that count as not played when the schedule
        says they are played on (resumed or replayed)."""
        for m in self.matches:
            if m.match not in played or (m.continues is not None and m.match in abandoned):
                return m
        if self.matches:
            return None  # the court's day is over
        return friendly(len([p for p in played if p.startswith("friendly-")]) + 1)

    def nearest(self, now: datetime, played: Collection[str]) -> CourtMatch | None:
        """The unplayed match whose start is nearest ``now`` (a restart between matches)."""
        left = [m for m in self.matches if m.match not in played and m.start is not None]
        if not left or not believable(now, self.matches):
            return self.next_match(played)
        return min(left, key=lambda m: abs((m.start - now).total_seconds()) if m.start else 0.0)


SCHEDULE_FILE = "schedule.json"


def keep_schedule(journal_dir: Path, schedule: CourtSchedule) -> None:
    """The service's last schedule for this court, kept beside the journal (fsynced, then renamed) as its payload:
    a table that restarts before the broker hands it the schedule again (a power cut, no network) must not play a
    match the organiser settled at the desk (a walk-over) because the tournament file still lists it."""
    from firmware.journal import write_atomic

    write_atomic(journal_dir / SCHEDULE_FILE, json.dumps(court_schedule_payload(schedule), ensure_ascii=False))


def kept_schedule(journal_dir: Path) -> CourtSchedule | None:
    """The schedule :func:`keep_schedule` kept; None when there is none, or it cannot be read (then the
    tournament file's stands until the service sends its own). A table before protocol 2 kept a list of matches."""
    try:
        data = json.loads((journal_dir / SCHEDULE_FILE).read_text(encoding="utf-8"))
        if isinstance(data, list):
            return CourtSchedule(court_name="", matches=tuple(read_kept_match(m) for m in data))
        return read_court_schedule(data, SCHEDULE_FILE)
    except (OSError, ValueError, ProtocolError):
        return None


BELIEVABLE = timedelta(hours=12)


def believable(now: datetime, matches: Sequence[CourtMatch]) -> bool:
    """A wall-clock time within the day's schedule (12 h either side): a Pi without a real-time clock or network
    time starts years off, and then the playing order, not the clock, says which match comes next."""
    starts = [m.start for m in matches if m.start is not None]
    return bool(starts) and min(starts) - BELIEVABLE <= now <= max(starts) + BELIEVABLE


class ClassRules:
    """The ruleset each of a cup's classes plays by, loaded once each: a court of shared pitches plays a P10 match
    by the 7 v 7 rules and the next, a P13 match, by the 11 v 11 ones. A match of no class (a tournament without
    classes, a friendly) is played by the table's own ruleset."""

    def __init__(self, default: str, refs: dict[str, str] | None = None) -> None:
        self.default = default
        self.refs = refs or {}  # class name -> the ruleset's reference (a preset's name or a file's path)
        self._loaded: dict[str, Ruleset] = {}

    def ref(self, match: CourtMatch) -> str:
        return self.refs.get(match.class_name, self.default)

    def load(self, ref: str) -> Ruleset:
        if ref not in self._loaded:
            from rules import load_ruleset

            self._loaded[ref] = load_ruleset(ref)
        return self._loaded[ref]

    def of(self, match: CourtMatch) -> tuple[Ruleset, str]:
        ref = self.ref(match)
        return self.load(ref), ref


def court_plan(path: str | Path, court: str, ruleset: Ruleset | None = None) -> tuple[PlayingOrder, ClassRules]:
    """This court's schedule from a tournament file (a cup's classes scheduled together over its pitches), and
    the ruleset each class plays by; ``ruleset`` given (``--rules``), the matches of a file without classes are
    played by it (a cup's classes keep their own).

    ``court`` is a court's name ("Hall 1") or its number in the file's list ("1").
    """
    from rules import load_cup_rulesets, parse_cup, plan_cup, ruleset_path

    source = str(path)
    cup = parse_cup(read_text(source), source)
    courts = list(cup.schedule.courts)
    name = court
    if court not in courts:
        if court.isdigit() and 1 <= int(court) <= len(courts):
            name = courts[int(court) - 1]
        else:
            raise TournamentError(source, "schedule.courts",
                                  f"no court {court!r} (courts: {', '.join(courts)}; or their number 1-{len(courts)})")
    own = ruleset is not None and not cup.has_classes  # --rules: the file's one class by the table's rules
    rulesets = {"": ruleset} if own and ruleset is not None else load_cup_rulesets(cup, source)
    plan = plan_cup(cup, rulesets, source)
    refs = {} if own else {c.name: _ref(ruleset_path(c.tournament, source)) for c in cup.classes}
    matches = [
        CourtMatch(match=str(m.number), number=m.number, stage=m.stage, round=m.round, home=m.home, away=m.away,
                   start=m.start, end=m.end, kind=m.kind,
                   home_known=parse_placeholder(m.home) is None, away_known=parse_placeholder(m.away) is None,
                   class_name=m.class_name)
        for m in plan.schedule.matches if m.court == name
    ]
    default = ruleset.name if ruleset is not None else refs[cup.classes[0].name]
    return PlayingOrder(name, matches), ClassRules(default, refs)


def _ref(path: str | Path) -> str:
    """A ruleset's reference as a journal keeps it: a preset's name, or the file's absolute path (a restarted
    table replays its journal wherever it runs from)."""
    return str(path) if isinstance(path, str) else str(Path(path).resolve())
