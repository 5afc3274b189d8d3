"""Rulesets: everything that differs between tournaments, read from TOML.

A ruleset is immutable once loaded. All durations in the model are whole
milliseconds (so sums of clock intervals are exact); in the TOML file a
duration is written either as whole seconds (``20``) or as ``"M:SS"``
(``"20:00"``), whichever reads better for the rule it encodes.

``load_ruleset("indoor-hockey")`` gives a shipped preset; ``load_ruleset(path)``
reads a user's file. A wrong file raises :class:`~rules.errors.RulesetError`
naming the file, the key path and what was expected.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from rules.errors import RulesetError, UnknownRuleset

PRESETS = ("indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey")


def _duration_ms(value: Any) -> Any:
    """Turn ``"M:SS"``, ``"M:SS.t"`` or whole/decimal seconds into milliseconds."""
    if isinstance(value, bool):
        return value  # let the int check reject it
    if isinstance(value, int | float):
        if value < 0:
            raise ValueError("a duration cannot be negative")
        return round(value * 1000)
    if isinstance(value, str):
        minutes, sep, seconds = value.partition(":")
        try:
            total = float(minutes) * 60 + float(seconds) if sep else float(minutes)
        except ValueError:
            raise ValueError(f"expected a duration as seconds or \"M:SS\", got {value!r}") from None
        if total < 0:
            raise ValueError("a duration cannot be negative")
        return round(total * 1000)
    return value


Millis = Annotated[int, BeforeValidator(_duration_ms), Field(ge=0)]
"""A duration in whole milliseconds (written in TOML as seconds or "M:SS")."""

StageKind = Literal["round_robin", "knockout"]

Criterion = Literal[
    "points",
    "wins",
    "goal_difference",
    "goals_for",
    "head_to_head",
    "head_to_head_goal_difference",
    "head_to_head_goals_for",
    "head_to_head_table",
    "versus_best_outside",
    "bl_9_6_3",
    "lots",
    "penalty_competition",
]
"""Ranking criteria, each a building block; see rules.standings.criteria."""

DECISION_CRITERIA = ("lots", "penalty_competition")
"""Criteria the results cannot decide: the organiser's decision is an input."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Overtime(_Model):
    """Extra time played when a match that needs a winner ends level."""

    kind: Literal["golden_goal", "full"]
    periods: int = Field(ge=1)
    period_length: Millis
    interval_before: Millis = 0
    interval_between: Millis = 0


class Shootout(_Model):
    """A shoot-out / penalty competition deciding a level match.

    ``rounds`` are successive stages counted cumulatively: ``[3, 5]`` means three
    shots each, then (if still level) up to five each, then sudden death when
    ``sudden_death`` is set. Each stage ends as soon as one side cannot catch up.
    """

    name: str = "shoot-out"
    rounds: list[Annotated[int, Field(ge=1)]] = Field(min_length=1)
    sudden_death: bool = True

    @model_validator(mode="after")
    def _rounds_grow(self) -> Shootout:
        if any(b <= a for a, b in zip(self.rounds, self.rounds[1:], strict=False)):
            raise ValueError("rounds must grow: each stage counts the shots taken so far")
        return self


class PossessionClock(_Model):
    """Water polo's shot clock: ``length`` fresh, ``reset_length`` after a corner or exclusion."""

    length: Millis
    reset_length: Millis


class MatchFormat(_Model):
    period_name: str = "period"
    periods: int = Field(ge=1)
    period_length: Millis
    intervals: list[Millis] = []
    clock_direction: Literal["down", "up"] = "down"
    stopped_time: bool = False
    wall_clock_cap: Millis | None = None
    tenths_below: Millis = 60_000
    # Players a side on the field at full strength (goalkeeper included where the
    # sport counts it so); None when the rules leave it open. Shown as "5 v 4".
    on_field: int | None = Field(default=None, ge=1)
    late_press_grace: Millis = 3_000
    level_allowed_in: list[StageKind] = ["round_robin"]
    set_pieces: list[str] = []
    overtime: Overtime | None = None
    shootout: Shootout | None = None
    possession_clock: PossessionClock | None = None

    @model_validator(mode="after")
    def _consistent(self) -> MatchFormat:
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
        return self


class Timeouts(_Model):
    per_team: int = Field(default=0, ge=0)
    per: Literal["half", "period", "match"] = "match"
    carry_over: bool = False
    in_overtime: int = Field(default=0, ge=0)
    length: Millis = 60_000
    only_in_rounds: list[str] | None = None
    not_during: list[str] = []


class PenaltyKind(_Model):
    label: str
    short: str = ""
    length: Millis | None = None
    minimum: bool = False
    reduces_strength: bool = True
    ends_on_goal: Literal["never", "against", "any"] = "never"
    operator_may_end: bool = False
    player_out_for_match: bool = False
    suspended_next_matches: int = Field(default=0, ge=0)
    report_to_organisers: bool = False
    escalates_to: str | None = None
    escalates_after: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _consistent(self) -> PenaltyKind:
        if self.length is None and not self.player_out_for_match:
            raise ValueError("a penalty without a length must put the player out for the match")
        if self.minimum and not self.length:
            raise ValueError("only a penalty with a length can be a minimum")
        if (self.escalates_to is None) != (self.escalates_after == 0):
            raise ValueError("escalates_to and escalates_after go together")
        return self


