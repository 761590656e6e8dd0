"""A player back at their seat on the very turn they left on is sent their moves again."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.outbox.dms import Dms


def test_a_player_back_on_the_turn_they_left_on_is_prompted_again() -> None:
    """Bob leaves on his turn, the AI plays his seat, and he comes back on his next turn of the same
    deal: the DM planner used to take him for prompted still (the deal and "to act" it noted when he
    left), sent nothing, and his buttons were stale."""
    record = SimpleNamespace(seen={}, answering={})
    queued: list[int] = []
    dms: Any = Dms.__new__(Dms)
    dms.p = SimpleNamespace(record=lambda table_id: record)
    dms.queue = lambda table_id, job: queued.append(job.seat)
    seats = [SimpleNamespace(user_id=10 + i, ai=False, away=False, dm_closed=False) for i in range(2)]
    table = SimpleNamespace(id=1, seats=seats, state=SimpleNamespace(to_act=lambda: [1],
                                                                     view=lambda seat: {"deal": 0}))
    dms.plan(table)
    assert queued == [0, 1]  # the first hands; bob (seat 1) is to act
    seats[1].away = True  # he left: the AI plays his seat
    dms.plan(table)
    seats[1].away = False  # back, on his turn of the same deal
    queued.clear()
    dms.plan(table)
    assert queued == [1]
