"""The journal is the outbox: what of each match's journal the service has not acknowledged yet.

Every journal file (firmware/journal.py, one per match) is read as it is; beside it a small
sidecar ``NAME.acked`` holds the last seq the service acknowledged with none missing before it
(``through``) and the seq of the acknowledged result. Everything after ``through`` is waiting, but for the
events acknowledged one by one (an instance acks through what it has seen stored, and with several sharing a
court's messages another may have stored the ones before), and so is the result of a finished match until its ack
arrives. When the table comes online the
service says what it holds of each match (``held``): the sidecar takes that as it is, so a service
whose database was restored from an older backup gets again what it lost (the journal is the source).
The sidecar is written atomically but not fsynced: lost after a power cut, it only makes the table
send again what the service already has, which the service acknowledges again and stores once.

Only the table's loop thread uses it (the link calls it from there).
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules import (
    RUN_OUT_MS,
    CourtsideError,
    Event,
    LogHeader,
    Match,
    Ruleset,
    event_to_dict,
    load_ruleset,
    read_log,
    result_payload,
)

log = logging.getLogger("courtside.table")


def acked_path(journal: Path) -> Path:
    return journal.with_name(journal.name.removesuffix(".jsonl") + ".acked")


@dataclass
class MatchBox:
    """One match's journal as the outbox sees it."""

    path: Path
    header: LogHeader
    events: list[Event] = field(default_factory=list)
    through: int = 0  # acknowledged up to here, none missing
    # Acknowledged one by one past ``through``: with two instances sharing a court's messages, each acks through what
    # it has seen stored, and the events the other one took waited for a resend (a quarter of a cup's messages).
    acked_past: set[int] = field(default_factory=set)
    result_acked: int | None = None  # the seq of the acknowledged result
    finished: bool = True  # the table says it is over (a past match, or the current one shown finished)
    _result: tuple[int, dict[str, Any] | None] | None = None  # cache: (last seq, result)

    @property
    def match_id(self) -> str:
        return self.header.match_id or self.path.stem

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    def waiting_events(self) -> list[Event]:
        return [e for e in self.events if e.seq > self.through and e.seq not in self.acked_past]

    def result(self, ruleset: Ruleset | None) -> dict[str, Any] | None:
        """The result the journal gives (None while the match is not over)."""
        if not self.events or not self.finished:
            return None
        if self._result is not None and self._result[0] == self.last_seq:
            return self._result[1]
        try:
            rules = ruleset or load_ruleset(self.header.ruleset)
            match = Match.replay(rules, self.events, stage=self.header.stage, round=self.header.round,
                                 on_field=self.header.on_field)
        except (CourtsideError, OSError) as err:
            log.warning("outbox: %s does not replay (%s); its result is not sent", self.path, err)
            self._result = (self.last_seq, None)
            return None
        outcome = match.result(match.last_at + RUN_OUT_MS)
        out = None if outcome is None else result_payload(outcome)
        self._result = (self.last_seq, out)
        return out

    def result_waiting(self, ruleset: Ruleset | None) -> bool:
        return self.result_acked != self.last_seq and self.result(ruleset) is not None


