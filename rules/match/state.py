"""The snapshot a display, the MQTT link or ``courtside replay`` reads: :class:`MatchState`."""

from __future__ import annotations

from typing import Any, Literal

from rules.errors import StateDataError
from rules.match import timeouts
from rules.match.cards import Card
from rules.match.clock import elapsed
from rules.match.events import Side, other
from rules.match.fold import Context, Core, Phase
from rules.match.outcome import MatchOutcome
from rules.match.penalties import Penalty, short_count
from rules.match.shootout import Attempt, tally
from rules.record import Record
from rules.schema import build


class PenaltyView(Record):
    seq: int
    team: Side
    kind: str  # a key of the ruleset's penalties.kinds: its label and short name are words (rules.words.state)
    player: str | None
    remaining_ms: int | None  # None: to the end of the match
    waiting: bool  # a third ice-hockey penalty waits for a place
    reduces_strength: bool
    coincidental: bool


class PlayerOut(Record):
    """A player out for the rest of the match: sent off, or out on personal fouls (``kind``)."""

    team: Side
    player: str
    kind: str  # the penalty kind that put them out ("red", "fouled_out", ...)
    seq: int


class PlayerFouls(Record):
    """A player's penalties that count towards an escalation (personal fouls, yellow cards)."""

    team: Side
    player: str
    count: int
    limit: int  # the count that escalates (3 personal fouls, 2 yellows)


class TimeoutView(Record):
    team: Side
    remaining_ms: int


class ShootoutView(Record):
    name: str
    home_goals: int
    away_goals: int
    home_taken: int
    away_taken: int
    shots_each: int | None  # in the stage being played; grows in sudden death
    next_team: Side | None
    attempts: tuple[Attempt, ...]


PeriodKind = Literal["regular", "extra_time", "shootout"]