class Penalties(_Model):
    max_reducing_per_team: int | None = Field(default=None, ge=1)
    coincidental_cancel: bool = False
    kinds: dict[str, PenaltyKind] = {}

    @model_validator(mode="after")
    def _escalations_known(self) -> Penalties:
        for key, kind in self.kinds.items():
            if kind.escalates_to is not None and kind.escalates_to not in self.kinds:
                raise ValueError(f"kinds.{key}.escalates_to names {kind.escalates_to!r}, which is not a penalty kind")
        return self


class LossBand(_Model):
    """A loss by at most ``max_margin`` goals earns ``points``."""

    max_margin: int = Field(ge=1)
    points: int = Field(ge=0)


class Points(_Model):
    win: int = Field(ge=0)
    draw: int = Field(ge=0)
    loss: int = Field(default=0, ge=0)
    loss_bands: list[LossBand] = []
    overtime_win: int | None = Field(default=None, ge=0)
    overtime_loss: int | None = Field(default=None, ge=0)
    shootout_win: int | None = Field(default=None, ge=0)
    shootout_loss: int | None = Field(default=None, ge=0)
    walkover_score: tuple[int, int] = Field(default=(3, 0), strict=False)
    forfeit_score: tuple[int, int] = Field(default=(5, 0), strict=False)
    walkover_loser_points: int = Field(default=0, ge=0)
    forfeit_loser_points: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> Points:
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
            if winner < 0 or loser < 0 or winner <= loser:
                raise ValueError(f"{key} is [winner goals, loser goals] with winner > loser >= 0")
        for key in ("walkover_loser_points", "forfeit_loser_points"):
            if getattr(self, key) > self.draw:
                raise ValueError(f"{key} is worth more than a draw")
        return self

    def for_loss(self, margin: int) -> int:
        """Points for a regular-time loss by ``margin`` goals (margin >= 1)."""
        best = self.loss
        for band in self.loss_bands:
            if margin <= band.max_margin:
                best = max(best, band.points)
        return best


class RankingRules(_Model):
    criteria: list[Criterion] = Field(min_length=1)
    tie_mode: Literal["uefa", "restart", "top_team"] = "uefa"
    # How often two teams meet in a pool (2 = double round robin): a results file
    # with more meetings than this has a pairing entered twice, so it is refused.
    meetings: int = Field(default=1, ge=1)
    note: str = ""

    @model_validator(mode="after")
    def _points_first(self) -> RankingRules:
        if len(set(self.criteria)) != len(self.criteria):
            raise ValueError("a criterion is listed twice")
        for name in DECISION_CRITERIA:
            if name in self.criteria and self.criteria.index(name) != len(self.criteria) - 1:
                later = self.criteria[self.criteria.index(name) + 1 :]
                if any(c not in DECISION_CRITERIA for c in later):
                    raise ValueError(
                        f"{name!r} needs an organiser's decision and must come after every criterion results can decide"
                    )
        return self


class Ruleset(_Model):
    name: str
    sport: str
    source: str = ""
    description: str = ""
    match: MatchFormat
    timeouts: Timeouts = Timeouts()
    penalties: Penalties = Penalties()
    points: Points
    ranking: RankingRules

    def penalty(self, kind: str) -> PenaltyKind:
        try:
            return self.penalties.kinds[kind]
        except KeyError:
            raise LookupError(f"no penalty kind {kind!r} in ruleset {self.name!r}") from None


def _key_path(loc: tuple[int | str, ...]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif item.startswith("function-") or item in {"str", "int", "float", "bool", "list", "tuple", "literal"}:
            continue  # pydantic's inner validator names; not keys the user wrote
        else:
            parts.append(("." if parts else "") + item)
    return "".join(parts)


def _problems(err: ValidationError) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    for e in err.errors():
        kind, msg = e["type"], e["msg"]
        if kind == "extra_forbidden":
            msg = "unknown key"
        elif kind == "missing":
            msg = "required key is missing"
        elif kind == "literal_error":
            msg = f"{e['input']!r} is not one of the allowed values ({msg.removeprefix('Input should be ')})"
        elif msg.startswith("Value error, "):
            msg = msg.removeprefix("Value error, ")
        problems.append((_key_path(tuple(e["loc"])), msg))
    return problems


def parse_ruleset(data: dict[str, Any], source: str) -> Ruleset:
    """Validate a decoded TOML document; ``source`` names it in errors."""
    try:
        return Ruleset.model_validate(data)
    except ValidationError as err:
        raise RulesetError(source, _problems(err)) from None


def read_ruleset_file(path: str | Path) -> Ruleset:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise RulesetError(str(path), [("", f"cannot read the file ({err.strerror})")]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RulesetError(str(path), [("", f"not valid TOML: {err}")]) from None
    return parse_ruleset(data, str(path))


def preset_text(name: str) -> str:
    if name not in PRESETS:
        raise UnknownRuleset(f"no preset named {name!r}; presets are: {', '.join(PRESETS)}")
    return resources.files("rules.presets").joinpath(f"{name}.toml").read_text(encoding="utf-8")


def load_ruleset(name_or_path: str | Path) -> Ruleset:
    """A shipped preset by name, or a ruleset file by path."""
    if isinstance(name_or_path, str) and name_or_path in PRESETS:
        return parse_ruleset(tomllib.loads(preset_text(name_or_path)), f"preset {name_or_path}")
    path = Path(name_or_path)
    if not path.exists():
        raise UnknownRuleset(
            f"{name_or_path}: neither a preset ({', '.join(PRESETS)}) nor an existing file"
        )
    return read_ruleset_file(path)
