"""The service's publishing of tables and schedules: once connected, every pool's table and every court's
schedule, retained, in one go."""

from __future__ import annotations

import queue
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from rules import protocol as p
from standings.plan import load_plan
from tests.service_support import running_service


def tournament(folder: Path, pools: int, courts: int) -> Path:
    names = [f"P{i}" for i in range(pools)]
    court_names = ", ".join(f'"C{c}"' for c in range(1, courts + 1))
    lines = ['name = "pauses"', 'ruleset = "indoor-hockey"', "", "[schedule]", 'start = "2026-01-16T08:00"',
             f"courts = [{court_names}]", 'slot = "55:00"']
    for n in names:
        lines += ["", "[[pools]]", f'name = "{n}"', f'teams = ["{n}a", "{n}b", "{n}c"]']
        lines += [line for t in "abc" for line in ("", "[[teams]]", f'name = "{n}{t}"', f'club = "{n}{t}"')]
    path = folder / "pauses.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_connected_it_publishes_every_pools_table_and_every_courts_schedule(mosquitto: Any, tmp_path: Path) -> None:
    broker = mosquitto()
    plan = load_plan(tournament(tmp_path, 11, 10))
    with running_service(f"sqlite:///{tmp_path / 'db.sqlite'}", broker.url, plan, group=None):
        heard: queue.Queue[str] = queue.Queue()
        looker = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="looker")
        looker.on_message = lambda _c, _u, m: heard.put(m.topic)
        looker.connect("127.0.0.1", int(broker.url.rsplit(":", 1)[1]))
        looker.subscribe([(f"{p.root(plan.id)}/pool/+/table", 1), (f"{p.root(plan.id)}/court/+/schedule", 1)])
        looker.loop_start()
        expected = {p.pool_topic(plan.id, n) for n in plan.entry_teams} | {
            p.court_topic(plan.id, c, "schedule") for c in plan.courts}
        got: set[str] = set()
        deadline = time.monotonic() + 10
        while got != expected:
            got.add(heard.get(timeout=max(0.1, deadline - time.monotonic())))
        looker.loop_stop()
        looker.disconnect()
