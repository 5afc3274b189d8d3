"""server/backup.py and `courtside database`: a consistent copy while the service writes, a restore that puts
the database back as it was, and a bad backup refused with nothing changed. (The tables sending again what a
restored database lacks: tests/test_firmware_link.py.)"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from courtside.cli import main
from server import desk, queries
from server.backup import BackupError, backup, restore
from server.plan import load_plan
from server.store import Store

HOCKEY = load_plan(Path(__file__).resolve().parent.parent / "rules" / "examples" / "indoor-hockey.toml")
SCORE = {"home_goals": 2, "away_goals": 1, "outcome": "regular", "winner": "home"}


def _results(db_url: str) -> list[tuple[str, int, int]]:
    store = Store.open(db_url, HOCKEY)
    try:
        return sorted((r.match_id, r.home_goals, r.away_goals) for r in queries.results(store))
    finally:
        store.close()


def test_a_backup_is_the_database_at_one_moment_and_a_restore_puts_it_back(db_url: str, tmp_path: Path) -> None:
    store = Store.open(db_url, HOCKEY)
    try:
        desk.record_result(store, "1", SCORE, who="ann", why="sheet")
        copy = backup(db_url, tmp_path / "day.backup")
        desk.record_result(store, "3", SCORE, who="ann", why="sheet")
    finally:
        store.close()
    assert [m for m, _, _ in _results(db_url)] == ["1", "3"]
    restore(db_url, copy)
    assert _results(db_url) == [("1", 2, 1)]


def test_an_sqlite_backup_taken_while_the_service_writes_is_sound(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'live.db'}"
    store = Store.open(db, HOCKEY)
    done = threading.Event()

    def write() -> None:
        for n in ("1", "3", "5", "7"):
            desk.record_result(store, n, SCORE, who="ann", why="sheet")
        done.set()

    writer = threading.Thread(target=write)
    writer.start()
    copies = [backup(db, tmp_path / f"copy-{i}.db") for i in range(3)]
    writer.join(30)
    store.close()
    assert done.is_set()
    for copy in copies:  # each one a database the service opens, with some of the results, none half-stored
        assert set(_results(f"sqlite:///{copy}")) <= {(n, 2, 1) for n in ("1", "3", "5", "7")}


def test_a_bad_backup_is_refused_and_nothing_is_changed(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'c.db'}"
    store = Store.open(db, HOCKEY)
    desk.record_result(store, "1", SCORE, who="ann", why="sheet")
    store.close()
    junk = tmp_path / "junk.backup"
    junk.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    with pytest.raises(BackupError):
        restore(db, junk)
    with pytest.raises(BackupError, match="no such backup file"):
        restore(db, tmp_path / "missing.backup")
    with pytest.raises(BackupError, match="no such database file"):
        backup(f"sqlite:///{tmp_path / 'nowhere.db'}", tmp_path / "x.backup")
    assert _results(db) == [("1", 2, 1)]


def test_the_command_backs_up_and_restores(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "courtside.db")
    store = Store.open(f"sqlite:///{db}", HOCKEY)
    desk.record_result(store, "1", SCORE, who="ann", why="sheet")
    store.close()
    assert main(["database", "backup", "--db", db, str(tmp_path / "b.db")]) == 0
    assert "backed up to" in capsys.readouterr().out
    (tmp_path / "courtside.db").unlink()
    assert main(["database", "restore", "--db", db, str(tmp_path / "b.db")]) == 0
    assert _results(f"sqlite:///{db}") == [("1", 2, 1)]
    assert main(["database", "restore", "--db", db, str(tmp_path / "none.db")]) == 2
    assert "no such backup file" in capsys.readouterr().err
