"""What a result is worth: the score that counts, the points, and a team's record.

Decided with the ruleset's ``points`` table:

* regular time: ``win``/``draw``, a loss earns ``Points.for_loss(margin)`` (the
  indoor-hockey margin bands);
* overtime / shoot-out: ``overtime_win``/``overtime_loss`` and
  ``shootout_win``/``shootout_loss``. A setting left out (None) means the match
  scores as if decided in regular time: the winner gets ``win`` and the loser what
  a loss by that margin earns, so the indoor-hockey band ("loss with goal
  difference of no more than 2: 1 point") covers a golden-goal loss and a loss on
  penalty strokes too; an organiser would not give a team beaten on strokes after
  a draw less than one beaten by two goals. A shoot-out loss counts as the
  narrowest loss (margin 1), since the goals that count are level. Without bands
  this is just ``loss``. Either way the match is a win and a loss in the won/lost
  columns, and its goals are the score after regular time and overtime: shoot-out
  goals never count in goal totals (BL 9.6.3.3);
* walkover / forfeit: the winner gets ``win``, the loser
  ``walkover_loser_points``/``forfeit_loser_points``; a score not entered (0-0)
  becomes ``walkover_score``/``forfeit_score``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.errors import ResultsError
from rules.record import Record, field
from rules.ruleset import Ruleset
from rules.standings.results import MatchResult, match_winner, result_problem


class ScoredMatch(Record):
    """A match as the table counts it: goals that count and points earned."""

    home: str
    away: str
    home_goals: int
    away_goals: int
    home_points: int
    away_points: int
    winner: str | None


def winner_of(ruleset: Ruleset, result: MatchResult) -> str | None:
    """The team that won ``result``; None when it ended level.

    A walkover or forfeit is won by its ``winner``; a shoot-out by the side that
    scored more shoot-out goals; anything else by the score.
    """
    problem = result_problem(result)
    if problem is not None:
        raise ResultsError(f"pool {result.pool}", None, f"{result.home} v {result.away}: {problem}")
    return match_winner(result)


def score(ruleset: Ruleset, result: MatchResult) -> ScoredMatch:
    """Goals and points of ``result`` under ``ruleset``."""
    return _scored(ruleset, result, winner_of(ruleset, result))


def _scored(ruleset: Ruleset, result: MatchResult, winner: str | None) -> ScoredMatch:
    """``score`` of a result already checked (result_problem), whose ``winner`` is known."""
    points = ruleset.points
    home_goals, away_goals = result.home_goals, result.away_goals
    margin = max(1, abs(home_goals - away_goals))  # a shoot-out loss is the narrowest loss
    if result.outcome in ("walkover", "forfeit"):
        walkover = result.outcome == "walkover"
        if (home_goals, away_goals) == (0, 0):
            win_goals, lose_goals = points.walkover_score if walkover else points.forfeit_score
            home_goals, away_goals = (win_goals, lose_goals) if winner == result.home else (lose_goals, win_goals)
        win_points = points.win
        lose_points = points.walkover_loser_points if walkover else points.forfeit_loser_points
    elif result.outcome == "overtime":
        win_points = points.win if points.overtime_win is None else points.overtime_win
        lose_points = points.for_loss(margin) if points.overtime_loss is None else points.overtime_loss
    elif result.outcome == "shootout":
        win_points = points.win if points.shootout_win is None else points.shootout_win
        lose_points = points.for_loss(margin) if points.shootout_loss is None else points.shootout_loss
    else:
        win_points = points.win
        lose_points = points.for_loss(margin)
    if result.outcome == "shootout" and points.shootout_winner_goal:
        # IIHF: the game-winning shots' winner is credited with one goal in the final score.
        home_goals, away_goals = (home_goals + 1, away_goals) if winner == result.home else (home_goals, away_goals + 1)
    if winner is None:
        home_points = away_points = points.draw
    elif winner == result.home:
        home_points, away_points = win_points, lose_points
    else:
        home_points, away_points = lose_points, win_points
    return ScoredMatch(
        home=result.home,
        away=result.away,
        home_goals=home_goals,
        away_goals=away_goals,
        home_points=home_points,
        away_points=away_points,
        winner=winner,
    )


class TeamRecord(Record, frozen=False):
    """A team's totals over some of its matches (all of them, or those among a few teams)."""

    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    goals_for: int = 0
    goals_against: int = 0
    points: int = 0
    away_goals: int = 0
    away_won: int = 0

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against

    def add(self, match: ScoredMatch, team: str) -> None:
        home = match.home == team
        self.played += 1
        self.goals_for += match.home_goals if home else match.away_goals
        self.goals_against += match.away_goals if home else match.home_goals
        self.points += match.home_points if home else match.away_points
        if not home:
            self.away_goals += match.away_goals
        if match.winner is None:
            self.drawn += 1
        elif match.winner == team:
            self.won += 1
            self.away_won += not home
        else:
            self.lost += 1


class PoolData(Record):
    """One pool's scored matches, indexed by team, with each team's full record."""

    pool: str
    teams: tuple[str, ...]
    matches: Sequence[ScoredMatch]
    by_team: dict[str, list[ScoredMatch]] = field(default_factory=dict)
    overall: dict[str, TeamRecord] = field(default_factory=dict)

    @classmethod
    def build(cls, ruleset: Ruleset, pool: str, results: Iterable[MatchResult], teams: Sequence[str]) -> PoolData:
        """``results`` checked already (rank_pool checks every result before it scores them: checking each
        again here was a tenth of ranking a pool)."""
        matches = [_scored(ruleset, r, match_winner(r)) for r in results]
        data = cls(pool=pool, teams=tuple(teams), matches=matches, by_team={team: [] for team in teams})
        for match in matches:
            for team in (match.home, match.away):
                data.by_team[team].append(match)
        data.overall.update({team: data.against(team, None) for team in data.teams})  # in place: it reads by_team
        return data

    def against(self, team: str, opponents: frozenset[str] | None) -> TeamRecord:
        """``team``'s record in its matches against ``opponents`` (None: every match)."""
        record = TeamRecord()
        for match in self.by_team[team]:
            other = match.away if match.home == team else match.home
            if opponents is None or other in opponents:
                record.add(match, team)
        return record
