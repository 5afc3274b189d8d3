"""The button map: which GPIO pin is which button, and what a press and a hold of it do.

A TOML file (the default, ``firmware/buttons.toml``, is for a 12-button table). It is
checked completely before anything starts: an unknown action, a pin used twice or a
pin that is not on the header is refused with the file, the key and the reason.

The same file says where the horn sounds (a relay on a pin, the screen's own speakers
through HDMI audio, or both), its pattern for each ruleset, and which pin the clean
shutdown button holds (the kernel's, so no button may take it). hardware.md's wiring
diagram is drawn from this file too (docs/wiring/).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from firmware.actions import DESTRUCTIVE, ActionName
from firmware.errors import ButtonMapError
from firmware.pins import pin_problem
from rules import PRESETS, open_file


@dataclass(frozen=True, kw_only=True)
class ButtonSpec:
    name: str
    pin: int
    press: ActionName
    hold: ActionName | None = None


@dataclass(frozen=True, kw_only=True)
class Timing:
    bounce: float = 0.02
    hold: float = 1.0
    long_hold: float = 3.0
    replace: float = 1.0


@dataclass(frozen=True, kw_only=True)
class Output:
    """A buzzer, or the horn: a pin switched on and off in ``pattern`` (seconds on, off, on, ...)."""

    pin: int | None  # None: a horn through the screen's speakers only
    active_high: bool = True
    pattern: tuple[float, ...] = (1.0,)
    relay: bool = True  # the horn: through the relay on ``pin``
    screen: bool = False  # the horn: through the screen's own speakers (HDMI audio, pygame's mixer)
    volume: float = 1.0
    device: str | None = None  # an audio output by its name (SDL's); None: the system's default
    file: Path | None = None  # a recorded horn (WAV or OGG) instead of the built-in tone
    patterns: tuple[tuple[str, tuple[float, ...]], ...] = ()  # (ruleset name, its own pattern)

    def pattern_for(self, ruleset: str) -> tuple[float, ...]:
        """The pattern of the ruleset named ``ruleset`` (its preset name), else the map's ``pattern``."""
        return dict(self.patterns).get(ruleset, self.pattern)


OperatorForm = Literal["web", "screen", "line", "none"]
OPERATOR_FORMS: tuple[OperatorForm, ...] = ("web", "screen", "line", "none")


@dataclass(frozen=True, kw_only=True)
class Operator:
    """Where the official's own view is shown (display.operator): ``web`` a page the table serves on ``host``:
    ``port`` to a phone or tablet at the table; ``screen`` a second monitor (the Pi's other HDMI port); ``line``
    one compact line at the foot of the venue scoreboard (a venue with one screen); ``none``."""

    view: OperatorForm = "none"
    host: str = "0.0.0.0"
    port: int = 8090


