"""The data layer on SQLite and PostgreSQL: migrations, fixtures, queries and the organiser's changes."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from server import desk, queries
from server.db import models, open_database
from server.db.migrate import current
from server.db.models import EventRow
from server.plan import load_plan
from server.store import Store

EXAMPLE = Path(__file__).resolve().parent.parent / "rules" / "examples" / "indoor-hockey.toml"


def test_migrations_run_at_start_and_again_without_harm(db_url: str) -> None:
    engine = open_database(db_url)
    assert current(engine) == "0008"
    open_database(db_url).dispose()
    assert current(engine) == "0008"
    engine.dispose()


def test_the_migrations_make_the_models_schema(db_url: str) -> None:
    # One way to the database: a table or column in models.py without its migration (or the other way) fails here.
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = open_database(db_url)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), models.Base.metadata)
    engine.dispose()
    assert [d for d in differences if d[0] != "remove_table" or d[1].name != "alembic_version"] == []


def test_the_database_keeps_one_decision_per_tie_whatever_the_teams_order(store: Store) -> None:
    """The desk refuses a second decision for a tie in its transaction (tests/test_server_desk.py); the database
    backs the rule, so no path that forgets to check can store two."""
    from sqlalchemy.exc import IntegrityError

    with store.session.begin() as s:
        s.add(models.DecisionRow(pool="A", method="lots", order=["x", "y"], tie=desk.tie_key(["x", "y"]),
                                 who="ann", at=datetime.now(UTC)))
    with pytest.raises(IntegrityError), store.session.begin() as s:
        s.add(models.DecisionRow(pool="A", method="lots", order=["y", "x"], tie=desk.tie_key(["y", "x"]),
                                 who="bob", at=datetime.now(UTC)))
    with store.session.begin() as s:  # the same teams level in another pool are another tie
        s.add(models.DecisionRow(pool="B", method="lots", order=["y", "x"], tie=desk.tie_key(["y", "x"]),
                                 who="bob", at=datetime.now(UTC)))
    with store.session() as s:
        assert [(d.pool, d.order) for d in store.decisions(s)] == [("A", ("x", "y")), ("B", ("y", "x"))]


def test_decisions_stored_twice_before_the_rule_are_kept_when_the_database_is_upgraded(db_url: str) -> None:
    from sqlalchemy import text

    from server.db import make_engine
    from server.db.migrate import upgrade

    engine = make_engine(db_url)
    upgrade(engine, "0004")
    with engine.begin() as c:
        for who, order in (("ann", '["x", "y"]'), ("bob", '["y", "x"]')):
            c.execute(text('INSERT INTO decisions (pool, method, "order", who, at) VALUES '
                           "('A', 'lots', :order, :who, :at)"), {"order": order, "who": who, "at": datetime.now(UTC)})
    upgrade(engine)
    with engine.connect() as c:
        rows = c.execute(text("SELECT who, tie FROM decisions ORDER BY id")).all()
    engine.dispose()
    assert [who for who, _ in rows] == ["ann", "bob"] and rows[0][1] == desk.tie_key(["x", "y"])
    assert rows[1][1] == f"{rows[0][1]}#2"


def test_results_stored_before_the_result_clock_are_read_and_followed_after_the_upgrade(db_url: str) -> None:
    """A database of a day under way, upgraded to the result clock (0007): its results are at revision 0, which
    the pages' first read takes in, and the results written after are followed from there."""
    from sqlalchemy import text

    from server.db import make_engine
    from server.db.migrate import upgrade

    engine = make_engine(db_url)
    upgrade(engine, "0006")
    with engine.begin() as c:
        c.execute(text("INSERT INTO results (match_id, stage, home, away, home_goals, away_goals, outcome, winner, "
                       "source, recorded_at) VALUES ('1', 'A', 'x', 'y', 2, 0, 'regular', 'home', 'table', :at)"),
                  {"at": datetime.now(UTC)})
    engine.dispose()
    store = Store.open(db_url, load_plan(EXAMPLE))  # upgrades to the head
    try:
        with store.reading() as s:
            assert [(r.match_id, r.revision) for r in store.results(s)] == [("1", 0)]
        win = {"home_goals": 1, "away_goals": 0, "outcome": "regular", "winner": "home"}
        desk.record_result(store, "2", win, who="ann", why="score sheet")
        with store.reading() as s:
            assert [(r.match_id, r.revision) for r in store.results(s)] == [("1", 0), ("2", 1)]
    finally:
        store.close()


def test_fixtures_come_from_the_tournament_file(store: Store) -> None:
    hall1 = queries.court_schedule(store, "hall-1")
    assert [f.number for f in hall1][:3] == [1, 3, 5]
    first = hall1[0]
    assert (first.home, first.away, first.status) == ("Rot-Weiss Köln", "Slavia Praha", "scheduled")
    sf1 = queries.fixture(store, "15")
    assert sf1 is not None and sf1.home is None and sf1.home_label == "2A"
    assert {p.court for p in queries.court_presence(store)} == {"hall-1", "hall-2"}


