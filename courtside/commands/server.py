"""``courtside server``: the central standings service (MQTT in, database, MQTT and web pages out).

    courtside server --tournament FILE --broker URL [--db URL] [--http HOST:PORT] [--trusted-proxy ADDR]
                     [--trusted-lan] [--broker-user NAME] [--broker-password-file FILE]
    courtside server passwords FILE --court ID ... [--service NAME] [--screen NAME]   (the broker's password file)

Imports stay light at the top: the heavy parts (SQLAlchemy, paho, uvicorn) load when it runs.
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import socket
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "server", help="the standings service: results over MQTT, standings, schedules, web pages",
        description="Subscribe to the tables, check and store every event and result, rank, publish "
                    "tables and schedules; `courtside server passwords` makes the broker's password file.",
    )
    parser.add_argument("--tournament", help="the tournament file (docs/tournaments.md)")
    parser.add_argument("--broker", default="mqtt://127.0.0.1:1883",
                        help="mqtt://[user:password@]host:port, or mqtts:// for TLS (default %(default)s)")
    parser.add_argument("--broker-user", metavar="NAME", help="the service's broker account (default: none, or "
                        "the one in --broker's URL)")
    parser.add_argument("--broker-password-file", metavar="FILE",
                        help="a text file whose first line is the broker password; without it: $CREDENTIALS_DIRECTORY/"
                             "broker-password (systemd's LoadCredential) or $COURTSIDE_BROKER_PASSWORD. Never put "
                             "it in --broker: every local user can read a command line")
    parser.add_argument("--ca", help="CA certificate for an mqtts:// broker (default: the system's)")
    parser.add_argument("--db", default="courtside.db",
                        help="SQLite file or URL, or postgresql://user@host/db (default %(default)s)")
    parser.add_argument("--http", metavar="HOST:PORT", help="serve the web pages and the desk here")
    parser.add_argument("--http-fd", type=int, metavar="FD",
                        help="serve --http's address on this listening socket, inherited from the program that "
                             "started the service and bound it first (the demo: no other program takes the port "
                             "between its choice and the service's start)")
    parser.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR",
                        help="the front's address (Caddy: 127.0.0.1): X-Forwarded-For and -Proto are believed from "
                             "it alone, so logins and live streams are limited per client, not per proxy; repeatable")
    parser.add_argument("--trusted-lan", action="store_true",
                        help="let the desk work over plain HTTP (its cookie not marked Secure): only on a network "
                             "the organisers alone can join; logged and shown on the login page")
    parser.add_argument("--max-connections", type=int, metavar="N",
                        help="web connections at once, beyond which new requests get 503 (default 4000; the unit's "
                             "LimitNOFILE must be above it)")
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
    from server.passwords import passwords_command

    return passwords_command(args.file, args.court, args.service, args.pw_tournament, args.screen)


def _run(args: argparse.Namespace) -> int:
    from rules import CourtsideError

    if not args.tournament:
        raise CourtsideError("courtside server: --tournament FILE is required")
    if args.http_fd is not None and not args.http:
        raise CourtsideError("courtside server: --http-fd FD serves --http HOST:PORT's socket; give both")
    from server.db import normalise_url
    from server.logs import log
    from server.plan import load_plan
    from server.service import Service
    from server.store import Store

    plan = load_plan(args.tournament, seed=args.seed, tournament_id=args.tournament_id)
    store = Store.open(args.db, plan)
    broker = broker_url(args.broker, args.broker_user, args.broker_password_file, os.environ)
    service = Service(store, broker, group=args.group or None, ca_file=args.ca)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: service.stop())
    web = None
    if args.http:
        from server.web.limits import CONNECTIONS
        from server.webserve import start_web

        web = start_web(service, args.http, normalise_url(args.db), secure_cookies=not args.trusted_lan,
                        trusted_proxies=tuple(args.trusted_proxy), connections=args.max_connections or CONNECTIONS,
                        listening=_inherited(args.http_fd))
    log("server_starting", tournament=plan.id, db=_safe(args.db), broker=_safe(broker), http=args.http,
        trusted_proxies=",".join(args.trusted_proxy) or None, pid=os.getpid())
    if args.trusted_lan:
        log("warning", about="trusted_lan", text="the desk works over plain HTTP: anyone on this network can read "
            "its passwords and sessions; use it only on a network the organisers alone can join")
    if urlsplit(args.broker).password:
        log("warning", about="broker_password", text="the broker password is on the command line, which every "
            "local user can read (ps); use --broker-password-file or LoadCredential=broker-password")
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


def _inherited(fd: int | None) -> socket.socket | None:
    from rules import CourtsideError

    if fd is None:
        return None
    try:
        return socket.socket(fileno=fd)
    except OSError as err:
        raise CourtsideError(f"--http-fd {fd}: not a socket this process inherited ({err.strerror})") from err


def broker_url(url: str, user: str | None, password_file: str | None, env: Mapping[str, str]) -> str:
    """The broker URL with the account put in, in this process only: the password comes from a file, from
    systemd's credentials directory (``LoadCredential=broker-password:...``) or from the environment."""
    from rules import CourtsideError

    password: str | None = None
    credentials = env.get("CREDENTIALS_DIRECTORY")
    if password_file is None and credentials and os.path.exists(os.path.join(credentials, "broker-password")):
        password_file = os.path.join(credentials, "broker-password")
    if password_file is not None:
        try:
            with open(password_file, encoding="utf-8") as f:
                password = f.readline().rstrip("\r\n")
        except OSError as err:
            raise CourtsideError(f"--broker-password-file {password_file}: {err.strerror}") from None
        if not password:
            raise CourtsideError(f"--broker-password-file {password_file}: the first line is empty")
    elif env.get("COURTSIDE_BROKER_PASSWORD"):
        password = env["COURTSIDE_BROKER_PASSWORD"]
    if user is None and password is None:
        return url
    parts = urlsplit(url if "://" in url else f"mqtt://{url}")
    user = user if user is not None else unquote(parts.username or "")
    if not user:
        raise CourtsideError("--broker-user: a broker password needs its account's name")
    if password is None:
        password = unquote(parts.password or "")
    host = parts.netloc.rpartition("@")[2]
    account = quote(user, safe="") + (f":{quote(password, safe='')}" if password else "")
    return urlunsplit((parts.scheme, f"{account}@{host}", parts.path, parts.query, parts.fragment))


def _safe(url: str) -> str:
    """A URL for the log without its password."""
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@")
    return url


