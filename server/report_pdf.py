"""The match report a federation files (issue 33): a PDF of one match from its log, made with fpdf2.

The same report comes from the service (``/match/N/report.pdf``, its stored events) and from ``courtside report``
(a table's journal alone: a federation's official has the log, not the server). It lists what counts of the log
(rules.match.timeline), the result and how it was decided, lines for the officials' signatures, and the journal's
digest: the sha256 of its events' lines in sequence order, the same whether the events come from the table's
journal or from the service's database, so a protest can show that neither was altered.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

from rules import (
    Event,
    Match,
    MatchTimeline,
    Result,
    Ruleset,
    StageKind,
    TeamSheet,
    event_to_line,
    format_clock,
    match_timeline,
    period_name,
)

# A Unicode font for names like "Örebro SK" or "Č": Debian's fonts-dejavu-core (.ci/run installs it). Without it the
# PDF's built-in Helvetica writes what Latin-1 has and a "?" for the rest.
FONTS = (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), Path("/usr/share/fonts/TTF/DejaVuSans.ttf"))
SIGNATURES = ("Referee", "Table official", "Home team official", "Away team official")


@dataclass(frozen=True, kw_only=True)
class ReportMatch:
    """Where the match stands in its tournament, as far as the report's source knows it."""

    home: str
    away: str
    number: str = ""  # the match's number, when the log or the service names it
    tournament: str = ""
    class_name: str = ""
    stage: str = ""  # its pool or knock-out match ("A", "P13-ASF1")
    round: str | None = None
    kind: StageKind = "round_robin"
    court: str = ""
    start: str = ""  # when it was scheduled, as written ("Sat 11 Apr 07:00")
    sheets: tuple[TeamSheet | None, TeamSheet | None] = (None, None)  # home's and away's, where the file gives them

    def player(self, side: str | None, number: str | None) -> str:
        """"#13 Hugo Ekström" where the side's sheet names the number, else "#13"."""
        if not number:
            return ""
        sheet = self.sheets[0] if side == "home" else self.sheets[1] if side == "away" else None
        return sheet.label(number) if sheet is not None else f"#{number}"


def journal_digest(events: Sequence[Event]) -> str:
    """The sha256 of the events' journal lines in sequence order (the same lines a table journals)."""
    lines = "\n".join(event_to_line(e) for e in sorted(events, key=lambda e: e.seq))
    return hashlib.sha256(lines.encode()).hexdigest()


def final_result(ruleset: Ruleset, events: Sequence[Event], kind: StageKind, round: str | None) -> Result | None:
    """How the log ended: its last event may end it (a shoot-out, a walk-over), or the clock it leaves running
    runs out; None for a log that stops with the clock stopped (a match still being played)."""
    match = Match.replay(ruleset, events, stage=kind, round=round)
    at = match.last_at
    for _ in range(1000):  # periods, intervals and penalties falling due: a match has far fewer
        result = match.result(at)
        if result is not None:
            return result
        due = match.next_due(at)
        if due is None:
            return None
        at = due
    return None


