"""An AI seat's name is said in the reader's language ("IA 1" in French), a person's never changes."""

from __future__ import annotations

from bot.i18n import translator
from bot.replays.render import seat_names
from bot.store.tables import TableRow
from bot.views.display import player_name
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


def test_an_ai_seats_name_is_said_in_each_language() -> None:
    assert player_name("AI 2", True, translator("fr")) == "IA 2"
    assert player_name("AI 2", True, translator("eu")) == "AA 2"
    assert player_name("AI 2", True, translator("en")) == "AI 2"
    assert player_name("AI 2", False, translator("fr")) == "AI 2"  # a member who calls themselves so
    assert player_name("AI fan", True, translator("fr")) == "AI fan"  # not the name the bot gives


async def test_a_french_table_shows_its_ai_seats_in_french(stub: DiscordStub, tapis: TapisRun,
                                                           players: list[User]) -> None:
    alice, bob, _, _ = players
    stub.guild.locale = "fr"  # the table speaks the server's language
    await stub.slash("table new", alice, stub.channel, game="michigan", players=3)
    await tapis.settle()
    [lobby] = stub.messages(stub.channel)
    await stub.click(lobby, bob, custom_id=next(c for c in lobby.custom_ids() if c.endswith(":join")))
    await stub.click(lobby, alice, custom_id=next(c for c in lobby.custom_ids() if c.endswith(":ai")))
    await tapis.settle()
    assert "IA 1" in lobby.text and "AI 1" not in lobby.text
    await stub.click(lobby, alice, custom_id=next(c for c in lobby.custom_ids() if c.endswith(":start")))
    await tapis.settle()
    table = (await tapis.tables.tables_in_channel(stub.channel.id))[0]
    for _ in range(30):  # until the AI's own moves are narrated (it plays as soon as it is its turn)
        if "Derniers coups" in lobby.text and "IA 1 " in lobby.text.split("Derniers coups")[1]:
            break
        user = next(u for u in (alice, bob) if u.id in table.to_act_users())
        seat = table.seat_of(user.id)
        await tapis.tables.act(table.id, user.id, table.version, table.state.legal_actions(seat)[0])
        await tapis.settle()
    assert "IA 1 " in lobby.text.split("Derniers coups")[1]  # "IA 1 entame 6♥."
    assert "AI 1" not in lobby.text


def test_a_replay_draws_an_ai_seat_in_the_readers_language() -> None:
    seats = [{"user_id": 1, "name": "ann"}, {"user_id": None, "name": "AI 1", "ai": True}, {}]
    row = TableRow(1, 2, 3, None, {}, "michigan", {}, {}, 7, seats, 1, "finished", 9, None, 0.0, 0.0)
    assert seat_names(row, translator("fr")) == ["ann", "IA 1", "place 2"]
