"""The Michigan bench drivers of issue 17's third pass: ``research/michigan_peek.py`` (the search
reads one part of the real deal) and ``research/michigan_regret.py`` (regret against the real deal)."""

from __future__ import annotations

import importlib
import random
from pathlib import Path
from types import ModuleType

import pytest

import bot.rules.michigan.state as mstate
from bot.ai.registry import game_ai, spec_for
from bot.rules.michigan import DEAD
from tests.ai.test_michigan_paired import out_in_two_leads

BENCH = Path(__file__).resolve().parents[1]  # research/


def _bench(monkeypatch: pytest.MonkeyPatch, name: str) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))
    # whatever a driver patches is put back after the test
    monkeypatch.setattr(mstate, "known_dead", mstate.known_dead)
    monkeypatch.setattr(game_ai("michigan"), "spec", spec_for("michigan"))
    return importlib.import_module(name)


def _holding(state, who: int) -> set[int]:
    return {x for x in range(52) if state.owner[x] == who}


@pytest.mark.parametrize("part", ["dead", "next", "prev"])
def test_peek_reads_only_its_part(monkeypatch: pytest.MonkeyPatch, part: str) -> None:
    """Seat 0 of the six-seat deal: with ``dead`` the searched deal's dead hand is the real one,
    with ``next``/``prev`` seat 1's/seat 5's hand is; the rest is still redealt."""
    peek = _bench(monkeypatch, "michigan_peek")
    st = out_in_two_leads()
    honest = spec_for("michigan").determinize
    assert honest is None
    peek.install(part)
    det = spec_for("michigan").determinize
    read = {"dead": DEAD, "next": 1, "prev": 5}[part]
    others = [w for w in (DEAD, 1, 2, 3, 4, 5) if w != read]
    moved = 0
    for k in range(20):
        d = det(st, 0, random.Random(k))
        assert _holding(d, read) == _holding(st, read)
        assert _holding(d, 0) == _holding(st, 0)
        moved += any(_holding(d, w) != _holding(st, w) for w in others)
    assert moved == 20
    # the engine's own redeal is honest again outside a peeking search
    assert _holding(st.redeal(0, random.Random(0)), read) != _holding(st, read)


def test_regret_of_the_hand_checked_lead(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 0 leading spades goes out at once on the real deal: 36 jetons (2.4 in the spec's
    units, see ``out_in_two_leads``). 8♣ is live (the stacked deck's fill gives the dead hand
    2♠–9♠ and 8♣ to seat 5), so clubs does not go out at once and is worth less: choosing it
    has a positive regret, spades none."""
    regret = _bench(monkeypatch, "michigan_regret")
    st = out_in_two_leads()
    tv = regret.true_values(st)
    assert abs(tv["S"] - 2.4) < 1e-9
    assert tv["C"] < tv["S"]
    spades = regret.regrets([st], lambda s, v, legal, rng: {"type": "lead", "suit": "S"})
    clubs = regret.regrets([st], lambda s, v, legal, rng: {"type": "lead", "suit": "C"})
    assert spades == [0.0]
    assert clubs == [pytest.approx(15 * (tv["S"] - tv["C"]))] and clubs[0] > 0
