"""What a ruleset declares: frozen records, each field with its bounds.

Checked by :mod:`rules.schema` when a file is read (:func:`rules.ruleset.parse_ruleset`);
importing this module costs nothing beyond the standard library, so the table's start
does not pay for a validation library. Every number has a bound no real tournament
reaches (docs/rulesets/README.md lists them): a typo of ``periods = 20000`` is refused
rather than run.
"""

from __future__ import annotations

from typing import Annotated, Literal

from rules.record import Record, field
from rules.schema import Before, Bounds, Size, seconds_to_ms

Millis = Annotated[int, Before(seconds_to_ms), Bounds(0, 86_400_000)]
"""A duration in whole milliseconds (written in TOML as seconds or "M:SS"); at most a day."""

Count = Annotated[int, Bounds(0, 100)]
"""A count of goals, points, matches or players: no ruleset needs more than 100."""

Label = Annotated[str, Size(1, 100)]

StageKind = Literal["round_robin", "knockout"]

Criterion = Literal[
    "points",
    "wins",
    "goal_difference",
    "goals_for",
    "away_goals",
    "away_wins",
    "head_to_head",
    "head_to_head_goal_difference",
    "head_to_head_goals_for",
    "head_to_head_table",
    "versus_best_outside",
    "bl_9_6_3",
    "fair_play",
    "lots",
    "penalty_competition",
]
"""Ranking criteria, each a building block; see rules.standings.criteria."""

DECISION_CRITERIA = ("lots", "penalty_competition")
"""Criteria the results cannot decide: the organiser's decision is an input."""

DEFAULT_ROUNDS: dict[str, StageKind] = {
    "pool": "round_robin",
    "round_of_32": "knockout",
    "round_of_16": "knockout",
    "quarter_final": "knockout",
    "semi_final": "knockout",
    "playoff": "knockout",
    "placement": "knockout",
    "final_placement": "knockout",
    "third_place": "knockout",
    "final": "knockout",
}
"""The round names a ruleset knows unless it lists its own under ``[rounds]``, each with its stage."""

class Settings(Record):
    """Base of the ruleset's parts: frozen records (``replace(**changes)`` gives a changed copy)."""


class Overtime(Settings):
    """Extra time played when a match that needs a winner ends level."""

    kind: Literal["golden_goal", "full"]
    periods: Annotated[int, Bounds(1, 10)]
    period_length: Millis
    interval_before: Millis = 0
    interval_between: Millis = 0


class Shootout(Settings):
    """A shoot-out / penalty competition deciding a level match.

    ``rounds`` are successive stages counted cumulatively: ``[3, 5]`` means three
    shots each, then (if still level) up to five each, then sudden death when
    ``sudden_death`` is set. Each stage ends as soon as one side cannot catch up.
    """

    rounds: Annotated[list[Annotated[int, Bounds(1, 50)]], Size(1, 10)]
    name: Label = "shoot-out"
    sudden_death: bool = True

    def _check(self) -> None:
        if any(b <= a for a, b in zip(self.rounds, self.rounds[1:], strict=False)):
            raise ValueError("rounds must grow: each stage counts the shots taken so far")


class PossessionClock(Settings):
    """Water polo's shot clock: ``length`` fresh, ``reset_length`` after a corner or exclusion."""

    length: Millis
    reset_length: Millis


