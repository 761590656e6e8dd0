"""The shipped Mus equity tables (``bot/ai/mus/data/mus_equity.csv``, ``tools/mus_equity.py``).

Entries are recomputed from the engine's own comparison (``bot.rules.mus.tables.lance_winner``)
by enumerating every opposing hand among the 36 cards a concrete hand leaves, and checked
against hand-counted cases (four kings, four aces).
"""

from __future__ import annotations

import importlib.util
import random
from itertools import combinations
from math import comb
from pathlib import Path

import pytest

from bot.ai.mus.equity import equity, parse, strength, tables
from bot.rules.mus.tables import INDEX, lance_winner, read_hand

ROOT = Path(__file__).resolve().parents[2]
N1 = comb(36, 4)  # opposing hands among the 36 cards a hand leaves: 58,905


def _tool():
    spec = importlib.util.spec_from_file_location("mus_equity_tool", ROOT / "tools" / "mus_equity.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _cards(codes: str) -> list[int]:
    return sorted(INDEX[c] for c in codes.split())


def _enumerate_one(hand: list[int], lance: str) -> tuple[float, float, float]:
    """(beat1, tie1, none1) by the engine's lance_winner over every opposing hand."""
    me = read_hand(hand)
    rest = [c for c in range(40) if c not in hand]
    wins_as_mano = wins_second = total = none = 0
    for opp in combinations(rest, 4):
        r = read_hand(list(opp))
        if lance == "punto" and r.juego:
            continue  # punto is only played when nobody has juego
        total += 1
        if lance == "pares" and not r.pares[0] or lance == "juego" and not r.juego:
            none += 1
        readings = [me, r]
        wins_as_mano += lance_winner(lance, readings, [0, 1]) == 0  # ties go to seat 0
        wins_second += lance_winner(lance, readings, [1, 0]) == 0  # ties go to the opponent
    return wins_second / total, (wins_as_mano - wins_second) / total, none / total


def test_four_kings_and_four_aces_hand_counted() -> None:
    """Four kings leave 4 kings among 36 cards: one opposing hand ties (K K K K), 58,904 lose;
    against two hands, either may be that one: 2 / 58,905 ties. Aces likewise in chica."""
    kkkk = equity("grande", (8, 8, 8, 8))
    aaaa = equity("chica", (1, 1, 1, 1))
    for eq in (kkkk, aaaa):
        assert eq is not None
        assert eq.tie1 == pytest.approx(1 / N1, abs=1e-6)
        assert eq.beat1 == pytest.approx(1 - 1 / N1, abs=1e-6)
        assert eq.tie2 == pytest.approx(2 / N1, abs=1e-6)
        assert eq.beat2 == pytest.approx(1 - 2 / N1, abs=1e-6)
    assert equity("chica", (8, 8, 8, 8)).beat1 == 0.0  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("codes", "lances"),
    [
        ("3O 12C 2E 1B", ("grande", "chica", "pares", "punto")),  # K K A A: duples, 22
        ("3O 11C 7E 4B", ("grande", "chica", "juego")),  # K C 7 4: 31, no pares
        ("10O 10C 6E 1B", ("grande", "chica", "pares", "punto")),  # S S 6 A: par of sotas, 27
        ("3O 12C 11E 1B", ("pares", "juego")),  # K K C A: par of kings, 31
    ],
)
def test_entries_match_the_engine_comparison(codes: str, lances: tuple[str, ...]) -> None:
    hand = _cards(codes)
    desc = read_hand(hand).grande
    for lance in lances:
        eq = equity(lance, desc)
        assert eq is not None, lance
        beat1, tie1, none1 = _enumerate_one(hand, lance)
        assert eq.beat1 == pytest.approx(beat1, abs=2e-6), lance
        assert eq.tie1 == pytest.approx(tie1, abs=2e-6), lance
        assert eq.none1 == pytest.approx(none1, abs=2e-6), lance


def test_hands_without_the_combination_have_no_row() -> None:
    assert equity("pares", (8, 7, 6, 5)) is None  # K C S 7: no pares
    assert equity("juego", (8, 8, 1, 1)) is None  # 22: no juego
    assert equity("punto", (8, 8, 8, 1)) is None  # 31: juego, so no punto
    assert strength("pares", (8, 7, 6, 5)) == 0.0


def test_against_two_hands_by_sampling() -> None:
    """beat2 of K K A A in grande against 20,000 seeded pairs of opposing hands (the engine's
    comparison; the mano wins ties, so seat 0 second in order means ties lost)."""
    hand = _cards("3O 12C 2E 1B")
    rest = [c for c in range(40) if c not in hand]
    rng = random.Random(5)
    me = read_hand(hand)
    n = 20_000
    beat = 0
    for _ in range(n):
        drawn = rng.sample(rest, 8)
        readings = [me, read_hand(drawn[:4]), read_hand(drawn[4:])]
        beat += lance_winner("grande", readings, [1, 2, 0]) == 0
    eq = equity("grande", me.grande)
    assert eq is not None
    assert beat / n == pytest.approx(eq.beat2, abs=0.012)
    assert eq.beat2 < eq.beat1 ** 2 + 0.05  # the better of two is harder to beat than one


def test_conditional_strength_against_a_declared_holder() -> None:
    """Pares against a hand known to hold pares: (one − none1) / (1 − none1)."""
    eq = equity("pares", (8, 8, 1, 1))
    assert eq is not None
    expected = (eq.beat1 + eq.tie1 / 2 - eq.none1) / (1 - eq.none1)
    assert strength("pares", (8, 8, 1, 1)) == pytest.approx(expected)
    assert 0.0 < strength("pares", (8, 8, 1, 1)) < eq.one()


def test_shipped_rows_are_the_script_output() -> None:
    """Ten hands recomputed by ``tools/mus_equity.py`` give the shipped rows exactly."""
    tool = _tool()
    hands = tool.all_hands()
    shipped = (ROOT / "bot" / "ai" / "mus" / "data" / "mus_equity.csv").read_text(encoding="utf-8")
    shipped = shipped.splitlines()
    assert shipped[0] == tool.HEADER
    rows = {tuple(line.split(",")[:2]): line for line in shipped[1:]}
    for desc in hands[::33]:
        for lance in tool.LANCES:
            row = tool.equity_row(desc, lance, hands)
            key = (tool.hand_name(desc), lance)
            if row is None:
                assert key not in rows
            else:
                assert rows[key] == f"{key[0]},{lance}," + ",".join(f"{x:.6f}" for x in row)
    assert len(tables()["grande"]) == 330


def test_parse_refuses_another_file() -> None:
    with pytest.raises(ValueError):
        parse("a,b\n1,2\n")