class Outbox:
    def __init__(self, directory: Path, ruleset: Ruleset | None = None) -> None:
        self.directory = Path(directory)
        self.ruleset = ruleset
        self.boxes: dict[str, MatchBox] = {}
        self.scan()

    def scan(self) -> None:
        """Read every journal in the folder (after a reboot: what was never acknowledged goes out again)."""
        if not self.directory.is_dir():
            return
        for path in sorted(self.directory.glob("*.jsonl")):
            try:
                parsed = read_log(path.read_text(encoding="utf-8", errors="replace"), str(path), lenient_tail=True)
            except (CourtsideError, OSError) as err:
                log.warning("outbox: %s cannot be read (%s)", path, err)
                continue
            if parsed.header is None or parsed.header.match_id is None:
                continue
            known = self.boxes.get(parsed.header.match_id)
            if known is not None and known.path == path:
                continue  # already followed (the loop's events are newer than the file we read)
            box = MatchBox(path=path, header=parsed.header, events=list(parsed.events))
            self._read_acked(box)
            if known is not None:
                box.events = known.events or box.events
                box.finished = known.finished
            self.boxes[box.match_id] = box

    def _read_acked(self, box: MatchBox) -> None:
        try:
            data = json.loads(acked_path(box.path).read_text(encoding="utf-8"))
            box.through = int(data.get("through", 0))
            result = data.get("result")
            box.result_acked = int(result) if result is not None else None
        except (OSError, ValueError, TypeError):
            pass

    def _write_acked(self, box: MatchBox) -> None:
        path = acked_path(box.path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps({"through": box.through, "result": box.result_acked}) + "\n", encoding="utf-8")
        os.replace(tmp, path)

    def loaded(self, header: LogHeader, events: tuple[Event, ...], path: Path | None = None) -> MatchBox | None:
        """A match was loaded or recovered by the loop."""
        if header.match_id is None:
            return None
        if header.match_id not in self.boxes:
            self.scan()  # its journal file exists by now: find it (and its sidecar) by the header's match id
        box = self.boxes.get(header.match_id)
        if box is None:
            box = MatchBox(path=path or self.directory / f"{header.match_id}.jsonl", header=header)
            self._read_acked(box)
            self.boxes[header.match_id] = box
        if events:
            box.events = list(events)
        box.finished = False  # the match being played: its result goes once the loop shows it finished
        return box

    def shown_finished(self, match_id: str) -> None:
        box = self.boxes.get(match_id)
        if box is not None and not box.finished:
            box.finished = True
            box._result = None

    def add(self, header: LogHeader, event: Event) -> MatchBox | None:
        """An event was journaled (fsynced) by the loop: it waits for its ack."""
        box = self.boxes.get(header.match_id or "") or self.loaded(header, ())
        if box is None:
            return None
        if not box.events or event.seq > box.last_seq:
            box.events.append(event)
        return box

    def acked(self, match_id: str, of: str, seq: int, through: int) -> None:
        box = self.boxes.get(match_id)
        if box is None:
            return
        if of == "event":
            through = max(through, box.through)  # an instance that has seen less acks less: kept, not taken back
            if seq > through:
                box.acked_past.add(seq)  # stored (an ack follows the commit), though not all before it yet
            while through + 1 in box.acked_past:
                through += 1
            box.acked_past = {n for n in box.acked_past if n > through}
            if through > box.through:
                box.through = through
                self._write_acked(box)
        elif of == "result" and seq != box.result_acked and seq == box.last_seq:
            box.result_acked = seq
            self._write_acked(box)

    def held(self, match_id: str, through: int, result: bool) -> bool:
        """The service says what it holds of the match: believed as it is, lower than the sidecar included (its
        database was restored from an older backup), so what it lacks waits again; without a result there, the
        table's goes again once the match is over. True when that changed anything."""
        box = self.boxes.get(match_id)
        if box is None:
            return False
        through = min(through, box.last_seq)
        acked = box.result_acked if result else None
        if (through, acked) == (box.through, box.result_acked) and not box.acked_past:
            return False
        log.warning("outbox: the service holds match %s through seq %d, %s (believed %d, %s): sending the rest "
                    "again", match_id, through, "a result" if result else "no result", box.through,
                    "result acknowledged" if box.result_acked is not None else "no result acknowledged")
        box.through, box.result_acked = through, acked
        box.acked_past.clear()
        self._write_acked(box)
        return True

    def waiting(self) -> int:
        """How many messages wait for the service: events and results."""
        return sum(len(b.waiting_events()) + (1 if b.result_waiting(self.ruleset) else 0) for b in self.boxes.values())

    def pending(self) -> list[tuple[MatchBox, str, Any]]:
        """What to send, oldest match first: ("event", event dict) and ("result", result dict)."""
        out: list[tuple[MatchBox, str, Any]] = []
        for box in self.boxes.values():
            out.extend((box, "event", event_to_dict(e)) for e in box.waiting_events())
            if box.result_waiting(self.ruleset):
                out.append((box, "result", box.result(self.ruleset)))
        return out
