"""``courtside demo --autoplay``: simulated officials play the whole tournament, court by court.

One loop (the main thread) watches the service's API and each court's table. A court whose
table is idle gets its next match as soon as the service knows both teams (a semi-final waits
for its pools, on whatever court they are played): the officials' presses for it are worked
out from the seed (:mod:`courtside.demo.officials`), written as a press script, and a table
process plays it at ``--speed`` and exits. The table journals and publishes as on a venue; the
service ranks; the loop only counts what the service has stored, and stops when every match
has its result.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from courtside.demo.officials import Plan, plan_match
from courtside.demo.organiser import ACCOUNT, Organiser
from courtside.demo.parts import Part
from courtside.demo.presses import END_WAIT_S, live_moment, press_script
from courtside.demo.progress import Progress, progress_of, ranking_text, result_line, results_csv_for_show, stored
from courtside.demo.venue import Venue
from rules import (
    CourtsideError,
    DemoError,
    Ruleset,
    StageKind,
    load_cup_rulesets,
    parse_cup,
    read_text,
    ruleset_path,
    stage_of_round,
)

POLL_S = 0.25
RESTART_MARGIN_S = 30.0  # table seconds between one script's end and the next one's first press
CATCH_UP_AFTER_S = 5.0  # a result not stored this long after its table exited: start the table again to send it
LINK_WAIT_S = 0.5  # real seconds a table runs on after its match's end, for its link to send the result
STALL_S = 180.0  # no table running and no new result for this long: something is broken, say what


@dataclass
class Court:
    name: str
    table: Part | None = None
    playing: int | None = None  # the match number its table is playing
    handed: set[int] = field(default_factory=set)  # matches whose script its table has played
    # The table's session time goes on across its restarts (firmware/session.py): each script
    # starts after the instant the previous one ended, plus the wall time the table was down.
    script_end_s: float | None = None
    ended_at: float = 0.0  # time.monotonic() when its last table exited


def stage_of(ruleset: Ruleset, round: str | None) -> StageKind:
    if not round:
        return "round_robin"
    try:
        return stage_of_round(ruleset, round)
    except CourtsideError:
        return "round_robin"


def showcase_match(matches: list[dict[str, Any]], ruleset: Ruleset) -> int | None:
    """The classification match the officials keep level (extra time, shoot-out): a placement
    match if there is one, else the first knock-out match that is not the final."""
    knockouts = [m for m in matches if stage_of(ruleset, m.get("round")) == "knockout"]
    for wanted in ("placement", None):
        for m in knockouts:
            if (wanted is None and m.get("round") != "final") or m.get("round") == wanted:
                return int(m["number"])
    return int(knockouts[0]["number"]) if knockouts else None


class Autoplay:
    """``hold(number, plan)``, if given, picks matches to hold live at :func:`live_moment` (a penalty
    running): their table stands there until the file ``cues[number]`` exists (the tournament-day
    test looks at the court page then, whatever the speed)."""

    def __init__(self, venue: Venue, hold: Callable[[int, Plan], bool] | None = None) -> None:
        self.venue = venue
        self.hold = hold
        self.cues: dict[int, Path] = {}
        self.seed = venue.options.seed
        cup = parse_cup(read_text(str(venue.file)), str(venue.file))
        self.rulesets = load_cup_rulesets(cup, str(venue.file))  # class -> its ruleset ("" without classes)
        self.ruleset = self.rulesets[cup.classes[0].name]
        # A preset's name or the file's path; none for a cup: its tables play each class by its own ruleset.
        self.ruleset_ref = None if cup.has_classes else str(ruleset_path(cup.classes[0].tournament, str(venue.file)))
        self.classes = [c.name for c in cup.classes if c.published] if cup.has_classes else []
        self.title = cup.name
        self.courts: dict[str, Court] = {}
        self.showcase: int | None = None
        self.reported: set[int] = set()  # matches whose result the terminal has shown
        matches = venue.api.matches()
        for m in matches:
            self.courts.setdefault(str(m["court"]), Court(str(m["court"])))
        self.showcase = showcase_match([m for m in matches if self._rules(m) is self.ruleset], self.ruleset)
        self.pools = [str(p) for p in venue.api.tournament().get("pools", [])]
        self.organiser = Organiser(venue.web, ACCOUNT, venue.desk_password, self.seed, venue.workdir / "decisions.csv")
        self.scripts = venue.workdir / "scripts"
        self.scripts.mkdir(parents=True, exist_ok=True)

    def run(self, between: Callable[[list[dict[str, Any]]], None] | None = None) -> Progress:
        """Play to the last result; ``between(matches)``, if given, runs on each round of the loop (the
        tournament-day test's faults and organiser's work happen there, while the tables play)."""
        last_line, last_change = "", time.monotonic()
        while True:
            matches = self.venue.api.matches()
            if between is not None:
                between(matches)
            progress = progress_of(matches)
            for m in matches:
                if stored(m) and int(m["number"]) not in self.reported:
                    self.reported.add(int(m["number"]))
                    self.venue.say(result_line(m))
            line = progress.line()
            if line != last_line:
                self.venue.say(line)
                last_line, last_change = line, time.monotonic()
            busy = False
            for court in self.courts.values():
                busy = self._step(court, matches) or busy
            if not busy and self._settle_ties():
                last_change = time.monotonic()
                continue
            if progress.finished:
                return progress
            if not busy and time.monotonic() - last_change > STALL_S:
                waiting = [f"{m['number']} ({m['stage']}, {m['court']})" for m in matches if not stored(m)]
                raise DemoError(f"no table is playing and the service has stored no new result for {STALL_S:.0f} s; "
                                f"matches without a result: {', '.join(waiting)}; logs in {self.venue.workdir}/logs")
            time.sleep(POLL_S)

    def _settle_ties(self) -> int:
        """The organiser's decisions for finished pools left level on everything (lots, a penalty competition)."""
        settled = 0
        for name in self.pools:
            pool = self.venue.api.pool(name)
            count = self.organiser.settle(pool)
            if count:
                self.venue.say(f"pool {name}: {count} tie(s) only lots can break; the organiser draws them at the desk")
            settled += count
        return settled

    def _step(self, court: Court, matches: list[dict[str, Any]]) -> bool:
        """Finish or start this court's table; True while it has a table playing a match."""
        if court.table is not None and court.playing is not None:
            status = court.table.poll()
            if status is None:
                return True
            if status != 0:
                raise DemoError(f"{court.table.name} stopped with status {status} in match {court.playing}:\n"
                                f"{court.table.tail()}")
            self.venue.parts.forget(court.table)
            court.handed.add(court.playing)
            court.table, court.playing = None, None
            court.ended_at = time.monotonic()
        done = {int(m["number"]) for m in matches if stored(m)}
        ahead = [m for m in matches if str(m["court"]) == court.name and int(m["number"]) not in done
                 and int(m["number"]) not in court.handed]
        following = min(ahead, key=lambda m: (m["start"], int(m["number"])), default=None)
        if following is not None and following.get("teams_known"):
            self._stop_catching_up(court)
            self._play(court, following)
            return True
        unsent = court.handed - done
        if unsent and court.table is None and time.monotonic() - court.ended_at > CATCH_UP_AFTER_S:
            # The table exited before the service acknowledged its last result (the journal is the
            # outbox): a table started again on the court sends what waits, as after a power cut.
            court.table = self.venue.table(court.name, self.ruleset_ref)
        elif not unsent:
            self._stop_catching_up(court)
        return False

    def _stop_catching_up(self, court: Court) -> None:
        if court.table is not None and court.playing is None:
            self.venue.parts.forget(court.table)  # its clock ran on: ended_at stays the last script's end
            court.table = None

    def _rules(self, match: dict[str, Any]) -> Ruleset:
        """The ruleset the match is played by: its class's."""
        return self.rulesets[str(match.get("class", ""))]

    def _play(self, court: Court, match: dict[str, Any]) -> None:
        number = int(match["number"])
        ruleset = self._rules(match)
        stage, round = stage_of(ruleset, match.get("round")), match.get("round") or None
        plan = plan_match(ruleset, stage=stage, round=round, seed=self.seed * 10_000 + number,
                          level=number == self.showcase)
        title = f"match {number}, {match['stage']}: {match['home']} v {match['away']} on {court.name}"
        script = self.scripts / f"match-{number:03d}.txt"
        speed = self.venue.options.speed
        offset = 0.0
        if court.script_end_s is not None:
            down = (time.monotonic() - court.ended_at) * max(speed, 1.0)  # a catch-up table runs at 1x
            offset = court.script_end_s + down + RESTART_MARGIN_S
        # Every plan ends with an event (the final whistle, the deciding shot or golden goal), so a
        # restarted table finds the match over; the short wait lets the link send the result first.
        end_wait = max(END_WAIT_S, LINK_WAIT_S * speed)
        cue = None
        if self.hold is not None:
            moment = live_moment(plan, ruleset, stage, round)
            if moment is not None and self.hold(number, plan):
                self.cues[number] = self.scripts / f"match-{number:03d}.go"
                cue = (moment, self.cues[number])
        text, court.script_end_s = press_script(plan, ruleset, title=title, load=court.script_end_s is not None,
                                                offset=offset, end_wait_s=end_wait, cue=cue)
        script.write_text(text, encoding="utf-8")
        court.table = self.venue.table(court.name, self.ruleset_ref, script=script)
        court.playing = number

    def finish(self) -> str:
        """The final ranking as the service gives it; results.csv kept beside the logs for checking."""
        csv_text = results_csv_for_show(self.venue.api.results_csv())
        (self.venue.workdir / "results.csv").write_text(csv_text, encoding="utf-8")
        self.organiser.close()
        if not self.classes:
            return ranking_text(self.venue.api.ranking(), self.title)
        return "\n".join(ranking_text(self.venue.api.ranking(c), f"{self.title}, class {c}") for c in self.classes)
