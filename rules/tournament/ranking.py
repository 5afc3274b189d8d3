"""Comparing teams across pools: "best 3rd" and rankings like the quarter-final losers.

Teams from different pools never met, so only their pool records compare: points,
then goal difference, then goals for (the usual order for best-placed teams; the
seeds name none). A tie left after that is the organiser's to decide, with a
decision whose ``pool`` is the ranking's name ("best 3rd", "QFL").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from rules.standings import Decision


@dataclass(frozen=True, kw_only=True)
class CrossRow:
    team: str
    pool: str
    points: int
    goal_difference: int
    goals_for: int

    @property
    def record(self) -> tuple[int, int, int]:
        return (self.points, self.goal_difference, self.goals_for)


@dataclass(frozen=True, kw_only=True)
class RankedTeams:
    """Teams in order; teams in a tie nobody has decided yet share a rank."""

    name: str
    rows: tuple[tuple[int, CrossRow], ...]
    waiting: tuple[str, ...] = ()
    ties: tuple[tuple[str, ...], ...] = ()
    reasons: tuple[str, ...] = ()
    """Why each row stands where it does, against the row below (the last row: the row above)."""

    def place(self, rank: int) -> tuple[str | None, str | None]:
        if self.waiting:
            return None, f"{self.name} to be complete (waiting for {'; '.join(self.waiting)})"
        if rank > len(self.rows):
            return None, f"place {rank} of {self.name}, which has {len(self.rows)} teams"
        shared, row = self.rows[rank - 1]
        tied = [r.team for n, r in self.rows if n == shared]
        if len(tied) == 1:
            return row.team, None
        return None, f"an organiser's decision (lots) between {', '.join(tied)} for {self.name}"


def rank_across(
    name: str,
    rows: Sequence[CrossRow],
    decisions: Sequence[Decision],
    *,
    waiting: tuple[str, ...] = (),
) -> RankedTeams:
    """Order ``rows`` by their records; a decision for ``name`` orders an exact tie."""
    if waiting:
        return RankedTeams(name=name, rows=(), waiting=waiting)
    ordered = sorted(rows, key=lambda r: tuple(-x for x in r.record))
    out: list[tuple[int, CrossRow]] = []
    ties: list[tuple[str, ...]] = []
    for _, block in groupby(ordered, key=lambda r: r.record):
        group = list(block)
        rank = len(out) + 1
        if len(group) == 1:
            out.append((rank, group[0]))
            continue
        teams = frozenset(r.team for r in group)
        decision = next((d for d in decisions if d.pool == name and d.teams == teams), None)
        if decision is None:
            ties.append(tuple(r.team for r in group))
            out += [(rank, r) for r in group]
        else:
            by_team = {r.team: r for r in group}
            out += [(rank + i, by_team[team]) for i, team in enumerate(decision.order)]
    return RankedTeams(name=name, rows=tuple(out), ties=tuple(ties), reasons=_reasons(out, decisions, name))


_CRITERIA = ("points", "goal difference", "goals")


def _reasons(rows: list[tuple[int, CrossRow]], decisions: Sequence[Decision], name: str) -> tuple[str, ...]:
    out = []
    for i, (rank, row) in enumerate(rows):
        level = [r.team for n, r in rows if r.team != row.team and r.record == row.record]
        if level:
            # A tie the records cannot break: open until decided, then placed by the decision.
            shared = any(n == rank for n, r in rows if r.team != row.team)
            method = next((d.method for d in decisions if d.pool == name and row.team in d.teams), "decision")
            out.append(
                f"level on points, goal difference and goals with {', '.join(level)}; "
                + ("needs an organiser's decision" if shared else f"placed by {method}")
            )
            continue
        if len(rows) == 1:
            out.append("the only team")
            continue
        last = i == len(rows) - 1
        other = rows[i - 1][1] if last else rows[i + 1][1]
        k = next(k for k, (a, b) in enumerate(zip(row.record, other.record, strict=True)) if a != b)
        text = f"{'behind' if last else 'ahead'} on {_CRITERIA[k]} {row.record[k]} vs {other.record[k]}"
        out.append("; ".join([*(f"level on {c}" for c in _CRITERIA[:k]), text]))
    return tuple(out)
