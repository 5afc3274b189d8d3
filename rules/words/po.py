"""Read a gettext ``.po`` catalog and compile it to ``.mo`` bytes, in memory (what ``msgfmt`` does).

Only the parts of the PO format the catalogs use: ``msgctxt``, ``msgid``, ``msgid_plural``,
``msgstr`` / ``msgstr[n]``, continued string lines, ``#`` comments and the ``fuzzy`` flag.
"""

from __future__ import annotations

import ast
import struct

from rules.errors import FileLineError
from rules.record import Record, field

MO_MAGIC = 0x950412DE


class Entry(Record, frozen=False):
    """One message: ``msgstr`` holds one string, or one per plural form."""

    msgid: str
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    fuzzy: bool = False
    line: int = 0

    @property
    def key(self) -> str:
        """The lookup key as gettext stores it: context, EOT, id (plural ids joined by NUL)."""
        ident = self.msgid if self.msgid_plural is None else f"{self.msgid}\0{self.msgid_plural}"
        return ident if self.msgctxt is None else f"{self.msgctxt}\x04{ident}"

    @property
    def translated(self) -> bool:
        return not self.fuzzy and bool(self.msgstr) and all(self.msgstr)


def _string(text: str, source: str, line: int) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise FileLineError(source, line, f"expected a quoted string, got {text!r}")
    try:
        value = ast.literal_eval(text)
    except (SyntaxError, ValueError):
        raise FileLineError(source, line, f"bad string {text!r}") from None
    if not isinstance(value, str):
        raise FileLineError(source, line, f"bad string {text!r}")
    return value


def parse_po(text: str, source: str) -> list[Entry]:
    """Every entry of a ``.po`` text, the header (``msgid ""``) included, in file order."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int] | None = None  # which field a continued string line extends
    fuzzy = False

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        word, _, rest = line.partition(" ")
        if line.startswith('"'):
            if current is None or target is None:
                raise FileLineError(source, number, "a continued string with nothing to continue")
            value = _string(line, source, number)
            name, index = target
            if name == "msgstr":
                current.msgstr[index] += value
            else:
                setattr(current, name, getattr(current, name) + value)
            continue
        if word == "msgctxt" or (word == "msgid" and (current is None or current.msgstr)):
            finish()
            current = Entry(msgid="", fuzzy=fuzzy, line=number)
            fuzzy = False
        if current is None:
            raise FileLineError(source, number, f"{word} before any msgid")
        if word in ("msgctxt", "msgid", "msgid_plural"):
            setattr(current, word, _string(rest, source, number))
            target = (word, 0)
        elif word == "msgstr" or word.startswith("msgstr["):
            index = 0 if word == "msgstr" else int(word[7:-1])
            if index != len(current.msgstr):
                raise FileLineError(source, number, f"{word} out of order")
            current.msgstr.append(_string(rest, source, number))
            target = ("msgstr", index)
        else:
            raise FileLineError(source, number, f"unknown keyword {word!r}")
    finish()
    return entries


def mo_bytes(entries: list[Entry]) -> bytes:
    """The GNU ``.mo`` file of the translated entries (the header always kept), UTF-8."""
    kept = sorted(
        ((e.key.encode(), "\0".join(e.msgstr).encode()) for e in entries if e.translated or e.msgid == ""),
        key=lambda pair: pair[0],
    )
    count = len(kept)
    originals_at = 7 * 4
    translations_at = originals_at + count * 8
    data_at = translations_at + count * 8
    table_o: list[int] = []
    table_t: list[int] = []
    blob = bytearray()
    for key, _value in kept:
        table_o += [len(key), data_at + len(blob)]
        blob += key + b"\0"
    for _key, value in kept:
        table_t += [len(value), data_at + len(blob)]
        blob += value + b"\0"
    header = struct.pack("<7I", MO_MAGIC, 0, count, originals_at, translations_at, 0, data_at)
    return header + struct.pack(f"<{2 * count}I", *table_o) + struct.pack(f"<{2 * count}I", *table_t) + bytes(blob)
