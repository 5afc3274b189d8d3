"""The table official's own view: what the buttons did, what the next press will do, and whether it is all safe.

Plain data (no pygame), built by the table's loop at every change (firmware.operator) and shown where the venue's
button map says (``[operator] view``): a page the table serves to a phone or tablet at the table
(firmware.operator_page), a second screen on the Pi's other HDMI port (display.operator_screen), or a compact line
at the foot of the venue scoreboard. The venue scoreboard itself never shows the official's prompts otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FeedbackKind = Literal["done", "refused", "recovered"]


@dataclass(frozen=True)
class Feedback:
    """The last thing the table did or refused, in the sport's words: "Undone: Clock stopped at 12:34 (period 2)",
    "Refused: the ice-hockey rules allow no time-outs"."""

    kind: FeedbackKind
    text: str


@dataclass(frozen=True)
class OperatorView:
    court: str
    match: str  # "Match 7 · Wolves AA v Bears AA"
    board: str  # "period 2 12:34 stopped · Wolves AA 2 - 1 Bears AA": the board as the hall sees it
    penalties: tuple[str, ...]  # "AWAY #4 Major 4:12", "HOME #12 Minor 1:02 (coincidental)": as the board runs them
    entering: str  # what is being typed and what NEXT / UNDO do with it ("" when nothing is open)
    next_press: str  # what the buttons do now, when nothing is being typed
    feedback: Feedback | None  # the last thing the table did or refused
    entered: tuple[str, ...]  # the events entered, newest first, each as the official entered it
    undo: str  # what UNDO takes back now ("" when nothing)
    link: str  # "Server: all sent" / "Server: 3 waiting" / "Offline: 3 waiting, kept on the card"
    link_ok: bool
    journal: str  # "Journal: 23 events on the card"
    buttons: tuple[str, ...]  # each button's press and hold: "NEXT; hold 1 s: end period"
    keys: tuple[str, ...]  # the buttons', then the keyboard's
    first_minute: str = ""  # "F11: keys" until the first press


def compact_line(view: OperatorView) -> str:
    """The one line a venue with a single screen shows at the foot of its scoreboard: what is being typed, else
    the last thing the table did or refused (spectators can ignore it: small, never a banner)."""
    if view.entering:
        return view.entering
    return view.feedback.text if view.feedback is not None else view.first_minute
