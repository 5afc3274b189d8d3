"""The tournament the service runs: its file, ruleset, pools' teams and fixture list, with match ids.

A match is named on the wire by its number in the fixture list (``rules.tournament.build_schedule``)
as text, so the table, the service and the web pages agree without a database. Courts are named by
the slug of their name (``"Hall 1"`` -> ``"hall-1"``), which is also the table's broker user.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rules import (
    FileLineError,
    Ruleset,
    ScheduledMatch,
    StageKind,
    Tournament,
    build_schedule,
    load_tournament_ruleset,
    open_file,
    parse_tournament,
)
from rules import pool_teams as draw_pool_teams
from rules.protocol import slug
from rules.tournament.loading import MAX_BYTES as MAX_TOURNAMENT_BYTES


@dataclass(frozen=True)
class Plan:
    id: str
    source: str
    tournament: Tournament
    ruleset: Ruleset
    entry_teams: dict[str, tuple[str, ...]]
    fixtures: dict[str, ScheduledMatch]  # match id -> scheduled match
    courts: dict[str, str]  # court id -> court name

    def stage_kind(self, match_id: str) -> StageKind:
        return "round_robin" if self.tournament.pool(self.fixtures[match_id].stage) is not None else "knockout"

    def court_id(self, name: str) -> str:
        return slug(name)


def load_plan(path: str | Path, *, seed: int | None = None, tournament_id: str | None = None) -> Plan:
    source = str(path)
    try:
        with open_file(path) as f:  # a named pipe or a device is refused, not waited on
            text = f.read(MAX_TOURNAMENT_BYTES + 1).decode("utf-8")
    except OSError as err:
        raise FileLineError(source, None, f"cannot read the file ({err.strerror or err})") from None
    t = parse_tournament(text, source)
    ruleset = load_tournament_ruleset(t, source)
    entry = draw_pool_teams(t, source, seed)
    schedule = build_schedule(t, ruleset, entry)
    fixtures = {str(m.number): m for m in schedule.matches}
    courts = {slug(name): name for name in t.schedule.courts}
    return Plan(
        id=tournament_id or slug(Path(path).stem), source=source, tournament=t, ruleset=ruleset,
        entry_teams=entry, fixtures=fixtures, courts=courts,
    )
