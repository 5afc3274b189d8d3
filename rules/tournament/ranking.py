"""Comparing teams across pools: "best 3rd" and rankings like the quarter-final losers.

Teams from different pools never met, so only their pool records compare: points,
then goal difference, then goals for (the usual order for best-placed teams; the
seeds name none). Teams of one pool level on those were already placed by their
pool's table (head-to-head, or a decision there), and that order stands: a ranking
of the quarter-final losers never asks for lots between two teams their pool has
separated. A tie left after that, between teams of different pools, is the
organiser's to decide, with a decision whose ``pool`` is the ranking's name
("best 3rd", "QFL"); the decision must keep each pool's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from rules.errors import TournamentError
from rules.record import Record, field
from rules.standings import Decision
from rules.words.standings import Joined, Phrase, Words, reason_text


class CrossRow(Record):
    team: str
    pool: str
    points: int
    goal_difference: int
    goals_for: int
    place: int | None = None
    """The team's place in its pool's table, when that place is settled."""

    @property
    def record(self) -> tuple[int, int, int]:
        return (self.points, self.goal_difference, self.goals_for)


class RankedTeams(Record):
    """Teams in order; teams in a tie nobody has decided yet share a rank."""

    name: str
    rows: tuple[tuple[int, CrossRow], ...]
    waiting: tuple[str, ...] = ()
    waiting_words: tuple[Words, ...] = field(default=(), compare=False)  # ``waiting`` as phrases, when known
    ties: tuple[tuple[str, ...], ...] = ()
    reasons: tuple[str, ...] = ()
    """Why each row stands where it does, against the row below (the last row: the row above)."""

    def place(self, rank: int) -> tuple[str | None, str | None]:
        """The team at ``rank``, or what the place still needs."""
        team, needs = self.place_words(rank)
        return team, None if needs is None else reason_text(needs)

    def place_words(self, rank: int) -> tuple[str | None, Words | None]:
        """:meth:`place` with what it needs as phrases (rules.words.standings), for other languages."""
        if self.waiting:
            waiting = Joined(self.waiting_words or self.waiting, "; ")
            return None, Phrase("{ranking} to be complete (waiting for {waiting})",
                                (("ranking", self.name), ("waiting", waiting)))
        if rank > len(self.rows):
            return None, f"place {rank} of {self.name}, which has {len(self.rows)} teams"
        shared, row = self.rows[rank - 1]
        tied = [r.team for n, r in self.rows if n == shared]
        if len(tied) == 1:
            return row.team, None
        return None, lots_between(tied, self.name)


def lots_between(tied: Sequence[str], ranking: str) -> Phrase:
    """ "an organiser's decision (lots) between A, B for best 3rd": a tie across pools waiting for lots."""
    return Phrase("an organiser's decision (lots) between {teams} for {ranking}",
                  (("teams", Joined(tuple(tied), ", ")), ("ranking", ranking)))


def rank_across(
    name: str,
    rows: Sequence[CrossRow],
    decisions: Sequence[Decision],
    *,
    waiting: tuple[str, ...] = (),
    waiting_words: tuple[Words, ...] = (),
) -> RankedTeams:
    """Order ``rows`` by their records; a decision for ``name`` orders an exact tie."""
    if waiting:
        return RankedTeams(name=name, rows=(), waiting=waiting, waiting_words=waiting_words)
    # Within a pool, its table's order: equal records keep it (a stable sort).
    ordered = sorted(rows, key=lambda r: r.place or 0)
    ordered.sort(key=lambda r: tuple(-x for x in r.record))
    out: list[tuple[int, CrossRow]] = []
    ties: list[tuple[str, ...]] = []
    placed_by: dict[str, str] = {}
    for _, block in groupby(ordered, key=lambda r: r.record):
        group = list(block)
        rank = len(out) + 1
        pools = {r.pool for r in group}
        if len(group) == 1 or (len(pools) == 1 and _settled(group)):
            out += [(rank + i, r) for i, r in enumerate(group)]
            placed_by.update({r.team: f"pool {r.pool}'s table" for r in group if len(group) > 1})
            continue
        teams = frozenset(r.team for r in group)
        decision = next((d for d in decisions if d.pool == name and d.teams == teams), None)
        if decision is None:
            ties.append(tuple(r.team for r in group))
            out += [(rank, r) for r in group]
        else:
            by_team = {r.team: r for r in group}
            _check_pool_order(name, [by_team[team] for team in decision.order])
            out += [(rank + i, by_team[team]) for i, team in enumerate(decision.order)]
            placed_by.update({team: decision.method for team in decision.order})
    return RankedTeams(name=name, rows=tuple(out), ties=tuple(ties), reasons=_reasons(out, placed_by))


def _settled(group: Sequence[CrossRow]) -> bool:
    """Teams of one pool whose places there are settled and distinct."""
    places = [r.place for r in group]
    return None not in places and len(set(places)) == len(places)


def _check_pool_order(name: str, order: Sequence[CrossRow]) -> None:
    """A decision may order teams of different pools, not undo what a pool's table decided."""
    for i, upper in enumerate(order):
        for lower in order[i + 1 :]:
            if upper.pool == lower.pool and upper.place and lower.place and upper.place > lower.place:
                raise TournamentError(
                    "decisions",
                    name,
                    f"the decision puts {upper.team} above {lower.team}, but pool {upper.pool} placed them "
                    f"{_nth(lower.place)} and {_nth(upper.place)}; a decision orders only what no table has",
                )


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


_CRITERIA = ("points", "goal difference", "goals")


def _reasons(rows: list[tuple[int, CrossRow]], placed_by: dict[str, str]) -> tuple[str, ...]:
    out = []
    for i, (rank, row) in enumerate(rows):
        level = [r.team for n, r in rows if r.team != row.team and r.record == row.record]
        if level:
            # Level records: placed by the pool's table or by the decision, else open until decided.
            shared = any(n == rank for n, r in rows if r.team != row.team)
            out.append(
                f"level on points, goal difference and goals with {', '.join(level)}; "
                + ("needs an organiser's decision" if shared else f"placed by {placed_by.get(row.team, 'decision')}")
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
