"""Live viewers at a big cup's scale (issue 24): N phones' live streams spread over the home, court and pool
pages of 1, 2 or 4 service instances, while the tables play at speed; from a table's publish to the last
phone's update, and what happens to the phones of an instance killed under that load.

    .venv/bin/python -m bench.bench_viewers [--viewers 2000] [--instances 2] [--seconds 40] [--rate 4]
                                            [--kill-at 20] [--front] [--tournament rules/examples/water-polo.toml]
                                            [--real-tables 0] [--table-speed 60] [--stages]

Everything runs on this machine over loopback: its own Mosquitto on a free port, a fresh PostgreSQL
database on 127.0.0.1:5432 (dropped at the end), ``--instances`` service processes (the service and its
pages, as ``courtside server --http`` runs them, sharing the tables' topics as group ``courtside``), the
viewers in client processes of at most 5,000 streams each (each stream from its own loopback address,
as phones have theirs, so the per-address limits count them as the service would). The benchmark
spreads the viewers over the instances itself, one in four on each court's page, three in ten on the
home page and three in ten on a pool's page.

Each court's table (a light table: the table's own link, match session and outbox, bench/viewers_tables.py) sends
its live state ``--rate`` times a second; its stopped clock carries a token (``clock_ms``) that a viewer finds in
the region's HTML, so a page that skipped a state (an update coalesced with the next) still counts as having it.
After ``--live-per-match`` states the match ends: its events, then its result, which a pool page shows.
``--real-tables N``: the first N courts are played by ``courtside table`` processes (mock pins, the demo's
simulated officials' press scripts at ``--table-speed``); their running clocks, heard on the broker, are timed to
the pages as they show them, and the play's seconds run from their first live state (a program's start is not
play). An update's delay runs from its publish to the instant
the LAST of the viewers that show it had it: a live state's, on its court's pages and, apart, on the home page
(a summary, written at most once a second: server.web.fanout.SUMMARY_S).
``--kill-at S`` kills instance 0 (SIGKILL) S seconds into the play; its viewers reconnect, as EventSource does (1 s
later, with their Last-Event-ID), to the next instance, and the benchmark reports how long they were away and
whether every viewer ends with every court's and pool's last state (updates lost). Page loads (the home page, a
pool page) are timed on fresh connections meanwhile. Bounded: at most 12,000 viewers, 4 instances and 120 s of
play; it stops by itself.

``--stages`` times a result's way in the instances too, stage by stage (bench/viewers_stages.py): to the
instance, its inbox, its batch's commit, the pages' round, its snapshot, its writes, the other instance, the phone.

``--front`` puts Caddy (the shipped systemd/Caddyfile, ``tls internal``) before the instances, as a venue
runs it: every stream and page load goes through it over TLS, its ``least_conn`` spreads the phones (the
connections each instance holds are counted mid-play), and a phone whose instance is killed reconnects
through it. The clients (bench/viewers_phones.py) are asyncio protocols that only look for the tokens in whole
events: they share the two cores with what they measure, and their CPU seconds are printed beside the instances'
and Caddy's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bench import viewers_stages
from bench.postgres import fresh_database
from bench.viewers_phones import LOAD_TIMEOUT, client_main
from bench.viewers_stages import percentile
from bench.viewers_tables import Ear, LightTables, RealTables, play_light

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "rules" / "examples" / "water-polo.toml"
MOSQUITTO_CONF = "listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\n"
PER_CLIENT = 5000  # streams per client process
REAL_TABLES_START_S = 60.0  # a real table's start on a loaded machine takes seconds; more is a fault


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def listen_port() -> int:
    """A port free on every address (Caddy listens on all), for TCP and UDP (HTTP/3), below the ephemeral
    range: the ephemeral ports of thousands of streams just closed (TIME_WAIT) would clash with it."""
    while True:
        port = random.randrange(20000, 32000)
        try:
            for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
                with socket.socket(socket.AF_INET, kind) as s:
                    s.bind(("", port))
            return port
        except OSError:
            continue


# -- an instance: the service and its pages in one process --------------------------------------------------

def serve(http_port: int, broker: str, db: str, tournament: str, front: bool, stages: bool = False) -> None:
    import gc

    from server.plan import load_plan
    from server.service import Service
    from server.store import Store
    from server.web.serve import start_web

    store = Store.open(db, load_plan(tournament))
    service = Service(store, broker, group="courtside")
    web = start_web(service, f"127.0.0.1:{http_port}", db, secure_cookies=False,
                    trusted_proxies=("127.0.0.1",) if front else ())
    app: Any = web.server.config.app
    site = app.state.site
    live = next(r.endpoint for r in app.routes if getattr(r, "name", "") == "live")
    fanout = next(c.cell_contents for c in live.__closure__ if type(c.cell_contents).__name__ == "Fanout")
    renders = Counter[str]()
    plain = site.own  # a region's own part is what its template renders (Site.region fills in the nested ones)

    def counted(view: Any, name: str) -> str:  # how often each region is rendered, whatever the viewers
        fresh, kept = (view.data.version, name) not in site._own, site._kept.get(name)
        html: str = plain(view, name)
        if fresh and (kept is None or site._kept.get(name) is not kept):  # not the HTML kept from an earlier version
            renders[name.partition("/")[0]] += 1
        return html

    site.own = counted
    if stages:
        viewers_stages.install(service, fanout, site)
    signal.signal(signal.SIGTERM, lambda *_: service.stop())
    gc.freeze()
    try:
        service.run()
    finally:
        web.stop()
        print(json.dumps({"renders": dict(renders), "versions": service_version(site), "cpu_s": time.process_time(),
                          "written": fanout.written, "fell_behind": fanout.fell_behind, "rounds": fanout.rounds,
                          "messages": {k: service.counts[k] for k in ("stored", "duplicate", "noted")}}), flush=True)


def service_version(site: Any) -> int:
    return int(site.backend.changes.version)


async def page_loads(target: dict[str, Any], ports: list[int], paths: list[str], until: float) -> list[float]:
    """Pages loaded on fresh connections (through the front, TLS and all, if there is one), one at a time,
    until ``until``: their times in seconds."""
    tls = ssl.create_default_context(cafile=target["cafile"]) if target["cafile"] else None
    took = []
    i = 0
    while time.monotonic() < until:
        port, path = target["front"] or ports[i % len(ports)], paths[i % len(paths)]
        i += 1
        started = time.monotonic()
        try:  # the whole load, connection and handshake included, within LOAD_TIMEOUT: one stuck load must
            answer = await asyncio.wait_for(load(target, port, path, tls), LOAD_TIMEOUT)  # not end the series
            took.append(time.monotonic() - started if answer.startswith(b"HTTP/1.1 200") else float("inf"))
        except (OSError, TimeoutError, ssl.SSLError):
            took.append(float("inf"))
        await asyncio.sleep(0.2)
    return took


async def load(target: dict[str, Any], port: int, path: str, tls: ssl.SSLContext | None) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.9.9.9", 0), ssl=tls,
                                                   server_hostname=target["host"] if tls else None)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {target['host']}\r\nConnection: close\r\n\r\n".encode())
        return await reader.read(-1)
    finally:
        writer.close()


def held_streams(ports: list[int]) -> list[int]:
    """Connections established to each instance's port now (/proc/net/tcp): how the phones are spread."""
    wanted = {f"{port:04X}": i for i, port in enumerate(ports)}
    held = [0] * len(ports)
    with open("/proc/net/tcp") as table:
        next(table)
        for row in table:
            local, state = row.split()[1], row.split()[3]
            i = wanted.get(local.rpartition(":")[2])
            if i is not None and state == "01":
                held[i] += 1
    return held


