"""The horn through the screen's own speakers (SDL's dummy audio driver, set in conftest), the relay, or both.

The mixer is real: pygame's, playing through SDL's dummy audio output, so a channel is busy
exactly while the horn sounds. Each ruleset's pattern comes from the button map.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from firmware.buttonmap import default_text, load_button_map, parse_button_map
from firmware.errors import ButtonMapError
from firmware.horn import LOOP_S, RATE, horn_tone, make_horn
from firmware.screen import HeadlessScreen
from firmware.table import TableOptions, open_table
from tests.firmware_support import Board


class ScreenWithSpeakers(HeadlessScreen):
    """The HDMI screen as far as the horn cares: it has speakers (the pictures are not the point here)."""

    has_speakers = True


def _map(change: str = "", by: str = "", *, source: str = "venue.toml") -> Any:
    text = default_text()
    if change:
        assert change in text
        text = text.replace(change, by, 1)
    return parse_button_map(text, source)


def wait_until(predicate: Callable[[], bool], seconds: float = 30.0) -> bool:
    """The mixer runs on SDL's audio thread: a fade-out ends a few milliseconds later (later still on a loaded
    machine: the deadline is for a real fault)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


@contextmanager
def table_with_speakers(tmp_path: Path, rules: str, buttons: Path | None = None) -> Iterator[Board]:
    screen = ScreenWithSpeakers(echo=lambda _: None)
    opts = TableOptions(rules=rules, journal=tmp_path, speed=0, factory=MockFactory(),
                        buttons=str(buttons) if buttons else None)
    table = open_table(opts, screen=screen)
    try:
        yield Board(table, screen)
    finally:
        table.close()


def test_the_built_in_tone_is_loud_and_loops_without_a_click() -> None:
    samples = array("h")
    samples.frombytes(horn_tone())
    assert len(samples) == round(RATE * LOOP_S)
    assert max(abs(x) for x in samples) > 25_000  # a horn, not a beep
    rms = (sum(x * x for x in samples) / len(samples)) ** 0.5
    assert rms > 8_000
    # The loop's end runs into its start as one wave does from one sample to the next.
    steps = [abs(samples[i + 1] - samples[i]) for i in range(len(samples) - 1)]
    assert abs(samples[0] - samples[-1]) <= max(steps)


def test_the_screens_speakers_sound_the_pattern_through_the_mixer() -> None:
    """through = ["screen"]: no relay, no pin; the mixer's channel is busy while the pattern is on."""
    m = _map('through = ["relay", "screen"]', 'through = ["screen"]')
    assert m.horn is not None and not m.horn.relay
    horn = make_horn(m, MockFactory(), "indoor-football")
    try:
        assert horn.speaker is not None and horn.devices == [horn.speaker]
        assert horn.pattern == (0.6, 0.2, 0.6)  # the ruleset's own pattern from [horn.patterns]
        horn.sound(100.0)
        assert horn.is_on and wait_until(lambda: horn.speaker is not None and horn.speaker.playing)
        horn.tick(100.6)  # the first blast ends
        assert not horn.is_on and wait_until(lambda: horn.speaker is not None and not horn.speaker.playing)
        horn.tick(100.8)  # the second starts
        assert horn.is_on and wait_until(lambda: horn.speaker is not None and horn.speaker.playing)
        horn.tick(101.4)
        assert not horn.is_on and wait_until(lambda: horn.speaker is not None and not horn.speaker.playing)
        assert horn.speaker.started == 2 and horn.next_due() is None
    finally:
        horn.close()


def test_relay_and_speakers_switch_together() -> None:
    m = load_button_map()
    assert m.horn is not None and m.horn.relay and m.horn.screen  # the shipped map: both
    horn = make_horn(m, MockFactory(), "indoor-hockey")
    try:
        assert horn.device is not None and horn.speaker is not None
        horn.sound(0.0)
        assert horn.device.value and horn.speaker.value
        horn.tick(1.0)
        assert not horn.device.value and not horn.speaker.value
    finally:
        horn.close()


def test_a_headless_table_has_no_speakers_to_sound(tmp_path: Path) -> None:
    horn = make_horn(load_button_map(), MockFactory(), "indoor-hockey", speakers=False)
    try:
        assert horn.speaker is None and horn.device is not None
    finally:
        horn.close()


@pytest.mark.parametrize(("rules", "pattern"), [("ice-hockey", (2.0,)), ("indoor-hockey", (1.0,))])
def test_a_table_sounds_its_rulesets_pattern_at_the_end_of_a_period(tmp_path: Path, rules: str,
                                                                   pattern: tuple[float, ...]) -> None:
    """The engine's horn at the end of the first period, through the screen's speakers, as long as the ruleset's."""
    with table_with_speakers(tmp_path, rules) as b:
        horn = b.table.horn
        assert horn.speaker is not None and horn.pattern == pattern
        b.press("clock_start")
        length = b.loop.ruleset.match.period_length / 1000
        b.at(length + 0.05)  # just past the period's end: the horn is on
        assert horn.sounded == 1 and horn.speaker.value
        assert wait_until(lambda: horn.speaker is not None and horn.speaker.playing)
        b.at(length + pattern[0] + 0.05)
        assert not horn.speaker.value
        assert wait_until(lambda: horn.speaker is not None and not horn.speaker.playing)


