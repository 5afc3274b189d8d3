"""Team sheets (issue 33): each team's players (shirt number, name) and officials.

A team's sheet is written in the tournament file (``players`` and ``officials`` of its ``[[teams]]`` entry) or in
a CSV file of its own that the entry names (``sheet = "sheets/wolves.csv"``, beside the tournament file), with the
columns ``number,name`` and, optionally, ``role`` (``player``, the default, or ``official``, whose number is left
blank). A number used twice in one team, a name with a control character or a sheet longer than a team can be is
refused with the file, the key or line, and the reason. A tournament (or a class) with ``player_names = false``
keeps the names off the public pages: numbers only (children's football).
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.errors import FileLineError, TournamentError
from rules.files import read_text
from rules.record import Record

if TYPE_CHECKING:
    from rules.tournament.cup import Cup

MAX_PLAYERS = 60
"""Players a sheet may list (a squad with its reserves; a tournament file is refused past it)."""
MAX_OFFICIALS = 20
MAX_SHEET_BYTES = 16_384
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")  # a name is one line of plain text


class Player(Record):
    number: str  # the shirt number as the table's keypad types it ("7", "13")
    name: str


class TeamSheet(Record):
    team: str
    players: tuple[Player, ...] = ()
    officials: tuple[str, ...] = ()

    def csv_text(self) -> str:
        """The sheet as its CSV file writes it (what the desk's form shows to be changed)."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["number", "name", "role"])
        w.writerows([p.number, p.name, "player"] for p in self.players)
        w.writerows(["", name, "official"] for name in self.officials)
        return out.getvalue()

    def label(self, number: str) -> str:
        """"#13 Hugo Ekström", or "#13" for a number the sheet does not list."""
        name = self.name_of(number)
        return f"#{number} {name}" if name else f"#{number}"

    def name_of(self, number: str | None) -> str | None:
        """The player wearing ``number``, if the sheet lists one."""
        return next((p.name for p in self.players if p.number == number), None) if number else None


def sheet_of_entry(team: str, players: list[Any], officials: list[str], where: str, source: str) -> TeamSheet:
    """A sheet written in the tournament file (``where``: the team's key, ``teams[3]``); a number used twice is
    refused naming both."""
    seen: dict[str, int] = {}
    out = []
    for i, p in enumerate(players):
        number = str(p.number)
        if number in seen:
            raise TournamentError(source, f"{where}.players[{i}].number",
                                  f"#{number} is already {where}.players[{seen[number]}]: a number is worn once")
        seen[number] = i
        out.append(Player(number=number, name=p.name))
    return TeamSheet(team=team, players=tuple(out), officials=tuple(officials))


def parse_sheet_csv(text: str, source: str, team: str) -> TeamSheet:
    """A team's sheet from its CSV text (``number,name[,role]``); each fault names ``source`` and its line."""
    if len(text.encode()) > MAX_SHEET_BYTES:
        raise FileLineError(source, None, f"a team sheet is at most {MAX_SHEET_BYTES} bytes")
    reader = csv.DictReader(io.StringIO(text))
    columns = [c.strip() for c in reader.fieldnames or []]
    if columns[:2] != ["number", "name"] or not set(columns) <= {"number", "name", "role"}:
        raise FileLineError(source, 1, "the header must be number,name (and, if officials are listed, role)")
    players: list[Player] = []
    officials: list[str] = []
    seen: dict[str, int] = {}
    for row in reader:
        line = reader.line_num
        if None in row:
            raise FileLineError(source, line, "more cells than the header has columns")
        values = {k.strip(): (v or "").strip() for k, v in row.items() if k is not None}
        name, number, role = values.get("name", ""), values.get("number", ""), values.get("role", "") or "player"
        if not name:
            raise FileLineError(source, line, "the name is missing")
        bad = CONTROL.search(name)
        if bad is not None or len(name) > 100:
            raise FileLineError(source, line, f"name {name!r}: " + (
                f"contains the control character U+{ord(bad.group()):04X}" if bad else "longer than 100 characters"))
        if role == "official":
            officials.append(name)
            if len(officials) > MAX_OFFICIALS:
                raise FileLineError(source, line, f"a team sheet lists at most {MAX_OFFICIALS} officials")
            continue
        if role != "player":
            raise FileLineError(source, line, f"role {role!r} is not player or official")
        if not (number.isdigit() and len(number) <= 3):
            raise FileLineError(source, line, f"number {number!r} is not a shirt number (1 to 3 digits)")
        number = str(int(number))
        if number in seen:
            raise FileLineError(source, line, f"#{number} is already on line {seen[number]}: a number is worn once")
        seen[number] = line
        players.append(Player(number=number, name=name))
        if len(players) > MAX_PLAYERS:
            raise FileLineError(source, line, f"a team sheet lists at most {MAX_PLAYERS} players")
    return TeamSheet(team=team, players=tuple(players), officials=tuple(officials))


def read_sheet_file(path: Path, team: str) -> TeamSheet:
    return parse_sheet_csv(read_text(str(path), max_bytes=MAX_SHEET_BYTES), str(path), team)


def team_sheets(cup: Cup, source: str) -> dict[str, TeamSheet]:
    """Every team's sheet that the file gives (written in it, or in the CSV file its entry names, beside the
    file ``source``), by team name; a team without one has none."""
    out: dict[str, TeamSheet] = {}
    for i, c in enumerate(cup.classes):
        prefix = f"classes[{i}] ({c.name})." if c.name else ""
        for j, team in enumerate(c.tournament.teams):
            where = f"{prefix}teams[{j}]"
            if team.sheet and (team.players or team.officials):
                raise TournamentError(source, f"{where}.sheet", "a sheet file, or players and officials in the "
                                      "tournament file: not both")
            if team.sheet:
                out[team.name] = read_sheet_file(Path(source).parent / team.sheet, team.name)
            elif team.players or team.officials:
                out[team.name] = sheet_of_entry(team.name, team.players, team.officials, where, source)
    return out
