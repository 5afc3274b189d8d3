"""The fixture list: every constraint the issue names, checked on the schedules the examples produce."""

from __future__ import annotations

import tomllib
from collections import Counter, defaultdict
from datetime import datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from rules.errors import ScheduleError
from rules.ruleset import load_ruleset
from rules.tournament import build_schedule, load_tournament_ruleset, parse_tournament, pool_teams
from rules.tournament.loading import validate_tournament
from rules.tournament.model import Tournament
from rules.tournament.schedule import TournamentSchedule
from rules.tournament.stages import stage_dependencies

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"
SEEDS = ["indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey"]


def scheduled(name: str) -> tuple[Tournament, TournamentSchedule]:
    path = EXAMPLES / f"{name}.toml"
    t = parse_tournament(path.read_text(encoding="utf-8"), str(path))
    return t, build_schedule(t, load_tournament_ruleset(t, str(path)), pool_teams(t, str(path)))


def check_common(t: Tournament, s: TournamentSchedule) -> None:
    rest = timedelta(milliseconds=t.schedule.min_rest)
    by_team: dict[str, list[tuple[datetime, datetime]]] = defaultdict(list)
    by_court: dict[str, list[tuple[datetime, datetime]]] = defaultdict(list)
    for m in s.matches:
        by_team[m.home].append((m.start, m.end))
        by_team[m.away].append((m.start, m.end))
        by_court[m.court].append((m.start, m.end))
    # No team (or classification slot) in two places at once, and the minimum rest between matches.
    for spans in by_team.values():
        spans.sort()
        for (_, end), (start, _) in pairwise(spans):
            assert start >= end + rest
    for spans in by_court.values():
        spans.sort()
        assert all(b[0] >= a[1] for a, b in pairwise(spans))
    # A stage starts only after the stages it waits for are over, plus the rest.
    end_of: dict[str, datetime] = {}
    for m in s.matches:
        end_of[m.stage] = max(end_of.get(m.stage, m.end), m.end)
    for m in s.matches:
        for dep in stage_dependencies(t, m.stage):
            if dep in end_of:
                assert m.start >= end_of[dep] + rest, (m.stage, dep)
    # Play stays inside the playing day and out of the breaks.
    sch = t.schedule
    for m in s.matches:
        assert m.start >= sch.start
        # Each match names its identity (its number, as text on the wire) and its stage's kind.
        assert m.match_id == str(m.number) and m.kind == ("round_robin" if t.pool(m.stage) else "knockout")
        if sch.day_start is not None and sch.day_end is not None:
            assert m.start.time() >= sch.day_start and m.end.time() <= sch.day_end and m.start.date() == m.end.date()
        for b in sch.breaks:
            assert m.end <= b.start or m.start >= b.end


@pytest.mark.parametrize("name", SEEDS)
def test_every_example_schedule_keeps_the_common_constraints(name: str) -> None:
    t, s = scheduled(name)
    check_common(t, s)
    stages = Counter(m.stage for m in s.matches)
    assert all(stages[match.name] == 1 for match in t.matches)
    for m in s.matches:
        declared = t.match(m.stage)
        if declared is not None and declared.not_before is not None:
            assert m.start >= declared.not_before
        if declared is not None and declared.court not in (None, "other"):
            assert m.court == declared.court


def test_indoor_football_halls_as_the_seed_says() -> None:
    _, s = scheduled("indoor-football")
    halls: dict[str, Counter[str]] = defaultdict(Counter)
    for m in s.matches:
        if m.round == "pool":
            halls[m.home][m.court] += 1
            halls[m.away][m.court] += 1
    # "Each team plays 4 group matches; playing 2 in each hall."
    assert len(halls) == 10
    assert all(c == {"Hall 1": 2, "Hall 2": 2} for c in halls.values())
    court = {m.stage: m.court for m in s.matches}
    # "The winners of each quarter final play their semi final in the other hall."
    assert court["QF1"] == court["QF2"] != court["SF1"]
    assert court["QF3"] == court["QF4"] != court["SF2"]
    # "The final is in Hall 1 and the 3rd place match is in Hall 2."
    assert (court["F"], court["P3"]) == ("Hall 1", "Hall 2")


