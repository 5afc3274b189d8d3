"""The PO reader and the in-memory .mo: what gettext reads back is what the .po says."""

from __future__ import annotations

import gettext
import io

import pytest

from rules.errors import FileLineError
from rules.words.po import mo_bytes, parse_po

PO = '''
msgid ""
msgstr ""
"Language: sk\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"

# a comment
msgctxt "water polo"
msgid "1st period"
msgstr "1. štvrtina"

msgid "Long "
"line"
msgstr "Dlhý "
"riadok"

msgid "{n} goal"
msgid_plural "{n} goals"
msgstr[0] "{n} gól"
msgstr[1] "{n} góly"
msgstr[2] "{n} gólov"

#, fuzzy
msgid "Unsure"
msgstr "Neisté"

msgid "Untranslated"
msgstr ""
'''


def test_po_to_mo_round_trip() -> None:
    t = gettext.GNUTranslations(io.BytesIO(mo_bytes(parse_po(PO, "test.po"))))
    assert t.pgettext("water polo", "1st period") == "1. štvrtina"
    assert t.gettext("1st period") == "1st period"
    assert t.gettext("Long line") == "Dlhý riadok"
    assert [t.ngettext("{n} goal", "{n} goals", n) for n in (1, 3, 7)] == ["{n} gól", "{n} góly", "{n} gólov"]
    assert t.gettext("Unsure") == "Unsure" and t.gettext("Untranslated") == "Untranslated"


@pytest.mark.parametrize(("text", "line"), [
    ('msgid "a"\nmsgstr b\n', 2),
    ('"orphan"\n', 1),
    ('msgstr "x"\n', 1),
    ('msgid "a"\nmsgstr[1] "x"\n', 2),
    ('msgid "a"\nmsgword "x"\n', 2),
])
def test_a_broken_catalog_names_the_line(text: str, line: int) -> None:
    with pytest.raises(FileLineError) as err:
        parse_po(text, "broken.po")
    assert err.value.line == line and err.value.source == "broken.po"
