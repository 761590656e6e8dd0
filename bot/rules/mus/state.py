"""The Mus state machine (spec sections 1.4–5): mus, discards, the four lances, the count.

Readings of the spec where it is silent or loose (each also listed in the package docstring):

* The reshuffle of old discards (3.2) continues **deal k's RNG stream**: the stream that
  shuffled the deck (``cards.deal_rng(seed, k)``), advanced past that 40-card shuffle when the
  deck was shuffled (not when ``decks`` stacked it); later reshuffles of the same deal go on
  with the same stream.
* Mus corrido (3.3): the seat that cuts becomes mano whichever mus round of the deal it cuts in.
* Each ``lances`` view entry also names its ``lance``; paso / no_bet entries have
  ``total = held = 0``.
* ``deal_end`` ``deltas`` are the jetons moved at the end of that deal (match payout or
  abandonment refund), with ``pot_change`` = minus their sum.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from typing import Any

from bot.rules.base import (
    N_,
    Action,
    BaseState,
    CardRef,
    Event,
    IllegalMove,
    View,
    match_action,
    not_your_turn,
)
from bot.rules.cards import deal_rng, deck_for_deal, first_dealer
from bot.rules.mus.tables import CODES, INDEX, LANCES, STRENGTH, lance_winner, read_hand, team_bonus

ORDAGO = 1_000_000  # internal total of an órdago ("ordago" in views and events)
NO_SEAT = -1

MUS_ACTIONS: list[Action] = [{"type": "mus"}, {"type": "no_mus"}]
#: Indices (into a sorted 4-card hand) of the 15 discards: sizes 1..4, lexicographic.
DISCARD_SETS: tuple[tuple[int, ...], ...] = tuple(
    c for n in (1, 2, 3, 4) for c in combinations(range(4), n)
)
_OPEN: dict[int, list[Action]] = {}
_PENDING: dict[tuple[int, int], list[Action]] = {}


def open_actions(target: int) -> list[Action]:
    """Legal actions with no bet pending: paso, envido 2…target, ordago (shared, do not mutate)."""
    acts = _OPEN.get(target)
    if acts is None:
        acts = [{"type": "paso"}] + [{"type": "envido", "amount": n} for n in range(2, target + 1)]
        acts.append({"type": "ordago"})
        _OPEN[target] = acts
    return acts


def pending_actions(target: int, total: int) -> list[Action]:
    """Legal answers to a bet of ``total``: quiero, no_quiero, then raises and ordago (shared)."""
    acts = _PENDING.get((target, total))
    if acts is None:
        acts = [{"type": "quiero"}, {"type": "no_quiero"}]
        if total != ORDAGO:
            acts += [{"type": "envido", "amount": n} for n in range(2, target - total + 1)]
            acts.append({"type": "ordago"})
        _PENDING[(target, total)] = acts
    return acts


def shown_total(total: int) -> int | str:
    return "ordago" if total == ORDAGO else total


class MusState(BaseState):
    """One Mus session: 4 seats, ``matches`` matches of best-of ``best_of`` games (``actor`` -1 once over)."""

    __slots__ = (
        # options and session
        "seed", "target", "need", "n_matches", "stake", "buy_in", "corrido_opt", "decks",
        "stacks", "pot", "d", "k", "match_no", "matches_won", "points", "games",
        "phase", "over", "closing", "acted", "corrido", "last_hand",
        # deal
        "hands", "stock", "pile", "round_disc", "discard_counts", "mus_round", "pos",
        "rng", "stacked", "readings", "declared", "lances",
        # lance
        "lance", "eligible", "queue", "qi", "total", "held", "bteam", "pending",
    )
    _CLONE = {
        # rng is copied by clone() itself; readings, declared, eligible, queue: replaced, never mutated
        "shared": (
            "seed", "target", "need", "n_matches", "stake", "buy_in", "corrido_opt", "decks", "pot", "d",
            "k", "match_no", "phase", "over", "closing", "acted", "corrido", "last_hand", "mus_round", "pos",
            "rng", "stacked", "readings", "declared", "lance", "eligible", "queue", "qi", "total", "held",
            "bteam", "pending", "actor", "_legal",
        ),
        "lists": ("stacks", "matches_won", "points", "games", "stock", "pile", "discard_counts", "lances"),
        "nested": (("hands", 4), ("round_disc", 4)),
    }

    def __init__(self, options: dict[str, Any], seed: int):
        self.seed = seed
        self.target = options["target"]
        self.need = (options["best_of"] + 1) // 2
        self.n_matches = options["matches"]
        self.stake = options["stake"]
        self.buy_in = options["buy_in"]
        self.corrido_opt = options["mus_corrido"]
        self.decks = options["decks"]
        self.stacks = [self.buy_in] * 4
        self.pot = 0
        self.d = first_dealer(options["dealer"], 4, seed)
        self.k = 0
        self.match_no = 0
        self.matches_won = [0, 0]
        self.points = [0, 0]
        self.games = [0, 0]
        self.over = False
        self.closing = False
        self.last_hand: dict[str, Any] | None = None
        self._start_match([])
        self._start_deal([], first=True)

    # ------------------------------------------------------------------ contract surface

    def is_over(self) -> bool:
        return self.over

    def _compute_legal(self) -> list[Action]:
        phase = self.phase
        if phase == "mus":
            return MUS_ACTIONS
        if phase == "discard":
            hand = [CODES[c] for c in self.hands[self.actor]]
            return [{"type": "discard", "cards": [hand[i] for i in idx]} for idx in DISCARD_SETS]
        if self.pending:
            return pending_actions(self.target, self.total)
        return open_actions(self.target)

    def timeout_action(self, seat: int) -> Action:
        """MUS → no_mus; DISCARD → the weakest card; betting → no_quiero if a bet is pending, else paso."""
        if self.over or seat != self.actor:
            raise not_your_turn(seat, self.to_act())
        if self.phase == "mus":
            return {"type": "no_mus"}
        if self.phase == "discard":
            weakest = min(self.hands[seat], key=lambda c: (STRENGTH[c], c))
            return {"type": "discard", "cards": [CODES[weakest]]}
        return {"type": "no_quiero"} if self.pending else {"type": "paso"}

    def _match(self, action: Any) -> Any:
        """The decoded action: ``"mus"``/``"no_mus"``, the discarded cards, or ``(bet, amount)``."""
        phase = self.phase
        if phase == "mus":
            return self._match_simple(action, ("mus", "no_mus"))
        if phase == "discard":
            return self._match_discard(self.actor, action)
        return self._match_bet(action)

    def _apply(self, seat: int, matched: Any) -> list[Event]:
        events: list[Event] = []
        self.acted = True
        phase = self.phase
        if phase == "mus":
            self._on_mus(seat, matched == "mus", events)
        elif phase == "discard":
            self._on_discard(seat, matched, events)
        else:
            self._on_bet(seat, matched[0], matched[1], events)
        return events

    def clone(self) -> MusState:
        """An independent copy (declared fields; the stock's shuffler gets its own generator)."""
        c = self._copy_fields()
        rng = self.rng
        if rng is not None:
            c.rng = random.Random()
            c.rng.setstate(rng.getstate())
        return c

    # ------------------------------------------------------------------ redeal (AI search)

    def redeal(
        self, seat: int, rng: random.Random,
        fits: Callable[[int, list[int]], bool] | None = None,
        accept: Callable[[list[list[int]]], bool] | None = None, tries: int = 1,
    ) -> MusState:
        """A copy where every card hidden from ``seat`` is dealt again (OpenSpiel's
        ``ResampleFromInfostate``), from the hidden cards sorted then shuffled by ``rng`` (the
        result depends only on ``seat``'s view and ``rng``).

        Hidden from a seat: the other three hands, their discards of the current exchange
        round, the stock and the discard pile. The seat's own discards still lying in the pile
        stay there (it knows them, and the pile's layout by round and mano order is public while
        no reshuffle mixed it). During the lances the public ``declared`` flags (has pares / has
        juego) are respected. The seed, stacked decks and the stock's shuffler are replaced.
        ``self`` is left untouched.

        AI inference (plausible readings of the other seats, never a peek): ``fits(s, hand)``
        redraws one seat's hand until it holds (like the declarations, up to ``REDEAL_TRIES``
        draws of that hand), and ``accept(hands)`` redraws the other seats' hands together, up
        to ``tries`` times in all, until it holds (the last draw is kept otherwise). Only the
        hands are redrawn, the rest of the hidden cards are laid out once, after. Without them
        the draw is the plain one above.
        """
        c = self.clone()
        c.seed = rng.getrandbits(48)
        c.decks = None
        c.rng = None
        c._legal = None
        if self.over:
            return c
        others = [s for s in range(4) if s != seat]
        pinned = self._own_pile_positions(seat)
        pile_free = [i for i in range(len(self.pile)) if i not in pinned]
        pool: list[int] = []
        for s in others:
            pool += self.hands[s]
            pool += self.round_disc[s]
        pool += self.stock
        pool += [self.pile[i] for i in pile_free]
        pool.sort()  # canonical before shuffling: the result depends on no hidden order
        pares, juego = self.declared if self.readings is not None else (None, None)
        if accept is not None or fits is not None:
            pool = self._deal_accepted(c, others, pool, pares, juego, rng, fits, accept, tries)
        elif pares is not None or juego is not None:
            rng.shuffle(pool)
            pool = self._deal_declared(c, others, pool, pares, juego, rng)
        else:
            rng.shuffle(pool)
            for s in others:
                n = len(self.hands[s])
                c.hands[s] = sorted(pool[:n])
                del pool[:n]
        for s in others:
            n = len(self.round_disc[s])
            c.round_disc[s] = sorted(pool[:n])
            del pool[:n]
        n = len(self.stock)
        c.stock = pool[:n]
        del pool[:n]
        for i, card in zip(pile_free, pool, strict=True):
            c.pile[i] = card
        if self.readings is not None:
            c.readings = [read_hand(h) for h in c.hands]
        return c

    def _own_pile_positions(self, seat: int) -> set[int]:
        """Positions in ``pile`` holding ``seat``'s own discards, when the layout can be read."""
        rounds = self.discard_counts
        left = len(self.pile)
        first = len(rounds)
        while left > 0 and first > 0:
            first -= 1
            left -= sum(rounds[first])
        if left != 0:
            return set()
        mano = (self.d + 1) % 4
        out: set[int] = set()
        pos = 0
        for counts in rounds[first:]:
            for j in range(4):
                s = (mano + j) % 4
                if s == seat:
                    out.update(range(pos, pos + counts[s]))
                pos += counts[s]
        return out

    def _deal_declared(
        self, c: MusState, others: list[int], pool: list[int],
        pares: tuple[bool, ...] | None, juego: tuple[bool, ...] | None, rng: random.Random,
    ) -> list[int]:
        """Deal the other hands one by one, redrawing a hand that contradicts the declarations
        (up to ``REDEAL_TRIES`` draws per hand); return the cards left."""
        for s in others:
            n = len(self.hands[s])
            for _ in range(REDEAL_TRIES):
                idx = rng.sample(range(len(pool)), n)
                hand = [pool[i] for i in idx]
                if _fits(hand, pares, juego, s):
                    break
            for i in sorted(idx, reverse=True):
                pool.pop(i)
            c.hands[s] = sorted(hand)
        return pool

    def _deal_accepted(
        self, c: MusState, others: list[int], pool: list[int],
        pares: tuple[bool, ...] | None, juego: tuple[bool, ...] | None, rng: random.Random,
        fits: Callable[[int, list[int]], bool] | None, accept: Callable[[list[list[int]]], bool] | None,
        tries: int,
    ) -> list[int]:
        """Deal the other hands from ``pool`` (sorted) by a partial Fisher–Yates shuffle, each
        hand redrawn up to ``REDEAL_TRIES`` times to fit the declarations and ``fits`` (when no
        draw fits both, the last one agreeing with the declarations is kept: they are facts), the
        whole deal up to ``tries`` times until ``accept(c.hands)``; return the other cards,
        shuffled."""
        rand = rng.random
        declared = pares is not None or juego is not None
        per_hand = REDEAL_TRIES if declared or fits is not None else 1
        sizes = [len(self.hands[s]) for s in others]
        n_pool = len(pool)
        at = 0
        for _ in range(max(1, tries)):
            at = 0
            for s, n in zip(others, sizes, strict=True):
                hand: list[int] = []
                public: list[int] | None = None  # the last draw agreeing with the declarations
                for _ in range(per_hand):
                    for i in range(at, at + n):  # a uniform draw of n cards into pool[at:at+n]
                        j = i + int(rand() * (n_pool - i))
                        pool[i], pool[j] = pool[j], pool[i]
                    hand = pool[at:at + n]
                    if declared and not _fits(hand, pares, juego, s):
                        continue
                    public = hand
                    if fits is None or fits(s, hand):
                        break
                else:
                    if public is not None and public is not hand:  # the declarations always hold
                        for k, card in enumerate(public):
                            j = pool.index(card, at)
                            pool[at + k], pool[j] = pool[j], pool[at + k]
                        hand = public
                hand.sort()
                c.hands[s] = hand
                at += n
            if accept is None or accept(c.hands):
                break
        rest = pool[at:]
        rng.shuffle(rest)
        return rest

    def request_close(self, now: bool = False) -> list[Event]:
        """Host close: at the end of this deal, or at once (deal voided) if ``now`` or nobody acted yet."""
        if self.over or (self.closing and not now):
            return []
        events: list[Event] = [{"type": "close_requested", "now": bool(now)}]
        self.closing = True
        if now or not self.acted:
            events.append({"type": "deal_voided", "deal": self.k})
            self._clear_deal()
            self._abandon_match(events)
            self._end_session(events)
        return events

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> View:
        me = seat if type(seat) is int and 0 <= seat < 4 else None
        if self.pending:
            bet = {"total": shown_total(self.total), "held": self.held, "team": self.bteam}
        else:
            bet = None
        decl = self.declared
        return {
            "phase": self.phase,
            "to_act": list(self.to_act()),
            "stacks": list(self.stacks),
            "pot": self.pot,
            "dealer": self.d,
            "deal": self.k,
            "closing": self.closing,
            "hand": [CODES[c] for c in self.hands[me]] if me is not None else [],
            "mano": (self.d + 1) % 4,
            "points": list(self.points),
            "games": list(self.games),
            "matches_won": list(self.matches_won),
            "mus_round": self.mus_round,
            "discard_counts": [list(x) for x in self.discard_counts],
            "stock_count": len(self.stock),
            "declared": {"pares": decl[0] and list(decl[0]), "juego": decl[1] and list(decl[1])},
            "lances": [dict(x) for x in self.lances],
            "bet": bet,
            "last_hand": self.last_hand,
        }

    # ------------------------------------------------------------------ action matching

    @staticmethod
    def _match_simple(action: Any, kinds: tuple[str, ...]) -> str:
        if type(action) is dict and len(action) == 1:
            t = action.get("type")
            if t in kinds:
                return t
        return match_action(action, [{"type": t} for t in kinds])["type"]

    def _match_bet(self, action: Any) -> tuple[str, int]:
        if type(action) is dict:
            t = action.get("type")
            n = len(action)
            if self.pending:
                if n == 1 and (t == "quiero" or t == "no_quiero"):
                    return t, 0
                if self.total != ORDAGO:
                    if n == 1 and t == "ordago":
                        return t, 0
                    if n == 2 and t == "envido":
                        a = action.get("amount")
                        if type(a) is int and 2 <= a <= self.target - self.total:
                            return t, a
            else:
                if n == 1 and (t == "paso" or t == "ordago"):
                    return t, 0
                if n == 2 and t == "envido":
                    a = action.get("amount")
                    if type(a) is int and 2 <= a <= self.target:
                        return t, a
        legal = self.legal_actions(self.actor)
        cand = match_action(action, legal)
        return cand["type"], cand.get("amount", 0)

    def _match_discard(self, seat: int, action: Any) -> list[int]:
        if type(action) is not dict or action.get("type") != "discard" or set(action) != {"type", "cards"}:
            match_action(action, self.legal_actions(seat))  # raises with a readable reason
            raise IllegalMove(N_("a discard is 1 to 4 cards of your hand"))
        cards = action["cards"]
        if not isinstance(cards, (list, tuple)) or not 1 <= len(cards) <= 4:
            raise IllegalMove(N_("a discard is 1 to 4 cards of your hand"))
        hand = self.hands[seat]
        out: list[int] = []
        for code in cards:
            idx = INDEX.get(code) if type(code) is str else None
            if idx is None:
                raise IllegalMove(N_("that is not a card"))
            if idx not in hand:
                raise IllegalMove(N_("{card} is not in your hand"), card=CardRef(code, spanish=True))
            if idx in out:
                raise IllegalMove(N_("{card} is named twice"), card=CardRef(code, spanish=True))
            out.append(idx)
        out.sort()
        return out

    # ------------------------------------------------------------------ session, match, deal

    def _start_match(self, events: list[Event]) -> None:
        self.match_no += 1
        for s in range(4):
            self.stacks[s] -= self.stake
        self.pot += 4 * self.stake
        self.points = [0, 0]
        self.games = [0, 0]
        events.append({"type": "match_start", "match": self.match_no, "stake": self.stake, "pot": self.pot})

    def _clear_deal(self) -> None:
        self.hands = [[], [], [], []]
        self.stock = []
        self.pile = []
        self.round_disc = [[], [], [], []]
        self.discard_counts = []
        self.mus_round = 0
        self.pos = 0
        self.rng = None
        self.stacked = False
        self.readings = None
        self.declared = (None, None)
        self.lances = []
        self.lance = ""
        self.eligible = ()
        self.queue = ()
        self.qi = 0
        self.total = 0
        self.held = 0
        self.bteam = NO_SEAT
        self.pending = False
        self.actor = NO_SEAT
        self._legal = None

    def _start_deal(self, events: list[Event], first: bool) -> None:
        """DEAL (1.6): deal k's deck, one card at a time from the mano; MUS starts."""
        self._clear_deal()
        k = self.k
        self.stacked = self.decks is not None and k < len(self.decks)
        deck = [INDEX[c] for c in deck_for_deal(CODES, self.decks, self.seed, k)]
        d = self.d
        hands = self.hands
        for r in range(4):
            for j in range(4):
                hands[(d + 1 + j) % 4].append(deck[4 * r + j])
        for h in hands:
            h.sort()
        stock = deck[16:]
        stock.reverse()  # the next card to draw is at the end (pop)
        self.stock = stock
        self.corrido = first and self.corrido_opt
        self.acted = False
        self.phase = "mus"
        self.actor = (d + 1) % 4
        events.append({"type": "deal", "deal": k, "dealer": d, "mano": (d + 1) % 4, "corrido": self.corrido,
                       "match": self.match_no})

    # ------------------------------------------------------------------ mus, discard, draw

    def _on_mus(self, seat: int, mus: bool, events: list[Event]) -> None:
        if not mus:
            ev: Event = {"type": "no_mus", "seat": seat, "mus_round": self.mus_round}
            if self.corrido:
                self.d = (seat + 3) % 4
                ev["corrido"] = True
                ev["mano"] = seat
            events.append(ev)
            self._start_lances(events)
            return
        events.append({"type": "mus", "seat": seat, "mus_round": self.mus_round})
        self.pos += 1
        if self.pos == 4:
            self.pos = 0
            self.phase = "discard"
            self.actor = (self.d + 1) % 4
        else:
            self.actor = (self.d + 1 + self.pos) % 4

    def _on_discard(self, seat: int, cards: list[int], events: list[Event]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.round_disc[seat] = cards
        events.append({"type": "discard", "seat": seat, "count": len(cards)})
        self.pos += 1
        if self.pos < 4:
            self.actor = (self.d + 1 + self.pos) % 4
            return
        self._draw(events)

    def _draw(self, events: list[Event]) -> None:
        """DRAW (3.2): refill hands mano first; reshuffle earlier rounds' discards if the stock runs out."""
        mano = (self.d + 1) % 4
        stock = self.stock
        reshuffled = 0
        for j in range(4):
            s = (mano + j) % 4
            hand = self.hands[s]
            for _ in range(len(self.round_disc[s])):
                if not stock:
                    stock = self._reshuffle()
                    reshuffled += 1
                hand.append(stock.pop())
            hand.sort()
        counts = [len(x) for x in self.round_disc]
        for j in range(4):
            self.pile.extend(self.round_disc[(mano + j) % 4])
        self.round_disc = [[], [], [], []]
        self.stock = stock
        self.discard_counts.append(tuple(counts))
        self.mus_round += 1
        events.append({"type": "draw", "counts": counts, "reshuffled": reshuffled,
                       "mus_round": self.mus_round, "stock_count": len(stock)})
        self.pos = 0
        self.phase = "mus"
        self.actor = mano

    def _reshuffle(self) -> list[int]:
        rng = self.rng
        if rng is None:
            rng = self.rng = deal_rng(self.seed, self.k)
            if not self.stacked:
                rng.shuffle([0] * len(CODES))  # the deal's own shuffle came first in this stream
        pile = self.pile
        rng.shuffle(pile)
        pile.reverse()
        self.pile = []
        return pile

    # ------------------------------------------------------------------ lances

    def _start_lances(self, events: list[Event]) -> None:
        self.readings = [read_hand(h) for h in self.hands]
        self._open_lance("grande", events)

    def _order(self) -> list[int]:
        m = (self.d + 1) % 4
        return [m, (m + 1) % 4, (m + 2) % 4, (m + 3) % 4]

    def _open_lance(self, lance: str, events: list[Event]) -> None:
        """Enter a lance: declarations, then betting if both teams are eligible, else no_bet."""
        while True:
            order = self._order()
            rd = self.readings
            if lance == "pares":
                has = tuple(bool(r.pares[0]) for r in rd)
                self.declared = (has, None)
                events.append({"type": "declare", "lance": "pares", "has": list(has)})
                eligible = tuple(s for s in order if has[s])
            elif lance == "juego":
                has = tuple(bool(r.juego) for r in rd)
                self.declared = (self.declared[0], has)
                events.append({"type": "declare", "lance": "juego", "has": list(has)})
                if not any(has):
                    lance = "punto"
                    continue
                eligible = tuple(s for s in order if has[s])
            else:
                eligible = tuple(order)
            self.lance = lance
            self.phase = lance
            teams = {s & 1 for s in eligible}
            if len(teams) == 2:
                self.eligible = self.queue = eligible
                self.qi = 0
                self.pending = False
                self.total = self.held = 0
                self.bteam = NO_SEAT
                self.actor = eligible[0]
                events.append({"type": "lance", "lance": lance, "eligible": list(eligible)})
                return
            holder = next(iter(teams)) if teams else None
            self._close_lance("no_bet", events, holder=holder)
            nxt = self._next_lance(lance)
            if nxt is None:
                self._score(events, None)
                return
            lance = nxt

    @staticmethod
    def _next_lance(lance: str) -> str | None:
        return {"grande": "chica", "chica": "pares", "pares": "juego"}.get(lance)

    def _close_lance(self, result: str, events: list[Event], holder: int | None = None) -> None:
        rec: dict[str, Any] = {"lance": self.lance, "result": result, "total": 0, "held": 0, "team": None}
        if result in ("accepted", "refused"):
            rec["total"] = shown_total(self.total)
            rec["held"] = self.held
            rec["team"] = self.bteam
        self.lances.append(rec)
        self.eligible = ()
        ev = dict(rec, type="lance_end")
        if result == "no_bet":
            ev["holder_team"] = holder
        events.append(ev)
        self.pending = False
        self.queue = ()
        self.actor = NO_SEAT

    def _after_lance(self, events: list[Event]) -> None:
        nxt = self._next_lance(self.lance)
        if nxt is None:
            self._score(events, None)
        else:
            self._open_lance(nxt, events)

    def _next_speaker_or_close(self, result: str, events: list[Event]) -> None:
        """The next seat of the queue speaks; after the last one the lance closes with ``result``."""
        self.qi += 1
        if self.qi < len(self.queue):
            self.actor = self.queue[self.qi]
        else:
            self._close_lance(result, events)
            self._after_lance(events)

    def _on_bet(self, seat: int, kind: str, amount: int, events: list[Event]) -> None:
        lance = self.lance
        if kind == "paso":
            events.append({"type": "paso", "seat": seat, "lance": lance})
            self._next_speaker_or_close("paso", events)
            return
        if kind == "quiero":
            events.append({"type": "quiero", "seat": seat, "lance": lance, "total": shown_total(self.total)})
            ordago = self.total == ORDAGO
            self._close_lance("accepted", events)
            if ordago:
                self._score(events, lance)
            else:
                self._after_lance(events)
            return
        if kind == "no_quiero":
            events.append({"type": "no_quiero", "seat": seat, "lance": lance})
            self._next_speaker_or_close("refused", events)
            return
        # envido / ordago: an opening bet or a raise
        raising = self.pending
        if kind == "envido":
            self.held = self.total if raising else 1
            self.total = self.total + amount if raising else amount
            events.append({"type": "envido", "seat": seat, "lance": lance, "amount": amount,
                           "total": self.total, "held": self.held, "raise": raising})
        else:
            self.held = self.total if raising else 1
            self.total = ORDAGO
            events.append({"type": "ordago", "seat": seat, "lance": lance, "held": self.held,
                           "raise": raising})
        self.bteam = seat & 1
        self.pending = True
        elig = self.eligible
        self.queue = tuple(s for s in ((seat + 1) % 4, (seat + 3) % 4) if s in elig)
        self.qi = 0
        self.actor = self.queue[0]

    # ------------------------------------------------------------------ scoring and next

    def _score(self, events: list[Event], ordago_lance: str | None) -> None:
        """SCORING (4.1–4.3): show hands, find lance winners, count in lance order; then NEXT."""
        rd = self.readings
        order = self._order()
        winners: dict[str, int | None] = {name: lance_winner(name, rd, order) for name in LANCES}
        if any(r.juego for r in rd):
            winners["punto"] = None
        before = list(self.points)
        counted: list[list[Any]] = []
        summary: list[dict[str, Any]] = []
        game_winner: int | None = None
        if ordago_lance is not None:
            w = winners[ordago_lance]
            assert w is not None
            game_winner = w & 1
        pts = self.points
        for rec in self.lances:
            name, res = rec["lance"], rec["result"]
            w = winners[name]
            entry: dict[str, Any] = {
                "lance": name, "result": res, "winner": w,
                "why": rd[w].text[name] if w is not None else None,
                "total": rec["total"], "held": rec["held"], "team": None, "bet": 0, "bonus": 0,
                "counted": False,
            }
            summary.append(entry)
            if game_winner is not None:
                continue  # accepted órdago, or the game already ended earlier in this count
            if res == "refused":
                team, bet = rec["team"], rec["held"]
            elif w is None:
                continue  # pares/juego nobody holds
            else:
                team = w & 1
                if res == "accepted":
                    bet = rec["total"]
                else:
                    bet = 1 if res == "paso" and name in ("grande", "chica") else 0
            bonus = team_bonus(name, rd, team)
            entry["team"], entry["bet"], entry["bonus"] = team, bet, bonus
            if bet + bonus > 0:
                entry["counted"] = True
                pts[team] += bet + bonus
                counted.append([name, team, bet, bonus])
                if pts[team] >= self.target:
                    game_winner = team
        self.last_hand = {
            "hands": [[CODES[c] for c in h] for h in self.hands],
            "lance_winners": winners,
            "counted": counted,
            "points_after": list(pts),
            "game_winner": game_winner,
            "ordago": ordago_lance,
        }
        combos = [{"grande": r.text["grande"], "chica": r.text["chica"], "pares": r.text["pares"],
                   "total": r.total, "juego": bool(r.juego)} for r in rd]
        deal_end: Event = {"type": "deal_end", "deal": self.k, **self.last_hand, "points_before": before,
                           "summary": summary, "combos": combos, "mano": order[0],
                           "deltas": [0, 0, 0, 0], "pot_change": 0}
        events.append(deal_end)
        self.phase = "scoring"
        self.actor = NO_SEAT
        self._next(events, game_winner, ordago_lance, deal_end)

    def _next(self, events: list[Event], gw: int | None, ordago: str | None, deal_end: Event) -> None:
        """NEXT (4.4): game and match ends, payouts, then the next deal, match or the session end."""
        stacks0, pot0 = list(self.stacks), self.pot
        match_over = False
        if gw is not None:
            self.games[gw] += 1
            self.points = [0, 0]
            events.append({"type": "game_end", "team": gw, "games": list(self.games), "ordago": ordago})
            if self.games[gw] >= self.need:
                match_over = True
                pay = 2 * self.stake
                self.stacks[gw] += pay
                self.stacks[gw + 2] += pay
                self.pot -= 2 * pay
                self.matches_won[gw] += 1
                results = [self.stake if (s & 1) == gw else -self.stake for s in range(4)]
                events.append({"type": "match_end", "match": self.match_no, "team": gw,
                               "games": list(self.games),
                               "payout": [pay if (s & 1) == gw else 0 for s in range(4)], "results": results,
                               "matches_won": list(self.matches_won)})
        self.d = (self.d + 1) % 4
        if self.closing and not match_over:
            self._abandon_match(events)
        deal_end["deltas"] = [a - b for a, b in zip(self.stacks, stacks0, strict=True)]
        deal_end["pot_change"] = self.pot - pot0
        if self.closing or (match_over and self.match_no >= self.n_matches):
            self._end_session(events)
            return
        if match_over:
            self._start_match(events)
        self.k += 1
        self._start_deal(events, first=match_over)

    def _abandon_match(self, events: list[Event]) -> None:
        """An unfinished match (5.2): every seat gets its stake back from the pot."""
        if self.pot <= 0:
            return
        refund = self.pot // 4
        for s in range(4):
            self.stacks[s] += refund
        self.pot -= 4 * refund
        events.append({"type": "match_abandoned", "match": self.match_no, "refund": [refund] * 4})

    def _end_session(self, events: list[Event]) -> None:
        """End procedure (5.3): the pot is empty; results are stack − buy_in."""
        self.over = True
        self.phase = "session_end"
        self.actor = NO_SEAT
        self._legal = None
        self.pending = False
        events.append({"type": "session_end", "results": [s - self.buy_in for s in self.stacks],
                       "stacks": list(self.stacks), "matches_won": list(self.matches_won)})


#: Draws of one hand tried to match the public pares/juego declarations before keeping the last.
REDEAL_TRIES = 60


def _fits(hand: list[int], pares: tuple[bool, ...] | None, juego: tuple[bool, ...] | None, s: int) -> bool:
    """Whether ``hand`` agrees with seat ``s``'s public pares/juego declarations."""
    r = read_hand(hand)
    if pares is not None and bool(r.pares[0]) != pares[s]:
        return False
    return juego is None or bool(r.juego) == juego[s]
