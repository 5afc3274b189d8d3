"""``courtside users``: the desk's accounts, kept in the service's database.

    courtside users add NAME [--role organiser|desk] [--db URL] [--reset]   # asks for the password twice
    courtside users list [--db URL]                                         # names and roles
    courtside users role NAME organiser|desk [--db URL]
    courtside users remove NAME [--db URL]

Passwords are stored as argon2 hashes; a name is letters, digits, '.', '_' or '-'. An organiser does
everything at the desk; a desk account enters results of matches that have none, walk-overs and
decisions. A new password (--reset) or a removed account ends the account's sessions at once.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from server.web.errors import AccountError

ROLES = ("organiser", "desk")  # server.desk_commands.ROLES (not imported here: --help needs no server extra)

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
    add.add_argument("--reset", action="store_true",
                     help="the account exists: set a new password (its sessions end at once)")
    add.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    add.add_argument("--role", choices=ROLES, default=ROLES[0],
                     help="organiser: everything at the desk; desk: results of matches that have none, walk-overs "
                     "and decisions (default organiser)")
    add.set_defaults(run=_add)
    listing = verbs.add_parser("list", help="the accounts and their roles")
    listing.set_defaults(run=_list)
    role = verbs.add_parser("role", help="change an account's role (from its next request on)")
    role.add_argument("name", help="the account's name")
    role.add_argument("role", choices=ROLES, help="organiser (everything) or desk (first results, walk-overs, "
                      "decisions)")
    role.set_defaults(run=_role)
    remove = verbs.add_parser("remove", help="remove an account; its sessions end at once")
    remove.add_argument("name", help="the account's name")
    remove.set_defaults(run=_remove)
    for verb in (listing, role, remove):
        verb.add_argument("--db", default=DEFAULT_DB, metavar="URL", help="the service's database: SQLite file or "
                          f"URL, or postgresql://... (default {DEFAULT_DB})")


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
        print(f"new password set for {args.name}; its sessions have ended")
    else:
        accounts.add(args.name, password, args.role)
        print(f"account {args.name} ({args.role}) created; log in at /desk/login")
    return 0


def _accounts(args: argparse.Namespace) -> Any:
    from server.db import normalise_url
    from server.web.accounts import Accounts  # the server extra; only this command needs it

    return Accounts.at(normalise_url(args.db))


def _list(args: argparse.Namespace) -> int:
    for name, role in _accounts(args).roles():
        print(f"{name}\t{role}")
    return 0


def _role(args: argparse.Namespace) -> int:
    _accounts(args).set_role(args.name, args.role)
    print(f"{args.name} is now {args.role}")
    return 0


def _remove(args: argparse.Namespace) -> int:
    _accounts(args).remove(args.name)
    print(f"account {args.name} removed; its sessions have ended")
    return 0
