"""The live board as the pages draw it (server.web.livestate): its words at the instant of rendering, and
the templates reading only fields the types have (a page that read fields only hand-made sample data had
showed no period and no penalty kind to anyone following a real table)."""

from __future__ import annotations

import re
from dataclasses import fields
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from rules.live import LiveBoard, LivePenalty, live_board
from rules.match import ClockStarted, Match, PenaltyAwarded
from rules.ruleset import load_ruleset
from server.web.livestate import CourtLive, PenaltyLine, court_live

TEMPLATES = Path(__file__).resolve().parent.parent / "server" / "web" / "templates"
# The name each template gives a type, and the type.
NAMES: dict[str, type] = {"live": CourtLive, "board": LiveBoard, "line": PenaltyLine, "p": LivePenalty,
                          "penalty": LivePenalty}
# Where the name is something else in a template (a presence row is `p` on a court's card).
OTHER_P = {"regions/courtcard.html", "regions/deskcourts.html"}


def names(cls: type) -> set[str]:
    found = {f.name for f in fields(cls)}
    return found | {n for n in dir(cls) if not n.startswith("_")}


@pytest.mark.parametrize("template", ["regions/court.html", "regions/overlay.html", "regions/courtcard.html"])
def test_the_live_regions_read_only_fields_the_types_have(template: str) -> None:
    text = (TEMPLATES / template).read_text(encoding="utf-8")
    chains = re.findall(r"\b(live|line|p)((?:\.[a-z_]+)+)", text)
    assert chains, "the template draws no live field"
    for head, rest in chains:
        if head == "p" and template in OTHER_P:
            continue
        cls = NAMES[head]
        for part in rest.strip(".").split("."):
            assert part in names(cls), f"{template}: {head}{rest}: {cls.__name__} has no {part!r}"
            kind = next((f.type for f in fields(cls) if f.name == part), None)
            nxt = {"LiveBoard": LiveBoard, "LivePenalty": LivePenalty}.get(str(kind))
            if nxt is None:
                break
            cls = nxt


def test_a_board_is_worded_and_carried_to_the_instant_of_rendering() -> None:
    rules = load_ruleset("ice-hockey")
    match = Match(rules, stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    match.apply(PenaltyAwarded(at=10_000, team="away", kind="major", player="3"))
    if not match.state_at(11_000).running:
        match.apply(ClockStarted(at=11_000))
    board = live_board(match.state_at(71_000), rules, "4")
    received = datetime(2026, 5, 16, 13, 0, 0)
    shown = court_live(board, received, received + timedelta(seconds=5), lambda s: {"period": "perioden"}.get(s, s))
    assert shown.number == 4 and shown.period_text == "perioden 1"
    assert shown.clock_ms == board.clock_ms and shown.runs
    expected_clock = board.clock_ms - 5000 if board.clock_down else board.clock_ms + 5000
    assert shown.clock_text == f"{expected_clock // 60000}:{expected_clock // 1000 % 60:02d}"
    (line,) = shown.penalties
    published = board.penalties[0].remaining_ms
    assert published is not None and 3 * 60_000 < published < 5 * 60_000
    assert line.penalty.short == "5'" and line.runs and line.left_ms == published - 5000
    assert line.left_text == f"{(published - 5000) // 60000}:{-(-(published - 5000) // 1000) % 60:02d}"
