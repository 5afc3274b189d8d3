"""``courtside users``: an account made by the command logs in to the desk of a service on that database."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

from courtside.cli import main
from server.db import normalise_url
from server.web.accounts import Accounts


def test_add_list_reset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "courtside.db")
    monkeypatch.setattr(sys, "stdin", io.StringIO("correct horse battery\n"))
    assert main(["users", "add", "anna", "--db", db]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("correct horse battery\n"))
    assert main(["users", "add", "anna", "--db", db]) == 2
    assert "exists already" in capsys.readouterr().err
    assert main(["users", "list", "--db", db]) == 0
    assert capsys.readouterr().out == "anna\torganiser\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO("a fresh long password\n"))
    assert main(["users", "add", "anna", "--reset", "--db", db]) == 0
    assert Accounts.at(normalise_url(db)).check("anna", "a fresh long password")


def test_roles_and_removal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "courtside.db")
    monkeypatch.setattr(sys, "stdin", io.StringIO("correct horse battery\n"))
    assert main(["users", "add", "tomas", "--role", "desk", "--db", db]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("correct horse battery\n"))
    assert main(["users", "add", "anna", "--db", db]) == 0
    capsys.readouterr()
    assert main(["users", "list", "--db", db]) == 0
    assert capsys.readouterr().out == "anna\torganiser\ntomas\tdesk\n"
    assert main(["users", "role", "tomas", "organiser", "--db", db]) == 0
    assert main(["users", "remove", "anna", "--db", db]) == 0
    capsys.readouterr()
    assert main(["users", "remove", "anna", "--db", db]) == 2
    assert "no account 'anna'" in capsys.readouterr().err
    assert main(["users", "list", "--db", db]) == 0
    assert capsys.readouterr().out == "tomas\torganiser\n"
    with pytest.raises(SystemExit):
        main(["users", "role", "tomas", "referee", "--db", db])  # argparse names the two roles


def test_the_command_s_roles_are_the_accounts_roles() -> None:
    from courtside.commands.users import ROLES as COMMAND_ROLES
    from server.desk_commands import ROLES

    assert COMMAND_ROLES == ROLES


def test_a_short_password_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("short\n"))
    assert main(["users", "add", "bob", "--db", str(tmp_path / "x.db")]) == 2
    assert "at least 10 characters" in capsys.readouterr().err


def test_an_account_the_command_made_logs_in_to_the_served_desk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 mosquitto: Any) -> None:
    import re

    import httpx

    from server.web.serve import start_web
    from tests.ports import free_port
    from tests.service_support import running_service

    db = str(tmp_path / "courtside.db")
    monkeypatch.setattr(sys, "stdin", io.StringIO("correct horse battery\n"))
    assert main(["users", "add", "anna", "--db", db]) == 0
    broker = mosquitto()
    with running_service(normalise_url(db), broker.url) as service:
        for secure in (True, False):
            port = free_port()
            web = start_web(service, f"127.0.0.1:{port}", normalise_url(db), secure_cookies=secure)
            try:
                with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
                    page = client.get("/desk/login")
                    cookie = page.headers["set-cookie"].lower()
                    assert "httponly" in cookie and "samesite=strict" in cookie and ("secure" in cookie) is secure
                    if secure:
                        continue  # the browser keeps a Secure cookie only on HTTPS or on the server itself
                    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
                    assert csrf is not None
                    wrong = client.post("/desk/login", data={"csrf": csrf.group(1), "name": "anna",
                                                             "password": "not the password"})
                    assert wrong.status_code == 401
                    done = client.post("/desk/login", data={"csrf": csrf.group(1), "name": "anna",
                                                            "password": "correct horse battery"})
                    assert done.status_code == 303 and done.headers["location"] == "/desk"
                    assert client.get("/desk").status_code == 200
            finally:
                web.stop()
