"""/replay through the stand-in: spectator-only while running, revealed to the seated players after."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.render.replay import decode_frames, frames
from bot.rules import GAMES
from bot.store import tables as store
from bot.tables.deals import deal_frames, deals_of
from bot.tables.replay import SessionLog
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


@pytest.fixture
async def drawn(stub: DiscordStub, tmp_path: Path) -> AsyncIterator[TapisRun]:
    """The bot with table images on (the table message carries the table image)."""
    run = TapisRun(stub, tmp_path / "tapis.db", images=True)
    await run.start()
    try:
        yield run
    finally:
        await run.stop()


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


def no_cooldown(run: TapisRun) -> None:
    """Let a member ask for replays one after another (the cooldown has its own test)."""
    run.bot.get_cog("History").jobs.cooldown = 0  # type: ignore[union-attr]


async def replay(stub: DiscordStub, user: User, channel, **options):
    """/replay, waiting for its answer after the defer (the rendering runs in a thread)."""
    inter = await stub.slash("replay", user, channel, **options)
    await stub.wait_for(lambda: inter.callback_type == 4 or inter.followups or (
        inter.original is not None and inter.original.edits > 0), timeout=20, what="the replay")
    return inter


async def play_humans_until(tapis: TapisRun, table_id: int, done) -> None:
    """The humans play their first legal move (the AI its own) until ``done(table)``."""
    for _ in range(2000):
        await tapis.settle()
        table = await tapis.tables.get(table_id)
        if done(table) or table.status != "playing":
            return
        user = table.to_act_users()[0]
        seat = table.seat_of(user)
        await tapis.tables.act(table_id, user, table.version, table.state.legal_actions(seat)[0])
    raise AssertionError("never reached")


async def test_replay_running_then_finished(stub: DiscordStub, drawn: TapisRun, players: list[User]) -> None:
    tapis = drawn
    no_cooldown(tapis)
    alice, bob, carol, _ = players
    table_id, lobby = await open_table(stub, alice, [bob], ai=1, game="marias")
    await play_humans_until(tapis, table_id, lambda t: t.state.view(None)["deal"] >= 2)
    table = await tapis.tables.get(table_id)
    assert table.status == "playing"
    names = [s.name for s in table.seats]

    # running: a seated player gets the spectator replay only, frame for frame
    inter = await replay(stub, alice, stub.channel, table=table_id, deal=1)
    [att] = inter.last.attachments
    assert inter.ephemeral and att.filename == f"replay-{table_id}-1.webp" and "spectators" in inter.text
    actions = await tapis.db.run(store.load_actions, table_id)
    df = deal_frames(SessionLog(table.rules, 3, table.options, table.seed, actions), 1, reveal=False)
    shown = decode_frames(att.data)
    assert len(shown) == len(df.views)
    assert all(same(a, b) for a, b in zip(shown, frames("marias", df.views, names), strict=True))
    gif = await replay(stub, carol, stub.channel, table=table_id, deal=1, format="gif")
    assert gif.last.attachments[0].data[:3] == b"GIF"
    count = len(deals_of(SessionLog(GAMES["marias"], 3, table.options, table.seed, actions), str))
    beyond = await replay(stub, carol, stub.channel, table=table_id, deal=count + 1)
    assert beyond.ephemeral and f"choose a deal from 1 to {count}." in beyond.text

    # finished: the AI plays everyone out
    for user in (alice, bob):
        await tapis.tables.leave(table_id, user.id)
    await tapis.settle()
    assert table.status == "finished"
    actions = await tapis.db.run(store.load_actions, table_id)
    deals = deals_of(SessionLog(GAMES["marias"], 3, table.options, table.seed, actions), str)
    last = len(deals)
    mine = await replay(stub, bob, stub.channel, table=table_id, deal=last)
    revealed = decode_frames(mine.last.attachments[0].data)
    assert "every hand revealed" in mine.text and revealed[0].size[1] > 540
    theirs = await replay(stub, carol, stub.channel, table=table_id, deal=last)
    spectator = decode_frames(theirs.last.attachments[0].data)
    assert "spectators" in theirs.text and spectator[0].size == (960, 540)
    # the last frame is the finished table image the table message shows
    message = stub.message(lobby.id)
    [png] = [a for a in message.attachments if a.filename == f"table-{table_id}.png"]
    final = Image.open(io.BytesIO(png.data))
    assert same(spectator[-1], final)
    assert same(revealed[-1].crop((0, 0, 960, 540)), final)


async def test_replay_refusals(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice = players[0]
    missing = await replay(stub, alice, stub.channel, table=999, deal=1)
    assert missing.ephemeral and "no table #999" in missing.text
    await stub.slash("table new", alice, stub.channel, game="motz")
    lobby = stub.messages(stub.channel)[-1]
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    early = await replay(stub, alice, stub.channel, table=table_id, deal=1)
    assert early.ephemeral and "has not started" in early.text
    other = stub.add_guild("Elsewhere")
    stranger = stub.add_user("eve", other)
    away = await replay(stub, stranger, other.channels[0], table=table_id, deal=1)
    assert "no table" in away.text
