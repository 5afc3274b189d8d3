"""Ranking criteria: each a building block that splits a group of level teams.

A criterion looks at a ``Question`` (the teams still level, the teams whose
mutual games count as "head-to-head", and the current placing of the whole pool)
and answers with a ``Split``: the group cut into ordered parts, best first, and
the ``Step`` records of the values it compared. Those records are all the table's
"why" column is written from, so the explanation is the decision itself.

Criteria never sort with a pairwise comparator: a team's value is computed on its
own and teams with equal values stay together, so circular results (A beat B,
B beat C, C beat A) simply leave the three level for the next criterion.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache

from rules.record import Record, field
from rules.standings.scoring import PoolData, TeamRecord
from rules.words.standings import Names, Phrase, Words, counted, reason_text

Group = tuple[str, ...]


class Component(Record):
    """One compared number: ``label`` "goal difference", ``shown`` "+3", ``level`` "goal difference +3";
    ``scope`` says which games it counts (" among A, B and C"), shared by a mini-table's numbers.

    The same as data for other languages (:mod:`rules.words.standings`): ``name`` the label,
    ``amount`` the level, ``within`` the scope without its leading space; None means the
    English text above stands as it is (a label no catalog knows)."""

    label: str
    number: int
    shown: str
    level: str
    scope: str = ""
    name: Words | None = None
    amount: Words | None = None
    shown_words: Words | None = None
    within: Words | None = None


Value = tuple[Component, ...]


def value_key(value: Value) -> tuple[int, ...]:
    return tuple([c.number for c in value])  # a list first: faster than a generator (timeit: 0.48 vs 0.76 us)


class Step(Record):
    """A criterion applied to ``teams``: each team's value, as compared."""

    criterion: str
    teams: Group
    values: Mapping[str, Value]


class Split(Record):
    parts: list[Group]
    steps: list[Step]


class Question(Record):
    data: PoolData
    part: Group
    among: frozenset[str]
    placing: Sequence[Group]
    seen: list[Group] = field(default_factory=list)
    """The blocks of other teams whose results were compared (filled as they are asked for): a
    block still waiting for an organiser's decision makes this answer wait for it too."""


Criterion = Callable[[Question], Split]


def partition(part: Group, values: Mapping[str, Value]) -> list[Group]:
    """Cut ``part`` into groups of equal value, best value first; names order each group."""
    buckets: dict[tuple[int, ...], list[str]] = {}
    for team in part:
        buckets.setdefault(value_key(values[team]), []).append(team)
    return [tuple(sorted(buckets[key])) for key in sorted(buckets, reverse=True)]


def one_by_one(stages: Iterable[Mapping[str, Value]]) -> Iterator[Mapping[str, Value]]:
    """Each stage's numbers as stages of their own, in order: points, then goal difference, then goals.

    A rule that says "if at any step only two teams remain tied, the game between
    them decides" (IIHF, BL 9.6.3.2.2) must stop after the number that separated
    someone, so the teams left level meet that rule, rather than comparing the
    three numbers at once and separating everyone by the later ones.
    """
    for values in stages:
        width = len(next(iter(values.values()), ()))
        for k in range(width):
            yield {t: (v[k],) for t, v in values.items()}


def first_split(criterion: str, part: Group, stages: Iterable[Mapping[str, Value]]) -> Split:
    """Apply ``stages`` in turn and stop at the first that separates anyone (a lazy
    ``stages`` is only computed that far)."""
    steps: list[Step] = []
    for values in stages:
        steps.append(Step(criterion=criterion, teams=part, values=values))
        parts = partition(part, values)
        if len(parts) > 1:
            return Split(parts=parts, steps=steps)
    return Split(parts=[part], steps=steps)


_SINGULAR = {"points": "point", "wins": "win", "goals": "goal"}

# Each label's words as catalog messages (the keys tests/test_words_standings.py finds in the code).
_NAMES = {
    "points": Phrase("points"),
    "wins": Phrase("wins"),
    "goals scored": Phrase("goals scored"),
    "away goals": Phrase("away goals"),
    "away wins": Phrase("away wins"),
    "head-to-head points": Phrase("head-to-head points"),
    "head-to-head goals scored": Phrase("head-to-head goals scored"),
    "goal difference": Phrase("goal difference"),
    "head-to-head goal difference": Phrase("head-to-head goal difference"),
    "disciplinary points": Phrase("disciplinary points"),
}
_COUNTED = {
    "points": Phrase("{n} point", plural="{n} points"),
    "wins": Phrase("{n} win", plural="{n} wins"),
    "goals scored": Phrase("{n} goal scored", plural="{n} goals scored"),
    "away goals": Phrase("{n} away goal", plural="{n} away goals"),
    "away wins": Phrase("{n} away win", plural="{n} away wins"),
    "head-to-head points": Phrase("{n} head-to-head point", plural="{n} head-to-head points"),
    "head-to-head goals scored": Phrase("{n} head-to-head goal scored", plural="{n} head-to-head goals scored"),
    "disciplinary points": Phrase("{n} disciplinary point", plural="{n} disciplinary points"),
}
_SIGNED = {
    "goal difference": Phrase("goal difference {shown}"),
    "head-to-head goal difference": Phrase("head-to-head goal difference {shown}"),
}

