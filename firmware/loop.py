"""The table's one main loop: it owns the match, the journal, the horn and the screen.

Everything else only puts a command on :attr:`TableLoop.queue` (gpiozero callbacks,
the screen's keys, the MQTT link, a press script). The loop sleeps until the next
command or the next instant something is due (the engine's ``next_due``, a hold
time, the horn's pattern, a script line, a frame), whichever is first; it never
polls. For every command: button edges become actions (:mod:`firmware.buttons`),
actions become events (:mod:`firmware.actions`), an accepted event is journaled
and fsynced, and only then drawn, sent and, when the engine reports one, horned.

Plug-in point for the MQTT link (firmware/link.py), any object with these methods,
all called on the loop's thread::

    start(post)                  # post(command) puts a command on the queue from any thread:
                                 #   ScheduleUpdate(schedule) replaces the court's schedule,
                                 #   LinkMessage(payload) comes back as handle(payload) on this thread
    match_loaded(header, events) # a match was loaded or recovered: its journal's events so far
    on_event(header, event)      # an event is journaled (fsynced): publish it
    on_state(view)               # what the screen shows changed (display.view.ScoreboardView)
    handle(payload)              # a LinkMessage's payload (an acknowledgement marking the outbox)
    status() -> Link             # the mark for the screen (display.view.Link: offline, 3 waiting)
    stop()
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from display import view as dv
from display.operator import OperatorView
from firmware.actions import ActionName, Effect, Entry
from firmware.buttons import Action, ButtonTracker
from firmware.clock import TableClock
from firmware.commands import Command, Edge, Key, LinkMessage, ScheduleUpdate, Stop
from firmware.horn import Signal
from firmware.notify import sd_notify, watchdog_interval
from firmware.operator import operator_view
from firmware.schedule import ClassRules, MatchSource, keep_schedule, kept_schedule
from firmware.screen import Screen
from firmware.script import ScriptPlayer
from firmware.session import MatchSession, Recovery, abandoned_journals, is_abandoned, played_ids
from firmware.words import english, table_text
from rules import (
    CONTINUES,
    SOURCE_LANGUAGE,
    CourtMatch,
    CourtSchedule,
    Event,
    IllegalCommand,
    LogHeader,
    MatchReplayed,
    MatchResumed,
    MatchState,
    Ruleset,
    applied_text,
    refusal_text,
    words_for,
)
from rules.words import normalise
from rules.words.entered import entered_text

log = logging.getLogger("courtside.table")
NOTICE_S = 4.0  # how long a refusal or an "accepted" line stays on the screen
RESUMED_S = 15.0  # ... and the word that an abandoned match was resumed or replayed: the officials must see it
ALIVE_S = 1.0  # match seconds between wakes that record the latest instant while the clock runs
ALIVE_REAL_S = 0.02  # ... but never more often than this in real seconds (at --speed 400: every 8 match s)
CUE_POLL_S = 0.05  # real seconds between looks for a press script's cue file while the table stands at it


class OperatorSink(Protocol):
    def show(self, view: OperatorView) -> None: ...


class Link(Protocol):
    def start(self, post: Callable[[Command], None]) -> None: ...
    def match_loaded(self, header: LogHeader, events: tuple[Event, ...]) -> None: ...
    def on_event(self, header: LogHeader, event: Event) -> None: ...
    def on_state(self, view: dv.ScoreboardView) -> None: ...
    def handle(self, payload: Any) -> None: ...
    def status(self) -> dv.Link: ...
    def stop(self) -> None: ...


class TableLoop:
    def __init__(self, *, rules: ClassRules, court: str, journal_dir: Path, source: MatchSource,
                 clock: TableClock, tracker: ButtonTracker, keys: dict[str, ActionName], entry: Entry, horn: Signal,
                 buzzer: Signal, screen: Screen, link: Link | None = None, script: ScriptPlayer | None = None,
                 session: MatchSession | None = None, recovery: Recovery | None = None,
                 q: queue.Queue[Command] | None = None,
                 operator_keys: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())) -> None:
        self.rules, self.court = rules, court
        self.journal_dir, self.source, self.clock = journal_dir, source, clock
        self.tracker, self.keys, self.entry = tracker, keys, entry
        self.horn, self.buzzer, self.screen, self.link, self.script = horn, buzzer, screen, link, script
        self.queue: queue.Queue[Command] = q or queue.Queue()
        self.notices: list[dv.Notice] = []
        # Where the official's own view goes (display.operator): the page the table serves, the second screen.
        self.operator_sinks: list[OperatorSink] = []
        self.operator_keys = operator_keys
        self.pressed = False  # a button or key was pressed: the first minute's hint is gone
        self.shown: list[Event] = []  # every event drawn after its fsync (the kill campaign checks these)
        self.stopped = False
        self._watchdog = watchdog_interval()
        self._next_ping = 0.0
        self.recovery = recovery
        self._horn_checked = 0
        self.next_match: CourtMatch | None = None
        self.played: set[str] = played_ids(journal_dir) if journal_dir.exists() else set()
        # Played matches whose journal ends abandoned: the schedule may say to play them on (resume, replay).
        self.abandoned: dict[str, Path] = abandoned_journals(journal_dir, rules.load) if journal_dir.exists() else {}
        self.court_name = court  # the court's name as the service's schedule gives it, for the views
        kept = kept_schedule(journal_dir)
        if kept is not None:  # the service's word from before a restart, until it sends it again
            self._follow(kept)
        self.session: MatchSession = session or self._load(self._first_match(), quiet=True)
        if recovery is not None:
            down = None if recovery.down_s is None else round(recovery.down_s * 1000)
            self._notice("recovered", recovery.notice(*self._words()), hold=30.0, down_ms=down)
        self._horn_checked = self.session.ms(self.clock.seconds())
        self.played.add(self.session.scheduled.match)
        if recovery is not None and self.session.match.state_at(self._horn_checked).phase == "finished":
            self.next_match = self.source.nearest(datetime.now(), self.played)  # a restart between matches

    @property
    def ruleset(self) -> Ruleset:
        """The rules of the match shown (a cup's court plays each class by its own)."""
        return self.session.match.ruleset

    # -- which match ----------------------------------------------------------------------

    def _first_match(self) -> CourtMatch:
        first = self.source.next_match(self.played)
        if first is None:
            first = self.source.nearest(datetime.now(), set())
        if first is None:
            raise IllegalCommand("this court has no match in the schedule")
        return first

    def _load(self, scheduled: CourtMatch, *, quiet: bool = False) -> MatchSession:
        if not quiet:
            self._leave()  # before a reopen: the match left may be the very one played on
        session, again = self._reopened(scheduled)
        if session is None:
            ruleset, ref = self.rules.of(scheduled)  # a cup's court plays each class by its own rules
            session = MatchSession.create(self.journal_dir, ruleset, ref, scheduled,
                                          court=self.court, session_now=self.clock.seconds(), speed=self.clock.speed)
        self.played.add(scheduled.match)
        if not quiet:
            self.session = session
            self.entry.reset()
            self._horn_checked = session.resume_ms
            self._notice("info", table_text("loaded", *self._words(), match=scheduled.match, home=scheduled.home,
                                            away=scheduled.away))
        if again is not None:
            # Journaled like any event; the link then sends it with the journal's earlier events.
            applied = session.apply(again)
            self.shown.append(applied.event)
            self.abandoned.pop(scheduled.match, None)
            log.info("event %s", applied.event)
            self._notice("info", applied_text(applied, *self._words()), hold=RESUMED_S)
        if not quiet and self.link is not None:
            self.link.match_loaded(session.header, session.match.events)
        return session

    def _leave(self) -> None:
        """The match shown is left for another: remember whether it ended abandoned, close its journal."""
        s = self.session
        if is_abandoned(s.match):
            self.abandoned[s.scheduled.match] = s.journal.path
        else:
            self.abandoned.pop(s.scheduled.match, None)
        s.journal.close()

    def _reopened(self, scheduled: CourtMatch) -> tuple[MatchSession | None, Event | None]:
        """The abandoned match the schedule says to play on, its journal reopened, and the event to enter:
        a resumption or a replay at the reopened instant. (None, None) for any other match: without the
        service's word an abandoned match stays as it ended."""
        path = self.abandoned.get(scheduled.match)
        if scheduled.continues not in CONTINUES or path is None:
            return None, None
        session = MatchSession.reopen(path, self.rules.of(scheduled)[0], scheduled, session_now=self.clock.seconds(),
                                      speed=self.clock.speed)
        if session is None:
            self.abandoned.pop(scheduled.match, None)
            return None, None
        at = session.resume_ms
        return session, MatchResumed(at=at) if scheduled.continues == "resume" else MatchReplayed(at=at)

    def _abandoned_now(self) -> dict[str, Path]:
        """The abandoned matches, the one shown included once it is abandoned."""
        s = self.session
        if is_abandoned(s.match):
            return {**self.abandoned, s.scheduled.match: s.journal.path}
        return self.abandoned

    def _follow(self, schedule: CourtSchedule) -> None:
        """The service's schedule for this court: its matches still to play, and the court's name it gives."""
        self.source.replace(schedule.matches)
        self.court_name = schedule.court_name or self.court_name

    def _offer_next(self) -> CourtMatch | None:
        if self.next_match is not None and self.next_match.match not in self.played:
            return self.next_match
        return self.source.next_match(self.played, self._abandoned_now())

    # -- the loop -------------------------------------------------------------------------

    def now_ms(self) -> int:
        return self.session.ms(self.clock.seconds())

    def run(self) -> None:
        self.clock.begin()
        if self.link is not None:
            self.link.start(self.queue.put)
            self.link.match_loaded(self.session.header, self.session.match.events)
        self._redraw()
        sd_notify("READY=1")
        log.info("table ready: court %s, match %s", self.court, self.session.scheduled.match)
        while not self.stopped:
            cue = self.script.held_at(self.clock.seconds()) if self.script is not None else None
            if cue is not None:
                item = self.clock.stand(self.queue, CUE_POLL_S, cue)
            else:
                item = self.clock.wait(self.queue, self._deadline())
            if item is not None:
                self.handle(item)
            self._due()
            if self.script is not None and self.script.done and self.queue.empty() and self.tracker.next_due() is None:
                self.stopped = True
        if self.link is not None:
            self.link.stop()

    def step(self) -> None:
        """Handle every queued command, then what falls due by now (tests and benchmarks drive the loop so)."""
        while not self.queue.empty():
            self.handle(self.queue.get_nowait())
        self._due()

    def _deadline(self) -> float | None:
        now = self.clock.seconds()
        session = self.session
        due: list[float | None] = [self.tracker.next_due(), self.horn.next_due(), self.buzzer.next_due()]
        engine = session.match.next_due(session.ms(now))
        due.append(session.session(engine) if engine is not None else None)
        if self.script is not None:
            due.append(self.script.next_due())
        if not self.clock.virtual:
            if session.match.state_at(session.ms(now)).running:  # each wake draws, so records the instant
                due.append(now + max(ALIVE_S, ALIVE_REAL_S * self.clock.speed))
            if self.screen.frame_interval is not None:  # frames, and the screen's keys polled between them
                due.append(now + self.screen.frame_interval * self.clock.speed)
        if self.notices:
            due.append(min(n.until for n in self.notices))
        if self._watchdog is not None:
            due.append(self._next_ping)
        return min((d for d in due if d is not None), default=None)

    def _due(self) -> None:
        """Everything that falls due by now: script lines, holds, horns, the heartbeat, a frame."""
        now = self.clock.seconds()
        if self.script is not None:
            self.script.play_due(now)
            while not self.queue.empty():  # the edges the script's pins just queued
                self.handle(self.queue.get_nowait())
        for action in self.tracker.tick(now):
            self.do(action)
        now_ms = self.session.ms(now)
        self._record(now_ms)  # before a horn sounds for it, as before a draw shows it
        for horn in self.session.match.horns_between(self._horn_checked, now_ms):
            log.info("horn: %s", horn)
            self.horn.sound(now, automatic=True)
        self._horn_checked = max(self._horn_checked, now_ms)
        self.horn.tick(now)
        self.buzzer.tick(now)
        if self._watchdog is not None and now >= self._next_ping:
            sd_notify("WATCHDOG=1")
            self._next_ping = now + self._watchdog
        self.notices = [n for n in self.notices if n.until > now]
        for name, text in self.screen.poll_keys():
            self.handle(Key(name=name, text=text, at=self.clock.seconds()))
        self._redraw()

    # -- commands -------------------------------------------------------------------------

    def handle(self, item: Command) -> None:
        if isinstance(item, (Edge, Key)):
            self.pressed = True
        if isinstance(item, Edge):
            for action in self.tracker.edge(item):
                self.do(action)
        elif isinstance(item, Key):
            self._key(item)
        elif isinstance(item, ScheduleUpdate):
            self._follow(item.schedule)
            try:
                keep_schedule(self.journal_dir, item.schedule)
            except OSError as err:  # a full card: the schedule still holds until the table restarts
                log.warning("could not keep the service's schedule in %s: %s", self.journal_dir, err)
            self.next_match = None
            log.info("schedule from the service: %s",
                     ", ".join(m.match for m in item.schedule.matches) or "nothing left")
        elif isinstance(item, LinkMessage):
            if self.link is not None:
                self.link.handle(item.payload)
        elif isinstance(item, Stop):
            log.info("stopping: %s", item.reason or "asked to")
            self.stopped = True
        self._redraw()

    def _key(self, key: Key) -> None:
        if key.name == "window-close":
            self.stopped = True
        elif key.name == "backspace":
            self.entry.backspace()
        elif key.name == "escape":
            self.entry.cancel()
        elif key.text and not key.text.isspace() and self.entry.type_char(key.text):
            pass
        elif key.name in self.keys:
            self.do(Action(name=self.keys[key.name], at=key.at))

    def do(self, action: Action) -> None:
        """Carry out one button or key action."""
        s = self.session
        at = s.ms(action.at)
        state = s.match.state_at(max(at, 0))
        for effect in self.entry.act(action.name, at, s.match, state):
            if not self._effect(effect):
                break

    def _effect(self, effect: Effect) -> bool:
        if effect.kind == "apply":
            assert effect.event is not None
            return self.apply(effect.event)
        if effect.kind == "horn":
            self.horn.sound(self.clock.seconds())
        elif effect.kind == "mute":
            self.horn.muted = not self.horn.muted
            self._notice("info", table_text("horn_muted" if self.horn.muted else "horn_on", *self._words()))
        elif effect.kind == "say":
            self._notice("info", table_text(effect.words, *self._words(), **effect.params))
        elif effect.kind == "refuse":
            self._refuse(table_text(effect.words, *self._words(), **effect.params))
            return False
        elif effect.kind == "load":
            return self._load_next(force=effect.force)
        return True

    def apply(self, event: Event) -> bool:
        """Apply, journal (fsync), then show and send; a refusal is shown with the engine's reason."""
        try:
            applied = self.session.apply(event)
        except IllegalCommand as err:
            self._refuse(refusal_text(err, *self._words()))
            return False
        if applied.kind == "duplicate":
            return True
        self.shown.append(applied.event)
        log.info("event %s", applied.event)
        # What the official entered, with when: "Undone: Clock stopped at 12:34 (period 2)", not "Seq 5 undone".
        said = entered_text(self.session.match, applied.event, *self._words()) if applied.kind == "accepted" \
            else applied_text(applied, *self._words())
        self._notice("info", said)
        if self.link is not None:
            self.link.on_event(self.session.header, applied.event)
        return True

    def _load_next(self, *, force: bool) -> bool:
        s = self.session
        state = s.match.state_at(self.now_ms())
        if state.phase != "finished" and s.match.events and not force:
            self._refuse(table_text("not_over", *self._words()))
            return False
        following = self._offer_next()
        if following is None:
            self._refuse(table_text("no_more_matches", *self._words()))
            return False
        self._load(following)
        return True

    def _refuse(self, text: str) -> None:
        log.info("refused: %s", text)
        self._notice("refused", text)
        self.buzzer.sound(self.clock.seconds())

    def _words(self) -> tuple[Callable[[str], str], ...]:
        """The screen's language (the tournament file's) for the engine's feedback and the table's words: its
        gettext, or nothing in English, where the words are shown as they are written."""
        language = normalise(getattr(self.screen, "language", None))
        return () if language == SOURCE_LANGUAGE else (words_for(language).gettext,)

    def _notice(self, kind: dv.NoticeKind, text: str, hold: float = NOTICE_S, down_ms: int | None = None) -> None:
        now = self.clock.seconds()
        self.notices.append(dv.Notice(kind=kind, text=text, until=now + hold, down_ms=down_ms))

    # -- what is shown --------------------------------------------------------------------

    def view(self) -> dv.ScoreboardView:
        s, m = self.session, self.session.scheduled
        state = s.match.state_at(self.now_ms())
        following = self._offer_next() if state.phase == "finished" else None
        return dv.ScoreboardView(
            state, self.ruleset, dv.TeamLook(m.home), dv.TeamLook(m.away), round=m.round, stage=m.stage,
            language=getattr(self.screen, "language", None), notices=tuple(self.notices), not_eligible=m.suspended,
            match=m.match, court=self.court_name, prompt=self.entry.prompt(s.match, *self._words()),
            link=self.link.status() if self.link is not None else None,
            between=None if following is None else dv.BetweenMatches(dv.NextMatch(
                following.home, following.away, following.start, following.round, following.stage)),
        )

    def _record(self, at: int) -> None:
        """The instant shown or horned is recorded (in RAM) first, so a restart never goes back before it."""
        if self.session.match.events:
            self.session.journal.alive(at, _wall_ms())

    def operator_view(self, state: MatchState | None = None) -> OperatorView:
        """The official's own view now (display.operator)."""
        s, words = self.session, self._words()
        return operator_view(s, state or s.match.state_at(self.now_ms()), self.entry, self.notices,
                             self.link.status() if self.link is not None else None, self.operator_keys,
                             court=self.court_name, pressed=self.pressed, _=words[0] if words else english)

    def _redraw(self) -> None:
        view = self.view()
        assert view.state is not None  # the table always has a match loaded
        self._record(view.state.at)
        if self.operator_sinks:
            shown = self.operator_view(view.state)
            for sink in self.operator_sinks:
                sink.show(shown)
        self.screen.draw(view)
        if self.link is not None:
            self.link.on_state(view)


def _wall_ms() -> int:
    from firmware.session import wall_ms

    return wall_ms()
