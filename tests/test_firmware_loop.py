"""The table's loop: an abandoned match is played on only when the service's schedule says so (seed 004:
resumed or replayed), its own journal reopened, the resumption or replay entered and shown; without the
schedule's word NEXT loads the next match and the abandoned one stays as it ended. The loop's view is
display's ScoreboardView, and the headless table imports no pygame for it."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from firmware.actions import ActionName
from firmware.buttons import Action
from firmware.commands import ScheduleUpdate
from firmware.journal import current_journal
from firmware.schedule import PlayingOrder
from rules.court_schedule import Continues, CourtSchedule
from rules.match.log import read_log
from tests.firmware_support import Board, board

TOURNAMENT = str(Path(__file__).resolve().parent.parent / "rules" / "examples" / "ice-hockey.toml")


def _abandon_the_first_match(b: Board) -> None:
    """Match 1 (Wolves AA v Bears AA): 1-0 at 9:10 of the first period with an away minor, then abandoned."""
    b.press("clock_start")
    b.at(120.0)
    b.type("9")
    b.press("goal_home")  # stops the clock (stopped time)
    b.at(130.0)
    b.press("clock_start")
    b.at(360.0)
    b.loop.do(Action(name=ActionName.ABANDON, at=b.loop.clock.seconds()))  # a long hold where a button map binds it
    assert b.state.result is not None and b.state.result.outcome == "abandoned"


def _schedule(b: Board, continues: Continues | None) -> None:
    """What the service pushes once the desk settled match 1: the court's day with match 1 later, ``continues``."""
    source = b.loop.source
    assert isinstance(source, PlayingOrder)
    first, *rest = source.matches
    pushed = CourtSchedule(court_name="Rink", matches=(replace(first, continues=continues), *rest))
    b.loop.queue.put(ScheduleUpdate(schedule=pushed))
    b.loop.step()


def test_nothing_reopens_an_abandoned_match_without_the_schedules_word(tmp_path: Path) -> None:
    with board(tmp_path, tournament=TOURNAMENT, court="Rink") as b:
        _abandon_the_first_match(b)
        journal = current_journal(tmp_path)
        assert journal is not None
        before = journal.read_text(encoding="utf-8")
        _schedule(b, None)
        b.press("next")
        assert b.loop.session.scheduled.match == "2" and b.state.phase == "pre_match"
        assert journal.read_text(encoding="utf-8") == before  # match 1's journal as it ended
        assert b.loop.abandoned == {"1": journal}


def test_a_resumed_match_reopens_its_journal_and_goes_on_as_it_stood(tmp_path: Path) -> None:
    with board(tmp_path, tournament=TOURNAMENT, court="Rink") as b:
        _abandon_the_first_match(b)
        abandoned = b.state
        journal = b.loop.session.journal.path
        _schedule(b, "resume")
        b.at(3600.0)  # an hour later the ice is fixed
        b.press("next")
        s = b.state
        assert b.loop.session.journal.path == journal and current_journal(tmp_path) == journal
        assert (s.phase, s.period, s.clock_ms, s.running) == ("play", 1, abandoned.clock_ms, False)
        assert (s.home_goals, s.away_goals) == (1, 0)
        events = b.loop.session.match.events
        assert [e.type for e in events[-2:]] == ["match_abandoned", "match_resumed"]
        assert events[-1].seq == events[-2].seq + 1 and events[-1].at >= events[-2].at
        assert any("Match resumed as it stood when abandoned" in n.text for n in b.loop.notices)
        assert "1" not in b.loop.abandoned
        b.press("clock_start")
        assert b.state.running
        parsed = read_log(journal.read_text(encoding="utf-8"), str(journal))
        assert [e.type for e in parsed.events][-2:] == ["match_resumed", "clock_started"]  # journaled
        b.press("next")  # the match is on again: NEXT does not leave it
        assert b.loop.session.scheduled.match == "1"