def start_front(tmp: Path, ports: list[int]) -> tuple[subprocess.Popen[bytes], int, str]:
    """Caddy with the shipped systemd/Caddyfile (``tls internal``, a venue's name) before the instances;
    its HTTPS port and the root certificate its clients trust. Tried again on other ports if one it was
    given was taken meanwhile."""
    import resource
    import shutil

    from bench.bench_front import CADDYFILE, VENUE

    # A phone's connection and its upstream's: two descriptors a phone. Raised as Debian's caddy.service does
    # (LimitNOFILE), here for the front to inherit; a container may not allow it.
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (65536, 65536))
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if limit < 65536:
        print(f"note: the front may open only {limit} descriptors here: about {limit // 2 - 10} phones with their "
              "upstreams, no more (Debian's caddy.service allows 1,048,576)", file=sys.stderr)

    caddy = shutil.which("caddy") or sys.exit("caddy is not installed (apt-get install caddy)")
    root = tmp / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    for _ in range(3):
        https = listen_port()
        env = {**os.environ, "XDG_DATA_HOME": str(tmp / "data"), "XDG_CONFIG_HOME": str(tmp / "config"),
               "HOME": str(tmp), "COURTSIDE_SITE": VENUE, "COURTSIDE_TLS": "internal",
               "COURTSIDE_UPSTREAM": " ".join(f"127.0.0.1:{p}" for p in ports), "COURTSIDE_HTTPS_PORT": str(https),
               "COURTSIDE_HTTP_PORT": str(listen_port()), "COURTSIDE_CADDY_ADMIN": f"127.0.0.1:{free_port()}"}
        proc = subprocess.Popen([caddy, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"], env=env,
                                stdout=subprocess.DEVNULL, stderr=(tmp / "caddy.log").open("ab"))
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            if root.exists() and listening(https, proc, wait=False):
                return proc, https, str(root)
            time.sleep(0.2)
        proc.kill()
    raise SystemExit("Caddy did not start:\n" + (tmp / "caddy.log").read_text()[-3000:])


# -- the run ------------------------------------------------------------------------------------------------------

def layout(viewers: int, instances: int, courts: list[str], pools: list[str]) -> list[tuple[int, str, int]]:
    """(viewer, region, instance): four in ten on a court's page, three on the home page, three on a pool's."""
    out = []
    for n in range(viewers):
        kind, turn = n % 10, n // 10
        region = (f"court/{courts[turn % len(courts)]}" if kind < 4 else "courts" if kind < 7
                  else f"pool/{pools[turn % len(pools)]}")
        out.append((n, region, n % instances))
    return out


def measure(viewers: int = 2000, instances: int = 2, seconds: float = 40.0, rate: float = 4.0,
            live_per_match: int = 12, kill_at: float | None = None, tournament: Path = EXAMPLE,
            quiet: bool = False, front: bool = False, real_tables: int = 0, table_speed: float = 60.0,
            stagger: float = 0.0, keep_log: Path | None = None, stages: bool = False) -> dict[str, Any]:
    """Run the benchmark; the figures as a dict (the test and main() print them). ``keep_log``: where to copy the
    instances' log (their ``published`` lines say how long each publishing took and waited); ``stages``: a
    result's way, stage by stage (bench/viewers_stages.py)."""
    from server.plan import load_plan
    from server.store import Store

    if not (1 <= viewers <= 12000 and 1 <= instances <= 5 and 1 <= seconds <= 120):
        raise ValueError("1-12,000 viewers, 1-5 instances (4 and a spare), 1-120 s of play: a bounded load on loopback")
    plan = load_plan(tournament)
    if not 0 <= real_tables < len(plan.courts):
        raise ValueError(f"--real-tables: 0 to {len(plan.courts) - 1} (at least one court is a light table's)")
    procs: list[subprocess.Popen[bytes]] = []
    caddy = None
    with fresh_database("bench_viewers") as db, tempfile.TemporaryDirectory() as tmp:
        broker_port = free_port()
        conf = Path(tmp) / "mosquitto.conf"
        conf.write_text(MOSQUITTO_CONF.format(port=broker_port))
        broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", str(conf)])
        try:
            Store.open(db, plan).close()  # the schema once, before the instances race to make it
            ports = [free_port() for _ in range(instances)]
            log = (Path(tmp) / "instances.log").open("ab")
            for port in ports:
                procs.append(subprocess.Popen(
                    [sys.executable, "-m", "bench.bench_viewers", "--serve", str(port),
                     f"mqtt://127.0.0.1:{broker_port}", db, str(tournament), "front" if front else "direct",
                     "stages" if stages else "plain"],
                    stdout=subprocess.PIPE, stderr=log, cwd=ROOT))
            for port, proc in zip(ports, procs, strict=True):
                if not listening(port, proc):
                    log.close()
                    raise SystemExit("an instance did not start:\n" + (Path(tmp) / "instances.log").read_text()[-3000:])
            target = {"ports": ports, "front": 0, "host": "courtside", "cafile": ""}
            if front:
                from bench.bench_front import VENUE

                caddy, https, cafile = start_front(Path(tmp), ports)
                target = {"ports": ports, "front": https, "host": VENUE, "cafile": cafile}
            time.sleep(1.5)  # subscribed
            courts = [plan.courts[c] for c in sorted(plan.courts)]
            # The pools whose pages show scores: a cup's unpublished class shows only that a match was played.
            pools = sorted(p for p in plan.entry_teams if plan.cup.published(p))
            spread = layout(viewers, instances, courts, pools)
            connect_s = max(3.0, viewers / 400)
            outs: list[Path] = []
            clients_: list[subprocess.Popen[bytes]] = []

            def start_viewers() -> float:
                """The viewers' clients, once the tables are ready: the seconds they take to connect."""
                stop_at = time.monotonic() + connect_s + 3 + seconds + 6
                for i in range(0, viewers, PER_CLIENT):
                    part = spread[i:i + PER_CLIENT]
                    spec = Path(tmp) / f"spec{i}.json"
                    spec.write_text(json.dumps({"target": target, "courts": len(courts), "stop_at": stop_at,
                                                "real": courts[:real_tables],
                                                "viewers": part, "stagger": connect_s / len(part)}))
                    outs.append(Path(tmp) / f"out{i}.json")
                    clients_.append(subprocess.Popen([sys.executable, "-m", "bench.bench_viewers", "--client",
                                                      str(spec), str(outs[-1])], cwd=ROOT))
                return connect_s + 3

            figures = asyncio.run(_play(plan, tournament, broker_port, target, procs, seconds, rate, live_per_match,
                                        kill_at, courts, pools, real_tables, table_speed, Path(tmp), start_viewers,
                                        stagger))
            for client in clients_:
                client.wait(timeout=60)
            tallies = [json.loads(out.read_text()) for out in outs]
            if keep_log is not None:
                keep_log.write_bytes((Path(tmp) / "instances.log").read_bytes())
        finally:
            served = []
            for proc in procs:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)
                    try:
                        out, _ = proc.communicate(timeout=20)
                        served.append(json.loads(out.decode().strip().splitlines()[-1]))
                    except (subprocess.TimeoutExpired, ValueError, IndexError):
                        proc.kill()
            others = {"broker": cpu_seconds(broker.pid)} | ({"front": cpu_seconds(caddy.pid)} if caddy else {})
            for other in (caddy, broker):
                if other is not None:
                    other.terminate()
                    other.wait(timeout=10)
        stages_log = (Path(tmp) / "instances.log").read_text() if stages else None
    figures["others_cpu_s"] = others | figures.pop("tables_cpu_s")
    return summarise(figures, tallies, served, spread, viewers, instances, kill_at, quiet, front, courts,
                     real_tables, stages_log)


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 1)


