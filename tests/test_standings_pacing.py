"""standings.pacing: a single result is published at once; a burst publishes what it changed rarely."""

from __future__ import annotations

import pytest

from standings.pacing import MAX_HOLD, MAX_QUIET, PUBLISH_WITHIN, QUIET, Pacing


def test_nothing_pending_is_never_due() -> None:
    assert not Pacing().due(0, quiet=True, held=10.0)


def test_a_goal_and_its_result_are_published_once_the_messages_stop() -> None:
    # One pool's table and one court's schedule: cheap, so the loop waits only QUIET for more.
    pacing = Pacing(per_item=0.002)
    assert pacing.quiet_after(2) == QUIET
    assert pacing.due(2, quiet=True, held=0.004)
    assert not pacing.due(2, quiet=False, held=0.004)  # more messages came: the burst is not over yet


def test_a_burst_over_many_pools_waits_longer_for_its_end_and_is_held_longer() -> None:
    # 64 pools and 32 courts at 1.5 ms each: a 7 ms pause is no end of the burst, and while the messages
    # keep coming the tables wait up to ten times what publishing them takes (so it takes a tenth of the time).
    pacing = Pacing(per_item=0.0015)
    assert pacing.quiet_after(96) == pytest.approx(0.072)
    assert not pacing.due(96, quiet=False, held=0.5)
    assert pacing.due(96, quiet=False, held=1.0)
    assert pacing.due(96, quiet=True, held=0.01)


def test_the_waits_have_bounds_whatever_publishing_costs() -> None:
    slow = Pacing(per_item=1.0)
    assert slow.quiet_after(500) == MAX_QUIET
    assert slow.due(500, quiet=False, held=MAX_HOLD)  # the standings follow within a second, however slow
    fast = Pacing(per_item=0.0)
    assert not fast.due(3, quiet=False, held=PUBLISH_WITHIN / 2)
    assert fast.due(3, quiet=False, held=PUBLISH_WITHIN)


def test_what_publishing_costs_is_learned_from_the_last_publishings() -> None:
    pacing = Pacing(per_item=0.002)
    pacing.published(100, 0.4)  # 4 ms each this time
    assert pacing.per_item == pytest.approx(0.003)
    pacing.published(0, 1.0)  # nothing published: nothing learned
    assert pacing.per_item == pytest.approx(0.003)