def test_ice_hockey_45_minute_slots_and_resurfacing_after_every_second_game() -> None:
    _, s = scheduled("ice-hockey")
    assert all(m.end - m.start == timedelta(minutes=45) for m in s.matches)
    games = sorted(s.matches, key=lambda m: m.start)
    assert len(s.resurfacings) == len(games) // 2
    for n, r in enumerate(s.resurfacings):
        second = games[2 * n + 1]
        assert r.start == second.end and r.end - r.start == timedelta(minutes=15)
        assert all(m.end <= r.start or m.start >= r.end for m in games)


def test_indoor_hockey_days_as_the_seed_says() -> None:
    _, s = scheduled("indoor-hockey")
    days = {m.stage: m.start.strftime("%A") for m in s.matches if m.stage != "C"}
    # "The winners of these matches will play the Final on Sunday and the losers will play 3/4, also on Sunday"
    assert days["F"] == days["P34"] == "Sunday"
    assert {days["SF1"], days["SF2"]} == {"Saturday"}
    # Pool C: "2 more games each on Saturday afternoon and Sunday morning".
    pool_c = [m for m in s.matches if m.stage == "C"]
    for slot in ("3A", "4A", "3B", "4B"):
        mine = sorted(m.start for m in pool_c if slot in (m.home, m.away))
        assert [(d.strftime("%A"), d.hour >= 12) for d in mine] == [("Saturday", True), ("Sunday", False)]


def tiny(**schedule: Any) -> Tournament:
    data: dict[str, Any] = {
        "name": "x", "ruleset": "indoor-hockey",
        "teams": [{"name": n} for n in "abc"],
        "schedule": {"start": "2026-01-17T09:00", "courts": ["Hall 1", "Hall 2"], "slot": "50:00", **schedule},
        "pools": [{"name": "A", "teams": list("abc")}],
    }
    return validate_tournament(data, "x.toml")


def test_says_plainly_when_halls_cannot_be_balanced() -> None:
    # Three teams: one match, then two side by side; a and b cannot both change hall.
    with pytest.raises(ScheduleError) as caught:
        build_schedule(tiny(balance_courts=True), load_ruleset("indoor-hockey"), {})
    assert "court balance cannot be met" in str(caught.value)


def test_says_plainly_when_the_days_are_too_short_for_a_slot() -> None:
    with pytest.raises(ScheduleError) as caught:
        build_schedule(tiny(day_start="09:00", day_end="09:30"), load_ruleset("indoor-hockey"), {})
    assert "does not fit" in str(caught.value)


def test_says_plainly_when_no_court_can_take_a_match() -> None:
    data: dict[str, Any] = {
        "name": "x", "ruleset": "indoor-hockey",
        "teams": [{"name": n} for n in "abcd"],
        "schedule": {"start": "2026-01-17T09:00", "courts": ["Hall 1"], "slot": "50:00"},
        "pools": [{"name": "A", "teams": list("ab")}, {"name": "B", "teams": list("cd")}],
        "matches": [
            {"name": "F", "home": "winner G", "away": "winner H", "round": "final", "court": "other"},
            {"name": "G", "home": "1A", "away": "1B", "round": "semi_final"},
            {"name": "H", "home": "2A", "away": "2B", "round": "semi_final"},
        ],
    }
    with pytest.raises(ScheduleError) as caught:
        build_schedule(validate_tournament(data, "x.toml"), load_ruleset("indoor-hockey"), {})
    assert "no court can take" in str(caught.value) and "F" in str(caught.value)


def test_breaks_and_the_next_day() -> None:
    t = tiny(day_start="09:00", day_end="11:00", breaks=[{"start": "2026-01-17T09:50", "end": "2026-01-17T10:10"}])
    s = build_schedule(t, load_ruleset("indoor-hockey"), {})
    check_common(t, s)
    # a v b at 9:00; nothing fits between the break (ends 10:10) and the day's end apart from one
    # slot (10:10-11:00), which a rested team can take; the third match goes to the next morning.
    starts = [m.start.strftime("%d %H:%M") for m in s.matches]
    assert starts == ["17 09:00", "17 10:10", "18 09:00"]


