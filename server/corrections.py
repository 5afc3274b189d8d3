"""What a result entered at the desk changes downstream, said before it is stored.

A pool A correction can change who is 3rd in pool A, so pool C's teams, the semi-finals and the
final ranking. The organiser is told which later matches get other teams, which places move,
and which matches already played no longer fit (they stay stored, set aside for the organiser to
settle, never dropped), and confirms; :func:`consequences` works that out from the progress
before and after, with nothing stored.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from rules import MatchResult, Progress, Result, progress
from server.progresses import resolve, to_match_result
from server.store import Store, result_row


@dataclass(frozen=True, slots=True)
class Consequences:
    """Each a sentence for the organiser; empty when the result changes nothing beyond its own match."""

    matches: tuple[str, ...]  # later matches that would be played by other teams
    places: tuple[str, ...]  # final places that would go to other teams
    set_aside: tuple[str, ...]  # matches already played whose result would no longer fit

    def __bool__(self) -> bool:
        return bool(self.matches or self.places or self.set_aside)

    def lines(self) -> list[str]:
        return [*self.set_aside, *self.matches, *self.places]


def consequences(store: Store, s: Session, match_id: str, result: Result) -> Consequences:
    """What storing ``result`` for ``match_id`` would change, from the stored state."""
    plan = store.plan
    row = result_row(store, s, match_id, result, source="organiser", court=None, seq=None)
    klass = plan.class_of(row.stage)  # a result changes its own class only
    before = store.class_progress(s)[klass.name]
    cup = plan.cup
    results = [to_match_result(r) for r in store.results(s) if r.outcome != "abandoned" and r.match_id != match_id
               and cup.owns(klass, r.stage)]
    if row.outcome != "abandoned":
        results.append(to_match_result(row))
    decisions = [d for d in store.decisions(s) if cup.owns(klass, d.pool)]
    after = progress(klass.tournament, plan.rulesets[klass.name], plan.entry_by_class[klass.name], results, decisions,
                     results_source="the service's results", source=plan.source, strict=False)
    return Consequences(matches=tuple(_other_teams(store, s, before, after, match_id)),
                        places=tuple(_other_places(before, after)),
                        set_aside=tuple(_newly_set_aside(store, s, before, after)))


def _other_teams(store: Store, s: Session, before: Progress, after: Progress, match_id: str) -> list[str]:
    out = []
    for f in sorted(store.fixtures(s).values(), key=lambda f: f.number):
        if f.match_id == match_id or {f.home, f.away} <= store.entry_team_names:
            continue
        if f.stage not in before.pools and f.stage not in before.matches:
            continue  # another class's match: a result changes its own class only
        was = (resolve(store, before, f.stage, f.home), resolve(store, before, f.stage, f.away))
        now = (resolve(store, after, f.stage, f.home), resolve(store, after, f.stage, f.away))
        if any(w is not None and w != n for w, n in zip(was, now, strict=True)):  # filling an open slot is progress
            out.append(f"match {f.number} ({f.stage}) would be {_pair(now)} instead of {_pair(was)}")
    return out


def _pair(teams: tuple[str | None, str | None]) -> str:
    return " v ".join(t or "(not known yet)" for t in teams)


def _other_places(before: Progress, after: Progress) -> list[str]:
    out = []
    for n, (was, now) in enumerate(zip(before.final_ranking, after.final_ranking, strict=True), start=1):
        if was.team is not None and was.team != now.team:
            out.append(f"final place {n} would be {now.team or '(open)'} instead of {was.team or '(open)'}")
    return out


def _newly_set_aside(store: Store, s: Session, before: Progress, after: Progress) -> list[str]:
    known = {_key(a.result) for a in before.set_aside}
    newly = [a for a in after.set_aside if _key(a.result) not in known]
    if not newly:
        return []
    fixtures = store.fixtures(s)
    numbers = {(row.stage, row.home, row.away): fixtures[row.match_id].number
               for row in store.results(s) if row.match_id in fixtures}
    return [f"{played_as(a.result, numbers.get((a.result.pool, a.result.home, a.result.away)))}, already played, "
            f"would no longer count ({a.reason}); it stays stored for you to settle" for a in newly]


def played_as(r: MatchResult, number: int | None) -> str:
    """"match 14 (C): Pembroke Wanderers 2-1 Three Rock Rovers": a stored result with its match's number."""
    where = f"match {number} ({r.pool})" if number is not None else r.pool
    return f"{where}: {r.home} {r.home_goals}-{r.away_goals} {r.away}"


def _key(r: MatchResult) -> tuple[object, ...]:
    return (r.pool, r.home, r.away, r.home_goals, r.away_goals)
