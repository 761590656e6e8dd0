"""/hint through the Discord stand-in: only on tables that allow it, only to the player to move."""

from __future__ import annotations

import random

from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.play import play_once
from tests.discord_stub.tapis import TapisRun


async def test_hint_for_the_player_to_move_only(stub: DiscordStub, tapis: TapisRun,
                                                players: list[User]) -> None:
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob], ai=1, options="hints=on")
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table.options["hints"] is True
    [seat] = table.state.to_act()
    users = {table.seat_of(u.id): u for u in (alice, bob)}
    assert seat in users, "the AI should have moved already"
    mover, waiter = users[seat], next(u for s, u in users.items() if s != seat)
    labels = [table.rules.label(a) for a in table.state.legal_actions(seat)]
    version = table.version

    advice = await stub.slash("hint", mover, stub.channel)
    # On a busy machine the search outlasts the answer window: the bot defers, then edits the answer.
    await stub.wait_for(lambda: advice.text, what="the advice")
    assert advice.ephemeral
    assert advice.text.startswith("The strong AI would play **"), advice.text
    best = advice.text.split("**")[1]
    assert best in labels
    assert "% of simulated deals" in advice.text
    assert (await tapis.tables.get(table_id)).version == version  # a hint plays nothing

    not_yours = await stub.slash("hint", waiter, stub.channel)
    assert not_yours.ephemeral and "not your turn" in not_yours.text
    stranger = await stub.slash("hint", carol, stub.channel, table=table_id)
    assert stranger.ephemeral and "not seated" in stranger.text
    assert not [m for m in stub.messages(stub.channel) if "strong AI" in m.text]  # never in public


async def test_hints_are_off_by_default(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob = players[:2]
    table_id, _ = await open_table(stub, alice, [bob], ai=1)
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table.options["hints"] is False
    [seat] = table.state.to_act()
    mover = alice if table.seat_of(alice.id) == seat else bob
    refused = await stub.slash("hint", mover, stub.channel)
    assert refused.ephemeral and "Hints are off" in refused.text


async def test_hint_names_the_cards_as_the_player_sees_them(stub: DiscordStub, tapis: TapisRun,
                                                           players: list[User]) -> None:
    """At a Marias table (the Czech pack) a player who chose the French suits in four colours with
    ``/cards`` reads the advice's cards in that look, like their hand (issue 30's looks)."""
    from bot.i18n import translator
    from bot.rules.looks import CZECH, FOUR_COLOUR, FRENCH, Look
    from tests.bot.test_languages_session import open_lobby

    alice, bob, carol, _ = players
    await stub.slash("cards", alice, stub.channel, faces="four_colour", pack="french")
    table_id, _ = await open_lobby(stub, carol, [alice, bob], 0, "marias", options="hints=on")
    await tapis.settle()
    rng = random.Random(4)
    table = await tapis.tables.get(table_id)
    seats = {table.seat_of(u.id): u for u in (alice, bob, carol)}
    for _ in range(60):  # play on until alice is to play a card
        table = await tapis.tables.get(table_id)
        [seat] = table.state.to_act()
        if seats[seat] is alice and all("card" in a for a in table.state.legal_actions(seat)):
            break
        await play_once(stub, tapis, table_id, seats[seat], rng)
        await tapis.settle()
    assert seats[seat] is alice
    legal = table.state.legal_actions(seat)
    mine = translator("en").dressed(Look(FRENCH, FOUR_COLOUR))
    czech = translator("en").dressed(Look(CZECH))
    advice = await stub.slash("hint", alice, stub.channel)
    await stub.wait_for(lambda: advice.text, what="the advice")
    named = advice.text.split("**")[1::2]  # the best move, then the top moves
    assert named and all(n in {table.rules.label(a, mine) for a in legal} for n in named), advice.text
    czech_only = {table.rules.label(a, czech) for a in legal} - {table.rules.label(a, mine) for a in legal}
    assert czech_only and not any(n in czech_only for n in named)
