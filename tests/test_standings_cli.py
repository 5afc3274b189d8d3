"""``courtside standings`` as an organiser runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from courtside.cli import main

EXAMPLE = str(resources.files("rules.examples").joinpath("indoor-hockey-pools.csv"))
TIED = "pool,home,away,home_goals,away_goals\nA,Netherlands,Ireland,2,2\nA,Spain,Netherlands,0,1\nA,Spain,Ireland,0,1\n"


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_text_output_lists_every_pool_with_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", "--rules", "indoor-hockey", "--results", EXAMPLE]) == 0
    out = capsys.readouterr().out
    assert out.index("Pool A (indoor-hockey)") < out.index("Pool B (indoor-hockey)")
    first = next(line for line in out.splitlines() if "HC Bloemendaal" in line)
    assert first.split()[:3] == ["1", "HC", "Bloemendaal"]
    assert first.endswith("level on 12 points and 2 wins; ahead on goal difference +6 vs +5")
    assert "Unresolved" not in out


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", "--rules", "indoor-hockey", "--results", EXAMPLE, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["team"] for r in data["pools"]["B"]] == [
        "KHC Dragons", "Uhlenhorst Mülheim", "HC Rotterdam", "Club an der Alster",
    ]
    assert data["pools"]["A"][0]["points"] == 12
    assert data["unresolved"] == []


def test_an_unresolved_tie_is_listed_and_a_decisions_file_resolves_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = write(tmp_path, "r.csv", TIED)
    assert main(["standings", "--rules", "youth-football", "--results", results]) == 0
    out = capsys.readouterr().out
    assert "=1  Ireland" in out and "=1  Netherlands" in out
    assert "pool A: Ireland, Netherlands need a drawing of lots" in out

    decisions = write(tmp_path, "d.csv", "pool,method,order\nA,lots,Netherlands>Ireland\n")
    args = ["standings", "--rules", "youth-football", "--results", results, "--decisions", decisions]
    assert main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(r["rank"], r["team"]) for r in data["pools"]["A"]] == [(1, "Netherlands"), (2, "Ireland"), (3, "Spain")]
    assert data["unresolved"] == []


def test_a_user_ruleset_file_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    uefa = str(Path(__file__).resolve().parent.parent / "docs" / "rulesets" / "uefa.toml")
    assert main(["standings", "--rules", uefa, "--results", EXAMPLE, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["pools"]["A"][0]["points"] == 7  # 3/1/0: two wins and a draw


@pytest.mark.parametrize(
    ("results", "decisions", "message"),
    [
        ("pool,home,away,home_goals\nA,X,Y,1\n", None, "r.csv, line 1: missing column(s) away_goals"),
        (
            "pool,home,away,home_goals,away_goals\nA,X,Y,1,0\nA,X,Z,one,0\n",
            None,
            "r.csv, line 3: home_goals is 'one'; it must be a whole number >= 0",
        ),
        ("pool,home,away,home_goals,away_goals\nA,X,X,1,0\n", None, "r.csv, line 2: 'X' cannot play itself"),
        (
            "pool,home,away,home_goals,away_goals\nA,X,Y,1,0\nA,Y,X,1,0\n",
            None,
            "r.csv, line 3: Y v X in pool A is already on line 2",
        ),
        (TIED, "pool,method,order\nA,lots,Netherlands>Wales\n", "d.csv, line 2: the decision for pool A names Wales"),
        (
            TIED,
            "pool,method,order\n\nA,lots,Netherlands>Ireland\nB,lots,Netherlands>Ireland\n",
            "d.csv, line 4: the decision names pool 'B', which has no results",
        ),
        (TIED, "pool,method\nA,lots\n", "d.csv, line 1: missing column(s) order"),
    ],
)
def test_a_malformed_file_is_refused_with_line_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], results: str, decisions: str | None, message: str
) -> None:
    args = ["standings", "--rules", "youth-football", "--results", write(tmp_path, "r.csv", results)]
    if decisions is not None:
        args += ["--decisions", write(tmp_path, "d.csv", decisions)]
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_a_spreadsheets_byte_order_mark_is_not_part_of_the_first_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Excel's "CSV UTF-8" starts the file with U+FEFF
    results = write(tmp_path, "r.csv", "\ufeff" + TIED)
    decisions = write(tmp_path, "d.csv", "\ufeffpool,method,order\nA,lots,Netherlands>Ireland\n")
    args = ["standings", "--rules", "youth-football", "--results", results, "--decisions", decisions]
    assert main([*args, "--format", "json"]) == 0
    assert [r["team"] for r in json.loads(capsys.readouterr().out)["pools"]["A"]] == ["Netherlands", "Ireland", "Spain"]


def test_a_missing_file_and_an_unknown_ruleset_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", "--rules", "youth-football", "--results", "/nonexistent.csv"]) == 2
    assert "/nonexistent.csv: cannot read the file" in capsys.readouterr().err
    assert main(["standings", "--rules", "curling", "--results", EXAMPLE]) == 2
    assert "neither a preset" in capsys.readouterr().err


def test_runs_as_a_program() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "courtside.cli", "standings", "--rules", "indoor-hockey", "--results", EXAMPLE,
         "--format", "json"],
        capture_output=True, text=True, check=False, encoding="utf-8",
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["pools"]["A"][0]["team"] == "HC Bloemendaal"


def test_a_decision_that_orders_no_tie_is_reported_not_silently_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = write(tmp_path, "r.csv", TIED)
    decisions = write(
        tmp_path, "d.csv", "pool,method,order\nA,lots,Spain>Ireland\nA,penalty_competition,Netherlands>Ireland\n"
    )
    assert main(["standings", "--rules", "youth-football", "--results", results, "--decisions", decisions]) == 0
    err = capsys.readouterr().err
    assert "decision A,lots,Spain>Ireland not used: those teams are not a tie" in err
    assert "A,penalty_competition,Netherlands>Ireland not used: the ruleset has no 'penalty_competition'" in err


def test_a_level_score_is_refused_under_a_ruleset_where_games_cannot_end_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    iihf = str(Path(__file__).resolve().parent.parent / "docs" / "rulesets" / "iihf.toml")
    results = write(tmp_path, "r.csv", TIED)  # line 2: Netherlands 2-2 Ireland
    assert main(["standings", "--rules", iihf, "--results", results]) == 2
    assert "r.csv, line 2: Netherlands v Ireland is level 2-2" in capsys.readouterr().err
    assert main(["standings", "--rules", "youth-football", "--results", results]) == 0


def test_a_file_with_only_the_header_says_there_are_no_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = write(tmp_path, "r.csv", "pool,home,away,home_goals,away_goals\n")
    assert main(["standings", "--rules", "water-polo", "--results", results]) == 0
    assert "No matches in the results file." in capsys.readouterr().out


# Water polo, pool P not yet fully played: T1, T2, T3 and T4 on 3 points. BL 9.6.3
# leaves T1/T3 level at the top and T2/T4 below them. Penalty shots put T3 highest;
# T1, T2 and T4 then start again (tie mode top_team) and are level: a new tie.
SEQUENCE = (
    "pool,home,away,home_goals,away_goals\nP,T0,T1,0,1\nP,T0,T2,0,0\nP,T0,T3,0,1\n"
    "P,T0,T4,0,1\nP,T1,T3,0,0\nP,T2,T5,1,0\nP,T4,T5,0,0\n"
)


def test_a_decision_for_a_tie_that_only_an_earlier_decision_brings_out_is_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = write(tmp_path, "r.csv", SEQUENCE)
    args = ["standings", "--rules", "water-polo", "--results", results, "--format", "json"]
    assert main(args) == 0
    # T2-T4 is not asked for: whichever way T1-T3 goes, the results against the team placed settle it.
    assert [u["teams"] for u in json.loads(capsys.readouterr().out)["unresolved"]] == [["T1", "T3"]]

    first = "pool,method,order\nP,penalty_competition,T3>T1\nP,penalty_competition,T2>T4\n"
    assert main([*args, "--decisions", write(tmp_path, "d.csv", first)]) == 0
    captured = capsys.readouterr()
    assert [u["teams"] for u in json.loads(captured.out)["unresolved"]] == [["T1", "T2", "T4"]]
    assert "T2>T4 not used" in captured.err and "T3>T1" not in captured.err

    second = first + "P,penalty_competition,T4>T1>T2\n"
    assert main([*args, "--decisions", write(tmp_path, "d.csv", second)]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert [r["team"] for r in data["pools"]["P"]][:4] == ["T3", "T4", "T1", "T2"]
    assert data["unresolved"] == []
    assert "T4>T1>T2" not in captured.err
    assert "T2>T4 not used" in captured.err


EURO_DOCS = Path(__file__).resolve().parent.parent / "docs" / "rulesets"


def test_fair_play_points_are_read_from_a_file_and_a_tie_without_them_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["standings", "--rules", str(EURO_DOCS / "uefa-euro-2024.toml"), "--results",
            str(EURO_DOCS / "euro-2024-groups.csv")]
    assert main(args) == 0
    out = capsys.readouterr().out
    waiting = "Ties waiting for data (give it with --fair-play FILE):\n  pool C: Denmark, Slovenia need the discipl"
    assert waiting in out
    assert main([*args, "--fair-play", str(EURO_DOCS / "euro-2024-fair-play.csv"), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["team"] for r in data["pools"]["C"]] == ["England", "Denmark", "Slovenia", "Serbia"]
    assert data["unresolved"] == []
    assert main([*args, "--fair-play", write(tmp_path, "fp.csv", "pool,team,points\nC,Denmark,7\nC,Slovenia,7\n"),
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["unresolved"][0]["teams"] == ["Denmark", "Slovenia"]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("pool,team,points\nC,Scotland,1\n", "Scotland: not a team of pool C"),
        ("pool,team,points\nZ,Denmark,1\n", "the file names pool 'Z', which has no results"),
        ("pool,team,kind,count\nC,Denmark,purple,1\n", "card kind 'purple' is not one the ruleset counts"),
    ],
)
def test_fair_play_for_an_unknown_team_or_card_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, reason: str
) -> None:
    args = ["standings", "--rules", str(EURO_DOCS / "uefa-euro-2024.toml"), "--results",
            str(EURO_DOCS / "euro-2024-groups.csv"), "--fair-play", write(tmp_path, "fp.csv", text)]
    assert main(args) == 2
    captured = capsys.readouterr()
    assert reason in captured.err and captured.out == ""


CUP = Path(__file__).resolve().parent.parent / "rules" / "examples" / "youth-cup.toml"


def _drawn(capsys: pytest.CaptureFixture[str], class_name: str) -> dict[str, list[str]]:
    assert main(["tournament", "draw", str(CUP), "--class", class_name, "--format", "json"]) == 0
    pools: dict[str, list[str]] = json.loads(capsys.readouterr().out)["pools"]
    return pools


def test_a_cups_class_is_ranked_by_its_own_ruleset_from_the_cups_results_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p10, p13 = _drawn(capsys, "P10")["P10-A"], _drawn(capsys, "P13")["P13-A"]
    results = write(tmp_path, "cup.csv", "pool,home,away,home_goals,away_goals,outcome,winner\n"
                    f"P10-A,{p10[0]},{p10[1]},3,3,regular,\n"
                    f"P13-A,{p13[0]},{p13[1]},2,1,regular,\n"
                    f"P13-A,{p13[2]},{p13[3]},0,4,regular,\n"
                    "P13-AF,winner P13-ASF1,winner P13-ASF2,1,0,regular,\n")  # a knock-out row: not a pool's
    assert main(["standings", "--tournament", str(CUP), "--class", "P13", "--format", "json", "--results",
                 results]) == 0
    ranked = json.loads(capsys.readouterr().out)["pools"]
    assert sorted(ranked) == ["P13-A"]  # only the class's pools with results; the P10 row left out
    assert [row["team"] for row in ranked["P13-A"]][:2] == [p13[3], p13[0]]
    assert main(["standings", "--tournament", str(CUP), "--class", "P10", "--results", results]) == 0
    out = capsys.readouterr().out
    assert "Pool P10-A (youth-football-7v7)" in out and "P13" not in out  # the class's own ruleset names it


def test_standings_of_a_cup_need_a_class_and_a_pool_no_class_has_is_refused_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = write(tmp_path, "cup.csv", "pool,home,away,home_goals,away_goals\nP13-A,a,b,1,0\nP13-Q,a,b,1,0\n")
    assert main(["standings", "--tournament", str(CUP), "--results", results]) == 2
    assert "--class: the file's classes rank apart, each by its own ruleset: name one (P10, F10, P13, F13)" \
        in capsys.readouterr().err
    assert main(["standings", "--tournament", str(CUP), "--class", "P99", "--results", results]) == 2
    assert "'P99' is not one of the file's classes" in capsys.readouterr().err
    assert main(["standings", "--tournament", str(CUP), "--class", "P13", "--results", results]) == 2
    assert "line 3" in (err := capsys.readouterr().err) and "pool 'P13-Q' is not one of this class's pools" in err
    assert main(["standings", "--rules", "youth-football", "--class", "P13", "--results", results]) == 2
    assert "give --tournament FILE" in capsys.readouterr().err
