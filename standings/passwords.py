"""``courtside server passwords``: Mosquitto's password file, one user per court and one for the service.

Written with ``mosquitto_passwd`` (installed with Mosquitto) so the hash is exactly the broker's
own; a password not given is generated (``secrets``) and printed once, to put in the table's
configuration. The file is made readable by its owner only.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from pathlib import Path

from rules.errors import CourtsideError
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


def passwords_command(file: str, courts: list[str], service: str, tournament: str | None) -> int:
    users: dict[str, str] = {}
    printed: list[str] = []
    wanted = [_split(c) for c in courts]
    if tournament:
        from standings.plan import load_plan

        wanted += [(court, None) for court in load_plan(tournament).courts]
    for name, password in [_split(service), *wanted]:
        name = name if name == service.partition(":")[0] else slug(name)
        if password is None:
            password = secrets.token_urlsafe(18)
            printed.append(f"{name} {password}")
        users[name] = password
    write_password_file(file, users)
    for line in printed:
        print(line)
    return 0
