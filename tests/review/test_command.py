"""/review through the stand-in: refusals, a review computed on the AI pool with its progress,
stored (asking again costs nothing), and the accuracy in /stats and /history."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import reviews
from bot.tables.ai_pool import Priority
from tests.backends import BACKENDS
from tests.bot.test_history import finish_by_ai
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


def small(tapis: TapisRun) -> object:
    """The review cog with a tiny search (a few rollouts per decision, no clock), and no cooldown
    between a member's answers of stored reviews (``tests/review/test_bursts.py`` tests it)."""
    cog = tapis.bot.get_cog("Reviews")
    cog.cap = 6  # type: ignore[union-attr]
    cog.budget_ms = 1e9  # type: ignore[union-attr]
    cog.answers.cooldown = 0.0  # type: ignore[union-attr]
    return cog


async def review(stub: DiscordStub, asker: User, channel, **options):
    """/review, waiting for its answer (deferred while the pool works)."""
    inter = await stub.slash("review", asker, channel, **options)
    await stub.wait_for(lambda: inter.callback_type == 4 or inter.followups or (
        inter.original is not None and inter.original.edits > 0 and "Reviewing" not in inter.original.text),
        timeout=120, what="the review")
    return inter


@pytest.mark.parametrize("backend", BACKENDS)
async def test_review_of_a_finished_session(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, _ = players
    cog = small(tapis)
    table_id, _ = await open_table(stub, alice, [bob], ai=1, game="marias")
    await tapis.settle()

    running = await stub.slash("review", alice, stub.channel, table=table_id)
    assert running.ephemeral and "still being played" in running.text
    await finish_by_ai(stub, tapis, [alice, bob], table_id)
    table = await tapis.tables.get(table_id)

    stranger = await stub.slash("review", carol, stub.channel, table=table_id)
    assert stranger.ephemeral and "for its players" in stranger.text
    nobody = await stub.slash("review", alice, stub.channel, table=table_id, user=carol)
    assert nobody.ephemeral and "did not play at table" in nobody.text

    pool = tapis.tables.ai
    calls: list[dict] = []
    real_run = pool.run

    async def recording(fn, *args, **kwargs):
        calls.append(kwargs)
        return await real_run(fn, *args, **kwargs)

    pool.run = recording  # type: ignore[method-assign]
    inter = await review(stub, alice, stub.channel, table=table_id)
    pool.run = real_run  # type: ignore[method-assign]
    assert calls and all(c.get("priority") is Priority.REVIEW and not c.get("urgent") for c in calls)
    text = inter.text
    assert inter.ephemeral and inter.callback_type == 5  # deferred: computed on the pool
    # the deferred reply showed "deal k of n analysed" (at least the last deal's), then the answer
    assert inter.original is not None and inter.original.edits >= 2 and not inter.followups
    assert f"Review of {alice.name} · table #{table_id}" in text and "Accuracy " in text
    assert "Result " in text and " = skill " in text and " + luck " in text
    names = {a.filename for a in inter.last.attachments}
    assert "skill-luck.png" in names and all(n.endswith(".png") for n in names)
    seat = table.seat_of(alice.id)
    stored = await reviews.load(tapis.db, table_id, seat)
    assert stored is not None and stored.seat == seat
    assert stored.skill + stored.luck == pytest.approx(stored.result)
    assert len(stored.deals) >= 1 and not cog.jobs and not cog.members  # type: ignore[attr-defined]

    async def never(*args, **kwargs):
        raise AssertionError("a stored review is not computed again")

    cog._job = never  # type: ignore[attr-defined]
    again = await review(stub, alice, stub.channel, table=table_id)
    assert again.text == text
    theirs = await review(stub, bob, stub.channel, table=table_id, user=alice)  # a fellow player may look
    assert theirs.text == text
    first = await review(stub, alice, stub.channel, table=table_id, deal=1)
    assert "· deal 1**" in first.text and "Accuracy" not in first.text
    beyond = await stub.slash("review", alice, stub.channel, table=table_id, deal=len(stored.deals) + 1)
    n = len(stored.deals)
    assert beyond.ephemeral and (f"choose a deal from 1 to {n}" if n > 1 else "choose deal 1") in beyond.text

    # the profile and the history show the accuracy now
    # (a session its players left early is not counted in the profile: count one for alice)
    await tapis.db.transaction(lambda conn: conn.execute(
        "INSERT INTO stats (guild_id, user_id, game, sessions, wins, net) VALUES (?, ?, 'marias', 1, 0, 0)",
        (stub.guild.id, alice.id)))
    stats = await stub.slash("stats", alice, stub.channel)
    await stub.wait_for(lambda: stats.callback_type == 4 or stats.followups, what="the profile")
    [field] = stats.last.embeds[0]["fields"]
    assert field["value"].splitlines()[-1].startswith("accuracy ")
    assert "over 1 reviewed session" in field["value"]
    listed = await stub.slash("history", alice, stub.channel)
    assert f"**#{table_id}**" in listed.text and "accuracy " in listed.text
    bobs = await stub.slash("history", bob, stub.channel)
    assert "accuracy " not in bobs.text  # bob's own seat has not been reviewed


async def test_refusals_before_any_work(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, _ = players
    cog = small(tapis)
    table_id, _ = await open_table(stub, alice, [bob], ai=1, game="marias")
    await finish_by_ai(stub, tapis, [alice, bob], table_id)

    missing = await stub.slash("review", alice, stub.channel, table=table_id + 1000)
    assert missing.ephemeral and f"There is no table #{table_id + 1000} in this server." in missing.text
    other = stub.add_guild("Elsewhere")
    for who in (stub.add_user("eve", other), alice):  # a stranger there, and alice, who played it here
        elsewhere = await stub.slash("review", who, other.channels[0], table=table_id)
        assert elsewhere.ephemeral and f"There is no table #{table_id} in this server." in elsewhere.text

    # one review in flight per member; a bounded queue
    cog.members[alice.id] = (table_id, 0)  # type: ignore[attr-defined]
    busy = await stub.slash("review", alice, stub.channel, table=table_id)
    assert busy.ephemeral and "previous review is still running" in busy.text
    cog.members.clear()  # type: ignore[attr-defined]
    cog.queue = 1  # type: ignore[attr-defined]
    cog.jobs[(table_id, 99)] = asyncio.get_running_loop().create_future()  # type: ignore[attr-defined]
    full = await stub.slash("review", bob, stub.channel, table=table_id)
    assert full.ephemeral and "Reviews are busy right now" in full.text
    cog.jobs.clear()  # type: ignore[attr-defined]


async def test_a_staff_only_table_is_refused_as_missing(stub: DiscordStub, tapis: TapisRun,
                                                        players: list[User]) -> None:
    """A member who cannot see the table's channel is told it does not exist (nothing leaks); one
    who can see it but did not play is told reviews are for its players."""
    from tests.bot.test_replay_scope import staff_tables

    alice, bob, carol, _ = players
    small(tapis)
    _, done, live = await staff_tables(stub, tapis, alice, carol)
    hidden = await stub.slash("review", bob, stub.channel, table=done)
    assert hidden.ephemeral and f"There is no table #{done} in this server." in hidden.text
    seen = await stub.slash("review", carol, stub.channel, table=done)
    assert seen.ephemeral and "for its players" in seen.text
    running = await stub.slash("review", carol, stub.channel, table=live)
    assert running.ephemeral and "still being played" in running.text


async def test_a_server_that_made_its_sessions_public(stub: DiscordStub, tapis: TapisRun,
                                                      players: list[User]) -> None:
    """/settings public_reviews on: a member who did not play may review a player they name (issue
    31: "for a session the server has made public, for anyone in the server"); off, they may not."""
    alice, bob, carol, _ = players
    small(tapis)
    table_id, _ = await open_table(stub, alice, [bob], ai=1, game="marias")
    await tapis.settle()
    await finish_by_ai(stub, tapis, [alice, bob], table_id)
    private = await stub.slash("review", carol, stub.channel, table=table_id, user=alice)
    assert private.ephemeral and "for its players" in private.text, private.text
    boss = stub.add_user("boss", stub.guild, admin=True)
    answer = await stub.slash("settings set", boss, stub.channel, key="public_reviews", value="on")
    assert "public_reviews" in answer.text, answer.text
    unnamed = await stub.slash("review", carol, stub.channel, table=table_id)
    assert unnamed.ephemeral and "name the player to review with user:" in unnamed.text, unnamed.text
    done = await review(stub, carol, stub.channel, table=table_id, user=alice)
    text = done.original.text if done.original is not None else done.text
    assert "for its players" not in text and "did not play" not in text, text
    assert await reviews.load(tapis.db, table_id, 0) is not None or await reviews.load(tapis.db, table_id, 1)
