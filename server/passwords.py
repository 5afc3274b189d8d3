"""``courtside server passwords``: Mosquitto's password file, one user per court, one for the service and
the read-only screen user(s).

Written with ``mosquitto_passwd`` (installed with Mosquitto) so the hash is exactly the broker's
own; a password not given is generated (``secrets``) and printed once, to put in the table's
configuration. The file is readable by its owner only, and that owner is the ``mosquitto`` user when the
command runs as root: Mosquitto 2 drops to its own user before it reads the file ("Unable to open pwfile"
otherwise), and newer releases warn about a file another user owns or others can read.

A screen user (``--screen``) may only read: the shipped ACL (systemd/mosquitto/acl) gives the user
``screen`` read access to the courts' live, presence and schedule topics and the pools' tables, and
nothing to write; any other screen name needs the same ``user NAME`` block there, which the command says.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

from rules import CourtsideError
from rules.protocol import slug


class PasswordFileError(CourtsideError, OSError):
    """The password file cannot be written (no mosquitto_passwd, a bad user name)."""


def _split(item: str) -> tuple[str, str | None]:
    name, _, password = item.partition(":")
    return name, password or None


def write_password_file(path: str | Path, users: dict[str, str]) -> None:
    tool = shutil.which("mosquitto_passwd") or ("/usr/bin/mosquitto_passwd"
                                                if os.path.exists("/usr/bin/mosquitto_passwd") else None)
    if tool is None:
        raise PasswordFileError("mosquitto_passwd is not installed (it comes with the mosquitto package)")
    path = Path(path)
    path.write_text("")
    path.chmod(0o600)
    for name, password in users.items():
        if not name or ":" in name or name != name.strip():
            raise PasswordFileError(f"user {name!r}: not a user name")
        done = subprocess.run([tool, "-b", str(path), name, password], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise PasswordFileError(f"{path}: mosquitto_passwd refused {name!r}: {done.stderr.strip()}")
    hand_to_broker(path)


BROKER_USER = "mosquitto"
"""The account Debian's Mosquitto runs as (it starts as root and drops to it before reading its files)."""


def hand_to_broker(path: Path) -> bool:
    """Make ``path`` the broker's own, mode 0600; True if done, False (with a note) when not running as root."""
    path.chmod(0o600)
    try:
        account = pwd.getpwnam(BROKER_USER)
    except KeyError:
        print(f"note: there is no {BROKER_USER!r} user here; on the broker's machine run "
              f"chown {BROKER_USER}:{BROKER_USER} {path}", file=sys.stderr)
        return False
    if os.geteuid() != 0:
        print(f"note: Mosquitto reads {path} as the {BROKER_USER!r} user: run "
              f"sudo chown {BROKER_USER}:{BROKER_USER} {path}", file=sys.stderr)
        return False
    os.chown(path, account.pw_uid, account.pw_gid)
    return True


SCREEN_USER = "screen"
"""The read-only user the shipped ACL names (``user screen``)."""


def passwords_command(file: str, courts: list[str], service: str, tournament: str | None,
                      screens: list[str] | None = None) -> int:
    users: dict[str, str] = {}
    printed: list[str] = []
    wanted = [_split(c) for c in courts]
    if tournament:
        from server.plan import load_plan

        wanted += [(court, None) for court in load_plan(tournament).courts]
    court_ids = {slug(name) for name, _ in wanted}
    readers = [_split(item) for item in screens or []]
    for name, _ in readers:
        # The ACL's per-court patterns (%u) would let a screen named like a court write that court's topics.
        if not name or slug(name) != name or name in court_ids or name == service.partition(":")[0]:
            raise PasswordFileError(f"--screen {name!r}: a screen user needs its own name (lower-case letters, "
                                    f"digits and -), not a court's or the service's")
    for name, password in [_split(service), *wanted, *readers]:
        name = name if name == service.partition(":")[0] else slug(name)  # screens' names are slugs already
        if password is None:
            password = secrets.token_urlsafe(18)
            printed.append(f"{name} {password}")
        users[name] = password
    write_password_file(file, users)
    for line in printed:
        print(line)
    for name, _ in readers:
        if name != SCREEN_USER:
            print(f"note: the shipped ACL gives read access to the user {SCREEN_USER!r} only; for {name!r} add "
                  f"a 'user {name}' block like the one for {SCREEN_USER!r} (its read lines, and its deny line "
                  f"with {name})", file=sys.stderr)
    return 0
