"""The courts' tables of bench_viewers: light tables on the table's own link, match session and outbox, real
``courtside table`` processes for a few courts, and the ear on the broker that times what they send.

- A light table (:class:`LightTables`, one per court) is the table without its buttons, loop and screen: each
  match is a :class:`firmware.session.MatchSession` (its journal fsynced, event by event) whose events and result
  go out through the court's own :class:`firmware.link.Link` and its outbox (sent again until acknowledged,
  presence, the will), one MQTT connection per court as at a venue. Its live states carry a token the pages show
  as the board's clock (``data-ms``): :data:`LIGHT` + ``k * base + c``, the court ``c``'s ``k``-th state.
- A real table (:class:`RealTables`) is ``courtside table`` on the mock pins playing a press script of simulated
  officials (courtside.demo: the demo's autoplay) at ``--speed``: its live states are its running clock as the
  table sends it, four a second at most; the pages show each as the board's ``data-ms``.
- The ear (:class:`Ear`) hears every result as the broker passes it on, and the real tables' live states: what
  the benchmark times the pages against (from the broker, not from a table's own clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import subprocess
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from firmware.commands import Command

LIGHT = 10**9
"""A light table's tokens start here (277 hours of clock): a real board's clock is always below."""


def token_base(courts: int) -> int:
    """A light state's token is ``LIGHT + k * base + c`` (court ``c``'s ``k``-th state): base 10 for up to 10 courts,
    1,000 for a cup's hundred pitches."""
    return 10 if courts <= 10 else 1000


class Ear:
    """Every court's results and the real tables' live states, timed as the broker passes them on."""

    def __init__(self, plan: Any, broker_port: int, real_courts: list[str]) -> None:
        import paho.mqtt.client as mqtt

        from rules import protocol as p

        self.plan = plan
        self.lock = threading.Lock()
        self.results_sent: dict[str, float] = {}  # "pool,n" -> when the pool's n-th result was first heard
        self.matches: dict[str, str] = {}  # "pool,n" -> the match of the pool's n-th result
        self.recorded: Counter[str] = Counter()  # pool -> results heard
        self.heard: set[str] = set()  # matches whose result was heard
        self.real_sent: dict[str, float] = {}  # "court,clock ms" -> when first heard
        self.real_last: dict[str, int] = {}  # court -> the clock of its last live state
        self.repeated: set[str] = set()  # a real board's clock heard twice (two matches): not timed
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,  # type: ignore[attr-defined]
                                  client_id=f"bench-ear-{uuid.uuid4().hex[:6]}")
        self.client.on_message = self._heard
        self.client.connect("127.0.0.1", broker_port)
        self.client.subscribe([(f"{p.root(plan.id)}/court/+/result", 0),
                               *((p.court_topic(plan.id, plan.court_id(c), "live"), 0) for c in real_courts)])
        self.client.loop_start()

    def _heard(self, _c: Any, _u: Any, message: Any) -> None:
        at = time.monotonic()
        body = json.loads(message.payload)
        kind, match = message.topic.rsplit("/", 1)[1], str(body.get("match"))
        with self.lock:
            if kind == "result" and match not in self.heard and match in self.plan.fixtures:
                self.heard.add(match)
                pool = self.plan.fixtures[match].stage
                self.recorded[pool] += 1
                self.results_sent[f"{pool},{self.recorded[pool]}"] = at
                self.matches[f"{pool},{self.recorded[pool]}"] = match
            elif kind == "live":
                court = self.plan.courts[body["court"]]  # by its name, as the pages' regions name it
                key = f"{court},{body['payload']['board']['clock_ms']}"
                if key in self.real_sent:
                    self.repeated.add(key)
                self.real_sent.setdefault(key, at)
                self.real_last[court] = body["payload"]["board"]["clock_ms"]

    def wait_for_boards(self, courts: list[str], timeout: float) -> None:
        """Until each of ``courts`` has sent a live state: a real table starts as a whole program (on a loaded
        machine, seconds), and the play's time is counted from then, not from its start."""
        from courtside.demo.parts import wait_until

        def heard_all() -> bool:
            with self.lock:
                return all(c in self.real_last for c in courts)

        wait_until(heard_all, timeout, f"a live state from the real tables of {', '.join(courts)}", every=0.05)

    def close(self) -> dict[str, Any]:
        self.client.loop_stop()
        self.client.disconnect()
        return {"results_sent": self.results_sent, "matches": self.matches, "recorded": dict(self.recorded),
                "real_sent": {k: v for k, v in self.real_sent.items() if k not in self.repeated},
                "real_last": self.real_last}


