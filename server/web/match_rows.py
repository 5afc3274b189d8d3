"""A snapshot's match rows: the schedule with its teams, results, moves and desk versions filled in, with their
indexes, made again only where the snapshot changed.

A cup's 4,080 rows and their indexes took 25-30 ms to check and index again for each new snapshot, as long after
40 results as after 3,000, though a desk write or a table's result changes one match (and, when it decides a pool
or a knock-out match, the matches whose teams a placeholder names). :class:`RowMaker` compares the new snapshot's
inputs with the last one's (results, versions and moves by match; each class's progress; the matches being
played) and makes the rows of the matches they name only; the others are the last snapshot's rows.
"""

from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from rules import Progress, Ruleset, ScheduledFields, ScheduledMatch, match_winner, parse_placeholder
from rules.tournament.placeholders import canonical
from server.scores import awarded, score_text
from server.web.inputs import RecordedResult, TournamentData


@dataclass(frozen=True, kw_only=True)
class MatchRow(ScheduledFields):
    """A page's row of a scheduled match: the schedule's record as the organiser left it (a moved match's court and
    time), and what the day made of it (its teams as far as known, its result, whether it is being played)."""

    scheduled: ScheduledMatch
    home: str  # the team, or the placeholder while it is open ("winner SF1")
    away: str
    home_known: bool
    away_known: bool
    recorded: RecordedResult | None
    live: bool
    locked_at: datetime | None  # when the protest window closes (None: no window)
    moved: bool
    awarded: tuple[int, int] | None = None  # a walk-over's or forfeit's score as the ruleset awards it
    version: str = ""  # the match as stored, which the desk's forms send back (server.desk.match_version)
    # A result stored for this match that no longer counts (a correction sent other teams here): never shown as
    # its result; the match is "to be played again" until its result is entered anew.
    set_aside: RecordedResult | None = None
    published: bool = True  # False: the class keeps its results off the public pages (they show who played)

    @property
    def court(self) -> str:
        """The court's name."""
        return self.scheduled.court

    @property
    def shows_score(self) -> bool:
        """Whether a public page shows this match's score: it has one, and its class publishes results."""
        return self.recorded is not None and self.published

    @property
    def is_pool(self) -> bool:
        return self.round == "pool"

    @property
    def score(self) -> str:
        return "" if self.recorded is None else score_text(self.recorded.result, self.awarded)

    @property
    def winner(self) -> str | None:
        """Who won (by the score, the shoot-out or the award): a table's result need not name its winner."""
        return None if self.recorded is None else match_winner(self.recorded.result)

    def locked(self, now: datetime) -> bool:
        return self.locked_at is not None and now >= self.locked_at

    def teams(self) -> tuple[str, str]:
        return (self.home, self.away)


def _place(row: MatchRow) -> tuple[object, ...]:
    """Where a row stands in the order and the indexes but its teams': a row that keeps it is replaced where it
    stands (and moved between its teams' lists, when a placeholder now names a team)."""
    return (row.start, row.court, row.stage, row.class_name)


def _order(row: MatchRow) -> tuple[object, ...]:
    """The playing order, of the rows and of each index's lists."""
    return (row.start, row.court, row.number)


