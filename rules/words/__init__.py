"""The words shown to people, in the tournament's language: gettext catalogs shared by the screen and the web.

English is the source language (the ``msgid`` strings in the code); Swedish and Slovak
catalogs ship beside this file as ``locale/<lang>/LC_MESSAGES/courtside.po``. The ``.po``
text is the only copy: :func:`words_for` compiles it in memory into the ``.mo`` form that
:class:`gettext.GNUTranslations` reads, so there is no binary to keep in step with it.

>>> _ = words_for("sv").gettext
>>> _("Half-time")
'Halvtid'
>>> words_for(None).gettext("Half-time")
'Half-time'
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from rules.errors import UnknownLanguage
from rules.words.po import mo_bytes, parse_po

DOMAIN = "courtside"
SOURCE_LANGUAGE = "en"
LANGUAGES = ("en", "sv", "sk")
"""The languages shipped: English (the source), Swedish and Slovak (the seed tournaments' languages)."""

LOCALE_DIR = Path(__file__).with_name("locale")


def catalog_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def normalise(lang: str | None) -> str:
    """``"sv_SE.UTF-8"``, ``"SK-sk"``, ``"en"`` -> the two-letter code; None or "" -> English."""
    if not lang:
        return SOURCE_LANGUAGE
    return lang.strip().replace("-", "_").split("_")[0].split(".")[0].lower()


def words_for(lang: str | None) -> gettext.NullTranslations:
    """The translations for ``lang`` (see :func:`normalise`); English gives the source strings.

    A language with no catalog is refused (:class:`~rules.errors.UnknownLanguage`) rather
    than silently shown in English: an organiser who typed ``language = "se"`` should hear.
    """
    return _load(normalise(lang))


@cache
def _load(code: str) -> gettext.NullTranslations:
    if code == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    path = catalog_path(code)
    if code not in LANGUAGES or not path.is_file():
        raise UnknownLanguage(f"no catalog for language {code!r}; shipped: {', '.join(LANGUAGES)}")
    entries = parse_po(path.read_text(encoding="utf-8"), str(path))
    return gettext.GNUTranslations(io.BytesIO(mo_bytes(entries)))
