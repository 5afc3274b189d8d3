"""The button map: the shipped 12-button map loads; a wrong map names the file, the key and the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.actions import DESTRUCTIVE, ActionName
from firmware.buttonmap import default_text, load_button_map, parse_button_map
from firmware.errors import ButtonMapError
from firmware.pins import HEADER

TWELVE = ["clock_start", "clock_stop", "goal_home", "goal_away", "penalty_home", "penalty_away", "timeout_home",
          "timeout_away", "horn", "undo", "next", "mode"]


def test_default_map_has_the_twelve_buttons_on_distinct_header_pins() -> None:
    m = load_button_map()
    assert [b.name for b in m.buttons] == TWELVE
    pins = [b.pin for b in m.buttons] + [m.horn.pin if m.horn else -1, m.buzzer.pin if m.buzzer else -1,
                                         m.shutdown or -1]
    assert len(set(pins)) == len(pins)
    # The buzzer and the clean shutdown button are two pins (hardware.md had GPIO 21 for both).
    assert m.buzzer is not None and (m.buzzer.pin, m.shutdown) == (20, 21)
    assert all(p in HEADER for p in pins)
    assert all(b.press == b.name for b in m.buttons)  # each button's name is its short-press action
    assert all(isinstance(a, ActionName) for a in (*m.keys.values(), *(b.press for b in m.buttons)))
    mode = m.button("mode")
    assert mode is not None and mode.hold in DESTRUCTIVE
    assert m.hold_time(mode) == m.timing.long_hold > m.timing.hold


def _with(replace: str, by: str) -> str:
    text = default_text()
    assert replace in text
    return text.replace(replace, by, 1)


@pytest.mark.parametrize(("change", "key", "reason"), [
    (('press = "goal_home"', 'press = "goal_hom"'), "buttons.goal_home.press", "'goal_hom' is not an action"),
    (("pin = 23", "pin = 22"), "buttons.goal_away.pin", "GPIO 22 is already used by buttons.goal_home"),
    (("pin = 17", "pin = 28"), "buttons.clock_start.pin", "GPIO 28 is not on the 40-pin header"),
    (("pin = 17", "pin = 0"), "buttons.clock_start.pin", "reserved for a HAT's ID EEPROM"),
    (("pin = 17", 'pin = "17"'), "buttons.clock_start.pin", "a BCM GPIO number"),
    (("pin = 4 ", "pin = 27 "), "horn.pin", "GPIO 27 is already used by buttons.clock_stop"),
    (('hold = "mute"', 'hold = "mutes"'), "buttons.horn.hold", "'mutes' is not an action"),
    (('"f3" = "goal_home"', '"f3" = "score"'), "keys.f3", "'score' is not an action (actions: clock_start, "),
    (('"f3" = "goal_home"', '"f3" = ["goal_home"]'), "keys.f3", "['goal_home'] is not an action"),
    (("bounce = 0.02", "bounce = 2.0"), "timing.hold", "must be longer than timing.bounce"),
    (("[timing]", "[timing]\nwobble = 1"), "timing.wobble", "unknown key"),
    (('view = "web"', 'view = "tablet"'), "operator.view", "'tablet' is not one of web, screen, line, none"),
    (("port = 8090", "port = 70000"), "operator.port", "70000 is not a port (1 to 65535)"),
    (("port = 8090", 'port = "8090"'), "operator.port", "'8090' is not a port"),
    (('host = "0.0.0.0"', 'host = ""'), "operator.host", "an address to serve the page on"),
    (('view = "web"', 'view = "web"\nbuttons = true'), "operator.buttons", "unknown key"),
])
def test_wrong_maps_are_refused_with_file_key_and_reason(change: tuple[str, str], key: str, reason: str) -> None:
    with pytest.raises(ButtonMapError) as err:
        parse_button_map(_with(*change), "box.toml")
    assert err.value.source == "box.toml"
    assert err.value.key == key
    assert reason in err.value.message
    assert str(err.value).startswith(f"box.toml: {key}: ")


def test_a_file_that_is_not_toml_or_missing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[buttons\n", encoding="utf-8")
    with pytest.raises(ButtonMapError, match=r"bad.toml: not valid TOML"):
        load_button_map(bad)
    with pytest.raises(ButtonMapError, match=r"cannot read the button map"):
        load_button_map(tmp_path / "none.toml")


def test_every_action_is_documented_in_hardware_md() -> None:
    text = (Path(__file__).parent.parent / "hardware.md").read_text(encoding="utf-8")
    missing = [a for a in ActionName if f"`{a}`" not in text]
    assert not missing
