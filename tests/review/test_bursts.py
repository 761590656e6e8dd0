"""/review under a burst: the limits hold when the commands arrive at the same moment.

One review in flight per member, at most ``review_queue`` computed at once bot-wide, the same
review asked twice computed once (``bot.cogs.review.Reviews.admit``; also when the second request read
the store just before the first's computation ended), and every place given back
whatever ends the wait (an answer, a failure, a lost answer, cancellation). Before the admission
was synchronous, a burst passed both checks while the first command was still awaiting its defer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.store import reviews
from bot.tables.ai_pool import Priority
from tests.bot.test_history import finish_by_ai
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, Interaction, User
from tests.discord_stub.tapis import TapisRun, handlers
from tests.review.test_command import play_first_moves, small

BUSY_MEMBER = "Your previous review is still running: wait for it before asking for another."
BUSY_QUEUE = "Reviews are busy right now: try again in a few minutes."
CALLBACK = ("POST", "/interactions/{iid}/{token}/callback")


class HeldPool:
    """Stands in for the AI pool's ``run``: holds every call until ``go`` is set, then fails it
    (``fail``) or runs it on the real pool. Records each review computed (its plan: the table's seed
    and the seat) and the most reviews inside the pool at once (a job's calls are sequential)."""

    def __init__(self, real: Callable[..., Any], fail: bool = True) -> None:
        self.real = real
        self.fail = fail
        self.go = asyncio.Event()
        self.plans: list[tuple[int, int]] = []
        self.running = 0
        self.most = 0
        self.cancelled = 0

    async def __call__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        assert kwargs.get("priority") is Priority.REVIEW
        if fn.__name__ == "plan_for":  # plan_for(game, seats, options, seed, actions, seat)
            self.plans.append((args[3], args[5]))
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            await self.go.wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        finally:
            self.running -= 1
        if self.fail:
            raise RuntimeError("the search failed (test)")
        return await self.real(fn, *args, **kwargs)


@pytest.fixture
def held(tapis: TapisRun) -> Iterator[Callable[..., HeldPool]]:
    """``held(fail=True)``: the bot's AI pool held (``HeldPool``); let go before the bot stops, so a
    failing test never leaves a review waiting for ever."""
    pools: list[HeldPool] = []

    def hold(fail: bool = True) -> HeldPool:
        pool = HeldPool(tapis.tables.ai.run, fail)
        tapis.tables.ai.run = pool  # type: ignore[method-assign]
        pools.append(pool)
        return pool

    yield hold
    for pool in pools:
        pool.go.set()


def together(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """The next ``n`` commands of ``/review`` read the stored review, then wait for one another:
    they reach the admission at the same moment, as a burst Discord delivers at once does (had the
    first been admitted before the others arrived, a later one would find its place taken anyway)."""
    real = reviews.load
    barrier = asyncio.Barrier(n)
    calls = 0

    async def load(db: Any, table_id: int, seat: int) -> Any:
        nonlocal calls
        calls += 1
        stored = await real(db, table_id, seat)
        if calls <= n:
            await barrier.wait()
        return stored

    monkeypatch.setattr(reviews, "load", load)


async def until(predicate: Callable[[], Any], what: str, timeout: float = 60.0) -> None:
    """Wait (polling the event loop) until ``predicate()`` holds (a wait, not a measure of speed: a
    loaded machine draws a review's pictures slowly, and 10 s once ran out beside other work)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


def ended(inter: Interaction) -> bool:
    """The review's answer is in: a refusal, or the deferred reply edited to its end."""
    return inter.callback_type == 4 or bool(inter.followups) or (
        inter.original is not None and inter.original.edits > 0 and "Reviewing" not in inter.original.text)


async def finished_table(stub: DiscordStub, tapis: TapisRun, host: User, guests: list[User], ai: int) -> int:
    table_id, _ = await open_table(stub, host, guests, ai=ai, game="marias")
    await play_first_moves(tapis, table_id, 12)  # the players' own decisions (the review's)
    await finish_by_ai(stub, tapis, [host, *guests], table_id)
    return table_id


def quiet(cog: Any) -> bool:
    """No member waiting, no review computed, no progress line kept."""
    return not cog.members and not cog.jobs and not cog.progress


async def test_a_burst_from_one_member_runs_one_review(
        stub: DiscordStub, tapis: TapisRun, players: list[User], held: Callable[..., HeldPool],
        monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = players[:2]
    cog: Any = tapis.bot.get_cog("Reviews")  # type: ignore[union-attr]
    tables = [await finished_table(stub, tapis, alice, [bob], ai=1) for _ in range(3)]
    pool = held()

    together(monkeypatch, 3)
    burst = await asyncio.gather(*(stub.slash("review", alice, stub.channel, table=t) for t in tables))
    deferred = [i for i in burst if i.callback_type == 5]
    refused = [i for i in burst if i.callback_type == 4]
    assert len(deferred) == 1 and len(refused) == 2, [(i.callback_type, i.text) for i in burst]
    assert all(i.ephemeral and BUSY_MEMBER in i.text for i in refused), [i.text for i in refused]
    await until(lambda: pool.running, "the admitted review in the pool")
    assert len(pool.plans) == 1 and len(cog.jobs) == 1 and list(cog.members) == [alice.id]

    pool.go.set()
    [inter] = deferred
    await stub.wait_for(lambda: ended(inter), what="the review's failure")
    assert "failed: try again later" in inter.text, inter.text
    await tapis.settle()
    assert pool.most == 1 and len(pool.plans) == 1 and quiet(cog)


async def test_a_burst_from_several_members_stays_within_the_queue(
        stub: DiscordStub, tapis: TapisRun, players: list[User], held: Callable[..., HeldPool],
        monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob, carol, _ = players
    cog: Any = tapis.bot.get_cog("Reviews")  # type: ignore[union-attr]
    cog.queue = 2
    table = await finished_table(stub, tapis, alice, [bob, carol], ai=0)  # three seats, three reviews
    pool = held()

    members = (alice, bob, carol)
    together(monkeypatch, 3)
    burst = await asyncio.gather(*(stub.slash("review", m, stub.channel, table=table) for m in members))
    deferred = [i for i in burst if i.callback_type == 5]
    refused = [i for i in burst if i.callback_type == 4]
    assert len(deferred) == 2 and len(refused) == 1, [(i.callback_type, i.text) for i in burst]
    [full] = refused
    assert full.ephemeral and BUSY_QUEUE in full.text, full.text
    await until(lambda: pool.running == 2, "two reviews in the pool")
    await asyncio.sleep(0.1)  # (time for a third to arrive, were one admitted)
    assert pool.most == 2 and len(set(pool.plans)) == len(pool.plans) == 2 and len(cog.jobs) == 2

    pool.go.set()
    for inter in deferred:
        await stub.wait_for(lambda inter=inter: ended(inter), what="the reviews' failure")  # type: ignore[misc]
        assert "failed: try again later" in inter.text, inter.text
    await tapis.settle()
    assert quiet(cog)
    # the queue's places were given back: the member refused is admitted now
    again = await stub.slash("review", full.user, stub.channel, table=table)
    assert again.callback_type == 5
    await stub.wait_for(lambda: ended(again), what="the review's failure")
    assert "failed: try again later" in again.text and pool.most == 2 and len(pool.plans) == 3
    await tapis.settle()
    assert quiet(cog)


async def test_the_same_review_asked_twice_is_computed_once(
        stub: DiscordStub, tapis: TapisRun, players: list[User], held: Callable[..., HeldPool],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Even with the queue full, a member asking for a review being computed joins it."""
    alice, bob = players[:2]
    cog: Any = small(tapis)
    cog.queue = 1
    table = await finished_table(stub, tapis, alice, [bob], ai=1)
    pool = held(fail=False)

    together(monkeypatch, 2)
    burst = await asyncio.gather(stub.slash("review", alice, stub.channel, table=table),
                                 stub.slash("review", bob, stub.channel, table=table, user=alice))
    assert [i.callback_type for i in burst] == [5, 5], [i.text for i in burst]
    await until(lambda: pool.running, "the review in the pool")
    pool.go.set()
    for inter in burst:
        await stub.wait_for(lambda inter=inter: ended(inter), timeout=120,  # type: ignore[misc]
                            what="the shared review")
    mine, theirs = burst
    assert f"Review of {alice.name} · table #{table}" in mine.text and "Accuracy " in mine.text, mine.text
    assert theirs.text == mine.text
    assert len(pool.plans) == 1  # one computation for both
    await tapis.settle()
    assert quiet(cog)


async def test_every_place_is_given_back(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                         held: Callable[..., HeldPool]) -> None:
    """A member whose wait is cancelled, whose review failed, or whose answer was lost (the defer
    refused) gives back their place and the queue's; a review nobody waits for any more stops."""
    alice, bob = players[:2]
    cog: Any = tapis.bot.get_cog("Reviews")  # type: ignore[union-attr]
    cog.queue = 1
    table = await finished_table(stub, tapis, alice, [bob], ai=1)
    pool = held()

    # cancelled while waiting: the computation stops, the queue's one place is free for bob
    waiting = await stub.slash("review", alice, stub.channel, table=table)
    assert waiting.callback_type == 5
    await until(lambda: pool.running, "alice's review in the pool")
    [task] = handlers()
    task.cancel()
    await asyncio.wait([task])
    await until(lambda: not pool.running, "the computation to stop")
    assert pool.cancelled == 1 and quiet(cog)
    bobs = await stub.slash("review", bob, stub.channel, table=table)
    assert bobs.callback_type == 5, bobs.text

    # failed: the member may ask again at once (and is admitted, not told to wait)
    pool.go.set()
    await stub.wait_for(lambda: ended(bobs), what="bob's review failing")
    assert "failed: try again later" in bobs.text, bobs.text
    await tapis.settle()
    assert quiet(cog)
    again = await stub.slash("review", bob, stub.channel, table=table)
    assert again.callback_type == 5, again.text
    await stub.wait_for(lambda: ended(again), what="bob's second review failing")
    assert "failed: try again later" in again.text, again.text
    await tapis.settle()
    assert quiet(cog)

    # the answer lost (Discord refuses the defer): nothing stays reserved and nothing runs
    pool.go = asyncio.Event()
    callbacks = len(stub.calls_to(*CALLBACK))
    stub.fail(*CALLBACK, 404, 10062, "Unknown interaction")
    await stub.slash("review", alice, stub.channel, table=table, wait=False)
    await until(lambda: len(stub.calls_to(*CALLBACK)) > callbacks and not handlers(), "the lost answer")
    await asyncio.sleep(0.1)  # (time for a computation to reach the pool, were one left running)
    assert not pool.running and quiet(cog)
    retry = await stub.slash("review", alice, stub.channel, table=table)
    assert retry.callback_type == 5, retry.text
    pool.go.set()
    await stub.wait_for(lambda: ended(retry), what="alice's retry failing")
    await tapis.settle()
    assert quiet(cog)


async def test_a_review_stored_meanwhile_is_not_computed_again(
        stub: DiscordStub, tapis: TapisRun, players: list[User], held: Callable[..., HeldPool],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob asks for alice's review while it is being computed, and reads the store (nothing yet)
    just before that computation ends and leaves: admitted after it, he gets the stored review."""
    alice, bob = players[:2]
    cog: Any = small(tapis)
    table = await finished_table(stub, tapis, alice, [bob], ai=1)
    pool = held(fail=False)
    first = await stub.slash("review", alice, stub.channel, table=table)
    assert first.callback_type == 5
    await until(lambda: pool.running, "alice's review in the pool")

    real = reviews.load
    reading, late = asyncio.Event(), asyncio.Event()

    async def load(db: Any, table_id: int, seat: int) -> Any:
        stored = await real(db, table_id, seat)
        task = asyncio.current_task()
        if task is not None and task.get_name() == "CommandTree-invoker" and not reading.is_set():
            reading.set()  # bob's command read the store: nothing yet
            await late.wait()
        return stored

    monkeypatch.setattr(reviews, "load", load)
    second = await stub.slash("review", bob, stub.channel, table=table, user=alice, wait=False)
    await until(reading.is_set, "bob's command reading the store")
    pool.go.set()
    await stub.wait_for(lambda: ended(first), timeout=120, what="alice's review")
    await until(lambda: not cog.jobs, "alice's review to leave")
    late.set()
    await stub.answered(second)
    await stub.wait_for(lambda: ended(second), timeout=120, what="bob's answer")
    assert "Accuracy " in first.text and second.text == first.text
    assert len(pool.plans) == 1  # computed once
    await tapis.settle()
    assert quiet(cog)


async def test_a_stored_review_is_drawn_once_at_a_time_per_member_with_a_cooldown(
        stub: DiscordStub, tapis: TapisRun, players: list[User], monkeypatch: pytest.MonkeyPatch) -> None:
    """Asking again for a stored review costs no search but draws its pictures again: one answer per
    member at a time, ``ANSWER_COOLDOWN`` seconds between a member's, ``ANSWER_CAPACITY`` at once
    (before, a member's burst drew as many answers at once as they sent)."""
    from bot.cogs.review import ANSWER_COOLDOWN
    from tests.review.test_command import review

    alice, bob = players[:2]
    cog: Any = small(tapis)
    table = await finished_table(stub, tapis, alice, [bob], ai=1)
    assert "Reviewing" not in (await review(stub, alice, stub.channel, table=table)).original.text
    now = [1000.0]
    cog.answers.clock, cog.answers.cooldown = (lambda: now[0]), ANSWER_COOLDOWN

    together(monkeypatch, 2)
    burst = await asyncio.gather(*(stub.slash("review", alice, stub.channel, table=table) for _ in range(2)))
    drawn = [i for i in burst if i.callback_type == 5]
    refused = [i for i in burst if i.callback_type == 4]
    assert len(drawn) == 1 and len(refused) == 1 and BUSY_MEMBER in refused[0].text
    await until(lambda: ended(drawn[0]), "the stored review's answer")
    assert not cog.answers.running and not cog.jobs  # no search: it was stored
    soon = await stub.slash("review", alice, stub.channel, table=table)
    wait = f"Wait {ANSWER_COOLDOWN:.0f} seconds before your next review."
    assert soon.ephemeral and soon.text.endswith(wait), soon.text
    now[0] += ANSWER_COOLDOWN

    cog.answers.capacity = 1  # bot-wide: alice's review asked by her and by bob at the same moment
    together(monkeypatch, 2)
    pair = await asyncio.gather(*(stub.slash("review", who, stub.channel, table=table, user=alice)
                                  for who in (alice, bob)))
    assert sorted(i.callback_type for i in pair) == [4, 5], [i.text for i in pair]
    [busy] = [i for i in pair if i.callback_type == 4]
    assert BUSY_QUEUE in busy.text
    await until(lambda: all(ended(i) for i in pair), "the answer drawn")
    assert not cog.answers.running


async def test_a_hung_decision_search_fails_the_review_at_its_deadline_and_frees_the_pool(
        stub: DiscordStub, tapis: TapisRun, players: list[User], monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision's search that never ends: at its deadline the review fails (its usual answer) and
    the pool's one worker is free again for the tables' AI moves."""
    import sys
    import threading

    import bot.tables.ai_pool as ai_pool
    from bot.tables.ai_pool import AiPool

    alice, bob = players[:2]
    table_id = await finished_table(stub, tapis, alice, [bob], ai=1)
    cog: Any = tapis.bot.get_cog("Reviews")  # type: ignore[union-attr]
    cog.budget_ms = 100.0
    tapis.tables.ai.close()
    tapis.tables.ai = AiPool(1, kind="thread")
    module = sys.modules[type(cog).__module__]
    real, stop, hung = module.estimate, threading.Event(), []

    def estimate(*args: Any) -> Any:
        if args[5] == 0.0:  # a forced move, valued inline without a search
            return real(*args)
        hung.append(args)
        stop.wait(60)  # hung (released when the test ends)

    monkeypatch.setattr(module, "estimate", estimate)
    monkeypatch.setattr(ai_pool, "SEARCH_GRACE", 0.3, raising=False)
    try:
        inter = await stub.slash("review", alice, stub.channel, table=table_id)
        await stub.wait_for(lambda: ended(inter), what="the review's failure")
        assert "failed: try again later" in inter.text, inter.text
        assert len(hung) == 1 and tapis.tables.ai.budget.free == 1
        await tapis.settle()
        assert quiet(cog)
    finally:
        stop.set()