Scope = str | Phrase
"""Which games a number counts: English with its leading space (" among A and B"), or a catalog phrase."""


def _scoped(c: Component, scope: Scope) -> Component:
    if isinstance(scope, str):
        return c if not scope else c.replace(scope=scope)
    return c.replace(scope=" " + reason_text(scope), within=scope)


# Components are frozen and the same numbers recur in every outcome of a waiting decision
# (rules.standings.pending): wording each only once keeps trying them cheap.
@lru_cache(maxsize=8192)
def count(label: str, number: int, scope: Scope = "") -> Component:
    words = label.split()
    if number == 1:
        words = [_SINGULAR.get(w, w) for w in words]
    template = _COUNTED.get(label)
    amount = counted(template, number) if template is not None else None
    c = Component(label=label, number=number, shown=str(number), level=f"{number} {' '.join(words)}",
                  name=_NAMES.get(label), amount=amount, shown_words=str(number))
    return _scoped(c, scope)


@lru_cache(maxsize=8192)
def signed(label: str, number: int, scope: Scope = "") -> Component:
    shown = f"{number:+d}" if number else "0"
    template = _SIGNED.get(label)
    amount = None if template is None else Phrase(template.key, (("shown", shown),))
    c = Component(label=label, number=number, shown=shown, level=f"{label} {shown}", name=_NAMES.get(label),
                  amount=amount, shown_words=shown)
    return _scoped(c, scope)


def names(teams: Sequence[str]) -> str:
    teams = list(teams)
    return teams[0] if len(teams) == 1 else ", ".join(teams[:-1]) + " and " + teams[-1]


def _overall(criterion: str, make: Callable[[TeamRecord], Component]) -> Criterion:
    def apply(q: Question) -> Split:
        return first_split(criterion, q.part, [{t: (make(q.data.overall[t]),) for t in q.part}])

    return apply


points = _overall("points", lambda r: count("points", r.points))
points.__doc__ = "Points from all the team's matches in the pool."
wins = _overall("wins", lambda r: count("wins", r.won))
wins.__doc__ = "Matches won (in overtime and shoot-outs too), over all the team's matches in the pool."
goal_difference = _overall("goal_difference", lambda r: signed("goal difference", r.goal_difference))
goal_difference.__doc__ = "Goals for minus goals against over all the team's matches (shoot-out goals never count)."
goals_for = _overall("goals_for", lambda r: count("goals scored", r.goals_for))
goals_for.__doc__ = "Goals scored over all the team's matches (shoot-out goals never count)."
away_goals = _overall("away_goals", lambda r: count("away goals", r.away_goals))
away_goals.__doc__ = "Goals scored as the away team (the results' ``away`` column) over all the pool's matches (UEFA)."
away_wins = _overall("away_wins", lambda r: count("away wins", r.away_won))
away_wins.__doc__ = "Matches won as the away team over all the pool's matches (UEFA)."


def among_scope(among: frozenset[str]) -> Scope:
    return "" if len(among) <= 2 else Phrase("among {teams}", (("teams", Names(tuple(sorted(among)))),))


def mini_table(data: PoolData, among: frozenset[str]) -> dict[str, TeamRecord]:
    """Each team's record in the games among ``among`` only."""
    return {team: data.against(team, among - {team}) for team in among}


def _head_to_head(criterion: str, make: Callable[[TeamRecord, frozenset[str]], Component]) -> Criterion:
    def apply(q: Question) -> Split:
        table = mini_table(q.data, q.among)
        return first_split(criterion, q.part, [{t: (make(table[t], q.among),) for t in q.part}])

    return apply


head_to_head = _head_to_head("head_to_head", lambda r, a: count("head-to-head points", r.points, among_scope(a)))
head_to_head.__doc__ = """Points from the games among the tied teams (for two: the result between them)."""
head_to_head_goal_difference = _head_to_head(
    "head_to_head_goal_difference",
    lambda r, a: signed("head-to-head goal difference", r.goal_difference, among_scope(a)),
)
head_to_head_goal_difference.__doc__ = "Goal difference in the games among the tied teams."
head_to_head_goals_for = _head_to_head(
    "head_to_head_goals_for", lambda r, a: count("head-to-head goals scored", r.goals_for, among_scope(a))
)
head_to_head_goals_for.__doc__ = "Goals scored in the games among the tied teams."


