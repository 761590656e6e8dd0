"""Labels and narration of the games in the reader's language (the rules core takes a ``Text``)."""

from __future__ import annotations

from bot.i18n import translator
from bot.rules import GAMES
from bot.rules.base import PLAIN, Text

NAMES = ["Ane", "Iker", "Mikel", "Nerea"]


def name(i: int) -> str:
    return NAMES[i]


def test_translators_and_plain_text_satisfy_the_rules_protocol() -> None:
    assert isinstance(PLAIN, Text) and isinstance(translator("cs"), Text)


def test_mus_in_spanish_french_czech() -> None:
    mus = GAMES["mus"]
    es, fr, cs = translator("es"), translator("fr"), translator("cs")
    envido = {"type": "envido", "lance": "grande", "seat": 1, "amount": 2, "total": 2}
    assert mus.narrate(envido, name, es) == "grande: Iker envida 2"
    assert mus.narrate(envido, name, fr) == "grande : Iker dit envido 2"
    assert mus.narrate(envido, name) == "grande: envido 2 by Iker"  # English source, no catalogue
    ordago = {"type": "ordago", "lance": "chica", "seat": 3}
    assert mus.narrate(ordago, name, es) == "chica: ¡ÓRDAGO de Nerea!"
    assert mus.label({"type": "discard", "cards": ["3O", "1B"]}, es) == "Descartar 3 de oros, as de bastos"
    assert mus.label({"type": "discard", "cards": ["12C"]}, fr) == "Écarter roi de coupes"
    assert mus.label({"type": "discard", "cards": ["3O", "1B"]}) == "Discard 3O 1B"
    assert mus.label({"type": "no_mus"}, es) == "No hay mus"
    assert [mus.label({"type": t}, cs) for t in ("mus", "paso", "quiero", "no_quiero", "ordago")] == [
        "Mus", "Paso", "Quiero", "No quiero", "Órdago"]  # the Mus words players keep
    discards = [mus.narrate({"type": "discard", "seat": 0, "count": n}, name, cs) for n in (1, 3, 4)]
    assert discards == ["Ane odhazuje 1 kartu.", "Ane odhazuje 3 karty.", "Ane odhazuje 4 karty."]
    end = {"type": "match_end", "match": 1, "team": 0, "results": [10, -10, 10, -10]}
    assert mus.narrate(end, name, es) == (
        "Ane y Mikel ganan la partida 1: +10 cada uno; Iker y Nerea −10 cada uno.")
    declare = {"type": "declare", "lance": "pares", "has": [True, False, False, True]}
    assert mus.narrate(declare, name, es) == "Pares: ¿quién tiene pares? Ane sí, Iker no, Mikel no, Nerea sí."


def test_motz_in_french_with_the_seed_words() -> None:
    motz = GAMES["motz"]
    fr = translator("fr")
    who = ["Anne", "Blaise", "Claude", "Denis"].__getitem__
    start = {"type": "deal_start", "deal": 0, "dealer": 1, "ante": 1, "pot": 4, "turn_up": "QH",
             "trump": "H", "fine": 4}
    assert motz.narrate(start, who, fr) == (
        "Donne 1 : Blaise distribue. Chacun mise 1 jeton : la bête vaut 4 jetons. Retourne D♥, "
        "atout ♥. Amende en jeu : 4 jetons.")
    assert motz.narrate({"type": "declare", "seat": 2, "declaration": "take_muet"}, who, fr) == (
        "Claude prend le muet.")
    assert motz.narrate({"type": "trick", "number": 2, "winner": 0, "card": "JH"}, who, fr) == (
        "Levée 2 pour Anne, avec V♥.")
    settled = {"type": "deal_end", "cancelled": False, "bete": 12, "payouts": [0, 12, 0, 0],
               "fines": [0, 0, 12000, 0], "pot": 12000}
    assert motz.narrate(settled, who, fr) == (
        "Donne réglée (bête de 12 jetons) : Blaise emporte 12 jetons ; Claude paie une amende de "
        "12\u202f000 jetons. La corbeille contient maintenant 12\u202f000 jetons.")
    assert [motz.label({"type": t}, fr) for t in ("pass", "stand", "take_muet")] == [
        "Passer", "Jouer", "Prendre le muet"]
    assert motz.label({"type": "play", "card": "KS"}, fr) == "Jouer R♠"
    assert motz.label({"type": "play", "card": "KS"}) == "Play K♠"
    # 2-1 split (spec 4): the one-trick seat's stake comes back, whichever trick it took
    assert "moins la mise du joueur qui a fait l'autre levée" in fr._(motz.summary)


