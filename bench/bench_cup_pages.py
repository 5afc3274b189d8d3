"""How big a big cup's public pages are (issue 32: every page's HTML under 150 KB, under 30 KB compressed).

    .venv/bin/python -m bench.bench_cup_pages [--teams 2048] [--courts 110] [--classes 8]

Generates the cup (bench/cup.py), starts the service on it (Mosquitto, SQLite, nothing played) and reads each kind
of public page and API list once: its size as sent, and gzipped (what a front such as Caddy sends a phone). With
``--classes`` the cup is one of classes on small and large pitches (bench/cup.py ``classes_cup_toml``), and the class
pages and a class's schedule are read too.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--teams", type=int, default=2048)
    parser.add_argument("--courts", type=int, default=110)
    parser.add_argument("--classes", type=int, default=0)
    args = parser.parse_args()
    from starlette.testclient import TestClient

    from server.web import create_app
    from tests.web_day import big_cup_day

    with big_cup_day(teams=args.teams, courts=args.courts, classes=args.classes) as day, \
            TestClient(create_app(day.backend, lang="en", secure_cookies=False)) as client:
        v = day.view()
        court = quote(v.courts[0])
        paths = ["/", "/pools", "/schedule", f"/schedule?court={court}", f"/pool/{v.pools[0]}", "/bracket",
                 "/ranking", "/teams", "/teams?q=team+01", f"/team/{quote(v.teams[0])}", f"/court/{court}",
                 "/api/v1/tournament", "/api/v1/matches"]
        for c in v.classes[-1:]:  # a published class of the large pitches
            paths += [f"/class/{c.name}", f"/schedule?class={c.name}", f"/bracket?class={c.name}",
                      f"/ranking?class={c.name}", f"/api/v1/matches?class={c.name}"]
        print(f"{args.teams} teams, {len(v.pools)} pools, {len(v.matches)} matches on {args.courts} pitches")
        for path in paths:
            body = client.get(path).content
            print(f"  {path:<28} {len(body) / 1024:7.1f} KB, gzipped {len(gzip.compress(body)) / 1024:5.1f} KB")


if __name__ == "__main__":
    main()