def listening(port: int, proc: subprocess.Popen[bytes], wait: bool = True) -> bool:
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            if not wait or time.monotonic() > deadline or proc.poll() is not None:
                return False
            time.sleep(0.2)


async def _play(plan: Any, tournament: Path, broker_port: int, target: dict[str, Any],
                procs: list[subprocess.Popen[bytes]], seconds: float, rate: float, live_per_match: int,
                kill_at: float | None, courts: list[str], pools: list[str], real_tables: int, table_speed: float,
                folder: Path, start_viewers: Callable[[], float], stagger: float = 0.0) -> dict[str, Any]:
    """The play: the first ``real_tables`` courts by ``courtside table`` processes, the others by light tables; the
    page loads meanwhile, and instance 0 killed at ``kill_at``."""
    cpu_before = time.process_time()  # this process's: the light tables, the ear, the page loads
    ear = Ear(plan, broker_port, courts[:real_tables])
    light = LightTables(plan, tournament, broker_port, courts, list(range(real_tables, len(courts))),
                        folder / "journals")
    await light.online()
    await asyncio.sleep(start_viewers())  # connected
    real = RealTables(plan, tournament, broker_port, courts[:real_tables], folder, table_speed)
    await asyncio.to_thread(ear.wait_for_boards, courts[:real_tables], REAL_TABLES_START_S)
    started = time.monotonic()

    async def kill() -> float | None:
        if kill_at is None:
            return None
        await asyncio.sleep(kill_at)
        procs[0].kill()
        return time.monotonic() - started

    async def spread() -> list[int]:
        await asyncio.sleep(min(seconds / 2, (kill_at or seconds) - 1))
        return await asyncio.to_thread(held_streams, target["ports"])

    ports = target["ports"]
    paths = ["/", f"/pool/{quote(pools[0])}", f"/court/{quote(courts[0])}"]
    live_ports = ports[1:] if kill_at is not None and len(ports) > 1 else ports
    try:
        loads, finals, killed, held = await asyncio.gather(
            page_loads(target, live_ports, paths, started + seconds),
            play_light(light, seconds, rate, live_per_match, stagger), kill(), spread())
    finally:
        real_cpu = sum(cpu_seconds(proc.pid) for proc in real.procs if proc.poll() is None)
        await asyncio.to_thread(real.stop)  # their boards stay as they last sent them
    await asyncio.sleep(3)  # the last results acknowledged
    light.close()
    heard = ear.close()
    finals.update({f"pool{pool}": n for pool, n in heard["recorded"].items()})
    return {"live_sent": light.live_sent, "results_sent": heard["results_sent"], "result_matches": heard["matches"],
            "real_sent": heard["real_sent"],
            "real_last": heard["real_last"], "finals": finals, "loads": loads, "killed": killed, "held": held,
            "tables_cpu_s": {"light tables (and page loads)": round(time.process_time() - cpu_before, 1),
                             **({"real tables": round(real_cpu, 1)} if real.procs else {})}}


