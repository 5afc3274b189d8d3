"""courtside.demo.progress: matches played per court and the final ranking, from the service's API data."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from courtside.demo.progress import progress_of, ranking_text, result_line, results_csv_for_show

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"


def _match(number: int, court: str, result: bool, live: bool = False) -> dict[str, Any]:
    return {"number": number, "court": court, "stage": "A", "home": f"H{number}", "away": f"A{number}",
            "live": live, "result": {"home_goals": 1, "away_goals": 0} if result else None}


def test_progress_counts_stored_results_per_court_in_schedule_order() -> None:
    matches = [_match(1, "Hall 1", True), _match(2, "Hall 2", True), _match(3, "Hall 1", False, live=True),
               _match(4, "Hall 2", False)]
    progress = progress_of(matches)
    assert (progress.played, progress.total, progress.finished) == (2, 4, False)
    assert progress.line() == "played 2/4  |  Hall 1 1/2  Hall 2 1/2"
    assert progress.courts[0].live == "Hall 1: A H3 v A3"
    assert progress_of([_match(1, "Rink", True)]).finished
    assert not progress_of([]).finished


def test_a_result_line_says_how_a_level_match_was_decided() -> None:
    match = {"number": 19, "stage": "P34", "court": "Hall 1", "home": "Slavia Praha", "away": "HC Bloemendaal",
             "result": {"home_goals": 2, "away_goals": 2, "outcome": "shootout", "home_shootout": 4,
                        "away_shootout": 3}}
    assert result_line(match) == "  match 19 (P34, Hall 1): Slavia Praha 2-2 HC Bloemendaal after a shoot-out 4-3"
    match["result"] = {"home_goals": 3, "away_goals": 1, "outcome": "regular"}
    assert result_line(match) == "  match 19 (P34, Hall 1): Slavia Praha 3-1 HC Bloemendaal"


def test_ranking_text_lists_places_and_what_an_open_one_needs() -> None:
    text = ranking_text([{"place": 1, "team": "Slavia Praha", "needs": None},
                         {"place": 2, "team": "loser F", "needs": "the final"}], "Cup")
    assert text == "Final ranking: Cup\n   1  Slavia Praha\n   2  loser F  (the final)\n"


def test_the_services_results_export_is_cut_to_what_tournament_show_reads(tmp_path: Path) -> None:
    api = ("number,pool,home,away,home_goals,away_goals,outcome,winner,home_shootout,away_shootout,court,start,"
           "recorded_by,locked\n"
           "1,A,Rot-Weiss Köln,Slavia Praha,2,1,regular,Rot-Weiss Köln,,,Hall 1,2026-01-16T17:00,Hall 1,no\n")
    cut = results_csv_for_show(api)
    assert cut.splitlines()[0] == "pool,home,away,home_goals,away_goals,outcome,winner,home_shootout,away_shootout"
    results = tmp_path / "results.csv"
    results.write_text(cut, encoding="utf-8")
    shown = subprocess.run(
        [sys.executable, "-c", "import sys; from courtside.cli import main; sys.exit(main(sys.argv[1:]))",
         "tournament", "show", str(EXAMPLES / "indoor-hockey.toml"), "--results", str(results)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert shown.returncode == 0, shown.stderr
    assert "Rot-Weiss Köln" in shown.stdout
