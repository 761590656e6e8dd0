"""The registry holds all five games, and a missing engine module fails loudly."""

from __future__ import annotations

import pytest

import bot.rules as rules


def test_all_five_games_are_registered() -> None:
    assert list(rules.GAMES) == ["motz", "michigan", "mus", "marias", "maitre"]


def test_a_missing_engine_module_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "GAME_MODULES", (*rules.GAME_MODULES, "poker"))
    with pytest.raises(ModuleNotFoundError, match="poker"):
        rules._load_games()
