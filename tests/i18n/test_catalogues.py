"""The catalogues: extracted template up to date, fr/es/cs complete, Babel's checkers + placeholders."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog, Message, TranslationError

from bot.i18n import tools
from bot.i18n.catalog import compile_catalog, read_catalog, read_template


def _keys(cat: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in cat if m.id}


def test_template_matches_the_code() -> None:
    """Every marked string and every slash-command text is in tapis.pot, and nothing stale is."""
    fresh, stored = _keys(tools.build_template()), _keys(read_template())
    assert fresh - stored == set(), "run: python -m bot.i18n extract && python -m bot.i18n update"
    assert stored - fresh == set(), "stale ids in tapis.pot: run python -m bot.i18n extract"


@pytest.mark.parametrize("lang", ["fr", "es", "cs"])
def test_every_message_translated_and_consistent(lang: str) -> None:
    """Non-empty, non-fuzzy, same placeholders, right number of plural forms (Babel's checkers)."""
    assert tools.problems(lang, read_template()) == []
    assert _keys(read_catalog(lang)) == _keys(read_template())


def test_czech_has_three_plural_forms() -> None:
    cat = read_catalog("cs")
    assert cat.num_plurals == 3
    plural = [m for m in cat if m.pluralizable]
    assert plural and all(len(m.string) == 3 and all(m.string) for m in plural)


def test_brace_checker_catches_a_wrong_placeholder() -> None:
    good = Message("{who} plays {card}.", "{who} joue {card}.")
    tools.brace_format(None, good)
    for bad in ("{qui} joue {card}.", "{who} joue.", "{who} joue {card} {extra}."):
        with pytest.raises(TranslationError):
            tools.brace_format(None, Message("{who} plays {card}.", bad))
    # a plural form may leave {n} out ("jedna karta"), nothing else
    tools.brace_format(None, Message(("{n} card", "{n} cards"), ("jedna karta", "{n} karty", "{n} karet")))
    with pytest.raises(TranslationError):
        tools.brace_format(None, Message(("{n} card of {who}", "{n} cards of {who}"),
                                         ("karta", "{n}", "{n}")))


def test_problems_reports_untranslated_fuzzy_and_wrong_plurals(tmp_path, monkeypatch) -> None:
    """The completeness check can fail: a hand-made Czech catalogue with three faults."""
    from babel.messages.pofile import write_po

    cat = Catalog(locale="cs", domain="tapis")
    cat.add("The game", "")
    cat.add("Number of seats", "Počet míst", flags=["fuzzy"])
    cat.add(("{n} jeton", "{n} jetons"), ("{n} žeton", "{n} žetony"))  # two forms, Czech needs three
    path = tmp_path / "cs.po"
    with path.open("wb") as fh:
        write_po(fh, cat)
    monkeypatch.setattr(tools, "po_path", lambda lang: path)
    found = tools.problems("cs")
    assert any("The game: untranslated" in p for p in found)
    assert any("Number of seats: fuzzy" in p for p in found)
    assert any("{n} jeton" in p for p in found), found  # the third Czech form is missing


def test_fuzzy_translation_falls_back_to_english() -> None:
    cat = Catalog(locale="fr", domain="tapis")
    cat.add("Join", "Rejoindre")
    cat.add("Leave", "Quitter (à revoir)", flags=["fuzzy"])
    gt = compile_catalog(cat)
    assert gt.gettext("Join") == "Rejoindre"
    assert gt.gettext("Leave") == "Leave"
    assert gt.gettext("Not in the catalogue") == "Not in the catalogue"
