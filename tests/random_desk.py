"""Desk work as a day brings it, drawn at random: the organisers' side of the tests that play a day of corrections
(tests/test_web_view.py, tests/test_web_match_rows.py) through the real service's desk commands."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from rules import CourtsideError, Decision
from rules.standings import MatchResult
from server.desk_commands import CorrectResult, DeskCommand, MoveMatch, RecordDecision
from server.web.view import View


def random_desk_day(backend: Any, rng: random.Random, steps: int, *, moves: bool = False,
                    after: Any = None) -> None:
    """``steps`` desk commands drawn from ``rng``: results entered as matches get their teams, earlier ones
    corrected (confirmed, whatever they send elsewhere), walk-overs, the ties only a decision breaks decided, and
    with ``moves`` matches not played yet moved to another court and time. A refusal must say why and change
    nothing; it is skipped. ``after(view)``, if given, is called with the view before each step and at the end."""
    for _ in range(steps):
        view = View(backend.data())
        if after is not None:
            after(view)
        command = _command(view, rng, moves)
        if command is None:
            return
        try:
            backend.submit(command)
        except CourtsideError as err:
            assert str(err), "a refusal says why"
    if after is not None:
        after(View(backend.data()))


def _command(view: View, rng: random.Random, moves: bool) -> DeskCommand | None:
    waiting = [m for m in view.matches if m.home_known and m.away_known and m.recorded is None]
    played = [m for m in view.matches if m.recorded is not None]
    ties = [u for u in view.unresolved() if not u.data and view.pool_played(u.pool)[0] == view.pool_played(
        u.pool)[1]]
    draw = rng.random()
    if moves and waiting and draw < 0.1:
        m = rng.choice(waiting)
        return MoveMatch(who="anna", why="court free", number=m.number, court=rng.choice(view.courts),
                         start=m.start + timedelta(minutes=rng.choice((-30, 15, 45))))
    if ties and draw < 0.4:
        tie = rng.choice(ties)
        order = list(tie.teams)
        rng.shuffle(order)
        method = "penalty_competition" if "penalty" in tie.needs and "lots" not in tie.needs else "lots"
        return RecordDecision(who="anna", why="drawn", decision=Decision(pool=tie.pool, method=method,
                                                                          order=tuple(order)))
    if (played and draw < 0.55) or (not waiting and played and draw < 0.7):
        m = rng.choice(played)
        return CorrectResult(who="anna", why="protest upheld", number=m.number, confirmed=True,
                             result=score(rng, m.stage, m.home, m.away, m.is_pool))
    if waiting and draw < 0.62:
        m = rng.choice(waiting)
        return CorrectResult(who="anna", why="no show", number=m.number, confirmed=True, result=MatchResult(
            pool=m.stage, home=m.home, away=m.away, home_goals=0, away_goals=0, outcome="walkover",
            winner=rng.choice((m.home, m.away))))
    if waiting:
        m = min(waiting, key=lambda x: x.start)
        return CorrectResult(who="anna", why="score sheet", number=m.number, confirmed=True,
                             result=score(rng, m.stage, m.home, m.away, m.is_pool))
    return None


def score(rng: random.Random, stage: str, home: str, away: str, level_ok: bool) -> MatchResult:
    h, a = rng.randint(0, 4), rng.randint(0, 4)
    if not level_ok and h == a:
        h += 1  # a knock-out match has a winner in regular time here
    return MatchResult(pool=stage, home=home, away=away, home_goals=h, away_goals=a)
