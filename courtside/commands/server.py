"""``courtside server``: the central standings service (MQTT in, database, MQTT and web pages out).

    courtside server --tournament FILE --broker URL [--db URL] [--http HOST:PORT]
    courtside server passwords FILE --court ID ... [--service NAME] [--screen NAME]   (the broker's password file)

Imports stay light at the top: the heavy parts (SQLAlchemy, paho, uvicorn) load when it runs.
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "server", help="the standings service: results over MQTT, standings, schedules, web pages",
        description="Subscribe to the tables, check and store every event and result, rank, publish "
                    "tables and schedules; `courtside server passwords` makes the broker's password file.",
    )
    parser.add_argument("--tournament", help="the tournament file (docs/tournaments.md)")
    parser.add_argument("--broker", default="mqtt://127.0.0.1:1883",
                        help="mqtt://[user:password@]host:port, or mqtts:// for TLS (default %(default)s)")
    parser.add_argument("--ca", help="CA certificate for an mqtts:// broker (default: the system's)")
    parser.add_argument("--db", default="courtside.db",
                        help="SQLite file or URL, or postgresql://user@host/db (default %(default)s)")
    parser.add_argument("--http", metavar="HOST:PORT", help="serve the web pages and the desk here")
    parser.add_argument("--id", dest="tournament_id", help="the tournament's id in topics (default: the file's stem)")
    parser.add_argument("--seed", type=int, help="the draw's seed, when the file draws its pools")
    parser.add_argument("--group", default="courtside",
                        help="shared-subscription group: instances with one group share the load (default %(default)s)")
    parser.set_defaults(run=_run)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    pw = actions.add_parser("passwords",
                            help="write Mosquitto's password file: one user per court, one for the service")
    pw.add_argument("file", help="the password file to write (mosquitto.conf's password_file)")
    pw.add_argument("--court", action="append", default=[], metavar="ID[:PASSWORD]",
                    help="a table's user (the court id); without :PASSWORD one is generated and printed")
    pw.add_argument("--tournament", dest="pw_tournament", help="add a user for every court of this tournament file")
    pw.add_argument("--service", default="courtside-server", metavar="NAME[:PASSWORD]",
                    help="the service's user (default %(default)s)")
    pw.add_argument("--screen", action="append", default=[], metavar="NAME[:PASSWORD]",
                    help="a read-only user for screen-only nodes (`courtside display follow`); the shipped ACL "
                         "names it 'screen'; without :PASSWORD one is generated and printed")
    pw.set_defaults(run=_passwords)


def _passwords(args: argparse.Namespace) -> int:
    from standings.passwords import passwords_command

    return passwords_command(args.file, args.court, args.service, args.pw_tournament, args.screen)


def _run(args: argparse.Namespace) -> int:
    from rules.errors import CourtsideError

    if not args.tournament:
        raise CourtsideError("courtside server: --tournament FILE is required")
    from standings.db import normalise_url
    from standings.logs import log
    from standings.plan import load_plan
    from standings.service import Service
    from standings.store import Store

    plan = load_plan(args.tournament, seed=args.seed, tournament_id=args.tournament_id)
    store = Store.open(args.db, plan)
    service = Service(store, args.broker, group=args.group or None, ca_file=args.ca)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: service.stop())
    web = None
    if args.http:
        from standings.webserve import start_web

        web = start_web(service, args.http, normalise_url(args.db))
    log("server_starting", tournament=plan.id, db=_safe(args.db), broker=_safe(args.broker), http=args.http,
        pid=os.getpid())
    # What start-up loaded (the modules, the plan, the store, the web app) lives as long as the process: frozen
    # out of the collector's full passes, which walked all of it every few thousand messages (40 ms each).
    gc.freeze()
    try:
        service.run()
    finally:
        if web is not None:
            web.stop()
        store.close()
    return 0


def _safe(url: str) -> str:
    """A URL for the log without its password."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@")
    return url