@dataclass(frozen=True, kw_only=True)
class ButtonMap:
    source: str
    buttons: tuple[ButtonSpec, ...]
    timing: Timing
    horn: Output | None
    buzzer: Output | None
    keys: dict[str, ActionName]
    shutdown: int | None = None  # the clean shutdown button's GPIO (dtoverlay=gpio-shutdown): never opened here
    operator: Operator = Operator()

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
        with open_file(path) as f:  # a named pipe or a device is refused, not waited on
            text = f.read(1024 * 1024).decode("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ButtonMapError(source, "", f"cannot read the button map ({err})") from None
    return parse_button_map(text, source)


def parse_button_map(text: str, source: str) -> ButtonMap:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ButtonMapError(source, "", f"not valid TOML: {err}") from None
    _only(data, {"timing", "buttons", "horn", "buzzer", "shutdown", "keys", "operator"}, source, "")
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
    horn = _horn(data.get("horn"), source, used)
    buzzer = _output(data.get("buzzer"), source, "buzzer", used)
    shutdown = None
    if data.get("shutdown") is not None:
        table = _table(data["shutdown"], source, "shutdown")
        _only(table, {"pin"}, source, "shutdown")
        shutdown = _pin(table.get("pin"), source, "shutdown.pin", used, "shutdown")
    keys: dict[str, ActionName] = {}
    for key_name, action in _table(data.get("keys", {}), source, "keys").items():
        checked = _action(action, source, f"keys.{key_name}", required=True)
        assert checked is not None
        keys[key_name.lower()] = checked
    return ButtonMap(source=source, buttons=tuple(buttons), timing=timing, horn=horn, buzzer=buzzer, keys=keys,
                     shutdown=shutdown, operator=_operator(data.get("operator", {}), source))


def _operator(value: Any, source: str) -> Operator:
    table = _table(value, source, "operator")
    _only(table, {"view", "host", "port"}, source, "operator")
    view = table.get("view", "none")
    if view not in OPERATOR_FORMS:
        raise ButtonMapError(source, "operator.view", f"{view!r} is not one of {', '.join(OPERATOR_FORMS)}")
    host = table.get("host", "0.0.0.0")
    if not isinstance(host, str) or not host:
        raise ButtonMapError(source, "operator.host", "an address to serve the page on, e.g. \"0.0.0.0\"")
    port = table.get("port", 8090)
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise ButtonMapError(source, "operator.port", f"{port!r} is not a port (1 to 65535)")
    return Operator(view=view, host=host, port=port)


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


def _action(value: Any, source: str, key: str, *, required: bool) -> ActionName | None:
    if value is None:
        if required:
            raise ButtonMapError(source, key, "required key is missing")
        return None
    try:
        return ActionName(value)
    except ValueError:
        raise ButtonMapError(source, key, f"{value!r} is not an action (actions: {', '.join(ActionName)})") from None


def _output(value: Any, source: str, key: str, used: dict[int, str]) -> Output | None:
    if value is None:
        return None
    table = _table(value, source, key)
    _only(table, {"pin", "active_high", "pattern", "length"}, source, key)
    pin = _pin(table.get("pin"), source, f"{key}.pin", used, key)
    return Output(pin=pin, active_high=_active_high(table, source, key), pattern=_pattern_of(table, source, key))


HORN_KEYS = {"through", "pin", "active_high", "pattern", "length", "volume", "device", "file", "patterns"}
THROUGH = ("relay", "screen")


def _horn(value: Any, source: str, used: dict[int, str]) -> Output | None:
    """The ``[horn]`` table: where it sounds, its pin (for the relay), its patterns, the speakers' settings."""
    if value is None:
        return None
    table = _table(value, source, "horn")
    _only(table, HORN_KEYS, source, "horn")
    through = table.get("through", ["relay"])
    if (not isinstance(through, list) or not through or any(t not in THROUGH for t in through)
            or len(set(through)) != len(through)):
        raise ButtonMapError(source, "horn.through", f'a list of "relay" and/or "screen" is required, not {through!r}')
    relay = "relay" in through
    pin = None
    if relay or "pin" in table:
        if relay and "pin" not in table:
            raise ButtonMapError(source, "horn.pin", 'required key is missing (the horn sounds through the relay: '
                                 'give its GPIO pin, or through = ["screen"])')
        pin = _pin(table.get("pin"), source, "horn.pin", used, "horn")
    volume = table.get("volume", 1.0)
    if type(volume) not in (int, float) or not 0 < volume <= 1:
        raise ButtonMapError(source, "horn.volume", f"a number above 0 and at most 1 is required, not {volume!r}")
    device = table.get("device")
    if device is not None and (not isinstance(device, str) or not device.strip()):
        raise ButtonMapError(source, "horn.device", f"an audio output's name is required, not {device!r}")
    file = None
    if "file" in table:
        name = table["file"]
        if not isinstance(name, str) or not name:
            raise ButtonMapError(source, "horn.file", f"a sound file's name is required, not {name!r}")
        file = Path(name) if Path(name).is_absolute() else Path(source).parent / name
        if not file.is_file():
            raise ButtonMapError(source, "horn.file", f"no such sound file {str(file)!r}")
    patterns = []
    for ruleset, raw in _table(table.get("patterns", {}), source, "horn.patterns").items():
        if ruleset not in PRESETS:
            raise ButtonMapError(source, f"horn.patterns.{ruleset}",
                                 f"not a ruleset's name (rulesets: {', '.join(PRESETS)})")
        patterns.append((ruleset, _pattern(raw, source, f"horn.patterns.{ruleset}")))
    return Output(pin=pin, active_high=_active_high(table, source, "horn"), pattern=_pattern_of(table, source, "horn"),
                  relay=relay, screen="screen" in through, volume=float(volume), device=device, file=file,
                  patterns=tuple(patterns))


def _active_high(table: dict[str, Any], source: str, key: str) -> bool:
    active_high = table.get("active_high", True)
    if type(active_high) is not bool:
        raise ButtonMapError(source, f"{key}.active_high", f"true or false is required, not {active_high!r}")
    return active_high


def _pattern_of(table: dict[str, Any], source: str, key: str) -> tuple[float, ...]:
    if "length" in table and "pattern" in table:
        raise ButtonMapError(source, f"{key}.length", "give length or pattern, not both")
    if "length" in table:
        return _pattern([table["length"]], source, f"{key}.length")
    return _pattern(table.get("pattern", [1.0]), source, f"{key}.pattern")


def _pattern(pattern: Any, source: str, key: str) -> tuple[float, ...]:
    if (not isinstance(pattern, list) or not pattern or len(pattern) > 15
            or any(type(x) not in (int, float) or not 0 < x <= 10 for x in pattern)):
        raise ButtonMapError(source, key, "1 to 15 durations in seconds (on, off, on, ...), each 0-10 s")
    return tuple(float(x) for x in pattern)
