"""Spending less of Discord's global budget: the mover's own answer, DM edits, priorities."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.outbox.budget import BACKGROUND, PROMPT, REFRESH, RestBudget
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.play import click_control, click_move, latest_dm_with_moves, move_controls
from tests.discord_stub.tapis import TapisRun

DM_SEND = ("POST", "/channels/{cid}/messages")
WEBHOOK_EDIT = ("PATCH", "/webhooks/{app}/{token}/messages/{mid}")


async def play_by_dm(stub: DiscordStub, tapis: TapisRun, table_id: int, users: dict[int, User],
                     moves: int, rng: random.Random) -> int:
    """``moves`` moves, each clicked in the latest DM of the player to act (which must offer them)."""
    done = 0
    for _ in range(moves):
        await tapis.settle()
        table = await tapis.tables.get(table_id)
        if table.status != "playing":
            break
        user = users[table.to_act_users()[0]]
        dm = latest_dm_with_moves(stub, user, table_id, table.version)
        assert dm is not None and dm is stub.dms(user)[-1], f"{user.name} has no prompt at v{table.version}"
        control = rng.choice(move_controls(dm, table_id, table.version))
        await click_move(stub, dm, user, control, rng)
        done += 1
    return done


def dm_posts(stub: DiscordStub) -> int:
    dm_ids = {c.id for c in stub.dm_channels.values()}
    return sum(1 for c in stub.calls_to(*DM_SEND) if int(c.path.split("/")[2]) in dm_ids)


async def test_prompts_edit_the_clicked_dm_and_the_mover_gets_no_dm(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, dave = players
    table_id, _ = await open_table(stub, alice, [bob, carol, dave], ai=0)
    users = {u.id: u for u in players}
    await tapis.settle()
    assert dm_posts(stub) == 4  # the deal: one DM each, the first player's with buttons
    clicked: set[int] = set()
    while len(clicked) < 4:  # until everyone has clicked once, a prompt may be a new DM
        table = await tapis.tables.get(table_id)
        clicked.add(table.to_act_users()[0])
        await play_by_dm(stub, tapis, table_id, users, 1, random.Random(len(clicked)))
    await tapis.settle()
    first = dm_posts(stub)
    assert first <= 8  # at most each one's first hand and first prompt
    moves = await play_by_dm(stub, tapis, table_id, users, 30, random.Random(2))
    assert moves == 30
    # every later prompt and new hand edited the DM its player last clicked (interaction webhook,
    # outside the global limit): no new DM, and none for the mover (the click's answer shows it)
    assert dm_posts(stub) == first
    assert len(stub.calls_to(*WEBHOOK_EDIT)) >= moves - 4
    assert not stub.invalid


async def test_a_refused_dm_edit_falls_back_to_a_new_dm(stub: DiscordStub, tapis: TapisRun,
                                                        players: list[User]) -> None:
    tapis.bot.presenter.table_tokens.life = 0.0  # table edits in the channel: the webhook fault is the DM's
    alice, bob, carol, dave = players
    table_id, _ = await open_table(stub, alice, [bob, carol, dave], ai=0)
    users = {u.id: u for u in players}
    await play_by_dm(stub, tapis, table_id, users, 4, random.Random(4))  # everyone clicked once
    await tapis.settle()
    before = dm_posts(stub)
    stub.fail("PATCH", "/webhooks/{app}/{token}/messages/{mid}", 401, 50027, "Invalid Webhook Token")
    await play_by_dm(stub, tapis, table_id, users, 1, random.Random(5))  # asserts the prompt arrived
    await tapis.settle()
    assert [c.status for c in stub.calls_to(*WEBHOOK_EDIT)][-1:] == [401]  # the edit was tried, refused
    assert dm_posts(stub) == before + 1  # and became a new DM


async def test_a_lost_move_answer_is_replaced_by_a_dm(stub: DiscordStub, tapis: TapisRun,
                                                      players: list[User]) -> None:
    alice, bob, carol, dave = players
    table_id, _ = await open_table(stub, alice, [bob, carol, dave], ai=0)
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    user = {u.id: u for u in players}[table.to_act_users()[0]]
    dm = latest_dm_with_moves(stub, user, table_id, table.version)
    before = len(stub.dms(user))
    stub.fail("POST", "/interactions/{iid}/{token}/callback", 404, 10062, "Unknown interaction")
    control = move_controls(dm, table_id, table.version)[0]
    await stub.click(dm, user, custom_id=control["custom_id"], wait=False)
    await stub.wait_for(lambda: len(stub.dms(user)) > before, what="the mover's DM")
    await tapis.settle()
    assert f"version {table.version}" in stub.dms(user)[-1].text  # their new state, by DM


async def test_budget_serves_prompts_before_table_refreshes() -> None:
    budget = RestBudget(rate=100.0, burst=1.0)
    order: list[str] = []

    async def take(name: str, priority: int) -> None:
        await budget.take(priority)
        order.append(name)

    await take("first", REFRESH)  # uses the only saved token
    waiting = [asyncio.create_task(take("member check", BACKGROUND))]
    waiting += [asyncio.create_task(take(f"table {i}", REFRESH)) for i in range(3)]
    await asyncio.sleep(0)
    waiting.append(asyncio.create_task(take("prompt", PROMPT)))
    await asyncio.gather(*waiting)
    assert order == ["first", "prompt", "table 0", "table 1", "table 2", "member check"]
    assert budget.granted == [1, 4, 1]


async def test_a_server_burst_does_not_hold_other_servers_requests() -> None:
    """One server's burst (a tournament round's 40 first DMs, threads, lobbies) queued first-come:
    another server's turn prompt went out only after all of it. The servers waiting now take turns
    within a priority: the other server's prompt goes out second, and the burst keeps its order."""
    budget = RestBudget(rate=1000.0, burst=1.0)
    order: list[tuple[int, int]] = []

    async def take(guild: int, n: int, priority: int = PROMPT) -> None:
        await budget.take(priority, guild)
        order.append((guild, n))

    await take(1, -1)  # uses the only saved token: the rest wait
    burst = [asyncio.create_task(take(1, n)) for n in range(40)]
    await asyncio.sleep(0)
    others = [asyncio.create_task(take(2, 0)), asyncio.create_task(take(3, 0)),
              asyncio.create_task(take(2, 1, REFRESH))]
    await asyncio.gather(*burst, *others)
    assert order[1:5] == [(1, 0), (2, 0), (3, 0), (1, 1)]
    assert [n for g, n in order if g == 1] == list(range(-1, 40))  # each server's own order kept
    assert order[-1] == (2, 1)  # a refresh still waits for every prompt
    assert len(budget.waiting) == 0 and budget.granted == [43, 1, 0]


