"""The table program's figures (issue 9): press to new state, memory, start to ready, bytes per match.

- press to new state through gpiozero's mock pins, after debounce: the time from ``drive_low()`` (a
  clock button, which acts as it goes down) or ``drive_high()`` (a goal button, which acts on release
  because it also has a hold action) until the screen has drawn the new state, the event journaled and
  fsynced first; the loop runs on its own thread on a real clock (goal: p99 under 5 ms);
- the RSS of a running ``courtside table`` process, headless and with the pygame screen on SDL's dummy
  driver (goal: under 80 MB);
- start to ready: from starting the process to systemd's READY=1 arriving on a NOTIFY_SOCKET;
- bytes written per 40-minute match: the journal, its meta, and the heartbeat on the card (64 bytes every
  15 s while the clock runs; the per-second one is in RAM), beside the 4-KiB pages its fsyncs touch
  (goal: < 1 MB).

    .venv/bin/python -m bench.bench_table
    .venv/bin/python -m bench.bench_table --presses 100   # a quicker run
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from display.view import ScoreboardView
from firmware.buttonmap import default_text
from firmware.screen import HeadlessScreen
from firmware.table import TableOptions, open_table

ROOT = Path(__file__).resolve().parent.parent


class _Watch(HeadlessScreen):
    """A headless screen that tells the bench when the drawn state has changed."""

    def __init__(self) -> None:
        super().__init__(echo=lambda _: None)
        self.changed = threading.Event()
        self._key: tuple[object, ...] | None = None

    def draw(self, view: ScoreboardView) -> None:
        s = view.state
        assert s is not None
        key = (s.running, s.home_goals, s.away_goals)
        if key != self._key:
            self._key = key
            self.changed.set()


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def press_latency(presses: int, where: str | None) -> dict[str, Any]:
    journal = Path(tempfile.mkdtemp(prefix="bench-table-", dir=where))
    # Presses come 60 ms apart here: without this the second clock button would replace the first. STOP's long
    # hold (abandon) goes too: a button with a hold acts on release, and the clock buttons are timed as they go down.
    buttons = journal / "buttons.toml"
    buttons.write_text(default_text().replace("replace = 1.0", "replace = 0.0").replace('hold = "abandon"', ""),
                       encoding="utf-8")
    screen = _Watch()
    table = open_table(TableOptions(rules="indoor-hockey", court="1", journal=journal / "j", speed=1.0,
                                    buttons=str(buttons), factory=MockFactory()), screen=screen)
    worker = threading.Thread(target=table.loop.run, daemon=True)
    worker.start()
    time.sleep(0.2)
    clock_ms: list[float] = []
    goal_ms: list[float] = []
    try:
        for i in range(presses):
            button = "clock_start" if i % 2 == 0 else "clock_stop"
            pin = table.pin(button)
            screen.changed.clear()
            t0 = time.perf_counter()
            pin.drive_low()
            if not screen.changed.wait(2.0):
                raise RuntimeError(f"press {i} of {button} never showed")
            clock_ms.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.03)
            pin.drive_high()
            time.sleep(0.03)
        for i in range(presses // 2):
            pin = table.pin("goal_home" if i % 2 == 0 else "goal_away")
            pin.drive_low()
            time.sleep(0.05)
            screen.changed.clear()
            t0 = time.perf_counter()
            pin.drive_high()
            if not screen.changed.wait(2.0):
                raise RuntimeError(f"goal {i} never showed")
            goal_ms.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.03)
    finally:
        from firmware.commands import Stop

        table.loop.queue.put(Stop(reason="bench"))
        worker.join(5)
        table.close()
    return {
        "clock_p50_ms": statistics.median(clock_ms), "clock_p99_ms": _pct(clock_ms, 0.99),
        "goal_p50_ms": statistics.median(goal_ms), "goal_p99_ms": _pct(goal_ms, 0.99),
        "presses": len(clock_ms) + len(goal_ms),
    }


def loop_work(presses: int) -> dict[str, float]:
    """The loop's own work for a press (edge, action, engine, journal write+fsync in RAM, draw), timed on
    the loop's thread: what is left of the latency once the OS's scheduling of that thread is taken out."""
    where = Path(tempfile.mkdtemp(prefix="bench-table-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    buttons = where / "buttons.toml"
    buttons.write_text(default_text().replace("replace = 1.0", "replace = 0.0"), encoding="utf-8")
    table = open_table(TableOptions(rules="indoor-hockey", court="1", journal=where / "j", speed=1.0,
                                    buttons=str(buttons), factory=MockFactory()), screen=_Watch())
    times = []
    try:
        for i in range(presses):
            pin = table.pin("clock_start" if i % 2 == 0 else "clock_stop")
            t0 = time.perf_counter()
            pin.drive_low()
            table.loop.step()
            times.append((time.perf_counter() - t0) * 1000)
            pin.drive_high()
            time.sleep(0.025)  # past the chatter window
            table.loop.step()
    finally:
        table.close()
    return {"p50_ms": statistics.median(times), "p99_ms": _pct(times, 0.99)}


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def process_figures(headless: bool) -> dict[str, float]:
    """Start to READY=1 and the RSS once ready, of a real ``courtside table`` process."""
    with tempfile.TemporaryDirectory() as d:
        sock_path = Path(d) / "notify"
        server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        server.bind(str(sock_path))
        server.settimeout(60)
        env = {**os.environ, "NOTIFY_SOCKET": str(sock_path), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        env.pop("DISPLAY", None)
        cmd = [sys.executable, "-m", "courtside", "table", "--rules", "indoor-hockey", "--court", "1",
               "--pins", "mock", "--journal", str(Path(d) / "journal")] + (["--headless"] if headless else [])
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            message = server.recv(64)
            ready = time.perf_counter() - t0
            assert message == b"READY=1", message
            time.sleep(1.0)  # a few frames / heartbeats
            rss = _rss_kb(proc.pid) / 1024
        finally:
            proc.terminate()
            proc.wait(10)
            server.close()
    return {"ready_s": ready, "rss_mb": rss}


def bytes_per_match() -> dict[str, float]:
    """A generated 40-minute match (bench/kill_table.py's scripts) played at full speed, then counted."""
    from bench.kill_table import match_script
    from firmware.journal import current_journal, meta_path
    from firmware.table import run_script

    with tempfile.TemporaryDirectory() as d:
        journal = Path(d)
        presses = match_script(1)
        state = run_script(presses, rules="indoor-hockey", journal=journal)
        path = current_journal(journal)
        assert path is not None
        events = len(path.read_text(encoding="utf-8").splitlines()) - 1
        journal_bytes = path.stat().st_size
        meta_bytes = meta_path(path).stat().st_size + (journal / "current").stat().st_size
    from firmware.journal import DISK_ALIVE_MS

    running_s = 2 * 20 * 60 + 120  # both halves, plus a generous allowance for stoppages
    heartbeat = 64 * running_s * 1000 // DISK_ALIVE_MS  # the card's copy; the per-second one is in RAM
    total = journal_bytes + meta_bytes + heartbeat
    fsyncs = events + 1 + 2  # each event, the header, the meta and current (each a 4-KiB page at least)
    return {"events": events, "journal_bytes": journal_bytes, "meta_bytes": meta_bytes, "heartbeat_bytes": heartbeat,
            "total_kb": total / 1024, "fsync_pages_kb": fsyncs * 4, "final_phase": state.phase == "finished"}


def main() -> None:
    parser = argparse.ArgumentParser(description="the table program's figures")
    parser.add_argument("--presses", type=int, default=400)
    args = parser.parse_args()
    for where, label in ((None, "journal on disk (" + tempfile.gettempdir() + ")"), ("/dev/shm", "journal in RAM")):
        if where is not None and not Path(where).is_dir():
            continue
        lat = press_latency(args.presses, where)
        print(f"press to new state (mock pins, after debounce, journaled+fsynced, drawn), {label}, "
              f"{lat['presses']} presses:")
        print(f"  clock button (acts going down): p50 {lat['clock_p50_ms']:.2f} ms  p99 {lat['clock_p99_ms']:.2f} ms")
        print(f"  goal button (acts on release):  p50 {lat['goal_p50_ms']:.2f} ms  p99 {lat['goal_p99_ms']:.2f} ms")
    work = loop_work(args.presses)
    print(f"  the loop's own work per press (same thread, journal in RAM): p50 {work['p50_ms']:.2f} ms  "
          f"p99 {work['p99_ms']:.2f} ms")
    for headless in (True, False):
        fig = process_figures(headless)
        what = "headless" if headless else "pygame screen (SDL dummy)"
        print(f"courtside table, {what}: start to READY=1 {fig['ready_s']:.2f} s, RSS {fig['rss_mb']:.1f} MB")
    b = bytes_per_match()
    print(f"40-minute match, {b['events']} events: journal {b['journal_bytes']} B, meta+current {b['meta_bytes']} B, "
          f"heartbeat {b['heartbeat_bytes']} B -> {b['total_kb']:.0f} KiB written; "
          f"fsynced pages {b['fsync_pages_kb']} KiB")


if __name__ == "__main__":
    main()
