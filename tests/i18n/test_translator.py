"""Translator: lookups, plural forms, numbers per locale, English fallback, pseudo-locale, Msg."""

from __future__ import annotations

import pytest

from bot.i18n import Msg, language_of, msg, nmsg, table_language, translator, user_language


def test_lookups_in_each_language() -> None:
    assert translator("fr")._("The game") == "Le jeu"
    assert translator("es")._("The game") == "El juego"
    assert translator("cs")._("The game") == "Hra"
    assert translator("en")._("The game") == "The game"
    assert translator("fr")._("From now on Tapis writes to you in {language}.", language="Français") == (
        "Désormais, Tapis vous écrit en Français.")


def test_missing_text_and_unknown_language_fall_back_to_english_never_a_key() -> None:
    assert translator("cs")._("A sentence nobody translated, {who}.", who="bob") == (
        "A sentence nobody translated, bob.")
    assert translator("de")._("The game") == "The game"  # no German catalogue: English
    assert translator(None).lang == "en"
    assert translator("fr").p_("rank", "Nope") == "Nope"


@pytest.mark.parametrize(("n", "cs", "fr", "es"), [
    (1, "1 žeton", "1 jeton", "1 ficha"),
    (2, "2 žetony", "2 jetons", "2 fichas"),
    (4, "4 žetony", "4 jetons", "4 fichas"),
    (5, "5 žetonů", "5 jetons", "5 fichas"),
    (0, "0 žetonů", "0 jeton", "0 fichas"),  # French treats 0 as singular (CLDR)
    (22, "22 žetonů", "22 jetons", "22 fichas"),  # Czech "few" is 2-4 only, not 22-24
])
def test_plural_forms(n: int, cs: str, fr: str, es: str) -> None:
    assert translator("cs").jetons(n) == cs
    assert translator("fr").jetons(n) == fr
    assert translator("es").jetons(n) == es
    assert translator("en").jetons(n) == (f"{n} jeton" if n == 1 else f"{n} jetons")


def test_numbers_per_locale() -> None:
    assert translator("en").number(1234567) == "1234567"  # the source language keeps its digits
    assert translator("fr").number(1234567) == "1\u202f234\u202f567"  # narrow no-break spaces
    assert translator("cs").number(1234567) == "1\xa0234\xa0567"
    assert translator("es").number(1234567) == "1.234.567"
    assert translator("fr").jetons(12000) == "12\u202f000 jetons"
    assert translator("fr").signed(-1500) == "−1\u202f500"
    assert translator("en").signed(7) == "+7" and translator("en").signed(0) == "0"


def test_a_negative_number_takes_a_true_minus_sign() -> None:
    """A score below zero (the Maître's points, a rating's net) is written as the signed figures are,
    "−8", not with the hyphen Babel writes."""
    assert translator("en").number(-8) == "−8" and translator("en").number(-8.5) == "−8.5"
    assert translator("fr").number(-1500) == "−1\u202f500" and translator("cs").number(-3) == "−3"
    assert translator("es").number(0) == "0" and translator("es").number(12) == "12"


def test_pseudo_locale_marks_every_catalogue_text_only() -> None:
    tr = translator("pseudo")
    assert tr._("{who} plays {card}.", who="bob", card="Q♥") == "⟦bob plays Q♥.⟧"
    assert tr.jetons(3) == "⟦3 jetons⟧"
    assert tr.p_("rank", "Queen") == "⟦Queen⟧"


def test_lazy_messages_render_in_the_readers_language() -> None:
    m = msg("From now on Tapis writes to you in {language}.", language="Čeština")
    assert m.render(translator("cs")) == "Od teď vám Tapis bude psát v jazyce Čeština."
    assert str(m) == "From now on Tapis writes to you in Čeština."
    assert nmsg("{n} jeton", "{n} jetons", 3).render(translator("cs")) == "3 žetony"
    nested = Msg("Tapis now follows your Discord language ({language}).",
                 {"language": Msg("The game")})
    assert nested.render(translator("es")) == "Tapis sigue ahora el idioma de tu Discord (El juego)."


def test_discord_locales_map_to_our_languages() -> None:
    assert language_of("fr") == "fr"
    assert language_of("es-ES") == language_of("es-419") == "es"
    assert language_of("cs") == "cs"
    assert language_of("en-US") == language_of("en-GB") == "en"
    assert language_of("de") is None and language_of(None) is None and language_of("") is None
    assert language_of("fr-CA") == "fr"


def test_who_reads_which_language() -> None:
    # ephemeral / DM: the /language choice, else the client's locale, else English
    assert user_language("cs", "es-ES") == "cs"
    assert user_language(None, "es-419") == "es"
    assert user_language(None, "ja") == "en"
    # a table: its option, else the server's language, else English
    assert table_language("fr", "cs") == "fr"
    assert table_language(None, "cs") == "cs"
    assert table_language(None, "pt-BR") == "en"
