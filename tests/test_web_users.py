"""``courtside users``: an account made by the command logs in to the desk of a service on that database."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from courtside.cli import main
from standings.db import normalise_url
from standings.web.accounts import Accounts


def test_add_list_reset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "courtside.db")
    monkeypatch.setattr(sys, "stdin", io.StringIO("correct horse battery\n"))
    assert main(["users", "add", "anna", "--db", db]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("correct horse battery\n"))
    assert main(["users", "add", "anna", "--db", db]) == 2
    assert "exists already" in capsys.readouterr().err
    assert main(["users", "list", "--db", db]) == 0
    assert capsys.readouterr().out == "anna\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO("a fresh long password\n"))
    assert main(["users", "add", "anna", "--reset", "--db", db]) == 0
    assert Accounts.at(normalise_url(db)).check("anna", "a fresh long password")


def test_a_short_password_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("short\n"))
    assert main(["users", "add", "bob", "--db", str(tmp_path / "x.db")]) == 2
    assert "at least 10 characters" in capsys.readouterr().err
