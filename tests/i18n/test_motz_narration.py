"""Motz narration as a club reads it in the table message (a read-through's findings), on events of
real moves: every amount is named in jetons in the reader's plural form ("Amende en jeu : 8" said
nothing of its unit), a fined player pays a fine (the French "est mis à l'amende" guessed a gender),
and the end of the session names who gets each share of the split pot (it read "46, 46, 46, 46")."""

from __future__ import annotations

from typing import Any

from bot.i18n import translator
from bot.rules import GAMES
from bot.views.alt import table_alt
from bot.views.display import public_fields

NAMES = ["Ann", "Bob", "Cat", "Dan"]
MOTZ = GAMES["motz"]


def session(pick: Any, stop: Any, **options: Any) -> list[dict[str, Any]]:
    """A four-seat session dealt by seat 0, each move ``pick(legal)``, until ``stop(events)``; its events."""
    state = MOTZ.new_table(seats=4, options=MOTZ.validate_options({"dealer": 0, **options}), seed=11)
    events: list[dict[str, Any]] = []
    while not state.is_over() and not stop(events):
        seat = state.to_act()[0]
        events += state.apply(seat, pick(state.legal_actions(seat)))
    return events


def passing(legal: list[dict[str, Any]]) -> dict[str, Any]:
    return next(a for a in legal if a["type"] == "pass")


def standing(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Stand when one may, else play the first card allowed."""
    return next((a for a in legal if a["type"] == "stand"), legal[0])


def told(event: dict[str, Any], lang: str) -> str:
    return MOTZ.narrate(event, NAMES.__getitem__, translator(lang)) or ""


def of(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e for e in events if e["type"] == kind)


def test_the_antes_the_bete_and_the_fine_are_told_in_jetons_in_each_plural_form() -> None:
    events = session(passing, lambda ev: any(e["type"] == "deal_start" for e in ev), ante=1)
    cancelled, start = of(events, "deal_end"), of(events, "deal_start")
    assert cancelled["cancelled"] and start["ante"] == 1 and start["pot"] == 8 and start["fine"] == 8
    assert "Each player antes 1 jeton: the bête holds 8 jetons." in told(start, "en")
    assert "Fine at risk: 8 jetons." in told(start, "en")
    fr = told(start, "fr")
    assert "Chacun mise 1 jeton : la bête vaut 8 jetons." in fr and "Amende en jeu : 8 jetons." in fr, fr
    cs = told(start, "cs")
    assert "Každý vkládá 1 žeton: bête má 8 žetonů." in cs and "Hrozící pokuta: 8 žetonů." in cs, cs
    assert "la bête (4 jetons) reste dans la corbeille" in told(cancelled, "fr")
    assert "(4 žetony)" in told(cancelled, "cs")
    assert "Cada jugador apuesta 1 ficha" in told(start, "es") and "8 fitxa" in told(start, "eu")


def test_a_player_in_who_takes_no_trick_pays_a_fine_in_jetons() -> None:
    events = session(standing, lambda ev: any(e["type"] == "deal_end" for e in ev), ante=2)
    end = of(events, "deal_end")
    fined = [i for i, f in enumerate(end["fines"]) if f]
    paid = [i for i, p in enumerate(end["payouts"]) if p]
    assert fined and paid  # four seats in, three tricks: someone took none
    fr, en = told(end, "fr"), told(end, "en")
    for i in fined:
        assert f"{NAMES[i]} paie une amende de {end['fines'][i]} jetons" in fr, fr
        assert f"{NAMES[i]} pays a fine of {end['fines'][i]} jetons" in en, en
    for i in paid:
        assert f"{NAMES[i]} emporte {end['payouts'][i]} jeton" in fr, fr
    assert "mis à l'amende" not in fr
    assert f"(bête de {end['bete']} jetons)" in fr and f"contient maintenant {end['pot']} jeton" in fr, fr


def test_the_session_end_names_who_gets_each_share_of_the_split_pot() -> None:
    events = session(passing, lambda ev: False, ante=1, rotations=1, max_extra_deals=0)
    end = of(events, "session_end")
    split = end["split"]
    assert sum(split) == 16 and all(split)  # four cancelled deals: the antes are shared out
    for lang, words in (("fr", "La corbeille (16 jetons) est partagée : "),
                        ("en", "The pot (16 jetons) is split: "), ("cs", "Bank (16 žetonů) se dělí: ")):
        text = told(end, lang)
        shares = ", ".join(f"{NAMES[i]} {x}" for i, x in enumerate(split))
        assert words + shares + "." in text, (lang, text)
    assert "Résultats en jetons : Ann +0" in told(end, "fr")


def test_czech_tells_the_muet_taker_without_guessing_a_gender() -> None:
    state = MOTZ.new_table(seats=4, options=MOTZ.validate_options({"dealer": 3}), seed=2)
    state.apply(0, {"type": "take_muet"})
    lines = public_fields(state.view(None), "motz", translator("cs"), NAMES).splitlines()
    assert "hlášení: Ann: bere muet" in lines and "muet: má ho Ann" in lines, lines  # "vzal": a man's past
    assert told({"type": "declare", "seat": 0, "declaration": "take_muet"}, "cs") == "Ann bere muet."


def test_czech_rules_rank_the_cards_by_the_letters_on_their_faces() -> None:
    cs = translator("cs")
    faces = " ".join(cs.p_("rank index", r) for r in ("A", "K", "Q", "10", "9", "8", "7"))
    assert faces == "A K Sv 10 9 8 7"
    assert f"pak {faces};" in cs._(MOTZ.summary)


def test_the_texts_say_where_the_muet_lies_as_the_image_shows_it() -> None:
    state = MOTZ.new_table(seats=4, options=MOTZ.validate_options({"dealer": 3}), seed=2)
    state.apply(0, {"type": "stand"})
    fr = translator("fr")
    view = state.view(None)
    assert view["muet_taken_by"] is None
    assert "muet: face cachée sur la table" in public_fields(view, "motz", fr, NAMES).splitlines()
    assert "muet : face cachée sur la table" in table_alt("motz", 1, view, NAMES, fr)
    state.apply(1, {"type": "take_muet"})
    assert "muet: pris par Bob" in public_fields(state.view(None), "motz", fr, NAMES).splitlines()
