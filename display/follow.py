"""``courtside display follow``: a screen-only node drawing a court from its retained live MQTT topic.

For venues with more than one screen per court. It subscribes to the court's ``live`` state
(retained: a screen that joins late draws at once), its ``presence`` and ``schedule``, the
pool tables and the classes' top scorers (rules/protocol.py names them all). paho's thread
only puts messages on a queue; the drawing loop owns everything else. Between two live
messages a running clock is carried on from the instant the message arrived, so the screen
does not stall when the table publishes only on change; the next message corrects it. While the broker or the table is
away the board keeps the last state and shows the discreet "offline" mark.
"""

from __future__ import annotations

import argparse
import json
import queue
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from display.view import BetweenMatches, Link, NextMatch, ScoreboardView, TeamLook
from rules import (
    MAX_SERVICE_BYTES,
    CourtMatch,
    CourtSchedule,
    Cup,
    FileLineError,
    LiveBoard,
    MatchState,
    PoolTable,
    ProtocolError,
    Ruleset,
    TableRow,
    clock_at,
    court_topic,
    parse_broker,
)
from rules.link_payloads import LivePayload, PresencePayload
from rules.pool_table import PublishedTable
from rules.protocol import parse, root, slug
from rules.published_scorers import PublishedScorers

FRAME_SECONDS = 0.05
GIVE_UP_SECONDS = 30  # with --frames (tests, a venue's check): no message from the broker in this long is an error


