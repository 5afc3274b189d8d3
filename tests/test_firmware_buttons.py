"""Buttons through gpiozero's real code on MockFactory pins: press, chatter, hold, stuck, held across a restart."""

from __future__ import annotations

from pathlib import Path

from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from tests.firmware_support import WiredDownPin, board


def test_a_press_is_one_event_stamped_when_the_button_went_down(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        b.at(5.0)
        b.press("clock_start")
        assert [e.type for e in b.events] == ["clock_started"]
        assert b.events[0].at == 5000
        assert b.state.running


def test_chatter_is_one_press(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        b.press("clock_start")
        b.at(10.0)
        pin = b.pin("goal_home")
        for i in range(5):  # a worn contact: down-up-down-up-down within a few milliseconds, then held
            b.at(10.0 + i * 0.002)
            (pin.drive_low if i % 2 == 0 else pin.drive_high)()
        b.at(10.2)
        pin.drive_high()  # released, with chatter too
        b.at(10.201)
        pin.drive_low()  # release chatter
        b.at(10.203)
        pin.drive_high()
        b.at(11.0)
        assert [e.type for e in b.events] == ["clock_started", "goal"]
        assert b.state.home_goals == 1


def test_two_real_presses_are_two_events(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        b.press("clock_start")
        b.at(10.0)
        b.press("goal_away")
        b.at(12.0)
        b.press("goal_away")
        assert b.state.away_goals == 2


def test_a_hold_fires_the_hold_action_once_and_the_release_nothing(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        b.press("clock_start")
        b.at(10.0)
        b.press("goal_home")
        b.at(20.0)
        b.down("goal_home")  # hold: take off home's last goal
        b.at(20.9)
        assert b.state.home_goals == 1
        b.at(21.5)
        assert b.state.home_goals == 0
        b.at(30.0)
        b.up("goal_home")
        assert [e.type for e in b.events] == ["clock_started", "goal_disallowed", "goal"] or \
            [e.type for e in b.loop.session.match.events] == ["clock_started", "goal", "goal_disallowed"]
        assert b.state.home_goals == 0


def test_a_stuck_button_acts_once_however_long_it_stays_down(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        b.down("clock_start")
        b.at(600.0)
        assert [e.type for e in b.loop.session.match.events] == ["clock_started"]
        b.down("goal_home")  # a hold button stuck: its hold action once, never the press
        b.at(900.0)
        assert b.state.home_goals == 0
        assert len(b.loop.session.match.events) == 1  # the hold (disallow) was refused: no goal to take off
        assert any("no goal to take off" in line for line in b.refusals())


def test_destructive_hold_needs_the_long_hold(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        b.press("clock_start")
        b.at(10.0)
        b.down("mode")
        b.at(11.5)  # past hold (1 s), short of long_hold (3 s)
        b.up("mode")
        first = b.loop.session.scheduled.match
        assert first == "friendly-1"
        assert b.state.set_piece == "penalty_corner"  # it was a short press: MODE's own action
        b.at(12.0)
        b.down("mode")
        b.at(20.0)
        b.up("mode")
        assert b.loop.session.scheduled.match == "friendly-2"


def test_stop_held_for_the_long_hold_abandons_the_match_and_a_shorter_hold_only_stops_the_clock(
        tmp_path: Path) -> None:
    with board(tmp_path, rules="ice-hockey") as b:
        b.press("clock_start")
        b.at(10.0)
        b.down("clock_stop")
        b.at(11.5)  # past hold (1 s), short of long_hold (3 s): an official who pressed hard
        b.up("clock_stop")
        assert not b.state.running and b.state.phase == "play"
        b.press("clock_start")
        b.at(20.0)
        b.down("clock_stop")
        b.at(24.0)
        b.up("clock_stop")
        assert b.state.phase == "finished"
        outcome = b.loop.session.match.result(b.loop.session.match.last_at)
        assert outcome is not None and outcome.outcome == "abandoned"


def test_a_button_held_across_a_restart_does_nothing_until_pressed_again(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        b.press("clock_start")
        b.at(10.0)
        b.down("goal_home")
    WiredDownPin.held = {22}  # goal_home's GPIO, held down while the table restarts
    factory = MockFactory(pin_class=WiredDownPin)
    try:
        with board(tmp_path, rules="indoor-hockey", factory=factory) as b:
            assert b.table.buttons.is_pressed("goal_home")
            start = b.loop.clock.seconds()
            b.at(start + 5.0)
            b.up("goal_home")
            b.at(start + 6.0)
            assert b.state.home_goals == 0  # neither the hold nor the release of a press it never saw
            b.press("goal_home")
            assert b.state.home_goals == 1
    finally:
        WiredDownPin.held = set()
