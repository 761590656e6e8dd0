"""The Marias state machine (spec ``docs/rules/marias.md``, sections 1–7).

Phases (view ``phase``): ``trump``, ``declare``, ``discard``, ``answer``, ``flek``, ``play``,
and ``session_end`` once the session has ended (the name the other games use).
``conceded``, ``settle`` and ``next`` are automatic and run inside ``apply``.

Readings of the spec made here (listed in the report as well):

* ``bad`` is always legal in ``answer`` (a durch always exists above a suit contract or betl).
* Trump and trump card are voided as soon as a seat says ``bad`` (the contract is dropped and
  only betl/durch can follow), not only once the new contract is declared: section 3.4's
  "trumps no longer exist" over section 7's "void once betl/durch is declared", which the spec
  now words the same way.
* The view's ``talon`` field (section 7's "Talon" row) shows the current talon to the seat that
  discarded it, and only to it; a talon taken by a ``bad`` is in that seat's hand.
* ``card_points`` stay zero in betl/durch (no points there), marriages are suit-contract only.
* After a completed trick ``trick`` is empty again; the ``trick`` event carries its cards.
* "At least two discardable cards" (3.2) is checked for every suit contract, ``hra`` included
  (it can only ever exclude ``kilo`` and ``kilo_sedma``: at most 9 cards of 12 are barred for hra).
* ``request_close`` voids the deal at once when nobody has acted in it yet (contract page);
  jetons move only at settlement, so a voided deal has nothing to reverse.
* The session-end ranking is "1 + number of seats with a strictly better result" (ties share).
"""

from __future__ import annotations

import random
from typing import Any

from bot.rules.base import Action, BaseState, Event, View, match_action, not_your_turn
from bot.rules.cards import DECK_32, deck_for_deal, first_dealer
from bot.rules.dealing import deal_under
from bot.rules.marias.shown import Ceilings, may_hold, shown_ceilings
from bot.rules.marias.tables import (
    CANON,
    NEEDS_PAIR,
    NEEDS_SEVEN,
    PARTNER,
    SHARP,
    STR_NAT,
    STR_SUIT,
    SUIT,
    SUIT_CONTRACTS,
    SUIT_INDEX,
    canon_sorted,
)

TRUMP, DECLARE, DISCARD, ANSWER, FLEK, PLAY, OVER = ("trump", "declare", "discard", "answer", "flek",
                                                     "play", "session_end")
N_SEATS = 3
#: Talons drawn again at most, in a redeal keeping what the plays showed (``redeal(shown=True)``).
SHOWN_TRIES = 20
FLEK_NAMES = ("none", "flek", "re", "tutti", "boty")
#: A call of the deal (everything but plays and discards, all public): ``(seat, action type, its
#: card or game or None, the flek level before it)``.
Call = tuple[int, str, "str | None", int]

_GOOD: Action = {"type": "good"}
_BAD: Action = {"type": "bad"}


def _left(seat: int) -> int:
    return (seat + 1) % N_SEATS


