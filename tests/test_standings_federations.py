"""The example federation rulesets under docs/rulesets load and rank the federation's way."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.ruleset import Ruleset, load_ruleset
from rules.standings import Decision, MatchResult, parse_results_csv, rank_pool, rank_pools
from rules.standings.fairplay import parse_fair_play_csv
from tests.standings_support import order, played, row

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rulesets"
UEFA = load_ruleset(DOCS / "uefa.toml")
FIFA = load_ruleset(DOCS / "fifa.toml")
IIHF = load_ruleset(DOCS / "iihf.toml")


@pytest.mark.parametrize("name", ["uefa", "fifa", "iihf"])
def test_the_examples_load_by_path(name: str) -> None:
    ruleset = load_ruleset(str(DOCS / f"{name}.toml"))
    assert ruleset.ranking.criteria[0] == "points"


# Two teams on 4 points: X beat Y 1-0, but Y's goal difference is better.
TWO = played("G", "X 1-0 Y", "Z 4-0 X", "X 1-1 W", "Y 5-0 W", "Y 1-1 Z", "Z 0-0 W")


def test_uefa_puts_head_to_head_before_goal_difference() -> None:
    # X: W Y, L Z, D W = 4 (GD -3); Y: L X, W W, D Z = 4 (GD +4); Z: W X, D Y, D W = 5
    assert order(rank_pool(UEFA, "G", TWO)) == ["Z", "X", "Y", "W"]


def test_fifa_puts_goal_difference_before_head_to_head() -> None:
    assert order(rank_pool(FIFA, "G", TWO)) == ["Z", "Y", "X", "W"]


# A wins every game; B, C, D, E all on 4 points with goal difference -1.
# UEFA mini-table among B, C, D, E: C 4 pts GD 0 goals 3; D and E 4 pts GD 0 goals 2;
# B 4 pts GD 0 goals 1. D and E are re-examined alone: D beat E.
# FIFA: overall goals B 2, C 3, D 3, E 3; among C, D, E: D 4 pts, E 3, C 1.
FOUR = played(
    "G",
    "A 2-1 B", "A 1-0 C", "A 2-1 D", "A 2-1 E",
    "B 0-1 C", "B 1-0 D", "B 0-0 E", "C 1-1 D", "C 1-2 E", "D 1-0 E",
)


def test_uefa_four_way_tie_resolves_partly_then_by_the_game_between_the_two_left() -> None:
    table = rank_pool(UEFA, "G", FOUR)
    assert order(table) == ["A", "C", "D", "E", "B"]
    assert str(row(table, "D")["reason"]).endswith("ahead on head-to-head points 3 vs 0")


def test_fifa_ranks_the_same_four_way_tie_by_goals_then_among_the_teams_concerned() -> None:
    table = rank_pool(FIFA, "G", FOUR)
    assert order(table) == ["A", "D", "E", "C", "B"]
    assert "ahead on goals scored 3 vs 2" in str(row(table, "C")["reason"])


def ot(home: str, away: str, home_goals: int, away_goals: int, outcome: str = "overtime") -> MatchResult:
    return MatchResult(pool="G", home=home, away=away, home_goals=home_goals, away_goals=away_goals,
                       outcome=outcome)  # type: ignore[arg-type]


def test_iihf_three_two_one_zero_and_the_game_between_two_tied_teams() -> None:
    # A: OT win over B (2), regulation loss to C (0), regulation win over D (3) = 5
    # B: OT loss to A (1), OT wins over C and D (2 + 2) = 5
    # C: regulation win over A (3), OT loss to B (1), regulation win over D (3) = 7
    # A and B level: A won their game in overtime, 2 points to 1, although B's
    # goal difference (+1) beats A's (-3).
    results = [ot("A", "B", 3, 2), *played("G", "C 5-0 A", "A 1-0 D"), ot("B", "C", 2, 1), ot("B", "D", 2, 1),
               *played("G", "C 2-0 D")]
    table = rank_pool(IIHF, "G", results)
    assert [(r.team, r.points) for r in table.rows] == [("C", 7), ("A", 5), ("B", 5), ("D", 1)]
    assert row(table, "A")["reason"] == "level on 5 points; ahead on head-to-head points 2 vs 1"


def test_iihf_the_game_winning_shots_winner_is_credited_with_one_goal() -> None:
    # IIHF: a game decided by game-winning shots counts 2 points to 1, and its winner is
    # credited with one goal in the final score: 2-2 won on shots is 3-2 in the table.
    results = [
        MatchResult(pool="G", home="A", away="B", home_goals=2, away_goals=2, outcome="shootout",
                    home_shootout=1, away_shootout=0),
    ]
    table = rank_pool(IIHF, "G", results)
    summary = [(r.team, r.points, r.won, r.lost, r.goals_for, r.goals_against, r.goal_difference) for r in table.rows]
    assert summary == [("A", 2, 1, 0, 3, 2, 1), ("B", 1, 0, 1, 2, 3, -1)]


def test_iihf_the_credited_goal_is_not_given_by_rulesets_that_do_not_say_so() -> None:
    # FIFA penalties decide a knock-out; in a pool table (if one were entered) they add no goal
    assert not FIFA.points.shootout_winner_goal
    results = [
        MatchResult(pool="G", home="A", away="B", home_goals=2, away_goals=2, outcome="shootout",
                    home_shootout=1, away_shootout=0),
    ]
    rows = rank_pool(load_ruleset("indoor-hockey"), "G", results).rows
    assert [(r.team, r.goals_for, r.goals_against) for r in rows] == [("A", 2, 2), ("B", 2, 2)]


def test_iihf_three_way_tie_goes_to_the_best_placed_team_outside_then_restarts() -> None:
    # A, B, C: circular regulation 1-0 wins, 6 points each with wins over D and losses to E.
    # Against E (first): A lost 0-1, B and C 0-3, so A is first of the three; B and C
    # start again and B beat C.
    results = played(
        "G",
        "A 1-0 B", "B 1-0 C", "C 1-0 A",
        "E 1-0 A", "E 3-0 B", "E 3-0 C", "A 1-0 D", "B 4-0 D", "C 4-0 D", "E 1-0 D",
    )
    table = rank_pool(IIHF, "G", results)
    assert order(table) == ["E", "A", "B", "C", "D"]
    assert "ahead on goal difference against E -1 vs -3" in str(row(table, "A")["reason"])


def test_fifa_2018_group_h_leaves_japan_and_senegal_to_fair_play() -> None:
    # World Cup 2018, group H: Japan and Senegal finished level on points (4), goal
    # difference (0), goals (4) and their 2-2 draw; Japan went through on fair-play
    # points, which the results do not hold: the organiser's decision orders them.
    results = played(
        "H",
        "Colombia 1-2 Japan", "Poland 1-2 Senegal", "Japan 2-2 Senegal",
        "Poland 0-3 Colombia", "Japan 0-1 Poland", "Senegal 0-1 Colombia",
    )
    table = rank_pool(FIFA, "H", results)
    assert [(r.rank, r.team, r.points) for r in table.rows] == [
        (1, "Colombia", 6), (2, "Japan", 4), (2, "Senegal", 4), (4, "Poland", 3),
    ]
    assert [u.teams for u in table.unresolved] == [("Japan", "Senegal")]
    decided = rank_pool(FIFA, "H", results, decisions=[Decision(pool="H", method="lots", order=("Japan", "Senegal"))])
    assert order(decided) == ["Colombia", "Japan", "Senegal", "Poland"]


def test_uefa_euro_2004_group_c_three_way_tie_on_head_to_head_goals() -> None:
    # Euro 2004, group C: Sweden, Denmark and Italy all on 5 points after drawing
    # among themselves; head-to-head goals scored put Sweden (3) above Denmark (2)
    # and Italy (1), who went out despite equal points.
    results = played(
        "C",
        "Denmark 0-0 Italy", "Sweden 5-0 Bulgaria", "Bulgaria 0-2 Denmark",
        "Italy 1-1 Sweden", "Italy 2-1 Bulgaria", "Denmark 2-2 Sweden",
    )
    table = rank_pool(UEFA, "C", results)
    assert order(table) == ["Sweden", "Denmark", "Italy", "Bulgaria"]
    assert str(row(table, "Denmark")["reason"]).endswith(
        "ahead on head-to-head goals scored among Denmark, Italy and Sweden 2 vs 1"
    )


def test_iihf_example_breaks_ties_in_the_order_of_the_ice_hockey_preset() -> None:
    # seeds README: points, goal difference and goals among the tied teams, then the
    # best-placed team outside, then overall goal difference and goals
    assert IIHF.ranking.criteria == [*load_ruleset("ice-hockey").ranking.criteria]
    assert IIHF.ranking.tie_mode == "restart"


def test_iihf_three_way_tie_with_a_shots_win_counts_the_credited_goal_among_the_tied_teams() -> None:
    # A beat B on shots after 1-1 (A 2, B 1); B beat C 2-1 in overtime (B 2, C 1);
    # C beat A 2-1 in overtime (C 2, A 1); all three beat D in regulation 1-0.
    # 6 points each. Among the three, A-B counts 2-1 (the shots winner's goal), so
    # all three have 3 points, goal difference 0 and 3 goals: against D, the only
    # team outside, they are level too. Nothing the results hold separates them:
    # the seeding (the organiser's decision) does.
    results = [
        MatchResult(pool="G", home="A", away="B", home_goals=1, away_goals=1, outcome="shootout",
                    home_shootout=3, away_shootout=2),
        ot("B", "C", 2, 1), ot("C", "A", 2, 1),
        *played("G", "A 1-0 D", "B 1-0 D", "C 1-0 D"),
    ]
    table = rank_pool(IIHF, "G", results)
    assert [(r.rank, r.team, r.points) for r in table.rows] == [(1, "A", 6), (1, "B", 6), (1, "C", 6), (4, "D", 0)]
    assert [u.teams for u in table.unresolved] == [("A", "B", "C")]
    seeded = rank_pool(IIHF, "G", results, decisions=[Decision(pool="G", method="lots", order=("C", "A", "B"))])
    assert order(seeded) == ["C", "A", "B", "D"]


# IIHF: A, B and C level on points and on everything among themselves (circular 2-1
# wins). Against E, the best-placed team outside: B won (3 points), A and C lost
# (A 0-1, C 0-4). B is placed first of the three; A and C are then only two teams
# tied, so the game between them decides: C beat A, although A's goal difference
# against E (-1) is better than C's (-4).
TWO_LEFT = played(
    "G",
    "A 2-1 B", "B 2-1 C", "C 2-1 A",
    "B 3-0 E", "E 1-0 A", "E 4-0 C",
    "A 1-0 F", "C 1-0 F", "F 1-0 B", "E 1-0 F",
)


@pytest.mark.parametrize("name", ["iihf", "ice-hockey"])
def test_iihf_two_teams_left_tied_at_any_step_are_decided_by_the_game_between_them(name: str) -> None:
    ruleset = IIHF if name == "iihf" else load_ruleset("ice-hockey")
    win = ruleset.points.win
    table = rank_pool(ruleset, "G", TWO_LEFT)
    assert order(table) == ["E", "B", "C", "A", "F"]
    assert str(row(table, "B")["reason"]).endswith(f"ahead on points against E {win} vs 0")
    assert str(row(table, "C")["reason"]).endswith(f"ahead on head-to-head points {win} vs 0")


# UEFA art. 17.01 g): away goals scored in all group matches. X and Y drew both games
# between them 1-1, and both have goal difference +2 and 5 goals; Y scored 4 away
# goals (1 at X, 3 at Z), X scored 1 (at Y).
AWAY = played(
    "G",
    "X 1-1 Y", "Y 1-1 X", "X 3-1 Z", "Z 0-0 X", "Y 0-0 Z", "Z 1-3 Y",
)


def test_uefa_away_goals_in_all_group_matches_come_after_goals_scored() -> None:
    table = rank_pool(UEFA, "G", AWAY)
    assert order(table) == ["Y", "X", "Z"]
    assert str(row(table, "Y")["reason"]).endswith("ahead on away goals 4 vs 1")


def test_uefa_away_wins_come_after_wins() -> None:
    # P and Q: level on 7 points, on their games (2-0 each way), goal difference (+1),
    # goals (4), away goals (1) and wins (2); Q won at R, P won both its wins at home.
    results = played("G", "P 2-0 Q", "Q 2-0 P", "P 1-0 S", "R 1-1 P", "R 0-1 Q", "Q 1-1 S")
    table = rank_pool(UEFA, "G", results)
    assert order(table)[:2] == ["Q", "P"]
    assert str(row(table, "Q")["reason"]).endswith("ahead on away wins 1 vs 0")


def test_uefa_teams_still_level_after_the_list_go_to_the_organiser_not_back_to_head_to_head() -> None:
    # A, B, C level on 4 points and on their mini-table (circular 1-0 wins); C scored
    # more goals (4). A and B are then level on goal difference, goals, away goals,
    # wins and away wins: UEFA goes to disciplinary points and the coefficient
    # (j, k), not back to the game between A and B (which A won).
    results = played("G", "A 1-0 B", "B 1-0 C", "C 1-0 A", "D 1-1 A", "D 1-1 B", "C 3-3 D")
    table = rank_pool(UEFA, "G", results)
    assert [(r.rank, r.team) for r in table.rows] == [(1, "C"), (2, "A"), (2, "B"), (4, "D")]
    assert [u.teams for u in table.unresolved] == [("A", "B")]
    decided = rank_pool(UEFA, "G", results, decisions=[Decision(pool="G", method="lots", order=("B", "A"))])
    assert order(decided) == ["C", "B", "A", "D"]


def test_uefa_example_follows_article_17_01_in_order() -> None:
    assert UEFA.ranking.criteria == [
        "points", "head_to_head_table", "goal_difference", "goals_for", "away_goals", "wins", "away_wins", "lots",
    ]
    assert UEFA.ranking.tie_mode == "once"


def test_uefa_champions_league_2023_24_group_f_as_published() -> None:
    # Dortmund 11, then PSG and Milan on 8: PSG second on the head-to-head goal
    # difference (3-0 at home, 1-2 in Milan), although level on head-to-head points.
    text = (DOCS / "ucl-2023-24-group-f.csv").read_text(encoding="utf-8")
    table = rank_pool(UEFA, "F", parse_results_csv(text, "ucl-2023-24-group-f.csv", meetings=2))
    assert [(r.team, r.points, r.goals_for, r.goals_against) for r in table.rows] == [
        ("Borussia Dortmund", 11, 7, 4),
        ("Paris Saint-Germain", 8, 9, 8),
        ("AC Milan", 8, 5, 8),
        ("Newcastle United", 5, 6, 7),
    ]
    assert str(row(table, "Paris Saint-Germain")["reason"]).endswith("ahead on head-to-head goal difference +2 vs -2")


EURO = load_ruleset(DOCS / "uefa-euro-2024.toml")
EURO_RESULTS = parse_results_csv((DOCS / "euro-2024-groups.csv").read_text(encoding="utf-8"), "euro-2024-groups.csv")


def euro_fair_play(ruleset: Ruleset = EURO) -> dict[str, dict[str, int]]:
    text = (DOCS / "euro-2024-fair-play.csv").read_text(encoding="utf-8")
    return parse_fair_play_csv(text, "euro-2024-fair-play.csv", ruleset.ranking.fair_play)


# The final group tables of UEFA EURO 2024 as published by UEFA.
EURO_2024_AS_PUBLISHED = {
    "A": ["Germany", "Switzerland", "Hungary", "Scotland"],
    "B": ["Spain", "Italy", "Croatia", "Albania"],
    "C": ["England", "Denmark", "Slovenia", "Serbia"],
    "D": ["Austria", "France", "Netherlands", "Poland"],
    "E": ["Romania", "Belgium", "Slovakia", "Ukraine"],
    "F": ["Portugal", "Türkiye", "Georgia", "Czechia"],
}


def test_uefa_euro_2024_groups_end_as_published() -> None:
    standings = rank_pools(EURO, EURO_RESULTS, fair_play=euro_fair_play())
    assert {pool: order(table) for pool, table in standings.pools.items()} == EURO_2024_AS_PUBLISHED
    assert standings.unresolved == ()
    # group E: all four on 4 points, the mini-table of all their games is the whole group
    assert str(row(standings.pools["E"], "Romania")["reason"]).endswith(
        "ahead on head-to-head goals scored among Belgium, Romania, Slovakia and Ukraine 4 vs 2")
    # group C: Denmark and Slovenia level on everything up to wins; fair play decides
    assert str(row(standings.pools["C"], "Denmark")["reason"]).endswith("ahead on disciplinary points 7 vs 8")


def test_uefa_euro_2024_group_c_without_disciplinary_points_is_reported_never_guessed() -> None:
    table = rank_pool(EURO, "C", EURO_RESULTS)
    assert [r.rank for r in table.rows] == [1, 2, 2, 4]
    [tie] = table.unresolved
    assert tie.teams == ("Denmark", "Slovenia") and tie.method == "" and tie.data
    assert tie.needs == "the disciplinary (fair-play) points of Denmark and Slovenia, not in the data given"
    # a team missing from the data is enough: nothing is guessed for it
    assert rank_pool(EURO, "C", EURO_RESULTS, fair_play={"Denmark": 7}).unresolved[0].teams == ("Denmark", "Slovenia")


def test_uefa_euro_2024_group_c_turns_on_the_team_officials_card() -> None:
    # Without the yellow card to a Slovenian team official both have 7 points: the
    # qualifiers' ranking (art. 20.01 i) is the organiser's decision.
    fair_play = EURO.ranking.fair_play
    assert fair_play is not None
    players_only = EURO.replace(ranking=EURO.ranking.replace(fair_play=fair_play.replace(officials=False)))
    table = rank_pool(players_only, "C", EURO_RESULTS, fair_play=euro_fair_play(players_only)["C"])
    assert [(u.teams, u.method) for u in table.unresolved] == [(("Denmark", "Slovenia"), "lots")]
