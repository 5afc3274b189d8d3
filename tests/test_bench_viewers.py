"""bench/bench_viewers.py in small (CI's version of the load benchmark, issue 24): 50 viewers over two real
instances on PostgreSQL and Mosquitto while the tables play (one a `courtside table` process), one instance killed
halfway. What must hold at any size: every update reaches every viewer that shows it (a real table's states, four
a second, may coalesce), the killed instance's viewers all move to the other, none ends without the last state,
and a region is rendered per snapshot, not per viewer. The figures (delays) are the benchmark's to print, not this
test's to judge."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bench import bench_viewers, viewers_stages
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
                              keep_log=tmp_path / "instances.log", stages=True)
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
    # A result's way, stage by stage: every result a phone showed was followed from the broker to its last phone.
    stages = f["stages"]["stages"]
    shown = stages["in all"][2]
    assert shown >= 1 and all(stages[stage][2] == shown for stage in ("to the instance", "stored (its batch committed)",
                                                                        "to the last phone"))


def _line(kind: str, pid: int, **fields: object) -> str:
    return viewers_stages.PREFIX + json.dumps({"kind": kind, "pid": pid, **fields})


def test_a_results_way_is_split_into_its_stages_on_each_instance() -> None:
    """Instance 1 stores match 7 (pool A), and its round hands out pool A's region: its snapshot, read on another
    thread, saw the commit, and the round ended, before the loop's clock was read after the commit. Instance 2
    learns it later. Match 8 reached no phone: left out."""
    log = "\n".join([
        _line("received", 1, match="7", at=10.010), _line("taken", 1, match="7", at=10.015),
        _line("stored", 1, match="7", at=10.040, told=10.041),
        _line("round", 1, pools=["B"], start=9.990, read=9.995, end=10.039),  # ended before the commit
        _line("round", 1, pools=["A"], start=10.020, read=10.030, end=10.038),
        _line("round", 1, pools=["A"], start=20.0, read=20.1, end=20.2),  # the pool's next result
        _line("round", 2, pools=["A"], start=10.100, read=10.120, end=10.140),
        _line("received", 1, match="8", at=11.0), _line("taken", 1, match="8", at=11.0),
        _line("stored", 1, match="8", at=11.0, told=11.0),
        _line("gc", 2, cpu_ms=80.0), _line("gc", 2, cpu_ms=30.0),
        "event=published pools=A",  # the instances' own lines around them
    ])
    figures = viewers_stages.breakdown(log, [("7", "A", 10.000, 10.200), ("8", "A", 11.0, 0.0)])
    ms = {stage: round(p50) for stage, (p50, _, _) in figures["stages"].items()}
    assert ms == {"to the instance": 10, "in its inbox": 5, "stored (its batch committed)": 25, "the pages told": 1,
                  "to its round": 0, "the round's snapshot": 0, "rendered and written": 8,
                  "the other instance's round ended": 100, "to the last phone": 60, "in all": 200}
    assert all(n == 1 for _, _, n in figures["stages"].values())
    assert figures["full_collections"] == {2: (2, 80.0)}
