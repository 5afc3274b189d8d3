"""Reading results files: every column, and every malformed row refused with its line and reason."""

from __future__ import annotations

import pytest

from rules.errors import CourtsideError, ResultsError
from rules.standings import MatchResult, parse_results_csv

HEADER = "pool,home,away,home_goals,away_goals,outcome,winner,home_shootout,away_shootout\n"


def refused(text: str, *, meetings: int | None = 1) -> ResultsError:
    with pytest.raises(ResultsError) as caught:
        parse_results_csv(text, "results.csv", meetings=meetings)
    assert caught.value.source == "results.csv"
    return caught.value


def test_reads_every_outcome_with_its_columns() -> None:
    text = HEADER + (
        "A,Ajax,PSV,2,1,,,,\n"
        "A,Ajax,Twente,3,2,overtime,,,\n"
        "A,PSV,Twente,1,1,shootout,,4,5\n"
        "A,Feyenoord,Ajax,,,walkover,Ajax,,\n"
        "A,Feyenoord,PSV,0,5,forfeit,PSV,,\n"
    )
    results = parse_results_csv(text, "results.csv", meetings=1)
    assert results == [
        MatchResult(pool="A", home="Ajax", away="PSV", home_goals=2, away_goals=1),
        MatchResult(pool="A", home="Ajax", away="Twente", home_goals=3, away_goals=2, outcome="overtime"),
        MatchResult(
            pool="A", home="PSV", away="Twente", home_goals=1, away_goals=1, outcome="shootout",
            home_shootout=4, away_shootout=5,
        ),
        # a walkover without goals reads as 0-0: the ruleset's walkover score applies later
        MatchResult(pool="A", home="Feyenoord", away="Ajax", home_goals=0, away_goals=0, outcome="walkover",
                    winner="Ajax"),
        MatchResult(pool="A", home="Feyenoord", away="PSV", home_goals=0, away_goals=5, outcome="forfeit",
                    winner="PSV"),
    ]


def test_only_the_required_columns_are_needed_and_cells_are_trimmed() -> None:
    text = "pool, home ,away,home_goals,away_goals\n C , Ajax , PSV , 0 , 3 \n\n"
    assert parse_results_csv(text, "r.csv") == [
        MatchResult(pool="C", home="Ajax", away="PSV", home_goals=0, away_goals=3)
    ]


def test_a_missing_column_is_refused_on_the_header_line() -> None:
    err = refused("pool,home,away,home_goals\nA,Ajax,PSV,1\n")
    assert err.line == 1
    assert "away_goals" in err.message
    assert str(err).startswith("results.csv, line 1: missing column")


def test_an_unknown_column_is_refused_naming_it() -> None:
    err = refused("pool,home,away,home_goals,away_goals,venue\nA,Ajax,PSV,1,0,Hall 1\n")
    assert (err.line, "'venue'" in err.message) == (1, True)


@pytest.mark.parametrize("score", ["-1", "2.5", "two", "+3", "1e2", ""])
def test_a_score_that_is_not_a_whole_number_is_refused_with_its_line(score: str) -> None:
    err = refused(f"pool,home,away,home_goals,away_goals\nA,Ajax,PSV,1,0\nA,Ajax,Twente,{score},0\n")
    assert err.line == 3
    assert "home_goals" in err.message
    assert "whole number >= 0" in err.message


def test_a_team_playing_itself_is_refused() -> None:
    err = refused("pool,home,away,home_goals,away_goals\nA,Ajax,Ajax,1,0\n")
    assert err.line == 2
    assert "cannot play itself" in err.message


def test_the_same_pairing_twice_is_refused_in_a_single_round_robin() -> None:
    text = "pool,home,away,home_goals,away_goals\nA,Ajax,PSV,1,0\nA,Ajax,Twente,1,0\nA,PSV,Ajax,2,2\n"
    err = refused(text, meetings=1)
    assert err.line == 4
    assert "already on line 2" in err.message


def test_a_double_round_robin_allows_two_meetings_but_not_three() -> None:
    two = "pool,home,away,home_goals,away_goals\nA,Ajax,PSV,1,0\nA,PSV,Ajax,2,2\n"
    assert len(parse_results_csv(two, "r.csv", meetings=2)) == 2
    err = refused(two + "A,Ajax,PSV,0,0\n", meetings=2)
    assert err.line == 4
    assert "2 times" in err.message


def test_the_same_pairing_in_two_pools_is_two_matches() -> None:
    text = "pool,home,away,home_goals,away_goals\nA,Ajax,PSV,1,0\nC,Ajax,PSV,1,0\n"
    assert len(parse_results_csv(text, "r.csv", meetings=1)) == 2


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        ("A,Ajax,PSV,1,0,extra_time,,,", "outcome 'extra_time'"),
        ("A,Ajax,PSV,1,1,overtime,,,", "overtime has a winner"),
        ("A,Ajax,PSV,1,1,shootout,,,", "needs home_shootout and away_shootout"),
        ("A,Ajax,PSV,2,1,shootout,,3,2", "follows a level match"),
        ("A,Ajax,PSV,1,1,shootout,,3,3", "a shoot-out has a winner"),
        ("A,Ajax,PSV,1,1,,,3,2", "outcome is 'regular'"),
        ("A,Ajax,PSV,,,walkover,,,", "needs the winner column"),
        ("A,Ajax,PSV,,,forfeit,Twente,,", "needs the winner column"),
        ("A,Ajax,PSV,0,3,walkover,Ajax,,", "does not favour"),
        ("A,Ajax,PSV,2,1,,PSV,,", "winner says 'PSV'"),
        ("A,Ajax,PSV,1,1,,Ajax,,", "a draw"),
        ("A,,PSV,1,1,,,,", "team name is empty"),
        (",Ajax,PSV,1,1,,,,", "pool is empty"),
        ("A,Ajax,PSV,1,1,,,,,surplus", "more cells"),
    ],
)
def test_a_row_that_cannot_be_a_match_is_refused_with_the_reason(row: str, reason: str) -> None:
    err = refused(HEADER + row + "\n")
    assert err.line == 2
    assert reason in err.message


