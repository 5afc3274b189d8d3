"""World Aquatics bylaw BL 9.6.3 (seed 001), each clause on a table where it decides.

Water-polo preset: points 2/1/0, criteria points, bl_9_6_3, penalty_competition,
tie mode top_team.
"""

from __future__ import annotations

from rules.ruleset import load_ruleset
from rules.standings import Decision, MatchResult, rank_pool
from tests.standings_support import order, played, row, with_ranking

WATER_POLO = load_ruleset("water-polo")


def test_9_6_3_1_1_the_winner_of_the_game_between_two_tied_teams_is_higher() -> None:
    # A and B both 3 points; A won their game although B's goal difference is far better
    results = played("A", "A 1-0 B", "C 9-0 A", "B 2-2 C", "A 1-1 D", "B 8-0 D", "C 3-0 D")
    table = rank_pool(WATER_POLO, "A", results)
    assert order(table) == ["C", "A", "B", "D"]
    assert row(table, "A")["goal_difference"] == -8
    assert "game between them (BL 9.6.3.1.1) 2 vs 0" in str(row(table, "A")["reason"])


def test_9_6_3_1_2_a_drawn_game_goes_to_goal_difference_against_the_highest_placed_team() -> None:
    # A 2-2 B. Against C (placed first): A lost 1-2 (-1), B lost 0-3 (-3): A is higher,
    # although B's overall goal difference (+6) beats A's (0).
    results = played("A", "A 2-2 B", "C 2-1 A", "C 3-0 B", "A 1-0 D", "B 9-0 D", "C 1-0 D")
    table = rank_pool(WATER_POLO, "A", results)
    assert order(table) == ["C", "A", "B", "D"]
    assert "ahead on goal difference against C (BL 9.6.3.1.3) -1 vs -3" in str(row(table, "A")["reason"])


def test_9_6_3_1_3_then_goals_scored_against_that_team() -> None:
    # both lost by one to C; A scored 2 goals against C, B only 1
    results = played("A", "A 2-2 B", "C 3-2 A", "C 2-1 B", "A 1-0 D", "B 9-0 D", "C 1-0 D")
    table = rank_pool(WATER_POLO, "A", results)
    assert order(table) == ["C", "A", "B", "D"]
    assert "ahead on goals scored against C (BL 9.6.3.1.3) 2 vs 1" in str(row(table, "A")["reason"])


def test_9_6_3_1_5_then_the_next_highest_placed_team_in_succession() -> None:
    # identical results against C; against D (next), B won 3-0 and A only 1-0
    results = played("A", "A 2-2 B", "C 2-1 A", "C 2-1 B", "A 1-0 D", "B 3-0 D", "C 1-0 D")
    table = rank_pool(WATER_POLO, "A", results)
    assert order(table) == ["C", "B", "A", "D"]
    reason = str(row(table, "B")["reason"])
    assert "goal difference -1 and 1 goal scored against C (BL 9.6.3.1.3); ahead on goal difference against D" in reason


def test_9_6_3_1_6_when_all_results_are_considered_penalty_shots_are_needed_not_guessed() -> None:
    results = played("A", "A 2-2 B", "C 2-1 A", "C 2-1 B", "A 1-0 D", "B 1-0 D", "C 1-0 D")
    table = rank_pool(WATER_POLO, "A", results)
    assert [(r.rank, r.team) for r in table.rows] == [(1, "C"), (2, "A"), (2, "B"), (4, "D")]
    assert [(u.teams, "penalty competition" in u.needs) for u in table.unresolved] == [(("A", "B"), True)]
    decided = rank_pool(
        WATER_POLO, "A", results, decisions=[Decision(pool="A", method="penalty_competition", order=("B", "A"))]
    )
    assert order(decided) == ["C", "B", "A", "D"]
    assert decided.unresolved == ()


def test_9_6_3_2_2_once_reduced_to_two_the_game_between_them_decides() -> None:
    # A, B, C all on 4 points. Among them the results are circular (2 points each);
    # goal difference among them: A +4, C 0, B -4, so A is placed highest (9.6.3.2.3).
    # Reduced to B and C, BL 9.6.3.1 applies: B beat C, so B is second, although C
    # was ahead of B in the three-team comparison.
    results = played("A", "A 5-0 B", "B 1-0 C", "C 2-1 A", "A 3-0 D", "B 3-0 D", "C 3-0 D")
    table = rank_pool(WATER_POLO, "A", results)
    assert order(table) == ["A", "B", "C", "D"]
    assert "goal difference among A, B and C (BL 9.6.3.2.3) +4 vs -4" in str(row(table, "A")["reason"])
    assert "game between them (BL 9.6.3.1.1) 2 vs 0" in str(row(table, "B")["reason"])
    # the same table under goal difference first (youth football) keeps C above B
    assert order(rank_pool(load_ruleset("youth-football"), "A", results)) == ["A", "C", "B", "D"]


