"""Independent audit of the Marias engine against ``docs/rules/marias.md``.

Two kinds of checks:

* a reference written from the spec alone (the deal of 1.5, the calls of 3.1–3.5 with their legal
  lists, the duties of 2.3, the trick winner of 2.2, points and marriages of 2.4, the settlement
  of section 4, NEXT and the session end of 3.8/5), run in lockstep with the engine over a few
  hundred random stacked deals: every legal list, every view field it models, every deal result
  and payment, the timeouts of section 7, what each seat may see and what the events show,
  the host's close of section 5, and that what the plays showed (``shown.py``) fits the hands;
* hand-checked stacked deals for each rule, section by section: every expected number is
  computed by hand from the spec in the comments, never read back from the engine.

Stacked decks are written out as (F's first seven, F's blind five, M's ten, d's ten), placed by
``deck_of`` at ``deck[0..6]``, ``deck[17..21]``, ``deck[7..11] + deck[22..26]`` and
``deck[12..16] + deck[27..31]`` (1.5); the seats those roles fall on depend on the ``dealer``.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from bot.rules import GAMES
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
        self.closing = False
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
        self.acted = False
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
            games = r_declarable(hand, self.trump, self.tc, self.prev)
            return [{"type": "declare", "game": g} for g in games]
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
        self.acted = True
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
        if self.closing or self.deals_played == 3 * self.o["rounds"] or min(self.stacks) < self.o["stake"]:
            self.finish()
        else:
            self.deal()

    def finish(self) -> None:
        """Section 5's end: results stack − buy_in, equal results share a rank."""
        self.over = True
        results = [x - self.o["buy_in"] for x in self.stacks]
        self.end = {"results": results, "ranks": [1 + sum(y > x for y in results) for x in results]}

    def close(self, now: bool) -> None:
        """The host's close (5): at the end of this deal; at once (no jeton moved: settlement
        happens only at a deal's end) with ``now`` or before anyone acted in the deal."""
        if self.over:
            return
        self.closing = True
        if now or not self.acted:
            self.finish()

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


_CARD_JSON = re.compile(r'"((?:10|[AKQJ987])[SHDC])"')


def cards_seen(obj: Any) -> set[str]:
    """Every card code in a JSON-able object (``harness.cards_in``, faster: the lockstep's hot path)."""
    return set(_CARD_JSON.findall(json.dumps(obj)))


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


def _lockstep(seed: int, opts: dict[str, Any], stats: dict[str, int],
              close_at: tuple[int, bool] | None = None) -> None:
    """A whole session: engine and reference must agree at every step (``close_at``: the host
    closes the table before that step, at once or not; step 0: right after the first deal)."""
    rng = random.Random(seed)
    o = G.validate_options({**opts, "dealer": rng.randrange(3)})
    n_deals = 3 * o["rounds"]
    decks = [rng.sample(R_CARDS, 32) for _ in range(n_deals)]
    o = {**o, "decks": decks}
    st: Any = G.new_table(seats=3, options=o, seed=seed)
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
            seen = cards_seen(v)
            assert seen <= ref.may_see(x), (x, sorted(seen - ref.may_see(x)))
        if ref.over:
            assert st.is_over() and spec["to_act"] == []
            break
        if ref.phase == "play":  # what the plays showed (shown.py) never contradicts a real hand
            for x, tops in st.shown_ceilings().items():
                for c in ref.hands[x]:
                    assert r_height(c, ref.trump is not None) <= tops.get(r_suit(c), 7), (x, c, tops)
        assert spec["closing"] == ref.closing
        if close_at is not None and (step == close_at[0] or (close_at[0] == 0 and ref.deals_played == 1)):
            before = st.stacks[:]
            ev = st.request_close(now=close_at[1])
            ref.close(close_at[1])
            assert st.stacks == before  # closing never moves a jeton by itself
            if ref.over:
                (se,) = [e for e in ev if e["type"] == "session_end"]
                assert ref.end is not None and se["reason"] == "closed"
                assert se["results"] == ref.end["results"] and se["ranks"] == ref.end["ranks"]
                stats["closed_now"] += 1
            else:
                assert [e["type"] for e in ev] == ["closing"]
                stats["closed_later"] += 1
            close_at = None
            continue
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
        assert cards_seen(ev) <= public, sorted(cards_seen(ev) - public)
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
            assert se["reason"] != "closed" or ref.closing


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


def test_lockstep_host_close() -> None:
    """Section 5: a host close ends the session after the current deal, or at once (with ``now``,
    or when nobody has acted in the deal yet) with no jeton moved by the abandoned deal."""
    stats = _Counter()
    for seed in range(200, 212):
        rng = random.Random(seed)
        _lockstep(seed, {"rounds": 2, "concede_plain": seed % 2 == 0},
                  stats, (rng.randrange(1, 120), seed % 3 == 0))
    assert stats["closed_now"] > 0 and stats["closed_later"] > 0
    # right after a deal's settlement nobody has acted in the new deal: the close is at once
    stats = _Counter()
    _lockstep(7, {"rounds": 2}, stats, (0, False))
    assert stats["closed_now"] == 1 and stats["deals"] == 1


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


# =============================================================== hand-checked deals

#: Every deal below but the first is dealt with ``dealer=2`` unless said otherwise: forehand
#: F = seat 0, middlehand M = seat 1, dealer d = seat 2 (1.5); in a suit contract S = F = 0,
#: D1 = 1, D2 = 2 (0).


