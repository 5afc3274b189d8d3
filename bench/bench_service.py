"""Benchmark of the standings service (docs/benchmarks.md, "Service").

Starts its own Mosquitto (/usr/sbin/mosquitto, free port, no persistence) and `courtside server` as its own
process on a temporary SQLite file (or --db URL), with a generated tournament of P pools of 6 teams on one
court per two pools (--courts to say otherwise).

1. Throughput: every pool match but the last --latency is published as a table sends it (its events, then
   its result), as fast as one publisher can, QoS 1: first every event, then every result. A bare paho
   subscriber on the same topics in the same run counts what the broker delivers. For each phase: the
   service's rate, messages stored and acknowledged after commit per second; for results also the time
   until every pool's table shows all its results (ranked and published); and the CPU time the service,
   the broker and the bench's own clients used.
2. Latency: once the burst's tables and schedules are out, for matches whose events are already stored,
   the time from publishing the match's last event (the deciding goal entered at the table) plus its
   result, to the new pool table arriving at a subscriber: p50 and p99.

    .venv/bin/python bench/bench_service.py [--pools 64] [--latency 100] [--db URL] [--keep-log F] [--profile F]
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import paho.mqtt.client as mqtt

from rules import protocol as p
from rules.match import ClockStarted, Goal, Match, PeriodAdvanced, Side, event_to_dict
from rules.result import result_payload
from rules.ruleset import load_ruleset
from server.plan import load_plan

RULES = load_ruleset("indoor-hockey")


def tournament_file(folder: Path, pools: int, courts: int = 4) -> Path:
    names = [chr(ord("A") + i) if i < 26 else f"P{i}" for i in range(pools)]
    court_names = ", ".join(f'"C{c}"' for c in range(1, courts + 1))
    lines = ['name = "bench"', 'ruleset = "indoor-hockey"',
             "final_ranking = [" + ", ".join(f'"{k}{n}"' for n in names for k in range(1, 7)) + "]",
             "", "[schedule]", 'start = "2026-01-16T08:00"', f"courts = [{court_names}]", 'slot = "55:00"']
    for n in names:
        teams = ", ".join(f'"{n}{k}"' for k in range(1, 7))
        lines += ["", "[[pools]]", f'name = "{n}"', f"teams = [{teams}]"]
        for k in range(1, 7):
            lines += ["", "[[teams]]", f'name = "{n}{k}"', f'club = "{n}{k}"']
    path = folder / "bench.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def played(number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    m = Match(RULES)
    at = 0
    m.apply(ClockStarted(at=0))
    sides: tuple[tuple[Side, int], ...] = (("home", number % 4), ("away", (number * 3) % 5))
    for side, goals in sides:
        for _ in range(goals):
            at += 1000
            m.apply(Goal(at=at, team=side))
    while m.result() is None:
        at += 1000
        s = m.state_at(at)
        m.apply(PeriodAdvanced(at=at) if (s.phase == "play" and s.running) or s.phase == "interval"
                else ClockStarted(at=at))
    r = m.result()
    assert r is not None
    return [event_to_dict(e) for e in m.events], result_payload(r)


def start_broker(folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    conf = folder / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                    "max_queued_messages 1000000\nmax_inflight_messages 1000\nset_tcp_nodelay true\n")
    proc = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", str(conf)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, port
        time.sleep(0.02)
    raise RuntimeError("mosquitto did not start")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used (Linux /proc): a figure the machine's other load disturbs
    far less than wall-clock rates."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def client(port: int, name: str) -> mqtt.Client:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{name}-{uuid.uuid4().hex[:6]}")  # type: ignore[attr-defined]
    c.max_inflight_messages_set(1000)
    c.max_queued_messages_set(0)
    c.connect("127.0.0.1", port)
    c.loop_start()
    return c


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pools", type=int, default=16)
    ap.add_argument("--courts", type=int, help="courts (default: one per two pools, at least 4: 30 matches a court)")
    ap.add_argument("--latency", type=int, default=200, help="matches timed for the latency figure")
    ap.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    ap.add_argument("--keep-log", help="copy the server's log (one line per event, key=value) here")
    ap.add_argument("--profile", help="run the server under cProfile and write its stats here (pstats file)")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-service-"))
    broker, port = start_broker(folder)
    try:
        courts = args.courts or max(4, args.pools // 2)
        source = tournament_file(folder, args.pools, courts)
        plan = load_plan(source)
        # The service in its own process, as in production (in this one it would share the GIL with the
        # bench's own four MQTT clients).
        log = folder / "server.log"
        server = subprocess.Popen(
            [sys.executable, *(["-m", "cProfile", "-o", str(Path(args.profile).resolve())] if args.profile else []),
             "-m", "courtside", "server", "--tournament", str(source), "--broker",
             f"mqtt://127.0.0.1:{port}", "--db", args.db or f"sqlite:///{folder / 'bench.db'}", "--group", ""],
            stdout=subprocess.DEVNULL, stderr=log.open("wb"), cwd=Path(__file__).resolve().parent.parent)
        while b"event=server_ready" not in log.read_bytes():
            assert server.poll() is None, log.read_text()
            time.sleep(0.05)
        t = plan.id
        # Matches in schedule order; the last ``latency`` are kept back for the latency run.
        numbers = sorted(plan.fixtures, key=int)
        timed = numbers[-args.latency:]
        bulk = numbers[:-args.latency]
        events_out: list[tuple[str, bytes]] = []
        results_out: list[tuple[str, bytes]] = []
        for n in bulk:
            court = plan.court_id(plan.fixtures[n].court)
            events, result = played(int(n))
            events_out += [(p.court_topic(t, court, "events"),
                            p.encode(p.event_message(id=uuid.uuid4().hex, court=court, match=n, event=e)))
                           for e in events]
            results_out.append((p.court_topic(t, court, "result"), p.encode(p.result_message(
                id=uuid.uuid4().hex, court=court, match=n, seq=events[-1]["seq"], result=result))))
        # The bare subscriber: same broker, same topics, same run.
        bare_times: list[float] = []
        bare = client(port, "bare")
        bare.on_message = lambda _c, _u, _m: bare_times.append(time.perf_counter())
        bare.subscribe([(f"{p.root(t)}/court/+/events", 1), (f"{p.root(t)}/court/+/result", 1)])
        acks: list[float] = []
        watcher = client(port, "acks")
        watcher.on_message = lambda _c, _u, _m: acks.append(time.perf_counter())
        watcher.subscribe(f"{p.root(t)}/court/+/ack", 1)
        # Every pool table the service publishes, decoded: when has each pool's table shown all its results?
        tables: queue.Queue[float] = queue.Queue()
        shown: list[tuple[float, str, int]] = []

        def on_table(_c: Any, _u: Any, m: mqtt.MQTTMessage) -> None:
            now = time.perf_counter()
            payload = p.parse(bytes(m.payload)).payload
            shown.append((now, payload["pool"], payload["played"]))
            tables.put(now)

        schedules: list[float] = []
        looker = client(port, "tables")
        looker.on_message = on_table
        looker.message_callback_add(f"{p.root(t)}/court/+/schedule",
                                    lambda _c, _u, _m: schedules.append(time.perf_counter()))
        looker.subscribe([(f"{p.root(t)}/pool/+/table", 1), (f"{p.root(t)}/court/+/schedule", 1)])
        time.sleep(0.5)
        pub = client(port, "pub")
        bulk_played: dict[str, int] = {}
        for n in bulk:
            bulk_played[plan.fixtures[n].stage] = bulk_played.get(plan.fixtures[n].stage, 0) + 1

        def phase(name: str, messages: list[tuple[str, bytes]]) -> tuple[float, float]:
            """Publish ``messages``; the instant publishing started and the bare subscriber's rate."""
            bare_times.clear()
            acks.clear()
            shown.clear()
            cpu = cpu_seconds(server.pid)
            others = cpu_seconds(broker.pid), time.process_time()
            start = time.perf_counter()
            for topic, raw in messages:
                pub.publish(topic, raw, qos=1)
            deadline = time.monotonic() + 600
            while (len(acks) < len(messages) or len(bare_times) < len(messages)) and time.monotonic() < deadline:
                time.sleep(0.02)
            bare_rate = len(bare_times) / (bare_times[-1] - start)
            rate = len(acks) / (acks[-1] - start)
            time.sleep(0.3)  # the tables and schedules published after the last ack
            used = cpu_seconds(server.pid) - cpu
            print(f"    CPU: broker {cpu_seconds(broker.pid) - others[0]:.2f} s, bench's clients "
                  f"{time.process_time() - others[1]:.2f} s, service {used:.2f} s")
            print(f"  {name}: {len(messages)} published by one client (QoS 1): bare paho subscriber "
                  f"{bare_rate:,.0f}/s; service {rate:,.0f}/s acked after commit = {rate / bare_rate:.0%}; "
                  f"service CPU {used * 1000 / len(messages):.2f} ms per message")
            return start, bare_rate

        print(f"throughput, {len(bulk)} matches of {args.pools} pools of 6 on {courts} courts:")
        phase("events (checked, stored once per match and seq)", events_out)
        start, _ = phase("results (each replayed from its stored events, stored, its pool re-ranked, "
                         "table and schedule published)", results_out)
        # Ranked: every pool's table received showing all of its results of this phase.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            done: dict[str, float] = {}
            for at, pool, count in list(shown):
                if count >= bulk_played.get(pool, 0) and pool not in done:
                    done[pool] = at
            if len(done) >= len(bulk_played):
                ranked = max(done.values()) - start
                rate = len(results_out) / ranked
                print(f"  results ranked: every pool's table showing all its results received after "
                      f"{ranked * 1000:,.0f} ms = {rate:,.0f} results/s (goal: at least 2,000/s: "
                      f"{'met' if rate >= 2000 else 'NOT met'})")
                break
            time.sleep(0.05)
        else:
            print("  results ranked: some pool's table never showed all its results within 60 s")
        # Latency: the deciding goal + result of a match whose earlier events are stored.
        # Once the burst's schedules are out too (nothing for 0.5 s): a goal in normal play, not behind a burst.
        while time.perf_counter() - max([*schedules, *(at for at, _, _ in shown), 0.0]) < 0.5:
            time.sleep(0.05)
        acks.clear()
        while not tables.empty():
            tables.get()
        lat: list[float] = []
        for n in timed:
            court = plan.court_id(plan.fixtures[n].court)
            events, result = played(int(n))
            before = len(acks)  # read first: a fast service acks some before the publishing loop ends
            for e in events[:-1]:
                pub.publish(p.court_topic(t, court, "events"),
                            p.encode(p.event_message(id=uuid.uuid4().hex, court=court, match=n, event=e)), qos=1)
            deadline = time.monotonic() + 60
            while len(acks) < before + len(events) - 1:
                assert time.monotonic() < deadline, f"match {n}: {len(acks) - before} of {len(events) - 1} acks"
                time.sleep(0.001)
            time.sleep(0.005)
            while not tables.empty():
                tables.get()
            t0 = time.perf_counter()
            pub.publish(p.court_topic(t, court, "events"), p.encode(p.event_message(
                id=uuid.uuid4().hex, court=court, match=n, event=events[-1])), qos=1)
            pub.publish(p.court_topic(t, court, "result"), p.encode(p.result_message(
                id=uuid.uuid4().hex, court=court, match=n, seq=events[-1]["seq"], result=result)), qos=1)
            lat.append((tables.get(timeout=10) - t0) * 1000)
        lat.sort()
        p50 = statistics.median(lat)
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
        print(f"latency: last event + result published -> new pool table received, {len(lat)} matches: "
              f"p50 {p50:.1f} ms, p99 {p99:.1f} ms (goal: p99 under 50 ms: {'met' if p99 < 50 else 'NOT met'})")
        server.send_signal(signal.SIGTERM)
        server.wait(30)
        if args.keep_log:
            shutil.copy(log, args.keep_log)
        for c in (bare, watcher, looker, pub):
            c.loop_stop()
            c.disconnect()
    finally:
        os.kill(broker.pid, signal.SIGTERM)
        broker.wait()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
