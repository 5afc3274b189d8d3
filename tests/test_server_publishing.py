"""The service's publishing of tables and schedules: in a pause of a burst it gives way to waiting messages
and goes on later, with nothing lost and no table published twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.plan import load_plan
from server.publishing import SCHEDULES_AT_ONCE, TABLES_AT_ONCE
from server.service import Service
from server.store import Store


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


def test_a_publishing_that_gives_way_hands_back_the_rest_and_publishes_it_next_time(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite'}", load_plan(tournament(tmp_path, TABLES_AT_ONCE + 3,
                                                                               SCHEDULES_AT_ONCE + 2)))
    service = Service(store, "mqtt://127.0.0.1:1", group=None)  # never connected: publishing only queues
    told: list[tuple[set[str], set[str]]] = []
    service.listeners.append(lambda pools, courts: told.append((set(pools), set(courts))))
    published: list[tuple[str, str]] = []  # (pool or court, what) as the service hands them to paho
    publish = service.client.publish

    def spied(topic: str, *a: Any, **kw: Any) -> Any:
        *_, name, what = topic.split("/")
        published.append((name, what))
        return publish(topic, *a, **kw)

    service.client.publish = spied  # type: ignore[method-assign]

    def since(mark: int, what: str) -> set[str]:
        return {name for name, w in published[mark:] if w == what}

    pools, courts = set(store.plan.entry_teams), set(store.plan.courts)
    # Messages are waiting from the start: the first group of tables goes out, then it gives way.
    left_pools, left_courts = service.publishing.changes(pools, courts, interrupted=lambda: True)
    assert len(left_pools) == 3 and left_courts == courts
    assert since(0, "table") == pools - left_pools and since(0, "schedule") == set()
    # The next pause: the rest of the tables (one group), and the schedules, which give way between two groups
    # of courts.
    mark, rest = len(published), left_pools
    left_pools, left_courts = service.publishing.changes(left_pools, left_courts, interrupted=lambda: True)
    assert left_pools == set() and len(left_courts) == 2
    assert since(mark, "table") == rest and len(since(mark, "schedule")) == SCHEDULES_AT_ONCE
    # Held too long (or the loop stopping): all of what is left, whatever is waiting.
    mark = len(published)
    assert service.publishing.changes(left_pools, left_courts) == (set(), set())
    assert since(mark, "schedule") == left_courts and since(mark, "table") == set()
    # What is published is made of what is stored: the pages were told when it was stored, not now.
    assert told == []
    store.close()


def test_on_connecting_again_the_pages_read_everything_again(tmp_path: Path) -> None:
    """While this instance was away from the broker its watch heard nothing, and another instance may have stored
    results: once connected again it publishes every table and schedule, and tells its pages to read all again."""
    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite'}", load_plan(tournament(tmp_path, 2, 2)))
    service = Service(store, "mqtt://127.0.0.1:1", group="courtside")  # never connected: its publishing only queues
    told: list[tuple[set[str], set[str]]] = []
    service.listeners.append(lambda pools, courts: told.append((set(pools), set(courts))))
    service._connected("Success")
    assert told == [(set(), set())]  # no court named: everything
    store.close()
