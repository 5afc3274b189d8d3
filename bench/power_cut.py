"""Power cuts of the whole Pi: what the card holds when the power goes, not what a killed process leaves.

bench/kill_table.py kills the table's process: the kernel's page cache survives, so every write the table made
is still there. A power cut of the whole machine loses the page cache and RAM (the /dev/shm heartbeat): the
card holds only what was fsynced. This campaign runs the real table under ``strace``, replays its writes,
fsyncs, renames and mkdirs into a model of the card, and at random moments of that run takes the card's image:

- a file's content is what its last fsync/fdatasync made durable; what was written after it may have reached
  the card in part (a torn tail: a random prefix of the unsynced bytes is kept, or none of them);
- a name (a created file, a rename, a new folder) is on the card once its folder was fsynced after the change;
  before that the card still has the old name (or none);
- RAM is gone: the restarted table gets an empty runtime folder.

The table is restarted on that image with the same command (the press script goes on from the instant it
recovers to), and the checks of bench/kill_table.py follow: every event logged as shown before the cut is in
the journal at its instant and seq, nothing was entered twice, the journal replays, and the match ends as
the same script run uncut.

    .venv/bin/python bench/power_cut.py --cuts 500 [--seed 1] [--rules indoor-hockey]

Figures: docs/reliability.md ("Power cuts of the whole Pi").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kill_table import (  # noqa: E402
    SHOWN,
    Report,
    _snake,
    _table,
    check_final,
    check_match,
    journal_events,
    match_script,
)
from firmware.journal import current_journal  # noqa: E402
from firmware.script import format_script  # noqa: E402
from rules.match.log import read_log  # noqa: E402

SYSCALLS = ("openat,write,pwrite64,fsync,fdatasync,rename,renameat,renameat2,ftruncate,unlink,unlinkat,"
            "mkdir,mkdirat,rmdir,close")
_LINE = re.compile(r"^(\d+)\s+[\d.]+\s+(\w+)\((.*)\)\s+=\s+(-?\d+)")
_UNFINISHED = re.compile(r"^(\d+)\s+[\d.]+\s+(\w+)\((.*) <unfinished \.\.\.>$")
_RESUMED = re.compile(r"^(\d+)\s+[\d.]+\s+<\.\.\. (\w+) resumed>(.*)\)\s+=\s+(-?\d+)")
_STRING = re.compile(r'"((?:\\x[0-9a-f]{2})*)"')


@dataclass(frozen=True)
class Call:
    """One system call of the traced table: its name, its string arguments (bytes), its other arguments, result."""

    name: str
    strings: tuple[bytes, ...]
    args: tuple[str, ...]
    result: int


def parse_trace(text: str) -> list[Call]:
    """``strace -f -ttt -xx`` output to calls, in the order the kernel saw them (split calls joined)."""
    calls: list[Call] = []
    pending: dict[str, tuple[str, str]] = {}
    for line in text.splitlines():
        if m := _UNFINISHED.match(line):
            pending[m.group(1)] = (m.group(2), m.group(3))
            continue
        if m := _RESUMED.match(line):
            name, head = pending.pop(m.group(1), (m.group(2), ""))
            body, result = head + m.group(3), m.group(4)
        elif m := _LINE.match(line):
            name, body, result = m.group(2), m.group(3), m.group(4)
        else:
            continue
        strings = tuple(bytes.fromhex(s.replace("\\x", "")) for s in _STRING.findall(body))
        others = tuple(a.strip() for a in _STRING.sub("", body).split(",") if a.strip())
        calls.append(Call(name, strings, others, int(result)))
    return calls


@dataclass
class _Inode:
    data: bytearray = field(default_factory=bytearray)
    synced: bytes = b""


@dataclass
class _Fd:
    path: str
    inode: _Inode | None  # None: a folder
    offset: int = 0
    append: bool = False


class Card:
    """The journal folder as the card holds it (durable) and as the page cache holds it (volatile)."""

    def __init__(self, folder: Path) -> None:
        self.folder = str(folder)
        self.top = str(folder.parent)
        self.names: dict[str, _Inode] = {}  # volatile: path -> file
        self.durable_names: dict[str, _Inode] = {}
        self.folders: set[str] = {self.top}
        self.durable_folders: set[str] = {self.top}
        self.fds: dict[int, _Fd] = {}
        self.log: list[str] = []  # what the table wrote to stderr, up to now

    @classmethod
    def from_disk(cls, folder: Path) -> Card:
        """A card whose journal folder already holds what is on the disk now (a restart's starting point)."""
        card = cls(folder)
        if folder.is_dir():
            card.folders.add(card.folder)
            card.durable_folders.add(card.folder)
            for path in folder.iterdir():
                if path.is_file():
                    data = path.read_bytes()
                    card.names[str(path)] = card.durable_names[str(path)] = _Inode(bytearray(data), data)
        return card

    def _ours(self, path: str) -> bool:
        return path in (self.folder, self.top) or path.startswith(self.folder + "/")

    def apply(self, call: Call) -> None:
        name, s, a, result = call.name, call.strings, call.args, call.result
        if name == "write" and a and a[0] == "2":
            self.log.append(s[0].decode("utf-8", errors="replace"))
        if result < 0:
            return
        if name == "openat" and s and a[0] == "AT_FDCWD" and self._ours(path := s[0].decode()):
            flags = a[1]
            if path in self.folders or "O_DIRECTORY" in flags:
                self.fds[result] = _Fd(path, None)
                return
            inode = self.names.get(path)
            if inode is None:
                inode = self.names[path] = _Inode()
            if "O_TRUNC" in flags:
                inode.data.clear()
            self.fds[result] = _Fd(path, inode, append="O_APPEND" in flags)
        elif name in ("write", "pwrite64") and (fd := self.fds.get(int(a[0]))) and fd.inode is not None:
            data = s[0][:result]
            at = int(a[2]) if name == "pwrite64" else len(fd.inode.data) if fd.append else fd.offset
            buf = fd.inode.data
            if len(buf) < at:
                buf.extend(b"\0" * (at - len(buf)))
            buf[at:at + len(data)] = data
            if name == "write":
                fd.offset = at + len(data)
        elif name in ("fsync", "fdatasync") and (fd := self.fds.get(int(a[0]))):
            if fd.inode is not None:
                fd.inode.synced = bytes(fd.inode.data)
            else:
                self._sync_folder(fd.path)
        elif name == "ftruncate" and (fd := self.fds.get(int(a[0]))) and fd.inode is not None:
            del fd.inode.data[int(a[1]):]
        elif name in ("rename", "renameat", "renameat2") and len(s) == 2 and self._ours(old := s[0].decode()):
            inode = self.names.pop(old, None)
            if inode is not None:
                self.names[s[1].decode()] = inode
        elif name in ("unlink", "unlinkat") and s and self._ours(path := s[0].decode()):
            if "AT_REMOVEDIR" in ",".join(a):
                self.folders.discard(path)
            else:
                self.names.pop(path, None)
        elif name in ("mkdir", "mkdirat") and s and self._ours(path := s[0].decode()):
            self.folders.add(path)
        elif name == "rmdir" and s:
            self.folders.discard(s[0].decode())
        elif name == "close":
            self.fds.pop(int(a[0]), None)

    def state(self) -> tuple[object, ...]:
        """Everything a call can change on the card or in its page cache (to find the calls that matter)."""
        files = tuple(sorted((p, bytes(i.data), i.synced) for p, i in self.names.items()))
        durable = tuple(sorted((p, id(i)) for p, i in self.durable_names.items()))
        return files, durable, tuple(sorted(self.folders)), tuple(sorted(self.durable_folders))

    def _sync_folder(self, folder: str) -> None:
        """An fsync of a folder makes its entries (files and sub-folders) what the page cache says they are."""
        def inside(path: str) -> bool:
            return os.path.dirname(path) == folder
        for path in [p for p in self.durable_names if inside(p)]:
            del self.durable_names[path]
        self.durable_names.update({p: i for p, i in self.names.items() if inside(p)})
        self.durable_folders = {f for f in self.durable_folders if not inside(f)} | {f for f in self.folders
                                                                                     if inside(f)}

    def image(self, dest: Path, rng: random.Random) -> int:
        """Write what the card holds to ``dest`` (standing for the journal folder); returns the torn tails kept."""
        torn = 0
        if self.folder not in self.durable_folders:
            return torn
        dest.mkdir(parents=True)
        for path, inode in self.durable_names.items():
            if os.path.dirname(path) != self.folder:
                continue
            content = inode.synced
            unsynced = bytes(inode.data[len(content):]) if bytes(inode.data).startswith(content) else b""
            if unsynced and rng.random() < 0.5:
                content += unsynced[:rng.randint(1, len(unsynced))]
                torn += 1
            (dest / os.path.basename(path)).write_bytes(content)
        return torn


def traced_run(cmd: list[str], trace: Path, env: dict[str, str]) -> tuple[list[Call], str]:
    """The table run to its end under strace: its calls, and its stdout (the final state)."""
    if shutil.which("strace") is None:
        raise SystemExit("power_cut: strace is needed (apt-get install strace)")
    out = subprocess.run(["strace", "-f", "-qq", "-ttt", "-xx", "-s", "1000000", "-e", f"trace={SYSCALLS}",
                          "-o", str(trace), *cmd], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    return parse_trace(trace.read_text(encoding="ascii")), out.stdout


@dataclass
class MachineReport(Report):
    cuts: int = 0
    images_without_journal: int = 0  # cut before the first match's journal was on the card
    cuts_during_recovery: int = 0  # a second cut while the restarted table recovered and went on
    torn_tails: int = 0  # unsynced bytes kept in part on an image
    cut_moments: list[int] = field(default_factory=list)


def campaign(cuts: int, *, seed: int = 1, rules: str = "indoor-hockey", workdir: Path | None = None,
             cuts_per_match: int = 10, progress: bool = False, second_cuts: float = 0.3) -> MachineReport:
    """``second_cuts``: the share of restarts that are cut too (traced and imaged the same way) before the last one."""
    rng = random.Random(seed)
    report = MachineReport()
    began = time.monotonic()
    base = Path(workdir or tempfile.mkdtemp(prefix="courtside-power-cuts-"))
    while report.cuts < cuts:
        report.matches += 1
        match_dir = base / f"match-{report.matches}"
        match_dir.mkdir(parents=True)
        script = match_dir / "presses.txt"
        script.write_text(format_script(match_script(seed * 100_000 + report.matches)), encoding="utf-8")
        env = {**os.environ, "RUNTIME_DIRECTORY": str(match_dir / "ram")}
        (match_dir / "ram").mkdir()
        journal = match_dir / "journal"  # its parent exists: the table makes the folder itself
        calls, final = traced_run(_table(rules, script, journal, 0), match_dir / "uncut.trace", env)
        uncut = (final, journal_events(journal))
        report.runs += 1
        moments = _moments(calls, journal)
        for _ in range(min(cuts_per_match, cuts - report.cuts)):
            moment = rng.choice(moments)
            card = Card(journal)
            for call in calls[:moment]:
                card.apply(call)
            report.cuts += 1
            report.kills += 1
            report.cut_moments.append(round(100 * moment / max(1, len(calls))))
            cut_dir = match_dir / f"cut-{report.cuts}"
            image = cut_dir / "journal"
            report.torn_tails += card.image(image, rng)
            if not image.exists():
                report.images_without_journal += 1
            shown: dict[int, tuple[str, int]] = {}
            for m in SHOWN.finditer("".join(card.log)):
                shown[int(m.group(3))] = (_snake(m.group(1)), int(m.group(2)))
            lost = _not_on_card(image, shown)
            if lost:  # a restart under the script would press them again: look at the card itself
                report.events_lost += len(lost)
                report.problems.append(f"{cut_dir}: shown before the cut, not on the card: {lost}")
            if rng.random() < second_cuts:  # the power goes again while the table recovers or plays on
                image, shown = _cut_again(image, shown, rules, script, env, cut_dir, rng, report)
            # The restart after the power comes back: the card's image, RAM empty.
            ram = cut_dir / "ram"
            ram.mkdir(parents=True)
            again = subprocess.run(_table(rules, script, image, 0), capture_output=True, text=True, cwd=ROOT,
                                   env={**env, "RUNTIME_DIRECTORY": str(ram)})
            report.runs += 1
            report.torn_lines += again.stderr.count("torn last line")
            if again.returncode != 0:
                report.problems.append(f"{cut_dir}: the restart exited {again.returncode}: {again.stderr[-500:]}")
                continue
            for m in SHOWN.finditer(again.stderr):
                shown[int(m.group(3))] = (_snake(m.group(1)), int(m.group(2)))
            report.events_shown += len(shown)
            before = len(report.problems)
            check_match(image, shown, report, rules)
            check_final(image, again.stdout, uncut, report)
            if len(report.problems) == before:
                shutil.rmtree(cut_dir)  # the failures' images stay for a look
        if progress:
            counters = {k: v for k, v in vars(report).items() if k not in ("problems", "cut_moments")}
            counters["seconds"] = round(time.monotonic() - began, 1)
            print(f"match {report.matches}: {json.dumps(counters)} problems={len(report.problems)}",
                  file=sys.stderr, flush=True)
    report.seconds = time.monotonic() - began
    return report


def _cut_again(image: Path, shown: dict[int, tuple[str, int]], rules: str, script: Path, env: dict[str, str],
               cut_dir: Path, rng: random.Random, report: MachineReport) -> tuple[Path, dict[int, tuple[str, int]]]:
    """The table restarted on ``image`` under strace and cut at a random moment of that run: the new image and
    every event shown up to the second cut (checked on the new image as the first was)."""
    traced = cut_dir / "traced" / "journal"
    traced.parent.mkdir(parents=True)
    if image.exists():
        shutil.copytree(image, traced)
    ram = cut_dir / "traced" / "ram"
    ram.mkdir()
    calls, _ = traced_run(_table(rules, script, traced, 0), cut_dir / "traced" / "trace",
                          {**env, "RUNTIME_DIRECTORY": str(ram)})
    # The card as it was when the power came back: the image, already on the card (from_disk).
    card = Card.from_disk(image)
    card.folder, card.top = str(traced), str(traced.parent)
    card.names = {str(traced / Path(p).name): i for p, i in card.names.items()}
    card.durable_names = {str(traced / Path(p).name): i for p, i in card.durable_names.items()}
    card.folders = {card.top} | ({card.folder} if image.exists() else set())
    card.durable_folders = set(card.folders)
    for call in calls[:rng.choice(_moments(calls, traced))]:
        card.apply(call)
    again = cut_dir / "journal-again"
    report.torn_tails += card.image(again, rng)
    report.cuts_during_recovery += 1
    report.runs += 1
    shown = dict(shown)
    for m in SHOWN.finditer("".join(card.log)):
        shown[int(m.group(3))] = (_snake(m.group(1)), int(m.group(2)))
    lost = _not_on_card(again, shown)
    if lost:
        report.events_lost += len(lost)
        report.problems.append(f"{cut_dir}: shown before the second cut, not on the card: {lost}")
    return again, shown


def _moments(calls: list[Call], journal: Path) -> list[int]:
    """The moments worth cutting at: before the first call and right after each one that changed the card's
    folder or the log (between two such calls the card's image does not change)."""
    card = Card(journal)
    moments = [0]
    for i, call in enumerate(calls):
        before = (len(card.log), card.state())
        card.apply(call)
        if (len(card.log), card.state()) != before:
            moments.append(i + 1)
    return moments


def _not_on_card(image: Path, shown: dict[int, tuple[str, int]]) -> list[str]:
    """The shown events the card's image lacks, read as the table's recovery reads it (a torn tail dropped)."""
    path = current_journal(image)
    events: dict[int, tuple[str, int]] = {}
    if path is not None:
        parsed = read_log(path.read_bytes().decode("utf-8", errors="replace"), str(path), lenient_tail=True)
        events = {e.seq: (e.type, e.at) for e in parsed.events}
    return [f"seq {seq} {kind} at {at}" for seq, (kind, at) in sorted(shown.items()) if events.get(seq) != (kind, at)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cuts", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="indoor-hockey")
    parser.add_argument("--cuts-per-match", type=int, default=10)
    parser.add_argument("--again", type=float, default=0.3, help="the share of restarts cut too (default 0.3)")
    args = parser.parse_args()
    report = campaign(args.cuts, seed=args.seed, rules=args.rules, cuts_per_match=args.cuts_per_match,
                      progress=True, second_cuts=args.again)
    return report.show(besides=("cut_moments",))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    sys.exit(main())