def head_to_head_mini_table(q: Question) -> Split:
    """``head_to_head`` when the ruleset's ``mutual`` counts goals too: points, then goal
    difference, then goals scored in the games among the tied teams, compared as one."""
    table = mini_table(q.data, q.among)
    return first_split("head_to_head", q.part, [{t: mini_table_value(table[t], q.among) for t in q.part}])


def disciplinary(part: Group, points: Mapping[str, int]) -> Split:
    """Fair play: the lower disciplinary points total ranks higher."""
    def component(n: int) -> Component:
        c = count("disciplinary points", n)
        return c.replace(number=-n)  # fewer points is better; shown as counted

    return first_split("fair_play", part, [{t: (component(points[t]),) for t in part}])


def mini_table_value(record: TeamRecord, among: frozenset[str]) -> Value:
    scope = among_scope(among)
    return (
        count("head-to-head points", record.points, scope),
        signed("head-to-head goal difference", record.goal_difference, scope),
        count("head-to-head goals scored", record.goals_for, scope),
    )


def head_to_head_table(q: Question) -> Split:
    """The UEFA mini-table: points, then goal difference, then goals scored in the
    games among the tied teams; any smaller group still level gets its own
    mini-table of the games among just those teams, again and again until the
    mini-tables change nothing."""
    return _mini_table_split(q.data, q.part)


def _mini_table_split(data: PoolData, part: Group) -> Split:
    among = frozenset(part)
    table = mini_table(data, among)
    values = {t: mini_table_value(table[t], among) for t in part}
    steps = [Step(criterion="head_to_head_table", teams=part, values=values)]
    parts: list[Group] = []
    for sub in partition(part, values):
        if 1 < len(sub) < len(part):
            again = _mini_table_split(data, sub)
            parts.extend(again.parts)
            steps.extend(again.steps)
        else:
            parts.append(sub)
    return Split(parts=parts, steps=steps)


def outside_in_turn(part: Group, placing: Sequence[Group]) -> list[Group]:
    """The other teams of the pool, best placed first; teams still level stay together."""
    inside = set(part)
    refs: list[Group] = []
    for block in placing:
        outside = tuple(t for t in block if t not in inside)
        if outside:
            refs.append(outside)
    return refs


def record_value(record: TeamRecord, scope: Scope = "") -> Value:
    """Points, then goal difference, then goals scored."""
    return (
        count("points", record.points, scope),
        signed("goal difference", record.goal_difference, scope),
        count("goals scored", record.goals_for, scope),
    )


def against_each_outside(
    q: Question, value: Callable[[TeamRecord, Scope], Value], rule: str = ""
) -> Iterator[Mapping[str, Value]]:
    """One stage per block of :func:`outside_in_turn`: each tied team's ``value`` of its games
    against that block, scoped " against <block>" (" (BL <rule>)" after it when a bylaw's
    ``rule`` is given); computed as they are asked for."""
    for ref in outside_in_turn(q.part, q.placing):
        q.seen.append(ref)
        block = ("teams", Names(ref))
        scope = Phrase("against {teams} (BL {rule})", (block, ("rule", rule))) if rule else Phrase(
            "against {teams}", (block,))
        yield {t: value(q.data.against(t, frozenset(ref)), scope) for t in q.part}


def versus_best_outside(q: Question) -> Split:
    """IIHF: the results against the best-placed team outside the tied group (points,
    then goal difference, then goals scored), then against the next best, in turn;
    teams outside that are still level with each other count together. It stops at
    the first number that separates anyone: the tie mode ``restart`` then starts
    again with each group left, so two teams still level are decided by the game
    between them, as IIHF's "if only two teams remain tied" asks."""
    return first_split("versus_best_outside", q.part, one_by_one(against_each_outside(q, record_value)))


CRITERION_TEXT = {
    "points": "points",
    "wins": "matches won",
    "goal_difference": "goal difference",
    "goals_for": "goals scored",
    "away_goals": "away goals scored",
    "away_wins": "away wins",
    "head_to_head": "points in the games among the tied teams",
    "head_to_head_goal_difference": "goal difference in the games among the tied teams",
    "head_to_head_goals_for": "goals scored in the games among the tied teams",
    "head_to_head_table": "the mini-table of the tied teams (UEFA)",
    "versus_best_outside": "results against the best-placed teams outside the tie (IIHF)",
    "bl_9_6_3": "World Aquatics bylaw BL 9.6.3",
    "fair_play": "the lower disciplinary (fair-play) points total",
    "lots": "a drawing of lots",
    "penalty_competition": "a penalty competition held after the round",
}
"""Each criterion in words, for error messages and the unresolved ties' needs."""
