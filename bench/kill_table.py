"""Power cuts at the table: SIGKILL ``courtside table --script ... --speed N`` at random moments, restart it,
and check that every event it had shown is still in the journal, nothing was entered twice, and the match
ended as the same script run without a cut ends.

    .venv/bin/python bench/kill_table.py --kills 1000 [--seed 1] [--rules indoor-hockey] [--speed 0]
    .venv/bin/python bench/kill_table.py --kills 300 --speed 400     # a real clock, 400 times real time

Each match is a generated press script (goals, penalties, time-outs, clock stops, an undo) for a whole
match. The table is killed at a uniformly random moment within the time an uninterrupted run takes,
restarted with the same command (it recovers from its journal and goes on with the script lines after
the instant it recovered to), and killed again, until a run reaches the script's end; then the journal
is checked and a new match begins, until the number of kills is reached. Figures: docs/reliability.md.

At ``--speed 0`` (a virtual clock) the table records the latest instant at every wake, so a campaign there
never met a stale cut; at ``--speed 400`` one real second of a heartbeat was 400 s of the match, and only
the final-state check (against the same script run uncut at ``--speed 0``) and a clock stopped after the
end show what that did: every kill there must end exactly as the uncut run does.

A kill leaves the kernel's page cache; a power cut of the whole Pi does not. bench/power_cut.py cuts the same
matches as the card would hold them (fsynced data only, names only after their folder's fsync, torn tails, RAM
lost) and applies these same checks (``check_match``, ``check_final``) after the restart.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware.journal import current_journal  # noqa: E402
from firmware.script import Press, format_script  # noqa: E402
from rules.match.engine import Match  # noqa: E402
from rules.match.log import event_to_dict, read_log  # noqa: E402
from rules.ruleset import load_ruleset  # noqa: E402

SHOWN = re.compile(r"event (\w+)\(at=(\d+), seq=(\d+)")


def match_script(seed: int) -> list[Press]:
    """A whole indoor-hockey-like match: presses every 20-60 s in each half, a few kinds of each."""
    rng = random.Random(seed)
    lines = [Press(at=0, verb="press", arg="clock_start")]
    for start, end in ((0.0, 1190.0), (1510.0, 2700.0)):
        if start:
            lines.append(Press(at=start, verb="press", arg="clock_start"))
        t = start + rng.uniform(20, 60)
        while t < end:
            kind = rng.choice(["goal", "goal", "penalty", "stop", "undo", "timeout"])
            side = rng.choice(["home", "away"])
            if kind == "goal":
                lines += [Press(at=t, verb="type", arg=str(rng.randint(1, 30))),
                          Press(at=t + 0.5, verb="press", arg=f"goal_{side}")]
            elif kind == "penalty":
                lines += [Press(at=t, verb="type", arg=str(rng.randint(1, 30))),
                          Press(at=t + 0.5, verb="press", arg=f"penalty_{side}"),
                          Press(at=t + 1.5, verb="press", arg="next")]
            elif kind == "stop":
                lines += [Press(at=t, verb="press", arg="clock_stop"),
                          Press(at=t + rng.uniform(5, 30), verb="press", arg="clock_start")]
            elif kind == "timeout":
                lines += [Press(at=t, verb="press", arg=f"timeout_{side}"),
                          Press(at=t + 65, verb="press", arg="clock_start")]
            else:
                lines.append(Press(at=t, verb="press", arg="undo"))
            t = max(p.at for p in lines) + rng.uniform(20, 60)
    lines.append(Press(at=2800.0, verb="wait"))
    return lines


@dataclass
class Report:
    kills: int = 0
    matches: int = 0
    runs: int = 0
    torn_lines: int = 0
    clocks_stopped: int = 0
    events_shown: int = 0
    events_lost: int = 0
    events_doubled: int = 0
    replay_failures: int = 0
    finals_differing: int = 0  # matches whose final state or events differ from the uncut run's
    stopped_after_end: int = 0  # clock_stopped appended to a finished match
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def show(self, *, besides: tuple[str, ...] = ()) -> int:
        """The counts as JSON (not ``besides``), then the first problems; the campaign's exit status."""
        summary = {k: v for k, v in vars(self).items() if k not in ("problems", *besides)}
        print(json.dumps(summary, indent=2))
        for problem in self.problems[:20]:
            print("PROBLEM", problem)
        return 0 if not self.problems else 1


def _run(cmd: list[str], kill_after: float | None, log: Path, env: dict[str, str]) -> tuple[int | None, str, str]:
    out = log.with_suffix(".out")
    with open(log, "w", encoding="utf-8") as err, open(out, "w", encoding="utf-8") as stdout:
        proc = subprocess.Popen(cmd, stdout=stdout, stderr=err, cwd=ROOT, env=env)
        try:
            code = proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            code = None
    return code, log.read_text(encoding="utf-8", errors="replace"), out.read_text(encoding="utf-8")


def journal_events(journal_dir: Path) -> list[dict[str, Any]]:
    path = current_journal(journal_dir)
    if path is None:
        return []
    log = read_log(path.read_text(encoding="utf-8"), str(path))
    return [event_to_dict(e) for e in log.events]


