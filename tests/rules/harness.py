"""Shared checks of the rules-core contract, used by every game's tests.

``random_session`` plays one whole session with seeded random choices and, after every
step, checks: jetons conserved, illegal actions refused with every view unchanged, no seat
or spectator sees another seat's private cards, views JSON-able. At the end it checks that
replaying the action log gives identical views and that ``clone()`` is independent.
"""

from __future__ import annotations

import json
import random
from typing import Any

from bot.rules import GAMES, IllegalMove
from bot.rules.cards import DECK_54, DECK_ES_40

ALL_CODES = frozenset(DECK_54) | frozenset(DECK_ES_40)
MAX_STEPS = 20_000


def total_jetons(state: Any) -> int:
    pot = state.pot
    return sum(state.stacks) + (sum(pot) if isinstance(pot, (list, tuple)) else pot)


def snapshot(state: Any, n: int) -> str:
    """Every seat's view and the spectator's, as one canonical JSON string."""
    return json.dumps([state.view(s) for s in [*range(n), None]], sort_keys=True)


def cards_in(obj: Any, acc: set[str] | None = None) -> set[str]:
    """All card codes found anywhere in a JSON-able object."""
    acc = set() if acc is None else acc
    if isinstance(obj, str):
        if obj in ALL_CODES:
            acc.add(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            cards_in(v, acc)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            cards_in(v, acc)
    return acc


def assert_no_leaks(state: Any, n: int) -> None:
    """No seat's view shows a card private to another seat (public = in the spectator view)."""
    public = cards_in(state.view(None))
    views = [cards_in(state.view(s)) for s in range(n)]
    for s in range(n):
        private = views[s] - public
        for t in range(n):
            if t != s:
                leaked = private & views[t]
                assert not leaked, f"seat {t} sees seat {s}'s private cards {sorted(leaked)}"


def assert_refused(state: Any, n: int, seat: Any, action: Any) -> IllegalMove:
    """``apply`` raises IllegalMove (not another error) and leaves every view unchanged."""
    before = snapshot(state, n)
    try:
        state.apply(seat, action)
    except IllegalMove as exc:
        assert snapshot(state, n) == before, f"refused {action!r} changed the state"
        assert str(exc), "IllegalMove needs a readable reason"
        return exc
    raise AssertionError(f"apply({seat!r}, {action!r}) was accepted")


def bogus_actions(legal: list[dict]) -> list[Any]:
    """Malformed and out-of-range variants of the legal actions."""
    out: list[Any] = [None, "play", 3, [], {}, {"type": 5}, {"type": "no-such-action"},
                      {"type": "play", "card": "ZZ"}, {"type": "play", "card": None}]
    for a in legal[:4]:
        extra = dict(a, extra_field=1)
        out.append(extra)
        for k, v in a.items():
            if k == "type":
                continue
            for bad in (None, "ZZ", 10_000, -1, True, [v], str(v) if not isinstance(v, str) else 7):
                b = dict(a)
                b[k] = bad
                if b not in legal or any(type(b[x]) is not type(a[x]) for x in a):
                    out.append(b)
        missing = {k: v for k, v in a.items() if k == "type"}
        if missing != a:
            out.append(missing)
    return out


def random_session(
    name: str,
    seats: int,
    seed: int,
    options: dict | None = None,
    *,
    probe_every: int = 1,
    leak_every: int = 1,
    check_replay: bool = True,
) -> tuple[Any, list[tuple[int, dict]]]:
    """Play one session of ``name`` with random legal actions, checking the contract throughout."""
    game = GAMES[name]
    opts = game.validate_options(options or {})
    state = game.new_table(seats=seats, options=opts, seed=seed)
    rng = random.Random(seed)
    start_total = total_jetons(state)
    log: list[tuple[int, dict]] = []
    steps = 0
    while not state.is_over():
        steps += 1
        assert steps <= MAX_STEPS, f"{name}: no end after {MAX_STEPS} actions"
        to_act = state.to_act()
        assert to_act, "to_act() is empty although the session is not over"
        seat = rng.choice(list(to_act))
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is to act with no legal action"
        json.dumps(legal)
        for other in range(seats):
            if other not in to_act:
                assert state.legal_actions(other) == [], f"seat {other} has moves out of turn"
        if probe_every and steps % probe_every == 0:
            for bad in bogus_actions(legal):
                if bad not in legal:
                    assert_refused(state, seats, seat, bad)
            others = [s for s in range(seats) if s not in to_act]
            if others:
                assert_refused(state, seats, others[0], legal[0])
            assert_refused(state, seats, seats + 3, legal[0])
            assert_refused(state, seats, None, legal[0])
        action = rng.choice(legal)
        if steps % 3 == 0:
            action = json.loads(json.dumps(action))  # a copy from the wire is as good as the original
        events = state.apply(seat, action)
        assert isinstance(events, list)
        json.dumps(events)
        log.append((seat, action))
        assert total_jetons(state) == start_total, f"jetons not conserved after {action}"
        if leak_every and steps % leak_every == 0:
            assert_no_leaks(state, seats)
            json.dumps(state.view(None))
    assert state.to_act() == ()
    assert all(state.legal_actions(s) == [] for s in range(seats))
    assert sum(state.stacks) == start_total, "the session ended with jetons left in the pot"
    if check_replay:
        replay = game.new_table(seats=seats, options=opts, seed=seed)
        for s, a in log:
            replay.apply(s, a)
        assert snapshot(replay, seats) == snapshot(state, seats), "replay differs"
    return state, log


def check_clone_independent(name: str, seats: int, seed: int, steps: int = 40) -> None:
    """A clone taken mid-session evolves independently of its original, and equals it at first."""
    game = GAMES[name]
    state = game.new_table(seats=seats, options=game.validate_options({}), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            return
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        twin = state.clone()
        assert snapshot(twin, seats) == snapshot(state, seats)
        before = snapshot(state, seats)
        for _ in range(5):
            if twin.is_over():
                break
            s = twin.to_act()[0]
            twin.apply(s, rng.choice(twin.legal_actions(s)))
        assert snapshot(state, seats) == before, "playing on a clone changed the original"


def play(state: Any, moves: list[tuple[int, dict]]) -> list[dict]:
    """Apply a list of (seat, action); return all events."""
    events: list[dict] = []
    for seat, action in moves:
        events += state.apply(seat, action)
    return events
