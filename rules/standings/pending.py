"""What a table can show before the organiser's decisions: only what every decision leaves true.

A tie waiting for lots or a penalty competition is only a question mark while it
waits: once decided, the teams below may be compared with its single best team
(IIHF, BL 9.6.3.1.4) instead of with the pair taken together, and in water polo's
``top_team`` mode the shoot-out places only its winner while the loser goes back
into BL 9.6.3 with the teams below (9.6.3.1.6, 9.6.3.2.2). So a place that came
out of a comparison with a waiting tie is not settled.

:func:`settle` orders the pool once as it stands (every waiting tie kept as one
block) and notes which teams' places came from comparisons with which waiting
tie (:attr:`Ordering.waits`). A tie that nothing else depends on only orders its
own teams, whatever the decision: it needs no look further. For the highest tie
something does depend on, every order the organiser could give is tried, highest
tie first, and the same again within each outcome. The table then shows:

* a team settled only where it has the same place in every outcome, and a block
  of places only where it holds the same teams in every outcome;
* a tie asked for only when every outcome of the decisions above it needs it
  (it is then needed whatever they turn out to be), highest first.

Trying every order costs a factorial, each outcome a ranking of the whole pool
(about the square of its teams): beyond :data:`OUTCOMES` outcomes for a pool of
four, proportionally fewer for a bigger one (:func:`outcomes_for`), the look
stops, every group of teams level on points that holds a team depending on a
waiting tie is shown as one block (never wrong, only less precise), and only
ties that came out of no comparison with a waiting tie are asked for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations
from math import factorial

from rules.record import Record
from rules.ruleset import Ruleset
from rules.standings.criteria import Group
from rules.standings.decisions import Decision
from rules.standings.scoring import PoolData
from rules.standings.tiebreak import Ordering, Tie, TieKey, order_pool

OUTCOMES = 48
"""The most outcomes of the waiting decisions tried for a pool of four before the look stops short
(a tie of four has 24 orders; two ties of three one after the other 36)."""


def outcomes_for(teams: int) -> int:
    """The outcomes tried for a pool of ``teams``: :data:`OUTCOMES` for four, fewer as a ranking costs
    more (16 teams: 3, so a pair and a pair below it, or it stops short)."""
    return max(1, OUTCOMES * 16 // max(16, teams * teams))


class Outcome(Record):
    """One way the waiting decisions can go: the pool ordered with them.

    ``unsure`` lists places (1-based, the last of each) no block may end at, for an
    outcome whose look stopped short; ``ties`` are the ties it still needs for certain."""

    ordering: Ordering
    ties: tuple[Tie, ...]
    unsure: frozenset[int] = frozenset()


class Settled(Record):
    """The pool as every outcome of its waiting decisions leaves it.

    ``placing``: blocks of places, best first; a block of one is a settled team, a
    larger one teams whose order waits (a tie asked for, or places that depend on one).
    ``ties``: the ties asked for, highest first. ``places``: each team's possible
    places. ``primary``: the pool ordered as it stands; ``outcomes``: every outcome tried
    (just ``primary`` when no place depends on a waiting decision)."""

    placing: tuple[Group, ...]
    ties: tuple[Tie, ...]
    places: dict[str, frozenset[int]]
    primary: Ordering
    outcomes: tuple[Outcome, ...]

    @property
    def looked_further(self) -> bool:
        only = self.outcomes[0]
        return len(self.outcomes) > 1 or only.ordering is not self.primary or bool(only.unsure)


def _depended_on(ordering: Ordering) -> Tie | None:
    """The highest waiting tie some other team's place (or another tie) depends on."""
    for tie in ordering.ties:
        if not tie.method:
            continue
        key = tie.key
        if any(key in keys for team, keys in ordering.waits.items() if team not in tie.teams):
            return tie
    return None


def _flat(placing: Sequence[Group]) -> list[str]:
    return [t for group in placing for t in group]


def _ends(placing: Sequence[Group]) -> set[int]:
    ends: set[int] = set()
    at = 0
    for group in placing:
        at += len(group)
        ends.add(at)
    return ends


def _short(ordering: Ordering) -> Outcome:
    """The pool as it stands when the look stops short: every group level on points that holds
    a team depending on a waiting tie is one block, and only ties depending on none are asked for."""
    own: dict[str, set[TieKey]] = {}
    for tie in ordering.ties:
        for team in tie.teams:
            own.setdefault(team, set()).add(tie.key)
    # A team in a tie nothing else decides keeps to that tie's block; one placed by comparing with
    # a waiting tie (or in a tie that came out of such comparisons) may end anywhere in its level.
    waiting = {t for t, keys in ordering.waits.items() if keys - own.get(t, set())}
    unsure: set[int] = set()
    start = 0
    for level in ordering.levels:
        if waiting.intersection(level):
            unsure.update(range(start + 1, start + len(level)))
        start += len(level)
    ties = tuple(t for t in ordering.ties if not t.depends)
    return Outcome(ordering=ordering, ties=ties, unsure=frozenset(unsure))


