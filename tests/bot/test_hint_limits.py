"""/hint under a flood (issue 26 item 6): one search in flight per player, a cooldown, the advice
cached per (table, version, seat), and hints behind the tables' own AI moves on the AI pool."""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import Any

import pytest

import bot.cogs.hint as hint_cog
from bot.ai.coach import Hint, HintMove
from bot.cogs.hint_limits import HintBusy, HintDesk
from bot.tables.ai_pool import AiPool, Priority
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, Interaction, User
from tests.discord_stub.tapis import TapisRun


class BlockingCoach:
    """Stands in for ``bot.ai.coach.hint`` on a thread pool: counts the searches, and holds each
    one until ``release`` is set, so a hint is deterministically in flight."""

    def __init__(self) -> None:
        self.calls = 0
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self, game: str, state: Any, seat: int, rng: Any) -> Hint:
        self.calls += 1
        self.started.set()
        assert self.release.wait(30)
        legal = state.legal_actions(seat)
        return Hint((HintMove(legal[0], 0.5, 1.0, 10),), "jetons", 10)


def answered(inter: Interaction) -> str:
    """The interaction's answer so far ("" before any)."""
    return inter.text if inter.original is not None or inter.followups else ""


async def hinted_table(stub: DiscordStub, tapis: TapisRun, players: list[User],
                       monkeypatch: pytest.MonkeyPatch) -> tuple[int, Any, Any, BlockingCoach, User]:
    """A table of two players and an AI with hints on, its AI pool one thread, its coach a
    ``BlockingCoach``: ``(table id, service, the Hints cog, coach, the player to act)``."""
    alice, bob = players[:2]
    table_id, _ = await open_table(stub, alice, [bob], ai=1, options="hints=on")
    await tapis.settle()
    service = tapis.tables
    service.ai.close()
    service.ai = AiPool(1, kind="thread")
    coach = BlockingCoach()
    cog = tapis.bot.get_cog("Hints")  # type: ignore[union-attr]
    # the extension's module as the bot loaded it (discord.py executes it afresh)
    monkeypatch.setattr(sys.modules[type(cog).__module__], "hint", coach)
    table = await service.get(table_id)
    [seat] = table.state.to_act()
    return table_id, service, cog, coach, {table.seat_of(u.id): u for u in (alice, bob)}[seat]


