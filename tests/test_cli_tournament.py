"""``courtside tournament draw|schedule|show`` as an organiser runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from courtside.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "rules" / "examples"
DATA = ROOT / "tests" / "data"


def test_draw_with_a_seed_is_reproducible_and_prints_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "water-polo.toml")
    assert main(["tournament", "draw", path, "--seed", "5", "--format", "json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(["tournament", "draw", path, "--seed", "5", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["seed"] == 5 and sorted(first["pools"]) == ["A", "B", "C", "D"]
    assert main(["tournament", "draw", path]) == 0
    assert "seed = 710" in capsys.readouterr().out  # the file's recorded seed


def test_draw_without_any_seed_makes_one_and_says_how_to_record_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (EXAMPLES / "indoor-football.toml").read_text(encoding="utf-8").replace("seed = 2026", "")
    path = tmp_path / "cup.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["tournament", "draw", str(path)]) == 0
    out = capsys.readouterr().out
    assert "[draw]\nseed = " in out
    # Until the seed is recorded, scheduling refuses, naming the key.
    assert main(["tournament", "schedule", str(path)]) == 2
    assert f"{path}: draw.seed: " in capsys.readouterr().err


def test_schedule_prints_every_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "schedule", str(EXAMPLES / "indoor-football.toml"), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["matches"]) == 28
    final = next(m for m in data["matches"] if m["stage"] == "F")
    assert final["court"] == "Hall 1"


def test_show_json_has_the_final_ranking(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "show", str(EXAMPLES / "youth-football.toml"),
            "--results", str(DATA / "youth-football-results.csv"), "--format", "json"]
    assert main([*args, "--decisions", str(DATA / "youth-football-decisions.csv")]) == 0
    ranking = json.loads(capsys.readouterr().out)["final_ranking"]
    assert ranking[0] == "Malmö FF P14" and None not in ranking
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["final_ranking"][5:7] == [None, None]


def test_a_broken_file_exits_2_naming_file_key_and_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (EXAMPLES / "indoor-hockey.toml").read_text(encoding="utf-8").replace('home = "2A"', 'home = "2Q"')
    path = tmp_path / "cup.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["tournament", "show", str(path), "--results", str(DATA / "indoor-hockey-results.csv")]) == 2
    assert capsys.readouterr().err.strip() == (
        f"courtside: {path}: matches[0].home: '2Q' names pool 'Q', which does not exist"
    )


def test_a_results_file_naming_an_unknown_stage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "r.csv"
    results.write_text("pool,home,away,home_goals,away_goals\nSF9,Slavia Praha,Minsk Dinamo,1,0\n", encoding="utf-8")
    assert main(["tournament", "show", str(EXAMPLES / "indoor-hockey.toml"), "--results", str(results)]) == 2
    err = capsys.readouterr().err
    assert str(results) in err and "'SF9' is neither a pool nor a match" in err


def test_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "schedule", "/nonexistent/cup.toml"]) == 2
    assert "/nonexistent/cup.toml: cannot read the file" in capsys.readouterr().err


def test_an_exchange_that_does_not_fit_the_results_names_the_tournament_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # In the example's results G5 is Lions AA v Wolves AA: no same-club game to change.
    text = (EXAMPLES / "ice-hockey.toml").read_text(encoding="utf-8")
    text += '\n[[same_club.exchanges]]\nmatch = "G5"\nteam = "Lions A"\nto = "G7"\nother = "Eagles A"\n'
    path = tmp_path / "ice.toml"
    path.write_text(text, encoding="utf-8")
    results = str(DATA / "ice-hockey-results.csv")
    assert main(["tournament", "show", str(path), "--results", results]) == 2
    err = capsys.readouterr().err
    assert f"{path}: same_club.exchanges[0].team: Lions A does not play G5 (Lions AA v Wolves AA)" in err


def test_a_result_the_tournament_refuses_is_named_by_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (DATA / "indoor-hockey-results.csv").read_text(encoding="utf-8").splitlines()[:3]
    # A spreadsheet's empty row and a blank line are skipped, so the bad row is line 6.
    lines += [",,,,", "", "A,Rot-Weiss Köln,Pembroke Wanderers,2,1"]
    path = tmp_path / "r.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["tournament", "show", str(EXAMPLES / "indoor-hockey.toml"), "--results", str(path)]) == 2
    assert f"{path}, line 6: pool A: Rot-Weiss Köln v Pembroke Wanderers: Pembroke Wanderers does not play" in (
        capsys.readouterr().err
    )


def test_a_misspelt_round_is_refused_with_the_names_it_could_be(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (EXAMPLES / "indoor-hockey.toml").read_text(encoding="utf-8")
    path = tmp_path / "cup.toml"
    path.write_text(text.replace('round = "semi_final"', 'round = "semifinal"', 1), encoding="utf-8")
    assert main(["tournament", "schedule", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: matches[" in err and "did you mean 'semi_final'" in err


def test_a_file_of_50_mb_is_refused_with_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.toml"
    with open(path, "wb") as f:
        f.truncate(50 * 1024 * 1024)
    assert main(["tournament", "draw", str(path)]) == 2
    assert f"{path}: larger than 4,194,304 bytes" in capsys.readouterr().err


@pytest.mark.parametrize("seed", ["-1", "1e3", "9" * 5000, "٣"])
def test_a_seed_that_is_not_a_draw_seed_is_refused(seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["tournament", "draw", str(EXAMPLES / "water-polo.toml"), "--seed", seed])
    assert caught.value.code == 2
    assert "is not a draw seed" in capsys.readouterr().err


def test_show_before_any_result_is_the_draw_with_empty_tables(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    """Issue 32: `show` refused to run without results, and with an empty results file every team was "1" and
    "needs a penalty competition" before a ball was played."""
    path = str(EXAMPLES / "indoor-hockey.toml")
    assert main(["tournament", "show", path]) == 0
    text = capsys.readouterr().out
    assert "Pool A (0 of 6 matches played)" in text and "   -  Rot-Weiss Köln" in text
    assert "needs a penalty competition" not in text and "open tie" not in text
    empty = tmp_path / "results.csv"
    empty.write_text("pool,home,away,home_goals,away_goals\n")
    assert main(["tournament", "show", path, "--results", str(empty)]) == 0
    assert capsys.readouterr().out == text
    assert main(["tournament", "show", path, "--format", "json"]) == 0
    pools = json.loads(capsys.readouterr().out)["pools"]
    assert all(p["unresolved"] == [] for p in pools)


def test_show_names_an_open_tie_once_its_pool_is_played(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    level = tmp_path / "results.csv"
    teams = ["Rot-Weiss Köln", "Slavia Praha", "Three Rock Rovers", "Amsterdam H&BC"]
    rows = [f"A,{h},{a},1,1" for i, h in enumerate(teams) for a in teams[i + 1:]]
    level.write_text("pool,home,away,home_goals,away_goals\n" + "\n".join(rows[:5]) + "\n")
    assert main(["tournament", "show", str(EXAMPLES / "indoor-hockey.toml"), "--results", str(level)]) == 0
    assert "open tie" not in capsys.readouterr().out  # one match still to play may break it
    level.write_text("pool,home,away,home_goals,away_goals\n" + "\n".join(rows) + "\n")
    assert main(["tournament", "show", str(EXAMPLES / "indoor-hockey.toml"), "--results", str(level)]) == 0
    assert "open tie: Amsterdam H&BC, Rot-Weiss Köln, Slavia Praha, Three Rock Rovers needs a penalty competition" \
        in capsys.readouterr().out


def test_schedule_shows_one_day_or_one_court_and_court_by_court(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 32: a cup's fixture list is thousands of lines; the organiser reads a day's or a pitch's."""
    path = str(EXAMPLES / "indoor-hockey.toml")
    assert main(["tournament", "schedule", path, "--day", "2026-01-17"]) == 0
    day = capsys.readouterr().out
    assert "Sat 2026-01-17" in day and "Fri 2026-01-16" not in day and "8 of 20 matches" in day
    assert main(["tournament", "schedule", path, "--court", "Hall 2", "--by", "court", "--format", "json"]) == 0
    matches = json.loads(capsys.readouterr().out)["matches"]
    assert matches and {m["court"] for m in matches} == {"Hall 2"}
    assert main(["tournament", "schedule", path, "--by", "court"]) == 0
    text = capsys.readouterr().out
    assert text.index("\nHall 1\n") < text.index("\nHall 2\n") and "Fri 2026-01-16 17:00-17:55  Hall 1" in text
    assert main(["tournament", "schedule", path, "--court", "Hall 9"]) == 2
    assert "'Hall 9' is not one of the schedule's: Hall 1, Hall 2" in capsys.readouterr().err


