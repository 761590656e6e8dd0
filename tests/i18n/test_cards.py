"""Card names per deck and language."""

from __future__ import annotations

from bot.i18n import cards, translator


def test_french_deck_short_and_full() -> None:
    fr, es, cs, en = (translator(x) for x in ("fr", "es", "cs", "en"))
    assert [cards.short(c, fr) for c in ("QH", "JS", "KD", "AC", "10H")] == ["D♥", "V♠", "R♦", "A♣", "10♥"]
    assert [cards.short(c, en) for c in ("QH", "JS")] == ["Q♥", "J♠"]
    assert cards.name("QH", fr) == "dame de cœur" and cards.name("JC", fr) == "valet de trèfle"
    assert cards.name("KS", es) == "rey de picas" and cards.name("JD", es) == "jota de diamantes"
    assert cards.name("QH", cs) == "svršek srdcí" and cards.name("JC", cs) == "spodek křížů"
    assert cards.name("QH", en) == "Queen of hearts"
    assert cards.short_many(["QH", "7S"], fr) == "D♥ 7♠" and cards.short_many([], fr) == "—"


def test_marias_suits_in_czech() -> None:
    cs = translator("cs")
    assert [cards.suit_name(s, cs, marias=True) for s in "HDSC"] == ["srdce", "kule", "zelené", "žaludy"]
    assert [cards.suit_name(s, cs) for s in "HDSC"] == ["srdce", "káry", "piky", "kříže"]
    assert cards.name("AD", cs, marias=True) == "eso kulí"
    assert cards.name("AD", translator("fr"), marias=True) == "as de carreau"


def test_spanish_deck() -> None:
    es, fr, en, cs = (translator(x) for x in ("es", "fr", "en", "cs"))
    assert [cards.name(c, es, spanish=True) for c in ("12C", "11O", "10E", "1B", "3O")] == [
        "rey de copas", "caballo de oros", "sota de espadas", "as de bastos", "3 de oros"]
    assert cards.short("12C", es, spanish=True) == "rey de copas"
    assert cards.name("11O", fr, spanish=True) == "cavalier de deniers"
    assert cards.name("12C", en, spanish=True) == "King of cups"
    assert cards.name("1E", cs, spanish=True) == "eso mečů"
    assert cards.rank_name("10", es, spanish=True) == "sota"


def test_jokers() -> None:
    assert cards.short("X1", translator("es")) == "Comodín"
    assert cards.name("X2", translator("cs")) == "Žolík²"


def test_card_text_follows_the_pack_the_reader_sees() -> None:
    """Issue 30: at a Marias table with the Czech pack, the German suits in every language (♥️ 🔔
    🍃 🌰; Unter / Ober, spodek / svršek); four-colour faces colour the suit signs of text too."""
    from bot.rules import GAMES
    from bot.rules.looks import CZECH, FOUR_COLOUR, FRENCH, Look

    czech = Look(CZECH)
    en, cs, fr, es = (translator(lang).dressed(czech) for lang in ("en", "cs", "fr", "es"))
    assert [en.card(c) for c in ("QH", "JD", "KS", "AC", "10H")] == ["O♥️", "U🔔", "K🍃", "A🌰", "10♥️"]
    assert [cs.card(c) for c in ("QH", "JD", "KS", "AC")] == ["Sv♥️", "Sp🔔", "K🍃", "A🌰"]
    assert cards.name("QH", en) == "Ober of hearts" and cards.name("JD", en) == "Unter of bells"
    assert cards.name("QH", cs) == "svršek srdcí" and cards.name("AC", cs) == "eso žaludů"
    assert cards.name("KS", fr) == "roi de feuilles" and cards.name("JC", es) == "Unter de bellotas"
    assert [cs.suit(s, marias=True) for s in "HDSC"] == ["srdce", "kule", "zelené", "žaludy"]
    assert [en.suit(s, marias=True) for s in "HDSC"] == ["hearts", "bells", "leaves", "acorns"]
    assert fr.card("KD") == "R🔔" and es.card("KD") == "R🔔"
    marias = GAMES["marias"]
    assert marias.label({"type": "trump", "card": "JD"}, en) == "Trump 🔔 (U🔔)"
    # the French preference keeps the French suits; without a look, the text is as before
    french = translator("cs").dressed(Look(FRENCH))
    assert french.card("QH") == translator("cs").card("QH") == "Sv♥"
    assert french.suit("D", marias=True) == "kule"
    four = translator("en").dressed(Look(FRENCH, FOUR_COLOUR))
    assert [four.card(c) for c in ("QS", "QH", "QD", "QC")] == ["Q♠", "Q♥️", "Q🔷", "Q☘️"]
    assert four.dressed(None) is translator("en") and four.dressed(Look(FRENCH, FOUR_COLOUR)) is four
