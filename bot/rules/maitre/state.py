"""The Jeu du Maître state machine (spec sections 1, 3, 4, 5, 7)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.rules.base import Action, BaseState, Event, IllegalMove, View, not_your_turn
from bot.rules.cards import DECK_54, deck_for_deal, first_dealer
from bot.rules.maitre import tables as T
from bot.rules.maitre.scoring import ranking, score_manche_ids, split_pot

CODES = T.CODES
INFO = T.INFO
SUITS = T.SUITS
RANK = T.RANK
SUIT = T.SUIT
LEAD = T.LEAD
SECOND = T.SECOND
DISCARD = T.DISCARD
PLAY = T.PLAY
TAKE = T.TAKE

COFFRE, CONTRACT, PLAYING, OVER = "coffre", "contract", "play", "session_end"


class MaitreState(BaseState):
    """One table of the Jeu du Maître, from the first deal to the settlement (``actor`` -1 once over)."""

    __slots__ = (
        "n", "seed", "tours", "stake", "buy_in", "decks", "first",
        "stacks", "pot", "points", "strikes", "eliminated",
        "manche", "k", "deal_index", "maitre", "phase",
        "hands", "coffre", "contract", "trick", "mode", "muet", "leader", "last",
        "discards", "won", "tricks_won", "last_manche", "ranking",
        "closing", "over", "acted", "deal_only",
    )
    _CLONE = {
        "shared": (  # coffre: a tuple; last_manche never mutated once built; ranking, _legal: read-only
            "n", "seed", "tours", "stake", "buy_in", "decks", "first", "pot", "manche", "k", "deal_index",
            "maitre", "phase", "actor", "coffre", "contract", "mode", "muet", "leader", "last", "last_manche",
            "ranking", "closing", "over", "acted", "deal_only", "_legal",
        ),
        "lists": ("stacks", "points", "strikes", "eliminated", "trick", "tricks_won"),
        "nested": ("hands", "discards", "won"),
    }

    def __init__(self, seats: int, options: dict[str, Any], seed: int):
        n = self.n = seats
        self.seed = seed
        self.tours = options["tours"]
        self.stake = options["stake"]
        self.buy_in = options["buy_in"]
        self.decks = options.get("decks")
        self.first = first_dealer(options.get("dealer"), n, seed)
        self.stacks = [self.buy_in - self.stake] * n
        self.pot = self.stake * n
        self.points = [0] * n
        self.strikes = [0] * n
        self.eliminated = [False] * n
        self.manche = 0
        self.k = 0
        self.deal_index = 0
        self.maitre = self.first
        self.last_manche: dict | None = None
        self.ranking: list[int] | None = None
        self.closing = False
        self.over = False
        #: An AI search's copy (``bot.ai.maitre.determinize``): the copy ends after this manche
        #: (no payout: the values a search reads are the session points) instead of dealing the next.
        self.deal_only = False
        self._start_manche([])

    # ------------------------------------------------------------------ contract surface

    def is_over(self) -> bool:
        return self.over

    def _apply(self, seat: int, a: Action) -> list[Event]:
        kind, card, x, mode, take = INFO[id(a)]
        self.acted = True
        ev: list[Event] = []
        if kind == T.K_PLAY:
            self._play(seat, card, x, mode, take, ev)
        elif kind == T.K_DISCARD:
            self._discard(seat, card, ev)
        elif kind == T.K_TAKE:
            ev.append({"type": "take", "seat": seat, "auto": False})
            self._end_trick(seat, "take", ev)
        elif kind == T.K_COFFRE:
            hand = self.hands[seat]
            hand.remove(card)
            hand.remove(x)
            self.coffre = (card, x)
            self.phase = CONTRACT
            ev.append({"type": "coffre", "seat": seat})
        else:
            self.contract = card
            self.phase = PLAYING
            self.leader = self.actor = (seat + 1) % self.n
            ev.append({"type": "contract", "seat": seat, "value": card, "leader": self.actor})
        return ev

    def timeout_action(self, seat: int) -> Action:
        """The spec's timeout policy (section 7) for the seat to act."""
        legal = self.legal_actions(seat)
        if not legal:
            raise not_your_turn(seat, self.to_act())
        if self.phase == CONTRACT:
            return T.CONTRACT[50]
        if self.phase == PLAYING:
            hand = self.hands[seat]
            if not self.trick:
                c = hand[0]
                return PLAY[(c, c if c < 52 else 0, None, None)]
            if seat == self.last:
                return TAKE
            return DISCARD[hand[0]]
        return legal[0]

    def request_close(self, now: bool = False) -> list[Event]:
        """Host close: end after this manche, or at once (manche voided) if ``now`` or unplayed."""
        if self.over:
            return []
        if now or not self.acted:
            ev: list[Event] = [{"type": "close", "now": bool(now)},
                               {"type": "manche_void", "manche": self.manche, "maitre": self.maitre}]
            self.closing = True
            self._clear_manche()
            self._end_session(ev, closed=True)
            return ev
        if self.closing:
            return []
        self.closing = True
        self._legal = None
        return [{"type": "close", "now": False}]

    # ------------------------------------------------------------------ redeal (AI search)

    def redeal(
        self, seat: int, rng: random.Random,
        choose_coffre: Callable[[list[int]], tuple[int, int] | None] | None = None,
    ) -> MaitreState:
        """A copy where every card hidden from ``seat`` is dealt again (OpenSpiel's
        ``ResampleFromInfostate``), from the hidden cards sorted then shuffled by ``rng`` (the
        result depends only on ``seat``'s view and ``rng``).

        Hidden from a seat: the other hands, the other seats' discard piles (counts are public)
        and, unless the seat is the Maître, the Coffre. Kept: hand and pile sizes; the Coffre
        stays two number cards (A–10, no joker) of different suits, mineure first; before the
        Coffre is laid, the Maître's hand keeps number cards of at least two suits (the public
        redeal rule). A hidden Coffre is taken out of the Maître's redealt holding (his hand plus
        two cards) by ``choose_coffre(holding)`` -> ``(mineure, majeure)`` or None to deal again
        (default: a uniformly drawn valid pair); after ``REDEAL_TRIES`` failed deals a uniform
        pair is drawn from all hidden cards. The seed and stacked decks are replaced. ``self``
        is left untouched.
        """
        c = self.clone()
        c.seed = rng.getrandbits(48)
        c.decks = None
        c._legal = None
        if self.over:
            return c
        n, m = self.n, self.maitre
        others = [s for s in range(n) if s != seat]
        pool: list[int] = []
        for s in others:
            pool += self.hands[s]
            pool += self.discards[s]
        hide_coffre = seat != m and self.coffre is not None
        if hide_coffre:
            pool += self.coffre
        pool.sort()  # canonical before shuffling: the result depends on no hidden order
        discard_sizes = [len(self.discards[s]) for s in others]
        hand_sizes = [len(self.hands[s]) + (2 if hide_coffre and s == m else 0) for s in others]
        need_suits = self.coffre is None and seat != m and self.phase == COFFRE
        choose = choose_coffre or (lambda holding: _random_coffre(holding, rng))
        for _ in range(REDEAL_TRIES):
            parts = _deal_sizes(pool, hand_sizes + discard_sizes, rng)
            held = parts[others.index(m)] if m in others else []
            if hide_coffre:
                coffre = choose(held)
                if coffre is None:  # no two number suits among the hidden cards: deal again
                    continue
                held.remove(coffre[0])
                held.remove(coffre[1])
                c.coffre = coffre
            if not need_suits or _two_suits(held):
                break
        else:
            if hide_coffre:  # every draw lacked a pair (practically never): a uniform valid pair
                c.coffre = _draw_coffre(pool, rng)
                parts = _deal_sizes(pool, [len(self.hands[s]) for s in others] + discard_sizes, rng)
        for i, s in enumerate(others):
            c.hands[s] = sorted(parts[i])
            c.discards[s] = parts[len(others) + i]
        return c

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (None = spectator), spec section 7."""
        n = self.n
        own = seat if type(seat) is int and 0 <= seat < n else None
        in_manche = self.phase in (COFFRE, CONTRACT, PLAYING)
        coffre = None
        if own is not None and own == self.maitre and in_manche and self.coffre is not None:
            coffre = {"mineure": CODES[self.coffre[0]], "majeure": CODES[self.coffre[1]]}
        return {
            "phase": self.phase,
            "to_act": list(self.to_act()),
            "stacks": self.stacks[:],
            "pot": self.pot,
            "dealer": self.maitre,
            "maitre": self.maitre,
            "deal": self.deal_index,
            "closing": self.closing,
            "hand": [CODES[c] for c in self.hands[own]] if own is not None else [],
            "manche": self.manche,
            "contract": self.contract,
            "mode": self.mode,
            "muet": SUITS[self.muet] if self.muet is not None else None,
            "trick": [{"seat": s, "card": CODES[c], "as": CODES[g]} for s, c, g in self.trick],
            "leader": self.leader if self.phase == PLAYING else None,
            "last_player": self.last if self.trick else None,
            "hand_counts": [len(h) for h in self.hands],
            "discard_counts": [len(d) for d in self.discards],
            "tricks_won": self.tricks_won[:],
            "won_cards": [[CODES[c] for c in w] for w in self.won],
            "coffre": coffre,
            "points": self.points[:],
            "strikes": self.strikes[:],
            "eliminated": self.eliminated[:],
            "last_manche": None if self.last_manche is None else _copy_result(self.last_manche),
            "ranking": self.ranking[:] if self.ranking is not None else None,
        }

    # ------------------------------------------------------------------ legal actions

    def _compute_legal(self) -> list[Action]:
        phase = self.phase
        seat = self.actor
        hand = self.hands[seat]
        if phase == PLAYING:
            trick = self.trick
            out: list[Action] = []
            if not trick:
                for c in hand:
                    out += LEAD[c]
                return out
            top = RANK[trick[-1][2]]
            prev = RANK[trick[-2][2]] if len(trick) > 1 else 0
            s1 = SUIT[trick[0][2]]
            if seat == self.last:
                out.append(TAKE)
                table = T.return_table(self.mode if len(trick) > 1 else None, s1, top, prev)
            elif len(trick) == 1:
                table = SECOND[trick[0][2]]
            else:
                table = T.follow_table(self.mode, s1, top, prev)
            for c in hand:
                out += table[c]
            out += [DISCARD[c] for c in hand]
            return out
        if phase == COFFRE:
            coffre = T.COFFRE
            nums = [c for c in hand if c < 52 and RANK[c] <= 10]
            return [coffre[(a, b)] for a in nums for b in nums if SUIT[a] != SUIT[b]]
        return [T.CONTRACT[v] for v in T.CONTRACTS]

    # ------------------------------------------------------------------ play

    def _play(self, seat: int, card: int, ident: int, mode: str | None, take: bool | None, ev: list) -> None:
        trick = self.trick
        self.hands[seat].remove(card)
        ret = seat == self.last and bool(trick)
        combo = None
        if trick:
            top = RANK[trick[-1][2]]
            prev = RANK[trick[-2][2]] if len(trick) > 1 else 0
            combo = T.combination(RANK[ident], top, prev)
        if mode is not None:
            self.mode = mode
            if mode == "valeur":
                self.muet = SUIT[trick[0][2]]
        trick.append((seat, card, ident))
        self.last = seat
        e: Event = {"type": "play", "seat": seat, "card": CODES[card], "as": CODES[ident]}
        if mode is not None:
            e["mode"] = mode
        if take is not None:
            e["take"] = take
        if combo:
            e["combination"] = combo
        ev.append(e)
        if ret:
            self._end_trick(seat, "combination", ev)
        elif combo and (self.mode != "tete" or take):
            self._end_trick(seat, "combination", ev)
        else:
            self._pass_turn(seat, ev)

    def _discard(self, seat: int, card: int, ev: list) -> None:
        self.hands[seat].remove(card)
        self.discards[seat].append(card)
        ev.append({"type": "discard", "seat": seat})
        if seat == self.last:
            self._end_trick(seat, "discard", ev)
        else:
            self._pass_turn(seat, ev)

    def _pass_turn(self, s: int, ev: list) -> None:
        """Next seat: the first of left(s) … s that is L or holds a card; L empty → auto take."""
        n, hands, last = self.n, self.hands, self.last
        t = s
        for _ in range(n):
            t = (t + 1) % n
            if t == last or hands[t]:
                break
        self.actor = t
        if t == last and not hands[t]:
            ev.append({"type": "take", "seat": t, "auto": True})
            self._end_trick(t, "take", ev)

    def _end_trick(self, w: int, how: str, ev: list) -> None:
        trick = self.trick
        cards = [c for _, c, _ in trick]
        self.won[w] += cards
        self.tricks_won[w] += 1
        ev.append({"type": "trick_won", "seat": w, "how": how, "cards": [CODES[c] for c in cards],
                   "as": [CODES[g] for _, _, g in trick], "mode": self.mode})
        self.trick = []
        self.mode = None
        self.muet = None
        self.last = None
        for h in self.hands:
            if not h:
                self._chute(w, ev)
                return
        self.leader = self.actor = w

    # ------------------------------------------------------------------ end of manche

    def _chute(self, w: int, ev: list) -> None:
        chute: list[int] = []
        for h in self.hands:
            chute += h
            h.clear()
        ev.append({"type": "chute", "seat": w, "cards": [CODES[c] for c in chute]})
        self._score(w, chute, ev)

    def _score(self, w: int, chute: list[int], ev: list) -> None:
        m, n = self.maitre, self.n
        res = score_manche_ids(n, m, self.contract, self.coffre[0], self.coffre[1], self.won, w, chute,
                               self.discards[m])
        self.last_manche = res
        newly = False
        if not res["validated"]:
            self.strikes[m] += 1
            if self.strikes[m] >= 2 and not self.eliminated[m]:
                self.eliminated[m] = newly = True
        for i, p in enumerate(res["manche_points"]):
            self.points[i] += p
        ev.append({"type": "manche_end", "manche": self.manche, **_copy_result(res),
                   "strikes": self.strikes[:], "points": self.points[:], "deltas": [0] * n})
        if newly:
            ev.append({"type": "eliminated", "seat": m, "points": self.points[m]})
        self._next(ev)

    def _next(self, ev: list) -> None:
        self.manche += 1
        if self.manche == self.tours * self.n:
            self._clear_manche()
            self._end_session(ev, closed=False)
        elif self.closing:
            self._clear_manche()
            self._end_session(ev, closed=True)
        else:
            self.maitre = (self.maitre + 1) % self.n
            if self.deal_only:
                self._clear_manche()
                self.phase, self.over, self.actor, self._legal = OVER, True, -1, None
                return
            self._start_manche(ev)

    def _end_session(self, ev: list, closed: bool) -> None:
        n = self.n
        if closed:
            pay, winners, reason = [self.stake] * n, [], "closed"
        else:
            pay, winners = split_pot(self.points, self.eliminated, self.pot, self.stake, self.first)
            reason = "complete" if winners else "all_eliminated"
        for i in range(n):
            self.stacks[i] += pay[i]
        self.pot = 0
        self.ranking = ranking(self.points, self.eliminated, self.first)
        self.phase = OVER
        self.over = True
        self.actor = -1
        self._legal = None
        ev.append({"type": "session_end", "reason": reason, "winners": winners, "payouts": pay,
                   "ranking": self.ranking[:], "points": self.points[:], "eliminated": self.eliminated[:],
                   "results": [s - self.buy_in for s in self.stacks]})

    # ------------------------------------------------------------------ deal

    def _clear_manche(self) -> None:
        n = self.n
        self.hands = [[] for _ in range(n)]
        self.discards = [[] for _ in range(n)]
        self.won = [[] for _ in range(n)]
        self.tricks_won = [0] * n
        self.trick = []
        self.coffre = None
        self.contract = None
        self.mode = None
        self.muet = None
        self.leader = None
        self.last = None

    def _start_manche(self, ev: list) -> None:
        """DEAL (with redeal checks) then phase COFFRE for the Maître."""
        n, m = self.n, self.maitre
        self._clear_manche()
        while True:
            self.deal_index = self.k
            deck = deck_for_deal(DECK_54, self.decks, self.seed, self.k)
            self.k += 1
            hands: list[list[int]] = [[] for _ in range(n)]
            idx = T.INDEX
            for p in range(18):
                hands[(m + 1 + p) % n] += (idx[deck[3 * p]], idx[deck[3 * p + 1]], idx[deck[3 * p + 2]])
            suits = {SUIT[c] for c in hands[m] if c < 52 and RANK[c] <= 10}
            if len(suits) >= 2:
                break
            ev.append({"type": "redeal", "maitre": m, "manche": self.manche, "deal": self.deal_index})
        for h in hands:
            h.sort()
        self.hands = hands
        self.phase = COFFRE
        self.actor = m
        self.acted = False
        self._legal = None
        ev.append({"type": "deal", "manche": self.manche, "deal": self.deal_index, "maitre": m,
                   "hand_counts": [len(h) for h in hands]})


def _copy_result(res: dict) -> dict:
    """A deep copy of a manche result (``score_manche``: flat lists of ints or codes, one dict of
    codes), several times cheaper than a generic recursive copy."""
    out = res.copy()
    for k, v in res.items():
        t = type(v)
        if t is list:
            out[k] = v[:]
        elif t is dict:
            out[k] = v.copy()
    return out


def make_state(seats: int, options: dict[str, Any], seed: int) -> MaitreState:
    """The GAME factory."""
    return MaitreState(seats, options, seed)


__all__ = ["IllegalMove", "MaitreState", "make_state"]


#: Deals tried to meet the Coffre and two-suit rules before the fallback.
REDEAL_TRIES = 50


def _is_number(c: int) -> bool:
    return c < 52 and T.RANK[c] <= 10


def _two_suits(hand: list[int]) -> bool:
    return len({T.SUIT[c] for c in hand if _is_number(c)}) >= 2


def _deal_sizes(pool: list[int], sizes: list[int], rng: random.Random) -> list[list[int]]:
    """Shuffle ``pool`` and cut it into consecutive parts of ``sizes`` (which sum to its length)."""
    rng.shuffle(pool)
    out: list[list[int]] = []
    i = 0
    for k in sizes:
        out.append(pool[i:i + k])
        i += k
    if i != len(pool):
        raise ValueError(f"sizes {sizes} do not cover {len(pool)} hidden cards")
    return out


def _random_coffre(holding: list[int], rng: random.Random) -> tuple[int, int] | None:
    """A uniformly drawn (mineure, majeure) pair of number cards of different suits, or None."""
    if not _two_suits(holding):
        return None
    return _draw_coffre(list(holding), rng)


def _draw_coffre(pool: list[int], rng: random.Random) -> tuple[int, int]:
    """Take a random (mineure, majeure) pair of number cards of different suits out of ``pool``."""
    nums = [i for i, card in enumerate(pool) if _is_number(card)]
    i = rng.choice(nums)
    js = [j for j in nums if T.SUIT[pool[j]] != T.SUIT[pool[i]]]
    j = rng.choice(js)
    pair = (pool[i], pool[j])
    for k in sorted((i, j), reverse=True):
        pool.pop(k)
    return pair
