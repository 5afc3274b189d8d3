"""The stored results followed (server.result_feed): a reader reads only what was written since its last read,
and on PostgreSQL no result committed late is skipped, whatever order the writers commit in."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from sqlalchemy import text

from server import desk
from server.plan import load_plan
from server.result_feed import ResultFeed, StoredResult, added_since, stamp, written
from server.store import Store, result_row

HOCKEY = load_plan(Path(__file__).resolve().parent.parent / "rules" / "examples" / "indoor-hockey.toml")
WIN = {"outcome": "regular", "winner": "home"}


def _read(store: Store, feed: ResultFeed) -> dict[str, StoredResult]:
    with store.engine.connect() as c:
        read = feed.read(c)
        assert read is not None, "a connection of its own sees what the feed has read"
    rows, by_match = read
    assert len(by_match) == len(rows)
    assert all(by_match[r.match_id] is r for r in rows)  # the same objects as the rows in order
    return by_match


def _score(row: StoredResult) -> tuple[int, int]:
    return row.home_goals, row.away_goals


def test_a_reader_takes_in_each_new_or_corrected_result_and_keeps_the_others_as_read(store: Store) -> None:
    feed = ResultFeed()
    assert _read(store, feed) == {}
    desk.record_result(store, "1", {"home_goals": 2, "away_goals": 0, **WIN}, who="ann", why="sheet")
    desk.record_result(store, "2", {"home_goals": 3, "away_goals": 1, **WIN}, who="ann", why="sheet")
    first = _read(store, feed)
    assert {m: _score(r) for m, r in first.items()} == {"1": (2, 0), "2": (3, 1)}
    assert first["1"].revision < first["2"].revision  # each write its own revision, in the order committed

    desk.record_result(store, "1", {"home_goals": 4, "away_goals": 0, **WIN}, who="bob", why="sheet misread")
    again = _read(store, feed)
    assert _score(again["1"]) == (4, 0) and again["1"].revision > first["2"].revision
    assert again["2"] is first["2"]  # not read again: only what was written since

    # The order stored, as the standings and the pages list them: the correction keeps the match's recorded_at.
    assert list(_read(store, feed)) == ["1", "2"]


def test_a_reader_that_sees_an_older_state_than_the_feed_reads_the_table_itself(pg_url: str) -> None:
    """A transaction begun before a result it has not seen was committed (REPEATABLE READ here; a writing
    transaction on SQLite) must not take the feed's newer results, nor put the feed back to its own."""
    store = Store.open(pg_url, HOCKEY)
    try:
        desk.record_result(store, "1", {"home_goals": 2, "away_goals": 0, **WIN}, who="ann", why="sheet")
        with store.session() as old:
            old.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            assert [r.match_id for r in store.results(old)] == ["1"]  # its snapshot begins here
            desk.record_result(store, "2", {"home_goals": 3, "away_goals": 1, **WIN}, who="ann", why="sheet")
            with store.session() as now:
                assert [r.match_id for r in store.results(now)] == ["1", "2"]  # the feed reads on
            assert store.result_feed.read(old.connection()) is None
            assert [r.match_id for r in store.results(old)] == ["1"]  # read from the table, as it sees it
        with store.session() as later:
            assert [r.match_id for r in store.results(later)] == ["1", "2"]
    finally:
        store.close()


def test_a_transaction_that_wrote_a_result_reads_its_own(store: Store) -> None:
    desk.record_result(store, "1", {"home_goals": 2, "away_goals": 0, **WIN}, who="ann", why="sheet")
    with desk.writing(store) as s:
        desk.put_result(store, s, "1", desk.check_result({"home_goals": 5, "away_goals": 0, **WIN}), who="bob",
                        why="sheet misread")
        s.flush()
        assert [(r.match_id, r.home_goals) for r in store.results(s)] == [("1", 5)]  # not the feed's 2-0
    with store.session() as after:
        assert [(r.match_id, r.home_goals) for r in store.results(after)] == [("1", 5)]


def test_a_result_committed_after_a_later_ones_stamp_cannot_be_skipped(pg_url: str) -> None:
    """Two instances' transactions each write a result. The first stamps its result, then is slow to commit; the
    second wants the next revision. It waits for the first's commit, so a reader that reads the second's result
    has the first's already: a sequence would have let the second commit first, and the reader, having read past
    its number, skip the first's result for the rest of the day."""
    store = Store.open(pg_url, HOCKEY)
    feed = ResultFeed()
    try:
        slow = store.session()
        slow.begin()
        slow.add(result_row(store, slow, "1", desk.check_result({"home_goals": 2, "away_goals": 0, **WIN}),
                            source="table", court="hall-1", seq=9))
        written(slow, "1")
        stamp(slow)  # the commit's first step; the clock is this transaction's until it commits
        done = threading.Event()
        failed: list[BaseException] = []

        def second() -> None:
            try:
                desk.record_result(store, "2", {"home_goals": 1, "away_goals": 0, **WIN}, who="ann", why="sheet")
            except BaseException as err:  # the test's thread reports it below
                failed.append(err)
            done.set()

        writer = threading.Thread(target=second, daemon=True)
        writer.start()
        waiting = text("SELECT count(*) FROM pg_locks WHERE NOT granted AND locktype = 'transactionid'")
        with store.engine.connect() as look:
            deadline = time.monotonic() + 30
            while not look.execute(waiting).scalar():
                assert time.monotonic() < deadline, "the second write did not wait for the first's commit"
                assert not done.is_set(), f"the second write did not wait: {failed}"
                time.sleep(0.02)
        assert _read(store, feed) == {}  # neither is committed
        slow.commit()
        slow.close()
        assert done.wait(30) and not failed, failed
        rows = _read(store, feed)
        assert {m: _score(r) for m, r in rows.items()} == {"1": (2, 0), "2": (1, 0)}
        assert rows["1"].revision < rows["2"].revision
    finally:
        store.close()


def test_the_results_added_since_a_read_are_those_that_follow_it_and_none_after_any_other_change() -> None:
    a, b, c, b_again = (object() for _ in range(4))
    assert added_since([a, b], [a, b, c]) == [c]
    assert added_since([a, b], [a, b]) == []
    assert added_since(None, [a]) is None  # nothing read before
    assert added_since([a, b], [a, c, b]) is None  # one stored out of order
    assert added_since([a, b], [a, b_again]) is None  # one written again: a new object in its place
    assert added_since([a, b], [a, c, b_again]) is None
    assert added_since([a, b], [a]) is None


def test_a_top_the_reader_read_itself_spares_the_read_unless_the_feed_has_read_further(store: Store) -> None:
    """A reading session reads the result clock with its marks (server.store): its last stamp is the results' top
    revision, so the feed need not read it again. A top older than what another reader has fed since is read
    again, not taken for an older state (which would read the whole table)."""
    from sqlalchemy import event

    feed = ResultFeed()
    desk.record_result(store, "1", {"home_goals": 2, "away_goals": 0, **WIN}, who="ann", why="sheet")
    first = _read(store, feed)["1"].revision
    desk.record_result(store, "2", {"home_goals": 3, "away_goals": 1, **WIN}, who="ann", why="sheet")
    second = _read(store, feed)["2"].revision
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda _c, _cur, sql, *_a: statements.append(sql))
    with store.engine.connect() as c:
        read = feed.read(c, top=second)
        assert read is not None and [r.match_id for r in read[0]] == ["1", "2"]
        assert statements == []
        stale = feed.read(c, top=first)  # read by a session begun before result 2 was fed
        assert stale is not None and [r.match_id for r in stale[0]] == ["1", "2"]
        assert len(statements) == 1
