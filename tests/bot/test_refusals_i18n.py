"""Refusals in the reader's language through the real discord.py client against the stand-in:
a move the rules refuse (French, then Czech), and a refusal with a number in each Czech plural form."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules.motz.state import MotzState
from bot.store.ledger import house, wallet
from tests.bot.test_languages_session import open_lobby
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.model import Interaction, Message
from tests.discord_stub.tapis import TapisRun

#: A move the rules never allow while Motz players declare (pass / stand / take the muet).
BOGUS = {"type": "play", "card": "AS"}


async def _click_label(stub: DiscordStub, message: Message, user: User, label: str) -> Interaction:
    """Click the button, or pick the select option, showing ``label``."""
    for control in message.items():
        if control.get("type") == 2 and control.get("label") == label:
            return await stub.click(message, user, custom_id=control["custom_id"])
        for option in control.get("options", []):
            if option["label"] == label:
                return await stub.choose(message, user, [option["value"]], custom_id=control["custom_id"])
    raise AssertionError(f"no control {label!r} in {[c.get('label') for c in message.items()]}")


async def test_a_move_the_rules_refuse_is_explained_in_the_players_language(
        stub: DiscordStub, tapis: TapisRun, players: list[User], monkeypatch: pytest.MonkeyPatch) -> None:
    """The moves offered by Discord are the rules' own, so only a bug could offer an illegal one:
    this test offers one (playing A♠ while players declare) and clicks it."""
    legal_actions = MotzState.legal_actions

    def with_bogus(self: MotzState, seat: int) -> list[dict[str, Any]]:
        legal = legal_actions(self, seat)
        return [*legal, dict(BOGUS)] if legal else legal

    monkeypatch.setattr(MotzState, "legal_actions", with_bogus)
    alice, bob, carol, _ = players
    for u in (alice, bob, carol):
        u.locale = "fr"
    table_id, _ = await open_lobby(stub, alice, [bob, carol], 0, "motz", buy_in=200)
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    actor = {u.id: u for u in (alice, bob, carol)}[table.to_act_users()[0]]
    version = table.version
    dm = stub.dms(actor)[-1]

    answer = await _click_label(stub, dm, actor, "Jouer A♠")
    assert answer.ephemeral and answer.text == "⚠️ Ce genre de coup n'est pas possible maintenant : Jouer A♠."
    actor.locale = "cs"
    answer = await _click_label(stub, dm, actor, "Jouer A♠")  # the French DM's button, read in Czech now
    assert answer.ephemeral and answer.text == "⚠️ Takový tah teď není možný: Zahrát A♠."
    await tapis.settle()
    assert (await tapis.tables.get(table_id)).version == version  # nothing applied


@pytest.mark.parametrize(("left", "said"), [
    (1, "máte 1 žeton"),  # plural form 0 (1)
    (3, "máte 3 žetony"),  # form 1 (2-4)
    (5, "máte 5 žetonů"),  # form 2 (5 and more)
])
async def test_not_enough_jetons_in_each_czech_plural_form(
        left: int, said: str, stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice = players[0]
    alice.locale = "cs"
    await stub.slash("balance", alice, stub.channel)  # the wallet opens with the starting grant
    grant = await tapis.ledger.balance(stub.guild.id, alice.id)
    await tapis.ledger.transfer(wallet(stub.guild.id, alice.id), house(stub.guild.id), grant - left, "spent")
    answer = await stub.slash("table new", alice, stub.channel, game="motz", buy_in=2500)
    # Czech groups thousands with a no-break space (Babel's cs locale)
    assert answer.ephemeral and answer.text == (
        f"⚠️ Nemáte dost žetonů: {said}, vklad je 2\xa0500. {stub.mention('daily')} přidá další každý den.")
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == left


async def test_refusals_with_numbers_go_through_the_catalogue(stub: DiscordStub, tapis: TapisRun,
                                                              players: list[User]) -> None:
    """In the pseudo-locale every word of these refusals is marked (nothing English leaks)."""
    from tests.bot.test_languages_session import _click_verb, unmarked

    alice, bob, carol, dave = players
    for u in players:
        u.locale = "pseudo"
    names = [u.name for u in players]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3, buy_in=100)
    lobby = stub.messages(stub.channel)[-1]
    refusals = [await _click_verb(stub, lobby, alice, "start")]  # Motz needs at least 3 players
    for guest in (bob, carol):
        await _click_verb(stub, lobby, guest, "join")
    refusals.append(await _click_verb(stub, lobby, dave, "join"))  # the table is full (3 seats)
    await stub.slash("balance", dave, stub.channel)
    grant = await tapis.ledger.balance(stub.guild.id, dave.id)
    await tapis.ledger.transfer(wallet(stub.guild.id, dave.id), house(stub.guild.id), grant - 3, "spent")
    refusals.append(await stub.slash("table new", dave, stub.channel, game="motz", buy_in=100))
    texts = [r.text for r in refusals]
    assert all(r.ephemeral for r in refusals) and [t for t in texts if unmarked(t, names) is not None] == []
    assert texts == [
        "⚠️ ⟦⟦Motz⟧ needs at least 3 players; 1 seated. Wait for more players or add AI seats.⟧",
        "⚠️ ⟦This table is full (3 seats).⟧",
        f"⚠️ ⟦Not enough jetons: you have 3 jetons, the buy-in is 100. {stub.mention('daily')} adds more each "
        "day.⟧",
    ]
