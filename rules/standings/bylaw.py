"""World Aquatics (FINA) bylaw BL 9.6.3, as quoted in seed 001.

One criterion, ``bl_9_6_3``, applied to a group of teams level on points:

* two teams (BL 9.6.3.1): the team winning the game between them is higher
  (9.6.3.1.1). If that game was tied, their results against the highest placed
  team (or teams, if tied) of the group, compared on goal difference and then on
  goals scored (9.6.3.1.2-4), then against the next highest, in succession until
  all results have been considered (9.6.3.1.5);
* three or more (BL 9.6.3.2): points, then goal difference, then goals scored in
  the games among the tied teams (9.6.3.2.1, 9.6.3.2.3); if still level, the
  games against the highest placed team(s), then the next, on goal difference and
  goals scored (9.6.3.2.4-6).

The criterion stops at the first comparison that separates anyone and leaves the
rest level, because "if at any time ... the number of tied teams is reduced to
two, BL 9.6.3.1 shall be used" (9.6.3.2.2): the ruleset's tie mode ``top_team``
places the highest team and starts again with the teams left, so a pair left
over meets 9.6.3.1 afresh. Ties are examined highest first (9.6.3.1.7,
9.6.3.2.8) because the table resolves its level groups from the top down, so the
placing a comparison refers to is already settled above.

Reading of 9.6.3.1.8 ("not possible to determine the highest placed team"): when
the team to compare against is itself in a tie that is not yet broken, the
results against all the teams of that tie are taken together, as "(or teams, if
tied)" in 9.6.3.1.4 asks. A tie waiting for its penalty shots is not one of those:
the shots will place its highest team (9.6.3.1.7), so a place compared with it waits
for them (rules.standings.pending tries each outcome). Penalty shots (9.6.3.1.6, 9.6.3.2.7) are not guessed:
the ruleset lists ``penalty_competition`` after this criterion and the organiser
enters the outcome. Among three or more the shots "determine which team shall be
placed highest", so in ``top_team`` mode the decision places its first team and
the rest are examined again (a pair left goes back to 9.6.3.1). Shoot-out goals
never count (9.6.3.3): match records carry only the goals of the game itself. In
a pool not yet fully played, a team not yet met counts as no result (goal
difference 0, no goals) in the comparison.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain

from rules.standings.criteria import (
    Question,
    Split,
    Value,
    against_each_outside,
    count,
    first_split,
    mini_table,
    one_by_one,
    record_value,
)
from rules.words.standings import Names, Phrase


def bl_9_6_3(q: Question) -> Split:
    """World Aquatics BL 9.6.3: two-team branch 9.6.3.1, three-or-more branch 9.6.3.2."""
    part = q.part
    among = frozenset(part)
    table = mini_table(q.data, among)
    stages: list[Mapping[str, Value]] = []
    if len(part) == 2:
        between = Phrase("from the game between them (BL {rule})", (("rule", "9.6.3.1.1"),))
        stages.append({t: (count("points", table[t].points, between),) for t in part})
        rule = "9.6.3.1.3"
    else:
        tied = Phrase("among {teams} (BL {rule})", (("teams", Names(tuple(sorted(part)))), ("rule", "9.6.3.2.3")))
        stages.append({t: record_value(table[t], tied) for t in part})
        rule = "9.6.3.2.5"
    # Against the teams outside only goal difference and goals scored are compared.
    outside = against_each_outside(q, lambda record, scope: record_value(record, scope)[1:], rule)
    # One number at a time: "if at any time ... reduced to two, BL 9.6.3.1 shall be used" (9.6.3.2.2).
    return first_split("bl_9_6_3", part, one_by_one(chain(stages, outside)))