class LightTables:
    """One light table per court (its link, its journal folder), each with a thread of its own that does all its
    work in turn, as a table's loop does: the link's paho thread only posts to it, and the benchmark's asyncio loop
    hands it each live state and match to play (a match's journal is fsynced event by event, which must not hold up
    the other courts)."""

    def __init__(self, plan: Any, tournament: Path, broker_port: int, courts: list[str], light: list[int],
                 journals: Path) -> None:
        from firmware.link import Link
        from firmware.schedule import court_plan
        from rules import CourtMatch

        self.plan = plan
        self.courts = courts  # every court's name; index c is a token's last digits
        self.light = light  # the indexes of the courts played by light tables
        self.live_sent: dict[str, float] = {}  # "c,k" -> when published
        self.journals = journals  # a folder per court, as a table keeps one
        _, self.class_rules = court_plan(tournament, courts[0])  # each class's ruleset, the same on every court
        self.links: dict[str, Any] = {}
        self.threads: dict[str, ThreadPoolExecutor] = {}
        self.closing = False
        # Each court's pool matches from the one plan: court_plan would plan the whole cup again for each court.
        self.schedules: dict[str, list[CourtMatch]] = {courts[c]: [] for c in light}
        for n, m in sorted(plan.fixtures.items(), key=lambda item: (item[1].start, item[1].number)):
            if m.court in self.schedules and m.round == "pool":
                self.schedules[m.court].append(CourtMatch(
                    match=n, number=m.number, home=m.home, away=m.away, stage=m.stage, round=m.round,
                    kind="round_robin", start=m.start, end=m.end, class_name=m.class_name))
        for c in self.schedules:
            court_id = plan.court_id(c)
            link = Link(f"mqtt://127.0.0.1:{broker_port}", tournament=plan.id, court_id=court_id, court_name=c,
                        journal=self.journals / court_id)
            self.threads[c] = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"table-{court_id}")
            self.links[c] = link
            link.start(functools.partial(self._post, c))

    def _post(self, court: str, command: Command) -> None:
        """What the link's paho thread posts, handled on the court's own thread."""
        if not self.closing:
            with contextlib.suppress(RuntimeError):  # closed meanwhile
                self.threads[court].submit(self._handle, self.links[court], command)

    @staticmethod
    def _handle(link: Any, command: Command) -> None:
        from firmware.commands import LinkMessage

        if isinstance(command, LinkMessage):
            link.handle(command.payload)  # a schedule the service sends is not followed: the light table keeps its own

    async def online(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not all(link.online for link in self.links.values()):
            if time.monotonic() > deadline:
                raise SystemExit("the light tables' links did not all come online")
            await asyncio.sleep(0.05)

    def live(self, c: int, scheduled: Any, k: int) -> None:
        """The court's ``k``-th live state, sent by its thread."""
        self.threads[self.courts[c]].submit(self._live, c, scheduled, k)

    async def play_out(self, c: int, scheduled: Any, home: int, away: int) -> None:
        """The match played to its end by the court's thread."""
        await asyncio.wrap_future(self.threads[self.courts[c]].submit(self._play_out, c, scheduled, home, away))

    def _live(self, c: int, scheduled: Any, k: int) -> None:
        """The court's ``k``-th live state: its stopped clock is the token."""
        from rules import protocol as p
        from rules.live import live_payload
        from rules.match import ClockStarted, Match

        rules, _ = self.class_rules.of(scheduled)
        match = Match(rules, stage="round_robin", round="pool")
        match.apply(ClockStarted(at=0))
        payload = live_payload(match.state_at(1), rules, scheduled.match)
        payload["board"]["running"] = False
        payload["board"]["clock_ms"] = LIGHT + k * token_base(len(self.courts)) + c
        link = self.links[self.courts[c]]
        msg = p.build(id=uuid.uuid4().hex, type="live", court=link.court, match=scheduled.match, payload=payload)
        self.live_sent[f"{c},{k}"] = time.monotonic()
        link.client.publish(p.court_topic(self.plan.id, link.court, "live"), p.encode(msg), qos=0, retain=True)

    def _play_out(self, c: int, scheduled: Any, home: int, away: int) -> None:
        """The match played to its end in the table's match session (journaled), its events and then its result
        sent by the court's link as the table sends them."""
        from display.view import ScoreboardView
        from firmware.session import MatchSession
        from rules import event_from_dict
        from tests.service_support import played

        court = self.courts[c]
        link = self.links[court]
        rules, ref = self.class_rules.of(scheduled)
        session = MatchSession.create(self.journals / link.court, rules, ref, scheduled, court=court, session_now=0.0,
                                      speed=1.0)
        link.match_loaded(session.header, ())
        lines, _ = played(rules, home, away, kind=scheduled.kind, round=scheduled.round)  # the engine plays it out
        for line in lines:
            link.on_event(session.header, session.apply(event_from_dict(line, "bench")).event)
        # The table shows it finished: its outbox sends the result (and its link the final board).
        link.on_state(ScoreboardView(state=session.match.state_at(session.match.last_at), ruleset=rules,
                                     match=scheduled.match))
        session.journal.close()

    def close(self) -> None:
        self.closing = True  # what the links' threads post from now on is dropped
        for court, link in self.links.items():
            self.threads[court].submit(link.stop)
        for thread in self.threads.values():
            thread.shutdown(wait=True)


async def play_light(tables: LightTables, seconds: float, rate: float, live_per_match: int,
                     stagger: float = 0.0) -> dict[str, int]:
    """Each light court's pool matches in turn until ``seconds`` are over; the last token each court showed.

    ``stagger``: the seconds over which the courts start, evenly, so their matches end court after court as a
    venue's do; 0 (the default) starts them all in step, every court's result in the same instant."""
    finals: dict[str, int] = {}
    end = time.monotonic() + seconds

    async def court(c: int, offset: float) -> None:
        await asyncio.sleep(offset)
        k = 0
        for scheduled in tables.schedules[tables.courts[c]]:
            for n in range(live_per_match):
                if time.monotonic() >= end:
                    if n == 0 and k:  # the court's last state is a finished match's board, with no token: its
                        k += 1  # next match's first state says which states the home page's card stood for
                        tables.live(c, scheduled, k)  # (written at most once a second, it may skip the last)
                    finals[f"court{c}"] = k
                    return
                k += 1
                tables.live(c, scheduled, k)
                await asyncio.sleep(1 / rate)
            number = scheduled.number
            await tables.play_out(c, scheduled, number % 4, (number // 4) % 3)
        finals[f"court{c}"] = k

    light = sorted(tables.light)
    await asyncio.gather(*(court(c, stagger * i / len(light)) for i, c in enumerate(light)))
    return finals


class RealTables:
    """``courtside table`` processes (mock pins, headless) for a few courts, each playing its court's first
    matches from a press script at ``speed``, as the demo's autoplay plays them."""

    def __init__(self, plan: Any, tournament: Path, broker_port: int, courts: list[str], folder: Path,
                 speed: float) -> None:
        from courtside.demo.parts import courtside_argv
        from firmware.buttonmap import default_text

        self.procs: list[subprocess.Popen[bytes]] = []
        buttons = folder / "buttons.toml"
        buttons.write_text(default_text().replace('view = "web"', 'view = "none"'), encoding="utf-8")
        for court in courts:
            court_id = plan.court_id(court)
            script = folder / f"presses-{court_id}.txt"
            script.write_text(officials_script(plan, tournament, court), encoding="utf-8")
            argv = courtside_argv("table", "--court", court, "--tournament", str(tournament), "--pins", "mock",
                                  "--journal", str(folder / f"journal-{court_id}"),
                                  "--broker", f"mqtt://127.0.0.1:{broker_port}", "--buttons", str(buttons),
                                  "--script", str(script), "--speed", f"{speed:g}", "--headless")
            log = (folder / f"table-{court_id}.log").open("ab")
            self.procs.append(subprocess.Popen(argv, stdout=log, stderr=log))

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def officials_script(plan: Any, tournament: Path, court: str, matches: int = 3) -> str:
    """The press script of the court's first ``matches`` matches, one after another (courtside.demo: simulated
    officials, their presses worked out from a seed)."""
    from courtside.demo.officials import plan_match
    from courtside.demo.presses import press_script
    from firmware.schedule import court_plan

    order, class_rules = court_plan(tournament, court)
    text, end = "", None
    for scheduled in order.matches[:matches]:
        rules, _ = class_rules.of(scheduled)
        officials = plan_match(rules, stage=scheduled.kind, round=scheduled.round, seed=int(scheduled.match))
        part, end = press_script(officials, rules, title=f"match {scheduled.match} on {court}",
                                 load=end is not None, offset=0.0 if end is None else end + 5.0)
        text += part
    return text
