"""The tournament file's declarations: teams, courts, times and stages.

Stages are data, not code: round-robin ``pools`` (single or double), knock-out
``matches`` (fixtures between placeholders), ``rankings`` that compare teams across
pools, and ``final_ranking``, one placeholder per place. These frozen records are
checked field by field by :mod:`rules.schema`; the cross-references between them are
checked in :mod:`rules.tournament.checks`, the order of the stages is
:mod:`rules.tournament.stages`, and reading a file is :mod:`rules.tournament.loading`.

Every number has a bound no real tournament reaches, and a name is plain text: not
empty, no control characters, no spaces at either end.
"""

from __future__ import annotations

from datetime import datetime, time
from functools import cached_property
from typing import Annotated

from rules.record import Record, field
from rules.ruleset_model import Millis
from rules.schema import Before, Bounds, Pattern, Size, datetime_text, time_text
from rules.tournament.placeholders import Placeholder, parse_placeholder

OTHER_COURT = "other"
"""A match's ``court`` may say "other": a court none of the matches feeding it was played on."""

NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]*$"

MAX_TEAMS = 5_000
"""The most teams a tournament file may list (the largest youth cups have about 2,000)."""

LocalDateTime = Annotated[datetime, Before(datetime_text)]
TimeOfDay = Annotated[time, Before(time_text)]
StageName = Annotated[str, Size(1, 40), Pattern(NAME_PATTERN, "a stage name: a letter, then letters, digits, - or _")]
Name = Annotated[str, Size(1, 100), Pattern(r"\S(.*\S)?", "a name without spaces at either end")]
Participant = Annotated[str, Size(1, 100)]


class SheetPlayer(Record):
    """A player of a team's sheet written in the tournament file (rules.tournament.sheets)."""

    number: Annotated[int, Bounds(0, 999)]
    name: Name


class TeamEntry(Record):
    name: Name
    club: Annotated[str, Size(0, 100)] = ""
    league: Annotated[str, Size(0, 100)] = ""
    pot: Annotated[int, Bounds(1, 100)] | None = None
    # Its sheet (rules.tournament.sheets): here, or in a CSV file beside the tournament file.
    players: Annotated[list[SheetPlayer], Size(0, 60)] = field(default_factory=list)
    officials: Annotated[list[Name], Size(0, 20)] = field(default_factory=list)
    sheet: Annotated[str, Size(0, 300)] = ""


class Break(Record):
    start: LocalDateTime
    end: LocalDateTime


class Schedule(Record):
    start: LocalDateTime
    courts: Annotated[list[Name], Size(1, 200)]
    slot: Millis | None = None
    knockout_slot: Millis | None = None
    min_rest: Millis = 0
    day_start: TimeOfDay | None = None
    day_end: TimeOfDay | None = None
    breaks: Annotated[list[Break], Size(0, 100)] = field(default_factory=list)
    resurface_every: Annotated[int, Bounds(0, 100)] = 0
    resurface: Millis = 0
    balance_courts: bool = False


class Draw(Record):
    seed: Annotated[int, Bounds(0, 2**53)] | None = None
    keep_clubs_apart: bool = True


class Pool(Record):
    name: StageName
    teams: Annotated[list[Participant], Size(0, 100)] | None = None
    size: Annotated[int, Bounds(2, 100)] | None = None
    double: bool = False
    carry_forward: bool = False
    court: Name | None = None
    not_before: LocalDateTime | None = None
    rounds_not_before: Annotated[list[LocalDateTime], Size(0, 200)] = field(default_factory=list)


class MatchEntry(Record):
    """A knock-out or placement match declared in the file (``[[matches]]``), between two placeholders or teams;
    a :class:`rules.tournament.fixtures.Fixture` once it is to be played."""

    name: StageName
    home: Participant
    away: Participant
    round: Annotated[str, Size(1, 40)]
    court: Name | None = None
    not_before: LocalDateTime | None = None


class PlacementRanking(Record):
    """A ranking across pools: the teams behind the placeholders, compared by their pool records."""

    name: StageName
    teams: Annotated[list[Participant], Size(2, 1000)]


class Exchange(Record):
    """Seed 004: a team meeting its own club in a final placement game plays another one instead."""

    match: StageName  # the final placement game two teams of one club would play
    team: Name  # the team that asked for another opponent; it moves ...
    to: StageName  # ... to this final placement game (one lower, two lower or one higher)
    other: Name  # the team of ``to`` that agreed to take its place


class SameClub(Record):
    final_rounds: Annotated[list[Annotated[str, Size(1, 40)]], Size(1, 50)]
    swappable: list[list[Participant]] = field(default_factory=list)
    exchanges: list[Exchange] = field(default_factory=list)


class Tournament(Record):
    name: Name
    ruleset: Annotated[str, Size(1, 500)]
    teams: Annotated[list[TeamEntry], Size(2, MAX_TEAMS)]
    schedule: Schedule
    pools: Annotated[list[Pool], Size(1, MAX_TEAMS)]
    draw: Draw = field(default_factory=Draw)
    matches: Annotated[list[MatchEntry], Size(0, MAX_TEAMS)] = field(default_factory=list)
    rankings: Annotated[list[PlacementRanking], Size(0, 1000)] = field(default_factory=list)
    final_ranking: Annotated[list[Participant], Size(0, MAX_TEAMS)] = field(default_factory=list)
    same_club: SameClub | None = None
    language: Annotated[str, Size(1, 20)] = "en"  # the screen's and web pages' words; checks.py: a shipped catalog
    player_names: bool = True  # False: the public pages show players' numbers, never their names

    # Look-ups by name, built once: a 1,700-team file is checked by look-ups, not scans.
    # (cached_property writes the instance's __dict__ directly, which a frozen record allows.)
    @cached_property
    def _pools(self) -> dict[str, Pool]:
        return {p.name: p for p in reversed(self.pools)}

    @cached_property
    def _matches(self) -> dict[str, MatchEntry]:
        return {m.name: m for m in reversed(self.matches)}

    @cached_property
    def _rankings(self) -> dict[str, PlacementRanking]:
        return {r.name: r for r in reversed(self.rankings)}

    @cached_property
    def _teams(self) -> dict[str, TeamEntry]:
        return {t.name: t for t in reversed(self.teams)}

    @cached_property
    def stages_in_order(self) -> tuple[str, ...]:
        """Every stage after the stages it waits for (:func:`rules.tournament.stages.stage_order`), worked out once:
        the progress walks them after every result, and a cup's class has hundreds."""
        from rules.tournament.stages import stage_order  # the stage graph reads this model

        return tuple(stage_order(self))

    def pool(self, name: str) -> Pool | None:
        return self._pools.get(name)

    def match(self, name: str) -> MatchEntry | None:
        return self._matches.get(name)

    def ranking(self, name: str) -> PlacementRanking | None:
        return self._rankings.get(name)

    def team(self, name: str) -> TeamEntry | None:
        return self._teams.get(name)

    @cached_property
    def entry_pools(self) -> list[Pool]:
        """The first-round pools: filled with teams, by name or by the draw."""
        return [p for p in self.pools if p.teams is None or not any(parse_placeholder(x) for x in p.teams)]

    @property
    def drawn_pools(self) -> list[Pool]:
        return [p for p in self.pools if p.teams is None]

    def pool_size(self, pool: Pool) -> int:
        return len(pool.teams) if pool.teams is not None else (pool.size or 0)


def placeholder_of(text: str) -> Placeholder:
    """A participant string already checked by the loader, as its Placeholder."""
    found = parse_placeholder(text)
    if found is None:
        raise ValueError(f"{text!r} is not a placeholder")
    return found
