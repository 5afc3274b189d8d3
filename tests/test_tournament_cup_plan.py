"""One schedule over the venue's shared pitches for every class of a cup."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from itertools import pairwise
from pathlib import Path

import pytest

from rules.errors import TournamentError
from rules.tournament.cup import load_cup, parse_cup
from rules.tournament.cup_plan import CupPlan, draw_classes, plan_cup
from rules.tournament.schedule import build_schedule

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"
CUP = EXAMPLES / "youth-cup.toml"


@pytest.fixture(scope="module")
def plan() -> CupPlan:
    cup, rulesets = load_cup(CUP)
    return plan_cup(cup, rulesets, str(CUP))


def test_every_class_is_played_whole(plan: CupPlan) -> None:
    by_class = defaultdict(list)
    for m in plan.schedule.matches:
        by_class[m.class_name].append(m)
    # P10: two pools of four; F10: a pool of six; P13 and F13: two pools of four, then eight play-off matches.
    assert {k: len(v) for k, v in by_class.items()} == {"P10": 12, "F10": 15, "P13": 20, "F13": 20}
    assert [m.number for m in plan.schedule.matches] == list(range(1, 68))  # one numbering for the cup


def test_no_pitch_is_used_twice_at_once_and_each_class_keeps_to_its_pitches(plan: CupPlan) -> None:
    by_court = defaultdict(list)
    for m in plan.schedule.matches:
        by_court[m.court].append(m)
        klass = plan.cup.class_named(m.class_name)
        assert klass is not None and m.court in klass.tournament.schedule.courts
    for matches in by_court.values():
        matches.sort(key=lambda m: m.start)
        for a, b in pairwise(matches):
            assert a.end <= b.start, f"{a.court}: match {a.number} and {b.number} overlap"


def test_each_class_has_its_own_match_length(plan: CupPlan) -> None:
    for m in plan.schedule.matches:
        want = {"P10": 40, "F10": 45}.get(m.class_name, 50 if m.round == "pool" else 60)
        assert m.end - m.start == timedelta(minutes=want), m


def test_each_team_rests_and_play_offs_follow_their_pools(plan: CupPlan) -> None:
    last: dict[str, object] = {}
    rest = plan.cup.schedule.min_rest
    pools_end: dict[str, object] = defaultdict(lambda: None)
    for m in plan.schedule.matches:
        if m.round == "pool":
            pools_end[m.class_name] = max(filter(None, [pools_end[m.class_name], m.end]))  # type: ignore[type-var]
    for m in sorted(plan.schedule.matches, key=lambda m: m.start):
        for team in (m.home, m.away):
            key = f"{m.class_name}/{team}"
            if key in last:
                assert m.start - last[key] >= timedelta(milliseconds=rest), (team, m)  # type: ignore[operator]
            last[key] = m.end
        if m.round != "pool":
            assert m.start >= pools_end[m.class_name], m  # type: ignore[operator]


def test_breaks_and_days_are_kept_for_every_class(plan: CupPlan) -> None:
    cup = plan.cup
    for m in plan.schedule.matches:
        for b in cup.schedule.breaks:
            assert m.end <= b.start or m.start >= b.end, m
        assert cup.schedule.day_start <= m.start.time() and m.end.time() <= cup.schedule.day_end  # type: ignore[operator]
    # The A play-off is on Sunday, the A final last of its class.
    p13 = [m for m in plan.schedule.matches if m.class_name == "P13"]
    assert p13[-1].stage == "P13-AF" and p13[-1].start.date().isoformat() == "2026-06-14"


def test_a_file_without_classes_is_scheduled_as_before() -> None:
    path = EXAMPLES / "youth-football.toml"
    cup, rulesets = load_cup(path)
    t = cup.classes[0].tournament
    planned = plan_cup(cup, rulesets, str(path))
    alone = build_schedule(t, rulesets[""], draw_classes(cup, str(path))[""])
    assert planned.schedule == alone and {m.class_name for m in alone.matches} == {""}


def test_a_class_drawn_without_a_seed_is_named() -> None:
    unseeded = parse_cup(CUP.read_text(encoding="utf-8").replace("draw = { seed = 1013 }\n", ""), "cup.toml")
    with pytest.raises(TournamentError) as caught:
        draw_classes(unseeded, "cup.toml")
    assert caught.value.key == "classes[0] (P10).draw.seed"
    assert draw_classes(unseeded, "cup.toml", {"P10": 7})["P10"]  # a seed given draws it
