"""Reading the calls of a Marias deal as the easy player would have made them (issue 32, item 4:
policy-based inference): the levels' Marias determinizer. Against easy on the same deals at equal
time it bought ΔĒ +2.96 (+1.42 … +4.51) jetons a session over the plain redeal and +1.26
(+0.02 … +2.49) over ``determinize_shown`` alone (``bench/ai_table.py``'s item 4 table).

The search already plays the other seats as the easy policy (``GameSpec.model_opponents``); this
reads their past calls with the same model. A redeal is weighted by the likelihood of every call
the other seats made this deal — forehand's trump card, the soloist's contract, the defenders'
good, flek and pass, the soloist's re — under that model: 1 where easy, holding the redealt cards,
would have made the same call, ``EPS`` where it would not (a human, or another level, may call
otherwise). ``determinize_calls`` draws redeals that keep what the plays showed
(``MariasState.redeal(shown=True)``), lays a hidden talon as the easy soloist would have discarded
it (``read_discards``: the discards are hidden, so they are not weighed but rebuilt, which a
weight could hardly find by chance), and accepts the redeal with its weight (rejection sampling,
call by call: the weights are at most 1), at most ``CANDIDATES`` draws.

Each seat's cards at its calls are rebuilt from the redeal: a defender held its hand and the
cards it has played; the soloist, at its contract, also the talon (then discarded), and at its
re the cards it kept. Forehand's first seven, from which the trump card was shown, are not kept
by any state: a seven of forehand's twelve holding the trump card is drawn at random, so the
weight is an unbiased estimate of the likelihood. A deal with a ``bad`` (the talon changed
hands, the contract was declared again) is not read: the plain redeal serves it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.ai.marias.easy import SUIT_RANK, EasyPolicy, best_trump_suit
from bot.ai.marias.redeal import determinize_shown
from bot.ai.policy import Action
from bot.rules.marias.shown import Ceilings, may_hold
from bot.rules.marias.state import PLAY, MariasState, declarable, discardable
from bot.rules.marias.tables import SUIT, SUIT_CONTRACTS, canon_sorted

#: The weight of a call the model would not have made.
EPS = 0.05
#: Redeals drawn at most per determinization (the first accepted is kept, else the last).
CANDIDATES = 8
_EASY = EasyPolicy()


def played_by(state: MariasState) -> list[list[str]]:
    """Per seat, the cards it has played this deal (the completed tricks and the one on the table)."""
    out: list[list[str]] = [[], [], []]
    for trick in (*state.played, state.trick):
        for seat, card in trick:
            out[seat].append(card)
    return out


def likelihood(state: MariasState, observer: int, rng: random.Random) -> float:
    """How likely the other seats' calls this deal are under the easy model, holding the cards
    ``state`` gives them (a redeal for ``observer``); 1.0 for a deal with no call to read."""
    weight = 1.0
    for w in call_weights(state, observer, rng):
        weight *= w
    return weight


def call_weights(state: MariasState, observer: int, rng: random.Random,
                 played: list[list[str]] | None = None) -> Iterator[float]:
    """The weight of each call of the other seats, in the order made (1 or ``EPS``; forehand's
    trump call from a random first seven); nothing for a deal with a ``bad``. ``played``: the
    deal's ``played_by`` (public, the same for every redeal), computed here if not given."""
    calls = state.calls
    if not calls or any(kind == "bad" for _, kind, _, _ in calls):
        return
    played = played_by(state) if played is None else played
    now = [state.hands[s] + played[s] for s in range(3)]  # the ten cards each held in the calls
    soloist: int | None = None
    contract = trump = trump_card = None
    for seat, kind, said, level in calls:
        if kind in ("trump", "trump_blind"):
            trump_card, trump = said, SUIT[said] if said is not None else None
            if seat != observer:
                yield _trump_weight(now[seat] + state.talon, trump_card, kind, rng)
            continue
        if kind == "declare":
            soloist, contract = seat, said
            if seat != observer:
                held = now[seat] + state.talon  # the contract is declared before the discards
                legal = [{"type": "declare", "game": g} for g in declarable(held, trump, trump_card, None)]
                yield _agrees(_EASY._declare({"trump": trump}, held, legal), kind, said)
            if contract not in SUIT_CONTRACTS:
                trump = None  # betl and durch have none
            continue
        if seat == observer:
            continue
        if kind == "good":
            legal: list[Action] = [{"type": "good"}, {"type": "bad"}]
            yield _agrees(_EASY._answer({"contract": contract}, now[seat], legal), kind, said)
        else:  # flek, re, pass
            raise_ = {"type": "re" if seat == soloist else "flek"}
            view = {"flek": level, "contract": contract, "trump": trump, "to_act": [seat], "soloist": soloist}
            yield _agrees(_EASY._flek(view, now[seat], [raise_, {"type": "pass"}]), kind, said)


