"""The scoreboard drawn on SDL's dummy video driver: every phase of every sport, checked by picture region."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from display.layout import layout
from display.scoreboard import Scoreboard, mode_of
from display.view import Link, Notice, ScoreboardView, TeamLook
from rules.match import Goal, Match
from tests.display_scenes import scene, scenes, with_not_eligible, with_notices

SIZES = [(1280, 720), (1920, 1080)]
ALL = [(s.sport, s.phase) for s in scenes()]


@pytest.fixture(scope="module")
def screen() -> Iterator[pygame.Surface]:
    pygame.display.init()
    surface = pygame.display.set_mode((1920, 1080))  # the dummy driver: a real display surface, no window
    yield surface
    pygame.display.quit()


def differing(a: pygame.Surface, b: pygame.Surface, rect: pygame.Rect | None = None) -> int:
    """How many pixels differ between two pictures (inside ``rect`` when given)."""
    area = rect or a.get_rect()
    sa, sb = a.subsurface(area), b.subsurface(area)
    mask = pygame.mask.from_threshold(sa, (0, 0, 0), (1, 1, 1, 255), sb, 1)
    return area.width * area.height - mask.count()


def outside(a: pygame.Surface, b: pygame.Surface, rects: list[pygame.Rect]) -> int:
    """Pixels that differ outside every rectangle of ``rects``."""
    x = a.copy()
    y = b.copy()
    for r in rects:
        x.fill((0, 0, 0), r)
        y.fill((0, 0, 0), r)
    return differing(x, y)


def test_every_phase_of_every_sport_draws_a_full_frame(screen: pygame.Surface) -> None:
    seen = set()
    for sport, phase in ALL:
        board = Scoreboard(screen)
        view = scene(sport, phase).view
        changed = board.draw(view)
        assert changed == [screen.get_rect()], (sport, phase)
        assert screen.get_size() == (1920, 1080)
        # Something readable is on it: plenty of non-background pixels, and the score where a match is on.
        ink = pygame.mask.from_threshold(screen, (0, 0, 0), (8, 8, 8, 255)).count()
        assert ink < 1920 * 1080 * 0.9, (sport, phase)
        assert board.frame is not None
        seen.add((sport, board.frame.mode))
        if view.state is not None:
            assert board.frame.home_score != "" and board.frame.away_score != ""
    modes = {m for _, m in seen}
    assert modes == {"play", "interval", "timeout", "shootout", "final", "final_plain", "between"}


@pytest.mark.parametrize("size", SIZES)
def test_a_clock_tick_repaints_only_the_clock(screen: pygame.Surface, size: tuple[int, int]) -> None:
    s = scene("indoor-hockey", "play")
    assert s.view.state is not None
    surface = pygame.Surface(size)
    board = Scoreboard(surface)
    board.draw(s.view)
    before = surface.copy()
    renders = board.type.renders
    later = replace(s.view, state=replace(s.view.state, clock_ms=s.view.state.clock_ms - 1_000))
    changed = board.draw(later)
    clock = layout("play", size)["clock"]
    assert changed == [clock]
    assert differing(before, surface, clock) > 0
    assert outside(before, surface, [clock]) == 0
    assert board.type.renders - renders <= 2  # at most the glyphs not yet made, never a whole line
    assert board.draw(later) == []  # the same frame again: nothing to do


def test_a_goal_repaints_the_score_and_nothing_but_what_it_changes(screen: pygame.Surface) -> None:
    s = scene("ice-hockey", "play")
    assert s.view.state is not None
    board = Scoreboard(screen)
    board.draw(s.view)
    before = screen.copy()
    state = s.view.state
    changed = board.draw(replace(s.view, state=replace(state, away_goals=state.away_goals + 1)))
    rects = layout("play", screen.get_size())
    assert changed == [rects["away_score"]]
    assert differing(before, screen, rects["away_score"]) > 0
    assert outside(before, screen, changed) == 0


def test_a_power_play_goal_repaints_score_penalties_and_strength_not_the_names(screen: pygame.Surface) -> None:
    """A goal against a short-handed team ends its minor: the engine's new state changes exactly those parts."""
    from rules.match import ClockStarted, PenaltyAwarded
    from rules.ruleset import load_ruleset

    match = Match(load_ruleset("ice-hockey"), stage="round_robin")
    match.apply(ClockStarted(at=0))
    match.apply(PenaltyAwarded(at=10_000, team="away", kind="minor", player="4"))
    board = Scoreboard(screen)
    view = ScoreboardView(match.state_at(20_000), match.ruleset)
    board.draw(view)
    assert board.frame is not None and board.frame.centre == "5 v 4"
    before = screen.copy()
    match.apply(Goal(at=20_000, team="home", player="9"))
    changed = board.draw(replace(view, state=match.state_at(20_000)))
    rects = layout("play", screen.get_size())
    names = {name for name, r in rects.items() if r in changed}
    assert {"home_score", "away_penalties", "centre"} <= names
    assert not names & {"away_score", "home_name", "away_name", "title", "home_penalties"}
    assert outside(before, screen, changed) == 0
    assert board.frame.home_score == "1" and board.frame.away_penalties == () and board.frame.centre == "5 v 5"


