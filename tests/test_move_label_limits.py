"""A move's label is cut only at Discord's own limit for its control: 80 characters on a button, 100 in
a select. Mus's discard of four cards in full Spanish names ("Descartar caballo de espadas, caballo de
bastos, caballo de copas, caballo de oros", 82 characters) is a select option: it was cut at 80."""

from __future__ import annotations

from bot.i18n import translator
from bot.rules import GAMES
from bot.views.moves import layout

KNIGHTS = ["11E", "11B", "11C", "11O"]


def _discards(hand: list[str]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for mask in range(1, 16):
        out.append({"type": "discard", "cards": [c for i, c in enumerate(hand) if mask >> i & 1]})
    return out


def test_a_four_card_discard_is_whole_in_its_select() -> None:
    game = GAMES["mus"]
    for lang in ("es", "fr", "eu"):
        tr = translator(lang)
        legal = _discards(KNIGHTS)
        controls = layout(legal, lambda a, tr=tr: game.label(a, tr))
        options = dict((i, text) for _, opts in controls.selects for text, i in opts)
        assert len(options) == len(legal)
        for i, action in enumerate(legal):
            full = game.label(action, tr)
            assert len(full) <= 100
            assert options[i] == full, (lang, options[i])
    # a button still stops at 80
    legal = [{"type": "x", "n": n} for n in range(3)]
    controls = layout(legal, lambda a: "w" * 95)
    assert controls.buttons and all(len(text) <= 80 and text.endswith("…") for text, _ in controls.buttons)


def test_a_mus_raise_says_what_it_adds_and_its_total_within_a_buttons_limit() -> None:
    from bot.i18n import LANGUAGES
    from bot.rules.mus.text import label_at

    view = {"bet": {"total": 2, "held": 1, "team": 1}}
    for lang in LANGUAGES:
        tr = translator(lang)
        labels = [label_at({"type": "envido", "amount": n}, view, tr) for n in range(2, 39)]
        assert all(len(text) <= 80 for text in labels), lang
        assert str(38 + 2) in labels[-1] and "38" in labels[-1], (lang, labels[-1])
    assert label_at({"type": "envido", "amount": 3}, view, translator("es")) == "3 más (total 5)"
    assert label_at({"type": "envido", "amount": 3}, {"bet": None}, translator("es")) == "Envido 3"
