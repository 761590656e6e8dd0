"""Loading the ``.po`` sources into gettext catalogues, once per language.

No compiled ``.mo`` is kept in git: at first use each ``bot/locales/<lang>/LC_MESSAGES/tapis.po``
is parsed with Babel (``babel.messages.pofile.read_po``), compiled in memory
(``babel.messages.mofile.write_mo``, which leaves fuzzy entries out) and loaded as a standard
``gettext.GNUTranslations``, so lookups and plural rules are the standard library's. The result
is cached per language; every language falls back to the English source catalogue, which falls
back to the message id itself (English text, never a key).
"""

from __future__ import annotations

import functools
import gettext
import io
import re
from importlib import resources
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.i18n.languages import LANGUAGES, SOURCE

DOMAIN = "tapis"
#: msgctxt of slash-command, group and parameter names (Discord: lower case, no spaces, ≤ 32).
SLASH_NAME = "slash name"
SLASH_NAME_RE = re.compile(r"^[-_\w]{1,32}$")


def locales_dir() -> Path:
    """The folder holding ``<lang>/LC_MESSAGES/tapis.po`` and the template ``tapis.pot``."""
    return Path(str(resources.files("bot").joinpath("locales")))


def po_path(lang: str) -> Path:
    return locales_dir() / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def pot_path() -> Path:
    return locales_dir() / f"{DOMAIN}.pot"


def read_catalog(lang: str) -> Catalog:
    """The Babel ``Catalog`` of one language's ``.po`` source (for tools and tests)."""
    with po_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def read_template() -> Catalog:
    """The extracted template ``tapis.pot``."""
    with pot_path().open("rb") as fh:
        return read_po(fh, domain=DOMAIN)


def compile_catalog(catalog: Catalog) -> gettext.GNUTranslations:
    """A standard-library translations object from a Babel catalogue (fuzzy entries left out)."""
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The cached gettext catalogue of ``lang`` (an unknown language gets the English one)."""
    if lang not in LANGUAGES:
        lang = SOURCE
    path = po_path(lang)
    if not path.exists():  # a language listed but not written yet: the source text
        return gettext.NullTranslations()
    found = compile_catalog(read_catalog(lang))
    if lang != SOURCE:
        found.add_fallback(translations(SOURCE))
    return found


def reload() -> None:
    """Forget the cached catalogues (after editing a ``.po`` in a running process or a test)."""
    translations.cache_clear()
