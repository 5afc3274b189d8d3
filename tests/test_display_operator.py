"""display/operator.py: the one compact line a single-screen venue shows of the official's view."""

from __future__ import annotations

from dataclasses import replace

from display.operator import Feedback, OperatorView, compact_line

VIEW = OperatorView(court="Rink", match="7 · Wolves AA v Bears AA", board="period 2 12:34 stopped · Wolves AA 2 - 1 "
                    "Bears AA", penalties=("AWAY #4 Major 4:12",), entering="", next_press="START restarts the clock",
                    feedback=Feedback("done", "Undone: Clock stopped at 12:34 (period 2)"), entered=(), undo="",
                    link="Server: everything sent", link_ok=True, journal="Journal: 40 events on the card",
                    buttons=(), keys=())


def test_what_is_typed_comes_first_then_what_the_table_did_then_the_first_minute_s_hint() -> None:
    typing = replace(VIEW, entering="player #7 - GOAL or PENALTY takes it, UNDO cancels")
    assert compact_line(typing) == typing.entering
    assert compact_line(VIEW) == "Undone: Clock stopped at 12:34 (period 2)"
    assert compact_line(replace(VIEW, feedback=None, first_minute="F11 or ?: the keys and holds")) == \
        "F11 or ?: the keys and holds"
    assert compact_line(replace(VIEW, feedback=None)) == ""
