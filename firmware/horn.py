"""The horn and the optional buzzer: patterns played without blocking, through a relay, the screen's speakers, or both.

The loop calls :meth:`Signal.sound` and asks :meth:`Signal.next_due` when to come back
to switch the outputs; nothing here sleeps. A pattern is seconds ``[on, off, on, ...]``,
the button map's ``[horn] pattern`` or the ruleset's own (``[horn.patterns]``).

Most venues have no relay: the horn then sounds through the screen's own speakers (HDMI
audio), a tone looped on one of pygame's mixer channels while the pattern says on
(:class:`ScreenSpeaker`). The mixer plays on its own thread; switching it is a call that
returns at once, so the loop still owns everything.
"""

from __future__ import annotations

import functools
import logging
import math
import os
from array import array
from typing import Any

from firmware.buttonmap import ButtonMap, Output
from firmware.errors import ButtonMapError

log = logging.getLogger("courtside.table")

RATE = 44_100
LOOP_S = 1 / 30  # the built-in tone's loop: every partial is a multiple of 30 Hz, so the loop joins without a click
# An air horn's two reeds, a little apart, each with its overtones falling off like a sawtooth's.
REEDS = (330, 420)
OVERTONES = 8
FADE_MS = 12  # out: a speaker switched off mid-wave clicks


@functools.cache
def horn_tone(rate: int = RATE) -> bytes:
    """One loop of the built-in horn tone: signed 16-bit mono samples at ``rate``, ready to loop."""
    n = round(rate * LOOP_S)
    # Every partial makes a whole number of turns in the loop: one sine table of the loop's length serves all.
    sine = [math.sin(2 * math.pi * i / n) for i in range(n)]
    partials = [(round(f * k * LOOP_S), 1 / k) for f in REEDS for k in range(1, OVERTONES + 1)]
    peak = sum(a for _, a in partials)
    wave = [0.0] * n
    for turns, amplitude in partials:
        for i in range(n):
            wave[i] += amplitude * sine[turns * i % n]
    drive = math.tanh(2.5)
    # Driven a little into saturation: brassy and loud, like a horn rather than a beep.
    return array("h", (round(32_000 * math.tanh(2.5 * x / peak) / drive) for x in wave)).tobytes()


class ScreenSpeaker:
    """The horn through the screen's own speakers: its sound looped on a mixer channel while ``value`` is true.

    ``spec`` is the button map's ``[horn]``; a device it names that is not there, or a sound file that
    cannot be played, is a :class:`~firmware.errors.ButtonMapError` naming the map's file and key.
    """

    def __init__(self, spec: Output, source: str) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self._pygame = pygame
        self._owns_mixer = pygame.mixer.get_init() is None
        if self._owns_mixer:
            try:
                pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512, devicename=spec.device,
                                  allowedchanges=0)
            except pygame.error as err:
                if spec.device is not None:
                    raise ButtonMapError(source, "horn.device", f"no audio output {spec.device!r} can be opened "
                                         f"({err}); outputs here: {', '.join(output_names()) or 'none'}") from None
                raise SpeakerError(f"the screen's speakers cannot be opened ({err})") from None
        try:
            if spec.file is not None:
                self.sound = pygame.mixer.Sound(str(spec.file))
            else:
                self.sound = pygame.mixer.Sound(buffer=_in_mixer_format(horn_tone(), pygame.mixer.get_init()))
        except pygame.error as err:
            raise ButtonMapError(source, "horn.file", f"{str(spec.file)!r} cannot be played ({err}); "
                                 "give a WAV or OGG file") from None
        self.sound.set_volume(spec.volume)
        self.channel = pygame.mixer.Channel(0)
        pygame.mixer.set_reserved(1)  # channel 0 is the horn's alone
        self._on = False
        self.started = 0  # times the sound was started (tests and the wiring check)

    @property
    def value(self) -> bool:
        return self._on

    @value.setter
    def value(self, on: bool) -> None:
        if on and not self._on:
            # No fade in: a horn starts at once. (SDL_mixer also ignores a fade-out while a fade-in is still at
            # volume 0, so a blast switched off straight after it started would have looped on for ever.)
            self.channel.play(self.sound, loops=-1)
            self.started += 1
        elif not on and self._on:
            self.channel.fadeout(FADE_MS)
        self._on = on

    @property
    def playing(self) -> bool:
        """Whether the mixer is sending the horn to the speakers now."""
        return bool(self.channel.get_busy())

    def off(self) -> None:
        self.value = False

    def close(self) -> None:
        self.channel.stop()
        self._on = False
        if self._owns_mixer:
            self._pygame.mixer.quit()


