"""courtside.demo.officials: the simulated officials' presses finish every sport's match, the same way for a seed."""

from __future__ import annotations

import pytest

from courtside.demo.officials import Plan, plan_match
from rules.match import Match
from rules.ruleset import load_ruleset

SPORTS = ["indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey"]


def _replay(plan: Plan, name: str, *, stage: str = "round_robin", round: str | None = None) -> Match:
    """The plan's events through a fresh engine, as the table will apply them."""
    match = Match(load_ruleset(name), stage=stage, round=round)  # type: ignore[arg-type]
    for event in plan.events():
        match.apply(event)  # raises if the table would refuse a press
    return match


@pytest.mark.parametrize("name", SPORTS)
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_a_pool_match_is_played_to_its_end_by_presses_the_table_accepts(name: str, seed: int) -> None:
    plan = plan_match(load_ruleset(name), seed=seed)
    match = _replay(plan, name)
    state = match.state_at(plan.end_ms)
    assert state.phase == "finished"
    # The final whistle is an event, so the journal alone gives the result (what the outbox sends).
    assert plan.actions[-1].kind == "end" and match.result() is not None
    assert (state.home_goals, state.away_goals) == (plan.home_goals, plan.away_goals)
    assert [a.at_ms for a in plan.actions] == sorted(a.at_ms for a in plan.actions)
    assert plan.actions[0].kind == "start"
    assert not plan.overtime and not plan.shootout  # a pool match may end level


@pytest.mark.parametrize("name", SPORTS)
def test_the_same_seed_gives_the_same_presses_and_another_seed_others(name: str) -> None:
    ruleset = load_ruleset(name)
    assert plan_match(ruleset, seed=3) == plan_match(ruleset, seed=3)
    assert plan_match(ruleset, seed=3).actions != plan_match(ruleset, seed=4).actions


def test_a_level_classification_match_goes_through_extra_time_to_a_shootout() -> None:
    """Indoor hockey: golden-goal extra time, then the penalty stroke competition."""
    for seed in range(5):
        plan = plan_match(load_ruleset("indoor-hockey"), stage="knockout", round="placement", seed=seed, level=True)
        assert plan.overtime and plan.shootout
        assert plan.home_goals == plan.away_goals
        shots = [a for a in plan.actions if a.kind == "shot"]
        assert len(shots) >= 6
        final = _replay(plan, "indoor-hockey", stage="knockout", round="placement").state_at(plan.end_ms)
        assert final.phase == "finished" and final.shootout is not None
        assert final.shootout.home_goals != final.shootout.away_goals


@pytest.mark.parametrize("name", ["water-polo", "ice-hockey", "youth-football"])
def test_sports_without_extra_time_go_straight_to_the_shootout(name: str) -> None:
    plan = plan_match(load_ruleset(name), stage="knockout", round="final", seed=2, level=True)
    assert plan.shootout and not plan.overtime


def test_a_tournament_day_has_goals_penalties_and_time_outs() -> None:
    plans = [plan_match(load_ruleset("indoor-hockey"), seed=seed) for seed in range(10)]
    kinds = [a.kind for plan in plans for a in plan.actions]
    assert kinds.count("goal") >= 20 and kinds.count("penalty") >= 5 and kinds.count("timeout") >= 2
    penalties = {a.penalty for plan in plans for a in plan.actions if a.kind == "penalty"}
    assert penalties <= {"green", "yellow"}  # nobody is sent off in the demo


def test_no_time_out_where_the_ruleset_has_none() -> None:
    plans = [plan_match(load_ruleset("ice-hockey"), seed=seed) for seed in range(5)]
    assert not [a for plan in plans for a in plan.actions if a.kind == "timeout"]


def test_water_polo_time_outs_only_in_the_rounds_that_allow_them() -> None:
    ruleset = load_ruleset("water-polo")
    pool = [plan_match(ruleset, seed=s) for s in range(6)]
    final = [plan_match(ruleset, stage="knockout", round="final", seed=s) for s in range(6)]
    assert not [a for p in pool for a in p.actions if a.kind == "timeout"]
    assert [a for p in final for a in p.actions if a.kind == "timeout"]


@pytest.mark.parametrize("name", SPORTS)
def test_every_knockout_plan_ends_with_an_event_so_the_journal_alone_gives_the_result(name: str) -> None:
    """The final whistle, the deciding shot or the golden goal: a restarted table finds the match over."""
    for seed in range(8):
        plan = plan_match(load_ruleset(name), stage="knockout", round="final", seed=seed)
        match = _replay(plan, name, stage="knockout", round="final")
        assert match.result() is not None, f"seed {seed}"


def test_the_level_match_reaches_its_shootout_for_every_seed() -> None:
    for name in SPORTS:
        ruleset = load_ruleset(name)
        round_ = "placement" if name == "indoor-hockey" else "final"
        for seed in range(20):
            plan = plan_match(ruleset, stage="knockout", round=round_, seed=seed, level=True)
            assert plan.shootout, f"{name} seed {seed}"
