"""The tournament's language: set in the tournament file, taken by the screen, the table and the web pages."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from courtside.cli import main
from rules.errors import TournamentError
from rules.tournament.loading import parse_tournament, validate_tournament
from tests.test_tournament_model import BASE

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "rules" / "examples"


@pytest.mark.parametrize(("name", "lang"), [("youth-football", "sv"), ("indoor-football", "sk"),
                                            ("water-polo", "en"), ("indoor-hockey", "en"), ("ice-hockey", "en")])
def test_the_examples_are_in_their_seeds_language(name: str, lang: str) -> None:
    path = EXAMPLES / f"{name}.toml"
    assert parse_tournament(path.read_text(encoding="utf-8"), str(path)).language == lang


def test_english_is_the_default_and_an_unknown_language_is_refused_naming_the_known_ones() -> None:
    assert validate_tournament(copy.deepcopy(BASE), "cup.toml").language == "en"
    assert validate_tournament({**copy.deepcopy(BASE), "language": "sk"}, "cup.toml").language == "sk"
    with pytest.raises(TournamentError) as caught:
        validate_tournament({**copy.deepcopy(BASE), "language": "se"}, "cup.toml")
    assert str(caught.value) == "cup.toml: language: no catalog for 'se'; known: en, sv, sk"
    with pytest.raises(TournamentError, match=r"cup\.toml: language"):
        validate_tournament({**copy.deepcopy(BASE), "language": 7}, "cup.toml")


def _state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["replay", "--events", str(EXAMPLES / "youth-football.jsonl"), "--format", "json"]) == 0
    path = tmp_path / "state.json"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    return str(path)


def test_the_snapshot_takes_the_tournaments_language_unless_told(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from display.content import frame_of
    from display.snapshot import load_view

    state, tournament = _state(tmp_path, capsys), str(EXAMPLES / "youth-football.toml")
    swedish = load_view(state, None, tournament, None, None)
    assert swedish.language == "sv"
    assert load_view(state, None, tournament, None, "en").language == "en"
    assert load_view(state, "youth-football", None, None, None).language is None  # no file: English
    words = [frame_of(swedish).title, frame_of(load_view(state, None, tournament, None, "en")).title]
    assert words[0] != words[1] and words[1] in ("Full time", "Final score", "2nd half", "1st half", "Half-time")


def test_the_tables_screen_takes_the_tournaments_language() -> None:
    from firmware.main import tournament_language

    assert tournament_language(str(EXAMPLES / "indoor-football.toml")) == "sk"


def test_a_bad_language_in_the_tables_tournament_is_refused(tmp_path: Path) -> None:
    from firmware.main import tournament_language

    text = (EXAMPLES / "indoor-football.toml").read_text(encoding="utf-8").replace('language = "sk"', 'language = "cz"')
    bad = tmp_path / "cup.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(TournamentError, match="language: no catalog for 'cz'; known: en, sv, sk"):
        tournament_language(str(bad))


def test_the_web_pages_take_the_tournaments_language_unless_told() -> None:
    from server.web import create_app
    from tests.web_day import sample_day

    with sample_day() as day:  # the Swedish youth-football cup, over the service
        backend = day.backend
        with TestClient(create_app(backend, secure_cookies=False)) as c:
            page = c.get("/pool/A").text
            assert '<html lang="sv">' in page and "Grupp A" in page and "Pool A" not in page
            live = c.app.state.site.view().matches[12]  # type: ignore[attr-defined]
            team = c.get(f"/team/{live.home}").text  # its player sent off earlier misses this match
            assert "Rött kort" in team and "är avstängd i denna match" in team and "lör 16 maj" in team
            assert "andra halvlek" in c.get(f"/court/{live.court}").text  # the table's "half 2"
            bracket = c.get("/bracket").text
            assert "Kvartsfinal" in bracket and "vinnare QF1" in bracket and "winner QF1" not in bracket
        with TestClient(create_app(backend, lang="en", secure_cookies=False)) as c:
            page = c.get("/pool/A").text
            assert '<html lang="en">' in page and "Pool A" in page


def test_a_slovak_tables_screen_words_the_engines_refusal_in_slovak(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    from firmware.buttonmap import load_button_map
    from firmware.pygame_screen import PygameScreen
    from firmware.table import TableOptions, open_table
    from rules.match import ClockStopped

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("DISPLAY", raising=False)
    screen = PygameScreen(load_button_map(), "sk")
    table = open_table(TableOptions(rules="indoor-football", court="1", journal=tmp_path, speed=0,
                                    factory=MockFactory()), screen=screen)
    try:
        assert not table.loop.apply(ClockStopped(at=0, seq=1))  # the clock is not running yet
        refused = table.loop.notices[-1]
        assert refused.kind == "refused"
        assert refused.text == "nedá sa zastaviť čas: zápas sa ešte nezačal"  # "cannot stop the clock: ..."
        table.loop.step()
        assert table.loop.view().language == "sk"  # the screen's: the loop's view names it
        assert screen.board.frame is not None and screen.board.frame.title == "1. polčas"
    finally:
        table.close()
        screen.close()
