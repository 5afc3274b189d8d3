"""A pool page in Swedish or Slovak gives every place's reason, and a tie's need, in that language;
in English the reasons read exactly as `courtside standings` prints them."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from html import unescape

import pytest
from starlette.testclient import TestClient

from server.web import create_app
from server.web.service_backend import ServiceBackend
from server.web.view import View
from tests.web_day import sample_day

ENGLISH = ("ahead on", "behind on", "level on", "level with", "needs", " vs ", "waiting for", "drawing of lots")


@pytest.fixture(scope="module")
def backend() -> Iterator[ServiceBackend]:
    with sample_day() as day:
        yield day.backend


@functools.cache
def played_out(lang: str) -> dict[str, str]:
    """The pool pages once every pool match is played (pool C's GAIS and Djurgården still level)."""
    with sample_day(played=18) as day:
        return pool_pages(day.backend, lang)


def reasons_on(page: str) -> list[str]:
    return [unescape(r) for r in re.findall(r'<span class="why">([^<]*)</span>', page)]


def pool_pages(backend: ServiceBackend, lang: str) -> dict[str, str]:
    progress = View(backend.data()).progress
    assert progress is not None
    pools = [p for p, state in progress.pools.items() if state.table is not None]
    with TestClient(create_app(backend, lang=lang, secure_cookies=False)) as client:
        return {p: client.get(f"/pool/{p}").text for p in pools}


def test_a_swedish_pool_page_gives_its_reasons_in_swedish(backend: ServiceBackend) -> None:
    pages = pool_pages(backend, "sv")
    reasons = [r for page in pages.values() for r in reasons_on(page)]
    assert reasons and all(r for r in reasons)
    text = " ".join(reasons)
    assert "före på poäng" in text and "sist; efter på" in text and "lika med" in text
    for word in ENGLISH:
        assert word not in text, word
    # Pool C has two matches to play at midday: its level teams wait for no decision yet, whatever the
    # standings say of the table as it stands (its own matches may still part them).
    assert "kräver" not in text
    assert '<ul class="notes">' not in " ".join(pages.values())
    pool_c = played_out("sv")["C"]
    notes = re.findall(r'<ul class="notes">(.*?)</ul>', pool_c, re.S)
    # Said to parents: what it waits for, not the standings' instruction to the organiser.
    assert unescape(" ".join(notes)) == "<li>Djurgården P14, GAIS P14: väntar på lottning</li>"
    level = [r for r in reasons_on(pool_c) if r.startswith("lika med")]
    assert len(level) == 2 and all(r.endswith("; kräver lottning") for r in level), level


def test_a_slovak_pool_page_gives_its_reasons_in_slovak(backend: ServiceBackend) -> None:
    text = " ".join(r for page in pool_pages(backend, "sk").values() for r in reasons_on(page))
    assert "pred na body" in text and "rovnako s" in text and "treba" not in text
    for word in ENGLISH:
        assert word not in text, word
    pool_c = " ".join(reasons_on(played_out("sk")["C"]))
    assert "; treba žreb" in pool_c and "(" not in pool_c


def _as_the_public_reads(reason: str, complete: bool) -> str:
    """The standings' own reason for a place, as the pool page gives it (see server.web.words.reason_in)."""
    if "; needs " not in reason:
        return reason
    if not complete:
        return reason.split("; needs ")[0]
    return re.sub(r" \(give the order as a decision with method '[a-z_]+'\)$", "", reason)


@pytest.mark.parametrize("played", [None, 18])
def test_an_english_pool_page_gives_the_standings_own_words_but_the_organisers(played: int | None) -> None:
    with sample_day(12 if played is None else played) as day:
        b = day.backend
        progress = View(b.data()).progress
        assert progress is not None
        seen_level = False
        for pool, page in pool_pages(b, "en").items():
            state = progress.pools[pool]
            assert state.table is not None
            shown = reasons_on(page)
            assert shown == [_as_the_public_reads(row.reason, state.complete) for row in state.table.rows]
            seen_level |= any(r.startswith("level with") for r in shown)
            assert not any("give the order" in r for r in shown)
        assert seen_level  # the sample has a tie: the rewording is tried, not skipped


def test_the_final_ranking_says_what_an_open_place_waits_for_in_the_pages_language(backend: ServiceBackend) -> None:
    pages = {}
    for lang in ("sv", "sk", "en"):
        with TestClient(create_app(backend, lang=lang, secure_cookies=False)) as client:
            pages[lang] = " ".join(reasons_on(client.get("/ranking").text))
    assert "väntar på resultatet i F" in pages["sv"] and "the result of" not in pages["sv"]
    assert "förlorare QF1 (resultatet i QF1)" in pages["sv"] and "waiting for" not in pages["sv"]
    assert "čaká na výsledok zápasu F" in pages["sk"]
    assert "waiting for the result of F" in pages["en"]
