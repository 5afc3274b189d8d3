"""Results the ruleset cannot produce: refused where they are read, never scored.

A result is checked against the ruleset's match format and the kind of stage it
was played in:

* a match that may end level (``match.level_allowed_in`` names its stage) has no
  overtime and no shoot-out: a level score stands;
* a match that needs a winner and ends level in regular time goes to the
  ruleset's overtime, then its shoot-out: a level regular-time score is a result
  whose overtime or shoot-out was not entered; an overtime result needs the
  ruleset to have overtime, a shoot-out result a shoot-out;
* golden-goal overtime ends at the first goal, so it is won by exactly one goal;
* a shoot-out of ``rounds = [3]`` with sudden death cannot end 5-0: each stage ends
  as soon as one side cannot catch up, and sudden death is won by one.
"""

from __future__ import annotations

from functools import cache

from rules.ruleset import MatchFormat, StageKind
from rules.standings.results import MatchResult

STAGE_WORDS: dict[StageKind, str] = {"round_robin": "a pool match", "knockout": "a knock-out match"}


def impossible(match: MatchFormat, result: MatchResult, stage: StageKind) -> str | None:
    """Why ``result`` cannot come from a match of ``stage`` under ``match``, or None when it can."""
    r = result
    what = STAGE_WORDS[stage]
    level_allowed = stage in match.level_allowed_in
    if r.outcome in ("walkover", "forfeit"):
        return None
    if r.outcome == "regular":
        if r.home_goals == r.away_goals and not level_allowed:
            return (
                f"{r.home} v {r.away} is level {r.home_goals}-{r.away_goals}, but {what} cannot end level under "
                f"this ruleset (match.level_allowed_in); {_deciders(match)}"
            )
        return None
    if level_allowed:
        return (
            f"{what} may end level under this ruleset (match.level_allowed_in), so it has no "
            f"{'overtime' if r.outcome == 'overtime' else 'shoot-out'}; enter the score as played (outcome regular)"
        )
    if r.outcome == "overtime":
        if match.overtime is None:
            return "this ruleset has no overtime (match.overtime); a level match goes to its shoot-out"
        margin = abs(r.home_goals - r.away_goals)
        if match.overtime.kind == "golden_goal" and margin != 1:
            return (
                f"golden-goal overtime ends at the first goal, so it is won by one goal, "
                f"but the score is {r.home_goals}-{r.away_goals}"
            )
        return None
    # a shoot-out
    if match.shootout is None:
        return "this ruleset has no shoot-out (match.shootout); a level match is decided in overtime"
    home, away = r.home_shootout or 0, r.away_shootout or 0
    winner, loser = max(home, away), min(home, away)
    shootout = match.shootout
    # Sudden death starts from any level score (every shot of the stages may miss) and is won by one.
    if not (shootout.sudden_death and winner == loser + 1) and (winner, loser) not in _staged_finals(
        tuple(shootout.rounds)
    ):
        return f"a shoot-out of {_rounds_text(shootout.rounds, shootout.sudden_death)} cannot end {home}-{away}"
    return None


def _deciders(match: MatchFormat) -> str:
    outcomes = [o for o, there in (("overtime", match.overtime), ("shootout", match.shootout)) if there]
    if not outcomes:
        return "and it has neither overtime nor a shoot-out to decide it"
    return f"enter the result after {' or '.join(o.replace('shootout', 'the shoot-out') for o in outcomes)} " + (
        f"(outcome {' or '.join(outcomes)})"
    )


def _rounds_text(rounds: list[int], sudden_death: bool) -> str:
    stages = ", then up to ".join(str(n) for n in rounds)
    return f"{stages} shots each" + (", then sudden death" if sudden_death else "")


@cache
def _staged_finals(rounds: tuple[int, ...]) -> frozenset[tuple[int, int]]:
    """Every (winner, loser) score on which the stages of ``rounds`` can end a shoot-out.

    Within a stage of ``n`` shots each (counted from the start), the shoot-out ends as
    soon as one side leads by more than the other's remaining shots can make up; a
    stage that ends level hands over to the next one. Both sides' finals are listed
    together, so it does not matter which side shot first.
    """
    finals: set[tuple[int, int]] = set()
    todo = [(0, 0, 0, 0, 0)]  # shots taken by the side shooting first and second, their goals, the stage
    seen: set[tuple[int, int, int, int, int]] = set()
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        sa, sb, ga, gb, stage = state
        limit = rounds[stage]
        if ga + (limit - sa) < gb or gb + (limit - sb) < ga:
            finals.add((max(ga, gb), min(ga, gb)))
        elif sa == sb == limit:
            if stage + 1 < len(rounds):  # level at the end of a stage: the next stage
                todo.append((sa, sb, ga, gb, stage + 1))
        elif sa == sb:
            todo += [(sa + 1, sb, ga + 1, gb, stage), (sa + 1, sb, ga, gb, stage)]
        else:
            todo += [(sa, sb + 1, ga, gb + 1, stage), (sa, sb + 1, ga, gb, stage)]
    return frozenset(finals)
