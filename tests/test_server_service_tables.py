"""`courtside table --script` processes (mock pins, real journal, the MQTT link) -> Mosquitto -> `courtside server`.

Court 1 plays two matches from a press script; court 2's table is killed (SIGKILL) right after the service
stored its first result and started again on the same journal (with a script that presses nothing more:
a restarted table replaying presses of a day script is the table's own business, see the report).
Final standings equal `courtside tournament show` on the results played; nothing lost or doubled.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from server.db.models import EventRow, ResultRow
from tests.service_support import HOCKEY
from tests.test_server_service_e2e import ROOT, Server, check_standings

# Two pool matches: 2-2 (both halves played out on the clock), then NEXT and a 1-0.
DAY = """\
0       press clock_start
61.6    press goal_home
125     press goal_away
300     press goal_home
25:00   press clock_start
40:00   press goal_away
46:00   wait
46:01   press next
46:05   press clock_start
47:00   press goal_home
71:05   press clock_start
92:00   wait
100:00  wait
"""


def table(court: str, journal: Path, script: Path, broker: str, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "courtside", "table", "--rules", "indoor-hockey", "--court", court, "--tournament",
         str(HOCKEY), "--pins", "mock", "--headless", "--script", str(script), "--journal", str(journal),
         "--broker", broker, "--speed", "400"], stdout=subprocess.DEVNULL, stderr=log.open("ab"), cwd=ROOT)


def test_scripted_tables_a_table_killed_after_a_result_and_restarted(mosquitto: Any, tmp_path: Path) -> None:
    broker = mosquitto()
    db = f"sqlite:///{tmp_path / 'day.db'}"
    server = Server(db, broker.url, tmp_path / "server.log")
    script = tmp_path / "day.txt"
    script.write_text(DAY)
    try:
        one = table("1", tmp_path / "j1", script, broker.url, tmp_path / "t1.log")
        two = table("2", tmp_path / "j2", script, broker.url, tmp_path / "t2.log")
        deadline = time.monotonic() + 60
        while b"type=result court=hall-2" not in (tmp_path / "server.log").read_bytes():
            assert time.monotonic() < deadline, "no result from court 2"
            time.sleep(0.02)
        os.kill(two.pid, signal.SIGKILL)  # the power is cut right after its first result
        two.wait()
        rest = tmp_path / "rest.txt"
        rest.write_text("100:00  wait\n")
        again = table("2", tmp_path / "j2", rest, broker.url, tmp_path / "t2.log")
        assert one.wait(120) == 0, (tmp_path / "t1.log").read_text()[-2000:]
        assert again.wait(120) == 0, (tmp_path / "t2.log").read_text()[-2000:]
        deadline = time.monotonic() + 30
        while (tmp_path / "server.log").read_bytes().count(b"status=stored type=result") < 3:
            assert time.monotonic() < deadline, "not every result arrived"
            time.sleep(0.05)
    finally:
        server.stop()
    # What the tables journaled is what the service stored: every event once, every result once, and each
    # stored result is the one its journal gives.
    from firmware.outbox import MatchBox, Outbox
    from server import queries
    from server.store import Store
    from tests.test_server_service_e2e import PLAN

    assert b"status=conflict" not in (tmp_path / "server.log").read_bytes()
    outboxes = {str(i): Outbox(tmp_path / f"j{i}") for i in (1, 2)}
    boxes = {b.match_id: b for o in outboxes.values() for b in o.boxes.values()}
    store = Store.open(db, PLAN)
    results = queries.results(store)
    assert {"1", "2", "3"} <= {r.match_id for r in results}
    rows = dict(_result_rows(store))
    for r in results:
        box = boxes[r.match_id]
        upto = MatchBox(path=box.path, header=box.header, events=[e for e in box.events if e.seq <= rows[r.match_id]])
        journal = upto.result(None)
        assert journal is not None
        assert (journal["home_goals"], journal["away_goals"]) == (r.home_goals, r.away_goals)
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(EventRow)) == sum(len(b.events) for b in boxes.values())
        assert s.scalar(select(func.count()).select_from(ResultRow)) == len(results)
    store.close()
    tables = {court: type("T", (), {"link": type("L", (), {"outbox": o})()})() for court, o in outboxes.items()}
    check_standings(db, tmp_path, tables, sorted(int(r.match_id) for r in results))


def _result_rows(store: Any) -> list[Any]:
    with store.session() as s:
        return [(r.match_id, r.seq) for r in s.scalars(select(ResultRow))]
