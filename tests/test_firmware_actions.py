"""The table official's entry: player numbers, penalties in at most three presses plus the number, a yellow
card's length, the other clock button replacing a wrong one, UNDO, the shoot-out and MODE; every action's handler."""

from __future__ import annotations

from pathlib import Path

from firmware.actions import HANDLERS, ActionName
from rules.match import events as ev
from rules.words.state import strength_text
from tests.firmware_support import board


def test_a_goal_takes_the_number_typed_before_it(tmp_path: Path) -> None:
    with board(tmp_path, rules="water-polo") as b:
        b.press("clock_start")
        b.at(20.0)
        b.type("12")
        assert b.loop.view().prompt == "player #12 - GOAL or PENALTY takes it, UNDO cancels"
        b.press("goal_away")
        goal = b.loop.session.match.events[-1]
        assert isinstance(goal, ev.Goal) and (goal.team, goal.player, goal.at) == ("away", "12", 20_000)
        assert b.loop.view().prompt == ""


def test_a_penalty_is_three_presses_plus_the_number(tmp_path: Path) -> None:
    with board(tmp_path, rules="ice-hockey") as b:
        b.press("clock_start")
        b.at(30.0)
        b.type("4")  # the number, then PENALTY (1), MODE (2: minor -> major), NEXT (3)
        b.at(30.5)
        b.press("penalty_home")
        b.at(31.0)
        b.press("mode")
        assert "HOME #4 Major" in b.loop.view().prompt
        b.at(31.5)
        b.press("next")
        award = b.loop.session.match.events[-1]
        assert isinstance(award, ev.PenaltyAwarded)
        assert (award.team, award.kind, award.player) == ("home", "major", "4")
        assert strength_text(b.state) == "4 v 5"


def test_a_yellow_card_asks_its_length(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        b.press("clock_start")
        b.at(30.0)
        b.type("9")
        b.press("penalty_away")
        b.at(31.0)
        b.press("penalty_away")  # again: green -> yellow
        b.at(32.0)
        b.press("next")
        assert "length 3 min" in b.loop.view().prompt
        b.type("5")
        b.at(33.0)
        b.press("next")
        award = b.loop.session.match.events[-1]
        assert isinstance(award, ev.PenaltyAwarded) and (award.kind, award.length) == ("yellow", 300_000)
        b.at(40.0)
        b.down("penalty_away")  # hold: one minute more
        b.at(42.0)
        b.up("penalty_away")
        longer = b.loop.session.match.events[-1]
        assert isinstance(longer, ev.PenaltyLengthened) and (longer.target, longer.length) == (award.seq, 360_000)


def test_the_other_clock_button_within_a_second_replaces_a_wrong_one(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        b.press("clock_start")
        b.at(100.0)
        b.press("clock_stop")  # wrong: play went on
        b.at(100.6)
        b.press("clock_start")
        assert b.state.running
        assert b.state.clock_ms == 20 * 60_000 - 100_700  # as if the clock had never stopped
        log = b.loop.session.match.events
        assert [e.type for e in log] == ["clock_started", "clock_stopped", "undo"]
        b.at(200.0)
        b.press("clock_stop")
        b.at(205.0)  # five seconds later: a real restart, not a replacement
        b.press("clock_start")
        assert b.loop.session.match.events[-1].type == "clock_started"
        assert b.state.clock_ms == 20 * 60_000 - 200_000 - (205_100 - 205_000)


def test_undo_cancels_what_is_typed_first_then_takes_back_the_last_event(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        b.press("clock_start")
        b.at(10.0)
        b.press("goal_home")
        b.at(11.0)
        b.type("7")
        b.press("undo")
        assert b.loop.view().prompt == "" and b.state.home_goals == 1
        b.at(12.0)
        b.press("undo")
        assert b.state.home_goals == 0


def test_a_refused_press_is_shown_with_the_engines_reason_and_buzzes(tmp_path: Path) -> None:
    with board(tmp_path, rules="youth-football") as b:
        b.press("clock_start")
        b.at(10.0)
        buzzes = b.table.buzzer.sounded
        b.press("timeout_home")  # the rules name no time-outs
        assert b.table.buzzer.sounded == buzzes + 1
        assert b.table.buzzer.is_on  # the buzzer pin is driven
        refused = [n for n in b.loop.notices if n.kind == "refused"]
        assert refused and "time-out" in refused[0].text
        assert [e.type for e in b.loop.session.match.events] == ["clock_started"]
        b.at(11.0)
        assert not b.table.buzzer.is_on


def test_in_a_shootout_goal_scores_and_penalty_misses(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-football", tournament=None) as b:
        b.loop.session.match._ctx = type(b.loop.session.match._ctx)(  # a knock-out, so a level match goes on
            ruleset=b.loop.ruleset, stage="knockout", round="final")
        b.press("clock_start")
        b.at(601.0)  # the first half ran out
        b.press("next")
        b.at(602.0)
        b.press("clock_start")
        b.at(1300.0)
        assert b.state.phase == "shootout"
        b.press("goal_home")
        b.at(1310.0)
        b.press("penalty_away")
        so = b.state.shootout
        assert so is not None and (so.home_goals, so.away_goals, so.home_taken, so.away_taken) == (1, 0, 1, 1)


def test_mode_flags_set_pieces_in_indoor_hockey_and_resets_possession_in_water_polo(tmp_path: Path) -> None:
    with board(tmp_path / "h", rules="indoor-hockey") as b:
        b.press("clock_start")
        b.at(10.0)
        b.press("mode")
        assert b.state.set_piece == "penalty_corner"
        b.at(11.0)
        b.press("mode")
        assert b.state.set_piece == "penalty_stroke"
        b.at(12.0)
        b.press("mode")
        assert b.state.set_piece is None
    with board(tmp_path / "w", rules="water-polo") as b:
        b.press("clock_start")
        b.at(20.0)
        assert b.state.possession_ms == 10_000
        b.press("mode")
        assert b.loop.session.match.state_at(20_000).possession_ms == 30_000  # full again at the press


def test_the_horn_sounds_once_for_each_horn_of_the_engine_and_on_demand(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-football") as b:
        b.press("clock_start")
        b.at(30 * 60.0)  # one jump over the first half's end and the interval's: two horns, once each
        assert b.table.horn.sounded == 2
        b.at(31 * 60.0)
        assert b.table.horn.sounded == 2
        b.press("horn")
        assert b.table.horn.sounded == 3 and b.table.horn.is_on
        b.at(31 * 60.0 + 5)
        assert not b.table.horn.is_on
        b.down("horn")  # hold: mute the automatic horn
        b.at(31 * 60.0 + 7)
        b.up("horn")
        assert b.table.horn.muted
        b.press("clock_start")
        b.at(50 * 60.0)
        assert b.table.horn.sounded == 3  # the end of the match passed muted


def test_every_action_has_its_handler() -> None:
    assert set(HANDLERS) == set(ActionName)
