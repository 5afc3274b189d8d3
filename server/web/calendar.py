"""A team's matches as an iCalendar feed (RFC 5545) a parent's phone subscribes to.

Each match keeps one UID for the whole tournament, so a calendar that fetches the feed again
updates its event instead of adding another: when a knock-out slot is filled the team's next
match appears, when the organiser moves a match its time moves, when it is played the score
shows. SEQUENCE counts those changes (slots filled, moves) so a client that compares it takes
the newer event; DTSTAMP is the snapshot's instant.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime

from rules import parse_placeholder
from server.web.match_rows import MatchRow
from server.web.view import View

REFRESH = "PT15M"  # how often a subscribed calendar should look again (clients may take longer)


def _utc(at: datetime) -> str:
    """A snapshot's local time (naive, the server's zone, as the service hands it) in UTC."""
    aware = at if at.tzinfo is not None else at.astimezone()
    return aware.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _text(value: str) -> str:
    return value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\r\n", "\\n").replace(
        "\n", "\\n")


def _fold(line: str) -> list[str]:
    """Lines of at most 75 octets, continued with a space (RFC 5545 3.1), never splitting a character."""
    out: list[str] = []
    current = ""
    for ch in line:
        limit = 75 if not out else 74
        if len((current + ch).encode()) > limit:
            out.append(current)
            current = ch
        else:
            current += ch
    out.append(current)
    return [out[0], *(" " + part for part in out[1:])]


def _slug(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "tournament"


def sequence(view: View, m: MatchRow) -> int:
    """How many times the match's event has changed: its slots filled ("winner SF1" became a team) and
    the organiser's moves of it (each one in the change log, the latest one at least)."""
    raw = next((s for s in view.data.schedule.matches if s.number == m.number), None)
    filled = 0
    if raw is not None:
        filled = sum(1 for text, known in ((raw.home, m.home_known), (raw.away, m.away_known))
                     if known and parse_placeholder(text) is not None)
    moved = sum(1 for a in view.data.audit
                if a.what.startswith(f"move match {m.number}:") or f"match {m.number} moved" in a.what)
    return filled + max(moved, 1 if m.moved else 0)


def team_calendar(view: View, team: str) -> str:
    """The VCALENDAR of ``team``'s matches, every one whose teams are known to include it."""
    stamp = _utc(view.data.now)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//courtside//standings//EN", "CALSCALE:GREGORIAN",
             "METHOD:PUBLISH", f"X-WR-CALNAME:{_text(f'{team} · {view.data.name}')}",
             f"REFRESH-INTERVAL;VALUE=DURATION:{REFRESH}", f"X-PUBLISHED-TTL:{REFRESH}"]
    for m in view.team_matches(team):
        pair = f"{m.home} {m.score} {m.away}" if m.shows_score else f"{m.home} – {m.away}"
        summary = pair if m.is_pool else f"{m.stage}: {pair}"
        name = view.data.name
        what = f"{name}, pool {m.stage}" if m.is_pool else f"{name}, {m.round.replace('_', ' ')} {m.stage}"
        lines += ["BEGIN:VEVENT", f"UID:match-{m.number}-{_slug(name)}@courtside", f"DTSTAMP:{stamp}",
                  f"SEQUENCE:{sequence(view, m)}", f"DTSTART:{_utc(m.start)}", f"DTEND:{_utc(m.end)}",
                  f"SUMMARY:{_text(summary)}", f"LOCATION:{_text(m.court)}",
                  f"DESCRIPTION:{_text(f'{what}, match {m.number}')}", "STATUS:CONFIRMED", "TRANSP:OPAQUE",
                  "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "".join(part + "\r\n" for line in lines for part in _fold(line))
