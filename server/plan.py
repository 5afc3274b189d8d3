"""The tournament the service runs: its file, classes, rulesets, pools' teams and fixture list, with match ids.

A match is named on the wire by its number in the fixture list (``rules.tournament.build_schedule``)
as text, so the table, the service and the web pages agree without a database. Courts are named by
the slug of their name (``"Hall 1"`` -> ``"hall-1"``), which is also the table's broker user.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from rules import (
    Cup,
    CupPlan,
    FileLineError,
    Ruleset,
    ScheduledMatch,
    TeamSheet,
    TournamentClass,
    TournamentError,
    load_cup_rulesets,
    open_file,
    parse_cup,
    plan_cup,
    team_sheets,
)
from rules.protocol import slug
from rules.tournament.loading import MAX_BYTES as MAX_TOURNAMENT_BYTES
from rules.tournament.model import Pool


@dataclass(frozen=True)
class Plan:
    """The cup the service runs: each class's tournament, ruleset and drawn pools, and the one fixture list.

    Stage and team names are unique across the cup (:mod:`rules.tournament.cup`), so a stage names its class: the
    service keys its facts by match and stage as before, and asks the plan for the class, the ruleset and whether
    the class's results are public. A file without classes is a cup of one class named "".
    """

    id: str
    source: str
    cup: Cup
    rulesets: dict[str, Ruleset]  # class name -> its ruleset
    entry_by_class: dict[str, dict[str, tuple[str, ...]]]  # class name -> first-round pool -> its teams
    fixtures: dict[str, ScheduledMatch]  # match id -> scheduled match
    courts: dict[str, str]  # court id -> court name
    sheets: dict[str, TeamSheet] = field(default_factory=dict)  # team -> its sheet, where the file gives one

    def player_names(self, stage: str) -> bool:
        """Whether the public pages name the players of a stage's class (else their numbers only)."""
        return self.cup.class_of(stage).tournament.player_names

    @cached_property
    def entry_teams(self) -> dict[str, tuple[str, ...]]:
        """Every class's first-round pools (their names are unique across the cup) -> their teams."""
        return {pool: teams for entry in self.entry_by_class.values() for pool, teams in entry.items()}

    @cached_property
    def pools(self) -> list[Pool]:
        return [pool for c in self.cup.classes for pool in c.tournament.pools]

    def pool(self, name: str) -> Pool | None:
        c = self.cup.class_of_stage(name)
        return None if c is None else c.tournament.pool(name)

    def class_of(self, stage: str) -> TournamentClass:
        return self.cup.class_of(stage)

    def ruleset_of(self, stage: str) -> Ruleset:
        return self.rulesets[self.cup.class_of(stage).name]

    @cached_property
    def _court_ids(self) -> dict[str, str]:
        return {name: court for court, name in self.courts.items()}

    def court_id(self, name: str) -> str:
        """A court's id (on the wire, in addresses) from its name, as a scheduled match names its court."""
        return self._court_ids.get(name) or slug(name)


def load_plan(path: str | Path, *, seed: int | None = None, tournament_id: str | None = None) -> Plan:
    """The file's cup drawn and scheduled; ``seed`` redraws a file without classes (a cup's classes keep theirs)."""
    source = str(path)
    try:
        with open_file(path) as f:  # a named pipe or a device is refused, not waited on
            text = f.read(MAX_TOURNAMENT_BYTES + 1).decode("utf-8")
    except OSError as err:
        raise FileLineError(source, None, f"cannot read the file ({err.strerror or err})") from None
    cup = parse_cup(text, source)
    if seed is not None and cup.has_classes:
        raise TournamentError(source, "draw.seed", "a cup's classes draw with their own seeds; give none here")
    planned: CupPlan = plan_cup(cup, load_cup_rulesets(cup, source), source, {"": seed} if seed is not None else None)
    fixtures = {str(m.number): m for m in planned.schedule.matches}
    courts = {slug(name): name for name in cup.schedule.courts}
    return Plan(
        id=tournament_id or slug(Path(path).stem), source=source, cup=cup, rulesets=planned.rulesets,
        entry_by_class=planned.entry_teams, fixtures=fixtures, courts=courts, sheets=team_sheets(cup, source),
    )