def test_an_organisers_result_ranks_the_pool_and_is_audited(store: Store) -> None:
    affected = desk.record_result(store, "1", {"home_goals": 3, "away_goals": 1, "outcome": "regular",
                                               "winner": "home"}, who="ann", why="score sheet")
    assert affected.pools == {"A"}
    table = queries.pool_tables(store)["A"].table
    assert table is not None and table.rows[0].team == "Rot-Weiss Köln" and table.rows[0].points > 0
    assert queries.fixture(store, "1").status == "finished"  # type: ignore[union-attr]
    (change,) = queries.change_log(store)
    assert (change.who, change.action, change.why, change.before) == ("ann", "result", "score sheet", None)
    first = queries.results(store)[0].recorded_at
    desk.record_result(store, "1", {"home_goals": 1, "away_goals": 1, "outcome": "regular", "winner": None},
                       who="ann", why="wrong goal")
    # A correction changes the score, not when the match ended: the protest window runs on from there.
    assert queries.results(store)[0].recorded_at == first
    assert queries.change_log(store)[0].before == {"home_goals": 3, "away_goals": 1, "outcome": "regular",
                                                   "winner": "home", "home_shootout": None, "away_shootout": None}
    assert len(queries.results(store)) == 1
    with pytest.raises(desk.DeskError, match="why"):
        desk.record_result(store, "1", {"home_goals": 0, "away_goals": 0, "outcome": "regular"}, who="a", why=" ")
    with pytest.raises(desk.DeskError, match="outcome"):
        desk.record_result(store, "1", {"home_goals": 0, "away_goals": 0, "outcome": "won"}, who="a", why="x")
    with pytest.raises(desk.DeskError, match="not known yet"):
        desk.record_result(store, "15", {"home_goals": 1, "away_goals": 0, "outcome": "regular",
                                         "winner": "home"}, who="a", why="x")


def test_a_started_match_stays_where_it_is_unless_it_goes_on_as_an_abandoned_one(store: Store) -> None:
    """Issue 31: a match moved after its first events stranded it (the old court's events and result refused,
    the new court's spliced onto them). Checked in the move's own transaction."""
    with store.session.begin() as s:
        s.add(EventRow(match_id="1", court="hall-1", seq=1, type="clock_started", at=0, body={"type": "clock_started"},
                       message_id="m1", received_at=datetime.now(UTC)))
    with pytest.raises(desk.DeskError, match=r"match 1 has started \(its table on Hall 1 has sent 1 event"):
        desk.move_match(store, "1", court="hall-2", who="ann", why="floor wet")
    assert queries.fixture(store, "1").court == "hall-1"  # type: ignore[union-attr]
    assert queries.change_log(store) == []
    desk.move_match(store, "1", court="hall-2", who="ann", why="resumed there", started_ok=True)
    assert queries.fixture(store, "1").court == "hall-2"  # type: ignore[union-attr]


def test_a_moved_match_changes_court_and_stays_moved(store: Store, db_url: str) -> None:
    desk.move_match(store, "1", court="hall-2", start=datetime(2026, 1, 16, 18, 0), who="ann", why="floor wet")
    moved = queries.fixture(store, "1")
    assert moved is not None and moved.court == "hall-2" and moved.start.hour == 18
    again = Store.open(db_url, store.plan)  # a restart does not put it back
    assert queries.fixture(again, "1").court == "hall-2"  # type: ignore[union-attr]
    again.close()
    with pytest.raises(desk.DeskError, match="no court"):
        desk.move_match(store, "1", court="hall-9", who="ann", why="x")



def test_a_stage_is_waited_on_by_the_courts_of_the_matches_that_take_their_teams_from_it(store: Store) -> None:
    with store.session() as s:
        # Indoor hockey: SF1 "2A v 1B" on Hall 1, SF2 "1A v 2B" on Hall 2, the third place and the final on Hall 1.
        assert store.courts_waiting_on(s, "A") == {"hall-1", "hall-2"}
        assert store.courts_waiting_on(s, "SF1") == store.courts_waiting_on(s, "SF2") == {"hall-1"}
        assert store.courts_waiting_on(s, "F") == frozenset()
        assert store.courts_waiting_on(s, "A", to_the_final=True) == {"hall-1", "hall-2"}
        final = next(f for f in store.fixtures(s).values() if f.stage == "F")
    # A move writes the change log: the fixtures and their courts are read again.
    desk.move_match(store, final.match_id, court="hall-2", who="ann", why="the final in the big hall")
    with store.session() as s:
        assert store.fixtures(s)[final.match_id].court == "Hall 2"
        assert store.courts_waiting_on(s, "SF1") == {"hall-1", "hall-2"}


