"""The whole log of a match as its table recorded it, for the desk (issue 33): every event with its sequence, when
it was pressed in the match's time and when it reached the service, undone ones and the undos included, so an
organiser settling a protest reads what the table recorded and not only what counts (rules.match.timeline)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from rules import CourtsideError, Match, Ruleset, StageKind, event_from_dict, format_clock
from server.db.models import EventRow
from server.store import Store


@dataclass(frozen=True)
class LogLine:
    seq: int
    type: str  # the event's type as journaled ("goal", "penalty_awarded", "undo" ...)
    what: str  # its fields in words: "home #13", "away #91 minor", "seq 7"
    pressed: str  # the match's time at the press (M:SS from the first press: the table's own clock)
    received: datetime  # when the service stored it (UTC)
    court: str
    undone: bool  # an undo (in force) took it back


def match_log(store: Store, match_id: str, ruleset: Ruleset, stage: StageKind, round: str,
              teams: tuple[str, str]) -> list[LogLine]:
    """Every stored event of ``match_id`` in the order of its sequence; ``teams`` names the sides."""
    with store.session() as s:
        rows = list(s.scalars(select(EventRow).where(EventRow.match_id == match_id).order_by(EventRow.seq)))
    undone: set[int] = set()
    try:
        match = Match.replay(ruleset, [event_from_dict(dict(r.body), f"match {match_id}") for r in rows],
                             stage=stage, round=round)
        undone = {r.seq for r in rows if match.is_undone(r.seq)}
    except CourtsideError:
        pass  # shown as stored; the service took only what replayed, so this is an older version's log
    return [LogLine(seq=r.seq, type=r.type, what=_what(r.body, teams), pressed=format_clock(
        max(0, r.at), tenths=False, down=False), received=r.received_at, court=r.court, undone=r.seq in undone)
        for r in rows]


def _what(body: dict[str, Any], teams: tuple[str, str]) -> str:
    parts = []
    if body.get("team") in ("home", "away"):
        parts.append(teams[0] if body["team"] == "home" else teams[1])
    if body.get("player"):
        parts.append(f"#{body['player']}")
    for key in ("kind", "name", "reason"):
        if body.get(key):
            parts.append(str(body[key]))
    if "scored" in body:
        parts.append("scored" if body["scored"] else "missed")
    if "target" in body:
        parts.append(f"seq {body['target']}")
    for key in ("length", "remaining", "clock"):
        if isinstance(body.get(key), int):
            parts.append(f"{key} {format_clock(body[key], tenths=False, down=False)}")
    if "home" in body and "away" in body and body.get("type") == "score_corrected":
        parts.append(f"{body['home']}-{body['away']}")
    return " ".join(parts)