def summarise(f: dict[str, Any], tallies: list[dict[str, Any]], served: list[dict[str, Any]],
              spread: list[tuple[int, str, int]], viewers: int, instances: int, kill_at: float | None,
              quiet: bool, front: bool, courts: list[str], real_tables: int,
              stages_log: str | None = None) -> dict[str, Any]:
    regions = Counter(r for _, r, _ in spread)
    live: dict[str, list[float]] = {}
    home: dict[str, list[float]] = {}
    results: dict[str, list[float]] = {}
    real: dict[str, list[float]] = {}
    final: Counter[str] = Counter()
    for t in tallies:
        for into, part in ((live, t["live"]), (home, t["home"]), (results, t["results"]), (real, t["real"])):
            for key, (count, at) in part.items():
                entry = into.setdefault(key, [0, 0.0])
                entry[0] += count
                entry[1] = max(entry[1], at)
        final.update(t["final"])
    delays, home_delays, complete = [], [], 0
    for key, sent in f["live_sent"].items():
        c = int(key.split(",")[0])
        count, at = live.get(key, [0, 0.0])
        at_home, home_at = home.get(key, [0, 0.0])
        complete += count == regions[f"court/{courts[c]}"] and at_home == regions["courts"]
        if count:
            delays.append(at - sent)
        if at_home:
            home_delays.append(home_at - sent)
    # A real table's states: its running clock, up to four a second, so a page may show only the later of two.
    real_delays, real_complete = [], 0
    for key, sent in f["real_sent"].items():
        court = key.rpartition(",")[0]
        count, at = real.get(key, [0, 0.0])
        real_complete += count == regions[f"court/{court}"] + regions["courts"]
        if count:
            real_delays.append(at - sent)
    result_delays, results_complete = [], 0
    for key, sent in f["results_sent"].items():
        expected = regions[f"pool/{key.split(',')[0]}"]
        count, at = results.get(key, [0, 0.0])
        results_complete += count == expected
        if count:
            result_delays.append(at - sent)
    # Updates lost: viewers that did not end with every court's and pool's last state.
    last = f["finals"]
    behind = 0
    examples: list[str] = []
    for state, n in final.items():
        region, _, shown = state.partition("|")
        if region.startswith("pool/"):
            ok = shown == f"results {last.get('pool' + region[5:], 0)}"
        else:
            got = dict(x.split(":") for x in shown.split() if ":" in x) if shown else {}
            boards = dict(x.rsplit("=", 1) for x in shown.split() if "=" in x) if shown else {}
            wanted = range(len(courts)) if region == "courts" else [courts.index(region[6:])]
            ok = all(int(got.get(str(c), 0)) == last.get(f"court{c}", 0) for c in wanted if c >= real_tables)
            ok = ok and all(boards.get(quote(courts[c])) == str(f["real_last"].get(courts[c])) for c in wanted
                            if c < real_tables and courts[c] in f["real_last"])
        behind += 0 if ok else n
        if not ok and len(examples) < 3:
            examples.append(state)
    moves = [m for t in tallies for m in t["moves"]]
    loads = f["loads"]
    out = {
        "viewers": viewers, "instances": instances, "front": front, "held": f["held"],
        "connected": sum(t["connected"] for t in tallies),
        "refused": sum(t["refused"] for t in tallies),
        "refusals": dict(sum((Counter(t.get("refusals", {})) for t in tallies), Counter[str]())),
        "live_updates": len(f["live_sent"]), "live_complete": complete,
        "live_p50_ms": percentile(delays, 0.5) * 1000, "live_p99_ms": percentile(delays, 0.99) * 1000,
        "live_max_ms": max(delays, default=float("nan")) * 1000,
        "home_p50_ms": percentile(home_delays, 0.5) * 1000, "home_p99_ms": percentile(home_delays, 0.99) * 1000,
        "real_tables": real_tables, "real_updates": len(f["real_sent"]), "real_complete": real_complete,
        "real_shown": len(real_delays), "real_p50_ms": percentile(real_delays, 0.5) * 1000,
        "real_p99_ms": percentile(real_delays, 0.99) * 1000,
        "results": len(f["results_sent"]), "results_complete": results_complete,
        "results_p50_ms": percentile(result_delays, 0.5) * 1000,
        "results_p99_ms": percentile(result_delays, 0.99) * 1000,
        "viewers_behind_at_end": behind, "behind": examples, "killed_at_s": f["killed"],
        "moved": len(moves), "move_p50_s": percentile(moves, 0.5), "move_max_s": max(moves, default=float("nan")),
        "page_loads": len(loads), "page_p50_ms": percentile(loads, 0.5) * 1000,
        "page_p99_ms": percentile(loads, 0.99) * 1000,
        "renders": [s.get("renders") for s in served], "versions": [s.get("versions") for s in served],
        "instances_cpu_s": [round(s.get("cpu_s", 0), 1) for s in served],
        "clients_cpu_s": [round(t.get("cpu_s", 0), 1) for t in tallies], "others_cpu_s": f["others_cpu_s"],
        "written": [s.get("written") for s in served], "fell_behind": [s.get("fell_behind") for s in served],
        "rounds": [s.get("rounds") for s in served],
        "messages": [s.get("messages") for s in served],
    }
    if stages_log is not None:
        out["stages"] = viewers_stages.breakdown(stages_log, [
            (f["result_matches"][key], key.rpartition(",")[0], sent, results.get(key, [0, 0.0])[1])
            for key, sent in f["results_sent"].items()])
    if not quiet:
        print(report(out))
        if "stages" in out:
            print(viewers_stages.report(out["stages"]))
    return out


