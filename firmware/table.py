"""Putting a table together: rules, schedule, button map, pins, journal, screen, then the loop.

:func:`open_table` builds a :class:`Table` (the CLI, tests and the demo use it);
:func:`run_script` plays a press script against a fresh table in-process and returns
the final match state (the demo's simulated officials and tests).
"""

from __future__ import annotations

import logging
import math
import os
import queue
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from display.view import Notice
from firmware.actions import Entry
from firmware.buttonmap import ButtonMap, load_button_map
from firmware.buttons import ButtonTracker, GpioButtons
from firmware.clock import TableClock
from firmware.commands import Command
from firmware.errors import JournalError
from firmware.horn import Signal, make_horn
from firmware.journal import make_folder, set_aside
from firmware.loop import Link, TableLoop
from firmware.operator import button_lines, key_lines
from firmware.pins import make_factory
from firmware.schedule import ClassRules, MatchSource, PlayingOrder, court_plan
from firmware.screen import HeadlessScreen, Screen
from firmware.script import Press, ScriptPlayer, check_buttons
from firmware.session import MatchSession, Recovery
from rules import MatchState, load_ruleset

log = logging.getLogger("courtside.table")
SET_ASIDE_NOTICE_S = 120.0  # a journal set aside: the officials must see it (and tell the organiser)


