"""courtside.demo.organiser: at the real service's desk, a pool left level on everything gets the decision
it needs (lots, or a penalty competition) recorded, and the next stage can go on."""

from __future__ import annotations

from pathlib import Path

from courtside.demo.broker import EmbeddedBroker, free_port
from courtside.demo.organiser import ACCOUNT, Organiser, create_desk_account
from courtside.demo.parts import Part, courtside_argv, wait_until
from courtside.demo.progress import ServiceApi

TOURNAMENT = Path(__file__).resolve().parent.parent / "rules" / "examples" / "indoor-hockey.toml"


def test_a_pool_of_draws_is_settled_at_the_desk_as_its_tie_needs(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'courtside.db'}"
    port = free_port()
    with EmbeddedBroker() as broker:
        service = Part("the standings service",
                       courtside_argv("server", "--tournament", str(TOURNAMENT), "--broker", broker.url, "--db", db,
                                      "--http", f"127.0.0.1:{port}", "--group", ""),
                       tmp_path / "service.log")
        service.start()
        api = ServiceApi(f"http://127.0.0.1:{port}/")
        organiser: Organiser | None = None
        try:
            wait_until(api.ready, 90, "the service answered", service)
            organiser = Organiser(api.base_url, ACCOUNT, create_desk_account(db), seed=3,
                                  decisions=tmp_path / "decisions.csv")
            # Every match of pool A drawn 1-1: four teams level on everything the ruleset compares.
            for match in api.matches():
                if match["stage"] == "A":
                    done = organiser.post(f"/api/v1/desk/matches/{match['number']}/result",
                                          {"home_goals": "1", "away_goals": "1", "why": "test: all drawn"})
                    assert done.status_code == 200, done.text
            pool = api.pool("A")
            assert pool["played"] == pool["expected"] and pool["unresolved"]
            assert organiser.settle(pool) == len(pool["unresolved"])
            assert api.pool("A")["unresolved"] == []
            lines = (tmp_path / "decisions.csv").read_text(encoding="utf-8").splitlines()
            # Indoor hockey's last criterion is a penalty competition: that is what the tie needs.
            assert lines[0] == "pool,method,order" and lines[1].startswith("A,penalty_competition,")
            assert set(lines[1].split(",", 2)[2].split(">")) == set(pool["teams"])
            # Nothing more to settle: a finished pool without ties, and a pool still being played.
            assert organiser.settle(api.pool("A")) == 0 and organiser.settle(api.pool("B")) == 0
        finally:
            if organiser is not None:
                organiser.close()
            api.close()
            service.stop()
