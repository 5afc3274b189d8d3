"""Single values as a user writes them in a TOML file, and the bounds every value keeps.

The scalar half of :mod:`rules.schema`: what an integer, a text, a date or a time of
day may be (plain text without control characters, numbers within bounds no real
tournament reaches, the venue's local time between 2000 and 2199), the markers a
declaration puts on a field (:class:`Bounds`, :class:`Size`, :class:`Pattern`,
:class:`Before`), and the conversions of durations and times written as text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import date, datetime, time
from typing import Any

MAX_INT = 1_000_000_000
"""No count, score or bound in a ruleset or a tournament comes near a thousand million."""

MAX_TEXT = 2_000
"""Longest free text (a description, a note) in characters."""

MAX_ITEMS = 10_000
"""Longest list or table: a 1,700-team tournament fits many times over."""


# The markers are plain classes, not dataclasses: each dataclass costs a code generation at import.
class Bounds:
    """A number's allowed range, both ends included."""

    __slots__ = ("high", "low")

    def __init__(self, low: float | None = None, high: float | None = None) -> None:
        self.low, self.high = low, high


class Size:
    """How many items a list or table holds, or characters a text has."""

    __slots__ = ("high", "low")

    def __init__(self, low: int = 0, high: int = MAX_ITEMS) -> None:
        self.low, self.high = low, high


class Pattern:
    """A text must match ``regex`` in full; ``hint`` says in words what it should be."""

    __slots__ = ("hint", "regex")

    def __init__(self, regex: str, hint: str) -> None:
        self.regex, self.hint = regex, hint


class Before:
    """A conversion from what the user may write to the field's type; raises ValueError with the reason."""

    __slots__ = ("convert",)

    def __init__(self, convert: Callable[[Any], Any]) -> None:
        self.convert = convert


ANY_SIZE = Size()


class Invalid(Exception):
    """One value is wrong; the message is the reason shown to the user."""


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Unicode's control characters (category Cc) but tab and newline: never meant in a name or a label."""

def shown(value: Any) -> str:
    """A value as a message quotes it: short, whatever the input's size."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def scalar(tp: Any, value: Any) -> Any:
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise Invalid(f"expected true or false, got {shown(value)}")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            if abs(value) > MAX_INT:
                raise Invalid(f"{value} is beyond any real figure (at most {MAX_INT:,} either way)")
            return value
        raise Invalid(f"expected an integer, got {shown(value)}")
    if tp is str:
        if isinstance(value, str):
            return text(value)
        raise Invalid(f"expected a text in quotes, got {shown(value)}")
    if tp is datetime:
        if isinstance(value, datetime):
            return local(value)
        raise Invalid(f'expected a date and time like "2026-05-16T09:00", got {shown(value)}')
    if tp is time:
        if isinstance(value, time):
            return local(value)
        raise Invalid(f'expected a time of day like "18:30", got {shown(value)}')
    raise TypeError(f"unsupported type {tp}")  # pragma: no cover - a declaration error


def text(value: str) -> str:
    if len(value) > MAX_TEXT:
        raise Invalid(f"a text of {len(value):,} characters; at most {MAX_TEXT:,}")
    bad = _CONTROL.search(value)
    if bad is not None:
        raise Invalid(f"contains the control character U+{ord(bad.group()):04X}; write plain text")
    return value


def local(value: datetime | time) -> Any:
    # A tournament runs on the venue's clock: an offset would silently shift every match.
    if value.tzinfo is not None:
        raise Invalid(f"{value.isoformat()} has a time-zone offset; write the venue's local time without one")
    if isinstance(value, datetime) and not 2000 <= value.year <= 2199:
        raise Invalid(f"{value.isoformat()}: the year must be between 2000 and 2199")
    return value


def constrain(meta: Any, value: Any) -> None:
    if isinstance(meta, Bounds) and isinstance(value, int | float):
        if meta.low is not None and value < meta.low:
            raise Invalid(f"must be at least {meta.low}, got {value}")
        if meta.high is not None and value > meta.high:
            raise Invalid(f"must be at most {meta.high}, got {value}")
    elif isinstance(meta, Size) and isinstance(value, str | list | dict):
        what = "characters" if isinstance(value, str) else "entries"
        if len(value) < meta.low:
            raise Invalid("must not be empty" if meta.low == 1 else f"needs at least {meta.low} {what}")
        if len(value) > meta.high:
            raise Invalid(f"has {len(value):,} {what}; at most {meta.high:,}")
    elif isinstance(meta, Pattern) and isinstance(value, str) and not re.fullmatch(meta.regex, value):
        raise Invalid(f"{shown(value)} is not {meta.hint}")


def seconds_to_ms(value: Any) -> Any:
    """A duration in whole milliseconds, from a number of seconds (``30``, ``2.5``) or a clock's text: ``"M:SS"``
    (``"45:00"``, ``"0:30"``, ``"1:30.5"``) or ``"H:MM:SS"`` (``"1:10:00"``). Text without a colon is refused:
    ``"45"`` would be read as 45 seconds where the organiser most likely meant a 45-minute slot."""
    if isinstance(value, bool):
        return value  # the int check refuses it with the usual message
    if isinstance(value, int | float):
        total = float(value)
    elif isinstance(value, str):
        total = _clock_seconds(value)
    else:
        return value
    if not math.isfinite(total):
        raise ValueError(f"a duration must be a finite number of seconds, got {shown(value)}")
    if total < 0:
        raise ValueError("a duration cannot be negative")
    if total > MAX_DURATION_S:
        raise ValueError(f"{shown(value)} is longer than a day ({MAX_DURATION_S:,} s), the longest duration read")
    return round(total * 1000)


_CLOCK = re.compile(r"(?:(\d+):(\d\d):|(\d+):)(\d\d(?:\.\d+)?)")


def _clock_seconds(text: str) -> float:
    """Seconds in a clock's text, "M:SS" or "H:MM:SS" (the seconds, and an hour's minutes, below 60)."""
    found = _CLOCK.fullmatch(text.strip())
    if found is None:
        if re.fullmatch(r"\s*\d+(\.\d+)?\s*", text):
            n = int(float(text))
            raise ValueError(f'{shown(text)} is ambiguous: write "{text.strip()}:00" for {text.strip()} minutes, '
                             f'"{n // 60}:{n % 60:02d}" or the number {text.strip()} for seconds')
        raise ValueError(f'expected a duration as "M:SS" or "H:MM:SS" (or a number of seconds), got {shown(text)}')
    hours, hour_minutes, minutes, seconds = found.groups()
    if float(seconds) >= 60 or (hour_minutes is not None and int(hour_minutes) >= 60):
        raise ValueError(f"{shown(text)}: the seconds and an hour's minutes are below 60")
    if hours is not None:
        return int(hours) * 3600 + int(hour_minutes) * 60 + float(seconds)
    return int(minutes) * 60 + float(seconds)


MAX_DURATION_S = 86_400
"""No duration in a ruleset or a tournament file (a period, a break, a rest) lasts a day."""


def datetime_text(value: Any) -> Any:
    # TOML local date-times need seconds; organisers write "2026-05-16T09:00", so strings are read too.
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(f'expected a date and time like "2026-05-16T09:00", got {shown(value)}') from None
    if isinstance(value, date) and not isinstance(value, datetime):
        raise ValueError(f'{value.isoformat()} is a date; give the time too, like "{value.isoformat()}T09:00"')
    return value


def time_text(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return time.fromisoformat(value)
        except ValueError:
            raise ValueError(f'expected a time of day like "18:30", got {shown(value)}') from None
    return value