def table(deal: tuple[str, str, str, str], **opts: Any) -> Any:
    return G.new_table(seats=3, options=G.validate_options({"dealer": 2, "decks": [deck_of(*deal)], **opts}),
                       seed=5)


def act(st: Any, seat: int, kind: str, **kw: Any) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = st.apply(seat, {"type": kind, **kw})
    return events


def cards(text: str) -> list[str]:
    return text.split()


def legal_cards(st: Any) -> list[str]:
    (seat,) = st.to_act()
    return [a.get("card") or a.get("game") or a["type"] for a in st.legal_actions(seat)]


def play(st: Any, tricks: list[str]) -> list[dict[str, Any]]:
    """Each trick's cards in play order, by whoever is to act."""
    ev: list[dict[str, Any]] = []
    for trick in tricks:
        for c in trick.split():
            ev += act(st, st.to_act()[0], "play", card=c)
    return ev


def bid(st: Any, tc: str, game: str, talon: str, fleks: str = "pass pass") -> None:
    """F (seat 0) names trumps with ``tc``, declares ``game``, lays ``talon``; M and d say good;
    then the flek calls, each by whoever is to act."""
    act(st, 0, "trump", card=tc)
    act(st, 0, "declare", game=game)
    for c in talon.split():
        act(st, 0, "discard", card=c)
    act(st, 1, "good")
    act(st, 2, "good")
    for f in fleks.split():
        act(st, st.to_act()[0], f)


def result(st: Any) -> dict[str, Any]:
    r: dict[str, Any] | None = st.view(None)["last_result"]
    assert r is not None
    return r


# --------------------------------------------------------------- 1.5 deal, 3.1 trump, 7 views


def test_deal_packets_and_who_sees_them_with_dealer_0() -> None:
    # The canonical deck: spades deck[0..7], hearts [8..15], diamonds [16..23], clubs [24..31].
    # Dealer 0: F = left(0) = 1, M = 2, d = 0 (0. Vocabulary).
    deck = R_CARDS[:]
    st = G.new_table(seats=3, options=G.validate_options({"dealer": 0, "decks": [deck]}), seed=1)
    first7 = cards("AS KS QS JS 10S 9S 8S")  # deck[0..6]
    blind5 = cards("KD QD JD 10D 9D")  # deck[17..21]
    m10 = cards("7S AH KH QH JH 8D 7D AC KC QC")  # deck[7..11] + deck[22..26]
    d10 = cards("10H 9H 8H 7H AD JC 10C 9C 8C 7C")  # deck[12..16] + deck[27..31]
    v1 = st.view(1)
    assert v1["phase"] == "trump" and v1["to_act"] == [1] and v1["dealer"] == 0
    assert v1["hand"] == first7 and v1["hand_sizes"] == [10, 12, 10]
    assert st.view(2)["hand"] == r_canon(m10) and st.view(0)["hand"] == r_canon(d10)
    for seat in (0, 1, 2, None):  # the blind five: nobody before TRUMP, not even F
        assert not harness.cards_in(st.view(seat)) & set(blind5)
    for seat in (0, 2, None):  # F's first seven are its own
        assert not harness.cards_in(st.view(seat)) & set(first7)
    assert st.legal_actions(1) == [*({"type": "trump", "card": c} for c in first7), {"type": "trump_blind"}]
    assert st.legal_actions(0) == [] and st.legal_actions(2) == []
    # a blind card cannot name trumps; a seat out of turn cannot act
    exc = harness.assert_refused(st, 3, 1, {"type": "trump", "card": "KD"})
    assert "not allowed" in exc.reason
    exc = harness.assert_refused(st, 3, 0, {"type": "trump_blind"})
    assert "turn" in exc.reason
    # blind: tc = deck[17] = KD, T = D; public, and F now sees its 12 cards
    act(st, 1, "trump_blind")
    for seat in (0, 1, 2, None):
        v = st.view(seat)
        assert v["trump"] == "D" and v["trump_card"] == "KD" and v["phase"] == "declare"
    assert harness.cards_in(st.view(None)) == {"KD"}
    assert st.view(1)["hand"] == r_canon(first7 + blind5)
    assert not harness.cards_in(st.view(0)) & (set(blind5) - {"KD"})
    # F: no 7D (M holds it): no sedma; KD and QD: kilo, with 9 cards barred at most
    assert legal_cards(st) == ["hra", "kilo", "betl", "durch"]


# Deal T7: every sharp card but none other plus K Q 7 of clubs and 8S: F = AS 10S AH 10H AD 10D
# AC 10C KC QC 7C 8S.
T7 = ("7C AS 10S AH 10H AD 10D", "AC 10C KC QC 8S",
      "KS QS JS 9S 7S KH QH JH 9H 8H", "7H KD QD JD 9D 8D 7D JC 9C 8C")


