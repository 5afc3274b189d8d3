"""The live state on the wire (rules.live): the board a table publishes, read back and checked, and the one
rule that carries a running clock between two messages, run against the same vectors as live.js."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest

from rules.errors import ProtocolError
from rules.live import LiveBoard, clock_at, live_board, live_payload, read_live
from rules.match import ClockStarted, Goal, Match, PenaltyAwarded, PeriodAdvanced
from rules.ruleset import load_ruleset
from rules.words.state import board_period_text

ROOT = Path(__file__).resolve().parent.parent
VECTORS = json.loads((ROOT / "tests" / "data" / "clock_vectors.json").read_text(encoding="utf-8"))["cases"]
LIVE_JS = ROOT / "server" / "web" / "static" / "live.js"


def board_for(case: dict[str, Any]) -> LiveBoard:
    return LiveBoard(match="1", phase="play", period=1, period_kind="regular", period_name="half", period_number=1,
                     period_length_ms=case["limit"], clock_ms=case["ms"], clock_down=case["down"],
                     running=case["running"], home_goals=0, away_goals=0, home_shootout=None, away_shootout=None,
                     penalties=())


@pytest.mark.parametrize("case", VECTORS, ids=[c["name"] for c in VECTORS])
def test_clock_at_carries_the_clock_as_the_vectors_say(case: dict[str, Any]) -> None:
    board = board_for(case)
    assert clock_at(board, case["gone"]) == case["at"]
    assert board.clock_text(case["gone"]) == case["text"]


def test_live_js_carries_the_clock_by_the_same_vectors() -> None:
    node = shutil.which("node")
    assert node is not None, "node is needed to check the page's clock (.ci/run installs Debian's nodejs)"
    script = f"""
const live = require({json.dumps(str(LIVE_JS))});
const cases = {json.dumps(VECTORS)};
const out = cases.map(c => {{ const ms = live.clockAt(c.ms, c.down, c.running, c.limit, c.gone);
  return [c.name, ms, live.clockText(ms, c.down)]; }});
console.log(JSON.stringify(out));"""
    got = json.loads(subprocess.run([node, "-e", script], capture_output=True, text=True, check=True,
                                    timeout=30).stdout)
    assert got == [[c["name"], c["at"], c["text"]] for c in VECTORS]


def test_a_stopped_clock_or_a_match_not_in_play_does_not_run() -> None:
    board = board_for({"ms": 60_000, "down": True, "running": True, "limit": 1_200_000})
    assert clock_at(replace(board, phase="interval"), 5000) == 60_000
    assert clock_at(replace(board, running=False), 5000) == 60_000


def ice_hockey_with_a_major() -> tuple[Match, int]:
    rules = load_ruleset("ice-hockey")
    match = Match(rules, stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    match.apply(Goal(at=10_000, team="home"))
    match.apply(PenaltyAwarded(at=20_000, team="away", kind="major", player="3"))
    match.apply(PenaltyAwarded(at=21_000, team="home", kind="minor", player="8"))
    if not match.state_at(22_000).running:  # the whistle for a penalty stops the clock
        match.apply(ClockStarted(at=22_000))
    return match, 100_000


def test_the_board_names_the_period_and_each_penalty_s_kind_as_message_keys() -> None:
    match, at = ice_hockey_with_a_major()
    rules = load_ruleset("ice-hockey")
    board = live_board(match.state_at(at), rules, "7")
    assert (board.match, board.phase, board.period_kind, board.period_name, board.period_number) == (
        "7", "play", "regular", rules.match.period_name, 1)
    assert board.period_length_ms == rules.match.period_length
    assert [(p.team, p.player, p.kind, p.label, p.short) for p in board.penalties] == [
        ("away", "3", "major", "Major", "5'"), ("home", "8", "minor", "Minor", "2'")]
    major = board.penalties[0]
    assert major.remaining_ms == 5 * 60_000 - (at - 22_000)
    assert board.penalty_left(major, 1000) == major.remaining_ms - 1000  # runs with the match clock
    assert board_period_text(board) == f"{rules.match.period_name} 1"


def test_extra_time_is_named_and_carried_by_its_own_length() -> None:
    rules = load_ruleset("indoor-hockey")
    match = Match(rules, stage="knockout", round="semi_final")
    at = 0
    while match.state_at(at).period_kind != "extra_time":
        state = match.state_at(at)
        match.apply(PeriodAdvanced(at=at) if state.phase == "play" and state.running else ClockStarted(at=at))
        at += 1000
    match.apply(ClockStarted(at=at)) if not match.state_at(at).running else None
    board = live_board(match.state_at(at + 1000), rules, "15")
    assert rules.match.overtime is not None
    assert (board.period_kind, board.period_name, board.period_number) == ("extra_time", "extra time", 1)
    assert board.period_length_ms == rules.match.overtime.period_length
    assert board_period_text(board) == "extra time 1"


def test_the_payload_reads_back_to_the_same_board() -> None:
    match, at = ice_hockey_with_a_major()
    rules = load_ruleset("ice-hockey")
    payload = json.loads(json.dumps(live_payload(match.state_at(at), rules, "7")))
    assert read_live(payload) == live_board(match.state_at(at), rules, "7")


@pytest.mark.parametrize(("change", "where"), [
    (lambda p: p.pop("state"), "payload"),
    (lambda p: p["board"].pop("clock_ms"), "payload.board.clock_ms"),
    (lambda p: p["board"].update(extra=1), "payload.board.extra"),
    (lambda p: p["board"].update(clock_ms=-5), "payload.board.clock_ms"),
    (lambda p: p["board"].update(running="yes"), "payload.board.running"),
    (lambda p: p["board"].update(phase="warm-up"), "payload.board.phase"),
    (lambda p: p["board"]["penalties"][0].update(team="both"), "payload.board.penalties[0].team"),
    (lambda p: p["board"]["penalties"][0].pop("short"), "payload.board.penalties[0]"),
])
def test_a_wrong_board_is_refused_naming_the_key(change: Any, where: str) -> None:
    match, at = ice_hockey_with_a_major()
    payload = json.loads(json.dumps(live_payload(match.state_at(at), load_ruleset("ice-hockey"), "7")))
    change(payload)
    with pytest.raises(ProtocolError) as err:
        read_live(payload)
    assert err.value.field == where


def test_the_board_is_plain_data() -> None:
    match, at = ice_hockey_with_a_major()
    board = live_board(match.state_at(at), load_ruleset("ice-hockey"), None)
    assert json.loads(json.dumps(asdict(board)))["penalties"][0]["short"] == "5'"
