"""Independent audit of the Marias engine against ``docs/rules/marias.md``.

Two kinds of checks:

* a reference written from the spec alone (the deal of 1.5, the calls of 3.1–3.5 with their legal
  lists, the duties of 2.3, the trick winner of 2.2, points and marriages of 2.4, the settlement
  of section 4, NEXT and the session end of 3.8/5), run in lockstep with the engine over a few
  hundred random stacked deals: every legal list, every view field it models, every deal result
  and payment, and what each seat may see;
* hand-checked stacked deals for each rule, section by section: every expected number is
  computed by hand from the spec in the comments, never read back from the engine.

Stacked decks are written out as (F's first seven, F's blind five, M's ten, d's ten), placed by
``deck_of`` at ``deck[0..6]``, ``deck[17..21]``, ``deck[7..11] + deck[22..26]`` and
``deck[12..16] + deck[27..31]`` (1.5); the seats those roles fall on depend on the ``dealer``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.rules import GAMES, IllegalMove
from tests.rules import harness
from tests.rules.test_marias import deck_of

G = GAMES["marias"]

# =============================================================== reference from the spec

R_SUITS = ("S", "H", "D", "C")
R_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")  # canonical order inside a suit (1.1)
R_CARDS = [r + s for s in R_SUITS for r in R_RANKS]
R_POS = {c: i for i, c in enumerate(R_CARDS)}
R_SUIT_ORDER = ("A", "10", "K", "Q", "J", "9", "8", "7")  # 2.1, suit contracts, high → low
R_NAT_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7")  # 2.1, betl and durch, high → low
R_SUIT_GAMES = ("hra", "sedma", "kilo", "kilo_sedma")


def r_suit(c: str) -> str:
    return c[-1]


def r_rank(c: str) -> str:
    return c[:-1]


def r_canon(cards: list[str]) -> list[str]:
    return sorted(cards, key=R_POS.__getitem__)


def r_height(c: str, suit_game: bool) -> int:
    """Higher is stronger (2.1)."""
    order = R_SUIT_ORDER if suit_game else R_NAT_ORDER
    return 7 - order.index(r_rank(c))


def r_winner(trick: list[tuple[int, str]], trump: str | None) -> int:
    """2.2: the index in ``trick`` of the winning card."""
    suit_game = trump is not None
    trumps = [i for i, (_, c) in enumerate(trick) if r_suit(c) == trump]
    pool = trumps or [i for i, (_, c) in enumerate(trick) if r_suit(c) == r_suit(trick[0][1])]
    return max(pool, key=lambda i: r_height(trick[i][1], suit_game))


def r_allowed(hand: list[str], trick: list[tuple[int, str]], trump: str | None) -> list[str]:
    """2.3, literally: the cards of ``hand`` that may be played to ``trick``."""
    if not trick:
        return r_canon(hand)
    suit_game = trump is not None
    led = r_suit(trick[0][1])
    w = trick[r_winner(trick, trump)][1]
    of_led = [c for c in hand if r_suit(c) == led]
    if of_led:
        if r_suit(w) == led:  # 1a
            above = [c for c in of_led if r_height(c, suit_game) > r_height(w, suit_game)]
            return r_canon(above or of_led)
        return r_canon(of_led)  # 1b: the trick is already trumped
    trumps = [c for c in hand if trump is not None and r_suit(c) == trump]
    if trumps:
        if r_suit(w) == trump:  # 2a
            above = [c for c in trumps if r_height(c, True) > r_height(w, True)]
            return r_canon(above or trumps)
        return r_canon(trumps)  # 2b
    return r_canon(hand)  # 3


def r_discardable(hand: list[str], game: str, trump: str | None, tc: str | None) -> list[str]:
    """3.3: what may go to the talon."""
    if game not in R_SUIT_GAMES:
        return r_canon(hand)
    banned = {c for c in hand if r_rank(c) in ("A", "10")} | {tc}
    if game in ("sedma", "kilo_sedma"):
        banned.add(f"7{trump}")
    if game in ("kilo", "kilo_sedma"):
        banned |= {f"K{trump}", f"Q{trump}"}
    return r_canon([c for c in hand if c not in banned])


def r_declarable(hand: list[str], trump: str | None, tc: str | None, prev: str | None) -> list[str]:
    """3.2: the contracts open to the declarer."""
    if prev is not None:  # a seat that said bad
        return ["durch"] if prev == "betl" else ["betl", "durch"]
    seven = f"7{trump}" in hand
    pair = f"K{trump}" in hand and f"Q{trump}" in hand
    out = [g for g, ok in (("hra", True), ("sedma", seven), ("kilo", pair), ("kilo_sedma", seven and pair))
           if ok and len(r_discardable(hand, g, trump, tc)) >= 2]
    return [*out, "betl", "durch"]


class Ref:
    """One Marias session per the spec, fed the same actions as the engine."""

    def __init__(self, o: dict[str, Any], dealer: int, decks: list[list[str]]):
        self.o = o
        self.stacks = [o["buy_in"]] * 3
        self.dealer = dealer
        self.deals_played = 0
        self.decks = decks
        self.over = False
        self.last: dict[str, Any] | None = None
        self.end: dict[str, Any] | None = None
        self.deal()

    # ------------------------------------------------------------ 1.5
    def deal(self) -> None:
        d = self.dealer
        f, m = (d + 1) % 3, (d + 2) % 3
        deck = self.decks[self.deals_played]
        self.deck = deck
        self.f, self.m = f, m
        self.hands = {f: deck[0:7] + deck[17:22], m: deck[7:12] + deck[22:27], d: deck[12:17] + deck[27:32]}
        self.phase, self.actor = "trump", f
        self.trump: str | None = None
        self.tc: str | None = None
        self.contract: str | None = None
        self.soloist: int | None = None
        self.prev: str | None = None
        self.talon: list[str] = []
        self.talon_seat: int | None = None
        self.talon_trumps: int | None = None
        self.speakers: list[int] = []
        self.flek = 0
        self.conceded = False
        self.trick: list[tuple[int, str]] = []
        self.tricks: list[list[tuple[int, str]]] = []
        self.winners: list[int] = []
        self.cp = [0, 0, 0]
        self.marriages: list[list[Any]] = []
        self.trump_marriage_s = False

    def to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.actor,)

    # ------------------------------------------------------------ legal lists (section 3)
    def legal(self) -> list[dict[str, Any]]:
        p, hand = self.phase, self.hands[self.actor]
        if p == "trump":
            return [*({"type": "trump", "card": c} for c in r_canon(self.deck[0:7])), {"type": "trump_blind"}]
        if p == "declare":
            return [{"type": "declare", "game": g} for g in r_declarable(hand, self.trump, self.tc, self.prev)]
        if p == "discard":
            assert self.contract is not None
            return [{"type": "discard", "card": c}
                    for c in r_discardable(hand, self.contract, self.trump, self.tc)]
        if p == "answer":
            return [{"type": "good"}, {"type": "bad"}]
        if p == "flek":
            raise_ = "re" if self.actor == self.soloist else "flek"
            return [*([{"type": raise_}] if self.flek < self.o["max_flek"] else []), {"type": "pass"}]
        return [{"type": "play", "card": c} for c in r_allowed(hand, self.trick, self.trump)]

    # ------------------------------------------------------------ transitions
    def apply(self, seat: int, a: dict[str, Any]) -> None:
        assert seat == self.actor
        k = a["type"]
        hand = self.hands[seat]
        if k in ("trump", "trump_blind"):  # 3.1
            self.tc = a["card"] if k == "trump" else self.deck[17]
            self.trump = r_suit(self.tc)
            self.phase = "declare"
        elif k == "declare":  # 3.2
            self.contract, self.soloist = a["game"], seat
            if a["game"] not in R_SUIT_GAMES:
                self.trump = self.tc = None
            self.phase = "discard"
        elif k == "discard":  # 3.3
            hand.remove(a["card"])
            self.talon.append(a["card"])
            self.talon_seat = seat
            if len(self.talon) == 2:
                if self.contract in R_SUIT_GAMES:
                    self.talon_trumps = sum(r_suit(c) == self.trump for c in self.talon)
                    self.speakers = [self.m, self.dealer]
                elif self.contract == "betl":
                    self.speakers = [(seat + 1) % 3, (seat + 2) % 3]
                if self.speakers:
                    self.phase, self.actor = "answer", self.speakers[0]
                else:
                    self.open_flek()
        elif k == "good":  # 3.4
            self.speakers.pop(0)
            if self.speakers:
                self.actor = self.speakers[0]
            else:
                self.open_flek()
        elif k == "bad":
            hand += self.talon
            self.talon, self.talon_seat, self.talon_trumps = [], None, None
            self.prev, self.contract, self.soloist = self.contract, None, None
            self.trump = self.tc = None
            self.speakers = []
            self.phase = "declare"
        elif k in ("flek", "re"):  # 3.5
            self.flek += 1
            s = self.soloist
            assert s is not None
            if self.flek >= self.o["max_flek"]:
                self.end_flek()
            else:
                self.actor = s if k == "flek" else (s + 1) % 3
        elif k == "pass":
            s = self.soloist
            assert s is not None
            if seat == (s + 1) % 3:
                self.actor = (s + 2) % 3
            else:
                self.end_flek()
        else:
            self.play(seat, a["card"])

    def open_flek(self) -> None:
        assert self.soloist is not None
        self.phase, self.actor = "flek", (self.soloist + 1) % 3

    def end_flek(self) -> None:
        assert self.soloist is not None
        if self.contract == "hra" and self.flek == 0 and self.o["concede_plain"]:
            self.conceded = True  # 3.6
            self.settle()
        else:
            self.phase, self.actor = "play", self.soloist

    def play(self, seat: int, card: str) -> None:  # 3.7
        hand = self.hands[seat]
        if self.trump is not None and r_rank(card) in ("K", "Q"):  # 2.4 marriage
            other = ("Q" if r_rank(card) == "K" else "K") + r_suit(card)
            if other in hand:
                value = 40 if r_suit(card) == self.trump else 20
                self.marriages.append([seat, r_suit(card), value])
                if value == 40 and seat == self.soloist:
                    self.trump_marriage_s = True
        hand.remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < 3:
            self.actor = (seat + 1) % 3
            return
        w = self.trick[r_winner(self.trick, self.trump)][0]
        self.winners.append(w)
        self.tricks.append(self.trick)
        n = len(self.winners)
        if self.trump is not None:
            self.cp[w] += 10 * sum(r_rank(c) in ("A", "10") for _, c in self.trick) + (10 if n == 10 else 0)
        self.trick = []
        s = self.soloist
        if n == 10 or (self.contract == "betl" and w == s) or (self.contract == "durch" and w != s):
            self.settle()
        else:
            self.actor = w

    def points(self) -> list[int]:
        """[P_S, P_D] (2.4); [0, 0] in betl/durch and before a contract."""
        s = self.soloist
        if s is None or self.contract not in R_SUIT_GAMES:
            return [0, 0]
        mine = self.cp[s] + sum(v for x, _, v in self.marriages if x == s)
        return [mine, sum(self.cp) + sum(v for _, _, v in self.marriages) - mine]

    # ------------------------------------------------------------ section 4
    def components(self) -> list[list[Any]]:
        g, s = self.contract, self.soloist
        if self.conceded:
            return [["hra", True, 1]]
        if g == "betl":
            return [["betl", s not in self.winners, 5]]
        if g == "durch":
            return [["durch", self.winners == [s] * 10, 10]]
        assert s is not None
        ps, pd = self.points()
        h100 = self.cp[s] + (40 if self.trump_marriage_s else 0)
        out: list[list[Any]] = []
        if g in ("hra", "sedma"):
            won = ps > pd
            out.append(["hra", won, 2 + (h100 - 100) // 10 if won and h100 >= 100 else 1])
        else:
            won = h100 >= 100
            out.append(["kilo", won, 4 + 2 * ((h100 - 100) // 10) if won else 4])
        last = self.tricks[-1]
        win_seat, win_card = last[r_winner(last, self.trump)]
        seven_last = win_card == f"7{self.trump}"
        if g in ("sedma", "kilo_sedma"):
            out.append(["sedma", seven_last and win_seat == s, 2])
        elif seven_last:
            out.append(["silent_seven", win_seat == s, 1])
        return out

    def settle(self) -> None:
        s = self.soloist
        assert s is not None
        comps = self.components()
        sigma = sum(b if won else -b for _, won, b in comps)
        h = 2 if self.trump == "H" else 1
        n = sigma * h * 2 ** self.flek
        amount = abs(n) * self.o["stake"]
        before = self.stacks[:]
        payments = []
        for d in ((s + 1) % 3, (s + 2) % 3):
            if n == 0:
                break
            payer, payee = (d, s) if n > 0 else (s, d)
            x = min(amount, self.stacks[payer])
            self.stacks[payer] -= x
            self.stacks[payee] += x
            payments.append([payer, payee, x])
        self.last = {
            "contract": self.contract, "soloist": s, "trump": self.trump, "flek": self.flek,
            "conceded": self.conceded, "components": comps, "units": n,
            "deltas": [a - b for a, b in zip(self.stacks, before, strict=True)], "points": self.points(),
            "card_points": self.cp[:], "marriages": [m[:] for m in self.marriages],
            "trick_winners": self.winners[:], "payments": payments,
        }
        # 3.8 and 5
        self.deals_played += 1
        self.dealer = (self.dealer + 1) % 3
        if self.deals_played == 3 * self.o["rounds"] or min(self.stacks) < self.o["stake"]:
            self.over = True
            results = [x - self.o["buy_in"] for x in self.stacks]
            self.end = {"results": results, "ranks": [1 + sum(y > x for y in results) for x in results]}
        else:
            self.deal()

    # ------------------------------------------------------------ section 7
    def hand_view(self, seat: int) -> list[str]:
        if self.over:
            return []
        if self.phase == "trump" and seat == self.f:
            return r_canon(self.deck[0:7])
        return r_canon(self.hands[seat])

    def may_see(self, seat: int | None) -> set[str]:
        """Every card ``seat`` may find in its view: its own hand (as shown), the talon it laid,
        the cards played this deal and the trump card."""
        out = {c for t in self.tricks for _, c in t} | {c for _, c in self.trick}
        if self.tc is not None:
            out.add(self.tc)
        if seat is not None:
            out |= set(self.hand_view(seat))
            if seat == self.talon_seat:
                out |= set(self.talon)
        return out


def r_timeout(phase: str, legal: list[dict[str, Any]], trump: str | None) -> dict[str, Any]:
    """Section 7's timeout policy."""
    if phase == "discard":
        return legal[-1]
    if phase == "answer":
        return {"type": "good"}
    if phase == "flek":
        return {"type": "pass"}
    if phase == "play":  # lowest rank (2.1), ties by canonical suit order
        return min(legal, key=lambda a: (r_height(a["card"], trump is not None),
                                         R_SUITS.index(r_suit(a["card"]))))
    return legal[0]


