"""Disciplinary (fair-play) points: read from a file, counted by the ruleset's points per card kind.

The file is CSV with columns ``pool,team`` and either

* ``points``: the team's disciplinary points total (a column the organiser filled in), or
* ``kind,count`` and optionally ``person`` (``player``, the default, or ``official``): the
  cards shown to the team, each kind worth what ``ranking.fair_play.cards`` says; cards to
  team officials count only when ``ranking.fair_play.officials`` is true.

A team listed with ``count`` 0 (or ``points`` 0) has a clean record; a team not listed has
no data, and a tie that reaches the fair-play criterion with it stays unresolved.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rules.errors import ResultsError
from rules.ruleset import FairPlay, Ruleset
from rules.standings.csvfile import cell, csv_rows, name_problem

PEOPLE = ("player", "official")


def _number(text: str, what: str, source: str, line: int) -> int:
    if not text.isdigit() or len(text) > 4:
        raise ResultsError(source, line, f"{what} must be a whole number from 0 to 9999, not {text!r}")
    return int(text)


def parse_fair_play_csv(text: str, source: str, rules: FairPlay | None) -> dict[str, dict[str, int]]:
    """Each pool's teams' disciplinary points (pool -> team -> points); ``source`` names the file
    in errors. ``rules`` is the ruleset's ``ranking.fair_play`` (None: the ruleset has none)."""
    if rules is None:
        raise ResultsError(source, None, "the ruleset does not rank by fair play (no [ranking.fair_play] table)")
    totals: dict[str, dict[str, int]] = {}
    form: str | None = None
    for line, row in csv_rows(text, source, ("pool", "team"), ("points", "kind", "count", "person")):
        pool, team = cell(row, "pool"), cell(row, "team")
        for what, name in (("pool", pool), ("team", team)):
            problem = name_problem(name, what) if name else f"the {what} is empty"
            if problem is not None:
                raise ResultsError(source, line, problem)
        points_cell, kind = cell(row, "points"), cell(row, "kind")
        if bool(points_cell) == bool(kind or cell(row, "count")):
            raise ResultsError(source, line, "give either points, or a card kind and its count")
        this = "points" if points_cell else "cards"
        if form is not None and this != form:
            raise ResultsError(source, line, "the file gives points on one line and cards on another; use one form")
        form = this
        mine = totals.setdefault(pool, {})
        if points_cell:
            if team in mine:
                raise ResultsError(source, line, f"{team} of pool {pool} has its points on an earlier line")
            mine[team] = _number(points_cell, "points", source, line)
            continue
        count = _number(cell(row, "count"), "count", source, line)
        person = cell(row, "person") or "player"
        if person not in PEOPLE:
            raise ResultsError(source, line, f"person must be player or official, not {person!r}")
        if kind not in rules.cards:
            raise ResultsError(source, line, f"card kind {kind!r} is not one the ruleset counts "
                                             f"({', '.join(rules.cards)})")
        counted = person == "player" or rules.officials
        mine[team] = mine.get(team, 0) + (rules.cards[kind] * count if counted else 0)
    return totals


def match_points(ruleset: Ruleset, cards: Iterable[tuple[str, str | None, str]]) -> dict[str, int]:
    """Each team's disciplinary points from one match's cards, ``(team, player, kind)`` as the match
    log replays them (``MatchState.cards``), by ``ranking.fair_play.cards``.

    A match log shows a second yellow as the yellow and the red it escalates to
    (``penalties.kinds.yellow.escalates_to``): ``second_yellow`` in the points counts those
    cards once, as UEFA does (3 points, not 1 + 1 + 3); ``yellow_then_red`` counts a yellow
    followed by a direct red of the same player (4). A kind the points do not list counts
    nothing. A match log does not tell a team official's card from a player's, so all count.
    """
    rules = ruleset.ranking.fair_play
    if rules is None:
        return {}
    points = rules.cards
    by_player: dict[tuple[str, str], Counter[str]] = {}
    totals: dict[str, int] = {}
    for team, player, kind in cards:
        totals.setdefault(team, 0)
        if player is None:  # nobody to pair it with: counted on its own
            totals[team] += points.get(kind, 0)
        else:
            by_player.setdefault((team, player), Counter())[kind] += 1
    for (team, _), kinds in by_player.items():
        for name, award in ruleset.penalties.kinds.items():
            red, after = award.escalates_to, award.escalates_after
            if red is None or after == 0:
                continue
            second, then_red = f"second_{name}", f"{name}_then_{red}"
            while second in points and kinds[name] >= after and kinds[red] >= 1:
                totals[team] += points[second]
                kinds[name] -= after
                kinds[red] -= 1
            while then_red in points and kinds[name] >= 1 and kinds[red] >= 1:
                totals[team] += points[then_red]
                kinds[name] -= 1
                kinds[red] -= 1
        totals[team] += sum(points.get(kind, 0) * n for kind, n in kinds.items())
    return totals