def _explore(ruleset: Ruleset, data: PoolData, decisions: Sequence[Decision], primary: Ordering,
             fair_play: Mapping[str, int] | None) -> list[Outcome]:
    outcomes: list[Outcome] = []

    def walk(ordering: Ordering, assumed: tuple[Decision, ...], needed: tuple[Tie, ...], budget: int) -> None:
        tie = _depended_on(ordering)
        if tie is None:
            outcomes.append(Outcome(ordering=ordering, ties=(*needed, *ordering.ties)))
            return
        count = factorial(len(tie.teams))
        if count > budget:
            short = _short(ordering)
            outcomes.append(Outcome(ordering=ordering, ties=(*needed, *short.ties), unsure=short.unsure))
            return
        share = budget // count
        for order in permutations(tie.teams):
            guess = Decision(pool=data.pool, method=tie.method, order=order)
            walk(order_pool(ruleset, data, [*decisions, *assumed, guess], fair_play), (*assumed, guess),
                 (*needed, tie), share)

    walk(primary, (), (), outcomes_for(len(data.teams)))
    return outcomes


def _blocks(order: Sequence[str], outcomes: Sequence[Outcome]) -> list[Group]:
    """The finest blocks of places that hold the same teams in every outcome, each in ``order``."""
    flats = [_flat(o.ordering.placing) for o in outcomes]
    ends = [_ends(o.ordering.placing) for o in outcomes]
    blocks: list[Group] = []
    start = 0
    for end in range(1, len(order) + 1):
        if any(end not in e or end in o.unsure for e, o in zip(ends, outcomes, strict=True)):
            continue
        first = frozenset(flats[0][start:end])
        if all(frozenset(f[start:end]) == first for f in flats[1:]):
            blocks.append(tuple(t for t in order if t in first))
            start = end
    return blocks


def settle(ruleset: Ruleset, data: PoolData, decisions: Sequence[Decision] = (),
           fair_play: Mapping[str, int] | None = None) -> Settled:
    """Order ``data``'s teams showing only what every outcome of the waiting decisions leaves true
    (``fair_play``: the teams' disciplinary points, as :func:`order_pool` takes them)."""
    mine = [d for d in decisions if d.pool == data.pool]
    primary = order_pool(ruleset, data, mine, fair_play)
    if _depended_on(primary) is None:
        where: dict[str, frozenset[int]] = {}
        at = 1
        for group in primary.placing:
            for team in group:
                where[team] = frozenset(range(at, at + len(group)))
            at += len(group)
        return Settled(placing=primary.placing, ties=primary.ties, places=where, primary=primary,
                       outcomes=(Outcome(ordering=primary, ties=primary.ties),))
    outcomes = _explore(ruleset, data, mine, primary, fair_play)
    teams = _flat(primary.placing)
    blocks = _blocks(teams, outcomes)
    places: dict[str, set[int]] = {t: set() for t in teams}
    for outcome in outcomes:
        at = 1
        for group in outcome.ordering.placing:
            for team in group:
                places[team].update(range(at, at + len(group)))
            at += len(group)
    at = 1
    for block in blocks:
        if any(o.unsure for o in outcomes) and len(block) > 1:
            for team in block:  # an outcome that stopped short does not know where in its block
                places[team].update(range(at, at + len(block)))
        at += len(block)
    return Settled(placing=tuple(blocks), ties=_asked(outcomes, primary), places={
        t: frozenset(p) for t, p in places.items()}, primary=primary, outcomes=tuple(outcomes))


def _asked(outcomes: Sequence[Outcome], primary: Ordering) -> tuple[Tie, ...]:
    """The ties every outcome needs, highest first (by where the pool as it stands places them)."""
    common: set[TieKey] = set.intersection(*({t.key for t in o.ties} for o in outcomes))
    first = _flat(primary.placing)
    found: dict[TieKey, Tie] = {}
    for outcome in outcomes:
        for tie in outcome.ties:
            if tie.key in common:
                found.setdefault(tie.key, tie)
    return tuple(sorted(found.values(), key=lambda t: min(first.index(team) for team in t.teams)))
