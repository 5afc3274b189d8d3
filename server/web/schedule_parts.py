"""Which part of the schedule a page shows: all of it while it is short, else a day, an hour of a crowded day,
or a court. A part is named in the page's address and in its live region (``schedule/day=2026-07-13``):

- ``""``: every match (a schedule of at most WHOLE_SCHEDULE matches);
- ``day=2026-07-13``: a day's matches, while the day has at most WHOLE_SCHEDULE;
- ``day=2026-07-13T09``: the matches starting in that hour of a day that has more (a cup on 110 pitches
  starts about 260 matches an hour);
- ``court=Pitch 3``: a court's matches;
- ``class=P13``: a class's matches, or with a day or court as well (``class=P13;day=2026-07-13``) when the class
  alone is more than a page.
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
    @property
    def class_name(self) -> str: ...


M = TypeVar("M", bound=_Match)


def _day(m: _Match) -> str:
    return m.start.date().isoformat()


def _hour(m: _Match) -> str:
    return f"{_day(m)}T{m.start.hour:02d}"


def matches_of(matches: Sequence[M], part: str) -> list[M]:
    """The matches of ``part`` (see above), in playing order."""
    chosen = list(matches)
    for piece in part.split(";") if part else ():
        key, _, value = piece.partition("=")
        if key == "day":
            chosen = [m for m in chosen if (_hour(m) if "T" in value else _day(m)) == value]
        elif key == "court":
            chosen = [m for m in chosen if m.court == value]
        elif key == "class":
            chosen = [m for m in chosen if m.class_name == value]
    return chosen


def class_part(matches: Sequence[M], class_name: str, day: str = "", court: str = "") -> str:
    """The part of one class's schedule a page shows: the whole class while it fits a page, else its day (the one
    asked, or the first with a match still to play) or the court asked."""
    part = f"class={class_name}"
    if day:
        return f"{part};day={day}"
    if court:
        return f"{part};court={court}"
    mine = matches_of(matches, part)
    if len(mine) <= WHOLE_SCHEDULE or not mine:
        return part
    return f"{part};day={_day(mine[0])}"


def known_part(part: str, parts_: Sequence[str], classes: Sequence[str], days: Sequence[str],
               courts: Sequence[str]) -> bool:
    """Whether ``part`` is one a page may show: one of ``parts_``, or a class with a day or a court of the cup."""
    if part in parts_:
        return True
    pieces = dict(piece.partition("=")[::2] for piece in part.split(";"))
    if pieces.get("class") not in classes or len(pieces) != len(part.split(";")):
        return False
    return all(value in {"class": classes, "day": days, "court": courts}.get(key, ()) for key, value in pieces.items())


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


__all__ = ["WHOLE_SCHEDULE", "class_part", "day_parts", "default_part", "known_part", "matches_of", "parts"]
