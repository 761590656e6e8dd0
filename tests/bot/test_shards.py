"""Two shard processes on one PostgreSQL database, against the sharding stand-in.

Each bot is a ``ShardRun`` (what ``python -m bot --shards N --shard-count 2`` builds: shard locks,
store, a service resuming only its guilds' tables, a client identifying with ``[N, 2]``); two of them
run in this test process, each with its own database pool and lock connection, so PostgreSQL sees
two owners. ``kill()`` drops a bot mid-flight and its lock connection without a goodbye, as
``kill -9`` would.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.sharding import holders
from bot.store import tables as store
from tests.discord_stub import Channel, Message, User
from tests.discord_stub.play import (
    click_control,
    latest_dm_with_moves,
    move_controls,
    play_once,
    play_session,
)
from tests.discord_stub.sharding import ShardedStub, ShardRun

GAME = "motz"



def members(stub: ShardedStub, guild: object, names: tuple[str, ...]) -> list[User]:
    return [stub.add_user(n, guild) for n in names]  # type: ignore[arg-type]


async def open_in(stub: ShardedStub, channel: Channel, host: User, guests: list[User]) -> tuple[int, Message]:
    """/table new in ``channel``, guests join, one AI seat, start."""
    await stub.slash("table new", host, channel, game=GAME)
    lobby = stub.messages(channel)[-1]
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    for guest in guests:
        assert "joined" in (await stub.click(lobby, guest, "Join")).text
    await stub.click(lobby, host, "Add AI")
    assert "starts" in (await stub.click(lobby, host, "Start")).text
    return table_id, lobby


async def table_in_g1(stub: ShardedStub) -> tuple[int, dict[int, User], Message]:
    """A table of bea (host), bob and bil opened and started in the first channel of g1 (shard 1's
    server): its id, its players by id, its lobby message."""
    bea, bob, bil = members(stub, stub.g1, ("bea", "bob", "bil"))  # type: ignore[attr-defined]
    table_id, lobby = await open_in(stub, stub.g1.channels[0], bea, [bob, bil])  # type: ignore[attr-defined]
    return table_id, {u.id: u for u in (bea, bob, bil)}, lobby


def seen_by(run: ShardRun) -> list[int]:
    """Interaction ids this bot received (a listener on its client)."""
    ids: list[int] = []

    async def on_interaction(inter: object) -> None:
        ids.append(inter.id)  # type: ignore[attr-defined]

    run.bot.add_listener(on_interaction)  # type: ignore[union-attr]
    return ids


async def test_guild_events_go_to_their_shard_and_dms_to_shard_0(sharded: ShardedStub, pg: str) -> None:
    a, b = ShardRun(sharded, pg, (0,)), ShardRun(sharded, pg, (1,))
    await a.start()
    await b.start()
    try:
        assert sorted(sharded.identified) == [(0, 2), (1, 2)]
        assert [g.id for g in a.bot.guilds] == [sharded.g0.id]  # type: ignore[union-attr,attr-defined]
        assert [g.id for g in b.bot.guilds] == [sharded.g1.id]  # type: ignore[union-attr,attr-defined]
        got_a, got_b = seen_by(a), seen_by(b)
        ann, = members(sharded, sharded.g0, ("ann",))  # type: ignore[attr-defined]
        bea, = members(sharded, sharded.g1, ("bea",))  # type: ignore[attr-defined]
        in_0 = await sharded.slash("balance", ann, sharded.g0.channels[0])  # type: ignore[attr-defined]
        in_1 = await sharded.slash("balance", bea, sharded.g1.channels[0])  # type: ignore[attr-defined]
        in_dm = await sharded.slash("balance", bea, sharded.dm_channel(bea))
        assert got_a == [in_0.id, in_dm.id] and got_b == [in_1.id]
        assert "1,000" in in_1.text or "1000" in in_1.text
        assert set(await holders(pg, 2)) == {0, 1}
        # one bulk overwrite of the commands (shard 0's process); the other reads their ids
        assert len(sharded.calls_to("PUT", "/applications/{app}/commands")) == 1
        assert b.bot.sync_commands is False  # type: ignore[union-attr]
    finally:
        await b.stop()
        await a.stop()


async def test_a_second_process_for_a_held_shard_waits_then_takes_over(sharded: ShardedStub, pg: str) -> None:
    """B serves shard 1 mid-session; B2 for shard 1 waits (never connects); B is killed; B2 takes the
    lock, resumes B's table from the log, and B's pre-kill buttons work in B2, once."""
    a, b = ShardRun(sharded, pg, (0,)), ShardRun(sharded, pg, (1,))
    await a.start()
    await b.start()
    b2 = ShardRun(sharded, pg, (1,))
    try:
        table_id, humans, lobby = await table_in_g1(sharded)
        rng = random.Random(5)
        for _ in range(3):
            await b.settle()
            table = await b.tables.get(table_id)
            await play_once(sharded, b, table_id, humans[table.to_act_users()[0]], rng, via="hand")
        await b.settle()
        table = await b.tables.get(table_id)
        version, deal = table.version, table.state.view(None).get("deal")
        user = humans[table.to_act_users()[0]]
        hand = (await sharded.click(lobby, user, "My hand")).last
        assert move_controls(hand, table_id, version)

        waiting = asyncio.create_task(b2.start(lock_timeout=None))
        await asyncio.sleep(0.6)
        assert not waiting.done() and sharded.identified.count((1, 2)) == 1  # B2 waits, unconnected
        await b.kill()
        await asyncio.wait_for(waiting, 10)
        assert sharded.identified.count((1, 2)) == 2
        assert table_id not in a.tables.tables  # the other shard's process never loaded it
        table = await b2.tables.get(table_id)
        assert table.version == version and table.state.view(None).get("deal") == deal

        control = move_controls(hand, table_id, version)[0]
        inter = await sharded.click(hand, user, custom_id=control["custom_id"])
        assert inter.callback_type == 7, inter.text
        again = await sharded.click(hand, user, custom_id=control["custom_id"])
        assert "out of date" in again.text
        await play_session(sharded, b2, table_id, humans, rng, via="hand")
        actions = await b2.db.run(store.load_actions, table_id)  # type: ignore[union-attr]
        assert [x.version for x in actions] == list(range((await b2.tables.get(table_id)).version))
        assert await b2.ledger.accounts_total() == 0
    finally:
        await b2.stop()
        await a.stop()


async def play_forwarded(stub: ShardedStub, owner: ShardRun, table_id: int, users: dict[int, User],
                         rng: random.Random) -> int:
    """A whole session of a table owned by a process without shard 0, every move clicked in a DM."""
    moves = 0
    while True:
        await owner.settle()
        await owner.bot.forwarder.idle()  # type: ignore[union-attr]
        table = await owner.tables.get(table_id)
        if table.status != "playing":
            return moves
        await forwarded_move(stub, owner, table_id, users[table.to_act_users()[0]], rng)
        moves += 1
        assert moves < 2000


async def test_two_guilds_on_two_shards_play_full_sessions_at_once(sharded: ShardedStub, pg: str) -> None:
    a, b = ShardRun(sharded, pg, (0,)), ShardRun(sharded, pg, (1,))
    await a.start()
    await b.start()
    try:
        zero = members(sharded, sharded.g0, ("ann", "al", "amy"))  # type: ignore[attr-defined]
        one = members(sharded, sharded.g1, ("bea", "bob", "bil"))  # type: ignore[attr-defined]
        t0, _ = await open_in(sharded, sharded.g0.channels[0], zero[0], zero[1:])  # type: ignore
        t1, _ = await open_in(sharded, sharded.g1.channels[0], one[0], one[1:])  # type: ignore
        assert t0 in a.tables.tables and t0 not in b.tables.tables
        assert t1 in b.tables.tables and t1 not in a.tables.tables
        await asyncio.gather(
            play_session(sharded, a, t0, {u.id: u for u in zero}, random.Random(1), via="dm"),
            play_forwarded(sharded, b, t1, {u.id: u for u in one}, random.Random(2)),
        )
        assert len(b.bot.forwarder.received) > 10 and not a.bot.forwarder.received  # type: ignore
        assert (await a.tables.get(t0)).status == "finished" and (await b.tables.get(t1)).status == "finished"
        for run, guild in ((a, sharded.g0), (b, sharded.g1)):  # type: ignore[attr-defined]
            assert await run.ledger.accounts_total(guild.id) == 0
        assert await a.ledger.accounts_total() == 0  # the whole ledger, both processes' writes
        # wallets read the same from either process
        assert await a.ledger.balance(sharded.g1.id, one[0].id) == await b.ledger.balance(  # type: ignore
            sharded.g1.id, one[0].id)  # type: ignore[attr-defined]
    finally:
        await b.stop()
        await a.stop()


async def test_one_process_with_several_shards_is_auto_sharded(sharded: ShardedStub, pg: str) -> None:
    from discord.ext import commands

    both = ShardRun(sharded, pg, (0, 1))
    await both.start()
    try:
        assert isinstance(both.bot, commands.AutoShardedBot)
        assert sorted(sharded.identified) == [(0, 2), (1, 2)]
        assert sorted(both.bot.shards) == [0, 1]  # type: ignore[union-attr]
        assert {g.id for g in both.bot.guilds} == {sharded.g0.id, sharded.g1.id}  # type: ignore
        bea, = members(sharded, sharded.g1, ("bea",))  # type: ignore[attr-defined]
        inter = await sharded.slash("balance", bea, sharded.g1.channels[0])  # type: ignore[attr-defined]
        assert inter.ephemeral and "1" in inter.text
    finally:
        await both.stop()


async def forwarded_move(stub: ShardedStub, owner: ShardRun, table_id: int, user: User,
                         rng: random.Random) -> tuple[Any, Message, str]:
    """Click a move in ``user``'s latest DM (delivered on shard 0) and wait for ``owner`` to apply it."""
    table = await owner.tables.get(table_id)
    version = table.version
    # The owner's DM goes out through shard 0's process: under load it may land a little after the
    # owner settled (its forwarder idle), so wait for it (the wait fails if it never comes).
    dm = await stub.wait_for(lambda: latest_dm_with_moves(stub, user, table_id, version),
                             what=f"a DM with moves for {user.name} at version {version}")
    control = rng.choice(move_controls(dm, table_id, version))
    inter = await click_control(stub, dm, user, control, rng)
    assert inter.callback_type == 6, inter  # deferred update by the shard-0 process, at once
    await stub.wait_for(lambda: table.version > version, what="the owner to apply the forwarded move")
    return inter, dm, control["custom_id"]


