"""Filling a slot of the walk (rules.tournament.walker): the team a placeholder names ("2A", "winner SF1",
"best 3rd", "3B/C", a same-club swap's) from what the walk has found so far, or the words of what it still needs.

A pool's place is known once the pool is complete and the place is not inside a tie the results cannot break; a
knock-out's winner once its match has a result; a best-placed team once every first-round pool is complete.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.standings import Decision, PoolTable
from rules.tournament.decisions import ordinal
from rules.tournament.model import Tournament
from rules.tournament.placeholders import (
    BestFromPools,
    BestPlaced,
    Placeholder,
    PoolPlace,
    WinnerOrLoser,
    canonical,
    parse_placeholder,
)
from rules.tournament.progress_state import FixtureProgress, KeptProgress, PoolState, Slot
from rules.tournament.ranking import CrossRow, RankedTeams, lots_between, rank_across
from rules.tournament.sameclub import Swap, choose_swaps
from rules.tournament.thirds import allocate, best_from_pools_slots
from rules.words.standings import Joined, Phrase, Words, reason_text


class SlotFilling:
    """The walk's slots, each filled once per walk (and kept across walks while its source state is the same)."""

    # What the walk has found so far, which the slots are filled from (rules.tournament.walker.Walker sets them).
    t: Tournament
    decisions: Sequence[Decision]
    kept: KeptProgress | None
    pools: dict[str, PoolState]
    matches: dict[str, FixtureProgress]
    rankings: dict[str, RankedTeams]
    slots: dict[str, Slot]
    entry_pool_of: dict[str, str]
    swapped: dict[str, str] | None
    swaps: tuple[Swap, ...]
    swappable: set[str]

    def slot(self, text: str) -> Slot:
        """The slot ``text`` names: a team as it is, or a placeholder's team (None, and what it needs, until the
        walk so far decides it)."""
        key = canonical(text)
        made = self.slots.get(key)
        if made is not None:
            return made
        found = parse_placeholder(text)
        if found is None:
            made = Slot(text=key, team=text)
        else:
            # A pool's place or a match's winner is read from that one state: the same state, the same slot.
            # Any other place (the best thirds, a same-club swap) is worked out again, with what it records.
            source: object = None
            if key not in self.swappable:
                if isinstance(found, WinnerOrLoser):
                    source = self.matches[found.match]
                elif isinstance(found, PoolPlace):
                    source = self.pools.get(found.stage)
            kept = self.kept.slots.get(key) if self.kept is not None and source is not None else None
            if kept is not None and kept[0] is source:
                made = kept[1]
            else:
                team, words = self._resolve(found)
                if team is not None and key in self.swappable:
                    team, words = self._after_swaps(key)
                needs = None if words is None else reason_text(words)
                made = Slot(text=key, team=team, needs=needs, needs_words=words)
                if self.kept is not None and source is not None:
                    self.kept.slots[key] = (source, made)
        self.slots[key] = made
        return made

    def places(self, name: str, state: PoolState) -> None:
        """Fill every place of pool ``name`` ("1A" to "4A"); kept while the pool's state is the same object (a
        place is read from that state alone, unless a same-club swap may move it)."""
        kept = self.kept.places.get(name) if self.kept is not None else None
        if kept is not None and kept[0] is state:
            for key, made in kept[1]:
                self.slots.setdefault(key, made)
            return
        filled = tuple((canonical(text), self.slot(text))
                       for text in (f"{rank}{name}" for rank in range(1, len(state.teams) + 1)))
        if self.kept is not None and not any(key in self.swappable for key, _ in filled):
            self.kept.places[name] = (state, filled)

    def _resolve(self, found: Placeholder) -> tuple[str | None, Words | None]:
        if isinstance(found, WinnerOrLoser):
            state = self.matches[found.match]
            team = state.winner if found.outcome == "winner" else state.loser
            return (team, None) if team else (None, Phrase("the result of {match}", (("match", found.match),)))
        if isinstance(found, BestPlaced):
            ranked = self._best(found.rank)
            if not isinstance(ranked, RankedTeams):
                return None, ranked
            return ranked.place_words(found.nth)
        if isinstance(found, BestFromPools):
            return self._from_pools(found)
        if (pool := self.pools.get(found.stage)) is not None:
            if not pool.complete or pool.table is None:
                return None, Phrase("pool {pool} to finish ({played} of {expected} matches played)", (
                    ("pool", found.stage), ("played", pool.played), ("expected", pool.expected)))
            return place_in_table(pool.table, found.rank)
        return self.rankings[found.stage].place_words(found.rank)

    def _best(self, rank: int) -> RankedTeams | Words:
        name = f"best {ordinal(rank)}"
        if name in self.rankings:
            return self.rankings[name]  # every "best 3rd" and "3B/C" slot asks; the pools are settled by now
        rows: list[CrossRow] = []
        for pool in self.t.entry_pools:
            state = self.pools[pool.name]
            if not state.complete or state.table is None:
                return Phrase("every first-round pool to finish (pool {pool}: {played} of {expected} played)", (
                    ("pool", pool.name), ("played", state.played), ("expected", state.expected)))
            team, needs = place_in_table(state.table, rank)
            if team is None:
                return needs or f"place {rank} of pool {pool.name}"
            rows.append(cross_row(state.table, team))
        ranked = rank_across(name, rows, self.decisions)
        # Shown with the declared rankings: "why is Kalmar the best 3rd?" is the next question asked.
        self.rankings[name] = ranked
        return ranked

    def _from_pools(self, found: BestFromPools) -> tuple[str | None, Words | None]:
        group = best_from_pools_slots(self.t)[found.rank]
        ranked = self._best(found.rank)
        if not isinstance(ranked, RankedTeams):
            return None, ranked
        if ranked.waiting:
            return ranked.place_words(1)
        rows = ranked.rows
        k = len(group)
        if k < len(rows) and rows[k - 1][0] == rows[k][0]:
            # Only a tie across the cut matters: the qualifiers are placed by their pools, not their order.
            tied = [r.team for n, r in rows if n == rows[k - 1][0]]
            return None, lots_between(tied, ranked.name)
        order = [p.name for p in self.t.entry_pools]
        qualifiers = sorted(((r.pool, r.team) for _, r in rows[:k]), key=lambda q: order.index(q[0]))
        placed = allocate(group, qualifiers)
        if placed is None:
            pools = ", ".join(q[0] for q in qualifiers)
            return None, f"slots that accept the qualifiers' pools ({pools}); change the tournament file"
        return placed[canonical(found.text)], None

    def _after_swaps(self, key: str) -> tuple[str | None, str | None]:
        if self.swapped is None:
            raw: dict[str, str] = {}
            for pool in self.t.entry_pools:
                state = self.pools[pool.name]
                if not state.complete or state.table is None:
                    return None, f"every first-round pool to finish, for the same-club check (pool {pool.name} is open)"
                for rank in range(1, len(state.teams) + 1):
                    team, needs = place_in_table(state.table, rank)
                    if team is None:
                        return None, f"{reason_text(needs or '')}, for the same-club check"
                    raw[f"{rank}{pool.name}"] = team
            self.swapped, self.swaps = choose_swaps(self.t, raw, self.entry_pool_of)
        return self.swapped[key], None


