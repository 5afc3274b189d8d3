"""bench/bench_viewers.py in small (CI's version of the load benchmark, issue 24): 50 viewers over two real
instances on PostgreSQL and Mosquitto while the tables play (one a `courtside table` process), one instance killed
halfway. What must hold at any size: every update reaches every viewer that shows it (a real table's states, four
a second, may coalesce), the killed instance's viewers all move to the other, none ends without the last state,
and a region is rendered per snapshot, not per viewer. The figures (delays) are the benchmark's to print, not this
test's to judge."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench import bench_viewers
from bench.postgres import PG_ADMIN


def test_fifty_viewers_on_two_instances_get_every_update_and_survive_a_killed_instance(tmp_path: Path) -> None:
    if not os.path.exists("/usr/sbin/mosquitto"):
        pytest.skip("mosquitto is not installed")
    psycopg = pytest.importorskip("psycopg")
    try:
        psycopg.connect(PG_ADMIN, connect_timeout=2).close()
    except psycopg.OperationalError:
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432")
    # Pool 1 by a `courtside table` process playing a press script, Pool 2 by a light table (the table's link,
    # match session and outbox).
    f = bench_viewers.measure(viewers=50, instances=2, seconds=6, rate=4, live_per_match=6, kill_at=3, quiet=True,
                              real_tables=1, stagger=0.5,  # the light courts start over half a second
                              keep_log=tmp_path / "instances.log")
    assert f["refused"] == 0 and f["connected"] >= 50
    assert f["live_updates"] > 10 and f["live_complete"] == f["live_updates"]
    # The real table's board reached the pages (a state may be coalesced with the next: its last one must not be).
    assert f["real_updates"] > 5 and f["real_shown"] > 0
    assert f["results"] >= 2 and f["results_complete"] == f["results"]
    assert f["viewers_behind_at_end"] == 0
    assert f["moved"] == 25  # every stream of instance 0 (every other viewer) came back on instance 1
    assert f["connected"] == 75
    # Rendered once per snapshot version and region, whatever the viewers: 2 courts' pages, the home page, 4 pools.
    survivor = f["renders"][-1]
    versions = f["versions"][-1]
    assert survivor["court"] <= 2 * versions and survivor["courts"] <= versions and survivor["pool"] <= 4 * versions
    assert f["page_loads"] > 0
    published = [line for line in (tmp_path / "instances.log").read_text().splitlines() if "event=published" in line]
    assert published and all("since_received_ms=" in line for line in published)  # what a publishing waited
