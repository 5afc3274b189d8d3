"""courtside.demo.calendar: a seed tournament moved to begin on a given day, times of day kept."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from courtside.demo.calendar import first_day, moved_to
from rules.files import read_text
from rules.tournament import build_schedule, load_tournament_ruleset, parse_tournament, pool_teams

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"


@pytest.mark.parametrize("name", ["indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey"])
def test_every_match_moves_by_whole_days_and_keeps_its_time_and_court(tmp_path: Path, name: str) -> None:
    source = EXAMPLES / f"{name}.toml"
    text = read_text(str(source))
    moved = tmp_path / source.name
    moved.write_text(moved_to(text, date(2031, 3, 4), source), encoding="utf-8")
    assert first_day(moved.read_text(encoding="utf-8")) == date(2031, 3, 4)

    def schedule(path: Path) -> list[tuple[int, str, str, str]]:
        t = parse_tournament(read_text(str(path)), str(path))
        plan = build_schedule(t, load_tournament_ruleset(t, str(path)), pool_teams(t, str(path), None))
        return [(m.number, m.court, m.home, m.start.strftime("%H:%M")) for m in plan.matches]

    assert schedule(moved) == schedule(source)
    first = first_day(text)
    assert first is not None
    t = parse_tournament(read_text(str(moved)), str(moved))
    plan = build_schedule(t, load_tournament_ruleset(t, str(moved)), pool_teams(t, str(moved), None))
    assert min(m.start.date() for m in plan.matches) == date(2031, 3, 4)


def test_a_ruleset_file_next_to_the_tournament_is_named_by_its_absolute_path(tmp_path: Path) -> None:
    text = 'name = "x"\nruleset = "my-rules.toml"\n[schedule]\nstart = "2026-01-16T17:00"\n'
    out = moved_to(text, date(2026, 1, 20), tmp_path / "t.toml")
    assert f'ruleset = "{(tmp_path / "my-rules.toml").resolve()}"' in out
    assert 'start = "2026-01-20T17:00"' in out
    assert moved_to('ruleset = "ice-hockey"\n', date(2026, 1, 20), tmp_path / "t.toml") == 'ruleset = "ice-hockey"\n'


def test_a_teams_sheet_beside_the_tournament_is_named_by_its_absolute_path(tmp_path: Path) -> None:
    text = '[[teams]]\nname = "Bears AA"\nsheet = "bears.csv"\n'
    assert f'sheet = "{(tmp_path / "bears.csv").resolve()}"' in moved_to(text, date(2026, 1, 20), tmp_path / "t.toml")
