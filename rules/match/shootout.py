"""Shoot-outs and penalty competitions: who shoots next and when it is decided.

``rounds`` are cumulative stages: ``[3, 5]`` is three shots each, then (still level)
up to five each, then sudden death. A stage ends as soon as one side cannot be
caught with the shots it has left, counted per team, so it does not matter who
shot first.
"""

from __future__ import annotations

from rules.match.events import Side, other
from rules.record import Record
from rules.ruleset import Shootout


class Attempt(Record):
    seq: int
    team: Side
    scored: bool
    player: str | None = None


class Tally(Record):
    home_goals: int
    away_goals: int
    home_taken: int
    away_taken: int
    limit: int | None  # shots each in the stage being played; None once over
    next_team: Side | None  # None before the first shot (either may start) and once decided
    winner: Side | None
    decided: bool  # a winner, or every stage shot out level without sudden death


def tally(rules: Shootout, attempts: tuple[Attempt, ...]) -> Tally:
    shots: dict[Side, list[bool]] = {"home": [], "away": []}
    for shot in attempts:
        shots[shot.team].append(shot.scored)
    home, away = shots["home"], shots["away"]
    h, a = sum(home), sum(away)
    limit = _limit(rules, home, away)
    winner: Side | None = None
    if limit is not None:
        if h > a + (limit - len(away)):
            winner = "home"
        elif a > h + (limit - len(home)):
            winner = "away"
    decided = winner is not None or limit is None
    next_team = None if decided or not attempts else other(attempts[-1].team)
    return Tally(
        home_goals=h, away_goals=a, home_taken=len(home), away_taken=len(away),
        limit=None if decided else limit, next_team=next_team, winner=winner, decided=decided,
    )


def _limit(rules: Shootout, home: list[bool], away: list[bool]) -> int | None:
    """Shots each in the stage being played: a stage is over once both took its shots level."""
    stages = list(rules.rounds)
    i, limit = 0, stages[0]
    while len(home) >= limit and len(away) >= limit and sum(home[:limit]) == sum(away[:limit]):
        if i + 1 < len(stages):
            i += 1
            limit = stages[i]
        elif rules.sudden_death:
            limit += 1
        else:
            return None
    return limit