async def test_dm_click_for_another_process_table_is_forwarded_and_applied_once(
        sharded: ShardedStub, pg: str) -> None:
    a, b = ShardRun(sharded, pg, (0,)), ShardRun(sharded, pg, (1,))
    await a.start()
    await b.start()
    try:
        table_id, humans, _ = await table_in_g1(sharded)
        await b.settle()
        table = await b.tables.get(table_id)
        version, user = table.version, humans[table.to_act_users()[0]]
        got_a, got_b = seen_by(a), seen_by(b)
        inter, dm, custom_id = await forwarded_move(sharded, b, table_id, user, random.Random(1))
        assert got_a == [inter.id] and got_b == []  # Discord gave the DM click to shard 0 only
        assert b.bot.forwarder.received == [str(inter.id)]  # type: ignore[union-attr]
        # the owner keeps the click for its next prompt to this player (an edit through its token)
        # (polled: it is kept once shard 0 acknowledged its edit, a NOTIFY the stand-in does not see)
        for _ in range(500):
            if b.bot.presenter.click(table_id, user.id):  # type: ignore[union-attr]
                break
            await asyncio.sleep(0.01)
        assert b.bot.presenter.click(table_id, user.id).message_id == dm.id  # type: ignore[union-attr]
        assert not inter.late  # acknowledged within Discord's window (the stand-in refuses later)
        await b.bot.forwarder.idle()  # type: ignore[union-attr]
        await sharded.wait_for(lambda: "You played" in dm.text, what="the owner to edit the DM by token")
        assert dm.edits >= 1

        # The same click again: forwarded, refused as stale by the owner, applied once only.
        replay = await sharded.click(dm, user, custom_id=custom_id)
        assert replay.callback_type == 6
        await sharded.wait_for(lambda: replay.followups, what="the owner's refusal")
        await b.bot.forwarder.idle()  # type: ignore[union-attr]
        assert "out of date" in replay.text and replay.last.ephemeral
        actions = await b.db.run(store.load_actions, table_id)  # type: ignore[union-attr]
        assert [x.version for x in actions].count(version) == 1

        # The owner is down: the shard-0 process says so instead of leaving the click unanswered.
        await b.settle()
        now = (await b.tables.get(table_id)).version
        waiting = humans[(await b.tables.get(table_id)).to_act_users()[0]]
        dm2 = latest_dm_with_moves(sharded, waiting, table_id, now)
        await b.kill()
        down = await sharded.click(dm2, waiting, custom_id=move_controls(dm2, table_id, now)[0]["custom_id"])
        assert down.callback_type == 6
        await sharded.wait_for(lambda: down.followups, what="the restarting notice")
        assert "restarting" in down.text and down.last.ephemeral
        waiting.locale = "fr"  # the notice is in the clicking player's language
        again = await sharded.click(dm2, waiting, custom_id=move_controls(dm2, table_id, now)[0]["custom_id"])
        await sharded.wait_for(lambda: again.followups, what="the restarting notice in French")
        assert "redémarre" in again.text and again.last.ephemeral
    finally:
        await b.stop()
        await a.stop()


