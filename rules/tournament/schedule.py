"""The fixture list: every match on a court at a time, computed from the file.

List scheduling on each court's own clock: whenever a court falls free it takes
the first fixture, in playing order, whose teams have had their rest and whose
earlier stages are over. A classification slot ("winner SF1") counts as a team of
its own, so it too is never in two places at once, and it waits for the stages it
comes from plus the minimum rest. Courts are resurfaced after every
``resurface_every`` games; no match crosses a break or the end of a playing day.
With ``balance_courts`` the courts of matches played side by side are swapped
until every team plays its pool matches evenly across the courts.

Medal games (the matches whose winner or loser takes places 1-3 of the final
ranking; without one, the ``final`` round) go last: none starts before every
other match has started, and each starts only once the one before it has ended,
so the 3rd-place match is played before the final, which closes the tournament.
"""

from __future__ import annotations

import heapq
import math
import random
from bisect import bisect_right
from datetime import datetime, timedelta
from functools import cached_property

from rules.errors import ScheduleError
from rules.record import Record
from rules.ruleset import Ruleset, StageKind
from rules.tournament.checks import slot_lengths
from rules.tournament.fixtures import POOL_ROUND, Fixture, all_fixtures
from rules.tournament.model import OTHER_COURT, Schedule, Tournament
from rules.tournament.placeholders import WinnerOrLoser, parse_placeholder
from rules.tournament.stages import stage_dependencies

MAX_DAYS = 60
"""A schedule that runs longer than this is taken as one that cannot be met."""


class ScheduledMatch(Record):
    """A match of the tournament's schedule: the one shape of a scheduled match that the service stores (with the
    organiser's moves), its pages and the table's tournament file read. A court's schedule on the wire
    (:class:`rules.CourtMatch`) is this match as a court plays it: teams resolved, its status and result."""

    number: int  # the match's identity: its number in the schedule ("12" as text on the wire and in the database)
    stage: str  # the pool, or the tournament file's match name ("SF1")
    round: str  # the ruleset's round ("pool", "semi_final")
    kind: StageKind  # round_robin (a pool's match may end level) or knockout
    home: str  # a team, or the placeholder it waits for ("2A", "winner SF1")
    away: str
    court: str  # the court's name ("Hall 1"); its id on the wire and in addresses is rules.protocol.slug of it
    start: datetime
    end: datetime
    class_name: str = ""  # the cup's class; "" in a tournament without classes

    @cached_property  # in the record's dict beside its fields, which equality, hash and replace() leave out
    def match_id(self) -> str:
        """The match's number as text: an envelope's ``match``, the database's key, a court schedule's ``match``;
        read for each of a cup's 4,000 matches at every snapshot, so made once."""
        return str(self.number)


class ScheduledFields:
    """The schedule's fields of a shell's view that holds its :class:`ScheduledMatch` as ``scheduled`` (the pages'
    and the web's views of a match): read from the one record, never copied beside it."""

    __slots__ = ()
    scheduled: ScheduledMatch

    @property
    def match_id(self) -> str:
        return self.scheduled.match_id

    @property
    def number(self) -> int:
        return self.scheduled.number

    @property
    def stage(self) -> str:
        return self.scheduled.stage

    @property
    def round(self) -> str:
        return self.scheduled.round

    @property
    def kind(self) -> StageKind:
        return self.scheduled.kind

    @property
    def start(self) -> datetime:
        return self.scheduled.start

    @property
    def end(self) -> datetime:
        return self.scheduled.end

    @property
    def class_name(self) -> str:
        """The cup's class ("" without classes)."""
        return self.scheduled.class_name


class Resurfacing(Record):
    court: str
    start: datetime
    end: datetime


class TournamentSchedule(Record):
    matches: tuple[ScheduledMatch, ...]
    resurfacings: tuple[Resurfacing, ...] = ()

    @property
    def end(self) -> datetime | None:
        return max((m.end for m in self.matches), default=None)


def _ms(delta: timedelta) -> int:
    return delta // timedelta(milliseconds=1)