def test_notices_and_the_offline_mark_leave_the_score_and_clock_alone(screen: pygame.Surface) -> None:
    s = scene("water-polo", "play")
    board = Scoreboard(screen)
    board.draw(s.view)
    before = screen.copy()
    changed = board.draw(with_notices(s.view))
    rects = layout(mode_of(board.frame), screen.get_size())  # type: ignore[arg-type]
    assert sorted(map(tuple, changed)) == sorted(map(tuple, (rects["notice"], rects["link"])))
    for part in ("home_score", "away_score", "clock", "home_name", "away_name"):
        assert differing(before, screen, rects[part]) == 0, part
    assert board.frame is not None and board.frame.link == "Offline · 12 to send"
    recovered = replace(s.view, notices=(Notice("recovered", down_ms=125_000),), link=Link(online=True))
    board.draw(recovered)
    assert board.frame is not None and board.frame.notice == (
        "recovered", "Recovered after a restart: down for 2 min. Check the clock.")
    assert board.frame.link == ""


def ink_at_the_edges(surface: pygame.Surface, margin: int) -> int:
    """Pixels within ``margin`` of the left or right edge that differ from the edge's own colour on
    their row: text or a mark there touches the edge. Bands that run to the edge (the top bar, the
    notice band) are one colour across the strip, so they pass."""
    w, h = surface.get_size()
    found = 0
    for edge, strip in ((0, pygame.Rect(0, 0, margin, h)), (w - 1, pygame.Rect(w - margin, 0, margin, h))):
        column = surface.subsurface(pygame.Rect(edge, 0, 1, h))
        expected = pygame.transform.scale(column, (margin, h))  # the edge's colour repeated along each row
        same = pygame.mask.from_threshold(surface.subsurface(strip), (0, 0, 0), (1, 1, 1, 255), expected, 1)
        found += margin * h - same.count()
    return found


