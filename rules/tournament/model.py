"""The tournament file: teams, courts, times and stages, declared in TOML.

Stages are data, not code: round-robin ``pools`` (single or double), knock-out
``matches`` between placeholders, ``rankings`` that compare teams across pools,
and ``final_ranking``, one placeholder per place. :func:`parse_tournament` checks
the file's shape with pydantic and then every cross-reference, and raises
:class:`~rules.errors.TournamentError` naming the file, the key and the reason.
"""

from __future__ import annotations

import tomllib
from datetime import datetime, time
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from rules.errors import TournamentError
from rules.ruleset import PRESETS, Millis, Ruleset, _problems, load_ruleset
from rules.tournament.exchange import check_exchanges
from rules.tournament.placeholders import (
    BestFromPools,
    BestPlaced,
    MatchOutcome,
    Placeholder,
    PoolPlace,
    parse_placeholder,
    source_stage,
)
from rules.tournament.placeholders import canonical as canonical_text
from rules.tournament.thirds import check_best_from_pools

OTHER_COURT = "other"
"""A match's ``court`` may say "other": a court none of the matches feeding it was played on."""

NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]*$"


def _local_datetime(value: Any) -> Any:
    # TOML local date-times need seconds; organisers write "2026-05-16T09:00", so strings are read too.
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(f'expected a date and time like "2026-05-16T09:00", got {value!r}') from None
    return value


