"""courtside.demo.presses: the officials' plan, written as a press script, played by the real table
program through gpiozero's mock pins, ends as the plan says."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

import pytest

from courtside.demo.officials import HOLD_S, STEP_S, plan_match
from courtside.demo.presses import live_moment, press_script
from firmware.screen import HeadlessScreen
from firmware.script import PRESS_LENGTH, parse_script
from firmware.table import TableOptions, final_state, open_table, run_script
from rules.ruleset import StageKind, load_ruleset


@pytest.mark.parametrize(("name", "seed"), [("indoor-hockey", 3), ("water-polo", 4), ("ice-hockey", 5)])
def test_a_pool_match_played_by_the_table_ends_with_the_plans_score(tmp_path: Path, name: str, seed: int) -> None:
    ruleset = load_ruleset(name)
    plan = plan_match(ruleset, seed=seed)
    text, end = press_script(plan, ruleset, load=False)
    state = run_script(parse_script(text, "demo"), rules=name, journal=tmp_path, speed=0)
    assert state.phase == "finished"
    assert (state.home_goals, state.away_goals) == (plan.home_goals, plan.away_goals)
    assert end == parse_script(text, "demo")[-1].at


def test_the_level_classification_match_reaches_its_shootout_at_the_table(tmp_path: Path) -> None:
    """A pool match, then NEXT loads the placement match, which goes to extra time and strokes."""
    ruleset = load_ruleset("indoor-hockey")
    pool, end = press_script(plan_match(ruleset, seed=5), ruleset, load=False)
    plan = plan_match(ruleset, stage="knockout", round="placement", seed=11, level=True)
    placement, _ = press_script(plan, ruleset, load=True, offset=end + 5)
    tournament = tmp_path / "t.toml"
    tournament.write_text(_pool_then_placement(), encoding="utf-8")
    state = run_script(parse_script(pool + placement, "demo"), court="1", journal=tmp_path / "j",
                       tournament=str(tournament), speed=0)
    assert state.phase == "finished" and state.shootout is not None
    assert state.home_goals == state.away_goals == plan.home_goals
    assert state.result is not None and state.result.outcome == "shootout" and state.result.winner is not None


def test_a_restarted_table_goes_on_after_the_offset_and_loads_the_next_match(tmp_path: Path) -> None:
    ruleset = load_ruleset("indoor-hockey")
    first = plan_match(ruleset, seed=1)
    text, end = press_script(first, ruleset, load=False)
    presses = [line for line in text.splitlines() if not line.startswith("#")]
    assert presses[0].endswith("press clock_start")  # a fresh table has its first match loaded
    second, _ = press_script(plan_match(ruleset, seed=2), ruleset, load=True, offset=end + 30)
    lines = [line for line in second.splitlines() if not line.startswith("#")]
    assert lines[0] == f"{end + 30.5:g} press next"
    assert all(float(line.split()[0]) > end for line in lines)


def _pool_then_placement() -> str:
    return """
name = "A pool of two, then a placement match"
ruleset = "indoor-hockey"
final_ranking = ["winner P12", "loser P12"]
[schedule]
start = "2030-01-05T10:00"
courts = ["Hall 1"]
slot = "55:00"
knockout_slot = "70:00"
[[pools]]
name = "A"
teams = ["Team A", "Team B"]
[[matches]]
name = "P12"
home = "1A"
away = "2A"
round = "placement"
[[teams]]
name = "Team A"
[[teams]]
name = "Team B"
"""


@pytest.mark.parametrize("name", ["indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey"])
@pytest.mark.parametrize("level", [False, True])
def test_every_press_is_a_step_apart(name: str, level: bool) -> None:
    """Two lines are at least the officials' step apart (more than a press and a hold), whatever the speed
    the script is played at: a press never overlaps the next."""
    ruleset = load_ruleset(name)
    stage: StageKind = "knockout" if level else "round_robin"
    plan = plan_match(ruleset, stage=stage, round="final" if level else None, seed=9, level=level)
    text, _ = press_script(plan, ruleset, load=True, offset=100.0)
    instants = [p.at for p in parse_script(text, "demo")]
    gaps = [b - a for a, b in itertools.pairwise(instants)]
    assert min(gaps) >= STEP_S - 0.011
    assert STEP_S > HOLD_S + PRESS_LENGTH
    if not level:
        assert plan.actions[-1].kind == "end"  # the final whistle, with room for its hold


def test_a_cue_holds_the_match_live_with_its_penalty_running(tmp_path: Path) -> None:
    """The tournament-day test's look at a live match: the table stands at the cue, clock running and a
    penalty on the board, until the file exists; then the match goes on to the plan's own end."""
    ruleset = load_ruleset("indoor-hockey")
    plan = next(p for p in (plan_match(ruleset, seed=s) for s in range(20)) if live_moment(p, ruleset) is not None)
    moment = live_moment(plan, ruleset)
    assert moment is not None
    go = tmp_path / "go"
    text, _ = press_script(plan, ruleset, load=False, cue=(moment, go))
    presses = parse_script(text, "demo")
    cue = next(n for n, p in enumerate(presses) if p.verb == "wait" and p.arg)
    assert presses[cue - 1].at + PRESS_LENGTH < presses[cue].at < presses[cue + 1].at  # between two presses
    table = open_table(TableOptions(rules="indoor-hockey", court="1", pins="mock", journal=tmp_path / "j",
                                    speed=0, script=presses), screen=HeadlessScreen(echo=lambda _: None))
    loop = table.loop
    player = threading.Thread(target=loop.run)
    player.start()
    try:
        deadline = time.monotonic() + 60
        while loop.script is None or loop.script.held_at(loop.clock.seconds()) is None:
            assert player.is_alive() and time.monotonic() < deadline, "the table never stood at its cue"
            time.sleep(0.01)
        state = loop.session.match.state_at(loop.now_ms())
        assert abs(loop.now_ms() - moment) <= 10 and state.running and state.penalties  # live, a penalty running
        assert loop.session.match.last_at < moment  # nothing after the cue was played
        go.touch()
        player.join(60)
        assert not player.is_alive()
        end = final_state(table)
    finally:
        loop.stopped = True
        player.join(10)
        table.close()
    assert end.phase == "finished" and (end.home_goals, end.away_goals) == (plan.home_goals, plan.away_goals)