def report_pdf(match: ReportMatch, ruleset: Ruleset, events: Sequence[Event]) -> bytes:
    """The report as PDF bytes (raises IllegalCommand for a log that does not replay)."""
    timeline = match_timeline(ruleset, events, stage=match.kind, round=match.round)
    result = final_result(ruleset, events, match.kind, match.round)
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.set_title(f"Match report {match.number} {match.home} v {match.away}".strip())
    pdf.set_creator("courtside")
    pdf.add_page()
    family = _font(pdf)
    pdf.set_font(family, size=18)
    pdf.cell(0, 10, _t(family, f"Match report{' · ' + match.tournament if match.tournament else ''}"),
             new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(family, size=11)
    where = [f"Match {match.number}" if match.number else "", f"Class {match.class_name}" if match.class_name else "",
             match.stage, match.round or "", match.court, match.start, ruleset.name]
    pdf.cell(0, 7, _t(family, " · ".join(x for x in where if x)), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    pdf.set_font(family, size=15)
    pdf.cell(0, 9, _t(family, f"{match.home}  {_score(result, timeline)}  {match.away}"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(family, size=11)
    pdf.cell(0, 7, _t(family, _decided(result, match)), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    for team, sheet in zip((match.home, match.away), match.sheets, strict=True):
        if sheet is None:
            continue
        pdf.set_font(family, size=9)
        players = ", ".join(f"{p.number} {p.name}" for p in sheet.players)
        officials = f". Officials: {', '.join(sheet.officials)}" if sheet.officials else ""
        pdf.multi_cell(0, 5, _t(family, f"{team}: {players}{officials}"), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    pdf.set_font(family, size=10)
    with pdf.table(col_widths=(28, 16, 50, 70, 16), text_align=("LEFT", "RIGHT", "LEFT", "LEFT", "RIGHT")) as table:
        table.row(("Period", "Time", "Team", "Event", "Score"))
        for line in timeline.lines:
            team = match.home if line.team == "home" else match.away if line.team == "away" else ""
            score = f"{line.home_goals}-{line.away_goals}"
            if line.kind == "shootout_attempt":
                score = f"{line.home_shootout}-{line.away_shootout}"
            who = match.player(line.team, line.player)
            table.row((_t(family, period_name(line, ruleset).capitalize()), line.played_text, _t(family, team),
                       _t(family, _event(line.kind, who, line.penalty, line.length_ms, line.scored, line.name,
                                         ruleset)), score))
    if not timeline.lines:
        pdf.cell(0, 7, "The log has no goal, card, time-out or shoot-out attempt.", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.set_font(family, size=11)
    for role in SIGNATURES:  # a column of roles, then a line for the name and one for the signature
        pdf.cell(45, 10, f"{role}:")
        pdf.cell(0, 10, "name ______________________  signature ______________________", new_x="LMARGIN",
                 new_y="NEXT")
    pdf.ln(4)
    pdf.set_font(family, size=8)
    pdf.multi_cell(0, 4, f"Table's journal: {len(events)} events, sha256 {journal_digest(events)} (the journal's event "
                         "lines in sequence order; the same digest from the table's journal and from the service).")
    return bytes(pdf.output())


def _font(pdf: FPDF) -> str:
    for path in FONTS:
        bold = path.with_name("DejaVuSans-Bold.ttf")
        if path.is_file() and bold.is_file():
            pdf.add_font("DejaVu", "", str(path))
            pdf.add_font("DejaVu", "B", str(bold))  # the table's headings
            return "DejaVu"
    return "helvetica"


def _t(family: str, text: str) -> str:
    """Text the font can write: all of it in DejaVu, what Latin-1 has in the built-in Helvetica."""
    return text if family == "DejaVu" else text.encode("latin-1", "replace").decode("latin-1")


def _score(result: Result | None, timeline: MatchTimeline) -> str:
    if result is None:
        return f"{timeline.home_goals}-{timeline.away_goals}"
    return f"{result.home_goals}-{result.away_goals}"


def _decided(result: Result | None, match: ReportMatch) -> str:
    if result is None:
        return "Not finished: the log stops while the match goes on."
    how = {"regular": "in regular time", "overtime": "in overtime", "shootout": "after a shoot-out",
           "walkover": "by walk-over", "forfeit": "by forfeit", "abandoned": "abandoned"}.get(result.outcome,
                                                                                             result.outcome)
    text = f"Decided {how}"
    if result.home_shootout is not None:
        text += f", shoot-out {result.home_shootout}-{result.away_shootout}"
    winner = match.home if result.winner == "home" else match.away if result.winner == "away" else None
    return text + (f". Winner: {winner}." if winner else ".")


def _event(kind: str, who: str, penalty: str | None, length_ms: int | None, scored: bool | None,
           name: str | None, ruleset: Ruleset) -> str:
    number = f" {who}" if who else ""
    if kind == "penalty" and penalty is not None:
        length = f" ({format_clock(length_ms, tenths=False, down=False)})" if length_ms else ""
        return f"{ruleset.penalty(penalty).label}{number}{length}"
    if kind == "shootout_attempt":
        return f"Shoot-out{number}: {'scored' if scored else 'missed'}"
    if kind == "set_piece":
        return str(name or "set piece")
    words = {"goal": "Goal", "goal_disallowed": "Goal disallowed", "penalty_ended": "Back in play",
             "timeout": "Time-out", "score_corrected": "Score corrected", "abandoned": "Match abandoned",
             "resumed": "Match resumed", "replayed": "Match played again from the start", "forfeit": "Forfeit",
             "walkover": "Walk-over"}
    return words.get(kind, kind) + (number if kind == "goal" else "")
