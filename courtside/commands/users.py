"""``courtside users``: the organiser's desk accounts, kept in the service's database.

    courtside users add NAME [--db URL] [--reset]     # asks for the password twice (or reads it from stdin)
    courtside users list [--db URL]

Passwords are stored as argon2 hashes; a name is letters, digits, '.', '_' or '-'.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from server.web.errors import AccountError

DEFAULT_DB = "courtside.db"  # the same default as `courtside server --db`


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "users", help="desk accounts of the standings service", description=__doc__.split("\n\n")[0]
    )
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    add = verbs.add_parser("add", help="create an account (or give it a new password with --reset)")
    add.add_argument("name", help="the account's name: letters, digits, '.', '_' or '-'")
    add.add_argument("--db", default=DEFAULT_DB, metavar="URL",
                     help=f"the service's database: SQLite file or URL, or postgresql://... (default {DEFAULT_DB})")
    add.add_argument("--reset", action="store_true", help="the account exists: set a new password")
    add.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    add.set_defaults(run=_add)
    listing = verbs.add_parser("list", help="the account names")
    listing.add_argument("--db", default=DEFAULT_DB, metavar="URL",
                         help=f"the service's database: SQLite file or URL, or postgresql://... (default {DEFAULT_DB})")
    listing.set_defaults(run=_list)


def _password(args: argparse.Namespace) -> str:
    if args.password_stdin or not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass(f"password for {args.name}: ")
    if getpass.getpass("again: ") != first:
        raise AccountError("the two passwords differ; nothing was changed")
    return first


def _add(args: argparse.Namespace) -> int:
    from server.db import normalise_url
    from server.web.accounts import Accounts  # the server extra; only this command needs it

    accounts = Accounts.at(normalise_url(args.db))
    password = _password(args)
    if args.reset:
        accounts.reset(args.name, password)
        print(f"new password set for {args.name}")
    else:
        accounts.add(args.name, password)
        print(f"account {args.name} created; log in at /desk/login")
    return 0


def _list(args: argparse.Namespace) -> int:
    from server.db import normalise_url
    from server.web.accounts import Accounts

    for name in Accounts.at(normalise_url(args.db)).names():
        print(name)
    return 0
