"""``courtside database``: back up the service's database while it runs, and put a backup back.

    courtside database backup --db URL FILE     # SQLite's online backup, or pg_dump for PostgreSQL
    courtside database restore --db URL FILE    # with the service stopped; then start it again

After a restore the tables send again, from their journals, whatever the database lost (server/backup.py).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

DEFAULT_DB = "courtside.db"  # the same default as `courtside server --db`


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "database", help="back up the service's database, or restore a backup", description=__doc__.split("\n\n")[0]
    )
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    for verb, what in (("backup", "a consistent copy of the database, while the service runs"),
                       ("restore", "put a backup back (stop the service first, start it after)")):
        one = verbs.add_parser(verb, help=what)
        one.add_argument("file", type=Path, help="the backup file" + (" to write" if verb == "backup" else ""))
        one.add_argument("--db", default=DEFAULT_DB, metavar="URL",
                         help=f"the service's database: SQLite file or URL, or postgresql://... (default {DEFAULT_DB})")
        one.set_defaults(run=_backup if verb == "backup" else _restore)


def _backup(args: argparse.Namespace) -> int:
    from server.backup import backup

    print(f"backed up to {backup(args.db, args.file)}")
    return 0


def _restore(args: argparse.Namespace) -> int:
    from server.backup import restore

    restore(args.db, args.file)
    print(f"restored {args.file}; start the service: each table sends again what the database lacks")
    return 0
