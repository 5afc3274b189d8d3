"""Ordering a pool: the first criterion ranks, the rest break ties in the ruleset's tie mode.

The pool is kept as a *placing*: an ordered list of groups, a group of two or
more being teams still level. The first criterion of the ruleset (points)
cuts the whole pool into groups; level groups are then resolved from the top
down, so the highest tie is settled first and a criterion that compares against
other teams (``versus_best_outside``, ``bl_9_6_3``) sees the settled places above.

How a partly broken tie is re-examined is ``ranking.tie_mode``:

* ``uefa``: run the whole list over the group, each criterion refining the parts
  still level; groups still level afterwards get the list again among themselves.
  Within one run, consecutive head-to-head criteria (``head_to_head``,
  ``head_to_head_goal_difference``, ``head_to_head_goals_for``) all count the
  games among the teams that were level when the first of them was reached: the
  "teams concerned" of UEFA's and FIFA's regulations, whose three head-to-head
  steps are one mini-table.
* ``once``: one run of the list as in ``uefa``; groups still level go straight to
  the organiser's decision (UEFA and FIFA apply their lists once, in order).
* ``restart``: as soon as a criterion splits the group, each part starts again
  from the first criterion, head-to-head now among that part only (IIHF).
* ``top_team``: find the single top team by the list (narrowing to the top part
  and starting again among it), fix it, start again with the rest (World Aquatics).
  A decision there fixes only its first team; see ``_Ranker.decide``.

``lots`` and ``penalty_competition`` are never guessed: they act only on a group
the results leave level, and only through an organiser's ``Decision`` naming
exactly that group. Without one the group stays level and is reported with what
it needs. A decision orders the whole group it names (in ``top_team`` mode: places
its top team, and orders whatever of the rest the results still leave level).

While a tie waits for its decision, the ranking notes which teams' places came
from comparing with it (``Ordering.waits``): rules.standings.pending then shows
only what every outcome of the decision leaves true. ``head_to_head`` counts
points only, or goal difference and goals too, as ``ranking.mutual`` says;
``fair_play`` compares the disciplinary points given with the pool, and a group
that reaches it with a team's points missing waits for them (no later criterion
or decision separates its teams meanwhile).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from rules.record import Record, field
from rules.ruleset import DECISION_CRITERIA, Ruleset
from rules.standings.bylaw import bl_9_6_3
from rules.standings.criteria import (
    CRITERION_TEXT,
    Component,
    Criterion,
    Group,
    Question,
    Step,
    away_goals,
    away_wins,
    disciplinary,
    goal_difference,
    goals_for,
    head_to_head,
    head_to_head_goal_difference,
    head_to_head_goals_for,
    head_to_head_mini_table,
    head_to_head_table,
    names,
    points,
    versus_best_outside,
    wins,
)
from rules.standings.decisions import Decision
from rules.standings.scoring import PoolData
from rules.words.standings import Names, Phrase, Words, counted

CRITERIA: Mapping[str, Criterion] = {
    "points": points,
    "wins": wins,
    "goal_difference": goal_difference,
    "goals_for": goals_for,
    "away_goals": away_goals,
    "away_wins": away_wins,
    "head_to_head": head_to_head,
    "head_to_head_goal_difference": head_to_head_goal_difference,
    "head_to_head_goals_for": head_to_head_goals_for,
    "head_to_head_table": head_to_head_table,
    "versus_best_outside": versus_best_outside,
    "bl_9_6_3": bl_9_6_3,
}

HEAD_TO_HEAD_RUN = frozenset({"head_to_head", "head_to_head_goal_difference", "head_to_head_goals_for"})

DECIDED_BY = {"lots": "drawing of lots", "penalty_competition": "penalty competition"}
_DECIDED_WORDS = {
    "lots": (Phrase("drawing of lots"), Phrase("drawing of lots (organiser's decision)")),
    "penalty_competition": (Phrase("penalty competition"), Phrase("penalty competition (organiser's decision)")),
}
NEEDS = {
    "lots": Phrase("a drawing of lots"),
    "penalty_competition": Phrase("a penalty competition held after the round"),
}
_PLACES = {1: Phrase("1st"), 2: Phrase("2nd"), 3: Phrase("3rd")}


def ordinal_words(place: int) -> Words:
    """ "1st", "2nd", "3rd", "4th" as catalog phrases."""
    return _PLACES.get(place, counted(Phrase("{n}th"), place))


_Resolve = Callable[[Group, Sequence[Group]], list[Group]]

_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


TieKey = tuple[str, frozenset[str]]
"""A tie waiting for a decision: its method (the ruleset's first decision criterion, "" when it
lists none) and its teams, the way a ``Decision`` names it."""


class Tie(Record):
    """A group the results cannot separate, and what the organiser must provide."""

    teams: Group
    needs: str
    needs_words: Words | None = None  # ``needs`` as catalog phrases (rules.words.standings)
    method: str = ""  # the decision that orders it; "" when the ruleset lists none
    depends: frozenset[TieKey] = frozenset()  # higher ties the group itself came out of comparisons with
    data: bool = False  # waits for data (fair-play points), not for an organiser's decision

    @property
    def key(self) -> TieKey:
        return (self.method, frozenset(self.teams))


class Ordering(Record):
    """The pool's final placing (a group of two or more is an unresolved tie) and how it was reached."""

    placing: tuple[Group, ...]
    steps: tuple[Step, ...]
    ties: tuple[Tie, ...]
    waits: Mapping[str, frozenset[TieKey]] = field(default_factory=dict)
    """For each team whose place came from comparisons with a tie still waiting for a decision
    (or is in one), those ties: its place here may not be its place after them."""
    levels: tuple[Group, ...] = ()
    """The groups the first criterion (points) cut the pool into: no decision moves a team out of its own."""


