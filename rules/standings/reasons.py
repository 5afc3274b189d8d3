"""The "why" of every place, read from the steps the tie-break actually took.

For two neighbours in the table, the steps that compared both of them are
replayed in order: those where their values were equal say what they are level
on, and the last one where the values differed is the one that decided (in
``top_team`` mode a group is examined again after its top team is fixed, so an
earlier split may have been set aside; the last is the one that stood).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.standings.criteria import Component, Step, names, value_key
from rules.standings.tiebreak import Ordering


@dataclass(frozen=True, kw_only=True)
class Comparison:
    """What two teams were level on, and the compared number that separated them (if any)."""

    level: tuple[tuple[str, str], ...]  # (text, scope), e.g. ("2 points", " among A, B and C")
    upper: Component | None = None
    lower: Component | None = None


def compare(steps: Sequence[Step], upper: str, lower: str) -> Comparison:
    level: list[tuple[str, str]] = []
    decided: Comparison | None = None
    for step in steps:
        if upper not in step.values or lower not in step.values:
            continue
        mine, theirs = step.values[upper], step.values[lower]
        if value_key(mine) == value_key(theirs):
            level.extend((c.level, c.scope) for c in mine)
            continue
        same = [(a.level, a.scope) for a, b in zip(mine, theirs, strict=True) if a.number == b.number]
        first = next(i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a.number != b.number)
        decided = Comparison(level=(*level, *same[:first]), upper=mine[first], lower=theirs[first])
    if decided is None:
        return Comparison(level=_unique(level))
    return Comparison(level=_unique(decided.level), upper=decided.upper, lower=decided.lower)


def _unique(texts: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple(dict.fromkeys(texts))


def level_clauses(level: Sequence[tuple[str, str]]) -> str:
    """ "6 points and 2 wins; 1 point and goal difference 0 among A, B and C": numbers of one scope together."""
    clauses: list[tuple[list[str], str]] = []
    for text, scope in level:
        if clauses and clauses[-1][1] == scope:
            clauses[-1][0].append(text)
        else:
            clauses.append(([text], scope))
    return "; ".join(names(texts) + scope for texts, scope in clauses)


def _level_text(level: Sequence[tuple[str, str]]) -> str:
    return f"level on {level_clauses(level)}" if level else ""


def ahead_text(c: Comparison) -> str:
    if c.upper is None or c.lower is None:
        return "; ".join(p for p in (_level_text(c.level), "ahead by the order of the results") if p)
    parts = [_level_text(c.level), f"ahead on {c.upper.label}{c.upper.scope} {c.upper.shown} vs {c.lower.shown}"]
    return "; ".join(p for p in parts if p)


def behind_text(c: Comparison) -> str:
    if c.upper is None or c.lower is None:
        return "; ".join(p for p in ("last", _level_text(c.level)) if p)
    behind = f"behind on {c.lower.label}{c.lower.scope} {c.lower.shown} vs {c.upper.shown}"
    parts = ["last", _level_text(c.level), behind]
    return "; ".join(p for p in parts if p)


def explain(ordering: Ordering) -> dict[str, str]:
    """Each team's reason for its place, keyed by team."""
    needs = {t: tie.needs for tie in ordering.ties for t in tie.teams}
    flat = [t for group in ordering.placing for t in group]
    reasons: dict[str, str] = {}
    for group in ordering.placing:
        for team in group:
            if len(group) > 1:
                others = [t for t in group if t != team]
                level = compare(ordering.steps, team, others[0]).level
                on = f" on {level_clauses(level)}" if level else ""
                reasons[team] = f"level with {names(others)}{on}; needs {needs.get(team, 'an organiser decision')}"
                continue
            at = flat.index(team)
            if at + 1 < len(flat):
                reasons[team] = ahead_text(compare(ordering.steps, team, flat[at + 1]))
            elif at > 0:
                reasons[team] = behind_text(compare(ordering.steps, flat[at - 1], team))
            else:
                reasons[team] = "only team in the pool"
    return reasons