def test_9_6_3_2_4_three_teams_level_among_themselves_go_to_the_highest_placed_team() -> None:
    # A, B, C: 1-1 draws among themselves; against E (placed first) A lost 0-1, B 0-2, C 0-3
    results = played(
        "A",
        "A 1-1 B", "B 1-1 C", "C 1-1 A",
        "E 1-0 A", "E 2-0 B", "E 3-0 C", "A 4-0 D", "B 4-0 D", "C 4-0 D", "E 1-0 D",
    )
    table = rank_pool(WATER_POLO, "A", results)
    assert order(table) == ["E", "A", "B", "C", "D"]
    assert "against E (BL 9.6.3.2.5) -1 vs" in str(row(table, "A")["reason"])


def test_9_6_3_1_7_the_highest_tie_is_settled_first_and_the_lower_compares_against_it() -> None:
    # A and B (5 points) drew; C and D (1 point) drew. The top tie comes first:
    # against C and D, still level, taken together: A +4 (3-0, 1-0), B +5 (2-0, 3-0).
    # B is first. The lower tie then compares against B, now the highest placed:
    # C lost 0-2 (-2), D 0-3 (-3), so C is third. Had the lower tie been settled
    # against A and B together, D (-4) would have been ahead of C (-5).
    results = played("A", "A 2-2 B", "C 1-1 D", "A 3-0 C", "A 1-0 D", "B 2-0 C", "B 3-0 D")
    table = rank_pool(WATER_POLO, "A", results)
    assert order(table) == ["B", "A", "C", "D"]
    assert "against C and D (BL 9.6.3.1.3) +5 vs +4" in str(row(table, "B")["reason"])
    assert "against B (BL 9.6.3.1.3) -2 vs -3" in str(row(table, "C")["reason"])


def test_9_6_3_3_shootout_goals_never_count() -> None:
    # A and B level on points after a shoot-out each; counting shoot-out goals
    # would put A (7 in its shoot-out) ahead of B on goals against C
    results = [
        *played("A", "A 2-2 B", "C 2-1 A", "C 2-1 B", "A 1-0 D", "B 1-0 D", "C 1-0 D"),
        MatchResult(pool="A", home="A", away="E", home_goals=1, away_goals=1, outcome="shootout",
                    home_shootout=7, away_shootout=6),
        MatchResult(pool="A", home="B", away="E", home_goals=1, away_goals=1, outcome="shootout",
                    home_shootout=3, away_shootout=2),
        *played("A", "C 5-0 E", "E 0-1 D"),
    ]
    table = rank_pool(WATER_POLO, "A", results)
    assert row(table, "A")["goals_for"] == row(table, "B")["goals_for"] == 5
    assert [u.teams for u in table.unresolved] == [("A", "B")]


def test_bl_9_6_3_in_restart_mode_keeps_the_three_team_order() -> None:
    # the same table as 9.6.3.2.2 with tie mode restart: the three-team comparison
    # places every team at once, so C stays above B. top_team is the bylaw's reading.
    results = played("A", "A 5-0 B", "B 1-0 C", "C 2-1 A", "A 3-0 D", "B 3-0 D", "C 3-0 D")
    restart = with_ranking("water-polo", ["points", "bl_9_6_3", "penalty_competition"], "restart")
    assert order(rank_pool(restart, "A", results)) == ["A", "C", "B", "D"]


def test_9_6_3_2_7_penalty_shots_place_the_highest_team_and_the_two_left_go_back_to_their_game() -> None:
    # A beat B, B beat C, C beat A, each 2-1; each beat D 3-0. Among A, B and C:
    # 2 points, +0, 3 goals each; against D +3 and 3 goals each: penalty shots are
    # needed (9.6.3.2.7) "to determine which team shall be placed highest".
    results = played("A", "A 2-1 B", "B 2-1 C", "C 2-1 A", "A 3-0 D", "B 3-0 D", "C 3-0 D")
    table = rank_pool(WATER_POLO, "A", results)
    assert [(u.teams, "penalty competition" in u.needs) for u in table.unresolved] == [(("A", "B", "C"), True)]
    # The shoot-out puts A highest (and C before B). B and C are then reduced to two,
    # so BL 9.6.3.1 decides (9.6.3.2.2): B won the game between them.
    shots = Decision(pool="A", method="penalty_competition", order=("A", "C", "B"))
    decided = rank_pool(WATER_POLO, "A", results, decisions=[shots])
    assert order(decided) == ["A", "B", "C", "D"]
    assert decided.unresolved == ()
    assert "penalty competition (organiser's decision) 1st vs" in str(row(decided, "A")["reason"])
    assert "game between them (BL 9.6.3.1.1) 2 vs 0" in str(row(decided, "B")["reason"])


