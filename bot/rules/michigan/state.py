"""The Michigan state machine (spec ``docs/rules/michigan.md``; readings in the package docstring)."""

from __future__ import annotations

import random
from typing import Any

from bot.rules import cards
from bot.rules.base import Action, BaseState, Event, View, match_action, not_your_turn
from bot.rules.michigan.tables import (
    CODES,
    DEAD,
    DEALER_CHOICE,
    OVER,
    PHASE_NAMES,
    PLAY,
    PLAYED,
    POOL_OF,
    SPARE_AUCTION,
    SUIT_OF,
    SUITS,
    _Config,
    _deck_ints,
    _layout,
)


class MichiganState(BaseState):
    """One Michigan session at a table (DESIGN.md section 2 surface; ``actor`` -1 once over)."""

    __slots__ = (
        "cfg", "stacks", "pot", "contrib", "dealer", "deals_played", "deal_no", "hands_started",
        "owner", "sizes", "suitcnt", "played", "hits", "phase", "lead_right", "blocked", "lifted",
        "auction_pos", "high_bid", "high_seat", "closing", "acted", "snapshot",
        "last_result", "start_events",
    )
    _CLONE = {
        "shared": (  # cfg is per table; hits' entries, snapshot and last_result are never mutated
            "cfg", "dealer", "deals_played", "deal_no", "hands_started", "phase", "lead_right", "blocked",
            "lifted", "actor", "auction_pos", "high_bid", "high_seat", "closing", "acted", "snapshot",
            "last_result", "_legal", "start_events",
        ),
        "lists": ("stacks", "pot", "contrib", "owner", "sizes", "suitcnt", "played", "hits"),
    }

    def __init__(self, seats: int, options: dict[str, Any], seed: int):
        cfg = self.cfg = _Config(seats, options, seed)
        n = seats
        self.stacks = [cfg.buy_in] * n
        self.pot = [0, 0, 0, 0]
        self.contrib = [0] * (4 * n)  # contrib[pool * n + seat]
        self.dealer = cards.first_dealer(options["dealer"], n, seed)
        self.deals_played = 0
        self.deal_no = 0
        self.hands_started = 0
        self.owner = [DEAD] * 52
        self.sizes = [0] * n
        self.suitcnt = [0] * (4 * n)  # suitcnt[seat * 4 + suit]
        self.played: list[tuple[int, int]] = []
        self.hits: list[list[Any]] = []
        self.phase = PLAY
        self.lead_right = 0
        self.blocked = -1
        self.lifted = False
        self.actor = -1
        self.auction_pos = 0
        self.high_bid = 0
        self.high_seat = -1
        self.closing = False
        self.acted = False
        self.snapshot: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())
        self.last_result: dict[str, Any] | None = None
        self._legal: list[Action] | None = None
        self.start_events: list[Event] = []
        self._start_hand(self.start_events)

    # ------------------------------------------------------------------ contract surface

    def is_over(self) -> bool:
        return self.phase == OVER

    def _match(self, action: Any) -> Action:
        """A lead is matched on its suit alone (the common case, without ``match_action``)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if self.phase == PLAY and type(action) is dict and len(action) == 2 and action.get("type") == "lead":
            suit = action.get("suit")
            if type(suit) is str:
                for cand in legal:
                    if cand["suit"] == suit:
                        return cand
        return match_action(action, legal)

    def _apply(self, seat: int, act: Action) -> list[Event]:
        events: list[Event] = []
        self.acted = True
        if self.phase == PLAY:
            self._lead(seat, _SUIT_INDEX[act["suit"]], events)
            return events
        kind = act["type"]
        if kind == "swap_spare":
            events.append({"type": "swap_spare", "seat": seat})
            self._swap_with_dead(seat)
            self._begin_play(events)
        elif kind == "keep":
            events.append({"type": "keep", "seat": seat})
            self.phase = SPARE_AUCTION
            self.auction_pos = 0
            self.actor = (self.dealer + 1) % self.cfg.n
        else:  # bid / pass
            if kind == "bid":
                self.high_bid = act["amount"]
                self.high_seat = seat
                events.append({"type": "bid", "seat": seat, "amount": act["amount"]})
            else:
                events.append({"type": "pass", "seat": seat})
            self._next_bidder(events)
        return events

    def timeout_action(self, seat: int) -> Action:
        """Spec section 7: lowest-ranked lead (ties S H D C); ``keep``; ``pass``."""
        legal = self.legal_actions(seat)
        if not legal:
            raise not_your_turn(seat, self.to_act())
        if self.phase == DEALER_CHOICE:
            return {"type": "keep"}
        if self.phase == SPARE_AUCTION:
            return {"type": "pass"}
        owner = self.owner
        best = min(legal, key=lambda a: _lowest(owner, seat, SUITS.index(a["suit"])))
        return dict(best)

    def request_close(self, now: bool = False) -> list[Event]:
        """Host close: void the hand now (``now`` or nobody acted yet), else end after it."""
        if self.phase == OVER:
            return []
        self._legal = None
        self.closing = True
        if now or not self.acted:
            events: list[Event] = []
            self._void_hand(events)
            self._end_session("closed", events)
            return events
        return [{"type": "close_requested", "deal": self.deal_no}]

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (``None``: a spectator). Spec section 7."""
        n = self.cfg.n
        own = seat if type(seat) is int and 0 <= seat < n else None
        owner = self.owner
        played: list[list[str]] = [[] for _ in range(n)]
        for p, x in self.played:
            played[p].append(CODES[x])
        lr = self.last_result
        return {
            "phase": PHASE_NAMES[self.phase],
            "to_act": list(self.to_act()),
            "stacks": self.stacks[:],
            "pot": self.pot[:],
            "dealer": self.dealer,
            "deal": self.deal_no,
            "closing": self.closing,
            "deals_played": self.deals_played,
            "hand": [] if own is None else [CODES[i] for i in range(52) if owner[i] == own],
            "hand_sizes": self.sizes[:],
            "played": played,
            "lead_right": self.lead_right,
            "blocked": SUITS[self.blocked] if self.blocked >= 0 else None,
            "bid": [self.high_seat, self.high_bid] if self.high_seat >= 0 else None,
            "last_result": None if lr is None else _copy_result(lr),
        }

    # ------------------------------------------------------------------ helpers for tests/UI

    def dead_hand(self) -> list[str]:
        """The dead hand in canonical order (private: for tests and the end-of-hand reveal)."""
        return [CODES[i] for i in range(52) if self.owner[i] == DEAD]

    def contributions(self) -> list[list[int]]:
        """``contrib[pool][seat]`` for the four pools (A♥ K♣ Q♦ J♠)."""
        n = self.cfg.n
        return [self.contrib[p * n:(p + 1) * n] for p in range(4)]

    # ------------------------------------------------------------------ legal actions

    def _compute_legal(self) -> list[Action]:
        if self.phase == PLAY:
            base = self.actor * 4
            cnt = self.suitcnt
            skip = -1 if self.lifted else self.blocked
            return [{"type": "lead", "suit": SUITS[s]} for s in range(4) if cnt[base + s] and s != skip]
        if self.phase == DEALER_CHOICE:
            return [{"type": "swap_spare"}, {"type": "keep"}]
        if self.phase == SPARE_AUCTION:
            stack = self.stacks[self.actor]
            out: list[Action] = [{"type": "bid", "amount": x} for x in range(self.high_bid + 1, stack + 1)]
            out.append({"type": "pass"})
            return out
        return []

    # ------------------------------------------------------------------ the hand

    def _start_hand(self, events: list[Event]) -> None:
        """Ante check (2.1), antes, deal (2.2); then the first decision of the hand."""
        cfg = self.cfg
        n, u, d = cfg.n, cfg.u, self.dealer
        stacks = self.stacks
        short = [s for s in range(n) if stacks[s] < (8 * u if s == d else 4 * u)]
        if short:
            events.append({"type": "cannot_ante", "seats": short, "dealer": d})
            self._end_session("broke", events)
            return
        self.snapshot = (tuple(stacks), tuple(self.pot), tuple(self.contrib))
        per_pool = [u] * n
        per_pool[d] = 2 * u
        antes = [4 * a for a in per_pool]
        for s in range(n):
            stacks[s] -= antes[s]
        pot, contrib = self.pot, self.contrib
        ante_total = (n + 1) * u
        for p in range(4):
            pot[p] += ante_total
            base = p * n
            contrib[base:base + n] = [c + a for c, a in zip(contrib[base:base + n], per_pool, strict=True)]
        k = self.deal_no = self.hands_started
        self.hands_started += 1
        events.append({"type": "ante", "deal": k, "dealer": d, "antes": antes, "pot": pot[:]})
        deck = _deck_ints(cfg.decks, cfg.seed, k)
        seat_at, seat_at4, sizes = _layout(n, d)
        owner = self.owner = [0] * 52
        cnt = [0] * (4 * n + 4)  # the last four slots count the dead hand's suits
        i = 0
        for x in deck:
            owner[x] = seat_at[i]
            cnt[seat_at4[i] + SUIT_OF[x]] += 1
            i += 1
        del cnt[4 * n:]
        self.suitcnt = cnt
        self.sizes = sizes = list(sizes)
        self.played = []
        self.hits = []
        self.lead_right = (d + 1) % n
        self.blocked = -1
        self.lifted = False
        self.acted = False
        self.high_bid = 0
        self.high_seat = -1
        self.auction_pos = 0
        self._legal = None
        events.append({"type": "deal", "deal": k, "dealer": d, "hand_sizes": sizes[:]})
        if cfg.variant:
            self.phase = DEALER_CHOICE
            self.actor = d
        else:
            self._begin_play(events)

    def _begin_play(self, events: list[Event]) -> None:
        self.phase = PLAY
        self._find_leader(events)

    def _find_leader(self, events: list[Event]) -> None:
        """Spec 2.4 A: the first seat from ``lead_right`` holding a card outside ``blocked``."""
        lr, b = self.lead_right, self.blocked
        self.lifted = False
        if b < 0:
            self.actor = lr
            return
        n, sizes, cnt = self.cfg.n, self.sizes, self.suitcnt
        for i in range(n):
            s = (lr + i) % n
            if sizes[s] > cnt[s * 4 + b]:
                self.actor = s
                if i:
                    events.append({"type": "lead_passes", "from": lr, "to": s, "blocked": SUITS[b]})
                return
        self.actor = lr
        self.lifted = True
        events.append({"type": "block_lifted", "seat": lr, "suit": SUITS[b]})

    def _lead(self, seat: int, suit: int, events: list[Event]) -> None:
        """Play the lowest card of ``suit`` from ``seat`` and every forced continuation."""
        owner, sizes, cnt = self.owner, self.sizes, self.suitcnt
        x = owner.index(seat, suit * 13, suit * 13 + 13)
        p = seat
        events.append({"type": "lead", "seat": p, "suit": SUITS[suit], "card": CODES[x]})
        played = self.played
        while True:
            owner[x] = PLAYED
            sizes[p] -= 1
            cnt[p * 4 + suit] -= 1
            played.append((p, x))
            if POOL_OF[x] >= 0:
                self._boodle_hit(p, x, events)
            if not sizes[p]:
                events.append({"type": "out", "seat": p, "card": CODES[x]})
                self._settle(p, events)
                return
            if x % 13 == 12:
                break
            h = owner[x + 1]
            if h < 0:
                break
            p = h
            x += 1
            events.append({"type": "play", "seat": p, "card": CODES[x]})
        events.append({"type": "stop", "seat": p, "card": CODES[x]})
        self.lead_right = p
        self.blocked = suit
        self._find_leader(events)

    def _boodle_hit(self, p: int, x: int, events: list[Event]) -> None:
        """Spec 2.4 step 1: the whole pool of ``x`` goes to ``p``; its ledger is cleared."""
        i = POOL_OF[x]
        n = self.cfg.n
        amount = self.pot[i]
        self.stacks[p] += amount
        self.pot[i] = 0
        self.contrib[i * n:(i + 1) * n] = [0] * n
        self.hits.append([CODES[x], p, amount])
        events.append({"type": "boodle", "seat": p, "card": CODES[x], "amount": amount})

    def _settle(self, w: int, events: list[Event]) -> None:
        """Spec 2.5: payments capped by stacks, last_result, rotation, end rules."""
        cfg = self.cfg
        n, c = cfg.n, cfg.c
        stacks, sizes = self.stacks, self.sizes
        cards_left = sizes[:]
        payments = [0] * n
        for s in range(n):
            if s != w:
                paid = min(c * sizes[s], stacks[s])
                stacks[s] -= paid
                payments[s] = -paid
                payments[w] += paid
        stacks[w] += payments[w]
        dead = self.dead_hand() if cfg.reveal else None
        self.last_result = {
            "winner": w,
            "cards_left": cards_left,
            "payments": payments,
            "boodle_hits": [h[:] for h in self.hits],
            "dead_hand": dead,
        }
        before_stacks, before_pot, _ = self.snapshot
        events.append({
            "type": "hand_end",
            "deal": self.deal_no,
            **_copy_result(self.last_result),
            "deltas": [stacks[s] - before_stacks[s] for s in range(n)],
            "pot": self.pot[:],
            "pot_change": sum(self.pot) - sum(before_pot),
        })
        self.deals_played += 1
        self.dealer = (self.dealer + 1) % n
        if cfg.hand_only:  # an AI search's copy: no next hand (pools back to their contributors,
            self._end_session("hand_only", events)  # so each seat's stack + ledger is unchanged)
            return
        if self.closing:
            self._end_session("closed", events)
        elif cfg.rotations and self.deals_played >= cfg.rotations * n:
            self._end_session("rotations", events)
        else:
            self._start_hand(events)

    # ------------------------------------------------------------------ variant (2.6)

    def _swap_with_dead(self, seat: int) -> None:
        owner = self.owner
        cnt = self.suitcnt
        size = 0
        for i in range(52):
            o = owner[i]
            if o == seat:
                owner[i] = DEAD
                cnt[seat * 4 + i // 13] -= 1
            elif o == DEAD:
                owner[i] = seat
                cnt[seat * 4 + i // 13] += 1
                size += 1
        self.sizes[seat] = size

    def _next_bidder(self, events: list[Event]) -> None:
        n, d = self.cfg.n, self.dealer
        self.auction_pos += 1
        if self.auction_pos < n - 1:
            self.actor = (d + 1 + self.auction_pos) % n
            return
        hs = self.high_seat
        if hs >= 0:
            x = self.high_bid
            self.stacks[hs] -= x
            self.stacks[d] += x
            self._swap_with_dead(hs)
            events.append({"type": "spare_taken", "seat": hs, "amount": x, "dealer": d})
        else:
            events.append({"type": "spare_dead"})
        self._begin_play(events)

    # ------------------------------------------------------------------ session end

    def _void_hand(self, events: list[Event]) -> None:
        """Reverse every jeton movement of the current hand (request_close)."""
        before_stacks, before_pot, before_contrib = self.snapshot
        deltas = [before_stacks[s] - self.stacks[s] for s in range(self.cfg.n)]
        self.stacks = list(before_stacks)
        self.pot = list(before_pot)
        self.contrib = list(before_contrib)
        events.append({"type": "void", "deal": self.deal_no, "deltas": deltas})

    def _end_session(self, reason: str, events: list[Event]) -> None:
        """Spec 5.3: pools back to their contributors, results against the buy-in."""
        cfg = self.cfg
        n = cfg.n
        returned = [[self.contrib[p * n + s] for s in range(n)] for p in range(4)]
        for p in range(4):
            for s in range(n):
                self.stacks[s] += returned[p][s]
            self.pot[p] = 0
        self.contrib = [0] * (4 * n)
        results = [st - cfg.buy_in for st in self.stacks]
        best = max(self.stacks)
        self.phase = OVER
        self.actor = -1
        self._legal = None
        self.owner = [PLAYED] * 52
        self.sizes = [0] * n
        self.suitcnt = [0] * (4 * n)
        self.played = []
        self.hits = []
        self.blocked = -1
        self.lifted = False
        self.high_seat = -1
        self.high_bid = 0
        events.append({
            "type": "session_end",
            "reason": reason,
            "returned": returned,
            "stacks": self.stacks[:],
            "results": results,
            "winners": [s for s in range(n) if self.stacks[s] == best],
        })


    # ------------------------------------------------------------------ redeal (AI search)

    def redeal(self, seat: int, rng: random.Random) -> MichiganState:
        """A copy where every card hidden from ``seat`` is dealt again (OpenSpiel's
        ``ResampleFromInfostate``): the other hands and the dead hand, same sizes, from the
        cards ``seat`` has not seen (sorted, then shuffled by ``rng``: the result depends only on
        ``seat``'s view and ``rng``). Public facts kept: a card ``x + 1`` whose predecessor was
        played and that never came stays in the dead hand (``known_dead``); the seat that bought
        the spare hand keeps knowing the dead hand; seats the lead passed over hold only the
        blocked suit and the leader holds another (so the redealt state plays on legally). The
        seed and stacked decks are replaced, so not even the future hands leak. ``self`` is
        left untouched.
        """
        c = self.clone()
        cfg = object.__new__(_Config)
        for name in _Config.__slots__:
            setattr(cfg, name, getattr(self.cfg, name))
        cfg.seed = rng.getrandbits(48)
        cfg.decks = None
        c.cfg = cfg
        c._legal = None
        if self.phase == OVER:
            return c
        owner = self.owner
        dead_known = seat == self.high_seat and self.phase == PLAY
        pinned = {x for x in range(52) if owner[x] == DEAD} if dead_known else known_dead(owner)
        slots: list[int] = []  # the owner of each free hidden place
        pool: list[int] = []
        for x in range(52):
            o = owner[x]
            if o == PLAYED or o == seat or x in pinned:
                continue
            slots.append(o)
            pool.append(x)
        slots.sort()  # canonical: the result depends on no hidden placement
        rng.shuffle(pool)
        new_owner = owner[:]
        for o, x in zip(slots, pool, strict=True):
            new_owner[x] = o
        passed, leader = self._lead_facts(seat)
        if not _keeps_lead_facts(new_owner, passed, leader, self.blocked):
            _deal_lead_facts(new_owner, slots, pool, passed, leader, self.blocked, rng)
        c.owner = new_owner
        n = self.cfg.n
        cnt = [0] * (4 * n)
        for x in range(52):
            o = new_owner[x]
            if o >= 0:
                cnt[o * 4 + x // 13] += 1
        c.suitcnt = cnt
        return c

    def _lead_facts(self, seat: int) -> tuple[list[int], int]:
        """(other seats the lead passed over: only blocked-suit cards, the leader that must hold
        another suit or -1), as the public ``lead_passes``/``block_lifted`` events showed them."""
        b = self.blocked
        if self.phase != PLAY or b < 0:
            return [], -1
        n, lr = self.cfg.n, self.lead_right
        if self.lifted:
            return [s for s in range(n) if s != seat], -1
        passed = []
        s = lr
        while s != self.actor:
            if s != seat:
                passed.append(s)
            s = (s + 1) % n
        return passed, (self.actor if self.actor != seat else -1)


_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


def _lowest(owner: list[int], seat: int, suit: int) -> tuple[int, int]:
    """(rank of ``seat``'s lowest card of ``suit``, suit): the timeout's sort key."""
    return owner.index(seat, suit * 13, suit * 13 + 13) % 13, suit


def _copy_result(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "winner": r["winner"],
        "cards_left": r["cards_left"][:],
        "payments": r["payments"][:],
        "boodle_hits": [h[:] for h in r["boodle_hits"]],
        "dead_hand": None if r["dead_hand"] is None else r["dead_hand"][:],
    }


def known_dead(owner: list[int]) -> set[int]:
    """Unplayed cards whose predecessor was played (a run stopped before them): dead-hand cards."""
    out = set()
    for x in range(52):
        if owner[x] == PLAYED and x % 13 != 12 and owner[x + 1] != PLAYED:
            out.add(x + 1)
    return out


def _keeps_lead_facts(owner: list[int], passed: list[int], leader: int, b: int) -> bool:
    """True when every passed seat holds only suit ``b`` and the leader some other suit."""
    if not passed and leader < 0:
        return True
    lo, hi = 13 * b, 13 * b + 13
    leader_ok = leader < 0
    for x in range(52):
        o = owner[x]
        if o < 0:
            continue
        if lo <= x < hi:
            continue
        if o in passed:
            return False
        if o == leader:
            leader_ok = True
    return leader_ok


def _deal_lead_facts(
    owner: list[int], slots: list[int], pool: list[int], passed: list[int], leader: int, b: int,
    rng: random.Random,
) -> None:
    """Place ``pool`` on ``slots`` again (in ``owner``) so the lead facts hold: the passed seats
    take blocked-suit cards first, the rest is shuffled over the other places; a leader left
    without another suit swaps one card with an unconstrained place."""
    blocked = [x for x in pool if x // 13 == b]
    other = [x for x in pool if x // 13 != b]
    fixed: list[tuple[int, int]] = []
    free_slots: list[int] = []
    for o in slots:
        if o in passed:
            fixed.append((o, blocked.pop()))
        else:
            free_slots.append(o)
    rest = blocked + other
    rng.shuffle(rest)
    placed = fixed + list(zip(free_slots, rest, strict=True))
    if leader >= 0 and not any(o == leader and x // 13 != b for o, x in placed):
        i = next(i for i, (o, x) in enumerate(placed) if o == leader)
        j = next(j for j, (o, x) in enumerate(placed) if o not in passed and o != leader and x // 13 != b)
        (oi, xi), (oj, xj) = placed[i], placed[j]
        placed[i], placed[j] = (oi, xj), (oj, xi)
    for o, x in placed:
        owner[x] = o
