"""Independent audit of the Mus engine against ``docs/rules/mus.md``.

Two kinds of checks:

* hand-checked stacked deals for the subtle rules (responders, held/total, raise ranges, the count
  table of 4.1 row by row, the count stop, accepted órdago, draw order and reshuffle, NEXT, close);
* a reference written from the spec alone (hand reading, the betting queue of 3.5, the count of
  4.1–4.3, NEXT of 4.4), run in lockstep with the engine over many random sessions.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.rules import IllegalMove
from bot.rules.cards import DECK_ES_40
from tests.rules import harness
from tests.rules.test_mus import (  # the shared deal-building helpers
    GAME,
    MUS,
    NOMUS,
    NOQ,
    ORDAGO,
    PASO,
    QUIERO,
    A,
    act,
    env,
    new,
    of,
    stacked,
)


def pass_lance(state) -> list[dict]:
    phase = state.view(None)["phase"]
    events: list[dict] = []
    while state.view(None)["phase"] == phase and not state.is_over():
        events += act(state, PASO)
    return events



# =============================================================== reference from the spec

_STR = {"1": 1, "2": 1, "4": 2, "5": 3, "6": 4, "7": 5, "10": 6, "11": 7, "12": 8, "3": 8}
_VAL = {"1": 1, "2": 1, "4": 4, "5": 5, "6": 6, "7": 7, "10": 10, "11": 10, "12": 10, "3": 10}
_JUEGO = [31, 32, 40, 37, 36, 35, 34, 33]


def ref_total(hand):
    return sum(_VAL[c[:-1]] for c in hand)


def ref_pares(hand):
    """(category 3/2/1/0, high, low): duples (two pairs or four alike), medias, par (spec 2)."""
    cnt: dict[int, int] = {}
    for c in hand:
        cnt[_STR[c[:-1]]] = cnt.get(_STR[c[:-1]], 0) + 1
    if 4 in cnt.values():
        r = next(k for k, v in cnt.items() if v == 4)
        return (3, r, r)
    pairs = sorted((k for k, v in cnt.items() if v == 2), reverse=True)
    if len(pairs) == 2:
        return (3, pairs[0], pairs[1])
    if 3 in cnt.values():
        return (2, next(k for k, v in cnt.items() if v == 3), 0)
    if pairs:
        return (1, pairs[0], 0)
    return (0, 0, 0)


def ref_key(lance, hand):
    """A key where higher is better, or None when the hand cannot win the lance."""
    s = sorted((_STR[c[:-1]] for c in hand), reverse=True)
    if lance == "grande":
        return tuple(s)
    if lance == "chica":
        return tuple(-x for x in sorted(s))
    if lance == "pares":
        p = ref_pares(hand)
        return p if p[0] else None
    t = ref_total(hand)
    if lance == "juego":
        return (8 - _JUEGO.index(t),) if t in _JUEGO else None
    return (t,) if t < 31 else None


def ref_winner(lance, hands, mano):
    best = best_key = None
    for j in range(4):
        s = (mano + j) % 4
        k = ref_key(lance, hands[s])
        if k is not None and (best_key is None or k > best_key):
            best, best_key = s, k
    return best


def ref_bonus(lance, hands, team):
    if lance == "pares":
        return sum(ref_pares(hands[s])[0] for s in (team, team + 2))
    if lance == "juego":
        return sum(3 if ref_total(hands[s]) == 31 else 2 for s in (team, team + 2)
                   if ref_total(hands[s]) >= 31)
    return 1 if lance == "punto" else 0


def ref_count(hands, mano, lances, points, target, ordago):
    """Spec 4.1–4.3: (counted, points_after, game_winner, lance_winners)."""
    any_juego = any(ref_total(h) >= 31 for h in hands)
    winners = {name: ref_winner(name, hands, mano) for name in ("grande", "chica", "pares", "juego", "punto")}
    if any_juego:
        winners["punto"] = None
    pts = list(points)
    if ordago is not None:
        return [], pts, winners[ordago] % 2, winners
    counted = []
    for rec in lances:
        name, res = rec["lance"], rec["result"]
        w = winners[name]
        if res == "refused":
            team, bet = rec["team"], rec["held"]
        elif w is None:
            continue
        elif res == "accepted":
            team, bet = w % 2, rec["total"]
        elif res == "paso" and name in ("grande", "chica"):
            team, bet = w % 2, 1
        else:  # pares/juego en paso or no_bet, punto en paso: bonus only
            team, bet = w % 2, 0
        bonus = ref_bonus(name, hands, team)
        if bet + bonus:
            counted.append([name, team, bet, bonus])
            pts[team] += bet + bonus
            if pts[team] >= target:
                return counted, pts, team, winners
    return counted, pts, None, winners


class Shadow:
    """The betting queue of spec 3.4–3.5, fed with the public view and each action."""

    def __init__(self, target):
        self.target = target
        self.lance = None

    def enter(self, view):
        """Called when the engine rests in a lance with nobody having spoken yet."""
        phase = view["phase"]
        mano = view["mano"]
        order = [(mano + j) % 4 for j in range(4)]
        if phase in ("pares", "juego"):
            has = view["declared"][phase]
            order = [s for s in order if has[s]]
        assert {s % 2 for s in order} == {0, 1}, "betting needs both teams"
        self.lance, self.eligible, self.queue, self.qi = phase, order, order, 0
        self.pending, self.total, self.held, self.team = False, 0, 0, None

    def expected_legal(self):
        t = self.target
        if not self.pending:
            return [PASO] + [env(n) for n in range(2, t + 1)] + [ORDAGO]
        out = [QUIERO, NOQ]
        if self.total != "ordago":
            out += [env(n) for n in range(2, t - self.total + 1)] + [ORDAGO]
        return out

    def actor(self):
        return self.queue[self.qi]

    def bet(self):
        return {"total": self.total, "held": self.held, "team": self.team} if self.pending else None

    def apply(self, seat, a):
        """Returns the closed lance record, or None if the lance goes on."""
        k = a["type"]
        rec = {"lance": self.lance, "result": None, "total": 0, "held": 0, "team": None}
        if k == "paso":
            self.qi += 1
            if self.qi == len(self.queue):
                rec["result"] = "paso"
                return rec
            return None
        if k in ("quiero", "no_quiero"):
            if k == "no_quiero":
                self.qi += 1
                if self.qi < len(self.queue):
                    return None
            rec.update(result="accepted" if k == "quiero" else "refused", total=self.total, held=self.held,
                       team=self.team)
            return rec
        if self.pending:
            self.held = self.total
            self.total = self.total + a["amount"] if k == "envido" else "ordago"
        else:
            self.held = 1
            self.total = a["amount"] if k == "envido" else "ordago"
        self.pending, self.team = True, seat % 2
        self.queue = [s for s in ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)
                      if s % 2 != seat % 2 and s in self.eligible]
        self.qi = 0
        return None


def _choose(rng, legal):
    kinds = {a["type"] for a in legal}
    if "mus" in kinds:
        return legal[0] if rng.random() < 0.6 else legal[1]
    if "discard" in kinds:
        return rng.choice(legal)
    r = rng.random()
    if r < 0.04 and ORDAGO in legal:
        return ORDAGO
    envs = [a for a in legal if a["type"] == "envido"]
    if r < 0.35 and envs:
        return rng.choice(envs[:6] if rng.random() < 0.8 else envs)
    if "paso" in kinds:
        return PASO
    return QUIERO if r < 0.65 else NOQ


def _lockstep(seed, opts):
    """Play a whole session checking every betting step and every count against the reference."""
    o = GAME.validate_options(opts)
    s = GAME.new_table(seats=4, options=o, seed=seed)
    rng = random.Random(seed)
    target, need = o["target"], (o["best_of"] + 1) // 2
    sh = Shadow(target)
    points, games, won = [0, 0], [0, 0], [0, 0]
    stacks = [o["buy_in"] - o["stake"]] * 4
    match, first_of_match = 1, True
    deal_lances: list[dict] = []
    v = s.view(None)
    prev_dealer = v["dealer"]
    stats = {"deals": 0, "stops": 0, "ordagos": 0, "refused": 0, "accepted": 0}
    in_lance = False
    spoke, dcounts, round_counts, expect_mano = 0, [], [0, 0, 0, 0], None
    while not s.is_over():
        v = s.view(None)
        seat = s.to_act()[0]
        legal = s.legal_actions(seat)
        if v["phase"] in ("grande", "chica", "pares", "juego", "punto"):
            if not in_lance:
                sh.enter(v)
                in_lance = True
            assert seat == sh.actor() and v["bet"] == sh.bet() and legal == sh.expected_legal()
        else:
            assert not in_lance
        hands_now = [s.view(x)["hand"] for x in range(4)]
        if v["phase"] in ("mus", "discard"):
            # position order from the (provisional) mano; discard_counts by seat per completed round
            assert seat == (v["mano"] + spoke) % 4 and v["discard_counts"] == dcounts
            assert v["mano"] == (v["dealer"] + 1) % 4 and v["declared"] == {"pares": None, "juego": None}
        else:
            assert v["mano"] == expect_mano and v["lances"] == deal_lances
            if v["phase"] in ("grande", "chica"):
                assert v["declared"]["pares"] is None
            else:
                assert v["declared"]["pares"] == [ref_pares(h)[0] > 0 for h in hands_now]
            if v["phase"] in ("juego", "punto"):
                assert v["declared"]["juego"] == [ref_total(h) >= 31 for h in hands_now]
            else:
                assert v["declared"]["juego"] is None
        a = _choose(rng, legal)
        ev = s.apply(seat, a)
        if a["type"] == "mus":
            spoke += 1
        elif a["type"] == "discard":
            round_counts[seat] = len(a["cards"])
            spoke += 1
        elif a["type"] == "no_mus":
            expect_mano = seat if (first_of_match and o["mus_corrido"]) else (v["dealer"] + 1) % 4
        if of(ev, "draw") or (a["type"] == "mus" and spoke == 4):
            spoke = 0
        if of(ev, "draw"):
            dcounts.append(round_counts)
            assert of(ev, "draw")[0]["counts"] == round_counts
            round_counts = [0, 0, 0, 0]
        if of(ev, "deal"):
            spoke, dcounts, round_counts = 0, [], [0, 0, 0, 0]
        if in_lance:
            rec = sh.apply(seat, a)
            ends = of(ev, "lance_end")
            if rec is None:
                assert not ends and s.to_act() == (sh.actor(),)
            else:
                assert ends and {k: ends[0][k] for k in rec} == rec
                deal_lances.append(rec)
                in_lance = False
                stats[rec["result"]] = stats.get(rec["result"], 0) + 1
        # automatic lances closed at once (no_bet) also appear as lance_end events
        for e in of(ev, "lance_end"):
            if e["result"] == "no_bet":
                deal_lances.append({k: e[k] for k in ("lance", "result", "total", "held", "team")})
        for e in ev:
            if e["type"] == "deal":
                # NEXT: the dealer moves on after every deal (from the mano of the deal just played)
                assert e["dealer"] == prev_dealer and e["corrido"] is (first_of_match and o["mus_corrido"])
            if e["type"] == "deal_end":
                stats["deals"] += 1
                hands, mano = e["hands"], e["mano"]
                ordago = e["ordago"]
                stats["ordagos"] += ordago is not None
                assert [x["lance"] for x in e["summary"]] == [x["lance"] for x in deal_lances]
                c, pts, gw, winners = ref_count(hands, mano, deal_lances, points, target, ordago)
                assert e["counted"] == c and e["points_after"] == pts and e["game_winner"] == gw
                assert e["lance_winners"] == winners and e["points_before"] == points
                stats["stops"] += gw is not None and ordago is None and c[-1][0] != deal_lances[-1]["lance"]
                deal_lances = []
                prev_dealer = (mano + 0) % 4  # the mano deals next (4.4)
                first_of_match = False
                points = pts
                if gw is not None:
                    games[gw] += 1
                    points = [0, 0]
                    if games[gw] == need:
                        won[gw] += 1
                        for x in (gw, gw + 2):
                            stacks[x] += 2 * o["stake"]
                        match += 1
                        games = [0, 0]
                        first_of_match = True
                        if match <= o["matches"]:
                            stacks = [x - o["stake"] for x in stacks]
        if not s.is_over():
            w = s.view(None)
            assert w["points"] == points and w["matches_won"] == won and w["stacks"] == stacks
            assert w["pot"] == 4 * o["stake"] and w["games"] == games
    assert s.stacks == stacks and s.pot == 0 and match == o["matches"] + 1
    return stats


@pytest.mark.parametrize("seed", range(16))
def test_lockstep_with_the_reference(seed):
    opts = [{}, {"best_of": 3}, {"target": 30, "matches": 2}, {"mus_corrido": False, "best_of": 5}][seed % 4]
    _lockstep(seed, opts)


def test_lockstep_covers_every_outcome():
    tot: dict[str, int] = {}
    for seed in range(100, 140):
        for k, val in _lockstep(seed, {"best_of": 3}).items():
            tot[k] = tot.get(k, 0) + val
    assert tot["deals"] > 100 and tot["ordagos"] > 5 and tot["stops"] > 0
    assert tot["refused"] > 20 and tot["accepted"] > 20 and tot["paso"] > 20


# =============================================================== hand-checked deals

# Pares: S1 par K (team 1), S2 par C and S0 medias S (team 0), S3 none.
# Juego: S2 33, S0 31 (team 0 only); S1 29, S3 22.
PARES3 = {1: "12O 3O 4O 5O", 2: "11O 11C 6O 7O", 0: "10O 10C 10E 1C", 3: "4C 5C 6C 7C"}


def test_second_responder_raises_after_a_no_quiero_and_responders_are_eligible_opponents():
    s = new([stacked(0, PARES3)], dealer=0)
    act(s, (1, NOMUS))
    pass_lance(s)
    pass_lance(s)
    v = s.view(None)
    assert v["phase"] == "pares" and v["declared"] == {"pares": [True, True, True, False], "juego": None}
    act(s, (1, env(2)))
    assert s.to_act() == (2,)
    act(s, (2, NOQ))
    assert s.to_act() == (0,)  # the second responder, after its partner's no_quiero
    act(s, (0, env(3)))  # raise: held = 2, total = 5
    assert s.view(None)["bet"] == {"total": 5, "held": 2, "team": 0}
    assert s.to_act() == (1,)  # S3 has no pares: S1 alone answers
    ev = act(s, (1, NOQ))
    assert of(ev, "lance_end")[0] == {"type": "lance_end", "lance": "pares", "result": "refused", "total": 5,
                                      "held": 2, "team": 0}
    # Juego held by team 0 only (S2 33, S0 31): no betting, the deal is counted.
    end = of(ev, "deal_end")[0]
    # grande en paso S1 (K K 5 4); chica en paso S0 (A S S S); pares refused: held 2 + team 0's own
    # bonus (par 1 + medias 2); juego no_bet: team 0's bonus 2 (33) + 3 (31).
    assert end["counted"] == [["grande", 1, 1, 0], ["chica", 0, 1, 0], ["pares", 0, 2, 3], ["juego", 0, 0, 5]]
    assert end["points_after"] == [11, 1]
    assert end["lance_winners"] == {"grande": 1, "chica": 0, "pares": 0, "juego": 0, "punto": None}


def test_pares_first_speaker_is_the_first_eligible_seat_from_the_mano():
    # Dealer 0, mano S1 without pares: S2 speaks first; after S2 passes and S3 bets, S0 answers
    # (S1 has no pares) and the raise is answered by S3 alone.
    hands = {1: "4C 5C 6C 7C", 2: "12O 3O 4O 5O", 3: "11O 11C 6O 7O", 0: "10O 10C 10E 1C"}
    s = new([stacked(0, hands)], dealer=0)
    act(s, (1, NOMUS))
    pass_lance(s)
    pass_lance(s)
    assert s.view(None)["declared"]["pares"] == [True, False, True, True] and s.to_act() == (2,)
    act(s, (2, PASO), (3, env(2)))
    assert s.to_act() == (0,)
    act(s, (0, env(2)))
    assert s.to_act() == (3,)
    assert s.view(None)["bet"] == {"total": 4, "held": 2, "team": 0}
    ev = act(s, (3, QUIERO))  # accepted 4: pares won by S0's medias S → team 0: 4 + (1 + 2)
    assert s.view(None)["declared"]["juego"] == [True, False, False, True] and s.to_act() == (3,)
    ev += pass_lance(s)  # juego S3 33 / S0 31 en paso: team 0's bonus 3
    end = of(ev, "deal_end")[0]
    assert end["counted"][2:] == [["pares", 0, 4, 3], ["juego", 0, 0, 3]]


def test_raise_ranges_are_capped_by_target_minus_total():
    s = new([stacked(0, PARES3)], dealer=0)
    act(s, NOMUS)
    assert s.legal_actions(1) == [PASO] + [env(n) for n in range(2, 41)] + [ORDAGO]
    act(s, (1, env(36)))
    assert s.legal_actions(2) == [QUIERO, NOQ, env(2), env(3), env(4), ORDAGO]
    act(s, (2, env(2)))  # total 38: only envido 2 left
    assert s.view(None)["bet"] == {"total": 38, "held": 36, "team": 0}
    assert s.legal_actions(3) == [QUIERO, NOQ, env(2), ORDAGO]
    harness.assert_refused(s, 4, 3, env(3))
    act(s, (3, NOQ), (1, env(2)))  # total 40: only órdago
    assert s.view(None)["bet"] == {"total": 40, "held": 38, "team": 1}
    assert s.legal_actions(2) == [QUIERO, NOQ, ORDAGO]
    act(s, (2, ORDAGO))
    assert s.view(None)["bet"] == {"total": "ordago", "held": 40, "team": 0}
    assert s.to_act() == (3,) and s.legal_actions(3) == [QUIERO, NOQ]
    act(s, (3, NOQ), (1, NOQ))
    assert s.view(None)["lances"] == [{"lance": "grande", "result": "refused", "total": "ordago", "held": 40,
                                       "team": 0}]
    ev = pass_lance(s) + pass_lance(s)
    # grande refused: team 0 scores 40 → game over at once, chica (S0 would win it) not counted.
    end = of(ev, "deal_end")[0]
    assert end["counted"] == [["grande", 0, 40, 0]] and end["points_after"] == [40, 0]
    assert end["game_winner"] == 0


def test_target_30_ranges():
    s = new([stacked(0, PARES3)], dealer=0, target=30)
    act(s, NOMUS)
    assert s.legal_actions(1) == [PASO] + [env(n) for n in range(2, 31)] + [ORDAGO]
    act(s, (1, env(29)))
    assert s.legal_actions(2) == [QUIERO, NOQ, ORDAGO]


# Juego both teams: S1 33 (team 1), S2 31 (team 0); nobody has pares.
JUEGO2 = {1: "11O 10O 7E 6E", 2: "12O 11C 10C 1O", 3: "4O 5O 6O 7O", 0: "4C 5C 6C 1C"}


def test_refused_juego_gives_the_bettor_its_own_bonus_without_comparison():
    s = new([stacked(0, JUEGO2)], dealer=0)
    ev = act(s, NOMUS) + pass_lance(s) + pass_lance(s)
    assert of(ev, "lance_end")[-1]["result"] == "no_bet"  # pares: nobody
    v = s.view(None)
    assert v["declared"] == {"pares": [False] * 4, "juego": [False, True, True, False]}
    assert v["phase"] == "juego" and s.to_act() == (1,)
    act(s, (1, env(2)))
    assert s.to_act() == (2,)  # S0 has no juego
    ev = act(s, (2, NOQ))
    end = of(ev, "deal_end")[0]
    # Team 1 scores held 1 + its own juego bonus (S1's 33: 2); S2's 31 is better but refused.
    assert end["counted"] == [["grande", 0, 1, 0], ["chica", 0, 1, 0], ["juego", 1, 1, 2]]
    assert end["lance_winners"] == {"grande": 2, "chica": 0, "pares": None, "juego": 2, "punto": None}


def test_juego_en_paso_gives_only_the_winner_bonus_and_accepted_juego_total_plus_bonus():
    s = new([stacked(0, JUEGO2)], dealer=0)
    ev = act(s, NOMUS) + pass_lance(s) + pass_lance(s) + pass_lance(s)
    assert of(ev, "deal_end")[0]["counted"][-1] == ["juego", 0, 0, 3]
    s = new([stacked(0, JUEGO2)], dealer=0)
    ev = act(s, NOMUS) + pass_lance(s) + pass_lance(s) + act(s, (1, env(5)), (2, QUIERO))
    assert of(ev, "deal_end")[0]["counted"][-1] == ["juego", 0, 5, 3]


# Nobody has juego: totals S1 16, S2 25, S3 28, S0 22; nobody has pares.
PUNTO = {1: "1C 4O 5C 6O", 2: "12O 11O 4C 2O", 3: "12C 10C 7O 1O", 0: "4E 5E 6C 7C"}


def test_refused_punto_after_raises_gives_held_plus_one():
    s = new([stacked(0, PUNTO)], dealer=0)
    act(s, NOMUS)
    pass_lance(s)
    pass_lance(s)
    assert s.view(None)["phase"] == "punto"
    act(s, (1, PASO), (2, env(3)), (3, env(2)))
    assert s.view(None)["bet"] == {"total": 5, "held": 3, "team": 1} and s.to_act() == (0,)
    act(s, (0, env(4)))
    assert s.view(None)["bet"] == {"total": 9, "held": 5, "team": 0} and s.to_act() == (1,)
    ev = act(s, (1, NOQ), (3, NOQ))
    end = of(ev, "deal_end")[0]
    # S3's 28 is the best punto, but team 1 refused: team 0 scores held 5 + punto bonus 1.
    assert end["counted"] == [["grande", 0, 1, 0], ["chica", 1, 1, 0], ["punto", 0, 5, 1]]
    assert end["lance_winners"]["punto"] == 3


def test_accepted_grande_and_chica_count_total_for_the_card_winner_not_the_bettor():
    s = new([stacked(0, PUNTO)], dealer=0)
    # grande: S1 bets 3, S2 accepts; winner S2 (K C 4 A) → team 0: 3. chica: S2 bets 2, S3 accepts;
    # winner S1 (A 4 5 6) → team 1: 2. Punto en paso: S3 (28) → team 1: 1.
    ev = act(s, NOMUS, (1, env(3)), (2, QUIERO), (1, PASO), (2, env(2)), (3, QUIERO)) + pass_lance(s)
    assert of(ev, "deal_end")[0]["counted"] == [["grande", 0, 3, 0], ["chica", 1, 2, 0], ["punto", 1, 0, 1]]


def test_accepted_ordago_raise_and_a_refusal_reaching_target_is_not_counted():
    # Deal 0 (dealer 0): team 1 wins grande 39 accepted, team 0 gets chica, pares and juego: [9, 39].
    deal0 = stacked(0, PARES3)
    # Deal 1 (dealer 1, mano S2): team 1 is refused a bet at grande (would reach 40), then team 0's
    # órdago at pares is accepted and won by S2's medias S: team 0 wins the game, nothing counted.
    deal1 = stacked(1, {2: "10O 10C 10E 1C", 3: "12O 3O 4O 5O", 0: "11O 11C 6O 7O", 1: "4C 5C 6C 7C"})
    s = new([deal0, deal1], dealer=0, best_of=3)
    ev = act(s, NOMUS, (1, env(39)), (2, QUIERO)) + pass_lance(s) + pass_lance(s)
    end = of(ev, "deal_end")[0]
    assert end["counted"] == [["grande", 1, 39, 0], ["chica", 0, 1, 0], ["pares", 0, 0, 3],
                              ["juego", 0, 0, 5]]
    assert s.view(None)["points"] == [9, 39] and s.view(None)["dealer"] == 1
    act(s, (2, NOMUS), (2, PASO), (3, env(2)), (0, NOQ), (2, NOQ))
    pass_lance(s)
    act(s, (2, PASO), (3, PASO), (0, env(2)))
    assert s.to_act() == (3,)  # S1 has no pares
    act(s, (3, ORDAGO))
    assert s.view(None)["bet"] == {"total": "ordago", "held": 2, "team": 1} and s.to_act() == (0,)
    assert s.legal_actions(0) == [QUIERO, NOQ]
    ev = act(s, (0, QUIERO))
    end = of(ev, "deal_end")[0]
    assert end["ordago"] == "pares" and end["counted"] == [] and end["points_after"] == [9, 39]
    assert end["game_winner"] == 0 and end["lance_winners"]["pares"] == 2
    assert [x["result"] for x in end["summary"]] == ["refused", "paso", "accepted"]
    v = s.view(None)
    assert v["games"] == [1, 0] and v["points"] == [0, 0] and not s.is_over()
    # NEXT: dealer 1 → 2 (the mano deals); not a match's first deal: no mus corrido.
    assert v["dealer"] == 2 and v["mano"] == 3 and v["deal"] == 2 and v["phase"] == "mus"
    assert of(ev, "deal")[0]["corrido"] is False and of(ev, "deal_end")[0]["deltas"] == [0] * 4
    assert v["last_hand"]["ordago"] == "pares" and v["last_hand"]["points_after"] == [9, 39]
    assert set(v["last_hand"]) == {"hands", "lance_winners", "counted", "points_after", "game_winner",
                                   "ordago"}


def test_count_stop_ignores_later_lances_and_does_not_cap():
    # Deal 0: grande 38 accepted (team 0 with S2 K C 4 A), chica en paso (team 1), punto en paso
    # (team 1): [38, 2]. Deal 1 (dealer 1, mano S2): grande en paso; chica accepted 5 by team 0 → 44
    # (not capped); the accepted punto bet of team 1 is never counted.
    deal1 = stacked(1, {2: "12O 11O 4C 2O", 3: "12C 10C 7O 1O", 0: "4E 5E 6C 7C", 1: "1C 4O 5C 6O"})
    s = new([stacked(0, PUNTO), deal1], dealer=0)
    act(s, NOMUS, (1, env(38)), (2, QUIERO))
    pass_lance(s)
    pass_lance(s)
    assert s.view(None)["points"] == [38, 2]
    act(s, (2, NOMUS))
    pass_lance(s)  # grande: S2 K C 4 A → team 0 +1 = 39
    act(s, (2, env(5)), (3, QUIERO))  # chica: S1 A 4 5 6 → team 1 wins it! 2 + 5 = 7
    ev = act(s, (2, env(10)), (3, QUIERO))  # punto: S3 28 → team 1 +11
    end = of(ev, "deal_end")[0]
    assert end["counted"] == [["grande", 0, 1, 0], ["chica", 1, 5, 0], ["punto", 1, 10, 1]]
    assert end["points_after"] == [39, 18] and end["game_winner"] is None
    # A deal that stops: [30, 16] after deal 0, then grande accepted 12 for team 0 → 42: the count
    # stops (chica en paso for team 1 and punto are ignored); the score is not capped.
    s2 = new([stacked(0, PUNTO), deal1], dealer=0)
    act(s2, NOMUS, (1, env(30)), (2, QUIERO))
    ev = act(s2, (1, env(15)), (2, QUIERO)) + pass_lance(s2)
    assert of(ev, "deal_end")[0]["counted"] == [["grande", 0, 30, 0], ["chica", 1, 15, 0], ["punto", 1, 0, 1]]
    assert s2.view(None)["points"] == [30, 16]
    ev = act(s2, (2, NOMUS), (2, env(12)), (3, QUIERO)) + pass_lance(s2) + pass_lance(s2)
    end = of(ev, "deal_end")[0]
    assert end["counted"] == [["grande", 0, 12, 0]] and end["points_after"] == [42, 16]
    assert end["game_winner"] == 0 and s2.is_over()
    assert [x["counted"] for x in end["summary"]] == [True, False, False, False]


def test_grande_chica_en_paso_one_point_and_pares_no_bet_nobody_nothing():
    s = new([stacked(0, PUNTO)], dealer=0)
    ev = act(s, NOMUS) + pass_lance(s) + pass_lance(s)
    le = of(ev, "lance_end")
    assert [x["result"] for x in le] == ["paso", "paso", "no_bet"]
    assert le[2] == {"type": "lance_end", "lance": "pares", "result": "no_bet", "total": 0, "held": 0,
                     "team": None, "holder_team": None}
    assert s.view(None)["lances"] == [
        {"lance": "grande", "result": "paso", "total": 0, "held": 0, "team": None},
        {"lance": "chica", "result": "paso", "total": 0, "held": 0, "team": None},
        {"lance": "pares", "result": "no_bet", "total": 0, "held": 0, "team": None},
    ]
    ev = pass_lance(s)
    assert of(ev, "deal_end")[0]["counted"] == [["grande", 0, 1, 0], ["chica", 1, 1, 0], ["punto", 1, 0, 1]]


# =============================================================== mus, discards, draw

def test_draw_order_per_seat_counts_and_reshuffle_of_old_discards_only():
    # Dealer 2: mano S3, position order S3, S0, S1, S2.
    deck = stacked(2, {3: "1O 2O 3O 4O", 0: "5O 6O 7O 10O", 1: "11O 12O 1C 2C", 2: "3C 4C 5C 6C"})
    s = new([deck], dealer=2, mus_corrido=False)
    act(s, (3, MUS), (0, MUS), (1, MUS), (2, MUS))
    assert s.view(None)["phase"] == "discard" and s.to_act() == (3,)
    act(s, (3, A("discard", cards=["1O"])), (0, A("discard", cards=["10O", "5O"])))
    act(s, (1, A("discard", cards=["2C", "11O", "12O"])))
    ev = act(s, (2, A("discard", cards=["3C", "4C", "5C", "6C"])))
    draw = of(ev, "draw")[0]
    assert draw["counts"] == [2, 3, 4, 1] and draw["reshuffled"] == 0
    v = s.view(None)
    assert v["discard_counts"] == [[2, 3, 4, 1]] and v["stock_count"] == 14 and v["mus_round"] == 1
    # deck[16] to S3, deck[17..18] to S0, deck[19..21] to S1, deck[22..25] to S2.
    assert set(s.view(3)["hand"]) == {"2O", "3O", "4O", deck[16]}
    assert set(s.view(0)["hand"]) == {"6O", "7O", deck[17], deck[18]}
    assert set(s.view(1)["hand"]) == {"1C", *deck[19:22]}
    assert set(s.view(2)["hand"]) == set(deck[22:26])
    assert s.view(2)["hand"] == [c for c in DECK_ES_40 if c in set(deck[22:26])]  # canonical order
    round1 = {"1O", "10O", "5O", "2C", "11O", "12O", "3C", "4C", "5C", "6C"}
    act(s, (3, MUS), (0, MUS), (1, MUS), (2, MUS))
    held2 = {x: s.view(x)["hand"] for x in range(4)}
    for x in (3, 0, 1, 2):
        act(s, (x, A("discard", cards=held2[x])))
    v = s.view(None)
    assert v["discard_counts"] == [[2, 3, 4, 1], [4, 4, 4, 4]] and v["stock_count"] == 8
    # S3, S0, S1 take 12 of the 14 stock cards; S2 takes the last 2, then 2 of round 1's discards.
    assert set(s.view(3)["hand"]) == set(deck[26:30])
    assert set(s.view(0)["hand"]) == set(deck[30:34])
    assert set(s.view(1)["hand"]) == set(deck[34:38])
    h2 = set(s.view(2)["hand"])
    assert {deck[38], deck[39]} <= h2 and len(h2 - {deck[38], deck[39]} - round1) == 0
    assert not h2 & set(held2[2])


def test_no_mus_by_a_later_seat_with_corrido_off_keeps_the_mano():
    s = new([stacked(0, PUNTO)], dealer=0, mus_corrido=False)
    act(s, (1, MUS), (2, NOMUS))
    v = s.view(None)
    assert v["phase"] == "grande" and v["mano"] == 1 and v["dealer"] == 0 and s.to_act() == (1,)
    assert v["discard_counts"] == [] and v["mus_round"] == 0


def test_mus_corrido_cut_by_the_dealer_itself():
    s = new([stacked(0, PUNTO)], dealer=0)
    act(s, (1, MUS), (2, MUS), (3, MUS), (0, NOMUS))
    v = s.view(None)
    assert v["mano"] == 0 and v["dealer"] == 3 and s.to_act() == (0,)
    ev = pass_lance(s) + pass_lance(s) + pass_lance(s)
    end = of(ev, "deal_end")[0]
    assert end["mano"] == 0
    # ties in position order from the new mano S0; the next deal is dealt by S0.
    assert s.view(None)["dealer"] == 0 and s.view(None)["mano"] == 1


# =============================================================== NEXT, matches, close

def _ordago_deal(s) -> list[dict]:
    return act(s, NOMUS, ORDAGO, QUIERO)


def test_next_dealer_games_matches_and_session_end():
    s = new(None, dealer=3, seed=21, best_of=3, matches=2, stake=7, buy_in=50)
    assert s.stacks == [43] * 4 and s.pot == 28
    dealers, corrido, results = [], [], []
    ev_all: list[dict] = []
    while not s.is_over():
        ev = _ordago_deal(s)
        ev_all += ev
        dealers += [e["dealer"] for e in of(ev, "deal")]
        corrido += [e["corrido"] for e in of(ev, "deal")]
        results += [m["results"] for m in of(ev, "match_end")]
    n = len(of(ev_all, "deal_end"))
    assert dealers == [(3 + i) % 4 for i in range(1, n)]
    assert len(results) == 2
    net = [sum(r[i] for r in results) for i in range(4)]
    assert s.stacks == [50 + x for x in net] and s.pot == 0
    assert of(ev_all, "session_end")[0]["results"] == net and net[0] == net[2] and net[1] == net[3]
    # corrido only on the first deal of match 2 (the first deal of match 1 is dealt at creation)
    match2_first = [i for i, e in enumerate(of(ev_all, "deal")) if e["match"] == 2][0]
    assert corrido == [i == match2_first for i in range(len(corrido))]
    v = s.view(2)
    assert v["phase"] == "session_end" and v["to_act"] == [] and v["matches_won"] == [
        sum(1 for m in of(ev_all, "match_end") if m["team"] == t) for t in (0, 1)]


PHASE_MOVES = {
    "mus-acted": [MUS],
    "discard": [MUS, MUS, MUS, MUS],
    "discard-acted": [MUS, MUS, MUS, MUS, A("discard", cards=["1C"])],
    "grande": [NOMUS],
    "grande-pending": [NOMUS, env(2)],
    "grande-raise": [NOMUS, env(2), NOQ, env(3)],
    "chica": [NOMUS, PASO, PASO, PASO, PASO],
    "punto": [NOMUS] + [PASO] * 8,
    "punto-ordago": [NOMUS] + [PASO] * 8 + [ORDAGO],
}


@pytest.mark.parametrize("where", list(PHASE_MOVES))
@pytest.mark.parametrize("now", [False, True])
def test_request_close_in_every_phase(where, now):
    s = new([stacked(0, PUNTO)] * 3, dealer=0, best_of=3, stake=10)
    act(s, *PHASE_MOVES[where])
    before = s.view(None)["phase"]
    ev = s.request_close(now=now)
    assert ev[0] == {"type": "close_requested", "now": now}
    assert s.view(None)["closing"] is True and sum(s.stacks) + s.pot == 400
    if now:
        assert [e["type"] for e in ev] == ["close_requested", "deal_voided", "match_abandoned", "session_end"]
        assert s.is_over() and s.stacks == [100] * 4 and s.pot == 0
        assert all(s.view(x)["hand"] == [] for x in range(4)) and harness.cards_in(ev) == set()
    else:
        assert len(ev) == 1 and not s.is_over() and s.view(None)["phase"] == before
        assert s.request_close() == []
        rng = random.Random(1)
        ev = []
        while not s.is_over():
            x = s.to_act()[0]
            ev += s.apply(x, rng.choice(s.legal_actions(x)))
        assert len(of(ev, "deal_end")) == 1  # the session ends after the current deal
        assert s.pot == 0 and sum(s.stacks) == 400
        if of(ev, "match_end"):
            assert not of(ev, "match_abandoned")
        else:
            assert of(ev, "match_abandoned")[0]["refund"] == [10] * 4 and s.stacks == [100] * 4
    harness.assert_no_leaks(s, 4)
    assert s.request_close(now=True) == [] and s.request_close() == []
    assert s.to_act() == () and all(s.legal_actions(x) == [] for x in range(4))
    with pytest.raises(IllegalMove):
        s.apply(1, PASO)


def test_request_close_now_after_close_requested_voids_the_deal():
    s = new([stacked(0, PUNTO)], dealer=0)
    act(s, NOMUS, env(2))
    assert len(s.request_close()) == 1
    ev = s.request_close(now=True)
    assert [e["type"] for e in ev] == ["close_requested", "deal_voided", "match_abandoned", "session_end"]
    assert s.stacks == [100] * 4


def test_close_after_a_game_won_abandons_the_unfinished_match():
    s = new(None, dealer=0, seed=4, best_of=3, stake=10)
    _ordago_deal(s)
    assert sum(s.view(None)["games"]) == 1
    act(s, NOMUS)
    s.request_close()
    ev = []
    while not s.is_over():
        ev += act(s, s.timeout_action(s.to_act()[0]))
    assert of(ev, "match_abandoned") and s.stacks == [100] * 4
    assert of(ev, "session_end")[0]["results"] == [0, 0, 0, 0]


# =============================================================== hostile input, leaks, clone

def test_hostile_actions_only_raise_illegal_move():
    s = new([stacked(0, PUNTO)], dealer=0)
    bad_seats = [None, -1, 4, 1.0, "1", True, [1], {1: 1}]
    weird = [None, 1, "paso", [PASO], A("paso", amount=None), {"type": ["paso"]}, {"type": {"a": 1}},
             {1: 2}, A("envido", amount=[2]), A("envido", amount={"x": 1}), A("envido", amount=2, x=[]),
             A("discard", cards=[["1C"]]), A("discard", cards={"1C": 1}), A("discard", cards=None),
             A("discard", cards=[None]), A("discard", cards=[{"a": 1}])]
    for phase_moves in ([], [MUS, MUS, MUS, MUS], [NOMUS], [NOMUS, env(3)], [NOMUS, ORDAGO]):
        t = new([stacked(0, PUNTO)], dealer=0)
        act(t, *phase_moves)
        seat = t.to_act()[0]
        for a in weird:
            if a not in t.legal_actions(seat):
                harness.assert_refused(t, 4, seat, a)
        for bad in bad_seats:
            harness.assert_refused(t, 4, bad, t.legal_actions(seat)[0])
        assert all(t.legal_actions(b) == [] for b in bad_seats if not isinstance(b, (list, dict)))
    json.dumps(s.view(None))


def test_views_and_events_hide_cards_through_a_whole_deal_and_show_them_at_scoring():
    s = new([stacked(0, PUNTO)], dealer=0)
    ev = act(s, MUS, MUS, MUS, MUS)
    for x in (1, 2, 3, 0):
        ev += act(s, (x, A("discard", cards=s.view(x)["hand"][:1])))
    ev += act(s, NOMUS, env(2), QUIERO)
    assert harness.cards_in(ev) == set() and harness.cards_in(s.view(None)) == set()
    for x in range(4):
        others = set().union(*(s.view(y)["hand"] for y in range(4) if y != x))
        assert not harness.cards_in(s.view(x)) & others
    hands = [s.view(x)["hand"] for x in range(4)]
    ev = []
    while not of(ev, "deal_end"):
        ev += act(s, s.timeout_action(s.to_act()[0]))
    assert s.view(None)["last_hand"]["hands"] == hands == of(ev, "deal_end")[0]["hands"]
    harness.assert_no_leaks(s, 4)


def test_clone_shares_nothing_that_apply_mutates():
    s = new([stacked(0, PUNTO)], dealer=0)
    act(s, MUS, MUS, MUS, MUS, A("discard", cards=["1C"]))
    snap = harness.snapshot(s, 4)
    c = s.clone()
    act(c, *[c.timeout_action(c.to_act()[0]) for _ in range(1)])
    while not c.is_over():
        act(c, c.timeout_action(c.to_act()[0]))
    assert harness.snapshot(s, 4) == snap
    c2 = s.clone()
    while not s.is_over():
        act(s, s.timeout_action(s.to_act()[0]))
    assert harness.snapshot(c2, 4) != harness.snapshot(s, 4)
    c3 = new([stacked(0, PUNTO)], dealer=0)
    act(c3, NOMUS, env(2))
    d = c3.clone()
    snap = harness.snapshot(c3, 4)
    act(d, env(2), NOQ, NOQ)
    assert harness.snapshot(c3, 4) == snap and c3.legal_actions(2)[2] == env(2)


def test_timeout_actions_are_legal_in_every_state():
    for seed in range(6):
        s = GAME.new_table(seats=4, options=GAME.validate_options({"best_of": 3}), seed=seed)
        rng = random.Random(seed)
        while not s.is_over():
            x = s.to_act()[0]
            t = s.timeout_action(x)
            assert t in s.legal_actions(x)
            if s.view(None)["phase"] == "discard":
                hand = s.view(x)["hand"]
                weakest = min(hand, key=lambda c: (_STR[c[:-1]], DECK_ES_40.index(c)))
                assert t == A("discard", cards=[weakest])
            s.apply(x, t if rng.random() < 0.5 else _choose(rng, s.legal_actions(x)))