def place_in_table(table: PoolTable, rank: int) -> tuple[str | None, Words | None]:
    """The team in place ``rank`` of a complete pool's table, or what it needs (a tie the results cannot break)."""
    rows = table.rows
    if rank > len(rows):
        return None, f"place {rank} of pool {table.pool}, which has {len(rows)} teams"
    row = rows[rank - 1]
    tied = [r.team for r in rows if r.rank == row.rank]
    if len(tied) == 1:
        return row.team, None
    tie = next((u for u in table.unresolved if row.team in u.teams), None)
    need: Words = Phrase("an organiser's decision") if tie is None else tie.needs_words or tie.needs
    return None, Phrase("{needed} between {teams} in pool {pool}", (
        ("needed", need), ("teams", Joined(tuple(tied), ", ")), ("pool", table.pool)))


def cross_row(table: PoolTable, team: str) -> CrossRow:
    """The team's row as a ranking across pools compares it (its place only if no tie shares it)."""
    row = next(r for r in table.rows if r.team == team)
    settled = sum(r.rank == row.rank for r in table.rows) == 1
    return CrossRow(
        team=team,
        pool=table.pool,
        points=row.points,
        goal_difference=row.goal_difference,
        goals_for=row.goals_for,
        place=row.rank if settled else None,
    )
