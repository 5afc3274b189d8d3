"""``courtside report``: a match's report as a PDF from its event log alone (issue 33).

A federation's official or a protest committee has the table's log (``courtside table``'s journal, or the
log the service's desk shows), not the server: the report needs neither the server nor a database. The service
serves the same report at ``/match/N/report.pdf``; both print the same journal digest for the same events.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rules import Match, load_ruleset, read_log, read_text


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "report", help="a match's report (PDF) from its event log alone",
        description="Write a match's report as a PDF from its event log (JSON lines with the header a table "
        "journals, docs/events.md): the teams, every goal, card, time-out and shoot-out attempt that counts with "
        "its period and time, the result and how it was decided, lines for the officials' signatures, and the "
        "journal's digest. Needs no server or database.",
    )
    parser.add_argument("events", metavar="FILE.jsonl", help="the match's event log (JSON lines with its header)")
    parser.add_argument("--out", metavar="FILE.pdf", help="where to write it (default: the log's name, .pdf)")
    parser.add_argument("--tournament", metavar="NAME", default="", help="the tournament's name, for the title")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rules import EventLogError
    from server.report_pdf import ReportMatch, report_pdf  # fpdf2: the report extra (pip install courtside[report])

    source = str(args.events)
    log = read_log(read_text(source), source)
    header = log.header
    if header is None:
        raise EventLogError(source, 1, "the log has no header: the report needs the ruleset and the teams it names")
    match = Match.from_log(log, load_ruleset, source=source)  # a log that does not replay is refused at its line
    info = ReportMatch(home=header.home or "Home", away=header.away or "Away", number=header.match_id or "",
                       tournament=args.tournament, round=header.round, kind=match.stage, court=header.court or "")
    pdf = report_pdf(info, match.ruleset, log.events)  # the events replay: from_log has just replayed them
    out = Path(args.out) if args.out else Path(source).with_suffix(".pdf")
    out.write_bytes(pdf)
    print(f"{out}: match report, {len(log.events)} events", file=sys.stderr)
    return 0
