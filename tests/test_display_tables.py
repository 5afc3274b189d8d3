"""Pool tables between matches: cut into pages that fit, shown page by page."""

from __future__ import annotations

from dataclasses import replace

import pygame

from display.content import frame_of
from display.scoreboard import Scoreboard
from display.tables import layout_of, pages, row_height
from display.view import BetweenMatches
from rules.standings.table import PoolTable, TableRow
from tests.display_scenes import scene


def pool(name: str, teams: int) -> PoolTable:
    rows = tuple(TableRow(rank=i, team=f"{name} team {i}", played=0, won=0, drawn=0, lost=0, goals_for=0,
                          goals_against=0, goal_difference=0, points=0, reason="") for i in range(1, teams + 1))
    return PoolTable(pool=name, rows=rows, unresolved=())


def test_two_pools_a_page_and_a_long_pool_continues() -> None:
    tables = (pool("A", 4), pool("B", 4), pool("C", 8), pool("D", 3))
    book = pages(tables, per_page=2, rows=6)
    assert [[(i, len(rows)) for i, rows in page] for page in book] == [[(0, 4), (1, 4)], [(2, 6), (2, 2)], [(3, 3)]]
    assert book[1][1][1][0].rank == 7  # the continuation starts where the first part stopped


def test_the_screens_shape_sets_tables_side_by_side_and_row_height() -> None:
    assert layout_of(pygame.Rect(0, 0, 1843, 605))[0] == 2
    assert layout_of(pygame.Rect(0, 0, 700, 605))[0] == 1
    area = pygame.Rect(0, 0, 1843, 605)
    assert row_height(area, [(0, pool("A", 6).rows)]) == 605 // 9
    assert row_height(area, [(0, pool("A", 3).rows)]) > 605 // 9  # short pools get bigger type


def test_the_page_counter_wraps_and_each_page_looks_different() -> None:
    view = scene("water-polo", "between").view  # four pools: two pages at 16:9
    assert view.between is not None
    surface = pygame.Surface((1280, 720))
    board = Scoreboard(surface)
    pictures = []
    for page in range(3):
        board.draw(replace(view, between=replace(view.between, page=page)))
        pictures.append(pygame.image.tobytes(surface, "RGB"))
    assert pictures[0] != pictures[1] and pictures[2] == pictures[0]
    assert frame_of(view).table_titles == ("Pool A", "Pool B", "Pool C", "Pool D")


def test_no_tables_and_no_next_match_still_names_the_court() -> None:
    view = replace(scene("ice-hockey", "between").view, between=BetweenMatches())
    board = Scoreboard(pygame.Surface((1280, 720)))
    board.draw(view)
    assert board.frame is not None and (board.frame.title, board.frame.next_teams) == ("Rink", "")
