"""``courtside replay``: the state in words or as JSON, a log with a header replayed with no flags,
and a bad log stopped at its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from courtside.cli import main
from rules.match import ClockStarted, Goal, LogHeader, MatchState, format_log
from rules.ruleset import load_ruleset
from tests.example_logs import example_log

LOG = (
    '{"v": 1, "seq": 1, "at": 0, "type": "clock_started"}\n'
    '{"v": 1, "seq": 2, "at": 61000, "type": "goal", "team": "away", "player": "9"}\n'
    '{"v": 1, "seq": 3, "at": 90000, "type": "clock_stopped"}\n'
)




@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "court1.jsonl"
    path.write_text(LOG, encoding="utf-8")
    return path


def test_state_at_the_end_of_the_log(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--rules", "indoor-football", "--events", str(log), "--format", "json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert (state["at"], state["clock_ms"], state["running"], state["away_goals"]) == (90000, 510_000, False, 1)
    assert MatchState.from_dict(state).away_goals == 1  # what `courtside display snapshot --state` reads back


def test_the_default_output_is_the_board_in_words(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--rules", "indoor-football", "--events", str(log)]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == ["half 1  8:30  stopped", "HOME 0 - 1 AWAY"]


def test_state_at_a_given_second(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--rules", "indoor-football", "--events", str(log), "--at", "30.5", "--format", "json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert (state["clock_ms"], state["away_goals"], state["running"]) == (569_500, 0, True)


def test_malformed_line_is_reported_with_its_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(LOG + '{"v": 1, "seq": 4, "at": 95000, "type": "goal", "team": "visitors"}\n', encoding="utf-8")
    assert main(["replay", "--rules", "indoor-football", "--events", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"{path}, line 4: goal: team: 'visitors' is not a side (home or away)" in err


def test_refused_event_stops_the_replay_at_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "twice.jsonl"
    path.write_text(LOG + '{"v": 1, "seq": 4, "at": 95000, "type": "clock_stopped"}\n', encoding="utf-8")
    assert main(["replay", "--rules", "indoor-football", "--events", str(path)]) == 2
    assert "line 4: seq 4 (clock_stopped) refused: the clock is already stopped" in capsys.readouterr().err


def test_missing_file_and_unknown_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--rules", "indoor-football", "--events", str(tmp_path / "none.jsonl")]) == 2
    assert "cannot read the file" in capsys.readouterr().err
    assert main(["replay", "--rules", "curling", "--events", str(tmp_path / "none.jsonl")]) == 2
    assert "neither a preset" in capsys.readouterr().err


@pytest.mark.parametrize("at", ["nan", "inf", "-3", "soon", "99999999"])
def test_an_instant_that_is_not_a_time_is_refused_by_the_option(log: Path, at: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["replay", "--rules", "indoor-football", "--events", str(log), "--at", at])
    assert stopped.value.code == 2  # argparse's usage error, not a traceback


def test_a_file_that_is_not_utf8_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(LOG.encode() + '{"v": 1, "seq": 4, "at": 95000, "type": "goal", "team": "home", "player": "Å"}\n'
                     .encode("latin-1"))
    assert main(["replay", "--rules", "indoor-football", "--events", str(path)]) == 2
    assert f"{path}, line 4: not UTF-8 text (byte 0xc5)" in capsys.readouterr().err


def _headed_log(tmp_path: Path, **header: str) -> Path:
    rules = load_ruleset("ice-hockey")
    head = LogHeader.for_match(rules, stage="knockout", round="final", home="HC Kosice", away="HK Presov",
                               match_id="F1", court="Rink 1", on_field=5, **header)
    events = [ClockStarted(at=0, seq=1), Goal(at=61_000, seq=2, team="home", player="19"),
              ClockStarted(at=90_000, seq=3)]  # ice hockey stops the clock on a goal
    path = tmp_path / "final.jsonl"
    path.write_text(format_log(events, head), encoding="utf-8")
    return path


def test_a_log_with_its_header_is_replayed_with_no_other_flag(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = _headed_log(tmp_path)
    assert main(["replay", "--events", str(path), "--format", "json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert (state["home_goals"], state["home_on_field"], state["running"], state["at"]) == (1, 5, True, 90_000)


def test_a_ruleset_other_than_the_headers_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _headed_log(tmp_path)
    assert main(["replay", "--events", str(path), "--rules", "indoor-hockey"]) == 2
    assert "is not the one this log was written with ('ice-hockey'" in capsys.readouterr().err


def test_a_log_without_header_needs_its_ruleset(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--events", str(log)]) == 2
    assert "no header saying its ruleset: give --rules" in capsys.readouterr().err


@pytest.mark.parametrize("sport", ["indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey"])
def test_the_example_log_of_each_sport_replays_with_no_flag(sport: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).parent.parent / "rules" / "examples" / f"{sport}.jsonl"
    # The header pins the preset's digest: after a change to a preset write the logs again.
    assert path.read_text(encoding="utf-8") == example_log(sport), "run: .venv/bin/python -m tests.example_logs"
    assert main(["replay", "--events", str(path), "--format", "json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["phase"] == "finished" and state["result"]["outcome"] == "regular"


def test_a_misspelt_round_is_refused_with_the_names_it_could_be(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--rules", "indoor-football", "--events", str(log), "--round", "semifinal"]) == 2
    assert "'semi_final'" in capsys.readouterr().err
    assert main(["replay", "--rules", "indoor-football", "--events", str(log), "--round", "final",
                 "--format", "json"]) == 0  # a final is a knock-out: no --stage needed


@pytest.mark.parametrize("sport", ["indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey"])
def test_every_example_log_names_a_match_of_its_example_tournament(sport: str) -> None:
    """Issue 19: the example logs named matches (A1, A3, G1) that no example tournament has."""
    from rules.match.log import read_log
    from server.plan import load_plan

    examples = Path(__file__).resolve().parent.parent / "rules" / "examples"
    header = read_log((examples / f"{sport}.jsonl").read_text(encoding="utf-8"), sport).header
    assert header is not None
    plan = load_plan(examples / f"{sport}.toml")
    assert header.match_id in plan.fixtures, f"{sport}: match {header.match_id} is not in the schedule"
    scheduled = plan.fixtures[header.match_id]
    assert (header.round, header.court) == (scheduled.round, scheduled.court)
    entry = {t for teams in plan.entry_teams.values() for t in teams}
    assert {header.home, header.away} <= entry  # real teams, as the example results place them
    if scheduled.stage in plan.entry_teams:
        assert (header.home, header.away) == (scheduled.home, scheduled.away)


def test_the_board_in_words_names_the_teams_the_logs_header_gives(capsys: pytest.CaptureFixture[str]) -> None:
    examples = Path(__file__).resolve().parent.parent / "rules" / "examples"
    assert main(["replay", "--events", str(examples / "ice-hockey.jsonl")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "Wolves AA 2 - 1 Bears AA" and out[-1] == "result: 2 - 1 (regular), winner Wolves AA"