def report(o: dict[str, Any]) -> str:
    lines = [
        f"{o['viewers']} SSE viewers over {o['instances']} instance(s)"
        f"{' through the front (Caddy, TLS)' if o['front'] else ''}: {o['connected']} connections made, "
        f"{o['refused']} refused{' ' + str(o['refusals']) if o['refusals'] else ''}; "
        f"held per instance mid-play {o['held']}",
        f"  live states {o['live_updates']}, reached every viewer that shows them: {o['live_complete']}; "
        f"publish -> last viewer of its court's page p50 {o['live_p50_ms']:.0f} ms, p99 {o['live_p99_ms']:.0f} ms, "
        f"max {o['live_max_ms']:.0f} ms; of the home page (a summary, written at most once a second) "
        f"p50 {o['home_p50_ms']:.0f} ms, p99 {o['home_p99_ms']:.0f} ms",
        *([f"  real tables {o['real_tables']}: live states {o['real_updates']}, shown by every viewer: "
           f"{o['real_complete']}, by some: {o['real_shown']} (a later state coalesced the others); publish -> last "
           f"viewer p50 {o['real_p50_ms']:.0f} ms, p99 {o['real_p99_ms']:.0f} ms"] if o["real_tables"] else []),
        f"  results {o['results']}, reached every pool viewer: {o['results_complete']}; "
        f"publish -> last viewer p50 {o['results_p50_ms']:.0f} ms, p99 {o['results_p99_ms']:.0f} ms",
        f"  page loads{' through the front' if o['front'] else ''} {o['page_loads']}: "
        f"p50 {o['page_p50_ms']:.0f} ms, p99 {o['page_p99_ms']:.0f} ms",
        f"  viewers without every last state at the end (updates lost): {o['viewers_behind_at_end']}"
        + (f", such as {'; '.join(o['behind'])}" if o["behind"] else ""),
        f"  regions rendered per instance: {o['renders']} for {o['versions']} snapshot versions",
        f"  CPU seconds: instances {o['instances_cpu_s']} (a killed one not counted), "
        f"viewers' clients {o['clients_cpu_s']}, {o['others_cpu_s']}",
        f"  writes by the fan-out per instance {o['written']} in {o['rounds']} rounds; "
        f"pages fallen behind {o['fell_behind']}",
        f"  the tables' messages per instance (a duplicate: sent again before its ack came) {o['messages']}",
    ]
    if o["killed_at_s"] is not None:
        lines.append(f"  instance 0 killed at {o['killed_at_s']:.1f} s: {o['moved']} streams moved, "
                     f"p50 {o['move_p50_s']:.2f} s, max {o['move_max_s']:.2f} s away")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=2000)
    parser.add_argument("--instances", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=40.0, help="of play (default %(default)s)")
    parser.add_argument("--rate", type=float, default=4.0, help="live states a second per court")
    parser.add_argument("--live-per-match", type=int, default=12)
    parser.add_argument("--stagger", type=float, default=0.0,
                        help="seconds over which the light courts start, so their results come court after court "
                             "(default: all in step, every court's result in one instant)")
    parser.add_argument("--keep-log", type=Path, help="copy the instances' log here")
    parser.add_argument("--kill-at", type=float, help="kill instance 0 this many seconds into the play")
    parser.add_argument("--front", action="store_true",
                        help="the phones and page loads through Caddy (systemd/Caddyfile, tls internal)")
    parser.add_argument("--tournament", type=Path, default=EXAMPLE)
    parser.add_argument("--real-tables", type=int, default=0,
                        help="courts played by `courtside table` processes (press scripts), the others by light tables")
    parser.add_argument("--table-speed", type=float, default=60.0,
                        help="the real tables' --speed (default %(default)s)")
    parser.add_argument("--stages", action="store_true",
                        help="time a result's way stage by stage, in the instances (bench/viewers_stages.py)")
    parser.add_argument("--serve", nargs=6, help=argparse.SUPPRESS)
    parser.add_argument("--client", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), args.serve[1], args.serve[2], args.serve[3], args.serve[4] == "front",
              args.serve[5] == "stages")
        return 0
    if args.client:
        client_main(*args.client)
        return 0
    try:
        measure(args.viewers, args.instances, args.seconds, args.rate, args.live_per_match, args.kill_at,
                args.tournament, front=args.front, real_tables=args.real_tables, table_speed=args.table_speed,
                stagger=args.stagger, keep_log=args.keep_log, stages=args.stages)
    except ValueError as err:
        parser.error(str(err))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
