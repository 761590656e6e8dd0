"""/replay cannot take the bot down (issue 26, items 1 and 12): frames capped, one replay per member,
a bounded queue on its own worker, a cooldown, a cache of finished replays, and files within the
interaction's upload limit. Structural limits are asserted here; the memory of a burst is measured by
``bench/replay_memory.py`` (figures in docs/benchmarks.md)."""

from __future__ import annotations

import gc
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.render.replay import decode_frames
from bot.replays.frames import MAX_FRAMES, replay_frames
from bot.rules import GAMES
from bot.store import tables as store
from bot.tables.deals import deals_of
from bot.tables.replay import SessionLog
from tests.bot.test_history import service_session
from tests.bot.test_replay import replay
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun

ROUNDS = 25  # mus rounds called in the long deal: 200 moves before the lances


def cog(tapis: TapisRun) -> Any:
    return tapis.bot.get_cog("History")  # type: ignore[union-attr]


class Clock:
    """The replay pool's clock, moved by hand (the cooldown without waiting)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def renders(tapis: TapisRun, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Counts the replays really drawn; ``gate`` (cleared) holds the worker until it is set."""
    state: dict[str, Any] = {"calls": 0, "gate": threading.Event(), "threads": set()}
    state["gate"].set()
    module = sys.modules[type(cog(tapis)).__module__]  # the extension's module, as the bot loaded it
    real = module.render

    def counted(*args: Any, **kwargs: Any) -> Any:
        state["calls"] += 1
        state["threads"].add(threading.current_thread().name)
        state["gate"].wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "render", counted)
    return state


async def long_mus_deal(tapis: TapisRun, stub: DiscordStub, players: list[User]) -> int:
    """A Mus table whose first deal has ``ROUNDS`` mus rounds (every seat calls mus and discards one
    card each time), then is played out with the first legal move; the session goes on after it."""
    t = await tapis.tables.create(stub.guild.id, stub.channel.id, players[0].id, players[0].name, "mus", {})
    for p in players[1:]:
        await tapis.tables.join(t.id, p.id, p.name)
    await tapis.tables.start(t.id, players[0].id)
    rounds = 0
    for _ in range(2000):
        table = await tapis.tables.get(t.id)
        if table.state.view(None)["deal"] > 1 or table.status != "playing":
            return t.id
        user = table.to_act_users()[0]
        seat = table.seat_of(user)
        legal = table.state.legal_actions(seat)
        kinds = {a["type"] for a in legal}
        if "mus" in kinds:
            action = next(a for a in legal if a["type"] == ("mus" if rounds < ROUNDS else "no_mus"))
        elif "discard" in kinds:
            action = next(a for a in legal if len(a["cards"]) == 1)
        else:
            action = legal[0]
        await tapis.tables.act(t.id, user, table.version, action)
        if action["type"] == "discard":
            view = table.state.view(None)
            rounds = view.get("mus_round", rounds)
    raise AssertionError("the deal never ended")


async def test_a_long_mus_deal_is_capped_and_a_burst_of_one_member_draws_once(
        stub: DiscordStub, tapis: TapisRun, players: list[User], renders: dict[str, Any]) -> None:
    alice = players[0]
    table_id = await long_mus_deal(tapis, stub, players)
    table = await tapis.tables.get(table_id)
    actions = await tapis.db.run(store.load_actions, table_id)
    [first, *_] = deals_of(SessionLog(GAMES["mus"], 4, table.options, table.seed, actions), str)
    moves = first.last - first.first + 1
    assert moves > 8 * ROUNDS  # every round: four mus calls and four discards
    expected = replay_frames(SessionLog(GAMES["mus"], 4, table.options, table.seed, actions), 1, reveal=False)
    assert expected is not None and len(expected.views) <= MAX_FRAMES

    # Six /replay at once by one member, the worker held: one is drawn, five refused at once.
    renders["gate"].clear()
    sent = [await stub.slash("replay", alice, stub.channel, wait=False, table=table_id, deal=1)
            for _ in range(6)]
    await stub.wait_for(lambda: sum(i.answered.is_set() for i in sent) == 6, timeout=20, what="six answers")
    refused = [i for i in sent if "still being drawn" in i.text]
    assert len(refused) == 5 and all(i.ephemeral for i in refused)
    renders["gate"].set()
    [drawn] = [i for i in sent if i not in refused]
    await stub.wait_for(lambda: drawn.followups or (drawn.original is not None and drawn.original.edits),
                        timeout=30, what="the replay")
    assert renders["calls"] == 1 and renders["threads"] == {"tapis-replay_0"}, drawn.text
    [att] = drawn.last.attachments
    shown = decode_frames(att.data)
    # Repeated mus rounds collapse (the first and last are kept): far fewer frames than moves.
    assert len(shown) <= len(expected.views) < moves // 3
    assert "moves are not shown" in drawn.text


