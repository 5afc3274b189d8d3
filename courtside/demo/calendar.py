"""The demo plays a tournament as if it began tomorrow: every date in its file moves by whole days.

A table that restarts between matches offers the scheduled match *nearest the current time*
(firmware/loop.py), as it should at a venue; a seed tournament dated months ago would make it
offer the final. Moved so its first day is tomorrow, every match lies ahead, the nearest one is
the next one, and the web pages show a tournament that is about to happen. Times of day, and so
the days' windows and breaks, stay as the organiser wrote them.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path

from rules import PRESETS

_DATE = re.compile(r'(?<=")(\d{4})-(\d{2})-(\d{2})(?=[T"])')
_BESIDE = re.compile(r'^((?:ruleset|sheet)\s*=\s*)"([^"]*)"', re.MULTILINE)  # files named beside the tournament's


def first_day(text: str) -> date | None:
    days = [date(int(y), int(m), int(d)) for y, m, d in _DATE.findall(text)]
    return min(days) if days else None


def moved_to(text: str, start: date, source: Path) -> str:
    """``text`` (a tournament file read from ``source``) with its first day on ``start``.

    A ruleset file or a team's sheet named relative to the tournament file is given as an absolute path, so the
    moved copy works from the demo's folder.
    """
    first = first_day(text)
    shift = timedelta(days=(start - first).days) if first else timedelta(0)

    def move(m: re.Match[str]) -> str:
        return (date(int(m[1]), int(m[2]), int(m[3])) + shift).isoformat()

    def absolute(m: re.Match[str]) -> str:
        name = m[2]
        if name in PRESETS or Path(name).is_absolute():
            return m[0]
        return f'{m[1]}"{(source.parent / name).resolve()}"'

    return _BESIDE.sub(absolute, _DATE.sub(move, text))