def test_after_the_penalty_shots_the_rest_of_the_decision_orders_what_results_still_leave_level() -> None:
    # four teams drawing 1-1 with each other and beating E 2-0: nothing but penalty shots
    # separates them, and nothing among the three left after the top one either
    teams = ("A", "B", "C", "D")
    draws = [f"{h} 1-1 {a}" for i, h in enumerate(teams) for a in teams[i + 1:]]
    results = played("A", *draws, *(f"{t} 2-0 E" for t in teams))
    shots = Decision(pool="A", method="penalty_competition", order=("C", "A", "D", "B"))
    decided = rank_pool(WATER_POLO, "A", results, decisions=[shots])
    assert order(decided) == ["C", "A", "D", "B", "E"]
    assert decided.unresolved == ()


def test_four_teams_level_are_placed_one_at_a_time_down_to_the_two_team_branch() -> None:
    # B, C, D and E all on 5 points (A lost every game).
    # Among the four (9.6.3.2.3): 3 points each; goal difference C +1, D 0, E 0, B -1,
    # so C is placed highest. B, D, E start again: among them B 3 points, D 2, E 1,
    # so B is next, although among the four it was last. D and E are then two
    # (9.6.3.2.2): their game was 1-1, so the results against the highest placed
    # team, C, decide (9.6.3.1.2-4): E won 3-2 (+1), D drew 3-3 (0). E is third,
    # although D scored more goals among the four (6 to 5).
    results = played(
        "A",
        "A 2-3 B", "A 2-3 C", "A 0-2 D", "A 0-2 E", "B 0-2 C",
        "B 2-2 D", "B 2-1 E", "C 3-3 D", "C 2-3 E", "D 1-1 E",
    )
    table = rank_pool(WATER_POLO, "A", results)
    assert order(table) == ["C", "B", "E", "D", "A"]
    assert "ahead on goal difference among B, C, D and E (BL 9.6.3.2.3) +1 vs -1" in str(row(table, "C")["reason"])
    assert "ahead on points among B, D and E (BL 9.6.3.2.3) 3 vs 1" in str(row(table, "B")["reason"])
    assert str(row(table, "E")["reason"]) == (
        "level on 5 points; 3 points and goal difference 0 among B, C, D and E (BL 9.6.3.2.3);"
        " 1 point from the game between them (BL 9.6.3.1.1);"
        " ahead on goal difference against C (BL 9.6.3.1.3) +1 vs 0"
    )


def test_three_level_the_pair_left_on_top_compares_against_the_third_then_the_next() -> None:
    # B, C and D on 4 points, all three games among them drawn (B 3-3 C, B 1-1 D, C 1-1 D).
    # Among them (9.6.3.2.3): 2 points and goal difference 0 each; goals B 4, C 4, D 2.
    # D is below; B and C are reduced to two (9.6.3.2.2). Their game was 3-3, so their
    # results against the highest placed other team count (9.6.3.1.2-4): that is D,
    # 1-1 for both; then the next, A (9.6.3.1.5): B won 3-0 (+3), C 1-0 (+1). B is first.
    # C and D are then two: their 1-1 sends them to B, now the highest placed: C drew
    # 3-3, D 1-1, level on goal difference, C ahead on goals scored (9.6.3.1.3).
    results = played("A", "A 0-3 B", "A 0-1 C", "A 0-1 D", "B 3-3 C", "B 1-1 D", "C 1-1 D")
    table = rank_pool(WATER_POLO, "A", results)
    assert order(table) == ["B", "C", "D", "A"]
    assert str(row(table, "B")["reason"]).endswith(
        "goal difference 0 and 1 goal scored against D (BL 9.6.3.1.3); "
        "ahead on goal difference against A (BL 9.6.3.1.3) +3 vs +1"
    )
    assert str(row(table, "C")["reason"]).endswith(
        "goal difference 0 against B (BL 9.6.3.1.3); ahead on goals scored against B (BL 9.6.3.1.3) 3 vs 1"
    )
