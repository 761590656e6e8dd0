"""Forwarded DM clicks are authenticated and carry no interaction token (issue 26, item 5).

Any database role may ``NOTIFY`` on a shard's channel and ``LISTEN`` to it. A forged click (no
signature, a wrong one, one signed for another channel) or a genuine one sent again moves nothing;
what a listener hears holds no token; the owner's refusals still reach the player ephemerally and
its DM edits still go through the click's token (outside the global limit), both relayed by the
shard-0 process that kept the token; without shard 0's answer the owner edits the DM by REST.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import asyncpg
import pytest

from bot.outbox.forward import channel_name
from bot.signing import MIN_SECRET, SECRET_ENV, Sealer, SecretMissing, secret_from_env
from tests.bot.test_shards import forwarded_move, members, open_in
from tests.discord_stub.play import latest_dm_with_moves, move_controls
from tests.discord_stub.sharding import ShardedStub, ShardRun


async def _until(predicate, what: str, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def _forged_click(interaction_id: str, user: Any, dm: Any, custom_id: str, reply_to: str) -> dict[str, Any]:
    """A click as an intruder would write it, every field the forwarder ever read (a token too)."""
    return {"kind": "click", "id": interaction_id, "application_id": "1", "token": "forged-token",
            "reply_to": reply_to, "user": {"id": str(user.id), "username": user.name, "discriminator": "0",
                                           "avatar": None, "global_name": None},
            "channel_id": str(dm.channel_id), "custom_id": custom_id, "values": None, "locale": "en-US",
            "message_id": str(dm.id)}


async def test_forged_or_replayed_notifies_move_nothing_and_listeners_see_no_token(
        sharded: ShardedStub, pg: str) -> None:
    a, b = ShardRun(sharded, pg, (0,)), ShardRun(sharded, pg, (1,))
    await a.start()
    await b.start()
    heard: list[tuple[str, str]] = []
    spy = await asyncpg.connect(pg)  # another role's view: it may LISTEN and NOTIFY, nothing more
    try:
        space = b.locks.space  # type: ignore[union-attr]
        to_owner, to_origin = channel_name(space, 1), channel_name(space, 0)
        for channel in (to_owner, to_origin):
            await spy.add_listener(channel, lambda _c, _p, ch, payload: heard.append((ch, payload)))
        bea, bob, bil = members(sharded, sharded.g1, ("bea", "bob", "bil"))  # type: ignore[attr-defined]
        humans = {u.id: u for u in (bea, bob, bil)}
        table_id, _ = await open_in(sharded, sharded.g1.channels[0], bea, [bob, bil])  # type: ignore
        await b.settle()
        table = await b.tables.get(table_id)

        # A genuine forwarded click: applied once; the NOTIFY a listener hears has no token.
        user = humans[table.to_act_users()[0]]
        inter, dm, custom_id = await forwarded_move(sharded, b, table_id, user, random.Random(3))
        await b.bot.forwarder.idle()  # type: ignore[union-attr]
        await _until(lambda: any(ch == to_owner for ch, _ in heard), "the spy to hear the click")
        genuine = next(p for ch, p in heard if ch == to_owner)
        assert inter.token not in genuine and '"token"' not in genuine
        await sharded.wait_for(lambda: "You played" in dm.text, what="shard 0's relayed edit of the DM")
        rest_edits = f"/channels/{dm.channel_id}/messages/{dm.id}"
        assert any(c.method == "PATCH" and inter.token in c.path for c in sharded.calls)  # the token
        assert not any(c.method == "PATCH" and c.path.endswith(rest_edits) for c in sharded.calls)
        assert a.bot.forwarder.relayed >= 1  # type: ignore[union-attr]

        # The same click again: forwarded anew (a new nonce), refused by the owner as out of date,
        # and the refusal reaches the player ephemerally through shard 0's token; not on the wire.
        replay = await sharded.click(dm, user, custom_id=custom_id)
        await sharded.wait_for(lambda: replay.followups, what="the relayed refusal")
        assert "out of date" in replay.text and replay.last.ephemeral
        assert all(replay.token not in p and inter.token not in p for _, p in heard)
        assert any(ch == to_origin for ch, _ in heard)  # the refusal came back over NOTIFY

        # Forged clicks for the player now to act, at the current version: nothing moves.
        await b.settle()
        version = table.version
        user = humans[table.to_act_users()[0]]
        dm = latest_dm_with_moves(sharded, user, table_id, version)
        assert dm is not None
        move = move_controls(dm, table_id, version)[0]["custom_id"]
        received = list(b.bot.forwarder.received)  # type: ignore[union-attr]
        sealer = b.bot.forwarder.sealer  # type: ignore[union-attr]
        forged = _forged_click("424242", user, dm, move, to_origin)
        wrong = Sealer(b"not-the-secret-of-this-bot-0123")
        attempts = [
            (to_owner, json.dumps(forged)),  # no signature at all
            (to_owner, wrong.seal(to_owner, forged)),  # signed with another secret
            (to_owner, genuine),  # a genuine payload heard earlier, sent again
            (to_owner, Sealer(b.secret).seal(to_origin, forged)),  # signed for another channel
        ]
        mac, _, text = genuine.partition(".")
        tampered = json.loads(text)
        tampered["body"]["custom_id"] = move  # the genuine envelope, its click changed
        attempts.append((to_owner, f"{mac}.{json.dumps(tampered, separators=(',', ':'), sort_keys=True)}"))
        for n, (channel, payload) in enumerate(attempts, 1):
            await spy.execute("SELECT pg_notify($1, $2)", channel, payload)
            await _until(lambda n=n: sum(sealer.refused.values()) == n, f"forged NOTIFY {n} to be refused")
        await b.bot.forwarder.idle()  # type: ignore[union-attr]
        await b.settle()
        assert table.version == version  # nothing moved
        assert b.bot.forwarder.received == received  # type: ignore[union-attr]
        assert sealer.refused == {"bad or missing signature": 4, "replayed": 1}

        # The player's own click still works; with its token gone from shard 0 (past 14 minutes,
        # or shard 0 restarted), the owner edits the DM through REST instead.
        a.bot.forwarder._keep = lambda interaction: None  # type: ignore[union-attr,method-assign]
        _, dm, _ = await forwarded_move(sharded, b, table_id, user, random.Random(4))
        assert table.version == version + 1
        await sharded.wait_for(lambda: "You played" in dm.text, what="the owner's REST edit of the DM")
        assert any(c.method == "PATCH" and c.path.endswith(f"/channels/{dm.channel_id}/messages/{dm.id}")
                   for c in sharded.calls)
    finally:
        await spy.close()
        await b.stop()
        await a.stop()


def test_sealed_messages_expire_and_are_accepted_once() -> None:
    now = [1_000_000.0]
    sealer = Sealer(b"s" * MIN_SECRET, max_age=60.0, clock=lambda: now[0])
    payload = sealer.seal("ch", {"kind": "click", "n": 1})
    assert sealer.open("ch", payload) == {"kind": "click", "n": 1}
    assert sealer.open("ch", payload) is None  # replayed
    old = sealer.seal("ch", {"n": 2})
    now[0] += 61.0
    assert sealer.open("ch", old) is None  # too old, whatever its nonce
    now[0] -= 122.0
    assert sealer.open("ch", sealer.seal("ch", {"n": 3})) == {"n": 3}  # fresh by its own clock
    future = Sealer(b"s" * MIN_SECRET, clock=lambda: now[0] + 3600.0).seal("ch", {"n": 4})
    assert sealer.open("ch", future) is None  # from a clock an hour ahead
    assert sealer.refused == {"replayed": 1, "expired": 2}


def test_the_secret_comes_from_the_environment_and_must_be_long_enough() -> None:
    assert secret_from_env({SECRET_ENV: "x" * MIN_SECRET}) == b"x" * MIN_SECRET
    for value in ("", "short"):
        with pytest.raises(SecretMissing, match=SECRET_ENV):
            secret_from_env({SECRET_ENV: value} if value else {})


async def test_next_prompts_with_their_hand_image_are_relayed_through_the_token(
        sharded: ShardedStub, pg: str) -> None:
    """With images, a prompt edit (hand PNG of several kB) is more than one NOTIFY: it goes to shard
    0 in sealed parts and is made with the click's token; no DM is edited through REST."""
    a, b = ShardRun(sharded, pg, (0,)), ShardRun(sharded, pg, (1,), images=True)
    await a.start()
    await b.start()
    try:
        bea, bob, bil = members(sharded, sharded.g1, ("bea", "bob", "bil"))  # type: ignore[attr-defined]
        humans = {u.id: u for u in (bea, bob, bil)}
        table_id, _ = await open_in(sharded, sharded.g1.channels[0], bea, [bob, bil])  # type: ignore
        rng = random.Random(7)
        first = len(sharded.calls)
        for _ in range(8):
            await b.settle()
            await b.bot.forwarder.idle()  # type: ignore[union-attr]
            table = await b.tables.get(table_id)
            if table.status != "playing":
                break
            await forwarded_move(sharded, b, table_id, humans[table.to_act_users()[0]], rng)
        await b.settle()
        await b.bot.forwarder.idle()  # type: ignore[union-attr]
        calls = sharded.calls[first:]
        token_edits = [c for c in calls if c.method == "PATCH" and c.route.startswith("/webhooks/")
                       and "@original" in c.path]
        with_image = [c for c in token_edits if any(name == "hand.png" for name, _ in c.files)]
        assert with_image, "no prompt with its hand image went through a token"
        assert max(len(data) for c in with_image for name, data in c.files) > 3_500  # several parts
        dms = {ch.id for ch in sharded.channels.values() if ch.is_dm}
        assert not [c for c in calls if c.method == "PATCH" and c.route == "/channels/{cid}/messages/{mid}"
                    and int(c.path.split("/")[-3]) in dms]
        assert a.bot.forwarder.relayed >= len(with_image)  # type: ignore[union-attr]
    finally:
        await b.stop()
        await a.stop()