def _agrees(chosen: Action, kind: str, said: str | None) -> float:
    """1 when the model's ``chosen`` action is the call made, else ``EPS``."""
    if chosen["type"] != kind:
        return EPS
    value = chosen.get("card") or chosen.get("game")
    return 1.0 if value is None or value == said else EPS


def _trump_weight(twelve: list[str], trump_card: str | None, kind: str, rng: random.Random) -> float:
    """Forehand's trump call from a random first seven of its ``twelve`` holding the trump card
    (a blind trump card was not in them). Easy never goes blind (seven cards always hold a suit,
    and any suit held outweighs an empty one), so a blind call weighs ``EPS`` on every redeal:
    it tells nothing, and its rejections leave the deal's other calls nearly unread."""
    if trump_card is None or trump_card not in twelve or len(twelve) < 7:
        return 1.0
    others = sorted(c for c in twelve if c != trump_card)
    if kind == "trump_blind":
        first = rng.sample(others, 7)
    else:
        first = [trump_card, *rng.sample(others, 6)]
    first = canon_sorted(first)
    # easy's call (``EasyPolicy._trump``) from these seven: the lowest card of its best suit
    best = best_trump_suit(first)
    mine = [c for c in first if c[-1] == best]
    if not mine:  # easy would go blind
        return 1.0 if kind == "trump_blind" else EPS
    if kind == "trump_blind":
        return EPS
    return 1.0 if min(mine, key=lambda c: SUIT_RANK[c[:-1]]) == trump_card else EPS


def read_discards(state: MariasState, observer: int, played: list[list[str]] | None = None,
                  ceilings: Ceilings | None = None) -> bool:
    """Lay the hidden talon of ``state`` (a redeal for ``observer``), in place, as the easy soloist
    would have discarded it from its twelve cards (its hand, its played cards and the talon), where
    that fits what is public: none of the two played since, as many trumps as announced, and the
    soloist's hand then within what its plays showed. False where it does not fit (the drawn talon
    stays; the caller weighs the redeal ``EPS``); True otherwise, also when there is nothing to read
    (the observer laid or sees the talon, or a ``bad`` moved it). ``played`` and ``ceilings``:
    the deal's ``played_by`` and ``shown_ceilings`` (public), computed here if not given."""
    sol, calls = state.soloist, state.calls
    if sol is None or sol == observer or len(state.talon) != 2 or state.talon_owner != sol \
            or any(kind == "bad" for _, kind, _, _ in calls):
        return True
    contract, trump, trump_card = state.contract, state.trump, state.trump_card  # None in betl, durch
    played_sol = (played_by(state) if played is None else played)[sol]
    hand = canon_sorted(state.hands[sol] + played_sol + state.talon)
    talon = []
    for _ in range(2):
        legal = [{"type": "discard", "card": c} for c in discardable(hand, contract, trump, trump_card)]
        card = _EASY._discard({"contract": contract, "trump": trump}, hand, legal)["card"]
        hand.remove(card)
        talon.append(card)
    if sorted(talon) == sorted(state.talon):
        return True
    if any(c in played_sol for c in talon) or (trump is not None and sum(SUIT[c] == trump for c in talon)
                                            != state.talon_trumps):
        return False
    kept = [c for c in hand if c not in played_sol]
    allowed, _ = may_hold(state.shown_ceilings() if ceilings is None else ceilings, state.trump)
    if not all(allowed(sol, c) for c in kept):
        return False
    state.hands[sol] = kept
    state.talon = talon
    return True


def determinize_calls(state: MariasState, seat: int, rng: random.Random) -> MariasState:
    """A redeal for ``seat`` keeping what the plays showed, accepted with the likelihood of the other
    seats' calls under the easy model (rejection sampling, call by call, a rejected draw left at
    its first refused call; at most ``CANDIDATES`` draws, the last one kept when none is
    accepted: module docstring)."""
    if not state.calls or state.phase not in (PLAY, "flek", "answer"):
        return determinize_shown(state, seat, rng)
    played, ceilings = played_by(state), state.shown_ceilings()  # public: the same for every draw
    for _ in range(CANDIDATES):
        drawn = determinize_shown(state, seat, rng)
        # the calls first: they read only the soloist's twelve cards, which laying the talon keeps
        if all(w >= 1.0 or rng.random() < w for w in call_weights(drawn, seat, rng, played)) \
                and (read_discards(drawn, seat, played, ceilings) or rng.random() < EPS):
            return drawn
    return drawn
