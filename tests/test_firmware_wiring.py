"""``courtside table --check-wiring`` and the command's checks before anything starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _table(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "courtside", "table", *args], capture_output=True, text=True,
                          timeout=60)


def test_check_wiring_shows_each_button_with_its_pins(tmp_path: Path) -> None:
    script = tmp_path / "w.txt"
    script.write_text("0 press goal_home\n1 press horn\n", encoding="utf-8")
    done = _table("--court", "1", "--pins", "mock", "--check-wiring", "--script", str(script))
    assert done.returncode == 0, done.stderr
    assert "goal_home (GPIO 22, pin 15): pressed" in done.stdout
    assert "horn (GPIO 12, pin 32): released" in done.stdout
    assert "2 of 12 buttons seen; not pressed: clock_start" in done.stdout


def test_a_bad_button_map_is_refused_before_anything_starts(tmp_path: Path) -> None:
    bad = tmp_path / "map.toml"
    bad.write_text('[buttons.goal_home]\npin = 22\npress = "goal_home"\n\n[buttons.goal_away]\npin = 22\n'
                   'press = "goal_away"\n', encoding="utf-8")
    journal = tmp_path / "journal"
    done = _table("--court", "1", "--buttons", str(bad), "--journal", str(journal), "--headless")
    assert done.returncode == 2
    assert f"{bad}: buttons.goal_away.pin: GPIO 22 is already used by buttons.goal_home" in done.stderr
    assert not journal.exists()


def test_help_names_every_option() -> None:
    done = _table("--help")
    for option in ("--rules", "--court", "--tournament", "--buttons", "--pins", "--journal", "--headless",
                   "--script", "--speed", "--check-wiring"):
        assert option in done.stdout