def test_two_discardable_cards_needed_for_a_suit_contract() -> None:
    st = table(T7)
    act(st, 0, "trump", card="7C")
    # tc = 7C. hra, sedma: barred = 8 sharp cards + 7C → KC QC 8S left (3 ≥ 2).
    # kilo: 8 sharp + 7C (the tc) + KC QC → only 8S (1): not legal; kilo_sedma the same.
    assert legal_cards(st) == ["hra", "sedma", "betl", "durch"]
    exc = harness.assert_refused(st, 3, 0, {"type": "declare", "game": "kilo"})
    assert "not allowed" in exc.reason
    act(st, 0, "declare", game="sedma")
    assert legal_cards(st) == ["8S", "KC", "QC"]
    for c in ("AS", "10C", "7C"):  # sharp; sharp; tc and the seven sedma needs
        harness.assert_refused(st, 3, 0, {"type": "discard", "card": c})
    ev = act(st, 0, "discard", card="KC")
    assert st.view(None)["talon_trumps"] is None and harness.cards_in(ev) == set()
    ev = act(st, 0, "discard", card="QC")
    assert st.view(None)["talon_trumps"] == 2 and harness.cards_in(ev) == set()  # two clubs
    assert st.view(0)["talon"] == ["KC", "QC"] and st.view(1)["talon"] == [] and st.view(2)["talon"] == []
    # tc = AC instead: kilo barred = 8 sharp (AC among them) + KC QC → 7C 8S (2): legal;
    # kilo_sedma also bars 7C → 8S alone: not legal.
    st = table(T7)
    act(st, 0, "trump_blind")  # deck[17] = AC
    assert st.view(None)["trump_card"] == "AC"
    assert legal_cards(st) == ["hra", "sedma", "kilo", "betl", "durch"]


# --------------------------------------------------------------- 3.4 answers


def test_bad_by_the_second_speaker_then_bad_over_betl_with_dealer_0() -> None:
    # Dealer 0: F = 1, M = 2, d = 0. The canonical deck as above: F = AS..8S + KD QD JD 10D 9D.
    st = G.new_table(seats=3, options=G.validate_options({"dealer": 0, "decks": [R_CARDS[:]]}), seed=1)
    act(st, 1, "trump", card="9S")
    act(st, 1, "declare", game="hra")
    act(st, 1, "discard", card="QS")
    act(st, 1, "discard", card="JS")
    assert st.view(None)["talon_trumps"] == 2  # QS JS are spades = trumps
    assert st.view(None)["phase"] == "answer" and st.to_act() == (2,)  # M first, then d
    harness.assert_refused(st, 3, 0, {"type": "good"})
    act(st, 2, "good")
    assert st.to_act() == (0,) and legal_cards(st) == ["good", "bad"]
    act(st, 0, "bad")  # d takes the talon: 10 + 2 = 12 cards; trumps gone
    v = st.view(None)
    assert v["phase"] == "declare" and v["to_act"] == [0] and v["contract"] is None
    assert v["trump"] is None and v["trump_card"] is None and v["talon_trumps"] is None
    assert v["hand_sizes"] == [12, 10, 10]
    assert st.view(0)["hand"] == r_canon(cards("QS JS 10H 9H 8H 7H AD JC 10C 9C 8C 7C"))
    assert legal_cards(st) == ["betl", "durch"]
    act(st, 0, "declare", game="betl")
    act(st, 0, "discard", card="AD")  # betl: any card, an ace too
    act(st, 0, "discard", card="QS")
    assert st.view(0)["talon"] == ["AD", "QS"]
    for seat in (1, 2, None):
        assert not harness.cards_in(st.view(seat)) & {"AD", "QS"}
    # betl answered by left(S) = 1 (the original forehand), then 2
    assert st.view(None)["phase"] == "answer" and st.to_act() == (1,)
    act(st, 1, "bad")  # takes AD QS: 10 + 2 = 12
    assert st.view(1)["hand"] == r_canon(cards("AS KS 10S 9S 8S KD QD JD 10D 9D AD QS"))
    assert legal_cards(st) == ["durch"]  # only durch over betl
    harness.assert_refused(st, 3, 1, {"type": "declare", "game": "betl"})
    act(st, 1, "declare", game="durch")
    act(st, 1, "discard", card="8S")
    act(st, 1, "discard", card="9S")
    # a durch is never answered: FLEK, D1 = left(1) = 2
    assert st.view(None)["phase"] == "flek" and st.to_act() == (2,) and legal_cards(st) == ["flek", "pass"]
    act(st, 2, "pass")
    assert st.to_act() == (0,)
    act(st, 0, "pass")
    v = st.view(None)
    assert v["phase"] == "play" and v["to_act"] == [1] and v["soloist"] == 1 and v["contract"] == "durch"
    # S = 1 leads 10S; M = 2 holds only the 7S; d = 0 holds JS, which beats the 10S in natural
    # order (A K Q J 10) and must be played: the durch is lost at trick 1 and play stops
    act(st, 1, "play", card="10S")
    assert legal_cards(st) == ["7S"]
    act(st, 2, "play", card="7S")
    assert legal_cards(st) == ["JS"]
    ev = act(st, 0, "play", card="JS")
    (end,) = [e for e in ev if e["type"] == "deal_end"]
    # durch lost: −10 × 2^0 = −10; S pays D1 = left(1) = 2, then D2 = 0, 10 each
    assert end["components"] == [["durch", False, 10]] and end["units"] == -10
    assert end["deltas"] == [10, -20, 10] and end["payments"] == [[1, 2, 10], [1, 0, 10]]
    assert end["trick_winners"] == [0] and harness.cards_in(end) == set()  # unplayed cards unseen


# --------------------------------------------------------------- 2.1–2.3 ranking, winner, duties

