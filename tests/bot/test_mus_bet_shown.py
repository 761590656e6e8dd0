"""A Mus player answering a bet from their hand message sees the bet (its lance, how much, which pair
bet, what quiero and no quiero mean) in their language, and each raise says what it adds and the total
it makes, as the narration does ("2 más (total 4)", "Bob reenvida 2 (total 4)"), through the real
discord.py client against the stand-in."""

from __future__ import annotations

from typing import Any

from bot.i18n import translator
from bot.rules.mus.text import lance_name
from tests.bot.test_languages_session import labels, open_lobby
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.model import Message
from tests.discord_stub.play import latest_dm_with_moves, move_controls
from tests.discord_stub.tapis import TapisRun


async def act(stub: DiscordStub, tapis: TapisRun, table_id: int, user: User, action: dict[str, Any]) -> None:
    """``user`` makes ``action`` from their latest hand DM (its button, or its option in a select)."""
    table = await tapis.tables.get(table_id)
    seat = table.seat_of(user.id)
    index = table.state.legal_actions(seat).index(action)
    message = latest_dm_with_moves(stub, user, table_id, table.version)
    assert message is not None
    for control in move_controls(message, table_id, table.version):
        if control["type"] == 2 and control["custom_id"].endswith(f".{index}"):
            await stub.click(message, user, custom_id=control["custom_id"])
            break
        if control["type"] == 3 and any(o["value"] == str(index) for o in control["options"]):
            await stub.choose(message, user, [str(index)], custom_id=control["custom_id"])
            break
    else:
        raise AssertionError(f"{action} not offered to {user.name}")
    await tapis.settle()


async def bet_then_answer(stub: DiscordStub, tapis: TapisRun, players: list[User],
                          second: dict[str, Any]) -> tuple[int, User, User, Message]:
    """A Mus table: the mano cuts the mus, opens grande with envido 2, the next seat answers with
    ``second``; returns the table, the bettor, the seat that now answers and its hand DM."""
    alice, bob, carol, dave = players
    table_id, _ = await open_lobby(stub, alice, [bob, carol, dave], 0, "mus", language="es")
    await tapis.settle()
    users = {u.id: u for u in players}
    table = await tapis.tables.get(table_id)
    mano = users[table.seats[table.state.to_act()[0]].user_id]
    await act(stub, tapis, table_id, mano, {"type": "no_mus"})
    await act(stub, tapis, table_id, mano, {"type": "envido", "amount": 2})
    table = await tapis.tables.get(table_id)
    first = users[table.seats[table.state.to_act()[0]].user_id]
    if second:
        await act(stub, tapis, table_id, first, second)
    table = await tapis.tables.get(table_id)
    answering = users[table.seats[table.state.to_act()[0]].user_id]
    dm = latest_dm_with_moves(stub, answering, table_id, table.version)
    assert dm is not None
    return table_id, mano, answering, dm


def pair_of(tapis_table: Any, seat: int, tr: Any) -> str:
    names = [s.name for s in tapis_table.seats]
    return tr._("{first} & {second}", first=names[seat % 2], second=names[seat % 2 + 2])


async def test_a_spanish_dm_and_my_hand_show_the_envido_being_answered(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    for user in players:
        user.locale = "es-ES"
    table_id, mano, answering, dm = await bet_then_answer(stub, tapis, players, {})
    table = await tapis.tables.get(table_id)
    pair = pair_of(table, table.seat_of(mano.id), translator("es"))
    assert f"⚔️ Grande: envite de {pair}, van 2." in dm.text, dm.text
    assert f"No quiero: {pair} se apuntan 1 al final." in dm.text, dm.text
    # the players waiting see the bet too (it is public), and My hand shows it as the DM does
    other = next(u for u in players if u not in (answering,))
    table_message = stub.message(table.message_id)
    hand = await stub.click(table_message, other, custom_id=next(
        c for c in table_message.custom_ids() if c.split(":")[3] == "hand"))
    assert f"⚔️ Grande: envite de {pair}, van 2." in hand.text, hand.text


async def test_a_basque_dm_shows_a_raise_it_answers_with_the_total_and_what_a_refusal_gives(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    for user in players:
        await stub.slash("language", user, stub.channel, language="eu")
    table_id, mano, answering, dm = await bet_then_answer(
        stub, tapis, players, {"type": "envido", "amount": 3})  # 2, raised 3: 5 bet, 2 held
    table = await tapis.tables.get(table_id)
    eu = translator("eu")
    raisers = pair_of(table, (table.seat_of(mano.id) + 1) % 4, eu)
    assert f"⚔️ Handia: {raisers} bikotearen apustua, 5." in dm.text, dm.text
    assert f"Ez iduki: 2 {raisers} bikotearentzat amaierako kontaketan." in dm.text, dm.text
    assert lance_name("grande", eu, capital=True) == "Handia"


async def test_a_raise_button_says_what_it_adds_and_the_total_as_the_narration_does(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    for user in players:
        user.locale = "es-ES"
    table_id, _, answering, dm = await bet_then_answer(
        stub, tapis, players, {"type": "envido", "amount": 3})  # 2, raised 3: the total is 5
    shown = labels(dm)
    assert "2 más (total 7)" in shown and "35 más (total 40)" in shown, shown
    assert not any(label.startswith("Envido ") for label in shown), shown
    table = await tapis.tables.get(table_id)
    narration = stub.message(table.message_id).text  # the table's language: Spanish
    assert "reenvida 3 (total 5)" in narration, narration
    # the answer to the click names the move as its button did
    await act(stub, tapis, table_id, answering, {"type": "envido", "amount": 2})
    answer = next(m for m in reversed(stub.dms(answering)) if "Has jugado" in m.text)
    assert "**2 más (total 7)**" in answer.text, answer.text


async def test_the_mus_scores_in_the_hand_and_on_the_table_say_which_pair_has_which(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    for user in players:
        user.locale = "es-ES"
    table_id, _, answering, dm = await bet_then_answer(stub, tapis, players, {"type": "no_quiero"})
    table = await tapis.tables.get(table_id)
    es = translator("es")
    first, second = pair_of(table, 0, es), pair_of(table, 1, es)
    assert f"puntos: {first} 0 · {second} 0" in dm.text, dm.text
    assert f"partidas ganadas: {first} 0 · {second} 0" in dm.text, dm.text
    assert f"puntos: {first} 0 · {second} 0" in stub.message(table.message_id).text
