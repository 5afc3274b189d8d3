"""Which part of the schedule a page shows: all of it while it is short, else a day, an hour of a crowded day,
or a court. A part is named in the page's address and in its live region (``schedule/day=2026-07-13``):

- ``""``: every match (a schedule of at most WHOLE_SCHEDULE matches);
- ``day=2026-07-13``: a day's matches, while the day has at most WHOLE_SCHEDULE;
- ``day=2026-07-13T09``: the matches starting in that hour of a day that has more (a cup on 110 pitches
  starts about 260 matches an hour);
- ``court=Pitch 3``: a court's matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol, TypeVar

WHOLE_SCHEDULE = 150
"""Matches a schedule page shows at once (about 60 KB of HTML); a longer one is shown a day, an hour or a court at a
time, so no page of a big cup's schedule passes 150 KB."""


class _Match(Protocol):
    @property
    def court(self) -> str: ...
    @property
    def start(self) -> datetime: ...


M = TypeVar("M", bound=_Match)


def _day(m: _Match) -> str:
    return m.start.date().isoformat()


def _hour(m: _Match) -> str:
    return f"{_day(m)}T{m.start.hour:02d}"


def matches_of(matches: Sequence[M], part: str) -> list[M]:
    """The matches of ``part`` (see above), in playing order."""
    key, _, value = part.partition("=")
    if key == "day":
        return [m for m in matches if (_hour(m) if "T" in value else _day(m)) == value]
    if key == "court":
        return [m for m in matches if m.court == value]
    return list(matches)


def day_parts(matches: Sequence[_Match]) -> dict[str, list[str]]:
    """Each day's parts: the day itself, or its hours when it has more than WHOLE_SCHEDULE matches."""
    days: dict[str, list[_Match]] = {}
    for m in matches:
        days.setdefault(_day(m), []).append(m)
    return {day: [f"day={day}"] if len(ms) <= WHOLE_SCHEDULE else [f"day={h}" for h in dict.fromkeys(map(_hour, ms))]
            for day, ms in days.items()}


def parts(matches: Sequence[_Match], courts: Sequence[str], days: dict[str, list[str]]) -> list[str]:
    """Every part a schedule page may show (``days``: the matches' :func:`day_parts`); the whole schedule only
    while it fits a page."""
    whole = [""] if len(matches) <= WHOLE_SCHEDULE else []
    return [*whole, *(p for ps in days.values() for p in ps), *(f"court={c}" for c in courts)]


def default_part(matches: Sequence[M], waiting: Sequence[M], days: dict[str, list[str]]) -> str:
    """What /schedule shows unasked: all of it, or for a big cup the part of the first match still to play
    (``waiting``: the matches without a result, in playing order)."""
    if len(matches) <= WHOLE_SCHEDULE:
        return ""
    ahead = waiting[0] if waiting else matches[-1]
    return next(p for p in days[_day(ahead)] if matches_of([ahead], p))


__all__ = ["WHOLE_SCHEDULE", "day_parts", "default_part", "matches_of", "parts"]