# Deal O (trump C by tc JC, hra): S = AH 10H KH QH JH 9H JC 9D AS KS after laying 8H 7H;
# M is void in hearts and diamonds, d void in hearts and spades.
DEAL_O = ("JC AH 10H KH QH AS KS", "JH 9H 8H 7H 9D",
          "AC QC 9C 8C QS JS 10S 9S 8S 7S", "KC 10C 7C AD KD QD JD 10D 8D 7D")


def test_play_duties_and_trick_winner() -> None:
    st = table(DEAL_O)
    bid(st, "JC", "hra", "8H 7H", fleks="flek pass")  # flekked: played, not conceded
    assert st.view(None)["phase"] == "play" and st.to_act() == (0,)  # the soloist leads trick 1
    start = st

    def lead(card: str) -> Any:
        s = start.clone()
        act(s, 0, "play", card=card)
        return s

    # AH led: M has no heart, has trumps, W = AH not a trump → 2b: any trump, nothing else
    st = lead("AH")
    assert legal_cards(st) == ["AC", "QC", "9C", "8C"]
    over = st.clone()
    act(over, 1, "play", card="9C")
    # d: no heart, W = 9C a trump → 2a: a trump above the 9C (K, 10; the 7C is below)
    assert legal_cards(over) == ["KC", "10C"]
    exc = harness.assert_refused(over, 3, 2, {"type": "play", "card": "7C"})
    assert "not allowed" in exc.reason
    act(over, 2, "play", card="10C")
    assert over.view(None)["trick_winners"] == [2]  # highest trump: 10C over 9C (A 10 K Q J 9)
    act(st, 1, "play", card="AC")
    # d cannot beat the AC but must still trump: KC 10C 7C, never a diamond
    assert legal_cards(st) == ["KC", "10C", "7C"]
    harness.assert_refused(st, 3, 2, {"type": "play", "card": "AD"})
    act(st, 2, "play", card="7C")
    assert st.view(None)["trick_winners"] == [1]
    assert st.view(None)["card_points"] == [0, 20, 0]  # AH + AC to M

    # 9D led: M void, trumps (2b); after M's 8C the trick is trumped → 1b: d plays any diamond,
    # even those that do not beat the 9D, and no trump
    st = lead("9D")
    assert legal_cards(st) == ["AC", "QC", "9C", "8C"]
    act(st, 1, "play", card="8C")
    assert legal_cards(st) == ["AD", "KD", "QD", "JD", "10D", "8D", "7D"]
    act(st, 2, "play", card="AD")
    assert st.view(None)["trick_winners"] == [1]  # the 8C trump beats the led suit's ace

    # KS led: M must beat it, and only the 10S does (A 10 K: the ten sits above the king)
    st = lead("KS")
    assert legal_cards(st) == ["10S"]
    act(st, 1, "play", card="10S")
    assert legal_cards(st) == ["KC", "10C", "7C"]  # d: no spade, W = 10S not a trump → any trump
    act(st, 2, "play", card="KC")
    assert st.view(None)["trick_winners"] == [2] and st.view(None)["card_points"] == [0, 0, 10]

    # AS led: M cannot beat it → any spade (1a, else clause)
    st = lead("AS")
    assert legal_cards(st) == ["QS", "JS", "10S", "9S", "8S", "7S"]
    act(st, 1, "play", card="7S")
    act(st, 2, "play", card="7C")
    assert st.view(None)["trick_winners"] == [2]  # a low trump takes the ace: AS 7S 7C = 10
    assert st.view(None)["card_points"] == [0, 0, 10]

    # JC (trump) led: L = T, W = JC → M beats with AC or QC (not 9C 8C); after QC, d beats the
    # QC with KC or 10C, not the 7C
    st = lead("JC")
    assert legal_cards(st) == ["AC", "QC"]
    act(st, 1, "play", card="QC")
    assert legal_cards(st) == ["KC", "10C"]


# Deal DURCH: F holds AS KS QS JS AH KH QH JH AD KD QD AC, lays JH QD; every other card of its
# suits is lower in natural order, so the soloist, leading, wins every trick.
DEAL_DURCH = ("QH AS KS QS JS AH KH", "JH AD KD QD AC",
              "10S 9S 10H 9H JD 10D KC QC JC 10C", "8S 7S 8H 7H 9D 8D 7D 9C 8C 7C")


def test_durch_won_natural_order_no_marriage_no_hearts_factor() -> None:
    st = table(DEAL_DURCH)
    act(st, 0, "trump", card="AH")  # hearts named first; durch then voids the trump
    act(st, 0, "declare", game="durch")
    assert st.view(None)["trump"] is None and st.view(None)["trump_card"] is None
    act(st, 0, "discard", card="JH")
    act(st, 0, "discard", card="QD")
    assert st.view(None)["phase"] == "flek" and st.to_act() == (1,)  # no answers
    for seat, call in ((1, "pass"), (2, "flek"), (0, "re"), (1, "pass"), (2, "pass")):
        act(st, seat, call)
    assert st.view(None)["flek"] == 2 and st.view(None)["phase"] == "play"
    act(st, 0, "play", card="QH")
    # natural order A K Q J 10: neither 10H nor 9H beats the QH (in a suit contract 10H would)
    assert legal_cards(st) == ["10H", "9H"]
    ev: list[dict[str, Any]] = []
    for i, c in enumerate(cards("QH AS KS QS JS AH KH AD KD AC")):
        if i:
            ev += act(st, 0, "play", card=c)
        for _ in range(2):
            (seat,) = st.to_act()
            ev += st.apply(seat, st.legal_actions(seat)[0])
    r = result(st)
    assert r["trick_winners"] == [0] * 10 and r["marriages"] == [] and r["points"] == [0, 0]
    assert r["card_points"] == [0, 0, 0] and r["trump"] is None
    # durch won: Σ = 10; h = 1 (no trumps); 2^2 = 4 → N = 40 from each defender
    assert r["components"] == [["durch", True, 10]] and r["units"] == 40
    assert r["deltas"] == [80, -40, -40] and st.stacks == [280, 160, 160]
    assert not [e for e in ev if e["type"] == "marriage"]  # KS led with QS in hand: nothing


