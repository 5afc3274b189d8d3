"""Live viewers through the whole service: a result a table publishes over MQTT, checked, stored and
ranked by the service, to the last of N open pool pages (server-sent events).

    .venv/bin/python -m bench.bench_web_service [--viewers 500] [--interval 1.0] [--server-core 0]

Starts its own Mosquitto on a free loopback port and, in a child process pinned to ONE core,
``courtside server`` for the water-polo example (four pools, 24 pool matches) with its pages
(``start_web``) on another free port. This process, pinned to another core, opens ``--viewers``
SSE streams of all four pool pages, then plays each pool match as a table does: its events, then
its result, one match every ``--interval`` s. A result's delay runs from publishing it to the
instant its update reached the LAST viewer; nothing else changes meanwhile, so the first update
after a result is that result's. Prints p50, p99, max, and how many viewers got each update.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from tests.service_support import played

EXAMPLE = Path(__file__).resolve().parent.parent / "rules" / "examples" / "water-polo.toml"
POOLS = ("A", "B", "C", "D")
MOSQUITTO_CONF = "listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve(http_port: int, broker: str, db: str, core: int) -> None:
    os.sched_setaffinity(0, {core})
    from server.plan import load_plan
    from server.service import Service
    from server.store import Store
    from server.web.serve import start_web

    store = Store.open(db, load_plan(EXAMPLE))
    service = Service(store, broker)
    web = start_web(service, f"127.0.0.1:{http_port}", db, secure_cookies=False)
    try:
        service.run()
    finally:
        web.stop()


async def viewer(port: int, arrivals: list[float], ready: list[int], regions: int) -> None:
    query = "&".join(f"r=pool/{p}" for p in POOLS)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /live?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    await writer.drain()
    seen, tail = 0, b""
    try:
        while chunk := await reader.read(65536):
            now = time.monotonic()
            data = tail + chunk
            count = data.count(b"\nid: ")
            tail = data[-8:]
            for _ in range(count):
                seen += 1
                if seen == regions:
                    ready[0] += 1
                elif seen > regions:
                    arrivals.append(now)
    finally:
        writer.close()


async def run(http_port: int, broker_port: int, viewers: int, interval: float) -> dict[str, float]:
    import paho.mqtt.client as mqtt

    from rules import protocol as p
    from server.plan import load_plan

    plan = load_plan(EXAMPLE)
    arrivals: list[list[float]] = [[] for _ in range(viewers)]
    ready = [0]
    tasks = []
    for i in range(viewers):
        tasks.append(asyncio.create_task(viewer(http_port, arrivals[i], ready, len(POOLS))))
        await asyncio.sleep(0.002)
    deadline = time.monotonic() + 120
    while ready[0] < viewers and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    table = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,  # type: ignore[attr-defined]
                        client_id=f"bench-{uuid.uuid4().hex[:6]}")
    table.connect("127.0.0.1", broker_port)
    table.loop_start()
    published: list[float] = []
    matches = sorted((m for m in plan.fixtures.values() if m.round == "pool"), key=lambda m: m.number)
    for i, m in enumerate(matches):
        court = plan.court_id(m.court)
        events, result = played(plan.rulesets[""], i % 4, (i // 4) % 3)
        for e in events:
            msg = p.event_message(id=uuid.uuid4().hex, court=court, match=str(m.number), event=e)
            table.publish(p.court_topic(plan.id, court, "events"), p.encode(msg), qos=1).wait_for_publish(5)
        await asyncio.sleep(interval / 2)  # the events are stored; only the result changes the pages
        msg = p.result_message(id=uuid.uuid4().hex, court=court, match=str(m.number), seq=events[-1]["seq"],
                               result=result)
        published.append(time.monotonic())
        table.publish(p.court_topic(plan.id, court, "result"), p.encode(msg), qos=1)
        await asyncio.sleep(interval / 2)
    await asyncio.sleep(3)
    table.loop_stop()
    table.disconnect()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    delays, complete = [], 0
    for n, sent in enumerate(published):
        until = published[n + 1] if n + 1 < len(published) else float("inf")
        got = [next((a for a in arr if sent <= a < until), None) for arr in arrivals]
        reached = [a for a in got if a is not None]
        complete += len(reached) == viewers
        if reached:
            delays.append((max(reached) - sent) * 1000)
    delays.sort()
    return {"viewers": viewers, "ready": ready[0], "results": len(published), "complete": complete,
            "p50_ms": statistics.median(delays), "p99_ms": delays[max(0, int(len(delays) * 0.99) - 1)],
            "max_ms": delays[-1]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=500)
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--server-core", type=int, default=0)
    parser.add_argument("--serve", nargs=3, metavar=("HTTP_PORT", "BROKER", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), args.serve[1], args.serve[2], args.server_core)
        return 0
    if not 1 <= args.viewers <= 2000:
        parser.error("--viewers: 1 to 2000 (a bounded load on loopback)")
    cores = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {next((c for c in cores if c != args.server_core), args.server_core)})
    with tempfile.TemporaryDirectory() as tmp:
        broker_port, http_port = free_port(), free_port()
        conf = Path(tmp) / "mosquitto.conf"
        conf.write_text(MOSQUITTO_CONF.format(port=broker_port))
        broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", str(conf)])
        child = subprocess.Popen([sys.executable, "-m", "bench.bench_web_service", "--server-core",
                                  str(args.server_core), "--serve", str(http_port),
                                  f"mqtt://127.0.0.1:{broker_port}", f"sqlite:///{tmp}/courtside.db"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    socket.create_connection(("127.0.0.1", http_port), timeout=0.2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or child.poll() is not None:
                        raise SystemExit("the service did not start") from None
                    time.sleep(0.2)
            time.sleep(1.0)  # the service subscribes once its broker connection is up
            f = asyncio.run(run(http_port, broker_port, args.viewers, args.interval))
        finally:
            child.terminate()
            child.wait(timeout=20)
            broker.terminate()
            broker.wait(timeout=10)
    print(f"{f['viewers']} SSE viewers of the four pool pages ({f['ready']} connected), `courtside server` with its "
          f"pages on 1 core (core {args.server_core}), {f['results']} results over MQTT, one every {args.interval} s")
    print(f"  results that reached every viewer {f['complete']} of {f['results']}")
    print(f"  result published -> last viewer   p50 {f['p50_ms']:.0f} ms, p99 {f['p99_ms']:.0f} ms, "
          f"max {f['max_ms']:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
