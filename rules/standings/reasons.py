"""The "why" of every place, read from the steps the tie-break actually took.

For two neighbours in the table, the steps that compared both of them are
replayed in order: those where their values were equal say what they are level
on, and the last one where the values differed is the one that decided (in
``top_team`` mode a group is examined again after its top team is fixed, so an
earlier split may have been set aside; the last is the one that stood).

A reason is built as data first (:func:`explain_words`: catalog phrases with their
parameters, :mod:`rules.words.standings`) and its English text is those words in
English, so a page in Swedish or Slovak says the same thing as the English table.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rules.record import Record
from rules.standings.criteria import Component, Group, Step, value_key
from rules.standings.pending import Settled
from rules.standings.tiebreak import NEEDS, Ordering, Tie, ordinal_words
from rules.words.standings import Joined, Names, Phrase, Words, reason_text


class Comparison(Record):
    """What two teams were level on, and the compared number that separated them (if any)."""

    level: tuple[tuple[str, str], ...]  # (text, scope), e.g. ("2 points", " among A, B and C")
    upper: Component | None = None
    lower: Component | None = None
    level_parts: tuple[Component, ...] = ()  # the numbers behind ``level``, one for each


def compare(steps: Sequence[Step], upper: str, lower: str) -> Comparison:
    level: list[Component] = []
    decided: Comparison | None = None
    for step in steps:
        if upper not in step.values or lower not in step.values:
            continue
        mine, theirs = step.values[upper], step.values[lower]
        if value_key(mine) == value_key(theirs):
            level.extend(mine)
            continue
        same = [a for a, b in zip(mine, theirs, strict=True) if a.number == b.number]
        first = next(i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a.number != b.number)
        decided = Comparison(level=(), level_parts=(*level, *same[:first]), upper=mine[first], lower=theirs[first])
    if decided is None:
        return _level(level)
    return _level(decided.level_parts, decided.upper, decided.lower)


def _level(parts: Sequence[Component], upper: Component | None = None, lower: Component | None = None) -> Comparison:
    seen: dict[tuple[str, str], Component] = {}
    for c in parts:
        seen.setdefault((c.level, c.scope), c)  # the first of each text
    unique = tuple(seen.values())
    return Comparison(level=tuple((c.level, c.scope) for c in unique), upper=upper, lower=lower, level_parts=unique)


def _scoped(head: Words, c: Component) -> Words:
    """``head`` followed by ``c``'s scope: its phrase after a space, or its English text as it is."""
    if c.within is not None:
        return Joined((head, c.within), " ")
    return Joined((head, c.scope), "") if c.scope else head


def _clauses(parts: Sequence[Component]) -> Words:
    """ "6 points and 2 wins; 1 point and goal difference 0 among A, B and C": numbers of one scope together."""
    clauses: list[tuple[list[Words], Component]] = []
    for c in parts:
        amount = c.level if c.amount is None else c.amount
        if clauses and clauses[-1][1].scope == c.scope:
            clauses[-1][0].append(amount)
        else:
            clauses.append(([amount], c))
    return Joined(tuple(_scoped(Names(tuple(amounts)), c) for amounts, c in clauses), "; ")


def level_clauses(level: Sequence[tuple[str, str]]) -> str:
    """ "6 points and 2 wins; 1 point and goal difference 0 among A, B and C": numbers of one scope together."""
    return reason_text(_clauses([Component(label="", number=0, shown="", level=t, scope=s) for t, s in level]))


def _criterion(c: Component) -> Words:
    return _scoped(c.label if c.name is None else c.name, c)


def _shown(c: Component) -> Words:
    return c.shown if c.shown_words is None else c.shown_words


def _level_words(c: Comparison) -> list[Words]:
    return [Phrase("level on {clauses}", (("clauses", _clauses(c.level_parts)),))] if c.level_parts else []


def _versus(sentence: Phrase, by: Component, mine: Component, theirs: Component) -> Phrase:
    return Phrase(sentence.key, (("criterion", _criterion(by)), ("mine", _shown(mine)), ("theirs", _shown(theirs))))


def ahead_words(c: Comparison) -> Words:
    if c.upper is None or c.lower is None:
        return Joined((*_level_words(c), Phrase("ahead by the order of the results")), "; ")
    ahead = _versus(Phrase("ahead on {criterion} {mine} vs {theirs}"), c.upper, c.upper, c.lower)
    return Joined((*_level_words(c), ahead), "; ")


def behind_words(c: Comparison) -> Words:
    last = Phrase("last")
    if c.upper is None or c.lower is None:
        return Joined((last, *_level_words(c)), "; ")
    behind = _versus(Phrase("behind on {criterion} {mine} vs {theirs}"), c.lower, c.lower, c.upper)
    return Joined((last, *_level_words(c), behind), "; ")


def ahead_text(c: Comparison) -> str:
    return reason_text(ahead_words(c))


