"""The pure rules core shared by the table and the server: rulesets, matches, standings, tournaments.

This is the API the shells (firmware, display, the service, the command line) use, and they import it
from here::

    from rules import Match, Goal, load_ruleset, rank_pools

Each name is imported from its module on first use (PEP 562): ``import rules`` costs nothing, and the
table, which needs only the match, never loads the standings or the tournaments. A name is added here
when a shell needs it; the core's own modules import each other directly.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS: dict[str, tuple[str, ...]] = {
    "rules.court_schedule": (
        "CONTINUES", "CourtMatch", "CourtSchedule", "Suspended", "court_match_payload", "court_schedule_payload",
        "read_court_match", "read_court_schedule",
    ),
    "rules.errors": (
        "CourtsideError", "DemoError", "EventLogError", "FileLineError", "IllegalCommand", "ProtocolError",
        "ResultsError", "TournamentError",
    ),
    "rules.files": ("MAX_DECISIONS_BYTES", "MAX_RESULTS_BYTES", "read_text"),
    "rules.live": ("LiveBoard", "LivePenalty", "clock_at", "live_payload"),
    "rules.match.applied": ("Applied",),
    "rules.match.clock": ("format_clock",),
    "rules.match.engine": ("Match",),
    "rules.match.events": (
        "ClockStarted", "ClockStopped", "Event", "Goal", "MatchReplayed", "MatchResumed", "PenaltyAwarded",
        "PeriodAdvanced", "ShootoutAttempt", "Side", "TimeoutStarted",
    ),
    "rules.match.header": ("LogHeader",),
    "rules.match.log": ("ParsedLog", "event_from_dict", "event_to_dict", "event_to_line", "header_to_line", "read_log"),
    "rules.match.outcome": ("Result",),
    "rules.match.state": ("MatchState",),
    "rules.match.timeline": ("MatchTimeline", "match_timeline"),
    "rules.protocol": ("MAX_SERVICE_BYTES", "court_topic", "parse_broker"),
    "rules.result": (
        "RUN_OUT_MS", "of_standings", "read_result", "result_of", "result_payload", "standings_result", "winner_team",
    ),
    "rules.ruleset": ("PRESETS", "StageKind", "load_ruleset", "preset_text", "read_ruleset_file", "stage_of_round"),
    "rules.ruleset_model": ("Ruleset",),
    "rules.standings.decisions": ("Decision", "decision_problem", "read_decisions_csv"),
    "rules.standings.fairplay": ("match_points", "parse_fair_play_csv"),
    "rules.standings.results": (
        "MatchResult", "OPTIONAL_COLUMNS", "Outcome", "REQUIRED_COLUMNS", "match_winner", "parse_results_csv",
        "read_results_csv",
    ),
    "rules.standings.table": ("PoolTable", "Standings", "TableRow", "Unresolved", "rank_pool", "rank_pools"),
    "rules.tomlfile": ("open_file",),
    "rules.tournament.cup": ("Cup", "TournamentClass", "load_cup_rulesets", "parse_cup", "read_cup_file"),
    "rules.tournament.cup_plan": ("CupPlan", "draw_classes", "plan_cup"),
    "rules.tournament.draw": ("DrawResult", "make_draw", "pool_teams"),
    "rules.tournament.loading": ("ruleset_path",),
    "rules.tournament.model": ("Tournament",),
    "rules.tournament.placeholders": ("WinnerOrLoser", "parse_placeholder"),
    "rules.tournament.progression": ("KeptProgress", "PoolState", "Progress", "Slot", "progress"),
    "rules.tournament.scorers": ("PlayedMatch", "Scorer", "top_scorers"),
    "rules.tournament.schedule": ("ScheduledFields", "ScheduledMatch", "TournamentSchedule"),
    "rules.tournament.sheets": ("TeamSheet", "parse_sheet_csv", "team_sheets"),
    "rules.words": ("SOURCE_LANGUAGE", "words_for"),
    "rules.words.board": ("golden_goal", "interval_title", "period_title", "result_how", "round_title"),
    "rules.words.standings": ("Phrase", "Words", "reason_text"),
    "rules.words.state": (
        "Translate", "applied_text", "board_period_text", "clock_text", "penalty_text", "period_name", "refusal_text",
        "side_text", "state_text",
    ),
}

_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'rules' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_MODULE_OF})


# The same names for type checkers, each `X as X` an explicit re-export (tests/test_rules_init.py checks the two
# lists agree). Kept in this compact form, so isort (I001) is off for this file.
if TYPE_CHECKING:
    from rules.court_schedule import (
        CONTINUES as CONTINUES, CourtMatch as CourtMatch, CourtSchedule as CourtSchedule, Suspended as Suspended,
        court_match_payload as court_match_payload, court_schedule_payload as court_schedule_payload,
        read_court_match as read_court_match, read_court_schedule as read_court_schedule,
    )
    from rules.errors import (
        CourtsideError as CourtsideError, DemoError as DemoError, EventLogError as EventLogError,
        FileLineError as FileLineError, IllegalCommand as IllegalCommand, ProtocolError as ProtocolError,
        ResultsError as ResultsError, TournamentError as TournamentError,
    )
    from rules.files import (
        MAX_DECISIONS_BYTES as MAX_DECISIONS_BYTES, MAX_RESULTS_BYTES as MAX_RESULTS_BYTES, read_text as read_text,
    )
    from rules.live import (
        LiveBoard as LiveBoard, LivePenalty as LivePenalty, clock_at as clock_at, live_payload as live_payload,
    )
    from rules.match.applied import Applied as Applied
    from rules.match.clock import format_clock as format_clock
    from rules.match.engine import Match as Match
    from rules.match.events import (
        ClockStarted as ClockStarted, ClockStopped as ClockStopped, Event as Event, Goal as Goal,
        MatchReplayed as MatchReplayed, MatchResumed as MatchResumed, PenaltyAwarded as PenaltyAwarded,
        PeriodAdvanced as PeriodAdvanced, ShootoutAttempt as ShootoutAttempt, Side as Side,
        TimeoutStarted as TimeoutStarted,
    )
    from rules.match.header import LogHeader as LogHeader
    from rules.match.log import (
        ParsedLog as ParsedLog, event_from_dict as event_from_dict, event_to_dict as event_to_dict,
        event_to_line as event_to_line, header_to_line as header_to_line, read_log as read_log,
    )
    from rules.match.outcome import Result as Result
    from rules.match.state import MatchState as MatchState
    from rules.match.timeline import MatchTimeline as MatchTimeline, match_timeline as match_timeline
    from rules.protocol import (
        MAX_SERVICE_BYTES as MAX_SERVICE_BYTES, court_topic as court_topic, parse_broker as parse_broker,
    )
    from rules.result import (
        RUN_OUT_MS as RUN_OUT_MS, of_standings as of_standings, read_result as read_result, result_of as result_of,
        result_payload as result_payload, standings_result as standings_result, winner_team as winner_team,
    )
    from rules.ruleset import (
        PRESETS as PRESETS, StageKind as StageKind, load_ruleset as load_ruleset, preset_text as preset_text,
        read_ruleset_file as read_ruleset_file, stage_of_round as stage_of_round,
    )
    from rules.ruleset_model import Ruleset as Ruleset
    from rules.standings.decisions import (
        Decision as Decision, decision_problem as decision_problem, read_decisions_csv as read_decisions_csv,
    )
    from rules.standings.fairplay import match_points as match_points, parse_fair_play_csv as parse_fair_play_csv
    from rules.standings.results import (
        MatchResult as MatchResult, OPTIONAL_COLUMNS as OPTIONAL_COLUMNS, Outcome as Outcome,
        REQUIRED_COLUMNS as REQUIRED_COLUMNS, match_winner as match_winner, parse_results_csv as parse_results_csv,
        read_results_csv as read_results_csv,
    )
    from rules.standings.table import (
        PoolTable as PoolTable, Standings as Standings, TableRow as TableRow, Unresolved as Unresolved,
        rank_pool as rank_pool, rank_pools as rank_pools,
    )
    from rules.tomlfile import open_file as open_file
    from rules.tournament.cup import (
        Cup as Cup, TournamentClass as TournamentClass, load_cup_rulesets as load_cup_rulesets, parse_cup as parse_cup,
        read_cup_file as read_cup_file,
    )
    from rules.tournament.cup_plan import CupPlan as CupPlan, draw_classes as draw_classes, plan_cup as plan_cup
    from rules.tournament.draw import DrawResult as DrawResult, make_draw as make_draw, pool_teams as pool_teams
    from rules.tournament.loading import ruleset_path as ruleset_path
    from rules.tournament.model import Tournament as Tournament
    from rules.tournament.placeholders import WinnerOrLoser as WinnerOrLoser, parse_placeholder as parse_placeholder
    from rules.tournament.progression import (
        KeptProgress as KeptProgress, PoolState as PoolState, Progress as Progress, Slot as Slot,
        progress as progress,
    )
    from rules.tournament.scorers import (
        PlayedMatch as PlayedMatch, Scorer as Scorer, top_scorers as top_scorers,
    )
    from rules.tournament.schedule import (
        ScheduledFields as ScheduledFields, ScheduledMatch as ScheduledMatch, TournamentSchedule as TournamentSchedule,
    )
    from rules.tournament.sheets import (
        TeamSheet as TeamSheet, parse_sheet_csv as parse_sheet_csv, team_sheets as team_sheets,
    )
    from rules.words import SOURCE_LANGUAGE as SOURCE_LANGUAGE, words_for as words_for
    from rules.words.board import (
        golden_goal as golden_goal, interval_title as interval_title, period_title as period_title,
        result_how as result_how, round_title as round_title,
    )
    from rules.words.standings import Phrase as Phrase, Words as Words, reason_text as reason_text
    from rules.words.state import (
        Translate as Translate, applied_text as applied_text, board_period_text as board_period_text,
        clock_text as clock_text, penalty_text as penalty_text, period_name as period_name,
        refusal_text as refusal_text, side_text as side_text, state_text as state_text,
    )
