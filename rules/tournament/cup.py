"""A cup: one or more classes (P12, F12, P14 ...) sharing the venue's courts, days and breaks.

Each class is a tournament of its own: its ruleset (and so its match length and slot),
teams, draw, pools, knock-out and placement matches and final ranking, and the courts
it may use (a 7 v 7 class plays on the 7 v 7 pitches). A file without ``[[classes]]``
is a cup of one class, read exactly as before, so every tournament file keeps working.

A class is written as a tournament file's keys under ``[[classes]]``, with its
``name`` and, optionally, its ``courts`` (a subset of ``schedule.courts``), its own
``slot``, ``knockout_slot`` and ``min_rest``, and ``published = false`` for a class
whose results and tables stay off the public pages (Swedish children's football up
to 12). The cup's ``name``, ``language`` and ``schedule`` hold for every class.

Stage names and team names are unique across the cup ("P12-A", "Hällby IF P12"):
a pool, a match or a team is then named the same way in the file, on the wire, in
the database and in every address, whichever class it is in.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any

from rules.errors import RulesetError, TournamentError
from rules.record import Record
from rules.ruleset import Ruleset
from rules.ruleset_model import Millis
from rules.schema import Pattern, Size, build
from rules.tournament.loading import decoded_file, decoded_text, load_tournament_ruleset, validate_tournament
from rules.tournament.model import Name, Schedule, Tournament

MAX_CLASSES = 100
"""The most classes a cup may hold (the largest youth cups have about 40)."""

ClassName = Annotated[
    str, Size(1, 20), Pattern(r"^[A-Za-z0-9][A-Za-z0-9_-]*$", "a class name: letters, digits, - or _ (P12, F14, U10-B)")
]


class ClassEntry(Record):
    """The keys a class has beyond a tournament's own."""

    name: ClassName
    courts: Annotated[list[Name], Size(1, 200)] | None = None
    published: bool = True
    slot: Millis | None = None
    knockout_slot: Millis | None = None
    min_rest: Millis | None = None


class CupHead(Record):
    """The keys of a cup file beside its schedule and classes (each class is checked as a tournament)."""

    name: Name
    language: Annotated[str, Size(1, 20)] = "en"


_CUP_KEYS = ("name", "language", "schedule", "classes")


class TournamentClass(Record):
    """One class of a cup: its own tournament, and whether its results and tables are public."""

    name: str  # "" for the one class of a file without classes
    tournament: Tournament
    published: bool = True


class Cup(Record):
    name: str
    language: str
    schedule: Schedule  # the whole venue: every court, the days and breaks
    classes: tuple[TournamentClass, ...]

    @cached_property
    def _by_stage(self) -> dict[str, TournamentClass]:
        return {
            stage: c
            for c in self.classes
            for stage in (
                *(p.name for p in c.tournament.pools),
                *(m.name for m in c.tournament.matches),
                *(r.name for r in c.tournament.rankings),
            )
        }

    @property
    def has_classes(self) -> bool:
        """Whether the file declares classes (a cup of one unnamed class is today's tournament file)."""
        return bool(self.classes[0].name)

    def class_named(self, name: str) -> TournamentClass | None:
        return next((c for c in self.classes if c.name == name), None)

    def class_of_stage(self, stage: str) -> TournamentClass | None:
        return self._by_stage.get(stage)

    def class_of(self, stage: str) -> TournamentClass:
        """The class of a stage the file has (a pool, a match or a ranking); KeyError for one it lacks."""
        found = self._by_stage.get(stage)
        if found is None:
            raise KeyError(f"no class has a stage {stage!r}")
        return found

    def owns(self, klass: TournamentClass, stage: str) -> bool:
        """Whether a result or a decision naming ``stage`` is one of ``klass``'s: in a file without classes every
        one is; one naming a stage no class has goes to every class, whose progress says what is wrong with it."""
        found = self._by_stage.get(stage)
        return not self.has_classes or found is None or found is klass

    def published(self, stage: str) -> bool:
        """Whether the stage's results and tables are public (a class may keep them off the pages)."""
        found = self._by_stage.get(stage)
        return found is None or found.published

    def __iter__(self) -> Iterator[TournamentClass]:
        return iter(self.classes)


def parse_cup(text: str, source: str) -> Cup:
    """A tournament file's TOML text, with or without classes; ``source`` names the file in every error."""
    return validate_cup(decoded_text(text, source), source)


def read_cup_file(path: str | Path) -> Cup:
    """A tournament file by path, with or without classes."""
    return validate_cup(decoded_file(path), str(path))


