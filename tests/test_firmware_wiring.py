"""``courtside table --check-wiring`` and the command's checks before anything starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def _table(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "courtside", "table", *args], capture_output=True, text=True,
                          timeout=30)  # a check that waits for presses never ends: the timeout fails it


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


def test_check_wiring_without_gpio_says_so_and_exits() -> None:
    """On a laptop or a server (no GPIO header) the check used to wait forever for presses that cannot come."""
    from firmware.pins import board

    if board() is not None:
        pytest.skip("this machine is a Raspberry Pi: the check waits for real presses here")
    done = _table("--court", "1", "--check-wiring")
    assert done.returncode == 2
    assert "--check-wiring: this machine has no GPIO header (not a Raspberry Pi)" in done.stderr
    assert "--script PRESSES" in done.stderr
    assert "Wiring check" not in done.stdout  # refused before anything listens


def test_check_wiring_on_mock_pins_without_a_script_is_refused() -> None:
    done = _table("--court", "1", "--check-wiring", "--pins", "mock")
    assert done.returncode == 2
    assert "--check-wiring:" in done.stderr
    assert "nobody can press a mock pin" in done.stderr or "no GPIO header" in done.stderr


def test_check_wiring_on_native_pins_without_a_pin_library_names_every_library_tried() -> None:
    from firmware.pins import board

    if board() is not None:
        pytest.skip("a Raspberry Pi has a pin library")
    done = _table("--court", "1", "--check-wiring", "--pins", "native")
    assert done.returncode == 2
    assert "--pins native: no GPIO library works on this machine (not a Raspberry Pi)" in done.stderr
    assert "lgpio" in done.stderr and "Run it on the table's Raspberry Pi" in done.stderr
    assert "PinFactoryFallback" not in done.stderr  # gpiozero's warnings folded into the one message
