"""server/change_log.py: the desk's change log followed by the pages, read whole once, then only what was added;
who entered a result is kept however many changes came after it."""

from __future__ import annotations

from pathlib import Path

from server import desk
from server.change_log import RECENT, ChangeLog
from server.plan import load_plan
from server.store import Store

HOCKEY = load_plan(Path(__file__).resolve().parent.parent / "rules" / "examples" / "indoor-hockey.toml")


def _result(store: Store, match: str, home: int, who: str) -> None:
    desk.record_result(store, match, {"home_goals": home, "away_goals": 0, "outcome": "regular",
                                      "winner": "home" if home else None}, who=who, why=f"sheet {home}")


def test_the_log_is_read_once_then_only_what_was_added(store: Store) -> None:
    log = ChangeLog(store)
    assert not log.catch_up() and log.recent == [] and log.entered == {}
    _result(store, "1", 2, "ann")
    _result(store, "2", 1, "bob")
    assert log.catch_up()
    assert [(c.who, c.match_id) for c in log.recent] == [("bob", "2"), ("ann", "1")]  # newest first
    assert not log.catch_up()  # nothing new: nothing read again
    _result(store, "1", 3, "cid")  # a correction: the newest change of match 1's result is cid's
    assert log.catch_up()
    assert log.entered["1"].who == "cid" and log.entered["1"].before is not None
    assert [c.who for c in log.recent] == ["cid", "bob", "ann"]


def test_who_entered_a_result_is_kept_past_the_newest_changes_the_pages_list(store: Store) -> None:
    log = ChangeLog(store)
    _result(store, "1", 2, "ann")
    log.catch_up()
    for n in range(RECENT + 5):  # a long day of corrections elsewhere
        _result(store, "2", n % 4, "bob")
        if n % 50 == 0:
            log.catch_up()
    log.catch_up()
    assert len(log.recent) == RECENT and {c.who for c in log.recent} == {"bob"}
    assert log.entered["1"].who == "ann" and log.entered["2"].who == "bob"
    assert log.through == max(c.id for c in log.recent)