class _Calendar:
    """When play is possible: playing days minus breaks, in ms from the start."""

    def __init__(self, s: Schedule) -> None:
        self.origin = s.start
        if s.day_start is None or s.day_end is None:
            self.windows: list[tuple[int, float]] = [(0, math.inf)]
        else:
            self.windows = []
            for d in range(MAX_DAYS):
                day = s.start.date() + timedelta(days=d)
                opens = max(datetime.combine(day, s.day_start), s.start)
                closes = datetime.combine(day, s.day_end)
                if closes > opens:
                    self.windows.append((_ms(opens - s.start), _ms(closes - s.start)))
        self.window_ends = [end for _, end in self.windows]
        self.breaks = sorted((_ms(b.start - s.start), _ms(b.end - s.start)) for b in s.breaks)

    def fit(self, earliest: int, length: int) -> int | None:
        """The first start at or after ``earliest`` where ``length`` ms of play fit."""
        i = bisect_right(self.window_ends, earliest)
        for opens, closes in self.windows[i:]:
            t = max(earliest, opens)
            moved = True
            while moved:
                moved = False
                for b_start, b_end in self.breaks:
                    if b_start < t + length and t < b_end:
                        t, moved = b_end, True
            if t + length <= closes:
                return t
        return None

    def at(self, ms: int) -> datetime:
        return self.origin + timedelta(milliseconds=ms)


def _feeding_matches(f: Fixture) -> list[str]:
    out = []
    for text in (f.home, f.away):
        found = parse_placeholder(text)
        if isinstance(found, WinnerOrLoser):
            out.append(found.match)
    return out


def medal_matches(t: Tournament) -> list[str]:
    """The matches that decide places 1-3, the final last; they are scheduled after every other match."""
    names: list[str] = []
    for text in reversed(t.final_ranking[:3]):
        found = parse_placeholder(text)
        if isinstance(found, WinnerOrLoser) and found.match not in names:
            names.append(found.match)
    if not t.final_ranking:
        names = [m.name for m in t.matches if m.round == "final"]
    # A medal game that another match waits for cannot go last; it keeps its usual place.
    fed = {d for m in t.matches if m.name not in names for d in stage_dependencies(t, m.name)}
    fed |= {d for p in t.pools for d in stage_dependencies(t, p.name)}
    return [n for n in names if n not in fed]


class ClassPlan(Record):
    """One class to schedule: its tournament (its own slots, rest and courts), ruleset and drawn pools."""

    name: str
    tournament: Tournament
    ruleset: Ruleset
    entry_teams: dict[str, tuple[str, ...]]


def build_schedule(t: Tournament, ruleset: Ruleset, entry_teams: dict[str, tuple[str, ...]]) -> TournamentSchedule:
    """Place every fixture; raises :class:`ScheduleError` saying which constraint cannot be met."""
    return schedule_classes(t.schedule, [ClassPlan(name="", tournament=t, ruleset=ruleset, entry_teams=entry_teams)])


class _Class:
    """What the scheduler keeps of one class: its fixtures in playing order and its own constraints."""

    def __init__(self, plan: ClassPlan, court_index: dict[str, int], venue: Schedule) -> None:
        t, s = plan.tournament, plan.tournament.schedule
        self.name = plan.name
        self.t = t
        undrawn = [p.name for p in t.drawn_pools if p.name not in plan.entry_teams]
        if undrawn:
            raise ScheduleError(f"pools {', '.join(undrawn)} are filled by the draw, and no drawn teams were given")
        self.pool_slot, self.knockout_slot = slot_lengths(t, plan.ruleset)
        self.min_rest = s.min_rest
        self.courts = [court_index[c] for c in s.courts]
        self.fixtures = all_fixtures(t, plan.entry_teams)
        self.medals = medal_matches(t)
        # Stable: everything else keeps its playing order; the medal games follow, bronze before gold.
        self.fixtures.sort(key=lambda f: self.medals.index(f.stage) + 1 if f.stage in self.medals else 0)
        self.others_left = sum(f.stage not in self.medals for f in self.fixtures)
        self.not_before: dict[str, int] = {}
        self.round_starts: dict[str, list[int]] = {}
        self.pinned: dict[str, int | None] = {}
        for pool in t.pools:
            self.not_before[pool.name] = _ms(pool.not_before - venue.start) if pool.not_before else 0
            self.round_starts[pool.name] = [_ms(at - venue.start) for at in pool.rounds_not_before]
            self.pinned[pool.name] = court_index[pool.court] if pool.court else None
        for match in t.matches:
            self.not_before[match.name] = _ms(match.not_before - venue.start) if match.not_before else 0
            pin = match.court if match.court and match.court != OTHER_COURT else None
            self.pinned[match.name] = court_index[pin] if pin else None
        self.other = {m.name for m in t.matches if m.court == OTHER_COURT}
        self.deps: dict[str, set[str]] = {}
        for f in self.fixtures:
            if f.stage not in self.deps:
                self.deps[f.stage] = set().union(set(), *(self._fixture_stages(d)
                                                          for d in stage_dependencies(t, f.stage)))

    def _fixture_stages(self, name: str) -> set[str]:
        # Rankings have no matches: a stage waiting for one waits for what the ranking waits for.
        if self.t.ranking(name) is None:
            return {name}
        return set().union(*(self._fixture_stages(d) for d in stage_dependencies(self.t, name)))

    def length(self, f: Fixture) -> int:
        return self.pool_slot if f.round == POOL_ROUND else self.knockout_slot


