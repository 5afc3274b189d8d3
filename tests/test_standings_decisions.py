"""Reading the organiser's decisions file: pool,method,order with the tied teams best first."""

from __future__ import annotations

import pytest

from rules.errors import ResultsError
from rules.standings import Decision, parse_decisions_csv
from rules.standings.decisions import read_decisions_csv


def refused(text: str) -> ResultsError:
    with pytest.raises(ResultsError) as caught:
        parse_decisions_csv(text, "decisions.csv")
    assert caught.value.source == "decisions.csv"
    return caught.value


def test_reads_decisions_in_order_best_first() -> None:
    text = "pool,method,order\nA,lots,Netherlands>Ireland\nB,penalty_competition, Spain > Wales > Chile \n"
    assert parse_decisions_csv(text, "d.csv") == [
        Decision(pool="A", method="lots", order=("Netherlands", "Ireland")),
        Decision(pool="B", method="penalty_competition", order=("Spain", "Wales", "Chile")),
    ]


def test_a_team_name_may_contain_a_comma_when_quoted() -> None:
    text = 'pool,method,order\nA,lots,"Club, The>Other"\n'
    assert parse_decisions_csv(text, "d.csv")[0].order == ("Club, The", "Other")


def test_a_missing_column_is_refused() -> None:
    err = refused("pool,order\nA,X>Y\n")
    assert err.line == 1
    assert "method" in err.message


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        ("A,coin,X>Y", "method 'coin' is not one of lots, penalty_competition"),
        ("A,lots,X", "at least two"),
        ("A,lots,X>>Y", "empty team name"),
        ("A,lots,X>Y>X", "names a team twice"),
        (",lots,X>Y", "pool is empty"),
    ],
)
def test_a_decision_that_cannot_order_a_tie_is_refused(row: str, reason: str) -> None:
    err = refused(f"pool,method,order\n{row}\n")
    assert err.line == 2
    assert reason in err.message


def test_the_same_tie_decided_twice_is_refused_even_in_another_order() -> None:
    err = refused("pool,method,order\nA,lots,X>Y\nB,lots,X>Y\nA,lots,Y>X\n")
    assert err.line == 4
    assert "already decided on line 2" in err.message


def test_each_decision_keeps_its_line_for_later_checks() -> None:
    text = "pool,method,order\n\nA,lots,X>Y\nB,lots,Z>W\n"
    assert [(line, d.pool) for line, d in read_decisions_csv(text, "d.csv")] == [(3, "A"), (4, "B")]


def test_a_spreadsheets_empty_rows_are_skipped() -> None:
    assert parse_decisions_csv("pool,method,order\n,,\nA,lots,X>Y\n,,\n", "d.csv") == [
        Decision(pool="A", method="lots", order=("X", "Y")),
    ]


def test_text_that_is_not_csv_is_refused_at_its_line() -> None:
    err = refused('pool,method,order\nA,lots,X>Y\nB,lots,"Z>W\n')
    assert err.line == 3
    assert "not readable as CSV" in err.message


@pytest.mark.parametrize(("row", "message"), [
    ("A,lots,Ne\x00therlands>Ireland", "the team name 'Ne\\x00therlands' has a control character"),
    ("A\x07,lots,Netherlands>Ireland", "the pool name 'A\\x07' has a control character"),
    ("A,lots,Netherlands>" + "I" * 101, "the team name is 101 characters long; at most 100"),
    ("A,lots,Netherlands>>Ireland", "order has an empty team name"),
    ("A,lots,Netherlands>Ireland>Netherlands", "order names a team twice"),
])
def test_names_no_results_file_could_hold_are_refused(row: str, message: str) -> None:
    err = refused("pool,method,order\n" + row + "\n")
    assert (err.line, err.message) == (2, message)
