"""Every game is complete in every layer (issue 27.1; ``docs/adding-a-game.md`` lists the files).

A game is registered once, in ``bot/rules/__init__.py`` (``GAME_MODULES``); each other layer
finds its per-game module by the game's name. For every game of ``GAMES`` this checks its rules
spec and tests, the facts its ``Game`` declares (deck kind, teams, bids, declarer, session
length, seat range), that its ``Vocabulary`` names every identifier its views and moves show
(played out over short seeded sessions, every choice of its options), its table layout and hand
order (``bot/render/games/<game>.py``) and its AI levels. A game that misses any of them fails.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.rules import GAMES, Game
from bot.rules.cards import SPANISH_CODES, SPANISH_SUITS, SUIT_NAMES

ROOT = Path(__file__).resolve().parent.parent
#: The view keys every game has (the contract's), shown by the layers themselves.
STANDARD_VIEW_KEYS = {"phase", "to_act", "stacks", "pot", "dealer", "deal", "closing", "hand"}
SEEDS = (1, 2)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_game_has_its_spec_and_its_tests(name: str) -> None:
    assert (ROOT / "docs" / "rules" / f"{name}.md").is_file(), f"docs/rules/{name}.md is missing"
    assert (ROOT / "tests" / "rules" / f"test_{name}.py").is_file(), f"tests/rules/test_{name}.py is missing"


@pytest.mark.parametrize("name", list(GAMES))
def test_the_facts_the_game_declares_hold(name: str) -> None:
    game = GAMES[name]
    assert game.name == name
    assert 2 <= game.min_seats <= (game.default_seats or game.min_seats) <= game.max_seats
    assert game.spanish == all(code in SPANISH_CODES for code in game.deck)
    for n in range(game.min_seats, game.max_seats + 1):
        if game.teams:
            seated = sorted(s for team in game.teams for s in team)
            assert seated == list(range(n)), "the teams must cover the seats, once each"
    names = {spec.name for spec in game.options}
    assert game.length_options and set(game.length_options) <= names
    assert not game.open_ended(game.validate_options(game.shortest_options()))
    assert game.bids <= game.vocabulary.names("move_kinds")
    assert set(game.vocabulary.seat_fields) <= game.vocabulary.names("view_fields")


def option_variants(game: Game) -> Iterator[dict[str, Any]]:
    """The shortest session, then the same with each other value of every choice and on/off option."""
    short = game.shortest_options()
    yield short
    for spec in game.options:
        if spec.hidden or spec.name in short:
            continue
        values = spec.choices if spec.choices else (True, False) if spec.kind == "bool" else ()
        for value in values:
            if value != spec.resolve_default(game.validate_options(short)):
                yield {**short, spec.name: value}


def shown(view: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """The game's own fields of a view that the layers name: scalars and lists of scalars."""
    for key, value in view.items():
        if key in STANDARD_VIEW_KEYS or value is None or isinstance(value, dict):
            continue
        if isinstance(value, (list, tuple)) and (not value or isinstance(value[0], (dict, list, tuple))):
            continue
        yield key, value


def identifiers(game: Game) -> dict[str, set[Any]]:
    """Every phase, kind of move, shown view field and word-like view value met in short sessions."""
    found: dict[str, set[Any]] = {"phases": set(), "move_kinds": set(), "view_fields": set(),
                                  "view_values": set(), "declarers": set()}
    not_words = set(game.deck) | set(SUIT_NAMES) | set(SPANISH_SUITS)
    for options in option_variants(game):
        for seats in range(game.min_seats, game.max_seats + 1):
            for seed in SEEDS:
                rng = random.Random(seed)
                state = game.new_table(seats, game.validate_options(options), seed)
                for _ in range(5000):
                    for seat in (None, *range(seats)):
                        view = state.view(seat)
                        found["phases"].add(view["phase"])
                        for key, value in shown(view):
                            found["view_fields"].add(key)
                            for v in value if isinstance(value, (list, tuple)) else (value,):
                                if isinstance(v, str) and v not in not_words:
                                    found["view_values"].add(v)
                    if state.is_over():
                        break
                    seat = state.to_act()[0]
                    legal = state.legal_actions(seat)
                    found["move_kinds"].update(a["type"] for a in legal)
                    for event in state.apply(seat, rng.choice(legal)):
                        if "deltas" in event and game.declarer in event:
                            found["declarers"].add(event[game.declarer])
                assert state.is_over(), f"{game.name} {options} did not end"
    return found


@pytest.mark.parametrize("name", list(GAMES))
def test_the_vocabulary_names_every_identifier_the_game_shows(name: str) -> None:
    game = GAMES[name]
    found = identifiers(game)
    for kind in ("phases", "move_kinds", "view_fields", "view_values"):
        missing = sorted(found[kind] - game.vocabulary.names(kind))
        assert not missing, f"{name}: no word for these {kind}: {missing}"
    if game.declarer is not None:
        assert found["declarers"] & set(range(game.max_seats)), "no deal-end event names its declarer"


@pytest.mark.parametrize("name", list(GAMES))
def test_the_game_has_a_table_layout_and_a_hand_order(name: str) -> None:
    from bot.render.games import LAYOUTS
    from bot.render.hand import hand_image
    from bot.render.table import table_image

    assert set(LAYOUTS) == set(GAMES)
    game = GAMES[name]
    seats = game.default_seats or game.min_seats
    state = game.new_table(seats, game.validate_options({}), 7)
    assert table_image(name, state.view(None), [f"P{i}" for i in range(seats)]).startswith(b"\x89PNG")
    assert hand_image(name, state.view(0)).startswith(b"\x89PNG")


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("level", ["easy", "strong", "expert"])
def test_the_game_has_every_ai_level(name: str, level: str) -> None:
    """The game's AI folder (``tests/ai/test_levels_table.py`` checks its files and entry) plays
    every level the lobby offers."""
    from bot.ai.levels import policy_for

    game = GAMES[name]
    state = game.new_table(game.default_seats or game.min_seats, game.validate_options({}), 3)
    seat = state.to_act()[0]
    assert policy_for(name, level).choose(state.view(seat), state.legal_actions(seat), random.Random(0)) \
        in state.legal_actions(seat)