def _choose(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    kinds = [a["type"] for a in legal]
    if "good" in kinds:
        return legal[1] if rng.random() < 0.2 else legal[0]
    if "pass" in kinds and len(legal) == 2:
        return legal[0] if rng.random() < 0.3 else legal[1]
    if "trump_blind" in kinds and rng.random() < 0.25:
        return legal[-1]
    if "declare" in kinds:  # favour the suit contracts: their settlement has the most parts
        suit = [a for a in legal if a["game"] in R_SUIT_GAMES]
        if suit and rng.random() < 0.7:
            return rng.choice(suit)
    return rng.choice(legal)


VIEW_KEYS = ("phase", "to_act", "stacks", "pot", "dealer", "deals_played", "soloist", "contract",
             "trump", "trump_card", "flek", "talon_trumps", "hand_sizes", "trick", "trick_winners",
             "played_tricks", "card_points", "marriages", "points", "last_result")


def _ref_view(ref: Ref) -> dict[str, Any]:
    last = None
    if ref.last is not None:
        last = {k: v for k, v in ref.last.items() if k != "payments"}
    return {
        "phase": "session_end" if ref.over else ref.phase, "to_act": list(ref.to_act()),
        "stacks": ref.stacks, "pot": 0, "dealer": ref.dealer, "deals_played": ref.deals_played,
        "soloist": ref.soloist, "contract": ref.contract, "trump": ref.trump, "trump_card": ref.tc,
        "flek": ref.flek, "talon_trumps": ref.talon_trumps,
        "hand_sizes": [0, 0, 0] if ref.over else [len(ref.hands[s]) for s in range(3)],
        "trick": [[s, c] for s, c in ref.trick], "trick_winners": ref.winners,
        "played_tricks": [[[s, c] for s, c in t] for t in ref.tricks], "card_points": ref.cp,
        "marriages": ref.marriages, "points": ref.points(), "last_result": last,
    }


def _lockstep(seed: int, opts: dict[str, Any], stats: dict[str, int]) -> None:
    """A whole session: engine and reference must agree at every step."""
    rng = random.Random(seed)
    o = G.validate_options({**opts, "dealer": rng.randrange(3)})
    n_deals = 3 * o["rounds"]
    decks = [rng.sample(R_CARDS, 32) for _ in range(n_deals)]
    o = {**o, "decks": decks}
    st = G.new_table(seats=3, options=o, seed=seed)
    ref = Ref(o, o["dealer"], [d[:] for d in decks])
    total = 3 * o["buy_in"]
    step = 0
    while True:
        step += 1
        assert st.to_act() == ref.to_act()
        spec = st.view(None)
        want = _ref_view(ref)
        got = {k: spec[k] for k in VIEW_KEYS}
        assert got == want, {k: (got[k], want[k]) for k in VIEW_KEYS if got[k] != want[k]}
        assert sum(st.stacks) + st.pot == total and st.pot == 0  # 1.3
        for x in (0, 1, 2, None):
            v = st.view(x)
            if x is not None:
                assert v["hand"] == ref.hand_view(x)
                assert v["talon"] == (ref.talon if x == ref.talon_seat else [])
            else:
                assert v["hand"] == [] and v["talon"] == []
            seen = harness.cards_in(v)
            assert seen <= ref.may_see(x), (x, sorted(seen - ref.may_see(x)))
        if ref.over:
            assert st.is_over() and spec["to_act"] == []
            break
        seat = ref.actor
        legal = ref.legal()
        assert st.legal_actions(seat) == legal
        for other in (0, 1, 2):
            if other != seat:
                assert st.legal_actions(other) == []
        if step % 17 == 0:  # an illegal card or call is refused with the state untouched
            wrong = [c for c in R_CARDS if {"type": "play", "card": c} not in legal]
            harness.assert_refused(st, 3, seat, {"type": "play", "card": rng.choice(wrong)})
            harness.assert_refused(st, 3, (seat + 1) % 3, legal[0])
        assert st.timeout_action(seat) == r_timeout(ref.phase, legal, ref.trump)
        a = _choose(rng, legal)
        stats[a["type"] + ("_" + a["game"] if a["type"] == "declare" else "")] += 1
        public = ref.may_see(None) | ({ref.deck[17]} if a["type"] == "trump_blind" else set())
        if a["type"] in ("trump", "play"):
            public.add(a["card"])
        ev = st.apply(seat, a)
        ref.apply(seat, a)
        # events are public (section 7): no card in them that everyone may not see
        assert harness.cards_in(ev) <= public, sorted(harness.cards_in(ev) - public)
        ends = [e for e in ev if e["type"] == "deal_end"]
        if ends:
            (e,) = ends
            assert ref.last is not None
            for key, val in ref.last.items():
                assert e[key] == val, (key, e[key], val)
            stats["deals"] += 1
            stats["capped"] += any(p[2] < abs(ref.last["units"]) * o["stake"] for p in ref.last["payments"])
            for name, won, _ in ref.last["components"]:
                stats[f"{name}_{'won' if won else 'lost'}"] += 1
        else:
            assert ref.last is None or st.view(None)["last_result"] is not None
        if ref.over:
            (se,) = [e for e in ev if e["type"] == "session_end"]
            assert ref.end is not None
            assert se["results"] == ref.end["results"] and se["ranks"] == ref.end["ranks"]
            stats["broke"] += se["reason"] == "broke"


LOCKSTEP_OPTS = [
    {"rounds": 10, "concede_plain": False},
    {"rounds": 10},
    {"rounds": 10, "max_flek": 4, "concede_plain": False, "stake": 3, "buy_in": 60},
    {"rounds": 10, "max_flek": 1, "stake": 2, "buy_in": 40},
    {"rounds": 10, "max_flek": 2, "concede_plain": False},
]


class _Counter(dict):  # type: ignore[type-arg]
    def __missing__(self, key: str) -> int:
        return 0


@pytest.mark.parametrize("seed", range(4))
def test_lockstep_with_the_reference(seed: int) -> None:
    stats = _Counter()
    _lockstep(seed, LOCKSTEP_OPTS[seed % len(LOCKSTEP_OPTS)], stats)
    assert stats["deals"] > 0


def test_lockstep_covers_every_outcome() -> None:
    """Some 300 random deals, and every kind of call and settlement among them."""
    stats = _Counter()
    for seed in range(100, 120):
        _lockstep(seed, LOCKSTEP_OPTS[seed % len(LOCKSTEP_OPTS)], stats)
    assert stats["deals"] >= 300
    for key in ("hra_won", "hra_lost", "kilo_won", "kilo_lost", "sedma_won", "sedma_lost",
                "silent_seven_won", "silent_seven_lost", "betl_won", "betl_lost", "durch_lost", "bad",
                "flek", "re", "trump_blind", "capped", "broke", "declare_kilo_sedma"):
        assert stats[key] > 0, key