def schedule_classes(venue: Schedule, plans: list[ClassPlan]) -> TournamentSchedule:
    """Every class's fixtures on the venue's shared courts, days and breaks: no court used twice at once, each
    team's rest kept, each class's stages after the stages they wait for. Stage and team names are unique across
    the classes (:mod:`rules.tournament.cup` checks it), so the constraints are kept by name."""
    calendar = _Calendar(venue)
    courts = list(venue.courts)
    court_index = {c: i for i, c in enumerate(courts)}
    classes = [_Class(plan, court_index, venue) for plan in plans]
    fixtures: list[Fixture] = []
    owner: list[_Class] = []
    order: list[float] = []  # the classes' playing orders merged, each class keeping its pace
    pending: list[list[int]] = []
    for k in classes:
        first = len(fixtures)
        fixtures += k.fixtures
        owner += [k] * len(k.fixtures)
        order += [j / len(k.fixtures) for j in range(len(k.fixtures))]
        pending.append(list(range(first, len(fixtures))))
    on_court = [[n for n, k in enumerate(classes) if c in k.courts] for c in range(len(courts))]
    remaining: dict[str, int] = {}
    for f in fixtures:
        remaining[f.stage] = remaining.get(f.stage, 0) + 1
    stage_end: dict[str, int] = {}
    ready_at: dict[tuple[str, str], int] = {}  # (class, team or slot): "best 3rd" names one slot per class
    played_on: dict[str, int] = {}
    court_free = [0] * len(courts)
    games = [0] * len(courts)
    version = [0] * len(courts)
    waiting: dict[int, float] = {}
    heap: list[tuple[int, int, int]] = [(0, c, 0) for c in range(len(courts))]
    placed: list[tuple[int, int, int, int]] = []  # fixture, court, start, end
    resurfacings: list[tuple[int, int, int]] = []

    def ready(k: _Class, f: Fixture) -> float:
        medals = k.medals
        if k.others_left and f.stage in medals:
            return math.inf
        r: float = max(ready_at.get((k.name, f.home), 0), ready_at.get((k.name, f.away), 0), k.not_before[f.stage])
        if f.stage in medals:
            for earlier in medals[: medals.index(f.stage)]:
                if remaining.get(earlier, 0):
                    return math.inf
                r = max(r, stage_end.get(earlier, 0))
        if f.pool_round and f.pool_round <= len(k.round_starts.get(f.stage, ())):
            r = max(r, k.round_starts[f.stage][f.pool_round - 1])
        for d in k.deps[f.stage]:
            if remaining.get(d, 0):
                return math.inf
            r = max(r, stage_end.get(d, 0) + k.min_rest)
        return r

    def allowed(k: _Class, f: Fixture, c: int) -> bool:
        pin = k.pinned.get(f.stage)
        if pin is not None:
            return pin == c
        if f.stage in k.other:
            return all(played_on.get(m) != c for m in _feeding_matches(f))
        return True

    def wait(c: int, until: float) -> None:
        waiting[c] = until
        if until < math.inf:
            version[c] += 1
            heapq.heappush(heap, (int(until), c, version[c]))

    while any(pending):
        if not heap:
            stuck = [fixtures[i] for left in pending for i in left[:3]][:3]
            names = "; ".join(f"{f.stage} ({f.home} v {f.away})" for f in stuck)
            count = sum(map(len, pending))
            raise ScheduleError(f"no court can take {count} matches, e.g. {names}: check their courts")
        now, c, v = heapq.heappop(heap)
        if v != version[c]:
            continue
        waiting.pop(c, None)
        best, best_at, best_pos, best_class = -1, math.inf, -1, -1
        for n in on_court[c]:
            k = classes[n]
            for pos, i in enumerate(pending[n]):
                f = fixtures[i]
                if not allowed(k, f, c):
                    continue
                at = max(now, ready(k, f))
                if at < best_at or (best >= 0 and at == best_at < math.inf and order[i] < order[best]):
                    best, best_at, best_pos, best_class = i, at, pos, n
                if at == now:
                    break
        if best < 0 or best_at > now:
            wait(c, best_at)
            continue
        f, k = fixtures[best], owner[best]
        length = k.length(f)
        start = calendar.fit(now, length)
        if start is None:
            raise ScheduleError(
                f"{f.stage} ({f.home} v {f.away}) does not fit in {MAX_DAYS} playing days: "
                "the days are too short for a slot, or there are too many matches for the courts"
            )
        if start > now:
            wait(c, start)
            continue
        end = start + length
        del pending[best_class][best_pos]
        placed.append((best, c, start, end))
        played_on[f.stage] = c
        for team in (f.home, f.away):
            ready_at[k.name, team] = end + k.min_rest
        remaining[f.stage] -= 1
        stage_end[f.stage] = max(stage_end.get(f.stage, 0), end)
        if f.stage not in k.medals:
            k.others_left -= 1
        games[c] += 1
        court_free[c] = end
        if venue.resurface_every and games[c] % venue.resurface_every == 0:
            resurfacings.append((c, end, end + venue.resurface))
            court_free[c] = end + venue.resurface
        version[c] += 1
        heapq.heappush(heap, (court_free[c], c, version[c]))
        if remaining[f.stage] == 0 or (k.medals and not k.others_left):
            # A finished stage (or the start of the last non-medal match) lets followers start:
            # wake courts idling past that moment.
            unlocked = stage_end[f.stage] + k.min_rest if remaining[f.stage] == 0 else start
            if f.stage in k.medals and remaining[f.stage] == 0:
                unlocked = stage_end[f.stage]  # the next medal game has other teams: no rest to wait for
            for w, until in list(waiting.items()):
                if until > unlocked:
                    waiting.pop(w)
                    version[w] += 1
                    heapq.heappush(heap, (max(court_free[w], unlocked), w, version[w]))

    if venue.balance_courts:
        for k in classes:
            _balance_class(placed, fixtures, owner, k, courts)
    placed.sort(key=lambda p: (p[2], p[1]))
    return TournamentSchedule(
        matches=tuple(
            ScheduledMatch(
                number=n,
                stage=fixtures[i].stage,
                round=fixtures[i].round,
                kind="round_robin" if owner[i].t.pool(fixtures[i].stage) is not None else "knockout",
                home=fixtures[i].home,
                away=fixtures[i].away,
                court=courts[c],
                start=calendar.at(a),
                end=calendar.at(b),
                class_name=owner[i].name,
            )
            for n, (i, c, a, b) in enumerate(placed, 1)
        ),
        resurfacings=tuple(
            Resurfacing(court=courts[c], start=calendar.at(a), end=calendar.at(b)) for c, a, b in resurfacings
        ),
    )


