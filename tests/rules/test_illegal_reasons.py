"""The rules' refusals as message ids: every reason the engines raise is in the catalogue, and
reads as a sentence in the player's language (cards, seats and moves in the reader's words);
in the pseudo-locale no word of a refusal escapes the catalogue."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.i18n import translator
from bot.i18n.catalog import read_template
from bot.rules import GAMES, IllegalMove
from bot.rules.cards import DECK_54, DECK_ES_40
from bot.tables.errors import Refusal

NAMES = ("Ann", "Bob", "Chloé", "Dan", "Émile", "Fanny")

#: Every reason the engines (base.py and mus/state.py) raise today.
REASONS = {
    "that is not a move", "you have no move to make now", "that kind of move is not possible now: {move}",
    "that move is not allowed now: {move}", "that is not a seat", "the session is over: no more moves",
    "it is not {seat}'s turn (waiting for {waiting})", "a discard is 1 to 4 cards of your hand",
    "that is not a card", "{card} is not in your hand", "{card} is named twice",
}


def unmarked(text: str) -> str:
    """What of a pseudo-locale text is outside the catalogue's markers ⟦…⟧: names, digits,
    card symbols and one-letter suit codes may stay; any word left is a leak."""
    rest = text
    while "⟦" in rest:
        rest = re.sub(r"⟦[^⟦⟧]*⟧", "", rest)
    for name in NAMES:
        rest = rest.replace(name, "")
    return " ".join(re.findall(r"[^\W\d_]{2,}", rest))


def new(game: str, seats: int, seed: int = 11) -> Any:
    rules = GAMES[game]
    return rules.new_table(seats, rules.validate_options({}), seed)


def refusal(state: Any, seat: Any, action: Any) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        state.apply(seat, action)
    return info.value


def _illegal_tries(state: Any, game: str, n: int, rng: random.Random) -> list[tuple[Any, Any]]:
    """Illegal (seat, action) pairs at this point of a session: every kind of mistake once."""
    to_act = state.to_act()
    seat = to_act[0] if to_act else 0
    deck = DECK_ES_40 if game == "mus" else DECK_54
    tries: list[tuple[Any, Any]] = [(seat, 5), (seat, {}), (seat, {"type": "zz"}), ("x", {"type": "pass"}),
                                    ((seat + 1) % n, {"type": "pass"})]
    legal = state.legal_actions(seat) if to_act else []
    if legal:
        pick = dict(rng.choice(legal))
        for key, value in pick.items():
            if key == "type":
                continue
            bad = dict(pick)
            if isinstance(value, str):
                bad[key] = rng.choice([c for c in deck if c != value])
            elif isinstance(value, int):
                bad[key] = value + 1000
            elif isinstance(value, list):
                hand = state.view(seat).get("hand") or []
                away = [c for c in deck if c not in hand]
                tries += [(seat, {**pick, key: []}), (seat, {**pick, key: [away[0]]}),
                          (seat, {**pick, key: ["ZZ"]}), (seat, {**pick, key: [hand[0], hand[0]]})]
                bad[key] = value + value
            tries.append((seat, bad))
    return [(s, a) for s, a in tries if not (s == seat and a in legal)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_refusal_of_a_random_sweep_is_a_catalogue_message(game: str) -> None:
    """Random sessions; at every step each kind of mistake is tried: its message id is in the
    template, its parameters are the placeholders of that id, and French and Czech translate it."""
    template = {m.id if isinstance(m.id, str) else m.id[0] for m in read_template() if m.id}
    fr, cs, pseudo = translator("fr"), translator("cs"), translator("pseudo")
    rules = GAMES[game]
    seen: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        n = min(rules.min_seats + seed % 2, rules.max_seats)
        state = rules.new_table(n, rules.validate_options({}), seed)
        for step in range(400):
            if step % 7 == 0 or state.is_over() or state.view(None).get("phase") == "discard":
                for seat, action in _illegal_tries(state, game, n, rng):
                    exc = refusal(state, seat, action)
                    assert exc.msgid in template, exc.msgid
                    assert set(re.findall(r"{(\w+)}", exc.msgid)) == set(exc.params), exc.msgid
                    assert str(exc) == exc.reason == exc.text() and "{" not in exc.reason
                    for tr in (fr, cs):
                        text = Refusal(exc, NAMES[:n], rules.label).render(tr)
                        assert tr._(exc.msgid) != exc.msgid and "{" not in text, (tr.lang, text)
                    if not (isinstance(action, dict) and action.get("type") == "zz"):  # a kind no game names
                        assert unmarked(Refusal(exc, NAMES[:n], rules.label).render(pseudo)) == "", exc
                    seen.add(exc.msgid)
            if state.is_over():
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            wants_mus = {"type": "mus"} in legal and rng.random() < 0.8  # reach Mus's discards often
            state.apply(seat, {"type": "mus"} if wants_mus else rng.choice(legal))
    expected = REASONS - {"you have no move to make now"}  # no engine offers an empty list to the actor
    if game != "mus":
        expected -= {"a discard is 1 to 4 cards of your hand", "that is not a card",
                     "{card} is not in your hand", "{card} is named twice"}
    assert expected <= seen, expected - seen
    assert seen <= REASONS, seen - REASONS


def test_the_reasons_in_french_and_czech_word_for_word() -> None:
    """One concrete refusal per engine (seed 11), rendered as the table service shows it."""

    def said(game: str, exc: IllegalMove, lang: str) -> str:
        return Refusal(exc, NAMES, GAMES[game].label).render(translator(lang))

    motz = new("motz", 3)  # seat 1 declares first, holding K♥ 9♦ 7♦
    exc = refusal(motz, 1, {"type": "play", "card": "KH"})
    assert exc.reason == "that kind of move is not possible now: play card=KH"
    assert said("motz", exc, "fr") == "Ce genre de coup n'est pas possible maintenant : Jouer R♥."
    exc = refusal(motz, 0, {"type": "pass"})
    assert exc.reason == "it is not seat 0's turn (waiting for seat 1)"
    assert said("motz", exc, "fr") == "Ce n'est pas à Ann de jouer (on attend Bob)."
    assert said("motz", exc, "cs") == "Ann není na tahu (čeká se na: Bob)."

    michigan = new("michigan", 3)  # seat 1 leads
    exc = refusal(michigan, 2, {"type": "lead", "suit": "S"})
    assert said("michigan", exc, "fr") == "Ce n'est pas à Chloé de jouer (on attend Bob)."

    marias = new("marias", 3)  # seat 1 names trumps from 10♠ 8♠ J♥ 8♥ K♦ 9♦ 7♦: not from A♠
    exc = refusal(marias, 1, {"type": "trump", "card": "AS"})
    assert exc.reason == "that move is not allowed now: trump card=AS"
    assert said("marias", exc, "cs") == "Tento tah teď není povolen: Trumfy ♠ (A♠)."

    maitre = new("maitre", 3)  # seat 0 chooses the Coffre
    exc = refusal(maitre, 1, {"type": "pass"})
    assert said("maitre", exc, "fr") == "Ce n'est pas à Bob de jouer (on attend Ann)."

    mus = new("mus", 4)
    while mus.view(None)["phase"] == "mus":
        mus.apply(mus.to_act()[0], {"type": "mus"})
    assert mus.to_act() == (2,) and mus.view(2)["hand"] == ["1O", "3O", "12O", "2E"]
    exc = refusal(mus, 2, {"type": "discard", "cards": ["12C"]})
    assert exc.reason == "12C is not in your hand"
    assert said("mus", exc, "cs") == "Král pohárů není ve vaší ruce."
    assert said("mus", exc, "fr") == "La carte roi de coupes n'est pas dans votre main."
    exc = refusal(mus, 2, {"type": "discard", "cards": ["1O", "1O"]})
    assert said("mus", exc, "es") == "La carta as de oros aparece dos veces."
    exc = refusal(mus, 2, {"type": "discard", "cards": []})
    assert said("mus", exc, "cs") == "Odhodit můžete 1 až 4 karty z ruky."


def test_a_seat_without_a_name_and_a_move_without_a_label() -> None:
    """Without the table's names a seat is "seat N"; a move the game cannot label shows as data."""
    exc = refusal(new("motz", 3), 0, {"type": "pass"})
    assert exc.text(translator("fr")) == "ce n'est pas à place 0 de jouer (on attend place 1)"
    exc = refusal(new("motz", 3), 1, {"type": "play", "card": "??"})
    assert exc.text(translator("fr"), label=GAMES["motz"].label) == (
        "ce genre de coup n'est pas possible maintenant : play card=??")


def test_a_refusal_crosses_a_process_boundary_whole() -> None:
    """Pickled (an AI worker process), a refusal keeps its parameters and so its sentence."""
    import pickle

    exc = refusal(new("motz", 3), 0, {"type": "pass"})
    back = pickle.loads(pickle.dumps(exc))
    assert (back.msgid, back.params, str(back)) == (exc.msgid, exc.params, exc.reason)
    assert Refusal(back, NAMES, None).render(translator("cs")) == "Ann není na tahu (čeká se na: Bob)."
