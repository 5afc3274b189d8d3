"""Desk input (an HTML form or an API body) into desk commands, each field checked with a clear reason."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from rules.standings import Decision, MatchResult
from rules.standings.results import OUTCOMES, Outcome
from standings.web.errors import FormError
from standings.web.inputs import CorrectResult, DeskCommand, MoveMatch, RecordDecision, RuleSanction, SettleConflict
from standings.web.view import MatchRow, View

Fields = Mapping[str, Any]

# Seed 004 (ice hockey): the order the organiser considers a game that could not be finished.
ABANDONED_ORDER = (
    ("resume", "game resumed at a later time"),
    ("replay", "game played at a later time"),
    ("leader", "leading team considered the winner"),
    ("tie", "game determined a tie"),
)


def text(fields: Fields, key: str, *, required: bool = True) -> str:
    value = fields.get(key)
    value = "" if value is None else str(value).strip()
    if required and not value:
        raise FormError(key, "is required")
    if len(value) > 500:
        raise FormError(key, "is longer than 500 characters")
    return value


def goals(fields: Fields, key: str, *, required: bool = True) -> int | None:
    raw = fields.get(key)
    if raw is None or str(raw).strip() == "":
        if required:
            raise FormError(key, "is required (a whole number of goals)")
        return None
    value = str(raw).strip()
    if not value.isdigit() or len(value) > 3:
        raise FormError(key, f"{value!r} is not a whole number of goals")
    return int(value)


def why(fields: Fields) -> str:
    return text(fields, "why")


def number(fields: Fields, key: str) -> int:
    value = text(fields, key)
    if not value.isdigit():
        raise FormError(key, f"{value!r} is not a match number")
    return int(value)


def row_of(view: View, n: int) -> MatchRow:
    row = view.by_number.get(n)
    if row is None:
        raise FormError("match", f"there is no match {n}")
    return row


def open_for_results(view: View, n: int) -> MatchRow:
    """The match, if its result may still change: its teams are known and no protest window has closed."""
    row = row_of(view, n)
    if not (row.home_known and row.away_known):
        raise FormError("match", f"match {n}'s teams are not known yet ({row.home} v {row.away})")
    closed = view.closed(n)
    if closed is not None:
        raise FormError("match", closed)
    return row


def result_command(view: View, who: str, n: int, fields: Fields) -> CorrectResult:
    row = open_for_results(view, n)
    outcome = text(fields, "outcome", required=False) or "regular"
    if outcome not in OUTCOMES or outcome in ("walkover", "forfeit"):
        raise FormError("outcome", f"{outcome!r} is not one of regular, overtime, shootout")
    home, away = goals(fields, "home_goals"), goals(fields, "away_goals")
    assert home is not None and away is not None
    hs = goals(fields, "home_shootout", required=outcome == "shootout")
    as_ = goals(fields, "away_shootout", required=outcome == "shootout")
    if outcome != "shootout":
        hs = as_ = None
    result = MatchResult(
        pool=row.stage, home=row.home, away=row.away, home_goals=home, away_goals=away,
        outcome=_outcome(outcome), home_shootout=hs, away_shootout=as_,
    )
    return CorrectResult(who=who, why=why(fields), number=n, result=result, settles=_report(view, n),
                         confirmed=confirmed(fields))


def walkover_command(view: View, who: str, n: int, fields: Fields) -> CorrectResult:
    row = open_for_results(view, n)
    kind = text(fields, "kind")
    if kind not in ("walkover", "forfeit"):
        raise FormError("kind", f"{kind!r} is not walkover or forfeit")
    winner = text(fields, "winner")
    if winner not in (row.home, row.away):
        raise FormError("winner", f"{winner!r} does not play match {n} ({row.home} v {row.away})")
    result = MatchResult(
        pool=row.stage, home=row.home, away=row.away, home_goals=0, away_goals=0, outcome=_outcome(kind), winner=winner
    )
    return CorrectResult(who=who, why=why(fields), number=n, result=result, note=kind, settles=_report(view, n),
                         confirmed=confirmed(fields))


def abandoned_command(view: View, who: str, n: int, fields: Fields) -> DeskCommand:
    row = row_of(view, n)
    choice = text(fields, "settle")
    labels = dict(ABANDONED_ORDER)
    if choice not in labels:
        raise FormError("settle", f"{choice!r} is not one of {', '.join(labels)}")
    reason = f"abandoned, {labels[choice]}: {why(fields)}"
    settles = _report(view, n)
    if choice in ("resume", "replay"):
        return MoveMatch(who=who, why=reason, number=n, court=text(fields, "court"), start=when(fields, "start"),
                         settles=settles, continues="resume" if choice == "resume" else "replay")
    open_for_results(view, n)
    home, away = goals(fields, "home_goals"), goals(fields, "away_goals")
    assert home is not None and away is not None
    if choice == "leader" and home == away:
        raise FormError("home_goals", f"no team leads at {home}-{away}; the next in the order is a tie")
    if choice == "tie" and home != away:
        raise FormError("home_goals", f"a tie is level, not {home}-{away}")
    result = MatchResult(pool=row.stage, home=row.home, away=row.away, home_goals=home, away_goals=away)
    return CorrectResult(who=who, why=reason, number=n, result=result, note=f"abandoned: {labels[choice]}",
                         settles=settles, confirmed=confirmed(fields))


def confirmed(fields: Fields) -> bool:
    """The organiser confirmed a change after being told what it changes downstream (form "1", API true)."""
    return fields.get("confirm") in ("1", True)


def when(fields: Fields, key: str) -> datetime:
    value = text(fields, key)
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise FormError(key, f"{value!r} is not a date and time like 2026-05-16T14:30") from None


def move_command(view: View, who: str, n: int, fields: Fields) -> MoveMatch:
    row_of(view, n)
    return MoveMatch(who=who, why=why(fields), number=n, court=text(fields, "court"), start=when(fields, "start"))


def decision_command(view: View, who: str, fields: Fields) -> RecordDecision:
    pool = text(fields, "pool")
    method = text(fields, "method")
    order = fields.get("order")
    teams = [t.strip() for t in (order if isinstance(order, list) else str(order or "").split(">")) if t.strip()]
    tie = next((u for u in view.unresolved() if u.pool == pool and set(u.teams) == set(teams)), None)
    played, expected = view.pool_played(pool)
    if tie is None and pool in view.pools and played < expected:
        raise FormError("pool", f"pool {pool} has played {played} of its {expected} matches: a tie is decided "
                                "once its last match is played")
    if tie is None:
        raise FormError("order", f"pool {pool} has no open tie of exactly {', '.join(teams) or 'these teams'}")
    return RecordDecision(who=who, why=why(fields), decision=Decision(pool=pool, method=method, order=tuple(teams)))


def conflict_command(view: View, who: str, conflict: str, fields: Fields) -> SettleConflict:
    keep = text(fields, "keep")
    if keep not in ("stored", "held"):
        raise FormError("keep", f"{keep!r} is not stored or held")
    held = next((c for c in view.data.conflicts if c.id == conflict), None)
    closed = view.closed(held.number) if held is not None and keep == "held" else None
    if closed is not None:  # keeping the stored result changes nothing and may still be recorded
        raise FormError("keep", closed)
    return SettleConflict(who=who, why=why(fields), conflict=conflict, keep="held" if keep == "held" else "stored")


def sanction_command(who: str, fields: Fields) -> RuleSanction:
    matches = goals(fields, "matches")
    assert matches is not None
    return RuleSanction(
        who=who, why=why(fields), number=number(fields, "number"), team=text(fields, "team"),
        player=text(fields, "player"), matches=matches,
    )


def _report(view: View, n: int) -> str:
    """The table's open report that match ``n`` was abandoned: a result entered for the match any way
    (the abandoned form, a plain result, a walk-over) settles it."""
    report = view.abandoned(n)
    return report.id if report is not None else ""


def _outcome(value: str) -> Outcome:
    for o in OUTCOMES:
        if o == value:
            return o
    raise FormError("outcome", f"{value!r} is not an outcome")
