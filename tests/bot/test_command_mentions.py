"""Through the stand-in: after the bot's command sync, texts mention the commands they name with the
ids Discord gave (``</daily:id>``, clickable); before the ids are known, and wherever Discord renders
no mention (embed titles, footers, field names, labels, image descriptions), the plain ``/name``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.i18n import commands
from bot.store.ledger import house, wallet
from tests.bot.test_first_hour import started_motz
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.model import Message
from tests.discord_stub.play import play_session
from tests.discord_stub.tapis import TapisRun


def synced_id(stub: DiscordStub, name: str) -> str:
    """The id the stand-in gave the top-level command ``name`` when the bot synced its tree."""
    (found,) = [c["id"] for cmds in stub.commands.values() for c in cmds if c["name"] == name]
    return str(found)


async def test_a_refusal_mentions_the_command_with_the_id_discord_gave(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice = players[0]
    await stub.slash("balance", alice, stub.channel)  # the wallet opens with the starting grant
    await tapis.ledger.transfer(wallet(stub.guild.id, alice.id), house(stub.guild.id),
                                await tapis.ledger.balance(stub.guild.id, alice.id) - 3, "spent")
    refused = await stub.slash("table new", alice, stub.channel, game="motz", buy_in=100)
    assert refused.ephemeral and refused.text == (
        "⚠️ Not enough jetons: you have 3 jetons, the buy-in is 100. "
        f"</daily:{synced_id(stub, 'daily')}> adds more each day.")
    nothing = await stub.slash("table status", alice, stub.channel)  # a subcommand: the group's id
    assert nothing.text == ("⚠️ There is no open table in this channel. Start one with "
                            f"</table new:{synced_id(stub, 'table')}>.")
    known = commands.known()
    assert known["table new"] == int(synced_id(stub, "table")) and "table" not in known  # not a group
    assert "admin" not in known and known["admin season"] == int(synced_id(stub, "admin"))


async def test_the_plain_form_while_no_id_is_known(stub: DiscordStub, tapis: TapisRun,
                                                   players: list[User]) -> None:
    """A process that has not learnt the ids (its sync not done, or failed) writes `/name`."""
    table = synced_id(stub, "table")
    said = (await stub.slash("table status", players[0], stub.channel)).text
    assert said.endswith(f"Start one with </table new:{table}>."), said
    commands.forget()
    nothing = await stub.slash("table status", players[0], stub.channel)
    assert nothing.text == "⚠️ There is no open table in this channel. Start one with `/table new`."


def unrendered(message: Message) -> list[str]:
    """Every text of ``message`` where Discord renders no mention."""
    out: list[str] = [a.description or "" for a in message.attachments]
    for embed in message.embeds:
        out += [embed.get("title") or "", (embed.get("footer") or {}).get("text", ""),
                (embed.get("author") or {}).get("name", "")]
        out += [f.get("name", "") for f in embed.get("fields", [])]
    item: dict[str, Any]
    for item in message.items():
        out += [item.get("label") or "", item.get("placeholder") or ""]
        out += [o.get("label", "") + o.get("description", "") for o in item.get("options", [])]
    return out


async def test_a_session_mentions_commands_only_where_discord_renders_them(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob = players[:2]
    tapis.bot.presenter.images = True  # attachments, with their descriptions
    await started_motz(stub, tapis, alice, bob)
    await play_session(stub, tapis, 1, {alice.id: alice, bob.id: bob}, random.Random(3))
    await tapis.settle()
    last = stub.dms(alice)[-1]
    history, stats = synced_id(stub, "history"), synced_id(stub, "stats")
    assert (f"The session is over. </history:{history}> shows its deals, </stats:{stats}> your record."
            in last.text), last.text
    assert last.embeds[0]["footer"]["text"].endswith("· How to play: /rules")  # a footer: plain
    sent = list(stub.store.values())
    assert any(m.attachments for m in sent)
    assert [t for m in sent for t in unrendered(m) if "</" in t] == []


async def test_a_process_that_does_not_sync_reads_the_ids(stub: DiscordStub, tapis: TapisRun,
                                                          players: list[User], tmp_path: Path) -> None:
    """Another process synced the commands (``tapis``); this one only reads them (GET, once)."""
    synced = commands.known()
    commands.forget()
    other = TapisRun(stub, tmp_path / "other.db", sync=False)
    puts = len(stub.calls_to("PUT", "/applications/{app}/commands"))
    assert puts == 1 and synced  # tapis's sync
    await other.start()
    try:
        assert commands.known() == synced
        assert len(stub.calls_to("PUT", "/applications/{app}/commands")) == puts  # no second sync
        nothing = await stub.slash("table status", players[0], stub.channel)
        assert nothing.text.endswith(f"Start one with </table new:{synced_id(stub, 'table')}>."), nothing.text
    finally:
        await other.stop()
