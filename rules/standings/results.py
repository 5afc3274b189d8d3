"""Match results as the standings read them, and the CSV file they come from.

The results file is CSV with a header. Required columns: ``pool``, ``home``,
``away``, ``home_goals``, ``away_goals``; optional ``outcome``, ``winner``,
``home_shootout``, ``away_shootout``. A bad row is refused with the file, the
line and the reason, so the organiser can fix it at the table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import Literal

from rules.errors import ResultsError
from rules.record import Record
from rules.standings.csvfile import cell, csv_rows, name_problem

Outcome = Literal["regular", "overtime", "shootout", "walkover", "forfeit"]
OUTCOMES: tuple[Outcome, ...] = ("regular", "overtime", "shootout", "walkover", "forfeit")

REQUIRED_COLUMNS = ("pool", "home", "away", "home_goals", "away_goals")
OPTIONAL_COLUMNS = ("outcome", "winner", "home_shootout", "away_shootout")

_WHOLE = re.compile(r"[0-9]+")

MAX_GOALS = 150
"""Goals a side in one match: the highest score on record in a football match is 149-0."""
MAX_SHOOTOUT_GOALS = 50
"""Shoot-out goals a side: the longest shoot-outs on record went past 20 kicks each, never near 50."""
_LIMITS = {"home_shootout": MAX_SHOOTOUT_GOALS, "away_shootout": MAX_SHOOTOUT_GOALS}


class MatchResult(Record):
    """One finished match of a pool.

    ``home_goals``/``away_goals`` are the score after regular time and any
    overtime; shoot-out goals live apart in ``home_shootout``/``away_shootout``
    because they never count in goal totals. For a walkover or forfeit,
    ``winner`` names the team awarded the match and a 0-0 score means "not
    entered": the ruleset's walkover/forfeit score applies.
    """

    pool: str
    home: str
    away: str
    home_goals: int
    away_goals: int
    outcome: Outcome = "regular"
    winner: str | None = None
    home_shootout: int | None = None
    away_shootout: int | None = None

    @property
    def teams(self) -> tuple[str, str]:
        return (self.home, self.away)


def result_problem(result: MatchResult) -> str | None:
    """Why ``result`` cannot be a real match, or None when it can."""
    r = result
    if not r.pool:
        return "the pool is empty"
    if not r.home or not r.away:
        return "a team name is empty"
    for what, name in (("pool", r.pool), ("team", r.home), ("team", r.away), ("winner", r.winner or "")):
        problem = name_problem(name, what)
        if problem is not None:
            return problem
    for what, goals, most in (
        ("home_goals", r.home_goals, MAX_GOALS),
        ("away_goals", r.away_goals, MAX_GOALS),
        ("home_shootout", r.home_shootout or 0, MAX_SHOOTOUT_GOALS),
        ("away_shootout", r.away_shootout or 0, MAX_SHOOTOUT_GOALS),
    ):
        if goals > most:
            return f"{what} is {goals}; no match has more than {most}"
    if r.home == r.away:
        return f"{r.home!r} cannot play itself"
    if r.outcome not in OUTCOMES:
        return f"outcome {r.outcome!r} is not one of {', '.join(OUTCOMES)}"
    if r.home_goals < 0 or r.away_goals < 0:
        return "goals cannot be negative"
    has_shootout = r.home_shootout is not None or r.away_shootout is not None
    if r.outcome == "shootout":
        if r.home_shootout is None or r.away_shootout is None:
            return "a shoot-out result needs home_shootout and away_shootout"
        if r.home_shootout < 0 or r.away_shootout < 0:
            return "shoot-out goals cannot be negative"
        if r.home_goals != r.away_goals:
            return f"a shoot-out follows a level match, but the score is {r.home_goals}-{r.away_goals}"
        if r.home_shootout == r.away_shootout:
            return f"a shoot-out has a winner, but it is {r.home_shootout}-{r.away_shootout}"
    elif has_shootout:
        return f"shoot-out goals are given but the outcome is {r.outcome!r}, not 'shootout'"
    if r.outcome == "overtime" and r.home_goals == r.away_goals:
        return f"a match decided in overtime has a winner, but the score is {r.home_goals}-{r.away_goals}"
    if r.outcome in ("walkover", "forfeit"):
        if r.winner not in r.teams:
            return f"a {r.outcome} needs the winner column to name {r.home!r} or {r.away!r}"
        entered = (r.home_goals, r.away_goals) != (0, 0)
        winner_goals, loser_goals = (
            (r.home_goals, r.away_goals) if r.winner == r.home else (r.away_goals, r.home_goals)
        )
        if entered and winner_goals <= loser_goals:
            return f"the score {r.home_goals}-{r.away_goals} does not favour the {r.outcome} winner {r.winner!r}"
    elif r.winner is not None:
        derived = _played_winner(r)
        if derived != r.winner:
            said = "a draw" if derived is None else f"won by {derived!r}"
            return f"winner says {r.winner!r} but the score makes it {said}"
    return None


def _played_winner(r: MatchResult) -> str | None:
    if r.outcome == "shootout" and r.home_shootout is not None and r.away_shootout is not None:
        home_ahead = r.home_shootout > r.away_shootout
    elif r.home_goals == r.away_goals:
        return None
    else:
        home_ahead = r.home_goals > r.away_goals
    return r.home if home_ahead else r.away


def match_winner(result: MatchResult) -> str | None:
    """The team that won ``result`` (None = a draw); shoot-outs decide level matches."""
    if result.outcome in ("walkover", "forfeit"):
        return result.winner
    return _played_winner(result)


def _count(text: str, column: str, source: str, line: int, *, required: bool) -> int | None:
    if text == "":
        if required:
            raise ResultsError(source, line, f"{column} is empty; it must be a whole number >= 0")
        return None
    if not _WHOLE.fullmatch(text):
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise ResultsError(source, line, f"{column} is {shown!r}; it must be a whole number >= 0")
    most = _LIMITS.get(column, MAX_GOALS)
    if len(text) > len(str(most)) or int(text) > most:  # the length first: int() of 5,000 digits is refused
        shown = text if len(text) <= 20 else f"a number of {len(text)} digits"
        raise ResultsError(source, line, f"{column} is {shown}; no match has more than {most}")
    return int(text)


def parse_results_csv(
    text: str,
    source: str,
    *,
    meetings: int | None = None,
    level_allowed: bool = True,
    check: Callable[[MatchResult], str | None] | None = None,
    pools: Collection[str] | None = None,
    others: Collection[str] = (),
) -> list[MatchResult]:
    """Read a results file; ``source`` names it in errors.

    With ``meetings`` (the ruleset's ``ranking.meetings``) a pairing entered more
    often than two teams meet in a pool is refused at the line that repeats it.
    With ``level_allowed`` False (a ruleset whose pool matches cannot end level,
    IIHF's) a level regular-time score is refused: it is a match whose overtime or
    shoot-out was not entered, and scoring it as a draw would give wrong points.
    ``check`` says why a result cannot be (e.g. :func:`rules.standings.possible.impossible`
    for the ruleset's pool matches); it is refused at its line. With ``pools`` only the rows of those pools are
    read (a cup's results file holds every class's, each class by its own ruleset): a row of ``others`` (the
    cup's other stages) is left out unchecked, a row of a stage in neither is refused.
    """
    numbered = read_results_csv(text, source, meetings=meetings, level_allowed=level_allowed, check=check,
                                pools=pools, others=others)
    return [result for _, result in numbered]


def read_results_csv(
    text: str,
    source: str,
    *,
    meetings: int | None = None,
    level_allowed: bool = True,
    check: Callable[[MatchResult], str | None] | None = None,
    pools: Collection[str] | None = None,
    others: Collection[str] = (),
) -> list[tuple[int, MatchResult]]:
    """Read a results file as :func:`parse_results_csv` does, each result with its line for later errors."""
    results: list[tuple[int, MatchResult]] = []
    seen: dict[tuple[str, frozenset[str]], list[int]] = {}
    for line, cells in csv_rows(text, source, REQUIRED_COLUMNS, OPTIONAL_COLUMNS):
        if pools is not None and cell(cells, "pool") not in pools:
            if cell(cells, "pool") in others:
                continue
            raise ResultsError(source, line, f"pool {cell(cells, 'pool')!r} is not one of this class's pools "
                                             f"({', '.join(sorted(pools))}) nor another class's stage")
        outcome = cell(cells, "outcome").lower() or "regular"  # "Walkover" typed in a spreadsheet
        if outcome not in OUTCOMES:
            raise ResultsError(source, line, f"outcome {outcome!r} is not one of {', '.join(OUTCOMES)}")
        awarded = outcome in ("walkover", "forfeit")
        home_goals = _count(cell(cells, "home_goals"), "home_goals", source, line, required=not awarded) or 0
        away_goals = _count(cell(cells, "away_goals"), "away_goals", source, line, required=not awarded) or 0
        result = MatchResult(
            pool=cell(cells, "pool"),
            home=cell(cells, "home"),
            away=cell(cells, "away"),
            home_goals=home_goals,
            away_goals=away_goals,
            outcome=outcome,
            winner=cell(cells, "winner") or None,
            home_shootout=_count(cell(cells, "home_shootout"), "home_shootout", source, line, required=False),
            away_shootout=_count(cell(cells, "away_shootout"), "away_shootout", source, line, required=False),
        )
        problem = result_problem(result) or (check(result) if check is not None else None)
        if problem is not None:
            raise ResultsError(source, line, problem)
        if not level_allowed and outcome == "regular" and result.home_goals == result.away_goals:
            raise ResultsError(
                source,
                line,
                f"{result.home} v {result.away} is level {result.home_goals}-{result.away_goals}, but pool matches "
                "cannot end level under this ruleset (match.level_allowed_in); enter the overtime or shoot-out "
                "result (outcome overtime or shootout)",
            )
        pairing = (result.pool, frozenset(result.teams))
        earlier = seen.setdefault(pairing, [])
        if meetings is not None and len(earlier) >= meetings:
            times = "once" if meetings == 1 else f"{meetings} times"
            raise ResultsError(
                source,
                line,
                f"{result.home} v {result.away} in pool {result.pool} is already on line "
                f"{', '.join(map(str, earlier))}; two teams meet {times} in a pool under this ruleset "
                f"(ranking.meetings = {meetings})",
            )
        earlier.append(line)
        results.append((line, result))
    return results
