"""The words of the web pages as a gettext template, for the catalogs in rules/words/locale.

    .venv/bin/python -m server.web.pot > server/web/courtside-web.pot

The pages translate through the same catalogs as the court's screen (``rules.words.words_for``);
a word missing from a catalog shows in English. This lists every ``_("...")`` and
``pgettext("context", "...")`` of the templates, the desk's choices and the date words of
:mod:`server.web.words`, so a translator can add them to ``courtside.po`` of each language
(tests/test_web_pot.py checks that every one is translated).
"""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).parent / "templates"
_STR = r"""(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')"""
_WORD = re.compile(r"(?<![A-Za-z_])_\(\s*" + _STR + r"\s*\)")
_CONTEXT_WORD = re.compile(r"(?<![A-Za-z_])pgettext\(\s*" + _STR + r"\s*,\s*" + _STR + r"\s*\)")

Message = tuple[str | None, str]
"""(msgctxt, msgid): the context is None for a plain word."""


def _text(m: re.Match[str], first: int) -> str:
    found = m.group(first)
    return found if found is not None else m.group(first + 1)


def msgids() -> dict[Message, list[str]]:
    """Each word (with its context) and where it is used, in a stable order."""
    found: dict[Message, list[str]] = {}

    def add(message: Message, where: str) -> None:
        found.setdefault(message, [])
        if where not in found[message]:
            found[message].append(where)

    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(TEMPLATES.parent.parent.parent))
        for m in _WORD.finditer(text):
            add((None, _text(m, 1)), where)
        for m in _CONTEXT_WORD.finditer(text):
            add((_text(m, 1), _text(m, 3)), where)
    from server.desk import ABANDONED_ORDER  # translated where the desk shows them
    from server.web.words import DAY, LEVEL_UNTIL_COMPLETE, MONTHS, OUTCOMES, WEEKDAYS

    for _, label in ABANDONED_ORDER:
        add((None, label), "server/desk.py")
    add((None, DAY), "server/web/words.py")
    for level in LEVEL_UNTIL_COMPLETE.values():
        add((None, level), "server/web/words.py")
    for slot in OUTCOMES.values():
        add((None, slot), "server/web/words.py")
    for day in WEEKDAYS:
        add(("weekday", day), "server/web/words.py")
    for month in MONTHS:
        add(("month", month), "server/web/words.py")
    return dict(sorted(found.items(), key=lambda item: (item[0][1], item[0][0] or "")))


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def pot() -> str:
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', ""]
    for (context, word), where in msgids().items():
        lines.append(f"#: {' '.join(where)}")
        if context is not None:
            lines.append(f"msgctxt {_quoted(context)}")
        lines += [f"msgid {_quoted(word)}", 'msgstr ""', ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(pot(), end="")