@pytest.mark.parametrize(("sport", "phase"), ALL)
def test_nothing_is_drawn_outside_the_screen(sport: str, phase: str) -> None:
    """The board drawn on a window inside a bigger picture leaves the picture's margin untouched, and
    keeps every word and mark a margin (1% of the width) from the screen's left and right edges,
    with a refusal shown and the link offline too (the corner mark "Offline · 12 to send")."""
    for view in (scene(sport, phase).view, with_notices(scene(sport, phase).view)):
        big = pygame.Surface((1280 + 40, 720 + 40))
        big.fill((255, 0, 255))
        inner = big.subsurface(pygame.Rect(20, 20, 1280, 720))
        Scoreboard(inner).draw(view)
        margin = pygame.mask.from_threshold(big, (255, 0, 255), (1, 1, 1, 255)).count()
        assert margin == big.get_width() * big.get_height() - 1280 * 720
        assert ink_at_the_edges(inner, 1280 // 100) == 0, "a word or mark within 1% of the left or right edge"


def test_a_resize_repaints_everything_at_the_new_size() -> None:
    s = scene("youth-football", "play")
    board = Scoreboard(pygame.Surface((1280, 720)))
    board.draw(s.view)
    board.surface = pygame.Surface((3840, 2160))
    assert board.draw(s.view) == [pygame.Rect(0, 0, 3840, 2160)]
    assert board.draw(s.view) == []


@pytest.mark.parametrize(("sport", "first", "then"), [
    ("ice-hockey", "play", "last_minute"),  # 7:18 -> 43.3: a narrower clock, penalties gone, score changed
    ("indoor-hockey", "play", "timeout"),
    ("indoor-hockey", "shootout", "final_shootout"),
    ("water-polo", "pre_match", "play"),
    ("youth-football", "final", "between"),
])
def test_a_repainted_frame_equals_the_same_frame_drawn_afresh(sport: str, first: str, then: str) -> None:
    """Dirty parts leave no trace of the previous frame: the picture is what a fresh screen would show."""
    a, b = scene(sport, first).view, scene(sport, then).view
    incremental, fresh = pygame.Surface((1280, 720)), pygame.Surface((1280, 720))
    board = Scoreboard(incremental)
    board.draw(a)
    board.draw(b)
    Scoreboard(fresh).draw(b)
    assert differing(incremental, fresh) == 0
    # And within one mode, clock values of different widths: 10:00 then 9.9 then 1:05.
    assert a.state is not None
    for clock, tenths in ((600_000, False), (9_900, True), (65_000, False)):
        view = replace(a, state=replace(a.state, clock_ms=clock, tenths=tenths))
        board.draw(view)
        Scoreboard(fresh).draw(view)
        assert differing(incremental, fresh) == 0, clock


def example_team_names() -> list[str]:
    from rules.tournament.cup import read_cup_file

    root = Path(__file__).resolve().parents[1] / "rules" / "examples"
    paths = [p for p in sorted(root.glob("*.toml")) if not p.name.endswith("-rules.toml")]  # a cup's ruleset file
    return [t.name for path in paths for c in read_cup_file(path) for t in c.tournament.teams]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_the_longest_example_team_name_fits_in_full(size: tuple[int, int]) -> None:
    names = example_team_names()
    board = Scoreboard(pygame.Surface(size))
    rect = layout("play", size)["home_name"]
    longest = max(names, key=lambda n: board.type.font("condensed", 100).size(n)[0])
    px = board.type.fit("condensed", longest, rect.width, rect.height)
    width, height = board.type.font("condensed", px).size(longest)
    assert width <= rect.width and height <= rect.height + 1
    assert px >= rect.height / 1.17 * 0.6  # large enough that the full name is shown, not the short one
    s = scene("water-polo", "play")
    view = replace(s.view, home=TeamLook(longest, short="XXX"), away=TeamLook(longest, short="YYY"))
    board.draw(view)
    before = board.surface.copy()
    board.draw(replace(view, home=TeamLook(longest, short="ZZZ")))  # the short name is not the one drawn
    assert differing(before, board.surface) == 0


@pytest.mark.parametrize("sport", ["youth-football", "water-polo", "ice-hockey"])
def test_who_may_not_play_is_drawn_under_each_team_until_the_clock_starts(screen: pygame.Surface,
                                                                          sport: str) -> None:
    board = Scoreboard(screen)
    view = with_not_eligible(scene(sport, "pre_match").view)
    board.draw(view)
    assert board.frame is not None and mode_of(board.frame) == "pre_match"
    rects = layout("pre_match", screen.get_size())
    blank = screen.copy()
    blank.fill((0, 0, 0))
    for side in ("home", "away"):  # ink in each team's list, on its own side of the screen
        assert differing(screen, blank, rects[f"{side}_not_eligible"]) > 2000, (sport, side)
    assert rects["home_not_eligible"].right <= screen.get_width() // 2 <= rects["away_not_eligible"].left
    # The clock starts: the whole screen becomes the play screen, the list is gone.
    playing = with_not_eligible(scene(sport, "play").view)
    assert board.draw(playing) == [screen.get_rect()]
    fresh = screen.copy()
    Scoreboard(fresh).draw(scene(sport, "play").view)
    assert differing(screen, fresh) == 0
