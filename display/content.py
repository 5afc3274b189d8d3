"""From a :class:`ScoreboardView` to the words and numbers of each part of the screen (no pygame).

A :class:`Frame` is what one frame shows, part by part, as plain hashable values: the
screen compares each part with the last frame's and redraws only the parts that differ.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from gettext import NullTranslations
from typing import Any

from display.theme import parse_colour
from display.view import BetweenMatches, Colour, Notice, ScoreboardView, TeamLook
from rules import (
    MatchState,
    PoolTable,
    Ruleset,
    Suspended,
    format_clock,
    golden_goal,
    interval_title,
    period_title,
    refusal_text,
    result_how,
    round_title,
    words_for,
)
from rules.words.board import duration

WATER_POLO_CAPS = ((250, 250, 250), (22, 64, 160))  # the first-named team wears white caps, the other blue


@dataclass(frozen=True)
class Team:
    name: str
    short: str | None
    colour: Colour | None  # None: the theme's colour for the side


@dataclass(frozen=True)
class PenaltyLine:
    player: str  # "7", or "" when no number was entered
    code: str  # the ruleset's short name, "2'", "EX", "Y"
    kind: str  # the ruleset's key: the screen colours cards by it
    time: str  # "1:40"; "" for the rest of the match
    waiting: bool


@dataclass(frozen=True)
class Shots:
    """One team's shoot-out row: "scored", "missed" or "pending" for each shot shown."""

    marks: tuple[str, ...]
    next_up: bool


@dataclass(frozen=True)
class Frame:
    mode: str  # play, interval, timeout, shootout, final, between
    top_left: str = ""
    title: str = ""
    subtitle: str = ""  # "Golden goal"
    top_right: str = ""  # the wall-clock cap
    home: Team = Team("", None, None)
    away: Team = Team("", None, None)
    home_score: str = ""
    away_score: str = ""
    clock: str = ""
    running: bool = False
    clock_note: str = ""  # "Stopped"
    centre: str = ""  # "5 v 4"; in a shoot-out the match score; at the end how it was decided
    possession: str = ""  # water polo's shot clock, whole seconds
    possession_label: str = ""
    home_timeouts: tuple[int, int] = (0, 0)  # (left, shown): shown 0 hides the row
    away_timeouts: tuple[int, int] = (0, 0)
    timeouts_label: str = ""
    home_penalties: tuple[PenaltyLine, ...] = ()
    away_penalties: tuple[PenaltyLine, ...] = ()
    waiting_label: str = ""
    big_label: str = ""  # interval / time-out heading
    countdown: str = ""
    home_shots: Shots | None = None
    away_shots: Shots | None = None
    winner: str | None = None  # "home" / "away" once decided
    notice: tuple[str, str] | None = None  # (kind, text)
    link: str = ""  # "Offline · 12 to send"
    next_label: str = ""  # between matches, and under a final score
    next_teams: str = ""
    next_when: str = ""
    next_line: str = ""  # the next match on one line, under a final score
    tables: tuple[PoolTable, ...] = ()
    table_titles: tuple[str, ...] = ()
    table_heads: tuple[str, ...] = ()
    scorers: tuple[tuple[str, str, str, str], ...] = ()  # (place, player, team, goals), after the tables
    scorers_title: str = ""
    scorers_heads: tuple[str, str, str] = ("", "", "")  # player, team, goals
    page: int = 0
    page_word: str = ""  # "Page {page} of {pages}"
    help_title: str = ""
    help_lines: tuple[str, ...] = ()  # the table's key map, over the lower part of the screen
    not_eligible_label: str = ""  # before the match starts, over each team's players who may not play
    home_not_eligible: tuple[str, ...] = ()  # "#7 (Red card, match 12)"
    away_not_eligible: tuple[str, ...] = ()


def team(look: TeamLook, w: NullTranslations) -> Team:
    # A friendly match's "Home" and "Away" are words of the screen, not names: they are translated.
    name = w.gettext(look.name) if look.name in ("Home", "Away") else look.name
    return Team(name, look.short, team_colour(look.colour))


NAMED_COLOURS: dict[str, Colour] = {
    "white": (250, 250, 250), "black": (20, 20, 20), "red": (215, 38, 61), "blue": (30, 111, 217),
    "navy": (22, 44, 120), "green": (46, 160, 67), "yellow": (245, 200, 20), "orange": (240, 120, 20),
    "purple": (120, 60, 170), "grey": (150, 150, 150), "gray": (150, 150, 150), "maroon": (128, 20, 40),
    "sky": (90, 170, 230), "pink": (230, 110, 170), "gold": (212, 175, 55),
}


def team_colour(value: Colour | str | None) -> Colour | None:
    """(r, g, b), "#rrggbb" or a plain colour name; anything else is None (the theme's colour for the side).

    A frame must always draw: a colour the file got wrong shows as the default, never as an error mid-match.
    """
    if value is None or isinstance(value, tuple):
        return value
    text = value.strip().lower()
    if text in NAMED_COLOURS:
        return NAMED_COLOURS[text]
    try:
        return parse_colour(text, "colour", "team")
    except ValueError:
        return None


