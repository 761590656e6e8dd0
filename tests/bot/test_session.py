"""A full session through Discord: /table new to payout, 3 humans and 1 AI, every move by a click."""

from __future__ import annotations

import random
import re

import pytest

from bot.rules import GAMES
from bot.rules.cards import display
from bot.store import tables as store
from bot.tables.replay import SessionLog, rebuild
from tests.backends import BACKENDS
from tests.discord_stub import DiscordStub, Message, User
from tests.discord_stub.play import play_session
from tests.discord_stub.tapis import TapisRun

GAME = "motz"
VERSION = re.compile(r"table (\d+) · version (\d+)")


async def open_table(stub: DiscordStub, host: User, guests: list[User], ai: int = 1,
                     game: str = GAME, **options: object) -> tuple[int, Message]:
    """/table new by ``host``, guests click Join, the host adds ``ai`` AI seats and clicks Start."""
    seats = 1 + len(guests) + ai
    if "players" in {s.name for s in GAMES[game].options}:
        options.setdefault("players", seats)
    await stub.slash("table new", host, stub.channel, game=game, **options)
    # (answered after a defer on a loaded machine: the lobby is the edit of the "thinking" message)
    await stub.wait_for(lambda: stub.messages(stub.channel)[-1].custom_ids(), what="the lobby's buttons")
    lobby = stub.messages(stub.channel)[-1]
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    for guest in guests:
        inter = await stub.click(lobby, guest, "Join")
        assert "joined" in inter.text, inter.text
    for _ in range(ai):
        await stub.click(lobby, host, "Add AI")
    inter = await stub.click(lobby, host, "Start")
    assert "starts" in inter.text, inter.text
    return table_id, lobby


def tokens(message: Message) -> set[str]:
    """Words of a DM, leaving out the player's own past move ("You played …")."""
    lines = [line for line in message.text.splitlines() if not line.startswith("You played")]
    return {t.strip("*,.()") for t in " ".join(lines).split()}


async def check_dm_privacy(run: TapisRun, table_id: int, dms: dict[int, list[Message]]) -> int:
    """Every DM shows its owner's hand at its version and no other seat's private card."""
    table = await run.tables.get(table_id)
    actions = await run.db.run(store.load_actions, table_id)  # type: ignore[union-attr]
    checked = 0
    for seat, messages in dms.items():
        for message in messages:
            m = VERSION.search(message.text)
            assert m and int(m.group(1)) == table_id, message.text
            state = rebuild(SessionLog(table.rules, len(table.seats), table.options, table.seed,
                                       actions[: int(m.group(2))]))
            words = tokens(message)
            own = [display(c) for c in state.view(seat)["hand"]]
            assert all(c in words for c in own), (own, message.text)
            public = set(str(c) for c in _codes(state.view(None)))
            for other in range(len(table.seats)):
                if other == seat:
                    continue
                hidden = [display(c) for c in state.view(other)["hand"] if c not in public]
                assert not words & set(hidden), (seat, other, hidden, message.text)
            checked += 1
    return checked


def _codes(obj: object) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [c for v in obj.values() for c in _codes(v)]
    if isinstance(obj, (list, tuple)):
        return [c for v in obj for c in _codes(v)]
    return []


@pytest.mark.parametrize("backend", BACKENDS)
async def test_full_session_three_humans_one_ai(stub: DiscordStub, tapis: TapisRun,
                                                players: list[User]) -> None:
    alice, bob, carol, _ = players
    table_id, lobby = await open_table(stub, alice, [bob, carol])
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table.status == "playing" and [s.ai for s in table.seats] == [False, False, False, True]
    users = {u.id: u for u in (alice, bob, carol)}
    moves = await play_session(stub, tapis, table_id, users, random.Random(7))
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table.status == "finished" and moves > 0
    # the final table message keeps one button: Play again (issue 28.4)
    assert [c["custom_id"].split(":")[3] for c in lobby.items()] == ["again"]
    assert "over" in lobby.text

    seats = {u.id: table.seat_of(u.id) for u in users.values()}
    dms = {seats[u.id]: stub.dms(u) for u in users.values()}
    assert all(dms.values())
    assert await check_dm_privacy(tapis, table_id, dms) >= 3

    for user in users.values():
        balance = await tapis.ledger.balance(stub.guild.id, user.id)
        assert balance == 1000 + table.results[seats[user.id]]
    assert await tapis.ledger.accounts_total() == 0
    stats = await stub.slash("stats", alice, stub.channel)
    assert "1 session played" in stats.text