CUP = EXAMPLES / "youth-cup.toml"


def test_a_cups_schedule_by_class_and_one_class_on_one_day(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "schedule", str(CUP), "--by", "class"]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("Class ")] == [
        "Class F10", "Class F13", "Class P10", "Class P13"]
    assert main(["tournament", "schedule", str(CUP), "--class", "P13", "--day", "2026-06-14", "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)["matches"]
    assert {m["class"] for m in shown} == {"P13"} and shown[-1]["home"] == "winner P13-ASF1"
    assert main(["tournament", "schedule", str(CUP), "--court", "7v7 Plan 1"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "7v7 Plan 1" in line]
    assert lines and all(" P10 " in line or " F10 " in line for line in lines)  # only the 7 v 7 classes there


def test_a_class_the_cup_lacks_and_a_seed_without_a_class_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "show", str(CUP), "--class", "P99"]) == 2
    assert "'P99' is not one of the file's classes (P10, F10, P13, F13)" in capsys.readouterr().err
    assert main(["tournament", "draw", str(CUP), "--seed", "4"]) == 2
    assert "a seed draws one class: name it with --class" in capsys.readouterr().err
    assert main(["tournament", "draw", str(CUP), "--class", "P13", "--seed", "4", "--format", "json"]) == 0
    drawn = json.loads(capsys.readouterr().out)
    assert drawn["class"] == "P13" and drawn["seed"] == 4 and sorted(drawn["pools"]) == ["P13-A", "P13-B"]
    assert main(["tournament", "schedule", str(EXAMPLES / "water-polo.toml"), "--class", "P13"]) == 2
    assert "the file declares no classes" in capsys.readouterr().err


def test_a_cups_progress_per_class_from_one_results_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "draw", str(CUP), "--class", "P13", "--format", "json"]) == 0
    pool = json.loads(capsys.readouterr().out)["pools"]["P13-A"]
    results = tmp_path / "r.csv"
    results.write_text(f"pool,home,away,home_goals,away_goals\nP13-A,{pool[0]},{pool[1]},2,1\n", encoding="utf-8")
    assert main(["tournament", "show", str(CUP), "--results", str(results), "--format", "json"]) == 0
    classes = json.loads(capsys.readouterr().out)["classes"]
    assert [c["class"] for c in classes] == ["P10", "F10", "P13", "F13"]
    p13 = next(c for c in classes if c["class"] == "P13")
    table = next(p for p in p13["pools"] if p["name"] == "P13-A")
    assert table["played"] == 1 and table["table"][0]["team"] == pool[0]
    assert all(p["played"] == 0 for c in classes if c["class"] != "P13" for p in c["pools"])
    results.write_text("pool,home,away,home_goals,away_goals\nZ,a,b,2,1\n", encoding="utf-8")
    assert main(["tournament", "show", str(CUP), "--results", str(results)]) == 2
    assert "'Z' is neither a pool nor a match of any class" in capsys.readouterr().err
