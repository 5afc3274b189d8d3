"""server.logs: one journald line per event, values quoted only when they must be, and parsed back."""

from __future__ import annotations

import io
import json
import re

from server.logs import line, log, log_lines

FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')  # how a reader of the journal splits a line


def test_plain_values_stand_as_they_are_and_none_is_left_out() -> None:
    assert line("message", status="stored", seq=12, ok=True, reason=None, share=1.5) == (
        "event=message status=stored seq=12 ok=true share=1.5"
    )


def test_a_value_with_a_space_quote_equals_or_newline_is_a_json_string() -> None:
    text = line("refused", reason='seq 3 is "late"', topic="a=b", note="two\nlines", empty="")
    fields = dict(FIELD.findall(text))
    assert json.loads(fields["reason"]) == 'seq 3 is "late"'
    assert json.loads(fields["topic"]) == "a=b"
    assert json.loads(fields["note"]) == "two\nlines"
    assert json.loads(fields["empty"]) == ""
    assert "\n" not in text  # one event, one line, whatever its values hold


def test_a_list_is_written_as_json_and_log_writes_one_line() -> None:
    out = io.StringIO()
    log("published", out, pools=["A", "B"], courts=2)
    assert out.getvalue() == 'event=published pools="[\\"A\\", \\"B\\"]" courts=2\n'


class CountingWrites(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


def test_a_batchs_lines_go_out_in_one_write_each_on_its_own_line() -> None:
    out = CountingWrites()
    log_lines([line("message", seq=1), line("message", seq=2, reason="late by one")], out)
    assert out.writes == 1
    assert out.getvalue().splitlines() == ["event=message seq=1", 'event=message seq=2 reason="late by one"']
    log_lines([], out)  # a batch with nothing to say writes nothing
    assert out.writes == 1