def _balance_class(placed: list[tuple[int, int, int, int]], fixtures: list[Fixture], owner: list[_Class],
                   k: _Class, courts: list[str]) -> None:
    """Balance one class's pool matches over the class's own courts (the courts counted as the class's 1..n)."""
    local = {c: j for j, c in enumerate(k.courts)}
    mine = [n for n, p in enumerate(placed) if owner[p[0]] is k]
    part = [(i, local[c], a, b) for i, c, a, b in (placed[n] for n in mine)]
    fixed = {name for name, pin in k.pinned.items() if pin is not None}
    _balance(part, fixtures, len(k.courts), fixed)
    _check_balance(part, fixtures, [courts[c] for c in k.courts])
    for n, (i, c, a, b) in zip(mine, part, strict=True):
        placed[n] = (i, k.courts[c], a, b)


def _even(row: list[int], n: int) -> bool:
    """A team's pool matches per court are as even as ``n`` courts allow: equal, or one apart."""
    return max(row) - min(row) <= (0 if sum(row) % n == 0 else 1)


def _pool_counts(placed: list[tuple[int, int, int, int]], fixtures: list[Fixture], n: int) -> dict[str, list[int]]:
    counts: dict[str, list[int]] = {}
    for i, c, _, _ in placed:
        f = fixtures[i]
        if f.round == POOL_ROUND:
            for team in (f.home, f.away):
                counts.setdefault(team, [0] * n)[c] += 1
    return counts