async def test_a_process_with_another_shard_count_is_refused(pg: str) -> None:
    """With 2 and 4 shards at once, guild 5 << 22 would be on shard 1 of one and 1 of the other:
    two owners. The second count is refused until the first one's processes are gone."""
    from bot.sharding import ShardConflict, ShardLocks, ShardPlan

    first = ShardLocks(pg, ShardPlan((0,), 2))
    await first.acquire(timeout=1)
    other = ShardLocks(pg, ShardPlan((1,), 4))
    with pytest.raises(ShardConflict, match="shard count 2, not 4"):
        await other.acquire(timeout=1)
    assert not other.held
    same = ShardLocks(pg, ShardPlan((1,), 2))
    await same.acquire(timeout=1)  # the same count: fine
    await same.release()
    await first.release()
    await other.acquire(timeout=1)  # alone now
    assert other.held == {1}
    await other.release()


async def test_identifies_take_turns_across_processes(sharded: ShardedStub, pg: str) -> None:
    """Two processes starting together IDENTIFY one after the other, the gate's interval apart
    (Discord: one IDENTIFY per 5 s per max_concurrency bucket for the whole bot). Checked on the
    gates' own turns, not on arrival times: a loaded process may send its IDENTIFY late after its
    turn, which shortens the gap the stand-in sees without breaking the rule."""
    a, b = ShardRun(sharded, pg, (0,)), ShardRun(sharded, pg, (1,))
    a.identify_interval = b.identify_interval = 0.5
    await asyncio.gather(a.start(), b.start())
    try:
        assert sorted(sharded.identified) == [(0, 2), (1, 2)]
        turns = sorted(t for run in (a, b) for t in run.bot.before_identify_hook.granted)  # type: ignore
        assert len(turns) == 2 and turns[1] - turns[0] >= 0.5 - 0.01  # (a loop timer may fire 1 ms early)
        first, second = sharded.identified_at
        assert turns[0] <= first < second and turns[1] <= second  # each IDENTIFY after its turn
    finally:
        await b.stop()
        await a.stop()


