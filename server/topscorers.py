"""Each class's top scorers for the venue screens (rules.published_scorers), made again after the results that
can change them.

The screens show them between matches, so a class's list counts its finished matches: their stored results name
the teams (a knock-out's too) and their timelines (server.timelines, each replayed once per new event) the goals.
A class that keeps its results off the public pages has none; its players are named as its pages name them.
"""

from __future__ import annotations

from rules import MatchTimeline, PlayedMatch, TeamSheet, top_scorers
from rules.published_scorers import PublishedScorer
from server import queries
from server.store import Store
from server.timelines import Timelines


class TopScorers:
    def __init__(self, store: Store, timelines: Timelines) -> None:
        """``timelines``: the service's, which its pages read too (each match replayed once for both)."""
        self.store = store
        self.timelines = timelines
        # Each finished match as the count takes it, kept while its teams and timeline are the same objects: a
        # class's list is made again after each of its results, over every match it has played.
        self._played: dict[str, tuple[tuple[str, str, MatchTimeline], PlayedMatch]] = {}

    def of_class(self, class_name: str) -> list[PublishedScorer] | None:
        """The class's scorers, most goals first; None for a class whose results are not published (or that the
        cup lacks)."""
        plan = self.store.plan
        klass = plan.cup.class_named(class_name)
        if klass is None or not klass.published:
            return None
        t = klass.tournament
        stages = {*(p.name for p in t.pools), *(m.name for m in t.matches)}
        with self.store.session() as s:  # the result feed's, read in memory: not the class's rows again
            rows = sorted((r for r in self.store.results(s) if r.stage in stages), key=lambda r: r.match_id)
        self.timelines.catch_up()
        played = []
        for r in rows:
            match_id = r.match_id
            timeline = self.timelines.of(match_id, plan.ruleset_of(r.stage), plan.stage_kind(match_id),
                                         plan.fixtures[match_id].round)
            if timeline is None:
                continue
            last = self._played.get(match_id)
            if last is None or last[0][2] is not timeline or last[0][:2] != (r.home, r.away):
                last = self._played[match_id] = ((r.home, r.away, timeline),
                                                  PlayedMatch(int(match_id), r.home, r.away, timeline))
            played.append(last[1])
        sheets = queries.team_sheets(self.store) if t.player_names else {}
        scorers = top_scorers(played, lambda team, number: _label(sheets.get(team), number))
        return [PublishedScorer(rank=s.rank, team=s.team, label=s.label, goals=s.goals) for s in scorers]


def _label(sheet: TeamSheet | None, number: str) -> str:
    return sheet.label(number) if sheet is not None else f"#{number}"