async def test_tables_sharing_a_channel_take_turns_to_edit(stub: DiscordStub, tapis: TapisRun,
                                                           players: list[User]) -> None:
    tapis.bot.presenter.edit_interval = 0.2
    tapis.bot.presenter.table_tokens.life = 0.0  # as 14 minutes after Start: edits through the channel
    alice, bob, carol, dave = players
    first, _ = await open_table(stub, alice, [bob], ai=1, game="motz")
    second, _ = await open_table(stub, carol, [dave], ai=1, game="motz")
    users = {u.id: u for u in players}
    rng = random.Random(6)
    await tapis.settle()
    for _ in range(6):  # moves at both tables, as fast as the players can click
        for table_id in (first, second):
            table = await tapis.tables.get(table_id)
            user = users[table.to_act_users()[0]]
            dm = latest_dm_with_moves(stub, user, table_id, table.version)
            await click_control(stub, dm, user, rng.choice(move_controls(dm, table_id, table.version)), rng)
        await tapis.settle()
    edits = [c.at for c in stub.calls_to("PATCH", "/channels/{cid}/messages/{mid}")
             if c.path.startswith(f"/channels/{stub.channel.id}/")]
    assert len(edits) >= 6
    # one edit per interval in the channel, whichever table (arrival times jitter: count, not gaps)
    assert len(edits) - 1 <= (edits[-1] - edits[0]) / 0.2 + 1, edits


CHANNEL_EDIT = ("PATCH", "/channels/{cid}/messages/{mid}")


def table_edits(stub: DiscordStub, message_id: int) -> tuple[int, int]:
    """(edits of the table message through the channel, through an interaction webhook)."""
    channel = sum(1 for c in stub.calls_to(*CHANNEL_EDIT)
                  if c.path.endswith(f"/{message_id}") and c.status == 200)
    webhook = 0
    for c in stub.calls_to(*WEBHOOK_EDIT):
        inter = stub.by_token.get(c.path.split("/")[3])
        if c.status == 200 and inter is not None and inter.original is not None \
                and inter.original.id == message_id:
            webhook += 1
    return channel, webhook


