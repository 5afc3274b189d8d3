"""One journal file per match: the match's event log (docs/events.md, header line first), made durable
with fsync before anything shows an event, and read back after a power cut.

Beside ``NAME.jsonl`` live ``NAME.meta.json`` (written once when the match is loaded:
the wall-clock and session instants of match instant 0) and ``NAME.alive``, the latest
match instant the table saw (for the instant of a cut). The table records that before
every draw (so never behind what the screen showed, at any ``--speed``) in RAM (a tmpfs:
``$RUNTIME_DIRECTORY`` or /dev/shm), which a crash or a kill leaves intact, and every
:data:`DISK_ALIVE_MS` of wall-clock time on the card, which a power cut leaves at most that
old; rewriting a card page every second would cost more than the match's journal. Neither
is fsynced. A clean close writes the card's copy exact and removes the RAM one (and its
folder when empty), so nothing is left in /dev/shm. ``current`` names the match shown.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware.errors import JournalError
from rules import Event, EventLogError, LogHeader, ParsedLog, event_to_line, header_to_line, read_log

log = logging.getLogger("courtside.table")

CURRENT = "current"
SET_ASIDE = "set-aside"  # journals that could not be recovered, moved out of the way (set_aside)
_ALIVE_WIDTH = 64
DISK_ALIVE_MS = 15_000  # wall-clock ms between records of the latest instant on the card


@dataclass(frozen=True, kw_only=True)
class Meta:
    """When match instant 0 was: on the wall clock (ms since 1970) and on the session clock (s)."""

    anchor_wall_ms: int
    session_at_zero: float
    speed: float = 1.0
    scheduled: dict[str, Any] | None = None  # the schedule entry it was loaded from, for the screen


@dataclass(frozen=True, kw_only=True)
class Alive:
    at: int  # match ms
    wall_ms: int


def safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-.") or "match"


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def make_folder(directory: Path) -> None:
    """Make the journal folder (and any folder above it missing), each one's name fsynced in its parent: a
    folder made but not yet in its parent's entries on the card is gone after a power cut, with all it holds."""
    missing = []
    at = directory
    while not at.is_dir():
        missing.append(at)
        if at.parent == at:
            break
        at = at.parent
    for folder in reversed(missing):
        folder.mkdir(exist_ok=True)
        _fsync_dir(folder.parent)


def write_atomic(path: Path, text: str) -> None:
    """``text`` in ``path`` whole or not at all, on disk (the file and its folder fsynced) when it returns."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


class Journal:
    """The open journal of the match being played; ``append`` returns once the line is on disk."""

    def __init__(self, path: Path, header: LogHeader, meta: Meta) -> None:
        self.path = path
        self.header = header
        self.meta = meta
        self.bytes_written = 0
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._alive_fds: dict[Path, int] = {}
        self._disk_alive_wall = -DISK_ALIVE_MS
        self._alive: tuple[int, int] | None = None  # the latest (match ms, wall ms) recorded

    @classmethod
    def create(cls, directory: Path, name: str, header: LogHeader, meta: Meta) -> Journal:
        """A new match: its meta, its header line, then ``current`` pointing at it, each durable."""
        make_folder(directory)
        stem = safe_name(name)
        path = directory / f"{stem}.jsonl"
        n = 1
        while path.exists():  # a match played again (a replay of a tie) keeps the first journal
            n += 1
            path = directory / f"{stem}~{n}.jsonl"
        write_atomic(meta_path(path), json.dumps(vars(meta), ensure_ascii=False) + "\n")
        journal = cls(path, header, meta)
        journal._write(header_to_line(header) + "\n")
        _fsync_dir(directory)
        write_atomic(directory / CURRENT, path.name + "\n")
        return journal

    @classmethod
    def recover(cls, path: Path) -> tuple[Journal, ParsedLog]:
        """Open a journal after a restart: a torn last line (a write cut short) is dropped with a warning."""
        try:
            meta = Meta(**json.loads(meta_path(path).read_text(encoding="utf-8")))
            raw = path.read_bytes()
        except (OSError, ValueError, TypeError) as err:
            raise JournalError(f"{path}: cannot read the journal or its .meta.json ({err})") from None
        text = raw.decode("utf-8", errors="replace")
        try:
            parsed = read_log(text, str(path), lenient_tail=True)
        except EventLogError as err:
            raise JournalError(f"{err} (only a torn last line is dropped; this one is not the last)") from None
        keep = len(raw)
        if parsed.torn is not None:
            log.warning("%s, line %d: dropped a torn last line (%s); the write was cut short",
                        path, parsed.torn.line, parsed.torn.reason)
            keep = parsed.torn.offset
        elif raw and not raw.endswith(b"\n"):
            keep = -1  # a whole last line without its newline: keep it, end it
        if parsed.header is None:
            raise JournalError(f"{path}: the header line is missing; the journal cannot say which match it is")
        journal = cls(path, parsed.header, meta)
        if keep == -1:
            journal._write("\n")
        elif keep < len(raw):
            os.ftruncate(journal._fd, keep)
            os.fsync(journal._fd)
        return journal, parsed

    def adopt(self, meta: Meta) -> None:
        """A journal reopened to play its match on (resumed or replayed): its new instant 0's meta, then
        ``current`` pointing at it, each durable, so a restart comes back to it."""
        write_atomic(meta_path(self.path), json.dumps(vars(meta), ensure_ascii=False) + "\n")
        self.meta = meta
        write_atomic(self.path.parent / CURRENT, self.path.name + "\n")

    def _write(self, text: str) -> None:
        data = text.encode("utf-8")
        os.write(self._fd, data)
        os.fdatasync(self._fd)
        self.bytes_written += len(data)

    def append(self, event: Event) -> None:
        """The event's line, written and fsynced: only after this may it be shown or sent."""
        self._write(event_to_line(event) + "\n")

    def alive(self, at: int, wall_ms: int) -> None:
        """Record the latest match instant seen (for the instant of a cut); cheap, not fsynced.

        Never goes back: a late press drawn at its own instant does not undo a later instant seen.
        """
        if self._alive is not None and at < self._alive[0]:
            at = self._alive[0]
        self._alive = (at, wall_ms)
        self._write_alive(at, wall_ms, to_disk=False)

    def _write_alive(self, at: int, wall_ms: int, *, to_disk: bool) -> None:
        text = (json.dumps({"at": at, "wall_ms": wall_ms}).ljust(_ALIVE_WIDTH - 1) + "\n").encode("ascii")
        places = [p for p in (runtime_alive_path(self.path),) if p is not None]
        # A wall clock set back (network time arriving on a Pi that booted years ahead) writes at once too:
        # waiting for it to pass the last write again would leave the card's record years stale.
        if to_disk or not 0 <= wall_ms - self._disk_alive_wall < DISK_ALIVE_MS or not places:
            self._disk_alive_wall = wall_ms
            places.append(alive_path(self.path))
            self.bytes_written += _ALIVE_WIDTH
        for place in places:
            fd = self._alive_fds.get(place)
            if fd is None:
                fd = self._alive_fds[place] = _open_alive(place)
            os.pwrite(fd, text, 0)

    def close(self) -> None:
        """A clean stop: the card's copy of the latest instant made exact, the RAM copy removed."""
        if self._alive is not None:
            self._write_alive(*self._alive, to_disk=True)
        os.close(self._fd)
        for place, fd in self._alive_fds.items():
            os.close(fd)
            if place != alive_path(self.path):
                _remove_runtime(place)
        self._alive_fds.clear()


