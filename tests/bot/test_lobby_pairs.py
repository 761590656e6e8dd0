"""A Mus lobby says which seats play together: seats 1 & 3 are pair A, 2 & 4 pair B (the letters the
table image marks its plates with), in the seat list and the free-seat select. A player chooses a
seat to sit with a partner; nothing in the lobby said which seat that was."""

from __future__ import annotations

from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def test_a_mus_lobby_shows_the_pairs(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, *_ = players
    bob.locale = "es-ES"
    await stub.slash("table new", alice, stub.channel, game="mus", options="target=30")
    await tapis.settle()
    lobby = stub.messages(stub.channel)[-1]
    assert "`1.` **alice** · pair A" in lobby.text, lobby.text
    assert "`2.` free · pair B" in lobby.text and "`3.` free · pair A" in lobby.text, lobby.text
    seat = next(s for s in lobby.selects() if s["custom_id"].endswith(":seat"))
    described = {o["label"]: o.get("description") for o in seat["options"]}
    assert described == {"Seat 2": "pair B", "Seat 3": "pair A", "Seat 4": "pair B"}, described


async def test_a_lobby_without_teams_shows_no_pairs(stub: DiscordStub, tapis: TapisRun,
                                                    players: list[User]) -> None:
    alice = players[0]
    await stub.slash("table new", alice, stub.channel, game="marias")
    await tapis.settle()
    lobby = stub.messages(stub.channel)[-1]
    assert "pair" not in lobby.text
    seat = next(s for s in lobby.selects() if s["custom_id"].endswith(":seat"))
    assert all(o.get("description") is None for o in seat["options"])
