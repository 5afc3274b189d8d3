"""The standings service: one loop takes the broker's messages, checks, stores, ranks and publishes them.

paho's network thread (server.connection) only puts what happens on the loop's inbox, as named records
(server.inbox: ``Received``, ``Connected``, ...); so do the web desk (:meth:`Service.submit`) and the watch. What
has come is parsed (rules.protocol) and ingested as one transaction (server.ingest), and only after the commit
is each message acknowledged, so an ack always means "in the database". Once the
messages stop (or, in a long burst, when server.pacing says) it publishes, retained, the tables of
the pools that changed and the schedules of the courts whose matches changed (server.publishing); a
stored result tells the web part at its commit.
Refusals go to the error topic and the log; nothing stored changes. Several instances share the
tables' topics through a shared subscription (``$share/GROUP/...``) over one database; the
database's unique keys keep a message handled by two of them from counting twice. With a group,
each instance also watches what every instance hears in full (server.watch): the live states,
and the tables and schedules another instance published, so its pages show what another stored.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import Any

import paho.mqtt.client as mqtt

from rules import CourtsideError
from rules import protocol as p
from rules.link_payloads import PresencePayload
from server import queries
from server.connection import connect_client
from server.desk import beside_the_desk
from server.ids import ID_PREFIX, new_id
from server.inbox import Call, Connected, Disconnected, Item, Received, Recheck, Stop, Subscribed, Unreachable, Waiting
from server.ingest import Outcome, fixtures_of, ingest, log_messages, touch
from server.logs import line, log, log_lines
from server.notify import sd_notify, watchdog_interval
from server.pacing import QUIET, Pacing
from server.publishing import Publishing
from server.register import Register
from server.store import Store
from server.timelines import Timelines
from server.topscorers import TopScorers
from server.watch import Acked, Watch, Watched

BATCH = 500
GATHER = 0.001
"""Seconds the loop waits for more after a first message: paho's thread hands the messages over one by one,
and a burst's that share a transaction cost a fraction of one each (bench_service: 0.31-0.35 against
0.34-0.49 ms of CPU a result, 128 pools)."""
RECHECK_S = 0.25
"""Seconds before a result kept waiting for its events is read again, when instances share the topics (the
events another instance took are usually committed by then), doubled each time: 0.25, 0.5 and 1 s, within
the 3 s after which the table sends it again itself."""
RECHECKS = 3


class Service:
    """One instance of the service. ``run()`` blocks in the loop until ``stop()``."""

    def __init__(self, store: Store, broker: str, *, group: str | None = "courtside", client_id: str | None = None,
                 ca_file: str | None = None) -> None:
        self.store = store
        self.plan = store.plan
        self.address = p.parse_broker(broker)
        self.group = group
        client_id = client_id or f"courtside-server-{new_id()[:8]}"
        self.client = connect_client(self.address, client_id, ca_file=ca_file)
        self.inbox: queue.SimpleQueue[Item] = queue.SimpleQueue()
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_subscribe = self._on_subscribe
        self._stopping = threading.Event()
        self.ready = threading.Event()
        self.listeners: list[Callable[[set[str], set[str]], None]] = []  # (pools, courts) a batch's commit changed
        self._oldest = time.monotonic()
        self._unreachable_logged = float("-inf")
        self.timelines = Timelines(store)  # each match's, for the scorers sent here and the pages (server.web)
        self.top_scorers = TopScorers(store, self.timelines)
        self._waiting: dict[tuple[str, str], Waiting] = {}  # (court, match) -> its result kept waiting for events
        self._noted: dict[str, tuple[str, str | None]] = {}  # court -> kind and match of the last message stored
        self.counts = {"stored": 0, "duplicate": 0, "refused": 0, "conflict": 0, "waiting": 0, "noted": 0,
                       "batches": 0}
        self.register = Register(store)  # who sits out which match, for the schedules
        self.publishing = Publishing(store, self.client, self.register, self.top_scorers)
        # Sharing the tables' topics with other instances: hear in full what the pages need (server.watch).
        self.watch = Watch(self.address, self.plan.id, f"{client_id}-watch", ID_PREFIX, self.inbox.put,
                           ca_file=ca_file) if group else None

    # -- paho's callbacks (its thread): only put records on the inbox --------------------------

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _props: Any = None) -> None:
        self.inbox.put(Connected(str(reason), not getattr(reason, "is_failure", False)))

    def _on_disconnect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _props: Any = None) -> None:
        self.inbox.put(Disconnected(str(reason)))

    def _on_subscribe(self, client: mqtt.Client, _u: Any, _mid: Any, _codes: Any, _props: Any = None) -> None:
        self.inbox.put(Subscribed())

    def _on_connect_fail(self, client: mqtt.Client, _u: Any) -> None:
        self.inbox.put(Unreachable())

    def _on_message(self, client: mqtt.Client, _u: Any, message: mqtt.MQTTMessage) -> None:
        self.inbox.put(Received(message.topic, bytes(message.payload), time.monotonic()))

    # -- the loop ----------------------------------------------------------------------------

    def submit(self, step: Callable[[], Any]) -> Any:
        """Run ``step`` in the loop's thread (the desk's changes) and return what it returns."""
        done: Future[Any] = Future()
        self.inbox.put(Call(step, done))
        return done.result()

    def stop(self) -> None:
        """From any thread (a signal handler included)."""
        self._stopping.set()
        self.inbox.put(Stop())

    def run(self) -> None:
        # paho tries the broker at once and again until it answers (server.connection).
        # Ready for systemd now, broker or not: a venue's broker may come up after the service (or be
        # restarted), and systemd must not kill and restart a service that is only waiting for it.
        # The status says which; ``self.ready`` (and the log's server_ready) mean subscribed.
        sd_notify("READY=1")
        sd_notify(f"STATUS=waiting for the broker at {self._broker_name()}")
        ping = watchdog_interval()
        last_ping = 0.0
        if self.watch is not None:
            self.watch.start()
        self.client.loop_start()
        try:
            pacing = Pacing()  # when to publish what the messages changed (server.pacing)
            pools: set[str] = set()  # changed since the last publishing
            courts: set[str] = set()
            while not self._stopping.is_set():
                pending = len(pools) + len(courts)
                batch = self._take(timeout=QUIET if pending else min(ping or 1.0, 1.0))
                messages: list[tuple[str, bytes]] = []
                watched: list[Watched] = []
                for item in batch:
                    if isinstance(item, Received):
                        if not messages and not (pools or courts):
                            self._oldest = item.at
                        messages.append((item.topic, item.payload))
                    elif isinstance(item, Watched):  # after the batch's transaction: they must not split it
                        watched.append(item)
                    else:
                        self._ingest(messages, pools, courts)
                        messages = []
                        self._handle(item, pools, courts)
                self._ingest(messages, pools, courts)
                for item in watched:
                    self._handle(item, pools, courts)
                now = time.monotonic()
                pending = len(pools) + len(courts)
                if pending and (self._stopping.is_set() or pacing.due(pending, quiet=not batch,
                                                                       held=now - self._oldest)):
                    # In a pause, publishing gives way to the next message; held too long, it goes to the end.
                    forced = self._stopping.is_set() or pacing.held_too_long(pending, held=now - self._oldest)
                    pools, courts = self.publishing.changes(
                        pools, courts, since=self._oldest,
                        interrupted=None if forced else lambda: not self.inbox.empty())
                    pacing.published(pending - len(pools) - len(courts), time.monotonic() - now)
                if ping is not None and time.monotonic() - last_ping >= ping:
                    sd_notify("WATCHDOG=1")
                    last_ping = time.monotonic()
        finally:
            sd_notify("STOPPING=1")
            if self.watch is not None:
                self.watch.stop()
            self.client.disconnect()
            self.client.loop_stop()
            log("server_stopped", None, tournament=self.plan.id, **self.counts)

    def _take(self, timeout: float) -> list[Item]:
        """What has come, up to BATCH, waiting up to ``timeout`` for the first."""
        batch: list[Item] = []
        try:
            batch.append(self.inbox.get(timeout=timeout))
            until = time.monotonic() + GATHER
            while len(batch) < BATCH:
                left = until - time.monotonic()
                batch.append(self.inbox.get(timeout=left) if left > 0 else self.inbox.get_nowait())
        except queue.Empty:
            pass
        return batch

    def _ingest(self, messages: list[tuple[str, bytes]], pools: set[str], courts: set[str]) -> None:
        if not messages:
            return
        self.counts["batches"] += 1  # with "stored" and the rest: how many messages a transaction took
        try:
            self._messages(messages, pools, courts)
        except Exception as err:  # a database error: nothing was acked, the tables send it again
            log("ingest_failed", topic=messages[0][0], reason=f"{type(err).__name__}: {err}"[:500])

    def _handle(self, item: Item, pools: set[str], courts: set[str]) -> None:
        match item:
            case Watched(topic, payload):
                assert self.watch is not None
                changed = self.watch.handle(topic, payload)
                if isinstance(changed, Acked):
                    self._read_again(changed)
                    changed = changed.changed()
                if changed is not None:
                    for listener in self.listeners:
                        listener(*changed)
            case Connected(reason, accepted=True):
                self._connected(reason)
            case Subscribed():
                self._subscribed()
            case Connected(reason):  # refused: the broker closes, paho tries again
                log("broker_refused", broker=self._broker_name(), reason=reason)
            case Disconnected(reason):
                log("broker_lost", reason=reason)
                sd_notify(f"STATUS=broker lost, reconnecting to {self._broker_name()}")
            case Unreachable():  # paho tries again every 1-5 s; the log says so every 30 s at most
                if time.monotonic() - self._unreachable_logged >= 30:
                    self._unreachable_logged = time.monotonic()
                    log("broker_unreachable", broker=self._broker_name(), retrying=True)
            case Call(step, done):
                self._call(step, done, pools, courts)
            case Recheck(court, match):
                self._rechecked((court, match))

    def _call(self, step: Callable[[], Any], done: Future[Any], pools: set[str], courts: set[str]) -> None:
        try:
            affected = step()
        except Exception as err:  # handed back to the caller, who shows it
            done.set_exception(err)
            return
        pools |= set(getattr(affected, "pools", ()))
        courts |= set(getattr(affected, "courts", ()))
        if getattr(affected, "all_courts", False):
            courts |= set(self.plan.courts)
        done.set_result(affected)

    def _connected(self, reason: str) -> None:
        topics = [*p.service_subscriptions(self.plan.id), f"{p.root(self.plan.id)}/court/+/live"]
        # One SUBSCRIBE, so one SUBACK says all are in place (_subscribed): sent from paho's thread, it may
        # reach the broker after a table's message, which the broker would drop for want of a subscriber.
        self.client.subscribe([(f"$share/{self.group}/{t}" if self.group else t, 1) for t in topics])
        log("broker_connected", tournament=self.plan.id, broker=self._broker_name(),
            reason=reason, shared=self.group)
        # The retained tables and schedules may have been lost with a broker that restarted.
        self.publishing.changes({pool.name for pool in self.plan.pools}, set(self.plan.courts), since=self._oldest)
        # Another instance may have stored results while this one's watch was away with the broker: the pages read
        # everything again (publishing tells them nothing, what it publishes being what is stored).
        for listener in self.listeners:
            listener(set(), set())
        sd_notify(f"STATUS=serving {self.plan.id}")

    def _subscribed(self) -> None:
        if not self.ready.is_set():
            self.ready.set()
            log("server_ready", tournament=self.plan.id)

    def _broker_name(self) -> str:
        return f"{self.address.host}:{self.address.port}"

    def _messages(self, batch: list[tuple[str, bytes]], pools: set[str], courts: set[str]) -> None:
        """Ingest a batch in one transaction; acks, errors and logs follow its commit.

        A refused message writes nothing, so the others of its batch go on; if the transaction fails
        (a database error), each message is tried on its own so one bad message cannot hold up others.
        """
        now = datetime.now(UTC)
        parsed: list[tuple[str, p.Message]] = []
        for topic, raw in batch:
            if p.from_older_table(topic):
                self._refuse(topic, None, p.OLDER_TABLE, now)
                self.client.publish(*p.older_table_refusal(topic, id=new_id()), qos=1)
                continue
            try:
                parsed.append((topic, p.parse(raw, topic=topic)))
            except CourtsideError as err:
                self._refuse(topic, None, str(err), now)
        if not parsed:
            return
        try:
            with self.store.session.begin() as s:
                beside_the_desk(s)
                outs = []
                fixtures = fixtures_of(s, self.store)
                fixtures.prefetch_results(s, [m.match for _, m in parsed if m.type == "result" and m.match])
                known = [f for f in (fixtures.get(m.match) for _, m in parsed
                                     if m.type in ("event", "result") and m.match) if f is not None]
                self.store.matches.prefetch(s, [(f.match_id, f.kind, f.round) for f in known])
                fixtures.prefetch_played(s, [f.stage for _, m in parsed if m.type == "result" and m.match
                                             and (f := fixtures.get(m.match)) is not None])
                by_index: dict[int, Outcome] = {}
                for i in sorted(range(len(parsed)), key=lambda i: _lock_order(parsed[i][1], i)):
                    by_index[i] = ingest(self.store, s, parsed[i][1], now, fixtures)
                heard: dict[str, tuple[str, str | None]] = {}
                rows: list[dict[str, Any]] = []
                for i, (topic, m) in enumerate(parsed):  # as they came: a court's last message is the one it sent last
                    out = by_index[i]
                    if out.status != "refused":
                        rows.extend(self._log_rows(topic, m, out, now))
                        if m.court is not None:
                            heard[m.court] = (m.type, m.match)
                    outs.append(out)
                touch(s, heard, now)
                log_messages(s, rows)  # one statement for the whole batch's log
        except Exception as err:
            self.store.matches.clear()  # it may hold events of the transaction that failed
            if len(parsed) == 1:
                raise
            log("batch_retried", size=len(parsed), reason=f"{type(err).__name__}: {err}"[:300])
            for topic, m in parsed:
                try:
                    self._messages([(topic, p.encode(m))], pools, courts)
                except Exception as one:  # a database error: not acked, the table sends it again
                    log("ingest_failed", topic=topic, reason=f"{type(one).__name__}: {one}"[:500])
            return
        lines: list[str] = []
        for (topic, m), out in zip(parsed, outs, strict=True):
            self._after(topic, m, out, now, pools, courts, lines)
        log_lines(lines)

    def _after(self, topic: str, m: p.Message, out: Outcome, now: datetime, pools: set[str],
               courts: set[str], lines: list[str]) -> None:
        self.counts[out.status] = self.counts.get(out.status, 0) + 1
        if m.type == "result" and self.group is not None:
            self._recheck(topic, m, waiting=out.status == "waiting")
        if out.status == "refused":
            self._refuse(topic, m, out.reason, now)
            return
        # The pages first, then the table: a page read once the table has its ack or error (a test, an organiser
        # told by the officials) shows what it acknowledges, not the snapshot from before it.
        self._tell_pages(m, out)
        if out.ack is not None and m.court and m.match and m.seq:
            of, through = out.ack
            ack = p.ack_message(id=new_id(), court=m.court, match=m.match, seq=m.seq, of=of,  # type: ignore[arg-type]
                                through=through)
            # QoS 0: an ack lost with a connection costs nothing, the table sends again whatever stays unacked
            # (firmware.link.RESEND_S) and the same message is acked again; QoS 1 would add a PUBACK and the
            # client's in-flight bookkeeping to every message the service takes.
            self.client.publish(p.court_topic(self.plan.id, m.court, "ack"), p.encode(ack), qos=0)
            if of == "event":  # the events its result waits for may be split between the instances, this one last
                self._read_again(Acked(m.court, m.match, of))
        if isinstance(m.body, PresencePayload) and m.court and m.body.state == "online":
            self._tell_held(m.court)
        if out.error:
            self._error(out.reason, topic, m, conflict=out.status == "conflict")
        if m.type == "result" or out.status in ("conflict", "waiting"):
            lines.append(line("message", status=out.status, type=m.type, court=m.court, match=m.match, seq=m.seq,
                              reason=out.reason or None))
        pools |= out.pools
        if out.all_courts:
            courts |= set(self.plan.courts)
        elif m.type not in ("live", "presence"):
            courts |= out.courts

    def _tell_pages(self, m: p.Message, out: Outcome) -> None:
        """Tell the pages a live state, a presence or a stored message changed what they show (server.web): a
        stored result with its stage, so they read the results again at once. The tables and schedules published
        after the batch are made of what is stored: the pages are not told again then (another instance's are,
        by its watch, server.watch)."""
        noted, self._noted[m.court or ""] = self._noted.get(m.court or ""), (m.type, m.match)
        if m.type == "live" and self.watch is not None and noted == ("live", m.match):
            # Every instance's watch hears it and tells its pages (server.watch). The first live state after
            # another kind of message (or of another match) changes what the desk says of the court's table,
            # which the pages read from the row just committed: the watch's copy can come before that commit
            # (another connection) or not at all (its subscription is not awaited), so this one tells them too.
            return
        if m.type in ("live", "presence") or out.status in ("stored", "conflict"):
            for listener in self.listeners:
                listener(set(out.pools), {m.court} if m.court else set())

    def _tell_held(self, court: str) -> None:
        """A court's table came online (or this service started and read its retained presence): what the
        database holds of each of its matches, QoS 1. After a restore from an older backup that is less than
        the table's outbox believes, and the table sends the rest again from its journal."""
        for match, through, result in queries.held(self.store, court):
            held = p.held_message(id=new_id(), court=court, match=match, through=through, result=result)
            self.client.publish(p.court_topic(self.plan.id, court, "ack"), p.encode(held), qos=1)

    def _recheck(self, topic: str, m: p.Message, *, waiting: bool) -> None:
        """A result kept waiting for events another instance took (the shared subscription spreads a court's
        messages, a match's events included, over the instances) is read again after each ack of its match's
        events heard since, this instance's or another's (:meth:`_read_again`): each is sent after its commit, and
        which one completes the events its ``through`` cannot say, each instance counting only what it saw
        committed. And after RECHECK_S, then twice as long, up to RECHECKS times, so that its ack and the pages
        never wait for the table's resend."""
        key = (m.court or "", m.match or "")
        kept = self._waiting.get(key)
        if kept is not None:
            kept.queued = False
        if not waiting or m.seq is None:
            if kept is not None:
                kept.timer.cancel()
                del self._waiting[key]
            return
        if kept is None:  # the first time: read again by its timers, or an ack, until it is stored
            self._waiting[key] = Waiting(Received(topic, p.encode(m), time.monotonic()), self._timer(key, 0))

    def _timer(self, key: tuple[str, str], times: int) -> threading.Timer:
        timer = threading.Timer(RECHECK_S * 2**times, self.inbox.put, (Recheck(*key),))  # it only puts it there
        timer.daemon = True
        timer.start()
        return timer

    def _rechecked(self, key: tuple[str, str]) -> None:
        """A waiting result's timer ran: read it again, and start the next timer, up to RECHECKS."""
        kept = self._waiting.get(key)
        if kept is None:
            return
        kept.times += 1
        if kept.times < RECHECKS:
            kept.timer = self._timer(key, kept.times)
        self._read(kept)

    def _read_again(self, acked: Acked) -> None:
        """An ack of a match's events, this instance's or another's, heard after its commit: its result, if it
        waits here, is read again."""
        kept = self._waiting.get((acked.court, acked.match))
        if kept is not None:
            self._read(kept)

    def _read(self, kept: Waiting) -> None:
        if not kept.queued:  # one re-read on the inbox at a time: the acks of a burst of events come together
            kept.queued = True
            self.inbox.put(kept.received)

    def _log_rows(self, topic: str, m: p.Message | None, out: Outcome, now: datetime) -> list[dict[str, Any]]:
        if m is not None and m.type == "live":
            return []  # several a second per court: the live table keeps the last one, the log would drown
        return [{"received_at": now, "topic": topic[:256], "message_id": m.id if m else None,
                 "court": m.court if m else None, "match_id": m.match if m else None, "seq": m.seq if m else None,
                 "type": m.type if m else None, "status": out.status, "reason": out.reason or None}]

    def _refuse(self, topic: str, m: p.Message | None, reason: str, now: datetime) -> None:
        self.counts["refused"] += 1 if m is None else 0
        log("refused", topic=topic, id=m.id if m else None, reason=reason)
        try:
            with self.store.session.begin() as s:
                log_messages(s, self._log_rows(topic, m, Outcome("refused", reason), now))
        except Exception as err:  # the log is a help, never a reason to stop
            log("log_failed", reason=str(err))
        self._error(reason, topic, m)

    def _error(self, reason: str, topic: str, m: p.Message | None, conflict: bool = False) -> None:
        msg = p.error_message(id=new_id(), reason=reason[:2000], topic=topic[:256],
                              court=m.court if m else None, match=m.match if m else None, seq=m.seq if m else None,
                              refused_id=m.id if m else None, conflict=conflict)
        self.client.publish(p.errors_topic(self.plan.id), p.encode(msg), qos=1)


def _lock_order(m: p.Message, arrived: int) -> tuple[int, str, int]:
    """Where a message of a batch is stored. Two instances share each court's messages, and both write the same
    courts' live rows: in the order they came, two batches deadlocked on PostgreSQL, and each was then stored
    message by message. The live states are stored last, by court (each court's in the order they came), as
    :func:`server.ingest.touch` writes the presence after them."""
    return (1, m.court or "", arrived) if m.type == "live" else (0, "", arrived)