def check_final(journal_dir: Path, final: str, uncut: tuple[str, list[dict[str, Any]]], report: Report) -> None:
    """The cut match against the same script run uncut: the same final state and the very same events (a
    scripted table goes on from the cut with no event of its own, and every press lands at its line's instant)."""
    events = journal_events(journal_dir)
    if final != uncut[0] or events != uncut[1]:
        report.finals_differing += 1
        report.problems.append(f"{journal_dir}: ends otherwise than the uncut run:\n{final}\nvs\n{uncut[0]}")
    if events and events[-1]["type"] == "clock_stopped" and (not uncut[1] or uncut[1][-1]["type"] != "clock_stopped"):
        report.stopped_after_end += 1  # a restart stopped a clock the uncut run never stopped: after the end


def check_match(journal_dir: Path, shown: dict[int, tuple[str, int]], report: Report, rules: str) -> None:
    path = current_journal(journal_dir)
    if path is None:
        report.problems.append(f"{journal_dir}: no current journal")
        return
    log = read_log(path.read_text(encoding="utf-8"), str(path))
    try:
        Match.from_log(log, load_ruleset, source=str(path), ruleset=load_ruleset(rules))
    except Exception as err:
        report.replay_failures += 1
        report.problems.append(f"{path}: does not replay: {err}")
    by_seq = {e.seq: e for e in log.events}
    for seq, (kind, at) in shown.items():
        e = by_seq.get(seq)
        if e is None or e.type != kind or e.at != at:
            report.events_lost += 1
            report.problems.append(f"{path}: shown seq {seq} {kind} at {at} is not in the journal as shown")
    keys = Counter(json.dumps({k: v for k, v in event_to_dict(e).items() if k not in ("seq", "v")}, sort_keys=True)
                   for e in log.events if e.type != "undo")
    doubled = sum(n - 1 for n in keys.values() if n > 1)
    if doubled:
        report.events_doubled += doubled
        report.problems.append(f"{path}: {doubled} event(s) entered twice")


def _table(rules: str, script: Path, journal: Path, speed: float) -> list[str]:
    return [sys.executable, "-m", "courtside", "table", "--rules", rules, "--court", "1", "--pins", "mock",
            "--journal", str(journal), "--headless", "--script", str(script), "--speed", f"{speed:g}"]


def campaign(kills: int, *, seed: int = 1, rules: str = "indoor-hockey", workdir: Path | None = None,
             progress: bool = False, speed: float = 0) -> Report:
    rng = random.Random(seed)
    report = Report()
    began = time.monotonic()
    base = Path(workdir or tempfile.mkdtemp(prefix="courtside-kills-"))
    # The tables' RAM heartbeats go under the campaign's folder, not /dev/shm (a kill leaves them behind).
    env = {**os.environ, "RUNTIME_DIRECTORY": str(base / "runtime")}
    (base / "runtime").mkdir(exist_ok=True)
    full: float | None = None
    while report.kills < kills:
        report.matches += 1
        match_dir = base / f"match-{report.matches}"
        match_dir.mkdir(parents=True)
        script = match_dir / "presses.txt"
        script.write_text(format_script(match_script(seed * 100_000 + report.matches)), encoding="utf-8")
        journal = match_dir / "journal"
        code, _, final = _run(_table(rules, script, match_dir / "uncut", 0), None, match_dir / "uncut.log", env)
        uncut = (final, journal_events(match_dir / "uncut"))
        cmd = _table(rules, script, journal, speed)
        shown: dict[int, tuple[str, int]] = {}
        while True:
            report.runs += 1
            t0 = time.monotonic()
            kill_after = None if full is None or report.kills >= kills else rng.uniform(0, full)
            code, err, final = _run(cmd, kill_after, match_dir / f"run-{report.runs}.log", env)
            if full is None:
                full = time.monotonic() - t0
            for m in SHOWN.finditer(err):
                shown[int(m.group(3))] = (_snake(m.group(1)), int(m.group(2)))
            report.torn_lines += err.count("torn last line")
            report.clocks_stopped += err.count("the clock was stopped at")
            if code is None:
                report.kills += 1
                continue
            if code != 0:
                report.problems.append(f"run {report.runs} exited {code}: {err[-500:]}")
            break
        report.events_shown += len(shown)
        check_match(journal, shown, report, rules)
        check_final(journal, final, uncut, report)
        if progress:  # every counter each time, so a campaign stopped from outside still leaves its figures
            counters = {k: v for k, v in vars(report).items() if k != "problems"}
            counters["seconds"] = round(time.monotonic() - began, 1)
            print(f"match {report.matches}: {json.dumps(counters)} problems={len(report.problems)}",
                  file=sys.stderr, flush=True)
    report.seconds = time.monotonic() - began
    return report


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="indoor-hockey")
    parser.add_argument("--speed", type=float, default=0, help="the table's --speed (0: a virtual clock)")
    args = parser.parse_args()
    return campaign(args.kills, seed=args.seed, rules=args.rules, progress=True, speed=args.speed).show()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    sys.exit(main())