async def test_the_table_message_is_edited_through_the_lobby_and_start_tokens(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, dave = players
    await stub.slash("table new", alice, stub.channel, game="motz", players=4)
    lobby = stub.messages(stub.channel)[-1]
    for guest in (bob, carol):
        await stub.click(lobby, guest, "Join")
    await tapis.settle()
    assert "bob" in lobby.text.lower() and "carol" in lobby.text.lower()  # the joins are shown
    assert table_edits(stub, lobby.id)[0] == 0  # through /table new's token, not the channel
    await stub.click(lobby, dave, "Join")
    start = await stub.click(lobby, alice, "Start")
    assert start.callback_type == 6 and start.ephemeral and "starts" in start.text  # acked as an update
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    moves = await play_by_dm(stub, tapis, table_id, {u.id: u for u in players}, 12, random.Random(7))
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert moves == 12 and f"version {table.version}" in lobby.text  # the latest state is shown
    channel, webhook = table_edits(stub, lobby.id)
    assert channel == 0 and webhook >= 6, (channel, webhook)
    assert tapis.bot.presenter.table_tokens.tokens[table_id].interaction.id == start.id


@pytest.mark.parametrize("why", ["refused", "old"])
async def test_a_refused_or_old_table_token_falls_back_to_the_channel(
        why: str, stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, dave = players
    table_id, lobby = await open_table(stub, alice, [bob, carol, dave], ai=0)
    users = {u.id: u for u in players}
    await play_by_dm(stub, tapis, table_id, users, 2, random.Random(8))
    await tapis.settle()
    tokens = tapis.bot.presenter.table_tokens
    assert table_edits(stub, lobby.id)[0] == 0
    if why == "refused":
        del stub.by_token[tokens.tokens[table_id].interaction.token]  # 404 Unknown Webhook from now on
    else:
        tokens.life = 0.0  # as 14 minutes after Start
    await play_by_dm(stub, tapis, table_id, users, 1, random.Random(9))
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert f"version {table.version}" in lobby.text and table_id not in tokens.tokens
    assert table_edits(stub, lobby.id)[0] == 1  # the edit went through the channel


async def test_a_dm_click_tells_the_dm_channel_no_need_to_open_it(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    presenter = tapis.bot.presenter
    presenter.table_tokens.life = 0.0  # the webhook faults below are for the DM edits
    alice, bob, carol, dave = players
    table_id, _ = await open_table(stub, alice, [bob, carol, dave], ai=0)
    users = {u.id: u for u in players}
    await play_by_dm(stub, tapis, table_id, users, 4, random.Random(11))
    await tapis.settle()
    presenter.dms.channels.clear()  # as after a restart (and past discord.py's own 128 DM channels)
    tapis.bot._connection._private_channels.clear()
    tapis.bot._connection._private_channels_by_user.clear()
    seen = len(stub.interactions)
    opens = len(stub.calls_to("POST", "/users/@me/channels"))
    await play_by_dm(stub, tapis, table_id, users, 6, random.Random(12))
    await tapis.settle()
    clicked = {i.user.id for i in list(stub.interactions.values())[seen:]}
    assert clicked and all(presenter.dms.channels[u] == stub.dm_channel(u).id for u in clicked)
    sends = len(stub.calls_to(*DM_SEND))
    stub.fail("PATCH", "/webhooks/{app}/{token}/messages/{mid}", 401, 50027, "Invalid Webhook Token", count=4)
    await play_by_dm(stub, tapis, table_id, users, 1, random.Random(13))  # the next prompt: a new DM
    await tapis.settle()
    to = {c.path.split("/")[2] for c in stub.calls_to(*DM_SEND)[sends:]}
    assert to and to <= {str(stub.dm_channel(u).id) for u in clicked}  # to players who clicked since
    assert len(stub.calls_to("POST", "/users/@me/channels")) == opens  # their channel came with the click


class GatedBudget(RestBudget):
    """A budget that grants nothing until ``gate`` is set (Discord's global limit, all used up)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def take(self, priority: int = REFRESH, key: object = None) -> None:
        await self.gate.wait()
        self.granted[priority] += 1


async def test_a_dm_that_waited_for_the_budget_shows_the_state_it_is_sent_in(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    budget = tapis.bot.presenter.budget = GatedBudget()
    try:
        await dm_sent_after_waiting(stub, tapis, players, budget)
    finally:
        budget.gate.set()


async def dm_sent_after_waiting(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                budget: GatedBudget) -> None:
    alice, bob, carol, dave = players
    table_id, lobby = await open_table(stub, alice, [bob, carol, dave], ai=0)
    await stub.wait_for(lambda: any(c.get("label") == "My hand" for c in lobby.items()), what="the game")
    assert not any(stub.dms(u) for u in players)  # the deal's DMs wait for the budget
    users = {u.id: u for u in players}
    rng = random.Random(1)
    for _ in range(4):  # meanwhile the players play from My hand (the host's DM is being sent)
        table = await tapis.tables.get(table_id)
        mover = users[table.to_act_users()[0]]
        hand = await stub.click(lobby, mover, "My hand")
        control = rng.choice(move_controls(hand.last, table_id, table.version))
        await click_move(stub, hand.last, mover, control, rng)
    budget.gate.set()
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table.version == 4
    for user in players:  # one DM each, showing the table as it is now: no stale state or buttons
        [dm] = stub.dms(user)
        assert f"version {table.version}" in dm.text, (user.name, dm.text)
        versions = {int(c.split(":")[2]) for c in dm.custom_ids() if c.split(":")[3] in ("mv", "sel")}
        assert versions == ({table.version} if user.id in table.to_act_users() else set()), user.name
