"""server.progresses, through the store's reads: a snapshot's progress is the one of the results it read, the loop
and the pages work a result out once, a table's result (which writes no change) is seen by the loop's kept
progress, and each class counts its own results as a service started afresh would."""

from __future__ import annotations

from pathlib import Path

from server import desk
from server.plan import load_plan
from server.store import Store

YOUTH_CUP = Path(__file__).resolve().parent.parent / "rules" / "examples" / "youth-cup.toml"


def test_a_result_stored_while_a_snapshot_reads_is_in_the_next_snapshot(store: Store) -> None:
    """A snapshot reads its results once for all its parts (Store.reading). A result stored between that read
    and the progress the snapshot asks for must not be cached as seen: the next snapshot shows it."""
    win = {"home_goals": 2, "away_goals": 0, "outcome": "regular", "winner": "home"}
    with store.reading() as s:
        assert store.results(s) == []
        desk.record_result(store, "1", win, who="ann", why="score sheet")  # stored meanwhile, by another session
        table = store.progress(s).pools["A"].table
        assert table is not None and all(row.played == 0 for row in table.rows)  # this snapshot read before it
        assert store.results(s) == []
    with store.reading() as s:
        table = store.progress(s).pools["A"].table
        assert table is not None and table.rows[0].played == 1 and table.rows[0].points > 0
        assert [r.match_id for r in store.results(s)] == ["1"]


def test_the_loop_and_the_pages_work_a_result_out_once(store: Store) -> None:
    """After a result the service's loop works out the progress (its tables and schedules to publish) and the
    pages' snapshot does too. Both read the result feed's rows, so the second finds the first's progress: the
    rows each transaction read itself never compared equal to the snapshot's, and each worked every class out."""
    win = {"home_goals": 2, "away_goals": 0, "outcome": "regular", "winner": "home"}
    desk.record_result(store, "1", win, who="ann", why="score sheet")
    loop = store.progress()
    with store.reading() as s:
        assert store.progress(s) is loop
    desk.record_result(store, "2", win, who="ann", why="score sheet")
    with store.reading() as s:
        pages = store.progress(s)
    assert pages is not loop and store.progress() is pages


def test_the_loop_s_kept_progress_takes_a_table_s_result_which_writes_no_change(store: Store) -> None:
    """The loop keeps its progress under what the stored facts are at: a table's result writes no change row and
    no decision, only the result clock's stamp tells it came."""
    from rules import protocol as p
    from server.service import Service
    from tests.service_support import played

    before = store.progress()
    assert store.progress() is before  # kept
    service = Service(store, "mqtt://127.0.0.1:9", group=None)  # never connected: its messages stay queued
    events, result = played(store.plan.ruleset_of("A"), 3, 1)
    court = store.plan.court_id(store.plan.fixtures["1"].court)
    service._messages([
        *((p.court_topic(store.plan.id, court, "events"), p.encode(p.event_message(
            id=f"e{e['seq']}", court=court, match="1", event=e))) for e in events),
        (p.court_topic(store.plan.id, court, "result"), p.encode(p.result_message(
            id="r", court=court, match="1", seq=events[-1]["seq"], result=result)))], set(), set())
    pool = store.plan.fixtures["1"].stage
    assert before.pools[pool].played == 0 and store.progress().pools[pool].played == 1


def test_each_class_counts_the_results_of_its_stages_as_they_come_and_after_a_correction(db_url: str) -> None:
    """The loop and the pages keep each class's share of the results and add a new result to it alone. Whatever
    came in what order (a result stored last, one corrected in its place, one abandoned), every class's progress is
    the one a service started afresh on the same database works out."""
    plan = load_plan(YOUTH_CUP)
    store = Store.open(db_url, plan)
    try:
        first = sorted((m for m in plan.fixtures.values() if m.round == "pool"), key=lambda m: (m.start, m.number))
        chosen = {m.class_name: m for m in reversed(first[:40])}  # each class's first pool match
        assert len(chosen) == len(plan.cup.classes) > 2
        win = {"home_goals": 2, "away_goals": 1, "outcome": "regular", "winner": "home"}
        steps = [(str(m.number), win) for m in chosen.values()]
        steps += [(steps[0][0], {**win, "home_goals": 0, "winner": "away"}),  # corrected: the same place, anew
                  (str(first[40].number), {**win, "outcome": "abandoned"})]
        for match_id, result in steps:
            desk.record_result(store, match_id, result, who="ann", why="score sheet")
            mine = store.class_progress()
            with store.reading() as s:
                assert store.class_progress(s) == mine
            fresh = Store.open(db_url, plan)
            try:
                assert mine == fresh.class_progress(), f"after match {match_id}"
            finally:
                fresh.close()
        played = {name: sum(p.played for p in progress.pools.values()) for name, progress in mine.items()}
        assert sorted(played.values()) == [1] * len(chosen)
    finally:
        store.close()