def test_an_empty_file_is_refused() -> None:
    assert "empty" in refused("").message


def test_results_errors_are_courtside_and_value_errors() -> None:
    err = refused("pool,home,away,home_goals,away_goals\nA,Ajax,Ajax,1,0\n")
    assert isinstance(err, CourtsideError)
    assert isinstance(err, ValueError)


def test_a_level_regular_score_is_refused_where_pool_matches_cannot_end_level() -> None:
    # IIHF: a game level after regulation goes to overtime and shots; "2-2 regular"
    # means the decider was not entered, and scoring it as a draw would be wrong
    text = HEADER + "A,Ajax,PSV,3,2,,,,\nA,Ajax,Twente,2,2,,,,\nA,PSV,Twente,2,2,shootout,,1,0\n"
    with pytest.raises(ResultsError) as caught:
        parse_results_csv(text, "results.csv", level_allowed=False)
    assert caught.value.line == 3
    assert "cannot end level under this ruleset" in caught.value.message
    assert len(parse_results_csv(text, "results.csv", level_allowed=True)) == 3


def test_a_byte_order_mark_is_not_part_of_the_first_column() -> None:
    text = "\ufeffpool,home,away,home_goals,away_goals\nA,Ajax,PSV,1,0\n"
    assert parse_results_csv(text, "r.csv")[0].pool == "A"


def test_a_spreadsheets_empty_rows_are_skipped_like_blank_lines() -> None:
    text = "pool,home,away,home_goals,away_goals\nA,Ajax,PSV,1,0\n,,,,\n\n , ,,,\nA,Ajax,Twente,x,0\n"
    err = refused(text)
    assert (err.line, "home_goals is 'x'" in err.message) == (6, True)
    assert len(parse_results_csv(text.rsplit("A,Ajax,Twente", 1)[0], "r.csv")) == 1


def test_an_outcome_typed_with_capitals_is_read() -> None:
    text = HEADER + "A,Ajax,PSV,,,Walkover,PSV,,\nA,Ajax,Twente,3,2,OVERTIME,,,\n"
    assert [r.outcome for r in parse_results_csv(text, "r.csv")] == ["walkover", "overtime"]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('pool,home,away,home_goals,away_goals\nA,Ajax,PSV,1,0\nA,Ajax,"Twente,1,0\n', 3),  # a quote left open
        ('pool,home,away,home_goals,away_goals\nA,"Ajax"x,PSV,1,0\n', 2),  # text after a closing quote
        ('pool,home,away,home_goals,away_goals\nA,"' + "x" * 200_000 + '",PSV,1,0\n', 2),  # past csv's cell limit
    ],
    ids=["quote left open", "text after a closing quote", "cell too long"],
)
def test_text_that_is_not_csv_is_refused_at_its_line(text: str, line: int) -> None:
    err = refused(text)
    assert err.line == line
    assert "not readable as CSV" in err.message


@pytest.mark.parametrize(("row", "message"), [
    ("A,Ajax,PSV,151,0", "home_goals is 151; no match has more than 150"),
    ("A,Ajax,PSV,0," + "9" * 5000, "away_goals is a number of 5000 digits; no match has more than 150"),
    ("A,Ajax,PSV,1,1,shootout,,51,50", "home_shootout is 51; no match has more than 50"),
    ("A,Aj\x00ax,PSV,1,0", "the team name 'Aj\\x00ax' has a control character"),
    ("A\x1b,Ajax,PSV,1,0", "the pool name 'A\\x1b' has a control character"),
    ("A,Ajax>PSV,Twente,1,0", "the team name 'Ajax>PSV' has a '>', which separates teams in the decisions file"),
    ("A," + "x" * 101 + ",PSV,1,0", "the team name is 101 characters long; at most 100"),
    ("A,,PSV,1,0", "a team name is empty"),
    ("A,Ajax,PSV,1.0,0", "home_goals is '1.0'; it must be a whole number >= 0"),
    ("A,Ajax,PSV,１,0", "home_goals is '１'; it must be a whole number >= 0"),
])
def test_values_beyond_any_real_match_are_refused(row: str, message: str) -> None:
    err = refused(HEADER + row + "\n")
    assert (err.line, err.message) == (2, message)


def test_the_highest_real_scores_are_accepted() -> None:
    # 149-0 (AS Adema v SO l'Emyrne, 2002) is the highest football score on record
    results = parse_results_csv(HEADER + "A,Adema,Emyrne,149,0\n", "results.csv")
    assert (results[0].home_goals, results[0].away_goals) == (149, 0)


def test_one_team_written_in_two_unicode_forms_is_one_team() -> None:
    composed, decomposed = "K\u00f6ln", "Ko\u0308ln"
    results = parse_results_csv(HEADER + f"A,{composed},PSV,1,0\nA,PSV,{decomposed},1,0\n", "results.csv")
    assert results[0].home == results[1].away == composed


def test_a_file_with_more_lines_than_any_tournament_is_refused_before_its_rows_are_read() -> None:
    text = HEADER + "A,X,Y,1,0\n" * 20_001
    err = refused(text, meetings=None)
    assert err.line is None and err.message == "the file has 20002 lines; a file of this kind has at most 20000"