# Deal BETL: F = every 7, 8, 9; it lays 9S 9H. The defenders hold A K Q J 10 of every suit:
# S loses trick 1 (it leads) and never leads again, and never holds a higher card of a led suit.
DEAL_BETL = ("7S 8S 9S 7H 8H 9H 7D", "8D 9D 7C 8C 9C",
             "AS KS QS JS 10S AH KH QH JH 10H", "AD KD QD JD 10D AC KC QC JC 10C")


def test_betl_won_over_ten_tricks_with_flek_and_re() -> None:
    st = table(DEAL_BETL)
    act(st, 0, "trump", card="7H")
    act(st, 0, "declare", game="betl")
    assert legal_cards(st) == r_canon(cards(" ".join(DEAL_BETL[:2])))  # betl: any card
    act(st, 0, "discard", card="9S")
    act(st, 0, "discard", card="9H")
    assert st.view(None)["talon_trumps"] is None
    assert st.to_act() == (1,)  # betl answered by left(S) = 1, then 2
    act(st, 1, "good")
    act(st, 2, "good")
    for seat, call in ((1, "flek"), (0, "re"), (1, "pass"), (2, "pass")):
        assert legal_cards(st) == (["re", "pass"] if seat == 0 else ["flek", "pass"])
        act(st, seat, call)
    assert st.view(None)["flek"] == 2 and st.to_act() == (0,)
    while st.view(None)["phase"] == "play":
        (seat,) = st.to_act()
        st.apply(seat, st.legal_actions(seat)[0])
    r = result(st)
    assert len(r["trick_winners"]) == 10 and 0 not in r["trick_winners"]
    # betl won: 5; h = 1 though hearts were named (no trumps in betl); × 2^2 → 20 each
    assert r["components"] == [["betl", True, 5]] and r["units"] == 20 and r["deltas"] == [40, -20, -20]


# --------------------------------------------------------------- 2.4 points, 4.1 components

# Deal ALL (trump C by JC; S lays 8H 7H, no trump): S wins all ten tricks, the last with the 7C.
DEAL_ALL = ("AC 10C KC QC JC 9C 7C", "AS AD AH 8H 7H",
            "10S QS JS 9S 8S 10H KH QH 10D QD", "KS 7S JH 9H KD JD 9D 8D 7D 8C")
TRICKS_ALL = [
    "AC 9S 8C",  # M has no club (= no trump): any card; d must follow with its 8C. S 10
    "10C 8S 7D",  # S 20
    "KC JS 8D",  # KC led holding QC: S's trump marriage, 40
    "QC QS 9D",  # the KC is gone: no marriage; M's QS without the KS (d's): none
    "AS 10S KS",  # M's last spade 10S; d cannot beat: KS or 7S (the QS was M's). S 40
    "AD 10D JD",  # S 60
    "AH KH 9H",  # M follows KH holding QH: M's marriage 20 (hearts). S 70
    "JC QH 7S",  # M has no club: any card (its KH is gone); d likewise
    "9C QD KD",  # QD and KD in different hands: no marriage
    "7C 10H JH",  # S 80, + last trick 10 = 90; trick 10 won by S's 7 of trumps
]


@pytest.mark.parametrize(("game", "components", "units"), [
    # H100 = 90 + 40 = 130. hra: silent hundred 2 + ⌊30/10⌋ = 5; silent seven (S) +1: Σ 6
    ("hra", [["hra", True, 5], ["silent_seven", True, 1]], 6),
    # sedma: the same hra 5, announced seven won 2: Σ 7
    ("sedma", [["hra", True, 5], ["sedma", True, 2]], 7),
    # kilo: 4 + 2 × ⌊30/10⌋ = 10; silent seven +1: Σ 11
    ("kilo", [["kilo", True, 10], ["silent_seven", True, 1]], 11),
    # kilo_sedma: 10 + 2: Σ 12
    ("kilo_sedma", [["kilo", True, 10], ["sedma", True, 2]], 12),
])
def test_all_tricks_to_the_soloist(game: str, components: list[list[Any]], units: int) -> None:
    st = table(DEAL_ALL, concede_plain=False, stake=2)
    bid(st, "JC", game, "8H 7H")
    assert st.view(None)["talon_trumps"] == 0 and st.view(None)["phase"] == "play"
    ev = play(st, TRICKS_ALL[:3])
    v = st.view(2)
    assert v["marriages"] == [[0, "C", 40]] and v["card_points"] == [20, 0, 0] and v["points"] == [60, 0]
    ev += play(st, TRICKS_ALL[3:])
    assert [e["value"] for e in ev if e["type"] == "marriage"] == [40, 20]
    r = result(st)
    assert r["trick_winners"] == [0] * 10 and r["card_points"] == [90, 0, 0]
    assert r["marriages"] == [[0, "C", 40], [1, "H", 20]] and r["points"] == [130, 20]
    assert r["components"] == components
    # clubs: h = 1; f = 0 → N = Σ units; stake 2 → each defender pays 2Σ jetons
    assert r["units"] == units and r["deltas"] == [4 * units, -2 * units, -2 * units]
    assert st.stacks == [400 + 4 * units, 400 - 2 * units, 400 - 2 * units]  # buy_in 200 × 2


