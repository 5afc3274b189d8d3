"""Each class's top scorers for the venue screens (rules.published_scorers), made again after the results that
can change them.

The screens show them between matches, so a class's list counts its finished matches: their stored results name
the teams (a knock-out's too) and their timelines (server.timelines, each replayed once per new event) the goals.
A class that keeps its results off the public pages has none; its players are named as its pages name them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from rules import PlayedMatch, TeamSheet, top_scorers
from rules.published_scorers import PublishedScorer
from server import queries
from server.result_feed import added_since
from server.store import Store
from server.timelines import Timelines


class TopScorers:
    def __init__(self, store: Store, timelines: Timelines) -> None:
        """``timelines``: the service's, which its pages read too (each match replayed once for both)."""
        self.store = store
        self.timelines = timelines
        # Each finished match as the count takes it (None: no timeline), kept while its result row and its newest
        # event are the same: a class's list is made again after each of its results, over every match it has played.
        self._played: dict[str, tuple[tuple[Any, int], PlayedMatch | None]] = {}
        # Each class's stages, and its results as last read from the day's (which they were taken from).
        self._stages: dict[str, frozenset[str]] = {}
        self._rows: dict[str, tuple[list[Any], list[Any]]] = {}

    def of_class(self, class_name: str, session: Session | None = None) -> list[PublishedScorer] | None:
        """The class's scorers, most goals first; None for a class whose results are not published (or that the
        cup lacks). Read in ``session`` if given (the publishing's, which has read the results already)."""
        plan = self.store.plan
        klass = plan.cup.class_named(class_name)
        if klass is None or not klass.published:
            return None
        if session is None:
            with self.store.session() as own:
                return self.of_class(class_name, own)
        every = self.store.results(session)  # the result feed's, read in memory: not the class's rows again
        rows = self._results_of(class_name, every)
        self.timelines.catch_up(session.connection())
        marks = self.timelines.marks()
        played = []
        for r in rows:
            match_id = r.match_id
            made_of = (r, marks.get(match_id, 0))  # the row as read (the feed's: a new one once written again)
            last = self._played.get(match_id)
            if last is None or last[0] != made_of:
                timeline = self.timelines.of(match_id, plan.ruleset_of(r.stage), plan.fixtures[match_id].kind,
                                             plan.fixtures[match_id].round, session, result=r)
                last = self._played[match_id] = (made_of, None if timeline is None else
                                                  PlayedMatch(int(match_id), r.home, r.away, timeline))
            if last[1] is not None:
                played.append(last[1])
        sheets = queries.team_sheets(self.store, session.connection()) if klass.tournament.player_names else {}
        scorers = top_scorers(played, lambda team, number: _label(sheets.get(team), number))
        return [PublishedScorer(rank=s.rank, team=s.team, label=s.label, goals=s.goals) for s in scorers]

    def _results_of(self, class_name: str, every: list[Any]) -> list[Any]:
        """The class's results (abandoned ones too: their goals were scored) by match id. The day's results as
        last read followed by new ones (server.result_feed.added_since) add only the new ones of the class."""
        stages = self._stages.get(class_name)
        if stages is None:
            t = self.store.plan.cup.class_named(class_name)
            assert t is not None
            stages = self._stages[class_name] = frozenset(
                {*(p.name for p in t.tournament.pools), *(m.name for m in t.tournament.matches)})
        last = self._rows.get(class_name)
        added = added_since(last[0], every) if last is not None else None
        if last is not None and added is not None:
            rows = [*last[1], *(r for r in added if r.stage in stages)]
        else:
            rows = [r for r in every if r.stage in stages]
        rows.sort(key=lambda r: r.match_id)
        self._rows[class_name] = (every, rows)
        return rows


def _label(sheet: TeamSheet | None, number: str) -> str:
    return sheet.label(number) if sheet is not None else f"#{number}"
