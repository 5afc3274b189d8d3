"""Live viewers: how long from a result to the last of N open pages receiving it (server-sent events).

    .venv/bin/python -m bench.bench_web [--viewers 500] [--results 60] [--interval 0.5] [--server-core 0]

The web app over the real service (tests/web_day.py: Mosquitto, the service on a SQLite file and its
ServiceBackend, the sample tournament day played through tables) runs in a child process pinned to ONE
core, with its broker; this process, pinned to another, opens ``--viewers`` SSE streams of the pool page
to 127.0.0.1 only, then tells the child to enter ``--results`` corrected results of that pool at the
desk (through the service's loop, which stores, ranks and republishes them), one every ``--interval`` s.
After each correction the child notes the pool region's digest, which every viewer's stream carries as the
event id of the update that shows it. The delay of a result is from the instant it was handed to the
backend to the instant the LAST viewer got that update or a later one (a page may skip to the newest;
CLOCK_MONOTONIC is shared by both processes). Prints p50,
p99 and max, and how many viewers got every update.
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

EVENT_ID = re.compile(rb"\nid: ([0-9a-f]+)\n")  # the pool region's digest (server.web.fanout.digest)
POOL = "A"


# The server side (child process) --------------------------------------------------------------
def serve(port: int, core: int) -> None:
    os.sched_setaffinity(0, {core})
    import uvicorn

    from rules.standings import MatchResult
    from server.desk_commands import CorrectResult
    from server.web import create_app
    from server.web.fanout import digest
    from tests.web_day import sample_day

    with sample_day() as day:
        backend = day.backend
        app = create_app(backend, secure_cookies=False)
        site = app.state.site
        pool_matches = [m for m in day.view().matches if m.stage == POOL and m.recorded is not None][:4]

        def feed() -> None:
            order = sys.stdin.readline().split()  # "go COUNT INTERVAL", sent once every viewer is connected
            count, interval = int(order[1]), float(order[2])
            published: list[tuple[str, float]] = []
            for i in range(count):
                m = pool_matches[i % len(pool_matches)]
                result = MatchResult(pool=POOL, home=m.home, away=m.away, home_goals=i % 7,
                                     away_goals=(i // 7) % 5)
                t = time.monotonic()
                backend.submit(CorrectResult(who="bench", why="the score sheet", number=m.number, result=result,
                                             confirmed=True))
                published.append((digest(site.region(site.view(), f"pool/{POOL}")), t))
                time.sleep(interval)
            print(json.dumps(published), flush=True)

        threading.Thread(target=feed, daemon=True).start()
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off", backlog=2048)


# The load client (this process) ----------------------------------------------------------------
async def viewer(port: int, number: int, seen: list[tuple[str, float]], ready: asyncio.Event, counter: list[int],
                 n: int) -> None:
    """One page's stream; ``seen``: each update's event id and when it came. Sixteen viewers share a loopback
    address, as a family's phones might: the pages allow 32 live streams per address."""
    group = number // 16
    reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                   local_addr=(f"127.20.{group // 250}.{group % 250 + 1}", 0))
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
                shown = match.group(1).decode()
                if first:
                    first = False
                    counter[0] += 1
                    if counter[0] == n:
                        ready.set()
                    continue  # the page's state on connecting, not an update
                seen.append((shown, now))
                counter[1] += 1
            buffer = buffer[-64:]
    finally:
        writer.close()


async def load(
    port: int, viewers: int, results: int, interval: float, child: subprocess.Popen[str]
) -> dict[str, float]:
    seen: list[list[tuple[str, float]]] = [[] for _ in range(viewers)]
    ready = asyncio.Event()
    counter = [0, 0]
    tasks = []
    for i in range(viewers):
        tasks.append(asyncio.create_task(viewer(port, i, seen[i], ready, counter, viewers)))
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
    # A viewer has a result once it got that version or a later one (a quick page may skip to the newest).
    order = {d: i for i, (d, _) in enumerate(published)}
    reached = [(t, [at for page in seen
                    if (at := next((a for d, a in page if order.get(d, -1) >= i), None)) is not None])
               for i, (_, t) in enumerate(published)]
    delays = sorted((max(ats) - t) * 1000 for t, ats in reached if len(ats) == viewers)
    missing = sum(1 for _, ats in reached if len(ats) < viewers)
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
    print(f"  results a viewer missed {figures['missing_results']}")
    print(f"  result -> last viewer p50 {figures['p50_ms']:.0f} ms, p99 {figures['p99_ms']:.0f} ms, "
          f"max {figures['max_ms']:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
