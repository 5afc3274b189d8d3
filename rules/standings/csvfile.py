"""The CSV files the standings read (results, decisions): rows with their lines, and names.

A header is checked (required columns, none unknown or twice); each data row comes
with its line so a refusal can name it; a spreadsheet's empty row is skipped; text
that is not CSV is refused at its line. A pool or team name has no control
character, no '>' (the decisions file separates teams with it) and at most
``MAX_NAME`` characters; cells are trimmed and NFC-normalised.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterator, Sequence
from typing import cast

from rules.errors import ResultsError

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

MAX_NAME = 100
"""Characters in a pool or team name."""
MAX_ROWS = 20_000
"""Lines of a results or decisions file: the largest youth tournaments (1,700 teams) play about 5,000 matches."""


def name_problem(name: str, what: str) -> str | None:
    """Why ``name`` cannot name a pool or team (``what``), or None when it can."""
    if _CONTROL.search(name):
        return f"the {what} name {name!r} has a control character"
    if len(name) > MAX_NAME:
        return f"the {what} name is {len(name)} characters long; at most {MAX_NAME}"
    if ">" in name:
        return f"the {what} name {name!r} has a '>', which separates teams in the decisions file"
    return None


def cell(row: dict[str | None, str | list[str] | None], column: str) -> str:
    """The cell of ``column``, trimmed; empty when the row is short of it."""
    value = row.get(column)
    # NFC: "Köln" typed on one machine and pasted from another is one team, whichever way its ö was composed.
    if not isinstance(value, str):
        return ""
    value = value.strip()
    return value if value.isascii() else unicodedata.normalize("NFC", value)


def csv_rows(text: str, source: str, required: tuple[str, ...], optional: tuple[str, ...]
             ) -> Iterator[tuple[int, dict[str | None, str | list[str] | None]]]:
    """The data rows of a CSV file with a checked header, each with its line number.

    A spreadsheet's empty row (",,,,") is skipped like a blank line; a row with
    more cells than the header is refused at its line. Text that is not CSV (a
    quote left open, a cell beyond the csv module's size limit) is refused at its
    line rather than escaping as the module's own error.
    """
    rows = text.count("\n")
    if rows > MAX_ROWS:
        raise ResultsError(source, None, f"the file has {rows} lines; a file of this kind has at most {MAX_ROWS}")
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff")), strict=True)
    try:
        check_header(reader.fieldnames, required, optional, source)
        reader.fieldnames = [name.strip() for name in reader.fieldnames or ()]
        for row in reader:
            cells = cast(dict[str | None, str | list[str] | None], row)
            if None in cells:
                columns = len(cells) - 1
                raise ResultsError(source, reader.line_num, f"more cells than the {columns} columns of the header")
            if any(isinstance(value, str) and value.strip() for value in cells.values()):
                yield reader.line_num, cells
    except csv.Error as err:
        # line_num counts the lines read before the row that failed: that row starts on the next
        raise ResultsError(source, reader.line_num + 1, f"not readable as CSV ({err})") from None


def check_header(fieldnames: Sequence[str] | None, required: tuple[str, ...], optional: tuple[str, ...],
                 source: str) -> None:
    """Refuse a header that lacks a required column or has one nobody reads."""
    if not fieldnames:
        raise ResultsError(source, 1, f"the file is empty; the header needs {', '.join(required)}")
    names = [name.strip() for name in fieldnames]
    missing = [c for c in required if c not in names]
    if missing:
        raise ResultsError(source, 1, f"missing column(s) {', '.join(missing)}; the header needs {', '.join(required)}")
    unknown = [c for c in names if c not in required and c not in optional]
    if unknown:
        raise ResultsError(
            source, 1, f"unknown column(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(required + optional)}"
        )
    duplicated = sorted({c for c in names if names.count(c) > 1})
    if duplicated:
        raise ResultsError(source, 1, f"column(s) {', '.join(duplicated)} appear twice")