# Deal HUNDRED (trump C by JC; S lays 8H 9C: one trump): S takes 60 card points and its trump
# marriage, H100 = 100 exactly, and wins trick 10 with the 7C.
DEAL_HUNDRED = ("AC 10C KC QC JC 7C AS", "10S 9H 9D 8H 9C",
                "AH QH 7H AD QD 8D KS 9S 8S 8C", "10H KH JH 10D KD JD 7D QS JS 7S")
TRICKS_HUNDRED = [
    "AC 8C 7S",  # S 10
    "KC 8S JS",  # trump marriage 40 (S)
    "QC 9S QS",  # d's QS: the KS is M's, no marriage
    "AS KS 7D",  # S 20
    "10S 7H JD",  # S 30
    "9H AH 10H",  # M must beat the 9H (AH or QH); d cannot beat the AH: any heart. M 20
    "QH KH JC",  # M leads; d must beat the QH: KH; S void in hearts: any trump. S, 0 points
    "9D AD KD",  # M beats with AD (or QD). M 30
    "QD 10D 10C",  # d's 10D beats the QD; S void: any trump. S 50
    "7C 8D JH",  # S 50 + last 10 = 60, trick 10 won by S's 7 of trumps
]


@pytest.mark.parametrize(("game", "components", "units"), [
    # H100 = 60 + 40 = 100: silent hundred 2 + 0; silent seven won +1: Σ 3
    ("hra", [["hra", True, 2], ["silent_seven", True, 1]], 3),
    ("sedma", [["hra", True, 2], ["sedma", True, 2]], 4),
    # kilo won at exactly 100: 4 + 2 × 0; silent seven +1: Σ 5
    ("kilo", [["kilo", True, 4], ["silent_seven", True, 1]], 5),
    ("kilo_sedma", [["kilo", True, 4], ["sedma", True, 2]], 6),
])
def test_hundred_reached_exactly(game: str, components: list[list[Any]], units: int) -> None:
    st = table(DEAL_HUNDRED, concede_plain=False)
    bid(st, "JC", game, "8H 9C", fleks="flek pass")  # f = 1
    assert st.view(None)["talon_trumps"] == 1
    play(st, TRICKS_HUNDRED)
    r = result(st)
    assert r["trick_winners"] == [0, 0, 0, 0, 0, 1, 0, 1, 0, 0]
    assert r["card_points"] == [60, 30, 0] and r["marriages"] == [[0, "C", 40]] and r["points"] == [100, 30]
    assert r["components"] == components
    # clubs h = 1, f = 1 → N = 2Σ
    assert r["units"] == 2 * units and r["deltas"] == [4 * units, -2 * units, -2 * units]


@pytest.mark.parametrize(("game", "components", "units"), [
    # the 7C spent on trick 9 (S void in diamonds: any trump), the 10C wins trick 10: still
    # 60 card points (T9: 10D; T10: 10C + last 10), H100 = 100, but no seven
    ("hra", [["hra", True, 2]], 2),
    ("sedma", [["hra", True, 2], ["sedma", False, 2]], 0),  # Σ = 2 − 2 = 0: nothing moves
    ("kilo", [["kilo", True, 4]], 4),
    ("kilo_sedma", [["kilo", True, 4], ["sedma", False, 2]], 2),
])
def test_seven_played_before_trick_10(game: str, components: list[list[Any]], units: int) -> None:
    st = table(DEAL_HUNDRED, concede_plain=False)
    bid(st, "JC", game, "8H 9C", fleks="flek pass")
    ev = play(st, [*TRICKS_HUNDRED[:8], "QD 10D 7C", "10C 8D JH"])
    r = result(st)
    assert r["card_points"] == [60, 30, 0] and r["points"] == [100, 30]
    assert r["components"] == components
    assert r["units"] == 2 * units and r["deltas"] == [4 * units, -2 * units, -2 * units]
    (end,) = [e for e in ev if e["type"] == "deal_end"]
    if units == 0:
        assert end["payments"] == [] and st.stacks == [200, 200, 200]


# Deal BEATEN (trump C by 7C; S lays KC QC): S and M follow every suit; d, void in each suit's
# third round, trumps it and leads the next; in trick 10 d's 9C beats S's 7C and M's 8C.
DEAL_BEATEN = ("7C AS 10S 7S AH 10H 7H", "AD 10D 7D KC QC",
               "KS JS 9S KH JH 9H KD JD 9D 8C", "QS 8S QH 8H QD 8D AC 10C JC 9C")
TRICKS_BEATEN = [
    "AS 9S 8S",  # S 10
    "10S JS QS",  # nobody beats the 10S: S 20
    "7S KS JC",  # M must beat the 7S: KS; d void: any trump. d 0
    "8H AH 9H",  # d leads; S must beat: AH (or 10H). S 30
    "10H JH QH",  # S 40
    "7H KH 10C",  # d trumps: 10
    "8D AD 9D",  # S 50
    "10D JD QD",  # S 60
    "7D KD AC",  # d trumps: 20
    "9C 7C 8C",  # d leads; neither 7C nor 8C beats the 9C: d 20 + last trick 10 = 30
]


