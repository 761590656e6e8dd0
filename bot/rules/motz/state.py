"""The Motz state machine (spec ``docs/rules/motz.md``; readings in the package docstring)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot.rules import cards
from bot.rules.base import Action, BaseState, Event, View, match_action, not_your_turn
from bot.rules.dealing import deal_under
from bot.rules.motz.tables import (
    DECLARE,
    EFF,
    END,
    HAND_ORDER,
    LOW_KEY,
    PHASE_NAMES,
    PLAY,
    allowed_cards,
    shown_voids,
    trick_winner,
)


class MotzState(BaseState):
    """One Motz session. Rests only in DECLARE, PLAY or SESSION_END (section 3); ``actor`` -1 at the end."""

    __slots__ = (
        "n", "ante", "buy_in", "nominal", "max_extra", "fine_cap", "decks", "seed",
        "stacks", "pot", "k", "dealer", "deal", "next_deal", "deals_played", "phase",
        "hands", "muet", "turn_up", "trump", "decl", "spoken", "muet_by", "given_up", "active",
        "order", "trick", "trick_winners", "tricks", "played", "P", "F",
        "last_result", "closing", "deal_only",
    )
    _CLONE = {
        "shared": (  # last_result and given_up are replaced, never mutated
            "n", "ante", "buy_in", "nominal", "max_extra", "fine_cap", "decks", "seed", "pot", "k", "dealer",
            "deal", "next_deal", "deals_played", "phase", "turn_up", "trump", "spoken", "muet_by", "actor",
            "given_up", "P", "F", "last_result", "closing", "deal_only", "_legal",
        ),
        "lists": ("stacks", "decl", "active", "order", "trick", "trick_winners", "tricks", "played"),
        "nested": ("hands",),
        "optional": ("muet",),
    }

    def __init__(self, seats: int, options: Mapping[str, Any], seed: int):
        n = seats
        extra = options.get("max_extra_deals")
        extra = n if extra is None else extra
        if extra > 2 * n:
            raise ValueError(f"Option max_extra_deals must be at most {2 * n} for {n} players (got {extra}).")
        self.n = n
        self.ante = options["ante"]
        self.buy_in = options["buy_in"]
        self.nominal = options["rotations"] * n
        self.max_extra = extra
        self.fine_cap = options.get("fine_cap")
        self.decks = options.get("decks")
        self.seed = seed
        self.stacks = [self.buy_in] * n
        self.pot = 0
        self.k = 0
        self.dealer = cards.first_dealer(options.get("dealer"), n, seed)
        self.deal = 0
        self.next_deal = 0
        self.deals_played = 0
        self.last_result: dict | None = None
        self.closing = False
        #: An AI search's copy (``bot.ai.motz.determinize``): after this deal the next one's antes
        #: are paid (stack plus a share of the pot, what a search values, stays exact to the bit)
        #: and the copy ends there (``END``, the pot left unsplit) instead of dealing the cards.
        self.deal_only = False
        self._clear_deal()
        self._start_deal([])

    # ------------------------------------------------------------------ deal cycle

    def _clear_deal(self) -> None:
        n = self.n
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.muet: list[str] | None = None
        self.turn_up: str | None = None
        self.trump: str | None = None
        self.decl: list[str | None] = [None] * n
        self.spoken = 0
        self.muet_by: int | None = None
        #: The three cards the muet taker gave up (dead, seen only by the taker, section 7).
        self.given_up: tuple[str, ...] = ()
        self.active: list[int] = []
        self.actor = -1
        self.order: list[int] = []
        self.trick: list[tuple[int, str]] = []
        self.trick_winners: list[int] = []
        self.tricks = [0] * n
        #: This deal's completed tricks, in order, each as its (seat, card) plays (public, section 7).
        self.played: list[tuple[tuple[int, str], ...]] = []
        self.P = 0
        self.F: int | None = None
        self._legal: list[Action] | None = None

    def _start_deal(self, events: list[Event]) -> None:
        """ANTE_DEAL (section 1.5): antes, or the early end when a seat cannot pay."""
        n, ante = self.n, self.ante
        if min(self.stacks) < ante:
            self._end_session(events, "broke")
            return
        self._clear_deal()
        stacks = self.stacks
        for i in range(n):
            stacks[i] -= ante
        self.pot += n * ante
        self.k += 1
        if self.deal_only:
            self.phase = END
            self.actor = -1
            self._legal = None
            return
        self.deal = self.next_deal
        self.next_deal += 1
        deck = cards.deck_for_deal(cards.DECK_32, self.decks, self.seed, self.deal)
        d = self.dealer
        width = n + 1
        hands = self.hands
        for j in range(n):
            seat = (d + 1 + j) % n
            hands[seat] = sorted((deck[j], deck[width + j], deck[2 * width + j]), key=HAND_ORDER.__getitem__)
        self.muet = [deck[n], deck[width + n], deck[2 * width + n]]
        self.turn_up = deck[3 * width]
        self.trump = self.turn_up[-1]
        self.P = self.pot
        self.F = self.pot if self.fine_cap is None else min(self.pot, self.fine_cap)
        self.phase = DECLARE
        self.actor = (d + 1) % n
        events.append({
            "type": "deal_start", "deal": self.deal, "dealer": d, "ante": ante, "pot": self.pot,
            "k": self.k, "fine": self.F, "turn_up": self.turn_up, "trump": self.trump,
        })

    def _declare(self, seat: int, what: str, events: list[Event]) -> None:
        self.decl[seat] = what
        if what == "pass":
            self.hands[seat] = []
        else:
            if what == "take_muet":
                self.given_up = tuple(self.hands[seat])
                self.hands[seat] = sorted(self.muet or (), key=HAND_ORDER.__getitem__)
                self.muet = None
                self.muet_by = seat
            self.active.append(seat)
            self.active.sort()
        self.spoken += 1
        events.append({"type": "declare", "seat": seat, "declaration": what})
        remaining = self.n - self.spoken
        if len(self.active) + remaining < 2:
            self._cancel(events)
        elif remaining == 0:
            self._start_play()
        else:
            self.actor = (seat + 1) % self.n

    def _start_play(self) -> None:
        n, d = self.n, self.dealer
        active = self.active
        leader = next((d + j) % n for j in range(1, n + 1) if (d + j) % n in active)
        self._lead(leader)
        self.phase = PLAY

    def _lead(self, leader: int) -> None:
        n = self.n
        self.order = sorted(self.active, key=lambda a: (a - leader) % n)
        self.actor = leader

    def _play(self, seat: int, card: str, events: list[Event]) -> None:
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append((seat, card))
        events.append({"type": "play", "seat": seat, "card": card})
        if len(trick) < len(self.order):
            self.actor = self.order[len(trick)]
            return
        winner, best = trick_winner(trick, self.trump or "S")
        self.trick_winners.append(winner)
        self.tricks[winner] += 1
        self.played.append(tuple(trick))
        events.append({
            "type": "trick", "number": len(self.trick_winners), "winner": winner, "card": best,
            "cards": [[s, c] for s, c in trick],
        })
        self.trick = []
        if len(self.trick_winners) == 3:
            self._settle(events)
        else:
            self._lead(winner)

    def _cancel(self, events: list[Event]) -> None:
        """CANCELLED (3.2): nothing moves, the pot and k stay."""
        n = self.n
        self.last_result = {"cancelled": True, "trick_winners": [], "payouts": [0] * n, "fines": [0] * n}
        events.append({
            "type": "deal_end", "deal": self.deal, "cancelled": True, "active": list(self.active),
            "muet_taken_by": self.muet_by, "trick_winners": [], "tricks": [0] * n,
            "payouts": [0] * n, "fines": [0] * n, "antes": [self.ante] * n,
            "deltas": [-self.ante] * n, "pot_change": n * self.ante, "pot": self.pot,
            "bete": self.P, "s": self.ante * self.k,
        })
        self._next(events)

    def _settle(self, events: list[Event]) -> None:
        """SETTLE (section 4): pay the bête out of the pot, then collect the fines."""
        n, P, F = self.n, self.P, self.F or 0
        s = self.ante * self.k
        w1, w2, w3 = self.trick_winners
        payouts = [0] * n
        if w1 == w2 == w3:
            payouts[w1] = P
        elif w1 != w2 and w2 != w3 and w1 != w3:
            payouts[w3] = s
            r = P - s
            payouts[w1] = (r + 1) // 2
            payouts[w2] = r // 2
        else:
            two = w1 if w1 in (w2, w3) else w2
            one = next(w for w in (w1, w2, w3) if w != two)
            payouts[one] = s
            payouts[two] = P - s
        fines = [0] * n
        for a in self.active:
            if self.tricks[a] == 0:
                fines[a] = F
        stacks = self.stacks
        for i in range(n):
            stacks[i] += payouts[i] - fines[i]
        pot_before_antes = P - n * self.ante
        self.pot = sum(fines)
        self.k = 0
        self.last_result = {
            "cancelled": False, "trick_winners": list(self.trick_winners), "payouts": payouts, "fines": fines,
        }
        events.append({
            "type": "deal_end", "deal": self.deal, "cancelled": False, "active": list(self.active),
            "muet_taken_by": self.muet_by, "trick_winners": list(self.trick_winners),
            "tricks": list(self.tricks), "payouts": list(payouts), "fines": list(fines),
            "antes": [self.ante] * n, "deltas": [payouts[i] - fines[i] - self.ante for i in range(n)],
            "pot_change": self.pot - pot_before_antes, "pot": self.pot, "bete": P, "s": s,
        })
        self._next(events)

    def _next(self, events: list[Event]) -> None:
        """NEXT (3.5, 5.2): count the deal, pass the deal left, end or deal again."""
        self.deals_played += 1
        self.dealer = (self.dealer + 1) % self.n
        if self.closing:
            self._end_session(events, "closed")
        elif self.deals_played >= self.nominal and self.pot == 0:
            self._end_session(events, "complete")
        elif self.deals_played >= self.nominal + self.max_extra:
            self._end_session(events, "extra_limit")
        else:
            self._start_deal(events)

    def _end_session(self, events: list[Event], reason: str) -> None:
        """End procedure (5.4): split a leftover pot, report results and ranks."""
        n = self.n
        self._clear_deal()
        self.phase = END
        self.actor = -1
        split = [self.pot // n] * n
        for j in range(self.pot % n):
            split[(self.dealer + j) % n] += 1
        for i in range(n):
            self.stacks[i] += split[i]
        self.pot = 0
        results = [st - self.buy_in for st in self.stacks]
        ranks = [1 + sum(1 for r in results if r > mine) for mine in results]
        events.append({
            "type": "session_end", "reason": reason, "split": split, "stacks": list(self.stacks),
            "results": results, "ranks": ranks, "deals_played": self.deals_played,
        })

    # ------------------------------------------------------------------ contract surface

    def _compute_legal(self) -> list[Action]:
        seat = self.actor
        if self.phase == DECLARE:
            legal: list[Action] = [{"type": "pass"}]
            if self.stacks[seat] >= (self.F or 0):
                legal.append({"type": "stand"})
                if self.muet is not None:
                    legal.append({"type": "take_muet"})
        else:
            legal = [{"type": "play", "card": c}
                     for c in allowed_cards(self.hands[seat], self.trick, self.trump or "S")]
        return legal

    def _apply(self, seat: int, chosen: Action) -> list[Event]:
        """Apply one seat action and every automatic step it leads to; return public events."""
        events: list[Event] = []
        if self.phase == DECLARE:
            self._declare(seat, chosen["type"], events)
        else:
            self._play(seat, chosen["card"], events)
        return events

    def _match(self, action: Any) -> Action:
        """A card play is matched on its card, a declaration on its type (without ``match_action``)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if type(action) is dict:
            kind = action.get("type")
            if kind == "play":
                card = action.get("card")
                if len(action) == 2 and type(card) is str:
                    for cand in legal:
                        if cand.get("card") == card:
                            return cand
            elif len(action) == 1 and type(kind) is str:
                for cand in legal:
                    if cand["type"] == kind:
                        return cand
        return match_action(action, legal)

    def timeout_action(self, seat: int) -> Action:
        """Section 7: ``pass`` in DECLARE; in PLAY the lowest legal card."""
        legal = self.legal_actions(seat)
        if not legal:
            raise not_your_turn(seat, self.to_act())
        if self.phase == DECLARE:
            return {"type": "pass"}
        low = LOW_KEY[self.trump or "S"]
        return dict(min(legal, key=lambda a: low[a["card"]]))

    def is_over(self) -> bool:
        return self.phase == END

    def request_close(self, now: bool = False) -> list[Event]:
        """Host close: end after this deal, or void it at once (``now`` or nobody has acted)."""
        if self.phase == END:
            return []
        events: list[Event] = []
        if now or (self.phase == DECLARE and self.spoken == 0):
            n, ante = self.n, self.ante
            for i in range(n):
                self.stacks[i] += ante
            self.pot -= n * ante
            self.k -= 1
            events.append({"type": "deal_voided", "deal": self.deal, "refunds": [ante] * n, "pot": self.pot})
            self._end_session(events, "closed")
            return events
        if self.closing:
            return []
        self.closing = True
        self._legal = None
        return [{"type": "close_requested", "deal": self.deal}]

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (section 7); ``None`` is a spectator.

        ``given_up`` is the hand a muet taker gave up, in the taker's own view only (empty for
        everyone else). Section 7 says that hand is "never shown"; the reading taken is "never
        shown to anyone else": the taker held those cards and remembers them, as at a real table.
        """
        own = seat if type(seat) is int and 0 <= seat < self.n else None
        return {
            "phase": PHASE_NAMES[self.phase],
            "to_act": list(self.to_act()),
            "stacks": list(self.stacks),
            "pot": self.pot,
            "dealer": self.dealer,
            "deal": self.deal,
            "closing": self.closing,
            "deals_played": self.deals_played,
            "k": self.k,
            "fine": self.F,
            "turn_up": self.turn_up,
            "trump": self.trump,
            "declarations": list(self.decl),
            "muet_taken_by": self.muet_by,
            "active": list(self.active),
            "hand": list(self.hands[own]) if own is not None else [],
            "given_up": list(self.given_up) if own is not None and own == self.muet_by else [],
            "hand_sizes": [len(h) for h in self.hands],
            "trick": [[s, c] for s, c in self.trick],
            "trick_winners": list(self.trick_winners),
            "played_tricks": [[[s, c] for s, c in t] for t in self.played],
            "tricks": list(self.tricks),
            "last_result": _copy_result(self.last_result),
        }


    # ------------------------------------------------------------------ redeal (AI search)

    def unseen_cards(self, seat: int) -> list[str]:
        """The cards ``seat`` has not seen, in canonical order: the 32 minus its hand, the hand
        it gave up for the muet, the turn-up, this deal's completed tricks and the trick on the table."""
        seen = set(self.hands[seat])
        if seat == self.muet_by:
            seen.update(self.given_up)
        seen.update(c for _, c in self.trick)
        for t in self.played:
            seen.update(c for _, c in t)
        if self.turn_up is not None:
            seen.add(self.turn_up)
        return [c for c in cards.DECK_32 if c not in seen]

    def played_by(self) -> dict[int, list[str]]:
        """Per seat that has played this deal, its cards in play order (public: the completed
        tricks and the one on the table)."""
        out: dict[int, list[str]] = {}
        for trick in (*self.played, self.trick):
            for s, card in trick:
                out.setdefault(s, []).append(card)
        return out

    def shown_voids(self) -> dict[int, set[str]]:
        """Per seat, the effective suits its plays this deal showed it holds none of (public)."""
        return shown_voids([*self.played, self.trick], self.trump or "S")

    def redeal(self, seat: int, rng: random.Random) -> MotzState:
        """A copy where every card hidden from ``seat`` is dealt again (OpenSpiel's
        ``ResampleFromInfostate``): the other hands and the muet, same sizes, from the cards
        ``seat`` has not seen (sorted, then shuffled by ``rng``, so the result depends only on
        ``seat``'s view and ``rng``). A card played this deal is never dealt again, and a seat
        that showed a void (did not follow, or did not trump when it could not follow) is dealt
        none of that effective suit (``deal_hidden``). The seed and stacked decks are replaced,
        so not even the future deals leak. ``self`` is left untouched.
        """
        c = self.clone()
        c.seed = rng.getrandbits(48)
        c.decks = None
        c._legal = None
        if self.phase == END:
            return c
        pool = self.unseen_cards(seat)
        rng.shuffle(pool)
        others = [(s, len(self.hands[s])) for s in range(self.n) if s != seat and self.hands[s]]
        voids = self.shown_voids() if self.played or len(self.trick) > 1 else {}
        dealt = deal_hidden(pool, others, voids, EFF[self.trump or "S"], rng)
        for s, hand in dealt.items():
            c.hands[s] = sorted(hand, key=HAND_ORDER.__getitem__)
        if self.muet is not None:
            c.muet = pool[:len(self.muet)]
        return c


def deal_hidden(pool: list[str], places: list[tuple[int, int]], voids: dict[int, set[str]],
                 eff: dict[str, str], rng: random.Random) -> dict[int, list[str]]:
    """Deal ``places`` (seat, size) from the shuffled ``pool`` so that no seat gets a card of an
    effective suit it showed void in (``bot.rules.dealing.deal_under``; the most voids first)."""
    return deal_under(pool, places, lambda s, c: eff[c] not in voids.get(s, ()),
                      {s: len(v) for s, v in voids.items()}, rng)


def _copy_result(r: dict | None) -> dict | None:
    if r is None:
        return None
    return {"cancelled": r["cancelled"], "trick_winners": list(r["trick_winners"]),
            "payouts": list(r["payouts"]), "fines": list(r["fines"])}

