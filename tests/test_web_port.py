"""The change hub wakes every waiting page once per change, from any thread."""

from __future__ import annotations

import asyncio
import threading

from server.web.port import ChangeHub


def test_waiters_wake_on_a_change_from_another_thread() -> None:
    hub = ChangeHub()

    async def scenario() -> list[int]:
        waiters = [asyncio.create_task(hub.wait(0)) for _ in range(50)]
        await asyncio.sleep(0)
        assert not any(w.done() for w in waiters)
        threading.Thread(target=hub.notify).start()
        return await asyncio.gather(*waiters)

    assert asyncio.run(scenario()) == [1] * 50


def test_a_waiter_behind_the_version_returns_at_once() -> None:
    hub = ChangeHub()
    hub.notify()
    hub.notify()
    assert asyncio.run(hub.wait(0)) == 2


def test_a_cancelled_waiter_does_not_cancel_the_others() -> None:
    hub = ChangeHub()

    async def scenario() -> int:
        a = asyncio.create_task(hub.wait(0))
        b = asyncio.create_task(hub.wait(0))
        await asyncio.sleep(0)
        a.cancel()
        hub.notify()
        return await b

    assert asyncio.run(scenario()) == 1


def test_a_change_told_at_once_is_told_apart_from_the_others() -> None:
    hub = ChangeHub()
    hub.notify()
    assert not hub.told_at_once(0)
    hub.notify(at_once=True)
    hub.notify()
    assert hub.told_at_once(0) and hub.told_at_once(1) and not hub.told_at_once(2)


def test_a_waiter_for_a_change_told_at_once_sleeps_through_the_others() -> None:
    hub = ChangeHub()

    async def scenario() -> list[int]:
        woken: list[int] = []

        async def waiter() -> None:
            await hub.wait_at_once(0)
            woken.append(hub.version)

        task = asyncio.create_task(waiter())
        for _ in range(3):  # live states: the waiter is woken by each and goes on waiting
            hub.notify()
            await asyncio.sleep(0)
            await asyncio.sleep(0)
        assert not task.done()
        hub.notify(at_once=True)
        await task
        return woken

    assert asyncio.run(scenario()) == [4]
