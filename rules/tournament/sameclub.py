"""The ice-hockey same-club rule: equal-placed teams may change branch.

Seed 004: two teams of one club must not meet before the final placement games;
the organiser may switch one of them with "another corresponding team with the
same placement". The order of determination is kept as the order of the score:
first no same-club meeting, then no two teams meeting twice, then no two teams
of one regular-season league meeting, and last as few switches as possible.
Only switches are tried (no swap at all, every single switch, every two
switches), which is what the seed allows and keeps the search small.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from rules.tournament.model import Tournament
from rules.tournament.placeholders import PoolPlace, canonical, parse_placeholder


@dataclass(frozen=True, kw_only=True)
class Swap:
    """Two equal-placed slots whose teams the organiser switched between branches."""

    slots: tuple[str, str]
    teams: tuple[str, str]
    reason: str


def _canonical(text: str) -> str:
    return canonical(text)


def meeting_places(t: Tournament) -> dict[str, set[str]]:
    """For each slot, the matches and pools before the final placement games its team may play in."""
    finals = set(t.same_club.final_rounds) if t.same_club else set()
    plays: dict[str, list[tuple[str, bool]]] = {}
    for match in t.matches:
        for text in (match.home, match.away):
            plays.setdefault(_canonical(text), []).append((match.name, match.round in finals))
    for pool in t.pools:
        if pool.teams is not None and any(parse_placeholder(x) for x in pool.teams):
            for text in pool.teams:
                plays.setdefault(_canonical(text), []).append((pool.name, False))
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

    groups = [[_canonical(s) for s in group] for group in t.same_club.swappable]
    switches = [(a, b) for group in groups for a, b in combinations(group, 2) if a in raw and b in raw]
    options: list[tuple[tuple[str, str], ...]] = [()]
    options += [(s,) for s in switches]
    options += [(s, u) for s, u in combinations(switches, 2) if not set(s) & set(u)]
    best: tuple[tuple[int, int, int, int], tuple[tuple[str, str], ...]] | None = None
    for option in options:
        assign = dict(raw)
        for a, b in option:
            assign[a], assign[b] = assign[b], assign[a]
        value = score(assign, len(option))
        if best is None or value < best[0]:
            best = (value, option)
    assert best is not None
    assign = dict(raw)
    made: list[Swap] = []
    before = score(raw, 0)
    for a, b in best[1]:
        assign[a], assign[b] = assign[b], assign[a]
        why = (
            "two teams of one club would have met"
            if before[0]
            else "two teams would have met twice"
            if before[1]
            else "two teams of one league would have met"
        )
        made.append(Swap(slots=(a, b), teams=(raw[a], raw[b]), reason=f"{why} before the final placement games"))
    return assign, tuple(made)
