"""Time-out allowances: per half, period or match, in extra time, and by round.

A *segment* is the stretch an allowance belongs to: ``"half 1"``, ``"period 3"``,
``"match"`` or ``"overtime"``. Unused time-outs lapse at the end of a segment
unless the ruleset carries them over.
"""

from __future__ import annotations

from rules.errors import IllegalCommand
from rules.match.events import Side
from rules.match.refusals import refuse
from rules.ruleset import Ruleset


def segment(ruleset: Ruleset, period: int) -> str:
    periods = ruleset.match.periods
    if period > periods:
        return "overtime"
    per = ruleset.timeouts.per
    if per == "match":
        return "match"
    if per == "period":
        return f"{ruleset.match.period_name} {period}"
    first_half = (periods + 1) // 2
    return "half 1" if period <= first_half else "half 2"


def _segments(ruleset: Ruleset) -> list[str]:
    order: list[str] = []
    for period in range(1, ruleset.match.periods + 2):
        name = segment(ruleset, period)
        if name not in order:
            order.append(name)
    return order


def allowance(ruleset: Ruleset, round_name: str | None, seg: str) -> int:
    rules = ruleset.timeouts
    if rules.only_in_rounds is not None and round_name not in rules.only_in_rounds:
        return 0
    return rules.in_overtime if seg == "overtime" else rules.per_team


def left(ruleset: Ruleset, round_name: str | None, used: tuple[tuple[Side, str], ...], team: Side, seg: str) -> int:
    """Time-outs the team may still call in segment ``seg``."""
    counted = [seg]
    if ruleset.timeouts.carry_over:  # only then do the earlier segments count (the display asks every frame)
        order = _segments(ruleset)
        counted = order[: order.index(seg) + 1]
    granted = sum(allowance(ruleset, round_name, s) for s in counted)
    spent = sum(1 for t, s in used if t == team and s in counted)
    return max(0, granted - spent)


def refusal(ruleset: Ruleset, round_name: str | None, team: Side, seg: str) -> IllegalCommand:
    """Why a team has no time-out left, in the table official's words."""
    rules = ruleset.timeouts
    if rules.per_team == 0 and rules.in_overtime == 0:
        return refuse("no_timeouts_at_all", ruleset=ruleset.name)
    if rules.only_in_rounds is not None and round_name not in rules.only_in_rounds:
        return refuse("no_timeouts_in_round", round=round_name or "this match", rounds=list(rules.only_in_rounds))
    if seg == "overtime":
        return refuse("no_timeout_left_extra_time", team=team)
    where = {"match": "this match"}.get(seg, f"this {seg.rsplit(' ', 1)[0]}")
    return refuse("no_timeout_left", team=team, segment=where)
