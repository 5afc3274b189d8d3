"""What the demo's terminal shows: matches played of all, per court, and the final ranking.

Both are read from the standings service's JSON API (``/api/v1/matches``, ``/api/v1/ranking``,
docs/openapi.yaml), the way a phone reads them: the demo counts what the service has stored,
not what the tables think they sent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx

from rules import DemoError

API = "/api/v1"
TIMEOUT_S = 10.0


@dataclass(frozen=True)
class CourtProgress:
    court: str
    played: int
    total: int
    live: str | None  # "Hall 1: SF1 Rot-Weiss Köln v HC Bloemendaal" while a match is on


@dataclass(frozen=True)
class Progress:
    played: int
    total: int
    courts: tuple[CourtProgress, ...]

    @property
    def finished(self) -> bool:
        return self.total > 0 and self.played == self.total

    def line(self) -> str:
        courts = "  ".join(f"{c.court} {c.played}/{c.total}" for c in self.courts)
        return f"played {self.played}/{self.total}  |  {courts}"


def progress_of(matches: Sequence[Mapping[str, Any]]) -> Progress:
    """Count the stored results per court, in the order the courts first appear in the schedule."""
    per_court: dict[str, list[Mapping[str, Any]]] = {}
    for match in matches:
        per_court.setdefault(str(match["court"]), []).append(match)
    courts = tuple(
        CourtProgress(
            court=court, played=sum(1 for m in rows if stored(m)), total=len(rows),
            live=next((f"{court}: {m['stage']} {m['home']} v {m['away']}" for m in rows if m.get("live")), None),
        )
        for court, rows in per_court.items()
    )
    return Progress(played=sum(c.played for c in courts), total=sum(c.total for c in courts), courts=courts)


def stored(match: Mapping[str, Any]) -> bool:
    """Whether the service has the match's result (a class that keeps results off the pages shows only that)."""
    return bool(match.get("played", match.get("result") is not None))


def result_line(match: Mapping[str, Any]) -> str:
    """One stored result as the terminal shows it: ``match 3 (A, Hall 1): X 2-1 Y``, plus how it was decided; a
    class that keeps its results off the pages: ``match 3 (P10-A, Plan 1): X v Y played``."""
    r = match["result"]
    if r is None:
        where = f"{match['stage']}, {match['court']}"
        return f"  match {match['number']} ({where}): {match['home']} v {match['away']}, played"
    how = ""
    if r.get("outcome") == "shootout":
        how = f" after a shoot-out {r.get('home_shootout')}-{r.get('away_shootout')}"
    elif r.get("outcome") == "overtime":
        how = " after extra time"
    elif r.get("outcome") in ("walkover", "forfeit", "abandoned"):
        how = f" ({r['outcome']})"
    return (f"  match {match['number']} ({match['stage']}, {match['court']}): "
            f"{match['home']} {r.get('home_goals')}-{r.get('away_goals')} {match['away']}{how}")


def ranking_text(ranking: Sequence[Mapping[str, Any]], title: str) -> str:
    """The final ranking as printed at the end: one place a line, an open place with what it needs."""
    lines = [f"Final ranking: {title}"]
    for row in ranking:
        needs = f"  ({row['needs']})" if row.get("needs") else ""
        lines.append(f"  {row['place']:>2}  {row['team']}{needs}")
    return "\n".join(lines) + "\n"


def results_csv_for_show(api_csv: str) -> str:
    """The service's results export cut to the columns ``courtside tournament show --results`` reads."""
    import csv
    import io

    from rules import OPTIONAL_COLUMNS, REQUIRED_COLUMNS

    keep = REQUIRED_COLUMNS + OPTIONAL_COLUMNS
    reader = csv.DictReader(io.StringIO(api_csv))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=[c for c in keep if c in (reader.fieldnames or ())], lineterminator="\n")
    writer.writeheader()
    for row in reader:  # a name the export kept from running as a formula ('=...) is the name again
        writer.writerow({k: _unguarded(row[k]) for k in writer.fieldnames})
    return out.getvalue()


def _unguarded(cell: str) -> str:
    return cell[1:] if cell[:1] == "'" and cell[1:2] in ("=", "+", "-", "@", "\t", "\r") else cell


class ServiceApi:
    """The few reads the demo makes of the service's JSON API."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self._client = httpx.Client(base_url=self.base_url, timeout=TIMEOUT_S)

    def _get(self, path: str) -> httpx.Response:
        try:
            response = self._client.get(API + path)
        except httpx.HTTPError as err:
            raise DemoError(f"the standings service at {self.base_url} did not answer {API + path}: {err}") from err
        if response.status_code != 200:
            raise DemoError(f"{API + path} answered {response.status_code}: {response.text[:200]}")
        return response

    def ready(self) -> bool:
        try:
            return self._client.get(API + "/tournament").status_code == 200
        except httpx.HTTPError:
            return False

    def tournament(self) -> dict[str, Any]:
        data: dict[str, Any] = self._get("/tournament").json()
        return data

    def matches(self) -> list[dict[str, Any]]:
        """Every match, page after page (the API gives a cup's thousands 200 at a time)."""
        out: list[dict[str, Any]] = []
        while True:
            page = self._get(f"/matches?offset={len(out)}").json()
            out += page["matches"]
            if page.get("next") is None or not page["matches"]:
                return out

    def pool(self, name: str) -> dict[str, Any]:
        data: dict[str, Any] = self._get("/pools/" + quote(name, safe="")).json()
        return data

    def ranking(self, class_name: str = "") -> list[dict[str, Any]]:
        """The final ranking (a cup's class's, when named)."""
        data: list[dict[str, Any]] = self._get("/ranking" + (f"?class={quote(class_name)}" if class_name else "")
                                               ).json()["ranking"]
        return data

    def results_csv(self) -> str:
        return self._get("/results.csv").text

    def close(self) -> None:
        self._client.close()
