"""Organisers' decisions: ties the results cannot break (lots, a penalty competition).

The decisions file is CSV with columns ``pool,method,order``; ``order`` names the
tied teams best first, joined by ``>`` (``A,lots,Netherlands>Ireland``). A decision
applies only to a tie of exactly those teams, so a stale decision never reorders
a table whose tie has changed.
"""

from __future__ import annotations

from rules.errors import ResultsError
from rules.record import Record
from rules.ruleset import DECISION_CRITERIA
from rules.standings.csvfile import cell, csv_rows, name_problem

DECISION_COLUMNS = ("pool", "method", "order")


class Decision(Record):
    """The organiser's order of a tied group, by ``method`` (``lots`` or ``penalty_competition``)."""

    pool: str
    method: str
    order: tuple[str, ...]

    @property
    def teams(self) -> frozenset[str]:
        return frozenset(self.order)


def decision_problem(decision: Decision) -> str | None:
    """Why ``decision`` cannot order a tie, or None when it can."""
    if not decision.pool:
        return "the pool is empty"
    if decision.method not in DECISION_CRITERIA:
        return f"method {decision.method!r} is not one of {', '.join(DECISION_CRITERIA)}"
    if len(decision.order) < 2:
        return "order must name at least two tied teams joined by '>'"
    if any(not team for team in decision.order):
        return "order has an empty team name"
    if len(set(decision.order)) != len(decision.order):
        return "order names a team twice"
    for what, name in (("pool", decision.pool), *(("team", team) for team in decision.order)):
        problem = name_problem(name, what)
        if problem is not None:
            return problem
    return None


def parse_decisions_csv(text: str, source: str) -> list[Decision]:
    """Read a decisions file; ``source`` names it in errors."""
    return [decision for _, decision in read_decisions_csv(text, source)]


def read_decisions_csv(text: str, source: str) -> list[tuple[int, Decision]]:
    """Read a decisions file, each decision with its line, so a later check can name it."""
    decisions: list[tuple[int, Decision]] = []
    seen: dict[tuple[str, frozenset[str]], int] = {}
    for line, row in csv_rows(text, source, DECISION_COLUMNS, ()):
        decision = Decision(
            pool=cell(row, "pool"),
            method=cell(row, "method"),
            order=tuple(team.strip() for team in cell(row, "order").split(">")),
        )
        problem = decision_problem(decision)
        if problem is not None:
            raise ResultsError(source, line, problem)
        key = (decision.pool, decision.teams)
        if key in seen:
            raise ResultsError(
                source, line, f"the tie of these teams in pool {decision.pool} is already decided on line {seen[key]}"
            )
        seen[key] = line
        decisions.append((line, decision))
    return decisions