@pytest.mark.parametrize(("game", "components", "units"), [
    # card points: S 60; d 0 + 10 (10C) + 10 (AC) + last trick 10 = 30. P_S 60 > P_D 30: hra won,
    # H100 = 60: base 1. The 7C went into trick 10 but lost it: no silent seven (4.1)...
    ("hra", [["hra", True, 1]], 1),
    # ...and an announced seven beaten in trick 10 is lost: Σ = 1 − 2 = −1
    ("sedma", [["hra", True, 1], ["sedma", False, 2]], -1),
])
def test_seven_beaten_in_trick_10(game: str, components: list[list[Any]], units: int) -> None:
    st = table(DEAL_BEATEN, concede_plain=False)
    bid(st, "7C", game, "KC QC", fleks="flek re pass pass")  # f = 2
    assert st.view(None)["talon_trumps"] == 2
    play(st, TRICKS_BEATEN[:9])
    act(st, 2, "play", card="9C")
    assert legal_cards(st) == ["7C"] and st.to_act() == (0,)
    act(st, 0, "play", card="7C")
    assert legal_cards(st) == ["8C"]  # M kept its one trump by following every suit
    act(st, 1, "play", card="8C")
    r = result(st)
    assert r["trick_winners"] == [0, 0, 2, 0, 0, 2, 0, 0, 2, 2]
    assert r["card_points"] == [60, 0, 30] and r["points"] == [60, 30] and r["marriages"] == []
    assert r["components"] == components
    # clubs h = 1, f = 2 → N = 4Σ (the spec's example B, in clubs)
    assert r["units"] == 4 * units and r["deltas"] == [8 * units, -4 * units, -4 * units]


# Deal PAIRS (trump C by JC; S lays 9S 8S): S holds K Q of clubs and of hearts. 50 card points,
# marriages 40 + 20: P_S = 110 but H100 = 50 + 40 = 90 (the 20 does not count for a hundred).
DEAL_PAIRS = ("KC QC JC 9C 8C KH QH", "AS AD 10D 9S 8S",
              "AC 10C 7C AH 10H JH KS JS QD 9D", "QS 10S 7S 9H 8H 7H KD JD 8D 7D")
TRICKS_PAIRS = [
    "KC AC 7D",  # trump marriage 40 (S); M must beat the KC: AC or 10C. M 10
    "AH 7H KH",  # M leads; d cannot beat: any heart; S follows KH holding QH: marriage 20. M 20
    "10H 8H QH",  # M 30
    "JH 9H 8C",  # S void in hearts: any trump. S 0
    "AS JS 10S",  # S 20
    "AD 9D 8D",  # S 30
    "10D QD KD",  # nobody beats the 10D (A 10 K Q). S 40
    "QC 10C JD",  # M must beat the QC: only 10C (its 7C is lower). M 40
    "KS QS 9C",  # M leads; d cannot beat: any spade; S void: any trump. S 40
    "JC 7C 7S",  # S 40 + last 10 = 50; the 7C lost to the JC: no seven component
]


@pytest.mark.parametrize(("game", "components", "units"), [
    ("hra", [["hra", True, 1]], 1),  # P_S 110 > P_D 40, but H100 = 90 < 100: no silent hundred
    ("kilo", [["kilo", False, 4]], -4),  # H100 = 90: kilo lost, 4, though P_S > P_D
])
def test_other_marriages_do_not_count_for_the_hundred(game: str, components: list[list[Any]],
                                                      units: int) -> None:
    st = table(DEAL_PAIRS, concede_plain=False)
    bid(st, "JC", game, "9S 8S")
    act(st, 0, "play", card="KC")
    assert legal_cards(st) == ["AC", "10C"]
    act(st, 1, "play", card="AC")
    act(st, 2, "play", card="7D")
    act(st, 1, "play", card="AH")
    act(st, 2, "play", card="7H")
    assert legal_cards(st) == ["KH", "QH"]
    play(st, ["KH", *TRICKS_PAIRS[2:]])
    r = result(st)
    assert r["trick_winners"] == [1, 1, 1, 0, 0, 0, 0, 1, 0, 0]
    assert r["card_points"] == [50, 40, 0] and r["marriages"] == [[0, "C", 40], [0, "H", 20]]
    assert r["points"] == [110, 40]
    assert r["components"] == components
    assert r["units"] == units and r["deltas"] == [2 * units, -units, -units]


# --------------------------------------------------------------- 3.5 flek, 3.6 concession, 4.2


def test_flek_ladder_to_boty_alternates_and_doubles_everything() -> None:
    st = table(DEAL_ALL, max_flek=4)
    bid(st, "JC", "kilo_sedma", "8H 7H", fleks="")
    steps = [(1, ["flek", "pass"], "pass", 0), (2, ["flek", "pass"], "flek", 1),
             (0, ["re", "pass"], "re", 2), (1, ["flek", "pass"], "flek", 3), (0, ["re", "pass"], "re", 4)]
    for seat, legal, call, level in steps:
        assert st.to_act() == (seat,) and legal_cards(st) == legal
        wrong = "re" if call == "flek" else ("flek" if call == "re" else "good")
        harness.assert_refused(st, 3, seat, {"type": wrong})
        act(st, seat, call)
        assert st.view(None)["flek"] == level
    # f = 4 = max_flek: the phase ended at once; the soloist leads
    assert st.view(None)["phase"] == "play" and st.to_act() == (0,)
    play(st, TRICKS_ALL)
    # Σ = 12 (kilo 10 + sedma 2), h = 1, 2^4 = 16 → N = 192 ≤ 200: paid in full
    r = result(st)
    assert r["flek"] == 4 and r["units"] == 192 and r["deltas"] == [384, -192, -192]