class MatchFormat(Settings):
    periods: Annotated[int, Bounds(1, 10)]
    period_length: Millis
    period_name: Label = "period"
    intervals: list[Millis] = field(default_factory=list)
    clock_direction: Literal["down", "up"] = "down"
    stopped_time: bool = False
    # With a stopped clock, about how long it stands still in each period (whistles, goals): the floor a tournament's
    # slot is checked against (rules.tournament.checks.shortest_match). An estimate, kept low on purpose.
    stoppages: Millis = 0
    wall_clock_cap: Millis | None = None
    tenths_below: Millis = 60_000
    # Players a side on the field at full strength (goalkeeper included where the
    # sport counts it so); None when the rules leave it open. Shown as "5 v 4".
    on_field: Annotated[int, Bounds(1, 30)] | None = None
    late_press_grace: Annotated[int, Before(seconds_to_ms), Bounds(0, 60_000)] = 3_000
    level_allowed_in: list[StageKind] = field(default_factory=lambda: ["round_robin"])
    set_pieces: list[Label] = field(default_factory=list)
    overtime: Overtime | None = None
    shootout: Shootout | None = None
    possession_clock: PossessionClock | None = None

    def _check(self) -> None:
        if self.period_length <= 0:
            raise ValueError("period_length must be longer than zero")
        if len(self.intervals) != self.periods - 1:
            raise ValueError(
                f"intervals lists {len(self.intervals)} breaks but {self.periods} periods need {self.periods - 1}"
            )
        if "knockout" not in self.level_allowed_in and self.overtime is None and self.shootout is None:
            raise ValueError("knock-out matches cannot end level, so an overtime or a shootout is needed")
        if self.overtime is not None and self.overtime.period_length <= 0:
            raise ValueError("overtime.period_length must be longer than zero")


class Timeouts(Settings):
    per_team: Annotated[int, Bounds(0, 10)] = 0
    per: Literal["half", "period", "match"] = "match"
    carry_over: bool = False
    in_overtime: Annotated[int, Bounds(0, 10)] = 0
    length: Millis = 60_000
    only_in_rounds: list[Label] | None = None
    not_during: list[Label] = field(default_factory=list)


class PenaltyKind(Settings):
    label: Label
    short: Annotated[str, Size(0, 10)] = ""
    length: Millis | None = None
    minimum: bool = False
    reduces_strength: bool = True
    ends_on_goal: Literal["never", "against", "any"] = "never"
    operator_may_end: bool = False
    player_out_for_match: bool = False
    suspended_next_matches: Count = 0
    report_to_organisers: bool = False
    escalates_to: Label | None = None
    escalates_after: Annotated[int, Bounds(0, 20)] = 0

    def _check(self) -> None:
        if self.length is None and not self.player_out_for_match:
            raise ValueError("a penalty without a length must put the player out for the match")
        if self.minimum and not self.length:
            raise ValueError("only a penalty with a length can be a minimum")
        if (self.escalates_to is None) != (self.escalates_after == 0):
            raise ValueError("escalates_to and escalates_after go together")


class Penalties(Settings):
    max_reducing_per_team: Annotated[int, Bounds(1, 30)] | None = None
    coincidental_cancel: bool = False
    kinds: dict[str, PenaltyKind] = field(default_factory=dict)

    def _check(self) -> None:
        for key, kind in self.kinds.items():
            if kind.escalates_to is not None and kind.escalates_to not in self.kinds:
                raise ValueError(f"kinds.{key}.escalates_to names {kind.escalates_to!r}, which is not a penalty kind")


class LossBand(Settings):
    """A loss by at most ``max_margin`` goals earns ``points``."""

    max_margin: Annotated[int, Bounds(1, 100)]
    points: Count


Score = tuple[Count, Count]


class Points(Settings):
    win: Count
    draw: Count
    loss: Count = 0
    loss_bands: list[LossBand] = field(default_factory=list)
    overtime_win: Count | None = None
    overtime_loss: Count | None = None
    shootout_win: Count | None = None
    shootout_loss: Count | None = None
    # IIHF: the winner of a game decided by game-winning shots is credited with one goal in the
    # final score (so in goals for/against and goal difference).
    shootout_winner_goal: bool = False
    walkover_score: Score = (3, 0)
    forfeit_score: Score = (5, 0)
    walkover_loser_points: Count = 0
    forfeit_loser_points: Count = 0

    def _check(self) -> None:
        if not self.loss <= self.draw <= self.win:
            raise ValueError(
                f"points must satisfy loss <= draw <= win (loss {self.loss}, draw {self.draw}, win {self.win})"
            )
        for band in self.loss_bands:
            if not self.loss <= band.points <= self.draw:
                raise ValueError(
                    f"a loss by at most {band.max_margin} is worth {band.points}, more than a draw ({self.draw})"
                    if band.points > self.draw
                    else f"a loss by at most {band.max_margin} is worth less than any loss"
                )
        for win_key, loss_key in (("overtime_win", "overtime_loss"), ("shootout_win", "shootout_loss")):
            w, lo = getattr(self, win_key), getattr(self, loss_key)
            if w is not None and lo is not None and lo > w:
                raise ValueError(f"{loss_key} ({lo}) is worth more than {win_key} ({w})")
        for key in ("walkover_score", "forfeit_score"):
            winner, loser = getattr(self, key)
            if winner <= loser:
                raise ValueError(f"{key} is [winner goals, loser goals] with winner > loser >= 0")
        for key in ("walkover_loser_points", "forfeit_loser_points"):
            if getattr(self, key) > self.draw:
                raise ValueError(f"{key} is worth more than a draw")

    def for_loss(self, margin: int) -> int:
        """Points for a regular-time loss by ``margin`` goals (margin >= 1)."""
        best = self.loss
        for band in self.loss_bands:
            if margin <= band.max_margin:
                best = max(best, band.points)
        return best


