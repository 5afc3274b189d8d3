"""The tournament's progress as the service works it out from what is stored: each class's pools, matches and
rankings from its results and the organisers' decisions (``rules.tournament.progress``), kept while the stored
facts are the same, so that the pages and the loop can ask for it as often as they like. Several processes may
share one database: the cache key is read from the database, not kept in memory alone.

A stored result as the standings rank it (:func:`to_match_result`) and the team a fixture's side stands for
(:func:`resolve`) are here too: the progress is made of the one and settles the other.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from sqlalchemy import Row, select
from sqlalchemy.orm import Session

from rules import KeptProgress, MatchResult, Progress, progress, standings_result
from rules.tournament.placeholders import canonical
from rules.tournament.progression import SetAside
from server.classes import merged_progress
from server.db.models import Fixture
from server.fairplay import pools_fair_play
from server.logs import log
from server.result_feed import added_since

if TYPE_CHECKING:
    from server.store import Store

_RESULT_COLUMNS = ("stage", "home", "away", "home_goals", "away_goals", "outcome", "winner", "home_shootout",
                   "away_shootout")


def row_key(row: Any) -> tuple[Any, ...]:
    """What a stored result says (its columns the standings read), as a key: equal keys, equal results."""
    return tuple(getattr(row, column) for column in _RESULT_COLUMNS)


def to_match_result(row: Any) -> MatchResult:
    """A stored (not abandoned) result as the standings rank it."""
    return _match_result(row_key(row))


@lru_cache(maxsize=50_000)
def _match_result(key: tuple[Any, ...]) -> MatchResult:
    # Every snapshot converts every stored row again (a cup's 3,000 at 25 us each): one conversion per distinct row.
    row = SimpleNamespace(**dict(zip(_RESULT_COLUMNS, key, strict=True)))
    return standings_result(row, pool=row.stage, home=row.home, away=row.away)


def resolve(store: Store, progress: Progress, stage: str, text: str) -> str | None:
    """The team a fixture's home/away stands for, or None while it is not known."""
    if text in store.entry_team_names:
        return text
    # The file may write a slot "1 P13-A" that the progress names "1P13-A": one spelling per slot.
    text = canonical(text)
    # The stage's own slots first: a cup's classes each have a "best 3rd", which the merged slots leave out.
    state = progress.matches.get(stage)
    if state is not None:
        for side in (state.home, state.away):
            if canonical(side.text) == text:
                return side.team
    if stage in progress.pools:
        for s in progress.pools[stage].teams:
            if canonical(s.text) == text:
                return s.team
    slot = progress.slots.get(text)
    return None if slot is None else slot.team


def _misfits(store: Store, p: Progress, later: dict[str, Fixture], rows: list[Row[Any]]) -> list[SetAside]:
    """The results stored for a later pool's match that are not its teams' (as ``p`` resolves them)."""
    out = []
    aside = {a.result for a in p.set_aside}  # the engine's own reason ("X does not play in pool C") stands
    for r in rows:
        f = later.get(r.match_id)
        if f is None or to_match_result(r) in aside:
            continue
        home, away = resolve(store, p, f.stage, f.home), resolve(store, p, f.stage, f.away)
        if {home, away} != {r.home, r.away}:
            now = f"{home} v {away}" if home and away else "not known yet"
            out.append(SetAside(stage=r.stage, result=to_match_result(r),
                                reason=f"the result is {r.home} v {r.away} but match {r.match_id} is {now}"))
    return out