def _replace(placing: Sequence[Group], old: Group, new: Sequence[Group]) -> list[Group]:
    at = list(placing).index(old)
    return [*placing[:at], *new, *placing[at + 1 :]]


class _Ranker(Record):
    ruleset: Ruleset
    data: PoolData
    decisions: Mapping[tuple[str, frozenset[str]], Decision]
    fair_play: Mapping[str, int] | None = None
    steps: list[Step] = field(default_factory=list)
    ties: list[Tie] = field(default_factory=list)
    applied: list[Decision] = field(default_factory=list)
    waits: dict[str, frozenset[TieKey]] = field(default_factory=dict)
    blocked: list[frozenset[str]] = field(default_factory=list)  # groups waiting for data (fair-play points)

    @property
    def results_criteria(self) -> list[str]:
        return [c for c in self.ruleset.ranking.criteria if c not in DECISION_CRITERIA]

    def ask(self, criterion: str, part: Group, among: Group, placing: Sequence[Group]) -> list[Group]:
        if self.waiting_for_data(part):
            return [part]
        q = Question(data=self.data, part=part, among=frozenset(among), placing=tuple(placing))
        if criterion == "fair_play":
            known = self.fair_play or {}
            missing = tuple(t for t in part if t not in known)
            if missing:
                self.missing(part, missing)
                return [part]
            split = disciplinary(part, known)
        elif criterion == "head_to_head" and self.ruleset.ranking.mutual != "points":
            split = head_to_head_mini_table(q)
        else:
            split = CRITERIA[criterion](q)
        self.steps.extend(split.steps)
        if q.seen and self.waits:
            self.inherit(part, (t for ref in q.seen for t in ref))
        return split.parts

    def inherit(self, teams: Group, compared: Iterable[str]) -> None:
        """``teams`` were placed by comparing with ``compared``: they wait for whatever those wait for."""
        inherited: frozenset[TieKey] = frozenset().union(*(self.waits.get(t, frozenset()) for t in compared))
        if inherited:
            for team in teams:
                self.waits[team] = self.waits.get(team, frozenset()) | inherited

    def order(self) -> Ordering:
        everyone = tuple(sorted(self.data.teams))
        if not everyone:
            return Ordering(placing=(), steps=(), ties=())
        criteria = self.results_criteria
        placing: list[Group] = self.ask(criteria[0], everyone, everyone, [everyone]) if criteria else [everyone]
        levels = tuple(placing)
        resolve = {"uefa": self.uefa, "once": self.once, "restart": self.restart, "top_team": self.top_team}[
            self.ruleset.ranking.tie_mode
        ]
        at = 0
        while at < len(placing):
            group = placing[at]
            if len(group) == 1:
                at += 1
                continue
            settled = resolve(group, placing)
            placing = _replace(placing, group, settled)
            at += len(settled)
        return Ordering(placing=tuple(placing), steps=tuple(self.steps), ties=tuple(self.ties),
                        waits=dict(self.waits), levels=levels)

    def run_once(self, group: Group, placing: Sequence[Group]) -> list[Group]:
        """One uefa run of the list over ``group``; see the module docstring for head-to-head runs."""
        parts: list[tuple[Group, Group]] = [(group, group)]  # (teams still level, their head-to-head set)
        previous = ""
        for criterion in self.results_criteria:
            in_run = criterion in HEAD_TO_HEAD_RUN and previous in HEAD_TO_HEAD_RUN
            now = _replace(placing, group, [p for p, _ in parts])
            refined: list[tuple[Group, Group]] = []
            for part, run_set in parts:
                if len(part) == 1:
                    refined.append((part, run_set))
                    continue
                among = run_set if in_run else part
                refined.extend((sub, among) for sub in self.ask(criterion, part, among, now))
            parts = refined
            previous = criterion
        return [p for p, _ in parts]

    def uefa(self, group: Group, placing: Sequence[Group]) -> list[Group]:
        parts = self.run_once(group, placing)
        if len(parts) == 1:
            return self.decide(group)
        return self._each_part(parts, group, placing, self.uefa)

    def once(self, group: Group, placing: Sequence[Group]) -> list[Group]:
        """The list applied once, in order, to the teams still level (UEFA art. 17.01, FIFA
        art. 32.5): what it leaves level goes to the organiser's decision, never back to
        the head-to-head criteria."""
        settled: list[Group] = []
        for part in self.run_once(group, placing):
            settled.extend(self.decide(part) if len(part) > 1 else [part])
        return settled

    def restart(self, group: Group, placing: Sequence[Group]) -> list[Group]:
        for criterion in self.results_criteria:
            parts = self.ask(criterion, group, group, placing)
            if len(parts) > 1:
                return self._each_part(parts, group, placing, self.restart)
        return self.decide(group)

    def _each_part(self, parts: list[Group], group: Group, placing: Sequence[Group], again: _Resolve) -> list[Group]:
        now = _replace(placing, group, parts)
        settled: list[Group] = []
        for part in parts:
            if len(part) == 1:
                settled.append(part)
                continue
            done = again(part, now)
            now = _replace(now, part, done)
            settled.extend(done)
        return settled

    def top_team(self, group: Group, placing: Sequence[Group]) -> list[Group]:
        settled: list[Group] = []
        rest = group
        now = list(placing)
        while len(rest) > 1:
            top = self.find_top(rest, now)
            placed = {t for g in top for t in g}
            left = tuple(t for t in rest if t not in placed)
            if len(top) == 1 and len(top[0]) > 1:
                # Only the winner of the pending decision is placed; the others go back with ``left``.
                self.inherit(left, top[0])
            now = _replace(now, rest, [*top, left] if left else top)
            settled.extend(top)
            rest = left
        if rest:
            settled.append(rest)
        return settled

    def find_top(self, group: Group, placing: Sequence[Group]) -> list[Group]:
        for criterion in self.results_criteria:
            parts = self.ask(criterion, group, group, placing)
            if len(parts) > 1:
                top = parts[0]
                if len(top) == 1:
                    return [top]
                below = tuple(t for t in group if t not in top)
                return self.find_top(top, _replace(placing, group, [top, below]))
        return self.decide(group, only_top=True)

    def waiting_for_data(self, group: Group) -> bool:
        return any(b.issuperset(group) for b in self.blocked)

    def missing(self, group: Group, teams: Group) -> None:
        """``group`` waits for data, not for a decision: reported, never guessed, and no later
        criterion or decision separates any of its teams meanwhile."""
        self.blocked.append(frozenset(group))
        needs = f"the disciplinary (fair-play) points of {names(teams)}, not in the data given"
        words = Phrase("the disciplinary (fair-play) points of {teams}, not in the data given",
                       (("teams", Names(teams)),))
        self.ties.append(Tie(teams=group, needs=needs, needs_words=words, data=True))

    def _applied_to(self, method: str, group: Group) -> Decision | None:
        """A decision already used for a larger tie, narrowed to ``group`` (its teams in its order)."""
        teams = frozenset(group)
        for decision in self.applied:
            if decision.method == method and teams < decision.teams:
                order = tuple(t for t in decision.order if t in teams)
                return Decision(pool=decision.pool, method=method, order=order)
        return None

    def decide(self, group: Group, *, only_top: bool = False) -> list[Group]:
        """Order ``group`` by the organiser's decision, or report it as a tie.

        With ``only_top`` (tie mode ``top_team``) the decision places just its first
        team, as BL 9.6.3.2.7's penalty shots "determine which team shall be placed
        highest"; the rest are examined again by the results (a pair left goes back
        to the game between them, 9.6.3.2.2), and only what the results still leave
        level among them follows the rest of the same decision.
        """
        if self.waiting_for_data(group):
            return [group]
        methods = [c for c in self.ruleset.ranking.criteria if c in DECISION_CRITERIA]
        for method in methods:
            decision = self.decisions.get((method, frozenset(group))) or self._applied_to(method, group)
            if decision is not None:
                self.applied.append(decision)
                label = DECIDED_BY[method]
                level_words, label_words = _DECIDED_WORDS[method]
                self.steps.append(
                    Step(
                        criterion=method,
                        teams=group,
                        values={
                            team: (
                                Component(
                                    label=f"{label} (organiser's decision)",
                                    number=-place,
                                    shown=_ORDINALS.get(place, f"{place}th"),
                                    level=label,
                                    name=label_words,
                                    amount=level_words,
                                    shown_words=ordinal_words(place),
                                ),
                            )
                            for place, team in enumerate(decision.order, start=1)
                        },
                    )
                )
                ordered: list[Group] = [(team,) for team in decision.order]
                return ordered[:1] if only_top else ordered
        if methods:
            first = methods[0]
            needs = f"{CRITERION_TEXT[first]} (give the order as a decision with method {first!r})"
            words: Words = Phrase("{needed} (give the order as a decision with method '{method}')",
                                  (("needed", NEEDS[first]), ("method", first)))
        else:
            needs = "an organiser's decision, but the ruleset lists no 'lots' or 'penalty_competition'"
            words = Phrase("an organiser's decision, but the ruleset lists no 'lots' or 'penalty_competition'")
        asked: str = methods[0] if methods else ""
        depends = frozenset().union(*(self.waits.get(t, frozenset()) for t in group))
        tie = Tie(teams=group, needs=needs, needs_words=words, method=asked, depends=depends)
        if asked:
            for team in group:
                self.waits[team] = depends | {tie.key}
        self.ties.append(tie)
        return [group]


def order_pool(
    ruleset: Ruleset, data: PoolData, decisions: Sequence[Decision] = (), fair_play: Mapping[str, int] | None = None
) -> Ordering:
    """Order ``data``'s teams by ``ruleset``; ``decisions`` are this pool's organiser decisions,
    ``fair_play`` its teams' disciplinary points (a team missing leaves its tie unresolved)."""
    by_group = {(d.method, d.teams): d for d in decisions if d.pool == data.pool}
    return _Ranker(ruleset=ruleset, data=data, decisions=by_group, fair_play=fair_play).order()
