"""The organiser's decisions checked against the tournament: each names a tie that can exist.

A decision's ``pool`` names a pool, a ranking (``QFL``) or a comparison of placed
teams the file uses (``best 3rd``); its teams must be teams of that pool (a
first-round pool) or of the tournament (a later stage, whose teams come from
results). Anything else is refused with the decisions file's line: a decision that
names an unknown pool, stage or team would otherwise be silently ignored, and the
tie it was meant for would stay open, or be settled by a stale file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.errors import ResultsError
from rules.standings import Decision
from rules.tournament.model import Tournament
from rules.tournament.placeholders import BestFromPools, BestPlaced, parse_placeholder


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def best_names(t: Tournament) -> list[str]:
    """The cross-pool comparisons the file's placeholders ask for ("best 3rd"), in file order."""
    texts = [
        *(x for p in t.pools for x in p.teams or ()),
        *(x for m in t.matches for x in (m.home, m.away)),
        *(x for r in t.rankings for x in r.teams),
        *t.final_ranking,
        *(x for group in (t.same_club.swappable if t.same_club else []) for x in group),
    ]
    names: dict[str, None] = {}
    for text in texts:
        found = parse_placeholder(text)
        if isinstance(found, BestPlaced | BestFromPools):
            names[f"best {ordinal(found.rank)}"] = None
    return list(names)


def check_decisions(
    t: Tournament,
    entry_teams: Mapping[str, Sequence[str]],
    decisions: Sequence[Decision],
    source: str,
    lines: Sequence[int] = (),
    methods: Sequence[str] | None = None,
) -> None:
    """Refuse a decision that names a stage or team the tournament does not have; ``lines``
    are the decisions' lines in ``source`` (when known), for the error. With ``methods``
    (the ruleset's ranking criteria), a pool's decision by a method the ruleset does not
    use is refused too: it could never order that pool."""
    if not decisions:
        return  # the service walks a class after every result, most of a day with no decision at all
    everyone = {team.name for team in t.teams} | {team for teams in entry_teams.values() for team in teams}
    stages = [p.name for p in t.pools] + [r.name for r in t.rankings] + best_names(t)
    for i, decision in enumerate(decisions):
        line = lines[i] if i < len(lines) else None
        where = decision.pool
        if t.match(where) is not None:
            raise ResultsError(
                source, line, f"{where} is a match, decided by its result; a decision orders a tie in a pool or ranking"
            )
        if where not in stages:
            raise ResultsError(
                source, line, f"the decision names {where!r}, which is not a pool or ranking of the tournament "
                f"({', '.join(stages)})"
            )
        pool = t.pool(where)
        if pool is not None and methods is not None and decision.method not in methods:
            uses = [m for m in methods if m in ("lots", "penalty_competition")]
            raise ResultsError(
                source,
                line,
                f"the ruleset breaks the ties of a pool by {' or '.join(uses) or 'no organiser decision'}, "
                f"not {decision.method}",
            )
        entry = entry_teams.get(where) if pool is not None else None
        allowed = set(entry) if entry is not None else everyone
        strangers = [team for team in decision.order if team not in allowed]
        if strangers:
            within = f"pool {where}" if entry is not None else "the tournament"
            raise ResultsError(
                source, line, f"the decision for {where} names {', '.join(strangers)}, not a team of {within}"
            )
