"""What the pages show, derived once per snapshot: the schedule with teams and results
filled in, each court's now and next, each team's matches, the bracket, suspensions.

Pure functions of a :class:`TournamentData`; the app caches one :class:`View` per version.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from rules import (
    CourtsideError,
    PoolTable,
    Progress,
    TournamentClass,
    Unresolved,
    progress,
)
from server.classes import merged_progress
from server.discipline import matches_by_team, misses
from server.web.inputs import Abandoned, Sanction, TournamentData
from server.web.match_rows import MatchRow, MatchRows, RowMaker, window_of
from server.web.schedule_parts import class_part, day_parts, default_part, known_part, matches_of, parts


def protest_window(data: TournamentData, stage: str) -> timedelta | None:
    """The stage's ruleset's protest window (seed 003: "senast en (1) timme efter avslutad match")."""
    return window_of(data.ruleset_of(stage))


def worked_out(data: TournamentData) -> dict[str, Progress]:
    """Each class's progress worked out from the snapshot's results (a snapshot without the service's own)."""
    cup = data.cup
    results = [r.result for _, r in sorted(data.results.items())]
    return {c.name: progress(c.tournament, data.rulesets[c.name],
                             {p: data.entry_teams[p] for p in (x.name for x in c.tournament.pools)
                              if p in data.entry_teams},
                             [r for r in results if cup.owns(c, r.pool)],
                             [d for d in data.decisions if cup.owns(c, d.pool)])
            for c in cup.classes}


@dataclass(frozen=True, kw_only=True)
class Suspension:
    sanction: Sanction
    misses: tuple[int, ...]  # match numbers the player sits out


def being_played(data: TournamentData) -> frozenset[int]:
    """The matches a court's table says it is playing (its presence, or a live board not finished)."""
    return frozenset({p.playing for p in data.presence.values() if p.online and p.playing is not None} |
                     {int(b.match) for b in data.live.values()
                      if b.match is not None and b.match.isdigit() and b.phase != "finished"})


_ROWS = RowMaker()  # the pages' snapshots follow one another: each one's rows are made from the last one's


class View:
    """The derived pages' data for one snapshot."""

    def __init__(self, data: TournamentData) -> None:
        self.data = data
        self.error: str | None = None
        self.class_progress: dict[str, Progress] = {}
        self.progress: Progress | None = None
        if data.progress is not None and data.class_progress is not None:  # the service's own
            self.class_progress, self.progress = data.class_progress, data.progress
        else:
            try:
                self.class_progress = worked_out(data)
                self.progress = merged_progress(self.class_progress)
            except CourtsideError as err:  # stored results the rules refuse: show it, never crash a page
                self.error = str(err)
        made = self._rows()
        self.matches, self.by_number, self._by = made.matches, made.by_number, made.by
        self._rows_made = made
        self.courts = list(data.cup.schedule.courts)
        self.courts += [court for court in self._by["court"] if court not in self.courts]
        self.suspensions = self._suspensions()

    # Schedule ---------------------------------------------------------------------------
    def _rows(self) -> MatchRows:
        return _ROWS.rows(self.data, self.progress, self.class_progress, being_played(self.data))

    def live_alone_since(self, before: View) -> bool:
        """Whether this snapshot differs from ``before`` in what changes several times a second alone (the courts'
        live states and presence, conflicts, the instant): the same rows, results, progress and team sheets, and
        no match's protest window closed between the two instants."""
        return (self._rows_made is before._rows_made and self.data.results is before.data.results
                and self.progress is before.progress and self.data.sheets is before.data.sheets
                and not self._rows_made.locks_between(before.data.now, self.data.now))

    def abandoned(self, number: int) -> Abandoned | None:
        """The table's report that match ``number`` was abandoned, while the organiser has not settled it."""
        return next((a for a in self.data.abandoned if a.number == number), None)

    def on_court(self, court: str) -> list[MatchRow]:
        return self._by["court"].get(court, [])

    def stage_matches(self, stage: str) -> list[MatchRow]:
        """A pool's (or a knock-out match's) matches, in playing order."""
        return self._by["stage"].get(stage, [])

    def now_and_next(self, court: str) -> tuple[MatchRow | None, MatchRow | None]:
        """The match being played (or the first still to play) on ``court``, and the one after it."""
        return self._rows_made.now_and_next(court)

    def locked_in(self, kind: str, key: str) -> int:
        """How many of a court's or a stage's matches are locked (their protest window closed) at the snapshot's
        instant."""
        return self._rows_made.locked_in(kind, key, self.data.now)

    def delay(self, court: str) -> timedelta:
        """How far the court runs behind its schedule at the snapshot's instant."""
        now, _ = self.now_and_next(court)
        if now is None:
            return timedelta(0)
        late = self.data.now - (now.end if now.live else now.start)
        return max(late, timedelta(0))

    def team_matches(self, team: str) -> list[MatchRow]:
        return self._by["team"].get(team, [])

    def days(self, matches: list[MatchRow] | None = None) -> list[tuple[datetime, list[MatchRow]]]:
        """The matches (all of them unless told) by the day they are played, in playing order."""
        out: list[tuple[datetime, list[MatchRow]]] = []
        for m in self.matches if matches is None else matches:
            if not out or out[-1][0].date() != m.start.date():
                out.append((m.start, []))
            out[-1][1].append(m)
        return out

    # A schedule page shows one part of the schedule (server.web.schedule_parts); worked out once a snapshot.
    def schedule_part(self, part: str) -> list[MatchRow]:
        return matches_of(self.matches, part)

    @cached_property
    def schedule_days(self) -> dict[str, list[str]]:
        return day_parts(self.matches)

    @cached_property
    def schedule_parts(self) -> list[str]:
        return parts(self.matches, self.courts, self.schedule_days)

    def known_schedule_part(self, part: str) -> bool:
        """Whether a schedule page may show ``part`` (a class's parts are made from the address, not listed)."""
        days = [*self.schedule_days, *(p[4:] for ps in self.schedule_days.values() for p in ps)]
        return known_part(part, self.schedule_parts, [c.name for c in self.classes], days, self.courts)

    def class_schedule_part(self, class_name: str, day: str = "", court: str = "") -> str:
        return class_part(self.matches, class_name, day, court)

    @cached_property
    def schedule_default(self) -> str:
        return default_part(self.matches, [m for m in self.matches if m.recorded is None], self.schedule_days)

    @property
    def finished(self) -> bool:
        """Every match has its result: the day is over and the pages lead with the final ranking."""
        return self._rows_made.finished

    @property
    def teams(self) -> list[str]:
        return sorted(t.name for c in self.data.cup.classes for t in c.tournament.teams)

    # Classes ------------------------------------------------------------------------------
    @property
    def classes(self) -> list[TournamentClass]:
        """The cup's classes, or none when the file declares none (the pages are then the tournament's)."""
        return list(self.data.cup.classes) if self.data.cup.has_classes else []

    def class_named(self, name: str) -> TournamentClass | None:
        return self.data.cup.class_named(name) if self.data.cup.has_classes else None

    def class_matches(self, name: str) -> list[MatchRow]:
        return self._by["class"].get(name, [])

    def played_in_class(self, name: str) -> int:
        """How many of the class's matches have a result. Counted with the rows, not by the template's filters: the
        home page's classes are rendered again after every result, and Jinja's filters over a cup's 4,080 matches
        took a third of the pages' round after it."""
        return self._rows_made.played.get(name, 0)

    def champion(self, name: str) -> str | None:
        """The class's winner once its final ranking's first place is decided (None for an unpublished class)."""
        found = self.class_named(name)
        if found is None or not found.published:
            return None
        ranking = self.final_ranking(name)
        return ranking[0][1] if ranking and not ranking[0][2] and self.progress is not None else None

    def player_label(self, stage: str, team: str, number: str | None) -> str:
        """"#13 Anna Berg", or "#13" where the team's sheet does not name the player or its class keeps players'
        names off the public pages."""
        if not number:
            return ""
        sheet = self.data.sheets.get(team)
        return sheet.label(number) if sheet is not None and self.data.player_names(stage) else f"#{number}"

    def asked_part(self, day: str, court: str, klass: str) -> str:
        """The part of the schedule a page's address asks for (server.web.schedule_parts): a class's, a day's (a
        crowded day's first hour), a court's, or the default one."""
        if klass:  # one class's matches: a parent follows their child's class
            return self.class_schedule_part(klass, day, court)
        part = f"day={day}" if day else f"court={court}" if court else self.schedule_default
        crowded = self.schedule_days.get(day)
        return crowded[0] if crowded and part not in crowded else part

    def class_pools(self, name: str) -> list[str]:
        found = self.data.cup.class_named(name)
        return [] if found is None else [p.name for p in found.tournament.pools]

    def published(self, stage: str) -> bool:
        return self.data.published(stage)

    # Pools, bracket, ranking -----------------------------------------------------------
    @property
    def pools(self) -> list[str]:
        return [p.name for c in self.data.cup.classes for p in c.tournament.pools]

    def table(self, pool: str) -> PoolTable | None:
        if self.progress is None or pool not in self.progress.pools:
            return None
        return self.progress.pools[pool].table

    def pool_teams(self, pool: str) -> list[str]:
        if self.progress is None or pool not in self.progress.pools:
            return []
        return [s.team or s.text for s in self.progress.pools[pool].teams]

    def team_pools(self, team: str) -> list[tuple[str, int | None, int]]:
        """(pool, the team's place in it or None before it has played there, how many teams) for each pool
        the team plays in, a second-round pool ("3A") once the team has filled its slot."""
        out = []
        for pool in self.pools:
            teams = self.pool_teams(pool)
            if team in teams:
                table = self.table(pool) if self.published(pool) else None  # no place for an unpublished class
                place = next((r.rank for r in table.rows if r.team == team and r.played), None) if table else None
                out.append((pool, place, len(teams)))
        return out

    def carried(self, pool: str) -> list[MatchRow]:
        """The earlier pools' matches whose results a carry-forward pool (pool C) counts, as they were played:
        its table counts them, so its page lists them beside its own."""
        if self.progress is None or pool not in self.progress.pools:
            return []
        pairs = {(r.home, r.away) for r in self.progress.pools[pool].carried}
        if not pairs:
            return []
        return [m for m in self.matches if m.stage != pool and m.recorded is not None
                and (m.recorded.result.home, m.recorded.result.away) in pairs]

    def pool_played(self, pool: str) -> tuple[int, int]:
        if self.progress is None or pool not in self.progress.pools:
            return 0, 0
        state = self.progress.pools[pool]
        return state.played, state.expected

    def bracket(self, class_name: str | None = None) -> list[tuple[str, list[MatchRow]]]:
        """Classification matches grouped by round, in playing order (one class's, when named)."""
        rounds: dict[str, list[MatchRow]] = {}
        for m in self.matches:
            if not m.is_pool and class_name in (None, m.class_name):
                rounds.setdefault(m.round, []).append(m)
        return list(rounds.items())

    def trees(self, class_name: str | None = None) -> list[Any]:
        """The knock-out matches drawn as brackets (:mod:`server.web.bracket`), one class's when named."""
        from server.web.bracket import trees  # it reads a View: imported here, not at the top

        return trees(self, class_name)

    def final_ranking(self, class_name: str = "") -> list[tuple[int, str, str | None]]:
        """(place, team or placeholder, what it still needs) in the class's final ranking (the tournament's,
        without classes)."""
        found = self.data.cup.class_named(class_name)
        if found is None:
            return []
        own = self.class_progress.get(class_name)
        if own is None:
            return [(n, text, None) for n, text in enumerate(found.tournament.final_ranking, 1)]
        return [(n, s.team or s.text, s.needs) for n, s in enumerate(own.final_ranking, 1)]

    def unresolved(self) -> list[Unresolved]:
        """The ties only the organiser can break, whole (the desk words ``needs`` from their phrases,
        ``needs_of``, in the tournament's language, as the pool pages do), in the pools that are complete.
        The standings list every level group, down to a pool's four teams before a ball is played; until
        the pool's last match those results may still break the tie, and lots are drawn (seed 003), or a
        penalty competition held "after the round" (seed 000), only among the teams still level then."""
        if self.progress is None:
            return []
        return [u for state in self.progress.pools.values() if state.complete and state.table is not None
                for u in state.table.unresolved]

    # Discipline -------------------------------------------------------------------------
    def _suspensions(self) -> list[Suspension]:
        out = []
        of_team = matches_by_team(self.matches) if self.data.sanctions else {}
        for s in self.data.sanctions:
            out.append(Suspension(sanction=s, misses=misses(s, of_team.get(s.team, ()), self.by_number.get(s.number))))
        return out

    def suspended(self, number: int) -> list[Sanction]:
        """Players who may not play match ``number`` (sent off earlier, seed 003/001)."""
        return [s.sanction for s in self.suspensions if number in s.misses]

    def pending_rulings(self) -> list[Sanction]:
        return [s for s in self.data.sanctions if s.needs_decision and not s.decided]


