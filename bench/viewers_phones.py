"""The viewers of bench_viewers: each phone's live stream as cheap as a client can be (the clients share the
cores with what they measure), run in client processes of at most 5,000 streams (``--client SPEC OUT``), and what
each stream's events show: a light table's token, a real table's board, a pool's recorded matches.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
import ssl
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import uvloop

from bench.viewers_tables import LIGHT, token_base

PER_ADDRESS = 16  # streams per loopback address (the service allows 32)
TOKEN = re.compile(rb'data-ms=\\"(\d+)\\"')
SCORES = b'<td class=\\"num\\"><b>'  # one per recorded match in a pool region's table
RETRY = 1.0  # seconds before a dropped stream reconnects (the pages' `retry: 1000`)
LOAD_TIMEOUT = 10.0  # seconds for a page load, or a stream's connection and handshake, before it is tried again


def source_address(viewer: int) -> str:
    n = viewer // PER_ADDRESS
    return f"127.{10 + n // 60000}.{(n // 250) % 240}.{n % 250 + 1}"


@dataclass
class Viewer:
    number: int
    region: str
    instance: int
    instances: int
    last_id: str = ""
    live: dict[int, int] = field(default_factory=dict)  # court index -> the newest token's count k
    real: dict[str, int] = field(default_factory=dict)  # a real table's court -> the clock its board showed last
    results: int = 0  # recorded matches the pool region shows
    dropped_at: float | None = None


@dataclass
class Tally:
    live: dict[str, list[float]] = field(default_factory=dict)  # "c,k" -> [court page viewers, last arrival]
    home: dict[str, list[float]] = field(default_factory=dict)  # the same on the home page (a summary)
    results: dict[str, list[float]] = field(default_factory=dict)  # "pool,n" -> [viewers, last arrival]
    real: dict[str, list[float]] = field(default_factory=dict)  # "court,clock ms" -> [viewers, last arrival]
    moves: list[float] = field(default_factory=list)  # seconds from a drop to the next stream's first byte
    final: Counter[str] = field(default_factory=Counter)  # "region|court:k ... results" -> viewers
    connected: int = 0
    refused: int = 0
    refusals: Counter[str] = field(default_factory=Counter)  # status line -> streams refused with it
    frames: int = 0  # reads that carried at least one whole event

    def got(self, table: dict[str, list[float]], key: str, at: float) -> None:
        entry = table.setdefault(key, [0, 0.0])
        entry[0] += 1
        entry[1] = max(entry[1], at)


def take(v: Viewer, events: bytes, at: float, tally: Tally, courts: int, real: frozenset[str] = frozenset()) -> None:
    """What whole events (one read's worth) show: the newest event id, and the states or results they carry."""
    line = events.rfind(b"\nid: ")
    if line >= 0:
        v.last_id = events[line + 5:events.index(b"\n", line + 5)].decode()
    if v.region.startswith("pool/"):
        shown = events[events.rfind(b"event: region"):].count(SCORES)  # the newest event's recorded matches
        for n in range(v.results + 1, shown + 1):
            tally.got(tally.results, f"{v.region[5:]},{n}", at)
        v.results = max(v.results, shown)
        return
    base = token_base(courts)
    into = tally.home if v.region == "courts" else tally.live
    for raw in TOKEN.findall(events):
        if int(raw) < LIGHT:
            continue  # a real table's board, or a penalty's time: below
        k, c = divmod(int(raw) - LIGHT, base)
        if c >= courts or k == 0:
            continue
        for j in range(v.live.get(c, 0) + 1, k + 1):
            tally.got(into, f"{c},{j}", at)
        v.live[c] = max(v.live.get(c, 0), k)
    for court, mark in boards(v.region, real):
        at_mark = events.rfind(mark)  # the newest event's
        if at_mark < 0:
            continue
        start = events.find(b'data-ms=\\"', at_mark)
        next_card = events.find(b"court-card", at_mark)
        if start < 0 or 0 <= next_card < start:
            continue  # no board on it (between matches)
        start += len(b'data-ms=\\"')
        ms = int(events[start:events.index(b"\\", start)])
        if ms < LIGHT and v.real.get(court) != ms:
            tally.got(tally.real, f"{court},{ms}", at)
            v.real[court] = ms


@functools.cache
def boards(region: str, real: frozenset[str]) -> list[tuple[str, bytes]]:
    """The real tables' courts a viewer's page shows, and what marks each court's board in its events: its court
    page's region, or its card in the home page's region (the board's clock is the first data-ms after either, and
    on the home page before the next card). Found with bytes.find: the clients share the cores with what they
    measure, and a regular expression over every read of the home page's 60 kB tripled their CPU."""
    if region == "courts":
        return [(court, b'href=\\"/court/' + quote(court, safe="").encode() + b'\\"') for court in sorted(real)]
    court = region.partition("/")[2]
    return [(court, b'"id": "court/' + court.encode() + b'"')] if region.startswith("court/") and court in real else []


def elsewhere(v: Viewer) -> int:
    """Another instance than the one that dropped the viewer, spread as the front's least_conn would."""
    others = [i for i in range(v.instances) if i != v.instance] or [v.instance]
    return others[v.number % len(others)]


class Stream(asyncio.Protocol):
    """One phone's live stream, as cheap as a client can be (the clients share the cores with what they
    measure): the response's chunks undone and only whole events looked at, one search per read."""

    def __init__(self, v: Viewer, tally: Tally, courts: int, request: bytes, lost: asyncio.Future[None],
                 real: frozenset[str]) -> None:
        self.v, self.tally, self.courts, self.request, self.lost, self.real = v, tally, courts, request, lost, real
        self.head: bytes | None = b""
        self.raw, self.text, self.left = b"", b"", 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        at = time.monotonic()
        if self.head is not None:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self.head.startswith(b"HTTP/1.1 200"):
                self.tally.refused += 1
                self.tally.refusals[self.head[9:self.head.find(b"\r\n")].decode(errors="replace")] += 1
                self.transport.close()
                return
            data, self.head = self.head[end + 4:], None
            self.tally.connected += 1
            if self.v.dropped_at is not None:
                self.tally.moves.append(at - self.v.dropped_at)
                self.v.dropped_at = None
        self.text += self.unchunked(data)
        end = self.text.rfind(b"\n\n")
        if end >= 0:
            events, self.text = self.text[:end], self.text[end + 2:]
            self.tally.frames += 1
            if b"event: region" in events:
                take(self.v, events, at, self.tally, self.courts, self.real)

    def unchunked(self, data: bytes) -> bytes:
        """The body in ``data``, without the chunked encoding's framing (HTTP/1.1: `size CRLF bytes CRLF`)."""
        raw, out, i = self.raw + data, [], 0
        while i < len(raw):
            if self.left > 0:
                part = raw[i:i + self.left]
                out.append(part)
                self.left -= len(part)
                i += len(part)
                continue
            end = raw.find(b"\r\n", i + 2 if raw.startswith(b"\r\n", i) else i)
            if end < 0:
                break
            self.left = int(raw[i:end].strip() or b"0", 16)
            i = end + 2
            if self.left == 0:  # the body's end (the front ends it so when its instance is gone): reconnect
                self.transport.close()
                break
        self.raw = raw[i:]
        return b"".join(out)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(None)


async def watch(v: Viewer, target: dict[str, Any], tls: ssl.SSLContext | None, tally: Tally, courts: int,
                stop_at: float, real: frozenset[str]) -> None:
    """One phone's page: its stream, reconnected (with its last event id) when dropped: to another instance,
    or through the front again, which picks one."""
    loop = asyncio.get_running_loop()
    query = f"r={quote(v.region, safe='/')}"
    while time.monotonic() < stop_at:
        port = target["front"] or target["ports"][v.instance]
        resume = f"Last-Event-ID: {v.last_id}\r\n" if v.last_id else ""
        request = f"GET /live?{query} HTTP/1.1\r\nHost: {target['host']}\r\n{resume}\r\n".encode()
        lost = loop.create_future()
        transport = None
        try:
            transport, _ = await asyncio.wait_for(loop.create_connection(
                functools.partial(Stream, v, tally, courts, request, lost, real), "127.0.0.1", port,
                local_addr=(source_address(v.number), 0), ssl=tls, server_hostname=target["host"] if tls else None),
                LOAD_TIMEOUT)
            await asyncio.wait_for(lost, max(0.1, stop_at - time.monotonic()))
        except (TimeoutError, OSError, ssl.SSLError):
            pass
        finally:
            if transport is not None:
                transport.close()
        if time.monotonic() >= stop_at:
            break
        v.dropped_at = v.dropped_at or time.monotonic()
        v.instance = elsewhere(v)
        await asyncio.sleep(RETRY)


async def clients(spec: dict[str, Any]) -> Tally:
    tally = Tally()
    courts, stop_at = spec["courts"], spec["stop_at"]
    viewers = [Viewer(number=n, region=r, instance=i, instances=len(spec["target"]["ports"]))
               for n, r, i in spec["viewers"]]
    target = spec["target"]
    tls = ssl.create_default_context(cafile=target["cafile"]) if target["cafile"] else None
    tasks = []
    for v in viewers:
        tasks.append(asyncio.create_task(watch(v, target, tls, tally, courts, stop_at, frozenset(spec["real"]))))
        await asyncio.sleep(spec["stagger"])
    await asyncio.gather(*tasks, return_exceptions=True)
    for v in viewers:
        state = f"results {v.results}" if v.region.startswith("pool/") else \
            " ".join([*(f"{c}:{k}" for c, k in sorted(v.live.items())),
                      *(f"{quote(c)}={ms}" for c, ms in sorted(v.real.items()))])  # a court's name has spaces
        tally.final[f"{v.region}|{state}"] += 1
    return tally


def client_main(spec_path: str, out_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text())
    # The phones are the harness, not the product, and share the cores with what they measure: on uvloop, TLS
    # through the front costs them about half what asyncio's own costs (29 against 50 CPU-s for 10,000).
    tally = uvloop.run(clients(spec))
    Path(out_path).write_text(json.dumps({"live": tally.live, "home": tally.home, "results": tally.results,
                                          "real": tally.real,
                                          "moves": tally.moves,
                                          "final": dict(tally.final), "connected": tally.connected,
                                          "refused": tally.refused, "refusals": dict(tally.refusals),
                                          "frames": tally.frames,
                                          "cpu_s": time.process_time()}))