def _open_alive(place: Path) -> int:
    """Open (creating) a heartbeat file; again if another table's clean stop removed the empty folder meanwhile."""
    for attempt in range(3):
        place.parent.mkdir(parents=True, exist_ok=True)
        try:
            return os.open(place, os.O_WRONLY | os.O_CREAT, 0o644)
        except FileNotFoundError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def _remove_runtime(place: Path) -> None:
    """Remove a RAM record and the folders above it that it leaves empty (another table's stay)."""
    try:
        place.unlink(missing_ok=True)
        place.parent.rmdir()
        place.parent.parent.rmdir()
    except OSError:
        pass


def meta_path(path: Path) -> Path:
    return path.with_name(path.name.removesuffix(".jsonl") + ".meta.json")


def alive_path(path: Path) -> Path:
    return path.with_name(path.name.removesuffix(".jsonl") + ".alive")


def runtime_alive_path(path: Path) -> Path | None:
    """Where the per-second record of a journal lives in RAM: one folder per journal folder."""
    base = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0] or "/dev/shm"
    if not os.path.isdir(base):
        return None
    folder = hashlib.sha256(str(path.parent.resolve()).encode("utf-8")).hexdigest()[:16]
    return Path(base) / f"courtside-{os.getuid()}" / folder / alive_path(path).name


def read_alive(path: Path) -> Alive | None:
    """The latest instant recorded in RAM or on the card, whichever is later."""
    found = []
    for place in (alive_path(path), runtime_alive_path(path)):
        if place is None:
            continue
        try:
            data = json.loads(place.read_text(encoding="ascii"))
            found.append(Alive(at=int(data["at"]), wall_ms=int(data["wall_ms"])))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return max(found, key=lambda a: a.at, default=None)


def set_aside(directory: Path) -> Path:
    """Move the current journal that cannot be recovered out of the way: it, its .meta.json and .alive and
    ``current`` go to a new folder ``set-aside/N`` (N counts up), each move durable, nothing deleted. The table
    then starts clean instead of failing at every start (under Restart=always: a loop until someone came)."""
    path = current_journal(directory)
    base = directory / SET_ASIDE
    n = 1
    while (base / str(n)).exists():
        n += 1
    folder = base / str(n)
    make_folder(folder)
    moving = [p for p in (path, meta_path(path), alive_path(path)) if p is not None] if path else []
    for place in [*moving, directory / CURRENT]:
        if place.exists():
            os.replace(place, folder / place.name)
    _fsync_dir(folder)  # in the new folder first: a cut between the two leaves it there, never nowhere
    _fsync_dir(directory)
    return folder


IN_RAM = ("tmpfs", "ramfs", "overlay")


def file_system_in_ram(directory: Path, mountinfo: str = "/proc/self/mountinfo") -> str | None:
    """The type of the file system holding ``directory`` when a power cut empties it (a tmpfs, or the
    overlay of a read-only root without its data partition), else None (or when it cannot be told)."""
    try:
        lines = Path(mountinfo).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    target = str(directory.resolve())
    best, kind = "", None
    for line in lines:
        fields = line.split()
        if " - " not in line or len(fields) < 5:
            continue
        point = fields[4].replace("\\040", " ")
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):
            best, kind = point, line.split(" - ", 1)[1].split()[0]
    return kind if kind in IN_RAM else None


def current_journal(directory: Path) -> Path | None:
    """The journal of the match the table was showing, if any."""
    try:
        name = (directory / CURRENT).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    path = directory / name
    return path if name and path.exists() else None
