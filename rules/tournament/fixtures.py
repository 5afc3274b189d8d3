"""Who plays whom: round-robin rounds for pools, one fixture per knock-out match."""

from __future__ import annotations

from rules.record import Record
from rules.tournament.model import Pool, Tournament
from rules.tournament.placeholders import PoolPlace, parse_placeholder
from rules.tournament.stages import stage_dependencies, stage_order

POOL_ROUND = "pool"


class Fixture(Record):
    """One match to be played; ``home``/``away`` are teams or, later on, placeholders."""

    stage: str
    home: str
    away: str
    round: str
    leg: int = 1
    pool_round: int = 0


def round_robin(teams: tuple[str, ...] | list[str], *, double: bool = False) -> list[list[tuple[str, str]]]:
    """Rounds by the circle method: everyone meets once (twice, home and away, when ``double``).

    With an odd number of teams one team rests each round, so a pool of five plays
    five rounds of two matches and every team plays four.
    """
    slots: list[str | None] = list(teams)
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    rounds: list[list[tuple[str, str]]] = []
    for r in range(n - 1):
        pairs: list[tuple[str, str]] = []
        for i in range(n // 2):
            a, b = slots[i], slots[n - 1 - i]
            if a is None or b is None:
                continue
            # Alternate the fixed team's side so home and away even out.
            pairs.append((b, a) if i == 0 and r % 2 else (a, b))
        rounds.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    if double:
        rounds += [[(b, a) for a, b in pairs] for pairs in rounds]
    return rounds


def carried_pairs(pool: Pool) -> set[frozenset[str]]:
    """Pairs of a carry-forward pool who already met in the pool they both came from."""
    if not pool.carry_forward or pool.teams is None:
        return set()
    origin = {}
    for text in pool.teams:
        found = parse_placeholder(text)
        if isinstance(found, PoolPlace):
            origin[text] = found.stage
    return {frozenset((a, b)) for a in origin for b in origin if a < b and origin[a] == origin[b]}


def pool_fixtures(pool: Pool, teams: tuple[str, ...]) -> list[Fixture]:
    """A pool's own fixtures (carried-forward meetings are not played again)."""
    carried = carried_pairs(pool)
    if carried:
        # Only the new meetings are played; a team rests while the other pairs meet.
        out: list[Fixture] = []
        for number, pairs in enumerate(round_robin(teams, double=pool.double), 1):
            out += [
                Fixture(stage=pool.name, home=a, away=b, round=POOL_ROUND, pool_round=number)
                for a, b in pairs
                if frozenset((a, b)) not in carried
            ]
        return out
    rounds = round_robin(teams, double=pool.double)
    half = len(rounds) // 2 if pool.double else len(rounds)
    return [
        Fixture(stage=pool.name, home=a, away=b, round=POOL_ROUND, pool_round=number, leg=2 if number > half else 1)
        for number, pairs in enumerate(rounds, 1)
        for a, b in pairs
    ]


def pool_fixture_count(pool: Pool, teams: tuple[str, ...]) -> int:
    """How many fixtures :func:`pool_fixtures` gives, without making them: the progress counts every pool's after
    each result, and a cup's hundreds of pools made 2,000 fixtures for their lengths alone."""
    if pool.carry_forward:
        return len(pool_fixtures(pool, teams))
    return len(teams) * (len(teams) - 1) // 2 * (2 if pool.double else 1)


def all_fixtures(t: Tournament, entry_teams: dict[str, tuple[str, ...]]) -> list[Fixture]:
    """Every fixture in playing order: pools round by round side by side, then stages as they become possible."""
    order = stage_order(t)
    by_stage: dict[str, list[Fixture]] = {}
    for name in order:
        if (pool := t.pool(name)) is not None:
            teams = entry_teams.get(name) or tuple(pool.teams or ())
            by_stage[name] = pool_fixtures(pool, teams)
        elif (match := t.match(name)) is not None:
            by_stage[name] = [Fixture(stage=name, home=match.home, away=match.away, round=match.round)]
    out: list[Fixture] = []
    # Interleave rounds of pools that wait for the same stages, so parallel pools progress together.
    layers: dict[frozenset[str], list[str]] = {}
    for name in order:
        if name in by_stage:
            layers.setdefault(frozenset(stage_dependencies(t, name)), []).append(name)
    for names in layers.values():
        pools = [n for n in names if t.pool(n) is not None]
        depth = max((f.pool_round for n in pools for f in by_stage[n]), default=0)
        for number in range(1, depth + 1):
            for n in pools:
                out += [f for f in by_stage[n] if f.pool_round == number]
        out += [f for n in names if t.match(n) is not None for f in by_stage[n]]
    return out
