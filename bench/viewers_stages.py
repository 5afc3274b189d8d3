"""A result's way from a table to its pool's phones, stage by stage (``bench_viewers --stages``): where the time
between a table's publish and the last phone's update goes.

In each instance, :func:`install` writes a ``stage`` line to the instance's log (stderr) at each step, with the
machine's monotonic clock, which every process on it shares:

- ``received``: the service's paho thread took a result off its connection;
- ``taken``: the service's loop took it from its inbox into a batch;
- ``stored``: the batch committed (and when the pages were told, after it: server.service);
- ``round``: a round of the pages' fan-out that handed out a pool's region (its start, the end of its snapshot's
  read, its end: server.web.fanout);
- ``gc``: a full collection of the garbage collector (its CPU ms), which holds up every thread of the instance.

:func:`breakdown` matches them with the results the benchmark's ear heard and the instant the last phone had each.
The lines cost the instance a little; the figures of a run with ``--stages`` are for this breakdown, not the
benchmark's own.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import threading
import time
from typing import Any

from sqlalchemy import event

PREFIX = "stage "


def _put(kind: str, **fields: Any) -> None:
    """One line in one write: the instances share their log file, and a line written in parts can be split."""
    sys.stderr.flush()
    os.write(sys.stderr.fileno(), (PREFIX + json.dumps({"kind": kind, "pid": os.getpid(), **fields}) + "\n").encode())


def _match_of(payload: bytes) -> str:
    try:
        return str(json.loads(payload).get("match"))
    except (ValueError, AttributeError):
        return ""


def install(service: Any, fanout: Any, site: Any) -> None:
    """Wrap the instance's steps on a result's way (its service, its fan-out and the site the fan-out reads)."""
    on_message = service.client.on_message

    def received(client: Any, userdata: Any, message: Any) -> None:
        if message.topic.endswith("/result"):
            _put("received", match=_match_of(message.payload), at=time.monotonic())
        on_message(client, userdata, message)

    service.client.on_message = received
    messages = service._messages

    def taken(batch: list[tuple[str, bytes]], pools: set[str], courts: set[str]) -> None:
        at = time.monotonic()
        for topic, raw in batch:
            if topic.endswith("/result"):
                _put("taken", match=_match_of(raw), at=at)
        messages(batch, pools, courts)

    service._messages = taken
    commit = threading.local()  # the loop's last commit: its batch's messages are told after it, one by one
    event.listen(service.store.session, "after_commit", lambda _s: setattr(commit, "at", time.monotonic()))
    tell_pages = service._tell_pages

    def told(m: Any, out: Any) -> None:
        if m.type == "result" and out.status == "stored":
            _put("stored", match=m.match, at=commit.at, told=time.monotonic())
        tell_pages(m, out)

    service._tell_pages = told
    snapshot, read = site.snapshot, [0.0]

    def timed_snapshot() -> None:
        snapshot()
        read[0] = time.monotonic()

    site.snapshot = timed_snapshot
    round_ = fanout._round

    async def timed_round(now: float | None = None) -> None:
        start = time.monotonic()
        before = {name: d for name, d in fanout.last.items() if name.startswith("pool/")}
        await round_(now)
        pools = [name[5:] for name, d in fanout.last.items() if name.startswith("pool/") and before.get(name) != d]
        if pools:
            _put("round", pools=pools, start=start, read=read[0], end=time.monotonic())

    fanout._round = timed_round
    cpu = [0.0]

    def collected(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            cpu[0] = time.thread_time()
        elif info["generation"] == 2:
            _put("gc", cpu_ms=(time.thread_time() - cpu[0]) * 1000)

    gc.callbacks.append(collected)


STAGES = ("to the instance", "in its inbox", "stored (its batch committed)", "the pages told", "to its round",
          "the round's snapshot", "rendered and written", "the other instance's round ended", "to the last phone",
          "in all")


def breakdown(log: str, results: list[tuple[str, str, float, float]]) -> dict[str, Any]:
    """Each stage's p50 and p99 (ms) over ``results`` (match, pool, heard on the broker, the last phone's update;
    a result no phone showed is left out), and each instance's full collections (count, the worst's CPU ms)."""
    lines = [json.loads(text[len(PREFIX):]) for text in log.splitlines() if text.startswith(PREFIX)]
    first: dict[tuple[str, str], dict[str, Any]] = {}
    rounds: list[dict[str, Any]] = []
    collections: dict[int, list[float]] = {}
    for item in lines:
        if item["kind"] == "round":
            rounds.append(item)
        elif item["kind"] == "gc":
            collections.setdefault(item["pid"], []).append(item["cpu_ms"])
        else:
            first.setdefault((item["kind"], item["match"]), item)
    spans: dict[str, list[float]] = {stage: [] for stage in STAGES}
    for match, pool, heard, shown in results:
        stored = first.get(("stored", match))
        if not shown or stored is None:
            continue
        committed = stored["at"]
        received, taken = first.get(("received", match)), first.get(("taken", match))
        if received is not None and taken is not None:
            spans["to the instance"].append(received["at"] - heard)
            spans["in its inbox"].append(taken["at"] - received["at"])
            spans["stored (its batch committed)"].append(committed - taken["at"])
        spans["the pages told"].append(stored["told"] - committed)
        # The commit is seen by the database's other connections before the loop's clock is read after it: under a
        # busy lock, another thread's round can read the result, render and write it first. So a round is the
        # result's if it handed out the pool's region with its snapshot read after the batch was taken.
        since = taken["at"] if taken is not None else committed
        ends = []
        for pid in {r["pid"] for r in rounds}:
            own = next((r for r in rounds if r["pid"] == pid and r["read"] >= since and pool in r["pools"]), None)
            if own is None:
                continue
            ends.append(own["end"])
            if pid == stored["pid"]:
                spans["to its round"].append(max(0.0, own["start"] - committed))
                spans["the round's snapshot"].append(max(0.0, own["read"] - max(own["start"], committed)))
                spans["rendered and written"].append(own["end"] - own["read"])
            else:
                spans["the other instance's round ended"].append(own["end"] - committed)
        if ends:
            spans["to the last phone"].append(shown - max(ends))
        spans["in all"].append(shown - heard)
    return {"stages": {stage: (percentile(d, 0.5) * 1000, percentile(d, 0.99) * 1000, len(d))
                       for stage, d in spans.items()},
            "full_collections": {pid: (len(ms), max(ms)) for pid, ms in collections.items()}}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(len(ordered) * q + 0.5) - 1))] if ordered else float("nan")


def report(figures: dict[str, Any]) -> str:
    rows = [f"  {stage:<34} p50 {p50:7.1f} ms  p99 {p99:7.1f} ms  ({n} results)"
            for stage, (p50, p99, n) in figures["stages"].items()]
    collections = "; ".join(f"{count}, the worst {worst:.0f} ms of CPU" for count, worst in
                            figures["full_collections"].values())
    return "\n".join(["  a result's way, stage by stage (server clocks; phones' last update):", *rows,
                      f"  full collections per instance: {collections or 'none'}"])
