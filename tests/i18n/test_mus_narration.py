"""Mus narration a player reads in the table message: the session's results with a true minus sign,
the mus round the table shows, and a deal ended by an accepted órdago (docs/rules/mus.md 4.3)."""

from __future__ import annotations

from typing import Any

from bot.i18n import translator
from bot.rules import GAMES
from bot.views.display import public_fields

NAMES = ["Ann", "Bob", "Cat", "Dan"]
MUS = GAMES["mus"]


def session(moves: list[dict[str, Any] | None]) -> tuple[Any, list[dict[str, Any]]]:
    """A session dealt by seat 0 (Bob is mano), ``moves`` played by whoever is to act (None: its first
    legal move); its events."""
    state = MUS.new_table(seats=4, options=MUS.validate_options({"dealer": 0}), seed=5)
    events: list[dict[str, Any]] = []
    for move in moves:
        seat = state.to_act()[0]
        events += state.apply(seat, move or state.legal_actions(seat)[0])
    return state, events


def told(event: dict[str, Any], lang: str) -> str:
    return MUS.narrate(event, NAMES.__getitem__, translator(lang)) or ""


def of(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e for e in events if e["type"] == kind)


def test_the_session_end_writes_a_loss_with_a_true_minus_sign() -> None:
    event = {"type": "session_end", "results": [10, -10, 10, -10]}
    for lang in ("en", "es", "eu", "fr", "cs"):
        text = told(event, lang)
        assert "Bob −10" in text and "Ann +10" in text, (lang, text)
        assert "-" not in text, (lang, text)


def test_the_draw_names_the_mus_round_the_table_field_shows() -> None:
    state, events = session([{"type": "mus"}] * 4 + [None] * 4)  # each discards one card
    view = state.view(None)
    assert view["mus_round"] == 1  # one exchange done (3.2: mus_round += 1 at the draw)
    es = translator("es")
    assert "ronda de mus: 1" in public_fields(view, "mus", es, NAMES)
    assert told(of(events, "draw"), "es") == "Se roban cartas (Ann 1, Bob 1, Cat 1, Dan 1); ronda de mus 1."
    assert told(of(events, "draw"), "eu").endswith("1. mus itzulia.")


ORDAGO_AT_CHICA = [
    {"type": "no_mus"},
    {"type": "envido", "amount": 2}, {"type": "no_quiero"}, {"type": "no_quiero"},  # grande refused
    {"type": "ordago"}, {"type": "quiero"},  # chica: Bob's órdago, Cat accepts
]


def test_an_accepted_ordago_decides_the_game_and_leaves_the_later_lances_unplayed() -> None:
    _, events = session(list(ORDAGO_AT_CHICA))
    deal_end = of(events, "deal_end")
    assert deal_end["ordago"] == "chica" and deal_end["counted"] == []
    winners = "Ann & Cat" if deal_end["game_winner"] == 0 else "Bob & Dan"
    lines = told(deal_end, "en").splitlines()
    chica = next(line for line in lines if line.startswith("Chica:"))
    assert chica.endswith(f"→ {winners} win the game") and "not counted" not in chica, chica
    grande = next(line for line in lines if line.startswith("Grande:"))
    assert grande.endswith("(not counted)"), grande  # 4.3: not even earlier refusals count
    assert "Pares, Juego: not played (the accepted órdago ends the deal)" in lines, lines
    closed = [e for e in events if e["type"] == "lance_end" and e["lance"] == "chica"][0]
    assert told(closed, "en") == "chica: órdago accepted, the best cards at chica win the game"
    es = told(deal_end, "es")
    assert "(no cuenta)" not in next(x for x in es.splitlines() if x.startswith("Chica:")), es
    assert "Pares, Juego: no se juegan (el órdago querido acaba la mano)" in es, es
    assert "se cuenta al final" not in told(closed, "es")


def test_the_juego_lance_line_reads_the_count_as_the_hands_lines_do() -> None:
    _, events = session([{"type": "no_mus"}] + [{"type": "paso"}] * 10)  # juego: Ann alone
    deal_end = of(events, "deal_end")
    assert any(e["lance"] == "juego" and e["winner"] is not None for e in deal_end["summary"])
    eu = told(deal_end, "eu")
    line = next(x for x in eu.splitlines() if x.startswith("Jokoa:"))
    assert "(jokoa 3" in line and "juego" not in line, line  # Basque: "jokoa 31", as the hands' lines
    assert "jokoa 3" in next(x for x in eu.splitlines() if x.startswith("  Ann:") or x.startswith("  Cat:"))


def test_the_score_line_names_each_pair_and_says_why_a_lance_after_the_win_does_not_count() -> None:
    state = MUS.new_table(seats=4, options=MUS.validate_options({"dealer": 0, "target": 30}), seed=5)
    events: list[dict[str, Any]] = []
    for move in ({"type": "no_mus"}, {"type": "envido", "amount": 30}, {"type": "quiero"}):
        events += state.apply(state.to_act()[0], move)
    while not any(e["type"] == "deal_end" for e in events):
        events += state.apply(state.to_act()[0], {"type": "paso"})
    deal_end = of(events, "deal_end")
    assert deal_end["game_winner"] == 0 and deal_end["points_after"][0] >= 30  # grande won it at once
    es = told(deal_end, "es").splitlines()
    a, b = deal_end["points_after"]
    assert es[-1] == f"Tanteo: Ann y Cat {a}, Bob y Dan {b}.", es[-1]
    chica = next(x for x in es if x.startswith("Chica:"))
    assert chica.endswith("(no cuenta: el juego ya está ganado)"), chica


def test_the_pares_readings_are_in_the_readers_words() -> None:
    """A hand's pares ("duples K-A", "medias C", "par K") is named in the reader's Mus words, as the
    señas name them: a Basque club reads "dupleak K-A", "mediak C", "parea K" beside "jokoa 31" (the
    hands' lines and the Pareak line both), never the Spanish words; the letters stay notation."""
    kinds = {"duples": "dupleak", "medias": "mediak", "par": "parea"}
    seen: set[str] = set()
    for seed in range(1, 40):
        state = MUS.new_table(seats=4, options=MUS.validate_options({"dealer": 0}), seed=seed)
        events: list[dict[str, Any]] = []
        while not any(e["type"] == "deal_end" for e in events):
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            move = next((a for a in legal if a["type"] in ("no_mus", "paso")), legal[0])
            events += state.apply(seat, move)
        deal_end = of(events, "deal_end")
        eu = told(deal_end, "eu").splitlines()
        for seat, combo in enumerate(deal_end["combos"]):
            if not combo["pares"]:
                continue
            kind, _, ranks = combo["pares"].partition(" ")
            seen.add(kind)
            line = next(x for x in eu if x.startswith(f"  {NAMES[seat]}:"))
            assert f"{kinds[kind]} {ranks}," in line and kind + " " not in line, line
            en = told(deal_end, "en")
            assert f"  {NAMES[seat]}: {combo['pares']}," in en  # English keeps the Mus words
        pares = next((x for x in eu if x.startswith("Pareak:")), "")
        assert not any(f"({k} " in pares for k in kinds), pares
    assert seen == set(kinds), seen
