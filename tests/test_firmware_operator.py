"""firmware/operator.py: the official's own view, read at every step of each seed's hardest passage, as an official
learning the table would read it: it says what the last press did and what the next one will do.

Each passage is played on a table with gpiozero's mock pins (tests/firmware_support.py); ``Step`` is one thing the
official does, then what the view must say. Nothing here reads the code's state: only the view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from display.operator import OperatorView, compact_line
from firmware.buttonmap import load_button_map
from firmware.commands import ScheduleUpdate
from firmware.operator import key_lines
from rules.court_schedule import CourtMatch, CourtSchedule
from tests.firmware_support import Board, board


@dataclass(frozen=True)
class Step:
    at: float
    do: str  # "press NAME", "hold NAME" (3.5 s: long enough for every hold), "type DIGITS", "wait"
    said: str = ""  # the feedback line, whole ("" : none asked)
    now: str = ""  # what the next press will do (what is being typed, else the buttons' meaning now), whole
    penalties: tuple[str, ...] | None = None  # the penalties the view lists, when asked


def play(b: Board, steps: Sequence[Step]) -> list[OperatorView]:
    seen = []
    for step in steps:
        b.at(step.at)
        verb, _, arg = step.do.partition(" ")
        if verb == "press":
            b.press(arg)
        elif verb == "hold":
            b.down(arg)
            b.at(step.at + 3.5)
            b.up(arg)
        elif verb == "type":
            b.type(arg)
        view = b.loop.operator_view()
        seen.append(view)
        where = f"{step.at} {step.do}"
        if step.said:
            assert view.feedback is not None and view.feedback.text == step.said, where
        if step.now:
            assert (view.entering or view.next_press) == step.now, where
        if step.penalties is not None:
            assert view.penalties == step.penalties, where
    return seen


def final(b: Board, home: str, away: str) -> None:
    """The service's schedule says this court plays a final next (a knock-out: time-outs, a shoot-out); the
    official loads it as the view says to."""
    the_final = CourtMatch(match="22", number=22, home=home, away=away, stage="F", round="final", kind="knockout",
                           start=None)
    b.loop.queue.put(ScheduleUpdate(schedule=CourtSchedule(court_name="Hall 1", matches=(the_final,))))
    play(b, [Step(0.5, "press next", said="Refused: the match has not started: START starts it; hold MODE to load "
                                         "another match"),
             Step(1, "hold mode", said=f"match 22: {home} v {away}", now="START starts the match")])


RUNNING = "STOP stops the clock; a player's number, then GOAL or PENALTY"
STOPPED = "START restarts the clock; hold NEXT ends the period"


def test_ice_hockey_coincidental_minors_then_a_major_and_a_goal_on_the_power_play(tmp_path: Path) -> None:
    with board(tmp_path, rules="ice-hockey") as b:
        views = play(b, [
            Step(0, "wait", now="START starts the match"),
            Step(1, "press clock_start", said="Clock started at 15:00 (period 1)", now=RUNNING),
            Step(60, "press clock_stop", said="Clock stopped at 14:01 (period 1)", now=STOPPED),
            Step(61, "type 12", now="player #12 - GOAL or PENALTY takes it, UNDO cancels"),
            Step(62, "press penalty_home", now="HOME #12 Minor - MODE: next kind, NEXT confirms, UNDO cancels"),
            Step(63, "press next", said="Penalty Minor to HOME #12 at 14:01 (period 1)", now=STOPPED),
            Step(64, "type 7"),
            Step(65, "press penalty_away", now="AWAY #7 Minor - MODE: next kind, NEXT confirms, UNDO cancels"),
            Step(66, "press next", said="Penalty Minor to AWAY #7 at 14:01 (period 1)",
                 penalties=("HOME #12 Minor 2:00 (coincidental)", "AWAY #7 Minor 2:00 (coincidental)")),
            Step(67, "press clock_start", said="Clock started at 14:01 (period 1)", now=RUNNING),
            Step(200, "press clock_stop", said="Clock stopped at 11:48 (period 1)"),
            Step(201, "type 4"),
            Step(202, "press penalty_away", now="AWAY #4 Minor - MODE: next kind, NEXT confirms, UNDO cancels"),
            Step(203, "press mode", now="AWAY #4 Major - MODE: next kind, NEXT confirms, UNDO cancels"),
            Step(204, "press next", said="Penalty Major to AWAY #4 at 11:48 (period 1)",
                 penalties=("AWAY #4 Major 5:00",)),
            Step(205, "press clock_start", now=RUNNING),
            Step(300, "type 9"),
            Step(301, "press goal_home", said="Goal HOME #9 at 10:12 (period 1)", now=STOPPED),
            # A wrong press and its undo say exactly what went, and what UNDO would take next.
            Step(302, "press timeout_home", said="Refused: the ice-hockey rules allow no time-outs"),
            Step(303, "press undo", said="Undone: Goal HOME #9 at 10:12 (period 1)"),
        ])
        assert views[-1].undo == "UNDO takes back: Clock started at 11:48 (period 1)"
        assert views[-1].entered[:2] == ("Undone: Goal HOME #9 at 10:12 (period 1)", "Goal HOME #9 at 10:12 (period 1)")


def test_water_polo_an_exclusion_its_re_entry_and_a_time_out_in_the_last_minute(tmp_path: Path) -> None:
    with board(tmp_path, rules="water-polo") as b:
        final(b, "Szolnok", "Eger")
        quarters = [Step(10 + 20 * q, "press clock_start", said=f"Clock started at 7:00 (period {q + 1})", now=RUNNING)
                    for q in range(4)]
        ends = [Step(20 + 20 * q, "hold next", said=f"Period ended at 6:50 (period {q + 1})",
                     now="START starts the next period; NEXT ends the interval now") for q in range(3)]
        play(b, [x for pair in zip(quarters, [*ends, Step(70, "wait")], strict=True) for x in pair])
        play(b, [
            Step(430, "press clock_stop", said="Clock stopped at 1:00 (period 4)", now=STOPPED),
            Step(431, "type 5"),
            Step(432, "press penalty_home", now="HOME #5 Exclusion - MODE: next kind, NEXT confirms, UNDO cancels"),
            Step(433, "press next", said="Penalty Exclusion to HOME #5 at 1:00 (period 4)",
                 penalties=("HOME #5 Exclusion 0:20",)),
            Step(434, "press clock_start", said="Clock started at 1:00 (period 4)", now=RUNNING),
            Step(450, "wait", penalties=("HOME #5 Exclusion 0:04",)),
            Step(456, "wait", penalties=()),  # his 20 seconds are over: he re-enters
            Step(460, "press timeout_away", said="Time-out AWAY at 34.0 (period 4)",
                 now="the time-out runs; hold a TIME-OUT button to end it early"),
            Step(461, "press timeout_away", said="Refused: a time-out for AWAY is already running"),
            Step(470, "hold timeout_away", said="Time-out over at 34.0 (period 4)", now=STOPPED),
        ])


def test_indoor_hockey_a_green_and_a_yellow_card_and_a_penalty_stroke(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        play(b, [
            Step(0, "press clock_start", now=RUNNING),
            Step(100, "type 6"),
            Step(101, "press penalty_home", now="HOME #6 Green card - MODE: next kind, NEXT confirms, UNDO cancels"),
            Step(102, "press next", said="Penalty Green card to HOME #6 at 18:18 (half 1)",
                 penalties=("HOME #6 Green card 1:00",)),
            Step(200, "type 11"),
            Step(201, "press penalty_away"),
            Step(202, "press mode", now="AWAY #11 Yellow card - MODE: next kind, NEXT confirms, UNDO cancels"),
            Step(203, "press next", now="AWAY #11 Yellow card: length 3 min - NEXT confirms"),
            Step(204, "type 5", now="AWAY #11 Yellow card: length 5 min - NEXT confirms"),
            Step(205, "press next", said="Penalty Yellow card to AWAY #11 at 16:35 (half 1)",
                 penalties=("AWAY #11 Yellow card 5:00",)),
            Step(300, "press clock_stop", said="Clock stopped at 15:00 (half 1)"),
            Step(301, "press mode", said="Set piece: penalty corner at 15:00 (half 1)",
                 now="MODE: the next set piece, or it is over; START restarts the clock"),
            Step(302, "press mode", said="Set piece: penalty stroke at 15:00 (half 1)"),
            Step(303, "type 9"),
            Step(304, "press goal_home", said="Goal HOME #9 at 15:00 (half 1)"),
            Step(305, "press clock_start", said="Clock started at 15:00 (half 1)", now=RUNNING),
        ])


def test_youth_football_a_walk_over_then_a_final_decided_by_a_shoot_out(tmp_path: Path) -> None:
    with board(tmp_path, rules="youth-football") as b:
        # The first match was settled at the desk as a walk-over: the service's schedule has the final next.
        final(b, "IFK Malmö P13", "Lunds BK P13")
        play(b, [
            Step(10, "press clock_start", said="Clock started at 20:00 (half 1)"),
            Step(20, "hold next", said="Period ended at 19:50 (half 1)"),
            Step(30, "press clock_start", said="Clock started at 20:00 (half 2)"),
            Step(40, "hold next", said="Period ended at 19:50 (half 2)",  # level: a shoot-out, either side first
                 now="GOAL if the shot scores, PENALTY if it misses"),
            Step(50, "type 7"),
            Step(51, "press goal_home", said="Shot HOME #7: scored (straffar)",
                 now="AWAY shoots next: GOAL if it scores, PENALTY if it misses"),
            Step(52, "type 9"),
            Step(53, "press goal_away", said="Shot AWAY #9: scored (straffar)"),
            Step(54, "press undo", said="Undone: Shot AWAY #9: scored (straffar)",
                 now="AWAY shoots next: GOAL if it scores, PENALTY if it misses"),
            Step(55, "press penalty_away", said="Shot AWAY: missed (straffar)"),
        ])


def test_indoor_football_a_sin_bin_a_goal_the_referee_disallows_and_a_refused_time_out(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-football") as b:
        play(b, [
            Step(0, "press clock_start", said="Clock started at 10:00 (half 1)", now=RUNNING),
            Step(100, "press clock_stop", said="Clock stopped at 8:20 (half 1)", now=STOPPED),
            Step(101, "type 8"),
            Step(102, "press penalty_away", now="AWAY #8 Sin bin - MODE: next kind, NEXT confirms, UNDO cancels"),
            Step(103, "press next", said="Penalty Sin bin to AWAY #8 at 8:20 (half 1)",
                 penalties=("AWAY #8 Sin bin 2:00",)),
            Step(104, "press clock_start", now=RUNNING),
            Step(150, "type 10"),
            Step(151, "press goal_home", said="Goal HOME #10 at 7:33 (half 1)", penalties=("AWAY #8 Sin bin 1:13",)),
            Step(160, "hold goal_home", said="Goal disallowed: Goal HOME #10 at 7:33 (half 1)"),
            Step(170, "press timeout_away", said="Refused: the indoor-football rules allow no time-outs", now=RUNNING),
        ])


def test_the_first_minute_says_where_the_keys_are_until_the_first_press(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        first = b.loop.operator_view()
        assert first.first_minute == "F11 or ?: the keys and holds" and compact_line(first) == first.first_minute
        b.press("clock_start")
        assert b.loop.operator_view().first_minute == ""


def test_the_keys_list_every_press_and_every_hold_with_how_long() -> None:
    lines = key_lines(load_button_map())
    assert "CLOCK STOP; hold 3 s: abandon" in lines
    assert "NEXT; hold 1 s: end period" in lines and "UNDO; hold 1 s: correct clock" in lines
    assert "F11 or ?: hide this help" in lines


@pytest.mark.parametrize("offline", [False, True])
def test_the_link_and_the_journal_are_said_plainly(tmp_path: Path, offline: bool) -> None:
    from display.view import Link
    from firmware.operator import link_text

    assert link_text(Link(online=not offline, waiting=3)) == (
        ("Offline: 3 kept on the card, sent when the link is back", False) if offline
        else ("Server: 3 waiting to be sent", True))
    with board(tmp_path, rules="indoor-hockey") as b:
        b.press("clock_start")
        view = b.loop.operator_view()
        assert view.journal == "Journal: 1 events on the card"
        assert view.link == "No server link: the card keeps every event"
        assert (view.court, view.match, view.board) == ("1", "friendly-1 · Home v Away",
                                                        "half 1 20:00 running · Home 0 - 0 Away")