class MariasState(BaseState):
    """One Marias session at a table of three (see the module docstring for the phases; ``actor``
    -1 once over)."""

    __slots__ = (
        "opts", "seed", "stake", "buy_in", "rounds", "max_flek", "concede_plain",
        "stacks", "pot", "dealer", "deals_played", "closing", "phase", "acted",
        "deck", "hands", "trump", "trump_card", "contract", "prev_contract", "soloist",
        "talon", "talon_owner", "talon_trumps", "speakers", "speaker_i", "flek", "flek_stage",
        "conceded", "trick", "win_seat", "win_card", "leader", "trick_winners", "card_points",
        "marr_pts", "marriages", "trump_marriage_s", "last_card", "last_result", "played",
        "calls", "deal_only",
    )
    _CLONE = {
        "shared": (  # deck, speakers: tuples; last_result is replaced, never mutated
            "opts", "seed", "stake", "buy_in", "rounds", "max_flek", "concede_plain", "pot", "dealer",
            "deals_played", "closing", "phase", "actor", "acted", "deck", "trump", "trump_card", "contract",
            "prev_contract", "soloist", "talon_owner", "talon_trumps", "speakers", "speaker_i", "flek",
            "flek_stage", "conceded", "win_seat", "win_card", "leader", "trump_marriage_s", "last_card",
            "last_result", "_legal", "calls", "deal_only",
        ),
        "lists": ("stacks", "talon", "trick", "trick_winners", "card_points", "marr_pts", "marriages",
                  "played"),
        "nested": (("hands", 3),),
    }

    # ------------------------------------------------------------------ construction

    def __init__(self, seats: int, options: dict[str, Any], seed: int):
        if seats != N_SEATS:
            raise ValueError("Marias is played by exactly 3 players.")
        self.opts = options
        self.seed = seed
        self.stake = options["stake"]
        self.buy_in = options["buy_in"]
        self.rounds = options["rounds"]
        self.max_flek = options["max_flek"]
        self.concede_plain = options["concede_plain"]
        self.stacks = [self.buy_in] * N_SEATS
        self.pot = 0
        self.dealer = first_dealer(options.get("dealer"), N_SEATS, seed)
        self.deals_played = 0
        self.closing = False
        self.last_result: dict[str, Any] | None = None
        #: An AI search's copy (``bot.ai.marias.determinize``): the session ends with this deal's
        #: settlement (reason "deal_only") instead of dealing the next one, which no search reads.
        self.deal_only = False
        self._start_deal([])

    def _start_deal(self, events: list[Event]) -> None:
        """Section 1.5: the 7-5-5 / 5-5-5 deal by deck ranges; phase TRUMP."""
        d = self.dealer
        f, m = _left(d), _left(_left(d))
        deck = deck_for_deal(DECK_32, self.opts.get("decks"), self.seed, self.deals_played)
        self.deck = tuple(deck)
        hands: list[list[str]] = [[], [], []]
        hands[f] = canon_sorted(deck[0:7] + deck[17:22])
        hands[m] = canon_sorted(deck[7:12] + deck[22:27])
        hands[d] = canon_sorted(deck[12:17] + deck[27:32])
        self.hands = hands
        self.phase = TRUMP
        self.actor = f
        self.acted = False
        self.trump = self.trump_card = self.contract = self.prev_contract = self.soloist = None
        self.talon = []
        self.talon_owner = None
        self.talon_trumps = None
        self.speakers = ()
        self.speaker_i = 0
        self.flek = 0
        self.flek_stage = 0
        self.conceded = False
        self.trick = []
        self.win_seat = -1
        self.win_card = ""
        self.leader = -1
        self.trick_winners = []
        self.played: list[tuple[tuple[int, str], ...]] = []  # this deal's completed tricks (public)
        self.calls: tuple[Call, ...] = ()  # this deal's calls (public), a new tuple at each
        self.card_points = [0, 0, 0]
        self.marr_pts = [0, 0, 0]
        self.marriages = []
        self.trump_marriage_s = False
        self.last_card = ""
        self._legal = None
        events.append({"type": "deal_start", "deal": self.deals_played, "dealer": d, "forehand": f})

    # ------------------------------------------------------------------ contract surface

    def is_over(self) -> bool:
        return self.phase == OVER

    def _compute_legal(self) -> list[Action]:
        phase = self.phase
        if phase == PLAY:
            return [{"type": "play", "card": c} for c in self._playable()]
        if phase == TRUMP:
            first = canon_sorted(list(self.deck[0:7]))
            return [*({"type": "trump", "card": c} for c in first), {"type": "trump_blind"}]
        if phase == DECLARE:
            return [{"type": "declare", "game": g} for g in self._declarable()]
        if phase == DISCARD:
            return [{"type": "discard", "card": c} for c in self._discardable(self.hands[self.actor],
                                                                              self.contract)]
        if phase == ANSWER:
            return [_GOOD, _BAD]
        if self.flek_stage == 2:
            return [{"type": "re"}, {"type": "pass"}]
        return [{"type": "flek"}, {"type": "pass"}]

    def timeout_action(self, seat: int) -> Action:
        """Section 7: first trump card / first contract / last discard / good / pass / lowest card."""
        legal = self.legal_actions(seat)
        if not legal:
            raise not_your_turn(seat, self.to_act())
        phase = self.phase
        if phase == DISCARD:
            return legal[-1]
        if phase == FLEK:
            return legal[-1]
        if phase == PLAY:
            strength = STR_SUIT if self.trump is not None else STR_NAT
            return min(legal, key=lambda a: (strength[a["card"]], SUIT_INDEX[SUIT[a["card"]]]))
        return legal[0]

    def _match(self, action: Any) -> Action:
        """The legal dict itself, a card play matched on its card, else ``match_action``."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        for cand in legal:
            if cand is action:
                return cand
        if self.phase == PLAY and type(action) is dict and len(action) == 2:
            card = action.get("card") if action.get("type") == "play" else None
            if type(card) is str:
                for cand in legal:
                    if cand["card"] == card:
                        return cand
        return match_action(action, legal)

    def _apply(self, seat: int, act: Action) -> list[Event]:
        self.acted = True
        events: list[Event] = []
        kind = act["type"]
        if kind != "play" and kind != "discard":  # a call: the blind trump card is turned, so public
            said = self.deck[17] if kind == "trump_blind" else act.get("card") or act.get("game")
            self.calls = (*self.calls, (seat, kind, said, self.flek))
        if kind == "play":
            self._play(seat, act["card"], events)
        elif kind == "trump" or kind == "trump_blind":
            self._choose_trump(seat, act.get("card"), events)
        elif kind == "declare":
            self._declare(seat, act["game"], events)
        elif kind == "discard":
            self._discard(seat, act["card"], events)
        elif kind == "good" or kind == "bad":
            self._answer(seat, kind == "good", events)
        else:
            self._flek_action(seat, kind, events)
        return events

    # ------------------------------------------------------------------ bidding phases

    def _choose_trump(self, seat: int, card: str | None, events: list[Event]) -> None:
        """Section 3.1: trump from the first seven, or blind (deck[17])."""
        blind = card is None
        tc = self.deck[17] if blind else card
        self.trump_card = tc
        self.trump = SUIT[tc]
        self.phase = DECLARE
        events.append({"type": "trump", "seat": seat, "card": tc, "suit": self.trump, "blind": blind})

    def _declarable(self) -> list[str]:
        """Section 3.2: the contracts the current declarer may choose."""
        return declarable(self.hands[self.actor], self.trump, self.trump_card, self.prev_contract)

    def _discardable(self, hand: list[str], contract: str) -> list[str]:
        """Section 3.3: cards that may go to the talon under ``contract``."""
        return discardable(hand, contract, self.trump, self.trump_card)

    def _declare(self, seat: int, game: str, events: list[Event]) -> None:
        self.contract = game
        self.soloist = seat
        if game not in SUIT_CONTRACTS:
            self.trump = self.trump_card = None
        self.phase = DISCARD
        events.append({"type": "declare", "seat": seat, "game": game, "over": self.prev_contract})

    def _discard(self, seat: int, card: str, events: list[Event]) -> None:
        self.hands[seat].remove(card)
        self.talon.append(card)
        self.talon_owner = seat
        ev: Event = {"type": "discard", "seat": seat, "count": len(self.talon)}
        events.append(ev)
        if len(self.talon) < 2:
            return
        game = self.contract
        if game in SUIT_CONTRACTS:
            self.talon_trumps = sum(1 for c in self.talon if SUIT[c] == self.trump)
            ev["talon_trumps"] = self.talon_trumps
            d = self.dealer
            self._open_answers((_left(_left(d)), d))
        elif game == "betl":
            self._open_answers((_left(seat), _left(_left(seat))))
        else:
            self._open_flek(events)

    def _open_answers(self, speakers: tuple[int, int]) -> None:
        self.phase = ANSWER
        self.speakers = speakers
        self.speaker_i = 0
        self.actor = speakers[0]

    def _answer(self, seat: int, good: bool, events: list[Event]) -> None:
        """Section 3.4: good passes on; bad takes the talon and declares betl or durch."""
        if good:
            events.append({"type": "good", "seat": seat, "contract": self.contract})
            self.speaker_i += 1
            if self.speaker_i < len(self.speakers):
                self.actor = self.speakers[self.speaker_i]
            else:
                self._open_flek(events)
            return
        events.append({"type": "bad", "seat": seat, "over": self.contract, "from": self.soloist})
        hand = self.hands[seat]
        hand.extend(self.talon)
        hand.sort(key=CANON.__getitem__)
        self.talon = []
        self.talon_owner = None
        self.talon_trumps = None
        self.prev_contract = self.contract
        self.contract = self.soloist = self.trump = self.trump_card = None
        self.phase = DECLARE
        self.actor = seat

    def _open_flek(self, events: list[Event]) -> None:
        self.phase = FLEK
        self.flek_stage = 0
        self.actor = _left(self.soloist)

    def _flek_action(self, seat: int, kind: str, events: list[Event]) -> None:
        """Section 3.5: defenders flek (D1 then D2), soloist re; max_flek ends the phase."""
        s = self.soloist
        if kind == "pass":
            events.append({"type": "pass", "seat": seat, "level": self.flek})
            if self.flek_stage == 0:
                self.flek_stage = 1
                self.actor = _left(_left(s))
                return
            self._end_flek(events)
            return
        self.flek += 1
        events.append({"type": kind, "seat": seat, "level": self.flek, "name": FLEK_NAMES[self.flek]})
        if self.flek >= self.max_flek:
            self._end_flek(events)
        elif kind == "flek":
            self.flek_stage = 2
            self.actor = s
        else:
            self.flek_stage = 0
            self.actor = _left(s)

    def _end_flek(self, events: list[Event]) -> None:
        if self.contract == "hra" and self.flek == 0 and self.concede_plain:
            self.conceded = True
            events.append({"type": "conceded", "seat": self.soloist, "contract": "hra", "trump": self.trump})
            self._settle(events)
            return
        self.phase = PLAY
        self.leader = self.actor = self.soloist
        events.append({"type": "play_start", "leader": self.soloist, "contract": self.contract,
                       "trump": self.trump, "flek": self.flek})

    # ------------------------------------------------------------------ play

    def _playable(self) -> list[str]:
        """Section 2.3: the strict obligations (follow and beat W, else trump and overtrump)."""
        hand = self.hands[self.actor]
        if not self.trick:
            return hand
        w = self.win_card
        led = SUIT[self.trick[0][1]]
        trump = self.trump
        strength = STR_SUIT if trump is not None else STR_NAT
        follow = [c for c in hand if SUIT[c] == led]
        if follow:
            if SUIT[w] == led:
                sw = strength[w]
                return [c for c in follow if strength[c] > sw] or follow
            return follow
        if trump is not None:
            trumps = [c for c in hand if SUIT[c] == trump]
            if trumps:
                if SUIT[w] == trump:
                    sw = strength[w]
                    return [c for c in trumps if strength[c] > sw] or trumps
                return trumps
        return hand

    def _play(self, seat: int, card: str, events: list[Event]) -> None:
        hand = self.hands[seat]
        trump = self.trump
        events.append({"type": "play", "seat": seat, "card": card, "trick": len(self.trick_winners) + 1})
        if trump is not None and card in PARTNER and PARTNER[card] in hand:
            suit = SUIT[card]
            value = 40 if suit == trump else 20
            self.marr_pts[seat] += value
            self.marriages.append((seat, suit, value))
            if suit == trump and seat == self.soloist:
                self.trump_marriage_s = True
            events.append({"type": "marriage", "seat": seat, "suit": suit, "value": value, "card": card})
        hand.remove(card)
        trick = self.trick
        trick.append((seat, card))
        if len(trick) == 1:
            self.win_seat, self.win_card = seat, card
        else:
            w = self.win_card
            if SUIT[card] == SUIT[w]:
                strength = STR_SUIT if trump is not None else STR_NAT
                if strength[card] > strength[w]:
                    self.win_seat, self.win_card = seat, card
            elif SUIT[card] == trump:
                self.win_seat, self.win_card = seat, card
        if len(trick) < N_SEATS:
            self.actor = _left(seat)
            return
        self._finish_trick(events)

    def _finish_trick(self, events: list[Event]) -> None:
        winner, wcard = self.win_seat, self.win_card
        self.trick_winners.append(winner)
        n = len(self.trick_winners)
        if self.trump is not None:
            pts = sum(10 for _, c in self.trick if c in SHARP) + (10 if n == 10 else 0)
            self.card_points[winner] += pts
        events.append({"type": "trick", "trick": n, "winner": winner, "card": wcard,
                       "cards": [[s, c] for s, c in self.trick], "card_points": self.card_points[:]})
        self.played.append(tuple(self.trick))
        self.trick = []
        self.last_card = wcard
        s = self.soloist
        game = self.contract
        if (game == "betl" and winner == s) or (game == "durch" and winner != s) or n == 10:
            if n < 10:
                events.append({"type": "play_stopped", "contract": game, "trick": n, "winner": winner})
            self._settle(events)
            return
        self.leader = self.actor = winner

    # ------------------------------------------------------------------ settlement

    def _points(self) -> list[int]:
        s = self.soloist
        if s is None or self.contract not in SUIT_CONTRACTS:
            return [0, 0]
        cp, mp = self.card_points, self.marr_pts
        ps = cp[s] + mp[s]
        return [ps, sum(cp) + sum(mp) - ps]

    def components(self) -> list[list[Any]]:
        """Table 4.1: ``[name, won_by_soloist, base]`` for the finished deal, in table order."""
        game, s = self.contract, self.soloist
        if self.conceded:
            return [["hra", True, 1]]
        if game == "betl":
            return [["betl", s not in self.trick_winners, 5]]
        if game == "durch":
            return [["durch", len(self.trick_winners) == 10 and set(self.trick_winners) == {s}, 10]]
        ps, pd = self._points()
        h100 = self.card_points[s] + (40 if self.trump_marriage_s else 0)
        extra = (h100 - 100) // 10
        seven_last = len(self.trick_winners) == 10 and self.last_card == "7" + self.trump
        seven_by_s = seven_last and self.trick_winners[-1] == s
        out: list[list[Any]] = []
        if game in ("hra", "sedma"):
            won = ps > pd
            out.append(["hra", won, 2 + extra if won and h100 >= 100 else 1])
        else:
            out.append(["kilo", h100 >= 100, 4 + 2 * extra if h100 >= 100 else 4])
        if game in NEEDS_SEVEN:
            out.append(["sedma", seven_by_s, 2])
        elif seven_last:
            out.append(["silent_seven", seven_by_s, 1])
        return out

    def _settle(self, events: list[Event]) -> None:
        """Section 4: N = Σ × h × 2^f, paid per defender, capped by the payer's stack."""
        s = self.soloist
        d1, d2 = _left(s), _left(_left(s))
        comps = self.components()
        sigma = sum(b if won else -b for _, won, b in comps)
        h = 2 if self.trump == "H" else 1
        units = sigma * h * (1 << self.flek)
        amount = abs(units) * self.stake
        before = self.stacks[:]
        payments = []
        for d in (d1, d2):
            payer, payee = (d, s) if units > 0 else (s, d)
            if units == 0:
                break
            x = min(amount, self.stacks[payer])
            self.stacks[payer] -= x
            self.stacks[payee] += x
            payments.append([payer, payee, x])
        deltas = [a - b for a, b in zip(self.stacks, before, strict=True)]
        result = {
            "contract": self.contract, "soloist": s, "trump": self.trump, "flek": self.flek,
            "conceded": self.conceded, "components": comps, "units": units, "deltas": deltas,
            "points": self._points(), "card_points": self.card_points[:],
            "marriages": [list(m) for m in self.marriages], "trick_winners": self.trick_winners[:],
        }
        self.last_result = result
        events.append({"type": "deal_end", "deal": self.deals_played, "defenders": [d1, d2],
                       "payments": payments, "stake": self.stake, **_copy_result(result)})
        self._next(events)

    def _next(self, events: list[Event]) -> None:
        """Section 3.8 and 5: next dealer, or the end of the session."""
        self.deals_played += 1
        self.dealer = _left(self.dealer)
        if self.closing:
            self._end_session(events, "closed")
        elif self.deal_only:
            self._end_session(events, "deal_only")
        elif self.deals_played >= 3 * self.rounds:
            self._end_session(events, "rounds")
        elif min(self.stacks) < self.stake:
            self._end_session(events, "broke")
        else:
            self._start_deal(events)

    def _end_session(self, events: list[Event], reason: str) -> None:
        self.phase = OVER
        self.actor = -1
        self.hands = [[], [], []]
        self.trick = []
        self._legal = None
        results = [x - self.buy_in for x in self.stacks]
        ranks = [1 + sum(1 for y in results if y > x) for x in results]
        events.append({"type": "session_end", "reason": reason, "results": results, "ranks": ranks,
                       "stacks": self.stacks[:], "deals_played": self.deals_played})

    def request_close(self, now: bool = False) -> list[Event]:
        """Host close: at the end of this deal, or at once (voiding the deal) if ``now`` or unplayed.

        Jetons move only at settlement, so a voided deal never needs reversing.
        """
        if self.phase == OVER:
            return []
        events: list[Event] = []
        self.closing = True
        if now or not self.acted:
            events.append({"type": "deal_void", "deal": self.deals_played})
            self._end_session(events, "closed")
        else:
            events.append({"type": "closing", "deal": self.deals_played})
        return events

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (section 7); ``None`` is a spectator."""
        own = type(seat) is int and 0 <= seat < N_SEATS
        f = _left(self.dealer)
        if not own:
            hand: list[str] = []
        elif self.phase == TRUMP and seat == f:
            hand = canon_sorted(list(self.deck[0:7]))
        else:
            hand = self.hands[seat][:]
        return {
            "phase": self.phase,
            "to_act": list(self.to_act()),
            "stacks": self.stacks[:],
            "pot": self.pot,
            "dealer": self.dealer,
            "deal": self.deals_played,
            "deals_played": self.deals_played,
            "closing": self.closing,
            "soloist": self.soloist,
            "contract": self.contract,
            "trump": self.trump,
            "trump_card": self.trump_card,
            "flek": self.flek,
            "talon_trumps": self.talon_trumps,
            "talon": self.talon[:] if own and seat == self.talon_owner else [],
            "hand": hand,
            "hand_sizes": [len(h) for h in self.hands],
            "trick": [[s, c] for s, c in self.trick],
            "trick_winners": self.trick_winners[:],
            "played_tricks": [[[s, c] for s, c in t] for t in self.played],
            "card_points": self.card_points[:],
            "marriages": [list(m) for m in self.marriages],
            "points": self._points(),
            "last_result": _copy_result(self.last_result) if self.last_result else None,
        }


    # ------------------------------------------------------------------ redeal (AI search)

    def shown_ceilings(self) -> Ceilings:
        """Per seat and suit, the strongest card its plays this deal allow it to hold (public;
        ``bot.rules.marias.shown``)."""
        return shown_ceilings([*self.played, self.trick], self.trump)

    def redeal(self, seat: int, rng: random.Random, shown: bool = False) -> MariasState:
        """A copy where every card hidden from ``seat`` is dealt again (OpenSpiel's
        ``ResampleFromInfostate``), from the hidden cards sorted then shuffled by ``rng`` (the
        result depends only on ``seat``'s view and ``rng``).

        Hidden from a seat: the other two hands; before trumps are chosen, forehand's blind five
        (from forehand too) and its first seven (from the others); the talon, except from the
        seat that laid it. Public facts kept: the trump card stays in forehand's hand until
        played, and so do the 7 of trumps (sedma) and K Q of trumps (kilo) in the soloist's
        hand; a suit-contract talon holds no ace or ten, none of those cards, and exactly
        ``talon_trumps`` trumps once announced. With ``shown``, the other hands also keep what the
        plays showed (``shown_ceilings``: no card of a suit a seat did not follow, nothing higher
        than a card it could not beat; ``bot.rules.dealing.deal_under``); a talon drawn so that no
        such deal is left is drawn again (at most ``SHOWN_TRIES`` times, then the plain deal).
        Out of ``TRUMP`` the engine never reads the dealt
        ``deck`` again, so the copy gets the canonical deck there instead of the real deal. The
        seed and stacked decks are replaced. ``self`` is left untouched.
        """
        c = self.clone()
        c.seed = rng.getrandbits(48)
        c.opts = {**self.opts, "decks": None}
        c._legal = None
        if self.phase == OVER:
            return c
        f = _left(self.dealer)
        in_trump = self.phase == TRUMP
        first_seven = list(self.deck[0:7])
        pinned = self._pinned()
        kept: dict[int, list[str]] = {}  # per other seat: cards it keeps (public or seen by ``seat``)
        pool: list[str] = []
        for s in range(3):
            if s == seat and not (in_trump and s == f):
                continue
            keep = [x for x in self.hands[s] if pinned.get(x) == s or (s == seat and x in first_seven)]
            kept[s] = keep
            pool += [x for x in self.hands[s] if x not in keep]
        hide_talon = bool(self.talon) and seat != self.talon_owner
        if hide_talon:
            pool += self.talon
        pool.sort()  # canonical before shuffling: the result depends on no hidden order
        rng.shuffle(pool)
        limits = self.shown_ceilings() if shown and self.phase == PLAY else {}
        places = [(s, len(self.hands[s]) - len(keep)) for s, keep in kept.items()]
        allowed, strictness = may_hold(limits, self.trump)
        for attempt in range(SHOWN_TRIES + 1):
            left = pool[:] if attempt == 0 else rng.sample(pool, len(pool))
            if attempt == SHOWN_TRIES:
                strictness = {}  # (never seen) no deal under the limits: the plain one
            talon = self._draw_talon(left) if hide_talon else None
            try:
                dealt = deal_under(left, places, allowed, strictness, rng)
            except ValueError:
                continue
            break
        if talon is not None:
            c.talon = talon
        for s, keep in kept.items():
            hand = keep + dealt[s]
            hand.sort(key=CANON.__getitem__)
            c.hands[s] = hand
        c.deck = _deck_for(c, f, first_seven if seat == f else None, rng) if in_trump else DECK_32
        return c

    def _pinned(self) -> dict[str, int]:
        """Cards whose holder is public: card -> seat."""
        out: dict[str, int] = {}
        f = _left(self.dealer)
        if self.trump_card is not None:
            out[self.trump_card] = f
        t, s, game = self.trump, self.soloist, self.contract
        if t is not None and s is not None:
            if game in NEEDS_SEVEN:
                out["7" + t] = s
            if game in NEEDS_PAIR:
                out["K" + t] = s
                out["Q" + t] = s
        return {c: seat for c, seat in out.items() if c in self.hands[seat]}

    def _draw_talon(self, pool: list[str]) -> list[str]:
        """Take the talon's cards out of ``pool``, obeying the public talon rules."""
        size = len(self.talon)
        if self.contract not in SUIT_CONTRACTS:
            out = pool[:size]
            del pool[:size]
            return out
        t = self.trump
        ok = [x for x in pool if x not in SHARP]
        want = self.talon_trumps
        if want is None:
            out = ok[:size]
        else:
            trumps = [x for x in ok if SUIT[x] == t]
            plain = [x for x in ok if SUIT[x] != t]
            out = trumps[:want] + plain[:size - want]
        for x in out:
            pool.remove(x)
        if len(out) != size:
            raise ValueError("no talon fits the public facts")
        return out


def declarable(hand: list[str], trump: str | None, trump_card: str | None, prev: str | None) -> list[str]:
    """Section 3.2: the contracts a declarer holding ``hand`` may choose (``prev``: the contract a
    ``bad`` dropped, if any)."""
    if prev is not None:
        return ["durch"] if prev == "betl" else ["betl", "durch"]
    t = trump or ""
    seven, pair = "7" + t in hand, "K" + t in hand and "Q" + t in hand
    out = []
    for g, ok in (("hra", True), ("sedma", seven), ("kilo", pair), ("kilo_sedma", seven and pair)):
        if ok and len(discardable(hand, g, trump, trump_card)) >= 2:
            out.append(g)
    return [*out, "betl", "durch"]


def discardable(hand: list[str], contract: str, trump: str | None, trump_card: str | None) -> list[str]:
    """Section 3.3: the cards of ``hand`` that may go to the talon under ``contract``."""
    if contract not in SUIT_CONTRACTS:
        return hand[:]
    banned: set[str | None] = set(SHARP)
    banned.add(trump_card)
    t = trump or ""
    if contract in NEEDS_SEVEN:
        banned.add("7" + t)
    if contract in NEEDS_PAIR:
        banned.update(("K" + t, "Q" + t))
    return [c for c in hand if c not in banned]


def _copy_result(result: dict[str, Any]) -> dict[str, Any]:
    out = dict(result)
    for key in ("components", "marriages"):
        out[key] = [list(x) for x in result[key]]
    for key in ("deltas", "points", "card_points", "trick_winners"):
        out[key] = list(result[key])
    return out


def _deck_for(c: MariasState, f: int, first: list[str] | None, rng: random.Random) -> tuple[str, ...]:
    """A dealt deck matching the copy's hands in phase TRUMP (forehand's first seven kept if known)."""
    m, d = _left(f), _left(_left(f))
    hf = c.hands[f]
    if first is None:
        first = rng.sample(hf, 7)
    blind = [x for x in hf if x not in first]
    rng.shuffle(blind)
    hm, hd = c.hands[m], c.hands[d]
    return tuple(first + hm[:5] + hd[:5] + blind + hm[5:] + hd[5:])