def test_a_muted_table_keeps_the_speakers_quiet(tmp_path: Path) -> None:
    with table_with_speakers(tmp_path, "indoor-football") as b:
        b.down("horn")  # hold: mute
        b.at(2.0)
        b.up("horn")
        assert b.table.horn.muted
        started = b.table.horn.speaker.started if b.table.horn.speaker else -1
        b.press("clock_start")
        b.at(b.loop.ruleset.match.period_length / 1000 + 1)
        assert b.table.horn.speaker is not None and b.table.horn.speaker.started == started


def test_a_recorded_horn_file_is_played_instead_of_the_tone(tmp_path: Path) -> None:
    import wave

    sound = tmp_path / "airhorn.wav"
    with wave.open(str(sound), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(horn_tone() * 5)
    venue = tmp_path / "venue.toml"
    venue.write_text(default_text().replace('volume = 1.0', 'volume = 0.5\nfile = "airhorn.wav"', 1),
                     encoding="utf-8")
    m = load_button_map(venue)
    assert m.horn is not None and m.horn.file == sound
    horn = make_horn(m, MockFactory(), "water-polo")
    try:
        assert horn.speaker is not None
        assert horn.speaker.sound.get_length() == pytest.approx(5 * LOOP_S, abs=0.01)
        assert horn.speaker.sound.get_volume() == pytest.approx(0.5, abs=0.01)
        horn.sound(0.0)
        assert wait_until(lambda: horn.speaker is not None and horn.speaker.playing)
    finally:
        horn.close()


@pytest.mark.parametrize(("change", "key", "reason"), [
    (('through = ["relay", "screen"]', 'through = ["hdmi"]'), "horn.through", 'a list of "relay" and/or "screen"'),
    (('through = ["relay", "screen"]', 'through = []'), "horn.through", 'a list of "relay" and/or "screen"'),
    (("pin = 4 ", "# pin = 4 "), "horn.pin", "required key is missing (the horn sounds through the relay"),
    (("volume = 1.0", "volume = 2"), "horn.volume", "a number above 0 and at most 1"),
    (('"ice-hockey" = [2.0]', '"icehockey" = [2.0]'), "horn.patterns.icehockey", "not a ruleset's name"),
    (('"ice-hockey" = [2.0]', '"ice-hockey" = []'), "horn.patterns.ice-hockey", "1 to 15 durations"),
    (('"ice-hockey" = [2.0]', '"ice-hockey" = [20]'), "horn.patterns.ice-hockey", "each 0-10 s"),
    (("volume = 1.0", 'volume = 1.0\nfile = "nothing.wav"'), "horn.file", "no such sound file"),
    (("volume = 1.0", 'volume = 1.0\ndevice = ""'), "horn.device", "an audio output's name is required"),
    (("[shutdown]\npin = 21", "[shutdown]\npin = 13"), "shutdown.pin", "GPIO 13 is already used by buttons.undo"),
    (("[shutdown]\npin = 21", "[shutdown]\npin = 21\nwhen = 3"), "shutdown.when", "unknown key"),
])
def test_wrong_horn_settings_name_the_file_and_key(change: tuple[str, str], key: str, reason: str) -> None:
    with pytest.raises(ButtonMapError) as err:
        _map(*change)
    assert str(err.value).startswith(f"venue.toml: {key}: ")
    assert reason in err.value.message


def test_an_audio_output_that_is_not_there_is_refused_naming_the_key(tmp_path: Path) -> None:
    venue = tmp_path / "venue.toml"
    venue.write_text(default_text().replace("volume = 1.0", 'volume = 1.0\ndevice = "HDMI 9"', 1), encoding="utf-8")
    with pytest.raises(ButtonMapError) as err:
        make_horn(load_button_map(venue), MockFactory(), "ice-hockey")
    assert str(err.value).startswith(f"{venue}: horn.device: no audio output 'HDMI 9' can be opened")
    assert "outputs here:" in str(err.value)


def test_a_file_that_is_not_a_sound_is_refused_naming_the_key(tmp_path: Path) -> None:
    (tmp_path / "horn.wav").write_text("not a sound", encoding="utf-8")
    venue = tmp_path / "venue.toml"
    venue.write_text(default_text().replace("volume = 1.0", 'volume = 1.0\nfile = "horn.wav"', 1), encoding="utf-8")
    with pytest.raises(ButtonMapError) as err:
        make_horn(load_button_map(venue), MockFactory(), "ice-hockey")
    assert str(err.value).startswith(f"{venue}: horn.file: ")
    assert "give a WAV or OGG file" in str(err.value)


def test_a_wrong_horn_setting_stops_the_table_before_it_starts(tmp_path: Path) -> None:
    """The real command: the error names the file and key, exit status 2, no journal written."""
    import subprocess
    import sys

    venue = tmp_path / "venue.toml"
    venue.write_text(default_text().replace('"water-polo" = [1.5]', '"waterpolo" = [1.5]', 1), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "courtside", "table", "--court", "1", "--buttons", str(venue),
                           "--journal", str(tmp_path / "j"), "--headless"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"{venue}: horn.patterns.waterpolo: not a ruleset's name (rulesets: indoor-hockey, " in done.stderr
    assert not (tmp_path / "j").exists()


def test_a_blast_switched_off_at_once_does_not_loop_on() -> None:
    """A late wake can find a whole pattern due: the speakers must end up quiet, not loop for ever."""
    horn = make_horn(_map('through = ["relay", "screen"]', 'through = ["screen"]'), MockFactory(), "ice-hockey")
    try:
        assert horn.speaker is not None
        horn.sound(0.0)
        horn.tick(10.0)  # straight after: the fade-out must not be lost under a fade-in
        assert wait_until(lambda: horn.speaker is not None and not horn.speaker.playing)
    finally:
        horn.close()
