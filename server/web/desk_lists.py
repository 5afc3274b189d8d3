"""What waits for the organiser at the desk, of one class or of every class (issue 32: a cup's desk is a class's at
a time): its conflicts, abandoned matches, results set aside, ties and register, and how a tie may be decided."""

from __future__ import annotations

from dataclasses import dataclass

from rules import Unresolved
from rules.tournament.progression import SetAside
from server.web.inputs import Abandoned, Conflict
from server.web.view import Suspension, View


@dataclass(frozen=True, kw_only=True)
class DeskLists:
    conflicts: list[Conflict]
    abandoned: list[Abandoned]
    set_aside: list[SetAside]
    ties: list[Unresolved]
    suspensions: list[Suspension]


def in_class(v: View, name: str, *, stage: str | None = None, number: int | None = None) -> bool:
    """Whether a stage's or a match's facts are the class's (every one is with no class named)."""
    if not name:
        return True
    if number is not None:
        row = v.by_number.get(number)
        return row is not None and row.class_name == name
    found = v.data.cup.class_of_stage(stage or "")
    return found is not None and found.name == name


def desk_lists(v: View, name: str) -> DeskLists:
    """What waits for the desk, of class ``name`` ("": of every class)."""
    aside = v.progress.set_aside if v.progress is not None else ()
    return DeskLists(
        conflicts=[c for c in v.data.conflicts if in_class(v, name, number=c.number)],
        abandoned=[a for a in v.data.abandoned if in_class(v, name, number=a.number)],
        set_aside=[a for a in aside if in_class(v, name, stage=a.stage)],
        ties=[u for u in v.unresolved() if in_class(v, name, stage=u.pool)],
        suspensions=[s for s in v.suspensions if in_class(v, name, number=s.sanction.number)],
    )


def decision_methods(v: View, pool: str) -> list[str]:
    """The ways a tie in ``pool`` may be decided at the desk: those its class's ruleset ranks by."""
    criteria = v.data.ruleset_of(pool).ranking.criteria
    return [m for m in ("lots", "penalty_competition") if m in criteria]
