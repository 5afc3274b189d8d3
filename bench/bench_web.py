"""Live viewers: how long from a result to the last of N open pages receiving it (server-sent events).

    .venv/bin/python -m bench.bench_web [--viewers 500] [--results 60] [--interval 0.5] [--server-core 0]

The web app (uvicorn, the in-memory backend with the sample tournament day) runs in a child
process pinned to ONE core; this process, pinned to another, opens ``--viewers`` SSE streams
of the pool page to 127.0.0.1 only, then tells the child to publish ``--results`` corrected
results of that pool, one every ``--interval`` s. Each publication gets a new version; every
viewer's stream carries it as the event id. The delay of a result is from the instant it was
handed to the backend to the instant its event reached the LAST viewer (CLOCK_MONOTONIC is
shared by both processes). Prints p50, p99 and max, and how many viewers got every update.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from datetime import datetime

EVENT_ID = re.compile(rb"\nid: (\d+)\n")
POOL = "A"


# The server side (child process) --------------------------------------------------------------
def serve(port: int, core: int) -> None:
    os.sched_setaffinity(0, {core})
    import uvicorn

    from rules.standings import MatchResult
    from standings.web import create_app
    from standings.web.sample import sample_backend

    backend = sample_backend(lambda: datetime(2026, 5, 16, 13, 35))
    app = create_app(backend, secure_cookies=False)
    pool_matches = [m for m in backend.data().schedule.matches if m.stage == POOL][:4]

    def feed() -> None:
        order = sys.stdin.readline().split()  # "go COUNT INTERVAL", sent once every viewer is connected
        count, interval = int(order[1]), float(order[2])
        published: list[tuple[int, float]] = []
        for i in range(count):
            m = pool_matches[i % len(pool_matches)]
            result = MatchResult(pool=POOL, home=m.home, away=m.away, home_goals=i % 7, away_goals=(i // 7) % 5)
            t = time.monotonic()
            backend.publish_result(m.number, result)
            published.append((backend.data().version, t))
            time.sleep(interval)
        print(json.dumps(published), flush=True)

    threading.Thread(target=feed, daemon=True).start()
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off", backlog=2048)


# The load client (this process) ----------------------------------------------------------------
async def viewer(port: int, seen: dict[int, float], ready: asyncio.Event, counter: list[int], n: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /live?r=pool/{POOL} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    buffer = b""
    first = True
    try:
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            now = time.monotonic()
            buffer += chunk
            for match in EVENT_ID.finditer(buffer):
                version = int(match.group(1))
                if first:
                    first = False
                    counter[0] += 1
                    if counter[0] == n:
                        ready.set()
                    continue  # the page's state on connecting, not an update
                if now > seen.get(version, 0.0):
                    seen[version] = now
                counter[1] += 1
            buffer = buffer[-64:]
    finally:
        writer.close()


async def load(
    port: int, viewers: int, results: int, interval: float, child: subprocess.Popen[str]
) -> dict[str, float]:
    seen: dict[int, float] = {}
    ready = asyncio.Event()
    counter = [0, 0]
    tasks = []
    for _ in range(viewers):
        tasks.append(asyncio.create_task(viewer(port, seen, ready, counter, viewers)))
        await asyncio.sleep(0.002)  # a crowd arriving, not a SYN flood
    await asyncio.wait_for(ready.wait(), 120)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(f"go {results} {interval}\n")
    child.stdin.flush()
    line = await asyncio.get_running_loop().run_in_executor(None, child.stdout.readline)
    published = json.loads(line)
    await asyncio.sleep(2.0)  # let the last update reach everyone
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    delays = sorted((seen[v] - t) * 1000 for v, t in published if v in seen)
    missing = sum(1 for v, _ in published if v not in seen)
    return {
        "viewers": viewers, "results": len(published), "delivered_events": counter[1],
        "expected_events": viewers * len(published), "missing_results": missing,
        "p50_ms": statistics.median(delays), "p99_ms": delays[max(0, int(len(delays) * 0.99) - 1)],
        "max_ms": delays[-1],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=500)
    parser.add_argument("--results", type=int, default=60)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--server-core", type=int, default=0)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.server_core)
        return 0
    if not 1 <= args.viewers <= 2000:
        parser.error("--viewers: 1 to 2000 (a bounded load on loopback)")
    cores = sorted(os.sched_getaffinity(0))
    client_core = next((c for c in cores if c != args.server_core), args.server_core)
    os.sched_setaffinity(0, {client_core})
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    child = subprocess.Popen(
        [sys.executable, "-m", "bench.bench_web", "--serve", str(port), "--server-core", str(args.server_core)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or child.poll() is not None:
                    raise SystemExit("the web server did not start") from None
                time.sleep(0.1)
        figures = asyncio.run(load(port, args.viewers, args.results, args.interval, child))
    finally:
        child.terminate()
        child.wait(timeout=10)
    print(f"{figures['viewers']} SSE viewers of one pool page, server on 1 core (core {args.server_core}), "
          f"{figures['results']} results, one every {args.interval} s")
    print(f"  events delivered      {figures['delivered_events']} of {figures['expected_events']}")
    print(f"  results missed by all {figures['missing_results']}")
    print(f"  result -> last viewer p50 {figures['p50_ms']:.0f} ms, p99 {figures['p99_ms']:.0f} ms, "
          f"max {figures['max_ms']:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
