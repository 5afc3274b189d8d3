"""Match-clock arithmetic: everything is derived from when the clock last started.

The clock of a period is ``base`` ms played when it last started or stopped, plus
the time since ``since`` while it runs, never past the period's length. Nothing
accumulates ticks, so the value at any instant is exact and a restart rebuilds it.
*Play time* is the match clock summed over the periods so far; penalties and the
possession clock are measured on it, so they run only while the match clock runs
and a clock correction carries into them by itself.
"""

from __future__ import annotations


def elapsed(base: int, since: int | None, length: int, at: int) -> int:
    """Ms of the period played at instant ``at``."""
    if since is None:
        return base
    return min(length, base + max(0, at - since))


def instant_of(base: int, since: int, target_elapsed: int) -> int:
    """The instant a running clock reaches ``target_elapsed`` ms of the period."""
    return since + (target_elapsed - base)


def format_clock(ms: int, *, tenths: bool, down: bool) -> str:
    """``M:SS``, or ``S.t`` when tenths are shown.

    A clock counting down rounds up, so it reads 0:00 (or 0.0) only at the horn; one
    counting up rounds down, so it never shows a second that has not been played.
    """
    unit = 100 if tenths else 1000
    units = -(-ms // unit) if down else ms // unit
    if tenths:
        seconds = units // 10
        head = f"{seconds // 60}:{seconds % 60:02d}" if seconds >= 60 else str(seconds)
        return f"{head}.{units % 10}"
    return f"{units // 60}:{units % 60:02d}"
