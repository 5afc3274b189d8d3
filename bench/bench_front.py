"""The desk and the pages on an open network, measured (issue 21's goals, docs/benchmarks.md "Open network").

    .venv/bin/python -m bench.bench_front logins [--minutes 5] [--burst 200] [--every 10]
    .venv/bin/python -m bench.bench_front slow [--connections 2000] [--seconds 60]
    .venv/bin/python -m bench.bench_front visits [--visits 30000]

All start their own Mosquitto and ``courtside server`` (its own process, the way systemd runs it,
``--trusted-proxy 127.0.0.1``) on free loopback ports; nothing leaves the machine.

``logins``: every ``--every`` s for ``--minutes``, ``--burst`` login attempts sent at once, each with its own
login page first: half of them guess anna's password from one address, the other half are one guess each from
as many addresses for as many accounts (addresses given in X-Forwarded-For, which the service believes from
127.0.0.1 only). Prints the server's memory before and its peak (VmHWM) after, the most passwords checked
per (address, account) over the whole run (an answer 401 or 303 is a check; 429 and 503 are not), and the
answers by status. Goals: growth < 200 MB; at most 5 checks per (address, account) in 5 minutes.

``slow``: Caddy with the shipped systemd/Caddyfile (``tls internal``, a venue's name) in front of the service;
``--connections`` clients open TLS connections and send a request's headers a byte every few seconds, opening
a new connection whenever the front closes one, so that many are held open all the time; meanwhile one
ordinary client asks for the tournament page through the front 4 times a second. Prints p50, p99 and max of
those pages and how many slow connections were open. Goal: p99 < 500 ms with 2,000 held.

``visits``: the login page's time (median of 300, one keep-alive client) before and after ``--visits``
anonymous visits to it (each without cookies, as many phones would), and how much the server's memory grew
(``/desk/login`` keeps no session). Issue 21: after 30,000 the median went from 1.6 to 8.6 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "rules" / "examples" / "indoor-hockey.toml"
CADDYFILE = ROOT / "systemd" / "Caddyfile"
VENUE = "scores.venue.test"
PASSWORD = "a long desk password"
FAILURES: Counter[str] = Counter()  # attempts without an answer, by the client's error
MOSQUITTO_CONF = "listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


class Venue:
    """Mosquitto, ``courtside server`` and (asked for) Caddy, in a temporary folder; stopped in reverse."""

    def __init__(self, tmp: Path, *, accounts: list[str], front: bool) -> None:
        self.tmp, self.processes = tmp, []  # type: ignore[var-annotated]
        broker_port, self.http = free_port(), free_port()
        (tmp / "mosquitto.conf").write_text(MOSQUITTO_CONF.format(port=broker_port))
        self._start(["mosquitto", "-c", str(tmp / "mosquitto.conf")])
        db = f"sqlite:///{tmp / 'courtside.db'}"
        from server.web.accounts import Accounts

        store = Accounts.at(db)
        for name in accounts:
            store.add(name, PASSWORD)
        self.server = self._start([sys.executable, "-m", "courtside", "server", "--tournament", str(EXAMPLE),
                                   "--broker", f"mqtt://127.0.0.1:{broker_port}", "--db", db, "--http",
                                   f"127.0.0.1:{self.http}", "--trusted-proxy", "127.0.0.1"], log="server.log")
        self._wait(lambda: _answers(f"http://127.0.0.1:{self.http}/"))
        self.https = 0
        if front:
            self.https, plain = free_port(), free_port()
            env = {**os.environ, "XDG_DATA_HOME": str(tmp / "data"), "XDG_CONFIG_HOME": str(tmp / "config"),
                   "HOME": str(tmp), "COURTSIDE_SITE": VENUE, "COURTSIDE_TLS": "internal",
                   "COURTSIDE_UPSTREAM": f"127.0.0.1:{self.http}", "COURTSIDE_HTTPS_PORT": str(self.https),
                   "COURTSIDE_HTTP_PORT": str(plain), "COURTSIDE_CADDY_ADMIN": f"127.0.0.1:{free_port()}"}
            caddy = shutil.which("caddy") or sys.exit("caddy is not installed (apt-get install caddy)")
            self._start([caddy, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"], env=env,
                        log="caddy.log")
            self.root = tmp / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
            self._wait(lambda: self.root.exists() and self._front_answers())

    def _start(self, argv: list[str], env: dict[str, str] | None = None, log: str | None = None
               ) -> subprocess.Popen[bytes]:
        out = (self.tmp / log).open("wb") if log else subprocess.DEVNULL
        p = subprocess.Popen(argv, env=env, stdout=out, stderr=out)
        self.processes.append(p)
        return p

    def _wait(self, ready: object) -> None:
        deadline = time.monotonic() + 60
        while not ready():  # type: ignore[operator]
            if time.monotonic() > deadline or any(p.poll() is not None for p in self.processes):
                self.stop()
                sys.exit(f"the venue did not start: see {self.tmp}")
            time.sleep(0.2)

    def tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.root))

    def _front_answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.https), timeout=2) as raw, \
                    self.tls().wrap_socket(raw, server_hostname=VENUE) as s:
                s.sendall(f"GET / HTTP/1.1\r\nHost: {VENUE}\r\nConnection: close\r\n\r\n".encode())
                return s.recv(12).startswith(b"HTTP/1.1 200")
        except OSError:
            return False

    def stop(self) -> None:
        for p in reversed(self.processes):
            p.terminate()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()


def _answers(url: str) -> bool:
    import httpx

    try:
        return httpx.get(url, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


# Logins ----------------------------------------------------------------------------------------------------
async def _attempt(base: str, address: str, name: str, password: str) -> int:
    import httpx

    headers = {"x-forwarded-for": address}
    try:
        return await _login(base, headers, name, password)
    except httpx.HTTPError as err:
        FAILURES[type(err).__name__] += 1
        return 0  # no answer


async def _login(base: str, headers: dict[str, str], name: str, password: str) -> int:
    import httpx

    # A connection per request: a kept-alive one that the server closed as idle while this loaded client took
    # its time between the page and the POST would fail the POST (httpx does not retry; a browser does).
    fresh = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, timeout=120, headers=headers, limits=fresh) as c:
        page = await c.get("/desk/login")
        token = page.text.split('name="csrf" value="', 1)[1].split('"', 1)[0]
        # The form's cookie is Secure (as served behind HTTPS): a client over plain HTTP sends it by hand.
        cookie = page.headers["set-cookie"].split(";", 1)[0]
        r = await c.post("/desk/login", data={"csrf": token, "name": name, "password": password},
                         headers={"cookie": cookie})
        return r.status_code


async def _burst(base: str, n: int, round_no: int) -> list[tuple[str, int]]:
    """(key, status) of n attempts sent together: half anna from 10.9.9.9, half one each from many addresses."""
    jobs = []
    for i in range(n):
        one = ("10.9.9.9", "anna")  # one (address, account), guessed at from the same place every burst
        key = one if i % 2 == 0 else (f"10.{round_no % 250}.{i // 250}.{i % 250}", f"org{i % 100}")
        jobs.append((key, _attempt(base, key[0], key[1], f"guess {round_no}-{i}")))
    codes = await asyncio.gather(*(job for _, job in jobs))
    return [(f"{a}/{b}", code) for ((a, b), _), code in zip(jobs, codes, strict=True)]


def logins(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-front-") as tmp:
        venue = Venue(Path(tmp), accounts=["anna", *(f"org{n}" for n in range(100))], front=False)
        try:
            pid = venue.server.pid
            before = _kib(pid, "VmRSS")
            checked: Counter[str] = Counter()
            answers: Counter[int] = Counter()
            start = time.monotonic()
            rounds = 0
            while time.monotonic() - start < args.minutes * 60:
                t0 = time.monotonic()
                for key, code in asyncio.run(_burst(f"http://127.0.0.1:{venue.http}", args.burst, rounds)):
                    answers[code] += 1
                    if code in (401, 303):
                        checked[key] += 1
                rounds += 1
                time.sleep(max(0.0, args.every - (time.monotonic() - t0)))
            peak, after = _kib(pid, "VmHWM"), _kib(pid, "VmRSS")
        finally:
            venue.stop()
    most_key, most = checked.most_common(1)[0] if checked else ("-", 0)
    print(f"{rounds} bursts of {args.burst} logins in {args.minutes:g} min; answers {dict(sorted(answers.items()))}"
          + (f" (0: no answer, {dict(FAILURES)})" if FAILURES else ""))
    print(f"server memory: {before / 1024:.0f} MB before, peak {peak / 1024:.0f} MB (growth "
          f"{(peak - before) / 1024:.0f} MB), {after / 1024:.0f} MB after")
    print(f"most passwords checked for one (address, account): {most} ({most_key}); anna from 10.9.9.9: "
          f"{checked['10.9.9.9/anna']}")
    return 0


# Slow clients ----------------------------------------------------------------------------------------------
async def _slowloris(port: int, held: Any, stop: asyncio.Event, tls: ssl.SSLContext) -> None:
    """One slow client: keeps a connection open by sending a header byte every 3 s; reopens when closed."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=tls, server_hostname=VENUE)
        except OSError:
            await asyncio.sleep(1)
            continue
        with held.get_lock():
            held.value += 1
        try:
            writer.write(f"GET / HTTP/1.1\r\nHost: {VENUE}\r\nX-Slow: ".encode())
            while not stop.is_set() and not reader.at_eof():
                await writer.drain()
                try:
                    await asyncio.wait_for(reader.read(1), 3)
                except TimeoutError:
                    writer.write(b"a")
        except OSError:
            pass
        finally:
            with held.get_lock():
                held.value -= 1
            writer.close()