MutualCount = Literal["points", "points_goal_difference_goals"]
"""What ``head_to_head`` counts in the games among the tied teams: their points only, or points,
then goal difference, then goals scored (one mini-table)."""


class FairPlay(Settings):
    """Disciplinary (fair-play) points, lower ranks higher: points for each card kind, and whether
    cards shown to team officials count (UEFA EURO 2024 art. 20.01 h: they do)."""

    cards: Annotated[dict[str, Count], Size(1, 20)]
    officials: bool = True


class RankingRules(Settings):
    criteria: Annotated[list[Criterion], Size(1, 20)]
    tie_mode: Literal["uefa", "once", "restart", "top_team"] = "uefa"
    mutual: MutualCount = "points"
    fair_play: FairPlay | None = None
    # How often two teams meet in a pool (2 = double round robin): a results file
    # with more meetings than this has a pairing entered twice, so it is refused.
    meetings: Annotated[int, Bounds(1, 10)] = 1
    note: str = ""

    def _check(self) -> None:
        if len(set(self.criteria)) != len(self.criteria):
            raise ValueError("a criterion is listed twice")
        spelt = [c for c in ("head_to_head_goal_difference", "head_to_head_goals_for") if c in self.criteria]
        if self.mutual != "points" and spelt:
            raise ValueError(
                f"mutual = {self.mutual!r} already counts goal difference and goals in the games among the tied "
                f"teams; {', '.join(map(repr, spelt))} would count them again (use mutual = 'points' or drop them)"
            )
        if ("fair_play" in self.criteria) != (self.fair_play is not None):
            raise ValueError("'fair_play' in the criteria needs a [ranking.fair_play] table (points for each card "
                             "kind), and the table needs the criterion")
        for name in DECISION_CRITERIA:
            if name in self.criteria and self.criteria.index(name) != len(self.criteria) - 1:
                later = self.criteria[self.criteria.index(name) + 1 :]
                if any(c not in DECISION_CRITERIA for c in later):
                    raise ValueError(
                        f"{name!r} needs an organiser's decision and must come after every criterion results can decide"
                    )


class Ruleset(Settings):
    name: Label
    sport: Label
    match: MatchFormat
    points: Points
    ranking: RankingRules
    source: str = ""
    description: str = ""
    timeouts: Timeouts = field(default_factory=Timeouts)
    penalties: Penalties = field(default_factory=Penalties)
    # Round name -> its stage. A tournament's rounds and a match's round must be one of these;
    # rules that depend on the round (time-outs in semi-finals) name them exactly.
    rounds: Annotated[dict[str, StageKind], Size(1, 50)] = field(default_factory=lambda: dict(DEFAULT_ROUNDS))
    # How long after the end a result may be protested; it stays provisional until then (None: it stands at once).
    protest_window: Millis | None = None

    def _check(self) -> None:
        unknown = [r for r in self.timeouts.only_in_rounds or [] if r not in self.rounds]
        if unknown:
            raise ValueError(
                f"timeouts.only_in_rounds names {', '.join(map(repr, unknown))}, not a round of this ruleset "
                f"({', '.join(self.rounds)})"
            )

    def penalty(self, kind: str) -> PenaltyKind:
        try:
            return self.penalties.kinds[kind]
        except KeyError:
            raise LookupError(f"no penalty kind {kind!r} in ruleset {self.name!r}") from None
