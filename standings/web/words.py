"""Words on the pages, through the same gettext catalogs as the court's screen (rules.words).

A language with no catalog is refused when the app is built (rules.errors.UnknownLanguage);
a page's words missing from a catalog show in English, the source language.
"""

from __future__ import annotations

import gettext

from rules.words import words_for


def translations(lang: str | None) -> gettext.NullTranslations:
    return words_for(lang)
