"""Pool standings: results in, ranked tables out, every place with its reason.

``rank_pools(ruleset, results, decisions=...)`` ranks every pool of a results
list; ``rank_pool`` ranks one. The ruleset's ``points`` say what a result is
worth and its ``ranking`` lists the criteria (:mod:`rules.standings.criteria`,
:mod:`rules.standings.bylaw`) and the tie mode (:mod:`rules.standings.tiebreak`).
Ties only lots or a penalty competition could break are reported, never guessed,
until an organiser's :class:`Decision` orders them; until then a table shows only
what every outcome of the waiting decisions leaves true (:mod:`rules.standings.pending`).
Fair-play points come with the call (``fair_play=``, :mod:`rules.standings.fairplay`);
a tie that needs them for a team without them is reported too.
"""

from rules.standings.decisions import Decision, parse_decisions_csv
from rules.standings.results import MatchResult, Outcome, parse_results_csv
from rules.standings.scoring import winner_of
from rules.standings.table import PoolTable, Standings, TableRow, Unresolved, rank_pool, rank_pools

__all__ = [
    "Decision",
    "MatchResult",
    "Outcome",
    "PoolTable",
    "Standings",
    "TableRow",
    "Unresolved",
    "parse_decisions_csv",
    "parse_results_csv",
    "rank_pool",
    "rank_pools",
    "winner_of",
]
