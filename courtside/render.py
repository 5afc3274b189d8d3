"""Text and JSON views of a draw, a schedule and a tournament's progress: the shell's job, not the pure core's."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from rules import (
    DrawResult,
    MatchResult,
    PoolState,
    Progress,
    ScheduledMatch,
    Slot,
    Tournament,
    TournamentError,
    TournamentSchedule,
    Unresolved,
    result_payload,
)

_DAY = "%a %Y-%m-%d"
_TIME = "%H:%M"


def _titled(name: str, class_name: str) -> str:
    return f"{name}, class {class_name}" if class_name else name


def draw_text(t: Tournament, draw: DrawResult, class_name: str = "") -> str:
    pots = {team.name: team.pot for team in t.teams}
    lines = [f"Draw for {_titled(t.name, class_name)}, seed {draw.seed}", ""]
    for pool, teams in draw.pools.items():
        lines.append(f"Pool {pool}")
        lines += [f"  {team}" + (f"  (pot {pots[team]})" if pots.get(team) else "") for team in teams]
    lines += [f"note: {note}" for note in draw.notes]
    lines += [
        "",
        "To reproduce this draw, record its seed in the tournament file:",
        "",
        *([f"draw = {{ seed = {draw.seed} }}   (in class {class_name}'s [[classes]] table)"] if class_name
          else ["[draw]", f"seed = {draw.seed}"]),
    ]
    return "\n".join(lines) + "\n"


def draw_json(t: Tournament, draw: DrawResult, class_name: str = "") -> dict[str, Any]:
    return {
        "tournament": t.name,
        **({"class": class_name} if class_name else {}),
        "seed": draw.seed,
        "pools": {k: list(v) for k, v in draw.pools.items()},
        "notes": list(draw.notes),
    }


def schedule_part(schedule: TournamentSchedule, *, day: str | None = None, court: str | None = None,
                  class_name: str | None = None) -> TournamentSchedule:
    """The matches of one day, one court and/or one class (a big cup's fixture list is thousands of lines); a
    day, a court or a class the schedule does not have is refused with the ones it has."""
    matches = schedule.matches
    for key, value in (("--class", class_name), ("--day", day), ("--court", court)):
        if value is None:
            continue
        there = list(dict.fromkeys(_day_or_court(m, key) for m in matches))
        if value not in there:
            raise TournamentError("schedule", key, f"{value!r} is not one of the schedule's: {', '.join(there)}")
        matches = tuple(m for m in matches if _day_or_court(m, key) == value)
    return schedule.replace(matches=matches, resurfacings=tuple(
        r for r in schedule.resurfacings if court in (None, r.court) and day in (None, r.start.date().isoformat())))


def _day_or_court(m: ScheduledMatch, key: str) -> str:
    if key == "--class":
        return m.class_name
    return m.start.date().isoformat() if key == "--day" else m.court


def _heading(m: ScheduledMatch, by: str) -> str:
    if by == "court":
        return m.court
    if by == "class":
        return f"Class {m.class_name}"
    return m.start.strftime(_DAY)


def schedule_text(title: str, schedule: TournamentSchedule, *, by: str = "day", of: int | None = None) -> str:
    """The fixture list day by day (``by="day"``), court by court or class by class; ``of``: the whole schedule's
    matches when ``schedule`` is a part of it. A cup's classes get a column of their own."""
    lines = [f"Schedule for {title}"]
    heading: object = None
    width = max((len(m.court) for m in schedule.matches), default=5)
    class_width = max((len(m.class_name) for m in schedule.matches), default=0)
    resurfaced = {(r.court, r.start) for r in schedule.resurfacings}
    ordered = schedule.matches
    if by in ("court", "class"):
        ordered = tuple(sorted(schedule.matches, key=lambda m: (m.court if by == "court" else m.class_name, m.start)))
    for m in ordered:
        now = _heading(m, by)
        if now != heading:
            heading = now
            lines += ["", now]
        stage = f"Pool {m.stage}" if m.round == "pool" else f"{m.stage} ({m.round.replace('_', ' ')})"
        klass = f"{m.class_name:<{class_width}}  " if class_width and by != "class" else ""
        lines.append(
            f"  {m.number:>4}  {m.start.strftime(_TIME if by == 'day' else _DAY + ' ' + _TIME)}-"
            f"{m.end.strftime(_TIME)}  {m.court:<{width}}  {klass}"
            f"{stage:<24}  {m.home} v {m.away}" + ("  then resurfacing" if (m.court, m.end) in resurfaced else "")
        )
    if schedule.end is not None:
        count = f"{len(schedule.matches)} of {of} matches" if of not in (None, len(schedule.matches)) else \
            f"{len(schedule.matches)} matches"
        lines += ["", f"{count}, last one ends {schedule.end.strftime(_DAY + ' ' + _TIME)}"]
    return "\n".join(lines) + "\n"


def schedule_json(title: str, schedule: TournamentSchedule) -> dict[str, Any]:
    return {
        "tournament": title,
        "matches": [
            {
                "number": m.number,
                **({"class": m.class_name} if m.class_name else {}),
                "stage": m.stage,
                "round": m.round,
                "home": m.home,
                "away": m.away,
                "court": m.court,
                "start": m.start.isoformat(timespec="minutes"),
                "end": m.end.isoformat(timespec="minutes"),
            }
            for m in schedule.matches
        ],
        "resurfacings": [
            {
                "court": r.court,
                "start": r.start.isoformat(timespec="minutes"),
                "end": r.end.isoformat(timespec="minutes"),
            }
            for r in schedule.resurfacings
        ],
    }


def _score(r: MatchResult) -> str:
    if r.outcome in ("walkover", "forfeit") and (r.home_goals, r.away_goals) == (0, 0):
        # 0-0 means "not entered": the ruleset's walkover or forfeit score counts.
        return f"{r.home} v {r.away} ({r.outcome}, awarded to {r.winner})"
    text = f"{r.home} {r.home_goals}-{r.away_goals} {r.away}"
    if r.outcome == "shootout":
        text += f" ({r.home_shootout}-{r.away_shootout} in the shoot-out)"
    elif r.outcome != "regular":
        text += f" ({r.outcome}" + (f", awarded to {r.winner})" if r.winner else ")")
    return text


def _slot_text(s: Slot) -> str:
    if s.team is None:
        return f"{s.text} (?)"
    return s.team if s.team == s.text else f"{s.text} {s.team}"


def open_slots(progress: Progress) -> list[Slot]:
    return [s for s in progress.slots.values() if s.team is None]


def _due(pool: PoolState) -> tuple[Unresolved, ...]:
    """The ties the organiser decides now: those of a pool whose every match is played."""
    return pool.table.unresolved if pool.table is not None and pool.complete else ()


def progress_text(t: Tournament, progress: Progress, class_name: str = "") -> str:
    lines = [_titled(t.name, class_name)]
    for pool in progress.pools.values():
        state = "complete" if pool.complete else f"{pool.played} of {pool.expected} matches played"
        lines += ["", f"Pool {pool.name} ({state})"]
        if pool.table is None:
            lines += [f"  waits for {s.text}: {s.needs}" for s in pool.teams if s.team is None]
            continue
        width = max(len(r.team) for r in pool.table.rows)
        lines.append(f"  {'':>2}  {'':<{width}}   P  W  D  L  goals  diff  pts  why")
        for r in pool.table.rows:
            # Organisers are asked "why is X above Y" every time: the deciding step goes on the row. Before a ball
            # is played the pool is its draw: no places, nothing to explain.
            rank, reason = (r.rank, r.reason) if pool.played else ("-", "")
            lines.append(
                f"  {rank:>2}  {r.team:<{width}}  {r.played:>2} {r.won:>2} {r.drawn:>2} {r.lost:>2}  "
                f"{r.goals_for:>2}-{r.goals_against:<2}  {r.goal_difference:>+4}  {r.points:>3}  {reason}".rstrip()
            )
        lines += [f"  carried forward: {_score(r)}" for r in pool.carried]
        # A tie is the organiser's to decide once the pool is played: until then its last results may break it.
        lines += [f"  open tie: {', '.join(u.teams)} needs {u.needs}" for u in _due(pool)]
    if progress.matches:
        lines += ["", "Matches"]
        for m in progress.matches.values():
            head = f"  {m.name} ({m.round.replace('_', ' ')}): {_slot_text(m.home)} v {_slot_text(m.away)}"
            if m.result is not None:
                head += f": {_score(m.result)}, {m.winner} wins"
            lines.append(head)
    for ranking in progress.rankings.values():
        lines += ["", f"Ranking {ranking.name} (by pool record: points, goal difference, goals)"]
        if ranking.waiting:
            lines.append(f"  waits for {'; '.join(ranking.waiting)}")
        for (rank, row), why in zip(ranking.rows, ranking.reasons, strict=True):
            lines.append(
                f"  {rank:>2}  {row.team}  (pool {row.pool}: {row.points} pts, "
                f"{row.goal_difference:+d}, {row.goals_for} goals)  {why}"
            )
    if progress.swaps:
        lines += ["", "Same-club switches"]
        lines += [
            f"  {s.slots[0]} {s.teams[0]} and {s.slots[1]} {s.teams[1]} change branch: {s.reason}"
            for s in progress.swaps
        ]
    if progress.exchanges or progress.clashes:
        lines += ["", "Same-club final placement games"]
        lines += [f"  exchanged: {text}" for text in progress.exchanges]
        lines += [f"  {text}" for text in progress.clashes]
    known = [s for s in progress.slots.values() if s.team is not None and s.team != s.text]
    if known:
        lines += ["", "Resolved"]
        lines += [f"  {s.text}: {s.team}" for s in known]
    still = open_slots(progress)
    lines += ["", "Still open" if still else "Nothing is open: every placeholder is resolved"]
    lines += [f"  {s.text}: needs {s.needs}" for s in still]
    if progress.final_ranking:
        lines += ["", "Final ranking"]
        lines += [f"  {place:>2}. {s.team or '-'}" for place, s in enumerate(progress.final_ranking, 1)]
    return "\n".join(lines) + "\n"


def _result_json(r: MatchResult | None) -> dict[str, Any] | None:
    if r is None:
        return None
    return {"home": r.home, "away": r.away, **result_payload(r)}  # the winner as the results file names it


def _slot_json(s: Slot) -> dict[str, Any]:
    return {"slot": s.text, "team": s.team, "needs": s.needs}


def progress_json(t: Tournament, progress: Progress, class_name: str = "") -> dict[str, Any]:
    return {
        "tournament": t.name,
        **({"class": class_name} if class_name else {}),
        "pools": [
            {
                "name": p.name,
                "complete": p.complete,
                "played": p.played,
                "expected": p.expected,
                "teams": [_slot_json(s) for s in p.teams],
                # A row as `courtside standings --format json` gives it.
                "table": None if p.table is None else [asdict(r) for r in p.table.rows],
                "unresolved": [{"teams": list(u.teams), "needs": u.needs} for u in _due(p)],
                "carried": [_result_json(r) for r in p.carried],
            }
            for p in progress.pools.values()
        ],
        "matches": [
            {
                "name": m.name,
                "round": m.round,
                "home": _slot_json(m.home),
                "away": _slot_json(m.away),
                "result": _result_json(m.result),
                "winner": m.winner,
                "loser": m.loser,
            }
            for m in progress.matches.values()
        ],
        "rankings": [
            {
                "name": r.name,
                "waiting": list(r.waiting),
                "ties": [list(x) for x in r.ties],
                "rows": [
                    {
                        "rank": n,
                        "team": row.team,
                        "pool": row.pool,
                        "points": row.points,
                        "goal_difference": row.goal_difference,
                        "goals_for": row.goals_for,
                        "reason": why,
                    }
                    for (n, row), why in zip(r.rows, r.reasons, strict=True)
                ],
            }
            for r in progress.rankings.values()
        ],
        "placeholders": {
            s.text: {"team": s.team, "needs": s.needs} for s in progress.slots.values() if s.team != s.text
        },
        "open": [_slot_json(s) for s in open_slots(progress)],
        "swaps": [{"slots": list(s.slots), "teams": list(s.teams), "reason": s.reason} for s in progress.swaps],
        "exchanges": list(progress.exchanges),
        "same_club_games": list(progress.clashes),
        "final_ranking": [s.team for s in progress.final_ranking],
    }
