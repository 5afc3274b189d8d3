"""The button map: which GPIO pin is which button, and what a press and a hold of it do.

A TOML file (the default, ``firmware/buttons.toml``, is for a 12-button table). It is
checked completely before anything starts: an unknown action, a pin used twice or a
pin that is not on the header is refused with the file, the key and the reason.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from firmware.errors import ButtonMapError
from firmware.pins import pin_problem

# Every action a button or key can have. The short names of the 12-button table are
# also its button names; the rest are meant for holds or for larger boxes.
ACTIONS: dict[str, str] = {
    "clock_start": "start the match clock (starts the next period after an interval)",
    "clock_stop": "stop the match clock",
    "goal_home": "a goal for home (the number typed before it is the scorer); in a shoot-out, home scores",
    "goal_away": "a goal for away; in a shoot-out, away scores",
    "penalty_home": "open a penalty for home (press again or MODE for the next kind, NEXT confirms); "
    "in a shoot-out, home misses",
    "penalty_away": "open a penalty for away; in a shoot-out, away misses",
    "timeout_home": "a time-out for home",
    "timeout_away": "a time-out for away",
    "horn": "sound the horn now",
    "undo": "cancel what is being typed, else take back the last event",
    "next": "confirm what is typed; skip an interval; load the next scheduled match after the end",
    "mode": "next penalty kind while a penalty is open; else the set piece (start/end) or possession reset",
    "end_period": "end the period being played now",
    "new_match": "leave this match and load the next scheduled one (destructive: long hold)",
    "abandon": "abandon the match; the organiser decides (destructive: long hold)",
    "disallow_goal_home": "take off home's last goal",
    "disallow_goal_away": "take off away's last goal",
    "lengthen_home": "one more minute on home's last minimum penalty (indoor hockey's yellow card)",
    "lengthen_away": "one more minute on away's last minimum penalty",
    "end_timeout": "end the running time-out",
    "mute": "mute or unmute the automatic horn",
    "correct_clock": "type the clock's right value (minutes and seconds, e.g. 1230), NEXT sets it",
    "possession_reset": "water polo: possession clock back to its full length",
    "possession_reset_short": "water polo: possession clock to its short length (corner throw)",
}
DESTRUCTIVE = frozenset({"new_match", "abandon"})
"""Hold actions that need ``long_hold``: they cannot be taken back with UNDO."""


@dataclass(frozen=True, kw_only=True)
class ButtonSpec:
    name: str
    pin: int
    press: str
    hold: str | None = None


@dataclass(frozen=True, kw_only=True)
class Timing:
    bounce: float = 0.02
    hold: float = 1.0
    long_hold: float = 3.0
    replace: float = 1.0


@dataclass(frozen=True, kw_only=True)
class Output:
    pin: int
    active_high: bool = True
    pattern: tuple[float, ...] = (1.0,)


@dataclass(frozen=True, kw_only=True)
class ButtonMap:
    source: str
    buttons: tuple[ButtonSpec, ...]
    timing: Timing
    horn: Output | None
    buzzer: Output | None
    keys: dict[str, str]

    def button(self, name: str) -> ButtonSpec | None:
        return next((b for b in self.buttons if b.name == name), None)

    def hold_time(self, spec: ButtonSpec) -> float | None:
        """How long ``spec`` must be held for its hold action (None: it has none)."""
        if spec.hold is None:
            return None
        return self.timing.long_hold if spec.hold in DESTRUCTIVE else self.timing.hold


DEFAULT_NAME = "buttons.toml"


def default_text() -> str:
    return resources.files("firmware").joinpath(DEFAULT_NAME).read_text(encoding="utf-8")


def load_button_map(path: str | Path | None = None) -> ButtonMap:
    """The map in ``path``, or the shipped 12-button map; refuses a wrong file with key and reason."""
    if path is None:
        return parse_button_map(default_text(), f"firmware/{DEFAULT_NAME}")
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ButtonMapError(source, "", f"cannot read the button map ({err})") from None
    return parse_button_map(text, source)


def parse_button_map(text: str, source: str) -> ButtonMap:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ButtonMapError(source, "", f"not valid TOML: {err}") from None
    _only(data, {"timing", "buttons", "horn", "buzzer", "keys"}, source, "")
    timing = _timing(_table(data.get("timing", {}), source, "timing"), source)
    raw_buttons = _table(data.get("buttons"), source, "buttons")
    if not raw_buttons:
        raise ButtonMapError(source, "buttons", "at least one button is required")
    used: dict[int, str] = {}
    buttons = []
    for name, raw in raw_buttons.items():
        key = f"buttons.{name}"
        table = _table(raw, source, key)
        _only(table, {"pin", "press", "hold"}, source, key)
        pin = _pin(table.get("pin"), source, f"{key}.pin", used, key)
        press = _action(table.get("press"), source, f"{key}.press", required=True)
        hold = _action(table.get("hold"), source, f"{key}.hold", required=False)
        assert press is not None
        buttons.append(ButtonSpec(name=name, pin=pin, press=press, hold=hold))
    horn = _output(data.get("horn"), source, "horn", used)
    buzzer = _output(data.get("buzzer"), source, "buzzer", used)
    keys: dict[str, str] = {}
    for key_name, action in _table(data.get("keys", {}), source, "keys").items():
        checked = _action(action, source, f"keys.{key_name}", required=True)
        assert checked is not None
        keys[key_name.lower()] = checked
    return ButtonMap(source=source, buttons=tuple(buttons), timing=timing, horn=horn, buzzer=buzzer, keys=keys)


def _table(value: Any, source: str, key: str) -> dict[str, Any]:
    if value is None:
        raise ButtonMapError(source, key, "required table is missing")
    if not isinstance(value, dict):
        raise ButtonMapError(source, key, f"a table is required, not {value!r}")
    return value


def _only(table: dict[str, Any], allowed: set[str], source: str, key: str) -> None:
    for name in table:
        if name not in allowed:
            where = f"{key}.{name}" if key else name
            raise ButtonMapError(source, where, f"unknown key (known: {', '.join(sorted(allowed))})")


def _seconds(table: dict[str, Any], name: str, default: float, source: str, key: str) -> float:
    value = table.get(name, default)
    if type(value) not in (int, float) or not 0 <= value <= 30:
        raise ButtonMapError(source, f"{key}.{name}", f"seconds from 0 to 30 are required, not {value!r}")
    return float(value)


def _timing(table: dict[str, Any], source: str) -> Timing:
    _only(table, {"bounce", "hold", "long_hold", "replace"}, source, "timing")
    d = Timing()
    t = Timing(
        bounce=_seconds(table, "bounce", d.bounce, source, "timing"),
        hold=_seconds(table, "hold", d.hold, source, "timing"),
        long_hold=_seconds(table, "long_hold", d.long_hold, source, "timing"),
        replace=_seconds(table, "replace", d.replace, source, "timing"),
    )
    if t.hold <= t.bounce:
        raise ButtonMapError(source, "timing.hold", "must be longer than timing.bounce")
    if t.long_hold < t.hold:
        raise ButtonMapError(source, "timing.long_hold", "must be at least timing.hold")
    return t


def _pin(value: Any, source: str, key: str, used: dict[int, str], owner: str) -> int:
    if value is None:
        raise ButtonMapError(source, key, "required key is missing")
    problem = pin_problem(value)
    if problem is not None:
        raise ButtonMapError(source, key, problem)
    if value in used:
        raise ButtonMapError(source, key, f"GPIO {value} is already used by {used[value]}")
    used[value] = owner
    return int(value)


def _action(value: Any, source: str, key: str, *, required: bool) -> str | None:
    if value is None:
        if required:
            raise ButtonMapError(source, key, "required key is missing")
        return None
    if not isinstance(value, str) or value not in ACTIONS:
        raise ButtonMapError(source, key, f"{value!r} is not an action (actions: {', '.join(ACTIONS)})")
    return value


def _output(value: Any, source: str, key: str, used: dict[int, str]) -> Output | None:
    if value is None:
        return None
    table = _table(value, source, key)
    _only(table, {"pin", "active_high", "pattern", "length"}, source, key)
    pin = _pin(table.get("pin"), source, f"{key}.pin", used, key)
    active_high = table.get("active_high", True)
    if type(active_high) is not bool:
        raise ButtonMapError(source, f"{key}.active_high", f"true or false is required, not {active_high!r}")
    if "length" in table and "pattern" in table:
        raise ButtonMapError(source, f"{key}.length", "give length or pattern, not both")
    pattern = table.get("pattern", [table.get("length", 1.0)])
    if (not isinstance(pattern, list) or not pattern or len(pattern) > 15
            or any(type(x) not in (int, float) or not 0 < x <= 10 for x in pattern)):
        raise ButtonMapError(source, f"{key}.pattern", "1 to 15 durations in seconds (on, off, on, ...), each 0-10 s")
    return Output(pin=pin, active_high=active_high, pattern=tuple(float(x) for x in pattern))