class MatchState(Record):
    """Everything shown at one instant, as data: numbers, enums and keys; rules.words.state makes the words.

    ``period`` counts every period played, extra time included (the second period of
    extra time after two halves is 4); ``period_kind`` says which kind is played.
    ``clock_ms`` is remaining (``clock_down``) or elapsed, as the clock counts.
    ``home_on_field``/``away_on_field``: players a side on the field now, None when
    the ruleset and the match leave the number open.
    """

    at: int
    phase: Phase
    period: int
    period_kind: PeriodKind
    clock_ms: int
    clock_down: bool
    running: bool
    tenths: bool
    interval_remaining_ms: int | None
    home_goals: int
    away_goals: int
    penalties: tuple[PenaltyView, ...]
    home_short: int
    away_short: int
    home_on_field: int | None
    away_on_field: int | None
    home_timeouts_left: int
    away_timeouts_left: int
    timeout: TimeoutView | None
    set_piece: str | None
    possession_ms: int | None  # None when there is none, or blanked by the match clock
    shootout: ShootoutView | None
    wall_clock_remaining_ms: int | None
    full_period_fits: bool | None
    cards: tuple[Card, ...]
    players_out: tuple[PlayerOut, ...]  # the screen greys these numbers out
    fouls: tuple[PlayerFouls, ...]  # per player, for rulesets that count them (water polo's personal fouls)
    late_presses: int
    result: MatchOutcome | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly (what the table publishes and ``courtside replay --format json`` prints)."""
        import dataclasses  # here, not at the top: with inspect, ~10 ms of every start (docs/benchmarks.md)

        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> MatchState:
        """The state ``to_dict`` gave (read back from JSON); a wrong key or value raises StateDataError."""
        state, problems = build(cls, data)
        if state is None:
            where, reason = problems[0]
            raise StateDataError(f"state.{where}" if where else "state", reason)
        return state


def outcome(ctx: Context, c: Core) -> MatchOutcome | None:
    """How the match of core ``c`` ended; None while it goes on."""
    if c.outcome is None:
        return None
    sanctions = tuple(k for k in (*c.earlier_cards, *c.cards)
                      if k.out_for_match or k.suspended_next_matches or k.report_to_organisers)
    points = ctx.ruleset.points
    if c.outcome in ("walkover", "forfeit"):
        assert c.forfeiter is not None
        win, lose = points.walkover_score if c.outcome == "walkover" else points.forfeit_score
        winner = other(c.forfeiter)
        home, away = (win, lose) if winner == "home" else (lose, win)
        return MatchOutcome(home_goals=home, away_goals=away, outcome=c.outcome, winner=winner, sanctions=sanctions)
    winner_: Side | None = None
    home_so = away_so = None
    if c.outcome == "shootout" and ctx.ruleset.match.shootout is not None:
        t = tally(ctx.ruleset.match.shootout, c.attempts)
        winner_, home_so, away_so = t.winner, t.home_goals, t.away_goals
    elif c.outcome != "abandoned" and c.home != c.away:
        winner_ = "home" if c.home > c.away else "away"
    return MatchOutcome(
        home_goals=c.home, away_goals=c.away, outcome=c.outcome, winner=winner_,
        home_shootout=home_so, away_shootout=away_so, sanctions=sanctions,
    )


class Board(Record):
    """The part of the state fixed between two transitions of a core (built once, reused every frame)."""

    fixed: dict[str, Any]  # MatchState's fields that do not depend on the instant
    views: tuple[PenaltyView, ...]  # the board's penalties; those running are recomputed per instant
    running: tuple[tuple[int, Penalty], ...]  # (index in views, the running timed penalty)


def board_of(ctx: Context, c: Core) -> Board:
    """What a core shows whatever the instant: score, phase, strength, time-outs left, shoot-out, cards, result."""
    m = ctx.ruleset.match
    views: list[PenaltyView] = []
    running: list[tuple[int, Penalty]] = []
    for p in c.penalties:
        if p.running and p.length is not None:
            running.append((len(views), p))
        views.append(
            PenaltyView(
                seq=p.seq, team=p.team, kind=p.kind, player=p.player, remaining_ms=p.remaining(0),
                waiting=p.start is None, reduces_strength=p.reduces, coincidental=p.coincidental,
            )
        )
    short = {team: short_count(c.penalties, team) for team in ("home", "away")}
    on_field: dict[str, int | None] = {"home": None, "away": None}
    if ctx.on_field is not None:
        on_field = {team: max(0, ctx.on_field - short[team]) for team in ("home", "away")}
    kind_now: PeriodKind = "regular"
    if c.phase == "shootout" or (c.phase == "finished" and c.attempts):
        kind_now = "shootout"
    elif c.period > m.periods:
        kind_now = "extra_time"
    timeouts_left = {"home": 0, "away": 0}
    if c.phase in ("pre_match", "play", "interval"):
        period = c.period + 1 if c.phase == "interval" else c.period
        seg = timeouts.segment(ctx.ruleset, period)
        timeouts_left = {
            team: timeouts.left(ctx.ruleset, ctx.round, c.timeouts_used, team, seg) for team in ("home", "away")
        }
    so_view = None
    if m.shootout is not None and (c.phase == "shootout" or c.attempts):
        t = tally(m.shootout, c.attempts)
        so_view = ShootoutView(
            name=m.shootout.name, home_goals=t.home_goals, away_goals=t.away_goals, home_taken=t.home_taken,
            away_taken=t.away_taken, shots_each=t.limit, next_team=t.next_team, attempts=c.attempts,
        )
    out = tuple(
        PlayerOut(team=k.team, player=k.player, kind=k.kind, seq=k.seq)
        for k in c.cards if k.out_for_match and k.player is not None
    )
    fixed: dict[str, Any] = {
        "phase": c.phase, "period": c.period, "period_kind": kind_now, "clock_down": m.clock_direction == "down",
        "running": c.running(), "home_goals": c.home, "away_goals": c.away,
        "home_short": short["home"], "away_short": short["away"],
        "home_on_field": on_field["home"], "away_on_field": on_field["away"],
        "home_timeouts_left": timeouts_left["home"], "away_timeouts_left": timeouts_left["away"],
        "set_piece": c.set_piece, "shootout": so_view, "late_presses": c.late_presses,
        # A replayed match's earlier cards stay on its record (the register reads them), after none of its play.
        "cards": (*c.earlier_cards, *c.cards) if c.earlier_cards else c.cards,
        "players_out": out, "fouls": _fouls(ctx, c),
        "result": outcome(ctx, c),
    }
    return Board(fixed=fixed, views=tuple(views), running=tuple(running))


def _fouls(ctx: Context, c: Core) -> tuple[PlayerFouls, ...]:
    """Per player, the awards of kinds that escalate (in award order of the players' first)."""
    kinds = ctx.ruleset.penalties.kinds
    found: dict[tuple[Side, str], tuple[int, int]] = {}
    for k in c.cards:
        rules = kinds.get(k.kind)
        if rules is None or rules.escalates_to is None or k.player is None:
            continue
        count, _ = found.get((k.team, k.player), (0, 0))
        found[(k.team, k.player)] = (count + 1, rules.escalates_after)
    return tuple(PlayerFouls(team=t, player=p, count=n, limit=lim) for (t, p), (n, lim) in found.items())


def snapshot(ctx: Context, c: Core, board: Board, at: int) -> MatchState:
    """The state at ``at`` of a core already advanced to ``at`` (no transition due up to ``at``)."""
    m = ctx.ruleset.match
    length = ctx.period_length(c.period)
    played = elapsed(c.clock_base, c.clock_since, length, at)  # c.elapsed(ctx, at), its length known
    down = m.clock_direction == "down"
    remaining = length - played
    play = c.period_offset + played  # c.play(ctx, at)
    views = board.views
    if board.running:
        changed = list(views)
        for i, p in board.running:
            values = views[i].__dict__.copy()
            values["remaining_ms"] = p.remaining(play)
            view = object.__new__(PenaltyView)
            object.__setattr__(view, "__dict__", values)  # as MatchState below: no __init__
            changed[i] = view
        views = tuple(changed)
    possession = None
    if m.possession_clock is not None and c.phase == "play":
        possession = max(0, c.possession_length - (play - c.possession_from))
        if remaining < possession:
            possession = None  # the match clock runs out first: the shot clock is blanked
    wall_left = fits = None
    if m.wall_clock_cap is not None and c.started_at is not None:
        until = c.finished_at if c.finished_at is not None else at
        wall_left = max(0, m.wall_clock_cap - (until - c.started_at))
        fits = wall_left >= m.period_length
    # Built without __init__, which would copy its template and check the thirty names again on
    # every frame: the values are complete (board.fixed has the rest) and the dict becomes the
    # record's own (tests/test_match_state.py compares with the plain constructor).
    values = board.fixed.copy()
    values.update(
        at=at, clock_ms=remaining if down else played, tenths=0 < remaining < m.tenths_below,
        interval_remaining_ms=(c.interval_until - at) if c.phase == "interval" and c.interval_until else None,
        penalties=views,
        timeout=TimeoutView(team=c.timeout_team, remaining_ms=c.timeout_until - at)
        if c.timeout_team is not None and c.timeout_until is not None else None,
        possession_ms=possession, wall_clock_remaining_ms=wall_left, full_period_fits=fits,
    )
    state = object.__new__(MatchState)
    object.__setattr__(state, "__dict__", values)  # frozen: past its own __setattr__, once
    return state