def behind_text(c: Comparison) -> str:
    return reason_text(behind_words(c))


def explain_words(ordering: Ordering, only: Collection[str] | None = None) -> dict[str, Words]:
    """Each team's reason for its place as data (catalog phrases), keyed by team (``only``: just those)."""
    needs: dict[str, Words] = {
        t: tie.needs if tie.needs_words is None else tie.needs_words for tie in ordering.ties for t in tie.teams
    }
    flat = [t for group in ordering.placing for t in group]
    reasons: dict[str, Words] = {}
    for group in ordering.placing:
        for team in group:
            if only is not None and team not in only:
                continue
            if len(group) > 1:
                others = tuple(t for t in group if t != team)
                parts = compare(ordering.steps, team, others[0]).level_parts
                need = needs.get(team, Phrase("an organiser decision"))
                reasons[team] = Phrase(
                    "level with {teams} on {clauses}; needs {needs}",
                    (("teams", Names(others)), ("clauses", _clauses(parts)), ("needs", need)),
                ) if parts else Phrase("level with {teams}; needs {needs}", (("teams", Names(others)), ("needs", need)))
                continue
            at = flat.index(team)
            if at + 1 < len(flat):
                reasons[team] = ahead_words(compare(ordering.steps, team, flat[at + 1]))
            elif at > 0:
                reasons[team] = behind_words(compare(ordering.steps, flat[at - 1], team))
            else:
                reasons[team] = Phrase("only team in the pool")
    return reasons


def explain(ordering: Ordering) -> dict[str, str]:
    """Each team's reason for its place in English, keyed by team."""
    return {team: reason_text(words) for team, words in explain_words(ordering).items()}


def _ordinals(places: frozenset[int]) -> Words:
    """ "3rd", "2nd or 4th", "2nd to 5th", "1st, 3rd or 4th"."""
    ranks = sorted(places)
    words = [ordinal_words(p) for p in ranks]
    if len(words) == 1:
        return words[0]
    if len(words) > 2 and ranks[-1] - ranks[0] == len(ranks) - 1:
        return Phrase("{first} to {last}", (("first", words[0]), ("last", words[-1])))
    return Phrase("{first} or {last}", (("first", Joined(tuple(words[:-1]), ", ")), ("last", words[-1])))


def _decisions(ties: Sequence[Tie]) -> Words:
    if not ties:
        return Phrase("an organiser decision")
    return Names(tuple(Phrase("{needed} between {teams}", (("needed", NEEDS.get(t.method, Phrase(
        "an organiser decision"))), ("teams", Names(t.teams)))) for t in ties))


def _waited_for(settled: Settled, block: Group, start: int) -> tuple[Tie, ...]:
    """The asked ties ``block`` waits for: those its teams' places came from comparisons with, or
    else the nearest asked tie at or above it."""
    keys = frozenset().union(*(settled.primary.waits.get(t, frozenset()) for t in block))
    found = tuple(t for t in settled.ties if t.key in keys)
    if found:
        return found
    flat = [t for group in settled.placing for t in group]
    above = [t for t in settled.ties if min(flat.index(team) for team in t.teams) < start + len(block)]
    return tuple(above[-1:])


def settled_words(settled: Settled) -> dict[str, Words]:
    """Each team's reason when places may wait for an organiser's decision.

    A settled team keeps the reason every outcome gives it, or says it is there
    whatever the outcome; a block that is exactly a tie asked for keeps the tie's
    reason; any other block says which places its teams can take and what they wait for.
    """
    if not settled.looked_further:
        return explain_words(settled.primary)
    asked = {frozenset(t.teams) for t in settled.ties}
    groups = {frozenset(g) for g in settled.primary.placing}
    # Each outcome's reasons are worked out only when a settled team needs them (cost: one per outcome).
    alone = {b[0] for b in settled.placing if len(b) == 1}
    each = [explain_words(o.ordering, alone) for o in settled.outcomes] if alone else []
    primary = explain_words(settled.primary) if any(
        len(b) > 1 and frozenset(b) in asked for b in settled.placing) else {}
    reasons: dict[str, Words] = {}
    start = 0
    for block in settled.placing:
        waited = _waited_for(settled, block, start)
        for team in block:
            places = settled.places[team]
            if len(block) == 1 and len({reason_text(words[team]) for words in each}) == 1:
                reasons[team] = each[0][team]
            elif len(block) > 1 and frozenset(block) in asked and frozenset(block) in groups:
                reasons[team] = primary[team]
            elif len(places) == 1:
                reasons[team] = Phrase("{place} whatever the outcome of {decisions}", (
                    ("place", _ordinals(places)), ("decisions", _decisions(waited))))
            else:
                reasons[team] = Phrase("{places} depending on {decisions}", (
                    ("places", _ordinals(places)), ("decisions", _decisions(waited))))
        start += len(block)
    return reasons
