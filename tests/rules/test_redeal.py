"""Every engine's ``redeal(seat, rng)`` (OpenSpiel's ResampleFromInfostate), checked with the
engine's own invariants at many points of real sessions: the seat's view and the public view are
unchanged, every zone keeps its size and the same cards overall (none lost, none doubled; Motz,
which keeps no stock, deals from every card the seat has not seen, never a played one), the
jetons do not move, the original is untouched, the copy plays on legally, and the result depends
only on the seat's view and the seed."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bot.rules import GAMES
from bot.rules.marias.tables import STR_NAT, STR_SUIT
from bot.rules.michigan.tables import DEAD
from bot.rules.motz.tables import EFF
from tests.rules.harness import snapshot

CASES = [("motz", 3), ("motz", 6), ("michigan", 3), ("michigan", 6), ("mus", 4), ("marias", 3),
         ("maitre", 3), ("maitre", 6)]


def zones(name: str, s: Any) -> list[Any]:
    """Every card the engine tracks, wherever it lies (a multiset)."""
    if name == "motz":
        return [*(c for h in s.hands for c in h), *(s.muet or ()), *(c for _, c in s.trick), s.turn_up,
                *(c for t in s.played for _, c in t)]
    if name == "michigan":
        return [x for x, o in enumerate(s.owner) if o >= DEAD]  # not played yet
    if name == "mus":
        return [*(c for h in s.hands for c in h), *s.stock, *s.pile, *(c for d in s.round_disc for c in d)]
    if name == "marias":
        return [*(c for h in s.hands for c in h), *s.talon, *(c for _, c in s.trick)]
    return [*(c for h in s.hands for c in h), *(c for d in s.discards for c in d), *(s.coffre or ()),
            *(t[1] for t in s.trick), *(c for w in s.won for c in w)]


def sizes(name: str, s: Any, n: int) -> list[Any]:
    """Size of every zone, seat by seat."""
    if name == "michigan":
        return [s.owner.count(k) for k in (*range(n), DEAD)]
    out = [len(h) for h in s.hands]
    if name == "motz":
        out.append(-1 if s.muet is None else len(s.muet))
    elif name == "mus":
        out += [len(s.stock), len(s.pile), *(len(d) for d in s.round_disc)]
    elif name == "marias":
        out.append(len(s.talon))
    else:
        out += [len(d) for d in s.discards]
    return out


def points(name: str, seats: int, seed: int, every: int = 3) -> list[Any]:
    """Clones of a random session's states, every ``every`` actions."""
    g = GAMES[name]
    opts = {"tours": 1} if name == "maitre" else {}
    state = g.new_table(seats=seats, options=g.validate_options(opts), seed=seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while not state.is_over():
        if step % every == 0:
            out.append(state.clone())
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        step += 1
    out.append(state)
    return out


def check_michigan(s: Any, n: int) -> None:
    """Hand sizes and per-seat suit counts agree with ``owner``."""
    for seat in range(n):
        mine = [x for x in range(52) if s.owner[x] == seat]
        assert s.sizes[seat] == len(mine)
        assert s.suitcnt[seat * 4:seat * 4 + 4] == [sum(1 for x in mine if x // 13 == k) for k in range(4)]


def plays_on(state: Any, rng: random.Random, steps: int = 150) -> None:
    """Random legal play from ``state``: the seat to act always has a move."""
    for _ in range(steps):
        if state.is_over():
            return
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} has no legal action in a redealt state"
        state.apply(seat, rng.choice(legal))


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_redeal_keeps_the_engine_invariants(name: str, seats: int) -> None:
    rng = random.Random(11)
    for i, state in enumerate(points(name, seats, seed=seats + 7)):
        before = snapshot(state, seats)
        for seat in range(seats):
            r = state.redeal(seat, random.Random(rng.getrandbits(32)))
            assert snapshot(state, seats) == before, "redeal changed the original"
            assert r.view(seat) == state.view(seat) and r.view(None) == state.view(None)
            assert r.stacks == state.stacks and r.pot == state.pot
            assert sizes(name, r, seats) == sizes(name, state, seats)
            if name == "motz":  # no stock kept: hidden cards come from all unseen ones, none played
                assert set(zones(name, r)) - set(zones(name, state)) <= set(state.unseen_cards(seat))
                assert r.played == state.played
                voids = state.shown_voids()
                assert all(not voids.get(s, set()) & {r.trump and EFF[r.trump][c] for c in r.hands[s]}
                           for s in range(seats) if s != seat)
            else:
                assert Counter(zones(name, r)) == Counter(zones(name, state))
            assert len(set(zones(name, r))) == len(zones(name, r)), "a card is in two places"
            if name == "michigan":
                check_michigan(r, seats)
            if i % 4 == 0:
                plays_on(r, random.Random(i))


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_redeal_depends_only_on_the_view_and_the_seed(name: str, seats: int) -> None:
    """A state ``seat`` cannot tell from the real one redeals exactly alike; other seeds vary."""
    for i, state in enumerate(points(name, seats, seed=seats + 3, every=5)):
        seat = i % seats
        a = state.redeal(seat, random.Random(i))
        twin = state.redeal(seat, random.Random(i + 1_000))  # same view for ``seat``, other hidden cards
        b = twin.redeal(seat, random.Random(i))
        assert snapshot(a, seats) == snapshot(b, seats)
        assert Counter(zones(name, a)) == Counter(zones(name, b))


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_redeal_changes_the_hidden_cards(name: str, seats: int) -> None:
    state = points(name, seats, seed=2)[1]
    seat = state.to_act()[0]
    other = (seat + 1) % seats
    seen = {str(state.redeal(seat, random.Random(k)).view(other)) for k in range(30)}
    assert len(seen) > 3, "the other seat's hand never changes"


def test_michigan_redeal_keeps_who_the_lead_passed_over() -> None:
    """Hand-checked: 3 seats, spades blocked, the lead passed seat 1 (only spades) to seat 2.

    Seat 0 redeals. Seat 1 must keep holding only spades and seat 2 some other suit, or the
    redealt state would give seat 2 no legal lead (the old determinizer did, now and then).
    """
    g = GAMES["michigan"]
    for seed in range(400):
        state = g.new_table(seats=3, options=g.validate_options({}), seed=seed)
        rng = random.Random(seed)
        while not state.is_over() and not (
            state.phase == 0 and state.blocked >= 0 and state.actor == (state.lead_right + 1) % 3
            and not state.lifted
        ):
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if not state.is_over():
            break
    else:
        pytest.fail("no state where the lead passed one seat")
    b, passed, leader = state.blocked, state.lead_right, state.actor
    observer = next(s for s in range(3) if s not in (passed, leader))
    assert all(x // 13 == b for x in range(52) if state.owner[x] == passed)
    for k in range(200):
        r = state.redeal(observer, random.Random(k))
        assert all(x // 13 == b for x in range(52) if r.owner[x] == passed)
        assert any(x // 13 != b for x in range(52) if r.owner[x] == leader)
        assert r.legal_actions(leader)


@pytest.mark.parametrize("seed", [4, 13, 21])
def test_marias_redeal_keeping_what_the_plays_showed(seed: int) -> None:
    """``redeal(shown=True)``, at every point of random sessions: the invariants above, every other
    hand within what the plays showed (``shown_ceilings``), and still a function of the view and
    the seed only."""
    strength = {True: STR_SUIT, False: STR_NAT}
    for i, state in enumerate(points("marias", 3, seed=seed, every=2)):
        limits = state.shown_ceilings()
        for seat in range(3):
            r = state.redeal(seat, random.Random(i * 3 + seat), shown=True)
            assert r.view(seat) == state.view(seat) and r.view(None) == state.view(None)
            assert sizes("marias", r, 3) == sizes("marias", state, 3)
            assert Counter(zones("marias", r)) == Counter(zones("marias", state))
            for s in range(3):
                if s != seat and state.phase == "play":
                    top = limits.get(s, {})
                    order = strength[state.trump is not None]
                    assert all(order[c] <= top.get(c[-1], 7) for c in r.hands[s]), (s, r.hands[s], top)
            twin = state.redeal(seat, random.Random(i + 1_000))
            assert snapshot(twin.redeal(seat, random.Random(7), shown=True), 3) == \
                snapshot(state.redeal(seat, random.Random(7), shown=True), 3)
            if i % 6 == 0:
                plays_on(r, random.Random(i))
