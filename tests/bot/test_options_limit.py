"""``options:`` text is bounded and read in linear time (issue 26, item 8).

Before: no bound (Discord lets a string option run to 6,000 characters) and a regex that
backtracked from every starting position, about 230 ms of event loop per ``/table new`` or
autocomplete keystroke for 6,000 letters (``python bench/options.py``). These tests check the
early refusal path, not the time: a text over the bound never reaches the pattern.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.cogs import options as opts
from bot.cogs.errors import UserError
from bot.rules import GAMES
from tests.bot.test_hostile import refused
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


class Untouchable:
    """Stands in for the option pattern: any use of it fails the test."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the options text was read ({name}) before its length was checked")


def longest_legitimate(game: Any) -> str:
    """Every visible option of ``game`` at its longest value, written with spaces and commas."""
    parts = []
    for spec in game.options:
        if spec.hidden:
            continue
        if spec.kind == "bool":
            value = "false"
        elif spec.kind == "choice":
            value = max((str(c) for c in spec.choices), key=len)
        elif spec.maximum is not None:
            value = str(spec.maximum)
        else:
            value = "9" * 9  # the most digits a whole number may have
        parts.append(f"{spec.name} = {value}")
    return ", ".join(parts)


def test_a_long_text_is_refused_before_it_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opts, "_PAIR", Untouchable())
    for text in ("x" * 6000, "ante=2 " * 60, "a" + " " * (opts.MAX_OPTIONS_TEXT + 1)):
        with pytest.raises(UserError) as caught:
            opts.parse_options(text, GAMES["motz"])
        assert caught.value.message.msgid == "The options are too long: at most {limit} characters, not {n}."


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_legitimate_text_fits_the_bound(name: str) -> None:
    text = longest_legitimate(GAMES[name])
    assert len(text) <= opts.MAX_OPTIONS_TEXT, (len(text), text)
    opts.parse_options(text, GAMES[name])  # read, not refused for its length


async def test_table_new_refuses_a_long_options_text(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    alice = players[0]
    alice.locale = "fr"
    monkeypatch.setattr(opts, "_PAIR", Untouchable())
    inter = await stub.slash("table new", alice, stub.channel, game="motz", options="x" * 6000)
    refused(inter)
    assert inter.text == "⚠️ Les options sont trop longues : 300 caractères au plus, et non 6\u202f000."
    assert not stub.messages(stub.channel)
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == 1000


async def test_autocomplete_of_a_long_text_suggests_nothing(stub: DiscordStub, tapis: TapisRun,
                                                           players: list[User],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opts, "_PAIR", Untouchable())
    choices = await stub.autocomplete("table new", players[0], stub.channel, "options", game="motz",
                                      options="x" * 6000)
    assert choices == []
