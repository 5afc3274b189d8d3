"""`courtside display follow`: a screen-only node drawing a court from its retained live topic on a real broker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pygame

from display.follow import Court, carried
from display.snapshot import render
from display.view import Link, TeamLook
from rules.live import live_board, live_payload
from rules.match import MatchState
from rules.protocol import build, court_topic, encode, parse_broker, pool_topic, scorers_topic
from rules.ruleset import Ruleset, load_ruleset
from tests.display_scenes import scene

ROOT = Path(__file__).resolve().parents[1]
TOURNAMENT = ROOT / "rules" / "examples" / "indoor-hockey.toml"
TID = "indoor-hockey"  # the tournament's id: its file name's stem


def live(state: MatchState, ruleset: Ruleset, match: str = "12") -> bytes:
    """What the table publishes (rules.live): the board and the state."""
    return encode(build(id=f"live-{match}", type="live", court="hall-1", match=match,
                        payload=live_payload(state, ruleset, match)))


def schedule() -> bytes:
    matches = [
        {"match": "12", "number": 12, "stage": "SF1", "round": "semi_final", "home": "Pembroke Wanderers",
         "away": "Rot-Weiss Köln", "start": "2026-01-18T13:00", "status": "live", "suspended": [
             {"side": "away", "player": "4", "kind": "red", "label": "Red card", "given_in": 9, "matches_left": 1}]},
        {"match": "14", "number": 14, "stage": "F", "round": "final", "home": "winner SF1", "away": "winner SF2",
         "start": "2026-01-18T15:00", "status": "scheduled"},
    ]
    return encode(build(id="sched-1", type="schedule", court="hall-1", payload={"court_name": "Hall 1",
                                                                                "matches": matches}))


def publish(url: str, messages: list[tuple[str, bytes]]) -> None:
    b = parse_broker(url)
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="test-publisher")  # type: ignore[attr-defined]
    client.connect(b.host, b.port)
    client.loop_start()
    for topic, payload in messages:
        client.publish(topic, payload, qos=1, retain=True).wait_for_publish(timeout=10)
    client.loop_stop()
    client.disconnect()


def run_follow(url: str, out: Path, frames: int = 4) -> dict[str, Any]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run(
        [sys.executable, "-m", "courtside", "display", "follow", "--court", "Hall 1", "--broker", url,
         "--tournament", str(TOURNAMENT), "--size", "1280x720", "--frames", str(frames), "--out", str(out)],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_late_screen_draws_the_retained_state_as_the_table_shows_it(mosquitto: Callable[..., Any],
                                                                       tmp_path: Path) -> None:
    broker = mosquitto()
    view = scene("indoor-hockey", "last_minute").view  # the clock stopped: nothing to carry on
    assert view.state is not None and not view.state.running
    publish(broker.url, [(court_topic(TID, "hall-1", "schedule"), schedule()),
                         (court_topic(TID, "hall-1", "live"), live(view.state, view.ruleset))])
    out = tmp_path / "follow.png"
    result = run_follow(broker.url, out)
    assert result == {"court": "hall-1", "frames": 4, "refused": 0}
    expected = render(replace(view, home=TeamLook("Pembroke Wanderers"), away=TeamLook("Rot-Weiss Köln"),
                              round="semi_final", stage="SF1", language=None, link=Link(online=True)), (1280, 720))
    drawn = pygame.image.load(str(out))
    same = pygame.mask.from_threshold(drawn, (0, 0, 0), (1, 1, 1, 255), expected, 1).count()
    assert same == 1280 * 720  # the follower's frame is the snapshot's frame, pixel for pixel


def test_between_matches_shows_the_next_match_and_tables(mosquitto: Callable[..., Any], tmp_path: Path) -> None:
    broker = mosquitto()
    table = encode(build(id="t-a", type="table", payload={
        "pool": "A", "played": 1, "expected": 6, "complete": False,
        "rows": [{"rank": 1, "team": "HC Bloemendaal", "played": 1, "won": 1, "drawn": 0, "lost": 0,
                  "goals_for": 4, "goals_against": 2, "goal_difference": 2, "points": 5}]}))
    publish(broker.url, [(court_topic(TID, "hall-1", "schedule"), schedule()),
                         (pool_topic(TID, "A"), table),
                         (court_topic(TID, "hall-1", "presence"),
                          encode(build(id="p", type="presence", court="hall-1", payload={"state": "offline"})))])
    out = tmp_path / "between.png"
    assert run_follow(broker.url, out)["refused"] == 0
    assert pygame.image.load(str(out)).get_size() == (1280, 720)


def test_court_model_takes_messages_and_refuses_bad_ones() -> None:
    ruleset = load_ruleset("indoor-hockey")
    court = Court(ruleset, "sv", "Hall 1")
    state = scene("indoor-hockey", "play").view.state
    assert state is not None and state.running
    court.take(court_topic(TID, "hall-1", "schedule"), schedule(), 0.0)
    court.take(court_topic(TID, "hall-1", "live"), live(state, ruleset), 10.0)
    court.take(court_topic(TID, "hall-1", "live"), b"{not json", 10.5)
    court.take("somewhere/else", b"{}", 10.5)
    assert court.refused == 2
    court.connected = True
    view = court.view(12.5)  # 2.5 s after the message: the running clock went on
    assert view.state is not None and view.state.clock_ms == state.clock_ms - 2_500
    assert (view.home.name, view.round, view.language) == ("Pembroke Wanderers", "semi_final", "sv")
    assert (view.match, view.court, [s.player for s in view.not_eligible]) == ("12", "Hall 1", ["4"])
    assert view.link == Link(online=True) and view.between is None
    court.take(court_topic(TID, "hall-1", "presence"),
               encode(build(id="p", type="presence", court="hall-1", payload={"state": "offline"})), 13.0)
    assert court.view(13.0).link == Link(online=False)


def test_carried_stops_at_zero_and_leaves_a_stopped_clock_alone() -> None:
    ruleset = load_ruleset("ice-hockey")
    state = scene("ice-hockey", "play").view.state
    assert state is not None and state.running
    board = live_board(state, ruleset, "12")
    later = carried(state, board, ruleset, 10_000_000)
    assert later.clock_ms == 0 and all(p.remaining_ms in (0, None) or p.waiting for p in later.penalties)
    waiting = [p for p in state.penalties if p.waiting]
    assert [p for p in later.penalties if p.waiting] == waiting  # a waiting penalty does not run
    stopped = replace(state, running=False)
    assert carried(stopped, live_board(stopped, ruleset, "12"), ruleset, 5_000) == stopped




def test_a_cup_court_screen_draws_each_match_by_its_class_and_shows_that_class_s_tables() -> None:
    from rules.pool_table import pool_table_payload
    from rules.tournament.cup import load_cup

    cup, rulesets = load_cup(ROOT / "rules" / "examples" / "youth-cup.toml")
    court = Court(rulesets["P10"], "sv", "11v11 Plan 3", cup=cup, rulesets=rulesets)
    matches = [
        {"match": "3", "number": 3, "stage": "P13-A", "round": "pool", "home": "FC Rosengård P13",
         "away": "Lunds BK P13", "start": "2026-06-13T08:00", "status": "finished", "class": "P13"},
        {"match": "8", "number": 8, "stage": "F13-A", "round": "pool", "home": "IFK Malmö F13",
         "away": "Eslövs AI F13", "start": "2026-06-13T08:50", "status": "scheduled", "class": "F13"},
    ]
    court.take(court_topic("youth-cup", "11v11-plan-3", "schedule"), encode(build(
        id="s", type="schedule", court="11v11-plan-3", payload={"court_name": "11v11 Plan 3", "matches": matches})),
        0.0)
    match = scene("youth-football", "play").view.state
    assert match is not None
    court.take(court_topic("youth-cup", "11v11-plan-3", "live"), encode(build(
        id="l", type="live", court="11v11-plan-3", match="3", payload=live_payload(match, rulesets["P13"], "3"))),
        1.0)
    assert court.ruleset.name == "youth-football"  # P13's, not the table's first class's (7 v 7)
    for pool in ("P13-A", "F13-A", "P10-A"):
        payload = pool_table_payload(pool, None, [("A", ""), ("B", "")], played=0, expected=1, complete=False,
                                     unresolved=[])
        court.take(pool_topic("youth-cup", pool), encode(build(id=f"t-{pool}", type="table", payload=payload)), 2.0)
    court.state = court.state.replace(phase="finished") if court.state is not None else None
    between = court.view(3.0).between
    assert between is not None and [t.pool for t in between.tables] == ["F13-A"]  # the next match's class only


def test_between_matches_the_next_match_s_class_s_top_scorers_are_the_last_page() -> None:
    from rules.published_scorers import PublishedScorer, scorers_payload
    from rules.tournament.cup import load_cup

    cup, rulesets = load_cup(ROOT / "rules" / "examples" / "youth-cup.toml")
    court = Court(rulesets["P10"], "sv", "11v11 Plan 3", cup=cup, rulesets=rulesets)
    matches = [{"match": "8", "number": 8, "stage": "F13-A", "round": "pool", "home": "IFK Malmö F13",
                "away": "Eslövs AI F13", "start": "2026-06-13T08:50", "status": "scheduled", "class": "F13"}]
    court.take(court_topic("youth-cup", "11v11-plan-3", "schedule"), encode(build(
        id="s", type="schedule", court="11v11-plan-3", payload={"court_name": "11v11 Plan 3", "matches": matches})),
        0.0)
    for klass, team in (("P13", "Lunds BK P13"), ("F13", "IFK Malmö F13")):
        payload = scorers_payload(klass, [PublishedScorer(rank=1, team=team, label="#9 Ada", goals=3)])
        court.take(scorers_topic("youth-cup", klass), encode(build(id=f"c-{klass}", type="scorers",
                                                                   payload=payload)), 1.0)
    assert court.refused == 0
    between = court.view(0.0).between
    assert between is not None and between.scorers is not None
    assert [r.team for r in between.scorers.rows] == ["IFK Malmö F13"]  # the next match's class's, not P13's
    # No table has come yet: the scorers are the only page; without them the area below the next match is empty.
    with_scorers = render(court.view(0.0), (1280, 720))
    court.scorers.clear()
    without = render(court.view(0.0), (1280, 720))
    area = pygame.Rect(0, 260, 1280, 400)
    assert pygame.mask.from_threshold(without.subsurface(area), (0, 0, 0), (1, 1, 1, 255)).count() == area.w * area.h
    assert pygame.mask.from_threshold(with_scorers.subsurface(area), (0, 0, 0),
                                      (1, 1, 1, 255)).count() < area.w * area.h * 0.95