@pytest.mark.parametrize("too_long", [False, True])
async def test_a_click_forwarded_while_the_owner_resumes_waits_for_its_table(
        sharded: ShardedStub, pg: str, monkeypatch: pytest.MonkeyPatch, too_long: bool) -> None:
    """B is killed mid-session; B2 takes shard 1's lock and LISTENs before it has replayed the
    tables (its resume is held back here). A DM click forwarded to it in that window is neither
    refused as "does not exist any more" nor lost: it is applied, once, when the table is back; or,
    if the resume takes longer than ``RESUME_WAIT``, the player is told to try again and nothing
    is applied."""
    from bot.outbox import forward
    from bot.tables import TableService

    if too_long:
        monkeypatch.setattr(forward, "RESUME_WAIT", 0.3)

    a, b = ShardRun(sharded, pg, (0,)), ShardRun(sharded, pg, (1,))
    await a.start()
    await b.start()
    b2 = ShardRun(sharded, pg, (1,))
    resume = asyncio.Event()
    original = TableService.resume_all

    async def held_back(self: TableService) -> Any:
        await resume.wait()
        return await original(self)

    starting: asyncio.Task[Any] | None = None
    try:
        table_id, humans, _ = await table_in_g1(sharded)
        await b.settle()
        table = await b.tables.get(table_id)
        version, user = table.version, humans[table.to_act_users()[0]]
        dm = await sharded.wait_for(lambda: latest_dm_with_moves(sharded, user, table_id, version),
                                    what="the DM with moves")
        await b.kill()
        monkeypatch.setattr(TableService, "resume_all", held_back)
        starting = asyncio.create_task(b2.start())
        for _ in range(500):  # B2 holds the lock and listens, its tables not back yet
            if b2.bot is not None and b2.bot.forwarder is not None and 1 in await holders(pg, 2):
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.3)
        assert not starting.done()
        control = move_controls(dm, table_id, version)[0]
        click = await click_control(sharded, dm, user, control, random.Random(1))
        assert click.callback_type == 6  # deferred by shard 0 at once, forwarded to B2
        await asyncio.sleep(0.5)
        await a.settle()
        assert "does not exist" not in click.text, click.text
        if too_long:
            await sharded.wait_for(lambda: click.followups, what="the restarting notice")
            assert "restarting" in click.text and click.last.ephemeral
        resume.set()
        await asyncio.wait_for(starting, 20)
        await b2.settle()
        await b2.bot.forwarder.idle()  # type: ignore[union-attr]
        table = await b2.tables.get(table_id)
        assert table is not None
        if too_long:
            assert table.version == version
            return
        assert table.version > version, click.text
        actions = await b2.db.run(store.load_actions, table_id)  # type: ignore[union-attr]
        assert [x.version for x in actions].count(version) == 1
        assert not click.followups or "out of date" not in click.text
    finally:
        resume.set()
        if starting is not None:
            await asyncio.gather(starting, return_exceptions=True)
        await b2.stop()
        await a.stop()


