"""``Presenter.pending``: what is still running, never a task already finished.

A store write (``Presenter.write``) leaves ``writes`` through its done callback, which the loop runs
one step after the task finished. A caller checking in between (the test harness's ``settle``, whose
awaits need not suspend) saw the finished task as pending and, under load, waited for it for ever
("the bot never settled").
"""

from __future__ import annotations

import asyncio

from tests.discord_stub.tapis import TapisRun


async def test_a_finished_write_is_not_pending_before_its_callbacks_run(tapis: TapisRun) -> None:
    presenter = tapis.bot.presenter  # type: ignore[union-attr]
    await tapis.settle()
    assert not presenter.pending()
    ran: list[int] = []

    async def small_write() -> None:
        ran.append(1)

    presenter.write(small_write())
    [task] = presenter.writes
    await asyncio.sleep(0)  # the write runs to its end; its done callback is only scheduled
    assert ran and task.done() and task in presenter.writes  # the window: finished, not yet discarded
    assert not presenter.pending()
    await asyncio.sleep(0)
    assert not presenter.writes  # then the callback takes it out
