"""Each seed tournament played through from a complete set of results.

The expected teams below follow from the scores in tests/data/*-results.csv and
the rules as the seeds write them; comments give the reasoning where it is not
a plain "more points".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.standings import parse_decisions_csv, parse_results_csv
from rules.tournament import Progress, Tournament, load_tournament_ruleset, parse_tournament, pool_teams, progress

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "rules" / "examples"
DATA = ROOT / "tests" / "data"


def play(name: str, *, decisions: bool = False) -> tuple[Tournament, Progress]:
    path = EXAMPLES / f"{name}.toml"
    t = parse_tournament(path.read_text(encoding="utf-8"), str(path))
    ruleset = load_tournament_ruleset(t, str(path))
    results_path = DATA / f"{name}-results.csv"
    results = parse_results_csv(results_path.read_text(encoding="utf-8"), str(results_path))
    chosen = []
    if decisions:
        decisions_path = DATA / f"{name}-decisions.csv"
        chosen = parse_decisions_csv(decisions_path.read_text(encoding="utf-8"), str(decisions_path))
    return t, progress(t, ruleset, pool_teams(t, str(path)), results, chosen, results_source=str(results_path))


def pool_places(pools: dict[str, list[str]]) -> dict[str, str]:
    return {f"{rank}{pool}": team for pool, teams in pools.items() for rank, team in enumerate(teams, 1)}


def check_bracket(state: Progress, bracket: list[tuple[str, str, str, str]], expected: dict[str, str]) -> None:
    """Each match has exactly the teams its placeholders name, and its winner and loser move on."""
    for name, home, away, winner in bracket:
        m = state.matches[name]
        assert (m.home.team, m.away.team) == (home, away), name
        assert m.winner == winner
        assert m.loser == (away if winner == home else home)
        expected[f"winner {name}"] = winner
        expected[f"loser {name}"] = m.loser
    assert len(state.matches) == len(bracket)


def check_every_slot(state: Progress, expected: dict[str, str]) -> None:
    resolved = {text: slot.team for text, slot in state.slots.items() if slot.text != slot.team}
    assert resolved == expected
    assert all(slot.needs is None for slot in state.slots.values())


def test_indoor_hockey_semis_final_and_pool_c_with_the_carried_result() -> None:
    _, state = play("indoor-hockey")
    # Pool A: Köln won all three (15); Amsterdam two (11, and a 1-point loss by one goal to Köln);
    # Three Rock Rovers and Slavia drew 2-2 (3 points each, no wins): goal difference -5 v -7.
    # Pool B: Bloemendaal 15, Alster 11, Minsk beat Pembroke 3-1 (5) and Pembroke lost twice by <= 2 (2).
    expected = pool_places({
        "A": ["Rot-Weiss Köln", "Amsterdam H&BC", "Three Rock Rovers", "Slavia Praha"],
        "B": ["HC Bloemendaal", "Club an der Alster", "Minsk Dinamo", "Pembroke Wanderers"],
    })
    # Pool C carries forward Three Rock Rovers 2-2 Slavia and Pembroke 1-3 Minsk, then plays the other four:
    # Slavia 2+5+5 = 12, Minsk 5+1+5 = 11, Three Rock Rovers 2+5+1 = 8, Pembroke 1+1+0 = 2.
    # Without the carried results Three Rock Rovers (6) would be level with Minsk (6) and ahead on goals.
    pool_c = state.pools["C"]
    assert pool_c.table is not None and pool_c.complete
    assert pool_c.played == 4 and pool_c.expected == 4
    assert {frozenset(r.teams) for r in pool_c.carried} == {
        frozenset({"Three Rock Rovers", "Slavia Praha"}), frozenset({"Pembroke Wanderers", "Minsk Dinamo"})
    }
    assert [(r.team, r.points, r.played) for r in pool_c.table.rows] == [
        ("Slavia Praha", 12, 3), ("Minsk Dinamo", 11, 3), ("Three Rock Rovers", 8, 3), ("Pembroke Wanderers", 2, 3),
    ]
    expected.update(pool_places({"C": ["Slavia Praha", "Minsk Dinamo", "Three Rock Rovers", "Pembroke Wanderers"]}))
    check_bracket(state, [
        ("SF1", "Amsterdam H&BC", "HC Bloemendaal", "HC Bloemendaal"),      # 2A v 1B, golden goal
        ("SF2", "Rot-Weiss Köln", "Club an der Alster", "Rot-Weiss Köln"),  # 1A v 2B
        ("P34", "Amsterdam H&BC", "Club an der Alster", "Amsterdam H&BC"),
        ("F", "HC Bloemendaal", "Rot-Weiss Köln", "Rot-Weiss Köln"),        # 2-2, strokes 2-3
    ], expected)
    check_every_slot(state, expected)
    assert [s.team for s in state.final_ranking] == [
        "Rot-Weiss Köln", "HC Bloemendaal", "Amsterdam H&BC", "Club an der Alster",
        "Slavia Praha", "Minsk Dinamo", "Three Rock Rovers", "Pembroke Wanderers",
    ]


J = " Juniors"


def test_water_polo_cross_overs_quarter_finals_and_every_place_to_16() -> None:
    _, state = play("water-polo")
    # Each pool is won in pot order, except that Germany and Japan drew 6-6 in A: level on points,
    # BL 9.6.3.1.2 looks at the results against the top team, Hungary (Germany lost by 5, Japan by 6).
    pools = {
        "A": ["Hungary", "Italy", "Germany", "Japan"],
        "B": ["Serbia", "Montenegro", "Netherlands", "Canada"],
        "C": ["Croatia", "USA", "France", "Brazil"],
        "D": ["Spain", "Greece", "Australia", "South Africa"],
    }
    expected = pool_places({p: [x + J for x in teams] for p, teams in pools.items()})
    bracket = [
        # Cross-overs 2A v 3B, 2B v 3A, 2C v 3D, 2D v 3C; Netherlands win CO1 in the shoot-out.
        ("CO1", "Italy", "Netherlands", "Netherlands"),
        ("CO2", "Montenegro", "Germany", "Montenegro"),
        ("CO3", "USA", "Australia", "USA"),
        ("CO4", "Greece", "France", "Greece"),
        ("QF1", "Hungary", "USA", "Hungary"),
        ("QF2", "Serbia", "Greece", "Greece"),
        ("QF3", "Croatia", "Netherlands", "Croatia"),
        ("QF4", "Spain", "Montenegro", "Spain"),
        ("SF1", "Hungary", "Croatia", "Croatia"),
        ("SF2", "Greece", "Spain", "Spain"),
        ("P5A", "USA", "Netherlands", "USA"),
        ("P5B", "Serbia", "Montenegro", "Serbia"),
        # Places 9-16: the 4th-placed teams against the cross-over losers.
        ("P9A", "Japan", "Australia", "Australia"),
        ("P9B", "Canada", "France", "France"),
        ("P9C", "Brazil", "Italy", "Italy"),
        ("P9D", "South Africa", "Germany", "Germany"),
        ("P9E", "Australia", "Italy", "Italy"),
        ("P9F", "France", "Germany", "France"),
        ("P13A", "Japan", "Brazil", "Brazil"),
        ("P13B", "Canada", "South Africa", "Canada"),
        ("P15", "Japan", "South Africa", "Japan"),
        ("P13", "Brazil", "Canada", "Canada"),
        ("P11", "Australia", "Germany", "Australia"),
        ("P9", "Italy", "France", "Italy"),
        ("P7", "Netherlands", "Montenegro", "Montenegro"),
        ("P5", "USA", "Serbia", "Serbia"),
        ("P3", "Hungary", "Greece", "Hungary"),
        ("F", "Croatia", "Spain", "Croatia"),
    ]
    check_bracket(state, [(n, h + J, a + J, w + J) for n, h, a, w in bracket], expected)
    check_every_slot(state, expected)
    ranking = [
        "Croatia", "Spain", "Hungary", "Greece", "Serbia", "USA", "Montenegro", "Netherlands",
        "Italy", "France", "Australia", "Germany", "Canada", "Brazil", "Japan", "South Africa",
    ]
    assert [s.team for s in state.final_ranking] == [x + J for x in ranking]


def test_indoor_football_quarter_finals_from_group_places_and_the_last_out() -> None:
    _, state = play("indoor-football")
    # Groups of five, every team plays four. Lamač and Ružinov drew: both 1 point, Lamač on goal difference.
    expected = pool_places({
        "A": ["Sklenári", "Petržalka FC", "Vrakuňa Wolves", "Rača Rovers", "Nivy Nomads"],
        "B": ["Devín Dragons", "Dunaj United", "Karlova Ves", "Lamač Lions", "Ružinov Rangers"],
    })
    assert all(row.played == 4 for pool in ("A", "B") for row in state.pools[pool].table.rows)  # type: ignore[union-attr]
    check_bracket(state, [
        ("QF1", "Sklenári", "Lamač Lions", "Sklenári"),             # 1A v 4B
        ("QF2", "Dunaj United", "Vrakuňa Wolves", "Vrakuňa Wolves"),  # 2B v 3A, on penalties
        ("QF3", "Petržalka FC", "Karlova Ves", "Petržalka FC"),     # 2A v 3B
        ("QF4", "Devín Dragons", "Rača Rovers", "Devín Dragons"),   # 1B v 4A
        ("SF1", "Sklenári", "Vrakuňa Wolves", "Sklenári"),
        ("SF2", "Petržalka FC", "Devín Dragons", "Devín Dragons"),
        ("P3", "Vrakuňa Wolves", "Petržalka FC", "Petržalka FC"),
        ("F", "Sklenári", "Devín Dragons", "Devín Dragons"),
    ], expected)
    # The quarter-final losers by group record: Dunaj 9 points, Karlova Ves 6, Rača 3, Lamač 1.
    expected.update({"1QFL": "Dunaj United", "2QFL": "Karlova Ves", "3QFL": "Rača Rovers", "4QFL": "Lamač Lions"})
    # The group fifths, out first: Ružinov's draw (1 point) puts it above Nivy (0).
    expected.update({"best 5th": "Ružinov Rangers", "2nd best 5th": "Nivy Nomads"})
    check_every_slot(state, expected)
    assert [s.team for s in state.final_ranking] == [
        "Devín Dragons", "Sklenári", "Petržalka FC", "Vrakuňa Wolves", "Dunaj United",
        "Karlova Ves", "Rača Rovers", "Lamač Lions", "Ružinov Rangers", "Nivy Nomads",
    ]


P = " P14"


def test_youth_football_best_thirds_straffar_and_a_decision_by_lots() -> None:
    _, state = play("youth-football", decisions=True)
    pools = {
        "A": ["Hammarby IF", "AIK", "Örebro SK", "Umeå FC"],
        "B": ["IFK Göteborg", "BK Häcken", "Kalmar FF", "Lunds BK"],
        "C": ["Malmö FF", "Djurgården", "IF Elfsborg", "GAIS"],
    }
    expected = pool_places({p: [x + P for x in teams] for p, teams in pools.items()})
    # The 3rds all have 3 points; goal difference: Kalmar 0 (5-0 over Lunds), Elfsborg -2, Örebro -3.
    # The 4ths have no points; goal difference: Umeå -8 (a 3-0 walk-over), GAIS -10, Lunds -12.
    # Kalmar (B) and Elfsborg (C) qualify; "3B/C" v 1A takes the B team, "3A/C" v 1B the C team,
    # so neither 3rd meets its own group's winner (1B IFK Göteborg is Kalmar's group).
    expected.update({
        "3B/C": "Kalmar FF" + P, "3A/C": "IF Elfsborg" + P, "3rd best 3rd": "Örebro SK" + P,
        "best 4th": "Umeå FC" + P, "2nd best 4th": "GAIS" + P, "3rd best 4th": "Lunds BK" + P,
    })
    bracket = [
        ("QF1", "Hammarby IF", "Kalmar FF", "Hammarby IF"),     # 1A v 3B/C
        ("QF2", "BK Häcken", "Djurgården", "Djurgården"),       # 2B v 2C, straffar 4-5
        ("QF3", "IFK Göteborg", "IF Elfsborg", "IF Elfsborg"),  # 1B v 3A/C
        ("QF4", "Malmö FF", "AIK", "Malmö FF"),                 # 1C v 2A
        ("SF1", "Hammarby IF", "Djurgården", "Hammarby IF"),
        ("SF2", "IF Elfsborg", "Malmö FF", "Malmö FF"),
        ("P3", "Djurgården", "IF Elfsborg", "Djurgården"),
        ("F", "Hammarby IF", "Malmö FF", "Malmö FF"),
    ]
    check_bracket(state, [(n, h + P, a + P, w + P) for n, h, a, w in bracket], expected)
    # AIK and Häcken are level on everything (6 points, +3, 5 goals): the organiser drew lots.
    # Kalmar is the QF loser with the weakest group record (3 points).
    expected.update({"1QFL": "IFK Göteborg" + P, "2QFL": "AIK" + P, "3QFL": "BK Häcken" + P, "4QFL": "Kalmar FF" + P})
    check_every_slot(state, expected)
    group_of = {team + P: pool for pool, teams in pools.items() for team in teams}
    for name in ("QF1", "QF2", "QF3", "QF4"):
        m = state.matches[name]
        assert group_of[m.home.team or ""] != group_of[m.away.team or ""], name
    ranking = [
        "Malmö FF", "Hammarby IF", "Djurgården", "IF Elfsborg", "IFK Göteborg", "AIK",
        "BK Häcken", "Kalmar FF", "Örebro SK", "Umeå FC", "GAIS", "Lunds BK",
    ]
    assert [s.team for s in state.final_ranking] == [x + P for x in ranking]


def test_youth_football_without_the_decision_leaves_places_6_and_7_open() -> None:
    _, state = play("youth-football")
    assert state.slots["2QFL"].team is None and state.slots["3QFL"].team is None
    assert "lots" in (state.slots["2QFL"].needs or "")
    assert [s.team for s in state.final_ranking][5:7] == [None, None]
    assert state.slots["1QFL"].team == "IFK Göteborg" + P  # the tie is only about places 2 and 3 of QFL


def test_ice_hockey_same_club_teams_switched_apart_and_a_forfeit() -> None:
    t, state = play("ice-hockey")
    # Drawn with clubs apart; Falcons AA/A would meet in T1 (1A v 1C) and Lions AA/A in M2 (2B v 2D).
    # The organiser switches equally placed teams: 1A with 1B and 2A with 2B, which keeps every
    # branch game between an Elite and a Division 1 team (the seed's third preference).
    assert [(s.slots, s.teams) for s in state.swaps] == [
        (("1A", "1B"), ("Falcons AA", "Hawks AA")),
        (("2A", "2B"), ("Wolves AA", "Lions AA")),
    ]
    expected = {
        "1A": "Hawks AA", "1B": "Falcons AA", "1C": "Falcons A", "1D": "Ravens A",
        "2A": "Lions AA", "2B": "Wolves AA", "2C": "Eagles A", "2D": "Lions A",
        "3A": "Bears AA", "3B": "Tigers AA", "3C": "Owls A", "3D": "Sharks A",
    }
    check_bracket(state, [
        ("T1", "Hawks AA", "Falcons A", "Hawks AA"),
        ("T2", "Falcons AA", "Ravens A", "Falcons AA"),
        ("M1", "Lions AA", "Eagles A", "Lions AA"),
        ("M2", "Wolves AA", "Lions A", "Wolves AA"),
        ("B1", "Bears AA", "Owls A", "Bears AA"),
        ("B2", "Tigers AA", "Sharks A", "Tigers AA"),
        ("G11", "Owls A", "Sharks A", "Owls A"),          # Sharks forfeit: a 0-5 loss
        ("G9", "Bears AA", "Tigers AA", "Bears AA"),
        ("G7", "Eagles A", "Lions A", "Lions A"),
        ("G5", "Lions AA", "Wolves AA", "Wolves AA"),
        ("G3", "Falcons A", "Ravens A", "Ravens A"),
        ("G1", "Hawks AA", "Falcons AA", "Falcons AA"),   # level, decided by game winning shots
    ], expected)
    check_every_slot(state, expected)
    clubs = {team.name: team.club for team in t.teams}
    for m in state.matches.values():
        if m.round not in ("final", "final_placement"):
            assert clubs[m.home.team or ""] != clubs[m.away.team or ""], m.name
    assert [s.team for s in state.final_ranking] == [
        "Falcons AA", "Hawks AA", "Ravens A", "Falcons A", "Wolves AA", "Lions AA",
        "Lions A", "Eagles A", "Bears AA", "Tigers AA", "Owls A", "Sharks A",
    ]


@pytest.mark.parametrize("name", ["indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey"])
def test_every_team_gets_exactly_one_place(name: str) -> None:
    t, state = play(name, decisions=name == "youth-football")
    assert sorted(s.team or "" for s in state.final_ranking) == sorted(team.name for team in t.teams)
