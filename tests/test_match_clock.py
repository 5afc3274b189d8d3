"""Clock arithmetic and the way the clock reads."""

from __future__ import annotations

from rules.match.clock import elapsed, format_clock, instant_of


def test_elapsed_is_derived_from_the_start_and_capped_at_the_period() -> None:
    assert elapsed(5_000, None, 60_000, 999_999) == 5_000  # stopped: stays put
    assert elapsed(5_000, 10_000, 60_000, 12_500) == 7_500
    assert elapsed(5_000, 10_000, 60_000, 999_999) == 60_000
    assert elapsed(5_000, 10_000, 60_000, 9_000) == 5_000  # asked before the start


def test_instant_of_inverts_elapsed() -> None:
    at = instant_of(5_000, 10_000, 60_000)
    assert at == 65_000 and elapsed(5_000, 10_000, 60_000, at) == 60_000


def test_counting_down_rounds_up_and_counting_up_rounds_down() -> None:
    assert format_clock(1_200_000, tenths=False, down=True) == "20:00"
    assert format_clock(1_199_001, tenths=False, down=True) == "20:00"
    assert format_clock(1_199_001, tenths=False, down=False) == "19:59"
    assert format_clock(59_950, tenths=True, down=True) == "1:00.0"
    assert format_clock(59_900, tenths=True, down=True) == "59.9"
    assert format_clock(1, tenths=True, down=True) == "0.1"
    assert format_clock(0, tenths=True, down=True) == "0.0"
    assert format_clock(75_300, tenths=True, down=True) == "1:15.3"