def test_marias_in_czech_keeps_the_marias_words() -> None:
    marias = GAMES["marias"]
    cs = translator("cs")
    who = ["Jana", "Petr", "Karel"].__getitem__
    trump = {"type": "trump", "seat": 1, "suit": "D", "card": "7D", "blind": False}
    assert marias.narrate(trump, who, cs) == "Petr volí trumfy kule a ukazuje 7♦."
    assert marias.narrate({"type": "flek", "seat": 2, "level": 1}, who, cs) == "Karel: flek ×2."
    assert marias.narrate({"type": "declare", "seat": 0, "game": "betl"}, who, cs) == "Jana hlásí: Betl."
    talon = [marias.narrate({"type": "discard", "seat": 0, "talon_trumps": n}, who, cs) for n in (1, 2, 0)]
    assert talon == ["Jana odhazuje druhou kartu; v talonu je 1 trumf.",
                     "Jana odhazuje druhou kartu; v talonu jsou 2 trumfy.",
                     "Jana odhazuje druhou kartu; v talonu je 0 trumfů."]
    assert marias.label({"type": "trump", "card": "10H"}, cs) == "Trumfy ♥ (10♥)"
    assert [marias.label({"type": t}, cs) for t in ("good", "bad", "flek")] == ["Dobrý", "Špatný", "Flek"]
    assert marias.label({"type": "trump", "card": "10H"}) == "Trump ♥ (10♥)"
    # a Marias contract is a "hra" in Czech (no contract: "bez hry"), not the Maître's "závazek"
    assert marias.vocabulary.view_field("contract", cs) == "hra" and cs.p_("marias", "Contract") == "Hra"
    assert marias.contract_name(None, cs) == "bez hry"
    assert GAMES["maitre"].vocabulary.view_field("contract", cs) == "závazek"


def test_michigan_pay_cards_in_french_and_spanish() -> None:
    mich = GAMES["michigan"]
    who = ["Ann", "Bob", "Cy"].__getitem__
    ante = {"type": "ante", "deal": 0, "dealer": 2, "pot": [4, 4, 4, 1200]}
    assert mich.narrate(ante, who, translator("fr")) == (
        "Coup 1 : Cy distribue ; mises prises, cagnottes A♥ R♣ D♦ V♠ = 4 / 4 / 4 / 1\u202f200.")
    assert mich.narrate(ante, who) == "Hand 1: Cy deals; antes taken, pools A♥ K♣ Q♦ J♠ = 4 / 4 / 4 / 1200."
    out = {"type": "out", "seat": 1, "card": "QS"}
    assert mich.narrate(out, who, translator("es")) == (
        "¡Bob juega su última carta (Q♠) y se queda sin cartas!")
    assert mich.label({"type": "lead", "suit": "H"}, translator("cs")) == "Vynést ♥"


def test_maitre_in_french_with_the_seed_words() -> None:
    maitre = GAMES["maitre"]
    fr = translator("fr")
    who = ["Anne", "Blaise", "Claude"].__getitem__
    play = {"type": "play", "seat": 1, "card": "X1", "as": "QH", "mode": "tete", "combination": "pair",
            "take": False}
    assert maitre.narrate(play, who, fr) == "Blaise joue Joker pour D♥, mode tête (paire, laissée)."
    assert maitre.narrate(play, who) == "Blaise plays Joker as Q♥, mode tête (pair, left)."
    assert maitre.narrate({"type": "coffre", "seat": 0}, who, fr) == "Anne scelle le Coffre."
    end = {"type": "manche_end", "maitre": 2, "validated": False, "contract_ok": False, "contract": 60,
           "valued": 5, "counted": 10, "ecart_ok": True, "ecart": 20, "majeure": "H", "mineure": "S",
           "manche_points": [3, -1, 0]}
    assert maitre.narrate(end, who, fr) == (
        "La maîtrise de Claude a échoué (contrat 60 manqué (5/10 cartes à valeur)). Majeure ♥, Mineure ♠. "
        "Points : Anne +3, Blaise -1, Claude +0.")
    assert maitre.label({"type": "coffre", "mineure": "2S", "majeure": "9H"}, fr) == (
        "Coffre : mineure 2♠, majeure 9♥")
    won = {"type": "session_end", "reason": "won", "winners": [0, 2]}
    assert maitre.narrate(won, who, translator("es")) == "Anne y Claude ganan el bote."
