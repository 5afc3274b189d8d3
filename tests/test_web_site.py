"""server.web.site: which regions a snapshot after live states alone may show differently, as the live pages'
fan-out asks in each round (the rendering itself is the pages' tests')."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from server.web import create_app
from server.web.view import View
from tests.web_day import sample_day, wait_until


def test_after_a_live_state_alone_only_its_courts_regions_may_differ_and_after_a_result_or_a_lock_every_one() -> None:
    with sample_day(12) as day:
        site = create_app(day.backend, lang="en", secure_cookies=False).state.site
        before = site.view()
        live = next(m for m in before.matches if m.live)
        other = next(c for c in before.courts if c != live.court)
        day.live(live.number, 3, 1)
        after = wait_until(lambda: (v := site.view()).data.live.get(live.court) != before.data.live.get(
            live.court) and v)
        may_differ = site.may_differ(before, after)
        assert may_differ(f"court/{live.court}") and may_differ(f"courtcard/{live.court}")
        assert not may_differ(f"court/{other}") and not may_differ(f"courtcard/{other}")
        assert not any(may_differ(name) for name in (f"pool/{live.stage}", f"courtmatches/{live.court}", "classes",
                                                     "courts"))
        # What a region's own part is not compared on is looked at every time: a match's page (its timeline follows
        # the events), the schedule.
        assert may_differ(f"match/{live.number}") and may_differ("schedule")
        assert site.may_differ(after, after)("match/1") and not site.may_differ(after, after)(f"court/{live.court}")

        # A match's protest window closing between two snapshots changes its pool's and court's lists.
        played = next(m for m in after.matches if m.locked_at is not None)
        assert played.locked_at is not None
        just_before, just_after = (View(replace(after.data, version=after.data.version + n, now=played.locked_at + d))
                                   for n, d in ((1, -timedelta(seconds=1)), (2, timedelta(seconds=1))))
        assert just_after.matches is just_before.matches  # the same rows: only the instant moved
        assert site.may_differ(just_before, just_after)(f"pool/{played.stage}")
        assert not site.may_differ(just_before, just_before)(f"pool/{played.stage}")

        day.play(13, 1, 0)  # a result: the pools and the lists may all differ
        result = wait_until(lambda: (v := site.view()).by_number[13].recorded is not None and v)
        assert site.may_differ(after, result)(f"pool/{result.by_number[13].stage}")
        assert site.may_differ(after, result)("classes")
