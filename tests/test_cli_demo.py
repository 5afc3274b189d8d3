"""``courtside demo --tables-only``: the old offline view, the example pools ranked with reasons."""

from __future__ import annotations

import pytest

from courtside.cli import main


def test_tables_only_ranks_both_example_pools_with_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--tables-only"]) == 0
    out = capsys.readouterr().out
    assert "Pool A (indoor-hockey)" in out and "Pool B (indoor-hockey)" in out
    rows = [line for line in out.splitlines() if line[:3].strip().lstrip("=").isdigit()]
    assert len(rows) == 8
    assert any("ahead on goal difference" in row for row in rows)


def test_speed_without_autoplay_is_refused() -> None:
    with pytest.raises(SystemExit, match="--speed goes with --autoplay"):
        main(["demo", "--speed", "50"])


@pytest.mark.parametrize("speed", ["-1", "0.5", "abc", "5000"])
def test_a_bad_speed_is_refused_by_the_parser(speed: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--autoplay", "--speed", speed])
    assert "--speed" in capsys.readouterr().err


def test_an_unknown_tournament_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--tournament", "curling", "--headless"]) == 2
    err = capsys.readouterr().err
    assert "--tournament curling" in err and "water-polo" in err


def test_without_the_demo_extra_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "amqtt" else real(name, *a))
    assert main(["demo", "--headless"]) == 2
    assert "the demo needs amqtt: install the demo extra" in capsys.readouterr().err
