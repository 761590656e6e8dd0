"""Pairing, standings and prizes on hand-built data (pure functions)."""

from __future__ import annotations

from bot.tournaments import pairing
from bot.tournaments.model import CLUB, DONE, FORFEIT, SWISS, Entrant, Member, RoundTable
from bot.tournaments.standings import Standing, compute, prizes, shares_for, split, table_points


def entrants(n: int) -> list[Entrant]:
    return [Entrant(i, [Member(100 + i, f"p{i}")]) for i in range(n)]


def test_table_sizes_are_even_and_fill_the_game() -> None:
    assert pairing.table_sizes(8, 3) == [3, 3, 2]
    assert pairing.table_sizes(6, 3) == [3, 3]
    assert pairing.table_sizes(4, 3) == [2, 2]
    assert pairing.table_sizes(4, 2) == [2, 2]


def test_club_night_rotates_without_repeats_while_possible() -> None:
    met: dict[frozenset[int], int] = {}
    for r in (1, 2, 3):
        tables = pairing.club_round(list(range(9)), 3, met, seed=5, round_no=r)
        assert pairing.repeats(tables, met) == 0
        for k, v in pairing.meetings(tables).items():
            met[k] = met.get(k, 0) + v


def test_swiss_puts_the_leaders_together_and_avoids_rematches() -> None:
    met = pairing.meetings([[0, 1], [2, 3]])
    assert pairing.swiss_round([0, 1, 2, 3], 2, {}) == [[0, 1], [2, 3]]
    assert pairing.swiss_round([0, 1, 2, 3], 2, met) == [[0, 2], [1, 3]]


def test_unavoidable_repeats_are_as_few_as_the_greedy_finds() -> None:
    met = pairing.meetings([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]])
    tables = pairing.seat([0, 1, 2, 3], 2, met)
    assert sorted(map(len, tables)) == [2, 2] and pairing.repeats(tables, met) == 2


def test_a_large_round_is_seated_without_overflowing_the_stack() -> None:
    """The search is iterative: 2,000 entrants (deeper than Python's recursion limit) are seated, and
    where the budget runs out (every pair met) the greedy pass seats them all the same."""
    tables = pairing.seat(list(range(2000)), 4, {})
    assert len(tables) == 500 and sorted(e for t in tables for e in t) == list(range(2000))
    met = pairing.meetings([list(range(40))])  # everyone met everyone: no repeat-free seating
    tables = pairing.seat(list(range(40)), 4, met)
    assert sorted(map(len, tables)) == [4] * 10


def test_table_points() -> None:
    assert table_points([10, -4, -6]) == [4, 2, 0]
    assert table_points([5, 5]) == [1, 1]


def test_swiss_ranks_by_points_then_buchholz() -> None:
    es = entrants(4)
    tables = [
        RoundTable(1, 0, [0, 1], status=DONE, results=[10, -10]),
        RoundTable(1, 1, [2, 3], status=DONE, results=[5, -5]),
        RoundTable(2, 0, [0, 2], status=DONE, results=[-1, 1]),
        RoundTable(2, 1, [1, 3], status=DONE, results=[3, -3]),
    ]
    rows = compute(es, tables, SWISS)
    # 2 has 4 points; 0 and 1 have 2: Buchholz of 0 = 1 (2) + 2 (4) = 6, of 1 = 0 (2) + 3 (0) = 2
    assert [r.entrant for r in rows] == [2, 0, 1, 3]
    assert [r.points for r in rows] == [4, 2, 2, 0]
    assert rows[1].buchholz == 6 and rows[2].buchholz == 2


def test_club_night_adds_up_the_scores_and_a_forfeit_counts_for_nobody() -> None:
    es = entrants(3)
    tables = [
        RoundTable(1, 0, [0, 1, 2], status=DONE, results=[30, -10, -20]),
        RoundTable(2, 0, [0, 1, 2], status=FORFEIT),
        RoundTable(3, 0, [0, 1, 2], status=DONE, results=[-40, 25, 15]),
    ]
    rows = compute(es, tables, CLUB)
    assert [(r.entrant, r.net, r.sessions) for r in rows] == [(1, 15, 2), (2, -5, 2), (0, -10, 2)]


def test_shared_rank_and_prizes() -> None:
    ranked = [
        Standing(1, "a", rank=1),
        Standing(2, "b", rank=1),
        Standing(3, "c", rank=3),
        Standing(4, "d", rank=4),
        Standing(5, "e", rank=5),
    ]
    assert shares_for(5) == (60, 40)
    paid = prizes(101, ranked)
    assert paid == {1: 51, 2: 50} and sum(paid.values()) == 101
    assert prizes(0, ranked) == {}
    assert split(51, 2) == [26, 25]