@dataclass(frozen=True)
class MatchRows:
    """A snapshot's rows in playing order with their indexes (by number; by court, stage, team and class), made
    together and kept together: a region asks for its own matches (a cup's 110 court cards and hundreds of pool
    pages), and scanning 4,000 rows for each cost more than the rest. Never changed once made: an older snapshot's
    pages may still be reading them (what is worked out of them is kept beside them, as the same rows give it)."""

    matches: list[MatchRow]
    by_number: dict[int, MatchRow]
    by: dict[str, dict[str, list[MatchRow]]]
    played: dict[str, int]
    """How many of each class's matches have a result: the home page's classes say it after every result."""
    # What the live pages' fan-out asks of every court and pool in each of its rounds, several a second, worked out
    # once for these rows: a snapshot of live states alone keeps them, and rows with some replaced keep those of
    # the lists they left as they were.
    _locking: dict[tuple[str, str], list[datetime]] = field(default_factory=dict, compare=False, repr=False)
    _now_and_next: dict[str, tuple[MatchRow | None, MatchRow | None]] = field(
        default_factory=dict, compare=False, repr=False)

    def locked_in(self, kind: str, key: str, now: datetime) -> int:
        """How many of a court's or a stage's matches (``kind``: "court", "stage") are locked at ``now`` (their
        protest window closed): those that lock first, so with the same rows the count says which."""
        instants = self._locking.get((kind, key))
        if instants is None:
            instants = self._locking[kind, key] = sorted(
                m.locked_at for m in self.by[kind].get(key, ()) if m.locked_at is not None)
        return bisect_right(instants, now)

    def now_and_next(self, court: str) -> tuple[MatchRow | None, MatchRow | None]:
        """The match being played (or the first still to play) on ``court``, and the one after it."""
        found = self._now_and_next.get(court)
        if found is None:
            waiting = [m for m in self.by["court"].get(court, ()) if m.recorded is None]
            live = [m for m in waiting if m.live]
            now = live[0] if live else (waiting[0] if waiting else None)
            rest = [m for m in waiting if m is not now]
            found = self._now_and_next[court] = (now, rest[0] if rest else None)
        return found

    @cached_property
    def _lock_instants(self) -> list[datetime]:
        return sorted(m.locked_at for m in self.matches if m.locked_at is not None)

    def locks_between(self, since: datetime, now: datetime) -> bool:
        """Whether a match's protest window closes after ``since`` and by ``now``: what time alone changes on a
        page of these rows."""
        instants = self._lock_instants
        return bisect_right(instants, now) > bisect_right(instants, since)

    @property
    def finished(self) -> bool:
        """Every match has its result."""
        return bool(self.matches) and sum(self.played.values()) == len(self.matches)

    @classmethod
    def of(cls, rows: Iterable[MatchRow]) -> MatchRows:
        ordered = sorted(rows, key=_order)
        by: dict[str, dict[str, list[MatchRow]]] = {"court": {}, "stage": {}, "team": {}, "class": {}}
        played: dict[str, int] = {}
        for m in ordered:
            by["court"].setdefault(m.court, []).append(m)
            by["stage"].setdefault(m.stage, []).append(m)
            by["class"].setdefault(m.class_name, []).append(m)
            for team in {m.home, m.away}:
                by["team"].setdefault(team, []).append(m)
            played[m.class_name] = played.get(m.class_name, 0) + (m.recorded is not None)
        return cls(ordered, {m.number: m for m in ordered}, by, played)

    def replaced(self, fresh: list[MatchRow]) -> MatchRows:
        """These rows with ``fresh`` ones in place of those of their numbers: where they stand when each keeps its
        place in the order and the indexes (a result, a version, a team now known: every knock-out result and
        every pool's last names the teams of later matches, and ordering and indexing a cup's 4,000 rows again
        for them cost a page 25 ms), else all ordered and indexed again (a move)."""
        if any(_place(r) != _place(self.by_number[r.number]) for r in fresh):
            return MatchRows.of({**self.by_number, **{r.number: r for r in fresh}}.values())
        new = {r.number: r for r in fresh}
        by = {kind: dict(index) for kind, index in self.by.items()}
        copied: set[tuple[str, str]] = set()

        def own(kind: str, key: str) -> list[MatchRow]:
            if (kind, key) not in copied or key not in by[kind]:  # copied once, then changed: the old list is
                # the older snapshot's (a team's list emptied and dropped here is made anew)
                by[kind][key] = list(by[kind].get(key, ()))
                copied.add((kind, key))
            return by[kind][key]

        for row in fresh:
            old = self.by_number[row.number]
            for kind, key in (("court", row.court), ("stage", row.stage), ("class", row.class_name)):
                _swap(own(kind, key), row)
            teams, before = {row.home, row.away}, {old.home, old.away}
            for team in teams & before:
                _swap(own("team", team), row)
            for team in before - teams:
                left = own("team", team)
                del left[_index(left, row)]
                if not left:
                    del by["team"][team]
            for team in teams - before:
                insort(own("team", team), row, key=_order)
        matches = list(self.matches)
        played = dict(self.played)
        for row in fresh:
            _swap(matches, row)
            played[row.class_name] += (row.recorded is not None) - (self.by_number[row.number].recorded is not None)
        return MatchRows(matches, {**self.by_number, **new}, by, played,
                         {key: kept for key, kept in self._locking.items() if key not in copied},
                         {court: kept for court, kept in self._now_and_next.items() if ("court", court) not in copied})


