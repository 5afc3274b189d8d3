"""A class's top scorers on the wire: the service publishes them (retained) on ``class/{class}/scorers``;
venue screens show them between matches when nothing more urgent is to be shown. One record type, one builder,
one reader (docs/asyncapi.yaml, ScorersMessage).

Only a class whose results are published has them; the players are named as the public pages name them (their
numbers alone where the class keeps names off).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.errors import ProtocolError, whole_number
from rules.record import Record

SHOWN = 10  # scorers a message holds: a screen shows the top of the list, never a whole cup's


class PublishedScorer(Record):
    rank: int  # shared by equal goals
    team: str
    label: str  # "#13 Anna Berg", or "#13"
    goals: int


class PublishedScorers(Record):
    class_name: str  # "" for the one class of a file without classes
    rows: tuple[PublishedScorer, ...]


def scorers_payload(class_name: str, rows: Sequence[PublishedScorer]) -> dict[str, Any]:
    """The payload of a class's top scorers: the first :data:`SHOWN` of ``rows`` (ranked, most goals first)."""
    return {"class": class_name, "rows": [{"rank": r.rank, "team": r.team, "label": r.label, "goals": r.goals}
                                          for r in rows[:SHOWN]]}


def read_scorers(payload: Any, where: str = "payload") -> PublishedScorers:
    """The scorers of a ``scorers`` payload, checked; a wrong key or value raises ProtocolError naming it. Keys a
    later version may add are ignored, so an older screen keeps working."""
    if not isinstance(payload, dict) or not isinstance(payload.get("class"), str) \
            or not isinstance(payload.get("rows"), list):
        raise ProtocolError(where, "a scorers message has its 'class' and its 'rows'")
    if len(payload["rows"]) > SHOWN:
        raise ProtocolError(f"{where}.rows", f"{len(payload['rows'])} rows: at most {SHOWN}")
    rows = []
    for i, r in enumerate(payload["rows"]):
        at = f"{where}.rows[{i}]"
        if not isinstance(r, dict) or not isinstance(r.get("team"), str) or not isinstance(r.get("label"), str):
            raise ProtocolError(at, "a row has its 'team', 'label', 'rank' and 'goals'")
        rows.append(PublishedScorer(rank=whole_number(f"{at}.rank", r.get("rank"), low=1), team=r["team"],
                                    label=r["label"], goals=whole_number(f"{at}.goals", r.get("goals"), low=1)))
    return PublishedScorers(class_name=payload["class"], rows=tuple(rows))


__all__ = ["SHOWN", "PublishedScorer", "PublishedScorers", "read_scorers", "scorers_payload"]
