"""Decisions that name an unknown pool, stage or team are refused with their line, never ignored."""

from __future__ import annotations

from pathlib import Path

import pytest

from courtside.cli import main
from rules.errors import ResultsError
from rules.standings import Decision
from rules.tournament import parse_tournament, pool_teams
from rules.tournament.decisions import best_names, check_decisions, ordinal

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "rules" / "examples"
YOUTH = EXAMPLES / "youth-football.toml"


def youth() -> tuple[object, dict[str, tuple[str, ...]]]:
    t = parse_tournament(YOUTH.read_text(encoding="utf-8"), str(YOUTH))
    return t, pool_teams(t, str(YOUTH))


def refused(decision: Decision) -> ResultsError:
    t, entry = youth()
    with pytest.raises(ResultsError) as caught:
        check_decisions(t, entry, [decision], "d.csv", [7])  # type: ignore[arg-type]
    assert (caught.value.source, caught.value.line) == ("d.csv", 7)
    return caught.value


def test_a_pool_a_ranking_and_a_best_placed_comparison_can_be_decided() -> None:
    t, entry = youth()
    a = entry["A"]
    check_decisions(t, entry, [  # type: ignore[arg-type]
        Decision(pool="A", method="lots", order=(a[0], a[1])),
        Decision(pool="QFL", method="lots", order=("AIK P14", "BK Häcken P14")),
        Decision(pool="best 3rd", method="lots", order=(a[0], entry["B"][0])),
    ], "d.csv")


def test_the_comparisons_a_file_uses_are_named_as_the_decisions_write_them() -> None:
    t, _ = youth()
    assert best_names(t) == ["best 3rd", "best 4th"]  # type: ignore[arg-type]
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "111th",
    ]


def test_an_unknown_pool_is_refused() -> None:
    err = refused(Decision(pool="Z", method="lots", order=("AIK P14", "BK Häcken P14")))
    assert err.message.startswith("the decision names 'Z', which is not a pool or ranking of the tournament (A, B, C")


def test_a_comparison_the_file_does_not_use_is_refused() -> None:
    err = refused(Decision(pool="best 2nd", method="lots", order=("AIK P14", "BK Häcken P14")))
    assert "the decision names 'best 2nd'" in err.message


def test_a_match_is_decided_by_its_result_not_by_a_decision() -> None:
    err = refused(Decision(pool="QF1", method="lots", order=("AIK P14", "BK Häcken P14")))
    assert err.message.startswith("QF1 is a match, decided by its result")


def test_a_team_not_in_the_first_round_pool_is_refused() -> None:
    _, entry = youth()
    other = entry["B"][0]
    err = refused(Decision(pool="A", method="lots", order=(entry["A"][0], other)))
    assert err.message == f"the decision for A names {other}, not a team of pool A"


def test_a_team_not_in_the_tournament_is_refused_for_a_ranking() -> None:
    err = refused(Decision(pool="QFL", method="lots", order=("AIK P14", "Real Madrid")))
    assert err.message == "the decision for QFL names Real Madrid, not a team of the tournament"


@pytest.mark.parametrize("row", ["Q,lots,AIK P14>BK Häcken P14", "QFL,lots,AIK P14>Nobody FC"])
def test_tournament_show_refuses_it_with_the_decisions_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], row: str
) -> None:
    decisions = tmp_path / "decisions.csv"
    decisions.write_text(f"pool,method,order\n\n{row}\n", encoding="utf-8")
    results = ROOT / "tests" / "data" / "youth-football-results.csv"
    argv = ["tournament", "show", str(YOUTH), "--results", str(results), "--decisions", str(decisions)]
    assert main(argv) == 2
    assert f"{decisions}, line 3: " in capsys.readouterr().err


def test_a_pool_decision_by_a_method_the_ruleset_does_not_use_is_refused() -> None:
    t, entry = youth()
    a = entry["A"]
    shots = Decision(pool="A", method="penalty_competition", order=(a[0], a[1]))
    with pytest.raises(ResultsError) as caught:
        check_decisions(t, entry, [shots], "d.csv", [2], ["points", "goal_difference", "lots"])  # type: ignore[arg-type]
    assert caught.value.message == "the ruleset breaks the ties of a pool by lots, not penalty_competition"
