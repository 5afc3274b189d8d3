"""server.web.fanout: a change rendered once per region and handed only to the pages that show it,
over the sample tournament day on the service (a table's live state, a result)."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from server.web.accounts import Accounts
from server.web.fanout import Fanout, Page, digest
from server.web.site import Site
from tests.web_day import SampleDay, sample_day


async def woken(*pages: Page) -> None:
    async with asyncio.timeout(10):
        for page in pages:
            await page.wake.wait()


def test_a_change_is_rendered_once_and_reaches_only_the_pages_that_show_it() -> None:
    with sample_day() as day:
        _rendered_once(day)


def _rendered_once(day: SampleDay) -> None:
    backend = day.backend
    site = Site(backend, Accounts.at("sqlite://"), lang=None, secure_cookies=False)
    renders: Counter[str] = Counter()
    plain = site.region

    def counted(view: Any, name: str) -> str:
        if (view.data.version, name) not in site._regions:
            renders[name] += 1
        return plain(view, name)

    site.region = counted  # type: ignore[method-assign]
    following = min((m for m in backend.data().schedule.matches if m.number not in backend.data().results),
                    key=lambda m: m.number)
    court, pool = following.court, following.stage
    other_pool = next(p for p in site.view().pools if p != pool)

    async def run() -> None:
        fanout = Fanout(site, backend.changes)
        view = site.view()  # each page opens on what the current snapshot shows, as the stream does
        shown = {name: digest(site.region(view, name)) for name in (f"court/{court}", f"pool/{other_pool}")}
        watching = [fanout.open([f"court/{court}"], shown) for _ in range(50)]
        table = fanout.open([f"pool/{other_pool}"], shown)
        await asyncio.sleep(0.1)  # the fan-out's task waits for the next change
        before = dict(renders)
        await asyncio.to_thread(day.live, following.number, 3, 1, running=False)  # as the table sends it
        await woken(*watching)
        await asyncio.sleep(0.2)
        # Fifty pages of the court, one rendering of its region; the other pool's page neither woke nor got it.
        assert renders[f"court/{court}"] - before.get(f"court/{court}", 0) == 1
        html = site.region(site.view(), f"court/{court}")
        for page in watching:
            assert list(page.pending) == [f"court/{court}"] and page.pending[f"court/{court}"][0] == digest(html)
        assert not table.wake.is_set() and table.pending == {}
        # A page that has not written its update yet keeps only the newest of each region.
        await asyncio.to_thread(day.live, following.number, 4, 1, running=False)
        await asyncio.sleep(0.5)
        newest = site.region(site.view(), f"court/{court}")
        assert newest != html
        taken = watching[0].take()
        assert list(taken) == [f"court/{court}"] and taken[f"court/{court}"][0] == digest(newest)
        # A result in the other pool reaches its page; the court's pages, unchanged, get nothing.
        for p in watching:
            p.take()
        m = next(m for m in backend.data().schedule.matches if m.stage == other_pool
                 and m.number not in backend.data().results)
        await asyncio.to_thread(day.play, m.number, 5, 0)
        await woken(table)
        await asyncio.sleep(0.2)
        assert "5–0" in table.take()[f"pool/{other_pool}"][1].decode()
        assert all(p.pending == {} for p in watching)
        for page in [*watching, table]:
            fanout.close(page)
        assert fanout.pages == {}

    asyncio.run(run())

