"""The CSV machinery of the results and decisions files: header, rows with their lines, names."""

from __future__ import annotations

import pytest

from rules.errors import ResultsError
from rules.standings.csvfile import MAX_ROWS, cell, check_header, csv_rows, name_problem


def rows(text: str) -> list[tuple[int, dict[str, str]]]:
    return [(line, {str(k): str(v) for k, v in row.items()}) for line, row in csv_rows(text, "f.csv", ("a",), ("b",))]


def test_rows_come_with_their_lines_and_a_spreadsheets_empty_row_is_skipped() -> None:
    assert rows("a,b\n1,2\n,\n\n3,\n") == [(2, {"a": "1", "b": "2"}), (5, {"a": "3", "b": ""})]


def test_a_quoted_cell_over_two_lines_keeps_the_line_it_ends_on() -> None:
    assert rows('a,b\n"x\ny",2\n4,5\n') == [(3, {"a": "x\ny", "b": "2"}), (4, {"a": "4", "b": "5"})]


@pytest.mark.parametrize(("text", "line", "message"), [
    ("", 1, "the file is empty; the header needs a"),
    ("b\n1\n", 1, "missing column(s) a; the header needs a"),
    ("a,c\n1,2\n", 1, "unknown column(s) 'c'; allowed: a, b"),
    ("a,a\n1,2\n", 1, "column(s) a appear twice"),
    ("a,b\n1,2,3\n", 2, "more cells than the 2 columns of the header"),
    ('a,b\n"1,2\n', 2, "not readable as CSV (unexpected end of data)"),
])
def test_what_is_not_a_table_is_refused_at_its_line(text: str, line: int, message: str) -> None:
    with pytest.raises(ResultsError) as caught:
        rows(text)
    assert (caught.value.line, caught.value.message) == (line, message)


def test_more_rows_than_any_tournament_are_refused_before_reading() -> None:
    with pytest.raises(ResultsError, match=f"at most {MAX_ROWS}"):
        rows("a\n" + "1\n" * MAX_ROWS)


def test_cells_are_trimmed_and_nfc_normalised() -> None:
    assert cell({"team": "  Ko\u0308ln "}, "team") == "K\u00f6ln"
    assert cell({}, "team") == ""


@pytest.mark.parametrize(("name", "problem"), [
    ("Köln", None),
    ("x" * 100, None),
    ("x" * 101, "the team name is 101 characters long; at most 100"),
    ("A\tB", "the team name 'A\\tB' has a control character"),
    ("A>B", "the team name 'A>B' has a '>', which separates teams in the decisions file"),
])
def test_names(name: str, problem: str | None) -> None:
    assert name_problem(name, "team") == problem


def test_a_header_with_spaces_around_names_is_read() -> None:
    check_header([" a ", "b"], ("a",), ("b",), "f.csv")
