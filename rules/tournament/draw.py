"""The pool draw: reproducible from its seed, so it can be shown to team managers.

Teams are drawn pot by pot (``pot = 1`` first; teams without a pot form the last
pot). Each drawn team goes to the first pool, in the file's order, that still has
room, has fewest teams from this pot, and (when ``draw.keep_clubs_apart``) holds
no team of its club. If every pool with room holds its club, a team of the same
pot drawn earlier is switched in from another pool; only if that fails too does
the club rule give way, and the draw says so.
"""

from __future__ import annotations

import random

from rules.errors import TournamentError
from rules.record import Record
from rules.tournament.model import Tournament


class DrawResult(Record):
    seed: int
    pools: dict[str, tuple[str, ...]]
    notes: tuple[str, ...] = ()


def make_draw(t: Tournament, seed: int) -> DrawResult:
    """Fill the pools listed without teams; the same seed always gives the same draw."""
    rng = random.Random(seed)
    drawn = t.drawn_pools
    fixed = {p.name: tuple(p.teams) for p in t.pools if p.teams is not None}
    placed = {name for teams in fixed.values() for name in teams}
    free = [team for team in t.teams if team.name not in placed]
    last = max((team.pot or 0 for team in free), default=0) + 1
    pots: dict[int, list[str]] = {}
    for team in free:
        pots.setdefault(team.pot or last, []).append(team.name)
    filled: dict[str, list[str]] = {p.name: [] for p in drawn}
    room = {p.name: p.size or 0 for p in drawn}
    notes: list[str] = []
    clubs = {team.name: team.club for team in t.teams}
    for pot in sorted(pots):
        names = pots[pot]
        rng.shuffle(names)
        from_pot = dict.fromkeys(filled, 0)
        for name in names:
            open_pools = [p for p in filled if len(filled[p]) < room[p]]
            fewest = min(from_pot[p] for p in open_pools)
            candidates = [p for p in open_pools if from_pot[p] == fewest]
            club = clubs[name]
            if t.draw.keep_clubs_apart and club:
                apart = [p for p in candidates if all(clubs[o] != club for o in filled[p])]
                if not apart:
                    apart = [p for p in open_pools if all(clubs[o] != club for o in filled[p])]
                if apart:
                    candidates = apart
                elif _switch_in(name, candidates[0], filled, clubs, set(names)):
                    from_pot[candidates[0]] += 1
                    continue
                else:
                    notes.append(
                        f"{name} shares pool {candidates[0]} with another team of {club}: no pool was left without one"
                    )
            chosen = candidates[0]
            filled[chosen].append(name)
            from_pot[chosen] += 1
    return DrawResult(seed=seed, pools={**fixed, **{k: tuple(v) for k, v in filled.items()}}, notes=tuple(notes))


def _switch_in(name: str, target: str, filled: dict[str, list[str]], clubs: dict[str, str], pot: set[str]) -> bool:
    """Place ``name`` by moving a team of its pot from another pool into ``target``, if both clubs then fit.

    Late in a pot the only pools with room may hold the club already; a switch
    with an earlier draw of the same pot keeps the pots even and the clubs apart.
    """
    club = clubs[name]
    for other, teams in filled.items():
        if other == target or any(clubs[x] == club for x in teams):
            continue
        for i, moved in enumerate(teams):
            if moved in pot and all(clubs[x] != clubs[moved] or not clubs[moved] for x in filled[target]):
                teams[i] = name
                filled[target].append(moved)
                return True
    return False


def pool_teams(t: Tournament, source: str, seed: int | None = None) -> dict[str, tuple[str, ...]]:
    """Each first-round pool's teams: listed in the file, or drawn with the recorded seed."""
    entry = t.entry_pools
    fixed = {p.name: tuple(p.teams) for p in entry if p.teams is not None}
    if not t.drawn_pools:
        return fixed
    seed = t.draw.seed if seed is None else seed
    if seed is None:
        names = ", ".join(p.name for p in t.drawn_pools)
        raise TournamentError(
            source,
            "draw.seed",
            f"pools {names} are filled by the draw and no seed is recorded; "
            "run `courtside tournament draw` and write its seed here",
        )
    first_round = {p.name for p in entry}
    return {name: teams for name, teams in make_draw(t, seed).pools.items() if name in first_round}