def _slow_clients(port: int, root: str, n: int, seconds: float, held: Any) -> None:
    """The slow clients, in a process of their own, so that their work does not delay the measuring client."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    async def run() -> None:
        tls = ssl.create_default_context(cafile=root)
        stop = asyncio.Event()
        clients = [asyncio.create_task(_slowloris(port, held, stop, tls)) for _ in range(n)]
        await asyncio.sleep(seconds)
        stop.set()
        for t in clients:
            t.cancel()
        await asyncio.gather(*clients, return_exceptions=True)

    asyncio.run(run())


async def _slow(venue: Venue, n: int, seconds: float) -> tuple[list[float], list[int], int]:
    import multiprocessing

    import httpx

    tls = venue.tls()
    held = multiprocessing.Value("i", 0)
    warm_up = min(40.0, n / 50)  # the handshakes
    slow = multiprocessing.Process(target=_slow_clients, args=(venue.https, str(venue.root), n,
                                                               warm_up + seconds + 5, held))
    slow.start()
    counts: list[int] = []
    await asyncio.sleep(warm_up)
    times: list[float] = []
    errors = 0
    async with httpx.AsyncClient(verify=tls, timeout=10) as c:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t0 = time.perf_counter()
            try:
                r = await c.get(f"https://127.0.0.1:{venue.https}/", headers={"host": VENUE},
                                extensions={"sni_hostname": VENUE})
                if r.status_code != 200:
                    errors += 1
            except httpx.HTTPError:
                errors += 1
            times.append(time.perf_counter() - t0)
            counts.append(held.value)
            await asyncio.sleep(0.25)
    slow.join(30)
    if slow.is_alive():
        slow.kill()
    return times, counts, errors


def slow(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-front-") as tmp:
        venue = Venue(Path(tmp), accounts=[], front=True)
        try:
            times, counts, errors = asyncio.run(_slow(venue, args.connections, args.seconds))
        finally:
            venue.stop()
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{len(ms)} ordinary pages through the front while {min(counts)}-{max(counts)} slow connections "
          f"(median {statistics.median(counts):.0f}) were held open; {errors} failed")
    print(f"page time: p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms")
    return 0


def _median_page_ms(client: object, n: int = 300) -> float:
    times = []
    for _ in range(n):
        client.cookies.clear()  # type: ignore[attr-defined]
        t0 = time.perf_counter()
        assert client.get("/desk/login").status_code == 200  # type: ignore[attr-defined]
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def visits(args: argparse.Namespace) -> int:
    import httpx

    with tempfile.TemporaryDirectory(prefix="bench-front-") as tmp:
        venue = Venue(Path(tmp), accounts=[], front=False)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{venue.http}", timeout=10) as client:
                before = _median_page_ms(client)
                rss = _kib(venue.server.pid, "VmRSS")
                for _ in range(args.visits):
                    client.cookies.clear()
                    client.get("/desk/login")
                after = _median_page_ms(client)
                grown = _kib(venue.server.pid, "VmRSS") - rss
        finally:
            venue.stop()
    print(f"login page median: {before:.2f} ms before, {after:.2f} ms after {args.visits} anonymous visits; "
          f"server memory grew {grown / 1024:.1f} MB")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="campaign", required=True)
    a = sub.add_parser("logins")
    a.add_argument("--minutes", type=float, default=5.0)
    a.add_argument("--burst", type=int, default=200)
    a.add_argument("--every", type=float, default=10.0)
    a.set_defaults(run=logins)
    b = sub.add_parser("slow")
    b.add_argument("--connections", type=int, default=2000)
    b.add_argument("--seconds", type=float, default=60.0)
    b.set_defaults(run=slow)
    c = sub.add_parser("visits")
    c.add_argument("--visits", type=int, default=30_000)
    c.set_defaults(run=visits)
    args = parser.parse_args()
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