def _balance(placed: list[tuple[int, int, int, int]], fixtures: list[Fixture], n: int, fixed: set[str]) -> None:
    """Swap courts between pool matches played at the same time until no swap evens teams out further."""
    groups: dict[tuple[int, int], list[int]] = {}
    for k, (i, _, a, b) in enumerate(placed):
        if fixtures[i].round == POOL_ROUND and fixtures[i].stage not in fixed:
            groups.setdefault((a, b), []).append(k)
    swappable = [g for g in groups.values() if len(g) > 1]
    rng = random.Random(0)  # fixed: the same file always gives the same schedule

    def gain(counts: dict[str, list[int]], kx: int, ky: int) -> int:
        # Change in the sum of squared per-court counts if kx and ky swap courts: lower is more even.
        ix, cx, _, _ = placed[kx]
        iy, cy, _, _ = placed[ky]
        delta = 0
        for team in (fixtures[ix].home, fixtures[ix].away):
            delta += 2 * (counts[team][cy] - counts[team][cx]) + 2
        for team in (fixtures[iy].home, fixtures[iy].away):
            delta += 2 * (counts[team][cx] - counts[team][cy]) + 2
        return delta

    for attempt in range(20):
        counts = _pool_counts(placed, fixtures, n)
        improved = True
        while improved:
            improved = False
            for group in swappable:
                for x in range(len(group)):
                    for y in range(x + 1, len(group)):
                        kx, ky = group[x], group[y]
                        if placed[kx][1] != placed[ky][1] and gain(counts, kx, ky) < 0:
                            _swap(placed, fixtures, counts, kx, ky)
                            improved = True
        if all(_even(row, n) for row in counts.values()):
            return
        # A local minimum: shake a few groups and try again.
        for group in rng.sample(swappable, k=min(len(swappable), 1 + attempt % 4)):
            kx, ky = rng.sample(group, 2)
            _swap(placed, fixtures, counts, kx, ky)


def _swap(
    placed: list[tuple[int, int, int, int]], fixtures: list[Fixture], counts: dict[str, list[int]], kx: int, ky: int
) -> None:
    ix, cx, a, b = placed[kx]
    iy, cy, _, _ = placed[ky]
    for team in (fixtures[ix].home, fixtures[ix].away):
        counts[team][cx] -= 1
        counts[team][cy] += 1
    for team in (fixtures[iy].home, fixtures[iy].away):
        counts[team][cy] -= 1
        counts[team][cx] += 1
    placed[kx] = (ix, cy, a, b)
    placed[ky] = (iy, cx, a, b)


def _check_balance(placed: list[tuple[int, int, int, int]], fixtures: list[Fixture], courts: list[str]) -> None:
    n = len(courts)
    for team, row in sorted(_pool_counts(placed, fixtures, n).items()):
        if not _even(row, n):
            where = ", ".join(f"{k} in {court}" for k, court in zip(row, courts, strict=True))
            raise ScheduleError(
                f"the court balance cannot be met: {team} plays its {sum(row)} pool matches {where}; "
                "matches played side by side cannot be swapped to even this out"
            )
