"""Michigan's pot is four pools, one on each boodle card: the table message and its image's alt text
name the card of each pool (a spectator read "Pot: 5 / 0 / 5 / 5" and could not tell which pool a
boodle hit would take)."""

from __future__ import annotations

from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def test_each_pool_is_named_by_its_boodle_card(stub: DiscordStub, tapis: TapisRun,
                                                     players: list[User]) -> None:
    tapis.bot.presenter.images = True  # type: ignore[union-attr]
    alice, bob, _, _ = players
    table_id, message = await open_table(stub, alice, [bob], ai=1, game="michigan")
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    pools = table.state.view(None)["pot"]
    pot = next(f["value"] for f in message.embeds[0]["fields"] if f["name"] == "Pot")
    assert pot.startswith(f"A♥ {pools[0]} / K♣ {pools[1]} / Q♦ {pools[2]} / J♠ {pools[3]} (total"), pot
    alt = message.attachments[0].payload()["description"]
    assert (f"Pot: Ace of hearts {pools[0]} / King of clubs {pools[1]} / Queen of diamonds {pools[2]} / "
            f"Jack of spades {pools[3]}.") in alt, alt
