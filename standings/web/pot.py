"""The words of the web pages as a gettext template, for the catalogs in rules/words/locale.

    .venv/bin/python -m standings.web.pot > standings/web/courtside-web.pot

The pages translate through the same catalogs as the court's screen (``rules.words.words_for``);
a word missing from a catalog shows in English. This lists every ``_("...")`` of the templates
so a translator can add them to ``courtside.po`` of each language.
"""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).parent / "templates"
_WORD = re.compile(r"""_\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*\)""")


def msgids() -> dict[str, list[str]]:
    """Each word with the templates that use it, in a stable order."""
    found: dict[str, list[str]] = {}
    for path in sorted(TEMPLATES.rglob("*.html")):
        for m in _WORD.finditer(path.read_text(encoding="utf-8")):
            word = m.group(1) if m.group(1) is not None else m.group(2)
            where = str(path.relative_to(TEMPLATES.parent.parent.parent))
            found.setdefault(word, [])
            if where not in found[word]:
                found[word].append(where)
    from standings.web.forms import ABANDONED_ORDER  # translated where the desk shows them

    for _, label in ABANDONED_ORDER:
        found.setdefault(label, []).append("standings/web/forms.py")
    return dict(sorted(found.items()))


def pot() -> str:
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', ""]
    for word, where in msgids().items():
        lines += [f"#: {' '.join(where)}", f'msgid "{word}"', 'msgstr ""', ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(pot(), end="")
