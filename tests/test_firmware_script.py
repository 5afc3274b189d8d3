"""Press scripts: the format, its errors, the Python API, and lines skipped after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.errors import PressScriptError
from firmware.journal import current_journal
from firmware.script import Press, format_script, keys_of, parse_script
from firmware.table import run_script
from rules.match.log import read_log


def test_lines_comments_and_instants() -> None:
    presses = parse_script("# a match\n\n0 press clock_start\n1:01.5 type 7  # scorer\n61.6 press goal_home\n"
                           "12:00 hold next\n12:01.5 release next\n1200 wait\n", "s.txt")
    assert [(p.at, p.verb, p.arg, p.line) for p in presses] == [
        (0.0, "press", "clock_start", 3), (61.5, "type", "7", 4), (61.6, "press", "goal_home", 5),
        (720.0, "hold", "next", 6), (721.5, "release", "next", 7), (1200.0, "wait", "", 8),
    ]
    assert parse_script(format_script(presses), "again") == [
        Press(at=p.at, verb=p.verb, arg=p.arg, line=i + 1) for i, p in enumerate(presses)
    ]


@pytest.mark.parametrize(("text", "line", "reason"), [
    ("0 press clock_start\nsoon press goal_home\n", 2, "'soon' is not an instant"),
    ("10 press clock_start\n5 press goal_home\n", 2, "before the line above"),
    ("0 push clock_start\n", 1, "'push' is not press, hold, release, type or wait"),
    ("0 press\n", 1, "press needs one button name"),
    ("0 type\n", 1, "type needs the text"),
])
def test_a_wrong_line_names_the_file_line_and_reason(text: str, line: int, reason: str) -> None:
    with pytest.raises(PressScriptError) as err:
        parse_script(text, "bad.txt")
    assert err.value.line == line and reason in err.value.message
    assert str(err.value).startswith(f"bad.txt, line {line}: ")


def test_an_unknown_button_is_refused_before_the_table_starts(tmp_path: Path) -> None:
    with pytest.raises(PressScriptError, match=r"line 1: no button 'goal_hom'"):
        run_script(parse_script("0 press goal_hom\n", "s"), rules="indoor-hockey", journal=tmp_path)
    assert not list(tmp_path.glob("*.jsonl"))  # nothing was started


def test_typed_keys() -> None:
    assert [(k.name, k.text) for k in keys_of("12a<enter><esc> 7", 3.0)] == [
        ("1", "1"), ("2", "2"), ("a", "a"), ("enter", ""), ("escape", ""), ("7", "7")]


def test_a_script_after_a_restart_goes_on_from_where_the_table_was(tmp_path: Path) -> None:
    script = parse_script("0 press clock_start\n10 press goal_home\n20 press goal_home\n30 wait\n", "s")
    run_script(script[:2], rules="indoor-hockey", journal=tmp_path)  # as if cut after the first goal
    state = run_script(script, rules="indoor-hockey", journal=tmp_path)
    assert state.home_goals == 2  # the first goal was not pressed twice


def test_a_cut_right_after_the_first_press_does_not_press_it_again(tmp_path: Path) -> None:
    script = parse_script("0 press clock_start\n10 press goal_home\n30 wait\n", "s")
    run_script(script[:1], rules="indoor-football", journal=tmp_path)  # cut at once: clock_started at 0 journaled
    run_script(script, rules="indoor-football", journal=tmp_path)
    path = current_journal(tmp_path)
    assert path is not None
    types = [e.type for e in read_log(path.read_text(encoding="utf-8"), "j").events]
    assert types.count("clock_started") == 1


def test_a_cut_between_a_typed_scorer_and_the_goal_plays_both_again(tmp_path: Path) -> None:
    script = parse_script("0 press clock_start\n10 type 7\n11 press goal_home\n20 wait\n", "s")
    run_script(script[:2], rules="indoor-hockey", journal=tmp_path)  # cut after typing: the 7 lived in memory
    state = run_script(script, rules="indoor-hockey", journal=tmp_path)
    path = current_journal(tmp_path)
    assert path is not None
    events = read_log(path.read_text(encoding="utf-8"), "j").events
    assert [(e.type, e.at, getattr(e, "player", None)) for e in events] == [
        ("clock_started", 0, None), ("goal", 11_000, "7")]  # at its line's instant, with its scorer, once
    assert state.home_goals == 1 and state.running  # the clock went on from the cut (no stop appended)


def test_a_match_ended_by_its_clock_comes_back_ended(tmp_path: Path) -> None:
    script = parse_script("0 press clock_start\n60 press goal_away\n1250 wait\n1300 wait\n", "s")
    run_script(script[:3], rules="indoor-hockey", journal=tmp_path)  # stopped at 1250 s: the half ended at 1200
    state = run_script(script, rules="indoor-hockey", journal=tmp_path)
    path = current_journal(tmp_path)
    assert path is not None
    assert [e.type for e in read_log(path.read_text(encoding="utf-8"), "j").events] == ["clock_started", "goal"]
    assert not state.running and state.away_goals == 1


def test_an_unknown_key_name_is_refused_with_its_line() -> None:
    """Issue 21: a mistyped key name in angle brackets was accepted and did nothing (the docs say wrong lines
    are refused)."""
    from firmware.buttonmap import load_button_map
    from firmware.script import check_buttons

    shipped = load_button_map(None)
    buttons = [b.name for b in shipped.buttons]
    presses = parse_script("0 type 7<enter>\n1 type <esc><bksp>\n2 type <f3>\n3 type 12<entr>\n", "s.txt")
    with pytest.raises(PressScriptError, match=r"s\.txt, line 4: no key <entr>") as err:
        check_buttons(presses, buttons, "s.txt", keys=shipped.keys)
    assert err.value.line == 4
    check_buttons(presses[:3], buttons, "s.txt", keys=shipped.keys)  # the map's keys and the built-in ones


def test_a_table_refuses_a_script_with_an_unknown_key_before_it_starts(tmp_path: Path) -> None:
    script = parse_script("0 press clock_start\n5 type <nosuchkey>\n", "bad.txt")
    with pytest.raises(PressScriptError, match="line 2: no key <nosuchkey>"):
        run_script(script, rules="indoor-hockey", journal=tmp_path / "j")
    assert not (tmp_path / "j").exists() or not any((tmp_path / "j").iterdir())  # refused before anything


def test_wait_with_a_file_is_a_cue() -> None:
    presses = parse_script("0 press clock_start\n30 wait /tmp/cues/match 7.go\n60 wait\n", "s")
    assert [(p.verb, p.arg) for p in presses[1:]] == [("wait", "/tmp/cues/match 7.go"), ("wait", "")]


SHIPPED = Path(__file__).resolve().parents[1] / "firmware" / "scripts"


@pytest.mark.parametrize("sport", ["water-polo", "ice-hockey"])
def test_a_script_ends_the_same_at_every_speed(tmp_path: Path, sport: str) -> None:
    """The demo's officials' seed must make the same day at --speed 0 and --speed 100: a table too busy for
    its speed plays each line, hold and horn later in real time, never at another instant of the match. At
    100,000 times real time (the most the table takes) no machine keeps up: this run is always the busy one."""
    presses = parse_script((SHIPPED / f"{sport}.txt").read_text(encoding="utf-8"), sport)
    journals = {}
    for speed in (0, 100000):
        run_script(presses, rules=sport, journal=tmp_path / str(speed), speed=speed)
        path = current_journal(tmp_path / str(speed))
        assert path is not None
        journals[speed] = list(read_log(path.read_text(encoding="utf-8"), "j").events)
    assert journals[0] == journals[100000] and len(journals[0]) > 5