def clock_text(ms: int, *, tenths: bool, down: bool) -> str:
    return format_clock(max(0, ms), tenths=tenths, down=down)


def _countdown(ms: int | None) -> str:
    return clock_text(ms or 0, tenths=False, down=True)


def penalty_lines(state: MatchState, ruleset: Ruleset, side: str) -> tuple[PenaltyLine, ...]:
    lines = []
    for p in state.penalties:
        if p.team != side:
            continue
        kinds = ruleset.penalties.kinds
        code = kinds[p.kind].short if p.kind in kinds and kinds[p.kind].short else p.kind[:3].upper()
        time = "" if p.remaining_ms is None else clock_text(p.remaining_ms, tenths=False, down=True)
        lines.append(PenaltyLine(p.player or "", code, p.kind, time, p.waiting))
    # Running ones first (soonest back first), then the waiting ones in the order they will start.
    running = sorted((x for x in lines if not x.waiting), key=lambda x: (x.time == "", len(x.time), x.time))
    return tuple(running) + tuple(x for x in lines if x.waiting)


def timeouts_shown(state: MatchState, ruleset: Ruleset, round_name: str | None) -> int:
    """How many time-out marks a team gets in this part of the match (0: time-outs play no part)."""
    t = ruleset.timeouts
    if t.only_in_rounds is not None and round_name not in t.only_in_rounds:
        return 0
    per = t.in_overtime if state.period_kind == "extra_time" else t.per_team
    return max(per, state.home_timeouts_left, state.away_timeouts_left)


def shots(state: MatchState, side: str) -> Shots | None:
    so = state.shootout
    if so is None:
        return None
    marks = ["scored" if a.scored else "missed" for a in so.attempts if a.team == side]
    shown = max(so.shots_each or 0, so.home_taken, so.away_taken)
    if state.phase == "shootout":  # once decided, the shots nobody had to take are not shown
        marks += ["pending"] * max(0, shown - len(marks))
    return Shots(tuple(marks), so.next_team == side and state.phase == "shootout")