async def test_a_hint_flood_is_limited_and_cached(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = players[:2]
    table_id, service, cog, coach, mover = await hinted_table(stub, tapis, players, monkeypatch)
    now = [1000.0]
    cog.desk.clock = lambda: now[0]
    table = await service.get(table_id)
    seat = table.seat_of(mover.id)

    try:
        first = await stub.slash("hint", mover, stub.channel, wait=False)
        await asyncio.to_thread(coach.started.wait, 30)  # the search is running: the hint is in flight
        second = await stub.slash("hint", mover, stub.channel)
        assert second.ephemeral and "still being worked out" in second.text, second.text
        coach.release.set()
        await stub.wait_for(lambda: answered(first), what="the first hint")
        assert first.text.startswith("The strong AI would play **"), first.text
        assert coach.calls == 1

        again = await stub.slash("hint", mover, stub.channel)  # same table, version and seat
        assert again.text == first.text and coach.calls == 1  # from the cache: no second search

        # The mover plays; once it is their turn again (a new version), the cooldown refuses a search.
        await service.act(table_id, mover.id, table.version, table.state.legal_actions(seat)[0])
        for _ in range(50):
            await tapis.settle()
            table = await service.get(table_id)
            if table.status != "playing" or seat in table.state.to_act():
                break
            [other] = table.state.to_act()
            who = next(u for u in (alice, bob) if table.seat_of(u.id) == other)
            await service.act(table_id, who.id, table.version, table.state.legal_actions(other)[0])
        assert table.status == "playing" and seat in table.state.to_act()
        mover.locale = "fr"  # the refusal in the reader's language
        cooling = await stub.slash("hint", mover, stub.channel)
        assert cooling.ephemeral, cooling.text
        assert cooling.text.endswith("Attendez 5 secondes avant votre prochain conseil."), cooling.text
        assert coach.calls == 1
        mover.locale = "en-US"
        now[0] += 5.0
        served = await stub.slash("hint", mover, stub.channel)
        await stub.wait_for(lambda: answered(served), what="the hint after the cooldown")
        assert served.text.startswith("The strong AI would play **") and coach.calls == 2
    finally:
        coach.release.set()  # never leave a worker thread waiting


async def test_the_refusals_are_in_the_readers_language(stub: DiscordStub, tapis: TapisRun,
                                                        players: list[User]) -> None:
    """The two refusals, rendered in French as any ``UserError`` is."""
    from bot.cogs.errors import UserError, user_message
    from bot.i18n import translator

    fr = translator("fr")
    running = user_message(UserError(hint_cog.busy_message(HintBusy("running"))), fr)
    cooling = user_message(UserError(hint_cog.busy_message(HintBusy("cooldown", 1.2))), fr)
    assert running == ("Votre conseil précédent est encore en préparation : attendez-le avant d'en demander "
                       "un autre.")
    assert cooling == "Attendez 2 secondes avant votre prochain conseil."


def test_the_desk_alone() -> None:
    """Admission per player, the cooldown counted from the end of the search, the LRU bound."""
    now = [0.0]
    desk: HintDesk[str] = HintDesk(cooldown=5.0, size=2, clock=lambda: now[0])
    desk.admit(1)
    desk.admit(2)  # another player is not held up
    with pytest.raises(HintBusy) as running:
        desk.admit(1)
    assert running.value.reason == "running"
    now[0] = 3.0
    desk.release(1)
    now[0] = 7.0
    with pytest.raises(HintBusy) as cooling:
        desk.admit(1)
    assert cooling.value.reason == "cooldown" and cooling.value.retry_after == pytest.approx(1.0)
    now[0] = 8.0
    desk.admit(1)
    desk.store((1, 1, 0), "a")
    desk.store((1, 2, 0), "b")
    assert desk.cached((1, 1, 0)) == "a"  # now the most recently used
    desk.store((2, 1, 0), "c")
    assert len(desk) == 2 and desk.cached((1, 2, 0)) is None and desk.cached((1, 1, 0)) == "a"


async def test_the_pool_runs_a_tables_move_before_queued_hints() -> None:
    """One worker busy, a burst of hints queued, then two tables' moves: both moves run before
    any of the hints (a table with a human present first), the hints in their order."""
    pool = AiPool(1, kind="thread")
    order: list[str] = []
    gate = threading.Event()

    def job(name: str) -> None:
        if name == "running":
            assert gate.wait(30)
        order.append(name)

    try:
        running = asyncio.create_task(pool.run(job, "running", priority=Priority.HINT))
        while pool.budget.free:
            await asyncio.sleep(0)
        hints = [asyncio.create_task(pool.run(job, f"hint-{i}", priority=Priority.HINT)) for i in range(12)]
        await asyncio.sleep(0)
        unwatched = asyncio.create_task(pool.run(job, "table"))
        watched = asyncio.create_task(pool.run(job, "table-present", urgent=True))
        for _ in range(5):
            await asyncio.sleep(0)
        assert pool.budget.waiting == 14 and order == []
        gate.set()
        await asyncio.gather(running, unwatched, watched, *hints)
        assert order == ["running", "table-present", "table", *(f"hint-{i}" for i in range(12))]
    finally:
        pool.close()


async def test_a_hung_hint_is_given_up_at_its_deadline_and_frees_the_pool(
        stub: DiscordStub, tapis: TapisRun, players: list[User], monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint whose search never ends: at its deadline the player gets an answer (the generic
    error) and the pool's one worker is free again for the tables' own AI moves."""
    import bot.tables.ai_pool as ai_pool

    _, service, _, coach, mover = await hinted_table(stub, tapis, players, monkeypatch)
    # the coach is never released while the test looks: a hung search
    monkeypatch.setattr(ai_pool, "SEARCH_GRACE", 0.3, raising=False)
    try:
        asked = await stub.slash("hint", mover, stub.channel, wait=False)
        await stub.wait_for(lambda: answered(asked), what="an answer to the hung hint")
        assert asked.ephemeral and "strong AI would play" not in asked.text, asked.text
        assert await asyncio.wait_for(service.ai.run(str, "a table's move"), 10) == "a table's move"
        assert service.ai.budget.free == 1 and coach.calls == 1
    finally:
        coach.release.set()
