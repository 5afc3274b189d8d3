"""The views kept between snapshots belong to one store: two stores in one process (two tournaments, a test's
fresh service) never hand each other a view."""

from __future__ import annotations

from server import queries
from server.store import Store


def test_each_store_keeps_its_own_views(store: Store) -> None:
    other = Store.open(str(store.engine.url), store.plan)
    try:
        with store.reading() as s:
            views = queries.schedule(store, s)
        assert store.kept_views.fixtures and other.kept_views.fixtures == {}
        assert other.kept_views.every is None and store.kept_views.every is not None
        with other.reading() as s:
            again = queries.schedule(other, s)
        assert [v.match_id for v in again] == [v.match_id for v in views]
        assert all(a is not v for a, v in zip(again, views, strict=True))  # made from its own reads
    finally:
        other.close()