def validate_cup(data: dict[str, Any], source: str) -> Cup:
    if "classes" not in data:
        t = validate_tournament(data, source)
        return Cup(name=t.name, language=t.language, schedule=t.schedule,
                   classes=(TournamentClass(name="", tournament=t),))
    for key in data:
        if key not in _CUP_KEYS:
            raise TournamentError(source, str(key), "unknown key: a cup file holds name, language, schedule and "
                                  "[[classes]]; a class's teams, pools and matches go under its [[classes]]")
    head, problems = build(CupHead, {k: data[k] for k in ("name", "language") if k in data})
    if head is None:
        key, message = problems[0]
        raise TournamentError(source, key, message)
    if "schedule" not in data:
        raise TournamentError(source, "schedule", "required key is missing")
    # Checked as a tournament's schedule is, so its errors read the same.
    schedule, problems = build(Schedule, data["schedule"], "schedule")
    if schedule is None:
        key, message = problems[0]
        raise TournamentError(source, key, message)
    raw_classes = data["classes"]
    if not isinstance(raw_classes, list) or not raw_classes or len(raw_classes) > MAX_CLASSES:
        raise TournamentError(source, "classes", f"expected 1 to {MAX_CLASSES} [[classes]] tables")
    classes: list[TournamentClass] = []
    for i, raw in enumerate(raw_classes):
        if not isinstance(raw, dict):
            raise TournamentError(source, f"classes[{i}]", "expected a table of keys ([[classes]])")
        classes.append(_read_class(head, data["schedule"], schedule, i, raw, source))
    _check_across(classes, source)
    return Cup(name=head.name, language=head.language, schedule=schedule, classes=tuple(classes))


def _read_class(head: CupHead, venue_data: dict[str, Any], venue: Schedule, i: int, raw: dict[str, Any],
                source: str) -> TournamentClass:
    where = f"classes[{i}]"
    own = {k: raw[k] for k in ClassEntry.__annotations__ if k in raw}
    entry, problems = build(ClassEntry, own, where)
    if entry is None:
        key, message = problems[0]
        raise TournamentError(source, key, message)
    where = f"classes[{i}] ({entry.name})"
    for key in ("schedule", "language"):
        if key in raw:
            raise TournamentError(source, f"{where}.{key}", f"the cup's {key} holds for every class; "
                                  "a class may set its courts, slot, knockout_slot and min_rest")
    for court in entry.courts or ():
        if court not in venue.courts:
            raise TournamentError(source, f"{where}.courts", f"{court!r} is not one of schedule.courts")
    schedule = dict(venue_data)
    for key in ("courts", "slot", "knockout_slot", "min_rest"):
        if key in raw:
            schedule[key] = raw[key]
    data = {k: v for k, v in raw.items() if k not in ClassEntry.__annotations__}
    data.update(name=head.name, language=head.language, schedule=schedule)
    try:
        t = validate_tournament(data, source)
    except TournamentError as err:
        raise TournamentError(source, f"{where}.{err.key}" if err.key else where, err.message) from None
    return TournamentClass(name=entry.name, tournament=t, published=entry.published)


def _check_across(classes: list[TournamentClass], source: str) -> None:
    """Names unique across the cup: a class, a stage or a team means one thing in every address."""
    seen_class: set[str] = set()
    stages: dict[str, str] = {}
    teams: dict[str, str] = {}
    for i, c in enumerate(classes):
        where = f"classes[{i}] ({c.name})"
        if c.name in seen_class:
            raise TournamentError(source, f"{where}.name", f"class {c.name!r} is declared twice")
        seen_class.add(c.name)
        t = c.tournament
        for key, names in (("pools", [p.name for p in t.pools]), ("matches", [m.name for m in t.matches]),
                           ("rankings", [r.name for r in t.rankings])):
            for j, name in enumerate(names):
                if name in stages:
                    raise TournamentError(
                        source, f"{where}.{key}[{j}].name",
                        f"{name!r} is also a stage of class {stages[name]}: stage names are unique across the cup "
                        f"(e.g. {c.name}-{name})")
                stages[name] = c.name
        for j, team in enumerate(t.teams):
            if team.name in teams:
                raise TournamentError(
                    source, f"{where}.teams[{j}].name",
                    f"{team.name!r} also plays in class {teams[team.name]}: team names are unique across the cup "
                    f"(e.g. {team.name} {c.name})")
            teams[team.name] = c.name


def load_cup_rulesets(cup: Cup, source: str) -> dict[str, Ruleset]:
    """Each class's ruleset, checked against the class (its slots long enough, its rounds known)."""
    rulesets: dict[str, Ruleset] = {}
    for i, c in enumerate(cup.classes):
        try:
            rulesets[c.name] = load_tournament_ruleset(c.tournament, source)
        except TournamentError as err:
            if not c.name:
                raise
            where = f"classes[{i}] ({c.name})"
            raise TournamentError(source, f"{where}.{err.key}" if err.key else where, err.message) from None
        except RulesetError:
            raise
    return rulesets


def load_cup(path: str | Path) -> tuple[Cup, dict[str, Ruleset]]:
    """A tournament file and each class's ruleset, checked against each other: what a shell starts from."""
    cup = read_cup_file(path)
    return cup, load_cup_rulesets(cup, str(path))
