"""Motz, Michigan and the Jeu du Maître as their players read them on Discord (a read-through)."""

from __future__ import annotations

from typing import Any

from bot.i18n import translator
from bot.rules import GAMES
from bot.views.display import public_fields
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.play import latest_dm_with_moves
from tests.discord_stub.tapis import TapisRun


def _table_field(embed: dict[str, Any]) -> str:
    return next(f["value"] for f in embed.get("fields", []) if f["name"] in ("Table", "Table "))


async def test_michigan_lead_right_named_in_table_message_and_hand(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """The seat to lead after a stop ("lead right") is the player's name, never a seat index counted
    from 0 beside a seat list counted from 1."""
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob, carol], ai=0, game="michigan")
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    seat = table.state.view(None)["lead_right"]
    name = table.seats[seat].name
    message = stub.message(table.message_id)
    assert f"lead right: {name}" in _table_field(message.embeds[0]), message.text
    user = {u.id: u for u in (alice, bob, carol)}[table.to_act_users()[0]]
    dm = latest_dm_with_moves(stub, user, table_id, table.version)
    assert dm is not None
    assert f"lead right: {name}" in _table_field(dm.embeds[0]), dm.text


def test_seat_fields_by_name_in_every_game() -> None:
    """Every seat field of every game (Motz's muet taker, the Maître, the leader) names the seat."""
    names = ["Ana", "Bo", "Cy"]
    for lang in ("en", "fr"):
        tr = translator(lang)
        for game, rules in GAMES.items():
            for key in rules.vocabulary.seat_fields:
                text = public_fields({key: 2}, game, tr, names=names)
                assert text.endswith((": Cy", " Cy")), (game, key, text)  # Motz's "muet: taken by Cy"
                assert public_fields({key: 0}, game, tr).endswith(tr._("seat {n}", n=1)), (game, key)


def test_seat_lists_by_name_in_the_table_message_and_the_alt_text() -> None:
    """Fields holding several seats (Motz's seats still in play, the Maître's ranking, Marias's trick
    winners) name each player, in the table's fields and in the image's alt text: they showed the
    seats' indices counted from 0 ("in play: 0 · 2", "ranking: 1 · 0 · 2")."""
    from bot.views.alt import _figure

    names = ["Ana", "Bo", "Cy"]
    expected = {"motz": "active", "maitre": "ranking", "marias": "trick_winners"}
    for game, key in expected.items():
        assert key in GAMES[game].vocabulary.seat_list_fields, game
        for lang in ("en", "cs"):
            tr = translator(lang)
            text = public_fields({key: [2, 0]}, game, tr, names=names)
            assert text.endswith(": Cy · Ana"), (game, lang, text)
            assert public_fields({key: [1]}, game, tr).endswith(tr._("seat {n}", n=2)), (game, lang)
            alt = _figure(key, [2, 0], game, names, tr)
            assert alt is not None and alt.endswith("Cy · Ana"), (game, lang, alt)


async def test_michigan_auction_groups_of_bids_tell_apart(stub: DiscordStub, tapis: TapisRun,
                                                          players: list[User]) -> None:
    """A stack above 100 bids more than five rows hold: the groups of bids are told apart by their
    amounts ("Bid 1 … Bid 100", "Bid 101 … Bid 300"), not all labelled "Bid…"."""
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob, carol], ai=0, game="michigan",
                                   options="buy_in=300 spare_hand=dealer_option")
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    by_id = {u.id: u for u in (alice, bob, carol)}
    dealer = by_id[table.to_act_users()[0]]
    dm = latest_dm_with_moves(stub, dealer, table_id, table.version)
    assert dm is not None
    await stub.click(dm, dealer, "Keep my hand")
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table.state.view(None)["phase"] == "spare_auction"
    bidder = by_id[table.to_act_users()[0]]
    dm = latest_dm_with_moves(stub, bidder, table_id, table.version)
    assert dm is not None
    labels = [c.get("label") for c in dm.items() if c.get("type") == 2]
    labels += [o["label"] for s in dm.selects() for o in s["options"]]
    assert "Pass" in labels and len(labels) == len(set(labels)), labels
    assert "Bid 1 … Bid 100" in labels, labels


def test_bid_groups_named_by_their_amounts() -> None:
    """1,000 bids and a pass: ten groups named by their first and last bids, and Pass itself."""
    from bot.views.moves import layout

    legal: list[dict[str, Any]] = [{"type": "bid", "amount": x} for x in range(1, 1001)]
    legal.append({"type": "pass"})
    tr = translator("fr")
    controls = layout(legal, lambda a: GAMES["michigan"].label(a, tr))
    texts = [t for t, _ in controls.buttons] + [t for _, opts in controls.selects for t, _ in opts]
    assert len(texts) == len(set(texts)) == 11, texts
    assert "Passer" in texts and "Enchérir 901 … Enchérir 1\u202f000" in texts, texts


async def test_maitre_sees_his_coffre_and_nobody_else(stub: DiscordStub, tapis: TapisRun,
                                                      players: list[User]) -> None:
    """Once sealed, the Maître's Coffre (his mineure and majeure) stays in his hand message for the
    whole manche; no other player's hand and not the table message show it."""
    import random

    from tests.discord_stub.play import play_once

    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob, carol], ai=0, game="maitre")
    by_id = {u.id: u for u in (alice, bob, carol)}
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    maitre = by_id[table.to_act_users()[0]]
    await play_once(stub, tapis, table_id, maitre, random.Random(2))  # the Coffre
    await play_once(stub, tapis, table_id, maitre, random.Random(2))  # the contract
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    coffre = table.state.view(table.seat_of(maitre.id))["coffre"]
    sealed = GAMES["maitre"].label({"type": "coffre", **coffre}, translator("en"))
    assert sealed.startswith("Coffre: mineure ")
    assert sealed in stub.dms(maitre)[-1].embeds[0]["description"], stub.dms(maitre)[-1].text
    for user in (alice, bob, carol):
        if user is not maitre:
            assert all("mineure" not in m.text for m in stub.dms(user)), user.name
    assert "mineure" not in stub.message(table.message_id).text
