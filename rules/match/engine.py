"""The match: a ruleset plus an ordered log of events; the state is derived from them.

``Match.apply(command)`` checks a command against the state at its instant and the
ruleset, and either logs it as an event or raises IllegalCommand and changes
nothing. ``Match.state_at(at)`` derives the state at any instant. Undo takes an
event out of the *timeline* (the events in force, in order of their instants)
while both stay in the log, so a dispute can see every press that was made.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable

from rules.errors import EventLogError, IllegalCommand
from rules.match import events as ev
from rules.match.applied import Applied
from rules.match.fold import Context, Core, Horn
from rules.match.log import ParsedLog
from rules.match.machine import advance, fold_event, next_transition
from rules.match.outcome import MatchOutcome
from rules.match.refusals import refuse
from rules.match.state import Board, MatchState, board_of, outcome, snapshot
from rules.record import Record
from rules.ruleset import Ruleset, StageKind, stage_of_round


class _Query(Record):
    """The last query's core, advanced to its instant, and its board.

    A display asks 60 times a second between the same two events; until the next transition
    falls due the same core serves, and only the time-dependent numbers are computed again.
    """

    index: int  # the timeline's events before ``at``
    at: int
    core: Core
    due: int | None  # the next transition (None: none by itself)
    board: Board


class Match:
    """One match at one table.

    ``stage`` says whether it may end level (``ruleset.match.level_allowed_in``);
    ``round`` ("semi_final", "final", ...) decides time-outs limited to some rounds and
    must be one of the ruleset's rounds (UnknownRound names the ones it could be); when
    given, it decides the stage (a final is a knock-out): ``stage`` may then be left out,
    and a stage that contradicts the round is refused;
    ``on_field`` (players a side on the field) lets the state read "5 v 4"; it
    defaults to the ruleset's ``match.on_field`` and is given only to override it.
    """

    def __init__(
        self, ruleset: Ruleset, *, stage: StageKind | None = None, round: str | None = None,
        on_field: int | None = None,
    ) -> None:
        if round is not None:
            of_round = stage_of_round(ruleset, round)
            if stage is not None and stage != of_round:
                raise refuse("round_stage", round=round, stage=stage, expected=of_round)
            stage = of_round
        stage = stage or "round_robin"
        if on_field is None:
            on_field = ruleset.match.on_field
        if on_field is not None and on_field < 1:
            raise refuse("on_field", on_field=on_field)
        self._ctx = Context(ruleset=ruleset, stage=stage, round=round, on_field=on_field)
        self._log: list[ev.Event] = []
        self._undone_by: dict[int, list[int]] = {}  # seq -> seqs of the undos in force against it
        self._by_seq: dict[int, ev.Event] = {}
        # The timeline and, for each of its events, the folded state right after it.
        self._timeline: list[ev.Event] = []
        self._ats: list[int] = []
        self._states: list[Core] = []
        self._initial = Core()
        self._last_at = 0
        self._query: _Query | None = None

    @property
    def ruleset(self) -> Ruleset:
        return self._ctx.ruleset

    @property
    def stage(self) -> StageKind:
        return self._ctx.stage

    @property
    def round(self) -> str | None:
        return self._ctx.round

    @property
    def on_field(self) -> int | None:
        return self._ctx.on_field

    @property
    def events(self) -> tuple[ev.Event, ...]:
        """The whole log, in the order the events were entered (undone ones and undos included)."""
        return tuple(self._log)

    @property
    def timeline(self) -> tuple[ev.Event, ...]:
        """The events in force, in the order of their instants."""
        return tuple(self._timeline)

    def is_undone(self, seq: int) -> bool:
        return not _live(seq, self._undone_by)

    @classmethod
    def replay(
        cls, ruleset: Ruleset, events: Iterable[ev.Event], *, stage: StageKind | None = None,
        round: str | None = None, on_field: int | None = None,
    ) -> Match:
        """Rebuild a match from its log; a refused event raises IllegalCommand naming its seq."""
        match = cls(ruleset, stage=stage, round=round, on_field=on_field)
        for event in events:
            try:
                match.apply(event)
            except IllegalCommand as err:
                raise _refused_on_replay(event, err) from None
        return match

    @classmethod
    def from_log(
        cls, log: ParsedLog, load: Callable[[str], Ruleset] | None = None, *, source: str = "log",
        ruleset: Ruleset | None = None, stage: StageKind | None = None, round: str | None = None,
        on_field: int | None = None,
    ) -> Match:
        """The match a log describes, replayed: its header names the ruleset (loaded by ``load``), stage and round.

        ``ruleset``, ``stage``, ``round`` and ``on_field`` override the header; a ruleset
        whose digest differs from the header's is refused. A refused event raises
        EventLogError naming ``source`` and its line.
        """
        header = log.header
        if ruleset is None:
            if header is None or load is None:
                raise refuse("no_header")
            ruleset = header.load_ruleset(load)
        elif header is not None:
            header.check_ruleset(ruleset)
        if header is not None:
            if round is None:  # a round given here decides the stage itself
                round = header.round
                stage = header.stage if stage is None else stage
            on_field = header.on_field if on_field is None else on_field
        match = cls(ruleset, stage=stage, round=round, on_field=on_field)
        for line, event in zip(log.lines, log.events, strict=True):
            try:
                match.apply(event)
            except IllegalCommand as err:
                raise EventLogError(source, line, _refused_on_replay(event, err).reason) from None
        return match

    # -- commands ---------------------------------------------------------------------------

    def apply(self, command: ev.Event) -> Applied:
        """Check ``command`` and log it; says what it did, with the event as logged (with its ``seq``).

        ``command.at`` may lie before events already logged (the right press after an
        undo): it takes its place in the timeline and what follows is folded again,
        and the command is refused if any later event would then be refused. The same
        event delivered again under its seq is a no-op (``kind="duplicate"``); a
        different event under a seq already logged is refused.
        """
        last = self._log[-1].seq if self._log else 0
        if command.seq == 0:
            event = command.replace(seq=last + 1)
        elif command.seq > last:
            event = command
        elif self._by_seq.get(command.seq) == command:
            return Applied(event=command, kind="duplicate", message_key="applied.duplicate",
                           params={"seq": command.seq, "type": command.type})
        elif command.seq in self._by_seq:
            raise refuse("seq_used", seq=command.seq)
        else:
            raise refuse("seq_not_following", seq=command.seq, last=last)
        note = None
        if isinstance(event, ev.Undo):
            self._apply_undo(event)
        else:
            index = bisect_right(self._ats, event.at)
            if index == len(self._timeline):
                note = self._append(event)
            else:
                timeline = [*self._timeline[:index], event, *self._timeline[index:]]
                self._refold(timeline, index, culprit=event.seq, why=None)
                note = self._states[index].note
        self._log.append(event)
        self._by_seq[event.seq] = event
        self._last_at = max(self._last_at, event.at)
        params = {name: getattr(event, name) for name in ev.FIELD_NAMES.get(type(event), ("at", "seq"))}
        params["type"] = event.type
        if note is None:
            return Applied(event=event, kind="accepted", message_key=f"applied.{event.type}", params=params)
        what, period = note
        params["period"] = period
        if what == "late_press":
            return Applied(event=event, kind="late_press", message_key="applied.late_press", params=params)
        return Applied(event=event, kind="accepted", message_key=f"applied.{what}", params=params)

    def _append(self, event: ev.Event) -> tuple[str, int] | None:
        """The event at the end of the timeline (the usual press): one fold, lists grown in place."""
        c = (self._states[-1] if self._states else self._initial).clone()
        c.note = None
        fold_event(self._ctx, c, event)  # a refusal raises here, before anything is kept
        self._timeline.append(event)
        self._ats.append(event.at)
        self._states.append(c)
        self._query = None
        return c.note

    def _apply_undo(self, undo: ev.Undo) -> None:
        target = self._by_seq.get(undo.target)
        if target is None:
            raise refuse("no_such_event", seq=undo.target)
        if self.is_undone(target.seq):
            raise refuse("already_undone", seq=target.seq)
        undone = {**self._undone_by, target.seq: [*self._undone_by.get(target.seq, []), undo.seq]}
        event, live = self._flipped(target, undone)
        if event is not None:
            # The timeline is in (at, seq) order: the event leaves it or comes back at its place,
            # and the fold starts again from there (undo rewinds to there).
            timeline = self._timeline
            i = bisect_left(self._ats, event.at)
            while i < len(timeline) and timeline[i].at == event.at and timeline[i].seq < event.seq:
                i += 1
            changed = [*timeline[:i], event, *timeline[i:]] if live else [*timeline[:i], *timeline[i + 1 :]]
            self._refold(changed, i, culprit=None, why={"key": "cannot_undo", "params": {"seq": target.seq}})
        self._undone_by = undone

    def _flipped(self, target: ev.Event, undone: dict[int, list[int]]) -> tuple[ev.Event | None, bool]:
        """The event of the timeline whose being in force the new ``undone`` changes, and whether it now is.

        Undoing an undo puts its target back, which may itself be an undo: follow the chain
        to the one timed event at its end (None: the timeline does not change).
        """
        event = target
        while True:
            now = _live(event.seq, undone)
            if now == _live(event.seq, self._undone_by):
                return None, now
            if not isinstance(event, ev.Undo):
                return event, now
            event = self._by_seq[event.target]

    def _refold(
        self, timeline: list[ev.Event], start: int, *, culprit: int | None, why: dict[str, object] | None
    ) -> None:
        """Fold ``timeline`` from position ``start``; commit only if every event there is accepted."""
        state = self._states[start - 1] if start > 0 else self._initial
        states = self._states[:start]
        for event in timeline[start:]:
            c = state.clone()
            c.note = None
            try:
                fold_event(self._ctx, c, event)
            except IllegalCommand as err:
                if event.seq == culprit:
                    raise
                raise refuse(
                    "later_refused", before=why or {}, seq=event.seq, type=event.type,
                    inner={"key": err.key, "params": err.params, "reason": err.reason},
                ) from None
            states.append(c)
            state = c
        self._timeline = timeline
        self._ats = [e.at for e in timeline]
        self._states = states
        self._query = None

    # -- queries ----------------------------------------------------------------------------

    def _core_at(self, at: int, horns: list[Horn] | None = None) -> Core:
        index = bisect_right(self._ats, at)
        c = (self._states[index - 1] if index else self._initial).clone()
        advance(self._ctx, c, at, horns)
        return c

    def state_at(self, at: int) -> MatchState:
        """The state at instant ``at``: O(running timers) from the last event before it.

        Between transitions the core advanced for the previous query serves again, so a
        frame costs the time-dependent numbers only (bench/bench_engine.py).
        """
        index = bisect_right(self._ats, at)
        q = self._query
        if q is not None and q.index == index and q.at <= at:
            if q.due is None or at < q.due:
                return snapshot(self._ctx, q.core, q.board, at)
            c = q.core.clone()  # move the cached core on through what fell due since
        else:
            c = (self._states[index - 1] if index else self._initial).clone()
        advance(self._ctx, c, at)
        board = board_of(self._ctx, c)
        self._query = _Query(index=index, at=at, core=c, due=next_transition(self._ctx, c), board=board)
        return snapshot(self._ctx, c, board, at)

    def horns_between(self, start: int, end: int) -> list[Horn]:
        """Horns due in the instants (start, end]: period and interval ends, time-outs, the possession clock."""
        horns: list[Horn] = []
        c = self._core_at(start)
        for event in self._timeline[bisect_right(self._ats, start) :]:
            if event.at > end:
                break
            fold_event(self._ctx, c, event, horns)
        advance(self._ctx, c, end, horns)
        return horns

    def next_due(self, at: int) -> int | None:
        """The next instant after ``at`` at which the state changes by itself or by a logged event.

        A period, interval or time-out ends, a penalty is served, the possession clock
        sounds, the wall-clock cap (or the point where a full period no longer fits in it)
        is reached. None: nothing will happen until the next command. The table sleeps until then.
        """
        c = self._core_at(at)
        candidates = [next_transition(self._ctx, c)]
        index = bisect_right(self._ats, at)
        if index < len(self._ats):
            candidates.append(self._ats[index])
        cap = self._ctx.ruleset.match.wall_clock_cap
        if cap is not None and c.started_at is not None and c.finished_at is None:
            candidates += [c.started_at + cap, c.started_at + cap - self._ctx.ruleset.match.period_length]
        return min((t for t in candidates if t is not None and t > at), default=None)

    @property
    def last_at(self) -> int:
        """The latest instant in the log, undos included (0 before any event)."""
        return self._last_at

    def result(self, at: int | None = None) -> MatchOutcome | None:
        """How the match ended, as of ``at`` (default: the latest event); None while it goes on."""
        # Only the outcome: no need to build the whole display snapshot.
        return outcome(self._ctx, self._core_at(self.last_at if at is None else at))


def _live(seq: int, undone: dict[int, list[int]]) -> bool:
    """In force: no undo in force names it (an undo of an undo puts its target back)."""
    return not any(_live(u, undone) for u in undone.get(seq, ()))


def _refused_on_replay(event: ev.Event, err: IllegalCommand) -> IllegalCommand:
    return refuse("replay_refused", seq=event.seq, type=event.type,
                  inner={"key": err.key, "params": err.params, "reason": err.reason})