def _time_of_day(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return time.fromisoformat(value)
        except ValueError:
            raise ValueError(f'expected a time of day like "18:30", got {value!r}') from None
    return value


LocalDateTime = Annotated[datetime, BeforeValidator(_local_datetime)]
TimeOfDay = Annotated[time, BeforeValidator(_time_of_day)]
StageName = Annotated[str, Field(pattern=NAME_PATTERN)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class TeamEntry(_Model):
    name: str = Field(min_length=1)
    club: str = ""
    league: str = ""
    pot: int | None = Field(default=None, ge=1)


class Break(_Model):
    start: LocalDateTime
    end: LocalDateTime


class Schedule(_Model):
    start: LocalDateTime
    courts: list[Annotated[str, Field(min_length=1)]] = Field(min_length=1)
    slot: Millis | None = None
    knockout_slot: Millis | None = None
    min_rest: Millis = 0
    day_start: TimeOfDay | None = None
    day_end: TimeOfDay | None = None
    breaks: list[Break] = []
    resurface_every: int = Field(default=0, ge=0)
    resurface: Millis = 0
    balance_courts: bool = False


class Draw(_Model):
    seed: int | None = None
    keep_clubs_apart: bool = True


class Pool(_Model):
    name: StageName
    teams: list[str] | None = None
    size: int | None = Field(default=None, ge=2)
    double: bool = False
    carry_forward: bool = False
    court: str | None = None
    not_before: LocalDateTime | None = None
    rounds_not_before: list[LocalDateTime] = []


class Fixture(_Model):
    name: StageName
    home: str
    away: str
    round: str = Field(min_length=1)
    court: str | None = None
    not_before: LocalDateTime | None = None


class PlacementRanking(_Model):
    name: StageName
    teams: list[str] = Field(min_length=2)


class Exchange(_Model):
    """Seed 004: a team meeting its own club in a final placement game plays another one instead."""

    match: StageName  # the final placement game two teams of one club would play
    team: str  # the team that asked for another opponent; it moves ...
    to: StageName  # ... to this final placement game (one lower, two lower or one higher)
    other: str  # the team of ``to`` that agreed to take its place


class SameClub(_Model):
    final_rounds: list[str] = Field(min_length=1)
    swappable: list[list[str]] = []
    exchanges: list[Exchange] = []


class Tournament(_Model):
    name: str
    ruleset: str
    teams: list[TeamEntry] = Field(min_length=2)
    schedule: Schedule
    draw: Draw = Draw()
    pools: list[Pool] = Field(min_length=1)
    matches: list[Fixture] = []
    rankings: list[PlacementRanking] = []
    final_ranking: list[str] = []
    same_club: SameClub | None = None

    # Derived lookups; cheap enough to rebuild, and a frozen model cannot cache them.
    def pool(self, name: str) -> Pool | None:
        return next((p for p in self.pools if p.name == name), None)

    def match(self, name: str) -> Fixture | None:
        return next((m for m in self.matches if m.name == name), None)

    def ranking(self, name: str) -> PlacementRanking | None:
        return next((r for r in self.rankings if r.name == name), None)

    def team(self, name: str) -> TeamEntry | None:
        return next((t for t in self.teams if t.name == name), None)

    @property
    def entry_pools(self) -> list[Pool]:
        """The first-round pools: filled with teams, by name or by the draw."""
        return [p for p in self.pools if p.teams is None or not any(parse_placeholder(x) for x in p.teams)]

    @property
    def drawn_pools(self) -> list[Pool]:
        return [p for p in self.pools if p.teams is None]

    def pool_size(self, pool: Pool) -> int:
        return len(pool.teams) if pool.teams is not None else (pool.size or 0)


def placeholder_of(text: str) -> Placeholder:
    """A participant string already checked by :func:`parse_tournament`."""
    found = parse_placeholder(text)
    if found is None:
        raise ValueError(f"{text!r} is not a placeholder")
    return found


def _fail(source: str, key: str, message: str) -> TournamentError:
    return TournamentError(source, key, message)


def parse_tournament(text: str, source: str) -> Tournament:
    """Read a tournament file's TOML text; ``source`` names the file in every error."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise _fail(source, "", f"not valid TOML: {err}") from None
    return validate_tournament(data, source)


def validate_tournament(data: dict[str, Any], source: str) -> Tournament:
    try:
        tournament = Tournament.model_validate(data)
    except ValidationError as err:
        problems = _problems(err)
        key, message = problems[0]
        if len(problems) > 1:
            message += "; also " + "; ".join(f"{k}: {m}" for k, m in problems[1:])
        raise _fail(source, key, message) from None
    _check_references(tournament, source)
    return tournament


def _check_names(t: Tournament, source: str) -> None:
    seen: dict[str, str] = {}
    for i, team in enumerate(t.teams):
        if team.name in seen:
            raise _fail(source, f"teams[{i}].name", f"team {team.name!r} is listed twice")
        if parse_placeholder(team.name) is not None:
            raise _fail(source, f"teams[{i}].name", f"{team.name!r} reads as a placeholder; give the team another name")
        seen[team.name] = "team"
    stages: dict[str, str] = {}
    named: list[tuple[str, str, list[str]]] = [
        ("pools", "pool", [p.name for p in t.pools]),
        ("matches", "match", [m.name for m in t.matches]),
        ("rankings", "ranking", [r.name for r in t.rankings]),
    ]
    for key, kind, names in named:
        for i, name in enumerate(names):
            if name in stages:
                raise _fail(source, f"{key}[{i}].name", f"{name!r} already names a {stages[name]}")
            stages[name] = kind
    if len(set(t.schedule.courts)) != len(t.schedule.courts):
        raise _fail(source, "schedule.courts", "a court is listed twice")
    if OTHER_COURT in t.schedule.courts:
        raise _fail(source, "schedule.courts", f"{OTHER_COURT!r} is reserved for matches played in the other hall")


def _check_pools(t: Tournament, source: str) -> None:
    placed: dict[str, str] = {}
    for i, pool in enumerate(t.pools):
        key = f"pools[{i}]"
        if pool.teams is None:
            if pool.size is None:
                raise _fail(source, key, f"pool {pool.name} needs its teams or, for the draw, a size")
            continue
        if pool.size is not None and pool.size != len(pool.teams):
            raise _fail(source, f"{key}.size", f"size {pool.size} but {len(pool.teams)} teams are listed")
        if len(pool.teams) < 2:
            raise _fail(
                source, f"{key}.teams", f"pool {pool.name} has {len(pool.teams)} team; a pool needs at least two"
            )
        kinds = {parse_placeholder(x) is None for x in pool.teams}
        if len(kinds) > 1:
            raise _fail(
                source,
                f"{key}.teams",
                "mixes teams and placeholders; a pool is either entered or filled from earlier stages",
            )
        if pool.carry_forward and kinds == {True}:
            raise _fail(
                source, f"{key}.carry_forward", "only a pool filled from earlier pools can carry results forward"
            )
        for j, name in enumerate(pool.teams):
            if parse_placeholder(name) is not None:
                continue
            if t.team(name) is None:
                raise _fail(source, f"{key}.teams[{j}]", f"{name!r} is not a team of the tournament")
            if name in placed:
                raise _fail(
                    source, f"{key}.teams[{j}]", f"{name!r} is already in pool {placed[name]}; a team plays in one pool"
                )
            placed[name] = pool.name
    drawn = t.drawn_pools
    if drawn:
        free = len(t.teams) - len(placed)
        wanted = sum(p.size or 0 for p in drawn)
        if free != wanted:
            raise _fail(
                source, "pools", f"the drawn pools hold {wanted} teams but {free} teams are not in a listed pool"
            )
    else:
        missing = [team.name for team in t.teams if team.name not in placed]
        if missing:
            raise _fail(source, "teams", f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} in no pool")


def _check_placeholder(t: Tournament, source: str, key: str, text: str, *, allow_team: bool = False) -> None:
    found = parse_placeholder(text)
    if found is None:
        if allow_team and t.team(text) is not None:
            return
        raise _fail(source, key, f'{text!r} is neither a placeholder (like "1A", "winner SF1", "best 3rd") nor a team')
    if isinstance(found, PoolPlace):
        pool, ranking = t.pool(found.stage), t.ranking(found.stage)
        if pool is None and ranking is None:
            raise _fail(source, key, f"{text!r} names pool {found.stage!r}, which does not exist")
        size = t.pool_size(pool) if pool is not None else len(ranking.teams) if ranking is not None else 0
        if found.rank > size:
            raise _fail(source, key, f"{text!r}: {found.stage} has only {size} places")
    elif isinstance(found, MatchOutcome):
        if t.match(found.match) is None:
            raise _fail(source, key, f"{text!r} names match {found.match!r}, which does not exist")
    elif isinstance(found, BestPlaced | BestFromPools):
        entry = {p.name for p in t.entry_pools}
        if isinstance(found, BestFromPools) and (outside := [p for p in found.pools if p not in entry]):
            raise _fail(source, key, f"{text!r} names {outside[0]!r}, which is not a first-round pool")
        sizes = {t.pool_size(p) for p in t.entry_pools}
        if len(sizes) != 1:
            raise _fail(
                source,
                key,
                f"{text!r} compares pools of different sizes ({sorted(sizes)}); their records are not comparable",
            )
        if found.rank > min(sizes):
            raise _fail(source, key, f"{text!r}: the first-round pools have only {min(sizes)} places")
        if isinstance(found, BestPlaced) and found.nth > len(t.entry_pools):
            raise _fail(source, key, f"{text!r}: there are only {len(t.entry_pools)} first-round pools")


def _check_stages(t: Tournament, source: str) -> None:
    courts = set(t.schedule.courts)
    used: dict[str, str] = {}

    def take(text: str, key: str) -> None:
        # A team goes on to exactly one next stage, so a placeholder fills one slot only.
        canonical = canonical_text(text)
        if canonical in used:
            raise _fail(source, key, f"{text!r} already plays in {used[canonical]}")
        used[canonical] = key

    for i, pool in enumerate(t.pools):
        size = t.pool_size(pool)
        rounds = (size if size % 2 else size - 1) * (2 if pool.double else 1)
        if len(pool.rounds_not_before) > rounds:
            raise _fail(
                source,
                f"pools[{i}].rounds_not_before",
                f"gives {len(pool.rounds_not_before)} times for {rounds} rounds",
            )
        if pool.court is not None and pool.court not in courts:
            raise _fail(
                source,
                f"pools[{i}].court",
                f"court {pool.court!r} does not exist (courts: {', '.join(t.schedule.courts)})",
            )
        if pool.teams is not None and any(parse_placeholder(x) for x in pool.teams):
            for j, text in enumerate(pool.teams):
                _check_placeholder(t, source, f"pools[{i}].teams[{j}]", text)
                take(text, f"pools[{i}].teams[{j}]")
    for i, match in enumerate(t.matches):
        if match.court is not None and match.court != OTHER_COURT and match.court not in courts:
            raise _fail(
                source,
                f"matches[{i}].court",
                f"court {match.court!r} does not exist (courts: {', '.join(t.schedule.courts)})",
            )
        for side in ("home", "away"):
            text = getattr(match, side)
            _check_placeholder(t, source, f"matches[{i}].{side}", text, allow_team=True)
            if parse_placeholder(text) is not None:
                take(text, f"matches[{i}].{side}")
        if match.court == OTHER_COURT and not any(
            isinstance(parse_placeholder(x), MatchOutcome) for x in (match.home, match.away)
        ):
            raise _fail(source, f"matches[{i}].court", '"other" needs a match feeding this one')
    for i, ranking in enumerate(t.rankings):
        for j, text in enumerate(ranking.teams):
            _check_placeholder(t, source, f"rankings[{i}].teams[{j}]", text)
    seen: set[str] = set()
    for i, text in enumerate(t.final_ranking):
        _check_placeholder(t, source, f"final_ranking[{i}]", text)
        canonical = canonical_text(text)
        if canonical in seen:
            raise _fail(source, f"final_ranking[{i}]", f"{text!r} is given two places")
        seen.add(canonical)
    if t.final_ranking and len(t.final_ranking) != len(t.teams):
        raise _fail(source, "final_ranking", f"lists {len(t.final_ranking)} places for {len(t.teams)} teams")


def stage_dependencies(t: Tournament, name: str) -> set[str]:
    """The stages whose results the stage ``name`` waits for."""
    deps = _own_dependencies(t, name)
    # Two final placement games that exchange a team wait for each other's teams.
    for ex in t.same_club.exchanges if t.same_club else []:
        if name in (ex.match, ex.to):
            deps |= _own_dependencies(t, ex.to if name == ex.match else ex.match)
    return deps


def _own_dependencies(t: Tournament, name: str) -> set[str]:
    participants: list[str] = []
    if (pool := t.pool(name)) is not None:
        participants = list(pool.teams or [])
    elif (match := t.match(name)) is not None:
        participants = [match.home, match.away]
    elif (ranking := t.ranking(name)) is not None:
        participants = list(ranking.teams)
    deps: set[str] = set()
    for text in participants:
        found = parse_placeholder(text)
        if found is None:
            continue  # a team entered by name waits for nothing
        stage = source_stage(found)
        if stage is not None:
            deps.add(stage)
        else:
            deps.update(p.name for p in t.entry_pools)
    return deps


def stage_order(t: Tournament, source: str = "") -> list[str]:
    """Every stage after the stages it waits for; a cycle is an error."""
    names = [p.name for p in t.pools] + [m.name for m in t.matches] + [r.name for r in t.rankings]
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            loop = " -> ".join([*path[path.index(name) :], name])
            raise _fail(source, name, f"stages wait for each other in a circle ({loop})")
        state[name] = 1
        for dep in sorted(stage_dependencies(t, name)):
            visit(dep, [*path, name])
        state[name] = 2
        order.append(name)

    for name in names:
        visit(name, [])
    return order


def _check_same_club(t: Tournament, source: str) -> None:
    if t.same_club is None:
        return
    for i, group in enumerate(t.same_club.swappable):
        ranks = set()
        for j, text in enumerate(group):
            found = parse_placeholder(text)
            key = f"same_club.swappable[{i}][{j}]"
            if not isinstance(found, PoolPlace) or t.pool(found.stage) not in t.entry_pools:
                raise _fail(source, key, f"{text!r} is not a place in a first-round pool")
            ranks.add(found.rank)
        if len(ranks) > 1:
            raise _fail(source, f"same_club.swappable[{i}]", "only equally placed teams may be swapped")
    check_exchanges(t, source)


def _check_references(t: Tournament, source: str) -> None:
    _check_names(t, source)
    _check_pools(t, source)
    _check_stages(t, source)
    stage_order(t, source)
    check_best_from_pools(t, source)
    _check_same_club(t, source)
    s = t.schedule
    for i, b in enumerate(s.breaks):
        if b.end <= b.start:
            raise _fail(source, f"schedule.breaks[{i}]", "a break must end after it starts")
    if (s.day_start is None) != (s.day_end is None):
        raise _fail(
            source,
            "schedule.day_end" if s.day_end is None else "schedule.day_start",
            "day_start and day_end go together",
        )
    if s.day_start is not None and s.day_end is not None and s.day_end <= s.day_start:
        raise _fail(source, "schedule.day_end", "the day must end after it starts")
    if (s.resurface_every == 0) != (s.resurface == 0):
        raise _fail(source, "schedule.resurface", "resurface and resurface_every go together")


def ruleset_path(t: Tournament, source: str) -> str | Path:
    """The preset name, or the ruleset file's path read relative to the tournament file."""
    if t.ruleset in PRESETS:
        return t.ruleset
    path = Path(t.ruleset)
    return path if path.is_absolute() else Path(source).parent / path


def load_tournament_ruleset(t: Tournament, source: str) -> Ruleset:
    ruleset = load_ruleset(ruleset_path(t, source))
    check_against_ruleset(t, ruleset, source)
    return ruleset


def match_length(ruleset: Ruleset) -> int:
    """The shortest wall-clock time a match can take: its periods and intervals."""
    fmt = ruleset.match
    return fmt.periods * fmt.period_length + sum(fmt.intervals)


def slot_lengths(t: Tournament, ruleset: Ruleset) -> tuple[int, int]:
    """(pool slot, knock-out slot) in ms; the ruleset's wall-clock cap is the default slot."""
    slot = t.schedule.slot if t.schedule.slot is not None else ruleset.match.wall_clock_cap
    if slot is None:
        raise _fail("", "schedule.slot", "required key is missing (the ruleset sets no wall-clock cap to use instead)")
    return slot, t.schedule.knockout_slot if t.schedule.knockout_slot is not None else slot


def check_against_ruleset(t: Tournament, ruleset: Ruleset, source: str) -> None:
    s = t.schedule
    if s.slot is None and ruleset.match.wall_clock_cap is None:
        raise _fail(
            source, "schedule.slot", f"required: ruleset {ruleset.name} sets no wall-clock cap to use as the slot"
        )
    slot, knockout = slot_lengths(t, ruleset)
    # A stopped clock makes a match longer than its periods, so only a running clock gives a floor.
    if not ruleset.match.stopped_time:
        need = match_length(ruleset)
        for key, length in (("schedule.slot", slot), ("schedule.knockout_slot", knockout)):
            if length < need:
                raise _fail(
                    source, key, f"{_clock(length)} is shorter than a match ({_clock(need)} of periods and intervals)"
                )
    cap = ruleset.match.wall_clock_cap
    if cap is not None and slot < cap:
        raise _fail(source, "schedule.slot", f"{_clock(slot)} is shorter than the {_clock(cap)} a game may last")
    # Rules that depend on the round (water-polo time-outs) match its name exactly: "Semi Final" would lose them.
    named = ruleset.timeouts.only_in_rounds or []
    for i, match in enumerate(t.matches):
        meant = next((n for n in named if _plain(n) == _plain(match.round) and n != match.round), None)
        if meant is not None:
            raise _fail(
                source,
                f"matches[{i}].round",
                f"{match.round!r} must be spelled {meant!r}, as ruleset {ruleset.name} names it",
            )


def _plain(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _clock(ms: int) -> str:
    return f"{ms // 60_000}:{ms // 1000 % 60:02d}"