@pytest.mark.parametrize(("max_flek", "calls", "level"), [
    (2, ["flek", "re"], 2),  # re reaches 2 = max: no defenders' turn after it
    (1, ["pass", "flek"], 1),  # D2's flek reaches 1 = max: no re
    (3, ["flek", "pass"], 1),  # the soloist passes: the phase ends
    (3, ["flek", "re", "pass", "pass"], 2),  # both defenders pass after the re
])
def test_flek_phase_ends(max_flek: int, calls: list[str], level: int) -> None:
    st = table(DEAL_ALL, max_flek=max_flek)
    bid(st, "JC", "hra", "8H 7H", fleks=" ".join(calls))
    v = st.view(None)
    assert v["phase"] == "play" and v["flek"] == level and v["to_act"] == [0]


def test_concession_only_for_an_unflekked_plain_hra() -> None:
    # BETL's F with hearts named by its 7H: nothing sharp in its hand, 11 cards may be laid
    st = table(DEAL_BETL, stake=3)
    assert st.stacks == [600, 600, 600]  # buy_in defaults to 200 × stake
    act(st, 0, "trump", card="7H")
    assert legal_cards(st) == ["hra", "sedma", "betl", "durch"]  # 7H but no K Q of hearts
    act(st, 0, "declare", game="hra")
    assert legal_cards(st) == r_canon(cards("7S 8S 9S 8H 9H 7D 8D 9D 7C 8C 9C"))  # all but the tc
    bid_rest = [(0, "discard", "9S"), (0, "discard", "9H"), (1, "good", None), (2, "good", None),
                (1, "pass", None), (2, "pass", None)]
    ev: list[dict[str, Any]] = []
    for seat, kind, card in bid_rest:
        ev += act(st, seat, kind, **({"card": card} if card else {}))
    assert not [e for e in ev if e["type"] == "play"]
    r = result(st)
    # conceded hra: 1, hearts h = 2, f = 0 → N = 2; stake 3 → 6 jetons from each defender
    assert r["conceded"] is True and r["components"] == [["hra", True, 1]] and r["trump"] == "H"
    assert r["units"] == 2 and r["deltas"] == [12, -6, -6] and st.stacks == [612, 594, 594]
    assert r["trick_winners"] == [] and r["points"] == [0, 0]
    # NEXT: deals_played 1, dealer left(2) = 0, a new TRUMP phase for F = 1
    v = st.view(None)
    assert v["phase"] == "trump" and v["dealer"] == 0 and v["deals_played"] == 1 and v["to_act"] == [1]
    # not conceded: a sedma, a betl, a flekked hra, or concede_plain off
    for game, fleks, opts in (("sedma", "pass pass", {}), ("hra", "pass flek pass", {}),
                              ("hra", "pass pass", {"concede_plain": False})):
        st = table(DEAL_BETL, **opts)
        bid(st, "7H", game, "9S 9H", fleks=fleks)
        assert st.view(None)["phase"] == "play", (game, fleks, opts)
    st = table(DEAL_BETL)
    bid(st, "7H", "betl", "9S 9H")
    assert st.view(None)["phase"] == "play"


def test_payments_capped_by_the_defenders_stacks_then_the_session_ends() -> None:
    st = table(DEAL_ALL, buy_in=20)
    bid(st, "JC", "kilo_sedma", "8H 7H", fleks="flek re pass flek")  # f = 3 = tutti = max
    ev = play(st, TRICKS_ALL)
    # N = 12 × 8 = 96 > 20: D1 (1) pays min(96, 20) = 20, then D2 (2) min(96, 20) = 20
    r = result(st)
    assert r["units"] == 96 and r["deltas"] == [40, -20, -20] and st.stacks == [60, 0, 0]
    # a stack (0) below the stake (1): the session ends; results stack − buy_in = 40, −20, −20,
    # the two equal results share rank 2
    v = st.view(None)
    assert st.is_over() and v["phase"] == "session_end" and v["to_act"] == []
    (end,) = [e for e in ev if e["type"] == "session_end"]
    assert end["results"] == [40, -20, -20] and end["ranks"] == [1, 2, 2] and end["reason"] == "broke"


def test_payments_capped_by_the_soloists_stack_first_d1_then_d2() -> None:
    st = table(DEAL_PAIRS, buy_in=20, concede_plain=False)
    bid(st, "JC", "kilo", "9S 8S", fleks="flek re flek")  # f = 3
    ev = play(st, ["KC AC 7D", "AH 7H KH", *TRICKS_PAIRS[2:]])
    # kilo lost: −4 × 8 = −32; S pays D1 min(32, 20) = 20, then D2 min(32, 0) = 0
    r = result(st)
    assert r["units"] == -32 and r["deltas"] == [-20, 20, 0] and st.stacks == [0, 40, 20]
    (end,) = [e for e in ev if e["type"] == "session_end"]
    # results −20, +20, 0: ranks 3, 1, 2
    assert end["results"] == [-20, 20, 0] and end["ranks"] == [3, 1, 2] and end["reason"] == "broke"
