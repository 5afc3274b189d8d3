"""Words on the pages, through the same gettext catalogs as the court's screen (rules/words).

Until the catalog of a language is there, English (the source strings) is shown.
"""

from __future__ import annotations

import gettext
import importlib
from typing import Any


def translations(lang: str) -> gettext.NullTranslations:
    try:
        words = importlib.import_module("rules.words")
    except ImportError:
        return gettext.NullTranslations()
    lookup: Any = getattr(words, "words_for", None)
    if lookup is None:
        return gettext.NullTranslations()
    try:
        found = lookup(lang)
    except (LookupError, ValueError, OSError):
        return gettext.NullTranslations()
    if isinstance(found, gettext.NullTranslations):
        return found
    # words_for may give an object with gettext/ngettext; wrap anything else that quacks alike.
    wrapper = gettext.NullTranslations()
    wrapper.gettext = found.gettext  # type: ignore[method-assign]
    wrapper.ngettext = found.ngettext  # type: ignore[method-assign]
    return wrapper
