"""The lobby's seating as data (bot.tables.seats): free seats, sitting, standing up, swaps, JSON."""

from __future__ import annotations

from bot.tables.seats import LobbyPlan, first_free, free_places, insert_at, moved, without


def test_free_places_leave_out_seats_taken_and_kept() -> None:
    plan = LobbyPlan([0, 2], {7: 1})
    assert free_places(plan, 4) == [3]
    assert free_places(plan, 4, for_user=7) == [1, 3]  # an invitee's own seat is free for them
    assert first_free(free_places(plan, 4)) == 3 and first_free([]) is None


def test_insert_and_without_keep_places_ascending() -> None:
    items, places, index = insert_at(["a", "c"], [0, 2], "b", 1)
    assert (items, places, index) == (["a", "b", "c"], [0, 1, 2], 1)
    assert without(items, places, 0) == (["b", "c"], [1, 2])


def test_a_move_to_a_taken_seat_swaps_and_to_a_free_one_moves() -> None:
    assert moved(["a", "b", "c", "d"], [0, 1, 2, 3], 1, 3) == (["a", "d", "c", "b"], [0, 1, 2, 3])
    assert moved(["a", "b"], [0, 1], 0, 3) == (["b", "a"], [1, 3])


def test_the_plan_round_trips_and_an_old_row_reads_as_join_order() -> None:
    plan = LobbyPlan([0, 3], {5: 1}, True, rematch_of=9, rematch=None)
    assert LobbyPlan.from_json(plan.to_json(), 2) == plan
    assert LobbyPlan.from_json({}, 3) == LobbyPlan([0, 1, 2])
    assert LobbyPlan.from_json({"places": [2, 0]}, 2).places == [0, 1]  # not ascending: join order
    allowed = LobbyPlan([0], ai_levels=("easy",))  # the server's AI levels at the opening
    assert LobbyPlan.from_json(allowed.to_json(), 1) == allowed == allowed.copy()
    assert LobbyPlan.from_json({}, 1).ai_levels is None  # a lobby from before: every level
    typed = LobbyPlan([0], chosen={"players": 3, "hints": True})  # the host's options, for Play again
    assert LobbyPlan.from_json(typed.to_json(), 1) == typed == typed.copy()
    assert LobbyPlan.from_json({}, 1).chosen is None  # a table from before: its raw options then
