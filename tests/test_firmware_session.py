"""Restart recovery: the journal is replayed, the screen shows what it showed, a running clock is stopped
at the instant of the cut and a notice says how long the table was down."""

from __future__ import annotations

import json
from pathlib import Path

from firmware.journal import current_journal
from firmware.session import played_ids
from rules.match.log import read_log
from tests.firmware_support import board


def test_restart_shows_what_was_shown_and_stops_a_running_clock_at_the_cut(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        b.press("clock_start")
        b.at(100.0)
        b.type("19")
        b.press("goal_away")
        b.at(250.0)
        before = b.state
        shown = list(b.loop.shown)
    with board(tmp_path, rules="indoor-hockey") as b:
        assert b.loop.session.match.events[: len(shown)] == tuple(shown)
        after = b.state
        assert (after.home_goals, after.away_goals) == (before.home_goals, before.away_goals) == (0, 1)
        assert not after.running
        assert after.clock_ms == before.clock_ms  # stopped where the cut found it (20:00 - 4:10 = 15:50)
        assert after.clock_ms == 20 * 60_000 - 250_000
        last = b.loop.session.match.events[-1]
        assert last.type == "clock_stopped" and last.at == 250_000
        notices = [n.text for n in b.loop.notices if n.kind == "recovered"]
        assert len(notices) == 1 and "the clock was stopped at 15:50" in notices[0] and "s down" in notices[0]
        b.press("clock_start")  # the operator goes on
        assert b.state.running


def test_a_stopped_clock_stays_as_it_was_and_the_match_instant_goes_on(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-football") as b:
        b.press("clock_start")
        b.at(60.0)
        b.press("clock_stop")
        b.at(70.0)
        count = len(b.loop.session.match.events)
    with board(tmp_path, rules="indoor-football") as b:
        assert len(b.loop.session.match.events) == count  # nothing added: the clock was not running
        assert b.loop.now_ms() >= 60_000  # match time never goes back across a restart
        assert any("nothing was running" in n.text for n in b.loop.notices)


def test_the_journal_is_written_before_the_screen_draws(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-hockey") as b:
        seen: list[tuple[int, int]] = []

        def check(view: object) -> None:
            on_disk = read_log(b.loop.session.journal.path.read_text(encoding="utf-8"), "j").events
            seen.append((len(b.loop.shown), len(on_disk)))

        b.screen.draw = check  # type: ignore[method-assign]
        b.press("clock_start")
        b.at(5.0)
        b.press("goal_home")
        assert seen and all(shown <= disk for shown, disk in seen)
        assert max(shown for shown, _ in seen) == 2


def test_between_matches_next_loads_the_next_match_and_the_header_names_it(tmp_path: Path) -> None:
    with board(tmp_path, rules="indoor-football") as b:
        b.press("clock_start")
        b.at(10.0)
        b.press("goal_home")
        b.down("next")  # hold: end the first half now
        b.at(12.0)
        b.up("next")
        b.at(13.0)
        b.press("next")  # skip the interval
        b.at(14.0)
        b.press("clock_start")
        b.at(15.0)
        b.down("next")
        b.at(17.0)
        b.up("next")
        assert b.state.phase == "finished"
        b.at(18.0)
        b.press("next")
        assert b.loop.session.scheduled.match == "friendly-2"
    assert played_ids(tmp_path) == {"friendly-1"}  # friendly-2 has no event yet
    current = current_journal(tmp_path)
    assert current is not None
    header = json.loads(current.read_text(encoding="utf-8").splitlines()[0])["header"]
    assert header["match_id"] == "friendly-2" and header["ruleset"] == "indoor-football"
