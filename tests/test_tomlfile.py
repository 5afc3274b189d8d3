"""The bytes of a TOML file a user wrote: every way they can be wrong is one sentence, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.tomlfile import DocumentError, decode_toml, read_bytes


def test_a_byte_order_mark_is_skipped_in_bytes_and_in_text() -> None:
    assert decode_toml(b"\xef\xbb\xbfa = 1\n", 100, 10) == {"a": 1}
    assert decode_toml("\ufeffa = 1\n", 100, 10) == {"a": 1}


def test_not_utf8_names_the_line_and_the_byte() -> None:
    with pytest.raises(DocumentError) as caught:
        decode_toml(b"a = 1\nb = '\xff'\n", 100, 10)
    assert caught.value.line == 2 and "byte 0xff" in str(caught.value)


@pytest.mark.parametrize(("raw", "expected"), [
    (b"a = 1\n" * 20, "larger than 100 bytes"),
    (b"\n" * 50, "51 lines"),
    (b"a = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "not valid TOML"),
])
def test_limits_are_named(raw: bytes, expected: str) -> None:
    with pytest.raises(DocumentError, match=expected):
        decode_toml(raw, 100, 10 if b"[" not in raw else 1000)


def test_python_limits_inside_the_parser_become_refusals() -> None:
    with pytest.raises(DocumentError, match="nested too deeply"):
        decode_toml("a = " + "[" * 100_000 + "]" * 100_000, 10**6, 10)
    with pytest.raises(DocumentError, match="digits"):
        decode_toml("a = " + "7" * 5000, 10**6, 10)


def test_reading_stops_one_byte_past_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * 1000)
    with pytest.raises(DocumentError, match="larger than 999 bytes"):
        read_bytes(path, 999)
    assert read_bytes(path, 1000) == b"#" * 1000
    with pytest.raises(DocumentError, match="cannot read the file"):
        read_bytes(tmp_path / "missing.toml", 10)