async def test_queue_bound_cooldown_and_cache(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                              renders: dict[str, Any]) -> None:
    alice = players[0]
    table_id = await service_session(tapis, stub, alice, "marias")
    jobs = cog(tapis).jobs
    jobs.clock = clock = Clock()
    members = [stub.add_user(f"m{i}", stub.guild) for i in range(jobs.capacity + 1)]

    # A burst of capacity + 1 members, each a different replay (language, format), the worker held:
    # all but the last are queued, the last refused.
    kinds = [(lang, fmt) for fmt in ("webp", "gif") for lang in ("en-US", "fr", "es-ES", "cs")]
    for member, (lang, _) in zip(members, kinds, strict=False):
        member.locale = lang
    renders["gate"].clear()
    sent = [await stub.slash("replay", m, stub.channel, wait=False, table=table_id, deal=1, format=fmt)
            for m, (_, fmt) in zip(members, kinds, strict=False)]
    await stub.wait_for(lambda: sum(i.answered.is_set() for i in sent) == len(sent), timeout=20,
                        what="every answer")
    assert "⚠️" in sent[-1].text and sent[-1].ephemeral and sent[-1].callback_type == 4
    assert all(i.callback_type == 5 for i in sent[:-1])  # deferred: waiting their turn
    assert len(jobs.running) == jobs.capacity
    # The same replay asked by another member meanwhile joins the one being drawn.
    joined = await stub.slash("replay", players[1], stub.channel, wait=False, table=table_id, deal=1)
    renders["gate"].set()
    await stub.wait_for(lambda: all(i.last.attachments for i in (*sent[:-1], joined)), timeout=90,
                        what="the replays")
    assert renders["calls"] == jobs.capacity and not jobs.running
    assert joined.last.attachments[0].data == sent[0].last.attachments[0].data
    # Once drawn, a finished deal's replay comes from the cache.
    cached = await replay(stub, players[2], stub.channel, table=table_id, deal=1)
    assert cached.last.attachments[0].data == sent[0].last.attachments[0].data
    assert renders["calls"] == jobs.capacity

    # The cooldown: the same member's next (uncached) replay waits, then goes through.
    deal2 = await replay(stub, members[0], stub.channel, table=table_id, deal=2)
    assert "Wait 5 seconds before your next replay" in deal2.text
    clock.now += 5
    deal2 = await replay(stub, members[0], stub.channel, table=table_id, deal=2)
    calls = renders["calls"]
    assert "has 1 deal so far" in deal2.text and calls == jobs.capacity + 1

    # Revealed (a player of the finished session) never shares the spectators' entry.
    mine = await replay(stub, alice, stub.channel, table=table_id, deal=1)
    assert "every hand revealed" in mine.text and renders["calls"] == calls + 1
    again = await replay(stub, alice, stub.channel, table=table_id, deal=1)  # cooling down, but cached
    assert again.last.attachments[0].data == mine.last.attachments[0].data and renders["calls"] == calls + 1