class Court:
    """What the follower knows of its court, from the messages so far (no I/O, no clock reads)."""

    def __init__(self, ruleset: Ruleset, language: str | None, court_name: str, *, cup: Cup | None = None,
                 rulesets: dict[str, Ruleset] | None = None) -> None:
        self.default = ruleset
        self.cup = cup  # a cup's classes: each match drawn by its class's ruleset, each class's tables between
        self.rulesets = rulesets or {}
        self.language = language
        self.court_name = court_name
        self.state: MatchState | None = None
        self.board: LiveBoard | None = None
        self.received = 0.0  # the follower's clock (seconds) when the state arrived
        self.match: str | None = None
        self.schedule: tuple[CourtMatch, ...] = ()
        self.tables: dict[str, PoolTable] = {}
        self.scorers: dict[str, PublishedScorers] = {}  # class name ("" without classes) -> its top scorers
        self.table_online = True
        self.connected = False
        self.refused = 0  # messages that broke the protocol (logged, never drawn)

    def take(self, topic: str, raw: bytes, now: float) -> None:
        """One message from the broker; a malformed one is counted and left out."""
        try:
            message = parse(raw, topic=topic, limit=MAX_SERVICE_BYTES)
            match message.body:
                case LivePayload(board=board, state=state):
                    self.board, self.state = board, MatchState.from_dict(state)
                    self.match = message.match
                    self.received = now
                case PresencePayload(state=presence):
                    self.table_online = presence == "online"
                case CourtSchedule(matches=matches, court_name=court_name):
                    self.schedule, self.court_name = matches, court_name or self.court_name
                case PublishedTable(pool=pool, rows=rows):
                    self.tables[pool] = PoolTable(pool=pool, rows=tuple(TableRow(**asdict(r)) for r in rows),
                                                  unresolved=())
                case PublishedScorers(class_name=class_name) as scorers:
                    self.scorers[class_name] = scorers
        except (ProtocolError, ValueError, KeyError, TypeError):
            self.refused += 1

    @property
    def ruleset(self) -> Ruleset:
        """The rules of the match the court plays (a cup's court plays several classes)."""
        m = next((m for m in self.schedule if m.match == self.match), None)
        return self.rulesets.get(m.class_name, self.default) if m is not None else self.default

    def _between_tables(self) -> tuple[PoolTable, ...]:
        """The tables shown between matches: a cup's, those of the next match's class, if it publishes them."""
        names = sorted(self.tables)
        if self.cup is not None and self.cup.has_classes:
            following = next((m for m in self.schedule if m.status == "scheduled"), None)
            klass = self.cup.class_named(following.class_name) if following is not None else None
            names = [n for n in names if klass is not None and klass.published
                     and self.cup.class_of_stage(n) is klass]
        return tuple(self.tables[k] for k in names)

    def _between_scorers(self) -> PublishedScorers | None:
        """The top scorers of the next match's class (of the tournament, without classes), if it has any yet."""
        following = next((m for m in self.schedule if m.status == "scheduled"), None)
        found = self.scorers.get(following.class_name if following is not None else "")
        return found if found is not None and found.rows else None

    def _next(self) -> NextMatch | None:
        m = next((m for m in self.schedule if m.status == "scheduled"), None)
        return None if m is None else NextMatch(m.home, m.away, m.start, m.round, m.stage)

    def view(self, now: float) -> ScoreboardView:
        """The frame at ``now`` (the follower's clock, seconds)."""
        state = None if self.state is None or self.board is None else carried(
            self.state, self.board, self.ruleset, int((now - self.received) * 1000))
        m = next((m for m in self.schedule if m.match == self.match), None)
        home, away, round_name, stage = (m.home, m.away, m.round, m.stage) if m else ("Home", "Away", None, None)
        between = BetweenMatches(next_match=self._next(), tables=self._between_tables(),
                                 scorers=self._between_scorers(), page=int(now // 8))
        finished = state is not None and state.phase == "finished"
        return ScoreboardView(
            state, self.ruleset, TeamLook(home), TeamLook(away), language=self.language, round=round_name, stage=stage,
            not_eligible=m.suspended if m else (),
            link=Link(online=self.connected and self.table_online),
            between=between if state is None or finished else None, match=self.match, court=self.court_name,
        )


def carried(state: MatchState, board: LiveBoard, ruleset: Ruleset, ms: int) -> MatchState:
    """``state`` ``ms`` later by the running clocks alone (no event): what the table shows meanwhile.
    The match clock and the penalties go on by the board's rules (rules.live), the rest counts down."""
    if ms <= 0:
        return state
    changes: dict[str, Any] = {}
    if state.phase == "play" and state.running:
        changes["clock_ms"] = clock = clock_at(board, ms)
        if state.clock_down:
            changes["tenths"] = 0 < clock < ruleset.match.tenths_below
        if state.possession_ms is not None:
            changes["possession_ms"] = max(0, state.possession_ms - ms)
        changes["penalties"] = tuple(
            replace(p, remaining_ms=max(0, p.remaining_ms - ms)) if p.remaining_ms is not None and not p.waiting
            else p for p in state.penalties)
    if state.interval_remaining_ms is not None:
        changes["interval_remaining_ms"] = max(0, state.interval_remaining_ms - ms)
    if state.timeout is not None:
        changes["timeout"] = replace(state.timeout, remaining_ms=max(0, state.timeout.remaining_ms - ms))
    return replace(state, **changes) if changes else state


def follow(args: argparse.Namespace) -> int:
    """Run the follower until the window closes (or ``--frames`` frames were drawn)."""
    import paho.mqtt.client as mqtt
    import pygame

    from display.scoreboard import Scoreboard
    from display.screen import open_screen
    from display.snapshot import language_of, parse_size, save
    from display.theme import load_theme
    from rules import load_cup_rulesets, read_cup_file

    broker = parse_broker(args.broker)
    tournament = read_cup_file(args.tournament)
    rulesets = load_cup_rulesets(tournament, args.tournament)
    ruleset = rulesets[tournament.classes[0].name]
    tid = slug(args.id or Path(args.tournament).stem)
    court_id = slug(args.court)
    name = next((c for c in tournament.schedule.courts if slug(c) == court_id), args.court)
    court = Court(ruleset, args.language or language_of(tournament), name, cup=tournament, rulesets=rulesets)
    # The screen first: a machine with none is told so before anything connects (display.screen.ScreenError).
    surface = open_screen(parse_size(args.size) if args.size else None, f"courtside · {name}")
    inbox: queue.Queue[tuple[str, bytes] | bool] = queue.Queue()

    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, properties: Any = None) -> None:
        inbox.put(True)
        client.subscribe([(court_topic(tid, court_id, kind), 1) for kind in ("live", "presence", "schedule")]
                         + [(f"{root(tid)}/pool/+/table", 1),  # every pool's table (a wildcard level)
                            (f"{root(tid)}/class/+/scorers", 1)])

    def on_disconnect(client: Any, userdata: Any, flags: Any, reason: Any, properties: Any = None) -> None:
        inbox.put(False)

    def on_message(client: Any, userdata: Any, message: Any) -> None:
        inbox.put((message.topic, bytes(message.payload)))

    client_id = f"screen-{court_id}-{time.monotonic_ns() % 10**9}"
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id)  # type: ignore[attr-defined]
    if broker.username is not None:
        client.username_pw_set(broker.username, broker.password)
    if broker.tls:
        client.tls_set()
    client.on_connect, client.on_disconnect, client.on_message = on_connect, on_disconnect, on_message
    client.reconnect_delay_set(min_delay=1, max_delay=5)
    client.connect_async(broker.host, broker.port, keepalive=15)
    client.loop_start()
    board = Scoreboard(surface, load_theme(args.theme) if args.theme else None)
    frames = 0
    give_up = time.monotonic() + GIVE_UP_SECONDS
    try:
        while args.frames is None or frames < args.frames:
            now = time.monotonic()
            if args.frames is not None and frames == 0 and now > give_up:
                raise FileLineError("--broker", None, f"nothing received for court {court_id!r} in "
                                                      f"{GIVE_UP_SECONDS} s (is the table publishing?)")
            while True:
                try:
                    item = inbox.get_nowait()
                except queue.Empty:
                    break
                if isinstance(item, bool):
                    court.connected = item
                else:
                    court.take(item[0], item[1], now)
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    return 0
                if event.type in (pygame.VIDEORESIZE, pygame.WINDOWEXPOSED):
                    board.invalidate()
            changed = board.draw(court.view(now))
            if changed:
                pygame.display.update(changed)
            if court.state is not None or court.schedule or args.frames is None:
                frames += 1  # with --frames, count only frames drawn from something the broker sent
            time.sleep(FRAME_SECONDS)
        if args.out:
            save(surface, args.out)
    finally:
        client.loop_stop()
        client.disconnect()
        pygame.display.quit()
    print(json.dumps({"court": court_id, "frames": frames, "refused": court.refused}))
    return 0