def _index(rows: list[MatchRow], row: MatchRow) -> int:
    """Where ``row``'s match stands in ``rows``, which are in playing order (each list of the rows is), by its
    place in it: a cup's class lists 510 matches, and its rows 4,080."""
    i = bisect_left(rows, _order(row), key=_order)
    if i == len(rows) or rows[i].number != row.number:
        raise ValueError(f"match {row.number} is not where its place in the playing order says")
    return i


def _swap(rows: list[MatchRow], row: MatchRow) -> None:
    rows[_index(rows, row)] = row


@dataclass(frozen=True)
class _Made:
    """What the last rows were made from, to tell which matches the next snapshot changed."""

    schedule: object  # the schedule's matches, by identity (another schedule: every row made again)
    results: Mapping[int, RecordedResult]
    versions: Mapping[int, str]
    moves: Mapping[int, tuple[str, datetime]]
    class_progress: dict[str, Progress]
    playing: frozenset[int]
    aside: tuple[object, ...]
    rows: MatchRows


class RowMaker:
    """Makes each snapshot's :class:`MatchRows`, again only for the matches whose inputs changed since the last
    snapshot (one maker per process, as the pages' snapshots follow one another; another cup's starts anew)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: _Made | None = None
        self._made: dict[int, tuple[tuple[object, ...], MatchRow]] = {}  # number -> its row's inputs, the row
        self._made_for: tuple[object, object] | None = None  # the cup and rulesets those rows are of
        self._placeholders: dict[str, frozenset[int]] = {}  # class -> its matches whose teams a placeholder names
        self._schedule: tuple[object, dict[int, ScheduledMatch]] = ((), {})  # the schedule's matches by number

    def rows(self, data: TournamentData, progress: Progress | None, class_progress: dict[str, Progress],
             playing: frozenset[int]) -> MatchRows:
        """The snapshot's rows; ``progress`` resolves placeholders (the classes' merged), ``class_progress`` tells
        which classes' did change; ``playing``: the matches on a court now."""
        aside = tuple(a.result for a in progress.set_aside) if progress is not None else ()
        with self._lock:  # page threads may make a snapshot's view at once: one makes it, the others wait for it
            if self._made_for is None or self._made_for[0] is not data.cup or self._made_for[1] is not data.rulesets:
                self._made, self._made_for, self._last = {}, (data.cup, data.rulesets), None  # another cup's
                self._placeholders = _placeholders(data)
            last = self._last
            if (data.progress is None or last is None or last.schedule is not data.schedule.matches
                    or last.aside != aside):  # every row made again (each kept while its inputs are the same)
                rows = MatchRows.of(self._make(data, progress, playing, aside,
                                               [m.number for m in data.schedule.matches]))
            else:
                fresh = self._make(data, progress, playing, aside, self._touched(last, data, class_progress, playing))
                changed = [r for r in fresh if last.rows.by_number.get(r.number) is not r]
                rows = last.rows.replaced(changed) if changed else last.rows
            if data.progress is not None:  # a snapshot without the service's progress works out its own: not kept
                self._last = _Made(data.schedule.matches, data.results, data.versions, data.moves,
                                   dict(class_progress), playing, aside, rows)
            return rows

    def _touched(self, last: _Made, data: TournamentData, class_progress: dict[str, Progress],
                 playing: frozenset[int]) -> set[int]:
        touched = _differ(last.results, data.results) | _differ(last.versions, data.versions)
        touched |= _differ(last.moves, data.moves) | (playing ^ last.playing)
        for name, p in class_progress.items():
            if last.class_progress.get(name) is not p:  # its placeholders may name other teams now
                touched |= self._placeholders.get(name, frozenset())
        return touched

    def _make(self, data: TournamentData, progress: Progress | None, playing: frozenset[int],
              aside: tuple[object, ...], numbers: Iterable[int]) -> list[MatchRow]:
        windows = {name: window_of(ruleset) for name, ruleset in data.rulesets.items()}  # per class, not per match
        if self._schedule[0] is not data.schedule.matches:
            self._schedule = (data.schedule.matches, {m.number: m for m in data.schedule.matches})
        schedule = self._schedule[1]
        out = []
        for number in numbers:
            m = schedule.get(number)
            if m is None:  # a result stored for a match the schedule lacks: no row (as the full pass makes none)
                continue
            court, start = data.moves.get(m.number, (m.court, m.start))
            home, home_known = _team_of(progress, m.stage, m.home, "home")
            away, away_known = _team_of(progress, m.stage, m.away, "away")
            recorded = data.results.get(m.number)
            set_aside = None
            if recorded is not None and recorded.result in aside:
                recorded, set_aside = None, recorded
            live = m.number in playing and recorded is None
            version = data.versions.get(m.number, "")
            # What the row is made of: the same as in the last snapshot, the same row (its pages' regions compare
            # rows by identity).
            made_of = (m, court, start, home, home_known, away, away_known, recorded, set_aside, live, version)
            kept = self._made.get(m.number)
            if kept is not None and kept[0] == made_of:
                out.append(kept[1])
                continue
            klass = data.class_of(m.stage)
            window = windows[klass.name]
            locked_at = recorded.recorded_at + window if recorded is not None and window is not None else None
            moved = m if (court, start) == (m.court, m.start) else \
                m.replace(court=court, start=start, end=start + (m.end - m.start))
            row = MatchRow(
                scheduled=moved, home=home, away=away, home_known=home_known, away_known=away_known,
                recorded=recorded, live=live, locked_at=locked_at, moved=m.number in data.moves,
                awarded=awarded(data.rulesets[klass.name], recorded.result) if recorded is not None else None,
                version=version, set_aside=set_aside, published=klass.published,
            )
            self._made[m.number] = (made_of, row)
            out.append(row)
        return out