async def capped_at_one(stub: ShardedStub, pg: str) -> tuple[ShardRun, ShardRun]:
    """Shard 0's and shard 1's processes, started, each letting a member sit at one open table."""
    from dataclasses import replace

    a, b = ShardRun(stub, pg, (0,)), ShardRun(stub, pg, (1,))
    await a.start()
    await b.start()
    for run in (a, b):
        run.tables.config = replace(run.tables.config, tables_per_member=1)
    return a, b


async def test_the_member_cap_counts_tables_on_every_shard(sharded: ShardedStub, pg: str) -> None:
    """A member of two servers on two shard processes: with a cap of one open table, the second
    server refuses their second table (nothing paid), as one process serving both would: the cap
    counts every server's tables. Once the first one is gone, the second server opens hers."""

    a, b = await capped_at_one(sharded, pg)
    try:
        ann, = members(sharded, sharded.g0, ("ann",))  # type: ignore[attr-defined]
        sharded.g1.members.append(ann)  # type: ignore[attr-defined]
        first = await sharded.slash("table new", ann, sharded.g0.channels[0], game=GAME)  # type: ignore
        assert not first.ephemeral, first.text
        balance = await b.ledger.balance(sharded.g1.id, ann.id)  # type: ignore[attr-defined]
        second = await sharded.slash("table new", ann, sharded.g1.channels[0], game=GAME)  # type: ignore
        capped = ("You already sit at 1 open table, 1 of them in other servers (the limit is 1, counted on "
                  "every server)")
        assert second.ephemeral and capped in second.text, second.text
        assert not await b.tables.tables_in_channel(sharded.g1.channels[0].id)  # type: ignore[attr-defined]
        assert await b.ledger.balance(sharded.g1.id, ann.id) == balance  # type: ignore[attr-defined]
        # her table on shard 0 ends (she leaves its lobby): shard 1 lets her open one now
        [table] = await a.tables.tables_in_channel(sharded.g0.channels[0].id)  # type: ignore[attr-defined]
        await a.tables.leave(table.id, ann.id)
        third = await sharded.slash("table new", ann, sharded.g1.channels[0], game=GAME)  # type: ignore
        assert not third.ephemeral, third.text
    finally:
        await b.stop()
        await a.stop()


