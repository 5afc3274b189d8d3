"""firmware/outbox.py: what of a match's journal waits for the service, as its acks come (the link and a real
service around it: tests/test_firmware_link.py)."""

from __future__ import annotations

import json
from pathlib import Path

from firmware.outbox import Outbox, acked_path
from firmware.session import MatchSession
from rules.court_schedule import CourtMatch
from rules.match import ClockStarted, Goal
from rules.ruleset import load_ruleset

RULES = load_ruleset("indoor-hockey")


def _played(folder: Path, goals: int) -> tuple[Outbox, MatchSession]:
    """A match's journal with its start and ``goals`` goals (seq 1 .. goals + 1), loaded into a new outbox."""
    scheduled = CourtMatch(match="1", number=1, home="Rot-Weiss Köln", away="Slavia Praha", stage="A", round="pool",
                           start=None)
    session = MatchSession.create(folder, RULES, "indoor-hockey", scheduled, court="Hall 1", session_now=0.0,
                                  speed=1.0)
    outbox = Outbox(folder)
    outbox.loaded(session.header, ())
    for n, event in enumerate([ClockStarted(at=0), *(Goal(at=1000 * (k + 1), team="home") for k in range(goals))]):
        outbox.add(session.header, session.apply(event).event)
        assert session.match.events[n].seq == n + 1
    return outbox, session


def test_events_another_instance_stored_are_not_sent_again_once_each_is_acknowledged(tmp_path: Path) -> None:
    """Two instances share the court's messages: one stores seq 1, 3 and 4 and acks each through 1 (it has not
    seen seq 2, which the other took); the other acks seq 2 through 2. Before, the table's outbox kept 3 and 4
    waiting, to be sent again, until an ack through 4 came."""
    outbox, session = _played(tmp_path, goals=3)
    box = outbox.boxes["1"]
    outbox.acked("1", "event", 1, 1)
    outbox.acked("1", "event", 3, 1)
    outbox.acked("1", "event", 4, 1)
    assert [e.seq for e in box.waiting_events()] == [2]
    assert outbox.waiting() == 1
    outbox.acked("1", "event", 2, 2)
    assert box.waiting_events() == [] and box.through == 4
    assert json.loads(acked_path(box.path).read_text())["through"] == 4  # kept across a reboot
    outbox.acked("1", "event", 3, 1)  # a late ack of an instance that saw less takes nothing back
    assert box.through == 4 and box.waiting_events() == []
    session.journal.close()


def test_what_the_service_says_it_holds_is_believed_over_the_acks_one_by_one(tmp_path: Path) -> None:
    """A service restored from an older backup holds match 1 through seq 1: seq 3, acked one by one before, is sent
    again with seq 2 (the journal is the source)."""
    outbox, session = _played(tmp_path, goals=2)
    outbox.acked("1", "event", 1, 1)
    outbox.acked("1", "event", 3, 1)
    assert [e.seq for e in outbox.boxes["1"].waiting_events()] == [2]
    assert outbox.held("1", 1, False)
    assert [e.seq for e in outbox.boxes["1"].waiting_events()] == [2, 3]
    session.journal.close()