def default_journal_dir() -> Path:
    """systemd's StateDirectory when run as a service, else ~/.local/state/courtside/journal."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0]) / "journal"
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "courtside" / "journal"


@dataclass(kw_only=True)
class TableOptions:
    rules: str | None = None  # preset name or file; default: the tournament file's
    court: str = "1"
    tournament: str | None = None
    buttons: str | None = None
    pins: str = "mock"
    journal: Path | None = None
    speed: float = 1.0
    script: Sequence[Press] | None = None
    script_source: str = "script"
    factory: Any = None  # a gpiozero pin factory already made (tests share one MockFactory)


@dataclass(kw_only=True)
class Table:
    loop: TableLoop
    buttons: GpioButtons
    button_map: ButtonMap
    horn: Signal
    buzzer: Signal
    factory: Any
    closed: bool = field(default=False)

    def pin(self, button: str) -> Any:
        return self.buttons.pin(button)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.buttons.close()
            self.horn.close()
            self.buzzer.close()
            self.loop.session.journal.close()


def open_table(opts: TableOptions, *, screen: Screen | None = None, link: Link | None = None) -> Table:
    """Everything checked first (rules, tournament, button map, script), then the journal recovered or
    a match loaded, then the pins opened."""
    button_map = load_button_map(opts.buttons)
    if opts.script is not None:
        check_buttons(opts.script, [b.name for b in button_map.buttons], opts.script_source, keys=button_map.keys)
    source: MatchSource
    if opts.tournament is not None:
        schedule, class_rules = court_plan(opts.tournament, opts.court,
                                           load_ruleset(opts.rules) if opts.rules else None)
        ruleset_ref = opts.rules or class_rules.default
        source, court = schedule, schedule.court
    else:
        ruleset_ref = opts.rules or "indoor-hockey"
        court = opts.court
        source = PlayingOrder(court)
        class_rules = ClassRules(ruleset_ref)
    class_rules.default = ruleset_ref
    ruleset = class_rules.load(ruleset_ref)
    journal_dir = opts.journal or default_journal_dir()
    make_folder(journal_dir)  # its name fsynced in its parent: a power cut keeps it

    aside = None
    try:
        # A cup's table may have been showing any class's match: its journal names the ruleset it was played by.
        found = MatchSession.recover(journal_dir, None if class_rules.refs else ruleset, speed=opts.speed,
                                     scripted=opts.script is not None, load=class_rules.load)
    except JournalError as err:  # failing here would fail every start: under Restart=always, a loop
        aside = set_aside(journal_dir)
        log.error("%s; moved it, its files and 'current' to %s (nothing deleted): starting clean", err, aside)
        found = None
    session, recovery = found if found is not None else (None, None)
    start = session.session(session.resume_ms) if session is not None else 0.0
    # A scripted table's clock waits for the loop, so start-up at --speed N eats none of the script's time.
    clock = TableClock(speed=opts.speed, start=start, frozen=opts.script is not None)

    factory = opts.factory if opts.factory is not None else make_factory(opts.pins)
    q: queue.Queue[Command] = queue.Queue()
    buttons = GpioButtons(button_map, factory, q.put, clock.seconds)
    tracker = ButtonTracker(button_map, buttons.is_pressed)
    # The screen's speakers sound it too when the map says so and this table has a screen (firmware/horn.py).
    horn = make_horn(button_map, factory, ruleset.name, speakers=getattr(screen, "has_speakers", False))
    buzzer = Signal("buzzer", button_map.buzzer, factory)
    script = None
    if opts.script is not None:
        script = ScriptPlayer(opts.script, buttons.pin, q.put, after=_played_until(session, recovery),
                              stamp=clock.stamp)
    loop = TableLoop(
        rules=class_rules, court=court, journal_dir=journal_dir, source=source, clock=clock,
        tracker=tracker, keys=button_map.keys, entry=Entry(replace_ms=round(button_map.timing.replace * 1000)),
        horn=horn, buzzer=buzzer, screen=screen or HeadlessScreen(), link=link, script=script, session=session,
        recovery=recovery, q=q, operator_keys=(button_lines(button_map), key_lines(button_map)),
    )
    if getattr(loop.screen, "shows_operator", False):  # a pygame screen: the second monitor, or the compact line
        loop.operator_sinks.append(loop.screen)  # type: ignore[arg-type]
    if aside is not None:
        where = aside.relative_to(journal_dir)
        loop.notices.append(Notice(kind="info", text=f"journal unreadable: set aside in {where}; new match",
                                   until=clock.seconds() + SET_ASIDE_NOTICE_S))
    return Table(loop=loop, buttons=buttons, button_map=button_map, horn=horn, buzzer=buzzer, factory=factory)


def _played_until(session: MatchSession | None, recovery: Recovery | None) -> float | None:
    """The session second up to which a restarted script was played: its match's last journaled event.

    With no event yet, the lines before the match was loaded (an earlier match's) are done; a fresh
    table (or a first match with nothing journaled) plays the script from its start.
    """
    if session is None or recovery is None:
        return None
    if recovery.last_event_ms is not None:
        # An event lands at its line's instant rounded to the ms: a line at 87.1713 s made the event at 87171 ms,
        # and is played; without the half ms it was played again after the restart (an undo undid one more).
        return session.session(recovery.last_event_ms) + 0.0005
    zero = session.journal.meta.session_at_zero
    return math.nextafter(zero, -math.inf) if zero > 0 else None


def final_state(table: Table) -> MatchState:
    """The match now; after a press script, at its last line's instant (at --speed N the loop ends a little
    after it, by however late the machine was), so a script ends the same at any speed."""
    loop = table.loop
    at = loop.now_ms()
    if loop.script is not None and loop.script.done:
        at = max(loop.session.match.last_at, min(at, loop.session.ms(loop.script.last_at)))
    return loop.session.match.state_at(at)


def run_script(presses: Sequence[Press], *, rules: str | None = None, court: str = "1",
               journal: Path, tournament: str | None = None, speed: float = 0, buttons: str | None = None,
               screen: Screen | None = None, link: Link | None = None) -> MatchState:
    """Play ``presses`` on a table with mock pins, in this process; the match state at the script's end.

    >>> from firmware.script import Press
    >>> presses = [Press(at=0, verb="press", arg="clock_start"), Press(at=30, verb="type", arg="7"),
    ...            Press(at=31, verb="press", arg="goal_home"), Press(at=60, verb="wait")]
    """
    opts = TableOptions(rules=rules, court=court, tournament=tournament, buttons=buttons, pins="mock",
                        journal=journal, speed=speed, script=presses)
    table = open_table(opts, screen=screen or HeadlessScreen(echo=lambda _: None), link=link)
    try:
        table.loop.run()
        return final_state(table)
    finally:
        table.close()