async def test_a_running_deal_is_cached_only_at_its_version(
        stub: DiscordStub, tapis: TapisRun, players: list[User], renders: dict[str, Any]) -> None:
    alice, bob = players[:2]
    t = await tapis.tables.create(stub.guild.id, stub.channel.id, alice.id, alice.name, "marias", {})
    await tapis.tables.join(t.id, bob.id, bob.name)
    await tapis.tables.add_ai(t.id, alice.id)
    await tapis.tables.start(t.id, alice.id)
    cog(tapis).jobs.cooldown = 0

    async def humans_move() -> None:
        for _ in range(50):
            await tapis.settle()
            table = await tapis.tables.get(t.id)
            users = table.to_act_users()
            if users:
                seat = table.seat_of(users[0])
                await tapis.tables.act(t.id, users[0], table.version, table.state.legal_actions(seat)[0])
                return
        raise AssertionError("no human to move")

    await humans_move()
    await tapis.settle()
    first = await replay(stub, players[2], stub.channel, table=t.id, deal=1)
    second = await replay(stub, players[2], stub.channel, table=t.id, deal=1)
    assert renders["calls"] == 1 and second.last.attachments[0].data == first.last.attachments[0].data
    await humans_move()
    await tapis.settle()
    third = await replay(stub, players[2], stub.channel, table=t.id, deal=1)
    assert renders["calls"] == 2
    frames = [len(decode_frames(i.last.attachments[0].data)) for i in (first, third)]
    assert frames[1] > frames[0]


async def test_a_gif_past_the_upload_limit_is_sent_as_webp_then_trimmed(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice = players[0]
    table_id = await service_session(tapis, stub, alice, "marias")
    cog(tapis).jobs.cooldown = 0
    webp = await replay(stub, players[1], stub.channel, table=table_id, deal=1)
    gif = await replay(stub, players[1], stub.channel, table=table_id, deal=1, format="gif")
    small, large = len(webp.last.attachments[0].data), len(gif.last.attachments[0].data)
    assert gif.last.attachments[0].filename.endswith(".gif") and small < large

    stub.attachment_size_limit = (small + large) // 2  # the GIF does not fit, the WebP does
    fell = await replay(stub, players[1], stub.channel, table=table_id, deal=1, format="gif")
    [att] = fell.last.attachments
    assert att.filename == f"replay-{table_id}-1.webp" and att.data == webp.last.attachments[0].data
    assert "sent as WebP" in fell.text

    stub.attachment_size_limit = small * 2 // 3  # not even the WebP: fewer frames
    trimmed = await replay(stub, players[1], stub.channel, table=table_id, deal=1, format="gif")
    [att] = trimmed.last.attachments
    assert len(att.data) <= stub.attachment_size_limit
    assert len(decode_frames(att.data)) < len(decode_frames(webp.last.attachments[0].data))
    assert "left out to fit Discord's upload limit" in trimmed.text



def resident_mb() -> dict[str, float]:
    """This process's resident set now and its peak since the last reset, in MB."""
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) / 1024
    return out


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's /proc")
async def test_a_burst_of_six_different_replays_stays_within_200_mb(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """The issue's bound, loosely (memory, not time): six members each ask a different replay of a
    long Mus deal at once (no cache, no shared drawing); the process's peak grows by < 200 MB.
    ``bench/replay_memory.py`` measures it in a bot process of its own (docs/benchmarks.md)."""
    table_id = await long_mus_deal(tapis, stub, players)
    warm = await replay(stub, players[0], stub.channel, table=table_id, deal=2)  # fonts, sprites
    assert warm.text
    members = [stub.add_user(f"m{i}", stub.guild) for i in range(6)]
    kinds = [(lang, "webp") for lang in ("en-US", "fr", "es-ES", "cs")] + [("en-US", "gif"), ("fr", "gif")]
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")  # the peak starts again from here
    before = resident_mb()["VmRSS"]
    sent = []
    for member, (lang, fmt) in zip(members, kinds, strict=True):
        member.locale = lang
        sent.append(await stub.slash("replay", member, stub.channel, wait=False, table=table_id, deal=1,
                                     format=fmt))
    await stub.wait_for(lambda: all(i.original is not None and i.original.edits for i in sent), timeout=120,
                        what="six replays")
    assert all(i.last.attachments for i in sent)
    peak = resident_mb()["VmHWM"]
    assert peak - before < 200, f"the burst grew the process from {before:.0f} to {peak:.0f} MB"