def frame_of(view: ScoreboardView, words: NullTranslations | None = None) -> Frame:
    """What the screen shows for ``view``; ``words`` defaults to the view's language."""
    w = words if words is not None else words_for(view.language)
    # The frame's values gathered in one dict and built once: this runs every frame.
    f: dict[str, Any] = {"mode": "between", "home": team(view.home, w), "away": team(view.away, w),
                         "top_left": " · ".join(x for x in (round_title(w, view.round), view.stage) if x)}
    if view.prompt:  # already in the table's language
        f["notice"] = ("info", view.prompt)
    elif view.notices:
        f["notice"] = _notice(view.notices[-1], w)
    if view.link is not None and not view.link.online:
        f["link"] = w.gettext("Offline") + (
            " · " + w.gettext("{count} to send").format(count=view.link.waiting) if view.link.waiting else "")
    if view.between is not None:
        f.update(_between(view.between, w))
    if view.help_lines:
        f.update(help_title=w.gettext("Keys"), help_lines=view.help_lines)
    state = view.state
    if state is None:
        f["title"] = view.court
        return Frame(**f)
    r = view.ruleset
    if r.sport == "water polo":
        f["home"] = replace(f["home"], colour=WATER_POLO_CAPS[0])
        f["away"] = replace(f["away"], colour=WATER_POLO_CAPS[1])
    f.update(home_score=str(state.home_goals), away_score=str(state.away_goals))
    if state.wall_clock_remaining_ms is not None and state.phase != "finished":
        f["top_right"] = w.gettext("Time limit {clock}").format(
            clock=clock_text(state.wall_clock_remaining_ms, tenths=False, down=True))
    if state.phase == "finished" and state.result is not None:
        res = state.result
        home_shots = shots(state, "home")
        # Without a shoot-out's rows, the scores take the height they would have used.
        f.update(mode="final" if home_shots is not None else "final_plain", title=w.gettext("Final score"),
                 winner=res.winner,
                 centre=result_how(w, r, res.outcome, res.home_shootout, res.away_shootout)
                 or (w.gettext("Draw") if res.winner is None else ""),
                 home_shots=home_shots, away_shots=shots(state, "away"))
        if f.get("next_teams"):
            f["next_line"] = f"{f['next_label']}: {f['next_teams']} · {f['next_when']}"
        return Frame(**f)
    if state.phase == "shootout":
        so = state.shootout
        f.update(mode="shootout", title=period_title(w, r, "shootout", 1),
                 centre=w.gettext("Match score {home}–{away}").format(home=state.home_goals, away=state.away_goals),
                 home_shots=shots(state, "home"), away_shots=shots(state, "away"),
                 home_score=str(so.home_goals if so else 0), away_score=str(so.away_goals if so else 0))
        return Frame(**f)
    if state.phase == "interval":
        f.update(mode="interval", big_label=interval_title(w, r, state.period),
                 countdown=_countdown(state.interval_remaining_ms))
        return Frame(**f)
    kind = state.period_kind
    number = state.period - r.match.periods if kind == "extra_time" else state.period
    clock = clock_text(state.clock_ms, tenths=state.tenths, down=state.clock_down)
    if state.timeout is not None:
        side = view.home if state.timeout.team == "home" else view.away
        f.update(mode="timeout", big_label=w.gettext("Time-out"), subtitle=side.name, clock=clock,
                 countdown=_countdown(state.timeout.remaining_ms), title=f"{period_title(w, r, kind, number)}  {clock}")
        return Frame(**f)
    if state.home_on_field is not None and state.away_on_field is not None and (
            state.home_on_field != state.away_on_field or r.sport == "ice hockey"):
        f["centre"] = f"{state.home_on_field} v {state.away_on_field}"
    # A shot clock that has run out stands at 0 until the officials reset it: blank then, as a hall's own shot
    # clocks go dark, so nobody reads "0" beside a running game clock. Its layout stays (the label is given), so
    # "Stopped" and "7 v 6" beside it never move.
    if r.match.possession_clock is not None and state.possession_ms is not None:
        f.update(possession=str(-(-state.possession_ms // 1000)) if state.possession_ms else "",
                 possession_label=w.gettext("Shot clock"))
    if state.phase == "pre_match" and view.not_eligible:
        f.update(_not_eligible(view.not_eligible, w))
    shown = timeouts_shown(state, r, view.round)
    f.update(
        mode="play", clock=clock, running=state.running, clock_note="" if state.running else w.gettext("Stopped"),
        title=" · ".join(x for x in (period_title(w, r, kind, number),
                                     golden_goal(w, r) if kind == "extra_time" else None) if x),
        home_timeouts=(state.home_timeouts_left, shown), away_timeouts=(state.away_timeouts_left, shown),
        timeouts_label=w.gettext("Time-outs") if shown else "",
        home_penalties=penalty_lines(state, r, "home"), away_penalties=penalty_lines(state, r, "away"),
        waiting_label=w.gettext("waiting"),
    )
    return Frame(**f)


def _notice(n: Notice, w: NullTranslations) -> tuple[str, str]:
    if n.kind == "recovered":
        if n.down_ms is None:  # no clock to trust at boot (docs/reliability.md): not "down for 0 s"
            return n.kind, w.gettext("Recovered after a restart: down for an unknown time. Check the clock.")
        return n.kind, w.gettext("Recovered after a restart: down for {duration}. Check the clock.").format(
            duration=duration(n.down_ms))
    if n.kind == "operator":  # already in the table's language (firmware.operator)
        return n.kind, n.text
    if n.kind == "refused":
        reason = refusal_text(n.error, w.gettext) if n.error is not None else w.gettext(n.text)
        return n.kind, w.gettext("Refused: {reason}").format(reason=reason)
    return n.kind, w.gettext(n.text)


def _not_eligible(players: tuple[Suspended, ...], w: NullTranslations) -> dict[str, Any]:
    lines: dict[str, list[str]] = {"home": [], "away": []}
    for n in players:
        lines[n.side].append(w.gettext("#{player} ({card}, match {match})").format(
            player=n.player, card=n.label, match=n.given_in))
    return dict(not_eligible_label=w.gettext("Not eligible"), home_not_eligible=tuple(lines["home"]),
                away_not_eligible=tuple(lines["away"]))


def _between(between: BetweenMatches, w: NullTranslations) -> dict[str, Any]:
    nxt = between.next_match
    label = when = teams = ""
    if nxt is not None:
        label = w.gettext("Next match")
        teams = f"{nxt.home} – {nxt.away}"
        parts = [nxt.start.strftime("%H:%M") if nxt.start else "", round_title(w, nxt.round) or "", nxt.stage or ""]
        when = " · ".join(p for p in parts if p)
    return dict(
        next_label=label, next_teams=teams, next_when=when, tables=between.tables,
        table_titles=tuple(w.gettext("Pool {name}").format(name=t.pool) for t in between.tables),
        table_heads=(w.pgettext("table", "P"), w.pgettext("table", "W"), w.pgettext("table", "D"),
                     w.pgettext("table", "L"), w.pgettext("table", "Goals"), w.pgettext("table", "Pts")),
        page=between.page, page_word=w.gettext("Page {page} of {pages}"),
        scorers=tuple((f"{r.rank}", r.label, r.team, f"{r.goals}") for r in between.scorers.rows)
        if between.scorers is not None else (),
        scorers_title=w.gettext("Top scorers"),
        scorers_heads=(w.gettext("Player"), w.gettext("Team"), w.gettext("Goals")),
    )
