"""A cup made ready to play: each class drawn, and every class's matches on one schedule over the shared courts."""

from __future__ import annotations

from collections.abc import Mapping

from rules.errors import TournamentError
from rules.record import Record
from rules.ruleset import Ruleset
from rules.tournament.cup import Cup
from rules.tournament.draw import pool_teams
from rules.tournament.schedule import ClassPlan, TournamentSchedule, schedule_classes


class CupPlan(Record):
    cup: Cup
    rulesets: dict[str, Ruleset]  # class name -> its ruleset
    entry_teams: dict[str, dict[str, tuple[str, ...]]]  # class name -> first-round pool -> its teams
    schedule: TournamentSchedule


def draw_classes(cup: Cup, source: str, seeds: Mapping[str, int | None] | None = None
                 ) -> dict[str, dict[str, tuple[str, ...]]]:
    """Each class's first-round pools: listed, or drawn with the class's recorded seed (or the one given)."""
    seeds = seeds or {}
    entry: dict[str, dict[str, tuple[str, ...]]] = {}
    for i, c in enumerate(cup.classes):
        try:
            entry[c.name] = pool_teams(c.tournament, source, seeds.get(c.name))
        except TournamentError as err:
            if not c.name:
                raise
            raise TournamentError(source, f"classes[{i}] ({c.name}).{err.key}", err.message) from None
    return entry


def plan_cup(cup: Cup, rulesets: Mapping[str, Ruleset], source: str,
             seeds: Mapping[str, int | None] | None = None) -> CupPlan:
    """The draw of every class and the one schedule of them all (:func:`rules.tournament.schedule.schedule_classes`)."""
    entry = draw_classes(cup, source, seeds)
    plans = [ClassPlan(name=c.name, tournament=c.tournament, ruleset=rulesets[c.name], entry_teams=entry[c.name])
             for c in cup.classes]
    return CupPlan(cup=cup, rulesets=dict(rulesets), entry_teams=entry,
                   schedule=schedule_classes(cup.schedule, plans))