class Progresses:
    """The store's progress (``store.progresses``): worked out again only for the classes whose results changed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._cached: tuple[tuple[object, ...], tuple[Progress, dict[str, Progress]]] | None = None
        self._merged: list[tuple[tuple[Progress, ...], Progress]] = []  # the classes' progress and their merge
        self._logged_aside: set[SetAside] = set()  # the results set aside, each logged once
        # Each stage's last state and what it was worked out from (rules.tournament.progress's ``kept``): a result
        # walks its own pool or match again, and what follows from it, not the cup's hundreds. The progress is a pure
        # function of the stored rows, so a state kept here is the one it would work out again; shared by every
        # thread (each state is replaced whole).
        self._kept = KeptProgress()
        # Each class's last progress and what it was worked out from: a result changes its own class only, so a
        # cup's other classes keep theirs (fair-play classes excepted: their cards are not in the key). Kept apart
        # for the result feed's objects (True) and the rows a transaction read itself (server.result_feed): the two
        # kinds never compare equal, and a write and the next snapshot would each work out every class again.
        self._class_progress: dict[bool, dict[str, tuple[object, Progress]]] = {True: {}, False: {}}
        # The rows last split by class, and how: the publishing after a result and the pages' snapshot after it read
        # the same rows, and the second is spared the pass over every result of the day (kept apart as above).
        self._by_class: dict[bool, tuple[list[Any], dict[str, list[Any]]] | None] = {True: None, False: None}
        self._results_of_rows: dict[str, tuple[Any, MatchResult]] = {}  # match id -> (row, as the standings rank it)

    def progress(self, s: Session | None = None) -> Progress:
        """The whole cup's progress: every class's pools, matches and rankings (their names are unique across the
        cup) in one record; a cup of several classes keeps its final rankings in :meth:`class_progress`."""
        return self._progresses(s)[0]

    def class_progress(self, s: Session | None = None) -> dict[str, Progress]:
        """Each class's own progress (its final ranking, its placeholders), by class name."""
        return self._progresses(s)[1]

    def _progresses(self, s: Session | None) -> tuple[Progress, dict[str, Progress]]:
        if s is None:
            with self.store.session() as own:
                return self._progresses(own)
        if s.info.get("reading"):
            # A snapshot's progress is worked out from the very rows it shows (each class kept while its rows are
            # the ones it was worked out from): a revision read before or after them may name another state.
            if "progress" not in s.info:  # kept under the session's key if it read one before any row
                key = s.info.get("revision")
                kept = self._kept_under(key)
                s.info["progress"] = kept if kept is not None else self._settled(key, self.work_out(s))
            found: tuple[Progress, dict[str, Progress]] = s.info["progress"]
            return found
        key = self.store.revision(s)
        kept = self._kept_under(key)
        return kept if kept is not None else self._settled(key, self.work_out(s))

    def _kept_under(self, key: tuple[object, ...] | None) -> tuple[Progress, dict[str, Progress]] | None:
        """The progress last worked out, if under ``key`` (None: no key read, nothing kept)."""
        with self._lock:
            cached = self._cached
        return cached[1] if key is not None and cached is not None and cached[0] == key else None

    def _settled(self, key: tuple[object, ...] | None,
                 by_class: dict[str, Progress]) -> tuple[Progress, dict[str, Progress]]:
        """The classes' progress merged (again only when a class's changed), kept under ``key`` if one is given;
        a result that no longer fits is logged once, when it first does not (the desk lists it until settled)."""
        parts = tuple(by_class.values())
        with self._lock:
            merged = self._merged
        # The last two merges: the feed's and a writing transaction's own rows make two sets of parts.
        whole = next((w for made, w in merged if len(made) == len(parts) and all(
            a is b for a, b in zip(made, parts, strict=True))), None)
        if whole is None:
            whole = merged_progress(by_class, merged[0] if merged else None)
        with self._lock:
            self._merged = [(parts, whole), *(m for m in self._merged if m[1] is not whole)][:2]
            if key is not None:
                self._cached = (key, (whole, by_class))
            new = [a for a in whole.set_aside if a not in self._logged_aside]
            self._logged_aside = set(whole.set_aside)
        for aside in new:
            log("result_set_aside", stage=aside.stage, home=aside.result.home, away=aside.result.away,
                score=f"{aside.result.home_goals}-{aside.result.away_goals}", reason=aside.reason)
        return whole, by_class

    def work_out(self, s: Session) -> dict[str, Progress]:
        """Each class's progress of the results that count. The engine ranks a pool by its pairings, so a result
        stored for a later pool's match (its teams come from earlier pools) whose teams a correction upstream has
        sent elsewhere would still count, under a match its teams no longer play: it is set aside here, and the
        progress worked out again without it (at most once per stage: each pass settles one more)."""
        plan = self.store.plan
        cup = plan.cup
        classes = cup.classes
        read = self.store.results_read(s)
        every, fed = read.rows, read.fed
        rows_of = self._rows_by_class(every, fed)
        later = self._later_pool_fixtures(s)
        decisions = self.store.decisions(s)
        out: dict[str, Progress] = {}
        for c in classes:
            t, ruleset = c.tournament, plan.rulesets[c.name]
            rows = rows_of[c.name]
            mine = [d for d in decisions if cup.owns(c, d.pool)]
            # The rows themselves are the key (compared as tuples, in C, each row first by identity: the feed's rows
            # are the same objects until written again): a class with no new row keeps its progress.
            key = (tuple(rows), tuple(mine))
            kept = self._class_progress[fed].get(c.name)
            if kept is not None and kept[0] == key and ruleset.ranking.fair_play is None:
                out[c.name] = kept[1]
                continue
            misfits: list[SetAside] = []
            for _ in range(len(t.pools) + len(t.matches) + 1):
                pools = [p.name for p in t.pools]
                fair_play = (pools_fair_play(self.store, s, rows, pools) if ruleset.ranking.fair_play is not None
                             else None)
                p = progress(t, ruleset, plan.entry_by_class[c.name], [self._as_result(r) for r in rows],
                             mine, results_source="the service's results", source=plan.source, strict=False,
                             fair_play=fair_play, kept=self._kept)
                found = _misfits(self.store, p, later, rows)
                if not found:
                    break
                misfits += found
                gone = {a.result for a in found}
                rows = [r for r in rows if to_match_result(r) not in gone]
            out[c.name] = p.replace(set_aside=(*p.set_aside, *misfits)) if misfits else p
            self._class_progress[fed][c.name] = (key, out[c.name])
        return out

    def _as_result(self, row: Any) -> MatchResult:
        """:func:`to_match_result`, kept per row object: a class's progress converts each of its rows again after
        every result of the class (the feed's rows are the same objects until written again)."""
        kept = self._results_of_rows.get(row.match_id)
        if kept is not None and kept[0] is row:
            return kept[1]
        made = to_match_result(row)
        self._results_of_rows[row.match_id] = (row, made)
        return made

    def _rows_by_class(self, every: list[Any], fed: bool) -> dict[str, list[Any]]:
        """The results that count (not abandoned) by class: a row naming a stage no class has goes to every class,
        as Cup.owns says. The same rows as last time (compared in C, each first by identity) are split as then, and
        last time's followed by new ones (a new result is stored last) keep that split, copied, and add the new."""
        last = self._by_class[fed]
        added = added_since(last[0] if last is not None else None, every)
        if last is not None and added == []:
            return last[1]
        cup = self.store.plan.cup
        classes = cup.classes
        rows_of = {c.name: list[Any]() for c in classes}
        if last is not None and added is not None:
            rows_of = {name: list(rows) for name, rows in last[1].items()}
        every_class = list(rows_of.values())
        lists_of: dict[str, list[list[Any]]] = {}  # a stage's class looked up once per stage, not once per row
        for r in every if added is None else added:
            if r.outcome == "abandoned":
                continue
            lists = lists_of.get(r.stage)
            if lists is None:
                owner = cup.class_of_stage(r.stage) if cup.has_classes else classes[0]
                lists = lists_of[r.stage] = [rows_of[owner.name]] if owner is not None else every_class
            for into in lists:
                into.append(r)
        self._by_class[fed] = (every, rows_of)
        return rows_of

    def _later_pool_fixtures(self, s: Session) -> dict[str, Fixture]:
        """The fixtures of the pools whose teams come from earlier stages (none in most tournaments)."""
        first = self.store.plan.entry_teams
        later = [p.name for p in self.store.plan.pools if p.name not in first]
        if not later:
            return {}
        return {f.match_id: f for f in s.scalars(select(Fixture).where(Fixture.stage.in_(later)))}

    def forget(self) -> None:
        """A desk write changed the stored facts in this process: the next read works the progress out again."""
        with self._lock:
            self._cached = None
