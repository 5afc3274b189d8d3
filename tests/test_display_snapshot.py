"""`courtside display snapshot`: a state printed by `courtside replay --format json` becomes a PNG."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from courtside.cli import main
from display.snapshot import parse_size

EXAMPLES = Path(__file__).resolve().parents[1] / "rules" / "examples"


def replay_json(sport: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    assert main(["replay", "--events", str(EXAMPLES / f"{sport}.jsonl"), "--format", "json"]) == 0
    path = tmp_path / f"{sport}.json"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    return path


@pytest.mark.parametrize("sport", ["indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey"])
def test_snapshot_of_each_example_log(sport: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = replay_json(sport, tmp_path, capsys)
    out = tmp_path / "frame.png"
    assert main(["display", "snapshot", "--state", str(state), "--rules", sport, "--size", "1280x720",
                 "--out", str(out)]) == 0
    picture = pygame.image.load(str(out))
    assert picture.get_size() == (1280, 720)
    assert pygame.mask.from_threshold(picture, (0, 0, 0), (8, 8, 8, 255)).count() < 1280 * 720 * 0.95
    assert f"wrote {out}" in capsys.readouterr().out


def test_snapshot_with_tournament_takes_its_teams_and_ruleset(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    state = replay_json("water-polo", tmp_path, capsys)
    plain, named = tmp_path / "plain.png", tmp_path / "named.png"
    assert main(["display", "snapshot", "--state", str(state), "--rules", "water-polo", "--out", str(plain)]) == 0
    assert main(["display", "snapshot", "--state", str(state), "--tournament", str(EXAMPLES / "water-polo.toml"),
                 "--match", "SF1", "--language", "sv", "--out", str(named)]) == 0
    a, b = pygame.image.load(str(plain)), pygame.image.load(str(named))
    assert a.get_size() == b.get_size() == (1920, 1080)
    top = pygame.Rect(0, 0, 1920, 300)  # names and the period's words differ; the picture is not the same
    assert pygame.mask.from_threshold(a.subsurface(top), (0, 0, 0), (1, 1, 1, 255), b.subsurface(top), 1).count() \
        < top.width * top.height


@pytest.mark.parametrize(("args", "message"), [
    (["--size", "1920"], "WIDTHxHEIGHT"),
    (["--size", "99999x10"], "WIDTHxHEIGHT"),
    (["--match", "SF1"], "needs --tournament"),
    ([], "give --rules"),
])
def test_bad_arguments_are_refused(args: list[str], message: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    state = replay_json("ice-hockey", tmp_path, capsys)
    status = main(["display", "snapshot", "--state", str(state), "--out", str(tmp_path / "x.png"), *args])
    assert status == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_a_state_that_is_not_one_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"phase": "play"}', encoding="utf-8")
    out = str(tmp_path / "x.png")
    status = main(["display", "snapshot", "--state", str(bad), "--rules", "ice-hockey", "--out", out])
    err = capsys.readouterr().err
    assert status == 2 and "bad.json" in err and "match state" in err
    bad.write_text("{", encoding="utf-8")
    assert main(["display", "snapshot", "--state", str(bad), "--rules", "ice-hockey", "--out", "x.png"]) == 2


def test_an_unknown_match_names_what_to_give(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = replay_json("water-polo", tmp_path, capsys)
    status = main(["display", "snapshot", "--state", str(state), "--tournament", str(EXAMPLES / "water-polo.toml"),
                   "--match", "ZZ9", "--out", str(tmp_path / "x.png")])
    assert status == 2 and "no match 'ZZ9'" in capsys.readouterr().err


def test_parse_size() -> None:
    assert parse_size("3840x2160") == (3840, 2160)
    with pytest.raises(ValueError):
        parse_size("0x0")


def test_a_snapshot_of_a_log_names_the_teams_its_header_names(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    log = str(EXAMPLES / "water-polo.jsonl")
    assert main(["replay", "--events", log, "--at", "600", "--format", "json"]) == 0
    state = tmp_path / "state.json"
    state.write_text(capsys.readouterr().out, encoding="utf-8")
    from_log, from_state = tmp_path / "log.png", tmp_path / "state.png"
    assert main(["display", "snapshot", "--events", log, "--at", "600", "--out", str(from_log)]) == 0
    assert main(["display", "snapshot", "--state", str(state), "--rules", "water-polo", "--out", str(from_state)]) == 0
    a, b = pygame.image.load(str(from_log)), pygame.image.load(str(from_state))
    names = pygame.Rect(0, 130, 1920, 120)  # "Hungary Juniors" and "Japan Juniors" against "Home" and "Away"
    board = pygame.Rect(0, 300, 1920, 700)  # the same instant: the same clock, scores and shot clock
    same = pygame.mask.from_threshold(a.subsurface(names), (0, 0, 0), (1, 1, 1, 255), b.subsurface(names), 1)
    assert same.count() < names.w * names.h
    assert pygame.mask.from_threshold(a.subsurface(board), (0, 0, 0), (1, 1, 1, 255), b.subsurface(board),
                                      1).count() == board.w * board.h
    with pytest.raises(SystemExit) as refused:  # replay's own check of an instant
        main(["display", "snapshot", "--events", log, "--at", "-1", "--out", str(from_log)])
    assert refused.value.code == 2
    assert "argument --at: '-1' is not an instant of a match" in capsys.readouterr().err
