"""What follows from the results: tables, resolved placeholders, what is still open.

:func:`progress` walks the stages in the order they wait for each other (:mod:`rules.tournament.walker`) and
returns what the walk made (:mod:`rules.tournament.progress_state`, whose records are named here too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.ruleset import Ruleset
from rules.standings import Decision, MatchResult
from rules.tournament.decisions import check_decisions
from rules.tournament.exchange import clash_notes
from rules.tournament.model import Tournament
from rules.tournament.progress_state import FixtureProgress, KeptProgress, PoolState, Progress, SetAside, Slot
from rules.tournament.walker import Walker

# The walk's records, named here as before the walk had a module of its own.
__all__ = ["FixtureProgress", "KeptProgress", "PoolState", "Progress", "SetAside", "Slot", "progress"]


def progress(
    t: Tournament,
    ruleset: Ruleset,
    entry_teams: dict[str, tuple[str, ...]],
    results: Sequence[MatchResult],
    decisions: Sequence[Decision] = (),
    *,
    results_source: str = "results",
    source: str = "tournament",
    result_lines: Sequence[int] = (),
    decisions_source: str = "decisions",
    decision_lines: Sequence[int] = (),
    strict: bool = True,
    fair_play: Mapping[str, Mapping[str, int]] | None = None,
    kept: KeptProgress | None = None,
) -> Progress:
    """Play the tournament forward as far as ``results`` allow.

    ``source`` names the tournament file in errors; ``result_lines``, when given, is
    each result's line in the results file, so an error about one result names it;
    ``decision_lines`` do the same for the decisions, which must each name a pool or
    ranking of the tournament and its teams (:func:`check_decisions`).

    ``strict=False`` (the service, whose stored results a correction upstream can leave at a stage
    their teams no longer reach) sets a result that does not fit aside in ``Progress.set_aside``,
    with the reason a results file would be refused for, instead of raising.

    ``fair_play`` gives each pool's teams' disciplinary points for a ruleset that ranks by them.

    ``kept``: the states last worked out and what from (:class:`KeptProgress`), for a caller that works out the
    progress again after every result (the service): a pool whose results, teams and decisions are unchanged keeps its
    table, so a result re-ranks its own pool and what follows from it, not every pool of the cup.
    """
    check_decisions(t, entry_teams, decisions, decisions_source, decision_lines, ruleset.ranking.criteria)
    walker = Walker(t, ruleset, entry_teams, results, decisions, results_source, source, result_lines, strict)
    walker.fair_play, walker.kept = fair_play, kept
    # First-round pools first: the same-club check and literal team names may need any of them.
    entry = [p.name for p in t.entry_pools]
    for name in [*entry, *(n for n in t.stages_in_order if n not in entry)]:
        if (pool := t.pool(name)) is not None:
            walker.pool(pool)
        elif t.match(name) is not None:
            walker.match(name)
        else:
            walker.ranking(name)
    # Walking a stage resolved the placeholders it names (a later pool's teams, a ranking's
    # entries); the same-club places may be named by no stage, so they are resolved here.
    for group in t.same_club.swappable if t.same_club else []:
        for text in group:
            walker.slot(text)
    # Every place of every pool and ranking, used by a later stage or not, so all of them can be shown.
    for name, pool_state in walker.pools.items():
        walker.places(name, pool_state)
    for r in t.rankings:
        for rank in range(1, len(r.teams) + 1):
            walker.slot(f"{rank}{r.name}")
    final = tuple(walker.slot(text) for text in t.final_ranking)
    return Progress(
        pools=walker.pools,
        matches=walker.matches,
        rankings=walker.rankings,
        slots=walker.slots,
        final_ranking=final,
        swaps=walker.swaps,
        exchanges=tuple(walker.exchanges),
        set_aside=tuple(walker.set_aside),
        clashes=clash_notes(
            t,
            {
                m.name: (m.home.team, m.away.team)
                for m in walker.matches.values()
                if m.home.team is not None and m.away.team is not None
            },
        ),
    )
