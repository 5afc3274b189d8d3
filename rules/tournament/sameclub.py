"""The ice-hockey same-club rule: equal-placed teams may change branch.

Seed 004: two teams of one club must not meet before the final placement games;
the organiser may switch one of them with "another corresponding team with the
same placement". The order of determination is kept as the order of the score:
first no same-club meeting, then no two teams meeting twice, then no two teams
of one regular-season league meeting, and last as few switches as possible.
Every way of switching equally placed teams is tried (each group's teams in any
order, a permutation counting as its fewest switches) while that is at most
``EXHAUSTIVE_LIMIT`` arrangements; a larger file tries no switch, every single
switch and every two switches. Equal arrangements go to the one with fewer
switches, then to the earlier switch in the file's order.
"""

from __future__ import annotations

from itertools import combinations, permutations, product
from math import factorial, prod

from rules.record import Record
from rules.tournament.model import Tournament
from rules.tournament.placeholders import PoolPlace, canonical, parse_placeholder

EXHAUSTIVE_LIMIT = 50_000


class Swap(Record):
    """Two equal-placed slots whose teams the organiser switched between branches."""

    slots: tuple[str, str]
    teams: tuple[str, str]
    reason: str


def meeting_places(t: Tournament) -> dict[str, set[str]]:
    """For each slot, the matches and pools before the final placement games its team may play in."""
    finals = set(t.same_club.final_rounds) if t.same_club else set()
    plays: dict[str, list[tuple[str, bool]]] = {}
    for match in t.matches:
        for text in (match.home, match.away):
            plays.setdefault(canonical(text), []).append((match.name, match.round in finals))
    for pool in t.pools:
        if pool.teams is not None and any(parse_placeholder(x) for x in pool.teams):
            for text in pool.teams:
                plays.setdefault(canonical(text), []).append((pool.name, False))
    memo: dict[str, set[str]] = {}

    def reach(slot: str) -> set[str]:
        if slot not in memo:
            memo[slot] = set()
            out: set[str] = set()
            for stage, final in plays.get(slot, []):
                if not final:
                    out.add(stage)
                if t.match(stage) is not None:
                    out |= reach(f"winner {stage}") | reach(f"loser {stage}")
            memo[slot] = out
        return memo[slot]

    return {slot: reach(slot) for slot in plays}


def choose_swaps(
    t: Tournament,
    raw: dict[str, str],
    entry_pool_of: dict[str, str],
) -> tuple[dict[str, str], tuple[Swap, ...]]:
    """The team for each first-round place after the switches that best keep the seed's order.

    ``raw`` maps each place ("2C") to the team the pool table gives it;
    ``entry_pool_of`` maps each team to its first-round pool (teams in one pool have met).
    """
    if t.same_club is None:
        return raw, ()
    clubs = {team.name: team.club for team in t.teams}
    leagues = {team.name: team.league for team in t.teams}
    places = meeting_places(t)
    slots = sorted(s for s in raw if isinstance(parse_placeholder(s), PoolPlace) and places.get(s))
    meet = {(a, b) for a, b in combinations(slots, 2) if places[a] & places[b]}

    def score(assign: dict[str, str], switches: int) -> tuple[int, int, int, int]:
        club = rematch = league = 0
        for a, b in meet:
            x, y = assign[a], assign[b]
            club += bool(clubs[x]) and clubs[x] == clubs[y]
            rematch += entry_pool_of.get(x) == entry_pool_of.get(y)
            league += bool(leagues[x]) and leagues[x] == leagues[y]
        return club, rematch, league, switches

    groups = [[c for c in (canonical(s) for s in group) if c in raw] for group in t.same_club.swappable]
    best: tuple[tuple[int, int, int, int], tuple[tuple[str, str], ...]] | None = None
    for option in _options(groups):
        value = score(_switched(raw, option), len(option))
        if best is None or value < best[0]:
            best = (value, option)
    assert best is not None
    assign = dict(raw)
    made: list[Swap] = []
    for a, b in best[1]:
        before = score(assign, 0)
        teams = (assign[a], assign[b])
        assign[a], assign[b] = assign[b], assign[a]
        after = score(assign, 0)
        # Name the first of the seed's preferences this switch improves (or, in a chain, the one it serves).
        why = next(
            (text for text, x, y in zip(_WHY, before, after, strict=False) if y < x),
            next((text for text, x in zip(_WHY, before, strict=False) if x), _WHY[0]),
        )
        made.append(Swap(slots=(a, b), teams=teams, reason=f"{why} before the final placement games"))
    return assign, tuple(made)


_WHY = (
    "two teams of one club would have met",
    "two teams would have met twice",
    "two teams of one league would have met",
)


def _switched(raw: dict[str, str], option: tuple[tuple[str, str], ...]) -> dict[str, str]:
    assign = dict(raw)
    for a, b in option:
        assign[a], assign[b] = assign[b], assign[a]
    return assign


def _options(groups: list[list[str]]) -> list[tuple[tuple[str, str], ...]]:
    """Every arrangement as a list of switches: none, single, two disjoint, then (if few enough) all others."""
    switches = [(a, b) for group in groups for a, b in combinations(group, 2)]
    options: list[tuple[tuple[str, str], ...]] = [()]
    options += [(s,) for s in switches]
    options += [(s, u) for s, u in combinations(switches, 2) if not set(s) & set(u)]
    if prod(factorial(len(g)) for g in groups) > EXHAUSTIVE_LIMIT:
        return options
    seen = {_arrangement(groups, o) for o in options}
    every = product(*(permutations(range(len(g))) for g in groups))
    more = [o for o in (_as_switches(groups, p) for p in every) if _arrangement(groups, o) not in seen]
    return options + sorted(more, key=len)


def _as_switches(groups: list[list[str]], perms: tuple[tuple[int, ...], ...]) -> tuple[tuple[str, str], ...]:
    """The fewest switches that put group member ``perm[i]`` into slot ``i``, cycle by cycle."""
    out: list[tuple[str, str]] = []
    for group, perm in zip(groups, perms, strict=True):
        order = list(range(len(group)))  # order[i]: whose team slot i holds now
        for i in range(len(group)):
            if order[i] != perm[i]:
                j = order.index(perm[i])
                order[i], order[j] = order[j], order[i]
                out.append((group[i], group[j]))
    return tuple(out)


def _arrangement(groups: list[list[str]], option: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    where = {s: s for g in groups for s in g}
    for a, b in option:
        where[a], where[b] = where[b], where[a]
    return tuple(where[s] for g in groups for s in g)