class SpeakerError(RuntimeError):
    """The system's audio output cannot be opened (not a setting of the map: the horn goes on without it)."""


def output_names() -> list[str]:
    """The audio outputs SDL sees here, by the names ``[horn] device`` takes."""
    try:
        from pygame._sdl2 import audio

        return list(audio.get_audio_device_names(False))
    except Exception:  # an SDL without audio, or no outputs: nothing to offer
        return []


def _in_mixer_format(mono: bytes, found: tuple[int, int, int] | None) -> bytes:
    """The tone at the mixer's rate and channels (allowedchanges=0 asks SDL to convert, this is a guard)."""
    if found is None or found == (RATE, -16, 1):
        return mono
    rate, _size, channels = found
    tone = array("h")
    tone.frombytes(horn_tone(rate) if rate != RATE else mono)
    if channels == 1:
        return tone.tobytes()
    out = array("h")
    for sample in tone:
        out.extend([sample] * channels)
    return out.tobytes()


class Signal:
    """The horn or the buzzer. Without any output it still counts what it sounded (headless, tests)."""

    def __init__(self, name: str, output: Output | None, factory: Any, *, pattern: tuple[float, ...] | None = None,
                 speaker: ScreenSpeaker | None = None):
        self.name = name
        self.pattern = pattern or (output.pattern if output else (1.0,))
        self.devices: list[Any] = []
        if output is not None and output.pin is not None and output.relay:
            from gpiozero import DigitalOutputDevice  # type: ignore[import-untyped]

            self.devices.append(DigitalOutputDevice(output.pin, active_high=output.active_high, initial_value=False,
                                                    pin_factory=factory))
        self.speaker = speaker
        if speaker is not None:
            self.devices.append(speaker)
        self.sounded = 0
        self.muted = False
        self._steps: list[tuple[float, bool]] = []  # (session second, on?) still to do

    @property
    def device(self) -> Any:
        """The relay's pin (gpiozero's device), or None."""
        return next((d for d in self.devices if d is not self.speaker), None)

    def sound(self, now: float, *, automatic: bool = False) -> bool:
        """Start the pattern now (a new sound replaces one still playing); False if muted."""
        if automatic and self.muted:
            return False
        self.sounded += 1
        self._steps = []
        t = now
        for i, length in enumerate(self.pattern):
            self._steps.append((t, i % 2 == 0))
            t += length
        self._steps.append((t, False))
        self.tick(now)
        return True

    def next_due(self) -> float | None:
        return self._steps[0][0] if self._steps else None

    def tick(self, now: float) -> None:
        due = None
        while self._steps and self._steps[0][0] <= now:
            _, due = self._steps.pop(0)
        if due is not None:  # a late wake skips the switches it missed: only where the pattern is now counts
            for device in self.devices:
                device.value = due

    @property
    def is_on(self) -> bool:
        return any(bool(d.value) for d in self.devices)

    def close(self) -> None:
        for device in self.devices:
            device.off()
            device.close()


def make_horn(button_map: ButtonMap, factory: Any, ruleset: str, *, speakers: bool = True) -> Signal:
    """The horn of ``button_map`` for a match of ``ruleset`` (its name): relay, speakers, the ruleset's pattern.

    ``speakers``: whether this table has a screen whose speakers can sound it (a headless table has not).
    An audio output the system cannot open is logged and the horn goes on through the relay; a wrong
    setting (a device or a sound file) is refused with the map's file and key.
    """
    spec = button_map.horn
    if spec is None:
        return Signal("horn", None, factory)
    speaker = None
    if spec.screen and speakers:
        try:
            speaker = ScreenSpeaker(spec, button_map.source)
        except SpeakerError as err:
            log.warning("horn: %s; it sounds %s", err, "through the relay only" if spec.relay else "nowhere")
    return Signal("horn", spec, factory, pattern=spec.pattern_for(ruleset), speaker=speaker)
