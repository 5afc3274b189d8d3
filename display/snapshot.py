"""One frame without a screen: a state (as ``courtside replay --format json`` prints it) to a PNG.

Used by ``courtside display snapshot``, the tests and docs/screens/make_screens.py. It draws
on an off-screen surface, so no video driver is needed at all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pygame

from display.scoreboard import Scoreboard
from display.theme import Theme
from display.view import ScoreboardView, TeamLook
from rules import (
    Cup,
    FileLineError,
    MatchState,
    Ruleset,
    ScheduledMatch,
    TournamentError,
    load_cup_rulesets,
    read_cup_file,
)

MAX_SIDE = 7680  # 8K: anything larger is a typo, and would take gigabytes


def parse_size(text: str) -> tuple[int, int]:
    """``"1920x1080"`` -> (1920, 1080)."""
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit() or not (16 <= int(w) <= MAX_SIDE and 16 <= int(h) <= MAX_SIDE):
        raise ValueError(f"{text!r}: give the size as WIDTHxHEIGHT, e.g. 1920x1080 (16 to {MAX_SIDE} each)")
    return int(w), int(h)


def read_state(path: str) -> MatchState:
    """A state JSON file; a wrong file is an error naming it."""
    try:
        data: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise FileLineError(path, None, f"cannot read the file ({err.strerror})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise FileLineError(path, None, f"not a JSON match state ({err})") from None
    try:
        return MatchState.from_dict(data)
    except ValueError as err:
        raise FileLineError(path, None, f"not a match state as courtside replay --format json prints it: {err}") \
            from None


def language_of(tournament: Cup | None) -> str | None:
    """The tournament file's ``language`` (read defensively: older files have none)."""
    return getattr(tournament, "language", None) if tournament is not None else None


def find_fixture(cup: Cup, rulesets: dict[str, Ruleset], source: str, ident: str) -> ScheduledMatch:
    """A match of the cup's schedule by its number ("12") or a knock-out match's name ("SF1")."""
    from rules import plan_cup

    schedule = plan_cup(cup, rulesets, source).schedule
    for m in schedule.matches:
        klass = cup.class_of_stage(m.stage)
        knockout = klass is not None and klass.tournament.pool(m.stage) is None
        if str(m.number) == ident or (m.stage == ident and knockout):
            return m
    raise TournamentError(source, "matches", f"no match {ident!r}: give a match number of the schedule or a "
                                             "knock-out match's name (courtside tournament schedule lists them)")


def view_for(state: MatchState, ruleset: Ruleset, match: ScheduledMatch | None = None,
             language: str | None = None) -> ScoreboardView:
    if match is None:
        return ScoreboardView(state, ruleset, language=language)
    return ScoreboardView(state, ruleset, TeamLook(match.home), TeamLook(match.away), language=language,
                          round=match.round, stage=match.stage)


def load_view(state_path: str, rules: str | None, tournament_path: str | None, match: str | None,
              language: str | None) -> ScoreboardView:
    """The view the snapshot command draws, from its files."""
    from rules import load_ruleset

    state = read_state(state_path)
    cup = read_cup_file(tournament_path) if tournament_path else None
    if rules is None and (cup is None or tournament_path is None):
        raise FileLineError("--rules", None, "give --rules, or --tournament (whose ruleset is used)")
    rulesets = load_cup_rulesets(cup, tournament_path) if cup is not None and tournament_path is not None else {}
    scheduled, class_name = None, cup.classes[0].name if cup is not None else ""
    if cup is not None and tournament_path is not None and match is not None:
        scheduled = find_fixture(cup, rulesets, tournament_path, match)
        class_name = scheduled.class_name
    # The match's class's ruleset (a cup's classes play by their own), unless --rules says otherwise.
    ruleset = load_ruleset(rules) if rules is not None else rulesets[class_name]
    return view_for(state, ruleset, scheduled, language or language_of(cup))


def log_view(path: str, rules: str | None, at_ms: int | None, language: str | None) -> ScoreboardView:
    """The view of a match log at ``at_ms`` (None: its last event), replayed by its header's ruleset (or ``rules``),
    its teams and round as the table wrote them in the header."""
    from rules import Match, load_ruleset, read_log, read_text

    log = read_log(read_text(path), path)
    match = Match.from_log(log, load_ruleset, source=path, ruleset=load_ruleset(rules) if rules else None)
    state = match.state_at(match.last_at if at_ms is None else at_ms)
    h = log.header
    if h is None or not h.home or not h.away:
        return view_for(state, match.ruleset, None, language)
    return ScoreboardView(state, match.ruleset, TeamLook(h.home), TeamLook(h.away), language=language, round=h.round)


def render(view: ScoreboardView, size: tuple[int, int], theme: Theme | None = None) -> pygame.Surface:
    """The frame for ``view`` on an off-screen surface of ``size``."""
    surface = pygame.Surface(size)
    Scoreboard(surface, theme).draw(view)
    return surface


def save(surface: pygame.Surface, out: str) -> None:
    try:
        pygame.image.save(surface, out)
    except (pygame.error, OSError) as err:
        raise FileLineError(out, None, f"cannot write the picture ({err})") from None