async def test_a_persons_choices_reach_every_shard_process(sharded: ShardedStub, pg: str) -> None:
    """/language, /cards and /preferences are a person's, across servers, and each process keeps
    them in memory: a choice made in a server of shard 1 is what shard 0's process reads next
    (its DMs, its answers), even for a person it had already read."""
    from bot.store.preferences import Preferences

    a, b = ShardRun(sharded, pg, (0,)), ShardRun(sharded, pg, (1,))
    await a.start()
    await b.start()
    try:
        ann, = members(sharded, sharded.g0, ("ann",))  # type: ignore[attr-defined]
        sharded.g1.members.append(ann)  # type: ignore[attr-defined]
        shown = await sharded.slash("preferences", ann, sharded.g0.channels[0])  # type: ignore
        assert "Hands: by DM" in shown.text, shown.text  # shard 0's process has read her choices
        saved = await sharded.slash("preferences", ann, sharded.g1.channels[0], language="cs",  # type: ignore
                                    hands="channel", reminders=False, faces="four_colour")
        assert saved.ephemeral and await b.bot.languages.reader(ann.id, "en-US") == "cs"  # type: ignore

        async def seen_by_a() -> bool:
            bot = a.bot
            return (await bot.languages.reader(ann.id, "en-US") == "cs"  # type: ignore[union-attr]
                    and await bot.preferences.get(ann.id) == Preferences(False, "channel")  # type: ignore
                    and (await bot.card_faces.get(ann.id))[0] == "four_colour")  # type: ignore[union-attr]

        for _ in range(300):
            if await seen_by_a():
                break
            await asyncio.sleep(0.01)
        assert await seen_by_a()
        assert not await a.bot.preferences.hands_by_dm(ann.id)  # type: ignore[union-attr]
    finally:
        await b.stop()
        await a.stop()


async def test_the_member_cap_holds_when_two_shards_open_her_tables_at_once(
        sharded: ShardedStub, pg: str) -> None:
    """Two shard processes open a table for the same member at the same moment (cap one): one of
    them is refused, as the second of two requests at once on one process is."""

    from bot.tables import TableError

    a, b = await capped_at_one(sharded, pg)
    try:
        ann, = members(sharded, sharded.g0, ("ann",))  # type: ignore[attr-defined]
        g0, g1 = sharded.g0, sharded.g1  # type: ignore[attr-defined]
        for attempt in range(5):
            opened = await asyncio.gather(
                a.tables.create(g0.id, g0.channels[0].id, ann.id, "Ann", GAME, {}),
                b.tables.create(g1.id, g1.channels[0].id, ann.id, "Ann", GAME, {}), return_exceptions=True)
            tables = [t for t in opened if not isinstance(t, BaseException)]
            assert len(tables) == 1 and any(isinstance(t, TableError) for t in opened), (attempt, opened)
            [table] = tables
            await (a if table.guild_id == g0.id else b).tables.leave(table.id, ann.id)
        for run in (a, b):
            await run.settle()
            assert await run.ledger.accounts_total() == 0
    finally:
        await b.stop()
        await a.stop()
