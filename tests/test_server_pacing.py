"""server.pacing: a single result is published at once; a burst without pauses publishes what it changed
rarely, and whole once it has held it long enough."""

from __future__ import annotations

import pytest

from server.pacing import MAX_HOLD, PUBLISH_WITHIN, Pacing


def test_nothing_pending_is_never_due() -> None:
    pacing = Pacing()
    assert not pacing.due(0, quiet=True, held=10.0)
    assert not pacing.held_too_long(0, held=10.0)


def test_a_goal_and_its_result_are_published_once_the_messages_stop() -> None:
    pacing = Pacing(per_item=0.002)
    assert pacing.due(2, quiet=True, held=0.004)
    assert not pacing.due(2, quiet=False, held=0.004)  # more messages came: the burst is not over yet
    assert not pacing.held_too_long(2, held=0.004)  # so a publishing in a pause would give way to them


def test_a_burst_without_pauses_is_held_ten_times_what_publishing_it_takes() -> None:
    # 64 pools and 32 courts at 1.5 ms each: 144 ms of publishing, held up to 1.44 s (capped at MAX_HOLD).
    pacing = Pacing(per_item=0.0015)
    assert pacing.hold(96) == MAX_HOLD
    assert not pacing.due(96, quiet=False, held=0.5)
    assert pacing.due(96, quiet=False, held=MAX_HOLD) and pacing.held_too_long(96, held=MAX_HOLD)
    assert pacing.hold(10) == pytest.approx(0.15)


def test_the_hold_has_a_floor_whatever_publishing_costs() -> None:
    fast = Pacing(per_item=0.0)
    assert not fast.due(3, quiet=False, held=PUBLISH_WITHIN / 2)
    assert fast.due(3, quiet=False, held=PUBLISH_WITHIN)


def test_what_publishing_costs_is_learned_from_the_last_publishings() -> None:
    pacing = Pacing(per_item=0.002)
    pacing.published(100, 0.4)  # 4 ms each this time
    assert pacing.per_item == pytest.approx(0.003)
    pacing.published(0, 1.0)  # nothing published (it gave way at once): nothing learned
    assert pacing.per_item == pytest.approx(0.003)
