"""The AI that plays an away human's seat is a level the server lets sit (``/settings ai_levels``).

Before, the stand-in was always the default level (easy), so a server that excluded easy AI
still had easy AI finishing the seats of players who left.
"""

from __future__ import annotations

import pytest

from bot.ai.levels import EASY, EXPERT, STRONG, stand_in
from bot.rules import GAMES
from bot.tables.autoplay import ai_job
from tests.tables.conftest import CH, HOST, G, Harness

BOB = 200


def test_the_stand_in_is_the_default_where_it_may_sit_else_the_weakest_lobby_level_allowed() -> None:
    assert stand_in(None) is EASY
    assert stand_in(["easy", "expert"]) is EASY
    assert stand_in(["expert", "strong"]) is STRONG
    assert stand_in(["expert"]) is EXPERT
    assert stand_in(["random"]) is EASY  # no lobby level allowed: someone still has to play the seat


@pytest.mark.parametrize(("allowed", "expected"), [(None, EASY), (("strong", "expert"), STRONG),
                                                   (("expert",), EXPERT)])
async def test_a_player_who_leaves_is_played_by_a_level_the_server_lets_sit(database, clock, config,
                                                                            allowed, expected):
    h = await Harness(database, clock, config, dict(GAMES)).open()
    try:
        t = await h.svc.create(G, CH, HOST, "Host", "motz", {"rotations": 1}, ai_levels=allowed)
        for user in (BOB, BOB + 1, BOB + 2):
            await h.svc.join(t.id, user, f"P{user}")
        await h.svc.start(t.id, HOST)
        bob = t.seat_of(BOB)
        while bob not in t.to_act():  # the others play until it is Bob's turn
            seat = t.to_act()[0]
            await h.svc.act(t.id, t.seats[seat].user_id, t.version, t.state.timeout_action(seat))
        await h.svc.leave(t.id, BOB)  # his seat's AI is only kicked: it has not moved yet
        assert t.seats[bob].away and bob in t.to_act()
        assert ai_job(t, bob).level == expected
    finally:
        await h.close()
