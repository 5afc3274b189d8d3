"""The class's top scorers between matches: the page after the pool tables, in the screen's language."""

from __future__ import annotations

from dataclasses import replace

import pygame

from display.content import frame_of
from display.scoreboard import Scoreboard
from tests.display_scenes import scene, top_scorers_of


def test_the_scorers_are_the_page_after_the_tables_and_the_counter_wraps_round_them_all() -> None:
    view = scene("water-polo", "between").view  # four pools: two pages of tables at 16:9
    assert view.between is not None
    between = replace(view.between, scorers=top_scorers_of("water-polo"))
    board = Scoreboard(pygame.Surface((1280, 720)))
    pictures = []
    for page in range(4):
        board.draw(replace(view, between=replace(between, page=page)))
        pictures.append(pygame.image.tobytes(board.surface, "RGB"))
    tables_only = []
    for page in range(2):
        board.draw(replace(view, between=replace(view.between, page=page)))
        tables_only.append(pygame.image.tobytes(board.surface, "RGB"))
    assert len({pictures[0], pictures[1], pictures[2]}) == 3 and pictures[3] == pictures[0]
    assert pictures[2] not in tables_only  # the third page is the scorers', after the two of tables
    # The tables' pages are as they were but for their page line ("Page 1 of 3", not "of 2"): the top half is.
    half = 1280 * 3 * 360
    assert [p[:half] for p in pictures[:2]] == [p[:half] for p in tables_only]


def test_the_rows_are_place_player_team_goals_in_the_screen_s_words() -> None:
    view = scene("water-polo", "between").view
    assert view.between is not None
    scorers = top_scorers_of("water-polo")
    frame = frame_of(replace(view, between=replace(view.between, scorers=scorers)))
    assert frame.scorers == tuple((f"{r.rank}", r.label, r.team, f"{r.goals}") for r in scorers.rows)
    assert frame.scorers and frame.scorers[0][0] == "1"
    sv = frame_of(replace(view, language="sv", between=replace(view.between, scorers=scorers)))
    assert (sv.scorers_title, sv.scorers_heads) == ("Skytteliga", ("Spelare", "Lag", "Mål"))
