"""How big a big cup's public pages are (issue 32: every page's HTML under 150 KB, under 30 KB compressed).

    .venv/bin/python -m bench.bench_cup_pages [--teams 2048] [--courts 110]

Generates the cup (bench/cup.py), starts the service on it (Mosquitto, SQLite, nothing played) and reads each kind
of public page and API list once: its size as sent, and gzipped (what a front such as Caddy sends a phone).
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
    args = parser.parse_args()
    from starlette.testclient import TestClient

    from server.web import create_app
    from tests.web_day import big_cup_day

    with big_cup_day(teams=args.teams, courts=args.courts) as day, \
            TestClient(create_app(day.backend, lang="en", secure_cookies=False)) as client:
        v = day.view()
        paths = ["/", "/pools", "/schedule", "/schedule?court=Pitch+3", f"/pool/{v.pools[0]}", "/bracket",
                 "/ranking", "/teams", "/teams?q=team+01", f"/team/{quote(v.teams[0])}", "/court/Pitch%201",
                 "/api/v1/tournament", "/api/v1/matches"]
        print(f"{args.teams} teams, {len(v.pools)} pools, {len(v.matches)} matches on {args.courts} pitches")
        for path in paths:
            body = client.get(path).content
            print(f"  {path:<28} {len(body) / 1024:7.1f} KB, gzipped {len(gzip.compress(body)) / 1024:5.1f} KB")


if __name__ == "__main__":
    main()