def test_a_scheduled_match_moved_or_renumbered_is_named_by_its_own_number() -> None:
    """The identity is made once and kept beside the fields; a copy with another number names its own."""
    _, s = scheduled("indoor-hockey")
    m = s.matches[0]
    assert m.match_id == "1"
    moved = m.replace(number=41, court="Hall 9")
    assert (moved.match_id, m.match_id) == ("41", "1")
    assert m.replace() == m and hash(m.replace()) == hash(m)  # the identity made is no field of the record


def test_the_same_file_gives_the_same_schedule() -> None:
    assert scheduled("indoor-football")[1] == scheduled("indoor-football")[1]


def test_a_large_tournament_keeps_every_constraint_and_spreads_teams_over_pitches() -> None:
    names = [f"T{i:03d}" for i in range(250)]
    data: dict[str, Any] = {
        "name": "big", "ruleset": "youth-football",
        "teams": [{"name": n} for n in names],
        "schedule": {
            "start": "2026-07-13T08:00", "courts": [f"P{i}" for i in range(20)], "slot": "50:00",
            "min_rest": "60:00", "day_start": "08:00", "day_end": "20:00", "balance_courts": True,
            "breaks": [{"start": "2026-07-13T12:00", "end": "2026-07-13T12:40"}],
        },
        "pools": [{"name": f"G{p}", "teams": names[5 * p : 5 * p + 5]} for p in range(50)],
    }
    t = validate_tournament(data, "big.toml")
    s = build_schedule(t, load_ruleset("youth-football"), {})
    assert len(s.matches) == 50 * 10
    check_common(t, s)
    pitches: dict[str, Counter[str]] = defaultdict(Counter)
    for m in s.matches:
        pitches[m.home][m.court] += 1
        pitches[m.away][m.court] += 1
    # Four matches each over twenty pitches: evenly means never the same pitch twice.
    assert all(max(c.values()) == 1 for c in pitches.values())


def test_a_drawn_pool_without_its_drawn_teams_is_refused() -> None:
    path = EXAMPLES / "water-polo.toml"
    t = parse_tournament(path.read_text(encoding="utf-8"), str(path))
    with pytest.raises(ScheduleError) as caught:
        build_schedule(t, load_ruleset("water-polo"), {})
    assert "A, B, C, D are filled by the draw" in str(caught.value)


def check_medals_last(t: Tournament, s: TournamentSchedule) -> None:
    medal = {"G1", "G3"} if t.ruleset == "ice-hockey" else None
    if medal is None:
        medal = {
            (text.split(" ", 1)[1]) for text in t.final_ranking[:3] if text.startswith(("winner ", "loser "))
        }
    others = [m.start for m in s.matches if m.stage not in medal]
    for m in s.matches:
        if m.stage in medal:
            assert m.start >= max(others), m.stage


@pytest.mark.parametrize("name", SEEDS)
def test_medal_games_start_after_every_other_match(name: str) -> None:
    check_medals_last(*scheduled(name))


def test_medal_games_go_last_whatever_order_the_file_lists_them_in() -> None:
    path = EXAMPLES / "ice-hockey.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    # The final first, the 3rd-place game next, then everything else.
    data["matches"].sort(key=lambda m: {"G1": 0, "G3": 1}.get(m["name"], 2))
    t = validate_tournament(data, str(path))
    s = build_schedule(t, load_ruleset("ice-hockey"), pool_teams(t, str(path)))
    check_common(t, s)
    check_medals_last(t, s)
    assert [m.stage for m in s.matches][-2:] == ["G3", "G1"]


@pytest.mark.parametrize("name", SEEDS)
def test_the_third_place_game_is_played_before_the_final(name: str) -> None:
    # docs/tournaments.md: medal games go last, the 3rd-place game before the final;
    # the final closes the tournament, even with a second court free beside it
    t, s = scheduled(name)
    by_stage = {m.stage: m for m in s.matches}
    third = t.final_ranking[2].split(" ", 1)[1]  # "winner P34", "loser T2"
    final = t.final_ranking[0].split(" ", 1)[1]
    assert by_stage[third].end <= by_stage[final].start
    assert by_stage[final].start == max(m.start for m in s.matches)
