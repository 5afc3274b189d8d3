"""Press scripts: a match played by simulated officials, through the mock pins.

One line per action (docs/press-scripts.md)::

    # indoor hockey, first half
    0      press clock_start
    61.5   type 7
    61.6   press goal_home
    12:00  hold next          # M:SS works too
    12:01.5 release next
    1200   wait

``SECONDS press|hold|release BUTTON``, ``SECONDS type TEXT`` (keypad: digits and
letters, ``<esc>``, ``<bksp>``, or a key the button map's ``[keys]`` names, in angle
brackets: ``<enter>``, ``<f3>``; another name is refused with its line),
``SECONDS wait`` (nothing; the table's time reaches it), ``SECONDS wait FILE`` (a cue: the
table's time stands still there until FILE exists). Instants are seconds of the
table's session (the first match's instant 0 is second 0) and never go back. A
``press`` is the pin down, then up :data:`PRESS_LENGTH` later, so chatter
filtering and hold timing see a real press. Build lines in Python with
:class:`Press` and :func:`format_script`; play one in-process with
:func:`firmware.table.run_script`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from firmware.commands import Command, Key
from firmware.errors import PressScriptError

Verb = Literal["press", "hold", "release", "type", "wait"]
VERBS: tuple[Verb, ...] = ("press", "hold", "release", "type", "wait")
PRESS_LENGTH = 0.1  # s between a press's pin down and up
_TIME = re.compile(r"^(?:(\d+):)?(\d+(?:\.\d+)?)$")
_KEY = re.compile(r"<([^<>\s]+)>|(\S)")


@dataclass(frozen=True, kw_only=True)
class Press:
    """One line of a press script."""

    at: float
    verb: Verb
    arg: str = ""
    line: int = 0

    def to_line(self) -> str:
        return f"{self.at:g} {self.verb} {self.arg}".rstrip()


def format_script(presses: Iterable[Press]) -> str:
    return "".join(p.to_line() + "\n" for p in presses)


def _seconds(text: str) -> float | None:
    m = _TIME.match(text)
    if m is None:
        return None
    return int(m.group(1) or 0) * 60 + float(m.group(2))


def parse_script(text: str, source: str) -> list[Press]:
    presses: list[Press] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 2)
        at = _seconds(parts[0])
        if at is None:
            raise PressScriptError(source, number, f"{parts[0]!r} is not an instant (seconds, or M:SS)")
        if presses and at < presses[-1].at:
            raise PressScriptError(source, number, f"{parts[0]} is before the line above ({presses[-1].at:g} s)")
        verb = parts[1] if len(parts) > 1 else ""
        if verb not in VERBS:
            raise PressScriptError(source, number, f"{verb!r} is not press, hold, release, type or wait")
        arg = parts[2].strip() if len(parts) > 2 else ""
        if verb in ("press", "hold", "release") and (not arg or " " in arg):
            raise PressScriptError(source, number, f"{verb} needs one button name")
        if verb == "type" and not arg:
            raise PressScriptError(source, number, "type needs the text to type")
        presses.append(Press(at=at, verb=verb, arg=arg, line=number))
    return presses


BUILT_IN_KEYS = ("backspace", "escape")
"""Keys the table knows without a button map (``<bksp>``, ``<esc>``): they edit what is being typed."""


def check_buttons(presses: Sequence[Press], buttons: Iterable[str], source: str,
                  keys: Iterable[str] | None = None) -> None:
    """Every button pressed is in the map, and (given the map's ``[keys]``) every ``<key>`` typed is one the
    table acts on: a mistyped name (``<entr>``) did nothing, silently, and the rehearsal went wrong later."""
    known = set(buttons)
    named = None if keys is None else {*BUILT_IN_KEYS, *(k.lower() for k in keys)}
    for p in presses:
        if p.verb in ("press", "hold", "release") and p.arg not in known:
            raise PressScriptError(source, p.line, f"no button {p.arg!r} in the button map "
                                   f"(buttons: {', '.join(sorted(known))})")
        if p.verb == "type" and named is not None:
            for key in keys_of(p.arg, p.at):
                if not key.text and key.name not in named:
                    raise PressScriptError(source, p.line, f"no key <{key.name}> in the button map's [keys] "
                                           f"(keys: {', '.join(sorted(named))}, or <esc> and <bksp>)")


def keys_of(text: str, at: float) -> list[Key]:
    """The keys ``type TEXT`` presses: one per character, ``<name>`` for a named key."""
    keys = []
    for m in _KEY.finditer(text):
        if m.group(1):
            name = m.group(1).lower()
            keys.append(Key(name={"esc": "escape", "bksp": "backspace"}.get(name, name), text="", at=at))
        else:
            keys.append(Key(name=m.group(2).lower(), text=m.group(2), at=at))
    return keys


@dataclass(frozen=True)
class _Op:
    at: float
    kind: Literal["low", "high", "keys", "none", "cue"]
    arg: str


class ScriptPlayer:
    """Plays a script's lines on the loop's thread when their instants come.

    ``pin(name)`` gives a button's MockPin (``drive_low``/``drive_high`` run gpiozero's
    own callbacks, which queue the edges); keys go straight on the queue. ``stamp(at)``
    (:meth:`firmware.clock.TableClock.stamp`) makes those callbacks time the edges at the
    line's own instant, so a line's event lands at the line's instant at any ``--speed``.

    After a restart, ``after`` is the instant of the journal's last event: the lines at or
    before it were played and their events are in the journal, so they are skipped (a line
    is never applied twice). Lines after it are played, even those before the instant the
    table recovered to (at once, at their own instants, as late presses): what they did
    before the cut (a typed number, an open penalty prompt) lived only in memory and is gone.
    A fresh table (``after`` None) plays every line from the start.
    """

    def __init__(self, presses: Sequence[Press], pin: Callable[[str], Any], post: Callable[[Command], None],
                 *, after: float | None = None, stamp: Callable[[float], AbstractContextManager[None]] | None = None
                 ) -> None:
        ops: list[_Op] = []
        for p in presses:
            if p.verb == "press":
                ops += [_Op(p.at, "low", p.arg), _Op(p.at + PRESS_LENGTH, "high", p.arg)]
            elif p.verb == "hold":
                ops.append(_Op(p.at, "low", p.arg))
            elif p.verb == "release":
                ops.append(_Op(p.at, "high", p.arg))
            elif p.verb == "type":
                ops.append(_Op(p.at, "keys", p.arg))
            else:
                ops.append(_Op(p.at, "cue" if p.arg else "none", p.arg))
        ops.sort(key=lambda op: op.at)  # stable: a press's release may fall after the next line
        self._ops = [op for op in ops if after is None or op.at > after]
        self._pin = pin
        self._post = post
        self._stamp = stamp or (lambda _at: nullcontext())
        self.last_at = max((op.at for op in ops), default=0.0)

    @property
    def done(self) -> bool:
        return not self._ops

    def next_due(self) -> float | None:
        return self._ops[0].at if self._ops else None

    def held_at(self, now: float) -> float | None:
        """The instant of the cue (``wait FILE``) the script stands at: due by ``now``, its file not there yet."""
        op = self._ops[0] if self._ops else None
        if op is None or op.kind != "cue" or op.at > now or Path(op.arg).exists():
            return None
        return op.at

    def play_due(self, now: float) -> None:
        while self._ops and self._ops[0].at <= now and self.held_at(now) is None:
            op = self._ops.pop(0)
            if op.kind == "low":
                with self._stamp(op.at):
                    self._pin(op.arg).drive_low()
            elif op.kind == "high":
                with self._stamp(op.at):
                    self._pin(op.arg).drive_high()
            elif op.kind == "keys":
                for key in keys_of(op.arg, op.at):
                    self._post(key)
