"""Whatever the state holds, a frame draws: odd scores, long clocks, many penalties, long numbers, late periods."""

from __future__ import annotations

from dataclasses import replace

import pygame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from display.scoreboard import Scoreboard
from rules.match import PenaltyView
from tests.display_scenes import scene

BASES = {(sport, phase): scene(sport, phase).view for sport, phase in [
    ("ice-hockey", "play"), ("water-polo", "play"), ("indoor-hockey", "shootout"), ("youth-football", "final"),
    ("indoor-hockey", "interval"), ("indoor-hockey", "timeout")]}

penalties = st.lists(st.builds(
    PenaltyView, seq=st.integers(1, 999), team=st.sampled_from(["home", "away"]),
    kind=st.sampled_from(["minor", "major", "exclusion", "green", "nonsense"]),
    player=st.one_of(st.none(), st.text("0123456789", min_size=1, max_size=6)),
    remaining_ms=st.one_of(st.none(), st.integers(0, 40 * 60_000)), waiting=st.booleans(),
    reduces_strength=st.booleans(), coincidental=st.booleans()), max_size=9)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(sorted(BASES)), goals=st.tuples(st.integers(0, 999), st.integers(0, 999)),
       clock=st.integers(0, 10**7), tenths=st.booleans(), period=st.integers(1, 12), penalties=penalties,
       on_field=st.one_of(st.none(), st.integers(0, 30)), timeouts=st.integers(0, 10),
       name=st.text(min_size=0, max_size=80))
def test_any_state_draws_inside_the_screen(base: tuple[str, str], goals: tuple[int, int], clock: int,
                                           tenths: bool, period: int, penalties: list[PenaltyView],
                                           on_field: int | None, timeouts: int, name: str) -> None:
    view = BASES[base]
    assert view.state is not None
    state = replace(view.state, home_goals=goals[0], away_goals=goals[1], clock_ms=clock, tenths=tenths,
                    period=period, penalties=tuple(penalties), home_on_field=on_field, away_on_field=on_field,
                    home_timeouts_left=timeouts)
    big = pygame.Surface((680, 400))
    big.fill((255, 0, 255))
    inner = big.subsurface(pygame.Rect(20, 20, 640, 360))
    board = Scoreboard(inner)
    board.draw(replace(view, state=state, home=replace(view.home, name=name)))
    assert pygame.mask.from_threshold(big, (255, 0, 255), (1, 1, 1, 255)).count() == 680 * 400 - 640 * 360
    assert board.draw(replace(view, state=state, home=replace(view.home, name=name))) == []