def test_a_replayed_match_starts_again_in_the_tournaments_language(tmp_path: Path) -> None:
    with board(tmp_path, tournament=TOURNAMENT, court="Rink") as b:
        b.loop.screen.language = "sk"  # type: ignore[attr-defined]
        _abandon_the_first_match(b)
        _schedule(b, "replay")
        b.press("next")
        s = b.state
        assert (s.phase, s.home_goals, s.away_goals, s.clock_ms) == ("pre_match", 0, 0, 15 * 60_000)
        assert b.loop.session.match.events[-1].type == "match_replayed"
        assert any("Zápas sa hrá znova od začiatku" in n.text for n in b.loop.notices)


def test_after_a_restart_the_table_still_knows_the_abandoned_match(tmp_path: Path) -> None:
    with board(tmp_path, tournament=TOURNAMENT, court="Rink") as b:
        _abandon_the_first_match(b)
    with board(tmp_path, tournament=TOURNAMENT, court="Rink") as b:
        assert b.loop.session.scheduled.match == "1" and "1" in b.loop.abandoned
        _schedule(b, "resume")
        b.press("next")
        assert b.loop.session.match.events[-1].type == "match_resumed" and b.state.home_goals == 1


def test_a_table_restarted_before_the_broker_answers_keeps_the_service_s_schedule(tmp_path: Path) -> None:
    """Issue 19's tournament day: a walk-over entered at the desk took match 2 off the court's schedule; the
    table, restarted (a power cut, the next match's start) before the broker handed the schedule again, loaded
    match 2 from the tournament file and played the next match's presses as match 2."""
    with board(tmp_path, tournament=TOURNAMENT, court="Rink") as b:
        source = b.loop.source
        assert isinstance(source, PlayingOrder)
        first, second, *rest = source.matches
        settled = CourtSchedule(court_name="Rink", matches=(first, *rest))  # match 2 settled at the desk
        b.loop.queue.put(ScheduleUpdate(schedule=settled))
        b.loop.step()
    with board(tmp_path, tournament=TOURNAMENT, court="Rink") as b:  # the same journal folder, no broker
        b.press("clock_start")
        b.at(120.0)
        b.loop.do(Action(name=ActionName.ABANDON, at=b.loop.clock.seconds()))
        b.press("next")
        assert b.loop.session.scheduled.match == rest[0].match != second.match


def test_the_headless_table_imports_no_pygame() -> None:
    code = "import sys, firmware.main, firmware.table, firmware.link; assert 'pygame' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parent.parent)


CUP = str(Path(__file__).resolve().parent.parent / "rules" / "examples" / "youth-cup.toml")


def test_a_cup_court_plays_each_match_by_its_class_s_rules_and_recovers_by_them(tmp_path: Path) -> None:
    # 7v7 Plan 1 plays P10 (2 x 15 min) and F10 (2 x 20 min) matches in turn.
    with board(tmp_path, tournament=CUP, court="7v7 Plan 1") as b:
        first = b.loop.session.scheduled
        assert (first.match, first.class_name) == ("1", "P10")
        assert b.loop.ruleset.name == "youth-football-7v7" and b.state.clock_ms == 15 * 60_000
        b.loop.do(Action(name=ActionName.ABANDON, at=b.loop.clock.seconds()))  # the quickest way to the next
        b.press("next")
        following = b.loop.session.scheduled
        assert (following.match, following.class_name) == ("6", "F10")
        assert b.loop.ruleset.name == "youth-football" and b.state.clock_ms == 20 * 60_000
        b.press("clock_start")
        b.at(60.0)
        b.press("goal_home")
        header = read_log(b.loop.session.journal.path.read_text(encoding="utf-8"), "journal").header
        assert header is not None and header.ruleset == "youth-football"
    # A power cut: the table starts again showing the F10 match, replayed by the rules its journal names.
    with board(tmp_path, tournament=CUP, court="7v7 Plan 1") as b:
        assert b.loop.session.scheduled.match == "6" and b.loop.ruleset.name == "youth-football"
        assert b.state.home_goals == 1