def _team_of(progress: Progress | None, stage: str, text: str, side: str) -> tuple[str, bool]:
    """The team a fixture's side names, and whether it is known (a placeholder the progress does not fill yet)."""
    if parse_placeholder(text) is None:
        return text, True
    if progress is None:
        return text, False
    state = progress.matches.get(stage)
    if state is not None:
        slot = state.home if side == "home" else state.away
        if slot.team is not None and canonical(slot.text) == canonical(text):
            return slot.team, True
    found = progress.slots.get(canonical(text))
    if found is not None and found.team is not None:
        return found.team, True
    return text, False


def _differ(old: Mapping[int, Any], new: Mapping[int, Any]) -> set[int]:
    """The keys whose values differ (by identity first: a snapshot keeps a match's record while it is the same)."""
    if old is new:
        return set()
    changed = {k for k, v in new.items() if (w := old.get(k, _MISSING)) is not v and w != v}
    changed.update(k for k in old if k not in new)
    return changed


_MISSING = object()


def _placeholders(data: TournamentData) -> dict[str, frozenset[int]]:
    out: dict[str, set[int]] = {}
    for m in data.schedule.matches:
        if parse_placeholder(m.home) is not None or parse_placeholder(m.away) is not None:
            out.setdefault(data.class_of(m.stage).name, set()).add(m.number)
    return {name: frozenset(numbers) for name, numbers in out.items()}


def window_of(ruleset: Ruleset) -> timedelta | None:
    """The ruleset's protest window (seed 003: "senast en (1) timme efter avslutad match"), if it has one."""
    ms = ruleset.protest_window
    return None if ms is None else timedelta(milliseconds=ms)