def test_a_first_round_pool_is_waited_on_by_the_courts_that_rank_the_pools(db_url: str) -> None:
    # Youth football: QF1 "1A v 3B/C" (the best third of B and C) on Plan 1, QF3 "1B v 3A/C" on Plan 2, QF2
    # "2B v 2C" on Plan 3, QF4 "1C v 2A" on Plan 1; the semi-finals on Plans 1 and 2, then Plan 1.
    store = Store.open(db_url, load_plan(EXAMPLE.with_name("youth-football.toml")))
    try:
        with store.session() as s:
            assert store.courts_waiting_on(s, "A") == {"plan-1", "plan-2"}
            assert store.courts_waiting_on(s, "B") == {"plan-1", "plan-2", "plan-3"}
            # SF2 "winner QF3 v winner QF4" on Plan 2; on to the final, the third place and the final on Plan 1
            # (a corrected QF4 can set aside the results after it).
            assert store.courts_waiting_on(s, "QF4") == {"plan-2"}
            assert store.courts_waiting_on(s, "QF4", to_the_final=True) == {"plan-2", "plan-1"}
            assert store.courts_waiting_on(s, "F", to_the_final=True) == frozenset()
    finally:
        store.close()


def test_live_states_read_again_only_the_courts_whose_state_was_stored_since(store: Store) -> None:
    from rules.live import live_payload
    from rules.match import ClockStarted, Match
    from rules.ruleset import load_ruleset

    rules = load_ruleset("indoor-hockey")
    match = Match(rules)
    match.apply(ClockStarted(at=0))
    first_at, later_at = datetime(2026, 5, 16, 9, 0, tzinfo=UTC), datetime(2026, 5, 16, 9, 0, 1, tzinfo=UTC)
    with store.session.begin() as s:
        for court in ("hall-1", "hall-2"):
            s.add(models.Live(court=court, match_id="1", state=live_payload(match.state_at(1000), rules, "1"),
                              updated_at=first_at))
    first = queries.live_states(store)
    assert sorted(first) == ["hall-1", "hall-2"]
    assert first["hall-1"].live.board.clock_ms == rules.match.period_length - 1000
    with store.session.begin() as s:
        row = s.get(models.Live, "hall-2")
        assert row is not None
        row.state, row.updated_at = live_payload(match.state_at(5000), rules, "1"), later_at
    second = queries.live_states(store, first)
    assert second["hall-1"] is first["hall-1"]  # not read again
    assert second["hall-2"].updated_at.replace(tzinfo=UTC) == later_at
    assert second["hall-2"].live.board.clock_ms == rules.match.period_length - 5000
    assert queries.live_states(store, second) == queries.live_states(store)  # the same as reading them all


def test_a_session_reads_the_moves_mark_once_and_again_after_a_move_of_its_own(store: Store) -> None:
    """The fixtures are kept until the change log has a new move. A session (a batch, a snapshot, a publishing)
    reads that mark once, not at each look (the loop looked at the fixtures twice for each result); a move
    written in the session makes its next look read it again, so the session sees its own move."""
    from sqlalchemy import event

    first = sorted(store.plan.fixtures, key=int)[0]
    other_court = next(name for name in store.plan.courts.values() if name != store.plan.fixtures[first].court)
    marks: list[str] = []
    event.listen(store.engine, "before_cursor_execute",
                 lambda _c, _cur, sql, *_a: marks.append(sql) if "max(changes.id)" in sql else None)
    with store.session.begin() as s:
        assert store.fixtures(s)[first].court != other_court
        store.fixtures(s)
        assert len(marks) == 1
        desk.put_move(store, s, first, court=other_court, who="anna", why="the hall floor is wet")
        assert store.fixtures(s)[first].court == other_court
        assert len(marks) == 2


def test_a_reading_session_takes_the_moves_mark_the_results_top_and_the_decisions_from_its_marks(
        store: Store) -> None:
    """A reading session (a snapshot, a publishing) reads the marks first, in one statement; the fixtures' look at
    the moves, the result feed's top and the decisions (while as many are counted as were last read: they are only
    ever added) come from it, not from a statement each."""
    from sqlalchemy import event

    desk.record_result(store, "1", {"home_goals": 2, "away_goals": 0, "outcome": "regular", "winner": "home"},
                       who="ann", why="sheet")
    with store.reading() as s:  # the first: reads what nothing has kept yet
        store.results(s), store.fixtures(s), store.decisions(s)
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda _c, _cur, sql, *_a: statements.append(sql))
    with store.reading() as s:
        assert [r.match_id for r in store.results(s)] == ["1"]
        assert "1" in store.fixtures(s)
        assert store.decisions(s) == []
    assert len(statements) == 1, statements  # the marks

    with store.session.begin() as s:
        s.add(models.DecisionRow(pool="A", method="lots", order=["x", "y"], tie=desk.tie_key(["x", "y"]),
                                 who="ann", at=datetime.now(UTC)))
    with store.reading() as s:  # one more counted: read again
        assert [(d.pool, d.order) for d in store.decisions(s)] == [("A", ("x", "y"))]
