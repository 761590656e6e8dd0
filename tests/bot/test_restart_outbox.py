"""Issue 27's restart defects: what a table shows right after the bot restarts.

- the table message and the DMs are in the table's (and the player's) language from the first
  redraw after a restart, not in English once;
- a player never keeps two live DMs for one table: the one from before the restart is edited once
  to say the table has moved on, its buttons removed.
"""

from __future__ import annotations

import json
import random
from typing import Any

from tests.discord_stub import DiscordStub, User
from tests.discord_stub.play import play_once
from tests.discord_stub.tapis import TapisRun

#: English words of the table message and of a hand DM that French never uses ("a server" and "a
#: channel": a DM's place when the guild is not in the cache yet, as right after a restart).
ENGLISH = ("Seats", "waiting for", "dealer", "Deal ", "Your hand", "Where", "Turn", "Your stack", "turn up",
           "hand sizes", "deals played", "tricks", "a server", "a channel")


def _texts_sent(stub: DiscordStub, since: int) -> list[str]:
    """The embeds (as text) of every message the bot posted or edited after call ``since``."""
    out = []
    for call in stub.calls[since:]:
        body: Any = call.json
        if call.method not in ("POST", "PATCH") or not isinstance(body, dict):
            continue
        body = body.get("data", body) if isinstance(body.get("data"), dict) else body
        for embed in body.get("embeds") or ():
            out.append(json.dumps(embed, ensure_ascii=False))
    return out


async def _french_motz(stub: DiscordStub, players: list[User]) -> tuple[int, list[User]]:
    from tests.bot.test_languages_session import open_lobby

    alice, bob, carol, _ = players
    stub.guild.locale = "fr"  # type: ignore[attr-defined]
    for u in (alice, bob, carol):
        u.locale = "fr"
    table_id, _ = await open_lobby(stub, alice, [bob, carol], 1, "motz", buy_in=200)
    return table_id, [alice, bob, carol]


async def _play(stub: DiscordStub, tapis: TapisRun, table_id: int, users: list[User], moves: int,
                rng: random.Random) -> None:
    by_id = {u.id: u for u in users}
    for _ in range(moves):
        await tapis.settle()
        table = await tapis.tables.get(table_id)
        assert table is not None and table.status == "playing"
        await play_once(stub, tapis, table_id, by_id[table.to_act_users()[0]], rng)
    await tapis.settle()


async def _stop_while_the_ai_is_to_act(stub: DiscordStub, tapis: TapisRun, table_id: int,
                                       users: list[User], rng: random.Random) -> None:
    """Play human moves with a slow AI until an AI seat is to act, then kill the process there:
    the restarted process plays that AI move at once, before anybody clicks."""
    from dataclasses import replace

    service = tapis.tables
    service.config = replace(service.config, ai_delay=600.0)
    by_id = {u.id: u for u in users}
    for _ in range(40):
        await stub.idle()
        await tapis.bot.quiesce()  # type: ignore[union-attr]
        table = await service.get(table_id)
        assert table is not None and table.status == "playing"
        if any(table.seats[s].ai for s in table.to_act()):
            await tapis.kill()
            return
        await play_once(stub, tapis, table_id, by_id[table.to_act_users()[0]], rng)
    raise AssertionError("the AI was never to act")


async def test_a_move_played_as_the_bot_resumes_is_shown_in_the_tables_language(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    table_id, users = await _french_motz(stub, players)
    rng = random.Random(5)
    await _play(stub, tapis, table_id, users, 2, rng)
    await _stop_while_the_ai_is_to_act(stub, tapis, table_id, users, rng)
    since = len(stub.calls)
    await tapis.restart()
    await tapis.settle()
    await _play(stub, tapis, table_id, users, 1, rng)
    sent = _texts_sent(stub, since)
    assert sent, "nothing was redrawn after the restart"
    english = [t for t in sent if any(word in t for word in ENGLISH)]
    assert not english, english[0]


async def test_after_a_restart_the_old_dm_says_the_table_moved_on(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """Each player's latest DM from before the restart is edited once (buttons and image gone) when
    a newer DM reaches them, so nobody keeps it beside the new one; after that, a DM of this process is
    edited so only when it still offered moves below a newer one (``Dms._retire``), and no DM twice."""
    table_id, users = await _french_motz(stub, players)
    rng = random.Random(3)
    await _play(stub, tapis, table_id, users, 3, rng)
    before = {u.id: stub.dms(u)[-1].id for u in users}
    await tapis.stop()
    since = len(stub.calls)
    await tapis.restart()
    await _play(stub, tapis, table_id, users, 6, rng)
    superseded = 0
    for user in users:
        old = stub.message(before[user.id])
        if stub.dms(user)[-1].id == old.id:
            continue  # still their latest DM (edited in place)
        superseded += 1
        assert "Cette main est périmée : la partie a avancé." in old.text, old.text
        assert not old.items() and not old.attachments
    assert superseded, "no player got a new DM after the restart"
    route = "/channels/{cid}/messages/{mid}"
    edits = [c for c in stub.calls[since:] if c.method == "PATCH" and c.route == route
             and "périmée" in json.dumps(c.json, ensure_ascii=False)]
    edited = [c.path for c in edits]
    assert len(edited) == len(set(edited)) >= superseded, edited  # each old DM once
    latest = {f"/channels/{stub.dms(u)[-1].channel_id}/messages/{stub.dms(u)[-1].id}" for u in users}
    assert not latest & set(edited), "a latest DM was marked out of date"
