"""No image ever draws a card its viewer may not see.

Every face goes through ``bot.render.cards.face`` (and Michigan's pay cards through
``layout_face``); the tests record those calls. A table image, whatever view it gets, may only
request cards present in the spectator view; a hand image only the seat's own hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.render import cards, hand_image, table_image
from bot.render.canvas import Canvas
from bot.render.games.michigan import BOODLE
from bot.render.hand import playable_cards
from bot.rules import GAMES
from bot.rules.base import PLAIN
from bot.rules.cards import DECK_54, DECK_ES_40
from bot.rules.looks import DEFAULT
from tests.render.samples import HANDS, NAMES, SAMPLES, VARIANTS

ALL_CODES = frozenset(DECK_54) | frozenset(DECK_ES_40)


def codes_in(value: Any) -> set[str]:
    """Every card code found anywhere in a (JSON-like) view."""
    if isinstance(value, str):
        return {value} if value in ALL_CODES else set()
    if isinstance(value, dict):
        return set().union(*(codes_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(codes_in(v) for v in value)) if value else set()
    return set()


class Recorder:
    """Wraps the sprite cache and remembers which faces were asked for."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.faces: set[str] = set()
        self.layout: set[str] = set()
        face = cards.face  # the real cache; layout_face below must not count as a face request

        def record_face(code: str, spanish: bool, width: int, highlight: bool = False, tr=PLAIN,
                        look=DEFAULT):
            self.faces.add(code)
            return face(code, spanish, width, highlight, tr, look)

        def record_layout(code: str, width: int, tr=PLAIN, look=DEFAULT):
            self.layout.add(code)
            return face(code, False, width, tr=tr, look=look)

        monkeypatch.setattr(cards, "face", record_face)
        monkeypatch.setattr(cards, "layout_face", record_layout)

    def reset(self) -> None:
        self.faces.clear()
        self.layout.clear()


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    monkeypatch.setattr(Canvas, "png", lambda self: b"")  # only the sprite requests matter here
    return Recorder(monkeypatch)


def check_table(rec: Recorder, game: str, view: dict[str, Any], public: set[str], names: list[str]) -> None:
    rec.reset()
    table_image(game, view, names)
    leaked = rec.faces - public
    assert not leaked, f"{game} table drew cards not in the spectator view: {sorted(leaked)}"
    assert rec.layout <= set(BOODLE), f"{game} layout cards: {sorted(rec.layout)}"


def check_hand(rec: Recorder, game: str, view: dict[str, Any], playable: set[str]) -> None:
    rec.reset()
    hand_image(game, view, playable)
    extra = rec.faces - set(view.get("hand") or [])
    assert not extra, f"{game} hand image drew cards outside the seat's hand: {sorted(extra)}"
    assert not rec.layout


# ----------------------------------------------------------------------------- fixed samples


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_samples_never_draw_the_hand_on_the_table(recorder: Recorder, game: str) -> None:
    for view, names in ((SAMPLES[game], NAMES[game]), VARIANTS[game]):
        public = codes_in(view)
        hand, _ = HANDS[game]
        secret = [c for c in hand if c not in public]
        assert secret, "the sample hand should hold cards the table does not show"
        check_table(recorder, game, {**view, "hand": hand}, public, names)
        check_hand(recorder, game, {**view, "hand": hand}, set(hand))


# ----------------------------------------------------------------------------- real engines


def snapshots(name: str, seats: int, seed: int, steps: int) -> Iterator[Any]:
    """States of a table after random legal moves (every state, from the first deal)."""
    game = GAMES[name]
    state = game.new_table(seats=seats, options=game.validate_options({}), seed=seed)
    rng = random.Random(seed)
    yield state
    for _ in range(steps):
        if state.is_over():
            return
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        yield state


def seat_counts(name: str) -> list[int]:
    game = GAMES[name]
    return sorted({game.min_seats, game.max_seats})


@pytest.mark.parametrize("name", ["motz", "michigan", "mus", "marias", "maitre"])
def test_real_views_never_leak(recorder: Recorder, name: str) -> None:
    for seats in seat_counts(name):
        names = [f"P{i}" for i in range(seats)]
        for k, state in enumerate(snapshots(name, seats, seed=11 + seats, steps=60)):
            if k % 3:
                continue  # every third state keeps the test quick
            spectator = state.view(None)
            public = codes_in(spectator)
            check_table(recorder, name, spectator, public, names)
            for seat in range(seats):
                view = state.view(seat)
                check_table(recorder, name, view, public, names)
                check_hand(recorder, name, view, playable_cards(state.legal_actions(seat)))
