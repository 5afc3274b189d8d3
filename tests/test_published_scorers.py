"""rules/published_scorers.py: a class's top scorers on the wire, from the scorers list to what a screen reads."""

from __future__ import annotations

from typing import Any

import pytest

from rules import protocol as p
from rules.errors import ProtocolError
from rules.published_scorers import SHOWN, PublishedScorer, PublishedScorers, read_scorers, scorers_payload

ROWS = [PublishedScorer(rank=1, team="Wolves", label="#13 Anna Berg", goals=4),
        PublishedScorer(rank=2, team="Bears", label="#7", goals=2),
        PublishedScorer(rank=2, team="Wolves", label="#9", goals=2)]


def test_a_class_s_scorers_read_back_as_they_were_listed_through_their_envelope() -> None:
    message = p.build(id="s1", type="scorers", payload=scorers_payload("P13", ROWS))
    parsed = p.parse(p.encode(message), topic=p.scorers_topic("cup", "P13"))
    assert parsed.body == PublishedScorers(class_name="P13", rows=tuple(ROWS))


def test_only_the_top_of_a_long_list_is_sent() -> None:
    many = [PublishedScorer(rank=i + 1, team="Wolves", label=f"#{i}", goals=40 - i) for i in range(30)]
    assert len(read_scorers(scorers_payload("", many)).rows) == SHOWN


@pytest.mark.parametrize(("change", "where"), [
    ({"class": 13}, "payload"),
    ({"rows": [{"rank": 1, "team": "Wolves", "goals": 2}]}, r"payload.rows\[0\]"),
    ({"rows": [{"rank": 0, "team": "Wolves", "label": "#9", "goals": 2}]}, r"payload.rows\[0\].rank"),
    ({"rows": [{"rank": 1, "team": "Wolves", "label": "#9", "goals": "2"}]}, r"payload.rows\[0\].goals"),
    ({"rows": [{"rank": 1, "team": "W", "label": "#9", "goals": 2}] * (SHOWN + 1)}, "payload.rows"),
])
def test_a_wrong_list_is_refused_by_where(change: dict[str, Any], where: str) -> None:
    with pytest.raises(ProtocolError, match=where):
        read_scorers({**scorers_payload("P13", ROWS), **change})


def test_a_scorers_message_on_a_pool_s_topic_is_refused() -> None:
    raw = p.encode(p.build(id="s1", type="scorers", payload=scorers_payload("P13", ROWS)))
    with pytest.raises(ProtocolError, match="does not belong"):
        p.parse(raw, topic=p.pool_topic("cup", "A"))
