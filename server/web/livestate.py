"""A court's live board as the pages draw it: the table's :class:`rules.live.LiveBoard`, the instant it
arrived, and its words (period, clock, each penalty's time) made once when a region is rendered.

The templates read only these typed fields (tests/test_web_livestate.py fails on a name they lack); the
clock in the HTML is already carried to the instant of rendering by :func:`rules.live.clock_at`, and
live.js carries it on from there by the same rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from rules import LiveBoard, LivePenalty, board_period_text, format_clock


@dataclass(frozen=True, slots=True)
class PenaltyLine:
    penalty: LivePenalty
    left_ms: int | None  # at the instant of rendering; None: to the end of the match
    left_text: str  # "1:35", or "" for one that runs to the end of the match
    runs: bool  # its time runs on in the browser


@dataclass(frozen=True, slots=True)
class CourtLive:
    board: LiveBoard
    number: int | None  # the match number the board names
    at: int  # epoch ms the board was received (the browser runs the clocks on from it)
    clock_ms: int  # the board's clock as published (live.js's data-ms)
    clock_text: str  # at the instant of rendering
    period_text: str  # "half 2", "extra time 1", "penalty shoot-out", in the page's language
    runs: bool  # the match clock runs on in the browser
    penalties: tuple[PenaltyLine, ...]


def court_live(board: LiveBoard, received: datetime, now: datetime, gettext: Callable[[str], str]) -> CourtLive:
    gone = max(0, int((now - received).total_seconds() * 1000))
    lines = []
    for p in board.penalties:
        left = board.penalty_left(p, gone)
        runs = left is not None and board.running and board.phase == "play" and not p.waiting
        lines.append(PenaltyLine(penalty=p, left_ms=left, runs=runs,
                                 left_text="" if left is None else format_clock(left, tenths=False, down=True)))
    number = int(board.match) if board.match is not None and board.match.isdigit() else None
    return CourtLive(board=board, number=number, at=int(received.timestamp() * 1000), clock_ms=board.clock_ms,
                     clock_text=board.clock_text(gone), period_text=board_period_text(board, gettext),
                     runs=board.running and board.phase == "play", penalties=tuple(lines))
