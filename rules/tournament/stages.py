"""The stage graph: which stages a stage waits for, and an order that respects it."""

from __future__ import annotations

from rules.errors import TournamentError
from rules.tournament.model import Tournament
from rules.tournament.placeholders import parse_placeholder, source_stage


def stage_dependencies(t: Tournament, name: str) -> set[str]:
    """The stages whose results the stage ``name`` waits for."""
    deps = _own_dependencies(t, name)
    # Two final placement games that exchange a team wait for each other's teams.
    for ex in t.same_club.exchanges if t.same_club else []:
        if name in (ex.match, ex.to):
            deps |= _own_dependencies(t, ex.to if name == ex.match else ex.match)
    return deps


def _own_dependencies(t: Tournament, name: str) -> set[str]:
    participants: list[str] = []
    if (pool := t.pool(name)) is not None:
        participants = list(pool.teams or [])
    elif (match := t.match(name)) is not None:
        participants = [match.home, match.away]
    elif (ranking := t.ranking(name)) is not None:
        participants = list(ranking.teams)
    deps: set[str] = set()
    for text in participants:
        found = parse_placeholder(text)
        if found is None:
            continue  # a team entered by name waits for nothing
        stage = source_stage(found)
        if stage is not None:
            deps.add(stage)
        else:
            deps.update(p.name for p in t.entry_pools)
    return deps


def stage_order(t: Tournament, source: str = "") -> list[str]:
    """Every stage after the stages it waits for; a cycle is an error."""
    names = [p.name for p in t.pools] + [m.name for m in t.matches] + [r.name for r in t.rankings]
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            loop = " -> ".join([*path[path.index(name) :], name])
            raise TournamentError(source, name, f"stages wait for each other in a circle ({loop})")
        state[name] = 1
        for dep in sorted(stage_dependencies(t, name)):
            visit(dep, [*path, name])
        state[name] = 2
        order.append(name)

    for name in names:
        visit(name, [])
    return order
